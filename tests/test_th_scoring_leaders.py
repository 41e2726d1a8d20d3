"""Tasty Humans leader scoring: every kind on hand-computed boards, the rules' worked
examples, exact chains, and properties of random legal boards."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import RULE_BOOKS
from pnp.load.content import Project, load_game
from game_plugins import game_module

_board = game_module("tasty_humans", "board")
EMPTY, LEADER, Board, bits, board_from_text, geometry, longest_path = _board.EMPTY, _board.LEADER, _board.Board, _board.bits, _board.board_from_text, _board.geometry, _board.longest_path
score_craving = game_module("tasty_humans", "craving_scoring").score_craving
_leader_scoring = game_module("tasty_humans", "leader_scoring")
KINDS, score_leader = _leader_scoring.KINDS, _leader_scoring.score_leader
score_player = game_module("tasty_humans", "scoring").score_player

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def game():
    return load_game(Project(REPO), "tasty-humans")


@pytest.fixture(scope="module")
def rules(game):
    return game.data["rules"].version("published")


@pytest.fixture(scope="module")
def defs(game):
    return {l.id: l for l in game.data["leaders"].leaders}


def make(rules, text: str, *ids: str) -> Board:
    """Board from rows; digits 1, 2, ... are the leaders `ids` in order."""
    return board_from_text(text, rules.symbol_to_tile(), {str(i + 1): lid for i, lid in enumerate(ids)})


def leader_points(rules, defs, text: str, *ids: str, which: int = 0) -> int:
    """Points of leader number `which + 1` on the board."""
    board = make(rules, text, *ids)
    cell = next(c for c, lid in board.leaders.items() if lid == ids[which])
    return score_leader(board, cell, defs[ids[which]], rules)


def test_every_kind_has_a_scorer(defs):
    assert {l.kind for l in defs.values()} == set(KINDS)


def test_line_counts_row_and_column_from_the_border(rules, defs):
    board = """
        1 G G . . H
        G G . . . .
        H . . . . .
        G . . . . .
        . . . . . .
        D . . . . .
    """
    # row: 2 hands, column: 2 hands; (1,1) is diagonal, not in line
    assert leader_points(rules, defs, board, "line-hand") == 2 * 4


def test_diagonal_any_distance_both_diagonals(rules, defs):
    board = """
        G . . . G .
        . A . . . .
        . . 1 G . .
        . . . . . .
        G . . . G .
        . . . . . .
    """
    assert leader_points(rules, defs, board, "diagonal-hand") == 2 * 4


def test_range_is_manhattan_distance_and_stops_at_the_edge(rules, defs):
    board = """
        . . B B . 1
        . . . . B B
        . . . . B B
        . . . . . .
    """
    # (0,3) d2, (1,4) d2, (1,5) d1, (2,5) d2 count; (0,2) and (2,4) are 3 steps away
    assert leader_points(rules, defs, board, "range-boot") == 2 * 4


def test_feast_counts_each_tile_once_next_to_any_leader(rules, defs):
    board = """
        . . . . . .
        . . . . . .
        . . G . . .
        . 1 G 2 . .
        . G A G . .
        G G . . . .
    """
    # (3,2) touches both leaders but counts once; (2,2) is only diagonal
    assert leader_points(rules, defs, board, "feast-hand", "line-boot") == 2 * 3


def test_sight_sums_the_eight_rays(rules, defs):
    board = """
        . . G . G .
        . G . . . .
        G H 1 . . .
        . . . . . .
        . . G . . .
        . . G . . G
    """
    # up 2, down 2 (nearest), left 2 (past a helmet), right 0, up-left 1, up-right 2,
    # down-left 0, down-right 3
    assert leader_points(rules, defs, board, "sight-hand") == 12


def test_sight_leader_sees_other_leaders_past_tiles(rules, defs):
    board = """
        3 . . . . .
        . . . . . .
        . . 1 G . 2
        . . . . . .
        . . . . . .
        . . . . . 4
    """
    assert leader_points(rules, defs, board, "sight-leader", "line-hand", "line-boot", "line-armor") == 2 + 3 + 3


def test_sight_nothing_in_sight_is_zero(rules, defs):
    assert leader_points(rules, defs, "1 A\nA A", "sight-hand") == 0


def _counted_board(rules, leader_id: str, counts: dict[str, int], rows: int, cols: int = 6) -> Board:
    """A board holding `counts` tiles of each type plus the leader, row by row."""
    sym = {v: k for k, v in rules.symbol_to_tile().items()}
    cells = "".join(sym[t] * n for t, n in counts.items()) + "1"
    cells += "." * (rows * cols - len(cells))
    return make(rules, [cells[r * cols:(r + 1) * cols] for r in range(rows)], leader_id)


def _only_leader(rules, defs, board: Board) -> int:
    (cell, lid), = board.leaders.items()
    return score_leader(board, cell, defs[lid], rules)


def test_least_type_worked_example(rules, defs):
    # "10 Helmets, 12 Hands, 19 Boots, and 5 Armor; you receive 10 points" (46 tiles:
    # more than a stomach holds, so on a taller grid; the leader does not care).
    board = _counted_board(rules, "least-type", {"helmet": 10, "hand": 12, "boot": 19, "armor": 5, "damage": 1}, rows=8)
    assert _only_leader(rules, defs, board) == 10


# Every worked example of a leader's points in both rule books, at the line it is printed
# on: (book, line, the example as printed, leader, tile counts, version, points).
BOOK_EXAMPLES = [
    ("tasty-humans-rules-final.txt", 332, "If you have 10 Helmets, 12 Hands, 19 Boots, and 5 Armor; you receive 10 points",
     "least-type", {"helmet": 10, "hand": 12, "boot": 19, "armor": 5}, "published", 10),
    ("tasty-humans-rules-0.2.8.txt", 310, "if you have 10 Helmets, 12 Hands, 19 Boots, 5 Armor, and 3 Damage, you would receive 10 points",
     "least-type", {"helmet": 10, "hand": 12, "boot": 19, "armor": 5, "damage": 3}, "0.2.8", 10),
    ("tasty-humans-rules-final.txt", 356, "If you have 19 Boots and 3 Armor, you'd have 16 points",
     "most-minus-least", {"helmet": 5, "hand": 5, "boot": 19, "armor": 3}, "published", 16),
    ("tasty-humans-rules-0.2.8.txt", 346, "if you have 10 Helmets, 12 Hands, 19 Boots, 7 Armor, and 3 Damage, you would receive 12 points",
     "most-minus-least", {"helmet": 10, "hand": 12, "boot": 19, "armor": 7, "damage": 3}, "0.2.8", 12),
]


@pytest.mark.parametrize("book, line, example, leader, counts, version, points", BOOK_EXAMPLES)
def test_the_rule_books_worked_examples(game, defs, book, line, example, leader, counts, version, points):
    """The example is printed at the line cited (the rule books are $PNP_RULE_BOOKS), and the
    scorer gives its points under that version (46+ tiles: a taller grid than a stomach)."""
    path = RULE_BOOKS / book
    if not path.is_file():
        pytest.skip(f"rule book {path} not here")
    assert example in path.read_text(encoding="utf-8").splitlines()[line - 1]
    rules = game.data["rules"].version(version)
    assert _only_leader(rules, defs, _counted_board(rules, leader, counts, rows=10)) == points


@pytest.mark.parametrize("book, line, version", [("tasty-humans-rules-final.txt", 352, "published"),
                                                 ("tasty-humans-rules-0.2.8.txt", 340, "0.2.8")])
def test_the_surround_examples(game, defs, book, line, version):
    """Both books' Crowd Favourite example scores 10, 2 x the 5 boots; 0.2.8's puts 10 tiles
    in eight spaces (leaders.yaml lists the contradiction), so its boots are kept, 5 of 8."""
    path = RULE_BOOKS / book
    if not path.is_file():
        pytest.skip(f"rule book {path} not here")
    assert "5 Boots" in path.read_text(encoding="utf-8").splitlines()[line - 1] and "10 points" in path.read_text(encoding="utf-8").splitlines()[line - 1]
    rules = game.data["rules"].version(version)
    assert leader_points(rules, defs, "H A A\nB 1 B\nB B B", "surround-majority") == 10


def test_least_type_a_missing_type_gives_zero(rules, defs):
    assert leader_points(rules, defs, "H A B 1\nH A B B", "least-type") == 0


def test_most_minus_least_worked_examples(rules, defs):
    # 0.2.8: 10 helmets, 12 hands, 19 boots, 7 armor, 3 damage -> 12
    board = _counted_board(rules, "most-minus-least", {"helmet": 10, "hand": 12, "boot": 19, "armor": 7, "damage": 3}, rows=9)
    assert _only_leader(rules, defs, board) == 12
    # published: 19 boots and 3 armor -> 16
    board = _counted_board(rules, "most-minus-least", {"helmet": 5, "hand": 5, "boot": 19, "armor": 3}, rows=6)
    assert _only_leader(rules, defs, board) == 16


def test_leader_line_and_damage_line(rules, defs):
    board = """
        . . . 2 . .
        . 3 . . . .
        . . . . . .
        4 . . 1 . D
        . . . D . .
        . . . 5 . .
    """
    ids = ("leader-line", "line-hand", "line-boot", "line-armor", "line-helmet")
    assert leader_points(rules, defs, board, *ids) == 4 * 3
    ids = ("damage-line", "line-hand", "line-boot", "line-armor", "line-helmet")
    assert leader_points(rules, defs, board, *ids) == 3 * 2


def test_damage_line_from_a_corner_with_the_penalty_still_applied(rules, defs):
    board = make(rules, """
        D . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
        . . . . . .
        1 D D . D .
    """, "damage-line")
    score = score_player(board, "troll", rules, defs)
    assert score.leaders[0].points == 3 * 4  # (0,0) in the column, three in the row
    assert (score.damage_tiles, score.damage_adjacent, score.damage_points) == (4, 2, -2)


def test_surround_majority_worked_example(rules, defs):
    # "1 Helmet, 2 Armor, and 5 Boots" around the leader -> 10
    assert leader_points(rules, defs, "H A A .\nB 1 B .\nB B B .", "surround-majority") == 10


def test_surround_majority_corner_ties_and_non_basic(rules, defs):
    # off the board counts as nothing; a tie still scores the shared count
    assert leader_points(rules, defs, "1 H\nA A", "surround-majority") == 2 * 2
    assert leader_points(rules, defs, "1 H\nA D", "surround-majority") == 2 * 1
    # damage and leaders are not a basic type, however many
    assert leader_points(rules, defs, "D D D\nD 1 2\nD D G", "surround-majority", "line-hand") == 2 * 1


def test_chain_orthogonal_beats_greedy(rules, defs):
    # Warnsdorff's greedy rule steps into the dead end (1,1) first (fewest onward
    # moves) and stops at 2; the longest chain runs along the top row: 5.
    board = """
        1 H H H H H
        . H . . . .
    """
    assert leader_points(rules, defs, board, "chain-orthogonal") == 2 * 5


def test_chain_orthogonal_picks_the_best_start_and_type(rules, defs):
    board = """
        H 1 . . . .
        . H H H H .
        . . . . H .
        A A A A A A
    """
    assert leader_points(rules, defs, board, "chain-orthogonal") == 2 * 5


def test_chain_diagonal(rules, defs):
    board = """
        H . H . . .
        . 1 . H . .
        H . H . H .
        . . . H . H
    """
    assert leader_points(rules, defs, board, "chain-diagonal") == 2 * 6


def test_chain_none_adjacent_is_zero(rules, defs):
    assert leader_points(rules, defs, "D 1 D\n. D .", "chain-orthogonal") == 0
    assert leader_points(rules, defs, "D H D\nH 1 H", "chain-diagonal") == 0  # helmets only orthogonal


def _brute_longest(geo, start: int, allowed: int, diagonal: bool) -> int:
    nbr = geo.diag if diagonal else geo.orth
    best = 0

    def walk(head: int, seen: int, length: int) -> None:
        nonlocal best
        best = max(best, length)
        for c in bits(nbr[head] & allowed & ~seen):
            walk(c, seen | 1 << c, length + 1)

    walk(start, 1 << start, 1)
    return best


@pytest.mark.parametrize("seed", range(6))
def test_longest_path_is_exact_against_brute_force(seed):
    rng = random.Random(seed)
    for _ in range(60):
        rows, cols = rng.choice([(3, 4), (4, 4), (3, 6), (4, 5)])
        geo = geometry(rows, cols)
        allowed = sum(1 << i for i in range(rows * cols) if rng.random() < rng.uniform(0.5, 1.0))
        if not allowed:
            continue
        start = rng.choice(list(bits(allowed)))
        diagonal = rng.random() < 0.5
        assert longest_path(geo, 1 << start, allowed, diagonal) == _brute_longest(geo, start, allowed, diagonal)


def _is_chain(board: Board, leader_cell: int, path: list[tuple[int, int]], diagonal: bool) -> bool:
    cells = [r * board.cols + c for r, c in path]
    nbr = board.geo.diag if diagonal else board.geo.orth
    kind = board.cells[cells[0]]
    return (
        len(set(cells)) == len(cells)
        and all(board.cells[c] == kind for c in cells)
        and nbr[leader_cell] >> cells[0] & 1
        and all(nbr[a] >> b & 1 for a, b in zip(cells, cells[1:]))
    )


def test_single_type_full_stomach_scores_fast_and_exact(rules, defs):
    board = make(rules, """
        H H H H H H
        H 1 H H 3 H
        H H H H H H
        H H 4 H H H
        H H H H 2 H
        5 H H H H H
    """, "chain-orthogonal", "chain-diagonal", "line-helmet", "sight-helmet", "feast-helmet")
    t = time.process_time()
    score = score_player(board, "legendary-dragon", rules, defs)
    assert time.process_time() - t < 0.5
    points = {l.id: l.points for l in score.leaders}
    # Orthogonal: 31 helmets, 16 of one checkerboard colour and 15 of the other; the
    # chain starts next to (1,1), on the colour of 15, and alternates: at most 30.
    witness = [(0, 1), (0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 3), (0, 4),
               (0, 5), (1, 5), (2, 5), (2, 4), (2, 3), (3, 3), (3, 4), (3, 5), (4, 5), (5, 5),
               (5, 4), (5, 3), (4, 3), (4, 2), (5, 2), (5, 1), (4, 1), (3, 1), (3, 0), (4, 0)]
    assert _is_chain(board, 1 * 6 + 1, witness, diagonal=False)
    assert points["chain-orthogonal"] == 2 * 30
    # Diagonal: 16 helmets share the leader's colour; (0,0) and (5,5) touch only leaders,
    # and of the four cells with a single way in, (0,2) (2,0) (3,5) (5,3), a chain uses
    # at most its two ends: 16 - 2 - 2 = 12.
    witness = [(3, 5), (2, 4), (1, 5), (0, 4), (1, 3), (2, 2), (3, 3), (4, 2), (5, 1), (4, 0), (3, 1), (2, 0)]
    assert _is_chain(board, 4 * 6 + 4, witness, diagonal=True)
    assert points["chain-diagonal"] == 2 * 12


def test_rows_and_columns_all_four(rules, defs):
    board = """
        H A B G 1 .
        H A B D G G
        A B G H A A
        G H A B B H
    """
    # every row holds all four basic types; no column does (0: no boot, 1: no hand,
    # 2: no helmet, 3: no armor, 4: no helmet, 5: no boot)
    assert leader_points(rules, defs, board, "rows-all-four") == 3 * 4
    assert leader_points(rules, defs, board, "columns-all-four") == 0
    board = """
        H A . . . 1
        A B . . . .
        B G . . . .
        G H . . . .
    """
    assert leader_points(rules, defs, board, "columns-all-four") == 3 * 2
    assert leader_points(rules, defs, board, "rows-all-four") == 0


# --- properties of random legal boards --------------------------------------------


@st.composite
def legal_boards(draw, rules_, leader_ids):
    """A gravity-respecting board for a random player count with a legal leader count."""
    players = draw(st.sampled_from(sorted(rules_.stomach.rows_by_players)))
    rows, cols = rules_.rows(players), rules_.stomach.columns
    tiles = list(rules_.tiles)
    cells = [EMPTY] * (rows * cols)
    filled = []
    for c in range(cols):
        h = draw(st.integers(0, rows))
        for r in range(rows - h, rows):
            cells[r * cols + c] = draw(st.sampled_from(tiles))
            filled.append(r * cols + c)
    k = draw(st.integers(0, min(len(filled), rules_.leaders_max(players))))
    spots = draw(st.permutations(filled))[:k]
    ids = draw(st.permutations(leader_ids))[:k]
    leaders = {}
    for cell, lid in zip(spots, ids):
        cells[cell] = LEADER
        leaders[cell] = lid
    monster = draw(st.sampled_from(sorted(rules_.cravings)))
    return Board(rows, cols, cells, leaders), monster, players


def _setup():
    game = load_game(Project(REPO), "tasty-humans")
    rule_set = game.data["rules"]
    return game, rule_set, {l.id: l for l in game.data["leaders"].leaders}


_GAME, _RULE_SET, _DEFS = _setup()
_PUBLISHED = _RULE_SET.version("published")


@settings(max_examples=150, deadline=None)
@given(data=legal_boards(_PUBLISHED, sorted(_DEFS)), version=st.sampled_from(_RULE_SET.names()), king=st.booleans())
def test_random_boards_total_is_the_sum_of_the_parts(data, version, king):
    board, monster, players = data
    rules = _RULE_SET.version(version)
    score = score_player(board, monster, rules, _DEFS, king=king and board.is_full, solo=players == 1)
    assert score.total == sum(l.points for l in score.leaders) + score.craving + score.damage_points + score.king_points
    assert len(score.leaders) == len(board.leaders)
    assert all(l.points >= 0 for l in score.leaders) and score.craving >= 0 and score.damage_points <= 0
    if players == 1:
        assert score.king_points == 0


@settings(max_examples=150, deadline=None)
@given(data=legal_boards(_PUBLISHED, sorted(_DEFS)))
def test_mirroring_left_right_changes_no_score(data):
    board, monster, _ = data
    mirror = board.mirrored()
    for cell, lid in board.leaders.items():
        flipped = next(c for c, other in mirror.leaders.items() if other == lid)
        assert score_leader(board, cell, _DEFS[lid], _PUBLISHED) == score_leader(mirror, flipped, _DEFS[lid], _PUBLISHED), lid
    for m in _PUBLISHED.cravings:
        assert score_craving(board, m, _PUBLISHED) == score_craving(mirror, m, _PUBLISHED), m
