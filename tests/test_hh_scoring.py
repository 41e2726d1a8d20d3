"""Human Harvest's end-of-game checker (plugins/human_harvest/scoring.py): each rule of
human-harvest-rules.txt that decides a game, the sheets those rules cannot produce (one
located line each), the claimed winner's exit code, the blank sheet and the examples."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from pnp.errors import PnpError
from pnp.load.content import Project, load_game
from pnp.load.yamlio import parse_located
from conftest import RULE_BOOKS

REPO = Path(__file__).resolve().parent.parent
# the rule book, where every test finds it (conftest.RULE_BOOKS: $PNP_RULE_BOOKS or ../shared/rules)
RULES = RULE_BOOKS / "human-harvest-rules.txt"


@pytest.fixture(scope="module")
def game():
    return load_game(Project(REPO), "human-harvest")


def sheet(*players: tuple, ending: str = "board-finished", variant: str = "basic", extra: str = "") -> str:
    """A sheet; each player is (name, cyborgs) or (name, cyborgs, humans)."""
    rows = ""
    for p in players:
        rows += f"  - name: {p[0]}\n    cyborgs: {p[1]}\n" + (f"    humans: {p[2]}\n" if len(p) > 2 else "")
    return f"game: human-harvest\nvariant: {variant}\nending: {ending}\n{extra}players:\n{rows}"


def score(game, text: str):
    return game.plugin.score(game, parse_located(text, "sheet.yaml"))


def result(game, text: str) -> tuple[list[str], str]:
    data = score(game, text).to_json()
    return data["winners"], data["decided_by"]


def errors(game, text: str) -> list[str]:
    with pytest.raises(PnpError) as exc:
        score(game, text)
    return [str(e) for e in exc.value.errors]


def line_of(text: str, needle: str, nth: int = 1) -> int:
    lines = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    return lines[nth - 1]


def cli(*args: str):
    from typer.testing import CliRunner

    from pnp.cli import app

    return CliRunner().invoke(app, [*args, "--project", str(REPO)])


# ---------------------------------------------------------------- line 30: the basic game


def test_first_with_all_six_cyborgs_wins(game):
    # line 30: "the first player to get all 6 of his Cyborgs on the board"
    winners, why = result(game, sheet(("Ana", 6), ("Ben", 5), ("Cleo", 5), ending="six-cyborgs"))
    assert winners == ["Ana"] and "line 30" in why


def test_only_one_player_can_reach_six_cyborgs(game):
    # line 30 and line 72: the game ends the moment the first player has all 6 on the board
    text = sheet(("Ana", 6), ("Ben", 6), ending="six-cyborgs")
    assert errors(game, text) == [f"sheet.yaml:{line_of(text, 'cyborgs:', 2)}:14: player Ben: 6 Cyborgs, and so has Ana: the game "
                                  "ends when the first player gets all 6 on the board (human-harvest-rules.txt line 30), so only one can"]


def test_six_cyborgs_ending_needs_a_player_with_six(game):
    (err,) = errors(game, sheet(("Ana", 5), ("Ben", 4), ending="six-cyborgs"))
    assert "sheet.yaml:3:9: ending six-cyborgs, but nobody has 6 Cyborgs on the board" in err


def test_board_finished_most_cyborgs_wins(game):
    # line 30: "If the board is finished before any player has 6 active Cyborgs, then the
    # player with the most Cyborgs is considered the winner."
    winners, why = result(game, sheet(("Ana", 3), ("Ben", 5), ("Cleo", 4)))
    assert winners == ["Ben"] and why == "most Cyborgs when the board was finished: human-harvest-rules.txt line 30"


def test_board_finished_with_six_cyborgs_is_refused(game):
    # line 30: a player with all 6 on the board had won before the board was finished
    text = sheet(("Ana", 6), ("Ben", 5))
    (err,) = errors(game, text)
    assert err.startswith(f"sheet.yaml:{line_of(text, 'cyborgs: 6')}:14: player Ana: 6 Cyborgs on the board: the board was finished")
    assert err.endswith("expected ending six-cyborgs")


def test_board_finished_tie_is_shared_and_the_ruling_printed(game):
    # line 30 names no tie-break: our ruling, scoring.yaml rulings.board_tie
    report = score(game, sheet(("Ana", 4), ("Ben", 4), ("Cleo", 2)))
    data = report.to_json()
    says = yaml.safe_load((REPO / "content/human-harvest/scoring.yaml").read_text())["rulings"]["board_tie"]["says"]
    assert data["winners"] == ["Ana", "Ben"] and data["ruling"] == says
    from rich.console import Console

    console = Console(record=True, width=400)
    report.render(console)
    assert f"ruling: {says}" in console.export_text()


def test_a_player_with_no_cyborgs_is_out(game):
    # line 86: a player whose Cyborgs are all deactivated is out of the game
    data = score(game, sheet(("Ana", 0), ("Ben", 1))).to_json()
    assert [p["out"] for p in data["players"]] == [True, False] and data["winners"] == ["Ben"]
    winners, why = result(game, sheet(("Ana", 0), ("Ben", 0)))
    assert winners == [] and "line 86" in why


def test_nobody_wins_a_board_where_every_player_is_out_by_our_ruling(game):
    # line 86 puts each player out, line 30 names no winner then: our reading, printed as such
    report = score(game, sheet(("Ana", 0), ("Ben", 0), ("Cleo", 0)))
    says = yaml.safe_load((REPO / "content/human-harvest/scoring.yaml").read_text())["rulings"]["all_out"]["says"]
    assert report.to_json()["winners"] == [] and report.to_json()["ruling"] == says
    from rich.console import Console

    console = Console(record=True, width=400)
    report.render(console)
    assert f"ruling: {says}" in console.export_text()


# ---------------------------------------------------------------- lines 116, 151: the advanced game


def test_advanced_before_the_dna_point_six_cyborgs_still_win(game):
    # line 116: "the players first race toward getting their 6 Cyborgs on board"
    text = sheet(("Ana", 6), ("Ben", 3), ending="six-cyborgs", variant="advanced", extra="dna_point: false\n")
    assert result(game, text)[0] == ["Ana"]
    assert score(game, text).to_json()["dna_point"] is False


def test_advanced_first_to_store_six_humans_wins_whatever_the_cyborgs(game):
    # line 151: once the DNA Collection Point is in play, 6 Cyborgs no longer win; 6 stored Humans do
    winners, why = result(game, sheet(("Ana", 2, 6), ("Ben", 6, 5), ending="six-humans", variant="advanced"))
    assert winners == ["Ana"] and "lines 116, 151" in why


def test_six_cyborgs_cannot_win_with_the_dna_point_in_play(game):
    # line 151: "players can no longer win by getting 6 Cyborgs into play"
    text = sheet(("Ana", 6, 0), ("Ben", 3, 0), ending="six-cyborgs", variant="advanced", extra="dna_point: true\n")
    (err,) = errors(game, text)
    assert err.startswith(f"sheet.yaml:{line_of(text, 'dna_point')}:12: dna_point is true with ending six-cyborgs") and "line 151" in err


def test_six_humans_without_the_dna_point_is_refused(game):
    # lines 151, 163: Humans are stored toward victory under the DNA Collection Point's rules
    text = sheet(("Ana", 2, 6), ("Ben", 3, 1), ending="six-humans", variant="advanced", extra="dna_point: false\n")
    (err,) = errors(game, text)
    assert err.startswith(f"sheet.yaml:{line_of(text, 'dna_point')}:12: dna_point is false with ending six-humans")


def test_six_humans_is_an_advanced_ending(game):
    (err,) = errors(game, sheet(("Ana", 2), ("Ben", 3), ending="six-humans"))
    assert err.startswith("sheet.yaml:3:9: ending six-humans is the advanced game's")


def test_an_advanced_game_never_ends_with_the_board_finished(game):
    # line 116: the DNA Collection Point lets the game go on past the last tile, and the
    # Ace of Suns (line 133) is one of the tiles, so it is in play once the board is finished
    (err,) = errors(game, sheet(("Ana", 2, 1), ("Ben", 3, 0), variant="advanced"))
    assert err.startswith("sheet.yaml:3:9: ending board-finished: an advanced game goes on past the last tile") and "line 116" in err


def test_only_one_player_can_store_six_humans(game):
    text = sheet(("Ana", 2, 6), ("Ben", 3, 6), ending="six-humans", variant="advanced")
    (err,) = errors(game, text)
    assert err.startswith(f"sheet.yaml:{line_of(text, 'humans:', 2)}:13: player Ben: 6 Humans stored, and so has Ana")


def test_the_winner_by_humans_still_has_a_cyborg(game):
    # the winning Human was stored by one of the winner's Cyborgs, and the game ended then
    (err,) = errors(game, sheet(("Ana", 0, 6), ("Ben", 3, 2), ending="six-humans", variant="advanced"))
    assert "player Ana: 0 Cyborgs, but a Cyborg stored the winning Human" in err


def test_stored_humans_only_with_the_dna_point(game):
    (err,) = errors(game, sheet(("Ana", 6, 2), ("Ben", 3), ending="six-cyborgs", variant="advanced"))
    assert "player Ana: humans is 2: Humans are stored only once the DNA Collection Point is in play" in err
    (err,) = errors(game, sheet(("Ana", 4, 2), ("Ben", 3)))
    assert err.startswith("sheet.yaml:7:13: player Ana: humans are stored only in the advanced game")
    (err,) = errors(game, sheet(("Ana", 4), ("Ben", 3), extra="dna_point: true\n"))
    assert err.startswith("sheet.yaml:4:12: dna_point is for the advanced game")


def test_no_humans_stored_in_the_basic_game_is_no_error(game):
    """Code review: the table's Humans track offers 0 in a basic game too; 0 stored says nothing."""
    winners, _ = result(game, sheet(("Ana", 4, 0), ("Ben", 5, 0)))
    assert winners == ["Ben"]


# ---------------------------------------------------------------- counts the game cannot hold


@pytest.mark.parametrize("row, message", [
    (("Ana", 7), "player Ana: cyborgs is 7: expected the Cyborgs on the board, Cyborg Factory included, 0 to 6 "
                 "(a player has 6, human-harvest-rules.txt line 17)"),
    (("Ana", -1), "player Ana: cyborgs is -1: expected"),
    (("Ana", "three"), "player Ana: cyborgs is 'three': expected"),
    (("Ana", True), "player Ana: cyborgs is true: expected"),  # YAML's spelling, as written, not Python's True
])
def test_cyborgs_beyond_one_suits_coins(game, row, message):
    text = sheet(row, ("Ben", 3))
    (err,) = errors(game, text)
    assert err.startswith(f"sheet.yaml:{line_of(text, 'cyborgs:')}:14: {message}")


def test_humans_beyond_six(game):
    (err,) = errors(game, sheet(("Ana", 3, 7), ("Ben", 3, 6), ending="six-humans", variant="advanced"))
    assert err.startswith("sheet.yaml:7:13: player Ana: humans is 7: expected the Humans stored, 0 to 6")


@pytest.mark.parametrize("count", [1, 5])
def test_player_count_from_game_yaml(game, count):
    # game.yaml's players option (human-harvest-rules.txt line 7: 2-4 players)
    (err,) = errors(game, sheet(*[(f"P{i}", 3) for i in range(count)]))
    assert err.startswith(f"sheet.yaml:4:1: players is {count} players: expected a list of 2 to 4 players")


def test_every_problem_is_one_located_line(game):
    text = ("game: human-harvest\nvariant: expert\nending: none\nwinner: Ana\nplayers:\n"
            "  - {name: Ana, cyborgs: 9, colour: red}\n  - {name: ana, cyborgs: 2}\n  - {cyborgs: 2}\nclaimed_winner: Zed\n")
    assert errors(game, text) == [
        "sheet.yaml:2:10: variant is 'expert': expected basic or advanced",
        "sheet.yaml:3:9: ending is 'none': expected how the game ended: six-cyborgs (a player got all 6 Cyborgs on the board), "
        "board-finished (the last tile was played first) or six-humans (advanced: 6 Humans stored)",
        "sheet.yaml:4:1: unknown key 'winner' (expected one of: game, variant, ending, dna_point, players, claimed_winner)",
        "sheet.yaml:6:26: player Ana: cyborgs is 9: expected the Cyborgs on the board, Cyborg Factory included, 0 to 6 "
        "(a player has 6, human-harvest-rules.txt line 17)",
        "sheet.yaml:6:29: player Ana: unknown key 'colour' (expected one of: name, cyborgs, humans)",
        "sheet.yaml:7:12: player ana: the name appears twice: expected one entry per player",
        "sheet.yaml:8:5: player 3: missing 'name': expected the player's name",
        "sheet.yaml:9:17: claimed_winner names 'Zed': expected one of Ana, ana, or none",
    ]


@pytest.mark.parametrize("typo, misspelt, error", [
    ("cyborgs: 5", "cyborg: 5", "player Ben: unknown key 'cyborg': did you mean 'cyborgs' (required)?"),
    ("ending:", "endng:", "unknown key 'endng': did you mean 'ending' (required)?"),
    ("players:", "playres:", "unknown key 'playres': did you mean 'players' (required)?"),
    ("name: Ana", "nam: Ana", "player 1: unknown key 'nam': did you mean 'name' (required)?"),
])
def test_a_misspelt_key_is_one_line_at_the_misspelling(game, typo, misspelt, error):
    """Before: `cyborg: 5` was two lines (cyborgs missing, 'cyborg' unknown), `playres:` three
    (the last: "claimed_winner names 'Ben': expected one of , or none"); one line now, the
    one pnp gives for a misspelt key in a content file (docs/writing-games.md "Errors")."""
    text = (sheet(("Ana", 4), ("Ben", 5), ("Cleo", 3)) + "claimed_winner: Ben\n").replace(typo, misspelt, 1)
    (err,) = errors(game, text)
    assert err.startswith(f"sheet.yaml:{line_of(text, misspelt)}:") and err.endswith(f": {error}"), err


def test_a_player_without_a_name_is_named_by_seat_once(game):
    # the seat stands in for the name in the player's messages, and is no name to claim
    text = "game: human-harvest\nending: board-finished\nplayers:\n  - {name: Ana, cyborgs: 2}\n  - {name: [Ben], cyborgs: 9}\nclaimed_winner: Ben\n"
    assert errors(game, text) == [
        "sheet.yaml:5:12: player 2: name is [Ben]: expected the player's name",
        "sheet.yaml:5:28: player 2: cyborgs is 9: expected the Cyborgs on the board, Cyborg Factory included, 0 to 6 "
        "(a player has 6, human-harvest-rules.txt line 17)",
        "sheet.yaml:6:17: claimed_winner names 'Ben': expected one of Ana, or none",
    ]


def test_a_mistyped_claim_or_key_does_not_hide_what_the_ending_cannot_leave(game):
    # two players with all 6 Cyborgs (line 30) is found beside a claim and a key that are wrong too
    text = sheet(("Ana", 6), ("Ben", 6), ending="six-cyborgs") + "claimed_winner: ana\nwinner: Ana\n"
    six, claim, key = errors(game, text)
    assert six.startswith(f"sheet.yaml:{line_of(text, 'cyborgs:', 2)}:14: player Ben: 6 Cyborgs, and so has Ana")
    assert claim.startswith(f"sheet.yaml:{line_of(text, 'claimed_winner')}:17: claimed_winner names 'ana'")
    assert key.startswith(f"sheet.yaml:{line_of(text, 'winner: Ana')}:1: unknown key 'winner'")


def test_cli_refuses_an_impossible_sheet_with_exit_2(tmp_path):
    path = tmp_path / "game.yaml"
    text = sheet(("Ana", 6), ("Ben", 6), ending="six-cyborgs")
    path.write_text(text)
    out = cli("score", str(path))
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert re.sub(r"^.*game\.yaml", "game.yaml", out.output.strip()) == (
        f"game.yaml:{line_of(text, 'cyborgs:', 2)}:14: player Ben: 6 Cyborgs, and so has Ana: the game ends when the first "
        "player gets all 6 on the board (human-harvest-rules.txt line 30), so only one can")


# ---------------------------------------------------------------- claims and exit codes


def test_claimed_winner_exit_codes(tmp_path):
    path = tmp_path / "game.yaml"
    for claim, code in (("Ben", 0), ("[Ben]", 0), ("Ana", 1), ("none", 1), ("[Ana, Ben]", 1)):
        path.write_text(sheet(("Ana", 3), ("Ben", 5)) + f"claimed_winner: {claim}\n")
        out = cli("score", str(path), "--json")
        assert out.exit_code == code, (claim, out.output)
        data = json.loads(out.stdout)
        assert data["claimed_winner_ok"] is (code == 0)
    assert data["mismatches"] == ["mismatch: claimed winner Ana, Ben, computed Ben"]


def test_a_shared_win_may_be_claimed(game):
    report = score(game, sheet(("Ana", 4), ("Ben", 4)) + "claimed_winner: [Ben, Ana]\n")
    assert report.exit_code == 0 and report.mismatch_places() == []


# ---------------------------------------------------------------- the examples, the blank sheet, the content


@pytest.mark.parametrize("name, winners", [("human-harvest-3p.yaml", ["Ben"]), ("human-harvest-4p-advanced.yaml", ["Ana"])])
def test_examples_score(name, winners):
    out = cli("score", str(REPO / "examples" / name), "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["winners"] == winners


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_blank_sheet_is_a_sheet_the_checker_reads(game, players):
    out = cli("sheet", "human-harvest", "-n", str(players), "--template")
    assert out.exit_code == 0, out.output
    data = score(game, out.stdout).to_json()
    assert [p["name"] for p in data["players"]] == [f"Player {i}" for i in range(1, players + 1)]
    assert data["ending"] == "board-finished" and data["variant"] == "basic"


def test_a_printable_sheet_beside_the_template(tmp_path):
    # sheet_component: the paper sheet (tests/test_hh_printable_sheet.py), as well as the YAML one
    out = cli("sheet", "human-harvest", "-n", "2", "--out", str(tmp_path / "out"))
    assert out.exit_code == 0, out.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["scoring-sheet-2p.pdf", "scoring-sheet-2p.svg"]
    five = cli("sheet", "human-harvest", "-n", "5", "--out", str(tmp_path / "five"))
    assert five.exit_code == 2 and five.output.endswith("--players 5: expected a number of players from 2 to 4 (human-harvest option 'players')\n")
    assert not (tmp_path / "five").exists()
    assert cli("sheet", "human-harvest", "-n", "5", "--template").exit_code == 2


def test_cyborgs_per_player_must_fit_one_suits_coins(copy_game, trusted):
    project = trusted(copy_game("human-harvest"))
    path = project.content_dir / "human-harvest/scoring.yaml"
    text = path.read_text()
    path.write_text(text.replace("cyborgs_per_player: 6", "cyborgs_per_player: 7"))
    with pytest.raises(PnpError) as exc:
        load_game(project, "human-harvest")
    (err,) = [str(e) for e in exc.value.errors]
    assert err.endswith(f"scoring.yaml:{line_of(text, 'cyborgs_per_player')}:21: cyborgs_per_player is 7: expected at most 6, "
                        "the coins of one suit (piecepack.yaml ranks), as a player's Cyborgs are (human-harvest-rules.txt line 17)")


@pytest.mark.skipif(not RULES.is_file(), reason="the rule book is not in this checkout")
@pytest.mark.parametrize("line, words", [(17, "stack of six Cyborgs"), (30, "all 6 of his Cyborgs on the board"),
                                         (116, "the first player with 6 Humans stored"), (151, "no longer win by getting 6 Cyborgs"),
                                         (23, "18 Humans can come into play"), (143, "unlimited source of Humans")])
def test_the_cited_lines_say_what_the_checker_reads(line, words):
    assert words in RULES.read_text().splitlines()[line - 1]


@pytest.mark.parametrize("players, refused", [
    ((("Ana", 2), ("Ben", 1)), False),
    ((("Ana", 7), ("Ben", 1)), True),  # more Cyborgs than a player has (line 17)
    ((("Ana", 2, 7), ("Ben", 1)), True),  # more Humans stored than win (line 151)
    ((("Ana", 2),), True),  # a seat short of the 2-4 players (line 7)
    (tuple((f"P{n}", 1) for n in range(5)), True),
])
def test_the_sheet_schema_bounds_what_the_scorer_bounds(game, players, refused):
    """Before: the schema had no bounds on players, Cyborgs or Humans: an editor (and pnp serve's
    form) took a sheet the scorer refuses. Its bounds are read from the content the scorer reads."""
    import jsonschema

    from pnp.score.dispatch import sheet_schema

    text = sheet(*players, variant="advanced" if any(len(p) > 2 for p in players) else "basic")
    schema_said = list(jsonschema.Draft202012Validator(sheet_schema(game)).iter_errors(yaml.safe_load(text)))
    try:
        score(game, text)
        scorer_said = False
    except PnpError:
        scorer_said = True
    assert (bool(schema_said), scorer_said) == (refused, refused), schema_said
