"""Run the PDF engine (typst, then `pdf_sheets`) on every core.

A process forked after typst has run can hang on the engine's own threads. So a build that
makes PDFs opens `engine_pool()` before anything imports typst: it forks one worker per
core, each of which imports the engine, loads the fonts once (one `typst.Compiler` per
font set, which gives the same bytes as a fresh compile) and then, for one game at a time,
typesets its book of faces and writes every PDF of the game from it, while the build goes
on rendering (the workers run behind the build: `engine_jobs.behind`). Without a pool
(one core, a platform without fork, or typst already loaded in this process) the same job
runs here. A book of more faces than one document holds (CHUNK) is typeset a document at a
time in fresh processes instead (`Apart`: typst never frees what it typeset while its
process lives), each document as soon as the build has rendered its faces, and its PDFs
composed in one more fresh process, which takes each document as it is typeset
(`Apart.compose`); those processes run behind the build while it renders, and run the
jobs of `engine_jobs`, which imports no more than a job needs.
"""

from __future__ import annotations

import importlib
import os
import pickle
import subprocess
import sys
import threading
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from multiprocessing import get_context
from typing import TYPE_CHECKING, Any, Iterator, Protocol

from ..errors import PnpError
from ..workers import end_with_parent
from . import engine_jobs
from .engine_jobs import behind, compiler, compose_book, families, make_pdf

if TYPE_CHECKING:
    from ..load.content import GameContent

_POOL: ProcessPoolExecutor | None = None
CHUNK = 500  # faces typeset in one document of a book (pnp.formats.pdf.BookPages)
PACKAGE = Path(__file__).resolve().parent.parent  # pnp/
_THREADS = "RAYON_NUM_THREADS"  # how many threads typst's work-stealing pool (rayon) starts


class Kept(Protocol):
    """Where a build keeps a game's typeset documents between builds (pnp.build.cache
    `BuildCache`): an edit of one card typesets again only the document that holds it."""

    def typeset(self, text: str, inputs: dict[str, str]) -> tuple[str, bytes | None]:
        """The key of a document (what typst reads) and its PDF as typeset before, or None."""

    def keep_typeset(self, key: str, data: bytes) -> None:
        """Keep a document's PDF under its key."""


def make_book(docs: list[tuple[str, dict[str, str]]], font_files: tuple[str, ...], plans: list,
              known: list[bytes | None] | None = None) -> tuple[list[bytes], str, list[bytes]]:
    """Typeset each typst document of a book (pnp.formats.pdf.BookPages) but those `known`
    already, then write each sheet plan from it: the PDFs, or [] and the engine's
    complaint; and the typeset documents."""
    # typst lets go of the GIL while it compiles: the composer (pikepdf, about 0.05 s to
    # import) is imported meanwhile, off the path of a small game's build
    composer = threading.Thread(target=importlib.import_module, args=(f"{__package__}.pdf_sheets",), daemon=True)
    composer.start()
    parts: list[bytes] = []
    for number, (text, inputs) in enumerate(docs):
        found = known[number] if known else None
        data, problem = (found, "") if found is not None else make_pdf(text, inputs, font_files)
        if problem:
            return [], problem, []
        parts.append(data)
    composer.join()
    return compose_book(parts, plans), "", parts


class Apart:
    """The documents of a big book, each typeset in a fresh Python process as soon as it is
    handed in, as many at once as there are cores: typst keeps what it typeset for the
    life of its process (about 100 KB a face), so a 5,000-card deck typeset in one process
    would hold half a gigabyte. A build hands in each document of faces as it fills
    (pnp.formats.pdf.BookPages), so typst works while the rest of the game renders; once
    it has rendered, one more process composes every PDF of the book (`compose`), taking
    each document as it is typeset. A document `kept` from an earlier build is not typeset
    again, and one typeset now is kept once the book is composed."""

    def __init__(self, font_files: tuple[str, ...], kept: Kept | None = None):
        self.font_files = font_files
        self.kept = kept
        self._new: list[tuple[int, str]] = []  # the documents typeset now: their job and key
        # a thread a typesetter at once, each waiting on its process
        self._waiting = ThreadPoolExecutor(min(os.cpu_count() or 1, _worker_cap()))
        self._jobs: list[Future[tuple[Any, str]]] = []
        self._behind = True  # while the build renders; what is handed in after it, the build waits on

    def add(self, text: str, inputs: dict[str, str]) -> None:
        if self.kept is not None:
            key, data = self.kept.typeset(text, inputs)
            if data is not None:
                done: Future[tuple[Any, str]] = Future()
                done.set_result(((data, ""), ""))
                self._jobs.append(done)
                return
            self._new.append((len(self._jobs), key))
        self._jobs.append(self._waiting.submit(_in_child, ("typeset", text, inputs, self.font_files), self._behind))

    def compose(self, docs: list[tuple[str, dict[str, str]]], plans: list) -> tuple[list[bytes], str]:
        """Each sheet plan written from the book `docs` (of which the first were handed in
        already): the PDFs, or [] and the engine's complaint. The composer takes every
        document as it is typeset and mostly waits for the next, so the typesetters keep
        every core (one of them fewer beside the composer left a core idle); what the
        composer holds grows to the whole book, about 130 MiB for 5,400 faces, and with two
        typesetters and the build all of it peaks at 340-385 MiB (bench/README.md, fifth
        pass)."""
        self._behind = False
        for text, inputs in docs[len(self._jobs):]:
            self.add(text, inputs)
        try:
            made, problem = _compose_arriving(self._jobs, [_pages(text) for text, _ in docs], plans)
        finally:
            self._waiting.shutdown(cancel_futures=True)
        if not problem and self.kept is not None:
            for number, key in self._new:
                self.kept.keep_typeset(key, self._jobs[number].result()[0][0])
        return made, problem

    def close(self) -> None:
        """Typeset nothing more (the build failed): what waits is dropped, what runs ends."""
        self._waiting.shutdown(wait=False, cancel_futures=True)


def _pages(text: str) -> int:
    """The pages of one of the book's typst documents (pnp.formats.pdf.BookPages writes
    each page as a line of its own)."""
    return sum(line.startswith("#page(") for line in text.splitlines())


def _compose_arriving(jobs: list[Future[tuple[Any, str]]], counts: list[int], plans: list) -> tuple[list[bytes], str]:
    """The composer (`engine_jobs.compose_arriving`) in a fresh process, handed each typeset
    document of `jobs` as it comes: the PDFs, or [] and what went wrong."""
    child = subprocess.Popen(_command(False), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_child_env())
    assert child.stdin is not None
    fault = ""
    try:
        child.stdin.write(pickle.dumps(("compose", counts, plans)))
        for number, job in enumerate(jobs):
            result, fault = job.result()
            if fault or result[1]:
                fault = fault or result[1]
                child.kill()
                break
            child.stdin.write(pickle.dumps((number, result[0])))
            child.stdin.flush()
    except BrokenPipeError:  # the composer ended early: what it said is read below
        pass
    out, err = child.communicate()
    if fault:
        return [], fault
    if child.returncode != 0:
        said = err.decode("utf-8", "replace").strip().splitlines()
        return [], said[-1] if said else f"the engine's process ended with code {child.returncode}"
    return pickle.loads(out), ""


def _in_child(job: tuple, behind: bool = False) -> tuple[Any, str]:
    """Run `job` in a fresh process: the result and what went wrong ("" when nothing). A
    new interpreter, not a fork: the build runs threads, and a fork would copy the locks
    they hold."""
    done = subprocess.run(_command(behind), input=pickle.dumps(job), capture_output=True, env=_child_env())
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return None, said[-1] if said else f"the engine's process ended with code {done.returncode}"
    return pickle.loads(done.stdout), ""


def _command(behind: bool) -> list[str]:
    """A process apart runs behind the build's own (os.nice) while the build still renders,
    else not: the build then waits on it, and niceness would only let anything else on the
    machine go first."""
    return [sys.executable, "-m", engine_jobs.__name__] + (["--behind"] if behind else [])


def _child_env() -> dict[str, str]:
    # the child imports this very pnp, wherever the build found it
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(PACKAGE.parent), os.environ.get("PYTHONPATH"))))}
    # typst on one thread: its pool of threads holds about 50 MiB more for a document of
    # CHUNK faces and gains nothing here, where the documents already run side by side on
    # every core (the same bytes; unless the user chose otherwise)
    env.setdefault(_THREADS, "1")
    return env


def _warm(font_files: tuple[str, ...]) -> None:
    """Import the engine and the composer and load the default fonts while the build still renders."""
    import pikepdf  # noqa: F401

    compiler(font_files)


def run_book(title: str, docs: list[tuple[str, dict[str, str]]], font_files: tuple[str, ...], plans: list,
             apart: Apart | None = None, faces: dict[str, str] | None = None, kept: Kept | None = None) -> list[bytes]:
    """The PDFs `make_book` writes, made by a pool worker when a pool is open; a book of
    several documents of faces is typeset and composed apart (by `apart` when the build
    handed it the first documents already). `faces`: the face (component/name) each input
    of the documents holds, to name the one the engine failed on. `kept`: the documents
    typeset by an earlier build, where this one keeps those it typesets."""
    if apart is not None or sum(len(inputs) for _, inputs in docs) > CHUNK:  # the faces fill more than one document
        made, problem = (apart or Apart(font_files, kept)).compose(docs, plans)
    else:
        found = [kept.typeset(text, inputs) for text, inputs in docs] if kept is not None else []
        known = [data for _, data in found] or None
        if _POOL is not None:
            made, problem, parts = _POOL.submit(make_book, docs, font_files, plans, known).result()
        else:
            made, problem, parts = make_book(docs, font_files, plans, known)
        if kept is not None and not problem:
            for (key, data), part in zip(found, parts):
                if data is None:
                    kept.keep_typeset(key, part)
    if problem:
        name, _, said = problem.partition(": ")
        if faces and name in faces:  # the engine named the page it failed on (engine_jobs.make_pdf)
            raise PnpError(f"{title}: the PDF engine failed on face {faces[name]}: {said}")
        raise PnpError(f"{title}: the PDF engine failed: {problem}")
    return made


def font_families(font_files: tuple[str, ...]) -> dict[str, str | None]:
    """The family typst knows each font file by (`engine_jobs.families`), asked of a pool
    worker when a pool is open: typst loaded in this process would keep a later build's
    pool from forking (`_can_fork`)."""
    if _POOL is not None:
        return _POOL.submit(families, font_files).result()
    return families(font_files)


def check_font_names(game: "GameContent") -> None:
    """A PnpError at the `fonts:` line of each of the game's own font files typst knows by
    another family than pnp measured it as (load/content.py `check_engine_families`): its
    text would print in typst's fallback font. Nothing to ask for a game without fonts."""
    if game.manifest.fonts:
        from ..load.content import check_engine_families

        check_engine_families(game, font_families(game.fonts.paths))


def _pool_worker(parent: int) -> None:
    """A pool worker's start: behind the build, and ending with it (pnp.workers)."""
    behind()
    end_with_parent(parent)


def _worker_cap() -> int:
    text = os.environ.get("PNP_PDF_WORKERS", "8").strip()
    if not text.isdigit() or int(text) < 1:
        raise PnpError(f"PNP_PDF_WORKERS={text!r}: expected a whole number of PDF worker processes, 1 or more (1: none)")
    return int(text)


def _can_fork() -> bool:
    # fork only where it is the platform's own way (Linux); never after typst has loaded here
    return sys.platform.startswith("linux") and "typst" not in sys.modules


@contextmanager
def engine_pool(warm_fonts: tuple[str, ...] = ()) -> Iterator[None]:
    """Make the PDFs of the `with` block on a worker process per core (see the module).
    Nested or impossible pools leave the block to run the engine in this process."""
    global _POOL
    workers = min(os.cpu_count() or 1, _worker_cap())
    if _POOL is not None or workers < 2 or not _can_fork():
        yield
        return
    pool = ProcessPoolExecutor(workers, mp_context=get_context("fork"), initializer=_pool_worker, initargs=(os.getpid(),))
    try:
        # the first submit forks every worker, here on the calling thread, before any other thread starts
        for _ in range(workers):
            pool.submit(_warm, warm_fonts)
        _POOL = pool
        yield
    finally:
        _POOL = None
        pool.shutdown(wait=True, cancel_futures=True)
