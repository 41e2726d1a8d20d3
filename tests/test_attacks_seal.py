"""Nothing in output/ is trusted (hostile-project report, defects 11 and 6): the build record
(pnp/build/witness.py) and the build cache (pnp/build/cache.py) are sealed with the user's
own key (pnp/load/seal.py), so a record or cache someone else wrote is no record: its paths are
never read, its report line never printed, its faces never drawn. And the record reads only
plain files: a pipe or a device a template name leads to never blocks a build."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest
from typer.testing import CliRunner

from pnp.load import seal
from pnp.build import witness
from pnp.build.driver import BuildOptions, build
from pnp.cli import app
from pnp.load.content import Project
from pnp.load.project_files import witnessed

BOUND = 5.0  # seconds: a runaway, not a speed, as tests/test_hostile.py
runner = CliRunner()


def _record(project: Project) -> Path:
    """Build (SVG) and record the build for a no-op answer, as the command line does."""
    started = time.time_ns()
    with witnessed() as read:
        reports = build(project, None, BuildOptions(formats=("svg",)))
    witness.record(project.output_dir, ["build"], project.root, read, {r.game: f"{r.game}: built" for r in reports}, started)
    return project.output_dir / witness.RECORD


def _tamper(path: Path, change: Callable[[dict], None]) -> None:
    """Change a sealed record's JSON as someone without the key can: the seal stays as it was."""
    raw = path.read_bytes()
    head, _, body = raw.partition(b"\n") if raw.startswith(seal.MAGIC) else (b"", b"", raw)
    data = json.loads(body)
    change(data)
    path.write_bytes((head + b"\n" if head else b"") + json.dumps(data).encode())


def _promptly(work: Callable[[], Any], fifo: Path | None = None) -> Any:
    """`work()`'s result, which must come within BOUND; a read blocked on `fifo` is released
    (a writer opens and closes it) before the test fails, so no thread is left hanging."""
    found: list[Any] = []
    thread = threading.Thread(target=lambda: found.append(work()), daemon=True)
    thread.start()
    thread.join(BOUND)
    blocked = thread.is_alive()
    if blocked and fifo is not None:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(BOUND)
    assert not blocked, f"still working after {BOUND} s"
    return found[0]


# --- the seal -----------------------------------------------------------------------------

def test_the_key_is_the_users_own_and_kept_outside_the_project(trust_folder: Path):
    key = trust_folder / "pnp" / seal.KEY_FILE
    key.unlink()  # the session's (tests/conftest.py): made anew here
    sealed = seal.seal("record", b"data")
    assert seal.key_file() == key
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and key.stat().st_size == seal.KEY_BYTES
    assert seal.unseal("record", sealed) == b"data"
    seal._keys.clear()  # as a new run: the key is read from its file
    assert seal.unseal("record", sealed) == b"data"
    assert seal.unseal("cache", sealed) is None  # a seal for one use is none for another
    assert seal.unseal("record", sealed.replace(b"data", b"date")) is None
    assert seal.unseal("record", b"data") is None and seal.unseal("record", None) is None


def test_a_key_file_others_may_read_is_not_used(trust_folder: Path):
    key = trust_folder / "pnp" / seal.KEY_FILE
    key.write_bytes(b"k" * seal.KEY_BYTES)
    key.chmod(0o644)  # anyone on the machine could seal with it
    sealed = seal.seal("record", b"data")
    assert seal.unseal("record", sealed) == b"data"  # a key of this run alone
    seal._keys.clear()
    assert seal.unseal("record", sealed) is None  # never believed later
    assert key.read_bytes() == b"k" * seal.KEY_BYTES  # the user's file is left as it is


# --- 11a. the build record ------------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_tampered_build_record_is_not_read(demo: Project, tmp_path: Path):
    """A path added to the record is never opened (a pipe: no hang), its line never printed."""
    record = _record(demo)
    assert witness.answer(demo.output_dir, ["build"]).lines == {"demo": "demo: built"}
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def change(data: dict) -> None:
        entry = next(iter(data["builds"].values()))
        entry["shared"][str(fifo)] = "x"

    _tamper(record, change)
    assert _promptly(lambda: witness.answer(demo.output_dir, ["build"]), fifo) is None


def test_a_tampered_report_line_is_not_printed(demo: Project):
    record = _record(demo)
    _tamper(record, lambda data: next(iter(data["builds"].values()))["games"]["demo"].update(line="demo: TAMPERED"))
    assert witness.answer(demo.output_dir, ["build"]) is None


def test_a_record_sealed_by_another_user_is_no_record(demo: Project, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    _record(demo)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "another"))
    assert witness.answer(demo.output_dir, ["build"]) is None


def test_the_command_line_prints_no_tampered_line(demo: Project):
    """End to end, as a user runs it: the second build is a no-op; after the record is
    tampered with, a real build runs and prints its own line."""
    def pnp() -> str:
        done = subprocess.run([sys.executable, "-c", "from pnp.cli import main; main()", "build", "--format", "svg",
                               "--project", str(demo.root)], capture_output=True, text=True, timeout=120, cwd=demo.root)
        assert done.returncode == 0, done.stderr
        return done.stdout

    pnp()
    assert "in 0.00s, 0 faces rendered" in pnp()  # the no-op answer
    record = demo.output_dir / witness.RECORD
    _tamper(record, lambda data: next(iter(data["builds"].values()))["games"]["demo"].update(line="demo: TAMPERED"))
    out = pnp()
    assert "TAMPERED" not in out and out.startswith("demo: 1 component,")


# --- 11b. the build cache -------------------------------------------------------------------

def test_a_face_injected_into_the_cache_never_reaches_an_output(demo: Project):
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output
    root = demo.output_dir / "demo"
    before = {p: p.read_bytes() for p in sorted((root / "svg").rglob("*.svg"))}
    cache = root / ".pnp-cache.json"
    # a face's SVG is kept cut at its pictures (pnp/build/cache.py `by_reference`): its last part ends it
    _tamper(cache, lambda data: [face[0].__setitem__(-1, face[0][-1].replace("</svg>", "<text>INJECTED</text></svg>"))
                                 for face in data["faces"].values()])
    for path in before:
        path.unlink()
    result = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)])
    assert result.exit_code == 0, result.output
    assert {p: p.read_bytes() for p in before} == before
    assert "INJECTED" not in cache.read_text()  # the cache is made anew


# --- 6. a template name leading to a pipe or a device ---------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_template_name_leading_to_a_pipe_does_not_hang_the_build(demo: Project):
    """The loader skips a pipe (not a file); the record of what the build read must not open it."""
    fifo = demo.templates_dir / "demo/pipe.j2"
    os.mkfifo(fifo)
    template = demo.templates_dir / "demo/card.svg.j2"
    first, _, rest = template.read_text().partition("\n")
    template.write_text(first + '\n{% include "pipe.j2" ignore missing %}\n' + rest)
    _promptly(lambda: _record(demo), fifo)
    assert _promptly(lambda: witness.answer(demo.output_dir, ["build"]), fifo).unchanged


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="no /dev/null")
def test_a_device_is_recorded_without_being_opened(tmp_path: Path):
    """/dev/null, as /dev/zero (which no read would finish) is: a device, never opened."""
    link = tmp_path / "zero.j2"
    link.symlink_to("/dev/null")
    assert witness._state(str(link)).startswith("o")


def test_a_large_file_counts_by_its_size_and_times(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(witness, "MAX_READ", 10)
    big = tmp_path / "big.ttf"
    big.write_bytes(b"a" * 20)
    before = witness._state(str(big))
    assert before.startswith("b") and witness._state(str(big)) == before
    times = big.stat()
    big.write_bytes(b"b" * 20)
    os.utime(big, ns=(times.st_atime_ns, times.st_mtime_ns))  # same size and time: the status change time tells
    assert witness._state(str(big)) != before
