"""The scoring parts as functions of many stomachs at once, for the greedy player.

A batch is a dict kind -> numpy array of masks, one uint64 per candidate stomach (as
`Board.masks` is for one stomach); a batch form returns the points of every candidate as
an int64 array. Each form here is the array twin of one part of `leader_scoring` /
`craving_scoring` / the engine's damage part, with the same compiled constants; the
scalar parts stay the definition that `pnp score` adds up, and
tests/test_th_batch.py holds every twin equal to its part on thousands of random boards.
Where a rule is a search (a chain leader's longest path, the most runs or squares that
share no tile), the array form runs the scalar search once per distinct input, and the
griffin's runs are found by the scalar part's own run finder, applied to the arrays.

Only the balance lab imports this module (numpy stays out of `pnp build` and `pnp score`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

import numpy as np

from .board import LEADER, Geometry, Kept
from .craving_scoring import (GRIFFIN_RUN, TROLL_STACK, _rect_table, _run_finder, _run_table, _runs, craving_scorer,
                              max_disjoint)
from .leader_scoring import Part, chain_length, leader_scorer, tile_kinds
from .models import LEADER_TYPE

if TYPE_CHECKING:
    from .models import Leader, RuleVersion

Batch = Mapping[str, np.ndarray]  # kind -> a mask per candidate; BASIC -> the basic types' rows
BatchFn = Callable[[Batch], np.ndarray]  # -> points per candidate (int64)
BASIC = "@basic"  # the masks of every basic type (`tile_kinds` order), one row per type


def batch_of(masks: np.ndarray, kinds: tuple[str, ...], basic: tuple[str, ...]) -> dict[str, np.ndarray]:
    """A batch from one row of masks per kind (`kinds` starting with the `basic` types)."""
    assert kinds[:len(basic)] == basic
    out = dict(zip(kinds, masks))
    out[BASIC] = masks[:len(basic)]
    return out


def count(x: Any) -> np.ndarray:
    """Set bits of each mask, as int64 (bitwise_count gives uint8, which `points *` overflows)."""
    return np.bitwise_count(x).astype(np.int64)


def bit_length(x: np.ndarray) -> np.ndarray:
    """`int.bit_length` of each mask (exact: masks are far below 2**53)."""
    return np.frexp(x.astype(np.float64))[1].astype(np.int64)


def _zero(m: Batch) -> np.ndarray:
    return np.zeros(len(next(iter(m.values()))), dtype=np.int64)


def per_candidate(p: Part) -> BatchFn:
    """A part without an array form: run on each candidate's own masks."""
    reads = tuple(p.reads)

    def run(m: Batch) -> np.ndarray:
        kinds = [k for k in reads if k in m]
        fn = p.fn
        return np.array([fn(dict(zip(kinds, masks))) for masks in zip(*(m[k].tolist() for k in kinds))], dtype=np.int64)
    return run


# --- leaders (leader_scoring.KINDS) ---------------------------------------------------

def _counting(region: int, kind: str, points: int) -> BatchFn:
    def score(m: Batch) -> np.ndarray:
        got = m.get(kind)
        return _zero(m) if got is None else points * count(got & region)
    return score


def _sight(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> BatchFn:
    kind = LEADER if leader.type == LEADER_TYPE else leader.type or ""
    others = geo.full & ~(1 << cell)
    rays = [(ray.mask, ray.outward_up, ray.step) for ray in geo.rays[cell] if ray.mask]
    points = leader.points
    masks = np.array([mask for mask, _, _ in rays], dtype=np.uint64)[:, None]  # one row per ray
    up = np.array([up for _, up, _ in rays])[:, None]
    steps = np.array([step for _, _, step in rays], dtype=np.int64)[:, None]

    def score(m: Batch) -> np.ndarray:
        got = m.get(kind)
        if got is None:
            return _zero(m)
        hits = masks & (got & others)  # per ray and candidate
        # steps to the nearest target, that cell counted: the lowest hit on a ray going up
        # the cell numbers, the highest on one going down
        far = np.where(up, (bit_length(hits & (~hits + 1)) - 1 - cell) // steps, (cell + 1 - bit_length(hits)) // steps)
        return points * np.where(hits != 0, far, 0).sum(axis=0)
    return score


def _leader_batch(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> BatchFn | None:
    """The array form of `leader_scorer(geo, cell, leader, rules)`, or None (no array form)."""
    kind, points = leader.kind, leader.points
    basic, other = tile_kinds(rules)
    if kind == "line":
        return _counting(geo.line[cell], leader.type or "", points)
    if kind == "diagonal":
        return _counting(geo.diagonals[cell], leader.type or "", points)
    if kind == "range":
        return _counting(geo.within(cell, leader.distance), leader.type or "", points)
    if kind == "leader-line":
        return _counting(geo.line[cell], LEADER, points)
    if kind == "sight":
        return _sight(geo, cell, leader, rules)
    if kind == "feast":
        tile = leader.type or ""
        expand: Callable[[Any], Any] = geo.expand_orth  # shifts and masks: arrays as well as ints

        def feast(m: Batch) -> np.ndarray:
            if m.get(tile) is None:
                return _zero(m)
            return points * count(m[tile] & expand(m[LEADER]))
        return feast
    if kind == "least-type":
        return lambda m: points * count(m[BASIC]).min(axis=0)
    if kind == "most-minus-least":
        def spread(m: Batch) -> np.ndarray:
            counts = count(m[BASIC])
            return points * (counts.max(axis=0) - counts.min(axis=0))
        return spread
    if kind == "damage-line":
        region = geo.line[cell]

        def damage_line(m: Batch) -> np.ndarray:
            return points * count(damage_of(m, other) & region)
        return damage_line
    if kind == "surround-majority":
        ring = geo.ring[cell]
        return lambda m: points * count(m[BASIC] & ring).max(axis=0)
    if kind in ("rows-all-four", "columns-all-four"):
        spans = geo.row_masks if kind == "rows-all-four" else geo.col_masks

        def all_four(m: Batch) -> np.ndarray:
            total = _zero(m)
            for span in spans:
                total += ((m[BASIC] & span) != 0).all(axis=0)
            return points * total
        return all_four
    if kind in ("chain-orthogonal", "chain-diagonal"):
        return _chain(geo, cell, leader, rules, kind == "chain-diagonal")
    return None


CHAINS = 4096  # chain lengths a chain leader keeps, by one type's mask
DISJOINT = 4096  # griffin: separate runs kept, by where runs start


def _chain(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion", diagonal: bool) -> BatchFn:
    """The longest chain of each basic type (`chain_length`, a path search) once per
    distinct mask: a turn's candidates leave most types' masks as they were."""
    starts = (geo.diag if diagonal else geo.orth)[cell]
    basic, points = tile_kinds(rules)[0], leader.points
    memo = Kept(CHAINS)

    def length(mask: int) -> int:
        got = memo.get(mask)
        return memo.keep(mask, chain_length(geo, starts, mask, diagonal)) if got is None else got

    def score(m: Batch) -> np.ndarray:
        best = _zero(m)
        for t in basic:
            if t in m:
                best = np.maximum(best, per_distinct(m[t], length))
        return points * best
    return score


def per_distinct(masks: np.ndarray, fn: Callable[[int], int]) -> np.ndarray:
    """`fn` of every mask, called once per distinct one: most of a turn's candidates leave
    a given kind's mask as it was."""
    distinct, where = np.unique(masks, return_inverse=True)
    return np.array([fn(x) for x in distinct.tolist()], dtype=np.int64)[where]


def leader_batch(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> BatchFn:
    """`leader` lying at `cell`, scored on a batch."""
    return _leader_batch(geo, cell, leader, rules) or per_candidate(leader_scorer(geo, cell, leader, rules))


def damage_of(m: Batch, other: tuple[str, ...]) -> np.ndarray | int:
    mask: np.ndarray | int = 0
    for kind in other:
        got = m.get(kind)
        if got is not None:
            mask = mask | got
    return mask


# --- cravings (craving_scoring.CRAVINGS) ------------------------------------------------

def _alone(parts: list[Part], need: np.ndarray, m: Batch, points: np.ndarray) -> np.ndarray:
    """`points`, with the candidates flagged in `need` scored by the scalar parts."""
    where = np.flatnonzero(need)
    if len(where):
        reads = sorted({k for p in parts for k in p.reads if k in m})
        for i in where.tolist():
            masks = {k: int(m[k][i]) for k in reads}
            points[i] = sum(p.fn(masks) for p in parts)
    return points


def craving_batch(geo: Geometry, monster: str, rules: "RuleVersion") -> BatchFn:
    """`monster`'s craving (all of `craving_scorer`'s parts) scored on a batch."""
    craving, basic = rules.cravings[monster], tile_kinds(rules)[0]
    points, overlap = craving.points, craving.overlap
    parts = craving_scorer(geo, monster, rules)
    if monster == "legendary-dragon":
        starts, shifts = _rect_table(geo.rows, geo.cols, 2, 2)[:2]

        def squares(m: Batch) -> np.ndarray:  # top-left cells of one-type 2x2 squares
            masks = m[BASIC]
            hit = masks & starts
            for k in shifts:
                hit &= masks >> k
            return count(hit).sum(axis=0)
        if overlap:
            return lambda m: points * squares(m)
        # disjoint squares: as many as found when at most one; else the scalar search
        return lambda m: _alone(parts, (found := squares(m)) > 1, m, points * found)
    if monster == "twin-headed-dragon":
        first, span = geo.col_masks[0], geo.cols - 1

        def twins(m: Batch) -> np.ndarray:
            masks = m[BASIC]
            return points * count(masks & first & (masks >> span)).sum(axis=0)
        return twins
    if monster == "griffin":
        table = _run_table(geo.rows, geo.cols, GRIFFIN_RUN)
        run_starts: Callable[[Any], Any] = _run_finder(basic, table, GRIFFIN_RUN)  # the scalar part's own

        def griffin(m: Batch) -> np.ndarray:
            rows, cols = run_starts(m)
            found = count(rows) + count(cols)
            if overlap:
                return points * found
            out = points * found
            several = np.flatnonzero(found > 1)  # which of them share no tile: as `_griffin`
            if len(several):
                for i, r, c in zip(several.tolist(), rows[several].tolist(), cols[several].tolist()):
                    got = disjoint.get((r, c))
                    if got is None:
                        got = disjoint.keep((r, c), max_disjoint(_runs(table, (r, c))))
                    out[i] = points * got
            return out
        disjoint = Kept(DISJOINT)  # (row starts, column starts) -> separate runs
        return griffin
    if monster == "troll":
        top, mid, low = TROLL_STACK
        cols = geo.cols

        def troll(m: Batch) -> np.ndarray:
            if any(m.get(k) is None for k in TROLL_STACK):
                return _zero(m)
            return points * count(m[top] & (m[mid] >> cols) & (m[low] >> 2 * cols))
        return troll

    each = [per_candidate(p) for p in parts]  # a craving with no array form
    return lambda m: sum((fn(m) for fn in each), _zero(m))


def damage_batch(geo: Geometry, rules: "RuleVersion") -> BatchFn:
    """The engine's damage part (each damage tile next to another one) on a batch."""
    other, penalty = tile_kinds(rules)[1], rules.damage_penalty
    expand: Callable[[Any], Any] = geo.expand_orth  # shifts and masks: arrays as well as ints

    def damage(m: Batch) -> np.ndarray:
        d = damage_of(m, other)
        return -penalty * count(d & expand(d)) + _zero(m)
    return damage
