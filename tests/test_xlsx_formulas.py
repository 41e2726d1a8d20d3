"""An XLSX cell holding a formula whose value was never saved (a file a script or an export
wrote; the w10 new designer's defect 4) is no empty cell: it is reported at its own row and
column, saying what to do, once a column; a formula with its saved value reads that value."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook

from pnp.errors import PnpError
from pnp.load.sheets import load_sheet

HEADER = ["id", "kind", "name", "power"]


def workbook(path: Path, formulas: dict[str, str]) -> Path:
    book = Workbook()
    sheet = book.active
    sheet.append(HEADER)
    for n in range(1, 6):
        sheet.append([f"c{n}", "creature", f"Beast {n}", n])
    for cell, formula in formulas.items():
        sheet[cell] = formula
    book.save(path)
    return path


def errors(path: Path) -> list[str]:
    with pytest.raises(PnpError) as info:
        load_sheet(path)
    return [str(e) for e in info.value.errors]


def test_a_formula_without_a_saved_value_is_named_at_its_cell(tmp_path: Path):
    path = workbook(tmp_path / "cards.xlsx", {"C5": '=CONCATENATE("Bog ","X")'})
    assert errors(path) == [f"{path}:5:3: name: the cell holds a formula (=CONCATENATE(\"Bog \",\"X\")) with no saved value: "
                            "open and save the file in a spreadsheet program (or type the value)"]


def test_a_column_of_such_formulas_is_one_line(tmp_path: Path):
    path = workbook(tmp_path / "cards.xlsx", {f"D{n}": f"=A{n}*2" for n in range(2, 7)} | {"A1": "=LOWER(\"ID\")"})
    assert errors(path) == [
        f"{path}:1:1: the cell holds a formula (=LOWER(\"ID\")) with no saved value: open and save the file in a spreadsheet program (or type the value)",
        f"{path}:2:4: power: the cell holds a formula (=A2*2) with no saved value: open and save the file in a spreadsheet program "
        "(or type the value) (and 4 more cells of this column)"]


def test_a_saved_formula_reads_its_value_and_an_empty_cell_stays_missing(tmp_path: Path):
    path = workbook(tmp_path / "cards.xlsx", {"C5": '=CONCATENATE("Bog ","X")', "D3": None})
    with zipfile.ZipFile(path) as book:  # as a spreadsheet program saves it: the formula and its value
        parts = {name: book.read(name) for name in book.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    parts[sheet] = re.sub(rb'(<c r="C5"[^>]*)>(<f>.*?</f>)(<v\s*/>|<v></v>)?</c>',
                          rb'\1 t="str">\2<v>Bog X</v></c>', parts[sheet])
    assert b"<v>Bog X</v>" in parts[sheet]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as book:
        for name, data in parts.items():
            book.writestr(name, data)
    path.write_bytes(out.getvalue())
    records = load_sheet(path).data
    assert records[3]["name"] == "Bog X"
    assert "power" not in records[1]
