#!/usr/bin/env python3
"""Legal moves of Russian draughts positions, by pydraughts (an independent implementation).

Used by tests/tests/end_to_end/pydraughts_oracle.rs as a differential oracle for drafti's move generator.

Input (stdin): one position per line, a FEN with algebraic squares as drafti writes it
(`W:Wa1,c3,Kh2:Bb8,Kd6`). Output (stdout): one JSON line per input line, the list of legal
moves, each `[from, to, [captured squares...]]` with algebraic square names.

pydraughts numbers the 32 squares of its "russian" variant from White's side, a1=1, c1=2, e1=3,
g1=4, b2=5 ... h8=32 (rank by rank from the bottom, left to right): square n lies on rank
(n-1)//4 + 1, file 2*((n-1)%4) + (rank is even). Its Board accepts and writes algebraic FEN for
this variant, and Move.steps_move / Move.captures are in that numbering. The mapping is checked
against pydraughts' own converter before any position is read.
"""
import json
import sys

try:
    from draughts import Board
    from draughts.convert import _number_to_algebraic
except ImportError:  # the Rust test turns this exit code into its failure message
    print("pydraughts is missing: pip install pydraughts", file=sys.stderr)
    sys.exit(3)


def name(n: int) -> str:
    rank = (n - 1) // 4  # 0-based, from White's side
    file = 2 * ((n - 1) % 4) + (rank % 2)
    return "abcdefgh"[file] + str(rank + 1)


def self_check() -> None:
    for n in range(1, 33):
        theirs = _number_to_algebraic(str(n), variant="russian")
        assert theirs == name(n), f"square {n}: pydraughts says {theirs}, we say {name(n)}"
    start = Board(variant="russian")
    moves = sorted((name(m.steps_move[0]), name(m.steps_move[-1])) for m in start.legal_moves())
    want = sorted([("a3", "b4"), ("c3", "b4"), ("c3", "d4"), ("e3", "d4"), ("e3", "f4"),
                   ("g3", "f4"), ("g3", "h4")])
    assert moves == want, f"start position: {moves}"


def moves_of(fen: str):
    board = Board(variant="russian", fen=fen)
    out = []
    for m in board.legal_moves():
        steps = m.steps_move
        caps = sorted(name(c) for c in (m.captures or []) if c is not None)
        out.append([name(steps[0]), name(steps[-1]), caps])
    return out


def main() -> None:
    self_check()
    out = sys.stdout
    for line in sys.stdin:
        fen = line.strip()
        if not fen:
            continue
        out.write(json.dumps(moves_of(fen)) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
