"""Tasty Humans pieces the rule versions differ on: scoring tokens (published line 28),
the leader board's name and stack numbering, the shared Village King markers (line 190)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pnp.build.driver import BuildOptions, build
from pnp.load.content import Project

REPO = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/2000/svg}"


def _build(tmp_path_factory, rules: str) -> Path:
    out = tmp_path_factory.mktemp(f"kit-{rules}")
    build(Project(REPO), ["tasty-humans"], BuildOptions(formats=("svg",), out=out, extra={"rules": rules}))
    return out / "tasty-humans" / "svg"


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> Path:
    return _build(tmp_path_factory, "published")


@pytest.fixture(scope="module")
def old(tmp_path_factory) -> Path:
    return _build(tmp_path_factory, "0.2.8")


def _texts(path: Path) -> list[str]:
    return [t.text or "" for t in ET.parse(path).getroot().iter(f"{NS}text")]


def test_published_has_one_scoring_token_per_monster(published):
    tokens = sorted(p.stem for p in (published / "scoring-token").glob("*.svg") if not p.stem.endswith("-back"))
    assert tokens == ["griffin", "legendary-dragon", "troll", "twin-headed-dragon"]
    assert "TROLL" in _texts(published / "scoring-token" / "troll.svg")


def test_0_2_8_has_no_scoring_tokens_and_a_round_board(old):
    assert not (old / "scoring-token").exists() or not list((old / "scoring-token").glob("*.svg"))
    assert "ROUND BOARD" in _texts(old / "leader-board" / "leader-board.svg")


def test_stack_spaces_are_numbered_in_reveal_order(published):
    """Stacks go on right to left and the leftmost is revealed first (line 42): the
    spaces read 1, 2, 3, 4 from the left, and the leftmost is the one 4 players leave empty."""
    root = ET.parse(published / "leader-board" / "leader-board.svg").getroot()
    spaces = [g for g in root.iter(f"{NS}g") if g.get("class") == "stack-space"]
    xs = [float(next(g.iter(f"{NS}rect")).get("x")) for g in spaces]
    orders = [int(g.get("data-order")) for _, g in sorted(zip(xs, spaces), key=lambda p: p[0])]
    assert orders == [1, 2, 3, 4]
    unused = [int(g.get("data-order")) for g in spaces if g.get("data-unused-with")]
    assert unused == [1]
    assert "LEADER TILE BOARD" in _texts(published / "leader-board" / "leader-board.svg")


def test_shared_king_markers_carry_the_king_bonus(published):
    markers = sorted((published / "king-placeholder").glob("*.svg"))
    assert len(markers) == 3  # at most 3 players share the moment with the token holder
    assert "+2" in _texts(markers[0]) and "SHARED KING" in _texts(markers[0])
