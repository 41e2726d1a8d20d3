"""Run the PDF engine (typst, then `pdf_sheets`) on every core.

A process forked after typst has run can hang on the engine's own threads. So a build that makes PDFs
opens `engine_pool()` before anything imports typst: it forks one worker per core, each
of which imports the engine, loads the fonts once (one `typst.Compiler` per font set, which
gives the same bytes as a fresh compile) and then, for one game at a time, typesets its
book of faces and writes every PDF of the game from it, while the build goes
on rendering (the workers run behind the build: `_behind`). Without a pool (one core, a platform without fork, or
typst already loaded in this process) the same job runs here. A book of more faces than
one document holds (CHUNK) is typeset a document at a time in fresh processes instead
(`Apart`: typst never frees what it typeset while its process lives), each document as
soon as the build has rendered its faces, and each of its PDFs composed in a fresh
process too (`compose_apart`); those processes run behind the build while it renders,
and run the jobs of `engine_jobs`, which imports no more than a job needs.
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
from typing import Any, Iterator

from ..errors import PnpError
from . import engine_jobs
from .engine_jobs import NICER, ROOT, _compiler, behind as _behind, compose_book, make_pdf  # noqa: F401  (re-exported)

_POOL: ProcessPoolExecutor | None = None
CHUNK = 500  # faces typeset in one document of a book (pnp.formats.pdf.BookPages)
PACKAGE = Path(__file__).resolve().parent.parent  # pnp/
_THREADS = "RAYON_NUM_THREADS"  # how many threads typst's work-stealing pool (rayon) starts


def make_book(docs: list[tuple[str, dict[str, str]]], font_dirs: tuple[str, ...], plans: list) -> tuple[list[bytes], str]:
    """Typeset each typst document of a book (pnp.formats.pdf.BookPages), then write
    each sheet plan from it: the PDFs, or [] and the engine's complaint."""
    # typst lets go of the GIL while it compiles: the composer (pikepdf, about 0.05 s to
    # import) is imported meanwhile, off the path of a small game's build
    composer = threading.Thread(target=importlib.import_module, args=(f"{__package__}.pdf_sheets",), daemon=True)
    composer.start()
    parts = []
    for text, inputs in docs:
        data, problem = make_pdf(text, inputs, font_dirs)
        if problem:
            return [], problem
        parts.append(data)
    composer.join()
    return compose_book(parts, plans), ""


class Apart:
    """The documents of a big book, each typeset in a fresh Python process as soon as it is
    handed in, as many at once as there are cores: typst keeps what it typeset for the
    life of its process (about 100 KB a face), so a 5,000-card deck typeset in one process
    would hold half a gigabyte. A build hands in each document of faces as it fills
    (pnp.formats.pdf.BookPages), so typst works while the rest of the game renders."""

    def __init__(self, font_dirs: tuple[str, ...]):
        self.font_dirs = font_dirs
        self._waiting = ThreadPoolExecutor(min(os.cpu_count() or 1, _worker_cap()))  # each thread waits on its process
        self._jobs: list[Future[tuple[Any, str]]] = []
        self._behind = True  # while the build renders; what is handed in after it, the build waits on

    def add(self, text: str, inputs: dict[str, str]) -> None:
        self._jobs.append(self._waiting.submit(_in_child, ("typeset", text, inputs, self.font_dirs), self._behind))

    def parts(self, docs: list[tuple[str, dict[str, str]]]) -> tuple[list[bytes], str]:
        """The typeset `docs`, of which the first were handed in already: the PDFs, or []
        and the engine's complaint."""
        self._behind = False
        for text, inputs in docs[len(self._jobs):]:
            self.add(text, inputs)
        try:
            made = [job.result() for job in self._jobs]
        finally:
            self._waiting.shutdown(cancel_futures=True)
        for result, fault in made:
            if fault or result[1]:
                return [], fault or result[1]
        return [result[0] for result, _ in made], ""

    def close(self) -> None:
        """Typeset nothing more (the build failed): what waits is dropped, what runs ends."""
        self._waiting.shutdown(wait=False, cancel_futures=True)


def typeset_apart(docs: list[tuple[str, dict[str, str]]], font_dirs: tuple[str, ...]) -> tuple[list[bytes], str]:
    """Typeset the documents of a big book, each in a fresh Python process (`Apart`)."""
    return Apart(font_dirs).parts(docs)


def compose_apart(parts: list[bytes], plans: list) -> tuple[list[bytes], str]:
    """The sheet plans of a big book composed in a process of its own: the PDFs, or [] and
    what went wrong. One process for all of them: a composer holds the whole book (about
    130 MiB for 5,400 faces), and two at once beside the build passed 400 MiB."""
    [(made, fault)] = _apart([("compose", parts, plans)])
    return ([], fault) if fault else (made, "")


def _apart(jobs: list[tuple]) -> list[tuple[Any, str]]:
    """Run each job (`_JOBS`) in a fresh Python process (this module run as a program), as
    many at once as there are cores: each result and what went wrong ("" when nothing). A
    new interpreter, not a fork: the build runs threads, and a fork would copy the locks
    they hold."""
    workers = min(os.cpu_count() or 1, _worker_cap(), len(jobs)) or 1
    with ThreadPoolExecutor(workers) as waiting:  # each thread waits on its process
        return list(waiting.map(_in_child, jobs))


def _in_child(job: tuple, behind: bool = False) -> tuple[Any, str]:
    """Run `job` in a fresh process: behind the build's own (os.nice) while the build still
    renders, else not: the build then waits on it, and niceness would only let anything
    else on the machine go first."""
    # the child imports this very pnp, wherever the build found it
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(PACKAGE.parent), os.environ.get("PYTHONPATH"))))}
    # typst on one thread: its pool of threads holds about 50 MiB more for a document of
    # CHUNK faces and gains nothing here, where the documents already run side by side on
    # every core (the same bytes; unless the user chose otherwise)
    env.setdefault(_THREADS, "1")
    command = [sys.executable, "-m", engine_jobs.__name__] + (["--behind"] if behind else [])
    done = subprocess.run(command, input=pickle.dumps(job), capture_output=True, env=env)
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return None, said[-1] if said else f"the engine's process ended with code {done.returncode}"
    return pickle.loads(done.stdout), ""


def _warm(font_dirs: tuple[str, ...]) -> None:
    """Import the engine and the composer and load the default fonts while the build still renders."""
    import pikepdf  # noqa: F401

    _compiler(font_dirs)


def run_book(title: str, docs: list[tuple[str, dict[str, str]]], font_dirs: tuple[str, ...], plans: list,
             apart: Apart | None = None) -> list[bytes]:
    """The PDFs `make_book` writes, made by a pool worker when a pool is open; a book of
    several documents of faces is typeset apart first (by `apart` when the build handed it
    the first documents already, else `typeset_apart`)."""
    if apart is not None or sum(len(inputs) for _, inputs in docs) > CHUNK:  # the faces fill more than one document
        parts, problem = apart.parts(docs) if apart is not None else typeset_apart(docs, font_dirs)
        if not problem:
            made, problem = compose_apart(parts, plans)
    elif _POOL is not None:
        made, problem = _POOL.submit(make_book, docs, font_dirs, plans).result()
    else:
        made, problem = make_book(docs, font_dirs, plans)
    if problem:
        raise PnpError(f"{title}: the PDF engine failed: {problem}")
    return made


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
    pool = ProcessPoolExecutor(workers, mp_context=get_context("fork"), initializer=_behind)
    try:
        # the first submit forks every worker, here on the calling thread, before any other thread starts
        for _ in range(workers):
            pool.submit(_warm, warm_fonts)
        _POOL = pool
        yield
    finally:
        _POOL = None
        pool.shutdown(wait=True, cancel_futures=True)
