"""The cave game's content: our chosen counts (the rules give none), openings against shapes,
player-count marks, and one located error line for each kind of bad input."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.build.driver import BuildOptions, build
from pnp.cli import app
from pnp.load.content import Project, load_game
from pnp.errors import ContentError, PnpError
from conftest import copied_from_book
from game_plugins import game_module, link_plugins

deck = game_module("cave", "deck")
rotations = game_module("cave", "checks").rotations

SIDES = ("north", "east", "south", "west")
PLAYERS = range(2, 7)


@pytest.fixture(scope="module")
def cave(repo_project: Project):
    return load_game(repo_project, "cave")


@pytest.fixture(scope="module")
def tiles(cave):
    return cave.data["tiles"]


# ---------------------------------------------------------------- our chosen counts


def test_forty_cave_tiles_by_shape(tiles):
    assert len(tiles.tiles) == 40
    shapes = Counter(t.shape for t in tiles.tiles)
    assert shapes == {"straight": 16, "four-way": 6, "three-way": 6, "turn": 10, "dead-end": 2}
    assert shapes == tiles.shape_counts


def test_forty_cave_tiles_by_room_with_relabelled_food_challenges(tiles):
    rooms = Counter(t.room for t in tiles.tiles)
    relabelled = rooms["food-challenge"]
    assert relabelled == tiles.relabelled["food-challenge"].count > 0
    assert tiles.relabelled["food-challenge"].from_ == "challenge"
    assert {"food": rooms["food"], "event": rooms["event"], "normal": rooms["normal"], "challenge": rooms["challenge"] + relabelled} == {
        "food": 10, "event": 16, "normal": 10, "challenge": 4
    }
    assert tiles.room_counts == {"food": 10, "event": 16, "normal": 10, "challenge": 4}
    # a food + challenge room carries both words
    assert tiles.rooms["food-challenge"].labels == ["FOOD", "CHALLENGE"]


def _shape_of(openings: list[str]) -> str:
    """The passage shape an opening set makes, worked out from the geometry alone."""
    n = len(openings)
    if n == 2:
        a, b = (SIDES.index(s) for s in openings)
        return "straight" if abs(a - b) == 2 else "turn"
    return {1: "dead-end", 3: "three-way", 4: "four-way"}[n]


def test_every_tiles_openings_agree_with_its_shape(tiles):
    wrong = [(t.id, t.shape, t.openings) for t in [*tiles.tiles, *tiles.exits] if _shape_of(t.openings) != t.shape]
    assert wrong == []


def test_start_tile_is_two_squares_with_start_on_the_back(tiles):
    assert len(tiles.start.squares) == 2
    assert tiles.start.back_label.lower() == "start"


def test_exits_and_their_requirements(tiles):
    req = {e.number: e.requires for e in tiles.exits}
    assert (req[1].players, req[1].items, req[1].challenge) == (1, ["shovel"], False)
    assert (req[2].players, req[2].items, req[2].challenge) == (2, [], True)
    assert (req[3].players, sorted(req[3].items), req[3].challenge) == (None, ["pickaxe", "rope"], False)


def test_exits_per_player_count(tiles):
    assert tiles.exits_by_players == {2: 1, 3: 2, 4: 3, 5: 3, 6: 3}
    for n in PLAYERS:
        assert len(deck.exits(tiles, n)) == tiles.exits_by_players[n]


@pytest.mark.parametrize("n", PLAYERS)
def test_every_player_count_has_a_playable_deck(tiles, n):
    cave = deck.cave_tiles(tiles, n)
    assert all(2 <= t.players <= n for t in cave)
    rooms = Counter(t.room for t in cave)
    shapes = Counter(t.shape for t in cave)
    assert len(cave) >= 6 * n
    assert rooms["food"] >= n and rooms["event"] >= n
    assert rooms["challenge"] >= 1 and rooms["food-challenge"] >= 1
    assert all(shapes[s] >= 1 for s in ("straight", "turn", "three-way", "four-way"))


def test_decks_grow_with_the_player_count(tiles):
    sizes = [len(deck.cave_tiles(tiles, n)) for n in PLAYERS]
    assert sizes == [16, 22, 28, 34, 40]
    assert deck.deck(tiles, None) == [*tiles.tiles, *tiles.exits]


def test_rotations_of_each_shape():
    assert {frozenset(r) for r in rotations(["north", "south"])} == {frozenset({"north", "south"}), frozenset({"east", "west"})}
    assert len(rotations(["north", "east"])) == 4
    assert len(rotations(["north", "east", "south", "west"])) == 1


def test_event_deck_counts(cave):
    events = cave.data["events"]
    kinds = Counter()
    for card in events.cards:
        kinds[card.kind] += card.copies
    assert (kinds["fire"], kinds["paranoia"]) == (4, 13)
    assert "challenge-item" not in kinds  # an earlier invention, not in the rules
    named = {c.id for c in events.cards if c.kind == "item"}
    assert {"map", "shovel", "rope", "pickaxe", "imaginary-friend"} <= named
    assert kinds["haunted"] >= 1 and kinds["damage"] >= 1


def test_food_meals_and_characters(cave):
    food = cave.data["food"]
    assert {f.value for f in food.foods} == {1, 2, 3, 4}
    assert {(m.state, m.type) for m in food.meals} == {(s, t) for s in ("unprepared", "prepared") for t in ("meat", "vegetable")}
    chars = cave.data["characters"]
    assert len(chars.characters) >= 6 and chars.energy.steps == 20
    assert (chars.sanity.min, chars.sanity.max) == (1, 10)
    assert [f.name for f in chars.sanity.fields] == ["red", "yellow", "green"]


# ---------------------------------------------------------------- bad input


@pytest.fixture
def project(tmp_path: Path, repo_project: Project) -> Project:
    """A scratch copy of the cave game to break."""
    p = Project(tmp_path / "proj")
    shutil.copytree(repo_project.content_dir / "cave", p.content_dir / "cave")
    shutil.copytree(repo_project.templates_dir / "cave", p.templates_dir / "cave")
    link_plugins(p.root)
    return p


def edit(project: Project, file: str, old: str, new: str) -> int:
    """Replace the one occurrence of `old`; return the 1-based line it was on."""
    path = project.content_dir / "cave" / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


def errors(project: Project) -> list[ContentError]:
    with pytest.raises(PnpError) as info:
        load_game(project, "cave")
    assert all(isinstance(e, ContentError) for e in info.value.errors)
    return info.value.errors


def one_error(project: Project, file: str, line: int, *words: str) -> ContentError:
    (err,) = errors(project)
    assert Path(err.path).name == file and err.line == line and err.column is not None, str(err)
    for word in words:
        assert word in err.message, str(err)
    # printed as one `file:line:col: message` line
    assert str(err).count("\n") == 0 and f"{file}:{line}:{err.column}: " in str(err)
    return err


def test_unknown_key(project):
    line = edit(project, "tiles.yaml", "{id: cave-05, players: 2,", "{id: cave-05, colour: red, players: 2,")
    one_error(project, "tiles.yaml", line, "unknown key 'colour'", "expected one of", "openings")


def test_wrong_type(project):
    line = edit(project, "tiles.yaml", "{id: cave-05, players: 2,", "{id: cave-05, players: two,")
    one_error(project, "tiles.yaml", line, "players", "'two'")


def test_openings_disagree_with_shape(project):
    line = edit(project, "tiles.yaml", "{id: cave-12, players: 2, shape: turn,      openings: [north, east]",
                "{id: cave-12, players: 2, shape: turn,      openings: [north, south]")
    one_error(project, "tiles.yaml", line, "openings [north, south] do not make a turn", "expected [north, east] or")


def test_side_named_twice(project):
    line = edit(project, "tiles.yaml", "{id: cave-12, players: 2, shape: turn,      openings: [north, east]",
                "{id: cave-12, players: 2, shape: turn,      openings: [north, north]")
    one_error(project, "tiles.yaml", line, "names a side twice")


def test_unknown_side(project):
    line = edit(project, "tiles.yaml", "{id: cave-12, players: 2, shape: turn,      openings: [north, east]",
                "{id: cave-12, players: 2, shape: turn,      openings: [north, up]")
    one_error(project, "tiles.yaml", line, "'north', 'east', 'south' or 'west'")


def test_shape_count_disagrees_with_the_tiles(project):
    line = edit(project, "tiles.yaml", "shape_counts: {straight: 16,", "shape_counts: {straight: 15,")
    err = one_error(project, "tiles.yaml", line, "shape_counts.straight is 15 but 16 tiles are straight")
    written = Path(err.path).read_text().splitlines()[line - 1]
    assert err.column == written.index("straight: 15") + len("straight: ") + 1  # at the count (before: at its key)


def test_room_counts_disagree_with_the_tiles(project):
    line = edit(project, "tiles.yaml", "openings: [east, west],          room: normal}", "openings: [east, west],          room: food}")
    errs = errors(project)
    counts_line = edit(project, "tiles.yaml", "room_counts: {", "room_counts: {")
    assert [(e.line, e.message.split(" is ")[0]) for e in errs] == [(counts_line, "room_counts.food"), (counts_line, "room_counts.normal")]
    assert line != counts_line


def test_relabelled_count_disagrees(project):
    line = edit(project, "tiles.yaml", "food-challenge: {from: challenge, count: 2}", "food-challenge: {from: challenge, count: 3}")
    errs = errors(project)
    assert any(e.line == line and "relabelled.food-challenge.count is 3 but 2 tiles" in e.message for e in errs)


def test_unknown_item_in_an_exit_requirement(project):
    line = edit(project, "tiles.yaml", "requires: {players: 1, items: [shovel]}", "requires: {players: 1, items: [spade]}")
    one_error(project, "tiles.yaml", line, "unknown item 'spade'", "shovel", "rope")


def test_duplicate_tile_id(project):
    first = edit(project, "tiles.yaml", "{id: cave-01,", "{id: cave-01,")
    line = edit(project, "tiles.yaml", "{id: cave-02,", "{id: cave-01,")
    errs = errors(project)
    dup = [e for e in errs if "duplicate id" in e.message]
    assert len(dup) == 1 and dup[0].line == line and f"first at line {first}" in dup[0].message


def test_unknown_shape_and_room(project):
    shape_line = edit(project, "tiles.yaml", "{id: cave-30, players: 5, shape: straight,", "{id: cave-30, players: 5, shape: straigth,")
    room_line = edit(project, "tiles.yaml", "openings: [west],                room: normal}", "openings: [west],                room: treasure}")
    errs = errors(project)
    assert any(e.line == shape_line and "unknown shape 'straigth': expected one of" in e.message for e in errs)
    assert any(e.line == room_line and "unknown room 'treasure'" in e.message for e in errs)


def test_player_mark_outside_the_game(project):
    line = edit(project, "tiles.yaml", "{id: cave-40, players: 6,", "{id: cave-40, players: 7,")
    errs = errors(project)
    assert any(e.line == line and "player mark 7 is outside the game: expected 2 to 6" in e.message for e in errs)


def test_exit_marks_disagree_with_exits_by_players(project):
    line = edit(project, "tiles.yaml", "exits_by_players: {2: 1, 3: 2,", "exits_by_players: {2: 1, 3: 1,")
    one_error(project, "tiles.yaml", line, "3 players: 1 exits declared but 2 exits are marked 3 or less")


def test_deck_minimum_not_met(project):
    line = edit(project, "tiles.yaml", "per_player: {tiles: 6,", "per_player: {tiles: 9,")
    errs = errors(project)
    assert errs and all(e.line == line for e in errs)
    assert "the 2-player deck (tiles marked 2-2) has 16 tiles: expected at least 18" in errs[0].message


def test_board_square_disagrees_with_the_tile_size(project):
    edit(project, "board.yaml", "square: 30mm", "square: 32mm")
    errs = errors(project)
    assert {Path(e.path).name for e in errs} == {"game.yaml"}
    assert any("expected 32mm x 32mm" in e.message for e in errs)
    assert any("expected 404mm x 276mm" in e.message for e in errs)


def test_board_die_must_have_a_side_per_label(project):
    """The column die picks the column (cave-game-rules.txt lines 23-24): a D10 over 12 columns
    leaves two columns no roll reaches."""
    line = edit(project, "board.yaml", "column_die: D12", "column_die: D10")
    one_error(project, "board.yaml", line, "D10 picks one of 10 columns but column_labels gives 12: expected D12")
    edit(project, "board.yaml", "column_die: D10", "column_die: D12")
    line = edit(project, "board.yaml", "row_labels: [A, B, C, D, E, F, G, H]", "row_labels: [A, B, C, D, E, F, G]")
    (err,) = [e for e in errors(project) if Path(e.path).name == "board.yaml"]  # game.yaml's board size too
    assert err.line == line + 2 and err.message == "D8 picks one of 8 rows but row_labels gives 7: expected D7"


def test_board_die_is_a_die(project):
    line = edit(project, "board.yaml", "row_die: D8", "row_die: d8")
    one_error(project, "board.yaml", line, "row_die: is 'd8': expected a die written D and its number of sides, e.g. D8")


def test_sanity_fields_must_cover_the_meter(project):
    line = edit(project, "characters.yaml", "{name: yellow, colour: \"#fcc419\", from: 4,", "{name: yellow, colour: \"#fcc419\", from: 5,")
    one_error(project, "characters.yaml", line, "field yellow starts at 5: expected 4")


def test_event_kind_count_disagrees(project):
    line = edit(project, "events.yaml", "paranoia:       {label: PARANOIA,        colour: \"#862e9c\", count: 13}",
                "paranoia:       {label: PARANOIA,        colour: \"#862e9c\", count: 12}")
    one_error(project, "events.yaml", line, "kinds.paranoia.count is 12 but the cards give 13")


def test_bad_input_from_the_command_line_is_one_line_exit_2_nothing_written(project, tmp_path):
    edit(project, "tiles.yaml", "requires: {players: 1, items: [shovel]}", "requires: {players: 1, items: [spade]}")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", "cave", "--project", str(project.root), "--out", str(out)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "tiles.yaml:" in lines[0] and "unknown item 'spade'" in lines[0]
    assert "Traceback" not in result.output
    assert not out.exists()


@pytest.mark.parametrize("players", [7, 1, 0])
def test_players_out_of_range(project, tmp_path, players):
    out = tmp_path / "out"
    with pytest.raises(PnpError) as info:
        build(project, ["cave"], BuildOptions(players=players, out=out))
    (message,) = info.value.errors
    assert f"--players {players}: expected a number of players from 2 to 6" in str(message)
    assert not out.exists()


def test_players_out_of_range_on_the_command_line(project, tmp_path):
    result = CliRunner().invoke(app, ["build", "cave", "--players", "7", "--project", str(project.root), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()  # declared in game.yaml `options:`, located there
    game_yaml = (Path(__file__).resolve().parent.parent / "content/cave/game.yaml").read_text().splitlines()
    players_line = next(i for i, text in enumerate(game_yaml, 1) if text.startswith("  players:"))
    assert line.endswith(f"content/cave/game.yaml:{players_line}:3: --players 7: expected a number of players from 2 to 6 (cave option 'players')")


def test_summary_placeholder_must_be_known(project):
    edit(project, "summary.yaml", "({bonuses})", "({bonus})")
    (err,) = errors(project)
    assert Path(err.path).name == "summary.yaml" and "unknown placeholder {bonus}" in err.message, str(err)


def test_printed_text_is_our_own(repo_project: Project):
    """No run of eight words of cave-game-rules.txt is printed on any face (tiles, events,
    food, characters, the board, the summary card), read as printed."""
    assert copied_from_book(repo_project, "cave", "cave-game-rules.txt") == []
