"""The server's one door to scoring: a sheet as data is written as the YAML text `pnp score`
reads, parsed within the scoring-sheet limits and handed to pnp's score dispatch, so the
page checks and scores with exactly the code of `pnp score`. Each problem comes back with
the words of the CLI's one-line error and the part of the sheet it concerns (found from
its line: the server wrote the text, so it knows what stands on every line).

Everything the server knows about scoring passes through this module, so that it can
move to a public plugin API in one place.
"""

from __future__ import annotations

import io
import os
import re
import sys
import traceback
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

import yaml

from ..errors import ContentError, PnpError
from ..load.plugins import call_hook, plugin_failure
from ..load.yamlio import SHEET, Located, parse_located
from .forms import uncited

if TYPE_CHECKING:
    from ..load.content import GameContent, Project
    from ..score.dispatch import ScoreReport

SHEET_NAME = "sheet.yaml"  # the name the CLI's messages would give the file; never opened
_CELL = re.compile(r"\brow (\d+) column (\d+)\b")


class _SheetDumper(yaml.SafeDumper):
    """Block style throughout; text of several lines (a grid) as a `|` block, one row a line."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value and not value.endswith(" ") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_SheetDumper.add_representer(str, _text)


def sheet_yaml(sheet: dict[str, Any]) -> str:
    """The sheet as the YAML text `pnp score` reads: keys in the order given, same data, same text."""
    out = io.StringIO()
    yaml.dump(sheet, out, Dumper=_SheetDumper, sort_keys=False, allow_unicode=True, default_flow_style=False, width=4096)
    return out.getvalue()


@dataclass(frozen=True)
class Problem:
    """One error of `pnp score`: its message and the part of the sheet it concerns."""

    message: str
    at: tuple[Any, ...] = ()  # path in the sheet, e.g. ("players", 0, "stomach"); () = the whole sheet
    cell: tuple[int, int] | None = None  # 1-based (row, column) in a grid field

    def to_json(self) -> dict[str, Any]:
        return {"message": self.message, "at": list(self.at), "cell": list(self.cell) if self.cell else None}


@dataclass
class Outcome:
    """What checking a sheet gave: problems, or the report of `pnp score --json` and its text
    (with a problem for each claim it does not score, exit code 1)."""

    problems: list[Problem] = field(default_factory=list)
    report: dict[str, Any] | None = None
    exit_code: int = 0
    printable: "ScoreReport | None" = None
    decided: str | None = None  # what decided the winner, in the report's words (ScoreReport.decided_text)
    _text: str | None = None

    @property
    def text(self) -> str:
        """The report as `pnp score` prints it (drawn when first asked: a tenth of a second)."""
        if self._text is None:
            from rich.console import Console

            self._text = ""
            if self.printable is not None:
                console = Console(file=io.StringIO(), width=100, color_system=None, highlight=False, emoji=False)
                with console.capture() as captured:
                    call_hook(self.printable.render, "render(console)", (console,), lambda _: None)
                self._text = captured.get()
        return self._text

    def to_json(self, text: bool = True) -> dict[str, Any]:
        return {"problems": [p.to_json() for p in self.problems], "report": self.report, "text": self.text if text else "",
                "decided": self.decided, "exit_code": self.exit_code}


def parse(text: str) -> Located:
    """Parse sheet text within the scoring-sheet limits (those of `pnp score`)."""
    limits = SHEET.from_env()
    if len(text.encode("utf-8")) > limits.size:
        raise PnpError(ContentError(SHEET_NAME, None, None, f"more than {limits.size:,} bytes: {limits.hint('size')}"))
    return parse_located(text, SHEET_NAME, limits)


def plugin_error(exc: BaseException) -> PnpError | None:
    """An exception raised in a game plugin's own code as the located line `pnp score` gives
    for it (`plugin_failure`), also said on the server's terminal (its traceback there with
    PNP_DEBUG set); None when no plugin's code raised it (a bug in pnp)."""
    located = plugin_failure(exc)
    if located is None:
        return None
    if os.environ.get("PNP_DEBUG"):
        traceback.print_exception(exc, file=sys.stderr)
    print(located, file=sys.stderr)
    return PnpError(located)


def check(project: "Project", sheet: dict[str, Any], load: "Callable[[Project, str], GameContent] | None" = None) -> Outcome:
    """Check and score a sheet with `pnp score`'s code (`load`: how to load a game, default
    from its files); its problems placed on the sheet, a plugin's own failure on the whole sheet."""
    from ..score.dispatch import score_doc

    doc: Located | None = None
    try:
        doc = parse(sheet_yaml(sheet))
        report = score_doc(project, doc, load)
        # a claim the sheet does not score is a problem at that claim, as `pnp score` exits 1 on it
        places = call_hook(report.mismatch_places, "mismatch_places()", (), _mismatch_places)
        problems = [Problem(line, tuple(at)) for at, line in places]
        decided = call_hook(report.decided_text, "decided_text()", (), _text_or_none)
        return Outcome(problems, report.to_json(), exit_code=report.exit_code, printable=report, decided=decided)
    except PnpError as exc:
        places = _places(doc) if doc is not None else {}
        return Outcome([_problem(e, places) for e in exc.errors], exit_code=exc.exit_code)
    except Exception as exc:
        if (error := plugin_error(exc)) is None:
            raise
        return Outcome([Problem(str(e)) for e in error.errors], exit_code=error.exit_code)


def _places(doc: Located) -> dict[int, tuple[Any, ...]]:
    """Line -> the deepest part of the sheet that starts on it."""
    out: dict[int, tuple[Any, ...]] = {}
    for at, (line, _) in doc.marks.items():
        if line not in out or len(at) > len(out[line]):
            out[line] = at
    return out


def _problem(error: ContentError | str, places: dict[int, tuple[Any, ...]]) -> Problem:
    if not isinstance(error, ContentError):
        return Problem(str(error))
    if error.path is not None and str(error.path) != SHEET_NAME:  # the plugin's or the content's: the whole line, on the whole sheet
        print(error, file=sys.stderr)
        return Problem(str(error))
    cell = _CELL.search(error.message)
    found = (int(cell.group(1)), int(cell.group(2))) if cell else None
    if error.line is None:
        return Problem(error.message, (), found)
    line = error.line
    while line > 0 and line not in places:  # a row of a `|` block: its key is above it
        line -= 1
    at = places.get(line, ())
    if found is None and error.line != line:  # a grid row's own problem (e.g. its width)
        found = (error.line - line, 0)
    return Problem(error.message, at, found)


# --- the games and their sheets --------------------------------------------------------

MOST_PLAYERS = 8  # player counts tried for a game's blank sheet


def _mismatch_places(value: Any) -> str | None:
    """`call_hook`'s check of a report's `mismatch_places`: (path in the sheet, message) pairs."""
    good = isinstance(value, (list, tuple)) and all(
        isinstance(p, (list, tuple)) and len(p) == 2 and isinstance(p[0], (list, tuple)) and isinstance(p[1], str) for p in value)
    return None if good else "a list of (path in the sheet, message) pairs, e.g. [((\"players\", 0, \"claimed\"), \"Ana: claimed 12, scored 14\")]"


def _text_or_none(value: Any) -> str | None:
    """`call_hook`'s check of a report's `decided_text`: a text, or None."""
    return None if value is None or isinstance(value, str) else "a text (what decided the winner, e.g. \"fewer damage tiles\") or None"


def _choices(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(c, dict) and "value" in c and "label" in c for c in value)


def _hint(value: Any) -> bool:
    """A field's hint as forms.py merges it: a dict; its choices {value, label}; a group's fields hints too."""
    return (isinstance(value, dict) and ("choices" not in value or _choices(value["choices"]))
            and isinstance(value.get("fields", {}), dict) and all(_hint(h) for h in value.get("fields", {}).values()))


def _form_hints(value: Any) -> str | None:
    """`call_hook`'s check of `sheet_form`: the shape pnp/serve/forms.py reads."""
    expected = ('a dict of {"table": {key: hint}, "player": {key: hint}, "blank_is_complete": bool, '
                '"rules": [{"value", "label", "differences"}], "labels": {key: text}}, each part optional, '
                'a hint a dict (its choices [{"value", "label"}])')
    if not isinstance(value, dict) or set(value) - {"table", "player", "blank_is_complete", "rules", "labels"}:
        return expected
    labels = value.get("labels", {})
    if not (isinstance(labels, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in labels.items())):
        return expected
    fields = [value.get("table", {}), value.get("player", {})]
    if not all(isinstance(f, dict) and all(_hint(h) for h in f.values()) for f in fields):
        return expected
    return None if _choices(value.get("rules", [])) else expected


class Games:
    """The project's games that have a scorer, loaded once (a content change needs a restart)."""

    def __init__(self, project: "Project"):
        self.project = project
        self._content: dict[str, "GameContent"] = {}
        self._digests: dict[str, str] = {}

    def content(self, project: "Project", name: str) -> "GameContent":
        """The game as `load_game` gives it, loaded once (what `check` hands the dispatch,
        which asks with this project)."""
        from ..load.content import load_game

        if name not in self._content:
            self._content[name] = load_game(project, name)
        return self._content[name]

    def scored(self, name: str) -> bool:
        """Whether the game has a scorer, sheet schema and blank sheet (loading it: its
        PnpError, or its plugin's exception, when it does not load)."""
        plugin = self.content(self.project, name).plugin
        return plugin.score is not None and plugin.sheet_schema is not None and plugin.sheet_template is not None

    def load(self, name: str) -> "GameContent":
        """A game with a scorer, sheet schema and blank sheet; PnpError otherwise."""
        if name not in self.project.known_games():
            raise PnpError(f"unknown game {name!r}: expected one of {', '.join(self.names()) or '(none with a scorer)'}")
        if not self.scored(name):
            raise PnpError(f"game {name!r} has no scorer with a sheet schema and a blank sheet")
        return self.content(self.project, name)

    def check(self, sheet: dict[str, Any]) -> Outcome:
        """`check` with the games kept loaded."""
        return check(self.project, sheet, self.content)

    def names(self) -> list[str]:
        """Every game of the project that has a scorer (games that fail to load are left out:
        the start page lists them with their error)."""
        out = []
        for name in self.project.known_games():
            try:
                self.load(name)
            except PnpError:
                continue
            except Exception as exc:
                if plugin_failure(exc) is None:
                    raise
                continue
            out.append(name)
        return out

    def player_counts(self, name: str) -> list[int]:
        """The player counts the game's blank sheet is made for (within the `players` range
        the game declares, as `pnp sheet` checks)."""
        from ..score.dispatch import check_sheet_options

        game = self.load(name)  # an unknown game is that, not a game for no player count
        counts, last = [], None
        for n in range(1, MOST_PLAYERS + 1):
            try:
                check_sheet_options(game, n, None)
            except PnpError:  # a count the game does not declare
                continue
            try:
                self.blank(name, n, None)
            except PnpError as exc:
                last = exc
                continue
            counts.append(n)
        if not counts and last is not None:  # no blank sheet for any count it declares: why, for the start page
            raise last
        return counts

    def title(self, name: str) -> str:
        return self.load(name).manifest.title

    def listed_title(self, name: str) -> str:
        """The game's title for a page listing a game that cannot be played: its game.yaml's
        `title:` as written, read alone (the game does not load); else its folder's name."""
        from ..load.shipped import MANIFEST
        from ..load.yamlio import load_located

        try:
            data = load_located(self.project.home(name).content_dir / name / MANIFEST).data
        except (PnpError, OSError):
            return name
        title = data.get("title") if isinstance(data, dict) else None
        return title.strip() if isinstance(title, str) and title.strip() else name

    def schema(self, name: str) -> dict[str, Any]:
        from ..score.dispatch import sheet_schema

        return sheet_schema(self.load(name))

    def hints(self, name: str, rules: str | None, players: int) -> dict[str, Any]:
        """The choices the game's plugin offers for its entry form (`sheet_form`; {} without)."""
        game = self.load(name)
        if game.plugin.sheet_form is None:
            return {}
        hints = call_hook(game.plugin.sheet_form, "sheet_form(game, rules, players)", (game, rules, players), _form_hints)
        # what a rule version changes, as the page says it: a ruling without the rules.yaml key holding it
        for option in hints.get("rules", []):
            if isinstance(option.get("differences"), list):
                option["differences"] = [uncited(d) if isinstance(d, str) else d for d in option["differences"]]
        return hints

    def blank(self, name: str, players: int, rules: str | None) -> dict[str, Any]:
        """The game's blank sheet (`pnp sheet --template`) as data; a PnpError for a player
        count or rule version the game does not declare, with `pnp sheet`'s check."""
        from ..score.dispatch import blank_sheet

        data = parse(blank_sheet(self.load(name), players, {"rules": rules} if rules else None)).data
        if not isinstance(data, dict) or not isinstance(data.get("players"), list):
            raise PnpError(f"game {name!r}: its blank sheet has no players list")
        return data

    def digest(self, name: str) -> str:
        """A digest of the game's content files, to tell results of different content apart
        (as loaded: taken once, like the content itself)."""
        if name not in self._digests:
            self._digests[name] = self.digest_now(name)
        return self._digests[name]

    def digest_now(self, name: str) -> str:
        """The digest of the game's content files as they are on disk now (edited since the
        server started, it differs from `digest`)."""
        from .log import content_digest

        home = self.project.home(name)
        return content_digest(home.root, home.content_dir / name)
