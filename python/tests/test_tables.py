"""The jobs' rows as tables: pandas DataFrames and Arrow tables with numbers as numbers, one
row per game (or move, problem, opening row, puzzle), that DuckDB queries directly."""

import pandas as pd
import pyarrow as pa
import pytest

import drafti

from conftest import CORPUS, MASTER, PUZZLE_GAMES


@pytest.fixture(scope="module")
def validation(corpora):
    return drafti.validate([str(corpora / name) for name, _ in MASTER[:2]], variant="russian")


@pytest.fixture(scope="module")
def analysis():
    return drafti.analyze(CORPUS / "showcase.pdn", depth=3, verify=False)


def test_validation_dataframe_dtypes(validation):
    df = validation.to_pandas()
    assert len(df) == 209
    expected = {
        "file": "string",
        "index": "int64",
        "line": "int64",
        "variant": "string",
        "plies": "int64",
        "result": "string",
        "status": "string",
        "valid": "bool",
        "errors": "int64",
        "warnings": "int64",
        "first_error": "string",
        "white": "string",
        "tags": "object",
    }
    for column, dtype in expected.items():
        assert str(df[column].dtype) == dtype, column
    assert df["plies"].sum() == sum(r["plies"] for r in validation)
    assert df.loc[0, "tags"]["White"] == "Блиндер Б." and df.loc[0, "white"] == "Блиндер Б."
    assert df["valid"].all()


def test_problems_table_has_one_row_per_problem():
    rows = drafti.validate(sorted((CORPUS / "bad").glob("*.pdn"))[2:6])
    problems = rows.problems().to_pandas()
    assert len(problems) == sum(len(r["errors"]) + len(r["warnings"]) for r in rows)
    assert str(problems["ply"].dtype) == "Int64" and str(problems["line"].dtype) == "int64"
    assert set(problems["severity"]) <= {"error", "warning"}


def test_analysis_tables(analysis):
    games = analysis.to_pandas()
    assert len(games) == 4
    assert str(games["white_accuracy"].dtype) == "float64"
    assert str(games["white_blunders"].dtype) == "Int64"
    assert str(games["nodes"].dtype) == "int64"
    moves = analysis.moves().to_pandas()
    assert len(moves) == games["plies"].sum()
    for column, dtype in {
        "ply": "int64",
        "score_before_cp": "Int64",
        "score_after_loss_in": "Int64",
        "score_before_text": "string",
        "win_before": "float64",
        "accuracy": "float64",
        "judgement": "string",
        "unsettled": "bool",
        "pv": "object",
    }.items():
        assert str(moves[column].dtype) == dtype, column
    blunders = analysis.blunders().to_pandas()
    assert (blunders["judgement"] == "blunder").all()
    assert len(blunders) == games["white_blunders"].sum() + games["black_blunders"].sum()


def test_arrow_tables_are_typed(validation, analysis):
    table = validation.to_arrow()
    assert table.num_rows == 209
    assert table.schema.field("index").type == pa.int64()
    assert table.schema.field("tags").type == pa.map_(pa.string(), pa.string())
    moves = analysis.moves().to_arrow()
    assert moves.schema.field("pv").type == pa.list_(pa.string())
    assert moves.schema.field("win_before").type == pa.float64()
    assert moves.column("score_before_cp").null_count > 0 or moves.column("score_before_win_in").null_count > 0


def test_openings_and_puzzle_tables():
    stats = drafti.openings(CORPUS / "selfplay.pdn").to_pandas()
    assert stats.loc[0, "kind"] == "all" and stats.loc[0, "games"] == 2000
    assert str(stats["games"].dtype) == "int64" and str(stats["score_pct"].dtype) == "float64"
    assert str(stats["tree_plies"].dtype) == "Int64"
    per_game = drafti.openings(CORPUS / "selfplay.pdn", per_game=True).to_pandas()
    assert len(per_game) == 2000 and str(per_game["ply"].dtype) == "Int64"
    puzzles = drafti.puzzles(PUZZLE_GAMES)
    table = puzzles.to_pandas()
    assert len(table) == len(puzzles) > 0
    assert str(table["difficulty"].dtype) == "int64" and str(table["score_cp"].dtype) == "Int64"
    assert (table["score_cp"].notna() | table["score_win_in"].notna()).all()


def test_duckdb_queries_the_tables_directly(validation, analysis):
    duckdb = pytest.importorskip("duckdb")
    df = validation.to_pandas()
    arrow = analysis.moves().to_arrow()
    results = duckdb.sql("select result, count(*) as n from df group by result order by n desc").fetchall()
    assert sum(n for _, n in results) == 209 and results[0][0] == "1/2-1/2"
    worst = duckdb.sql(
        "select side, count(*) from arrow where judgement = 'blunder' group by side order by side"
    ).fetchall()
    assert sum(n for _, n in worst) == len(analysis.blunders())
    white = duckdb.sql("select tags['White'] from df limit 1").fetchall()[0][0]
    assert "Блиндер" in str(white)


def test_rows_are_a_sequence_of_the_cli_objects(validation):
    assert isinstance(validation[0], dict) and validation[0]["index"] == 1
    assert isinstance(validation[:3], drafti.ValidationRows) and len(validation[:3]) == 3
    assert validation.valid == 209 and validation.invalid == 0
    assert isinstance(validation.table().records[0]["plies"], int)
