"""The cave's tile placement as a rules engine: moving explores the board, tiles leave it
again when nobody can see them, and the game ends when someone steps onto an exit or
nobody can move (the cave walled the players in).

Rules: /work/shared/rules/cave-game-rules.txt, "Movement", "VISUAL RANGE", "Game setup".
Only the tiles are simulated (food, energy, sanity and challenges are not): the question
is whether a deck lets the players reach an exit. Numbers come from tiles.yaml and
board.yaml.

Our reading where the rules leave room:
- a new tile may be turned any way that opens towards the square the player comes from
  (its other sides need not match its neighbours);
- a step needs an opening on both sides of the shared edge;
- after each turn, tiles outside every player's visual range (their own square and the
  squares they could step to) go to the discard pile; the start tile leaves the board
  for good; the exits begin in the discard pile and come into play when the draw pile
  is empty and the discards are shuffled into a new one;
- a game that reaches the turn limit ends as "wandering".
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

from .deck import cave_tiles, exits

SIDES = ("north", "east", "south", "west")
STEP = {"north": (-1, 0), "east": (0, 1), "south": (1, 0), "west": (0, -1)}
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}
TURN_LIMIT = 400  # turns per player before a game counts as wandering


def turned(openings: frozenset[str], quarter: int) -> frozenset[str]:
    """Openings after `quarter` quarter turns clockwise."""
    return frozenset(SIDES[(SIDES.index(s) + quarter) % 4] for s in openings)


@dataclass(frozen=True)
class Piece:
    id: str
    openings: frozenset[str]
    exit: bool = False


@dataclass
class Setup:
    rows: int
    cols: int
    start: list[frozenset[str]]
    tiles: dict[int, list[Piece]]  # players -> the cave deck
    exits: dict[int, list[Piece]]

    @classmethod
    def from_game(cls, game) -> "Setup":
        t, board = game.data["tiles"], game.data["board"]
        counts = range(t.players.min, t.players.max + 1)
        return cls(
            rows=len(board.row_labels), cols=len(board.column_labels),
            start=[frozenset(s) for s in t.start.squares],
            tiles={n: [Piece(c.id, frozenset(c.openings)) for c in cave_tiles(t, n)] for n in counts},
            exits={n: [Piece(e.id, frozenset(e.openings), True) for e in exits(t, n)] for n in counts},
        )


class Player(Protocol):
    name: str

    def move(self, game: "Game", seat: int, moves: list[str]) -> int: ...
    def orient(self, game: "Game", seat: int, square: tuple[int, int], options: list[frozenset[str]]) -> int: ...


class RandomPlayer:
    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def move(self, game, seat, moves):
        return self.rng.randrange(len(moves))

    def orient(self, game, seat, square, options):
        return self.rng.randrange(len(options))


class GreedyPlayer:
    """An explorer: steps onto an empty square when it can (a new tile), and turns a new
    tile so that as many openings as possible lead to empty squares on the board."""

    name = "greedy"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def move(self, game, seat, moves):
        r, c = game.pawns[seat]
        fresh = [i for i, d in enumerate(moves) if (r + STEP[d][0], c + STEP[d][1]) not in game.board]
        return self.rng.choice(fresh or list(range(len(moves))))

    def orient(self, game, seat, square, options):
        def open_ends(o):
            return sum(1 for s in o if game.on_board(game.next(square, s)) and game.next(square, s) not in game.board)
        best = max(open_ends(o) for o in options)
        return self.rng.choice([i for i, o in enumerate(options) if open_ends(o) == best])


STRATEGIES: dict[str, Callable[[random.Random], Player]] = {"greedy": GreedyPlayer, "random": RandomPlayer}


@dataclass
class Result:
    players: int
    strategies: list[str]
    ending: str  # "exit", "walled in" or "wandering"
    winner: int | None
    turns: int
    placed: list[int]  # tiles each player laid
    reshuffles: int


class Game:
    def __init__(self, setup: Setup, n: int, players: Sequence[Player], rng: random.Random):
        self.setup, self.rng, self.n = setup, rng, n
        self.players = list(players)
        self.draw_pile = list(setup.tiles[n])
        rng.shuffle(self.draw_pile)
        self.discard = list(setup.exits[n])  # "place Exit tile(s) aside to form a discard pile"
        self.board: dict[tuple[int, int], Piece] = {}
        width = len(setup.start)
        r, c = rng.randrange(setup.rows), rng.randrange(setup.cols - width + 1)
        for k, openings in enumerate(setup.start):
            self.board[(r, c + k)] = Piece("start", openings)
        self.pawns = [(r, c + (i % width)) for i in range(len(self.players))]
        self.placed = [0] * len(self.players)
        self.reshuffles = 0

    def on_board(self, sq: tuple[int, int]) -> bool:
        return 0 <= sq[0] < self.setup.rows and 0 <= sq[1] < self.setup.cols

    @staticmethod
    def next(sq: tuple[int, int], side: str) -> tuple[int, int]:
        return (sq[0] + STEP[side][0], sq[1] + STEP[side][1])

    def can_draw(self) -> bool:
        return bool(self.draw_pile or self.discard)

    def moves(self, seat: int) -> list[str]:
        here = self.pawns[seat]
        out = []
        for side in SIDES:
            if side not in self.board[here].openings:
                continue
            there = self.next(here, side)
            if not self.on_board(there):
                continue
            tile = self.board.get(there)
            if tile is None and self.can_draw() or tile is not None and OPPOSITE[side] in tile.openings:
                out.append(side)
        return out

    def draw(self) -> Piece:
        if not self.draw_pile:
            self.draw_pile, self.discard = self.discard, []
            self.rng.shuffle(self.draw_pile)
            self.reshuffles += 1
        return self.draw_pile.pop()

    def visible(self) -> set[tuple[int, int]]:
        """Every pawn's square and the squares it could step to."""
        seen = set()
        for pawn in self.pawns:
            seen.add(pawn)
            for side in self.board[pawn].openings:
                there = self.next(pawn, side)
                tile = self.board.get(there)
                if tile is not None and OPPOSITE[side] in tile.openings:
                    seen.add(there)
        return seen

    def play(self) -> Result:
        turns = 0
        for _ in range(TURN_LIMIT):
            stuck = 0
            for seat, player in enumerate(self.players):
                moves = self.moves(seat)
                if not moves:
                    stuck += 1
                    continue
                turns += 1
                side = moves[player.move(self, seat, moves)]
                there = self.next(self.pawns[seat], side)
                if there not in self.board:
                    piece = self.draw()
                    options = list(dict.fromkeys(o for q in range(4) if OPPOSITE[side] in (o := turned(piece.openings, q))))
                    self.board[there] = Piece(piece.id, options[player.orient(self, seat, there, options)], piece.exit)
                    self.placed[seat] += 1
                self.pawns[seat] = there
                if self.board[there].exit:
                    return Result(self.n, [p.name for p in self.players], "exit", seat, turns, self.placed, self.reshuffles)
                keep = self.visible()
                for sq in [sq for sq in self.board if sq not in keep]:
                    piece = self.board.pop(sq)
                    if piece.id != "start":
                        self.discard.append(Piece(piece.id, piece.openings, piece.exit))
            if stuck == len(self.players):
                return Result(self.n, [p.name for p in self.players], "walled in", None, turns, self.placed, self.reshuffles)
        return Result(self.n, [p.name for p in self.players], "wandering", None, turns, self.placed, self.reshuffles)


def play(setup: Setup, n: int, seed: int, strategies: Sequence[str]) -> Result:
    rng = random.Random(seed)
    players = [STRATEGIES[s](random.Random(rng.random())) for s in strategies]
    return Game(setup, n, players, rng).play()
