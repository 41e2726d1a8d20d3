"""Draw imposition `Layout`s as PDF: typst typesets every distinct face once, pnp places it.

typst embeds each face SVG through svg2pdf, which parses it with usvg, the parser resvg
(PNG, TTS, diff) uses too, so gradients, opacity, patterns, masks, letter-spacing and
images print as they show. typst draws an image inline wherever it is placed, so a face
placed on three sheets would be converted and written three times. Instead the faces of
a game (and the margin labels of its sheets) are typeset once, each on a page of its own:
the book (`BookPages`: in a build, its faces in the order of the pieces, each front then
its back, handed to the engine a document at a time as they are rendered; a document
holds one component's faces, and each layout's labels have one of their own). Every PDF
of the game is then composed from the book by `pdf_sheets.compose` (pikepdf), which draws a
face's page as a form XObject wherever it is placed: a component's PDF reads only its own
documents, so its bytes depend on its component alone. Fonts come
only from the game's font files and are embedded as subsets (one per document). The SVGs go in as
`sys.inputs` strings, never as files, so no path of the build machine reaches the PDF and
the bytes depend on nothing but the inputs. `pdf_engine` runs typst and the composer (on
a worker per core during a build).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Callable, Sequence

from ..errors import PnpError
from ..files import Planned, digest
from ..render.hrefs import refused
from . import pdf_engine

if TYPE_CHECKING:
    from ..render.faces import Face, Piece, RenderedComponent
    from ..load.fonts import Fonts
    from .impose import Label, Layout


def number(value: float) -> str:
    """A length or coordinate, to 0.0001 and without trailing zeros (stable across runs)."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in {"-0", ""} else text


def _string(text: str) -> str:
    """A typst string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


FaceKey = tuple[str, str, float, float]  # its component, the SVG and its size with bleed (mm)
LabelKey = tuple[str, float, float]  # the text, its size (pt) and the width it may take (mm)


def label_key(label: "Label", sheet_width: float, margin: float) -> LabelKey:
    # a label wraps at the page's right margin, as the text beside a sheet always did (a
    # turned one at the top edge)
    room = label.y if label.turn == 90 else sheet_width - label.x
    return label.text, label.size, max(room - margin / 2, 10)


class BookPages:
    """A game's book as typst documents, a face at a time: each distinct face of a component
    gets the next page as it is added (checked by `refused` first, unless it was when it was
    rendered or taken from the cache: the last guard before the engine), and every CHUNK
    faces, or the faces of one component, make a document: a component's PDF then reads its
    own documents only (a face two components show is typeset for each). With `early` (the
    font files), once the book holds CHUNK faces each document is typeset as it is closed,
    apart (`pdf_engine.Apart`), so a big book is typeset while the build still renders.
    The labels follow, each layout's in a document of its own, once the layouts are known
    (`sources`). `kept`: the documents an earlier build typeset, reused where they are the
    same (pdf_engine.Kept)."""

    def __init__(self, title: str, family: str, early: tuple[str, ...] | None = None, kept: pdf_engine.Kept | None = None):
        self.title = title
        self.family = family
        self.early = early
        self.kept = kept
        self.apart: pdf_engine.Apart | None = None  # typesetting the documents of a big book
        self.faces: dict[FaceKey, int] = {}  # each face's page
        self.names: dict[str, str] = {}  # each face's input name in the documents -> component/face
        self.docs: list[tuple[str, dict[str, str]]] = []  # the closed documents of faces
        self._handed = 0  # of them, those handed to `apart`
        self._component = ""  # the component of the document being filled
        self._head = f"#set document(title: {_string(title)}, author: \"pnp\", date: none)"
        self._pages: list[str] = []  # the document being filled, and the SVGs it reads
        self._inputs: dict[str, str] = {}

    def add(self, face: "Face") -> int:
        """The page of `face` in the book."""
        key: FaceKey = (face.component, face.svg, face.width + 2 * face.bleed, face.height + 2 * face.bleed)
        if key not in self.faces:
            if self._pages and face.component != self._component:
                self._close_document()
            self._component = face.component
            if not face.checked:  # a face pnp rendered or took from its cache was checked then
                refused(face.svg, f"{self.title}: face {face.component}/{face.name}")
            name = f"f{len(self.faces)}"
            self.faces[key] = len(self.faces)
            self._inputs[name] = face.svg
            self.names[name] = f"{face.component}/{face.name}"
            w, h = number(key[2]), number(key[3])
            self._pages.append(f"#page(width: {w}mm, height: {h}mm, margin: 0pt, "
                               f"place(image(bytes(sys.inputs.{name}), format: \"svg\", width: {w}mm, height: {h}mm)))")
            # the faces in documents of at most CHUNK pages: the engine's memory stays that of
            # one document, and the documents of a big game are typeset on every core
            if len(self._pages) >= pdf_engine.CHUNK:
                self._close_document()
        return self.faces[key]

    def add_piece(self, piece: "Piece") -> None:
        """The faces of a piece that is printed (its front, then its back)."""
        if piece.copies > 0:
            self.add(piece.front)
            if piece.back is not None:
                self.add(piece.back)

    def close(self) -> None:
        """Typeset nothing more (the build failed, or the PDFs are made)."""
        if self.apart is not None:
            self.apart.close()

    def _close_document(self) -> None:
        self.docs.append(("\n".join([self._head] + self._pages) + "\n", self._inputs))
        self._pages, self._inputs = [], {}
        # a big book's documents go apart once it holds CHUNK faces (those before with them:
        # `Apart` takes the documents in order); a small book's are typeset together
        if self.early is not None and len(self.faces) >= pdf_engine.CHUNK:
            self.apart = self.apart or pdf_engine.Apart(self.early, self.kept)
            for doc in self.docs[self._handed:]:
                self.apart.add(*doc)
            self._handed = len(self.docs)

    def sources(self, layouts: list["Layout"]) -> tuple[list[tuple[str, dict[str, str]]], list["SheetPlan"]]:
        """The typst documents of the book: its faces (those added before, then those of
        `layouts` not yet added, in the order they are placed), then the distinct labels of
        each layout in a document of its own, one per page; and each layout as a
        `SheetPlan` that names those pages by number."""
        from .impose import Bookmark, Label, Line, Place

        label_docs: list[list[str]] = []  # each layout's labels (its pages), none for a layout without
        plans: list[list[list[tuple]]] = []
        for layout in layouts:
            labels: dict[LabelKey, int] = {}
            label_pages: list[str] = []
            pages: list[list[tuple]] = []
            for page in layout.pages:
                marks: list[tuple] = []
                for mark in page.marks:
                    if isinstance(mark, Place):
                        marks.append(("face", self.add(mark.face), mark.x, mark.y, mark.turn, mark.clip))
                    elif isinstance(mark, Label):
                        lkey = label_key(mark, layout.sheet.width, layout.sheet.margin)
                        if lkey not in labels:
                            labels[lkey] = len(labels)
                            # the first baseline lies on the top edge of the text; a margin of one text size
                            # around it holds the glyphs (a form XObject shows only what is on its page)
                            label_pages.append(f"#page(width: auto, height: auto, margin: {number(lkey[1])}pt, "
                                               f"block(width: {number(lkey[2])}mm, text(size: {number(lkey[1])}pt, {_string(lkey[0])})))")
                        marks.append(("label", labels[lkey], mark.x, mark.y, lkey[1], mark.turn))
                    elif isinstance(mark, Line):
                        marks.append(("line", mark.x1, mark.y1, mark.x2, mark.y2, mark.width, mark.dash, mark.colour))
                    elif isinstance(mark, Bookmark):
                        marks.append(("bookmark", mark.text))
                pages.append(marks)
            plans.append(pages)
            label_docs.append(label_pages)
        if not self.faces:  # a document needs a page; no sheet draws this one
            self._pages.append("#page(width: 10mm, height: 10mm, margin: 0pt)[]")
        if self._pages:
            self._close_document()
        docs = list(self.docs)
        style = f"#set text(font: {_string(self.family)}, size: 6pt, fill: rgb(77, 77, 77), top-edge: \"baseline\", bottom-edge: \"baseline\")"
        first = len(self.faces) or 1  # the book's page of each layout's first label
        sheet_plans = []
        for layout, pages, label_pages in zip(layouts, plans, label_docs):
            if label_pages:
                docs.append(("\n".join([self._head, style] + label_pages) + "\n", {}))
            sheet_plans.append(SheetPlan(layout.title, layout.sheet.width, layout.sheet.height,
                                         [[("label", m[1] + first, *m[2:]) if m[0] == "label" else m for m in marks] for marks in pages],
                                         layout.bleed))
            first += len(label_pages)
        return docs, sheet_plans


def component_key(title: str, fonts: "Fonts", comp: "RenderedComponent") -> str:
    """What the PDFs of `comp` read beside their sheet (`BookPages`: its own documents): the
    component, its faces and copies, the game's title and fonts (which draw its labels)."""
    return digest(title, fonts.digest, comp.spec.model_dump(mode="json"), comp.bleed,
                  [(digest(p.front.svg), p.back and digest(p.back.svg), p.copies) for p in comp.pieces])


@dataclass(frozen=True)
class SheetPlan:
    """A layout as plain data for the process that writes it (pnp.formats.pdf_sheets):
    each page's marks as tuples, a face or a label named by its page in the book."""

    title: str
    width: float  # mm
    height: float
    pages: list[list[tuple]]
    bleed: float | None = None  # mm around the trim of every page, declared as TrimBox and BleedBox


def pdfs(title: str, layouts: list["Layout"], fonts: "Fonts | None" = None, book: BookPages | None = None,
         only: Sequence[int] | None = None) -> list[bytes]:
    """The PDF of each of `layouts` (their text drawn with `fonts`, pnp's default fonts), or
    of those numbered in `only`, all from one book (`book`, with the faces added so far, or
    a new one): each face and label is typeset once however often it is placed. The book
    holds the faces and labels of every layout, asked for or not: a PDF's bytes are the
    same whichever others are made with it."""
    from ..load.fonts import DEFAULT

    fonts = fonts or DEFAULT
    book = book or BookPages(title, fonts.family)
    docs, plans = book.sources(layouts)
    if only is not None:
        plans = [plans[n] for n in only]
    try:
        return pdf_engine.run_book(title, docs, fonts.paths, plans, book.apart, book.names, book.kept)
    except PnpError as exc:
        raise PnpError([_font_named(str(e), fonts) if isinstance(e, str) else e for e in exc.errors]) from None


_FONT_FAILED = re.compile(r'failed to process font `"(?P<family>[^"`]+)"`')
_FAILED_FAMILIES: set[str] = set()  # families the engine failed on in this process


def _font_named(problem: str, fonts: "Fonts") -> str:
    """The engine's failure on a font, with the font file: the engine names the family only
    (the file of it whose outlines fontTools cannot read; else every file of the family)."""
    from ..errors import display_path
    from ..load.fonts import broken_outlines

    found = _FONT_FAILED.search(problem)
    if not found:
        return problem
    family = found.group("family")
    files = [face.path for face in fonts.faces if face.family == family]
    named = [path for path in files if broken_outlines(path)]
    failed_before = family in _FAILED_FAMILIES
    _FAILED_FAMILIES.add(family)
    if not named and failed_before:  # typst 0.15 remembers a font it failed on for the rest of the process
        return problem + ": the family's files read well now, but the PDF engine keeps a font it failed on until pnp stops: restart `pnp watch`"
    if not named and not files:
        return problem
    return problem + f": the font file {' or '.join(display_path(p) for p in named or files)} is damaged (replace it)"


def write_pdf(layout: "Layout", fonts: "Fonts | None" = None) -> bytes:
    """The PDF bytes of `layout`, its text drawn with `fonts` (pnp's default fonts)."""
    return pdfs(layout.title, [layout], fonts)[0]


class SharedBook:
    """The PDFs of one game (each component's and the print PDF), all made by the first
    thread that asks for one of them: one book, one job for the PDF engine. Those claimed
    before (`planned`: the files a build makes, the others being up to date) are made; with
    none claimed, all of them (a PDF removed by hand is made alone, the same bytes)."""

    def __init__(self, title: str, layouts: Callable[[], list["Layout"]], fonts: "Fonts | None",
                 book: Callable[[], BookPages] | None = None):
        self.title = title
        self._layouts = layouts
        self._fonts = fonts
        self._book = book  # the book with its faces in order, when they have an order before the layouts
        self._wanted: set[int] = set()  # the PDFs claimed
        self._lock = threading.Lock()
        self._made: dict[int, bytes] = {}
        self._failed: PnpError | None = None

    def planned(self, key: str, index: int) -> Planned:
        """The `index`th layout's PDF as a planned file (`key`: what it is made from)."""
        return Planned(key, partial(self.pdf, index), costly=True, claim=partial(self._wanted.add, index))

    def pdf(self, index: int) -> bytes:
        """The PDF of the `index`th layout (an engine failure is reported by each PDF, the
        engine run once). Every PDF asked for must be claimed, or the first asked."""
        with self._lock:
            if not self._made and self._failed is None:
                try:
                    layouts = self._layouts()
                    asked = sorted({index, *self._wanted}) if self._wanted else range(len(layouts))
                    self._made = dict(zip(asked, pdfs(self.title, layouts, self._fonts, self._book() if self._book else None, asked)))
                except PnpError as exc:
                    self._failed = exc
            if self._failed is not None:
                raise PnpError(self._failed.errors)
        return self._made[index]
