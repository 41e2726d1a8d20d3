"""`pnp score`: read a scoring-sheet file, pick the game by its `game:` key and hand the
sheet to that game's scorer (`GamePlugin.score`). Game-agnostic: each game returns its
own `ScoreReport`.
"""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Callable, Iterable

from ..load.content import GameContent, Project, load_game
from ..errors import ContentError, PnpError, did_you_mean
from ..load.plugin import GamePlugin
from ..load.plugins import call_hook, expect_json_report, hook_error, expect_json_schema, expect_sheet_text, takes
from ..load.project_files import output_folder
from ..load.yamlio import SHEET, Located, load_located

if TYPE_CHECKING:
    from rich.console import Console


_MEMBERS = {  # what each abstract member of ScoreReport is, for a plugin's class missing it
    "to_json": "def to_json(self) returning the report as a dict of plain data",
    "render": "def render(self, console) printing the report",
    "exit_code": "@property def exit_code(self) returning 0 when every claim is right, 1 when one is wrong",
}


class ScoreReport(ABC):
    """What a game's scorer returns: printable, serialisable, with an exit code."""

    game: str

    def __new__(cls, *args: Any, **kwargs: Any) -> "ScoreReport":
        # Python's "Can't instantiate abstract class ... with abstract method exit_code" does
        # not say what the plugin must write: name the members, at the plugin's class line
        missing = sorted(getattr(cls, "__abstractmethods__", ()))
        if missing:
            wanted = "; ".join(_MEMBERS.get(name, name) for name in missing)
            raise hook_error(cls, f"class {cls.__name__} does not define {', '.join(missing)}, which every pnp.api.ScoreReport has: expected {wanted}")
        return super().__new__(cls)

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole report as plain data with stable keys."""

    @abstractmethod
    def render(self, console: "Console") -> None:
        """Print the report for people (rich tables, markup on): every text from a file goes
        through `pnp.api.markup`, so that it shows as written."""

    @property
    @abstractmethod
    def exit_code(self) -> int:
        """0 when every claimed total matches (or none was claimed), else 1."""

    def mismatch_lines(self) -> list[str]:
        """One plain line per claimed value that differs from the scored one, as `render`
        prints it (`pnp log import` refuses a sheet with these). A game that does not say
        gets one general line when its exit code says a claim is wrong."""
        return ["a claimed value differs from the scored one: `pnp score` shows which"] if self.exit_code else []

    def mismatch_places(self) -> list[tuple[tuple[Any, ...], str]]:
        """Each of `mismatch_lines` with the part of the sheet holding the wrong claim (a path
        as `Located.error` takes, e.g. ("players", 1, "claimed"); () for the whole sheet):
        where `pnp serve` shows it. A game that does not say puts them on the whole sheet."""
        return [((), line) for line in self.mismatch_lines()]

    def decided_text(self) -> str | None:
        """What decided the winner in the words `render` prints it, where `pnp serve` shows it
        (a `decided_by` in `to_json()` may be an id, such as "leaders-ascending"). A game that
        does not say shows its `decided_by` as it is; None where nothing was decided."""
        decided = self.to_json().get("decided_by")
        return decided if isinstance(decided, str) else None


# Table files people reach for: content data may be CSV/XLSX, a scoring sheet never is.
TABLE_SUFFIXES = {".csv", ".tsv", ".xlsx", ".xlsm", ".xls", ".ods"}


def score_sheet(project: Project, sheet_path: str | os.PathLike) -> ScoreReport:
    """Score a sheet file; raise PnpError (exit 2) listing every problem in it."""
    path = Path(sheet_path)
    if path.suffix.lower() in TABLE_SUFFIXES and path.is_file():
        # A spreadsheet is no sheet: say so in one line rather than "not UTF-8 text" or
        # "expected a mapping" (a YAML sheet that happens to be named .csv still scores).
        try:
            doc = load_located(path, SHEET)
        except PnpError:
            doc = None
        if doc is None or not isinstance(doc.data, dict):
            raise PnpError(ContentError(path, None, None, f"scoring sheets are YAML files (`pnp sheet <game> --template` writes a blank one); "
                                        f"{path.suffix.lstrip('.').upper()} files are read only as content data"))
        return score_doc(project, doc)
    return score_doc(project, load_located(sheet_path, SHEET))


def score_doc(project: Project, doc: Located, load: Callable[[Project, str], GameContent] | None = None) -> ScoreReport:
    """Score a sheet already read (a file, or text a server received); raise PnpError
    listing every problem in it. `load` loads the game named (a server keeps them loaded)."""
    doc = composed(doc)
    if not isinstance(doc.data, dict):
        raise PnpError(doc.error((), "expected a mapping with `game:`, `players:` ..."))
    game_name = doc.data.get("game")
    if game_name is None:
        raise PnpError(doc.error((), "missing required key 'game'"))
    known = project.known_games()
    if game_name not in known:
        line, col = doc.where(("game",))
        raise PnpError(ContentError(doc.path, line, None, f"game: unknown game {game_name!r}: expected one of {', '.join(known) or '(none found under content/)'}"
                                                      f"{did_you_mean(str(game_name), known)}"))
    game = (load or load_game)(project, game_name)
    if game.plugin.score is None:
        raise PnpError(doc.error(("game",), f"game: {game_name!r} has no scorer"))
    report = call_hook(game.plugin.score, "score(game, doc)", (game, doc), _a_report)
    getter = getattr(type(report), "exit_code", None)  # a property, or a plain value of the class
    at = getter.fget if isinstance(getter, property) and getter.fget is not None else type(report)
    call_hook(getattr, "exit_code", (report, "exit_code"), _zero_or_one, at=at)  # a wrong claim never exits 0
    call_hook(report.to_json, "to_json()", (), expect_json_report)  # --json and the log write it
    # the log files the sheet under it: no game, or another's, was pnp's crash or a game that is not there
    call_hook(getattr, "report.game", (report, "game", None), lambda named: None if named == game.name else
              f"the game's name, {game.name!r} (pnp log files the sheet under it)", at=type(report))
    return report


def composed(doc: Located) -> Located:
    """The sheet with its text in Unicode's composed form (NFC), so that a name typed as
    "Jos\u00e9" and one typed as "Jose\u0301" (e + combining accent) are one name to every
    game's scorer. The sheet itself when it is composed already."""
    def nfc(value: Any) -> Any:
        return unicodedata.normalize("NFC", value) if isinstance(value, str) else value

    def walk(value: Any, old: tuple, new: tuple) -> Any:
        if old in doc.marks:
            marks[new] = doc.marks[old]
        if isinstance(value, list):
            return [walk(v, old + (i,), new + (i,)) for i, v in enumerate(value)]
        if isinstance(value, dict):
            out: dict[Any, Any] = {}
            for key, v in value.items():
                if nfc(key) in out:  # two spellings of one key: YAML saw two keys
                    raise PnpError(doc.error(old + (key,), f"duplicate key {nfc(key)!r} (written in two Unicode forms)"))
                out[nfc(key)] = walk(v, old + (key,), new + (nfc(key),))
            return out
        return nfc(value)

    marks: dict = {}
    data = walk(doc.data, (), ())
    return doc if data == doc.data else Located(doc.path, data, marks)


def _a_report(value: Any) -> str | None:
    return None if isinstance(value, ScoreReport) else "a pnp.api.ScoreReport"


def _zero_or_one(value: Any) -> str | None:
    good = isinstance(value, int) and not isinstance(value, bool) and value in (0, 1)
    return None if good else "0 (every claim right, or none made) or 1 (a claimed value is wrong)"


def _declared(game: GameContent, players: int) -> int | None:
    """A sheet's seat count as the build option `players`, for a game that declares it (and
    so checks its range); a game without it still has sheets for any number of players."""
    return players if "players" in game.manifest.options else None


def check_sheet_options(game: GameContent, players: int, options: dict[str, str] | None) -> None:
    """Refuse a player count outside the range the game declares and bad or unknown `--set`."""
    from ..config import BuildOptions

    BuildOptions(players=_declared(game, players), extra=dict(options or {})).game_options([game])


def blank_sheet(game: GameContent, players: int, options: dict[str, str] | None = None) -> str:
    """The game's blank, commented YAML scoring sheet for `players` players under the build
    options `options` (e.g. {"rules": "0.2.8"}), once the game takes them."""
    check_sheet_options(game, players, options)
    if game.plugin.sheet_template is None:
        raise PnpError(f"{game.name}: this game has no scoring sheet template")
    return call_hook(game.plugin.sheet_template, "sheet_template(game, players, options)", (game, players, options or {}), expect_sheet_text)


def sheet_schema(game: GameContent) -> dict[str, Any]:
    """The JSON Schema of the game's scoring sheets."""
    if (schema := plugin_sheet_schema(game.plugin, game)) is None:
        raise PnpError(f"{game.name}: this game has no scoring sheet schema")
    return schema


def plugin_sheet_schema(plugin: GamePlugin, game: GameContent | None) -> dict[str, Any] | None:
    """The plugin's sheet schema: `sheet_schema(game)`, its bounds read from the game's content as
    the scorer reads them, or `sheet_schema()`, one that reads no content. None without the hook,
    or for the first without a game (content that does not load)."""
    hook = plugin.sheet_schema
    if hook is None or (with_game := takes(hook, (game,))) and game is None:
        return None
    return call_hook(hook, "sheet_schema(game)" if with_game else "sheet_schema()", (game,) if with_game else (), expect_json_schema)


def sheet_text(project: Project, game_name: str, players: int, *, schema: bool = False, options: dict[str, str] | None = None) -> str:
    """A blank, commented YAML scoring sheet for `players` players (under the build
    options `options`, e.g. {"rules": "0.2.8"}), or the sheets' JSON Schema."""
    import json

    (name,) = project.resolve_games([game_name])
    game = load_game(project, name)
    if schema:
        check_sheet_options(game, players, options)
        return json.dumps(sheet_schema(game), indent=2) + "\n"
    return blank_sheet(game, players, options)


def printable_sheet(project: Project, game_name: str, players: int, paper_name: str, out_dir: Path | None,
                    options: dict[str, str] | None = None, papers: dict[str, Any] | None = None,
                    table: dict[str, Any] | None = None, warn: Callable[[Iterable[ContentError]], None] | None = None) -> list[Path]:
    """Write the blank printable scoring sheet for `players` players as SVG and PDF; `warn`
    takes what its template and pictures may get wrong, as a build warns of them.

    The sheet is the item with `players: N` of the game's `sheet_component`, drawn by the
    same template that `pnp build` uses. `papers`: the project's own (pnp.yaml). With
    `table` (pnp/serve/sheetcode.py) the template sees it as `item.table` and draws the
    table's QR code (`class="table-qr"`); the files are then named `...-table`, beside
    the plain sheet."""
    from ..errors import raise_if_any
    from ..config import blame
    from ..formats.impose import impose, paper
    from ..formats.room import laid_alone, no_room
    from ..files import write_atomic
    from ..plan import item_field, item_id
    from ..render.defaulted import SHEET_TABLE
    from ..render.faces import ComponentRenderer, Piece, RenderedComponent, game_warnings

    from ..config import BuildOptions

    (name,) = project.resolve_games([game_name])
    game = load_game(project, name)
    from ..formats.pdf_engine import check_font_names

    check_font_names(game)  # the PDF is typst's, as a build's: its names of the game's fonts, checked as a build checks them
    build_options = BuildOptions(paper=paper_name, players=_declared(game, players), extra=dict(options or {}), bleed=0.0)
    sheet = paper(paper_name, extra=papers)
    # the options a build sees: declared ones checked and typed, unknown `--set` keys refused
    values = build_options.game_options([game])[game.name]
    wanted = game.plugin.sheet_component
    index = next((i for i, c in enumerate(game.manifest.components) if c.id == wanted), None)
    if index is None:
        hint = "; try --template" if game.plugin.sheet_template is not None else ""  # only an option that works
        raise PnpError(f"{game.name}: this game has no printable scoring sheet{hint}")
    spec = game.manifest.components[index]
    renderer = ComponentRenderer(game, {**values, "players": players}, build_options.bleed)
    items = renderer.plan.items(index, spec)
    raise_if_any(renderer.errors)
    renderer.note_records(index, spec)  # the sheet's template guards what every sheet's record lacks, as in a build
    counts = {item_field(item, "players"): item for item in items}
    if players not in counts:
        expected = ", ".join(str(n) for n in sorted(k for k in counts if isinstance(k, int)))
        raise PnpError(f"{game.name}: no scoring sheet for {players} players: expected one of {expected}")
    item = counts[players]
    if table is not None:
        item = {**item, SHEET_TABLE: table}
    face = renderer.face(spec, spec.front, item_id(item), item, "front", 0.0)
    raise_if_any(renderer.errors)
    assert face is not None
    if table is not None and 'class="table-qr"' not in face.svg:
        raise PnpError(f"{game.name}: its scoring sheet ({spec.front}) has no place for the table's QR code (`item.table`); print it without --table")
    base = out_dir or output_folder(project.root, project.output_dir / game.name / "sheets")
    stem = f"{spec.id}-{players}p" + ("-table" if table is not None else "")
    svg, pdf = base / f"{stem}.svg", base / f"{stem}.pdf"
    (one,) = renderer.warned([RenderedComponent(spec, [Piece(face.name, face, None, 1)], 0.0)])
    problem = no_room([one], sheet, laid_alone(sheet), chosen=False)  # a sheet bigger than the paper is split
    if problem is not None:
        raise PnpError(blame(project.root, problem, (("papers", sheet.name), None), (("paper",), sheet.name)))
    data = impose(one, sheet, f"{game.manifest.title}: scoring sheet for {players} players")
    write_atomic(svg, face.svg.encode("utf-8"))
    write_atomic(pdf, data)
    if warn is not None:
        warn(game_warnings([one]))
    return [svg, pdf]
