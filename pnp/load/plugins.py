"""Finding a game's plugin: `plugin:` in game.yaml names

- a project file or folder, relative to the project: `plugins/mygame.py`, `plugins/mygame`
  (a package with __init__.py): Python that travels with the game;
- an installed package's entry point in the group `pnp.games` (`plugin: mygame` where a
  package declares `[project.entry-points."pnp.games"] mygame = "pkg.module"`).

The four games of this repository are project plugins (`plugins/<game>/`), shipped in the
wheel next to their content. A project plugin is imported once under one module name per
file (see `_from_file`): tests reach a game's modules through `plugin_submodule`, so they
and the loader share the same classes.

The module must define `PLUGIN = GamePlugin(...)`.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import re
import sys
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any, Callable

from pydantic import BaseModel

from ..bytecode import kept_code
from ..errors import ContentError, PluginError, PnpError, did_you_mean
from ..plaindata import HelperStopped
from ..safetext import clip
from . import project_files, trust
from .plugin import GamePlugin

ENTRY_POINT_GROUP = "pnp.games"
_MODULE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# top-level module name of every plugin imported -> the name game.yaml gave it, so that an
# exception raised in a plugin's code is reported as that plugin's (see `plugin_frame`)
_LOADED: dict[str, str] = {}


def is_path(name: str) -> bool:
    return "/" in name or "\\" in name or name.endswith(".py")


def _fail(where: ContentError, message: str) -> PnpError:
    return PnpError(ContentError(where.path, where.line, where.column, message))


class _SourceOnly(importlib.machinery.SourceFileLoader):
    """Runs a project plugin's module from its source: a `__pycache__` that came with the
    project never runs (trust covers the files a user can read, pnp/load/trust.py), and
    none is written into the project. The code compiled from it is kept outside the
    project, in pnp's per-user cache (`_compiled`)."""

    def get_code(self, fullname: str) -> Any:
        path = self.get_filename(fullname)
        return _compiled(self.get_data(path), path, self.source_to_code)


_CODE_FILES = "__pnp_python_%s.cache"  # beside the templates' compiled code (pnp/render/faces.py), named apart


def _compiled(source: bytes, path: str, compile_source: Callable[[bytes, str], Any]) -> CodeType:
    """The code of the module `path` whose source is `source` (`bytecode.kept_code`)."""
    return kept_code(_CODE_FILES, source, path, compile_source)


class _ProjectPluginFinder(importlib.abc.MetaPathFinder):
    """Finds the modules of a project plugin package with `_SourceOnly`."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if not fullname.startswith(_PREFIX) or "." not in fullname:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and isinstance(spec.loader, importlib.machinery.SourcelessFileLoader):
            # compiled code with no source (`__pycache__/x.pyc` is importable as `.__pycache__.x`):
            # trust covers no bytecode (pnp/load/trust.py), so none runs
            raise ImportError(f"{spec.origin}: pnp runs a plugin's Python source, never compiled .pyc files", name=fullname)
        if spec is None or type(spec.loader) is not importlib.machinery.SourceFileLoader or spec.origin is None:
            return spec
        return importlib.util.spec_from_file_location(fullname, spec.origin, loader=_SourceOnly(fullname, spec.origin),
                                                      submodule_search_locations=spec.submodule_search_locations)


_PREFIX = "pnp_project_plugin_"


def _source_only_imports() -> None:
    if not any(isinstance(f, _ProjectPluginFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _ProjectPluginFinder())


def _from_file(root: Path, name: str, where: ContentError) -> ModuleType:
    misspelt = project_files.spelling(root, root / name, where, len(Path(name).parts))  # a Mac finds `plugins/Tasty.py`, Linux does not
    if misspelt is not None:
        raise PnpError(misspelt)
    path = Path(os.path.realpath(root / name))  # not resolve(): it raises on a loop of links (Python < 3.13)
    init = path / "__init__.py" if path.is_dir() else path
    if not init.is_file():
        raise _fail(where, f"plugin file not found: {name} (relative to the project folder {root}): expected a .py file or a folder "
                           f"with __init__.py{near_plugin(root, name)}")
    trust.check(root, name, path, where)  # the project's own Python runs only when trusted
    _source_only_imports()
    # one module name per file, so two projects' plugins never replace each other
    module_name = _PREFIX + re.sub(r"\W", "_", str(init.with_suffix("")))
    stamp = _stamp(path) if path.is_dir() else _stamp(init)  # `pnp watch` loads an edited plugin again
    loaded = sys.modules.get(module_name)
    if loaded is not None and getattr(loaded, "__pnp_stamp__", None) == stamp:
        return loaded
    for submodule in [m for m in sys.modules if m.startswith(module_name + ".")]:
        del sys.modules[submodule]  # a package's modules are imported again with it, the edited one too
    spec = importlib.util.spec_from_file_location(module_name, init, loader=_SourceOnly(module_name, str(init)),
                                                  submodule_search_locations=[str(path)] if path.is_dir() else None)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__pnp_stamp__ = stamp  # type: ignore[attr-defined]
    sys.modules[module_name] = module
    _LOADED[module_name] = name
    try:
        spec.loader.exec_module(module)
    except KeyboardInterrupt:
        del sys.modules[module_name]
        raise
    except BaseException as exc:  # the designer's code (`sys.exit()` too: it must not end pnp): one line naming the file
        del sys.modules[module_name]
        raise _fail(_in_plugin(exc, where), f"plugin {name} failed to load: {exception_text(exc)}{_field_meant(exc)}") from None
    return module


def _field_meant(exc: BaseException) -> str:
    """`GamePlugin(scorer=...)`: the fields it has, and the one meant (the dataclass's own
    TypeError names the keyword alone)."""
    found = re.search(r"GamePlugin\.__init__\(\) got an unexpected keyword argument '(\w+)'", str(exc))
    if not isinstance(exc, TypeError) or found is None:
        return ""
    fields = list(GamePlugin.__dataclass_fields__)
    return f": expected one of {', '.join(fields)}{did_you_mean(found[1], fields)}"


def near_plugin(root: Path, name: str) -> str:
    """` (did you mean 'plugins/hexlands.py'?)`: the file or folder beside a missing plugin spelt nearest it."""
    parent, _, leaf = name.rstrip("/").rpartition("/")
    try:
        names = sorted(p.name for p in (root / parent).iterdir() if not p.name.startswith((".", "__")) and p.name != leaf)  # not itself: a broken link
    except OSError:  # no such folder: nothing to offer
        return ""
    near = did_you_mean(leaf, names)
    return near.replace(" (did you mean '", f" (did you mean '{parent}/" if parent else " (did you mean '", 1)


def _stamp(path: Path) -> tuple[tuple[str, int, int], ...]:
    """Size and modification time of a plugin file, or of every Python file of a package."""
    files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return tuple((str(f), (st := f.stat()).st_mtime_ns, st.st_size) for f in files)


def plugin_module(name: str, root: Path, where: ContentError) -> tuple[ModuleType, str]:
    """The module `plugin:` names and the attribute holding its GamePlugin (see the
    module docstring for the lookup order)."""
    if is_path(name):
        return _from_file(root, name, where), "PLUGIN"
    if not _MODULE.match(name):
        raise _fail(where, f"plugin {name!r}: expected a module name (letters, digits, '_') or a path such as plugins/{name}.py")
    from importlib import metadata  # only for a plugin installed as a package: reading the metadata has a cost

    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP, name=name):
        _LOADED[entry.module.partition(".")[0]] = name
        try:
            return importlib.import_module(entry.module), entry.attr or "PLUGIN"
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # as a project file's plugin: its code's error, never pnp's end
            raise _fail(_in_plugin(exc, where), f"plugin {name!r} (entry point {entry.value}) failed to load: {exception_text(exc)}") from None
    raise _fail(where, f"unknown plugin {name!r}: no project file plugins/{name}.py named and no entry point {name!r} in group {ENTRY_POINT_GROUP!r}")


def plugin_frame(exc: BaseException) -> tuple[str, str, int] | None:
    """Where a plugin's own code raised `exc` (or the exception it was raised from): the
    plugin's name, the file and the line of the innermost frame in that plugin; None when
    no plugin's code is on the way."""
    seen: set[int] = set()
    error: BaseException | None = exc
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        found = None
        tb = error.__traceback__
        while tb is not None:
            module = str(tb.tb_frame.f_globals.get("__name__", "")).partition(".")[0]
            if module in _LOADED:
                found = (_LOADED[module], tb.tb_frame.f_code.co_filename, tb.tb_lineno)
            tb = tb.tb_next
        if found:
            return found
        error = error.__cause__ or error.__context__
    return None


class PluginExit(Exception):
    """A plugin's code called `sys.exit()` (raised SystemExit): that plugin's error like any
    other exception of its code (`plugin_failure`), never pnp's end, whose exit code would
    mean something else (docs/writing-games.md "Exit codes"). Raised from the SystemExit, which holds the
    plugin's frames."""


def template_frame(exc: BaseException) -> tuple[str, int] | None:
    """The template file and line innermost on `exc`'s way (as Jinja ran it, or as its
    rewritten traceback shows it); None when no template ran."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        names = tb.tb_frame.f_globals
        template = names.get("__jinja_template__")
        if template is not None and template.filename:
            found = (template.filename, template.get_corresponding_lineno(tb.tb_lineno))
        elif "__jinja_exception__" in names:  # a frame of jinja2.debug's rewritten traceback
            found = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    return found


def plugin_exit(exc: BaseException) -> PluginExit | None:
    """`exc` raised in a plugin's code or a template's (which calls only what pnp or the
    plugin gave it) as a PluginExit, to raise `from exc`; None when neither raised it: pnp's
    own exit."""
    return PluginExit(exception_text(exc)) if plugin_frame(exc) is not None or template_frame(exc) is not None else None


def plugin_failure(exc: BaseException) -> ContentError | None:
    """An exception raised in a plugin's own code as that plugin's located error (its file
    and line, the exception's kind and message; a SyntaxError of a module the plugin
    imports as it runs at the line it names, as at load time); None when no plugin's code
    is on the way."""
    if (found := plugin_frame(exc)) is None:
        return None
    name, path, line = found
    where = _in_plugin(exc, ContentError(path, line, None, ""))
    return ContentError(where.path, where.line, where.column, f"plugin {name} failed: {exception_text(exc)} (set PNP_DEBUG=1 for a traceback)")


def stop_failure(exc: BaseException) -> ContentError | str | None:
    """A SystemExit or another BaseException that is no Exception (GeneratorExit, a class of
    the plugin's own), raised in a plugin's code or a template's, as that plugin's or that
    template's located error (`plugin_failure`); None when neither raised it (pnp's own exit,
    or a KeyboardInterrupt, which stops pnp wherever it is raised)."""
    if isinstance(exc, KeyboardInterrupt):
        return None
    if isinstance(exc, Exception):
        return plugin_failure(exc)
    if (located := plugin_failure(exc)) is not None or (found := template_frame(exc)) is None:
        return located
    message = f"failed: {exception_text(exc)} (set PNP_DEBUG=1 for a traceback)"
    if found[0].startswith("<"):  # an expression of the content (`copies:`, `items:`): no file of its own to name
        return f"a template expression {message}"
    return ContentError(found[0], found[1], None, f"the template {message}")


def _kind(value: Any) -> str:
    """What a plugin handed back, for a message: 'None', '2', 'a dict', 'the text 'x''."""
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)
    if isinstance(value, str):
        return f"the text {clip(repr(value), 60)}"
    if isinstance(value, type):
        return f"the class {value.__name__}"
    kind = type(value).__name__
    return f"{'an' if kind[:1].lower() in 'aeiou' else 'a'} {kind}"


def hook_error(hook: Any, message: str) -> PluginError:
    """`message` about a plugin's hook (a function, or a class), located at its `def` or
    `class` line and naming the plugin it belongs to."""
    import inspect  # only for a broken plugin: not on every command's way

    target = getattr(hook, "__func__", hook)  # a bound method: its function
    try:
        target = inspect.unwrap(target)  # a decorated function (functools.cache): its own
    except ValueError:  # a loop of __wrapped__
        pass
    module = str(getattr(target, "__module__", "") or "")
    name = _LOADED.get(module.partition(".")[0], module)
    code = getattr(target, "__code__", None)

    try:
        path = inspect.getsourcefile(target) or (code.co_filename if code else None)
        line = code.co_firstlineno if code else inspect.getsourcelines(target)[1]
    except (TypeError, OSError):  # a built-in or a callable object: no place of its own to name
        return PluginError(f"plugin {name}: {message}")
    return PluginError(ContentError(path, line, None, f"plugin {name}: {message}"))


def call_hook(hook: Callable[..., Any], call: str, args: tuple[Any, ...], check: Callable[[Any], str | None], at: Any = None) -> Any:
    """What the plugin's hook returns when pnp calls it with `args` (as `call` shows it, e.g.
    "score(game, doc)"), once `check` (which says what was expected of a wrong value, None
    for a good one) accepts it. A hook pnp cannot call so (its parameters), or one returning
    what pnp cannot use, is that plugin's error at the hook's `def` line (or at `at`'s: a
    function or class of the plugin); an exception raised in the hook's own code goes on,
    to be located there (`plugin_failure`), its `sys.exit()` (or a BaseException of its own) as a PluginExit and a PnpError
    with no error to print as the plugin's error at its raise line."""
    at = hook if at is None else at
    try:
        value = hook(*args)
    except PnpError as exc:
        if exc.errors or (found := plugin_frame(exc)) is None:
            raise
        name, path, line = found  # `raise PnpError([])`: an error with nothing to print would be a silent exit 2
        raise PluginError(ContentError(path, line, None, f"plugin {name}: raised PnpError with no message: expected one "
                                       "ContentError or more (e.g. doc.error(path, message))")) from None
    except TypeError as exc:
        if exc.__traceback__ is None or exc.__traceback__.tb_next is not None:
            raise  # raised inside the hook: its own code's error
        if takes(hook, args):  # a wrapper's (e.g. functools.cache's), not the parameters' fault
            raise hook_error(at, f"{call} raised TypeError: {exc}") from None
        raise hook_error(at, f"{exc}: expected def {call}") from None  # the call itself: the hook's parameters
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # the plugin's `sys.exit()` or a BaseException of its own: its error, not pnp's end
        if isinstance(exc, Exception) or (error := plugin_exit(exc)) is None:
            raise
        raise error from exc
    if (expected := check(value)) is not None:
        raise hook_error(at, f"{call.partition('(')[0]} returned {_kind(value)}: expected {expected}")
    return value


def takes(hook: Callable[..., Any], args: tuple[Any, ...]) -> bool:
    """Whether the hook's parameters (those of the function a decorator wraps) take `args`."""
    import inspect  # for a broken plugin, or a hook of two forms (`sheet_schema`)

    try:
        inspect.signature(hook).bind(*args)
    except (TypeError, ValueError):  # they do not, or there is no signature to tell
        return False
    return True


def expect_sheet_text(value: Any) -> str | None:
    """`call_hook`'s check of `sheet_template`: YAML text of a mapping (what `pnp score` reads)."""
    import yaml

    if not isinstance(value, str):
        return "text (a str) of YAML"
    try:
        data = yaml.safe_load(value)
    except yaml.YAMLError as exc:
        return f"YAML text, but it does not read as YAML: {str(exc).splitlines()[0]}"
    return None if isinstance(data, dict) else "YAML text of a mapping (game:, players:, ...)"


def expect_mapping(value: Any) -> str | None:
    """`call_hook`'s check of a hook returning names and their values."""
    from collections.abc import Mapping

    return None if isinstance(value, Mapping) else "a dict"


def expect_content_errors(value: Any) -> str | None:
    """`call_hook`'s check of `check`: a list of located errors ([] when all is well)."""
    expected = "a list of pnp.api.ContentError (each made with doc.error(path, message); [] when all is well)"
    if not isinstance(value, (list, tuple)):
        return expected
    wrong = next((v for v in value if not isinstance(v, ContentError)), None)
    return None if wrong is None else f"{expected}; it holds {_kind(wrong)}"


def _json_problem(value: Any) -> str | None:
    """Why JSON cannot write `value` as pnp writes it (keys sorted), or None."""
    import json

    try:
        json.dumps(value, sort_keys=True)
    except (TypeError, ValueError) as exc:
        return str(exc)
    return None


def expect_json_schema(value: Any) -> str | None:
    """`call_hook`'s check of `sheet_schema`: a JSON Schema as plain data JSON can write."""
    if not isinstance(value, dict):
        return "a JSON Schema (a dict)"
    problem = _json_problem(value)  # as `pnp schema` writes it
    return None if problem is None else f"a JSON Schema of plain data JSON can write (dict, list, str, number, bool, None), but {problem}"


def expect_json_report(value: Any) -> str | None:
    """`call_hook`'s check of a report's `to_json`: a dict JSON can write (`--json`, the log),
    holding what pnp reads of it (docs/writing-games.md "Plugin reference"), so that no report the log's
    readers refuse is ever logged."""
    if not isinstance(value, dict):
        return "a dict (what pnp score --json prints and pnp log keeps)"
    problem = _json_problem(value)
    if problem is not None:
        return f"a dict of plain data JSON can write (dict, list, str, number, bool, None), but {problem}"
    return _report_shape(value)


def _report_shape(report: dict[str, Any]) -> str | None:
    """Why `pnp log` and its CSV could not read `report` (its `winners` and `players`), or None."""
    winners, players = report.get("winners"), report.get("players")
    if not isinstance(winners, list) or not all(isinstance(w, str) for w in winners):
        return f"`winners`, a list of player names, but it is {clip(repr(winners), 60)}"
    player = '{"name": text, "total": number or None} ("difference" where there is no total)'
    if not isinstance(players, list):
        return f"`players`, a list of {player}, but it is {clip(repr(players), 60)}"
    for i, p in enumerate(players):
        total = next((p[k] for k in ("total", "difference") if k in p), "missing") if isinstance(p, dict) else None
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not (total is None or isinstance(total, (int, float)) and not isinstance(total, bool)):
            return f"`players`, a list of {player}, but players[{i}] is {clip(repr(p), 80)}"
    return None


def _in_plugin(exc: BaseException, where: ContentError) -> ContentError:
    """Where a plugin that failed to load went wrong: the line a SyntaxError names (its
    column too), or the plugin's line that raised; `where` (its `plugin:` line) when neither."""
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        return ContentError(exc.filename, exc.lineno, exc.offset or None, "")
    found = plugin_frame(exc)
    return ContentError(found[1], found[2], None, "") if found else where


def exception_text(exc: BaseException) -> str:
    """The exception's kind and message; a SyntaxError's without the file and line it
    appends, which the location already gives."""
    if isinstance(exc, PluginExit):
        return str(exc)
    if isinstance(exc, HelperStopped) and exc.__cause__ is not None:  # the helper's own StopIteration
        exc = exc.__cause__
    if isinstance(exc, SystemExit):
        return f"sys.exit({exc.code!r}) (SystemExit): a plugin must not end pnp; raise PnpError for input it cannot use"
    message = exc.msg if isinstance(exc, SyntaxError) and exc.filename and exc.lineno else str(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__  # GeneratorExit(): no message


def plugin_submodule(name: str, root: Path, submodule: str) -> ModuleType | None:
    """Module `submodule` of a plugin package (e.g. its `simulation`), or None when the
    plugin is a single file or has no such module."""
    module, _ = plugin_module(name, root, ContentError(None, None, None, ""))
    if not hasattr(module, "__path__"):
        return None
    try:
        return importlib.import_module(f"{module.__name__}.{submodule}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{module.__name__}.{submodule}":
            raise
        return None


def load_plugin(name: str | None, root: Path, where: ContentError) -> GamePlugin:
    """The GamePlugin of a game (the empty plugin when it names none)."""
    if name is None:
        return GamePlugin()
    module, attr = plugin_module(name, root, where)
    plugin = getattr(module, attr, None)
    if not isinstance(plugin, GamePlugin):
        raise _fail(where, f"plugin {name!r}: expected the module to define {attr} = pnp.api.GamePlugin(...)")
    for stem, model in plugin.models.items():
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            at = ContentError(module.__file__, _assigned_at(module, attr, root), None, "")
            raise _fail(at if at.path else where, f"plugin {name}: models[{stem!r}] is {_kind(model)}: expected a pydantic model class "
                        "(a subclass of pnp.api.StrictModel) for the content file")
    return plugin


def _assigned_at(module: ModuleType, attr: str, root: Path) -> int | None:
    """The line of the module's last top-level `attr = ...` (e.g. `PLUGIN = GamePlugin(...)`),
    read through the project's door: None for a plugin installed outside the project."""
    import ast  # only for a broken plugin

    path = Path(module.__file__ or "")
    if not module.__file__ or project_files.outside(root, path) is not None:
        return None
    try:
        tree = ast.parse(project_files.read_bytes(root, path, what="plugin file"))
    except (OSError, SyntaxError, ValueError, PnpError):
        return None
    lines = [node.lineno for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
             and any(isinstance(t, ast.Name) and t.id == attr for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))]
    return lines[-1] if lines else None


def plugin_files(name: str | None, root: Path) -> list[Path]:
    """The Python files of a plugin, for the build cache's code stamp."""
    if name is None:
        return []
    module, _ = plugin_module(name, root, ContentError(None, None, None, ""))
    where = Path(module.__file__ or "")
    return sorted(where.parent.rglob("*.py")) if where.name == "__init__.py" else [where]
