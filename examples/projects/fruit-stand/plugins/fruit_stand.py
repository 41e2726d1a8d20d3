"""Fruit Stand's Python: the end-of-game scorer, the one thing the game cannot say in YAML.

It lives with the game (game.yaml: `plugin: plugins/fruit_stand.py`); pnp loads it from
the project folder. Every number it adds comes from editions.yaml, so a rule change is a
YAML edit. The sheet it scores (see sheets/example.yaml):

    game: fruit-stand
    edition: family              # optional: the default edition otherwise
    players:
      - name: Ann
        orders: [pie, jam]       # order cards filled
        kept: [apple-3, pear-1]  # fruit cards left in hand
        total: 13                # optional: the total written down, checked
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.table import Table

from pnp.api import ContentError, PnpError
from pnp.api import check_value
from pnp.api import GamePlugin
from pnp.api import ScoreReport

SHEET_KEYS = {"game", "edition", "players"}
PLAYER_KEYS = {"name", "orders", "kept", "total"}


def score_orders(player: dict[str, Any], orders: dict[str, dict], rules: dict[str, Any]) -> int:
    """RULES.md, Scoring 1: each filled order scores its points."""
    return sum(orders[o]["points"] for o in player["orders"])


def score_sets(player: dict[str, Any], cards: dict[str, dict], rules: dict[str, Any]) -> int:
    """RULES.md, Scoring 2: `set_bonus` per complete set of one kept card of every fruit."""
    counts: dict[str, int] = {}
    for card in player["kept"]:
        fruit = cards[card]["fruit"]["id"]
        counts[fruit] = counts.get(fruit, 0) + 1
    fruits = {c["fruit"]["id"] for c in cards.values()}
    sets = min(counts.get(f, 0) for f in fruits) if fruits else 0
    return sets * rules["set_bonus"]


SCORERS = {"orders": score_orders, "sets": score_sets}


@dataclass
class Report(ScoreReport):
    game: str
    edition: str
    rows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return 1 if any(r["claimed"] is not None and r["claimed"] != r["total"] for r in self.rows) else 0

    @property
    def winners(self) -> list[str]:
        """RULES.md, Scoring 3: the highest total; a tie shares the win."""
        best = max((r["total"] for r in self.rows), default=None)
        return [r["name"] for r in self.rows if r["total"] == best]

    def to_json(self) -> dict[str, Any]:  # `winners` and `players`: what pnp log reads
        return {"game": self.game, "edition": self.edition, "winners": self.winners, "players": self.rows}

    def render(self, console) -> None:
        table = Table("player", *SCORERS, "total", "claimed", title=f"Fruit Stand ({self.edition} edition)")
        for r in self.rows:
            mark = "" if r["claimed"] is None else ("ok" if r["claimed"] == r["total"] else f"{r['claimed']} (wrong)")
            table.add_row(r["name"], *(str(r["parts"][k]) for k in SCORERS), str(r["total"]), mark)
        console.print(table)
        console.print(f"Winner: {' and '.join(self.winners)}", markup=False)


def _ids(doc, at: tuple, value: Any, known: dict[str, Any], what: str, errors: list[ContentError]) -> list[str]:
    if not isinstance(value, list):
        errors.append(doc.error(at, f"expected a list of {what} ids"))
        return []
    for i, ident in enumerate(value):
        if ident not in known:
            errors.append(doc.error(at + (i,), f"unknown {what} {ident!r}: expected one of {', '.join(known)}"))
    return [v for v in value if v in known]


def score(game, doc) -> Report:
    """Check the sheet (every problem located in it) and score each player."""
    sheet = doc.data
    errors = [doc.error((k,), f"unknown key {k!r}: expected one of {', '.join(sorted(SHEET_KEYS))}") for k in sheet if k not in SHEET_KEYS]
    options = game.option_defaults()
    if "edition" in sheet:
        value, problem = check_value(game, "edition", game.manifest.options["edition"], sheet["edition"])
        if problem:
            errors.append(doc.error(("edition",), problem.message))
        else:
            options["edition"] = value
    players = sheet.get("players")
    if not isinstance(players, list) or not players:
        errors.append(doc.error(("players",) if "players" in sheet else (), "expected `players:`, a list with one entry per player"))
        raise PnpError(errors)
    names = game.namespace(options)
    rules = names["editions"]
    orders = {o["id"]: o for o in names["orders"]}
    cards = {c["id"]: c for c in names["deck"]}
    rows = []
    for i, player in enumerate(players):
        at = ("players", i)
        if not isinstance(player, dict):
            errors.append(doc.error(at, "expected a mapping with name, orders, kept"))
            continue
        errors += [doc.error(at + (k,), f"unknown key {k!r}: expected one of {', '.join(sorted(PLAYER_KEYS))}") for k in player if k not in PLAYER_KEYS]
        clean = {
            "orders": _ids(doc, at + ("orders",), player.get("orders", []), orders, "order", errors),
            "kept": _ids(doc, at + ("kept",), player.get("kept", []), cards, "fruit card", errors),
        }
        claimed = player.get("total")
        if claimed is not None and (isinstance(claimed, bool) or not isinstance(claimed, int)):
            errors.append(doc.error(at + ("total",), f"total: expected a whole number, got {claimed!r}"))
            claimed = None
        parts = {"orders": score_orders(clean, orders, rules), "sets": score_sets(clean, cards, rules)}
        rows.append({"name": str(player.get("name", f"player {i + 1}")), "parts": parts, "total": sum(parts.values()), "claimed": claimed})
    if errors:
        raise PnpError(errors)
    return Report(game.name, options["edition"], rows)


PLUGIN = GamePlugin(score=score, provides={"scorers": SCORERS})
