"""Shared fixtures: the repository's own project and small scratch projects."""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable, Iterator

import pytest

from pnp.load.content import Project
from pnp.tools.scaffold import scaffold
from game_plugins import link_plugins

REPO = Path(__file__).resolve().parent.parent


def docs_text(*names: str) -> str:
    """The user documentation as the tests check it: the named files (`"docs/security.md"`), or
    README.md and every guide in docs/ when none is named (a fact may move between them)."""
    paths = [REPO / name for name in names] or [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    return "\n".join(path.read_text(encoding="utf-8") for path in paths)


# The rule books (dietrick-taking-rules.txt, ...): ../shared/rules beside the checkout, or $PNP_RULE_BOOKS.
RULE_BOOKS = Path(os.environ.get("PNP_RULE_BOOKS", REPO.parent / "shared" / "rules"))


def copied_from_book(project: Project, game: str, book: str, options: dict[str, str] | None = None, run: int = 8) -> list[str]:
    """Runs of `run` words of the rule book `book` that a face of `game` prints, built with
    `options` (e.g. {"rules": "0.2.8"} for that version's book): the text read back from
    every rendered face (the printable scoring sheets included), so with every placeholder
    filled in (skipped when the book is not here). "Card/reference text is in our own
    words" is checked on this."""
    import re
    import xml.etree.ElementTree as ET

    from pnp.load.content import load_game
    from pnp.render.faces import render_game

    path = RULE_BOOKS / book
    if not path.is_file():
        pytest.skip(f"rule book {path} not here")

    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9']+", text.replace("\u2019", "'").lower())

    in_book = " ".join(words(path.read_text(encoding="utf-8")))
    copied = set()
    for component in render_game(load_game(project, game), dict(options or {}), 0.0):
        for face in component.faces:
            texts = ET.fromstring(face.svg).iter("{http://www.w3.org/2000/svg}text")
            ours = words(" ".join("".join(t.itertext()) for t in texts))
            copied |= {" ".join(ours[i:i + run]) for i in range(len(ours) - run + 1)} & _runs(in_book, run)
    return sorted(copied)


@functools.lru_cache(maxsize=None)
def _runs(text: str, run: int) -> frozenset[str]:
    """Every run of `run` consecutive words of `text` (words separated by single spaces)."""
    words = text.split()
    return frozenset(" ".join(words[i:i + run]) for i in range(len(words) - run + 1))


@pytest.fixture(scope="session", autouse=True)
def bytecode_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The session's temporary folder, for what pnp keeps there (Jinja's bytecode cache of
    templates and plugin code, pnp/bytecode.py), in this process and the commands it runs:
    the tests build hundreds of projects at new paths, and the user's own folder would keep
    an entry for every template and plugin module of each. It lies under pytest's own
    temporary root, which pytest clears of all but its last few sessions."""
    from pnp.bytecode import bytecode_cache

    folder = tmp_path_factory.mktemp("tmp")
    before = tempfile.tempdir, os.environ.get("TMPDIR")
    tempfile.tempdir, os.environ["TMPDIR"] = str(folder), str(folder)
    bytecode_cache.cache_clear()
    yield folder
    tempfile.tempdir = before[0]
    if before[1] is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = before[1]
    bytecode_cache.cache_clear()


@pytest.fixture(scope="session", autouse=True)
def seal_key(tmp_path_factory: pytest.TempPathFactory) -> Iterator[bytes]:
    """The session's config folder (what a module's fixture builds before a test's own
    folder is set: never the user's), and its key sealing build records and caches
    (pnp/load/seal.py), which every test's config folder holds too: one user, one key, so a
    build a module's fixture made is a build the tests' pnp made."""
    from pnp.load import seal

    folder = tmp_path_factory.mktemp("session-config")
    before = os.environ.get("XDG_CONFIG_HOME")
    os.environ["XDG_CONFIG_HOME"] = str(folder)
    seal.seal("", b"")  # makes the key
    yield seal.key_file().read_bytes()
    if before is None:
        os.environ.pop("XDG_CONFIG_HOME", None)
    else:
        os.environ["XDG_CONFIG_HOME"] = before


@pytest.fixture(autouse=True)
def trust_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, seal_key: bytes) -> Path:
    """Every test records trust in plugins (pnp/load/trust.py) in its own config folder,
    never the user's: a project is trusted only where a test trusts it."""
    folder = tmp_path_factory.mktemp("config")
    (folder / "pnp").mkdir(mode=0o700)
    key = folder / "pnp/seal.key"
    key.write_bytes(seal_key)
    key.chmod(0o600)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    monkeypatch.delenv("PNP_TRUST", raising=False)
    monkeypatch.setattr("pnp.load.trust.ALLOW_ALL", False)  # `pnp --trust` in a test before lasts one run
    return folder


@pytest.fixture
def trusted() -> Callable[[Project], Project]:
    """Trust a scratch project's plugins as they are now (`pnp trust`); returns the project."""
    from pnp.load.trust import trust

    def record(project: Project) -> Project:
        trust(project.root)
        return project

    return record


@pytest.fixture(scope="session")
def repo_project() -> Project:
    return Project(REPO)


SHIPPED_GAMES = ("tasty-humans", "cave", "dietrick-taking", "human-harvest")


@pytest.fixture(scope="session")
def shipped_builds(repo_project: Project, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Each shipped game built once (SVG faces only): its build report by game name."""
    from pnp.build.driver import BuildOptions, build

    out = tmp_path_factory.mktemp("shipped")
    return {r.game: r for r in build(repo_project, list(SHIPPED_GAMES), BuildOptions(formats=("svg",), out=out))}


@pytest.fixture
def demo(tmp_path: Path) -> Project:
    """A fresh project with one scaffolded game, `demo` (3 copies of one card, shared back)."""
    project = Project(tmp_path / "proj")
    scaffold(project, "demo")
    return project


@pytest.fixture
def copy_game(tmp_path: Path) -> Callable[[str], Project]:
    """Copy one of this repository's games (content and templates) into a scratch project."""

    def copy(game: str) -> Project:
        project = Project(tmp_path / "copy")
        for part in ("content", "templates"):
            shutil.copytree(REPO / part / game, project.root / part / game)
        link_plugins(project.root)
        return project

    return copy


@pytest.fixture
def sheet(tmp_path, monkeypatch):
    """Write a sheet as game.yaml in a scratch folder (messages then say `game.yaml`)."""
    monkeypatch.chdir(tmp_path)

    def write(text: str) -> Path:
        path = tmp_path / "game.yaml"
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture
def cached_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """`pnp score` loads each game's content once per test session instead of per sheet
    (for tests that score many sheets against unchanged content)."""
    import pnp.score.dispatch

    monkeypatch.setattr(pnp.score.dispatch, "load_game", _load_game_once)


@functools.lru_cache(maxsize=None)
def _load_game_once(project: Project, name: str):
    from pnp.load.content import load_game

    return load_game(project, name)


@pytest.fixture
def fruit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the example project Fruit Stand (examples/projects/fruit-stand), the working folder."""
    root = tmp_path / "fruit"
    shutil.copytree(Path(__file__).resolve().parent.parent / "examples/projects/fruit-stand", root,
                    ignore=shutil.ignore_patterns("output", "__pycache__"))
    monkeypatch.chdir(root)
    return root
