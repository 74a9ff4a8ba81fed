#!/usr/bin/env bash
# Regenerates a variant's training data and trains its network (docs/engine.md "The network",
# docs/lab/nnue.md): seeded self-play at 10,000 nodes a move written by `texel gen`, one quiet
# position a line with the game's result, the search's score and the game's number, opening
# plies included; then `nnue_train train` with the shipped network's shape and settings
# (hidden 64, 4 buckets, squared clipped ReLU, λ 0.5, 20 epochs, one game in ten held out),
# which prints the held-out log-loss of every epoch and of the quantised network at the end.
#   scripts/train-network.sh VARIANT GAMES DIR    e.g. scripts/train-network.sh russian 6000 /tmp/net
# For Czech and Russian a second stream of GAMES games opens with the FMJD ballots
# (db/data/fmjd-64.tsv, game i the ballot i mod 344) and ends a game after 40 plies without a
# capture or a man's move (their self-play has no draw law): the recipe of the strongest
# networks measured so far (docs/lab/tanzanian-network-verdicts.md, "More data, from real
# openings"). Writes DIR/VARIANT-random.txt [DIR/VARIANT-ballots.txt] and DIR/nnue-VARIANT.bin.
# Deterministic: the same engine gives the same bytes. The data depend on the engine that
# plays the games (`--nodes` at 10,000 a move, about 2-3 games a second on two cores).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 3 ]; then
    echo "usage: scripts/train-network.sh tz|czech|russian GAMES DIR" >&2
    exit 2
fi
variant=$1 games=$2 dir=$3
case "$variant" in
    tz | czech | russian) ;;
    *) echo "unknown variant '$variant' (tz, czech, russian)" >&2; exit 2 ;;
esac
case "$games" in
    '' | *[!0-9]*) echo "GAMES must be a whole number, not '$games'" >&2; exit 2 ;;
esac
mkdir -p "$dir"
cargo build --quiet --release -p drafti-lab --example texel
cargo build --quiet --release -p drafti-engine --example nnue_train
bin=${CARGO_TARGET_DIR:-target}/release/examples
data="$dir/$variant-random.txt"
"$bin/texel" gen --variant "$variant" --games "$games" --nodes 10000 --seed 39 --jobs 2 \
    --opening record > "$dir/$variant-random.txt"
if [ "$variant" != tz ]; then
    "$bin/texel" gen --variant "$variant" --games "$games" --nodes 10000 --seed 41 --jobs 2 \
        --opening record --no-progress 40 --starts db/data/fmjd-64.tsv > "$dir/$variant-ballots.txt"
    data="$data,$dir/$variant-ballots.txt"
fi
"$bin/nnue_train" train --data "$data" --hidden 64 --buckets 4 --activation screlu \
    --epochs 20 --batch 1024 --holdout 10 --lambda 0.5 --seed 1 --threads 2 \
    --out "$dir/nnue-$variant.bin"
echo "$dir/nnue-$variant.bin" >&2
