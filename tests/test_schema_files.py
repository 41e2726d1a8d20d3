"""`pnp schema`: every shipped file and every file `pnp new` makes validates against the
written JSON Schemas (with the `jsonschema` library, as an editor would), and a typo fails."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from pnp.load.content import Project, load_game
from pnp.tools.schema import write_schemas

REPO = Path(__file__).resolve().parent.parent
FRUIT = REPO / "examples/projects/fruit-stand"
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$", re.M)


def schemas(project: Project, out: Path) -> dict[tuple[str, str], dict]:
    """(game, file name) -> schema, for every game of the project."""
    written = write_schemas(project, None, out)
    return {(p.parent.name, p.name): json.loads(p.read_text()) for p in written}


def problems(schema: dict, data) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in jsonschema.Draft202012Validator(schema).iter_errors(data)]


@pytest.fixture(scope="module")
def shipped(tmp_path_factory) -> dict[tuple[str, str], dict]:
    out = tmp_path_factory.mktemp("schema")
    return {**schemas(Project(REPO), out), **schemas(Project(FRUIT), out)}


@pytest.fixture
def demo_schemas(demo: Project, tmp_path: Path) -> dict[tuple[str, str], dict]:
    return schemas(demo, tmp_path / "s")


def content_files(root: Path) -> list[Path]:
    return sorted(p for p in (root / "content").glob("*/*") if p.suffix in (".yaml", ".csv"))


@pytest.mark.parametrize("path", content_files(REPO) + content_files(FRUIT), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_content_file_validates(shipped, path: Path):
    game = path.parent.name
    if path.suffix == ".csv":  # the rows as typed records, against <stem>.csv.schema.json
        project = Project(path.parent.parent.parent)
        doc = load_game(project, game).docs[path.stem]
        parts = getattr(doc, "parts", {})  # a YAML file and a sheet: the rows sit at one key
        rows = doc.data[next(iter(parts))[0]] if parts else doc.data
        assert problems(shipped[(game, f"{path.name}.schema.json")], rows) == []
        return
    schema = shipped.get((game, f"{path.stem}.schema.json"))
    assert schema is not None, f"no schema for {path}"
    assert problems(schema, yaml.safe_load(path.read_text())) == []


@pytest.mark.parametrize("path", sorted((REPO / "examples").glob("*.yaml")), ids=lambda p: p.name)
def test_example_scoring_sheets_validate(shipped, path: Path):
    data = yaml.safe_load(path.read_text())
    assert problems(shipped[(data["game"], "sheet.schema.json")], data) == []


def test_modelines_point_at_written_schemas(shipped):
    """The `# yaml-language-server: $schema=...` line of a file names its own schema."""
    for path in content_files(REPO) + content_files(FRUIT):
        if path.suffix != ".yaml" or not (found := MODELINE.search(path.read_text())):
            continue
        target = Path(found.group(1))
        assert target.parts[:4] == ("..", "..", "output", "schema"), path
        assert (target.parts[4], target.parts[5]) in shipped, f"{path}: {target}"
        assert target.parts[4] == path.parent.name and target.name == f"{path.stem}.schema.json", path


def test_pnp_new_files_validate(demo: Project, demo_schemas):
    assert ("demo", "game.schema.json") in demo_schemas
    for name, schema in demo_schemas.items():  # game.yaml (cards.yaml has no declared schema)
        data = yaml.safe_load((demo.content_dir / f"demo/{name[1].split('.')[0]}.yaml").read_text())
        assert problems(schema, data) == []


@pytest.mark.parametrize("game, file, old, new", [
    ("cave", "game", "components:", "componets:"),
    ("dietrick-taking", "game", "size: poker", "size: [poker]"),
    ("tasty-humans", "game", "rotate: never", "rotate: sometimes"),
    ("cave", "events", "back_label:", "back_lable:"),
    ("cave", "tiles", "players:", "playerz:"),
])
def test_a_typo_in_a_shipped_file_is_caught(shipped, game, file, old, new):
    text = (REPO / "content" / game / f"{file}.yaml").read_text()
    assert old in text
    assert problems(shipped[(game, f"{file}.schema.json")], yaml.safe_load(text.replace(old, new, 1)))


def test_a_typo_in_a_declared_data_file_or_sheet_is_caught(shipped):
    fruits = yaml.safe_load((FRUIT / "content/fruit-stand/fruits.yaml").read_text())
    fruits["fruits"][0]["colour"] = "red"
    assert problems(shipped[("fruit-stand", "fruits.schema.json")], fruits)
    row = {"id": "pie", "title": "Pie", "needs": ["apple", "kiwi"], "points": 4}
    assert problems(shipped[("fruit-stand", "orders.csv.schema.json")], [row] * 6) == [
        f"[{i}, 'needs', 1]: 'kiwi' is not one of ['apple', 'pear', 'plum', 'lemon']" for i in range(6)]
    editions = yaml.safe_load((FRUIT / "content/fruit-stand/editions.yaml").read_text())
    editions["family"]["extends"] = "standart"
    assert problems(shipped[("fruit-stand", "editions.schema.json")], editions)


def test_a_typo_in_a_new_game_is_caught(demo: Project, demo_schemas):
    game = yaml.safe_load((demo.content_dir / "demo/game.yaml").read_text())
    game["components"][0]["back_per_itme"] = True
    game["options"] = {"players": {"type": "int", "maximum": 4}}
    assert len(problems(demo_schemas[("demo", "game.schema.json")], game)) == 2


def test_content_with_errors_still_gets_its_schemas(fruit: Path):
    """A designer writes the schemas to fix a broken file in the editor: `pnp schema` writes
    them all the same; the ids a `ref` field may take are listed only once the game loads."""
    from typer.testing import CliRunner

    from pnp.cli import app

    orders = fruit / "content/fruit-stand/orders.csv"
    orders.write_text(orders.read_text().replace(",apple;apple;apple,4,", ",apple;apple;apple,lots,", 1))
    assert CliRunner().invoke(app, ["validate"]).exit_code == 2
    result = CliRunner().invoke(app, ["schema"])
    assert result.exit_code == 0, result.output
    schema = json.loads((fruit / "output/schema/fruit-stand/orders.csv.schema.json").read_text())
    assert schema["items"]["properties"]["points"] == {"maximum": 12.0, "minimum": 1.0, "type": "integer"}
    assert "enum" not in schema["items"]["properties"]["needs"]["items"]
    orders.write_text(orders.read_text().replace(",lots,", ",4,"))
    assert CliRunner().invoke(app, ["schema"]).exit_code == 0
    schema = json.loads((fruit / "output/schema/fruit-stand/orders.csv.schema.json").read_text())
    assert schema["items"]["properties"]["needs"]["items"]["enum"] == ["apple", "pear", "plum", "lemon"]
