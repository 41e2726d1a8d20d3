"""Print-shop export (`--format pdf-single`): one face per page at trim size plus bleed.

Print-on-demand card printers want every card as its own page, fronts and backs
alternating, the page exactly the card with its bleed, fonts embedded, and the trim and
bleed declared: the layout carries the bleed, and the PDF writer (pdf_sheets) gives every
page a TrimBox (the card) and a BleedBox (the whole page). One PDF per component:
`pdf-single/<component>.pdf`, all of a game's written from one typeset book of its faces,
each reading only its component's documents of the book.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..files import Planned, digest

if TYPE_CHECKING:
    from ..render.faces import RenderedComponent


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
    return Layout(Paper("single", width, height, 0.0), title, pages, bleed=bleed)


def pdf_single_files(title: str, rendered: list["RenderedComponent"]) -> dict[str, Planned]:
    """One PDF per component, all written from one typeset book of the game's faces."""
    from .pdf import SharedBook, component_key

    printed = [comp for comp in rendered if comp.pieces]
    if not printed:
        return {}
    fonts = printed[0].pieces[0].front.fonts
    book = SharedBook(title, lambda: [single_layout(comp, f"{title}: {comp.spec.name}") for comp in printed], fonts)
    # each PDF reads its component's documents of the book alone: its key is its component
    return {f"pdf-single/{comp.spec.id}.pdf": book.planned(digest("pdf-single", component_key(title, fonts, comp)), number)
            for number, comp in enumerate(printed)}
