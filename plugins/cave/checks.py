"""Checks across the cave's content: names that refer to each other, declared counts
against the pieces listed, openings against shapes, and the per-player-count decks.

Each function returns located errors; `check` runs them all so the user sees every
problem at once.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Sequence

from pnp.api import ContentError
from pnp.api import num

from . import deck
from .glyphs import ICONS
from .models import DIRECTIONS, BoardFile, CharactersFile, EventsFile, FoodFile, TilesFile, TokensFile, sides

if TYPE_CHECKING:
    from pnp.api import GameContent


def rotations(openings: Sequence[str]) -> list[frozenset[str]]:
    """Every distinct set of sides `openings` covers when the tile is turned 0-3 quarter turns."""
    out: list[frozenset[str]] = []
    for turn in range(4):
        turned = frozenset(DIRECTIONS[(DIRECTIONS.index(s) + turn) % 4] for s in openings)
        if turned not in out:
            out.append(turned)
    return out


def _sides(sides) -> str:
    return "[" + ", ".join(s for s in DIRECTIONS if s in sides) + "]"


def _one_of(names, what: str = "") -> str:
    return f"expected one of {what}{', '.join(sorted(names))}"


def shape_error(shape_name: str, shape_openings: Sequence[str], openings: Sequence[str]) -> str | None:
    """Why `openings` do not make the shape, or None when they do."""
    allowed = rotations(shape_openings)
    if frozenset(openings) in allowed:
        return None
    return f"openings {_sides(openings)} do not make a {shape_name}: expected {' or '.join(_sides(a) for a in allowed)}"


class Checker:
    """Collects located errors for one game."""

    def __init__(self, game: "GameContent"):
        self.game = game
        self.errors: list[ContentError] = []

    def fail(self, stem: str, at: tuple, message: str) -> None:
        """A problem of the key at `at` (unknown, uncounted)."""
        self.errors.append(self.game.error(stem, at, message))

    def bad(self, stem: str, at: tuple, message: str) -> None:
        """A problem of the value at `at`: told at the value when it is on its key's line."""
        self.errors.append(self.game.value_error(stem, at, message))


def check_tiles(c: Checker, t: TilesFile, events: EventsFile) -> None:
    lo, hi = t.players.min, t.players.max
    marks = range(lo, hi + 1)

    if set(t.exits_by_players) != set(marks):
        c.fail("tiles", ("exits_by_players",), f"has player counts {sorted(t.exits_by_players)}: expected exactly {lo} to {hi} (players.min to players.max)")

    # shapes and their counts
    for name in t.shape_counts:
        if name not in t.shapes:
            c.fail("tiles", ("shape_counts", name), f"unknown shape {name!r}: {_one_of(t.shapes)}")
    for name in t.shapes:
        if name not in t.shape_counts:
            c.fail("tiles", ("shapes", name), f"shape {name!r} has no count in shape_counts: expected shape_counts.{name}")

    # rooms, re-labelled rooms and their counts
    for name in t.room_counts:
        if name not in t.rooms:
            c.fail("tiles", ("room_counts", name), f"unknown room {name!r}: {_one_of(t.rooms)}")
        elif name in t.relabelled:
            c.fail("tiles", ("room_counts", name), f"room {name!r} is re-labelled (see relabelled): expected only the rooms it is made from in room_counts")
    for name, rel in t.relabelled.items():
        if name not in t.rooms:
            c.fail("tiles", ("relabelled", name), f"unknown room {name!r}: {_one_of(t.rooms)}")
        if rel.from_ not in t.room_counts:
            c.bad("tiles", ("relabelled", name, "from"), f"{rel.from_!r} is not counted in room_counts: {_one_of(t.room_counts)}")
        elif rel.count > t.room_counts[rel.from_]:
            c.bad("tiles", ("relabelled", name, "count"), f"re-labels {rel.count} {rel.from_} rooms but room_counts has {t.room_counts[rel.from_]}: expected at most that many")
    for name in t.rooms:
        if name not in t.room_counts and name not in t.relabelled:
            c.fail("tiles", ("rooms", name), f"room {name!r} is not counted: expected it in room_counts or relabelled")

    # each tile on its own
    ids: dict[str, tuple] = {}

    def unique(ident: str, at: tuple) -> None:
        if ident in ids:
            line = c.game.docs["tiles"].where(ids[ident])[0]
            c.bad("tiles", at + ("id",), f"duplicate id {ident!r} (first at line {line}): expected every tile id once")
        else:
            ids[ident] = at + ("id",)

    def marked(mark: int, at: tuple) -> None:
        if not lo <= mark <= hi:
            c.bad("tiles", at + ("players",), f"player mark {mark} is outside the game: expected {lo} to {hi}")

    def shaped(shape: str, openings: Sequence[str], at: tuple) -> None:
        if shape not in t.shapes:
            c.bad("tiles", at + ("shape",), f"unknown shape {shape!r}: {_one_of(t.shapes)}")
            return
        problem = shape_error(shape, t.shapes[shape].openings, openings)
        if problem:
            c.bad("tiles", at + ("openings",), problem)

    for i, tile in enumerate(t.tiles):
        at = ("tiles", i)
        unique(tile.id, at)
        marked(tile.players, at)
        shaped(tile.shape, tile.openings, at)
        if tile.room not in t.rooms:
            c.bad("tiles", at + ("room",), f"unknown room {tile.room!r}: {_one_of(t.rooms)}")

    items = {card.id for card in events.cards if card.keep}
    numbers: dict[int, int] = {}
    for i, ex in enumerate(t.exits):
        at = ("exits", i)
        unique(ex.id, at)
        marked(ex.players, at)
        shaped(ex.shape, ex.openings, at)
        if ex.number in numbers:
            c.bad("tiles", at + ("number",), f"exit number {ex.number} is used twice: expected each exit numbered once")
        numbers[ex.number] = i
        for j, item in enumerate(ex.requires.items):
            if item not in items:
                c.bad("tiles", at + ("requires", "items", j), f"unknown item {item!r}: {_one_of(items, 'the item cards in events.yaml: ')}")
        if ex.requires.players is not None and ex.requires.players > hi:
            c.bad("tiles", at + ("requires", "players"), f"needs {ex.requires.players} players but the game has at most {hi}: expected {hi} or fewer")
    unique(t.start.id, ("start",))

    # declared counts against the tiles listed
    shapes = Counter(tile.shape for tile in t.tiles)
    for name, want in t.shape_counts.items():
        if name in t.shapes and shapes[name] != want:
            c.bad("tiles", ("shape_counts", name), f"shape_counts.{name} is {want} but {shapes[name]} tiles are {name}: expected the count to match the tiles listed")
    rooms = Counter(tile.room for tile in t.tiles)
    for name, want in t.room_counts.items():
        made = [r for r, rel in t.relabelled.items() if rel.from_ == name]
        have = rooms[name] + sum(rooms[r] for r in made)
        if have != want:
            how = f" ({rooms[name]} {name} + " + " + ".join(f"{rooms[r]} {r}" for r in made) + ")" if made else ""
            c.bad("tiles", ("room_counts", name), f"room_counts.{name} is {want} but the tiles list {have}{how}: expected the count to match the tiles listed")
    for name, rel in t.relabelled.items():
        if rooms[name] != rel.count:
            c.bad("tiles", ("relabelled", name, "count"), f"relabelled.{name}.count is {rel.count} but {rooms[name]} tiles are {name}: expected the count to match the tiles listed")

    # the exits in play per player count follow from the exits' marks
    for n, want in t.exits_by_players.items():
        have = len(deck.exits(t, n))
        if lo <= n <= hi and have != want:
            c.bad("tiles", ("exits_by_players", n), f"{n} players: {want} exits declared but {have} exits are marked {n} or less: expected the marks to give {want}")

    # every player count must have a playable deck
    known = {"tiles", *t.shapes, *t.rooms}
    for group in ("per_player", "each_game"):
        for name in getattr(t.deck_minimum, group):
            if name not in known:
                c.fail("tiles", ("deck_minimum", group, name), f"unknown name {name!r}: expected tiles, a shape ({', '.join(t.shapes)}) or a room ({', '.join(t.rooms)})")
    for n in marks:
        dealt = deck.tally(deck.cave_tiles(t, n))
        for group, factor in (("per_player", n), ("each_game", 1)):
            for name, per in getattr(t.deck_minimum, group).items():
                if name in known and dealt[name] < per * factor:
                    c.bad("tiles", ("deck_minimum", group, name), f"the {n}-player deck (tiles marked {lo}-{n}) has {dealt[name]} {name}: expected at least {per * factor}; move marks or change the minimum")


def check_board(c: Checker, b: BoardFile) -> None:
    comps = {comp.id: (i, comp) for i, comp in enumerate(c.game.manifest.components)}

    def agree(cid: str, columns: int, rows: int, extra: float, at: tuple) -> None:
        if cid not in comps:
            (c.bad if at == ("component",) else c.fail)("board", at, f"no component {cid!r} in game.yaml: {_one_of(comps)}")  # a value, or a key
            return
        i, comp = comps[cid]
        want = (columns * b.square + extra, rows * b.square + extra)
        if abs(comp.size.width - want[0]) > 0.01 or abs(comp.size.height - want[1]) > 0.01:
            c.errors.append(c.game.manifest_doc.value_error(("components", i, "size"), (
                f"component {cid!r} is {num(comp.size.width)}mm x {num(comp.size.height)}mm but board.yaml makes it "
                f"{columns} x {rows} squares of {num(b.square)}mm{' + the border' if extra else ''}: "
                f"expected {num(want[0])}mm x {num(want[1])}mm")))

    agree(b.component, len(b.column_labels), len(b.row_labels), 2 * b.border, ("component",))
    # the row die gives the row (1-8 = A-H) and the column die the column (cave-game-rules.txt
    # lines 22-24): one side per label, or some rolls name no square, some squares no roll
    for die, key, what in (("row_die", "row_labels", "row"), ("column_die", "column_labels", "column")):
        n, labels = sides(getattr(b, die)), len(getattr(b, key))
        if n != labels:
            c.bad("board", (die,), f"{getattr(b, die)} picks one of {n} {what}s but {key} gives {labels}: expected D{labels}")
    for cid, sq in b.tile_components.items():
        agree(cid, sq.columns, sq.rows, 0.0, ("tile_components", cid))
    for key in ("row_labels", "column_labels"):
        seen: set[str] = set()
        for i, label in enumerate(getattr(b, key)):
            if label in seen:
                c.fail("board", (key, i), f"label {label!r} appears twice: expected each {key[:-1].replace('_', ' ')} once")
            seen.add(label)


def _duplicates(c: Checker, stem: str, key: str, records) -> None:
    first: dict[str, int] = {}
    for i, rec in enumerate(records):
        if rec.id in first:
            line = c.game.docs[stem].where((key, first[rec.id]))[0]
            c.bad(stem, (key, i, "id"), f"duplicate id {rec.id!r} (first at line {line}): expected each id once")
        else:
            first[rec.id] = i


def _icon(c: Checker, stem: str, at: tuple, name: str) -> None:
    if name not in ICONS:
        c.bad(stem, at, f"unknown icon {name!r}: {_one_of(ICONS)}")


def check_events(c: Checker, e: EventsFile) -> None:
    _duplicates(c, "events", "cards", e.cards)
    have: Counter = Counter()
    for i, card in enumerate(e.cards):
        if card.kind not in e.kinds:
            c.bad("events", ("cards", i, "kind"), f"unknown kind {card.kind!r}: {_one_of(e.kinds)}")
        _icon(c, "events", ("cards", i, "icon"), card.icon)
        have[card.kind] += card.copies
    for name, kind in e.kinds.items():
        if have[name] != kind.count:
            c.bad("events", ("kinds", name, "count"), f"kinds.{name}.count is {kind.count} but the cards give {have[name]} (sum of copies): expected them to match")


def check_food(c: Checker, f: FoodFile) -> None:
    _duplicates(c, "food", "foods", f.foods)
    _duplicates(c, "food", "meals", f.meals)
    for name, food_type in f.types.items():
        _icon(c, "food", ("types", name, "icon"), food_type.icon)
    for i, card in enumerate(f.foods):
        if card.type not in f.types:
            c.bad("food", ("foods", i, "type"), f"unknown type {card.type!r}: {_one_of(f.types)}")
        if not f.food_values.min <= card.value <= f.food_values.max:
            c.bad("food", ("foods", i, "value"), f"value {card.value} is outside food_values: expected {f.food_values.min} to {f.food_values.max}")
    pairs = set()
    for i, meal in enumerate(f.meals):
        if meal.state not in f.states:
            c.bad("food", ("meals", i, "state"), f"unknown state {meal.state!r}: {_one_of(f.states)}")
        if meal.type not in f.types:
            c.bad("food", ("meals", i, "type"), f"unknown type {meal.type!r}: {_one_of(f.types)}")
        pairs.add((meal.state, meal.type))
    for state in f.states:
        for kind in f.types:
            if (state, kind) not in pairs:
                c.fail("food", ("states", state), f"no {state} {kind} meal card: expected at least one for every state and type")
    for kind in f.types:
        if not any(card.type == kind for card in f.foods):
            c.fail("food", ("types", kind), f"no {kind} food card: expected at least one of every type")


def check_characters(c: Checker, ch: CharactersFile, tiles: TilesFile) -> None:
    _duplicates(c, "characters", "characters", ch.characters)
    if ch.energy.start > ch.energy.steps:
        c.bad("characters", ("energy", "start"), f"start {ch.energy.start} is above the {ch.energy.steps} steps: expected 1 to {ch.energy.steps}")
    s = ch.sanity
    if not s.min <= s.start <= s.max:
        c.bad("characters", ("sanity", "start"), f"start {s.start} is outside the meter: expected {s.min} to {s.max}")
    expect = s.min
    for index in sorted(range(len(s.fields)), key=lambda k: s.fields[k].from_):
        fld = s.fields[index]
        if fld.from_ > fld.to:
            c.bad("characters", ("sanity", "fields", index, "from"), f"field {fld.name} runs from {fld.from_} to {fld.to}: expected from <= to")
        if fld.from_ != expect:
            c.bad("characters", ("sanity", "fields", index, "from"), f"field {fld.name} starts at {fld.from_}: expected {expect}, so the fields cover {s.min}-{s.max} without gaps or overlaps")
        expect = fld.to + 1
    if expect != s.max + 1:
        c.bad("characters", ("sanity", "max"), f"the fields end at {expect - 1}: expected them to reach max {s.max}")
    if len(ch.characters) < tiles.players.max:
        c.fail("characters", ("characters",), f"{len(ch.characters)} characters for up to {tiles.players.max} players: expected at least {tiles.players.max}")


def check_tokens(c: Checker, tk: TokensFile) -> None:
    _duplicates(c, "tokens", "tokens", tk.tokens)
    for i, token in enumerate(tk.tokens):
        _icon(c, "tokens", ("tokens", i, "icon"), token.icon)


def check(game: "GameContent") -> list[ContentError]:
    """Every cross-file check of the cave game."""
    c = Checker(game)
    d = game.data
    check_tiles(c, d["tiles"], d["events"])
    check_board(c, d["board"])
    check_events(c, d["events"])
    check_food(c, d["food"])
    check_characters(c, d["characters"], d["tiles"])
    check_tokens(c, d["tokens"])
    return c.errors
