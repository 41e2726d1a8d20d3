"""Personal cravings of the monsters and their solo monster challenges.

Each craving compiles, for a grid, the monster's `Craving` (points, overlap) and the
`RuleVersion`, into parts (`leader_scoring.Part`: a function of the board's masks, as
`Board.masks`, and the kinds it reads) whose points add up to the craving's, shared by
`pnp score` and the engine; the points come from `rules.cravings`. The patterns
themselves (2x2 squares, runs of four, helmet over armor over boot) are the monsters'
identity and live here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Callable

from pnp.api import counted

from .board import Board, Geometry, Kept, bits
from .leader_scoring import Masks, Part, part, tile_kinds

if TYPE_CHECKING:
    from .models import ChallengeNumbers, Craving, RuleVersion

CravingKind = Callable[[Geometry, "Craving", "RuleVersion"], list[Part]]

# Tile type ids of the troll's stack, top to bottom, and the tile the troll challenge
# wants on both sides of the armor.
TROLL_STACK = ("helmet", "armor", "boot")
TROLL_FLANK = "hand"
GRIFFIN_RUN = 4  # cells in a scoring run
# The solo challenges' numbers are rules.yaml solo.challenge_numbers (F289-295), which the
# monsters' printed `challenge` must show: the ones each challenge reads (checks.py).
CHALLENGE_READS = {
    "legendary-dragon": ("at_least", "dragon_block"),
    "griffin": ("at_least", "griffin_run"),
    "troll": ("at_least",),
}


def max_disjoint(sets: list[int]) -> int:
    """Largest number of pairwise disjoint masks among `sets` (exact; fine for ~40 sets)."""
    if len(sets) < 2:
        return sum(1 for s in sets if s)
    sets = list(dict.fromkeys(s for s in sets if s))
    n = len(sets)
    if n == 2:
        return 1 if sets[0] & sets[1] else 2
    union = 0
    for s in sets:
        union |= s
    if n < 2 or union.bit_count() == sum(s.bit_count() for s in sets):  # none shares a cell
        return n
    key = tuple(sets)
    got = _DISJOINT.get(key)
    return _DISJOINT.keep(key, _max_disjoint(sets)) if got is None else got


_DISJOINT = Kept(50_000)  # the engine asks about the same runs many times a turn


def _max_disjoint(sets: list[int]) -> int:
    n = len(sets)
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


def _blocks(masks: Masks, basic: tuple[str, ...], table: tuple[int, tuple[int, ...], dict[int, int]]) -> list[int]:
    """Every rectangle of a `_rect_table` whose cells are all one basic type, as masks."""
    starts, shifts, rect = table
    out: list[int] = []
    for t in basic:
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


def _run_finder(basic: tuple[str, ...], table: tuple[tuple[int, int, dict[int, int]], ...],
                length: int) -> Callable[[Masks], tuple[int, int]]:
    """A function of a board's masks giving the first cells of every run of `length` cells
    (a `_run_table`) alternating two basic types X Y X Y..., in a row and in a column (the
    griffin's hot path: one pass over the types, then a few whole-mask operations per
    direction, every shift worked out beforehand). Only shifts, AND, OR and NOT: the
    same function finds the runs of a batch of boards (`batch`: a numpy array per kind)."""
    (row_step, row_starts, _), (col_step, col_starts, _) = table
    row_two, col_two = 2 * row_step, 2 * col_step
    further = [(k * row_step, k * col_step) for k in range(1, length - 2)]

    def starts(masks: Masks) -> tuple[int, int]:
        # per direction: cells equal (one basic type) to the cell 2 steps on, and to the next cell
        row_skip = row_next = col_skip = col_next = 0
        for t in basic:
            m = masks.get(t)
            if m is not None:
                row_skip |= m & (m >> row_two)
                row_next |= m & (m >> row_step)
                col_skip |= m & (m >> col_two)
                col_next |= m & (m >> col_step)
        rows = row_starts & row_skip & ~row_next
        cols = col_starts & col_skip & ~col_next
        for r, c in further:
            rows &= row_skip >> r
            cols &= col_skip >> c
        return rows, cols
    return starts


def _alternating_runs(masks: Masks, basic: tuple[str, ...], table: tuple[tuple[int, int, dict[int, int]], ...],
                      length: int) -> list[int]:
    """Every run of `length` cells (a `_run_table`) in a row or column alternating two
    basic types X Y X Y..., as masks."""
    return _runs(table, _run_finder(basic, table, length)(masks))


def _runs(table: tuple[tuple[int, int, dict[int, int]], ...], starts: tuple[int, int]) -> list[int]:
    """The runs (masks) of a `_run_table` starting at the cells of `starts` (rows, columns)."""
    return [window[s] for (_, _, window), hit in zip(table, starts) for s in bits(hit)]


def _troll_stacks(masks: Masks, cols: int) -> int:
    """Cells of helmets resting on an armor resting on a boot."""
    top, mid, low = TROLL_STACK
    return masks.get(top, 0) & (masks.get(mid, 0) >> cols) & (masks.get(low, 0) >> (2 * cols))


def _legendary_dragon(geo: Geometry, craving: "Craving", rules: "RuleVersion") -> list[Part]:
    basic, points = tile_kinds(rules)[0], craving.points
    table = _rect_table(geo.rows, geo.cols, 2, 2)
    starts, shifts = table[0], table[1]
    if not craving.overlap:
        return [part(lambda m: points * max_disjoint(_blocks(m, basic, table)), basic)]

    def squares(t: str) -> Part:  # overlapping squares: each type on its own
        def score(m: Masks) -> int:
            mask = m.get(t, 0)
            hit = starts & mask  # the squares themselves are not needed: count their top-left cells
            for k in shifts:
                if not hit:
                    break
                hit &= mask >> k
            return points * hit.bit_count()
        return part(score, [t])
    return [squares(t) for t in basic]


def _twin_headed_dragon(geo: Geometry, craving: "Craving", rules: "RuleVersion") -> list[Part]:
    points, first, span = craving.points, geo.col_masks[0], geo.cols - 1

    def rows(t: str) -> Part:  # rows starting and ending with a `t`
        def score(m: Masks) -> int:
            mask = m.get(t, 0)
            return points * (mask & first & (mask >> span)).bit_count()
        return part(score, [t])
    return [rows(t) for t in tile_kinds(rules)[0]]


def _twin_rows(board: Board, rules: "RuleVersion") -> list[str]:
    """The matched basic type of every row whose first and last cells agree."""
    basic = tile_kinds(rules)[0]
    out = []
    for r in range(board.rows):
        first, last = board.at(r, 0), board.at(r, board.cols - 1)
        if first == last and first in basic:
            out.append(first)
    return out


def _griffin(geo: Geometry, craving: "Craving", rules: "RuleVersion") -> list[Part]:
    basic, points, overlap = tile_kinds(rules)[0], craving.points, craving.overlap
    table = _run_table(geo.rows, geo.cols, GRIFFIN_RUN)
    run_starts = _run_finder(basic, table, GRIFFIN_RUN)

    def score(m: Masks) -> int:
        rows, cols = run_starts(m)
        if not (rows or cols):
            return 0
        found = rows.bit_count() + cols.bit_count()
        if overlap or found == 1:
            return points * found
        return points * max_disjoint(_runs(table, (rows, cols)))
    return [part(score, basic)]


def _troll(geo: Geometry, craving: "Craving", rules: "RuleVersion") -> list[Part]:
    points, cols = craving.points, geo.cols
    return [part(lambda m: points * _troll_stacks(m, cols).bit_count(), TROLL_STACK)]


# Cravings whose score depends on `overlap` (rules.yaml cravings.<id>.overlap): their
# printed text must state it (monsters.yaml `overlap`, checked by checks.py).
READS_OVERLAP = frozenset({"legendary-dragon", "griffin"})

CRAVINGS: dict[str, CravingKind] = {
    "legendary-dragon": _legendary_dragon,
    "twin-headed-dragon": _twin_headed_dragon,
    "griffin": _griffin,
    "troll": _troll,
}


def craving_scorer(geo: Geometry, monster: str, rules: "RuleVersion") -> list[Part]:
    """`monster`'s personal craving on a `geo` grid under `rules`: parts whose points add up."""
    return CRAVINGS[monster](geo, rules.cravings[monster], rules)


def score_craving(board: Board, monster: str, rules: "RuleVersion") -> int:
    """Points of `monster`'s personal craving on `board`."""
    return sum(p.fn(board.masks) for p in craving_scorer(board.geo, monster, rules))


# --- solo monster challenges -----------------------------------------------------
# Each returns (met, reason). Our reading of the published rules' SOLO CHALLENGES:

def _numbers(rules: "RuleVersion") -> "ChallengeNumbers":
    """rules.yaml solo.challenge_numbers; a version without them has no monster challenges,
    which score_solo refuses before asking for a verdict."""
    numbers = rules.solo.challenge_numbers
    if numbers is None:
        raise ValueError(f"{rules.title} have no monster challenges")
    return numbers


def _dragon_challenge(board: Board, rules: "RuleVersion") -> tuple[bool, str]:
    # "At least two of the 2x2 blocks of the same type must actually be a 2x3 block"
    # (F289): two distinct 2x3 (or 3x2) blocks, each of one basic type. They may overlap
    # (rules.yaml rulings.challenge_overlap), as the dragon's squares do.
    numbers = _numbers(rules)
    (h, w), need = numbers.dragon_block, numbers.at_least
    basic, rows, cols = tile_kinds(rules)[0], board.rows, board.cols
    found = len(_blocks(board.masks, basic, _rect_table(rows, cols, h, w)))
    if w != h:  # either way round; a square block is one shape
        found += len(_blocks(board.masks, basic, _rect_table(rows, cols, w, h)))
    return found >= need, f"{counted(found, f'{h}x{w} block')} of one type, need {need}{_may_share(rules)}"


def _may_share(rules: "RuleVersion") -> str:
    """The reading of shared tiles, printed with the dragon's and the griffin's verdict."""
    reading = rules.rulings.challenge_overlap
    return f" ({reading.says})" if reading is not None else ""


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
    # "At least two of the Griffin's alternating patterns must be six tiles long" (F293):
    # two distinct runs X Y X Y X Y in a row or column. They may share a tile (rules.yaml
    # rulings.challenge_overlap): F315's "no tile in two groups" is the craving's, for its
    # groups of four.
    numbers = _numbers(rules)
    run, need = numbers.griffin_run, numbers.at_least
    table = _run_table(board.rows, board.cols, run)
    found = len(_alternating_runs(board.masks, tile_kinds(rules)[0], table, run))
    return found >= need, f"{counted(found, 'alternating run')} of {run}, need {need}{_may_share(rules)}"


def _troll_challenge(board: Board, rules: "RuleVersion") -> tuple[bool, str]:
    # Stacks (helmet over armor over boot) whose armor has a hand tile directly to its
    # left and directly to its right; the board edge is no hand.
    cols = board.cols
    flank = board.mask(TROLL_FLANK)
    first, last = board.geo.col_masks[0], board.geo.col_masks[-1]
    left_ok = (flank << 1) & ~first  # cell i has a hand at i - 1 (same row)
    right_ok = (flank >> 1) & ~last  # cell i has a hand at i + 1 (same row)
    armors = (_troll_stacks(board.masks, cols) << cols) & left_ok & right_ok
    found = armors.bit_count()
    need = _numbers(rules).at_least
    return found >= need, f"{counted(found, 'stack')} with a hand on both sides of the armor, need {need}"


CHALLENGES: dict[str, Callable[[Board, "RuleVersion"], tuple[bool, str]]] = {
    "legendary-dragon": _dragon_challenge,
    "twin-headed-dragon": _twin_challenge,
    "griffin": _griffin_challenge,
    "troll": _troll_challenge,
}
