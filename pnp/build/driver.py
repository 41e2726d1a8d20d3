"""The main job: validate games, render their faces, produce every format, write `output/<game>/`.

Every game named is loaded and validated before any file is written, and every file of a
game is produced in memory before the first one is written, so bad input never leaves a
half-written output tree. A format plans its files (each with a digest of its inputs);
the build cache (pnp/build/cache.py) skips faces and files whose inputs did not change.
Loading, the options check and rendering are the shared pipeline (pnp/build/pipeline.py).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack, contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ContextManager, Iterator

from .cache import CACHE_FILE, BuildCache, code_stamp
from .lock import output_lock
from ..config import BuildOptions
from ..files import Planned, digest
from ..load.content import GameContent, Project
from ..errors import ContentError, OptionError, PnpError
from ..load.project_files import output_folder, outside
from .output import Staged, check_files, commit_files, discard_staged
from .pipeline import Pipeline
from ..render.faces import RenderedComponent, game_warnings

if TYPE_CHECKING:
    from ..formats.pdf import BookPages
    from ..formats.pdf_engine import Kept


@dataclass
class Tally:
    """Build progress counted in faces (rendered or reused) and output files: `total` grows
    as each game's items are expanded and its files planned; `shown(done, total, what)` is
    told after every change."""

    shown: Callable[[int, int, str], None]
    done: int = 0
    total: int = 0

    def plan(self, units: int, what: str) -> None:
        self.total += units
        self.shown(self.done, self.total, what)

    def tick(self, what: str) -> None:
        self.done += 1
        self.shown(self.done, self.total, what)


@dataclass(frozen=True)
class GameReport:
    game: str
    components: int
    pieces: int
    files: int
    written: int
    seconds: float
    rendered: int = 0  # faces rendered; the others came from the cache
    changed: tuple[str, ...] = ()  # files written, relative to output/<game>/
    removed: tuple[str, ...] = ()  # stale files deleted
    parts: list[RenderedComponent] = field(default_factory=list, repr=False, compare=False)
    title: str = ""
    sheets: tuple[int, int] | None = None  # sheets of the print PDF, and without packing
    stale: tuple[str, ...] = ()  # files of formats not built now not made from these faces (`stale_outputs`)
    made_at: dict[str, int] = field(default_factory=dict)  # the dpi the png/tts files were made at (what `stale` was judged at)
    outputs: tuple[str, ...] = ()  # every file the build made or found current, relative to output/<game>/
    warnings: tuple[ContentError, ...] = ()  # what its templates may get wrong, the build going on (`game_warnings`)


# format name -> the files it makes for one game: {relative path: Planned}
Writer = Callable[[GameContent, list[RenderedComponent], BuildOptions], dict[str, Planned]]


def svg_files(game: GameContent, rendered: list[RenderedComponent], options: BuildOptions) -> dict[str, Planned]:
    return {face.relpath: Planned(digest(face.svg), partial(str.encode, face.svg, "utf-8")) for comp in rendered for face in comp.faces}


def pdf_files(game: GameContent, rendered: list[RenderedComponent], options: BuildOptions,
              started: "BookPages | None" = None, kept: "Kept | None" = None, plans: dict[str, Any] | None = None) -> dict[str, Planned]:
    """The PDF of each component and the game's print PDF, all drawn from one typeset book
    of the game's faces (pnp/formats/pdf.py): each face goes through the engine once (once
    for each component that shows it).
    `started`: the book the game's faces went into as they were rendered (`start_book`);
    `kept`: the game's typeset documents of earlier builds (its `BuildCache`); `plans`:
    where the print PDF's plan is kept once made (`_print_plan`)."""
    from ..formats.pdf import SharedBook, component_key
    from ..config import papers

    title = game.manifest.title
    printed = [comp for comp in rendered if comp.pieces]
    if not printed:
        return {}
    book = SharedBook(title, partial(_layouts, game, printed, rendered, options, plans), game.fonts, partial(_book, game, printed, started, kept))
    # a component's PDF reads the book's documents of its own faces and of its own labels
    # alone (font subsets are made per document): its key is its component and its sheet;
    # the print PDF reads them all
    files = {f"{game.name}-print.pdf": book.planned(_print_key(game, rendered, options), len(printed))}
    width, height = papers(options.papers)[options.paper]
    files.update({f"pdf/{comp.spec.id}.pdf": book.planned(digest("pdf", options.paper, width, height, component_key(title, game.fonts, comp)), number)
                  for number, comp in enumerate(printed)})
    if options.cut_file:
        from ..formats.cutfile import cut_svg

        made = _print_plan(game, rendered, options, plans)
        for number, page in made.cut_pages:
            svg = cut_svg(page, made.layout.sheet, f"{game.manifest.title}: cut file of page {number}")
            files[f"cut/{game.name}-page-{number:03d}.svg"] = Planned(digest(svg), partial(str.encode, svg, "utf-8"))
    return files


def start_book(game: GameContent, kept: "Kept | None" = None) -> "BookPages":
    """A book of the game's faces that typesets each full document of faces at once (in
    fresh processes, pnp/formats/pdf_engine.py `Apart`): fed every piece as it is rendered,
    a big game is typeset while the rest of it renders (a small one, of one document, is
    typeset once rendered, as before)."""
    from ..formats.pdf import BookPages

    return BookPages(game.manifest.title, game.fonts.family, early=game.fonts.paths, kept=kept)


def _book(game: GameContent, printed: list[RenderedComponent], started: "BookPages | None", kept: "Kept | None") -> "BookPages":
    """The game's book with its printed faces in piece order (each front, then its back),
    as `start_book` was fed them: the same pages in the same documents whether the faces
    were rendered now or came from the cache."""
    from ..formats.pdf import BookPages

    book = started or BookPages(game.manifest.title, game.fonts.family, kept=kept)
    for comp in printed:
        for piece in comp.pieces:
            book.add_piece(piece)
    return book


def _layouts(game: GameContent, printed: list[RenderedComponent], rendered: list[RenderedComponent], options: BuildOptions,
             plans: dict[str, Any] | None = None) -> list:
    """The sheets of each printed component's PDF, then those of the print PDF."""
    from ..formats.impose import Paper, layout
    from ..config import papers

    sheet = Paper(options.paper, *papers(options.papers)[options.paper])
    return [layout(comp, sheet, f"{game.manifest.title}: {comp.spec.name}", game.fonts) for comp in printed] + [_print_plan(game, rendered, options, plans).layout]


def _print_key(game: GameContent, rendered: list[RenderedComponent], options: BuildOptions) -> str:
    """The cache key of output/<game>/<game>-print.pdf (every component in one PDF,
    pnp/formats/print_pdf.py): what its sheets are made from."""
    from ..config import papers, sheet_layout, table
    from ..formats.pdf import component_key

    width, height = papers(options.papers)[options.paper]
    style = sheet_layout(options.layout, options.layouts)
    # the title page names the layout and describes the others, as pnp.yaml's `layouts:` make them
    offered = [options.layout, {name: s.model_dump(mode="json") for name, s in table(options.layouts).items()}, sorted(options.layouts)]
    return digest("print", options.paper, width, height, style.model_dump(mode="json"), options.back_offset, options.pack, options.cut_file,
                  offered, game.manifest.title, game.fonts.digest, [component_key(game.manifest.title, game.fonts, c) for c in rendered])


def _print_plan(game: GameContent, rendered: list[RenderedComponent], options: BuildOptions, plans: dict[str, Any] | None = None):
    """The print PDF's plan of `rendered` (formats/print_pdf.py), made once for the PDF, its
    cut files and the summary's sheet count when they share `plans` (one game's build: the
    same faces and sheet options; the output folder, all its options differ in, plays no part)."""
    if plans is not None and "print" in plans:
        return plans["print"]
    from ..formats.impose import Paper
    from ..config import papers, sheet_layout
    from ..formats.print_pdf import plan

    width, height = papers(options.papers)[options.paper]
    made = plan(game.manifest.title, rendered, Paper(options.paper, width, height), sheet_layout(options.layout, options.layouts),
                pack=options.pack, back_offset=options.back_offset, registration=options.cut_file, layout_name=options.layout,
                fonts=game.fonts, layouts=options.layouts)
    if plans is not None:
        plans["print"] = made
    return made


def print_sheets(game: GameContent, rendered: list[RenderedComponent], options: BuildOptions,
                 plans: dict[str, Any] | None = None) -> tuple[int, int] | None:
    """Sheets the print PDF takes, and how many without packing (None without pieces);
    `plans`: the print PDF's plan, when its PDF made it already (`_print_plan`)."""
    if not any(comp.pieces for comp in rendered):
        return None
    made = _print_plan(game, rendered, options, plans)
    return made.sheets, made.sheets_unpacked


def png_files(game: GameContent, rendered: list[RenderedComponent], options: BuildOptions) -> dict[str, Planned]:
    from ..formats.raster import TooManyPixels, located, png_files as plan

    try:
        return plan(rendered, options.dpi, game.manifest.title)
    except TooManyPixels as exc:
        raise located(game, exc) from None


def tts_files(game: GameContent, rendered: list[RenderedComponent], options: BuildOptions) -> dict[str, Planned]:
    from ..formats.tts import tts_files as plan

    assert options.out is not None  # render_game passes the resolved output folder
    return plan(game, rendered, options.dpi, options.out / game.name)


def pdf_single_files(game: GameContent, rendered: list[RenderedComponent], options: BuildOptions) -> dict[str, Planned]:
    from ..formats.print_shop import pdf_single_files as plan

    return plan(game.manifest.title, rendered)


# the formats typst makes (by the PDF engine's workers, when there are several PDFs to make)
PDF_FORMATS = ("pdf", "pdf-single")
FORMATS: dict[str, Writer] = {"svg": svg_files, "pdf": pdf_files, "png": png_files, "tts": tts_files, "pdf-single": pdf_single_files}


def check_formats(formats: tuple[str, ...]) -> None:
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise OptionError(f"unknown format {', '.join(unknown) or '(none)'}: expected some of {', '.join(FORMATS)}")


def check_options(options: BuildOptions) -> None:
    """Fail on bad options before any work."""
    check_formats(options.formats)
    from ..config import DPI_RANGE, back_offset_problem, papers, sheet_layout, unknown

    known = papers(options.papers)
    if options.paper not in known:
        raise OptionError(unknown("paper", options.paper, known))
    sheet_layout(options.layout, options.layouts)
    if problem := back_offset_problem(options.back_offset):
        raise OptionError(problem)
    if options.players is not None and options.players < 0:  # a game checks its own range
        raise OptionError(f"--players cannot be negative, got {options.players}")
    if not DPI_RANGE[0] <= options.dpi <= DPI_RANGE[1]:
        raise OptionError(f"--dpi must be between {DPI_RANGE[0]} and {DPI_RANGE[1]}, got {options.dpi}")


def check_cut_file(options: BuildOptions, root: Path) -> None:
    """Fail on a cut file asked for that none can be made for, or that no print-then-cut
    machine can follow: a cut file matches the print PDF's sheets (of the pdf format) as
    printed, and a fold layout's sheet is folded and glued before it is cut."""
    from ..config import blame, sheet_layout

    if options.cut_file and "pdf" not in options.formats:
        made = ", ".join(options.formats)
        raise OptionError(blame(root, f"cut files need the pdf format (they match the print PDF's sheets), but the formats are {made}: "
                                   f"add pdf (--format {','.join(options.formats)},pdf, or formats: in pnp.yaml) or leave the cut file off (--no-cut-file)",
                             (("cut_file",), "true")))
    if options.cut_file and "pdf" in options.formats and sheet_layout(options.layout, options.layouts).fold:
        raise OptionError(blame(root, f"layout {options.layout}: no cut file for a folded sheet (a cut file follows the sheet as printed, "
                                   f"before it is folded and glued): for print-then-cut use {_unfolded(options.layouts)} "
                                   "(--layout, or layout: in pnp.yaml), or leave the cut file off (--no-cut-file)", (("layout",), options.layout), (("cut_file",), "true")))


def _unfolded(layouts: dict[str, Any] | None) -> str:
    """"layout tight, standard or scissors": the layouts that do not fold, as the project
    defines them: the built-in ones first, in the title page's order, then a project's own
    under new names, sorted (as the title page offers them)."""
    from ..config import table
    from ..formats.print_pdf import layout_names

    styles = table(layouts)
    names = [name for name in layout_names(layouts) if not styles[name].fold]
    if not names:
        return "a layout that does not fold"
    return "layout " + (f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else names[0])


def check_room(game: GameContent, rendered: list[RenderedComponent], options: BuildOptions) -> None:
    """Fail when the paper less its margins leaves no room for the game's pieces (formats/room.py):
    in the print PDF (the layout's margin), then in the component PDFs (impose's own)."""
    from ..config import blame, papers, sheet_layout
    from ..formats.impose import Paper
    from ..formats.room import laid_alone, laid_in_print, no_room

    paper = Paper(options.paper, *papers(options.papers)[options.paper])
    style = sheet_layout(options.layout, options.layouts)
    paper_keys = ((("papers", options.paper), None), (("paper",), options.paper))
    problem = no_room(rendered, Paper(paper.name, paper.width, paper.height, style.margin), laid_in_print(paper, style))
    if problem is not None:
        layout_keys = ((("layouts", options.layout, "margin"), None), (("layouts", options.layout), None), (("layout",), options.layout))
        raise PnpError(blame(game.project.root, f"layout {options.layout}: {problem}", *layout_keys, *paper_keys))
    problem = no_room(rendered, paper, laid_alone(paper), chosen=False)
    if problem is not None:
        raise PnpError(blame(game.project.root, f"the component PDFs: {problem}", *paper_keys))


def out_root(project: Project, options: BuildOptions, game: str) -> Path:
    """The folder a game's files go to; a project's `output/` (or a game's folder in any
    output folder) that is a link leading elsewhere is refused, so a build writes and
    removes files only where the user asked."""
    if options.out is None:
        return output_folder(project.root, project.output_dir / game)
    base = options.out
    root = base / game
    real = outside(base, root)
    if real is not None:
        raise PnpError(ContentError(root, None, None, f"the output folder leads outside the output folder (to {real}): "
                                    "remove the link, or pass --out DIR to write elsewhere"))
    return root


@dataclass
class Produced:
    """One game rendered and its changed files made, in memory."""

    game: GameContent
    rendered: list[RenderedComponent]
    faces_rendered: int
    cache: BuildCache
    planned: dict[str, Planned]
    files: dict[str, bytes]  # the planned files the cache could not vouch for
    seconds: float
    sheets: tuple[int, int] | None = None
    staged: Staged | None = None  # those of them written ahead of the commit
    stale: tuple[str, ...] = ()


@dataclass
class Rendered:
    """One game rendered and its files planned; `make()` makes those that are not current."""

    game: GameContent
    options: BuildOptions
    faces: list[RenderedComponent]
    count: int  # faces rendered (the others came from the cache)
    cache: BuildCache
    planned: dict[str, Planned]
    seconds: float
    tally: Tally | None
    book: "BookPages | None" = None  # typesetting the game's faces since they were rendered
    plans: dict[str, Any] = field(default_factory=dict)  # the print PDF's plan, made once (`_print_plan`)

    @property
    def todo(self) -> dict[str, Planned]:
        return {rel: plan for rel, plan in self.planned.items() if not self.cache.is_current(rel, plan.key)}

    def make(self) -> Produced:
        start = time.perf_counter()
        staged = Staged(self.cache.root)
        try:
            todo = self.todo
            if any(plan.costly for plan in todo.values()):  # PDFs to make (by typst)
                # before any file is made, the engine names the game's fonts where it runs (a worker, else here)
                from ..formats.pdf_engine import check_font_names

                check_font_names(self.game)
            files = make_all(todo, self.tally, staged)
            sheets = print_sheets(self.game, self.faces, self.options, self.plans) if "pdf" in self.options.formats else None
        except BaseException:
            staged.discard()
            raise
        finally:  # a file that failed first leaves nothing typesetting for the book
            if self.book is not None:
                self.book.close()
        stale = stale_outputs(self.game, self.faces, self.options, self.cache)
        self.cache.dpi.update({fmt: self.options.dpi for fmt in RASTER if fmt in self.options.formats})
        return Produced(self.game, self.faces, self.count, self.cache, self.planned, files, self.seconds + time.perf_counter() - start, sheets,
                        staged, stale)


RASTER = ("png", "tts")  # formats a build leaves as they are when it does not make them


def stale_outputs(game: GameContent, rendered: list[RenderedComponent], options: BuildOptions, cache: BuildCache) -> tuple[str, ...]:
    """The files of an earlier build's PNG or TTS folder, when this build does not make that
    format, that were not made from the faces rendered now (at the dpi they were made at),
    or are missing; `png/` or `tts/` alone when that is unknown. The preview marks them."""
    stale: list[str] = []
    for fmt in RASTER:
        if fmt in options.formats or not (cache.root / fmt).is_dir():
            continue
        dpi = cache.dpi.get(fmt)
        try:
            planned = FORMATS[fmt](game, rendered, replace(options, dpi=dpi, out=cache.root.parent)) if dpi else None
        except PnpError:  # a format these faces cannot make: what the folder holds is older
            planned = None
        if planned is None:
            stale.append(f"{fmt}/")
        else:
            stale += sorted(rel for rel, plan in planned.items() if not cache.is_current(rel, plan.key))
    return tuple(stale)


def render_game(game: GameContent, options: BuildOptions, root: Path, values: dict[str, Any],
                tally: Tally | None = None) -> Rendered:
    """Render one game (cached faces reused) and plan its files."""
    start = time.perf_counter()
    cache = BuildCache.open(root, code_stamp(game))
    if options.force:
        cache.forget(built_folders(options, game.name))
    # with nothing cached every PDF is made: their faces are typeset as they are rendered
    book = start_book(game, cache) if "pdf" in options.formats and cache.loaded is None else None
    try:
        faces, count = Pipeline(game.project, options).render(game, values, cache, tally, book.add_piece if book else None)
        if "pdf" in options.formats:
            check_room(game, faces, options)
        planned: dict[str, Planned] = {}
        plans: dict[str, Any] = {}
        located = replace(options, out=root.parent)  # writers that name absolute paths (tts) see where
        for fmt in options.formats:
            planned.update(pdf_files(game, faces, located, book, cache, plans) if fmt == "pdf" else FORMATS[fmt](game, faces, located))
    except BaseException:
        if book is not None:
            book.close()
        raise
    return Rendered(game, options, faces, count, cache, planned, time.perf_counter() - start, tally, book, plans)


def make_all(plans: dict[str, Planned], tally: Tally | None = None, staged: Staged | None = None) -> dict[str, bytes]:
    """Make every planned file; costly ones (PDFs) on threads, each of which waits for a
    worker process of the PDF engine (pnp/formats/pdf_engine.py) when a pool is open, while
    the others are made here (and written ahead of the commit to `staged`)."""
    if tally:
        tally.plan(len(plans), "files")
    for plan in plans.values():  # what shared jobs will be asked for, before any is made
        if plan.claim is not None:
            plan.claim()
    # in plan order: a game's print PDF, the costliest, first
    costly = [rel for rel, plan in plans.items() if plan.costly]
    made: dict[str, bytes] = {}
    with ThreadPoolExecutor(max(1, min(len(costly), os.cpu_count() or 1))) as pool:
        pending = {rel: pool.submit(plans[rel].make) for rel in costly}
        for rel, plan in plans.items():
            if rel not in pending:
                made[rel] = plan.make()
                if staged is not None:
                    staged.add(rel, made[rel])
                if tally:
                    tally.tick(rel)
        for rel, future in pending.items():
            made[rel] = future.result()
            if tally:
                tally.tick(rel)
    return {rel: made[rel] for rel in plans}


# a game's PDFs are one job for the PDF engine (one book of its faces): workers pay off
# only when at least this many games have PDFs to make
POOL_FROM = 2


def _engine(options: BuildOptions) -> ContextManager[None]:
    """PDF engine workers for a build that makes PDFs."""
    if not set(PDF_FORMATS) & set(options.formats):
        return nullcontext()
    from ..formats.pdf_engine import engine_pool
    from ..load.fonts import DEFAULT

    return engine_pool(DEFAULT.paths)


@dataclass
class Checked:
    """A build's input, checked: the options, and the games loaded with their option values."""

    pipeline: Pipeline
    games: list[GameContent]
    values: dict[str, dict[str, Any]]


def check_input(project: Project, games: list[str] | None, options: BuildOptions) -> Checked:
    """What `build` checks first, reading the project alone (no output folder, so no lock):
    a command that takes the lock itself checks this first, and a typo is reported at once,
    not after another build that holds the lock has finished (`pnp watch`, `pnp preview`)."""
    pipeline = Pipeline(project, options).check()
    check_cut_file(options, project.root)
    # a build that makes PDFs has its engine name the game's fonts (`Rendered.make`): typst
    # loaded here would keep the PDF workers from forking (pnp/formats/pdf_engine.py)
    loaded = pipeline.load(project.resolve_games(games), engine_fonts=not set(PDF_FORMATS) & set(options.formats))
    return Checked(pipeline, loaded, pipeline.values(loaded))


def build(project: Project, games: list[str] | None, options: BuildOptions, progress: Tally | None = None,
          checked: Checked | None = None) -> list[GameReport]:
    """Build the named games (all when None) and return one report per game; `progress`
    counts the faces and files as they are done. `checked`: `check_input` of the same
    arguments, done already (not done again)."""
    checked = checked or check_input(project, games, options)
    pending: list[tuple[int, Future[Produced]]] = []
    with output_lock(options.out or output_folder(project.root, project.output_dir)):  # one build at a time reads and writes a folder
        try:
            return _build(project, options, progress, checked, pending)
        finally:  # what a failed build wrote ahead of its commit goes (a commit leaves nothing staged)
            made = [future.result() for _, future in pending if future.done() and not future.cancelled() and future.exception() is None]
            discard_staged(p.staged for p in made if p.staged is not None)


def _build(project: Project, options: BuildOptions, progress: Tally | None, checked: Checked,
           pending: list[tuple[int, Future[Produced]]]) -> list[GameReport]:
    with ExitStack() as engine:
        loaded, values = checked.games, checked.values
        roots = [out_root(project, options, game.name) for game in loaded]
        # a game built for the first time makes all its PDFs: the workers start now, on this
        # thread, and get ready while the games render; otherwise only once it is known that
        # enough PDFs changed (an edit that changes no PDF starts no process)
        overlap = len(loaded) > 1 and (options.force or any(not (root / CACHE_FILE).is_file() for root in roots))
        if overlap:
            engine.enter_context(_engine(options))
        errors: list[list] = [[] for _ in loaded]  # each game's problems, reported in game order
        done: list[tuple[int, Rendered]] = []
        # a game's files are made on a thread while the next game renders: with the PDF
        # engine in worker processes, rendering and PDFs overlap
        with ThreadPoolExecutor(max(1, len(loaded))) as making:
            # with the PDFs made aside, the biggest games render first: what is left once the
            # last game has rendered is then the PDFs of a small one
            order = sorted(range(len(loaded)), key=lambda n: -_content_bytes(loaded[n])) if overlap else range(len(loaded))
            for number in order:  # everything in memory first: a template error leaves output/ untouched
                game, root = loaded[number], roots[number]
                try:
                    game_done = render_game(game, options, root, values[game.name], progress)
                except PnpError as exc:  # report every game's problems at once
                    errors[number].extend(exc.errors)
                    continue
                if overlap:
                    pending.append((number, making.submit(game_done.make)))
                else:
                    done.append((number, game_done))
            if sum(any(plan.costly for plan in game_done.todo.values()) for _, game_done in done) >= POOL_FROM:
                engine.enter_context(_engine(options))
            pending += [(number, making.submit(game_done.make)) for number, game_done in done]
            produced = []
            for number, future in sorted(pending, key=lambda p: p[0]):
                try:
                    produced.append(future.result())
                except PnpError as exc:
                    errors[number].extend(exc.errors)
    if any(errors):
        raise PnpError([e for found in errors for e in found])
    for p in produced:  # every game's files checked before one is committed: a refusal leaves output/ as it was
        check_files(p.cache.root, p.files, p.staged)
    with interrupt_deferred(), ThreadPoolExecutor(2) as writing:  # writing files is the kernel's work: two games at a time
        return list(writing.map(lambda p: _commit(p, built_folders(options, p.game.name)), produced))


@contextmanager
def interrupt_deferred() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) back while the block runs, then act on it: the commit of a
    build's games is short, and cut in the middle it would leave some games' files new and
    the others' old. Only on the main thread, where Python handles signals."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = signal.getsignal(signal.SIGINT)
    previous = signal.SIG_DFL if previous is None else previous  # a handler not set from Python: the default

    def held(signum: int, frame: Any) -> None:
        received.append(signum)
        signal.signal(signal.SIGINT, previous)  # a second Ctrl-C acts at once (a commit stuck on a hung disk)

    signal.signal(signal.SIGINT, held)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:  # once the commit is done, as it would have been at once: KeyboardInterrupt, or the handler that was there
        if callable(previous):
            previous(signal.SIGINT, None)
        elif previous == signal.SIG_DFL:
            signal.raise_signal(signal.SIGINT)


def built_folders(options: BuildOptions, game: str) -> tuple[str, ...]:
    """The output folders a build makes, and the game's print PDF: their files are its to
    replace or remove (a game left with no piece to print has its old print PDF removed)."""
    scope = tuple(f"{fmt}/" for fmt in options.formats)
    return scope + ("cut/", f"{game}-print.pdf") if "pdf" in options.formats else scope  # cut files go with the print PDF


def _content_bytes(game: GameContent) -> int:
    """The size of a game's content files: a cheap measure of how much it draws."""
    return sum(path.stat().st_size for path in game.content_dir.rglob("*") if path.is_file()) if game.content_dir.is_dir() else 0


def _commit(p: Produced, scope: tuple[str, ...]) -> GameReport:
    start = time.perf_counter()
    current = set(p.planned) - set(p.files)
    done = commit_files(p.cache.root, p.files, scope, current, p.staged)
    p.cache.record({rel: p.planned[rel].key for rel in p.files}, written=bool(done.written))
    p.cache.save(scope)
    pieces = sum(piece.copies for c in p.rendered for piece in c.pieces)
    seconds = p.seconds + time.perf_counter() - start
    return GameReport(p.game.name, len(p.rendered), pieces, len(p.planned), len(done.written), seconds,
                      p.faces_rendered, tuple(done.written), tuple(done.removed), p.rendered, p.game.manifest.title, p.sheets, p.stale,
                      dict(p.cache.dpi), tuple(sorted(p.planned)), game_warnings(p.rendered))

