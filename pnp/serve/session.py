"""A game at the table: what the host chose (game, rule version, rule changes, players), the
fields the table shares and each player's board, put together as one scoring sheet."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any, Callable

from ..errors import PnpError
from ..safetext import SURROGATE
from . import forms
from .log import Session
from .scoring import Games

MAX_NAME = 60  # characters of a player's name
MAX_TEXT = 2000  # characters of any one value sent by a page
_NUMBER_KEY = re.compile(r"^[0-9]{1,3}$")


def form(games: Games, game: str, rules: str | None, players: list[str]) -> dict[str, Any]:
    """The entry form of a game under a rule version for these players (their count, and
    their names where a field chooses among them)."""
    shape = forms.build(games.schema(game), games.blank(game, len(players), rules), games.hints(game, rules, len(players)))
    return forms.name_players(shape, players)


def check_rules(games: Games, game: str, rules: str | None, changes: dict[str, Any]) -> None:
    """A rule version or rule changes asked of a game whose sheet takes none, or a rule
    version it has not: PnpError in the host's words (not `--set`'s, nor the game.yaml line
    declaring the option, which the page never showed)."""
    if rules is not None and "rules" not in games.schema(game).get("properties", {}):
        raise PnpError(f"rules: {game} has one rule set: expected no rule version")
    if changes and "changes" not in games.schema(game).get("properties", {}):
        raise PnpError(f"changes: {game} takes no rule changes on its sheet")
    versions = games.hints(game, None, 0).get("rules", []) if rules is not None else []
    if versions and rules not in [v["value"] for v in versions]:
        offered = ", ".join(f"{v['label']} ({v['value']})" for v in versions)
        raise PnpError(f"rules: {rules!r}: expected one of {offered}")


def check_table(games: Games, game: str, rules: str | None, changes: dict[str, Any], players: int) -> dict[str, Any]:
    """The blank sheet of a table the host chose (player count, rule version, rule changes),
    or PnpError naming what the host chose wrong, as the start page asks it."""
    counts = games.player_counts(game)
    if players not in counts:
        raise PnpError(f"players: {players} players: {games.title(game)} is played by {', '.join(map(str, counts))}")
    check_rules(games, game, rules, changes)
    blank = games.blank(game, players, rules)
    if changes:  # checked now, as `pnp simulate --set` checks them, not when the first board is sent
        wrong = [p.message for p in games.check({**blank, "changes": changes}).problems if p.at[:1] == ("changes",)]
        if wrong:
            raise PnpError(wrong)
    return blank


def start(games: Games, game: str, rules: str | None, changes: dict[str, Any], players: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The starting table fields and boards of a new session (the blank sheet's values);
    PnpError naming what the host chose wrong."""
    names = player_names(players)
    blank = check_table(games, game, rules, changes, len(names))
    shape = form(games, game, rules, names)
    table = {f["key"]: blank[f["key"]] for f in shape["table"] if f["key"] in blank}
    boards = [{f["key"]: p.get(f["key"]) for f in shape["player"] if f["key"] in p} for p in blank["players"]]
    return table, boards


# A name is one line of text a page can show: none of these (a lone surrogate is what
# JSON.stringify makes of an emoji cut in half; it cannot even be written as UTF-8).
_NOT_TEXT = {"Cs": "a lone surrogate (half of an emoji)", "Cc": "a control character (a line break, a tab...)",
             "Cf": "an invisible formatting character", "Zl": "a line separator", "Zp": "a paragraph separator"}


def player_names(players: Any) -> list[str]:
    """The host's player names stripped and in NFC (José typed either way is one player);
    PnpError naming the first name that is empty, not one line of visible text, too long,
    or another's but for case."""
    if not isinstance(players, list) or not players or not all(isinstance(n, str) and n.strip() for n in players):
        raise PnpError("players: expected a name for every player")
    names = []
    for seat, typed in enumerate(players, start=1):
        name = typed.strip()  # a line break pasted after a name is no part of it
        for at, char in enumerate(name):
            kind = unicodedata.category(char)
            if kind in _NOT_TEXT and not _joins_emoji(name, at):
                raise PnpError(f"players: player {seat}'s name {name!r} has {_NOT_TEXT[kind]}, U+{ord(char):04X}: "
                               "expected one line of visible text")
        name = unicodedata.normalize("NFC", name)
        if len(name) > MAX_NAME:
            raise PnpError(f"players: player {seat}'s name ({name[:20]!r}...) is {len(name)} characters: expected at most {MAX_NAME}")
        names.append(name)
    folded = [unicodedata.normalize("NFC", n.casefold()) for n in names]
    for seat, name in enumerate(folded):
        if name in folded[:seat]:
            first = folded.index(name)
            raise PnpError(f"players: two players have the same name, {names[first]!r} (player {first + 1}) and {names[seat]!r} "
                           f"(player {seat + 1}): expected each name once")
    return names


def _joins_emoji(text: str, at: int) -> bool:
    """Whether text[at] is a zero-width joiner inside an emoji sequence (🧟‍♂️, 👩🏽‍💻), not
    between letters, where it would only hide a difference."""
    return text[at] == "\u200d" and 0 < at < len(text) - 1 and unicodedata.category(text[at - 1]) in ("So", "Sk", "Mn") \
        and unicodedata.category(text[at + 1]) == "So"


class Refused(PnpError):
    """A save refused for one thing it sends, named by `at` as the save sends it (["values",
    field], ["parts", field], ["cells", grid, [row, column]], ["items", field]): the page marks
    that change alone refused and sends the others of its batch again."""

    def __init__(self, message: str, at: list[Any]):
        super().__init__(message)
        self.at = at


def _small_at(at: list[Any], key: str, value: Any, depth: int) -> None:
    """`_small`, its refusal naming what the save sent (`at`)."""
    try:
        _small(key, value, depth)
    except PnpError as exc:
        raise Refused(str(exc), at) from None


def clean(fields: list[dict[str, Any]], values: Any, section: str = "values") -> dict[str, Any]:
    """A page's values for these fields (or a save's `section` of them, by field): only known
    keys and plain, small values."""
    if not isinstance(values, dict):
        raise PnpError("expected an object of field values")
    known = {f["key"]: f for f in fields}
    for key, value in values.items():
        if key not in known:
            raise Refused(f"unknown field {key!r}: expected one of {', '.join(sorted(known))}", [section, key])
        _small_at([section, key], key, value, 0)
        if section == "values" and known[key].get("alone") is not None:  # a claimed winner: only the names offered
            _offered(known[key], [] if value is None else value if isinstance(value, list) else [value], [section, key])
    return dict(values)


def _offered(field: dict[str, Any], picks: list[Any], at: list[Any], taps: bool = False) -> None:
    """Refused unless every pick is one of the field's choices (a claimed winner one of the
    players, or "none"), and, but in taps sent together (`taps`: the last one counts), one
    it takes alone is alone."""
    choices = {c["value"]: str(c["label"]) for c in field.get("choices", [])}
    offered = ", ".join(choices.values())
    for pick in picks:
        if not isinstance(pick, (str, int)) or pick not in choices:
            raise Refused(f"{field.get('label', field['key'])}: {json.dumps(pick, ensure_ascii=False)[:60]} is not offered: "
                          f"expected one of {offered}", at)
    if not taps and len(picks) > 1 and any(p in field.get("alone", ()) for p in picks):
        alone = " or ".join(choices[p] for p in field["alone"])
        raise Refused(f"{field.get('label', field['key'])}: {alone} goes alone, not with another pick", at)


def edit(fields: list[dict[str, Any]], body: dict[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A page's save, checked: whole fields (`values`), keys of an object field (`parts`:
    {field: {key: value}}; in a map, a key set to null is taken out, as is an optional field
    of a group, and an optional map or group left empty leaves the sheet), cells of a grid (`cells`: {field: [[row, column, symbol]]},
    counted from 1) and choices tapped on or off in a list of picks (`items`: {field: {"add":
    [...], "remove": [...]}}, or {group: {field: {...}}} for one inside a group). Returns how
    to apply it to the stored values: a page sends only what it changed, and the rest of a
    field another page (the same board on another phone) saved stays."""
    values = clean(fields, body.get("values", {}))
    parts, cells, items = body.get("parts", {}), body.get("cells", {}), body.get("items", {})
    if not isinstance(parts, dict) or not all(isinstance(p, dict) for p in parts.values()):
        raise PnpError("parts: expected an object of fields, each an object of its keys' values")
    clean(fields, parts, "parts")
    if not isinstance(cells, dict):
        raise PnpError("cells: expected an object of grids, each a list of [row, column, symbol]")
    clean(fields, cells, "cells")
    by_key = {f["key"]: f for f in fields}
    for key, changed in cells.items():
        grid = by_key[key]
        if grid.get("kind") != "grid":
            raise Refused(f"cells: {key} is not a grid", ["cells", key])
        for cell in changed if isinstance(changed, list) else [None]:
            if not (isinstance(cell, list) and len(cell) == 3 and all(type(n) is int for n in cell[:2])
                    and 1 <= cell[0] <= grid["rows"] and 1 <= cell[1] <= grid["cols"]
                    and isinstance(cell[2], str) and len(cell[2]) == 1 and not cell[2].isspace()):
                where = cell[:2] if isinstance(cell, list) and len(cell) >= 2 and all(type(n) is int for n in cell[:2]) else None
                raise Refused(f"cells: {key}: expected [row 1-{grid['rows']}, column 1-{grid['cols']}, one symbol], not {json.dumps(cell)}",
                              ["cells", key] + ([where] if where else []))
    toggles = _toggles(by_key, items)

    def apply(stored: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {key: None if _unticked(by_key[key], value) else value for key, value in values.items()}
        for key, changed in parts.items():
            now = out.get(key, stored.get(key))
            out[key] = {**(now if isinstance(now, dict) else {}), **changed}
            if by_key[key].get("kind") == "map":  # a box emptied: its key leaves the map; every box, an optional map the sheet
                out[key] = {k: v for k, v in out[key].items() if v is not None} or (None if by_key[key].get("optional") else {})
            elif by_key[key].get("kind") == "group":  # an optional field inside emptied leaves it; all of an optional group, the sheet
                inside = {f["key"]: f for f in by_key[key].get("fields", [])}
                out[key] = {k: None if k in inside and _unticked(inside[k], v) else v for k, v in out[key].items()}
                left = {k for k, f in inside.items() if f.get("optional")}
                out[key] = {k: v for k, v in out[key].items() if v is not None or k not in left} or (None if by_key[key].get("optional") else {})
            _small_at(["parts", key], key, out[key], 0)  # merged, the object keeps a whole save's limits
        for (key, inner), (add, remove, order) in toggles.items():
            now = out.get(key, stored.get(key))
            if inner is not None:
                group = dict(now) if isinstance(now, dict) else {}
                group[inner] = _toggled(group.get(inner), add, remove, order)
                _small_at(["items", key], f"{key}: {inner}", group[inner], 1)  # merged, the list keeps a whole save's limits
                out[key] = group
            else:
                out[key] = _toggled(now if not isinstance(now, (str, int)) else [now], add, remove, order)
                if by_key[key].get("alone") is not None:
                    out[key] = _as_written(by_key[key], out[key], add)
                _small_at(["items", key], key, out[key], 0)
        for key, changed in cells.items():
            grid = by_key[key]
            rows = _rows(out.get(key, stored.get(key)), grid)
            for row, col, symbol in changed:
                rows[row - 1][col - 1] = symbol
            out[key] = "".join(" ".join(r) + "\n" for r in rows)
        return out
    return apply


def _unticked(field: dict[str, Any], value: Any) -> bool:
    """An optional box unticked: it leaves the sheet as if never ticked (a box has no third
    state, and `false` is not the same: Human Harvest refuses `dna_point: false` in a basic
    game, and in an advanced one it contradicts a six-humans ending)."""
    return field.get("kind") == "bool" and bool(field.get("optional")) and value is False


_Toggle = tuple[list[Any], list[Any], dict[Any, int]]  # added, removed, each choice's place


def _toggles(by_key: dict[str, dict[str, Any]], items: Any) -> dict[tuple[str, str | None], _Toggle]:
    """A save's `items`, checked: by (field, field inside it or None), the values added and
    removed and the order of the field's choices."""
    if not isinstance(items, dict):
        raise PnpError('items: expected an object of lists of picks, each {"add": [...], "remove": [...]}')
    clean(list(by_key.values()), items, "items")
    out = {}
    for key, changed in items.items():
        field = by_key[key]
        if field.get("kind") == "group":
            inside = {f["key"]: f for f in field["fields"]}
            if not isinstance(changed, dict):
                raise Refused(f"items: {key}: expected an object of its lists of picks", ["items", key])
            try:
                clean(list(inside.values()), changed)
            except PnpError as exc:
                raise Refused(str(exc), ["items", key]) from None
            targets = [((key, k), inside[k], v, f"{key}: {k}") for k, v in changed.items()]
        else:
            targets = [((key, None), field, changed, key)]
        for at, picks, toggle, name in targets:
            if picks.get("kind") != "picks":
                raise Refused(f"items: {name} is not a list of picks", ["items", key])
            if not (isinstance(toggle, dict) and set(toggle) <= {"add", "remove"}
                    and all(isinstance(v, list) and all(isinstance(x, (str, int, float)) for x in v) for v in toggle.values())):
                raise Refused(f'items: {name}: expected {{"add": [values], "remove": [values]}}, not {json.dumps(toggle)[:80]}', ["items", key])
            if picks.get("alone") is not None:  # a claimed winner: only the names offered
                _offered(picks, toggle.get("add", []), ["items", key], taps=True)
            out[at] = (toggle.get("add", []), toggle.get("remove", []), {c["value"]: i for i, c in enumerate(picks.get("choices", []))})
    return out


def _as_written(field: dict[str, Any], picks: list[Any], added: list[Any]) -> Any:
    """A list of picks hinted `alone` as its sheet writes it: a pick it takes alone, if the
    last tapped, replaces the others (and another tapped after it replaces it: taps sent
    together count in the order made); then one pick as its value, several as a list, none
    as no value (the field leaves the sheet: no claim)."""
    alone = field.get("alone") or ()
    if added and added[-1] in alone:
        picks = [added[-1]]
    elif added:
        picks = [p for p in picks if p not in alone]
    return None if not picks else picks[0] if len(picks) == 1 else picks


def _toggled(now: Any, add: list[Any], remove: list[Any], order: dict[Any, int]) -> list[Any]:
    """A list of picks with these taken out and these put in (each once), in the choices' order
    as the page shows them; another page's picks stay."""
    kept = [v for v in (now if isinstance(now, list) else []) if v not in remove]
    kept += [v for i, v in enumerate(add) if v not in kept and v not in add[:i]]
    return sorted(kept, key=lambda v: order.get(v, len(order)))


def _rows(value: Any, grid: dict[str, Any]) -> list[list[str]]:
    """A stored grid's cells, in the grid's shape (a cell it lacks is empty), as the page reads it."""
    lines = [line.split() for line in value.splitlines() if line.strip()] if isinstance(value, str) else []
    return [[lines[r][c] if r < len(lines) and c < len(lines[r]) else grid["empty"] for c in range(grid["cols"])]
            for r in range(grid["rows"])]


def _small(key: str, value: Any, depth: int) -> None:
    if depth > 3:
        raise PnpError(f"{key}: nested too deep")
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise PnpError(f"{key}: longer than {MAX_TEXT} characters")
    if isinstance(value, str) and SURROGATE.search(value):  # stored, it could never be sent back as UTF-8
        raise PnpError(f"{key}: {value[:40]!r} has a lone surrogate (half of an emoji): expected text")
    if isinstance(value, list):
        if len(value) > 100:
            raise PnpError(f"{key}: more than 100 values")
        for v in value:
            _small(key, v, depth + 1)
    if isinstance(value, dict):
        if len(value) > 100:
            raise PnpError(f"{key}: more than 100 values")
        for k, v in value.items():
            _small(key, k, depth + 1)
            _small(key, v, depth + 1)


def _yaml_keys(value: Any) -> Any:
    """JSON object keys that are numbers become numbers, as `1:` does in YAML."""
    if isinstance(value, dict):
        return {int(k) if isinstance(k, str) and _NUMBER_KEY.match(k) else k: _yaml_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_yaml_keys(v) for v in value]
    return value


def sheet(games: Games, s: Session) -> dict[str, Any]:
    """The session as one scoring sheet, keys in the blank sheet's order (optional fields
    the table filled in after them; ones left empty are left out)."""
    blank = games.blank(s.game, len(s.players), s.rules)
    out: dict[str, Any] = {}
    for key, value in blank.items():
        if key == "players":
            out["players"] = [_player(p, name, s.boards.get(seat, {})) for seat, (p, name) in enumerate(zip(blank["players"], s.players))]
        elif key == "rules" and s.rules is not None:
            out["rules"] = s.rules
        else:
            out[key] = _yaml_keys(s.table.get(key, value))
        if key == "rules" and s.changes:
            out["changes"] = dict(s.changes)
    if s.changes and "changes" not in out:
        out["changes"] = dict(s.changes)
    for key, value in s.table.items():
        if key not in out and value is not None:
            out[key] = _yaml_keys(value)
    return out


def _player(blank: dict[str, Any], name: str, board: dict[str, Any]) -> dict[str, Any]:
    out = {key: _yaml_keys(board.get(key, value)) for key, value in blank.items()}
    out["name"] = name
    for key, value in board.items():
        if key not in out and value is not None:
            out[key] = _yaml_keys(value)
    return out
