"""Ctrl-C stops every long call, and its work: each call runs in a child Python process that
is sent SIGINT a moment after the call starts; the call must raise KeyboardInterrupt within
half a second of the signal, and the process must then use no more CPU (no worker left
searching or reading). Threads sharing a reader or an engine do not block each other."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import drafti

from conftest import CORPUS

# The child: sets up, says "ready", runs the call; on KeyboardInterrupt it says when (the
# monotonic clock is the system's, shared with the parent) and how much CPU its threads
# then use in a second and a half.
CHILD = """
import signal, sys, time
# Ctrl-C as in a terminal, whatever the test runner inherited: a shell's background job
# starts with SIGINT ignored, and Python then never raises KeyboardInterrupt.
signal.signal(signal.SIGINT, signal.default_int_handler)
import drafti
{setup}
print("ready", flush=True)
try:
    {call}
except KeyboardInterrupt:
    caught = time.monotonic()
    cpu = time.process_time()
    time.sleep(1.5)
    print("interrupted", caught, time.process_time() - cpu, flush=True)
else:
    print("finished", flush=True)
"""

SELFPLAY = str(CORPUS / "selfplay.pdn")

LONG_CALLS = {
    "search by depth": ("engine = drafti.Engine()", "engine.search(drafti.Position(), depth=60)"),
    "search by time": ("engine = drafti.Engine()", "engine.search(drafti.Position(), movetime=60)"),
    "perft": ("pos = drafti.Position()", "pos.perft(14)"),
    "build_tables": (
        "import tempfile; folder = tempfile.mkdtemp()",
        "drafti.build_tables(folder, 'tz', pieces=6)",
    ),
    "validate": (f"paths = [{SELFPLAY!r}] * 400", "drafti.validate(paths)"),
    "read_games": (f"paths = [{SELFPLAY!r}] * 400", "for game in drafti.read_games(paths): pass"),
    "game_moves": (f"paths = [{SELFPLAY!r}] * 200", "drafti.game_moves(paths)"),
    "openings": (f"paths = [{SELFPLAY!r}] * 400", "drafti.openings(paths)"),
    "analyze": ("", f"drafti.analyze({SELFPLAY!r}, depth=14)"),
    "analyze's tables built on first use": (
        "import os, tempfile; os.environ['XDG_CACHE_HOME'] = tempfile.mkdtemp(); "
        "os.environ['DRAFTI_FIRST_USE_TABLES'] = '5'",
        f"drafti.analyze({SELFPLAY!r}, depth=1)",
    ),
    "puzzles": ("", f"drafti.puzzles({SELFPLAY!r}, nodes=200000)"),
}


@pytest.mark.parametrize("name", list(LONG_CALLS))
def test_ctrl_c_stops_a_long_call_and_its_work(name):
    setup, call = LONG_CALLS[name]
    code = CHILD.format(setup=setup, call=textwrap.indent(call, "    ").strip())
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        time.sleep(1.0)  # the call is under way
        sent = time.monotonic()
        os.kill(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    words = out.split()
    assert words and words[0] == "interrupted", (out, err[-2000:])
    caught, cpu_after = float(words[1]), float(words[2])
    assert caught - sent < 0.5, f"{name}: KeyboardInterrupt {caught - sent:.2f} s after SIGINT"
    assert cpu_after < 0.1, f"{name}: {cpu_after:.2f} s of CPU in the 1.5 s after the interrupt"


def test_two_threads_share_one_reader():
    reader = drafti.read_games([CORPUS / "selfplay.pdn"] * 2)
    seen = [[], []]

    def take(mine):
        for game in reader:
            mine.append(game.index)

    threads = [threading.Thread(target=take, args=(seen[i],)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "two threads iterating one reader hung"
    # Every game went to exactly one thread.
    assert len(seen[0]) + len(seen[1]) == 4000
    assert sorted(seen[0] + seen[1]) == sorted(list(range(1, 2001)) * 2)


def test_evaluate_does_not_hold_the_gil_while_another_thread_searches():
    engine = drafti.Engine()
    pos = drafti.Position()
    searching = threading.Thread(target=lambda: engine.search(pos, depth=60))
    searching.start()
    time.sleep(0.3)
    ticks = []
    ticker = threading.Thread(target=lambda: [ticks.append(time.sleep(0.01)) for _ in range(20)])
    ticker.start()
    # evaluate waits for the search's lock; meanwhile the ticker must run.
    waiting = threading.Thread(target=lambda: engine.evaluate(pos))
    waiting.start()
    ticker.join(timeout=30)
    ticked = len(ticks)
    engine.stop()
    searching.join(timeout=30)
    waiting.join(timeout=30)
    assert ticked == 20, "a thread waiting for the engine's lock held the GIL"
    assert not searching.is_alive() and not waiting.is_alive()
