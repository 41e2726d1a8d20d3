"""A designer's malformed inputs, each met through `pnp validate`: one located line
(file:line:column: what is expected) per mistake and exit 2, never a traceback.

Every case builds a tiny game `g` in a scratch project: a game.yaml with no components and
the data files, icons or options the case is about."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from pnp.cli import app

runner = CliRunner()


def write_game(root: Path, game_yaml: str, files: dict[str, str | bytes]) -> None:
    folder = root / "content/g"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(f"title: G\ncomponents: []\n{game_yaml}")
    for name, body in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(body, bytes):
            path.write_bytes(body)
        else:
            path.write_text(body)


def problems(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game_yaml: str, files: dict[str, str | bytes], *args: str) -> list[str]:
    """The lines `pnp validate g` prints for this game (paths relative to the project); exit 2."""
    write_game(tmp_path, game_yaml, files)
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["validate", "g", "--project", ".", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return result.output.strip().splitlines()


# ------------------------------------------------------------------ typed records (`data:` fields)

THINGS = "data:\n  things:\n    fields:\n      id: id\n      {field}\n"


@pytest.mark.parametrize("field, value, expected", [
    ("name: text", "true", "name: expected text"),
    ("name: text", "[a, b]", "name: expected text"),
    ("colour: colour", "{r: 1}", "colour: expected text"),
    ("flag: bool", "maybe", "flag: 'maybe': expected true or false"),
    ("flag: bool", "3", "flag: 3: expected true or false"),
    ("tags: list", "3", "tags: 3: expected a list (in a sheet: values separated by ';')"),
    ("n: int", "[1]", "n: [1]: expected a number"),
    ("n: int", "true", "n: true: expected a number"),  # before: "True", Python's spelling
    ("n: number", "lots", "n: 'lots': expected a number"),
    ("n: int", "2.5", "n: 2.5: expected a whole number"),
    ("n: int", "1e999", "n: '1e999': expected a finite number"),  # was an internal error (OverflowError)
    ("n: number", "nan", "n: 'nan': expected a finite number"),  # was taken as a number
    ("n: number", "-inf", "n: '-inf': expected a finite number"),
    ("n: int", ".inf", "n: .inf: expected a finite number"),  # was an internal error (OverflowError): YAML's own spelling
    ("n: number", ".nan", "n: .nan: expected a finite number"),  # was taken as a number
    ("n: number", "-1.0e+999", "n: -.inf: expected a finite number"),
    ("n: {type: int, min: 1}", "0", "n: 0 is too small: expected 1 or more"),
    ("n: {type: number, max: 2.5}", "2.75", "n: 2.75 is too large: expected 2.5 or less"),
    ("size: {one_of: [S, M]}", "L", "size: 'L' is not allowed: expected one of S, M"),
    ("tags: {type: list, one_of: [x, y]}", "[x, z]", "tags: 'z' is not allowed: expected one of x, y"),
])
def test_a_value_of_the_wrong_kind_is_located_at_the_value(tmp_path, monkeypatch, field, value, expected):
    key = field.partition(":")[0]
    lines = problems(tmp_path, monkeypatch, THINGS.format(field=field), {"things.yaml": f"- {{id: a, {key}: {value}}}\n"})
    assert lines == [f"content/g/things.yaml:1:11: {expected}"]  # at the field's key


KIN = "kin: {type: id, ref: things, required: false}"


@pytest.mark.parametrize("game_yaml, files, expected", [
    (THINGS.format(field="n: int"), {"things.yaml": "- {id: Apple, n: 1}\n"},
     "things.yaml:1:4: id: 'Apple' is not an id: expected lower-case letters, digits and '-'"),
    ("data:\n  things:\n    records: things\n    fields:\n      id: id\n", {"things.yaml": "things: {id: a}\n"},
     "things.yaml:1:1: expected a list of records under the key 'things'"),
    (THINGS.format(field=KIN), {"things.yaml": "- {id: a}\n- just a\n- {id: b, kin: a}\n"}, "things.yaml:2:3: record 2: expected a mapping of field: value"),
    # an optional ref may be left out (record a); a wrong one is located once the file is typed
    (THINGS.format(field=KIN), {"things.yaml": "- {id: a}\n- {id: b, kin: a}\n- {id: c, kin: d}\n"},
     "things.yaml:3:11: kin: 'd' is not an id in things: expected one of a, b, c"),
    # `unique` compares single values; a list value (a YAML list) is left to its own checks
    (THINGS.format(field="tags: {type: list, unique: true}\n      n: int"), {"things.yaml": "- {id: a, tags: [x], n: 1}\n- {id: b, tags: [x], n: one}\n"},
     "things.yaml:2:22: n: 'one': expected a whole number"),
    (THINGS.format(field="kin: {type: id, ref: nothing.here}"), {"things.yaml": "- {id: a, kin: a}\n"},
     "game.yaml:7:23: ref 'nothing.here' names no list of records: expected a data file or a dotted path into one"),
    # before: "'x' is not an id in kinds: expected one of kinds" once a record (the file's keys)
    (THINGS.format(field="kin: {type: id, ref: kinds}"), {"things.yaml": "- {id: a, kin: x}\n- {id: b, kin: x}\n", "kinds.yaml": "kinds: [{id: x}]\n"},
     "game.yaml:7:23: ref 'kinds': the records of kinds.yaml are not declared: expected `kinds: {records: kinds}` under `data:` "
     "(the key of kinds.yaml holding the list), or `ref: kinds.kinds`"),
    # a spec without fields takes any header
    ("data:\n  things:\n    count: 3\n", {"things.csv": "id,whatever\na,1\n"}, "things.csv:1:1: 1 records: expected exactly 3 (count in game.yaml)"),
])
def test_records_that_break_their_spec_are_one_located_line(tmp_path, monkeypatch, game_yaml, files, expected):
    assert problems(tmp_path, monkeypatch, game_yaml, files) == [f"content/g/{expected}"]


@pytest.mark.parametrize("ref, declared", [("kinds", "  kinds: {records: kinds}\n"), ("kinds.kinds", ""), ("kinds", "")])
def test_both_fixes_the_undeclared_ref_message_names_work(tmp_path, ref, declared):
    from pnp.load.content import Project, load_game

    kinds = "kinds: [{id: x}]\n" if declared or "." in ref else "x: {name: X}\n"  # the last: a mapping of id -> record
    write_game(tmp_path, THINGS.format(field=f"kin: {{type: id, ref: {ref}}}") + declared, {"things.yaml": "- {id: a, kin: x}\n", "kinds.yaml": kinds})
    assert load_game(Project(tmp_path), "g").namespace()["things"] == [{"id": "a", "kin": "x"}]


def test_typed_values_reach_the_templates_converted(tmp_path, monkeypatch):
    """YAML booleans and lists pass as they are; a sheet's "yes", "2.5" and "a; b" are typed."""
    from pnp.load.content import Project, load_game

    spec = "data:\n  things:\n    fields:\n      id: id\n      flag: bool\n      tags: list\n      n: number\n"
    write_game(tmp_path, spec, {"things.csv": "id,flag,tags,n\na,yes,x; y,2.5\nb,False,z,3\n"})
    things = load_game(Project(tmp_path), "g").namespace()["things"]
    assert things == [{"id": "a", "flag": True, "tags": ["x", "y"], "n": 2.5}, {"id": "b", "flag": False, "tags": ["z"], "n": 3}]


def test_yaml_booleans_and_lists_pass_as_they_are(tmp_path, monkeypatch):
    from pnp.load.content import Project, load_game

    spec = "data:\n  things:\n    fields:\n      id: id\n      flag: bool\n      tags: list\n"
    write_game(tmp_path, spec, {"things.yaml": "- {id: a, flag: true, tags: [x, y]}\n"})
    assert load_game(Project(tmp_path), "g").namespace()["things"] == [{"id": "a", "flag": True, "tags": ["x", "y"]}]


# ------------------------------------------------------------------ game options (`--set`)

OPTIONS = "options:\n  fancy: {type: bool}\n  level: {choices: [1, 2]}\n  deck: {choices: %s}\n"


def build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game_yaml: str, files: dict[str, str | bytes], *args: str) -> list[str]:
    """The lines `pnp build g` prints for this game; exit 2 and no output folder."""
    write_game(tmp_path, game_yaml, files)
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["build", "g", "--project", ".", "--out", "out", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.output
    assert not (tmp_path / "out").exists()
    return result.output.strip().splitlines()


@pytest.mark.parametrize("given, expected", [
    ("fancy=maybe", "content/g/game.yaml:4:3: --set fancy=maybe: expected true or false (g option 'fancy')"),
    ("fancy", "pnp build: --set 'fancy': expected KEY=VALUE, e.g. --set rules=0.2.8"),
    ("=yes", "pnp build: --set '=yes': expected KEY=VALUE, e.g. --set rules=0.2.8"),
    ("level=3", "content/g/game.yaml:5:3: --set level=3: expected one of 1, 2 (g option 'level')"),
])
def test_a_wrong_set_option_is_one_line(tmp_path, monkeypatch, given, expected):
    assert build(tmp_path, monkeypatch, OPTIONS % "things", {"things.yaml": "- {id: a}\n"}, "--set", given) == [expected]


def test_choices_from_a_path_that_holds_no_list_are_located(tmp_path, monkeypatch):
    """A missing step and a single value both name no choices."""
    for path, line in (("things.nothing", "content/g/game.yaml:6:10"), ("things.size", "content/g/game.yaml:6:10")):
        lines = build(tmp_path / path, monkeypatch, OPTIONS % path, {"things.yaml": "size: 3\n"}, "--set", "deck=a")
        assert lines == [f"{line}: choices {path!r} names no list or mapping in the content: expected a path such as 'rules.versions'"]


def test_set_values_are_typed_as_the_option_and_its_choices(tmp_path):
    from pnp.build.driver import BuildOptions
    from pnp.load.content import Project, load_game

    write_game(tmp_path, OPTIONS % "things", {"things.yaml": "- {id: a}\n- {id: b}\n"})
    game = load_game(Project(tmp_path), "g")
    values = BuildOptions(extra={"fancy": "Yes", "level": "2", "deck": "b"}).game_options([game])["g"]
    assert (values["fancy"], values["level"], values["deck"]) == (True, 2, "b")  # `level=2` is the choice 2, a number
    values = BuildOptions(extra={"fancy": "off"}).game_options([game])["g"]
    assert values["fancy"] is False


def test_min_and_max_of_a_text_option_are_located(tmp_path, monkeypatch):
    lines = problems(tmp_path, monkeypatch, "options:\n  name: {min: 1}\n", {})
    assert len(lines) == 1 and lines[0].startswith("content/g/game.yaml:4:") and "min/max need `type: int` or `type: number`" in lines[0], lines


# ------------------------------------------------------------------ data sheets (CSV, XLSX)

NAMES = "data:\n  things:\n    fields:\n      id: id\n      name: text\n"


@pytest.mark.parametrize("csv, expected", [
    # before: the open quote took in every row after it, and validate said `ok`
    ('id,name\na,"Apple\nb,Banana\nc,Cherry\n', "things.csv:2: malformed CSV row (unexpected end of data)"),
    ('id,name\na,Apple\nb,"Big" Banana\n', "things.csv:3: malformed CSV row (',' expected after '\"')"),
    (b"id,name\na,Apple\nb,Poir\xe9\n", "things.csv:3: not UTF-8 text (invalid continuation byte): save the CSV as UTF-8"),
    ("\n,,\n", "things.csv: empty sheet: expected a header row naming the fields, then one row per record"),
    ("id,name,name\na,Apple,Pomme\n", "things.csv:1:3: column 'name' appears twice in the header"),
    # before: a short row was read silently, its values shifted into the wrong fields (a blank line stays skipped)
    ("id,name\na,Apple\n\nb\n", "things.csv:4: 1 cell, the header names 2 (id, name): expected a cell for every column, empty ones too ('a,,c')"),
    # before: a line a field declared and one unknown column 'id;name;n'
    ("id;name\na;Apple\n", "things.csv:1: the header looks separated by ';': pnp reads comma-separated CSV (export with ',' as the separator"),
])
def test_a_malformed_csv_is_one_located_line(tmp_path, monkeypatch, csv, expected):
    (line,) = problems(tmp_path, monkeypatch, NAMES, {"things.csv": csv})
    assert line.startswith(f"content/g/{expected}"), line


def test_a_quoted_text_may_hold_commas_quotes_and_line_breaks(tmp_path):
    from pnp.load.content import Project, load_game

    write_game(tmp_path, NAMES, {"things.csv": 'id,name\na,"Apple, ""red""\nand round"\n'})
    assert load_game(Project(tmp_path), "g").namespace()["things"] == [{"id": "a", "name": 'Apple, "red"\nand round'}]


def workbook(rows: list[list], title: str = "Sheet") -> bytes:
    import io

    from openpyxl import Workbook

    book = Workbook()
    book.active.title = title
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def zipped(name: str, body: str) -> bytes:
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(name, body)
    return out.getvalue()


@pytest.mark.parametrize("game_yaml, files, expected", [
    (NAMES, {"things.xlsx": b"id,name\na,Apple\n"}, "things.xlsx: not a readable .xlsx workbook (BadZipFile: File is not a zip file)"),
    (NAMES, {"things.xlsx": zipped("notes.txt", "hello")}, "things.xlsx: not a readable .xlsx workbook (KeyError:"),
    # before: at the workbook, not at the `sheet:` that names it
    (NAMES + "    sheet: Prices\n", {"things.xlsx": workbook([["id", "name"], ["a", "Apple"]], "Things")}, "game.yaml:8:5: things.xlsx has no worksheet 'Prices': expected one of Things"),
    # before: accepted without a word, and the CSV read as if `sheet:` were not there
    (NAMES + "    sheet: Prices\n", {"things.csv": "id,name\na,Apple\n"},
     "game.yaml:8:5: sheet: Prices: 'things' has no workbook (things.csv): expected `sheet:` only for a .xlsx file"),
    (NAMES, {"things.xlsx": workbook([["id", "name", 3], ["a", "Apple", 1]])}, "things.xlsx:1:3: unknown column '3': expected one of id, name"),
    (NAMES, {"things.csv": "id,name\n", "things.xlsx": workbook([["id", "name"]])}, "things.xlsx: 2 sheets for 'things' (things.csv, things.xlsx): expected one"),
    (NAMES, {"things.csv": "id,name\na,Apple\n", "things.yaml": "- {id: b, name: Banana}\n"},
     "things.csv: both things.yaml and things.csv exist: declare `records: KEY` for this file in game.yaml"),
    (NAMES + "    records: rows\n", {"things.csv": "id,name\na,Apple\n", "things.yaml": "- {id: b, name: Banana}\n"},
     "things.yaml:1:1: expected a mapping: the rows of things.csv go under its key 'rows'"),
    (NAMES + "    records: rows\n", {"things.csv": "id,name\na,Apple\n", "things.yaml": "title: T\nrows: []\n"},
     "things.yaml:2:1: 'rows' is both here and in things.csv: expected it in one place"),
    # before: named the YAML file, at the sheet's line and column
    (NAMES + "    records: rows\n", {"things.csv": "id,name,n\na,Apple,1\n", "things.yaml": "title: T\n"}, "things.csv:1:3: unknown column 'n': expected one of id, name"),
    (NAMES, {}, "game.yaml:4:3: data file 'things' not found: expected content/g/things.yaml, .csv or .xlsx"),
])
def test_a_sheet_that_cannot_be_read_as_records_is_one_line(tmp_path, monkeypatch, game_yaml, files, expected):
    (line,) = problems(tmp_path, monkeypatch, game_yaml, files)
    assert line.startswith(f"content/g/{expected}"), line


def test_errors_in_a_workbook_of_several_worksheets_name_the_worksheet(tmp_path, monkeypatch):
    """Before: `things.xlsx:1: missing column 'id'` about a worksheet the designer did not know was read."""
    import io

    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(workbook([["id", "name"], ["a", "Apple"], ["a", "Apricot"]], "Things")))
    book.create_sheet("Notes", 0).append(["scratch"])
    out = io.BytesIO()
    book.save(out)
    lines = problems(tmp_path / "first", monkeypatch, NAMES, {"things.xlsx": out.getvalue()})
    assert all(line.startswith("content/g/things.xlsx:1") and "worksheet 'Notes' (the first): " in line for line in lines), lines
    assert "content/g/things.xlsx:1:1: worksheet 'Notes' (the first): unknown column 'scratch': expected one of id, name" in lines
    lines = problems(tmp_path / "named", monkeypatch, NAMES + "    sheet: Things\n", {"things.xlsx": out.getvalue()})
    assert lines == ["content/g/things.xlsx:3:1: worksheet 'Things': id 'a' appears twice (first on line 2): expected unique values"]
    monkeypatch.setenv("PNP_TABLE_LIMITS", "rows=2")  # a limit met while reading names the worksheet too
    lines = problems(tmp_path / "limit", monkeypatch, NAMES + "    sheet: Things\n", {"things.xlsx": out.getvalue()})
    assert lines == ["content/g/things.xlsx: worksheet 'Things' has 3 rows and 2 columns: expected at most 2 rows "
                     "(the limit for a data sheet (set PNP_TABLE_LIMITS=rows=N to change it)) and 1000 columns"], lines


def test_a_sheet_under_a_key_of_its_yaml_file_and_whole_numbers_of_a_workbook(tmp_path):
    """The rows go under `records:` beside the YAML's other keys; a workbook's 3.0 is the int 3."""
    from pnp.load.content import Project, load_game

    spec = NAMES + "      n: int\n    records: rows\n"
    write_game(tmp_path, spec, {"things.xlsx": workbook([["id", "name", "n"], ["a", "Apple", 3.0]]), "things.yaml": "title: Fruit\n"})
    things = load_game(Project(tmp_path), "g").namespace()["things"]
    assert things == {"title": "Fruit", "rows": [{"id": "a", "name": "Apple", "n": 3}]}


# ------------------------------------------------------------------ icon sets

SVG = '<svg xmlns="http://www.w3.org/2000/svg" %s><path d="M0 0h4v4z"/></svg>'


@pytest.mark.parametrize("game_yaml, files, expected", [
    ("icons:\n  marks: {folder: pics}\n", {}, "game.yaml:4:11: folder not found: pics (looked in content/g/)"),
    # before: "folder not found: icon" alone, beside the folder icons/
    ("icons:\n  marks: {folder: icon}\n", {"icons/star.svg": SVG % 'viewBox="0 0 4 4"'},
     "game.yaml:4:11: folder not found: icon (looked in content/g/) (did you mean 'icons'?)"),
    ("icons:\n  marks: {folder: pics}\n", {"pics/.DS_Store": "hidden", "pics/LICENSE.txt": "CC BY 3.0"}, "game.yaml:4:11: no .svg files in pics: expected one file per icon, named <id>.svg"),
    ("icons:\n  marks: {folder: pics}\n", {"pics/star.svg": SVG % 'viewBox="0 0 4 4"', "pics/moon.png": "PNG"},
     "pics/moon.png: not an SVG file: an icon folder holds one <id>.svg file per icon (convert it to SVG)"),
    ("icons:\n  marks: {folder: pics}\n", {"pics/star.svg": "<svg><path></svg>"}, "pics/star.svg:1:14: not well-formed SVG: mismatched tag"),
    ("icons:\n  marks: {folder: pics}\n", {"pics/star.svg": '<svg viewBox="0 0 4 4"/>'}, "pics/star.svg:1: expected an <svg> root element in the SVG namespace"),
    ("icons:\n  marks: {folder: pics}\n", {"pics/star.svg": SVG % 'width="4"'}, "pics/star.svg:1: expected a viewBox (or width and height) on the <svg> element"),
    # before: loaded, then the icon drawn nowhere (a box the renderers cannot read), with no word why
    *[("icons:\n  marks: {folder: pics}\n", {"pics/star.svg": '<?xml version="1.0"?>\n<!-- star -->\n' + SVG % box},
       f"pics/star.svg:3:1: <svg> {problem}")
      for box, problem in (('viewBox="0 0 24"', "viewBox '0 0 24' is not a viewBox: expected four numbers, min-x min-y width height, "
                                                "the width and height above 0"),
                           ('viewBox="0 0 0 24"', "viewBox '0 0 0 24' is not a viewBox"),
                           ('width="24px" height="24px"', "width '24px' and height '24px' make no viewBox: expected a viewBox on the "
                                                          "<svg> element (or a width and height that are plain numbers above 0)"),
                           ('width="0" height="6"', "width '0' and height '6' make no viewBox"))],
    ("icons:\n  marks: {file: marks.yaml}\n", {"marks.yaml": "- M0 0h4\n"}, "marks.yaml:1:1: expected a mapping of icon id -> SVG path data (or {d, fill, viewbox})"),
    ("icons:\n  marks: {file: marks.yaml}\n", {"marks.yaml": "star: M0 0h4\ndot: {d: M0 0h4, colour: red}\n"},
     "marks.yaml:2:18: icon 'dot': unknown key 'colour' (expected one of: d, fill, viewbox)"),
    ("icons:\n  marks: {file: marks.yaml}\n", {"marks.yaml": "dot: {d: M0 0h4, fil: red}\n"},
     "marks.yaml:1:18: icon 'dot': unknown key 'fil': did you mean 'fill'?"),
    ("icons:\n  marks: {file: marks.yaml}\n", {"marks.yaml": "dot: {d: M0 0h4, fill: '#12345g'}\n"},
     "marks.yaml:1:18: icon 'dot': fill '#12345g' is not a colour: expected #rrggbb (or #rgb), a colour name such as red, or none (the renderers would draw black)"),
    # before: passed here, then blamed on the template placing the icon, with no line
    ("icons:\n  marks: {file: marks.yaml}\n", {"marks.yaml": "dot: {d: M0 0h4, fill: 12}\n"}, "marks.yaml:1:18: icon 'dot': fill 12 is not a colour"),
    ("icons:\n  marks: {file: marks.yaml}\n", {"marks.yaml": "dot: {dd: M0 0h4}\n"},
     "marks.yaml:1:7: icon 'dot': unknown key 'dd': did you mean 'd' (required)?"),
    ("icons:\n  marks: {file: marks.yaml, folder: pics}\n", {}, "game.yaml:4:10: marks: give exactly one of `folder` or `file`"),
    ("icons:\n  marks: {file: marks.yaml}\n", {"marks.yaml": "star: [M0 0h4]\n"},
     "marks.yaml:1:1: icon 'star': expected SVG path data, or a mapping with `d` and optional `fill`, `viewbox`"),
    # before: passed here, then the icon drawn nowhere (a viewBox the renderers cannot read), with no word why
    *[("icons:\n  marks: {file: marks.yaml}\n", {"marks.yaml": f"star: M0 0h4\ndot: {{d: M0 0h4, viewbox: {box}}}\n"},
       f"marks.yaml:2:18: icon 'dot': viewbox {shown} is not a viewBox: expected four numbers, min-x min-y width height, the width and height above 0")
      for box, shown in (("'0 0 24'", "'0 0 24'"), ("'a b c d'", "'a b c d'"), ("'0 0 -5 10'", "'0 0 -5 10'"), ("24", "24"),
                         ("[0, 0, 24, 24]", "[0, 0, 24, 24]"))],
    *[(f"icons:\n  marks: {{file: marks.yaml, viewbox: {box}}}\n", {"marks.yaml": "star: M0 0h4\n"},
       f"game.yaml:4:38: viewbox: {shown} is not a viewBox: expected four numbers")
      for box, shown in (("'0 0 24'", "'0 0 24'"), ("'0 0 10 0'", "'0 0 10 0'"), ("12", "12"), ("[0, 0, 1, 1]", "[0, 0, 1, 1]"))],
])
def test_a_broken_icon_set_is_one_located_line(tmp_path, monkeypatch, game_yaml, files, expected):
    (line,) = problems(tmp_path, monkeypatch, game_yaml, files)
    assert line.startswith(f"content/g/{expected}"), line


def test_a_png_saved_as_an_icon_svg_is_located_from_column_1_once(tmp_path, monkeypatch):
    """expat counts columns from 0 and ends its message with the position: the line says it once, from 1."""
    (line,) = problems(tmp_path, monkeypatch, "icons:\n  marks: {folder: pics}\n", {"pics/star.svg": b"\x89PNG\r\n\x1a\n"})
    assert line == "content/g/pics/star.svg:1:1: not well-formed SVG: not well-formed (invalid token)", line


def test_an_svg_icon_with_only_width_and_height_takes_them_as_its_viewbox(tmp_path):
    from pnp.load.content import Project, load_game

    write_game(tmp_path, "icons:\n  marks: {folder: pics}\n", {"pics/star.svg": SVG % 'width="4" height="6"'})
    star = load_game(Project(tmp_path), "g").icons["marks"]["star"]
    assert (star.viewbox, star.body) == ("0 0 4 6", '<path d="M0 0h4v4z" />')


# ------------------------------------------------------------------ game.yaml itself

CARD = "{id: c, name: C, size: poker, items: [], front: f.svg.j2}"


@pytest.mark.parametrize("game_yaml, expected", [
    # before: the two cross checks below were at game.yaml:1:1, the top of the file
    (f"  - {CARD}\n  - {CARD}\n", "game.yaml:4:6: component id 'c' appears twice: expected unique ids"),
    (f"  - {CARD}\ncontents:\n  - {{name: Cards, count: 3, rule: r.md:1, component: d}}\n", "game.yaml:5:43: contents 'Cards': component 'd': expected one of c"),
    (f"  - {CARD}\ncontents:\n  - {{name: Box, count: 1, rule: r.md:2}}\n", "game.yaml:5:5: contents 'Box': not printed, so expected a note saying why"),
    ("  - {id: c, name: C, size: {width: 0, height: 5}, items: [], front: f.svg.j2}\n", "game.yaml:3:28: size: width and height must be greater than 0"),
    ("  - {id: c, name: C, size: {width: .inf, height: 5}, items: [], front: f.svg.j2}\n", "game.yaml:3:28: size: width and height must be numbers of mm"),
    ("  - {id: c, name: C, size: {width: true, height: 5}, items: [], front: f.svg.j2}\n", "game.yaml:3:36: width: expected a length such as 63mm or 2.5in, got true"),
    ("  - {id: c, name: C, size: {width: 5, height: -5}, items: [], front: f.svg.j2}\n", "game.yaml:3:47: height: a length cannot be negative, got -5"),
    ("  - {id: c, name: C, size: poker, items: [], front: f.svg.j2, copies: -1}\n", "game.yaml:3:71: copies: copies cannot be negative"),
    # before: "input should be a valid string, got None", Python's word
    ("  - {id: c, name: , size: poker, items: [], front: f.svg.j2}\n", "game.yaml:3:19: name: expected a text, got nothing (the key has no value)"),
    # before: true was 1 copy, and min: true was 1 (pydantic's lax mode)
    ("  - {id: c, name: C, size: poker, items: [], front: f.svg.j2, copies: true}\n",
     "game.yaml:3:71: copies: expected a whole number or an expression, got true"),
    ("  []\noptions:\n  level: {type: int, min: false}\n", "game.yaml:5:27: min: expected a number, got false"),
    ("  - {id: c, name: C, size: 20mm x 30mm, shape: round, items: [], front: f.svg.j2}\n",
     "game.yaml:3:48: shape: round needs a square size (its circle's diameter), got 20 x 30 mm"),
    (f"  - {{id: {'a' * 101}, name: C, size: poker, items: [], front: f.svg.j2}}\n", "game.yaml:3:10: id: id of 101 characters: expected at most 100 (it names the component's files)"),
    ("  []\noptions:\n  2players: {type: int}\n", "game.yaml:4:1: options: '2players' is not a name templates can use: expected letters, digits and '_', not starting with a digit"),
])
def test_a_wrong_game_yaml_is_one_line_at_the_mistake(tmp_path, monkeypatch, game_yaml, expected):
    folder = tmp_path / "content/g"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(f"title: G\ncomponents:\n{game_yaml}")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["validate", "g"])
    assert (result.exit_code, result.output) == (2, f"content/g/{expected}\n")


# ------------------------------------------------------------------ generated lists, needs, variants

THINGS_AB = {"things.yaml": "- {id: a}\n- {id: b}\n"}


@pytest.mark.parametrize("game_yaml, expected", [
    ("generate:\n  deck:\n    product: {t: nothing}\n    id: '{{ t.id }}'\n", "game.yaml:5:15: t: expression 'nothing' failed: 'nothing' is undefined"),
    ("generate:\n  deck:\n    product: {t: '3'}\n    id: '{{ t.id }}'\n", "game.yaml:5:15: t: '3' gave int: expected a list"),
    ("generate:\n  deck:\n    product: {t: things}\n    id: '{{ t.id }}'\n    fields: {x: nothing}\n", "game.yaml:4:3: generate 'deck' failed for t = 'a': 'nothing' is undefined"),
    ("needs:\n  - {each: things.nothing, has: icons, what: x}\n", "game.yaml:4:6: each 'things.nothing' names no list of records or mapping in the content: expected e.g. 'monsters.monsters'"),
    ("needs:\n  - {each: nothing, has: icons, what: x}\n", "game.yaml:4:6: each 'nothing' names no list of records or mapping in the content: expected e.g. 'monsters.monsters'"),
    ("needs:\n  - {each: things, has: nothing, what: an icon}\n", "game.yaml:4:20: has 'nothing' failed: 'nothing' is undefined"),
])
def test_a_wrong_generate_or_needs_expression_is_located(tmp_path, monkeypatch, game_yaml, expected):
    assert problems(tmp_path, monkeypatch, game_yaml, THINGS_AB) == [f"content/g/{expected}"]


def test_a_product_over_a_mapping_takes_its_values(tmp_path):
    from pnp.load.content import Project, load_game

    spec = "generate:\n  deck:\n    product: {t: things}\n    id: '{{ t.name }}'\n"
    write_game(tmp_path, spec, {"things.yaml": "a: {name: x}\nb: {name: y}\n"})
    assert [r["id"] for r in load_game(Project(tmp_path), "g").namespace()["deck"]] == ["x", "y"]


EDITIONS = {"eds.yaml": "std: {top: 3}\nbig: {extends: std, top: 5}\n"}


def test_a_variants_file_that_is_not_a_mapping_of_mappings(tmp_path, monkeypatch):
    assert problems(tmp_path, monkeypatch, "data:\n  eds: {variants: ed}\n", {"eds.yaml": "- std\n"}) == [
        "content/g/eds.yaml:1:1: expected a mapping of variant name -> its content (a mapping, with an optional `extends`)"]


def test_a_misspelt_extends_is_named_at_its_key(tmp_path, monkeypatch):
    """`extend: std` read as content would leave `big` without std's keys: an error at that key."""
    files = {"eds.yaml": "std: {top: 3, low: 1}\nbig:\n  extend: std\n  top: 5\n"}
    assert problems(tmp_path, monkeypatch, "data:\n  eds: {variants: ed}\n", files) == [
        "content/g/eds.yaml:3:3: 'extend' names the variant 'std' (did you mean 'extends'?): expected `extends: std` to build on it"]


def test_a_content_key_merely_like_extends_is_content(tmp_path, monkeypatch):
    """A variant's own key that only resembles `extends` (`exits`, `events`, `extras`, `ends`:
    difflib's 0.6 likeness) and names another variant as its value was refused as a misspelt
    `extends`; a misspelling is one edit or two away (`extend`, `extnds`, `exetnds`)."""
    from pnp.load.content import Project, load_game

    files = {"eds.yaml": "std: {top: 3, exits: std, events: big, extras: std, ends: std}\n"
                         "big: {top: 5, exits: std, events: std, extras: big, ends: big}\n"}
    write_game(tmp_path / "project", "data:\n  eds: {variants: ed}\noptions:\n  ed: {choices: [std, big]}\n", files)
    game = load_game(Project(tmp_path / "project"), "g")
    assert game.namespace({"ed": "big"})["eds"] == {"top": 5, "exits": "std", "events": "std", "extras": "big", "ends": "big"}
    for key in ("extnds", "exetnds"):
        files = {"eds.yaml": f"std: {{top: 3}}\nbig:\n  {key}: std\n  top: 5\n"}
        assert problems(tmp_path / key, monkeypatch, "data:\n  eds: {variants: ed}\n", files) == [
            f"content/g/eds.yaml:3:3: '{key}' names the variant 'std' (did you mean 'extends'?): expected `extends: std` to build on it"]


def test_a_variant_no_option_picks_is_the_first_and_a_listed_choice_must_exist(tmp_path, monkeypatch):
    from pnp.load.content import Project, load_game

    spec = "data:\n  eds: {variants: ed}\noptions:\n  ed: {choices: [std, big, huge]}\n"
    write_game(tmp_path, spec, EDITIONS)
    game = load_game(Project(tmp_path), "g")
    assert game.namespace()["eds"]["top"] == 3  # no default, not given: the first variant
    assert game.namespace({"ed": "big"})["eds"]["top"] == 5
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["build", "g", "--set", "ed=huge", "--out", "out"])
    assert (result.exit_code, result.output) == (2, "content/g/game.yaml:4:9: variant 'huge' of eds: expected one of std, big\n")
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------ a plugin game's content files


def test_a_plugin_games_unknown_and_missing_content_files_are_named(copy_game, monkeypatch):
    project = copy_game("dietrick-taking")
    folder = project.content_dir / "dietrick-taking"
    (folder / "deck.yaml").rename(folder / "decks.yaml")
    monkeypatch.chdir(project.root)
    result = runner.invoke(app, ["validate", "dietrick-taking"])
    assert (result.exit_code, result.output.splitlines()) == (2, [
        "content/dietrick-taking/deck.yaml: required content file is missing",
        "content/dietrick-taking/decks.yaml: unknown content file: expected one of deck.yaml, players.yaml, scoring.yaml"])


def test_a_font_file_fonttools_cannot_read_is_located(tmp_path, monkeypatch):
    lines = problems(tmp_path, monkeypatch, "fonts: [broken.ttf]\n", {"broken.ttf": b"\x00\x01\x00\x00 not a font at all"})
    assert lines == ["content/g/game.yaml:3:9: cannot read font file broken.ttf (TTLibError: unexpected end of table directory: "
                     "expected 16 bytes but got 10): expected a TrueType or OpenType font (.ttf, .otf)"]


def test_a_web_font_fonttools_cannot_decode_is_one_located_line(tmp_path):
    """fontTools logs why it cannot decode a WOFF2 file (no brotli) before it raises: only
    pnp's located line is printed (security review: a log line came first). In a process of
    its own: pytest's own log handler would swallow the line."""
    if __import__("importlib").util.find_spec("brotli") is not None:
        pytest.skip("brotli is installed: fontTools decodes WOFF2")
    write_game(tmp_path, "fonts: [web.ttf]\n", {"web.ttf": b"wOF2\x00\x01\x00\x00" + bytes(40)})
    done = subprocess.run([sys.executable, "-c", "from pnp.cli import main; main()", "validate", "g"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, ""), done
    assert done.stderr.splitlines() == [
        "content/g/game.yaml:3:9: cannot read font file web.ttf (ImportError: No module named brotli): "
        "expected a TrueType or OpenType font (.ttf, .otf)"], done.stderr


def test_an_empty_yaml_file_is_told_at_its_line_1(tmp_path, monkeypatch):
    """A file of nothing (or comments only) has no node to point at: its line 1 is where."""
    assert problems(tmp_path, monkeypatch, NAMES, {"things.yaml": "# nothing yet\n"}) == [
        "content/g/things.yaml:1:1: expected a list of records as the whole file"]
    (tmp_path / "content/g/game.yaml").write_text("")
    result = runner.invoke(app, ["validate", "g", "--project", "."])
    assert (result.exit_code, result.output.strip()) == (2, "content/g/game.yaml:1:1: expected a mapping of `key: value` lines, got nothing")


# ------------------------------------------------------------------ files that are not what they should be
def test_a_content_file_that_is_a_link_to_nothing_is_named_by_the_link(copy_game, monkeypatch, tmp_path):
    """Before: skipped as if absent (`required content file is missing`, or for a data file
    `not found` at game.yaml, or nothing at all for a file no one asked for), and a message
    about a link named where it leads."""
    project = copy_game("dietrick-taking")
    folder = project.content_dir / "dietrick-taking"
    (folder / "deck.yaml").unlink()
    (folder / "deck.yaml").symlink_to("deck-old.yaml")
    (folder / "extra.csv").symlink_to(tmp_path / "gone.csv")  # outside the project, and missing
    monkeypatch.chdir(project.root)
    result = runner.invoke(app, ["validate", "dietrick-taking"])
    assert (result.exit_code, result.output.splitlines()) == (2, [
        "content/dietrick-taking/deck.yaml: a link to deck-old.yaml, which leads to no file",
        f"content/dietrick-taking/extra.csv: data file is a link to {tmp_path / 'gone.csv'}, outside the project folder "
        f"{project.root}: pnp reads only files inside it"])




def test_an_icon_file_that_is_a_folder_or_a_loop_of_links_is_one_line(tmp_path, monkeypatch):
    """Before: a folder gave `3: Is a directory` (the descriptor, no file); a loop of links
    an internal error (Path.resolve's RuntimeError); a link in an icon folder to a missing or
    looping file an unlocated OSError."""
    write_game(tmp_path, "icons:\n  marks: {file: m.yaml}\n  pics: {folder: pics}\n  more: {file: more}\n", {"pics/star.svg": SVG % 'viewBox="0 0 4 4"'})
    folder = tmp_path / "content/g"
    (folder / "m.yaml").symlink_to("m.yaml")
    (folder / "pics/loop.svg").symlink_to("loop.svg")
    (folder / "more").mkdir()
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["validate", "g"])
    assert (result.exit_code, result.output.splitlines()) == (2, [
        "content/g/game.yaml:5:10: icon file content/g/pics/loop.svg: cannot read: Too many levels of symbolic links",
        "content/g/m.yaml: cannot read: Too many levels of symbolic links",
        "content/g/more: is a folder: expected a file"])
    (folder / "pics/loop.svg").unlink()
    (folder / "pics/dot.svg").symlink_to("gone.svg")
    result = runner.invoke(app, ["validate", "g"])
    assert "content/g/game.yaml:5:10: icon file content/g/pics/dot.svg: a link to gone.svg, which leads to no file" in result.output.splitlines()


@pytest.mark.parametrize("text, expected", [
    ("title: G\ncomponents: []\n---\ntitle: H\n", "game.yaml:3:1: malformed YAML: a second document (after '---'): expected one document per file"),
    ("title: !!float abc\ncomponents: []\n", "game.yaml:1:8: cannot read 'abc' as float: could not convert string to float: 'abc'"),
])
def test_yaml_that_is_not_one_plain_document_is_located(tmp_path, monkeypatch, text, expected):
    (tmp_path / "content/g").mkdir(parents=True)
    (tmp_path / "content/g/game.yaml").write_text(text)
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["validate", "g"])
    assert (result.exit_code, result.output) == (2, f"content/g/{expected}\n")


def test_a_yaml_depth_past_what_the_parser_allows_is_refused_by_name(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CONTENT_LIMITS", "depth=500")
    assert problems(tmp_path, monkeypatch, "", {}) == ["PNP_CONTENT_LIMITS: depth=500: at most 200"]


# ------------------------------------------------------------------ the plugin API's `validate`


def test_validate_part_of_a_document_points_into_the_file():
    """A plugin checks one part of a content file (`at`); the errors keep the file's lines."""
    from pnp.api import StrictModel, validate
    from pnp.load.yamlio import parse_located

    class Rules(StrictModel):
        rounds: int
        bonus: int = 0

    doc = parse_located("title: T\nrules:\n  rounds: 3\n  bonsu: 2\n", "game/rules.yaml")
    rules, errors = validate(doc, Rules, ("rules",))
    assert rules is None and [str(e) for e in errors] == ["game/rules.yaml:4:3: unknown key 'bonsu': did you mean 'bonus'?"]
    doc = parse_located("title: T\nrules:\n  rounds: 3\n  bonus: 2\n", "game/rules.yaml")
    assert validate(doc, Rules, ("rules",)) == (Rules(rounds=3, bonus=2), [])


def test_a_generated_item_repeated_in_a_component_is_located_at_its_items(tmp_path, monkeypatch):
    """A generated record is in no content file: the repeat is the component's `items:`."""
    game_yaml = "generate:\n  deck:\n    product: {t: things}\n    id: '{{ t.id }}'\n"
    write_game(tmp_path, game_yaml, THINGS_AB)
    game = tmp_path / "content/g/game.yaml"
    game.write_text(game.read_text().replace("components: []", "components:\n  - {id: c, name: C, size: poker, items: deck + deck, front: f.svg.j2}"))
    (tmp_path / "templates/g").mkdir(parents=True)
    (tmp_path / "templates/g/f.svg.j2").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="{{ width }}mm" height="{{ height }}mm"></svg>\n')
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["validate", "g"])
    assert (result.exit_code, result.output.splitlines()) == (2, [
        "content/g/game.yaml:3:35: item id 'a' appears twice in 'c': expected unique ids",
        "content/g/game.yaml:3:35: item id 'b' appears twice in 'c': expected unique ids"])


def test_a_whole_number_a_workbook_stores_as_3_0_reaches_templates_as_3(tmp_path):
    """Some programs save 3 as `<v>3.0</v>`: an untyped column (extra_fields) must not print "3.0"."""
    import io
    import zipfile

    from pnp.load.content import Project, load_game

    source = zipfile.ZipFile(io.BytesIO(workbook([["id", "n", "m"], ["a", 3, 2.5]])))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            body = source.read(name)
            target.writestr(name, body.replace(b"<v>3</v>", b"<v>3.0</v>") if name == "xl/worksheets/sheet1.xml" else body)
    assert b"<v>3.0</v>" in zipfile.ZipFile(out).read("xl/worksheets/sheet1.xml")
    write_game(tmp_path, "data:\n  things:\n    extra_fields: true\n    fields:\n      id: id\n", {"things.xlsx": out.getvalue()})
    assert load_game(Project(tmp_path), "g").namespace()["things"] == [{"id": "a", "n": 3, "m": 2.5}]


def test_an_unknown_key_in_a_plugin_models_optional_list_or_tagged_union_lists_the_keys():
    """Before: inside a discriminated union (`kind: cat`) the line said only "unknown key 'lifes'",
    at the record (5:5) instead of the key."""
    from typing import Annotated, Literal, Union

    from pydantic import Field

    from pnp.api import StrictModel, validate
    from pnp.load.yamlio import parse_located

    class Card(StrictModel):
        name: str
        cost: int = 0

    class Cat(StrictModel):
        kind: Literal["cat"]
        lives: int = 9

    class Dog(StrictModel):
        kind: Literal["dog"]
        bark: bool = True

    class Deck(StrictModel):
        cards: list[Card] | None = None
        pets: list[Annotated[Union[Cat, Dog], Field(discriminator="kind")]] = []

    doc = parse_located("cards:\n  - {name: a, cots: 2}\npets:\n  - {kind: dog}\n  - {kind: cat, lifes: 3}\n", "deck.yaml")
    assert [str(e) for e in validate(doc, Deck)[1]] == [
        "deck.yaml:2:15: unknown key 'cots': did you mean 'cost'?",
        "deck.yaml:5:17: unknown key 'lifes': did you mean 'lives'?"]
    # far from every key: the keys of the alternative meant
    doc = parse_located("pets:\n  - {kind: cat, whiskers: 3}\n", "deck.yaml")
    assert [str(e) for e in validate(doc, Deck)[1]] == ["deck.yaml:2:17: unknown key 'whiskers' (expected one of: kind, lives)"]


def test_an_item_id_of_letters_beyond_ascii_says_ascii(tmp_path, monkeypatch):
    """`été-carte` is made of letters, but not of those an output file's name may hold: the line says which."""
    folder = tmp_path / "content/g"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text("title: G\ncomponents:\n  - id: card\n    name: Cards\n    size: poker\n    items: cards.cards\n"
                                      "    front: card.svg.j2\n")
    (folder / "cards.yaml").write_text("cards:\n  - id: été-carte\n")
    (tmp_path / "templates/g").mkdir(parents=True)
    (tmp_path / "templates/g/card.svg.j2").write_text('{% extends "pnp/base.svg.j2" %}')
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["validate", "g", "--project", "."])
    assert result.exit_code == 2, result.output
    assert "item 'été-carte' of 'card': expected an `id` of ASCII letters (a-z, A-Z), digits, '.', '_' or '-'" in result.output
    assert result.output.startswith("content/g/cards.yaml:2:"), result.output  # at the record's id, not at game.yaml's items:


# ------------------------------------------------------------------ a name spelt in another case than its file's
# A Mac's (or Windows') disk finds `art/moth.png` for the file `art/Moth.PNG`; Linux's does
# not. The door (pnp/load/project_files.py) refuses such a name on every system, once found.

def found_in_any_case(path: str | os.PathLike) -> bool:
    """What a case-insensitive disk finds: each name matched to its folder's entry in any case."""
    here = Path(os.path.abspath(path))
    found = Path(here.anchor)
    for part in here.parts[1:]:
        try:
            names = os.listdir(found)
        except OSError:
            return False
        match = next((name for name in names if name.casefold() == part.casefold()), None)
        if match is None:
            return False
        found = found / match
    return True


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (2, 2), "#f80").save(out, "PNG")
    return out.getvalue()


def write_spelt_game(root: Path) -> None:
    """Game `g` naming a template, an include in a subfolder, a picture in its folder and one
    in assets/, a font, an icon folder and an icon file, each spelt as its file is."""
    write_game(root, "fonts: [body.ttf]\nicons:\n  stars: {folder: icons}\n  dots: {file: marks.yaml}\n", {
        "cards.yaml": "cards:\n  - id: one\n", "icons/star.svg": SVG % 'viewBox="0 0 4 4"', "marks.yaml": "dot: M0 0h4v4z\n",
        "body.ttf": (REPO / "pnp/data/fonts/LiberationSans-Regular.ttf").read_bytes(), "art/moth.png": png()})
    game = root / "content/g/game.yaml"
    game.write_text(game.read_text().replace("components: []\n", "components:\n  - {id: card, name: Cards, size: poker, items: cards.cards, front: card.svg.j2}\n"))
    (root / "templates/g/parts").mkdir(parents=True)
    (root / "templates/g/parts/frame.svg.j2").write_text('<rect width="4" height="4"/>\n')
    (root / "templates/g/card.svg.j2").write_text(
        '{% extends "pnp/base.svg.j2" %}\n{% block body %}\n{% include "parts/frame.svg.j2" %}\n'
        '<image width="4" height="4" href="{{ asset(\'art/moth.png\') }}"/>\n'
        '<image width="4" height="4" href="{{ asset(\'art/emblem.svg\') }}"/>\n{% endblock %}\n')
    (root / "assets/art").mkdir(parents=True)
    (root / "assets/art/emblem.svg").write_text(SVG % 'viewBox="0 0 4 4"')
    (root / "plugins").mkdir()
    (root / "plugins/g.py").write_text("")


REPO = Path(__file__).resolve().parent.parent
SPELT = "expected the name as the folder spells it (a case-sensitive system would not find it)"


@pytest.mark.parametrize("change, expected", [
    (("content/g/game.yaml", "front: card.svg.j2", "front: Card.svg.j2"), "content/g/game.yaml:3:62: Card.svg.j2: the file is spelt 'card.svg.j2'"),
    (("content/g/game.yaml", "[body.ttf]", "[Body.ttf]"), "content/g/game.yaml:4:9: Body.ttf: the file is spelt 'body.ttf'"),
    (("content/g/game.yaml", "{folder: icons}", "{folder: Icons}"), "content/g/game.yaml:6:11: Icons: the folder is spelt 'icons'"),
    (("content/g/game.yaml", "{file: marks.yaml}", "{file: Marks.yaml}"), "content/g/game.yaml:7:10: Marks.yaml: the file is spelt 'marks.yaml'"),
    (("content/g/game.yaml", "title: G\n", "title: G\nplugin: plugins/G.py\n"), "content/g/game.yaml:2:1: plugins/G.py: the file is spelt 'plugins/g.py'"),
    (("templates/g/card.svg.j2", '"parts/', '"Parts/'), "templates/g/card.svg.j2:3: card/one: Parts/frame.svg.j2: the file is spelt 'parts/frame.svg.j2'"),
    (("content/g/art/moth.png", "content/g/art/Moth.PNG"), "templates/g/card.svg.j2:4: card/one: art/moth.png: the file is spelt 'art/Moth.PNG'"),
    (("assets/art", "assets/Art"), "templates/g/card.svg.j2:5: card/one: art/emblem.svg: the file is spelt 'Art/emblem.svg'"),
])
def test_a_name_a_mac_finds_in_another_case_is_one_line_where_it_is_written(tmp_path, monkeypatch, change, expected):
    """Before: a Mac built the game and Linux said `not found`. Every kind of name the
    project writes is checked at the door, on a disk simulated case-insensitive (a Mac)."""
    from pnp.load import project_files

    write_spelt_game(tmp_path)
    monkeypatch.setattr(project_files, "_found", found_in_any_case)
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["validate", "g"]).exit_code == 0  # every name spelt as its file: no complaint
    if len(change) == 3:
        file, old, new = change
        (tmp_path / file).write_text((tmp_path / file).read_text().replace(old, new, 1))
    else:
        (tmp_path / change[0]).rename(tmp_path / change[1])
    result = runner.invoke(app, ["validate", "g"])
    assert (result.exit_code, result.output.splitlines()) == (2, [f"{expected}: {SPELT}"])


def test_the_spelling_check_reads_a_real_folder(tmp_path):
    """The check itself on this (case-sensitive) disk: the name as written against its
    folder's entry, shown from the name the project wrote or from the folder misspelt."""
    from pnp.load.project_files import misspelt

    write_spelt_game(tmp_path)
    (tmp_path / "content/g/art/moth.png").rename(tmp_path / "content/g/art/Moth.PNG")
    art = tmp_path / "content/g/art"
    assert misspelt(tmp_path, art / "moth.png", 2)[:2] == ("art/moth.png", "art/Moth.PNG")
    assert misspelt(tmp_path, tmp_path / "content/g/Art/Moth.PNG", 2)[:2] == ("Art/Moth.PNG", "art/Moth.PNG")
    assert misspelt(tmp_path, tmp_path / "content/G/art/Moth.PNG", 2)[:2] == ("G/art/Moth.PNG", "g/art/Moth.PNG")
    assert misspelt(tmp_path, art / "Moth.PNG", 2) is None  # spelt as its file
    assert misspelt(tmp_path, art / "sun.png", 2) is None  # in no case: not found, nothing to tell


def test_a_name_pnp_looks_for_in_another_case_says_so(tmp_path, monkeypatch):
    """pnp.yaml saved as PNP.yaml: a Mac reads it, Linux builds without the settings."""
    from pnp.load import project_files

    write_spelt_game(tmp_path)
    (tmp_path / "PNP.yaml").write_text("paper: a4\n")
    monkeypatch.setattr(project_files, "_found", found_in_any_case)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(project_files.PnpError) as raised:
        project_files.inside(tmp_path, tmp_path / "pnp.yaml", None, "settings file")
    assert str(raised.value) == ("pnp.yaml: the file is spelt 'PNP.yaml': expected 'pnp.yaml', the name pnp looks for "
                                 "(a case-sensitive system would not find it)")


def test_the_spelling_check_lists_a_folder_once_a_build_and_afresh_for_the_next(tmp_path, monkeypatch):
    """Its cost: each folder on the way to a file found is listed once a build (a
    cache by folder); the next build lists again, so a file renamed meanwhile is seen
    (`pnp watch`, on a Mac)."""
    from collections import Counter

    from pnp.load import project_files

    write_spelt_game(tmp_path)
    listed: Counter[str] = Counter()
    read_folder = project_files._read_folder
    monkeypatch.setattr(project_files, "_read_folder", lambda folder: (listed.update([folder]), read_folder(folder))[1])
    monkeypatch.setattr(project_files, "_found", found_in_any_case)
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["validate", "g"]).exit_code == 0
    assert listed[str(tmp_path / "content/g/art")] == 1 and max(listed.values()) == 1, listed
    (tmp_path / "content/g/art/moth.png").rename(tmp_path / "content/g/art/Moth.PNG")
    result = runner.invoke(app, ["validate", "g"])
    assert result.exit_code == 2 and "art/moth.png: the file is spelt 'art/Moth.PNG'" in result.output, result.output
