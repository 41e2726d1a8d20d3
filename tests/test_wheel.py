"""pnp outside this checkout: the wheel, installed into a fresh virtual environment,
scores a copied example sheet, copies a shipped game with `pnp init --example`, and builds
it (also for Tabletop Simulator) in an empty folder.

The wheel is built once per session from a copy of the sources (so the checkout gets no
build/ folder) without network access; its dependencies are not reinstalled: the fresh
venv sees this test venv's site-packages through a .pth line (not processed as a site
dir, so this venv's editable pnp stays invisible)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from pathlib import Path

import jsonschema
import pytest

from conftest import REPO, docs_text

SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "docs", "pnp", "content", "templates", "examples", "plugins")


def run(*args, cwd: Path, **kw) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=240, env=env, **kw)
    assert done.returncode == 0, f"{args}: {done.stdout[-2000:]}{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("src")
    for name in SOURCES:
        (shutil.copytree if (REPO / name).is_dir() else shutil.copyfile)(REPO / name, src / name)
    for junk in src.rglob("__pycache__"):
        shutil.rmtree(junk)
    dist = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", dist, src, cwd=src)
    (built,) = dist.glob("pnp_kit-*.whl")
    return built


@pytest.fixture(scope="session")
def venv(wheel: Path, tmp_path_factory) -> Path:
    """A fresh venv holding only the installed wheel (dependencies seen from this venv)."""
    env = tmp_path_factory.mktemp("venv")
    run(sys.executable, "-m", "venv", "--without-pip", env, cwd=env)
    python = env / "bin/python"
    purelib = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=env).stdout.strip()
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(purelib, "deps-from-test-venv.pth").write_text("".join(f"{p}\n" for p in sorted(ours)))
    # --ignore-installed: the test venv may hold a (non-editable) pnp-kit that the .pth makes visible
    run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "--ignore-installed", "-q", wheel, cwd=env)
    return env


def test_the_wheel_holds_the_games(wheel: Path):
    names = zipfile.ZipFile(wheel).namelist()
    for game in ("tasty-humans", "cave", "dietrick-taking", "human-harvest"):
        assert f"pnp/shipped/content/{game}/game.yaml" in names
        assert any(n.startswith(f"pnp/shipped/templates/{game}/") for n in names)
    assert "pnp/shipped/examples/tasty-humans-2p.yaml" in names
    assert "pnp/templates/preview.html.j2" in names
    assert any(n.endswith(".dist-info/entry_points.txt") for n in names)


def test_the_wheel_carries_the_licence(wheel: Path):
    archive = zipfile.ZipFile(wheel)
    (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
    head = archive.read(metadata).decode().split("\n\n", 1)[0].splitlines()
    assert "License-Expression: MIT" in head and "License-File: LICENSE" in head
    (licence,) = [n for n in archive.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
    assert archive.read(licence).decode().startswith("MIT License")


def test_the_readme_installs_only_what_can_be_installed():
    """No `pip install pnp-kit` while pnp is not on an index; the wheel it names is the one built."""
    readme = (REPO / "README.md").read_text()
    assert "\npip install pnp-kit" not in docs_text()
    version = next(line.split('"')[1] for line in (REPO / "pyproject.toml").read_text().splitlines() if line.startswith("version"))
    assert f"pip install dist/pnp_kit-{version}-py3-none-any.whl" in readme


def test_what_a_checkout_makes_is_not_shipped(tmp_path: Path):
    """A built example's output/ (git-ignored), dot-files (.DS_Store, .mypy_cache/) and the
    like stay out of the wheel and the sdist (setup.py's LEFT_OUT), docs/ included, and the
    sdist has no tests it cannot run; pnp's own package pnp/build/ is kept, and a module an
    earlier build left in build/lib/ is not shipped. A wheel built from the sdist (as
    `python -m build` does) holds what the checkout's wheel holds. The sdist
    holds every file the README links to (the guides in docs/, their pictures)."""
    src = tmp_path / "src"
    src.mkdir()
    for name in SOURCES:
        (shutil.copytree if (REPO / name).is_dir() else shutil.copyfile)(REPO / name, src / name)
    made = ["examples/projects/fruit-stand/output/fruit-stand/pdf/cards.pdf", "plugins/cave/build/lib/x.py",
            "examples/dist/x.whl", "content/x.egg-info/PKG-INFO", "templates/cave/__pycache__/x.pyc", "tests/test_x.py",
            "examples/projects/fruit-stand/.pnp/log.sqlite-wal", "content/cave/.DS_Store", "plugins/cave/.mypy_cache/x.json",
            "docs/output/x.png", "docs/__pycache__/x.pyc", "templates/cave/.#event.svg.j2", "templates/cave/event.svg.j2~"]
    for name in (*made, "build/lib/pnp/removed.py"):
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text("made")
    dist = tmp_path / "dist"
    build = "from setuptools import build_meta; build_meta.build_{}({!r})"
    built = [run(sys.executable, "-c", build.format(kind, str(dist)), cwd=src) for kind in ("wheel", "sdist")]
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    in_wheel = zipfile.ZipFile(wheel).namelist()
    in_sdist = [n.split("/", 1)[1] for n in tarfile.open(sdist).getnames() if "/" in n]
    for names, shipped in ((in_wheel, "pnp/shipped/"), (in_sdist, "")):
        assert f"{shipped}examples/projects/fruit-stand/RULES.md" in names and "pnp/build/output.py" in names
        assert [m for m in made if f"{shipped}{m}" in names] == []
    assert "pnp/removed.py" not in in_wheel
    assert not [n for n in in_sdist if n.startswith("tests/")]
    tarfile.open(sdist).extractall(tmp_path / "unpacked", filter="data")
    (unpacked,) = (tmp_path / "unpacked").iterdir()
    built.append(run(sys.executable, "-c", build.format("wheel", str(tmp_path / "again")), cwd=unpacked))
    (again,) = (tmp_path / "again").glob("*.whl")
    assert sorted(zipfile.ZipFile(again).namelist()) == sorted(in_wheel)
    linked = {(page.parent / target).resolve().relative_to(REPO).as_posix()
              for page in (REPO / "README.md", *sorted((REPO / "docs").glob("*.md")))
              for target in re.findall(r"\]\(([^)#\s]+)", page.read_text(encoding="utf-8")) if "://" not in target}
    assert "docs/printing.md" in linked and sorted(linked - set(in_sdist)) == []


@pytest.mark.parametrize("name, broken", [
    ("jinja2", "3.1.4"),  # refuses templates/tasty-humans/reference-card.svg.j2:133
    ("pydantic", "2.10.3"),  # `pnp schema`: KeyError 'pnp__load__spec__FieldSpec-Input__1'
    ("pydantic", "2.11.3"),  # the same
    ("typst", "0.15.0"),  # no `pdf_tags`
    ("typer", "0.12.5"),  # fails with click 8.5 (`pnp --version`: "Secondary flag ...")
])
def test_no_floor_admits_a_release_pnp_fails_with(name: str, broken: str):
    """pip keeps an installed release that meets a floor: each floor is one pnp runs with."""
    from packaging.requirements import Requirement

    dependencies = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    (wanted,) = [r for r in map(Requirement, dependencies) if r.name == name]
    assert broken not in wanted.specifier


def test_an_installed_pnp_works_in_an_empty_folder(venv: Path, tmp_path: Path):
    pnp = venv / "bin/pnp"
    here = tmp_path / "empty"
    here.mkdir()
    where = run(venv / "bin/python", "-c", "import pnp.tools.shipped as s; print(s.__file__); print(s.shipped_root())", cwd=here).stdout.split()
    assert all(w.startswith(str(venv)) for w in where), where  # the wheel's pnp, not the checkout's

    shutil.copyfile(REPO / "examples/tasty-humans-2p.yaml", here / "game.yaml")
    scored = run(pnp, "score", "game.yaml", cwd=here)
    assert "Ana wins" in scored.stdout

    made = run(pnp, "init", "--example", "dietrick-taking", "dt", cwd=here)
    assert "created dt/content/dietrick-taking/game.yaml" in made.stdout
    project = here / "dt"
    run(pnp, "build", "-q", cwd=project)
    assert sorted(p.name for p in (project / "output/dietrick-taking/pdf").iterdir())
    run(pnp, "build", "-q", "--format", "tts", "--dpi", "40", cwd=project)
    saved = json.loads((project / "output/dietrick-taking/tts/dietrick-taking.json").read_text())
    jsonschema.validate(saved, json.loads((REPO / "tests/data/tts-saved-object.schema.json").read_text()))
    run(pnp, "score", "examples/dietrick-taking-3p.yaml", cwd=project)

    run(pnp, "init", "--example", "fruit-stand", "fs", cwd=here)  # the example project the wheel ships, whole
    run(pnp, "build", "-q", "--format", "pdf", cwd=here / "fs")
    assert "Winner: Ann" in run(pnp, "score", "sheets/example.yaml", cwd=here / "fs").stdout


def test_the_quick_start_needs_no_trust(venv: Path, tmp_path: Path):
    """`pip install . && pnp build` in the checkout: its plugins are byte-identical to the
    ones the wheel ships, so they run without `pnp trust` (pnp/load/trust.py); an edited one
    does not."""
    checkout = tmp_path / "checkout"
    for name in ("content", "templates", "plugins"):
        shutil.copytree(REPO / name, checkout / name, ignore=shutil.ignore_patterns("__pycache__"))
    assert "tasty-humans" in run(venv / "bin/pnp", "list", cwd=checkout).stdout
    plugin = checkout / "plugins/cave/__init__.py"
    plugin.write_text(plugin.read_text() + "\n")
    refused = subprocess.run([str(venv / "bin/pnp"), "list", "cave"], cwd=checkout, capture_output=True, text=True, timeout=240)
    assert refused.returncode == 2 and "plugin plugins/cave would run Python from" in refused.stderr
