"""Located YAML and schema validation: every problem names its file, line and column."""

from __future__ import annotations

import time
import pytest
from typing import Annotated, Literal

from pydantic import Field

from typer.testing import CliRunner

from pnp.cli import app
from pnp.errors import ContentError, PnpError
from pnp.load.content import Project
from pnp.load.manifest import Manifest
from pnp.units import to_mm
from pnp.load.validation import Named, StrictModel, validate
from pnp.load.yamlio import parse_located


class Card(StrictModel):
    id: str
    cost: int = Field(ge=0)


class Deck(StrictModel):
    cards: list[Card]


def messages(text: str, model=Deck) -> list[str]:
    doc = parse_located(text, "deck.yaml")
    _, errors = validate(doc, model)
    return [str(e) for e in errors]


def test_positions_of_keys_and_items():
    doc = parse_located("a: 1\nitems:\n  - id: x\n  - {id: y, q: 2}\n", "f.yaml")
    assert doc.data == {"a": 1, "items": [{"id": "x"}, {"id": "y", "q": 2}]}
    assert doc.where(("items", 1, "q")) == (4, 13)
    assert doc.where(("items", 0, "id", "deeper")) == (3, 5)  # nearest known ancestor


INDENT = "check this line's indentation: expected the keys of one mapping, and the '- ' items of one list, to start in the same column"


@pytest.mark.parametrize(
    "text, expected",
    [
        # before: at line 2, column 1, where the parser gave up: at the bracket left open
        ("a: [1\n", "f.yaml:1:4: malformed YAML: the '[' here is not closed (did not find expected ',' or ']' at line 2, column 1): "
                    "expected a ']' at the end of what it holds"),
        ("x:\n  - {id: a, b: 2\n  - {id: c}\n", "f.yaml:2:5: malformed YAML: the '{' here is not closed (did not find expected ',' or '}' "
                                              "at line 3, column 5): expected a '}' at the end of what it holds"),
        # a bracket closed further on, a comma missing inside it: at the comma's place, not at the bracket
        # (before: "the '{' here is not closed" at 1:4); one left open is found by the next key of its block
        ("x: {a: 1,\n    b: 2\n    c: 3}\n", "f.yaml:3:6: malformed YAML: did not find expected ',' or '}'"),
        # the same, its items indented no further than the key (before: "the '{' here is not closed", though it is)
        ("a:\n  b: {x: 1,\n  y: 2\n  z: 3}\n", "f.yaml:4:4: malformed YAML: did not find expected ',' or '}'"),
        ("- {x: 1, y: 2\n  z: 3}\n", "f.yaml:2:4: malformed YAML: did not find expected ',' or '}'"),
        ("a: {x: 1\ny: 2}\n", "f.yaml:2:2: malformed YAML: did not find expected ',' or '}'"),
        # a bracket in quotes or in a comment closes nothing
        ('a: {x: "}", y: 2  # }\nb: 3\n', "f.yaml:1:4: malformed YAML: the '{' here is not closed (did not find expected ',' or '}' "
                                          "at line 2, column 1): expected a '}' at the end of what it holds"),
        ("items:\n  - tags: [a, b\n    name: x\n", "f.yaml:2:11: malformed YAML: the '[' here is not closed (did not find expected "
                                                "',' or ']' at line 3, column 9): expected a ']' at the end of what it holds"),
        # before: at the end of the file ("found unexpected end of stream"), or where the quoted text
        # ended at the next line's quote ("did not find expected key", with a hint about indentation)
        ('a: "abc\nb: 1\n', 'f.yaml:1:4: malformed YAML: the text in quotes begun here is never closed: expected a closing "'),
        ('a: "M1 Z\nb: "M2 Z"\n', "f.yaml:1:4: malformed YAML: the text in quotes begun here runs on to line 2, where the YAML breaks "
                                 "(did not find expected key at line 2, column 5): expected its closing \" on this line"),
        ("a: 'x\nb: >-\n  it's here.\n", "f.yaml:1:4: malformed YAML: the text in quotes begun here runs on to line 3, where the YAML "
                                       "breaks (did not find expected key at line 3, column 6): expected its closing ' on this line"),
        # a text in quotes run over lines on purpose is no mistake: a later one is told where it is
        ('a: "x\n  y"\nb: c: d\n', "f.yaml:3:5: malformed YAML: mapping values are not allowed in this context: "
                                  "expected a text holding ': ' in quotes (\"...\")"),
        ("a: 1\na: 2\n", "f.yaml:2:1: duplicate key 'a'"),
        # before: "duplicate key True", Python's key, neither what was written nor why it is a duplicate
        ("1: a\ntrue: b\n", "f.yaml:2:1: key true is the same key as 1 on line 1 to pnp (it reads true as 1, false as 0 "
                             "and 1.0 as 1): keep one, or write both in quotes if they are text"),
        ("yes: a\ntrue: b\n", "f.yaml:2:1: duplicate key true (the same key as yes on line 1)"),
        ("null: a\n~: b\n", "f.yaml:2:1: duplicate key ~ (the same key as null on line 1)"),
        # before: the parser's words alone ("did not find expected key")
        ("a:\n  - b\n c: 1\n", f"f.yaml:3:2: malformed YAML: did not find expected key: {INDENT}"),
        ("a:\n  b: 1\n   c: 2\n", f"f.yaml:3:5: malformed YAML: mapping values are not allowed in this context: {INDENT}"),
        ("a:\n  - x\n  b: 1\n", f"f.yaml:3:3: malformed YAML: did not find expected '-' indicator: {INDENT}"),
        ("a: b: c\n", "f.yaml:1:5: malformed YAML: mapping values are not allowed in this context: expected a text holding ': ' in quotes (\"...\")"),
        ("a:\n\tb: 1\n", "f.yaml:2:1: malformed YAML: a tab character: YAML indents with spaces only"),
        ("\x00x", "f.yaml:1:1: malformed YAML: unacceptable character #x0000: control characters are not allowed (expected UTF-8 text)"),
        # before: at 1:9, a lone CR ending no line (the parser, and editors, end one there)
        ("a: 1\rb: \x00", "f.yaml:2:4: malformed YAML: unacceptable character #x0000: control characters are not allowed (expected UTF-8 text)"),
    ],
)
def test_malformed_yaml_is_one_located_line(text, expected):
    with pytest.raises(PnpError) as info:
        parse_located(text, "f.yaml")
    assert [str(e) for e in info.value.errors] == [expected]


@pytest.mark.parametrize("separator", ["\u2028", "\x85", "\u2029"])
@pytest.mark.parametrize("after, expected", [
    ("b: 1\nc: [1, 2\nd: 3\n", "f.yaml:3:4: malformed YAML: the '[' here is not closed (did not find expected ',' or ']' at line 4, column 2): "
                                 "expected a ']' at the end of what it holds"),
    ("b: 1\nb: 2\n", "f.yaml:3:1: duplicate key 'b'"),
    ("b: 1\n  c: 2\n", "f.yaml:3:4: malformed YAML: mapping values are not allowed in this context: " + INDENT),
    ('b: "M1 Z\nc: "M2 Z"\n', "f.yaml:2:4: malformed YAML: the text in quotes begun here runs on to line 3, where the YAML breaks "
                              "(did not find expected key at line 3, column 5): expected its closing \" on this line"),
])
def test_a_unicode_line_separator_in_a_text_puts_no_position_a_line_off(separator: str, after: str, expected: str):
    """YAML 1.1 (libyaml) ends a line at U+2028, U+0085 and U+2029 too; an editor does not: a
    title pasted with one had every later error, and every value's position, a line further down
    than the editor shows them."""
    text = f'title: "one{separator}two"\n' + after
    with pytest.raises(PnpError) as info:
        parse_located(text, "f.yaml")
    assert [str(e) for e in info.value.errors] == [expected]


def test_positions_past_a_unicode_line_separator_are_an_editors():
    doc = parse_located('a: "x\u2028y"\nb:\n  - 1\n  - "p\u2029q"\nc: 1\n', "f.yaml")
    assert [doc.where(at) for at in [("b",), ("b", 0), ("b", 1), ("c",)]] == [(2, 1), (3, 5), (4, 5), (5, 1)]


def test_unknown_key_names_the_allowed_ones():
    assert messages("cards:\n  - id: a\n    cost: 1\n    colour: red\n") == [
        "deck.yaml:4:5: unknown key 'colour' (expected one of: id, cost)"
    ]


def test_missing_key_and_wrong_type_are_all_reported():
    assert messages("cards:\n  - id: a\n  - id: b\n    cost: lots\n") == [
        "deck.yaml:2:5: missing required key 'cost'",
        "deck.yaml:4:11: cost: input should be a valid integer, unable to parse string as an integer, got 'lots'",
    ]


def test_constraint_error_points_at_the_value():
    assert messages("cards:\n  - {id: a, cost: -1}\n") == [
        "deck.yaml:2:19: cost: input should be greater than or equal to 0, got -1"
    ]


def test_lengths_in_any_unit():
    assert to_mm("63mm") == 63
    assert to_mm("2.5in") == pytest.approx(63.5)
    assert to_mm("1.2cm") == pytest.approx(12)
    assert to_mm(72) == 72
    with pytest.raises(ValueError, match="expected a length"):
        to_mm("big")


def test_manifest_sizes_presets_and_errors():
    text = (
        "title: T\ncomponents:\n"
        "  - {id: a, name: A, size: poker, items: x, front: a.svg.j2}\n"
        "  - {id: b, name: B, size: 2in x 3in, items: x, front: b.svg.j2}\n"
        "  - {id: c, name: C, size: huge, items: x, front: c.svg.j2}\n"
    )
    doc = parse_located(text, "game.yaml")
    _, errors = validate(doc, Manifest)
    assert len(errors) == 1
    assert str(errors[0]).startswith("game.yaml:5:28: size: unknown size 'huge': expected a preset (poker,")
    fixed = parse_located(text.replace("huge", "{width: 30, height: 1.5in}"), "game.yaml")
    manifest, errors = validate(fixed, Manifest)
    assert not errors
    assert (manifest.components[0].size.width, manifest.components[0].size.height) == (63, 88)
    assert manifest.components[1].size.width == pytest.approx(50.8)
    assert manifest.components[2].size.height == pytest.approx(38.1)


def test_a_size_word_with_an_x_is_an_unknown_preset_and_a_near_one_is_named():
    """Before: `size: hex` (and `box`) was split at its x into the sides 'he' and '' and told
    `expected a length ..., got 'he'`; a misspelt preset (`pokr`) named none."""
    def error(size: str) -> str:
        doc = parse_located(f"title: T\ncomponents:\n  - {{id: a, name: A, size: {size}, items: x, front: a.svg.j2}}\n", "game.yaml")
        (problem,) = validate(doc, Manifest)[1]
        return str(problem)
    for word in ("hex", "box"):
        assert error(word).startswith(f"game.yaml:3:28: size: unknown size '{word}': expected a preset (poker,"), error(word)
        assert "did you mean" not in error(word)
    assert error("pokr").endswith("or {width, height} (did you mean 'poker'?)")
    assert error("30mm x abc") == "game.yaml:3:22: height: expected a length such as 63mm, 2.5in or 12pt, got 'abc'"


def test_error_line_format():
    assert str(ContentError("x.yaml", 3, 7, "bad")) == "x.yaml:3:7: bad"
    assert str(ContentError("x.yaml", None, None, "bad")) == "x.yaml: bad"


def test_wrong_container_kinds_read_as_plain_words():
    assert messages("- a\n- b\n") == ["deck.yaml:1:1: expected a mapping of `key: value` lines, got a list"]
    assert messages("cards: 5\n") == ["deck.yaml:1:8: cards: expected a list of `- item` lines, got 5"]


# --- a union: one line naming the alternatives, or the errors inside the one that fits ---


class Limits(StrictModel):
    lo: int


class Pile(StrictModel):
    copies: int | Annotated[str, Named("an expression")] = 1
    count: int | dict[Literal["min", "max"], int] | None = None
    limits: Limits | list[int] | None = None


def test_a_value_no_alternative_takes_is_one_line_naming_them():
    assert messages("copies: [1]\n", Pile) == ["deck.yaml:1:9: copies: expected a whole number or an expression, got a list"]
    assert messages("count: x\n", Pile) == ["deck.yaml:1:8: count: expected a whole number or a mapping, got the text 'x'"]
    assert messages("limits: 3\n", Pile) == ["deck.yaml:1:9: limits: expected a mapping or a list, got 3"]


def test_a_value_shaped_like_one_alternative_gets_that_alternatives_errors():
    assert messages("count: {min: x}\n", Pile) == [
        "deck.yaml:1:14: min: input should be a valid integer, unable to parse string as an integer, got 'x'"]
    assert messages("limits: {lo: 1, hi: 2}\n", Pile) == ["deck.yaml:1:17: unknown key 'hi' (expected one of: lo)"]
    assert messages("limits: [1, x]\n", Pile) == [
        "deck.yaml:1:13: limits: input should be a valid integer, unable to parse string as an integer, got 'x'"]


class Cat(StrictModel):
    name: str
    lives: int


class Dog(StrictModel):
    name: str
    bark: str


class Home(StrictModel):
    pet: Cat | Dog  # a plain union of models: no tag says which is meant


def test_a_mapping_two_models_could_take_gets_the_errors_of_the_nearer_one():
    """Before: every alternative's complaints, one under the other, with the first model's
    keys listed for the second's unknown key ("missing required key 'bark'" beside a cat)."""
    assert messages("pet: {name: Tom, lives: x}\n", Home) == [
        "deck.yaml:1:25: lives: input should be a valid integer, unable to parse string as an integer, got 'x'"]
    assert messages("pet: {name: Rex, bark: woof, colour: x}\n", Home) == [
        "deck.yaml:1:30: unknown key 'colour' (expected one of: name, bark)"]
    # as near to both: the first declared
    assert messages("pet: {name: Tom}\n", Home) == ["deck.yaml:1:1: missing required key 'lives'"]
    # a misspelt required key is one line (before: "missing required key 'lives'" beside
    # "unknown key 'lifes' (expected one of: name, lives)"), and makes the cat the nearer
    assert messages("pet: {name: Tom, lifes: 9}\n", Home) == ["deck.yaml:1:18: unknown key 'lifes': did you mean 'lives' (required)?"]


class Token(StrictModel):
    name: str
    colour: str = "red"


def test_a_misspelt_required_key_is_one_line_at_the_misspelling():
    """Before: "missing required key 'cards'" at the mapping and "unknown key 'crads'" at the key."""
    assert messages("crads: []\n") == ["deck.yaml:1:1: unknown key 'crads': did you mean 'cards' (required)?"]
    assert messages("cards:\n  - {id: a, cost: 1}\n  - {idd: b, cost: 2}\n") == [
        "deck.yaml:3:6: unknown key 'idd': did you mean 'id' (required)?"]
    # a key near one already written, or far from every key: the keys allowed
    assert messages("cards:\n  - {id: a, cost: 1, cots: 1}\n") == ["deck.yaml:2:22: unknown key 'cots' (expected one of: id, cost)"]
    # near an optional key not written: that key, without "(required)"
    assert messages("name: x\ncolor: red\n", Token) == ["deck.yaml:2:1: unknown key 'color': did you mean 'colour'?"]
    assert messages("cards:\n  - {cost: 1, colour: red}\n") == [
        "deck.yaml:2:5: missing required key 'id'", "deck.yaml:2:15: unknown key 'colour' (expected one of: id, cost)"]
    # one misspelling per missing key: the first one written is told
    assert messages("cards:\n  - {cost: 1, idd: a, iid: b}\n") == [
        "deck.yaml:2:15: unknown key 'idd': did you mean 'id' (required)?", "deck.yaml:2:23: unknown key 'iid' (expected one of: id, cost)"]


def test_a_misspelt_required_key_of_a_game_file_is_one_line(demo: Project):
    game = demo.content_dir / "demo/game.yaml"
    game.write_text(game.read_text().replace("    name: Cards", "    nmae: Cards"))
    result = CliRunner().invoke(app, ["validate", "--project", str(demo.root)])
    assert result.exit_code == 2
    assert result.output.strip().endswith("game.yaml:6:5: unknown key 'nmae': did you mean 'name' (required)?")
    assert len(result.output.strip().splitlines()) == 1


def test_a_components_copies_of_the_wrong_kind_is_one_line():
    text = "title: T\ncomponents:\n  - id: c\n    name: C\n    size: poker\n    items: cards.cards\n    front: f.svg.j2\n    copies: [1]\n"
    assert messages(text, Manifest) == ["deck.yaml:8:13: copies: expected a whole number or an expression, got a list"]


def test_manifest_size_with_one_unit_applies_it_to_both_sides():
    # "2.5 x 3.5 in" is how a poker card's size is written: it once gave 2.5 mm x 88.9 mm, silently
    text = "title: T\ncomponents:\n  - {id: a, name: A, size: SIZE, items: x, front: a.svg.j2}\n"
    for size, expected in [("2.5 x 3.5 in", (63.5, 88.9)), ("6 x 9cm", (60, 90)), ("2.5in x 3.5", (63.5, 88.9)),
                           ("63 x 88", (63, 88)), ("63mm x 1in", (63, 25.4))]:
        manifest, errors = validate(parse_located(text.replace("SIZE", size), "game.yaml"), Manifest)
        assert not errors, size
        got = manifest.components[0].size
        assert (got.width, got.height) == (pytest.approx(expected[0]), pytest.approx(expected[1])), size


@pytest.mark.parametrize("size, got", [("2.5in x 3.5 IN", "'3.5 IN'"), ("x in", "''")])
def test_a_size_side_that_is_no_bare_number_is_told_as_written(size: str, got: str):
    """Before: the other side's unit was added to it too ('3.5 INin', 'in' for an empty side)."""
    text = f"title: T\ncomponents:\n  - {{id: a, name: A, size: '{size}', items: x, front: a.svg.j2}}\n"
    _, errors = validate(parse_located(text, "game.yaml"), Manifest)
    assert len(errors) == 1 and f"got {got}" in str(errors[0]), errors


def test_thousands_of_stray_keys_are_told_in_linear_time():
    """Before: each unknown key's sentence copied its whole mapping's keys for every allowed
    key, and looked through every earlier error: 8,000 stray keys took 6 s, 20,000 some 40."""
    extra = ", ".join(f"k{i}: 1" for i in range(20_000))
    text = f"title: T\noptions:\n  speed: {{type: int, defualt: 1, {extra}}}\ncomponents: []\n"
    started = time.perf_counter()
    _, errors = validate(parse_located(text, "game.yaml"), Manifest)
    assert time.perf_counter() - started < 5.0  # seconds: a runaway, not a speed (as tests/test_hostile.py)
    assert len(errors) == 20_001 and "unknown key 'defualt': did you mean 'default'?" in str(errors[0]), errors[0]


@pytest.mark.parametrize("text, error", [
    ("terrains:\n  - id: forest\n    colour: #2d6a4f\n", 'x.yaml:3:13: #2d6a4f starts a YAML comment here, so the value is empty: '
                                                        'write the colour in quotes, "#2d6a4f"'),
    ("ink:\n  - #abc\n", 'x.yaml:2:5: #abc starts a YAML comment here'),
    ("ink:    #FFFFFF00\n", 'x.yaml:1:9: #FFFFFF00 starts a YAML comment here'),
    # a line end only YAML counts (U+2028) before it: was an internal error (its place had no index to count from)
    ("title: 'a\u2028b'\nink: #abc\n", 'x.yaml:2:6: #abc starts a YAML comment here'),
])
def test_a_colour_left_unquoted_is_an_error_at_it(text: str, error: str):
    """Before: `colour: #2d6a4f` read as an empty value, and the record was told "missing field
    'colour'" on the line where the colour is plainly written (undeclared: 'None' at a template line)."""
    with pytest.raises(PnpError) as info:
        parse_located(text, "x.yaml")
    (problem,) = info.value.errors
    assert str(problem).startswith(error), problem


@pytest.mark.parametrize("text, data", [
    ("note: # to do\n", {"note": None}),          # a comment that is not a colour: an empty value, as YAML says
    ("ink: '#abc'\n", {"ink": "#abc"}),
    ("text: |\n  fill: #abc\n", {"text": "fill: #abc\n"}),
    ("ink: #abcd\n", {"ink": None}),
    ("ink: #fff # white\n", {"ink": None}),
])
def test_other_empty_values_and_quoted_colours_read_as_before(text: str, data: dict):
    assert parse_located(text, "x.yaml").data == data
