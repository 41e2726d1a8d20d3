"""The quicker ways rendering does what it did: each gives what the plain way gives (compiled
templates read from the bytecode cache, a template's globals); and what counts as an event
handler in a face and how a number prints."""

from __future__ import annotations

import marshal
import pickle

import jinja2
import pytest
from jinja2.bccache import bc_magic

from pnp import sandbox, units
from pnp.render import hrefs
from pnp.bytecode import WholeFileCache as _WholeFileCache


@pytest.mark.parametrize("text, found", [
    ('<g onclick="x">', True),
    ('<g\u2003onload = "x">', True),  # Unicode white space is \s too
    ('<g xlink:onbegin="x">', True),
    ("on=", False),  # at the very start: no character before it
    ('<text font-family="x">one on to, done</text>', False),
    ("xon:onclick=", True),  # a handler right after an "on" that is none
    ('<g fill="none" on', False),
])
def test_an_event_handler_is_found_where_a_face_writes_one(text: str, found: bool):
    assert (hrefs.EVENT.search(text.lower()) is not None) is found
    assert hrefs._may_refer(text.lower()) is found  # the quick look says what EVENT does


def test_the_quick_look_for_what_could_refer_out_finds_what_markers_and_event_find():
    """`_may_refer`, which every face a build renders or reuses passes (in fewer looks than one
    a marker and EVENT tried at every white space), says what the plain look says: on each
    marker and handler in a face, and on strings made of their pieces."""
    import random

    def plain(low: str) -> bool:
        return any(m in low for m in hrefs.MARKERS) or hrefs.EVENT.search(low) is not None

    face = '<svg xmlns="http://www.w3.org/2000/svg"><text font-family="x" fill="none">one on to {}</text></svg>'
    texts = [face.format(m) for m in hrefs.MARKERS] + [face.format(""), face.format("\tonload =")]
    pieces = ["on", "o", "n", "=", " ", "\n", ":", "x", "(", "@", "set", "<", "!", "&", "#", "\\", "url", "src", "ject",
              "ob", "anim", "ate", "discard", "href", "\u2003", "image", "-"]
    rng = random.Random(24)
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randrange(1, 12))) for _ in range(20000)]
    for low in texts:
        assert hrefs._may_refer(low) is plain(low), low
    assert any(plain(low) for low in texts) and not all(plain(low) for low in texts)


def _cache_file(cache: _WholeFileCache, env: jinja2.Environment, source: str) -> str:
    bucket = cache.get_bucket(env, "t.j2", None, source)
    return cache._get_cache_filename(bucket)


def test_a_compiled_template_is_read_back_from_the_bytecode_cache(tmp_path):
    cache = _WholeFileCache(str(tmp_path), "__t_%s.cache")
    source = "{% for n in range(3) %}{{ n }},{% endfor %}{{ word | upper }}"
    env = jinja2.Environment(loader=jinja2.DictLoader({"t.j2": source}), bytecode_cache=cache)
    assert env.get_template("t.j2").render(word="ok") == "0,1,2,OK"
    bucket = cache.get_bucket(env, "t.j2", None, source)
    assert bucket.code is not None  # written by the first load, read now
    fresh = jinja2.Environment(loader=jinja2.DictLoader({"t.j2": source}), bytecode_cache=cache)
    assert fresh.template_class.from_code(fresh, bucket.code, fresh.make_globals(None)).render(word="ok") == "0,1,2,OK"
    assert cache.get_bucket(env, "t.j2", None, source + " ").code is None  # another source: compiled anew


@pytest.mark.parametrize("spoil", ["magic", "checksum", "code", "empty"])
def test_a_spoilt_bytecode_cache_file_is_compiled_anew(tmp_path, spoil: str):
    cache = _WholeFileCache(str(tmp_path), "__t_%s.cache")
    source = "{{ 1 + 2 }}"
    env = jinja2.Environment(loader=jinja2.DictLoader({"t.j2": source}), bytecode_cache=cache)
    assert env.get_template("t.j2").render() == "3"
    path = _cache_file(cache, env, source)
    checksum = cache.get_bucket(env, "t.j2", None, source).checksum
    with open(path, "rb") as f:
        data = f.read()
    spoilt = {"magic": b"not jinja" + data[len(bc_magic):],
              "checksum": bc_magic + pickle.dumps("another", 2) + marshal.dumps(compile("1", "x", "eval")),
              "code": bc_magic + pickle.dumps(checksum, 2) + b"\xff\xfe",
              "empty": b""}[spoil]
    with open(path, "wb") as f:
        f.write(spoilt)
    assert cache.get_bucket(env, "t.j2", None, source).code is None
    fresh = jinja2.Environment(loader=jinja2.DictLoader({"t.j2": source}), bytecode_cache=cache)
    assert fresh.get_template("t.j2").render() == "3"


def test_a_templates_globals_are_the_environments_and_its_own_stay_its_own():
    env = sandbox.environment(loader=jinja2.DictLoader({"t.j2": "{{ shade }}/{{ size }}"}))
    env.globals.update(shade="red", size=3)
    template = env.get_template("t.j2")
    assert template.render() == "red/3"
    template.globals["shade"] = "blue"  # what Jinja does with globals given to get_template later
    assert template.render() == "blue/3" and env.globals["shade"] == "red"
    assert env.get_template("t.j2", globals={"size": 4}).render() == "blue/4" and env.globals["size"] == 3
    own = env.from_string("{{ shade }}/{{ size }}", globals={"shade": "green"})
    assert own.render() == "green/3" and env.globals["shade"] == "red"


@pytest.mark.parametrize("value, printed", [
    (62.9999, "63"), (1.0005, "1"), (0.0005, "0.001"), (-0.0005, "-0.001"), (1e-9, "0"), (-1e-9, "0"),
    (2.5, "2.5"), (-12.3456, "-12.346"), (2 ** 53 + 1, "9007199254740992"), (10 ** 20, "100000000000000000000"),
])
def test_a_number_prints_with_at_most_three_decimals_and_never_as_minus_zero(value, printed: str):
    assert units.num(value) == printed


def test_numbers_equal_in_value_print_alike_and_text_prints_as_its_number():
    assert units.num(-0.0) == units.num(0.0) == units.num(0) == "0"
    assert units.num(3) == units.num(3.0) == "3" and units.num(True) == "1"
    assert units.num("2.50") == "2.5" and units.num(float("nan")) == "nan" and units.num(float("-inf")) == "-inf"


def test_the_templates_bytecode_cache_is_kept_apart_for_another_jinja(monkeypatch):
    """Code compiled by one Jinja2 is never loaded by another: 3.1.4 refuses a template
    3.1.6 compiles, and compiled code calls its own Jinja's runtime."""
    from pnp.render import faces

    here = faces._bytecode_cache()
    monkeypatch.setattr(jinja2, "__version__", jinja2.__version__ + ".other")
    other = faces._bytecode_cache()
    assert here is not None and other is not None
    assert here.pattern != other.pattern


@pytest.mark.parametrize("text", [":on" * 200_000, "x" + "on" * 200_000, " on" * 200_000])
def test_the_quick_look_for_an_event_is_linear_time(text: str):
    """A face is looked at for event attributes on every build: a name run on from each ":on"
    to its end took 6 s for ":on" * 20,000 (quadratic), now a fraction of one."""
    import time

    started = time.perf_counter()
    assert hrefs._may_refer(text) is False  # no "=": no event attribute
    assert time.perf_counter() - started < 5.0  # seconds: a runaway, not a speed (as tests/test_hostile.py)
