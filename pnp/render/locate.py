"""Find the content file and line a printed text came from, for fitting and font errors.

Templates receive plain strings, so a text is traced back by value: the content string it
equals (ignoring case, since templates often upper-case), else one that contains it (a
wrapped line), else one it contains (a label built around a name). Text that comes from
no content file is reported at the template line that placed it.
"""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from ..errors import ContentError
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
    def strings(self) -> list[tuple[str, ContentError]]:
        docs = [self.game.manifest_doc, *self.game.docs.values()]
        return [(" ".join(text.split()).casefold(), doc.error(at, "")) for doc in docs for at, text in _leaves(doc.data)]

    @cached_property
    def patterns(self) -> list[tuple[re.Pattern, ContentError]]:
        """Content strings with `{name}` fields (filled in by the game's code) as patterns."""
        return [(re.compile(r".+?".join(re.escape(part) for part in _FIELD.split(value))), where)
                for value, where in self.strings if _FIELD.search(value)]

    def find(self, text: str) -> ContentError | None:
        """Where `text` (or the content string it was made from) is written."""
        wanted = " ".join(str(text).split()).casefold()
        if not wanted:
            return None
        for test in (lambda s: s == wanted, lambda s: wanted in s):
            for value, where in self.strings:
                if test(value):
                    return where
        # the longest that matches: "int" is in "points", "{n} cards" in many texts
        matched = [(len(pattern.pattern), where) for pattern, where in self.patterns if pattern.search(wanted)]
        matched = matched or [(len(value), where) for value, where in self.strings if len(value) > 2 and value in wanted]
        return max(matched, key=lambda found: found[0])[1] if matched else None

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

    def missing_glyphs(self, texts: list[str], what: str, template: Path, sources: Sources) -> list[ContentError]:
        """One error per text holding characters none of the game's fonts can draw: at the
        content string it came from, else at the template line that writes it."""
        fonts = self.game.fonts
        errors, seen = [], set()
        for text in texts:
            missing = fonts.missing(text)
            if not missing:
                continue
            chars = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing)
            written, line = (template, None) if self.find(text) is not None else written_at(sources, text, template)
            error = self._at(text, f"{what}: the game's fonts ({fonts.family}) cannot draw {chars} in {text.strip()[:60]!r}; "
                             "use other characters or add a font that has them (game.yaml `fonts:`)", written, line)
            if str(error) not in seen:
                seen.add(str(error))
                errors.append(error)
        return errors


def project_relative(path: Path, game: "GameContent") -> str:
    try:
        return str(path.relative_to(game.project.root))
    except ValueError:
        return str(path)
