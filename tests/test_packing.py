"""The packer (pnp/formats/packing.py) and the print PDF's sheet counts: packing is never
worse than every component on its own sheets, for every shipped game, paper and layout."""

from __future__ import annotations

import pytest

from pnp.formats.impose import Label, Paper
from pnp.formats.packing import Group, fill, pack
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


def test_a_padded_group_abuts_its_pieces_and_keeps_its_bleed_around_the_block():
    """Shared cuts (`tight`): trim-size pieces abut, their bleed (`pad`) only around the block;
    a filler in the hole of its short last row keeps the pack gap from the bleed of the pieces
    above it and beside it."""
    (blocks,) = pack([Group("a", 5, 30, 30, pad=3)], 100, 100, 6)
    (block,) = blocks
    assert (block.cols, block.width, block.height) == (3, 96, 66)
    assert [(s.x, s.y) for s in block.spots] == [(3, 3), (33, 3), (63, 3), (3, 33), (33, 33)]  # abutting, 3 mm in
    ((host, king),), out = fill([blocks], [Group("k", 1, 12, 12, pad=3)], 100, 100, 6)
    assert not out and (king.x, king.y) == (3 + 60 + 3 + 6, 3 + 30 + 3 + 6) and king.spots[0].x == king.x + 3

def test_pieces_of_a_group_keep_their_own_gap_and_groups_the_pack_gap():
    (blocks,) = pack([Group("a", 3, 20, 20, gap=1), Group("b", 2, 10, 10, gap=0)], 100, 100, 6)
    a, b = sorted(blocks, key=lambda blk: blk.key)
    assert [(s.x, s.y) for s in a.spots] == [(0, 0), (21, 0), (42, 0)]
    assert b.x == pytest.approx(a.x + a.width + 6)
    with pytest.raises(ValueError):
        pack([Group("big", 1, 120, 120, turnable=False)], 100, 100, 0)


def test_fill_adds_whole_groups_to_started_sheets_and_the_hole_of_a_short_row_never_a_sheet():
    """5 cards in 3 columns leave one card's room: a 25 mm token goes there, `gap` from
    the cards; a group with no room anywhere is given back, and no sheet is started."""
    sheets = pack([Group("cards", 5, 30, 40, turnable=False)], 100, 90, 5)
    (cards,) = sheets[0]
    assert (cards.cols, cards.rows) == (3, 2)  # the hole: x 60-90, y 40-80, less the 5 mm gap to the cards
    filled, out = fill(sheets, [Group("big", 1, 50, 50), Group("token", 1, 25, 25)], 100, 90, 5)
    assert len(filled) == 1 and [g.key for g in out] == ["big"]
    token = next(b for b in filled[0] if b.key == "token")
    assert (token.x, token.y) == (65, 45)  # 5 mm right of the last card, 5 mm below the first row
    assert fill(sheets, [Group("wide", 1, 30, 30)], 100, 90, 5)[1] == [Group("wide", 1, 30, 30)]  # 30 mm: the hole is 25


def test_one_sided_leftovers_fill_the_double_sided_packed_sheets(shipped_builds):
    """Tasty Humans on A4: the Village King token and the three shared-King markers took a
    packed sheet of their own, a tenth full, while the double-sided packed sheets had room
    (the King in the hole of 5 adventurer cards laid 2 by 3). They go there, backs blank.
    So `tight` laid them (23 sheets, 24 before) until its packed blocks shared cut lines:
    now its adventurer leftovers have their own sheet and the King shares the basic tiles'
    packed sheet, 23 sheets still; the `standard` layout puts it in the double-sided ones."""
    report = shipped_builds["tasty-humans"]
    sheet = Paper("a4", *papers({})["a4"])
    tight = plan(report.title, report.parts, sheet, sheet_layout("tight"))
    assert tight.sheets == 23
    king = [page for page in tight.layout.pages if any(p.face.component == "king-token" for p in page.places)]
    assert len(king) == 1 and len({p.face.component for p in king[0].places}) > 2  # no sheet of its own
    made = plan(report.title, report.parts, sheet, sheet_layout("standard"))
    assert made.sheets == 26
    assert [s.name for s in made.sections if s.name.startswith("Packed")] == ["Packed double-sided sheets"]
    packed = next(s for s in made.sections if s.name == "Packed double-sided sheets")
    one_sided = {c.spec.id for c in report.parts if all(p.back is None for p in c.pieces)}
    fillers = 0
    for fronts, backs in zip(packed.pages[::2], packed.pages[1::2]):
        ours = [p for p in fronts.places if p.face.component not in one_sided]
        fillers += len(fronts.places) - len(ours)
        assert len(backs.places) == len(ours)  # a one-sided piece's back stays blank
        for f, b in zip(ours, backs.places):  # every back behind its front (long-edge duplex)
            assert (round(sheet.width - f.x - f.w, 6), f.y, f.w, f.h) == (round(b.x, 6), b.y, b.w, b.h)
        boxes = [(p.x, p.y, p.x + p.w, p.y + p.h) for p in fronts.places]
        for i, a in enumerate(boxes):  # no piece over another
            assert all(a[2] <= o[0] + 1e-6 or o[2] <= a[0] + 1e-6 or a[3] <= o[1] + 1e-6 or o[3] <= a[1] + 1e-6 for o in boxes[i + 1:])
    assert fillers == 4  # the King and its 3 markers
    again = plan(report.title, report.parts, sheet, sheet_layout("standard"))  # the same sheets every build
    assert [[(p.face.name, p.x, p.y) for p in page.places] for page in again.layout.pages] == \
        [[(p.face.name, p.x, p.y) for p in page.places] for page in made.layout.pages]


@pytest.mark.parametrize("game, paper, layout, cut, sheets, fillers", [
    # 8 before (2 of them the scoring sheets); then 7 (the tiles' sheet took the dice too), until the cut file's L marks
    # kept the pieces 32 mm off two opposite edges: the coins' sheet takes these. 7 again since packed blocks share
    # cut lines under tight: the humans' leftovers, a sheet alone before, pack with the dice and drones
    ("human-harvest", "a4", "tight", True, 7, {"pawns", "marines", "markers"}),
    ("dietrick-taking", "a4", "standard", False, 8, {"scoring-cards", "solo-reference"}),  # 9 before
])
def test_one_sided_leftovers_fill_a_two_sided_components_own_leftover_sheet(shipped_builds, game, paper, layout, cut,
                                                                          sheets, fillers):
    """What is left of a two-sided component printed alone on its grid (Human Harvest's
    coins, Dietrick-taking's 12 scoring markers) left most of that sheet blank while
    one-sided leftovers took a sheet of their own. They go into its free space where that
    saves a sheet: inside the margins (the cut file's too), their backs blank, the
    component's backs still mirrored behind its fronts."""
    from pnp.formats.cutfile import MARGIN
    from pnp.formats.print_pdf import LABEL_BAND

    report = shipped_builds[game]
    sheet = Paper(paper, *papers({})[paper])
    style = sheet_layout(layout)
    made = plan(report.title, report.parts, sheet, style, registration=cut)
    assert made.sheets == sheets
    one_sided = {c.spec.id for c in report.parts if all(p.back is None for p in c.pieces)}
    margin = MARGIN if cut else style.margin
    found = set()
    for section in made.sections:
        if section.name.startswith("Packed"):
            continue
        for k, side in enumerate(section.sides):
            if side != "front":
                continue
            fronts, backs = section.pages[k], section.pages[k + 1]
            ours = [p for p in fronts.places if p.face.component not in one_sided]
            theirs = [p for p in fronts.places if p.face.component in one_sided]
            found |= {p.face.component for p in theirs}
            assert len(backs.places) == len(ours)  # a filler's back stays blank
            for f, b in zip(ours, backs.places):  # every back behind its front (long-edge duplex)
                assert (round(sheet.width - f.x - f.w, 6), round(f.y, 6)) == (round(b.x, 6), round(b.y, 6))
            drawn = [p.clip or (p.x, p.y, p.w, p.h) for p in ours + theirs]  # shared cuts: as clipped
            boxes = [(x, y, x + w, y + h) for x, y, w, h in drawn]
            for i, a in enumerate(boxes):  # no piece over another
                assert all(a[2] <= o[0] + 1e-6 or o[2] <= a[0] + 1e-6 or a[3] <= o[1] + 1e-6 or o[3] <= a[1] + 1e-6
                           for o in boxes[i + 1:])
            for x, y, right, bottom in boxes[len(ours):]:  # inside the margins, the sheet's label under them
                assert x >= margin - 1e-6 and y >= margin - 1e-6 and right <= sheet.width - margin + 1e-6
                assert bottom <= sheet.height - style.inset - LABEL_BAND
    assert found == fillers
    again = plan(report.title, report.parts, sheet, style, registration=cut)  # the same sheets every build
    assert [[(p.face.name, p.x, p.y) for p in page.places] for page in again.layout.pages] == \
        [[(p.face.name, p.x, p.y) for p in page.places] for page in made.layout.pages]


def test_the_fold_layout_packs_leftovers_fronts_left_backs_mirrored_right(shipped_builds):
    """The fold layout never packed: Tasty Humans' four 12 mm scoring tokens took a whole A4
    sheet of their own (and 4 adventurer cards, 28 leader tiles another each). Now what is
    left of the folding components shares fold sheets: fronts on the left half, each back
    mirrored about the fold line on the same page; one-sided leftovers (the King token
    and markers) in the free space, their backs blank."""
    report = shipped_builds["tasty-humans"]
    sheet = Paper("a4", *papers({})["a4"])
    made = plan(report.title, report.parts, sheet, sheet_layout("fold"))
    assert made.sheets == 34  # 36 before
    (packed,) = [s for s in made.sections if s.name.startswith("Packed")]
    assert packed.sides == ["fold"]
    (page,) = packed.pages
    names = {c.spec.id: c.spec.name for c in report.parts}
    tokens = [p for p in page.places if p.face.component == "scoring-token"]
    assert len(tokens) == 8 and made.sheets_per_component[names["scoring-token"]] == 1  # 4 fronts, 4 backs
    fronts = [p for p in page.places if p.x + p.w <= sheet.width / 2]
    backs = [p for p in page.places if p.x >= sheet.width / 2]
    assert len(fronts) + len(backs) == len(page.places)
    mirrored = sorted((round(sheet.width - b.x - b.w, 6), b.y, b.w, b.h, -b.turn) for b in backs)
    two_sided = sorted((round(f.x, 6), f.y, f.w, f.h, f.turn) for f in fronts if f.face.component not in ("king-token", "king-placeholder"))
    assert mirrored == two_sided and len(fronts) - len(two_sided) == 4  # the King and 3 markers: no back
    assert any(ln.dash and ln.x1 == ln.x2 == sheet.width / 2 for ln in page.lines)  # the fold line


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


def test_human_harvest_takes_seven_letter_sheets_with_all_humans_on_one(shipped_builds):
    report = shipped_builds["human-harvest"]
    made = plan(report.title, report.parts, Paper("letter", *papers({})["letter"]), sheet_layout("standard"))
    assert made.sheets == 7  # 5 (one-sided leftovers in the tiles' own sheet), and 2 for the three scoring sheets (2-4 players)
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
