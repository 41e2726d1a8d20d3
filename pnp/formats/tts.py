"""Tabletop Simulator export: every piece of a game, as images and one saved-object file.

- A component with a back (smaller than a board) becomes custom-deck sheets: a grid of at
  most 10 x 7 card images (trimmed, no bleed), at most 4096 px a side, every copy in its own
  slot; of the grids that hold them, the one that shows them largest. The grid's last slot holds the hidden card, the image Tabletop Simulator shows for
  cards in other players' hands: the shared back, or a plain grey card when backs differ
  per item (those go on matching back sheets, TTS's "unique backs").
- Every other component becomes one image per item: a Custom Board (a piece at least
  BOARD_MM long without a back), a Custom Token (at most TOKEN_MM on its long side, cut to
  its image's shape) or a Custom Tile (the rest; two-sided when it has a back). A round
  piece (`shape: round`) with a back is a round two-sided Custom Tile, never a card; a
  round piece's images are transparent outside its circle. Items that look the same share
  their image files (and stack).
- `tts/<game>.json` is a saved object holding all of them (pnp/tts_objects.py);
  `tts/decks.json` lists the sheets and images for importing by hand.

Image file names end in a hash of what the image is made from: Tabletop Simulator caches
images by URL, so an edited card gets a new name and is never hidden by the cache.
"""

from __future__ import annotations

import io
import json
import math
import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..files import Planned, digest
from .raster import check_pixels, located, of_game, settings, svg_to_image, TooManyPixels

if TYPE_CHECKING:
    from PIL import Image

    from ..load.content import GameContent
    from ..render.faces import Face, Piece, RenderedComponent

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1  # the last slot is the hidden card
HIDDEN_GREY = (96, 96, 96)
EMPTY = (255, 255, 255)
PAPER = (255, 255, 255, 255)  # what a face leaves transparent inside a card's, tile's or round piece's cut prints as
# how pnp draws its images, beyond the renderer's settings: part of every image's name, so
# a change to it (transparency on PAPER, not black) renames them and no TTS cache shows the old
DRAWING = "transparency inside the cut on white paper"
BOARD_MM = 150.0  # a piece this long (or longer) is a board, never a card
TOKEN_MM = 40.0  # a piece without a back no longer than this is a token
HASH = 10  # hex digits of the content hash in image names
# a face's <title> (pnp/templates/base.svg.j2: its component and item id) is never drawn
TITLE = re.compile(r"<title\b[^>]*>[^<]*</title>")


def grid(count: int, card: tuple[float, float]) -> tuple[int, int]:
    """Columns and rows for `count` cards plus the hidden card, the cards `card` (w, h) px
    before any scaling: of the grids TTS takes (2 to 10 columns, 2 to 7 rows), the one that
    shows them largest within MAX_PX a side; of those, the fewest slots, then the widest."""
    shapes = [(cols, rows) for cols in range(2, MAX_COLS + 1) for rows in range(2, MAX_ROWS + 1) if cols * rows > count]
    return max(shapes, key=lambda shape: (fitted(card, *shape), -shape[0] * shape[1], shape[0]))


def natural(face: "Face", dpi: int) -> tuple[float, float]:
    """The card's trimmed size in px at `dpi`, before any scaling down."""
    return face.width / 25.4 * dpi, face.height / 25.4 * dpi


def fitted(card: tuple[float, float], cols: int, rows: int) -> tuple[int, int]:
    """A `card` (w, h px) scaled down, in whole pixels, so `cols` x `rows` of them stay within MAX_PX a side."""
    w, h = card
    scale = min(1.0, MAX_PX / (cols * w), MAX_PX / (rows * h))
    return max(1, math.floor(w * scale)), max(1, math.floor(h * scale))


def card_pixels(face: "Face", dpi: int, cols: int, rows: int) -> tuple[int, int]:
    """Card size in px at `dpi`, scaled down so the sheet stays within MAX_PX a side."""
    return fitted(natural(face, dpi), cols, rows)


def kind(comp: "RenderedComponent") -> str:
    """deck, board, token or tile: what the component becomes in Tabletop Simulator."""
    longest = max(comp.spec.size.width, comp.spec.size.height)
    if longest >= BOARD_MM:
        return "tile" if comp.spec.back else "board"
    if comp.spec.back:  # a card is a rounded rectangle: a round two-sided piece is a circle tile
        return "tile" if comp.spec.shape == "round" else "deck"
    return "token" if longest <= TOKEN_MM else "tile"


def trim_box(face: "Face", image_size: tuple[int, int]) -> tuple[float, float, float, float]:
    """The trim area (left, top, right, bottom px) of `face` drawn with its bleed as an image
    of `image_size` whole pixels. Measured on the image as drawn (the renderer rounds its
    size), and symmetric, so it never reaches outside the image at any dpi."""
    iw, ih = image_size
    bx = iw * face.bleed / (face.width + 2 * face.bleed)
    by = ih * face.bleed / (face.height + 2 * face.bleed)
    return bx, by, iw - bx, ih - by


def card_image(face: "Face", size: tuple[int, int], mode: str = "RGB", round_: bool = False) -> "Image.Image":
    """The face at `size` px, bleed cut off: all that is printed inside its cut line, a
    class "bleed" drawing included (a token coloured by its bleed shape alone came out
    transparent, and Tabletop Simulator cut it to its text). RGBA keeps a token's
    transparent outline; RGB, and a round piece inside its circle, show what the face leaves
    transparent as the white paper it prints on (it came out black, or as holes); `round_`:
    transparent outside the circle filling it, as the piece is cut."""
    from PIL import Image

    full = svg_to_image(face.svg, dpi=drawn_dpi(face, size), fonts=face.fonts, where=f"face {face.component}/{face.name}").convert("RGBA")
    if mode == "RGB" or round_:
        full = Image.alpha_composite(Image.new("RGBA", full.size, PAPER), full)
    image = full.convert(mode).resize(size, Image.Resampling.LANCZOS, box=trim_box(face, full.size))
    if round_:
        image.putalpha(disc(size))
    return image


DISC_PIXELS = 64_000_000  # the most a round piece's mask is drawn at before it is scaled down


def disc(size: tuple[int, int]) -> "Image.Image":
    """An alpha mask of `size` px: opaque inside the circle (ellipse) filling it, its edge
    smoothed (drawn at up to 4 times the size, then scaled down). A big image's mask is drawn
    at less, never past DISC_PIXELS: 4 times a 250-million-pixel image's sides took 4 GB,
    and at that size a pixel of the edge is too small to see."""
    from PIL import Image, ImageDraw

    scale = next(f for f in (4, 2, 1) if f == 1 or size[0] * size[1] * f * f <= DISC_PIXELS)
    big = Image.new("L", (size[0] * scale, size[1] * scale), 0)
    ImageDraw.Draw(big).ellipse((0, 0, big.width - 1, big.height - 1), fill=255)
    return big.resize(size, Image.Resampling.LANCZOS)


def drawn_dpi(face: "Face", size: tuple[int, int]) -> float:
    """The dpi `card_image` draws `face` at (with its bleed, cut off after) to give `size` px."""
    return size[0] / face.width * 25.4


def _png(image: "Image.Image") -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def _card_png(face: "Face", size: tuple[int, int], mode: str = "RGB", round_: bool = False) -> bytes:
    return _png(card_image(face, size, mode, round_))


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


def named(stem: str, key: str) -> str:
    """`<stem>-<hash>.png`: the name changes whenever the image's inputs change."""
    return f"{stem}-{key[:HASH]}.png"


@dataclass
class Sheet:
    face: str  # path under tts/
    back: str
    cols: int
    rows: int
    cards: list[str]  # item ids in slot order
    names: list[str]  # the pieces' names, in slot order


@dataclass
class Deck:
    component: "RenderedComponent"
    unique_backs: bool
    card_px: tuple[int, int]
    sheets: list[Sheet]


@dataclass
class Images:
    """A component that is not a deck: one image (and back image) per item."""

    component: "RenderedComponent"
    kind: str  # board, token or tile
    pieces: list[tuple[str, str, str | None, int]]  # item id, image, back image, copies
    names: list[str]  # each piece's name, in the order of `pieces`


def piece_name(comp: "RenderedComponent", piece: "Piece") -> str:
    """A piece's nickname: its record's name, else the component's name (and the id when
    the component has several items)."""
    if piece.name:
        return piece.name
    return comp.spec.name if len(comp.pieces) == 1 else f"{comp.spec.name} {piece.item_id}"


def plan_deck(comp: "RenderedComponent", setup: str, dpi: int, files: dict[str, Planned]) -> Deck | None:
    cid = comp.spec.id
    cards = [(p.item_id, p.front, p.back) for p in comp.pieces for _ in range(p.copies)]
    names = [piece_name(comp, p) for p in comp.pieces for _ in range(p.copies)]
    if not cards:
        return None
    unique = comp.spec.back_per_item
    chunks = [cards[i : i + PER_SHEET] for i in range(0, len(cards), PER_SHEET)]
    size = card_pixels(cards[0][1], dpi, *grid(len(chunks[0]), natural(cards[0][1], dpi)))
    check_pixels(cards[0][1], drawn_dpi(cards[0][1], size), "a Tabletop Simulator image")
    shared = None if unique else cards[0][2]
    back = ""
    if shared is not None:
        key = digest("tts-back", setup, size, shared.svg)
        back = f"{cid}/{named('back', key)}"
        files[f"tts/{back}"] = Planned(key, partial(_card_png, shared, size))
    sheets = []
    for n, chunk in enumerate(chunks, 1):
        cols, rows = grid(len(chunk), size)  # the cards' size is set: a later sheet takes the fewest slots that hold it
        face_plan = _plan_sheet(setup, [front for _, front, _ in chunk], shared, cols, rows, size)
        face = f"{cid}/{named(f'faces-{n}', face_plan.key)}"
        files[f"tts/{face}"] = face_plan
        sheet_back = back
        if unique:
            back_plan = _plan_sheet(setup, [b for _, _, b in chunk if b is not None], None, cols, rows, size)
            sheet_back = f"{cid}/{named(f'backs-{n}', back_plan.key)}"
            files[f"tts/{sheet_back}"] = back_plan
        first = (n - 1) * PER_SHEET
        sheets.append(Sheet(face, sheet_back, cols, rows, [ident for ident, _, _ in chunk], names[first:first + len(chunk)]))
    return Deck(comp, unique, size, sheets)


def plan_images(comp: "RenderedComponent", what: str, setup: str, dpi: int, files: dict[str, Planned]) -> Images | None:
    pieces = [p for p in comp.pieces if p.copies]
    if not pieces:
        return None
    size = card_pixels(pieces[0].front, dpi, 1, 1)
    check_pixels(pieces[0].front, drawn_dpi(pieces[0].front, size), "a Tabletop Simulator image")
    round_ = comp.spec.shape == "round"
    mode = "RGBA" if what == "token" or round_ else "RGB"

    made: dict[str, str] = {}  # image key -> its file

    def image(face: "Face", stem: str) -> str:
        key = digest("tts-piece", setup, size, mode, TITLE.sub("", face.svg), round_)  # setup: DRAWING too
        if key in made:  # a face drawn the same (3 markers of a colour): one file, so the pieces also stack
            return made[key]
        rel = made[key] = f"{comp.spec.id}/{named(stem, key)}"
        files[f"tts/{rel}"] = Planned(key, partial(_card_png, face, size, mode, round_))
        return rel

    # a back shared by every item is named `back-…` (as a deck's is), not after the first item
    back = "back" if not comp.spec.back_per_item else None
    out = [(p.item_id, image(p.front, p.item_id), image(p.back, back or f"{p.item_id}-back") if p.back else None, p.copies)
           for p in pieces]
    return Images(comp, what, out, stack_names(comp.spec.name, [(image, back) for _, image, back, _ in out], [piece_name(comp, p) for p in pieces]))


_SEPARATORS = " -_"


def stack_names(component: str, sides: list[tuple[str, str | None]], names: list[str]) -> list[str]:
    """Each piece's name, those drawn the same (one stack in Tabletop Simulator, which keeps
    one name for a stack and every piece taken off it) named by what they share: the words
    their names begin with ("Scoring markers tomato" for tomato-1 to tomato-3), else the
    component's name."""
    alike: dict[tuple[str, str | None], list[str]] = {}
    for side, name in zip(sides, names):
        alike.setdefault(side, []).append(name)
    return [shared_words(alike[side]) or component for side in sides]


def shared_words(names: list[str]) -> str:
    """The whole words (split at spaces, - and _) every name begins with; the name itself
    when all are one name."""
    first = names[0]
    if all(n == first for n in names):
        return first
    end = min(len(n) for n in names)
    common = next((i for i in range(end) if any(n[i] != first[i] for n in names)), end)
    # back to a word's end: a cut where every name has a separator (or ends)
    cut = next((i for i in range(common, 0, -1) if all(i == len(n) or n[i] in _SEPARATORS for n in names)), 0)
    return first[:cut].rstrip(_SEPARATORS)


def tts_files(game: "GameContent", rendered: list["RenderedComponent"], dpi: int, root: Path) -> dict[str, Planned]:
    """The images, `tts/<game>.json` (URLs point into `root`, the game's output folder)
    and `tts/decks.json`."""
    from .tts_objects import saved_object

    setup = f"{settings(game.fonts)}; {DRAWING}"
    files: dict[str, Planned] = {}
    parts: list[Deck | Images] = []
    for comp in rendered:
        what = kind(comp)
        try:
            part = plan_deck(comp, setup, dpi, files) if what == "deck" else plan_images(comp, what, setup, dpi, files)
        except TooManyPixels as exc:
            raise located(game, exc) from None
        if part is not None:
            parts.append(part)
    base = (root / "tts").resolve().as_uri() + "/"
    for name, data in ((f"{game.name}.json", saved_object(game, parts, base)), ("decks.json", summary(game, parts))):
        text = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
        files[f"tts/{name}"] = Planned(digest(text), partial(bytes, text))
    return of_game(game.manifest.title, files)


def summary(game: "GameContent", parts: list[Deck | Images]) -> dict:
    """decks.json: what to import by hand (Objects → Components → Custom)."""
    decks, pieces = [], []
    for part in parts:
        spec = part.component.spec
        if isinstance(part, Deck):
            sheets = [{"face": s.face, "back": s.back, "cols": s.cols, "rows": s.rows, "count": len(s.cards),
                       "hidden_slot": s.cols * s.rows, "cards": s.cards} for s in part.sheets]
            decks.append({"component": spec.id, "name": spec.name, "cards": sum(len(s.cards) for s in part.sheets),
                          "card_px": list(part.card_px), "unique_backs": part.unique_backs, "sheets": sheets})
        else:
            pieces.append({"component": spec.id, "name": spec.name, "kind": part.kind, "shape": spec.shape,
                           "items": [{"id": i, "image": img, "back": back, "copies": n} for i, img, back, n in part.pieces]})
    return {"game": game.name, "title": game.manifest.title, "saved_object": f"{game.name}.json",
            "max_grid": [MAX_COLS, MAX_ROWS], "decks": decks, "pieces": pieces}


def _plan_sheet(setup: str, faces: list["Face"], hidden: "Face | None", cols: int, rows: int, size: tuple[int, int]) -> Planned:
    key = digest("tts-sheet", setup, cols, rows, size, [digest(f.svg) for f in faces], hidden and digest(hidden.svg))
    return Planned(key, partial(sheet_png, faces, hidden, cols, rows, size))
