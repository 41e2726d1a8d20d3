"""Tasty Humans components: every face is built from the content and the rule set
(counts, sizes, class names, diagrams, reference texts, stomach rows), and nothing is
drawn outside its piece.

Two SVG builds (published rules and 0.2.8) are shared by the whole module.
"""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from pnp.build.driver import BuildOptions, build
from pnp.errors import ContentError, PnpError
from pnp.load.content import Project, load_game
from pnp.formats.impose import paper, plan_grid
from pnp.render.faces import render_game
from pnp.render.textfit import text_width
from conftest import copied_from_book
from game_plugins import game_module, link_plugins


NS = "{http://www.w3.org/2000/svg}"
GAME = "tasty-humans"


def _build(project: Project, out: Path, **extra) -> Path:
    build(project, [GAME], BuildOptions(formats=("svg",), out=out, extra=extra))
    return out / GAME / "svg"


@pytest.fixture(scope="module")
def published(repo_project: Project, tmp_path_factory) -> Path:
    return _build(repo_project, tmp_path_factory.mktemp("published"))


@pytest.fixture(scope="module")
def v028(repo_project: Project, tmp_path_factory) -> Path:
    return _build(repo_project, tmp_path_factory.mktemp("v028"), rules="0.2.8")


@pytest.fixture(scope="module")
def game(repo_project: Project):
    return load_game(repo_project, GAME)


@pytest.fixture(scope="module")
def rules(game):
    return game.data["rules"].version()


def svg(path: Path) -> ET.Element:
    return ET.parse(path).getroot()


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(NS + "text")]


def fronts(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.svg") if p.name != "back.svg" and not p.stem.endswith("-back"))


def component(game, cid: str):
    return next(c for c in game.manifest.components if c.id == cid)


# ---------------------------------------------------------------- counts and sizes


def test_one_svg_per_face(published: Path, game):
    data = game.data
    expected = {
        "adventurer": (len(data["adventurers"].adventurers), 1),  # shared back
        "leader-tile": (len(data["leaders"].leaders), 1),
        "monster-board": (len(data["monsters"].monsters), 0),
        "reference-card": (1, 1),  # one design, printed once per player
        "leader-board": (1, 1),
        "king-token": (1, 0),
        "king-placeholder": (3, 0),
        "scoring-token": (4, 4),
        "basic-tile": (5, 0),
        "scoring-sheet": (4, 0),
    }
    assert (expected["adventurer"][0], expected["leader-tile"][0], expected["monster-board"][0]) == (50, 30, 4)
    for cid, (n_fronts, n_backs) in expected.items():
        files = list((published / cid).glob("*.svg"))
        assert len(fronts(published / cid)) == n_fronts, cid
        assert len(files) - n_fronts == n_backs, cid
    assert (published / "adventurer/back.svg").is_file()
    assert (published / "leader-tile/back.svg").is_file()
    assert (published / "leader-board/leader-board-back.svg").is_file()


@pytest.mark.parametrize("version, total", [(None, 192), ("0.2.8", 196)])
def test_basic_tiles_are_printed_in_the_supply_of_the_rule_set(game, version, total):
    options = {"rules": version} if version else {}
    (rendered,) = render_game(game, options, 3.0, only={"basic-tile"})
    copies = {p.item_id: p.copies for p in rendered.pieces}
    tiles = game.data["rules"].version(version).tiles
    assert copies == {name: t.supply for name, t in tiles.items()}
    assert sum(copies.values()) == total


def test_every_svg_has_the_physical_size_of_its_component(published: Path, game):
    for comp in game.manifest.components:
        bleed = 3.0 if comp.bleed is None else comp.bleed
        for path in (published / comp.id).glob("*.svg"):
            root = svg(path)
            assert root.tag == NS + "svg"
            w, h = (float(root.get(k).removesuffix("mm")) for k in ("width", "height"))
            assert (w, h) == pytest.approx((comp.size.width + 2 * bleed, comp.size.height + 2 * bleed)), path


@pytest.mark.parametrize("cid", ["monster-board", "leader-board", "scoring-sheet", "king-token"])
@pytest.mark.parametrize("sheet", ["letter", "a4"])
def test_boards_and_sheets_fit_one_page(game, cid, sheet):
    comp = component(game, cid)
    bleed = 3.0 if comp.bleed is None else comp.bleed
    grid = plan_grid(comp.size.width, comp.size.height, bleed, comp.gap, paper(sheet), comp.rotate == "auto")
    assert grid is not None and grid.per_page >= 1


def test_leader_and_basic_tiles_share_the_stomach_cell_size(published: Path, game):
    leader, basic = component(game, "leader-tile"), component(game, "basic-tile")
    assert (leader.size.width, leader.size.height) == (basic.size.width, basic.size.height)
    assert 25 <= leader.size.width <= 30
    board = svg(published / "monster-board/troll.svg")
    cells = [r for r in board.iter(NS + "rect") if r.get("class") == "cell"]
    assert {float(r.get("width")) for r in cells} == {leader.size.width}


# ---------------------------------------------------------------- texts must stay inside


def _text_boxes(root: ET.Element):
    """(x_left, x_right, baseline, size) of every text not inside a scaled glyph."""

    def walk(node: ET.Element, scaled: bool):
        scaled = scaled or node.get("transform") is not None
        if node.tag == NS + "text" and not scaled:
            size = float(node.get("font-size"))
            weight = "bold" if node.get("font-weight") == "bold" else "normal"
            w = text_width(node.text or "", size, weight)
            x = float(node.get("x"))
            anchor = node.get("text-anchor", "start")
            left = x - {"start": 0, "middle": w / 2, "end": w}[anchor]
            yield left, left + w, float(node.get("y")), size
        for child in node:
            yield from walk(child, scaled)

    yield from walk(root, False)


def test_no_text_leaves_its_piece_or_is_too_small(published: Path, game):
    for comp in game.manifest.components:
        margin = 1.0 if comp.id in ("leader-tile", "basic-tile", "scoring-token") else 2.0  # small pieces: 1 mm
        for path in (published / comp.id).glob("*.svg"):
            for left, right, base, size in _text_boxes(svg(path)):
                where = f"{path.name}: text at {left:.1f}..{right:.1f}, {base:.1f}"
                assert left >= margin - 1e-6 and right <= comp.size.width - margin + 1e-6, where
                assert base - size * 0.75 >= margin - 1e-6 and base + size * 0.22 <= comp.size.height - margin + 1e-6, where
                assert size >= 1.8, where


# ---------------------------------------------------------------- adventurers


def test_adventurer_cards_show_shape_intel_and_banner(published: Path, game):
    for adv in game.data["adventurers"].adventurers:
        root = svg(published / f"adventurer/{adv.id}.svg")
        groups = {g.get("class"): g for g in root.iter(NS + "g") if g.get("class")}
        shape = groups["shape"]
        letters = [t.text for t in shape.iter(NS + "text")]
        assert sorted(letters) == sorted(ch for row in adv.shape for ch in row if ch != "."), adv.id
        intel = [g for g in root.iter(NS + "g") if g.get("class") == "intel"]
        assert len(intel) == adv.intel, adv.id
        banner = [g.get("data-direction") for g in root.iter(NS + "g") if g.get("class") == "banner"]
        assert banner == ([adv.banner] if adv.banner else []), adv.id
        assert adv.name in " ".join(texts(root))


def test_class_names_follow_the_rule_version(published: Path, v028: Path, game):
    captains = [a for a in game.data["adventurers"].adventurers if a.class_ == "captain"]
    assert captains
    for adv in captains:
        assert "CAPTAIN" in texts(svg(published / f"adventurer/{adv.id}.svg"))
        words = texts(svg(v028 / f"adventurer/{adv.id}.svg"))
        assert "GENERAL" in words and "CAPTAIN" not in words


# ---------------------------------------------------------------- leader tiles


def _diagram_signature(root: ET.Element) -> tuple:
    """Which cells a leader diagram marks, independent of the tile type looked for."""
    diagram = next(g for g in root.iter(NS + "g") if g.get("class") == "diagram")
    marks = sorted((r.get("x"), r.get("y"), r.get("data-role")) for r in diagram.iter(NS + "rect") if r.get("class") == "mark")
    bars = sum(1 for r in diagram.iter(NS + "rect") if r.get("class") == "bar")
    strong = sum(1 for r in diagram.iter(NS + "rect") if r.get("class") == "bar" and r.get("fill") == "#1f1f1f")
    return diagram.get("data-kind"), tuple(marks), bars, strong


def test_leader_diagrams_are_generated_from_the_effect(published: Path, game):
    by_kind: dict[str, set] = defaultdict(set)
    marks: dict[str, int] = {}
    for leader in game.data["leaders"].leaders:
        root = svg(published / f"leader-tile/{leader.id}.svg")
        kind, cells, bars, strong = _diagram_signature(root)
        assert kind == leader.kind
        by_kind[kind].add((cells, bars, strong))
        marks[kind] = len(cells)
        assert leader.title in texts(root) and leader.id in texts(root)
    assert all(len(sigs) == 1 for sigs in by_kind.values()), "one diagram per kind, whatever the type"
    signatures = [next(iter(s)) for s in by_kind.values()]
    assert len(set(signatures)) == len(signatures), "every kind draws a different diagram"
    assert marks["range"] == 12  # Manhattan distance <= 2
    assert (marks["line"], marks["diagonal"], marks["feast"], marks["sight"], marks["surround-majority"]) == (8, 8, 4, 8, 8)


def test_range_diagram_follows_the_distance(game):
    leader_diagram = game_module("tasty_humans", "glyphs").leader_diagram

    rules = game.data["rules"].version()
    leader = next(lead for lead in game.data["leaders"].leaders if lead.kind == "range")
    wider = leader.model_copy(update={"distance": 3})
    assert str(leader_diagram(wider, 0, 0, 21, rules.tiles)).count('class="mark"') == 24


# ---------------------------------------------------------------- monster boards


def test_monster_boards_draw_the_stomach_and_texts_from_the_rules(published: Path, v028: Path, game):
    for version, folder in ((None, published), ("0.2.8", v028)):
        rules = game.data["rules"].version(version)
        for monster in game.data["monsters"].monsters:
            root = svg(folder / f"monster-board/{monster.id}.svg")
            stomach = next(g for g in root.iter(NS + "g") if g.get("class") == "stomach")
            assert int(stomach.get("data-rows")) == max(rules.stomach.rows_by_players.values())
            assert int(stomach.get("data-columns")) == rules.stomach.columns
            cells = [r for r in stomach.iter(NS + "rect") if r.get("class") == "cell"]
            assert len(cells) == rules.stomach.columns * max(rules.stomach.rows_by_players.values())
            markers = [int(g.get("data-players")) for g in root.iter(NS + "g") if g.get("class") == "row-marker"]
            assert markers == rules.stomach.row_markers
            assert sum(1 for r in root.iter(NS + "rect") if r.get("class") == "leader-space") == 1
            joined = " ".join(texts(root))
            assert monster.craving_text(rules.cravings[monster.id]) in joined
            # the monster challenges are published-only (F285-295): 0.2.8 boards print none
            assert (monster.challenge_text(rules.solo.challenge_numbers) in joined) == rules.solo.monster_challenges
            assert ("SOLO MONSTER CHALLENGE" in joined) == rules.solo.monster_challenges
            assert rules.leader_space.replace(" space", "").upper() in joined
    troll = " ".join(texts(svg(v028 / "monster-board/troll.svg")))
    assert "TROLL" in troll and "3 points for every helmet" in troll


# ---------------------------------------------------------------- reference cards


def test_reference_cards_cover_every_leader_effect_and_craving(published: Path, v028: Path, game):
    for version, folder in ((None, published), ("0.2.8", v028)):
        rules = game.data["rules"].version(version)
        # every player holds the whole reference: one two-sided card, printed 4 times
        faces = sorted((folder / "reference-card").glob("*.svg"))
        assert len(faces) == 2
        assert component(game, "reference-card").copies == 4
        height = component(game, "reference-card").size.height
        joined = " ".join(" ".join(texts(svg(p))) for p in faces)
        kinds: Counter = Counter()
        for p in faces:
            root = svg(p)
            kinds.update(g.get("data-kind") for g in root.iter(NS + "g") if g.get("class") == "entry" and g.get("data-kind"))
            check = next(g for g in root.iter(NS + "g") if g.get("class") == "overflow-check")
            assert float(check.get("data-bottom")) <= height - 8, f"{p.name} runs into its footer"
            assert int(check.get("data-columns")) <= int(check.get("data-limit")), f"{p.name} needs more columns than it has"
        leaders = game.data["leaders"].leaders
        assert set(kinds) == {lead.kind for lead in leaders}
        assert all(n == 1 for n in kinds.values()), "each kind is listed once"
        for kind in kinds:
            first = next(lead for lead in leaders if lead.kind == kind)
            assert first.reference_text() in joined, kind
        for monster in game.data["monsters"].monsters:
            assert monster.craving_text(rules.cravings[monster.id]) in joined
        assert f"+{rules.king_bonus} " in joined and f"\u2212{rules.damage_penalty} " in joined
        for heading, text in game.data["reference"].texts(rules):
            assert heading.upper() in joined and " ".join(text.split()[:6]) in joined, heading


def test_the_snake_drafts_example_comes_from_turns_a_round(copy_game):
    """The printed turn order (published line 72's example) is made from rules.yaml
    `turns_a_round` and the largest table, so it follows a changed value, and the sentence
    around it is true of any number of passes."""
    project = copy_game(GAME)
    path = project.content_dir / GAME / "rules.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("turns_a_round: 2", "turns_a_round: 3", 1), encoding="utf-8")
    game = load_game(project, GAME)
    snake = " ".join(dict(game.data["reference"].texts(game.data["rules"].version()))["Snake draft"].split())
    assert "(1 2 3 4 4 3 2 1 1 2 3 4)" in snake
    # the words are true of three passes too: no "twice", no "there and back" of two turns
    assert "turns go clockwise, then back, and so on" in snake and "twice" not in snake and "Everyone takes three turns" in snake


def test_turns_a_round_beyond_the_stomachs_cells_is_a_located_error(copy_game):
    """The reference card's snake order names every seat of the largest table for each of
    `turns_a_round`: a huge count built a text of billions of numbers (the build ran out of
    memory). A round cannot have more turns than the largest stomach pnp allows has cells
    (each drops a tile that stays), so more is refused at its line."""
    project = copy_game(GAME)
    path = project.content_dir / GAME / "rules.yaml"
    text = path.read_text(encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "turns_a_round: 2" in row)
    path.write_text(text.replace("turns_a_round: 2", "turns_a_round: 1000000000000", 1), encoding="utf-8")
    with pytest.raises(PnpError) as raised:
        load_game(project, GAME)
    (error,) = raised.value.errors
    assert isinstance(error, ContentError) and error.line == line, error
    assert "turns_a_round: is 1000000000000: expected at most 144, the cells of the largest stomach" in error.message, error


def test_a_table_larger_than_the_leaders_is_a_located_error(copy_game):
    """The snake order names every seat of the largest table: a player count of a billion
    made a list of a billion seats (out of memory). Each player takes a leader at setup, so
    a table has no more players than the deck has leaders."""
    project = copy_game(GAME)
    path = project.content_dir / GAME / "rules.yaml"
    text = path.read_text(encoding="utf-8")
    for key, count in (("rows_by_players", 4), ("leaders_max_by_players", 4), ("leader_stacks_by_players", 3)):
        assert f"{key}: {{1: " in text and f", 4: {count}}}" in text, key
        text = text.replace(f", 4: {count}}}", f", 4: {count}, 1000000000: {count}}}", 1)
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.strip().startswith("stomach:"))
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PnpError) as raised:
        load_game(project, GAME)
    (error,) = raised.value.errors
    assert isinstance(error, ContentError) and error.line == line, error
    assert "rows_by_players covers 1000000000 players: expected at most 30" in error.message, error


@pytest.mark.parametrize("book, options", [("tasty-humans-rules-final.txt", {}), ("tasty-humans-rules-0.2.8.txt", {"rules": "0.2.8"})])
def test_printed_text_is_our_own(repo_project: Project, book, options):
    """No run of eight words of a rule book is printed on any face of the build of that
    book's version (cards, boards, reference cards, scoring sheets), read as printed."""
    assert copied_from_book(repo_project, GAME, book, options) == []


def test_our_own_words_are_checked_in_the_versions_build(copy_game):
    """0.2.8's book says the "Grip" space where the published one says Leader Space
    ({leader_space}): a copied 0.2.8 sentence shows only in the build of rules=0.2.8."""
    project = copy_game(GAME)
    path = project.content_dir / GAME / "reference.yaml"
    old = "Put\n      the new leader in your {leader_space}"
    assert old in path.read_text(encoding="utf-8")
    path.write_text(path.read_text(encoding="utf-8").replace(old, "Put it face-up in the {leader_space} space on the top-right corner of their Monster Board,"), encoding="utf-8")
    copied = copied_from_book(project, GAME, "tasty-humans-rules-0.2.8.txt", {"rules": "0.2.8"})
    assert "the grip space on the top right corner" in copied
    assert not any("grip" in run for run in copied_from_book(project, GAME, "tasty-humans-rules-0.2.8.txt"))


def test_reference_card_gives_the_turn_summary(published: Path, v028: Path):
    """Snake draft (published lines 68-72), draft order (lines 170-172), the two endings
    (lines 184-186) and the shared King (line 190), with 0.2.8's class name."""
    words = " ".join(" ".join(texts(svg(published / "reference-card" / n))) for n in ("reference.svg", "reference-back.svg"))
    words = " ".join(words.split())
    assert "SNAKE DRAFT" in words and "1 2 3 4 4 3 2 1" in words
    assert "most intel icons on your two adventurer cards; then fewer damage tiles; then clockwise from the King holder" in words
    assert "finish the round, skipping full stomachs" in words and "fills with a leader during the draft" in words
    assert "shared King marker" in words and "(4/4/3 stacks at 2/3/4 players; a stack a draft: our reading)" in words
    assert "Captain: discard" in words
    old = " ".join(" ".join(texts(svg(v028 / "reference-card" / "reference.svg"))).split())
    assert "General: discard" in old and "Captain" not in old


def _copy_of_the_game(tmp_path: Path, repo_project: Project) -> Project:
    """A project of its own holding Tasty Humans' content and templates, to edit."""
    project = Project(tmp_path)
    shutil.copytree(repo_project.content_dir / GAME, project.content_dir / GAME)
    shutil.copytree(repo_project.templates_dir / GAME, project.templates_dir / GAME)
    link_plugins(project.root)
    return project


def test_reference_card_numbers_follow_rules_yaml(tmp_path: Path, repo_project: Project):
    """The turns a round and the stomach's width printed on the reference card are the
    rules.yaml values the scorer uses (turns_a_round, stomach.columns), in both versions."""
    project = _copy_of_the_game(tmp_path, repo_project)
    rules_yaml = project.content_dir / GAME / "rules.yaml"
    text = rules_yaml.read_text(encoding="utf-8")
    assert text.count("turns_a_round: 2\n") == 1 and text.count("columns: 6\n") == 1  # in 0.2.8, inherited by published
    rules_yaml.write_text(text.replace("turns_a_round: 2\n", "turns_a_round: 3\n").replace("columns: 6\n", "columns: 5\n"), encoding="utf-8")
    game = load_game(project, GAME)
    for version in ("published", "0.2.8"):
        assert game.data["rules"].version(version).turns_a_round == 3
        (card,) = render_game(game, {"rules": version}, 3.0, only={"reference-card"})
        words = " ".join(" ".join(" ".join(texts(ET.fromstring(f.svg))) for f in card.faces).split())
        assert "Everyone takes three turns a round." in words and "two turns" not in words, version
        assert "stays over columns 1-5." in words and "1-6" not in words, version
    rules_yaml.write_text(text.replace("turns_a_round: 2\n", "turns_a_round: 1\n"), encoding="utf-8")
    (card,) = render_game(load_game(project, GAME), {}, 3.0, only={"reference-card"})
    words = " ".join(" ".join(" ".join(texts(ET.fromstring(f.svg))) for f in card.faces).split())
    assert "Everyone takes one turn a round." in words  # not "one turns"


def test_texts_from_the_yaml_are_escaped(tmp_path: Path, repo_project: Project):
    project = _copy_of_the_game(tmp_path, repo_project)
    leaders = project.content_dir / GAME / "leaders.yaml"
    text = leaders.read_text(encoding="utf-8")
    leaders.write_text(text.replace('title: "Helmet Line"', 'title: "Helm <&> Line"', 1), encoding="utf-8")
    game = load_game(project, GAME)
    rendered = render_game(game, {}, 3.0, only={"leader-tile", "reference-card"})
    faces = {f.name: f.svg for c in rendered for f in c.faces}
    assert "Helm &lt;&amp;&gt; Line" in faces["line-helmet"]
    assert "Helm <&> Line" in texts(ET.fromstring(faces["line-helmet"]))


# ---------------------------------------------------------------- boards, token, sheets


def test_leader_board_marks_the_stack_unused_at_four_players(published: Path, rules):
    root = svg(published / "leader-board/leader-board.svg")
    spaces = [g for g in root.iter(NS + "g") if g.get("class") == "stack-space"]
    assert len(spaces) == max(rules.leader_stacks_by_players.values())
    unused = {g.get("data-order"): g.get("data-unused-with") for g in spaces if g.get("data-unused-with")}
    assert unused == {"1": "4"}  # the leftmost space, numbered 1 in reveal order (tests/test_th_kit.py)
    opens = [r for r in root.iter(NS + "rect") if r.get("class") == "open-space"]
    assert len(opens) == max(rules.leader_stacks_by_players) + 1
    track = svg(published / "leader-board/leader-board-back.svg")
    numbers = [t.text for t in track.iter(NS + "text")]
    assert [str(n) for n in range(1, 101)] == [n for n in numbers if n.isdigit()]


def test_basic_tile_names_read_on_their_tint(published: Path):
    """A basic tile's name (2.6 mm bold) is in its type's accent on the tile's tint: at least
    4.5:1 in colour and greyscale (HAND's ochre was 3.6:1, ARMOR 4.2:1, BOOT 4.3:1)."""
    from colour_vision import contrast
    tiles = sorted((published / "basic-tile").glob("*.svg"))
    assert len(tiles) >= 5
    for path in tiles:
        root = svg(path)
        tint = [r.get("fill") for r in root.iter(NS + "rect")][1]  # the frame, over the background
        name = [t for t in root.iter(NS + "text")][-1]
        assert name.text == path.stem.upper(), path.name
        for view in ("normal", "grey"):
            assert contrast(name.get("fill"), tint, view) >= 4.5, (path.name, view)


def test_leader_board_stack_numbers_read_but_stay_quieter_than_the_headings(published: Path):
    """The reveal order numbers were pale lilac on white (1.57:1), lost on a mono printer:
    at least 4.5:1 on their space (white, or grey when unused) in colour and greyscale,
    and still less than the accent title's contrast on the board."""
    from colour_vision import contrast
    root = svg(published / "leader-board/leader-board.svg")
    board = next(root.iter(NS + "rect")).get("fill")
    title = next(t for t in root.iter(NS + "text") if t.text and "BOARD" in t.text)
    loudest = contrast(title.get("fill"), board)
    for g in (g for g in root.iter(NS + "g") if g.get("class") == "stack-space"):
        space = list(g.iter(NS + "rect"))[1].get("fill")  # after its shadow
        number = next(t for t in g.iter(NS + "text") if t.text == g.get("data-order"))
        for view in ("normal", "grey"):
            assert 4.5 <= contrast(number.get("fill"), space, view) < loudest, (g.get("data-order"), view)


def test_small_grey_print_reads_on_its_ground(published: Path, v028: Path, rules):
    """The monster boards' stomach column numbers (2.4 mm grey, 4.29-4.38:1 on three of the
    four tints) and the reference cards' footer (2.2 mm grey, 3.2:1): at least 4.5:1 on the
    face's background, which is what they are drawn on, in colour and greyscale."""
    from colour_vision import contrast
    boards = sorted((published / "monster-board").glob("*.svg"))
    assert len(boards) == 4
    for path in boards:
        root = svg(path)
        ground = next(root.iter(NS + "rect")).get("fill")
        numbers = [t for t in root.iter(NS + "text") if t.get("class") == "column-number"]
        assert [t.text for t in numbers] == [str(c) for c in range(1, rules.stomach.columns + 1)], path.name
        for number in numbers:
            for view in ("normal", "grey"):
                assert contrast(number.get("fill"), ground, view) >= 4.5, (path.name, view)
    cards = [path for out in (published, v028) for part in ("reference-card", "solo-reference") for path in (out / part).glob("*.svg")]
    assert len(cards) == 8
    for path in cards:
        root = svg(path)
        ground = next(root.iter(NS + "rect")).get("fill")
        (footer,) = [t for t in root.iter(NS + "text") if t.get("class") == "footer"]
        for view in ("normal", "grey"):
            assert contrast(footer.get("fill"), ground, view) >= 4.5, (path.name, view)


def test_king_token_prints_the_bonus(published: Path, rules):
    assert f"+{rules.king_bonus}" in texts(svg(published / "king-token/village-king.svg"))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_scoring_sheet_has_a_stomach_per_player_with_the_rows_of_that_count(published: Path, rules, players):
    root = svg(published / f"scoring-sheet/players-{players}.svg")
    blocks = [g for g in root.iter(NS + "g") if g.get("class") == "player"]
    assert len(blocks) == players
    rows = rules.stomach.rows_by_players[players]
    for block in blocks:
        assert int(block.get("data-rows")) == rows
        labels = [t.text for t in block.iter(NS + "text") if t.get("class") == "row-label"]
        assert labels == [str(r) for r in range(1, rows + 1)]
        slots = [g.get("data-slot") for g in block.iter(NS + "g") if g.get("class") == "leader-slot"]
        assert slots == [str(i) for i in range(1, rules.leaders_max_by_players[players] + 1)]
    legend = " ".join(texts(next(g for g in root.iter(NS + "g") if g.get("class") == "legend")))
    for t in rules.tiles.values():
        assert re.search(rf"\b{t.symbol}\b", legend) and t.name in legend
    assert any(g.get("class") == "ai" for g in root.iter(NS + "g")) == (players == 1)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_scoring_sheet_leader_points_boxes_stand_apart(published: Path, players):
    """The print review: at 4 players the slots are 5.75 mm apart and the 5.4 mm boxes
    read as one column. Every count leaves at least 1.5 mm between two boxes."""
    root = svg(published / f"scoring-sheet/players-{players}.svg")
    for block in (g for g in root.iter(NS + "g") if g.get("class") == "player"):
        boxes = [r for g in block.iter(NS + "g") if g.get("class") == "leader-slot" for r in g.iter(NS + "rect")]
        assert len(boxes) >= 4
        ys = [(float(r.get("y")), float(r.get("height"))) for r in boxes]
        gaps = [b[0] - (a[0] + a[1]) for a, b in zip(ys, ys[1:])]
        assert min(gaps) >= 1.5 - 1e-6, gaps
        assert min(h for _, h in ys) >= 4, ys  # still room to write a number
