"""Points of each leader tile kind, one small function per kind (see tasty-humans-notes.md).

Each kind compiles a leader at a cell of a grid into a `Part`: a function of the board's
masks (tile kind -> bit mask of its cells, as `Board.masks`) returning its points, and the
kinds it reads. What does not depend on the tiles (the leader's region, its type, its
points) is worked out once, so the engine can score thousands of candidate stomachs with
the very functions `pnp score` uses, and skip a part none of whose kinds changed.
Per-unit values come from `leader.points` (and `leader.distance`), tile types from the
rule set: nothing here is a game number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Mapping, NamedTuple

from .board import LEADER, Board, Geometry, Kept, longest_path
from .models import LEADER_TYPE

if TYPE_CHECKING:
    from .models import Leader, RuleVersion

Masks = Mapping[str, int]  # tile kind -> cells holding it (absent: none)
MaskFn = Callable[[Masks], int]  # a board's masks -> points


class Part(NamedTuple):
    """Points from a board's masks, and the kinds they depend on: the points stay the same
    while none of those masks changes."""

    fn: MaskFn
    reads: frozenset[str]


def part(fn: MaskFn, reads: Iterable[str]) -> Part:
    return Part(fn, frozenset(reads))


LeaderKind = Callable[[Geometry, int, "Leader", "RuleVersion"], Part]

_TYPES: dict[int, tuple["RuleVersion", tuple[tuple[str, ...], tuple[str, ...]]]] = {}
_PATHS = Kept(50_000)  # longest-path results: (rows, cols, diagonal, starts, mask) -> cells


def tile_kinds(rules: "RuleVersion") -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(basic tile types, other tile types such as damage) of a rule version, cached."""
    got = _TYPES.get(id(rules))
    if got is None or got[0] is not rules:  # id() may be reused by a new object
        basic = tuple(rules.basic_types())
        got = (rules, (basic, tuple(t for t in rules.tiles if t not in basic)))
        _TYPES[id(rules)] = got
    return got[1]


def damage_of(masks: Masks, other: tuple[str, ...]) -> int:
    """Cells holding one of the `other` (non-basic: damage) tile types."""
    mask = 0
    for kind in other:
        mask |= masks.get(kind, 0)
    return mask


def damage_mask(board: Board, rules: "RuleVersion") -> int:
    """Cells holding a non-basic tile (damage)."""
    return damage_of(board.masks, tile_kinds(rules)[1])


def _counting(region: int, kind: str, points: int) -> Part:
    def score(m: Masks) -> int:
        return points * (m.get(kind, 0) & region).bit_count()
    return part(score, [kind])


def _line(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> Part:
    return _counting(geo.line[cell], leader.type or "", leader.points)


def _diagonal(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> Part:
    return _counting(geo.diagonals[cell], leader.type or "", leader.points)


def _range(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> Part:
    return _counting(geo.within(cell, leader.distance), leader.type or "", leader.points)


def _leader_line(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> Part:
    return _counting(geo.line[cell], LEADER, leader.points)


def _feast(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> Part:
    # Tiles next to any leader, each once: one mask for all leaders counts no tile twice.
    kind, points, expand = leader.type or "", leader.points, geo.expand_orth

    def score(m: Masks) -> int:
        return points * (m.get(kind, 0) & expand(m.get(LEADER, 0))).bit_count()
    return part(score, [kind, LEADER])


def _sight(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> Part:
    kind = LEADER if leader.type == LEADER_TYPE else leader.type or ""
    others = ~(1 << cell)  # sight-leader looks for *other* leaders
    rays = [(ray.mask, ray.outward_up, ray.step) for ray in geo.rays[cell] if ray.mask]
    points = leader.points

    def score(m: Masks) -> int:
        targets = m.get(kind, 0) & others
        steps = 0
        if targets:
            for mask, up, step in rays:  # steps to the nearest target, that cell counted
                hits = mask & targets
                if hits:
                    steps += ((hits & -hits).bit_length() - 1 - cell if up else cell + 1 - hits.bit_length()) // step
        return points * steps
    return part(score, [kind])


def _least_type(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> Part:
    basic, points = tile_kinds(rules)[0], leader.points
    return part(lambda m: points * min([m.get(t, 0).bit_count() for t in basic]), basic)


def _most_minus_least(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> Part:
    basic, points = tile_kinds(rules)[0], leader.points

    def score(m: Masks) -> int:
        counts = [m.get(t, 0).bit_count() for t in basic]
        return points * (max(counts) - min(counts))
    return part(score, basic)


def _damage_line(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> Part:
    other, region, points = tile_kinds(rules)[1], geo.line[cell], leader.points
    return part(lambda m: points * (damage_of(m, other) & region).bit_count(), other)


def _surround_majority(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> Part:
    ring = geo.ring[cell]  # off-board cells are simply not in the ring
    basic, points = tile_kinds(rules)[0], leader.points
    return part(lambda m: points * max([(m.get(t, 0) & ring).bit_count() for t in basic]), basic)


def _path(geo: Geometry, starts: int, mask: int, diagonal: bool) -> int:
    """`longest_path`, remembered: candidate stomachs of a turn share most type masks. A
    mask met for the first time is cut down to the cells a path from `starts` can reach
    (the rest cannot change the answer), so masks that differ only far away share it."""
    key = (geo.rows, geo.cols, diagonal, starts, mask)
    got = _PATHS.get(key)
    if got is None:
        expand = geo.expand_diag if diagonal else geo.expand_orth
        reach = starts & mask
        while True:
            grown = reach | (expand(reach) & mask)
            if grown == reach:
                break
            reach = grown
        near = (geo.rows, geo.cols, diagonal, starts, reach)
        got = _PATHS.get(near)
        if got is None:
            got = _PATHS.keep(near, longest_path(geo, starts, reach, diagonal))
        _PATHS.keep(key, got)
    return got


def chain_length(geo: Geometry, starts: int, mask: int, diagonal: bool) -> int:
    """Cells of the longest chain of one type's cells `mask` starting next to the leader
    (at a cell of `starts`): 0 when none is."""
    return _path(geo, starts & mask, mask, diagonal) if mask & starts else 0


def _chain(diagonal: bool) -> LeaderKind:
    def compile(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> Part:
        starts = (geo.diag if diagonal else geo.orth)[cell]
        basic, points = tile_kinds(rules)[0], leader.points

        def score(m: Masks) -> int:
            # A chain is one basic type; a single mask per type makes the path search exact.
            best = 0
            for t in basic:
                mask = m.get(t, 0)
                if mask.bit_count() > best:  # a chain no longer than the type's tiles
                    best = max(best, chain_length(geo, starts, mask, diagonal))
            return points * best
        return part(score, basic)
    return compile


def _all_four(lines: str) -> LeaderKind:
    def compile(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> Part:
        basic, points = tile_kinds(rules)[0], leader.points
        spans = geo.row_masks if lines == "rows" else geo.col_masks

        def score(m: Masks) -> int:
            count = 0
            for span in spans:
                for t in basic:
                    if not m.get(t, 0) & span:
                        break
                else:
                    count += 1
            return points * count
        return part(score, basic)
    return compile


KINDS: dict[str, LeaderKind] = {
    "line": _line,
    "diagonal": _diagonal,
    "range": _range,
    "feast": _feast,
    "sight": _sight,
    "least-type": _least_type,
    "most-minus-least": _most_minus_least,
    "leader-line": _leader_line,
    "damage-line": _damage_line,
    "surround-majority": _surround_majority,
    "chain-orthogonal": _chain(diagonal=False),
    "chain-diagonal": _chain(diagonal=True),
    "rows-all-four": _all_four("rows"),
    "columns-all-four": _all_four("columns"),
}


def leader_scorer(geo: Geometry, cell: int, leader: "Leader", rules: "RuleVersion") -> Part:
    """`leader` lying at `cell` of a `geo` grid under `rules`, as a function of the masks."""
    return KINDS[leader.kind](geo, cell, leader, rules)


def score_leader(board: Board, cell: int, leader: "Leader", rules: "RuleVersion") -> int:
    """Points of `leader` lying at `cell` of `board` under `rules`."""
    return leader_scorer(board.geo, cell, leader, rules).fn(board.masks)
