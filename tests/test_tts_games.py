"""Tabletop Simulator for every shipped game: the saved object follows the TTS save format
(tests/data/tts-saved-object.schema.json), its card ids point at real sheet slots, every
image is a file of the build within TTS's limits; nicknames are the pieces' names, decks
spawn face down; and no dpi from 72 to 600 asks for pixels outside a face's image."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from PIL import Image

from pnp.build.driver import BuildOptions, build
from pnp.formats.tts import MAX_COLS, MAX_PX, MAX_ROWS, TITLE, card_image, card_pixels, grid, natural, plan_deck, trim_box
from pnp.load.content import Project

from test_tts_objects import SCHEMA, local, objects

GAMES = ("tasty-humans", "cave", "dietrick-taking", "human-harvest")


@pytest.fixture(scope="module")
def built(repo_project: Project, tmp_path_factory) -> tuple[Path, list]:
    out = tmp_path_factory.mktemp("tts-games")
    reports = build(repo_project, list(GAMES), BuildOptions(formats=("tts",), dpi=72, out=out))
    return out, reports


@pytest.mark.parametrize("game", GAMES)
def test_every_game_saves_a_valid_tabletop_simulator_object(built, game):
    out, _ = built
    saved = json.loads((out / game / "tts" / f"{game}.json").read_text())
    jsonschema.validate(saved, SCHEMA)
    every = list(objects(saved["ObjectStates"]))
    assert len({o["GUID"] for o in every}) == len(every)
    for obj in every:
        assert obj["Name"] in {"Deck", "Card", "Bag", "Custom_Board", "Custom_Token", "Custom_Tile"}
        if obj["Name"] == "Deck":
            assert obj["DeckIDs"] == [c["CardID"] for c in obj["ContainedObjects"]]
        for key, sheet in obj.get("CustomDeck", {}).items():
            assert 1 <= sheet["NumWidth"] <= MAX_COLS and 1 <= sheet["NumHeight"] <= MAX_ROWS
            face = Image.open(local(sheet["FaceURL"]))
            assert max(face.size) <= MAX_PX
            assert face.size[0] % sheet["NumWidth"] == 0 and face.size[1] % sheet["NumHeight"] == 0
            if obj["Name"] == "Card":
                slot = obj["CardID"] - int(key) * 100
                assert 0 <= slot < sheet["NumWidth"] * sheet["NumHeight"] - 1  # the last slot is the hidden card
        if "CustomImage" in obj:
            for url in (obj["CustomImage"]["ImageURL"], obj["CustomImage"]["ImageSecondaryURL"]):
                if url:
                    assert max(Image.open(local(url)).size) <= MAX_PX


def test_nicknames_are_the_pieces_names_and_decks_spawn_face_down(built):
    out, _ = built
    saved = json.loads((out / "tasty-humans/tts/tasty-humans.json").read_text())
    deck = next(o for o in saved["ObjectStates"] if o["Nickname"] == "Adventurer cards")
    assert deck["Transform"]["rotZ"] == 180.0
    names = [c["Nickname"] for c in deck["ContainedObjects"]]
    assert names[0] == "Brunhild the Unbending" and "adv-01" not in names
    assert all(c["Transform"]["rotZ"] == 180.0 for c in deck["ContainedObjects"])
    cave = json.loads((out / "cave/tts/cave.json").read_text())
    events = next(o for o in cave["ObjectStates"] if o["Nickname"] == "Event cards")
    assert "Footsteps Behind You" in [c["Nickname"] for c in events["ContainedObjects"]]
    # records with neither name nor title: the component's name, with the id when it has several
    dietrick = json.loads((out / "dietrick-taking/tts/dietrick-taking.json").read_text())
    nicknames = {o["Nickname"] for o in objects(dietrick["ObjectStates"]) if o["Name"] == "Card"}
    assert {"Cards meat-1", "Grape"} <= nicknames
    assert ("Custom_Board", "Board") in [(o["Name"], o["Nickname"]) for o in cave["ObjectStates"]]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_spawns_around_the_table_centre(built, game):
    """Components spawn in rows at most 36 units wide, centred on the table: in one row from
    the centre, Tasty Humans reached 59 units out and the Cave 46, past a table's edge."""
    out, _ = built
    states = json.loads((out / game / "tts" / f"{game}.json").read_text())["ObjectStates"]
    xs, zs = [o["Transform"]["posX"] for o in states], [o["Transform"]["posZ"] for o in states]
    assert max(map(abs, xs)) < 18 and max(map(abs, zs)) < 18, (xs, zs)


def test_small_decks_keep_their_cards_full_size_at_300_dpi(built):
    """6 cave characters (poker size) and the hidden card fit 4 x 2 at 744 x 1039 px: no
    wide grid of empty slots shrinks them."""
    _, reports = built
    (cave,) = [r for r in reports if r.game == "cave"]
    characters = next(c for c in cave.parts if c.spec.id == "characters")
    deck = plan_deck(characters, "", 300, {})
    assert deck is not None and deck.card_px == (744, 1039) and [(s.cols, s.rows) for s in deck.sheets] == [(4, 2)]


def _faces(reports) -> list:
    return [p.front for r in reports for c in r.parts for p in c.pieces[:1]]


@pytest.mark.parametrize("dpi", range(72, 601))
def test_no_dpi_asks_for_pixels_outside_a_face(built, dpi):
    """The renderer rounds the image size either way; the trim box stays inside it."""
    _, reports = built
    for face in _faces(reports):
        w, h = card_pixels(face, dpi, *grid(1, natural(face, dpi)))
        s = w / face.width
        for iw in (int((face.width + 2 * face.bleed) * s), int((face.width + 2 * face.bleed) * s) + 1):
            for ih in (int((face.height + 2 * face.bleed) * s), int((face.height + 2 * face.bleed) * s) + 1):
                left, top, right, bottom = trim_box(face, (iw, ih))
                assert 0 <= left < right <= iw and 0 <= top < bottom <= ih


@pytest.mark.parametrize("dpi", [150, 200, 299, 300, 301])
def test_the_tall_pawn_face_crops_at_the_dpis_that_failed(built, dpi):
    _, reports = built
    (harvest,) = [r for r in reports if r.game == "human-harvest"]
    pawn = next(c for c in harvest.parts if c.spec.id == "pawns").pieces[0].front
    size = card_pixels(pawn, dpi, 1, 1)
    assert card_image(pawn, size).size == size


def _is_disc(face) -> bool:
    """The face draws a circle filling it (a round piece, cut along that circle)."""
    import xml.etree.ElementTree as ET

    c, r = face.width / 2, min(face.width, face.height) / 2
    circles = ET.fromstring(face.svg.encode("utf-8")).iter("{http://www.w3.org/2000/svg}circle")
    return any(abs(float(e.get("cx", 0)) - c) < 0.01 and abs(float(e.get("cy", 0)) - face.height / 2) < 0.01
               and float(e.get("r", 0)) >= r - 0.01 for e in circles)


def test_round_tokens_are_cut_round_in_tabletop_simulator(built):
    """A Custom Token is cut to its image's outline: a round token's image (`shape: round`)
    is transparent at its four corners (they painted their colour over the whole face and
    bleed, and showed square) and opaque at its centre."""
    out, reports = built
    round_ = {(r.game, c.spec.id) for r in reports for c in r.parts if c.spec.shape == "round"}
    # the declaration holds: every face of a round piece, front or back, draws the circle filling it
    drawn = [(r.game, f) for r in reports for c in r.parts if (r.game, c.spec.id) in round_ for f in c.faces]
    assert len(drawn) > 10
    assert [(game, f.relpath) for game, f in drawn if not _is_disc(f)] == []
    checked = set()
    for game in GAMES:
        summary = json.loads((out / game / "tts" / "decks.json").read_text())
        for part in summary["pieces"]:
            for item in part["items"] if part["kind"] == "token" else []:
                if (game, part["component"]) not in round_:
                    continue
                image = Image.open(out / game / "tts" / item["image"]).convert("RGBA")
                w, h = image.size
                corners = [image.getpixel(xy)[3] for xy in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1))]
                assert corners == [0, 0, 0, 0], (part["component"], item["id"], corners)
                # a tenth in from a corner lies outside the cut circle but inside its disc drawn
                # into the bleed, which the image leaves out: else TTS cuts a rounded square
                inset = [image.getpixel(xy)[3] for xy in ((w // 10, h // 10), (w - 1 - w // 10, h - 1 - h // 10))]
                assert inset == [0, 0], (part["component"], item["id"], inset)
                assert image.getpixel((w // 2, h // 2))[3] == 255, (part["component"], item["id"])
                checked.add(part["component"])
    assert checked == {"humans", "drones", "king-token", "king-placeholder"}


def _alpha(image: Image.Image, *points: tuple[int, int]) -> list[int]:
    return [image.getpixel(xy)[3] for xy in points]


def test_round_two_sided_pieces_are_circle_tiles_with_both_sides(built):
    """A round piece with a back (`shape: round`) was a deck of rectangular cards; it is a
    circle Custom_Tile (Type 2) with its front as ImageURL and its back as
    ImageSecondaryURL, in a Bag when there are several, both images transparent outside
    the circle as the one-sided round tokens are."""
    out, reports = built
    round_two_sided = {(r.game, c.spec.id) for r in reports for c in r.parts if c.spec.shape == "round" and c.spec.back}
    assert round_two_sided == {("tasty-humans", "scoring-token"), ("cave", "tokens"), ("cave", "pawns"),
                               ("dietrick-taking", "markers"), ("human-harvest", "coins")}
    for game, cid in sorted(round_two_sided):
        summary = json.loads((out / game / "tts" / "decks.json").read_text())
        assert cid not in [d["component"] for d in summary["decks"]]
        (part,) = [p for p in summary["pieces"] if p["component"] == cid]
        assert (part["kind"], part["shape"]) == ("tile", "round")
        # the back's own image, or the front's file when both sides are drawn the same (Cave pawns)
        pieces = {p.item_id: p for r in reports if r.game == game for c in r.parts if c.spec.id == cid for p in c.pieces}
        for item in part["items"]:
            piece = pieces[item["id"]]
            assert (item["image"] == item["back"]) == (TITLE.sub("", piece.front.svg) == TITLE.sub("", piece.back.svg)), item
        states = json.loads((out / game / "tts" / f"{game}.json").read_text())["ObjectStates"]
        (bag,) = [o for o in states if o["Nickname"] == part["name"]]
        assert bag["Name"] == "Bag"
        tiles = bag["ContainedObjects"]
        assert len(tiles) == sum(item["copies"] for item in part["items"])
        for tile in tiles:
            custom = tile["CustomImage"]
            assert tile["Name"] == "Custom_Tile" and custom["CustomTile"]["Type"] == 2, (cid, custom)
            front, back = local(custom["ImageURL"]), local(custom["ImageSecondaryURL"])
            assert front.is_file() and back.is_file(), (cid, front, back)
            for path in (front, back):
                image = Image.open(path).convert("RGBA")
                w, h = image.size
                assert _alpha(image, (0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)) == [0] * 4, path
                assert _alpha(image, (w // 10, h // 10), (w - 1 - w // 10, h - 1 - h // 10)) == [0, 0], path
                assert _alpha(image, (w // 2, h // 2), (w // 2, h // 5), (w // 5, h // 2)) == [255] * 3, path


def test_only_identical_tiles_stack(built):
    """Tiles never stacked. A Custom_Tile is Stackable ("can form a stack with others of
    the same type", TTS Knowledge Base) when the bag holds another tile with the same images
    (a component's tiles share one size): a pile of the Cave's food tokens or Tasty
    Humans' four reference cards; never tiles that differ (scoring tokens, coins)."""
    out, _ = built
    seen = {}
    for game in GAMES:
        for obj in objects(json.loads((out / game / "tts" / f"{game}.json").read_text())["ObjectStates"]):
            if obj["Name"] != "Custom_Tile":
                continue
            sides = (obj["CustomImage"]["ImageURL"], obj["CustomImage"]["ImageSecondaryURL"])
            seen.setdefault(sides, []).append((obj["Nickname"], obj["CustomImage"]["CustomTile"]["Stackable"]))
    for sides, tiles in seen.items():
        assert all(stackable == (len(tiles) > 1) for _, stackable in tiles), (sides, tiles)
    stacking = {name for tiles in seen.values() for name, stackable in tiles if stackable}
    assert {"Reference cards", "Tokens food", "Marine Assault Force"} <= stacking, stacking
    assert not stacking & {"Griffin", "Solo", "Board markers"}, stacking


def test_pieces_drawn_the_same_share_one_image_and_stack(built):
    """Dietrick-taking's 3 markers of a colour are 3 items (their faces differ only in their
    <title>, which is never drawn): each got image files of its own and, not sharing
    images, they did not stack. Faces drawn the same now share one file (here front and
    back too), so no two image files of a game's pieces are the same picture."""
    out, _ = built
    summary = json.loads((out / "dietrick-taking" / "tts" / "decks.json").read_text())
    (part,) = [p for p in summary["pieces"] if p["component"] == "markers"]
    colours = {item["id"].rsplit("-", 1)[0]: (item["image"], item["back"]) for item in part["items"]}
    assert len(part["items"]) == 12 and len(colours) == 4
    for item in part["items"]:
        assert (item["image"], item["back"]) == colours[item["id"].rsplit("-", 1)[0]], item
    assert len(set(colours.values())) == 4 and len(list((out / "dietrick-taking" / "tts" / "markers").iterdir())) == 4
    states = json.loads((out / "dietrick-taking" / "tts" / "dietrick-taking.json").read_text())["ObjectStates"]
    (bag,) = [o for o in states if o["Nickname"] == part["name"]]
    assert [t["CustomImage"]["CustomTile"]["Stackable"] for t in bag["ContainedObjects"]] == [True] * 12
    # TTS keeps one name for a stack: each of a colour's markers is named for the colour (was
    # "Scoring markers tomato-1" for all three, once stacked and as each was taken off it)
    assert [t["Nickname"] for t in bag["ContainedObjects"]][:4] == ["Scoring markers tomato"] * 3 + ["Scoring markers mint"]
    for game in GAMES:
        summary = json.loads((out / game / "tts" / "decks.json").read_text())
        files = {f for p in summary["pieces"] for item in p["items"] for f in (item["image"], item["back"]) if f}
        pictures = [(out / game / "tts" / f).read_bytes() for f in sorted(files)]
        assert len(set(pictures)) == len(pictures), game


def test_a_round_pieces_mask_is_never_drawn_past_its_pixel_bound(monkeypatch: pytest.MonkeyPatch):
    """A round piece's mask was drawn at 4 times its sides: for the biggest image a project
    may ask for (250 million pixels) that was 4 GB. Big masks are drawn at less; small ones
    keep their smoothed edge."""
    from pnp.formats import tts

    drawn: list[tuple[int, int]] = []
    new = Image.new
    monkeypatch.setattr(Image, "new", lambda mode, size, *rest: drawn.append(size) or new(mode, size, *rest))
    small = tts.disc((100, 100))
    assert drawn == [(400, 400)] and sum(small.histogram()[1:255]) > 0  # a smoothed edge
    drawn.clear()
    monkeypatch.setattr(tts, "DISC_PIXELS", 10_000)  # the bound, scaled down to test
    tts.disc((100, 100))
    assert drawn == [(100, 100)]
