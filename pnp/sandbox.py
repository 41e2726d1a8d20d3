"""The one sandboxed Jinja environment every expression language of a project runs in:
templates, `items:`, `copies:`, `generate:` (`product`, `where`, `id`, fields) and `needs:`.

A project may come from anyone, so its expressions must not reach Python. Jinja's
SandboxedEnvironment refuses names starting with `_` and the internals of functions and
checks `str.format`; on top of it this environment drops Jinja's globals that are Python
functions (`lipsum`, `cycler`, `joiner`), gives `range`, `dict` and `namespace` as pnp's own
functions, and every name handed to an expression is plain data (pnp/plaindata.py).

That data is read only. Every face of a build shares it, so a face that changed it
(`item.tags.append(...)`) would change what the faces after it see, and a face taken from
the build cache, which does not run, would leave it unchanged: a cached build would differ
from a cold one. The environment's `given` is the copier that made the data
(pnp/plaindata.py `Copier`, one a game): a method that changes a list or dict
(`jinja2.sandbox.modifies_known_mutable`) is refused on its copies, and allowed on what an
expression makes itself (`[]`, `{}`, `dict()`, `namespace()`, a filter's new list).

While a face renders for the build cache, the environment's `reads` (pnp/build/trace.py)
is told what the template reads: each name it resolves, each `getattr`/`getitem`, each
call, the operands of `%`, `*`, `**`, comparisons and `~`, and (through `shown`, the
templates' `finalize`) each value printed. A read is reported only of a value whose id is
in `reads.paths` (the containers whose reads it records), a name only once (`reads.roots`:
the names it was told of), a value in full only when it can hold data (no text, number or
Markup).

Every template and expression compiled here is checked first for two typos Jinja lets pass
(`_Code.visit_Template`): a filter or test the environment lacks, and output a child template
never draws. A third, a child's block that no template above it has, depends on the parents,
which the compiled child cannot see (it is cached by its own source alone): so the compiled
code keeps the child's `Outline`, and `unknown_block` checks it when a face loads the template.
"""

from __future__ import annotations

import functools
import io
import json
import math
import pprint
import re
from typing import Any, MutableMapping, NamedTuple

import jinja2
from jinja2.exceptions import SecurityError
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame, operators
from jinja2.defaults import DEFAULT_FILTERS, DEFAULT_TESTS
from jinja2.filters import do_attr
from jinja2.parser import Parser
from jinja2.runtime import Context
from jinja2.sandbox import SandboxedEnvironment, modifies_known_mutable, safe_range
from jinja2.utils import Namespace
from markupsafe import Markup

from .errors import did_you_mean
from .limits import TEXTS
from .plaindata import Copier, helper, plain

REMOVED_GLOBALS = ("lipsum", "cycler", "joiner")
_NUMBERS = frozenset({int, float})
_SCALARS = frozenset({str, int, float, bool, type(None), Markup})  # a value that holds no data of the names


MAX_SIZE = 1_000_000  # items of a list or characters of a text an expression may make at once
MAX_BITS = 10_000  # bits of a number `a ** b` may make (10 ** 10 ** 10 would compute for ever)
_WIDTH = re.compile(r"\d{7,}")  # a width or precision of a million or more in a format
# the methods that change a list or a dict, as Jinja's sandbox knows them (plain data's other
# containers, tuples, do not change), looked up by type: a template calls methods thousands of times
_CHANGERS = {kind: frozenset(a for a in dir(kind) if modifies_known_mutable(kind(), a)) for kind in (dict, list)}
_OWNERS = frozenset({str, Markup, list, dict})  # the values whose methods' results `Sandbox.count` counts


class Sandbox(SandboxedEnvironment):
    """Jinja's sandbox, where a record's field wins over a dict method of the same name (a
    model's `items` field, once plain data, is still `requires.items`), and where `*`, `**`,
    `%`, `format` and the padding methods cannot ask for gigabytes."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})
    texts: dict[str, int] = TEXTS.defaults  # pnp/limits.py TEXTS, read when the environment is made
    written = 0  # characters the face being rendered has written so far (`wrote`)
    made = 0  # characters the face (or expression) being evaluated has made so far (`count`)
    reads: Any = None  # while a face renders for the build cache, what it read (pnp/build/trace.py)
    given: Copier | None = None  # the copier of the data handed to expressions: its copies are read only

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals: for one with globals of its own, Jinja's ChainMap of them over
        the environment's; else (every template of pnp's) a copy of the environment's, as
        every face's context copies them, and a ChainMap copies at five times the cost. pnp
        sets the environment's globals before any template or expression is compiled."""
        return super().make_globals(d) if d else dict(self.globals)

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        parser = Parser(self, source, name, filename)
        try:
            return parser.parse()
        except RecursionError:  # Jinja's parser recurses once (or more) a nesting
            raise jinja2.TemplateSyntaxError(_TOO_DEEP, parser.stream.current.lineno, name, filename) from None

    def compile(self, source: Any, name: str | None = None, filename: str | None = None,
                raw: bool = False, defer_init: bool = False) -> Any:
        try:
            return super().compile(source, name, filename, raw, defer_init)  # type: ignore[call-overload]
        except (RecursionError, MemoryError, SyntaxError):  # Jinja's code generator or Python's compiler
            # (which refuses more than 20 nested loops), past the parser
            tree = self._parse(source, name, filename) if isinstance(source, str) else source
            raise jinja2.TemplateSyntaxError(_TOO_DEEP, _deepest_line(tree), name, filename) from None

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        return not self._changes_given(obj, attr) and super().is_safe_attribute(obj, attr, value)

    def unsafe_undefined(self, obj: Any, attribute: str) -> jinja2.Undefined:
        if self._changes_given(obj, attribute):
            return self.undefined(f"the game's data is read only: `{attribute}` would change a {type(obj).__name__} every face "
                                  "is given; change a copy (`x | list`, `dict(x)`)", name=attribute, obj=obj, exc=SecurityError)
        return super().unsafe_undefined(obj, attribute)

    def compile_expression(self, source: str, undefined_to_none: bool = True) -> Any:
        """An expression (`items:`, `copies:`, `generate:`, `needs:`) whose every evaluation
        counts what it makes from nothing (`count`), as a face's render does."""
        expression = super().compile_expression(source, undefined_to_none)

        @functools.wraps(expression)
        def evaluate(*args: Any, **kwargs: Any) -> Any:
            before, self.made = self.made, 0
            try:
                return expression(*args, **kwargs)
            finally:
                self.made = before

        return evaluate

    def _changes_given(self, obj: Any, attr: str) -> bool:
        """Whether `obj.attr` is a method that changes data the expression was given."""
        return self.given is not None and attr in _CHANGERS.get(type(obj), ()) and self.given.made(obj)

    def getattr(self, obj: Any, attribute: str) -> Any:
        """`obj.attribute`: a dict's field, never one of its methods (`item.copy` is the
        field `copy`, or no field: `method` serves `item.items()`)."""
        if type(obj) is dict:
            found = obj[attribute] if attribute in obj else self.no_field(obj, attribute)
        else:
            found = super().getattr(obj, attribute)
        if self.reads is not None and id(obj) in self.reads.paths:
            self.reads.read(obj, attribute, found)
        return found

    def method(self, obj: Any, attribute: str) -> Any:
        """`obj.attribute` that is called (`item.items()`, `item.get('x')`): a dict's field
        of that name, else its method (see `_Code.visit_Call`)."""
        found = obj[attribute] if type(obj) is dict and attribute in obj else super().getattr(obj, attribute)
        if self.reads is not None and id(obj) in self.reads.paths:
            self.reads.read(obj, attribute, found)
        return found

    def no_field(self, obj: dict[Any, Any], name: str) -> jinja2.Undefined:
        """The undefined a record's missing field gives: its name and the nearest field, in
        the designer's words rather than Python's ('dict object' has no attribute)."""
        if self.given is not None and name in self.given.blank(obj):
            return self.undefined(f"field {name!r} is empty in this record (its file has that field): "
                                  "expected `| default(...)` where a record may leave it empty", obj=obj, name=name)
        # with the fields its file has and it leaves empty: every record of a sheet lacking a column says the same (one line)
        blank = self.given.blank(obj) if self.given is not None else frozenset()
        fields = [k for k in obj if isinstance(k, str)] + sorted(blank.difference(obj))
        near = did_you_mean(name, fields)
        if not near:
            shown = ", ".join(fields[:12]) + (", …" if len(fields) > 12 else "")
            near = f" (fields: {shown})" if fields else " (it has no fields)"
        return self.undefined(f"no field {name!r}{near}", obj=obj, name=name)

    def getitem(self, obj: Any, argument: Any) -> Any:
        if type(obj) is dict and isinstance(argument, str) and argument not in obj:  # `item['copy']`: not the method
            found = self.no_field(obj, argument)
            if self.reads is not None and id(obj) in self.reads.paths:
                self.reads.read(obj, argument, found)
            return found
        found = super().getitem(obj, argument)
        if self.reads is not None and id(obj) in self.reads.paths:
            self.reads.read(obj, argument, found)
        return found

    def seen(self, value: Any) -> Any:
        """An operand of a comparison or of `~` (see _Code)."""
        if self.reads is not None and type(value) not in _SCALARS:
            self.reads.whole(value)
        return value

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator != "**" and type(left) in _NUMBERS and type(right) in _NUMBERS:  # most: a template's sums
            if operator == "+":
                return left + right
            if operator == "%":
                return left % right
            _check_product(left, right)
            return left * right
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, str) and isinstance(n, int):
                    self.check_text(len(seq) * n)
                elif isinstance(seq, (list, tuple)) and isinstance(n, int) and len(seq) * n > MAX_SIZE:
                    raise SecurityError(f"{len(seq):,} x {n:,} makes more than {MAX_SIZE:,} items: refused")
            _check_product(left, right)
        elif operator == "**":
            if isinstance(left, int) and isinstance(right, int) and abs(left) > 1 and right * math.log2(abs(left)) > MAX_BITS:
                raise SecurityError(f"{_digits(left)} ** {_digits(right)} makes a number of more than {MAX_BITS:,} bits: refused")
        elif operator == "+":
            if isinstance(left, str) and isinstance(right, str):
                self.check_text(len(left) + len(right))
            elif isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)) and len(left) + len(right) > MAX_SIZE:
                raise SecurityError(f"{len(left):,} + {len(right):,} makes more than {MAX_SIZE:,} items: refused")
        elif operator == "%" and isinstance(left, str):
            _check_format(left, right if isinstance(right, tuple) else (right,))
            self.check_text(_formatted_size(left, right, self.texts["text"]))
        if self.reads is not None:  # `"%(title)s" % item` reads what it names, unseen
            self.reads.whole(left)
            self.reads.whole(right)
        return self.count(super().call_binop(context, operator, left, right))

    def wrap_str_format(self, value: Any) -> Any:
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        text = value.__self__

        def checked(*args: Any, **kwargs: Any) -> str:
            _check_format(text, (*args, *kwargs.values()))
            self.check_text(_formatted_size(text, (*args, kwargs), self.texts["text"]))
            try:
                return self.count(wrapped(*args, **kwargs))
            except (KeyError, IndexError) as exc:  # a placeholder no value given names: Python's bare `KeyError: 'x'`
                raise jinja2.TemplateRuntimeError(_unfilled(text, exc, args, kwargs)) from None

        return checked

    def check_text(self, size: int, key: str = "text") -> None:
        """Refuse a text of `size` characters past the limit `key` of TEXTS, before it is made."""
        if size > self.texts[key]:
            raise SecurityError(f"a text of {size:,} characters, more than {self.texts[key]:,}: {TEXTS.hint(key)}")

    def joined(self, join: Any, parts: tuple[Any, ...]) -> Any:
        """`a ~ b ~ ...` (see _Code), refused before it is made when the text would be too long."""
        limit, size = self.texts["text"], 0
        for part in parts:
            size += _size_of(part, limit)
        if size > limit:
            self.check_text(size)
        if any(part is None for part in parts):  # str_join would write 'None' into the text
            raise jinja2.TemplateRuntimeError(NONE_JOINED)
        return self.count(join(parts))

    def count(self, value: Any, items: int = 0) -> Any:
        """`value`, made by an operator, a filter or a method of a text or list, counted
        against the characters one face (or one expression) may make in all: each text by
        its length, each list or dict by 8 an item (and `items` more, those a list or dict gained). Each
        text is under the text limit, but a loop keeping them (`l.append('x' * 10 ** 7)`)
        would fill the memory."""
        kind = type(value)
        if kind is str or kind is Markup:
            self.made += len(value)
        elif kind is list or kind is tuple or kind is dict:
            self.made += 8 * len(value)
        self.made += 8 * items
        if self.made > self.texts["made"]:
            raise SecurityError(f"the texts and lists made pass {self.texts['made']:,} characters: {TEXTS.hint('made')}")
        return value

    def wrote(self, text: str) -> str:
        """A piece of a face's output, counted as it is written: a face rendering past the
        limit stops there (at the template line that writes it) rather than fill the memory."""
        self.written += len(text)
        if self.written > self.texts["face"]:
            raise SecurityError(f"the face's text passes {self.texts['face']:,} characters: {TEXTS.hint('face')}")
        return text

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (Jinja's signature)
        if isinstance(getattr(__obj, "__self__", None), (str, list)):  # 'x'.center(10 ** 9), .ljust, .zfill ...
            if any(isinstance(a, int) and not isinstance(a, bool) and a > MAX_SIZE for a in (*args, *kwargs.values())):
                raise SecurityError(f"{getattr(__obj, '__name__', 'method')}() with a number above {MAX_SIZE:,}: refused")
            size = _STR_METHODS.get(getattr(__obj, "__name__", "")) if isinstance(__obj.__self__, str) else None
            if size is not None:  # 'y'.join(...), .replace, .expandtabs, .translate: a text far longer than theirs
                if args and not isinstance(args[0], (str, list, tuple, dict)) and hasattr(args[0], "__iter__"):
                    args = (list(args[0]), *args[1:])  # an iterator, read by the estimate and then the method
                try:  # without Jinja's own keywords (`_block_vars`, `_loop_vars`), which the method never sees
                    estimate = size(__self, __obj.__self__, *args, **{k: v for k, v in kwargs.items() if not k.startswith("_")})
                except TypeError:  # arguments the method refuses: it says so itself
                    estimate = 0
                __self.check_text(estimate)
        if __self.reads is not None:
            args, kwargs = __self.reads.call(__obj, args, kwargs)
        owner: Any = getattr(__obj, "__self__", None)
        if type(owner) not in _OWNERS:  # a macro, a helper: its text is counted where it is written
            return super().call(__context, __obj, *args, **kwargs)
        before = len(owner) if type(owner) is not str else 0
        made = super().call(__context, __obj, *args, **kwargs)  # `.upper()`, `.split()`; `.append(x)` grows its list
        return __self.count(made, max(0, len(owner) - before) if type(owner) is not str else 0)


class _Code(CodeGenerator):
    """Jinja's code, with the operands of comparisons, `in` and `~` handed to
    `environment.seen` first: they read containers in full, out of getattr's sight; and
    two typos Jinja lets pass refused when a template compiles (see `visit_Template`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._methods: set[int] = set()  # the ids of the Getattr nodes that are called (`visit_Call`)

    def visit_Template(self, node: nodes.Template, frame: Frame | None = None) -> None:
        """Refuse, at their line, what Jinja would let pass silently: a filter or test the
        environment lacks (Jinja defers one inside an `if` to run time, so a rare card's typo
        built until that card came) and output a child template never draws."""
        # one walk of the tree for these checks and the outline: each walk costs a compile 5-10%
        found = list(node.find_all((nodes.Filter, nodes.Test, nodes.Extends, nodes.Getattr, nodes.Getitem)))
        for used in found:
            if isinstance(used, (nodes.Filter, nodes.Test)):
                kind, known = ("filter", self.environment.filters) if isinstance(used, nodes.Filter) else ("test", self.environment.tests)
                if used.name not in known:
                    self.fail(_unknown(kind, used.name, known), used.lineno)
        line = _undrawn_line(node)
        if line is not None:
            self.fail("text outside a block of a template that extends another is never drawn: "
                      "put it inside a {% block %}", line)
        super().visit_Template(node, frame)
        # what its own source says of its parent, kept with the compiled code (bytecode cache
        # included): the parent is checked when a face loads the template (`unknown_block`)
        self.writeline(f"pnp_outline = {tuple(_outline(node, found))!r}")

    def visit_Call(self, node: nodes.Call, frame: Frame, forward_caller: bool = False) -> None:
        """A call of `x.name(...)` looks `name` up as a method (`Sandbox.method`); `x.name`
        alone, as a field."""
        if isinstance(node.node, nodes.Getattr):
            self._methods.add(id(node.node))
        super().visit_Call(node, frame, forward_caller=forward_caller)

    def visit_Filter(self, node: nodes.Filter, frame: Frame) -> None:
        """A filter's result is counted (`Sandbox.count`): `x | list`, `x | product(y)`, `x | e`."""
        self.write("environment.count(")
        super().visit_Filter(node, frame)
        self.write(")")

    def visit_Getattr(self, node: nodes.Getattr, frame: Frame) -> None:
        if id(node) not in self._methods:
            super().visit_Getattr(node, frame)
            return
        self.write("environment.method(")  # pnp's environments are never async (no `await` to add)
        self.visit(node.node, frame)
        self.write(f", {node.attr!r})")

    def _seen(self, node: nodes.Expr, frame: Frame) -> None:
        self.write("environment.seen(")
        self.visit(node, frame)
        self.write(")")

    def visit_Compare(self, node: nodes.Compare, frame: Frame) -> None:
        self.write("(")
        self._seen(node.expr, frame)
        for op in node.ops:
            self.visit(op, frame)
        self.write(")")

    def visit_Operand(self, node: nodes.Operand, frame: Frame) -> None:
        self.write(f" {operators[node.op]} ")
        self._seen(node.expr, frame)

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        if frame.eval_ctx.volatile:
            join = "(markup_join if context.eval_ctx.volatile else str_join)"
        else:
            join = "markup_join" if frame.eval_ctx.autoescape else "str_join"
        self.write(f"environment.joined({join}, (")
        for arg in node.nodes:
            self._seen(arg, frame)
            self.write(", ")
        self.write("))")

    def _output_child_to_const(self, node: nodes.Expr, frame: Frame, finalize: Any) -> str:
        # Jinja folds a constant `{{ none }}` as it compiles, escaping it ('None') before
        # `finalize` sees it, which so never refuses it: left to run time, `shown` does
        if not isinstance(node, nodes.TemplateData) and node.as_const(frame.eval_ctx) is None:
            raise nodes.Impossible()
        return super()._output_child_to_const(node, frame, finalize)

    # every piece of output, literal or computed, in a block, macro or `{% set %}` body too,
    # is counted by `environment.wrote` as it is written
    def _output_const_repr(self, group: Any) -> str:
        return f"environment.wrote({super()._output_const_repr(group)})"

    def _output_child_pre(self, node: nodes.Expr, frame: Frame, finalize: Any) -> None:
        self.write("environment.wrote(")
        super()._output_child_pre(node, frame, finalize)

    def _output_child_post(self, node: nodes.Expr, frame: Frame, finalize: Any) -> None:
        super()._output_child_post(node, frame, finalize)
        self.write(")")


_TOO_DEEP = ("nested too deeply to compile (brackets, operators, filters or blocks hundreds deep, or more than 20 loops "
             "inside one another): write it in steps (`{% set %}`, a macro)")


def _deepest_line(tree: nodes.Node) -> int:
    """The line of the first of the most deeply nested nodes of `tree` (walked without recursing)."""
    deepest, line = -1, getattr(tree, "lineno", 1) or 1
    waiting = [(tree, 0)]
    while waiting:
        node, depth = waiting.pop()
        if depth > deepest:
            deepest, line = depth, getattr(node, "lineno", line) or line
        waiting.extend((child, depth + 1) for child in reversed(list(node.iter_child_nodes())))
    return line


def _unknown(kind: str, name: str, known: Any) -> str:
    """The message for an unknown filter or test: what there is, and the nearest name."""
    own = sorted(set(known) - set(DEFAULT_FILTERS if kind == "filter" else DEFAULT_TESTS))
    return (f"no {kind} named {name!r}: expected one of Jinja's {kind}s" + (f" or {', '.join(own)}" if own else "")
            + did_you_mean(name, sorted(known)))


# what a child template's top level holds whose output is not the top level's: its blocks
# are drawn by the parent, a macro's or `{% set %}`'s body is a value, and `{% call %}` and
# `{% include %}` are drawn even there (Jinja writes them out before the parent)
_NOT_TOP_OUTPUT = (nodes.Block, nodes.Macro, nodes.AssignBlock, nodes.CallBlock, nodes.Include)


def _undrawn_line(template: nodes.Template) -> int | None:
    """The line of the first output a child template drops: after its top-level
    `{% extends %}` Jinja draws only blocks, and skips other text and `{{ }}` at the top
    level (also inside a top-level `if`, `for`, `with` or `filter`) without a word."""
    extends = next((n for n, top in enumerate(template.body) if isinstance(top, nodes.Extends)), None)
    if extends is None:
        return None
    waiting = list(reversed(template.body[extends + 1:]))
    while waiting:
        node = waiting.pop()
        if isinstance(node, nodes.Output):
            for child in node.nodes:
                if not isinstance(child, nodes.TemplateData):
                    return child.lineno
                text = child.data.lstrip()
                if text:
                    return child.lineno + child.data[:len(child.data) - len(text)].count("\n")
        elif not isinstance(node, _NOT_TOP_OUTPUT):
            waiting.extend(reversed(list(node.iter_child_nodes())))
    return None


class Outline(NamedTuple):
    """What a template's own source says of the template it extends (not the parent's: a
    compiled template is cached by its own source alone, so what depends on the parent is
    checked when the template is loaded, `unknown_block`)."""

    extends: str | None  # the name it extends, when written as a literal; else None
    computed: bool  # it extends a name computed as it renders (or only under an `if`): its parent is unknown
    blocks: tuple[tuple[str, int], ...]  # (name, line) of each block it hands the parent to draw
    called: tuple[str, ...]  # the blocks it draws itself by name: `self.name()`, `self["name"]()`


# where Jinja's compiler is still at a template's top level (its `frame.toplevel`): a block
# there is handed to the parent; one inside a `for`, `with`, macro, `{% set %}` or `{% call %}`
# is drawn where it stands
_TOP_LEVEL = (nodes.If, nodes.EvalContextModifier)


def _outline(template: nodes.Template, found: list[nodes.Node]) -> Outline:
    """The outline of a template from its syntax tree (`found`: its Extends, Getattr and
    Getitem nodes, among others)."""
    extends = [n for n in found if isinstance(n, nodes.Extends)]
    target = extends[0].template if len(extends) == 1 and any(top is extends[0] for top in template.body) else None
    literal = target.value if isinstance(target, nodes.Const) and isinstance(target.value, str) else None
    blocks = []
    waiting = list(reversed(template.body))
    while waiting:
        node = waiting.pop()
        if isinstance(node, nodes.Block):
            blocks.append((node.name, node.lineno))
        elif isinstance(node, _TOP_LEVEL):
            waiting.extend(reversed(list(node.iter_child_nodes())))
    called = {ref.attr for ref in found if isinstance(ref, nodes.Getattr) and _is_self(ref.node)}
    called |= {ref.arg.value for ref in found if isinstance(ref, nodes.Getitem)
               and _is_self(ref.node) and isinstance(ref.arg, nodes.Const) and isinstance(ref.arg.value, str)}
    return Outline(literal, bool(extends) and literal is None, tuple(blocks), tuple(sorted(called)))


def _is_self(node: nodes.Node) -> bool:
    return isinstance(node, nodes.Name) and node.name == "self"


class OutlinedTemplate(jinja2.Template):
    """A template that keeps its outline (written into its compiled module by `_Code`)."""

    outline: Outline

    @classmethod
    def _from_namespace(cls, environment: jinja2.Environment, namespace: MutableMapping[str, Any],
                        globals: MutableMapping[str, Any]) -> jinja2.Template:
        template = super()._from_namespace(environment, namespace, globals)
        template.outline = Outline(*namespace["pnp_outline"])  # type: ignore[attr-defined]
        return template

    def render(self, *args: Any, **kwargs: Any) -> str:
        """The text, counted from nothing (`Sandbox.wrote`, `Sandbox.count`): a face's limits are its own."""
        env = self.environment
        before = getattr(env, "written", 0), getattr(env, "made", 0)
        env.written = env.made = 0  # type: ignore[attr-defined]
        try:
            return super().render(*args, **kwargs)
        finally:
            env.written, env.made = before  # type: ignore[attr-defined]


def unknown_block(template: jinja2.Template) -> jinja2.TemplateAssertionError | None:
    """The first block of `template`, or of a template it extends, that no template above it
    has and none of them draws by name: Jinja draws a child's block only where the parent
    (or one above) has a block of that name, and drops the rest without a word. None when
    all are drawn, or when the chain is not known before rendering (an `{% extends %}` of a
    computed name, a parent that fails to load: rendering reports that)."""
    chain: list[OutlinedTemplate] = []  # the template, its parent, the parent's parent ...
    files: set[str | None] = set()
    current: jinja2.Template = template
    while isinstance(current, OutlinedTemplate) and current.filename not in files:
        chain.append(current)
        files.add(current.filename)
        if current.outline.computed:
            return None
        if current.outline.extends is None:
            break
        try:
            current = template.environment.get_template(current.outline.extends, parent=current.name)
        except Exception:  # rendering meets it again, and reports it at the `{% extends %}` line
            return None
    else:
        return None  # a loop of extends, or a template compiled elsewhere: nothing known above
    called = {name for t in chain for name in t.outline.called}
    for n, child in enumerate(chain[:-1]):
        above = chain[n + 1:]
        known = {name for t in above for name in t.blocks}
        for name, line in child.outline.blocks:
            if name not in known and name not in called:
                # named as the templates wrote them (a PrefixLoader's template knows only its own part)
                parents = f"{child.outline.extends!r} (which this template extends)"
                if len(above) > 1:
                    parents += " and " + ", ".join(repr(t.outline.extends) for t in above[:-1]) + " above it"
                return jinja2.TemplateAssertionError(
                    f"block {name!r} is never drawn: {parents} {'have' if len(above) > 1 else 'has'} no block of that name"
                    + did_you_mean(name, sorted(known)), line, child.name, child.filename)
    return None


def reports_reads(fn: Any) -> Any:
    """Mark a `pass_context` helper that reads its context only through what reports to the
    build cache (`context.resolve_or_missing`, the environment's `getattr`/`getitem`): it
    counts by what it looked up, not as one that could read every name (pnp/build/trace.py)."""
    fn.reports_reads = True
    return fn


class _Context(Context):
    """Reports each name a template takes from its context (not one it set itself)."""

    def resolve_or_missing(self, key: str) -> Any:
        found = super().resolve_or_missing(key)
        reads = self.environment.reads  # type: ignore[attr-defined]
        if reads is not None and key not in reads.roots and key not in self.vars:
            reads.name(key, found)
        return found


Sandbox.context_class = _Context
Sandbox.code_generator_class = _Code
Sandbox.template_class = OutlinedTemplate


# what each refusal of an empty value ends with: `pnp.render.faces` finds it by these words
EMPTY_HINT = "a YAML key with nothing after it is null; expected a value there, or `| default('', true)` where it may be empty"
NONE_PRINTED = f"an empty value (None) would print as 'None': {EMPTY_HINT}"
NONE_JOINED = f"an empty value (None) joined with `~` is taken as the text 'None': {EMPTY_HINT}"
# the filters that take their value as a text: given None, each makes the word 'None' of it ('NONE')
TEXT_FILTERS = ("capitalize", "center", "e", "escape", "forceescape", "indent", "lower", "replace", "safe", "string",
                "striptags", "title", "trim", "truncate", "upper", "urlencode", "urlize", "wordcount", "wordwrap")


@jinja2.pass_environment
def shown(env: Sandbox, value: Any) -> Any:
    """A template's `finalize`: what `{{ }}` prints is read in full. `None` is refused:
    printed, it is the word "None" on a face (a YAML key left empty is null)."""
    if value is None:
        raise jinja2.TemplateRuntimeError(NONE_PRINTED)
    if type(value) not in _SCALARS:
        if env.reads is not None:
            env.reads.whole(value)
        env.check_text(text_size(value, env.texts["text"]))  # `{{ [long] * 10 ** 6 }}` prints 10 ** 6 copies
    return value


def _size_of(value: Any, limit: int) -> int:
    """`text_size` of a value that is most often a text or a number, quickly."""
    kind = type(value)
    if kind is str or kind is Markup:
        return len(value)
    if kind is int or kind is float or kind is bool:
        return 24
    return text_size(value, limit)


class _Left(NamedTuple):
    """`text_size` has counted every item of the container with this id, from `start` characters on."""
    id: int
    start: int


def text_size(value: Any, limit: int) -> int:
    """About the characters of `str(value)` (a list's, a dict's: their items' texts), counted
    without making it and no further than past `limit`: a list holding one long text a
    million times is short, its text is not. A container met again is counted once and its
    count reused: a list holding another twice, doubled 40 times, takes 40 steps, not 2 ** 40."""
    total, waiting = 0, [value]
    inside: set[int] = set()  # the containers being counted: one within itself prints as `[...]`
    counted: dict[int, int] = {}  # the characters of each container counted in full, by id
    while waiting and total <= limit:
        item = waiting.pop()
        if isinstance(item, str):
            total += len(item) + 2  # in a container: quoted
        elif isinstance(item, int):
            total += item.bit_length() // 3 + 2
        elif type(item) is _Left:
            inside.discard(item.id)
            counted[item.id] = total - item.start
        elif isinstance(item, (list, tuple, set, frozenset, dict)):
            if id(item) in inside:
                total += 5
                continue
            if id(item) in counted:
                total += counted[id(item)]
                continue
            start = total
            total += 2 + (4 if isinstance(item, dict) else 2) * len(item)
            if total <= limit:
                inside.add(id(item))
                waiting.append(_Left(id(item), start))  # popped once all its items are counted
                waiting.extend(item.keys() if isinstance(item, dict) else item)
                if isinstance(item, dict):
                    waiting.extend(item.values())
        elif isinstance(item, Namespace):
            waiting.append(item._Namespace__attrs)
            total += 12
        else:  # a float, None, an Undefined: a few characters
            total += 24
    return total


def _formatted_size(text: str, values: Any, limit: int) -> int:
    """At most the characters of `text % values` or `text.format(*values)`: each `%` or `{`
    may print the longest value (a dict's: the longest of its values)."""
    if not isinstance(values, tuple):
        values = (values,)
    found = [*values, *(v for value in values if isinstance(value, dict) for v in value.values())]
    longest = max((len(v) if type(v) is str else text_size(v, limit) for v in found), default=0)
    return len(text) + (text.count("%") + text.count("{")) * longest


def _check_product(left: Any, right: Any) -> None:
    """Refuse `left * right` of two whole numbers whose product passes MAX_BITS, before it is made."""
    if isinstance(left, int) and isinstance(right, int) and left.bit_length() + right.bit_length() > MAX_BITS:
        raise SecurityError(f"{_digits(left)} x {_digits(right)} makes a number of more than {MAX_BITS:,} bits: refused")


def _digits(n: int) -> str:
    """A number as a message shows it: a long one by its size."""
    return f"{n:,}" if n.bit_length() <= 64 else f"a number of {n.bit_length():,} bits"


def _unfilled(text: str, exc: KeyError | IndexError, args: tuple, kwargs: dict[str, Any]) -> str:
    """What `text.format(...)` lacks: the placeholder no value given fills, and the names given."""
    shown = repr(text if len(text) <= 60 else text[:57] + "...")
    if isinstance(exc, KeyError) and exc.args:
        name, names = str(exc.args[0]), sorted(str(k) for k in kwargs)
        return (f"{shown}.format(): no value for the placeholder {{{name}}}: expected one of "
                f"{', '.join(names) or '(no names given)'}{did_you_mean(name, names)}")
    return f"{shown}.format(): a placeholder {{N}} past the {len(args)} value(s) given"


def _check_format(text: str, values: tuple[Any, ...]) -> None:
    """Refuse a format whose width or precision is a million or more, written in it or
    taken from a value (`%*d`, `{:{}}`)."""
    asks = _WIDTH.search(text) or (("*" in text or re.search(r":[^{}]*\{", text))
                                   and any(isinstance(v, int) and not isinstance(v, bool) and v >= MAX_SIZE for v in values))
    if asks:
        raise SecurityError("a format with a width of a million or more: refused")


def _range(*args: int) -> list[int]:
    return list(safe_range(*args))  # at most jinja2.sandbox.MAX_RANGE numbers


def _dict(*args: Any, **kwargs: Any) -> dict[Any, Any]:
    return plain(dict(*args, **kwargs))


def _namespace(*args: Any, **kwargs: Any) -> Namespace:
    return Namespace(*(plain(a) for a in args), **plain(kwargs))


def environment(given: Copier | None = None, **options: Any) -> Sandbox:
    """A new sandbox (strict: an unknown name fails) where the copies `given` made are read
    only; `options` as jinja2.Environment's."""
    env = Sandbox(undefined=jinja2.StrictUndefined, **options)
    env.given = given
    env.texts = TEXTS.values()
    for name in REMOVED_GLOBALS:
        env.globals.pop(name, None)
    env.globals.update(range=helper(lambda *args: env.count(_range(*args))), dict=helper(_dict), namespace=_mark(_namespace))
    for name in ("format", "center", "indent"):  # Python's % and padding, out of call_binop's reach
        env.filters[name] = _bounded(name, env.filters[name])
    env.filters["pprint"] = _pprint(env)
    env.policies["json.dumps_function"] = _dumps(env)  # `tojson`'s, counted as it is made
    for name, size in _GROWING.items():  # filters whose result may be far longer than what they are given
        env.filters[name] = _sized(env, env.filters[name], size, iterates=name in _ITERATING)
    env.filters["map"] = _counted(env, env.filters["map"])
    env.filters["attr"] = _attr
    for name in ("first", "last"):
        env.filters[name] = _said_empty(env, name, env.filters[name])
    for name in TEXT_FILTERS:
        env.filters[name] = _not_none(name, env.filters[name])
    return env


def _not_none(name: str, fn: Any) -> Any:
    """Filter `fn`, which takes its value as a text, refusing None (a YAML key left empty):
    `{{ item.title | upper }}` would print 'NONE', as silently as `{{ item.title }}` would 'None'."""
    passes = 1 if getattr(fn, "jinja_pass_arg", None) is not None else 0
    said = f"an empty value (None) given to `| {name}` is taken as the text 'None': {EMPTY_HINT}"

    @functools.wraps(fn)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if len(args) > passes and args[passes] is None:
            raise jinja2.TemplateRuntimeError(said)
        return fn(*args, **kwargs)

    return checked


def _said_empty(env: Sandbox, name: str, fn: Any) -> Any:
    """Filter `first` or `last`, whose result of an empty list says why in the designer's words:
    Jinja's 'No first item, sequence was empty.' surfaces at the line reading a field of it,
    most often after a `selectattr` that matched no record (a misspelt id in a data file).
    `last` takes what `selectattr` gives as `first` does (Jinja's fails: 'generator' object is not reversible)."""
    passes = 1 if getattr(fn, "jinja_pass_arg", None) is not None else 0
    # what Jinja's filter gives of an empty list, told by its hint from an item that is itself
    # undefined (`map(attribute='titel') | first`: the misspelt field's own message stands)
    empty = fn(*[env] * passes, [])._undefined_hint

    @functools.wraps(fn)
    def said(*args: Any, **kwargs: Any) -> Any:
        if name == "last" and len(args) > passes and not hasattr(args[passes], "__reversed__") and hasattr(args[passes], "__iter__"):
            args = (*args[:passes], list(args[passes]), *args[passes + 1:])
        found = fn(*args, **kwargs)
        if isinstance(found, jinja2.Undefined) and found._undefined_hint == empty:
            return env.undefined(f"`| {name}` of an empty list gave nothing (a `selectattr` that matched no record, "
                                 "e.g. an id misspelt in a data file?)")
        return found

    return said


@jinja2.pass_environment
def _attr(env: Sandbox, obj: Any, name: Any) -> Any:
    """`x | attr('name')`: Python's attribute, a dict's method included (Jinja's filter
    looks it up through `getattr`, which gives a dict's fields alone)."""
    if type(obj) is dict and isinstance(name, str) and hasattr(obj, name):
        return env.method(obj, name)
    return do_attr(env, obj, name)


def _counted(env: Sandbox, fn: Any) -> Any:
    """Filter `fn` (`map`), whose items are counted as they are made: `[long] * 10 ** 6 |
    map("upper")` would make a million new long texts, each under the limit."""

    @functools.wraps(fn)
    def counted(*args: Any, **kwargs: Any) -> Any:
        made, limit = 0, env.texts["text"]
        for item in fn(*args, **kwargs):
            made += _size_of(item, limit)
            if made > limit:
                env.check_text(made)
            yield env.count(item)

    return counted


def _replaced_size(env: Sandbox, s: Any, old: Any, new: Any, count: int | None = None) -> int:
    s, old, new = str(s), str(old), str(new)
    n = s.count(old) if old else len(s) + 1
    if count is not None and count >= 0:
        n = min(n, count)
    return len(s) + n * max(0, _escaped(new) - len(old))  # Markup escapes `new`


def _joined_size(env: Sandbox, value: Any, d: Any = "", attribute: Any = None) -> int:
    if attribute is not None:
        value = [env.getitem(v, attribute) for v in value]
    return text_size(value, env.texts["text"]) + len(str(d)) * (len(value) if hasattr(value, "__len__") else 0)


def _text_size(env: Sandbox, value: Any) -> int:
    return _size_of(value, env.texts["text"])


def _urlencoded_size(env: Sandbox, value: Any) -> int:
    """A byte becomes at most 3 characters (`%C3`); a mapping's items also take a `=` and an `&`."""
    if isinstance(value, dict):
        return 3 * _size_of(value, env.texts["text"])
    return 3 * len(value.encode("utf-8")) if isinstance(value, str) else 3 * _size_of(value, env.texts["text"])


def _urlized_size(env: Sandbox, value: Any, trim_url_limit: Any = None, nofollow: bool = False, target: Any = None,
                  rel: Any = None, extra_schemes: Any = None) -> int:
    """Each word may become a link: its text twice, escaped, in a tag with its attributes."""
    text = str(value)
    tag = 60 + len(str(target or "")) + len(str(rel or ""))
    return 2 * _escaped(text) + tag * (len(text.split()) or 1)


def _xmlattr_size(env: Sandbox, d: Any, autospace: bool = True) -> int:
    """` key="value"`, escaped: at most 6 characters a character, and 4 more an item."""
    return 6 * _size_of(d, env.texts["text"]) + 4 * (len(d) if isinstance(d, dict) else 0)


def _indented_size(env: Sandbox, s: Any, width: Any = 4, first: bool = False, blank: bool = False) -> int:
    s = str(s)
    return len(s) + (s.count("\n") + 1) * (len(width) if isinstance(width, str) else int(width))


def _wrapped_size(env: Sandbox, s: Any, width: int = 79, break_long_words: bool = True, wrapstring: str | None = None,
                  break_on_hyphens: bool = True) -> int:
    s = str(s)
    lines = len(s.split()) + len(s) // max(int(width), 1) + s.count("\n") + 1  # at most
    return len(s) + lines * len(wrapstring or "\n")


def _formatted(env: Sandbox, value: Any, *args: Any, **kwargs: Any) -> int:
    return _formatted_size(str(value), (*args, kwargs), env.texts["text"])


def _summed_size(env: Sandbox, iterable: Any, attribute: Any = None, start: Any = 0) -> int:
    if attribute is not None:
        iterable = [env.getitem(v, attribute) for v in iterable]
    if isinstance(start, (int, float)) and all(isinstance(v, (int, float)) for v in iterable):
        return 0  # numbers (a number too long is refused where it is made)
    return sum(text_size(v, env.texts["text"]) for v in (start, *iterable))


def _escaped_size(env: Sandbox, value: Any) -> int:
    if hasattr(value, "__html__"):  # Markup: `escape` leaves it as it is (`forceescape` counts it as a text)
        return 0
    size = _size_of(value, env.texts["text"])
    if type(value) is not str and size <= env.texts["text"]:
        value = str(value)  # a list's text, within the limit: its escapes are counted
    return _escaped(value) if type(value) is str else size


def _forced_size(env: Sandbox, value: Any) -> int:
    return _escaped_size(env, str(value) if type(value) is Markup else value)


def _json_size(env: Sandbox, value: Any, indent: Any = None) -> int:
    """The text of `value`, as a quick first refusal (`_dumps` counts the JSON as it is made)."""
    if isinstance(indent, int) and not isinstance(indent, bool) and indent >= MAX_SIZE:
        raise SecurityError("tojson with an indent of a million or more: refused")
    return _size_of(value, env.texts["text"])


class _CountedText(io.StringIO):
    """A text made piece by piece, refused once it passes the text limit."""

    def __init__(self, env: Sandbox) -> None:
        super().__init__()
        self.env, self.size = env, 0

    def write(self, text: str) -> int:
        self.size += len(text)
        if self.size > self.env.texts["text"]:
            self.env.check_text(self.size)
        return super().write(text)


def _dumps(env: Sandbox) -> Any:
    """`json.dumps` for `tojson`, made piece by piece and refused past the text limit (with
    the 5 characters more each `<`, `>`, `&` or `'` becomes in Jinja's escaping)."""

    def dumps(value: Any, **kwargs: Any) -> str:
        made = _CountedText(env)
        for piece in json.JSONEncoder(**kwargs).iterencode(value):
            made.write(piece)
        text = made.getvalue()
        env.check_text(len(text) + 5 * sum(text.count(c) for c in "<>&'"))
        return text

    return dumps


def _pprint(env: Sandbox) -> Any:
    """Jinja's `pprint` (Python's `pformat`), written piece by piece and refused past the
    text limit: a list nested a thousand deep indents each of its lines a thousand spaces."""

    def pprint_(value: Any) -> str:
        made = _CountedText(env)
        pprint.PrettyPrinter(stream=made).pprint(value)
        return made.getvalue()[:-1]  # without the line end `pprint` adds (`pformat` does not)

    pprint_.__name__ = "pprint"
    return pprint_


def _counted_items(name: str) -> Any:
    def size(env: Sandbox, value: Any, n: int, fill_with: Any = None) -> int:
        if isinstance(n, int) and n > MAX_SIZE:
            raise SecurityError(f"{name} by {n:,}: more than {MAX_SIZE:,} items: refused")
        return 0
    return size


# each filter that may make a text (or a list) far longer than its input, with the
# estimate of its result's characters from its arguments (after the ones Jinja passes)
_GROWING = {"replace": _replaced_size, "join": _joined_size, "indent": _indented_size, "wordwrap": _wrapped_size,
            "format": _formatted, "sum": _summed_size, "string": _text_size, "tojson": _json_size, "pprint": _text_size,
            "escape": _escaped_size, "e": _escaped_size, "forceescape": _forced_size,
            "urlencode": _urlencoded_size, "urlize": _urlized_size, "xmlattr": _xmlattr_size,
            "batch": _counted_items("batch"), "slice": _counted_items("slice")}
# the methods of a text that may make one far longer, with the estimate of its characters
_STR_METHODS: dict[str, Any] = {
    "join": lambda env, s, items: text_size(items, env.texts["text"]) + len(s) * len(items),
    "replace": lambda env, s, old, new, count=-1: _replaced_size(env, s, old, new, count),
    "expandtabs": lambda env, s, tabsize=8: len(s) + s.count("\t") * int(tabsize),
    "translate": lambda env, s, table: len(s) * max([len(v) for v in table.values() if isinstance(v, str)] or [1])
    if isinstance(table, dict) else len(s),
}
_ITERATING = frozenset({"join", "sum", "batch", "slice"})  # those that read their value item by item


def _sized(env: Sandbox, fn: Any, size: Any, iterates: bool) -> Any:
    """Filter `fn`, refused before it runs when `size` says its result passes the text limit.
    An iterator a filter that `iterates` is given is made a list first (the estimate reads
    it, then `fn`)."""
    passes = 1 if getattr(fn, "jinja_pass_arg", None) is not None else 0

    @functools.wraps(fn)
    def sized(*args: Any, **kwargs: Any) -> Any:
        if iterates and len(args) > passes and not isinstance(args[passes], (str, list, tuple, dict)) and hasattr(args[passes], "__iter__"):
            args = (*args[:passes], list(args[passes]), *args[passes + 1:])
        estimate = size(env, *args[passes:], **kwargs)
        if estimate > env.texts["text"]:
            env.check_text(estimate)
        return fn(*args, **kwargs)

    return sized


def _escaped(text: str) -> int:
    """The length of `text` once Markup escapes it."""
    return len(text) + 4 * (text.count("&") + text.count('"') + text.count("'")) + 3 * (text.count("<") + text.count(">"))


def _bounded(name: str, fn: Any) -> Any:
    """Filter `fn` refusing a width (an int argument, or one written in a format) of a
    million or more."""

    def bounded(value: Any, *args: Any, **kwargs: Any) -> Any:
        if name == "format":
            _check_format(str(value), (*args, *kwargs.values()))
        elif any(isinstance(v, int) and not isinstance(v, bool) and v >= MAX_SIZE for v in (*args, *kwargs.values())):
            raise SecurityError(f"{name} with a width of a million or more: refused")
        return fn(value, *args, **kwargs)

    bounded.__name__ = name
    return bounded


def _mark(fn: Any) -> Any:
    """A pnp function handed to templates as it is (its result is Jinja's own Namespace,
    which `{% set ns.x = ... %}` requires)."""
    fn.__pnp_helper__ = True
    return fn

