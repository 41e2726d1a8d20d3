"""The packer (pnp/formats/packing.py) and the print PDF's sheet counts: packing is never
worse than every component on its own sheets, for every shipped game, paper and layout."""

from __future__ import annotations

import pytest

from pnp.formats.impose import Label, Paper
from pnp.formats.packing import Group, pack
from pnp.formats.print_pdf import plan
from pnp.config import papers, sheet_layout

GAMES = ("tasty-humans", "cave", "dietrick-taking", "human-harvest")
LAYOUTS = ("standard", "tight", "fold", "scissors")


def test_a_group_that_fits_one_sheet_stays_on_one_sheet():
    sheets = pack([Group("a", 1, 100, 60), Group("b", 16, 25, 25)], 100, 100, 0)
    # the free 100 x 40 mm below A holds 4 of B's 16: B goes whole onto a sheet of its own
    assert [[(b.key, b.count) for b in blocks] for blocks in sheets] == [[("a", 1)], [("b", 16)]]


def test_a_group_a_started_sheet_holds_in_one_block_is_not_cut_in_two():
    """The free end of A's shelf holds one of B's three: B goes whole onto a new shelf below
    as one block (print review: 3 damage tiles were split 1 + 2 on a half-empty sheet)."""
    (blocks,) = pack([Group("a", 1, 60, 40), Group("b", 3, 25, 25)], 100, 100, 0)
    assert [(b.key, b.count, b.x, b.y) for b in blocks] == [("a", 1, 0, 0), ("b", 3, 0, 40)]


def test_leftovers_fill_started_sheets_before_a_new_one():
    sheets = pack([Group("a", 1, 100, 60), Group("b", 16, 25, 25), Group("c", 4, 25, 25), Group("d", 2, 40, 10)], 100, 100, 0)
    assert len(sheets) == 2
    assert {b.key for b in sheets[0]} == {"a", "c", "d"}
    # spread over the free space of two started sheets when neither holds the whole group
    spread = pack([Group("a", 1, 100, 75), Group("b", 1, 100, 75), Group("c", 8, 25, 25)], 100, 100, 0)
    assert len(spread) == 2 and sum(b.count for blocks in spread for b in blocks if b.key == "c") == 8


def test_pieces_of_a_group_keep_their_own_gap_and_groups_the_pack_gap():
    (blocks,) = pack([Group("a", 3, 20, 20, gap=1), Group("b", 2, 10, 10, gap=0)], 100, 100, 6)
    a, b = sorted(blocks, key=lambda blk: blk.key)
    assert [(s.x, s.y) for s in a.spots] == [(0, 0), (21, 0), (42, 0)]
    assert b.x == pytest.approx(a.x + a.width + 6)
    with pytest.raises(ValueError):
        pack([Group("big", 1, 120, 120, turnable=False)], 100, 100, 0)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_packed_sheets_never_outnumber_unpacked_ones(shipped_builds, game, paper):
    report = shipped_builds[game]
    sheet = Paper(paper, *papers({})[paper])
    for layout in LAYOUTS:
        for cut in (False, True):
            packed = plan(report.title, report.parts, sheet, sheet_layout(layout), registration=cut)
            alone = plan(report.title, report.parts, sheet, sheet_layout(layout), registration=cut, pack=False)
            assert packed.sheets <= alone.sheets == packed.sheets_unpacked, (layout, cut)
            cover = " ".join(m.text for m in packed.layout.pages[0].marks if isinstance(m, Label))
            assert f"{packed.sheets} sheets in all ({alone.sheets} if every component had its own sheets" in cover
            printed = sum(side != "back" for s in packed.sections if s.name != "Duplex calibration" for side in s.sides)
            assert printed == packed.sheets


def test_human_harvest_takes_eight_letter_sheets_with_all_humans_on_one(shipped_builds):
    report = shipped_builds["human-harvest"]
    made = plan(report.title, report.parts, Paper("letter", *papers({})["letter"]), sheet_layout("standard"))
    assert made.sheets == 8  # 6, and 2 for the three scoring sheets (2-4 players), two to a sheet
    humans = next(c.spec.name for c in report.parts if c.spec.id == "humans")
    assert made.sheets_per_component[humans] == 1


def test_the_cave_meter_markers_stay_together(shipped_builds):
    report = shipped_builds["cave"]
    made = plan(report.title, report.parts, Paper("letter", *papers({})["letter"]), sheet_layout("standard"))
    markers = next(c.spec.name for c in report.parts if c.spec.id == "meter-markers")
    assert made.sheets_per_component[markers] == 1


def test_the_readme_table_of_letter_sheets_is_what_builds_print(shipped_builds):
    """docs/printing.md "What a build writes": the sheets each game takes on Letter, packed and
    not, with the tight and the standard layout, as the build's summary line says."""
    from conftest import docs_text

    text = docs_text("docs/printing.md")
    rows = {line.split("|")[1].strip(" `"): [int(n) for n in line.split("|")[2:6]]
            for line in text.splitlines() if line.startswith("| `") and line.count("|") == 6 and line.split("|")[1].strip(" `") in GAMES}
    assert set(rows) == set(GAMES)
    letter = Paper("letter", *papers({})["letter"])
    for game, expected in rows.items():
        report = shipped_builds[game]
        tight, standard = (plan(report.title, report.parts, letter, sheet_layout(name)) for name in ("tight", "standard"))
        assert [tight.sheets, tight.sheets_unpacked, standard.sheets, standard.sheets_unpacked] == expected, game
