#!/usr/bin/env bash
# Writes the samples these references judge (the two Tanzanian ones of
# docs/lab/tanzanian-network-verdicts.md, the held-out half of the master games of
# docs/lab/whole-iterations.md) and unpacks the references beside them:
#   lab/references/make-samples.sh DIR
# DIR/tzq/tanzanian-selfplay.pdn     the bundled self-play of 555a1e8, all 2,000 games
#                                    (sample A: drafti-lab quality --corpora DIR/tzq --sample 40)
# DIR/tzq2/tanzanian-selfplay-b.pdn  its games 21, 61, ..., 1981 (sample B: --corpora DIR/tzq2 --sample 1)
# DIR/even/*.pdn                     games 2, 4, 6, ... of each master file of tests/fixtures/corpora
#                                    (the held-out half: --corpora DIR/even --sample 1)
# DIR/tzd/tzdraft-selfplay-seed11.pdn 300 TzDraft games of self-play by the engine before its
#                                    searches knew TzDraft's draw rules (the sample:
#                                    --corpora DIR/tzd --sample 10 --no-egtb)
# DIR/*.jsonl                        the references, every position alone
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -ne 1 ]; then
    echo "usage: lab/references/make-samples.sh DIR" >&2
    exit 2
fi
dir=$1
mkdir -p "$dir/tzq" "$dir/tzq2"
git show 555a1e8:corpus/selfplay.pdn > "$dir/tzq/tanzanian-selfplay.pdn"
awk '/^\[Event /{n++} n && (n - 1) % 40 == 20' "$dir/tzq/tanzanian-selfplay.pdn" \
    > "$dir/tzq2/tanzanian-selfplay-b.pdn"
mkdir -p "$dir/even"
for f in tests/fixtures/corpora/*.pdn; do
    awk '/^\[Event /{n++} n && n % 2 == 0' "$f" > "$dir/even/$(basename "$f")"
done
mkdir -p "$dir/tzd"
xz -dc lab/references/tzdraft-selfplay-seed11.pdn.xz > "$dir/tzd/tzdraft-selfplay-seed11.pdn"
for f in lab/references/*.jsonl.xz; do
    xz -dc "$f" > "$dir/$(basename "$f" .xz)"
done
ls -l "$dir"/*.jsonl >&2
