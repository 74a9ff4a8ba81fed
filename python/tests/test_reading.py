"""Reading archives: games streamed from paths and file objects, their tags, moves, status and
problems, and round trips of the real archives through PDN."""

import io
import warnings

import pytest

import drafti

from conftest import CORPUS, MASTER


def master_games(corpora):
    for name, variant in MASTER:
        yield name, variant, list(drafti.read_games(corpora / name, variant=variant))


def test_the_master_archives_read_whole(corpora):
    counts = {name: len(games) for name, _, games in master_games(corpora)}
    assert counts == {
        "russian-ussr-championship-x-153games.pdn": 153,
        "russian-abatsiev-ussr-events-56games.pdn": 56,
        "czech-championship-2007-102games.pdn": 102,
        "czech-team-championship-2007-72games.pdn": 72,
    }
    first = next(drafti.read_games(corpora / MASTER[0][0], variant="russian"))
    assert first.tags["White"] == "Блиндер Б." and first.result == "1-0"
    assert first.variant == "russian" and first.index == 1 and first.line == 1
    assert first.move_texts[:3] == ["c3-d4", "d6-e5", "b2-c3"]
    assert [str(m) for m in first.moves[:3]] == ["c3-d4", "d6-e5", "b2-c3"]


@pytest.mark.parametrize("notation", [None, "algebraic", "numeric"])
def test_real_archives_round_trip_through_pdn(corpora, notation):
    for name, variant, games in master_games(corpora):
        for g in games:
            if notation is not None and g.plies != len(g.move_texts):
                continue  # cut short by an error: only written as read
            back = drafti.Game.from_pdn(g.to_pdn(notation), variant=variant)
            assert back.moves == g.moves, (name, g.index)
            assert back.tags == g.tags, (name, g.index)
            assert back.result == g.result and back.status == g.status, (name, g.index)
            assert [p.kind for p in back.errors] == [p.kind for p in g.errors], (name, g.index)


def test_the_bundled_corpus_round_trips_through_write_games(tmp_path):
    games = list(drafti.read_games(CORPUS / "selfplay.pdn"))
    assert len(games) == 2000 and all(g.is_valid for g in games)
    out = tmp_path / "copy.pdn"
    assert drafti.write_games(games, out) == 2000
    again = list(drafti.read_games(out))
    assert [g.moves for g in again] == [g.moves for g in games]
    assert [g.tags for g in again] == [g.tags for g in games]
    # Into a text file object and a binary one.
    text, binary = io.StringIO(), io.BytesIO()
    drafti.write_games(games[:5], text, notation="numeric")
    drafti.write_games(games[:5], binary, notation="numeric")
    assert text.getvalue().encode() == binary.getvalue()
    assert [g.moves for g in drafti.read_games(io.StringIO(text.getvalue()))] == [g.moves for g in games[:5]]


def test_file_objects_read_like_paths(corpora):
    path = corpora / MASTER[3][0]
    by_path = [g.to_dict() for g in drafti.read_games(path, variant="czech")]
    with open(path, "rb") as f:
        by_binary = [g.to_dict() for g in drafti.read_games(f, variant="czech")]
    with open(path, encoding="utf-8", newline="") as f:
        by_text = [g.to_dict() for g in drafti.read_games(f, variant="czech")]
    assert by_path == by_binary == by_text
    # A list of inputs, read in order.
    both = list(drafti.read_games([CORPUS / "showcase.pdn", path], variant="czech"))
    assert [g.file for g in both[:1]] == [str(CORPUS / "showcase.pdn")]
    assert len(both) == 4 + 72


def test_order_and_content_do_not_depend_on_the_threads():
    one = [g.to_dict() for g in drafti.read_games(CORPUS / "selfplay.pdn", jobs=1)]
    two = [g.to_dict() for g in drafti.read_games(CORPUS / "selfplay.pdn", jobs=2)]
    assert one == two
    assert [d["index"] for d in one] == list(range(1, 2001))


def test_a_reader_can_stop_early():
    reader = drafti.read_games(CORPUS / "selfplay.pdn")
    with reader:
        first = next(reader)
    assert first.index == 1
    assert list(reader) == []


def test_invalid_games_carry_every_problem_with_its_place():
    text = (
        '[Event "club"]\n[White "Asha"]\n[Black "Baraka"]\n[Result "1-0"]\n'
        "1. c3-d4 f6-e5 2. d4xf6 g7xe5 3. c3-b2 *\n"
    )
    g = drafti.Game.from_pdn(text)
    assert g.status == "invalid" and not g.is_valid
    assert g.plies == 4 and len(g.move_texts) == 5
    err = g.errors[0]
    assert (err.kind, err.line, err.column, err.ply, err.move) == ("illegal_move", 5, 34, 5, "c3-b2")
    assert err.severity == "error" and "White to move" in err.message
    assert err.fen == g.end().fen() and "e3-d4" in err.legal
    kinds = [p.kind for p in g.problems]
    assert "result_mismatch" in kinds
    assert g.end().move_stack == g.moves and len(g.positions()) == 5


def test_text_between_games_is_a_game_without_tags():
    text = "1. c3-d4 d6-e5 *\n\n}}} garbage {\n\n1. c3-b4 *\n"
    games = list(drafti.read_games(io.StringIO(text)))
    assert [g.status for g in games] == ["valid", "invalid", "valid"]
    assert games[1].tags == {} and games[1].moves == [] and games[1].errors[0].kind == "syntax"


def test_a_legacy_encoding_is_decoded_with_a_warning():
    with pytest.warns(UserWarning, match="not UTF-8; read as"):
        games = list(drafti.read_games(CORPUS / "bad" / "latin1.pdn"))
    assert any("é" in v or "ü" in v or "ñ" in v for g in games for v in g.tags.values())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        forced = list(drafti.read_games(CORPUS / "bad" / "latin1.pdn", encoding="latin1"))
    assert [g.tags for g in forced] == [g.tags for g in games]


def test_a_game_from_a_position():
    pos = drafti.Position()
    for text in ["c3-d4", "f6-e5", "d4xf6", "g7xe5"]:
        pos.push(text)
    g = drafti.Game.from_position(pos, tags={"Event": "club", "White": "Asha"})
    assert g.is_valid and g.moves == pos.move_stack
    assert g.tags["Event"] == "club" and g.tags["Variant"] == "Tanzanian" and g.result == "*"
    assert g.to_pdn().endswith("1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n")
    assert drafti.Game.from_position(pos, numeric=True).move_texts == ["22-18", "11-15", "18x11", "8x15"]
    # A Black start and a set-up position keep their FEN.
    black = drafti.Position.start(turn="black")
    black.push("f6-e5")
    assert drafti.Game.from_position(black).first_mover == "black"
    won = drafti.Position("W:Wc3:Bd4")
    won.push("c3xe5")
    g = drafti.Game.from_position(won)
    assert g.result == "1-0" and g.tags["FEN"] == "W:W22:B18" and g.is_valid
