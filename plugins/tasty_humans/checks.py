"""Cross-file checks of the Tasty Humans content, run after every file passed its schema.

Content must work under every rule version, so tiles and classes are checked against
what all versions share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, get_args

from pnp.api import ContentError

from .models import (
    EMPTY,
    LEADER_TYPE,
    TYPED_KINDS,
    AdventurersFile,
    LeaderKind,
    LeadersFile,
    MonstersFile,
    RuleSet,
    RuleVersion,
    _placeholders,
)

if TYPE_CHECKING:
    from pnp.api import GameContent



def check(game: "GameContent") -> list[ContentError]:
    """Every cross-file problem of the game, each located in its file."""
    rules: RuleSet = game.data["rules"]
    versions = [rules.version(n) for n in rules.names()]
    errors: list[ContentError] = []
    errors += _check_adventurers(game, game.data["adventurers"], versions, rules.version())
    errors += _check_leaders(game, game.data["leaders"], versions)
    errors += _check_monsters(game, game.data["monsters"], rules)
    errors += _check_glyphs(game, rules)
    return errors


def _check_glyphs(game: "GameContent", rules: RuleSet) -> list[ContentError]:
    """Every tile type and class a rule version names has the picture its pieces print
    (a new type would otherwise print as a grey square, silently)."""
    from .glyphs import CLASS_SHAPES, TILE_COLOURS, TILE_SHAPES

    errors: list[ContentError] = []
    for name in rules.names():
        version = rules.version(name)
        for key, drawn, what, table in (("tiles", TILE_SHAPES.keys() & TILE_COLOURS.keys(), "tile type", "TILE_SHAPES and TILE_COLOURS"),
                                        ("classes", CLASS_SHAPES.keys(), "class", "CLASS_SHAPES")):
            for kind in getattr(version, key):
                if kind not in drawn:
                    origin = next(v for v in [name, *_ancestors(rules, name)] if kind in rules.versions[v].get(key, {}))
                    error = game.error("rules", ("versions", origin, key, kind),
                                       f"{what} {kind!r} has no picture: expected one of {', '.join(sorted(drawn))}, or add it to {table} in plugins/tasty_humans/glyphs.py")
                    if error not in errors:
                        errors.append(error)
    return errors


def _common(items: list[list[str]]) -> list[str]:
    """Entries of the first list that every list holds, in the first list's order."""
    return [x for x in items[0] if all(x in other for other in items[1:])]


def _duplicates(game: "GameContent", stem: str, key: str, records: list[Any], field: str, what: str) -> list[ContentError]:
    errors: list[ContentError] = []
    first: dict[Any, int] = {}
    for i, rec in enumerate(records):
        value = getattr(rec, field)
        if value in first:
            line = game.docs[stem].where((key, first[value], field))[0]
            errors.append(game.value_error(stem, (key, i, field), f"duplicate {what} {value!r}, first used on line {line}: expected each {what} once"))
        else:
            first[value] = i
    return errors


def _check_adventurers(game: "GameContent", data: AdventurersFile, versions: list[RuleVersion], default: RuleVersion) -> list[ContentError]:
    errors: list[ContentError] = []
    cards = data.adventurers
    if len(cards) != default.deck.adventurers:
        errors.append(game.error("adventurers", ("adventurers",), f"found {len(cards)} adventurers: expected exactly {default.deck.adventurers} (deck.adventurers in rules.yaml)"))
    errors += _duplicates(game, "adventurers", "adventurers", cards, "id", "adventurer id")
    errors += _duplicates(game, "adventurers", "adventurers", cards, "name", "adventurer name")

    basic = _common([v.basic_types() for v in versions])
    symbols = {default.tiles[t].symbol: t for t in basic if all(v.tiles[t].symbol == default.tiles[t].symbol for v in versions)}
    allowed = ", ".join(f"{s} ({t})" for s, t in symbols.items()) + f", or '{EMPTY}' for an empty square"
    classes = _common([list(v.classes) for v in versions])

    for i, card in enumerate(cards):
        at = ("adventurers", i)
        if card.class_ not in classes:
            errors.append(game.value_error("adventurers", at + ("class",), f"unknown class {card.class_!r}: expected one of {', '.join(classes)}"))
        errors += _check_shape(game, at + ("shape",), card.shape, symbols, allowed, default.deck.shape_squares)
        card._symbols = symbols  # lets templates call cells() without passing the rules
    return errors


def _check_shape(game: "GameContent", at: tuple, shape: list[str], symbols: dict[str, str], allowed: str, sizes: tuple[int, int]) -> list[ContentError]:
    for r, row in enumerate(shape):
        bad = next((s for s in row if s != EMPTY and s not in symbols), None)
        if bad is not None:
            return [game.error("adventurers", at + (r,), f"unknown tile symbol {bad!r} in shape: expected {allowed}")]
    widths = [len(row) for row in shape]
    if len(set(widths)) > 1:
        return [game.error("adventurers", at, f"shape rows have lengths {', '.join(map(str, widths))}: expected rows of equal length ('{EMPTY}' pads an empty square)")]
    cells = {(r, c) for r, row in enumerate(shape) for c, s in enumerate(row) if s != EMPTY}
    lo, hi = sizes
    expected = f"expected {lo} to {hi} orthogonally connected squares"
    if not lo <= len(cells) <= hi:
        squares = f"{len(cells)} square" + ("" if len(cells) == 1 else "s")
        return [game.error("adventurers", at, f"shape has {squares}: {expected}")]
    if not _connected(cells):
        return [game.error("adventurers", at, f"shape is not connected: {expected} (touching corners do not connect)")]
    rows_used = {r for r, _ in cells}
    cols_used = {c for _, c in cells}
    if rows_used != set(range(len(shape))) or cols_used != set(range(widths[0])):
        return [game.error("adventurers", at, f"shape has a row or column of only '{EMPTY}': expected the shape trimmed to its squares")]
    return []


def _connected(cells: set[tuple[int, int]]) -> bool:
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


def leader_ids(basic_types: list[str]) -> list[str]:
    """Every valid leader id: <kind>-<type> for typed kinds (sight also -leader), else <kind>."""
    ids = []
    for kind in get_args(LeaderKind):
        if kind in TYPED_KINDS:
            ids += [f"{kind}-{t}" for t in basic_types]
            if kind == "sight":
                ids.append(f"{kind}-{LEADER_TYPE}")
        else:
            ids.append(kind)
    return ids


def _check_leaders(game: "GameContent", data: LeadersFile, versions: list[RuleVersion]) -> list[ContentError]:
    errors: list[ContentError] = []
    leaders = data.leaders
    basic = _common([v.basic_types() for v in versions])
    known = leader_ids(basic)
    for i, leader in enumerate(leaders):
        at = ("leaders", i)
        if leader.type is not None and leader.type != LEADER_TYPE and leader.type not in basic:
            errors.append(game.value_error("leaders", at + ("type",), f"unknown tile type {leader.type!r}: expected one of {', '.join(basic)}" + (f" or {LEADER_TYPE}" if leader.kind == "sight" else "")))
            continue
        expected = f"{leader.kind}-{leader.type}" if leader.type else leader.kind
        if leader.id == expected:
            continue
        if leader.id in known:
            errors.append(game.value_error("leaders", at + ("id",), f"id {leader.id!r} does not match kind {leader.kind!r}" + (f" and type {leader.type!r}" if leader.type else "") + f": expected {expected!r}"))
        else:
            errors.append(game.value_error("leaders", at + ("id",), f"unknown leader id {leader.id!r}: expected {expected!r} (ids are <kind>-<type> for {', '.join(TYPED_KINDS)}, else <kind>)"))
    errors += _duplicates(game, "leaders", "leaders", leaders, "id", "leader id")
    wanted = versions[0].deck.leaders
    if len(leaders) != wanted:
        missing = [x for x in known if x not in {ld.id for ld in leaders}]
        note = f" (missing: {', '.join(missing)})" if missing else ""
        errors.append(game.error("leaders", ("leaders",), f"found {len(leaders)} leaders: expected exactly {wanted} (deck.leaders in rules.yaml){note}"))
    return errors


def _check_monsters(game: "GameContent", data: MonstersFile, rules: RuleSet) -> list[ContentError]:
    errors = _duplicates(game, "monsters", "monsters", data.monsters, "id", "monster id")
    ids = [m.id for m in data.monsters]
    for name in rules.names():
        cravings = rules.version(name).cravings
        for i, monster in enumerate(data.monsters):
            if monster.id not in cravings:
                errors.append(game.value_error("monsters", ("monsters", i, "id"), f"monster {monster.id!r} has no craving in rule version {name!r}: expected cravings: {{{monster.id}: {{points: N}}}} in rules.yaml"))
        for craving in cravings:
            if craving not in ids:
                origin = next(v for v in [name, *_ancestors(rules, name)] if craving in rules.versions[v].get("cravings", {}))
                errors.append(game.error("rules", ("versions", origin, "cravings", craving), f"craving {craving!r} has no monster: expected one of {', '.join(ids)} (monsters.yaml)"))
    # A scorer that reads `overlap` changes the score with it: the printed craving must say
    # which way it is set, or a switch in rules.yaml would change points and not the text.
    from .craving_scoring import CHALLENGE_READS, READS_OVERLAP

    for i, monster in enumerate(data.monsters):
        if monster.id in READS_OVERLAP and monster.overlap is None:
            errors.append(game.value_error("monsters", ("monsters", i, "text"), f"monster {monster.id!r}: its craving scores by cravings.{monster.id}.overlap but "
                                           "the text does not print it: expected {overlap} in text and overlap: {true: ..., false: ...}"))
        # Likewise the solo challenge's numbers (rules.yaml solo.challenge_numbers): printed
        # through their placeholders, or the card could drift from what the scorer checks.
        printed = _placeholders(monster.challenge)
        for name in CHALLENGE_READS.get(monster.id, ()):
            if name not in printed:
                errors.append(game.value_error("monsters", ("monsters", i, "challenge"), f"monster {monster.id!r}: its solo challenge checks "
                                               f"solo.challenge_numbers.{name} but the text does not print it: expected {{{name}}} in challenge"))
    return errors


def _ancestors(rules: RuleSet, name: str) -> list[str]:
    out = []
    while "extends" in rules.versions[name]:
        name = rules.versions[name]["extends"]
        out.append(name)
    return out
