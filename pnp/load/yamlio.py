"""YAML loading that remembers where every value came from, within limits.

`load_located(path)` returns a `Located` document: the plain Python data plus the 1-based
line and column of every mapping key and sequence item, addressed by their path
(`("adventurers", 12, "shape")`). Validation errors from pydantic carry such paths, so
each one can name the exact line of the file it is about.

Files may come from anyone (a sheet mailed by a player), so every document is read
within `Limits`: the file's size is checked before it is read, and the nesting depth,
the number of values (aliases counted as copies of what they name), the number of
aliases and the length of each text are checked on the parser's event stream while the
document is composed, before any value is built. libyaml parses; the composer is ours,
because libyaml's own recurses in C and crashes the process on deep nesting.
"""

from __future__ import annotations

import bisect
import math
import os
import re
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, cast

import yaml
from yaml.events import AliasEvent, MappingEndEvent, MappingStartEvent, ScalarEvent, SequenceEndEvent, SequenceStartEvent, StreamEndEvent
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from ..limits import MIB, Bounds
from ..errors import LINE_END, ContentError, PnpError


class PythonParser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
    """PyYAML's pure-Python parser, for a PyYAML built without libyaml: same events, slower."""

    def __init__(self, stream: str):
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)

Loc = tuple[int, int]  # (line, column), 1-based
Path_ = tuple[Any, ...]

MAX_DEPTH = 200  # the composer and the constructor recurse once per level: keep far below Python's limit


@dataclass(frozen=True)
class Limits:
    """Bounds on one YAML file. `nodes` counts every value of the document as built, an
    alias counting as a copy of what it names, so alias bombs stop early; `depth` counts
    nested collections the same way (through aliases)."""

    kind: str  # what the file is, for messages: "content file", "scoring sheet"
    env: str  # environment variable that overrides these, e.g. PNP_SHEET_LIMITS="size=8M,nodes=50000"
    size: int  # bytes of the file
    depth: int  # nested lists and mappings
    nodes: int  # values, aliases expanded
    aliases: int  # uses of an alias (*name)
    string: int  # characters of one text value
    # YAML 1.1's surprises are refused where they would read as something else: octal
    # `052`, sexagesimal `1:20`, dates, `.inf`, explicit tags other than `!!str` (sheets)
    strict: bool = False

    def bounds(self) -> Bounds:
        return Bounds(self.kind, self.env, {k: getattr(self, k) for k in ("size", "depth", "nodes", "aliases", "string")})

    def hint(self, key: str) -> str:
        return self.bounds().hint(key)

    def from_env(self) -> "Limits":
        """These limits with the overrides in the environment variable `env` applied."""
        values = self.bounds().values()
        if values["depth"] > MAX_DEPTH:
            raise PnpError(f"{self.env}: depth={values['depth']}: at most {MAX_DEPTH}")
        return replace(self, **cast(Any, values))  # keys: the int fields above


# Defaults: far above any real file (the shipped content files are at most a few
# thousand values, 12 levels deep; a scoring sheet a few hundred values).
CONTENT = Limits("content file", "PNP_CONTENT_LIMITS", size=8 * MIB, depth=64, nodes=50_000, aliases=1_000, string=100_000)
SHEET = Limits("scoring sheet", "PNP_SHEET_LIMITS", size=2 * MIB, depth=32, nodes=10_000, aliases=100, string=10_000, strict=True)
MAX_DIGITS = 100  # an unquoted number longer than this is refused (Python refuses 4,300 digits)
INT = "tag:yaml.org,2002:int"
FLOAT = "tag:yaml.org,2002:float"
PLAIN_INT = re.compile(r"^[-+]?(0|[1-9][0-9]*)$")
PLAIN_FLOAT = re.compile(r"^[-+]?(0|[1-9][0-9]*)?(\.[0-9]+)?([eE][-+]?[0-9]+)?$")
TAGS_ALLOWED = {None, "!", "tag:yaml.org,2002:str"}  # in a strict file: `!!str 052` keeps text as text


def size_in_words(n: int) -> str:
    """A number of bytes as a message says it: `3.5 MiB`, `5,007 bytes`."""
    return f"{n / MIB:.1f}".removesuffix(".0") + " MiB" if n >= MIB else f"{n:,} bytes"


@dataclass
class Located:
    """A parsed YAML document and the position of each of its parts."""

    path: Path
    data: Any
    marks: dict[Path_, Loc] = field(default_factory=dict)  # each key's (a list's item's) position
    values: dict[Path_, Loc] = field(default_factory=dict)  # each mapping value's on its key's line (`paper: a5`: a5)

    def where(self, at: Path_ = ()) -> Loc | tuple[None, None]:
        """Position of `at`, or of its nearest ancestor that has one."""
        at = tuple(at)
        while at:
            if at in self.marks:
                return self.marks[at]
            at = at[:-1]
        return self.marks.get((), (None, None))

    def error(self, at: Path_, message: str) -> ContentError:
        line, col = self.where(at)
        return ContentError(self.path, line, col, message)

    def value_error(self, at: Path_, message: str) -> ContentError:
        """`error` about the value under `at`: at the value itself when it is written on its
        key's line (`paper: a5` at a5), else at its key (a missing key: its mapping's)."""
        line, col = self.values.get(tuple(at)) or self.where(at)
        return ContentError(self.path, line, col, message)

    def path_of(self, value: Any) -> Path_ | None:
        """Where in the document `value` (that very object, not an equal one) is; None when
        it is not a part of it (a record a plugin or a variant made)."""
        todo: list[tuple[Path_, Any]] = [((), self.data)]
        while todo:
            at, here = todo.pop()
            if here is value:
                return at
            if isinstance(here, dict):
                todo.extend((at + (k,), v) for k, v in here.items() if isinstance(v, (dict, list)))
            elif isinstance(here, list):
                todo.extend((at + (i,), v) for i, v in enumerate(here) if isinstance(v, (dict, list)))
        return None


Where = Callable[[Any], Loc]  # a parser's mark -> its 1-based (line, column) in an editor
_YAML_ONLY_BREAKS = re.compile("[\x85\u2028\u2029]")


def _editor_positions(text: str) -> Where:
    """Where a parser's mark is as an editor shows it. YAML 1.1 (libyaml, PyYAML) also ends a line
    at U+0085, U+2028 and U+2029, which editors, Jinja and pnp's other files do not: in a text
    holding one (pasted into a title), the parser's line is counted from the mark's index instead."""
    if not _YAML_ONLY_BREAKS.search(text):  # nearly every file: the parser's own count
        return lambda mark: (mark.line + 1, mark.column + 1)
    starts = [0] + [end.end() for end in LINE_END.finditer(text)]

    def where(mark: Any) -> Loc:
        line = bisect.bisect_right(starts, mark.index)
        return line, mark.index - starts[line - 1] + 1

    return where


def _mark(node: yaml.Node, where: Where) -> Loc:
    return where(node.start_mark)


def _construct(loader: yaml.SafeLoader, node: yaml.Node, at: Path_, doc: Located, errors: list, where: Where) -> Any:
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)  # resolves `<<:` merge keys
        out: dict[Any, Any] = {}
        written: dict[Any, tuple[Any, str, int]] = {}  # key -> (the key, as written, its line): what a duplicate repeats
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, (str, int, float, bool)) and key is not None:
                errors.append(ContentError(doc.path, *_mark(key_node, where), "a mapping key must be a plain value"))
                continue
            spelt = repr(key) if isinstance(key, str) else str(key_node.value)  # `true`, `yes`, `~` as written, not True, None
            if key in out:
                errors.append(ContentError(doc.path, *_mark(key_node, where), _duplicate(key, spelt, *written[key])))
                continue
            written[key] = (key, spelt, _mark(key_node, where)[0])
            doc.marks[at + (key,)] = _mark(key_node, where)
            if isinstance(value_node, yaml.ScalarNode) or value_node.flow_style:  # not a block's: it starts at its first key
                doc.values[at + (key,)] = _mark(value_node, where)
            out[key] = _construct(loader, value_node, at + (key,), doc, errors, where)
        return out
    if isinstance(node, yaml.SequenceNode):
        items = []
        for i, item in enumerate(node.value):
            doc.marks[at + (i,)] = _mark(item, where)
            items.append(_construct(loader, item, at + (i,), doc, errors, where))
        return items
    try:
        return loader.construct_object(node, deep=True)
    except (ValueError, TypeError, OverflowError) as exc:  # e.g. `!!float abc`, `!!int 1e999`
        value = str(node.value)
        shown = repr(value if len(value) <= 40 else value[:37] + "...")
        errors.append(ContentError(doc.path, *_mark(node, where), f"cannot read {shown} as {node.tag.rsplit(':', 1)[-1]}: {str(exc)[:200]}"))
        return None


def _duplicate(key: Any, spelt: str, first: Any, first_spelt: str, line: int) -> str:
    """What a key repeating the key `first` (written `first_spelt` on `line`) is told, both as
    the file writes them. YAML's `true` and `1` (`false` and `0`, `1.0` and `1`) are two keys,
    which pnp, reading YAML into Python, holds as one."""
    if type(key) is not type(first):
        return (f"key {spelt} is the same key as {first_spelt} on line {line} to pnp (it reads true as 1, "
                f"false as 0 and 1.0 as 1): keep one, or write both in quotes if they are text")
    return f"duplicate key {spelt}" + (f" (the same key as {first_spelt} on line {line})" if spelt != first_spelt else "")


class _Refused(Exception):
    """A value refused at `mark`: it passes limit `key` (the message then says how to
    change it), or, without a key, it would read as something the writer did not mean."""

    def __init__(self, mark: Any, message: str, key: str | None = None):
        self.mark, self.message, self.key = mark, message, key


def _surprise(value: str, tag: str, explicit: str | None, strict: bool) -> str | None:
    """Why a scalar is refused (see `Limits.strict`), or None."""
    if tag in (INT, FLOAT) and len(value) > MAX_DIGITS:
        return f"a number of {len(value):,} characters: expected at most {MAX_DIGITS} (quote it if it is text)"
    if not strict:
        return None
    if explicit not in TAGS_ALLOWED:
        return f"the tag {explicit!r}: expected plain YAML values (numbers, text, true/false, lists, mappings)"
    shown = repr(value if len(value) <= 40 else value[:37] + "...")
    if tag == INT and not PLAIN_INT.match(value):
        if ":" in value:
            why = "is read by YAML 1.1 as a base-60 number"
        elif re.match(r"^[-+]?0[0-7_]+$", value):
            why = "is read by YAML 1.1 as an octal number"
        else:
            why = "is not a plain whole number"
        return f"{shown} {why}: write the number in plain digits (no leading zero), or quote it if it is text"
    if tag == FLOAT and PLAIN_FLOAT.match(value) and any(c.isdigit() for c in value) and math.isinf(float(value)):
        return f"{shown} is too large for a number: write plain digits, or quote it if it is text"
    if tag == FLOAT and not (PLAIN_FLOAT.match(value) and any(c.isdigit() for c in value)):
        return f"{shown} is not a plain number (YAML 1.1 reads it as {'base 60' if ':' in value else 'infinity or not-a-number'}): write plain digits, or quote it if it is text"
    if tag == "tag:yaml.org,2002:timestamp":
        return f"{shown} is read by YAML as a date: quote it if it is text"
    return None


COMMENTED_COLOUR = re.compile(r"([ \t]+)(#(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{3}))[ \t]*$")


@dataclass(frozen=True)
class _At:
    line: int  # 0-based, as a YAML mark's
    column: int
    index: int  # in the text: where an editor's line and column are counted from (`_editor_positions`)


def _commented_colour(lines: list[str], mark: Any) -> tuple[_At, str] | None:
    """`colour: #2d6a4f`: YAML reads the colour, unquoted, as a comment and the value as empty
    (the error would be a missing or empty field, where the colour is plainly written). Where it
    is, and what to write; None for any other empty value (`note:`, `note: # to do`)."""
    row = lines[mark.line] if 0 <= mark.line < len(lines) else ""
    found = COMMENTED_COLOUR.match(row, mark.column)
    if found is None:
        return None
    return (_At(mark.line, mark.column + len(found[1]), mark.index + len(found[1])),
            f"{found[2]} starts a YAML comment here, so the value is empty: write the colour in quotes, \"{found[2]}\"")


if TYPE_CHECKING:  # what `loader_class` mixes in: a parser, the safe constructor, the resolver
    class _Mixed(yaml.parser.Parser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver):
        pass
else:
    _Mixed = object


class _Composer(_Mixed):
    """A composer that counts while it builds nodes (PyYAML's, plus the limits); mixed by
    `loader_class` with a parser and PyYAML's safe constructor and resolver."""

    _events: type  # the parser class

    def __init__(self, text: str, limits: Limits):
        cast(Any, self._events).__init__(self, text)
        self.lines = text.splitlines()  # for what a value left empty is followed by (`_commented_colour`)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)
        self.limits = limits
        self.anchors: dict[str, tuple[yaml.Node, int, int]] = {}  # name -> (node, values, height)
        self.nodes = 0
        self.aliases = 0

    def get_single_node(self) -> yaml.Node | None:
        self.get_event()  # stream start
        node = None
        if not self.check_event(StreamEndEvent):
            self.get_event()  # document start
            node = self._node(0)[0]
            self.get_event()  # document end
        if not self.check_event(StreamEndEvent):
            event = self.get_event()
            raise yaml.composer.ComposerError(None, None, "a second document (after '---'): expected one document per file", event.start_mark)
        self.get_event()
        return node

    def _add(self, count: int, mark: Any) -> None:
        self.nodes += count
        if self.nodes > self.limits.nodes:
            raise _Refused(mark, f"more than {self.limits.nodes:,} values (an alias counts as a copy of what it names)", "nodes")

    def _node(self, depth: int) -> tuple[yaml.Node, int]:
        """The next node and its height (nested collections in it, aliases followed)."""
        lim = self.limits
        if self.check_event(AliasEvent):
            event = self.get_event()
            if event.anchor not in self.anchors:
                raise yaml.composer.ComposerError(None, None, f"found undefined alias {event.anchor!r}", event.start_mark)
            self.aliases += 1
            if self.aliases > lim.aliases:
                raise _Refused(event.start_mark, f"more than {lim.aliases:,} aliases (*name)", "aliases")
            named, values, height = self.anchors[event.anchor]
            if depth + height > lim.depth:
                raise _Refused(event.start_mark, f"nested more than {lim.depth} levels deep (through alias *{event.anchor})", "depth")
            self._add(values, event.start_mark)
            return named, height
        event = self.get_event()
        anchor = event.anchor
        if anchor is not None and anchor in self.anchors:
            raise yaml.composer.ComposerError("found duplicate anchor %r; first occurrence" % anchor, self.anchors[anchor][0].start_mark,
                                              "second occurrence", event.start_mark)
        before = self.nodes
        self._add(1, event.start_mark)
        tag = event.tag
        if isinstance(event, ScalarEvent):
            if len(event.value) > lim.string:
                raise _Refused(event.start_mark, f"a text of {len(event.value):,} characters, more than {lim.string:,}", "string")
            explicit = tag
            if tag is None or tag == "!":
                tag = self.resolve(ScalarNode, event.value, event.implicit)
            problem = _surprise(event.value, tag, explicit, lim.strict)
            if problem:
                raise _Refused(event.start_mark, problem)
            if event.value == "" and not event.style and (colour := _commented_colour(self.lines, event.start_mark)):
                raise _Refused(colour[0], colour[1])
            node: yaml.Node = ScalarNode(tag, event.value, cast(Any, event.start_mark), cast(Any, event.end_mark), style=event.style)
            height = 0
        else:
            if depth >= lim.depth:
                raise _Refused(event.start_mark, f"nested more than {lim.depth} levels deep", "depth")
            mapping = isinstance(event, MappingStartEvent)
            assert mapping or isinstance(event, SequenceStartEvent)
            if lim.strict and tag not in (None, "!", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"):
                raise _Refused(event.start_mark, f"the tag {tag!r}: expected plain YAML values (numbers, text, true/false, lists, mappings)")
            kind = MappingNode if mapping else SequenceNode
            if tag is None or tag == "!":
                tag = self.resolve(kind, None, event.implicit)
            node = kind(tag, [], event.start_mark, None, flow_style=event.flow_style)
            items: list[Any] = node.value
            height = 0
            while not self.check_event(SequenceEndEvent, MappingEndEvent):  # libyaml matches exact classes
                item, h = self._node(depth + 1)
                height = max(height, h)
                if mapping:
                    value, h = self._node(depth + 1)
                    height = max(height, h)
                    items.append((item, value))
                else:
                    items.append(item)
            node.end_mark = self.get_event().end_mark
            height += 1
        if anchor is not None:
            self.anchors[anchor] = (node, self.nodes - before, height)
        return node, height


def loader_class(parser: type) -> type:
    """The loader that parses with `parser` (libyaml's CParser, or PythonParser)."""
    bases = (_Composer, parser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver)
    return type(f"Loader{parser.__name__}", bases, {"_events": parser})


_PythonLoader = loader_class(PythonParser)
try:
    from yaml.cyaml import CParser  # type: ignore[attr-defined]  # absent without libyaml
except ImportError:  # PyYAML built without libyaml
    _Loader = _PythonLoader
else:
    _Loader = loader_class(CParser)

# libyaml (PyYAML >= 6.0.4) stops at 1000 levels of its own, while its scanner reads ahead
# of the composer: a deep flow collection fails there before the limit above is reached.
_LIBYAML_DEPTH = "exceeded maximum nesting depth"


def parse_located(text: str, path: str | os.PathLike, limits: Limits = CONTENT) -> Located:
    """Parse YAML text within `limits`; raise PnpError with the file position on malformed input."""
    try:
        return _parse_located(text, path, limits, _Loader)
    except yaml.MarkedYAMLError:  # only libyaml's depth limit leaves _parse_located unturned
        # The pure-Python parser has no such limit: it gives the position of the first
        # level past `limits.depth` (it is slower, and only ever runs on such a file).
        return _parse_located(text, path, limits, _PythonLoader)


def _parse_located(text: str, path: str | os.PathLike, limits: Limits, loader_type: type) -> Located:
    doc = Located(Path(path), None)
    loader = loader_type(text, limits)
    where = _editor_positions(text)
    try:
        node = loader.get_single_node()
        errors: list[ContentError] = []
        if node is not None:
            doc.marks[()] = _mark(node, where)
            doc.data = _construct(loader, node, (), doc, errors, where)
        else:  # an empty document (or one of comments only): what it lacks is said at its line 1
            doc.marks[()] = (1, 1)
    except _Refused as exc:
        message = f"{exc.message}: {limits.hint(exc.key)}" if exc.key else exc.message
        raise PnpError(ContentError(path, *where(exc.mark), message)) from None
    except yaml.MarkedYAMLError as exc:
        if loader_type is not _PythonLoader and _LIBYAML_DEPTH in str(exc.problem):
            raise
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "malformed YAML"
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)  # the parser's count, as its lines are read below
        shown: tuple[int | None, int | None] = where(mark) if mark else (None, None)  # an editor's
        if line is not None and _char_at(text, line, col) == "\t":
            problem = "a tab character: YAML indents with spaces only"
        elif (opened := _unclosed(exc, text, where)) is not None:  # at the quote or bracket left open, not where the parser gave up
            shown, problem = opened
        elif line is not None and problem in _INDENT_PROBLEMS:
            problem += ": " + _indent_hint(text, line, col)
        raise PnpError(ContentError(path, shown[0], shown[1], f"malformed YAML: {problem}")) from None
    except yaml.YAMLError as exc:  # e.g. control characters: the reader gives an offset
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        line = col = None
        at = getattr(exc, "position", None)
        if isinstance(at, int) and 0 <= at <= len(text):
            ends = [end.end() for end in LINE_END.finditer(text, 0, at)]  # a lone CR too, as the parser counts
            line, col = len(ends) + 1, at - (ends[-1] if ends else 0) + 1
        raise PnpError(ContentError(path, line, col, f"malformed YAML: {first} (expected UTF-8 text)")) from None
    finally:
        loader.dispose()
    if errors:
        raise PnpError(errors)
    return doc


# the parser's words for a line indented unlike its neighbours; a designer needs the fix in plain words
_INDENT_PROBLEMS = {"mapping values are not allowed in this context", "did not find expected key",
                    "did not find expected '-' indicator", "did not find expected <block end>"}


_SCANNED = 1 << 20  # characters before a failure scanned again for a text in quotes run over lines
_FLOW_CONTEXTS = {"while parsing a flow mapping": ("{", "}"), "while parsing a flow sequence": ("[", "]")}


def _unclosed(exc: yaml.MarkedYAMLError, text: str, where: Where) -> tuple[tuple[int, int], str] | None:
    """A quote or bracket left open, the likely mistake where the parser failed lines later (at
    the end of the file, or where the quoted text ends at a quote meant for another line): its
    position and what is wrong there. None when the failure is on the line it opened on."""
    problem, at = exc.problem or "", exc.problem_mark
    if at is None:
        return None
    failed = "line {}, column {}".format(*where(at))
    if exc.context == "while scanning a quoted scalar" and exc.context_mark is not None:
        quote = _char_at(text, exc.context_mark.line + 1, exc.context_mark.column + 1) or '"'
        return where(exc.context_mark), f"the text in quotes begun here is never closed: expected a closing {quote}"
    if exc.context in _FLOW_CONTEXTS and exc.context_mark is not None and exc.context_mark.line < at.line \
            and _left_open(text, exc.context_mark.line, at.line) and not _closed(text, exc.context_mark.index):
        opening, closing = _FLOW_CONTEXTS[exc.context]
        return (where(exc.context_mark),
                f"the {opening!r} here is not closed ({problem} at {failed}): expected a {closing!r} at the end of what it holds")
    if at.index > _SCANNED:  # the pure-Python scanner reads about 1 MiB a second: a hint is not worth more
        return None
    quoted = None  # the last text in quotes before the failure that ran over lines, ending on the failing line
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if token.start_mark.index >= at.index:
                break
            if isinstance(token, yaml.ScalarToken) and token.style in ("'", '"') and token.start_mark.line < token.end_mark.line:
                quoted = token
    except yaml.YAMLError:  # the scanner's own failure lies past the tokens read
        pass
    if quoted is None or quoted.end_mark.line != at.line:
        return None
    return (where(quoted.start_mark),
            f"the text in quotes begun here runs on to line {where(at)[0]}, where the YAML breaks ({problem} at {failed}): "
            f"expected its closing {quoted.style} on this line")


# what moves a flow collection's depth: a bracket; a text in quotes (a quote begins one only where a value
# can begin) and a comment hold none
_FLOW_TOKENS = re.compile(r"""(?<![^\s\[{,:])(?:'(?:[^']|'')*'|"(?:[^"\\]|\\[\s\S])*")|(?<!\S)#.*|[\[\]{}]""")


def _closed(text: str, at: int) -> bool:
    """Whether the bracket at index `at` is closed further on: then the parser gave up inside it
    where an item lacks its comma (`b: {x: 1,` / `  y: 2` / `  z: 3}`, however indented), not at a
    bracket left open."""
    depth = 0
    for token in _FLOW_TOKENS.finditer(text, at):
        if token.group() in ("[", "{"):
            depth += 1
        elif token.group() in ("]", "}"):
            depth -= 1
            if depth == 0:
                return True
    return False


# _left_open, _indent_hint and _char_at read lines by the parser's count, as its marks give them:
# splitlines() ends them where YAML 1.1 does (U+2028 too), and the other characters it ends a line
# at (a form feed...) are refused by the reader before any line is read

def _left_open(text: str, opened: int, failed: int) -> bool:
    """Whether a bracket opened on line `opened` (0-based) that the parser gave up inside on a
    later line `failed` is left open: the failure is at the end of the file, or on a line
    starting no further in than the opening line's key (`b:` of `a: [1, 2` / `b: 3`, the
    block going on). Further in, the bracket's own items go on, one lacking its comma
    (`{a: 1,` / `    b: 2` / `    c: 3}`): the parser's position is the mistake's."""
    lines = text.splitlines()
    if failed >= len(lines) or not lines[failed].strip():
        return True
    key = len(lines[opened]) - len(re.sub(r"^[ ]*(?:-[ ]+)*", "", lines[opened]))  # past the `- ` of a list's item
    return len(lines[failed]) - len(lines[failed].lstrip(" ")) <= key


def _indent_hint(text: str, line: int, column: int | None) -> str:
    lines = text.splitlines()
    before = lines[line - 1][: (column or 1) - 1] if 0 < line <= len(lines) else ""
    if ": " in before.lstrip(" -"):  # `name: Omen: cards` — a second ':' on a line that has its key
        return "expected a text holding ': ' in quotes (\"...\")"
    return "check this line's indentation: expected the keys of one mapping, and the '- ' items of one list, to start in the same column"


def _char_at(text: str, line: int, column: int | None) -> str:
    lines = text.splitlines()
    if column is None or not 0 < line <= len(lines):
        return ""
    row = lines[line - 1]
    return row[column - 1] if 0 < column <= len(row) else ""


def read_capped(path: str | os.PathLike, size: int, hint: str) -> bytes:
    """The bytes of a file, refused when larger than `size` before anything is read (`hint`
    ends the message). Pipes and devices (`/dev/stdin`, `/dev/zero`) are read up to the same limit."""
    def too_big(what: str) -> PnpError:
        return PnpError(ContentError(path, None, None, f"{what}, more than {size_in_words(size)}: {hint}"))

    try:
        # Non-blocking open: a named pipe with no writer must not hang the open itself.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        if os.path.islink(path):  # named by the link, not by where it leads
            raise PnpError(ContentError(path, None, None, f"a link to {os.readlink(os.fspath(path))}, which leads to no file")) from None
        raise PnpError(ContentError(path, None, None, "file not found")) from None
    except OSError as exc:
        raise PnpError(ContentError(path, None, None, f"cannot read: {exc.strerror or exc}")) from None
    info = os.fstat(fd)
    if stat.S_ISDIR(info.st_mode):  # before fdopen, which refuses a folder naming only the descriptor ("3: Is a directory")
        os.close(fd)
        raise PnpError(ContentError(path, None, None, "is a folder: expected a file"))
    with os.fdopen(fd, "rb") as f:
        if stat.S_ISREG(info.st_mode):
            if info.st_size > size:
                raise too_big(f"file of {size_in_words(info.st_size)}")
        elif hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)  # a pipe or device: read as it comes, within the limit
        try:
            data = f.read(size + 1)
        except OSError as exc:
            raise PnpError(ContentError(path, None, None, f"cannot read: {exc.strerror or exc}")) from None
    if len(data) > size:
        raise too_big("not a regular file")
    return data


def read_text(path: str | os.PathLike, limits: Limits) -> str:
    """The UTF-8 text of a file within `limits.size`."""
    try:
        return read_capped(path, limits.size, limits.hint("size")).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PnpError(ContentError(path, None, None, f"not UTF-8 text ({exc.reason})")) from None


def load_located(path: str | os.PathLike, limits: Limits = CONTENT) -> Located:
    """Read and parse one YAML file within `limits` (overridable from the environment)."""
    limits = limits.from_env()
    return parse_located(read_text(path, limits), path, limits)
