"""`pnp serve`'s entry form for a Tasty Humans sheet: choices from the content (rule
versions with what each changes, leaders, monsters, stomach tiles, solo challenges, the
A.I.'s adventurers), so
the table taps instead of typing."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnp.api import GameContent


def _flat(value: Any, at: str = "") -> dict[str, Any]:
    """A nested mapping as {dotted.path: value}."""
    if not isinstance(value, dict):
        return {at: value}
    out: dict[str, Any] = {}
    for key, inner in value.items():
        out.update(_flat(inner, f"{at}.{key}" if at else str(key)))
    return out


def setting_words(settings: dict[str, Any], key: str) -> tuple[Any, str | None]:
    """The words of a rules.yaml key (reference.yaml `settings`: the key itself, else the
    pattern whose `*` steps match it, the most exact first) and the step a `*` stood for;
    (None, None) for a key with none."""
    steps = key.split(".")
    found = [(p, w) for p, w in settings.items()
             if len(p.split(".")) == len(steps) and all(a in ("*", b) for a, b in zip(p.split("."), steps))]
    if not found:
        return None, None
    pattern, words = min(found, key=lambda pw: pw[0].count("*"))
    star = next((b for a, b in zip(pattern.split("."), steps) if a == "*"), None)
    return (words if words is not None else False), star


def differences(base: dict[str, Any], other: dict[str, Any], settings: dict[str, Any] | None = None,
                names: dict[str, str] | None = None) -> list[str]:
    """What `other` changes from `base`, one `what: base value → other value` line each, in
    the game's words (`settings`, reference.yaml: what each rules.yaml key is; `names`: a
    monster's or tile's printed name for a `*` step; the tie-break's steps as `pnp score`
    says them); a key without words keeps its rules.yaml path."""
    from .scoring import DECIDED

    a, b = _flat(base), _flat(other)
    settings = settings or {}
    names = names or {}

    def shown(values: dict[str, Any], key: str, words: Any) -> str:
        if key not in values or values[key] is None:
            return "none"
        value = values[key]
        if key == "tie_break" and isinstance(value, list):
            return ", then ".join(str(DECIDED.get(step, step)) for step in value)
        named = dict(getattr(words, "values", {}) or {})
        if getattr(words, "names", None) == "classes":
            named = {**{k: str(v) for k, v in values_of(values, "classes").items()}, **named}
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, (list, tuple)):
            return ", ".join(named.get(str(v), str(v)) for v in value)
        if isinstance(value, str):
            return named.get(value, value)
        return json.dumps(value, ensure_ascii=False)

    out = []
    for key in sorted(set(a) | set(b)):
        if a.get(key) == b.get(key):
            continue
        words, star = setting_words(settings, key)
        if words is False:  # said by another key (a ruling's `says`), or never listed (the title)
            continue
        label = key if words is None else str(getattr(words, "label", words)).replace("{name}", names.get(star or "", star or ""))
        out.append(f"{label}: {shown(a, key, words)} → {shown(b, key, words)}")
    return out


def values_of(flat: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The keys of a flattened mapping under `prefix.`, without it."""
    return {k.removeprefix(prefix + "."): v for k, v in flat.items() if k.startswith(prefix + ".")}


def _rule_versions(game: "GameContent") -> list[dict[str, Any]]:
    """Every rule version, with what it changes from the default one."""
    rule_set = game.data["rules"]
    base = rule_set.version(None)
    # a `*` step by its printed name: a monster's (monsters.yaml), a tile's (rules.yaml tiles)
    names = {m.id: m.name for m in game.data["monsters"].monsters}
    for name in rule_set.names():
        names.update({k: t.name for k, t in rule_set.version(name).tiles.items()})
    settings = game.data["reference"].settings
    return [{"value": name, "label": rule_set.version(name).title,
             "differences": differences(base.model_dump(by_alias=True), rule_set.version(name).model_dump(by_alias=True), settings, names),
             "base": base.title}
            for name in rule_set.names()]


def sheet_form(game: "GameContent", rules: str | None, players: int) -> dict[str, Any]:
    rule_set = game.data["rules"]
    version = rule_set.version(rules)
    words = game.data["reference"].solo.challenges
    # each choice as the components print it (a leader tile's title, a monster board's name):
    # the sheet keeps the ids, the page shows the names
    leaders = [{"value": l.id, "label": l.title} for l in game.data["leaders"].leaders]
    monsters = [{"value": m.id, "label": m.name} for m in game.data["monsters"].monsters]
    slots = version.leaders_max(players) if players in version.stomach.rows_by_players else 0
    palette = [{"symbol": t.symbol, "label": t.name} for t in version.tiles.values()]
    palette += [{"symbol": str(k), "label": f"leader {k}", "leader": k} for k in range(1, slots + 1)]
    # the Balanced Diet as the solo card heads it (reference.yaml solo.challenges), its thresholds rules.yaml's;
    # the monster's as the 1-player scoring sheet ticks it ("Monster challenge met")
    challenges = [{"value": f"balanced-diet/{d}", "label": f"{words.balanced_diet.heading} ({d}, {points})"}
                  for d, points in (version.solo.balanced_diet or {}).items()]
    challenges += [{"value": "monster", "label": "Monster challenge"}] if version.solo.monster_challenges else []
    levels = version.solo.levels
    # the A.I.'s cards as printed (name and class), tapped from a list in name order; the class
    # in this version's words (rules.yaml `classes`: 0.2.8 says General and No Type, O109, O237)
    cards = sorted(game.data["adventurers"].adventurers, key=lambda a: a.name.casefold())
    names = version.classes
    solo: dict[str, Any] = {"challenge": {"kind": "choice", "label": "challenge", "help": "the solo challenge played, if any", "choices": challenges},
                            "ai_cards": {"kind": "picks", "label": "A.I.'s cards", "help": "every adventurer the A.I. holds at the end",
                                         "choices": [{"value": a.id, "label": f"{a.name} ({names.get(a.class_, a.class_)})"} for a in cards]}}
    if levels:
        solo["level"] = {"kind": "choice", "label": "A.I. level",
                         "choices": [{"value": k, "label": f"{k}: {name}"} for k, name in sorted(levels.items())]}
    else:
        solo["level"] = {"label": "A.I. level"}
    return {
        "rules": _rule_versions(game),
        # The blank sheet (sheet.template) has every field of this version and player
        # count: king_token only where seat order counts from the token (asks_king_token),
        # king only with two or more players; the form offers exactly those.
        "blank_is_complete": True,
        "labels": {"king": "Village King"},  # a solo game's report has its (empty) part, but no field
        # each field's help in the page's words: the schema's speaks of ids and YAML files
        "table": {"solo": {"label": "solo game", "help": "the A.I. opponent", "fields": solo},
                  "ending": {"label": "the game ended", "help": "left empty, pnp works out which fits the boards",
                             # in the paper scoring sheet's words (reference.yaml endings; published F184-186, 0.2.8 O191-193)
                             "choices": [{"value": k, "label": e.label} for k, e in game.data["reference"].endings.items()]},
                  "king_token": {"kind": "choice", "label": "Village King token", "choices_from": "players",
                                 "help": "when several players filled their stomachs at once, who holds the token itself: "
                                         "the last tie-break counts seats clockwise from it (tasty-humans-rules-0.2.8.txt "
                                         "line 215); left empty, the first of them in seat order"}},
        "player": {
            "monster": {"kind": "choice", "label": "monster", "help": "your monster board", "choices": monsters},
            "king": {"label": "Village King"},
            "held": {"kind": "choice", "label": version.leader_space, "help": f"the leader still in the {version.leader_space}, never eaten",
                     "choices": leaders},
            "leaders": {"kind": "slots", "label": "leaders", "help": "the leader tile for each number in the stomach",
                        "choices": leaders, "slots": list(range(1, slots + 1))},
            "stomach": {"label": "stomach", "help": "tap a square, then its tile, as it lies in the stomach (top row first)",
                        "palette": palette, "labels_from": "leaders"},
            "claimed": {"label": "claimed total"},
        },
    }
