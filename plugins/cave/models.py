"""Schemas of the cave game's content files: tiles, board, events, food, characters, tokens.

Each model checks what one value or one file can check on its own; checks between parts of
a file or between files (counts, shapes, item names, player marks) live in `checks.py`.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, field_validator, model_validator

from pnp.api import Length
from pnp.api import Colour, Slug, StrictModel, text_with


Direction = Literal["north", "east", "south", "west"]
DIRECTIONS: tuple[str, ...] = ("north", "east", "south", "west")  # clockwise, from the top edge


Count = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(ge=1)]


def _openings(v: list[str]) -> list[str]:
    if len(set(v)) != len(v):
        raise ValueError(f"{v} names a side twice: expected each of north, east, south, west at most once")
    if not v:
        raise ValueError("is empty: expected at least one of north, east, south, west")
    return v


Openings = Annotated[list[Direction], AfterValidator(_openings)]


# ---------------------------------------------------------------- tiles.yaml


class PlayerRange(StrictModel):
    min: Positive
    max: Positive

    @model_validator(mode="after")
    def _order(self) -> "PlayerRange":
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}: expected min <= max")
        return self


class Shape(StrictModel):
    """A passage shape, given by its openings in one orientation; any rotation is the same shape."""

    label: str
    openings: Openings



class Room(StrictModel):
    """A room type: the words printed in the middle of the tile and their colours."""

    labels: list[str] = Field(description="words printed on the tile, one badge each; empty for a plain passage")
    colours: list[Colour] = Field(default_factory=list, description="badge colour per label")

    @model_validator(mode="after")
    def _pairs(self) -> "Room":
        if len(self.colours) != len(self.labels):
            raise ValueError(f"has {len(self.labels)} labels and {len(self.colours)} colours: expected one colour per label")
        return self


class Relabel(StrictModel):
    """Rooms made by re-labelling some rooms of a counted type."""

    from_: Slug = Field(alias="from")
    count: Count


class Tile(StrictModel):
    """One cave tile: a passage shape, its openings as printed, a room, and the back's player mark."""

    id: Slug
    players: Positive = Field(description="player-count mark on the back: used in games of this many players or more")
    shape: Slug
    openings: Openings
    room: Slug



class Requirement(StrictModel):
    players: Positive | None = Field(None, description="players on the exit tile at least (None: no rule)")
    items: list[Slug] = Field(default_factory=list, description="item cards (ids in events.yaml) the players must hold")
    challenge: bool = Field(False, description="a challenge must be beaten to leave")


class Exit(StrictModel):
    id: Slug
    number: Positive
    players: Positive = Field(description="player-count mark on the back")
    shape: Slug
    openings: Openings
    requires: Requirement



class Start(StrictModel):
    """The start tile: several squares side by side, open to each other inside."""

    id: Slug
    label: str
    back_label: str
    squares: list[Openings] = Field(min_length=1, description="openings of each square, left to right")


class TilesFile(StrictModel):
    """tiles.yaml: every tile of the cave, how many of each there should be, who plays with which."""

    players: PlayerRange
    exits_by_players: dict[int, Count]
    shapes: dict[Slug, Shape]
    shape_counts: dict[Slug, Count]
    rooms: dict[Slug, Room]
    room_counts: dict[Slug, Count]
    relabelled: dict[Slug, Relabel] = Field(default_factory=dict)
    exit_label: str
    exit_colour: Colour
    deck_minimum: "DeckMinimum"
    tiles: list[Tile]
    exits: list[Exit]
    start: Start


class DeckMinimum(StrictModel):
    """What every per-player-count deck must hold; keys are shape or room names, or `tiles`."""

    per_player: dict[Slug, Count] = Field(default_factory=dict)
    each_game: dict[Slug, Count] = Field(default_factory=dict)


TilesFile.model_rebuild()


# ---------------------------------------------------------------- board.yaml


def _die(v: str) -> str:
    if not re.fullmatch(r"D[1-9][0-9]*", v):
        raise ValueError(f"is {v!r}: expected a die written D and its number of sides, e.g. D8")
    return v


Die = Annotated[str, AfterValidator(_die)]


def sides(die: str) -> int:
    """The number of sides of a die written as D8, D12, ..."""
    return int(die[1:])


class SquaresSize(StrictModel):
    columns: Positive
    rows: Positive


class BoardFile(StrictModel):
    """board.yaml: the grid the tiles are laid on and the coordinates printed round it."""

    component: Slug = Field(description="the game.yaml component drawn as the board")
    square: Length = Field(description="side of one square; the cave tiles are this size")
    border: Length = Field(description="paper round the grid that carries the coordinates")
    row_labels: list[str] = Field(min_length=1, description="top to bottom, along the short side")
    column_labels: list[str] = Field(min_length=1, description="left to right, along the long side")
    row_die: Die = Field(description="the die rolled for a row: one side per row label (checked)")
    column_die: Die = Field(description="the die rolled for a column: one side per column label (checked)")
    colours: dict[Literal["paper", "grid", "label", "faint"], Colour]
    tile_components: dict[Slug, SquaresSize] = Field(description="components sized in board squares")

    @field_validator("row_labels", "column_labels", mode="before", json_schema_input_type=list[str | int])
    @classmethod
    def _text(cls, v):
        return [str(x) for x in v] if isinstance(v, list) else v


# ---------------------------------------------------------------- events.yaml


class EventKind(StrictModel):
    label: str
    colour: Colour
    count: Count = Field(description="cards of this kind the deck must hold (sum of copies)")


class EventCard(StrictModel):
    id: Slug
    kind: Slug
    title: str
    icon: Slug
    text: str
    keep: bool = Field(False, description="an item: the player keeps the card")
    copies: Positive = 1


class EventsFile(StrictModel):
    back_label: str
    kinds: dict[Slug, EventKind]
    cards: list[EventCard]


# ---------------------------------------------------------------- food.yaml


class FoodType(StrictModel):
    label: str
    colour: Colour
    icon: Slug


class FoodCard(StrictModel):
    id: Slug
    type: Slug
    value: int
    title: str
    copies: Positive = 1


class MealState(StrictModel):
    label: str
    colour: Colour
    text: str = Field(description="how the card works; {value} is replaced by the card's value")


class MealCard(StrictModel):
    id: Slug
    state: Slug
    type: Slug
    value: Positive
    copies: Positive = 1


class FoodFile(StrictModel):
    """food.yaml: FOOD cards (found in the cave) and the MEAL cards drawn when eating them."""

    food_values: "ValueRange"
    food_back_label: str
    food_text: str
    types: dict[Slug, FoodType]
    foods: list[FoodCard]
    meal_back_label: str
    states: dict[Slug, MealState]
    meals: list[MealCard]


class ValueRange(StrictModel):
    min: int
    max: int

    @model_validator(mode="after")
    def _order(self) -> "ValueRange":
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}: expected min <= max")
        return self


FoodFile.model_rebuild()


# ---------------------------------------------------------------- characters.yaml


class EnergyMeter(StrictModel):
    label: str
    steps: Positive
    start: Positive
    start_label: str = Field(description="the key to the start frames (the rules give no start: say so)")
    per_row: Positive = Field(description="cells per row on the card")


class MeterField(StrictModel):
    name: str
    colour: Colour
    ink: Colour | None = Field(None, description="colour of the numbers on this field (default: the card's dark ink)")
    from_: int = Field(alias="from")
    to: int
    bonus: int = Field(description="added to ENERGY on a challenge roll while SANITY is in this field")


class SanityMeter(StrictModel):
    label: str
    min: int
    max: int
    start: int
    zero_text: str
    fields: list[MeterField] = Field(min_length=1)
    choices_text: str = Field(description="printed under the meters: what on them is our choice, not the rules'")


class Character(StrictModel):
    id: Slug
    name: str
    role: str
    colour: Colour
    text: str


class MeterMarker(StrictModel):
    """The ENERGY and SANITY markers (game.yaml `meter-markers`): a ring whose hole shows
    the meter number under it."""

    hole: float = Field(gt=0, description="diameter of the hole to punch, in mm")


class CharactersFile(StrictModel):
    back_label: str
    energy: EnergyMeter
    sanity: SanityMeter
    marker: MeterMarker
    characters: list[Character] = Field(min_length=1)


# ---------------------------------------------------------------- tokens.yaml


class Token(StrictModel):
    id: Slug
    label: str
    colour: Colour
    icon: Slug
    copies: Positive


class TokensFile(StrictModel):
    tokens: list[Token] = Field(min_length=1)


# ---------------------------------------------------------------- summary.yaml

class SummarySection(StrictModel):
    heading: str
    text: Annotated[str, text_with("start_energy", "energy_steps", "sanity_max", "sanity_start", "bonuses", "exits", "exit_sets",
                                   "row_die", "row_count", "rows", "column_die", "columns")]


class SummarySide(StrictModel):
    heading: str
    sections: list[SummarySection] = Field(min_length=1)


def exit_sets(tiles: "TilesFile") -> str:
    """Which exits each player count plays, read from the exits' back marks (a game for N
    uses those marked N or less): "exit 1 at 2 players, exits 1-2 at 3, all 3 at 4-6"."""

    def named(numbers: list[int]) -> str:
        if not numbers:
            return "no exit"
        if len(numbers) == 1:
            return f"exit {numbers[0]}"
        if len(numbers) == len(tiles.exits):
            return f"all {len(numbers)}"
        if numbers == list(range(numbers[0], numbers[-1] + 1)):
            return f"exits {numbers[0]}-{numbers[-1]}"
        return "exits " + ", ".join(map(str, numbers))

    runs: list[tuple[list[int], list[int]]] = []  # (player counts, exit numbers), in order
    for n in range(tiles.players.min, tiles.players.max + 1):
        numbers = sorted(e.number for e in tiles.exits if e.players <= n)
        if runs and runs[-1][1] == numbers:
            runs[-1][0].append(n)
        else:
            runs.append(([n], numbers))
    parts = [f"{named(numbers)} at {ns[0]}" + (f"-{ns[-1]}" if len(ns) > 1 else "") for ns, numbers in runs]
    return ", ".join([parts[0] + " players", *parts[1:]])


class SummaryFile(StrictModel):
    """summary.yaml: the two-sided rules summary card and the dice the game needs besides
    the board's."""

    title: str
    front: SummarySide
    back: SummarySide
    dice: list[Die] = Field(min_length=1, description="the dice rolled besides board.yaml's row_die and column_die")

    def side(self, side: str, characters: "CharactersFile", tiles: "TilesFile", board: BoardFile) -> list[tuple[str, str]]:
        """(heading, text) of one side, with the meter, exit and board values filled in
        (the board's dice and labels: the same values the board prints)."""
        e, s = characters.energy, characters.sanity
        bonuses = ", ".join(f"{f.name} +{f.bonus}" for f in reversed(s.fields))
        by = tiles.exits_by_players
        exits = "/".join(str(by[n]) for n in sorted(by)) + f" at {min(by)}-{max(by)} players"
        values = {"start_energy": e.start, "energy_steps": e.steps, "sanity_max": s.max, "sanity_start": s.start,
                  "bonuses": bonuses, "exits": exits, "exit_sets": exit_sets(tiles),
                  "row_die": board.row_die, "row_count": len(board.row_labels),
                  "rows": f"{board.row_labels[0]}-{board.row_labels[-1]}",
                  "column_die": board.column_die, "columns": f"{board.column_labels[0]}-{board.column_labels[-1]}"}
        return [(x.heading, x.text.format(**values)) for x in getattr(self, side).sections]
