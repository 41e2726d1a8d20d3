"""Shared fixtures: the repository's own project and small scratch projects."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.content import Project
from pnp.scaffold import scaffold

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def repo_project() -> Project:
    return Project(REPO)


@pytest.fixture
def demo(tmp_path: Path) -> Project:
    """A fresh project with one scaffolded game, `demo` (3 copies of one card, shared back)."""
    project = Project(tmp_path / "proj")
    scaffold(project, "demo")
    return project
