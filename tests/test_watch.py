"""`pnp watch`: rebuilds after each edit, reports what it rebuilt, and keeps the last good
outputs when an edit is invalid. Runs in a thread and always stops within seconds."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest

from pnp.build.driver import BuildOptions, GameReport
from pnp.load.content import Project
from pnp.tools.scaffold import scaffold
from pnp.tools.watch import affected, describe, is_content, watch

WAIT = 15.0  # seconds to wait for one expected line; normally well under one


class Lines:
    """What watch printed, waited on from the test thread."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, bool]] = []
        self.changed = threading.Condition()

    def echo(self, line: str, error: bool) -> None:
        with self.changed:
            self.lines.append((line, error))
            self.changed.notify_all()

    def wait_for(self, text: str, start: int = 0) -> int:
        """Index of the first line from `start` containing `text`."""
        deadline = time.monotonic() + WAIT
        with self.changed:
            while True:
                for i, (line, _) in enumerate(self.lines[start:], start):
                    if text in line:
                        return i
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no line with {text!r} after {WAIT}s; got {self.lines}")
                self.changed.wait(left)


def _watching(project: Project, options: BuildOptions, games: list[str] | None = None) -> Iterator[Lines]:
    """Run `watch` on `project` (its `games`, all by default) in a thread; stop it (and check it stopped) after."""
    lines, stop = Lines(), threading.Event()
    worker = threading.Thread(target=watch, args=(project, games, options, lines.echo, stop), kwargs={"debounce_ms": 50}, daemon=True)
    safety = threading.Timer(60, stop.set)  # never outlive a stuck test
    worker.start()
    safety.start()
    lines.wait_for("watching")
    yield lines
    stop.set()
    safety.cancel()
    worker.join(10)
    assert not worker.is_alive(), "watch did not stop"


@pytest.fixture
def watching(demo: Project) -> Iterator[Lines]:
    yield from _watching(demo, BuildOptions())


@pytest.fixture
def two_games(demo: Project) -> Project:
    scaffold(demo, "other")
    return demo


@pytest.fixture
def watching_two(two_games: Project) -> Iterator[Lines]:
    yield from _watching(two_games, BuildOptions(formats=("svg",)))


def cards(text: str) -> str:
    return f"cards:\n  - id: example\n    title: Example Card\n    text: {text}\n    copies: 3\n"


def save(path: Path, text: str) -> None:
    """Save as editors do (write a temporary file, rename it over), so one edit is one event."""
    tmp = path.with_name(path.name + "~")
    tmp.write_text(text)
    os.replace(tmp, path)


def test_watch_rebuilds_what_an_edit_changes_and_survives_a_bad_edit(demo: Project, watching: Lines):
    svg = demo.output_dir / "demo/svg/card/example.svg"
    assert watching.lines[0][0].startswith("demo: rebuilt 4 files")
    first = svg.read_bytes()

    save(demo.content_dir / "demo/cards.yaml", cards("Edited while watching."))
    at = watching.wait_for("demo: rebuilt", 1)
    assert "cards.yaml" in watching.lines[at - 1][0]  # the `changed:` line names the file
    assert "svg/card/example.svg" in watching.lines[at][0] and "pdf/card.pdf" in watching.lines[at][0]
    assert "back.svg" not in watching.lines[at][0]  # the back did not change
    good = svg.read_bytes()
    assert good != first and b"Edited while watching." in good

    save(demo.content_dir / "demo/cards.yaml", cards("[unclosed"))
    failed = watching.wait_for("build failed", at + 1)
    errors = [line for line, error in watching.lines[at + 1 : failed] if error]
    assert errors and all("cards.yaml:" in line for line in errors)
    assert svg.read_bytes() == good  # the last good outputs are kept

    save(demo.content_dir / "demo/cards.yaml", cards("Fixed."))
    fixed = watching.wait_for("demo: rebuilt", failed + 1)
    assert b"Fixed." in svg.read_bytes() and not watching.lines[fixed][1]


def test_watch_follows_template_edits(demo: Project, watching: Lines):
    back = demo.templates_dir / "demo/card-back.svg.j2"
    save(back, back.read_text().replace("#264653", "#7b2d26"))
    at = watching.wait_for("demo: rebuilt", 1)
    assert "svg/card/back.svg" in watching.lines[at][0] and "example.svg" not in watching.lines[at][0]
    assert "#7b2d26" in (demo.output_dir / "demo/svg/card/back.svg").read_text()


def test_report_lines():
    quiet = GameReport("g", 1, 3, 3, 0, 0.01)
    assert describe(quiet) == "g: up to date (3 files, 0.01s)"
    busy = GameReport("g", 1, 3, 12, 12, 0.5, rendered=1, changed=tuple(f"svg/c/{i}.svg" for i in range(11)), removed=("svg/c/old.svg",))
    line = describe(busy)
    assert line.startswith("g: rebuilt 12 files (1 face rendered, 0.50s): svg/c/0.svg, ") and line.endswith(" and 4 more")


def test_a_rebuild_refreshes_the_gallery_and_the_build_stamp(demo: Project):
    from pnp.tools.preview import PAGE, STAMP, preview
    from pnp.tools.watch import rebuild

    preview(demo, None, BuildOptions())
    page, stamp = demo.output_dir / PAGE, demo.output_dir / STAMP
    assert stamp.read_text().startswith("pnpBuildStamp(")  # pnp writes every script the page loads (never the project's)
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text() + "  - {id: extra, title: Extra, text: New card., copies: 1}\n")
    rebuild(demo, None, BuildOptions(), lambda *_: None)
    assert "demo/svg/card/extra.svg" in page.read_text()  # the page shows the new card
    first = stamp.read_text()
    assert first.startswith("pnpBuildStamp(") and first.endswith(");\n")
    rebuild(demo, None, BuildOptions(), lambda *_: None)  # nothing changed: no new stamp
    assert stamp.read_text() == first
    cards.write_text(cards.read_text().replace("New card.", "Newer card."))
    rebuild(demo, None, BuildOptions(), lambda *_: None)
    assert stamp.read_text() != first


def _locked(folder: Path) -> bool:
    """Whether a build holds the output lock of `folder` (another open of the lock file cannot take it)."""
    import fcntl

    from pnp.build.lock import LOCK

    try:
        fd = os.open(folder / LOCK, os.O_RDWR)
    except FileNotFoundError:  # a held lock's file is in place
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_preview_and_a_rebuild_write_the_gallery_while_the_build_holds_the_output_lock(demo: Project, monkeypatch):
    """The gallery's page, record and stamp were written after the build released the
    lock: a build that followed at once could change the files between them, or write beside them."""
    pytest.importorskip("fcntl")
    from pnp.tools import preview as previewing
    from pnp.tools.watch import rebuild

    written: list[tuple[str, bool]] = []

    def noting(write):
        def wrapped(path, *args, **kwargs):
            written.append((Path(path).name, _locked(demo.output_dir)))
            return write(path, *args, **kwargs)
        return wrapped

    monkeypatch.setattr(previewing, "write_if_changed", noting(previewing.write_if_changed))
    monkeypatch.setattr(previewing, "write_sealed", noting(previewing.write_sealed))
    previewing.preview(demo, None, BuildOptions())
    cards = demo.content_dir / "demo/cards.yaml"
    cards.write_text(cards.read_text() + "  - {id: extra, title: Extra, text: New card., copies: 1}\n")
    rebuild(demo, None, BuildOptions(), lambda *_: None)
    names = [name for name, _ in written]
    assert names.count(previewing.PAGE) == 2 and names.count(previewing.SHOWN) == 2 and names.count(previewing.STAMP) >= 3, names
    assert all(held for _, held in written), written
    assert not _locked(demo.output_dir)


@pytest.mark.parametrize("command", ["watch", "preview", "build"])
def test_a_typo_is_said_at_once_while_another_build_holds_the_output_lock(demo: Project, command: str):
    """All three took the output lock before build() checked the input: a typo was said only
    once the build holding the lock had finished. The input is checked first now (once:
    build() is handed what was checked)."""
    pytest.importorskip("fcntl")
    from pnp.build.lock import output_lock
    from pnp.errors import PnpError
    from pnp.tools.preview import preview
    from pnp.tools.watch import rebuild

    (demo.content_dir / "demo/cards.yaml").write_text("cards:\n  - {id: one\n")  # the mapping is never closed
    held, release = threading.Event(), threading.Event()

    def other_build() -> None:
        with output_lock(demo.output_dir, quiet=True):
            held.set()
            release.wait(WAIT)

    said: list[str] = []

    def run() -> None:
        try:
            if command == "watch":
                rebuild(demo, None, BuildOptions(), lambda line, error: said.append(line))
            elif command == "build":
                from typer.testing import CliRunner

                from pnp.cli import app

                result = CliRunner().invoke(app, ["build", "-q", "-p", str(demo.root)])
                said.extend(result.output.splitlines())
            else:
                preview(demo, None, BuildOptions())
        except PnpError as exc:
            said.extend(str(e) for e in exc.errors)

    holder = threading.Thread(target=other_build, daemon=True)
    holder.start()
    assert held.wait(WAIT)
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(WAIT)
    waited = worker.is_alive()
    release.set()
    worker.join(WAIT)
    holder.join(WAIT)
    assert not waited, "the typo was said only after the lock was let go"
    assert said and "demo/cards.yaml:" in said[0], said


def test_an_edit_to_a_module_of_a_plugin_package_is_rebuilt_with(demo: Project, trusted):
    """A plugin package is imported again when any of its files changes, not only its
    `__init__.py`: a glyph helper edited in its own module shows in the next rebuild (and
    the build cache, which digests the plugin's files, never keeps faces drawn by the old one)."""
    from pnp.tools.watch import rebuild

    package = demo.root / "plugins" / "marks"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from pnp.api import GamePlugin\n\nfrom .glyphs import mark\n\n"
                                         "PLUGIN = GamePlugin(template_globals={'mark': mark})\n")
    glyphs = package / "glyphs.py"
    glyphs.write_text("def mark():\n    return 'first'\n")
    game = demo.content_dir / "demo" / "game.yaml"
    game.write_text(game.read_text().replace("title: Demo\n", "title: Demo\nplugin: plugins/marks\n"))
    template = demo.templates_dir / "demo" / "card.svg.j2"
    head, _, tail = template.read_text().rpartition("{% endblock %}")  # the body's block, the last
    template.write_text(head + '<text x="5" y="80" font-size="3">{{ mark() }}</text>\n{% endblock %}' + tail)
    options = BuildOptions(formats=("svg",))
    trusted(demo)
    rebuild(demo, None, options, lambda line, error: None)
    faces = demo.output_dir / "demo" / "svg"
    assert all("first" in svg.read_text() for svg in faces.glob("card/*.svg") if "back" not in svg.name)
    glyphs.write_text("def mark():\n    return 'second'\n")
    trusted(demo)  # the edit withdrew the trust (pnp/load/trust.py)
    lines: list[str] = []
    rebuild(demo, None, options, lambda line, error: lines.append(line))
    fronts = [svg.read_text() for svg in faces.glob("card/*.svg") if "back" not in svg.name]
    assert fronts and all("second" in svg for svg in fronts), lines


def test_a_rebuild_builds_only_the_games_whose_own_folders_changed(two_games: Project, watching_two: Lines):
    lines = watching_two
    assert lines.wait_for("demo: rebuilt") < lines.wait_for("other: rebuilt") < lines.wait_for("watching")
    save(two_games.content_dir / "demo/cards.yaml", cards("Only the demo changed."))
    first = lines.wait_for("changed:", 1)
    lines.wait_for("demo: rebuilt", first)
    back = two_games.templates_dir / "other/card-back.svg.j2"
    save(back, back.read_text().replace("#264653", "#7b2d26"))
    second = lines.wait_for("changed:", first + 1)
    at = lines.wait_for("other: rebuilt", second)
    assert not [line for line, _ in lines.lines[first:second] if line.startswith("other:")]  # not even "up to date"
    assert not [line for line, _ in lines.lines[second:at + 1] if line.startswith("demo:")]
    assert "#7b2d26" in (two_games.output_dir / "other/svg/card/back.svg").read_text()

    (two_games.content_dir / "notes.txt").write_text("a file no game owns: any game may read it\n")
    third = lines.wait_for("changed:", at + 1)
    lines.wait_for("demo: up to date", third)
    lines.wait_for("other: up to date", third)


def test_a_game_whose_rebuild_failed_stays_due(two_games: Project, watching_two: Lines):
    lines = watching_two
    other = two_games.content_dir / "other/cards.yaml"
    save(other, cards("[unclosed"))
    failed = lines.wait_for("build failed", 1)
    save(two_games.content_dir / "demo/cards.yaml", cards("Edited meanwhile."))
    again = lines.wait_for("build failed", failed + 1)  # the other game is built with it, and still broken
    assert any("other/cards.yaml:" in line for line, error in lines.lines[failed + 1:again] if error)
    save(other, cards("Mended."))
    mended = lines.wait_for("changed:", again + 1)
    lines.wait_for("other: rebuilt", mended)
    lines.wait_for("demo: rebuilt", mended)  # its edit, refused with the broken game, lands now
    assert b"Edited meanwhile." in (two_games.output_dir / "demo/svg/card/example.svg").read_bytes()


def test_which_games_a_change_concerns(tmp_path: Path):
    root, games = tmp_path, ["demo", "other"]
    assert affected(root, [str(root / "content/demo/cards.yaml"), str(root / "templates/demo/card.svg.j2")], games) == {"demo"}
    assert affected(root, [str(root / "content/demo/a.csv"), str(root / "templates/other/x/b.svg.j2")], games) == {"demo", "other"}
    for shared in ("content/notes.txt", "templates/macros.svg.j2", "content/new-game/game.yaml", "content/demo", "templates/other"):
        assert affected(root, [str(root / "content/demo/cards.yaml"), str(root / shared)], games) is None, shared
    assert affected(root, [str(tmp_path.parent / "elsewhere/content/demo/cards.yaml")], games) is None


def test_the_gallery_keeps_the_games_a_rebuild_left_alone(two_games: Project):
    from pnp.build.driver import build
    from pnp.tools.preview import PAGE, write_gallery
    from pnp.tools.watch import rebuild

    reports = build(two_games, None, BuildOptions(formats=("svg",)))
    write_gallery(reports, two_games.output_dir)
    cards_file = two_games.content_dir / "demo/cards.yaml"
    cards_file.write_text(cards("A new text."))
    rebuild(two_games, ["demo"], BuildOptions(formats=("svg",)), lambda *_: None, {r.game: r for r in reports})
    page = (two_games.output_dir / PAGE).read_text()
    assert "demo/svg/card/example.svg" in page and "other/svg/card/example.svg" in page


def test_watching_one_game_keeps_the_other_games_in_the_gallery(two_games: Project):
    """`pnp preview` (every game), then `pnp watch demo`: a rebuild rewrites the gallery with
    the other game still on it, as it was; a page pnp did not write keeps nothing."""
    from pnp.tools.preview import PAGE, preview

    preview(two_games, None, BuildOptions())
    page = two_games.output_dir / PAGE
    before = page.read_text()
    assert "other/svg/card/example.svg" in before
    for lines in _watching(two_games, BuildOptions(formats=("svg",)), ["demo"]):
        save(two_games.content_dir / "demo/cards.yaml", cards("A new text."))
        lines.wait_for("demo: rebuilt", lines.wait_for("changed:"))
    after = page.read_text()
    assert "demo/svg/card/example.svg" in after and "other/svg/card/example.svg" in after
    assert after.count("other/svg/card/") == before.count("other/svg/card/")
    (two_games.output_dir / ".pnp-gallery.json").write_text('{"format": 1, "games": [{"name": "x"}]}')  # not pnp's seal
    from pnp.tools.watch import rebuild
    save(two_games.content_dir / "demo/cards.yaml", cards("Another text."))
    rebuild(two_games, ["demo"], BuildOptions(formats=("svg",)), lambda *_: None, others=True)
    assert "other/svg/card/" not in page.read_text()


def _draw(project: Project, markup: str) -> None:
    """Add `markup` at the end of the card's body block."""
    template = project.templates_dir / "demo" / "card.svg.j2"
    head, _, tail = template.read_text().rpartition("{% endblock %}")
    template.write_text(head + markup + "\n{% endblock %}" + tail)


def test_an_edit_of_a_shared_picture_rebuilds(demo: Project):
    mark = demo.root / "assets" / "mark.svg"
    mark.parent.mkdir()
    mark.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#264653"/></svg>')
    _draw(demo, '<image href="{{ asset("mark.svg") }}" x="3" y="3" width="10" height="10"/>')
    face = demo.output_dir / "demo/svg/card/example.svg"
    for lines in _watching(demo, BuildOptions(formats=("svg",))):
        assert "assets" in lines.lines[lines.wait_for("watching")][0]
        before = face.read_bytes()
        save(mark, mark.read_text().replace("#264653", "#7b2d26"))
        at = lines.wait_for("demo: rebuilt", lines.wait_for("changed:"))
        assert "assets/mark.svg" in lines.lines[at - 1][0] and "svg/card/example.svg" in lines.lines[at][0]
        assert face.read_bytes() != before


def _marks(project: Project, name: str) -> Path:
    """A plugin at `name` in the project giving `mark()` ('first'), named by the game and
    drawn on the card."""
    plugin = project.root / name
    plugin.parent.mkdir(exist_ok=True)
    plugin.write_text("from pnp.api import GamePlugin\n\nPLUGIN = GamePlugin(template_globals={'mark': lambda: 'first'})\n")
    game = project.content_dir / "demo" / "game.yaml"
    game.write_text(game.read_text().replace("title: Demo\n", f"title: Demo\nplugin: {name}\n"))
    _draw(project, '<text x="5" y="80" font-size="3">{{ mark() }}</text>')
    return plugin


def test_an_edit_of_a_plugin_rebuilds_once_it_is_trusted_again(demo: Project, trusted):
    """The edit withdraws the trust (pnp/load/trust.py): the rebuild says so, and `pnp trust`,
    run while watch runs, rebuilds with the new code."""
    plugin = _marks(demo, "plugins/marks.py")
    trusted(demo)
    face = demo.output_dir / "demo/svg/card/example.svg"
    for lines in _watching(demo, BuildOptions(formats=("svg",))):
        assert "first" in face.read_text()
        save(plugin, plugin.read_text().replace("'first'", "'second'"))
        failed = lines.wait_for("build failed", lines.wait_for("changed:"))
        assert "has changed since the project was trusted" in lines.lines[failed - 1][0]
        trusted(demo)
        lines.wait_for("demo: rebuilt", lines.wait_for("changed:", failed))
        assert "second" in face.read_text()


def test_only_this_projects_trust_record_rebuilds(demo: Project, trusted, tmp_path: Path):
    """The trust file records every project: another project's `pnp trust` or revoke is no
    change here; this project's own record changing is (a rebuild with the code trusted)."""
    from pnp.load.trust import revoke

    _marks(demo, "plugins/marks.py")
    trusted(demo)
    other = Project(tmp_path / "other")
    scaffold(other, "demo")
    _marks(other, "plugins/marks.py")
    for lines in _watching(demo, BuildOptions(formats=("svg",))):
        trusted(other)
        revoke(other.root)
        trusted(other)
        time.sleep(2.5)  # a few polls (POLL_MS): none of them sees a change
        assert not any(line.startswith("changed:") for line, _ in lines.lines), lines.lines
        revoke(demo.root)  # this project's record: rebuilt, and the plugin is refused now
        failed = lines.wait_for("build failed", lines.wait_for("changed:"))
        assert "is not trusted" in lines.lines[failed - 1][0]


def test_an_edit_of_pnp_yaml_takes_effect(demo: Project):
    from pnp.cli import options_for

    settings = demo.root / "pnp.yaml"
    settings.write_text("formats: [svg]\n")
    lines, stop = Lines(), threading.Event()
    worker = threading.Thread(target=watch, args=(demo, None, options_for(demo.root), lines.echo, stop),
                              kwargs={"debounce_ms": 50, "reload": lambda: options_for(demo.root)}, daemon=True)
    worker.start()
    try:
        lines.wait_for("watching")
        assert not (demo.output_dir / "demo/png").exists()
        save(settings, "formats: [svg, pngg]\n")
        failed = lines.wait_for("build failed")
        assert any(line.startswith(f"{settings}:1:") and "unknown format 'pngg'" in line for line, error in lines.lines if error)
        save(demo.content_dir / "demo/cards.yaml", cards("Edited while pnp.yaml is broken."))
        again = lines.wait_for("build failed", failed + 1)  # not built with the options of before
        save(settings, "formats: [svg, png]\n")
        lines.wait_for("demo: rebuilt", again)
        assert (demo.output_dir / "demo/png/card/example.png").is_file()
    finally:
        stop.set()
        worker.join(10)


def test_compiled_python_is_not_an_edit():
    assert is_content("/p/plugins/marks.py") and is_content("/p/assets/mark.svg")
    assert not is_content("/p/content/g/sedTosScN") and is_content("/p/content/g/sediment.yaml")
    assert not is_content("/p/plugins/__pycache__/marks.cpython-311.pyc") and not is_content("/p/plugins/marks.pyc")


def test_a_folder_made_while_watching_is_watched(demo: Project):
    for lines in _watching(demo, BuildOptions(formats=("svg",))):
        plugins = demo.root / "plugins"
        plugins.mkdir()
        made = lines.wait_for("changed:", 1)
        assert lines.lines[made][0].endswith("plugins")
        lines.wait_for("demo: up to date", made)  # every game may read plugins/
        lines.wait_for("/plugins, ", made)  # watching it now
        (plugins / "notes.py").write_text("# not named by any game.yaml yet\n")
        edited = lines.wait_for("changed:", made + 1)
        assert lines.lines[edited][0].endswith("plugins/notes.py")


def test_a_plugin_kept_outside_plugins_is_watched(demo: Project, monkeypatch):
    """A game may name a plugin anywhere in the project (`plugin: tools/marks.py`): its
    folder is watched as plugins/ is; the project folder itself never is (output/ is in it)."""
    monkeypatch.setenv("PNP_TRUST", "1")  # the edit withdraws `pnp trust`'s trust; this run trusts every plugin
    plugin = _marks(demo, "tools/marks.py")
    face = demo.output_dir / "demo/svg/card/example.svg"
    for lines in _watching(demo, BuildOptions(formats=("svg",))):
        assert "/tools, " in lines.lines[lines.wait_for("watching")][0]
        save(plugin, plugin.read_text().replace("'first'", "'second'"))
        lines.wait_for("demo: rebuilt", lines.wait_for("changed:"))
        assert "second" in face.read_text()


def test_a_plugin_file_in_the_project_folder_is_polled(demo: Project, monkeypatch):
    """`plugin: marks.py` lies beside output/, so its folder is never watched: the file
    itself is polled, as pnp.yaml is."""
    monkeypatch.setenv("PNP_TRUST", "1")
    plugin = _marks(demo, "marks.py")
    face = demo.output_dir / "demo/svg/card/example.svg"
    for lines in _watching(demo, BuildOptions(formats=("svg",))):
        assert lines.lines[lines.wait_for("watching")][0].endswith("/marks.py (Ctrl-C to stop)")
        save(plugin, plugin.read_text().replace("'first'", "'second'"))
        lines.wait_for("demo: rebuilt", lines.wait_for("changed:"))
        assert "second" in face.read_text()


def test_the_project_folder_and_output_are_never_watched(demo: Project):
    from pnp.tools.watch import watched

    (demo.root / "tools").mkdir()
    folders = watched(demo, [demo.root, demo.root / "tools", demo.content_dir / "demo", demo.root.parent])
    assert demo.root not in folders and demo.root.parent not in folders and demo.root / "tools" in folders
    assert folders.count(demo.content_dir) == 1 and demo.content_dir / "demo" not in folders  # inside content/ already


def test_a_plugin_named_while_watching_is_watched_from_then_on(demo: Project, monkeypatch):
    """game.yaml names a plugin not there yet (the first build fails, watch goes on), then,
    edited, one that is: the rebuild uses it, and its folder is watched from then on."""
    monkeypatch.setenv("PNP_TRUST", "1")
    plugin = _marks(demo, "tools/marks.py")
    game = demo.content_dir / "demo" / "game.yaml"
    named = game.read_text()
    game.write_text(named.replace("plugin: tools/marks.py\n", "plugin: tools/missing.py\n"))
    face = demo.output_dir / "demo/svg/card/example.svg"
    for lines in _watching(demo, BuildOptions(formats=("svg",))):
        first = lines.wait_for("watching")
        assert "/tools, " not in lines.lines[first][0] and not face.exists()
        save(game, named)
        rebuilt = lines.wait_for("demo: rebuilt", lines.wait_for("changed:"))
        assert "first" in face.read_text()
        assert "/tools, " in lines.lines[lines.wait_for("watching", rebuilt)][0]
        save(plugin, plugin.read_text().replace("'first'", "'second'"))
        lines.wait_for("demo: rebuilt", lines.wait_for("changed:", rebuilt + 1))
        assert "second" in face.read_text()


@pytest.mark.parametrize("hook, raised", [("context", "StopIteration"), ("context", "SystemExit(0)"), ("check", "KeyError('x')")])
def test_a_plugins_error_after_an_edit_is_printed_and_the_watch_goes_on(demo: Project, trusted, hook: str, raised: str):
    """A plugin's `context` or `check` raising after an edit ended `pnp watch` (exit 2): it is
    that plugin's located error, the last good outputs stay, and the next good edit rebuilds."""
    plugin = demo.root / "plugins/boom.py"
    plugin.parent.mkdir()
    signature = "game, options" if hook == "context" else "game"
    plugin.write_text("from pathlib import Path\n\nfrom pnp.api import GamePlugin\n\n\n"
                      f"def {hook}({signature}):\n"
                      "    if 'boom' in (Path(__file__).parent.parent / 'content/demo/cards.yaml').read_text():\n"
                      f"        raise {raised}\n"
                      f"    return {'{}' if hook == 'context' else '[]'}\n\n\n"
                      f"PLUGIN = GamePlugin({hook}={hook})\n")
    game = demo.content_dir / "demo" / "game.yaml"
    game.write_text(game.read_text().replace("title: Demo\n", "title: Demo\nplugin: plugins/boom.py\n"))
    trusted(demo)
    svg = demo.output_dir / "demo/svg/card/example.svg"
    for lines in _watching(demo, BuildOptions(formats=("svg",))):
        good = svg.read_bytes()
        save(demo.content_dir / "demo/cards.yaml", cards("boom"))
        failed = lines.wait_for("build failed", lines.wait_for("changed:"))
        said, error = lines.lines[failed - 1]
        assert error and "boom.py:8: plugin plugins/boom.py failed: " in said and raised.partition("(")[0] in said, said
        assert svg.read_bytes() == good  # the last good outputs are kept
        save(demo.content_dir / "demo/cards.yaml", cards("Fixed."))
        lines.wait_for("demo: rebuilt", failed + 1)
        assert b"Fixed." in svg.read_bytes()


def test_a_bug_in_pnp_still_ends_the_watch(demo: Project, monkeypatch):
    from pnp.tools import watch as watching

    def broken(*args, **kwargs):
        raise RuntimeError("pnp's own bug")

    monkeypatch.setattr(watching, "build", broken)
    with pytest.raises(RuntimeError, match="pnp's own bug"):
        watching.rebuild(demo, None, BuildOptions(formats=("svg",)), lambda line, error: None)


def test_an_option_typed_wrong_ends_the_watch_as_build_does(demo: Project):
    """`pnp watch --paper b5` said "unknown paper" and went on watching, though no edit can
    mend a command line: it ends with exit 2 and the command's name, as `pnp build` does
    (pnp.yaml's choices are checked, and located, as they are read: an edit there is a
    located line and the watch goes on)."""
    from typer.testing import CliRunner

    from pnp.cli import app
    from pnp.errors import OptionError
    from pnp.tools.watch import rebuild

    with pytest.raises(OptionError):  # first: where it went on, the watch below would never end
        rebuild(demo, None, BuildOptions(paper="b5"), lambda *_: None)
    result = CliRunner().invoke(app, ["watch", "-q", "--paper", "b5", "-p", str(demo.root)])
    assert result.exit_code == 2 and result.output.startswith("pnp watch: unknown paper 'b5'"), result.output


def test_a_rebuild_warns_of_a_guarded_field_no_record_has(demo: Project):
    """What `pnp build` warns of (pnp/render/defaulted.py), each rebuild, before its report;
    not an error: `--quiet` leaves it out."""
    from pnp.tools.watch import rebuild

    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace("{{ item.title }}", "{{ item.titel | default('') }}"))
    for _ in range(2):  # built, then up to date (every face from the cache)
        said = Lines()
        rebuild(demo, None, BuildOptions(formats=("svg",)), said.echo)
        (warning, report) = said.lines
        assert warning[0].endswith("card.svg.j2:6: warning: item.titel is in no record of card (did you mean 'title'?); "
                                   "`| default('')` printed nothing") and warning[1] is False
        assert report[0].startswith("demo: ")


def test_pnp_watch_prints_warnings_as_pnp_build_does(demo: Project, monkeypatch: pytest.MonkeyPatch):
    """Before: `pnp watch` printed a build's warnings on stdout and whole; `pnp build` prints
    them on stderr (cli.warn), a line too long clipped, and `-q` leaves them out. Watch does
    the same now."""
    import pnp.tools.watch as watching
    from typer.testing import CliRunner

    from pnp.cli import app

    long = "x" * 1500  # a field name of 1500 characters: its warning is clipped
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace("{{ item.title }}", f"{{{{ item.titel | default('') }}}}{{{{ item.{long} | default('') }}}}"))
    stopped = threading.Event()
    stopped.set()  # the first build, then the watch ends
    real = watching.watch
    monkeypatch.setattr(watching, "watch", lambda *args, **kwargs: real(*args, stop=stopped, **kwargs))
    said = CliRunner().invoke(app, ["watch", "--format", "svg", "-p", str(demo.root)])
    assert said.exit_code == 0, said.output
    assert "warning" not in said.stdout and said.stdout.startswith("demo: rebuilt "), said.stdout
    warned = said.stderr.splitlines()
    assert len(warned) == 2 and warned[0].endswith(TYPO), warned
    assert len(warned[1]) < 1100 and " characters)… " in warned[1], warned[1]
    quiet = CliRunner().invoke(app, ["watch", "-q", "--format", "svg", "-p", str(demo.root)])
    assert (quiet.exit_code, quiet.stdout, quiet.stderr) == (0, "", "")


def test_pnp_watch_clips_its_errors_as_pnp_build_does(demo: Project, monkeypatch: pytest.MonkeyPatch):
    """Before: a build error of `pnp watch` was printed whole (a 1500-character field name,
    all of it); `pnp build` clips it in the middle (cli.fail). Watch does the same now."""
    import pnp.tools.watch as watching
    from typer.testing import CliRunner

    from pnp.cli import app

    long = "x" * 1500
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text(template.read_text().replace("{{ item.title }}", f"{{{{ item.{long} }}}}"))
    built = CliRunner().invoke(app, ["build", "--format", "svg", "-p", str(demo.root)])
    assert built.exit_code == 2 and " characters)… " in built.stderr, built.stderr
    stopped = threading.Event()
    stopped.set()  # the first build, then the watch ends
    real = watching.watch
    monkeypatch.setattr(watching, "watch", lambda *args, **kwargs: real(*args, stop=stopped, **kwargs))
    said = CliRunner().invoke(app, ["watch", "--format", "svg", "-p", str(demo.root)])
    errors = said.stderr.splitlines()
    assert errors[-1] == "build failed: the last good outputs are kept", errors
    assert errors[0] == built.stderr.splitlines()[0], errors  # the same line, clipped the same
    assert all(len(line) < 1100 for line in errors), errors


TYPO = "card.svg.j2:6: warning: item.titel is in no record of card (did you mean 'title'?); `| default('')` printed nothing"
