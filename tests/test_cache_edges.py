"""The build cache at the edges of what a face reads (pnp/build/trace.py): a slice, a
namespace that holds itself, a filter given keywords in `items:`, and what a plugin hands
the templates (records with helpers, Markup, data that links back to itself, tuple keys).
An edit to what a face read renders it again; a rebuild with no edit renders nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.build.driver import BuildOptions, build
from pnp.errors import PnpError
from pnp.load.content import Project
from test_cache import CARDS, GAME_YAML, TOKEN, deck, write_cards  # noqa: F401  (deck: the fixture)


def svg_build(project: Project) -> tuple:
    (report,) = build(project, None, BuildOptions(formats=("svg",)))
    return report


def token_svg(project: Project) -> str:
    return (project.output_dir / "deck/svg/token/t1.svg").read_text()


def with_token(project: Project, body: str) -> None:
    (project.templates_dir / "deck/token.svg.j2").write_text(TOKEN.replace("{% endblock %}", f"<text>{body}</text>{{% endblock %}}"))


def test_a_slice_of_a_list_counts_the_list_whole(deck: Project):
    """A loop over `cards.cards[1:]` takes records from a list it never reads by key: the
    tokens depend on every card."""
    with_token(deck, "{% for c in cards.cards[1:] %}{{ c.title }} {% endfor %}")
    assert svg_build(deck).rendered == 6
    assert svg_build(deck).rendered == 0
    write_cards(deck, [("alpha", "Alpha", 2), ("beta", "Beta", 1), ("gamma", "Gamma Ray", 3)])
    assert svg_build(deck).rendered == 3  # gamma and the two tokens
    assert "Beta Gamma Ray" in token_svg(deck)


def test_a_lookup_by_a_list_counts_the_container_whole(deck: Project):
    """`style[tokens.tokens]` (a designer's slip: a list is no key) finds nothing, and
    `default` stands in: the face depends on all of `style` rather than on no key of it."""
    with_token(deck, '{{ style[tokens.tokens] | default("none") }} {{ tokens.tokens[tokens.tokens] | default("none") }}')
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#e76f51'\nborder: 1\n")
    assert svg_build(deck).rendered == 6
    assert "none none" in token_svg(deck)
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#e76f51'\nborder: 2\n")
    assert svg_build(deck).rendered == 2


def test_a_field_looked_up_by_name_that_was_missing_counts_when_it_appears(deck: Project):
    with_token(deck, "{{ style['border'] | default('none') }}")
    assert svg_build(deck).rendered == 6
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#e76f51'\nborder: 2\n")
    assert svg_build(deck).rendered == 2
    assert "<text>2</text>" in token_svg(deck)


def test_a_namespace_that_holds_itself_counts_what_it_holds(deck: Project):
    """Printing a namespace reads all it holds, itself included, once: `style` counts whole."""
    with_token(deck, "{% set ns = namespace(s=style) %}{% set ns.me = ns %}{{ ns | string }}")
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#e76f51'\nborder: 1\n")
    assert svg_build(deck).rendered == 6
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#e76f51'\nborder: 2\n")
    assert svg_build(deck).rendered == 2
    assert "&#39;border&#39;: 2" in token_svg(deck)


def test_items_ordered_by_a_filter_given_keywords(deck: Project):
    """`items:` is evaluated outside any face: a wrapped filter given keywords still works,
    and editing one card renders that card alone."""
    (deck.content_dir / "deck/game.yaml").write_text(
        GAME_YAML.replace("items: cards.cards", "items: cards.cards | sort(attribute='title', reverse=true)"))
    assert svg_build(deck).rendered == 6
    write_cards(deck, [("alpha", "Alpha", 2), ("beta", "Beta Two", 1), ("gamma", "Gamma", 3)])
    assert svg_build(deck).rendered == 1
    assert "Beta Two" in (deck.output_dir / "deck/svg/card/beta.svg").read_text()


MAP = "regions:\n  - {id: a, name: Ash, next: [b]}\n  - {id: b, name: Birch, next: [a]}\n"
PLUGIN = """\
from markupsafe import Markup, escape
from pydantic import BaseModel
from pnp.api import GamePlugin


class Card(BaseModel):
    id: str
    title: str
    copies: int

    def shout(self):
        return self.title.upper()


class Cards(BaseModel):
    cards: list[Card]


class Style(BaseModel):
    colour: str


class Tokens(BaseModel):
    tokens: list[dict]


class Map(BaseModel):
    regions: list[dict]


def context(game, options):
    regions = {r["id"]: dict(r) for r in game.data["map"].regions}
    for region in regions.values():  # each region links to its neighbours, and they back to it
        region["next"] = [regions[n] for n in region["next"]]
    tour = [r["name"] for r in regions.values()]
    tour.append(tour)  # a tour that goes round again
    return {"land": list(regions.values()), "tour": tour,
            "marks": [Markup("<tspan>%s</tspan>") % escape(r["name"]) for r in regions.values()],
            "far": {(a, b): len(regions[a]["name"]) + len(regions[b]["name"]) for a in regions for b in regions}}


PLUGIN = GamePlugin(models={"cards": Cards, "style": Style, "tokens": Tokens, "map": Map}, context=context)
"""


@pytest.fixture
def mapped(deck: Project, trusted) -> Project:
    """The deck with a plugin: cards are models with a method, `map.yaml` becomes linked
    regions, Markup marks and distances keyed by pairs of region ids."""
    (deck.root / "plugins").mkdir()
    (deck.root / "plugins/deck.py").write_text(PLUGIN)
    (deck.content_dir / "deck/game.yaml").write_text("plugin: plugins/deck.py\n" + GAME_YAML)
    (deck.content_dir / "deck/map.yaml").write_text(MAP)
    return trusted(deck)


def rename_birch(project: Project, name: str) -> None:
    (project.content_dir / "deck/map.yaml").write_text(MAP.replace("Birch", name))


def test_a_record_with_a_helper_read_whole_is_reused_unedited(mapped: Project):
    """A card model's method is a helper in the record: the record read whole digests it
    by name, the same in every build, so an unedited card is not rendered again."""
    card = mapped.templates_dir / "deck/card.svg.j2"
    card.write_text(card.read_text().replace("{{ item.copies }}", "{{ item | dictsort | length }} {{ item.shout() }}"))
    assert svg_build(mapped).rendered == 6
    assert svg_build(mapped).rendered == 0
    write_cards(mapped, [("alpha", "Alpha", 2), ("beta", "Beta", 1), ("gamma", "Gamma", 4)])
    assert svg_build(mapped).rendered == 1
    assert "GAMMA" in (mapped.output_dir / "deck/svg/card/gamma.svg").read_text()


@pytest.mark.parametrize("body, shown", [
    # a region handed to a filter counts whole, its neighbours and their links back to it included
    ("{{ land[0].name }} {{ land[0] | dictsort | map('first') | join(',') }} {{ land[0].next[0].name }}", "Ash id,name,next Beech"),
    # lists read by index count by their shapes: their items' values (Markup too), a list holding itself included
    ("{{ marks[0] }} {{ tour[0] }}", "<tspan>Ash</tspan> Ash"),
])
def test_what_a_plugin_links_or_marks_up_counts_for_the_faces_that_read_it(mapped: Project, body: str, shown: str):
    """Renaming Birch renders again the tokens that read it, however they reached it."""
    with_token(mapped, body)
    assert svg_build(mapped).rendered == 6
    assert svg_build(mapped).rendered == 0
    rename_birch(mapped, "Beech")
    assert svg_build(mapped).rendered == 2
    assert shown in token_svg(mapped)


def test_a_value_read_by_a_tuple_key_is_never_stale(mapped: Project):
    """The cache file keeps a path's tuple key as a list, which no dict holds: the face is
    rendered again rather than trusted, and shows the edit."""
    with_token(mapped, '{{ far[("a", "b")] }}')
    assert svg_build(mapped).rendered == 6
    assert ">8</text>" in token_svg(mapped)
    rename_birch(mapped, "Hornbeam")
    svg_build(mapped)
    assert ">11</text>" in token_svg(mapped)


def test_emptying_every_list_of_items_removes_the_print_pdf(deck: Project):
    """No component has a piece left: there is nothing to print, and the print PDF and the
    faces of the last build go."""
    rebuild = lambda: build(deck, None, BuildOptions())[0]  # noqa: E731
    assert "deck-print.pdf" in rebuild().changed
    (deck.content_dir / "deck/cards.yaml").write_text("cards: []\n")
    (deck.content_dir / "deck/tokens.yaml").write_text("tokens: []\n")
    report = rebuild()
    assert report.pieces == 0 and report.sheets is None
    assert "deck-print.pdf" in report.removed and "svg/card/alpha.svg" in report.removed
    assert not (deck.output_dir / "deck/deck-print.pdf").exists()


def test_a_game_with_no_piece_builds_every_format_empty(deck: Project):
    """Every format given a game whose pieces are all 0 copies, then whose lists of items
    are empty: nothing to print, no error, and the second build leaves no file of a piece
    (the shared back included: no piece has it)."""
    formats = BuildOptions(formats=("svg", "pdf", "pdf-single", "png", "tts"))
    (deck.content_dir / "deck/cards.yaml").write_text("cards:\n  - {id: alpha, title: Alpha, copies: 0}\n")
    (deck.content_dir / "deck/tokens.yaml").write_text("tokens: []\n")
    (report,) = build(deck, None, formats)
    assert report.pieces == 0 and report.sheets == (0, 0)
    (deck.content_dir / "deck/cards.yaml").write_text("cards: []\n")
    (report,) = build(deck, None, formats)
    assert report.pieces == 0 and report.sheets is None
    made = sorted(p.relative_to(deck.output_dir / "deck").as_posix() for p in (deck.output_dir / "deck").rglob("*")
                  if p.is_file() and not p.name.startswith("."))
    assert made == ["tts/deck.json", "tts/decks.json"], made  # the table's save, with nothing on it


def test_art_that_becomes_a_link_out_of_the_project_is_not_reused(deck: Project, tmp_path: Path):
    """A face's picture replaced by a link leading out of the project: pnp may not read it,
    so the face is rendered again and the build says why, rather than reusing the old face."""
    from test_cache import _art, art_tokens

    art = art_tokens(deck)
    assert svg_build(deck).rendered == 6
    (tmp_path / "elsewhere.svg").write_text(_art("#00f"))
    (art / "t2.svg").unlink()
    (art / "t2.svg").symlink_to(tmp_path / "elsewhere.svg")
    with pytest.raises(PnpError) as failed:
        svg_build(deck)
    (line,) = [str(e) for e in failed.value.errors]
    assert "token.svg.j2:1: token/t2: image is a link to" in line and "outside the project folder" in line, line
