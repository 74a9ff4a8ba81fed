"""Every rule of RULES.md (Tanzanian draughts, with its Czech and Russian relatives where they
differ), checked through the Python API: positions, legal moves, push, outcome and the draw
laws, and records read and validated."""

import pytest

import drafti
from drafti import Position

VARIANTS = drafti.VARIANTS


def moves(fen, variant="tz"):
    """The legal moves as full paths, sorted."""
    return sorted(m.notation() for m in Position(fen, variant).legal_moves())


def game(pdn, variant=None):
    return drafti.Game.from_pdn(pdn, variant=variant)


# Board and pieces ---------------------------------------------------------------------------


def test_start_position_and_square_numbering():
    pos = Position()
    assert pos.variant == "tz" and pos.turn == "white"
    pieces = pos.pieces()
    assert sorted(s for s, p in pieces.items() if p == "w") == list(range(21, 33))
    assert sorted(s for s, p in pieces.items() if p == "b") == list(range(1, 13))
    white_names = {drafti.square_name(s) for s, p in pieces.items() if p == "w"}
    assert white_names == {"a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3"}
    # 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1: left to right, top to bottom as White sees it.
    for number, name in [(1, "b8"), (4, "h8"), (5, "a7"), (29, "a1"), (30, "c1"), (32, "g1")]:
        assert drafti.square_name(number) == name
        assert drafti.parse_square(name) == number
    assert pos.fen() == "W:W21-32:B1-12"
    assert Position(pos.fen(algebraic=True)) == pos
    # The dark square in each player's near-left corner: a1 is dark, h1 is not a square.
    with pytest.raises(ValueError):
        drafti.parse_square("h1")


def test_either_player_may_start_a_tanzanian_game():
    black_first = Position.start("tz", turn="black")
    assert black_first.turn == "black"
    black_first.push("f6-e5")
    # A record without a FEN may begin with a Black move: the first mover is inferred.
    g = game("1... f6-e5 2. c3-d4 e5xc3 3. d2xb4 *")
    assert g.is_valid, g.problems
    assert g.first_mover == "black"
    assert g.board().turn == "black"
    # Russian and Czech: White always starts.
    for variant in ("russian", "czech"):
        g = game("1... f6-e5 2. c3-d4 *", variant=variant)
        assert not g.is_valid
        assert g.errors[0].kind == "illegal_move"


# Moves --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_men_move_one_square_forward(variant):
    assert moves("W:Wa1,c3,h2:Bh8", variant) == ["a1-b2", "c3-b4", "c3-d4", "h2-g3"]
    # Black's forward is down the board.
    assert moves("B:Wa1:Bd6,h8", variant) == ["d6-c5", "d6-e5", "h8-g7"]
    with pytest.raises(drafti.IllegalMoveError, match="only forward"):
        Position("W:Wc3:Bh8", variant).push("c3-b2")


@pytest.mark.parametrize("variant", VARIANTS)
def test_flying_king_moves_any_distance_over_empty_squares(variant):
    assert moves("W:WKd4,b6:Bh8", variant) == sorted(
        ["d4-c5", "d4-e5", "d4-f6", "d4-g7", "d4-e3", "d4-f2", "d4-g1", "d4-c3", "d4-b2", "d4-a1", "b6-a7", "b6-c7"]
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_man_reaching_the_far_row_is_crowned(variant):
    pos = Position("W:Wc7:Bf2", variant)
    mv = pos.push("c7-d8")
    assert mv.promotes
    assert pos.piece_at("d8") == "W"
    pos.push("f2-e1")
    assert pos.piece_at("e1") == "B"
    assert not Position("W:Wc5:Bf2", variant).parse_move("c5-d6").promotes


# Captures -----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_capture_is_compulsory(variant):
    assert moves("W:Wc3,g3,Kh2:Bd4", variant) == ["c3xe5"]
    pos = Position("W:Wc3,g3,Kh2:Bd4", variant)
    assert pos.has_capture()
    with pytest.raises(drafti.IllegalMoveError, match="a capture is compulsory"):
        pos.push("g3-f4")
    assert not pos.is_legal("g3-f4")


def test_men_capture_forward_only_in_tanzanian_and_czech():
    assert moves("W:Wd4:Bc3,e3", "tz") == ["d4-c5", "d4-e5"]
    assert moves("W:Wd4:Bc3,e3", "czech") == ["d4-c5", "d4-e5"]
    assert moves("W:Wd4:Bc3,e3", "russian") == ["d4xb2", "d4xf2"]
    with pytest.raises(drafti.IllegalMoveError, match="men capture forward only"):
        Position("W:Wd4:Bc3,e3").push("d4xb2")


@pytest.mark.parametrize("variant", VARIANTS)
def test_men_capture_kings(variant):
    assert moves("W:Wc3:BKd4", variant) == ["c3xe5"]
    assert moves("B:WKd4:Be5", variant) == ["e5xc3"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_king_captures_at_a_distance_landing_on_any_empty_square_beyond(variant):
    assert moves("W:WKa1,g7:Bd4", variant) == ["a1xe5", "a1xf6"]
    assert moves("W:WKa1:Bd4", variant) == ["a1xe5", "a1xf6", "a1xg7", "a1xh8"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_capture_continues_across_crossing_diagonals(variant):
    assert moves("W:Wc3:Bd4,d6", variant) == ["c3xe5xc7"]
    mv = Position("W:Wc3:Bd4,d6", variant).parse_move("c3xc7")
    assert mv.path == [22, 15, 6] and sorted(mv.captured) == [10, 18]
    assert moves("W:WKa1:Bc3,f2", variant) == ["a1xd4xg1"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_king_must_land_where_it_can_capture_again(variant):
    assert moves("W:WKa1:Bd4,e7", variant) == ["a1xf6xd8"]
    with pytest.raises(drafti.IllegalMoveError, match="illegal move a1xe5"):
        Position("W:WKa1:Bd4,e7", variant).push("a1xe5")
    # A capture written to a square where it cannot stop: the message says it goes on.
    with pytest.raises(drafti.IllegalMoveError, match="the capture must continue: a1xf6xd8"):
        Position("W:WKa1:Bd4,e7", variant).push("a1xf6")


@pytest.mark.parametrize("variant", VARIANTS)
def test_captured_pieces_stay_until_the_move_ends_and_none_is_jumped_twice(variant):
    # The Turkish strike: e3, taken first, still blocks the line from c5 to f2.
    assert moves("W:WKc1:Bd6,e3,e5,f2,f6", variant) == ["c1xg5xe7xa3", "c1xg5xe7xb4", "c1xg5xe7xc5"]
    pos = Position("W:WKc1:Bd6,e3,e5,f2,f6", variant)
    pos.push("c1xg5xe7xc5")
    assert pos.piece_at("f2") == "b" and pos.piece_at("e3") is None
    assert moves("W:WKc1:Bd6,e3,e5,f6", variant) == ["c1xg5xe7xa3", "c1xg5xe7xb4", "c1xg5xe7xc5"]


def test_no_priority_rule_in_tanzanian_king_priority_in_czech():
    # A 1-piece and a 3-piece capture are both legal.
    for variant in VARIANTS:
        assert moves("W:Wa3,c1:Bb4,d2,f4,f6", variant) == ["a3xc5", "c1xe3xg5xe7"]
    # A man may capture while a king could, except in Czech draughts.
    both = ["a3xc5", "h2xb8", "h2xc7", "h2xd6"]
    assert moves("W:Wa3,Kh2:Bb4,e5", "tz") == both
    assert moves("W:Wa3,Kh2:Bb4,e5", "russian") == both
    assert moves("W:Wa3,Kh2:Bb4,e5", "czech") == ["h2xb8", "h2xc7", "h2xd6"]
    with pytest.raises(drafti.IllegalMoveError, match="king-priority"):
        Position("W:Wa3,Kh2:Bb4,e5", "czech").push("a3xc5")


def test_a_man_crowned_during_a_capture_stops_there_except_in_russian():
    for variant in ("tz", "czech"):
        pos = Position("W:Wf6:Be7,b6", variant)
        assert moves("W:Wf6:Be7,b6", variant) == ["f6xd8"]
        pos.push("f6xd8")
        assert pos.piece_at("d8") == "W" and pos.piece_at("b6") == "b"
    pos = Position("W:Wf6:Be7,b6", "russian")
    assert moves("W:Wf6:Be7,b6", "russian") == ["f6xd8xa5"]
    pos.push("f6xa5")
    assert pos.piece_at("a5") == "W" and pos.pieces() == {drafti.parse_square("a5"): "W"}


@pytest.mark.parametrize("variant", VARIANTS)
def test_duplicate_capture_routes_are_one_move(variant):
    pos = Position("W:WKc3:Bb4,b6,d4,d6", variant)
    assert len(pos.legal_moves()) == 5
    assert pos.perft(1) == 5
    back = [m for m in pos.legal_moves() if m.to_square == m.from_square]
    assert len(back) == 1 and len(back[0].captured) == 4


def test_two_routes_taking_different_pieces_are_two_moves_written_with_their_path():
    pos = Position("W:Wc3:Bb4,b6,d4,d6")
    assert sorted(pos.notation(m) for m in pos.legal_moves()) == ["c3xa5xc7", "c3xe5xc7"]
    with pytest.raises(drafti.AmbiguousMoveError, match="write every landing square"):
        pos.parse_move("c3xc7")
    assert pos.parse_move("c3xe5xc7").captured == [18, 10]


# End of the game ----------------------------------------------------------------------------


def test_a_side_without_a_legal_move_loses():
    for variant in VARIANTS:
        pos = Position("W:Wa3:Bb4,c5", variant)
        assert pos.legal_moves() == [] and pos.is_game_over()
        assert pos.outcome().winner == "black" and pos.outcome().result == "0-1"
    assert Position("B:Wc3:B").outcome().winner == "white"
    pos = Position("W:Wc3:Bd4")
    assert pos.outcome() is None
    pos.push("c3xe5")
    assert pos.outcome().winner == "white"
    # Blocked forward, with a backward capture only Russian men may make.
    assert Position("W:Wb4:Ba5,c3,c5,d6", "tz").is_game_over()
    assert Position("W:Wb4:Ba5,c3,c5,d6", "czech").is_game_over()
    assert not Position("W:Wb4:Ba5,c3,c5,d6", "russian").is_game_over()


def test_draw_law_1_only_kings_at_most_two_each():
    for fen in ["W:WKa1:BKh8", "W:WKa1,Kc1:BKh8", "B:WKa1:BKh8,Kf8", "W:WKa1,Kc1:BKh8,Kf8"]:
        outcome = Position(fen).outcome()
        assert outcome.is_draw and outcome.draw_law == "few_kings" and outcome.result == "1/2-1/2"
        for variant in ("czech", "russian"):
            assert Position(fen, variant).outcome() is None
    for fen in ["W:WKa1,c3:BKh8", "W:WKa1,Kc1,Ke1:BKh8,Kf8"]:
        assert Position(fen).outcome() is None


def test_draw_law_2_three_kings_off_the_main_diagonal_is_drawn_at_once():
    assert Position("W:WKa3,Kc1,Ke1:BKh6").outcome().draw_law == "three_kings_off_main_diagonal"
    assert Position("W:WKa3,Kc1,Ke1:BKh6", "czech").outcome() is None
    # Arising by a capture.
    pos = Position("W:WKa3,Kc1,Ke1:Bd6,Kh6")
    assert pos.outcome() is None
    pos.push("a3xe7")
    assert pos.outcome().draw_law == "three_kings_off_main_diagonal"


ROUTE = ["a3-b4", "h4-g3", "b4-a3", "g3-h4"]


def test_draw_law_2_the_lone_king_counts_twelve_moves():
    pos = Position("W:WKa1,Kc1,Ka3:BKh4")
    assert pos.king_count == 0 and pos.king_count_limit == 12
    for ply in range(24):
        assert pos.outcome() is None, ply
        pos.push(ROUTE[ply % 4])
        assert pos.king_count == (ply + 1) // 2
    assert pos.outcome().draw_law == "king_count_reached"
    with pytest.raises(drafti.IllegalMoveError, match="after the game ended"):
        pos.push(ROUTE[0])
    # pop takes the count back.
    pos.pop()
    assert pos.outcome() is None and pos.king_count == 11
    # An agreed count of 3.
    pos = Position("W:WKa1,Kc1,Ka3:BKh4", king_count_limit=3)
    for ply in range(6):
        pos.push(ROUTE[ply % 4])
    assert pos.outcome().draw_law == "king_count_reached"
    # Czech and Russian have no such law.
    pos = Position("W:WKa1,Kc1,Ka3:BKh4", "russian")
    for ply in range(40):
        pos.push(ROUTE[ply % 4])
    assert pos.outcome() is None


def test_draw_law_3_a_draw_claim_is_accepted_but_not_required():
    # Two kings and a man against a king, the main diagonal held by the stronger side.
    fen = "W:WKa1,Kc1,e3:BKh4"
    for result in ("1/2-1/2", "*"):
        g = game(f'[FEN "{fen}"]\n1. e3-f4 h4-g3 {result}')
        assert g.is_valid, g.problems
    assert Position(fen).outcome() is None


def test_a_move_after_a_draw_law_ended_the_game_is_an_error():
    g = game('[FEN "W:WKa1,Kc1:BKh8,Kf8"]\n1. a1-b2 *')
    assert [p.kind for p in g.errors] == ["move_after_end"]
    assert "draw law 1" in g.errors[0].message


def test_repetition_is_never_adjudicated_by_the_validator():
    # Kings going back and forth: the same position five times, no error, no outcome.
    cycle = " ".join(f"{2 * n - 1}. a1-b2 h8-g7 {2 * n}. b2-a1 g7-h8" for n in range(1, 5))
    text = '[FEN "W:WKa1,c3:BKh8,f6"]\n' + cycle + " *"
    g = game(text)
    assert g.is_valid, g.problems
    assert g.plies == 16
    assert g.end().outcome() is None
    assert len({p.zobrist_hash() for p in g.positions()}) == 4


# Notation and records -----------------------------------------------------------------------


def test_moves_read_and_written_in_both_notations():
    pos = Position()
    assert pos.parse_move("22-18") == pos.parse_move("c3-d4") == pos.parse_move("c3d4")
    mv = pos.parse_move("c3-d4")
    assert pos.notation(mv) == "c3-d4" and pos.notation(mv, numeric=True) == "22-18"
    pos = Position("W:Wc3:Bd4,f6")
    mv = pos.parse_move("c3xg7")
    assert pos.parse_move("22x15x8") == pos.parse_move("c3:e5:g7") == mv
    assert pos.notation(mv) == "c3xg7" and mv.notation(numeric=True) == "22x15x8"


def test_variant_tags_select_the_rules():
    backward = '[FEN "W:Wd4:Bc3,e3"]\n1. d4xb2 *'
    assert not game(backward).is_valid
    assert game('[GameType "25"]\n' + backward).is_valid
    assert game('[GameType "25,W,8,8,A0,0"]\n' + backward).variant == "russian"
    assert not game('[GameType "TZ"]\n' + backward).is_valid
    assert game('[Variant "Tanzanian"]\n' + backward).variant == "tz"
    assert game('[GameType "29"]\n1. c3-d4 *').variant == "czech"
    unknown = game('[GameType "20"]\n1. c3-d4 *')
    assert unknown.variant is None and unknown.errors[0].kind == "unknown_variant"
