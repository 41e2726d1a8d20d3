"""A project's files as they were at a git revision, for `pnp diff --since` and `pnp simulate
--against`: exported with `git archive` into a folder, never checked out over the user's."""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
from pathlib import Path

from ..errors import display_path


class NoRevision(Exception):
    """git is missing, the project is in no repository, or the revision is no commit of it."""


def git(root: Path, *args: str) -> str:
    """git's output; NoRevision with git's last line of complaint when it fails."""
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=True)
    except subprocess.CalledProcessError as exc:
        message = exc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise NoRevision(f"git {' '.join(args)}: {message[-1] if message else 'failed'}") from None
    return done.stdout.decode("utf-8", "replace")


def export(root: Path, rev: str, parts: list[str], into: Path) -> tuple[Path, str]:
    """Write the `parts` (paths in the project folder `root`) that exist at `rev` into the
    folder `into`: the project's folder there and the commit in words (`abc1234 subject`)."""
    if shutil.which("git") is None:
        raise NoRevision("git was not found")
    try:
        commit = git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").strip()
    except NoRevision:
        raise NoRevision(f"no such commit (or {display_path(root)} is not in a git repository)") from None
    top = Path(git(root, "rev-parse", "--show-toplevel").strip())
    prefix = git(root, "rev-parse", "--show-prefix").strip()  # the project's folder in the repository
    present = git(top, "ls-tree", "-d", "--name-only", commit, "--", *(prefix + p for p in parts)).splitlines()
    if present:
        data = subprocess.run(["git", "-C", str(top), "archive", "--format=tar", commit, "--", *present], capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            if hasattr(tarfile, "data_filter"):
                tar.extractall(into, filter="data")
            else:  # Python before 3.11.4 has no extraction filters; git's own archive
                tar.extractall(into)
    return into / prefix, git(top, "log", "-1", "--format=%h %s", commit).strip()
