"""Spreadsheets as content: a CSV or XLSX file becomes a list of records, one per row.

The first row names the fields; an empty cell is a missing field (`empty cell` at it); a blank row is skipped; a CSV
row short of cells (values that would shift into the wrong fields) is an error.
Every value keeps its `row:column` place, so errors about it name `file:row:column`.
XLSX is read with openpyxl (first worksheet unless one is named); ODS is not read.
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from ..errors import ContentError, PnpError, counted
from ..limits import TABLES
from .yamlio import Located, Path_, read_capped

SHEET_SUFFIXES = (".csv", ".xlsx")
MAX_COLUMNS = 1_000  # a record's fields: a sheet wider than this is not a list of records


def _cell(value: Any) -> Any:
    if isinstance(value, str):
        value = value.strip()
        return value or None
    if isinstance(value, float) and value.is_integer():  # spreadsheets store 3 as 3.0
        return int(value)
    return value


def _checked(path: Path, rows: Iterable[tuple[int, Sequence[Any]]], limits: dict[str, int], title: str | None = None,
             ) -> list[tuple[int, list[Any]]]:
    """The rows, refused at the first row past the row limit or cell past the cell limit
    (naming the worksheet `title`, in a workbook of several)."""
    named = _in_worksheet(title, "")
    out = []
    for count, (line, cells) in enumerate(rows, start=1):
        if count > limits["rows"]:
            raise PnpError(ContentError(path, line, None, f"{named}more than {limits['rows']:,} rows: {TABLES.hint('rows')}"))
        if len(cells) > MAX_COLUMNS:
            raise PnpError(ContentError(path, line, None, f"{named}a row of {len(cells):,} cells: expected at most {MAX_COLUMNS} columns"))
        for col, value in enumerate(cells, start=1):
            if isinstance(value, str) and len(value) > limits["cell"]:
                raise PnpError(ContentError(path, line, col, f"{named}a cell of {len(value):,} characters, more than {limits['cell']:,}: "
                                            f"{TABLES.hint('cell')}"))
        out.append((line, list(cells)))
    return out


def _csv_rows(path: Path, text: str) -> Iterator[tuple[int, list[str]]]:
    # strict: an unclosed double quote is an error at its row, not a cell that silently takes in every row after it
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    start = 1
    try:
        for cells in reader:
            yield start, cells
            start = reader.line_num + 1
    except csv.Error as exc:
        raise PnpError(ContentError(path, start, None, f"malformed CSV row ({exc}): expected a text in double quotes to end with a "
                                    "double quote, then ',' or the end of the row")) from None


def _check_zip(path: Path, data: bytes, limits: dict[str, int]) -> None:
    """Refuse an XLSX whose parts would unpack to more than the limit, before openpyxl
    unpacks any (zipfile never reads an entry past the size its directory declares)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            total = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise PnpError(ContentError(path, None, None, f"not a readable .xlsx workbook ({type(exc).__name__}: {exc})")) from None
    if total > limits["unzipped"]:
        raise PnpError(ContentError(path, None, None, f"a workbook that unpacks to {total:,} bytes, more than {limits['unzipped']:,}: {TABLES.hint('unzipped')}"))


def _rows(path: Path, worksheet: str | None, where: ContentError | None = None) -> tuple[list[tuple[int, list[Any]]], str | None]:
    """(1-based row number, cells) of every row, header included, within the limits; and the
    worksheet's name when the workbook has several (messages then name it). A worksheet not
    found is an error at `where` (the `sheet:` line of game.yaml) when given."""
    limits = TABLES.values()
    if path.suffix == ".csv":
        data = read_capped(path, limits["size"], TABLES.hint("size"))
        try:
            text = data.decode("utf-8-sig")  # a spreadsheet's CSV export may start with a BOM
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            raise PnpError(ContentError(path, line, None, f"not UTF-8 text ({exc.reason}): save the CSV as UTF-8")) from None
        return _checked(path, _csv_rows(path, text), limits), None
    # read once, within the size limit: the bytes checked are the bytes openpyxl reads
    data = read_capped(path, limits["size"], TABLES.hint("size"))
    _check_zip(path, data, limits)
    try:
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # a corrupt or foreign file: say so, in one line
        raise PnpError(ContentError(path, None, None, f"not a readable .xlsx workbook ({type(exc).__name__}: {exc})")) from None
    try:
        if worksheet is not None and worksheet not in book.sheetnames:
            message = f"no worksheet {worksheet!r}: expected one of {', '.join(book.sheetnames)}"
            if where is not None:
                raise PnpError(ContentError(where.path, where.line, where.column, f"{path.name} has {message}"))
            raise PnpError(ContentError(path, None, None, message))
        sheet = book[worksheet] if worksheet is not None else book.worksheets[0]  # the first, not the active one: the same whoever saved it last
        title = None if len(book.sheetnames) == 1 else repr(sheet.title) if worksheet is not None else f"{sheet.title!r} (the first)"
        declared = (sheet.max_row or 0, sheet.max_column or 0)  # the sheet's own <dimension>, when it has one
        if declared[0] > limits["rows"] or declared[1] > MAX_COLUMNS:
            raise PnpError(ContentError(path, None, None, f"{f'worksheet {title} has' if title else 'a worksheet of'} {declared[0]:,} rows and {declared[1]:,} columns: "
                                        f"expected at most {limits['rows']:,} rows ({TABLES.hint('rows')}) and {MAX_COLUMNS} columns"))
        # a <dimension> may understate the rows (openpyxl would stop there, dropping the rest
        # without a word): every row is read, within the row limit (`_checked`)
        if hasattr(sheet, "reset_dimensions"):
            sheet.reset_dimensions()
        try:
            rows = _checked(path, enumerate(sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS), start=1), limits, title)
            if any(cell is None for _, cells in rows for cell in cells):  # an empty cell, or a formula never computed
                _mark_unsaved(rows, data, worksheet)
            return rows, title
        except PnpError:
            raise
        except Exception as exc:  # a part openpyxl cannot read, met while reading the rows
            raise PnpError(ContentError(path, None, None, f"not a readable .xlsx workbook ({type(exc).__name__}: {exc})")) from None
    finally:
        book.close()


@dataclass(frozen=True)
class Unsaved:
    """A cell holding a formula whose value was never saved (a file a script or an export
    wrote): openpyxl reads no value, which is not an empty cell."""

    formula: str


def _mark_unsaved(rows: list[tuple[int, list[Any]]], data: bytes, worksheet: str | None) -> None:
    """Mark the empty cells of `rows` that hold a formula (read again with the formulas:
    openpyxl gives either the saved values or the formulas, not both)."""
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    try:
        sheet = book[worksheet] if worksheet is not None else book.worksheets[0]
        if hasattr(sheet, "reset_dimensions"):
            sheet.reset_dimensions()
        formulas = enumerate(sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS, max_row=rows[-1][0] if rows else 0), start=1)
        for (_, cells), (_, written) in zip(rows, formulas):
            for col, cell in enumerate(cells):
                formula = written[col] if col < len(written) else None
                text = getattr(formula, "text", formula)  # an array formula's text
                if cell is None and isinstance(text, str) and text.startswith("="):
                    cells[col] = Unsaved(text)
    finally:
        book.close()


@dataclass
class Sheet(Located):
    """A sheet's records, with where each column's name is in the header row."""

    columns: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (line, column)
    worksheet: str | None = None  # named in every message when the workbook has several: "'Cards' (the first)"

    def at(self, line: int | None, column: int | None, message: str) -> ContentError:
        return ContentError(self.path, line, column, self._named(message))

    def error(self, at: Path_, message: str) -> ContentError:
        return super().error(at, self._named(message))

    def _named(self, message: str) -> str:
        return _in_worksheet(self.worksheet, message)


def _in_worksheet(title: str | None, message: str) -> str:
    """`message`, naming the worksheet `title` it is about (a workbook of several's; else as it is)."""
    return f"worksheet {title}: {message}" if title else message


def sheet_of(doc: Located, at: Path_) -> Sheet | None:
    """The sheet whose records sit at `at` in `doc`; None when they come from YAML."""
    part = doc._part(tuple(at)) if isinstance(doc, Combined) else doc
    return part if isinstance(part, Sheet) else None


def columns_of(doc: Located, at: Path_) -> dict[str, tuple[int, int]] | None:
    """The header of the sheet whose records sit at `at` in `doc`; None when they come from YAML."""
    sheet = sheet_of(doc, at)
    return sheet.columns if sheet is not None else None


def load_sheet(path: Path, at: Path_ = (), worksheet: str | None = None, where: ContentError | None = None) -> Sheet:
    """Read a sheet as records; they sit at `at` (e.g. ('cards',) to stand for a YAML key),
    and `marks` hold the (row, column) of each record and cell. `where` is the `sheet:` that
    names `worksheet`."""
    rows, title = _rows(path, worksheet, where)
    doc = Sheet(path, [], worksheet=title)
    rows = [(n, [_cell(c) for c in cells]) for n, cells in rows]
    rows = [(n, cells) for n, cells in rows if any(c is not None for c in cells)]
    if not rows:
        raise PnpError(doc.at(None, None, "empty sheet: expected a header row naming the fields, then one row per record"))
    head_line, head = rows[0]
    csv_file = path.suffix.lower() == ".csv"
    if csv_file:
        _refuse_other_separator(path, head_line, head)
    errors = []
    names: list[str | None] = []
    unsaved: dict[int, list[ContentError]] = {}
    for col, name in enumerate(head, start=1):
        if isinstance(name, Unsaved):
            unsaved[col] = [_unsaved(doc, head_line, col, None, name)]
            name = None
        elif name is not None and not isinstance(name, str):
            name = str(name)
        if name in names and name is not None:
            errors.append(doc.at(head_line, col, f"column {name!r} appears twice in the header"))
        elif name is not None:
            doc.columns[name] = (head_line, col)
        names.append(name)
    records: list[dict[str, Any]] = []
    doc.marks[at] = (head_line, 1)
    # a CSV row short of cells would shift its values into the wrong fields: each row has a
    # cell (maybe empty) for every named column (XLSX cells are placed by column: no shift)
    width = max((col for col, name in enumerate(names, start=1) if name is not None), default=0)
    for line, cells in rows[1:]:
        i = len(records)
        if csv_file and len(cells) < width:
            named = [name for name in names if name is not None]
            errors.append(doc.at(line, None, f"{counted(len(cells), 'cell')}, the header names {width} ({', '.join(named)}): "
                                       "expected a cell for every column, empty ones too ('a,,c')"))
            continue
        record: dict[str, Any] = {}
        doc.marks[at + (i,)] = (line, 1)
        unnamed = []
        for col, value in enumerate(cells, start=1):
            name = names[col - 1] if col - 1 < len(names) else None
            if value is None:
                continue
            if isinstance(value, Unsaved):  # one line a column: a script's sheet leaves a whole column so
                unsaved.setdefault(col, []).append(_unsaved(doc, line, col, name, value))
                continue
            if name is None:
                if col not in unsaved:  # a header that is an unsaved formula is reported once, at the header
                    unnamed.append(col)
                continue
            record[name] = value
            doc.marks[at + (i, name)] = (line, col)
        for col, name in enumerate(names, start=1):  # an empty cell too: "empty cell" is placed at it
            if name is not None:
                doc.marks.setdefault(at + (i, name), (line, col))
        if unnamed:
            errors.append(doc.at(line, unnamed[0], _unnamed(len(unnamed), csv_file and unnamed[-1] > len(names))))
        records.append(record)
    for found in unsaved.values():
        more = f" (and {counted(len(found) - 1, 'more cell')} of this column)" if len(found) > 1 else ""
        errors.append(ContentError(found[0].path, found[0].line, found[0].column, found[0].message + more))
    if errors:
        raise PnpError(errors)
    doc.data = records
    return doc


def _refuse_other_separator(path: Path, line: int, head: list[Any]) -> None:
    """A header read as one column that holds ';' or a tab: a CSV saved with another separator
    (Excel in many European languages writes ';'), refused in one line with the fix."""
    named = [cell for cell in head if isinstance(cell, str)]
    for sep, shown in ((";", "';'"), ("\t", "tabs")):
        if len(named) == 1 and sep in named[0]:
            raise PnpError(ContentError(path, line, None, f"the header looks separated by {shown}: pnp reads comma-separated CSV "
                                        "(export with ',' as the separator, or save the sheet as .xlsx)"))


def _unsaved(doc: Sheet, line: int, col: int, name: str | None, cell: Unsaved) -> ContentError:
    shown = cell.formula if len(cell.formula) <= 40 else cell.formula[:39] + "…"
    return doc.at(line, col, f"{name + ': ' if name else ''}the cell holds a formula ({shown}) with no saved value: "
                        "open and save the file in a spreadsheet program (or type the value)")


def _unnamed(count: int, past_csv_header: bool) -> str:
    """A row's values in columns the header names not (one line a row)."""
    what = "a value in a column" if count == 1 else f"{count} values in columns"
    hint = " (a CSV text holding a comma goes in double quotes)" if past_csv_header else ""
    return f"{what} with no name: expected a header for every filled column{hint}"


@dataclass
class Combined(Located):
    """A YAML file whose parts at some keys came from sheets: errors go to the right file."""

    parts: dict[Path_, Located] = field(default_factory=dict)

    def _part(self, at: Path_) -> Located | None:
        for prefix, part in self.parts.items():
            if tuple(at[: len(prefix)]) == prefix:
                return part
        return None

    def where(self, at: Path_ = ()) -> Any:
        part = self._part(tuple(at))
        return part.where(at) if part is not None else super().where(at)

    def error(self, at: Path_, message: str) -> ContentError:
        part = self._part(tuple(at))
        return part.error(at, message) if part is not None else super().error(at, message)


def combine(yaml_doc: Located | None, sheet: Located, key: str | None, path: Path) -> Located:
    """The YAML file with the sheet's records at `key` (or the sheet alone)."""
    if key is None:
        if yaml_doc is not None:
            raise PnpError(ContentError(path, None, None, f"both {yaml_doc.path.name} and {sheet.path.name} exist: declare `records: KEY` for this file in game.yaml to put the rows under a key of the YAML, or keep one of them"))
        return sheet
    if yaml_doc is None:
        return Combined(sheet.path, {key: sheet.data}, {(): (1, 1)}, parts={(key,): sheet})
    if not isinstance(yaml_doc.data, dict):
        raise PnpError(yaml_doc.error((), f"expected a mapping: the rows of {sheet.path.name} go under its key {key!r}"))
    if key in yaml_doc.data:
        raise PnpError(yaml_doc.error((key,), f"{key!r} is both here and in {sheet.path.name}: expected it in one place"))
    return Combined(yaml_doc.path, {**yaml_doc.data, key: sheet.data}, dict(yaml_doc.marks), parts={(key,): sheet})
