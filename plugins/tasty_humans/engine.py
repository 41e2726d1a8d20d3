"""Tasty Humans rules engine: plays whole games, 1-4 players, either rule version.

Every number comes from the loaded content (rules.yaml, adventurers.yaml, leaders.yaml,
monsters.yaml); final scores come from the scorer (`score_player`, `rank_players`,
`score_solo`). Rule references are to /work/shared/rules/tasty-humans-rules-final.txt
("final") and tasty-humans-rules-0.2.8.txt ("0.2.8"); the two agree on everything the
engine does, only the rule set's numbers and tie-break differ.

The stomach is a row-major list of cells (row 0 is the top row) with a height per
column; tiles always fall to the lowest empty cell of their column.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Protocol, Sequence

import numpy as np

from .batch import BatchFn, batch_of, craving_batch, damage_batch, leader_batch
from .board import EMPTY, EMPTY_SYMBOL, LEADER, Board, Geometry, Kept, bits, geometry
from .craving_scoring import craving_scorer
from .leader_scoring import MaskFn, Masks, Part, damage_of, leader_scorer, part, tile_kinds
from .scoring import PlayerScore, rank_players, score_player, score_solo
from .sheet import asks_king_token

if TYPE_CHECKING:
    from pnp.api import GameContent

    from .models import Adventurer, Leader, RuleVersion

GRID = 3  # the Attacking Adventurers grid is 3 x 3 (final: SETUP)
DAMAGE = "damage"  # the tile type id the engine drops for each point of damage
DAMAGED = frozenset([DAMAGE, EMPTY])  # the kinds a damage tile changes
SWORDSMAN, ARCHER, WIZARD, CAPTAIN, CLERIC = "swordsman", "archer", "wizard", "captain", "cleric"
SNAKE_TURNS = 2  # turns a player takes in one snake draft (clockwise, then back): how `order` plays rules.yaml turns_a_round
# How a game ended, in the words of the scoring sheet's `ending:`.
ROUND = "round"  # a stomach filled while eating an adventurer: the round was finished
LEADER_PHASE = "leader-phase"  # a stomach filled with a dropped leader: the game ended at once


# --- static data -------------------------------------------------------------------

Drop = tuple[tuple[str, ...], ...]  # per shape column, tile types bottom to top


def rotations(card: "Adventurer", rules: "RuleVersion") -> list[Drop]:
    """The distinct ways to drop a card's shape: 4 rotations (final: EAT-ADVENTURER), each as
    per-column stacks. Gaps inside a column close as tiles fall, so stacks are all that matter."""
    cells = card.cells(rules.tiles)
    grid = {(r, c): t for r, c, t in cells}
    out: list[Drop] = []
    for _ in range(4):
        rows = max(r for r, _ in grid) + 1
        cols = max(c for _, c in grid) + 1
        drop = tuple(tuple(grid[(r, c)] for r in range(rows - 1, -1, -1) if (r, c) in grid) for c in range(cols))
        if drop not in out:
            out.append(drop)
        grid = {(c, rows - 1 - r): t for (r, c), t in grid.items()}  # quarter turn clockwise
    return out


@dataclass
class Setup:
    """What a game needs from the content, loaded once per process."""

    version: str
    rules: "RuleVersion"
    adventurers: list["Adventurer"]
    leaders: dict[str, "Leader"]
    monsters: list[str]
    drops: dict[str, tuple[Drop, ...]]
    solo_level: int  # the A.I.'s level in a solo game
    changes: dict[str, Any] = field(default_factory=dict)  # rule values changed from `version` (RuleVersion.with_changes)
    # (id of one of `drops`, rows) -> per offset, heights code -> its landing's number (`landings`)
    landings: dict[tuple[int, int], list[tuple[int, int, dict[int, int]]]] = field(default_factory=dict)
    # (rows, columns, monster) -> its Scorer, shared by the games of this setup
    scorers: dict[tuple[int, int, str], "Scorer"] = field(default_factory=dict)
    # (id of a card's drops, rows) -> every (drop, offset, shift, mask, table) (`placements`)
    placements: dict[tuple[int, int], list[tuple[Drop, int, int, int, dict[int, int]]]] = field(default_factory=dict)
    # the distinct landings, numbered: drops that land the same tiles share one
    lands: list["Landing"] = field(default_factory=list)
    canonical: dict[tuple[tuple[tuple[str, int], ...], int], int] = field(default_factory=dict)
    # the masks a batch holds (every tile type, LEADER, EMPTY), and per landing (row) and
    # kind (column) the cells it adds (for EMPTY: the cells it fills)
    kinds: tuple[str, ...] = ()
    adds: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.uint64))
    landed: frozenset[str] = frozenset()  # the kinds a card's shape can land
    # (id of a card's drops, rows, heights code) -> its `landing_numbers`
    numbered: Kept = field(default_factory=lambda: Kept(NUMBERED))

    def __post_init__(self) -> None:
        basic, other = tile_kinds(self.rules)
        self.kinds = (*basic, *other, LEADER, EMPTY)
        self.landed = frozenset(k for drops in self.drops.values() for d in drops for stack in d for k in stack)
        self.adds = np.zeros((256, len(self.kinds)), dtype=np.uint64)

    def number(self, land: "Landing | None") -> int:
        """The number of a landing (NOWHERE for None): its place in `lands` and `adds`."""
        if land is None:
            return NOWHERE
        got = self.canonical.get(land[:2])
        if got is None:
            got = self.canonical[land[:2]] = len(self.lands)
            self.lands.append(land)
            if got == len(self.adds):
                self.adds = np.concatenate([self.adds, np.zeros_like(self.adds)])
            row = [0] * len(self.kinds)
            for kind, cells in land[0]:
                row[self.kinds.index(kind)] = cells
            row[-1] = land[1]
            self.adds[got] = row
        return got

    @classmethod
    def from_game(cls, game: "GameContent", version: str | None = None, rules: "RuleVersion | None" = None,
                  solo_level: int | None = None, changes: dict[str, Any] | None = None) -> "Setup":
        """`changes`: the values `rules` changed from `version` (RuleVersion.with_changes),
        written on every sheet so that `pnp score` scores it alike. `solo_level`: None
        plays the rules' default (rules.yaml solo, `Solo.default_level`)."""
        rule_set = game.data["rules"]
        version = version or rule_set.default
        rules = rules or rule_set.version(version)
        adventurers = list(game.data["adventurers"].adventurers)
        return cls(
            version=version,
            rules=rules,
            adventurers=adventurers,
            leaders={l.id: l for l in game.data["leaders"].leaders},
            monsters=[m.id for m in game.data["monsters"].monsters],
            drops={a.id: tuple(rotations(a, rules)) for a in adventurers},
            solo_level=rules.solo.default_level() if solo_level is None else solo_level,
            changes=dict(changes or {}),
        )

    def scorer(self, rows: int, cols: int, monster: str) -> "Scorer":
        """The monster's Scorer on a rows x cols stomach, compiled once per setup."""
        got = self.scorers.get((rows, cols, monster))
        if got is None:
            got = self.scorers[(rows, cols, monster)] = Scorer(geometry(rows, cols), monster, self.rules, self.leaders)
        return got


# --- one stomach -------------------------------------------------------------------

class Stomach:
    """A monster's stomach: cells row-major from the top, column heights, leaders by cell."""

    __slots__ = ("rows", "cols", "cells", "heights", "leaders", "order", "masks")

    def __init__(self, rows: int, cols: int):
        self.rows, self.cols = rows, cols
        self.cells = [EMPTY] * (rows * cols)
        self.heights = [0] * cols
        self.leaders: dict[int, str] = {}
        self.order: list[str] = []  # leader ids in the order eaten (their sheet digits)
        # kind -> bit mask of its cells, kept up to date so a Board costs nothing to make
        self.masks: dict[str, int] = {LEADER: 0, EMPTY: (1 << (rows * cols)) - 1}

    def copy(self) -> "Stomach":
        s = Stomach.__new__(Stomach)
        s.rows, s.cols = self.rows, self.cols
        s.cells, s.heights = self.cells[:], self.heights[:]
        s.leaders, s.order, s.masks = dict(self.leaders), self.order[:], dict(self.masks)
        return s

    def _set(self, cell: int, kind: str) -> None:
        bit = 1 << cell
        masks = self.masks
        old = self.cells[cell]
        masks[old] ^= bit
        masks[kind] = masks.get(kind, 0) | bit
        self.cells[cell] = kind

    @property
    def full(self) -> bool:
        return min(self.heights) == self.rows

    def open_columns(self) -> list[int]:
        return [c for c, h in enumerate(self.heights) if h < self.rows]

    def push(self, col: int, kind: str, leader: str | None = None) -> int:
        """Drop one tile into `col`; return its cell. Tiles stop on the lowest empty cell."""
        cell = (self.rows - 1 - self.heights[col]) * self.cols + col
        self._set(cell, LEADER if leader else kind)
        self.heights[col] += 1
        if leader:
            self.leaders[cell] = leader
            self.order.append(leader)
        return cell

    def drop(self, drop: Drop, offset: int) -> int:
        """Drop a shape with its first column over `offset`; tiles over full columns are
        ignored (final: EAT-ADVENTURER). Returns the tiles that landed."""
        landed = 0
        for i, stack in enumerate(drop):
            col = offset + i
            room = self.rows - self.heights[col]
            for kind in stack[:room]:
                self.push(col, kind)
                landed += 1
        return landed

    def options(self, drops: Sequence[Drop]) -> list[tuple[Drop, int]]:
        """Every legal (drop, offset): each rotation over each column where it lands."""
        rows, heights = self.rows, self.heights  # `lands`: some covered column has room
        return [(d, o) for d in drops for o in range(self.cols - len(d) + 1) if min(heights[o:o + len(d)]) < rows]

    def lands(self, drop: Drop, offset: int) -> bool:
        """At least one tile must fall into the stomach."""
        return any(self.heights[offset + i] < self.rows for i in range(len(drop)))

    def remove(self, cell: int) -> None:
        """Take a tile out; the tiles above it fall one cell (final: Cleric)."""
        col = cell % self.cols
        top = (self.rows - self.heights[col]) * self.cols + col
        c = cell
        while c > top:
            above = c - self.cols
            self._set(c, self.cells[above])
            if above in self.leaders:
                self.leaders[c] = self.leaders.pop(above)
            c = above
        self._set(top, EMPTY)
        self.heights[col] -= 1

    def swap(self, a: int, b: int) -> None:
        """Swap two tiles (final: Wizard); a leader moves with its tile."""
        ka, kb = self.cells[a], self.cells[b]
        self._set(a, kb)
        self._set(b, ka)
        la, lb = self.leaders.pop(a, None), self.leaders.pop(b, None)
        if la:
            self.leaders[b] = la
        if lb:
            self.leaders[a] = lb

    def swaps(self) -> list[tuple[int, int]]:
        """Every pair of orthogonally adjacent tiles (never an empty cell)."""
        out = []
        cols, cells = self.cols, self.cells
        for i, kind in enumerate(cells):
            if kind == EMPTY:
                continue
            if i % cols < cols - 1 and cells[i + 1] != EMPTY:
                out.append((i, i + 1))
            if i + cols < len(cells) and cells[i + cols] != EMPTY:
                out.append((i, i + cols))
        return out

    def board(self) -> Board:
        """The stomach as the scorer's Board, built from the kept masks."""
        b = Board.__new__(Board)
        b.geo, b.rows, b.cols = geometry(self.rows, self.cols), self.rows, self.cols
        b.cells, b.leaders, b.masks = tuple(self.cells), self.leaders, self.masks
        return b

    def damage_cells(self) -> list[int]:
        return list(bits(self.masks.get(DAMAGE, 0)))

    def text_rows(self, symbols: dict[str, str]) -> list[str]:
        """The stomach as sheet rows (`H A B G 1 .`), leaders as their digit."""
        digit = {lid: str(i + 1) for i, lid in enumerate(self.order)}
        out = []
        for r in range(self.rows):
            row = []
            for c in range(self.cols):
                i = r * self.cols + c
                k = self.cells[i]
                row.append(digit[self.leaders[i]] if k == LEADER else EMPTY_SYMBOL if k == EMPTY else symbols[k])
            out.append(" ".join(row))
        return out


# --- players -----------------------------------------------------------------------

class Player(Protocol):
    """A strategy: every decision of the rules is one method returning an option."""

    name: str

    def pick(self, game: "Game", seat: int) -> int: ...  # a grid slot
    def damage_column(self, game: "Game", seat: int) -> int: ...
    def cleric(self, game: "Game", seat: int, cells: list[int]) -> int: ...
    def place(self, game: "Game", seat: int, options: list[tuple[Drop, int]]) -> int: ...
    def swap(self, game: "Game", seat: int, pairs: list[tuple[int, int]]) -> int: ...
    def draft(self, game: "Game", seat: int, offered: list[str]) -> int: ...
    def leader_column(self, game: "Game", seat: int, leader: str) -> int: ...


REMEMBERED = 1024  # points kept per kind before its memo starts afresh (a game meets ~300)
SUMS = 64  # such memos per seat's scorer (one per kind and set of leaders reading it alone)
ARRANGED = 64  # sets of leaders per seat's scorer whose arranged Parts are kept


class Parts:
    """A seat's parts for one set of leaders, arranged for the hot loop: the parts that
    read one kind summed per kind and remembered by that kind's mask (a turn's candidates
    repeat it often: a drop that lands no helmet leaves every helmet part as it was), the
    parts reading several kinds as they are (they repeat less and cost more to key)."""

    __slots__ = ("single", "multi", "reading")

    def __init__(self, parts: Sequence[Part], sums: dict[tuple[object, ...], tuple[Kept, Callable[[int], int]]]):
        by_kind: dict[str, list[MaskFn]] = {}
        self.multi: list[Part] = []
        for p in parts:
            if len(p.reads) == 1:
                by_kind.setdefault(next(iter(p.reads)), []).append(p.fn)
            else:
                self.multi.append(p)
        # kind -> (memo: mask -> points, points of a mask), shared through `sums` by every
        # set of leaders with the same parts reading that kind alone
        self.single: dict[str, tuple[Kept, Callable[[int], int]]] = {}
        for k, fns in by_kind.items():
            key = (k, *fns)
            got = sums.get(key)
            self.single[k] = got if got is not None else sums.setdefault(key, _summed(k, fns))
        # changed kinds -> (those read alone, positions in `multi` of the parts reading one)
        self.reading: dict[frozenset[str], tuple[tuple[str, ...], tuple[int, ...]]] = {}

    def read(self, kinds: frozenset[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
        got = self.reading.get(kinds)
        if got is None:
            got = self.reading[kinds] = (tuple(k for k in kinds if k in self.single),
                                         tuple(i for i, p in enumerate(self.multi) if not p.reads.isdisjoint(kinds)))
        return got

    def value(self, masks: Masks) -> int:
        total = 0
        for kind, (memo, points) in self.single.items():
            mask = masks.get(kind, 0)
            got = memo.get(mask)
            total += points(mask) if got is None else got
        for p in self.multi:
            total += p.fn(masks)
        return total


def _summed(kind: str, fns: list[MaskFn]) -> tuple[Kept, Callable[[int], int]]:
    """The points of parts that read `kind` alone, as a function of its mask, remembered."""
    memo = Kept(REMEMBERED)

    def points(mask: int) -> int:
        m = {kind: mask}  # a part reading one kind is a function of that mask alone
        got = 0
        for fn in fns:
            got += fn(m)
        return memo.keep(mask, got)
    return memo, points


class Scorer:
    """One seat's score on a stomach's masks: leaders in it, craving and damage (no king),
    as the scorer's own parts (`craving_scorer`, `leader_scorer`), compiled once per setup
    (a leader once per cell it lies in). A candidate stomach that differs from a scored
    one in a few masks is scored by re-running only the parts that read them."""

    __slots__ = ("geo", "rules", "defs", "fixed", "compiled", "arranged", "sums", "batch_fixed", "batch_compiled",
                 "batches")

    def __init__(self, geo: Geometry, monster: str, rules: "RuleVersion", defs: dict[str, "Leader"]):
        self.geo, self.rules, self.defs = geo, rules, defs
        other, penalty, expand = tile_kinds(rules)[1], rules.damage_penalty, geo.expand_orth

        def damage(m: Masks) -> int:  # each damage tile next to another one
            d = damage_of(m, other)
            return -penalty * (d & expand(d)).bit_count() if d else 0

        self.fixed = [*craving_scorer(geo, monster, rules), part(damage, other)]
        # the same parts on arrays of masks (`batch`): the greedy player's candidates
        self.batch_fixed = [craving_batch(geo, monster, rules), damage_batch(geo, rules)]
        self.batch_compiled: dict[tuple[int, str], BatchFn] = {}
        self.batches: Kept = Kept(ARRANGED)  # leaders (cell, id) -> their batch forms
        self.compiled: dict[tuple[int, str], Part] = {}
        self.arranged: Kept = Kept(ARRANGED)  # leaders (cell, id) -> their Parts
        self.sums: Kept = Kept(SUMS)  # (kind, parts reading it alone) -> Parts.single

    def leader(self, cell: int, lid: str) -> Part:
        got = self.compiled.get((cell, lid))
        if got is None:
            got = self.compiled[(cell, lid)] = leader_scorer(self.geo, cell, self.defs[lid], self.rules)
        return got

    def parts(self, leaders: dict[int, str]) -> Parts:
        """Craving, damage and the leaders lying at these cells."""
        key = tuple(leaders.items())
        got = self.arranged.get(key)
        if got is None:
            got = self.arranged.keep(key, Parts(self.fixed + [self.leader(cell, lid) for cell, lid in key], self.sums))
        return got

    def value(self, masks: Masks, leaders: dict[int, str]) -> int:
        return self.parts(leaders).value(masks)

    def batch(self, leaders: dict[int, str], landed: frozenset[str]) -> tuple[list[BatchFn], list[MaskFn]]:
        """`parts(leaders)` for a batch of stomachs that differ from theirs in `landed`
        kinds only: (those reading such a kind as functions of the batch's masks
        (`batch`), the rest as they are, to score on each stomach once)."""
        key = tuple(leaders.items())
        got = self.batches.get(key)
        if got is None:
            arrays: list[BatchFn] = []
            scalars: list[MaskFn] = []
            forms = [(self.batch_fixed[0], self.fixed[:-1]), (self.batch_fixed[1], self.fixed[-1:])]
            for cell, lid in key:
                fn = self.batch_compiled.get((cell, lid))
                if fn is None:
                    fn = self.batch_compiled[(cell, lid)] = leader_batch(self.geo, cell, self.defs[lid], self.rules)
                forms.append((fn, [self.leader(cell, lid)]))
            for fn, parts in forms:
                if any(not p.reads.isdisjoint(landed) for p in parts):
                    arrays.append(fn)
                else:
                    scalars.extend(p.fn for p in parts)
            got = self.batches.keep(key, (arrays, scalars))
        return got


def evaluate(game: "Game", seat: int, stomach: Stomach) -> int:
    """The seat's current score on `stomach`: leaders in it, craving and damage (no king)."""
    return game.scorers[seat].value(stomach.masks, stomach.leaders)


# What a candidate re-scores when some kinds change: (points of the parts reading none of
# them, the parts reading a changed kind along with others); the parts reading a changed
# kind alone are in `Changes.alone`
Redo = tuple[int, list[MaskFn]]


class Changes:
    """Scores candidates that add tiles to one base stomach: a candidate's points are the
    base's, with the parts that read a changed kind scored again on its masks."""

    __slots__ = ("base", "parts", "single", "alone", "multi", "total", "redo")

    def __init__(self, parts: Parts, base: Masks):
        self.base, self.parts = base, parts
        self.single: dict[str, int] = {}
        for k, (memo, points) in parts.single.items():
            got = memo.get(base.get(k, 0))
            self.single[k] = points(base.get(k, 0)) if got is None else got
        # kind -> (memo, the base's mask, points of a mask) of the parts reading it alone
        self.alone = {k: (memo, base.get(k, 0), points) for k, (memo, points) in parts.single.items()}
        self.multi = [p.fn(base) for p in parts.multi]
        self.total = sum(self.single.values()) + sum(self.multi)
        self.redo: dict[frozenset[str], Redo] = {}

    def todo(self, kinds: frozenset[str]) -> Redo:
        got = self.redo.get(kinds)
        if got is None:
            alone, several = self.parts.read(kinds)
            kept = self.total
            for k in alone:
                kept -= self.single[k]
            multi = self.parts.multi
            for i in several:
                kept -= self.multi[i]
            got = self.redo[kinds] = (kept, [multi[i].fn for i in several])
        return got

    def rescored(self, m: Masks, kinds: frozenset[str]) -> int:
        """Points of masks `m` that differ from the base only in `kinds`."""
        kept, fns = self.todo(kinds)
        alone = self.alone
        for k in kinds:
            s = alone.get(k)
            if s is not None:
                memo, _, points = s
                mask = m.get(k, 0)
                got = memo.get(mask)
                kept += points(mask) if got is None else got
        for fn in fns:
            kept += fn(m)
        return kept

    def value(self, adds: Sequence[tuple[str, int]], filled: int, kinds: frozenset[str]) -> int:
        """Points after OR-ing `adds` (kind, cells) into the base; `filled`: all those cells,
        `kinds`: the kinds among `adds`."""
        m = dict(self.base)
        for kind, cells in adds:
            m[kind] = m.get(kind, 0) | cells
        m[EMPTY] ^= filled
        return self.rescored(m, kinds)


def push_values(game: "Game", seat: int, stomach: Stomach, cols: Sequence[int], kind: str,
                leader: str | None = None, changes: Changes | None = None) -> list[int]:
    """The seat's score after `Stomach.push(col, kind, leader)`, for each of `cols`, on the
    masks alone (as `evaluate` on a pushed copy; `changes`: the stomach's, if the caller
    has it)."""
    if leader:
        return leader_values(game, seat, stomach, cols, [leader], changes)[0]
    rows, width, heights = stomach.rows, stomach.cols, stomach.heights
    if changes is None:
        changes = Changes(game.scorers[seat].parts(stomach.leaders), stomach.masks)
    kinds = frozenset([kind])
    kept, fns = changes.todo(kinds)
    alone = changes.alone.get(kind)
    out = []
    for col in cols:
        bit = 1 << (rows - 1 - heights[col]) * width + col
        if fns:
            out.append(changes.value(((kind, bit),), bit, kinds))
        elif alone is None:
            out.append(kept)
        else:  # only parts reading `kind` alone (damage): their memo, no masks to copy
            memo, mask, points = alone
            got = memo.get(mask | bit)
            out.append(kept + (points(mask | bit) if got is None else got))
    return out


def damage_values(game: "Game", seat: int, stomach: Stomach, cols: Sequence[int]) -> list[int]:
    """`push_values` of a damage tile in each of `cols`, less the points of the parts that
    read no damage (they are the same whatever the column): only the parts reading damage
    are scored, so the columns compare (and tie) as by their whole scores."""
    parts = game.scorers[seat].parts(stomach.leaders)
    alone, several = parts.read(DAMAGED)
    masks, rows, width, heights = stomach.masks, stomach.rows, stomach.cols, stomach.heights
    out = []
    for col in cols:
        bit = 1 << (rows - 1 - heights[col]) * width + col
        points = 0
        for kind in alone:
            memo, score = parts.single[kind]
            mask = masks.get(kind, 0) ^ bit  # the tile's cell leaves EMPTY, joins DAMAGE
            got = memo.get(mask)
            points += score(mask) if got is None else got
        if several:
            m = dict(masks)
            m[DAMAGE] = m.get(DAMAGE, 0) | bit
            m[EMPTY] ^= bit
            for i in several:
                points += parts.multi[i].fn(m)
        out.append(points)
    return out


def leader_values(game: "Game", seat: int, stomach: Stomach, cols: Sequence[int], leaders: Sequence[str],
                  changes: Changes | None = None) -> list[list[int]]:
    """`push_values` of a new leader tile in each of `cols`, for each of `leaders`: the
    parts already in the stomach score a leader tile the same whichever leader it is."""
    scorer = game.scorers[seat]
    rows, width, heights = stomach.rows, stomach.cols, stomach.heights
    if changes is None:
        changes = Changes(scorer.parts(stomach.leaders), stomach.masks)
    kinds = frozenset([LEADER])
    pushed = []  # per column: the new tile's cell, the other parts' points, the masks
    for col in cols:
        cell = (rows - 1 - heights[col]) * width + col
        m = dict(stomach.masks)
        m[LEADER] = m.get(LEADER, 0) | 1 << cell
        m[EMPTY] ^= 1 << cell
        pushed.append((cell, changes.rescored(m, kinds), m))
    return [[points + scorer.leader(cell, lid).fn(m) for cell, points, m in pushed] for lid in leaders]


def swap_values(game: "Game", seat: int, stomach: Stomach, pairs: Sequence[tuple[int, int]]) -> list[int]:
    """The seat's score after `Stomach.swap(a, b)`, for each pair, as `evaluate` on a
    swapped copy: two tiles of different kinds only rescore the parts reading them; a
    leader moving changes the leaders' own parts, so that pair is scored on a copy."""
    changes = Changes(game.scorers[seat].parts(stomach.leaders), stomach.masks)
    cells, masks = stomach.cells, stomach.masks
    out = []
    for a, b in pairs:
        ka, kb = cells[a], cells[b]
        if LEADER in (ka, kb):
            s = stomach.copy()
            s.swap(a, b)
            out.append(evaluate(game, seat, s))
        elif ka == kb:
            out.append(changes.total)
        else:
            m = dict(masks)
            both = 1 << a | 1 << b
            m[ka] ^= both
            m[kb] ^= both
            out.append(changes.rescored(m, frozenset((ka, kb))))
    return out


# The tiles a drop lands: (tile kind, its cells) pairs, all the cells filled, the kinds;
# None: no tile lands (every covered column is full), numbered NOWHERE in a setup's tables.
Landing = tuple[tuple[tuple[str, int], ...], int, frozenset[str]]
NOWHERE = -1
UNMET = -2  # not in a setup's table yet
HEIGHT_BITS = 4  # bits per column height in a heights code (rows < 16)
NUMBERED = 50_000  # cards' landings kept by heights code (a game meets ~160 new ones)


def landing(drop: Drop, offset: int, heights: Sequence[int], rows: int, cols: int) -> Landing | None:
    """Where `Stomach.drop(drop, offset)` puts the tiles when the covered columns have
    `heights`."""
    if min(heights) >= rows:  # Stomach.lands
        return None
    kinds: dict[str, int] = {}
    filled = 0
    for i, stack in enumerate(drop):
        h = heights[i]
        for kind in stack[:rows - h]:
            bit = 1 << ((rows - 1 - h) * cols + offset + i)
            kinds[kind] = kinds.get(kind, 0) | bit
            filled |= bit
            h += 1
    return tuple(kinds.items()), filled, frozenset(kinds)


def heights_code(heights: Sequence[int]) -> int:
    """The column heights as one int, HEIGHT_BITS per column, column 0 lowest."""
    code = 0
    for h in reversed(heights):
        code = code << HEIGHT_BITS | h
    return code


def landings(setup: Setup, drop: Drop, rows: int, cols: int) -> list[tuple[int, int, dict[int, int]]]:
    """Per offset of `drop`: (shift and mask that cut the covered columns out of a heights
    code, the landings' numbers by that window of the code), filled in as they are met (a
    table per setup: a drop lands the same way every game)."""
    key = (id(drop), rows)
    got = setup.landings.get(key)
    if got is None:
        width = len(drop)
        got = setup.landings[key] = [(HEIGHT_BITS * offset, (1 << HEIGHT_BITS * width) - 1, {})
                                     for offset in range(cols - width + 1)]
    return got


def placements(setup: Setup, drops: Sequence[Drop], rows: int, cols: int) -> list[tuple[Drop, int, int, int, dict[int, int]]]:
    """`landings` of every drop of a card, flat, in `Stomach.options` order: (drop, offset,
    shift, mask, table)."""
    key = (id(drops), rows)
    got = setup.placements.get(key)
    if got is None:
        got = setup.placements[key] = [(drop, offset, *spot) for drop in drops
                                       for offset, spot in enumerate(landings(setup, drop, rows, cols))]
    return got


def met(setup: Setup, table: dict[int, int], window: int, drop: Drop, offset: int,
        heights: Sequence[int], rows: int, cols: int) -> int:
    """A landing met for the first time: worked out, numbered (`Setup.number`) and its
    number kept in `table`."""
    got = table[window] = setup.number(landing(drop, offset, heights[offset:offset + len(drop)], rows, cols))
    return got


def drop_values(game: "Game", seat: int, stomach: Stomach, options: Sequence[tuple[Drop, int]]) -> list[int]:
    """The seat's score after each legal (drop, offset), as `evaluate` after `Stomach.drop`
    on a copy would give, without a Stomach per option: the landings come from a table per
    setup, and only the parts reading a kind that landed are scored again (a turn whose
    damage or cleric went another way than `pick` planned: a few candidates, fewer than
    `batch_values` pays off for)."""
    setup = game.setup
    changes = Changes(game.scorers[seat].parts(stomach.leaders), stomach.masks)
    rows, cols, heights = stomach.rows, stomach.cols, stomach.heights
    code = heights_code(heights)
    out = []
    for drop, offset in options:
        shift, wmask, table = landings(setup, drop, rows, cols)[offset]
        window = code >> shift & wmask
        number = table[window] if window in table else met(setup, table, window, drop, offset, heights, rows, cols)
        assert number != NOWHERE, "not a legal drop"
        out.append(changes.value(*setup.lands[number]))
    return out


def landing_numbers(setup: Setup, stomach: Stomach, drops: Sequence[Drop]) -> list[int]:
    """The canonical landing (its number) of every legal drop of a card, in
    `Stomach.options` order."""
    rows, cols, heights = stomach.rows, stomach.cols, stomach.heights
    code = heights_code(heights)
    key = (id(drops), rows, code)
    got = setup.numbered.get(key)
    if got is None:
        spots = placements(setup, drops, rows, cols)
        out = [table.get(code >> shift & wmask, UNMET) for _, _, shift, wmask, table in spots]
        if UNMET in out:
            for i, (drop, offset, shift, wmask, table) in enumerate(spots):
                if out[i] == UNMET:
                    out[i] = met(setup, table, code >> shift & wmask, drop, offset, heights, rows, cols)
        got = setup.numbered.keep(key, [n for n in out if n != NOWHERE])
    return got


def batch_values(game: "Game", seat: int, eats: Sequence[tuple[Stomach, list[int]]]) -> list[list[int]]:
    """The seat's score after each landing of `eats` (stomach, landing numbers), as
    `drop_values` gives it: every candidate stomach of a turn scored together, each part
    once on an array of masks (`batch`)."""
    setup, scorer = game.setup, game.scorers[seat]
    kinds, basic = setup.kinds, tile_kinds(setup.rules)[0]
    out: list[list[int]] = [[] for _ in eats]
    groups: dict[tuple, list[int]] = {}  # stomachs with the same leaders share the parts
    for i, (s, numbers) in enumerate(eats):
        if numbers:
            groups.setdefault(tuple(s.leaders.items()), []).append(i)
    for members in groups.values():
        rows: dict[int, int] = {}  # id of a stomach -> its row in `bases`
        flat: list[int] = []
        for i in members:
            s = eats[i][0]
            if id(s) not in rows:
                rows[id(s)] = len(rows)
                flat.extend(s.masks.get(k, 0) for k in kinds)
        bases = np.array(flat, dtype=np.uint64).reshape(-1, len(kinds))
        sizes = [len(eats[i][1]) for i in members]
        which = np.repeat(np.array([rows[id(eats[i][0])] for i in members]), sizes)
        landings = np.fromiter(chain.from_iterable(eats[i][1] for i in members), dtype=np.intp, count=sum(sizes))
        base, adds = bases[which], setup.adds[landings]
        masks = base | adds
        masks[:, -1] = base[:, -1] ^ adds[:, -1]  # EMPTY: the cells filled leave it
        batch = batch_of(masks.T.copy(), kinds, basic)
        arrays, scalars = scorer.batch(eats[members[0]][0].leaders, setup.landed)
        values = sum((fn(batch) for fn in arrays), np.zeros(len(landings), dtype=np.int64)).tolist()
        start, same = 0, {}
        for i, n in zip(members, sizes):
            s = eats[i][0]
            if id(s) not in same:  # the parts the landings leave as they were
                same[id(s)] = sum(fn(s.masks) for fn in scalars)
            points = same[id(s)]
            out[i] = [v + points for v in values[start:start + n]] if points else values[start:start + n]
            start += n
    return out


class RandomPlayer:
    """Picks uniformly among the legal options at every decision."""

    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def pick(self, game, seat):
        return self.rng.choice(game.slots())

    def damage_column(self, game, seat):
        return self.rng.choice(game.stomachs[seat].open_columns())

    def cleric(self, game, seat, cells):
        return self.rng.randrange(len(cells))

    def place(self, game, seat, options):
        return self.rng.randrange(len(options))

    def swap(self, game, seat, pairs):
        return self.rng.randrange(len(pairs))

    def draft(self, game, seat, offered):
        return self.rng.randrange(len(offered))

    def leader_column(self, game, seat, leader):
        return self.rng.choice(game.stomachs[seat].open_columns())


class Plan(NamedTuple):
    """What `GreedyPlayer.pick` worked out for the turn it chose, for the rest of the turn:
    the same stomach gets the same values (the rng still decides ties, so the turn may put
    a damage tile elsewhere than the plan did; then the values are worked out afresh)."""

    game: "Game"
    seat: int
    turn: int
    damage: dict[tuple[int, ...], list[int]]  # stomach heights -> its open columns' `damage_values`
    masks: dict[str, int]  # the stomach the card is eaten into,
    leaders: dict[int, str]
    drops: list[int]  # and the values of its legal drops


class GreedyPlayer:
    """Takes the adventurer and drop that raise its current score most (one turn ahead):
    damage goes where it costs least, the cleric removes the damage worth most, the wizard
    swap and the leader drop are the best for the score now, and a leader is drafted by
    what it would score if dropped at once. Ties go to more intel, then at random."""

    name = "greedy"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.planned: Plan | None = None

    def _plan(self, game: "Game", seat: int) -> "Plan | None":
        """This turn's plan from `pick`, if any."""
        p = self.planned
        return p if p is not None and p.game is game and p.seat == seat and p.turn == game.turns else None

    def _best(self, values: Sequence[Any]) -> int:
        return self.rng.choice(self._ties(values))

    @staticmethod
    def _ties(values: Sequence[Any]) -> list[int]:
        """The positions of the best value."""
        top = max(values)
        return [i for i, v in enumerate(values) if v == top]

    def _damage(self, game: "Game", seat: int, hits: int, seen: dict[tuple[int, ...], Any]) -> tuple[int, ...]:
        """The columns the damage tiles of `hits` would go to, one at a time. `seen` maps
        the columns chosen so far to (stomach then, its values per open column), shared by
        the slots of one pick; every choice still draws its tie-break from the rng."""
        path: tuple[int, ...] = ()
        for _ in range(hits):
            stomach, cols, values, ties = seen[path]
            if not cols:
                break
            if values is None:
                values = damage_values(game, seat, stomach, cols)
                ties = self._ties([(v, -stomach.heights[c]) for v, c in zip(values, cols)])
                seen[path] = (stomach, cols, values, ties)
            col = cols[self.rng.choice(ties)]  # as `_best`, the ties worked out once a pick
            path += (col,)
            if path not in seen:
                hurt = stomach.copy()
                hurt.push(col, DAMAGE)
                seen[path] = (hurt, hurt.open_columns(), None, None)
        return path

    def _cleric(self, game: "Game", seat: int, stomach: Stomach) -> Stomach:
        best, out = None, stomach
        for cell in stomach.damage_cells():
            s = stomach.copy()
            s.remove(cell)
            v = evaluate(game, seat, s)
            if best is None or v > best:
                best, out = v, s
        return out

    def pick(self, game: "Game", seat: int) -> int:
        stomach = game.stomachs[seat]
        slots = game.slots()
        values = []
        seen: dict[tuple[int, ...], Any] = {(): (stomach, stomach.open_columns(), None, None)}
        cleaned: dict[tuple[int, ...], Stomach] = {}
        # (damage columns, cleric, drops) -> its position in `eats` (stomach eating, landings)
        eaten: dict[tuple, int] = {}
        eats: list[tuple[Stomach, list[int]]] = []
        keys = []
        intel = []
        hurt = game.damages()
        for slot in slots:
            card = game.grid[slot]
            assert card is not None  # slots() are the occupied ones
            intel.append(card.intel)
            path = self._damage(game, seat, hurt[slot], seen)
            s = seen[path][0]
            cleric = card.class_ == CLERIC
            if cleric:
                if path not in cleaned:
                    cleaned[path] = self._cleric(game, seat, s)
                s = cleaned[path]
            drops = game.setup.drops[card.id]
            key = (path, cleric, id(drops))
            if key not in eaten:
                eaten[key] = len(eats)
                eats.append((s, landing_numbers(game.setup, s, drops)))
            keys.append(eaten[key])
        scored = batch_values(game, seat, eats)
        # a card with no legal drop leaves the stomach as it is
        best = [max(got) if got else evaluate(game, seat, s) for got, (s, _) in zip(scored, eats)]
        for k, smart in zip(keys, intel):  # the score after it: the gain, plus the same score now
            values.append((best[k], smart))
        chosen = self._best(values)
        s, got = eats[keys[chosen]][0], scored[keys[chosen]]
        self.planned = Plan(game, seat, game.turns + 1,
                            {tuple(st.heights): v for st, _, v, _ in seen.values() if v is not None},
                            dict(s.masks), dict(s.leaders), got)
        return slots[chosen]

    @staticmethod
    def _after(game: "Game", seat: int, options: Sequence[Any], act: Callable[[Stomach, Any], Any]) -> list[int]:
        """The seat's score after `act(stomach, option)`, for each option, on copies."""
        out = []
        for option in options:
            s = game.stomachs[seat].copy()
            act(s, option)
            out.append(evaluate(game, seat, s))
        return out

    def damage_column(self, game, seat):
        stomach = game.stomachs[seat]
        cols = stomach.open_columns()
        plan = self._plan(game, seat)  # this turn's damage only adds tiles: heights tell the stomach
        scores = plan and plan.damage.get(tuple(stomach.heights)) or damage_values(game, seat, stomach, cols)
        return cols[self._best([(v, -stomach.heights[c]) for v, c in zip(scores, cols)])]

    def cleric(self, game, seat, cells):
        return self._best(self._after(game, seat, cells, Stomach.remove))

    def place(self, game, seat, options):
        stomach, plan = game.stomachs[seat], self._plan(game, seat)
        if plan and plan.masks == stomach.masks and plan.leaders == stomach.leaders:
            return self._best(plan.drops)
        return self._best(drop_values(game, seat, stomach, options))

    def swap(self, game, seat, pairs):
        return self._best(swap_values(game, seat, game.stomachs[seat], pairs))

    def draft(self, game, seat, offered):
        stomach = game.stomachs[seat]
        values = leader_values(game, seat, stomach, stomach.open_columns(), offered)
        return self._best([max(v, default=0) for v in values])

    def leader_column(self, game, seat, leader):
        stomach = game.stomachs[seat]
        cols = stomach.open_columns()
        return cols[self._best(leader_values(game, seat, stomach, cols, [leader])[0])]


STRATEGIES: dict[str, type] = {"greedy": GreedyPlayer, "random": RandomPlayer}


# --- the game ----------------------------------------------------------------------

# Per grid slot: (slot, class) of the cards that would hurt a player taking it: swordsmen
# orthogonally next to it, archers exactly two away in a line (final: CHOOSE ADVENTURER).
ATTACKERS = [
    [((r + dr * dist) * GRID + c + dc * dist, klass)
     for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
     for dist, klass in ((1, SWORDSMAN), (2, ARCHER))
     if 0 <= r + dr * dist < GRID and 0 <= c + dc * dist < GRID]
    for r in range(GRID) for c in range(GRID)
]
# The same relation from the attacker's side: per slot, class -> the slots a card of that
# class there hurts (the lines are symmetric).
HURTS = [{k: [s for s in range(GRID * GRID) if (other, k) in ATTACKERS[s]] for k in (SWORDSMAN, ARCHER)}
         for other in range(GRID * GRID)]

@dataclass
class Result:
    """A finished game: scores from the scorer, what happened, and its sheet."""

    version: str
    players: int
    strategies: list[str]
    monsters: list[str]
    scores: list[PlayerScore]
    winners: list[int]  # seats
    decided_by: str
    ending: str  # ROUND (a stomach filled while eating; the round was finished) or LEADER_PHASE
    rounds: int
    turns: int
    drafts: int  # Leader Phases held
    kings: list[int]
    held: list[str | None]
    sheet: dict[str, Any]
    solo: Any = None
    stacks_ran_out: bool = False


class Game:
    """One game in progress. `play()` runs it to the end and returns a `Result`."""

    def __init__(self, setup: Setup, players: Sequence[Player], rng: random.Random):
        self.setup, self.rng = setup, rng
        rules = setup.rules
        self.n = len(players)
        self.solo = self.n == 1
        self.players = list(players)
        rows, cols = rules.rows(self.n), rules.stomach.columns
        # final SETUP: random monster boards, one random leader each in the Leader space,
        # leader stacks (rules.yaml leader_stack_tiles_by_players, leader_stacks_by_players),
        # the rest to the box.
        self.monsters = rng.sample(setup.monsters, self.n)
        pool = list(setup.leaders)
        rng.shuffle(pool)
        self.held: list[str | None] = [pool.pop() for _ in range(self.n)]
        size = rules.leader_stack_tiles(self.n)
        self.stacks = [pool[k * size:(k + 1) * size] for k in range(rules.leader_stacks(self.n))]
        self.stomachs = [Stomach(rows, cols) for _ in range(self.n)]
        self.geo = geometry(rows, cols)
        self.scorers = [setup.scorer(rows, cols, m) for m in self.monsters]
        self.deck = list(setup.adventurers)
        rng.shuffle(self.deck)
        self.discard: list["Adventurer"] = []
        self.grid: list["Adventurer | None"] = [self.deck.pop() for _ in range(GRID * GRID)]
        self.eaten: list[list["Adventurer"]] = [[] for _ in range(self.n)]
        # solo: the player starts with the king; else a random first player
        self.king = 0 if self.solo else rng.randrange(self.n)
        self.ai_king = False  # solo: whether the A.I. holds the king
        self.ai_cards: list["Adventurer"] = [self.draw() for _ in range(setup.solo_level)] if self.solo else []
        self.ai_round: list["Adventurer"] = []
        self.drafted = [0] * self.n
        self.turns = 0
        # per seat: tiles landed from shapes, damage tiles taken, tiles a cleric removed,
        # leaders eaten; the stomach must hold exactly what these say (tile conservation)
        self.tally = [{"shape": 0, "damage": 0, "removed": 0, "leaders": 0} for _ in range(self.n)]

    # --- the adventurer grid (slot = row * 3 + column, row 0 at the top) ----------

    def draw(self) -> "Adventurer":
        """The top card; an empty deck is the discard pile shuffled (final: REVEAL)."""
        if not self.deck:
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    def slots(self) -> list[int]:
        return [i for i, card in enumerate(self.grid) if card is not None]

    def damage(self, slot: int) -> int:
        """Swordsmen orthogonally next to the slot, archers exactly two away in a line."""
        hits = 0
        for other, klass in ATTACKERS[slot]:
            card = self.grid[other]
            if card is not None and card.class_ == klass:
                hits += 1
        return hits

    def damages(self) -> list[int]:
        """`damage` of every slot, from the grid's swordsmen and archers."""
        hits = [0] * (GRID * GRID)
        for other, card in enumerate(self.grid):
            if card is not None:
                for slot in HURTS[other].get(card.class_, ()):
                    hits[slot] += 1
        return hits

    def refill(self) -> None:
        """Slide cards down their column, then fill the empty slots from the deck."""
        for c in range(GRID):
            cards = [self.grid[r * GRID + c] for r in range(GRID) if self.grid[r * GRID + c] is not None]
            column: list["Adventurer | None"] = [None] * (GRID - len(cards))
            column += cards
            for r in range(GRID):
                self.grid[r * GRID + c] = column[r]
        for i, card in enumerate(self.grid):
            if card is None:
                self.grid[i] = self.draw()

    # --- a turn ------------------------------------------------------------------

    def take_turn(self, seat: int) -> int:
        """Choose, take damage, cleric, eat, wizard, captain (final: CHOOSE/EAT ADVENTURER);
        returns the grid slot eaten. The grid is refilled by the caller."""
        player, stomach = self.players[seat], self.stomachs[seat]
        slot = player.pick(self, seat)
        card = self.grid[slot]
        assert card is not None
        self.turns += 1
        for _ in range(self.damage(slot)):  # damage tiles first, one at a time
            if stomach.full:
                break
            col = player.damage_column(self, seat)
            stomach.push(col, DAMAGE)
            self.tally[seat]["damage"] += 1
        if card.class_ == CLERIC:  # then a cleric removes one damage tile, if any
            cells = stomach.damage_cells()
            if cells:
                stomach.remove(cells[player.cleric(self, seat, cells)])
                self.tally[seat]["removed"] += 1
        options = stomach.options(self.setup.drops[card.id])
        if options:
            drop, offset = options[player.place(self, seat, options)]
            self.tally[seat]["shape"] += stomach.drop(drop, offset)
        if card.class_ == WIZARD:  # after eating, a forced swap of two adjacent tiles
            pairs = stomach.swaps()
            if pairs:
                stomach.swap(*pairs[player.swap(self, seat, pairs)])
        self.grid[slot] = None
        self.eaten[seat].append(card)
        if card.class_ == CAPTAIN:  # the other cards of its banner's row or column retreat
            r, c = divmod(slot, GRID)
            line = [r * GRID + k for k in range(GRID)] if card.banner == "horizontal" else [k * GRID + c for k in range(GRID)]
            for s in line:
                other = self.grid[s]
                if s != slot and other is not None:
                    self.discard.append(other)
                    self.grid[s] = None
        return slot

    def ai_takes(self, slot: int) -> None:
        """Solo: the A.I. takes the two other cards in the row (player holds the king) or
        the column (A.I. holds it) of the card just eaten; an empty slot is a deck card."""
        r, c = divmod(slot, GRID)
        line = [k * GRID + c for k in range(GRID)] if self.ai_king else [r * GRID + k for k in range(GRID)]
        for s in line:
            if s == slot:
                continue
            card = self.grid[s]
            self.grid[s] = None
            self.ai_round.append(card if card is not None else self.draw())

    # --- rounds ------------------------------------------------------------------

    def order(self) -> list[int]:
        """The snake draft from the king holder: clockwise, then back (final: GAMEPLAY)."""
        if self.solo:
            return [0, 0]
        seats = [(self.king + k) % self.n for k in range(self.n)]
        return seats + seats[::-1]

    def draft_order(self) -> list[int]:
        """More intel first, then fewer damage tiles, then seat order from the king."""
        def key(seat: int) -> tuple:
            intel = sum(c.intel for c in self.eaten[seat])
            damage = len(self.stomachs[seat].damage_cells())
            return (-intel, damage, (seat - self.king) % self.n)
        return sorted(range(self.n), key=key)

    def leader_phase(self, offered: list[str]) -> list[int]:
        """Draft (final: DRAFT LEADERS), then everyone drops the leader they held; returns
        the seats whose stomach this filled."""
        new: list[str | None] = [None] * self.n
        if self.solo:
            mine = sum(c.intel for c in self.eaten[0])
            ai = sum(c.intel for c in self.ai_round)
            lost = 0 if mine > ai else 1 if ai - mine <= 1 else 2  # leftmost tiles discarded
            offered = offered[lost:]
            new[0] = offered[self.players[0].draft(self, 0, offered)]
        else:
            offered = list(offered)
            for seat in self.draft_order():
                new[seat] = offered.pop(self.players[seat].draft(self, seat, offered))
        self.end_round()
        filled = []
        for seat in range(self.n):
            self.drafted[seat] += 1
            old, self.held[seat] = self.held[seat], new[seat]
            stomach = self.stomachs[seat]
            if old is not None and stomach.open_columns():
                self.eat_leader(seat, old)
                if stomach.full:
                    filled.append(seat)
        return filled

    def eat_leader(self, seat: int, leader: str) -> None:
        """Drop a leader tile into a column of the player's choice, like a one-tile shape."""
        self.stomachs[seat].push(self.players[seat].leader_column(self, seat, leader), LEADER, leader)
        self.tally[seat]["leaders"] += 1

    def end_round(self) -> None:
        """Eaten cards go to the discard pile and the king passes clockwise."""
        for cards in self.eaten:
            self.discard.extend(cards)
            cards.clear()
        if self.solo:
            self.ai_cards.extend(self.ai_round)
            self.ai_round = []
            self.ai_king = not self.ai_king
        else:
            self.king = (self.king + 1) % self.n

    def play(self) -> Result:
        kings: list[int] = []
        ending = ROUND
        rounds = 0
        stacks = list(self.stacks)
        ran_out = False
        offered = stacks.pop(0) if stacks else []
        while True:
            rounds += 1
            final = False
            for i, seat in enumerate(self.order()):
                if self.stomachs[seat].full:  # only in the final round
                    continue
                slot = self.take_turn(seat)
                if self.solo and i == 0:
                    self.ai_takes(slot)
                self.refill()
                if self.stomachs[seat].full and not final:
                    final, kings = True, [seat]  # the first to fill takes the king
            if final:
                break
            if not offered:
                # The stacks ran out before any stomach filled: the rules are silent; our
                # ruling (rules.yaml `rulings.stacks_run_out`) plays on without Leader
                # Phases until one fills.
                assert self.setup.rules.rulings.stacks_run_out.ruling == "no-more-leader-phases"
                ran_out = True
                self.end_round()
                continue
            filled = self.leader_phase(offered)
            if filled:  # full in the Leader Phase: the game ends now, all fillers take the king
                kings, ending = filled, LEADER_PHASE
                break
            offered = stacks.pop(0) if stacks else []
        if ending == ROUND:
            # final round over: leftover leaders are eaten if there is room
            for seat in range(self.n):
                old, stomach = self.held[seat], self.stomachs[seat]
                if old is not None and stomach.open_columns():
                    self.eat_leader(seat, old)
                    self.held[seat] = None
            if self.solo:
                self.ai_cards.extend(self.ai_round)
                self.ai_round = []
        return self.result(kings, ending, rounds, ran_out)

    def result(self, kings: list[int], ending: str, rounds: int, ran_out: bool) -> Result:
        setup, rules = self.setup, self.setup.rules
        names = [f"P{seat + 1} {self.players[seat].name}" for seat in range(self.n)]
        scores = []
        for seat in range(self.n):
            stomach = self.stomachs[seat]
            scores.append(score_player(stomach.board(), self.monsters[seat], rules, setup.leaders,
                                       king=seat in kings, solo=self.solo, name=names[seat], seat=seat,
                                       held=self.held[seat]))
        solo = None
        token = self.token_holder(kings)
        if self.solo:
            solo = score_solo(scores[0], self.stomachs[0].board(), rules, setup.solo_level, self.ai_cards)
            winners, decided = ([0] if solo.won else []), "solo"
        else:
            ranked = rank_players(scores, rules, token)
            winners = [names.index(w) for w in ranked.winners]
            decided = ranked.decided_by
        return Result(
            version=setup.version, players=self.n, strategies=[p.name for p in self.players],
            monsters=list(self.monsters), scores=scores, winners=winners, decided_by=decided,
            ending=ending, rounds=rounds, turns=self.turns, drafts=self.drafted[0], kings=kings,
            held=list(self.held), sheet=self.sheet(names, kings, scores, token), solo=solo, stacks_ran_out=ran_out,
        )

    def token_holder(self, kings: list[int]) -> int | None:
        """The seat that keeps the Village King token itself when several players took the
        King bonus at once (O197; None with one King or none: nothing to choose). The rules
        do not say who (rules.yaml rulings.king_token_unknown); here the token stays with
        its holder when that player is a King, else it goes to the first King clockwise from
        the holder, the order the table resolves ties in (F172, O171)."""
        if len(kings) < 2:
            return None
        return min(kings, key=lambda seat: (seat - self.king) % self.n)

    def sheet(self, names: list[str], kings: list[int], scores: list[PlayerScore], token: int | None = None) -> dict[str, Any]:
        """The finished game in the scoring-sheet format `pnp score` reads; `king_token:`
        names the token's holder where the sheet asks for it (several Kings, 0.2.8)."""
        symbols = {k: t.symbol for k, t in self.setup.rules.tiles.items()}
        players = []
        for seat, stomach in enumerate(self.stomachs):
            player: dict[str, Any] = {"name": names[seat], "monster": self.monsters[seat]}
            if not self.solo:  # a solo sheet has no king: (no King bonus in solo, published rules line 257)
                player["king"] = seat in kings
            players.append({
                **player,
                "leaders": {i + 1: lid for i, lid in enumerate(stomach.order)},
                "held": self.held[seat],
                "stomach": stomach.text_rows(symbols),
                "claimed": scores[seat].total,
            })
        out: dict[str, Any] = {"game": "tasty-humans", "rules": self.setup.version}
        if self.setup.changes:
            out["changes"] = dict(self.setup.changes)
        if token is not None and asks_king_token(self.setup.rules, self.n):
            out["king_token"] = names[token]
        out["players"] = players
        if self.solo:
            out["solo"] = {"level": self.setup.solo_level, "ai_cards": [c.id for c in self.ai_cards]}
        return out


def play(setup: Setup, seed: int, strategies: Sequence[str]) -> Result:
    """Play one game with a strategy name per seat; the same seed gives the same game."""
    rng = random.Random(seed)
    players = [STRATEGIES[s](random.Random(rng.random())) for s in strategies]
    return Game(setup, players, rng).play()
