"""Tasty Humans in the balance lab: options, and a finished game as a lab `Record`.

Options (`--set KEY=VALUE`): `rules=<version>` picks a rule version of rules.yaml,
`solo_level=N` the solo A.I. level, and any other dotted key changes one value of the
chosen rule version for the run, e.g. `cravings.troll.points=3` (checked by the same
schema as rules.yaml).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import yaml

from pnp.api import OptionError, PnpError, choice_named, did_you_mean
from pnp.api import PlayerRecord, Record

from .engine import SNAKE_TURNS, STRATEGIES, Setup, play

if TYPE_CHECKING:
    from pnp.api import GameContent

VERSION_KEY = "rules"
SOLO_KEY = "solo_level"


def _value(key: str, text: str) -> Any:
    """A --set value as rules.yaml would read it ("3" -> 3, "false" -> False)."""
    try:
        return yaml.safe_load(text)
    except (yaml.YAMLError, ValueError) as exc:  # ValueError: Python refuses a number of 4,300 digits or more
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise OptionError(f"--set {key}={text}: {problem}: expected a value as rules.yaml writes it "
                       "(a number, true or false, a name, [a, list]; quote it to keep it text)") from None


class TastyHumansSimulation:
    game = "tasty-humans"
    strategies = tuple(STRATEGIES)
    version_key = VERSION_KEY
    score_label = "points"
    metrics = {
        "rounds": "rounds played",
        "turns": "adventurers eaten, all players",
        "ending": "how the game ended: round (a stomach filled while eating; the round was finished) or leader-phase",
        "decided_by": "what decided the winner",
        "leader_stacks": "whether the leader stacks ran out before a stomach filled (rounds then go on without a Leader Phase)",
    }

    def __init__(self, game: "GameContent", options: dict[str, str]):
        rule_set = game.data["rules"]
        self.versions = tuple(rule_set.names())
        options = dict(options)
        given_version = options.pop(VERSION_KEY, None) or rule_set.default
        version = choice_named(self.versions, given_version)  # `rules=Published` is "published"
        if version is None:
            raise OptionError(f"--set {VERSION_KEY}={given_version}: unknown rule version: expected one of {', '.join(self.versions)}"
                              f"{did_you_mean(str(given_version), self.versions)}")
        given = options.pop(SOLO_KEY, None)
        rules = rule_set.version(version)
        # Not given: the level the rules suggest for a first solo game (rules.yaml
        # solo.first_level, F222), or pnp's where a version suggests none (simulated_level).
        first = rules.solo.default_level()
        try:
            level = first if given is None else int(given)
        except ValueError:
            raise OptionError(f"--set {SOLO_KEY}={given}: expected a whole number") from None
        levels = rules.solo.levels  # named levels; a rule set may leave them open (any N >= 0)
        if level < 0 or (levels is not None and level not in levels):
            expected = f"an A.I. level {min(levels)}-{max(levels)}" if levels else "the A.I.'s starting cards, 0 or more"
            raise OptionError(f"--set {SOLO_KEY}={level}: expected {expected}")
        changes = {key: _value(key, value) for key, value in options.items()}
        try:
            rules = rules.with_changes(changes) if changes else rules
        except ValueError as exc:
            raise OptionError(f"--set {exc}") from None
        if rules.turns_a_round != SNAKE_TURNS:
            # The engine plays the books' snake draft (F70, O75), which gives each player two turns.
            raise PnpError(f"turns_a_round: {rules.turns_a_round}: the engine plays the snake draft (published rules line 70, "
                           f"0.2.8 line 75), {SNAKE_TURNS} turns a round: expected {SNAKE_TURNS}")
        self.player_counts = tuple(sorted(rules.stomach.rows_by_players))
        # The A.I. level is chosen for a solo game (F220, O235): given, it plays one player.
        self.solo_level = None if given is None else level
        self.level = level
        self.default_players = 1 if given is not None else max(self.player_counts)
        self.setup = Setup.from_game(game, version, rules, level, changes)
        named = {**options, **({SOLO_KEY: str(level)} if given is not None else {})}
        self.label = version + "".join(f", {k}={v}" for k, v in named.items())

    def check_players(self, players: int) -> None:
        """The A.I. plays only in a solo game: a level given for more players means nothing."""
        if self.solo_level is not None and players != 1:
            raise OptionError(f"--set {SOLO_KEY}={self.solo_level}: the A.I. level is for a solo game, not {players} players: "
                           f"expected --players 1 (or no {SOLO_KEY})")

    def setting(self, players: int) -> str:
        """The level a solo game plays when none was given (rules.yaml solo.first_level or
        solo.simulated_level): named in the report, as a given one is in the label."""
        return f"{SOLO_KEY}={self.level}" if players == 1 and self.solo_level is None else ""

    def play(self, seed: int, strategies: list[str], sheet: bool = False) -> Record:
        r = play(self.setup, seed, strategies)
        players = []
        for seat, s in enumerate(r.scores):
            sources: dict[str, float] = {f"leader {l.id}": l.points for l in s.leaders}
            sources.update({"craving": s.craving, "damage": s.damage_points, "king": s.king_points})
            players.append(PlayerRecord(seat, r.strategies[seat], s.total, seat in r.winners,
                                        {"monster": s.monster}, sources))
        metrics: dict[str, Any] = {"rounds": r.rounds, "turns": r.turns, "ending": r.ending, "decided_by": r.decided_by,
                                   "leader_stacks": "ran out" if r.stacks_ran_out else "lasted"}
        if r.solo is not None:
            metrics["ai_score"] = r.solo.ai_total
        return Record(seed, players, metrics, r.sheet if sheet else None)


def make(game: "GameContent", options: dict[str, str]) -> TastyHumansSimulation:
    return TastyHumansSimulation(game, options)
