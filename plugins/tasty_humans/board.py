"""A monster's stomach: a grid of tiles, rows top to bottom, stored as bit masks.

Cell `i` is row `i // cols`, column `i % cols` (0-based, top-left first). Every tile type
(and LEADER, EMPTY) has one int whose bit `i` is set when cell `i` holds it, so most
scoring rules are a mask AND and a popcount. The geometry (neighbours, rays, lines) is
computed once per grid size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterable, Iterator, Mapping, TypeVar

# Cell kinds besides the tile type ids of the rule set; not slugs, so never a tile id.
LEADER = "@leader"
EMPTY = "@empty"
EMPTY_SYMBOL = "."

# (row step, column step) of the 8 rays; the first four are orthogonal.
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


T = TypeVar("T")


def bits(mask: int) -> Iterator[int]:
    """Indices of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Kept(dict):
    """A memo that starts afresh once it holds `limit` answers, so a long run of games
    keeps a bounded amount of them."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def keep(self, key: object, value: T) -> T:
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


@dataclass(frozen=True, eq=False)
class Ray:
    """Cells from a start cell outwards in one direction (start excluded)."""

    mask: int
    outward_up: bool  # True when cell indices grow along the ray (nearest = lowest bit)
    step: int  # index difference between consecutive cells of the ray (> 0)


@dataclass(eq=False)
class Geometry:
    """Everything about a rows x cols grid that does not depend on its tiles."""

    rows: int
    cols: int
    n: int = 0
    full: int = 0
    row_masks: list[int] = field(default_factory=list)
    col_masks: list[int] = field(default_factory=list)
    orth: list[int] = field(default_factory=list)  # orthogonal neighbours of each cell
    diag: list[int] = field(default_factory=list)  # diagonal neighbours of each cell
    ring: list[int] = field(default_factory=list)  # the 8 surrounding cells
    line: list[int] = field(default_factory=list)  # same row or column, cell excluded
    diagonals: list[int] = field(default_factory=list)  # both diagonals, cell excluded
    rays: list[tuple[Ray, ...]] = field(default_factory=list)  # 8 per cell, DIRECTIONS order
    checker: int = 0  # cells with (row + column) even: the 2 colours of the orthogonal graph
    even_rows: int = 0  # cells in even rows: the 2 colours of the diagonal graph
    expand_orth: Callable[[int], int] = None  # type: ignore[assignment]
    expand_diag: Callable[[int], int] = None  # type: ignore[assignment]
    degrees_orth: Callable[[int], tuple[int, int]] = None  # type: ignore[assignment]
    degrees_diag: Callable[[int], tuple[int, int]] = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        r, c = self.rows, self.cols
        self.n = r * c
        self.full = (1 << self.n) - 1
        self.row_masks = [((1 << c) - 1) << (i * c) for i in range(r)]
        self.col_masks = [sum(1 << (i * c + j) for i in range(r)) for j in range(c)]
        for i in range(self.n):
            row, col = divmod(i, c)
            rays = []
            for dr, dc in DIRECTIONS:
                mask, k = 0, 1
                while 0 <= row + k * dr < r and 0 <= col + k * dc < c:
                    mask |= 1 << ((row + k * dr) * c + col + k * dc)
                    k += 1
                delta = dr * c + dc
                rays.append(Ray(mask, delta > 0, abs(delta)))
            self.rays.append(tuple(rays))
            self.orth.append(sum(ray.mask & -ray.mask if ray.outward_up else _top_bit(ray.mask) for ray in rays[:4]))
            self.diag.append(sum(ray.mask & -ray.mask if ray.outward_up else _top_bit(ray.mask) for ray in rays[4:]))
            self.ring.append(self.orth[-1] | self.diag[-1])
            self.line.append(rays[0].mask | rays[1].mask | rays[2].mask | rays[3].mask)
            self.diagonals.append(rays[4].mask | rays[5].mask | rays[6].mask | rays[7].mask)
            if (row + col) % 2 == 0:
                self.checker |= 1 << i
            if row % 2 == 0:
                self.even_rows |= 1 << i
        full = self.full
        not_first = full & ~self.col_masks[0]
        not_last = full & ~self.col_masks[-1]

        # Shifting a whole mask moves every cell one step at once; the column masks drop
        # the cells that would wrap around to the other edge.
        def expand_orth(m: int) -> int:
            return (((m << 1) & not_first) | ((m >> 1) & not_last) | ((m << c) & full) | (m >> c))

        def expand_diag(m: int) -> int:
            return (((m << (c + 1)) & not_first) | ((m << (c - 1)) & not_last)
                    | ((m >> (c - 1)) & not_first) | ((m >> (c + 1)) & not_last)) & full

        def degrees(a: int, b: int, x: int, y: int) -> tuple[int, int]:
            two = (a & (b | x | y)) | (b & (x | y)) | (x & y)
            three = (a & b & (x | y)) | (x & y & (a | b))
            return two, three

        def degrees_orth(m: int) -> tuple[int, int]:
            return degrees((m << 1) & not_first, (m >> 1) & not_last, (m << c) & full, m >> c)

        def degrees_diag(m: int) -> tuple[int, int]:
            return degrees((m << (c + 1)) & not_first & full, (m << (c - 1)) & not_last & full,
                           (m >> (c - 1)) & not_first, (m >> (c + 1)) & not_last)

        self.expand_orth = expand_orth
        self.expand_diag = expand_diag
        # (cells with >= 2, cells with >= 3 neighbours in m), orthogonal / diagonal steps
        self.degrees_orth = degrees_orth
        self.degrees_diag = degrees_diag

    @lru_cache(maxsize=None)
    def within(self, cell: int, distance: int) -> int:
        """Cells at orthogonal walking distance 1..distance (Manhattan distance)."""
        row, col = divmod(cell, self.cols)
        return sum(
            1 << (i * self.cols + j)
            for i in range(self.rows)
            for j in range(self.cols)
            if 0 < abs(i - row) + abs(j - col) <= distance
        )

    def ray_distance(self, cell: int, ray: Ray, targets: int) -> int:
        """Steps from `cell` to the nearest target on `ray`, that cell counted; 0 if none."""
        hits = ray.mask & targets
        if not hits:
            return 0
        nearest = (hits & -hits).bit_length() - 1 if ray.outward_up else hits.bit_length() - 1
        return abs(nearest - cell) // ray.step


def _top_bit(mask: int) -> int:
    return 1 << (mask.bit_length() - 1) if mask else 0


@lru_cache(maxsize=None)
def geometry(rows: int, cols: int) -> Geometry:
    """The shared geometry of a rows x cols grid."""
    return Geometry(rows, cols)


class Board:
    """One stomach: `cells[i]` is a tile type id, LEADER or EMPTY; `leaders` maps cell -> leader id."""

    __slots__ = ("geo", "rows", "cols", "cells", "masks", "leaders")

    def __init__(self, rows: int, cols: int, cells: Iterable[str], leaders: Mapping[int, str] | None = None):
        self.geo = geometry(rows, cols)
        self.rows, self.cols = rows, cols
        self.cells: tuple[str, ...] = tuple(cells)
        if len(self.cells) != rows * cols:
            raise ValueError(f"expected {rows * cols} cells, got {len(self.cells)}")
        self.leaders: dict[int, str] = dict(leaders or {})
        masks: dict[str, int] = {LEADER: 0, EMPTY: 0}
        for i, kind in enumerate(self.cells):
            masks[kind] = masks.get(kind, 0) | (1 << i)
        self.masks = masks

    def mask(self, kind: str) -> int:
        """Cells holding `kind` (a tile type id, LEADER or EMPTY)."""
        return self.masks.get(kind, 0)

    def count(self, kind: str) -> int:
        return self.masks.get(kind, 0).bit_count()

    def at(self, row: int, col: int) -> str:
        return self.cells[row * self.cols + col]

    def position(self, cell: int) -> tuple[int, int]:
        """(row, column), 0-based, of a cell index."""
        return divmod(cell, self.cols)

    @property
    def is_full(self) -> bool:
        return not self.masks[EMPTY]

    def uncovered_leaders(self) -> list[int]:
        """Leader cells with nothing above them (top row, or an empty cell above): where
        the last tile a player dropped can be when that tile was a leader."""
        c, empty = self.cols, self.masks[EMPTY]
        return [cell for cell in sorted(self.leaders) if cell < c or empty >> (cell - c) & 1]

    def mirrored(self) -> "Board":
        """The board flipped left-right (leader ids travel with their tiles)."""
        c = self.cols
        flip = [(i // c) * c + (c - 1 - i % c) for i in range(self.rows * c)]
        cells = [self.cells[flip[i]] for i in range(len(flip))]
        return Board(self.rows, c, cells, {flip[i]: lid for i, lid in self.leaders.items()})

    def __repr__(self) -> str:
        return f"Board({self.rows}x{self.cols}, leaders={self.leaders})"


def split_row(text: str) -> list[str]:
    """The symbols of one written stomach row: `H A B G 1 .` or `HABG1.` (spaces optional).
    Only an ASCII space or tab separates: any other character is a symbol, to be checked."""
    return [ch for ch in text if ch not in " \t"]


def board_from_text(rows: str | list[str], symbols: Mapping[str, str], leaders: Mapping[str, str] | None = None) -> Board:
    """A board from written rows (`H A B G 1 .`): `symbols` maps tile symbols to types
    (RuleVersion.symbol_to_tile()), `leaders` maps digits to leader ids. No checks:
    sheets are checked by `sheet.check_sheet`."""
    lines = [split_row(r) for r in (rows.splitlines() if isinstance(rows, str) else rows) if r.strip()]
    leaders = leaders or {}
    cells: list[str] = []
    at: dict[int, str] = {}
    for row in lines:
        for sym in row:
            if sym in leaders:
                at[len(cells)] = leaders[sym]
                cells.append(LEADER)
            else:
                cells.append(EMPTY if sym == EMPTY_SYMBOL else symbols[sym])
    return Board(len(lines), len(lines[0]) if lines else 0, cells, at)


# --- longest simple paths ----------------------------------------------------------

def longest_path(geo: Geometry, starts: int, allowed: int, diagonal: bool) -> int:
    """Number of cells of the longest simple path that starts at one of the cells of
    mask `starts` and steps orthogonally (or diagonally) through cells of `allowed`
    (starts included); 0 when no start is allowed. Exact.

    Depth-first branch and bound, trying cells with the fewest onward moves first
    (Warnsdorff), which finds long paths early. Upper bounds on what a path can add:
    - colours (every node): both step graphs are bipartite, so a path alternates
      colours; a cell with a single neighbour can only be the last one;
    - blocks (each start only; too slow per node): a path entering the part of the
      region behind a cut cell never comes back, so of the parts hanging off one
      block it visits at most one (block-cut tree).
    The search stops as soon as a path meets the bound. `memo` keeps an upper bound per
    (head, reachable region), shared by every prefix that reaches the same state.
    """
    nbr = geo.diag if diagonal else geo.orth
    expand = geo.expand_diag if diagonal else geo.expand_orth
    colour = geo.even_rows if diagonal else geo.checker
    degrees = geo.degrees_diag if diagonal else geo.degrees_orth
    memo: dict[tuple[int, int], int] = {}

    def flood(seed: int, free: int) -> int:
        reach = seed
        while True:
            grown = reach | (expand(reach) & free)
            if grown == reach:
                return reach
            reach = grown

    def colour_bound(head: int, region: int) -> int:
        head_bit = 1 << head
        same = colour if head_bit & colour else ~colour
        ends = region & ~degrees(region | head_bit)[0]  # one neighbour: only last
        s = (region & same & ~ends).bit_count()  # head's colour: visited 2nd, 4th, ...
        o = (region & ~ends).bit_count() - s  # other colour: visited 1st, 3rd, ...
        best = 2 * s + 1 if o > s else 2 * o  # never entering a dead end
        if ends & ~same:  # ending on a dead end of the other colour: odd length
            best = max(best, 2 * min(o, s) + 1)
        if ends & same:  # ending on a dead end of head's colour: even length
            best = max(best, 2 * min(o, s + 1))
        return best

    def block_bound(head: int, region: int) -> int:
        verts = region | (1 << head)
        disc = {head: 0}
        stack: list[int] = []
        best_at: dict[int, int] = {}  # cell -> longest bound through blocks hanging there

        def visit(u: int) -> int:  # Tarjan: blocks come out children first
            low_u = disc[u]
            for v in bits(nbr[u] & verts):
                d = disc.get(v)
                if d is None:
                    disc[v] = len(disc)
                    stack.append(v)
                    low_v = visit(v)
                    if low_v >= disc[u]:  # v's subtree and u form a block hanging at u
                        size, extra = 0, 0
                        while True:
                            w = stack.pop()
                            size += 1
                            e = best_at.get(w, 0)
                            if e > extra:
                                extra = e
                            if w == v:
                                break
                        if size + extra > best_at.get(u, 0):
                            best_at[u] = size + extra
                    elif low_v < low_u:
                        low_u = low_v
                elif d < low_u:
                    low_u = d
            return low_u

        visit(head)
        return best_at.get(head, 0)

    best = 1
    target = 0  # a path this long cannot be beaten: stop searching

    def search(head: int, region: int, depth: int) -> int:
        """Explore paths continuing from `head`; return the longest extension seen."""
        nonlocal best
        need = best - depth  # an extension must be longer than this to matter
        key = (head, region)
        known = memo.get(key)
        if known is not None and known <= need:
            return 0
        limit = colour_bound(head, region)
        if limit <= need:
            memo[key] = limit
            return 0
        options = []
        for c in bits(nbr[head] & region):
            rest = region & ~(1 << c)
            onward = nbr[c] & rest
            options.append((onward.bit_count(), c, flood(onward, rest) if onward else 0))
        options.sort()  # Warnsdorff: fewest onward moves first finds long paths early
        found = 0
        for _, c, sub in options:
            if depth + 1 > best:
                best = depth + 1
            got = 1 + (search(c, sub, depth + 1) if sub else 0)
            if got > found:
                found = got
            if best >= target or found >= limit:
                break
        memo[key] = max(need, found)
        return found

    # Most promising start first: a long path found early prunes the others.
    order = []
    for start in bits(starts & allowed):
        rest = allowed & ~(1 << start)
        region = flood(nbr[start] & rest, rest)
        limit = min(colour_bound(start, region), block_bound(start, region)) if region else 0
        order.append((-limit, start, region))
    order.sort()
    best = 1 if order else 0
    for neg_limit, start, region in order:
        target = 1 - neg_limit
        if target <= best:
            break
        search(start, region, 1)
    return best
