"""Project defaults: `pnp.yaml` in the project folder, read by every command.

It holds what a user would otherwise type on every command (paper, bleed, formats, sheet
layout, dpi, back offset, packing) and the project's own papers and sheet layouts. A
command-line option overrides the file; an unknown key or a bad value is an error naming
the file and line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field

from ..errors import PnpError
from . import project_files
from .layouts import PaperSize, SheetLayout, papers, table
from .manifest import Length
from .validation import Slug, StrictModel, validate
from .yamlio import load_located

FILE = "pnp.yaml"


class Settings(StrictModel):
    """The keys of pnp.yaml; each is optional (unset: the command's own default)."""

    paper: str | None = Field(default=None, description="paper name: letter, legal, a4, a3, tabloid or one under `papers`")
    bleed: Length | None = Field(default=None, description="bleed around every piece")
    formats: list[str] | None = Field(default=None, description="formats `pnp build` writes, e.g. [svg, pdf]")
    layout: str | None = Field(default=None, description="sheet layout of the print PDF: tight (the default), standard, fold, scissors or one under `layouts`")
    dpi: int | None = Field(default=None, description="resolution of png and tts images")
    back_offset: tuple[float, float] | None = Field(default=None, description="[across, down] mm to shift backs in the print PDF")
    pack: bool | None = Field(default=None, description="pack what is left of every component onto shared sheets (default true)")
    cut_file: bool | None = Field(default=None, description="print-then-cut: registration marks and an SVG cut file per sheet (default false)")
    papers: dict[Slug, PaperSize] = Field(default_factory=dict, description="the project's own paper sizes")
    layouts: dict[Slug, SheetLayout] = Field(default_factory=dict, description="the project's own sheet layouts")


def load_settings(root: Path) -> Settings:
    """The settings in `root`/pnp.yaml (all unset when there is no such file)."""
    path = root / FILE
    if not path.is_file():
        return Settings()
    doc = load_located(project_files.inside(root, path, None, "settings file"))
    if doc.data is None:
        return Settings()
    settings, errors = validate(doc, Settings)
    if settings is not None:
        if settings.paper is not None:  # paper names are lower-case: `paper: A4` is a4
            settings = settings.model_copy(update={"paper": settings.paper.strip().lower()})
        if settings.paper is not None and settings.paper not in papers(settings.papers):
            errors.append(doc.error(("paper",), f"unknown paper {settings.paper!r}: expected one of {', '.join(papers(settings.papers))}"))
        from ..build.driver import FORMATS

        for i, name in enumerate(settings.formats or []):
            if name not in FORMATS:
                errors.append(doc.error(("formats", i), f"unknown format {name!r}: expected some of {', '.join(FORMATS)}"))
        if settings.layout is not None and settings.layout not in table(settings.layouts):
            errors.append(doc.error(("layout",), f"unknown layout {settings.layout!r}: expected one of {', '.join(table(settings.layouts))}"))
    if errors:
        raise PnpError(errors)
    assert settings is not None
    return settings


def merged(settings: Settings, given: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """Each key: the command line's value when given (not None), else pnp.yaml's, else the default."""
    out = {}
    for key, default in defaults.items():
        value = given.get(key)
        if value is None:
            value = getattr(settings, key, None)
        out[key] = default if value is None else value
    return out
