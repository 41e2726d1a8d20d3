"""Write the sheets of a `Layout` as a PDF whose faces and labels come from a typeset `Book`.

The drawing of each book page a sheet shows is copied into the sheet's own content, inside
`q … cm … Q` where it goes (turned, clipped to a window of an oversize piece, or mirrored
for a duplex back by its position), with the fonts, colour spaces and the like it uses.
Inline, not as a form XObject, because the faces of a sheet then share one compressed
stream: a deck's cards differ little, and one stream per face made the PDF 2.5 times as
large. A face that paints with a pattern (an SVG gradient or pattern) is the exception: a
pattern is laid out in the space of the content stream that uses it, whatever the current
transformation, so such a face is a form XObject, which carries its space with it. Crop
marks and fold lines are stroked here, bookmarks become the outline, and pages drawn alike
(a sheet of backs) share one stream. The bytes depend only on the layout and the book.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

from .pdf import SheetPlan, number
from .pdf_compact import Compacted
from .pdf_objects import Document, Obj, contents, refs, renumber, write

PT = 72 / 25.4  # points in a millimetre
_MEDIA_BOX = re.compile(rb"/MediaBox\[([-\d. ]+)\]")
_CATEGORIES = rb"(Font|ColorSpace|ExtGState|Pattern|Shading|XObject|Properties)"  # of a resource dictionary
_CATEGORY = re.compile(rb"/" + _CATEGORIES + rb"<<([^<>]*)>>")
_CATEGORY_REF = re.compile(rb"/" + _CATEGORIES + rb" (\d+) 0 R")
_ENTRY = re.compile(rb"/([^\s/<>\[\]()]+) ?(\d+) 0 R")
# in a content stream: a literal string (one level of nested brackets), a hex string, or a name
_TOKEN = re.compile(rb"\((?:\\.|[^\\()]|\((?:\\.|[^\\()])*\))*\)|<[0-9A-Fa-f\s]*>|/([^\s/<>\[\]()%{}]+)")


@lru_cache(maxsize=8192)  # a game's sheets place their faces and marks at few distinct positions
def _n(value: float) -> bytes:
    """A number in a PDF, to 0.0001 (pt), written as in the typst documents."""
    return number(value).encode()


def _pdf_string(text: str) -> bytes:
    """A PDF text string: a literal when it is printable ASCII, else UTF-16 with its mark."""
    if all(32 <= ord(c) < 127 for c in text):
        return b"(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("ascii") + b")"
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode() + b">"


class Book:
    """The typeset documents of a book, shrunk (`pdf_compact.compacted`), read as one (the
    later documents' objects numbered after the earlier ones'), and per page its size and
    its drawing ready to copy inline."""

    def __init__(self, parts: list[Compacted]):
        first = parts[0].renumbered()
        self.doc, self.pages, self.drawings = first.doc, first.pages, first.drawings
        info = self.doc.get(_info(self.doc))
        self.creator = re.search(rb"/Creator(\((?:\\.|[^\\()])*\))", info.head) if info is not None else None
        for part in parts[1:]:
            more = part.renumbered()
            offset = max(self.doc.objects)
            moved = {number: number + offset for number in more.doc.objects}
            for number, obj in more.doc.objects.items():
                self.doc.objects[moved[number]] = Obj(renumber(obj.head, moved), obj.stream)
            self.drawings.update({moved[number]: drawing for number, drawing in more.drawings.items()})
            self.pages += [moved[page] for page in more.pages]
        self._drawn: dict[int, tuple[bytes, dict[bytes, dict[bytes, int]]]] = {}

    def size(self, page: int) -> tuple[float, float]:
        box = _MEDIA_BOX.search(self.doc.objects[self.pages[page]].head)
        assert box is not None, "typst writes a MediaBox on every page"
        left, bottom, right, top = (float(v) for v in box.group(1).split())
        return right - left, top - bottom

    def form(self, page: int, out: "_Writer") -> Obj:
        """The page's drawing as a form XObject of `out` (its resources copied there)."""
        content, used = self.drawing(page)
        width, height = self.size(page)
        names = _resources({category: {name: out.copy(n) for name, n in named.items()} for category, named in used.items()})
        form = Obj(b"<</Type/XObject/Subtype/Form/BBox[0 0 %s %s]/Resources<<%s>>/Length 0>>" % (_n(width), _n(height), names))
        form.set_data(content)
        return form

    def drawing(self, page: int) -> tuple[bytes, dict[bytes, dict[bytes, int]]]:
        """The page's content with each resource named after its book object (`/R12`), so
        that the drawings of several pages share one page's resources without a clash, and
        those resources: {category: {name: book object}}."""
        if page not in self._drawn:
            head = self.doc.objects[self.pages[page]].head
            found = re.search(rb"/Resources( \d+ 0 R|<<)", head)
            if found is None:
                text = b""
            elif found.group(1) != b"<<":
                text = self.doc.objects[int(found.group(1).split()[0])].head
            else:
                text = _dictionary_at(head, found.start(1))
            names: dict[bytes, bytes] = {}
            used: dict[bytes, dict[bytes, int]] = {}
            found_entries = _CATEGORY.findall(text) + [(category, self.doc.objects[int(number)].head)  # a category kept apart
                                                       for category, number in _CATEGORY_REF.findall(text) if int(number) in self.doc.objects]
            for category, entries in found_entries:
                for name, number in _ENTRY.findall(entries):
                    names[name] = b"R" + number
                    used.setdefault(category, {})[b"R" + number] = int(number)
            drawn = b"\n".join(self.drawings[n] for n in contents(self.doc, self.pages[page]))
            self._drawn[page] = renamed(drawn, names), used
        return self._drawn[page]


def renamed(content: bytes, names: dict[bytes, bytes]) -> bytes:
    """`content` with each resource name in `names` (without its slash) replaced; strings,
    which may hold anything, are left alone."""
    def rename(match: re.Match[bytes]) -> bytes:
        name = match.group(1)
        return match.group(0) if name is None or name not in names else b"/" + names[name]

    return _TOKEN.sub(rename, content)


def _info(doc: Document) -> int | None:
    found = re.search(rb"/Info (\d+) 0 R", doc.trailer)
    return int(found.group(1)) if found else None


def _dictionary_at(text: bytes, start: int) -> bytes:
    """The `<<…>>` dictionary that starts at `start` (nested ones included)."""
    depth, i = 0, start
    while i < len(text):
        if text.startswith(b"<<", i):
            depth += 1
            i += 2
        elif text.startswith(b">>", i):
            depth -= 1
            i += 2
            if depth == 0:
                return text[start:i]
        else:
            i += 1
    raise RuntimeError("an unbalanced dictionary in the PDF engine's output")


class _Writer:
    """A new document: objects copied from the book (renumbered) and objects of its own."""

    def __init__(self, source: Book):
        self.source = source
        self.objects: dict[int, Obj] = {}
        self.copied: dict[int, int] = {}  # book object -> number here

    def add(self, obj: Obj) -> int:
        number = len(self.objects) + 1
        self.objects[number] = obj
        return number

    def copy(self, number: int) -> int:
        """Copy book object `number` and everything it refers to; its number here."""
        if number in self.copied:
            return self.copied[number]
        obj = self.source.doc.objects[number]
        here = self.copied[number] = self.add(obj)  # numbered before what it refers to: cycles end here
        self.objects[here] = Obj(self.refer(obj.head), obj.stream)
        return here

    def refer(self, text: bytes) -> bytes:
        """`text` pointed at this document's copies of the book objects it refers to."""
        for number in refs(text):
            self.copy(number)
        return renumber(text, self.copied)


def compose(plan: SheetPlan, book: Book) -> bytes:
    """The PDF of one layout, given as a `SheetPlan`, its faces and labels drawn from `book`."""
    out = _Writer(book)
    width, height = plan.width * PT, plan.height * PT
    pages_at = out.add(Obj(b""))  # the page tree, filled in once its pages exist
    page_numbers: list[int] = []
    bookmarks: list[tuple[int, str]] = []
    streams: dict[bytes, int] = {}  # pages drawn alike (a sheet of backs) share one content stream
    forms: dict[int, int] = {}  # book page -> its form XObject here (faces painted with patterns)
    for number, marks in enumerate(plan.pages):
        ops: list[bytes] = []
        resources: dict[bytes, dict[bytes, int]] = {}

        def draw(at: int, matrix: tuple[float, ...], clip: bytes = b"") -> None:
            content, used = book.drawing(at)
            place = b"q %s%s cm\n" % (clip, b" ".join(map(_n, matrix)))
            if b"Pattern" in used:
                # a pattern is laid out in the space of the content stream that paints with it,
                # not in the current transformation: inline, a gradient would stay where the
                # face sat in the book; in a form XObject it follows the form wherever it is drawn
                name = b"x%d" % at
                if at not in forms:
                    forms[at] = out.add(book.form(at, out))
                resources.setdefault(b"XObject", {})[name] = forms[at]
                ops.append(place + b"/%s Do\nQ" % name)
                return
            for category, named in used.items():
                resources.setdefault(category, {}).update({name: out.copy(n) for name, n in named.items()})
            ops.append(place + content + b"\nQ")

        for mark in marks:
            kind = mark[0]
            if kind == "face":
                _, at, x, y, turn, clip = mark
                w, h = book.size(at)
                box = b""
                if clip is not None:
                    left, top, cw, ch = clip
                    box = b"%s %s %s %s re W n " % (_n(left * PT), _n(height - (top + ch) * PT), _n(cw * PT), _n(ch * PT))
                x, top_edge = x * PT, height - y * PT
                if turn == 90:  # counter-clockwise: the face's bottom edge becomes its right edge
                    draw(at, (0, 1, -1, 0, x + h, top_edge - w), box)
                elif turn == -90:  # clockwise
                    draw(at, (0, -1, 1, 0, x, top_edge), box)
                else:
                    draw(at, (1, 0, 0, 1, x, top_edge - h), box)
            elif kind == "line":
                _, x1, y1, x2, y2, stroke, dash, colour = mark
                ops.append(b"q %s w %s RG %s%s %s m %s %s l S Q" % (
                    _n(stroke), _rgb(colour), b"[%s] 0 d " % b" ".join(map(_n, dash)) if dash else b"",
                    _n(x1 * PT), _n(height - y1 * PT), _n(x2 * PT), _n(height - y2 * PT)))
            elif kind == "label":
                _, at, x, y = mark
                draw(at, (1, 0, 0, 1, x * PT, height - y * PT - book.size(at)[1]))
            else:
                bookmarks.append((number, mark[1]))
        drawn = b"\n".join(ops) + b"\n"
        if drawn not in streams:
            content = Obj(b"<</Length 0>>")
            content.set_data(drawn)
            streams[drawn] = out.add(content)
        names = _resources(resources)
        page_numbers.append(out.add(Obj(b"<</Type/Page/Resources<<%s>>/MediaBox[0 0 %s %s]/Parent %d 0 R/Contents %d 0 R>>"
                                        % (names, _n(width), _n(height), pages_at, streams[drawn]))))
    out.objects[pages_at] = Obj(b"<</Type/Pages/Count %d/Kids[%s]>>" % (len(page_numbers), b" ".join(b"%d 0 R" % n for n in page_numbers)))
    catalog = b"<</Type/Catalog/Pages %d 0 R/Lang(en)" % pages_at
    if bookmarks:
        catalog += b"/Outlines %d 0 R" % _outline(out, bookmarks, page_numbers, height)
    root = out.add(Obj(catalog + b">>"))
    engine = b"/Producer" + book.creator.group(1) if book.creator else b""  # typst names itself the creator of the book
    info = out.add(Obj(b"<</Title%s/Author(pnp)/Creator(pnp)%s>>" % (_pdf_string(plan.title), engine)))
    return _written(Document(book.doc.preamble, out.objects, b""), root, info)


def _resources(named: dict[bytes, dict[bytes, int]]) -> bytes:
    """A resource dictionary's entries: {category: {name: object number here}}."""
    return b"".join(b"/%s<<%s>>" % (category, b"".join(b"/%s %d 0 R" % (name, n) for name, n in sorted(entries.items())))
                    for category, entries in sorted(named.items()))


@lru_cache(maxsize=64)
def _rgb(colour: str) -> bytes:
    return b" ".join(_n(c / 255) for c in bytes.fromhex(colour.lstrip("#")))


def _outline(out: _Writer, marks: list[tuple[int, str]], pages: list[int], height: float) -> int:
    """One outline entry per bookmark, in page order, each opening its page at the top."""
    top = out.add(Obj(b""))
    items = [out.add(Obj(b"")) for _ in marks]
    for k, ((page, text), number) in enumerate(zip(marks, items)):
        links = b"".join((b"/Prev %d 0 R" % items[k - 1] if k else b"", b"/Next %d 0 R" % items[k + 1] if k + 1 < len(items) else b""))
        out.objects[number] = Obj(b"<</Parent %d 0 R%s/Title%s/Dest[%d 0 R/XYZ 0 %s 0]>>" % (top, links, _pdf_string(text), pages[page], _n(height)))
    out.objects[top] = Obj(b"<</Type/Outlines/First %d 0 R/Last %d 0 R/Count %d>>" % (items[0], items[-1], len(items)))
    return top


def _written(doc: Document, root: int, info: int) -> bytes:
    """The document with a trailer whose id is a digest of its objects (same input, same bytes)."""
    digest = hashlib.md5(b"".join(o.head + (o.stream or b"") for _, o in sorted(doc.objects.items()))).hexdigest().encode()
    doc.trailer = b"<</Size 0/Root %d 0 R/Info %d 0 R/ID[<%s><%s>]>>" % (root, info, digest, digest)
    return write(doc)
