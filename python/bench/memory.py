"""Peak memory while reading a big archive with drafti.read_games.

Writes the bundled corpus (corpus/selfplay.pdn, 2,000 games, 1.8 MB) COPIES times into a
temporary file, reads every game of it with drafti.read_games (each replayed and validated,
nothing kept), and prints the games, the plies, the file's size, the time and the peak
resident memory of the process (VmHWM):

    python3 python/bench/memory.py [COPIES] [--jobs N]      # default 100 copies: 177 MB

Memory stays flat: the reader holds a few hundred games at a time, whatever the file's size.
"""

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import drafti

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "selfplay.pdn"


def peak_rss_mb() -> float:
    """Peak resident set size of this process, MiB: VmHWM on Linux (ru_maxrss would also
    count the RSS of the process that started this one, kept across exec)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("copies", nargs="?", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=0)
    args = parser.parse_args()
    text = CORPUS.read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"selfplay-x{args.copies}.pdn"
        with open(path, "wb") as f:
            for _ in range(args.copies):
                f.write(text)
                f.write(b"\n")
        size = path.stat().st_size
        before = peak_rss_mb()
        started = time.perf_counter()
        games = plies = invalid = 0
        for game in drafti.read_games(path, jobs=args.jobs):
            games += 1
            plies += game.plies
            invalid += not game.is_valid
        seconds = time.perf_counter() - started
    print(
        f"copies={args.copies} games={games} invalid={invalid} plies={plies} "
        f"file_mb={size / 2**20:.1f} seconds={seconds:.2f} games_per_s={games / seconds:.0f} "
        f"rss_before_mb={before:.1f} peak_rss_mb={peak_rss_mb():.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
