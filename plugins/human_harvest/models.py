"""Schemas of the Human Harvest content files: piecepack.yaml, extras.yaml, summary.yaml."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import Field

from pnp.api import Colour, Slug, StrictModel, one_of

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
