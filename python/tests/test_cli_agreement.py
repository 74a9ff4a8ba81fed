"""The jobs' rows are the command line's JSON objects: the same input and settings give the
same rows as `drafti validate|analyze|openings|puzzles --json`."""

import json

import pytest

import drafti

from conftest import CORPUS, MASTER, PUZZLE_GAMES, run_cli


def cli_lines(drafti_bin, cli_env, *args, ok=(0, 1)):
    out = run_cli(drafti_bin, cli_env, *args)
    assert out.returncode in ok, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


@pytest.mark.parametrize("name,variant", MASTER)
def test_validate_agrees_with_the_cli_on_the_master_archives(drafti_bin, cli_env, corpora, name, variant):
    path = str(corpora / name)
    cli = cli_lines(drafti_bin, cli_env, "validate", "--json", "--variant", variant, path)
    rows = drafti.validate(path, variant=variant)
    assert list(rows) == cli
    assert len(rows) == int(name.split("-")[-1].replace("games.pdn", ""))
    # read_games says the same, game by game.
    assert [g.to_dict() for g in drafti.read_games(path, variant=variant)] == cli


def test_validate_agrees_with_the_cli_on_the_master_archives_under_their_tags(drafti_bin, cli_env, corpora):
    # Without --variant the untagged Russian archive is read as Tanzanian: invalid games,
    # the same errors on both sides.
    paths = [str(corpora / name) for name, _ in MASTER]
    cli = cli_lines(drafti_bin, cli_env, "validate", "--json", *paths)
    rows = drafti.validate(paths, jobs=2)
    assert list(rows) == cli and rows.invalid > 0


def test_validate_agrees_with_the_cli_on_the_bundled_corpus_and_bad_records(drafti_bin, cli_env):
    paths = [str(CORPUS / "selfplay.pdn"), str(CORPUS / "showcase.pdn")]
    paths += sorted(str(p) for p in (CORPUS / "bad").glob("*.pdn") if p.name != "binary-bytes.pdn")
    cli = cli_lines(drafti_bin, cli_env, "validate", "--json", *paths)
    with pytest.warns(UserWarning, match="latin1.pdn: not UTF-8"):
        rows = drafti.validate(paths)
    assert list(rows) == cli
    assert rows.invalid > 10 and len(rows.problems()) > 10


def test_analyze_agrees_with_the_cli(drafti_bin, cli_env, corpora):
    flags = ["--depth", "3", "--verify-depth", "4", "--confirm-depth", "5", "--jobs", "2"]
    paths = [str(CORPUS / "showcase.pdn")]
    cli = cli_lines(drafti_bin, cli_env, "analyze", "--json", *flags, *paths)
    rows = drafti.analyze(paths, depth=3, verify_depth=4, confirm_depth=5, jobs=2)
    assert list(rows) == cli
    assert rows.run["engine"] == drafti.ENGINE
    assert len(rows.moves()) == sum(r["plies"] for r in cli if r["status"] == "analysed")
    # The table of moves is `analyze --json-moves`'s rows: the same columns (a score's fields
    # named after it, `score_before_cp`, …) and values, the line as a list.
    flat = cli_lines(drafti_bin, cli_env, "analyze", "--json-moves", *flags, *paths)
    moves = rows.moves().records
    assert len(moves) == len(flat)
    for mine, theirs in zip(moves, flat):
        theirs["pv"] = theirs["pv"].split() if theirs["pv"] else []
        # The package's own columns beside the command line's: `move_number` an int (8 for
        # `8.` and `8...`), `player`, the scores from White's side.
        assert mine["move_number"] == int(theirs.pop("move_number").rstrip("."))
        assert set(theirs) < set(mine)
        assert {k: v for k, v in mine.items() if k in theirs} == theirs


def test_a_preset_is_the_clis(drafti_bin, cli_env):
    paths = [str(CORPUS / "showcase.pdn")]
    cli = cli_lines(drafti_bin, cli_env, "analyze", "--json", "--preset", "fast", "--depth", "3", *paths)
    rows = drafti.analyze(paths, preset="fast", depth=3)
    assert list(rows) == cli
    assert cli[0]["search"].startswith("depth 3; moves with a pass drop of 0.05 re-searched to depth 8")
    with pytest.raises(ValueError, match="unknown preset 'slow'"):
        drafti.analyze(paths, preset="slow")


def test_analyze_agrees_with_the_cli_on_a_master_game_without_verification(drafti_bin, cli_env, corpora):
    # The Czech 2007 championship with the pass alone, on one thread and on two.
    path = str(corpora / MASTER[3][0])
    cli = cli_lines(drafti_bin, cli_env, "analyze", "--json", "--variant", "czech", "--nodes", "300", "--no-verify", path)
    rows = drafti.analyze(path, variant="czech", nodes=300, verify=False, jobs=1)
    assert list(rows) == cli


def test_openings_agree_with_the_cli(drafti_bin, cli_env, corpora):
    # The Russian archive has no variant tag: the command line refuses to guess (the package
    # warns), so both are told to read every game as Tanzanian.
    paths = [str(CORPUS / "selfplay.pdn"), str(corpora / MASTER[0][0])]
    tz = ("--variant", "tz")
    cli = cli_lines(drafti_bin, cli_env, "openings", "--json", *tz, "--plies", "6", "--min-games", "2", *paths)
    assert cli[-1]["kind"] == "end"  # the closing line, not a row
    rows = drafti.openings(paths, plies=6, min_games=2, variant="tz")
    assert list(rows) == cli[:-1]
    per_game = cli_lines(drafti_bin, cli_env, "openings", "--json", *tz, "--per-game", *paths)
    assert list(drafti.openings(paths, per_game=True, variant="tz")) == per_game


def test_puzzles_agree_with_the_cli(drafti_bin, cli_env):
    path = str(PUZZLE_GAMES)
    cli = cli_lines(drafti_bin, cli_env, "puzzles", "--json", "--no-egtb", "--nodes", "20000", path)
    assert cli, "the games hold puzzles"
    rows = drafti.puzzles(path, nodes=20000)
    assert list(rows) == cli


def test_explore_is_the_clis_json_as_a_dataframe(drafti_bin, cli_env, corpora, tmp_path):
    pytest.importorskip("pandas")
    index = str(tmp_path / "ru.idx")
    paths = [str(corpora / name) for name, variant in MASTER if variant == "russian"]
    out = run_cli(drafti_bin, cli_env, "index", "build", "--variant", "russian", *paths, "-o", index)
    assert out.returncode == 0, out.stderr
    cli = cli_lines(drafti_bin, cli_env, "explore", index, "--moves", "c3-d4 d6-c5 b2-c3 f6-g5", "--json", ok=(0,))
    frame = drafti.explore(index, moves="c3-d4 d6-c5 b2-c3 f6-g5")
    assert list(frame.columns) == list(cli[0].keys())
    # pandas shows a missing value (the position row's move) as NaN.
    missing = lambda v: v is None or (isinstance(v, float) and v != v)  # noqa: E731
    for column in ("kind", "move", "fen", "games", "white_wins", "draws", "black_wins", "game_list"):
        shown = [None if missing(v) else v for v in frame[column]]
        assert shown == [row[column] for row in cli], column
    assert frame["kind"][0] == "position" and frame["names"][0][0]["code"] == "GOR"
    with pytest.raises(ValueError, match="is not legal"):
        drafti.explore(index, moves="c3-d4 c3-d4")
