"""Variants of content (rule versions, editions): a file maps variant names to content, and
a variant may `extends` another, overriding parts of it.

The variant in use is picked by a game option; it is deep-merged over its ancestors
(mappings merge key by key, anything else is replaced), so a new edition lists only what
changes. Broken chains (an unknown parent, a cycle) are located at their `extends` line;
a key the parent lacks is an error at that key (a misspelt key would otherwise be added,
leaving the parent's value in force): a variant meaning to add a key gives its parent the key too.
A misspelt `extends` (`extend: standard`) is an error at its key too.
"""

from __future__ import annotations

import difflib
from typing import Any

from ..errors import ContentError, did_you_mean
from .yamlio import Located

EXTENDS = "extends"
# how like `extends` a key must be to be taken for its misspelling: one or two edits of it
# (`extend` 0.92, `exetnds` 0.86), not a word of content (`exits` 0.67, `ends` 0.73, `extras`
# 0.62: difflib's own 0.6 took them, and refused a variant naming another in such a key)
EXTENDS_LIKE = 0.8


def deep_merge(base: Any, over: Any) -> Any:
    """Mappings merge key by key (base order first); anything else is replaced by `over`."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = deep_merge(base[key], value) if key in base else value
        return out
    return over


def chains(doc: Located) -> tuple[dict[str, list[str]], list[ContentError]]:
    """Each variant's chain of ancestors (itself first), and the errors of broken chains."""
    variants = doc.data
    if not isinstance(variants, dict) or not all(isinstance(v, dict) for v in variants.values()):
        return {}, [doc.error((), "expected a mapping of variant name -> its content (a mapping, with an optional `extends`)")]
    names = list(variants)
    out: dict[str, list[str]] = {}
    errors: list[ContentError] = []
    for name in names:
        errors += _misspelt_extends(doc, name, names)
        chain = [name]
        while EXTENDS in variants[chain[-1]]:
            parent = variants[chain[-1]][EXTENDS]
            if not isinstance(parent, str) or parent not in variants:
                if chain[-1] == name:  # reported once, by the variant that says it
                    others = ", ".join(n for n in names if n != name)
                    errors.append(doc.error((name, EXTENDS), f"extends {parent!r}, which is not a variant here: expected one of {others}"))
                break
            if parent in chain:
                loop = chain[chain.index(parent):]
                if name == min(loop, key=names.index):  # a cycle is reported once, at its first variant
                    errors.append(doc.error((name, EXTENDS), f"variants extend each other in a cycle ({' -> '.join(loop + [parent])}): expected a chain ending in a variant without extends"))
                break
            chain.append(parent)
        else:
            out[name] = chain
    for name, chain in out.items():
        if len(chain) > 1:
            own = {k: v for k, v in variants[name].items() if k != EXTENDS}
            errors += _unknown_keys(doc, (name,), own, resolve(doc, chain[1:]), chain[1])
    return out, errors


def _misspelt_extends(doc: Located, name: str, names: list[str]) -> list[ContentError]:
    """An error at a key near `extends` naming another variant (`extend: standard`): read as
    content, it would leave the variant with none of its parent's keys."""
    own = doc.data[name]
    if EXTENDS in own:
        return []
    return [doc.error((name, key), f"{key!r} names the variant {value!r}{did_you_mean(str(key), [EXTENDS])}: "
                                   f"expected `{EXTENDS}: {value}` to build on it")
            for key, value in own.items()
            if isinstance(value, str) and value in names and value != name
            and difflib.get_close_matches(str(key), [EXTENDS], n=1, cutoff=EXTENDS_LIKE)]


def _unknown_keys(doc: Located, at: tuple, over: dict, base: dict, parent: str) -> list[ContentError]:
    """An error at each key of `over` that `base` (what the parent resolves to) lacks, at
    every depth deep_merge reaches; but a new number in a mapping keyed by numbers alone
    (a count by players: no name to misspell)."""
    errors = []
    counted = bool(base) and all(type(k) is int for k in base)  # by player count ({2: 6, 3: 5}): an edition may add a count
    for key, value in over.items():
        if key not in base and not (counted and type(key) is int):
            inside = f" under {'.'.join(map(str, at[1:]))}" if len(at) > 1 else ""
            near = did_you_mean(str(key), [str(k) for k in base])
            errors.append(doc.error(at + (key,), f"{key!r} is not a key of {parent!r}{inside}, which {at[0]!r} extends{near}: "
                                                 "expected a key the parent has (to add a key, give the parent it too)"))
        elif isinstance(value, dict) and isinstance(base[key], dict):
            errors += _unknown_keys(doc, at + (key,), value, base[key], parent)
    return errors


def resolve(doc: Located, chain: list[str]) -> dict[str, Any]:
    """The content of the first variant of `chain`, merged over its ancestors."""
    merged: dict[str, Any] = {}
    for part in reversed(chain):
        merged = deep_merge(merged, {k: v for k, v in doc.data[part].items() if k != EXTENDS})
    return merged
