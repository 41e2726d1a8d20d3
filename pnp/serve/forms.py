"""A game's entry form, made from its sheet schema (`pnp sheet --schema`) and its blank
sheet (`pnp sheet --template`), so that a new game with a scorer gets a page without new
web code: the schema gives each field's type and help, the blank sheet its starting value
and, for a text of several equal rows (a stomach), the grid's shape. Hints (the game
plugin's `sheet_form`) add choices from the game's content.

A form is plain data for the page: {"table": [field, ...], "player": [field, ...], "labels":
{report key: words}} (`labels`: the hints' words for the parts of a player's report that no
field names, e.g. a solo game's `king`); a field
is {"key", "label", "help", "kind", "nullable", ...} with kind one of text, number, bool,
choice, list, map (of numbers: values "number", min, max; with its keys known: keys), group
(fields), grid (rows, cols, empty, palette), track (min, max), order, slots, picks (choices:
a list of several of them, tapped on and off).

Fields of the schema that the blank sheet leaves out are offered as optional extras, unless
the hints say `"blank_is_complete": true`: then the blank sheet lists every field the game's
sheet has under this rule version and player count, and the form offers exactly those. A
choice (or list of picks) hinted `"choices_from": "players"` offers the table's player names
(`name_players`), then any choices of the hint's own; a list of picks hinted `"alone":
[values]` (a claimed winner: a player, several for a shared win, or `none`) takes one of
those only by itself and is saved as the sheet writes it (one pick as its value, several as
a list, none as no value); and a map hinted `"keys_from": "players"` has a key for each of them. A field hinted
`"solo_only": true` (a solo opponent's) is offered only when the blank sheet has one player.
"""

from __future__ import annotations

import re
from typing import Any

# Keys the session sets itself: the game, its rule version and changes, the player list.
SESSION_KEYS = ("game", "rules", "changes", "players")
NAME = "name"


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """`node` with a local $ref followed (pydantic's `#/$defs/Name`)."""
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return dict(schema.get("$defs", {}).get(ref.removeprefix("#/$defs/"), {}))
    return node


def _variants(schema: dict[str, Any], node: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
    """The non-null alternatives of a field's schema, and whether null is allowed."""
    node = _resolve(schema, node)
    options = node.get("anyOf") or node.get("oneOf")
    if not options:
        kinds = node.get("type")
        if isinstance(kinds, list):
            return [{**node, "type": k} for k in kinds if k != "null"], "null" in kinds
        return [node], False
    variants = [_resolve(schema, o) for o in options]
    return [v for v in variants if v.get("type") != "null"], any(v.get("type") == "null" for v in variants)


def _grid(blank: Any) -> dict[str, Any] | None:
    """A grid's shape from its blank value: several rows, each as many one-symbol cells."""
    if not isinstance(blank, str):
        return None
    rows = [line.split() for line in blank.splitlines() if line.strip()]
    if len(rows) < 2 or len({len(r) for r in rows}) != 1 or len({c for r in rows for c in r}) != 1 or len(rows[0][0]) != 1:
        return None
    return {"kind": "grid", "rows": len(rows), "cols": len(rows[0]), "empty": rows[0][0]}


def field(schema: dict[str, Any], key: str, node: dict[str, Any], blank: Any, hint: dict[str, Any] | None,
          complete: bool = False) -> dict[str, Any]:
    """One field of the form (`complete`: a group offers only the fields its blank value has)."""
    variants, nullable = _variants(schema, node)
    first = variants[0] if variants else {}
    out: dict[str, Any] = {"key": key, "label": key.replace("_", " "), "help": _resolve(schema, node).get("description", ""),
                           "nullable": nullable, "kind": "text"}
    types = [v.get("type") for v in variants]
    enum = [c for v in variants for c in v.get("enum", [v["const"]] if "const" in v else [])]
    if enum:
        out.update(kind="choice", choices=[{"value": c, "label": str(c)} for c in enum])
    elif "boolean" in types:
        out["kind"] = "bool"
    elif "integer" in types or "number" in types:
        out.update(kind="number", min=first.get("minimum"), max=first.get("maximum"))
    elif "string" in types and (grid := _grid(blank)):
        out.update(grid)
    elif "array" in types:
        out["kind"] = "list"
    elif "object" in types:
        shape = next(v for v in variants if v.get("type") == "object")
        if shape.get("properties"):  # a record of its own fields (a solo opponent, say): its fields inside
            inner = blank if isinstance(blank, dict) else {}
            hints = (hint or {}).get("fields", {})
            out.update(kind="group", fields=[{**field(schema, k, v, inner.get(k), hints.get(k), complete), "optional": k not in inner}
                                             for k, v in shape["properties"].items() if k in inner or not complete])
            hint = {k: v for k, v in (hint or {}).items() if k != "fields"}
        else:
            out["kind"] = "map"
            values, _ = _variants(schema, shape.get("additionalProperties") or {})
            if values and values[0].get("type") in ("integer", "number"):  # a number a key: a number box each, with the keys known
                out.update(values="number", min=values[0].get("minimum"), max=values[0].get("maximum"))
    out.update(hint or {})
    return out


def build(schema: dict[str, Any], blank: dict[str, Any], hints: dict[str, Any]) -> dict[str, Any]:
    """The form of a game's sheet: the fields the table shares and those of one player,
    in the schema's order; fields absent from the blank sheet (optional extras) last."""
    props = schema.get("properties", {})
    player_node = _resolve(schema, _variants(schema, props.get("players", {}))[0][0].get("items", {}))
    player_props = player_node.get("properties", {})
    blank_player = (blank.get("players") or [{}])[0]
    complete = bool(hints.get("blank_is_complete"))
    solo = len(blank.get("players") or []) == 1
    table = [field(schema, k, v, blank.get(k), hints.get("table", {}).get(k), complete) for k, v in props.items()
             if k not in SESSION_KEYS and (k in blank or not complete)]
    player = [field(schema, k, v, blank_player.get(k), hints.get("player", {}).get(k), complete) for k, v in player_props.items()
              if k != NAME and (k in blank_player or not complete)]
    table = [f for f in table if solo or not f.get("solo_only")]  # not offered where the sheet refuses it
    player = [f for f in player if solo or not f.get("solo_only")]
    for f in table:
        f["optional"] = f["key"] not in blank
    for f in player:
        f["optional"] = f["key"] not in blank_player
    # the words of a report's parts no field of this form names (a solo game's `king`)
    return {"table": table, "player": player, "labels": dict(hints.get("labels", {}))}


PLAYERS = "players"  # `choices_from` of a choice among the table's players


def name_players(form: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The form with every choice hinted `"choices_from": "players"` offering these names,
    and every map hinted `"keys_from": "players"` keyed by them (a value a player)."""
    def named(f: dict[str, Any]) -> dict[str, Any]:
        if f.get("choices_from") == PLAYERS:  # the players, then the hint's own choices (a claimed winner's "none")
            f = {**{k: v for k, v in f.items() if k != "choices_from"}, "kind": "picks" if f.get("kind") == "picks" else "choice",
                 "choices": [{"value": n, "label": n} for n in names] + list(f.get("choices", []))}
        if f.get("keys_from") == PLAYERS and f.get("kind") == "map":
            f = {**{k: v for k, v in f.items() if k != "keys_from"}, "keys": [{"value": n, "label": n} for n in names]}
        if f.get("kind") == "group":
            f = {**f, "fields": [named(g) for g in f["fields"]]}
        return f

    return {part: [named(f) for f in fields] if part in ("table", "player") else fields for part, fields in form.items()}


# --- a problem in the form's words -----------------------------------------------------

def _named(choice: dict[str, Any]) -> str | None:
    """The name a page shows for a choice's value, or None where the value is its own name: a
    number, a player, or a label that begins with the value (the value as the paper sheet
    prints it, with what it means: Human Harvest's `six-cyborgs: ...`)."""
    value, label = choice.get("value"), str(choice.get("label", ""))
    if not isinstance(value, str) or not value or label.startswith(value):
        return None
    return label


def _vocabulary(fields: list[dict[str, Any]], prefix: str = "") -> dict[str, dict[str, Any]]:
    """Each field of a form's part by its key (a group's fields also as `group.key`)."""
    out: dict[str, dict[str, Any]] = {}
    for f in fields:
        out[prefix + f["key"]] = f
        if f.get("kind") == "group":
            out.update(_vocabulary(f.get("fields", []), f"{prefix}{f['key']}."))
    return out


# A citation of the game's content file in a text pnp prints (`(rules.yaml rulings.unequal_leaders)`,
# `(our ruling, rules.yaml)`): where a developer looks the reading up, no words for the table.
_CITED_ALONE = re.compile(r"(?<!\s)\s*\([\w-]+\.ya?ml(?:\s+[\w.-]+)?\)")  # from a white space run's start: linear time
_CITED_AFTER = re.compile(r",\s*[\w-]+\.ya?ml(?:\s+[\w.-]+)?(?=\))")


def uncited(text: str) -> str:
    """A text of the scorer's (a ruling, a problem) without its citations of content files
    and their keys: the page says the reading, the CLI also where it is written."""
    return _CITED_AFTER.sub("", _CITED_ALONE.sub("", text))


_CLAUSE = re.compile(r"(^|: |, |\(|\b(?:expected|or|no|write|with) )$")  # what a key the sheet spells follows in a message


def said(message: str, at: list[Any], form: dict[str, Any]) -> str:
    """A `pnp score` problem in the words of the form it is shown on: a field named by its key
    as the sheet spells it (`solo.ai_cards`, `scoring_order`, `held:`) by its label (a plain
    word such as `held` only where a key stands), `key: true`/`false` of a box as ticked or
    not, `null` as empty, and a value by the name its choice shows (an id such as `line-hand`
    anywhere, a plain word such as `troll` after its key or in its own field's problem). The
    CLI keeps its words; this is only what the page shows."""
    part = "player" if at[:1] == ["players"] else "table"
    fields = {**_vocabulary(form.get("table" if part == "player" else "player", [])), **_vocabulary(form.get(part, []))}
    path = [str(x) for x in (at[2:] if part == "player" else at)]
    own = next((k for k in (".".join(path[:n]) for n in range(len(path), 0, -1)) if k in fields), None)  # the problem's field
    label = {k: str(f.get("label") or k) for k, f in fields.items()}
    names = {k: {c["value"]: n for c in f.get("choices", []) if (n := _named(c))} for k, f in fields.items()}
    ids = {v: n for k in names for v, n in names[k].items() if not v.isalpha()}  # `line-hand`, `balanced-diet/normal`: nothing else

    def key_said(key: str, value: str | None) -> str:
        f = fields[key]
        if value in ("true", "false") and f.get("kind") == "bool":
            return f"{label[key]} {'ticked' if value == 'true' else 'not ticked'}"
        return label[key] + ("" if value is None else ": " + names[key].get(value, ids.get(value, value)))

    # longest first, so that `solo.ai_cards` is read before `solo`; one pass: no name is read again
    keys = sorted(fields, key=len, reverse=True)
    word = r"[\w-]+(?:/[\w-]+)?"  # a value as a sheet writes it: `troll`, `line-hand`, `balanced-diet/normal`
    pattern = re.compile(
        r"(?<![\w.-])(?P<key>" + "|".join(map(re.escape, keys)) + r")(?::\s(?P<value>" + word + r")|(?P<colon>:)|(?![\w.-]))"
        r"|(?<![\w./-])(?P<id>" + word + r")(?![\w/-])")

    def swap(m: re.Match[str]) -> str:
        key = m.group("key")
        if key is not None:
            # a plain word (`held`, `king`) is a key only where a key stands (`Ben: held: ...`,
            # `expected king: true`, `or held: x`): not in `nor held:` or `and 1 held`
            if "_" in key or "." in key or _CLAUSE.search(m.string[:m.start()]):
                return key_said(key, m.group("value")) if m.group("value") is not None else label[key] + (m.group("colon") or "")
            return m.group(0)
        found = m.group("id")
        if found == "null":  # YAML's word for a field left empty
            return "empty"
        return ids.get(found) or (names.get(own, {}).get(found) if own else None) or found

    return uncited(pattern.sub(swap, message) if keys else message)
