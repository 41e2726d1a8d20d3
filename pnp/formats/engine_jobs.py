"""The PDF engine's jobs, light to import: typeset a typst document (typst), compose a
book's PDFs from its typeset documents (`pdf_sheets`, pikepdf), and name font files as
typst loads them (`families`). A big book's fresh processes (`pdf_engine.Apart`) run this
module as a program, one job each (the composer fed each document as it is typeset): it
imports no more than the job needs (pnp.formats.pdf_engine's process machinery costs each
of them about as much CPU as starting Python)."""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

_COMPILERS: dict[tuple[tuple[str, str], ...], Any] = {}  # font files and their digests -> a typst.Compiler with them loaded
_ONE_AT_A_TIME = threading.Lock()  # a Compiler refuses a second caller while one compiles
NICER = 5  # how far behind the build its PDF workers run (os.nice)
ROOT = Path(__file__).resolve().parent.parent / "data" / "fonts"
_INPUT = re.compile(r"sys\.inputs\.(f\d+)")  # a face's SVG in a book's document (pnp.formats.pdf.BookPages)


def compiler(font_files: tuple[str, ...]) -> Any:
    """This process's typst compiler with the fonts of `font_files` loaded (made on first use).
    typst loads every font file under the folders it is given (their subfolders too), so it
    is given a folder holding links to these files alone: those pnp checked (a game's named
    fonts: pnp/load/content.py `_check_fonts`), never an unchecked file beside one of them.
    typst reads the fonts as the compiler is made: the folder is gone before it compiles. A
    compiler is kept for the files' bytes, not their names: a font file edited while `pnp
    watch` runs is loaded again (typst would keep drawing the old outlines)."""
    key = tuple((path, hashlib.sha256(Path(path).read_bytes()).hexdigest()) for path in font_files)
    if key not in _COMPILERS:
        import typst

        with _linked(font_files) as folder:
            # typst's root is pnp's own font folder, never the current folder or the project: the
            # documents name no file (the faces come as sys.inputs, and name none: pnp/render/hrefs.py)
            if len(_COMPILERS) >= 8:  # a long watch session: the fonts as they are now, not every edit's
                _COMPILERS.clear()
            # nor typst's own fonts (Libertinus Serif, New Computer Modern, DejaVu Sans Mono): typst would
            # take a character the game's fonts lack from them, and one another file has from them
            # rather than that file where they are closer to the text's font (resvg has the game's alone)
            fonts = typst.Fonts(include_system_fonts=False, include_embedded_fonts=False, font_paths=[folder])
            _COMPILERS[key] = typst.Compiler(font_paths=fonts, ignore_system_fonts=True, root=str(ROOT))
    return _COMPILERS[key]


def families(font_files: tuple[str, ...]) -> dict[str, str | None]:
    """The family typst knows each font file by, as the compiler loads it (None where it
    reads no font from the file): pnp/load/content.py `check_engine_families` compares them
    with pnp's. Asked of the process that runs the engine (pdf_engine.font_families)."""
    import typst

    with _linked(font_files) as folder:
        found = typst.Fonts(include_system_fonts=False, include_embedded_fonts=False, font_paths=[folder]).fonts()
        # typst names the file a link leads to
        named = {os.path.realpath(str(font.path)): str(font.family) for font in found if font.index == 0}
        return {path: named.get(os.path.realpath(link)) for path, link in zip(font_files, _links(folder, font_files))}


@contextmanager
def _linked(font_files: tuple[str, ...]) -> Iterator[str]:
    """A folder holding a link to each of `font_files` alone (typst reads folders, not files)."""
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="pnp-fonts-") as folder:
        for path, link in zip(font_files, _links(folder, font_files)):
            try:
                os.symlink(os.path.abspath(path), link)
            except OSError:  # a system that allows no links: a copy
                shutil.copyfile(path, link)
        yield folder


def _links(folder: str, font_files: tuple[str, ...]) -> list[str]:
    # in order; typst goes by the suffix
    return [os.path.join(folder, f"{number:05d}{os.path.splitext(path)[1].lower()}") for number, path in enumerate(font_files)]


def make_pdf(text: str, inputs: dict[str, str], font_files: tuple[str, ...]) -> tuple[bytes, str]:
    """Compile the typst document `text` (face SVGs in `inputs`): the PDF bytes, or b"" and
    the first line of the engine's complaint."""
    try:
        with _ONE_AT_A_TIME:
            return bytes(compiler(font_files).compile(input=text.encode("utf-8"), sys_inputs=inputs, pdf_tags=False)), ""
    except Exception as exc:  # typst reports SVG problems (e.g. an unreadable image) this way
        said = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        # typst points at the page it failed on: that page's input names the face ("f12: ...")
        at = _INPUT.search(str(getattr(exc, "diagnostic", "")))
        return b"", f"{at[1]}: {said}" if at else said
    except BaseException as exc:  # typst's own bug: pyo3's PanicException is no Exception
        if not is_panic(exc):
            raise
        return b"", f"typst failed ({panic_text(exc)}); {PANIC_HINT}"  # no page named: the engine says no more


# what set off the renderers' panics found so far (usvg's text layout, in resvg and in typst)
PANIC_HINT = "a known cause is an emoji flag or joined emoji after other text in one <text>: give it a <text> of its own"


def is_panic(exc: BaseException) -> bool:
    """Whether `exc` is a Rust panic inside a renderer (pyo3's PanicException)."""
    return type(exc).__name__ == "PanicException"


def panic_text(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or ["a panic"])[0]


def compose_book(parts: list[bytes], plans: list) -> list[bytes]:
    """Each sheet plan written from the typeset documents `parts` of its book."""
    from .pdf_sheets import Book, compose_all

    return compose_all(plans, Book(parts))


def compose_arriving(counts: list[int], plans: list) -> list[bytes]:
    """Each sheet plan written from a book of documents of `counts` pages, which arrive on
    this process's input as pickled (number, PDF) pairs, in any order, while the engine
    still typesets the later ones: a sheet waits only for the documents it draws from."""
    from .pdf_sheets import Book, compose_all

    arrived: dict[int, bytes] = {}

    def fetch(part: int) -> bytes:
        while part not in arrived:
            number, data = pickle.load(sys.stdin.buffer)
            arrived[number] = data
        return arrived.pop(part)

    return compose_all(plans, Book(counts=counts, fetch=fetch))


def behind() -> None:
    """Run this process (a PDF worker) behind the build's own, which renders the faces the
    workers wait for: on two cores the renderer, not typst, is what a build waits on."""
    if hasattr(os, "nice"):
        os.nice(NICER)


JOBS: dict[str, Callable[..., Any]] = {"typeset": make_pdf, "compose": compose_arriving}

if __name__ == "__main__":  # one job of a big book in a process of its own (pdf_engine.Apart)
    if "--behind" in sys.argv[1:]:
        behind()
    name, *arguments = pickle.load(sys.stdin.buffer)
    sys.stdout.buffer.write(pickle.dumps(JOBS[name](*arguments)))
    sys.stdout.buffer.flush()
    # the process ends here: not tearing down what typst holds saves ~0.1 s of CPU a document
    os._exit(0)
