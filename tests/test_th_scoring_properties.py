"""Property tests through the whole sheet path: every legal game of every player count is
accepted, scores without crashing, and each total is the sum of its printed parts."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.content import Project, load_game
from pnp.games.tasty_humans.scoring import score_sheet
from pnp.yamlio import parse_located

REPO = Path(__file__).resolve().parent.parent
GAME = load_game(Project(REPO), "tasty-humans")
RULE_SET = GAME.data["rules"]
LEADER_IDS = [l.id for l in GAME.data["leaders"].leaders]
MONSTERS = [m.id for m in GAME.data["monsters"].monsters]
CARDS = [a.id for a in GAME.data["adventurers"].adventurers]


@st.composite
def legal_sheets(draw) -> str:
    """YAML of a possible finished game: gravity, leader limits, one tile per leader,
    distinct monsters, the Village King on a full board whenever one is full."""
    version = draw(st.sampled_from(RULE_SET.names()))
    rules = RULE_SET.version(version)
    n = draw(st.sampled_from(sorted(rules.stomach.rows_by_players)))
    rows, cols = rules.rows(n), rules.stomach.columns
    symbols = [t.symbol for t in rules.tiles.values()]
    monsters = draw(st.permutations(MONSTERS))[:n]
    pool = list(draw(st.permutations(LEADER_IDS)))
    players = []
    for seat in range(n):
        grid = [["."] * cols for _ in range(rows)]
        filled = []
        everything = draw(st.booleans())
        for c in range(cols):
            h = rows if everything else draw(st.integers(0, rows))
            for r in range(rows - h, rows):
                grid[r][c] = draw(st.sampled_from(symbols))
                filled.append((r, c))
        k = draw(st.integers(0, min(len(filled), rules.leaders_max(n), len(pool))))
        spots = draw(st.permutations(filled))[:k]
        leaders = {}
        for slot, (r, c) in enumerate(spots, start=1):
            grid[r][c] = str(slot)
            leaders[slot] = pool.pop()
        full = all(cell != "." for row in grid for cell in row)
        held = pool.pop() if full and pool and draw(st.booleans()) else None
        players.append((grid, leaders, full, held))
    full_seats = [i for i, p in enumerate(players) if p[2]]
    kings = set()
    if n > 1 and full_seats:
        kings = set(draw(st.lists(st.sampled_from(full_seats), min_size=1, unique=True)))
    lines = ["game: tasty-humans", f'rules: "{version}"', "players:"]
    for seat, (grid, leaders, full, held) in enumerate(players):
        lines += [
            f"  - name: P{seat + 1}",
            f"    monster: {monsters[seat]}",
            f"    king: {'true' if seat in kings else 'false'}",
            "    leaders: {" + ", ".join(f"{k}: {v}" for k, v in leaders.items()) + "}",
            f"    held: {held or 'null'}",
            "    stomach: |",
            *("      " + " ".join(row) for row in grid),
        ]
    if n == 1:
        level = draw(st.sampled_from(sorted(rules.solo.levels)))
        count = level + 2 * draw(st.integers(0, 8))
        cards = draw(st.permutations(CARDS))[:count]
        challenge = draw(st.sampled_from([None, "monster", *(f"balanced-diet/{k}" for k in rules.solo.balanced_diet)]))
        lines.append(f"solo: {{level: {level}, ai_cards: [{', '.join(cards)}], challenge: {challenge or 'null'}}}")
    return "\n".join(lines) + "\n"


@settings(max_examples=100, deadline=None)
@given(text=legal_sheets())
def test_legal_sheets_score_and_add_up(text):
    report = score_sheet(GAME, parse_located(text, "game.yaml")).to_json()
    for p in report["players"]:
        parts = sum(l["points"] for l in p["leaders"]) + p["craving"] + p["damage"]["points"] + p["king"]["points"]
        assert p["total"] == parts
    if report["mode"] == "solo":
        solo = report["solo"]
        assert solo["won"] is (report["players"][0]["total"] >= solo["ai"]["total"])
        assert report["players"][0]["king"]["points"] == 0
    else:
        totals = {r["name"]: r["total"] for r in report["ranking"]}
        assert all(totals[w] == max(totals.values()) for w in report["winners"])
