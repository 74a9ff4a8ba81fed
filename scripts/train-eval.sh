#!/usr/bin/env bash
# Regenerates a variant's training data and fits its evaluation weights (the pattern
# evaluation's Texel fit, docs/engine.md "Evaluation"), every weight (15 pattern regions),
# whole games held out (one in ten):
# - tz: seeded self-play games at 10,000 nodes a move, one quiet position a line with the
#   game's result, fitted to the results (lambda 1);
# - czech, russian (the shipped weights, docs/lab/distilled-weights.md): two generations.
#   Each plays GAMES self-play games at 2,000 nodes a move opened by the FMJD ballots
#   (db/data/fmjd-64.tsv), draws 80,000 distinct quiet positions it has not drawn before (a
#   seeded draw), searches each alone at 100,000 nodes and fits every weight to those deeper
#   scores (lambda 0). Generation 1 plays and searches with the Tanzanian weights and fits
#   from them in the scores' own units (`--k scores`); generation 2 plays and searches with
#   generation 1's fit and fits both generations' positions from it at generation 1's k.
#   About an hour of two cores.
#   scripts/train-eval.sh VARIANT GAMES DIR    e.g. scripts/train-eval.sh russian 4000 /tmp/train
# writes DIR/VARIANT-data.txt (every labelled position the last fit used) and
# DIR/eval-weights-VARIANT.txt (the engine embeds engine/data/eval-weights[-VARIANT].txt; the
# shipped Czech and Russian files were made with GAMES 4000: generation 1 by the engine of
# aeca57c, generation 2 by that of 26b688c, the same search; their header lines are above the
# fit's own). Deterministic: the same engine gives the same bytes (games seeded by their
# number, node limits, each deeper search alone in a fresh table; the fit's sums split in a
# fixed order). The data depend on the engine that plays and searches them.
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
    # generation G: games played with the weights W, positions not drawn before, labels from
    # searches with W, the fit from W over every labelled position so far.
    generation() {
        local g=$1 seed=$2 weights=$3 epochs=$4 k=$5
        "$texel" gen --variant "$variant" --games "$games" --nodes 2000 --seed "$seed" --jobs 1 \
            --opening record --no-progress 40 --starts db/data/fmjd-64.tsv --weights "$weights" \
            > "$dir/$variant-games-$g.txt"
        # Each distinct position once (its first line) that no earlier generation drew, in a
        # seeded order; the first 80,000.
        python3 -c '
import random, sys
games, drawn = sys.argv[1], sys.argv[2:]
seen, rows = set(), []
for path in drawn:
    seen.update(line.split("\t")[0] for line in open(path))
for line in open(games):
    fen = line.split("\t")[0]
    if fen not in seen:
        seen.add(fen)
        rows.append(line)
random.seed(7)
random.shuffle(rows)
sys.stdout.writelines(rows[:80000])' "$dir/$variant-games-$g.txt" "${drawn[@]}" > "$dir/$variant-drawn-$g.txt"
        drawn+=("$dir/$variant-drawn-$g.txt")
        "$texel" relabel --data "$dir/$variant-drawn-$g.txt" --nodes 100000 --variant "$variant" \
            --weights "$weights" --jobs 2 > "$dir/$variant-labelled-$g.txt"
        labelled=("$dir/$variant-labelled-$g.txt" "${labelled[@]}")
        "$texel" fit --variant "$variant" --data "$(IFS=,; echo "${labelled[*]}")" \
            --start "$weights" --epochs "$epochs" --lambda 0 --k "$k" --regions 15 \
            --holdout 10 --jobs 2 > "$dir/eval-weights-$variant-$g.txt"
    }
    drawn=() labelled=()
    generation 1 43 engine/data/eval-weights.txt 200 scores
    # The second keeps the first's scale (its k, in the fit's header): its labels are steeper,
    # and one judge's curve serves every variant (docs/lab/distilled-weights.md).
    k1=$(grep -o -m1 '^# [0-9]* positions, k = [0-9.]*' "$dir/eval-weights-$variant-1.txt" | grep -o '[0-9.]*$')
    generation 2 44 "$dir/eval-weights-$variant-1.txt" 100 "$k1"
    cat "${labelled[@]}" > "$dir/$variant-data.txt"
    cp "$dir/eval-weights-$variant-2.txt" "$dir/eval-weights-$variant.txt"
fi
echo "$dir/eval-weights-$variant.txt" >&2
