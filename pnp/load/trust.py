"""Which project plugins may run. A project's `plugins/` is Python its author wrote: pnp
imports it only when the user trusts the project (`pnp trust`), as direnv and editors'
workspace trust do. Trust is a digest of every file of the plugin (its .py and data files,
those inside `__pycache__` folders too, which Python imports as well; only the compiled `.pyc`
there are left out, which pnp never runs: pnp/load/plugins.py runs the source),
recorded outside the project in the user's config folder, so editing the plugin
withdraws it and no project can trust itself. A plugin holding a link (to a file or a
folder) is refused: the digest would not cover what Python imports through it.

Trusted without asking: a plugin that is, or is byte-identical to, one shipped with pnp
(the games' `plugins/` and the example projects' of the checkout, or of `pnp/shipped/` in
a wheel: pnp/tools/shipped.py),
and every plugin when the user says so for one run (`pnp --trust`, PNP_TRUST=1: for CI).
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path

from ..errors import ContentError, PnpError
from ..files import tree_digest, write_atomic
from ..limits import PLUGINS
from .shipped import shipped_root

ENV = "PNP_TRUST"
TRUST_FILE = "trusted.json"
ALLOW_ALL = False  # `pnp --trust`: set by the command line for one run


def trust_file() -> Path:
    """Where trust is recorded: $XDG_CONFIG_HOME/pnp/trusted.json (~/.config by default)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "pnp" / TRUST_FILE


def allowed_by_user() -> bool:
    """The user trusts every project for this run (`--trust` or PNP_TRUST=1)."""
    return ALLOW_ALL or os.environ.get(ENV, "").strip().lower() in {"1", "yes", "true"}


class UnsafePlugin(Exception):
    """A plugin holds a link (to a file or a folder), a file past the PLUGINS limits, or
    cannot be read: `entry` and what is wrong with it, with what to do."""

    def __init__(self, entry: Path, problem: str):
        super().__init__(problem)
        self.entry, self.problem = entry, problem


def plugin_digest(path: Path) -> str:
    """SHA-256 of a plugin file, or of every file of a plugin folder by relative name
    (UnsafePlugin when the plugin holds a link or is past the limits)."""
    return "sha256:" + tree_digest(_files(path), path.parent if path.is_file() else path)


def _files(path: Path) -> list[Path]:
    """The plugin file, or every file Python may import or the plugin read from a plugin
    folder: all but the bytecode in `__pycache__` folders. A link anywhere inside is an
    UnsafePlugin (what it leads to is not the folder's, and may change without the folder
    changing), as is a plugin past the limits, checked before a byte is read."""
    limits = PLUGINS.values()
    total = 0

    def sized(entry: Path) -> Path:
        nonlocal total
        size = entry.stat().st_size
        total += size
        for key, amount, what in (("file", size, "bytes"), ("total", total, "bytes in all")):
            if amount > limits[key]:
                raise UnsafePlugin(entry, f"has {amount:,} {what}, more than {limits[key]:,}: {PLUGINS.hint(key)}")
        return entry

    if path.is_file():
        return [sized(path)]

    def unreadable(exc: OSError) -> None:
        raise UnsafePlugin(Path(exc.filename or path), f"cannot be read ({exc.strerror})")

    found = []
    for folder, dirs, names in os.walk(path, onerror=unreadable):  # never into a linked folder: it is refused below
        for name in dirs + names:
            entry = Path(folder, name)
            if entry.is_symlink():
                raise UnsafePlugin(entry, f"is a link to {os.path.realpath(entry)}: pnp runs a plugin only from the plain "
                                          "files of its folder (copy the files in instead of linking them)")
            if name in names and entry.is_file() and not (entry.parent.name == "__pycache__" and entry.suffix == ".pyc"):
                found.append(sized(entry))
                if len(found) > limits["files"]:
                    raise UnsafePlugin(path, f"has more than {limits['files']:,} files: {PLUGINS.hint('files')}")
    return sorted(found)


@cache
def _shipped() -> tuple[tuple[Path, ...], frozenset[str]]:
    """The folders holding the shipped plugins (the games' and the example projects'), and
    the plugins' digests."""
    root = shipped_root()
    if root is None:
        return (), frozenset()
    folders = tuple(f.resolve() for f in [root / "plugins", *sorted(root.glob("examples/projects/*/plugins"))] if f.is_dir())
    found = (p for f in folders for p in sorted(f.iterdir()) if p.name != "__pycache__" and (p.is_dir() or p.suffix == ".py"))
    digests = set()
    for plugin in found:
        try:
            digests.add(plugin_digest(plugin))
        except UnsafePlugin:  # none is shipped so; in a checkout, one a developer linked is no copy's model
            pass
    return folders, frozenset(digests)


def is_shipped(path: Path, digest: str | None = None) -> bool:
    """A plugin shipped with pnp: inside its plugins folders, or a byte-identical copy
    (`digest`: the plugin's, when known)."""
    return _inside_shipped(path) or (digest or plugin_digest(path)) in _shipped()[1]


def _inside_shipped(path: Path) -> bool:
    resolved = path.resolve()
    return any(resolved.is_relative_to(f) for f in _shipped()[0])


def _records() -> dict[str, dict[str, str]]:
    """Trusted plugins: project folder -> plugin name -> digest (none when there is no file
    yet); an unreadable file is an error, never read as empty, so that `pnp trust` does not
    write over the other projects' records."""
    path = trust_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise PnpError(f"{path}: the trust file cannot be read ({type(exc).__name__}: {exc}): mend or remove it, then run `pnp trust` again") from None
    projects = data.get("projects") if isinstance(data, dict) else None
    return {k: v for k, v in projects.items() if isinstance(v, dict)} if isinstance(projects, dict) else {}


def _write(records: dict[str, dict[str, str]]) -> Path:
    path = trust_file()
    write_atomic(path, (json.dumps({"projects": records}, indent=2, sort_keys=True) + "\n").encode("utf-8"))
    return path


# the folder a project was exported into as it was at a git revision (`pnp diff --since`,
# `pnp simulate --against`) -> that project's folder and the revision
REVISIONS: dict[str, tuple[str, str]] = {}


def revision_of(folder: Path, project: Path, rev: str) -> None:
    """Trust the plugins of `folder`, the project at `project` as it was at `rev`, as that
    project's own: a plugin byte-identical to what the user trusted for it runs, another not."""
    REVISIONS[str(folder.resolve())] = (str(project.resolve()), rev)


def check(root: Path, name: str, path: Path, where: ContentError) -> None:
    """Refuse, as one located line, to run plugin `name` (at `path`) of the project at
    `root` unless it is trusted (see the module docstring)."""
    if allowed_by_user() or _inside_shipped(path):
        return
    digest = _digest(name, path, where)
    if is_shipped(path, digest):
        return
    origin, rev = REVISIONS.get(str(root.resolve()), (str(root.resolve()), None))
    recorded = _records().get(origin, {}).get(name)
    if recorded == digest:
        return
    if rev is not None:  # not a folder the user can trust: name the project and the way to run it once
        raise PnpError(ContentError(where.path, where.line, where.column,
                                    f"plugin {name} as it was at {rev} is not the code trusted for {origin}: read it "
                                    f"(git show {rev}:{name}), then pass `pnp --trust` (or set {ENV}=1) to run it for this command"))
    why = "has changed since the project was trusted" if recorded else "is not trusted"
    project = str(root.resolve())
    raise PnpError(ContentError(where.path, where.line, where.column,
                                f"plugin {name} would run Python from {path} and {why}: read it, then run "
                                f"`pnp trust --project {project}` (or pass `pnp --trust`, or set {ENV}=1, for one run)"))


def _digest(name: str, path: Path, where: ContentError | None = None) -> str:
    """`plugin_digest`, or one line refusing an UnsafePlugin: located at `where`
    (game.yaml's `plugin:` line), else at the plugin, naming the entry at fault."""
    try:
        return plugin_digest(path)
    except UnsafePlugin as exc:
        entry = (Path(name) / exc.entry.relative_to(path)).as_posix() if exc.entry.is_relative_to(path) else str(exc.entry)
        message = f"plugin {name}: {entry} {exc.problem}"
        if where is None or where.path is None:
            raise PnpError(ContentError(path, None, None, message)) from None
        raise PnpError(ContentError(where.path, where.line, where.column, message)) from None


def project_plugins(root: Path) -> dict[str, Path]:
    """The project plugins (files or folders) the games of the project at `root` name."""
    return {name: path for name, (path, _) in _named_plugins(root).items()}


def _named_plugins(root: Path) -> dict[str, tuple[Path, ContentError]]:
    """The project plugins the games name, each with the game.yaml line naming it."""
    from . import project_files
    from .content import MANIFEST
    from .plugins import is_path, near_plugin
    from .yamlio import load_located

    found: dict[str, tuple[Path, ContentError]] = {}
    content = root / "content"
    for manifest in project_files.listing(root, content, f"*/{MANIFEST}") if content.is_dir() else []:
        doc = load_located(manifest)
        name = doc.data.get("plugin") if isinstance(doc.data, dict) else None
        if isinstance(name, str) and is_path(name):
            path = Path(os.path.realpath(root / name))  # not resolve(): it raises on a loop of links (Python < 3.13)
            if not path.exists():
                raise PnpError(doc.error(("plugin",), f"plugin file not found: {name} (relative to the project folder {root}){near_plugin(root, name)}"))
            found[name] = (path, doc.error(("plugin",), ""))
    return found


def trust(root: Path) -> tuple[Path, dict[str, str]]:
    """Record the project's plugins as trusted as they are now: the trust file and the
    digests recorded, by plugin."""
    root = root.resolve()
    digests = {name: _digest(name, path, where) for name, (path, where) in _named_plugins(root).items()}
    if not digests:  # nothing would run: nothing to record
        return trust_file(), digests
    records = _records()
    records[str(root)] = digests
    return _write(records), digests


def record_of(root: Path) -> dict[str, str] | str | None:
    """The project's own trust record (plugin -> digest; None when it has none), or the
    trust file's error when it cannot be read: what `pnp watch` compares, so that another
    project's `pnp trust` rebuilds nothing here."""
    try:
        return _records().get(str(root.resolve()))
    except PnpError as exc:
        return str(exc)


def revoke(root: Path) -> bool:
    """Withdraw the trust in the project at `root`; False when it had none."""
    records = _records()
    if records.pop(str(root.resolve()), None) is None:
        return False
    _write(records)
    return True
