#!/usr/bin/env bash
# Regenerates a variant's training data and fits its evaluation weights (the pattern
# evaluation's Texel fit, docs/engine.md "Evaluation"): seeded self-play games at 10,000 nodes
# a move, one quiet position a line with the game's result and the search's score, then the
# fit of every weight (15 pattern regions) on whole games, every tenth held out.
#   scripts/train-eval.sh VARIANT GAMES DIR    e.g. scripts/train-eval.sh russian 5000 /tmp/train
# writes DIR/VARIANT-data.txt and DIR/eval-weights-VARIANT.txt (the engine embeds
# engine/data/eval-weights[-VARIANT].txt). Deterministic: the same engine gives the same bytes
# (games seeded by their number, node limits; the fit's sums split in a fixed order).
# The data depend on the engine that plays the games: the files' headers name it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 3 ]; then
    echo "usage: scripts/train-eval.sh tz|czech|russian GAMES DIR" >&2
    exit 2
fi
variant=$1 games=$2 dir=$3
case "$variant" in
    tz) shipped=engine/data/eval-weights.txt ;;
    czech | russian) shipped=engine/data/eval-weights-$variant.txt ;;
    *) echo "unknown variant '$variant' (tz, czech, russian)" >&2; exit 2 ;;
esac
mkdir -p "$dir"
cargo build --quiet --release -p drafti-lab --example texel
texel=${CARGO_TARGET_DIR:-target}/release/examples/texel
"$texel" gen --variant "$variant" --games "$games" --nodes 10000 --seed 39 --jobs 2 \
    > "$dir/$variant-data.txt"
# The fit starts from the shipped weights, pulled towards them a little (--l2).
"$texel" fit --variant "$variant" --data "$dir/$variant-data.txt" --start "$shipped" \
    --epochs 200 --lambda 1 --regions 15 --holdout 10 --jobs 2 > "$dir/eval-weights-$variant.txt"
echo "$dir/eval-weights-$variant.txt" >&2
