"""drafti for Python: Tanzanian, Czech and Russian draughts.

Read, replay and validate PDN archives, play and parse moves, search positions with drafti's
engine and endgame tables, and run the toolkit's jobs (validation, engine analysis, opening
statistics, puzzles) on all cores, with their rows as pandas DataFrames or Arrow tables.
The rules, the parser and the engine are drafti's Rust library crates; this package calls
them directly (PyO3), never the ``drafti`` binary.

>>> import drafti
>>> pos = drafti.Position()                 # Tanzanian start, White to move
>>> pos.push("c3-d4")
Move('c3-d4')
>>> pos.fen()
'B:W18,21,23-32:B1-12'
>>> [pos.notation(m) for m in pos.legal_moves()][:3]
['b6-a5', 'd6-c5', 'f6-e5']

Variants are named ``"tz"`` (Tanzanian, the default), ``"czech"`` and ``"russian"``.
Squares are numbers 1-32 (PDN's numbering) or names (``"c3"``).
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import IO, Any, Iterable, Literal, Optional, Tuple, Union

from . import _drafti
from ._drafti import (
    AmbiguousMoveError,
    DraftiError,
    Engine,
    FenError,
    Game,
    GameReader,
    IllegalMoveError,
    InternalError,
    LegalMoves,
    Line,
    Move,
    Outcome,
    PdnError,
    Position,
    Problem,
    Score,
    SearchResult,
    SquareError,
    TableValue,
    Tables,
    TablesError,
    VariantError,
    VariantWarning,
    __version__,
    build_tables,
    parse_square,
    square_name,
    write_games,
)
from ._rows import AnalysisRows, MoveRows, OpeningRows, PuzzleRows, Rows, Table, ValidationRows
from ._tree import GameNode, Visitor

__all__ = [
    "ENGINE",
    "VARIANTS",
    "AmbiguousMoveError",
    "AnalysisRows",
    "DraftiError",
    "Engine",
    "FenError",
    "Game",
    "GameNode",
    "GameReader",
    "IllegalMoveError",
    "InternalError",
    "LegalMoves",
    "Line",
    "Move",
    "MoveRows",
    "OpeningRows",
    "Outcome",
    "PdnError",
    "Position",
    "Problem",
    "PuzzleRows",
    "Rows",
    "Score",
    "SearchResult",
    "SquareError",
    "Table",
    "TableValue",
    "Tables",
    "TablesError",
    "ValidationRows",
    "VariantError",
    "VariantWarning",
    "Visitor",
    "__version__",
    "analyze",
    "build_tables",
    "default_tables_dir",
    "game_moves",
    "hub",
    "openings",
    "explore",
    "parse_square",
    "puzzles",
    "read_games",
    "square_name",
    "validate",
    "write_games",
]

#: The variants, by the names every ``variant`` argument takes.
VARIANTS = ("tz", "czech", "russian")


def __getattr__(name: str) -> Any:
    # ``ENGINE`` names the engine with the fingerprint of its search (a search of its own):
    # made when first asked for, so ``import drafti`` searches nothing. ``drafti.hub`` is
    # imported when first used (it brings subprocess and threading).
    if name == "ENGINE":
        value = _drafti.engine_name()
        globals()["ENGINE"] = value
        return value
    if name == "hub":
        import importlib

        return importlib.import_module(".hub", __name__)
    raise AttributeError(f"module 'drafti' has no attribute {name!r}")

Source = Union[str, "os.PathLike[str]", IO, Iterable[Union[str, "os.PathLike[str]", IO]]]


def _sources(source: Source):
    """A path, a file object, or a list of them (any iterable that is not text)."""
    if isinstance(source, (str, os.PathLike)) or hasattr(source, "read"):
        return source
    if isinstance(source, (list, tuple)):
        return list(source)
    if isinstance(source, (bytes, bytearray)):
        raise TypeError("give a path or a file object; PDN text is read with Game.from_pdn")
    return list(source)


TablesArg = Union[None, Literal[False], str, "os.PathLike[str]", Tables, Iterable[Tables]]


def default_tables_dir() -> Optional[Path]:
    """The folder where ``drafti analyze``, ``drafti report`` and ``analyze`` build the endgame
    tables on first use, and where ``analyze`` and ``puzzles`` look for them when given none:
    ``$XDG_CACHE_HOME/drafti/egtb``, else ``~/.cache/drafti/egtb`` (``None`` without a home
    folder). ``build_tables(default_tables_dir(), "tz", pieces=5)`` builds them there."""
    folder = _drafti.default_tables_dir()
    return None if folder is None else Path(folder)


def _default_tables(variant: Optional[str], unbuilt: Iterable[str] = ()) -> Tuple[Optional[Path], list]:
    """The default folder and the tables it holds: ``variant``'s, or every variant's (as the
    command line uses them without ``--egtb``), but those of ``unbuilt`` (variants whose
    build on first use failed: none of theirs, as on the command line). A folder without a
    ``.egtb`` file holds none; a damaged table is an error, as on the command line."""
    root = default_tables_dir()
    if root is None:
        return None, []
    if variant is None:
        names = VARIANTS
    else:
        try:
            names = (Position(variant=variant).variant,)
        except ValueError:
            return root, []  # the job names the variant it cannot read
    names = [n for n in names if n not in unbuilt]
    return root, [Tables(root, n) for n in names if any((root / n).glob("*.egtb"))]


def _tables_arg(tables: TablesArg, variant: Optional[str], job: str, unbuilt: Iterable[str] = ()):
    """What a job's ``tables`` argument gives the library: ``None`` the default folder's
    tables (a warning when there are none, for the jobs whose verdicts they change),
    ``False`` none, else a folder or ``Tables`` objects."""
    if tables is False:
        return None
    if tables is True:
        raise TypeError(
            "tables: a folder of endgame tables, Tables objects, None (the default folder's) "
            "or False (none)"
        )
    if tables is None:
        root, found = _default_tables(variant, unbuilt)
        if found:
            return found
        if job == "analyze":
            where = f"none in {root}" if root is not None else "no home folder"
            warnings.warn(
                f"analysing without endgame tables ({where}): the verdicts in king endings "
                f"are far weaker; drafti.build_tables(drafti.default_tables_dir(), VARIANT, "
                f"pieces=5) builds them once",
                stacklevel=3,
            )
        return None
    if not isinstance(tables, (str, os.PathLike, Tables)):
        return list(tables)
    return tables


def read_games(
    source: Source,
    variant: Optional[str] = None,
    encoding: Optional[str] = None,
    *,
    jobs: int = 0,
) -> GameReader:
    """The games of an archive, one ``Game`` at a time, in the order of the input.

    ``source`` is a path, an open file (text or binary) or a list of them. Each game is
    parsed, replayed through the rules and validated on worker threads (``jobs``; 0: one
    per core) while Python works on the games already read; at most a few hundred games
    are held at a time, so memory stays flat whatever the size of the archive.
    ``variant`` reads every game under those rules whatever its tags say; ``encoding``
    forces the input's encoding (default: decided from its first non-ASCII bytes, with a
    ``UserWarning`` when not UTF-8). A file without a variant tag whose invalid games
    replay valid under other rules gets a ``VariantWarning`` naming them once it is read
    (the command line's note: ``try variant="czech"``). Threads may share one reader:
    each game goes to one of them. Ctrl-C stops the reading.

    A file that cannot be read (missing, a directory, binary) raises ``PdnError`` with
    the command line's message before any game is read. A broken game is not an
    exception: it is a ``Game`` whose ``problems`` say what and where.

    >>> for game in drafti.read_games("games.pdn"):          # doctest: +SKIP
    ...     print(game.tags.get("White"), game.result, game.status)
    """
    return _drafti.read_games(_sources(source), variant, encoding, jobs)


def validate(
    source: Source,
    *,
    variant: Optional[str] = None,
    encoding: Optional[str] = None,
    jobs: int = 0,
) -> ValidationRows:
    """Validates every game of ``source`` on ``jobs`` threads (0: one per core), with the
    GIL released: one row per game, ``drafti validate --json``'s object (``file``,
    ``index``, ``line``, ``tags``, ``variant``, ``plies``, ``result``, ``status``,
    ``errors``, ``warnings``). ``.to_pandas()`` / ``.to_arrow()`` give the table,
    ``.problems()`` one row per problem.

    The lines are written on the worker threads, as the command line writes them, and each
    becomes a dict when the rows are first used (indexing, iterating, a table). A file
    without a variant tag whose invalid games replay valid under other rules gets a
    ``VariantWarning`` (``try variant="czech"``). Ctrl-C stops it and its workers."""
    return ValidationRows._from_lines(_drafti.validate(_sources(source), variant, encoding, jobs))


def game_moves(
    source: Source,
    *,
    variant: Optional[str] = None,
    encoding: Optional[str] = None,
    jobs: int = 0,
) -> MoveRows:
    """One row per mainline move of every game of ``source`` (up to a game's first error),
    made by the rules alone, without the engine, on ``jobs`` threads: the game's keys and
    ``ply``, ``move_number``, ``mover``, ``player``, ``move``, ``notation``, ``path``,
    ``captures``, ``captured``, ``promotion``, ``fen_before``, ``fen_after``, ``nags``,
    ``comment``, ``clock``. ``.to_pandas()`` / ``.to_arrow()`` give the table."""
    return MoveRows._from_lines(_drafti.game_moves(_sources(source), variant, encoding, jobs))


def analyze(
    source: Source,
    *,
    preset: Optional[str] = None,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    verify: bool = True,
    verify_depth: Optional[int] = None,
    verify_nodes: Optional[int] = None,
    confirm: bool = True,
    confirm_depth: Optional[int] = None,
    confirm_nodes: Optional[int] = None,
    nominate: Optional[float] = None,
    blunder_depths: Optional[int] = None,
    tables: TablesArg = None,
    variant: Optional[str] = None,
    encoding: Optional[str] = None,
    jobs: int = 0,
) -> AnalysisRows:
    """Analyses every valid game of ``source`` with the engine, as ``drafti analyze``: every
    position searched (``nodes``, default 25,000, or ``depth``), the moves that look like
    mistakes re-searched (``verify``: depth 10, at most a million nodes) and confirmed near
    the blunder threshold (``confirm``: depth 16), every move judged (inaccuracy, mistake,
    blunder) with the side's accuracy. Results do not depend on ``jobs``. ``preset``
    (``"fast"``, ``"default"``, ``"thorough"`` or ``"deep"``, as ``drafti analyze
    --preset``) is the base the other settings change.

    One row per game, ``drafti analyze --json``'s object; ``.moves()`` is the table of
    every move's evaluation and judgement, ``.blunders()`` the blunders. ``tables``: a
    folder of endgame tables (``drafti egtb build --dir``) or ``Tables`` objects; by
    default those in ``default_tables_dir()`` (``variant``'s when it is given, else every
    variant's there), as ``drafti analyze`` uses them, with a warning when there are none;
    ``False``: none. Without them the verdicts in king endings are far weaker. By default,
    as ``drafti analyze``, it first builds there the 5-piece tables of the games' variants
    that are missing (``variant``'s, else those the files' games name; none for file
    objects), once: half a minute to a minute a variant, said on the ``drafti`` logger (INFO);
    ``DRAFTI_FIRST_USE_TABLES=N`` builds up to N pieces (0: none), and a folder that cannot be
    written is a warning. Ctrl-C stops it and its searches."""
    settings = {
        "preset": preset,
        "depth": depth,
        "nodes": nodes,
        "verify": verify,
        "verify_depth": verify_depth,
        "verify_nodes": verify_nodes,
        "confirm": confirm,
        "confirm_depth": confirm_depth,
        "confirm_nodes": confirm_nodes,
        "nominate": nominate,
        "blunder_depths": blunder_depths,
    }
    sources = _sources(source)
    unbuilt = []
    if tables is None:
        unbuilt = _drafti.build_first_use_tables(sources, variant, encoding, jobs)
    tables = _tables_arg(tables, variant, "analyze", unbuilt)
    rows = _drafti.analyze(sources, settings, variant, encoding, jobs, tables)
    return AnalysisRows(list(rows))


def openings(
    source: Source,
    *,
    plies: int = 4,
    min_games: int = 1,
    per_game: bool = False,
    book: Union[None, str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]] = None,
    default_book: bool = True,
    variant: Optional[str] = None,
    encoding: Optional[str] = None,
    jobs: int = 0,
) -> OpeningRows:
    """Opening statistics of ``source``, as ``drafti openings --json``: every game
    classified by the deepest book position it reaches in its first 40 plies (keyed by
    position, Black-first games mirrored), results counted per opening and along a move
    tree ``plies`` deep; rows with fewer than ``min_games`` games are left out. With
    ``per_game``, one row per game with its opening instead. ``book``: TSV files (code,
    name, moves) merged over the built-in book (or replacing it, ``default_book=False``)."""
    if book is None:
        books = []
    elif isinstance(book, (str, os.PathLike)):
        books = [os.fspath(book)]
    else:
        books = [os.fspath(b) for b in book]
    rows = _drafti.openings(
        _sources(source), plies, min_games, per_game, books, default_book, variant, encoding, jobs
    )
    return OpeningRows(list(rows))


def explore(
    index: Union[str, "os.PathLike[str]"],
    *,
    fen: Optional[str] = None,
    moves: Optional[str] = None,
    variant: Optional[str] = None,
    date_from: Optional[str] = None,
    date_to: Optional[str] = None,
    event: Optional[str] = None,
    player: Optional[str] = None,
    color: Optional[str] = None,
    min_rating: Optional[int] = None,
    max_rating: Optional[int] = None,
    result: Optional[str] = None,
    opening: Optional[str] = None,
    ballot: Optional[str] = None,
    games: int = 5,
    numeric: bool = False,
):
    """The opening explorer over an index made by ``drafti index build``, as a pandas
    DataFrame: one row per line of ``drafti explore --json`` — the position (``kind`` =
    ``"position"``), then every move played from it (``"move"``) with its counts
    (``games``, ``white_wins``, ``draws``, ``black_wins``, ``score_pct``, ``avg_rating`` …),
    the names the books give (``names``) and its first ``games`` games (``game_list``).
    The position is ``fen``, or ``moves`` from the start (``"c3-d4 d6-c5"``), or the start;
    the other arguments filter the games as the command's flags do."""
    import pandas as pd

    rows = _drafti.explore(
        os.fspath(index), fen, moves, variant, date_from, date_to, event, player, color,
        min_rating, max_rating, result, opening, ballot, games, numeric,
    )
    return pd.DataFrame(rows)


def puzzles(
    source: Source,
    *,
    nodes: Optional[int] = None,
    difficulty: Union[None, int, Tuple[int, int]] = None,
    tables: TablesArg = None,
    variant: Optional[str] = None,
    encoding: Optional[str] = None,
    jobs: int = 0,
) -> PuzzleRows:
    """Puzzles mined from the games of ``source``, as ``drafti puzzles --json``: positions
    where one move wins (material, a runaway man or the game) and every other is clearly
    worse, each with its unique solution, verified at 4 times the mining budget
    (``nodes`` per search, default 20,000). The same position from several games is one
    puzzle with several sources. ``difficulty``: 1 (easiest) to 5, or a range ``(2, 4)``.
    ``tables`` as for ``analyze`` (by default the tables of ``default_tables_dir()``, as
    ``drafti puzzles`` uses them, first building there the missing 5-piece tables of the
    games' variants, once; ``False``: none)."""
    if isinstance(difficulty, int):
        difficulty = (difficulty, difficulty)
    sources = _sources(source)
    unbuilt = []
    if tables is None:
        unbuilt = _drafti.build_first_use_tables(sources, variant, encoding, jobs)
    tables = _tables_arg(tables, variant, "puzzles", unbuilt)
    rows = _drafti.puzzles(sources, nodes, difficulty, variant, encoding, jobs, tables)
    return PuzzleRows(list(rows))
