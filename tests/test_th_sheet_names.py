"""Tasty Humans sheets take what the table reads: the names printed on the components
(leader titles, monster names, adventurer card names) in any case and spacing, stomach
rows in lower case; and one slip gives one line."""

from __future__ import annotations

import pytest

from pnp.load.content import load_game
from pnp.score.dispatch import score_sheet
from game_plugins import game_module
from test_th_scoring_sheet import BASE, SOLO, problems

Names = game_module("tasty_humans", "names").Names
sheet_names = game_module("tasty_humans", "sheet").sheet_names


def _scored(repo_project, path) -> dict:
    report = score_sheet(repo_project, path).to_json()
    report.pop("sheet")
    return report


def test_printed_names_score_as_the_ids(sheet, repo_project):
    by_id = _scored(repo_project, sheet(BASE))
    printed = (BASE
               .replace("{1: line-hand, 2: range-boot, 3: least-type, 4: sight-leader}",
                        '{1: Hand Line, 2: boot range, 3: "SCARCEST  FARE", 4: Leader-Sight}')
               .replace("held: chain-orthogonal", "held: Straight Chain")
               .replace("monster: troll", "monster: TROLL")
               .replace("monster: griffin", "monster: Griffin"))
    game = load_game(repo_project, "tasty-humans")
    titles = {l.id: l.title for l in game.data["leaders"].leaders}
    # the names written above are the tiles' own titles, in another case and spacing
    assert (titles["least-type"], titles["sight-leader"], titles["chain-orthogonal"]) == ("Scarcest Fare", "Leader Sight", "Straight Chain")
    assert _scored(repo_project, sheet(printed)) == by_id


def test_solo_ai_cards_by_the_names_on_the_cards(sheet, repo_project):
    game = load_game(repo_project, "tasty-humans")
    names = {a.id: a.name for a in game.data["adventurers"].adventurers}
    ids = ["adv-44", "adv-45", "adv-20", "adv-10", "adv-11", "adv-12", "adv-27", "adv-28", "adv-37", "adv-38"]
    written = ", ".join(f'"{names[c].upper() if i % 2 else names[c]}"' for i, c in enumerate(ids))
    by_name = SOLO.replace(", ".join(ids), written)
    assert by_name != SOLO
    assert _scored(repo_project, sheet(by_name)) == _scored(repo_project, sheet(SOLO))
    # a card named twice is one card listed twice, whichever way it is written
    twice = SOLO.replace("adv-38]", f'"{names["adv-37"]}"]')
    assert problems(sheet(twice)) == [f"game.yaml:13: solo.ai_cards: {names['adv-37']!r} (adv-37) is listed twice: each adventurer card exists once"]


def test_every_printed_name_names_its_own_component(repo_project):
    """No two components print the same name: each printed name is accepted."""
    game = load_game(repo_project, "tasty-humans")
    for kind, names in sheet_names(game).items():
        assert names.printed, kind
        for cid, printed in names.printed.items():
            assert names.id_of(printed) == cid and names.id_of(cid) == cid


def test_names_case_space_and_ambiguity():
    names = Names("leader", "title printed on the leader tile", "leaders.yaml",
                  [("range-boot", "Boot Range"), ("a", "Same"), ("b", "Same"), ("c", "B")])
    for text in ["Boot Range", "boot range", "BOOT  RANGE", "boot-range", "BootRange", "range boot", "RANGE-BOOT"]:
        assert names.id_of(text) == "range-boot", text
    assert names.id_of("Same") is None  # printed on two tiles: names neither
    assert names.id_of("b") == "b"  # an id means itself, before another tile's title
    assert names.resolve("Boot Rnage") == "Boot Rnage" and names.resolve(None) is None
    assert names.unknown("Boot Rnage").endswith(" (did you mean 'Boot Range'?)")
    assert "did you mean" not in names.unknown("zzzzzz")


def test_unknown_leader_names_the_near_tile(sheet):
    assert problems(sheet(BASE.replace("2: range-boot", "2: Boot Rang"))) == [
        "game.yaml:7: Ana: leader 2: unknown leader 'Boot Rang': expected the title printed on the leader tile, or its id from leaders.yaml, "
        "such as 'Helmet Line' or 'line-helmet' (did you mean 'Boot Range'?)"
    ]


def test_lower_case_stomach_row_reads_as_upper_case(sheet, repo_project):
    lower = BASE.replace("      H A B G 1 H\n", "      h a b g 1 h\n").replace("A A D D B 4", "a a d d b 4")
    assert lower != BASE
    assert _scored(repo_project, sheet(lower)) == _scored(repo_project, sheet(BASE))
    # a letter that is no tile in either case is still refused, with the printed legend
    assert problems(sheet(BASE.replace("H A B G 1 H", "H A B x 1 H"))) == [
        "game.yaml:10: Ana, row 1 column 4: unknown symbol 'x' (U+0078): expected H A B G D, 1-5 (leaders) or ."
    ]


@pytest.mark.parametrize("change, expected", [
    # leader listed under a digit the sheet has no room for, and on another board too
    (("4: sight-leader}", "4: sight-leader, 6: feast-hand}"), ["game.yaml:7: Ana: leader 6: expected a digit 1 to 5"]),
    # listed, but not on this board, and on another board: the tile is the other's
    (("4: sight-leader}", "4: sight-leader, 5: feast-hand}"),
     ["game.yaml:7: Ana: leader 5: 'feast-hand' is neither in the stomach nor held: expected digit 5 on the board, or held: feast-hand"]),
    # the same, named by its title: the line quotes it, with the id
    (("4: sight-leader}", "4: sight-leader, 5: Hand Feast}"),
     ["game.yaml:7: Ana: leader 5: 'Hand Feast' (feast-hand) is neither in the stomach nor held: expected digit 5 on the board, or held: feast-hand"]),
])
def test_one_slip_one_line(sheet, change, expected):
    old, new = change
    assert BASE.count(old) == 1
    assert problems(sheet(BASE.replace(old, new))) == expected


def test_an_empty_monster_says_it_is_empty(sheet):
    """`monster: ''` reads like `monster:`: the board is empty, not an unknown monster
    named '' (and two empty ones are not the same board twice)."""
    for empty in ("''", '""', "'  '", ""):
        text = BASE.replace("    monster: troll", f"    monster: {empty}").replace("    monster: griffin", f"    monster: {empty}")
        lines = problems(sheet(text))
        assert [line.split(": expected")[0] for line in lines] == ["game.yaml:5: Ana: monster is empty", "game.yaml:18: Bo: monster is empty"], empty
        assert lines[0].endswith(": expected one of legendary-dragon, twin-headed-dragon, griffin, troll")


@pytest.mark.parametrize("empty", ["''", '""', "'  '"])
def test_an_empty_held_or_leader_says_it_is_empty(sheet, empty):
    """`held: ''` and `2: ''` are empty, not an unknown leader named '' (one line each)."""
    assert problems(sheet(BASE.replace("held: chain-orthogonal", f"held: {empty}"))) == [
        "game.yaml:8: Ana: held is empty: expected the leader still in the Leader space (the title on its tile, or its id), or null"
    ]
    assert problems(sheet(BASE.replace("2: range-boot", f"2: {empty}"))) == [
        "game.yaml:7: Ana: leader 2 is empty: expected the title printed on its tile, or its id, or no 2: when digit 2 is not on the board"
    ]


def test_a_repeated_leader_or_card_is_named_as_written_and_by_id(sheet):
    # another player's tile, by its title
    assert problems(sheet(BASE.replace("2: diagonal-helmet", "2: Hand Line"))) == [
        "game.yaml:19: Bo: leader 'Hand Line' (line-hand) is also Ana's: there is one tile of each leader"
    ]
    # the same tile twice on one board, and held though in the stomach, each as written
    assert problems(sheet(BASE.replace("2: range-boot", "2: HAND LINE"))) == [
        "game.yaml:7: Ana: leader 2: 'HAND LINE' (line-hand) is also leader 1: there is one tile of each leader"
    ]
    assert problems(sheet(BASE.replace("held: chain-orthogonal", "held: boot range"))) == [
        "game.yaml:8: Ana: held: 'boot range' (range-boot) is also in the stomach: a held leader was not eaten"
    ]
    # an A.I. card listed twice, the second time by the name printed on it
    assert problems(sheet(SOLO.replace("adv-38]", "Adv-37]"))) == [
        "game.yaml:13: solo.ai_cards: 'Adv-37' (adv-37) is listed twice: each adventurer card exists once"
    ]
