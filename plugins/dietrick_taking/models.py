"""Schemas of the Dietrick-taking content files: deck.yaml, scoring.yaml, players.yaml.

Checks that need more than one file live in `checks.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from pnp.api import Colour, Slug, StrictModel, keys_of, one_of, text_with

from .glyphs import GLYPHS

Row = Literal["yellow", "blue"]
Glyph = Annotated[str, one_of(GLYPHS, "glyph")]


# ---------------------------------------------------------------- deck.yaml


class Icon(StrictModel):
    """A score icon: which row of the scoring cards a card with it moves."""

    name: str
    row: Row
    colour: Colour
    ink: Colour = Field(description="the glyph's colour on a disc of `colour`: at least 3:1 against it")


class Suit(StrictModel):
    """A suit and which of its numbers carry which score icon."""

    id: Slug
    name: str
    colour: Colour
    glyph: Glyph
    fork: list[int]
    runner: list[int]


@dataclass(frozen=True)
class Card:
    """One trick-taking card, as the templates see it."""

    id: str
    suit: Suit
    number: int
    icon: str  # key into DeckFile.icons


class DeckBack(StrictModel):
    title: str
    tagline: str = ""


class DeckFile(StrictModel):
    """deck.yaml: the numbers of each suit, the score icons and the suits."""

    numbers: list[int]
    icons: dict[Literal["fork", "runner"], Icon]
    suits: list[Suit] = Field(min_length=1)
    back: DeckBack

    @field_validator("numbers")
    @classmethod
    def _numbers(cls, v: list[int]) -> list[int]:
        if not v or v != sorted(set(v)) or v[0] < 1:
            raise ValueError(f"{v} is not allowed: expected increasing numbers from 1 up, each once")
        return v

    @field_validator("icons")
    @classmethod
    def _icons(cls, v: dict[str, Icon]) -> dict[str, Icon]:
        if set(v) != {"fork", "runner"}:
            raise ValueError("expected both icons, fork and runner")
        rows = sorted(i.row for i in v.values())
        if rows != ["blue", "yellow"]:
            raise ValueError(f"rows {rows}: expected one icon moving the yellow row and one the blue row")
        return v

    def icon_cards(self) -> dict[str, int]:
        """Cards carrying each row's score icon: {"yellow": 18, "blue": 18}."""
        counts: dict[str, int] = {icon.row: 0 for icon in self.icons.values()}
        for suit in self.suits:
            counts[self.icons["fork"].row] += len(suit.fork)
            counts[self.icons["runner"].row] += len(suit.runner)
        return counts

    @property
    def cards(self) -> list[Card]:
        """Every card, suit by suit, in number order."""
        out = []
        for suit in self.suits:
            icon_of = {n: "fork" for n in suit.fork} | {n: "runner" for n in suit.runner}
            for n in sorted(icon_of):
                out.append(Card(f"{suit.id}-{n}", suit, n, icon_of[n]))
        return out


# ---------------------------------------------------------------- scoring.yaml


class ScoringCard(StrictModel):
    """One scoring card: the numbers printed in its yellow (top) and blue (bottom) rows."""

    number: int
    yellow: list[int] = Field(min_length=1)
    blue: list[int] = Field(min_length=1)

    @model_validator(mode="after")
    def _same_length(self) -> "ScoringCard":
        if len(self.yellow) != len(self.blue):
            raise ValueError(f"card {self.number}: yellow has {len(self.yellow)} squares and blue {len(self.blue)}: expected the same")
        return self

    @property
    def id(self) -> str:
        return f"card-{self.number}"


class GameLengthRuling(StrictModel):
    """Why pnp's game length differs from line 75's where it does (scoring.yaml)."""

    says: Annotated[str, text_with("players", "book", "ours")]
    other_tricks: dict[int, int] = Field(description="tricks per player count under the other reading of lines 63-73 "
                                         "(the trick that empties the deck left out of the reshuffle)")
    other_says: Annotated[str, text_with("players", "other", "ours")] = Field(
        description="printed to a sheet that ended after exactly `other_tricks`")


class Ruling(StrictModel):
    """A reading of pnp's where the rule book is silent: what the scorer prints."""

    says: str


class Upset(StrictModel):
    """Line 45: a led-suit `low` ranks first when the led suit's `beats` is in the trick too."""

    low: int
    beats: int

    @model_validator(mode="after")
    def _order(self) -> "Upset":
        if self.low >= self.beats:
            raise ValueError(f"low {self.low} and beats {self.beats}: expected low below beats (the low card beats a higher one)")
        return self


class Rulings(StrictModel):
    game_length: GameLengthRuling
    beginner_tie: Ruling


VARIANTS = ("standard", "beginner")  # a scoring sheet's `variant:` values (sheet.py), whose words scoring.yaml holds


class ScoringFile(StrictModel):
    """scoring.yaml: the scoring cards and the numbers that bound a game."""

    end_square: int = Field(ge=1)
    last_card: int
    tricks_by_players: dict[int, int]
    tricks_in_book: dict[int, int] = Field(description="the game lengths line 75 prints (the 4-player one contradicts the procedure)")
    reshuffles_by_players: dict[int, int] = Field(description="times the discards become a new deck, per player count")
    hand_size: int = Field(ge=1, description="cards dealt to each player as a hand (line 23)")
    upset: Upset = Field(description="the led-suit card that ranks first when a higher one of its suit is played too (line 45)")
    long_game_wins: int = Field(ge=1)
    solo_trick_cards: int = Field(ge=1)
    solo_fewest_trick_cards: int = Field(ge=1, description="cards of a solo trick Fuzz leads (line 97)")
    solo_personal_deck: int = Field(ge=1, description="cards dealt to the solo player, hand included (line 93)")
    rulings: Rulings
    markers_per_player: int = Field(ge=1)
    cards: list[ScoringCard] = Field(min_length=1)
    variants: Annotated[dict[str, str], keys_of(VARIANTS, "variants", "a scoring sheet's `variant:` values")] = Field(
        description="each variant a scoring sheet's `variant:` takes (standard, beginner), as the paper sheet's boxes and pnp serve's form say it")

    @model_validator(mode="after")
    def _cards(self) -> "ScoringFile":
        numbers = [c.number for c in self.cards]
        if sorted(numbers) != list(range(1, len(numbers) + 1)):
            raise ValueError(f"card numbers {numbers}: expected 1 to {len(numbers)}, each once")
        if self.last_card not in numbers:
            raise ValueError(f"last_card {self.last_card} is not one of the cards {numbers}")
        widths = {len(c.yellow) for c in self.cards}
        if len(widths) != 1:
            raise ValueError(f"cards have {sorted(widths)} squares per row: expected every card the same")
        before_last = sum(len(c.yellow) for c in self.cards if c.number != self.last_card)
        if not before_last < self.end_square <= before_last + len(self.card(self.last_card).yellow):
            raise ValueError(
                f"end_square {self.end_square} is not on card {self.last_card}: with it laid last, "
                f"expected a square from {before_last + 1} to {before_last + len(self.card(self.last_card).yellow)}"
            )
        if set(self.reshuffles_by_players) != set(self.tricks_by_players) or min(self.reshuffles_by_players.values(), default=0) < 0:
            raise ValueError(f"reshuffles_by_players {self.reshuffles_by_players}: expected 0 or more for each player count of "
                             f"tricks_by_players ({', '.join(map(str, sorted(self.tricks_by_players)))})")
        if self.solo_fewest_trick_cards > self.solo_trick_cards:
            raise ValueError(f"solo_fewest_trick_cards {self.solo_fewest_trick_cards}: expected at most solo_trick_cards ({self.solo_trick_cards})")
        for players, tricks in self.tricks_by_players.items():
            if players < 2 or tricks < 1:
                raise ValueError(f"tricks_by_players {players}: {tricks}: expected 2 or more players and 1 or more tricks")
        return self

    def length_ruling(self, players: int) -> str:
        """rulings.game_length filled in for `players`, or "" where line 75 agrees with us."""
        ours, book = self.tricks_by_players.get(players), self.tricks_in_book.get(players)
        if ours is None or book is None or ours == book:
            return ""
        return self.rulings.game_length.says.format(players=players, book=book, ours=ours)

    def other_reading(self, players: int, tricks: int) -> str:
        """rulings.game_length.other_says filled in when a `players` game of `tricks` tricks
        is what the other reading of lines 63-73 gives and pnp's ruling does not, else ""."""
        ruling = self.rulings.game_length
        ours, other = self.tricks_by_players.get(players), ruling.other_tricks.get(players)
        if ours is None or other is None or other == ours or tricks != other:
            return ""
        return ruling.other_says.format(players=players, other=other, ours=ours)

    def card(self, number: int) -> ScoringCard:
        return next(c for c in self.cards if c.number == number)

    @property
    def squares_per_card(self) -> int:
        return len(self.cards[0].yellow)

    @property
    def track_length(self) -> int:
        return self.squares_per_card * len(self.cards)

    @property
    def free_cards(self) -> list[int]:
        """Card numbers whose order is chosen at the table."""
        return sorted(c.number for c in self.cards if c.number != self.last_card)

    def end_slot(self) -> int:
        """0-based index of the end square on the last card."""
        return self.end_square - 1 - self.squares_per_card * (len(self.cards) - 1)

    def track(self, order: list[int], row: Row) -> list[int]:
        """The printed numbers of one row, square by square, with the free cards in `order`."""
        return [n for number in [*order, self.last_card] for n in getattr(self.card(number), row)]


# ---------------------------------------------------------------- players.yaml


class PlayerColour(StrictModel):
    id: Slug
    name: str
    colour: Colour
    ink: Colour | None = None  # a darker shade for text in the colour (players.yaml); the colour itself when None


# The placeholders a reference text may hold, filled in by `_fill` from scoring.yaml.
REFERENCE_FIELDS = ("end_square", "tricks", "long_game_wins", "hand_size", "solo_personal_deck", "upset_low", "upset_beats")


class Section(StrictModel):
    heading: str
    text: Annotated[str, text_with(*REFERENCE_FIELDS)]
    solo: Annotated[str, text_with(*REFERENCE_FIELDS)] | None = Field(
        None, description="a back section the solo scoring sheet prints too, in these words (the solo game's own rule)")
    solo_sheet: bool = Field(False, description="a back section the solo scoring sheet prints too, as it is (a rule the "
                             "solo game shares, such as a variant the sheet has a box or column for)")


class Reference(StrictModel):
    """The two-sided player reference; its texts may name rule values of scoring.yaml."""

    title: str
    front: list[Section] = Field(min_length=1)
    back: list[Section] = Field(min_length=1)
    solo: list[Section] = Field(min_length=1, description="the solo card: playing against Fuzz")

    def side(self, side: str, scoring: "ScoringFile") -> list[tuple[str, str]]:
        """(heading, text) of one side ("front", "back" or "solo", the solo card) with the
        rule values filled in from scoring.yaml."""
        sections = {"front": self.front, "back": self.back, "solo": self.solo}[side]
        return [(s.heading, _fill(s.text, scoring)) for s in sections]

    def solo_sheet(self, scoring: "ScoringFile") -> list[tuple[str, str]]:
        """(heading, text) the solo scoring sheet prints: the solo card's last section (its
        end), then the back's sections that have a solo wording, in that wording (the
        back's tie-break is not the solo game's: dietrick-taking-rules.txt line 103), or
        are marked `solo_sheet` (the variants, whose box and column the sheet has)."""
        back = [(s.heading, _fill(s.solo if s.solo is not None else s.text, scoring))
                for s in self.back if s.solo is not None or s.solo_sheet]
        return self.side("solo", scoring)[-1:] + back


def _fill(text: str, scoring: "ScoringFile") -> str:
    """A reference text with its placeholders filled in from scoring.yaml."""
    book = scoring.tricks_in_book
    tricks = ", ".join(f"{t} tricks at {n}" + (f" (our count; the book says {book[n]})" if book.get(n, t) != t else "")
                       for n, t in sorted(scoring.tricks_by_players.items()))
    return text.format(end_square=scoring.end_square, tricks=tricks, long_game_wins=scoring.long_game_wins,
                       hand_size=scoring.hand_size, solo_personal_deck=scoring.solo_personal_deck,
                       upset_low=scoring.upset.low, upset_beats=scoring.upset.beats)


@dataclass(frozen=True)
class Marker:
    """One scoring marker token."""

    id: str
    colour: PlayerColour
    index: int


class PlayersFile(StrictModel):
    """players.yaml: the player colours and the text of the reference card."""

    colours: list[PlayerColour] = Field(min_length=1)
    marker_rim: Colour = Field(description="the dark rim of every scoring marker: it keeps a marker apart from both rows")
    reference: Reference

    def markers(self, per_player: int) -> list[Marker]:
        return [Marker(f"{c.id}-{i}", c, i) for c in self.colours for i in range(1, per_player + 1)]
