"""Schemas of the Tasty Humans content files (rules, adventurers, leaders, monsters).

Checks that need more than one file (shape symbols against the rule set's tiles, classes,
leader ids, cravings per monster, counts, duplicate ids) live in `checks.py`.
"""

from __future__ import annotations

import re
import string
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

from pydantic import (
    BaseModel,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from pnp.api import PnpError, counted
from pnp.api import GRIDS
from pnp.api import deep_merge
from pnp.api import StrictModel, beyond_name, keys_of, complaint, mapping_at, text_with, unknown_key

if TYPE_CHECKING:
    from pydantic_core import InitErrorDetails

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
EMPTY = "."  # an empty square in an adventurer's shape


def _slug(v: str, what: str = "") -> str:
    if not SLUG.match(v):
        raise ValueError(f"{what + ' ' if what else ''}{v!r} is not a slug: expected lower-case letters, digits and '-'")
    return v


def _placeholders(text: str) -> set[str]:
    """Names of the `{...}` fields in a format string; ValueError when it is malformed."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError as exc:
        raise ValueError(f"is not a valid format string ({exc}): write literal braces as '{{{{' and '}}}}'") from None


class _UnitFormatter(string.Formatter):
    """`{points:point}` prints the number with its unit, plural unless it is 1 ("1 point",
    "2 points"); `{n:foot|feet}` names an irregular plural. Other fields print as usual."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec and UNIT.match(format_spec):
            one, _, many = format_spec.partition("|")
            return counted(value, one, many or None)
        return super().format_field(value, format_spec)


UNIT = re.compile(r"^[a-z]+(\|[a-z]+)?$")
# A number field followed by a unit written out: the unit would not follow the number.
_BARE_UNIT = re.compile(r"\{(points|distance)\}\s+(points?|steps?|tiles?)\b")


def fill(text: str, **values: Any) -> str:
    """`text` with its fields filled in, units following their numbers (`{points:point}`)."""
    return _UnitFormatter().format(text, **values)


def _check_placeholders(text: str, allowed: list[str], required: list[str]) -> str:
    bare = _BARE_UNIT.search(text)
    if bare:
        raise ValueError(f"writes {bare.group(0)!r}: expected {{{bare.group(1)}:{bare.group(2).rstrip('s')}}}, so the unit is plural exactly when the number is not 1")
    names = _placeholders(text)
    if more := beyond_name(text, lambda spec: UNIT.match(spec) is not None):  # a field is its value, or a number with its unit ({points:point})
        raise ValueError(f"placeholder {more[1]}: expected {{{more[0]}}} as it is (or a number with its unit, as {{points:point}})")
    unknown = sorted(names - set(allowed))
    if unknown:
        raise ValueError(f"unknown placeholder {{{unknown[0]}}}: expected only {', '.join('{' + a + '}' for a in allowed)}")
    missing = [r for r in required if r not in names]
    if missing:
        # Without the placeholder the printed number could drift from what the scorer uses.
        raise ValueError(f"does not mention {{{missing[0]}}}: expected the text to print it from the data")
    return text


# ---------------------------------------------------------------- rules.yaml


def _within_grid(side: int) -> None:
    """A stomach's rows or columns within the grid limit: scoring searches the grid, and a
    sheet's `changes:` may ask for any size (checked before any work)."""
    limit = GRIDS["side"]
    if side > limit:
        raise ValueError(f"is {side}: expected at most {limit} rows or columns, {GRIDS.hint('side')}")


class Stomach(StrictModel):
    """The stomach grid: fixed columns, rows depending on the player count."""

    columns: int
    rows_by_players: dict[int, int]
    row_markers: list[int]

    @field_validator("columns")
    @classmethod
    def _columns(cls, v: int) -> int:
        if v < 1:
            raise ValueError(f"is {v}: expected at least 1")
        _within_grid(v)
        return v

    @field_validator("rows_by_players")
    @classmethod
    def _rows(cls, v: dict[int, int]) -> dict[int, int]:
        if not v:
            raise ValueError("is empty: expected rows for each player count, e.g. {2: 6}")
        for players, rows in v.items():
            if players < 1 or rows < 1:
                raise ValueError(f"{players}: {rows} is not allowed: expected player counts and rows of at least 1")
            _within_grid(rows)
        return v

    @field_validator("row_markers")
    @classmethod
    def _markers(cls, v: list[int], info: ValidationInfo) -> list[int]:
        if v != sorted(set(v)):
            raise ValueError(f"{v} is not strictly increasing: expected the top row's marker first (it allows the fewest players)")
        rows = info.data.get("rows_by_players")
        if rows:
            top = max(rows.values())
            expected = {p: top - sum(1 for m in v if m < p) for p in rows}
            if expected != rows:
                raise ValueError(
                    f"{v} does not fit rows_by_players {rows}: a row marked N is used only with N or fewer players, "
                    f"so these markers expect rows_by_players {expected}"
                )
        return v


class TileType(StrictModel):
    """A kind of tile: `symbol` is its letter on score sheets and adventurer shapes."""

    symbol: str
    name: str
    basic: bool
    supply: int

    @field_validator("symbol")
    @classmethod
    def _symbol(cls, v: str) -> str:
        if len(v) != 1 or not v.isupper():
            raise ValueError(f"{v!r} is not allowed: expected one upper-case letter")
        return v

    @field_validator("supply")
    @classmethod
    def _supply(cls, v: int) -> int:
        if v < 0:
            raise ValueError(f"is {v}: expected 0 or more")
        return v


class Craving(StrictModel):
    """A monster's personal craving: points per pattern; `overlap` lets patterns share cells."""

    points: int
    overlap: bool = False


class ChallengeNumbers(StrictModel):
    """The numbers of the monsters' solo challenges (published lines 289-295), which the
    scorer checks and the monster boards and solo card print (monsters.yaml `challenge`)."""

    at_least: int = Field(ge=1, description="blocks, runs or stacks a challenge needs ('at least two')")
    dragon_block: tuple[int, int] = Field(description="the Legendary Dragon's block, rows x columns, either way round ('a 2x3 block')")
    griffin_run: int = Field(ge=2, description="tiles in each of the Griffin's alternating runs ('six tiles long')")

    @field_validator("dragon_block")
    @classmethod
    def _block(cls, v: tuple[int, int]) -> tuple[int, int]:
        if min(v) < 1:
            raise ValueError(f"dragon_block {list(v)}: expected two sizes of 1 or more")
        for side in v:  # the scorer lists a block's cells and a run's steps: none longer than a stomach may be
            _within_grid(side)
        return v

    @field_validator("griffin_run")
    @classmethod
    def _run(cls, v: int) -> int:
        _within_grid(v)
        return v


class Solo(StrictModel):
    """Solo mode: A.I. levels, which classes the A.I. scores, and the solo challenges a
    version has (None / false: the version has no such thing, and a sheet naming it is
    rejected)."""

    levels: dict[int, str] | None = Field(description="named A.I. levels; null: any level N >= 0 (N starting cards), unnamed")
    first_level: int | None = Field(None, description="the level the rules suggest for a first solo game; null: none suggested")
    simulated_level: int = Field(ge=0, description="the level `pnp simulate` plays when none is given and the rules suggest none "
                                 "(first_level null): pnp's choice, not a rule")
    scored_classes: list[str]
    balanced_diet: dict[str, int] | None = Field(description="Balanced Diet thresholds per difficulty; null: no such challenge")
    monster_challenges: bool = Field(description="whether the monsters' solo challenges exist in this version")
    challenge_numbers: ChallengeNumbers | None = Field(None, description="the monster challenges' numbers; needed when monster_challenges is true")

    @model_validator(mode="after")
    def _first_level_named(self) -> "Solo":
        for key, level in (("first_level", self.first_level), ("simulated_level", self.simulated_level)):
            if level is not None and self.levels is not None and level not in self.levels:
                raise ValueError(f"{key} {level} is not a level: expected one of {', '.join(map(str, sorted(self.levels)))}")
        return self

    @model_validator(mode="after")
    def _challenges_have_numbers(self) -> "Solo":
        if self.monster_challenges and self.challenge_numbers is None:
            raise ValueError("monster_challenges is true: expected challenge_numbers, the numbers the challenges check and print")
        return self

    def default_level(self) -> int:
        """The level a simulated solo game plays unless told: the first-game level the
        rules suggest (F222), else pnp's `simulated_level`."""
        return self.first_level if self.first_level is not None else self.simulated_level


TieBreak = Literal["fewer-damage", "leaders-ascending", "fewer-empty", "seat-from-king", "shared"]


def _per_players(v: dict[int, int], info: ValidationInfo) -> dict[int, int]:
    stomach = info.data.get("stomach")
    if stomach is not None and set(v) != set(stomach.rows_by_players):
        want = ", ".join(map(str, sorted(stomach.rows_by_players)))
        raise ValueError(f"covers players {sorted(v)}: expected the player counts of stomach.rows_by_players ({want})")
    if any(n < 1 for n in v.values()):
        raise ValueError(f"{v} has a value below 1: expected 1 or more")
    return v


class DeckCounts(StrictModel):
    """How many cards and tiles the game has, and how big an adventurer's shape may be."""

    adventurers: int = Field(ge=1)
    leaders: int = Field(ge=1)
    shape_squares: tuple[int, int] = Field(description="fewest and most squares in an adventurer's shape")

    @field_validator("shape_squares")
    @classmethod
    def _range(cls, v: tuple[int, int]) -> tuple[int, int]:
        if not 1 <= v[0] <= v[1]:
            raise ValueError(f"is {list(v)}: expected [fewest, most] with 1 <= fewest <= most")
        return v


class Kit(StrictModel):
    """Printed pieces whose presence or name differs between rule versions."""

    scoring_tokens: bool = Field(description="one scoring token per monster, for the scoring track")
    leader_board: str = Field(description="what the rules call the board the leader stacks sit on")
    king_placeholders: int = Field(ge=0, description="markers for players who share the Village King bonus")
    stacks_right_to_left: bool = Field(description="the rules place the stacks right to left (an arrow shows it)")
    stacks_heading: str = Field(description="the leader board's line over the face-down stack spaces")
    open_row_heading: str = Field(description="the leader board's line over the revealed leaders")


class StacksRunOut(StrictModel):
    """Our ruling for a gap in both rule books: what happens once the leader stacks are
    used up and no stomach is full yet. The engine plays it and the sheet checker accepts
    the boards it leaves (rules.yaml gives the reasoning)."""

    ruling: Literal["no-more-leader-phases"] = Field(description="rounds go on without a Leader Phase until a stomach fills")
    says: str = Field(description="the ruling in one sentence, quoted by messages that rely on it")


class KingTokenUnknown(StrictModel):
    """Our default for a gap between a sheet and the 0.2.8 tie-break: several players
    filled their stomachs at once (all hold the King bonus), the tie-break counts seats
    from whoever holds the token itself, and the sheet does not say who that is."""

    ruling: Literal["first-king-in-seat-order"] = Field(description="the King first in the sheet's seat order holds the token")
    says: str = Field(description="the default in one sentence, printed in a report that relies on it")


class UnequalLeaders(StrictModel):
    """Our reading of the published tie-break on leaders (F204) when tied players ate
    different numbers of leaders: the player with the extra leader wins once the others
    tie (the tuple comparison of `leaders-ascending`)."""

    ruling: Literal["extra-leader-wins"] = Field(description="once the shorter list ties, the longer one wins")
    says: str = Field(description="the reading in one sentence, printed in a report where it decides the winner")
    says_shared: str = Field(description="the same when the winners share the victory and the reading left a tied player out of it")


class ChallengeOverlap(StrictModel):
    """Our reading of the Legendary Dragon's and the Griffin's solo challenges (F289,
    F293): the two 2x3 blocks, or the two six-long runs, may share tiles."""

    ruling: Literal["may-share"] = Field(description="two distinct blocks or runs meet the challenge even when they overlap")
    says: str = Field(description="the reading in one sentence, printed with those challenges' verdict")


class Rulings(StrictModel):
    """Where the rule books are silent and pnp decides (each says why in rules.yaml)."""

    stacks_run_out: StacksRunOut
    king_token_unknown: KingTokenUnknown
    unequal_leaders: UnequalLeaders | None = Field(None, description="only for versions whose tie-break compares leaders (leaders-ascending)")
    challenge_overlap: ChallengeOverlap | None = Field(None, description="only for versions with the monster challenges (solo.monster_challenges)")


class RuleVersion(StrictModel):
    """One fully resolved rule set: every number the scorer and the templates use."""

    title: str
    deck: DeckCounts
    stomach: Stomach
    leaders_max_by_players: dict[int, int]
    leader_stacks_by_players: dict[int, int]
    leader_stack_tiles_by_players: dict[int, int] = Field(description="leader tiles in each face-down stack at setup, per player count")
    turns_a_round: int = Field(ge=1, description="turns each player takes in a round (the snake draft); the sheet check counts them")
    damage_a_turn_max: int = Field(ge=0, description="most Damage tiles one turn can add (the 3 x 3 grid's Swordsmen and Archers); bounds a stomach in the sheet check")
    classes: dict[str, str]
    tiles: dict[str, TileType]
    king_bonus: int
    damage_penalty: int
    cravings: dict[str, Craving]
    tie_break: list[TieBreak]
    held_leader: Literal["ignored", "zero"] = Field(
        description="how a leader still held at game end counts where leaders are compared (tie-break, Balanced Diet): "
        "ignored = it is not one of the player's scoring leaders; zero = it is one that scored 0"
    )
    leader_space: str = Field(description="what the rules call the space holding the leader not yet eaten")
    solo: Solo
    kit: Kit
    rulings: Rulings

    _check_leaders_max = field_validator("leaders_max_by_players")(_per_players)
    _check_stacks = field_validator("leader_stacks_by_players")(_per_players)
    _check_stack_tiles = field_validator("leader_stack_tiles_by_players")(_per_players)

    @field_validator("stomach")
    @classmethod
    def _a_leader_each(cls, v: Stomach, info: ValidationInfo) -> Stomach:
        # Every player draws a leader tile at setup (published rules line 40): no table is larger
        # than the leaders. Also bounds the seats of the snake order the reference card prints.
        deck = info.data.get("deck")
        if deck is not None and max(v.rows_by_players) > deck.leaders:
            raise ValueError(f"rows_by_players covers {max(v.rows_by_players)} players: expected at most {deck.leaders}, "
                             "the deck's leaders (every player takes one at setup)")
        return v

    @field_validator("turns_a_round")
    @classmethod
    def _turns_fit_a_stomach(cls, v: int) -> int:
        # Every turn drops a basic tile into the stomach and basic tiles never leave it (sheet.py
        # RULE_TILE_A_TURN): no round has more turns than the largest stomach pnp allows has
        # cells. Also bounds the snake order the reference card prints (`snake_order`).
        cells = GRIDS["side"] ** 2
        if v > cells:
            raise ValueError(f"is {v}: expected at most {cells}, the cells of the largest stomach (every turn drops a tile "
                             f"into it, and none leaves; {GRIDS.hint('side')})")
        return v

    @field_validator("classes")
    @classmethod
    def _classes(cls, v: dict[str, str]) -> dict[str, str]:
        for key in v:
            _slug(key, "class id")
        return v

    @field_validator("tiles")
    @classmethod
    def _tiles(cls, v: dict[str, TileType]) -> dict[str, TileType]:
        seen: dict[str, str] = {}
        for name, tile in v.items():
            _slug(name, "tile type")
            if tile.symbol in seen:
                raise ValueError(f"{name!r} reuses symbol {tile.symbol!r} of {seen[tile.symbol]!r}: expected one symbol per tile type")
            seen[tile.symbol] = name
        if not any(t.basic for t in v.values()):
            raise ValueError("has no basic tile type: expected at least one with basic: true")
        return v

    @field_validator("solo")
    @classmethod
    def _solo(cls, v: Solo, info: ValidationInfo) -> Solo:
        classes = info.data.get("classes")
        if classes is not None:
            unknown = [c for c in v.scored_classes if c not in classes]
            if unknown:
                raise ValueError(f"scored_classes names {unknown[0]!r}: expected classes from `classes` ({', '.join(classes)})")
        return v

    @model_validator(mode="after")
    def _leaders_follow_stacks(self) -> "RuleVersion":
        # One leader at setup plus one per Leader Phase, one phase per stack.
        expected = {p: n + 1 for p, n in self.leader_stacks_by_players.items()}
        if expected != self.leaders_max_by_players:
            raise ValueError(
                f"leaders_max_by_players {self.leaders_max_by_players} does not fit leader_stacks_by_players: "
                f"a player ends with one leader from setup plus one per stack, expected {expected}"
            )
        return self

    @model_validator(mode="after")
    def _stacks_come_from_the_deck(self) -> "RuleVersion":
        # Setup deals every player a leader, then the stacks (published line 42): the deck
        # must hold them all, or the simulator would deal short stacks.
        for players, stacks in sorted(self.leader_stacks_by_players.items()):
            tiles = self.leader_stack_tiles_by_players.get(players, 0)
            if players + stacks * tiles > self.deck.leaders:
                raise ValueError(
                    f"leader_stack_tiles_by_players: {players} player(s) take {players} + {stacks} x {tiles} = "
                    f"{players + stacks * tiles} leaders at setup: expected at most {self.deck.leaders}, the deck's leaders"
                )
        return self

    @model_validator(mode="after")
    def _leader_tie_break_has_its_ruling(self) -> "RuleVersion":
        # Comparing leaders meets players with unequal leader counts; the books are silent
        # there, so the version must carry our reading (printed when it decides a game).
        if "leaders-ascending" in self.tie_break and self.rulings.unequal_leaders is None:
            raise ValueError("tie_break compares leaders (leaders-ascending): expected rulings.unequal_leaders, the reading for players with unequal leader counts")
        return self

    @model_validator(mode="after")
    def _monster_challenges_have_their_ruling(self) -> "RuleVersion":
        # The dragon's and the griffin's challenges are silent on shared tiles: the
        # version must carry our reading, printed with their verdict.
        if self.solo.monster_challenges and self.rulings.challenge_overlap is None:
            raise ValueError("solo.monster_challenges is true: expected rulings.challenge_overlap, the reading of the dragon's and the griffin's challenges")
        return self

    @field_validator("tie_break")
    @classmethod
    def _tie_break(cls, v: list[str]) -> list[str]:
        if len(set(v)) != len(v):
            raise ValueError(f"{v} repeats a step: expected each tie-break step once")
        return v

    def with_changes(self, changes: dict[str, Any]) -> "RuleVersion":
        """This rule version with values changed by their dotted path in rules.yaml
        (`{"cravings.troll.points": 3}`), checked by the same schema: what `pnp simulate
        --set` plays and a sheet's `changes:` scores. Raises ValueError('<key>: <why>')."""
        data = self.model_dump(by_alias=True)
        for key, value in changes.items():
            _within_range(key, value)
            node: Any = data
            parts = str(key).split(".")
            for i, part in enumerate(parts):
                if not isinstance(node, dict) or part not in node:
                    where = ".".join(parts[:i]) or "the rule version"
                    keys = ", ".join(map(str, node)) if isinstance(node, dict) else "no keys (a value)"
                    raise ValueError(f"{key}: {where} has no {part!r}: expected one of {keys}")
                if i == len(parts) - 1:
                    node[part] = value
                else:
                    node = node[part]
        try:
            return RuleVersion.model_validate(data)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(map(str, first["loc"]))
            # the change the error is about (its key, once), else the place in the rules
            key = next((str(k) for k in changes if where == str(k) or where.startswith(f"{k}.") or str(k).startswith(f"{where}.")), where)
            inside = where[len(key) + 1:] + ": " if where.startswith(f"{key}.") else ""
            raise ValueError(f"{key}: {inside}{complaint(first)}") from None

    def rows(self, players: int) -> int:
        """Stomach rows in use with `players` players (solo counts as 1)."""
        return _lookup(self.stomach.rows_by_players, players, "stomach rows")

    def leaders_max(self, players: int) -> int:
        """Most leader tiles a stomach may hold at game end with `players` players."""
        return _lookup(self.leaders_max_by_players, players, "leader limit")

    def leader_stacks(self, players: int) -> int:
        """Leader stacks dealt at setup with `players` players."""
        return _lookup(self.leader_stacks_by_players, players, "leader stacks")

    def leader_stack_tiles(self, players: int) -> int:
        """Leader tiles in each stack dealt at setup with `players` players."""
        return _lookup(self.leader_stack_tiles_by_players, players, "leader stack tiles")

    def symbol_to_tile(self) -> dict[str, str]:
        """Sheet symbol -> tile type id, e.g. {'H': 'helmet', ..., 'D': 'damage'}."""
        return {t.symbol: name for name, t in self.tiles.items()}

    def basic_types(self) -> list[str]:
        """Basic tile type ids in file order (never damage or leader)."""
        return [name for name, t in self.tiles.items() if t.basic]

    def damage_types(self) -> list[str]:
        """The tile type ids that are not basic: the Damage tile's."""
        return [name for name, t in self.tiles.items() if not t.basic]


# a number a change may set (points, counts, thresholds): far past any rule, and far inside
# the engine's 64-bit arithmetic (numpy), where a larger one overflows
CHANGE_RANGE = 1_000_000


def _within_range(key: str, value: Any) -> None:
    """Refuse a changed value holding a number outside +-CHANGE_RANGE (ValueError('<key>: <why>'))."""
    waiting = [value]
    while waiting:
        item = waiting.pop()
        if isinstance(item, (list, tuple)):
            waiting.extend(item)
        elif isinstance(item, dict):
            waiting.extend([*item.keys(), *item.values()])
        elif isinstance(item, (int, float)) and not isinstance(item, bool) and not -CHANGE_RANGE <= item <= CHANGE_RANGE:
            shown = f"{item:g}" if isinstance(item, float) else f"{item}" if len(str(item)) <= 40 else f"a number of {len(str(item))} digits"
            raise ValueError(f"{key}: {shown} is out of range: expected a number from {-CHANGE_RANGE:,} to {CHANGE_RANGE:,}")


def _lookup(table: dict[int, int], players: int, what: str) -> int:
    if players not in table:
        raise ValueError(f"no {what} for {players} players: expected one of {', '.join(map(str, sorted(table)))}")
    return table[players]


def _depth(data: Any, loc: tuple) -> int:
    """How many leading parts of `loc` exist in `data`."""
    n = 0
    for part in loc:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            break
        n += 1
    return n


def _allowed_keys(model: type[BaseModel], loc: tuple) -> list[str]:
    """Keys accepted where `loc` (inside a RuleVersion) points, stepping through dicts."""
    node: Any = model
    for part in loc[:-1]:
        if isinstance(node, type) and issubclass(node, BaseModel):
            field = node.model_fields.get(part) if isinstance(part, str) else None
            if field is None:
                return []
            node = field.annotation
        else:  # dict[K, V] or list[V]: step into the value type
            args = getattr(node, "__args__", ()) or ()
            if not args:
                return []
            node = args[-1]
    if isinstance(node, type) and issubclass(node, BaseModel):
        return [f.alias or n for n, f in node.model_fields.items()]
    return []


class RuleSet(StrictModel):
    """rules.yaml: named rule versions; a version may `extends` another and override parts."""

    default: str
    versions: dict[str, dict[str, Any]]
    _resolved: dict[str, RuleVersion] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _resolve(self) -> "RuleSet":
        problems: list[dict[str, Any]] = []

        def fail(loc: tuple, message: str, value: Any = None, at_key: bool = False) -> None:
            # `at_key`: about the key (an unknown one), which pnp then places at the key, not its value
            problems.append({"type": "value_error", "loc": loc, "input": value, "ctx": {"error": ValueError(message), "at_key": at_key}})

        names = list(self.versions)
        if self.default not in self.versions:
            fail(("default",), f"names no version {self.default!r}: expected one of {', '.join(names)}", self.default)
        chains: dict[str, list[str]] = {}
        for name, raw in self.versions.items():
            chain, bad = [name], False
            while "extends" in self.versions[chain[-1]]:
                parent = self.versions[chain[-1]]["extends"]
                if not isinstance(parent, str) or parent not in self.versions:
                    if chain[-1] == name:  # reported once, by the version that says it
                        fail(("versions", name, "extends"), f"names no version {parent!r}: expected one of {', '.join(n for n in names if n != name)}", parent)
                    bad = True
                    break
                if parent in chain:
                    loop = chain[chain.index(parent):]
                    if name == min(loop, key=names.index):  # report a cycle once, at its first version
                        cycle = " -> ".join(loop + [parent])
                        fail(("versions", name, "extends"), f"versions extend each other in a cycle ({cycle}): expected a chain ending in a version without extends", parent)
                    bad = True
                    break
                chain.append(parent)
            if not bad:
                chains[name] = chain

        for name, chain in chains.items():
            merged: dict[str, Any] = {}
            for part in reversed(chain):
                merged = deep_merge(merged, {k: v for k, v in self.versions[part].items() if k != "extends"})
            try:
                self._resolved[name] = RuleVersion.model_validate(merged)
            except ValidationError as exc:
                for err in exc.errors(include_url=False):
                    loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith(("function-", "tagged-"))))
                    where = ("versions", self._origin(chain, loc), *loc)
                    if err["type"] == "extra_forbidden":
                        allowed = _allowed_keys(RuleVersion, loc) + (["extends"] if len(loc) == 1 else [])
                        # the keys the version writing it has there itself: `titel:` beside an inherited `title:` meant to override it
                        fail(where, unknown_key(loc[-1], allowed, mapping_at(self.versions[str(where[1])], loc[:-1])), err.get("input"), at_key=True)
                    else:
                        problems.append({k: err[k] for k in ("type", "input", "ctx") if k in err} | {"loc": where})
        if problems:
            # Errors of a base show up again in every version built on it; keep one of each.
            unique = list({(p["loc"], p["type"], str(p.get("ctx"))): p for p in problems}.values())
            raise ValidationError.from_exception_data(type(self).__name__, cast("list[InitErrorDetails]", unique))
        return self

    def _origin(self, chain: list[str], loc: tuple) -> str:
        """The version in `chain` (most derived first) that wrote the value at `loc`."""
        if not loc:
            return chain[0]
        depths = [_depth(self.versions[v], loc) for v in chain]
        best = max(depths)
        if best == 0:  # nobody wrote even the top key: a gap in the root version
            return chain[-1]
        return chain[depths.index(best)]

    def version(self, name: str | None = None) -> RuleVersion:
        """The resolved rule version `name` (the default when None)."""
        name = self.default if name is None else name
        if name not in self._resolved:
            raise PnpError(f"unknown rule version {name!r}: expected one of {', '.join(self._resolved)}")
        return self._resolved[name]

    def names(self) -> list[str]:
        """Every version name, in file order."""
        return list(self.versions)


# ---------------------------------------------------------------- adventurers.yaml


class Adventurer(StrictModel):
    """One adventurer card. `class_` is the YAML key `class`; `shape` rows read top to bottom."""

    id: str
    name: str
    class_: str = Field(alias="class")
    shape: list[str]
    intel: int = 0
    banner: Literal["horizontal", "vertical"] | None = Field(None, validate_default=True)
    # symbol -> tile type, bound by checks.check from the rule set the content was checked against
    _symbols: dict[str, str] | None = PrivateAttr(default=None)

    _id = field_validator("id")(classmethod(lambda cls, v: _slug(v)))

    @field_validator("shape")
    @classmethod
    def _shape(cls, v: list[str]) -> list[str]:
        if not v or not all(v):
            raise ValueError('is empty: expected rows of tile symbols such as ["HA", ".B"]')
        return v

    @field_validator("intel")
    @classmethod
    def _intel(cls, v: int) -> int:
        if not 0 <= v <= 2:
            raise ValueError(f"is {v}: expected 0, 1 or 2 intel icons")
        return v

    @field_validator("banner")
    @classmethod
    def _banner(cls, v: str | None, info: ValidationInfo) -> str | None:
        klass = info.data.get("class_")
        if klass is None:
            return v
        if klass == "captain" and v is None:
            raise ValueError("is missing: a captain needs a banner, expected horizontal or vertical")
        if klass != "captain" and v is not None:
            raise ValueError(f"is only for captains: expected no banner on a {klass}")
        return v

    def size(self) -> int:
        """Number of squares in the shape (what the solo A.I. scores for the card)."""
        return sum(len(row) - row.count(EMPTY) for row in self.shape)

    def cells(self, tiles: dict[str, "TileType"] | None = None) -> list[tuple[int, int, str]]:
        """(row, column, tile type) of every square, top-left first.

        Tile types come from a rule version's `tiles` when given (all a card face reads of
        its rules), else from the rule set the content was checked against at load time.
        """
        symbols = {t.symbol: name for name, t in tiles.items()} if tiles is not None else self._symbols
        if symbols is None:
            raise ValueError("cells(): no rule set bound: load the game with pnp.load.content.load_game or pass tiles")
        return [(r, c, symbols[s]) for r, row in enumerate(self.shape) for c, s in enumerate(row) if s != EMPTY]


class AdventurersFile(StrictModel):
    """adventurers.yaml: the adventurer deck."""

    adventurers: list[Adventurer]


# ---------------------------------------------------------------- leaders.yaml

LeaderKind = Literal[
    "line", "diagonal", "range", "feast", "sight",
    "least-type", "most-minus-least", "leader-line", "damage-line", "surround-majority",
    "chain-orthogonal", "chain-diagonal", "rows-all-four", "columns-all-four",
]
TYPED_KINDS = ("line", "diagonal", "range", "feast", "sight")
LEADER_TYPE = "leader"  # only sight may look for other leaders


class Leader(StrictModel):
    """One leader tile. `text` is a format string over {points}, {type} and {distance}."""

    id: str
    kind: LeaderKind
    type: str | None = Field(None, validate_default=True)
    points: int
    distance: int | None = Field(None, validate_default=True)
    title: str
    text: str

    _id = field_validator("id")(classmethod(lambda cls, v: _slug(v)))

    @field_validator("type")
    @classmethod
    def _type(cls, v: str | None, info: ValidationInfo) -> str | None:
        kind = info.data.get("kind")
        if kind is None:
            return v
        if kind in TYPED_KINDS and v is None:
            raise ValueError(f"is missing: kind {kind!r} needs a tile type, expected e.g. type: helmet")
        if kind not in TYPED_KINDS and v is not None:
            raise ValueError(f"is not taken by kind {kind!r}: expected no type (only {', '.join(TYPED_KINDS)} take one)")
        if v == LEADER_TYPE and kind != "sight":
            raise ValueError(f"{v!r} is only for sight leaders: expected a basic tile type for kind {kind!r}")
        return v

    @field_validator("points")
    @classmethod
    def _points(cls, v: int) -> int:
        if v < 0:
            raise ValueError(f"is {v}: expected 0 or more")
        return v

    @field_validator("distance")
    @classmethod
    def _distance(cls, v: int | None, info: ValidationInfo) -> int | None:
        kind = info.data.get("kind")
        if kind == "range" and v is None:
            raise ValueError("is missing: a range leader needs a distance, expected e.g. distance: 2")
        if kind is not None and kind != "range" and v is not None:
            raise ValueError(f"is not taken by kind {kind!r}: expected distance only on range leaders")
        if v is not None and v < 1:
            raise ValueError(f"is {v}: expected 1 or more")
        return v

    @field_validator("text")
    @classmethod
    def _text(cls, v: str, info: ValidationInfo) -> str:
        kind = info.data.get("kind")
        allowed = ["points", "type", "distance"]
        required = ["points"]
        if kind in TYPED_KINDS:
            required.append("type")
        if kind == "range":
            required.append("distance")
        return _check_placeholders(v, allowed, required)

    def reference_text(self) -> str:
        """The card's scoring text with this leader's numbers and tile type filled in."""
        return fill(self.text, points=self.points, type=self.type or "", distance=self.distance or "")


class LeadersFile(StrictModel):
    """leaders.yaml: the 30 leader tiles."""

    leaders: list[Leader]


# ---------------------------------------------------------------- monsters.yaml


class OverlapWording(StrictModel):
    """The craving's sentence on whether its patterns may share tiles, one per value of
    rules.yaml `cravings.<id>.overlap`: printed text and scorer read the same switch."""

    yes: str = Field(alias="true", description="printed when patterns may share tiles (overlap: true)")
    no: str = Field(alias="false", description="printed when no tile may count in two patterns (overlap: false)")

    @model_validator(mode="before")
    @classmethod
    def _bool_keys(cls, v: Any) -> Any:
        # YAML reads an unquoted `true:` key as a boolean; it means the same here.
        return {str(k).lower() if isinstance(k, bool) else k: x for k, x in v.items()} if isinstance(v, dict) else v


# What a monster's `challenge` may print: rules.yaml solo.challenge_numbers.
CHALLENGE_PLACEHOLDERS = ("at_least", "dragon_block", "griffin_run")


class Monster(StrictModel):
    """A monster board: its personal craving (`text`, points from the rules) and solo challenge.
    A craving whose scorer reads `overlap` prints it through {overlap}, worded by `overlap`."""

    id: str
    name: str
    text: str
    overlap: OverlapWording | None = None
    challenge: str
    token_lines: list[str] | None = Field(None, description="the name broken into lines for the small scoring token, where a word is too long for it")

    _id = field_validator("id")(classmethod(lambda cls, v: _slug(v)))

    @field_validator("text")
    @classmethod
    def _text(cls, v: str) -> str:
        return _check_placeholders(v, ["points", "overlap"], ["points"])

    @field_validator("challenge")
    @classmethod
    def _challenge(cls, v: str) -> str:
        return _check_placeholders(v, list(CHALLENGE_PLACEHOLDERS), [])

    @model_validator(mode="after")
    def _overlap_printed(self) -> "Monster":
        used = "overlap" in _placeholders(self.text)
        if used and self.overlap is None:
            raise ValueError("text uses {overlap} but the monster has no `overlap` wording: expected overlap: {true: ..., false: ...}")
        if self.overlap is not None and not used:
            raise ValueError("has `overlap` wording that its text does not print: expected {overlap} in text")
        return self

    def craving_text(self, craving: "Craving") -> str:
        """The craving with the points and overlap rule of a rule version's `craving`
        (`rules.cravings[id]`) filled in."""
        overlap = "" if self.overlap is None else (self.overlap.yes if craving.overlap else self.overlap.no)
        return fill(self.text, points=craving.points, overlap=overlap)

    def challenge_text(self, numbers: ChallengeNumbers | None) -> str:
        """The solo challenge with a rule version's numbers (rules.yaml solo.challenge_numbers)
        filled in; only printed for a version that has the challenges (and so the numbers)."""
        if numbers is None:
            return self.challenge
        h, w = numbers.dragon_block
        return fill(self.challenge, at_least=numbers.at_least, dragon_block=f"{h}x{w}", griffin_run=numbers.griffin_run)


class MonstersFile(StrictModel):
    """monsters.yaml: the monster boards."""

    monsters: list[Monster]


# ---------------------------------------------------------------- reference.yaml

def snake_order(rules: RuleVersion) -> str:
    """A round's turns at the largest table, seats from 1: clockwise, then back, for each of
    `turns_a_round` (published lines 68-72: "1 2 3 4 4 3 2 1" with 4 players and 2 turns)."""
    seats = [str(n) for n in range(1, max(rules.leader_stacks_by_players) + 1)]
    return " ".join(" ".join(seats if turn % 2 == 0 else seats[::-1]) for turn in range(rules.turns_a_round))


class ReferenceSection(StrictModel):
    heading: str
    text: Annotated[str, text_with("captain", "king_bonus", "stacks", "leader_space", "turns_a_round", "columns", "snake")]


class SetupSection(StrictModel):
    heading: str
    text: Annotated[str, text_with("leader_space", "leader_board")]


class SetupReference(StrictModel):
    """How to set up a game with more players, on the player reference card."""

    title: str
    sections: list[SetupSection] = Field(min_length=1)


class SoloSection(StrictModel):
    heading: str
    text: Annotated[str, text_with("captain", "peasant", "levels", "leader_space", "win")]


class HeldLeaderWording(StrictModel):
    """The Balanced Diet's condition, one wording per value of rules.yaml `held_leader`
    (which the scorer reads): whether a leader never eaten counts, as 0."""

    ignored: Annotated[str, text_with("leader_space")]
    zero: Annotated[str, text_with("leader_space")]


class HeldLeaderTies(StrictModel):
    """What the leader-comparing tie-break adds about a leader never eaten, per value of
    rules.yaml `held_leader` (empty: nothing to add)."""

    ignored: str
    zero: str


class TiesLeaderLimit(StrictModel):
    """How many leaders the leader-comparing tie-break looks at (F204), worded from
    rules.yaml leaders_max_by_players: the most, then each smaller limit and its players."""

    up_to: Annotated[str, text_with("leaders")]
    fewer: Annotated[str, text_with("leaders", "players")]


class BalancedDietWording(StrictModel):
    heading: str
    condition: HeldLeaderWording
    thresholds: Annotated[str, text_with("condition", "thresholds")] = Field(description="the solo card's sentence")


class MonsterChallengeWording(StrictModel):
    heading: str
    text: str = Field(description="the solo card's line before the monsters' goals (monsters.yaml `challenge`)")


class SoloChallengesWording(StrictModel):
    """The solo card's challenges, printed for the versions that have them (rules.yaml
    solo.balanced_diet, solo.monster_challenges), with the scorer's numbers; `none` in a
    version without any."""

    intro: Annotated[str, text_with("win")]
    none: Annotated[str, text_with("title")]
    balanced_diet: BalancedDietWording
    monster: MonsterChallengeWording


class SoloReference(StrictModel):
    """The solo card: how the A.I. opponent plays and scores, and its challenges."""

    title: str
    win: str = Field(description="how the solo player wins, printed as {win} on the card's front and back")
    first_level: Annotated[str, text_with("level", "name")] = Field(description="added to {levels} where rules.yaml solo.first_level is set")
    sections: list[SoloSection] = Field(min_length=1)
    challenges: SoloChallengesWording


ENDINGS = ("round", "leader-phase")  # a scoring sheet's `ending:` values (sheet.py TableSheet.ending)


class EndingWords(StrictModel):
    """How one ending of the game is said: in its box on the paper scoring sheet and in `pnp serve`'s form."""

    label: str = Field(description="the box's words: how the game ended")
    when: str = Field(description="the reminder printed beside it: what makes a game end so")


class SettingWords(StrictModel):
    """A rules.yaml setting whose values are ids: its words, and each value's."""

    label: str = Field(description="what the setting is, in the words the cards print; {name}: the `*` step's printed name")
    values: dict[str, str] = Field(default_factory=dict, description="each value (an id) in words")
    names: Literal["classes"] | None = Field(default=None, description="the values are class ids: said by the version's class names")


class ReferenceFile(StrictModel):
    """reference.yaml: the turn summary printed on every player's reference card, and
    the solo card's text."""

    title: str
    ties_held_leader: HeldLeaderTies
    ties_leader_limit: TiesLeaderLimit
    turn_counts: dict[int, str] = Field(default_factory=dict, description="how the texts say a count of turns; others print as digits and 'turns'")
    sections: list[ReferenceSection] = Field(min_length=1)
    setup: SetupReference
    solo: SoloReference
    endings: Annotated[dict[str, EndingWords], keys_of(ENDINGS, "endings", "a scoring sheet's `ending:` values")] = Field(
        description="each way the game ends (round, leader-phase), as the scoring sheet and pnp serve say it")
    settings: dict[str, str | SettingWords | None] = Field(
        default_factory=dict, description="each rules.yaml setting (a path, `*` one step) in words, as pnp serve lists what a "
                                          "rule version changes; null: never listed (said by another)")

    def texts(self, rules: RuleVersion) -> list[tuple[str, str]]:
        """(heading, text) of every section with the rule version's values filled in."""
        by = rules.leader_stacks_by_players
        multi = {n: k for n, k in sorted(by.items()) if n > 1}
        stacks = f"{'/'.join(map(str, multi.values()))} stacks at {'/'.join(map(str, multi))} players"
        values = {"captain": rules.classes.get("captain", "Captain"), "king_bonus": rules.king_bonus, "stacks": stacks,
                  "leader_space": rules.leader_space,
                  "turns_a_round": self.turn_counts.get(rules.turns_a_round, f"{rules.turns_a_round} turns"),
                  "columns": rules.stomach.columns, "snake": snake_order(rules)}
        return [(x.heading, x.text.format(**values)) for x in self.sections]

    def setup_texts(self, rules: RuleVersion) -> list[tuple[str, str]]:
        """(heading, text) of the setup sections with the rule version's names filled in."""
        values = {"leader_space": rules.leader_space, "leader_board": rules.kit.leader_board.lower()}
        return [(x.heading, x.text.format(**values)) for x in self.setup.sections]

    def solo_texts(self, rules: RuleVersion) -> list[tuple[str, str]]:
        """(heading, text) of the solo card's sections for this rule version: its class
        names, its space's name and its A.I. levels (named levels, or any number)."""
        named = rules.solo.levels
        if named:
            levels = "Levels: " + ", ".join(f"{n} {name}" for n, name in sorted(named.items())) + "."
        else:
            levels = "Any level from 0 up (this version names none)."
        if rules.solo.first_level is not None:
            levels += " " + self.solo.first_level.format(level=rules.solo.first_level, name=(named or {}).get(rules.solo.first_level, ""))
        values = {"captain": rules.classes.get("captain", "Captain"), "peasant": rules.classes.get("peasant", "Peasant"),
                  "levels": levels, "leader_space": rules.leader_space, "win": self.solo.win}
        return [(x.heading, x.text.format(**values)) for x in self.solo.sections]

    def solo_challenges_intro(self) -> str:
        """The line over the solo challenges: the usual win, stated once ({win}), plus the challenge."""
        return self.solo.challenges.intro.format(win=self.solo.win)

    def balanced_diet_condition(self, rules: RuleVersion) -> str:
        """What every leader must do in the Balanced Diet, as rules.yaml `held_leader` counts
        a leader never eaten (the wording the scorer's switch selects)."""
        return getattr(self.solo.challenges.balanced_diet.condition, rules.held_leader).format(leader_space=rules.leader_space)

    def solo_challenges(self, rules: RuleVersion, monsters: list["Monster"]) -> list[tuple[str, list[str]]]:
        """(heading, paragraphs) of the solo challenges this rule version has (none in
        0.2.8): the Balanced Diet's thresholds and each monster's goal, from the data the
        scorer checks them against."""
        out: list[tuple[str, list[str]]] = []
        words = self.solo.challenges
        diet = rules.solo.balanced_diet
        if diet:
            levels = [f"{points} ({name})" for name, points in diet.items()]
            listed = levels[0] if len(levels) == 1 else ", ".join(levels[:-1]) + " or " + levels[-1]
            condition = self.balanced_diet_condition(rules)
            out.append((words.balanced_diet.heading, [words.balanced_diet.thresholds.format(condition=condition[:1].upper() + condition[1:], thresholds=listed)]))
        if rules.solo.monster_challenges:
            out.append((words.monster.heading, [words.monster.text]))
            out += [(m.name, [m.challenge_text(rules.solo.challenge_numbers)]) for m in monsters]
        return out

    def ties_note(self, rules: RuleVersion) -> str:
        """What the leader comparison of the tie-break says about a held leader, as
        rules.yaml `held_leader` (the scorer's switch) counts it; empty: nothing."""
        return getattr(self.ties_held_leader, rules.held_leader)

    def ties_limit(self, leaders_max_by_players: dict[int, int]) -> str:
        """How many leaders the tie-break compares, e.g. 'up to 5 leaders (4 in a 4-player
        game)', from rules.yaml leaders_max_by_players, where the scorer's comparison stops
        (scoring._tie_keys). Solo is left out: it has no tie between players."""
        limits = {n: k for n, k in sorted(leaders_max_by_players.items()) if n > 1}
        most = max(limits.values())
        fewer = []
        for k in sorted(set(limits.values()) - {most}, reverse=True):
            players = [str(n) for n, v in limits.items() if v == k]
            said = players[0] if len(players) == 1 else "-, ".join(players[:-1]) + "- or " + players[-1]
            fewer.append(self.ties_leader_limit.fewer.format(leaders=k, players=said))
        return self.ties_leader_limit.up_to.format(leaders=most) + (f" ({', '.join(fewer)})" if fewer else "")

