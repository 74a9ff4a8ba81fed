"""Positions, moves and the engine through the Python API, and the engine's results against
`drafti search --json` for the same limits."""

import copy
import json

import pytest

import drafti
from drafti import Position

from conftest import REPO, run_cli


def test_push_pop_and_the_move_stack():
    pos = Position()
    played = [pos.push(t) for t in ["c3-d4", "f6-e5", "d4xf6"]]
    assert pos.move_stack == played and pos.peek() == played[-1]
    assert pos.turn == "black"
    assert pos.pop() == played[-1]
    assert pos.fen() == "W:W18,21,23-32:B1-10,12,15"
    root = pos.root()
    assert root == Position() and root.move_stack == []
    with pytest.raises(IndexError):
        Position().pop()


def test_copies_are_independent():
    pos = Position()
    pos.push("c3-d4")
    for other in (pos.copy(), copy.copy(pos), copy.deepcopy(pos)):
        other.push("f6-e5")
        assert pos.turn == "black" and other.turn == "white"
    assert pos.copy(stack=False).move_stack == []


def test_moves_are_values():
    pos = Position()
    a, b = pos.parse_move("c3-d4"), pos.parse_move("22-18")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != pos.parse_move("c3-b4") and a != "c3-d4"
    assert (a.from_square, a.to_square, a.path, a.captured) == (22, 18, [22, 18], [])
    assert not a.is_capture and not a.promotes
    assert str(a) == "c3-d4" and repr(a) == "Move('c3-d4')"
    assert a in pos.legal_moves()


def test_notation_lines():
    pos = Position("W:Wc3,e3:Bd6,f6")
    line = [pos.parse_move("c3-d4")]
    after = pos.copy()
    after.push(line[0])
    line.append(after.parse_move("f6-e5"))
    assert pos.notation_line(line) == ["c3-d4", "f6-e5"]
    assert pos.notation_line(["c3-d4", "f6-e5"], numeric=True) == ["22-18", "11-15"]
    assert pos.notation_line(line, numbered=True) == "1. c3-d4 f6-e5"
    with pytest.raises(drafti.IllegalMoveError):
        pos.notation_line(["c3-d4", "c3-d4"])


def test_board_text_svg_and_pieces():
    pos = Position("W:W21,K32:B1")
    assert pos.pieces() == {1: "b", 21: "w", 32: "W"}
    assert pos.piece_at(32) == "W" and pos.piece_at("g1") == "W" and pos.piece_at(5) is None
    assert "a b c d e f g h" in str(pos)
    svg = pos._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<circle") == 3


def test_perft_matches_published_figures():
    # The published rows from the start (rules/tests/perft.rs cites them).
    assert [Position(variant="russian").perft(d) for d in range(1, 7)] == [7, 49, 302, 1469, 7482, 37986]
    assert [Position(variant="czech").perft(d) for d in range(1, 7)] == [7, 49, 302, 1469, 7361, 36768]


def test_search_finds_the_shot_and_returns_moves():
    pos = Position("W:Wc3,e3:Bd6,f6")
    engine = drafti.Engine()
    result = engine.search(pos, depth=8)
    assert result.best in pos.legal_moves()
    assert result.pv[0] == result.best
    assert result.depth == 8 and result.nodes > 0
    assert result.score.cp is not None or result.score.win_in is not None
    two = engine.search(pos, depth=6, multipv=2)
    assert len(two.lines) == 2 and two.lines[0].score >= two.lines[1].score
    assert engine.search(pos, nodes=500).depth >= 1


def test_search_of_a_finished_game():
    result = drafti.Engine().search(Position("W:Wa3:Bb4,c5"))
    assert result.best is None and result.outcome.winner == "black"
    assert str(result.score) == "loss in 0"


def test_a_tzdraft_search_counts_on_from_the_positions_moves():
    # TzDraft's server draws three kings against one once the strong side has made 12
    # moves since its last capture: with 11 made, nothing is won any more (the line repeats
    # no position, so no repetition draws it).
    line = ("a3-f8 h4-d8 f8-d6 d8-b6 d6-b8 b6-a7 b8-c7 a7-b8 c7-d8 b8-a7 d8-a5 a7-b8 "
            "a5-b6 b8-a7 b6-d8 a7-b8 d8-a5 b8-a7 a5-b4 a7-b8 b4-f8 b8-a7")
    pos = Position("W:WKa1,Kc1,Ka3:BKh4", "tzdraft")
    for move in line.split():
        pos.push(move)
    assert pos.outcome() is None and pos.turn == "white"
    engine = drafti.Engine("tzdraft")
    assert str(engine.search(pos, nodes=100_000).score) == "0.00"
    # The same position as a game's start counts from zero.
    fresh = Position(pos.fen(), "tzdraft")
    assert engine.search(fresh, nodes=100_000).score.cp > 0


def test_scores_order_and_print_as_the_cli():
    engine = drafti.Engine()
    won = engine.search(Position("W:Wc3:Bd4"), depth=4).score
    assert won.win_in == 1 and str(won) == "win in 1" and won.is_proven
    assert -won < won and (-won).loss_in == 1
    level = engine.evaluate(Position())
    assert abs(level.cp) <= 10


def test_engine_and_position_must_agree_on_the_rules():
    with pytest.raises(ValueError, match="russian position for a tz engine"):
        drafti.Engine().search(Position(variant="russian"), depth=2)


SEARCHES = [
    ("W:W21-32:B1-12", "tz", ["--depth", "9"], {"depth": 9}),
    ("W:Wc3,e3,g3,a1:Bd6,f6,h6,b8", "tz", ["--nodes", "20000"], {"nodes": 20000}),
    ("W:WK29,22,23:BK4,11,12", "tz", ["--depth", "10", "--multipv", "3"], {"depth": 10, "multipv": 3}),
    ("W:W21-32:B1-12", "russian", ["--depth", "8"], {"depth": 8}),
    ("W:W21-32:B1-12", "czech", ["--nodes", "5000", "--multipv", "2"], {"nodes": 5000, "multipv": 2}),
    ("B:WK1,K2,K3:BK30", "tz", ["--depth", "6"], {"depth": 6}),
]


@pytest.mark.parametrize("fen,variant,flags,kwargs", SEARCHES)
def test_search_equals_drafti_search(drafti_bin, cli_env, fen, variant, flags, kwargs):
    out = run_cli(drafti_bin, cli_env, "search", "--fen", fen, "--variant", variant, "--json", *flags)
    assert out.returncode == 0, out.stderr
    cli = json.loads(out.stdout.splitlines()[-1])
    mine = drafti.Engine(variant).search(Position(fen, variant), **kwargs).to_dict()
    for volatile in ("nps", "time_ms"):
        cli.pop(volatile)
        mine.pop(volatile)
    assert mine == cli


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """Tanzanian endgame tables of up to 3 pieces (a second to build)."""
    root = tmp_path_factory.mktemp("egtb")
    return root, drafti.build_tables(root, "tz", pieces=3)


@pytest.mark.parametrize("fen", ["W:WKa1,Kc1:Bh6", "W:WK29,K30:BK4", "B:WKa1,c3:Bh6", "W:Wc3:Bd4,Kh8"])
def test_table_probes_equal_drafti_egtb_probe(drafti_bin, cli_env, tables, fen):
    root, t = tables
    assert t.variant == "tz" and t.max_pieces == 3 and len(t) > 0
    out = run_cli(drafti_bin, cli_env, "egtb", "probe", "--dir", str(root), "--fen", fen, "--json")
    assert out.returncode == 0, out.stderr
    cli = json.loads(out.stdout)
    pos = Position(fen)
    value = t.probe(pos)
    assert (str(value), value.kind, value.distance) == (cli["value"], cli["result"], cli["distance"])
    assert pos.notation_line(t.line(pos)) == cli["line"]
    ranked = [(pos.notation(m), str(v)) for m, v in t.rank_moves(pos)]
    assert ranked == [(m["move"], m["value"]) for m in cli["moves"]]


def test_the_engine_plays_exactly_with_tables(tables):
    root, t = tables
    pos = Position("W:WKa1,Kc1:Bh6")
    exact = drafti.Engine(tables=root).search(pos, depth=6)
    assert exact.score.win_in == t.probe(pos).distance == 3
    assert drafti.Engine(tables=t).search(pos, depth=6).score == exact.score
    with pytest.raises(ValueError):
        t.probe(Position(variant="russian"))
    assert t.probe(Position()) is None  # 24 pieces: no table holds it


def test_analyze_uses_the_default_folders_tables(tmp_path, monkeypatch):
    """Given no tables, analyze uses those of the default folder, as drafti analyze does:
    with them the ending's two blunders are exact; without, a warning says so."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    root = drafti.default_tables_dir()
    assert root == tmp_path / "drafti" / "egtb"
    game = REPO / "tests" / "fixtures" / "analyze" / "table-ending.pdn"

    def exact(**kw):
        return list(drafti.analyze(game, **kw).moves().to_pandas()["exact"])

    with pytest.warns(UserWarning, match="analysing without endgame tables"):
        without = exact()
    assert not any(without)
    drafti.build_tables(root, "tz", pieces=4)
    with_default = exact()
    assert with_default == exact(tables=root) == exact(variant="tz")
    assert any(with_default)
    assert exact(tables=False) == without
    # Tables of another variant are not this game's: the Czech reading finds none there.
    with pytest.warns(UserWarning, match="analysing without endgame tables"):
        drafti.analyze(game, variant="czech")
    monkeypatch.setenv("XDG_CACHE_HOME", "")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert drafti.default_tables_dir() == tmp_path / "home" / ".cache" / "drafti" / "egtb"


def test_analyze_builds_the_tables_of_its_games_on_first_use(tmp_path, monkeypatch, caplog):
    """As drafti analyze: given no tables, the missing ones of the games' variants are built
    in the default folder once (here of up to 4 pieces, DRAFTI_FIRST_USE_TABLES), said on the
    drafti logger, and the verdicts are those with that folder given; only there, and not
    for a file object, whose games are read once."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("DRAFTI_FIRST_USE_TABLES", "4")
    root = tmp_path / "drafti" / "egtb"
    game = REPO / "tests" / "fixtures" / "analyze" / "table-ending.pdn"
    with open(game) as f:
        with pytest.warns(UserWarning, match="analysing without endgame tables"):
            drafti.analyze(f, depth=2)
    assert not root.exists()
    drafti.analyze(game, depth=2, tables=False)
    assert not root.exists()

    with caplog.at_level("INFO", logger="drafti"):
        built = drafti.analyze(game)
    assert f"endgame tables: building the tz tables of up to 4 pieces in {root / 'tz'}, once" in caplog.text
    assert "endgame tables: built 41 tz tables in " in caplog.text
    assert (root / "tz" / "KKvK.egtb").is_file() and (root / "tz" / ".build.lock").is_file()
    assert sorted(p.name for p in root.iterdir()) == ["tz"]
    given = drafti.analyze(game, tables=root)
    assert list(built.moves().to_pandas()["exact"]) == list(given.moves().to_pandas()["exact"])
    assert any(built.moves().to_pandas()["exact"])
    assert [r["moves"] for r in built] == [r["moves"] for r in given]

    # Once; a variant given is built without reading the games.
    caplog.clear()
    with caplog.at_level("INFO", logger="drafti"):
        drafti.analyze(game, depth=2)
        drafti.analyze(game, depth=2, variant="russian")
    assert "building the tz tables" not in caplog.text
    assert "building the russian tables of up to 4 pieces" in caplog.text
    assert (root / "russian" / "KKvK.egtb").is_file()

    monkeypatch.setenv("DRAFTI_FIRST_USE_TABLES", "six")
    with pytest.raises(drafti.TablesError, match="DRAFTI_FIRST_USE_TABLES=six: expected"):
        drafti.analyze(game, depth=2, variant="czech")


def test_puzzles_build_the_tables_of_their_games_on_first_use(tmp_path, monkeypatch, caplog):
    """As drafti puzzles, and as analyze: the puzzles of a game with the tables its analysis
    would have, built once in the default folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("DRAFTI_FIRST_USE_TABLES", "3")
    root = tmp_path / "drafti" / "egtb"
    game = REPO / "tests" / "fixtures" / "analyze" / "table-ending.pdn"
    drafti.puzzles(game, nodes=2000, tables=False)
    assert not root.exists()
    with caplog.at_level("INFO", logger="drafti"):
        built = drafti.puzzles(game, nodes=2000)
    assert f"endgame tables: building the tz tables of up to 3 pieces in {root / 'tz'}, once" in caplog.text
    assert (root / "tz" / "KKvK.egtb").is_file()
    assert list(built) == list(drafti.puzzles(game, nodes=2000, tables=root))


def test_a_cache_that_cannot_be_written_costs_the_tables_not_the_analysis(tmp_path, monkeypatch):
    not_a_folder = tmp_path / "not-a-folder"
    not_a_folder.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(not_a_folder))
    monkeypatch.setenv("DRAFTI_FIRST_USE_TABLES", "3")
    game = REPO / "tests" / "fixtures" / "analyze" / "table-ending.pdn"
    with pytest.warns(UserWarning) as warned:
        rows = drafti.analyze(game, depth=2)
    messages = [str(w.message) for w in warned]
    folder = not_a_folder / "drafti" / "egtb" / "tz"
    assert any(m.startswith(f"endgame tables: cannot build the tz tables in {folder}: ") for m in messages), messages
    assert any("analysing without endgame tables" in m for m in messages), messages
    assert len(rows) == 1 and not any(rows.moves().to_pandas()["exact"])


def test_a_damaged_table_in_the_default_folder_is_an_error(tmp_path, monkeypatch):
    """As on the command line: a job never runs quietly without a table that is there."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = drafti.default_tables_dir() / "tz"
    folder.mkdir(parents=True)
    (folder / "kk.egtb").write_bytes(b"junk\n")
    game = REPO / "tests" / "fixtures" / "analyze" / "table-ending.pdn"
    with pytest.raises(TypeError, match="False"):
        drafti.analyze(game, tables=True)
    with pytest.raises(drafti.TablesError, match="kk.egtb"):
        drafti.analyze(game, depth=2)
    # An empty folder (a build that never began) holds none: a warning, not an error.
    (folder / "kk.egtb").unlink()
    with pytest.warns(UserWarning, match="analysing without endgame tables"):
        drafti.analyze(game, depth=2)


def test_a_blunder_scored_in_a_king_ending_beyond_the_tables_is_a_mistake(tmp_path):
    """Czech: two kings and a man against a king and two men, drawn in the 6-piece tables
    after e1-a5 as before it; the evaluation scores the move 2.4 men down. Without tables
    its blunder's drop is not settled: a mistake, as drafti analyze says."""
    game = tmp_path / "ending.pdn"
    game.write_text('[GameType "29"]\n[FEN "B:WK15,19,K29:B4,21,K31"]\n\n1... e1-a5 *\n')
    moves = drafti.analyze(game, tables=False).moves().to_pandas()
    assert list(moves["move"]) == ["e1-a5"]
    assert moves["judgement"][0] == "mistake"
    assert bool(moves["unsettled"][0])
    assert moves["win_before"][0] - moves["win_after"][0] >= 15
