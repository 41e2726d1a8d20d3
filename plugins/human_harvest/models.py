"""Schemas of the Human Harvest content files: piecepack.yaml, extras.yaml, summary.yaml,
scoring.yaml."""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Annotated

from pydantic import Field, model_validator

from pnp.api import Colour, Slug, StrictModel, beyond_name, one_of

from .glyphs import GLYPHS, SUIT_GLYPHS

Glyph = Annotated[str, one_of(sorted(GLYPHS), "glyph")]
SuitGlyph = Annotated[str, one_of(sorted(SUIT_GLYPHS), "suit glyph")]


# ---------------------------------------------------------------- piecepack.yaml


class Suit(StrictModel):
    id: Slug
    name: str
    colour: Colour
    glyph: SuitGlyph


class Rank(StrictModel):
    id: Slug
    name: str
    label: str = Field(description="what the pieces print; empty for a blank (null)")


@dataclass(frozen=True)
class Piece:
    """One tile or coin: a suit and a rank."""

    id: str
    suit: Suit
    rank: Rank


class PiecepackFile(StrictModel):
    """piecepack.yaml: the suits and the ranks, in die order."""

    suits: list[Suit] = Field(min_length=1)
    ranks: list[Rank] = Field(min_length=1)

    @property
    def pieces(self) -> list[Piece]:
        """One piece per suit and rank, suit by suit."""
        return [Piece(f"{s.id}-{r.id}", s, r) for s in self.suits for r in self.ranks]


# ---------------------------------------------------------------- extras.yaml


class Token(StrictModel):
    """A round counter printed `count` times."""

    id: Slug
    name: str
    count: int = Field(ge=0)
    glyph: Glyph
    ink: Colour
    paper: Colour


class Standee(StrictModel):
    """A fold-up pawn that is not one of the piecepack's own."""

    id: Slug
    name: str
    label: str
    count: int = Field(ge=0)
    colour: Colour
    glyph: Glyph


class Marker(StrictModel):
    """A tile-sized board marker with a few reminder lines."""

    id: Slug
    name: str
    glyph: Glyph
    colour: Colour
    notes: list[str] = Field(default_factory=list)


class ExtrasFile(StrictModel):
    """extras.yaml: tokens, extra standees and board markers for Human Harvest."""

    tokens: list[Token]
    standees: list[Standee]
    markers: list[Marker]


# ---------------------------------------------------------------- summary.yaml


class Section(StrictModel):
    heading: str
    points: list[str] = Field(min_length=1)


class SummaryFile(StrictModel):
    """summary.yaml: the one-page rules summary."""

    title: str
    subtitle: str = ""
    sections: list[Section] = Field(min_length=1)


# ---------------------------------------------------------------- scoring.yaml


class Ruling(StrictModel):
    """A reading of pnp's where the rule book is silent: what the scorer prints."""

    says: str


class Rulings(StrictModel):
    board_tie: Ruling
    all_out: Ruling


# the counts a sheet text may print, as {name}
SHEET_COUNTS = ("cyborgs_per_player", "cyborgs_to_win", "humans_to_win")


class SheetWords(StrictModel):
    """`sheet:` in scoring.yaml: the paper scoring sheet's fields, in the scoring-sheet
    file's order and names (checks.py holds them to the scorer's), with their reminders."""

    fields: dict[str, str] = Field(description="the file's top-level keys in order, each with a short hint")
    player_fields: dict[str, str] = Field(description="a player's keys in order, each with a short hint")
    choices: dict[str, dict[str, str]] = Field(description="per field, its values with what each means")


class ScoringFile(StrictModel):
    """scoring.yaml: the counts that end a game and decide its winner."""

    cyborgs_per_player: int = Field(ge=1, description="Cyborgs each player owns (human-harvest-rules.txt line 17)")
    cyborgs_to_win: int = Field(ge=1, description="Cyborgs on the board that win the basic game (line 30)")
    humans_to_win: int = Field(ge=1, description="Humans stored that win once the DNA Collection Point is in play (lines 116, 151)")
    rulings: Rulings
    sheet: SheetWords

    @model_validator(mode="after")
    def _reachable(self) -> "ScoringFile":
        if self.cyborgs_to_win > self.cyborgs_per_player:
            raise ValueError(f"cyborgs_to_win {self.cyborgs_to_win} is more than the {self.cyborgs_per_player} Cyborgs a player has (cyborgs_per_player)")
        return self

    def texts(self) -> list[tuple[tuple[str, ...], str]]:
        """Every text of `sheet:` and where it is written."""
        words = self.sheet
        found = [(("sheet", group, key), text) for group in ("fields", "player_fields") for key, text in getattr(words, group).items()]
        return found + [(("sheet", "choices", field, value), text) for field, values in words.choices.items() for value, text in values.items()]

    @staticmethod
    def placeholders_ok(text: str) -> bool:
        """Only plain names of SHEET_COUNTS: `{x.attr}` or `{x[0]}` would reach past the number, and
        a format (`{x:>999999999}`, `{x:s}`) would make a giant text or fail in the template."""
        try:
            names = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
            return names <= set(SHEET_COUNTS) and beyond_name(text) is None
        except ValueError:  # a lone brace
            return False

    def say(self, text: str) -> str:
        """A sheet text with the counts it names filled in. A template may hand it any text:
        one `placeholders_ok` refuses is refused here too, before a width makes a giant text."""
        if not self.placeholders_ok(text):
            raise ValueError(f"{text!r}: expected only the placeholders {', '.join('{%s}' % n for n in SHEET_COUNTS)} "
                             "(a lone brace is written {{ or }})")
        return text.format(**{name: getattr(self, name) for name in SHEET_COUNTS})
