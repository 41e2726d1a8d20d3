"""The published tie-break on leaders (F204) when tied players ate different numbers of
leaders: pnp's reading (rules.yaml rulings.unequal_leaders) gives the win to the player
with the extra leader, and the report says it is a reading when it decides the winner."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from conftest import REPO
from pnp.load.content import Project, load_game
from game_plugins import game_module
from test_th_rule_versions import player

_scoring = game_module("tasty_humans", "scoring")
rank_players, TastyHumansReport = _scoring.rank_players, _scoring.TastyHumansReport
RuleVersion = game_module("tasty_humans", "models").RuleVersion


@pytest.fixture(scope="module")
def rules():
    return load_game(Project(REPO), "tasty-humans").data["rules"]


def test_extra_leader_wins_and_the_report_says_it_is_our_reading(rules):
    published = rules.version("published")
    says = published.rulings.unequal_leaders.says
    # the King (Ana) ate 4, Bo 5; the 4 lowest tie, Bo's fifth decides
    ps = [player("Ana", 0, 40, (3, 5, 7, 9)), player("Bo", 1, 40, (3, 5, 7, 9, 10))]
    result = rank_players(ps, published)
    assert (result.winners, result.decided_by, result.ruling) == (("Bo",), "leaders-ascending", says)
    report = TastyHumansReport("game.yaml", "published", ps, result=result)
    assert report.to_json()["ruling"] == says
    out = io.StringIO()
    report.render(Console(file=out, width=300))
    assert f"decided by a reading where the rules are silent: {says}" in out.getvalue()


def test_a_shared_win_that_the_reading_narrowed_says_so(rules):
    """A and C tie on both their leaders and share the win; B tied on the one B ate and
    is left out by the reading: the line speaks of a shared win, not of one winner."""
    published = rules.version("published")
    reading = published.rulings.unequal_leaders
    ps = [player("A", 0, 40, (5, 6)), player("B", 1, 40, (5,)), player("C", 2, 40, (5, 6))]
    result = rank_players(ps, published)
    assert (result.winners, result.decided_by, result.ruling) == (("A", "C"), "shared", reading.says_shared)
    assert "sharing the win" in reading.says_shared and reading.says_shared != reading.says
    out = io.StringIO()
    TastyHumansReport("game.yaml", "published", ps, result=result).render(Console(file=out, width=300))
    assert reading.says_shared in out.getvalue() and reading.says not in out.getvalue()
    # the same shared win without a shorter list to leave out needs no reading
    assert rank_players([ps[0], ps[2]], published).ruling is None


def test_a_win_on_leader_points_needs_no_reading(rules):
    published = rules.version("published")
    for ps in ([player("Ana", 0, 40, (3, 5, 7, 9)), player("Bo", 1, 40, (3, 6, 7, 9, 10))],  # Bo's second is higher
               [player("Ana", 0, 40, (3, 5, 7, 9)), player("Bo", 1, 40, (3, 5, 7, 9))],  # shared
               [player("Ana", 0, 41, (3, 5, 7, 9)), player("Bo", 1, 40, (3, 5, 7, 9, 10))]):  # total
        result = rank_players(ps, published)
        assert result.ruling is None
        assert TastyHumansReport("game.yaml", "published", ps, result=result).to_json()["ruling"] is None
    # 0.2.8 compares no leaders, so it carries no such reading
    old = rules.version("0.2.8")
    assert old.rulings.unequal_leaders is None
    ps = [player("Ana", 0, 40, (3, 5, 7, 9)), player("Bo", 1, 40, (3, 5, 7, 9, 10))]
    assert rank_players(ps, old).ruling is None


def test_a_version_comparing_leaders_must_carry_the_reading(rules):
    data = rules.version("published").model_dump(by_alias=True)
    data["rulings"]["unequal_leaders"] = None
    with pytest.raises(ValueError, match="expected rulings.unequal_leaders"):
        RuleVersion.model_validate(data)
