"""Reading and writing typst's PDFs without a PDF library (pnp/formats/pdf_objects.py)."""

from __future__ import annotations

import io

import pypdfium2
from pypdf import PdfReader, PdfWriter

from pnp.formats import pdf_compact, pdf_objects
from pnp.formats.impose import Label, Layout, Page, Paper
from pnp.formats.pdf import write_pdf


def _typst_pdf() -> bytes:
    """A two-page PDF straight from typst (no shrinking pass)."""
    pages = [Page(marks=[Label("Sheet one (1 0 R stays text)", 10, 20)]), Page(marks=[Label("Sheet two", 10, 20)])]
    keep = pdf_compact.compacted
    try:
        pdf_compact.compacted = pdf_compact.Compacted.read
        return write_pdf(Layout(Paper("letter", 215.9, 279.4), "Objects (test) 2 0 R", pages))
    finally:
        pdf_compact.compacted = keep


def _pixels(data: bytes) -> list[bytes]:
    return [page.render(scale=0.5).to_pil().tobytes() for page in pypdfium2.PdfDocument(data)]


def test_read_then_write_draws_the_same_pages_and_keeps_strings_that_look_like_references():
    raw = _typst_pdf()
    doc = pdf_objects.read(raw)
    assert doc is not None and len(doc.objects) > 5
    again = pdf_objects.write(doc)
    reader = PdfReader(io.BytesIO(again), strict=True)
    assert len(reader.pages) == 2 and reader.metadata.title == "Objects (test) 2 0 R"
    assert _pixels(again) == _pixels(raw)


def test_repeats_are_written_once_and_what_referred_to_them_refers_to_the_first():
    doc = pdf_objects.read(_typst_pdf())
    assert doc is not None
    copy = max(doc.objects) + 1
    page = next(n for n, obj in doc.objects.items() if b"/Type/Page/" in obj.head)
    target = pdf_objects.ref(doc.objects[page].head, b"Contents")
    doc.objects[copy] = pdf_objects.Obj(doc.objects[target].head, doc.objects[target].stream)
    doc.objects[page].head = doc.objects[page].head.replace(b"/Contents %d 0 R" % target, b"/Contents %d 0 R" % copy)
    out = pdf_objects.write(doc, {copy: target})
    assert out.count(b" obj\n") == len(doc.objects) - 1
    assert _pixels(out) == _pixels(pdf_objects.write(pdf_objects.read(_typst_pdf())))  # type: ignore[arg-type]


def test_a_pdf_typst_did_not_write_is_left_alone():
    raw = _typst_pdf()
    writer = PdfWriter(clone_from=io.BytesIO(raw))
    writer.encrypt("secret")
    out = io.BytesIO()
    writer.write(out)
    encrypted = out.getvalue()
    assert pdf_objects.read(encrypted) is None and pdf_compact.compact(encrypted) == encrypted
    assert pdf_compact.compacted(encrypted) is None
    assert pdf_objects.read(b"not a pdf") is None
    cut = raw[: len(raw) // 2]
    assert pdf_objects.read(cut) is None and pdf_compact.compact(cut) == cut
