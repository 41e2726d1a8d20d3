"""Errors that carry a location, so every problem prints as one `file:line:col: message` line."""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import yaml


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
LINE_END = re.compile(r"\r\n|\r|\n")  # the line ends Jinja, the XML parser and editors count a file's lines by


def lines_of(text: str) -> list[str]:
    """`text`'s lines as Jinja, the XML parser and editors number them. Not `str.splitlines()`,
    which also ends a line at U+2028, U+0085, a form feed...: a template holding one would
    have its errors told lines off."""
    return LINE_END.split(text)


def without_addresses(text: object) -> str:
    """`text` without the memory addresses Python prints in a repr (`<function f at 0x7f…>`):
    a message names what went wrong, never where an object lived, so it is the same every run."""
    return _ADDRESS.sub("", str(text))


def failure(exc: BaseException) -> str:
    """Why a designer's expression failed, in one phrase: its exception's text, or for a
    MemoryError (whose text is empty) that the memory ran out (the sandbox's limits,
    pnp/sandbox.py, stop what they can foresee, not all)."""
    if isinstance(exc, MemoryError):
        return "the memory ran out evaluating it: the expression makes too large a text or list"
    return without_addresses(exc)


def pip_extra(extra: str) -> str:
    """The command adding pnp's optional `extra`, for a checkout and for an installed wheel
    alike (pnp is on no package index: README "Without the checkout")."""
    from . import __version__

    return (f"pip install '.[{extra}]' in pnp's checkout, or pip install '<folder>/pnp_kit-{__version__}-py3-none-any.whl[{extra}]' "
            f"with the wheel pnp was installed from")


def did_you_mean(name: str, known: Sequence[str]) -> str:
    """` (did you mean 'x'?)` naming the one of `known` nearest a misspelt `name` (first, one
    spelt the same in another case: `Star` is 'star'), or ""."""
    same = [k for k in known if isinstance(k, str) and k.casefold() == name.casefold()]
    near = same or difflib.get_close_matches(name, known, n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


UNDEFINED_NAME = re.compile(r"'(\w+)' is undefined")  # Jinja's words for a name nothing defines


def undefined_named(message: str, names: Iterable[str]) -> str:
    """Jinja's `'tile' is undefined` with the name of `names` (what the template or expression
    sees) meant: `'tile' is undefined (did you mean 'tiles'?)`; any other message as it is."""
    found = UNDEFINED_NAME.fullmatch(message)
    return message + did_you_mean(found.group(1), sorted({n for n in names if isinstance(n, str)})) if found else message


def counted(n: int, one: str, many: str | None = None) -> str:
    """`n` with its word, plural unless `n` is 1: "1 face", "2 faces"; `many` names an
    irregular plural."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def as_written(value: object) -> str:
    """A value from a YAML file spelt as YAML spells it, for a message: `true`, `null`,
    `[Ben]`, `{yellow: 5}`, not Python's `True`, `None`, `['Ben']`; a text stays quoted."""
    if isinstance(value, str):
        return repr(value)
    try:
        text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, sort_keys=False, width=1 << 30)
    except yaml.YAMLError:  # not plain data: no YAML spelling
        return repr(value)
    return text.removesuffix("\n").removesuffix("\n...").strip()


def display_path(path: str | os.PathLike | None) -> str:
    """A path as the user would type it: relative to the working directory when below it."""
    if path is None:
        return "<input>"
    p = Path(path)
    try:
        rel = os.path.relpath(os.path.realpath(p), Path.cwd())  # not resolve(): it raises on a symlink loop (Python < 3.13)
    except ValueError:  # another drive on Windows
        return str(p)
    return str(p) if rel.startswith("..") else rel


def display_name(path: str | os.PathLike | None) -> str:
    """`display_path`, its last part not resolved: a link is named, not where it leads."""
    if path is None:
        return "<input>"
    p = Path(path)
    return os.path.normpath(os.path.join(display_path(p.parent), p.name))


@dataclass(frozen=True)
class ContentError:
    """One problem in one input file. `line` and `column` are 1-based; None when unknown."""

    path: str | os.PathLike | None
    line: int | None
    column: int | None
    message: str

    def __str__(self) -> str:
        where = display_name(self.path)  # a link by its own name, as the user wrote it
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.message}"


class PnpError(Exception):
    """Raised with every problem found, so that the CLI prints them all and exits 2."""

    exit_code = 2

    def __init__(self, errors: Sequence[ContentError | str] | ContentError | str):
        self.errors: list[ContentError | str] = [errors] if isinstance(errors, (ContentError, str)) else list(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


class OptionError(PnpError):
    """A mistake in a command's options as typed, not in a file: the command line names the
    command in front of it (`pnp build: unknown paper 'b5': ...`), as the option parser's
    own errors do."""


class PluginError(PnpError):
    """A game plugin's own fault (a hook pnp cannot call, or one returning what pnp cannot
    use), located at the plugin: what `pnp serve` also says in its terminal, for the host."""


def add_folded(errors: list[ContentError], error: ContentError, what: str) -> None:
    """Add `error` (its message `what` + the problem), or count it into the same problem of
    another piece at the same place: one typo, one line ("deck/c01 (and 27 more pieces): ...")."""
    rest = error.message[len(what):]
    for n, known in enumerate(errors):
        first, found, more = known.message.partition(rest)
        if known.path == error.path and known.line == error.line and found and more == "" and first:
            head, _, count = first.partition(" (and ")
            others = int(count.split()[0]) + 1 if count else 1
            errors[n] = ContentError(known.path, known.line, known.column,
                                     f"{head} (and {counted(others, 'more piece')}){rest}")
            return
    errors.append(error)


def raise_if_any(errors: list[ContentError]) -> None:
    """Raise a PnpError when the list holds anything."""
    if errors:
        raise PnpError(sorted_errors(errors))


def sorted_errors(errors: list[ContentError]) -> list[ContentError]:
    """Stable, readable order: by file, then line, then column, then message."""
    return sorted(
        dict.fromkeys(errors),  # drop exact duplicates, keep order
        key=lambda e: (display_name(e.path), e.line or 0, e.column or 0, e.message),
    )
