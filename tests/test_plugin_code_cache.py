"""A project plugin's compiled code kept between runs (pnp/load/plugins.py `_compiled`, in
pnp's per-user bytecode cache, pnp/bytecode.py): the code that runs is always the source's,
a bad entry is compiled again, nothing lands in the project, and trust comes first.

"A fresh run" here drops the plugin's modules from sys.modules, so the next load goes
through the loader again as a new `pnp` process would; `compiled` counts the loader's
compiles, so a load that compiled nothing took its code from the cache.
"""

from __future__ import annotations

import io
import marshal
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Iterator

import pytest
from jinja2.bccache import bc_magic

from pnp.bytecode import bytecode_cache
from pnp.errors import ContentError, PnpError
from pnp.load import plugins
from pnp.load.plugins import plugin_frame, plugin_module

REPO = Path(__file__).resolve().parent.parent
WHERE = ContentError(None, None, None, "")
PLUGIN = """from pnp.api import GamePlugin
VALUE = {value}
def fail():
    raise ValueError("from the plugin")
PLUGIN = GamePlugin()
"""
FAIL_LINE = 4  # the line of `raise` above


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """pnp's bytecode cache in a temporary folder of this test's, every plugin trusted;
    yields the folder Jinja makes there."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.setenv("PNP_TRUST", "1")
    bytecode_cache.cache_clear()
    yield temp / f"_jinja2-cache-{os.getuid()}"
    bytecode_cache.cache_clear()
    forget(tmp_path)


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files the plugin loader compiles, in order."""
    done: list[str] = []
    compile_source = plugins._SourceOnly.source_to_code

    def counted(self, data, path, **kwargs):
        done.append(path)
        return compile_source(self, data, path, **kwargs)

    monkeypatch.setattr(plugins._SourceOnly, "source_to_code", counted)
    return done


def project(root: Path, value: object = 1) -> Path:
    (root / "plugins").mkdir(parents=True, exist_ok=True)
    (root / "plugins/game.py").write_text(PLUGIN.format(value=value))
    return root


def load(root: Path, name: str = "plugins/game.py") -> ModuleType:
    return plugin_module(name, root, WHERE)[0]


def forget(folder: Path) -> None:
    """Drop the modules of the plugins under `folder`, as a new process starts without them."""
    for name, module in list(sys.modules.items()):
        if name.startswith(plugins._PREFIX) and Path(getattr(module, "__file__", None) or "/").is_relative_to(folder):
            del sys.modules[name]


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob(plugins._CODE_FILES % "*"))


def test_a_new_run_takes_the_code_from_the_cache_and_writes_nothing_into_the_project(tmp_path, cache, compiled):
    root = project(tmp_path / "p")
    assert load(root).VALUE == 1 and compiled == [str(root / "plugins/game.py")]
    [entry] = entries(cache)
    forget(tmp_path)
    assert load(root).VALUE == 1 and len(compiled) == 1  # from the cache
    assert entries(cache) == [entry]
    assert not [p for p in root.rglob("*") if p.name == "__pycache__" or p.suffix == ".pyc"]


def test_an_edited_plugin_runs_the_edited_code(tmp_path, cache, compiled):
    root = project(tmp_path / "p")
    assert load(root).VALUE == 1
    project(root, value=22)  # `pnp watch`: loaded again in the same process
    assert load(root).VALUE == 22 and len(compiled) == 2
    forget(tmp_path)
    assert load(root).VALUE == 22 and len(compiled) == 2  # the entry is the edited code's
    project(root, value=3)
    forget(tmp_path)
    assert load(root).VALUE == 3 and len(compiled) == 3


def test_an_edited_module_of_a_package_runs_the_edited_code(tmp_path, cache, compiled):
    package = tmp_path / "p/plugins/game"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from pnp.api import GamePlugin\nfrom .rules import VALUE\nPLUGIN = GamePlugin()\n")
    (package / "rules.py").write_text("VALUE = 1\n")
    assert load(tmp_path / "p", "plugins/game").VALUE == 1 and len(compiled) == 2
    (package / "rules.py").write_text("VALUE = 22\n")
    assert load(tmp_path / "p", "plugins/game").VALUE == 22
    assert compiled[2:] == [str(package / "rules.py")]  # __init__.py, unchanged and run again, from the cache
    forget(tmp_path)
    assert load(tmp_path / "p", "plugins/game").VALUE == 22 and len(compiled) == 3
    assert sorted(p.name for p in package.rglob("*")) == ["__init__.py", "rules.py"]  # no __pycache__


def test_two_projects_plugins_at_the_same_path_never_share_code(tmp_path, cache, compiled):
    one, two = project(tmp_path / "one", 1), project(tmp_path / "two", 2)
    assert (load(one).VALUE, load(two).VALUE) == (1, 2)
    forget(tmp_path)
    assert (load(one).VALUE, load(two).VALUE) == (1, 2) and len(compiled) == 2
    assert len(entries(cache)) == 2


def test_the_same_source_at_two_paths_names_its_own_file(tmp_path, cache, compiled):
    """A plugin's error names the plugin's file and line (`plugin_frame`), after a cache hit too."""
    roots = [project(tmp_path / "one"), project(tmp_path / "two")]
    for run in ("compiled", "from the cache", "entries swapped"):
        if run == "entries swapped":  # each path's entry holds the other path's code of the same source
            one, two = entries(cache)
            swapped = two.read_bytes()
            two.write_bytes(one.read_bytes())
            one.write_bytes(swapped)
        forget(tmp_path)
        for root in roots:
            with pytest.raises(ValueError) as raised:
                load(root).fail()
            assert plugin_frame(raised.value) == ("plugins/game.py", str(root / "plugins/game.py"), FAIL_LINE)
        assert len(compiled) == {"compiled": 2, "from the cache": 2, "entries swapped": 4}[run]


def test_an_entry_made_from_other_source_is_not_run(tmp_path, cache, compiled):
    """The entry for this path, holding another source's code with that source's checksum:
    the file's source is compiled."""
    root = project(tmp_path / "p", "'other'")
    load(root)
    [entry] = entries(cache)
    other = entry.read_bytes()
    project(root, 1)
    forget(tmp_path)
    load(root)
    entry.write_bytes(other)
    forget(tmp_path)
    assert load(root).VALUE == 1 and len(compiled) == 3
    forget(tmp_path)
    assert load(root).VALUE == 1 and len(compiled) == 3  # and stored again


def checksum_end(entry: bytes) -> int:
    """Where an entry's pickled checksum ends (jinja2.bccache.Bucket.write_bytecode)."""
    f = io.BytesIO(entry)
    f.read(len(bc_magic))
    pickle.load(f)
    return f.tell()


CORRUPT = {
    "empty": lambda entry: b"",
    "not an entry": lambda entry: b"\x00garbage" * 40,
    "another Python's": lambda entry: b"j2" + pickle.dumps(5, 2) + pickle.dumps((3 << 24) | 10, 2) + entry[len(bc_magic):],
    "checksum unreadable": lambda entry: bc_magic + b"\x80\x02\xff\xfe" + entry[checksum_end(entry):],
    "code cut short": lambda entry: entry[: len(entry) - 20],
    "code not code": lambda entry: entry[: checksum_end(entry)] + marshal.dumps(("VALUE", 666)),
    "marshalled bytes not code": lambda entry: entry[: checksum_end(entry)] + marshal.dumps(marshal.dumps(666)),
    "marshalled bytes garbled": lambda entry: entry[: checksum_end(entry)] + marshal.dumps(b"\xe3garbled"),
}


@pytest.mark.parametrize("damage", list(CORRUPT))
def test_a_corrupt_entry_is_compiled_again(tmp_path, cache, compiled, damage):
    root = project(tmp_path / "p")
    load(root)
    [entry] = entries(cache)
    entry.write_bytes(CORRUPT[damage](entry.read_bytes()))
    forget(tmp_path)
    assert load(root).VALUE == 1 and len(compiled) == 2
    forget(tmp_path)
    assert load(root).VALUE == 1 and len(compiled) == 2  # stored again, whole


def unusable_folder(cache: Path) -> None:
    cache.write_text("a file where Jinja's folder would be: Jinja finds it unsafe")


def folder_gone(cache: Path) -> None:
    assert bytecode_cache(plugins._CODE_FILES) is not None
    cache.rmdir()  # after the cache was made: nothing to read, nowhere to write


@pytest.mark.parametrize("spoil", [unusable_folder, folder_gone])
def test_a_cache_that_cannot_be_used_means_compiling_every_time(tmp_path, cache, compiled, spoil):
    spoil(cache)
    root = project(tmp_path / "p")
    for run in range(2):
        forget(tmp_path)
        assert load(root).VALUE == 1
    assert len(compiled) == 2 and not cache.is_dir()


def test_a_cached_plugin_still_needs_trust(tmp_path, cache, monkeypatch):
    marker = tmp_path / "ran"
    root = project(tmp_path / "p")
    (root / "plugins/game.py").write_text(f"import pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\n" + PLUGIN.format(value=1))
    load(root)
    assert marker.exists() and entries(cache)  # trusted for that run: compiled and kept
    marker.unlink()
    monkeypatch.delenv("PNP_TRUST")
    forget(tmp_path)
    with pytest.raises(PnpError, match="is not trusted"):
        load(root)
    assert not marker.exists()


def test_a_build_is_byte_identical_with_a_warm_cache(tmp_path):
    """Two `pnp build`s, each a new process: the first compiles (an empty temporary
    folder), the second takes every plugin module from the entries the first stored."""
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp"), "PYTHONPATH": str(REPO)}
    (tmp_path / "tmp").mkdir()
    code = "import sys; from pnp.cli import main; sys.argv = ['pnp'] + sys.argv[1:]; main()"
    stored: dict[Path, tuple[int, int]] = {}
    for run in ("cold", "warm"):
        subprocess.run([sys.executable, "-c", code, "build", "-q", "-f", "svg,pdf", "--out", str(tmp_path / run), "dietrick-taking"],
                       cwd=REPO, env=env, check=True)
        found = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in entries(tmp_path / "tmp" / f"_jinja2-cache-{os.getuid()}")}
        assert found and (run == "cold" or found == stored)  # warm: nothing compiled, nothing stored again
        stored = found

    def outputs(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
                if p.is_file() and p.name not in (".pnp-cache.json", ".pnp-build.json")}  # the build cache's own records

    cold, warm = outputs(tmp_path / "cold"), outputs(tmp_path / "warm")
    assert any(name.endswith(".pdf") for name in cold) and cold == warm


def test_an_entry_of_another_bytecode_version_is_not_run(tmp_path, cache, compiled, monkeypatch):
    root = project(tmp_path / "p")
    load(root)
    monkeypatch.setattr("importlib.util.MAGIC_NUMBER", b"\x00\x00\r\n")  # a Python of the same minor version, other bytecode
    forget(tmp_path)
    assert load(root).VALUE == 1 and len(compiled) == 2


def test_code_compiled_optimised_is_kept_apart(tmp_path):
    """`python -O` compiles `__debug__` as False and drops asserts: an entry compiled
    without it is not taken, nor the other way round (each a new process, one cache)."""
    root = project(tmp_path / "p", "__debug__")
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp"), "PYTHONPATH": str(REPO), "PNP_TRUST": "1"}
    code = ("import sys; from pathlib import Path; from pnp.errors import ContentError; from pnp.load.plugins import plugin_module; "
            "print(plugin_module('plugins/game.py', Path(sys.argv[1]), ContentError(None, None, None, ''))[0].VALUE)")
    seen = [subprocess.run([sys.executable, *flags, "-c", code, str(root)], env=env, check=True, capture_output=True, text=True).stdout.strip()
            for flags in ([], ["-O"], [], ["-O"])]
    assert seen == ["True", "False", "True", "False"]
