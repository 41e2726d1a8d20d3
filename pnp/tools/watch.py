"""`pnp watch`: build, then rebuild whenever something under content/ or templates/ changes.

A rebuild builds only the games whose own folders (content/<game>/, templates/<game>/)
changed, by the rule the build record uses (pnp/build/witness.py `owner`); a change
anywhere else rebuilds every game. Within a game the build cache touches only what the
edit affects. An edit that breaks the content prints its errors and writes nothing, so the
last good outputs stay in place, and its games stay due until a rebuild succeeds. A
rebuild that changed files rewrites the gallery (when `pnp preview` made one) and the
build stamp, so an open gallery page reloads itself.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Callable

from ..build.driver import GameReport, build
from ..build.witness import owner
from ..config import BuildOptions
from ..load.content import Project
from ..errors import PnpError, display_path

Echo = Callable[[str, bool], None]  # (line, is_error)
SHOWN = 8  # files listed per game and rebuild; more are counted


def watch(project: Project, games: list[str] | None, options: BuildOptions, echo: Echo,
          stop: threading.Event | None = None, debounce_ms: int = 200) -> None:
    """Build now and after every change until `stop` is set (or Ctrl-C)."""
    import watchfiles

    built = rebuild(project, games, options, echo)
    last = {r.game: r for r in built or []}  # each game's report from its last good build
    due: set[str] | None = None if built is None else set()  # games edited since; None: all
    folders = [p for p in (project.content_dir, project.templates_dir) if p.is_dir()]
    echo(f"watching {', '.join(display_path(p) for p in folders)} (Ctrl-C to stop)", False)
    for changes in watchfiles.watch(*folders, stop_event=stop, debounce=debounce_ms, step=50, raise_interrupt=False,
                                    watch_filter=lambda change, path: is_content(path)):
        edited = sorted({display_path(Path(path)) for _, path in changes})
        echo(f"changed: {', '.join(edited)}", False)
        mine = affected(project.root, [path for _, path in changes], list(last))
        due = None if due is None or mine is None else due | mine
        built = rebuild(project, games if due is None else [g for g in last if g in due], options, echo, last)
        if built is not None:
            last = {r.game: r for r in built} if due is None else {**last, **{r.game: r for r in built}}
            due = set()


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
# .#x), JetBrains (x___jb_tmp___), gedit (.goutputstream-*), kate (.x.kate-swp), *.tmp
_EDITOR_TEMP = re.compile(r"(^\.|~$|^#.*#$|^4913$|___jb_(tmp|old)___$|\.(sw[a-p]|swx|tmp|bak|kate-swp)$)")


def is_content(path: str) -> bool:
    """Whether a changed file is content worth a rebuild, not an editor's temporary file."""
    return not _EDITOR_TEMP.search(Path(path).name)


def rebuild(project: Project, games: list[str] | None, options: BuildOptions, echo: Echo,
            kept: dict[str, GameReport] | None = None) -> list[GameReport] | None:
    """One build, reported line by line; None when the input is bad (nothing was written).
    `kept`: the last reports of games not built now, which the gallery still shows."""
    try:
        reports = build(project, games, options)
    except PnpError as exc:
        for line in exc.errors:
            echo(str(line), True)
        echo("build failed: the last good outputs are kept", True)
        return None
    for r in reports:
        echo(describe(r), False)
    if any(r.changed or r.removed for r in reports):
        _refresh_gallery(project, options, list({**(kept or {}), **{r.game: r for r in reports}}.values()))
    return reports


def _refresh_gallery(project: Project, options: BuildOptions, reports: list[GameReport]) -> None:
    import time

    from .preview import PAGE, write_gallery, write_stamp

    root = options.out or project.output_dir
    if "svg" in options.formats and (root / PAGE).is_file():
        write_gallery(reports, root)
    write_stamp(root, str(time.time_ns()))  # any new value makes open pages reload


def describe(r: GameReport) -> str:
    """`game: rebuilt 2 files (1 face rendered): svg/card/x.svg, pdf/card.pdf` or `game: up to date`."""
    touched = list(r.changed) + [f"{rel} (removed)" for rel in r.removed]
    if not touched:
        return f"{r.game}: up to date ({r.files} files, {r.seconds:.2f}s)"
    shown = ", ".join(touched[:SHOWN]) + (f" and {len(touched) - SHOWN} more" if len(touched) > SHOWN else "")
    faces = f"{r.rendered} face{'s' if r.rendered != 1 else ''} rendered"
    return f"{r.game}: rebuilt {len(touched)} file{'s' if len(touched) != 1 else ''} ({faces}, {r.seconds:.2f}s): {shown}"
