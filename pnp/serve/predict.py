"""What the balance lab (`pnp simulate`) predicts for the rules a group of logged games was
played by, to set beside the table's results: wins by seat and the mean score by each
label the game's simulation gives a player (Tasty Humans: the monster)."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from ..errors import PnpError

if TYPE_CHECKING:
    from ..load.content import Project

MAX_GAMES = 200  # a request plays at most this many games (a few seconds)


def predict(project: "Project", game: str, rules: str | None, changes: dict[str, Any], players: int, games: int) -> dict[str, Any]:
    """Play `games` games (seed 0: the same every time) in this process and summarise them."""
    from ..simulate import simulate

    if not 1 <= games <= MAX_GAMES:
        raise PnpError(f"games: {games}: expected 1 to {MAX_GAMES}")
    # as `pnp simulate --set` takes them: text as it is, anything else as YAML (JSON is YAML)
    options = {key: value if isinstance(value, str) else json.dumps(value) for key, value in changes.items()}
    if rules is not None:
        options["rules"] = rules
    run = simulate(project, game, games=games, players=players, options=options, seed=0, jobs=1)
    wins = [0.0] * players
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for record in run.records:
        winners = [p for p in record.players if p.win]
        for p in winners:  # a shared win counts as a share
            wins[p.seat] += 1 / len(winners)
        for p in record.players:
            for tag, value in p.tags.items():
                if p.score is not None:
                    scores[tag][value].append(p.score)
    return {
        "game": game, "rules": rules, "changes": changes, "players": players, "games": len(run.records), "strategies": run.strategies,
        "win_rate_by_seat": [round(w / len(run.records), 3) for w in wins],
        "mean_score_by": {tag: {value: round(sum(v) / len(v), 2) for value, v in sorted(values.items())} for tag, values in sorted(scores.items())},
    }

