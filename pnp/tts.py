"""Tabletop Simulator export: every component with a back becomes custom-deck sheets.

A sheet is a grid of at most 10 x 7 card images (trimmed, no bleed) and at most 4096 px a
side; the cards are scaled down to fit. Every copy of a card gets its own slot, so the
deck imports complete. The grid's last slot (the 70th on a full sheet) holds the hidden
card, the image Tabletop Simulator shows for cards in other players' hands: the shared
back, or a plain grey card when backs differ per item (those go on matching back
sheets, for TTS's "unique backs"). `tts/decks.json` lists each sheet's grid and count.
"""

from __future__ import annotations

import io
import json
import math
from functools import partial
from typing import TYPE_CHECKING

from .cache import Planned, digest
from .raster import settings, svg_to_image

if TYPE_CHECKING:
    from PIL import Image

    from .content import GameContent
    from .render import Face, RenderedComponent

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1  # the last slot is the hidden card
HIDDEN_GREY = (96, 96, 96)
EMPTY = (255, 255, 255)


def grid(count: int) -> tuple[int, int]:
    """Columns and rows for `count` cards plus the hidden card (TTS wants at least 2 x 2)."""
    slots = count + 1
    cols = min(MAX_COLS, max(2, slots))
    return cols, max(2, math.ceil(slots / cols))


def card_pixels(face: "Face", dpi: int, cols: int, rows: int) -> tuple[int, int]:
    """Card size in px at `dpi`, scaled down so the sheet stays within MAX_PX a side."""
    w, h = face.width / 25.4 * dpi, face.height / 25.4 * dpi
    scale = min(1.0, MAX_PX / (cols * w), MAX_PX / (rows * h))
    return max(1, math.floor(w * scale)), max(1, math.floor(h * scale))


def card_image(face: "Face", size: tuple[int, int]) -> "Image.Image":
    """The face at `size` px, bleed cut off."""
    from PIL import Image

    s = size[0] / face.width  # px per mm
    full = svg_to_image(face.svg, dpi=s * 25.4, fonts=face.fonts).convert("RGB")
    b = face.bleed * s
    return full.resize(size, Image.LANCZOS, box=(b, b, b + face.width * s, b + face.height * s))


def _png(image: "Image.Image") -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def _card_png(face: "Face", size: tuple[int, int]) -> bytes:
    return _png(card_image(face, size))


def sheet_png(faces: list["Face"], hidden: "Face | None", cols: int, rows: int, size: tuple[int, int]) -> bytes:
    """One sheet: `faces` in row-major slots, `hidden` (or grey) in the last slot."""
    from PIL import Image

    w, h = size
    sheet = Image.new("RGB", (cols * w, rows * h), EMPTY)
    drawn: dict[str, Image.Image] = {}
    for i, face in enumerate(faces):
        if face.svg not in drawn:
            drawn[face.svg] = card_image(face, size)
        sheet.paste(drawn[face.svg], ((i % cols) * w, (i // cols) * h))
    last = (cols - 1) * w, (rows - 1) * h
    sheet.paste(card_image(hidden, size) if hidden else Image.new("RGB", size, HIDDEN_GREY), last)
    return _png(sheet)


def tts_files(game: "GameContent", rendered: list["RenderedComponent"], dpi: int) -> dict[str, Planned]:
    """`tts/<component>/faces-N.png`, `back.png` or `backs-N.png`, and `tts/decks.json`."""
    setup = settings(game.fonts)
    files: dict[str, Planned] = {}
    decks, skipped = [], []
    for comp in rendered:
        cid = comp.spec.id
        cards = [(p.item_id, p.front, p.back) for p in comp.pieces for _ in range(p.copies)]
        if comp.spec.back is None or not cards:
            skipped.append({"component": cid, "reason": "no back: not a card deck" if comp.spec.back is None else "no cards"})
            continue
        unique = comp.spec.back_per_item
        chunks = [cards[i : i + PER_SHEET] for i in range(0, len(cards), PER_SHEET)]
        size = card_pixels(cards[0][1], dpi, *grid(len(chunks[0])))
        shared = None if unique else cards[0][2]
        sheets = []
        for n, chunk in enumerate(chunks, 1):
            cols, rows = grid(len(chunk))
            fronts = [front for _, front, _ in chunk]
            entry = {"face": f"{cid}/faces-{n}.png", "back": f"{cid}/back.png", "cols": cols, "rows": rows,
                     "count": len(chunk), "hidden_slot": cols * rows, "cards": [ident for ident, _, _ in chunk]}
            files[f"tts/{entry['face']}"] = _plan_sheet(setup, fronts, shared, cols, rows, size)
            if unique:
                entry["back"] = f"{cid}/backs-{n}.png"
                files[f"tts/{entry['back']}"] = _plan_sheet(setup, [back for _, _, back in chunk], None, cols, rows, size)
            sheets.append(entry)
        if shared is not None:
            files[f"tts/{cid}/back.png"] = Planned(digest("tts-back", setup, size, shared.svg), partial(_card_png, shared, size))
        decks.append({"component": cid, "name": comp.spec.name, "cards": len(cards), "card_px": list(size),
                      "unique_backs": unique, "sheets": sheets})
    summary = {"game": game.name, "title": game.manifest.title, "max_grid": [MAX_COLS, MAX_ROWS],
               "decks": decks, "skipped": skipped}
    text = (json.dumps(summary, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    files["tts/decks.json"] = Planned(digest(text), lambda: text)
    return files


def _plan_sheet(setup: str, faces: list["Face"], hidden: "Face | None", cols: int, rows: int, size: tuple[int, int]) -> Planned:
    key = digest("tts-sheet", setup, cols, rows, size, [digest(f.svg) for f in faces], hidden and digest(hidden.svg))
    return Planned(key, partial(sheet_png, faces, hidden, cols, rows, size))
