"""Fuzz suite (issue 11): mutated example sheets and shipped content, plus arbitrary YAML.

A seeded mutator deletes, duplicates and swaps lines, flips characters, drops in nasty
values (markup, escapes, non-ASCII digits, huge numbers, tags), alias bombs, deep
nesting and binary garbage. Every case must answer within a generous time bound with an
exit code from the documented set (0, 1, 2; 3 would be a bug in pnp), no traceback, no
terminal control sequence, JSON under --json, one located line per error, and nothing
written to output/ when it fails.

The cases run in-process (typer's CliRunner), with a few real processes at the end.
PNP_FUZZ_SEED picks other cases; PNP_FUZZ_SCALE=10 runs ten times as many.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project
from pnp.errors import PnpError
from pnp.load.validation import validate
from pnp.load.yamlio import CONTENT, SHEET, parse_located

REPO = Path(__file__).resolve().parent.parent
SEED = int(os.environ.get("PNP_FUZZ_SEED", "11"))
SCALE = float(os.environ.get("PNP_FUZZ_SCALE", "1"))
BOUND = 5.0  # seconds per case: an answer, not a benchmark
runner = CliRunner()

NASTY = [
    '"[/bold]"', '"Bo[link=file:///etc/passwd]x[/link]"', '"\\e[2J\\e[31m"', '"\\e]8;;file:///x\\a"', '"\\x9b1m"',
    '"\\u202e"', "²", "'٣'", "①", "-1", "0", "99999999999999999999999", "1e999", ".nan", "-.inf", "~", "null",
    "true", "[]", "{}", "''", "0x1F", "0o17", "2001-12-14", "!!binary aGVsbG8=", "!!set {a, b}", "!!str 5",
    "!!python/object/apply:os.system [ls]", "!custom x", "*undefined", "&a [*a]", "? [a, b]", "'a: b'", "|\n  x",
    "x" * 10_001, "[" * 40 + "]" * 40, "{a: " * 40 + "1" + "}" * 40, "[1, [2, [3, [4]]]]", "'\t'",
]
CHARS = list(" \t-:[]{}&*!|>'\"%@`#,?.0123456789HABGDx²③٣\u00a0\u200b\u202e") + ["\x00", "\x1b", "\x7f", "\r", "\ufeff"]


def bomb(levels: int) -> str:
    lines = ["b0: &b0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"b{i}: &b{i} [{', '.join([f'*b{i - 1}'] * 9)}]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def mutate(text: str, rng: random.Random) -> bytes:
    """One to three random mutations of `text`; the result may not be UTF-8."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(11)
        i = rng.randrange(len(lines)) if lines else 0
        if not lines:
            lines = [""]
        if kind == 0:  # delete a line
            del lines[i]
        elif kind == 1:  # duplicate a line
            lines.insert(i, lines[i])
        elif kind == 2:  # swap two lines
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind in (3, 4):  # flip characters
            line = lines[i]
            for _ in range(rng.randint(1, 3)):
                k = rng.randrange(len(line) + 1)
                ch = rng.choice(CHARS) if rng.random() < 0.8 else chr(rng.randrange(0x80, 0x3000))
                line = line[:k] + ch + line[k + 1:]
            lines[i] = line
        elif kind in (5, 6):  # a nasty value
            key, sep, _ = lines[i].partition(": ")
            lines[i] = f"{key}{sep or ': '}{rng.choice(NASTY)}"
        elif kind == 7:  # re-indent
            lines[i] = " " * rng.choice((0, 1, 3, 8)) + lines[i].lstrip()
        elif kind == 8:  # alias bomb, used or not
            lines[:0] = bomb(rng.randint(1, 9)).splitlines()
        elif kind == 9:  # deep nesting
            depth = rng.choice((10, 33, 65, 2000))
            key = lines[i].partition(":")[0] or "x"
            lines[i] = f"{key}: " + "[" * depth + "]" * depth
        else:  # truncate
            lines = lines[: max(1, i)]
    data = "\n".join(lines).encode("utf-8")
    if rng.random() < 0.05:  # binary garbage
        k = rng.randrange(len(data) + 1)
        data = data[:k] + rng.randbytes(rng.randint(1, 64)) + data[k:]
    return data


def check(result, path: Path, as_json: bool, seconds: float, case: str) -> None:
    output = result.output
    assert seconds < BOUND, f"{case}: {seconds:.1f}s"
    assert result.exit_code in (0, 1, 2), f"{case}: exit {result.exit_code}: {output[-500:]}"
    assert "Traceback" not in output and "internal error" not in output, f"{case}: {output[-500:]}"
    assert "\x1b" not in output and "\x9b" not in output, case
    if as_json:
        data = json.loads(result.stdout)
        if result.exit_code == 2:
            assert data["exit_code"] == 2 and data["errors"], case
            assert all(e["file"] is None or Path(e["file"]).resolve() == path.resolve() for e in data["errors"]), case
    elif result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert lines and all(line.startswith(str(path)) for line in lines), f"{case}: {lines[:3]}"


SHEETS = {
    "tasty-humans": (REPO / "examples/tasty-humans-2p.yaml").read_text(),
    "dietrick-taking": (REPO / "examples/dietrick-taking-3p.yaml").read_text(),
}


@pytest.mark.usefixtures("cached_games")
@pytest.mark.parametrize("game", sorted(SHEETS))
def test_mutated_sheets(tmp_path, game):
    rng = random.Random(f"{SEED}-{game}")
    sheet = tmp_path / "sheet.yaml"
    codes: dict[int, int] = {}
    for n in range(int(400 * SCALE)):
        sheet.write_bytes(mutate(SHEETS[game], rng))
        as_json = n % 2 == 0  # half the cases skip the (slow) table rendering
        started = time.perf_counter()
        result = runner.invoke(app, ["score", str(sheet), *(["--json"] if as_json else []), "--project", str(REPO)])
        check(result, sheet, as_json, time.perf_counter() - started, f"{game} case {n} (seed {SEED}): {sheet.read_bytes()[:300]!r}")
        codes[result.exit_code] = codes.get(result.exit_code, 0) + 1
    assert codes.get(2, 0) > 50 and codes.get(0, 0) + codes.get(1, 0) >= 5, codes  # both sides reached


def _content_files() -> list[tuple[str, Path]]:
    return [(p.parent.name, p) for p in sorted(REPO.glob("content/*/*.yaml"))]


def test_mutated_content_files():
    """Each shipped content file mutated, loaded and checked against its schema."""
    from pnp.load.content import load_plugin
    from pnp.load.manifest import Manifest

    rng = random.Random(f"{SEED}-content")
    files = _content_files()
    for n in range(int(1000 * SCALE)):
        game, path = files[n % len(files)]
        data = mutate(path.read_text(), rng)
        started = time.perf_counter()
        try:
            doc = parse_located(data.decode("utf-8"), path, CONTENT)
            if path.name == "game.yaml":
                model = Manifest
            else:
                manifest = parse_located((path.parent / "game.yaml").read_text(), path.parent / "game.yaml").data
                model = load_plugin(manifest.get("plugin"), None).models.get(path.stem)
            if model is not None:
                _, errors = validate(doc, model)
                assert all(Path(e.path) == path and "\n" not in str(e) for e in errors), errors
        except UnicodeDecodeError:
            pass
        except PnpError as exc:
            assert all(Path(e.path) == path and "\n" not in str(e) for e in exc.errors), exc.errors
        assert time.perf_counter() - started < BOUND, f"{path} case {n}"


def test_mutated_content_through_the_cli(copy_game):
    """Whole games loaded with one mutated file: exit 0 or 2, located lines, no traceback."""
    rng = random.Random(f"{SEED}-games")
    projects = {name: copy_game(name) for name in ("dietrick-taking",)}
    for n in range(int(12 * SCALE)):
        game = rng.choice(sorted(projects))
        project = projects[game]
        files = sorted((project.content_dir / game).glob("*.yaml"))
        path = rng.choice(files)
        original = path.read_bytes()
        path.write_bytes(mutate(original.decode(), rng))
        started = time.perf_counter()
        result = runner.invoke(app, ["list", game, "--project", str(project.root)])
        seconds = time.perf_counter() - started
        path.write_bytes(original)
        assert seconds < BOUND
        assert result.exit_code in (0, 2), result.output[-500:]
        assert "Traceback" not in result.output and "internal error" not in result.output, result.output[-500:]


def test_a_failed_build_writes_nothing(demo: Project):
    """Mutated scaffold content: a build either succeeds or leaves output/ untouched."""
    rng = random.Random(f"{SEED}-build")
    game_dir = demo.content_dir / "demo"
    originals = {p: p.read_bytes() for p in sorted(game_dir.glob("*.yaml"))}
    failures = 0
    for n in range(int(30 * SCALE)):
        path = rng.choice(sorted(originals))
        path.write_bytes(mutate(originals[path].decode(), rng))
        before = sorted(demo.output_dir.rglob("*")) if demo.output_dir.exists() else []
        stamps = {p: p.stat().st_mtime_ns for p in before if p.is_file()}
        result = runner.invoke(app, ["build", "--format", "svg", "--quiet", "--project", str(demo.root)])
        path.write_bytes(originals[path])
        assert result.exit_code in (0, 2), result.output[-500:]
        assert "Traceback" not in result.output and "internal error" not in result.output
        if result.exit_code == 2:
            failures += 1
            after = sorted(demo.output_dir.rglob("*")) if demo.output_dir.exists() else []
            assert after == before
            assert {p: p.stat().st_mtime_ns for p in after if p.is_file()} == stamps
    assert failures > 5


@settings(max_examples=int(500 * SCALE), deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(list("ab1 -:[]{}&*!|>'\"#,?\n\t.") + ["  ", "\n- ", ": ", "*a", "&a ", "<<: "]), max_size=80).map("".join))
def test_any_text_parses_or_is_one_located_error(text):
    try:
        doc = parse_located(text, "f.yaml", SHEET)
    except PnpError as exc:
        assert all(str(e).startswith("f.yaml") and "\n" not in str(e) for e in exc.errors)
        return
    import yaml

    assert doc.data == yaml.load(text, Loader=yaml.CSafeLoader)  # within the limits: PyYAML's meaning


@pytest.mark.parametrize("kind", ["garbage", "bomb"])
def test_real_processes(tmp_path, kind):
    rng = random.Random(f"{SEED}-{kind}")
    sheet = tmp_path / "sheet.yaml"
    sheet.write_bytes(rng.randbytes(4096) if kind == "garbage" else (SHEETS["tasty-humans"] + bomb(12)).encode())
    done = subprocess.run([sys.executable, "-c", "from pnp.cli import main; main()", "score", "--json", str(sheet), "--project", str(REPO)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr == ""
    assert json.loads(done.stdout)["errors"]
