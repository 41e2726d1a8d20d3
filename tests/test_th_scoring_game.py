"""Tasty Humans cravings, penalties, tie-breaks of both rule versions, solo mode and the
solo challenges, on hand-computed boards."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.load.content import Project, load_game
from game_plugins import game_module

_board = game_module("tasty_humans", "board")
Board, board_from_text = _board.Board, _board.board_from_text
_craving_scoring = game_module("tasty_humans", "craving_scoring")
CHALLENGES, max_disjoint, score_craving = _craving_scoring.CHALLENGES, _craving_scoring.max_disjoint, _craving_scoring.score_craving
_scoring = game_module("tasty_humans", "scoring")
LeaderScore, PlayerScore, ai_score, rank_players, score_player, score_solo = _scoring.LeaderScore, _scoring.PlayerScore, _scoring.ai_score, _scoring.rank_players, _scoring.score_player, _scoring.score_solo

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def game():
    return load_game(Project(REPO), "tasty-humans")


@pytest.fixture(scope="module")
def published(game):
    return game.data["rules"].version("published")


@pytest.fixture(scope="module")
def v028(game):
    return game.data["rules"].version("0.2.8")


@pytest.fixture(scope="module")
def defs(game):
    return {l.id: l for l in game.data["leaders"].leaders}


def make(rules, text: str, *ids: str) -> Board:
    return board_from_text(text, rules.symbol_to_tile(), {str(i + 1): lid for i, lid in enumerate(ids)})


# --- cravings ------------------------------------------------------------------------


def test_legendary_dragon_overlapping_squares_each_count(published):
    board = make(published, """
        H H H . . .
        H H H . . .
        H H H A A .
        D D B A A 1
    """, "line-hand")
    # a 3x3 of helmets holds four 2x2 squares; one armor square; damage never counts
    assert score_craving(board, "legendary-dragon", published) == 5 * 5


def test_legendary_dragon_without_overlap_counts_disjoint_squares(published):
    rules = published.model_copy(update={"cravings": {**published.cravings, "legendary-dragon": published.cravings["legendary-dragon"].model_copy(update={"overlap": False})}})
    board = make(published, "H H H\nH H H\nH H H")
    assert score_craving(board, "legendary-dragon", rules) == 5 * 1


def test_legendary_dragon_ignores_leaders_and_damage(published):
    board = make(published, "1 H . .\nH H . .\nD D . .\nD D . .", "line-hand")
    assert score_craving(board, "legendary-dragon", published) == 0


def test_twin_headed_dragon_rows(published):
    board = make(published, """
        H A B G A H
        A . . . . A
        D . . . . D
        1 . . . . 1
        G . . . . B
    """, "line-hand")
    # rows 0 and 1 match; damage and leader pairs are not basic tiles
    assert score_craving(board, "twin-headed-dragon", published) == 3 * 2


def test_griffin_counts_disjoint_runs_where_greedy_fails(published):
    board = make(published, """
        H B H B . .
        B . . H . .
        H . . B . .
        B . . H . .
    """)
    # the top row crosses both columns; taking the two columns scores 2, not 1
    assert score_craving(board, "griffin", published) == 3 * 2


def test_griffin_run_of_six_scores_once_and_same_type_never(published):
    assert score_craving(make(published, "H A H A H A"), "griffin", published) == 3
    assert score_craving(make(published, "H H H H . ."), "griffin", published) == 0
    assert score_craving(make(published, "H A D A H A"), "griffin", published) == 0
    assert score_craving(make(published, "H A 1 A H A", "line-hand"), "griffin", published) == 0


def test_max_disjoint():
    assert max_disjoint([0b0011, 0b0110, 0b1100]) == 2
    assert max_disjoint([0b111, 0b1, 0b10, 0b100]) == 3
    assert max_disjoint([]) == 0


def test_troll_points_differ_by_version(published, v028):
    board = make(published, """
        H . . . . .
        A . . . H .
        B . . . A .
        H . . . B .
        A . . . . .
        B . . . . .
    """)
    assert score_craving(board, "troll", published) == 4 * 3
    assert score_craving(board, "troll", v028) == 3 * 3
    assert score_craving(make(published, "B\nA\nH"), "troll", published) == 0


def test_damage_penalty_only_for_touching_damage(published, defs):
    board = make(published, """
        D . D . . .
        D D . D . .
        . . D . . 1
    """, "line-hand")
    score = score_player(board, "troll", published, defs)
    # (0,0) (1,0) (1,1) touch each other; the others only touch diagonally
    assert (score.damage_tiles, score.damage_adjacent, score.damage_points) == (6, 3, -3)


def test_king_bonus_multiplayer_only(published, defs):
    board = make(published, "H 1\nA A", "line-hand")
    assert score_player(board, "troll", published, defs, king=True).king_points == 2
    assert score_player(board, "troll", published, defs, king=True, solo=True).king_points == 0
    assert score_player(board, "troll", published, defs, king=False).king_points == 0


# --- tie-breaks ------------------------------------------------------------------------


def player(name: str, seat: int, total: int, *, damage: int = 0, leaders=(), empty: int = 0, king: bool = False) -> PlayerScore:
    """A score of `total` with the given tie-break facts (leader points included in total)."""
    items = tuple(LeaderScore(f"l{i}", f"L{i}", "line", p, 1, i + 1) for i, p in enumerate(leaders))
    return PlayerScore(name, seat, "troll", items, total - sum(leaders), damage, 0, 0, king, 0, empty)


def test_clear_winner_is_decided_by_score(published):
    r = rank_players([player("Ana", 0, 40), player("Bo", 1, 41)], published)
    assert (r.winners, r.decided_by) == (("Bo",), "score")
    assert [(place, p.name) for place, p in r.places] == [(1, "Bo"), (2, "Ana")]


def test_published_fewer_damage(published):
    r = rank_players([player("Ana", 0, 40, damage=3), player("Bo", 1, 40, damage=2), player("Cy", 2, 39)], published)
    assert (r.winners, r.decided_by) == (("Bo",), "fewer-damage")


def test_published_lowest_leader_then_next(published):
    r = rank_players([player("Ana", 0, 40, leaders=(4, 10, 12)), player("Bo", 1, 40, leaders=(20, 5, 6))], published)
    assert (r.winners, r.decided_by) == (("Bo",), "leaders-ascending")
    r = rank_players([player("Ana", 0, 40, leaders=(4, 9, 12)), player("Bo", 1, 40, leaders=(4, 8, 20))], published)
    assert (r.winners, r.decided_by) == (("Ana",), "leaders-ascending")


def test_published_shared_victory(published):
    r = rank_players([player("Ana", 0, 40, leaders=(4, 9)), player("Bo", 1, 40, leaders=(9, 4)), player("Cy", 2, 10)], published)
    assert (r.winners, r.decided_by) == (("Ana", "Bo"), "shared")
    assert [place for place, _ in r.places] == [1, 1, 3]


def test_published_compares_up_to_the_leader_limit(published):
    # 4 players: at most 4 leaders compared; the fifth (impossible on a real board) is ignored
    ps = [player(n, i, 40, leaders=(1, 2, 3, 4, extra)) for i, (n, extra) in enumerate([("A", 9), ("B", 5), ("C", 0), ("D", 0)])]
    ps[2] = player("C", 2, 30)
    ps[3] = player("D", 3, 30)
    r = rank_players(ps, published)
    assert (r.winners, r.decided_by) == (("A", "B"), "shared")


def test_v028_fewer_damage_then_fewer_empty(v028):
    r = rank_players([player("Ana", 0, 40, damage=1), player("Bo", 1, 40, damage=2)], v028)
    assert (r.winners, r.decided_by) == (("Ana",), "fewer-damage")
    r = rank_players([player("Ana", 0, 40, empty=3), player("Bo", 1, 40, empty=1)], v028)
    assert (r.winners, r.decided_by) == (("Bo",), "fewer-empty")


def test_v028_seat_order_clockwise_from_the_king(v028):
    ps = [player("Ana", 0, 40), player("Bo", 1, 30, king=True), player("Cy", 2, 40)]
    r = rank_players(ps, v028)
    # Cy sits one seat clockwise of the king holder Bo, Ana two
    assert (r.winners, r.decided_by) == (("Cy",), "seat-from-king")
    ps = [player("Ana", 0, 40), player("Bo", 1, 40, king=True), player("Cy", 2, 40)]
    assert rank_players(ps, v028).winners == ("Bo",)
    assert [p.name for _, p in rank_players(ps, v028).places] == ["Bo", "Cy", "Ana"]


# --- solo --------------------------------------------------------------------------


def _cards(game, **wanted: int):
    """The first N adventurers of each class."""
    out = []
    for klass, n in wanted.items():
        out += [a for a in game.data["adventurers"].adventurers if a.class_ == klass][:n]
    return out


def test_ai_score_worked_example(game, published):
    # 1 wizard, 3 archers, 0 swordsmen, 0 clerics, 2 captains -> 1 + 9 + 4 = 14, plus shapes
    cards = _cards(game, wizard=1, archer=3, captain=2, peasant=2)
    classes, squares, shapes = ai_score(cards, published)
    assert squares == 14
    assert shapes == sum(a.size() for a in cards)  # peasants' shapes count too
    assert classes == {"archer": 3, "wizard": 1, "captain": 2, "peasant": 2}


def _solo_player(total: int, leaders=(12, 14)) -> PlayerScore:
    return player("Ana", 0, total, leaders=leaders)


def test_solo_wins_on_an_equal_score(game, published):
    cards = _cards(game, wizard=1, archer=3, captain=2)
    ai = 14 + sum(a.size() for a in cards)
    board = make(published, "H")
    assert score_solo(_solo_player(ai), board, published, 2, cards).won
    assert not score_solo(_solo_player(ai - 1), board, published, 2, cards).won
    assert score_solo(_solo_player(ai), board, published, 2, cards).ai_total == ai


def test_balanced_diet(game, published):
    board = make(published, "H")
    cards = _cards(game, archer=1)  # A.I.: 1 + shape size
    low_ai = 1 + cards[0].size()
    s = score_solo(_solo_player(50, leaders=(12, 14)), board, published, 0, cards, "balanced-diet/normal")
    assert s.challenge_met and "every leader scored at least 12" in s.challenge_reason
    s = score_solo(_solo_player(50, leaders=(12, 14)), board, published, 0, cards, "balanced-diet/expert")
    assert not s.challenge_met and s.challenge_reason == "below 14: L0 scored 12"
    s = score_solo(_solo_player(low_ai - 1, leaders=(1,)), board, published, 0, cards, "balanced-diet/beginner")
    assert not s.challenge_met and "below 10" in s.challenge_reason
    # every leader high enough, but the A.I. scored more
    s = score_solo(_solo_player(low_ai - 1, leaders=()), board, published, 0, cards, "balanced-diet/beginner")
    assert not s.won and not s.challenge_met and f"but {low_ai - 1} < A.I. {low_ai}" in s.challenge_reason


def _monster_verdict(published, monster: str, text: str, *ids: str) -> tuple[bool, str]:
    return CHALLENGES[monster](make(published, text, *ids), published)


SHARE = "the two may share tiles: pnp's reading of F289/F293 (rules.yaml rulings.challenge_overlap)"


def test_dragon_challenge_needs_two_2x3_blocks_which_may_overlap(published):
    """F289 is silent on shared tiles (rulings.challenge_overlap): a 2x4 block holds two
    2x3 blocks, a 3x3 block four; one 2x3 block alone is not enough."""
    met, why = _monster_verdict(published, "legendary-dragon", """
        H H H . . .
        H H H . . .
        . . . . A A
        . . . . A A
        . . . . A A
    """)
    assert met, why
    met, why = _monster_verdict(published, "legendary-dragon", "H H H H\nH H H H")
    assert met and why == f"2 2x3 blocks of one type, need 2 ({SHARE})"
    assert _monster_verdict(published, "legendary-dragon", "H H H\nH H H\nH H H")[1].startswith("4 2x3 blocks")
    met, why = _monster_verdict(published, "legendary-dragon", "H H H A\nH H H A")
    assert not met and why == f"1 2x3 block of one type, need 2 ({SHARE})"


def test_twin_challenge_every_row_and_all_types(published):
    rows = "H . H\nA . A\nB . B\nG . G\nH . H\nH . H"
    assert _monster_verdict(published, "twin-headed-dragon", rows)[0]
    met, why = _monster_verdict(published, "twin-headed-dragon", rows.replace("G . G", "H . H"))
    assert not met and "hand" in why
    met, why = _monster_verdict(published, "twin-headed-dragon", rows.replace("G . G", "G . H"))
    assert not met and why.startswith("5 of 6 rows")


def test_griffin_challenge_two_runs_of_six(published):
    assert _monster_verdict(published, "griffin", "H A H A H A\nB G B G B G")[0]
    # a row and a column of six always share a tile; F293 does not forbid it
    # (rulings.challenge_overlap), F315's rule is the craving's groups of four
    board = """
        H A H A H A
        A . . . . .
        H . . . . .
        A . . . . .
        H . . . . .
        A . . . . .
    """
    met, why = _monster_verdict(published, "griffin", board)
    assert met and why == f"2 alternating runs of 6, need 2 ({SHARE})"
    met, why = _monster_verdict(published, "griffin", board.replace("H . . . . .\n        A . . . . .\n    ", "H . . . . .\n        H . . . . .\n    "))
    assert not met and why == f"1 alternating run of 6, need 2 ({SHARE})"


def test_troll_challenge_hands_beside_the_armor(published):
    board = """
        . H . . H .
        G A G G A G
        . B . . B .
    """
    assert _monster_verdict(published, "troll", board)[0]
    # the board edge is not a hand
    met, why = _monster_verdict(published, "troll", "H . . H .\nA G G A G\nB . . B .")
    assert not met and why.startswith("1 stack")


def test_monster_challenge_also_needs_the_win(game, published):
    board = make(published, "H A H A H A\nB G B G B G")
    cards = _cards(game, archer=3)
    ai = 9 + sum(a.size() for a in cards)
    p = PlayerScore("Ana", 0, "griffin", (), ai - 1, 0, 0, 0, False, 0, 0)
    s = score_solo(p, board, published, 3, cards, "monster")
    assert not s.won and s.challenge_met is False and "but" in s.challenge_reason
    p = PlayerScore("Ana", 0, "griffin", (), ai, 0, 0, 0, False, 0, 0)
    assert score_solo(p, board, published, 3, cards, "monster").challenge_met
