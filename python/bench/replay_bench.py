"""Replaying and validating the same Russian games with drafti, pydraughts and py-draughts,
and drafti from Python against the drafti binary: one run, the ratios printed.

Setup (once; the two libraries both install a package called ``draughts``, so each goes to
its own folder and runs in its own process):

    python3 -m pip install ./python
    python3 -m pip install --target python/bench/.libs/pydraughts pydraughts==0.6.7
    python3 -m pip install --target python/bench/.libs/py-draughts py-draughts==1.10.1
    cargo build --profile ci -p drafti

Run:

    python3 python/bench/replay_bench.py [--corpora ../shared/corpora] [--copies 50]

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
  thread and on all cores; the best of several runs, as the run takes milliseconds.

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
started = time.perf_counter()
games = moves = 0
for text in texts:
    game = PDNReader(pdn_text=text).games[0]
    board = Board(variant="russian")
    for m in game.moves:
        board.push(Move(board, pdn_move=m))
        moves += 1
    games += 1
print(json.dumps({"games": games, "moves": moves, "seconds": time.perf_counter() - started}))
"""

PY_DRAUGHTS = r"""
import json, sys, time
from draughts import RussianBoard
texts = json.load(open(sys.argv[1], encoding="utf-8"))
started = time.perf_counter()
games = moves = 0
for text in texts:
    board = RussianBoard.from_pdn(text)
    moves += len(board._moves_stack)
    games += 1
print(json.dumps({"games": games, "moves": moves, "seconds": time.perf_counter() - started}))
"""


def normalised(game: drafti.Game) -> str:
    text = game.to_pdn("algebraic", full_captures=True)
    lines = [line for line in text.splitlines() if not line.startswith("[FEN ")]
    return '[GameType "25"]\n' + "\n".join(lines) + "\n"


def run_library(name: str, libs: Path, script: str, data: Path) -> dict:
    path = libs / name
    if not path.is_dir():
        sys.exit(f"{path} is missing: python3 -m pip install --target {path} {name}")
    env = dict(os.environ, PYTHONPATH=str(path))
    out = subprocess.run([sys.executable, "-c", script, str(data)], env=env, capture_output=True, text=True)
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
    parser.add_argument("--corpora", default=str(REPO.parent / "shared" / "corpora"))
    parser.add_argument("--libs", default=str(HERE / ".libs"))
    parser.add_argument("--copies", type=int, default=50, help="copies of the games for drafti against the binary")
    parser.add_argument("--runs", type=int, default=7, help="runs of each drafti measurement (the best counts)")
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
        results["pydraughts 0.6.7"] = run_library("pydraughts", libs, PYDRAUGHTS, listed)
        results["py-draughts 1.10.1"] = run_library("py-draughts", libs, PY_DRAUGHTS, listed)
        for label, jobs in (("drafti (Python, 1 thread)", 1), ("drafti (Python, all cores)", 0)):
            counted = [(g.plies, g.is_valid) for g in drafti.read_games(one, jobs=jobs)]
            assert all(ok for _, ok in counted) and len(counted) == len(valid)
            seconds = best(args.runs, lambda: sum(1 for _ in drafti.read_games(one, jobs=jobs)))
            results[label] = {"games": len(counted), "moves": sum(p for p, _ in counted), "seconds": seconds}

        moves = {r["moves"] for r in results.values()}
        if len(moves) != 1:
            sys.exit(f"the libraries replayed different numbers of moves: {results}")
        print(f"moves: {moves.pop()} (every library replayed every move)\n")
        print(f"{'library':32} {'games':>6} {'moves':>8} {'seconds':>9} {'moves/s':>12}")
        for label, r in results.items():
            rate = r["moves"] / r["seconds"]
            print(f"{label:32} {r['games']:>6} {r['moves']:>8} {r['seconds']:>9.4f} {rate:>12,.0f}")
        rate = {k: v["moves"] / v["seconds"] for k, v in results.items()}
        print()
        for mine in ("drafti (Python, 1 thread)", "drafti (Python, all cores)"):
            for other in ("pydraughts 0.6.7", "py-draughts 1.10.1"):
                print(f"{mine} / {other}: {rate[mine] / rate[other]:,.0f}x")

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
