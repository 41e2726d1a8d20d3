"""Print-shop export (`--format pdf-single`): one face per page at trim size plus bleed.

Print-on-demand card printers want every card as its own page, fronts and backs
alternating, the page exactly the card with its bleed, fonts embedded, and the trim and
bleed declared. The PDF writer (pdf_sheets) sets only the MediaBox, so TrimBox (the card)
and BleedBox (the whole page) are added to its pages afterwards (pdf_objects); the bytes
stay deterministic (the document id is kept). One PDF per component:
`pdf-single/<component>.pdf`, all of a game's written from one typeset book of its faces.
"""

from __future__ import annotations

import re
from functools import partial
from typing import TYPE_CHECKING

from ..files import Planned, digest
from .pdf_objects import page_objects, read, write

if TYPE_CHECKING:
    from ..render.faces import RenderedComponent
    from .pdf import SharedBook

MM_TO_PT = 72 / 25.4


def single_layout(comp: "RenderedComponent", title: str):
    """One page per printed copy: its front, then its back when it has one."""
    from .impose import Layout, Page, Paper, Place

    bleed = comp.bleed
    width, height = comp.spec.size.width + 2 * bleed, comp.spec.size.height + 2 * bleed
    pages = []
    for piece in comp.pieces:
        for _ in range(piece.copies):
            for face in (piece.front, piece.back):
                if face is not None:
                    pages.append(Page([Place(face, 0.0, 0.0, width, height)]))
    return Layout(Paper("single", width, height, 0.0), title, pages)


def with_boxes(data: bytes, bleed: float) -> bytes:
    """`data` with a TrimBox `bleed` mm inside each page's MediaBox and a BleedBox equal to it."""
    doc = read(data)
    pages = page_objects(doc) if doc is not None else None
    if doc is None or pages is None:
        raise RuntimeError("the PDF engine wrote a PDF pnp cannot read back to set its trim box")
    inset = bleed * MM_TO_PT
    for number in pages:
        page = doc.objects[number]
        box = re.search(rb"/MediaBox\[([-\d. ]+)\]", page.head)
        if box is None:
            raise RuntimeError("a page of the PDF engine's output has no MediaBox")
        left, bottom, right, top = (float(v) for v in box.group(1).split())
        trim = (left + inset, bottom + inset, right - inset, top - inset)
        page.head = page.head[:-2] + b"/TrimBox[%s]/BleedBox[%s]>>" % (_box(trim), _box((left, bottom, right, top)))
    return write(doc)


def _box(values: tuple[float, ...]) -> bytes:
    return b" ".join((f"{v:.4f}".rstrip("0").rstrip(".") or "0").encode() for v in values)


def _make(book: "SharedBook", number: int, bleed: float) -> bytes:
    return with_boxes(book.pdf(number), bleed)


def pdf_single_files(title: str, rendered: list["RenderedComponent"]) -> dict[str, Planned]:
    """One PDF per component, all written from one typeset book of the game's faces."""
    from .pdf import SharedBook

    printed = [comp for comp in rendered if comp.pieces]
    if not printed:
        return {}
    book = SharedBook(title, lambda: [single_layout(comp, f"{title}: {comp.spec.name}") for comp in printed], printed[0].pieces[0].front.fonts)
    return {
        f"pdf-single/{comp.spec.id}.pdf": Planned(
            digest("pdf-single", title, comp.spec.model_dump(mode="json"), comp.bleed, comp.pieces[0].front.fonts.digest,
                   [(digest(p.front.svg), p.back and digest(p.back.svg), p.copies) for p in comp.pieces]),
            partial(_make, book, number, comp.bleed),
            costly=True,
        )
        for number, comp in enumerate(printed)
    }
