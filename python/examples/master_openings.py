# %% [markdown]
# # Opening statistics of the master archives, and a blunder table
#
# A notebook-style script (cells marked `# %%`: open it in Jupyter with jupytext, in VS Code,
# or run it whole with `python3 python/examples/master_openings.py [CORPORA]`). It reads the
# four master archives of `../shared/corpora` (Russian and Czech championship games), checks
# them, classifies their openings, and has the engine look for blunders, all into pandas.

# %%
import sys
from pathlib import Path

import pandas as pd

import drafti

REPO = Path(__file__).resolve().parents[2] if "__file__" in globals() else Path.cwd()
CORPORA = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "corpora"
ARCHIVES = {
    "russian": sorted(CORPORA.glob("russian-*.pdn")),
    "czech": sorted(CORPORA.glob("czech-*.pdn")),
}
pd.set_option("display.width", 120)
pd.set_option("display.max_columns", 12)

# %% [markdown]
# ## 1. Are the archives sound?
# None of the files names its rules (no `GameType` tag), so each is read under its own.

# %%
checked = pd.concat(
    [drafti.validate(paths, variant=variant).to_pandas() for variant, paths in ARCHIVES.items()],
    ignore_index=True,
)
checked["archive"] = checked["file"].map(lambda f: Path(f).name)
print(checked.groupby("archive").agg(games=("index", "size"), valid=("valid", "sum"), plies=("plies", "mean")).round(1))

# %% [markdown]
# ## 2. Opening statistics
# Each game is classified by the deepest position of drafti's opening book it reaches in its
# first 40 plies (keyed by position, so transpositions count together); `score_pct` is the
# first mover's score. The `tree` rows are the move tree of the first four plies.

# %%
frames = []
for variant, paths in ARCHIVES.items():
    table = drafti.openings(paths, variant=variant, plies=4).to_pandas()
    table.insert(0, "variant", variant)
    frames.append(table)
stats = pd.concat(frames, ignore_index=True)
openings = stats[stats["kind"] == "opening"].sort_values("games", ascending=False)
print(openings[["variant", "code", "name", "games", "white_wins", "draws", "black_wins", "score_pct"]].head(12).to_string(index=False))

# %%
tree = stats[(stats["kind"] == "tree") & (stats["depth"] == 2)].sort_values("games", ascending=False)
print(tree[["variant", "moves", "games", "score_pct", "avg_plies"]].head(10).to_string(index=False))

# %% [markdown]
# The same with DuckDB, straight from the DataFrame (if it is installed):

# %%
try:
    import duckdb
except ImportError:
    duckdb = None
if duckdb is not None:
    print(
        duckdb.sql(
            "select variant, count(*) as openings, sum(games) as games, "
            "round(sum(first_mover_wins) * 100.0 / sum(games), 1) as first_mover_win_pct "
            "from stats where kind = 'opening' group by variant order by variant"
        )
    )

# %% [markdown]
# ## 3. A blunder table
# The engine searches every position of the Russian championship games (a quick pass of
# 2,000 nodes per position, moves that look like mistakes re-searched deeper) and judges
# every move. `moves()` is one row per move; the blunders are the moves that threw away a
# win or the game.

# %%
analysis = drafti.analyze(ARCHIVES["russian"][-1:], variant="russian", nodes=2000, confirm=False)
games = analysis.to_pandas()
print(games[["white", "black", "result", "plies", "white_accuracy", "black_accuracy", "white_blunders", "black_blunders"]].head(8).to_string(index=False))

# %%
moves = analysis.moves().to_pandas()
blunders = moves[moves["judgement"] == "blunder"]
print(
    blunders[["index", "white", "black", "move_number", "move", "best", "win_before", "win_after"]]
    .sort_values("win_before", ascending=False)
    .head(15)
    .to_string(index=False)
)
print(f"\n{len(blunders)} blunders in {len(games)} games ({len(moves)} moves)")

# %% [markdown]
# ## 4. One blunder on the board
# The position before the worst blunder, and what the engine plays there.

# %%
if len(blunders):
    worst = blunders.sort_values("win_before", ascending=False).iloc[0]
    game = [g for g in drafti.read_games(worst["file"], variant="russian") if g.index == worst["index"]][0]
    before = game.positions()[worst["ply"] - 1]
    print(before)
    print("played", worst["move"], "- best", worst["best"], "- line", " ".join(worst["pv"]))
    result = drafti.Engine("russian").search(before, nodes=200_000)
    print("the engine, 200,000 nodes:", before.notation(result.best), result.score)
