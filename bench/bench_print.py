"""The print path side by side: two installed `pnp` commands, the same builds, interleaved.

    python bench/bench_print.py --base /work/base-af6513b/.venv/bin/pnp --base-tree /work/base-af6513b \
        --this .venv-bench/bin/pnp [--repeat N]

Each pnp should be a non-editable install (`pip install .` in its own venv). Every figure
is a fresh `pnp build` process started from the shell; each case runs base, this, base,
this, ... so that a busy moment of the shared host falls on both. Cases (issue 24):

- the 54-card poker deck of bench/poker, cold (target: no slower);
- a 5,400-card deck: the poker deck a hundred times over, each card told apart by its
  number (5,400 distinct faces), cold (target: at least 1.5x faster, peak memory under
  400 MiB: the PSS of the build and its PDF workers summed, in one more run of its own);
- the four games, cold full build (target: no slower), each side its own tree's games
  (`--base-tree`: the base's checkout; its plugins import what its pnp has).
- the 5,400-card deck again after one card's title is edited (each side's output folder
  built once first): what a designer of a big deck waits for after an edit.

It prints the median wall seconds of each side and their ratio, the median CPU seconds
(the shared host's load inflates wall time, hardly CPU time) and the peak memory.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
from pathlib import Path

import yaml

from measured import host_line, measure  # noqa: E402  (bench/ is on sys.path when a bench runs)

REPO = Path(__file__).resolve().parent.parent
POKER = REPO / "bench" / "poker"
GAMES = ["cave", "dietrick-taking", "human-harvest", "tasty-humans"]
# each command's own installed pnp (no PYTHONPATH into a tree), bytecode cache on as for a user
ENV = {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}


def build(pnp: str, project: Path, out: Path, sample: bool = False) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and (with `sample`) peak MiB of one cold `pnp build`
    (bench/measured.py `measure`)."""
    shutil.rmtree(out, ignore_errors=True)
    return measure([pnp, "build", "-q", "--out", str(out), "-p", str(project)], ENV, sample)


def big_deck(root: Path, times: int) -> Path:
    """The poker deck `times` over, each card's id and title given its copy number."""
    shutil.copytree(POKER, root)
    cards = root / "content" / "poker" / "cards.yaml"
    deck = yaml.safe_load(cards.read_text())["cards"]
    many = [{**card, "id": f"{card['id']}-{n:03d}", "title": f"{card['title']} {n}"} for n in range(times) for card in deck]
    cards.write_text(yaml.safe_dump({"cards": many}, sort_keys=False))
    return root


def edit_card(root: Path, n: int) -> None:
    """The big deck's first card given another title (in place of the last edit's: prefixes
    piling up overflowed the card by the fifth round)."""
    cards = root / "content" / "poker" / "cards.yaml"
    text = cards.read_text()
    first = text.index("title: ") + len("title: ")
    kept = text[first:].split(" ", 2)[2] if text[first:].startswith("Edited ") else text[first:]
    cards.write_text(text[:first] + f"Edited {n} " + kept)


def four_games(tree: Path, root: Path) -> Path:
    for part in ("content", "templates"):
        for game in GAMES:
            shutil.copytree(tree / part / game, root / part / game)
    shutil.copytree(tree / "plugins", root / "plugins")
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the pnp command to compare against (e.g. af6513b's)")
    parser.add_argument("--base-tree", required=True, type=Path, help="the base's checkout (its four games)")
    parser.add_argument("--this", required=True, help="this tree's pnp command")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side per case (median reported)")
    parser.add_argument("--cards", type=int, default=100, help="copies of the poker deck in the big deck")
    args = parser.parse_args()
    sides = {"base": args.base, "this": args.this}
    print(f"pnp print path, side by side: median of {args.repeat} interleaved cold builds each\n{host_line()}")
    print(f"  base: {args.base}\n  this: {args.this}\n")
    with tempfile.TemporaryDirectory(prefix="pnp-bench-print-") as tmp:
        tmp_path = Path(tmp)
        poker = shutil.copytree(POKER, tmp_path / "poker")
        big = big_deck(tmp_path / "big", args.cards)
        games = {"base": four_games(args.base_tree, tmp_path / "games-base"), "this": four_games(REPO, tmp_path / "games-this")}
        cases = [("poker deck, 54 cards", {"base": poker, "this": poker}, "no slower"),
                 (f"deck of {54 * args.cards:,} cards", {"base": big, "this": big}, ">= 1.5x faster, < 400 MiB"),
                 ("four games, cold full build", games, "no slower")]
        print(f"  {'case':30}{'base s':>8}{'this s':>8}{'speed-up':>9}{'base cpu':>10}{'this cpu':>10}"
              f"{'base MiB':>10}{'this MiB':>10}   target")
        for label, projects, target in cases:
            runs: dict[str, list[tuple[float, float, float]]] = {side: [] for side in sides}
            for _ in range(args.repeat):
                for side, pnp in sides.items():
                    runs[side].append(build(pnp, projects[side], tmp_path / f"out-{side}"))
            peaks = {side: build(pnp, projects[side], tmp_path / f"out-{side}", sample=True)[2] for side, pnp in sides.items()}
            wall = {side: statistics.median(run[0] for run in runs[side]) for side in sides}
            cpu = {side: statistics.median(run[1] for run in runs[side]) for side in sides}
            print(f"  {label:30}{wall['base']:8.2f}{wall['this']:8.2f}{wall['base'] / wall['this']:8.2f}x{cpu['base']:10.2f}{cpu['this']:10.2f}"
                  f"{peaks['base']:10.0f}{peaks['this']:10.0f}   {target}", flush=True)
        edits: dict[str, list[tuple[float, float, float]]] = {side: [] for side in sides}
        for side, pnp in sides.items():
            build(pnp, big, tmp_path / f"out-{side}")
        for round_ in range(args.repeat):
            edit_card(big, round_)
            for side, pnp in sides.items():
                edits[side].append(measure([pnp, "build", "-q", "--out", str(tmp_path / f"out-{side}"), "-p", str(big)], ENV, False))
        wall = {side: statistics.median(run[0] for run in edits[side]) for side in sides}
        cpu = {side: statistics.median(run[1] for run in edits[side]) for side in sides}
        print(f"  {'the same deck, one card edited':30}{wall['base']:8.2f}{wall['this']:8.2f}{wall['base'] / wall['this']:8.2f}x"
              f"{cpu['base']:10.2f}{cpu['this']:10.2f}", flush=True)


if __name__ == "__main__":
    main()
