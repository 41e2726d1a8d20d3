"""Declared game options: `--players N` and `--set KEY=VALUE`, checked once against game.yaml.

Values from the command line are text; each is read as its option's `type`, checked
against `choices`/`min`/`max`, and defaults fill in the rest. Every error names the
game.yaml line that declares the option (or the `options:` section, for an unknown key).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence, TypeVar

from ..errors import ContentError, OptionError, PnpError, did_you_mean
from .paths import lookup, member_ids
from .spec import OptionSpec

if TYPE_CHECKING:
    from .content import GameContent

PLAYERS = "players"
T = TypeVar("T")
_TRUE, _FALSE = {"true", "yes", "on", "1"}, {"false", "no", "off", "0"}


def parse_pairs(pairs: list[str], flag: str = "--set") -> dict[str, str]:
    """`--set KEY=VALUE` options as typed, as a mapping (text values: `check` types them)."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"{flag} {pair!r}: expected KEY=VALUE, e.g. {flag} rules=0.2.8")
        out[key.strip()] = value.strip()
    return out


def choices(game: "GameContent", name: str, spec: OptionSpec) -> list[Any] | None:
    """The allowed values of an option, a content path resolved (e.g. the keys of rules.versions)."""
    if spec.choices is None:
        return None
    if isinstance(spec.choices, list):
        return list(spec.choices)
    found = lookup(game.data_raw(), spec.choices)
    ids = member_ids(found) if found is not None else None
    if ids is None:
        raise PnpError(game.manifest_doc.error(("options", name, "choices"), f"choices {spec.choices!r} names no list or mapping in the content: expected a path such as 'rules.versions'"))
    return ids


def choice_named(allowed: Sequence[T], given: Any) -> T | None:
    """The choice `given` names: the one spelt the same as text (`0.2.8` names "0.2.8"),
    else the one spelt the same in any case (`Published` names "published"), or None."""
    same = [c for c in allowed if str(c) == str(given)]
    if same:
        return same[0]
    folded = [c for c in allowed if str(c).casefold() == str(given).casefold()]
    # two choices differing only in case: a third spelling names neither
    return folded[0] if len(folded) == 1 else None


def _read(spec: OptionSpec, value: Any) -> Any:
    """A command-line value as the option's type; ValueError with the expectation when it is not."""
    if spec.type == "text" or not isinstance(value, str):
        return value if spec.type != "text" else str(value)
    text = value.strip().lower()
    if spec.type == "bool":
        if text in _TRUE | _FALSE:
            return text in _TRUE
        raise ValueError("expected true or false")
    try:
        return int(text) if spec.type == "int" else float(text)
    except ValueError:
        raise ValueError(f"expected {'a whole number' if spec.type == 'int' else 'a number'}") from None


def _flag(name: str, value: Any) -> str:
    return f"--players {value}" if name == PLAYERS else f"--set {name}={value}"


def check_value(game: "GameContent", name: str, spec: OptionSpec, given: Any) -> tuple[Any, ContentError | None]:
    """The typed value of one given option, or the located error."""
    where = game.manifest_doc.error(("options", name), "")

    def fail(expected: str) -> tuple[Any, ContentError]:
        return None, ContentError(where.path, where.line, where.column, f"{_flag(name, given)}: {expected} ({game.name} option {name!r})")

    try:
        value = _read(spec, given)
    except ValueError as exc:
        return fail(str(exc))
    allowed = choices(game, name, spec)
    if allowed is not None and value not in allowed:
        # `--set rules=0.2.8` names the choice "0.2.8", `--set rules=Published` the choice "published"
        found = choice_named(allowed, value)
        if found is None:
            return fail(_not_a_choice(allowed, value))
        value = found
    span = _outside(name, spec, value)
    return (value, None) if span is None else fail(span)


def _not_a_choice(allowed: list[Any], value: Any) -> str:
    names = [str(c) for c in allowed]
    return f"expected one of {', '.join(names)}{did_you_mean(str(value), names)}"


def _outside(name: str, spec: OptionSpec, value: Any) -> str | None:
    """What a number outside the option's min and max was expected to be, or None."""
    low, high = spec.min, spec.max
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if (low is not None and value < low) or (high is not None and value > high):
            span = f"from {low:g} to {high:g}" if low is not None and high is not None else (f"{low:g} or more" if low is not None else f"{high:g} or less")
            return f"expected a number {'of players ' if name == PLAYERS else ''}{span}"
    return None


# what a default of each type must be: templates see it as written, unread (`_read` is for
# the command line's text); a text option's choices may be numbers, so any scalar will do
_DEFAULT_TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    "int": ((int,), "a whole number"), "number": ((int, float), "a number"), "bool": ((bool,), "true or false")}


def default_errors(game: "GameContent") -> list[ContentError]:
    """Each option whose `default:` the option itself would refuse (of another type, none
    of its `choices`, outside its `min`/`max`), at the default's line in game.yaml."""
    errors = []
    for name, spec in game.manifest.options.items():
        value = spec.default
        if value is None:
            continue
        allowed = choices(game, name, spec)
        if spec.type in _DEFAULT_TYPES and (not isinstance(value, _DEFAULT_TYPES[spec.type][0]) or isinstance(value, bool) != (spec.type == "bool")):
            problem: str | None = f"expected {_DEFAULT_TYPES[spec.type][1]} (type: {spec.type})"
        elif allowed is not None and not any(str(c) == str(value) for c in allowed):  # exactly a choice, as templates see it
            problem = _not_a_choice(allowed, value)
        else:
            problem = _outside(name, spec, value)
        if problem is not None:
            errors.append(game.manifest_doc.error(("options", name, "default"), f"default {value!r}: {problem} ({game.name} option {name!r})"))
    return errors


def resolve(game: "GameContent", players: int | None, extra: dict[str, Any]) -> tuple[dict[str, Any], list[ContentError], set[str]]:
    """The options templates see: every declared option (given or default), `players` always.

    Returns the values, the errors of declared options, and the given keys this game does
    not declare (an error only when no game being built declares them)."""
    declared = game.manifest.options
    values: dict[str, Any] = {name: spec.default for name, spec in declared.items()}
    values.setdefault(PLAYERS, None)
    errors: list[ContentError] = []
    unknown: set[str] = set()
    given = dict(extra)
    if players is not None:
        given[PLAYERS] = players
    for name, value in given.items():
        if name not in declared:  # `--players` too: a game builds by player count only where it declares `players`
            unknown.add(name)
            continue
        typed, error = check_value(game, name, declared[name], value)
        if error is not None:
            errors.append(error)
        else:
            values[name] = typed
    return values, errors, unknown


def unknown_error(game: "GameContent", name: str, value: Any) -> ContentError:
    """`--set rulez=...` on a game that has no option `rulez`: list the ones it has."""
    known = [n for n in game.manifest.options if n != PLAYERS]
    where = game.manifest_doc.error(("options",) if game.manifest.options else (), "")
    if name == PLAYERS:  # its pieces are the same at any count: building again for one would change nothing
        expected = ("this game builds the same pieces for any number of players "
                    "(declare `players: {type: int, min: 2, max: 5}` under `options:` in game.yaml for templates to see `options.players`)")
    else:
        # a declared `players` is an option too, given as --players N: name it, or `--set player=3`
        # would hear that the game declares no option at all
        allowed = known + ["players (--players N)"] * (PLAYERS in game.manifest.options)
        expected = (f"expected {'one of ' * (len(allowed) > 1)}{', '.join(allowed)}{did_you_mean(name, list(game.manifest.options))}" if allowed
                    else "this game declares no --set options (add them under `options:` in game.yaml)")
    return ContentError(where.path, where.line, where.column, f"{_flag(name, value)}: {game.name} has no option {name!r}: {expected}")


def resolve_all(games: list["GameContent"], players: int | None, extra: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each game's options; raise PnpError listing every bad value, and every `--set` key
    (or `--players`) that no game being built declares (a key some of them declare goes to
    those only)."""
    out: dict[str, dict[str, Any]] = {}
    errors: list[ContentError] = []
    unknown_by_game: dict[str, set[str]] = {}
    for game in games:
        values, problems, unknown = resolve(game, players, extra)
        out[game.name] = values
        errors += problems
        unknown_by_game[game.name] = unknown
    given = {**extra, PLAYERS: players} if players is not None else extra
    for game in games:
        for name in sorted(unknown_by_game[game.name]):
            if all(name in unknown_by_game[g.name] for g in games):
                errors.append(unknown_error(game, name, given[name]))
    if errors:
        raise PnpError(list(dict.fromkeys(errors)))
    return out
