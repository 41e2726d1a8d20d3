"""Who won a game of Dietrick-taking, from the final marker positions.

Each participant's top and bottom numbers are the numbers printed on the squares their
yellow and blue markers stand on, with the scoring cards in the order laid at the
table. The smallest difference wins; ties go to the higher bottom number, then the
higher top number, then the victory is shared. A participant whose yellow or blue
marker never moved is disqualified. The beginner variant counts squares instead of
printed numbers (its tie-breaks then compare squares too, since it ignores the numbers:
our reading, scoring.yaml rulings.beginner_tie, which the report prints when it decides).
Solo: the player against Fuzz, who wins every tie of difference.
Long Game (rules line 87): with the wins before this game on the sheet, whoever reaches
`long_game_wins` wins the match. Our choice where the rules are silent: every player of a
shared victory counts a win, and players who reach it together share the match.
"""

from __future__ import annotations

from dataclasses import dataclass

from .models import ScoringFile
from .sheet import Entry, Sheet

# Names of the rule that decided the game, in the order they are tried.
DIFFERENCE = "smallest difference"
BOTTOM = "higher bottom number"
TOP = "higher top number"
BOTTOM_SQUARE = "higher bottom square"  # Beginner Class: squares, not numbers (rulings.beginner_tie)
TOP_SQUARE = "higher top square"
SHARED = "shared victory"
DISQUALIFICATION = "only participant not disqualified"
FUZZ_TIE = "Fuzz wins ties"
NOBODY = "everyone disqualified"


@dataclass(frozen=True)
class Standing:
    entry: Entry
    top: int | None  # printed number (beginner: square) under the yellow marker
    bottom: int | None  # ... under the blue marker
    difference: int | None  # None when disqualified
    disqualified: str | None  # why, or None
    rank: int | None = None  # 1 = winner(s); None when disqualified
    winner: bool = False

    @property
    def claim_ok(self) -> bool | None:
        if self.entry.claimed is None:
            return None
        return self.entry.claimed == self.difference


@dataclass(frozen=True)
class Result:
    sheet: Sheet
    standings: tuple[Standing, ...]
    winners: tuple[str, ...]
    decided_by: str
    wins: dict[str, int] | None = None  # Long Game: wins after this game
    match_winners: tuple[str, ...] = ()  # Long Game: who has won it (empty: play on)
    ruling: str = ""  # scoring.yaml's `says` of a ruling of ours that decided the winner


def standing(entry: Entry, sheet: Sheet, scoring: ScoringFile) -> Standing:
    """Top and bottom numbers, difference and disqualification of one participant."""
    unmoved = [row for row in ("yellow", "blue") if getattr(entry, row) == 0]
    if unmoved:
        why = f"{unmoved[0]} marker never moved" if len(unmoved) == 1 else "neither marker moved"
        return Standing(entry, None, None, None, why)
    if sheet.variant == "beginner":
        top, bottom = entry.yellow, entry.blue
    else:
        order = list(sheet.order[:-1])
        top = scoring.track(order, "yellow")[entry.yellow - 1]
        bottom = scoring.track(order, "blue")[entry.blue - 1]
    return Standing(entry, top, bottom, abs(top - bottom), None)


def _key(s: Standing) -> tuple[int, int, int]:
    assert s.difference is not None and s.top is not None and s.bottom is not None
    return (s.difference, -s.bottom, -s.top)


def _decided_by(best: list[Standing], rivals: list[Standing]) -> str:
    """Which rule separated the winners from the best of the rest."""
    if len(best) > 1:
        return SHARED
    if not rivals:
        return DISQUALIFICATION
    w, r = _key(best[0]), min(_key(s) for s in rivals)
    if w[0] != r[0]:
        return DIFFERENCE
    return BOTTOM if w[1] != r[1] else TOP


def score(sheet: Sheet, scoring: ScoringFile) -> Result:
    """Rank every participant and name the winner(s)."""
    all_ = [standing(e, sheet, scoring) for e in sheet.entries]
    eligible = [s for s in all_ if s.disqualified is None]
    if not eligible:
        return _long_game(Result(sheet, tuple(all_), (), NOBODY), scoring)
    if sheet.solo:
        winners, decided = _solo(eligible)
    else:
        top_key = min(_key(s) for s in eligible)
        best = [s for s in eligible if _key(s) == top_key]
        winners = [s.entry.name for s in best]
        decided = _decided_by(best, [s for s in eligible if _key(s) != top_key])
    ruling = ""
    if sheet.variant == "beginner" and decided in (BOTTOM, TOP):
        # dietrick-taking-rules.txt line 89 ignores the numbers that line 83's tie-break
        # compares: comparing squares instead is our reading, and the report says so
        decided = BOTTOM_SQUARE if decided == BOTTOM else TOP_SQUARE
        ruling = scoring.rulings.beginner_tie.says
    ranked = _ranks(eligible, winners, sheet.solo)
    out = tuple(ranked.get(s.entry.name, s) for s in all_)
    return _long_game(Result(sheet, out, tuple(winners), decided, ruling=ruling), scoring)


def _long_game(result: Result, scoring: ScoringFile) -> Result:
    earlier = result.sheet.earlier_wins
    if earlier is None:
        return result
    wins = {name: n + (name in result.winners) for name, n in earlier.items()}
    match = tuple(name for name, n in wins.items() if n >= scoring.long_game_wins)
    return Result(result.sheet, result.standings, result.winners, result.decided_by, wins, match, result.ruling)


def _solo(eligible: list[Standing]) -> tuple[list[str], str]:
    if len(eligible) == 1:
        return [eligible[0].entry.name], DISQUALIFICATION
    player, fuzz = sorted(eligible, key=lambda s: s.entry.fuzz)
    assert player.difference is not None and fuzz.difference is not None
    if player.difference < fuzz.difference:
        return [player.entry.name], DIFFERENCE
    return [fuzz.entry.name], (FUZZ_TIE if player.difference == fuzz.difference else DIFFERENCE)


def _ranks(eligible: list[Standing], winners: list[str], solo: bool) -> dict[str, Standing]:
    """1 + the number of participants ranked strictly better (1, 1, 3 for a shared first
    place); solo: the winner 1 and the other 2, as Fuzz's tie-win is a win."""
    out = {}
    for s in eligible:
        won = s.entry.name in winners
        if solo:
            rank = 1 if won else 2
        else:
            rank = 1 + sum(1 for o in eligible if _key(o) < _key(s))
        out[s.entry.name] = _with(s, rank, won)
    return out


def _with(s: Standing, rank: int, winner: bool) -> Standing:
    return Standing(s.entry, s.top, s.bottom, s.difference, s.disqualified, rank, winner)
