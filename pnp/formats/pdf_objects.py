"""The objects of a PDF as typst writes it: read them, edit them, write them again.

typst writes a plain PDF: numbered objects, each dictionary on one line, streams with a
direct /Length, one cross-reference table, no object streams, no encryption. That is all
`read` accepts (anything else gives None, and the caller keeps the bytes it has), which
is why it needs no PDF library: reading and writing a whole document with pypdf took
longer than every edit `pdf_compact` makes to it.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

_XREF_AT = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")
_ENTRY = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
_OBJECT = re.compile(rb"(\d+) 0 obj\s")
_LENGTH = re.compile(rb"/Length (\d+)(?![\d.]| \d+ R)")
PAGE = re.compile(rb"/Type/Page(?![s\w])")  # a page object (not the /Pages tree above it)
# a literal string (skipped, with one level of nested brackets) or a reference `N 0 R`
_STRING_OR_REF = re.compile(rb"\((?:\\.|[^\\()]|\((?:\\.|[^\\()])*\))*\)|(?<![\w.])(\d+) 0 R\b")


@dataclass
class Obj:
    """One object: its text (a stream's dictionary) and a stream's bytes as stored."""

    head: bytes
    stream: bytes | None = None

    def data(self) -> bytes:
        """The stream's decoded bytes (Flate or none: what typst writes)."""
        assert self.stream is not None
        return zlib.decompress(self.stream) if b"/Filter/FlateDecode" in self.head else self.stream

    def set_data(self, data: bytes) -> None:
        """New stream bytes, Flate-encoded, with the /Length that says so."""
        self.stream = zlib.compress(data)
        if b"/Filter/FlateDecode" not in self.head:
            self.head = self.head[:-2] + b"/Filter/FlateDecode>>"
        self.head = _LENGTH.sub(b"/Length %d" % len(self.stream), self.head, count=1)


@dataclass
class Document:
    preamble: bytes  # the header lines before the first object
    objects: dict[int, Obj]
    trailer: bytes  # the trailer dictionary

    def get(self, number: int | None) -> Obj | None:
        return self.objects.get(number) if number is not None else None


def ref(text: bytes, key: bytes) -> int | None:
    """The object number a dictionary's `/Key N 0 R` names, if it does."""
    found = re.search(rb"/" + key + rb" (\d+) 0 R", text)
    return int(found.group(1)) if found else None


def read(data: bytes) -> Document | None:
    """The objects of typst's PDF, or None for a PDF this reader does not take."""
    tail = _XREF_AT.search(data[-64:])
    if not data.startswith(b"%PDF-") or tail is None:
        return None
    at = int(tail.group(1))
    if data[at:at + 5] != b"xref\n":
        return None
    table, sep, rest = data[at + 5:].partition(b"trailer")
    trailer = re.match(rb"\s*(<<.*>>)\s*startxref", rest, re.S)
    if not sep or trailer is None or b"/Encrypt" in trailer.group(1) or b"/Prev" in trailer.group(1):
        return None
    offsets: list[tuple[int, int]] = []
    lines = iter(table.split(b"\n"))
    for line in lines:
        section = line.split()
        if len(section) != 2:
            continue  # an empty line at the end
        first, count = int(section[0]), int(section[1])
        for number in range(first, first + count):
            entry = _ENTRY.match(next(lines, b"").strip())
            if entry is None:
                return None
            if entry.group(3) == b"n":
                offsets.append((int(entry.group(1)), number))
    if not offsets:
        return None
    objects: dict[int, Obj] = {}
    for offset, number in offsets:
        found = _OBJECT.match(data, offset)
        if found is None or int(found.group(1)) != number:
            return None
        start = found.end()
        head_end = data.find(b">>\nstream\n", start)
        end = data.find(b"\nendobj", start)
        if end < 0:
            return None
        if 0 <= head_end < end:  # a stream (its data may hold anything): its dictionary says how long it is
            head = data[start:head_end + 2]
            length = _LENGTH.search(head)
            body = head_end + len(b">>\nstream\n")
            if length is None or not data.startswith(b"\nendstream", body + int(length.group(1))):
                return None
            objects[number] = Obj(head, data[body:body + int(length.group(1))])
        else:
            objects[number] = Obj(data[start:end].strip())
    return Document(data[:min(offsets)[0]], objects, trailer.group(1))


def page_objects(doc: Document) -> list[int] | None:
    """The page objects in reading order; None for a page tree this reader does not follow."""
    catalog = doc.get(ref(doc.trailer, b"Root"))
    pages: list[int] = []

    def walk(number: int | None, depth: int) -> bool:
        node = doc.get(number)
        if number is None or node is None or depth > 32:
            return False
        if PAGE.search(node.head):
            pages.append(number)
            return True
        kids = re.search(rb"/Kids\[([^\]]*)\]", node.head)
        return kids is not None and all(walk(int(kid), depth + 1) for kid in re.findall(rb"(\d+) 0 R", kids.group(1)))

    return pages if catalog is not None and walk(ref(catalog.head, b"Pages"), 0) else None


def contents(doc: Document, page: int) -> list[int]:
    """The content streams of page object `page`."""
    found = re.search(rb"/Contents(?: (\d+) 0 R|\[([^\]]*)\])", doc.objects[page].head)
    if found is None:
        return []
    numbers = [int(found.group(1))] if found.group(1) else [int(n) for n in re.findall(rb"(\d+) 0 R", found.group(2))]
    return [n for n in numbers if n in doc.objects and doc.objects[n].stream is not None]


def refs(text: bytes) -> list[int]:
    """The object numbers `text` refers to (`N 0 R` outside literal strings), in order."""
    return [int(m.group(1)) for m in _STRING_OR_REF.finditer(text) if m.group(1) is not None]


def renumber(text: bytes, numbers: dict[int, int]) -> bytes:
    """`text` with each reference `N 0 R` to a renumbered object pointed at its new number."""
    def swap(match: re.Match[bytes]) -> bytes:
        if match.group(1) is None:  # a literal string: left as it is
            return match.group(0)
        return b"%d 0 R" % numbers.get(int(match.group(1)), int(match.group(1)))

    return _STRING_OR_REF.sub(swap, text)


def renumbered(doc: Document, repeats: dict[int, int]) -> tuple[Document, dict[int, int]]:
    """The document with its objects numbered 1, 2, ... in their order, each repeat (object
    -> the earlier one equal to it) left out and referred to its original; and the new
    number of every old one."""
    order = sorted(n for n in doc.objects if n not in repeats)
    numbers = {old: new for new, old in enumerate(order, start=1)}
    numbers.update({repeat: numbers[original] for repeat, original in repeats.items()})
    objects = {numbers[old]: Obj(renumber(doc.objects[old].head, numbers), doc.objects[old].stream) for old in order}
    trailer = re.sub(rb"/Size \d+", b"/Size %d" % (len(order) + 1), renumber(doc.trailer, numbers), count=1)
    return Document(doc.preamble, objects, trailer), numbers


def write(doc: Document, repeats: dict[int, int] | None = None) -> bytes:
    """The document's bytes: its objects numbered 1, 2, ... in their order, each repeat
    (object -> the earlier one equal to it) left out and referred to its original, and
    the cross-reference table that finds them."""
    doc = renumbered(doc, repeats or {})[0]
    out = [doc.preamble]
    size = len(doc.preamble)
    offsets = []
    for number, obj in sorted(doc.objects.items()):
        offsets.append(size)
        if obj.stream is None:
            chunk = b"%d 0 obj\n%s\nendobj\n" % (number, obj.head)
        else:
            chunk = b"%d 0 obj\n%s\nstream\n%s\nendstream\nendobj\n" % (number, obj.head, obj.stream)
        out.append(chunk)
        size += len(chunk)
    trailer = doc.trailer
    xref = [b"xref\n0 %d\n0000000000 65535 f\r\n" % (len(doc.objects) + 1)]
    xref += [b"%010d 00000 n\r\n" % offset for offset in offsets]
    out += xref + [b"trailer\n", trailer, b"\nstartxref\n%d\n%%%%EOF\n" % size]
    return b"".join(out)
