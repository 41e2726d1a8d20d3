"""Incremental builds from the shell, two installs side by side in one run.

    python bench/bench_incremental.py NEW_VENV [OLD_CHECKOUT] [--repeat N]

NEW_VENV is a virtual environment with this checkout's pnp installed in it (`pip install
.`, not editable, as a user has it); OLD_CHECKOUT is a `git worktree add` of an earlier
commit with the same in its `.venv`. For each, on a copy of its own checkout's four games
(content, templates, plugins) in a temporary folder, every figure the wall time of
`pnp build -q` in a fresh process:

- cold: an empty output folder (the build cache empty; Jinja's compiled templates kept
  from the warm-up, as on a designer's machine after a first build),
- no-op: nothing changed (median of N),
- one card (YAML): one food card's title in content/cave/food.yaml edited,
- one row (CSV): one row's title in content/cave/events.csv edited,

and the edit's share of the cold build: the target is at most a quarter.
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

from measured import host_line  # noqa: E402  (bench/ is on sys.path when a bench runs)

REPO = Path(__file__).resolve().parent.parent
TARGET = 0.25  # an edit's build costs at most this share of a cold build
EDITS = {
    "one card (YAML)": ("content/cave/food.yaml", "title: Cave Beetles}", "title: Cave Beetles {n}}}"),
    "one row (CSV)": ("content/cave/events.csv", ",Torch,", ",Torch {n},"),
}


def pnp_of(venv: Path) -> Path:
    found = venv / "bin" / "pnp"
    if not found.is_file():
        raise SystemExit(f"{venv}: no bin/pnp (make it with `python -m venv {venv} && {venv}/bin/pip install .`)")
    return found


def timed(pnp: Path, project: Path, *args: str) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the install, not this checkout
    env["PNP_TRUST"] = "1"  # the copies' plugins are the shipped ones; an older pnp may not know them as such
    start = time.perf_counter()
    done = subprocess.run([str(pnp), "build", "-q", "-p", str(project), *args], capture_output=True, text=True, env=env, cwd=project)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{pnp} build failed:\n{done.stderr}")
    return seconds


def measure(pnp: Path, games: Path, folder: Path, repeat: int) -> dict[str, float]:
    project = folder / "games"
    for part in ("content", "templates", "plugins"):
        shutil.copytree(games / part, project / part, ignore=shutil.ignore_patterns("__pycache__"))
    timed(pnp, project)  # warm-up: Python's and Jinja's compiled code, as after a first build
    shutil.rmtree(project / "output")
    found = {"cold": timed(pnp, project)}
    found["no-op"] = statistics.median(timed(pnp, project) for _ in range(repeat))
    for n, (name, (rel, old, new)) in enumerate(EDITS.items(), start=1):
        path = project / rel
        text = path.read_text()
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new.format(n=n), 1))
        found[name] = timed(pnp, project)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("new", type=Path, help="venv with the pnp to measure")
    parser.add_argument("old", type=Path, nargs="?", help="checkout (with its .venv) of the pnp to compare with")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    installs = {"new": (pnp_of(args.new), REPO)} | ({"old": (pnp_of(args.old / ".venv"), args.old)} if args.old else {})
    results = {}
    for label, (pnp, games) in installs.items():
        with tempfile.TemporaryDirectory(prefix=f"pnp-bench-{label}-") as folder:
            results[label] = measure(pnp, games, Path(folder), args.repeat)
    print(host_line())
    print(f"{'seconds, pnp build -q (four games)':40}" + "".join(f"{label:>10}" for label in results))
    for row in results["new"]:
        print(f"{row:40}" + "".join(f"{found[row]:10.2f}" for found in results.values()))
    failed = False
    for label, found in results.items():
        for row in EDITS:
            share = found[row] / found["cold"]
            failed |= label == "new" and share > TARGET
            print(f"{label}: {row} costs {share:.0%} of a cold build (target at most {TARGET:.0%})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
