"""Incremental builds from the shell, two installs side by side in one run.

    python bench/bench_incremental.py NEW_VENV [OLD_CHECKOUT] [--repeat N]

NEW_VENV is a virtual environment with this checkout's pnp installed in it (`pip install
.`, not editable, as a user has it); OLD_CHECKOUT is a `git worktree add` of an earlier
commit with the same in its `.venv`. For each, on a copy of its own checkout's four games
(content, templates, plugins) in a temporary folder, every figure the wall time of
`pnp build -q` in a fresh process:

- cold: an empty output folder (the build cache empty; Jinja's compiled templates kept
  from the warm-up, as on a designer's machine after a first build),
- no-op: nothing changed,
- one card (YAML): one food card's title in content/cave/food.yaml edited,
- one row (CSV): one row's title in content/cave/events.csv edited,
- one rule text (YAML): the leader board's stacks heading in content/tasty-humans/rules.yaml,
- the floor: a fresh Python of the install importing the third-party libraries an edit's
  build needs (`FLOOR`), nothing of pnp,

each the fastest of N rounds (the installs take turns), and the edit's share of the
cold build: the target is at most a quarter. The same edits are then timed in one Python
process that builds again after each (`pnp watch`'s loop: start-up and imports paid once,
and, where the pnp's watch does so, only the games the edit concerns), against that
process's own cold build.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
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
    # a rule version's text the leader board alone prints (Tasty Humans' rules.yaml)
    "one rule text (YAML)": ("content/tasty-humans/rules.yaml", 'REVEAL IN NUMBER ORDER"', 'REVEAL IN NUMBER ORDER {n}"'),
}


def pnp_of(venv: Path) -> Path:
    found = venv / "bin" / "pnp"
    if not found.is_file():
        raise SystemExit(f"{venv}: no bin/pnp (make it with `python -m venv {venv} && {venv}/bin/pip install .`)")
    return found


# the third-party libraries a one-card edit's build imports (the CLI, templates, content
# checks, PDFs): what no change to pnp's own code can take off an edit from the shell
FLOOR = "import typer, jinja2, pydantic, pikepdf, yaml, typst"


def floor(pnp: Path) -> float:
    """The wall time of a fresh Python of the install that imports FLOOR and nothing of pnp."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    start = time.perf_counter()
    subprocess.run([str(pnp.parent / "python"), "-c", FLOOR], check=True, env=env)
    return time.perf_counter() - start


def timed(pnp: Path, project: Path, *args: str) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the install, not this checkout
    env["PNP_TRUST"] = "1"  # the copies' plugins are the shipped ones; an older pnp may not know them as such
    start = time.perf_counter()
    done = subprocess.run([str(pnp), "build", "-q", "-p", str(project), *args], capture_output=True, text=True, env=env, cwd=project)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{pnp} build failed:\n{done.stderr}")
    return seconds


# `pnp watch`'s loop: build(), edit, build() in one process; prints each build's seconds
IN_PROCESS = """
import json, shutil, sys, time
from pathlib import Path
from pnp.build.driver import BuildOptions, build
from pnp.load.content import Project
try:  # a pnp whose watch rebuilds only the games an edit concerns
    from pnp.tools.watch import affected
except ImportError:
    affected = None
project, edits = Project(Path(sys.argv[1])), json.loads(sys.argv[2])
names = [r.game for r in build(project, None, BuildOptions())]  # warm-up: imports, Jinja's compiled templates
shutil.rmtree(project.root / "output")
found = {}
for name, edit in [("cold", None)] + list(edits.items()):
    games = None
    if edit:
        path = project.root / edit[0]
        path.write_text(path.read_text().replace(edit[1], edit[2], 1))
        games = affected(project.root, [str(path)], names) if affected else None
    start = time.perf_counter()
    build(project, games, BuildOptions())
    found[name] = time.perf_counter() - start
print(json.dumps(found))
"""


def in_process(pnp: Path, project: Path, round: int) -> dict[str, float]:
    """One round of the cold build and the edits, in one process (`pnp watch`)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PNP_TRUST": "1"}
    edits = {}
    for n, (name, (rel, old, new)) in enumerate(EDITS.items(), start=1):
        text = (project / rel).read_text()
        left = [old] + [new.format(n=f"{n}.{mark}{r}") for mark in ("", "w") for r in range(100)]
        old = next(o for o in left if o in text)  # what the last edit left
        edits[name] = (rel, old, new.format(n=f"{n}.w{round}"))
    done = subprocess.run([str(pnp.parent / "python"), "-c", IN_PROCESS, str(project), json.dumps(edits)], capture_output=True,
                          text=True, env=env, cwd=project)
    if done.returncode != 0:
        raise SystemExit(f"{pnp} in one process failed:\n{done.stderr}")
    return json.loads(done.stdout)


def prepare(games: Path, folder: Path) -> Path:
    project = folder / "games"
    for part in ("content", "templates", "plugins"):
        shutil.copytree(games / part, project / part, ignore=shutil.ignore_patterns("__pycache__"))
    return project


def measure(pnp: Path, project: Path, round: int) -> dict[str, float]:
    """One round of every figure; the edits of each round are new ones."""
    if (project / "output").exists():
        shutil.rmtree(project / "output")
    found = {"cold": timed(pnp, project)}
    found["no-op"] = timed(pnp, project)
    for n, (name, (rel, old, new)) in enumerate(EDITS.items(), start=1):
        path = project / rel
        text = path.read_text()
        if round:
            old = new.format(n=f"{n}.{round - 1}")
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new.format(n=f"{n}.{round}"), 1))
        found[name] = timed(pnp, project)
    found["floor: the libraries' imports"] = floor(pnp)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("new", type=Path, help="venv with the pnp to measure")
    parser.add_argument("old", type=Path, nargs="?", help="checkout (with its .venv) of the pnp to compare with")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    installs = {"new": (pnp_of(args.new), REPO)} | ({"old": (pnp_of(args.old / ".venv"), args.old)} if args.old else {})
    with tempfile.TemporaryDirectory(prefix="pnp-bench-") as folder:
        projects = {label: prepare(games, Path(folder) / label) for label, (_, games) in installs.items()}
        for label, (pnp, _) in installs.items():
            timed(pnp, projects[label])  # warm-up: Python's and Jinja's compiled code, as after a first build
        rounds: dict[str, list[dict[str, float]]] = {label: [] for label in installs}
        for n in range(args.repeat):  # the installs take turns: a busy moment of the host falls on both
            for label, (pnp, _) in installs.items():
                rounds[label].append(measure(pnp, projects[label], n))
        watched: dict[str, list[dict[str, float]]] = {label: [] for label in installs}
        for n in range(args.repeat):
            for label, (pnp, _) in installs.items():
                watched[label].append(in_process(pnp, projects[label], n))
    # the fastest of the rounds: what the build costs when nothing else runs
    results = {label: {row: min(r[row] for r in found) for row in found[0]} for label, found in rounds.items()}
    in_one = {label: {row: min(r[row] for r in found) for row in found[0]} for label, found in watched.items()}
    print(host_line())
    for label, found in rounds.items():
        for n, figures in enumerate(found):
            print(f"{label} round {n}: " + ", ".join(f"{row} {seconds:.2f}" for row, seconds in figures.items()))
    print(f"{'seconds, pnp build -q (four games)':40}" + "".join(f"{label:>10}" for label in results))
    for row in results["new"]:
        print(f"{row:40}" + "".join(f"{found[row]:10.2f}" for found in results.values()))
    print(f"{'seconds, in one process (pnp watch)':40}" + "".join(f"{label:>10}" for label in in_one))
    for row in in_one["new"]:
        print(f"{row:40}" + "".join(f"{found[row]:10.2f}" for found in in_one.values()))
    failed = False
    row = "floor: the libraries' imports"
    for label, found in results.items():
        print(f"{label}: {row} ({FLOOR[7:]}) alone cost {found[row] / found['cold']:.0%} of a cold build")
    for label, found in results.items():
        for row in EDITS:
            share = found[row] / found["cold"]
            failed |= label == "new" and share > TARGET
            print(f"{label}: {row} costs {share:.0%} of a cold build (target at most {TARGET:.0%}); "
                  f"in one process {in_one[label][row] / in_one[label]['cold']:.0%}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
