"""A face names no file and runs nothing, whichever way a browser would read it, and what it
embeds or is made from has a limit (the hostile-project report's defects 7, 9 and 10).

Each face below passed pnp's checks before and made a browser opening it fetch an address
or run a link; each is now refused at the template line that writes it, in one line. The
pictures, templates and fonts past their limits are refused before they are read or decoded.
"""

from __future__ import annotations

import base64
import io
import os
import struct
import urllib.parse
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project
from pnp.render.hrefs import external_reference
from test_attacks_files import REPO, _png, edit, line_of, located, manifest, run, with_template

runner = CliRunner()
MIB = 1 << 20
FRONT = "card.svg.j2"


def built(demo: Project, *formats: str) -> None:
    result = runner.invoke(app, ["build", "--format", ",".join(formats or ("svg",)), "--project", str(demo.root)])
    assert result.exit_code == 0, result.output


# --- 7. a face names no file and runs nothing -----------------------------------------

# (what the template's third line writes, words the refusal says)
REACHING_OUT = [
    ('<style>@\\69mport "http://127.0.0.1:8765/import.css";</style>', ["@import", "CSS escapes: @\\69mport"]),
    ('<style>@font-face{font-family:"Liberation Sans";src:u\\72l(http://127.0.0.1:8765/font.woff)}</style>', ["@font-face"]),
    ('<style>@font-face{font-family:"Liberation Sans";src:local("Liberation Sans")}</style>', ["@font-face"]),
    ('<style><g/>@import "http://127.0.0.1:8765/after-a-child.css";</style>', ["@import"]),
    ('<style>svg{background-image:image-set("http://127.0.0.1:8765/i.png" 1x)}</style>', ["image-set("]),
    ('<style>svg{background-image:-webkit-image-set("http://127.0.0.1:8765/i.png" 1x)}</style>', ["image-set("]),
    ('<rect width="5" height="5" style="fill: u\\72l(http://127.0.0.1:8765/p.svg#x)"/>', ["refers to 'http://127.0.0.1:8765/p.svg#x'", "CSS escapes"]),
    ('<rect width="5" height="5" fill="\\75 rl(http://127.0.0.1:8765/p.svg#x)"/>', ["refers to 'http://127.0.0.1:8765/p.svg#x'"]),
    ('<style>rect { fill: url(http://127.0.0.1:8765/open.svg#x</style>', ["refers to 'http://127.0.0.1:8765/open.svg#x'"]),
    ('<style>rect { fill: url( "http://127.0.0.1:8765/q.svg#x" ) }</style>', ["refers to 'http://127.0.0.1:8765/q.svg#x'"]),
    ('<image width="20" height="20"><set attributeName="href" to="http://127.0.0.1:8765/set.png"/></image>', ["<set> element"]),
    ('<a href="#x"><set attributeName="href" to="javascript:alert(1)"/><rect width="3" height="3"/></a>', ["<set> element"]),
    ('<a href="javascript:alert(document.domain)"><rect width="30" height="30" fill="blue"/></a>',
     ["has a link to 'javascript:alert(document.domain)'", "only to its own parts (#id)"]),
    ('<a href="http://127.0.0.1:8765/"><rect width="30" height="30"/></a>', ["has a link to 'http://127.0.0.1:8765/'"]),
    ('<a href="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E"><rect width="3" height="3"/></a>', ["has a link to"]),
    ('<image xmlns:e="urn:elsewhere" e:href="http://127.0.0.1:8765/ns.png" width="9" height="9"/>',
     ["refers to 'http://127.0.0.1:8765/ns.png' outside the face"]),
    ('<img xmlns="http://www.w3.org/1999/xhtml" src="http://127.0.0.1:8765/img.png"/>', ["HTML <img> element"]),
    ('<link xmlns="http://www.w3.org/1999/xhtml" rel="stylesheet" href="data:image/png;base64,"/>', ["HTML <link> element"]),
]


def _nested(levels: int, inner: str = '<svg xmlns="http://www.w3.org/2000/svg"/>') -> str:
    """An <image> of an SVG picture holding an SVG picture... `levels` deep, `inner` at the bottom."""
    for _ in range(levels):
        inner = f'<svg xmlns="http://www.w3.org/2000/svg"><image href="data:image/svg+xml,{urllib.parse.quote(inner)}"/></svg>'
    return inner.removeprefix('<svg xmlns="http://www.w3.org/2000/svg">').removesuffix("</svg>")


# an embedded SVG picture: what is wrong inside it is named at the line that writes the
# picture (its text is encoded there: it was named at the template alone, without a line)
REACHING_OUT += [
    (_nested(2, '<svg xmlns="http://www.w3.org/2000/svg"><image href="http://127.0.0.1:8765/deep.png"/></svg>'),
     ["refers to 'http://127.0.0.1:8765/deep.png' outside the face"]),
    (_nested(5), ["nests SVG pictures more than 4 deep"]),
    ('<image href="data:image/svg+xml;base64,PHN2Zz4=" width="9" height="9"/>', ["embeds an SVG picture that is not well-formed XML"]),
    ('<image href="data:image/svg+xml;base64,abc" width="9" height="9"/>', ["holds a malformed data: URI"]),  # base64 cut short
    ('<image href="data:image/svg+xml;base64" width="9" height="9"/>', ["holds a malformed data: URI"]),  # no comma
    ('<image href="data:image/png;base64,abc" width="9" height="9"/>', ["holds a malformed data: URI"]),
    ('<style>@\\\nimport "http://127.0.0.1:8765/split.css";</style>', ["@import", "CSS escapes"]),  # an escaped line break
]
REACHING_OUT += [(f'<rect width="5" height="5"><{tag} attributeName="x" to="9"/></rect>', [f"<{tag}> element", "not animated"])
                 for tag in ("animate", "animateMotion", "animateTransform", "animateColor", "discard")]


@pytest.mark.parametrize("body, words", REACHING_OUT)
def test_a_face_reaching_out_is_refused_at_the_template_line(demo: Project, body: str, words: list[str]):
    template = with_template(demo, body)
    line, _ = run(demo, "build", "--format", "svg")
    located(line, template.name, 3, "card/example: the face ", *words)
    assert not demo.output_dir.exists()


def test_a_processing_instruction_is_refused_at_its_line(demo: Project):
    template = demo.templates_dir / "demo/card.svg.j2"
    template.write_text('<?xml version="1.0" encoding="UTF-8"?>\n'
                        '<?xml-stylesheet href="http://127.0.0.1:8765/pi.css" type="text/css"?>\n'
                        '<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88"/>\n')
    line, _ = run(demo, "build", "--format", "svg")
    located(line, FRONT, 2, "card/example: the face has a processing instruction (<?xml-stylesheet ...?>)")


def test_a_processing_instruction_inside_the_face_is_refused_too(demo: Project):
    template = with_template(demo, '<?php echo 1 ?>')
    line, _ = run(demo, "build", "--format", "svg")
    located(line, template.name, 3, "processing instruction (<?php ...?>)")


def test_the_report_s_face_is_refused_at_its_first_problem(demo: Project):
    """The face of the report (defect 7): five addresses and a javascript: link. Each of its
    lines alone is refused too (the cases above)."""
    back = demo.templates_dir / "demo/card-back.svg.j2"
    back.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<?xml-stylesheet href="http://127.0.0.1:8765/pi.css" type="text/css"?>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="69mm" height="94mm" viewBox="-3 -3 69 94" font-family="Liberation Sans">\n'
        '<style>@\\69mport "http://127.0.0.1:8765/import.css"; svg{background-image:image-set("http://127.0.0.1:8765/imageset.png" 1x)}</style>\n'
        '<text x="5" y="10">Hi</text>\n</svg>\n')
    line, _ = run(demo, "build", "--format", "svg")
    located(line, back.name, 2, "processing instruction")
    back.write_text(back.read_text().replace('<?xml-stylesheet href="http://127.0.0.1:8765/pi.css" type="text/css"?>\n', ""))
    line, _ = run(demo, "build", "--format", "svg")
    located(line, back.name, 3, "image-set(")
    back.write_text(back.read_text().replace("image-set", "color"))
    line, _ = run(demo, "build", "--format", "svg")
    located(line, back.name, 3, "@import", "(spelled with CSS escapes: @\\69mport)")


@pytest.mark.parametrize("body", [
    '<a href="#back"><rect id="back" width="3" height="3"/></a>',
    '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>'
    '<rect width="5" height="5" style="fill: url(#g)" stroke="url( \'#g\' )"/>',
    '<style>rect { fill: #264653 } text { fill: #2a9d8f; }</style><text x="1" y="5">C:\\ and a \\ back</text>',
    '<text x="1" y="5" aria-label="\\not css\\">set, animate and discard are words; so are image and src</text>',
])
def test_a_face_that_stays_inside_still_builds(demo: Project, body: str):
    with_template(demo, body)
    built(demo)


def test_the_quick_look_sees_what_the_walk_refuses():
    """A face with none of the quick look's markers is waved through unwalked: the markers
    must cover every new refusal (an animation element with a prefix among them)."""
    svg = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:s="http://www.w3.org/2000/svg">{}</svg>'
    for body in ['<s:set attributeName="x" to="1"/>', "<discard/>", '<style>@\\69mport "x.css";</style>',
                 '<style>svg{background:image("x.png")}</style>', '<style>svg{background:cross-fade(x)}</style>']:
        assert external_reference(svg.format(body)) is not None, body


# --- 9. every embedded picture's pixels, whatever its type ----------------------------

def _webp(width: int, height: int) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), (255, 0, 0)).save(out, "WEBP", lossless=True, method=0)
    return out.getvalue()


def _gif(width: int, height: int) -> bytes:
    """A GIF whose screen and first image say width x height (one byte of image data)."""
    screen = b"GIF89a" + struct.pack("<HHBBB", width, height, 0, 0, 0)
    image = b"," + struct.pack("<HHHHB", 0, 0, width, height, 0) + b"\x02\x02\x4c\x01\x00" + b";"
    return screen + image


def _bmp(width: int, height: int) -> bytes:
    return b"BM" + struct.pack("<IHHI", 54, 0, 0, 54) + struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, 0, 0, 0, 0, 0)


@pytest.mark.parametrize("uri", [
    "data:image/webp;base64,WEBP", "data:image/png;base64,WEBP",  # the type named need not be the picture's
    "data:image/gif;base64,GIF", "data:image/webp,PERCENT",
])
def test_a_picture_of_too_many_pixels_is_refused_whatever_its_type(demo: Project, uri: str):
    """The report's 36-byte WebP of 16383 x 16383 pixels: PNG builds took 1 GB and more."""
    webp = _webp(16383, 16383)
    assert len(webp) < 100
    data = {"WEBP": base64.b64encode(webp).decode(), "GIF": base64.b64encode(_gif(16000, 16000)).decode(),
            "PERCENT": urllib.parse.quote(webp)}
    kind = uri.rpartition(",")[2]
    template = with_template(demo, f'<image href="{uri.replace(kind, data[kind])}" width="10" height="10"/>')
    line, _ = run(demo, "build", "--format", "png")
    located(line, template.name, 3, "card/example: the face embeds a picture of ", "more than 50,000,000",
            "PNP_PICTURE_LIMITS=pixels=N")
    assert not (demo.output_dir / "demo/png").exists()


def test_a_large_picture_in_wrapped_base64_still_builds(demo: Project):
    """base64 broken into lines (as `base64` and mail tools write it) past the part read for
    the header: the picture is read whole, and a small one builds."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.frombytes("RGB", (160, 160), os.urandom(160 * 160 * 3)).save(buffer, "PNG")  # noise: no compression
    wrapped = base64.encodebytes(buffer.getvalue()).decode()
    assert len(wrapped) > 1 << 16 and "\n" in wrapped[:1 << 16]
    with_template(demo, f'<image href="data:image/png;base64,{wrapped}" width="10" height="10"/>')
    built(demo)


def test_a_picture_the_engines_do_not_draw_is_refused(demo: Project):
    """A BMP called a PNG: Pillow would read its header, but no engine draws it, and pnp
    reads the size of no type it does not draw."""
    template = with_template(demo, f'<image href="data:image/png;base64,{base64.b64encode(_bmp(9000, 9000)).decode()}" width="10" height="10"/>')
    line, _ = run(demo, "build", "--format", "svg")
    located(line, template.name, 3, "an unreadable picture (UnidentifiedImageError: cannot identify image file)")


def test_small_pictures_of_every_type_the_engines_draw_still_build(demo: Project):
    pictures = [_png(2, 2), _webp(3, 3), _gif(2, 2)]
    with_template(demo, "".join(f'<image href="data:image/{kind};base64,{base64.b64encode(data).decode()}" width="5" height="5"/>'
                                for kind, data in zip(("png", "webp", "gif"), pictures)))
    built(demo, "svg", "png")


# --- 10. a size limit, before reading, for pictures, templates and fonts ---------------

def _sparse(path: Path, head: bytes, size: int) -> None:
    """A file of `size` bytes that starts with `head` (sparse: no time or disk to write)."""
    with open(path, "wb") as out:
        out.write(head)
        out.truncate(size)


def test_a_picture_file_too_large_is_refused_before_it_is_read(demo: Project):
    _sparse(demo.content_dir / "demo/art.png", _png(10, 10), 51 * MIB)
    template = with_template(demo, '<image href="{{ asset("art.png") }}" width="10" height="10"/>')
    line, _ = run(demo, "build", "--format", "svg")
    located(line, template.name, 3, "card/example: image ", "art.png is a file of 51 MiB, more than 50 MiB",
            "PNP_PICTURE_LIMITS=size=N")


def test_the_picture_size_limit_is_set_from_the_environment(demo: Project):
    (demo.content_dir / "demo/art.png").write_bytes(_png(10, 10)[:-12] + b"\0" * 3000 + _png(10, 10)[-12:])
    template = with_template(demo, '<image href="{{ asset("art.png") }}" width="10" height="10"/>')
    line, _ = run(demo, "build", "--format", "svg", env={"PNP_PICTURE_LIMITS": "size=2k"})
    located(line, template.name, 3, "more than 2,048 bytes", "PNP_PICTURE_LIMITS=size=N")


def test_a_template_too_large_is_refused_before_it_is_read(demo: Project):
    front = demo.templates_dir / "demo/card.svg.j2"
    _sparse(front, front.read_bytes(), 2 * MIB)
    line, _ = run(demo, "build", "--format", "svg")
    located(line, "game.yaml", line_of(manifest(demo), "front:"),
            "card.svg.j2 is a file of 2 MiB, more than 1 MiB: the limit for a template (set PNP_TEMPLATE_LIMITS=size=N")


def test_an_included_template_too_large_is_refused_at_the_include_line(demo: Project):
    (demo.templates_dir / "demo/part.svg.j2").write_text("<!--" + "x" * 5000 + "-->")
    template = with_template(demo, '{% include "part.svg.j2" %}')
    line, _ = run(demo, "build", "--format", "svg", env={"PNP_TEMPLATE_LIMITS": "size=4k"})
    located(line, template.name, 3, "part.svg.j2 is a file of 5,007 bytes, more than 4,096 bytes", "PNP_TEMPLATE_LIMITS=size=N")


def test_a_font_file_too_large_is_refused_before_it_is_read(demo: Project):
    font = demo.content_dir / "demo/big.ttf"
    _sparse(font, (REPO / "pnp/data/fonts/LiberationSans-Regular.ttf").read_bytes(), 51 * MIB)
    edit(manifest(demo), "components:", "fonts: [big.ttf]\ncomponents:")
    line, _ = run(demo, "validate")
    located(line, "game.yaml", line_of(manifest(demo), "fonts:"), "big.ttf is a file of 51 MiB, more than 50 MiB",
            "PNP_FONT_LIMITS=size=N")
    assert os.path.getsize(font) == 51 * MIB


def test_a_font_within_a_lowered_limit_is_refused_too(demo: Project):
    font = demo.content_dir / "demo/own.ttf"
    font.write_bytes((REPO / "pnp/data/fonts/LiberationSans-Regular.ttf").read_bytes())
    for name in ("card.svg.j2", "card-back.svg.j2"):  # one regular file: the demo's titles in its weight
        template = demo.templates_dir / "demo" / name
        template.write_text(template.read_text().replace(' font-weight="bold"', "").replace(', "bold")', ")"))
    edit(manifest(demo), "components:", "fonts: [own.ttf]\ncomponents:")
    built(demo)
    line, _ = run(demo, "validate", env={"PNP_FONT_LIMITS": "size=100k"})
    located(line, "game.yaml", None, "more than 102,400 bytes", "PNP_FONT_LIMITS=size=N")


def _pdf_fonts(path: Path) -> set[str]:
    import pikepdf

    with pikepdf.open(path) as pdf:
        return {str(obj.BaseFont) for obj in pdf.objects if isinstance(obj, pikepdf.Dictionary) and "/BaseFont" in obj}


def test_the_pdf_engine_loads_the_named_fonts_alone(demo: Project):
    """typst loads every font file of a folder it is given: it gets the files game.yaml names,
    which pnp checked, and no unchecked one lying beside them (here a font of another family,
    which a template asks for first)."""
    from fontTools.ttLib import TTFont

    liberation = REPO / "pnp/data/fonts/LiberationSans-Regular.ttf"
    (demo.content_dir / "demo/own.ttf").write_bytes(liberation.read_bytes())
    # the demo's back draws bold text, which needs a bold file of its family
    (demo.content_dir / "demo/own-bold.ttf").write_bytes((REPO / "pnp/data/fonts/LiberationSans-Bold.ttf").read_bytes())
    with TTFont(str(liberation)) as font:
        for record in font["name"].names:
            if record.nameID in (1, 4, 6, 16):
                record.string = "SneakySans" if record.nameID == 6 else "Sneaky Sans"
        font.save(str(demo.content_dir / "demo/sneaky.ttf"))
    _sparse(demo.content_dir / "demo/huge.ttf", b"\0\1\0\0", 60 * MIB)  # nor a huge one
    edit(manifest(demo), "components:", "fonts: [own.ttf, own-bold.ttf]\ncomponents:")
    with_template(demo, '<text x="5" y="20" font-size="5" font-family="Sneaky Sans, Liberation Sans">Hello</text>')
    built(demo, "pdf")
    used = _pdf_fonts(demo.output_dir / "demo/pdf/card.pdf")
    assert any("LiberationSans" in name for name in used) and not any("Sneaky" in name for name in used), used


ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M1 1h8v8H1z"/></svg>\n'


def _icon_folder(demo: Project) -> Path:
    folder = demo.content_dir / "demo/icons"
    folder.mkdir()
    (folder / "square.svg").write_text(ICON)
    edit(manifest(demo), "components:", "icons:\n  shapes: {folder: icons}\ncomponents:")
    return folder


def test_an_icon_file_too_large_is_refused_before_it_is_read(demo: Project):
    folder = _icon_folder(demo)
    _sparse(folder / "big.svg", ICON.encode(), 5 * MIB)
    line, seconds = run(demo, "validate")
    located(line, "game.yaml", line_of(manifest(demo), "icons:") + 1, "icon file ", "big.svg is a file of 5 MiB, more than 4 MiB",
            "the limit for a file of an icon set (set PNP_ICON_LIMITS=size=N")
    assert seconds < 1


def test_an_icon_within_a_lowered_limit_is_refused_too(demo: Project):
    folder = _icon_folder(demo)
    built(demo)
    (folder / "square.svg").write_text(ICON.replace("<path", "<!--" + "x" * 3000 + "--><path"))
    line, _ = run(demo, "build", "--format", "svg", env={"PNP_ICON_LIMITS": "size=2k"})
    located(line, "game.yaml", line_of(manifest(demo), "icons:") + 1, "square.svg is a file of 3,", "more than 2,048 bytes",
            "PNP_ICON_LIMITS=size=N")


def test_an_icon_set_in_yaml_has_the_content_files_limit(demo: Project):
    """A set kept as one YAML file is read as content (pnp/load/yamlio.py's limits)."""
    (demo.content_dir / "demo/marks.yaml").write_text("dot: M0 0h1v1H0z\n# " + "x" * 3000 + "\n")
    edit(manifest(demo), "components:", "icons:\n  marks: {file: marks.yaml}\ncomponents:")
    built(demo)
    line, _ = run(demo, "validate", env={"PNP_CONTENT_LIMITS": "size=2k"})
    located(line, "marks.yaml", None, "more than 2,048 bytes", "PNP_CONTENT_LIMITS")
