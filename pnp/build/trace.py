"""What a face read while it rendered: the facts the build cache checks before it reuses the
face (pnp/build/cache.py states the rule in full).

A fact is (path, kind, digest): the path of a value from the face's context (`("item",
"title")`, `("events", "cards", 3)`), and the digest of that value whole ("w") or of its
shape ("s": a dict's keys in order, a list's items with the containers in it as their
shapes; a scalar's shape is its value). A path where nothing is holds "-".

The names are plain data (pnp/plaindata.py), so every container in them has its paths,
all of them when it is shared, found once per renderer. The sandbox (pnp/sandbox.py)
reports each name a template resolves, each `getattr`/`getitem`, each call, the operands
of `%`, `*`, `**`, comparisons and `~`, and each value printed; the wrapped filters and
tests report what they are given, and the loader each template a face loads.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any

import jinja2
from jinja2 import Undefined
from jinja2.runtime import LoopContext
from jinja2.utils import Namespace

from ..files import digest
from ..plaindata import is_helper
from ..units import num

ABSENT = object()  # nothing at a path
UNKNOWN = object()  # a path that can no longer be followed (a key JSON made a list): never the same
MAX_PATHS = 200_000  # more paths than this (data shared a great deal): every name counts whole
# filters that read their first argument only through getattr/getitem or other (wrapped)
# filters and tests, or only its shape (length, order, the items it hands back)
SHAPE_FILTERS = frozenset({"selectattr", "rejectattr", "select", "reject", "map", "groupby", "first", "last",
                           "length", "count", "reverse", "list", "batch", "slice", "default", "d"})
BY_ATTRIBUTE = frozenset({"sort", "unique", "min", "max", "sum", "join"})  # the same, given `attribute=`
# filters that take one number (`float(value)`): a container given them fails the face, so
# they read nothing to record; left unwrapped (`num` is most of a face's filter calls)
UNREAD_FILTERS = (num,)

Path = tuple[Any, ...]
SCALARS = frozenset({str, int, float, bool, type(None)})
CONTAINERS = (dict, list, tuple)
JINJA_KEYWORDS = frozenset({"_block_vars", "_loop_vars"})  # Jinja hands them to every call, drops them but for pass_context
NOWHERE: list[Path] = []  # the paths of a value that is no container of the names (never changed)


def _scalar(value: Any) -> Any:
    """A value that is neither plain scalar nor container (Markup, a helper), as JSON can hold it."""
    if is_helper(value):
        return ["helper", value.__name__]
    return [type(value).__name__, repr(value)]  # Markup prints unlike the same str


def _whole(value: Any, within: tuple[int, ...] = ()) -> Any:
    if not isinstance(value, (dict, list, tuple)):
        return _scalar(value)
    if id(value) in within:  # data that holds itself (a YAML alias of its own parent)
        return ["<cycle>"]
    within = (*within, id(value))
    # a text, number, bool or None is its own value (_scalar): most items, taken as they are
    if isinstance(value, dict):
        return ["{}", *([k if type(k) in SCALARS else _whole(k), v if type(v) in SCALARS else _whole(v, within)]
                        for k, v in value.items())]
    return ["[]" if isinstance(value, list) else "()", *[v if type(v) in SCALARS else _whole(v, within) for v in value]]


def _shape(value: Any, within: tuple[int, ...] = ()) -> Any:
    """What a template sees of a value without reading it by key: a dict's keys (iterating,
    `in`, `length`), a list's items (a loop hands them over unseen) as their shapes."""
    if isinstance(value, dict):
        return ["{}", *[k if type(k) in SCALARS else _whole(k) for k in value]]
    if not isinstance(value, (list, tuple)):
        return _scalar(value)
    if id(value) in within:
        return ["<cycle>"]
    within = (*within, id(value))
    return ["[]" if isinstance(value, list) else "()", *[v if type(v) in SCALARS else _shape(v, within) for v in value]]


def _resolve(context: dict[str, Any], path: list[Any]) -> Any:
    value: Any = context
    try:
        for key in path:
            if isinstance(value, dict) and key in value:
                value = value[key]
            elif isinstance(value, (list, tuple)) and type(key) is int and -len(value) <= key < len(value):
                value = value[key]
            else:
                return ABSENT
    except TypeError:
        return UNKNOWN
    return value


def _is_item(obj: Any, key: Any, found: Any) -> bool:
    """Whether `found` is what `obj` holds at `key` (not a method, a slice or nothing)."""
    try:
        if isinstance(obj, dict):
            return key in obj and obj[key] is found
        return type(key) is int and -len(obj) <= key < len(obj) and obj[key] is found
    except TypeError:
        return False


def _paths(value: Any, path: Path, into: dict[int, list[Path]], stack: set[int] | None = None) -> int:
    """Add every path of every container in `value` (shared ones have several); how many."""
    if not isinstance(value, CONTAINERS):
        return 0
    if stack is None:
        stack = set()
    into.setdefault(id(value), []).append(path)
    stack.add(id(value))
    count = 1
    for key, item in value.items() if isinstance(value, dict) else enumerate(value):
        if isinstance(item, CONTAINERS) and id(item) not in stack:  # scalars, most items, have no paths
            count += _paths(item, (*path, key), into, stack)
        if count > MAX_PATHS:
            break
    stack.discard(id(value))
    return count


class Trace:
    """Records what each face of one renderer reads, and checks a face's recorded facts
    against a new context. Active (the environment's `reads`) only while a face renders."""

    def __init__(self, env: jinja2.Environment, names: dict[str, Any]):
        self.env = env
        self.names = names
        self.base: dict[int, list[Path]] | None = None  # paths in the names (all but the face's own)
        # while a face renders: the base with the face's own values' paths laid over it (its
        # own first), taken off again when it stops; one look-up finds every path of a value
        self.paths: dict[int, list[Path]] = {}
        self._under: list[tuple[int, list[Path] | None]] = []  # what the face's own paths covered
        self.overflow = False
        self.sources: dict[str, str] = {}
        self._digests: dict[tuple[int, str], tuple[Any, str]] = {}  # the object kept: its id stays its own
        self._key_shapes: dict[tuple[str, ...], str] = {}  # a dict's shape by its keys (each face's `item` is new)
        self._facts: dict[tuple[Path, str, str], tuple[Path, str, str]] = {}  # each fact recorded, once
        # each face's own name (not one of the names) -> its last value, its paths and how many:
        # a component's faces, a card's front and back, share it (read only: the values, as
        # the names, are not changed while the build runs; `_digests` counts on that too)
        self._own: dict[str, tuple[Any, dict[int, list[Path]], int]] = {}
        env.filters.update({name: self._wrap(name, fn) for name, fn in env.filters.items() if fn not in UNREAD_FILTERS})
        env.tests.update({name: self._wrap(None, fn) for name, fn in env.tests.items()})
        load = env._load_template

        def traced_load(name: str, globals: Any) -> Any:
            if env.reads is self:  # type: ignore[attr-defined]
                self.templates[name] = self.template(name)
            return load(name, globals)

        env._load_template = traced_load  # type: ignore[method-assign]  # extends, include, import: all load here

    def _wrap(self, name: str | None, fn: Any) -> Any:
        skip = 1 if getattr(fn, "jinja_pass_arg", None) is not None else 0  # the context Jinja passes first
        env = self.env

        @functools.wraps(fn)
        def traced(*args: Any, **kwargs: Any) -> Any:
            if not kwargs and (env.reads is not self  # type: ignore[attr-defined]
                               or (type(args[0]) in SCALARS if len(args) == 1 else SCALARS.issuperset(map(type, args)))):
                return fn(*args)  # nothing of the names in it (most calls: `x | num`)
            if env.reads is not self:  # type: ignore[attr-defined]
                return fn(*args, **kwargs)
            shape = len(args) > skip and (name in SHAPE_FILTERS or (name in BY_ATTRIBUTE and "attribute" in kwargs))
            if shape:
                self._use(args[skip])
            first = skip + 1 if shape else skip
            if kwargs or not SCALARS.issuperset(map(type, args[first:])):
                taken, kwargs = self.taken(args[first:], kwargs)
                args = (*args[:first], *taken)
            found = fn(*args, **kwargs)
            return self._handed(found) if shape else found

        return traced

    def template(self, name: str) -> str:
        """The digest of a template's source now ("-" when there is none)."""
        if name not in self.sources:
            try:
                assert self.env.loader is not None
                self.sources[name] = digest(name, self.env.loader.get_source(self.env, name)[0])
            except jinja2.TemplateNotFound:
                self.sources[name] = "-"
        return self.sources[name]

    def digest(self, kind: str, value: Any) -> str:
        if type(value) is str and len(value) < 32:  # most reads: a short text is its own digest
            return '"' + value
        if value is ABSENT:
            return "-"
        if value is UNKNOWN:
            return "?"
        if not isinstance(value, (dict, list, tuple)):  # most reads: a short one is its own digest
            kind_of = type(value)
            text = ('"' + value if kind_of is str else repr(value) if kind_of in SCALARS
                    else json.dumps(_scalar(value), ensure_ascii=False))
            return text if len(text) <= 32 else "#" + digest(text)
        found = self._digests.get((id(value), kind))
        if found is None or found[0] is not value:
            if kind == "s" and type(value) is dict and all(type(k) is str for k in value):
                keys = tuple(value)
                known = self._key_shapes.get(keys)
                if known is None:
                    known = self._key_shapes[keys] = digest(_shape(value))
            else:
                known = digest((_whole if kind == "w" else _shape)(value))
            found = self._digests[(id(value), kind)] = (value, known)
        return found[1]

    def holds(self, templates: dict[str, str], facts: list[Any], context: dict[str, Any]) -> bool:
        """True when every template and fact recorded for a face is the same in `context`."""
        return (all(self.template(name) == known for name, known in templates.items())
                and all(self.digest(kind, _resolve(context, path)) == known for path, kind, known in facts))

    # recording one face

    def start(self, context: dict[str, Any]) -> None:
        if self.base is None:
            self.base = {}
            shared = {k: v for k, v in context.items() if k in self.names and self.names[k] is v}
            self.overflow = sum(_paths(v, (k,), self.base) for k, v in shared.items()) > MAX_PATHS
        self.context = context
        names, base, last = self.names, self.base, self._own
        local: dict[int, list[Path]] = {}
        own = 0
        for name, value in context.items():
            if not isinstance(value, CONTAINERS) or names.get(name, ABSENT) is value:
                continue
            found = last.get(name)
            if found is None or found[0] is not value:
                index: dict[int, list[Path]] = {}
                found = last[name] = (value, index, _paths(value, (name,), index))
            own += found[2]
            for key, paths in found[1].items():
                local[key] = local[key] + paths if key in local else paths
        self._under = [(key, base.get(key)) for key in local]
        for key, under in self._under:
            base[key] = local[key] if under is None else local[key] + under
        self.paths = base
        self.facts: dict[Path, tuple[str, str]] = {}
        self.reached: dict[int, Any] = {}
        self.used: dict[int, Any] = {}
        self.wholes: dict[int, Any] = {}
        self.templates: dict[str, str] = {}
        self.roots: set[str] = set()  # the names resolved: a value reached is reached through one of them
        # reads already recorded (a template reads the same field again and again); the ids
        # are those of objects alive all through the face, or of ones it made, which no
        # record of the names can share
        self.once: set[Any] = set()
        self.anywhere = False  # a global held data of the names: any path may be how it was reached
        self.everything = self.overflow or own > MAX_PATHS
        self.env.reads = self  # type: ignore[attr-defined]

    def stop(self) -> tuple[dict[str, str], list[tuple[Path, str, str]]]:
        """The face's templates (name -> digest) and facts."""
        self.env.reads = None  # type: ignore[attr-defined]
        try:
            return self._recorded()
        finally:
            for key, under in self._under:  # the base as it was
                if under is None:
                    del self.paths[key]
                else:
                    self.paths[key] = under
            self._under = []

    def _recorded(self) -> tuple[dict[str, str], list[tuple[Path, str, str]]]:
        for key, value in self.reached.items():
            if key not in self.used:  # reached and then not read by key: compared, iterated, tested
                self.wholes[key] = value
        for key, value in {**self.reached, **self.used}.items():
            if key not in self.wholes:
                self._fact(value, "s")
        for value in self.wholes.values():
            self._fact(value, "w")
        if self.everything:  # a helper that reads the template context can reach any name: last, the shape of a name read by key too
            for name, value in self.context.items():
                self.facts[(name,)] = ("w", self.digest("w", value))
        # a shared record (`item` and its place in `cards`) counts at the paths a name resolved leads to;
        # tuples (JSON writes them as lists), one of each fact for all faces (most faces
        # read the same `side`, `width`, helpers): a build keeps every face's facts, and
        # fewer objects are less work for the garbage collector
        one = self._facts.setdefault
        facts = [one(fact, fact) for fact in [(path, kind, known) for path, (kind, known) in self.facts.items()
                                                if self.anywhere or self.everything or path[0] in self.roots]]
        return self.templates, facts

    def _paths_of(self, value: Any) -> list[Path]:
        """Where a container of the names is (nothing for any other value: the indexes hold
        the ids of containers alive all through the face, so no other value has them)."""
        return self.paths.get(id(value), NOWHERE)

    def _fact(self, value: Any, kind: str) -> None:
        known = self.digest(kind, value)
        for path in self._paths_of(value):
            self.facts[path] = (kind, known)

    def _at(self, paths: list[Path], key: Any, value: Any) -> None:
        """`value` was read at `key` of a container with these paths."""
        if isinstance(value, CONTAINERS):
            if self._paths_of(value):
                self.reached[id(value)] = value
        else:  # a short text inline, as `digest` gives it: the commonest read of all
            fact = ("s", '"' + value if type(value) is str and len(value) < 32 else self.digest("s", value))
            for path in paths:
                self.facts[(*path, key)] = fact

    def _handed(self, value: Any, seen: set[int] | None = None) -> Any:
        """What a filter that reads by shape hands back (`first`, `selectattr`...): the
        records of the names in it are reached, as if read by key: whole unless read further."""
        if isinstance(value, (dict, list, tuple)):
            seen = seen or set()
            if self._paths_of(value):
                self.reached[id(value)] = value
            elif not isinstance(value, dict) and id(value) not in seen:  # a list it made (`batch`): what it holds
                seen.add(id(value))
                for item in value:
                    self._handed(item, seen)
        elif isinstance(value, Iterator):
            return (self._handed(item) for item in value)  # a generator: each item as it is taken
        return value

    def _use(self, value: Any) -> None:
        if isinstance(value, (dict, list, tuple)) and self._paths_of(value):
            self.used[id(value)] = value

    # the sandbox's reports

    def name(self, key: str, value: Any) -> None:
        """A template resolved `key` from its context to `value` (a global, or missing)."""
        self.roots.add(key)  # the sandbox reports a name once (`key not in reads.roots`)
        if key in self.context:
            if not isinstance(value, CONTAINERS):  # most names: a scalar (`side`, `width`)
                self.facts[(key,)] = ("s", '"' + value if type(value) is str and len(value) < 32 else self.digest("s", value))
            elif id(value) in self.paths:
                self.reached[id(value)] = value
            return
        self.facts[(key,)] = ("s", "-")  # not a content name now: one appearing counts
        self.anywhere |= isinstance(value, (dict, list, tuple)) and bool(self._paths_of(value))

    def read(self, obj: Any, key: Any, found: Any) -> None:
        """`obj.key` or `obj[key]` gave `found`."""
        at = id(obj)
        paths = self.paths[at]  # the sandbox reports reads of containers of the names alone
        try:
            if (at, key) in self.once:
                return
            self.once.add((at, key))
        except TypeError:  # a key that is no dict key (a slice): recorded each time
            pass
        self.used[at] = obj
        kind = type(found)
        if kind in SCALARS and type(obj) is dict and type(key) is str:  # most reads: a record's text or number (no method is one)
            fact = ("s", '"' + found if kind is str and len(found) < 32 else self.digest("s", found))
            for path in paths:
                self.facts[(*path, key)] = fact
        elif isinstance(found, Undefined) and isinstance(key, (str, int, float)):
            for path in paths:
                self.facts[(*path, key)] = ("s", "-")
        elif _is_item(obj, key, found) and not callable(found):
            self._at(paths, key, found)
        else:  # a method (`.items()`), a record's helper (reads its record) or a slice
            self.wholes[id(obj)] = obj

    def call(self, fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """A function, macro or helper is called: it may read its arguments in full."""
        if getattr(fn, "jinja_pass_arg", None) is not None:
            if getattr(fn, "reports_reads", False):  # its lookups report here as a template's do (pnp/sandbox.py)
                return self.taken(args, kwargs, JINJA_KEYWORDS)
            self.everything = True
            return self.taken(args, kwargs)  # the block's and loop's variables too: it is given them
        # Jinja's own keywords never reach any other function (Context.call drops them)
        if (kwargs and not JINJA_KEYWORDS.issuperset(kwargs)) or not SCALARS.issuperset(map(type, args)):
            return self.taken(args, kwargs, JINJA_KEYWORDS)
        return args, kwargs  # most calls: text and numbers

    def taken(self, args: tuple[Any, ...], kwargs: dict[str, Any],
              unread: frozenset[str] = frozenset()) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """Arguments read in full (keywords in `unread` passed on as they are): an iterator
        (a filter's generator) is read now, to see what it yields, and given on as an
        iterator over the same items."""
        one = self._taken
        return (tuple([a if type(a) in SCALARS else one(a) for a in args]),
                {k: v if k in unread or type(v) in SCALARS else one(v) for k, v in kwargs.items()})

    def _taken(self, value: Any) -> Any:
        if isinstance(value, Iterator) and not isinstance(value, LoopContext):  # a loop must not be run
            items = list(value)
            self.whole(items)
            return iter(items)
        self.whole(value)
        return value

    def whole(self, value: Any, seen: set[int] | None = None) -> None:
        """`value` is used in full (printed, passed to a function): every container of the
        names in it counts whole."""
        if not isinstance(value, (dict, list, tuple)):
            if isinstance(value, Namespace):
                self.whole(value._Namespace__attrs, seen)  # what a namespace() holds
            return
        if self._paths_of(value):
            self.wholes[id(value)] = value
            return
        seen = seen or set()
        if id(value) in seen:
            return
        seen.add(id(value))  # a list the template made: what it holds
        for item in value.values() if isinstance(value, dict) else value:
            if type(item) not in SCALARS:
                self.whole(item, seen)
