"""The build cache: a rebuild touches exactly what an edit affects, and a broken cache only
costs a full rebuild."""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest

from pnp.formats import impose as impose_mod
from pnp.render import faces as render_mod
from pnp.build.driver import BuildOptions, build
from pnp.build.cache import CACHE_FILE
from pnp.load.content import Project
from pnp.errors import PnpError

GAME_YAML = """\
title: Deck
options:
  variant: {choices: [a, b], default: a}
  players: {type: int, min: 1, max: 6}  # --players goes to a game that declares it
components:
  - id: card
    name: Cards
    size: poker
    items: cards.cards
    copies: item.copies
    front: card.svg.j2
    back: back.svg.j2
  - id: token
    name: Tokens
    size: 30mm x 30mm
    items: tokens.tokens
    front: token.svg.j2
"""
CARDS = [("alpha", "Alpha", 2), ("beta", "Beta", 1), ("gamma", "Gamma", 3)]
CARD = """\
{% extends "pnp/base.svg.j2" %}
{% import "macros.svg.j2" as m %}
{% block body %}{{ m.title(item.title, width) }}<text x="5" y="30" font-size="4">{{ item.copies }}</text>{% endblock %}
"""
MACROS = """\
{% macro title(text, width) %}<text x="{{ width / 2 }}" y="12" font-size="6" text-anchor="middle">{{ text }}</text>{% endmacro %}
"""
BACK = '{% extends "pnp/base.svg.j2" %}{% block background %}#264653{% endblock %}'
TOKEN = '{% extends "pnp/base.svg.j2" %}{% block body %}<circle cx="15" cy="15" r="10" fill="{{ style.colour }}"/>{% endblock %}'


def write_cards(project: Project, cards=CARDS, comment: str = "") -> None:
    lines = [f"# cards{comment}", "cards:"]
    for ident, title, copies in cards:
        lines += [f"  - id: {ident}", f"    title: {title}", f"    copies: {copies}"]
    (project.content_dir / "deck/cards.yaml").write_text("\n".join(lines) + "\n")


@pytest.fixture
def deck(tmp_path: Path) -> Project:
    """Two components: cards (items from cards.yaml, a macro file, a shared back) and
    tokens (items from tokens.yaml, colour from style.yaml)."""
    project = Project(tmp_path / "proj")
    content, templates = project.content_dir / "deck", project.templates_dir / "deck"
    content.mkdir(parents=True)
    templates.mkdir(parents=True)
    (content / "game.yaml").write_text(GAME_YAML)
    write_cards(project)
    (content / "tokens.yaml").write_text("tokens:\n  - id: t1\n  - id: t2\n")
    (content / "style.yaml").write_text("colour: '#e76f51'\n")
    for name, text in {"card.svg.j2": CARD, "macros.svg.j2": MACROS, "back.svg.j2": BACK, "token.svg.j2": TOKEN}.items():
        (templates / name).write_text(text)
    return project


def stamps(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_mtime_ns for p in sorted(root.rglob("*")) if p.is_file()}


def rebuild(project: Project, **options) -> tuple:
    (report,) = build(project, None, BuildOptions(**options))
    return report


def test_a_no_op_rebuild_renders_imposes_and_writes_nothing(deck: Project, monkeypatch):
    first = rebuild(deck)
    assert first.rendered == 6 and first.written == 9  # 3 fronts + back + 2 tokens; 6 svg + 2 pdf + the print PDF
    before = stamps(deck.output_dir)
    assert CACHE_FILE in "".join(before)

    def boom(*args, **kwargs):
        raise AssertionError("a no-op rebuild must not render or impose")

    monkeypatch.setattr(render_mod.ComponentRenderer, "face", boom)
    monkeypatch.setattr(impose_mod, "impose", boom)
    again = rebuild(deck)
    assert (again.rendered, again.written, again.changed, again.files) == (0, 0, (), 9)
    assert stamps(deck.output_dir) == before  # not even the cache or the manifest is rewritten


def test_changing_one_card_rerenders_that_card_and_only_its_pdf(deck: Project):
    rebuild(deck)
    before = stamps(deck.output_dir / "deck")
    write_cards(deck, [("alpha", "Alpha", 2), ("beta", "Beta the Second", 1), ("gamma", "Gamma", 3)])
    report = rebuild(deck)
    assert report.rendered == 1
    assert report.changed == ("deck-print.pdf", "pdf/card.pdf", "svg/card/beta.svg")
    after = stamps(deck.output_dir / "deck")
    touched = {rel for rel in after if after[rel] != before.get(rel)}
    # the list of outputs holds each file's digest (what pnp may later remove): it changes too
    # of the book's three typeset documents (the cards', the tokens', the print PDF's labels),
    # the cards' is typeset again (the old one dropped), the others kept
    kept = {rel for rel in after if rel.startswith(".pnp-typeset/")}
    assert len(kept) == 3 and len(kept & touched) == 1 and len(kept & set(before)) == 2
    assert touched - kept == {"deck-print.pdf", "pdf/card.pdf", "svg/card/beta.svg", CACHE_FILE, ".pnp-files.json"}
    assert "Beta the Second" in (deck.output_dir / "deck/svg/card/beta.svg").read_text()



@pytest.mark.parametrize("fmt, made", [("pdf", ["Deck: Cards", "Deck: print"]), ("pdf-single", ["Deck: Cards"])])
def test_an_edit_of_a_card_makes_again_its_component_pdf_and_the_print_pdf_alone_as_a_full_build_makes_them(
        deck: Project, monkeypatch, tmp_path, fmt, made):
    """A component's PDF reads the book's documents of its own faces alone (their font
    subsets are made per document): a card's edit that brings a new letter typesets the
    cards' document again and makes the cards' PDF and the print PDF, not the tokens' (whose
    faces have text too), and every PDF is byte for byte what a full build makes."""
    from pnp.build.cache import BuildCache
    from pnp.formats import pdf_sheets

    (deck.templates_dir / "deck/token.svg.j2").write_text(TOKEN.replace("{% endblock %}", '<text x="5" y="28" font-size="4">{{ item.id }}</text>{% endblock %}'))
    rebuild(deck, formats=(fmt,))
    composed: list[str] = []
    compose = pdf_sheets._compose
    monkeypatch.setattr(pdf_sheets, "_compose", lambda plan, *rest: composed.append(plan.title) or compose(plan, *rest))
    typeset: list[dict[str, str]] = []  # the inputs of each document typeset now (not kept)
    kept = BuildCache.typeset

    def looked_up(self, text, inputs):
        key, data = kept(self, text, inputs)
        if data is None:
            typeset.append(inputs)
        return key, data

    monkeypatch.setattr(BuildCache, "typeset", looked_up)
    write_cards(deck, [("alpha", "Alpha", 2), ("beta", "Beta the Second", 1), ("gamma", "Gamma", 3)])
    report = rebuild(deck, formats=(fmt,))
    assert composed == made
    assert [rel for rel in report.changed if rel.endswith(".pdf")] == (["deck-print.pdf", "pdf/card.pdf"] if fmt == "pdf" else ["pdf-single/card.pdf"])
    if fmt == "pdf":  # the cards' document alone (its four faces); pdf-single keeps no typeset document
        assert len(typeset) == 1 and len(typeset[0]) == 4 and any("Beta the Second" in svg for svg in typeset[0].values())
    rebuild(deck, formats=(fmt,), force=True, out=tmp_path / "full")
    edited, full = deck.output_dir / "deck", tmp_path / "full/deck"
    pdfs = sorted(p.relative_to(full) for p in full.rglob("*.pdf"))
    assert len(pdfs) == (3 if fmt == "pdf" else 2)
    assert all((edited / rel).read_bytes() == (full / rel).read_bytes() for rel in pdfs)


def _typeset_count(monkeypatch) -> list[int]:
    """Documents of faces the engine typesets, counted in the processes apart (a book of
    more than `CHUNK` faces, here 2)."""
    from pnp.formats import pdf_engine

    monkeypatch.setattr(pdf_engine, "CHUNK", 2)
    count = [0]
    child = pdf_engine._in_child

    def counted(job, behind=False):
        count[0] += job[0] == "typeset"
        return child(job, behind)

    monkeypatch.setattr(pdf_engine, "_in_child", counted)
    return count


def test_an_edit_typesets_again_only_the_document_of_the_book_that_changed(deck: Project, monkeypatch, tmp_path):
    """The book's documents an earlier build typeset are kept (sealed) and reused by their
    source: one card's edit typesets the one document of two faces that holds it, and the
    PDFs are byte for byte those of a full build."""
    count = _typeset_count(monkeypatch)
    rebuild(deck)
    assert count[0] == 4  # 3 cards, their back and 2 tokens: 6 faces, 3 documents; the labels' document
    count[0] = 0
    write_cards(deck, [("alpha", "Alpha", 2), ("beta", "Beta the Second", 1), ("gamma", "Gamma", 3)])
    rebuild(deck)
    assert count[0] == 1
    rebuild(deck, force=True, out=tmp_path / "full")  # --force reuses no kept document
    assert count[0] == 5
    edited, full = deck.output_dir / "deck", tmp_path / "full/deck"
    assert sorted(p.name for p in (edited / ".pnp-typeset").iterdir()) == sorted(p.name for p in (full / ".pnp-typeset").iterdir())
    for rel in ("deck-print.pdf", "pdf/card.pdf", "pdf/token.pdf"):
        assert (edited / rel).read_bytes() == (full / rel).read_bytes(), rel


def test_a_kept_document_is_checked_not_trusted(deck: Project, monkeypatch, tmp_path):
    """A kept document pnp did not seal under its name (edited, swapped with another, made
    by another user) is typeset again; a link in its place is never written through."""
    count = _typeset_count(monkeypatch)
    rebuild(deck)
    kept = sorted((deck.output_dir / "deck/.pnp-typeset").iterdir())
    first, second = kept[0].read_bytes(), kept[1].read_bytes()
    kept[0].write_bytes(second)  # a sealed document under another's key
    kept[1].write_bytes(b"%PDF-1.7 not sealed")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    kept[2].unlink()
    kept[2].symlink_to(outside / "x.pdf")
    count[0] = 0
    for pdf in ("deck-print.pdf", "pdf/card.pdf", "pdf/token.pdf"):  # the PDFs made again, from the same book
        (deck.output_dir / "deck" / pdf).unlink()
    rebuild(deck)
    assert count[0] == 3 and not list(outside.iterdir())
    assert kept[0].read_bytes() == first and kept[1].read_bytes() == second
    rebuild(deck, force=True, out=tmp_path / "full")
    assert (deck.output_dir / "deck/deck-print.pdf").read_bytes() == (tmp_path / "full/deck/deck-print.pdf").read_bytes()


def test_folders_and_files_of_a_stranger_where_pnp_keeps_its_records_cost_a_full_build_at_most(deck: Project, monkeypatch, tmp_path):
    """Folders a project ships where pnp keeps its records (the cache, the list of files, a
    kept typeset document) are no records: the build reads and writes none there, and
    succeeds; a file named like a kept document that pnp did not seal is left alone."""
    _typeset_count(monkeypatch)
    rebuild(deck)
    out = deck.output_dir / "deck"
    records = [out / CACHE_FILE, out / ".pnp-files.json", sorted((out / ".pnp-typeset").iterdir())[0]]
    for record in records:
        record.unlink()
        record.mkdir()
    stranger = out / ".pnp-typeset" / ("0" * 32 + ".sealed")
    stranger.write_bytes(b"mine")
    write_cards(deck, [("alpha", "Alpha", 2), ("beta", "Beta the Second", 1), ("gamma", "Gamma", 3)])
    assert rebuild(deck).rendered == 6  # no cache: every face
    assert all(record.is_dir() for record in records) and stranger.read_bytes() == b"mine"
    rebuild(deck, force=True, out=tmp_path / "full")
    for rel in ("deck-print.pdf", "pdf/card.pdf", "svg/card/beta.svg"):
        assert (out / rel).read_bytes() == (tmp_path / "full/deck" / rel).read_bytes(), rel


def test_a_record_is_checked_in_place_not_copied():
    """A forged record as large as a record may be, with a seal's look, is refused without
    a copy of it (a project may ship one in every game's output folder)."""
    import tracemalloc

    from pnp.load.seal import MAGIC, unseal

    forged = MAGIC + b"0" * 64 + b"\n" + bytes(32 << 20)
    tracemalloc.start()
    try:
        assert unseal(CACHE_FILE, forged) is None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def test_kept_documents_are_a_cache_a_failed_write_keeps_none_and_a_killed_builds_leftovers_go(deck: Project, monkeypatch):
    """A kept document that cannot be written (a full disk) costs only the keeping: the build,
    its files committed already, succeeds; what a build killed while it wrote one left goes."""
    import errno

    from pnp.build import cache as cache_mod

    _typeset_count(monkeypatch)
    write = cache_mod.write_sealed

    def full(path, purpose, data):
        if purpose.startswith(".pnp-typeset/"):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return write(path, purpose, data)

    monkeypatch.setattr(cache_mod, "write_sealed", full)
    rebuild(deck)
    out = deck.output_dir / "deck"
    assert (out / "deck-print.pdf").is_file() and (out / CACHE_FILE).is_file() and not list((out / ".pnp-typeset").glob("*"))
    monkeypatch.setattr(cache_mod, "write_sealed", write)
    rebuild(deck, force=True)
    kept = sorted((out / ".pnp-typeset").iterdir())
    leftover = out / ".pnp-typeset" / f".{kept[0].name}.999999999-0.tmp"  # no such process
    leftover.write_bytes(b"half")
    write_cards(deck, [("alpha", "Alpha", 2), ("beta", "Beta the Second", 1), ("gamma", "Gamma", 3)])
    rebuild(deck)
    assert not leftover.exists()


def test_a_build_releasing_its_lock_leaves_another_builds_lock_file(tmp_path):
    """The output folder removed while a build held its lock, and another build's lock file
    made in its place: the first build's release removes only its own."""
    from pnp.build.lock import LOCK, output_lock

    folder = tmp_path / "out"
    with output_lock(folder):
        (folder / LOCK).unlink()
        (folder / LOCK).write_text("")  # another build's
        other = os.stat(folder / LOCK)
    assert os.path.samestat(os.stat(folder / LOCK), other)


def test_copies_change_reimposes_without_rendering(deck: Project):
    """`copies` is not shown on the token faces, so only the PDF is made again."""
    rebuild(deck)
    (deck.content_dir / "deck/game.yaml").write_text(GAME_YAML.replace("front: token.svg.j2", "front: token.svg.j2\n    copies: 4"))
    report = rebuild(deck)
    # game.yaml is an input of every face: all render again, but only the token PDF differs
    assert report.rendered == 6 and report.changed == ("deck-print.pdf", "pdf/token.pdf")


def test_comments_and_layout_of_the_yaml_do_not_count(deck: Project):
    rebuild(deck)
    write_cards(deck, comment=" -- reordered keys and a new comment")
    assert rebuild(deck).rendered == 0


def test_adding_and_removing_cards(deck: Project):
    rebuild(deck)
    write_cards(deck, [("alpha", "Alpha", 2), ("gamma", "Gamma", 3), ("delta", "Delta", 1)])
    report = rebuild(deck)
    assert report.rendered == 1  # delta
    assert report.changed == ("deck-print.pdf", "pdf/card.pdf", "svg/card/delta.svg")
    assert report.removed == ("svg/card/beta.svg",)
    assert not (deck.output_dir / "deck/svg/card/beta.svg").exists()


def test_a_card_added_before_the_tokens_leaves_their_pdf_as_a_full_build_makes_it(deck: Project, tmp_path):
    """The tokens' faces come after one more card in the book (their pages' numbers shift):
    their PDF, not made again, is still byte for byte what a full build makes (a PDF names
    the pages it draws in its own order, not by the book's numbers)."""
    rebuild(deck)
    write_cards(deck, [*CARDS, ("delta", "Delta", 1)])
    report = rebuild(deck)
    assert "pdf/token.pdf" not in report.changed and "pdf/card.pdf" in report.changed
    rebuild(deck, force=True, out=tmp_path / "full")
    for rel in ("deck-print.pdf", "pdf/card.pdf", "pdf/token.pdf"):
        assert (deck.output_dir / "deck" / rel).read_bytes() == (tmp_path / "full/deck" / rel).read_bytes(), rel


def test_a_macro_file_change_rerenders_the_faces_that_import_it(deck: Project):
    rebuild(deck)
    macros = deck.templates_dir / "deck/macros.svg.j2"
    macros.write_text(macros.read_text().replace('font-size="6"', 'font-size="7"'))
    report = rebuild(deck)
    assert report.rendered == 3  # the card fronts; not the back nor the tokens
    assert set(report.changed) == {"deck-print.pdf", "pdf/card.pdf", "svg/card/alpha.svg", "svg/card/beta.svg", "svg/card/gamma.svg"}


def test_a_content_file_is_an_input_of_the_faces_whose_templates_use_it(deck: Project):
    rebuild(deck)
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#2a9d8f'\n")
    report = rebuild(deck)
    assert report.rendered == 2  # the tokens use `style`; the cards don't
    assert set(report.changed) == {"deck-print.pdf", "pdf/token.pdf", "svg/token/t1.svg", "svg/token/t2.svg"}


def test_only_the_keys_a_template_reads_of_a_content_file_count(deck: Project):
    """`style.colour` reads one key of style.yaml: another key changing renders nothing."""
    assert border_then_colour(deck) == (0, 2)


def border_then_colour(deck: Project) -> tuple[int, int]:
    """Faces rendered again after style.yaml's `border` changes, then after its `colour` does."""
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#e76f51'\nborder: 1\n")
    rebuild(deck)
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#e76f51'\nborder: 2\n")
    border = rebuild(deck).rendered
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#2a9d8f'\nborder: 2\n")
    return border, rebuild(deck).rendered


@pytest.mark.parametrize("use, rendered", [("{% set s = style %}{{ s.border }}", 2), ("{{ style['bor' ~ 'der'] }}", 2), ("{{ style }}", 2),
                                           ("{% for k, v in style.items() %}{{ v }}{% endfor %}", 2), ("{{ style | dictsort }}", 2),
                                           ("{{ style | length }}", 0)])
def test_a_key_read_however_it_is_named_counts(deck: Project, use: str, rendered: int):
    """However a template reads `style.border`, changing it renders again; `length` reads
    the keys alone, so only a new key does."""
    token = deck.templates_dir / "deck/token.svg.j2"
    token.write_text(TOKEN.replace("{% endblock %}", f"<text>{use}</text>{{% endblock %}}"))
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#e76f51'\nborder: 1\n")
    rebuild(deck)
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#e76f51'\nborder: 2\n")
    assert rebuild(deck).rendered == rendered
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#e76f51'\nborder: 2\nwidth: 1\n")
    assert rebuild(deck).rendered == 2


def test_a_function_called_in_a_block_reads_nothing_of_the_blocks_variables(deck: Project):
    """Jinja hands every call in a block the block's variables and gives them only to a
    function that takes the context: `range()` there reads nothing of `s`, so a key of
    style.yaml that no face reads renders nothing."""
    token = deck.templates_dir / "deck/token.svg.j2"
    token.write_text(TOKEN.replace("{% endblock %}", "{% set s = style %}<text>{{ s.colour }}{{ range(2) | length }}</text>{% endblock %}"))
    assert border_then_colour(deck) == (0, 2)


def test_a_key_or_name_that_was_missing_counts_when_it_appears(deck: Project):
    (deck.templates_dir / "deck/card.svg.j2").write_text(CARD.replace("{{ item.copies }}", "{{ item.note | default('') }}"))
    (deck.templates_dir / "deck/token.svg.j2").write_text(TOKEN.replace("{% endblock %}", "<text>{{ extra | default('') }}</text>{% endblock %}"))
    rebuild(deck)
    cards = deck.content_dir / "deck/cards.yaml"
    cards.write_text(cards.read_text().replace("title: Beta\n", "title: Beta\n    note: rare\n"))
    assert rebuild(deck).rendered == 1
    (deck.content_dir / "deck/extra.yaml").write_text("where: everywhere\n")  # a new content file: a new name
    assert rebuild(deck).rendered == 2
    assert "everywhere" in (deck.output_dir / "deck/svg/token/t1.svg").read_text()


def test_a_template_looked_for_counts_when_it_appears(deck: Project):
    (deck.templates_dir / "deck/token.svg.j2").write_text(TOKEN.replace("{% endblock %}", '{% include "extra.svg.j2" ignore missing %}{% endblock %}'))
    rebuild(deck)
    (deck.templates_dir / "deck/extra.svg.j2").write_text('<text x="1" y="5" font-size="3">new</text>')
    assert rebuild(deck).rendered == 2
    assert ">new</text>" in (deck.output_dir / "deck/svg/token/t1.svg").read_text()


def test_a_record_another_face_looks_up_counts_for_it_alone(deck: Project):
    """A token showing beta's title (looked up with selectattr) reads every card's id,
    beta's title and how many cards there are: not the other cards' titles."""
    (deck.templates_dir / "deck/token.svg.j2").write_text(TOKEN.replace(
        "{% endblock %}", '<text>{{ (cards.cards | selectattr("id", "eq", "beta") | first).title }}</text>{% endblock %}'))
    rebuild(deck)
    write_cards(deck, [("alpha", "Alpha the First", 2), ("beta", "Beta", 1), ("gamma", "Gamma", 3)])
    assert rebuild(deck).rendered == 1
    write_cards(deck, [("alpha", "Alpha the First", 2), ("beta", "Beta the Second", 1), ("gamma", "Gamma", 3)])
    assert rebuild(deck).rendered == 3  # beta and the two tokens
    write_cards(deck, [("alpha", "Alpha the First", 2), ("beta", "Beta the Second", 1), ("gamma", "Gamma", 3), ("delta", "Delta", 1)])
    assert rebuild(deck).rendered == 3  # delta, and the tokens: one more card to look through


@pytest.mark.parametrize("use", ['{{ cards.cards | selectattr("id", "eq", "beta") | join(",") }}',
                                 '{% set ns = namespace(c=none) %}{% set ns.c = cards.cards[1] %}{{ ns.c.id }}{{ ns }}',
                                 '{{ (cards.cards | batch(2) | first | last).id }}{{ cards.cards | batch(2) | first | last }}',
                                 '{{ cards.cards[1].id }}{{ "%(copies)s" % cards.cards[1] }}',
                                 '{{ cards.cards[1].id }}{{ cards.cards[1] == {"id": "beta", "title": "Beta", "copies": 1} }}',
                                 '{{ cards.cards[1].id }}{{ "x" ~ cards.cards[1] }}'])
def test_a_record_handed_on_and_used_in_full_counts_whole(deck: Project, use: str):
    """beta, found by a filter, kept in a namespace, compared or joined into text: read in
    full, so its `copies` counts."""
    (deck.templates_dir / "deck/token.svg.j2").write_text(TOKEN.replace("{% endblock %}", f"<text>{use}</text>{{% endblock %}}"))
    rebuild(deck)
    write_cards(deck, [("alpha", "Alpha", 2), ("beta", "Beta", 2), ("gamma", "Gamma", 3)])
    assert rebuild(deck).rendered == 3  # beta and the two tokens


def test_a_record_counts_at_every_place_the_face_reached_it_from(deck: Project):
    """`item` is also `cards.cards[n]`: a face reading the first card counts it as that
    place, so reordering the cards renders again the faces it changes (and not others)."""
    card = deck.templates_dir / "deck/card.svg.j2"
    card.write_text(CARD.replace("{{ item.copies }}", "{{ cards.cards[0].title }}"))
    rebuild(deck)
    write_cards(deck, [("beta", "Beta", 1), ("alpha", "Alpha", 2), ("gamma", "Gamma", 3)])
    assert rebuild(deck).rendered == 3
    assert ">Beta</text>" in (deck.output_dir / "deck/svg/card/gamma.svg").read_text()
    card.write_text(CARD)
    rebuild(deck)
    write_cards(deck, [("alpha", "Alpha", 2), ("beta", "Beta", 1), ("gamma", "Gamma", 3)])
    assert rebuild(deck).rendered == 0  # `item` alone: where a card sits in the list does not count


def test_names_too_shared_to_follow_make_every_name_count(deck: Project, monkeypatch):
    from pnp.build import trace

    monkeypatch.setattr(trace, "MAX_PATHS", 3)  # the names have more paths than that
    rebuild(deck)
    assert rebuild(deck).rendered == 0
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#2a9d8f'\n")
    assert rebuild(deck).rendered == 6  # the cards never read `style`, but every name counts


def _peeking(deck: Project, key: str) -> None:
    """A plugin whose `peek()` reads `style[key]` from the whole template context, not
    through a lookup the trace sees; named by the deck's game."""
    plugins = deck.root / "plugins"
    plugins.mkdir()
    (plugins / "deck.py").write_text("from jinja2 import pass_context\nfrom pnp.api import GamePlugin\n\n"
                                     f"@pass_context\ndef peek(context):\n    return context.get_all()['style'][{key!r}]\n\n"
                                     "PLUGIN = GamePlugin(template_globals={'peek': peek})\n")
    (deck.content_dir / "deck/game.yaml").write_text("plugin: plugins/deck.py\n" + GAME_YAML)


def test_a_helper_that_reads_the_template_context_makes_every_name_count(deck: Project, trusted):
    _peeking(deck, "colour")
    (deck.templates_dir / "deck/card.svg.j2").write_text(CARD.replace("{{ item.copies }}", "{{ peek() }}"))
    trusted(deck)
    rebuild(deck)
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#2a9d8f'\n")
    assert rebuild(deck).rendered == 5  # the cards (peek) and the tokens (style.colour)
    assert "#2a9d8f" in (deck.output_dir / "deck/svg/card/alpha.svg").read_text()


def test_a_helper_that_reads_the_template_context_counts_a_name_whole_the_template_reads_by_key(deck: Project, trusted):
    _peeking(deck, "border")
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#e76f51'\nborder: '#111111'\n")
    (deck.templates_dir / "deck/card.svg.j2").write_text(CARD.replace("{{ item.copies }}", "{{ style.colour }} {{ peek() }}"))
    trusted(deck)
    rebuild(deck)
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#e76f51'\nborder: '#222222'\n")
    assert rebuild(deck).rendered == 3  # the cards: `style` counts whole for them, not only its key `colour`
    assert "#222222" in (deck.output_dir / "deck/svg/card/alpha.svg").read_text()


def test_what_a_plugin_computes_for_a_record_counts_as_a_template_reads_it(deck: Project, trusted):
    """Plugins bind derived data to records (e.g. symbols from the rule set): a template
    reading it through a property depends on it, though it never names the file it came from."""
    plugins = deck.root / "plugins"
    plugins.mkdir()
    (plugins / "deck.py").write_text(
        "from pydantic import BaseModel, PrivateAttr\nfrom pnp.api import GamePlugin\n\n"
        "class Card(BaseModel):\n    id: str\n    title: str\n    copies: int\n    _mark: str = PrivateAttr(default='')\n\n"
        "    @property\n    def mark(self):\n        return self._mark\n\n"
        "class Cards(BaseModel):\n    cards: list[Card]\n\n"
        "class Style(BaseModel):\n    colour: str\n\nclass Tokens(BaseModel):\n    tokens: list[dict]\n\n"
        "def check(game):\n    for card in game.data['cards'].cards:\n        card._mark = game.data['style'].colour\n    return []\n\n"
        "PLUGIN = GamePlugin(models={'cards': Cards, 'style': Style, 'tokens': Tokens}, check=check)\n")
    (deck.content_dir / "deck/game.yaml").write_text("plugin: plugins/deck.py\n" + GAME_YAML)
    (deck.templates_dir / "deck/card.svg.j2").write_text(CARD.replace("{{ item.copies }}", "{{ item.mark }}"))
    trusted(deck)
    assert rebuild(deck).rendered == 6
    (deck.content_dir / "deck/style.yaml").write_text("colour: '#2a9d8f'\n")
    assert rebuild(deck).rendered == 5  # the three cards and the two tokens (`style.colour`)
    assert "#2a9d8f" in (deck.output_dir / "deck/svg/card/alpha.svg").read_text()


def test_a_template_naming_the_item_source_depends_on_all_of_it(deck: Project):
    """A card showing `cards.cards | length` must change when another card is added."""
    card = deck.templates_dir / "deck/card.svg.j2"
    card.write_text(CARD.replace("{{ item.copies }}", "{{ item.copies }} of {{ cards.cards | length }}"))
    rebuild(deck)
    write_cards(deck, CARDS + [("delta", "Delta", 1)])
    report = rebuild(deck)
    assert report.rendered == 4
    assert "of 4" in (deck.output_dir / "deck/svg/card/alpha.svg").read_text()


@pytest.mark.parametrize("change", [{"bleed": 0.0}, {"extra": {"variant": "b"}}, {"players": 3}])
def test_options_are_inputs(deck: Project, change):
    rebuild(deck)
    assert rebuild(deck, **change).rendered == 6


def test_paper_changes_reimpose_every_pdf(deck: Project):
    rebuild(deck)
    report = rebuild(deck, paper="a4")
    assert set(report.changed) == {"deck-print.pdf", "pdf/card.pdf", "pdf/token.pdf"}


def test_force_rebuilds_all(deck: Project):
    rebuild(deck)
    report = rebuild(deck, force=True)
    assert report.rendered == 6
    assert report.written == 0  # same bytes: nothing needs rewriting
    assert rebuild(deck).rendered == 0  # and the cache is whole again


@pytest.mark.parametrize("damage", ["delete", "garbage", "wrong shape", "truncated", "bad trace", "old format", "unsealed",
                                    "edited", "sealed by another user"])
def test_a_broken_cache_means_a_full_rebuild(deck: Project, damage, monkeypatch, tmp_path):
    """Sealed or not (pnp/load/seal.py), a cache of the wrong shape is no cache; one not sealed by
    this user's key is none either, however well shaped."""
    import json
    import os

    from pnp.load import seal

    rebuild(deck)
    cache = deck.output_dir / "deck" / CACHE_FILE
    text = cache.read_text()
    data = json.loads(seal.unseal(CACHE_FILE, cache.read_bytes()) or b"")
    if damage == "delete":
        cache.unlink()
    elif damage == "garbage":
        cache.write_bytes(seal.seal(CACHE_FILE, b"\x00\xff not json"))
    elif damage == "wrong shape":
        cache.write_bytes(seal.seal(CACHE_FILE, b'{"format": 1, "stamp": 3, "faces": [], "files": {"x": 1}}'))
    elif damage in ("bad trace", "old format"):
        if damage == "bad trace":
            next(iter(data["faces"].values()))[3].append([[], "s", "-"])  # a fact with no path
        else:
            data["format"] -= 1
        cache.write_bytes(seal.seal(CACHE_FILE, json.dumps(data).encode()))
    elif damage == "unsealed":
        cache.write_text(json.dumps(data))
    elif damage == "edited":
        cache.write_text(text.replace("Alpha", "Omega"))
    elif damage == "sealed by another user":
        mine = os.environ["XDG_CONFIG_HOME"]
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "another"))
        cache.write_bytes(seal.seal(CACHE_FILE, json.dumps(data).encode()))
        monkeypatch.setenv("XDG_CONFIG_HOME", mine)
    else:
        cache.write_text(text[: len(text) // 2])
    report = rebuild(deck)
    assert report.rendered == 6 and report.written == 0
    assert cache.read_text() == text  # restored, identical
    assert rebuild(deck).rendered == 0


@pytest.mark.parametrize("swap", ["a pipe", "a link", "too large"])
def test_a_cache_file_that_is_no_plain_file_or_too_large_means_a_full_rebuild(deck: Project, swap, monkeypatch, tmp_path):
    """Nothing in output/ is trusted: a pipe in the cache file's place must not hang the
    build, a link must not be followed, and a huge file is not read."""
    import os

    from pnp import files

    rebuild(deck)
    cache = deck.output_dir / "deck" / CACHE_FILE
    if swap == "a pipe":
        cache.unlink()
        os.mkfifo(cache)
    elif swap == "a link":
        real = tmp_path / "elsewhere.json"
        real.write_bytes(cache.read_bytes())
        cache.unlink()
        cache.symlink_to(real)
    else:
        monkeypatch.setattr(files, "MAX_RECORD", cache.stat().st_size - 1)
    report = rebuild(deck)
    assert report.rendered == 6 and report.written == 0


def test_a_deleted_or_edited_output_file_is_made_again(deck: Project):
    rebuild(deck)
    svg = deck.output_dir / "deck/svg/card/alpha.svg"
    pdf = deck.output_dir / "deck/pdf/token.pdf"
    good_svg, good_pdf = svg.read_bytes(), pdf.read_bytes()
    svg.unlink()
    pdf.write_bytes(b"%PDF-1.4 tampered" + good_pdf[17:])  # same size, newer mtime
    report = rebuild(deck)
    assert report.rendered == 0
    assert set(report.changed) == {"svg/card/alpha.svg", "pdf/token.pdf"}
    assert svg.read_bytes() == good_svg and pdf.read_bytes() == good_pdf


def test_an_output_file_is_checked_by_size_and_mtime_and_force_rewrites_it(deck: Project):
    """What docs/iteration.md promises (Incremental builds): a file's size and modification time are
    checked, not its bytes; an edit keeping both is kept, and --force writes the file again."""
    import os

    rebuild(deck)
    svg = deck.output_dir / "deck/svg/card/alpha.svg"
    good, st = svg.read_bytes(), svg.stat()
    svg.write_bytes(good.replace(b"<svg", b"<SVG", 1))
    os.utime(svg, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert not rebuild(deck).changed and svg.read_bytes() != good
    report = rebuild(deck, force=True)
    assert list(report.changed) == ["svg/card/alpha.svg"] and svg.read_bytes() == good


def test_other_formats_keep_their_records(deck: Project):
    rebuild(deck, formats=("svg",))
    rebuild(deck, formats=("pdf",))
    report = rebuild(deck)
    assert (report.rendered, report.written) == (0, 0)


def test_validation_still_runs_on_a_cached_build(deck: Project):
    rebuild(deck)
    before = {p: p.read_bytes() for p in deck.output_dir.rglob("*") if p.is_file()}
    stamps_before = stamps(deck.output_dir)
    (deck.content_dir / "deck/cards.yaml").write_text("cards:\n  - id: alpha\n    title: [unclosed\n")
    with pytest.raises(PnpError) as info:
        rebuild(deck)
    assert all(":3:" in str(e) or ":4:" in str(e) for e in info.value.errors), info.value.errors
    assert {p: p.read_bytes() for p in deck.output_dir.rglob("*") if p.is_file()} == before
    assert stamps(deck.output_dir) == stamps_before


def test_a_template_error_is_reported_even_when_other_faces_are_cached(deck: Project):
    rebuild(deck)
    (deck.templates_dir / "deck/token.svg.j2").write_text(TOKEN.replace("style.colour", "style.no_such_key"))
    with pytest.raises(PnpError) as info:
        rebuild(deck)
    assert {(Path(e.path).name, e.line) for e in info.value.errors} == {("token.svg.j2", 1)}


def test_cli_reports_rendered_faces_and_force(deck: Project):
    from typer.testing import CliRunner

    from pnp.cli import app

    def pnp(*args: str):
        return CliRunner().invoke(app, ["build", "-p", str(deck.root), *args])

    assert "s, 6 faces rendered; print " in pnp().output
    again = pnp()
    assert "(0 written)" in again.output and "s, 0 faces rendered; print " in again.output
    assert "s, 6 faces rendered; print " in pnp("--force").output
    (deck.content_dir / "deck/cards.yaml").write_text("cards:\n  - id: alpha\n    copies: -\n  - [oops\n")
    bad = pnp()
    assert bad.exit_code == 2 and "content/deck/cards.yaml:" in bad.output and "Traceback" not in bad.output


def test_pnp_own_code_is_every_file_of_its_package(tmp_path: Path, monkeypatch):
    """No hand-kept list of modules: any file of pnp's package, new ones too, counts."""
    from pnp.build import witness as cache_mod

    package = tmp_path / "pnp"
    (package / "formats").mkdir(parents=True)
    (package / "formats/pdf.py").write_text("A = 1\n")
    (package / "__pycache__").mkdir()
    monkeypatch.setattr(cache_mod, "PACKAGE_DIR", package)

    def stamp() -> str:
        cache_mod.own_code.cache_clear()
        return cache_mod.own_code()

    first = stamp()
    (package / "__pycache__/pdf.cpython-311.pyc").write_bytes(b"compiled")  # not code pnp runs from its source
    assert stamp() == first
    (package / "formats/pdf.py").write_text("A = 2\n")
    second = stamp()
    assert second != first
    (package / "formats/new.py").write_text("")
    assert stamp() != second
    monkeypatch.undo()
    cache_mod.own_code.cache_clear()


FRUIT = Path(__file__).resolve().parent.parent / "examples/projects/fruit-stand"


@pytest.fixture
def fruit(tmp_path: Path, trusted) -> Project:
    """The fruit-stand example: 24 fruit cards generated, one order card per row of orders.csv."""
    import shutil

    shutil.copytree(FRUIT, tmp_path / "fruit", ignore=shutil.ignore_patterns("output", "__pycache__"))
    return trusted(Project(tmp_path / "fruit"))


def svg_build(project: Project) -> tuple:
    (report,) = build(project, None, BuildOptions(formats=("svg",)))
    return report


def test_editing_one_csv_row_rerenders_that_rows_face_alone(fruit: Project):
    assert svg_build(fruit).rendered == 34  # 24 fruit fronts, their shared back, 9 orders
    orders = fruit.content_dir / "fruit-stand/orders.csv"
    orders.write_text(orders.read_text().replace("pie,Apple Pie,", "pie,Apple Tart,"))
    report = svg_build(fruit)
    assert (report.rendered, report.changed) == (1, ("svg/orders/pie.svg",))
    assert "Apple Tart" in (fruit.output_dir / "fruit-stand/svg/orders/pie.svg").read_text()


def test_editing_one_xlsx_row_rerenders_that_rows_face_alone(fruit: Project):
    import csv

    from openpyxl import Workbook

    orders = fruit.content_dir / "fruit-stand/orders.csv"
    rows = list(csv.reader(orders.read_text().splitlines()))
    orders.unlink()

    def save(rows: list[list[str]]) -> None:
        book = Workbook()
        sheet = book.active
        assert sheet is not None
        for row in rows:
            sheet.append([int(cell) if cell.isdigit() else cell for cell in row])
        book.save(fruit.content_dir / "fruit-stand/orders.xlsx")

    save(rows)
    assert svg_build(fruit).rendered == 34
    save([[("Pear Cobbler" if cell == "Pear Crumble" else cell) for cell in row] for row in rows])
    report = svg_build(fruit)
    assert (report.rendered, report.changed) == (1, ("svg/orders/crumble.svg",))


@pytest.mark.parametrize("where", ["content", "content/deck", "templates/deck", "assets"])
def test_a_stray_file_renders_nothing(deck: Project, where: str):
    rebuild(deck)
    folder = deck.root / where
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "notes.txt").write_text("ideas for the expansion\n")
    report = rebuild(deck)
    assert (report.rendered, report.written) == (0, 0)


def _art(colour: str) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1" fill="{colour}"/></svg>'


def art_tokens(deck: Project) -> Path:
    """Each token draws its own picture, art/<id>.svg in the game's folder (returned)."""
    art = deck.content_dir / "deck/art"
    art.mkdir()
    (art / "t1.svg").write_text(_art("#f00"))
    (art / "t2.svg").write_text(_art("#0f0"))
    (deck.templates_dir / "deck/token.svg.j2").write_text(
        TOKEN.replace("{% endblock %}", '<image href="{{ asset(\'art/\' ~ item.id ~ \'.svg\') }}" width="9" height="9"/>{% endblock %}'))
    return art


def test_editing_an_art_file_rerenders_exactly_the_faces_that_use_it(deck: Project):
    art = art_tokens(deck)
    assert rebuild(deck).rendered == 6
    (art / "t2.svg").write_text(_art("#00f"))
    report = rebuild(deck)
    assert report.rendered == 1 and set(report.changed) == {"deck-print.pdf", "pdf/token.pdf", "svg/token/t2.svg"}
    # the same name found elsewhere first is another picture: the project's assets/ come
    # after the game's folder, so moving the file there and back counts too
    (deck.root / "assets/art").mkdir(parents=True)
    (art / "t1.svg").rename(deck.root / "assets/art/t1.svg")
    assert rebuild(deck).rendered == 1
    (deck.root / "assets/art/t1.svg").write_text(_art("#ff0"))
    assert rebuild(deck).rendered == 1
    assert rebuild(deck).rendered == 0


def big_picture(deck: Project) -> bytes:
    """Every card shows one picture, a PNG of noise (as big as its pixels) of 120 KB (returned)."""
    import io

    from PIL import Image

    noise = Image.frombytes("RGB", (200, 200), os.urandom(200 * 200 * 3))
    buffer = io.BytesIO()
    noise.save(buffer, "PNG")
    picture = buffer.getvalue()
    (deck.root / "assets/art").mkdir(parents=True)
    (deck.root / "assets/art/big.png").write_bytes(picture)
    (deck.templates_dir / "deck/card.svg.j2").write_text(
        CARD.replace("{% endblock %}", '<image href="{{ asset(\'art/big.png\') }}" x="5" y="40" width="40" height="40"/>{% endblock %}'))
    return picture


def test_a_one_card_edit_of_a_deck_showing_a_big_picture_renders_that_card_alone(deck: Project, monkeypatch):
    """Every face embeds its picture whole; the cache keeps it by name, once, not once per face
    (it made a cache past what pnp reads back: every face rendered again after one edit)."""
    from pnp import files

    picture = big_picture(deck)
    # what pnp reads back of a cache: room for the picture's bytes once, not for three faces' copies
    monkeypatch.setattr(files, "MAX_RECORD", 2 * len(picture))
    assert rebuild(deck).rendered == 6
    assert (deck.output_dir / "deck" / CACHE_FILE).stat().st_size < len(picture)  # the faces' text alone
    write_cards(deck, [("alpha", "Alpha", 2), ("beta", "Beta the Second", 1), ("gamma", "Gamma", 3)])
    report = rebuild(deck)
    assert report.rendered == 1 and report.changed == ("deck-print.pdf", "pdf/card.pdf", "svg/card/beta.svg")
    # the faces taken from the cache got their picture back: the same PDF as a full build
    out = deck.output_dir / "deck"
    made = {rel: (out / rel).read_bytes() for rel in ("deck-print.pdf", "pdf/card.pdf", "svg/card/alpha.svg")}
    assert rebuild(deck, force=True).rendered == 6
    assert made == {rel: (out / rel).read_bytes() for rel in made}
    assert base64.b64encode(picture).decode() in made["svg/card/alpha.svg"].decode()


def test_a_cached_face_is_checked_without_its_pictures_each_picture_once_a_build(deck: Project, monkeypatch):
    """A face from the cache is checked for what it refers to (it is input), but not parsed with
    MBs of picture each time: its text with a tiny picture in place, and the picture once a build.
    Before, each cached face of a deck of 300 was parsed whole, a minute of every edit."""
    from pnp.build import cache

    encoded = base64.b64encode(big_picture(deck)).decode()
    assert rebuild(deck).rendered == 6
    checked: list[str] = []

    def recording(svg: str, parsed=None):
        checked.append(svg)
        return found(svg, parsed)

    found = cache.external_reference
    monkeypatch.setattr(cache, "external_reference", recording)
    write_cards(deck, [("alpha", "Alpha", 2), ("beta", "Beta the Second", 1), ("gamma", "Gamma", 3)])
    assert rebuild(deck).rendered == 1
    assert len(checked) == 6 and sum(encoded in svg for svg in checked) == 1  # 5 faces, 1 picture


def test_editing_a_plugin_helper_rerenders(deck: Project, trusted):
    plugins = deck.root / "plugins"
    plugins.mkdir()
    helper = plugins / "deck.py"
    helper.write_text("from pnp.api import GamePlugin\n\ndef shout(text):\n    return text.upper()\n\n"
                      "PLUGIN = GamePlugin(template_globals={'shout': shout})\n")
    (deck.content_dir / "deck/game.yaml").write_text("plugin: plugins/deck.py\n" + GAME_YAML)
    (deck.templates_dir / "deck/card.svg.j2").write_text(CARD.replace("m.title(item.title, width)", "m.title(shout(item.title), width)"))
    trusted(deck)
    assert rebuild(deck).rendered == 6
    assert rebuild(deck).rendered == 0
    helper.write_text(helper.read_text().replace("text.upper()", "text.lower()"))
    trusted(deck)
    report = rebuild(deck)
    assert report.rendered == 6
    assert "alpha" in (deck.output_dir / "deck/svg/card/alpha.svg").read_text()


def test_two_builds_of_one_output_folder_take_turns(demo: Project, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
                                                    tmp_path: Path):
    """Two builds into one folder at once (`pnp build --out O & pnp build --out O --paper a4`)
    take turns (pnp/build/lock.py): the second waits, saying so, while the first is slow to
    record what it committed, so the first never records the second's files as its own and
    the next letter build makes the letter PDFs again instead of calling the A4 ones current."""
    import threading
    import time

    from pnp.build import cache as cache_mod

    out = tmp_path / "out"
    record = cache_mod.BuildCache.record
    second_done = threading.Event()
    calls: list[None] = []

    def slow_record(self, keys, written):  # the first build, its files renamed into place, slow to stat them
        calls.append(None)
        if len(calls) == 1:
            second_done.wait(1.5)  # without the lock the second build commits meanwhile
        return record(self, keys, written)

    monkeypatch.setattr(cache_mod.BuildCache, "record", slow_record)
    errors: list[BaseException] = []

    def run(paper: str) -> None:
        try:
            build(demo, None, BuildOptions(formats=("svg", "pdf"), paper=paper, out=out))
        except BaseException as exc:
            errors.append(exc)
        finally:
            if paper == "a4":
                second_done.set()

    first = threading.Thread(target=run, args=("letter",))
    first.start()
    while first.is_alive() and not (out / "demo/demo-print.pdf").exists():  # the first build is committing
        time.sleep(0.01)
    second = threading.Thread(target=run, args=("a4",))
    second.start()
    first.join()
    second.join()
    assert not errors
    assert f"waiting for another pnp build of {out}" in capfd.readouterr().err
    monkeypatch.setattr(cache_mod.BuildCache, "record", record)
    clean = {paper: tmp_path / f"clean-{paper}" for paper in ("letter", "a4")}
    for paper, folder in clean.items():
        build(demo, None, BuildOptions(formats=("svg", "pdf"), paper=paper, out=folder))
    assert (out / "demo/demo-print.pdf").read_bytes() == (clean["a4"] / "demo/demo-print.pdf").read_bytes()  # the second build's
    (again,) = build(demo, None, BuildOptions(formats=("svg", "pdf"), paper="letter", out=out))
    assert "demo-print.pdf" in again.changed
    assert (out / "demo/demo-print.pdf").read_bytes() == (clean["letter"] / "demo/demo-print.pdf").read_bytes()
    assert not (out / ".pnp-lock").exists()  # no lock is left behind


@pytest.mark.parametrize("kind", ["folder", "link"])
def test_a_lock_file_that_is_not_a_file_is_refused(demo: Project, tmp_path: Path, kind: str):
    """`<out>/.pnp-lock` is pnp's like its other records there: a folder or a link in its
    place is no lock (and no link is followed): one line, nothing built."""
    out = tmp_path / "out"
    out.mkdir()
    if kind == "folder":
        (out / ".pnp-lock").mkdir()
    else:
        (out / ".pnp-lock").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(PnpError) as caught:
        build(demo, None, BuildOptions(formats=("svg",), out=out))
    assert str(caught.value) == f"{out / '.pnp-lock'}: a {kind}, not pnp's lock file: remove it, or pass --out DIR to build elsewhere"
    assert not (out / "demo").exists() and not (tmp_path / "elsewhere").exists()


def test_a_quiet_build_waits_for_the_lock_without_a_line(tmp_path: Path, monkeypatch, capfd):
    """`pnp build --quiet` prints nothing, the lock's "waiting for another pnp build" line too."""
    import threading
    import time

    from pnp.build import lock

    monkeypatch.setattr(lock, "PATIENCE", 0.0)
    held, waited = threading.Event(), []

    def other() -> None:
        with lock.output_lock(tmp_path / "out"):
            held.set()
            time.sleep(0.3)

    first = threading.Thread(target=other)
    first.start()
    held.wait()
    with lock.output_lock(tmp_path / "out", quiet=True):
        waited.append(True)
    first.join()
    assert waited and "waiting for another pnp build" not in capfd.readouterr().err
