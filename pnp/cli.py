"""The `pnp` command line: each command parses options and calls one library function."""

from __future__ import annotations

import gc
import os
import sys
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, NoReturn, Optional, TypeVar

import typer

from .errors import ContentError, OptionError, PnpError, counted, display_path
from .safetext import clip, json_text, markup, plain
from .serve import DEFAULT_PORT

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Print-and-play components and scoring from YAML game content.")

if TYPE_CHECKING:
    from rich.console import Console

    from .config import BuildOptions
    from .load.content import Project

# Commands import the library they need inside their body: a no-op `pnp build` answers
# before jinja2, pydantic and the game plugins are imported (pnp/build/witness.py).

T = TypeVar("T")


@lru_cache(maxsize=None)
def console(stderr: bool = False) -> "Console":
    """The console of stdout (or stderr), made when a command first prints: rich's import
    is about 35 ms of a start that `pnp build -q` need not pay."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=stderr, emoji=False)  # ":smile:" in a name stays text


def _flags_without_type() -> None:
    """Typer labels on/off flags with a value type (`--help <bool>`): show flags bare."""
    from typer.core import TyperOption

    shown = getattr(TyperOption, "display_type_rich", None)
    if shown is None:  # other Typer versions never showed it
        return

    def display_type_rich(self, ctx):
        return None if getattr(self, "is_flag", False) else shown(self, ctx)

    setattr(TyperOption, "display_type_rich", display_type_rich)  # a patch of Typer's class


_flags_without_type()

ProjectOpt = typer.Option(Path("."), "--project", "-p", help="Folder holding content/ and templates/.", file_okay=False)
# None means "not given": pnp.yaml's value applies, else the default named in the help
DpiOpt = typer.Option(None, "--dpi", help="Resolution of png and tts images (default 300, or pnp.yaml).", show_default=False)
PaperOpt = typer.Option(None, "--paper", help="letter, legal, a4, a3, tabloid or a paper of pnp.yaml, in any case (default letter).", show_default=False)
BleedOpt = typer.Option(None, "--bleed", help="Bleed around every piece: mm, or with a unit (3mm, 0.125in); 0 for none (default 3, or pnp.yaml).",
                        show_default=False)
OutOpt = typer.Option(None, "--out", help="Output folder (default: <project>/output).")
FormatOpt = typer.Option(None, "--format", "-f", show_default=False,
                         help="Comma-separated output formats: svg, pdf (per component and the per-game print PDF), pdf-single (one face per page for print shops), png, tts (Tabletop Simulator deck sheets); default svg,pdf or pnp.yaml.")
LayoutOpt = typer.Option(None, "--layout", help="Sheet layout of the print PDF: tight (shared cut lines: up to 9 poker cards on Letter or A4), standard, fold, scissors or one of pnp.yaml (default tight).",
                         show_default=False)
BackOffsetOpt = typer.Option(None, "--back-offset", help="X,Y: mm to shift backs in the print PDF, for a printer that misaligns them.",
                             show_default=False)
CutFileOpt = typer.Option(None, "--cut-file/--no-cut-file", show_default=False,
                          help="Print-then-cut: registration marks in the print PDF and an SVG cut file per sheet under cut/ (default off).")
PackOpt = typer.Option(None, "--pack/--no-pack", help="In the print PDF, pack what is left of every component onto shared sheets (default on).", show_default=False)
PlayersOpt = typer.Option(None, "--players", help="Build the set for this player count, where a game supports it.")
SetOpt = typer.Option([], "--set", help="Game option KEY=VALUE, e.g. --set rules=0.2.8 (repeatable).")
QuietOpt = typer.Option(False, "--quiet", "-q", help="Print nothing but errors.")


# Exit codes (docs/writing-games.md, "Exit codes").
EXIT_OK, EXIT_MISMATCH, EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


def say(text: object, stderr: bool = False) -> None:
    """Print one line of text as it is: no markup, no highlighting, controls written out."""
    console(stderr).print(plain(text), markup=False, highlight=False, soft_wrap=True)


def warn(lines: Iterable[object]) -> None:
    """Print warnings (a located line each, on stderr as errors are): what the build went on
    despite, a command's `--quiet` leaving them out."""
    for line in lines:
        say(clip(plain(line)), stderr=True)


def run(fn: Callable[[], T], *, as_json: bool = False) -> T:
    """Call `fn`, a command's whole work; turn input errors into one printed line each
    and exit code 2, a bug into one `pnp: internal error` line and exit code 3, never a
    traceback. With `as_json` the errors go to stdout as JSON."""
    try:
        return fn()
    except PnpError as exc:
        named = _command_running() if isinstance(exc, OptionError) else None  # an option's mistake: after its command's name
        fail([f"{named}: {e}" if named and isinstance(e, str) else e for e in exc.errors], exc.exit_code, as_json)
    except KeyboardInterrupt:
        fail(["interrupted"], EXIT_INTERRUPTED, as_json)
    except OSError as exc:
        fail([f"{exc.filename or 'pnp'}: {exc.strerror or exc}"], EXIT_INPUT, as_json)
    except BaseException as exc:  # the game's own Python (its `sys.exit()` too), or a bug in pnp: one line, unless debugging
        if os.environ.get("PNP_DEBUG"):
            raise
        from .load.plugins import stop_failure

        if (located := stop_failure(exc)) is not None:  # a plugin's code or a template's, not pnp's
            fail([located], EXIT_INPUT, as_json)
        if not isinstance(exc, Exception):  # no plugin's and no Exception: pnp's own exit goes on
            raise
        fail([f"pnp: internal error: {type(exc).__name__}: {exc} (set PNP_DEBUG=1 for a traceback)"], EXIT_INTERNAL, as_json)


def fail(errors: list[ContentError | str], code: int, as_json: bool) -> NoReturn:
    """Report `errors` (stderr, one line each; or JSON on stdout) and exit with `code`."""
    if as_json:
        print(json_text({"exit_code": code, "errors": [_error_json(e) for e in errors]}))
    else:
        for line in errors:
            say(clip(plain(line)), stderr=True)
    raise typer.Exit(code)


def _error_json(e: ContentError | str) -> dict[str, object]:
    if isinstance(e, ContentError):
        return {"file": display_path(e.path) if e.path is not None else None, "line": e.line, "column": e.column, "message": clip(e.message)}
    return {"file": None, "line": None, "column": None, "message": clip(str(e))}


def project_at(path: Path, *, made: bool = False) -> Project:
    """The project in the folder `path` (--project): a PnpError when there is no such
    folder, unless the command makes it (`made`: `pnp new`)."""
    from .load.content import Project

    if not made and not path.is_dir():
        raise OptionError(f"{path}: the project folder does not exist (--project)")
    return Project(path.resolve())


def options_for(project: Path, **given) -> "BuildOptions":
    """BuildOptions from the command line's options as typed, pnp.yaml's values where an
    option was not given (None), then the defaults."""
    from .config import BuildOptions, load_settings, merged
    from .units import to_mm

    settings = load_settings(project.resolve())
    defaults = BuildOptions()
    if isinstance(given.get("bleed"), str):  # 3, 3mm or 0.125in: a length as pnp.yaml takes it
        try:
            given["bleed"] = to_mm(given["bleed"])
        except ValueError:
            raise OptionError(f"--bleed {given['bleed']!r}: expected a length of 0 or more, in mm or with a unit, e.g. --bleed 3 or --bleed 0.125in") from None
    for key in ("paper", "layout"):  # their names are lower-case: --paper A4 is a4, --layout TIGHT tight
        if isinstance(given.get(key), str):
            given[key] = given[key].strip().lower()
    if isinstance(given.get("formats"), str):
        given["formats"] = tuple(v.strip() for v in given["formats"].split(",") if v.strip())
    if isinstance(given.get("back_offset"), str):
        try:
            x, y = (float(v) for v in given["back_offset"].split(","))
        except ValueError:
            raise OptionError(f"--back-offset {given['back_offset']!r}: expected X,Y in mm, e.g. --back-offset 0.5,-1") from None
        given["back_offset"] = (x, y)
    if isinstance(given.get("out"), Path):
        # early, and the file itself: not a line about a path under it (the out folder, or a folder on its way)
        if (file := next((f for f in (given["out"], *given["out"].parents) if f.exists() and not f.is_dir()), None)) is not None:
            raise OptionError(f"{file}: is a file, not a folder (--out names the output folder)")
        from .load.project_files import chosen_output

        given["out"] = chosen_output(project.resolve(), given["out"])
    if isinstance(given.get("extra"), list):
        given["extra"] = _options(given["extra"])
    chosen = merged(settings, given, {k: getattr(defaults, k) for k in ("formats", "paper", "bleed", "dpi", "layout", "back_offset", "pack", "cut_file")})
    chosen["formats"] = tuple(chosen["formats"])
    if given.get("cut_file") is None and given.get("formats") is not None and "pdf" not in chosen["formats"]:
        chosen["cut_file"] = False  # pnp.yaml's cut_file applies where it can: not to formats typed that make no print PDF
    chosen["back_offset"] = tuple(chosen["back_offset"])
    rest = {k: v for k, v in given.items() if k not in chosen}
    return BuildOptions(**chosen, **rest, papers=dict(settings.papers), layouts=dict(settings.layouts))


def _options(pairs: list[str]) -> dict[str, str]:
    from .load.options import parse_pairs

    return parse_pairs(pairs)


@app.command("build")
def build_cmd(
    games: Optional[list[str]] = typer.Argument(None, help="Games to build (default: every game under content/)."),
    format: Optional[str] = FormatOpt,
    paper: Optional[str] = PaperOpt,
    bleed: Optional[str] = BleedOpt,
    out_dir: Optional[Path] = OutOpt,
    players: Optional[int] = PlayersOpt,
    set_: list[str] = SetOpt,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar and no summary."),
    dpi: Optional[int] = DpiOpt,
    force: bool = typer.Option(False, "--force", help="Ignore the build cache: render and produce every file again."),
    layout: Optional[str] = LayoutOpt,
    back_offset: Optional[str] = BackOffsetOpt,
    pack: Optional[bool] = PackOpt,
    cut_file: Optional[bool] = CutFileOpt,
    project: Path = ProjectOpt,
) -> None:
    """Build SVG faces and print-ready PDF sheets into output/<game>/."""

    def job():
        import time

        from .build import witness

        where = out_dir.resolve() if out_dir else project.resolve() / "output"
        command = COMMAND  # as typed: global options (--trust) count too
        known = None if force or command is None else witness.answer(where, command)
        if known is not None and known.unchanged:  # nothing the last build of this command read or wrote has changed
            for game in [] if quiet else known.games:
                warn(known.warned.get(game, []))
                say(known.lines[game])
            return None
        todo = games if known is None else [game for game in known.games if game not in known.lines]  # the games that changed
        started = time.time_ns()
        from contextlib import ExitStack

        from .build.driver import Tally, build, check_input
        from .build.lock import output_lock
        from .load.project_files import output_folder, witnessed
        from .load.trust import trust_file

        noted, first = witness.noting(project.resolve(), where)
        with ExitStack() as locked:
            with witnessed(first) as read:  # pnp.yaml too: its options are the build's input
                options = options_for(project, formats=format, paper=paper, bleed=bleed, out=out_dir, players=players, extra=set_, dpi=dpi,
                                      force=force, layout=layout, back_offset=back_offset, pack=pack, cut_file=cut_file)
                proj = project_at(project)
                out = options.out or proj.output_dir  # where the summary finds the print PDFs
                checked = check_input(proj, todo, options)  # a typo is said at once, not once another build lets go
                # the build's lock (build() takes it again) held until its record is written: the
                # record must note this build's files, not those of a build that followed it
                locked.enter_context(output_lock(out if options.out else output_folder(proj.root, out), quiet))
                with progress_bar("building", "faces and files", quiet) as shown:
                    reports = build(proj, todo, options, progress=Tally(lambda done, total, what: shown(done, total, markup(what))) if shown else None,
                                    checked=checked)
            warned = {r.game: [plain(w) for w in r.warnings] for r in reports}
            if command is not None:
                witness.record(where, command, proj.root, read | {trust_file()}, {r.game: plain(_built(r, 0, 0, 0.0, out)) for r in reports}, started,
                               noted, {r.game: r.outputs for r in reports}, warned)
        if not quiet:
            made = {r.game: _built(r, r.written, r.rendered, r.seconds, out) for r in reports}
            for game in known.games if known is not None else made:
                warn(warned[game] if game in made else known.warned.get(game, []))
                say(made[game] if game in made else known.lines[game])
        return None

    run(job)


@contextmanager
def progress_bar(what: str, unit: str, quiet: bool = False) -> Iterator[Optional[Callable[..., None]]]:
    """On a terminal (and not `quiet`), a bar that goes when done: yields `shown(done, total,
    what=None)` (`what`: Rich markup, a new description); elsewhere None."""
    if quiet or not console().is_terminal:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn(unit), TimeElapsedColumn())
    with Progress(*columns, console=console(), transient=True) as bar:
        task = bar.add_task(what, total=None)
        yield lambda done, total, what=None: bar.update(task, completed=done, total=total, **({"description": what} if what else {}))


def _built(r, written: int, rendered: int, seconds: float, out: Optional[Path] = None) -> str:
    """The summary line of one game's build (naming the print PDF in `out`, when given)."""
    printed = f"; print {display_path(out / r.game / f'{r.game}-print.pdf')}" if out is not None and r.sheets else ""
    sheets = f", {counted(r.sheets[0], 'sheet')} to print ({r.sheets[1]} unpacked)" if r.sheets else ""
    return (f"{r.game}: {counted(r.components, 'component')}, {counted(r.pieces, 'piece')}, {counted(r.files, 'file')} ({written} written){sheets} "
            f"in {seconds:.2f}s, {counted(rendered, 'face')} rendered{printed}")


@app.command("watch")
def watch_cmd(
    games: Optional[list[str]] = typer.Argument(None, help="Games to rebuild (default: all)."),
    format: Optional[str] = FormatOpt,
    paper: Optional[str] = PaperOpt,
    bleed: Optional[str] = BleedOpt,
    out_dir: Optional[Path] = OutOpt,
    players: Optional[int] = PlayersOpt,
    set_: list[str] = SetOpt,
    dpi: Optional[int] = DpiOpt,
    layout: Optional[str] = LayoutOpt,
    back_offset: Optional[str] = BackOffsetOpt,
    pack: Optional[bool] = PackOpt,
    cut_file: Optional[bool] = CutFileOpt,
    quiet: bool = QuietOpt,
    project: Path = ProjectOpt,
) -> None:
    """Build, then rebuild on every change under content/, templates/, assets/ and plugins/ or of pnp.yaml (Ctrl-C stops); takes build's options."""
    from .tools.watch import watch

    def echo(line: str, error: bool) -> None:
        if error or not quiet:
            say(clip(plain(line)) if error else line, stderr=error)  # an error clipped as `fail` clips it

    def options() -> "BuildOptions":  # again after an edit of pnp.yaml
        return options_for(project, formats=format, paper=paper, bleed=bleed, players=players, out=out_dir, extra=set_, dpi=dpi,
                           layout=layout, back_offset=back_offset, pack=pack, cut_file=cut_file)

    # warnings as `pnp build` prints them (stderr, clipped); not errors: `--quiet` leaves them out
    run(lambda: watch(project_at(project), games, options(), echo, reload=options, warn=(lambda _: None) if quiet else warn))


@app.command("diff")
def diff_cmd(
    games: Optional[list[str]] = typer.Argument(None, help="Games to compare (default: all)."),
    since: Optional[str] = typer.Option(None, "--since", help="Compare with the content and templates at this git revision."),
    against: Optional[Path] = typer.Option(None, "--against", help="Compare with a saved output folder."),
    dpi: int = typer.Option(100, "--dpi", help="Resolution of the comparison images."),
    out_dir: Optional[Path] = typer.Option(None, "--out", help="Output folder; the page goes to <out>/diff/ (default: <project>/output)."),
    players: Optional[int] = PlayersOpt,
    set_: list[str] = SetOpt,
    project: Path = ProjectOpt,
) -> None:
    """List faces whose rendering changed, were added or removed; write output/diff/index.html."""
    from .tools.diff import diff
    from .units import percent

    def job() -> None:
        report = diff(project_at(project), games, options_for(project, out=out_dir, players=players, extra=set_), since, against, dpi)
        for c in report.changes:
            say(f"{c.status:8} {c.path}" + (f"  ({percent(c.ratio)} of pixels)" if c.status == "changed" else ""))
        say(f"{report.count('changed')} changed, {report.count('added')} added, {report.count('removed')} removed, "
            f"{report.unchanged + report.markup_only} unchanged: {display_path(report.page)}")

    run(job)


@app.command("preview")
def preview_cmd(
    games: Optional[list[str]] = typer.Argument(None, help="Games to show (default: all)."),
    paper: Optional[str] = PaperOpt,
    bleed: Optional[str] = BleedOpt,
    out_dir: Optional[Path] = OutOpt,
    players: Optional[int] = PlayersOpt,
    set_: list[str] = SetOpt,
    quiet: bool = QuietOpt,
    project: Path = ProjectOpt,
) -> None:
    """Build SVG and PDF, then write output/index.html: a gallery of every component."""
    from .tools.preview import preview

    page = run(lambda: preview(project_at(project), games, options_for(project, formats=("svg", "pdf"), paper=paper, bleed=bleed, out=out_dir,
                                                                       players=players, extra=set_), warn=(lambda _: None) if quiet else warn))
    if not quiet:
        say(display_path(page))


@app.command("validate")
def validate_cmd(
    games: Optional[list[str]] = typer.Argument(None, help="Games to check (default: all)."),
    players: Optional[int] = PlayersOpt,
    set_: list[str] = SetOpt,
    project: Path = ProjectOpt,
) -> None:
    """Check all content and templates (under the default game options, or those given);
    print `ok` or every error (exit 2)."""

    def job():
        from .config import BuildOptions
        from .render.faces import game_warnings
        from .build.pipeline import Pipeline

        proj = project_at(project)
        # rendering also checks the templates, with the game options a build given the same sees
        warned = Pipeline(proj, BuildOptions(bleed=0.0, players=players, extra=_options(set_))).each(proj.resolve_games(games), lambda game, rendered: game_warnings(rendered))
        warn(w for found in warned for w in found)
        say("ok")

    run(job)


@app.command("list")
def list_cmd(
    game: Optional[str] = typer.Argument(None, help="One game (default: all)."),
    players: Optional[int] = PlayersOpt,
    set_: list[str] = SetOpt,
    project: Path = ProjectOpt,
) -> None:
    """List games, their components and how many pieces each has (under the default game
    options, or those given)."""
    from .tools.inventory import inventory

    def job() -> None:
        from rich.table import Table
        from rich.text import Text

        from .config import BuildOptions

        table = Table("game", "component", "size (mm)", "items", "pieces", "back")
        for row in inventory(project_at(project), [game] if game else None, BuildOptions(players=players, extra=_options(set_))):
            table.add_row(*(Text(plain(cell)) for cell in row))
        console().print(table)

    run(job)


@app.command("schema")
def schema_cmd(
    game: Optional[str] = typer.Argument(None, help="One game (default: all)."),
    out_dir: Optional[Path] = typer.Option(None, "--out", help="Folder for the .schema.json files (default: output/schema)."),
    project: Path = ProjectOpt,
) -> None:
    """Write JSON Schemas of the content files, for editor validation and completion."""
    from .tools.schema import write_schemas

    def job() -> None:
        from .load.project_files import chosen_output

        proj = project_at(project)
        for p in write_schemas(proj, [game] if game else None, out_dir and chosen_output(proj.root, out_dir)):
            say(display_path(p))  # as every command names files: from the working folder

    run(job)


@app.command("new")
def new_cmd(
    game: str = typer.Argument(..., help="Name of the new game (lower-case, digits and '-')."),
    project: Path = ProjectOpt,
) -> None:
    """Scaffold a new game (content file, templates, one example card) that builds at once."""
    from .tools.scaffold import scaffold

    def job() -> None:
        from .load.shipped import shipped_games

        for p in scaffold(project_at(project, made=True), game):
            say(f"created {display_path(p)}")
        if game in shipped_games():
            say(f"note: pnp ships a game named {game}; in this project, this one is used instead")
        say(f"next: pnp build {game}")

    run(job)


@app.command("score")
def score_cmd(
    sheets: list[Path] = typer.Argument(..., metavar="SHEET", help="Scoring-sheet YAML files (each one's `game:` picks the scorer).", dir_okay=False),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON instead of tables (a list of {sheet, exit_code, report} for several sheets)."),
    project: Path = ProjectOpt,
) -> None:
    """Check and score finished games, one report per sheet; exit 1 if a claimed total is wrong, 2 if a sheet is impossible (the worst of all sheets)."""
    from .load.plugins import call_hook
    from .score.dispatch import score_sheet

    def one(sheet: Path) -> tuple[int, str, dict]:
        """Score one sheet: its exit code, its printed report (all or nothing) and its JSON."""
        report = score_sheet(project_at(project), sheet)
        if as_json:
            return report.exit_code, "", report.to_json()
        with console().capture() as captured:  # all or nothing: a failing report prints no half
            call_hook(report.render, "render(console)", (console(),), lambda _: None)
        return report.exit_code, captured.get(), {}

    if len(sheets) == 1:
        code, text, data = run(lambda: one(sheets[0]), as_json=as_json)
        sys.stdout.write(json_text(data) + "\n" if as_json else text)
        raise typer.Exit(code)

    def job() -> tuple[int, list[dict]]:
        worst, results = EXIT_OK, []
        for sheet in sheets:
            if not as_json:
                say(f"== {sheet}")
            try:
                code, text, data = one(sheet)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # this sheet's errors (its plugin's too); the other sheets are still scored
                errors, code = _sheet_errors(exc)
                text, data = "", {}
                if not as_json:
                    for line in errors:
                        say(clip(plain(line)), stderr=True)
                results.append({"sheet": str(sheet), "exit_code": code, "errors": [_error_json(e) for e in errors], "report": None})
            else:
                results.append({"sheet": str(sheet), "exit_code": code, "report": data})
            sys.stdout.write(text)
            worst = max(worst, code)
        return worst, results

    code, results = run(job, as_json=as_json)
    if as_json:
        sys.stdout.write(json_text(results) + "\n")
    raise typer.Exit(code)


def _sheet_errors(exc: BaseException) -> tuple[list[ContentError | str], int]:
    """One sheet's errors and exit code, as `run` reports them: the sheet's own (PnpError)
    or its plugin's code's (located there, a BaseException of it too); pnp's own bug or
    exit, or any exception under PNP_DEBUG, goes on to `run`."""
    if isinstance(exc, PnpError):
        return exc.errors, exc.exit_code
    from .load.plugins import stop_failure

    if not os.environ.get("PNP_DEBUG") and (located := stop_failure(exc)) is not None:
        return [located], EXIT_INPUT
    raise exc


@app.command("init")
def init_cmd(
    folder: Path = typer.Argument(Path("."), help="Folder to copy the game into (default: the current folder).", file_okay=False),
    example: Optional[str] = typer.Option(None, "--example", "-e", help="Shipped game to copy (its content, templates, plugins and example scoring sheets), or example project (all of it)."),
) -> None:
    """Copy a game or example project shipped with pnp into a folder, to build, edit and score there."""
    from .tools.shipped import init_example, known_examples

    def job() -> None:
        if example is None:
            # a designer starting a game of their own types `pnp init` too: tell them the command that starts one
            raise OptionError(f"--example GAME is required: one of {', '.join(known_examples()) or '(none shipped)'} "
                              "(a new game of your own: pnp new GAME)")
        for p in init_example(folder, example):
            say(f"created {display_path(p)}")
        where = "" if folder.resolve() == Path.cwd() else f"cd {folder} && "
        say(f"next: {where}pnp build {example}")

    run(job)


@app.command("sheet")
def sheet_cmd(
    game: str = typer.Argument(..., help="Game whose scoring sheet to write, e.g. tasty-humans."),
    players: int = typer.Option(..., "--players", "-n", help="Number of players."),
    template: bool = typer.Option(False, "--template", help="Write a blank, commented YAML sheet to fill in (stdout or --out)."),
    schema: bool = typer.Option(False, "--schema", help="Write the JSON Schema of the sheet file (stdout or --out)."),
    paper: Optional[str] = typer.Option(None, "--paper", help="Paper of the printable sheet: letter, legal, a4, a3, tabloid or a paper of pnp.yaml (default letter, or pnp.yaml).", show_default=False),
    out_path: Optional[Path] = typer.Option(None, "--out", help="File for --template/--schema; folder for the printable sheet (default: output/<game>/sheets)."),
    table: bool = typer.Option(False, "--table", help="Print the QR code of the table's link (`pnp serve --lan`) on the sheet, so players scan the paper to join."),
    port: Optional[int] = typer.Option(None, "--port", help=f"With --table: the port `pnp serve` listens on (default {DEFAULT_PORT}).", show_default=False),
    db: Optional[Path] = typer.Option(None, "--db", help="With --table: the play-test log holding the table's token (default: <project>/pnp-log.sqlite).", dir_okay=False),
    set_: list[str] = SetOpt,
    project: Path = ProjectOpt,
) -> None:
    """Write a blank printable scoring sheet (SVG + PDF), or with --template the YAML to fill in."""
    from .score.dispatch import printable_sheet, sheet_text

    def job() -> None:
        from .load.project_files import chosen_output

        if table and (template or schema):
            raise OptionError("--table prints the code on the printable sheet: leave out --template and --schema")
        if template and schema:
            raise OptionError("--template and --schema each write one file: give one of them")
        if not table and (port is not None or db is not None):
            raise OptionError(f"{'--port' if port is not None else '--db'} names the table's server: it goes with --table")
        if not (template or schema):
            chosen = options_for(project, paper=paper)  # --paper, else pnp.yaml's, with its own papers
            code = None
            if table:
                from .serve.sheetcode import table_code, table_url

                code = table_code(table_url(project_at(project), db, DEFAULT_PORT if port is None else port))
            proj = project_at(project)
            # a typo in --out must not write into the game's sources (as `pnp build --out`)
            folder = out_path and chosen_output(proj.root, out_path)
            for path in printable_sheet(proj, game, players, chosen.paper, folder, _options(set_), chosen.papers, code, warn):
                say(path)
            return
        proj = project_at(project)
        target = out_path and chosen_output(proj.root, out_path, kind="file")  # checked before any work: never a source overwritten
        text = sheet_text(proj, game, players, schema=schema, options=_options(set_))
        if out_path is None:
            print(text, end="")
        else:
            from .files import write_atomic

            assert target is not None
            write_atomic(target, text.encode("utf-8"))  # never half a sheet
            say(out_path)

    run(job)


@app.command("simulate")
def simulate_cmd(
    game: str = typer.Argument(..., help="Game to simulate, e.g. tasty-humans."),
    games: int = typer.Option(1000, "--games", "-n", help="Games to play (per side with --against)."),
    players: Optional[str] = typer.Option(None, "--players", help="Players per game, or several counts such as 2,3,4 (one report each and a page comparing them; default: the game's usual count)."),
    players_as: Optional[str] = typer.Option(None, "--players-as", help="Strategies by seat, comma-separated, e.g. greedy,random (they turn one seat per game)."),
    set_: list[str] = typer.Option([], "--set", help="Rule option KEY=VALUE, e.g. --set rules=0.2.8 or --set cravings.troll.points=3 (repeatable)."),
    against: Optional[str] = typer.Option(None, "--against", help="Also play the same seeds with a KEY=VALUE change, a rule version or a git revision, and show the differences."),
    seed: int = typer.Option(0, "--seed", help="Seed of the run: same seed, same games."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", help="Processes (default: every core)."),
    out_dir: Optional[Path] = typer.Option(None, "--out", help="Output folder; the report goes to <out>/<game>/simulate/ (default: <project>/output)."),
    sheets: Optional[Path] = typer.Option(None, "--sheets", help="Also write every finished game as a scoring-sheet file into this folder, for `pnp score`.", file_okay=False),
    project: Path = ProjectOpt,
) -> None:
    """Play many games with the rules engine; print a table and write output/<game>/simulate/index.html."""
    from .files import unmakeable
    from .load.project_files import chosen_output, output_folder
    from .simulate import check, simulate
    from .simulate.report import print_counts, print_table, write_counts, write_report
    from .simulate.sheets import write_sheets
    from .simulate.summary import summarise

    def job():
        proj = project_at(project)
        if jobs is not None and jobs < 1:
            raise OptionError(f"--jobs {jobs}: expected at least 1")
        try:
            counts = [int(n) for n in ([] if players is None else players.split(","))] or [None]  # 2,,3: an empty count is refused
        except ValueError:
            raise OptionError(f"--players {players}: expected a number of players, or several such as 2,3,4") from None
        name = proj.resolve_games([game])[0]
        # --players-as by seat; an empty name is kept, to be refused as an unknown strategy
        strategies = None if players_as is None else [v.strip() for v in players_as.split(",")]
        base = chosen_output(proj.root, out_dir) / name / "simulate" if out_dir else output_folder(proj.root, proj.output_dir / name / "simulate")
        for option, folder in (("--out", base), ("--sheets", sheets)):
            # checked before the games, which may take minutes; made only once they all succeeded
            problem = None if folder is None else unmakeable(folder)
            if problem is not None:
                raise PnpError(f"{option} {display_path(folder)}: cannot make the folder: {problem}")
        for n in dict.fromkeys(counts):  # every count's options checked before a game is played
            check(proj, game, games=games, players=n, strategies=strategies, options=_options(set_))
        played = []
        for n in dict.fromkeys(counts):
            with progress_bar(f"playing {markup(game)}" + (f", {n} players" if n else ""), "games") as shown:
                result = simulate(proj, game, games=games, players=n, strategies=strategies,
                                  options=_options(set_), against=against, seed=seed, jobs=jobs, sheets=sheets is not None, progress=shown)
            played.append((result, summarise(result)))
        runs, written = [], []
        several = len(counts) > 1
        for result, _ in played if several and not out_dir else ():  # each count's folder too, before a page is written
            output_folder(proj.root, base / f"{result.players}p")
        for result, sections in played:
            page = write_report(result, base / f"{result.players}p" if several else base, sections)
            if sheets is not None:
                written += write_sheets(result, sheets / f"{result.players}p" if several else sheets)
            runs.append((result, sections, page))
        if len(runs) > 1:
            return runs, write_counts(runs, base), written
        return runs, runs[0][2], written

    runs, page, written = run(job)
    if len(runs) == 1:
        print_table(runs[0][0], console(), runs[0][1])
    else:
        print_counts(runs, console())
    if written:
        console().print(f"{len(written)} sheets in {display_path(sheets)}", markup=False, soft_wrap=True)
    console().print(display_path(page), markup=False, soft_wrap=True)


def _version(shown: bool) -> None:
    if shown:
        from . import __version__

        say(f"pnp {__version__}")
        raise typer.Exit()


@app.callback()
def everywhere(
    trust: bool = typer.Option(False, "--trust", help="Run the project's plugin Python this once without `pnp trust` (for CI; or set PNP_TRUST=1)."),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print pnp's version and exit."),
) -> None:
    """Print-and-play components and scoring from YAML game content."""
    from .load import trust as trusted

    trusted.ALLOW_ALL = trust


@app.command("trust")
def trust_cmd(
    revoke: bool = typer.Option(False, "--revoke", help="Withdraw the trust instead."),
    project: Path = ProjectOpt,
) -> None:
    """Allow the project's plugins (its own Python) to run, as they are now: editing them withdraws it."""
    from .load import trust as trusted

    def job() -> None:
        root = project.resolve()
        if revoke:
            say(f"{display_path(root)}: trust withdrawn" if trusted.revoke(root) else f"{display_path(root)}: was not trusted")
            return
        where, digests = trusted.trust(root)
        if not digests:
            say(f"{display_path(root)}: no plugins (nothing to trust)")
        for name, digest in digests.items():
            say(f"trusted {name} ({digest[:19]}…) of {display_path(root)}, recorded in {where}")

    run(job)


DbOpt = typer.Option(None, "--db", help="Play-test log file (default: <project>/pnp-log.sqlite).", dir_okay=False)


@app.command("serve")
def serve_cmd(
    lan: bool = typer.Option(False, "--lan", help="Listen on the local network (phones at the table join by the QR code), not only this computer."),
    port: int = typer.Option(DEFAULT_PORT, "--port", help="Port to listen on."),
    new_token: bool = typer.Option(False, "--new-token", help="A new link (token) for the table; by default it stays the same after a restart."),
    db: Optional[Path] = DbOpt,
    project: Path = ProjectOpt,
) -> None:
    """Score at the table: a page where every player enters their board on their phone, checked and scored live; finished games go to the log."""
    from .serve import serve

    run(lambda: serve(project_at(project), db, lan, port, lambda line: console().print(plain(line), markup=False, highlight=False, soft_wrap=True),
                      new_token))


log_app = typer.Typer(no_args_is_help=True, help="The play-test log: games finished with `pnp serve` or imported.")
app.add_typer(log_app, name="log")


def _logged(project: Path, db: Optional[Path], ids: Optional[list[int]] = None):
    from .serve.log import log_path, logged_games

    return logged_games(log_path(project, db), ids, named=db is not None)


NO_GAMES_LOGGED = "no games logged yet: `pnp serve` logs every game finished at the table, `pnp log import` a scoring sheet"


@log_app.command("list")
def log_list_cmd(db: Optional[Path] = DbOpt, project: Path = ProjectOpt) -> None:
    """List the logged games: id, date, game, rules, rule changes, players, winners, content digest."""
    from .serve.logbook import rows

    listed = run(lambda: rows(_logged(project, db)))
    for row in listed:
        say("  ".join(row))
    if not listed:
        say(NO_GAMES_LOGGED, stderr=True)  # not on stdout: what a script reads stays the list


@log_app.command("export")
def log_export_cmd(
    ids: Optional[list[int]] = typer.Argument(None, help="Ids of the games (default: all)."),
    csv: bool = typer.Option(False, "--csv", help="One CSV row per player instead of sheet files."),
    out_dir: Optional[Path] = typer.Option(None, "--out", help="Folder for the sheet files (default: <project>/output/log); with --csv, the CSV file (default: stdout)."),
    db: Optional[Path] = DbOpt,
    project: Path = ProjectOpt,
) -> None:
    """Export logged games as scoring-sheet YAML files (for `pnp score`) or as CSV."""
    from .serve.logbook import export_csv, export_sheets

    def job() -> None:
        from .load.project_files import chosen_output, output_folder

        # a typo in --out must not overwrite the game's sources (as `pnp build --out`): checked before reading the log
        target = out_dir and chosen_output(project_at(project).root, out_dir, kind="file" if csv else "folder", log=db)
        games = _logged(project, db, ids or None)
        if not games:
            say(NO_GAMES_LOGGED, stderr=True)
        if csv:
            data = export_csv(games).encode("utf-8-sig")  # with a BOM: Excel reads UTF-8 as the system's code page without one
            if target is None:
                sys.stdout.flush()
                sys.stdout.buffer.write(data)  # bytes: the BOM and the names as UTF-8 whatever stdout's encoding
                sys.stdout.buffer.flush()
            else:
                from .files import write_atomic

                write_atomic(target, data)
                say(out_dir)
            return
        proj = project_at(project)
        for path in export_sheets(games, target or output_folder(proj.root, proj.output_dir / "log")):
            say(display_path(path))

    run(job)


@log_app.command("import")
def log_import_cmd(
    sheets: list[Path] = typer.Argument(..., metavar="SHEET", help="Scoring-sheet YAML files, checked and scored as `pnp score` does.", dir_okay=False),
    db: Optional[Path] = DbOpt,
    project: Path = ProjectOpt,
) -> None:
    """Log finished games from sheet files (all of them, or none when one has a problem)."""
    from .serve.log import Log, log_path
    from .serve.logbook import import_sheets

    for game_id, new in run(lambda: import_sheets(project_at(project), Log(log_path(project, db)), sheets)):
        say(f"logged game {game_id}" if new else f"game {game_id} is already in the log")


def _click_errors() -> type[Exception]:
    """Click's base exception (the usage errors are of it): Typer 0.29 on vendors Click as
    typer._click and exports only BadParameter of it; earlier Typers run on Click itself."""
    try:
        from typer._click.exceptions import ClickException
    except ImportError:
        from click.exceptions import ClickException  # type: ignore[assignment]
    return ClickException


def usage_error(exc) -> NoReturn:
    """A command-line mistake (a bad option value, an unknown option or command, a missing
    argument) as one line naming the command, exit 2."""
    if type(exc).__name__ == "NoArgsIsHelpError":  # `pnp log` alone: the help is printed already
        sys.exit(EXIT_INPUT)
    ctx = getattr(exc, "ctx", None)
    command = ctx.command_path if ctx is not None else _command_typed()
    message = " ".join(exc.format_message().split()).rstrip(".")
    say(clip(f"{command}: {message} (see {command} --help)"), stderr=True)
    sys.exit(EXIT_INPUT)


def _command_running() -> str:
    """The command running (`pnp build`, `pnp log export`), as a usage error names it."""
    try:
        from typer._click.globals import get_current_context
    except ImportError:  # Typers before 0.29 run on Click itself (`_click_errors`)
        from click import get_current_context  # type: ignore[no-redef]
    ctx = get_current_context(silent=True)
    if ctx is None:
        return _command_typed()
    words: list[str] = []
    while ctx.parent is not None:  # the root's own name is the program's as started ('root' under a test's runner)
        words.insert(0, ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(["pnp", *words])


def _command_typed() -> str:
    """`pnp` and the (sub)commands named on the command line, for an error Click raised
    without its context (`pnp build --bleed` with no value)."""
    from typer.main import get_command

    words, group = ["pnp"], get_command(app)
    for arg in COMMAND or []:
        if arg.startswith("-"):  # a flag before the command (--trust): the groups take no option values
            continue
        found = getattr(group, "commands", {}).get(arg)
        if found is None:
            break
        words.append(arg)
        group = found
    return " ".join(words)


GC_EVERY = 100_000  # new container objects between two collections of the youngest generation
# the command line when pnp runs from its console script: only then is a build recorded
# for a no-op answer (the app called from Python, by a test or `pnp watch`, leaves no record)
COMMAND: list[str] | None = None


def main() -> None:
    """Console-script entry point."""
    global COMMAND
    COMMAND = sys.argv[1:]
    # pydantic looks for plugins in the entry points of every installed package when it
    # makes its first model: 40 ms of each start, for content models no plugin should
    # watch. PYDANTIC_DISABLE_PLUGINS set to anything (empty too) keeps pydantic's own way.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    # A build makes far more objects (content models, template code, faces) than cycles to
    # free: the collector's default pace (every 700 new objects) costs about 2% of a build.
    gc.set_threshold(GC_EVERY, 50, 100)
    try:
        # not standalone: a command-line mistake comes back here as Click's exception, to
        # print as one line (Typer would draw it as a box under the usage); --help stays Typer's
        code = app(standalone_mode=False)
    except SystemExit as exc:
        sys.exit(exc.code)
    except _click_errors() as exc:
        usage_error(exc)
    except typer.Abort:
        say("pnp: aborted", stderr=True)
        sys.exit(EXIT_INTERRUPTED)
    except Exception as exc:  # outside any command (option parsing): still no traceback
        if os.environ.get("PNP_DEBUG"):
            raise
        say(f"pnp: internal error: {type(exc).__name__}: {exc}", stderr=True)
        sys.exit(EXIT_INTERNAL)
    else:
        sys.exit(code if isinstance(code, int) else EXIT_OK)  # not standalone, typer.Exit's code is returned
    finally:
        # the process ends here: its objects need no last search for cycles while the
        # interpreter shuts down (tens of milliseconds after a build)
        gc.freeze()


if __name__ == "__main__":  # `python -m pnp.cli ...` (`python -m pnp` runs pnp/__main__.py)
    main()
