"""Checks of the Dietrick-taking content beyond single values: every suit holds every
number once, ids are unique, there are enough player colours for the largest game."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pnp.api import ContentError

from .models import DeckFile, PlayersFile, ScoringFile

if TYPE_CHECKING:
    from pnp.api import GameContent


def check(game: "GameContent") -> list[ContentError]:
    deck: DeckFile = game.data["deck"]
    scoring: ScoringFile = game.data["scoring"]
    players: PlayersFile = game.data["players"]
    errors = _suits(game, deck)
    errors += _duplicates(game, "deck", "suits", [s.id for s in deck.suits], "suit")
    errors += _duplicates(game, "players", "colours", [c.id for c in players.colours], "colour")
    for key in ("low", "beats"):  # the ranking's upset (line 45) names two of the deck's numbers
        n = getattr(scoring.upset, key)
        if n not in deck.numbers:
            errors.append(game.value_error("scoring", ("upset", key), f"{n} is not one of the deck's numbers {deck.numbers}"))
    most = max(scoring.tricks_by_players)
    if len(players.colours) < most:
        errors.append(game.error("players", ("colours",), f"has {len(players.colours)} colours: expected at least {most}, one per player"))
    return errors


def _suits(game: "GameContent", deck: DeckFile) -> list[ContentError]:
    errors = []
    wanted = set(deck.numbers)
    for i, suit in enumerate(deck.suits):
        counts = Counter(suit.fork + suit.runner)
        for icon in ("fork", "runner"):
            for j, n in enumerate(getattr(suit, icon)):
                if n not in wanted:
                    errors.append(game.error("deck", ("suits", i, icon, j), f"suit {suit.id}: {n} is not one of the deck's numbers {deck.numbers}"))
                elif counts[n] > 1:
                    errors.append(game.error("deck", ("suits", i, icon, j), f"suit {suit.id}: {n} is listed {counts[n]} times: expected each number once, under fork or runner"))
        missing = sorted(wanted - set(counts))
        if missing:
            errors.append(game.error("deck", ("suits", i), f"suit {suit.id}: numbers {missing} have no score icon: expected each of {deck.numbers} under fork or runner"))
    return errors


def _duplicates(game: "GameContent", stem: str, key: str, ids: list[str], what: str) -> list[ContentError]:
    seen: set[str] = set()
    errors = []
    for i, ident in enumerate(ids):
        if ident in seen:
            errors.append(game.value_error(stem, (key, i, "id"), f"{what} id {ident!r} appears twice: expected unique ids"))
        seen.add(ident)
    return errors
