"""Personal cravings of the monsters and their solo monster challenges.

A craving function takes the board, the monster's `Craving` (points, overlap) and the
`RuleVersion`, and returns points; the points come from `rules.cravings`. The patterns
themselves (2x2 squares, runs of four, helmet over armor over boot) are the monsters'
identity and live here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Callable

from .board import Board, bits
from .leader_scoring import tile_kinds

if TYPE_CHECKING:
    from .models import Craving, RuleVersion

CravingFn = Callable[[Board, "Craving", "RuleVersion"], int]

# Tile type ids of the troll's stack, top to bottom, and the tile the troll challenge
# wants on both sides of the armor.
TROLL_STACK = ("helmet", "armor", "boot")
TROLL_FLANK = "hand"
GRIFFIN_RUN = 4  # cells in a scoring run
# Solo challenge numbers, from the published rules' SOLO CHALLENGES section.
CHALLENGE_COUNT = 2  # "at least two" (dragon blocks, griffin runs, troll stacks)
GRIFFIN_CHALLENGE_RUN = 6  # "six tiles long"
DRAGON_BLOCK = (2, 3)  # "a 2x3 block", either way round


def max_disjoint(sets: list[int]) -> int:
    """Largest number of pairwise disjoint masks among `sets` (exact; fine for ~40 sets)."""
    sets = list(dict.fromkeys(s for s in sets if s))
    n = len(sets)
    if n < 2:
        return n
    clash = [0] * n
    for i in range(n - 1):
        si = sets[i]
        for j in range(i + 1, n):
            if si & sets[j]:
                clash[i] |= 1 << j
                clash[j] |= 1 << i
    if not any(clash):
        return n
    memo: dict[int, int] = {}

    def solve(todo: int) -> int:
        if not todo:
            return 0
        got = memo.get(todo)
        if got is not None:
            return got
        i = (todo & -todo).bit_length() - 1
        rest = todo & ~(1 << i)
        best = 1 + solve(rest & ~clash[i])
        if clash[i] & rest:  # a set clashing with nothing is always worth taking
            best = max(best, solve(rest))
        memo[todo] = best
        return best

    return solve((1 << n) - 1)


@lru_cache(maxsize=None)
def _starts_of(rows: int, cols: int, height: int, width: int) -> int:
    mask = 0
    for r in range(rows - height + 1):
        for c in range(cols - width + 1):
            mask |= 1 << (r * cols + c)
    return mask


@lru_cache(maxsize=None)
def _rect_table(rows: int, cols: int, height: int, width: int) -> tuple[int, tuple[int, ...], dict[int, int]]:
    """(top-left cells of every height x width rectangle, the shift of each of its cells,
    start cell -> the rectangle's mask): the shape's fixed part, worked out once."""
    starts = _starts_of(rows, cols, height, width)
    shifts = tuple(r * cols + c for r in range(height) for c in range(width))
    return starts, shifts, {s: sum(1 << (s + k) for k in shifts) for s in bits(starts)}


def _blocks(board: Board, rules: "RuleVersion", height: int, width: int) -> list[int]:
    """Every height x width rectangle whose cells are all one basic type, as masks."""
    starts, shifts, rect = _rect_table(board.rows, board.cols, height, width)
    masks = board.masks
    out: list[int] = []
    for t in tile_kinds(rules)[0]:
        m = masks.get(t, 0)
        hit = starts & m
        for k in shifts:
            if not hit:
                break
            hit &= m >> k
        if hit:
            out.extend(rect[s] for s in bits(hit))
    return out


@lru_cache(maxsize=None)
def _run_table(rows: int, cols: int, length: int) -> tuple[tuple[int, int, dict[int, int]], ...]:
    """Per direction (row, column): (step, start cells, start cell -> the run's mask)."""
    out: list[tuple[int, int, dict[int, int]]] = []
    for step, (h, w) in ((1, (1, length)), (cols, (length, 1))):
        starts = _starts_of(rows, cols, h, w)
        out.append((step, starts, {s: sum(1 << (s + k * step) for k in range(length)) for s in bits(starts)}))
    return tuple(out)


def _alternating_runs(board: Board, rules: "RuleVersion", length: int) -> list[int]:
    """Every run of `length` cells in a row or column alternating two basic types X Y X Y..."""
    masks = [m for m in map(board.masks.get, tile_kinds(rules)[0]) if m]
    out: list[int] = []
    for step, starts, window in _run_table(board.rows, board.cols, length):
        # cells equal (one basic type) to the cell 2 steps on, and to the next cell
        skip = 0
        next_same = 0
        for m in masks:
            skip |= m & (m >> (2 * step))
            next_same |= m & (m >> step)
        hit = starts & skip & ~next_same
        for k in range(1, length - 2):
            if not hit:
                break
            hit &= skip >> (k * step)
        if hit:
            out.extend(window[s] for s in bits(hit))
    return out


def _troll_stacks(board: Board) -> int:
    """Cells of helmets resting on an armor resting on a boot."""
    top, mid, low = (board.mask(t) for t in TROLL_STACK)
    return top & (mid >> board.cols) & (low >> (2 * board.cols))


def _legendary_dragon(board: Board, craving: "Craving", rules: "RuleVersion") -> int:
    squares = _blocks(board, rules, 2, 2)
    count = len(squares) if craving.overlap else max_disjoint(squares)
    return craving.points * count


def _twin_headed_dragon(board: Board, craving: "Craving", rules: "RuleVersion") -> int:
    return craving.points * len(_twin_rows(board, rules))


def _twin_rows(board: Board, rules: "RuleVersion") -> list[str]:
    """The matched basic type of every row whose first and last cells agree."""
    basic = tile_kinds(rules)[0]
    out = []
    for r in range(board.rows):
        first, last = board.at(r, 0), board.at(r, board.cols - 1)
        if first == last and first in basic:
            out.append(first)
    return out


def _griffin(board: Board, craving: "Craving", rules: "RuleVersion") -> int:
    runs = _alternating_runs(board, rules, GRIFFIN_RUN)
    count = len(runs) if craving.overlap else max_disjoint(runs)
    return craving.points * count


def _troll(board: Board, craving: "Craving", rules: "RuleVersion") -> int:
    return craving.points * _troll_stacks(board).bit_count()


CRAVINGS: dict[str, CravingFn] = {
    "legendary-dragon": _legendary_dragon,
    "twin-headed-dragon": _twin_headed_dragon,
    "griffin": _griffin,
    "troll": _troll,
}


def score_craving(board: Board, monster: str, rules: "RuleVersion") -> int:
    """Points of `monster`'s personal craving on `board`."""
    return CRAVINGS[monster](board, rules.cravings[monster], rules)


# --- solo monster challenges -----------------------------------------------------
# Each returns (met, reason). Our reading of the published rules' SOLO CHALLENGES:

def _dragon_challenge(board: Board, rules: "RuleVersion") -> tuple[bool, str]:
    # "At least two of the 2x2 blocks of the same type must actually be a 2x3 block":
    # two 2x3 (or 3x2) blocks of one basic type that share no tile. Overlapping ones
    # would let a single 2x4 block pass, which is not two grown squares.
    h, w = DRAGON_BLOCK
    found = max_disjoint(_blocks(board, rules, h, w) + _blocks(board, rules, w, h))
    return found >= CHALLENGE_COUNT, f"{found} separate {h}x{w} block(s) of one type, need {CHALLENGE_COUNT}"


def _twin_challenge(board: Board, rules: "RuleVersion") -> tuple[bool, str]:
    # Every row scores, and the types of those matching pairs include every basic type.
    matched = _twin_rows(board, rules)
    missing = [t for t in tile_kinds(rules)[0] if t not in matched]
    if len(matched) < board.rows:
        return False, f"{len(matched)} of {board.rows} rows start and end with the same basic type, need all"
    if missing:
        return False, f"every row matches but no pair of {', '.join(missing)}"
    return True, f"all {board.rows} rows match, covering every basic type"


def _griffin_challenge(board: Board, rules: "RuleVersion") -> tuple[bool, str]:
    # Two alternating runs six tiles long (X Y X Y X Y in a row or column). Like the
    # craving's runs they may not share a tile, so a row and a column never both count.
    found = max_disjoint(_alternating_runs(board, rules, GRIFFIN_CHALLENGE_RUN))
    return found >= CHALLENGE_COUNT, f"{found} separate alternating run(s) of {GRIFFIN_CHALLENGE_RUN}, need {CHALLENGE_COUNT}"


def _troll_challenge(board: Board, rules: "RuleVersion") -> tuple[bool, str]:
    # Stacks (helmet over armor over boot) whose armor has a hand tile directly to its
    # left and directly to its right; the board edge is no hand.
    cols = board.cols
    flank = board.mask(TROLL_FLANK)
    first, last = board.geo.col_masks[0], board.geo.col_masks[-1]
    left_ok = (flank << 1) & ~first  # cell i has a hand at i - 1 (same row)
    right_ok = (flank >> 1) & ~last  # cell i has a hand at i + 1 (same row)
    armors = (_troll_stacks(board) << cols) & left_ok & right_ok
    found = armors.bit_count()
    return found >= CHALLENGE_COUNT, f"{found} stack(s) with a hand on both sides of the armor, need {CHALLENGE_COUNT}"


CHALLENGES: dict[str, Callable[[Board, "RuleVersion"], tuple[bool, str]]] = {
    "legendary-dragon": _dragon_challenge,
    "twin-headed-dragon": _twin_challenge,
    "griffin": _griffin_challenge,
    "troll": _troll_challenge,
}
