"""The result of scoring a Dietrick-taking sheet, for the terminal and as JSON.

Follows the `pnp score` report protocol: `to_json()`, `render(console)` and `exit_code`
(0, or 1 when a value the table claimed differs from the computed one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table

from pnp.api import markup
from pnp.api import ScoreReport

from .scoring import Result, Standing


@dataclass(frozen=True)
class Report(ScoreReport):
    result: Result
    game: str = "dietrick-taking"

    @property
    def winner_claim_ok(self) -> bool | None:
        claimed = self.result.sheet.claimed_winner
        if claimed is None:
            return None
        return sorted(claimed) == sorted(self.result.winners)

    @property
    def mismatches(self) -> list[str]:
        """One sentence per claimed value that differs from the computed one."""
        return [line for _, line in self._claims()]

    def _claims(self) -> list[tuple[tuple[Any, ...], str]]:
        """Each wrong claim with the sheet field holding it: a player's `claimed`, or
        `claimed_winner`."""
        entries = self.result.sheet.entries  # the players in sheet order, then Fuzz (who claims nothing)
        out: list[tuple[tuple[Any, ...], str]] = [
            (("players", next(i for i, e in enumerate(entries) if e is s.entry), "claimed"),
             f"{s.entry.name}: claimed difference {s.entry.claimed}, computed "
             + (f"{s.difference}" if s.difference is not None else f"none (disqualified: {s.disqualified})"))
            for s in self.result.standings
            if s.claim_ok is False
        ]
        if self.winner_claim_ok is False:
            claimed = ", ".join(self.result.sheet.claimed_winner or ()) or "none"
            out.append((("claimed_winner",), f"claimed winner {claimed}, computed {_names(self.result.winners)}"))
        return out

    @property
    def exit_code(self) -> int:
        return 1 if self.mismatches else 0

    def to_json(self) -> dict[str, Any]:
        sheet = self.result.sheet
        return {
            "game": self.game,
            "variant": sheet.variant,
            "solo": sheet.solo,
            "scoring_order": list(sheet.order),
            "players": [_player_json(s) for s in self.result.standings],
            "winners": list(self.result.winners),
            "decided_by": self.result.decided_by,
            "ruling": self.result.ruling or None,
            "claimed_winner": None if sheet.claimed_winner is None else list(sheet.claimed_winner),
            "claimed_winner_ok": self.winner_claim_ok,
            "mismatches": self.mismatches,
            **({} if self.result.wins is None else
               {"long_game": {"wins": self.result.wins, "winners": list(self.result.match_winners)}}),
        }

    def render(self, console: Console) -> None:
        sheet = self.result.sheet
        unit = "squares" if sheet.variant == "beginner" else "printed numbers"
        title = (f"Dietrick-taking, {sheet.variant}{' solo against Fuzz' if sheet.solo else ''}: "
                 f"cards {' '.join(map(str, sheet.order))}, top/bottom are {unit}")
        table = Table("player", "yellow", "blue", "top", "bottom", "diff", "claimed", "result", title=markup(title))
        for s in sorted(self.result.standings, key=lambda s: (s.rank is None, s.rank or 0)):
            table.add_row(
                markup(s.entry.name),
                str(s.entry.yellow),
                str(s.entry.blue),
                _dash(s.top),
                _dash(s.bottom),
                _dash(s.difference),
                _claim(s),
                markup(_outcome(s)),
            )
        console.print(table)
        console.print(f"winner: {markup(_names(self.result.winners))} ({markup(self.result.decided_by)})")
        if self.result.ruling:
            console.print(markup(f"ruling: {self.result.ruling}"))
        if self.result.wins is not None:
            tally = ", ".join(f"{name} {n}" for name, n in self.result.wins.items())
            verdict = f"won by {_names(self.result.match_winners)}" if self.result.match_winners else "nobody has won it yet: play again"
            console.print(markup(f"long game: wins {tally}; {verdict}"))
        for line in self.mismatch_lines():
            console.print(markup(line), style="bold red")

    def mismatch_lines(self) -> list[str]:
        return [line for _, line in self.mismatch_places()]

    def mismatch_places(self) -> list[tuple[tuple[Any, ...], str]]:
        return [(at, f"mismatch: {line}") for at, line in self._claims()]


def _player_json(s: Standing) -> dict[str, Any]:
    return {
        "name": s.entry.name,
        "fuzz": s.entry.fuzz,
        "yellow": s.entry.yellow,
        "blue": s.entry.blue,
        "top": s.top,
        "bottom": s.bottom,
        "difference": s.difference,
        "disqualified": s.disqualified,
        "rank": s.rank,
        "winner": s.winner,
        "claimed": s.entry.claimed,
        "claim_ok": s.claim_ok,
    }


def _names(names: tuple[str, ...]) -> str:
    return " and ".join(names) if names else "nobody"


def _dash(v: int | None) -> str:
    return "-" if v is None else str(v)


def _claim(s: Standing) -> str:
    if s.entry.claimed is None:
        return ""
    return f"{s.entry.claimed} ✓" if s.claim_ok else f"{s.entry.claimed} ✗"


def _outcome(s: Standing) -> str:
    if s.disqualified:
        return f"disqualified ({s.disqualified})"
    return "winner" if s.winner else f"rank {s.rank}"
