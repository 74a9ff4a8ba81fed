"""Bad input raises drafti's typed exceptions with the command line's messages, and nothing
a caller passes makes the Rust code panic into Python; memory stays flat on a big archive."""

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import drafti
from drafti import Position

from conftest import CORPUS, run_cli


def cli_error(drafti_bin, cli_env, *args):
    out = run_cli(drafti_bin, cli_env, *args)
    assert out.returncode == 2, out
    line = out.stderr.strip().splitlines()[-1]
    assert line.startswith("drafti: ")
    return line[len("drafti: ") :]


def test_bad_files_raise_pdn_error_with_the_cli_message(drafti_bin, cli_env, tmp_path):
    png = tmp_path / "board.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    noise = tmp_path / "noise.pdn"
    noise.write_bytes(bytes(random.Random(7).randrange(0, 32) for _ in range(20000)))
    utf16 = tmp_path / "utf16.pdn"
    utf16.write_bytes('[Event "x"]\n1. c3-d4 *\n'.encode("utf-16"))
    for bad in [tmp_path / "missing.pdn", tmp_path, png, noise, utf16]:
        message = cli_error(drafti_bin, cli_env, "validate", str(bad))
        for call in (drafti.read_games, drafti.validate, drafti.openings):
            with pytest.raises(drafti.PdnError) as raised:
                call(str(bad))
            assert str(raised.value) == message
    assert "no such file" in message or "not a text file" in message


def test_binary_file_objects_are_refused_too():
    import io

    with pytest.raises(drafti.PdnError, match="not a text file \\(gzip data\\)"):
        drafti.read_games(io.BytesIO(b"\x1f\x8b\x08\x00" + b"\x00" * 100))
    with pytest.raises(TypeError):
        drafti.read_games(12345)
    with pytest.raises(TypeError):
        drafti.read_games(b"1. c3-d4 *")


def test_bad_fens_raise_fen_error_with_the_cli_message(drafti_bin, cli_env):
    for fen in ["", "W", "X:W1:B2", "W:W33:B1", "W:W1,1:B2", "W:W1-32:B1", "W:Wi9:B1", "W:W5:B" + ",".join(["1"] * 5000)]:
        with pytest.raises(drafti.FenError) as raised:
            Position(fen)
        assert isinstance(raised.value, ValueError)
        if fen:
            # clap words it: error: invalid value 'FEN' for '--fen <FEN>': MESSAGE
            out = run_cli(drafti_bin, cli_env, "moves", "--fen", fen)
            assert out.returncode == 2
            assert out.stderr.splitlines()[0].endswith(": " + str(raised.value))


def test_absurd_fens_and_moves_never_panic():
    rng = random.Random(29)
    alphabet = "WBK:,-x0123456789abcdefghijk \x00é" + "".join(map(chr, range(0x20, 0x7F)))
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 60)))
        try:
            pos = Position(text)
        except drafti.FenError:
            continue
        for m in pos.legal_moves()[:3]:
            pos.copy().push(m)
    pos = Position()
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))
        try:
            pos.parse_move(text)
        except drafti.IllegalMoveError:
            pass
    for text in ["", "c3-c3", "z9-a1", "1-" * 10000, "c3xe5x" * 1000, "\x00", "c3–d4", "33-29", "0-0"]:
        with pytest.raises(drafti.IllegalMoveError):
            pos.push(text)
    with pytest.raises(TypeError):
        pos.push(22)


def test_random_bytes_as_games_never_panic():
    rng = random.Random(5)
    # One game: Game.from_pdn refuses text with several.
    real = next(drafti.read_games(CORPUS / "showcase.pdn")).text.encode()
    for i in range(300):
        cut = bytearray(real)
        for _ in range(rng.randrange(1, 40)):
            cut[rng.randrange(len(cut))] = rng.randrange(256)
        try:
            g = drafti.Game.from_pdn(bytes(cut))
        except drafti.PdnError:
            continue
        g.to_dict()
        assert g.is_valid or g.errors
        try:
            drafti.Game.from_pdn(g.to_pdn())
        except drafti.PdnError:
            assert g.tags == {} and g.moves == []  # text that is no game: nothing to write


def test_a_huge_game_and_deep_variations_are_errors_not_crashes(tmp_path):
    deep = tmp_path / "deep.pdn"
    deep.write_text("1. c3-d4 " + "(" * 200000 + "d6-e5" + ")" * 200000 + " *\n1. c3-b4 *\n")
    games = list(drafti.read_games(deep))
    assert games[-1].is_valid and not games[0].is_valid
    huge = tmp_path / "huge.pdn"
    with open(huge, "w") as f:
        f.write('[Event "long"]\n')
        f.write("{" + "x" * (6 << 20) + "}\n1. c3-d4 *\n")
    games = list(drafti.read_games(huge))
    assert games and not games[0].is_valid
    assert any("size" in p.message or "long" in p.message or p.kind == "syntax" for p in games[0].errors)


def test_other_bad_arguments():
    with pytest.raises(drafti.VariantError, match="unknown variant 'chess'"):
        Position(variant="chess")
    with pytest.raises(ValueError):
        drafti.Engine().search(Position(), depth=0)
    with pytest.raises(ValueError):
        drafti.Engine().search(Position(), multipv=0)
    with pytest.raises(drafti.TablesError, match="no such file|No such file"):
        drafti.Tables("/nonexistent/tables")
    with pytest.raises(ValueError, match="unknown encoding"):
        drafti.validate(CORPUS / "showcase.pdn", encoding="klingon")
    with pytest.raises(drafti.TablesError, match="no endgame tables here"):
        drafti.analyze(CORPUS / "showcase.pdn", depth=1, tables=CORPUS)


def test_a_panic_is_an_internal_error_not_a_panic_exception():
    # The package's own check of its boundary: a panic raised inside the guard every call
    # runs in.
    with pytest.raises(drafti.InternalError, match="internal error in drafti.*boundary check"):
        drafti._drafti._check_panic_boundary("boundary check")


def test_memory_stays_flat_reading_a_big_archive():
    """Peak RSS of reading 5 and 25 copies of the bundled corpus (10,000 and 50,000 games):
    the larger read costs no more than a few MiB more (python/bench/memory.py reads 100
    copies, docs/performance.md has the figure)."""
    script = Path(__file__).resolve().parents[1] / "bench" / "memory.py"

    def peak(copies):
        out = subprocess.run([sys.executable, str(script), str(copies)], capture_output=True, text=True, check=True)
        fields = dict(f.split("=") for f in out.stdout.split())
        assert int(fields["games"]) == 2000 * copies and fields["invalid"] == "0"
        return float(fields["peak_rss_mb"])

    small, large = peak(5), peak(25)
    assert large - small < 40, (small, large)
    assert large < 200
