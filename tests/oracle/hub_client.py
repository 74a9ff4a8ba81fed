"""Drives `drafti hub` through pydraughts's own Hub client (draughts.engine.HubEngine), for
tests/tests/end_to_end/hub_pydraughts.rs.

Usage: hub_client.py DRAFTI. Prints the handshake as one JSON line, configures the engine for
Russian draughts and initialises it; then reads one JSON request per line from stdin,
    {"pos": POSITION, "moves": "22-18 11-15", "limits": {"nodes": 5000}}
calls HubEngine.go (which sends pos, level and go think, and parses info and done) and prints
    {"move": ..., "ponder": ..., "info": ..., "pydraughts_legal": true}
A request {"quit": true} ends it.

drafti numbers squares the standard way (square 1 = b8, White's men on 21-32), as pydraughts's
Hub position strings do; pydraughts's own Russian board numbers them from White's side
(a1 = 1, White's first moves are 9-13 ...). So positions go to the engine as position strings
and moves in the standard numbering, and each move drafti returns is also translated into
pydraughts's numbering and played on a pydraughts board, as a second check of its legality.
"""

import json
import sys

import draughts
from draughts.engine import HubEngine


def internal(square):
    """A standard 8x8 square number in pydraughts's Russian numbering."""
    row, col = divmod(square - 1, 4)
    return (7 - row) * 4 + col + 1


def to_pydraughts(move):
    sep = "x" if "x" in move else "-"
    return sep.join(str(internal(int(s))) for s in move.split(sep))


engine = HubEngine([sys.argv[1], "hub"])
print(json.dumps({"id": engine.id, "options": sorted(engine.options),
                  "variants": sorted(engine.variants)}), flush=True)
engine.configure({"variant": "russian", "hash": "8"})
engine.init()
engine.ping()
board = draughts.Board(variant="russian")
for line in sys.stdin:
    request = json.loads(line)
    if request.get("quit"):
        engine.quit()
        break
    move, ponder = engine.go(request["pos"], moves=request.get("moves") or None,
                             **request["limits"])
    board.push(draughts.Move(board, hub_move=to_pydraughts(move)))
    print(json.dumps({"move": move, "ponder": ponder, "info": engine.info,
                      "pydraughts_legal": True}), flush=True)
