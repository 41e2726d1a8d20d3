"""The array forms of the Tasty Humans scoring parts (`batch.py`, the greedy player's
candidates scored together) give exactly the points of the scalar parts `pnp score`
adds up, on thousands of random boards: every leader kind at every kind of cell, every
craving with and without overlap, the damage part; a turn's batch of candidate drops
against the scorer's totals; damage columns ranked as by the whole score."""

from __future__ import annotations

import random

import numpy as np
import pytest

from game_plugins import game_module

_board = game_module("tasty_humans", "board")
_batch = game_module("tasty_humans", "batch")
_engine = game_module("tasty_humans", "engine")
_leaders = game_module("tasty_humans", "leader_scoring")
_cravings = game_module("tasty_humans", "craving_scoring")
EMPTY, LEADER = _board.EMPTY, _board.LEADER
BOARDS = 400  # random boards per grid size and rule version


@pytest.fixture(scope="module")
def setups(repo_project):
    from pnp.load.content import load_game
    game = load_game(repo_project, "tasty-humans")
    return {v: _engine.Setup.from_game(game, v) for v in game.data["rules"].names()}


def _boards(rules, geo, rng):
    """Random boards as masks dicts, and the same as one batch (every kind present).
    Most boards use two or three basic types, so squares, runs and chains are common."""
    basic, other = _leaders.tile_kinds(rules)
    kinds = (*basic, *other, LEADER, EMPTY)
    boards = []
    for _ in range(BOARDS):
        few = rng.sample(list(basic), rng.choice((2, 3, len(basic))))
        pool = few * 6 + list(other) + [LEADER] + [EMPTY] * rng.choice((0, 1, 4))
        masks = dict.fromkeys(kinds, 0)
        for i in range(geo.n):
            masks[rng.choice(pool)] |= 1 << i
        boards.append(masks)
    batch = _batch.batch_of(np.array([[b[k] for b in boards] for k in kinds], dtype=np.uint64), kinds, basic)
    return boards, batch


def _with_overlap(rules, monster, overlap):
    cravings = dict(rules.cravings)
    cravings[monster] = cravings[monster].model_copy(update={"overlap": overlap})
    return rules.model_copy(update={"cravings": cravings})


@pytest.mark.parametrize("version", ["published", "0.2.8"])
@pytest.mark.parametrize("rows", [4, 5, 6])
def test_every_part_has_the_scalar_points_on_random_boards(setups, version, rows):
    setup = setups[version]
    rules, rng = setup.rules, random.Random(rows)
    geo = _board.geometry(rows, rules.stomach.columns)
    boards, batch = _boards(rules, geo, rng)
    kinds_seen = set()
    for lid, leader in sorted(setup.leaders.items()):
        for cell in rng.sample(range(geo.n), 4):
            scalar = _leaders.leader_scorer(geo, cell, leader, rules).fn
            got = _batch.leader_batch(geo, cell, leader, rules)(batch).tolist()
            assert got == [scalar(b) for b in boards], (lid, leader.kind, cell)
            kinds_seen.add(leader.kind)
    assert kinds_seen == set(_leaders.KINDS)  # the content uses every leader kind
    for monster in setup.monsters:
        for overlap in (False, True):
            r = _with_overlap(rules, monster, overlap)
            parts = _cravings.craving_scorer(geo, monster, r)
            got = _batch.craving_batch(geo, monster, r)(batch).tolist()
            assert got == [sum(p.fn(b) for p in parts) for b in boards], (monster, overlap)
    damage = _engine.Scorer(geo, setup.monsters[0], rules, setup.leaders).fixed[-1].fn
    assert _batch.damage_batch(geo, rules)(batch).tolist() == [damage(b) for b in boards]
    # a part without an array form (a kind added later) is run on each candidate
    for lid in rng.sample(sorted(setup.leaders), 3):
        p = _leaders.leader_scorer(geo, 7, setup.leaders[lid], rules)
        assert _batch.per_candidate(p)(batch).tolist() == [p.fn(b) for b in boards], lid


@pytest.mark.parametrize("version", ["published", "0.2.8"])
def test_a_turns_candidates_scored_together_are_the_scorers_totals(setups, version):
    """`batch_values`: every legal drop of random cards on several random stomachs in one
    batch (some with other leaders, one a copy with a damage tile more), as the scorer's
    total (no king) of each stomach after the drop."""
    import test_th_engine as test_engine  # its random games and stomachs
    score_player = game_module("tasty_humans", "scoring").score_player
    setup, rng = setups[version], random.Random(3)
    for n in (2, 3, 4):
        g = test_engine._game(setup, n=n, seed=n)
        for _ in range(6):
            seat = rng.randrange(g.n)
            rows, cols = g.stomachs[seat].rows, g.stomachs[seat].cols
            stomachs = [test_engine._random_stomach(setup, rng, rows, cols) for _ in range(3)]
            stomachs.append(stomachs[0].copy())
            stomachs[-1].push(stomachs[-1].open_columns()[0], _engine.DAMAGE)
            eats, want = [], []
            for s in stomachs:
                for card in rng.sample(setup.adventurers, 3):
                    drops = setup.drops[card.id]
                    eats.append((s, _engine.landing_numbers(setup, s, drops)))
                    totals = []
                    for d, o in s.options(drops):
                        t = s.copy()
                        t.drop(d, o)
                        totals.append(score_player(t.board(), g.monsters[seat], setup.rules, setup.leaders).total)
                    want.append(totals)
            assert _engine.batch_values(g, seat, eats) == want


@pytest.mark.parametrize("version", ["published", "0.2.8"])
def test_damage_columns_rank_as_by_the_whole_score(setups, version):
    """`damage_values` scores only the parts that read damage: it differs from the whole
    score after the push (`push_values`) by the same amount in every column, so the
    greedy player's damage goes (and ties) where it would by the whole score."""
    import test_th_engine as test_engine
    setup, rng = setups[version], random.Random(8)
    for n in (2, 3, 4):
        g = test_engine._game(setup, n=n, seed=n)
        for _ in range(20):
            seat = rng.randrange(g.n)
            s = test_engine._random_stomach(setup, rng, g.stomachs[seat].rows, g.stomachs[seat].cols)
            cols = s.open_columns()
            whole = _engine.push_values(g, seat, s, cols, _engine.DAMAGE)
            part = _engine.damage_values(g, seat, s, cols)
            assert len({w - p for w, p in zip(whole, part)}) <= 1, (whole, part)
