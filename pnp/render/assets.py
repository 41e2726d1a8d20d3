"""Art images for templates: `asset('art/wolf.png')` gives a data URI for an <image href>.

The file is looked up in the game's content folder, then in the project's `assets/`
folder. PNG, JPEG and SVG are accepted; SVG art stays vector in the PDF. The picture goes
into the face SVG itself, so the SVG, PNG, TTS and PDF outputs all show it and none needs
the file at print time; the PDF engine stores a picture used on many faces once.
A missing or unreadable file is an error at the template line that asked for it.
"""

from __future__ import annotations

import base64
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

from markupsafe import Markup

from .textfit import template_frame

if TYPE_CHECKING:
    from ..load.content import GameContent

KINDS = {b"\x89PNG\r\n\x1a\n": "image/png", b"\xff\xd8\xff": "image/jpeg"}


def media_type(data: bytes) -> str | None:
    """image/png, image/jpeg or image/svg+xml by content; None for anything else."""
    for magic, kind in KINDS.items():
        if data.startswith(magic):
            return kind
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        return None
    return "image/svg+xml" if root.tag in {"svg", "{http://www.w3.org/2000/svg}svg"} else None


class Assets:
    """The `asset()` template helper of one game; problems are collected for the renderer."""

    def __init__(self, game: "GameContent"):
        self.game = game
        self.uris: dict[str, str] = {}
        self.problems: list[tuple[str, Path | None, int | None]] = []

    def __call__(self, name: str) -> Markup:
        name = str(name)
        if name not in self.uris:
            path = self.game.resolve_file(name)
            where = f"content/{self.game.name}/ or assets/"
            if path is None:
                self.problems.append((f"image not found: {name!r} (looked in {where})", *template_frame()))
                return Markup("")
            data = path.read_bytes()
            kind = media_type(data)
            if kind is None:
                self.problems.append((f"cannot use {name!r} as an image: expected a PNG, JPEG or SVG file", *template_frame()))
                return Markup("")
            self.uris[name] = f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"
        return Markup(self.uris[name])

    def take(self) -> list[tuple[str, Path | None, int | None]]:
        found, self.problems = self.problems, []
        return found
