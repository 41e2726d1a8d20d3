"""`pnp score` given a spreadsheet says in one line that scoring sheets are YAML; every
other message about a sheet file stays as it was."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from typer.testing import CliRunner

from pnp.cli import app
from test_th_scoring_sheet import BASE

REPO = Path(__file__).resolve().parent.parent


def score(path: Path):
    return CliRunner().invoke(app, ["score", str(path), "--project", str(REPO)])


def test_csv_and_xlsx_get_one_line_saying_sheets_are_yaml(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("dt.csv").write_text("game,players\ndietrick-taking,3\n", encoding="utf-8")
    book = openpyxl.Workbook()
    book.active.append(["game", "players"])
    book.save("dt.xlsx")
    for name, kind in [("dt.csv", "CSV"), ("dt.xlsx", "XLSX")]:
        result = score(Path(name))
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert result.output.strip() == (f"{name}: scoring sheets are YAML files (`pnp sheet <game> --template` writes a blank one); "
                                         f"{kind} files are read only as content data")


def test_other_messages_stay(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("named.csv").write_text(BASE, encoding="utf-8")  # a YAML sheet, whatever its name
    assert score(Path("named.csv")).exit_code == 0
    Path("list.yaml").write_text("- a\n- b\n", encoding="utf-8")
    assert score(Path("list.yaml")).output.strip() == "list.yaml:1:1: expected a mapping with `game:`, `players:` ..."
    assert score(Path("gone.csv")).output.strip() == "gone.csv: file not found"


def test_an_empty_sheet_is_refused_at_line_1(tmp_path, monkeypatch):
    """An empty sheet (or one of comments only) was refused with no line: `empty.yaml: expected ...`."""
    monkeypatch.chdir(tmp_path)
    for text in ("", "# nothing written yet\n"):
        Path("empty.yaml").write_text(text, encoding="utf-8")
        result = score(Path("empty.yaml"))
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert result.output.strip() == "empty.yaml:1:1: expected a mapping with `game:`, `players:` ..."
