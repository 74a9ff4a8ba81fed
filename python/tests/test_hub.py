"""The Hub client (`drafti.hub`) drives Hub engines as python-chess drives UCI engines: the
package's own engine (`python -m drafti.hub`) and the `drafti hub` binary, with each depth's
information streamed as the engine sends it."""

import sys

import pytest

import drafti
import drafti.hub
from drafti import Position
from drafti.hub import EngineError, HubEngine, Limit

OWN = [sys.executable, "-m", "drafti.hub"]


@pytest.fixture()
def engine():
    with HubEngine.popen(OWN) as e:
        yield e


def test_the_engine_declares_itself(engine):
    assert engine.id["name"] == "drafti"
    assert engine.options["variant"].values == ["tz", "czech", "russian", "tzdraft"]
    assert engine.options["hash"].type == "int" and engine.options["hash"].max == 16384


def test_play_finds_the_shot_the_engine_finds_in_process(engine):
    pos = Position("W:Wc3,e3:Bd6,f6")
    result = engine.play(pos, Limit(depth=8))
    assert result.move == drafti.Engine().search(pos, depth=8).best
    assert result.info["depth"] == 8 and isinstance(result.info["score"], drafti.Score)
    assert result.info["pv"][0] == result.move


def test_the_game_s_moves_are_sent_with_the_position(engine):
    engine.configure({"variant": "russian", "hash": 16})
    pos = Position(variant="russian")
    for text in ["c3-d4", "f6-e5"]:
        pos.push(text)
    result = engine.play(pos, Limit(nodes=3000))
    assert result.move in pos.legal_moves
    # The same search in process (the moves played are the engine's history too).
    mine = drafti.Engine("russian").search(pos, nodes=3000)
    assert result.move == mine.best and result.info["score"] == mine.score


def test_analysis_streams_each_depth(engine):
    pos = Position()
    depths = []
    with engine.analysis(pos, Limit(depth=9)) as analysis:
        for info in analysis:
            depths.append(info["depth"])
            assert info["pv"] and info["pv"][0] in pos.legal_moves
    assert depths == list(range(1, 10))
    assert analysis.best in pos.legal_moves
    # An analysis without a limit runs until stopped.
    running = engine.analysis(pos)
    first = next(running)
    running.stop()
    assert first["depth"] == 1 and running.best in pos.legal_moves
    assert engine.analyse(pos, Limit(depth=4))["depth"] == 4


def test_errors_and_the_end_of_the_engine(engine):
    with pytest.raises(EngineError, match="the engine says"):
        engine.configure({"hash": 0})
    # A finished game: the engine answers `done` without a move.
    finished = Position("W:Wa3:Bb4,c5")
    assert engine.play(finished, Limit(depth=2)).move is None
    engine.quit()
    with pytest.raises(drafti.hub.EngineTerminatedError):
        engine.ping()


def test_the_drafti_binary_too(drafti_bin):
    with HubEngine.popen([str(drafti_bin), "hub", "--no-egtb"]) as binary:
        pos = Position("W:Wc3,e3:Bd6,f6")
        assert binary.play(pos, Limit(depth=8)).move == drafti.Engine().search(pos, depth=8).best


def test_messages_read_and_write():
    assert drafti.hub.parse_message('pos pos=Wee moves="22-18 9-13" flag') == (
        "pos",
        {"pos": "Wee", "moves": "22-18 9-13", "flag": None},
    )
    assert drafti.hub.write_message("pos", {"pos": "We", "moves": "22-18 9-13"}) == 'pos pos=We moves="22-18 9-13"'
    assert drafti.hub.Limit(white_clock=60, white_inc=1).level("white") == {"time": "60", "inc": "1"}
