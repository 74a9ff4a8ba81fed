"""The rows of the jobs, and their tables.

Each job (``validate``, ``analyze``, ``openings``, ``puzzles``) returns a ``Rows``: a
sequence of dicts, each exactly the JSON object the command line writes for the same input
and settings (``drafti validate --json`` …). ``to_pandas()`` and ``to_arrow()`` lay them out
as a table with one row per game (or per opening row, per puzzle), numbers as numbers; the
tables of finer grain are methods: ``ValidationRows.problems()`` (one row per problem),
``AnalysisRows.moves()`` (one row per move), ``AnalysisRows.blunders()``.

pandas and pyarrow are optional (``pip install drafti[pandas]``, ``drafti[arrow]``); each
conversion imports its library when called.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union, overload

# A row: one JSON object as the command line writes it, or one flat record of a table.
Row = Dict[str, Any]

# A column: its name, its kind, whether it may be null, and how to get it from a row.
# Kinds: "int", "float", "bool", "str", "list" (of str), "ints" (list of int) and "map"
# (str to str).
Column = Tuple[str, str, bool, Callable[[Row], Any]]


def _key(name: str) -> Callable[[Row], Any]:
    return lambda row: row.get(name)


def _tag(name: str) -> Callable[[Row], Any]:
    return lambda row: (row.get("tags") or {}).get(name)


def _col(name: str, kind: str, nullable: bool = False, get: Optional[Callable[[Row], Any]] = None) -> Column:
    return (name, kind, nullable, get or _key(name))


def _pandas_dtype(kind: str, nullable: bool) -> Any:
    import pandas as pd

    if kind == "int":
        return "Int64" if nullable else "int64"
    if kind == "float":
        return "float64"
    if kind == "bool":
        return "boolean" if nullable else "bool"
    if kind == "str":
        return pd.StringDtype()
    return object


def _arrow_type(kind: str) -> Any:
    import pyarrow as pa

    return {
        "int": pa.int64(),
        "float": pa.float64(),
        "bool": pa.bool_(),
        "str": pa.string(),
        "list": pa.list_(pa.string()),
        "ints": pa.list_(pa.int64()),
        "map": pa.map_(pa.string(), pa.string()),
    }[kind]


class Table:
    """Flat records with a fixed schema: what ``to_pandas`` and ``to_arrow`` lay out."""

    def __init__(self, columns: Sequence[Column], records: List[Row]):
        self.columns: List[Tuple[str, str, bool]] = [(n, k, z) for n, k, z, _ in columns]
        self.records = records

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[Row]:
        return iter(self.records)

    def __getitem__(self, i: int) -> Row:
        return self.records[i]

    def __repr__(self) -> str:
        return f"<Table of {len(self.records)} rows: {', '.join(n for n, _, _ in self.columns)}>"

    def column(self, name: str) -> List[Any]:
        """The values of one column."""
        return [r[name] for r in self.records]

    def to_pandas(self) -> "Any":
        """A ``pandas.DataFrame``: ints as ``int64`` (``Int64`` where a value may be
        missing), floats as ``float64``, text as ``string``, lists and tags as objects."""
        import pandas as pd

        data = {}
        for name, kind, nullable in self.columns:
            values = [r[name] for r in self.records]
            if kind == "map":
                values = [dict(v) if v is not None else None for v in values]
            if kind == "float":
                values = [float("nan") if v is None else float(v) for v in values]
            data[name] = pd.Series(values, dtype=_pandas_dtype(kind, nullable))
        return pd.DataFrame(data, columns=[n for n, _, _ in self.columns])

    def to_arrow(self) -> "Any":
        """A ``pyarrow.Table`` with typed columns (``int64``, ``float64``, ``string``,
        ``bool``, ``list<string>``, ``map<string, string>``); DuckDB queries it directly."""
        import pyarrow as pa

        arrays = []
        for name, kind, _ in self.columns:
            values = [r[name] for r in self.records]
            if kind == "map":
                values = [list(v.items()) if v is not None else None for v in values]
            arrays.append(pa.array(values, type=_arrow_type(kind)))
        return pa.Table.from_arrays(arrays, names=[n for n, _, _ in self.columns])


class Rows(Sequence[Row]):
    """The rows of a job, in input order: each a dict, the command line's JSON object.

    ``to_pandas()`` / ``to_arrow()`` give the job's table (``table()`` the records without
    pandas or pyarrow)."""

    _columns: Sequence[Column] = ()

    def __init__(self, rows: List[Row]):
        self._parsed: Optional[List[Row]] = rows
        self._lines: Optional[List[str]] = None

    @classmethod
    def _from_lines(cls, lines: List[str]) -> "Rows":
        """Rows kept as the command line's JSON lines, each read into a dict when the rows
        are first used: the job returns as soon as its work is done."""
        rows = cls([])
        rows._parsed, rows._lines = None, lines
        return rows

    @property
    def _rows(self) -> List[Row]:
        if self._parsed is None:
            import json

            lines = self._lines or []
            self._parsed = json.loads("[" + ",".join(lines) + "]") if lines else []
            self._lines = None
        return self._parsed

    def __getstate__(self) -> Dict[str, List[Row]]:
        return {"rows": self._rows}

    def __setstate__(self, state: Dict[str, List[Row]]) -> None:
        self._parsed, self._lines = state["rows"], None

    def __len__(self) -> int:
        return len(self._lines) if self._lines is not None else len(self._rows)

    @overload
    def __getitem__(self, i: int) -> Row: ...

    @overload
    def __getitem__(self, i: slice) -> "Rows": ...

    def __getitem__(self, i: Union[int, slice]) -> Union[Row, Rows]:
        if isinstance(i, slice):
            return type(self)(self._rows[i])
        return self._rows[i]

    def __iter__(self) -> Iterator[Row]:
        return iter(self._rows)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {len(self._rows)} rows>"

    def _records(self) -> Tuple[Sequence[Column], List[Row]]:
        columns = self._columns
        return columns, [{n: get(r) for n, _, _, get in columns} for r in self._rows]

    def table(self) -> Table:
        """The job's table as flat records with their schema."""
        columns, records = self._records()
        return Table(columns, records)

    def to_pandas(self) -> "Any":
        """The job's table as a ``pandas.DataFrame`` (see ``Table.to_pandas``)."""
        return self.table().to_pandas()

    def to_arrow(self) -> "Any":
        """The job's table as a ``pyarrow.Table`` (see ``Table.to_arrow``)."""
        return self.table().to_arrow()


def _count(name: str) -> Callable[[Row], int]:
    return lambda row: len(row.get(name) or ())


def _first(name: str, field: str) -> Callable[[Row], Any]:
    def get(row: Row) -> Any:
        items = row.get(name) or ()
        return items[0].get(field) if items else None

    return get


_PROBLEM_COLUMNS: Sequence[Column] = (
    _col("file", "str"),
    _col("index", "int"),
    _col("severity", "str"),
    _col("line", "int"),
    _col("column", "int"),
    _col("ply", "int", True),
    _col("move", "str", True),
    _col("kind", "str"),
    _col("message", "str"),
    _col("fen", "str", True),
    _col("legal", "list"),
    _col("in_variation", "bool"),
)


class ValidationRows(Rows):
    """``validate``'s rows: one per game (``drafti validate --json``'s objects).

    The table: ``file``, ``index``, ``line``, ``variant``, ``plies``, ``result``, ``status``,
    ``valid``, ``errors`` and ``warnings`` (counts), ``first_error`` and
    ``first_error_kind``, the ``event``, ``date``, ``white`` and ``black`` tags, and
    ``tags`` (all of them, a map)."""

    _columns = (
        _col("file", "str"),
        _col("index", "int"),
        _col("line", "int"),
        _col("variant", "str", True),
        _col("plies", "int"),
        _col("result", "str", True),
        _col("status", "str"),
        _col("valid", "bool", False, lambda r: r.get("status") == "valid"),
        _col("errors", "int", False, _count("errors")),
        _col("warnings", "int", False, _count("warnings")),
        _col("first_error", "str", True, _first("errors", "message")),
        _col("first_error_kind", "str", True, _first("errors", "kind")),
        _col("event", "str", True, _tag("Event")),
        _col("date", "str", True, _tag("Date")),
        _col("white", "str", True, _tag("White")),
        _col("black", "str", True, _tag("Black")),
        _col("tags", "map", False, lambda r: r.get("tags") or {}),
    )

    def problems(self) -> Table:
        """One row per problem (errors and warnings) of every game: ``file``, ``index``,
        ``severity``, ``line``, ``column``, ``ply``, ``move``, ``kind``, ``message``, ``fen``,
        ``legal``, ``in_variation``."""
        records = []
        for row in self._rows:
            for severity, key in (("error", "errors"), ("warning", "warnings")):
                for p in row.get(key) or ():
                    rec = dict(p)
                    rec["file"] = row["file"]
                    rec["index"] = row["index"]
                    rec["severity"] = severity
                    records.append({n: g(rec) for n, _, _, g in _PROBLEM_COLUMNS})
        records.sort(key=lambda r: (r["file"], r["index"], r["line"], r["column"]))
        return Table(_PROBLEM_COLUMNS, records)

    @property
    def valid(self) -> int:
        """How many games are valid."""
        return sum(1 for r in self._rows if r.get("status") == "valid")

    @property
    def invalid(self) -> int:
        """How many games are invalid."""
        return len(self._rows) - self.valid


def _inner(key: str, field: str) -> Callable[[Row], Any]:
    """``field`` of the row's object ``key``; null where either is missing."""
    return lambda row: (row.get(key) or {}).get(field)


def _side(side: str, field: str) -> Callable[[Row], Any]:
    return lambda row: ((row.get("sides") or {}).get(side) or {}).get(field)


def _number(text: Any) -> Optional[int]:
    """``8`` of ``8.`` or ``8...``."""
    return int(str(text).rstrip(".")) if text else None


#: A field of the mover's score and the same field from White's side when Black moved.
_FLIPPED = {"cp": "cp", "win_in": "loss_in", "loss_in": "win_in"}


def _white(row: Dict[str, Any], field: str) -> Any:
    """``field`` (``cp``, ``win_in``, ``loss_in`` of ``score_after``, or ``win_after``) of
    the position after the move from White's point of view."""
    white = row.get("side") == "white"
    if field == "win_after":
        value = row.get(field)
        return value if value is None or white else 100.0 - value
    score = row.get("score_after") or {}
    if white:
        return score.get(field)
    value = score.get(_FLIPPED[field])
    return -value if field == "cp" and value is not None else value


_SCORE_FIELDS: Sequence[Tuple[str, str]] = (
    ("cp", "int"),
    ("win_in", "int"),
    ("loss_in", "int"),
    ("text", "str"),
)


def _score_columns(key: str) -> List[Column]:
    """The columns of the score ``key`` (a score's one JSON form: exactly one of ``cp``,
    ``win_in``, ``loss_in`` set, and ``text``), named as ``drafti analyze --json-moves``
    names them: ``{key}_cp``, ``{key}_win_in``, ``{key}_loss_in``, ``{key}_text``."""
    return [
        _col(f"{key}_{field}", kind, True, _inner(key, field))
        for field, kind in _SCORE_FIELDS
    ]


_MOVE_COLUMNS: Sequence[Column] = (
    _col("file", "str"),
    _col("index", "int"),
    _col("white", "str", True),
    _col("black", "str", True),
    _col("result", "str", True),
    _col("variant", "str", True),
    _col("ply", "int"),
    _col("move_number", "int", False, lambda r: _number(r.get("move_number"))),
    _col("side", "str"),
    _col("player", "str", True, lambda r: r.get(r.get("side") or "")),
    _col("move", "str"),
    *_score_columns("score_before"),
    *_score_columns("score_after"),
    _col("win_before", "float"),
    _col("win_after", "float"),
    _col("score_white_cp", "int", True, lambda r: _white(r, "cp")),
    _col("score_white_win_in", "int", True, lambda r: _white(r, "win_in")),
    _col("score_white_loss_in", "int", True, lambda r: _white(r, "loss_in")),
    _col("win_white", "float", False, lambda r: _white(r, "win_after")),
    _col("accuracy", "float"),
    _col("best", "str", True),
    _col("pv", "list"),
    _col("judgement", "str", True),
    _col("reason", "str", True),
    _col("depth", "int"),
    _col("confirmed_depth", "int", True),
    _col("unsettled", "bool"),
    _col("exact", "bool"),
)


class AnalysisRows(Rows):
    """``analyze``'s rows: one per game (``drafti analyze --json``'s objects; the first also
    carries ``run``, the engine and inputs).

    The table (one row per game): ``file``, ``index``, ``line``, ``white``, ``black``,
    ``result``, ``variant``, ``plies``, ``status``, ``positions``, ``nodes``, each side's
    ``moves``, ``inaccuracies``, ``mistakes``, ``blunders`` and ``accuracy``
    (``white_accuracy`` …), ``final_score_cp`` / ``final_score_win_in`` /
    ``final_score_loss_in`` / ``final_score_text`` (the last position's score), ``errors``
    (count) and
    ``search`` (the settings). ``moves()`` is the table of every move."""

    _columns = (
        _col("file", "str"),
        _col("index", "int"),
        _col("line", "int"),
        _col("white", "str", True),
        _col("black", "str", True),
        _col("result", "str", True),
        _col("variant", "str", True),
        _col("plies", "int"),
        _col("status", "str"),
        _col("positions", "int"),
        _col("nodes", "int"),
        *[
            _col(f"{side}_{field}", kind, True, _side(side, field))
            for side in ("white", "black")
            for field, kind in (
                ("moves", "int"),
                ("inaccuracies", "int"),
                ("mistakes", "int"),
                ("blunders", "int"),
                ("accuracy", "float"),
            )
        ],
        *_score_columns("final_score"),
        _col("errors", "int", False, _count("errors")),
        _col("search", "str"),
    )

    @property
    def run(self) -> Optional[Row]:
        """The run: the format's version, the inputs, the engine (on the first row)."""
        return self._rows[0].get("run") if self._rows else None

    def moves(self) -> Table:
        """One row per move of every analysed game, as ``drafti analyze --json-moves`` writes
        them: the game (``file``, ``index``, ``white``, ``black``, ``result``, ``variant``)
        and the move's evaluation: ``ply``, ``move_number`` (an int: 8 for ``8.`` and
        ``8...``), ``side``, ``player`` (the mover's name), ``move``, the scores before and
        after the move from the mover's side as ``drafti analyze --json-moves`` names them
        (``score_before_cp`` centi-men, or ``score_before_win_in`` / ``score_before_loss_in``
        plies to a forced end, ``score_before_text``; ``score_after_…`` likewise),
        ``win_before`` / ``win_after`` (the mover's win %), the position after the move
        from White's point of view (``score_white_cp``, ``score_white_win_in``,
        ``score_white_loss_in``, ``win_white``, as python-chess's ``score.white()``),
        ``accuracy``, ``best``, ``pv``,
        ``judgement`` (``inaccuracy``, ``mistake``, ``blunder`` or null), ``reason``,
        ``depth``, ``confirmed_depth``, ``unsettled``, ``exact``."""
        records = []
        for row in self._rows:
            for m in row.get("moves") or ():
                rec = dict(m)
                for key in ("file", "index", "white", "black", "result", "variant"):
                    rec[key] = row.get(key)
                records.append({n: g(rec) for n, _, _, g in _MOVE_COLUMNS})
        return Table(_MOVE_COLUMNS, records)

    def blunders(self) -> Table:
        """The rows of ``moves()`` judged blunders."""
        moves = self.moves()
        return Table(_MOVE_COLUMNS, [r for r in moves.records if r["judgement"] == "blunder"])


class OpeningRows(Rows):
    """``openings``'s rows (``drafti openings --json``'s): the ``all`` row, one per opening
    of the book the games reach, one per line of the move tree; with ``per_game=True``,
    one per game (``--per-game --json``).

    The table: ``kind``, ``depth``, ``code``, ``name``, ``moves``, ``fen``, the counts
    (``games``, ``white_wins``, ``draws``, ``black_wins``, ``unknown``, ``white_first``,
    ``black_first``, ``first_mover_wins``, ``second_mover_wins``, ``total_plies``),
    ``score_pct``, ``avg_plies``, ``tree_plies``, ``min_games``, ``book`` — or, per game,
    ``file``, ``index``, ``first_mover``, ``result``, ``plies``, ``code``, ``name``,
    ``ply``, ``moves``."""

    _stats_columns: Sequence[Column] = (
        _col("kind", "str"),
        _col("depth", "int"),
        _col("code", "str"),
        _col("name", "str"),
        _col("moves", "str"),
        _col("fen", "str"),
        *[
            _col(name, "int")
            for name in (
                "games",
                "white_wins",
                "draws",
                "black_wins",
                "unknown",
                "white_first",
                "black_first",
                "first_mover_wins",
                "second_mover_wins",
                "total_plies",
            )
        ],
        _col("score_pct", "float"),
        _col("avg_plies", "float"),
        _col("tree_plies", "int", True),
        _col("min_games", "int", True),
        _col("book", "str", True),
    )

    _game_columns: Sequence[Column] = (
        _col("file", "str"),
        _col("index", "int"),
        _col("first_mover", "str"),
        _col("result", "str", True, lambda r: r.get("result") or None),
        _col("plies", "int"),
        _col("code", "str", True, lambda r: r.get("code") or None),
        _col("name", "str"),
        _col("ply", "int", True),
        _col("moves", "str", True, lambda r: r.get("moves") or None),
    )

    def _records(self) -> Tuple[Sequence[Column], List[Row]]:
        per_game = bool(self._rows) and "kind" not in self._rows[0]
        columns = self._game_columns if per_game else self._stats_columns
        return columns, [{n: get(r) for n, _, _, get in columns} for r in self._rows]

    def kind(self, kind: str) -> "OpeningRows":
        """The rows of one kind: ``all``, ``opening`` or ``tree``."""
        return OpeningRows([r for r in self._rows if r.get("kind") == kind])


def _score_text(score: Any) -> Tuple[Optional[int], Optional[int], Optional[int]]:
    """(centi-men, win in, loss in) of a puzzle's score: the object ``drafti puzzles --json``
    writes (``cp``, ``win_in``, ``loss_in``), or a score as text (``+0.35``, ``win in 7``)."""
    if isinstance(score, dict):
        return (score.get("cp"), score.get("win_in"), score.get("loss_in"))
    if not isinstance(score, str):
        return (None, None, None)
    words = score.split()
    if len(words) == 3 and words[0] in ("win", "loss") and words[2].isdigit():
        n = int(words[2])
        return (None, n, None) if words[0] == "win" else (None, None, n)
    try:
        return (round(float(score) * 100), None, None)
    except ValueError:
        return (None, None, None)


def _score_shown(score: Any) -> Optional[str]:
    """A puzzle's score as text (``+2.07``, ``win in 7``)."""
    return score.get("text") if isinstance(score, dict) else score


class PuzzleRows(Rows):
    """``puzzles``'s rows (``drafti puzzles --json``'s objects), one per distinct puzzle.

    The table: ``number``, ``fen``, ``variant``, ``side``, ``task``, ``solution`` (list),
    ``solution_text``, ``continuation``, ``gain_kind``, ``gain_men``,
    ``gain_proven_win_in``, ``themes``, ``shot``, ``captured``, ``lost``, ``depth``,
    ``difficulty``, ``score`` (as text) with ``score_cp`` / ``score_win_in`` /
    ``score_loss_in`` (its numbers),
    ``exact``, ``occurrences``, and the first source's ``file``, ``game``, ``ply``,
    ``white``, ``black``."""

    _columns = (
        _col("number", "int"),
        _col("fen", "str"),
        _col("variant", "str"),
        _col("side", "str"),
        _col("task", "str"),
        _col("solution", "list"),
        _col("solution_text", "str"),
        _col("continuation", "list"),
        _col("gain_kind", "str", False, lambda r: r["gain"]["kind"]),
        _col("gain_men", "int", False, lambda r: r["gain"]["men"]),
        _col("gain_proven_win_in", "int", True, lambda r: r["gain"].get("proven_win_in")),
        _col("themes", "list"),
        _col("shot", "int"),
        _col("captured", "int"),
        _col("lost", "int"),
        _col("depth", "int"),
        _col("difficulty", "int"),
        _col("score", "str", False, lambda r: _score_shown(r.get("score"))),
        _col("score_cp", "int", True, lambda r: _score_text(r.get("score"))[0]),
        _col("score_win_in", "int", True, lambda r: _score_text(r.get("score"))[1]),
        _col("score_loss_in", "int", True, lambda r: _score_text(r.get("score"))[2]),
        _col("exact", "bool"),
        _col("occurrences", "int"),
        _col("file", "str", True, _first("sources", "file")),
        _col("game", "int", True, _first("sources", "game")),
        _col("ply", "int", True, _first("sources", "ply")),
        _col("white", "str", True, _first("sources", "white")),
        _col("black", "str", True, _first("sources", "black")),
    )


class MoveRows(Rows):
    """``game_moves``'s rows: one per mainline move of every game (up to a game's first
    error), made by the rules alone, without the engine.

    The table: the game (``file``, ``index``, ``white``, ``black``, ``result``,
    ``variant``) and the move: ``ply``, ``move_number`` (an int), ``mover`` (``white`` or
    ``black``), ``player`` (the mover's name), ``move`` (as written), ``notation`` (as short
    as the position allows), ``path`` (every square), ``captures`` (how many pieces it
    takes), ``captured`` (their squares), ``promotion``, ``fen_before``, ``fen_after``,
    ``nags``, ``comment``, ``clock`` (seconds, from ``[%clk …]``)."""

    _columns = (
        _col("file", "str"),
        _col("index", "int"),
        _col("white", "str", True),
        _col("black", "str", True),
        _col("result", "str", True),
        _col("variant", "str"),
        _col("ply", "int"),
        _col("move_number", "int"),
        _col("mover", "str"),
        _col("player", "str", True),
        _col("move", "str"),
        _col("notation", "str"),
        _col("path", "str"),
        _col("captures", "int"),
        _col("captured", "list"),
        _col("promotion", "bool"),
        _col("fen_before", "str"),
        _col("fen_after", "str"),
        _col("nags", "ints"),
        _col("comment", "str", True),
        _col("clock", "float", True),
    )
