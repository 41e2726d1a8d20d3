"""Checks of the Human Harvest content beyond single values: unique ids everywhere (they
become file names), the Cyborgs scoring.yaml counts fit in one suit's coins, the paper
scoring sheet (scoring.yaml `sheet:`) names the scorer's fields and values, in its order,
and the rules summary prints the scorer's counts only through their placeholders."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.api import ContentError

from .fields import ENDINGS, PLAYER_KEYS, TOP_KEYS, VARIANTS
from .models import SHEET_COUNTS

if TYPE_CHECKING:
    from pnp.api import GameContent

# (file stem, list key) whose records become pieces named by their id
ID_LISTS = (("piecepack", "suits"), ("piecepack", "ranks"), ("extras", "tokens"), ("extras", "standees"), ("extras", "markers"))


def check(game: "GameContent") -> list[ContentError]:
    errors = []
    for stem, key in ID_LISTS:
        seen: set[str] = set()
        for i, record in enumerate(getattr(game.data[stem], key)):
            if record.id in seen:
                errors.append(game.value_error(stem, (key, i, "id"), f"{key[:-1]} id {record.id!r} appears twice: expected unique ids"))
            seen.add(record.id)
    # human-harvest-rules.txt line 17: a player's Cyborgs are the coins of one suit, one per rank
    coins = len(game.data["piecepack"].ranks)
    cyborgs = game.data["scoring"].cyborgs_per_player
    if cyborgs > coins:
        errors.append(game.value_error("scoring", ("cyborgs_per_player",), f"cyborgs_per_player is {cyborgs}: expected at most {coins}, "
                                       f"the coins of one suit (piecepack.yaml ranks), as a player's Cyborgs are (human-harvest-rules.txt line 17)"))
    errors += _sheet(game)
    errors += _summary(game)
    return errors


def _summary(game: "GameContent") -> list[ContentError]:
    """The summary's points print scoring.yaml's counts (`ScoringFile.say`), as the sheet does:
    the same numbers the scorer checks, so they take the same placeholders only."""
    scoring = game.data["scoring"]
    return [game.error("summary", ("sections", i, "points", j), f"summary point {point!r}: expected only the placeholders "
                       f"{', '.join('{%s}' % n for n in SHEET_COUNTS)} (a lone brace is written {{{{ or }}}})")
            for i, section in enumerate(game.data["summary"].sections) for j, point in enumerate(section.points)
            if not scoring.placeholders_ok(point)]


# What the scoring-sheet file takes (fields.py, as scoring.py reads it): the keys of scoring.yaml's `sheet:` must be these, in this order.
SHEET_KEYS = {"fields": TOP_KEYS, "player_fields": PLAYER_KEYS}
SHEET_CHOICES = {"variant": VARIANTS, "ending": ENDINGS, "dna_point": ("true", "false")}


def _sheet(game: "GameContent") -> list[ContentError]:
    """The paper sheet shows every field of the file under its name, in its order, so a
    table copies it line by line; a field the scorer gains or renames is named here. Its
    texts name only the counts they print (`ScoringFile.say`)."""
    scoring = game.data["scoring"]
    words = scoring.sheet
    errors = [game.value_error("scoring", at, f"sheet text {text!r}: expected only the placeholders "
                               f"{', '.join('{%s}' % n for n in SHEET_COUNTS)} (a lone brace is written {{{{ or }}}})")
              for at, text in scoring.texts() if not scoring.placeholders_ok(text)]
    wanted: list[tuple[tuple[str, ...], list[str], list[str]]]  # (where, as written, as the file has it)
    wanted = [(("sheet", key), list(getattr(words, key)), list(keys)) for key, keys in SHEET_KEYS.items()]
    wanted += [(("sheet", "choices"), list(words.choices), list(SHEET_CHOICES))]
    wanted += [(("sheet", "choices", key), list(words.choices.get(key, {})), list(keys)) for key, keys in SHEET_CHOICES.items()
               if key in words.choices]
    return errors + [game.value_error("scoring", at, f"{'.'.join(at)} lists {', '.join(got) or 'nothing'}: expected {', '.join(keys)}, "
                                      "in that order, as the scoring-sheet file has them (plugins/human_harvest/fields.py)")
                     for at, got, keys in wanted if got != keys]
