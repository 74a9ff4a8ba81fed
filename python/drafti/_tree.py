"""A game's moves as a tree, like python-chess's ``chess.pgn``: ``Game.root()`` is the node
before the first move; each node's ``variations`` are the moves played from it (the first is
the mainline), with the ``comment``, ``nags`` and clock written with them. ``Visitor``
walks a game as the record is written (python-chess's ``BaseVisitor``).

>>> game = drafti.Game.from_pdn("1. c3-d4 {a classic} f6-e5 (1... b6-a5 $1) 2. d4xf6 *")
>>> root = game.root()                                      # doctest: +SKIP
>>> [str(n.move) for n in root.mainline()]                  # doctest: +SKIP
['c3-d4', 'f6-e5', 'd4xf6']
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Generic, Iterator, List, Optional, TypeVar

if TYPE_CHECKING:
    from . import Game, Move, Position

#: python-chess's names of the move-strength NAGs.
NAG_GOOD_MOVE = 1
NAG_MISTAKE = 2
NAG_BRILLIANT_MOVE = 3
NAG_BLUNDER = 4
NAG_SPECULATIVE_MOVE = 5
NAG_DUBIOUS_MOVE = 6

_CLOCK = re.compile(r"\[%clk\s+([0-9:.]+)\s*\]")


class GameNode:
    """One move of a game's tree (or the root, before the first move).

    ``move`` is the ``Move`` the rules resolve the written text to (``None`` at the root, and
    where the text is no legal move: after it the line cannot be followed); ``text`` is the
    move as written, ``number`` the move number written before it. ``comment`` (the comments
    after the move, joined), ``starting_comment`` (the comments before the first move of a
    variation), ``nags`` (``!`` is 1, ``?`` 2, ``!!`` 3, ``??`` 4, ``!?`` 5, ``?!`` 6, and
    ``$n``), ``variations`` (the moves played from here, the mainline first), ``parent``."""

    def __init__(
        self,
        parent: Optional["GameNode"],
        move: Optional["Move"],
        text: str,
        number: Optional[int],
        nags: List[int],
        comments: List[str],
        game: "Game",
    ) -> None:
        self.parent = parent
        self.move = move
        self.text = text
        self.number = number
        self.nags = nags
        self.comments = comments
        self.starting_comments: List[str] = []
        self.variations: List[GameNode] = []
        self._game = game

    @property
    def comment(self) -> str:
        """The comments after this move (before the first move, at the root), joined."""
        return " ".join(self.comments)

    @property
    def starting_comment(self) -> str:
        """For the first move of a variation, the comments written before it."""
        return " ".join(self.starting_comments)

    def game(self) -> "Game":
        """The game this node belongs to."""
        return self._game

    def root(self) -> "GameNode":
        """The node before the first move."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def ply(self) -> int:
        """Moves from the root to this node (0 at the root)."""
        n, node = 0, self
        while node.parent is not None:
            n, node = n + 1, node.parent
        return n

    def path(self) -> List["GameNode"]:
        """The nodes from the first move to this one."""
        nodes, node = [], self
        while node.parent is not None:
            nodes.append(node)
            node = node.parent
        return nodes[::-1]

    def board(self) -> Optional["Position"]:
        """The position after this move, with the moves to it on its stack; ``None`` where a
        move on the way is no legal move (or the game could not be read)."""
        pos = self._game.board()
        if pos is None:
            return None
        for node in self.path():
            if node.move is None:
                return None
            pos.push(node.move)
        return pos

    def is_main_variation(self) -> bool:
        """Whether this is the first of its parent's variations (or the root)."""
        return self.parent is None or self.parent.variations[0] is self

    def is_mainline(self) -> bool:
        """Whether the game's mainline goes through this node."""
        node = self
        while node.parent is not None:
            if not node.is_main_variation():
                return False
            node = node.parent
        return True

    def next(self) -> Optional["GameNode"]:
        """The main continuation, if any."""
        return self.variations[0] if self.variations else None

    def end(self) -> "GameNode":
        """The last node of the main continuation from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def mainline(self) -> Iterator["GameNode"]:
        """The nodes of the main continuation after this one."""
        node = self.next()
        while node is not None:
            yield node
            node = node.next()

    def mainline_moves(self) -> List[Optional["Move"]]:
        """The moves of the main continuation after this one."""
        return [node.move for node in self.mainline()]

    def walk(self) -> Iterator["GameNode"]:
        """Every node below this one, depth first in the order the record writes them (each
        move, then its alternatives with their lines, then the next move)."""
        yield from _walk(self)

    def clock(self) -> Optional[float]:
        """Seconds on the mover's clock after this move, from a ``[%clk 0:04:58]`` in its
        comment (as game servers export them), else ``None``."""
        found = _CLOCK.search(self.comment)
        if not found:
            return None
        seconds = 0.0
        for part in found.group(1).split(":"):
            try:
                seconds = seconds * 60 + float(part)
            except ValueError:
                return None
        return seconds

    def accept(self, visitor: "Visitor[T]") -> T:
        """Walks the record from this node as ``Game.accept`` does; returns
        ``visitor.result()``."""
        _visit_rest(self, self.board(), visitor)
        return visitor.result()

    def __repr__(self) -> str:
        if self.parent is None:
            return f"<GameNode root, {len(self.variations)} variation(s)>"
        shown = str(self.move) if self.move is not None else f"{self.text} (not legal)"
        return f"<GameNode ply {self.ply()} {shown}>"


def _walk(node: GameNode) -> Iterator[GameNode]:
    """The nodes after ``node`` in the record's order."""
    if not node.variations:
        return
    main, *others = node.variations
    yield main
    for other in others:
        yield other
        yield from _walk(other)
    yield from _walk(main)


T = TypeVar("T")


class Visitor(Generic[T]):
    """Walks a game as its record is written, python-chess's ``BaseVisitor``: override what
    you need; ``Game.accept(visitor)`` calls them in order and returns ``result()``.

    Order: ``begin_game``, ``visit_header`` for each tag, ``end_headers``, then for each move
    ``visit_move(board, move)`` (the position before it; ``move`` is ``None`` where the text
    is no legal move, and ``visit_text(text)`` is called for it as written),
    ``visit_nag``, ``visit_comment``, then its alternatives each between ``begin_variation``
    and ``end_variation``; ``visit_result``, ``end_game``."""

    def begin_game(self) -> None: ...
    def visit_header(self, name: str, value: str) -> None: ...
    def end_headers(self) -> None: ...
    def visit_move(self, board: Optional["Position"], move: Optional["Move"]) -> None: ...
    def visit_text(self, text: str) -> None: ...
    def visit_nag(self, nag: int) -> None: ...
    def visit_comment(self, comment: str) -> None: ...
    def begin_variation(self) -> None: ...
    def end_variation(self) -> None: ...
    def visit_result(self, result: str) -> None: ...
    def end_game(self) -> None: ...

    def result(self) -> T:
        raise NotImplementedError


def _visit_rest(node: GameNode, board: Optional["Position"], visitor: "Visitor[Any]") -> None:
    """The continuation after ``node`` (a variation's first move), with its alternatives."""
    while node.variations:
        main, *others = node.variations
        _visit_node(main, board, visitor)
        for other in others:
            visitor.begin_variation()
            for comment in other.starting_comments:
                visitor.visit_comment(comment)
            _visit_node(other, board.copy() if board is not None else None, visitor)
            after = board.copy() if board is not None else None
            if after is not None and other.move is not None:
                after.push(other.move)
            else:
                after = None
            _visit_rest(other, after, visitor)
            visitor.end_variation()
        if board is not None and main.move is not None:
            board.push(main.move)
        else:
            board = None
        node = main


def _visit_node(node: GameNode, board: Optional["Position"], visitor: "Visitor[Any]") -> None:
    visitor.visit_move(board, node.move)
    visitor.visit_text(node.text)
    for nag in node.nags:
        visitor.visit_nag(nag)
    for comment in node.comments:
        visitor.visit_comment(comment)


def accept(game: "Game", visitor: "Visitor[T]") -> T:
    """``Game.accept``: the whole record through ``visitor``."""
    visitor.begin_game()
    for name, value in game.tags.items():
        visitor.visit_header(name, value)
    visitor.end_headers()
    root = game.root()
    for comment in root.comments:
        visitor.visit_comment(comment)
    _visit_rest(root, root.board(), visitor)
    visitor.visit_result(game.result or "*")
    visitor.end_game()
    return visitor.result()


def _line(parent: GameNode, data: Any, game: "Game") -> Optional[GameNode]:
    """Hangs the line ``data`` (leading comments, nodes) under ``parent``; its first node."""
    leading, nodes = data
    first: Optional[GameNode] = None
    node = parent
    for move, text, number, nags, comments, variations in nodes:
        child = GameNode(node, move, text, number, nags, comments, game)
        if first is None:
            child.starting_comments = list(leading)
            first = child
        node.variations.append(child)
        # The alternatives to this move hang from its parent, after it.
        for line in variations:
            _line(node, line, game)
        node = child
    return first


def _root(game: "Game", data: Any) -> GameNode:
    """The tree the extension module made (``None`` for text that is no game)."""
    root = GameNode(None, None, "", None, [], [], game)
    if data is not None:
        leading, nodes = data
        root.comments = list(leading)
        _line(root, ([], nodes), game)
    return root
