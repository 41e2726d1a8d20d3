"""User text made safe to print: shown as text, never obeyed by the terminal or by Rich.

A name in a scoring sheet or a title in a content file can hold anything: Rich markup
(`[/bold]`, `[link=file:///etc/passwd]`), terminal escape sequences (ESC, CSI), bidi
overrides that reorder what is shown, line breaks that forge a line of output.
"""

from __future__ import annotations

import re

# C0 and C1 controls, DEL, line/paragraph separators and the bidi embedding, override
# and isolate marks (the "Trojan Source" characters).
_WIDE = "\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
_UNSAFE = re.compile(f"[\x00-\x1f{_WIDE}]")
_UNSAFE_IN_JSON = re.compile(f"[{_WIDE}]")  # json.dumps escapes C0 itself


_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# half of an emoji (a lone surrogate): what JSON.stringify makes of one cut in two; no UTF-8
# can hold it, so it is refused where text comes in and escaped where an old record is printed
SURROGATE = re.compile("[\ud800-\udfff]")


def surrogates_escaped(text: str) -> str:
    """`text` writable as UTF-8: a lone surrogate as JSON writes it, `\\ud83d`."""
    return SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


def _visible(match: re.Match[str]) -> str:
    if match.group() in _NAMED:
        return _NAMED[match.group()]
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def plain(text: object) -> str:
    """`text` with every control character written out (`\\x1b`, `\\n`), as repr() does."""
    return _UNSAFE.sub(_visible, str(text))


def markup(text: object) -> str:
    """`text` for a Rich markup string: controls written out, square brackets escaped."""
    from rich.markup import escape  # here: a command that prints no markup never imports Rich

    return escape(plain(text))


def clip(line: str, limit: int = 1000) -> str:
    """A line shortened in the middle when longer than `limit`, so that both ends stay."""
    if len(line) <= limit:
        return line
    half = limit // 2
    return f"{line[:half]} …({len(line) - 2 * half:,} characters)… {line[-half:]}"


def json_text(data: object) -> str:
    """`data` as indented JSON with every control character escaped (json escapes only
    C0 itself; C1 and bidi controls would reach the terminal as they are)."""
    import json

    text = json.dumps(data, indent=2, ensure_ascii=False)
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
