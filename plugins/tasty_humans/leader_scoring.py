"""Points of each leader tile kind, one small function per kind (see tasty-humans-notes.md).

Every function takes the board, the leader's cell, its `Leader` definition and the
`RuleVersion`, and returns points. Per-unit values come from `leader.points` (and
`leader.distance`), tile types from the rule set: nothing here is a game number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from .board import LEADER, Board, longest_path
from .models import LEADER_TYPE

if TYPE_CHECKING:
    from .models import Leader, RuleVersion

LeaderFn = Callable[[Board, int, "Leader", "RuleVersion"], int]

_TYPES: dict[int, tuple["RuleVersion", tuple[tuple[str, ...], tuple[str, ...]]]] = {}


def tile_kinds(rules: "RuleVersion") -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(basic tile types, other tile types such as damage) of a rule version, cached."""
    got = _TYPES.get(id(rules))
    if got is None or got[0] is not rules:  # id() may be reused by a new object
        basic = tuple(rules.basic_types())
        got = (rules, (basic, tuple(t for t in rules.tiles if t not in basic)))
        _TYPES[id(rules)] = got
    return got[1]


def damage_mask(board: Board, rules: "RuleVersion") -> int:
    """Cells holding a non-basic tile (damage)."""
    mask = 0
    for kind in tile_kinds(rules)[1]:
        mask |= board.mask(kind)
    return mask


def _line(board: Board, cell: int, leader: "Leader", rules: "RuleVersion") -> int:
    return leader.points * (board.mask(leader.type) & board.geo.line[cell]).bit_count()


def _diagonal(board: Board, cell: int, leader: "Leader", rules: "RuleVersion") -> int:
    return leader.points * (board.mask(leader.type) & board.geo.diagonals[cell]).bit_count()


def _range(board: Board, cell: int, leader: "Leader", rules: "RuleVersion") -> int:
    return leader.points * (board.mask(leader.type) & board.geo.within(cell, leader.distance)).bit_count()


def _feast(board: Board, cell: int, leader: "Leader", rules: "RuleVersion") -> int:
    # Tiles next to any leader, each once: one mask for all leaders counts no tile twice.
    near = board.geo.expand_orth(board.mask(LEADER))
    return leader.points * (board.mask(leader.type) & near).bit_count()


def _sight(board: Board, cell: int, leader: "Leader", rules: "RuleVersion") -> int:
    kind = LEADER if leader.type == LEADER_TYPE else leader.type
    targets = board.mask(kind) & ~(1 << cell)  # sight-leader looks for *other* leaders
    geo = board.geo
    return leader.points * sum(geo.ray_distance(cell, ray, targets) for ray in geo.rays[cell])


def _least_type(board: Board, cell: int, leader: "Leader", rules: "RuleVersion") -> int:
    return leader.points * min(board.count(t) for t in tile_kinds(rules)[0])


def _most_minus_least(board: Board, cell: int, leader: "Leader", rules: "RuleVersion") -> int:
    counts = [board.count(t) for t in tile_kinds(rules)[0]]
    return leader.points * (max(counts) - min(counts))


def _leader_line(board: Board, cell: int, leader: "Leader", rules: "RuleVersion") -> int:
    return leader.points * (board.mask(LEADER) & board.geo.line[cell]).bit_count()


def _damage_line(board: Board, cell: int, leader: "Leader", rules: "RuleVersion") -> int:
    return leader.points * (damage_mask(board, rules) & board.geo.line[cell]).bit_count()


def _surround_majority(board: Board, cell: int, leader: "Leader", rules: "RuleVersion") -> int:
    ring = board.geo.ring[cell]  # off-board cells are simply not in the ring
    return leader.points * max((board.mask(t) & ring).bit_count() for t in tile_kinds(rules)[0])


def _chain(diagonal: bool) -> LeaderFn:
    def score(board: Board, cell: int, leader: "Leader", rules: "RuleVersion") -> int:
        geo = board.geo
        starts = (geo.diag if diagonal else geo.orth)[cell]
        # A chain is one basic type; a single mask per type makes the path search exact.
        best = 0
        for t in sorted(tile_kinds(rules)[0], key=lambda t: -board.count(t)):
            mask = board.mask(t)
            if mask & starts and mask.bit_count() > best:
                best = max(best, longest_path(geo, starts & mask, mask, diagonal))
        return leader.points * best

    return score


def _rows_all(board: Board, cell: int, leader: "Leader", rules: "RuleVersion") -> int:
    masks = [board.mask(t) for t in tile_kinds(rules)[0]]
    return leader.points * sum(1 for row in board.geo.row_masks if all(m & row for m in masks))


def _columns_all(board: Board, cell: int, leader: "Leader", rules: "RuleVersion") -> int:
    masks = [board.mask(t) for t in tile_kinds(rules)[0]]
    return leader.points * sum(1 for col in board.geo.col_masks if all(m & col for m in masks))


KINDS: dict[str, LeaderFn] = {
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
    "rows-all-four": _rows_all,
    "columns-all-four": _columns_all,
}


def score_leader(board: Board, cell: int, leader: "Leader", rules: "RuleVersion") -> int:
    """Points of `leader` lying at `cell` of `board` under `rules`."""
    return KINDS[leader.kind](board, cell, leader, rules)
