"""Text on printed sheets is laid out by measure: the duplex calibration sheet's text, the
cover page and every sheet's label keep clear of each other, of the lines and the art, and
inside the paper; crop marks stop short of the label band."""

from __future__ import annotations

import pytest

from pnp.formats import labels
from pnp.formats.calibration import calibration_pages
from pnp.formats.impose import Label, Paper
from pnp.formats.print_pdf import plan
from pnp.config import papers, sheet_layout

GAMES = ("tasty-humans", "cave", "dietrick-taking", "human-harvest")


def _overlap(a, b, room: float = 0.0) -> bool:
    return a[0] < b[2] + room and b[0] < a[2] + room and a[1] < b[3] + room and b[1] < a[3] + room


def _texts(page) -> list[tuple[Label, tuple[float, float, float, float]]]:
    return [(m, labels.DEFAULT.box(m)) for m in page.marks if isinstance(m, Label)]


def _line_box(line) -> tuple[float, float, float, float]:
    return min(line.x1, line.x2), min(line.y1, line.y2), max(line.x1, line.x2), max(line.y1, line.y2)


def _apart(texts) -> None:
    for i, (a, ra) in enumerate(texts):
        for b, rb in texts[i + 1:]:
            assert not _overlap(ra, rb), (a.text, b.text)


@pytest.mark.parametrize("name", list(papers({})))
def test_the_calibration_sheet_text_keeps_clear_of_itself_the_scales_and_the_margins(name):
    sheet = Paper(name, *papers({})[name])
    front, back = calibration_pages(sheet, (0.5, -1))
    texts = _texts(front)
    assert sum(len(t.text) > 40 for t, _ in texts) >= 2  # the instructions, wrapped
    _apart(texts)
    m = 12.0
    for text, (left, top, right, bottom) in texts:
        assert m <= left and right <= sheet.width - m and m <= top and bottom <= sheet.height - m, text.text
        for line in front.lines:
            assert not _overlap((left, top, right, bottom), _line_box(line)), (text.text, line)
    for text, (left, top, right, bottom) in _texts(back):
        assert m <= left and right <= sheet.width - m and bottom <= sheet.height - 1


def test_a_long_text_wraps_to_its_room_and_a_label_shrinks_to_one_line():
    lines = labels.DEFAULT.block("word " * 60, 10, 20, 50, 8)
    assert len(lines) > 3 and all(labels.DEFAULT.width(line.text, 8) <= 50 for line in lines)
    assert [round(b.y - a.y, 6) for a, b in zip(lines, lines[1:])] == [round(labels.step(8), 6)] * (len(lines) - 1)
    one = labels.DEFAULT.line("x" * 200, 5, 100, 60, 6, 4)
    assert one.size == 4 and labels.DEFAULT.width(one.text, one.size) <= 60 and one.text.endswith("…")


def test_a_label_too_long_even_at_its_smallest_size_ends_at_a_whole_word():
    """Print review: a label shortened with an ellipsis was cut mid-word ("Packed do…")."""
    text = "The Cave · Packed double-sided sheets · sheet 1 of 3 · front (print double-sided, flip on long edge)"
    room = labels.DEFAULT.width(text, 6) * 0.6
    one = labels.DEFAULT.line(text, 5, 100, room, 6, 6)
    assert one.size == 6 and one.text.endswith("…") and labels.DEFAULT.width(one.text, 6) <= room
    kept = one.text[:-1]
    assert text.startswith(kept) and text[len(kept)] == " " and not kept.endswith((" ", "·")), one.text
    tied = labels.DEFAULT.line("sheet\u00a0one two three four", 5, 100, labels.DEFAULT.width("sheet one two…", 6) + 0.1, 6, 6)
    assert tied.text == "sheet\u00a0one two…"  # a no-break space is kept, as the label's wrapping keeps it


def test_a_first_word_too_long_for_its_room_ends_with_an_ellipsis():
    """No whole word fits: the longest start of the first word that fits with "…", no hyphen
    or comma left before it; a one-letter label too wide is the ellipsis alone, not the letter
    unmarked (a text of one character was returned as it was)."""
    measure = labels.DEFAULT
    word = "Supercalifragilisticexpialidocious"
    long = measure.line(word + " sheets", 5, 100, 20, 6, 6)
    kept = long.text[:-1]
    assert long.text.endswith("…") and word.startswith(kept) and measure.width(long.text, 6) <= 20
    assert measure.width(word[:len(kept) + 1] + "…", 6) > 20  # the longest start that fits
    hyphened = measure.line("Double-sided sheets", 5, 100, measure.width("Double-s…", 6) - 0.01, 6, 6)
    assert hyphened.text == "Double…"
    assert measure.line("W", 5, 100, 0.5, 6, 6).text == "…"


def test_a_label_breaks_cjk_text_and_keeps_no_break_spaces_together(tmp_path):
    """Labels break lines as the faces do (`pieces`): a Japanese component name, which has no
    spaces, wraps between its characters; a no-break space joins its words, a soft hyphen
    breaks with a hyphen (str.split() did neither, and broke at the no-break space)."""
    from test_font_styles import kanji_font
    from pnp.load.fonts import Fonts

    kanji_font(tmp_path / "kanji.ttf", "日本語カード AB\u00a0-")  # every glyph 1000 units: 1 em
    measure = labels.Measure(Fonts((tmp_path / "kanji.ttf",)))
    em = 10 * labels.PT  # at 10 pt
    assert [line.text for line in measure.block("日本語カード", 0, 0, 3.5 * em, 10)] == ["日本語", "カード"]
    assert measure.wrap("AB AB\u00a0AB", 5.5 * em, 10) == ["AB", "AB\u00a0AB"]
    assert measure.wrap("AB\u00adAB\u00adAB", 5.5 * em, 10) == ["ABAB-", "AB"]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_labels_keep_clear_of_crop_marks_art_and_each_other(shipped_builds, game, paper):
    report = shipped_builds[game]
    sheet = Paper(paper, *papers({})[paper])
    for layout in ("standard", "tight", "fold", "scissors"):
        for cut in (False, True):
            made = plan(report.title, report.parts, sheet, sheet_layout(layout), registration=cut)
            for number, page in enumerate(made.layout.pages, 1):
                texts = _texts(page)
                _apart(texts)
                art = [p.clip or (p.x, p.y, p.w, p.h) for p in page.places]
                for text, box in texts:
                    assert 1 <= box[0] and box[2] <= sheet.width - 1 and 0.5 <= box[1] and box[3] <= sheet.height - 0.5, (layout, number, text.text)
                    for x, y, w, h in art:
                        assert not _overlap(box, (x, y, x + w, y + h)), (layout, number, text.text)
                    if number == 1 or any(s.name == "Duplex calibration" and p is page for s in made.sections for p in s.pages):
                        continue
                    for line in page.lines:  # crop marks, fold lines, registration marks
                        assert not _overlap(box, _line_box(line)), (layout, number, text.text, line)


def test_a_title_or_component_name_the_labels_font_lacks_is_an_error_at_its_line(demo):
    """The print PDF's cover, checklist and sheet labels are drawn in the game's default family
    (regular): a character it lacks printed as a box with exit 0 (the i18n review's finding 3)."""
    from typer.testing import CliRunner

    from pnp.cli import app

    game = demo.content_dir / "demo/game.yaml"
    text = game.read_text()
    game.write_text(text.replace("title: Demo", "title: Demo \u65e5\u672c", 1).replace("name: Cards", "name: \u30ab\u30fc\u30c9", 1))
    lines = game.read_text().splitlines()
    title, name = (next(n for n, line in enumerate(lines, 1) if key in line) for key in ("title:", "name: \u30ab"))
    result = CliRunner().invoke(app, ["validate", "--project", str(demo.root)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    found = result.output.strip().splitlines()
    assert len(found) == 2, found
    assert f"game.yaml:{title}:" in found[0] and found[0].endswith(
        "title 'Demo \u65e5\u672c': the print PDF's labels draw it in Liberation Sans, which lacks '\u65e5' (U+65E5), '\u672c' (U+672C): "
        "use other characters, or make a font that has them the first of game.yaml `fonts:`"), found
    assert f"game.yaml:{name}:" in found[1] and "component name '\u30ab\u30fc\u30c9'" in found[1], found


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_sheet_label_keeps_a_gap_from_the_crop_marks_beside_it(shipped_builds, game, paper):
    """Print review: Dietrick-taking's scoring sheets in the standard layout on Letter had the
    label start 0.5 mm after the left trim line's crop mark, which read as a letter of it
    ("|Dietrick-taking · Scoring sheets"): it keeps TEXT_ROOM mm from every line beside it."""
    from pnp.formats.impose import TEXT_ROOM

    report = shipped_builds[game]
    sheet = Paper(paper, *papers({})[paper])
    for layout in ("standard", "tight", "fold", "scissors"):
        for cut in (False, True):
            made = plan(report.title, report.parts, sheet, sheet_layout(layout), registration=cut)
            for number, page in enumerate(made.layout.pages[1:], 2):
                for text, (left, top, right, bottom) in _texts(page):
                    if not text.text.startswith(f"{report.title} · ") or text.turn:
                        continue
                    for line in page.lines:
                        x1, y1, x2, y2 = _line_box(line)
                        if y1 < bottom and top < y2:  # beside the text: as far from it as TEXT_ROOM
                            assert x2 <= left - TEXT_ROOM + 1e-6 or x1 >= right + TEXT_ROOM - 1e-6, (layout, cut, number, text.text, line)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_sheet_label_names_every_component_on_the_sheet(shipped_builds, game, paper):
    """Before: Tasty Humans' last Adventurer cards sheet (letter) held the Village King, the
    shared-King markers and damage tiles, and Dietrick-taking's Scoring markers sheet (with a
    cut file) the solo card, each labelled with its own component alone. A packed section's
    sheets are named for no component, and stay so."""
    report = shipped_builds[game]
    sheet = Paper(paper, *papers({})[paper])
    names = {c.spec.id: c.spec.name for c in report.parts}
    shared = 0
    for cut in (False, True):
        made = plan(report.title, report.parts, sheet, sheet_layout("tight"), registration=cut)
        for s in made.sections:
            if s.name not in names.values():
                continue
            for page in s.pages:
                (label,) = [m for m in page.marks if isinstance(m, Label) and " · sheet " in m.text]
                others = [n for n in dict.fromkeys(names[p.face.component] for p in page.places) if n != s.name]
                shared += bool(others)
                if others:
                    assert f" · sheet {s.pages.index(page) // (2 if s.duplex else 1) + 1} of {s.sheets} · also {', '.join(others)} · " in label.text, label.text
                else:
                    assert " · also " not in label.text, label.text
    if (game, paper) in (("tasty-humans", "letter"), ("dietrick-taking", "letter")):
        assert shared  # the sheets the users met
