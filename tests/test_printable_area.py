"""Nothing a user needs is printed where a desktop printer cannot print: on every sheet of
every shipped game's print PDF, on Letter and A4, in every built-in layout, each label and
instruction line lies `inset` mm or more from the paper edge and every crop mark, landing
tick and fold line has PRINTED_MARK mm (or all of itself, when shorter) inside that inset."""

from __future__ import annotations

import pytest

from pnp.config import papers, sheet_layout, table
from pnp.formats import labels
from pnp.formats.impose import Label, Paper
from pnp.formats.print_pdf import PRINTED_MARK, plan

GAMES = ("tasty-humans", "cave", "dietrick-taking", "human-harvest")


def _inside(line, sheet: Paper, inset: float) -> float:
    """How long a stretch of `line` (vertical or horizontal) lies inside the printable area."""
    x1, x2 = sorted((line.x1, line.x2))
    y1, y2 = sorted((line.y1, line.y2))
    if x1 == x2:
        if not inset <= x1 <= sheet.width - inset:
            return 0.0
        return max(0.0, min(y2, sheet.height - inset) - max(y1, inset))
    if not inset <= y1 <= sheet.height - inset:
        return 0.0
    return max(0.0, min(x2, sheet.width - inset) - max(x1, inset))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_labels_and_marks_print_inside_the_printable_inset(shipped_builds, game, paper):
    report = shipped_builds[game]
    sheet = Paper(paper, *papers({})[paper])
    for name in table():
        style = sheet_layout(name)
        assert style.inset == 4.2
        made = plan(report.title, report.parts, sheet, style, layout_name=name)
        inset = style.inset
        for number, page in enumerate(made.layout.pages, 1):
            for text in (m for m in page.marks if isinstance(m, Label)):
                left, top, right, bottom = labels.box(text)
                assert inset <= left and right <= sheet.width - inset and inset <= top and bottom <= sheet.height - inset, \
                    (name, number, text.text, (left, top, right, bottom))
            for line in page.lines:
                length = abs(line.x2 - line.x1) + abs(line.y2 - line.y1)
                assert _inside(line, sheet, inset) >= min(PRINTED_MARK, length) - 1e-6, (name, number, line)
