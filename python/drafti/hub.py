"""Drive any Hub engine (Hub protocol version 2: Scan 3, ``drafti hub``, this package's own
``python -m drafti.hub``) as python-chess's ``chess.engine`` drives UCI engines.

>>> import drafti, drafti.hub
>>> with drafti.hub.HubEngine.popen(["drafti", "hub"]) as engine:      # doctest: +SKIP
...     engine.configure({"variant": "russian"})
...     pos = drafti.Position(variant="russian")
...     result = engine.play(pos, drafti.hub.Limit(depth=8))
...     for info in engine.analysis(pos, drafti.hub.Limit(depth=10)):
...         print(info["depth"], info["score"], info["pv"][:3])

Positions are ``drafti.Position`` objects: the engine is sent the position the move stack
starts from and the moves played (so it knows the game's repetitions and law 2's count);
moves come back as ``drafti.Move`` objects, scores as ``drafti.Score`` from the side to
move. ``python -m drafti.hub [--variant V] [--hash MB] [--nodes N] [--depth N]`` is
drafti's engine as a Hub engine, for this client or any Hub GUI.
"""

from __future__ import annotations

import queue
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import IO, Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from . import DraftiError, Move, Position, Score

__all__ = [
    "EngineError",
    "EngineTerminatedError",
    "HubEngine",
    "Limit",
    "Option",
    "PlayResult",
    "AnalysisResult",
    "parse_message",
    "write_message",
    "main",
]


class EngineError(DraftiError):
    """The engine answered ``error message="…"``, or not as the protocol asks, or not in
    time."""


class EngineTerminatedError(EngineError):
    """The engine process ended."""


@dataclass
class Limit:
    """How long a search may run (python-chess's ``chess.engine.Limit``): ``depth`` plies,
    ``nodes``, ``time`` seconds for this move, or a clock (``white_clock`` /
    ``black_clock`` seconds left, ``white_inc`` / ``black_inc`` a move,
    ``remaining_moves`` to the next time control). Several may be combined."""

    depth: Optional[int] = None
    nodes: Optional[int] = None
    time: Optional[float] = None
    white_clock: Optional[float] = None
    black_clock: Optional[float] = None
    white_inc: Optional[float] = None
    black_inc: Optional[float] = None
    remaining_moves: Optional[int] = None

    def level(self, turn: str) -> Dict[str, Any]:
        """The arguments of Hub's ``level`` for the side to move ``turn``."""
        args: Dict[str, Any] = {}
        if self.depth is not None:
            args["depth"] = int(self.depth)
        if self.nodes is not None:
            args["nodes"] = int(self.nodes)
        if self.time is not None:
            args["move-time"] = _seconds(self.time)
        clock = self.white_clock if turn == "white" else self.black_clock
        if clock is not None:
            args["time"] = _seconds(clock)
            inc = self.white_inc if turn == "white" else self.black_inc
            if inc is not None:
                args["inc"] = _seconds(inc)
            if self.remaining_moves is not None:
                args["moves"] = int(self.remaining_moves)
        if not args:
            args["infinite"] = None
        return args


def _seconds(value: float) -> str:
    return f"{float(value):.3f}".rstrip("0").rstrip(".")


@dataclass
class Option:
    """A parameter the engine declared (``param name=… value=… type=…``)."""

    name: str
    type: str
    default: Optional[str]
    min: Optional[int] = None
    max: Optional[int] = None
    values: List[str] = field(default_factory=list)


@dataclass
class PlayResult:
    """What ``HubEngine.play`` found: the move (``None`` when the game is over: the engine
    answered no move), the move it expects in reply, and its last ``info``."""

    move: Optional[Move]
    ponder: Optional[Move]
    info: Dict[str, Any]


def parse_message(line: str) -> Tuple[str, Dict[str, Optional[str]]]:
    """A Hub line as ``(command, {name: value})``: ``name=value``, ``name="a quoted
    value"``, or a bare ``name`` (value ``None``)."""
    text = line.strip()
    command, _, rest = text.partition(" ")
    args: Dict[str, Optional[str]] = {}
    i, n = 0, len(rest)
    while i < n:
        while i < n and rest[i].isspace():
            i += 1
        start = i
        while i < n and not rest[i].isspace() and rest[i] != "=":
            i += 1
        name = rest[start:i]
        j = i
        while j < n and rest[j].isspace():
            j += 1
        if j < n and rest[j] == "=":
            i = j + 1
            while i < n and rest[i].isspace():
                i += 1
            if i < n and rest[i] == '"':
                end = rest.find('"', i + 1)
                if end < 0:
                    raise EngineError(f"unterminated quote in {line!r}")
                args[name] = rest[i + 1 : end]
                i = end + 1
            else:
                start = i
                while i < n and not rest[i].isspace():
                    i += 1
                args[name] = rest[start:i]
        elif name:
            args[name] = None
    return command, args


def write_message(command: str, args: Optional[Mapping[str, Any]] = None) -> str:
    """A Hub line: values with spaces (or empty) are quoted."""
    words = [command]
    for name, value in (args or {}).items():
        if value is None:
            words.append(name)
            continue
        text = str(value)
        if '"' in text or "\n" in text:
            raise ValueError(f"{name}: a Hub value cannot hold quotes or newlines: {text!r}")
        words.append(f'{name}="{text}"' if not text or any(c.isspace() for c in text) else f"{name}={text}")
    return " ".join(words)


def _score(text: str) -> Optional[Score]:
    """A score as Scan writes it (men; ``±(100 - plies/100)`` for a proven result)."""
    try:
        value = float(text)
    except ValueError:
        return None
    centi = round(value * 100)
    if centi >= 9000:
        return Score(win_in=max(0, 10000 - centi))
    if centi <= -9000:
        return Score(loss_in=max(0, 10000 + centi))
    return Score(cp=centi)


def _line(position: Position, moves: Sequence[str]) -> List[Move]:
    """Hub moves played from ``position``, as ``Move`` objects (as far as they are legal)."""
    board, line = position.copy(stack=False), []
    for text in moves:
        try:
            mv = board.push(text)
        except DraftiError:
            break
        line.append(mv)
    return line


def _info(position: Position, args: Mapping[str, Optional[str]]) -> Dict[str, Any]:
    """An ``info`` line as a dict: ``depth``, ``seldepth``, ``score`` (a ``Score`` from the
    side to move), ``nodes``, ``time`` (seconds), ``nps`` (per second), ``pv`` (``Move``
    objects), and every other field as text."""
    info: Dict[str, Any] = {}
    for name, value in args.items():
        if value is None:
            continue
        try:
            if name in ("depth", "seldepth", "nodes"):
                info[name] = int(value)
            elif name == "time":
                info[name] = float(value)
            elif name == "nps":
                info[name] = round(float(value) * 1_000_000)  # Hub writes millions
            elif name == "score":
                score = _score(value)
                info[name] = score if score is not None else value
            elif name == "pv":
                info[name] = _line(position, value.split())
            else:
                info[name] = value
        except ValueError:
            info[name] = value
    return info


class HubEngine:
    """A Hub engine process. Make it with ``HubEngine.popen(command)``; use it as a context
    manager (or call ``quit()``). Not for several threads at once."""

    def __init__(self, process: "subprocess.Popen[str]", timeout: float) -> None:
        self.process = process
        self.timeout = timeout
        self.id: Dict[str, str] = {}
        self.options: Dict[str, Option] = {}
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self._initialized = False
        self._searching = False
        reader = threading.Thread(target=self._read, name="drafti-hub-reader", daemon=True)
        reader.start()

    @classmethod
    def popen(
        cls,
        command: Union[str, Sequence[str]],
        *,
        timeout: float = 10.0,
        cwd: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
    ) -> "HubEngine":
        """Starts the engine (``command``: a list of arguments, or one string split as a
        shell would) and reads what it declares (``hub`` … ``wait``): its ``id`` and its
        ``options``. ``timeout``: seconds to wait for each answer that is not a search."""
        args = shlex.split(command) if isinstance(command, str) else list(command)
        process = subprocess.Popen(
            args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            cwd=cwd,
            env=dict(env) if env is not None else None,
        )
        engine = cls(process, timeout)
        try:
            engine._handshake()
        except BaseException:
            engine.close()
            raise
        return engine

    # The pipe --------------------------------------------------------------------------

    def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        for line in stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    def _send(self, line: str) -> None:
        stdin: Optional[IO[str]] = self.process.stdin
        if stdin is None or self.process.poll() is not None:
            raise EngineTerminatedError(f"the engine has ended (exit code {self.process.returncode})")
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineTerminatedError(f"the engine has ended: {e}") from e

    def _next(self, deadline: Optional[float]) -> Tuple[str, Dict[str, Optional[str]]]:
        """The next message; waits in short steps so Ctrl-C is answered at once."""
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise EngineError(f"no answer from the engine within {self.timeout:g} s")
            try:
                line = self._lines.get(timeout=0.05 if left is None else min(0.05, left))
            except queue.Empty:
                continue
            if line is None:
                raise EngineTerminatedError(f"the engine has ended (exit code {self.process.wait()})")
            if not line.strip():
                continue
            command, args = parse_message(line)
            if command == "error":
                raise EngineError(f"the engine says: {args.get('message') or line}")
            return command, args

    def _until(self, wanted: str) -> List[Tuple[str, Dict[str, Optional[str]]]]:
        """Messages up to ``wanted`` (included), within the timeout."""
        deadline = time.monotonic() + self.timeout
        seen = []
        while True:
            message = self._next(deadline)
            seen.append(message)
            if message[0] == wanted:
                return seen

    def _handshake(self) -> None:
        self._send("hub")
        for command, args in self._until("wait"):
            if command == "id":
                self.id.update({k: v for k, v in args.items() if v is not None})
            elif command == "param" and args.get("name"):
                name = args["name"] or ""
                self.options[name] = Option(
                    name=name,
                    type=args.get("type") or "string",
                    default=args.get("value"),
                    min=_int(args.get("min")),
                    max=_int(args.get("max")),
                    values=(args.get("values") or "").split(),
                )

    def _init(self) -> None:
        if not self._initialized:
            self._send("init")
            self._until("ready")
            self._initialized = True

    # What a user calls -----------------------------------------------------------------

    def configure(self, options: Mapping[str, Any]) -> None:
        """Sets parameters (``set-param``), e.g. ``{"variant": "russian", "hash": 16}``;
        before the first search, or between searches (the engine is made again with
        them)."""
        for name, value in options.items():
            if isinstance(value, bool):
                value = "true" if value else "false"
            self._send(write_message("set-param", {"name": name, "value": value}))
        if self._initialized:
            self._initialized = False
        self.ping()

    def ping(self) -> None:
        """Waits for the engine to answer ``ping`` (``pong``)."""
        self._send("ping")
        self._until("pong")

    def new_game(self) -> None:
        """Tells the engine a new game starts (it forgets what it learnt)."""
        self._init()
        self._send("new-game")
        self.ping()

    def _start(self, position: Position, limit: Optional[Limit], mode: str) -> None:
        self._init()
        root = position.root()
        moves = " ".join(m.hub() for m in position.move_stack)
        args: Dict[str, Any] = {"pos": root.hub()}
        if moves:
            args["moves"] = moves
        self._send(write_message("pos", args))
        self._send(write_message("level", (limit or Limit()).level(position.turn)))
        self._send(f"go {mode}")
        self._searching = True

    def _search(self, position: Position) -> Iterator[Tuple[str, Dict[str, Any]]]:
        """The search's messages: ``("info", dict)`` for each, then ``("done", args)``.
        Ctrl-C sends ``stop`` and waits for ``done`` before raising."""
        try:
            while True:
                command, args = self._next(None)
                if command == "info":
                    yield "info", _info(position, args)
                elif command == "done":
                    self._searching = False
                    yield "done", dict(args)
                    return
        except KeyboardInterrupt:
            self.stop()
            raise

    def stop(self) -> None:
        """Stops the search running (``stop``) and waits for its ``done``."""
        if not self._searching:
            return
        self._send("stop")
        deadline = time.monotonic() + self.timeout
        while self._searching:
            command, _ = self._next(deadline)
            if command == "done":
                self._searching = False

    def play(self, position: Position, limit: Limit, *, ponder: bool = False) -> PlayResult:
        """The engine's move in ``position`` within ``limit`` (``go think``), with its last
        ``info``. ``ponder`` is ignored (kept for python-chess's signature)."""
        del ponder
        self._start(position, limit, "think")
        info: Dict[str, Any] = {}
        done: Dict[str, Any] = {}
        for kind, data in self._search(position):
            if kind == "info":
                info = data
            else:
                done = data
        best = _line(position, [done["move"]]) if done.get("move") else []
        after = position.copy(stack=False)
        reply: List[Move] = []
        if best:
            after.push(best[0])
            reply = _line(after, [done["ponder"]]) if done.get("ponder") else []
        return PlayResult(best[0] if best else None, reply[0] if reply else None, info)

    def analyse(self, position: Position, limit: Limit) -> Dict[str, Any]:
        """The engine's last ``info`` on ``position`` within ``limit`` (python-chess's
        ``analyse``): ``depth``, ``score``, ``pv``, ``nodes``, …"""
        info: Dict[str, Any] = {}
        for kind, data in self._search_started(position, limit):
            if kind == "info":
                info = data
        return info

    def _search_started(self, position: Position, limit: Limit) -> Iterator[Tuple[str, Dict[str, Any]]]:
        self._start(position, limit, "analyze")
        return self._search(position)

    def analysis(self, position: Position, limit: Optional[Limit] = None) -> "AnalysisResult":
        """An analysis running in the engine (``go analyze``): iterate it for each depth's
        ``info`` as the engine sends it; ``stop()`` ends it (so does leaving a ``with``
        block, or ``limit``). ``info`` is the latest."""
        return AnalysisResult(self, position, self._search_started(position, limit or Limit()))

    def quit(self) -> None:
        """Ends the engine (``quit``) and waits for the process."""
        try:
            if self._searching:
                self.stop()
            self._send("quit")
        except EngineError:
            pass
        self.close()

    def close(self) -> None:
        """Ends the process without a word (killed when it does not end in time)."""
        for pipe in (self.process.stdin,):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass
        try:
            self.process.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> "HubEngine":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.quit()

    def __repr__(self) -> str:
        name = self.id.get("name", "?")
        return f"<HubEngine {name} (pid {self.process.pid})>"


class AnalysisResult:
    """A running analysis: iterate it for the ``info`` of each depth as it comes; ``info`` is
    the latest, ``stop()`` ends the search, ``wait()`` waits for it to end by itself."""

    def __init__(self, engine: HubEngine, position: Position, messages: Iterator[Tuple[str, Dict[str, Any]]]) -> None:
        self.engine = engine
        self.position = position
        self.info: Dict[str, Any] = {}
        self.best: Optional[Move] = None
        self._messages = messages
        self._done = False

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        return self

    def __next__(self) -> Dict[str, Any]:
        if self._done:
            raise StopIteration
        for kind, data in self._messages:
            if kind == "info":
                self.info = data
                return data
            self._finish(data)
        self._done = True
        raise StopIteration

    def _finish(self, done: Dict[str, Any]) -> None:
        self._done = True
        found = _line(self.position, [done["move"]]) if done.get("move") else []
        self.best = found[0] if found else None

    def stop(self) -> None:
        """Ends the search (``stop``): ``best`` is then the engine's move."""
        if self._done:
            return
        self.engine._send("stop")
        for kind, data in self._messages:
            if kind == "info":
                self.info = data
            else:
                self._finish(data)
        self._done = True

    def wait(self) -> Dict[str, Any]:
        """Waits for the search to end by its limit; the last ``info``."""
        for _ in self:
            pass
        return self.info

    def __enter__(self) -> "AnalysisResult":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def _int(text: Optional[str]) -> Optional[int]:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m drafti.hub``: drafti's engine as a Hub engine on stdin and stdout."""
    import argparse
    import signal

    parser = argparse.ArgumentParser(prog="python -m drafti.hub", description=main.__doc__)
    parser.add_argument("--variant", default="tz", choices=["tz", "czech", "russian"])
    parser.add_argument("--hash", type=int, default=64, metavar="MB")
    parser.add_argument("--nodes", type=int)
    parser.add_argument("--depth", type=int)
    parser.add_argument("--king-count", type=int, default=12)
    args = parser.parse_args(argv)
    # Ctrl-C ends the engine as it ends any program reading its input.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    from . import _drafti

    _drafti.hub_serve(args.variant, args.hash, args.nodes, args.depth, args.king_count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
