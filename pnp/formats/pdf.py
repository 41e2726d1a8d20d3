"""Draw an imposition `Layout` as PDF with typst.

typst embeds each face SVG through svg2pdf, which parses it with usvg, the parser resvg
(PNG, TTS, diff) uses too, so gradients, opacity, patterns, masks, letter-spacing and
images print as they show. Each distinct face is one typst image, which typst 0.15 draws
inline wherever it is placed (no PDF form XObject); fonts come only from the game's font
files and are embedded as subsets. The SVGs go in as `sys.inputs` strings, never as files, so no path of the
build machine reaches the PDF and the bytes depend on nothing but the inputs.
`pdf_engine` runs typst (on a worker per core during a build), and `pdf_compact` then
shrinks its output without changing what it draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .impose import Bookmark, Label, Line, Place

if TYPE_CHECKING:
    from ..render.fonts import Fonts
    from .impose import Layout


def _n(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in {"-0", ""} else text


def _string(text: str) -> str:
    """A typst string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def source(layout: "Layout", family: str) -> tuple[str, dict[str, str]]:
    """The typst document of `layout` and the face SVGs it reads from `sys.inputs`."""
    sheet = layout.sheet
    inputs: dict[str, str] = {}
    names: dict[int, str] = {}
    head = [
        f"#set document(title: {_string(layout.title)}, author: \"pnp\", date: none)",
        f"#set page(width: {_n(sheet.width)}mm, height: {_n(sheet.height)}mm, margin: 0pt)",
        f"#set text(font: {_string(family)}, size: 6pt, fill: rgb(77, 77, 77), top-edge: \"baseline\", bottom-edge: \"baseline\")",
    ]
    if any(isinstance(m, Bookmark) for page in layout.pages for m in page.marks):
        head.append("#show heading: it => it.body")
    body: list[str] = []
    for number, page in enumerate(layout.pages):
        if number:
            body.append("#pagebreak()")
        for mark in page.marks:
            if isinstance(mark, Place):
                body.append(_place(mark, names, inputs, head))
            elif isinstance(mark, Line):
                paint = "black" if mark.colour == "#000000" else f"rgb({_string(mark.colour)})"
                stroke = f"(paint: {paint}, thickness: {_n(mark.width)}pt"
                stroke += f", dash: ({', '.join(f'{_n(d)}pt' for d in mark.dash)}))" if mark.dash else ")"
                body.append(f"#place(line(start: ({_n(mark.x1)}mm, {_n(mark.y1)}mm), end: ({_n(mark.x2)}mm, {_n(mark.y2)}mm), stroke: {stroke}))")
            elif isinstance(mark, Bookmark):
                body.append(f"#place(heading(level: 1, hide({_string(mark.text)})))")
            elif isinstance(mark, Label):
                room = max(sheet.width - mark.x - sheet.margin / 2, 10)
                body.append(f"#place(dx: {_n(mark.x)}mm, dy: {_n(mark.y)}mm, block(width: {_n(room)}mm, "
                            f"text(size: {_n(mark.size)}pt, {_string(mark.text)})))")
    return "\n".join(head + body) + "\n", inputs


def _place(mark: Place, names: dict[int, str], inputs: dict[str, str], head: list[str]) -> str:
    face = mark.face
    key = id(face)
    if key not in names:
        name = names[key] = f"f{len(names)}"
        inputs[name] = face.svg
        full_w, full_h = face.width + 2 * face.bleed, face.height + 2 * face.bleed
        head.append(f"#let {name} = image(bytes(sys.inputs.{name}), format: \"svg\", width: {_n(full_w)}mm, height: {_n(full_h)}mm)")
    content = names[key]
    if mark.turn:
        # typst turns clockwise for positive angles; a turn of 90 is counter-clockwise
        content = f"rotate({-mark.turn}deg, reflow: true, {content})"
    if mark.clip is None:
        return f"#place(dx: {_n(mark.x)}mm, dy: {_n(mark.y)}mm, {content})"
    left, top, w, h = mark.clip
    return (f"#place(dx: {_n(left)}mm, dy: {_n(top)}mm, box(width: {_n(w)}mm, height: {_n(h)}mm, clip: true, "
            f"place(dx: {_n(mark.x - left)}mm, dy: {_n(mark.y - top)}mm, {content})))")


def write_pdf(layout: "Layout", fonts: "Fonts | None" = None) -> bytes:
    """The PDF bytes of `layout`, its text drawn with `fonts` (pnp's default fonts)."""
    from ..render.fonts import DEFAULT
    from .pdf_engine import run_pdf

    fonts = fonts or DEFAULT
    text, inputs = source(layout, fonts.family)
    return run_pdf(layout.title, text, inputs, tuple(fonts.dirs))
