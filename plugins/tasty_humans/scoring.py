"""Score Tasty Humans boards and games: itemised player scores, the winner with the
tie-break of the rule version, and solo mode (A.I. score and challenges).

Library entry points: `score_player` (one board), `rank_players` (a multiplayer game),
`score_solo` (the solo verdict) and `score_sheet` (a whole sheet file, for `pnp score`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from pnp.api import ScoreReport, counted

from .board import EMPTY, Board
from .craving_scoring import CHALLENGES, score_craving
from .leader_scoring import damage_mask, score_leader
from .sheet import BALANCED_DIET, EITHER, LEADER_PHASE, ROUND, CheckedSheet, check_sheet

if TYPE_CHECKING:
    from rich.console import Console

    from pnp.api import GameContent
    from pnp.api import Located

    from .models import Adventurer, Leader, RuleVersion

ENDING_TEXT = {
    ROUND: "after a round (the final round finished, held leaders eaten where they fit)",
    LEADER_PHASE: "in the Leader Phase (every player still holds the leader just drafted)",
    EITHER: "after a round or in the Leader Phase (the boards fit both; the score is the same)",
}

# How each way of deciding a game reads in a report.
DECIDED = {
    "score": "highest total",
    "fewer-damage": "fewer damage tiles",
    "leaders-ascending": "higher lowest-scoring leaders",
    "fewer-empty": "fewer empty cells",
    "seat-from-king": "seat order clockwise from the Village King",
    "shared": "tie: shared victory",
}


@dataclass(frozen=True)
class LeaderScore:
    """One leader in a stomach: where it lies (1-based) and what it scored."""

    id: str
    title: str
    kind: str
    points: int
    row: int
    column: int
    slot: int | None = None  # its digit on the sheet


@dataclass(frozen=True)
class PlayerScore:
    """Every part of one player's score; `total` is their sum."""

    name: str
    seat: int  # 0-based, clockwise
    monster: str
    leaders: tuple[LeaderScore, ...]
    craving: int
    damage_tiles: int
    damage_adjacent: int  # damage tiles orthogonally next to another one
    damage_points: int  # <= 0
    king: bool
    king_points: int
    empty_cells: int
    held: str | None = None
    claimed: int | None = None
    held_title: str | None = None  # as printed on its tile, for the report

    def parts(self) -> list[int]:
        """The printed parts: each leader, craving, damage, king."""
        return [l.points for l in self.leaders] + [self.craving, self.damage_points, self.king_points]

    @property
    def total(self) -> int:
        return sum(self.parts())

    @property
    def claim_ok(self) -> bool | None:
        return None if self.claimed is None else self.claimed == self.total


def score_player(
    board: Board,
    monster: str,
    rules: "RuleVersion",
    leaders: Mapping[str, "Leader"],
    *,
    king: bool = False,
    solo: bool = False,
    name: str = "",
    seat: int = 0,
    slots: Mapping[str, int] | None = None,
    held: str | None = None,
    claimed: int | None = None,
) -> PlayerScore:
    """Score one stomach. `board.leaders` maps cells to leader ids defined in `leaders`."""
    items = []
    for cell in sorted(board.leaders):
        lid = board.leaders[cell]
        leader = leaders[lid]
        row, col = divmod(cell, board.cols)
        items.append(LeaderScore(lid, leader.title, leader.kind, score_leader(board, cell, leader, rules),
                                 row + 1, col + 1, (slots or {}).get(lid)))
    damage = damage_mask(board, rules)
    adjacent = (damage & board.geo.expand_orth(damage)).bit_count()
    bonus = rules.king_bonus if king and not solo else 0  # never in solo
    return PlayerScore(
        name=name,
        seat=seat,
        monster=monster,
        leaders=tuple(items),
        craving=score_craving(board, monster, rules),
        damage_tiles=damage.bit_count(),
        damage_adjacent=adjacent,
        damage_points=-rules.damage_penalty * adjacent,
        king=king and not solo,
        king_points=bonus,
        empty_cells=board.count(EMPTY),
        held=held,
        claimed=claimed,
        held_title=leaders[held].title if held is not None and held in leaders else None,
    )


# --- multiplayer: ranking and tie-breaks --------------------------------------------

@dataclass(frozen=True)
class GameResult:
    """Places (1 = best, equal places share), winners and what decided the win."""

    places: tuple[tuple[int, PlayerScore], ...]  # best first
    winners: tuple[str, ...]
    decided_by: str  # "score", a tie-break step of the rule version, or "shared"
    tie_break: tuple[str, ...]
    # Set when several players hold the King bonus and seat order from the token orders
    # tied players: who holds the token itself, and whether the sheet said so (else our
    # default, rules.yaml rulings.king_token_unknown).
    king_token: str | None = None
    king_token_stated: bool = False
    # Set when the published leader comparison (F204) decided who wins only because a
    # winner ate more leaders than a tied player: our reading, rules.yaml
    # rulings.unequal_leaders.says (says_shared for a shared win), printed with the verdict.
    ruling: str | None = None


def compared_leaders(player: PlayerScore, rules: "RuleVersion") -> list[int]:
    """The leader points that the tie-break and the Balanced Diet look at: the leaders in
    the stomach, plus a held leader as 0 only when the rule set says `held_leader: zero`
    (rules.yaml records the ruling and the lines behind it)."""
    points = [l.points for l in player.leaders]
    if player.held and rules.held_leader == "zero":
        points.append(0)
    return points


def token_seat(players: list[PlayerScore], king_token: int | None) -> int:
    """The seat 0.2.8's seat-order tie-break starts from (O215): the holder of the Village
    King token. With several Kings (O197) it is `king_token` when the sheet names one, else
    the first King in seat order (rules.yaml rulings.king_token_unknown); with no King (no
    full stomach, never on a checked sheet) the first seat."""
    kings = [p.seat for p in players if p.king]
    if king_token is not None and king_token in kings:
        return king_token
    return min(kings) if kings else 0


def _tie_keys(players: list[PlayerScore], rules: "RuleVersion", king_token: int | None = None) -> dict[str, Any]:
    """Per step, a key function: a larger key wins the step."""
    n = len(players)
    king_seat = token_seat(players, king_token)
    seats = max(p.seat for p in players) + 1 if players else 1
    limit = rules.leaders_max(n) if n in rules.leaders_max_by_players else None
    return {
        "fewer-damage": lambda p: -p.damage_tiles,
        # Lowest leader first, compared upwards; when one list is a prefix of the other,
        # the player with the extra leader wins (a missing tile earned nothing).
        "leaders-ascending": lambda p: tuple(sorted(compared_leaders(p, rules)))[:limit],
        "fewer-empty": lambda p: -p.empty_cells,
        "seat-from-king": lambda p: -((p.seat - king_seat) % seats),
    }


def _survivors(group: list[PlayerScore], steps: list[str], keys: dict[str, Any]) -> set[int]:
    """Seats of the players still tied after these tie-break steps."""
    for step in steps:
        best = max(keys[step](p) for p in group)
        group = [p for p in group if keys[step](p) == best]
    return {p.seat for p in group}


def rank_players(players: list[PlayerScore], rules: "RuleVersion", king_token: int | None = None) -> GameResult:
    """Order the players and pick the winner(s) with the rule version's tie-break.
    `king_token`: the seat holding the Village King token when several hold the bonus."""
    steps: list[str] = []
    for rule in rules.tie_break:
        if rule == "shared":
            break
        steps.append(rule)
    keys = _tie_keys(players, rules, king_token)

    def full_key(p: PlayerScore) -> tuple:
        return (p.total, *(keys[s](p) for s in steps))

    ordered = sorted(players, key=full_key, reverse=True)
    places, prev, place = [], None, 0
    for i, p in enumerate(ordered):
        k = full_key(p)
        if k != prev:
            place, prev = i + 1, k
        places.append((place, p))

    top = max(p.total for p in players)
    group = [p for p in players if p.total == top]
    decided = "score" if len(group) == 1 else "shared"
    ruling = None
    for i, step in enumerate(steps):
        if len(group) == 1:
            break
        key = keys[step]
        best = max(key(p) for p in group)
        kept = [p for p in group if key(p) == best]
        reading = rules.rulings.unequal_leaders
        if step == "leaders-ascending" and reading is not None:
            # Players who tied on every leader they have and lost only by having fewer:
            # the reading decided who wins if keeping them would end otherwise.
            shorter = [p for p in group if key(p) != best and key(p) == best[:len(key(p))]]
            rest = steps[i + 1:]
            winners = _survivors(kept, rest, keys)
            if shorter and winners != _survivors(kept + shorter, rest, keys):
                ruling = reading.says if len(winners) == 1 else reading.says_shared
        group = kept
        if len(group) == 1:
            decided = step
    holder, stated = None, False
    if "seat-from-king" in steps and sum(p.king for p in players) > 1:
        # Seat order orders two players (the winners or lower places) only when they
        # tie on every step before it; only then does it matter who holds the token.
        before = steps[:steps.index("seat-from-king")]
        prefixes = [(p.total, *(keys[s](p) for s in before)) for p in players]
        if len(set(prefixes)) < len(prefixes):
            seat = token_seat(players, king_token)
            holder, stated = next(p.name for p in players if p.seat == seat), king_token == seat
    return GameResult(tuple(places), tuple(p.name for p in group), decided, tuple(rules.tie_break), holder, stated, ruling)


# --- solo ----------------------------------------------------------------------------

@dataclass(frozen=True)
class SoloResult:
    """The A.I.'s score from its cards, who won, and the challenge verdict."""

    level: int
    level_name: str
    ai_classes: dict[str, int]  # cards per class (peasants too)
    ai_class_points: int
    ai_shape_points: int
    won: bool
    challenge: str | None = None
    challenge_met: bool | None = None
    challenge_reason: str | None = None

    @property
    def ai_total(self) -> int:
        return self.ai_class_points + self.ai_shape_points

    @property
    def player_wins(self) -> bool:
        """The game's verdict: without a challenge the score against the A.I.'s (published
        line 267); with one, whether it was met (line 275: enough points on every leader
        and as much as the A.I.; the monster challenges likewise need both)."""
        return self.won if self.challenge is None else bool(self.challenge_met)


def ai_score(cards: Iterable["Adventurer"], rules: "RuleVersion") -> tuple[dict[str, int], int, int]:
    """(cards per class, sum of count^2 over the scored classes, sum of shape sizes)."""
    cards = list(cards)
    counts = Counter(c.class_ for c in cards)
    classes = {k: counts.get(k, 0) for k in rules.classes if counts.get(k, 0)}
    squares = sum(counts.get(k, 0) ** 2 for k in rules.solo.scored_classes)
    return classes, squares, sum(c.size() for c in cards)


def score_solo(
    player: PlayerScore,
    board: Board,
    rules: "RuleVersion",
    level: int,
    ai_cards: Iterable["Adventurer"],
    challenge: str | None = None,
) -> SoloResult:
    """The solo verdict: the player wins on a score equal to or above the A.I.'s."""
    classes, class_points, shape_points = ai_score(ai_cards, rules)
    ai = class_points + shape_points
    won = player.total >= ai
    versus = f"{player.total} {'>=' if won else '<'} A.I. {ai}"
    met = reason = None
    if challenge is not None:
        if challenge.startswith(BALANCED_DIET + "/") and rules.solo.balanced_diet is None:
            raise ValueError(f"challenge {challenge!r}: {rules.title} have no Balanced Diet challenge")
        if not challenge.startswith(BALANCED_DIET + "/") and not rules.solo.monster_challenges:
            raise ValueError(f"challenge {challenge!r}: {rules.title} have no monster challenges")
        if challenge.startswith(BALANCED_DIET + "/"):
            level_name = challenge.split("/", 1)[1]
            need = (rules.solo.balanced_diet or {})[level_name]  # None was refused above
            low = [f"{l.title} scored {l.points}" for l in player.leaders if l.points < need]
            if player.held and len(compared_leaders(player, rules)) > len(player.leaders):
                low.append(f"{player.held_title or player.held} was not eaten (0)")
            if low:
                met, reason = False, f"below {need}: " + ", ".join(low)
            else:
                met, reason = won, f"every leader scored at least {need}" + (f" and {versus}" if won else f", but {versus}")
        else:
            ok, why = CHALLENGES[player.monster](board, rules)
            met = ok and won
            reason = why + ("" if not ok else (f" and {versus}" if won else f", but {versus}"))
    name = (rules.solo.levels or {}).get(level, "")
    return SoloResult(level, name, classes, class_points, shape_points, won, challenge, met, reason)


# --- the sheet report ------------------------------------------------------------------

@dataclass
class TastyHumansReport(ScoreReport):
    """Scores of one sheet: per player, the winner (or solo verdict), claim mismatches."""

    sheet: str
    version: str
    players: list[PlayerScore]
    result: GameResult | None = None
    solo: SoloResult | None = None
    game: str = "tasty-humans"
    names: dict[str, str] = field(default_factory=dict)  # monster id -> name
    ending: str = ROUND  # ROUND, LEADER_PHASE or EITHER (see sheet.py)
    ending_stated: bool = False  # written on the sheet, else inferred
    classes: dict[str, str] = field(default_factory=dict)  # class id -> name in this rule version
    changes: dict[str, Any] = field(default_factory=dict)  # rule values the sheet changed (sheet `changes:`)
    king_token_default: str = ""  # rules.yaml rulings.king_token_unknown.says, printed when that default decided

    @property
    def mismatches(self) -> list[PlayerScore]:
        return [p for p in self.players if p.claim_ok is False]

    @property
    def exit_code(self) -> int:
        return 1 if self.mismatches else 0

    def to_json(self) -> dict[str, Any]:
        players = []
        for p in self.players:
            players.append({
                "name": p.name,
                "seat": p.seat + 1,
                "monster": p.monster,
                "leaders": [
                    {"slot": l.slot, "id": l.id, "title": l.title, "kind": l.kind, "row": l.row, "column": l.column, "points": l.points}
                    for l in p.leaders
                ],
                "held": p.held,
                "craving": p.craving,
                "damage": {"tiles": p.damage_tiles, "adjacent": p.damage_adjacent, "points": p.damage_points},
                "king": {"held": p.king, "points": p.king_points},
                "empty_cells": p.empty_cells,
                "total": p.total,
                "claimed": p.claimed,
                "claim_ok": p.claim_ok,
            })
        out: dict[str, Any] = {
            "game": self.game,
            "sheet": self.sheet,
            "rules": self.version,
            "changes": dict(self.changes),
            "mode": "solo" if self.solo is not None else "multiplayer",
            "ending": self.ending,
            "ending_stated": self.ending_stated,
            "players": players,
            "ranking": None,
            "winners": None,
            "decided_by": None,
            "ruling": None,
            "king_token": None,
            "solo": None,
            "mismatches": [{"name": p.name, "claimed": p.claimed, "total": p.total} for p in self.mismatches],
            "exit_code": self.exit_code,
        }
        if self.result is not None:
            out["ranking"] = [{"place": place, "name": p.name, "total": p.total} for place, p in self.result.places]
            out["winners"] = list(self.result.winners)
            out["decided_by"] = self.result.decided_by
            out["ruling"] = self.result.ruling
            if self.result.king_token is not None:
                out["king_token"] = {"name": self.result.king_token, "stated": self.result.king_token_stated}
        if self.solo is not None:
            s = self.solo
            # the solo player is the only one who can win (the A.I. has no seat on the sheet):
            # the log, its CSV and statistics read a won solo game's winner here
            out["winners"] = [self.players[0].name] if s.player_wins else []
            out["solo"] = {
                "level": s.level,
                "level_name": s.level_name,
                "ai": {"classes": s.ai_classes, "class_points": s.ai_class_points, "shape_points": s.ai_shape_points, "total": s.ai_total},
                "won": s.won,
                "challenge": None if s.challenge is None else {"name": s.challenge, "met": s.challenge_met, "reason": s.challenge_reason},
            }
        return out

    def decided_text(self) -> str | None:
        """`decided_by` in the words the report prints (DECIDED), for `pnp serve`'s page."""
        return None if self.result is None else DECIDED.get(self.result.decided_by, self.result.decided_by)

    def render(self, console: "Console") -> None:
        from rich.table import Table

        from pnp.api import markup as m  # user text shown as text, never as markup

        for p in self.players:
            monster = self.names.get(p.monster, p.monster)
            table = Table(title=f"{m(p.name)}: {m(monster)}, seat {p.seat + 1}", title_justify="left")
            table.add_column("#", justify="right")
            table.add_column("scores")
            table.add_column("at")
            table.add_column("points", justify="right")
            for l in p.leaders:
                table.add_row(str(l.slot or ""), m(f"{l.title} ({l.id})"), f"row {l.row} col {l.column}", str(l.points))
            if p.held:
                # `held:` as on the sheet; never eaten, so it scores nothing (rules.yaml held_leader)
                table.add_row("", m(f"held: {p.held_title or p.held} ({p.held})"), "", "-")
            table.add_row("", m(f"craving: {monster}"), "", str(p.craving))
            table.add_row("", f"damage: {counted(p.damage_tiles, 'tile')}, {p.damage_adjacent} touching", "", str(p.damage_points))
            table.add_row("", "Village King" if p.king else "Village King: no", "", str(p.king_points))
            table.add_row("", "[bold]total[/bold]", "", f"[bold]{p.total}[/bold]")
            if p.claimed is not None:
                verdict = "ok" if p.claim_ok else f"[red]claimed {p.claimed}, scored {p.total}[/red]"
                table.add_row("", "claimed", verdict, str(p.claimed))
            console.print(table)
        if self.changes:
            changed = ", ".join(f"{k}={v}" for k, v in self.changes.items())
            console.print(m(f"rules: {self.version}, changed by the sheet: {changed}"))
        how = "as written on the sheet" if self.ending_stated else "inferred from the boards"
        console.print(f"game ended: {ENDING_TEXT[self.ending]} ({how})")
        if self.result is not None:
            r = self.result
            console.print("ranking: " + m(", ".join(f"{place}. {p.name} {p.total}" for place, p in r.places)))
            who = " and ".join(r.winners)
            verb = "share the win" if len(r.winners) > 1 else "wins"
            console.print(f"[bold]{m(who)} {verb}[/bold] (decided by {m(DECIDED.get(r.decided_by, r.decided_by))})")
            if r.ruling:
                console.print(m(f"decided by a reading where the rules are silent: {r.ruling}"))
            if r.king_token is not None:
                how = "as written on the sheet" if r.king_token_stated else self.king_token_default
                console.print(m(f"seat order counted from {r.king_token}, who holds the Village King token ({how})"))
        if self.solo is not None:
            s = self.solo
            classes = ", ".join(f"{n} {self.classes.get(k, k)}" for k, n in s.ai_classes.items()) or "no cards"
            level = f"A.I. level {s.level}" + (f" ({s.level_name})" if s.level_name else "")
            console.print(f"{m(level)}: {m(classes)}: classes {s.ai_class_points} + shapes {s.ai_shape_points} = {s.ai_total}")
            p = self.players[0]
            if s.challenge is None:
                why = f"{p.total} {'>=' if s.won else '<'} {s.ai_total}"
            else:  # playing a challenge, the game is won only by meeting it
                why = m(f"challenge {s.challenge} {'met' if s.challenge_met else 'failed'} ({s.challenge_reason})")
            console.print(f"[bold]{m(p.name)} {'wins' if s.player_wins else 'loses'}[/bold]: {why}")
        for line in self.mismatch_lines():
            console.print(f"[red]{m(line)}[/red]")

    def mismatch_lines(self) -> list[str]:
        return [line for _, line in self.mismatch_places()]

    def mismatch_places(self) -> list[tuple[tuple[Any, ...], str]]:
        return [(("players", p.seat, "claimed"), f"{p.name}: claimed {p.claimed} but the board scores {p.total}") for p in self.mismatches]


def score_checked(sheet: CheckedSheet, adventurers: Mapping[str, "Adventurer"], names: Mapping[str, str] | None = None) -> TastyHumansReport:
    """Score a sheet that passed `check_sheet`."""
    rules = sheet.rules
    solo = sheet.solo is not None
    scores = [
        score_player(p.board, p.monster, rules, sheet.leaders, king=p.king, solo=solo, name=p.name,
                     seat=p.seat, slots=p.slots, held=p.held, claimed=p.claimed)
        for p in sheet.players
    ]
    report = TastyHumansReport(str(sheet.path), sheet.version, scores, names=dict(names or {}),
                               ending=sheet.ending, ending_stated=sheet.ending_stated, classes=dict(rules.classes),
                               changes=sheet.changes, king_token_default=rules.rulings.king_token_unknown.says)
    if sheet.solo is not None:
        s = sheet.solo
        assert s.level is not None  # check_sheet refuses a sheet without it
        report.solo = score_solo(scores[0], sheet.players[0].board, rules, s.level, [adventurers[c] for c in s.ai_cards], s.challenge)
    else:
        report.result = rank_players(scores, rules, sheet.king_token)
    return report


def score_sheet(game: "GameContent", doc: "Located") -> TastyHumansReport:
    """Check and score a parsed sheet file (the plugin's `score`)."""
    from pnp.api import display_path

    sheet = check_sheet(game, doc)
    sheet.path = display_path(doc.path)
    adventurers = {a.id: a for a in game.data["adventurers"].adventurers}
    names = {m.id: m.name for m in game.data["monsters"].monsters}
    return score_checked(sheet, adventurers, names)
