"""Schemas of the Human Harvest content files: piecepack.yaml, extras.yaml, summary.yaml."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field, field_validator

from pnp.validation import StrictModel
from pnp.validation import check_colour as _colour
from pnp.validation import check_slug as _slug

from .glyphs import GLYPHS, SUIT_GLYPHS



def _glyph(v: str) -> str:
    if v not in GLYPHS:
        raise ValueError(f"unknown glyph {v!r}: expected one of {', '.join(sorted(GLYPHS))}")
    return v


# ---------------------------------------------------------------- piecepack.yaml


class Suit(StrictModel):
    id: str
    name: str
    colour: str
    glyph: str

    _s = field_validator("id")(_slug)
    _c = field_validator("colour")(_colour)

    @field_validator("glyph")
    @classmethod
    def _suit_glyph(cls, v: str) -> str:
        if v not in SUIT_GLYPHS:
            raise ValueError(f"unknown suit glyph {v!r}: expected one of {', '.join(sorted(SUIT_GLYPHS))}")
        return v


class Rank(StrictModel):
    id: str
    name: str
    label: str = Field(description="what the pieces print; empty for a blank (null)")

    _s = field_validator("id")(_slug)


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

    id: str
    name: str
    count: int = Field(ge=0)
    glyph: str
    ink: str
    paper: str

    _s = field_validator("id")(_slug)
    _g = field_validator("glyph")(_glyph)
    _c = field_validator("ink", "paper")(_colour)


class Standee(StrictModel):
    """A fold-up pawn that is not one of the piecepack's own."""

    id: str
    name: str
    label: str
    count: int = Field(ge=0)
    colour: str
    glyph: str

    _s = field_validator("id")(_slug)
    _g = field_validator("glyph")(_glyph)
    _c = field_validator("colour")(_colour)


class Marker(StrictModel):
    """A tile-sized board marker with a few reminder lines."""

    id: str
    name: str
    glyph: str
    colour: str
    notes: list[str] = Field(default_factory=list)

    _s = field_validator("id")(_slug)
    _g = field_validator("glyph")(_glyph)
    _c = field_validator("colour")(_colour)


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
