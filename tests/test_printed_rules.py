"""Issue 26: rules a player needs are printed, and checked against the rule lines they
cite. Each piece is rendered, its text read back from the SVG, and every claim below is
a pair: what the piece prints, and the words of the rule book on the cited line. The rule
books are read from ../shared/rules (or $PNP_RULE_BOOKS) when present, so a wrong line
number fails here; the printed side is checked in any case.

Choices of ours printed on a piece must say so on the piece ("our choice" / "our
reading" / "our count").
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pnp.load.content import Project, load_game
from pnp.render.faces import render_game
from conftest import RULE_BOOKS

REPO = Path(__file__).resolve().parent.parent
BOOKS = RULE_BOOKS
NS = "{http://www.w3.org/2000/svg}"
PUBLISHED, V028 = "tasty-humans-rules-final.txt", "tasty-humans-rules-0.2.8.txt"
DIETRICK, CAVE = "dietrick-taking-rules.txt", "cave-game-rules.txt"


def _squash(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").split())


def _svg_words(svg: str) -> str:
    root = ET.fromstring(svg)
    return _squash(" ".join("".join(t.itertext()) for t in root.iter(NS + "text")))


_faces: dict[tuple, dict[str, str]] = {}


def faces(game: str, component: str, **options) -> dict[str, str]:
    """face name -> its text, for one component rendered with these options (cached)."""
    key = (game, component, tuple(sorted(options.items())))
    if key not in _faces:
        rendered = render_game(load_game(Project(REPO), game), options, 0.0, only={component})
        _faces[key] = {f.name: _svg_words(f.svg) for c in rendered for f in c.faces}
    return _faces[key]


def rule_line(book: str, line: int) -> str:
    path = BOOKS / book
    if not path.is_file():
        pytest.skip(f"rule book {path} not here: only the printed side is checked")
    return _squash(path.read_text(encoding="utf-8").splitlines()[line - 1]).lower()


def check(printed: str, phrase: str, book: str, line: int, rule: str) -> None:
    assert phrase in printed, f"not printed: {phrase!r}"
    assert rule.lower() in rule_line(book, line), f"{book}:{line} does not say {rule!r}"


# --- Tasty Humans: the solo A.I. card, one per rule version (issue item 3) -----------------

SOLO_PUBLISHED = [
    ("you start with the King", 218, "The solo player starts with the Village King Token"),
    ("it starts with that many adventurer cards", 229, "deal cards from the adventurer deck equal to the A.I.'s level"),
    ("0 Baby Beast", 224, "Baby Beast"),
    ("6 Looming Legend", 227, "Looming Legend"),
    ("You take both turns, first and last", 249, "the solo player always picks first and last in each round"),
    ("the A.I. takes the other two cards of that card's row while you hold the King", 233,
     "If the solo player currently has the Village King Token, then the A.I. will select the two cards in the same row"),
    ("or of its column while the A.I. holds it", 233,
     "If the A.I. currently has the Village King Token, then the A.I. will select the two cards in the same column"),
    ("For an empty space it takes the deck's top card instead", 237, "the A.I. draws the top card of the Adventurer Deck"),
    ("Your second pick gives the A.I. nothing", 241, "The A.I. will not take any cards after this selection"),
    ("The A.I. takes no leader", 243, "the A.I. will not pick one of the Leader Tiles"),
    ("You have more: nothing is discarded", 245, "no Leader Tiles are discarded"),
    ("The A.I. ties or has one more: discard the leftmost leader", 246,
     "the same number of icons as the solo player, or exactly one more, then the leftmost Leader Tile is discarded"),
    ("The A.I. has two or more extra: discard the two leftmost; take the last one", 247,
     "exceeds the solo players by two or more, then the two leftmost Leader Tiles are discarded"),
    ("the King passes between you and the A.I.", 249, "The Village King Token is then passed to the A.I."),
    ("you get no King bonus", 257, "There is no two-point bonus"),
    ("(Peasant cards score none of these)", 261, "Peasant cards are ignored during this step"),
    ("plus 1 point per tile in the shape of every card it holds", 265, "based on the size of the shape on that card"),
    ("You win with a score equal to or above the A.I.'s", 267, "the solo player wins if their score is equal to or greater"),
]

SOLO_028 = [
    ("random leader goes in your Grip, and you start with the King", 233,
     "placing a random Leader Tile in the \u201cGrip\u201d space"),
    ("Any level from 0 up (this version names none)", 237, "deal cards from the adventurer deck equal to the A.I.'s level"),
    ("the A.I. takes the other two cards of that card's row while you hold the King", 241,
     "If the solo player currently has the Village King Token, then the A.I. will select the two cards in the same row"),
    ("For an empty space it takes the deck's top card instead", 245, "the A.I. draws the top card of the Adventurer Deck"),
    ("The A.I. ties or has one more: discard the leftmost leader", 254, "or exactly one more, then the leftmost Leader Tile is discarded"),
    ("discard the two leftmost", 255, "then the two leftmost Leader Tiles are discarded"),
    ("you get no King bonus", 265, "There is no two-point bonus"),
    ("(No Type cards score none of these)", 269, "Cards with no class type icon are ignored in this step"),
    ("You win with a score equal to or above the A.I.'s", 276, "equal to or greater than the A.I."),
]


@pytest.mark.parametrize("phrase, line, rule", SOLO_PUBLISHED, ids=[p for p, _, _ in SOLO_PUBLISHED])
def test_solo_card_published(phrase, line, rule):
    check(faces("tasty-humans", "solo-reference")["solo"], phrase, PUBLISHED, line, rule)


@pytest.mark.parametrize("phrase, line, rule", SOLO_028, ids=[p for p, _, _ in SOLO_028])
def test_solo_card_028(phrase, line, rule):
    check(faces("tasty-humans", "solo-reference", rules="0.2.8")["solo"], phrase, V028, line, rule)


def test_solo_card_back_wins_on_a_tie_as_the_front_does():
    """The audit's item 3: the back said a challenge is won only by "beating" the A.I.,
    against the front and lines 267 and 283 (a tie wins). Both sides print one sentence
    of reference.yaml (solo.win)."""
    back = faces("tasty-humans", "solo-reference")["solo-back"]
    assert "beating" not in back
    check(back, "You then win only with a score equal to or above the A.I.'s and the challenge met", PUBLISHED, 283,
          "and still score as much as the A.I., then they win the challenge")
    check(faces("tasty-humans", "solo-reference")["solo"], "You win with a score equal to or above the A.I.'s", PUBLISHED, 267,
          "the solo player wins if their score is equal to or greater than the A.I.'s score")


@pytest.mark.parametrize("version, book, line", [({}, PUBLISHED, 265), ({"rules": "0.2.8"}, V028, 272)])
def test_ai_shapes_score_a_point_a_tile_not_squared(version, book, line):
    """F265, O272: a card's shape scores its size (2 tiles, 2 points). The solo card said
    "the squares of the shape" and the 1-player sheet "Shape squares", right under "Cards
    of each class, squared": both read as squaring the size."""
    card = faces("tasty-humans", "solo-reference", **version)["solo"]
    sheet = faces("tasty-humans", "scoring-sheet", **version)["players-1"]
    rule = "a card with a 4-tile shape would score 4 points"
    check(card, "plus 1 point per tile in the shape of every card it holds", book, line, rule)
    check(sheet, "Shapes: 1 point per tile in the shape of every A.I. card", book, line, rule)
    game = load_game(Project(REPO), "tasty-humans")
    blank = game.plugin.sheet_template(game, 1, version)  # the YAML sheet's note on ai_cards
    for words in (card, sheet, blank):
        assert "squares of the shape" not in words and "shape squares" not in words.lower()


def test_solo_cards_differ_only_where_the_versions_do():
    new = faces("tasty-humans", "solo-reference")["solo"]
    old = faces("tasty-humans", "solo-reference", rules="0.2.8")["solo"]
    assert "Baby Beast" not in old and "Peasant" not in old and "Leader space" not in old
    assert "Grip" not in new and "No Type" not in new
    assert new.endswith("Tasty Humans · Published rules") and old.endswith("Tasty Humans · Rules 0.2.8")


# --- Tasty Humans: placement rules on the turn summary (item 4), names of 0.2.8 (item 7) ---

PLACEMENT = [
    ("Tiles over a full column are left out", "tiles for that column are ignored"),
    ("but at least one tile must land", "at least one tile must always fall into the stomach"),
    ("The whole shape stays over columns 1-6", "no part of the shape can extend beyond the first or sixth column"),
]


@pytest.mark.parametrize("version, book, line", [({}, PUBLISHED, 118), ({"rules": "0.2.8"}, V028, 137)])
@pytest.mark.parametrize("phrase, rule", PLACEMENT, ids=[p for p, _ in PLACEMENT])
def test_reference_card_gives_the_placement_rules(version, book, line, phrase, rule):
    check(faces("tasty-humans", "reference-card", **version)["reference"], phrase, book, line, rule)


def test_reference_card_names_the_space_as_each_version_does():
    check(faces("tasty-humans", "reference-card", rules="0.2.8")["reference"], "Put the new leader in your Grip", V028, 175,
          "the \u201cGrip\u201d space")
    old = faces("tasty-humans", "reference-card", rules="0.2.8")["reference"]
    assert "leader space" not in old.lower()
    check(faces("tasty-humans", "reference-card")["reference"], "Put the new leader in your Leader space", PUBLISHED, 176,
          "Leader Space")


def test_reference_card_marks_our_readings():
    words = faces("tasty-humans", "reference-card")["reference"]
    # one stack per Leader Phase is implied, never written (F42, O61 reveal only the first)
    assert "a stack a draft: our reading" in words
    # rules.yaml rulings.stacks_run_out
    assert "No stack left: rounds go on without a draft (our choice; the rules are silent)" in words


def test_reference_card_says_how_to_set_up():
    """The kit printed no multiplayer setup (the solo card has its own): the reference card
    does, in the version's words for the space and the board."""
    words = faces("tasty-humans", "reference-card")["reference"]
    check(words, "Everyone takes a random monster board and puts a random leader tile face up in its Leader space.",
          PUBLISHED, 40, 'Each player randomly draws a Leader Tile and places it face-up in the "Leader" space')
    check(words, "Build the leader stacks as the leader tile board shows", PUBLISHED, 42, "Place these stacks on the spaces of the Leader Tile Board")
    check(words, "deal 9 face up in a 3 x 3 grid", PUBLISHED, 44, "deal 9 cards face up into a 3 x 3 grid")
    check(words, "A random player takes the Village King and starts.", PUBLISHED, 46, "Randomly select a player to go first, and place the Village King Token")
    old = faces("tasty-humans", "reference-card", rules="0.2.8")["reference"]
    check(old, "random leader tile face up in its Grip. Build the leader stacks as the round board shows", V028, 59,
          "places it face-up in the \u201cGrip\u201d space")
    check(old, "A random player takes the Village King and starts.", V028, 65, "Randomly select a player to go first, and give them the Village King Token")


def test_leader_board_headings_follow_the_version():
    check(faces("tasty-humans", "leader-board")["leader-board"], "PLACE FROM RIGHT TO LEFT", PUBLISHED, 42,
          "Place these stacks on the spaces of the Leader Tile Board from right to left")
    check(faces("tasty-humans", "leader-board")["leader-board"], "REVEAL THE LEFTMOST STACK HERE", PUBLISHED, 42,
          "reveal all the tiles from the leftmost stack and place them in the open row")
    old = faces("tasty-humans", "leader-board", rules="0.2.8")["leader-board"]
    check(old, "REVEAL IN NUMBER ORDER (OUR CHOICE)", V028, 61, "reveal all the tiles from the first stack")
    assert "RIGHT TO LEFT" not in old and "LEFTMOST" not in old and "(OUR CHOICE OF PLACE)" in old
    assert "right to left" not in rule_line(V028, 61)


# --- Tasty Humans: tie-break fields and seat order on the scoring sheet (item 6) -----------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_scoring_sheet_published_tie_break(players):
    words = faces("tasty-humans", "scoring-sheet")[f"players-{players}"]
    assert [f"Seat {s}" in words for s in range(1, players + 1)] == [True] * players
    assert words.count("Ties:") == players
    check(words, "1. fewest damage tiles", PUBLISHED, 204, "the player with the least Damage Tiles in their stomach is the winner")
    check(words, "2. leaders' points, lowest first", PUBLISHED, 204, "whose lowest-scoring Leader Tile earned more points")
    check(words, "3. a shared win", PUBLISHED, 204, "tied players share the victory")
    assert "empty cells" not in words


def test_reference_card_ties_compare_up_to_the_leader_limit():
    """F204 compares leaders "for up to five Leader Tiles (or four in a 4-player game)": the
    card says so, from rules.yaml leaders_max_by_players (where the scorer stops too)."""
    check(faces("tasty-humans", "reference-card")["reference"],
          "then the better lowest-scoring leader, then the next lowest, up to 5 leaders (4 in a 4-player game), then a shared win",
          PUBLISHED, 204, "up to five Leader Tiles (or four in a 4-player game)")
    # 0.2.8 compares no leaders (O215)
    assert "up to 5 leaders" not in faces("tasty-humans", "reference-card", rules="0.2.8")["reference"]


def test_scoring_sheet_leader_boxes_follow_the_leader_limit():
    """F204: "up to five Leader Tiles (or four in a 4-player game)": one box per leader."""
    game = load_game(Project(REPO), "tasty-humans")
    rendered = render_game(game, {}, 0.0, only={"scoring-sheet"})
    for face in rendered[0].faces:
        root = ET.fromstring(face.svg)
        fields = [g for g in root.iter(NS + "g") if g.get("class") == "tie-field" and g.get("data-step") == "leaders-ascending"]
        players = int(face.name.split("-")[1])
        if players == 1:
            assert fields == []  # solo: no tie between players
            continue
        assert len(fields) == players
        assert {len(list(g.iter(NS + "rect"))) for g in fields} == {4 if players == 4 else 5}
    assert "up to five leader tiles (or four in a 4-player game)" in rule_line(PUBLISHED, 204)


def test_scoring_sheet_028_tie_break_needs_the_seats():
    words = faces("tasty-humans", "scoring-sheet", rules="0.2.8")["players-3"]
    check(words, "1. fewest damage tiles", V028, 215, "the player with the least Damage Tiles is the winner")
    check(words, "2. fewest empty cells", V028, 215, "the player with the least empty spaces in their stomach is the winner")
    check(words, "3. seat order, clockwise from the King token", V028, 215, "resolve it from the player with the Village King Token")
    check(words, "two Kings: who has it?", V028, 197, "all players that filled their stomach will receive the bonus for the Village King Token")
    check(words, "Fill in the players in seat order, clockwise.", V028, 215, "moving clockwise")
    assert "Seat 1" in words and "Seat 3" in words and "lowest first" not in words


@pytest.mark.parametrize("version", [{}, {"rules": "0.2.8"}])
def test_scoring_sheet_says_the_total_and_the_seat_order_apart(version):
    """The hint ran two instructions into one: "...and the Village King; fill in the
    players in seat order, clockwise for the total." Two sentences now; solo has no seats."""
    sheets = faces("tasty-humans", "scoring-sheet", **version)
    for players in (2, 3, 4):
        words = sheets[f"players-{players}"]
        assert ("Add up leaders, craving, damage and the Village King for the total. "
                "Fill in the players in seat order, clockwise. The game ended") in words
        assert "clockwise for the total" not in words
    solo = sheets["players-1"]
    assert "Add up leaders, craving, damage for the total. The game ended" in solo and "seat order" not in solo


# --- Dietrick-taking: solo card and Beginner Class (item 5) --------------------------------

DIETRICK_SOLO = [
    ("deal yourself 12 cards face down: your own deck", 93, "deal yourself 12 cards face down"),
    ("The rest is Fuzz's deck", 93, "The rest of the deck is called the \"Fuzz\""),
    ("Place markers as for two players (one pair is Fuzz's)", 93, "as you would for a 2-player game (one is for Fuzz)"),
    ("Fuzz leads the first trick of every round", 95, "The lead player for the first trick every round is Fuzz"),
    ("one card when it leads, two when you lead", 97, "If Fuzz goes second, flip and reveal the top two cards"),
    ("take the lowest card of the trick into your hand", 99, "add the lowest card from the trick to your hand"),
    ("put the top card of your own deck face down under Fuzz's deck", 99, "into the bottom of the Fuzz deck"),
    ("draw from your own deck (nothing once it is empty)", 101, "If your personal deck, is empty your hand will not be refilled"),
    ("When your hand is empty, or a marker reaches square 13", 101, "until you run out of cards in your hand or reach the 13th square"),
    ("Fuzz wins a tied gap", 103, "if the difference is the same, Fuzz is the winner"),
]


@pytest.mark.parametrize("phrase, line, rule", DIETRICK_SOLO, ids=[p for p, _, _ in DIETRICK_SOLO])
def test_dietrick_solo_card(phrase, line, rule):
    check(faces("dietrick-taking", "solo-reference")["solo"], phrase, DIETRICK, line, rule)


def test_dietrick_solo_scoring_sheet_gives_only_the_solo_tie_rule():
    """The solo sheet printed the 2-4 player tie-break (higher bottom, then top, then a
    shared win) under its own End line, where a tied gap is Fuzz's."""
    sheets = faces("dietrick-taking", "scoring-sheet")
    solo = sheets["players-1"]
    check(solo, "on the same gap Fuzz wins, whatever the numbers", DIETRICK, 103, "if the difference is the same, Fuzz is the winner")
    check(solo, "Fuzz wins a tied gap", DIETRICK, 103, "if the difference is the same, Fuzz is the winner")
    assert "Ties:" not in solo and "higher bottom number" not in solo and "shared win" not in solo
    for n in (2, 3, 4):
        check(sheets[f"players-{n}"], "Ties: higher bottom number, then higher top number, then a shared win", DIETRICK, 83,
              "the winner is the one with the highest number on the bottom scoring card")


# The rule book is not reprinted (game.yaml's contents): the reference front carries the
# 2-4 player set-up, which no printed piece gave.
DIETRICK_SETUP = [
    ("Whoever last stood on a scale leads (or pick at random)", 23, "most recently stepped on a scale is the lead player (or determine randomly)"),
    ("Deal 5 cards each; the rest is the deck", 23, "deal 5 cards to each player as a hand"),
    ("Lay scoring cards 1-4 left to right", 23, "from left to right in ascending order (1-4)"),
    ("(after a first game 1-3 in any order, 4 always last)", 23, "you can arrange 1 to 3 in any order you like (4 must always be last)"),
    ("Put a marker just left of each row", 25, "one on the top left and one on the bottom left outside edge"),
    ("the third stays in front of you", 25, "Keep the final one in front of yourself"),
    ("then draws up to 5", 63, "draw cards from the top of the deck until they have 5 cards"),
]


@pytest.mark.parametrize("phrase, line, rule", DIETRICK_SETUP, ids=[p for p, _, _ in DIETRICK_SETUP])
def test_dietrick_reference_front_gives_the_set_up(phrase, line, rule):
    fronts = faces("dietrick-taking", "reference")
    for colour in ("tomato", "mint", "grape", "liquorice"):
        check(fronts[colour], phrase, DIETRICK, line, rule)


def test_dietrick_reference_back_gives_the_beginner_class_and_marks_our_count():
    backs = faces("dietrick-taking", "reference")
    for colour in ("tomato", "mint", "grape", "liquorice"):
        words = backs[f"{colour}-back"]
        check(words, "Leave the numbers out: the smallest gap in squares", DIETRICK, 89, "Ignore the numbers on the scoring cards")
        check(words, "(4th yellow and 2nd blue square: a gap of 2)", DIETRICK, 89, "is a score of 2")
        # line 75 says 10 at four players; the procedure of lines 63-73 gives 9 (scoring.yaml)
        check(words, "9 tricks at 4 (our count; the book says 10)", DIETRICK, 75, "14/15/10")
        assert "14 tricks at 2, 15 tricks at 3" in words


# --- The Cave: inventions marked on the pieces (item 8) ------------------------------------

def test_cave_summary_marks_our_choices_and_lists_the_sanity_ruling():
    back = faces("cave", "summary")["back"]
    check(back, "ENERGY starts at 20 of 20 and SANITY at 10 (our choice: the rules give no start)", CAVE, 71, "20 step meter ENERGY")
    assert "our choice" in back.lower()
    # lines 49-51 disagree (roll every turn / only when alone): the ruling is printed
    check(back, "you roll for SANITY only when alone (with company you gain 1)", CAVE, 50, "If a character is alone on a tile the player must roll D10")
    assert "Roll D10 every turn to test SANITY".lower() in rule_line(CAVE, 49)
    check(back, "ENERGY drops by 1 once a round", CAVE, 19, "Consume 1 ENERGY on character card meter, at the start of the first player turn")


def test_cave_summary_says_where_the_pawns_start():
    """The rules place the start tile at game start (lines 5, 101) and never the pawns:
    the summary says where they go, as our reading."""
    back = faces("cave", "summary")["back"]
    check(back, "Each character: a pawn (it starts on the start tile: our reading)", CAVE, 5, "placed freely on the board at game start")
    assert "pawn" not in rule_line(CAVE, 101)


def test_cave_character_cards_mark_the_start_and_field_ranges():
    cards = [words for name, words in faces("cave", "characters").items() if "ENERGY" in words]  # fronts, not the back
    assert len(cards) == 6
    for words in cards:
        assert "start (our choice)" in words and "Field ranges and start squares: our choice." in words
    # the rule book gives the fields' bonuses, not their ranges
    for line, field in ((36, "GREEN FIELD"), (37, "YELLOW FIELD"), (38, "RED FIELD")):
        text = rule_line(CAVE, line)
        assert field.lower() in text and not any(ch.isdigit() and ch not in "12" for ch in text)


def test_cave_summary_exit_ends_the_energy_loss_not_a_free_step():
    """Lines 66-67 under the once-a-round loss of line 19: a character who has left the
    cave loses no more ENERGY; 'stepping onto an exit costs no ENERGY' contradicted the
    Round section and is gone."""
    back = faces("cave", "summary")["back"]
    check(back, "you have left the cave: from then on you lose no more ENERGY", CAVE, 67, "Cave")
    assert "does not consume 1 energy" in rule_line(CAVE, 66)
    assert "costs no ENERGY" not in back


def test_cave_summary_events_come_when_laid_and_food_rooms_feed_once():
    """An EVENT room draws when its tile is laid (line 26), a token when entered (line 29),
    not on every entry; a FOOD room's card on re-entry is our choice (lines 64, 74 silent)."""
    front = faces("cave", "summary")["rules-summary"]
    check(front, "You lay an EVENT room: draw an EVENT card.", CAVE, 26, "triggered by flipping a cave tile")
    check(front, "You walk onto an EVENT token: draw one.", CAVE, 29, "enter a tile containing an EVENT TOKEN")
    check(front, "take a FOOD card, only the first time (our choice)", CAVE, 64, "receive 1 FOOD CARD")
    assert "EVENT room or EVENT token" not in front


def test_cave_summary_moves_one_square_never_diagonally():
    """Line 59's "Cannot move diagonally" had been cut from Move to make room: it is back."""
    front = faces("cave", "summary")["rules-summary"]
    check(front, "One square up, down, left or right, never diagonally.", CAVE, 59, "Cannot move diagonally")


def test_cave_summary_keeps_occupied_tiles_and_the_start_after_a_turn():
    """Read literally, lines 18 and 69 discard the tile you stand on: the card says which
    tiles stay."""
    front = faces("cave", "summary")["rules-summary"]
    check(front, "except your own tile, tiles with a character on them and the start tile (our ruling)",
          CAVE, 18, "Remove tile(s) out of VISUAL RANGE")
    assert "1 adjacent space" in rule_line(CAVE, 69)


def test_cave_summary_places_the_event_tokens_with_the_coordinate_roll():
    """Line 24 rolls coordinates and line 29 has EVENT tokens, neither says when: our
    choice is printed as one."""
    front = faces("cave", "summary")["rules-summary"]
    check(front, "Roll the D8 and D12 for each EVENT token and put it on that square", CAVE, 24, "Roll D8 and D12 to get coordinates")
    assert "(our choice: the rules say neither when)" in front
    assert "event token" in rule_line(CAVE, 29)


def test_cave_summary_eating_discards_to_the_food_pile_and_counts_each_meal():
    front = faces("cave", "summary")["rules-summary"]
    check(front, "Eaten cards go to the FOOD discard pile, not the tile discard.", CAVE, 82, "FOOD discard pile (not the tile discard)")
    check(front, "FOOD draw pile empty: no more FOOD;", CAVE, 84, "no more cards in the FOOD draw pile there is no more FOOD")
    # lines 75-78 give 2 MEAL cards per FOOD card, not how often the FOOD value counts
    check(front, "Each MEAL card counts on its own: two safe ones give the FOOD value twice (our choice).", CAVE, 75, "2 UNPREPARED MEAL CARDS")


def test_cave_summary_prints_the_goal_and_says_the_rules_are_silent_on_winning():
    back = faces("cave", "summary")["back"]
    check(back, "Get out of the cave through an EXIT.", CAVE, 57, "to get out")
    assert "The rules say nothing about winning or about 0 ENERGY. Our suggestion:" in back
    assert "at 0 ENERGY your character is out of the game" in back
    # game.yaml claims neither a shared nor a lone win: nor does the card
    assert "together" not in back.lower() and "co-operative" not in back.lower()


def test_cave_summary_states_one_challenge_rule():
    """Challenge and Rulings say the same: ENERGY plus the SANITY bonus (lines 10, 36-37),
    a tie wins (line 94); a group's bonus is the chosen player's own (line 12 silent)."""
    back = faces("cave", "summary")["back"]
    check(back, "equal to or under your ENERGY plus your SANITY bonus", CAVE, 94, "equal to or under")
    check(back, "a roll equal to your ENERGY plus SANITY bonus wins a challenge", CAVE, 36, "boost to energy during CHALLENGE")
    check(back, "use the highest ENERGY among them, plus that player's own SANITY bonus (our choice)", CAVE, 12, "highest ENERGY")
    assert "equal to your ENERGY wins" not in back


def test_cave_summary_says_which_exits_are_played_as_our_choice():
    """Lines 105 and 109 give 1 and 2 exits, not which: the back marks choose exit 1, then
    exits 1-2 (tiles.yaml), and the Setup prints that as our choice."""
    front = faces("cave", "summary")["rules-summary"]
    check(front, "exit 1 at 2 players, exits 1-2 at 3, all 3 at 4-6 (which ones: our choice)", CAVE, 105, "use 1 exit tile")
    assert "use 2 exit tiles" in rule_line(CAVE, 109) and "easiest" in rule_line(CAVE, 55)


def test_cave_haunted_locket_is_an_item_that_counts_itself():
    """A "Haunted Item" (line 45) is an ITEM card: the 1 SANITY per ITEM card you hold
    (line 46) counts the locket too, on the card and on the summary."""
    card = faces("cave", "events")["haunted-locket"]
    assert "HAUNTED ITEM" in card
    check(card, "lose 1 SANITY for each ITEM card you hold, this one included", CAVE, 46, "1 per item card")
    back = faces("cave", "summary")["back"]
    check(back, "Haunted item: lose 1 SANITY per ITEM card you hold, itself included.", CAVE, 45, "haunted item")


def test_cave_summary_reshuffles_an_empty_meal_pile_as_our_choice():
    """The rules end the FOOD with the FOOD pile (lines 84, 91) and reshuffle only tiles
    (line 61): an empty MEAL pile is shuffled again from the FOOD discard pile (line 82)."""
    front = faces("cave", "summary")["rules-summary"]
    check(front, "a MEAL pile empty: shuffle its discards into a new one (our choice)", CAVE, 82, "food discard pile")
    assert "tile discards" in rule_line(CAVE, 61)
