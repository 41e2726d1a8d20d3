"""The cave's tile-placement engine: turning tiles, matching passages, tiles conserved,
exits only after the discards are reshuffled, and the ending of every game."""

from __future__ import annotations

import random

import pytest

from pnp.load.content import load_game
from game_plugins import game_module

_engine = game_module("cave", "engine")
OPPOSITE, STEP, Game, GreedyPlayer, RandomPlayer, Setup, turned = _engine.OPPOSITE, _engine.STEP, _engine.Game, _engine.GreedyPlayer, _engine.RandomPlayer, _engine.Setup, _engine.turned


@pytest.fixture(scope="module")
def setup(repo_project):
    return Setup.from_game(load_game(repo_project, "cave"))


def test_turning_a_tile():
    assert turned(frozenset({"north", "east"}), 1) == {"east", "south"}
    assert turned(frozenset({"north", "south"}), 2) == {"north", "south"}


def test_the_deck_per_player_count_comes_from_tiles_yaml(setup):
    assert [len(setup.tiles[n]) for n in (2, 3, 4, 5, 6)] == [16, 22, 28, 34, 40]
    assert [len(setup.exits[n]) for n in (2, 3, 4, 5, 6)] == [1, 2, 3, 3, 3]
    assert (setup.rows, setup.cols) == (8, 12)


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_games_keep_tiles_and_passages(setup, n):
    for seed in range(12):
        rng = random.Random(seed)
        kind = GreedyPlayer if seed % 2 else RandomPlayer
        g = Game(setup, n, [kind(random.Random(seed + i)) for i in range(n)], rng)
        moves_before = []
        original = g.moves
        def checked(seat, g=g, original=original):
            out = original(seat)
            here = g.pawns[seat]
            for side in out:
                assert side in g.board[here].openings
                there = (here[0] + STEP[side][0], here[1] + STEP[side][1])
                assert g.on_board(there)
                assert there not in g.board or OPPOSITE[side] in g.board[there].openings
            moves_before.append(len(out))
            return out
        g.moves = checked
        r = g.play()
        on_board = [p for p in g.board.values() if p.id != "start"]
        assert len(on_board) + len(g.draw_pile) + len(g.discard) == len(setup.tiles[n]) + len(setup.exits[n])
        assert r.ending in ("exit", "walled in", "wandering")
        if r.ending == "exit":
            assert r.reshuffles >= 1  # the exits start in the discard pile
            assert g.board[g.pawns[r.winner]].exit
        assert sum(r.placed) >= len(setup.tiles[n])  # the whole first draw pile was laid first


def test_simulate_reports_only_what_the_rules_define(repo_project, tmp_path):
    """Issue 26 item 9: the rules name no winner and the exits' needs (lines 55-57) are not
    simulated, so there is no win rate, the ending says an exit tile was reached (not left
    through), and the report says what the simulation leaves out."""
    from typer.testing import CliRunner

    from pnp.cli import app

    result = CliRunner().invoke(app, ["simulate", "cave", "--games", "8", "--players", "3", "--out", str(tmp_path),
                                      "--project", str(repo_project.root)])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Win rate" not in out and "Mean score" not in out and "Mean tiles laid by seat" in out
    assert "exit tile reached" in out and "  exit  " not in result.output
    assert "not simulated: FOOD, ENERGY, SANITY, challenges, events and items, and so what an exit needs (lines 55-57)" in out
    page = (tmp_path / "cave" / "simulate" / "index.html").read_text()
    assert "Not simulated:" in page and "Win rate" not in page and "Winners" not in page
    sim = game_module("cave", "simulation").make(load_game(repo_project, "cave"), {})
    record = sim.play(1, ["greedy"] * 3)
    assert not any(p.win for p in record.players) and record.metrics["ending"] in ("exit tile reached", "walled in", "turn limit")
