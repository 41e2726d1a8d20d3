"""Who won a game of Human Harvest, from what the table writes down at the end.

    game: human-harvest
    variant: basic              # or advanced
    ending: board-finished      # six-cyborgs | board-finished | six-humans (advanced)
    dna_point: true             # optional, advanced only: the DNA Collection Point came into play
    players:                    # in seat order
      - name: Ann
        cyborgs: 5              # Cyborgs on the board, the Cyborg Factory included
        humans: 0               # advanced only: Humans stored (DNA Collection Point and/or Factory)
    claimed_winner: Ann         # optional: a name, a list of names (shared), or none

The rules (human-harvest-rules.txt; the counts are scoring.yaml's, the player counts
game.yaml's): line 30, the first player with all 6 Cyborgs on the board wins at once, and
if the last tile is played first the most Cyborgs wins (a tie is shared, and nobody wins
when every player is out: our rulings, scoring.yaml rulings.board_tie and all_out). Advanced, lines 116 and 151: once the DNA Collection
Point is in play Cyborgs no longer win; the first to store 6 Humans does, and play goes on
past the last tile. `parse_sheet` raises one PnpError listing every impossible value, each
at its line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pnp.api import ContentError, OptionError, PnpError, ScoreReport, as_written, markup, meant_key, sorted_errors, unknown_key

from .fields import BOARD_FINISHED, ENDINGS, PLAYER_KEYS, SIX_CYBORGS, SIX_HUMANS, TOP_KEYS, VARIANTS, seats
from .models import ScoringFile

if TYPE_CHECKING:
    from rich.console import Console

    from pnp.api import GameContent, Located

REQUIRED = ("game", "ending", "players", "name", "cyborgs")  # keys a sheet cannot leave out
RULES = "human-harvest-rules.txt"


@dataclass(frozen=True)
class Entry:
    name: str
    cyborgs: int
    humans: int  # 0 in the basic game


@dataclass(frozen=True)
class Sheet:
    variant: str
    ending: str
    entries: tuple[Entry, ...]  # seat order
    claimed_winner: tuple[str, ...] | None  # () = "none"

    @property
    def advanced(self) -> bool:
        return self.variant == "advanced"


@dataclass(frozen=True)
class Result:
    sheet: Sheet
    winners: tuple[str, ...]
    decided_by: str
    ruling: str = ""  # scoring.yaml's `says` of a ruling of ours that decided the winner


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# ---------------------------------------------------------------- reading the sheet


def parse_sheet(doc: "Located", rules: ScoringFile, players: tuple[int, int]) -> Sheet:
    errors: list[ContentError] = []
    data = doc.data
    stray: list[ContentError] = []  # unknown keys: added last, so that a stray one hides no check of the game
    typos = _unknown_keys(doc, data, TOP_KEYS, (), "", stray)
    variant = data.get("variant", "basic")
    if variant not in VARIANTS:
        errors.append(doc.value_error(("variant",), f"variant is {as_written(variant)}: expected {' or '.join(VARIANTS)}"))
    advanced = variant == "advanced"
    ending = data.get("ending")
    if ending not in ENDINGS and "ending" not in typos:
        what = f"ending is {as_written(ending)}" if "ending" in data else "missing 'ending'"
        errors.append(doc.value_error(("ending",) if "ending" in data else (), f"{what}: expected how the game ended: {SIX_CYBORGS} "
                                      f"(a player got all {rules.cyborgs_to_win} Cyborgs on the board), {BOARD_FINISHED} (the last "
                                      f"tile was played first) or {SIX_HUMANS} (advanced: {rules.humans_to_win} Humans stored)"))
    if "dna_point" in data:
        if not advanced:
            errors.append(doc.value_error(("dna_point",), "dna_point is for the advanced game (the DNA Collection Point, "
                                          f"{RULES} line 133): expected variant: advanced, or no dna_point"))
        elif not isinstance(data["dna_point"], bool):
            errors.append(doc.value_error(("dna_point",), f"dna_point is {as_written(data['dna_point'])}: expected true (the DNA Collection "
                                          "Point came into play) or false"))
    entries = _players(doc, rules, players, advanced, errors, "players" in typos)
    if not errors and not typos & set(REQUIRED):  # the game's counts read well: what can the stated ending leave? (a stray key or claim does not hide it)
        _check_ending(doc, Sheet(variant, ending, tuple(entries), None), rules, errors)
    claimed = _claimed_winner(doc, [e.name for e in entries if e.name], errors)
    errors += stray
    if errors:
        raise PnpError(sorted_errors(errors))
    return Sheet(variant, ending, tuple(entries), claimed)


def _unknown_keys(doc: "Located", data: dict, allowed: tuple[str, ...], at: tuple, who: str, errors: list[ContentError]) -> set[str]:
    """One line per unknown key; one near a key the mapping lacks is that key misspelt
    (`cyborg`), said at the misspelling as pnp says it of content files. Returns the keys
    misspelt, which are then not also reported missing."""
    meant = set()
    for key in data:
        if key not in allowed:
            if (near := meant_key(key, allowed, data)) is not None:
                meant.add(near)
            errors.append(doc.error(at + (key,), who + unknown_key(key, allowed, data, REQUIRED)))
    return meant


def _players(doc: "Located", rules: ScoringFile, counts: tuple[int, int], advanced: bool, errors: list[ContentError],
             misspelt: bool = False) -> list[Entry]:
    listed = doc.data.get("players")
    low, high = counts  # the player counts allowed, as seats() reads them
    if misspelt:  # `playres:`: said at the misspelling
        return []
    if not isinstance(listed, list) or not low <= len(listed) <= high:
        got = f"{len(listed)} players" if isinstance(listed, list) else as_written(listed)
        errors.append(doc.value_error(("players",) if "players" in doc.data else (),
                                      f"players is {got}: expected a list of {low} to {high} players in seat order, each with name and cyborgs"))
        if not isinstance(listed, list):
            return []
    entries, seen = [], set()
    for i, p in enumerate(listed):
        at = ("players", i)
        if not isinstance(p, dict):
            errors.append(doc.error(at, f"player {i + 1} is {as_written(p)}: expected a mapping with name and cyborgs"))
            continue
        given = p.get("name")
        name = given.strip() if isinstance(given, str) else ""  # "": no name to offer claimed_winner; messages name the seat
        who = f"player {name or i + 1}: "
        typos = _unknown_keys(doc, p, PLAYER_KEYS, at, who, errors)
        if name:
            if name.casefold() in seen:
                errors.append(doc.value_error(at + ("name",), f"player {name}: the name appears twice: expected one entry per player"))
            seen.add(name.casefold())
        elif "name" not in typos:
            what = f"name is {as_written(given)}" if "name" in p else "missing 'name'"
            errors.append(doc.value_error(at + ("name",) if "name" in p else at, f"player {i + 1}: {what}: expected the player's name"))
        cyborgs: Any = p.get("cyborgs")
        if "cyborgs" in typos:
            cyborgs = 0
        elif not _is_int(cyborgs) or not 0 <= cyborgs <= rules.cyborgs_per_player:
            what = f"cyborgs is {as_written(cyborgs)}" if "cyborgs" in p else "missing 'cyborgs'"
            errors.append(doc.value_error(at + ("cyborgs",) if "cyborgs" in p else at,
                                          f"{who}{what}: expected the Cyborgs on the board, Cyborg Factory included, 0 to "
                                          f"{rules.cyborgs_per_player} (a player has {rules.cyborgs_per_player}, {RULES} line 17)"))
            cyborgs = 0
        humans: Any = p.get("humans", 0)
        if p.get("humans") not in (None, 0) and not advanced:  # 0 stored says nothing (the table's track offers it)
            errors.append(doc.value_error(at + ("humans",), f"{who}humans are stored only in the advanced game ({RULES} line 163): "
                                          "expected variant: advanced, or no humans"))
        elif not _is_int(humans) or not 0 <= humans <= rules.humans_to_win:
            errors.append(doc.value_error(at + ("humans",), f"{who}humans is {as_written(humans)}: expected the Humans stored, 0 to "
                                          f"{rules.humans_to_win} (the first to store {rules.humans_to_win} wins, {RULES} line 151)"))
            humans = 0
        entries.append(Entry(name, cyborgs, humans))
    return entries


def _claimed_winner(doc: "Located", names: list[str], errors: list[ContentError]) -> tuple[str, ...] | None:
    if "claimed_winner" not in doc.data or not names:  # no players read: their error says why
        return None
    value = doc.data["claimed_winner"]
    if value is None or value == "none":
        return ()
    claimed = [value] if isinstance(value, str) else value
    if not isinstance(claimed, list) or not all(isinstance(n, str) for n in claimed):
        errors.append(doc.value_error(("claimed_winner",), f"claimed_winner is {as_written(value)}: expected a player's name, a list of names, or none"))
        return None
    for name in claimed:
        if name.strip() not in names:
            errors.append(doc.value_error(("claimed_winner",), f"claimed_winner names {as_written(name)}: expected one of {', '.join(names)}, or none"))
    return tuple(n.strip() for n in claimed)


def _check_ending(doc: "Located", sheet: Sheet, rules: ScoringFile, errors: list[ContentError]) -> None:
    """Counts the stated ending cannot leave. Each game ends the moment one player reaches
    the winning count, so only one player can have it."""
    def add(i: int | None, key: str, message: str) -> None:
        errors.append(doc.value_error(("players", i, key) if i is not None else ("ending",), message))

    entries, six, six_h = sheet.entries, rules.cyborgs_to_win, rules.humans_to_win
    dna = doc.data.get("dna_point")
    if sheet.ending == SIX_HUMANS and not sheet.advanced:
        add(None, "", f"ending {SIX_HUMANS} is the advanced game's ({RULES} lines 116, 151): expected variant: advanced, "
            f"or ending {SIX_CYBORGS} or {BOARD_FINISHED}")
        return
    if sheet.ending == BOARD_FINISHED and sheet.advanced:
        # the Ace of Suns is one of the tiles: with the last tile played it is in play
        add(None, "", f"ending {BOARD_FINISHED}: an advanced game goes on past the last tile ({RULES} line 116), as the "
            f"DNA Collection Point (the Ace of Suns, line 133) is in play by then: expected {SIX_HUMANS} or {SIX_CYBORGS}")
        return
    if sheet.ending == SIX_CYBORGS:
        if dna is True:
            errors.append(doc.value_error(("dna_point",), f"dna_point is true with ending {SIX_CYBORGS}: once the DNA Collection "
                                          f"Point is in play nobody wins by getting {six} Cyborgs on the board ({RULES} line 151)"))
        winners = [i for i, e in enumerate(entries) if e.cyborgs == six]
        if not winners:
            add(None, "", f"ending {SIX_CYBORGS}, but nobody has {six} Cyborgs on the board: expected one player with {six} ({RULES} line 30)")
        for i in winners[1:]:
            add(i, "cyborgs", f"player {entries[i].name}: {six} Cyborgs, and so has {entries[winners[0]].name}: the game ends "
                f"when the first player gets all {six} on the board ({RULES} line 30), so only one can")
        for i, e in enumerate(entries):
            if e.humans:
                add(i, "humans", f"player {e.name}: humans is {e.humans}: Humans are stored only once the DNA Collection Point "
                    f"is in play ({RULES} lines 151, 163), and then nobody wins by Cyborgs: expected 0, or ending {SIX_HUMANS}")
    elif sheet.ending == BOARD_FINISHED:
        for i, e in enumerate(entries):
            if e.cyborgs == six:
                add(i, "cyborgs", f"player {e.name}: {six} Cyborgs on the board: the board was finished before anyone had "
                    f"{six} ({RULES} line 30), else that player won at once: expected ending {SIX_CYBORGS}")
    else:
        if dna is False:
            errors.append(doc.value_error(("dna_point",), f"dna_point is false with ending {SIX_HUMANS}: stored Humans win only "
                                          f"once the DNA Collection Point is in play ({RULES} lines 151, 163)"))
        winners = [i for i, e in enumerate(entries) if e.humans == six_h]
        if not winners:
            add(None, "", f"ending {SIX_HUMANS}, but nobody has {six_h} Humans stored: expected one player with {six_h} ({RULES} line 151)")
        for i in winners[1:]:
            add(i, "humans", f"player {entries[i].name}: {six_h} Humans stored, and so has {entries[winners[0]].name}: the "
                f"game ends when the first player stores {six_h} ({RULES} line 151), so only one can")
        for i in winners[:1]:
            if entries[i].cyborgs == 0:
                add(i, "cyborgs", f"player {entries[i].name}: 0 Cyborgs, but a Cyborg stored the winning Human and the game "
                    f"ended then ({RULES} lines 151, 163); a player with none is out (line 86): expected 1 or more")


# ---------------------------------------------------------------- the winner


def decide(sheet: Sheet, rules: ScoringFile) -> Result:
    entries = sheet.entries
    if sheet.ending == SIX_CYBORGS:
        (winner,) = [e.name for e in entries if e.cyborgs == rules.cyborgs_to_win]
        return Result(sheet, (winner,), f"first with all {rules.cyborgs_to_win} Cyborgs on the board: {RULES} line 30")
    if sheet.ending == SIX_HUMANS:
        (winner,) = [e.name for e in entries if e.humans == rules.humans_to_win]
        return Result(sheet, (winner,), f"first to store {rules.humans_to_win} Humans: {RULES} lines 116, 151")
    most = max(e.cyborgs for e in entries)
    if most == 0:  # line 86 puts each out; the book names no winner then: our ruling
        return Result(sheet, (), f"every player is out, with no Cyborgs on the board: {RULES} line 86", rules.rulings.all_out.says)
    winners = tuple(e.name for e in entries if e.cyborgs == most)
    if len(winners) > 1:
        return Result(sheet, winners, f"shared: equal most Cyborgs, {most}, when the board was finished", rules.rulings.board_tie.says)
    return Result(sheet, winners, f"most Cyborgs when the board was finished: {RULES} line 30")


@dataclass(frozen=True)
class Report(ScoreReport):
    result: Result
    game: str = "human-harvest"

    @property
    def winner_claim_ok(self) -> bool | None:
        claimed = self.result.sheet.claimed_winner
        return None if claimed is None else sorted(claimed) == sorted(self.result.winners)

    @property
    def exit_code(self) -> int:
        return 1 if self.winner_claim_ok is False else 0

    def mismatch_places(self) -> list[tuple[tuple[Any, ...], str]]:
        if self.winner_claim_ok is not False:
            return []
        claimed = ", ".join(self.result.sheet.claimed_winner or ()) or "none"
        return [(("claimed_winner",), f"mismatch: claimed winner {claimed}, computed {_names(self.result.winners)}")]

    def mismatch_lines(self) -> list[str]:
        return [line for _, line in self.mismatch_places()]

    def _dna_point(self) -> bool | None:
        sheet = self.result.sheet
        return sheet.ending == SIX_HUMANS if sheet.advanced else None

    def to_json(self) -> dict[str, Any]:
        sheet, winners = self.result.sheet, self.result.winners
        # `total`: the count this ending compares (pnp log's CSV)
        return {
            "game": self.game,
            "variant": sheet.variant,
            "ending": sheet.ending,
            "dna_point": self._dna_point(),
            "players": [{"name": e.name, "cyborgs": e.cyborgs, "humans": e.humans if sheet.advanced else None,
                         "total": e.humans if sheet.ending == SIX_HUMANS else e.cyborgs,
                         "out": e.cyborgs == 0, "winner": e.name in winners} for e in sheet.entries],
            "winners": list(winners),
            "decided_by": self.result.decided_by,
            "ruling": self.result.ruling or None,
            "claimed_winner": None if sheet.claimed_winner is None else list(sheet.claimed_winner),
            "claimed_winner_ok": self.winner_claim_ok,
            "mismatches": self.mismatch_lines(),
        }

    def render(self, console: "Console") -> None:
        from rich.table import Table

        sheet = self.result.sheet
        dna = {True: ", the DNA Collection Point in play", False: ", the DNA Collection Point not in play", None: ""}[self._dna_point()]
        table = Table("seat", "player", "cyborgs", *(["humans stored"] if sheet.advanced else []), "result",
                      title=f"Human Harvest, {sheet.variant}: ended {sheet.ending}{dna}")
        for seat, e in enumerate(sheet.entries, 1):
            outcome = "winner" if e.name in self.result.winners else ("out (no Cyborgs)" if e.cyborgs == 0 else "")
            table.add_row(str(seat), markup(e.name), str(e.cyborgs), *([str(e.humans)] if sheet.advanced else []), outcome)
        console.print(table)
        console.print(f"winner: {markup(_names(self.result.winners))} ({markup(self.result.decided_by)})")
        if self.result.ruling:
            console.print(markup(f"ruling: {self.result.ruling}"))
        for line in self.mismatch_lines():
            console.print(markup(line), style="bold red")


def _names(names: tuple[str, ...]) -> str:
    return " and ".join(names) if names else "nobody"


def score(game: "GameContent", doc: "Located") -> Report:
    rules: ScoringFile = game.data["scoring"]
    return Report(decide(parse_sheet(doc, rules, seats(game)), rules))


# ---------------------------------------------------------------- blank sheet, schema, form


def template(game: "GameContent", players: int) -> str:
    """A blank, commented sheet for `players` players."""
    rules: ScoringFile = game.data["scoring"]
    low, high = seats(game)
    if not low <= players <= high:
        raise OptionError(f"--players {players}: expected {low} to {high}")
    out = [
        "# Human Harvest scoring sheet: fill in, then run `pnp score <this file>`.",
        f"game: {game.name}",
        "variant: basic             # or advanced (DNA Collection Point, Human Settlement, Marines, Drones)",
        f"ending: {BOARD_FINISHED}    # {SIX_CYBORGS}: a player got all {rules.cyborgs_to_win} Cyborgs on the board; "
        f"{BOARD_FINISHED}: the last tile was played first; {SIX_HUMANS} (advanced): {rules.humans_to_win} Humans stored",
        "# dna_point: false         # advanced only: did the DNA Collection Point (Ace of Suns) come into play?",
        "players:                   # in seat order",
    ]
    for seat in range(1, players + 1):
        out += [
            f"  - name: Player {seat}",
            f"    cyborgs: 2             # Cyborgs on the board, Cyborg Factory included (0 to {rules.cyborgs_per_player})",
            f"    # humans: 0            # advanced only: Humans stored in the DNA Collection Point and/or Factory (0 to {rules.humans_to_win})",
        ]
    out += ["# claimed_winner: Player 1  # optional: a name, a list of names (shared), or none"]
    return "\n".join(out) + "\n"


def json_schema(game: "GameContent") -> dict[str, Any]:
    """JSON Schema of the sheet file, for editors and `pnp serve` (the scorer checks far more):
    its bounds are those the scorer reads (`seats`, scoring.yaml's counts)."""
    rules: ScoringFile = game.data["scoring"]
    low, high = seats(game)
    return {
        "title": "Human Harvest scoring sheet",
        "type": "object",
        "additionalProperties": False,
        "required": ["game", "ending", "players"],
        "properties": {
            "game": {"const": "human-harvest"},
            "variant": {"enum": list(VARIANTS)},
            "ending": {"enum": list(ENDINGS), "description": "how the game ended"},
            "dna_point": {"type": "boolean", "description": "advanced only: the DNA Collection Point came into play"},
            "players": {"type": "array", "minItems": low, "maxItems": high, "description": "in seat order", "items": {
                "type": "object", "additionalProperties": False, "required": ["name", "cyborgs"],
                "properties": {"name": {"type": "string"},
                               "cyborgs": {"type": "integer", "minimum": 0, "maximum": rules.cyborgs_per_player,
                                           "description": "Cyborgs on the board, Cyborg Factory included"},
                               "humans": {"type": "integer", "minimum": 0, "maximum": rules.humans_to_win,
                                          "description": "advanced only: Humans stored"}},
            }},
            "claimed_winner": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
        },
    }


def form(game: "GameContent", rules: str | None, players: int) -> dict[str, Any]:
    """`pnp serve`'s entry form: each count as a track bounded by scoring.yaml; each choice
    as the paper sheet prints it, its value with what it means (scoring.yaml `sheet.choices`)."""
    scoring: ScoringFile = game.data["scoring"]
    words = scoring.sheet.choices
    # the marker as printed (extras.yaml), whose coming into play `dna_point` records
    dna = next((m.name for m in game.data["extras"].markers if m.id == "dna-collection-point"), "dna point")
    return {"table": {key: {"choices": [{"value": v, "label": f"{v}: {scoring.say(meaning)}"} for v, meaning in words[key].items()]}
                      for key in ("variant", "ending") if key in words} | {"dna_point": {"label": dna},
                      # who the table says won: the players, several for a shared win, or none (_claimed_winner)
                      "claimed_winner": {"kind": "picks", "choices_from": "players", "label": "claimed winner",
                                         "help": "who won, as the table says: tap two or more for a shared win",
                                         "choices": [{"value": "none", "label": "nobody"}], "alone": ["none"]}},
            "player": {"cyborgs": {"kind": "track", "min": 0, "max": scoring.cyborgs_per_player},
                       "humans": {"kind": "track", "min": 0, "max": scoring.humans_to_win}}}
