"""The Tasty Humans scoring sheet: its YAML schema, the checks that reject impossible
boards (tasty-humans-notes.md, "What makes a board impossible") and a blank template.

Every problem is one `file:line: Player, row R column C: message` line; all are
collected before anything is scored.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BeforeValidator, Field, field_validator

from pnp.api import ContentError, choice_named, counted, did_you_mean, raise_if_any
from pnp.api import StrictModel, validate
from pnp.api import Located

from .board import EMPTY, EMPTY_SYMBOL, LEADER, Board, split_row
from .craving_scoring import CRAVINGS
from .names import Names, as_written

if TYPE_CHECKING:
    from pnp.api import GameContent

    from .models import Leader, RuleVersion

GAME = "tasty-humans"
BALANCED_DIET = "balanced-diet"
MONSTER_CHALLENGE = "monster"
CHALLENGE = re.compile(rf"^({BALANCED_DIET}/[a-z0-9-]+|{MONSTER_CHALLENGE})$")
# The two ways a game ends (published rules F184-186, 0.2.8 O191-193):
ROUND = "round"  # a stomach filled while eating an adventurer; the round was finished, then held leaders were eaten where they fit
LEADER_PHASE = "leader-phase"  # a stomach filled with a dropped leader; everyone still holds the leader just drafted
EITHER = "either"  # the sheet fits both endings (the score is the same)
# Why a sheet with no full stomach is no finished game (its message cites the lines).
RULE_END = "the game ends only when a stomach is full (published rules line 182, 0.2.8 line 189)"
# The rule lines that fix a player's last act, cited by the messages that rely on them.
RULE_HELD_EATEN = "published rules line 184, 0.2.8 line 193"
RULE_PHASE_END = "published rules line 186, 0.2.8 line 191"
# Solo scoring has no King bonus, so the blank solo sheet has no `king:`.
# with rules.yaml king_bonus, the points of the bonus solo play goes without
RULE_SOLO_NO_KING = "no {king_bonus}-point bonus for filling the stomach first in a solo game (published rules line 257, 0.2.8 line 265)"
# Why basic tiles bound the turns taken: each turn drops at least one tile of the eaten
# adventurer's shape, unless the damage dropped before it filled the stomach (then no tile
# can fall, and the full stomach skips the player's turns left), and only Damage tiles ever
# leave a stomach (a Cleric's).
RULE_TILE_A_TURN = ("every turn drops at least one tile of the eaten adventurer (published rules line 118, 0.2.8 line 137) "
                    "unless the damage dropped before it (published line 104, 0.2.8 line 123) filled the stomach, which then "
                    "skips its turns left (published line 184, 0.2.8 line 193), and only Damage tiles ever leave a stomach "
                    "(Cleric: published line 144, 0.2.8 line 113)")
# Why the turns bound a stomach from above, each kind of tile on its own: a turn eats one
# adventurer, whose shape is 2 to 4 basic tiles (deck.shape_squares), and takes the damage
# its neighbours in the 3 x 3 grid deal (rules.yaml damage_a_turn_max gives the lines).
RULE_BASIC_A_TURN_MAX = ("a turn eats one adventurer and adds only its shape's basic tiles (published rules line 110, "
                         "0.2.8 line 131)")
RULE_DAMAGE_A_TURN_MAX = ("a turn's Damage tiles come only from the Swordsmen next to the eaten card and the Archers two away "
                          "in the 3 x 3 grid (published rules lines 88-92, 0.2.8 lines 95-99)")


def _rounds(phases: int, ending: str) -> int:
    """The rounds a game of `phases` Leader Phases lasted: one before each, and one more
    when it ended after a round."""
    return phases + (1 if ending == ROUND else 0)


def _levels_expected(rules: "RuleVersion", suggest: bool = False) -> str:
    """The A.I. levels a sheet may write, from rules.yaml solo (F224-227; O235-237 name
    none: level N is N starting cards); `suggest` adds the first-game level (F222)."""
    named = rules.solo.levels
    if named is None:
        return f"the number of cards the A.I. started with, 0 or more ({rules.title} name no levels)"
    first = rules.solo.first_level
    hint = f" (the A.I. starts with that many cards; {first} is suggested for a first solo game)" if suggest and first is not None else ""
    return f"{min(named)} to {max(named)}{hint}"


def _as_text(v: Any) -> Any:
    # `rules: 1.0` arrives as a float; a version name is text.
    return str(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v


def _not_yes_no(v: Any) -> Any:
    # pydantic takes YAML's `true` for 1 where a number is expected: a sheet means no count by it
    if isinstance(v, bool):
        raise ValueError(f"expected a whole number, got {str(v).lower()}")
    return v


# A number the table writes (a total, an A.I. level, a leader's digit): a whole number, never true or false.
Count = Annotated[int | None, BeforeValidator(_not_yes_no)]
Digit = Annotated[int, BeforeValidator(_not_yes_no)]  # a key: `{true: x}` was leader 1


def _player_named(data: Any, place: tuple) -> str | None:
    """The name of the player whose board `place` (a path in the sheet) is in, as every
    message about a board begins; None outside a board or when the name is no name."""
    if len(place) < 3 or place[0] != "players" or not isinstance(data, dict):
        return None
    players = data.get("players")
    player = players[place[1]] if isinstance(players, list) and isinstance(place[1], int) and 0 <= place[1] < len(players) else None
    name = player.get("name") if isinstance(player, dict) else None
    return name if isinstance(name, str) and name.strip() else None


class SoloSheet(StrictModel):
    """The solo game: A.I. level, the A.I.'s adventurer cards, an optional challenge."""

    # null is what the blank sheet writes where the rules suggest no first level (0.2.8):
    # the check then says what to write, rather than the schema's "valid integer".
    level: Count = Field(description="A.I. level (0-6): the A.I. starts with this many cards")
    ai_cards: list[str] = Field(default_factory=list, description="every adventurer the A.I. holds at game end: the name printed on the card, or its id (adventurers.yaml)")
    challenge: str | None = Field(None, description="balanced-diet/beginner|normal|expert, or monster")

    @field_validator("challenge")
    @classmethod
    def _challenge(cls, v: str | None) -> str | None:
        if v is not None and not CHALLENGE.match(v):
            raise ValueError(f"{v!r} is not a challenge: expected {BALANCED_DIET}/<level> (e.g. {BALANCED_DIET}/normal) or {MONSTER_CHALLENGE}")
        return v


class PlayerSheet(StrictModel):
    """One player's final board as copied from the table."""

    name: str = Field(description="player name, used in every message about this board")
    monster: str | None = Field(description="the monster board's printed name, or its id (monsters.yaml)")
    king: bool = Field(False, description="holds the Village King bonus (filled the stomach first)")
    leaders: dict[Digit, str | None] = Field(default_factory=dict, description="the leader for each digit used in the stomach: its tile's printed title, or its id (leaders.yaml)")
    held: str | None = Field(None, description="the leader still in the Leader space that could not be eaten (title or id)")
    stomach: str | list[str] = Field(description="active rows top to bottom, one symbol per cell; spaces optional")
    claimed: Count = Field(None, description="the total the players counted, checked against the score")

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("is empty: expected the player's name")
        return v


class Sheet(StrictModel):
    """A Tasty Humans scoring sheet (one finished game)."""

    game: str = Field(description=f"always {GAME!r}")
    rules: Annotated[str | None, BeforeValidator(_as_text)] = Field(None, description='rule version: published or "0.2.8" (default: the rule set\'s default)')
    changes: dict[str, Any] | None = Field(
        None,
        description="rule values changed from the rule version, by their path in rules.yaml "
        "(cravings.troll.points: 3), as `pnp simulate --set` changes them; its sheets say so",
    )
    players: list[PlayerSheet] = Field(min_length=1, description="in seat order, clockwise")
    solo: SoloSheet | None = Field(None, description="present exactly when one player plays solo")
    ending: Literal["round", "leader-phase"] | None = Field(  # models.ENDINGS, whose words reference.yaml holds
        None,
        description="how the game ended: round (a stomach filled while eating an adventurer; the round was "
        "finished and held leaders were eaten where they fit) or leader-phase (a stomach filled with a dropped "
        "leader, so every player still holds the one just drafted); left out, pnp infers it",
    )
    king_token: str | None = Field(
        None,
        description="when two or more players filled their stomachs at once (each has king: true), the name of "
        "the one holding the Village King token itself: 0.2.8's last tie-break counts seats clockwise from it "
        "(tasty-humans-rules-0.2.8.txt line 215); left out, the first of them in seat order (rules.yaml "
        "rulings.king_token_unknown)",
    )


def json_schema() -> dict[str, Any]:
    """JSON Schema of the sheet file, for editors."""
    schema = Sheet.model_json_schema()
    schema["title"] = "Tasty Humans scoring sheet"
    return schema


@dataclass
class SheetPlayer:
    """A checked player: the board plus what the sheet says about it."""

    name: str
    seat: int  # 0-based, clockwise
    monster: str
    king: bool
    board: Board
    slots: dict[str, int]  # leader id -> digit on the sheet
    held: str | None
    claimed: int | None


@dataclass
class CheckedSheet:
    """A sheet that passed every check, ready to score."""

    path: Any
    version: str
    rules: "RuleVersion"
    players: list[SheetPlayer]
    solo: SoloSheet | None
    leaders: dict[str, "Leader"] = field(default_factory=dict)
    ending: str = ROUND  # ROUND, LEADER_PHASE or EITHER
    ending_stated: bool = False  # written on the sheet (else inferred)
    changes: dict[str, Any] = field(default_factory=dict)  # rule values the sheet changed (`changes:`)
    king_token: int | None = None  # seat of the King the sheet says holds the token itself (`king_token:`)


def _stomach_lines(doc: Located, at: tuple, stomach: str | list[str]) -> list[tuple[int | None, str]]:
    """(file line, text) of every written row, skipping blank lines."""
    if isinstance(stomach, list):
        return [(doc.where(at + (i,))[0], row) for i, row in enumerate(stomach) if row.strip()]
    key_line = doc.where(at)[0]
    lines = stomach.split("\n")
    if len(lines) == 1:  # written on the key's own line
        return [(key_line, lines[0])] if lines[0].strip() else []
    # A block scalar (`stomach: |`) starts on the line after its key, one row per line.
    first = key_line + 1 if key_line is not None else None
    return [(first + i if first is not None else None, text) for i, text in enumerate(lines) if text.strip()]


def check_sheet(game: "GameContent", doc: Located) -> CheckedSheet:
    """Validate a sheet against the game's content; raise PnpError listing every problem."""
    sheet, errors = validate(doc, Sheet, label=lambda place: _player_named(doc.data, place))
    raise_if_any(errors)
    assert sheet is not None
    return _Checker(game, doc, sheet).run()


class _Checker:
    def __init__(self, game: "GameContent", doc: Located, sheet: Sheet):
        self.game, self.doc, self.sheet = game, doc, sheet
        self.errors: list[ContentError] = []
        self.leaders: dict[str, "Leader"] = {l.id: l for l in game.data["leaders"].leaders}
        self.monsters = {m.id: m for m in game.data["monsters"].monsters}
        self.adventurers = {a.id: a for a in game.data["adventurers"].adventurers}
        self.names = sheet_names(game)
        self.refused: set[tuple[int, str]] = set()  # (player index, leader id) written but not on that board: reported once
        # From here on every component is named by its id (what the table wrote, when
        # that names nothing, so the checks below report it as written).
        self.written = sheet
        self.sheet = self._by_id(sheet)

    def _by_id(self, sheet: Sheet) -> Sheet:
        """The sheet with each printed name (leader title, monster name, card name)
        replaced by the id it names."""
        leader, monster, card = self.names["leader"].resolve, self.names["monster"].resolve, self.names["adventurer"].resolve
        players = [p.model_copy(update={"monster": monster(p.monster), "held": leader(p.held),
                                        "leaders": {k: leader(v) for k, v in p.leaders.items()}})
                   for p in sheet.players]
        solo = sheet.solo and sheet.solo.model_copy(update={"ai_cards": [card(c) for c in sheet.solo.ai_cards]})
        return sheet.model_copy(update={"players": players, "solo": solo})

    def _written_card(self, i: int) -> str:
        """The A.I. card `solo.ai_cards[i]` as the sheet writes it."""
        assert self.written.solo is not None
        return self.written.solo.ai_cards[i]

    def fail(self, at: tuple, message: str, who: str | None = None) -> None:
        line = self.doc.where(at)[0]
        self.errors.append(ContentError(self.doc.path, line, None, f"{who}: {message}" if who else message))

    def fail_line(self, line: int | None, message: str) -> None:
        self.errors.append(ContentError(self.doc.path, line, None, message))

    def run(self) -> CheckedSheet:
        sheet = self.sheet
        rule_set = self.game.data["rules"]
        # `rules: Published` is the version "published": names on a sheet are read in any case
        version = choice_named(rule_set.names(), sheet.rules) if sheet.rules is not None else rule_set.default
        if version is None:
            self.fail(("rules",), f"rules: unknown rule version {sheet.rules!r}: expected one of {', '.join(rule_set.names())}{did_you_mean(str(sheet.rules), rule_set.names())}")
            raise_if_any(self.errors)
        assert version is not None  # raise_if_any raised
        rules = rule_set.version(version)
        if sheet.changes:
            try:
                rules = rules.with_changes(sheet.changes)
            except ValueError as exc:
                self.fail(("changes",), f"changes: {exc}")
                raise_if_any(self.errors)
        n = len(sheet.players)
        counts = sorted(rules.stomach.rows_by_players)
        if n not in counts:
            self.fail(("players",), f"players: {n} players: expected {counts[0]} to {counts[-1]}")
            raise_if_any(self.errors)

        self._check_solo(rules, n)
        players = [self._check_player(i, p, rules, n) for i, p in enumerate(sheet.players)]
        self._check_across(players, rules, n)
        king_token = self._check_king_token(rules, n)
        ending = ROUND
        if not self.errors and all(p is not None for p in players):
            ending = self._check_ending([p for p in players if p is not None], rules, n)
        raise_if_any(self.errors)
        return CheckedSheet(self.doc.path, version, rules, [p for p in players if p is not None], sheet.solo, self.leaders,
                            ending, sheet.ending is not None, dict(sheet.changes or {}), king_token)

    # --- the whole table ------------------------------------------------------------

    def _check_solo(self, rules: "RuleVersion", n: int) -> None:
        solo = self.sheet.solo
        if solo is None:
            if n == 1:
                self.fail(("players",), "players: one player is a solo game: expected solo: {level: N, ai_cards: [...]}")
            return
        if n != 1:
            self.fail(("solo",), f"solo: a solo game has one player, found {n}")
        named = rules.solo.levels
        if solo.level is None:
            self.fail(("solo", "level"), f"solo.level: is empty: expected the A.I. level played, {_levels_expected(rules, suggest=True)}")
        elif named is not None and solo.level not in named:
            self.fail(("solo", "level"), f"solo.level: {solo.level} is not an A.I. level: expected {_levels_expected(rules)}")
        elif solo.level < 0:
            self.fail(("solo", "level"), f"solo.level: {solo.level} is not an A.I. level: expected {_levels_expected(rules)}")
        seen: dict[str, int] = {}
        for i, card in enumerate(solo.ai_cards):
            at = ("solo", "ai_cards", i)
            if card not in self.adventurers:
                self.fail(at, f"solo.ai_cards: {self.names['adventurer'].unknown(card)}")
            elif card in seen:
                self.fail(at, f"solo.ai_cards: {as_written(self._written_card(i), card)} is listed twice: each adventurer card exists once")
            seen.setdefault(card, i)
        if solo.level is None:
            return  # the cards say nothing without the level
        # The A.I. starts with `level` cards and takes exactly two every round.
        extra = len(solo.ai_cards) - solo.level
        if solo.level >= 0 and (named is None or solo.level in named) and (extra < 0 or extra % 2):
            self.fail(("solo", "ai_cards"), f"solo.ai_cards: {len(solo.ai_cards)} cards at level {solo.level}: the A.I. holds {solo.level} plus 2 per round")
        title = rules.title
        if solo.challenge and solo.challenge.startswith(BALANCED_DIET + "/"):
            level = solo.challenge.split("/", 1)[1]
            diets = rules.solo.balanced_diet
            if diets is None:
                self.fail(("solo", "challenge"), f"solo.challenge: {title} have no Balanced Diet challenge (only the published rules do): expected {MONSTER_CHALLENGE if rules.solo.monster_challenges else 'null'}")
            elif level not in diets:
                self.fail(("solo", "challenge"), f"solo.challenge: unknown level {level!r}: expected {', '.join(f'{BALANCED_DIET}/{k}' for k in diets)}")
        elif solo.challenge == MONSTER_CHALLENGE and not rules.solo.monster_challenges:
            self.fail(("solo", "challenge"), f"solo.challenge: {title} have no monster challenges (only the published rules do): expected null")

    def _check_king_token(self, rules: "RuleVersion", n: int) -> int | None:
        """The seat named by `king_token:`, which must be one of the players holding the
        King bonus (0.2.8 line 215 counts seats from the token; line 197 gives the bonus to
        every player who filled at the same moment), on a sheet that has the field (the
        blank sheet's, `asks_king_token`)."""
        name = self.sheet.king_token
        if name is None:
            return None
        if not asks_king_token(rules, n):
            why = "a solo game has no seat order" if n == 1 else f"{rules.title} break ties without seat order from the King token"
            self.fail(("king_token",), f"king_token: {why}: expected no king_token")
            return None
        kings = [(i, p.name) for i, p in enumerate(self.sheet.players) if p.king]
        for seat, king in kings:
            if king == name:
                return seat
        expected = ", ".join(k for _, k in kings) or "nobody: no player has king: true"
        self.fail(("king_token",), f"king_token: {name!r} is not a player holding the Village King: expected one of the players with king: true ({expected})")
        return None

    def _check_across(self, players: list[SheetPlayer | None], rules: "RuleVersion", n: int) -> None:
        sheet = self.sheet
        names: dict[str, int] = {}
        monsters: dict[str, int] = {}
        owners: dict[str, tuple[int, str]] = {}  # leader id -> (player index, where)
        for i, p in enumerate(sheet.players):
            if p.name in names:
                self.fail(("players", i, "name"), f"player name is also player {names[p.name] + 1}'s: expected each name once", p.name)
            names.setdefault(p.name, i)
            written = self.written.players[i]
            if p.monster and p.monster.strip():  # an empty one is reported by _check_player
                if p.monster in monsters:
                    text = as_written(written.monster or p.monster, p.monster)  # as the leaders' message below
                    self.fail(("players", i, "monster"), f"monster {text} is also {sheet.players[monsters[p.monster]].name}'s: each monster board is used once", p.name)
                monsters.setdefault(p.monster, i)
            # an empty leader or held is reported by _check_player: it names no tile
            tiles: list[tuple[tuple, str, str]] = [(("players", i, "leaders", slot), lid, written.leaders[slot] or lid)
                                                   for slot, lid in p.leaders.items() if lid and lid.strip()]
            if p.held and p.held.strip() and p.held not in p.leaders.values():
                tiles.append((("players", i, "held"), p.held, written.held or p.held))
            for at, lid, text in tiles:
                if (i, lid) in self.refused:
                    continue  # not on this board: already reported, claims no tile
                if lid in owners and owners[lid][0] != i:
                    self.fail(at, f"leader {as_written(text, lid)} is also {sheet.players[owners[lid][0]].name}'s: there is one tile of each leader", p.name)
                owners.setdefault(lid, (i, p.name))

    # --- how the game ended --------------------------------------------------------

    def _check_ending(self, players: list[SheetPlayer], rules: "RuleVersion", n: int) -> str:
        """Check the sheet against the ending it states, or infer it: the ending whose
        checks pass (EITHER when both do); when neither does, report the problems of the
        ending with fewer of them (ROUND on a tie)."""
        stated = self.sheet.ending
        if stated is not None:
            self.errors += [error for error, _ in self._ending_problems(players, rules, n, stated)]
            return stated
        found = {e: self._ending_problems(players, rules, n, e) for e in (ROUND, LEADER_PHASE)}
        passed = [e for e, problems in found.items() if not problems]
        if len(passed) == 2:
            return EITHER
        if passed:
            return passed[0]
        # Report the ending the board breaks fewest rules of: those are the rules it
        # really breaks. On a tie, the round ending (the ordinary one, F184/O193).
        guess = LEADER_PHASE if len(found[LEADER_PHASE]) < len(found[ROUND]) else ROUND
        other = LEADER_PHASE if guess == ROUND else ROUND
        hint = f" (read as a game that ended {_ENDING_TEXT[guess]}; if it ended {_ENDING_TEXT[other]}, write ending: {other})"
        for error, depends in found[guess]:
            self.errors.append(dataclasses.replace(error, message=error.message + hint) if depends else error)
        return guess

    def _ending_problems(self, players: list[SheetPlayer], rules: "RuleVersion", n: int, ending: str) -> list[tuple[ContentError, bool]]:
        """Everything that cannot happen with this ending: the end trigger, the Village
        King, held leaders, and leader counts that agree between players. Each problem
        comes with whether it depends on the ending (the others hold for both)."""
        problems: list[tuple[ContentError, bool]] = []

        def fail(at: tuple, message: str, depends: bool = True) -> None:
            problems.append((ContentError(self.doc.path, self.doc.where(at)[0], None, message), depends))

        solo = n == 1
        full = [p for p in players if p.board.is_full]
        if not full:
            # F182/O189 (and F253/O261 for solo): a full stomach is the only end trigger;
            # the supply never runs out (O149) and the deck is reshuffled (F152).
            fail(("players",), "no stomach is full: " + RULE_END, False)
        for p in players:
            at = ("players", p.seat)
            room = p.board.count(EMPTY)
            if ending == ROUND and p.held and room:
                # F184/O193: after the final round a held leader is eaten if it fits.
                held = as_written(self.written.players[p.seat].held or p.held, p.held)  # the sheet's words, as elsewhere
                fail(at + ("held",), f"{p.name}: held: {held} would have been eaten after the final round: the stomach has {counted(room, 'empty cell')} ({RULE_HELD_EATEN})")
            elif ending == ROUND and room and not p.board.uncovered_leaders():
                # F184/O193: a player with room eats the held leader after the final
                # round, as the very last tile: nothing can lie on it.
                fail(at + ("stomach",), f"{p.name}: every leader has a tile on top: after the final round a player with room eats the held leader last "
                     f"({RULE_HELD_EATEN}), so it sits on top of its column")
            if ending == LEADER_PHASE and not p.held and room:
                # F186/O191: the game ends once everyone has eaten their old leader, so
                # every player keeps the one just drafted.
                fail(at + ("held",), f"{p.name}: held is empty: a game that ends in the Leader Phase leaves every player holding the leader just drafted")
            elif ending == LEADER_PHASE and room and not p.board.uncovered_leaders():
                # F186/O191: every player's last act was dropping the old leader.
                fail(at + ("stomach",), f"{p.name}: every leader has a tile on top: a game that ends in the Leader Phase ends once every player has dropped "
                     f"the old leader ({RULE_PHASE_END}), so that leader sits on top of its column")
        if not solo:
            kings = [p for p in players if p.king]
            if ending == ROUND:
                # F188/O195: only the player who filled first takes the Village King.
                if full and not kings:
                    fail(("players", full[0].seat), f"{full[0].name}'s stomach is full but nobody holds the Village King: expected king: true for the player who filled first", False)
                for p in kings[1:]:
                    fail(("players", p.seat, "king"), f"{p.name}: king: {kings[0].name} holds it too: after a round only the player who filled first takes the Village King "
                         "(two kings come only from stomachs filled together in the Leader Phase)")
            else:
                # F190/O197: every stomach filled by a dropped leader gets the bonus.
                for p in full:
                    if not p.king:
                        fail(("players", p.seat, "king"), f"{p.name}: king: false, but this stomach filled in the Leader Phase: every player who filled it then takes the Village King bonus")
        if ending == LEADER_PHASE:
            for p in full:
                if not any(cell < p.board.cols for cell in p.board.leaders):
                    # The last cell to fill is the top of a column, and a leader filled it.
                    fail(("players", p.seat, "stomach"), f"{p.name}: no leader in the top row: a stomach that fills in the Leader Phase is filled by a dropped leader, "
                         f"which lands in the top row ({RULE_PHASE_END})")
        problems += [(error, True) for error in self._leader_counts(players, rules, n, ending)]
        return problems

    def _phases(self, p: SheetPlayer, rules: "RuleVersion", n: int, ending: str) -> set[int]:
        """The numbers of Leader Phases this player's leaders fit (one from setup plus one
        per phase; a full stomach may leave its held leader off the sheet)."""
        eaten, held = len(p.board.leaders), p.held is not None
        full = p.board.is_full
        if ending == LEADER_PHASE or held:
            fits = {eaten}  # the last leader drafted is still held
        elif not full:
            fits = {eaten - 1}  # round ending: the held leader was eaten at the end
        elif p.king or n == 1:
            # Round ending: the stomach that triggered the end (the king's; the solo
            # player's) was full before the held leader could be eaten; it was left off.
            fits = {eaten}
        elif p.board.uncovered_leaders():
            fits = {eaten - 1, eaten}  # eaten at the end, or held and left off
        else:
            # No leader in the top row: the held leader was not the last tile (F184/O193),
            # so it was not eaten; it was left off the sheet.
            fits = {eaten}
        return {d for d in fits if 0 <= d <= rules.leader_stacks(n)}

    def _leader_counts(self, players: list[SheetPlayer], rules: "RuleVersion", n: int, ending: str) -> list[ContentError]:
        problems: list[ContentError] = []
        fits = [self._phases(p, rules, n, ending) for p in players]
        votes = Counter(d for f in fits for d in f)
        if not votes:
            return problems  # each player's own count was reported already
        phases = max(votes, key=lambda d: (votes[d], d))
        stacks = rules.leader_stacks(n)
        for p, f in zip(players, fits):
            if phases in f:
                continue
            eaten = len(p.board.leaders)
            has = f"{counted(eaten, 'leader')} in the stomach and {'1' if p.held else 'none'} held"
            if ending == LEADER_PHASE:
                want = f"{phases} in the stomach and 1 held"
            elif not p.board.is_full:
                want = f"{phases + 1} in the stomach and none held"
            elif p.king or n == 1:
                want = f"{phases} in the stomach (this stomach filled first, so the last leader drafted stays held)"
            elif p.board.uncovered_leaders():
                want = f"{phases} or {phases + 1} in the stomach"
            else:
                want = (f"{phases} in the stomach (no leader in the top row, so the last leader drafted was not eaten "
                        f"after the final round, {RULE_HELD_EATEN})")
            if not f and not any(phases in g for g in fits if g is not f):
                why = f"at most {counted(stacks, 'Leader Phase')} with {counted(n, 'player')}"
            else:
                others = [q.name for q, g in zip(players, fits) if phases in g]
                why = f"{', '.join(others)} {'show' if len(others) > 1 else 'shows'} {counted(phases, 'Leader Phase')}"
            at = ("players", p.seat, "held" if p.held else "leaders")
            problems.append(ContentError(self.doc.path, self.doc.where(at)[0], None,
                f"{p.name}: {has}: every player ends with one leader from setup plus one per Leader Phase, and {why}: expected {want}"))
        problems += self._too_few_tiles(players, rules, phases, ending)
        problems += self._too_many_tiles(players, rules, phases, ending, n)
        level = self.sheet.solo.level if self.sheet.solo is not None else None
        if level is not None and level >= 0:
            problems += self._solo_rounds(phases, rules, n, ending)
        return problems

    def _too_few_tiles(self, players: list[SheetPlayer], rules: "RuleVersion", phases: int, ending: str) -> list[ContentError]:
        """Boards with fewer basic tiles than the turns their player took can have left.
        A basic tile comes only from an eaten shape and never leaves (RULE_TILE_A_TURN).
        Every player takes `turns_a_round` turns in each round: one round per Leader Phase,
        plus the final round after a round ending, where a stomach that filled skips the
        turns left, having taken one at least. Only a stomach that fills can have a turn
        that dropped no tile (damage filled it first, F104/O123), and only the last: its
        last Damage tile then fills the last empty cell, at the top of a column, and
        nothing moves after it (no turn, no leader fits, no Wizard swap)."""
        problems: list[ContentError] = []
        basic = rules.basic_types()
        damage = rules.damage_types()
        rounds = _rounds(phases, ending)
        for p in players:
            tiles = sum(p.board.count(t) for t in basic)
            # In a Leader-Phase ending a leader filled the stomach (F186/O191): no stomach
            # filled during a round, so every player took every turn, each with a tile.
            filled = ending == ROUND and p.board.is_full
            turns = rules.turns_a_round * rounds - (1 if filled else 0)
            top = [p.board.at(0, c) for c in range(p.board.cols)]
            tileless = filled and any(t in damage for t in top)
            least = turns - (1 if tileless else 0)
            if tiles < least:
                last = ", the last of which may have dropped only Damage tiles" if tileless else ""
                problems.append(ContentError(self.doc.path, self.doc.where(("players", p.seat, "stomach"))[0], None,
                    f"{p.name}: {counted(tiles, 'basic tile')} in the stomach, but the leaders show {counted(phases, 'Leader Phase')} and a game that ends "
                    f"{_ENDING_TEXT[ending]}, so this player took at least {counted(turns, 'turn')}{last}: {RULE_TILE_A_TURN}: expected at least "
                    f"{counted(least, 'basic tile')} (is a row missing?)"))
        return problems

    def _too_many_tiles(self, players: list[SheetPlayer], rules: "RuleVersion", phases: int, ending: str, n: int) -> list[ContentError]:
        """Boards with more basic tiles, or more Damage tiles, than the turns their player
        took can have added: each player takes at most `turns_a_round` turns a round, one
        round per Leader Phase plus the final round after a round ending, and a turn adds at
        most one shape's basic tiles (RULE_BASIC_A_TURN_MAX) and at most `damage_a_turn_max`
        Damage tiles (RULE_DAMAGE_A_TURN_MAX). Each kind is bounded on its own: a turn that
        takes the most damage still adds its whole shape. Once the stacks run out, rounds go
        on without a Leader Phase (rules.yaml rulings.stacks_run_out), so a round ending
        after the last stack sets no bound."""
        if ending == ROUND and phases >= rules.leader_stacks(n):
            return []
        turns = rules.turns_a_round * _rounds(phases, ending)
        kinds = [(rules.basic_types(), "basic tile", rules.deck.shape_squares[1], RULE_BASIC_A_TURN_MAX),
                 (rules.damage_types(), "Damage tile", rules.damage_a_turn_max, RULE_DAMAGE_A_TURN_MAX)]
        problems: list[ContentError] = []
        for p in players:
            for types, word, a_turn, why in kinds:
                tiles = sum(p.board.count(t) for t in types)
                if tiles > turns * a_turn:
                    problems.append(ContentError(self.doc.path, self.doc.where(("players", p.seat, "stomach"))[0], None,
                        f"{p.name}: {counted(tiles, word)} in the stomach, but the leaders show {counted(phases, 'Leader Phase')} "
                        f"and a game that ends {_ENDING_TEXT[ending]}, so this player took at most {counted(turns, 'turn')}, each adding at most "
                        f"{counted(a_turn, word)}: {why}: expected at most {counted(turns * a_turn, word)} (is a leader missing from the sheet?)"))
        return problems

    def _solo_rounds(self, phases: int, rules: "RuleVersion", n: int, ending: str) -> list[ContentError]:
        """The A.I. takes two cards every round (F233-239, O241-247), so its cards give
        the rounds played: one Leader Phase follows every round but the last after a
        round ending, and the last one too after a Leader-Phase ending."""
        solo = self.sheet.solo
        assert solo is not None and solo.level is not None
        rounds, odd = divmod(len(solo.ai_cards) - solo.level, 2)
        if odd or rounds < 0:
            return []  # reported by _check_solo
        want = _rounds(phases, ending)
        if rounds == want:
            return []
        # Our ruling (rules.yaml rulings.stacks_run_out): once the stacks run out, rounds
        # go on without a Leader Phase, so a round ending may follow more rounds.
        stacks_out = ending == ROUND and phases == rules.leader_stacks(n)
        if stacks_out and rules.rulings.stacks_run_out.ruling == "no-more-leader-phases" and rounds > want:
            return []
        cards = solo.level + 2 * want
        return [ContentError(self.doc.path, self.doc.where(("solo", "ai_cards"))[0], None,
                f"solo.ai_cards: {len(solo.ai_cards)} cards at level {solo.level} make {counted(rounds, 'round')}, but the leaders show {counted(phases, 'Leader Phase')} "
                f"and a game that ends {_ENDING_TEXT[ending]}: expected {cards} cards")]

    # --- one board ---------------------------------------------------------------

    def _check_player(self, i: int, p: PlayerSheet, rules: "RuleVersion", n: int) -> SheetPlayer | None:
        at = ("players", i)
        who = p.name
        ok = True
        if p.monster is None or not p.monster.strip():  # `monster:` or `monster: ''`
            self.fail(at + ("monster",), f"monster is empty: expected one of {', '.join(self.monsters)}", who)
            ok = False
        elif p.monster not in self.monsters:
            self.fail(at + ("monster",), self.names["monster"].unknown(p.monster), who)
            ok = False
        elif p.monster not in CRAVINGS or p.monster not in rules.cravings:
            text = as_written(self.written.players[i].monster or p.monster, p.monster)  # the sheet's words, as elsewhere
            self.fail(at + ("monster",), f"monster {text} has no craving to score in rules {self.sheet.rules or 'default'}", who)
            ok = False

        max_slot = max(rules.leaders_max_by_players.values())
        slots: dict[str, int] = {}
        for slot, lid in p.leaders.items():
            where = at + ("leaders", slot)
            if not 1 <= slot <= max_slot:
                self.fail(where, f"leader {slot}: expected a digit 1 to {max_slot}", who)
                ok = False
                if lid is not None:
                    self.refused.add((i, lid))  # its other problems follow from this one
                continue
            if lid is None:
                continue
            if not lid.strip():  # `1: ''`: as empty as `1:`, but says a leader belongs here
                self.fail(where, f"leader {slot} is empty: expected the title printed on its tile, or its id, or no {slot}: when digit {slot} is not on the board", who)
                ok = False
            elif lid not in self.leaders:
                self.fail(where, f"leader {slot}: {self.names['leader'].unknown(lid)}", who)
                ok = False
            elif lid in slots:
                text = self.written.players[i].leaders[slot] or lid
                self.fail(where, f"leader {slot}: {as_written(text, lid)} is also leader {slots[lid]}: there is one tile of each leader", who)
                ok = False
            else:
                slots[lid] = slot
        if p.held is not None and not p.held.strip():  # `held: ''` reads as `held:`, which is null
            self.fail(at + ("held",), f"held is empty: expected the leader still in the {rules.leader_space} (the title on its tile, or its id), or null", who)
            ok = False
        elif p.held is not None and p.held not in self.leaders:
            self.fail(at + ("held",), f"held: {self.names['leader'].unknown(p.held)}, or null", who)
            ok = False

        held_id = p.held if p.held is not None and p.held.strip() else None  # an empty one is reported above

        board, readable, settled = self._board(i, p, rules, n)
        if board is None:
            return None
        ok = ok and readable
        placed = set(board.leaders.values())
        for lid, slot in slots.items():
            if lid not in placed and lid != held_id:
                text = as_written(self.written.players[i].leaders[slot] or lid, lid)
                self.fail(at + ("leaders", slot), f"leader {slot}: {text} is neither in the stomach nor held: expected digit {slot} on the board, or held: {lid}", who)
                self.refused.add((i, lid))
                ok = False
        if held_id is not None and held_id in placed:
            self.fail(at + ("held",), f"held: {as_written(self.written.players[i].held or held_id, held_id)} is also in the stomach: a held leader was not eaten", who)
            ok = False
        # One leader from setup plus one per Leader Phase, one phase per stack (F40-42,
        # F176; O59-61, O175): never more than stacks + 1, never none.
        limit = rules.leaders_max(n)
        held = 1 if held_id is not None and held_id not in placed else 0
        if len(board.leaders) > limit:
            self.fail(at + ("stomach",), f"{len(board.leaders)} leaders in the stomach: at most {limit} with {counted(n, 'player')} "
                      f"(one from setup plus one per Leader Phase, {rules.leader_stacks(n)} phases; {rules.rulings.stacks_run_out.says})", who)
            ok = False
        elif len(board.leaders) + held > limit:
            self.fail(at + ("held",), f"held: {len(board.leaders)} leaders in the stomach and 1 held: at most {limit} in all with {counted(n, 'player')} "
                      f"(one from setup plus one per Leader Phase, {rules.leader_stacks(n)} phases; {rules.rulings.stacks_run_out.says})", who)
            ok = False
        elif len(board.leaders) + held == 0:
            self.fail(at + ("leaders",), f"no leader in the stomach and none held: every player starts with one in the {rules.leader_space}", who)
            ok = False
        if p.king and n == 1:  # `king: false` and no `king:` are both the blank solo sheet's meaning
            self.fail(at + ("king",), f"king: true, but there is {RULE_SOLO_NO_KING.format(king_bonus=rules.king_bonus)}: expected king: false or no king", who)
            ok = False
        elif p.king and n > 1 and settled and not board.is_full:
            self.fail(at + ("king",), f"king: the Village King bonus needs a full stomach, this one has {counted(board.count(EMPTY), 'empty cell')}", who)
            ok = False
        if not ok or p.monster is None:
            return None
        return SheetPlayer(p.name, i, p.monster, p.king, board, slots, p.held, p.claimed)

    def _board(self, i: int, p: PlayerSheet, rules: "RuleVersion", n: int) -> tuple[Board | None, bool, bool]:
        """The board, whether it is free of problems, and whether its tiles have settled (no
        gap under a tile: a gap is likely a copying slip, so checks that need to know if the
        stomach is full are skipped). The board is None when its grid has the wrong shape or
        an unknown symbol: then nothing else about it can be checked."""
        at = ("players", i, "stomach")
        who = p.name
        rows, cols = rules.rows(n), rules.stomach.columns
        printed = rules.symbol_to_tile()
        # A row copied in lower case ("h a b g 1 h") means the same tiles; a symbol that
        # is itself lower case in rules.yaml keeps its own meaning.
        symbols = {**{k.lower(): v for k, v in printed.items()}, **printed}
        lines = _stomach_lines(self.doc, at, p.stomach)
        grid = [split_row(text) for _, text in lines]
        ok = True
        if len(grid) != rows:
            self.fail(at, f"stomach has {counted(len(grid), 'row')}: expected {rows} for {counted(n, 'player')}", who)
            ok = False
        shaped = settled = ok
        # An empty name (`1: ''`) is reported by _check_player: the digit is not unnamed too.
        digits = {str(slot): lid for slot, lid in p.leaders.items() if lid is not None}
        max_slot = max(rules.leaders_max_by_players.values())
        legend = " ".join(printed) + f", 1-{max_slot} (leaders) or {EMPTY_SYMBOL}"
        cells: list[str] = []
        leaders: dict[int, str] = {}
        first_at: dict[str, tuple[int, int]] = {}
        for r, ((line, _), row) in enumerate(zip(lines, grid)):
            if len(row) != cols:
                self.fail_line(line, f"{who}, row {r + 1}: {counted(len(row), 'cell')}: expected {cols}")
                ok = shaped = False
                continue
            for c, sym in enumerate(row):
                where = f"{who}, row {r + 1} column {c + 1}"
                if sym in symbols:
                    cells.append(symbols[sym])
                elif sym == EMPTY_SYMBOL:
                    cells.append(EMPTY)
                elif sym.isascii() and sym.isdigit() and 1 <= int(sym) <= max_slot:  # not ², ①, ٣
                    cells.append(LEADER)
                    if sym not in digits:
                        self.fail_line(line, f"{where}: leader {sym} but no leader is named for {sym}: expected leaders: {{{sym}: <leader title>}}")
                        ok = False
                    elif sym in first_at:
                        fr, fc = first_at[sym]
                        self.fail_line(line, f"{where}: leader {sym} is also at row {fr} column {fc}: a leader tile is in one place")
                        ok = False
                    else:
                        first_at[sym] = (r + 1, c + 1)
                        leaders[len(cells) - 1] = digits[sym]
                else:
                    self.fail_line(line, f"{where}: unknown symbol {sym!r} (U+{ord(sym):04X}): expected {legend}")
                    ok = shaped = False  # what the cell holds is unknown: checks on the board would guess
                    cells.append(EMPTY)
            # Tiles always fall: an empty cell directly under a tile cannot happen.
            if r > 0 and len(grid[r - 1]) == cols:
                for c, sym in enumerate(row):
                    if sym == EMPTY_SYMBOL and grid[r - 1][c] != EMPTY_SYMBOL:
                        self.fail_line(line, f"{who}, row {r + 1} column {c + 1}: empty cell below a tile")
                        ok = settled = False
        if not shaped:
            return None, False, False
        return Board(rows, cols, cells, leaders), ok, settled


_ENDING_TEXT = {ROUND: "after a round", LEADER_PHASE: "in the Leader Phase"}


def sheet_names(game: "GameContent") -> dict[str, Names]:
    """What a sheet may write for each component a table reads a name from: the leader
    tile's title, the monster board's name, the adventurer card's name (the fields the
    templates print), or the id."""
    data = game.data
    return {
        "leader": Names("leader", "title printed on the leader tile", "leaders.yaml", ((l.id, l.title) for l in data["leaders"].leaders)),
        "monster": Names("monster", "name printed on the monster board", "monsters.yaml", ((m.id, m.name) for m in data["monsters"].monsters)),
        "adventurer": Names("adventurer", "name printed on the adventurer card", "adventurers.yaml", ((a.id, a.name) for a in data["adventurers"].adventurers)),
    }


def asks_king_token(rules: "RuleVersion", players: int) -> bool:
    """Whether a sheet of this rule version and player count has `king_token:`: a game of
    several players whose seat-order tie-break starts at the King token (0.2.8 line 215;
    rules.yaml rulings.king_token_unknown)."""
    return players > 1 and "seat-from-king" in rules.tie_break


def template(game: "GameContent", players: int, options: dict[str, str] | None = None) -> str:
    """A blank, commented sheet for `players` players under the rule version
    `options["rules"]` (default: the rule set's default), ready to fill in."""
    rule_set = game.data["rules"]
    name = (options or {}).get("rules") or rule_set.default
    rules = rule_set.version(name)
    counts = sorted(rules.stomach.rows_by_players)
    if players not in counts:
        from pnp.api import OptionError

        raise OptionError(f"--players {players}: expected {counts[0]} to {counts[-1]}")
    rows, cols = rules.rows(players), rules.stomach.columns
    slots = rules.leaders_max(players)
    legend = ", ".join(f"{t.symbol} {t.name.lower()}" for t in rules.tiles.values())
    monsters = ", ".join(m.name for m in game.data["monsters"].monsters)
    versions = ", ".join(f'"{v}"' if not v.isidentifier() else v for v in rule_set.names())
    out = [
        "# Tasty Humans scoring sheet: copy each stomach, then run `pnp score <this file>`.",
        f"game: {GAME}",
        f"rules: {name if name.isidentifier() else repr(name):<18}# one of: {versions}",
        f"ending: null             # {ROUND} (a stomach filled while eating an adventurer), {LEADER_PHASE}",
        "                         # (filled by a dropped leader), or null to let pnp work it out",
    ]
    if asks_king_token(rules, players):
        out += [
            "king_token: null         # if two or more players filled at once (all king: true): the name of the one",
            "                         # holding the Village King token itself; null: the first of them in seat order",
        ]
    out.append("players:                 # in seat order, clockwise")
    for seat in range(1, players + 1):
        out += [
            f"  - name: Player {seat}",
            f"    monster:             # {monsters}",
        ]
        if players > 1:
            out.append("    king: false          # true if this player holds the Village King bonus")
        out.append(f"    leaders:             # the leader (title on its tile, or id) for each digit 1-{slots} in the stomach")
        out += [f"      {k}:" for k in range(1, slots + 1)]
        out += [
            f"    held: null           # the leader still in the {rules.leader_space} (not eaten), or null",
            f"    # stomach: {rows} rows top to bottom, {cols} cells each: {legend},",
            f"    # 1-{slots} the leaders above, {EMPTY_SYMBOL} empty (spaces optional)",
            "    stomach: |",
        ]
        out += ["      " + " ".join([EMPTY_SYMBOL] * cols) for _ in range(rows)]
        out.append("    claimed: null        # the total you counted, to check it")
    if players == 1:
        named = rules.solo.levels
        levels = f"A.I. level {min(named)}-{max(named)}" if named else "A.I. level: the cards it started with"
        # The level a first solo game is suggested (rules.yaml solo.first_level, F222);
        # a version that suggests none (0.2.8) leaves it to fill in.
        first = rules.solo.first_level
        if first is not None:
            levels += f" ({first} suggested for a first solo game)"
        challenges = [f"{BALANCED_DIET}/{d}" for d in rules.solo.balanced_diet or {}]
        challenges += [MONSTER_CHALLENGE] if rules.solo.monster_challenges else []
        out += [
            "solo:",
            f"  level: {'null' if first is None else first:<17}# {levels}",
            "  ai_cards: []            # every card the A.I. holds, by the name on it (or id), e.g. [Rolf the Reckless, adv-19]",
            "                          # (pnp counts classes and shape tiles from them, as the printed sheet does by hand)",
        ]
        if challenges:
            out.append(f"  challenge: null         # {', '.join(challenges)}, or null")
    return "\n".join(out) + "\n"
