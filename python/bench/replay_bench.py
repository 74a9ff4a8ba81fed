"""Replaying and validating the same Russian games with drafti, pydraughts and py-draughts,
and drafti from Python against the drafti binary: one run, the ratios printed.

Every figure is CPU time (``time.process_time``: the process's own threads, not the
machine's load), over several rounds: the median with the slowest and fastest round, and
the ratios as median (range), the range pairing each library's fastest round with the
other's slowest.

Setup (once; the two libraries both install a package called ``draughts``, so each goes to
its own folder and runs in its own process):

    python3 -m pip install ./python
    python3 -m pip install --target python/bench/.libs/pydraughts pydraughts==0.6.7
    python3 -m pip install --target python/bench/.libs/py-draughts py-draughts==1.10.1
    cargo build --profile ci -p drafti

Run:

    python3 python/bench/replay_bench.py [--rounds 3] [--copies 50]

The games: the two Russian master archives (``russian-*.pdn``, 209 games). They are read
with drafti (Russian rules) and written back as one normalised PDN file that all three
libraries read: a ``[GameType "25"]`` tag, the other tags, and the moves in algebraic
notation with every capture's full path; without the archives' FEN tag, which is the
standard start written with a stray ``.`` that pydraughts and py-draughts refuse, and
without their abbreviated capture paths (``c5:g5`` for a double capture), which pydraughts
does not resolve. Every library replays every move of every game through its rules, and
checks it legal:

- pydraughts: ``PDNReader`` on each game's text (on the whole file its splitter stops after
  36 games), then ``Board.push(Move(board, pdn_move=...))`` for each move;
- py-draughts: ``RussianBoard.from_pdn`` on each game's text;
- drafti: ``drafti.read_games`` on the file (parse, replay, validate each game), on one
  thread (CPU time of all cores is the same work spread, so only one thread is compared);
  each round replays the file 20 times, as once takes milliseconds.

Then drafti from Python against the binary on the same work: ``drafti validate --json
--variant russian`` against ``drafti.validate`` (its rows, and with every row read into a
dict) and ``drafti.read_games`` on the same file holding ``--copies`` copies of the games,
the best of several runs each.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import drafti

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]

PYDRAUGHTS = r"""
import json, sys, time
from draughts import Board, Move
from draughts.PDN import PDNReader
texts = json.load(open(sys.argv[1], encoding="utf-8"))
rounds = []
for _ in range(int(sys.argv[2])):
    started = time.process_time()
    games = moves = 0
    for text in texts:
        game = PDNReader(pdn_text=text).games[0]
        board = Board(variant="russian")
        for m in game.moves:
            board.push(Move(board, pdn_move=m))
            moves += 1
        games += 1
    rounds.append(time.process_time() - started)
print(json.dumps({"games": games, "moves": moves, "rounds": rounds}))
"""

PY_DRAUGHTS = r"""
import json, sys, time
from draughts import RussianBoard
texts = json.load(open(sys.argv[1], encoding="utf-8"))
rounds = []
for _ in range(int(sys.argv[2])):
    started = time.process_time()
    games = moves = 0
    for text in texts:
        board = RussianBoard.from_pdn(text)
        moves += len(board._moves_stack)
        games += 1
    rounds.append(time.process_time() - started)
print(json.dumps({"games": games, "moves": moves, "rounds": rounds}))
"""

#: drafti replays the file this many times a round (once takes milliseconds).
DRAFTI_REPEATS = 20


def normalised(game: drafti.Game) -> str:
    text = game.to_pdn("algebraic", full_captures=True)
    lines = [line for line in text.splitlines() if not line.startswith("[FEN ")]
    return '[GameType "25"]\n' + "\n".join(lines) + "\n"


def run_library(name: str, libs: Path, script: str, data: Path, rounds: int) -> dict:
    path = libs / name
    if not path.is_dir():
        sys.exit(f"{path} is missing: python3 -m pip install --target {path} {name}")
    env = dict(os.environ, PYTHONPATH=str(path))
    out = subprocess.run(
        [sys.executable, "-c", script, str(data), str(rounds)], env=env, capture_output=True, text=True
    )
    if out.returncode != 0:
        sys.exit(f"{name} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.splitlines()[-1])


def best(times: int, work) -> float:
    seconds = []
    for _ in range(times):
        started = time.perf_counter()
        work()
        seconds.append(time.perf_counter() - started)
    return min(seconds)


def cpu_rounds(rounds: int, repeats: int, work) -> list:
    """CPU seconds of one ``work()``, measured over ``repeats`` calls, for each round."""
    out = []
    for _ in range(rounds):
        started = time.process_time()
        for _ in range(repeats):
            work()
        out.append((time.process_time() - started) / repeats)
    return out


def spread(values: list) -> tuple:
    """(median, lowest, highest)."""
    ordered = sorted(values)
    return ordered[len(ordered) // 2], ordered[0], ordered[-1]


def find_binary(given: str | None) -> Path:
    if given:
        return Path(given)
    for profile in ("ci", "release"):
        path = REPO / "target" / profile / "drafti"
        if path.exists():
            return path
    found = shutil.which("drafti")
    if found:
        return Path(found)
    sys.exit("no drafti binary: cargo build --profile ci -p drafti (or give --drafti-bin)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", default=str(REPO / "tests" / "fixtures" / "corpora"))
    parser.add_argument("--libs", default=str(HERE / ".libs"))
    parser.add_argument("--copies", type=int, default=50, help="copies of the games for drafti against the binary")
    parser.add_argument("--runs", type=int, default=7, help="runs of each drafti measurement (the best counts)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each library's replay (CPU time)")
    parser.add_argument("--drafti-bin")
    args = parser.parse_args()
    corpora, libs = Path(args.corpora), Path(args.libs)
    binary = find_binary(args.drafti_bin)

    archives = sorted(corpora.glob("russian-*.pdn"))
    games = [g for a in archives for g in drafti.read_games(a, variant="russian")]
    valid = [g for g in games if g.is_valid]
    print(f"games: {len(games)} in {', '.join(a.name for a in archives)}; {len(valid)} valid, all replayed")
    texts = [normalised(g) for g in valid]

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        one = tmp / "russian.pdn"
        one.write_text("\n".join(texts), encoding="utf-8")
        listed = tmp / "russian.json"
        listed.write_text(json.dumps(texts), encoding="utf-8")
        many = tmp / f"russian-x{args.copies}.pdn"
        many.write_text("\n".join(texts * args.copies), encoding="utf-8")

        results = {}
        results["pydraughts 0.6.7"] = run_library("pydraughts", libs, PYDRAUGHTS, listed, args.rounds)
        results["py-draughts 1.10.1"] = run_library("py-draughts", libs, PY_DRAUGHTS, listed, args.rounds)
        mine = "drafti (Python, 1 thread)"
        counted = [(g.plies, g.is_valid) for g in drafti.read_games(one, jobs=1)]
        assert all(ok for _, ok in counted) and len(counted) == len(valid)
        rounds = cpu_rounds(
            max(args.rounds, 5), DRAFTI_REPEATS, lambda: sum(1 for _ in drafti.read_games(one, jobs=1))
        )
        results[mine] = {"games": len(counted), "moves": sum(p for p, _ in counted), "rounds": rounds}

        moves = {r["moves"] for r in results.values()}
        if len(moves) != 1:
            sys.exit(f"the libraries replayed different numbers of moves: {results}")
        print(f"moves: {moves.pop()} (every library replayed every move)\n")
        print("CPU seconds of one replay of every game: median (fastest-slowest round)")
        print(f"{'library':28} {'rounds':>6} {'CPU seconds':>28} {'moves/s (median)':>17}")
        for label, r in results.items():
            mid, low, high = spread(r["rounds"])
            shown = f"{mid:.4f} ({low:.4f}-{high:.4f})"
            print(f"{label:28} {len(r['rounds']):>6} {shown:>28} {r['moves'] / mid:>17,.0f}")
        print()
        ours = spread(results[mine]["rounds"])
        for other in ("pydraughts 0.6.7", "py-draughts 1.10.1"):
            theirs = spread(results[other]["rounds"])
            print(
                f"{mine} / {other}: {theirs[0] / ours[0]:,.0f}x "
                f"(from {theirs[1] / ours[2]:,.0f}x to {theirs[2] / ours[1]:,.0f}x)"
            )

        # drafti from Python against the binary, on the same file and work.
        command = [str(binary), "validate", "--json", "--variant", "russian", str(many)]
        rows = drafti.validate(many, variant="russian")
        cli = subprocess.run(command, capture_output=True, text=True)
        assert cli.returncode == 0 and len(cli.stdout.splitlines()) == len(rows) == len(valid) * args.copies
        binary_s = best(
            args.runs,
            lambda: subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True),
        )
        n = len(rows)
        print(f"\nthe same {n} games ({args.copies} copies of them) validated, best of {args.runs} runs:")
        print(f"  drafti validate --json (the binary): {binary_s:.3f} s, {n / binary_s:,.0f} games/s")
        for label, work in (
            ("drafti.validate(path)", lambda: drafti.validate(many, variant="russian")),
            ("drafti.validate(path), every row a dict", lambda: list(drafti.validate(many, variant="russian"))),
            ("drafti.read_games(path), every Game", lambda: sum(1 for _ in drafti.read_games(many, variant="russian"))),
        ):
            seconds = best(args.runs, work)
            print(f"  {label}: {seconds:.3f} s, {n / seconds:,.0f} games/s: {seconds / binary_s:.2f}x the binary's time")
    print(f"\nmachine: {os.cpu_count()} cores; load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
