"""The generic content layer (issue 12): declared options, data schemas, CSV/XLSX sheets,
generated lists, variants with `extends`, icon sets, `needs:` and project-local plugins.
Every error is checked for its file:line(:column) and its expectation."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.build.driver import BuildOptions
from pnp.cli import app
from pnp.load.content import Project, load_game
from pnp.load.options import choice_named
from pnp.errors import PnpError

REPO = Path(__file__).resolve().parent.parent

runner = CliRunner()
FRUIT = REPO / "examples/projects/fruit-stand"


def errors_of(fn) -> list[str]:
    with pytest.raises(PnpError) as info:
        fn()
    return [str(e) for e in info.value.errors]


@pytest.fixture
def fruit(tmp_path: Path) -> Project:
    """A scratch copy of the fifth example game's project folder."""
    shutil.copytree(FRUIT, tmp_path / "fruit", ignore=shutil.ignore_patterns("output", "__pycache__"))
    return Project(tmp_path / "fruit")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


# ------------------------------------------------------------------ declared options


def test_dietrick_rejects_bad_players_and_unknown_set_key():
    result = runner.invoke(app, ["build", "dietrick-taking", "--players", "9", "--set", "rulez=0.2.8", "--project", str(REPO), "--out", "/nonexistent/never"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 2 and all("content/dietrick-taking/game.yaml:" in line for line in lines), lines
    assert any("--players 9: expected a number of players from 1 to 4" in line for line in lines)
    assert any("has no option 'rulez'" in line for line in lines)


def test_a_misspelt_set_key_names_the_option_meant():
    """Before: `--set varient=swarm: ... has no option 'varient': expected one of variant`, where a
    misspelt value (`--set variant=swram`) and every misspelt key in a file name the one meant."""
    result = runner.invoke(app, ["validate", "tasty-humans", "--set", "rulse=0.2.8", "--project", str(REPO)])
    assert result.exit_code == 2
    assert result.output.strip().endswith("--set rulse=0.2.8: tasty-humans has no option 'rulse': expected one of rules, players (--players N) (did you mean 'rules'?)"), result.output


def test_a_set_key_near_players_names_the_players_option(fruit: Project):
    """Before: a game declaring only `players` answered `--set player=3` with "this game declares
    no --set options", and fruit-stand listed `edition` alone: `players` (--players N) is one too."""
    game = load_game(fruit, "fruit-stand")
    (message,) = errors_of(lambda: BuildOptions(extra={"player": "3"}).game_options([game]))
    assert message.endswith("--set player=3: fruit-stand has no option 'player': "
                            "expected one of edition, players (--players N) (did you mean 'players'?)"), message
    game_yaml = fruit.content_dir / "fruit-stand/game.yaml"
    text = game_yaml.read_text()
    game_yaml.write_text(text.replace(text[text.index("  edition: {choices"):text.index("\n", text.index("  edition: {choices")) + 1], ""))
    game = load_game(fruit, "fruit-stand")
    assert list(game.manifest.options) == ["players"]
    (message,) = errors_of(lambda: BuildOptions(extra={"player": "3"}).game_options([game]))
    assert message.endswith("has no option 'player': expected players (--players N) (did you mean 'players'?)"), message


def test_choices_come_from_the_content_and_are_listed(repo_project: Project):
    game = load_game(repo_project, "tasty-humans")
    (message,) = errors_of(lambda: BuildOptions(extra={"rules": "0.3"}).game_options([game]))
    assert "tasty-humans/game.yaml:" in message and "--set rules=0.3: expected one of published, 0.2.8" in message
    assert BuildOptions(extra={"rules": "0.2.8"}).game_options([game])["tasty-humans"]["rules"] == "0.2.8"
    assert BuildOptions().game_options([game])["tasty-humans"]["rules"] == "published"  # the default


def test_a_choice_is_read_in_any_case_and_spelt_as_the_content_spells_it(repo_project: Project):
    game = load_game(repo_project, "tasty-humans")
    assert BuildOptions(extra={"rules": "Published"}).game_options([game])["tasty-humans"]["rules"] == "published"
    assert BuildOptions(extra={"rules": "PUBLISHED"}).game_options([game])["tasty-humans"]["rules"] == "published"
    (message,) = errors_of(lambda: BuildOptions(extra={"rules": "Publishd"}).game_options([game]))
    assert "--set rules=Publishd: expected one of published, 0.2.8 (did you mean 'published'?)" in message


def test_two_choices_differing_only_in_case_are_told_apart_by_case_alone():
    assert choice_named(["Fast", "fast"], "fast") == "fast" and choice_named(["Fast", "fast"], "Fast") == "Fast"
    assert choice_named(["Fast", "fast"], "FAST") is None and choice_named([1, 2], "2") == 2


def test_a_key_one_game_declares_goes_to_that_game_only(repo_project: Project):
    games = [load_game(repo_project, g) for g in ("tasty-humans", "dietrick-taking")]
    values = BuildOptions(extra={"rules": "0.2.8"}).game_options(games)
    assert values["tasty-humans"]["rules"] == "0.2.8" and "rules" not in values["dietrick-taking"]


def test_options_are_typed_and_a_wrong_type_is_located(fruit: Project):
    game = load_game(fruit, "fruit-stand")
    assert BuildOptions(players=3).game_options([game])["fruit-stand"]["players"] == 3
    (message,) = errors_of(lambda: BuildOptions(extra={"players": "many"}).game_options([game]))
    assert message.endswith("game.yaml:11:3: --players many: expected a whole number (fruit-stand option 'players')")


def test_an_option_declaration_error_is_located_in_game_yaml(fruit: Project):
    edit(fruit.content_dir / "fruit-stand/game.yaml", "players: {type: int, min: 2, max: 5", "players: {type: int, min: 6, max: 5")
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert "game.yaml:11:" in message and "min 6 is greater than max 5" in message


@pytest.mark.parametrize("old, new, end", [
    ("default: standard", "default: standrd", "game.yaml:12:32: default 'standrd': expected one of standard, family (did you mean 'standard'?) (fruit-stand option 'edition')"),
    ("choices: editions, default: standard", "choices: [standard, family], default: deluxe",
     "game.yaml:12:42: default 'deluxe': expected one of standard, family (fruit-stand option 'edition')"),
    ("max: 5,", "max: 5, default: 6,", "game.yaml:11:40: default 6: expected a number of players from 2 to 5 (fruit-stand option 'players')"),
    ("max: 5,", "max: 5, default: two,", "game.yaml:11:40: default 'two': expected a whole number (type: int) (fruit-stand option 'players')"),
])
def test_an_option_default_the_option_refuses_is_located_at_the_default(fruit: Project, old: str, new: str, end: str):
    """Before: never checked; a default none of the choices (or past max) reached the templates."""
    edit(fruit.content_dir / "fruit-stand/game.yaml", old, new)
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert message.endswith(end), message


# ------------------------------------------------------------------ project plugin, generated deck, CSV, icons


def test_fifth_game_builds_and_scores_from_its_own_folder(fruit: Project, monkeypatch):
    monkeypatch.chdir(fruit.root)
    result = runner.invoke(app, ["build", "--quiet"])
    assert result.exit_code == 0, result.output
    fronts = sorted(p.stem for p in (fruit.output_dir / "fruit-stand/svg/fruit").glob("*.svg"))
    assert len(fronts) == 25 and "apple-6" in fronts and "back" in fronts  # 4 fruits x 6 values, and the back
    order = (fruit.output_dir / "fruit-stand/svg/orders/basket.svg").read_text()
    assert order.count('viewBox="0 0 24 24"') == 6  # six fruit icons placed by icon()
    result = runner.invoke(app, ["score", "sheets/example.yaml", "--json"])
    assert result.exit_code == 0, result.output
    assert '"total": 10' in result.output and '"sets": 3' in result.output


def test_generated_deck_follows_players_and_edition(fruit: Project):
    game = load_game(fruit, "fruit-stand")
    two = game.namespace({"players": 2})["deck"]
    assert [c["id"] for c in two][:5] == ["apple-1", "apple-2", "apple-3", "apple-4", "pear-1"]
    assert len(two) == 16 and len(game.namespace({})["deck"]) == 24
    assert two[0]["fruit"]["name"] == "Apple" and two[0]["value"] == 1


def test_a_wrong_claimed_total_exits_1_and_a_bad_sheet_is_located(fruit: Project, monkeypatch):
    monkeypatch.chdir(fruit.root)
    edit(fruit.root / "sheets/example.yaml", "total: 10", "total: 11")
    assert runner.invoke(app, ["score", "sheets/example.yaml"]).exit_code == 1
    edit(fruit.root / "sheets/example.yaml", "[pie, jam]", "[pie, jamm]")
    result = runner.invoke(app, ["score", "sheets/example.yaml"])
    assert result.exit_code == 2 and "example.yaml:5:19: unknown order 'jamm'" in result.output


def test_family_edition_extends_standard(fruit: Project):
    game = load_game(fruit, "fruit-stand")
    family = game.namespace({"edition": "family"})["editions"]
    assert family["set_bonus"] == 5 and family["top_value"] == 6 and "extends" not in family


def test_a_typo_in_the_csv_is_named_by_file_row_and_column(fruit: Project):
    edit(fruit.content_dir / "fruit-stand/orders.csv", "jam,Plum Jam,plum;plum,3,2", "jam,Plum Jam,plum;plumm,3,2")
    edit(fruit.content_dir / "fruit-stand/orders.csv", "lemonade,Lemonade,lemon;lemon,3,2", "lemonade,Lemonade,lemon;lemon,three,2")
    messages = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert any(m.endswith("orders.csv:5:4: points: 'three': expected a whole number") for m in messages), messages
    # the ref is checked once the file is typed; fix the number to see it
    edit(fruit.content_dir / "fruit-stand/orders.csv", "three", "3")
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert message.endswith("orders.csv:4:3: needs: 'plumm' is not an id in fruits: expected one of apple, pear, plum, lemon")


def test_an_unknown_column_and_a_duplicate_id_are_located(fruit: Project):
    csv = fruit.content_dir / "fruit-stand/orders.csv"
    csv.write_text("".join(line + ",\n" for line in csv.read_text().splitlines()))  # an empty cell a row for the new column
    edit(csv, "id,title,needs,points,copies,", "id,title,needs,points,copies,colour")
    edit(csv, "tart,Lemon Tart,lemon;lemon;apple,4,1,", "pie,Lemon Tart,lemon;lemon;apple,4,1,red")
    messages = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert any(m.endswith("orders.csv:1:6: unknown column 'colour': expected one of id, title, needs, points, copies") for m in messages), messages  # once, at the header
    assert any(m.endswith("orders.csv:7:1: id 'pie' appears twice (first on line 2): expected unique values") for m in messages), messages  # before: "record 1"


def test_an_empty_required_cell_is_located_at_its_column(fruit: Project):
    """Before: at column 1 of its row, whatever column the empty cell was in; then "missing
    field 'title'", as if the sheet had no such column."""
    from openpyxl import Workbook

    csv = fruit.content_dir / "fruit-stand/orders.csv"
    edit(csv, "jam,Plum Jam,plum;plum,3,2", "jam,,plum;plum,3,2")
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert message.endswith("orders.csv:4:2: title: empty cell: expected a value (a required field)"), message
    book = Workbook()
    book.active.append(["id", "title", "needs", "points"])
    for i in range(6):
        book.active.append([f"order-{i}", f"Order {i}", "apple;pear", None if i == 2 else i + 1])
    csv.unlink()
    book.save(fruit.content_dir / "fruit-stand/orders.xlsx")
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert message.endswith("orders.xlsx:4:4: points: empty cell: expected a value (a required field)"), message


def test_an_optional_field_left_empty_is_named_so_in_the_template_error(fruit: Project, monkeypatch):
    """Before: "no field 'note' (fields: id, title, ...)", as if orders.csv had no such column."""
    csv = fruit.content_dir / "fruit-stand/orders.csv"
    csv.write_text("".join(line + ",\n" for line in csv.read_text().splitlines()))
    edit(csv, "copies,", "copies,note")
    edit(csv, "4,2,", "4,2,Sweet")  # the first order has a note, the others leave it empty
    edit(fruit.content_dir / "fruit-stand/game.yaml", "      title: text\n", "      title: text\n      note: {type: text, required: false}\n")
    edit(fruit.templates_dir / "fruit-stand/order.svg.j2", "{{ item.title }}</text>", "{{ item.title }} {{ item.note }}</text>")
    monkeypatch.chdir(fruit.root)
    result = runner.invoke(app, ["validate", "fruit-stand"])
    assert result.exit_code == 2 and "field 'note' is empty in this record (its file has that field): expected `| default(...)`" in result.output, result.output
    edit(fruit.templates_dir / "fruit-stand/order.svg.j2", "{{ item.note }}", "{{ item.note | default('') }}")
    assert runner.invoke(app, ["validate", "fruit-stand"]).exit_code == 0


@pytest.mark.parametrize("draw", ["{{ blurb.tagline }}", "{% for l in wrap(blurb.tagline, 40, 3) %}{{ l }}{% endfor %}",
                                  "{{ fit_size(blurb.tagline, 40, 3) }}", "{{ none }}"])
def test_a_yaml_key_left_empty_is_an_error_not_the_word_none_on_the_face(fruit: Project, monkeypatch, draw: str):
    """Before: `tagline:` (null in YAML) printed "None" on every back, and exit 0; a literal
    `{{ none }}`, folded as Jinja compiles, did too. The key left empty is blamed, at its YAML
    line (before: the template's line, though the template is right)."""
    (fruit.content_dir / "fruit-stand/blurb.yaml").write_text("tagline:\n")
    back = fruit.templates_dir / "fruit-stand/back.svg.j2"
    edit(back, "{{ game.title }}", draw)
    line = next(n for n, text in enumerate(back.read_text().splitlines(), 1) if draw in text)
    monkeypatch.chdir(fruit.root)
    result = runner.invoke(app, ["validate", "fruit-stand"])
    assert result.exit_code == 2, result.output
    assert "an empty value (None) would print as 'None'" in result.output, result.output
    if "blurb" in draw:
        assert result.output.startswith("content/fruit-stand/blurb.yaml:1:1: fruit/back (and 1 more piece): blurb.tagline: an empty value"), result.output
        assert result.output.rstrip().endswith(f"(placed by templates/fruit-stand/back.svg.j2:{line})"), result.output
    else:  # no content named: the template's own
        assert f"back.svg.j2:{line}: " in result.output, result.output


@pytest.mark.parametrize("draw, said", [
    ("{{ item.title }}", "an empty value (None) would print as 'None'"),
    ("{{ item.title | length }}", "the value is empty, which YAML reads as null (TypeError: object of type 'NoneType' has no len())"),
    ("{{ item.title ~ item.id }}", "an empty value (None) joined with `~` is taken as the text 'None'"),  # before: "Noneb", exit 0
    ("{{ item.title | upper }}", "an empty value (None) given to `| upper` is taken as the text 'None'"),  # before: "NONE", exit 0
])
def test_a_records_field_left_empty_is_blamed_at_its_yaml_line(tmp_path: Path, monkeypatch, draw: str, said: str):
    """Before: at the template line that printed it (`card.svg.j2:3: c/b: ...`), which is right."""
    (tmp_path / "content/g").mkdir(parents=True)
    (tmp_path / "templates/g").mkdir(parents=True)
    (tmp_path / "content/g/game.yaml").write_text("title: G\ncomponents:\n  - {id: c, name: C, size: poker, items: cards.cards, front: card.svg.j2}\n")
    (tmp_path / "content/g/cards.yaml").write_text("cards:\n  - id: a\n    title: Alpha\n  - id: b\n    title:\n")
    (tmp_path / "templates/g/card.svg.j2").write_text('{% extends "pnp/base.svg.j2" %}\n{% block body %}\n<text>' + draw + "</text>\n{% endblock %}\n")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["validate", "g"])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"content/g/cards.yaml:5:5: c/b: title: {said}"), result.output
    assert result.output.rstrip().endswith("(placed by templates/g/card.svg.j2:3)"), result.output


def test_a_template_testing_for_an_empty_field_still_builds(tmp_path: Path, monkeypatch):
    """Refusing None joined with `~` or given to a text filter leaves alone the templates
    that test for it first, or replace it."""
    (tmp_path / "content/g").mkdir(parents=True)
    (tmp_path / "templates/g").mkdir(parents=True)
    (tmp_path / "content/g/game.yaml").write_text("title: G\ncomponents:\n  - {id: c, name: C, size: poker, items: cards.cards, front: card.svg.j2}\n")
    (tmp_path / "content/g/cards.yaml").write_text("cards:\n  - id: a\n    title: Alpha\n  - id: b\n    title:\n")
    draw = ("{% if item.title %}{{ item.title | upper ~ item.id }}{% endif %}{{ 'none' if item.title is none }}"
            "{{ item.title | default('x', true) | upper ~ '!' }}{{ (item.title or '') ~ item.id }}")
    (tmp_path / "templates/g/card.svg.j2").write_text('{% extends "pnp/base.svg.j2" %}\n{% block body %}\n<text>' + draw + "</text>\n{% endblock %}\n")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["validate", "g"])
    assert result.exit_code == 0, result.output


def test_an_xlsx_sheet_is_read_like_the_csv(fruit: Project):
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["id", "title", "needs", "points"])
    for i in range(6):
        sheet.append([f"order-{i}", f"Order {i}", "apple;pear", i + 1])
    sheet.append(["bad", "Bad", "apple", "lots"])
    (fruit.content_dir / "fruit-stand/orders.csv").unlink()
    book.save(fruit.content_dir / "fruit-stand/orders.xlsx")
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert message.endswith("orders.xlsx:8:4: points: 'lots': expected a whole number")
    sheet.delete_rows(8)
    book.save(fruit.content_dir / "fruit-stand/orders.xlsx")
    orders = load_game(fruit, "fruit-stand").namespace()["orders"]
    assert orders[5] == {"id": "order-5", "title": "Order 5", "needs": ["apple", "pear"], "points": 6, "copies": 1}


def test_a_yaml_typo_is_located_in_the_data_file_not_the_template(fruit: Project):
    edit(fruit.content_dir / "fruit-stand/fruits.yaml", "{id: pear, name: Pear,", "{id: pear, nmae: Pear,")
    messages = errors_of(lambda: load_game(fruit, "fruit-stand"))
    (line,) = [m for m in messages if "fruits.yaml" in m]  # the field meant is not also said to be missing
    assert line.endswith("fruits.yaml:4:16: unknown field 'nmae': did you mean 'name' (required)?"), messages


def test_an_unknown_field_far_from_every_field_lists_them(fruit: Project):
    edit(fruit.content_dir / "fruit-stand/fruits.yaml", "{id: pear, name: Pear,", "{id: pear, name: Pear, weight: 3,")
    messages = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert any(m.endswith("fruits.yaml:4:28: unknown field 'weight': expected one of id, name, colour") for m in messages), messages


def test_record_count_is_checked(fruit: Project):
    edit(fruit.content_dir / "fruit-stand/game.yaml", "count: {min: 6, max: 30}", "count: 20")
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert message.endswith("orders.csv:1:1: 8 records: expected exactly 20 (count in game.yaml)")


def test_a_fruit_without_an_icon_is_reported_at_the_fruit(fruit: Project):
    (fruit.content_dir / "fruit-stand/icons/plum.svg").unlink()
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert "fruits.yaml:5:6:" in message and "'plum' has no icon (an SVG file in icons/)" in message


def test_a_scoring_rule_without_a_scorer_is_reported(fruit: Project):
    edit(fruit.content_dir / "fruit-stand/editions.yaml", "scoring: [orders, sets]", "scoring: [orders, sets, speed]")
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert "editions.yaml:8:27:" in message and "'speed' has no scorer in plugins/fruit_stand.py" in message and "expected one of orders, sets" in message


def test_icons_from_yaml_paths(fruit: Project):
    game_yaml = fruit.content_dir / "fruit-stand/game.yaml"
    edit(game_yaml, "  fruit: {folder: icons}", "  fruit: {folder: icons}\n  marks: {file: marks.yaml}")
    (fruit.content_dir / "fruit-stand/marks.yaml").write_text('star: "M12 2L15 9H22L16 14L18 22L12 17L6 22L8 14L2 9H9Z"\ndot: {d: "M12 8a4 4 0 1 0 0.01 0", fill: "#333"}\n')
    game = load_game(fruit, "fruit-stand")
    assert "marks" not in game.docs  # an icon file is not a data file
    from pnp.load.icons import UnknownIcon
    from pnp.render.faces import environment

    env, names = environment(game), game.namespace()

    def icon(*args) -> str:  # as a template calls it: it takes the icon from the face's `icons`
        return env.from_string("{{ icon(*args) }}").render({**names, "args": args})

    assert icon("marks", "dot", 1, 2, 5) == '<svg x="1" y="2" width="5" height="5" viewBox="0 0 24 24" fill="#333"><path d="M12 8a4 4 0 1 0 0.01 0"/></svg>'
    with pytest.raises(UnknownIcon, match="no icon 'moon' in set 'marks': expected one of star, dot"):
        icon("marks", "moon", 0, 0, 1)


def test_a_misspelt_csv_header_is_one_error_at_the_header(fruit: Project):
    edit(fruit.content_dir / "fruit-stand/orders.csv", "id,title,needs,points,copies", "id,title,needs,pts,copies")
    messages = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert [m.split("fruit-stand/")[-1] for m in messages] == ["orders.csv:1:4: unknown column 'pts' (did you mean 'points'? game.yaml's `data:` declares that field "
                                                                 "and no column holds it: one of the two names is misspelt)"], messages
    # before: a field misspelt in game.yaml (`coppies`) had the right column told to take the typo, as if the CSV were wrong
    edit(fruit.content_dir / "fruit-stand/orders.csv", "id,title,needs,pts,copies", "id,title,needs,points,copies")
    edit(fruit.content_dir / "fruit-stand/game.yaml", "      copies: {type: int, min: 1", "      coppies: {type: int, min: 1")
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert message.endswith("orders.csv:1:5: unknown column 'copies' (did you mean 'coppies'? game.yaml's `data:` declares "
                            "that field and no column holds it: one of the two names is misspelt)"), message


def test_values_past_the_header_are_one_error_a_row_with_the_csv_hint(fruit: Project):
    """The usual cause is a text with an unquoted comma, which shifts the row's cells."""
    edit(fruit.content_dir / "fruit-stand/orders.csv", "jam,Plum Jam,plum;plum,3,2", "jam,Plum Jam, Sweet,plum;plum,3,2")
    edit(fruit.content_dir / "fruit-stand/orders.csv", "lemonade,Lemonade,lemon;lemon,3,2", "lemonade,Lemonade,lemon;lemon,3,2,,x,y")
    messages = [m.split("fruit-stand/")[-1] for m in errors_of(lambda: load_game(fruit, "fruit-stand"))]
    hint = "with no name: expected a header for every filled column (a CSV text holding a comma goes in double quotes)"
    assert messages == [f"orders.csv:4:6: a value in a column {hint}", f"orders.csv:5:7: 2 values in columns {hint}"], messages


def test_a_csv_without_a_required_column_says_so_once(fruit: Project):
    orders = fruit.content_dir / "fruit-stand/orders.csv"
    orders.write_text("".join(",".join(row.split(",")[:3] + row.split(",")[4:]) for row in orders.read_text().splitlines(keepends=True)))
    messages = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert [m.split("fruit-stand/")[-1] for m in messages] == ["orders.csv:1: missing column 'points': expected a header naming every required field"], messages


# ------------------------------------------------------------------ variants and generation errors


def test_broken_extends_chains_are_located(fruit: Project):
    editions = fruit.content_dir / "fruit-stand/editions.yaml"
    editions.write_text(editions.read_text() + "party:\n  extends: familly\nloop-a:\n  extends: loop-b\nloop-b:\n  extends: loop-a\n")
    messages = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert any(m.endswith("editions.yaml:14:3: extends 'familly', which is not a variant here: expected one of standard, family, loop-a, loop-b") for m in messages), messages
    assert any("editions.yaml:16:3: variants extend each other in a cycle (loop-a -> loop-b -> loop-a)" in m for m in messages), messages


def test_a_key_the_parent_lacks_is_refused_at_its_line(fruit: Project):
    """A misspelt key in a variant would be added, leaving the parent's value in force;
    it is refused at its line, at any depth the merge reaches, with the parent's nearest key."""
    editions = fruit.content_dir / "fruit-stand/editions.yaml"
    edit(editions, "  set_bonus: 5\n", "  set_bonsu: 5\n  top_value_by_players: {2: 5, 6: 6}\n  tokens: 3\n")
    messages = [m.split("fruit-stand/")[-1] for m in errors_of(lambda: load_game(fruit, "fruit-stand"))]
    tail = ", which 'family' extends{}: expected a key the parent has (to add a key, give the parent it too)"
    assert messages == ["editions.yaml:12:3: 'set_bonsu' is not a key of 'standard'" + tail.format(" (did you mean 'set_bonus'?)"),
                        "editions.yaml:14:3: 'tokens' is not a key of 'standard'" + tail.format("")], messages


def test_a_variant_may_add_a_player_count(fruit: Project):
    """A mapping keyed by numbers alone (a count by players) has no name to misspell: an
    edition may add a count its parent lacks (review: the unknown-key check refused it)."""
    editions = fruit.content_dir / "fruit-stand/editions.yaml"
    edit(editions, "  set_bonus: 5\n", "  set_bonus: 5\n  top_value_by_players: {2: 5, 6: 6}\n")
    merged = load_game(fruit, "fruit-stand").namespace({"edition": "family"})["editions"]
    assert merged["top_value_by_players"][6] == 6


def test_a_generated_id_made_twice_is_an_error(fruit: Project):
    edit(fruit.content_dir / "fruit-stand/game.yaml", 'id: "{{ fruit.id }}-{{ value }}"', 'id: "{{ fruit.id }}"')
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand").namespace())
    assert "game.yaml:" in message and "id 'apple' is made twice" in message


def test_generated_fields_see_the_product_names(tmp_path: Path, monkeypatch):
    """The brief's example of `fields:` on a `pnp new` game: each record gets `double`."""
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["new", "g"]).exit_code == 0
    with open(tmp_path / "content/g/game.yaml", "a") as f:
        f.write('generate:\n  deck:\n    product: {n: "range(1, 3)"}\n    id: "c{{ n }}"\n    fields: {double: "n * 2"}\n')
    deck = load_game(Project(tmp_path), "g").namespace()["deck"]
    assert [dict(r) for r in deck] == [{"id": "c1", "n": 1, "double": 2}, {"id": "c2", "n": 2, "double": 4}]
    assert runner.invoke(app, ["build", "g", "--quiet"]).exit_code == 0


def test_the_readme_generate_example_with_fields(fruit: Project):
    """docs/writing-games.md "Generated lists", `fields: {colour: fruit.colour}` as printed there."""
    edit(fruit.content_dir / "fruit-stand/game.yaml", "    where: \"options", "    fields: {colour: fruit.colour}             # optional extra fields\n    where: \"options")
    deck = load_game(fruit, "fruit-stand").namespace({"players": 2})["deck"]
    assert deck[0]["colour"] == "#c92a2a" and deck[0]["value"] == 1 and deck[-1]["colour"] == "#f59f00"


def test_a_failed_generation_names_values_not_addresses(fruit: Project):
    edit(fruit.content_dir / "fruit-stand/game.yaml", 'value: "range(1, editions.top_value + 1)"', 'value: "[range]"')
    edit(fruit.content_dir / "fruit-stand/game.yaml", 'where: "options.players', 'fields: {bad: "value + 1"}\n    where: "options.players')
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand").namespace())
    assert "generate 'deck' failed for fruit = 'apple', value = a function: unsupported operand" in message, message
    assert "0x" not in message


def test_a_repeated_item_id_is_located_at_the_second_record(tmp_path: Path, monkeypatch):
    """An undeclared YAML list (`pnp new`'s cards.yaml): the repeat's own line, not `items:`."""
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["new", "my-game"]).exit_code == 0
    with open(tmp_path / "content/my-game/cards.yaml", "a") as f:
        f.write("  - id: other\n    title: Other\n    text: More.\n    copies: 1\n  - id: example\n    title: Again\n    copies: 1\n")
    result = runner.invoke(app, ["build", "my-game", "--quiet"])
    assert result.exit_code == 2
    assert result.output.strip() == "content/my-game/cards.yaml:10:5: item id 'example' appears twice in 'card' (first at line 2): expected unique ids"


def test_product_filter():
    from pnp.load.generate import product

    assert product(["a", "b"], [1, 2]) == [("a", 1), ("a", 2), ("b", 1), ("b", 2)]


def test_a_content_file_or_generated_list_named_as_a_template_name_is_refused(fruit: Project):
    """Before: `item.yaml` broke every `copies:` expression with "evaluate() got multiple values for
    keyword argument 'item'", `wrap.csv` every wrap() ("'dict' object is not callable"),
    `options.yaml` hid the options, and a generated list named `orders` hid orders.csv's records."""
    folder = fruit.content_dir / "fruit-stand"
    (folder / "item.yaml").write_text("a: 1\n")
    (folder / "wrap.csv").write_text("a,b\n1,2\n")
    (folder / "icons.yaml").write_text("a: 1\n")
    edit(folder / "game.yaml", "generate:\n  deck:", "generate:\n  orders:\n    product: {n: '[1]'}\n    id: 'o{{ n }}'\n  deck:")
    messages = [m.split("fruit-stand/")[-1] for m in errors_of(lambda: load_game(fruit, "fruit-stand"))]
    assert messages == [
        "game.yaml:34:3: generated list 'orders': templates already see `orders` as the content file orders.csv: rename one of them",
        "icons.yaml: templates already see `icons` as the icon sets (game.yaml `icons:`): rename the file "
        "(its name without the extension is its name in templates)",
        "item.yaml: templates already see `item` as the piece's record: rename the file (its name without the extension is its name in templates)",
        "wrap.csv: templates already see `wrap` as a template helper: rename the file (its name without the extension is its name in templates)",
    ], messages


# ------------------------------------------------------------------ plugins


def test_a_missing_project_plugin_is_located(fruit: Project):
    (fruit.root / "plugins/fruit_stand.py").unlink()
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert "game.yaml:8:1: plugin file not found: plugins/fruit_stand.py" in message
    assert "did you mean" not in message  # nothing near it: no guess


def test_a_misspelt_plugin_file_names_the_one_meant(fruit: Project):
    """Before: `plugin: plugins/fruit_stnd.py` said "plugin file not found" beside plugins/fruit_stand.py."""
    game_yaml = fruit.content_dir / "fruit-stand/game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("plugin: plugins/fruit_stand.py", "plugin: plugins/fruit_stnd.py"))
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert message.endswith("folder with __init__.py (did you mean 'plugins/fruit_stand.py'?)"), message
    result = runner.invoke(app, ["trust", "--project", str(fruit.root)])
    assert result.exit_code == 2 and result.output.strip().endswith("(did you mean 'plugins/fruit_stand.py'?)"), result.output


def test_a_project_plugin_that_is_a_loop_of_links_is_located(fruit: Project):
    """Before: `pnp: internal error: RuntimeError: Symlink loop` (Path.resolve, Python < 3.13)."""
    plugin = fruit.root / "plugins/fruit_stand.py"
    plugin.unlink()
    plugin.symlink_to("fruit_stand.py")
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert "game.yaml:8:1: plugin file not found: plugins/fruit_stand.py" in message
    result = runner.invoke(app, ["trust", "--project", str(fruit.root)])
    assert result.exit_code == 2 and "game.yaml:8:1: plugin file not found: plugins/fruit_stand.py" in result.output, result.output
    assert "did you mean" not in result.output  # the loop itself is no name meant


def test_a_plugin_that_does_not_compile_is_located_in_the_plugin(fruit: Project, trusted, monkeypatch):
    plugin = fruit.root / "plugins/fruit_stand.py"
    lines = plugin.read_text().count("\n")
    plugin.write_text(plugin.read_text() + "x = (\n")
    trusted(fruit)
    monkeypatch.chdir(fruit.root)
    result = runner.invoke(app, ["build", "--quiet"])
    assert result.exit_code == 2
    assert result.output.strip() == f"plugins/fruit_stand.py:{lines + 1}:5: plugin plugins/fruit_stand.py failed to load: SyntaxError: '(' was never closed"


def test_a_plugin_that_raises_on_import_is_located_at_its_line(fruit: Project, trusted):
    plugin = fruit.root / "plugins/fruit_stand.py"
    plugin.write_text("import math\n\nmath.sqrt(-1)\n")
    trusted(fruit)
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert message.endswith("plugins/fruit_stand.py:3: plugin plugins/fruit_stand.py failed to load: ValueError: math domain error"), message


def test_a_plugin_without_PLUGIN_is_an_error(fruit: Project, trusted):
    (fruit.root / "plugins/fruit_stand.py").write_text("X = 1\n")
    trusted(fruit)
    (message,) = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert "expected the module to define PLUGIN = pnp.api.GamePlugin(...)" in message


def test_a_plugin_from_an_installed_entry_point(fruit: Project, tmp_path: Path, monkeypatch):
    """`plugin: NAME` finds an installed package's entry point in the group pnp.games."""
    site = tmp_path / "site"
    (site / "fruitpkg").mkdir(parents=True)
    shutil.copy(fruit.root / "plugins/fruit_stand.py", site / "fruitpkg/__init__.py")
    info = site / "fruitpkg-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fruitpkg\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pnp.games]\nfruity = fruitpkg\n")
    monkeypatch.syspath_prepend(str(site))
    shutil.rmtree(fruit.root / "plugins")
    edit(fruit.content_dir / "fruit-stand/game.yaml", "plugin: plugins/fruit_stand.py", "plugin: fruity")
    game = load_game(fruit, "fruit-stand")
    assert game.plugin.score is not None and set(game.plugin.provides["scorers"]) == {"orders", "sets"}
    sys.modules.pop("fruitpkg", None)


def _installed(tmp_path: Path, monkeypatch, code: str) -> None:
    """An installed package `brokenpkg` (its __init__.py holds `code`) with the entry point `broken` in pnp.games."""
    site = tmp_path / "site"
    (site / "brokenpkg").mkdir(parents=True)
    (site / "brokenpkg/__init__.py").write_text(code)
    info = site / "brokenpkg-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: brokenpkg\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pnp.games]\nbroken = brokenpkg\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delitem(sys.modules, "brokenpkg", raising=False)


def test_an_installed_plugin_that_fails_to_import_is_located_at_its_line(demo: Project, tmp_path: Path, monkeypatch):
    _installed(tmp_path, monkeypatch, "import math\n\nmath.sqrt(-1)\n")
    edit(demo.content_dir / "demo/game.yaml", "components:", "plugin: broken\ncomponents:")
    (message,) = errors_of(lambda: load_game(demo, "demo"))
    assert message.endswith("brokenpkg/__init__.py:3: plugin 'broken' (entry point brokenpkg) failed to load: ValueError: math domain error"), message


def test_an_installed_plugin_with_a_wrong_model_is_named_at_the_game(demo: Project, tmp_path: Path, monkeypatch):
    """Outside the project pnp reads none of its files: the error names the plugin's file, with no line."""
    _installed(tmp_path, monkeypatch, "from pnp.api import GamePlugin\n\nPLUGIN = GamePlugin(models={'cards': dict})\n")
    edit(demo.content_dir / "demo/game.yaml", "components:", "plugin: broken\ncomponents:")
    (message,) = errors_of(lambda: load_game(demo, "demo"))
    assert message.endswith("site/brokenpkg/__init__.py: plugin broken: models['cards'] is the class dict: expected a pydantic model class "
                            "(a subclass of pnp.api.StrictModel) for the content file"), message


def test_a_plugin_name_that_is_neither_a_module_nor_a_path(demo: Project):
    edit(demo.content_dir / "demo/game.yaml", "components:", "plugin: my-plugin\ncomponents:")
    (message,) = errors_of(lambda: load_game(demo, "demo"))
    assert message.endswith("plugin 'my-plugin': expected a module name (letters, digits, '_') or a path such as plugins/my-plugin.py"), message


@pytest.mark.parametrize("section, end", [
    ("options:\n  speed: {type: int, defualt: 1}\n", "game.yaml:2:22: unknown key 'defualt': did you mean 'default'?"),
    ("icons:\n  marks: {fiel: marks.yaml}\n", "game.yaml:2:11: unknown key 'fiel': did you mean 'file'?"),
    ("data:\n  cards: {recods: cards}\n", "game.yaml:2:11: unknown key 'recods': did you mean 'records'?"),
])
def test_a_misspelt_optional_key_of_a_game_yaml_section_names_the_key_meant(demo: Project, section: str, end: str):
    """Before: the allowed keys listed, where a misspelt required key (`nmae`) was named."""
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(section + game.read_text())
    assert [m for m in errors_of(lambda: load_game(demo, "demo")) if "unknown key" in m][0].endswith(end)


def test_an_unknown_plugin_name_lists_where_it_was_looked_for(demo: Project):
    edit(demo.content_dir / "demo/game.yaml", "components:", "plugin: nosuch\ncomponents:")
    (message,) = errors_of(lambda: load_game(demo, "demo"))
    assert "unknown plugin 'nosuch': no project file plugins/nosuch.py named and no entry point 'nosuch' in group 'pnp.games'" in message


def test_a_typo_in_a_field_declaration_is_located_in_game_yaml(fruit: Project):
    edit(fruit.content_dir / "fruit-stand/game.yaml", "points: {type: int, min: 1, max: 12}", "points: {tpye: int}")
    edit(fruit.content_dir / "fruit-stand/game.yaml", "name: text", "name: txt")
    messages = errors_of(lambda: load_game(fruit, "fruit-stand"))
    assert any("game.yaml:26:16: unknown key 'tpye': did you mean 'type'?" in m for m in messages), messages
    assert any("game.yaml:19:7:" in m and "'txt'" in m for m in messages), messages
