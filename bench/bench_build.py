"""Build benchmark: the build cache against no cache, and full builds from the command line.

    python bench/bench_build.py [--repeat N]

Works on a copy of the repository's games (those that build; others are listed and
skipped) plus a `pnp new` game grown to 60 cards, in a temporary folder. Reports, with
the cache on and off (off = `--force`: render and produce everything):

- cold full build (empty output folder),
- one-card change (one card of the new game edited, every game rebuilt),
- no-op rebuild (nothing changed; in-process, so the content is loaded),

each as the median of N runs and the off/on ratio; then the wall time and peak memory
(peak RSS of the process) of `pnp build tasty-humans`, of `pnp build` (every game) into
an empty output folder, and of a no-op `pnp build` (target <= 0.3 s), each in a fresh process.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measured import child_env  # noqa: E402  (bench/ is on sys.path when a bench runs)

REPO = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(REPO))

from pnp.build.driver import BuildOptions, build  # noqa: E402
from pnp.load.content import Project  # noqa: E402
from pnp.errors import PnpError  # noqa: E402
from pnp.tools.scaffold import scaffold  # noqa: E402

DEMO = "bench-demo"
NOOP_TARGET = 0.3


def cards_yaml(count: int, edited: int | None = None, version: int = 0) -> str:
    lines = ["cards:"]
    for i in range(count):
        text = f"Card number {i} - draw one, then pass a card to the left."
        if i == edited:
            text += f" (edit {version})"
        lines += [f"  - id: card-{i:02d}", f"    title: Card {i}", f"    text: {text}", "    copies: 2"]
    return "\n".join(lines) + "\n"


def make_project(root: Path) -> tuple[Project, list[str], list[str]]:
    """A copy of the repository's buildable games plus the grown demo game."""
    project = Project(root)
    kept, skipped = [], []
    for game in Project(REPO).games():
        for part in ("content", "templates"):
            if (REPO / part / game).is_dir():
                shutil.copytree(REPO / part / game, root / part / game)
        try:
            build(project, [game], BuildOptions(formats=("svg",), out=root / "probe"))
            kept.append(game)
        except PnpError as exc:
            skipped.append(f"{game} ({len(exc.errors)} errors, e.g. {exc.errors[0]})")
            for part in ("content", "templates"):
                shutil.rmtree(root / part / game, ignore_errors=True)
    shutil.rmtree(root / "probe", ignore_errors=True)
    scaffold(project, DEMO)
    (root / "content" / DEMO / "cards.yaml").write_text(cards_yaml(60))
    return project, kept + [DEMO], skipped


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def scenarios(project: Project, repeat: int) -> dict[str, dict[str, float]]:
    """Median seconds of each scenario with the cache on and off."""
    results: dict[str, dict[str, list[float]]] = {}
    version = 0
    cards = project.content_dir / DEMO / "cards.yaml"
    for mode, force in (("on", False), ("off", True)):
        out = project.root / f"out-{mode}"
        options = BuildOptions(out=out, force=force)
        for _ in range(repeat):
            shutil.rmtree(out, ignore_errors=True)
            results.setdefault("cold full build", {}).setdefault(mode, []).append(timed(lambda: build(project, None, options)))
            version += 1
            cards.write_text(cards_yaml(60, edited=7, version=version))
            results.setdefault("one-card change", {}).setdefault(mode, []).append(timed(lambda: build(project, None, options)))
            results.setdefault("no-op rebuild", {}).setdefault(mode, []).append(timed(lambda: build(project, None, options)))
    return {name: {mode: statistics.median(times) for mode, times in modes.items()} for name, modes in results.items()}


CHILD = """
import resource, sys
from pnp.cli import main  # what the `pnp` console script runs
try:
    main()
finally:  # peak RSS of this process since exec (VmHWM); ru_maxrss would count the parent's pages
    try:
        kb = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
    except OSError:
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // (1024 if sys.platform == "darwin" else 1)
    print(f"peak-kb {kb}", file=sys.stderr)
"""


def run_cli(project: Project, args: list[str], out: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of `pnp build ARGS` in a fresh process."""
    command = [sys.executable, "-c", CHILD, "build", "-q", "--out", str(out), "-p", str(project.root), *args]
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=child_env())
    seconds = time.perf_counter() - start
    peak = [line for line in done.stderr.splitlines() if line.startswith("peak-kb ")]
    if done.returncode != 0 or not peak:
        raise SystemExit(f"pnp build {' '.join(args)} failed: {done.stderr[-500:]}")
    return seconds, int(peak[-1].split()[1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per scenario (median reported)")
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory(prefix="pnp-bench-") as tmp:
        project, games, skipped = make_project(Path(tmp) / "project")
        counted = build(project, None, BuildOptions(out=Path(tmp) / "count", formats=("svg",)))
        all_faces = sum(len(c.faces) for r in counted for c in r.parts)
        faces = sum(len(c.faces) for r in counted if r.game == DEMO for c in r.parts)
        print(f"pnp build benchmark: {len(games)} games ({', '.join(games)}), {all_faces} faces, formats svg,pdf; "
              f"median of {repeat} runs")
        for line in skipped:
            print(f"  skipped (does not build yet): {line}")
        print(f"  one-card change: one of the {faces} faces of {DEMO} edited, every game rebuilt\n")

        results = scenarios(project, repeat)
        print(f"  {'':24}{'cache on':>10}{'cache off':>11}{'off/on':>9}")
        for name in ("cold full build", "one-card change", "no-op rebuild"):
            on, off = results[name]["on"], results[name]["off"]
            print(f"  {name:24}{on:9.3f}s{off:10.3f}s{off / on:8.1f}x")

        print("\n  command line, fresh process:" + " " * 14 + "wall      peak RSS")
        runs = []
        if "tasty-humans" in games:
            runs.append(("pnp build tasty-humans (cold)", ["tasty-humans"], Path(tmp) / "cli-th"))
        runs += [("pnp build, every game (cold)", [], Path(tmp) / "cli-all"), ("pnp build, every game (no-op)", [], Path(tmp) / "cli-all")]
        for label, args, out in runs:
            seconds, mb = run_cli(project, args, out)
            note = ""
            if label.endswith("(no-op)"):  # the target is for the command, whole process (issue 9)
                note = f"   target <= {NOOP_TARGET} s: {'met' if seconds <= NOOP_TARGET else 'MISSED'}"
            print(f"  {label:42}{seconds:6.2f}s{mb:9.0f} MB{note}")


if __name__ == "__main__":
    main()
