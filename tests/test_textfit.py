"""Text measured with the real font, fitted down to a floor, and every overflow or
undrawable character reported at the content line it came from (exit 2, nothing written)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project
from pnp.load.fonts import DEFAULT, Face, Fonts
from pnp.render.textfit import DEFAULT_FLOOR, TextFit
from pnp.units import MM_TO_PT

runner = CliRunner()


def _wrapped_by_whole_lines(text: str, width: float, size: float, weight: str) -> list[str]:
    """`wrap` as its definition reads: each candidate line measured whole."""
    lines = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if line and DEFAULT.text_width(candidate, size, weight) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


# kerned pairs of the shipped font (AV, To, y., ...) across the space that joins two words
_WORDS = st.text(alphabet="AVTWYoy.,'LPaev-\"", min_size=1, max_size=8)


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=14), st.floats(4, 40), st.sampled_from([2.0, 3.5, 4.2]),
       st.sampled_from(["normal", "bold", "italic"]))
def test_a_line_grown_word_by_word_breaks_where_the_whole_line_measured_breaks(words, width, size, weight):
    text = " ".join(words[:7]) + "\n" + " ".join(words[7:])
    got = TextFit().wrap(text, width, size, weight, long_words="ok")
    assert got == _wrapped_by_whole_lines(text, width, size, weight)


def test_widths_come_from_the_shipped_font_with_its_kerning():
    face = DEFAULT.face("normal")
    assert face.family == "Liberation Sans"
    # Liberation Sans (Arial's widths): "H" is 1479/2048 em, "i" 455/2048 em; "AV" kerns closer
    assert DEFAULT.text_width("Hi", 2048) == pytest.approx(1479 + 455)
    assert DEFAULT.text_width("AV", 10) < 2 * DEFAULT.text_width("A", 10)
    assert DEFAULT.text_width("Bold", 10, "bold") > DEFAULT.text_width("Bold", 10)


def test_fit_size_shrinks_to_the_floor_and_then_reports_by_how_much():
    fit = TextFit()
    assert fit.fit_size("Short", 50, 4) == 4
    shrunk = fit.fit_size("A somewhat longer name", 30, 4)
    assert DEFAULT_FLOOR < shrunk < 4 and fit.text_width("A somewhat longer name", shrunk) <= 30
    assert fit.take() == []
    assert fit.fit_size("An adventurer with a far too long name", 20, 4) == pytest.approx(DEFAULT_FLOOR)
    (problem,) = fit.take()
    over = fit.text_width("An adventurer with a far too long name", DEFAULT_FLOOR) - 20
    assert f"{over:.1f} mm too wide" in problem.message and "6.0 pt" in problem.message


def test_a_start_size_under_the_floor_is_an_error_even_when_the_text_fits():
    """The floor is how small text prints: a template asking for 4.8 pt got it silently."""
    fit = TextFit()
    asked = 1.7  # mm, 4.8 pt
    assert fit.fit_size("ADA", 50, asked) == asked
    (problem,) = fit.take()
    # sizes are given in mm, the unit the template writes (6 pt is 2.1167 mm: 2.12 is not under it)
    assert problem.message == ("'ADA' asks for 1.7 mm (4.8 pt), under the game's 6.0 pt floor (min_font_size): "
                               "start it at 2.12 mm (6.0 pt) or more")
    fit.fit_lines("a few words", 50, 50, asked)
    fit.wrap("a few words", 50, asked)
    assert [p.message for p in fit.take()] == ["'a few words' asks for 1.7 mm (4.8 pt), under the game's 6.0 pt floor "
                                               "(min_font_size): start it at 2.12 mm (6.0 pt) or more"]
    # a template's `minimum=` may raise the floor, never lower it
    fit.fit_size("ADA", 50, asked, minimum=1.0)
    assert "6.0 pt floor (min_font_size)" in fit.take()[0].message
    fit.fit_size("ADA", 50, 2.5, minimum=3)
    assert "under its 8.5 pt floor (minimum=): start it at 3 mm (8.5 pt)" in fit.take()[0].message
    assert fit.fit_size("ADA", 50, DEFAULT_FLOOR) == DEFAULT_FLOOR and fit.wrap("ADA", 50, DEFAULT_FLOOR) == ["ADA"]
    assert fit.take() == []
    assert TextFit(floor=1.0).fit_size("ADA", 50, asked) == asked  # a game with a lower min_font_size


def test_a_template_starting_text_under_the_floor_is_an_error_at_its_line(demo: Project):
    card = demo.templates_dir / "demo/card.svg.j2"
    head, _, tail = card.read_text().rpartition("{% endblock %}")
    card.write_text(head + '<text x="1" y="1" font-size="{{ fit_size(\'tiny\', 50, 1.5) }}">tiny</text>\n{% endblock %}' + tail)
    line = head.count("\n") + 1
    result = runner.invoke(app, ["validate", "-p", str(demo.root)])
    assert result.exit_code == 2, result.output
    assert result.output == (f"{card}:{line}: card/example: 'tiny' asks for 1.5 mm (4.3 pt), under the game's 6.0 pt "
                             "floor (min_font_size): start it at 2.12 mm (6.0 pt) or more\n"), result.output


def test_fit_lines_shrinks_until_the_lines_fit_the_box():
    fit = TextFit()
    text = "word " * 40
    got = fit.fit_lines(text, 40, 20, 4)
    assert len(got["lines"]) * got["step"] <= 20 and got["size"] < 4 and fit.take() == []
    fit.fit_lines(text * 5, 40, 20, 4)
    (problem,) = fit.take()
    assert "too tall" in problem.message


def test_wrap_reports_more_lines_than_allowed():
    fit = TextFit()
    assert fit.wrap("one two\nthree", 100, 4) == ["one two", "three"]
    assert fit.wrap("one two three four", 10, 4, max_lines=4) == ["one", "two", "three", "four"] and fit.take() == []
    fit.wrap("one two three four", 10, 4, max_lines=2)
    (problem,) = fit.take()
    assert "needs 4 lines" in problem.message and "2 more than the 2" in problem.message


def _one_em_font() -> Fonts:
    """A font whose every character is 1 em wide and the hyphen half an em: at size 1 a line
    of n characters is n mm (no system CJK font needed). Its tests pass `floor=0.1`: 1 mm is under 6 pt."""
    fonts = Fonts((), "Test")
    advances = {code: 1000 for code in range(0x20, 0x30000)} | {ord("-"): 500}
    fonts.__dict__["faces"] = [Face(Path("test.ttf"), "Test", False, False, 1000, advances, {})]
    return fonts


def test_japanese_wraps_between_characters_but_never_before_closing_marks():
    fit = TextFit(_one_em_font(), floor=0.1)
    text = "このカードを使うと、あなたは山札からカードを二枚引く。"
    lines = fit.wrap(text, 6.5, 1)
    assert fit.take() == [] and "".join(lines) == text and len(lines) > 1
    assert all(len(line) <= 6 for line in lines), lines
    assert not any(line[0] in "、。ー" for line in lines), lines
    # a line that would end just before 。 gives its last character to the next line, as does one ending after 「
    assert fit.wrap("二枚引く。", 4, 1) == ["二枚引", "く。"]
    assert fit.wrap("あいう「えお」", 4, 1) == ["あいう", "「えお」"]
    assert fit.wrap("日本語", 100, 1) == ["日本語"]  # nothing inserted where the line does not break


def test_a_soft_hyphen_breaks_with_a_visible_hyphen_and_is_nothing_where_it_does_not():
    fit = TextFit()
    text = "Der Donau\u00addampf\u00adschiffahrts\u00adgesellschafts\u00adkapit\u00e4n darf zweimal ziehen."
    lines = fit.wrap(text, 30, 3.6)
    assert fit.take() == []  # the compound is no longer one word too wide for the line
    assert lines[0] == "Der Donaudampf-" and any(line.endswith("s-") for line in lines), lines
    assert all(fit.text_width(line, 3.6) <= 30 for line in lines) and not any("\u00ad" in line for line in lines)
    assert "".join(line.removesuffix("-") + " " * (not line.endswith("-")) for line in lines).split() == \
        text.replace("\u00ad", "").split()
    assert fit.wrap(text, 1000, 3.6) == [text.replace("\u00ad", "")]  # unbroken: no hyphen, and measured as nothing
    # the hyphen a break shows is room the line needs
    one_em = TextFit(_one_em_font(), floor=0.1)
    assert one_em.wrap("aa b\u00adcc", 4.2, 1) == ["aa", "bcc"]  # "aa b-" would be 4.5 mm
    assert one_em.wrap("aa b\u00adcc", 4.5, 1) == ["aa b-", "cc"] and one_em.take() == []
    one_em.wrap("ab\u00adcd", 2.4, 1)
    (problem,) = one_em.take()  # the narrowest line "ab" can end is "ab-"
    assert "the word 'ab-'" in problem.message


def test_a_zero_width_space_is_a_break_of_no_width():
    fit = TextFit(_one_em_font(), floor=0.1)
    assert fit.wrap("abc\u200bdef", 10, 1) == ["abcdef"]
    assert fit.wrap("abc\u200bdef", 4, 1) == ["abc", "def"] and fit.take() == []
    assert fit.wrap("x \u200b y", 10, 1) == ["x y"]


def test_no_break_spaces_keep_their_neighbours_on_one_line_and_stay_in_the_text():
    fit = TextFit(_one_em_font(), floor=0.1)
    assert fit.wrap("aaaa i w", 6.5, 1) == ["aaaa i", "w"]
    assert fit.wrap("aaaa i\u00a0w", 6.5, 1) == ["aaaa", "i\u00a0w"]
    assert fit.wrap("une\u202f; oui", 5.5, 1) == ["une\u202f;", "oui"]
    got = fit.fit_lines("aa i\u00a0w", 7.5, 30, 3)  # "i w" is one word: shrunk to fit it
    assert got["lines"] == ["aa", "i\u00a0w"] and got["size"] < 3 and fit.take() == []


def test_a_no_break_space_reaches_the_svg(demo: Project):
    cards = demo.content_dir / "demo" / "cards.yaml"
    _edit(cards, "text: Every key here reaches the template as item.<key>. Add cards, rebuild, print.",
          'text: "Gracz zdobywa punkty za karty le\u017c\u0105ce obok siebie i\\u00a0w jednym rz\u0119dzie."')
    result = runner.invoke(app, ["build", "-f", "svg", "-p", str(demo.root)])
    assert result.exit_code == 0, result.output
    svg = (demo.output_dir / "demo" / "svg" / "card" / "example.svg").read_text(encoding="utf-8")
    assert ">i\u00a0w jednym" in svg or "siebie i\u00a0w" in svg, svg
    assert " i</text>" not in svg


def _edit(path: Path, old: str, new: str) -> int:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    last = new.strip().splitlines()[-1].strip()
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if last in line)


@pytest.fixture
def th(copy_game) -> Project:
    return copy_game("tasty-humans")


def test_names_too_long_fail_the_build_at_their_content_lines(th: Project):
    adventurers = th.content_dir / "tasty-humans" / "adventurers.yaml"
    long_name = "Bartholomew Maximilian Featherstonehaugh of Cholmondeley Castle"
    first = _edit(adventurers, 'name: "Brunhild the Unbending"', f'name: "{long_name}"')
    second = _edit(adventurers, 'id: adv-02\n    name: "', 'id: adv-02\n    name: "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaft ')
    result = runner.invoke(app, ["build", "tasty-humans", "-p", str(th.root)])
    assert result.exit_code == 2, result.output
    assert not (th.output_dir / "tasty-humans").exists()
    lines = [line for line in result.output.splitlines() if "does not fit" in line]
    assert any(re.search(rf"adventurers\.yaml:{first}:\d+: adventurer/adv-01: .*too wide", line) for line in lines), result.output
    assert any(f"adventurers.yaml:{second}:" in line and "adventurer/adv-02" in line for line in lines), result.output
    assert all("templates/tasty-humans/adventurer.svg.j2" in line for line in lines)
    checked = runner.invoke(app, ["validate", "-p", str(th.root)])
    assert checked.exit_code == 2 and len([x for x in checked.output.splitlines() if "does not fit" in x]) == len(lines) >= 2


def test_a_game_sets_its_own_floor(th: Project):
    adventurers = th.content_dir / "tasty-humans" / "adventurers.yaml"
    _edit(adventurers, 'name: "Brunhild the Unbending"', 'name: "Brunhild the Unbending of the Very Long Name"')
    assert runner.invoke(app, ["validate", "-p", str(th.root)]).exit_code == 2
    _edit(th.content_dir / "tasty-humans" / "game.yaml", "components:", "min_font_size: 3pt\ncomponents:")
    result = runner.invoke(app, ["validate", "-p", str(th.root)])
    assert result.exit_code == 0, result.output


def test_event_text_that_would_run_over_the_badge_is_an_error(copy_game):
    cave = copy_game("cave")
    events = cave.content_dir / "cave" / "events.csv"  # the cards are spreadsheet rows
    line = _edit(events, "Cook as many foods at once as you like.\"",
                 "Cook as many foods at once as you like. " + "Then tell the whole table a long story about it. " * 6 + '"')
    result = runner.invoke(app, ["validate", "-p", str(cave.root)])
    assert result.exit_code == 2
    assert re.search(rf"events\.csv:{line}:\d+: events/torch: .*does not fit.*too tall", result.output), result.output


def test_a_character_a_template_writes_itself_is_an_error_at_the_template_line(demo: Project):
    """Text no content file holds (a template's own): at the template line that writes it
    (it was the template without a line)."""
    card = demo.templates_dir / "demo/card.svg.j2"
    head, _, tail = card.read_text().rpartition("{% endblock %}")
    card.write_text(head + '<text x="1" y="1">\u2603 snow</text>\n{% endblock %}' + tail)
    line = head.count("\n") + 1
    result = runner.invoke(app, ["build", "-f", "svg", "-p", str(demo.root)])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    assert result.output.startswith(f"{card}:{line}: card/example: Liberation Sans cannot draw '\u2603' (U+2603)"), result.output
    assert not demo.output_dir.exists()


def test_a_character_the_fonts_cannot_draw_is_an_error_at_its_line(th: Project):
    adventurers = th.content_dir / "tasty-humans" / "adventurers.yaml"
    line = _edit(adventurers, 'name: "Brunhild the Unbending"', 'name: "Brunhild ✓ 日本"')
    result = runner.invoke(app, ["build", "tasty-humans", "-p", str(th.root)])
    assert result.exit_code == 2
    assert re.search(rf"adventurers\.yaml:{line}:\d+: adventurer/adv-01: measuring 'Brunhild ✓ 日本' in Liberation Sans bold, which lacks "
                     r"'✓' \(U\+2713\), '日' \(U\+65E5\), '本' \(U\+672C\): add a font that has them \(game.yaml `fonts:`\) "
                     r"\(placed by templates/tasty-humans/adventurer.svg.j2:\d+\)", result.output), result.output
    assert not (th.output_dir / "tasty-humans").exists()
    # letters with accents are in the font
    _edit(adventurers, 'name: "Brunhild ✓ 日本"', 'name: "Ærøskøbing Žofie"')
    assert runner.invoke(app, ["validate", "tasty-humans", "-p", str(th.root)]).exit_code == 0


def test_a_game_names_its_own_font_files(th: Project):
    fonts = th.root / "assets" / "fonts"
    fonts.mkdir(parents=True)
    source = DEFAULT.face("bold").path
    (fonts / "Display.ttf").write_bytes(source.read_bytes())
    game_yaml = th.content_dir / "tasty-humans" / "game.yaml"
    _edit(game_yaml, "components:", "fonts: [fonts/Display.ttf]\ncomponents:")
    from pnp.load.content import load_game

    game = load_game(th, "tasty-humans")
    assert game.fonts.files == (fonts / "Display.ttf",)
    assert game.fonts.text_width("Hello", 10) == DEFAULT.text_width("Hello", 10, "bold")
    _edit(game_yaml, "fonts: [fonts/Display.ttf]", "fonts: [fonts/Missing.ttf]")
    result = runner.invoke(app, ["validate", "tasty-humans", "-p", str(th.root)])
    assert result.exit_code == 2 and "game.yaml" in result.output and "font file not found: fonts/Missing.ttf" in result.output


def test_a_font_file_not_found_names_the_file_meant(demo: Project):
    """Before: `fonts: [fonts/display.ttf]` for assets/fonts/Display.ttf said only "font file not
    found" on Linux, where an `asset()` picture spelt so names the file meant."""
    fonts = demo.root / "assets" / "fonts"
    fonts.mkdir(parents=True)
    (fonts / "Display.ttf").write_bytes(DEFAULT.face("bold").path.read_bytes())
    game_yaml = demo.content_dir / "demo" / "game.yaml"
    for written in ("fonts/display.ttf", "fonts/Displya.ttf"):
        game_yaml.write_text(game_yaml.read_text().replace("components:", f"fonts: [{written}]\ncomponents:", 1))
        result = runner.invoke(app, ["validate", "-p", str(demo.root)])
        assert result.exit_code == 2
        assert result.output.strip().endswith(f"font file not found: {written} (looked in content/demo/ and assets/) "
                                              "(did you mean 'fonts/Display.ttf'?)"), result.output
        game_yaml.write_text(game_yaml.read_text().replace(f"fonts: [{written}]\n", ""))
    (fonts / "Display.ttf").unlink()  # nothing near: no guess
    game_yaml.write_text(game_yaml.read_text().replace("components:", "fonts: [fonts/display.ttf]\ncomponents:", 1))
    assert runner.invoke(app, ["validate", "-p", str(demo.root)]).output.strip().endswith("(looked in content/demo/ and assets/)")


def test_a_wrap_without_its_room_is_unchecked_and_the_guide_says_so():
    """Before: docs/printing.md said every paragraph is checked against its room, so no text can
    run off the card; a `wrap` given neither `height` nor `max_lines` checks nothing, and a new
    designer's long event text ran off the card without a word."""
    from conftest import docs_text

    fit = TextFit()
    lines = fit.wrap("word " * 200, 30, 3)  # far more lines than any card holds: no overflow recorded
    assert len(lines) > 20 and fit.take() == []
    fit.wrap("word " * 200, 30, 3, height=40)
    assert [o.message for o in fit.take()][0].startswith("'word word")
    guide = " ".join(docs_text("docs/printing.md").split())
    assert "a `wrap` given neither `height` nor `max_lines` only breaks the lines" in guide
    assert "Every paragraph is checked against the room it is drawn into" not in guide


def test_floor_is_six_points():
    assert DEFAULT_FLOOR * MM_TO_PT == pytest.approx(6)


@pytest.mark.parametrize("family", ["liberation sans", "Liberation Snas"])
def test_a_font_family_spelt_otherwise_names_the_family_meant(demo: Project, family: str):
    """Before: `font-family="liberation sans"` (or a helper's `family=`) named none meant, though
    the game's family differs in case alone."""
    card = demo.templates_dir / "demo" / "card.svg.j2"
    text = card.read_text()
    card.write_text(text.replace('font-weight="bold"', f'font-weight="bold" font-family="{family}"', 1))
    result = runner.invoke(app, ["validate", "-p", str(demo.root)])
    assert result.exit_code == 2 and result.output.strip().endswith(
        "add its files to game.yaml `fonts:` or use one of those (did you mean 'Liberation Sans'?)"), result.output
    card.write_text(text.replace('"bold")', f'"bold", family="{family}")', 1))
    result = runner.invoke(app, ["validate", "-p", str(demo.root)])
    assert result.exit_code == 2 and (f"family '{family}' is none of the game's fonts: expected one of Liberation Sans "
                                      "(did you mean 'Liberation Sans'?)") in result.output, result.output


def test_a_font_family_that_is_not_the_games_is_an_error(demo: Project):
    """The PDF engine and the rasteriser would each stand in a different font for it."""
    card = demo.templates_dir / "demo" / "card.svg.j2"
    card.write_text(card.read_text().replace('font-weight="bold"', 'font-weight="bold" font-family="Georgia, serif"', 1))
    result = runner.invoke(app, ["validate", "-p", str(demo.root)])
    assert result.exit_code == 2
    line = next(n for n, text in enumerate(card.read_text().splitlines(), start=1) if "Georgia" in text)
    assert f"card.svg.j2:{line}: card/example: font-family 'Georgia, serif' names none of the game's fonts (Liberation Sans)" in result.output
    card.write_text(card.read_text().replace("Georgia, serif", "Georgia, Liberation Sans"))
    assert runner.invoke(app, ["validate", "-p", str(demo.root)]).exit_code == 0


def test_the_shipped_metrics_are_those_of_the_shipped_font_files():
    """pnp/data/fonts/metrics.json spares ordinary builds fontTools; `python -m pnp.load.fonts` remakes it."""
    from pnp.load.fonts import _as_json, read_face

    assert len(DEFAULT.faces) == 4
    for face in DEFAULT.faces:
        assert _as_json(face) == _as_json(read_face(face.path)), face.path.name


def test_remaking_the_shipped_metrics_gives_the_shipped_file(tmp_path, monkeypatch):
    """What `python -m pnp.load.fonts` writes is byte-identical to metrics.json while the fonts are unchanged."""
    from pnp.load import fonts

    monkeypatch.setattr(fonts, "SHIPPED_METRICS", tmp_path / "metrics.json")
    fonts.write_shipped_metrics()
    assert (tmp_path / "metrics.json").read_bytes() == (fonts.DEFAULT_DIR / "metrics.json").read_bytes()


def test_a_soft_hyphen_the_line_does_not_break_at_measures_nothing():
    """typst and resvg hide U+00AD, though Liberation Sans has a glyph for it: a title with
    soft hyphens that `fit_size` fits on one line is as wide as without them."""
    fit = TextFit()
    assert fit.text_width("Donau\u00addampf\u00adschiff", 4, "bold") == fit.text_width("Donaudampfschiff", 4, "bold")


def test_the_new_games_back_fits_a_long_title_on_lines_never_off_the_card(demo: Project):
    """`pnp new`'s card back drew the game's title at 8 mm bold, unfitted: a long (German,
    soft-hyphenated) title ran off both edges with exit 0. It is wrapped and shrunk now."""
    game = demo.content_dir / "demo/game.yaml"
    title = "Donau\u00addampf\u00adschiff\u00adfahrts\u00adgesellschafts\u00adkapit\u00e4n"
    game.write_text(re.sub(r"(?m)^title: .*$", f'title: "{title}"', game.read_text(), count=1))
    result = CliRunner().invoke(app, ["build", "--project", str(demo.root), "--format", "svg"])
    assert result.exit_code == 0, result.output
    back = (demo.output_dir / "demo/svg/card/back.svg").read_text()
    lines = re.findall(r'font-weight="bold" fill="#e9c46a" text-anchor="middle">([^<]*)<', back)
    assert len(lines) > 1 and lines[0].endswith("-") and "".join(lines).replace("-", "") == title.replace("\u00ad", "")
