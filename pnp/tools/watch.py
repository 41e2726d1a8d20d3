"""`pnp watch`: build, then rebuild whenever something a build reads changes: what lies
under content/, templates/, assets/ (shared pictures and fonts) and plugins/ (and the folder
of a plugin a game names elsewhere in the project), and pnp.yaml
(polled, as are a plugin file in the project folder itself, the coming and going of those
folders and this project's record in the user's trust file, which `pnp trust` rewrites after
a plugin's edit: another project's trust or revoke rebuilds nothing). An edit of pnp.yaml takes effect at once (the
command line's own options still win).

A rebuild builds only the games whose own folders (content/<game>/, templates/<game>/)
changed, by the rule the build record uses (pnp/build/witness.py `owner`); a change
anywhere else rebuilds every game. Within a game the build cache touches only what the
edit affects. An edit that breaks the content prints its errors and writes nothing, so the
last good outputs stay in place, and its games stay due until a rebuild succeeds. A
rebuild that changed files rewrites the gallery (when `pnp preview` made one; watching
some games, the other games it showed stay on it as they were) and the build stamp, so an
open gallery page reloads itself.
"""

from __future__ import annotations

import os
import re
import threading
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..build.driver import GameReport, build, check_input
from ..build.lock import output_lock
from ..build.witness import owner
from ..config import FILE, BuildOptions
from ..load.content import Project
from ..load.project_files import output_folder
from ..load.trust import project_plugins, record_of, trust_file
from ..errors import ContentError, OptionError, PnpError, counted, display_name, display_path

Echo = Callable[[str, bool], None]  # (line, is_error)
Warn = Callable[[Iterable[ContentError]], None]  # a build's warnings (`pnp watch` prints them as `pnp build` does: cli.warn)
SHOWN = 8  # files listed per game and rebuild; more are counted


POLL_MS = 500  # how often pnp.yaml and the folders to watch are looked at


def watched(project: Project, plugins: Sequence[Path] = ()) -> list[Path]:
    """The folders of `project` whose files builds read and an edit may change: its own
    (content/, templates/, assets/, plugins/) and the folders of `plugins` kept elsewhere in
    it (never the project folder itself, nor one holding output/: a build's own writes)."""
    found = [p for p in (project.content_dir, project.templates_dir, project.assets_dir, project.root / "plugins") if p.is_dir()]
    for folder in plugins:
        if (folder.is_dir() and folder != project.root and folder.is_relative_to(project.root)
                and not project.output_dir.is_relative_to(folder) and not any(folder.is_relative_to(f) for f in found)):
            found.append(folder)
    return found


def real_folders(project: Project, tops: Sequence[Path]) -> tuple[list[Path], list[tuple[Path, Path]]]:
    """The folders to watch, each on its own (not recursively: watchfiles' recursive watch
    follows linked folders, out of the project, to /usr or /): `tops` and every folder under
    them, as named, and the links that were not followed with where they lead. A link is
    followed only to a folder of the project that is not watched already, nor output/ (a
    build's own writes), nor the project folder itself; a folder that cannot be listed is
    an error located at it."""
    root = Path(os.path.realpath(project.root))
    output = Path(os.path.realpath(project.output_dir))
    found: dict[Path, Path] = {}  # real folder -> the folder as named
    skipped: list[tuple[Path, Path]] = []
    stack, links = sorted(tops, reverse=True), list[Path]()  # real folders first: a link to one of them adds nothing
    while stack or links:
        folder = stack.pop() if stack else links.pop(0)
        real = Path(os.path.realpath(folder))
        if real in found:
            continue
        if real == root or not real.is_relative_to(root) or real.is_relative_to(output):
            skipped.append((folder, real))
            continue
        found[real] = folder
        try:
            entries = sorted((entry for entry in os.scandir(folder) if entry.is_dir()), key=lambda entry: entry.name, reverse=True)
        except OSError as exc:
            raise PnpError(ContentError(folder, None, None, f"pnp watch cannot list this folder: {exc.strerror}")) from None
        stack += [Path(entry.path) for entry in entries if not entry.is_symlink()]
        links += [Path(entry.path) for entry in reversed(entries) if entry.is_symlink()]
    return sorted(found.values()), sorted(skipped)


def plugins_named(project: Project) -> list[Path]:
    """The project plugins its games name (a file, or a package's folder)."""
    try:
        return sorted(set(project_plugins(project.root).values()))
    except PnpError:  # a game names a plugin that is not there: the build says so
        return []


def plugin_folders(named: Sequence[Path]) -> list[Path]:
    """The folders of the plugins `named` (a file's folder, a package)."""
    return sorted({path if path.is_dir() else path.parent for path in named})


def _stat(path: Path) -> tuple[int, int, int] | None:
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_ino, found.st_size, found.st_mtime_ns


def watch(project: Project, games: list[str] | None, options: BuildOptions, echo: Echo,
          stop: threading.Event | None = None, debounce_ms: int = 200,
          reload: Callable[[], BuildOptions] | None = None, warn: Warn | None = None) -> None:
    """Build now and after every change until `stop` is set (or Ctrl-C). `reload` gives the
    options again before each rebuild, from pnp.yaml as it is then; `warn` takes each
    build's warnings (`rebuild`)."""
    others = games is not None  # watching some games: the gallery keeps the others as they are
    built = rebuild(project, games, options, echo, others=others, warn=warn)
    last = {r.game: r for r in built or []}  # each game's report from its last good build
    due: set[str] | None = None if built is None else set()  # games edited since; None: all
    settings = project.root / FILE
    # polled: an editor that saves by replacing a file ends a watch on it
    polled = {settings: _stat(settings)}
    # `pnp trust` run after a plugin's edit writes the trust file, outside the project, which
    # records every project: only a change of this project's own record is a change here
    trust_at = trust_file()
    trust_seen = (_stat(trust_at), record_of(project.root))
    while True:
        named = plugins_named(project)
        plugins = plugin_folders(named)
        folders = watched(project, plugins)
        each, skipped = real_folders(project, folders)
        # a plugin file no watched folder holds (one in the project folder, beside output/)
        alone = [path for path in named if path.is_file() and not any(path.is_relative_to(f) for f in folders)]
        for path in alone:
            polled.setdefault(path, _stat(path))
        announce = [f"watching {', '.join(display_path(p) for p in folders + [settings] + alone)} (Ctrl-C to stop)"]
        for link, real in skipped:  # never followed: the build refuses to read through a link out, too
            where = "outside the project" if not real.is_relative_to(os.path.realpath(project.root)) else "not a source folder of the project"
            announce.append(f"{display_name(link)}: not watched: a link to {real}, {where}")
        again = False
        for changes in _changes(project, each, stop_event=stop, debounce=debounce_ms, step=50, raise_interrupt=True, recursive=False,
                                rust_timeout=POLL_MS, yield_on_timeout=True, watch_filter=lambda change, path: is_content(path)):
            if changes is None:  # a folder went between its listing and its watch: listed again
                again = True
                break
            for line in announce:  # once the folders are watched (their first answer): an edit from now on is seen
                echo(line, False)
            announce = []
            paths = {path for _, path in changes}
            for path, known in polled.items():
                if _stat(path) != known:
                    polled[path] = _stat(path)
                    paths.add(str(path))
            if _stat(trust_at) != trust_seen[0]:  # read again only when the file changed
                now_trusted = (_stat(trust_at), record_of(project.root))
                if now_trusted[1] != trust_seen[1]:
                    paths.add(str(trust_at))
                trust_seen = now_trusted
            now = real_folders(project, watched(project, plugins))[0]
            if now != each:  # a folder came or went: watched from now on
                paths.update(str(p) for p in set(now) ^ set(each))
                again = True
            if not paths:
                continue
            echo(f"changed: {', '.join(sorted(display_path(Path(p)) for p in paths))}", False)
            mine = affected(project.root, sorted(paths), list(last))
            due = None if due is None or mine is None else due | mine
            if reload is not None:  # pnp.yaml as it is now: while it is broken, every rebuild fails
                try:
                    options = reload()
                except PnpError as exc:
                    _failed(exc, echo)
                    continue
            built = rebuild(project, games if due is None else [g for g in last if g in due], options, echo, last, others, warn)
            if built is not None:
                last = {r.game: r for r in built} if due is None else {**last, **{r.game: r for r in built}}
                due = set()
            if plugins_named(project) != named:  # a game.yaml names another plugin now
                again = True
            if again:
                break
        if not again:  # stopped (Ctrl-C raises KeyboardInterrupt: `pnp watch` exits 130)
            return


def _changes(project: Project, folders: Sequence[Path], **options: Any) -> Iterator[set[tuple[Any, str]] | None]:
    """watchfiles' changes in `folders`; None once when one of them went before it was
    watched; a folder that cannot be watched is one line (watchfiles names no file)."""
    import watchfiles

    found = watchfiles.watch(*folders, **options)
    while True:
        try:
            changes = next(found)
        except StopIteration:
            return
        except FileNotFoundError:
            yield None
            return
        except OSError as exc:
            raise PnpError(f"{display_path(project.root)}: pnp watch cannot watch the project's folders: {exc}") from None
        yield changes


def affected(root: Path, paths: list[str], games: list[str]) -> set[str] | None:
    """The games among `games` whose own folders hold every one of `paths`; None when a path
    lies elsewhere (every game may read it) or is a game's folder itself (a game added or
    removed): then every game is built."""
    found = set()
    for path in paths:
        game = owner(path, root, games)
        if game is None or Path(path) in (root / "content" / game, root / "templates" / game):
            return None
        found.add(game)
    return found


# what editors write beside a file while saving it: vim (.x.swp, x~, 4913), emacs (#x#,
# .#x), JetBrains (x___jb_tmp___), gedit (.goutputstream-*), kate (.x.kate-swp), *.tmp,
# and `sed -i` (sedXXXXXX)
_EDITOR_TEMP = re.compile(r"(^\.|~$|^#.*#$|^4913$|___jb_(tmp|old)___$|\.(sw[a-p]|swx|tmp|bak|kate-swp)$|^sed[A-Za-z0-9]{6}$)")


def is_content(path: str) -> bool:
    """Whether a changed file is content worth a rebuild, not an editor's temporary file
    (nor compiled Python, which pnp never reads: plugins run from their source)."""
    found = Path(path)
    return not (_EDITOR_TEMP.search(found.name) or found.suffix == ".pyc" or "__pycache__" in found.parts)


def rebuild(project: Project, games: list[str] | None, options: BuildOptions, echo: Echo,
            kept: dict[str, GameReport] | None = None, others: bool = False, warn: Warn | None = None) -> list[GameReport] | None:
    """One build, reported line by line; None when the input is bad (nothing was written).
    `kept`: the last reports of games not built now, which the gallery still shows;
    `others`: the gallery also keeps the games this watch does not build, as they were;
    `warn`: takes each game's warnings, before its line (without it they are `echo`'s lines)."""
    with ExitStack() as held:
        try:
            checked = check_input(project, games, options)  # a typo is said at once, not once another build lets go
            # the build's lock (build() takes it again) held until the gallery is written: a
            # build that follows must not change the files between them, nor write beside the page
            held.enter_context(output_lock(options.out or output_folder(project.root, project.output_dir)))
            reports = build(project, games, options, checked=checked)
        except OptionError as exc:
            if any(isinstance(e, str) for e in exc.errors):  # typed on the command line: no edit mends it, so the watch ends
                raise
            _failed(exc, echo)  # chosen in pnp.yaml (a located line): an edit there mends it
            return None
        except PnpError as exc:
            _failed(exc, echo)
            return None
        except BaseException as exc:  # the project's own Python (a plugin's hook or helper, `sys.exit()` too): its
            # located error, and the watch goes on; a bug in pnp, Ctrl-C or anything under PNP_DEBUG ends it
            from ..load.plugins import stop_failure

            if os.environ.get("PNP_DEBUG") or (located := stop_failure(exc)) is None:
                raise
            _failed(PnpError(located), echo)
            return None
        for r in reports:
            if warn is not None:
                warn(r.warnings)
            else:
                for warning in r.warnings:
                    echo(str(warning), False)
            echo(describe(r), False)
        if any(r.changed or r.removed for r in reports):
            _refresh_gallery(project, options, list({**(kept or {}), **{r.game: r for r in reports}}.values()), others)
        return reports


def _failed(exc: PnpError, echo: Echo) -> None:
    for line in exc.errors:
        echo(str(line), True)
    echo("build failed: the last good outputs are kept", True)


def _refresh_gallery(project: Project, options: BuildOptions, reports: list[GameReport], others: bool = False) -> None:
    import time

    from .preview import PAGE, build_dpi, write_gallery, write_stamp

    root = options.out or output_folder(project.root, project.output_dir)
    if "svg" in options.formats and (root / PAGE).is_file():
        write_gallery(reports, root, build_dpi(project), others)
    write_stamp(root, str(time.time_ns()))  # any new value makes open pages reload


def describe(r: GameReport) -> str:
    """`game: rebuilt 2 files (1 face rendered): svg/card/x.svg, pdf/card.pdf` or `game: up to date`."""
    touched = list(r.changed) + [f"{rel} (removed)" for rel in r.removed]
    if not touched:
        return f"{r.game}: up to date ({r.files} files, {r.seconds:.2f}s)"
    shown = ", ".join(touched[:SHOWN]) + (f" and {len(touched) - SHOWN} more" if len(touched) > SHOWN else "")
    return f"{r.game}: rebuilt {counted(len(touched), 'file')} ({counted(r.rendered, 'face')} rendered, {r.seconds:.2f}s): {shown}"
