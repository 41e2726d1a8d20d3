"""`pnp log`: list the logged games, export them as sheet YAML (what `pnp score` reads) or
CSV, import sheet files. Needs no extra: the log is the standard library's sqlite3."""

from __future__ import annotations

import csv
import io
import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ContentError, PnpError, display_path
from ..safetext import surrogates_escaped
from .log import PLAYED_FORMAT, Game, Log

if TYPE_CHECKING:
    from ..load.content import Project

CSV_COLUMNS = ("game_id", "played", "game", "rules", "changes", "content_digest", "seat", "player", "total", "winner")


# a name a log kept before `pnp serve` checked names may hold half an emoji: printed escaped
_text = surrogates_escaped


def rows(games: list[Game]) -> list[list[str]]:
    """`pnp log list`: one line per game."""
    out = []
    for g in games:
        winners = g.report.get("winners") or []
        out.append([_text(c) for c in (str(g.id), g.played, g.game, g.rules or "-", _changes(g.changes) or "-", ", ".join(g.players),
                                       ", ".join(winners) or "nobody", g.digest)])
    return out


def _changes(changes: dict[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(changes.items()))


# The first line sheet_file writes; only its played date is read back (the game's id, digest
# and rule changes are the log's own: an import takes them from the log and the sheet).
_HEADER = re.compile(r"# pnp log: game [0-9]+, played (?P<played>[^,]*), content digest [0-9a-f]+(, rule changes .*)?\r?")
_PLAYED = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")


def sheet_file(g: Game) -> str:
    """A logged game as a sheet file: a comment saying where it comes from, then the sheet
    exactly as it was scored."""
    head = f"# pnp log: game {g.id}, played {g.played}, content digest {g.digest}"
    if g.changes:
        head += f", rule changes {_changes(g.changes)}"
    return _text(head.replace("\n", " ")) + "\n" + g.sheet


def exported(text: str, path: Path) -> tuple[str | None, str]:
    """A sheet file's played date and sheet without the header when its first line is the
    one `sheet_file` writes (an export imported again is the same game: one header, its
    date), else (None, the text): another comment is only a comment. A header whose date
    is not one pnp writes is an error at line 1, not a date made up."""
    first, _, rest = text.partition("\n")
    header = _HEADER.fullmatch(first)
    if header is None:
        return None, text
    played = header["played"]
    if not (_PLAYED.fullmatch(played) and _is_date(played)):
        raise PnpError(ContentError(path, 1, None, f"played {played!r}: expected the UTC date and time pnp writes, as 2026-01-31T18:05:00Z"))
    return played, rest


def _is_date(text: str) -> bool:
    """Whether a text of PLAYED_FORMAT's shape is a real date and time (no 13th month)."""
    try:
        time.strptime(text, PLAYED_FORMAT)
    except ValueError:
        return False
    return True


def export_sheets(games: list[Game], folder: Path) -> list[Path]:
    """Write every game as `<folder>/<game>-<id>.yaml`; the paths written."""
    from ..build.output import Inside
    from ..files import write_atomic

    inside, paths = Inside(folder), []
    for g in games:  # every name checked before a file is written
        name = f"{g.game}-{g.id}.yaml"  # a game's name is checked as the log is read (logcheck.game_name): no folder in it
        path = inside(name)  # never a path out, nor a link
        if path is None:
            raise PnpError(f"{display_path(folder / name)}: is a link: pnp writes no file through a link: remove it, "
                           "or export into another folder with --out: nothing written")
        paths.append(path)
    for g, path in zip(games, paths):
        write_atomic(path, sheet_file(g).encode("utf-8"))
    return paths


def _total(player: dict[str, Any]) -> Any:
    for key in ("total", "difference"):
        if key in player:
            return player[key]
    return None


# A text cell a spreadsheet would read as a formula (OWASP, "CSV Injection"): a player's name
# or anything else the log holds starting with one of these is written after an apostrophe.
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    """A CSV cell: a number as it is, a text never a live formula, and writable as UTF-8."""
    if isinstance(value, str) and value.startswith(_FORMULA):
        return "'" + _text(value)
    return _text(value) if isinstance(value, str) else value


def export_csv(games: list[Game]) -> str:
    """One row per player of every game: the game's facts, the seat, the total and the winner.
    No text cell starts a formula (`_cell`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180; and a CR in a text is quoted (not with "\n" alone), never a new row
    writer.writerow(CSV_COLUMNS)
    for g in games:
        winners = set(g.report.get("winners") or [])
        reported = {p.get("name"): p for p in g.report.get("players") or [] if isinstance(p, dict)}
        for seat, name in enumerate(g.players, start=1):
            total = _total(reported.get(name, {}))
            writer.writerow([_cell(v) for v in (g.id, g.played, g.game, g.rules or "", _changes(g.changes), g.digest, seat, name,
                                                "" if total is None else total, "yes" if name in winners else "no")])
    return out.getvalue()


def import_sheets(project: "Project", log: Log, paths: list[Path]) -> list[tuple[int, bool]]:
    """Score every sheet with `pnp score`'s code and log them all, or none when one fails:
    an impossible sheet (exit 2) or one whose claims are wrong (exit 1, as `pnp score`).
    Each sheet's game id and whether it is new: a game the log holds already (an exported
    sheet imported again, `Log.same_game`) is not logged twice."""
    from ..load.yamlio import SHEET, parse_located, read_text
    from ..score.dispatch import score_doc
    from .scoring import Games

    games = Games(project)
    ready, errors, worst = [], [], 0
    for path in paths:
        try:
            limits = SHEET.from_env()
            text = read_text(path, limits)  # read once
            doc = parse_located(text, path, limits)
            played, sheet = exported(text, path)  # the sheet logged is the text scored, less pnp's own header
            report = score_doc(project, doc)
        except PnpError as exc:
            errors += exc.errors
            worst = max(worst, exc.exit_code)
            continue
        if report.exit_code:
            errors += [ContentError(path, None, None, line) for line in report.mismatch_lines()]
            worst = max(worst, report.exit_code)
            continue
        data = doc.data
        players = [p.get("name") for p in data.get("players") or [] if isinstance(p, dict)]
        rules = data.get("rules")
        ready.append((report.game, None if rules is None else str(rules), dict(data.get("changes") or {}), [str(p) for p in players],
                      games.digest(report.game), sheet, report.to_json(), None, played))
    if errors:
        refused = PnpError(errors)
        refused.exit_code = worst
        raise refused
    out = []
    for entry in ready:  # as record() takes them: game, rules, changes, players, digest, sheet, report, session, played
        logged = log.same_game(entry[0], entry[2], entry[3], entry[5], entry[8])
        out.append((logged, False) if logged is not None else (log.record(*entry), True))
    return out
