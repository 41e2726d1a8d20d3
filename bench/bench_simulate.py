"""Balance-lab speed: games per second per core for each game's engine, on every core,
and how the cost grows with the number of games.

    python bench/bench_simulate.py [--games N] [--jobs J] [--repeat R]

Target (issue 14): Tasty Humans with four greedy players, at least 200 games/s on 2 cores.
Each figure is one timed `run_games` call in a fresh process: the processes it starts
are counted (what a user waits for, minus the report), reading the game's content is not
(it is read once, before the clock starts, as `pnp simulate` reads it once however many
games it plays). `--repeat N` times each figure N times on other seeds and keeps the
fastest: on a shared machine other jobs only ever slow a run down. A speed-up must not
change a seeded game: tests/test_th_engine.py::test_seeded_games_are_unchanged checks a
digest of 48 games. The first line printed is a fixed Python loop's time, to compare hosts.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from measured import host_line  # noqa: E402  (bench/ is on sys.path when a bench runs)
from pnp.simulate.runner import Side, _simulation, run_games  # noqa: E402

CASES = [
    # game, players, strategies, share of --games (greedy Tasty Humans is the slow one)
    # the target case plays the full --games: each process's first ~25 games run at about
    # 1.5x the cost while the landing tables and memos fill, which a 100-game run would
    # mostly measure (a designer runs hundreds to thousands)
    ("tasty-humans", 4, ["greedy"], 1.0),
    ("tasty-humans", 4, ["random"], 1.0),
    ("tasty-humans", 2, ["greedy"], 0.25),
    ("dietrick-taking", 3, ["greedy"], 1.0),
    ("dietrick-taking", 4, ["random"], 1.0),
    ("cave", 4, ["greedy"], 1.0),
    ("cave", 2, ["random"], 1.0),
]

TARGET_CASE = ("tasty-humans", 4, ["greedy"])
TARGET = 200  # games per second on 2 cores (issue 14)


def _one_run(side: Side, games: int, players: int, strategies: list[str], jobs: int, seed: int, answer) -> None:
    _simulation(side)  # the content, read once
    started = time.perf_counter()
    run_games([side], games, players, strategies, seed=seed, jobs=jobs)
    answer.send(time.perf_counter() - started)


def timed(side: Side, games: int, players: int, strategies: list[str], jobs: int, repeat: int = 1) -> float:
    """Seconds of the fastest of `repeat` runs of `games` games (seeds 0, 1, ...), each in a
    process of its own, as `pnp simulate` starts: the engine's memos (landing tables, path
    searches) are warm after a run, and a later run, or the workers it forks, would inherit
    them."""
    best = float("inf")
    spawn = multiprocessing.get_context("spawn")
    for seed in range(repeat):
        ours, theirs = spawn.Pipe()
        run = spawn.Process(target=_one_run, args=(side, games, players, strategies, jobs, seed, theirs))
        run.start()
        seconds = ours.recv()
        run.join()
        best = min(best, seconds)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=400, help="games per case (2-player greedy Tasty Humans plays a quarter)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--repeat", type=int, default=1, help="runs per figure, the fastest kept")
    args = ap.parse_args()
    print(host_line() + "\n")
    print(f"{'game':16} {'players':>7} {'strategy':>9} {'games':>6} {'1 core g/s':>11} {f'{args.jobs} cores g/s':>12}")
    greedy = greedy_one = 0.0
    for game, players, strategies, share in CASES:
        side = Side("bench", ROOT, game, {})
        n = max(args.jobs * 4, int(args.games * share))
        one = timed(side, n, players, strategies, 1, args.repeat)
        many = timed(side, n, players, strategies, args.jobs, args.repeat)
        print(f"{game:16} {players:>7} {strategies[0]:>9} {n:>6} {n / one:>11.1f} {n / many:>12.1f}")
        if (game, players, strategies) == TARGET_CASE:
            greedy, greedy_one = n / many, n / one
    verdict = "met" if greedy >= TARGET and args.jobs <= 2 else "missed" if args.jobs <= 2 else "not comparable (more than 2 jobs)"
    print(f"\ntarget: tasty-humans, 4 greedy players, >= {TARGET} games/s on 2 cores: {greedy:.1f} on {args.jobs}, {verdict}"
          f"\n  ({1000 / greedy_one:.1f} ms a game on one core, {greedy / greedy_one:.2f}x on {args.jobs} cores)")
    print("\ncost against the number of games (tasty-humans, 4 random players, all cores):")
    side = Side("bench", ROOT, "tasty-humans", {})
    for n in (args.games // 4, args.games, args.games * 4):
        s = timed(side, n, 4, ["random"], args.jobs)
        print(f"  {n:>6} games: {s:6.2f} s  ({s / n * 1000:.2f} ms per game)")


if __name__ == "__main__":
    main()
