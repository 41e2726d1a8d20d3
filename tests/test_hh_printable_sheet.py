"""`pnp sheet human-harvest -n N`: the paper scoring sheet, one per player count of the
`players` option (2-4), whose fields are the scoring-sheet file's in its order and under its
names (scoring.yaml `sheet:`), with the win conditions in our words and scoring.yaml's counts."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pypdfium2
import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.errors import PnpError
from pnp.load.content import Project, load_game
from pnp.load.yamlio import parse_located

REPO = Path(__file__).resolve().parent.parent
GAME = "human-harvest"
SVG = "{http://www.w3.org/2000/svg}"


def cli(*args: str, project: Path = REPO):
    return CliRunner().invoke(app, [*args, "--project", str(project)])


@pytest.fixture(scope="module")
def game():
    return load_game(Project(REPO), GAME)


def printed(tmp_path: Path, players: int) -> ET.Element:
    result = cli("sheet", GAME, "-n", str(players), "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert len(pypdfium2.PdfDocument(tmp_path / f"scoring-sheet-{players}p.pdf")) == 1
    return ET.parse(tmp_path / f"scoring-sheet-{players}p.svg").getroot()


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def fields(root: ET.Element, kind: str) -> list[str]:
    return [g.get("data-field") for g in root.iter(f"{SVG}g") if g.get("class") == kind]


def scorer_keys(game) -> tuple[list[str], list[str]]:
    """The keys the scorer takes, as it says them: a sheet's unknown key is refused naming
    every key it expects, at the top and in a player."""
    doc = parse_located("game: human-harvest\nending: board-finished\nzz: 1\nplayers:\n"
                        "  - {name: A, cyborgs: 1, zz: 1}\n  - {name: B, cyborgs: 2}\n", "sheet.yaml")
    with pytest.raises(PnpError) as exc:
        game.plugin.score(game, doc)
    said = [re.search(r"unknown key 'zz' \(expected one of: ([^)]*)\)", str(e)) for e in exc.value.errors]
    top, player = [m.group(1).split(", ") for m in said if m]
    return top, player


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_printable_sheet_for_every_player_count(tmp_path, game, players):
    root = printed(tmp_path, players)
    assert (root.get("width"), root.get("height")) == ("200mm", "130mm")
    words = texts(root)
    assert f"{players} players" in words
    table = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "table")
    assert [r.get("class") for r in table.iter(f"{SVG}rect")] == ["seat"] * players
    assert [str(n) for n in range(1, players + 1)] == [w for w in words if w.isdigit()]
    # a box to tick per value the file takes, each value printed as the file spells it
    for key in ("variant", "ending", "dna_point"):
        values = [r.get("data-value") for r in root.iter(f"{SVG}rect") if r.get("class") == f"box-{key}"]
        assert values == list(game.data["scoring"].sheet.choices[key]) and set(values) <= set(words), key
    # every line of text stays on the sheet, above the footer
    assert max(float(t.get("y")) for t in root.iter(f"{SVG}text")) <= 130 - 5


def test_the_sheet_shows_every_field_of_the_file_in_its_order(tmp_path, game):
    """Fails when the scorer gains or renames a field (or an ending, a variant) the paper
    sheet does not print: the table copies the sheet into the file line by line."""
    root = printed(tmp_path, 3)
    top, player = scorer_keys(game)
    assert fields(root, "field") == top
    assert fields(root, "player-field") == player
    # the JSON Schema of the file (`--schema`) names the same, and its endings and variants
    schema = json.loads(cli("sheet", GAME, "-n", "3", "--schema").stdout)
    assert list(schema["properties"]) == top
    assert list(schema["properties"]["players"]["items"]["properties"]) == player
    words = texts(root)
    for key in ("variant", "ending"):
        assert [w for w in words if w in schema["properties"][key]["enum"]] == schema["properties"][key]["enum"]
    # and the blank YAML sheet (`--template`) lists its keys in the same order
    template = cli("sheet", GAME, "-n", "2", "--template").stdout
    keys = re.findall(r"^[#\s-]*(\w+):", template, re.M)
    assert list(dict.fromkeys(k for k in keys if k in top)) == top
    assert list(dict.fromkeys(k for k in keys if k in player)) == player


def test_the_win_conditions_carry_scoring_yaml_counts(tmp_path, copy_game):
    """The counts printed are scoring.yaml's, as the scorer reads them (rules lines 30, 151)."""
    project = copy_game(GAME)
    path = project.content_dir / GAME / "scoring.yaml"
    path.write_text(path.read_text().replace("humans_to_win: 6", "humans_to_win: 5", 1))
    result = cli("sheet", GAME, "-n", "2", "--out", str(project.root / "out"), project=project.root)
    assert result.exit_code == 0, result.output
    text = " ".join(texts(ET.parse(project.root / "out" / "scoring-sheet-2p.svg").getroot()))
    assert "somebody stored 5 Humans" in text and "advanced: stored, 0-5" in text
    assert "all 6 of their Cyborgs" in text and "0-6" in text


def test_a_sheet_missing_a_field_of_the_file_is_refused_at_its_line(copy_game):
    project = copy_game(GAME)
    path = project.content_dir / GAME / "scoring.yaml"
    text = path.read_text()
    path.write_text(text.replace('    humans: "advanced: stored', '    stored: "advanced: stored', 1))
    with pytest.raises(PnpError) as exc:
        load_game(project, GAME)
    (err,) = [str(e) for e in exc.value.errors]
    line = next(i for i, s in enumerate(text.splitlines(), 1) if s.startswith("  player_fields:"))
    assert err.endswith(f"scoring.yaml:{line}:3: sheet.player_fields lists name, cyborgs, stored: expected name, cyborgs, "
                        "humans, in that order, as the scoring-sheet file has them (plugins/human_harvest/fields.py)"), err
    result = cli("validate", project=project.root)
    assert result.exit_code == 2 and "Traceback" not in result.output


@pytest.mark.parametrize("placeholder", ["{humans}", "{humans_to_win.real}", "{cyborgs_to_win[0]}", "{",
                                         "{humans_to_win:>999999999}", "{humans_to_win:s}", "{humans_to_win!r}"])  # a giant text, a failure
def test_a_sheet_text_with_an_unknown_count_is_refused(copy_game, placeholder):
    project = copy_game(GAME)
    path = project.content_dir / GAME / "scoring.yaml"
    text = path.read_text()
    path.write_text(text.replace("0-{humans_to_win}", f"0-{placeholder}", 1))
    with pytest.raises(PnpError) as exc:
        load_game(project, GAME)
    (err,) = [str(e) for e in exc.value.errors]
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "0-{humans_to_win}" in s)
    assert f"scoring.yaml:{line}:" in err and "expected only the placeholders {cyborgs_per_player}, {cyborgs_to_win}, {humans_to_win}" in err
    assert cli("validate", project=project.root).exit_code == 2


def test_the_table_code_stands_beside_the_players(tmp_path, copy_game):
    from pnp.score.dispatch import printable_sheet
    from pnp.serve.sheetcode import table_code

    (svg, _pdf) = printable_sheet(Project(REPO), GAME, 4, "letter", tmp_path, table=table_code("http://10.0.0.2:8000/?t=x"))
    root = ET.parse(svg).getroot()
    qr = next(i for i in root.iter(f"{SVG}image") if i.get("class") == "table-qr")
    right = max(float(r.get("x")) + float(r.get("width")) for r in root.iter(f"{SVG}rect") if r.get("class") == "seat")
    assert right < float(qr.get("x"))  # the table leaves the code its room


def test_a_template_asking_say_for_a_width_is_refused(copy_game):
    """`scoring.say` fills a text a template gives it: `{humans_to_win:>999999999}` there made a
    gigabyte text before any sandbox limit saw it (the content's texts are checked at load)."""
    project = copy_game(GAME)
    template = project.templates_dir / GAME / "summary.svg.j2"
    template.write_text(template.read_text().replace("{{ section.heading }}", "{{ scoring.say('{humans_to_win:>2000000}') }}", 1))
    result = cli("validate", project=project.root)
    assert result.exit_code == 2, result.output
    assert "'{humans_to_win:>2000000}': expected only the placeholders {cyborgs_per_player}, {cyborgs_to_win}, {humans_to_win}" in result.output
