"""The `pnp` command line: each command parses options and calls one library function."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Callable, Optional, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from .build import BuildOptions, build
from .content import Project, load_game
from .errors import PnpError


def _flags_without_type() -> None:
    """Typer labels on/off flags with a value type (`--help <bool>`): show flags bare."""
    from typer.core import TyperOption

    shown = getattr(TyperOption, "display_type_rich", None)
    if shown is None:  # other Typer versions never showed it
        return

    def display_type_rich(self, ctx):
        return None if getattr(self, "is_flag", False) else shown(self, ctx)

    TyperOption.display_type_rich = display_type_rich


_flags_without_type()
app = typer.Typer(add_completion=False, no_args_is_help=True, help="Print-and-play components and scoring from YAML game content.")
out = Console(highlight=False)
err = Console(stderr=True, highlight=False, soft_wrap=True)

T = TypeVar("T")

ProjectOpt = typer.Option(Path("."), "--project", "-p", help="Folder holding content/ and templates/.", file_okay=False)
DpiOpt = typer.Option(300, "--dpi", help="Resolution of png and tts images.")
PaperOpt = typer.Option("letter", "--paper", help="letter, a4, a3 or tabloid.")
BleedOpt = typer.Option(3.0, "--bleed", help="Bleed in mm around every piece (0 for none).")
PlayersOpt = typer.Option(None, "--players", help="Build the set for this player count, where a game supports it.")
SetOpt = typer.Option([], "--set", help="Game option KEY=VALUE, e.g. --set rules=0.2.8 (repeatable).")
QuietOpt = typer.Option(False, "--quiet", "-q", help="Print nothing but errors.")


def run(fn: Callable[[], T]) -> T:
    """Call `fn`; turn input errors into one printed line each and exit code 2, never a traceback."""
    try:
        return fn()
    except PnpError as exc:
        for line in exc.errors:
            err.print(str(line), markup=False)
        raise typer.Exit(exc.exit_code) from None
    except KeyboardInterrupt:
        err.print("interrupted", markup=False)
        raise typer.Exit(130) from None
    except OSError as exc:
        err.print(f"{exc.filename or 'pnp'}: {exc.strerror or exc}", markup=False)
        raise typer.Exit(2) from None
    except Exception as exc:  # a bug in pnp itself: one line, unless debugging
        if os.environ.get("PNP_DEBUG"):
            raise
        err.print(f"pnp: internal error: {type(exc).__name__}: {exc} (set PNP_DEBUG=1 for a traceback)", markup=False)
        raise typer.Exit(1) from None


def project_at(path: Path) -> Project:
    return Project(path.resolve())


def _split(values: Optional[str]) -> tuple[str, ...]:
    return tuple(v.strip() for v in (values or "").split(",") if v.strip())


def _options(pairs: list[str]) -> dict[str, str]:
    extra = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise PnpError(f"--set {pair!r}: expected KEY=VALUE, e.g. --set rules=0.2.8")
        extra[key.strip()] = value.strip()
    return extra


@app.command("build")
def build_cmd(
    games: Optional[list[str]] = typer.Argument(None, help="Games to build (default: every game under content/)."),
    format: str = typer.Option("svg,pdf", "--format", "-f", help="Comma-separated output formats: svg, pdf, png, tts (Tabletop Simulator deck sheets)."),
    paper: str = PaperOpt,
    bleed: float = BleedOpt,
    out_dir: Optional[Path] = typer.Option(None, "--out", help="Output folder (default: <project>/output)."),
    players: Optional[int] = PlayersOpt,
    set_: list[str] = SetOpt,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar and no summary."),
    dpi: int = DpiOpt,
    force: bool = typer.Option(False, "--force", help="Ignore the build cache: render and produce every file again."),
    project: Path = ProjectOpt,
) -> None:
    """Build SVG faces and print-ready PDF sheets into output/<game>/."""

    def job():
        options = BuildOptions(_split(format), paper, bleed, out_dir.resolve() if out_dir else None, players, _options(set_), dpi, force)
        proj = project_at(project)
        if quiet or not out.is_terminal:
            return build(proj, games, options)
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        from .build import Tally

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("faces and files"), TimeElapsedColumn())
        with Progress(*columns, console=out, transient=True) as bar:
            task = bar.add_task("building", total=None)

            def shown(done: int, total: int, what: str) -> None:
                bar.update(task, completed=done, total=total, description=what)

            return build(proj, games, options, progress=Tally(shown))

    reports = run(job)
    if not quiet:
        for r in reports:
            out.print(f"{r.game}: {r.components} components, {r.pieces} pieces, {r.files} files ({r.written} written) in {r.seconds:.2f}s, {r.rendered} faces rendered", soft_wrap=True)


@app.command("watch")
def watch_cmd(
    games: Optional[list[str]] = typer.Argument(None, help="Games to rebuild (default: all)."),
    format: str = typer.Option("svg,pdf", "--format", "-f", help="Comma-separated output formats."),
    paper: str = PaperOpt,
    bleed: float = BleedOpt,
    players: Optional[int] = PlayersOpt,
    set_: list[str] = SetOpt,
    dpi: int = DpiOpt,
    quiet: bool = QuietOpt,
    project: Path = ProjectOpt,
) -> None:
    """Build, then rebuild on every change under content/ and templates/ (Ctrl-C stops)."""
    from .watch import watch

    def echo(line: str, error: bool) -> None:
        if error or not quiet:
            (err if error else out).print(line, markup=False, soft_wrap=True)

    run(lambda: watch(project_at(project), games, BuildOptions(_split(format), paper, bleed, None, players, _options(set_), dpi), echo))


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
    from .diff import diff
    from .errors import display_path

    report = run(lambda: diff(project_at(project), games, BuildOptions(out=out_dir.resolve() if out_dir else None, players=players, extra=_options(set_)), since, against, dpi))
    for c in report.changes:
        out.print(f"{c.status:8} {c.path}" + (f"  ({c.ratio:.1%} of pixels)" if c.status == "changed" else ""), markup=False, soft_wrap=True)
    out.print(f"{report.count('changed')} changed, {report.count('added')} added, {report.count('removed')} removed, "
              f"{report.unchanged + report.markup_only} unchanged: {display_path(report.page)}", markup=False, soft_wrap=True)


@app.command("preview")
def preview_cmd(
    games: Optional[list[str]] = typer.Argument(None, help="Games to show (default: all)."),
    paper: str = PaperOpt,
    bleed: float = BleedOpt,
    out_dir: Optional[Path] = typer.Option(None, "--out", help="Output folder (default: <project>/output)."),
    players: Optional[int] = PlayersOpt,
    set_: list[str] = SetOpt,
    quiet: bool = QuietOpt,
    project: Path = ProjectOpt,
) -> None:
    """Build SVG and PDF, then write output/index.html: a gallery of every component."""
    from .errors import display_path
    from .preview import preview

    out_path = out_dir.resolve() if out_dir else None
    page = run(lambda: preview(project_at(project), games, BuildOptions(("svg", "pdf"), paper, bleed, out_path, players, _options(set_))))
    if not quiet:
        out.print(display_path(page), markup=False, soft_wrap=True)


@app.command("validate")
def validate_cmd(
    games: Optional[list[str]] = typer.Argument(None, help="Games to check (default: all)."),
    project: Path = ProjectOpt,
) -> None:
    """Check all content and templates; print `ok` or every error (exit 2)."""
    from .render import render_game

    def job():
        proj = project_at(project)
        errors = []
        for name in proj.resolve_games(games):
            try:
                render_game(load_game(proj, name), {}, 0.0)  # rendering also checks the templates
            except PnpError as exc:
                errors.extend(exc.errors)
        if errors:
            raise PnpError(errors)

    run(job)
    out.print("ok")


@app.command("list")
def list_cmd(
    game: Optional[str] = typer.Argument(None, help="One game (default: all)."),
    project: Path = ProjectOpt,
) -> None:
    """List games, their components and how many pieces each has."""
    from .inventory import inventory

    rows = run(lambda: inventory(project_at(project), [game] if game else None))
    table = Table("game", "component", "size (mm)", "items", "pieces", "back")
    for row in rows:
        table.add_row(*row)
    out.print(table)


@app.command("schema")
def schema_cmd(
    game: Optional[str] = typer.Argument(None, help="One game (default: all)."),
    out_dir: Optional[Path] = typer.Option(None, "--out", help="Folder for the .schema.json files (default: output/schema)."),
    project: Path = ProjectOpt,
) -> None:
    """Write JSON Schemas of the content files, for editor validation and completion."""
    from .schema import write_schemas

    paths = run(lambda: write_schemas(project_at(project), [game] if game else None, out_dir))
    for p in paths:
        out.print(str(p))


@app.command("new")
def new_cmd(
    game: str = typer.Argument(..., help="Name of the new game (lower-case, digits and '-')."),
    project: Path = ProjectOpt,
) -> None:
    """Scaffold a new game (content file, templates, one example card) that builds at once."""
    from .scaffold import scaffold

    created = run(lambda: scaffold(project_at(project), game))
    for p in created:
        out.print(f"created {p}")
    out.print(f"next: pnp build {game}")


@app.command("score")
def score_cmd(
    sheets: list[Path] = typer.Argument(..., metavar="SHEET", help="Scoring-sheet YAML files (each one's `game:` picks the scorer).", dir_okay=False),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON instead of tables (a list of {sheet, exit_code, report} for several sheets)."),
    project: Path = ProjectOpt,
) -> None:
    """Check and score finished games, one report per sheet; exit 1 if a claimed total is wrong, 2 if a sheet is impossible (the worst of all sheets)."""
    from .score import score_sheet

    results = []
    for sheet in sheets:
        if len(sheets) > 1 and not as_json:
            out.print(f"== {sheet}", markup=False, soft_wrap=True)
        try:
            report = run(lambda: score_sheet(project_at(project), sheet))
        except typer.Exit as exc:  # its errors are printed; the other sheets are still scored
            results.append((sheet, None, exc.exit_code))
            continue
        results.append((sheet, report, report.exit_code))
        if not as_json:
            report.render(out)
    if as_json:
        import json

        data = [{"sheet": str(s), "exit_code": code, "report": r and r.to_json()} for s, r, code in results]
        if len(sheets) == 1:
            if results[0][1] is None:
                raise typer.Exit(results[0][2])
            data = data[0]["report"]
        print(json.dumps(data, indent=2, ensure_ascii=False))
    raise typer.Exit(max(code for _, _, code in results))


@app.command("init")
def init_cmd(
    folder: Path = typer.Argument(Path("."), help="Folder to copy the game into (default: the current folder).", file_okay=False),
    example: Optional[str] = typer.Option(None, "--example", "-e", help="Shipped game to copy: its content, templates and example scoring sheets."),
) -> None:
    """Copy a game shipped with pnp into a folder, to build, edit and score there."""
    from .shipped import init_example, shipped_games

    def job():
        if example is None:
            raise PnpError(f"--example GAME is required: one of {', '.join(shipped_games()) or '(none shipped)'}")
        return init_example(folder, example)

    created = run(job)
    for p in created:
        out.print(f"created {p}", markup=False, soft_wrap=True)
    where = "" if folder.resolve() == Path.cwd() else f"cd {folder} && "
    out.print(f"next: {where}pnp build {example}", markup=False, soft_wrap=True)


@app.command("sheet")
def sheet_cmd(
    game: str = typer.Argument(..., help="Game whose scoring sheet to write, e.g. tasty-humans."),
    players: int = typer.Option(..., "--players", "-n", help="Number of players."),
    template: bool = typer.Option(False, "--template", help="Write a blank, commented YAML sheet to fill in (stdout or --out)."),
    schema: bool = typer.Option(False, "--schema", help="Write the JSON Schema of the sheet file (stdout or --out)."),
    paper: str = typer.Option("letter", "--paper", help="letter or a4, for the printable sheet."),
    out_path: Optional[Path] = typer.Option(None, "--out", help="File for --template/--schema; folder for the printable sheet (default: output/<game>/sheets)."),
    set_: list[str] = SetOpt,
    project: Path = ProjectOpt,
) -> None:
    """Write a blank printable scoring sheet (SVG + PDF), or with --template the YAML to fill in."""
    from .score import printable_sheet, sheet_text

    if not (template or schema):
        for path in run(lambda: printable_sheet(project_at(project), game, players, paper, out_path, _options(set_))):
            out.print(str(path), markup=False, soft_wrap=True)
        return
    text = run(lambda: sheet_text(project_at(project), game, players, schema=schema, options=_options(set_)))
    if out_path is None:
        print(text, end="")
    else:
        run(lambda: out_path.write_text(text, encoding="utf-8"))
        out.print(str(out_path), markup=False, soft_wrap=True)


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except SystemExit as exc:
        sys.exit(exc.code)
