"""Games as data, as python-chess users expect them: the tree of a record (comments, NAGs,
variations, clocks), a visitor over it, every move of an archive as a row without the
engine, scores from White's side; positions, moves and games that pickle and copy; the
package's own exceptions and warnings."""

import copy
import io
import pickle
import subprocess
import sys
import warnings

import pytest

import drafti
from drafti import Position

from conftest import CORPUS, MASTER

ANNOTATED = """[Event "club"]
[White "Asha"]
[Black "Baraka"]
[Result "*"]
{before the first move} 1. c3-d4 {the centre [%clk 0:04:58]} f6-e5 $2
( {instead} 1... b6-a5 ! 2. d4-c5 ( 2. b2-c3 ) d6xb4 ) 2. d4xf6 ?? g7xe5 *
"""


def test_the_tree_of_a_record():
    game = drafti.Game.from_pdn(ANNOTATED)
    root = game.root()
    assert root.comment == "before the first move" and root.move is None
    main = list(root.mainline())
    assert [str(n.move) for n in main] == ["c3-d4", "f6-e5", "d4xf6", "g7xe5"]
    assert [n.move for n in game.mainline()] == game.moves
    first, second = main[0], main[1]
    assert first.comment == "the centre [%clk 0:04:58]" and first.clock() == 298.0
    assert second.nags == [2] and main[2].nags == [4] and main[2].clock() is None
    # The alternative to 1... f6-e5 hangs from the node after 1. c3-d4, after the mainline.
    assert [str(n.move) for n in first.variations] == ["f6-e5", "b6-a5"]
    alt = first.variations[1]
    assert alt.starting_comment == "instead" and alt.nags == [1] and not alt.is_mainline()
    assert [n.text for n in alt.mainline()] == ["d4-c5", "d6xb4"]
    assert [n.text for n in alt.variations[0].variations] == ["d6xb4"]
    assert [n.text for n in alt.variations] == ["d4-c5", "b2-c3"]
    # Positions along the tree.
    assert alt.board().fen() == "W:W18,21,23-32:B1-8,10-13"
    assert alt.end().board().move_stack[-1] == alt.end().move
    assert alt.end().ply() == 4 and main[-1].is_mainline() and main[-1].game() is game
    # Every node, in the order the record writes them.
    assert [n.text for n in root.walk()] == [
        "c3-d4", "f6-e5", "b6-a5", "d4-c5", "b2-c3", "d6xb4", "d4xf6", "g7xe5"
    ]


def test_a_move_that_is_not_legal_ends_what_can_be_followed():
    game = drafti.Game.from_pdn("1. c3-d4 f6-e5 (1... c3-b4 2. e3-f4) 2. d4xf6 *")
    first = game.root().next()
    wrong = first.variations[1]
    assert wrong.move is None and wrong.text == "c3-b4" and wrong.board() is None
    assert wrong.next().move is None  # cannot be followed after it


class Pgnish(drafti.Visitor[str]):
    """Writes the record back as python-chess's StringExporter would, roughly."""

    def __init__(self):
        self.words = []

    def visit_header(self, name, value):
        self.words.append(f"[{name}]")

    def visit_move(self, board, move):
        self.words.append(board.notation(move) if move is not None else "?")

    def visit_nag(self, nag):
        self.words.append(f"${nag}")

    def visit_comment(self, comment):
        self.words.append("{" + comment + "}")

    def begin_variation(self):
        self.words.append("(")

    def end_variation(self):
        self.words.append(")")

    def visit_result(self, result):
        self.words.append(result)

    def result(self):
        return " ".join(self.words)


def test_a_visitor_walks_the_record_in_order():
    text = drafti.Game.from_pdn(ANNOTATED).accept(Pgnish())
    assert text == (
        "[Event] [White] [Black] [Result] {before the first move} c3-d4 "
        "{the centre [%clk 0:04:58]} f6-e5 $2 ( {instead} b6-a5 $1 d4-c5 ( b2-c3 ) d6xb4 ) "
        "d4xf6 $4 g7xe5 *"
    )


def test_every_move_of_an_archive_as_a_row(corpora):
    path = corpora / MASTER[3][0]
    rows = drafti.game_moves(path, variant="czech")
    games = list(drafti.read_games(path, variant="czech"))
    assert len(rows) == sum(g.plies for g in games)
    df = rows.to_pandas()
    for column, dtype in {"ply": "int64", "move_number": "int64", "captures": "int64",
                          "promotion": "bool", "player": "string", "clock": "float64"}.items():
        assert str(df[column].dtype) == dtype, column
    first = rows[0]
    g = games[0]
    assert (first["ply"], first["move_number"], first["mover"]) == (1, 1, "white")
    assert first["player"] == g.tags["White"] and first["fen_before"] == g.board().fen()
    assert first["move"] == g.move_texts[0]
    # Captures and crowning agree with the moves themselves.
    moves = [m for g in games for m in g.moves]
    assert df["captures"].tolist() == [len(m.captured) for m in moves]
    assert df["promotion"].tolist() == [m.promotes for m in moves]
    assert (df["move_number"] == (df["ply"] + 1) // 2).all()
    assert rows.to_arrow().schema.field("nags").type.value_type.bit_width == 64
    assert g.move_rows() == [r for r in rows if r["index"] == 1 and r["file"] == str(path)]


def test_scores_from_whites_side():
    won = drafti.Score(win_in=3)
    assert won.white("white") == won and won.white("black") == drafti.Score(loss_in=3)
    assert drafti.Score(cp=35).pov("black", "white").cp == -35
    rows = drafti.analyze(CORPUS / "showcase.pdn", depth=2, verify=False).moves()
    for r in rows:
        sign = 1 if r["side"] == "white" else -1
        if r["score_after_cp"] is not None:
            assert r["score_white_cp"] == sign * r["score_after_cp"]
        win, loss = ("win_in", "loss_in") if sign == 1 else ("loss_in", "win_in")
        assert r["score_white_win_in"] == r[f"score_after_{win}"]
        assert r["score_white_loss_in"] == r[f"score_after_{loss}"]
        assert abs(r["win_white"] - (r["win_after"] if sign == 1 else 100 - r["win_after"])) < 1e-9
        assert isinstance(r["move_number"], int) and r["player"] == r[r["side"]]
    with pytest.raises(ValueError, match="pov: unknown colour"):
        won.white("red")


def test_positions_moves_games_and_scores_pickle_and_copy():
    pos = Position("W:Wc3,e3,K32:Bd6,f6", "tz", king_count_limit=15)
    pos.push("c3-d4")
    pos.push("f6-e5")
    back = pickle.loads(pickle.dumps(pos))
    assert back == pos and back.move_stack == pos.move_stack
    assert back.root() == pos.root() and back.king_count_limit == 15
    assert copy.deepcopy(pos).move_stack == pos.move_stack
    capture = Position("W:Wc3:Bd4,f6").legal_moves[0]
    again = pickle.loads(pickle.dumps(capture))
    assert again == capture and again.path == capture.path and again.captured == capture.captured
    odd = list(drafti.read_games(CORPUS / "bad" / "garbage-between-games.pdn"))
    assert any(not g.is_valid for g in odd)
    for game in [drafti.Game.from_pdn(ANNOTATED), *odd]:
        same = pickle.loads(pickle.dumps(game))
        assert same.to_dict() == game.to_dict() and same.file == game.file
        assert copy.deepcopy(game).to_dict() == game.to_dict()
    czech = next(drafti.read_games(CORPUS / "showcase.pdn", variant="czech"))
    assert pickle.loads(pickle.dumps(czech)).variant == "czech"
    score = drafti.Score(win_in=7)
    assert pickle.loads(pickle.dumps(score)) == score


def test_legal_moves_is_a_property_and_a_method():
    pos = Position()
    assert len(pos.legal_moves) == 7 and pos.legal_moves() == list(pos.legal_moves)
    assert pos.parse_move("c3-d4") in pos.legal_moves and pos.legal_moves.count() == 7
    assert pos.legal_moves[0] == pos.legal_moves()[0]


def test_after_a_draw_law_ends_the_game_moves_push_and_is_legal_agree():
    pos = Position("W:WK29,K30:BK4")  # law 1: only kings, at most two each
    assert pos.outcome().draw_law == "few_kings"
    assert list(pos.legal_moves) == [] and pos.legal_moves() == []
    assert not pos.is_legal("a1-b2")
    with pytest.raises(drafti.IllegalMoveError, match="after the game ended"):
        pos.push("a1-b2")
    # The engine and the tables still see the position's moves (a claim is no move).
    assert pos.perft(1) > 0


def test_hub_moves_and_positions():
    pos = Position("W:Wc3:Bd4,d6")
    mv = pos.parse_move("22x6x10x18")  # Hub: from 22 to 6 taking 10 and 18
    assert mv == pos.parse_move("c3xe5xc7") and mv.hub() == "22x6x10x18"
    start = Position()
    assert start.hub() == "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
    assert Position.from_hub(start.hub()) == start


def test_the_package_s_own_errors_name_what_is_wrong():
    for bad in ["h1", "z9", 0, 33, -1]:
        with pytest.raises(drafti.SquareError):
            drafti.parse_square(bad)
    assert issubclass(drafti.SquareError, ValueError)
    with pytest.raises(drafti.VariantError, match="russian position for a tz engine"):
        drafti.Engine().evaluate(Position(variant="russian"))
    for call, name in [
        (lambda: Position().perft(-1), "depth"),
        (lambda: drafti.Engine().search(Position(), depth=-3), "depth"),
        (lambda: drafti.Engine().search(Position(), nodes=-5), "nodes"),
        (lambda: drafti.Engine(hash_mb=2**70), "hash_mb"),
        (lambda: drafti.validate(CORPUS / "showcase.pdn", jobs=-1), "jobs"),
        (lambda: drafti.openings(CORPUS / "showcase.pdn", plies=-2), "plies"),
        (lambda: drafti.analyze(CORPUS / "showcase.pdn", depth=-1), "depth"),
        (lambda: drafti.build_tables("/nonexistent", pieces=-4), "pieces"),
        (lambda: Position(king_count_limit=-1), "king_count_limit"),
    ]:
        with pytest.raises(ValueError, match=f"^{name} "):
            call()


def test_from_pdn_says_when_the_text_holds_several_games():
    text = (CORPUS / "showcase.pdn").read_text(encoding="utf-8")
    with pytest.raises(drafti.PdnError, match="4 games in the text"):
        drafti.Game.from_pdn(text)


def test_the_cli_s_variant_note_is_a_warning(corpora):
    path = corpora / MASTER[2][0]  # Czech games without a GameType tag
    for call in (lambda: drafti.validate(path), lambda: list(drafti.read_games(path))):
        with pytest.warns(drafti.VariantWarning, match='replay valid as czech: try variant="czech"'):
            call()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        drafti.validate(path, variant="czech")
        drafti.validate(CORPUS / "selfplay.pdn")


def test_import_runs_no_search():
    code = "import drafti, sys; print('ENGINE' in vars(drafti)); print(drafti.ENGINE)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    first, name = out.stdout.splitlines()
    assert first == "False" and name.startswith("drafti ") and "(search " in name


def test_write_games_streams_a_generator(tmp_path):
    made = []

    def games():
        for g in drafti.read_games(CORPUS / "selfplay.pdn"):
            made.append(g.index)
            yield g

    written = []

    class Tap(io.StringIO):
        def write(self, text):
            written.append(len(made))
            return super().write(text)

    tap = Tap()
    assert drafti.write_games(games(), tap) == 2000
    # Written as they came: the first game went out before the second was read.
    assert written[0] == 1 and written[-1] == 2000 and len(written) == 2000
