"""The Tabletop Simulator saved object of a game (`tts/<game>.json`).

A saved object is a save file (the format is described in the Tabletop Simulator
knowledge base, "Save File Format") whose `ObjectStates` are spawned together: here one
object per component, side by side. A deck is a `Deck` of `Card`s whose `CustomDeck`
entries name the sheets (`BackIsHidden: false`: the last slot of each sheet is the hidden
card); a card's `CardID` is its sheet's key times 100 plus its slot. Landscape cards are
`SidewaysCard`. Other pieces are `Custom_Board`, `Custom_Token` or `Custom_Tile` objects
with a `CustomImage`, gathered in a `Bag` when a component has several; a round piece
(`shape: round`) that is a tile is a circle tile, two-sided when it has a back. Every object's
`Nickname` (shown on hover) is its piece's name (pieces drawn the same, which stack, the
name they share: pnp/formats/tts.py `stack_names`); decks and cards spawn face down, a deck
showing its name so, a card hiding its own (`HideWhenFaceDown`). The
objects spawn in rows at most ROW_IN wide, the whole centred on the table's centre.

Sizes: a TTS unit is about an inch (Knowledge Base: docs/game-tools/line-tool.md measures
"in inches", custom-tile.md and custom-token.md give Thickness "in in-game units (about an
inch)"). A card of scale 1 is taken as a poker card (2.5 x 3.5 in), and a custom tile, token
or board of scale 1 as one unit on its long side: neither the Knowledge Base nor the API
documentation says what size a scale-1 object is, so these two stay unverified.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ..files import digest

if TYPE_CHECKING:
    from ..load.content import GameContent
    from .tts import Deck, Images

POKER_LONG_IN = 3.5
GAP_IN = 1.0  # between components as they spawn
ROW_IN = 36.0  # a row of components no wider than this: one long row ran off the table (60 units for Tasty Humans)
BAG_IN = 3.0  # the least room a bag takes, however small the pieces in it
LIFT = 1.0  # spawn height above the table
THICKNESS = {"tile": 0.1, "token": 0.1}
# CustomTile.Type, as the Knowledge Base's Custom Tile page lists the shapes (Berserk-Games/
# Tabletop-Simulator-Knowledge-Base, docs/custom-content/custom-tile.md: Type, Top Image,
# Bottom Image "for the other side", Stackable) and @typed-tabletop-simulator/lib numbers
# them (TileType Box 0, Hex 1, Circle 2, Rounded 3; its createTile writes the top image as
# ImageURL and the bottom as ImageSecondaryURL)
TILE_TYPE = {"rectangle": 0, "round": 2}


def saved_object(game: "GameContent", parts: list["Deck | Images"], base: str) -> dict[str, Any]:
    """The whole file; `base` is the URL prefix of the images (the tts/ folder)."""
    from .tts import Deck

    objects, next_key, guids = [], 1, Guids(game.name)
    for part, (x, z) in zip(parts, layout([footprint(part) for part in parts])):
        where = transform(x, scale=1.0, z=z)
        if isinstance(part, Deck):
            obj, next_key = deck(guids, part, base, next_key, where)
        else:
            obj = pieces(guids, part, base, where)
        objects.append(obj)
    return {
        "SaveName": game.manifest.title, "GameMode": "", "Date": "", "Gravity": 0.5, "PlayArea": 0.5,
        "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
        "TabStates": {}, "VersionNumber": "", "ObjectStates": objects,
    }


def footprint(part: "Deck | Images") -> tuple[float, float]:
    """The room (width, depth in TTS units) a component takes on the table as it spawns."""
    from .tts import Images

    size = part.component.spec.size
    w, d = size.width / 25.4, size.height / 25.4
    in_bag = isinstance(part, Images) and sum(copies for *_, copies in part.pieces) > 1
    return (max(w, BAG_IN), max(d, BAG_IN)) if in_bag else (w, d)


def layout(sizes: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The centres (x, z) of footprints `sizes` (w, d) laid left to right, GAP_IN apart, in
    rows at most ROW_IN wide (a wider one alone), each row centred, the rows centred on z = 0."""
    rows: list[list[int]] = []
    width = 0.0
    for i, (w, _) in enumerate(sizes):
        if rows and width + GAP_IN + w <= ROW_IN:
            rows[-1].append(i)
            width += GAP_IN + w
        else:
            rows.append([i])
            width = w
    centres = [(0.0, 0.0)] * len(sizes)
    z = 0.0
    for row in rows:
        depth = max(sizes[i][1] for i in row)
        x = -(sum(sizes[i][0] for i in row) + GAP_IN * (len(row) - 1)) / 2
        for i in row:
            centres[i] = (x + sizes[i][0] / 2, z - depth / 2)
            x += sizes[i][0] + GAP_IN
        z -= depth + GAP_IN
    middle = (z + GAP_IN) / 2  # the rows run from 0 down to z + GAP_IN
    return [(x, z - middle) for x, z in centres]


def transform(x: float = 0.0, scale: float = 1.0, z: float = 0.0) -> dict[str, float]:
    return {"posX": round(x, 3), "posY": LIFT, "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0, "rotZ": 0.0,
            "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


class Guids:
    """Stable 6-hex-digit GUIDs (TTS's form), so the same build writes the same file, and
    unique within it: 6 digits of a hash may repeat, so a GUID taken draws again."""

    def __init__(self, game: str) -> None:
        self.game, self.taken = game, set[str]()

    def new(self, *ident: Any) -> str:
        draw = 0
        while (found := digest("tts-guid", self.game, *ident, *([draw] if draw else []))[:6]) in self.taken:
            draw += 1
        self.taken.add(found)
        return found


def _base(guids: Guids, name: str, nickname: str, where: dict[str, float], *ident: Any) -> dict[str, Any]:
    return {"GUID": guids.new(*ident), "Name": name, "Transform": where, "Nickname": nickname, "Description": "",
            "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0}, "Locked": False, "Grid": True, "Snap": True,
            "Tooltip": True, "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def deck(guids: Guids, part: "Deck", base: str, key: int, where: dict[str, float]) -> tuple[dict[str, Any], int]:
    """A `Deck` of its cards (a lone `Card` when there is only one); returns the next free sheet key."""
    spec = part.component.spec
    sideways = spec.size.width > spec.size.height
    scale = max(spec.size.width, spec.size.height) / 25.4 / POKER_LONG_IN
    where = {**where, "scaleX": round(scale, 4), "scaleZ": round(scale, 4)}
    face_down = {**where, "rotZ": 180.0}  # turned over: a deck spawns backs up, as it is dealt from
    custom, cards = {}, []
    for sheet in part.sheets:
        entry = {"FaceURL": base + sheet.face, "BackURL": base + sheet.back, "NumWidth": sheet.cols, "NumHeight": sheet.rows,
                 "BackIsHidden": False, "UniqueBack": part.unique_backs, "Type": 0}
        custom[str(key)] = entry
        for slot, name in enumerate(sheet.names):
            card = _base(guids, "Card", name, face_down, spec.id, key, slot)
            card.update({"CardID": key * 100 + slot, "SidewaysCard": sideways, "Hands": True, "HideWhenFaceDown": True,
                         "CustomDeck": {str(key): entry}})
            cards.append(card)
        key += 1
    if len(cards) == 1:
        return cards[0], key
    obj = _base(guids, "Deck", spec.name, face_down, spec.id)
    # Hide Face Down hides a face-down object's name and description (knowledge base,
    # docs/player-guides/context-menu.md, Toggles; save-file-format.md, HideWhenFaceDown),
    # on in TTS's saves of decks and cards: the deck spawns face down and its name, the
    # component's, was hidden; each card's name stays hidden face down (it tells the card)
    obj.update({"SidewaysCard": sideways, "Hands": False, "HideWhenFaceDown": False, "DeckIDs": [c["CardID"] for c in cards],
                "CustomDeck": custom, "ContainedObjects": cards})
    return obj, key


def pieces(guids: Guids, part: "Images", base: str, where: dict[str, float]) -> dict[str, Any]:
    """One object per copy of each item, in a `Bag` when there is more than one."""
    spec = part.component.spec
    scale = max(spec.size.width, spec.size.height) / 25.4
    where = {**where, "scaleX": round(scale, 4), "scaleZ": round(scale, 4)}
    # "Stackable: if this tile can form a stack with others of the same type" (custom-tile.md):
    # only identical pieces (the same images; a component's are all one size) are worth a stack
    sides = Counter((image, back) for _, image, back, copies in part.pieces for _ in range(copies))
    made = []
    for (item, image, back, copies), name in zip(part.pieces, part.names):
        for n in range(copies):
            made.append(piece(guids, part.kind, name, base + image, back and base + back, where, spec.id, item, n,
                              shape=spec.shape, stackable=sides[(image, back)] > 1))
    if len(made) == 1:
        return made[0]
    bag = _base(guids, "Bag", spec.name, {**where, "scaleX": 1.0, "scaleZ": 1.0}, spec.id, "bag")
    bag["ContainedObjects"] = made
    return bag


def piece(guids: Guids, what: str, nickname: str, image: str, back: str | None, where: dict[str, float], *ident: Any,
          shape: str = "rectangle", stackable: bool = False) -> dict[str, Any]:
    name = {"board": "Custom_Board", "token": "Custom_Token", "tile": "Custom_Tile"}[what]
    obj = _base(guids, name, nickname, where, *ident)
    custom: dict[str, Any] = {"ImageURL": image, "ImageSecondaryURL": back or "", "ImageScalar": 1.0, "WidthScale": 0.0}
    if what == "tile":  # Stretch off: the tile takes its image's proportions
        custom["CustomTile"] = {"Type": TILE_TYPE[shape], "Thickness": THICKNESS["tile"], "Stackable": stackable, "Stretch": False}
    elif what == "token":
        custom["CustomToken"] = {"Thickness": THICKNESS["token"], "MergeDistancePixels": 15.0, "StandUp": False, "Stackable": True}
    obj["CustomImage"] = custom
    return obj
