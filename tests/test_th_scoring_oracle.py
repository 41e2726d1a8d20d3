"""The bit-mask scorer against a deliberately naive one written straight from the notes'
table (plain lists, brute force), on many random boards of every player count."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from game_plugins import game_module

board_from_text = game_module("tasty_humans", "board").board_from_text
score_craving = game_module("tasty_humans", "craving_scoring").score_craving
score_leader = game_module("tasty_humans", "leader_scoring").score_leader
score_player = game_module("tasty_humans", "scoring").score_player

BASIC = ("H", "A", "B", "G")
ORTH = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))
LEADER = "L"


@pytest.fixture(scope="module")
def setting(repo_project):
    from pnp.load.content import load_game

    game = load_game(repo_project, "tasty-humans")
    rules = game.data["rules"].version("published")
    leaders = {leader.id: leader for leader in game.data["leaders"].leaders}
    return rules, leaders


def symbol_of(rules, tile_type: str) -> str:
    return "L" if tile_type == "leader" else rules.tiles[tile_type].symbol


# --- the naive scorer ----------------------------------------------------------------

def cells(grid):
    return [(r, c) for r in range(len(grid)) for c in range(len(grid[0]))]


def inside(grid, r, c):
    return 0 <= r < len(grid) and 0 <= c < len(grid[0])


def naive_leader(grid, r0, c0, leader, rules) -> int:
    kind, pts = leader.kind, leader.points
    target = symbol_of(rules, leader.type) if leader.type else None
    others = [(r, c) for r, c in cells(grid) if (r, c) != (r0, c0)]
    if kind == "line":
        return pts * sum(grid[r][c] == target for r, c in others if r == r0 or c == c0)
    if kind == "diagonal":
        return pts * sum(grid[r][c] == target for r, c in others if abs(r - r0) == abs(c - c0))
    if kind == "range":
        return pts * sum(grid[r][c] == target for r, c in others if abs(r - r0) + abs(c - c0) <= leader.distance)
    if kind == "feast":
        return pts * sum(
            grid[r][c] == target and any(inside(grid, r + dr, c + dc) and grid[r + dr][c + dc] == LEADER for dr, dc in ORTH)
            for r, c in cells(grid)
        )
    if kind == "sight":
        total = 0
        for dr, dc in ORTH + DIAG:
            k = 1
            while inside(grid, r0 + k * dr, c0 + k * dc):
                if grid[r0 + k * dr][c0 + k * dc] == target:
                    total += k
                    break
                k += 1
        return pts * total
    counts = [sum(grid[r][c] == t for r, c in cells(grid)) for t in BASIC]
    if kind == "least-type":
        return pts * min(counts)
    if kind == "most-minus-least":
        return pts * (max(counts) - min(counts))
    if kind == "leader-line":
        return pts * sum(grid[r][c] == LEADER for r, c in others if r == r0 or c == c0)
    if kind == "damage-line":
        return pts * sum(grid[r][c] == "D" for r, c in others if r == r0 or c == c0)
    if kind == "surround-majority":
        ring = [grid[r0 + dr][c0 + dc] for dr, dc in ORTH + DIAG if inside(grid, r0 + dr, c0 + dc)]
        return pts * max(ring.count(t) for t in BASIC)
    if kind in ("chain-orthogonal", "chain-diagonal"):
        steps = ORTH if kind == "chain-orthogonal" else DIAG
        best = 0

        def walk(r, c, seen):
            nonlocal best
            best = max(best, len(seen))
            for dr, dc in steps:
                n = (r + dr, c + dc)
                if inside(grid, *n) and n not in seen and grid[n[0]][n[1]] == grid[r][c]:
                    walk(*n, seen | {n})

        for dr, dc in steps:
            r, c = r0 + dr, c0 + dc
            if inside(grid, r, c) and grid[r][c] in BASIC:
                walk(r, c, {(r, c)})
        return pts * best
    if kind == "rows-all-four":
        return pts * sum(set(BASIC) <= set(row) for row in grid)
    if kind == "columns-all-four":
        return pts * sum(set(BASIC) <= {row[c] for row in grid} for c in range(len(grid[0])))
    raise AssertionError(kind)


def naive_craving(grid, monster, rules) -> int:
    pts = rules.cravings[monster].points
    rows, cols = len(grid), len(grid[0])
    if monster == "legendary-dragon":
        return pts * sum(
            grid[r][c] in BASIC and grid[r][c] == grid[r + 1][c] == grid[r][c + 1] == grid[r + 1][c + 1]
            for r in range(rows - 1) for c in range(cols - 1)
        )
    if monster == "twin-headed-dragon":
        return pts * sum(row[0] in BASIC and row[0] == row[-1] for row in grid)
    if monster == "troll":
        return pts * sum(grid[r][c] == "H" and grid[r + 1][c] == "A" and grid[r + 2][c] == "B" for r in range(rows - 2) for c in range(cols))
    if monster == "griffin":
        runs = []
        for r, c in cells(grid):
            for dr, dc in ((0, 1), (1, 0)):
                run = [(r + k * dr, c + k * dc) for k in range(4)]
                if not all(inside(grid, *p) for p in run):
                    continue
                x, y, x2, y2 = (grid[p][q] for p, q in run)
                if x in BASIC and y in BASIC and x != y and x2 == x and y2 == y:
                    runs.append(set(run))
        for size in range(len(runs), 0, -1):
            if any(all(a.isdisjoint(b) for a, b in combinations(pick, 2)) for pick in combinations(runs, size)):
                return pts * size
        return 0
    raise AssertionError(monster)


def naive_damage(grid) -> int:
    return sum(
        grid[r][c] == "D" and any(inside(grid, r + dr, c + dc) and grid[r + dr][c + dc] == "D" for dr, dc in ORTH)
        for r, c in cells(grid)
    )


# --- random boards -------------------------------------------------------------------

def random_board(rng: random.Random, rows: int, cols: int, leader_ids: list[str], max_leaders: int):
    """A gravity-respecting stomach, tiles drawn with a bias so that patterns occur."""
    weights = rng.choice([(1, 1, 1, 1, 0.6), (4, 1, 1, 1, 0.3), (3, 3, 0.2, 0.2, 0.2)])
    grid = [["."] * cols for _ in range(rows)]
    filled = []
    for c in range(cols):
        height = rows if rng.random() < 0.5 else rng.randint(0, rows)
        for r in range(rows - height, rows):
            grid[r][c] = rng.choices(BASIC + ("D",), weights)[0]
            filled.append((r, c))
    spots = rng.sample(filled, min(len(filled), rng.randint(0, max_leaders)))
    chosen = rng.sample(leader_ids, len(spots))
    placed = {}
    for slot, ((r, c), lid) in enumerate(zip(spots, chosen), start=1):
        grid[r][c] = str(slot)
        placed[(r, c)] = lid
    return grid, placed


@pytest.mark.parametrize("seed", range(8))
def test_scorer_agrees_with_the_naive_reading_of_the_notes(setting, seed):
    rules, leaders = setting
    rng = random.Random(seed)
    symbols = rules.symbol_to_tile()
    for _ in range(40):
        players = rng.choice(sorted(rules.stomach.rows_by_players))
        rows, cols = rules.rows(players), rules.stomach.columns
        grid, placed = random_board(rng, rows, cols, sorted(leaders), rules.leaders_max(players))
        text = "\n".join(" ".join(row) for row in grid)
        slots = {str(i): lid for i, lid in enumerate(placed.values(), start=1)}
        board = board_from_text(text, symbols, slots)
        plain = [["L" if cell.isdigit() else cell for cell in row] for row in grid]
        for (r, c), lid in placed.items():
            got = score_leader(board, r * cols + c, leaders[lid], rules)
            assert got == naive_leader(plain, r, c, leaders[lid], rules), (lid, (r, c), text)
        for monster in rules.cravings:
            assert score_craving(board, monster, rules) == naive_craving(plain, monster, rules), (monster, text)
        total = score_player(board, "troll", rules, leaders, king=True)
        expected = (
            sum(naive_leader(plain, r, c, leaders[lid], rules) for (r, c), lid in placed.items())
            + naive_craving(plain, "troll", rules)
            - rules.damage_penalty * naive_damage(plain)
            + rules.king_bonus
        )
        assert total.total == expected, text
