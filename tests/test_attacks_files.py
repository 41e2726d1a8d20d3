"""Attacks on the file system and the machine (issue 23, its files-and-limits half): a
stranger's project or a mailed sheet tries to read files outside the project into the
outputs, to write or delete files outside the output folder, and to exhaust the machine.

Every attack must end in exit 2 with one located line, promptly, no traceback, and with
nothing outside the project read into an output, written or deleted. "Promptly" is
measured by bench/bench_limits.py (well under a second per case); here BOUND only
catches a runaway, with room for a busy host (a 2 s bound failed once at 2.18 s). The
sandbox and plugin-trust attacks are tests/test_hostile.py's and their own suites'.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import struct
import subprocess
import time
import zipfile
import zlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.load import seal
from pnp.cli import app
from pnp.load.content import Project

REPO = Path(__file__).resolve().parent.parent
SECRET = "SECRET-7f3a9c"
runner = CliRunner()
BOUND = 5.0  # seconds: a runaway, not a speed (bench/bench_limits.py measures), as tests/test_hostile.py
LOCATED = re.compile(r"^(?P<file>[^\s:][^:]*?)(?::(?P<line>\d+))?(?::\d+)?: \S")


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the project, holding what an attacker wants read or deleted."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.yaml").write_text(f"cards:\n  - id: leak\n    title: {SECRET}\n    text: x\n    copies: 1\n")
    (folder / "secret.csv").write_text(f"id,title,text,copies\nleak,{SECRET},x,1\n")
    (folder / "secret.svg.j2").write_text(f'<svg xmlns="http://www.w3.org/2000/svg"><text>{SECRET}</text></svg>\n')
    (folder / "victim.txt").write_text("keep me\n")
    (folder / "secret.png").write_bytes(_png(2, 2))
    (folder / "font.ttf").write_bytes((REPO / "pnp/data/fonts/LiberationSans-Regular.ttf").read_bytes())
    return folder


def run(project: Project, *args: str, env: dict[str, str] | None = None, problems: int = 1) -> tuple[str, float]:
    """Run pnp on the project; the first located error line it must print (one a problem),
    and the time taken."""
    started = time.perf_counter()
    result = runner.invoke(app, [*args, "--project", str(project.root)], env=env)
    seconds = time.perf_counter() - started
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == problems, result.output
    assert all(LOCATED.match(line) for line in lines), lines
    assert seconds < BOUND, f"{seconds:.2f}s: {lines[0]}"
    return lines[0], seconds


def located(line: str, file: str, at: int | None = None, *words: str) -> None:
    """The line names `file` (and line `at`) and says each of `words`."""
    m = LOCATED.match(line)
    assert m is not None and m.group("file").endswith(file), line
    if at is not None:
        assert m.group("line") == str(at), line
    for word in words:
        assert word in line, line


def no_leak(project: Project) -> None:
    """Nothing of the outside folder reached the outputs."""
    for path in project.output_dir.rglob("*") if project.output_dir.exists() else []:
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), start=1) if text in line)


def manifest(demo: Project) -> Path:
    return demo.content_dir / "demo/game.yaml"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def _png(width: int, height: int) -> bytes:
    """A PNG whose header says width x height (its pixel data is one empty row: only a
    decoder would find out)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 7)) + chunk(b"IEND", b"")


def with_template(demo: Project, body: str) -> Path:
    """The front template drawing `body` (its line is the template's third)."""
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text('{% extends "pnp/base.svg.j2" %}\n{% block body %}\n' + body + "\n{% endblock %}\n")
    return template


# --- 1. every kind of project file, through a link or a path out of the project -------

def test_a_data_file_linked_out_of_the_project_is_refused(demo: Project, outside: Path):
    link = demo.content_dir / "demo/cards.yaml"
    link.unlink()
    link.symlink_to(outside / "secret.yaml")
    line, _ = run(demo, "build")
    located(line, "cards.yaml", None, "is a link to", "outside the project folder")
    no_leak(demo)


def test_a_csv_linked_out_of_the_project_is_refused(demo: Project, outside: Path):
    (demo.content_dir / "demo/cards.yaml").unlink()
    edit(manifest(demo), "items: cards.cards", "items: cards")
    (demo.content_dir / "demo/cards.csv").symlink_to(outside / "secret.csv")
    line, _ = run(demo, "build")
    located(line, "cards.csv", None, "outside the project folder")
    no_leak(demo)


def test_game_yaml_linked_out_is_refused(demo: Project, outside: Path):
    (outside / "game.yaml").write_text(manifest(demo).read_text())
    manifest(demo).unlink()
    manifest(demo).symlink_to(outside / "game.yaml")
    # the game is still listed (its folder holds a game.yaml), and refused when loaded
    line, _ = run(demo, "validate", "demo")
    located(line, "game.yaml", None, "outside the project folder")


def test_a_game_folder_linked_out_is_refused(demo: Project, outside: Path):
    (demo.content_dir / "demo").rename(outside / "demo")
    (demo.content_dir / "demo").symlink_to(outside / "demo", target_is_directory=True)
    line, _ = run(demo, "build")
    located(line, "game.yaml", None, "outside the project folder")


def test_a_template_linked_out_is_refused_at_its_game_yaml_line(demo: Project, outside: Path):
    template = demo.templates_dir / "demo/card.svg.j2"
    template.unlink()
    template.symlink_to(outside / "secret.svg.j2")
    line, _ = run(demo, "build")
    located(line, "game.yaml", line_of(manifest(demo), "front:"), "template", "outside the project folder")
    no_leak(demo)


def test_a_templates_folder_linked_out_is_refused(demo: Project, outside: Path):
    (demo.templates_dir / "demo").rename(outside / "templates")
    (demo.templates_dir / "demo").symlink_to(outside / "templates", target_is_directory=True)
    line, _ = run(demo, "build", problems=2)  # front and back
    located(line, "game.yaml", None, "outside the project folder")
    no_leak(demo)


def test_an_include_linked_out_is_refused_at_the_include_line(demo: Project, outside: Path):
    (demo.templates_dir / "demo/part.svg.j2").symlink_to(outside / "secret.svg.j2")
    template = with_template(demo, '{% include "part.svg.j2" %}')
    line, _ = run(demo, "build")
    located(line, "card.svg.j2", 3, "outside the project folder")
    assert template.name in line
    no_leak(demo)


def test_an_include_with_dots_is_refused(demo: Project, outside: Path):
    with_template(demo, '{% include "../../../outside/secret.svg.j2" %}')
    line, _ = run(demo, "build")
    located(line, "card.svg.j2", 3, "template not found: ../../../outside/secret.svg.j2")
    no_leak(demo)


@pytest.mark.parametrize("name", ["../../../outside/secret.yaml", "/etc/hostname", "icons/../../../outside/secret.yaml"])
def test_an_icon_file_outside_is_refused_at_its_line(demo: Project, outside: Path, name: str):
    edit(manifest(demo), "components:", f"icons:\n  evil:\n    file: {name}\ncomponents:")
    line, _ = run(demo, "validate")
    located(line, "game.yaml", line_of(manifest(demo), "file:"), "icon file", "expected a path inside the game's folder")


def test_an_icon_folder_with_a_link_out_is_refused(demo: Project, outside: Path):
    folder = demo.content_dir / "demo/icons"
    folder.mkdir()
    (outside / "moon.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><title>{SECRET}</title></svg>')
    (folder / "moon.svg").symlink_to(outside / "moon.svg")
    edit(manifest(demo), "components:", "icons:\n  suits:\n    folder: icons\ncomponents:")
    line, _ = run(demo, "build")
    located(line, "moon.svg", None, "outside the project folder")
    no_leak(demo)


@pytest.mark.parametrize("how", ["dots", "absolute", "link"])
def test_a_font_outside_is_refused_at_its_line(demo: Project, outside: Path, how: str):
    name = {"dots": "../../../outside/font.ttf", "absolute": str(outside / "font.ttf"), "link": "font.ttf"}[how]
    if how == "link":
        (demo.content_dir / "demo/font.ttf").symlink_to(outside / "font.ttf")
    edit(manifest(demo), "components:", f"fonts: [{name}]\ncomponents:")
    line, _ = run(demo, "validate")
    located(line, "game.yaml", line_of(manifest(demo), "fonts:"), "font file")


@pytest.mark.parametrize("how", ["dots", "absolute", "link"])
def test_art_outside_is_refused_at_the_template_line(demo: Project, outside: Path, how: str):
    name = {"dots": "../../outside/secret.png", "absolute": str(outside / "secret.png"), "link": "art.png"}[how]
    if how == "link":
        (demo.content_dir / "demo/art.png").symlink_to(outside / "secret.png")
    with_template(demo, f'<image href="{{{{ asset("{name}") }}}}" width="10" height="10"/>')
    line, _ = run(demo, "build", "--format", "png")
    located(line, "card.svg.j2", 3, "image")
    no_leak(demo)


def test_pnp_yaml_linked_out_is_refused(demo: Project, outside: Path):
    (outside / "pnp.yaml").write_text("paper: a4\n")
    (demo.root / "pnp.yaml").symlink_to(outside / "pnp.yaml")
    line, _ = run(demo, "build")
    located(line, "pnp.yaml", None, "outside the project folder")


def test_a_link_inside_the_project_still_works(demo: Project):
    """Links are fine while they stay in the project (a shared art folder, say)."""
    shared = demo.root / "shared"
    shared.mkdir()
    (demo.content_dir / "demo/cards.yaml").rename(shared / "cards.yaml")
    (demo.content_dir / "demo/cards.yaml").symlink_to(shared / "cards.yaml")
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output


# --- 2. outputs: a crafted list of earlier outputs is checked, never trusted -----------

def _built(demo: Project) -> Path:
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output
    return demo.output_dir / "demo"


@pytest.mark.parametrize("entry", ["../../../outside/victim.txt", "svg/../../../../outside/victim.txt", "ABSOLUTE", "svg/link.svg", "svg/notes.svg"])
def test_a_crafted_output_list_deletes_nothing_pnp_did_not_write(demo: Project, outside: Path, entry: str):
    root = _built(demo)
    victim = outside / "victim.txt"
    (root / "svg/link.svg").symlink_to(victim)
    (root / "svg/notes.svg").write_text("the user's own notes\n")
    entry = str(victim) if entry == "ABSOLUTE" else entry
    listed = json.loads(seal.unseal(".pnp-files.json", (root / ".pnp-files.json").read_bytes()) or b"")
    listed[entry] = __import__("hashlib").sha256(victim.read_bytes()).hexdigest()  # even with the right digest
    (root / ".pnp-files.json").write_bytes(seal.seal(".pnp-files.json", json.dumps(listed).encode()))  # and sealed
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output
    assert victim.read_text() == "keep me\n" and (root / "svg/link.svg").is_symlink()
    assert (root / "svg/notes.svg").read_text() == "the user's own notes\n"


def test_an_old_or_malformed_output_list_deletes_nothing(demo: Project):
    root = _built(demo)
    (root / "svg/notes.svg").write_text("mine\n")
    for text in ('["svg/notes.svg"]', '{"svg/notes.svg": 5}', "not json"):
        (root / ".pnp-files.json").write_text(text)
        assert runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)]).exit_code == 0
        assert (root / "svg/notes.svg").read_text() == "mine\n"


@pytest.mark.parametrize("how", ["unsealed", "edited after its seal", "sealed for another record"])
def test_an_output_list_pnp_did_not_seal_deletes_nothing(demo: Project, how: str):
    """The list of files pnp wrote is a record in output/, which anyone may write: one pnp
    did not seal itself is no list, even naming a user's file with that file's digest."""
    import hashlib

    root = _built(demo)
    notes = root / "svg/card/notes.svg"
    notes.write_text("the user's own notes\n")
    made = [p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".")]
    assert root / "svg/card/example.svg" in made
    forged = json.dumps({p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in made}).encode()
    path = root / ".pnp-files.json"
    path.write_bytes({"unsealed": forged,
                      "edited after its seal": seal.seal(".pnp-files.json", forged.replace(b"notes.svg", b"other.svg")).replace(b"other.svg", b"notes.svg"),
                      "sealed for another record": seal.seal(".pnp-build.json", forged)}[how])
    assert b'"svg/card/notes.svg"' in path.read_bytes()
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert notes.read_text() == "the user's own notes\n"
    assert seal.unseal(".pnp-files.json", path.read_bytes()) is not None  # the build wrote its own list, sealed


def test_a_file_pnp_wrote_is_still_removed_when_stale(demo: Project):
    root = _built(demo)
    edit(demo.content_dir / "demo/cards.yaml", "id: example", "id: renamed")
    assert runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)]).exit_code == 0
    assert not (root / "svg/card/example.svg").exists() and (root / "svg/card/renamed.svg").is_file()


def test_a_stale_output_edited_by_the_user_is_kept(demo: Project):
    root = _built(demo)
    (root / "svg/card/example.svg").write_text("<svg>my edit</svg>")
    edit(demo.content_dir / "demo/cards.yaml", "id: example", "id: renamed")
    assert runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)]).exit_code == 0
    assert (root / "svg/card/example.svg").read_text() == "<svg>my edit</svg>"


def test_temporary_files_of_a_killed_build_are_removed_by_the_next(demo: Project, outside: Path):
    """A build killed between writing a temporary file and renaming it (SIGKILL, a power cut)
    leaves `.NAME.PID-N.tmp` (pnp/files.py `stage`): the next build removes those of
    processes that are gone, of files it makes there, and nothing else (an `--out` folder
    may hold a file of the user's that only looks like one)."""
    from pnp.files import stage, temp_owner

    staged = stage(outside / "x.svg", b"<svg/>")  # the names removed are the names `stage` gives
    assert temp_owner(Path(staged).name) == ("x.svg", os.getpid()) and Path(staged).name.startswith(".x.svg.")
    Path(staged).unlink()
    gone = subprocess.Popen(["true"])
    gone.wait()  # a process that has ended: its id is free
    root = demo.output_dir / "demo"
    for folder, made in ((root, "demo-print.pdf"), (root / "pdf", "card.pdf"), (root, ".pnp-cache.json")):
        dead, live = f".{made}.{gone.pid}-0.tmp", f".{made}.{os.getpid()}-0.tmp"
        kept = [live, ".notes.tmp", f"{made}.{gone.pid}-0.tmp", f".{made}.{gone.pid}-0.tmp.bak", f".{made}.{gone.pid}-a.tmp",
                f".notes.{gone.pid}-0.tmp"]  # the last: the user's, named as pnp names a temporary file of a file it never makes
        folder.mkdir(parents=True, exist_ok=True)
        for name in [dead, *kept]:
            (folder / name).write_text("half a file")
        (folder / f".{made}.{gone.pid}-1.tmp").symlink_to(outside / "victim.txt")  # a link is no file pnp staged
        assert runner.invoke(app, ["build", "--project", str(demo.root)]).exit_code == 0
        names = {p.name for p in folder.iterdir()}
        assert dead not in names and set(kept) <= names and f".{made}.{gone.pid}-1.tmp" in names
    assert (outside / "victim.txt").read_text() == "keep me\n"


def test_an_output_folder_linked_out_is_not_written_through(demo: Project, outside: Path):
    root = _built(demo)
    for name in list((root / "svg").iterdir()):
        __import__("shutil").rmtree(name)
    (root / "svg").rmdir()
    (outside / "svg").mkdir()
    (root / "svg").symlink_to(outside / "svg", target_is_directory=True)
    (root / ".pnp-cache.json").unlink(missing_ok=True)
    line, _ = run(demo, "build", "--format", "svg", "--force")
    assert "would leave the output folder" in line
    assert list((outside / "svg").iterdir()) == []


@pytest.mark.parametrize("level", ["output", "game"])
def test_a_project_output_linked_out_is_refused(demo: Project, outside: Path, level: str):
    target = outside / "out"
    target.mkdir()
    if level == "output":
        demo.output_dir.symlink_to(target, target_is_directory=True)
    else:
        demo.output_dir.mkdir()
        (demo.output_dir / "demo").symlink_to(target, target_is_directory=True)
    line, _ = run(demo, "build", "--format", "svg")
    located(line, "output" if level == "output" else "demo", None, "the output folder leads outside")
    assert list(target.iterdir()) == []


def test_a_game_folder_of_out_linked_out_is_refused(demo: Project, outside: Path, tmp_path: Path):
    """`--out DIR`: DIR/<game> a link leading out of DIR is refused as the project's own is."""
    target, out = outside / "out", tmp_path / "elsewhere"
    target.mkdir()
    out.mkdir()
    (out / "demo").symlink_to(target, target_is_directory=True)
    line, _ = run(demo, "build", "--format", "svg", "--out", str(out))
    located(line, "demo", None, "the output folder leads outside the output folder", "pass --out DIR")
    assert list(target.iterdir()) == []


# --- 3. faces name no file and run nothing ---------------------------------------------

@pytest.mark.parametrize("href", ["/etc/hostname", "file:///etc/hostname", "../../outside/secret.png", "https://example.com/x.png",
                                  "OUTSIDE"])
def test_an_image_href_outside_the_face_is_refused_at_its_line(demo: Project, outside: Path, href: str):
    href = str(outside / "secret.png") if href == "OUTSIDE" else href
    template = with_template(demo, f'<image href="{href}" width="10" height="10"/>')
    line, _ = run(demo, "build", "--format", "png")
    located(line, template.name, 3, "refers to", "outside the face")
    no_leak(demo)


@pytest.mark.parametrize("body", [
    '<rect width="5" height="5" style="fill: url(/etc/hostname)"/>',
    '<style>@import url(/etc/x.css);</style>',
    '<image xlink:href="/etc/hostname" xmlns:xlink="http://www.w3.org/1999/xlink" width="1" height="1"/>',
    '<image href="data:image/svg+xml;base64,{}" width="1" height="1"/>'.format(
        base64.b64encode(b'<svg xmlns="http://www.w3.org/2000/svg"><image href="/etc/hostname" width="1" height="1"/></svg>').decode()),
    '<script>alert(1)</script>',
    '<rect width="5" height="5" onload="alert(1)"/>',
    '<foreignObject width="5" height="5"><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>',
])
def test_a_face_that_reaches_out_or_runs_code_is_refused(demo: Project, body: str):
    template = with_template(demo, body)
    line, _ = run(demo, "build", "--format", "svg")
    located(line, template.name, None, "card/example")


SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">{}</svg>'


@pytest.mark.parametrize("face", [
    SVG.format('<rect width="5" height="5" style="fill: &#117;rl(/etc/hostname)"/>'),  # a character reference spells url(
    SVG.format('<rect width="5" height="5" style="fill: &#x55;RL(/etc/hostname)"/>'),
    '<!DOCTYPE svg [<!ENTITY u "url(/etc/hostname)">]>' + SVG.format('<rect width="5" height="5" style="fill: &u;"/>'),
    SVG.format('<rect width="5" height="5" ONLOAD="alert(1)"/>'),
    SVG.format('<rect width="5" height="5"\n\ton-load\n=\n"alert(1)"/>'),
    SVG.format('<rect width="5" height="5" xlink:onclick="alert(1)"/>'),
    SVG.format('<svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(1)</svg:script>'),
    SVG.format('<style>@IMPORT "/etc/x.css";</style>'),
    SVG.format('<style><![CDATA[rect { fill: URL(/etc/hostname) }]]></style>'),
    SVG.format('<use xlink:href="/etc/hostname#x"/>'),
    SVG.format('<iframe/>'),
])
def test_every_spelling_of_a_face_that_reaches_out_is_found(face: str):
    """The quick look for words that could refer out never waves through what the full walk
    of the parsed face refuses."""
    from pnp.render.hrefs import _first, external_reference

    assert _first(face.encode("utf-8"), 0) is not None  # the walk refuses it...
    assert external_reference(face) is not None  # ...and so does the check a build runs


def test_a_face_with_nothing_that_could_reach_out_passes_without_a_walk():
    from pnp.render import hrefs

    face = SVG.format('<text x="1" y="5" font-family="Fondamento" style="font-weight: bold">one on to, done</text>')
    assert hrefs.external_reference(face) is None
    assert not any(marker in face.lower() for marker in hrefs.MARKERS) and hrefs.EVENT.search(face.lower()) is None


def test_a_tampered_cache_face_is_rendered_again(demo: Project, outside: Path):
    """The build cache is input too: a face in it that names a file is never drawn."""
    result = runner.invoke(app, ["build", "--format", "png", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output
    root = demo.output_dir / "demo"
    before = (root / "png/card/example.png").read_bytes()
    cache = root / ".pnp-cache.json"
    text = (seal.unseal(cache.name, cache.read_bytes()) or b"").decode()
    assert "</svg>" in text
    tampered = text.replace("</svg>", f'<image href=\\"{outside / "secret.png"}\\" width=\\"60\\" height=\\"80\\"/></svg>')
    cache.write_bytes(seal.seal(cache.name, tampered.encode()))  # sealed with the user's own key: checked all the same
    (root / "png").rename(demo.root / "old-png")
    result = runner.invoke(app, ["build", "--format", "png", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output
    assert (root / "png/card/example.png").read_bytes() == before


def test_the_preview_page_loads_only_scripts_pnp_wrote(demo: Project):
    from pnp.tools.preview import STAMP

    demo.output_dir.mkdir()
    (demo.output_dir / STAMP).write_text("alert('the project ran this')\n")
    result = runner.invoke(app, ["preview", "--no-open", "--project", str(demo.root)]) if "--no-open" in _preview_help() else None
    if result is None:
        from pnp.build.driver import BuildOptions
        from pnp.tools.preview import preview

        preview(demo, None, BuildOptions())
    else:
        assert result.exit_code == 0, result.output
    page = (demo.output_dir / "index.html").read_text()
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', page) + re.findall(r'\.src = "([^"?]+)', page)
    assert scripts == [STAMP]
    assert (demo.output_dir / STAMP).read_text().startswith("pnpBuildStamp(")


def _preview_help() -> str:
    return runner.invoke(app, ["preview", "--help"]).output


# --- 4. resource bombs, each within the limits, located, promptly ---------------------

def _csv_game(demo: Project, text: str | bytes) -> Path:
    (demo.content_dir / "demo/cards.yaml").unlink()
    edit(manifest(demo), "items: cards.cards", "items: cards")
    path = demo.content_dir / "demo/cards.csv"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def test_a_csv_with_too_many_rows_stops_at_the_limit(demo: Project):
    _csv_game(demo, "id,title,text,copies\n" + "".join(f"c{i},T,x,1\n" for i in range(1_000_000)))  # 14 MiB would pass the size
    line, _ = run(demo, "validate", env={"PNP_TABLE_LIMITS": "size=64M"})
    located(line, "cards.csv", 20_001, "more than 20,000 rows", "PNP_TABLE_LIMITS=rows=N")


def test_a_csv_cell_too_long_is_refused(demo: Project):
    _csv_game(demo, "id,title,text,copies\nc1,T," + "x" * 20_000 + ",1\n")
    line, _ = run(demo, "validate")
    located(line, "cards.csv", 2, "a cell of 20,000 characters", "PNP_TABLE_LIMITS=cell=N")


def test_a_csv_row_too_wide_is_refused(demo: Project):
    _csv_game(demo, "id,title,text,copies\nc1,T,x,1" + "," * 3_000_000 + "\n")
    line, _ = run(demo, "validate")
    located(line, "cards.csv", 2, "a row of 3,000,004 cells: expected at most 1000 columns")


def test_a_csv_too_large_is_refused_before_reading(demo: Project):
    _csv_game(demo, "id,title,text,copies\n" + "c,T,x,1\n" * (9 * (1 << 20) // 8))
    line, _ = run(demo, "validate")
    located(line, "cards.csv", None, "more than 8 MiB", "PNP_TABLE_LIMITS=size=N")


def _xlsx(rows: int, pad: int = 0) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["id", "title", "text", "copies"])
    for i in range(rows):
        sheet.append([f"c{i}", "T", "x" * pad, 1])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_an_xlsx_that_unpacks_too_large_is_refused_before_openpyxl(demo: Project):
    data = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(_xlsx(1))) as good, zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as bomb:
        for info in good.infolist():
            bomb.writestr(info, good.read(info))
        bomb.writestr("xl/padding.xml", b" " * (2 << 20))  # 2 MiB of spaces deflate to a few KiB
    _csv_game(demo, "").unlink()
    (demo.content_dir / "demo/cards.xlsx").write_bytes(data.getvalue())
    line, _ = run(demo, "validate", env={"PNP_TABLE_LIMITS": "unzipped=1M"})
    located(line, "cards.xlsx", None, "unpacks to", "PNP_TABLE_LIMITS=unzipped=N")


def test_an_xlsx_with_too_many_rows_is_refused(demo: Project):
    _csv_game(demo, "").unlink()
    (demo.content_dir / "demo/cards.xlsx").write_bytes(_xlsx(60))
    line, _ = run(demo, "validate", env={"PNP_TABLE_LIMITS": "rows=50"})
    located(line, "cards.xlsx", None, "rows", "PNP_TABLE_LIMITS")


def test_a_limit_setting_that_is_not_a_number_is_one_line(demo: Project):
    _csv_game(demo, "id,title,text,copies\nc1,T,x,1\n")
    line, _ = run(demo, "validate", env={"PNP_TABLE_LIMITS": "rows=many"})
    assert line.startswith("PNP_TABLE_LIMITS: 'rows=many': expected KEY=NUMBER")


@pytest.mark.parametrize("kind", ["png", "svg", "inline"])
def test_a_picture_of_too_many_pixels_is_refused_before_decoding(demo: Project, kind: str):
    if kind == "png":
        (demo.content_dir / "demo/big.png").write_bytes(_png(50_000, 50_000))
        body = '<image href="{{ asset("big.png") }}" width="10" height="10"/>'
    elif kind == "svg":
        (demo.content_dir / "demo/big.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"/>')
        body = '<image href="{{ asset("big.svg") }}" width="10" height="10"/>'
    else:
        body = f'<image href="data:image/png;base64,{base64.b64encode(_png(50_000, 50_000)).decode()}" width="10" height="10"/>'
    template = with_template(demo, body)
    line, _ = run(demo, "build", "--format", "png")
    located(line, template.name, 3 if kind != "inline" else None, "more than 50,000,000", "PNP_PICTURE_LIMITS=pixels=N")
    assert not (demo.output_dir / "demo/png").exists()


@pytest.mark.parametrize("box", ["0 0 wide tall", "0 0 10"])
def test_an_svg_picture_whose_size_cannot_be_read_is_drawn(demo: Project, box: str):
    """No width, height or numeric viewBox: no size to refuse, so the picture is drawn at
    the size the face gives it (as the renderers do)."""
    (demo.content_dir / "demo/odd.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{box}"><rect width="1" height="1"/></svg>')
    with_template(demo, '<image href="{{ asset("odd.svg") }}" width="10" height="10"/>')
    result = runner.invoke(app, ["build", "--format", "png", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output
    assert (demo.output_dir / "demo/png/card/example.png").is_file()


def _damaged(name: str) -> bytes:
    """A picture that is damaged as its name says: cut in half (a download that stopped), or
    with garbage over a stretch of its JPEG scan data."""
    from PIL import Image

    whole = io.BytesIO()
    noise = Image.effect_noise((64, 64), 40)
    if name.endswith(".png"):
        noise.save(whole, "PNG")
    else:
        noise.convert("RGB").save(whole, "JPEG", quality=90, progressive="progressive" in name)
    data = whole.getvalue()
    middle = len(data) // 2
    if name.startswith("garbage"):  # past the headers, within the scan data
        return data[:middle] + bytes(range(256)) + data[middle + 256:]
    return data[:middle]


@pytest.mark.parametrize("name,formats", [
    ("cut.png", "svg"), ("cut.png", "pdf"), ("cut.png", "png"),
    ("cut.jpg", "svg"), ("cut.jpg", "pdf"), ("cut.jpg", "png"),
    ("cut-progressive.jpg", "png"), ("garbage.jpg", "png"),
])
def test_a_damaged_picture_is_refused_at_the_template_line(demo: Project, name: str, formats: str):
    """A PNG or JPEG cut short (a download that stopped): typst refused the face or drew
    grey and resvg drew part of it or left it out, so `--format png` built without a word."""
    (demo.content_dir / "demo" / name).write_bytes(_damaged(name))
    template = with_template(demo, f'<image href="{{{{ asset("{name}") }}}}" width="10" height="10"/>')
    line, _ = run(demo, "build", "--format", formats)
    located(line, template.name, 3, f"image '{name}': a damaged picture")
    assert not (demo.output_dir / "demo").exists()


@pytest.mark.parametrize("kind", ["file", "inline"])
def test_a_picture_pillow_cannot_identify_is_one_stable_line(demo: Project, kind: str):
    """A PNG signature followed by nothing a reader knows: the same line every run (Pillow's
    message names its in-memory file by address)."""
    data = b"\x89PNG\r\n\x1a\n" + bytes(40)
    if kind == "file":
        (demo.content_dir / "demo/odd.png").write_bytes(data)
        body = '<image href="{{ asset("odd.png") }}" width="10" height="10"/>'
    else:
        body = f'<image href="data:image/png;base64,{base64.b64encode(data).decode()}" width="10" height="10"/>'
    template = with_template(demo, body)
    first, _ = run(demo, "build", "--format", "svg")
    located(first, template.name, 3 if kind == "file" else None, "an unreadable picture (UnidentifiedImageError: cannot identify image file)")
    assert "0x" not in first and run(demo, "build", "--format", "svg")[0] == first
    assert not (demo.output_dir / "demo").exists()


@pytest.mark.parametrize("size", ["100000mm x 88mm", "63mm x 3000mm", "{width: .inf, height: 88}", "{width: .nan, height: 88}"])
def test_an_absurd_piece_size_is_refused(demo: Project, size: str):
    edit(manifest(demo), "size: poker", f"size: {size}")
    line, _ = run(demo, "validate")
    located(line, "game.yaml", line_of(manifest(demo), "size:"), "size")


# nine levels of ten `<use>` of the level below: a billion rectangles once expanded
USE_BOMB = "<defs><rect id='u0' width='1' height='1'/>" + "".join(
    f"<g id='u{level}'>" + f"<use href='#u{level - 1}'/>" * 10 + "</g>" for level in range(1, 10)) + "</defs><use href='#u9'/>"


@pytest.mark.parametrize("formats", ["pdf", "png", "tts"])
def test_a_use_bomb_is_refused_by_the_engines_naming_its_face(demo: Project, formats: str):
    with_template(demo, USE_BOMB)
    line, _ = run(demo, "build", "--format", formats)
    assert line.startswith("Demo: ") and "face card/example: " in line, line
    assert "nodes limit" in line, line
    assert not (demo.output_dir / "demo").exists()


def test_a_long_item_id_fails_before_any_file_is_written(demo: Project):
    ident = "a" * 250
    edit(demo.content_dir / "demo/cards.yaml", "id: example", f"id: {ident}")
    line, _ = run(demo, "build", "--format", "svg,pdf,png")
    located(line, "game.yaml", line_of(manifest(demo), "items:"), "has 250 characters, more than 100")
    assert not demo.output_dir.exists() or not any(p.is_file() for p in demo.output_dir.rglob("*.pdf"))


# --- 5. scoring sheets: YAML 1.1 surprises and grids -----------------------------------

TH = (REPO / "examples/tasty-humans-2p.yaml").read_text()


def score(tmp_path: Path, text: str, env: dict[str, str] | None = None) -> str:
    sheet = tmp_path / "sheet.yaml"
    sheet.write_text(text)
    started = time.perf_counter()
    result = runner.invoke(app, ["score", str(sheet), "--project", str(REPO)], env=env)
    assert time.perf_counter() - started < BOUND
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


@pytest.mark.parametrize("value, why", [
    ("052", "octal"), ("1:20", "base-60"), ("2024-05-02", "a date"), ("!!float abc", "the tag"), ("!!binary NDI=", "the tag"),
    ("!!python/object:os.system ls", "the tag"), ("4" * 5000, "a number of 5,000 characters"), ("1.0e+400", "too large"),
    (".inf", "infinity"), ("0x2A", "not a plain whole number"), ("!!int 42", "the tag"),
])
def test_a_number_yaml_1_1_would_misread_is_refused_at_its_line(tmp_path: Path, value: str, why: str):
    line = score(tmp_path, TH.replace("claimed: 42", f"claimed: {value}", 1))
    located(line, "sheet.yaml", TH.splitlines().index("    claimed: 42") + 1, why)


def test_plain_and_quoted_numbers_still_read(tmp_path: Path):
    sheet = tmp_path / "sheet.yaml"
    sheet.write_text(TH.replace("claimed: 42", "claimed: !!str 42", 1).replace("claimed: 28", "claimed: 28", 1))
    result = runner.invoke(app, ["score", str(sheet), "--project", str(REPO)])
    assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output


@pytest.mark.parametrize("side", [13, 50, 5000])
def test_a_sheet_cannot_ask_for_a_huge_grid(tmp_path: Path, side: int):
    changes = (f"changes:\n  stomach.columns: {side}\n  stomach.rows_by_players: {{1: {side}, 2: {side}, 3: {side}, 4: {side}}}\n"
               "  stomach.row_markers: []\n")
    text = TH.replace("ending: round\n", "ending: round\n" + changes, 1)
    line = score(tmp_path, text)
    located(line, "sheet.yaml", text.splitlines().index("changes:") + 1, f"is {side}: expected at most 12", "PNP_GRID_LIMITS=side=N")


# --- 6. the door is the only way in ----------------------------------------------------

# Every place in pnp that opens a file, and why it is not a project file read past the door.
ALLOWED_READS = {
    "load/project_files.py": "the door itself",
    "load/yamlio.py": "read_capped: callers pass paths through the door (content, pnp.yaml) or a sheet the user named",
    "load/sheets.py": "load_workbook: the data file's path came through the door (content._load_doc)",
    "load/manifest.py": "pnp's own presets",
    "load/plugins.py": "plugin Python: trust is pnp/load/plugins.py's (plugins are not project data)",
    "load/trust.py": "digests of plugin Python for trust, pnp's shipped plugins, the user's trust file (game.yaml through the door)",
    "load/fonts.py": "pnp's own fonts, or font paths resolved by GameContent.resolve_file (the door)",
    "formats/raster.py": "PNG bytes pnp rendered",
    "formats/engine_jobs.py": "digests of the font files load/fonts.py resolved through the door, which typst loads by the same paths",
    "build/witness.py": "digests of the paths the door let a build read (bytes hashed, never output) and of pnp's own code",
    "build/output.py": "files in the output folder (checked by Inside)",
    "build/cache.py": "the cache file and the digest of files the door lets through",
    "tools/goldens.py": "the repository's golden pictures",
    "tools/diff.py": "outputs and git revisions",
    "tools/shipped.py": "the games shipped inside pnp",
    "load/shipped.py": "the games shipped inside pnp",
    "tools/schema.py": "sheet names by glob for schemas (no content read)",
    "tools/scaffold.py": "pnp's own scaffold files",
    "cli.py": "writes a sheet template the user asked for",
    "simulate": "the balance lab's own outputs",
    "score": "the scoring sheet the user named",
}
READS = re.compile(r"(?<![\w.])open\(|\.read_text\(|\.read_bytes\(|load_workbook\(|FileSystemLoader\(|\.iterdir\(|\.glob\(|\.rglob\(|os\.walk\(")


def test_only_the_door_reads_project_files():
    found = []
    for path in sorted((REPO / "pnp").rglob("*.py")):
        rel = path.relative_to(REPO / "pnp").as_posix()
        if rel in ALLOWED_READS or rel.split("/")[0] in ALLOWED_READS:
            continue
        for n, text in enumerate(path.read_text().splitlines(), start=1):
            code = text.split("#")[0]
            if READS.search(code) and "project_files." not in code:
                found.append(f"pnp/{rel}:{n}: {text.strip()}")
    # the rest, line by line: listings and pnp's own files, each with its reason
    known = {
        ("pnp/load/content.py", "self.content_dir.iterdir()"): "lists content/: each game.yaml then goes through the door",
        ("pnp/load/content.py", "sorted(game_dir.iterdir())"): "lists a game's folder: each data file then goes through the door",
        ("pnp/render/faces.py", "FileSystemLoader(str(BUILTIN_TEMPLATES))"): "pnp's own templates (the project's: ProjectLoader)",
        ("pnp/render/pages.py", "FileSystemLoader(str(BUILTIN_TEMPLATES))"): "pnp's own page templates",
        ("pnp/render/faces.py", "Path(sandbox.__file__).read_bytes()"): "pnp's own sandbox code, naming the templates it compiled",
        ("pnp/render/defaulted.py", "Path(__file__).read_bytes()"): "pnp's own code, keying the fields it found templates guard",
        ("pnp/build/driver.py", "game.content_dir.rglob"): "sizes of content files, to order the games (nothing read)",
        ("pnp/load/content.py", "inside.iterdir()"): "names in the game's templates folder (through the door), for a misspelt template (nothing read)",
        ("pnp/load/content.py", "folder.iterdir()"): "names in the folder a picture's or font's name leads to (through the door), for a misspelt one (nothing read)",
        ("pnp/load/icons.py", "folder.parent.iterdir()"): "names beside a missing icon folder (its path through the door), for a misspelt one (nothing read)",
    }
    unexplained = [f for f in found if not any(f.startswith(file + ":") and fragment in f for file, fragment in known)]
    assert not unexplained, "read a project file through pnp.load.project_files, or explain it here:\n" + "\n".join(unexplained)


# --- 7. the no-op check and the build cache see every file a build reads --------------

def _recorded(demo: Project) -> list[str]:
    """Build the project (SVG) as the command line does, recording what it read for a
    no-op answer (pnp/build/witness.py); the paths recorded."""
    from pnp.build import witness
    from pnp.build.driver import BuildOptions, build
    from pnp.load.project_files import witnessed

    started = time.time_ns()
    with witnessed() as read:
        reports = build(demo, None, BuildOptions(formats=("svg",)))
    assert witness.record(demo.output_dir, ["build"], demo.root, read, {r.game: "built" for r in reports}, started)
    entry = json.loads(seal.unseal(witness.RECORD, (demo.output_dir / witness.RECORD).read_bytes()) or b"")["builds"].popitem()[1]
    return sorted([*entry["shared"], *(path for game in entry["games"].values() for path in game["read"])])


def _answered(demo: Project) -> bool:
    from pnp.build import witness

    known = witness.answer(demo.output_dir, ["build"])
    return known is not None and known.unchanged


def test_a_picture_in_a_dot_folder_is_seen_by_the_cache_and_the_no_op_check(demo: Project):
    art = demo.content_dir / "demo/.art"
    art.mkdir()
    (art / "pic.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1" fill="#f00"/></svg>')
    with_template(demo, '<image href="{{ asset(".art/pic.svg") }}" width="10" height="10"/>')
    _recorded(demo)
    root = demo.output_dir / "demo"
    before = (root / "svg/card/example.svg").read_text()
    assert _answered(demo)
    (art / "pic.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1" fill="#00f"/></svg>')
    assert not _answered(demo)
    _built(demo)
    assert (root / "svg/card/example.svg").read_text() != before


def test_a_plugin_data_file_is_part_of_the_code_stamp(demo: Project, trusted):
    from pnp.build.cache import code_stamp
    from pnp.load.content import load_game

    plugin = demo.root / "plugins/mini"
    plugin.mkdir(parents=True)
    (plugin / "__init__.py").write_text(
        "from pathlib import Path\nfrom pnp.api import GamePlugin\n"
        "PLUGIN = GamePlugin(template_globals={'motto': (Path(__file__).parent / 'motto.txt').read_text()})\n")
    (plugin / "motto.txt").write_text("first\n")
    edit(manifest(demo), "components:", "plugin: plugins/mini\ncomponents:")
    before = code_stamp(load_game(trusted(demo), "demo"))
    (plugin / "motto.txt").write_text("second\n")  # withdraws the trust too: a plugin's data is part of it
    assert code_stamp(load_game(trusted(demo), "demo")) != before


@pytest.mark.parametrize("command", [["schema"], ["sheet", "tasty-humans", "--players", "2"]])
def test_other_commands_do_not_write_through_a_linked_output(demo: Project, outside: Path, command: list[str]):
    target = outside / "out"
    target.mkdir()
    demo.output_dir.symlink_to(target, target_is_directory=True)
    line, _ = run(demo, *command)
    located(line, "", None, "the output folder leads outside the project")
    assert list(target.iterdir()) == []


def test_the_limits_are_documented():
    from conftest import docs_text
    from pnp.limits import FONTS, GRIDS, LOG, PICTURES, PIECES, PLUGINS, REVISION, TABLES, TEMPLATES, TEXTS

    readme = " ".join(docs_text("docs/security.md", "docs/scoring.md").split())  # the log's limits: Score at the table
    for bounds in (TABLES, PICTURES, TEMPLATES, FONTS, PIECES, GRIDS, REVISION, PLUGINS, TEXTS, LOG):
        assert f"`{bounds.env}`" in readme
        for key, value in bounds.defaults.items():
            shown = f"{value // (1 << 20)} MiB" if value >= 1 << 20 and key in ("size", "unzipped", "file", "total", "value", "json") else f"{value:,}"
            assert f"`{key}` {shown}" in readme, (bounds.env, key, shown)


def test_the_no_op_check_reads_no_file_a_link_leads_out_to(demo: Project, outside: Path):
    (demo.content_dir / "demo/notes").symlink_to(outside, target_is_directory=True)
    (outside / "victim.txt").write_text("first\n")
    read = _recorded(demo)
    assert not [path for path in read if not Path(path).is_relative_to(demo.root) and not path.endswith("trusted.json")], read
    (outside / "victim.txt").write_text("changed\n")  # never read: still a no-op
    assert _answered(demo)


def test_a_plugin_data_file_in_a_linked_plugins_folder_is_seen_by_the_no_op_check(demo: Project, outside: Path, trusted):
    plugin = outside / "plugins/mini"
    plugin.mkdir(parents=True)
    (plugin / "__init__.py").write_text(
        "from pathlib import Path\nfrom pnp.api import GamePlugin\n"
        "PLUGIN = GamePlugin(template_globals={'motto': (Path(__file__).parent / 'motto.txt').read_text()})\n")
    (plugin / "motto.txt").write_text("first\n")
    (demo.root / "plugins").symlink_to(outside / "plugins", target_is_directory=True)
    edit(manifest(demo), "components:", "plugin: plugins/mini\ncomponents:")
    trusted(demo)
    _recorded(demo)
    assert _answered(demo)
    (plugin / "motto.txt").write_text("second\n")
    assert not _answered(demo)


def _understated(data: bytes) -> bytes:
    """The workbook with its sheet's <dimension> saying two rows, whatever it holds."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as book, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as changed:
        for info in book.infolist():
            part = book.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                part = re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:D2"', part)
            changed.writestr(info, part)
    return out.getvalue()


def test_an_xlsx_whose_dimension_understates_its_rows_is_read_whole(demo: Project):
    """The hostile-project report's defect 17: the rows past a <dimension> were dropped silently."""
    from pnp.load.sheets import load_sheet

    path = demo.content_dir / "demo/cards.xlsx"
    path.write_bytes(_understated(_xlsx(60)))
    assert len(load_sheet(path).data) == 60
    _csv_game(demo, "").unlink()
    line, _ = run(demo, "validate", env={"PNP_TABLE_LIMITS": "rows=50"})
    located(line, "cards.xlsx", 51, "more than 50 rows", "PNP_TABLE_LIMITS")
