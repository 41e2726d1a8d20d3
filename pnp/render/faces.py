"""Render component faces: the planned pieces (pnp/plan.py) through Jinja2 SVG templates, one
SVG per face."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable

import jinja2
import jinja2.debug
import jinja2.meta
from markupsafe import Markup

from . import locate, textfit
from .. import sandbox
from ..bytecode import bytecode_cache
from ..plaindata import helper
from ..units import num
from ..files import digest
from .assets import Assets
from .defaulted import SHEET_TABLE, Guarded, guards_in, unused_defaults
from .font_styles import declarations, font_styles, sheet_fonts, shorthand
from .lengths import absolute_length
from .paints import bad_paint, placed_at
from .hrefs import Sources, check_face, written_at
from .sharpness import Placement, placements
from ..load.content import GameContent
from ..errors import ContentError, add_folded, did_you_mean, lines_of, raise_if_any, sorted_errors, undefined_named
from ..limits import PIECES
from ..load.generate import product
from ..load.icons import UnknownIcon, icon_helper
from ..load.project_files import ProjectLoader
from ..load.stylesheets import drawn_sheets
from ..load.fonts import DEFAULT as DEFAULT_FONTS
from ..load.fonts import FontChoice, Fonts, LackingGlyphs
from ..load.manifest import Component
from ..load.plugins import PluginExit, exception_text, plugin_frame, template_frame
from ..plan import Plan, item_id, item_name

BUILTIN_TEMPLATES = Path(__file__).parent.parent / "templates"
MAX_SOURCES = 50  # templates read to place a face's problem: a chain of includes is short
# a statement naming another template, with the name when it is one quoted literal standing
# alone (not `"a" ~ b`, `"a" if x else "b"`, nor Jinja's `"a" "b"`, one string "ab")
REFERENCE = re.compile(r"""\{%[-+]?\s*(?:extends|include|import|from)\b\s*"""
                       r"""(?:(?P<q>['"])(?P<name>[^'"\\]*)(?P=q)(?=\s*(?:[-+]?%\}|ignore\b|with\b|without\b|as\b|import\b)))?""")
# a comment or raw block, where a statement is no statement (or more than one: a `{#` in a
# quoted string starts none): a template holding a reference there is read by Jinja's parser.
# One never closed runs to the end (else each `{#` of `{#{#{#...` read the rest again: quadratic)
UNREAD = re.compile(r"\{#.*?(?:#\}|\Z)|\{%[-+]?\s*raw\s*[-+]?%\}.*?(?:\{%[-+]?\s*endraw\b|\Z)", re.DOTALL)


@dataclass(frozen=True)
class Face:
    """One rendered side of one component item."""

    component: str
    name: str  # file stem: the item id, `<id>-back`, or `back` for a shared back
    svg: str
    width: float  # trim size, mm
    height: float
    bleed: float
    fonts: Fonts = field(default=DEFAULT_FONTS, compare=False, repr=False)  # what its text is drawn with
    # its SVG was found to name nothing outside itself (pnp/render/hrefs.py) when it was
    # rendered or taken from the cache: the PDF book need not parse it again
    checked: bool = field(default=False, compare=False, repr=False)
    shape: str = "rectangle"  # its component's `shape`: a round piece is cut along its circle (pnp/formats/cutfile.py)

    @property
    def relpath(self) -> str:
        return f"svg/{self.component}/{self.name}.svg"


@dataclass(frozen=True)
class Piece:
    """An item of a component: its faces and how many copies to print."""

    item_id: str
    front: Face
    back: Face | None
    copies: int
    name: str = ""  # what a player calls it (pnp.plan.item_name), "" when its record has no name


@dataclass(frozen=True)
class RenderedComponent:
    spec: Component
    pieces: list[Piece]
    bleed: float
    # warnings of the templates this component is the first to render (pnp/render/defaulted.py),
    # and of the pictures it is the first to draw (pnp/render/sharpness.py)
    warnings: tuple[ContentError, ...] = field(default=(), compare=False)

    @property
    def faces(self) -> list[Face]:
        """Each distinct face once, fronts then backs, in item order."""
        seen: dict[str, Face] = {}
        for p in self.pieces:
            seen.setdefault(p.front.name, p.front)
        for p in self.pieces:
            if p.back is not None:
                seen.setdefault(p.back.name, p.back)
        return list(seen.values())


def game_warnings(rendered: list[RenderedComponent]) -> tuple[ContentError, ...]:
    """The warnings of a game's rendered components (pnp/render/defaulted.py, sharpness.py), in file and line order."""
    return tuple(sorted_errors([w for comp in rendered for w in comp.warnings]))


def environment(game: GameContent, fit: textfit.TextFit | None = None, assets: Assets | None = None) -> jinja2.Environment:
    """The Jinja2 environment of one game: its templates first, then pnp's own (as `pnp/...`);
    `fit` and `assets` collect what its helpers find wrong (the renderer takes them)."""
    loader = jinja2.ChoiceLoader(
        [
            ProjectLoader(game.templates_dir, game.project.root),  # a link out of templates/ is refused
            jinja2.PrefixLoader({"pnp": jinja2.FileSystemLoader(str(BUILTIN_TEMPLATES))}),
        ]
    )
    # Sandboxed: templates and `items:`/`copies:` expressions come with the content, maybe
    # from a stranger; they must not reach Python (pnp/sandbox.py), and see plain data only.
    env = sandbox.environment(
        given=game.plain,  # the game's data, shared by every face: read only
        loader=loader,
        autoescape=True,  # text from YAML must never break the SVG
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # compiled templates kept (in the system's temporary folder, keyed by source checksum):
        # compiling is most of a cold build's rendering time
        bytecode_cache=_bytecode_cache(),
        finalize=sandbox.shown,  # what a face prints counts for the build cache (pnp/build/trace.py)
    )
    env.filters["num"] = helper(num)  # as the global: a text given says so, naming num()
    env.filters["product"] = product
    env.globals["icon"] = icon_helper()  # a plugin's own `icon` takes precedence
    fit = fit or textfit.TextFit(game.fonts, game.manifest.min_font_size)
    env.globals.update({name: helper(fn) for name, fn in fit.helpers().items()})
    env.globals.update(num=helper(num), Markup=helper(Markup), font_family=game.fonts.family, asset=helper(assets or Assets(game)))
    env.globals.update(game.plain.copy(game.plugin.template_globals))
    return env


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    # not Jinja's file names: pnp compiles other code (pnp/sandbox.py `_Code`, `shown`)
    # for the same source; named by sandbox.py's digest, so a changed pnp never loads it,
    # and by Jinja's version: another Jinja compiles (or refuses) the same source otherwise
    # and its code calls that Jinja's runtime (pnp/bytecode.py keeps one cache a pattern)
    code = digest(Path(sandbox.__file__).read_bytes(), jinja2.__version__)[:12]
    return bytecode_cache(f"__pnp_{code}_%s.cache")


def _template_location(exc: BaseException) -> tuple[Path | None, int | None]:
    """The template file and line a rendering exception came from (Jinja rewrites tracebacks)."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return (Path(exc.filename) if exc.filename else None), exc.lineno
    found = template_frame(exc)
    return (Path(found[0]), found[1]) if found is not None else (None, None)


def _render_error(exc: BaseException, game: GameContent, template: str, what: str, names: Iterable[str] = ()) -> ContentError:
    path, line = _template_location(exc)
    path = path or game.templates_dir / template
    if isinstance(exc, jinja2.TemplateNotFound):  # its message is the bare name
        # `{% extends "base.svg.j2" %}`: pnp's own templates are named with their `pnp/`
        meant = f" (did you mean 'pnp/{exc.name}'?)" if isinstance(exc.name, str) and "/" not in exc.name and (BUILTIN_TEMPLATES / exc.name).is_file() else ""
        return ContentError(path, line, None, f"{what}: template not found: {exc.name} (names are relative to the game's templates "
                                              f"folder, without '..'){meant}")
    if isinstance(exc, jinja2.TemplateError):  # its message says what is wrong; the class name is Jinja's
        return ContentError(path, line, None, f"{what}: {undefined_named(exc.message or 'template error', names)}")
    if isinstance(exc, FontChoice):  # a helper measuring a face the fonts lack: the message is the designer's
        return ContentError(path, line, None, f"{what}: {exc}")
    if isinstance(exc, MemoryError):  # the limits (pnp/sandbox.py) stop what they can foresee, not all
        return ContentError(path, line, None, f"{what}: the memory ran out rendering this face: the template makes too large a text or list")
    if isinstance(exc, RecursionError):
        return ContentError(path, line, None, f"{what}: the template calls itself too deeply (a macro calling itself, or data nested hundreds deep)")
    if (raised := plugin_frame(exc)) is not None:  # a helper the plugin gave the templates (or its `context`): its line too
        name, file, at = raised
        return ContentError(path, line, None, f"{what}: plugin {name} failed at {locate.project_relative(Path(file), game)}:{at}: "
                                              f"{exception_text(exc)}")
    return ContentError(path, line, None, f"{what}: {exception_text(exc)}")


def _held(value: Any, ident: Any) -> bool:
    """Whether the record's field `value` (or an item of it) is the id `icon()` was given: for
    a text, that very object, which the template read from the record (the same text written
    in the template is another object; CPython shares one-character texts, the rare case still
    blamed on a record holding it); a number cannot be told apart, so an equal one."""
    for held in value if isinstance(value, (list, tuple)) else [value]:
        if held is ident or (isinstance(held, int) and not isinstance(ident, str) and held == ident):
            return True
    return False


def _at_record_field(game: GameContent, item: Any, ident: Any, error: ContentError, what: str,
                     held: Callable[[Any, Any], bool] = _held,
                     placing: Callable[[str], tuple[Path, int | None]] | None = None) -> ContentError:
    """A face's error about a value (an unknown icon's id, a colour) at the field of the
    piece's record that holds it (a field, or an item of a list field), naming the template
    line that placed it (when the error has none, `placing` finds it from the field's
    name); at the template when the value did not come from the record (the template wrote it)."""
    fields = item.items() if isinstance(item, dict) else vars(item).items() if hasattr(item, "__dict__") else ()
    for key, value in fields:
        at = game.locate(item, key) if held(value, ident) else None
        if at is not None and at.line is not None:
            path, line = (Path(error.path or ""), error.line) if error.line is not None or placing is None else placing(key)
            placed = locate.project_relative(path, game) + (f":{line}" if line else "")
            return ContentError(at.path, at.line, at.column, f"{what}: {key}: {error.message[len(what) + 2:]} (placed by {placed})")
    return error


def _at_empty_field(game: GameContent, item: Any, error: ContentError, what: str, sources: Sources) -> ContentError:
    """A face's error about an empty value (`title:` with nothing after it, which YAML reads as
    null: printed, or given to a filter) at the content left empty, naming the template line
    that used it, when that line names exactly one empty value: a field of the piece's record
    (`item.title`) or a content file's key (`blurb.tagline`); else the error as it is."""
    if error.line is None or not (sandbox.EMPTY_HINT in error.message or "NoneType" in error.message):
        return error
    text = next((text for path, text in sources() if Path(path) == Path(error.path or "")), None)  # the face's templates, as read
    if text is None or error.line > len(lines := lines_of(text)):
        return error
    line = lines[error.line - 1]
    fields = item.items() if isinstance(item, dict) else vars(item).items() if hasattr(item, "__dict__") else ()
    empty = {(key, game.locate(item, key)) for key, value in fields
             if value is None and isinstance(key, str) and re.search(rf"\bitem\.{re.escape(key)}\b", line)}
    for stem, keys in re.findall(r"\b(\w+)((?:\.\w+)+)", line):
        doc, at = game.docs.get(stem), tuple(keys.split(".")[1:])
        value = doc.data if doc is not None else ...
        for key in at:
            value = value.get(key, ...) if isinstance(value, dict) else ...
        if value is None and doc is not None:
            empty.add((".".join((stem, *at)), doc.error(at, "")))
    if len(empty) != 1:
        return error
    (name, found), = empty
    if found is None or found.line is None:
        return error
    placed = locate.project_relative(Path(error.path or ""), game) + f":{error.line}"
    problem = error.message[len(what) + 2:]
    if sandbox.EMPTY_HINT not in problem:  # a filter's or a helper's words about None: say what None is here
        problem = f"the value is empty, which YAML reads as null ({problem}): expected a value there, or `| default('', true)` where it may be empty"
    return ContentError(found.path, found.line, found.column, f"{what}: {name}: {problem} (placed by {placed})")


CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")  # what no XML 1.0 document may hold, escaped or not
# the output opens with its root; a comment holds no `-->` (`.*?` could also run over several
# comments: the ways to group `<!---->` * 40 tried one by one, exponential time)
SVG_FIRST = re.compile(r"\s*(<\?xml[^>]*\?>\s*)?(<!--(?:(?!-->).)*-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>/]", re.S)


def _check_svg(svg: str, template: Path, what: str, sources: Sources, locator: locate.Locator,
               ) -> tuple[ContentError | None, ET.Element | None]:
    """A problem with the SVG's structure, and its parsed root (for the
    other checks: one parse a face). Malformed markup is located at the template line that
    writes the broken output line literally; a control character, at the content it came from."""
    if "<svg" not in svg:  # a template that extends nothing writes its blocks' text alone
        return ContentError(template, None, None, f"{what}: the template must produce an <svg> root (extend 'pnp/base.svg.j2')"), None
    try:
        root = ET.fromstring(svg.encode("utf-8"))
    except ET.ParseError as exc:
        if not SVG_FIRST.match(svg):  # its blocks' text alone, an icon's <svg> among them: extends nothing
            return ContentError(template, None, None, f"{what}: the template must produce an <svg> root (extend 'pnp/base.svg.j2')"), None
        line, column = exc.position if exc.position else (None, 0)
        lines = lines_of(svg)  # not splitlines(): a text's U+2028 or U+0085 ends no line of XML's
        text = lines[line - 1] if line and line <= len(lines) else ""
        if control := CONTROL.search(text):
            message = (f"{what}: the text holds a control character (U+{ord(control.group()):04X}) that no SVG can carry: "
                       "remove it from the content")
            return locator.text_error(text, message, template, None), None
        reason = re.sub(r": line \d+, column \d+$", "", str(exc))
        # a bare & or < in the template's own text (`Scoring & Quests`) ends just before where expat stops
        if re.search(r"(&[^;\s<&]*|<\s*)$", text[:column]) and "invalid token" in reason:
            reason += ": an & or < in the template's own text is written &amp; or &lt; (values filled in with {{ }} are escaped)"
        elif text[column:column + 1] == "<" and text[:column].count('"') % 2:  # expat stops at a < inside a quoted value
            reason += (": an attribute's value holds a '<': markup written into a block that fills an attribute "
                       "(`{% block background %}` is the fill of the bleed: a colour, not elements)")
        path, at = written_at(sources, text, template)
        if at is None:  # a line with values in it (`<text y="{{ y }}">{{ line }}</txt>`): the template line that made it
            path, at = _made_at(sources, text, template)
        # at the template's line the output's position is noise, and differs from piece to piece;
        # elsewhere the output around the fault is what the designer can search the template for
        near = f"{'…' if column > 40 else ''}{text[max(0, column - 40):column + 20]}{'…' if len(text) > column + 20 else ''}"
        message = f"{what}: the rendered SVG is not well-formed XML{'' if at else f' (output line {line}, near {near!r})'}: {reason}"
        return ContentError(path, at, None, message), None
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        return ContentError(template, None, None, f"{what}: the template must produce an <svg> root (extend 'pnp/base.svg.j2')"), None
    return None, root


TEMPLATE_CODE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}")  # what a template line fills in or leaves out


def _made_at(sources: Sources, output: str, template: Path) -> tuple[Path, int | None]:
    """The first template line whose literal text, around its `{{ }}` and `{% %}`, is the
    output line's in order (checked part by part: no pattern to backtrack over a long line);
    a line that is all code could have made anything, and is passed over."""
    try:
        found = sources()
    except Exception:  # a template could not be read again: the face is named without a line
        return template, None
    wanted = output.strip()
    for path, text in found:
        for n, line in enumerate(lines_of(text), start=1):
            parts = TEMPLATE_CODE.split(line.strip())
            if len(parts) < 2 or sum(len(p.strip()) for p in parts) < 3:
                continue
            if not (wanted.startswith(parts[0]) and wanted.endswith(parts[-1]) and len(parts[0]) + len(parts[-1]) <= len(wanted)):
                continue
            at, end = len(parts[0]), len(wanted) - len(parts[-1])
            for part in parts[1:-1]:
                at = wanted.find(part, at, end)
                if at < 0:
                    break
                at += len(part)
            else:
                return path, n
    return template, None


GENERIC_FAMILIES = {"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui"}
def _font_families(root: ET.Element, fonts: Fonts, template: Path, what: str, sources: Sources) -> list[ContentError]:
    """Every `font-family` must reach one of the game's fonts before any other font: the PDF
    engine and the rasteriser would each pick a different stand-in for anything else (resvg
    draws nothing). Read from attributes and `style` declarations, as the renderers read them:
    a card's text or a comment saying "font-family: Foo" sets no font (`<style>` sheets are
    refused by `sheet_fonts`); the `font:` shorthand's family too, in `style` (usvg reads no
    `font` attribute)."""
    families = {f.family for f in fonts.faces} if fonts is not DEFAULT_FONTS else {fonts.family}
    asked: dict[str, str] = {}  # a family list -> how it is written, where it is looked for (the shorthand's whole declaration)
    for element in root.iter():  # every element of every face: the common one, no family and no style, settled at once
        if (value := element.get("font-family")) is not None:
            asked.setdefault(value, value)
        if "font" in (style := element.get("style", "").casefold()) and ("family" in style or "font:" in style.replace(" ", "")):
            for name, value, written in declarations(element):
                if name == "font-family":
                    asked.setdefault(value, value)
                elif name == "font" and not written.startswith('font="') and (parts := shorthand(value)) is not None and parts[2]:
                    asked.setdefault(parts[2], written)
    errors = []
    for value, written in sorted(asked.items()):
        for name in (n.strip().strip("'\"") for n in value.split(",")):
            if name in families:
                break
            if name.lower() in GENERIC_FAMILIES or name == value.split(",")[-1].strip().strip("'\""):
                # `dejavu sans` for DejaVu Sans: the family spelt otherwise (its case is compared as written)
                near = next((f for n in value.split(",") for f in sorted(families) if f.casefold() == n.strip().strip("'\"").casefold()), None)
                meant = f" (did you mean {near!r}?)" if near else did_you_mean(name, sorted(families))
                shown = f"font-family {value!r}" if written == value else f"the font family {value!r} of {written!r}"
                errors.append(ContentError(*written_at(sources, written, template), None, f"{what}: {shown} names none of the game's fonts "
                                           f"({', '.join(sorted(families))}): add its files to game.yaml `fonts:` or use one of those{meant}"))
                break
    return errors


class ComponentRenderer:
    """Renders the items of one game's components; collects every error before raising."""

    def __init__(self, game: GameContent, options: dict[str, Any], bleed: float):
        self.game = game
        self.fit = textfit.TextFit(game.fonts, game.manifest.min_font_size)
        self.assets = Assets(game)
        self.env = environment(game, self.fit, self.assets)
        self.names = game.namespace(options)
        self.bleed = bleed
        self.errors: list[ContentError] = []
        self.plan = Plan(game, self.env, self.names, self.errors)
        self.locator = locate.Locator(game)
        self._components: dict[str, dict[str, Any]] = {}
        self._blocks_checked: dict[str, jinja2.TemplateAssertionError | None] = {}  # a face template's `_unknown_block`
        self.each_piece: Callable[[Piece], None] | None = None  # told of every piece as soon as it is rendered
        self._records: dict[str, tuple[list[str], list[Any]]] = {}  # face template -> its components and their records
        self._trees: dict[str, jinja2.nodes.Template] = {}  # a template's text -> its syntax tree (`_parsed`)
        self._read: dict[str, tuple[Path, str] | None] = {}  # a template's file and text, None when missing (`_sources`)
        # each raster picture and size drawn -> the first component, its face template and the placement (pnp/render/sharpness.py)
        self._pictures: dict[tuple[str, tuple[float, float]], tuple[str, str, Placement]] = {}
        self.placed: list[Placement] = []  # the last face's placements (the build cache keeps them)

    def _sources(self, template: str) -> list[tuple[Path, str]]:
        """The face's template and every template it names literally to extend, include or
        import (theirs too), each file with its text: where a face's problem is looked for."""
        assert self.env.loader is not None
        found: dict[str, tuple[Path, str]] = {}
        names = [template]
        while names and len(found) < MAX_SOURCES:
            name = names.pop(0)
            if name in found:
                continue
            if name not in self._read:
                try:
                    text, path, _ = self.env.loader.get_source(self.env, name)
                    self._read[name] = (Path(path) if path else self.game.templates_dir / name, text)
                # `include ... ignore missing`, or one no face reaches (`{% if false %}`) that cannot be read: a
                # link out of templates/, not UTF-8. The face's own template rendered, so is there
                except (jinja2.TemplateError, UnicodeDecodeError):
                    self._read[name] = None
            if (read := self._read[name]) is not None:
                found[name] = read
                names += self._referenced(read[1])
        return list(found.values())

    def _referenced(self, text: str) -> list[str]:
        """The templates `text` names to extend, include or import. Each build reads them for
        every face template (pnp/render/defaulted.py), and parsing a template costs 100 times
        reading its statements: a name is read from its statement when it is a quoted literal
        standing alone, the text parsed only when one is not (a list, a variable) or may lie in
        a comment or raw block, as Jinja names them."""
        names = []
        unread = [m.span() for m in UNREAD.finditer(text)] if "{#" in text or "raw" in text else []
        for statement in REFERENCE.finditer(text):
            if statement["name"] is None or any(start <= statement.start() < end for start, end in unread):
                try:
                    return [n for n in jinja2.meta.find_referenced_templates(self._parsed(text)) if n is not None]
                except jinja2.TemplateSyntaxError:  # named where no face goes (`{% if false %}`): it renders nothing
                    return []
            names.append(statement["name"])
        return names

    def _parsed(self, text: str) -> jinja2.nodes.Template:
        """`text` parsed, once a build: the templates' compiled code comes from the bytecode
        cache, so a build parses only what these checks ask for."""
        if text not in self._trees:
            self._trees[text] = self.env.parse(text)
        return self._trees[text]

    def face(self, comp: Component, template: str, name: str, item: Any, side: str, bleed: float,
             context: dict[str, Any] | None = None) -> Face | None:
        """One face rendered and checked (`context`: this face's, when the caller made it already)."""
        what = f"{comp.id}/{name}"
        fit, assets = self.fit, self.assets
        fit.take()  # left over from a face whose template failed
        assets.start()
        self.placed = []
        try:
            tpl = self.env.get_template(template)
            failed: BaseException | None = self._unknown_block(template, tpl)
            if failed is None:
                context = context if context is not None else self.context(comp, name, item, side, bleed)
                svg = tpl.render(context)
        except Exception as exc:  # template bugs are reported at their template line
            failed = exc
        except KeyboardInterrupt:  # Ctrl-C (or a plugin's own raise of it) stops pnp
            raise
        except BaseException as exc:  # sys.exit() (SystemExit), GeneratorExit or a plugin's own BaseException,
            # raised by a helper the template called: the template's or plugin's error, never pnp's end
            if plugin_frame(exc) is None and template_frame(exc) is None:
                raise
            stop = PluginExit(exception_text(exc)) if isinstance(exc, SystemExit) else exc
            # with the template's line (Jinja maps its code to template lines for an Exception only) and the plugin's
            failed = stop.with_traceback(jinja2.debug.rewrite_traceback_stack().__traceback__)
        if failed is not None:
            seen = (*(context or self.names), *self.env.globals)  # what a face's template may name
            error = _render_error(failed, self.game, template, what, seen)
            if isinstance(failed, LackingGlyphs):  # at the content that holds the characters, if any does
                error = self.locator.lacking_at(failed.text, failed.lacking, error.message, Path(error.path or self.game.templates_dir / template), error.line)
            if isinstance(failed, UnknownIcon):  # most often a content typo: at the record's cell
                error = _at_record_field(self.game, item, failed.ident, error, what)
            error = _at_empty_field(self.game, item, error, what, partial(self._sources, template))
            add_folded(self.errors, error, what)
            return None
        where = self.game.templates_dir / template
        sources = partial(self._sources, template)
        problem, root = _check_svg(svg, where, what, sources, self.locator)
        if problem or root is None:  # no SVG to check further
            problems = [problem] if problem else []
        else:
            problems = [self.locator.overflow(o, what) for o in fit.take()]
            sheets = drawn_sheets(svg)
            # a face refused for what its sheet loads is not told about that sheet's fonts too
            problems += [e for e in [check_face(svg, where, sources, what, root) or sheet_fonts(sheets, where, what, sources)] if e is not None]
            problems += self.locator.missing_glyphs(root, what, where, sources)
            problems += _font_families(root, self.game.fonts, where, what, sources)
            problems += font_styles(root, self.game.fonts, where, what, sources)
            problems += [e for e in [absolute_length(root, sheets, where, what, sources)] if e is not None]
            if paint := bad_paint(root, sheets, where, what, sources):  # no template line writes it: at the record's field that holds it
                error, colour, painted = paint
                if error.line is None:
                    error = _at_record_field(self.game, item, colour, error, what, lambda held, c: isinstance(held, str) and held.strip() == c.strip(),
                                             lambda key: placed_at(sources, painted, key, where))
                if error.line is None and colour.strip() and (held := self.locator.fields.get(colour.strip())) is not None:
                    # a record the template looked up (`selectattr(...) | first`), not the piece's own: at the content that holds it
                    key, at = held
                    path, line = placed_at(sources, painted, key, where) if isinstance(key, str) else (where, None)
                    placed = locate.project_relative(path, self.game) + (f":{line}" if line else "")
                    named = f"{key}: " if isinstance(key, str) else ""
                    error = ContentError(at.path, at.line, at.column, f"{what}: {named}{error.message[len(what) + 2:]} (placed by {placed})")
                problems.append(error)
            problems += [ContentError(path or where, line, None, f"{what}: {message}")
                         for message, path, line in assets.take()]
        for found in problems:  # the same mistake on many pieces: one line
            add_folded(self.errors, found, what)
        if problems:
            return None
        if root is not None and (drawn := assets.drawn()):  # most faces draw no raster picture: nothing to walk
            self.placed = placements(root, drawn)
            self.note_placed(comp.id, template, self.placed)
        return Face(comp.id, name, svg, comp.size.width, comp.size.height, bleed, self.game.fonts, checked=True, shape=comp.shape)

    def note_placed(self, component: str, template: str, placed: list[Placement]) -> None:
        """Keep a face's picture placements for `warned` (each picture and size once)."""
        for p in placed:
            self._pictures.setdefault((p.name, (round(p.mm[0], 1), round(p.mm[1], 1))), (component, template, p))

    def _unknown_block(self, name: str, template: jinja2.Template) -> jinja2.TemplateAssertionError | None:
        """A block of the face's template (or one it extends) that is never drawn
        (pnp/sandbox.py `unknown_block`); looked for once a template."""
        if name not in self._blocks_checked:
            self._blocks_checked[name] = sandbox.unknown_block(template)
        return self._blocks_checked[name]

    def context(self, comp: Component, name: str, item: Any, side: str, bleed: float) -> dict[str, Any]:
        """The names a face's template sees besides the environment's globals: plain data."""
        return {**self.names, "item": self.game.plain.copy(item), "item_id": item_id(item) if item is not None else name,
                "component": self.component_data(comp), "side": side, "width": comp.size.width, "height": comp.size.height, "bleed": bleed}

    def component_data(self, comp: Component) -> dict[str, Any]:
        """What templates see as `component`: the component's spec as plain data."""
        if comp.id not in self._components:
            self._components[comp.id] = self.game.plain.copy(comp)
        return self._components[comp.id]

    def _too_big(self, index: int, comp: Component, bleed: float) -> bool:
        """Whether the piece with its bleed breaks the piece limit (then reported): a bleed of
        metres would print each piece on a million sheets."""
        limit = PIECES["mm"]
        side = max(comp.size.width, comp.size.height) + 2 * bleed
        if side <= limit:
            return False
        whose = "its `bleed:`" if comp.bleed is not None else "--bleed, or pnp.yaml's `bleed:`"
        message = (f"{comp.id!r}: {num(comp.size.width)} x {num(comp.size.height)} mm with a bleed of {num(bleed)} mm ({whose}) "
                   f"prints {num(side)} mm on a side, more than {limit:,} mm, {PIECES.hint('mm')}: expected a bleed such as 3mm or 0.125in")
        self.plan.fail(index, "bleed" if comp.bleed is not None else "size", message)
        return True

    def component(self, index: int, comp: Component) -> RenderedComponent:
        pieces: list[Piece] = []
        bleed = self.bleed if comp.bleed is None else comp.bleed
        if self._too_big(index, comp, bleed):
            return RenderedComponent(comp, [], bleed)
        self.note_records(index, comp)
        shared_back = None
        if comp.back and not comp.back_per_item:
            shared_back = self.face(comp, comp.back, "back", None, "back", bleed)
        for planned in self.plan.pieces(index, comp):
            ident, item = planned.item_id, planned.item
            front = self.face(comp, comp.front, ident, item, "front", bleed)
            back = shared_back
            if comp.back and comp.back_per_item:
                back = self.face(comp, comp.back, f"{ident}-back", item, "back", bleed)
            if front is not None:
                pieces.append(Piece(ident, front, back, planned.copies, item_name(item)))
                if self.each_piece is not None:
                    self.each_piece(pieces[-1])
        return RenderedComponent(comp, pieces, bleed)

    def note_records(self, index: int, comp: Component) -> None:
        """Keep the component's records with its templates, for `warned`."""
        for template in (comp.front, comp.back if comp.back_per_item else None):
            if template:  # a shared back is given no record
                users = self._records.setdefault(template, ([], []))
                users[0].append(comp.id)
                users[1].extend(self.plan.items(index, comp))
                if comp.id == self.game.plugin.sheet_component:  # a record that has the field pnp gives the sheet's
                    users[1].append({SHEET_TABLE: None})

    def warned(self, rendered: list[RenderedComponent]) -> list[RenderedComponent]:
        """`rendered` with the warnings of their templates (`defaulted.unused_defaults`),
        each on the first component rendered with the template, and of their pictures
        (`sharpness.Placement.warning`), each on the first component that draws it so."""
        def guards(template: str) -> list[tuple[Path, list[Guarded]]]:
            """The files of the face template (`_sources`) with what each guards, but those a file
            that names something else `item` reaches (`{% for item in ... %}{% include %}`):
            there `item` may be no record, and may have the field."""
            files = {path for path, _ in self._sources(template)}  # read, as many as error placing reads
            found: dict[Path, list[Guarded]] = {}
            shadowed: set[Path] = set()
            todo, seen = [(template, False)], set()
            while todo:
                name, under = todo.pop(0)
                if (name, under) in seen or (read := self._read.get(name)) is None or read[0] not in files:
                    continue
                seen.add((name, under))
                try:
                    binds, found[read[0]] = guards_in(read[1], str(read[0]), self._parsed)
                except jinja2.TemplateSyntaxError:  # a template no face rendered: its error is told
                    binds, found[read[0]] = False, []
                if under:
                    shadowed.add(read[0])
                todo += [(n, under or binds) for n in self._referenced(read[1])]
            return [(path, fields) for path, fields in found.items() if path not in shadowed]

        found: dict[str, list[ContentError]] = {}
        for first, warning in unused_defaults(self._records, guards, self.game.plain.blank):
            found.setdefault(first, []).append(warning)
        told: set[str] = set()
        for first, template, placement in self._pictures.values():
            if (blurry := placement.warning(self.game.templates_dir / template)) is not None:
                found.setdefault(first, []).append(blurry)
            if (turn := self.assets.turned.get(placement.name)) and placement.name not in told:  # once a picture, whatever its sizes
                told.add(placement.name)
                found.setdefault(first, []).append(placement.turned(turn, self.game.templates_dir / template))
        return [replace(comp, warnings=tuple(found.get(comp.spec.id, ()))) for comp in rendered]


def render_game(game: GameContent, options: dict[str, Any], bleed: float, only: set[str] | None = None) -> list[RenderedComponent]:
    """Render every component (or those in `only`); raise PnpError listing every failure."""
    renderer = ComponentRenderer(game, options, bleed)
    out = [
        renderer.component(i, comp)
        for i, comp in enumerate(game.manifest.components)
        if only is None or comp.id in only
    ]
    raise_if_any(renderer.errors)
    return renderer.warned(out)
