"""A project that arrives with its `.git` folder: comparing with one of its revisions (`pnp diff
--since`, `pnp simulate --against`: pnp/load/revision.py) runs no command its git config
names, writes only plain files of the revision into pnp's own folder, and checks each file's
size before reading it."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project
from test_diff import git, needs_git, repo  # noqa: F401  (repo: the fixture)
from test_hostile import one_error

BOUND = 5.0  # seconds: a runaway, not a speed (as tests/test_attacks_exec.py)


def since_head(project: Project) -> tuple[Any, float]:
    """`pnp diff --since HEAD`'s result and how long it took."""
    started = time.perf_counter()
    result = CliRunner().invoke(app, ["diff", "--since", "HEAD", "-p", str(project.root)])
    return result, time.perf_counter() - started


def hostile_config(top: Path, marks: Path) -> None:
    """Every command a repository's config can name for the commands pnp runs, each writing
    a file into `marks` when run."""
    marks.mkdir()
    scripts = marks.parent / "scripts"
    scripts.mkdir()

    def command(name: str) -> str:  # a program, not a shell line: git runs gpg.program without a shell
        script = scripts / name
        script.write_text(f"#!/bin/sh\necho ran > {marks / name}\ncat\n")
        script.chmod(0o755)
        return str(script)

    hooks = top / "hooks"
    hooks.mkdir()
    for hook in ["post-checkout", "post-index-change", "reference-transaction", "pre-auto-gc", "post-rewrite"]:
        (hooks / hook).write_text(f"#!/bin/sh\necho ran > {marks / hook}\n")
        (hooks / hook).chmod(0o755)
    for key, value in {"filter.x.smudge": command("smudge"), "filter.x.clean": command("clean"),
                       "filter.x.process": command("process"), "diff.t.textconv": command("textconv"),
                       "core.fsmonitor": command("fsmonitor"), "core.hooksPath": str(hooks),
                       "core.pager": command("pager"), "pager.log": command("pager-log"), "log.showSignature": "true",
                       "gpg.program": command("gpg"), "core.sshCommand": command("ssh"), "diff.external": command("external")}.items():
        git(top, "config", key, value)


def signed_head(top: Path) -> None:
    """Make HEAD a commit carrying a signature: `log.showSignature` would hand it to gpg.program."""
    tree = subprocess.run(["git", "-C", str(top), "rev-parse", "HEAD^{tree}"], capture_output=True, check=True, text=True).stdout.strip()
    parent = subprocess.run(["git", "-C", str(top), "rev-parse", "HEAD"], capture_output=True, check=True, text=True).stdout.strip()
    body = (f"tree {tree}\nparent {parent}\nauthor t <t@example.com> 1700000000 +0000\ncommitter t <t@example.com> 1700000000 +0000\n"
            "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n")
    commit = subprocess.run(["git", "-C", str(top), "hash-object", "-t", "commit", "-w", "--stdin"], input=body,
                            capture_output=True, check=True, text=True).stdout.strip()
    git(top, "update-ref", "HEAD", commit)


@needs_git
def test_a_repositorys_config_runs_no_command(repo: Project, tmp_path: Path):
    top = repo.root.parent
    (top / ".gitattributes").write_text("* filter=x diff=t\n")
    git(top, "add", ".gitattributes")
    git(top, "commit", "-q", "-m", "attributes")
    signed_head(top)
    marks = tmp_path / "marks"
    hostile_config(top, marks)
    result, _ = since_head(repo)
    assert result.exit_code == 0 and "1 changed, 1 added, 1 removed" in result.output, result.output  # the committed files, as they are
    assert sorted(p.name for p in marks.iterdir()) == []


@needs_git
@pytest.mark.parametrize("kind", ["absolute link", "link leading out", "link inside", "submodule"])
def test_a_link_or_submodule_in_the_revision_is_one_line(repo: Project, kind: str):
    """Only plain files are written from a revision (git archive's links made an internal error)."""
    top = repo.root.parent
    entry = repo.content_dir / "demo/more.yaml"
    if kind == "submodule":
        head = subprocess.run(["git", "-C", str(top), "rev-parse", "HEAD"], capture_output=True, check=True, text=True).stdout.strip()
        git(top, "update-index", "--add", "--cacheinfo", f"160000,{head},games/content/demo/more.yaml")
    else:
        entry.symlink_to({"absolute link": "/etc/passwd", "link leading out": "../../../../../outside", "link inside": "cards.yaml"}[kind])
        git(top, "add", "-A")
    git(top, "commit", "-q", "-m", kind)
    result, seconds = since_head(repo)
    what = "a submodule" if kind == "submodule" else "a link"
    line = one_error(result, f"HEAD:games/content/demo/more.yaml: {what} in that revision: ",
                     "pnp reads only plain files from a revision")
    assert line.startswith("HEAD:") and seconds < BOUND


@needs_git
@pytest.mark.parametrize("limit, words", [("file=1M", "2,097,152 bytes, more than 1,048,576"),
                                          ("total=1M", "bytes in all, more than 1,048,576"),
                                          ("files=2", "3 files, more than 2")])
def test_a_revisions_files_are_within_limits_before_they_are_read(repo: Project, monkeypatch, limit: str, words: str):
    top = repo.root.parent
    (repo.root / "assets").mkdir()
    (repo.root / "assets/big.bin").write_bytes(b"\0" * (2 << 20))
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "a big file")
    monkeypatch.setenv("PNP_REVISION_LIMITS", limit)
    result, seconds = since_head(repo)
    line = one_error(result, words, f"(set PNP_REVISION_LIMITS={limit.split('=')[0]}=N to change it)")
    assert line.startswith("HEAD:games/") and seconds < BOUND
    monkeypatch.setenv("PNP_REVISION_LIMITS", "file=3M,files=100")
    assert since_head(repo)[0].exit_code == 0
