"""`pnp sheet GAME --players N --table`: the table's QR code (the link `pnp serve --lan`
prints) on the printable scoring sheet, decoded back from the SVG and the PDF."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("segno")
zxingcpp = pytest.importorskip("zxingcpp")

import pnp.serve as serve_module  # noqa: E402
import pnp.serve.sheetcode as sheetcode  # noqa: E402
from pnp.cli import app  # noqa: E402
from pnp.formats.raster import svg_to_image  # noqa: E402
from pnp.load.content import Project  # noqa: E402
from pnp.serve import INSTALL  # noqa: E402
from pnp.serve.log import Log  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
LAN = "127.0.0.1"  # the table's network, here the loopback (pnp serve binds to it)
MM = 1 / 25.4  # inches per mm

runner = CliRunner()


@pytest.fixture
def lan(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's network, the same for the sheet and the server."""
    monkeypatch.setattr(serve_module, "lan_address", lambda: LAN)
    monkeypatch.setattr(sheetcode, "lan_address", lambda: LAN)


def sheet(tmp_path: Path, *args: str, project: Path = REPO, game: str = "tasty-humans"):
    return runner.invoke(app, ["sheet", game, *args, "--project", str(project)])


def served_url(db: Path, port: int, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[str]]:
    """The URL and start-up lines of `pnp serve --lan` on this log (the server not started)."""
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *a, **kw: None)
    lines: list[str] = []
    serve_module.serve(Project(REPO), db, True, port, lines.append)
    return next(line for line in lines if line.startswith("open: ")).removeprefix("open: "), lines


def decoded(image) -> list[str]:
    return [r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode]


@pytest.mark.parametrize("game, players, paper", [("tasty-humans", 2, "letter"), ("tasty-humans", 4, "a4"),
                                                   ("dietrick-taking", 1, "letter"), ("dietrick-taking", 4, "a4")])
def test_the_sheet_carries_the_code_of_the_served_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lan: None, game: str, players: int, paper: str):
    import pypdfium2

    db = tmp_path / "log.sqlite"
    url, _ = served_url(db, 8431, monkeypatch)
    out = tmp_path / "out"
    result = sheet(tmp_path, "-n", str(players), "--paper", paper, "--table", "--port", "8431", "--db", str(db), "--out", str(out), game=game)
    assert result.exit_code == 0, result.output
    svg = (out / f"scoring-sheet-{players}p-table.svg").read_text(encoding="utf-8")
    assert decoded(svg_to_image(svg, 200)) == [url]
    page = pypdfium2.PdfDocument(out / f"scoring-sheet-{players}p-table.pdf")[0]
    assert decoded(page.render(scale=200 / 72).to_pil()) == [url]
    # large enough to scan from the table: at least 20 mm a side
    size = re.search(r'<image class="table-qr"[^>]* width="([\d.]+)" height="([\d.]+)"', svg)
    assert size and float(size[1]) == float(size[2]) >= 20
    # the plain sheet is still there, untouched, beside it
    assert not (out / f"scoring-sheet-{players}p.svg").exists()


@pytest.mark.parametrize("game, players", [("tasty-humans", 3), ("dietrick-taking", 4), ("dietrick-taking", 1)])
def test_the_code_covers_nothing_and_only_its_neighbours_make_room(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lan: None,
                                                                   game: str, players: int):
    """Around the code (and a 2 mm quiet zone) the sheet is blank. Tasty Humans' code takes
    the header's right end: below the header the sheet is the plain one, element for element.
    Dietrick-taking's stands right of the rules of the end (4 players: the fullest sheet):
    everything above them is the plain sheet's."""
    db = tmp_path / "log.sqlite"
    Log(db).token()
    assert sheet(tmp_path, "-n", str(players), "--table", "--db", str(db), "--out", str(tmp_path / "t"), game=game).exit_code == 0
    assert sheet(tmp_path, "-n", str(players), "--out", str(tmp_path / "p"), game=game).exit_code == 0
    table = (tmp_path / "t" / f"scoring-sheet-{players}p-table.svg").read_text(encoding="utf-8")
    plain = (tmp_path / "p" / f"scoring-sheet-{players}p.svg").read_text(encoding="utf-8")
    if game == "tasty-humans":
        below = '<g class="player"'
        assert table[table.index(below):] == plain[plain.index(below):]
    else:
        above = table[:table.index('<image class="table-qr"')]
        assert plain.startswith(above) and '<g class="table">' in above
    box = re.search(r'<image class="table-qr"[^>]* x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"', table)
    assert box
    x, y, side = (float(v) for v in box.groups())
    without = re.sub(r'<image class="table-qr"[^>]*/>', "", table)
    dpi = 100
    ink = svg_to_image(without, dpi).convert("L")
    px = dpi * MM
    around = ink.crop((round((x - 2) * px), round(max(y - 2, 0) * px), round(min(x + side + 2, 200) * px), round((y + side + 2) * px)))
    assert around.getextrema()[0] >= 250, "something is drawn where the code goes"


def test_without_a_table_one_line_says_to_start_the_server_first(tmp_path: Path, lan: None):
    db = tmp_path / "log.sqlite"
    result = sheet(tmp_path, "-n", "2", "--table", "--db", str(db), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.output.strip() == f"pnp sheet: --table: no table in {db} yet: run `pnp serve --lan` once (it makes the table's link), then print the sheet"
    assert not db.exists() and not (tmp_path / "out").exists()  # nothing written
    Log(db)  # a log without a token yet
    again = sheet(tmp_path, "-n", "2", "--table", "--db", str(db), "--out", str(tmp_path / "out"))
    assert again.exit_code == 2 and "no table in" in again.output and not (tmp_path / "out").exists()


def test_bad_table_options_get_one_line(tmp_path: Path, lan: None):
    db = tmp_path / "log.sqlite"
    Log(db).token()
    port = sheet(tmp_path, "-n", "2", "--table", "--port", "0", "--db", str(db), "--out", str(tmp_path / "out"))
    assert port.exit_code == 2 and port.output.strip() == "pnp sheet: --port 0: expected 1 to 65535"
    template = sheet(tmp_path, "-n", "2", "--table", "--template", "--db", str(db))
    assert template.exit_code == 2
    assert template.output.strip() == "pnp sheet: --table prints the code on the printable sheet: leave out --template and --schema"


@pytest.mark.parametrize("args,said", [
    (["--port", "9000"], "--port names the table's server: it goes with --table"),
    (["--db", "log.sqlite"], "--db names the table's server: it goes with --table"),
    (["--template", "--schema"], "--template and --schema each write one file: give one of them"),
])
def test_options_that_would_be_ignored_are_refused(tmp_path: Path, args: list[str], said: str):
    result = sheet(tmp_path, "-n", "2", *args, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and result.output.strip() == f"pnp sheet: {said}", result.output
    assert not (tmp_path / "out").exists()


def test_without_a_network_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import socket

    class NoRoute(socket.socket):
        def connect(self, address):  # no default route: the kernel finds no interface
            raise OSError("Network is unreachable")

    db = tmp_path / "log.sqlite"
    Log(db).token()
    monkeypatch.setattr(socket, "socket", NoRoute)
    result = sheet(tmp_path, "-n", "2", "--table", "--db", str(db), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.output.strip() == "pnp sheet: --table: no local network found: connect to the table's Wi-Fi (the code holds this computer's address on it)"


def test_without_the_extra_the_install_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import builtins

    real = builtins.__import__

    def no_segno(name, *args, **kwargs):
        if name == "segno":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_segno)
    result = sheet(tmp_path, "-n", "2", "--table", "--db", str(tmp_path / "log.sqlite"), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and result.output.strip() == INSTALL


def test_a_sheet_template_with_no_place_for_the_code_is_refused(tmp_path: Path, lan: None):
    """A game whose sheet ignores `item.table` gets one line, not a sheet without the code."""
    project = tmp_path / "project"
    assert runner.invoke(app, ["init", str(project), "--example", "tasty-humans"]).exit_code == 0
    template = project / "templates" / "tasty-humans" / "scoring-sheet.svg.j2"
    text = template.read_text(encoding="utf-8")
    template.write_text(re.sub(r'<image class="table-qr"[^\n]*\n', "", text), encoding="utf-8")
    Log(project / "pnp-log.sqlite").token()
    result = sheet(tmp_path, "-n", "2", "--table", "--out", str(tmp_path / "out"), project=project)
    assert result.exit_code == 2
    assert result.output.strip() == ("tasty-humans: its scoring sheet (scoring-sheet.svg.j2) has no place for the table's QR code "
                                     "(`item.table`); print it without --table")
    assert not (tmp_path / "out").exists()


def test_serve_lan_says_how_to_print_the_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lan: None):
    monkeypatch.chdir(REPO)
    db = tmp_path / "log.sqlite"
    _, lines = served_url(db, 8431, monkeypatch)
    assert f"print this code on the scoring sheet: pnp sheet GAME --players N --table --port 8431 --db {db}" in lines
    monkeypatch.chdir(tmp_path)  # another folder than the project's: the line names the project
    _, lines = served_url(db, 8000, monkeypatch)
    assert f"print this code on the scoring sheet: pnp sheet GAME --players N --table --project {REPO} --db log.sqlite" in lines  # paths as the log line shows them
