"""Find the content file and line a printed text came from, for fitting and font errors.

Templates receive plain strings, so a text is traced back by value: the content string it
equals (ignoring case, since templates often upper-case), else one that contains it (a
wrapped line), else one it contains (a label built around a name). Text that comes from
no content file is reported at the template line that placed it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from ..errors import ContentError
from ..load.fonts import LackingGlyphs, StandIns, chars_named, weight_name
from .font_styles import runs
from .hrefs import Sources, written_at

if TYPE_CHECKING:
    from ..load.content import GameContent
    from .textfit import Overflow


def _leaves(data: Any, at: tuple = ()) -> Iterator[tuple[tuple, str]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, at + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _leaves(value, at + (i,))
    elif isinstance(data, str):
        yield at, data


_FIELD = re.compile(r"\{[a-z_]+(?::[a-z|]*)?\}")  # {points}, or {points:point} (a unit after the number)


class Locator:
    """Content strings of one game with their positions."""

    def __init__(self, game: "GameContent"):
        self.game = game

    @cached_property
    def written(self) -> list[tuple[tuple, str, ContentError]]:
        """Each content string: its path in its file, the string, and where it is written."""
        docs = [self.game.manifest_doc, *self.game.docs.values()]
        return [(at, text, doc.error(at, "")) for doc in docs for at, text in _leaves(doc.data)]

    @cached_property
    def strings(self) -> list[tuple[str, ContentError]]:
        return [(" ".join(text.split()).casefold(), where) for _, text, where in self.written]

    @cached_property
    def patterns(self) -> list[tuple[re.Pattern, ContentError]]:
        """Content strings with `{name}` fields (filled in by the game's code) as patterns."""
        return [(re.compile(r".+?".join(re.escape(part) for part in _FIELD.split(value))), where)
                for value, where in self.strings if _FIELD.search(value)]

    @cached_property
    def fields(self) -> dict[str, tuple[Any, ContentError]]:
        """Each content string (stripped) with the key it is the value of and where the first is written."""
        found: dict[str, tuple[Any, ContentError]] = {}
        for at, text, where in self.written:
            found.setdefault(text.strip(), (next((k for k in reversed(at) if isinstance(k, str)), None), where))
        return found

    def find(self, text: str) -> ContentError | None:
        """Where `text` (or the content string it was made from) is written."""
        found = self.found(text)
        return found[1] if found else None

    def found(self, text: str) -> tuple[str, ContentError] | None:
        """The content string (casefolded) `text` was made from, and where it is written."""
        wanted = " ".join(str(text).split()).casefold()
        if not wanted:
            return None
        for test in (lambda s: s == wanted, lambda s: wanted in s):
            for value, where in self.strings:
                if test(value):
                    return value, where
        # the longest that matches: "int" is in "points", "{n} cards" in many texts
        matched = [(len(pattern.pattern), pattern.pattern, where) for pattern, where in self.patterns if pattern.search(wanted)]
        matched = matched or [(len(value), value, where) for value, where in self.strings if len(value) > 2 and value in wanted]
        if not matched:
            return None
        _, value, where = max(matched, key=lambda m: m[0])
        return value, where

    def _at(self, text: str, message: str, template: Path | None, line: int | None) -> ContentError:
        where = self.find(text)
        if where is None:
            return ContentError(template or self.game.templates_dir, line, None, message)
        shown = f" (placed by {project_relative(template, self.game)}{f':{line}' if line else ''})" if template else ""
        return ContentError(where.path, where.line, where.column, message + shown)

    def text_error(self, text: str, message: str, template: Path | None, line: int | None) -> ContentError:
        """`message` at the content string `text` was made from, else at the template (line)."""
        return self._at(text, message, template, line)

    def overflow(self, found: "Overflow", what: str) -> ContentError:
        return self._at(found.text, f"{what}: {found.message}", found.template, found.line)

    def missing_glyphs(self, root: ET.Element, what: str, template: Path, sources: Sources) -> list[ContentError]:
        """One error per run of text (a <text> or <tspan>) holding characters the face its
        family, weight and style select lacks: typst and resvg would draw those (or the whole
        line) from another font than the one chosen and measured. At the content string the
        characters came from, else at the template line that writes them."""
        fonts = self.game.fonts
        if set("".join(root.itertext())) <= fonts.everywhere:  # most faces: every face of the game has every character
            return []
        errors, seen = [], set()
        for element, run, face in runs(root, fonts):
            lacking = face.lacks(run) if face is not None else []
            if not lacking or face is None:
                continue
            try:
                fonts.drawn(face, run)
                continue  # drawn from stand-ins the PDF and the PNG agree on, as the helpers measure it
            except StandIns as exc:
                stand_ins: StandIns | None = exc
            except LackingGlyphs:  # a character no font of the game has
                stand_ins = None
            text = "".join(element.itertext())
            weight = weight_name(face.bold, face.italic)
            found = fonts.suggest(lacking, weight, run)
            family = "" if found is None else f'font-family="{found[0]}"' + "".join(
                f' {name}="normal"' for name, on in (("font-weight", face.bold), ("font-style", face.italic)) if on and found[1] != weight)
            hint = (f"{stand_ins}, or draw the part in a <text> of its own" if stand_ins is not None
                    else "use other characters or add a font that has them (game.yaml `fonts:`)" if found is None
                    else f"draw it in {found[0]}: {family} on that <text>" if found[2]
                    else f"no font of the game has all of it: put the part {found[0]} has in a <text> of its own with {family} "
                         "(a <tspan> of another family inside one <text> is not drawn reliably)")
            message = (f"{what}: {face.name} cannot draw {chars_named(lacking)} in {' '.join(text.split())[:60]!r} "
                       f"({'the PDF and the PNG would draw them from different fonts' if stand_ins else 'one text, one font: no other font stands in'}); {hint}")
            # the run as written, else the longest word of it holding a lacking character (a run
            # made around a content string: `{{ game.title }} 山札`), else the character
            words = sorted((w for w in run.split() if any(ch in w for ch in lacking)), key=len, reverse=True)
            for written in (run, *words, lacking[0]):
                path, line = written_at(sources, written, template)
                if line is not None:
                    break
            error = self.lacking_at(text, lacking, message, path, line)
            if str(error) not in seen:
                seen.add(str(error))
                errors.append(error)
        return errors

    def lacking_at(self, text: str, lacking: list[str], message: str, template: Path, line: int | None) -> ContentError:
        """`message` about characters of `text` a face lacks: at the content string that holds
        them, else at the template line (that writes them, or measures the text). A text that
        merely contains a content string (the game's title) beside characters the template
        wrote is the template's."""
        found = self.found(text)
        if found is not None and all(ch.casefold() in found[0] for ch in lacking):
            shown = f" (placed by {project_relative(template, self.game)}{f':{line}' if line else ''})"
            return ContentError(found[1].path, found[1].line, found[1].column, message + shown)
        return ContentError(template, line, None, message)


def project_relative(path: Path, game: "GameContent") -> str:
    try:
        return str(path.relative_to(game.project.root))
    except ValueError:
        return str(path)
