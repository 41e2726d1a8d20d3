"""`pnp diff`: faces that changed, were added or removed since a git revision or against a
saved output tree, and the page that shows them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from pnp.build.driver import BuildOptions, build
from pnp.cli import app
from pnp.load.content import Project
from pnp.tools.diff import MARK, diff
from pnp.errors import PnpError
from pnp.tools.scaffold import scaffold
from pnp.units import percent

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

FIRST = [("example", "Example Card", "Words that will change."), ("second", "Second", "Goes away."), ("third", "Third", "Stays.")]
AFTER = [("example", "Example Card", "Words that did change, quite a lot."), ("third", "Third", "Stays."), ("fourth", "Fourth", "New.")]


def write_cards(project: Project, cards) -> None:
    lines = ["cards:"]
    for ident, title, text in cards:
        lines += [f"  - id: {ident}", f"    title: {title}", f"    text: {text}", "    copies: 1"]
    (project.content_dir / "demo/cards.yaml").write_text("\n".join(lines) + "\n")


def git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def repo(tmp_path: Path) -> Project:
    """A git repository whose project lives in a subfolder; the first card set is committed,
    the working tree holds the second."""
    project = Project(tmp_path / "repo" / "games")
    scaffold(project, "demo")
    write_cards(project, FIRST)
    git(tmp_path / "repo", "init", "-q")
    git(tmp_path / "repo", "add", "-A")
    git(tmp_path / "repo", "commit", "-q", "-m", "first cards")
    write_cards(project, AFTER)
    return project


@needs_git
def test_since_lists_changed_added_and_removed_faces(repo: Project):
    report = diff(repo, None, BuildOptions(), since="HEAD")
    assert [(c.path, c.status) for c in report.changes] == [
        ("demo/card/example", "changed"),
        ("demo/card/fourth", "added"),
        ("demo/card/second", "removed"),
    ]
    assert report.unchanged == 2  # third and the shared back
    assert report.before.startswith("HEAD (") and "first cards" in report.before
    changed = report.changes[0]
    assert 0 < changed.ratio < 0.2 and set(changed.images) == {"before", "after", "difference"}
    assert set(report.changes[1].images) == {"after"} and set(report.changes[2].images) == {"before"}


@needs_git
def test_the_page_shows_each_change_with_its_images(repo: Project):
    report = diff(repo, ["demo"], BuildOptions(), since="HEAD", dpi=60)
    page = report.page.read_text()
    assert report.page == repo.output_dir / "diff/index.html"
    assert 'data-changed="1" data-added="1" data-removed="1" data-unchanged="2"' in page
    links = re.findall(r'src="([^"]+)"', page)
    assert links and all((report.page.parent / link).is_file() for link in links)
    assert {Path(link).name for link in links} >= {"example.before.png", "example.after.png", "example.difference.png", "fourth.after.png", "second.before.png"}
    before = Image.open(report.page.parent / "demo/card/example.before.png")
    assert abs(before.width - 69 / 25.4 * 60) <= 1  # at the chosen dpi
    picture = Image.open(report.page.parent / "demo/card/example.difference.png").convert("RGB")
    assert MARK in {colour for _, colour in picture.getcolors(1 << 16)}


@needs_git
def test_an_unchanged_tree_has_no_changes_and_stale_images_go(repo: Project):
    diff(repo, None, BuildOptions(), since="HEAD")
    write_cards(repo, FIRST)
    report = diff(repo, None, BuildOptions(), since="HEAD")
    assert report.changes == [] and report.unchanged == 4
    assert "No face looks different" in report.page.read_text()
    assert not list((repo.output_dir / "diff").rglob("*.png"))


@needs_git
def test_markup_that_draws_the_same_pixels_is_not_a_change(repo: Project):
    write_cards(repo, FIRST)
    back = repo.templates_dir / "demo/card-back.svg.j2"
    back.write_text(back.read_text().replace("{% block body %}", "{% block body %}<!-- same picture -->"))
    report = diff(repo, None, BuildOptions(), since="HEAD")
    assert report.changes == [] and report.markup_only == 1


@needs_git
def test_errors_at_the_revision_name_the_revision(repo: Project, tmp_path: Path):
    (repo.content_dir / "demo/cards.yaml").write_text("cards: [oops\n")
    git(tmp_path / "repo", "commit", "-q", "-am", "broken")
    write_cards(repo, AFTER)
    with pytest.raises(PnpError) as info:
        diff(repo, None, BuildOptions(), since="HEAD")
    assert all(str(e).startswith("HEAD:content/demo/cards.yaml:") for e in info.value.errors), info.value.errors
    with pytest.raises(PnpError, match="no such commit"):
        diff(repo, None, BuildOptions(), since="no-such-ref")



@needs_git
def test_without_git_since_is_one_line(repo: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "bin").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))  # a machine without git
    result = CliRunner().invoke(app, ["diff", "--since", "HEAD", "-p", str(repo.root)])
    assert (result.exit_code, result.output) == (2, "pnp diff: --since HEAD: git was not found\n")


def saved_then_edited(demo: Project, tmp_path: Path, file: Path, old: str, new: str) -> Path:
    """The project's output built and saved aside, then `old` replaced by `new` in `file`."""
    build(demo, None, BuildOptions(formats=("svg",)))
    saved = tmp_path / "saved"
    shutil.copytree(demo.output_dir, saved)
    file.write_text(file.read_text().replace(old, new))
    return saved


def test_against_a_saved_output_tree(demo: Project, tmp_path: Path):
    saved = saved_then_edited(demo, tmp_path, demo.templates_dir / "demo/card.svg.j2",
                              'font-weight="bold" text-anchor="middle"', 'font-weight="bold" fill="#c00" text-anchor="middle"')
    report = diff(demo, None, BuildOptions(), against=saved)
    assert [(c.path, c.status) for c in report.changes] == [("demo/card/example", "changed")]
    assert report.before == f"saved output {saved}"
    # a single game's folder works too
    assert [c.path for c in diff(demo, ["demo"], BuildOptions(), against=saved / "demo").changes] == ["demo/card/example"]
    with pytest.raises(PnpError, match="no such folder"):
        diff(demo, None, BuildOptions(), against=tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(PnpError, match=r"empty: no <game>/svg/ folders found: expected a saved output/ tree$"):
        diff(demo, None, BuildOptions(), against=tmp_path / "empty")
    with pytest.raises(PnpError, match=r"^unknown game 'dmeo': found neither now nor in the other version$"):
        diff(demo, ["dmeo"], BuildOptions(), against=saved)


def test_a_diff_waits_for_another_diff_writing_its_folder(demo: Project, tmp_path: Path, capfd):
    """Two `pnp diff` runs at once both wrote output/diff/: the page, its pictures and their
    record could come from either. The second waits (with one line) until the first is done."""
    pytest.importorskip("fcntl")
    import threading
    import time

    from pnp.build.lock import output_lock

    saved = saved_then_edited(demo, tmp_path, demo.templates_dir / "demo/card.svg.j2",
                              'font-weight="bold" text-anchor="middle"', 'font-weight="bold" fill="#c00" text-anchor="middle"')
    page = demo.output_dir / "diff/index.html"
    done: list[object] = []
    second = threading.Thread(target=lambda: done.append(diff(demo, None, BuildOptions(), against=saved)), daemon=True)
    said = ""
    with output_lock(demo.output_dir / "diff"):  # as the first diff holds it, writing
        second.start()
        deadline = time.monotonic() + 60
        while "waiting for another pnp diff" not in said and second.is_alive() and time.monotonic() < deadline:
            time.sleep(0.05)
            said += capfd.readouterr().err
        assert "waiting for another pnp diff of " in said and not page.exists() and not done, said
    second.join(60)
    assert done and page.is_file()


def test_a_diff_into_out_dir_refuses_a_link_leading_out_of_it(demo: Project, tmp_path: Path):
    """`pnp diff --out DIR` wrote its page (and now its lock) through DIR/diff when that was
    a link to elsewhere; a build refuses DIR/<game> so. One line, nothing written there."""
    saved = saved_then_edited(demo, tmp_path, demo.templates_dir / "demo/card.svg.j2",
                              'font-weight="bold" text-anchor="middle"', 'font-weight="bold" fill="#c00" text-anchor="middle"')
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / "diff").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(PnpError, match="leads outside the output folder"):
        diff(demo, None, BuildOptions(out=out), against=saved)
    assert list(elsewhere.iterdir()) == []


DISC = '<circle cx="31.5" cy="72" r="7" fill="#2b8a3e"/>'


def _with_disc(demo: Project) -> Path:
    card = demo.templates_dir / "demo/card.svg.j2"
    head, tail = card.read_text().rsplit("{% endblock %}", 1)  # the disc at the end of the body
    card.write_text(f"{head}{DISC}\n{{% endblock %}}{tail}")
    return card


@needs_git
def test_a_recoloured_background_is_a_change(repo: Project):
    """#f1f3f5 -> #dee2e6: 19 levels a channel, below the edge-noise threshold, but the whole
    card is another grey."""
    write_cards(repo, FIRST)
    card = repo.templates_dir / "demo/card.svg.j2"
    card.write_text(card.read_text().replace("#fdf6e3", "#f1f3f5"))
    git(repo.root.parent, "commit", "-q", "-am", "grey cards")
    card.write_text(card.read_text().replace("#f1f3f5", "#dee2e6"))
    report = diff(repo, None, BuildOptions(), since="HEAD")
    assert [(c.path, c.status) for c in report.changes] == [(f"demo/card/{n}", "changed") for n in ("example", "second", "third")]
    assert all(c.ratio > 0.8 for c in report.changes)


@pytest.mark.parametrize("new_disc, changed", [
    ('fill="#1b7a2e"', True),  # a darker green (16 levels): the whole disc differs a little
    ('cx="31.501"', False),  # moved a thousandth of a millimetre: only its rim's anti-aliasing differs
])
def test_a_recoloured_area_is_a_change_edge_noise_is_not(demo: Project, tmp_path: Path, new_disc: str, changed: bool):
    card = _with_disc(demo)
    saved = saved_then_edited(demo, tmp_path, card, 'cx="31.5"' if "cx" in new_disc else 'fill="#2b8a3e"', new_disc)
    report = diff(demo, None, BuildOptions(), against=saved)
    assert [c.path for c in report.changes] == (["demo/card/example"] if changed else [])
    assert report.markup_only == (0 if changed else 1)


def test_the_same_face_drawn_again_is_unchanged(demo: Project):
    from pnp.formats.raster import svg_to_image
    from pnp.tools.diff import difference
    from pnp.tools.goldens import DPI

    build(demo, None, BuildOptions(formats=("svg",)))
    for svg in sorted((demo.output_dir / "demo/svg").glob("*/*.svg")):
        for dpi in (100, DPI):
            drawn = [svg_to_image(svg.read_text(encoding="utf-8"), dpi).convert("RGB") for _ in range(2)]
            assert difference(*drawn) == (None, 0.0)


def test_a_small_real_change_never_reads_zero_percent(demo: Project, tmp_path: Path):
    """A dot of 0.3 mm changes a few pixels of a card at 100 dpi: the share is "<0.1%",
    on the command line and on the page, never "0.0%"."""
    saved = saved_then_edited(demo, tmp_path, demo.templates_dir / "demo/card.svg.j2",
                              '<rect x="3" y="3"', '<rect x="30" y="60" width="0.3" height="0.3" fill="#000"/>\n<rect x="3" y="3"')
    result = CliRunner().invoke(app, ["diff", "--against", str(saved), "-p", str(demo.root)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "changed  demo/card/example  (<0.1% of pixels)"
    page = (demo.output_dir / "diff/index.html").read_text(encoding="utf-8")
    assert "&lt;0.1% of pixels differ" in page and "0.0%" not in page
    assert (percent(0.0004), percent(0.0005), percent(0.5), percent(0.9996), percent(1.0)) == ("<0.1%", "0.1%", "50.0%", ">99.9%", "100.0%")


def test_a_resized_card_is_a_change_shown_at_both_sizes(demo: Project, tmp_path: Path):
    """poker -> tarot: the two pictures differ in size; the difference is drawn over the
    larger one (the smaller padded with white), every face of the component counted."""
    saved = saved_then_edited(demo, tmp_path, demo.content_dir / "demo/game.yaml", "size: poker ", "size: tarot ")
    report = diff(demo, None, BuildOptions(), against=saved)
    assert [(c.path, c.status) for c in report.changes] == [("demo/card/back", "changed"), ("demo/card/example", "changed")]
    change = report.changes[1]
    (before_w, before_h), (after_w, after_h) = change.sizes["before"], change.sizes["after"]
    assert before_w < after_w and before_h < after_h
    with Image.open(report.page.parent / change.images["difference"]) as picture:
        assert picture.size == (after_w, after_h)


@needs_git
def test_cli_prints_the_list_and_the_page(repo: Project):
    result = CliRunner().invoke(app, ["diff", "--since", "HEAD", "-p", str(repo.root)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("changed  demo/card/example  (") and lines[0].endswith("% of pixels)")
    assert lines[1:3] == ["added    demo/card/fourth", "removed  demo/card/second"]
    assert lines[3].startswith("1 changed, 1 added, 1 removed, 2 unchanged: ") and lines[3].endswith("index.html")
    both = CliRunner().invoke(app, ["diff", "-p", str(repo.root)])
    assert both.exit_code == 2 and "--since" in both.output


def blocky_font(path: Path) -> None:
    """A font whose every printable ASCII character is a solid box: text drawn with it
    looks nothing like Liberation Sans."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    def glyph(box: bool):
        pen = TTGlyphPen(None)
        if box:
            pen.moveTo((50, 0))
            pen.lineTo((50, 700))
            pen.lineTo((550, 700))
            pen.lineTo((550, 0))
            pen.closePath()
        return pen.glyph()

    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder([".notdef", "space", "box"])
    fb.setupCharacterMap({32: "space", **{code: "box" for code in range(33, 127)}})
    fb.setupGlyf({".notdef": glyph(True), "space": glyph(False), "box": glyph(True)})
    fb.setupHorizontalMetrics({".notdef": (600, 50), "space": (600, 0), "box": (600, 50)})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Blocky", "styleName": "Regular", "fullName": "Blocky", "psName": "Blocky-Regular",
                       "uniqueFontIdentifier": "Blocky"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    path.parent.mkdir(parents=True, exist_ok=True)
    fb.save(str(path))


def _with_blocky_font(project: Project) -> None:
    blocky_font(project.assets_dir / "fonts" / "Blocky.ttf")
    for name in ("card.svg.j2", "card-back.svg.j2"):  # Blocky has no bold file: the demo's titles in its one weight
        template = project.templates_dir / "demo" / name
        template.write_text(template.read_text().replace(' font-weight="bold"', "").replace(', "bold")', ")"))
    manifest = project.content_dir / "demo" / "game.yaml"
    manifest.write_text(manifest.read_text() + "fonts: [fonts/Blocky.ttf]\n")


def _drawn_with(picture: Path, svg: str, fonts) -> bool:
    from pnp.formats.raster import svg_to_image
    from pnp.tools.diff import difference

    return difference(Image.open(picture).convert("RGB"), svg_to_image(svg, 100, fonts).convert("RGB"))[0] is None


def test_faces_are_drawn_with_the_games_own_fonts(demo: Project, tmp_path: Path):
    from pnp.load.content import load_game
    from pnp.load.fonts import DEFAULT

    _with_blocky_font(demo)
    build(demo, None, BuildOptions(formats=("svg",)))
    saved = tmp_path / "saved"
    shutil.copytree(demo.output_dir, saved)
    write_cards(demo, [("example", "Example Card", "Other words entirely.")])
    report = diff(demo, None, BuildOptions(), against=saved)
    assert [c.path for c in report.changes] == ["demo/card/example"]
    fonts = load_game(demo, "demo").fonts
    assert fonts.family == "Blocky"
    build(demo, None, BuildOptions(formats=("svg",), out=tmp_path / "now"))
    after = (tmp_path / "now/demo/svg/card/example.svg").read_text(encoding="utf-8")
    shown = report.page.parent / "demo/card/example.after.png"
    assert _drawn_with(shown, after, fonts)
    assert not _drawn_with(shown, after, DEFAULT)  # pnp's Liberation Sans draws other letters
    before = (saved / "demo/svg/card/example.svg").read_text(encoding="utf-8")
    assert _drawn_with(report.page.parent / "demo/card/example.before.png", before, fonts)


@needs_git
def test_since_draws_the_revision_with_its_own_font_files(repo: Project, tmp_path: Path):
    """The font lives in the project's assets/ folder at the revision: it is exported too."""
    from pnp.load.fonts import Fonts

    _with_blocky_font(repo)
    write_cards(repo, FIRST)
    git(tmp_path / "repo", "add", "-A")
    git(tmp_path / "repo", "commit", "-q", "-m", "blocky letters")
    build(repo, None, BuildOptions(formats=("svg",), out=tmp_path / "then"))
    font = repo.assets_dir / "fonts" / "Blocky.ttf"
    kept = tmp_path / "Blocky.ttf"
    shutil.copy(font, kept)
    font.unlink()  # the working tree goes back to pnp's font
    manifest = repo.content_dir / "demo" / "game.yaml"
    manifest.write_text(manifest.read_text().replace("fonts: [fonts/Blocky.ttf]\n", ""))
    report = diff(repo, None, BuildOptions(), since="HEAD")
    assert {c.path for c in report.changes} == {"demo/card/back", "demo/card/example", "demo/card/second", "demo/card/third"}
    before = (tmp_path / "then/demo/svg/card/example.svg").read_text(encoding="utf-8")
    assert _drawn_with(report.page.parent / "demo/card/example.before.png", before, Fonts((kept,)))


def _with_plugin(project: Project, body: str) -> Path:
    plugin = project.root / "plugins" / "marks.py"
    plugin.parent.mkdir(exist_ok=True)
    plugin.write_text(f"from pnp.api import GamePlugin\n\nPLUGIN = GamePlugin(template_globals={{'mark': lambda: {body!r}}})\n")
    game = project.content_dir / "demo" / "game.yaml"
    if "plugin:" not in game.read_text():
        game.write_text(game.read_text().replace("title: Demo\n", "title: Demo\nplugin: plugins/marks.py\n"))
    return plugin


@needs_git
def test_a_trusted_project_is_compared_with_its_own_history(repo: Project, trusted):
    """`pnp trust` covers the project's revisions whose plugin is the code it trusted; a
    revision whose plugin differs is refused in words the user can act on."""
    plugin = _with_plugin(repo, "first")
    root = repo.root.parent
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "a plugin")
    trusted(repo)
    report = diff(repo, None, BuildOptions(), since="HEAD")  # the plugin at HEAD is the one trusted
    assert report.changes == [] and report.unchanged
    _with_plugin(repo, "second")
    git(root, "commit", "-q", "-am", "the plugin changed")
    trusted(repo)
    with pytest.raises(PnpError) as refused:
        diff(repo, None, BuildOptions(), since="HEAD~1")
    (line,) = [str(e) for e in refused.value.errors]
    assert line.startswith("HEAD~1:content/demo/game.yaml:") and "pnp-diff-" not in line, line
    assert f"plugin plugins/marks.py as it was at HEAD~1 is not the code trusted for {repo.root.resolve()}" in line
    assert "pass `pnp --trust`" in line
    assert plugin.read_text().count("second") == 1


@pytest.mark.parametrize("dpi", ["0", "5000"])
def test_a_dpi_out_of_range_is_one_line(repo: Project, dpi: str):
    result = CliRunner().invoke(app, ["diff", "--since", "HEAD", "--dpi", dpi, "-p", str(repo.root)])
    assert result.exit_code == 2 and result.output.strip() == f"pnp diff: --dpi must be between 10 and 1200, got {dpi}", result.output
