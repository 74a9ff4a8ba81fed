#!/usr/bin/env bash
# Regenerates a variant's training data and fits its evaluation weights (the pattern
# evaluation's Texel fit, docs/engine.md "Evaluation"), every weight (15 pattern regions),
# whole games held out (one in ten):
# - tz: seeded self-play games at 10,000 nodes a move, one quiet position a line with the
#   game's result, fitted to the results (lambda 1);
# - czech, russian (the shipped weights, docs/lab/distilled-weights.md): self-play at 2,000
#   nodes a move opened by the FMJD ballots (db/data/fmjd-64.tsv), 80,000 of its distinct quiet
#   positions (a seeded draw) each searched alone at 100,000 nodes, fitted to those deeper
#   scores in their units (lambda 0, `--k scores`) from the Tanzanian weights. About 30 minutes
#   of two cores.
#   scripts/train-eval.sh VARIANT GAMES DIR    e.g. scripts/train-eval.sh russian 4000 /tmp/train
# writes DIR/VARIANT-data.txt and DIR/eval-weights-VARIANT.txt (the engine embeds
# engine/data/eval-weights[-VARIANT].txt; the shipped Czech and Russian files were made with
# GAMES 4000 by the engine of aeca57c, which played and searched both with the Tanzanian
# weights; their header lines are above the fit's own). Deterministic: the same engine gives
# the same bytes (games seeded by their number, node limits, each deeper search alone in a
# fresh table; the fit's sums split in a fixed order). The data depend on the engine that
# plays and searches them.
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
if [ "$variant" = tz ]; then
    "$texel" gen --variant "$variant" --games "$games" --nodes 10000 --seed 39 --jobs 2 \
        > "$dir/$variant-data.txt"
    # The fit starts from the shipped weights, pulled towards them a little (--l2).
    "$texel" fit --variant "$variant" --data "$dir/$variant-data.txt" --start "$shipped" \
        --epochs 200 --lambda 1 --regions 15 --holdout 10 --jobs 2 \
        > "$dir/eval-weights-$variant.txt"
else
    "$texel" gen --variant "$variant" --games "$games" --nodes 2000 --seed 43 --jobs 1 \
        --opening record --no-progress 40 --starts db/data/fmjd-64.tsv > "$dir/$variant-games.txt"
    # Each distinct position once (its first line), in a seeded order; the first 80,000.
    python3 -c '
import random, sys
seen, rows = set(), []
for line in open(sys.argv[1]):
    fen = line.split("\t")[0]
    if fen not in seen:
        seen.add(fen)
        rows.append(line)
random.seed(7)
random.shuffle(rows)
sys.stdout.writelines(rows[:80000])' "$dir/$variant-games.txt" > "$dir/$variant-drawn.txt"
    "$texel" relabel --data "$dir/$variant-drawn.txt" --nodes 100000 --variant "$variant" \
        --jobs 2 > "$dir/$variant-data.txt"
    "$texel" fit --variant "$variant" --data "$dir/$variant-data.txt" \
        --start engine/data/eval-weights.txt --epochs 200 --lambda 0 --k scores --regions 15 --holdout 10 \
        --jobs 2 > "$dir/eval-weights-$variant.txt"
fi
echo "$dir/eval-weights-$variant.txt" >&2
