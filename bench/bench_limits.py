"""Hostile input: how fast the crafted worst case of each limit is refused (issue 11).

    python bench/bench_limits.py

Each case is a file at or past one limit, scored or loaded in-process the way the CLI
does; prints seconds, exit code and the one-line message. Every case should answer in well
under a second.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pnp.cli import app  # noqa: E402
from pnp.load.yamlio import CONTENT, SHEET  # noqa: E402

MIB = 1 << 20
runner = CliRunner()


def bomb(levels: int) -> str:
    lines = ["game: tasty-humans", "a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def fill(head: str, unit: str, size: int) -> str:
    return head + unit * ((size - len(head)) // len(unit))


def dietrick(players: int) -> str:
    rows = "".join(f"  - {{name: P{i}, yellow: {i % 14}, blue: {i % 11}}}\n" for i in range(players))
    return "game: dietrick-taking\nscoring_order: [2, 1, 3]\nplayers:\n" + rows


SHEETS = {
    "size: 2 MiB + 1 byte": "game: tasty-humans\n" + "#" * (SHEET.size - 18),
    "depth: 2 MiB of '['": fill("game: tasty-humans\nplayers: ", "[", SHEET.size),
    "depth: block, 300 levels": "game: tasty-humans\nplayers:\n" + "".join("  " * i + "- \n" for i in range(1, 300)),
    "values: 2 MiB list of numbers": fill("game: tasty-humans\nplayers: [", "1,", SHEET.size - 1) + "]",
    "aliases: 2 MiB of *a": fill("game: tasty-humans\na: &a 1\nb: [", "*a,", SHEET.size - 1) + "]",
    "alias bomb, 9 levels": bomb(9),
    "alias bomb, 60 levels": bomb(60),
    "text: one 2 MiB name": fill("game: tasty-humans\nplayers:\n  - name: ", "x", SHEET.size),
    "within limits: 1,400 Dietrick-taking players": dietrick(1400),
}
CONTENT_FILES = {
    "content values: 8 MiB list": fill("cards: [", "1,", CONTENT.size - 1) + "]",
    "content text: one 8 MiB string": fill("title: ", "x", CONTENT.size),
}


def timed(args: list[str]) -> tuple[str, int, str]:
    """Wall and CPU seconds (on a shared machine the CPU figure is the steadier one)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = runner.invoke(app, args)
    seconds = f"{time.perf_counter() - wall:6.3f} {time.process_time() - cpu:6.3f}"
    lines = result.output.strip().splitlines()
    return seconds, result.exit_code, (lines[0] if lines else "")[:150]


def main() -> None:
    print(f"{'case':48} {'wall':>6} {'cpu':>6}  exit  message")
    with tempfile.TemporaryDirectory() as tmp:
        sheet = Path(tmp) / "sheet.yaml"
        for name, text in SHEETS.items():
            sheet.write_text(text)
            seconds, code, line = timed(["score", str(sheet), "--project", str(ROOT)])
            print(f"{name:48} {seconds}  {code:4}  {line.replace(str(sheet), 'sheet.yaml')}")
        if os.path.exists("/dev/zero"):
            seconds, code, line = timed(["score", "/dev/zero", "--project", str(ROOT)])
            print(f"{'size: /dev/zero':48} {seconds}  {code:4}  {line}")
        project = Path(tmp) / "proj"
        game = project / "content" / "big"
        game.mkdir(parents=True)
        (game / "game.yaml").write_text("title: Big\ncomponents: []\n")
        for name, text in CONTENT_FILES.items():
            (game / "cards.yaml").write_text(text)
            seconds, code, line = timed(["validate", "--project", str(project)])
            print(f"{name:48} {seconds}  {code:4}  {line.replace(str(project) + '/', '')}")


if __name__ == "__main__":
    main()
