"""Dietrick-taking end-of-game scoring: every winner rule and every sheet error.

The printed numbers (scoring.yaml), with the cards in the order 1 2 3 4:
    yellow (top):    1 3 2 4 | 3 5 4 6 | 5 7 6 8 | 8 10 9 11
    blue (bottom):   2 4 1 3 | 5 3 6 4 | 6 8 5 7 | 9 8 11 10
A position is the number of squares a marker moved, so position 1 is the first square.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from conftest import RULE_BOOKS
from pnp.load.content import Project, load_game
from pnp.errors import PnpError
from pnp.load.yamlio import parse_located
from game_plugins import game_module

S = game_module("dietrick_taking", "scoring")
Report = game_module("dietrick_taking", "report").Report

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def game():
    return load_game(Project(REPO), "dietrick-taking")


def sheet(text: str) -> str:
    return "game: dietrick-taking\n" + textwrap.dedent(text).strip() + "\n"


def players(*rows: tuple[str, int, int], order: str = "[1, 2, 3]", extra: str = "") -> str:
    body = "".join(f"  - {{name: {n}, yellow: {y}, blue: {b}}}\n" for n, y, b in rows)
    return f"game: dietrick-taking\nscoring_order: {order}\n{extra}players:\n{body}"


def finished(*rows: tuple[str, int, int], **kw: str) -> str:
    """`players(...)` made a finished game without changing the rows' verdict: one more
    player, disqualified (blue never moved), whose yellow marker reached square 13 and so
    ended the game (dietrick-taking-rules.txt line 77), with the squares that make the
    total a whole number of tricks. Each row's squares must be a multiple of the players
    (lines 32, 53: every trick has one card from each player), and so are Zed's."""
    n = len(rows) + 1
    yellow = -(-13 // n) * n  # the first multiple of n from square 13
    return players(*rows, ("Zed", yellow, 0), **kw)


def score(game, text: str) -> Report:
    return game.plugin.score(game, parse_located(text, "sheet.yaml"))


def errors(game, text: str) -> list[str]:
    with pytest.raises(PnpError) as exc:
        score(game, text)
    return [str(e) for e in exc.value.errors]


def row(report: Report, name: str) -> dict:
    return next(p for p in report.to_json()["players"] if p["name"] == name)


# ---------------------------------------------------------------- numbers


def test_top_and_bottom_numbers_follow_the_card_order(game):
    # Ann: yellow 7 and blue 5; with cards 2 1 3 the 7th yellow square is card 1's third (2)
    # and the 5th blue square is card 1's first (2)
    report = score(game, finished(("Ann", 7, 5), ("Bob", 3, 3), order="[2, 1, 3]"))
    assert (row(report, "Ann")["top"], row(report, "Ann")["bottom"], row(report, "Ann")["difference"]) == (2, 2, 0)
    # with cards 1 2 3 the same squares read 5 (card 2) and 5 (card 2)
    report = score(game, finished(("Ann", 7, 5), ("Bob", 3, 3)))
    assert (row(report, "Ann")["top"], row(report, "Ann")["bottom"]) == (4, 5)


def test_order_may_name_card_4_last(game):
    report = score(game, finished(("Ann", 7, 5), ("Bob", 3, 3), order="[2, 1, 3, 4]"))
    assert report.to_json()["scoring_order"] == [2, 1, 3, 4]


def test_the_end_square_reads_card_4(game):
    # position 13 is the white square, the first of card 4, whatever the order of 1-3
    report = score(game, players(("Ann", 13, 1), ("Bob", 1, 1), order="[3, 2, 1]"))
    assert row(report, "Ann")["top"] == 8


# ---------------------------------------------------------------- winner rules


def test_smallest_difference_wins(game):
    report = score(game, finished(("Ann", 4, 2), ("Bob", 2, 1)))  # 4-4 = 0 against 3-2 = 1
    assert report.to_json()["winners"] == ["Ann"]
    assert report.to_json()["decided_by"] == S.DIFFERENCE
    assert (row(report, "Ann")["rank"], row(report, "Bob")["rank"]) == (1, 2)
    assert report.exit_code == 0


def test_tie_on_difference_goes_to_higher_bottom_number(game):
    # Ann 2-1 (bottom 1), Bob 3-2 (bottom 2): both differ by 1
    report = score(game, finished(("Ann", 3, 3), ("Bob", 2, 1)))
    assert row(report, "Ann")["difference"] == row(report, "Bob")["difference"] == 1
    assert report.to_json()["winners"] == ["Bob"]
    assert report.to_json()["decided_by"] == S.BOTTOM


def test_tie_on_bottom_goes_to_higher_top_number(game):
    # Ann top 1, bottom 4; Bob top 7, bottom 4: same difference and bottom
    report = score(game, finished(("Ann", 1, 2), ("Bob", 10, 2)))
    assert report.to_json()["winners"] == ["Bob"]
    assert report.to_json()["decided_by"] == S.TOP


def test_full_tie_is_a_shared_victory(game):
    # Ann top 1 (square 1), bottom 4 (square 2); Bob top 1 (square 1), bottom 4 (square 8);
    # Cy ended the game at square 13: top 8, bottom 4
    report = score(game, players(("Ann", 1, 2), ("Bob", 1, 8), ("Cy", 13, 2)))
    assert report.to_json()["winners"] == ["Ann", "Bob"]
    assert report.to_json()["decided_by"] == S.SHARED
    assert [row(report, n)["rank"] for n in ("Ann", "Bob", "Cy")] == [1, 1, 3]


def test_marker_that_never_moved_disqualifies(game):
    # Ann's blue marker never moved: she has no bottom number and cannot win
    report = score(game, finished(("Ann", 8, 0), ("Bob", 2, 2), ("Cy", 3, 1)))
    ann = row(report, "Ann")
    assert ann["disqualified"] == "blue marker never moved"
    assert ann["rank"] is None and ann["difference"] is None and not ann["winner"]
    assert report.to_json()["winners"] == ["Cy"]


def test_disqualification_can_decide_the_game(game):
    report = score(game, finished(("Ann", 0, 0), ("Bob", 5, 1)))
    assert row(report, "Ann")["disqualified"] == "neither marker moved"
    assert report.to_json()["winners"] == ["Bob"]
    assert report.to_json()["decided_by"] == S.DISQUALIFICATION


def test_everyone_disqualified_means_no_winner(game):
    report = score(game, finished(("Ann", 0, 3), ("Bob", 3, 0)))
    assert report.to_json()["winners"] == []
    assert report.to_json()["decided_by"] == S.NOBODY


def test_beginner_counts_squares_not_numbers(game):
    # Ann: squares 4 and 2 (numbers 4 and 4); Bob: squares 3 and 3 (numbers 2 and 1)
    standard = score(game, finished(("Ann", 4, 2), ("Bob", 3, 3)))
    assert standard.to_json()["winners"] == ["Ann"]
    beginner = score(game, finished(("Ann", 4, 2), ("Bob", 3, 3), extra="variant: beginner\n"))
    assert beginner.to_json()["winners"] == ["Bob"]
    assert (row(beginner, "Ann")["difference"], row(beginner, "Bob")["difference"]) == (2, 0)
    assert beginner.to_json()["variant"] == "beginner"


def test_the_rule_books_beginner_example(game):
    """dietrick-taking-rules.txt line 89, as printed there ($PNP_RULE_BOOKS): the 4th yellow
    and the 2nd blue square make a Beginner Class score of 2."""
    path = RULE_BOOKS / "dietrick-taking-rules.txt"
    if not path.is_file():
        pytest.skip(f"rule book {path} not here")
    assert "being on the 4th yellow square and 2nd blue square is a score of 2" in path.read_text(encoding="utf-8").splitlines()[88]
    report = score(game, finished(("Ann", 4, 2), extra="variant: beginner\n"))
    assert row(report, "Ann")["difference"] == 2


def test_beginner_tie_breaks_compare_squares(game):
    # both balanced; Bob's blue marker went further (6 squares against 3)
    report = score(game, finished(("Ann", 3, 3), ("Bob", 6, 6), extra="variant: beginner\n"))
    assert report.to_json()["winners"] == ["Bob"]
    assert report.to_json()["decided_by"] == S.BOTTOM_SQUARE


def test_beginner_tie_break_is_reported_as_our_reading(game):
    # line 89 ignores the numbers that line 83's tie-break compares: comparing squares is
    # pnp's reading (scoring.yaml rulings.beginner_tie), and the report says so
    from rich.console import Console

    says = game.data["scoring"].rulings.beginner_tie.says
    assert "line 89" in says and "pnp's reading" in says
    for extra, decided in (("variant: beginner\n", S.BOTTOM_SQUARE), ("", S.BOTTOM)):
        # Ann squares 4/2, Ben 2/4: a difference of 2 squares each; Ben's bottom is further
        # (printed numbers: 4-4 and 3-3, Ann's bottom is higher)
        report = score(game, finished(("Ann", 4, 2), ("Ben", 2, 4), extra=extra))
        console = Console(record=True, width=400)
        report.render(console)
        text = console.export_text()
        if extra:
            assert (report.result.winners, report.to_json()["decided_by"]) == (("Ben",), decided)
            assert report.to_json()["ruling"] == says and f"ruling: {says}" in text
            assert "winner: Ben (higher bottom square)" in text
        else:  # printed numbers: the book's own tie-break, no ruling to report
            assert (report.result.winners, report.to_json()["decided_by"]) == (("Ann",), decided)
            assert report.to_json()["ruling"] is None and "ruling:" not in text
    # a beginner game decided by the difference itself needs no ruling
    report = score(game, finished(("Ann", 4, 2), ("Ben", 3, 3), extra="variant: beginner\n"))
    assert report.to_json()["decided_by"] == S.DIFFERENCE and report.to_json()["ruling"] is None


def solo(player: tuple[int, int], fuzz: tuple[int, int], extra: str = "") -> str:
    return sheet(f"""
        scoring_order: [1, 2, 3]
        {extra}players:
          - {{name: Ann, yellow: {player[0]}, blue: {player[1]}}}
        fuzz: {{yellow: {fuzz[0]}, blue: {fuzz[1]}}}
        """)


def test_solo_smaller_difference_beats_fuzz(game):
    report = score(game, solo((4, 2), (13, 1)))  # 4-4 = 0 against 8-2 = 6
    assert report.to_json()["solo"] is True
    assert report.to_json()["winners"] == ["Ann"]
    fuzz = row(report, "Fuzz")
    assert fuzz["fuzz"] is True and fuzz["rank"] == 2


def test_solo_fuzz_wins_ties_even_with_a_lower_bottom(game):
    # Ann 8-7 (bottom 7) against Fuzz 1-2 (bottom 2): in a 2-4 player game Ann would win
    report = score(game, solo((13, 12), (1, 1)))
    assert report.to_json()["winners"] == ["Fuzz"]
    assert report.to_json()["decided_by"] == S.FUZZ_TIE
    assert row(report, "Ann")["rank"] == 2


def test_solo_fuzz_wins_with_smaller_difference(game):
    report = score(game, solo((13, 1), (4, 2)))  # 8-2 = 6 against 0
    assert report.to_json()["winners"] == ["Fuzz"]
    assert report.to_json()["decided_by"] == S.DIFFERENCE


def test_solo_disqualification_applies_to_both(game):
    assert score(game, solo((0, 13), (1, 1))).to_json()["winners"] == ["Fuzz"]
    assert score(game, solo((1, 1), (13, 0))).to_json()["winners"] == ["Ann"]
    assert score(game, solo((0, 1), (13, 0))).to_json()["winners"] == []


# ---------------------------------------------------------------- claims and report


def test_claims_that_match_exit_0(game):
    text = finished(("Ann", 4, 2), ("Bob", 2, 1)).replace("blue: 2}", "blue: 2, claimed: 0}") + "claimed_winner: Ann\n"
    report = score(game, text)
    assert report.exit_code == 0
    assert row(report, "Ann")["claim_ok"] is True
    assert report.to_json()["claimed_winner_ok"] is True


def test_wrong_claimed_difference_exits_1(game):
    text = finished(("Ann", 4, 2), ("Bob", 2, 1)).replace("blue: 2}", "blue: 2, claimed: 2}")
    report = score(game, text)
    assert report.exit_code == 1
    assert report.to_json()["mismatches"] == ["Ann: claimed difference 2, computed 0"]


def test_wrong_claimed_winner_exits_1(game):
    report = score(game, finished(("Ann", 4, 2), ("Bob", 2, 1)) + "claimed_winner: [Ann, Bob]\n")
    assert report.exit_code == 1
    assert report.to_json()["mismatches"] == ["claimed winner Ann, Bob, computed Ann"]


def test_render_lists_every_player_and_the_winner(game):
    from rich.console import Console

    console = Console(record=True, width=120)
    score(game, finished(("Ann", 8, 0), ("Bob", 2, 2), ("Cy", 3, 1))).render(console)
    text = console.export_text()
    assert "Ann" in text and "disqualified (blue marker never moved)" in text
    assert "winner: Cy (smallest difference)" in text


# ---------------------------------------------------------------- sheet errors


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize(
    "order, message",
    [
        ("[1, 2]", "scoring_order [1, 2]: expected cards 1, 2, 3 each once"),
        ("[1, 1, 3]", "scoring_order [1, 1, 3]: expected cards 1, 2, 3 each once"),
        ("[4, 1, 2, 3]", "scoring_order [4, 1, 2, 3]: card 4 is always last"),
        ("[1, 4, 2, 3]", "card 4 is always last"),
        ("one", "scoring_order is 'one'"),
    ],
)
def test_bad_scoring_order(game, order, message):
    (err,) = errors(game, players(("Ann", 4, 2), ("Bob", 1, 1), order=order))
    assert err.startswith("sheet.yaml:2: ") and message in err


def test_missing_scoring_order(game):
    (err,) = errors(game, "game: dietrick-taking\nplayers:\n  - {name: Ann, yellow: 4, blue: 2}\n  - {name: Bob, yellow: 1, blue: 1}\n")
    assert err.startswith("sheet.yaml:1: missing 'scoring_order'")


def test_every_problem_is_reported_with_its_line(game):
    text = sheet("""
        scoring_order: [1, 2, 3]
        variant: expert
        colour: red
        players:
          - name: Ann
            yellow: 17
            blue: -1
            hat: 3
          - name: ann
            yellow: 2
            blue: two
          - yellow: 1
            blue: 1
        claimed_winner: Zed
        """)
    errs = errors(game, text)
    expected = [
        (line_of(text, "variant"), "variant is 'expert': expected standard or beginner"),
        (line_of(text, "colour"), "unknown key 'colour'"),
        (line_of(text, "yellow: 17"), "player Ann: yellow is 17: expected a whole number of squares from 0 to 16"),
        (line_of(text, "blue: -1"), "player Ann: blue is -1"),
        (line_of(text, "hat"), "player Ann: unknown key 'hat'"),
        (line_of(text, "name: ann"), "player ann: the name appears twice"),
        (line_of(text, "blue: two"), "player ann: blue is 'two'"),
        (line_of(text, "- yellow: 1"), "player 3: missing 'name'"),
        (line_of(text, "claimed_winner"), "claimed_winner names 'Zed'"),
    ]
    assert len(errs) == len(expected), errs
    for (line, message), err in zip(expected, errs):
        assert err.startswith(f"sheet.yaml:{line}: ") and message in err, (err, message)


@pytest.mark.parametrize("typo, error", [
    ("yellow: 6", "player Ben: unknown key 'yelow': did you mean 'yellow' (required)?"),
    ("scoring_order:", "unknown key 'scoring_ordr': did you mean 'scoring_order' (required)?"),
    ("players:", "unknown key 'playres': did you mean 'players' (required)?"),
    ("name: Ann", "player 1: unknown key 'nme': did you mean 'name' (required)?"),
    ("claimed_winner:", "unknown key 'claimed_winer': did you mean 'claimed_winner'?"),
])
def test_a_misspelt_key_is_one_line_at_the_misspelling(game, typo, error):
    """Before: `yelow: 6` was two lines (yellow missing, 'yelow' unknown), `playres:` three
    (the last: "claimed_winner names 'Cleo': expected one of  or none"); one line now, the
    one pnp gives for a misspelt key in a content file (docs/writing-games.md "Errors")."""
    good = players(("Ann", 12, 3), ("Ben", 6, 9), ("Cleo", 10, 5), extra="claimed_winner: Cleo\n")
    misspelt = {"yellow: 6": "yelow: 6", "scoring_order:": "scoring_ordr:", "players:": "playres:",
                "name: Ann": "nme: Ann", "claimed_winner:": "claimed_winer:"}[typo]
    text = good.replace(typo, misspelt, 1)
    assert errors(game, text) == [f"sheet.yaml:{line_of(text, misspelt)}: {error}"]


def test_missing_marker_position(game):
    (err,) = errors(game, sheet("""
        scoring_order: [1, 2, 3]
        players:
          - {name: Ann, yellow: 4}
          - {name: Bob, yellow: 1, blue: 1}
        """))
    assert err == "sheet.yaml:4: player Ann: missing 'blue': expected the squares the blue marker moved (0 if it never moved)"


def test_bad_claimed_value(game):
    (err,) = errors(game, players(("Ann", 4, 2), ("Bob", 1, 1)).replace("blue: 2}", "blue: 2, claimed: -1}"))
    assert re.match(r"sheet\.yaml:4: player Ann: claimed is -1", err)


def test_one_player_needs_fuzz(game):
    (err,) = errors(game, players(("Ann", 4, 2)))
    assert err.startswith("sheet.yaml:3: players has 1 player: a solo game needs Fuzz's markers too")


def test_too_many_players(game):
    (err,) = errors(game, players(*[(n, 1, 1) for n in "ABCDE"]))
    assert "players has 5 players: expected 2 to 4" in err


def test_fuzz_only_in_solo(game):
    text = players(("Ann", 4, 2), ("Bob", 1, 1)) + "fuzz: {yellow: 2, blue: 2}\n"
    (err,) = errors(game, text)
    assert err.startswith(f"sheet.yaml:{line_of(text, 'fuzz')}: fuzz is only for the solo game")


def test_bad_fuzz_markers(game):
    errs = errors(game, solo((4, 2), (20, "x")))
    assert errs == [
        "sheet.yaml:5: Fuzz: blue is 'x': expected a whole number of squares from 0 to 16",
        "sheet.yaml:5: Fuzz: yellow is 20: expected a whole number of squares from 0 to 16",
    ]


def test_values_are_spelt_as_yaml_spells_them(game):
    # Before: "yellow is True", "earlier_wins is [Ann]" printed as ['Ann']: Python's spelling, not what was written
    text = players(("Ann", "true", 2), ("Bob", 1, 1), extra="earlier_wins: [Ann, null]\n")
    assert errors(game, text) == [
        "sheet.yaml:3: earlier_wins is [Ann, null]: expected the games each player won before this one, e.g. earlier_wins: {Ann: 1}",
        "sheet.yaml:5: player Ann: yellow is true: expected a whole number of squares from 0 to 16",
    ]


def test_solo_player_cannot_be_called_fuzz(game):
    (err,) = errors(game, solo((4, 2), (1, 1)).replace("name: Ann", "name: Fuzz"))
    assert err.startswith("sheet.yaml:4: player Fuzz: the name is taken by the solo opponent")


def test_not_a_mapping_and_wrong_game(game):
    (err,) = errors(game, "- 1\n- 2\n")
    assert err.startswith("sheet.yaml:1: expected a mapping")
    errs = errors(game, players(("Ann", 4, 2), ("Bob", 1, 1)).replace("game: dietrick-taking", "game: tasty-humans"))
    assert errs == ["sheet.yaml:1: game is 'tasty-humans': expected dietrick-taking"]


def test_only_one_player_can_pass_square_12(game):
    # the game ends after the trick in which the first marker reaches square 13
    text = players(("Ann", 13, 2), ("Bob", 1, 14), ("Cy", 2, 1))
    (err,) = errors(game, text)
    assert err.startswith(f"sheet.yaml:{line_of(text, 'Bob')}: player Bob: a marker is past square 12, and so is one of Ann's")


def test_last_trick_moves_at_most_one_square_per_player(game):
    text = players(("Ann", 16, 11), ("Bob", 1, 2), ("Cy", 2, 1))  # 4 squares past 12 in a 3-card trick
    (err,) = errors(game, text)
    assert err.startswith(f"sheet.yaml:{line_of(text, 'Ann')}: player Ann: yellow 16 and blue 11 are 4 squares past square 12")


def multiple_of(n: int, player: str, yellow: int, blue: int) -> str:
    return (f"player {player}: yellow {yellow} + blue {blue} = {yellow + blue} squares: expected a multiple of {n}, as each "
            f"of the {n} players plays a card to every trick (dietrick-taking-rules.txt line 32) and its winner moves one "
            "square per card (line 53)")


def test_every_players_squares_are_a_multiple_of_the_players(game):
    # the total of 28 squares is 14 two-card tricks, but a trick moves only its winner, two
    # squares: Ann's 7 and Ben's 21 cannot be (the play-tester's per-player-odd-2p.yaml)
    text = players(("Ana", 3, 4), ("Ben", 12, 9))
    assert errors(game, text) == [f"sheet.yaml:{line_of(text, 'Ana')}: {multiple_of(2, 'Ana', 3, 4)}",
                                  f"sheet.yaml:{line_of(text, 'Ben')}: {multiple_of(2, 'Ben', 12, 9)}"]
    # only the players whose count is not a multiple are named
    text = players(("Ana", 4, 4), ("Ben", 5, 5), ("Cleo", 3, 3), ("Dan", 6, 6))  # 36 squares: 9 tricks
    assert errors(game, text) == [f"sheet.yaml:{line_of(text, 'Ben')}: {multiple_of(4, 'Ben', 5, 5)}",
                                  f"sheet.yaml:{line_of(text, 'Cleo')}: {multiple_of(4, 'Cleo', 3, 3)}"]
    # the totals are still checked once every player's count is a multiple: 15 tricks at 2 players
    (err,) = errors(game, players(("Ana", 8, 8), ("Ben", 7, 7)))
    assert err == "sheet.yaml:3: the markers moved 30 squares in all: a 2-player game has at most 14 tricks of 2 cards, 28 squares"


def test_a_solo_players_squares_need_not_be_a_multiple(game):
    # solo tricks have 2 or 3 cards (line 97): 13 and 11 squares are a finished game
    report = score(game, solo((7, 6), (6, 5)))
    assert report.exit_code == 0 and report.to_json()["solo"] is True


@pytest.mark.parametrize("rows, bad", [
    ([("Ana", 3, 4), ("Ben", 12, 9)], ["Ana", "Ben"]),  # per-player-odd-2p.yaml
    ([("Ana", 1, 1), ("Ben", 12, 10), ("Cleo", 10, 11)], ["Ana", "Ben"]),  # exampleper-player-not-multiple-3p.yaml
    ([("Ana", 4, 4), ("Ben", 5, 5), ("Cleo", 3, 3), ("Dan", 6, 6)], ["Ben", "Cleo"]),
])
def test_cli_refuses_a_player_whose_squares_are_not_a_multiple(tmp_path, rows, bad):
    # each sheet's total is a whole number of tricks, as the scorer used to check
    assert sum(y + b for _, y, b in rows) % len(rows) == 0
    text = players(*rows)
    path = tmp_path / "sheet.yaml"
    path.write_text(text)
    result = cli("score", str(path))
    assert result.exit_code == 2 and "Traceback" not in result.output
    squares = {n: (y, b) for n, y, b in rows}
    assert [re.sub(r"^.*sheet\.yaml", "sheet.yaml", line) for line in result.output.strip().splitlines()] == [
        f"sheet.yaml:{line_of(text, name)}: {multiple_of(len(rows), name, *squares[name])}" for name in bad]


def test_total_squares_bounded_by_the_longest_game(game):
    # 4 players play at most 9 tricks of 4 cards: 36 squares. The rule book's line 75 says
    # 10, but its procedure (lines 63-73) gives 9: scoring.yaml records the contradiction.
    (err,) = errors(game, players(("A", 12, 12), ("B", 4, 4), ("C", 2, 2), ("D", 2, 2)))
    assert "the markers moved 40 squares in all: a 4-player game has at most 9 tricks of 4 cards, 36 squares" in err


def test_long_game_first_to_two_wins_takes_the_match(game):
    # dietrick-taking-rules.txt line 87; Ann wins this game (difference 0 against 1)
    text = finished(("Ann", 4, 2), ("Bob", 2, 1), order="[1, 2, 3]", extra="earlier_wins: {Ann: 1, Bob: 1}\n")
    report = score(game, text)
    assert report.result.winners == ("Ann",)
    assert report.to_json()["long_game"] == {"wins": {"Ann": 2, "Bob": 1, "Zed": 0}, "winners": ["Ann"]}
    # one win each so far: nobody has the match yet
    report = score(game, finished(("Ann", 4, 2), ("Bob", 2, 1), extra="earlier_wins: {Bob: 1}\n"))
    assert report.to_json()["long_game"] == {"wins": {"Ann": 1, "Bob": 1, "Zed": 0}, "winners": []}
    # a single game has no long-game verdict
    assert "long_game" not in score(game, finished(("Ann", 4, 2), ("Bob", 2, 1))).to_json()


def test_long_game_shared_victory_counts_for_everyone_who_shares(game):
    text = finished(("Ann", 2, 1), ("Bob", 2, 1), extra="earlier_wins: {Ann: 1, Bob: 1}\n")
    report = score(game, text)
    assert sorted(report.to_json()["long_game"]["winners"]) == ["Ann", "Bob"]


def test_long_game_rejects_a_match_already_won_and_unknown_names(game):
    errs = errors(game, players(("Ann", 4, 2), ("Bob", 1, 1), extra="earlier_wins: {Ann: 2, Cy: 1}\n"))
    assert any("earlier_wins Ann is 2: expected 0 to 1, as the Long Game ends when someone wins 2 games" in e for e in errs), errs
    assert any("earlier_wins names 'Cy': expected one of Ann, Bob" in e for e in errs), errs


# ---------------------------------------------------------------- the `pnp score` and `pnp sheet` commands


def cli(*args: str):
    from typer.testing import CliRunner

    from pnp.cli import app

    return CliRunner().invoke(app, [*args, "--project", str(REPO)])


def test_cli_scores_and_prints_json(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(finished(("Ann", 4, 2), ("Bob", 2, 1)))
    result = cli("score", str(path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "dietrick-taking" and data["winners"] == ["Ann"]
    table = cli("score", str(path))
    assert table.exit_code == 0 and "winner: Ann (smallest difference)" in table.output


def test_cli_claim_mismatch_exits_1(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(finished(("Ann", 4, 2), ("Bob", 2, 1)) + "claimed_winner: Bob\n")
    result = cli("score", str(path))
    assert result.exit_code == 1
    assert "mismatch: claimed winner Bob, computed Ann" in result.output


def test_cli_bad_sheet_exits_2_with_one_line_per_problem(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(players(("Ann", 17, 2), ("Bob", 1, "x")))
    result = cli("score", str(path))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert [re.sub(r"^.*game\.yaml", "game.yaml", line) for line in lines] == [
        "game.yaml:4: player Ann: yellow is 17: expected a whole number of squares from 0 to 16",
        "game.yaml:5: player Bob: blue is 'x': expected a whole number of squares from 0 to 16",
    ]
    assert "Traceback" not in result.output


def test_blank_sheet_template_scores(tmp_path):
    # a blank sheet is well formed: its one problem is that no game has been played yet;
    # filled in with a finished game's markers it scores
    for n in (1, 2, 4):
        result = cli("sheet", "dietrick-taking", "--players", str(n), "--template")
        assert result.exit_code == 0, result.output
        path = tmp_path / f"blank{n}.yaml"
        path.write_text(result.output)
        scored = cli("score", str(path))
        assert scored.exit_code == 2 and len(scored.output.strip().splitlines()) == 1, scored.output
        assert "the markers moved 0 squares in all and none reached square 13: not a finished game" in scored.output
        # the first player's last trick (n cards, solo: the player's and Fuzz's one) took them past 12
        path.write_text(result.output.replace("yellow: 0", f"yellow: {12 + n}", 1))
        scored = cli("score", str(path), "--json")
        assert scored.exit_code == 0, scored.output
        data = json.loads(scored.output)
        assert len(data["players"]) == (2 if n == 1 else n) and data["winners"] == []
    assert cli("sheet", "dietrick-taking", "--players", "5", "--template").exit_code == 2


def test_sheet_schema_is_json():
    result = cli("sheet", "dietrick-taking", "--players", "2", "--schema")
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert schema["required"] == ["game", "scoring_order", "players"]


@pytest.mark.parametrize("text, refused", [
    (finished(("Ana", 6, 3), ("Ben", 3, 3)), False),
    (finished(("Ana", 6, 3), ("Ben", 3, 3), extra="earlier_wins: {Ana: 1}\n"), False),
    (finished(("Ana", 99, 3), ("Ben", 3, 3)), True),  # past the end of the track
    (finished(("Ana", 6, 3), ("Ben", 3, 3), extra="earlier_wins: {Ana: 2}\n"), True),  # the Long Game was over (line 87)
    (finished(("Ana", 6, 3), ("Ben", 3, 3), order="[1, 1, 2]"), True),
    (finished(("Ana", 6, 3), ("Ben", 3, 3), order="[1, 2, 3, 4, 4]"), True),
    (finished(*[(f"P{n}", 3, 3) for n in range(4)]), True),  # five seats
])
def test_the_sheet_schema_bounds_what_the_scorer_bounds(game, text, refused):
    """Before: the schema had no upper bounds (squares, seats, cards, earlier wins): an editor
    took a sheet the scorer refuses. Its bounds are read from the scoring.yaml the scorer reads."""
    import jsonschema
    import yaml

    from pnp.score.dispatch import sheet_schema

    schema_said = list(jsonschema.Draft202012Validator(sheet_schema(game)).iter_errors(yaml.safe_load(text)))
    try:
        score(game, text)
        scorer_said = False
    except PnpError:
        scorer_said = True
    assert (bool(schema_said), scorer_said) == (refused, refused), schema_said


def test_solo_last_trick_moves_at_most_three_squares(game):
    # Fuzz reveals one or two cards and the player adds one: at most 3 squares a trick
    errs = errors(game, solo((12, 12), (14, 14)))
    assert errs == ["sheet.yaml:5: Fuzz: yellow 14 and blue 14 are 4 squares past square 12: "
                    "the game ends after the trick that reaches square 13, and a trick moves at most 3"]
    assert score(game, solo((12, 12), (14, 13))).to_json()["winners"] == ["Fuzz"]  # 8-7 against 10-9: a tie


# ---------------------------------------------------------------- squares the deck allows (issue 26 item 2)


def test_icon_limits_are_derived_from_the_deck(game):
    # deck.yaml holds 18 fork (yellow) and 18 runner (blue) cards; the limit per player
    # count adds the cards a reshuffle (lines 71, 73) can bring back: the deck left after
    # dealing hand_size each (line 23)
    assert game.data["deck"].icon_cards() == {"yellow": 18, "blue": 18}
    assert game.data["scoring"].reshuffles_by_players == {2: 0, 3: 1, 4: 1}
    assert game.data["scoring"].hand_size == 5


def test_two_players_cannot_move_more_yellow_squares_than_the_deck_has_forks(game):
    # the sheet: yellow 12 + 12 with 2 players was scored as a shared victory
    assert errors(game, players(("Ann", 12, 2), ("Bob", 12, 2))) == [
        "sheet.yaml:3: the yellow markers moved 24 squares in all: a card moves its trick's winner one yellow square "
        "(line 53), the deck is never reshuffled with 2 players (dietrick-taking-rules.txt line 71), so each card is "
        "played at most once, and the deck has 18 cards with the yellow icon: at most 18 yellow squares"
    ]
    # variants: blue the same; exactly 18 is possible
    (err,) = errors(game, players(("Ann", 4, 10), ("Bob", 4, 10)))
    assert err.startswith("sheet.yaml:3: the blue markers moved 20 squares in all")
    assert score(game, players(("Ann", 9, 5), ("Bob", 9, 5))).exit_code == 0


def test_a_reshuffle_doubles_the_limit_at_three_players(game):
    # one reshuffle (line 73) of the 21 cards played by then: every one of the 18 forks
    # can be played twice, 36 yellow squares; the trick limit (15 tricks of 3 cards, 45
    # squares) allows more, the deck does not
    assert score(game, players(("Ann", 15, 0), ("Bob", 12, 0), ("Cy", 9, 0))).exit_code == 0
    text = players(("Ann", 13, 2), ("Bob", 12, 0), ("Cy", 12, 3))
    err = errors(game, text)
    assert err == [
        "sheet.yaml:3: the yellow markers moved 37 squares in all: a card moves its trick's winner one yellow square "
        "(line 53), the discards are shuffled into a new deck with 3 players (dietrick-taking-rules.txt line 73) once "
        "21 cards have been played, as many as the deck held after dealing 5 each (line 23), so at most 21 cards are "
        "played twice, and the deck has "
        "18 cards with the yellow icon: at most 36 yellow squares"
    ]


def test_four_players_play_at_most_sixteen_cards_twice(game, tmp_path):
    # 4 players are dealt 20 of the 36 cards (line 23): the 16 others are drawn, and after
    # 16 cards (any of the 36) are played the reshuffle (line 73) brings only those back, so
    # a colour's 18 cards move its markers at most 18 + 16 = 34 squares, not 36 (the
    # play-tester's yellow35-4p.yaml: 9 tricks, 36 squares)
    text = players(("Ana", 12, 0), ("Ben", 12, 0), ("Cleo", 7, 1), ("Dan", 4, 0))
    assert errors(game, text) == [
        "sheet.yaml:3: the yellow markers moved 35 squares in all: a card moves its trick's winner one yellow square "
        "(line 53), the discards are shuffled into a new deck with 4 players (dietrick-taking-rules.txt line 73) once "
        "16 cards have been played, as many as the deck held after dealing 5 each (line 23), so at most 16 cards are "
        "played twice, and the deck has "
        "18 cards with the yellow icon: at most 34 yellow squares"
    ]
    path = tmp_path / "yellow35-4p.yaml"
    path.write_text(text)
    result = cli("score", str(path))
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1 and "at most 34 yellow squares" in result.output
    # 34 yellow squares, the same game otherwise
    assert score(game, players(("Ana", 12, 0), ("Ben", 12, 0), ("Cleo", 6, 2), ("Dan", 4, 0))).exit_code == 0


def test_cli_refuses_the_impossible_two_player_sheet(tmp_path):
    from typer.testing import CliRunner

    from pnp.cli import app

    path = tmp_path / "sheet.yaml"
    path.write_text(players(("Ann", 12, 2), ("Bob", 12, 2)))
    result = CliRunner().invoke(app, ["score", str(path), "--project", str(REPO)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1 and "line 71" in result.output


# ---------------------------------------------------------------- only a finished game is scored (w10 defect 1)


def test_an_unfinished_game_is_refused_in_one_line(tmp_path):
    # the walkthrough's d1.yaml: 12 squares (4 tricks) at 3 players and no marker at square
    # 13; a game ends only when the deck runs out (lines 71-73: 15 tricks at 3 players) or
    # after the trick in which a marker reaches square 13 (line 77)
    path = tmp_path / "d1.yaml"
    path.write_text(players(("Ana", 2, 1), ("Ben", 1, 2), ("Cleo", 3, 3)))
    result = cli("score", str(path))
    assert result.exit_code == 2 and "Traceback" not in result.output and "winner" not in result.output
    (line,) = result.output.strip().splitlines()
    assert line.endswith("d1.yaml:3: the markers moved 12 squares in all and none reached square 13: not a finished game. "
                         "A 3-player game ends after 15 tricks of 3 cards, 45 squares, when the deck runs out "
                         "(dietrick-taking-rules.txt lines 71-73), or after the trick in which a marker reaches square 13 (line 77)")


@pytest.mark.parametrize("full, short, ended", [
    # 2 players, 14 tricks: 28 squares (yellow and blue within the deck's 18 icons each)
    ([("Ann", 7, 7), ("Bob", 7, 7)], [("Ann", 7, 7), ("Bob", 6, 6)], [("Ann", 13, 1), ("Bob", 4, 8)]),
    # 3 players, 15 tricks: 45 squares
    ([("Ann", 8, 7), ("Bob", 7, 8), ("Cy", 8, 7)], [("Ann", 8, 7), ("Bob", 7, 8), ("Cy", 6, 6)],
     [("Ann", 13, 2), ("Bob", 7, 8), ("Cy", 6, 6)]),
    # 4 players, 9 tricks (pnp's count): 36 squares
    ([("Ann", 6, 6), ("Bob", 4, 4), ("Cy", 4, 4), ("Dee", 4, 4)], [(n, 4, 4) for n in ("Ann", "Bob", "Cy", "Dee")],
     [("Ann", 13, 3), ("Bob", 4, 4), ("Cy", 4, 4), ("Dee", 0, 0)]),
])
def test_a_finished_game_is_the_full_length_or_reaches_square_13(game, full, short, ended):
    n = len(full)
    squares = n * game.data["scoring"].tricks_by_players[n]
    assert sum(y + b for _, y, b in full) == squares
    assert score(game, players(*full)).exit_code == 0  # the deck ran out
    # one trick fewer and nobody at square 13: the game went on
    assert sum(y + b for _, y, b in short) == sum(y + b for _, y, b in ended) == squares - n
    (err,) = errors(game, players(*short))
    assert f"the markers moved {squares - n} squares in all and none reached square 13: not a finished game" in err
    # as many squares, but a marker reached square 13: the game ended after that trick
    assert score(game, players(*ended)).exit_code == 0


def test_an_unfinished_solo_game_is_refused(tmp_path, game):
    # the walkthrough's e8.yaml: one trick. Solo ends when the hand is empty or a marker
    # reaches square 13 (line 101); the 12 cards dealt (line 93) last 12 tricks at least,
    # each of 2 cards or more (line 97, Fuzz leading): 24 squares
    scoring = game.data["scoring"]
    assert (scoring.solo_personal_deck, scoring.solo_fewest_trick_cards) == (12, 2)
    path = tmp_path / "e8.yaml"
    path.write_text(solo((1, 1), (1, 0)).replace("Ann", "Sam"))
    result = cli("score", str(path))
    assert result.exit_code == 2 and "winner" not in result.output
    (line,) = result.output.strip().splitlines()
    assert "e8.yaml:3: the markers moved 3 squares in all and none reached square 13: not a finished game. " in line
    assert "A solo game ends when your hand is empty or a marker reaches square 13 (dietrick-taking-rules.txt line 101)" in line
    assert line.endswith("24 squares or more")
    (err,) = errors(game, solo((6, 6), (6, 5)))  # 23
    assert "the markers moved 23 squares in all" in err
    assert score(game, solo((6, 6), (6, 6))).exit_code == 0  # 24: the hand can be empty


def test_four_players_ten_tricks_names_line_75_and_the_ruling(tmp_path, game):
    # the walkthrough's f1.yaml: 4 players played line 75's 10 tricks (40 squares); pnp
    # follows the procedure of lines 63-73 (9 tricks): the error says both, in the words of
    # scoring.yaml's rulings.game_length (not a copy of them)
    scoring = game.data["scoring"]
    ruling = scoring.length_ruling(4)
    assert ruling == scoring.rulings.game_length.says.format(players=4, book=10, ours=9)
    assert "line 75" in ruling and "lines 63-73" in ruling and "pnp's ruling" in ruling
    assert scoring.length_ruling(2) == scoring.length_ruling(3) == ""  # the book agrees there
    path = tmp_path / "f1.yaml"
    path.write_text(players(("Ana", 4, 4), ("Ben", 6, 6), ("Cleo", 6, 6), ("Dev", 4, 4)))
    result = cli("score", str(path))
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line.endswith("f1.yaml:3: the markers moved 40 squares in all: a 4-player game has at most 9 tricks of 4 cards, "
                         f"36 squares; {ruling}")
    # a 4-player sheet one trick short of our 9 is told the ruling too, and, being the 8
    # tricks of the other reading of lines 63-73, that reading; 3 players are not
    other = scoring.rulings.game_length.other_says.format(players=4, other=8, ours=9)
    (err,) = errors(game, players(*[(n, 4, 4) for n in ("Ana", "Ben", "Cleo", "Dev")]))
    assert err.endswith(f"(line 77); {ruling}; {other}")
    (err,) = errors(game, players(("Ana", 4, 5), ("Ben", 5, 4), ("Cleo", 3, 3)))  # 24 squares: 8 tricks
    assert err.endswith("(line 77)")


def test_a_game_as_long_as_the_other_reading_of_lines_63_73_is_told_it(game):
    """Line 65 discards a trick after line 63's draws: read so, the trick that empties the
    deck misses the reshuffle (lines 71-73) and 3 players play 14 tricks, 4 players 8.
    pnp's ruling gives 15 and 9; a sheet of exactly 14 (or 8) tricks sees both readings."""
    scoring = game.data["scoring"]
    assert scoring.rulings.game_length.other_tricks == {2: 14, 3: 14, 4: 8}
    (err,) = errors(game, players(("Ana", 7, 8), ("Ben", 8, 7), ("Cleo", 6, 6)))  # 42 squares: 14 tricks
    assert "not a finished game. A 3-player game ends after 15 tricks of 3 cards, 45 squares" in err
    assert err.endswith("(line 77); 14 tricks is what lines 63-73 give if the trick whose draws empty the deck is left out "
                        "of the reshuffle (line 65 discards it only after the draws of line 63); pnp's ruling shuffles it in, "
                        "which makes 15 tricks with 3 players (scoring.yaml rulings.game_length)")
    # 13 tricks fits neither reading: no word of it
    (err,) = errors(game, players(("Ana", 7, 8), ("Ben", 6, 6), ("Cleo", 6, 6)))
    assert err.endswith("(line 77)")
    # 2 players never reshuffle: both readings agree, nothing to say
    assert scoring.other_reading(2, 14) == "" and scoring.other_reading(2, 13) == ""


def test_a_name_typed_in_two_unicode_forms_is_one_player(tmp_path):
    """"Jos\u00e9" (one character) and "Jose\u0301" (e + combining accent) look alike: the
    sheet's text is read composed (NFC), for every game, so they are one name."""
    base = "game: dietrick-taking\nscoring_order: [2, 1, 3]\nclaimed_winner: {claim}\nplayers:\n" \
           "  - {{name: {first}, yellow: 4, blue: 11}}\n  - {{name: {second}, yellow: 7, blue: 2}}\n" \
           "  - {{name: Ana, yellow: 13, blue: 2}}\n"
    path = tmp_path / "dt.yaml"
    path.write_text(base.format(claim='"Jos\\u00e9"', first='"Jose\\u0301"', second="Ben"), encoding="utf-8")
    result = cli("score", str(path), "--json")
    assert result.exit_code == 0, result.output  # the claim names the player
    assert [p["name"] for p in json.loads(result.output)["players"] if p["winner"]] == ["Jos\u00e9"]
    path.write_text(base.format(claim='"Jose\\u0301"', first='"Jos\\u00e9"', second='"Jose\\u0301"'), encoding="utf-8")
    result = cli("score", str(path))
    assert result.exit_code == 2
    assert result.output.strip() == f"{path}:6: player Jos\u00e9: the name appears twice: expected one entry per player"
    # a key in two forms is two keys YAML let pass: one key once composed, so a duplicate
    path.write_text('game: dietrick-taking\n"Jos\\u00e9": 1\n"Jose\\u0301": 2\n', encoding="utf-8")
    result = cli("score", str(path))
    assert result.exit_code == 2
    assert result.output.strip() == f"{path}:3:1: duplicate key 'Jos\u00e9' (written in two Unicode forms)"
