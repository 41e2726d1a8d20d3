"""pnp's layers only look down: a module imports from its own part of pnp or from below.

The layers, bottom to top:
  shared   errors, units, safetext, sandbox, plaindata, limits, files, bytecode (importable by all)
  load     reading a project: YAML, data sheets, fonts, plugins, the shipped games
  config   build options, papers, sheet layouts, pnp.yaml (it reads pnp.yaml with load's
           YAML reader and checks it with load's models, so it sits right above load and
           below everything that takes options)
  plan -> render -> formats
  build | score | simulate   (side by side: none imports another)
  api      the public plugin API
  tools
  cli      (the console entry point)
Every import counts: module level, inside functions, and under `if TYPE_CHECKING:` too (a
type-only import from above still ties the lower layer to the upper one's names, and
becomes a cycle the day it is needed at run time). Game plugins import only pnp.api.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PNP = REPO / "pnp"

SHARED = ("errors", "units", "safetext", "sandbox", "plaindata", "limits", "files", "bytecode", "workers")
# Layer of each top-level part of pnp; parts with the same number sit side by side and may
# not import one another (only modules of the same part, or of a lower number).
LAYERS: dict[str, int] = {
    **{name: 0 for name in SHARED},
    "load": 1,
    "config": 2,
    "plan": 3,
    "render": 4,
    "formats": 5,
    "build": 6,
    "score": 6,
    "simulate": 6,
    "api": 7,
    "serve": 7,  # pnp serve: the scoring of `score`, the lab of `simulate`, beside the public API
    "tools": 8,
    "cli": 9,
    "__main__": 10,  # `python -m pnp`: runs the command line
}
OPEN = {0}  # the layer whose parts may import one another (the shared modules)


def module_name(path: Path, repo: Path) -> str:
    parts = list(path.relative_to(repo).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def part(module: str) -> str:
    """The layer part a module belongs to: `pnp.load.records` -> `load`, `pnp` -> `` ."""
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 else ""


def imports(path: Path, repo: Path = REPO) -> list[tuple[int, str]]:
    """Every module `path` imports, absolute, with its line (function bodies included)."""
    name = module_name(path, repo)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # `from pnp import sandbox` / `from . import labels` import modules, not names
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                known = sub.replace(".", "/")
                is_module = (repo / f"{known}.py").exists() or (repo / known).is_dir()
                found.append((node.lineno, sub if is_module else target))
    return list(dict.fromkeys(found))  # one entry per module a line imports


def layer_errors(repo: Path = REPO) -> list[str]:
    """One line per import from a layer not below the importing module: file:line: what."""
    errors = []
    for path in sorted((repo / "pnp").rglob("*.py")):
        source = module_name(path, repo)
        where = path.relative_to(repo)
        if part(source) == "":
            continue  # pnp/__init__.py: the version only
        if part(source) not in LAYERS:
            errors.append(f"{where}: pnp.{part(source)} has no layer in tests/test_layers.py")
            continue
        mine = LAYERS[part(source)]
        for line, target in imports(path, repo):
            if not (target == "pnp" or target.startswith("pnp.")):
                continue
            theirs = part(target)
            if theirs == "" or theirs == part(source):
                continue
            if theirs not in LAYERS:
                errors.append(f"{where}:{line}: imports {target}, which has no layer")
            elif LAYERS[theirs] > mine or LAYERS[theirs] == mine and mine not in OPEN:
                errors.append(f"{where}:{line}: {source} imports {target}, not below it")
    return errors


def plugin_errors(repo: Path = REPO) -> list[str]:
    """One line per import of pnp other than pnp.api in the shipped and example plugins."""
    errors = []
    for folder in ("plugins", "examples"):
        for path in sorted((repo / folder).rglob("*.py")):
            for line, target in imports(path, repo):
                if target.startswith("pnp.") and target != "pnp.api" or target == "pnp":
                    errors.append(f"{path.relative_to(repo)}:{line}: imports {target}, not pnp.api")
    return errors


def test_pnp_imports_only_look_down() -> None:
    errors = layer_errors()
    assert not errors, "imports from a layer not below:\n" + "\n".join(errors)


def test_plugins_import_only_the_public_api() -> None:
    errors = plugin_errors()
    assert not errors, "\n".join(errors)


def test_every_part_of_pnp_has_a_layer() -> None:
    parts = {part(module_name(path, REPO)) for path in PNP.rglob("*.py")} - {""}
    assert parts <= set(LAYERS)


@pytest.mark.parametrize(
    ("relative", "text", "expected"),
    [
        ("load/x.py", "def f():\n    from ..build import driver\n", "pnp/load/x.py:2: pnp.load.x imports pnp.build.driver"),
        ("formats/x.py", "from pnp.build.cache import write_atomic\n", "pnp/formats/x.py:1: pnp.formats.x imports pnp.build.cache"),
        ("score/x.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pnp.simulate import base\n", "pnp/score/x.py:3: pnp.score.x imports pnp.simulate.base"),
        ("errors2.py", "from . import load\n", "pnp/errors2.py: pnp.errors2 has no layer"),
        ("limits.py", "import pnp.load.records\n", "pnp/limits.py:1: pnp.limits imports pnp.load.records"),
    ],
)
def test_an_upward_import_is_named_with_its_file_and_line(
    tmp_path: Path, relative: str, text: str, expected: str
) -> None:
    """The checker itself: a fake pnp tree with one upward import, found at its line."""
    fake = tmp_path / "pnp"
    for name in ("load", "build", "formats", "score", "simulate"):
        (fake / name).mkdir(parents=True)
        (fake / name / "__init__.py").write_text("")
    for name in ("build/driver.py", "build/cache.py", "simulate/base.py", "load/records.py"):
        (fake / name).write_text("")
    (fake / relative).write_text(text)
    errors = layer_errors(tmp_path)
    assert len(errors) == 1 and errors[0].startswith(expected), errors


def test_a_plugin_importing_past_the_api_is_named(tmp_path: Path) -> None:
    (tmp_path / "pnp" / "load").mkdir(parents=True)
    (tmp_path / "pnp" / "api.py").write_text("")
    (tmp_path / "pnp" / "load" / "plugin.py").write_text("")
    (tmp_path / "plugins" / "game").mkdir(parents=True)
    (tmp_path / "plugins" / "game" / "__init__.py").write_text(
        "from pnp.api import GamePlugin\nfrom pnp import api\n\ndef f():\n    from pnp.load.plugin import GamePlugin\n")
    assert plugin_errors(tmp_path) == ["plugins/game/__init__.py:5: imports pnp.load.plugin, not pnp.api"]
