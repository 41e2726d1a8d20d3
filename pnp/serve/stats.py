"""Statistics over logged games, from their `pnp score --json` reports: wins by seat, and
where the reports itemise them, totals by monster and points by leader."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any, Iterable

from .log import Game


def _spread(values: list[int]) -> dict[str, Any]:
    return {"games": len(values), "min": min(values), "mean": round(sum(values) / len(values), 2), "max": max(values)}


def statistics(games: Iterable[Game]) -> list[dict[str, Any]]:
    """One summary per game, rule version, rule changes, content and player count: results
    before and after a change are never mixed."""
    groups: dict[tuple[str, str, str, str, int], list[Game]] = defaultdict(list)
    for g in games:
        groups[(g.game, g.rules or "", json.dumps(g.changes, sort_keys=True), g.digest, len(g.players))].append(g)
    out = []
    for (name, rules, changes, digest, n), logged in sorted(groups.items()):
        seats = [0] * n
        by_monster: dict[str, list[int]] = defaultdict(list)
        by_leader: dict[str, list[int]] = defaultdict(list)
        for g in logged:
            winners = set(g.report.get("winners") or [])
            for winner in winners:  # seats from the players in seat order (a report may list them ranked)
                if winner in g.players:
                    seats[g.players.index(winner)] += 1
            for p in g.report.get("players") or []:
                if not isinstance(p, dict):
                    continue
                if isinstance(p.get("monster"), str) and isinstance(p.get("total"), int):
                    by_monster[p["monster"]].append(p["total"])
                for leader in p.get("leaders") or []:
                    if isinstance(leader, dict) and isinstance(leader.get("points"), int):
                        by_leader[str(leader.get("id"))].append(leader["points"])
        out.append({
            "game": name, "rules": rules or None, "changes": json.loads(changes), "digest": digest, "players": n,
            # when they were played: what tells a player one content of the game from another (the digest, a tool)
            "played": [min(g.played for g in logged), max(g.played for g in logged)],
            "games": len(logged), "wins_by_seat": seats,
            "by_monster": {k: _spread(v) for k, v in sorted(by_monster.items())},
            "by_leader": {k: _spread(v) for k, v in sorted(by_leader.items())},
        })
    return out
