"""`pnp watch` watches only the project's own folders (issue 23's hostile walkthrough, item
12): watchfiles' recursive watch followed a linked folder out of the project (`assets/usr`
-> /usr: thousands of watches; `assets/root` -> /: the whole file system, then an
unlocated `Permission denied`). Runs in a thread and always stops within seconds."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.build.driver import BuildOptions
from pnp.errors import PnpError
from pnp.load.content import Project
from pnp.tools.watch import real_folders, watch, watched
from test_watch import _watching, save


@pytest.fixture
def linked(demo: Project, tmp_path: Path) -> Path:
    """assets/ holding links out of the project, to output/ and to the project folder; the
    folder outside, with a folder of its own."""
    away = tmp_path / "away"
    (away / "deep").mkdir(parents=True)
    (away / "deep/file.txt").write_text("first\n")
    assets = demo.assets_dir
    (assets / "pictures").mkdir(parents=True)
    (assets / "away").symlink_to(away, target_is_directory=True)
    (assets / "out").symlink_to("../output", target_is_directory=True)
    (assets / "root").symlink_to("..", target_is_directory=True)
    (assets / "again").symlink_to("pictures", target_is_directory=True)  # inside, watched already
    demo.output_dir.mkdir()
    return away


def test_only_real_folders_of_the_project_are_watched(demo: Project, linked: Path):
    folders, skipped = real_folders(demo, watched(demo))
    assert demo.assets_dir / "pictures" in folders and demo.content_dir / "demo" in folders
    assert all(f.resolve().is_relative_to(demo.root.resolve()) and not f.resolve().is_relative_to(demo.output_dir.resolve()) for f in folders)
    assert len({f.resolve() for f in folders}) == len(folders)  # assets/again: its folder once
    assert sorted(link.name for link, _ in skipped) == ["away", "out", "root"]


def test_a_link_out_is_neither_followed_nor_fatal(demo: Project, linked: Path):
    for lines in _watching(demo, BuildOptions(formats=("svg",))):
        start = lines.wait_for("watching")
        for name, where in (("away", "outside the project"), ("out", "not a source folder"), ("root", "not a source folder")):
            line = lines.lines[lines.wait_for(f"assets/{name}: not watched", start)][0]
            assert where in line
        save(linked / "deep/file.txt", "second\n")  # outside: not watched
        save(demo.content_dir / "demo/cards.yaml", (demo.content_dir / "demo/cards.yaml").read_text() + "\n")
        changed = lines.lines[lines.wait_for("changed:", start)][0]
        assert changed.endswith("content/demo/cards.yaml"), changed
        assert not any(error for _, error in lines.lines)


def test_a_folder_that_cannot_be_watched_is_one_line(demo: Project, monkeypatch):
    import watchfiles

    def refused(*paths, **options):
        raise PermissionError(f"Permission denied (os error 13) about [{str(paths[0])!r}]")
        yield  # a generator, as watchfiles.watch is

    monkeypatch.setattr(watchfiles, "watch", refused)
    with pytest.raises(PnpError) as caught:
        watch(demo, None, BuildOptions(formats=("svg",)), lambda line, error: None)
    [line] = caught.value.errors
    assert str(line).startswith(str(demo.root)) and "cannot watch" in str(line) and "Permission denied" in str(line)
