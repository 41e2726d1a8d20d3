"""The Tabletop Simulator saved object (`tts/<game>.json`): valid against the documented
object format (tests/data/tts-saved-object.schema.json), every piece present, card ids
that point at real sheet slots, image names that change when the image does."""

from __future__ import annotations

import json
import math
from pathlib import Path
from urllib.parse import unquote, urlparse

import jsonschema
import pytest
from PIL import Image

from pnp.build.driver import BuildOptions, build
from pnp.formats.tts import stack_names
from pnp.load.content import Project
from pnp.tools.scaffold import scaffold

from test_export import tts_project  # noqa: F401  (the shared fixture: built once)

SCHEMA = json.loads((Path(__file__).parent / "data/tts-saved-object.schema.json").read_text())


def saved(project: Project, game: str = "demo") -> dict:
    return json.loads((project.output_dir / game / "tts" / f"{game}.json").read_text())


def objects(states: list[dict]):
    for obj in states:
        yield obj
        yield from objects(obj.get("ContainedObjects", []))


def local(url: str) -> Path:
    return Path(unquote(urlparse(url).path))


def test_the_saved_object_follows_the_tts_format(tts_project: Project):  # noqa: F811
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.validate(saved(tts_project), SCHEMA)


def test_the_schema_catches_a_wrong_field(tts_project: Project):  # noqa: F811
    broken = saved(tts_project)
    broken["ObjectStates"][0]["CustomDeck"]["1"]["NumWidth"] = 11  # TTS sheets have at most 10 columns
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, SCHEMA)


def test_every_piece_is_there_with_its_kind(tts_project: Project):  # noqa: F811
    states = saved(tts_project)["ObjectStates"]
    top = [(o["Name"], o["Nickname"]) for o in states]
    assert top == [("Deck", "Cards"), ("Deck", "Tiles"), ("Custom_Board", "Board"), ("Bag", "Tokens"),
                   ("Deck", "Landscape cards"), ("Custom_Tile", "P")]
    assert [o["Name"] for o in states[3]["ContainedObjects"]] == ["Custom_Token"] * 3
    assert len(states[0]["ContainedObjects"]) == 75 and len(states[1]["ContainedObjects"]) == 4
    assert states[4]["SidewaysCard"] is True and all(c["SidewaysCard"] for c in states[4]["ContainedObjects"])
    assert states[0]["SidewaysCard"] is False
    guids = [o["GUID"] for o in objects(states)]
    assert len(guids) == len(set(guids))


def test_a_face_down_deck_shows_its_name_and_a_face_down_card_hides_its_own(tts_project: Project):  # noqa: F811
    """A deck spawns face down; TTS hides a face-down object's name when its Hide Face Down
    toggle is on (knowledge base, Context Menu: Toggles; HideWhenFaceDown in the save
    format), as saves have it for decks and cards: the deck's name, the component's, was
    hidden as it spawned. A card's name would tell what it is, so it stays hidden face down."""
    for obj in objects(saved(tts_project)["ObjectStates"]):
        if obj["Name"] == "Deck":
            assert obj["HideWhenFaceDown"] is False and obj["Transform"]["rotZ"] == 180.0, obj["Nickname"]
        if obj["Name"] == "Card":
            assert obj["HideWhenFaceDown"] is True, obj["Nickname"]


def test_card_ids_point_at_sheet_slots_and_the_hidden_card_is_the_last(tts_project: Project):  # noqa: F811
    for deck in (o for o in saved(tts_project)["ObjectStates"] if o["Name"] == "Deck"):
        cards = deck["ContainedObjects"]
        assert deck["DeckIDs"] == [c["CardID"] for c in cards]
        for card in cards:
            key, slot = divmod(card["CardID"], 100)
            sheet = deck["CustomDeck"][str(key)]
            assert card["CustomDeck"] == {str(key): sheet}
            assert sheet["BackIsHidden"] is False and slot < sheet["NumWidth"] * sheet["NumHeight"] - 1
            image = Image.open(local(sheet["FaceURL"]))
            assert image.size[0] % sheet["NumWidth"] == 0 and image.size[1] % sheet["NumHeight"] == 0
    keys = [k for o in saved(tts_project)["ObjectStates"] for k in o.get("CustomDeck", {})]
    assert keys == ["1", "2", "3", "4"]  # 75 cards on two sheets, tiles, landscape cards: unique keys


def test_every_image_url_is_a_file_of_the_build(tts_project: Project):  # noqa: F811
    root = tts_project.output_dir / "demo/tts"
    urls = set()
    for obj in objects(saved(tts_project)["ObjectStates"]):
        for sheet in obj.get("CustomDeck", {}).values():
            urls |= {sheet["FaceURL"], sheet["BackURL"]}
        if "CustomImage" in obj:
            urls |= {u for u in (obj["CustomImage"]["ImageURL"], obj["CustomImage"]["ImageSecondaryURL"]) if u}
    files = {local(u) for u in urls}
    assert all(f.is_file() and f.parent.parent == root.resolve() for f in files), files
    assert files == {p.resolve() for p in root.rglob("*.png")}  # and nothing unused


def test_an_edit_renames_only_the_images_it_changes(tmp_path: Path):
    project = Project(tmp_path / "proj")
    scaffold(project, "demo")
    options = BuildOptions(formats=("tts",), dpi=40)
    build(project, None, options)
    root = project.output_dir / "demo/tts"
    before = sorted(p.name for p in root.rglob("*.png"))
    cards = project.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text().replace("title: ", "title: New ", 1))
    build(project, None, options)
    after = sorted(p.name for p in root.rglob("*.png"))
    assert len(before) == len(after) == 2
    faces = [n for n in before if n.startswith("faces-1-")]
    assert faces and faces[0] not in after  # the edited sheet has a new name, the old file is gone
    assert [n for n in before if n.startswith("back-")] == [n for n in after if n.startswith("back-")]
    assert saved(project)["ObjectStates"][0]["CustomDeck"]["1"]["FaceURL"].endswith("/" + next(n for n in after if n.startswith("faces-1-")))


COIN = """\
{% extends "pnp/base.svg.j2" %}
{% block background %}none{% endblock %}
{% block body %}<circle cx="10" cy="10" r="10" fill="{{ colour }}"/>{% endblock %}
"""


def coin_project(tmp_path: Path, items: str, colour: str, back: str) -> Project:
    """The demo project with round two-sided coins: `items` (an expression), fronts of COIN
    in `colour`, and the back template `back`."""
    project = Project(tmp_path / "proj")
    scaffold(project, "demo")
    game = project.content_dir / "demo/game.yaml"
    game.write_text(game.read_text() + "  - {id: coin, name: Coins, size: 20mm x 20mm, shape: round, "
                    f"items: \"{items}\", front: coin.svg.j2, back: coin-back.svg.j2}}\n")
    templates = project.root / "templates/demo"
    (templates / "coin.svg.j2").write_text(COIN.replace("{{ colour }}", colour))
    (templates / "coin-back.svg.j2").write_text(back)
    return project


def built_coin(project: Project, side: str) -> Image.Image:
    """The project's TTS images built at 100 dpi; its first coin's image for `side` ("image" or "back")."""
    build(project, None, BuildOptions(formats=("tts",), dpi=100))
    (coin,) = [p for p in json.loads((project.output_dir / "demo/tts/decks.json").read_text())["pieces"] if p["component"] == "coin"]
    return Image.open(project.output_dir / "demo/tts" / coin["items"][0][side])


def test_a_round_pieces_shared_back_is_named_back_not_after_its_first_item(tmp_path: Path):
    """Two coins with one back drawn for both: the back's file is `back-…`, as a deck's
    shared back is, not `gold-back-…` that the silver coin would point at too."""
    project = coin_project(tmp_path, "[{'id': 'gold'}, {'id': 'silver'}]", "{{ '#e9c46a' if item.id == 'gold' else '#cccccc' }}",
                           COIN.replace("{{ colour }}", "#264653"))
    build(project, None, BuildOptions(formats=("tts",), dpi=40))
    summary = json.loads((project.output_dir / "demo/tts/decks.json").read_text())
    (coins,) = [p for p in summary["pieces"] if p["component"] == "coin"]
    backs = {item["back"] for item in coins["items"]}
    assert len(backs) == 1 and backs.pop().startswith("coin/back-"), coins
    assert sorted(p.name.split("-")[0] for p in (project.output_dir / "demo/tts/coin").glob("*.png")) == ["back", "gold", "silver"]


def test_a_round_back_coloured_by_its_bleed_disc_shows_that_colour(tmp_path: Path):
    """A coin's back coloured only by a class "bleed" disc, as a round token's colour runs into
    the bleed (docs/iteration.md), prints that colour inside the cut; its image left the disc
    out and was transparent but for the letter (a 1% opaque back). A round image is cut by
    its circle, so it shows all that is printed inside it."""
    from PIL import ImageStat

    project = coin_project(tmp_path, "[{'id': 'gold'}]", "#e9c46a",
                           '{% extends "pnp/base.svg.j2" %}{% block background %}none{% endblock %}{% block body %}'
                           '<circle class="bleed" cx="10" cy="10" r="{{ (10 + bleed) | num }}" fill="#264653"/>'
                           '<text x="10" y="12" font-size="6" fill="#ffffff" text-anchor="middle">B</text>{% endblock %}')
    back = built_coin(project, "back")
    w, h = back.size
    assert ImageStat.Stat(back.getchannel("A")).mean[0] > 0.75 * 255 * math.pi / 4  # the whole disc (was 1%)
    assert back.getpixel((w // 5, h // 2))[:3] == (0x26, 0x46, 0x53) and back.getpixel((0, 0))[3] == 0


def test_a_square_token_coloured_by_its_bleed_rectangle_shows_that_colour(tmp_path: Path):
    """A square token (no back, at most 40 mm: a Custom_Token, cut by its image's alpha)
    whose only fill is a class "bleed" rectangle running past its cut, as a round token's
    disc does: its image left that rectangle out and was transparent but for its letter, so
    Tabletop Simulator cut a token of the letter alone. What is printed inside the cut line
    is what the image shows."""
    from PIL import ImageStat

    project = Project(tmp_path / "proj")
    scaffold(project, "demo")
    game = project.content_dir / "demo/game.yaml"
    game.write_text(game.read_text() + "  - {id: chit, name: Chits, size: 20mm x 20mm, items: \"[{'id': 'a'}]\", front: chit.svg.j2}\n")
    (project.root / "templates/demo/chit.svg.j2").write_text(
        '{% extends "pnp/base.svg.j2" %}{% block background %}none{% endblock %}{% block body %}'
        '<rect class="bleed" x="{{ (-bleed) | num }}" y="{{ (-bleed) | num }}" width="{{ (20 + 2 * bleed) | num }}" '
        'height="{{ (20 + 2 * bleed) | num }}" fill="#264653"/>'
        '<text x="10" y="12" font-size="6" fill="#ffffff" text-anchor="middle">C</text>{% endblock %}')
    build(project, None, BuildOptions(formats=("tts",), dpi=100))
    (chit,) = [p for p in json.loads((project.output_dir / "demo/tts/decks.json").read_text())["pieces"] if p["component"] == "chit"]
    assert chit["kind"] == "token"
    image = Image.open(project.output_dir / "demo/tts" / chit["items"][0]["image"])
    w, h = image.size
    assert ImageStat.Stat(image.getchannel("A")).mean[0] > 0.99 * 255  # the whole square (was 1%)
    assert image.getpixel((1, 1)) == (0x26, 0x46, 0x53, 255) and image.getpixel((w - 2, h // 2))[3] == 255


def test_what_a_tile_or_card_leaves_transparent_is_white_paper_not_black(tmp_path: Path):
    """A tile's or a card's image has no alpha: what its face leaves transparent (`background`
    none, nothing drawn there) printed as the paper's white but came out black in Tabletop
    Simulator."""
    project = Project(tmp_path / "proj")
    scaffold(project, "demo")
    game = project.content_dir / "demo/game.yaml"
    game.write_text(game.read_text() + "  - {id: plate, name: Plates, size: 60mm x 60mm, items: \"[{'id': 'a'}]\", front: plate.svg.j2}\n"
                    "  - {id: chit, name: Chits, size: 60mm x 60mm, items: \"[{'id': 'a'}]\", front: plate.svg.j2, back: plate.svg.j2}\n")
    (project.root / "templates/demo/plate.svg.j2").write_text(
        '{% extends "pnp/base.svg.j2" %}{% block background %}none{% endblock %}'
        '{% block body %}<rect x="20" y="20" width="20" height="20" fill="#264653"/>{% endblock %}')
    build(project, None, BuildOptions(formats=("tts",), dpi=50))
    summary = json.loads((project.output_dir / "demo/tts/decks.json").read_text())
    (plate,) = [p for p in summary["pieces"] if p["component"] == "plate"]
    (chit,) = [d for d in summary["decks"] if d["component"] == "chit"]
    assert plate["kind"] == "tile"
    tile = Image.open(project.output_dir / "demo/tts" / plate["items"][0]["image"])
    sheet = Image.open(project.output_dir / "demo/tts" / chit["sheets"][0]["face"])
    for image in (tile, sheet):
        assert image.mode == "RGB" and image.getpixel((2, 2)) == (255, 255, 255), image.getpixel((2, 2))
    w, h = tile.size
    assert tile.getpixel((w // 2, h // 2)) == (0x26, 0x46, 0x53)


def test_what_a_round_face_leaves_transparent_inside_its_circle_is_white_paper(tmp_path: Path):
    """A coin whose face draws a mark alone (no disc): inside its cut circle it prints the
    paper's white, and its image was transparent there (a ring of holes TTS does not cut)."""
    project = coin_project(tmp_path, "[{'id': 'gold'}]", "#e9c46a", COIN.replace("{{ colour }}", "#264653"))
    (project.root / "templates/demo/coin.svg.j2").write_text(
        '{% extends "pnp/base.svg.j2" %}{% block background %}none{% endblock %}'
        '{% block body %}<rect x="8" y="8" width="4" height="4" fill="#264653"/>{% endblock %}')
    front = built_coin(project, "image")
    w, h = front.size
    assert front.getpixel((w // 2, h // 5)) == (255, 255, 255, 255) and front.getpixel((w // 2, h // 2)) == (0x26, 0x46, 0x53, 255)
    assert front.getpixel((0, 0))[3] == 0  # still cut round


def test_guids_stay_unique_when_six_hex_digits_of_a_hash_repeat():
    """20 000 objects: 6 hex digits of their hashes repeat (a 1 in 400 chance for 300 objects
    already); each GUID is still unique, and the same on every build."""
    from pnp.formats.tts_objects import Guids

    first, again = Guids("g"), Guids("g")
    made = [first.new("piece", n) for n in range(20_000)]
    assert len(set(made)) == len(made) and all(len(g) == 6 for g in made)
    assert made == [again.new("piece", n) for n in range(20_000)]


def test_components_spawn_in_rows_that_do_not_overlap():
    from pnp.formats.tts_objects import GAP_IN, ROW_IN, layout

    sizes = [(2.5, 3.5), (15.0, 10.0), (20.0, 1.0), (3.0, 3.0), (40.0, 20.0), (1.0, 1.0), (8.0, 8.0)]
    boxes = [(x - w / 2, z - d / 2, x + w / 2, z + d / 2) for (x, z), (w, d) in zip(layout(sizes), sizes)]
    for i, a in enumerate(boxes):
        assert a[2] - a[0] > ROW_IN or (a[0] >= -ROW_IN / 2 and a[2] <= ROW_IN / 2)  # only a wider piece sticks out
        for b in boxes[i + 1:]:
            apart = max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])
            assert apart >= GAP_IN - 1e-9, (a, b)
    assert abs(min(b[1] for b in boxes) + max(b[3] for b in boxes)) < 1e-9  # centred on the table


def test_pieces_drawn_the_same_are_named_by_what_their_names_share():
    sides = [("a.png", None), ("a.png", None), ("b.png", "c.png"), ("d.png", None), ("d.png", None), ("e.png", None), ("e.png", None)]
    names = ["Marker red-10", "Marker red-11", "Marker blue-1", "Coin", "Coin", "Gold", "Silver"]
    assert stack_names("Pieces", sides, names) == ["Marker red", "Marker red", "Marker blue-1", "Coin", "Coin", "Pieces", "Pieces"]
