"""Dietrick-taking rules engine: deal, tricks, scoring-card markers, the end, 1-4 players.

Rule references are lines of /work/shared/rules/dietrick-taking-rules.txt. Numbers come
from deck.yaml and scoring.yaml; the final verdict comes from the scorer (`scoring.score`).

Our reading where the rules leave room:
- the deck is reshuffled (3-4 players) when a player must draw from an empty deck, so
  the discard pile then holds every earlier trick; the game's last trick is the one
  after the deck empties for good;
- the order of scoring cards 1-3, chosen at the table after the first play, is random;
- a marker stops at the end of the track;
- solo: the game also ends when Fuzz's deck cannot reveal the cards of a trick.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from .models import Card, DeckFile, ScoringFile, Upset
from .scoring import Result as Verdict
from .scoring import score
from .sheet import FUZZ, Entry, Sheet

@dataclass
class Setup:
    deck: list[Card]
    scoring: ScoringFile
    rows: dict[str, str]  # score icon -> the row it moves (deck.yaml `icons`, rules line 53)

    @classmethod
    def from_game(cls, game) -> "Setup":
        deck: DeckFile = game.data["deck"]
        return cls(deck.cards, game.data["scoring"], {key: icon.row for key, icon in deck.icons.items()})


def rank(trick: Sequence[Card], upset: Upset) -> tuple[int, int]:
    """(first, last) positions in a trick, `trick[0]` being the lead (rules: Game Flow).

    Lead-suit cards rank highest, higher numbers first, except that the led suit's
    `upset.low` beats its `upset.beats` when both are in the trick (rules line 45, the 1
    and the 9 in scoring.yaml). Last is the lowest off-suit card (the earliest played of
    equal ones), or with none off-suit the lowest-ranked lead-suit card."""
    lead = trick[0].suit.id
    numbers = [c.number for c in trick if c.suit.id == lead]
    low_tops = upset.low in numbers and upset.beats in numbers

    def strength(i: int) -> tuple[bool, int]:
        n = trick[i].number
        return (low_tops and n == upset.low, n)  # line 45: the low card "always at the top"

    follow = [i for i, c in enumerate(trick) if c.suit.id == lead]
    first = max(follow, key=lambda i: (strength(i), -i))
    off = [i for i, c in enumerate(trick) if c.suit.id != lead]
    if off:
        last = min(off, key=lambda i: (trick[i].number, i))
    else:
        last = min(follow, key=lambda i: (strength(i), i))
    return first, last


class Player(Protocol):
    name: str

    def play(self, game: "Game", seat: int, legal: list[Card], trick: list[Card]) -> Card: ...
    def give(self, game: "Game", seat: int, hand: list[Card]) -> Card: ...


class RandomPlayer:
    """Any legal card; passes a random card."""

    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def play(self, game, seat, legal, trick):
        return self.rng.choice(legal)

    def give(self, game, seat, hand):
        return self.rng.choice(hand)


class GreedyPlayer:
    """Plays for the balance it has now: playing last, it picks the card whose trick
    leaves its difference smallest; earlier, it tries to win a trick whose icons would
    help its weaker row (highest legal card) and to duck one that would not (lowest).
    Passes its highest card."""

    name = "greedy"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def _gap(self, game: "Game", seat: int, yellow: int, blue: int) -> int:
        return abs(game.value(seat, "yellow", yellow) - game.value(seat, "blue", blue)) if yellow and blue else 99

    def play(self, game, seat, legal, trick):
        y, b = game.yellow[seat], game.blue[seat]
        if len(trick) == game.trick_size - 1:
            best = None
            for card in legal:
                full = trick + [card]
                first, _ = rank(full, game.setup.scoring.upset)
                yy, bb = y, b
                if first == len(trick):
                    yy, bb = game.moved(yy, bb, full)
                key = (self._gap(game, seat, yy, bb), card.number)
                if best is None or key < best[0]:
                    best = (key, card)
            return best[1]
        yy, bb = game.moved(y, b, trick)
        want = self._gap(game, seat, yy, bb) <= self._gap(game, seat, y, b) or not (y and b)
        return max(legal, key=lambda c: c.number) if want else min(legal, key=lambda c: c.number)

    def give(self, game, seat, hand):
        return max(hand, key=lambda c: c.number)


STRATEGIES: dict[str, Callable[[random.Random], Player]] = {"greedy": GreedyPlayer, "random": RandomPlayer}


@dataclass
class Result:
    players: int
    strategies: list[str]
    tricks: int
    ending: str  # "end square" or "deck"
    yellow: list[int]
    blue: list[int]
    verdict: Verdict
    sheet: dict[str, Any] = field(default_factory=dict)


class Game:
    """One game; `play()` runs it to the end."""

    def __init__(self, setup: Setup, players: Sequence[Player], rng: random.Random):
        self.setup, self.rng = setup, rng
        self.players = list(players)
        self.n = len(players)
        self.solo = self.n == 1
        scoring = setup.scoring
        seats = 2 if self.solo else self.n  # solo: the player and Fuzz
        self.yellow, self.blue = [0] * seats, [0] * seats
        self.order = list(scoring.free_cards)
        rng.shuffle(self.order)
        self.tracks = {row: scoring.track(self.order, row) for row in ("yellow", "blue")}
        self.deck = list(setup.deck)
        rng.shuffle(self.deck)
        self.discard: list[Card] = []
        self.trick_size = scoring.solo_trick_cards if self.solo else self.n
        if self.solo:
            self.personal = [self.deck.pop() for _ in range(scoring.solo_personal_deck)]
            self.hands = [[self.personal.pop() for _ in range(scoring.hand_size)]]
        else:
            self.hands = [[self.deck.pop() for _ in range(scoring.hand_size)] for _ in range(self.n)]
        self.lead = 1 if self.solo else rng.randrange(self.n)  # solo: Fuzz (seat 1) leads first
        self.reshuffles = 0 if self.solo else scoring.reshuffles_by_players.get(self.n, 1)
        self.tricks = 0

    def value(self, seat: int, row: str, squares: int) -> int:
        return self.tracks[row][squares - 1] if squares else 0

    def moved(self, yellow: int, blue: int, cards: Sequence[Card]) -> tuple[int, int]:
        """Markers after winning `cards`: one square per card on its icon's row."""
        end = self.setup.scoring.track_length
        for c in cards:
            if self.setup.rows[c.icon] == "yellow":
                yellow = min(end, yellow + 1)
            else:
                blue = min(end, blue + 1)
        return yellow, blue

    def legal(self, hand: list[Card], trick: list[Card]) -> list[Card]:
        """Must follow the lead suit when possible."""
        if not trick:
            return list(hand)
        same = [c for c in hand if c.suit.id == trick[0].suit.id]
        return same or list(hand)

    def draw(self) -> Card | None:
        if not self.deck and self.reshuffles and self.discard:
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
            self.reshuffles -= 1
        return self.deck.pop() if self.deck else None

    def play(self) -> Result:
        end_square = self.setup.scoring.end_square
        last_trick = False
        while True:
            self.tricks += 1
            if self.solo:
                finished = self._solo_trick()
            else:
                finished = self._trick()
            if max(self.yellow + self.blue) >= end_square:
                return self.result("end square")
            if finished or last_trick:
                return self.result("deck")
            if not self.solo and not self.deck and not (self.reshuffles and self.discard):
                last_trick = True  # the deck ran out for good: one last trick

    def _trick(self) -> bool:
        seats = [(self.lead + k) % self.n for k in range(self.n)]
        trick: list[Card] = []
        for seat in seats:
            card = self.players[seat].play(self, seat, self.legal(self.hands[seat], trick), trick)
            self.hands[seat].remove(card)
            trick.append(card)
        first, last = rank(trick, self.setup.scoring.upset)
        winner, loser = seats[first], seats[last]
        self.yellow[winner], self.blue[winner] = self.moved(self.yellow[winner], self.blue[winner], trick)
        # the last-ranked player gives one card to each other player, then draws to 5
        for seat in seats:
            if seat != loser and self.hands[loser]:
                card = self.players[loser].give(self, loser, self.hands[loser])
                self.hands[loser].remove(card)
                self.hands[seat].append(card)
        while len(self.hands[loser]) < self.setup.scoring.hand_size:
            drawn = self.draw()
            if drawn is None:
                break
            self.hands[loser].append(drawn)
        self.discard.extend(trick)
        self.lead = winner
        return False

    def _solo_trick(self) -> bool:
        """Solo against Fuzz (seat 1): Fuzz reveals one card when leading, two when second."""
        fuzz_first = self.lead == 1
        trick: list[Card] = []
        owners: list[int] = []
        if fuzz_first:
            trick.append(self.deck.pop())
            owners.append(1)
        card = self.players[0].play(self, 0, self.legal(self.hands[0], trick), trick)
        self.hands[0].remove(card)
        trick.append(card)
        owners.append(0)
        if not fuzz_first:
            for _ in range(2):
                if self.deck:
                    trick.append(self.deck.pop())
                    owners.append(1)
        first, _ = rank(trick, self.setup.scoring.upset)
        winner = owners[first]
        self.yellow[winner], self.blue[winner] = self.moved(self.yellow[winner], self.blue[winner], trick)
        if winner == 0:
            low = min(trick, key=lambda c: c.number)
            self.hands[0].append(low)
            trick.remove(low)
            if self.personal:
                self.deck.insert(0, self.personal.pop())  # to the bottom of Fuzz's deck
        elif self.personal:
            self.hands[0].append(self.personal.pop())
        self.discard.extend(trick)
        self.lead = winner
        # the next trick reveals one card if Fuzz leads it, two if you do (rules line 97)
        scoring = self.setup.scoring
        reveal = (scoring.solo_fewest_trick_cards if winner == 1 else scoring.solo_trick_cards) - 1
        return not self.hands[0] or len(self.deck) < reveal

    def result(self, ending: str) -> Result:
        names = [f"P{i + 1} {p.name}" for i, p in enumerate(self.players)]
        entries = [Entry(names[i], self.yellow[i], self.blue[i]) for i in range(self.n)]
        if self.solo:
            entries.append(Entry(FUZZ, self.yellow[1], self.blue[1], fuzz=True))
        sheet = Sheet((*self.order, self.setup.scoring.last_card), "standard", tuple(entries), None)
        verdict = score(sheet, self.setup.scoring)
        doc: dict[str, Any] = {
            "game": "dietrick-taking",
            "scoring_order": list(self.order),
            "players": [{"name": e.name, "yellow": e.yellow, "blue": e.blue} for e in entries if not e.fuzz],
        }
        if self.solo:
            doc["fuzz"] = {"yellow": self.yellow[1], "blue": self.blue[1]}
        return Result(self.n, [p.name for p in self.players], self.tricks, ending, list(self.yellow), list(self.blue), verdict, doc)


def play(setup: Setup, seed: int, strategies: Sequence[str]) -> Result:
    rng = random.Random(seed)
    players = [STRATEGIES[s](random.Random(rng.random())) for s in strategies]
    return Game(setup, players, rng).play()
