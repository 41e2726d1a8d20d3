"""The one door to a project's files: every file pnp reads for a project goes through here.

A project may come from a stranger, so a path it names (a data file, a template or an
include, an icon set, a font, a picture, `pnp.yaml`) is resolved with its symlinks and
refused, as a located error, when it then lies outside the project folder: an absolute
path, `..`, or a link out of `content/` or `templates/`. A path found is also refused when a
name in it differs from its folder's entry in case alone (`art/moth.png` for `art/Moth.PNG`):
a Mac's or Windows' disk finds it, Linux's does not, so a game built on one fails on the other.
Reading is done here too, so a test can check that nothing else in pnp opens a project's
files (tests/test_attacks_files.py).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import jinja2
from jinja2.loaders import split_template_path

from ..errors import ContentError, OptionError, PnpError, display_name, display_path
from ..limits import TEMPLATES, Bounds
from .yamlio import read_capped, size_in_words


# the builds now noting what they read (pnp/build/witness.py), each with what it does when a
# path is let through the first time
_witnesses: list[tuple[set[Path], Callable[[Path], None] | None]] = []


@contextmanager
def witnessed(first: Callable[[Path], None] | None = None) -> Iterator[set[Path]]:
    """Collect every path the door lets through (found or not) while this lasts: the
    build cache's witness of what a build read. `first` is called with each path the first
    time, before it is read (the witness takes its state then)."""
    seen: set[Path] = set()
    entry = (seen, first)
    _witnesses.append(entry)
    try:
        yield seen
    finally:
        _witnesses.remove(entry)


def note(*paths: Path) -> None:
    """Tell the witnesses about paths read (the door's own, and plugin code pnp imports)."""
    for seen, first in _witnesses:
        for p in paths:
            path = Path(os.path.abspath(p))
            if path not in seen:
                seen.add(path)
                if first is not None:
                    first(path)


def _root(root: Path) -> Path:
    return Path(os.path.realpath(root))


def outside(root: Path, path: Path) -> Path | None:
    """Where `path` really leads when that is outside `root` (after symlinks); None when inside."""
    real = Path(os.path.realpath(path))
    base = _root(root)
    return None if real == base or real.is_relative_to(base) else real


def refusal(root: Path, path: Path, where: ContentError | None, what: str = "file") -> ContentError | None:
    """The located error for `path` when it leaves the project folder `root`, else None.
    `where` is the reference that named the path (game.yaml's line); the path itself when None."""
    real = outside(root, path)
    if real is None:
        return None
    how = "is a link to" if Path(path).is_symlink() else "leads to"
    tail = f"{how} {real}, outside the project folder {_root(root)}: pnp reads only files inside it"
    if where is None:
        return ContentError(path, None, None, f"{what} {tail}")
    return ContentError(where.path, where.line, where.column, f"{what} {display_name(path)} {tail}")


# folder -> the names of its entries, for the spelling check: a folder is listed once a build
# (`fresh` empties this as a build loads its games), and only for a path that was found
_entries: dict[str, frozenset[str]] = {}


def fresh() -> None:
    """Forget the folders listed: a new build sees a file renamed since the last one."""
    _entries.clear()


def _read_folder(folder: str) -> frozenset[str]:
    try:
        return frozenset(os.listdir(folder))
    except OSError:  # not a folder, or unreadable: the read that follows says so
        return frozenset()


def _names(folder: str, again: bool = False) -> frozenset[str]:
    names = None if again else _entries.get(folder)
    if names is None:
        names = _entries[folder] = _read_folder(folder)
    return names


def _found(path: Path) -> bool:
    """Whether the disk finds `path`: in any case on a case-insensitive disk (macOS, Windows)."""
    return os.path.lexists(path)


def misspelt(root: Path, path: Path, tail: int = 1) -> tuple[str, str, str] | None:
    """`path` (below `root`) as written, as its folders spell it, and that path itself, when a
    name in it differs from its folder's entry in case alone; None when every name is spelt
    as listed. Shown are its last `tail` names, or more when a folder above them is misspelt."""
    folder, full = os.path.join(os.path.abspath(root), ""), os.path.abspath(path)
    if not full.startswith(folder):  # the project folder itself, or not below it as written
        return None
    parts = full[len(folder):].split(os.sep)
    spelt, first = [], None
    for n, part in enumerate(parts):
        names = _names(folder)
        if part not in names:
            names = _names(folder, again=True)  # listed before the entry was made
        if part not in names:
            real = next((name for name in sorted(names) if name.casefold() == part.casefold()), None)
            if real is None:  # not listed in any case (another Unicode normal form, say): nothing to tell
                return None
            first = n if first is None else first
            part = real
        spelt.append(part)
        folder = os.path.join(folder, part)
    if first is None:
        return None
    shown = max(0, min(first, len(parts) - tail))
    return "/".join(parts[shown:]), "/".join(spelt[shown:]), folder


def spelling(root: Path, path: Path, where: ContentError | None = None, tail: int | None = None) -> ContentError | None:
    """The located error for `path`, found, when a name in it is spelt in another case than
    in its folder, else None. `tail`: how many of its last names the project wrote (see
    `misspelt`); None for a name pnp looks for (`pnp.yaml`, `game.yaml`). `where` is the
    reference that named it; the path itself when None."""
    if not _found(path):  # on a case-sensitive disk a name spelt otherwise is not found: nothing to list
        return None
    wrong = misspelt(root, path, tail or 1)
    if wrong is None:
        return None
    written, spelt, real = wrong
    kind = "folder" if os.path.isdir(real) else "file"
    if tail is None:
        message = f"the {kind} is spelt {spelt!r}: expected {written!r}, the name pnp looks for (a case-sensitive system would not find it)"
    else:
        message = f"{written}: the {kind} is spelt {spelt!r}: expected the name as the folder spells it (a case-sensitive system would not find it)"
    return ContentError(where.path, where.line, where.column, message) if where else ContentError(path, None, None, message)


def inside(root: Path, path: Path, where: ContentError | None = None, what: str = "file", tail: int | None = None) -> Path:
    """`path`, or a PnpError when it leaves the project folder `root` (see `refusal`) or a
    name in it is spelt in another case than its folder spells it (see `spelling`, which
    `tail` is passed to)."""
    problem = refusal(root, path, where, what) or spelling(root, path, where, tail)
    if problem is not None:
        raise PnpError(problem)
    note(path)
    return path


def join(root: Path, base: Path, name: str, where: ContentError | None = None, what: str = "file") -> Path:
    """`base / name` for a name the project wrote (`file:`, `fonts:`, `asset()`): an absolute
    name or one with `..` is refused, as is one that leads out through a link."""
    relative = Path(name)
    if relative.is_absolute() or ".." in relative.parts or relative.drive:
        message = f"{what} {name!r}: expected a path inside the game's folder, without '..' and not absolute"
        raise PnpError(ContentError(where.path, where.line, where.column, message) if where else ContentError(base, None, None, message))
    return inside(root, base / relative, where, what, len(relative.parts))


def read_bytes(root: Path, path: Path, where: ContentError | None = None, what: str = "file",
               limit: Bounds | None = None) -> bytes:
    """The bytes of a project file (refused when it leaves the project). `limit`: the bounds
    whose `size` the file may not pass, checked before it is read (a located error, at
    `where` when given, naming the file)."""
    inside(root, path, where, what)
    if limit is None:
        with open(path, "rb") as handle:
            return handle.read()
    try:
        if large := too_large(path, limit, what):
            raise PnpError(ContentError(path, None, None, large))
        return read_capped(path, limit["size"], limit.hint("size"))  # a file that grew meanwhile: read up to the limit
    except PnpError as exc:
        first = exc.errors[0]
        message = first.message if isinstance(first, ContentError) else str(first)
        message = message if large else f"{what} {display_name(path)}: {message}"
        raise PnpError(ContentError(where.path, where.line, where.column, message) if where else ContentError(path, None, None, message)) from None


def too_large(path: Path, limit: Bounds, what: str) -> str | None:
    """Why the regular file `path` is too large for `limit`'s `size` (its size read, not its
    bytes), or None: for a file read by others (Jinja, fontTools)."""
    try:
        size = os.stat(path).st_size
    except OSError:  # a dangling link or a loop of links: the read says so, in one located line
        return None
    if size <= limit["size"]:
        return None
    return f"{what} {display_name(path)} is a file of {size_in_words(size)}, more than {size_in_words(limit['size'])}: {limit.hint('size')}"


def listing(root: Path, folder: Path, pattern: str = "*") -> Iterator[Path]:
    """The entries of a project folder matching `pattern`, sorted; an entry leading out of
    the project is an error located at that entry."""
    for path in sorted(inside(root, folder, None, "folder").glob(pattern)):
        yield inside(root, path)


class ProjectLoader(jinja2.FileSystemLoader):
    """A Jinja loader for a project's templates: every template, include, import and
    extends is read through the door (a link out of templates/ is refused)."""

    def __init__(self, folder: Path, root: Path):
        super().__init__(str(folder))
        self.root = root

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Any]:
        pieces = split_template_path(template)  # refuses '..' in a template's name
        for base in self.searchpath:
            candidate = Path(base, *pieces)
            note(candidate)  # found or not: a template added later may be found first
            if _found(candidate):
                problem = refusal(self.root, candidate, None, "template") or spelling(self.root, candidate, None, len(pieces))
                if problem is not None:  # before it is read; located at the template line that named it
                    raise jinja2.TemplateError(problem.message)
                if large := too_large(candidate, TEMPLATES, "template"):  # likewise
                    raise jinja2.TemplateError(large)
                break
        return super().get_source(environment, template)


def led_out(root: Path, paths: Iterable[Path], outcome: str) -> None:
    """A PnpError, before anything is written, when one of `paths` (files pnp is about to
    make in the project `root`: `pnp new`, `pnp init`) would land outside it through a link."""
    for path in paths:
        real = outside(root, path)
        if real is not None:
            raise PnpError(f"{os.path.normpath(os.path.join(display_path(root), Path(path).relative_to(root)))}: leads to {real}, outside the project folder "
                           f"(through a link): {outcome}")


SOURCES = ("content", "templates", "assets", "plugins")  # the project's own files: never an output folder
CONFIG = "pnp.yaml"  # the project's settings (pnp/config.py FILE), a source too
LOG_NAME = "pnp-log.sqlite"  # the play-test log in the project (pnp/serve/log.py): never an output file


def chosen_output(root: Path, out: Path, option: str = "--out", kind: str = "folder", log: Path | None = None) -> Path:
    """`out` (the folder or, `kind` "file", the file an option names for pnp to write) as a
    real path, or an OptionError when it is the project folder, holds it, or lies in one of
    its source folders (a file: or is its pnp.yaml, or the play-test log: the project's
    pnp-log.sqlite, or `log`, the one `--db` names): a build there would mix generated files
    into the game's sources, a file written there would overwrite one of them."""
    real, base = Path(os.path.realpath(out)), Path(os.path.realpath(root))
    sources = f"{', '.join(f'{s}/' for s in SOURCES[:-1])} and {SOURCES[-1]}/"
    if kind == "file":
        expected = f"expected a file for generated output, outside {sources} and not {CONFIG} nor the play-test log"
    else:
        expected = (f"expected a folder for generated files, not the project folder nor one holding it, and outside "
                    f"{sources} (default: output/)")
    if real == base:
        raise OptionError(f"{option} {out}: is the project folder: {expected}")
    if base.is_relative_to(real):
        raise OptionError(f"{option} {out}: holds the project folder: {expected}")
    for name in SOURCES:
        if real.is_relative_to(base / name):
            raise OptionError(f"{option} {out}: lies in the project's {name}/ folder: {expected}")
    if kind == "file" and real == base / CONFIG:
        raise OptionError(f"{option} {out}: is the project's {CONFIG}: {expected}")
    if kind == "file" and (real == base / LOG_NAME or (log is not None and real == Path(os.path.realpath(log)))):
        raise OptionError(f"{option} {out}: is the play-test log: {expected}")  # writing it would wipe the games logged
    return real


def output_folder(root: Path, folder: Path) -> Path:
    """`folder`, a folder under the project's `output/` that pnp is about to write, or a
    PnpError when a link on the way to it (`output/` itself, `output/<game>`, ...) takes it
    elsewhere: outside the project, or to another of its folders (templates/, say). A
    stranger's project must not point pnp's writes at the user's other files, nor at its own
    inputs. (`--out DIR`, the user's own choice, may lead anywhere but into the sources: `chosen_output`.)"""
    try:
        steps = Path(folder).relative_to(root).parts
    except ValueError:  # not below the project folder as written: only where it leads counts
        steps = ()
    on_the_way = Path(root)
    for step in steps:  # the first link on the way is named, as it is and not where it leads
        on_the_way = on_the_way / step
        if on_the_way.is_symlink():
            where = display_name(on_the_way)
            real = outside(root, on_the_way)
            if real is not None:
                raise PnpError(f"{where}: the output folder leads outside the project (to {real}): "
                               "remove the link, or pass --out DIR to write elsewhere")
            raise PnpError(f"{where}: the output folder is a link (to {os.path.realpath(on_the_way)}): pnp writes only through real "
                           "folders: remove the link, or pass --out DIR to write elsewhere")
    real = outside(root, folder)
    if real is not None:
        raise PnpError(ContentError(folder, None, None, f"the output folder leads outside the project (to {real}): "
                                    "remove the link, or pass --out DIR to write elsewhere"))
    return folder
