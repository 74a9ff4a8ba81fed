#!/bin/bash
# Usage: bash scripts/metrics/lines.sh REPO   (ARCHITECTURE.md: no crate above 20% of the code)
# Lines of Rust per crate folder (src, tests, examples, benches), and the share of the total.
cd "$1"
total=0
declare -A n
for d in rules parser engine hub archive db analyzer analysis report cli lab tests wasm; do
  [ -d "$d" ] || continue
  c=$(find "$d" -name '*.rs' -not -path '*/target/*' -not -path '*/fuzz/*' -print0 | xargs -0 cat | wc -l)
  n[$d]=$c; total=$((total + c))
done
for d in rules parser engine hub archive db analyzer analysis report cli lab tests wasm; do
  [ -n "${n[$d]}" ] && printf "%-9s %6d  %4.1f%%\n" "$d" "${n[$d]}" "$(echo "100*${n[$d]}/$total" | bc -l)"
done
echo "total     $total"
