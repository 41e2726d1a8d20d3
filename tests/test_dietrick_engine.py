"""The Dietrick-taking rules engine: trick ranking (the rules' examples A-D), following
suit, markers, game length per player count, and every sheet accepted by `pnp score`."""

from __future__ import annotations

import random

import pytest
import yaml

from pnp.load.content import load_game
from pnp.load.yamlio import parse_located
from game_plugins import game_module

_engine = game_module("dietrick_taking", "engine")
Game, GreedyPlayer, RandomPlayer, Setup, rank = _engine.Game, _engine.GreedyPlayer, _engine.RandomPlayer, _engine.Setup, _engine.rank


@pytest.fixture(scope="module")
def game(repo_project):
    return load_game(repo_project, "dietrick-taking")


@pytest.fixture(scope="module")
def setup(game):
    return Setup.from_game(game)


def cards(setup, *names):
    by = {(c.suit.id, c.number): c for c in setup.deck}
    return [by[(suit, int(n))] for suit, n in (name.split("-") for name in names)]


@pytest.mark.parametrize("played,first,last", [
    (["meat-9", "meat-2", "meat-3"], 0, 1),  # example A: 9 first, 2 last
    (["meat-9", "meat-1", "meat-2"], 1, 2),  # example B: the 1 beats the 9
    (["meat-8", "meat-1", "shoes-9"], 0, 2),  # example C: off-suit 9 is last
    (["meat-1", "meat-2", "shoes-9", "vegetable-9"], 1, 2),  # example D: first lowest off-suit played is last
    (["meat-1", "meat-2"], 1, 0),  # without a 9 the 1 is just low
])
def test_trick_ranking_follows_the_rules_examples(setup, played, first, last):
    assert rank(cards(setup, *played), setup.scoring.upset) == (first, last)


def test_the_card_that_beats_a_higher_one_is_scoring_yaml_upset(setup):
    """Rules line 45 (a led 1 beats a led 9) is data: scoring.yaml `upset`, read by the ranking."""
    upset = setup.scoring.upset.model_copy(update={"low": 2, "beats": 8})
    assert rank(cards(setup, "meat-8", "meat-2", "meat-3"), upset) == (1, 2)  # the 2 beats the 8, the 3 is lowest
    assert rank(cards(setup, "meat-9", "meat-1", "meat-2"), upset) == (0, 1)  # a 1 and a 9 are now just numbers
    # the low card tops the trick even when a card above the one it beats is there too
    assert rank(cards(setup, "meat-9", "meat-8", "meat-2"), upset) == (2, 1)


def test_must_follow_the_lead_suit(setup):
    g = Game(setup, [RandomPlayer(random.Random(0))] * 3, random.Random(0))
    hand = cards(setup, "meat-3", "shoes-4", "meat-7")
    assert g.legal(hand, cards(setup, "meat-9")) == cards(setup, "meat-3", "meat-7")
    assert g.legal(hand, cards(setup, "vegetable-9")) == hand


def test_a_card_moves_the_row_deck_yaml_gives_its_icon(setup):
    """Rules line 53: the winner moves along the row of each card's score icon; which row
    an icon moves is deck.yaml's `icons.*.row`, which the scorer's limits read too."""
    g = Game(setup, [RandomPlayer(random.Random(0))] * 3, random.Random(0))
    fork, runner = cards(setup, "meat-1", "meat-2")  # rules line 54: a fork and a runner
    assert g.moved(0, 0, [fork, fork, runner]) == (2, 1)
    swapped = Setup(setup.deck, setup.scoring, {"fork": "blue", "runner": "yellow"})
    g = Game(swapped, [RandomPlayer(random.Random(0))] * 3, random.Random(0))
    assert g.moved(0, 0, [fork, fork, runner]) == (1, 2)


def test_solo_goes_on_while_fuzz_can_reveal_the_next_tricks_cards(setup):
    """Our reading (engine docstring): the solo game also ends when Fuzz's deck cannot reveal
    the next trick's cards, one when Fuzz leads it and two when you do (rules line 97)."""
    g = Game(setup, [RandomPlayer(random.Random(0))], random.Random(0))
    spare, lead = cards(setup, "vegetable-4", "meat-9")
    g.deck, g.personal, g.hands = [spare, lead], [], [cards(setup, "shoes-1", "shoes-2")]
    assert g.lead == 1 and g._solo_trick() is False  # Fuzz won and leads: its one card is enough
    assert g.lead == 1 and g.deck == [spare]
    g.deck, g.lead, g.hands = [spare], 0, [cards(setup, "vegetable-9", "shoes-3")]
    assert g._solo_trick() is True  # you lead next but Fuzz's deck is empty


def _play(setup, n, strategy, seed):
    rng = random.Random(seed)
    kind = GreedyPlayer if strategy == "greedy" else RandomPlayer
    g = Game(setup, [kind(random.Random(rng.random())) for _ in range(n)], rng)
    return g, g.play()


@pytest.mark.parametrize("n", [2, 3, 4])
def test_game_length_and_markers(setup, n):
    longest = 0
    for seed in range(60):
        g, r = _play(setup, n, "random" if seed % 2 else "greedy", seed)
        longest = max(longest, r.tricks)
        # every card of every trick moved the trick winner one square (until the track ends)
        assert sum(r.yellow) + sum(r.blue) == r.tricks * n
        if r.ending == "deck":
            assert max(r.yellow + r.blue) < setup.scoring.end_square
        else:
            assert max(r.yellow + r.blue) >= setup.scoring.end_square
        assert len(g.deck) + len(g.discard) + sum(map(len, g.hands)) == len(setup.deck)
    # scoring.yaml prints 14 / 15 / 10; dealing the rules as written gives 14 / 15 / 9
    expected = {2: 14, 3: 15, 4: 9}[n]
    assert longest == expected
    assert longest <= setup.scoring.tricks_by_players[n]


def test_every_sheet_is_accepted_and_scored_alike(game, setup):
    # 200 games: every one is a finished game to the scorer's end-of-game check
    for n in (1, 2, 3, 4):
        for seed in range(50):
            _, r = _play(setup, n, "greedy" if seed % 3 else "random", seed)
            report = game.plugin.score(game, parse_located(yaml.safe_dump(r.sheet, sort_keys=False), "dt.yaml"))
            assert list(report.result.winners) == list(r.verdict.winners)
