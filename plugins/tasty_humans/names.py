"""What a table may write on a sheet for a component: its id, or the name printed on it
(a leader tile's title, a monster board's name, an adventurer card's name), in any case
and spacing. The printed name comes from the same YAML the component is printed from,
so the two cannot disagree."""

from __future__ import annotations

from typing import Iterable

from pnp.api import did_you_mean


def as_written(text: str, cid: str) -> str:
    """A component as the table wrote it, with the id it names when that differs
    ("'Boot Range' (range-boot)"), so a message points at the words on the sheet."""
    return repr(cid) if text == cid else f"{text!r} ({cid})"


def _key(text: str) -> str:
    # "Boot Range", "boot range", "BOOT-RANGE", "BootRange" are one name: tables copy
    # what they read, in whatever case and spacing their hand writes.
    return "".join(ch for ch in text if not ch.isspace() and ch not in "-_").casefold()


class Names:
    """The ids of one kind of component and the names printed on them."""

    def __init__(self, kind: str, printed_on: str, source: str, items: Iterable[tuple[str, str]]):
        self.kind, self.printed_on, self.source = kind, printed_on, source
        self.printed: dict[str, str] = {}  # id -> printed name
        self._ids: dict[str, str] = {}  # key -> id
        named: dict[str, set[str]] = {}
        for cid, printed in items:
            self.printed[cid] = printed
            self._ids[_key(cid)] = cid
            named.setdefault(_key(printed), set()).add(cid)
        for key, ids in named.items():
            # An id always means itself; a printed name shared by two components names
            # neither (the id then tells them apart).
            if len(ids) == 1:
                self._ids.setdefault(key, next(iter(ids)))

    def id_of(self, text: str) -> str | None:
        """The id `text` names (an id or a printed name), or None."""
        return self._ids.get(_key(text))

    def resolve(self, text: str | None) -> str | None:
        """The id `text` names, else `text` as written (so a check can report it)."""
        if text is None:
            return None
        return self.id_of(text) or text

    def unknown(self, text: str) -> str:
        """The message for a name that names no component: what is expected, and the
        nearest printed name or id when one is close."""
        if len(self.printed) <= 6:  # few enough to list (the monster boards)
            example = ": " + ", ".join(f"{name} ({cid})" for cid, name in self.printed.items())
        else:
            first = next(iter(self.printed), None)
            example = f", such as {self.printed[first]!r} or {first!r}" if first else ""
        # What the table may write: the printed names and the ids.
        hint = did_you_mean(text, [*self.printed.values(), *self.printed])
        return f"unknown {self.kind} {text!r}: expected the {self.printed_on}, or its id from {self.source}{example}{hint}"
