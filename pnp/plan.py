"""Stage 2 of the pipeline: the pieces of each component, from the content and the build
options (game.yaml `items:` and `copies:`): which records, under which ids, how many
copies. Rendering their faces is the next stage (pnp/render/faces.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import jinja2

from .errors import ContentError, add_folded, counted, display_path, failure, raise_if_any, undefined_named
from .limits import BUILD
from .load.content import GameContent
from .load.manifest import Component

FILE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def item_field(item: Any, key: str) -> Any:
    """Field `key` of a record: a mapping's or a model's (None when it has none)."""
    return item.get(key) if isinstance(item, dict) else getattr(item, key, None)


def item_id(item: Any) -> Any:
    return item_field(item, "id")


def item_name(item: Any) -> str:
    """What a player calls a piece: its record's `name` or `title` ("" when it has neither)."""
    for key in ("name", "title"):
        value = item_field(item, key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _is_number(value: Any) -> bool:
    """Whether `value` is a number, or text that reads as one (a CSV cell)."""
    if isinstance(value, bool):
        return False
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def _shown(value: Any) -> str:
    """A value as a designer wrote it: a text quoted, a number as is, and anything else
    (a list, a record, a method) by what it is, not Python's name for it."""
    if isinstance(value, str):  # a Markup too: its text
        return repr(str(value))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a record"
    if isinstance(value, (set, frozenset)):
        return f"a set of {len(value)} (no order: sort it into a list, `| sort`)"
    if callable(value):
        return "a function or macro, not called (add its `()`)"
    if hasattr(value, "__next__"):  # Jinja's map, select, reject... hand back a generator
        return "a sequence made as it is read (make it a list: `| list`)"
    return f"a value of another kind ({type(value).__name__})"


@dataclass(frozen=True)
class Planned:
    """One piece to make: the record, its id (a file name) and how many copies to print."""

    item_id: str
    item: Any
    copies: int


class Plan:
    """Expands a game's components into pieces; collects every error (located in game.yaml)."""

    def __init__(self, game: GameContent, env: jinja2.Environment, names: dict[str, Any], errors: list[ContentError]):
        self.game = game
        self.env = env  # the game's template environment: `items:`/`copies:` see its filters
        self.names = names
        self.errors = errors
        self._expressions: dict[str, Any] = {}
        self._items: dict[int, list[Any]] = {}  # expanded once: counted for progress, then rendered
        self.limits = BUILD.values()
        self._counts: dict[int, int] = {}  # pieces planned, by component

    def expression(self, source: str) -> Any:
        """A compiled Jinja expression; `copies:` is evaluated once per item, compiled once."""
        if source not in self._expressions:
            self._expressions[source] = self.env.compile_expression(source, undefined_to_none=False)
        return self._expressions[source]

    def fail(self, index: int, key: str, message: str) -> None:
        self.errors.append(self.game.manifest_doc.error(("components", index, key), message))

    def items(self, index: int, comp: Component) -> list[Any]:
        """The records a component is made of."""
        if index not in self._items:
            self._items[index] = self._expand(index, comp)
        return self._items[index]

    def _expand(self, index: int, comp: Component) -> list[Any]:
        if isinstance(comp.items, list):
            return self.game.plain.copy(comp.items)  # plain data (a YAML date becomes its text)
        try:
            value = self.expression(comp.items)(**self.names)
            if isinstance(value, jinja2.Undefined):
                value._fail_with_undefined_error()
        except Exception as exc:  # any failure of a designer's expression is an input error
            self.fail(index, "items", f"items expression {comp.items!r} failed: {undefined_named(failure(exc), self.names)}")
            return []
        if isinstance(value, dict):
            value = list(value.values())
        if not isinstance(value, (list, tuple)):
            self.fail(index, "items", f"items expression {comp.items!r} gave {_shown(value)}: expected a list of records with an `id`")
            return []
        return list(value)

    def copies(self, index: int, comp: Component, item: Any) -> int:
        if isinstance(comp.copies, int):
            return comp.copies
        try:
            value = self.expression(comp.copies)(**self.names, item=item)
            if isinstance(value, jinja2.Undefined):  # `item.copy`, no such field: say which
                value._fail_with_undefined_error()
        except jinja2.TemplateError as exc:  # its message is the designer's ("no field 'copy'", "'six' is undefined")
            message = undefined_named(exc.message or "template error", (*self.names, "item"))
            self._piece_failed(index, comp, item, f" failed: {message}: expected a whole number >= 0")
            return 0
        except Exception as exc:  # any other failure of a designer's expression (`1 / 0`) is an input error too
            self._piece_failed(index, comp, item, f" failed: {failure(exc)}: expected a whole number >= 0")
            return 0
        try:
            count = int(value)
            if count < 0:
                raise ValueError("negative")
        except Exception:  # int() of what is no number: its message names Python's types
            count = -1
        if count < 0 or isinstance(value, bool) or count != (float(value) if isinstance(value, str) else value):  # int() makes 2.5 two, True one
            problem = f" gave {_shown(value)}: expected a whole number >= 0"
            # a wrong number (-1, 2.5) was typed in the record; text is more likely the expression's mistake (`item.title`)
            if not (_is_number(value) and self._at_copies(item, comp, f"copies expression {comp.copies!r} for item {item_id(item)!r}{problem}")):
                self._piece_failed(index, comp, item, problem)
            return 0
        return count

    def _at_copies(self, item: Any, comp: Component, message: str) -> bool:
        """Report `message`, about an item's count, at the field `copies: item.FIELD` reads,
        where the designer typed the number (a CSV cell): whether a content file holds it."""
        field = re.fullmatch(r"\s*item\.(\w+)\s*", comp.copies) if isinstance(comp.copies, str) else None
        found = self.game.locate(item, field.group(1)) if field else None
        if found is None or found.line is None:
            return False
        self.errors.append(ContentError(found.path, found.line, found.column, message))
        return True

    def _piece_failed(self, index: int, comp: Component, item: Any, problem: str) -> None:
        """A `copies:` failure of one item, folded with the same failure of the others: one
        typo in the expression is one line, not one a card."""
        what = f"copies expression {comp.copies!r} for item {item_id(item)!r}"
        located = self.game.manifest_doc.error(("components", index, "copies"), what + problem)
        add_folded(self.errors, located, what)

    def _too_many(self, index: int, comp: Component, item: Any, ident: str, copies: int) -> bool:
        """Whether a piece's copies break a limit (then reported, and planning stops)."""
        if copies > self.limits["copies"]:
            message = f"{copies:,} copies of {ident!r} in {comp.id!r}, more than {self.limits['copies']:,}: {BUILD.hint('copies')}"
            if not self._at_copies(item, comp, message):
                self.fail(index, "copies", message)
            return True
        self._counts[index] = self._counts.get(index, 0) + copies
        if sum(self._counts.values()) > self.limits["pieces"]:
            self.fail(index, "items", f"{comp.id!r} brings the game past {self.limits['pieces']:,} pieces: {BUILD.hint('pieces')}")
            return True
        return False

    def _twice(self, index: int, comp: Component, ident: str, first: Any, again: Any) -> None:
        """An id repeated: at the second record's `id` when a content file holds it (naming
        where the first is), else at the component's `items:`."""
        second, before = self.game.locate(again, "id"), self.game.locate(first, "id")
        where = ""
        if before is not None and before.line is not None:
            same = second is not None and second.path == before.path
            where = f" (first at {'line ' if same else display_path(before.path) + ':'}{before.line})"
        self._at_record(index, second, f"item id {ident!r} appears twice in {comp.id!r}{where}: expected unique ids")

    def _no_id(self, index: int, comp: Component, lacking: list[tuple[int, Any]]) -> None:
        """The first record without an `id` (and how many more), at the record when a content
        file holds it, showing what it holds (an `items:` one level too high gives a record of
        records): one line, however many rows lack the column."""
        number, item = lacking[0]
        more = f" (and {counted(len(lacking) - 1, 'more item')} without one)" if len(lacking) > 1 else ""
        if isinstance(item, dict):
            message = f"item {number} of {comp.id!r} has no `id` (its keys: {', '.join(map(str, list(item)[:6]))}){more}: expected every record to have an `id`"
        else:
            message = f"item {number} of {comp.id!r} is {_shown(item)}, not a record{more}: expected a list of records with an `id`"
        self._at_record(index, self.game.locate(item, "id"), message)

    def _at_record(self, index: int, found: ContentError | None, message: str) -> None:
        """`message` where `found` places a record (`game.locate`), else at the component's
        `items:` (records written in `items:` itself have no line of their own)."""
        if found is None:
            self.fail(index, "items", message)
        else:
            self.errors.append(ContentError(found.path, found.line, found.column, message))

    def pieces(self, index: int, comp: Component) -> list[Planned]:
        """The component's pieces in order; items with a bad or repeated id are errors."""
        out: list[Planned] = []
        seen: dict[str, Any] = {}  # id -> its first item
        items = self.items(index, comp)
        self._counts[index] = 0
        if len(items) > self.limits["pieces"]:  # before any is rendered
            self.fail(index, "items", f"{len(items):,} items in {comp.id!r}, more than {self.limits['pieces']:,} pieces: {BUILD.hint('pieces')}")
            raise_if_any(self.errors)
        lacking: list[tuple[int, Any]] = []  # (position, record) of the records without an id
        for number, item in enumerate(items, 1):
            ident = item_id(item)
            if ident is None:
                lacking.append((number, item))
                continue
            if isinstance(ident, str) and len(ident) > self.limits["id"]:
                self.fail(index, "items", f"item id {ident[:20] + '…'!r} of {comp.id!r} has {len(ident):,} characters, more than {self.limits['id']:,}: {BUILD.hint('id')}")
                continue
            if not isinstance(ident, str) or not FILE_ID.match(ident) or ident == "back":  # at the record's `id`, as a repeated one
                self._at_record(index, self.game.locate(item, "id"),
                                f"item {ident!r} of {comp.id!r}: expected an `id` of ASCII letters (a-z, A-Z), digits, '.', '_' or '-' (and not 'back')")
                continue
            if ident in seen:
                self._twice(index, comp, ident, seen[ident], item)
                continue
            seen[ident] = item
            copies = self.copies(index, comp, item)
            if self._too_many(index, comp, item, ident, copies):
                raise_if_any(self.errors)  # now: rendering what was planned would only waste time
            out.append(Planned(ident, item, copies))
        if lacking:
            self._no_id(index, comp, lacking)
        return out
