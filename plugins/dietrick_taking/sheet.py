"""The Dietrick-taking scoring sheet: what the table writes down at the end of a game.

    game: dietrick-taking
    scoring_order: [2, 1, 3]     # cards 1-3 as laid at the table; card 4 is always last
    variant: beginner            # optional: standard (default) or beginner
    players:
      - name: Ann
        yellow: 7                # squares the yellow (top) marker moved; 0 = never moved
        blue: 6                  # squares the blue (bottom) marker moved
        claimed: 1               # optional: the difference the table worked out
    fuzz: {yellow: 5, blue: 4}   # solo only: Fuzz's markers (exactly one player then)
    claimed_winner: Ann          # optional: a name, a list of names (shared), Fuzz, or none
    earlier_wins: {Ann: 1}       # optional, Long Game variant: games each has won before this one

`parse_sheet` checks every value against the rules and the printed scoring cards and
raises one PnpError listing every problem, each as `SHEET:LINE: player NAME: message`.
Only a finished game is scored: the deck ran out (the full length of scoring.yaml's
`tricks_by_players`; solo, the hand emptied) or a marker reached the end square.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pnp.api import ContentError, OptionError, PnpError, as_written, meant_key, sorted_errors, unknown_key
from pnp.api import Located

from .models import VARIANTS, ScoringFile

if TYPE_CHECKING:
    from pnp.api import GameContent

FUZZ = "Fuzz"
TOP_KEYS = ("game", "scoring_order", "variant", "players", "fuzz", "claimed_winner", "earlier_wins")
PLAYER_KEYS = ("name", "yellow", "blue", "claimed")
REQUIRED = ("game", "scoring_order", "players", "name", "yellow", "blue")


@dataclass(frozen=True)
class Entry:
    """One participant's final marker positions (squares moved along each row)."""

    name: str
    yellow: int
    blue: int
    claimed: int | None = None
    fuzz: bool = False


@dataclass(frozen=True)
class Sheet:
    order: tuple[int, ...]  # every scoring card left to right, the last card included
    variant: str
    entries: tuple[Entry, ...]  # players, then Fuzz in a solo game
    claimed_winner: tuple[str, ...] | None  # () = "none"
    earlier_wins: dict[str, int] | None = None  # Long Game: wins before this game; None = a single game

    @property
    def solo(self) -> bool:
        return any(e.fuzz for e in self.entries)


class _Errors:
    """Collects located errors, without columns: `SHEET:LINE: message`."""

    def __init__(self, doc: Located):
        self.doc = doc
        self.items: list[ContentError] = []
        self.misspelt: set[tuple] = set()  # where a key is missing because it was misspelt (said once, at the misspelling)

    def add(self, at: tuple, message: str) -> None:
        line, _ = self.doc.where(at)
        self.items.append(ContentError(self.doc.path, line, None, message))

    def missing(self, at: tuple, key: str, message: str) -> None:
        if at + (key,) not in self.misspelt:
            self.add(at, message)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _unknown_keys(data: dict, allowed: tuple[str, ...], at: tuple, prefix: str, errors: _Errors) -> None:
    """One line per unknown key; one near a key the mapping lacks is that key misspelt
    (`yelow`), said at the misspelling, as pnp says it of content files, instead of
    also reporting the key as missing."""
    for key in data:
        if key not in allowed:
            near = meant_key(key, allowed, data)
            if near is not None:
                errors.misspelt.add(at + (near,))
            errors.add(at + (key,), prefix + unknown_key(key, allowed, data, REQUIRED))


def _position(data: dict, key: str, at: tuple, who: str, scoring: ScoringFile, errors: _Errors) -> int | None:
    if key not in data:
        errors.missing(at, key, f"{who}missing {key!r}: expected the squares the {key} marker moved (0 if it never moved)")
        return None
    value = data[key]
    if not _is_int(value) or not 0 <= value <= scoring.track_length:
        errors.add(at + (key,), f"{who}{key} is {as_written(value)}: expected a whole number of squares from 0 to {scoring.track_length}")
        return None
    return value


def _order(doc: Located, scoring: ScoringFile, errors: _Errors) -> tuple[int, ...] | None:
    data = doc.data
    free = scoring.free_cards
    expected = f"expected cards {', '.join(map(str, free))} each once, in the order laid at the table (card {scoring.last_card} is always last)"
    if "scoring_order" not in data:
        errors.missing((), "scoring_order", f"missing 'scoring_order': {expected}, e.g. scoring_order: {free}")
        return None
    value = data["scoring_order"]
    if not isinstance(value, list) or not all(_is_int(v) for v in value):
        errors.add(("scoring_order",), f"scoring_order is {as_written(value)}: {expected}")
        return None
    body = value[:-1] if value and value[-1] == scoring.last_card else value
    if scoring.last_card in body:
        errors.add(("scoring_order",), f"scoring_order {value}: card {scoring.last_card} is always last")
        return None
    if sorted(body) != free:
        errors.add(("scoring_order",), f"scoring_order {value}: {expected}")
        return None
    return (*body, scoring.last_card)


def _entry(data: Any, at: tuple, scoring: ScoringFile, errors: _Errors, fuzz: bool = False) -> Entry | None:
    name: str | None
    if fuzz:
        if not isinstance(data, dict):
            errors.add(at, f"fuzz is {as_written(data)}: expected Fuzz's final markers, e.g. fuzz: {{yellow: 5, blue: 4}}")
            return None
        name, who = FUZZ, f"{FUZZ}: "
        _unknown_keys(data, ("yellow", "blue"), at, who, errors)
    else:
        if not isinstance(data, dict):
            errors.add(at, f"player {at[-1] + 1} is {as_written(data)}: expected a mapping with name, yellow and blue")
            return None
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            name = None
        who = f"player {name if name else at[-1] + 1}: "
        _unknown_keys(data, PLAYER_KEYS, at, who, errors)  # first: a misspelt key is not also missing
        if "name" not in data:
            errors.missing(at, "name", f"player {at[-1] + 1}: missing 'name': expected the player's name")
        elif name is None:
            errors.add(at + ("name",), f"player {at[-1] + 1}: name is {as_written(data['name'])}: expected the player's name")
    yellow = _position(data, "yellow", at, who, scoring, errors)
    blue = _position(data, "blue", at, who, scoring, errors)
    claimed = data.get("claimed")
    if claimed is not None and (not _is_int(claimed) or claimed < 0):
        errors.add(at + ("claimed",), f"{who}claimed is {as_written(claimed)}: expected the difference the table worked out, a whole number of 0 or more")
        claimed = None
    if name is None or yellow is None or blue is None:
        return None
    return Entry(name.strip(), yellow, blue, claimed, fuzz)


def _claimed_winner(doc: Located, names: list[str], errors: _Errors) -> tuple[str, ...] | None:
    if "claimed_winner" not in doc.data or not names:  # no players read: their error says why
        return None
    value = doc.data["claimed_winner"]
    listed = value if isinstance(value, list) else [value]
    if value in ("none", None, []):
        return ()
    if not all(isinstance(v, str) for v in listed):
        errors.add(("claimed_winner",), f"claimed_winner is {as_written(value)}: expected a player's name, a list of names, or none")
        return None
    unknown = [v for v in listed if v not in names]
    if unknown:
        errors.add(("claimed_winner",), f"claimed_winner names {as_written(unknown[0])}: expected one of {', '.join(names)} or none")
        return None
    return tuple(listed)


def parse_sheet(doc: Located, scoring: ScoringFile, game: str = "dietrick-taking", icon_cards: dict[str, int] | None = None) -> Sheet:
    """The sheet as data, or a PnpError listing every problem. `icon_cards` (the deck's
    cards per score-icon row, DeckFile.icon_cards) bounds each row's squares in all."""
    errors = _Errors(doc)
    data = doc.data
    if not isinstance(data, dict):
        errors.add((), f"expected a mapping with game: {game}, scoring_order and players")
        raise PnpError(errors.items)
    _unknown_keys(data, TOP_KEYS, (), "", errors)
    if data.get("game") != game:
        errors.add(("game",), f"game is {as_written(data.get('game'))}: expected {game}")
    order = _order(doc, scoring, errors)
    variant = data.get("variant", "standard")
    if variant not in VARIANTS:
        errors.add(("variant",), f"variant is {as_written(variant)}: expected {' or '.join(VARIANTS)}")
    entries = _players(doc, scoring, errors)
    listed = data.get("players")
    players = listed if isinstance(listed, list) else []
    names = [p["name"].strip() for p in players if isinstance(p, dict) and isinstance(p.get("name"), str)]
    names += [FUZZ] if "fuzz" in data else []
    claimed = _claimed_winner(doc, names, errors)
    earlier = _earlier_wins(doc, names, scoring, errors)
    if not errors.items:
        _check_game_end(doc, entries, scoring, errors)
        _check_icon_cards(entries, scoring, icon_cards or {}, errors)
    if errors.items:
        raise PnpError(sorted_errors(errors.items))
    assert order is not None
    return Sheet(order, variant, tuple(entries), claimed, earlier)


def _earlier_wins(doc: Located, names: list[str], scoring: ScoringFile, errors: _Errors) -> dict[str, int] | None:
    """Long Game (dietrick-taking-rules.txt line 87): the games each participant won
    before this one; nobody may already have the wins that end the match."""
    if "earlier_wins" not in doc.data or not names:  # no players read: their error says why
        return None
    value = doc.data["earlier_wins"]
    most = scoring.long_game_wins - 1
    if not isinstance(value, dict):
        errors.add(("earlier_wins",), f"earlier_wins is {as_written(value)}: expected the games each player won before this one, e.g. earlier_wins: {{{names[0] if names else 'Ann'}: 1}}")
        return None
    out = {name: 0 for name in names}
    for name, wins in value.items():
        if name not in names:
            errors.add(("earlier_wins", name), f"earlier_wins names {as_written(name)}: expected one of {', '.join(names)}")
        elif not _is_int(wins) or not 0 <= wins <= most:
            errors.add(("earlier_wins", name), f"earlier_wins {name} is {as_written(wins)}: expected 0 to {most}, "
                       f"as the Long Game ends when someone wins {scoring.long_game_wins} games")
        else:
            out[name] = wins
    return out


def _players(doc: Located, scoring: ScoringFile, errors: _Errors) -> list[Entry]:
    data = doc.data
    players = data.get("players")
    most = max(scoring.tricks_by_players)
    fewest = min(scoring.tricks_by_players)
    if "players" not in data:
        errors.missing((), "players", f"missing 'players': expected a list of 1 to {most} players, each with name, yellow and blue")
        return []
    if not isinstance(players, list) or not players:
        errors.add(("players",), f"players is {as_written(players)}: expected a list of 1 to {most} players, each with name, yellow and blue")
        return []
    entries = [e for i, p in enumerate(players) if (e := _entry(p, ("players", i), scoring, errors)) is not None]
    seen: dict[str, str] = {}
    for i, p in enumerate(players):
        name = p.get("name") if isinstance(p, dict) else None
        if not isinstance(name, str):
            continue
        key = name.strip().casefold()
        if key in seen:
            errors.add(("players", i, "name"), f"player {name}: the name appears twice: expected one entry per player")
        seen[key] = name
    if "fuzz" in data:
        fuzz = _entry(data["fuzz"], ("fuzz",), scoring, errors, fuzz=True)
        if len(players) != 1:
            errors.add(("fuzz",), f"fuzz is only for the solo game: expected exactly one player with it, got {len(players)}")
        if FUZZ.casefold() in seen:
            errors.add(("players", 0, "name"), f"player {FUZZ}: the name is taken by the solo opponent: expected another name")
        if fuzz is not None:
            entries.append(fuzz)
    elif len(players) < fewest:
        errors.add(("players",), f"players has {len(players)} player: a solo game needs Fuzz's markers too, e.g. fuzz: {{yellow: 5, blue: 4}}")
    elif len(players) > most:
        errors.add(("players",), f"players has {len(players)} players: expected {fewest} to {most}")
    return entries


def _check_game_end(doc: Located, entries: list[Entry], scoring: ScoringFile, errors: _Errors) -> None:
    """Positions the rules cannot produce: every trick moves only its winner, one square
    per card played, and the game ends after the trick in which a marker reaches the end
    square, so only one participant can be past the square before it."""
    solo = any(e.fuzz for e in entries)
    per_trick = scoring.solo_trick_cards if solo else len(entries)
    before = scoring.end_square - 1

    def at(i: int) -> tuple:
        return ("fuzz",) if entries[i].fuzz else ("players", i)

    past = [i for i, e in enumerate(entries) if max(e.yellow, e.blue) > before]
    for i in past[1:]:
        e, first = entries[i], entries[past[0]]
        errors.add(at(i), f"{_who(e)}a marker is past square {before}, and so is one of {first.name}'s: "
                   f"the game ends after the trick that first reaches square {scoring.end_square}, and a trick moves only its winner")
    for i in past[:1]:
        e = entries[i]
        beyond = max(0, e.yellow - before) + max(0, e.blue - before)
        if beyond > per_trick:
            errors.add(at(i), f"{_who(e)}yellow {e.yellow} and blue {e.blue} are {beyond} squares past square {before}: "
                       f"the game ends after the trick that reaches square {scoring.end_square}, and a trick moves at most {per_trick}")
    total = sum(e.yellow + e.blue for e in entries)
    if solo:
        if not past:
            _check_solo_length(total, scoring, errors)
        return
    n = len(entries)
    tricks = scoring.tricks_by_players.get(n, 0)
    limit = n * tricks
    ruling = scoring.length_ruling(n)
    why = f"; {ruling}" if ruling else ""
    # lines 32 and 53: each of the n players plays a card to every trick, and its winner moves
    # one square per card: so does every player's own count
    uneven = [i for i, e in enumerate(entries) if (e.yellow + e.blue) % n]
    for i in uneven:
        e = entries[i]
        errors.add(at(i), f"{_who(e)}yellow {e.yellow} + blue {e.blue} = {e.yellow + e.blue} squares: expected a multiple of "
                   f"{n}, as each of the {n} players plays a card to every trick (dietrick-taking-rules.txt line 32) and "
                   f"its winner moves one square per card (line 53)")
    if uneven:
        return  # squares that are not whole tricks: their total says nothing more
    if total > limit:
        errors.add(("players",), f"the markers moved {total} squares in all: a {n}-player game has at most "
                   f"{tricks} tricks of {n} cards, {limit} squares{why}")
    elif total < limit and not past:
        # Lines 71-73: the game ends when the deck runs out (after `tricks` tricks); line 77:
        # or after the trick in which a marker reaches end_square. Neither happened here.
        other = scoring.other_reading(n, total // n)
        why += f"; {other}" if other else ""
        errors.add(("players",), f"the markers moved {total} squares in all and none reached square {scoring.end_square}: "
                   f"not a finished game. A {n}-player game ends after {tricks} tricks of {n} cards, {limit} squares, "
                   f"when the deck runs out (dietrick-taking-rules.txt lines 71-73), or after the trick in which a marker "
                   f"reaches square {scoring.end_square} (line 77){why}")


def _check_solo_length(total: int, scoring: ScoringFile, errors: _Errors) -> None:
    """Solo (line 101): the game ends when the hand is empty or a marker reaches the end
    square. The hand empties after `solo_personal_deck` tricks at the soonest (scoring.yaml),
    each moving its winner at least `solo_fewest_trick_cards` squares."""
    tricks, cards = scoring.solo_personal_deck, scoring.solo_fewest_trick_cards
    if total < tricks * cards:
        errors.add(("players",), f"the markers moved {total} squares in all and none reached square {scoring.end_square}: "
                   f"not a finished game. A solo game ends when your hand is empty or a marker reaches square "
                   f"{scoring.end_square} (dietrick-taking-rules.txt line 101); of the {tricks} cards dealt to you (line 93) "
                   f"a trick uses up at most one, so the hand lasts {tricks} tricks at least, each of {cards} cards or more "
                   f"(line 97): {tricks * cards} squares or more")


def _check_icon_cards(entries: list[Entry], scoring: ScoringFile, icon_cards: dict[str, int], errors: _Errors) -> None:
    """A trick moves its winner one square per card along the row of that card's icon
    (dietrick-taking-rules.txt line 53), and a card is played once, or twice if it was among
    the discards shuffled into a new deck: never at 2 players (line 71), once at 3-4 (line
    73), when as many cards as the deck held after dealing (line 23) have been played (any
    of the cards, dealt ones too: a trick draws as many as it plays). So a row's markers
    move in all at most its icon's cards, plus as many of them as that many discards can
    hold. The solo game is left out: a card the player wins goes back to the hand (line 99)."""
    if any(e.fuzz for e in entries):
        return
    n = len(entries)
    reshuffles = scoring.reshuffles_by_players.get(n)
    if reshuffles is None:
        return
    # the draws empty the deck after its cards' worth of plays (a trick draws as many cards as
    # it plays, line 63), and those discards are the new deck (pnp's ruling: rulings.game_length)
    again = reshuffles * (sum(icon_cards.values()) - scoring.hand_size * n)
    why = ("the deck is never reshuffled with 2 players (dietrick-taking-rules.txt line 71), so each card is played at most once"
           if reshuffles == 0 else
           f"the discards are shuffled into a new deck with {n} players (dietrick-taking-rules.txt line 73) once "
           f"{again} cards have been played, as many as the deck held after dealing {scoring.hand_size} each (line 23), "
           f"so at most {again} cards are played twice")
    for row, cards in icon_cards.items():
        most = cards + min(cards, again)
        moved = sum(getattr(e, row) for e in entries)
        if moved > most:
            errors.add(("players",), f"the {row} markers moved {moved} squares in all: a card moves its trick's winner one "
                       f"{row} square (line 53), {why}, and the deck has {cards} cards with the {row} icon: "
                       f"at most {most} {row} squares")


def _who(e: Entry) -> str:
    return f"{FUZZ}: " if e.fuzz else f"player {e.name}: "


# ---------------------------------------------------------------- blank sheet and schema (`pnp sheet`)


def template(game: "GameContent", players: int, options: dict[str, str] | None = None) -> str:
    """A blank, commented sheet for `players` players (1 = solo against Fuzz); the game
    has one rule set, so `options` change nothing."""
    scoring: ScoringFile = game.data["scoring"]
    most = max(scoring.tricks_by_players)
    if not 1 <= players <= most:
        raise OptionError(f"--players {players}: expected 1 (solo against {FUZZ}) to {most}")
    free = scoring.free_cards
    out = [
        "# Dietrick-taking scoring sheet: fill in, then run `pnp score <this file>`.",
        f"game: {game.name}",
        f"scoring_order: {free}   # cards {', '.join(map(str, free))} left to right as laid; card {scoring.last_card} is always last",
        "variant: standard          # or beginner (differences in squares)",
        "players:",
    ]
    for seat in range(1, players + 1):
        out += [
            f"  - name: Player {seat}",
            f"    yellow: 0              # squares the yellow (top) marker moved, 0 to {scoring.track_length}",
            "    blue: 0                # squares the blue (bottom) marker moved",
            "    # claimed: 0           # optional: the difference you worked out",
        ]
    if players == 1:
        out += [f"fuzz: {{yellow: 0, blue: 0}}   # {FUZZ}'s markers"]
    out += ["# claimed_winner: Player 1   # optional: a name, a list of names, or none",
            f"# earlier_wins: {{Player 1: 1}}   # Long Game only: games won before this one (first to {scoring.long_game_wins} wins)"]
    return "\n".join(out) + "\n"


def json_schema(game: "GameContent") -> dict[str, Any]:
    """JSON Schema of the sheet file, for editors (the scorer checks far more): its bounds
    are those `parse_sheet` reads from scoring.yaml (the track, the seats, the cards, the Long Game)."""
    scoring: ScoringFile = game.data["scoring"]
    free = scoring.free_cards
    square = {"type": "integer", "minimum": 0, "maximum": scoring.track_length, "description": "squares the marker moved; 0 if it never moved"}
    markers = {"yellow": {**square, "description": "squares the yellow (top) marker moved"},
               "blue": {**square, "description": "squares the blue (bottom) marker moved"}}
    return {
        "title": "Dietrick-taking scoring sheet",
        "type": "object",
        "additionalProperties": False,
        "required": ["game", "scoring_order", "players"],
        "properties": {
            "game": {"const": game.name},
            "scoring_order": {"type": "array", "items": {"enum": [*free, scoring.last_card]}, "uniqueItems": True,
                              "minItems": len(free), "maxItems": len(free) + 1,
                              "description": "the free scoring cards left to right as laid; the last card may be written at the end"},
            "variant": {"enum": list(VARIANTS)},
            "players": {"type": "array", "minItems": 1, "maxItems": max(scoring.tricks_by_players), "items": {
                "type": "object", "additionalProperties": False, "required": ["name", "yellow", "blue"],
                "properties": {"name": {"type": "string"}, **markers,
                               "claimed": {"type": "integer", "minimum": 0, "description": "the difference the table worked out"}},
            }},
            "fuzz": {"type": "object", "additionalProperties": False, "required": ["yellow", "blue"], "properties": markers,
                     "description": "solo only: Fuzz's markers"},
            "earlier_wins": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": scoring.long_game_wins - 1},
                             "description": "Long Game variant: games each player won before this one"},
            "claimed_winner": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
        },
    }
