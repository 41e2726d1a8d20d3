"""Tasty Humans content: the real files load and resolve, and every kind of mistake in them
is reported at the right line with a message saying what is expected.

Every test works on a copy of content/tasty-humans/*.yaml in a scratch project with a
minimal game.yaml, so it does not depend on templates or on the real manifest.
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from pnp.load.content import Project, load_game
from pnp.errors import PnpError, display_path
from game_plugins import game_module, link_plugins

leader_ids = game_module("tasty_humans", "checks").leader_ids

REPO = Path(__file__).resolve().parent.parent
SOURCE = REPO / "content" / "tasty-humans"
STEMS = ("rules", "adventurers", "leaders", "monsters", "reference")
MANIFEST = "title: Tasty Humans\nplugin: plugins/tasty_humans\ncomponents: []\n"


@pytest.fixture
def game_dir(tmp_path: Path) -> Path:
    """A scratch copy of the Tasty Humans content."""
    folder = tmp_path / "content" / "tasty-humans"
    folder.mkdir(parents=True)
    for stem in STEMS:
        shutil.copy(SOURCE / f"{stem}.yaml", folder)
    (folder / "game.yaml").write_text(MANIFEST, encoding="utf-8")
    link_plugins(tmp_path)
    return folder


def load(folder: Path):
    return load_game(Project(folder.parent.parent), "tasty-humans")


@pytest.fixture
def game(game_dir: Path):
    return load(game_dir)


def edit(folder: Path, stem: str, old: str, new: str) -> None:
    """Replace the first `old` in the file (which must contain it)."""
    path = folder / f"{stem}.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def at(folder: Path, stem: str, needle: str, nth: int = 1) -> str:
    """`file:line:col` of the nth non-comment line holding `needle`, the column where it starts."""
    path = folder / f"{stem}.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    hits = [(n, line) for n, line in enumerate(lines, 1) if needle in line and not line.lstrip().startswith("#")]
    line_no, line = hits[nth - 1]
    return f"{display_path(path)}:{line_no}:{line.index(needle) + 1}"


def value_at(folder: Path, stem: str, needle: str, nth: int = 1) -> str:
    """`file:line:col` of the value of the `key: value` that the nth line holding `needle` (its
    key, or key and value) writes: where pnp places a wrong value (before: at its key)."""
    place, line_no, col = at(folder, stem, needle, nth).rsplit(":", 2)
    line = (folder / f"{stem}.yaml").read_text(encoding="utf-8").splitlines()[int(line_no) - 1]
    colon = line.index(":", int(col) - 1) + 1
    return f"{place}:{line_no}:{colon + len(line[colon:]) - len(line[colon:].lstrip()) + 1}"


def errors(folder: Path) -> list[str]:
    with pytest.raises(PnpError) as exc:
        load(folder)
    return [str(e) for e in exc.value.errors]


# ---------------------------------------------------------------- the real content


def test_real_content_counts(game):
    cards = game.data["adventurers"].adventurers
    assert len(cards) == 50
    assert [c.id for c in cards] == [f"adv-{i:02d}" for i in range(1, 51)]
    assert len({c.name for c in cards}) == 50
    assert Counter(c.class_ for c in cards) == {
        "swordsman": 9, "archer": 8, "wizard": 7, "captain": 6, "cleric": 6, "peasant": 14,
    }
    assert Counter(c.size() for c in cards) == {2: 16, 3: 20, 4: 14}
    tiles = Counter(t for c in cards for _, _, t in c.cells())
    assert tiles == {"helmet": 37, "armor": 37, "boot": 37, "hand": 37}
    assert Counter(c.intel for c in cards) == {0: 24, 1: 17, 2: 9}
    assert Counter(c.banner for c in cards if c.class_ == "captain") == {"horizontal": 3, "vertical": 3}
    assert all(c.intel == 0 for c in cards if c.size() == 4)

    leaders = game.data["leaders"].leaders
    assert len(leaders) == 30
    assert sorted(ld.id for ld in leaders) == sorted(leader_ids(["helmet", "armor", "boot", "hand"]))
    assert [m.id for m in game.data["monsters"].monsters] == ["legendary-dragon", "twin-headed-dragon", "griffin", "troll"]


def test_both_rule_versions_resolve(game):
    rules = game.data["rules"]
    published, old = rules.version(), rules.version("0.2.8")
    assert rules.version("published") is published
    assert (published.cravings["troll"].points, old.cravings["troll"].points) == (4, 3)
    assert (published.classes["captain"], old.classes["captain"]) == ("Captain", "General")
    assert sum(t.supply for t in published.tiles.values()) == 192
    assert sum(t.supply for t in old.tiles.values()) == 196
    assert published.tie_break == ["fewer-damage", "leaders-ascending", "shared"]
    assert old.tie_break == ["fewer-damage", "fewer-empty", "seat-from-king"]
    # the published rules extend 0.2.8: untouched parts are inherited, dict order stays the base's
    assert published.cravings["legendary-dragon"].overlap is True
    assert list(old.tiles) == list(published.tiles)
    assert (old.title, published.title) == ("Rules 0.2.8", "Published rules")
    # and 0.2.8 inherits nothing that only the published book has (issue 10)
    assert "extends" not in rules.versions["0.2.8"]
    assert (old.solo.levels, old.solo.balanced_diet, old.solo.monster_challenges) == (None, None, False)
    assert (published.solo.levels[2], published.solo.balanced_diet["expert"], published.solo.monster_challenges) == ("Capable Creature", 14, True)
    assert (old.classes["peasant"], published.classes["peasant"]) == ("No Type", "Peasant")
    assert (old.leader_space, published.leader_space) == ("Grip", "Leader space")
    for v in (published, old):
        assert [v.rows(p) for p in (1, 2, 3, 4)] == [6, 6, 5, 4]
        assert [v.leaders_max(p) for p in (1, 2, 3, 4)] == [5, 5, 5, 4]
        assert v.leader_stacks(4) == 3
        assert v.symbol_to_tile() == {"H": "helmet", "A": "armor", "B": "boot", "G": "hand", "D": "damage"}
        assert v.basic_types() == ["helmet", "armor", "boot", "hand"]
    with pytest.raises(ValueError, match="no stomach rows for 5 players: expected one of 1, 2, 3, 4"):
        published.rows(5)
    with pytest.raises(PnpError, match="unknown rule version 'final': expected one of published, 0.2.8"):
        rules.version("final")


def test_context_selects_rule_version(game):
    names = game.namespace({"rules": "0.2.8"})
    assert names["rule_version"] == "0.2.8"
    assert names["rules"]["cravings"]["troll"]["points"] == 3  # plain data, as templates see it
    assert len(names["adventurers"]) == 50 and len(names["leaders"]) == 30 and len(names["monsters"]) == 4
    assert game.namespace()["rule_version"] == "published"


def test_texts_print_the_scored_numbers(game):
    rules = game.data["rules"]
    leaders = {ld.id: ld for ld in game.data["leaders"].leaders}
    assert leaders["line-hand"].reference_text().startswith("2 points for every hand tile")
    assert "at most 2 steps" in leaders["range-boot"].reference_text()
    assert "first leader tile" in leaders["sight-leader"].reference_text()
    for leader in leaders.values():
        text = leader.reference_text()
        assert str(leader.points) in text and "{" not in text
    troll = next(m for m in game.data["monsters"].monsters if m.id == "troll")
    assert troll.craving_text(rules.version().cravings["troll"]).startswith("4 points")
    assert troll.craving_text(rules.version("0.2.8").cravings["troll"]).startswith("3 points")


def test_cells_and_size(game):
    card = next(c for c in game.data["adventurers"].adventurers if c.shape == ["H.", "H.", "AG"])
    assert card.size() == 4
    assert card.cells() == [(0, 0, "helmet"), (1, 0, "helmet"), (2, 0, "armor"), (2, 1, "hand")]
    assert card.cells(game.data["rules"].version("0.2.8").tiles) == card.cells()


# ---------------------------------------------------------------- adventurers.yaml errors


def test_unknown_key(game_dir):
    edit(game_dir, "adventurers", "    intel: 0\n", "    intel: 0\n    colour: red\n")
    assert errors(game_dir) == [
        f"{at(game_dir, 'adventurers', 'colour')}: unknown key 'colour' (expected one of: id, name, class, shape, intel, banner)"
    ]


def test_wrong_type(game_dir):
    edit(game_dir, "adventurers", "    intel: 0\n", "    intel: two\n")
    assert errors(game_dir) == [
        f"{value_at(game_dir, 'adventurers', 'intel: two')}: intel: input should be a valid integer, unable to parse string as an integer, got 'two'"
    ]


@pytest.mark.parametrize("stem, old, new, key", [
    ("leaders", "    points: 2\n", "    points: yes\n", "points: yes"),  # before: read as 1 point, printed and scored
    ("adventurers", "    intel: 0\n", "    intel: true\n", "intel: true"),  # before: intel 1
])
def test_a_yaml_true_where_a_number_belongs_is_refused_at_it(game_dir, stem, old, new, key):
    edit(game_dir, stem, old, new)
    field = key.split(":")[0]
    assert errors(game_dir) == [f"{value_at(game_dir, stem, key)}: {field}: expected a whole number, got true"]


def test_unknown_tile_symbol(game_dir):
    edit(game_dir, "adventurers", '["HH", "HH"]', '["HH", "HX"]')
    where = at(game_dir, "adventurers", '"HX"')
    assert errors(game_dir) == [
        f"{where}: unknown tile symbol 'X' in shape: "
        "expected H (helmet), A (armor), B (boot), G (hand), or '.' for an empty square"
    ]


def test_damage_is_not_a_shape_symbol(game_dir):
    edit(game_dir, "adventurers", '["HH", "HH"]', '["HD", "HH"]')
    assert errors(game_dir)[0].endswith("unknown tile symbol 'D' in shape: expected H (helmet), A (armor), B (boot), G (hand), or '.' for an empty square")


def test_unequal_rows(game_dir):
    edit(game_dir, "adventurers", '["HH", "HH"]', '["HHH", "H"]')
    where = at(game_dir, "adventurers", 'shape: ["HHH"')
    assert errors(game_dir) == [
        f"{where}: shape rows have lengths 3, 1: expected rows of equal length ('.' pads an empty square)"
    ]


def test_disconnected_shape(game_dir):
    edit(game_dir, "adventurers", '["HH", "HH"]', '["H.", ".H"]')
    where = at(game_dir, "adventurers", 'shape: ["H.", ".H"]')
    assert errors(game_dir) == [
        f"{where}: shape is not connected: "
        "expected 2 to 4 orthogonally connected squares (touching corners do not connect)"
    ]


@pytest.mark.parametrize("shape, count", [('["H"]', "1 square"), ('["HHH", "HH."]', "5 squares")])
def test_shape_size(game_dir, shape, count):
    edit(game_dir, "adventurers", '["HH", "HH"]', shape)
    assert errors(game_dir) == [
        f"{at(game_dir, 'adventurers', 'shape: ' + shape)}: shape has {count}: expected 2 to 4 orthogonally connected squares"
    ]


def test_untrimmed_shape(game_dir):
    edit(game_dir, "adventurers", '["HH", "HH"]', '["HH.", "HH."]')
    where = at(game_dir, "adventurers", 'shape: ["HH."')
    assert errors(game_dir) == [
        f"{where}: shape has a row or column of only '.': expected the shape trimmed to its squares"
    ]


def test_duplicate_adventurer_id_points_at_the_second(game_dir):
    edit(game_dir, "adventurers", "id: adv-02", "id: adv-01")
    first = at(game_dir, "adventurers", "id: adv-01").split(":")[1]
    assert errors(game_dir) == [
        f"{value_at(game_dir, 'adventurers', 'id: adv-01', nth=2)}: duplicate adventurer id 'adv-01', first used on line {first}: expected each adventurer id once"
    ]


def test_duplicate_adventurer_name(game_dir):
    edit(game_dir, "adventurers", '"Sir Garrick Ironshin"', '"Brunhild the Unbending"')
    first = at(game_dir, "adventurers", 'name: "Brunhild').split(":")[1]
    second = value_at(game_dir, "adventurers", 'name: "Brunhild', nth=2)
    assert errors(game_dir) == [
        f"{second}: duplicate adventurer name 'Brunhild the Unbending', first used on line {first}: expected each adventurer name once"
    ]


def test_banner_on_non_captain(game_dir):
    edit(game_dir, "adventurers", "    intel: 0\n", "    intel: 0\n    banner: vertical\n")
    assert errors(game_dir) == [
        f"{value_at(game_dir, 'adventurers', 'banner: vertical')}: banner: is only for captains: expected no banner on a swordsman"
    ]


def test_captain_without_banner(game_dir):
    edit(game_dir, "adventurers", "    banner: horizontal\n", "")
    # reported at the card, as the key it misses has no line
    card = at(game_dir, "adventurers", "id: adv-25")
    assert errors(game_dir) == [f"{card}: banner: is missing: a captain needs a banner, expected horizontal or vertical"]


def test_intel_out_of_range(game_dir):
    edit(game_dir, "adventurers", "    intel: 0\n", "    intel: 3\n")
    assert errors(game_dir) == [f"{value_at(game_dir, 'adventurers', 'intel: 3')}: intel: is 3: expected 0, 1 or 2 intel icons"]


def test_not_fifty_adventurers(game_dir):
    path = game_dir / "adventurers.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index("  - id: adv-50")], encoding="utf-8")
    assert errors(game_dir) == [f"{at(game_dir, 'adventurers', 'adventurers:')}: found 49 adventurers: expected exactly 50 (deck.adventurers in rules.yaml)"]


def test_unknown_class(game_dir):
    edit(game_dir, "adventurers", "class: swordsman", "class: knight")
    assert errors(game_dir) == [
        f"{value_at(game_dir, 'adventurers', 'class: knight')}: unknown class 'knight': "
        "expected one of swordsman, archer, wizard, captain, cleric, peasant"
    ]


# ---------------------------------------------------------------- leaders.yaml errors


def test_not_thirty_leaders(game_dir):
    edit(game_dir, "leaders", "  - id: rows-all-four\n", "  - id: rows-all-four-gone\n")
    path = game_dir / "leaders.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  - id: rows-all-four-gone")
    path.write_text(text[:start] + text[text.index("  - id: columns-all-four"):], encoding="utf-8")
    assert errors(game_dir) == [f"{at(game_dir, 'leaders', 'leaders:')}: found 29 leaders: expected exactly 30 (deck.leaders in rules.yaml) (missing: rows-all-four)"]


def test_unknown_leader_id(game_dir):
    edit(game_dir, "leaders", "  - id: columns-all-four", "  - id: columns-all-five")
    assert errors(game_dir) == [
        f"{value_at(game_dir, 'leaders', 'id: columns-all-five')}: unknown leader id 'columns-all-five': expected 'columns-all-four' "
        "(ids are <kind>-<type> for line, diagonal, range, feast, sight, else <kind>)"
    ]


def test_leader_id_not_matching_kind_and_type(game_dir):
    edit(game_dir, "leaders", "  - id: line-armor", "  - id: diagonal-armor")
    assert errors(game_dir) == [
        f"{value_at(game_dir, 'leaders', 'id: diagonal-armor')}: id 'diagonal-armor' does not match kind 'line' and type 'armor': expected 'line-armor'",
        f"{value_at(game_dir, 'leaders', 'id: diagonal-armor', nth=2)}: duplicate leader id 'diagonal-armor', "
        f"first used on line {at(game_dir, 'leaders', 'id: diagonal-armor').split(':')[1]}: expected each leader id once",
    ]


def test_type_on_untyped_kind(game_dir):
    edit(game_dir, "leaders", "    kind: least-type\n", "    kind: least-type\n    type: helmet\n")
    assert errors(game_dir) == [
        f"{value_at(game_dir, 'leaders', 'type: helmet', nth=6)}: type: is not taken by kind 'least-type': "
        "expected no type (only line, diagonal, range, feast, sight take one)"
    ]


def test_unknown_leader_type(game_dir):
    edit(game_dir, "leaders", "    type: helmet\n", "    type: gem\n")
    assert errors(game_dir) == [f"{value_at(game_dir, 'leaders', 'type: gem')}: unknown tile type 'gem': expected one of helmet, armor, boot, hand"]


def test_leader_text_placeholder(game_dir):
    edit(game_dir, "leaders", '"{points:point} for every {type} tile sharing', '"{pointz:point} for every {type} tile sharing')
    where = value_at(game_dir, "leaders", 'text: "{pointz:point}')
    assert errors(game_dir) == [
        f"{where}: text: unknown placeholder {{pointz}}: expected only {{points}}, {{type}}, {{distance}}"
    ]


# ---------------------------------------------------------------- monsters.yaml errors


def test_monster_without_craving_in_every_version(game_dir):
    edit(game_dir, "monsters", "  - id: troll\n", '  - id: kraken\n    name: Kraken\n    text: "{points} per squid"\n    challenge: none\n  - id: troll\n')
    where = value_at(game_dir, "monsters", "id: kraken")
    assert errors(game_dir) == [
        f"{where}: monster 'kraken' has no craving in rule version '0.2.8': expected cravings: {{kraken: {{points: N}}}} in rules.yaml",
        f"{where}: monster 'kraken' has no craving in rule version 'published': expected cravings: {{kraken: {{points: N}}}} in rules.yaml",
    ]


def test_challenge_without_the_number_the_scorer_checks(game_dir):
    # the griffin's runs are "six tiles long" (F293) as rules.yaml solo.challenge_numbers says:
    # a text that writes the 6 itself would not follow a change there
    edit(game_dir, "monsters", "switching for {griffin_run} tiles", "switching for 6 tiles")
    where = value_at(game_dir, "monsters", 'challenge: "At least {at_least} runs')
    assert errors(game_dir) == [
        f"{where}: monster 'griffin': its solo challenge checks "
        "solo.challenge_numbers.griffin_run but the text does not print it: expected {griffin_run} in challenge"
    ]


@pytest.mark.parametrize("field", ["{at_least:>999999999}", "{at_least!r}", "{at_least:{at_least}}"])
def test_challenge_placeholder_with_a_format(game_dir, field):
    """A placeholder is its number (or a unit, {points:point}), never a width or conversion
    of Python's format: `{at_least:>999999999}` made a text of a gigabyte on every monster board."""
    edit(game_dir, "monsters", "At least {at_least} runs", f"At least {field} runs")
    where = value_at(game_dir, "monsters", f'challenge: "At least {field} runs')
    (err,) = errors(game_dir)
    assert err.startswith(f"{where}: challenge: placeholder {field}: expected {{at_least}}"), err


def test_monster_challenges_without_their_numbers(game_dir):
    edit(game_dir, "rules", "      challenge_numbers: {at_least: 2, dragon_block: [2, 3], griffin_run: 6}\n", "")
    (err,) = errors(game_dir)
    assert "monster_challenges is true: expected challenge_numbers" in err and "rules.yaml:" in err


@pytest.mark.parametrize("numbers", ["dragon_block: [2, 100000]", "griffin_run: 1000000000"])
def test_challenge_numbers_past_the_grid_are_refused(game_dir, numbers):
    """A block or run longer than a stomach may be is checked before scoring: [2, 100000] had the
    scorer list the 200,000 cells of the block, and a run of a billion a billion steps."""
    key = numbers.partition(":")[0]
    old = {"dragon_block": "dragon_block: [2, 3]", "griffin_run": "griffin_run: 6"}[key]
    edit(game_dir, "rules", old, numbers)
    (err,) = errors(game_dir)
    assert "rules.yaml:" in err and key in err and "expected at most 12 rows or columns" in err, err


def test_a_sheets_changes_cannot_ask_for_a_challenge_past_the_grid(game):
    """A score sheet's `changes:` takes numbers up to a million: a dragon block of 1,000,000 x
    1,000,000 would have the scorer list a trillion cells."""
    published = game.data["rules"].version("published")
    with pytest.raises(ValueError, match="expected at most 12 rows or columns"):
        published.with_changes({"solo.challenge_numbers.dragon_block": [1_000_000, 1_000_000]})


def test_craving_without_monster(game_dir):
    edit(game_dir, "rules", "troll: {points: 4}", "troll: {points: 4}, kraken: {points: 1}")
    assert errors(game_dir) == [
        f"{at(game_dir, 'rules', 'kraken')}: craving 'kraken' has no monster: "
        "expected one of legendary-dragon, twin-headed-dragon, griffin, troll (monsters.yaml)"
    ]


# ---------------------------------------------------------------- rules.yaml errors


def test_unknown_key_in_override_points_at_the_override(game_dir):
    edit(game_dir, "rules", "damage: {supply: 32}", "damage: {supply: 32, colour: red}")
    assert errors(game_dir) == [f"{at(game_dir, 'rules', 'colour')}: unknown key 'colour' (expected one of: symbol, name, basic, supply)"]


def test_unknown_top_key_in_override(game_dir):
    edit(game_dir, "rules", "    title: Published rules\n", "    title: Published rules\n    titel: x\n")
    assert errors(game_dir) == [
        f"{at(game_dir, 'rules', 'titel')}: unknown key 'titel' (expected one of: title, deck, stomach, leaders_max_by_players, "
        "leader_stacks_by_players, leader_stack_tiles_by_players, turns_a_round, damage_a_turn_max, classes, tiles, king_bonus, damage_penalty, cravings, tie_break, held_leader, leader_space, solo, kit, rulings, extends)"
    ]


def test_misspelt_key_in_override_names_the_key_meant(game_dir):
    """A key the version does not write itself is the one meant (inherited or not): said as
    every validated file says it, not as the list of allowed keys."""
    edit(game_dir, "rules", "damage: {supply: 32}", "damage: {suply: 32}")
    assert errors(game_dir) == [f"{at(game_dir, 'rules', 'suply')}: unknown key 'suply': did you mean 'supply'?"]


def test_inherited_error_points_at_the_base_once(game_dir):
    edit(game_dir, "rules", "king_bonus: 2", "king_bonus: two")
    assert errors(game_dir) == [
        f"{value_at(game_dir, 'rules', 'king_bonus')}: king_bonus: input should be a valid integer, unable to parse string as an integer, got 'two'"
    ]


def test_new_entry_in_override_missing_keys(game_dir):
    edit(game_dir, "rules", "tiles: {damage: {supply: 32}}", "tiles: {gem: {symbol: X, name: Gem, basic: false}}")
    assert errors(game_dir) == [f"{at(game_dir, 'rules', 'gem:')}: missing required key 'supply'"]


def test_unknown_extends(game_dir):
    edit(game_dir, "rules", 'extends: "0.2.8"', "extends: final")
    assert errors(game_dir) == [f"{value_at(game_dir, 'rules', 'extends')}: extends: names no version 'final': expected one of 0.2.8"]


def test_extends_cycle(game_dir):
    edit(game_dir, "rules", '  "0.2.8":\n', '  "0.2.8":\n    extends: published\n')
    assert errors(game_dir) == [
        f"{value_at(game_dir, 'rules', 'extends')}: extends: versions extend each other in a cycle (published -> 0.2.8 -> published): "
        "expected a chain ending in a version without extends"
    ]


def test_unknown_default(game_dir):
    edit(game_dir, "rules", "default: published", "default: final")
    assert errors(game_dir) == [f"{value_at(game_dir, 'rules', 'default')}: default: names no version 'final': expected one of published, 0.2.8"]


def test_row_markers_must_fit_rows(game_dir):
    edit(game_dir, "rules", "row_markers: [2, 3]", "row_markers: [3]")
    assert errors(game_dir) == [
        f"{value_at(game_dir, 'rules', 'row_markers')}: row_markers: [3] does not fit rows_by_players {{1: 6, 2: 6, 3: 5, 4: 4}}: "
        "a row marked N is used only with N or fewer players, so these markers expect rows_by_players {1: 6, 2: 6, 3: 6, 4: 5}"
    ]


def test_deck_counts_and_shape_sizes_are_rule_set_data(game_dir):
    rules = game_dir / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        "deck: {adventurers: 50, leaders: 30, shape_squares: [2, 4]}",
        "deck: {adventurers: 51, leaders: 30, shape_squares: [3, 4]}"), encoding="utf-8")
    found = errors(game_dir)
    assert f"{at(game_dir, 'adventurers', 'adventurers:')}: found 50 adventurers: expected exactly 51 (deck.adventurers in rules.yaml)" in found
    too_small = [e for e in found if "shape has 2 squares: expected 3 to 4 orthogonally connected squares" in e]
    assert len(too_small) == 16  # the deck's 2-square cards


def test_reference_placeholder_must_be_known(game_dir):
    edit(game_dir, "reference", "(+{king_bonus})", "(+{king_points})")
    (err,) = errors(game_dir)
    assert "reference.yaml:" in err and "unknown placeholder {king_points}: expected only {captain}" in err


def test_a_new_monster_without_its_python_is_a_located_error(copy_game):
    """needs: in game.yaml: every monster has its craving scorer and diagram (the plugin's
    provides tables), reported at the monster's id in monsters.yaml when loading."""
    project = copy_game("tasty-humans")
    folder = project.content_dir / "tasty-humans"
    with open(folder / "monsters.yaml", "a", encoding="utf-8") as f:
        f.write('  - id: kraken\n    name: Kraken\n    text: "{points:point}."\n    challenge: "Win."\n')
    edit(folder, "rules", "      troll: {points: 3}  # O292", "      troll: {points: 3}  # O292\n      kraken: {points: 1}")
    with pytest.raises(PnpError) as exc:
        load_game(project, "tasty-humans")
    found = [str(e) for e in exc.value.errors]
    line = at(folder, "monsters", "kraken").rsplit(":", 1)[0]  # the record's id
    assert [e.split(": ", 1)[0].rsplit(":", 1)[0] for e in found] == [line, line], found
    assert "'kraken' has no craving scorer (CRAVINGS in plugins/tasty_humans/craving_scoring.py" in found[1]
    assert "'kraken' has no craving diagram (CRAVING_PATTERNS in plugins/tasty_humans/glyphs.py" in found[0]


def test_a_new_tile_type_or_class_without_its_picture_is_a_located_error(copy_game):
    """A tile type or class the rules name but the plugin cannot draw would print as a grey
    square or an empty badge: refused at its key in rules.yaml, once however many versions
    inherit it."""
    project = copy_game("tasty-humans")
    folder = project.content_dir / "tasty-humans"
    edit(folder, "rules", "      damage: {symbol: D, name: Damage, basic: false, supply: 36}",
         "      damage: {symbol: D, name: Damage, basic: false, supply: 36}\n      slime: {symbol: S, name: Slime, basic: true, supply: 10}")
    edit(folder, "rules", "      captain: General  # O109", "      captain: General  # O109\n      thief: Thief")
    with pytest.raises(PnpError) as exc:
        load_game(project, "tasty-humans")
    found = sorted((str(e) for e in exc.value.errors), key=lambda e: e.split(": ", 1)[1])  # by message: line 97 < 110
    assert len(found) == 2, found
    assert found[0].startswith(at(folder, "rules", "thief") + ": class 'thief' has no picture: expected one of archer, captain")
    assert found[1].startswith(at(folder, "rules", "slime") + ": tile type 'slime' has no picture: expected one of armor, boot")
    assert "TILE_SHAPES and TILE_COLOURS in plugins/tasty_humans/glyphs.py" in found[1]
