"""Tasty Humans scoring speed through the library API.

    python bench/bench_scoring.py [--boards N] [--seed S]

Prints boards scored per second on random legal boards (target >= 20,000 per core) and
the slowest board among hard cases: stomachs of a single tile type with both chain
leaders, where the longest-path search has the most room (target <= 50 ms).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pnp.load.content import Project, load_game  # noqa: E402
from pnp.load.plugins import plugin_submodule  # noqa: E402

_board, _scoring = (plugin_submodule("plugins/tasty_humans", ROOT, name) for name in ("board", "scoring"))
EMPTY, LEADER, Board = _board.EMPTY, _board.LEADER, _board.Board  # type: ignore[union-attr]
score_player = _scoring.score_player  # type: ignore[union-attr]


def random_board(rng: random.Random, rules, leader_ids: list[str], players: int) -> tuple[Board, str]:
    """A legal end-of-game board: columns filled from the bottom, up to the leader limit."""
    rows, cols = rules.rows(players), rules.stomach.columns
    tiles = list(rules.tiles)
    weights = [1.0 if rules.tiles[t].basic else 0.3 for t in tiles]
    full = rng.random() < 0.6
    heights = [rows if full else rng.randint(rows // 2, rows) for _ in range(cols)]
    cells = [EMPTY] * (rows * cols)
    filled = []
    for c, h in enumerate(heights):
        for r in range(rows - h, rows):
            cells[r * cols + c] = rng.choices(tiles, weights)[0]
            filled.append(r * cols + c)
    k = min(len(filled), rng.randint(1, rules.leaders_max(players)))
    leaders = {}
    for cell, lid in zip(rng.sample(filled, k), rng.sample(leader_ids, k)):
        cells[cell] = LEADER
        leaders[cell] = lid
    return Board(rows, cols, cells, leaders), rng.choice(list(rules.cravings))


def single_type_board(rng: random.Random, rules, tile: str, leader_ids: list[str], players: int) -> Board:
    """A full stomach of one basic type plus chain leaders (and a few others) at random cells."""
    rows, cols = rules.rows(players), rules.stomach.columns
    cells = [tile] * (rows * cols)
    others = [l for l in leader_ids if not l.startswith("chain-")]
    ids = ["chain-orthogonal", "chain-diagonal"] + rng.sample(others, rules.leaders_max(players) - 2)
    leaders = {}
    for cell, lid in zip(rng.sample(range(rows * cols), len(ids)), ids):
        cells[cell] = LEADER
        leaders[cell] = lid
    return Board(rows, cols, cells, leaders)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20000)
    parser.add_argument("--hard", type=int, default=400, help="single-type boards for the worst case")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default=None)
    args = parser.parse_args()

    game = load_game(Project(ROOT), "tasty-humans")
    rules = game.data["rules"].version(args.rules)
    leaders = {l.id: l for l in game.data["leaders"].leaders}
    ids = list(leaders)
    rng = random.Random(args.seed)
    counts = sorted(rules.stomach.rows_by_players)
    boards = [random_board(rng, rules, ids, counts[i % len(counts)]) for i in range(args.boards)]

    start = time.process_time()
    for board, monster in boards:
        score_player(board, monster, rules, leaders)
    spent = time.process_time() - start
    print(f"random legal boards: {len(boards)} in {spent:.2f} s CPU = {len(boards) / spent:,.0f} boards/s (target >= 20,000)")

    worst, worst_board = 0.0, None
    basic = rules.basic_types()
    for i in range(args.hard):
        board = single_type_board(rng, rules, basic[i % len(basic)], ids, counts[i % len(counts)])
        t = time.process_time()
        score_player(board, rng.choice(list(rules.cravings)), rules, leaders)
        dt = time.process_time() - t
        if dt > worst:
            worst, worst_board = dt, board
    print(f"worst of {args.hard} single-type full boards with both chain leaders: {worst * 1000:.1f} ms (target <= 50 ms)")
    if worst_board is not None:
        for r in range(worst_board.rows):
            print("   ", " ".join("L" if worst_board.at(r, c) == LEADER else worst_board.at(r, c)[0].upper() for c in range(worst_board.cols)))


if __name__ == "__main__":
    main()
