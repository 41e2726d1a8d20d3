"""Write the sheets of a `Layout` as a PDF (pikepdf) from a typeset `Book` of its faces and labels.

Each book page a sheet shows becomes a form XObject, copied into the sheet's document once
(its fonts with it) and drawn wherever it is placed: turned, clipped to a window of an
oversize piece, or mirrored for a duplex back by its position. A form carries its own
space, so an SVG gradient or pattern follows the face wherever it goes. Crop marks and fold
lines are stroked, bookmarks become the outline, pages drawn alike (a sheet of backs) share
one content stream, and a print-shop PDF gets its TrimBox and BleedBox as it is made. The
bytes depend only on the layout and the book (pikepdf's document id is a digest of them).
"""

from __future__ import annotations

import io
from bisect import bisect_right
from decimal import Decimal
from functools import lru_cache
from itertools import accumulate
from typing import Callable

import pikepdf
from pikepdf import Array, ContentStreamInstruction, Dictionary, Name, Operator, Pdf

from ..units import MM_TO_PT as PT
from .pdf import SheetPlan, number


@lru_cache(maxsize=8192)  # a game's sheets place their faces and marks at few distinct positions
def _n(value: float) -> Decimal:
    """A number in a content stream, to 0.0001 (pt): stable across runs, no float noise."""
    return Decimal(number(value))


@lru_cache(maxsize=8192)  # the same marks at the same places, sheet after sheet
def _op(operator: str, *operands: pikepdf.Object | int | Decimal) -> ContentStreamInstruction:
    return ContentStreamInstruction(list(operands), Operator(operator))


class Book:
    """The typeset documents of a book (typst's PDFs), their pages numbered in order across
    them, each turned into a form XObject the first time a sheet draws it. Given the
    number of pages of each document (`counts`), a document is fetched only when a sheet
    first draws one of its pages (`fetch`: it may wait for the engine to typeset it)."""

    def __init__(self, parts: list[bytes] | None = None, counts: list[int] | None = None,
                 fetch: Callable[[int], bytes] | None = None):
        self._fetch = fetch or (parts or []).__getitem__
        self._pdfs: dict[int, Pdf] = {}
        self._counts = counts
        if counts is None:  # every document at hand: counted as opened
            counts = self._counts = [len(self._open(n).pages) for n in range(len(parts or []))]
        self._starts = list(accumulate([0, *counts]))  # the book's number of each document's first page
        self._forms: dict[int, pikepdf.Object] = {}
        self._last: tuple[int, pikepdf.Page] | None = None  # a sheet asks a page its size, then its form
        self._sizes: dict[int, tuple[float, float]] = {}

    def _open(self, part: int) -> Pdf:
        if part not in self._pdfs:
            pdf = self._pdfs[part] = Pdf.open(io.BytesIO(self._fetch(part)))
            if self._counts is not None and self._counts[part] != len(pdf.pages):  # a face would land on another's place
                raise ValueError(f"document {part} of the book has {len(pdf.pages)} pages, not {self._counts[part]}")
        return self._pdfs[part]

    def _page(self, page: int) -> pikepdf.Page:
        # the last page asked for alone: pikepdf finds one in about 15 us, and a Page kept for
        # every page of a 5,400-card book held 15-20 MiB more at its peak
        if self._last is None or self._last[0] != page:
            part = bisect_right(self._starts, page) - 1
            self._last = (page, self._open(part).pages[page - self._starts[part]])
        return self._last[1]

    def whole(self, pages: set[int]) -> tuple[str, str]:
        """The engine that typeset the book's `pages` (typst names itself the creator) and the
        PDF version their documents declare: a PDF reads the documents it draws from alone."""
        parts = sorted({bisect_right(self._starts, page) - 1 for page in pages}) or [0]
        pdfs = [self._open(part) for part in parts]
        creator = pdfs[0].docinfo.get(Name.Creator)
        return (str(creator) if creator is not None else ""), max(pdf.pdf_version for pdf in pdfs)

    def size(self, page: int) -> tuple[float, float]:
        if page not in self._sizes:
            box = self._page(page).mediabox
            self._sizes[page] = float(box[2]) - float(box[0]), float(box[3]) - float(box[1])
        return self._sizes[page]

    def form(self, page: int) -> pikepdf.Object:
        """The page's drawing as a form XObject of its own document."""
        if page not in self._forms:
            source = self._page(page)
            contents = source.obj.get(Name.Contents)
            if isinstance(contents, pikepdf.Stream):
                # typst's one content stream a page becomes the form itself, its compressed bytes
                # untouched (no copy, no decoding and compressing again): the book's documents
                # are read for nothing else
                form = contents
                form.Type, form.Subtype = Name.XObject, Name.Form
                form.BBox, form.Resources = source.mediabox, source.obj.get(Name.Resources, Dictionary())
                self._forms[page] = form
            else:
                self._forms[page] = source.as_form_xobject()
        return self._forms[page]


@lru_cache(maxsize=64)
def _rgb(colour: str) -> tuple[Decimal, ...]:
    return tuple(_n(c / 255) for c in bytes.fromhex(colour.lstrip("#")))


@lru_cache(maxsize=64)
def _dash(dash: tuple[float, ...]) -> ContentStreamInstruction:
    return ContentStreamInstruction([Array([_n(d) for d in dash]), 0], Operator("d"))


def compose(plan: SheetPlan, book: Book) -> bytes:
    """The PDF of one layout, given as a `SheetPlan`, its faces and labels drawn from `book`."""
    return compose_all([plan], book)[0]


def compose_all(plans: list[SheetPlan], book: Book) -> list[bytes]:
    """The PDF of each layout, its faces and labels drawn from `book`. One document holds
    them in turn, so a face's form is copied from the book once for all of them: each is
    saved with its own pages, and a PDF holds only what its pages reach."""
    out = Pdf.new()
    forms: dict[int, pikepdf.Object] = {}  # book page -> its form XObject in `out`
    made = []
    for plan in plans:
        del out.pages[:]
        if Name.Outlines in out.Root:
            del out.Root.Outlines
        made.append(_compose(plan, book, out, forms))
    return made


def _compose(plan: SheetPlan, book: Book, out: Pdf, forms: dict[int, pikepdf.Object]) -> bytes:
    width, height = plan.width * PT, plan.height * PT
    streams: dict[bytes, pikepdf.Object] = {}  # pages drawn alike share one content stream
    bookmarks: list[tuple[int, str]] = []
    names: dict[int, str] = {}  # each book page drawn -> its name here, in the order drawn (not the book's
    # numbers: they shift with the faces of other components, which this PDF does not read)
    for page_number, marks in enumerate(plan.pages):
        ops: list[ContentStreamInstruction] = []
        used: dict[str, pikepdf.Object] = {}

        def draw(at: int, matrix: tuple[float, ...], clip: tuple[float, float, float, float] | None = None) -> None:
            if at not in forms:
                forms[at] = out.copy_foreign(book.form(at))
            name = names.setdefault(at, f"/x{len(names)}")
            used[name] = forms[at]
            ops.append(_op("q"))
            if clip is not None:
                ops.extend([_op("re", *map(_n, clip)), _op("W"), _op("n")])
            ops.extend([_op("cm", *map(_n, matrix)), _op("Do", Name(name)), _op("Q")])

        for mark in marks:
            kind = mark[0]
            if kind == "face":
                _, at, x, y, turn, window = mark
                w, h = book.size(at)
                box = None
                if window is not None:
                    left, top, cw, ch = window
                    box = (left * PT, height - (top + ch) * PT, cw * PT, ch * PT)
                x, top_edge = x * PT, height - y * PT
                if turn == 90:  # counter-clockwise: the face's bottom edge becomes its right edge
                    draw(at, (0, 1, -1, 0, x + h, top_edge - w), box)
                elif turn == -90:  # clockwise
                    draw(at, (0, -1, 1, 0, x, top_edge), box)
                else:
                    draw(at, (1, 0, 0, 1, x, top_edge - h), box)
            elif kind == "line":
                _, x1, y1, x2, y2, stroke, dash, colour = mark
                ops += [_op("q"), _op("w", _n(stroke)), _op("RG", *_rgb(colour))]
                if dash:
                    ops.append(_dash(dash))
                ops += [_op("m", _n(x1 * PT), _n(height - y1 * PT)), _op("l", _n(x2 * PT), _n(height - y2 * PT)), _op("S"), _op("Q")]
            elif kind == "label":
                _, at, x, y, margin, turn = mark  # the label's page has `margin` pt around its text
                h = book.size(at)[1]
                if turn == 90:  # counter-clockwise: its first baseline's start (margin, h - margin) lands at (x, y)
                    draw(at, (0, 1, -1, 0, x * PT + h - margin, height - y * PT - margin))
                else:
                    draw(at, (1, 0, 0, 1, x * PT - margin, height - y * PT + margin - h))
            else:
                bookmarks.append((page_number, mark[1]))
        drawn = pikepdf.unparse_content_stream(ops)
        if drawn not in streams:
            streams[drawn] = out.make_stream(drawn)
        page = out.add_blank_page(page_size=(_n(width), _n(height)))
        page.obj.Contents = streams[drawn]
        page.obj.Resources = Dictionary(XObject=Dictionary({name: form for name, form in sorted(used.items())}))
        if plan.bleed is not None:  # a print shop's page: the card inside its bleed
            inset = plan.bleed * PT
            page.trimbox = Array([_n(inset), _n(inset), _n(width - inset), _n(height - inset)])
            page.bleedbox = Array([0, 0, _n(width), _n(height)])
    if bookmarks:
        with out.open_outline() as outline:
            outline.root.extend(pikepdf.OutlineItem(text, at, "XYZ", left=0, top=float(_n(height)), zoom=0) for at, text in bookmarks)
    out.Root.Lang = pikepdf.String("en")
    out.docinfo[Name.Title] = plan.title
    out.docinfo[Name.Author] = "pnp"
    out.docinfo[Name.Creator] = "pnp"
    engine, version = book.whole(set(names))
    if engine:
        out.docinfo[Name.Producer] = engine
    data = io.BytesIO()
    # no metadata stream, no dates: the same layout and book give the same bytes; the
    # version is the engine's (the faces use what it declares)
    out.save(data, deterministic_id=True, fix_metadata_version=False, min_version=version)
    return data.getvalue()
