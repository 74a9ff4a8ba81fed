"""Shared fixtures: the repository, the real archives, and the drafti binary to compare with.

The real archives are the bundled corpus (``corpus/``) and the master games copied into
``tests/fixtures/corpora`` (their source and licence in the README there). The binary
is ``DRAFTI_BIN``, or ``target/ci/drafti`` / ``target/release/drafti`` brought up to date
with cargo (the build is a no-op after the README's test command has built the workspace).
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "corpus"
# Six Tanzanian games that hold puzzles (the engine's continuation after several of them
# captures, crowns or gives material); the showcase's four hand-annotated games hold none.
PUZZLE_GAMES = REPO / "tests" / "fixtures" / "puzzles" / "continuations.pdn"


CORPORA = REPO / "tests" / "fixtures" / "corpora"


@pytest.fixture(scope="session")
def corpora() -> Path:
    """The folder of the four master archives (two Russian, two Czech)."""
    return CORPORA


#: The master archives with the variant each is in (none has a GameType tag).
MASTER = [
    ("russian-ussr-championship-x-153games.pdn", "russian"),
    ("russian-abatsiev-ussr-events-56games.pdn", "russian"),
    ("czech-championship-2007-102games.pdn", "czech"),
    ("czech-team-championship-2007-72games.pdn", "czech"),
]


@pytest.fixture(scope="session")
def drafti_bin() -> Path:
    """The drafti binary of this checkout, up to date."""
    env = os.environ.get("DRAFTI_BIN")
    if env:
        return Path(env)
    # The profile the workspace was built with (the README's test command: ci).
    has = lambda p: (REPO / "target" / p / "drafti").exists()  # noqa: E731
    profile = "release" if has("release") and not has("ci") else "ci"
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.skip("cargo is not installed: cannot build the drafti binary to compare with")
    args = [cargo, "build", "--quiet", "-p", "drafti"]
    args += ["--release"] if profile == "release" else ["--profile", profile]
    subprocess.run(args, cwd=REPO, check=True)
    return REPO / "target" / profile / "drafti"


def pytest_configure(config):
    # The jobs warn when they find no endgame tables, as every test's empty cache has none;
    # the tests of that warning catch it with pytest.warns.
    config.addinivalue_line("filterwarnings", "ignore:analysing without endgame tables")


@pytest.fixture(scope="session", autouse=True)
def empty_cache(tmp_path_factory):
    """The package's jobs use the endgame tables of the default cache folder when given none:
    every test gets an empty folder of its own, never the user's ~/.cache. ``analyze`` builds
    none there on first use (``DRAFTI_FIRST_USE_TABLES=0``, as the Rust end-to-end tests run
    the binary): a test that wants them sets it again."""
    cache = tmp_path_factory.mktemp("cache")
    saved = {name: os.environ.get(name) for name in ("XDG_CACHE_HOME", "DRAFTI_FIRST_USE_TABLES")}
    os.environ["XDG_CACHE_HOME"] = str(cache)
    os.environ["DRAFTI_FIRST_USE_TABLES"] = "0"
    yield cache
    for name, before in saved.items():
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


@pytest.fixture(scope="session")
def cli_env(tmp_path_factory) -> dict:
    """The binary's environment: an empty HOME and cache, so no endgame tables built in
    ~/.cache/drafti/egtb change a result, and none built on first use (as the Rust
    end-to-end tests run it; the package's jobs get their own empty cache, `empty_cache`)."""
    home = tmp_path_factory.mktemp("home")
    env = dict(os.environ)
    env["HOME"] = str(home)
    env["XDG_CACHE_HOME"] = str(home / ".cache")
    env["DRAFTI_FIRST_USE_TABLES"] = "0"
    return env


def run_cli(drafti_bin: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(drafti_bin), *args], capture_output=True, text=True, env=env, cwd=REPO
    )
