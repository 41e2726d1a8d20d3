"""`pnp serve`: the token gate, sessions, live checks and scores against `pnp score`, input
limits, and the forms made from the games' sheet schemas (API level; the page itself in
test_serve_browser.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from pnp.cli import app as cli  # noqa: E402
from pnp.load.content import Project  # noqa: E402
from pnp import __version__  # noqa: E402
from pnp.serve import INSTALL, qr_text, require_extra  # noqa: E402
from pnp.serve.app import MAX_BODY, PREDICTIONS_KEPT, make_app  # noqa: E402
from pnp.serve.log import Log  # noqa: E402
from pnp.serve.scoring import Games, check, sheet_yaml  # noqa: E402
from pnp.serve import session as sessions  # noqa: E402
from test_th_king_token import TIE  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
TOKEN = "s3cret-token"


@pytest.fixture(scope="module")
def games() -> Games:
    return Games(Project(REPO))


@pytest.fixture
def client(games: Games, tmp_path: Path) -> TestClient:
    c = TestClient(make_app(games, Log(tmp_path / "log.sqlite"), TOKEN))
    assert c.get(f"/?token={TOKEN}").status_code == 200  # sets the cookie
    return c


def example(name: str) -> dict:
    return yaml.safe_load((REPO / "examples" / name).read_text(encoding="utf-8"))


def start(client: TestClient, game: str, players: list[str], rules: str | None = None, changes: dict | None = None) -> str:
    r = client.post("/api/sessions", json={"game": game, "rules": rules, "changes": changes or {}, "players": players})
    assert r.status_code == 200, r.text
    return r.json()["id"]


def fill(client: TestClient, sid: str, sheet: dict, done: bool = True) -> dict:
    """Enter a sheet file's table fields and boards as the pages would; the last state."""
    state = client.get(f"/api/sessions/{sid}").json()
    table_keys = {f["key"] for f in state["form"]["table"]}
    table = {k: v for k, v in sheet.items() if k in table_keys}
    if table:
        assert client.put(f"/api/sessions/{sid}/table", json={"values": table}).status_code == 200
    for seat, p in enumerate(sheet["players"]):
        r = client.put(f"/api/sessions/{sid}/boards/{seat}", json={"values": {k: v for k, v in p.items() if k != "name"}, "done": done})
        assert r.status_code == 200, r.text
        state = r.json()
    return state


def cli_score(path: Path) -> dict:
    result = CliRunner().invoke(cli, ["score", str(path), "--json", "--project", str(REPO)])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


# ------------------------------------------------------------ the token


def test_every_request_without_the_token_is_refused(games: Games, tmp_path: Path):
    c = TestClient(make_app(games, Log(tmp_path / "log.sqlite"), TOKEN))
    for url in ("/", "/api/games", "/api/sessions", "/static/app.js", "/api/stats", "/?token=wrong"):
        r = c.get(url)
        assert r.status_code == 403, url
        assert "token" in r.text
    assert c.post("/api/sessions", json={}).status_code == 403
    c.cookies.set("pnp_token", "wrong")
    assert c.get("/api/games").status_code == 403


def test_the_tokened_visit_sets_a_cookie_that_lets_the_page_in(client: TestClient):
    assert client.get("/api/games").status_code == 200
    page = client.get("/static/app.js")
    assert page.status_code == 200
    # scripts only from pnp itself; the tokened URL never leaves as a referrer
    assert "default-src 'self'" in page.headers["content-security-policy"] and page.headers["referrer-policy"] == "no-referrer"


def test_the_qr_code_carries_the_url():
    text = qr_text("http://192.168.1.5:8000/?token=abc")
    assert len(text.splitlines()) > 10 and "█" in text


def test_without_the_extra_one_line_says_how_to_install(monkeypatch: pytest.MonkeyPatch):
    import builtins

    real = builtins.__import__

    def no_uvicorn(name, *args, **kwargs):
        if name == "uvicorn":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_uvicorn)
    with pytest.raises(Exception) as caught:
        require_extra()
    assert str(caught.value) == INSTALL
    # a command a checkout's user and a wheel's user can both follow (pnp is on no index)
    assert INSTALL == ("pnp serve needs the extra `serve`: pip install '.[serve]' in pnp's checkout, or pip install "
                       f"'<folder>/pnp_kit-{__version__}-py3-none-any.whl[serve]' with the wheel pnp was installed from "
                       "(or pip install starlette uvicorn segno)")
    result = CliRunner().invoke(cli, ["serve", "--project", str(REPO)])
    assert result.exit_code == 2
    assert result.output.strip() == INSTALL


# ------------------------------------------------------------ scoring: the same as `pnp score`


@pytest.mark.parametrize("name", ["tasty-humans-2p.yaml", "tasty-humans-3p-leader-phase.yaml", "dietrick-taking-3p.yaml",
                                  "human-harvest-3p.yaml", "human-harvest-4p-advanced.yaml"])
def test_a_session_scores_as_pnp_score_does(client: TestClient, name: str, tmp_path: Path):
    sheet = example(name)
    names = [p["name"] for p in sheet["players"]]
    sid = start(client, sheet["game"], names, sheet.get("rules"))
    state = fill(client, sid, sheet)
    assert state["outcome"]["problems"] == []
    assert state["finished"] and state["logged"] == 1
    exported = client.get(f"/api/sessions/{sid}/sheet.yaml")
    assert exported.status_code == 200
    path = tmp_path / "exported.yaml"
    path.write_text(exported.text, encoding="utf-8")
    report = state["outcome"]["report"]
    assert {**cli_score(path), "sheet": None} == {**report, "sheet": None}  # `sheet` is the file's name
    original = cli_score(REPO / "examples" / name)
    assert original["winners"] == report["winners"]
    assert [p.get("total", p.get("difference")) for p in original["players"]] == [p.get("total", p.get("difference")) for p in report["players"]]


# A 4-player published game (pnp simulate, seed 10): Cy and Di tie on 32 and on 4 damage
# tiles each; Di's lowest-scoring leader (7) beats Cy's (6): published rules line 204.
FOUR_TIED = """
game: tasty-humans
rules: published
players:
- {name: Ana, monster: troll, king: false, leaders: {1: sight-helmet, 2: line-helmet, 3: sight-armor}, held: chain-diagonal,
   stomach: [H . . 3 D B, 2 . H D B D, H . 1 A G H, A B D G G H], claimed: 19}
- {name: Bo, monster: twin-headed-dragon, king: true, leaders: {1: feast-hand, 2: diagonal-boot, 3: line-hand}, held: sight-leader,
   stomach: [D 3 A H H A, A G D G D A, G 2 G 1 G D, B D A G D B], claimed: 24}
- {name: Cy, monster: legendary-dragon, king: false, leaders: {1: range-boot, 2: sight-boot, 3: feast-boot}, held: chain-orthogonal,
   stomach: [. B 2 3 B B, . B A G B B, . D B A 1 G, D H D B D B], claimed: 32}
- {name: Di, monster: griffin, king: false, leaders: {1: line-boot, 2: range-helmet, 3: most-minus-least}, held: surround-majority,
   stomach: [. B B H G 3, . B H D H D, B 1 B 2 H B, D B H A D B], claimed: 32}
"""


def test_what_decided_the_winner_is_given_in_the_words_pnp_score_prints(client: TestClient, tmp_path: Path):
    """The page says what decided a tie as `pnp score` does ("higher lowest-scoring
    leaders"), not by the id the JSON report keeps ("leaders-ascending"); a game whose
    report has its words in `decided_by` already (Dietrick-taking) shows those."""
    sheet = yaml.safe_load(FOUR_TIED)
    for p in sheet["players"]:
        p["stomach"] = "".join(row + "\n" for row in p["stomach"])
    state = fill(client, start(client, "tasty-humans", ["Ana", "Bo", "Cy", "Di"], rules="published"), sheet)
    assert state["finished"] and state["outcome"]["report"]["winners"] == ["Di"]
    assert state["outcome"]["report"]["decided_by"] == "leaders-ascending"
    assert state["outcome"]["decided"] == "higher lowest-scoring leaders"
    assert "Di wins (decided by higher lowest-scoring leaders)" in state["outcome"]["text"]
    (tmp_path / "four.yaml").write_text(FOUR_TIED, encoding="utf-8")
    assert cli_score(tmp_path / "four.yaml")["ranking"] == state["outcome"]["report"]["ranking"]
    dietrick = example("dietrick-taking-3p.yaml")
    state = fill(client, start(client, "dietrick-taking", [p["name"] for p in dietrick["players"]]), dietrick)
    assert state["outcome"]["decided"] == state["outcome"]["report"]["decided_by"] == "higher bottom number"


def test_a_problem_is_placed_at_its_cell_in_the_clis_words(games: Games, tmp_path: Path):
    sheet = example("tasty-humans-2p.yaml")
    sheet["players"][0]["stomach"] = sheet["players"][0]["stomach"].replace("A H A B G A", "A H A X G A")
    outcome = check(games.project, sheet)
    path = tmp_path / "bad.yaml"
    path.write_text(sheet_yaml(sheet), encoding="utf-8")
    result = CliRunner().invoke(cli, ["score", str(path), "--project", str(REPO)])
    assert result.exit_code == 2
    (problem,) = outcome.problems
    assert problem.at == ("players", 0, "stomach") and problem.cell == (2, 4)
    assert problem.message in result.output
    assert problem.message.startswith("Ana, row 2 column 4: unknown symbol 'X'")


def test_a_problem_of_a_field_is_placed_at_it(games: Games):
    sheet = example("tasty-humans-2p.yaml")
    sheet["players"][1]["leaders"][2] = "no-such-leader"
    sheet["players"][1]["monster"] = "kraken"
    places = {p.at: p.message for p in check(games.project, sheet).problems}
    assert places[("players", 1, "leaders", 2)].startswith("Ben: leader 2: unknown leader 'no-such-leader'")
    assert places[("players", 1, "monster")].startswith("Ben: unknown monster 'kraken'")


def test_every_board_shows_only_its_own_problems_and_the_whole_table_logs_once_done(client: TestClient):
    sheet = example("dietrick-taking-3p.yaml")
    sid = start(client, "dietrick-taking", [p["name"] for p in sheet["players"]])
    state = fill(client, sid, sheet, done=False)
    assert state["outcome"]["report"] is not None and not state["finished"] and state["logged"] is None
    r = client.put(f"/api/sessions/{sid}/boards/2", json={"values": {"yellow": 99}, "done": True})
    problems = r.json()["outcome"]["problems"]
    assert [p["at"] for p in problems] == [["players", 2, "yellow"]]
    assert "yellow is 99: expected a whole number of squares from 0 to" in problems[0]["message"]
    assert client.get("/api/sessions").json()[0]["logged"] is None


@pytest.mark.parametrize("where", ["table", "board"])
def test_a_logged_game_made_impossible_leaves_the_log(client: TestClient, where: str):
    sheet = example("dietrick-taking-3p.yaml")
    sid = start(client, "dietrick-taking", [p["name"] for p in sheet["players"]])
    state = fill(client, sid, sheet)
    assert state["finished"] and state["logged"] == 1
    if where == "table":
        r = client.put(f"/api/sessions/{sid}/table", json={"values": {"scoring_order": [2, 2, 3], "variant": "standard"}})
    else:
        r = client.put(f"/api/sessions/{sid}/boards/2", json={"values": {"yellow": 99}, "done": True})
    state = r.json()
    assert not state["finished"] and state["logged"] is None and state["outcome"]["problems"]
    assert client.get("/api/sessions").json()[0]["logged"] is None
    assert client.get("/api/stats").json() == []
    # made right again, it is logged again
    r = client.put(f"/api/sessions/{sid}/table", json={"values": {"scoring_order": sheet["scoring_order"]}})
    r = client.put(f"/api/sessions/{sid}/boards/2", json={"values": {"yellow": sheet["players"][2]["yellow"]}, "done": True})
    assert r.json()["finished"] and r.json()["logged"] is not None


def test_opening_a_logged_game_after_a_content_edit_keeps_it_in_the_log(copy_game, tmp_path: Path):
    """A GET never changes the log: a game logged before a play-test edit (its claim now wrong)
    stays logged under the content it was played with; a save at the table logs it afresh."""
    project = copy_game("tasty-humans")
    log = Log(tmp_path / "log.sqlite")
    before = TestClient(make_app(Games(project), log, TOKEN))
    before.get(f"/?token={TOKEN}")
    sheet = example("tasty-humans-2p.yaml")
    sid = start(before, "tasty-humans", [p["name"] for p in sheet["players"]], "published")
    assert fill(before, sid, sheet)["logged"] == 1
    rules = project.content_dir / "tasty-humans" / "rules.yaml"
    rules.write_text(rules.read_text().replace("cravings: {troll: {points: 4}}", "cravings: {troll: {points: 5}}"))
    after = TestClient(make_app(Games(project), log, TOKEN))  # the server restarted on the edited content
    after.get(f"/?token={TOKEN}")
    for _ in range(2):  # the page polls
        state = after.get(f"/api/sessions/{sid}").json()
        assert not state["finished"] and state["outcome"]["problems"]  # Ana's claimed 42 is 45 now
        assert state["logged"] == 1 and state["logged_under_other_content"] is True
    assert [g.id for g in log.games()] == [1] and after.get("/api/sessions").json()[0]["logged"] == 1
    # an edit at the table scores under the content of now: a wrong claim leaves the log, a right one is logged
    r = after.put(f"/api/sessions/{sid}/boards/0", json={"values": {"claimed": 42}, "done": True})
    assert r.json()["logged"] is None and log.games() == []
    r = after.put(f"/api/sessions/{sid}/boards/0", json={"values": {"claimed": 45}, "done": True})
    assert r.json()["finished"] and r.json()["logged"] == 2 and r.json()["logged_under_other_content"] is False
    assert [g.digest for g in log.games()] == [Games(project).digest("tasty-humans")]


def test_the_host_chooses_the_rule_version_and_changes_and_every_page_shows_them(client: TestClient):
    sid = start(client, "tasty-humans", ["Ana", "Ben"], "0.2.8", {"cravings.troll.points": 5})
    state = client.get(f"/api/sessions/{sid}").json()
    assert state["rules"] == "0.2.8" and state["rule_version"]["label"] == "Rules 0.2.8"
    differences = state["rule_version"]["differences"]
    # in the game's words (reference.yaml `settings`), not rules.yaml's keys (`cravings.troll.points: 4 → 3`)
    assert "Troll's craving: points for each: 4 → 3" in differences  # rules.yaml: F317 4, 0.2.8 3
    # the tie-break's steps as `pnp score` names the one that decides, not their ids (`leaders-ascending`)
    assert ("ties: fewer damage tiles, then higher lowest-scoring leaders, then tie: shared victory → "
            "fewer damage tiles, then fewer empty cells, then seat order clockwise from the Village King") in differences
    assert "monster challenges: yes → no" in differences and "name of the space holding your next leader: Leader space → Grip" in differences
    assert "Balanced Diet (normal): every leader in your stomach scores at least: 12 → none" in differences
    # a ruling only one version has: its words, not its key nor where rules.yaml holds it
    assert "pnp's reading where the books are silent: the two may share tiles: pnp's reading of F289/F293 → none" in differences
    assert not [d for d in differences if "rules.yaml" in d or "_" in d or "rulings." in d or "solo." in d], differences
    assert state["changes"] == {"cravings.troll.points": 5}
    sheet = yaml.safe_load(client.get(f"/api/sessions/{sid}/sheet.yaml").text)
    assert sheet["rules"] == "0.2.8" and sheet["changes"] == {"cravings.troll.points": 5}


def test_the_forms_come_from_the_sheet_schemas(client: TestClient):
    sid = start(client, "tasty-humans", ["Ana", "Ben", "Cleo"])
    form = client.get(f"/api/sessions/{sid}").json()["form"]
    player = {f["key"]: f for f in form["player"]}
    assert player["stomach"]["kind"] == "grid"
    assert (player["stomach"]["rows"], player["stomach"]["cols"], player["stomach"]["empty"]) == (5, 6, ".")
    symbols = [p["symbol"] for p in player["stomach"]["palette"]]
    assert symbols[:5] == ["H", "A", "B", "G", "D"] and "1" in symbols
    assert player["king"]["kind"] == "bool" and player["claimed"]["kind"] == "number"
    assert player["monster"]["kind"] == "choice" and "troll" in [c["value"] for c in player["monster"]["choices"]]
    sid = start(client, "dietrick-taking", ["Ana", "Ben", "Cleo"])
    form = client.get(f"/api/sessions/{sid}").json()["form"]
    assert {f["key"]: f["kind"] for f in form["player"]} == {"yellow": "track", "blue": "track", "claimed": "number"}
    assert {f["key"]: f["kind"] for f in form["table"]}["scoring_order"] == "order"


def test_a_game_without_hints_gets_generic_widgets():
    from pnp.serve import forms

    schema = {"properties": {"game": {"const": "x"}, "round": {"type": "integer", "minimum": 1},
                             "players": {"type": "array", "items": {"type": "object", "properties": {
                                 "name": {"type": "string"}, "colour": {"enum": ["red", "blue"]}, "board": {"type": "string"},
                                 "bonus": {"anyOf": [{"type": "boolean"}, {"type": "null"}]}}}}}}
    blank = {"game": "x", "round": 1, "players": [{"name": "P1", "colour": "red", "board": "- -\n- -\n- -\n", "bonus": None}]}
    form = forms.build(schema, blank, {})
    assert [(f["key"], f["kind"]) for f in form["table"]] == [("round", "number")]
    kinds = {f["key"]: f for f in form["player"]}
    assert kinds["colour"]["kind"] == "choice" and kinds["bonus"]["kind"] == "bool" and kinds["bonus"]["nullable"]
    assert (kinds["board"]["kind"], kinds["board"]["rows"], kinds["board"]["cols"], kinds["board"]["empty"]) == ("grid", 3, 2, "-")


# ------------------------------------------------------------ bad requests


@pytest.mark.parametrize("body, message", [
    ({"game": "chess", "players": ["A", "B"]}, "unknown game 'chess'"),
    ({"game": "tasty-humans", "players": ["A", "A"]}, "two players have the same name"),
    ({"game": "tasty-humans", "players": ["A"] * 0}, "expected a name for every player"),
    ({"game": "tasty-humans", "players": [f"P{i}" for i in range(7)]}, "7 players: Tasty Humans is played by 1, 2, 3, 4"),
    ({"game": "dietrick-taking", "rules": "x", "players": ["A", "B"]}, "has one rule set"),
    ({"game": 3, "players": "A"}, "expected game (text)"),
    ({"game": "tasty-humans", "players": ["B", "A" * 61]}, "players: player 2's name ('AAAAAAAAAAAAAAAAAAAA'...) is 61 characters: expected at most 60"),
    ({"game": "dietrick-taking", "changes": {"rounds": 2}, "players": ["A", "B", "C"]}, "changes: dietrick-taking takes no rule changes on its sheet"),
])
def test_a_bad_new_game_gets_one_clear_line(client: TestClient, body: dict, message: str):
    r = client.post("/api/sessions", json=body)
    assert r.status_code == 400
    assert message in r.json()["error"]
    assert "Traceback" not in r.text


@pytest.mark.parametrize("name, message", [
    ("A\\ud83d", "player 2's name 'A\\ud83d' has a lone surrogate (half of an emoji), U+D83D"),  # JSON.stringify of a cut emoji
    ("Ana\\nBen", "player 2's name 'Ana\\nBen' has a control character (a line break, a tab...), U+000A"),
    ("A\\tB", "player 2's name 'A\\tB' has a control character (a line break, a tab...), U+0009"),
    ("Ben\\u0007", "player 2's name 'Ben\\x07' has a control character (a line break, a tab...), U+0007"),
    ("Ana\\u200b", "player 2's name 'Ana\\u200b' has an invisible formatting character, U+200B"),
    ("An\\u200da", "player 2's name 'An\\u200da' has an invisible formatting character, U+200D"),
    ("B\\u2028C", "player 2's name 'B\\u2028C' has a line separator, U+2028"),
    ("Jose\\u0301", "two players have the same name, 'José' (player 1) and 'José' (player 2)"),  # NFD: the same name
    ("JOSE\\u0301", "two players have the same name, 'José' (player 1) and 'JOSÉ' (player 2)"),
])
def test_a_name_that_is_not_one_line_of_visible_text_or_another_players_is_refused(client: TestClient, name: str, message: str):
    body = '{"game": "tasty-humans", "changes": {}, "players": ["Jos\\u00e9", "%s"]}' % name  # as a page's JSON.stringify sends it
    r = client.post("/api/sessions", content=body.encode(), headers={"content-type": "application/json"})
    assert (r.status_code, r.json()) == (400, {"error": f"players: {message}: expected " + (
        "each name once" if "same name" in message else "one line of visible text")})
    assert client.get("/api/sessions").json() == []


def test_names_are_kept_in_nfc_and_an_emoji_name_is_a_name(client: TestClient):
    start(client, "tasty-humans", ["Jose\u0301 ", "\U0001F9DF\u200d\u2642\ufe0f", "\U0001F469\U0001F3FD\u200d\U0001F4BB", "\u00a0Ben\n"])
    assert client.get("/api/sessions").json()[0]["players"] == ["Jos\u00e9", "\U0001F9DF\u200d\u2642\ufe0f", "\U0001F469\U0001F3FD\u200d\U0001F4BB", "Ben"]


def test_a_name_a_log_kept_before_names_were_checked_never_makes_a_500(client: TestClient, tmp_path: Path):
    Log(tmp_path / "log.sqlite").create_session("old", "tasty-humans", None, {}, ["Ana", "A\ud83d"], {}, [{}, {}])
    for url in ("/api/sessions", "/api/sessions/old"):
        r = client.get(url)
        assert r.status_code == 200 and "A\\ud83d" in r.text  # sent escaped: JSON a page reads
    r = client.put("/api/sessions/old/boards/1", content=b'{"values": {"monster": "tr\\ud800"}}', headers={"content-type": "application/json"})
    assert (r.status_code, r.json()) == (400, {"error": "monster: 'tr\\ud800' has a lone surrogate (half of an emoji): expected text", "at": ["values", "monster"]})


@pytest.mark.parametrize("changes, message", [
    ({"cravings.troll.points": "x"}, "changes: cravings.troll.points: input should be a valid integer, unable to parse string as an integer, got 'x'"),
    ({"king_bonus": [1, 2]}, "changes: king_bonus: input should be a valid integer, got [1, 2]"),
    ({"cravings.troll.pts": 3}, "changes: cravings.troll.pts: cravings.troll has no 'pts': expected one of points, overlap"),
])
def test_a_bad_rule_change_is_refused_when_the_session_starts(client: TestClient, changes: dict, message: str):
    """As `pnp simulate --set` refuses it: before any board is sent, one line, no session made."""
    r = client.post("/api/sessions", json={"game": "tasty-humans", "rules": None, "changes": changes, "players": ["A", "B"]})
    assert (r.status_code, r.json()) == (400, {"error": message})
    assert client.get("/api/sessions").json() == []


def test_bad_requests_get_a_message_never_a_traceback(client: TestClient):
    sid = start(client, "tasty-humans", ["Ana", "Ben"])
    cases = [
        client.put(f"/api/sessions/{sid}/boards/0", content=b"{not json"),
        client.put(f"/api/sessions/{sid}/boards/0", content=b'{"values": {"claimed": Infinity}}'),
        client.put(f"/api/sessions/{sid}/boards/0", json={"values": {"bogus": 1}}),
        client.put(f"/api/sessions/{sid}/boards/0", json={"values": {"monster": "x" * 5000}}),
        client.put(f"/api/sessions/{sid}/boards/0", json={"values": [], "done": "yes"}),
        client.put(f"/api/sessions/{sid}/boards/7", json={"values": {}}),
        client.put("/api/sessions/nope/boards/0", json={"values": {}}),
        client.put(f"/api/sessions/{sid}/boards/0", content=b"x" * (MAX_BODY + 1)),
        client.put(f"/api/sessions/{sid}/boards/0", content=iter([b"x" * MAX_BODY, b"x"])),  # chunked: no length said
        client.post("/api/sessions", json=["tasty-humans", "Ana", "Ben"]),
        client.post("/api/predict", json={"game": "cave", "players": "three"}),
        client.get("/api/sessions/nope"),
        client.get("/no/such/page"),
        client.delete("/api/sessions"),
    ]
    assert [r.status_code for r in cases] == [400, 400, 400, 400, 400, 404, 404, 413, 413, 400, 400, 404, 404, 405]
    assert cases[9].json()["error"] == "expected an object with game, rules, changes and players"
    assert cases[10].json()["error"].startswith("expected game (text), rules (text or null), changes (object), players and games")
    for r in cases:
        assert set(r.json()) <= {"error", "at"} and "Traceback" not in r.text and r.json()["error"]


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain; charset=utf-8"])
def test_a_body_sent_as_another_type_than_json_is_refused_unread(client: TestClient, kind: str):
    """The page sends application/json; a body said to be a form or text (what another
    site's form can post) gets a 415 naming the type, and starts no game."""
    body = json.dumps({"game": "tasty-humans", "rules": None, "changes": {}, "players": ["Ana", "Ben"]}).encode()
    r = client.post("/api/sessions", content=body, headers={"content-type": kind})
    assert r.status_code == 415
    assert r.json() == {"error": f"expected a JSON body (content-type: application/json), not {kind.split(';')[0]}"}
    assert client.get("/api/sessions").json() == []
    ok = client.post("/api/sessions", content=body, headers={"content-type": "Application/JSON; charset=utf-8"})
    assert ok.status_code == 200


def test_a_number_of_thousands_of_digits_is_refused_in_our_words(client: TestClient):
    sid = start(client, "tasty-humans", ["Ana", "Ben"])
    r = client.put(f"/api/sessions/{sid}/boards/0", content=b'{"values": {"claimed": ' + b"9" * 5000 + b"}}",
                   headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert r.json() == {"error": "expected a JSON body: a number of 5,000 digits: expected at most 100"}


def test_a_value_that_breaks_the_sheet_is_a_problem_not_a_crash(client: TestClient):
    sid = start(client, "tasty-humans", ["Ana", "Ben"])
    r = client.put(f"/api/sessions/{sid}/boards/0", json={"values": {"stomach": "\x00\x01", "claimed": "many", "leaders": {"x": [1, {"a": 2}]}}})
    assert r.status_code == 200
    assert r.json()["outcome"]["problems"]


@pytest.mark.parametrize("claimed, message", [
    (31.5, "Ana: claimed: expected a whole number, got 31.5"),
    (True, "Ana: claimed: expected a whole number, got true"),  # not taken as 1
])
def test_a_claim_that_is_no_whole_number_names_the_player_at_the_field(client: TestClient, claimed: object, message: str):
    sid = start(client, "tasty-humans", ["Ana", "Ben"])
    r = client.put(f"/api/sessions/{sid}/boards/0", json={"values": {"claimed": claimed}})
    assert r.status_code == 200
    # the CLI's words, and on the page the field as the form labels it
    said = message.replace("claimed:", "claimed total:")
    assert {"message": message, "at": ["players", 0, "claimed"], "cell": None, "said": said} in r.json()["outcome"]["problems"]


def test_no_request_reaches_the_projects_files(client: TestClient):
    for url in ("/static/../log.py", "/static/..%2f..%2fpyproject.toml", "/static/%2e%2e/app.py", "/api/sessions/..%2f..%2fpyproject.toml/sheet.yaml"):
        r = client.get(url)
        assert r.status_code == 404, url
        assert "[project]" not in r.text and "import" not in r.text


def test_statistics_over_the_logged_games(client: TestClient):
    for name in ("tasty-humans-2p.yaml", "tasty-humans-2p.yaml", "dietrick-taking-3p.yaml"):
        sheet = example(name)
        fill(client, start(client, sheet["game"], [p["name"] for p in sheet["players"]], sheet.get("rules")), sheet)
    stats = {(s["game"], s["players"]): s for s in client.get("/api/stats").json()}
    tasty = stats[("tasty-humans", 2)]
    assert tasty["games"] == 2 and tasty["wins_by_seat"] == [2, 0]
    assert tasty["by_monster"]["troll"] == {"games": 2, "min": 42, "mean": 42.0, "max": 42}
    assert tasty["by_leader"]["least-type"]["max"] == 14
    assert stats[("dietrick-taking", 3)]["games"] == 1 and sum(stats[("dietrick-taking", 3)]["wins_by_seat"]) == 1
    # the page shows each by the name its component prints, and the game by its title
    assert (tasty["title"], tasty["names"]["troll"], tasty["names"]["least-type"]) == ("Tasty Humans", "Troll", "Scarcest Fare")
    # the rule version by its title and the days played: what the page shows for the content's digest (kept for tools)
    assert tasty["rules_title"] == "Published rules" and stats[("dietrick-taking", 3)]["rules_title"] is None
    assert len(tasty["played"]) == 2 and tasty["played"][0] <= tasty["played"][1] and tasty["played"][0].endswith("Z")
    assert len(tasty["digest"]) == 16
    # listed in the order of those names (before: of the ids, "least-type" among the l's)
    for table in ("by_leader", "by_monster"):
        shown = [tasty["names"].get(k, k) for k in tasty[table]]
        assert shown == sorted(shown, key=str.casefold), (table, shown)
    assert len(tasty["by_leader"]) > 1


def test_every_choice_is_named_as_the_game_prints_it_and_the_sheet_keeps_its_id(client: TestClient):
    """Leaders by their tiles' titles (not `Hand Line (line-hand)`), endings, challenges and
    variants in the paper sheets' words; Human Harvest's sheet prints each value with what it
    means, and so does its form."""
    def form(game: str, players: list[str], rules: str | None = None) -> dict:
        got = client.get(f"/api/sessions/{start(client, game, players, rules)}").json()["form"]
        return {f["key"]: f for part in ("table", "player") for f in got[part]}

    tasty = form("tasty-humans", ["Ana", "Ben"])
    assert {c["value"]: c["label"] for c in tasty["held"]["choices"]}["line-hand"] == "Hand Line"
    assert tasty["held"]["label"] == "Leader space" and tasty["king"]["label"] == "Village King"
    assert [c["label"] for c in tasty["ending"]["choices"]] == ["after a round", "in the Leader Phase"]
    assert form("tasty-humans", ["Ana", "Ben"], "0.2.8")["held"]["label"] == "Grip"
    solo = {f["key"]: f for f in form("tasty-humans", ["Sam"])["solo"]["fields"]}
    assert [c["label"] for c in solo["challenge"]["choices"]] == [
        "Balanced Diet (beginner, 10)", "Balanced Diet (normal, 12)", "Balanced Diet (expert, 14)", "Monster challenge"]
    assert solo["ai_cards"]["label"] == "A.I.'s cards"
    assert [c["label"] for c in form("dietrick-taking", ["A", "B"])["variant"]["choices"]] == ["standard", "Beginner Class (squares)"]
    assert form("dietrick-taking", ["Solo"])["fuzz"]["label"] == "Fuzz"  # the solo opponent's name, not the sheet's key
    harvest = form("human-harvest", ["A", "B"])
    assert harvest["ending"]["choices"][0] == {"value": "six-cyborgs", "label": "six-cyborgs: somebody had all 6 of their Cyborgs on the board: they win on the spot"}
    assert harvest["dna_point"]["label"] == "DNA Collection Point"


@pytest.mark.parametrize("players, rules", [(["Ana", "Ben"], "0.2.8"), (["Sam"], "published")])
def test_the_help_under_each_field_speaks_the_pages_words_not_the_sheet_files(client: TestClient, players: list, rules: str):
    """The schema's help is for a YAML sheet (`or its id (monsters.yaml)`, `round ... or
    leader-phase`, `each has king: true`); the form's is for the page."""
    form = client.get(f"/api/sessions/{start(client, 'tasty-humans', players, rules)}").json()["form"]
    fields = [f for part in ("table", "player") for f in form[part]]
    helps = {f["key"]: f["help"] for f in fields + [g for f in fields for g in f.get("fields", [])]}
    assert not [h for h in helps.values() if ".yaml" in h or " id" in h or "leader-phase" in h or "true" in h], helps
    assert form["labels"] == {"king": "Village King"}  # a solo report's king part, which no field names


@pytest.mark.parametrize("game, table, board, at, message, said", [
    ("tasty-humans-2p.yaml", {}, {"monster": "troll"}, ["players", 1, "monster"],
     "Ben: monster 'troll' is also Ana's: each monster board is used once",
     "Ben: monster 'Troll' is also Ana's: each monster board is used once"),
    ("tasty-humans-2p.yaml", {}, {"monster": None}, ["players", 0, "monster"],
     "Ana: monster is empty: expected one of legendary-dragon, twin-headed-dragon, griffin, troll",
     "Ana: monster is empty: expected one of Legendary Dragon, Twin-Headed Dragon, Griffin, Troll"),
    ("tasty-humans-2p.yaml", {}, {"king": False}, ["players", 0, "name"],
     "Ana's stomach is full but nobody holds the Village King: expected king: true for the player who filled first",
     "Ana's stomach is full but nobody holds the Village King: expected Village King ticked for the player who filled first"),
    ("tasty-humans-2p.yaml", {}, {"leaders": {"1": "line-hand", "2": "range-boot", "3": "least-type", "4": "line-hand"}},
     ["players", 0, "leaders", 4], "Ana: leader 4: 'line-hand' is also leader 1: there is one tile of each leader",
     "Ana: leader 4: 'Hand Line' is also leader 1: there is one tile of each leader"),
    ("tasty-humans-3p-leader-phase.yaml", {"ending": "round"}, {}, ["players", 2, "held"],
     "Eve: held: 'rows-all-four' would have been eaten after the final round: the stomach has 13 empty cells (published rules line 184, 0.2.8 line 193)",
     "Eve: Leader space: 'Full Rows' would have been eaten after the final round: the stomach has 13 empty cells (published rules line 184, 0.2.8 line 193)"),
    # `held` as English (`and 1 held`) stays: only where a key stands is it the field
    ("tasty-humans-2p.yaml", {}, {"held": "line-helmet"}, ["players", 1, "held"],
     "Ben: held: 5 leaders in the stomach and 1 held: at most 5 in all with 2 players (one from setup plus one per Leader Phase, "
     "4 phases; once the leader stacks run out, rounds go on without a Leader Phase until a stomach fills (our ruling, rules.yaml))",
     # the page says the ruling, not where rules.yaml keeps it
     "Ben: Leader space: 5 leaders in the stomach and 1 held: at most 5 in all with 2 players (one from setup plus one per Leader Phase, "
     "4 phases; once the leader stacks run out, rounds go on without a Leader Phase until a stomach fills (our ruling))"),
    ("tasty-humans-solo.yaml", {"solo": {"level": 2, "ai_cards": ["adv-03"], "challenge": "monster"}}, {}, ["solo", "ai_cards"],
     "solo.ai_cards: 1 cards at level 2: the A.I. holds 2 plus 2 per round", "A.I.'s cards: 1 cards at level 2: the A.I. holds 2 plus 2 per round"),
    ("dietrick-taking-3p.yaml", {"scoring_order": [2, 1]}, {}, ["scoring_order"],
     "scoring_order [2, 1]: expected cards 1, 2, 3 each once, in the order laid at the table (card 4 is always last)",
     "scoring order [2, 1]: expected cards 1, 2, 3 each once, in the order laid at the table (card 4 is always last)"),
    ("human-harvest-3p.yaml", {"dna_point": True}, {}, ["dna_point"],
     "dna_point is for the advanced game (the DNA Collection Point, human-harvest-rules.txt line 133): expected variant: advanced, or no dna_point",
     "DNA Collection Point is for the advanced game (the DNA Collection Point, human-harvest-rules.txt line 133): expected variant: advanced, or no DNA Collection Point"),
])
def test_a_problem_names_the_field_as_the_form_labels_it_and_the_value_as_printed(
        client: TestClient, game: str, table: dict, board: dict, at: list, message: str, said: str):
    """`said`, which the page shows, names fields and values as the form does; `message`
    stays the CLI's one line, which `pnp score` prints for the same sheet."""
    sheet = example(game)
    changed = at[1] if at[0] == "players" else None  # the board the problem is at gets `board`
    sheet = {**sheet, **table, "players": [{**p, **board} if seat == changed else p for seat, p in enumerate(sheet["players"])]}
    state = fill(client, start(client, sheet["game"], [p["name"] for p in sheet["players"]], sheet.get("rules")), sheet)
    problems = [p for p in state["outcome"]["problems"] if p["at"] == at]
    assert [(p["message"], p["said"]) for p in problems] == [(message, said)], state["outcome"]["problems"]


@pytest.mark.parametrize("url, body, error", [
    # was `content/tasty-humans/game.yaml:12:3: --set rules=nope: ...`, a file and option the host never saw
    ("/api/sessions", {"game": "tasty-humans", "rules": "nope", "players": ["A", "B"]},
     "rules: 'nope': expected one of Published rules (published), Rules 0.2.8 (0.2.8)"),
    ("/api/predict", {"game": "tasty-humans", "rules": "nope", "changes": {}, "players": 2, "games": 2},
     "rules: 'nope': expected one of Published rules (published), Rules 0.2.8 (0.2.8)"),
    # was `--players 9: ...` and `--set cravings.troll.pts: ...`
    ("/api/predict", {"game": "dietrick-taking", "rules": None, "changes": {}, "players": 9, "games": 2},
     "players: 9 players: Dietrick-taking is played by 1, 2, 3, 4"),
    ("/api/predict", {"game": "tasty-humans", "rules": None, "changes": {"cravings.troll.pts": 3}, "players": 2, "games": 2},
     "changes: cravings.troll.pts: cravings.troll has no 'pts': expected one of points, overlap"),
])
def test_what_the_host_chose_wrong_is_said_in_the_start_pages_words(client: TestClient, url: str, body: dict, error: str):
    r = client.post(url, json={"changes": {}, **body})
    assert (r.status_code, r.json()) == (400, {"error": error})


def test_serve_prints_the_tokened_url_and_with_lan_its_qr_code(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    import uvicorn

    import pnp.serve as serve_module

    ran: list = []
    monkeypatch.setattr(uvicorn, "run", lambda app, host, port, **kw: ran.append((app, host, port)))
    monkeypatch.setattr(serve_module, "lan_address", lambda: "127.0.0.1")  # the table's network, here the loopback
    for lan in (False, True):
        lines: list[str] = []
        serve_module.serve(Project(REPO), tmp_path / "log.sqlite", lan, 8123, lines.append)
        app, host, port = ran[-1]
        url = next(line for line in lines if line.startswith("open: ")).removeprefix("open: ")
        token = url.split("?token=", 1)[1]
        assert (host, port) == ("127.0.0.1", 8123) and url == f"http://127.0.0.1:8123/?token={token}" and len(token) >= 32
        assert (sum("█" in line for line in lines) > 10) == lan
        c = TestClient(app)
        assert c.get("/api/games").status_code == 403
        assert c.get(f"/?token={token}").status_code == 200 and c.get("/api/games").status_code == 200
    assert ran[0][0] is not ran[1][0]
    tokens = []  # the link stays after a restart; --new-token makes another
    for new in (False, False, True):
        lines = []
        serve_module.serve(Project(REPO), tmp_path / "log.sqlite", False, 8123, lines.append, new_token=new)
        tokens.append(next(line for line in lines if line.startswith("open: ")).split("?token=")[1])
    assert tokens[0] == tokens[1] != tokens[2]
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--db", str(tmp_path / "log.sqlite"), "--project", str(REPO)])
    assert result.exit_code == 2 and result.output.strip() == "pnp serve: --port 0: expected 1 to 65535"



def test_serve_on_a_port_in_use_is_one_line(tmp_path: Path):
    """Another program (or another `pnp serve`) listens there: refused before the server
    starts, in one line, not uvicorn's traceback."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port), "--db", str(tmp_path / "log.sqlite"), "--project", str(REPO)])
    assert result.exit_code == 2
    assert result.output == f"pnp serve: --port {port}: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_serve_on_a_port_in_use_leaves_the_log_and_its_token_as_they_were(tmp_path: Path):
    """Refused, `pnp serve` made no log file; and `--new-token` did not replace the token of
    the log the running server uses (its phones, and the sheet's printed QR code, would
    otherwise point at a link the next restart no longer takes)."""
    import socket

    kept = Log(tmp_path / "kept.sqlite").token()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for db, extra in (("new.sqlite", []), ("kept.sqlite", ["--new-token"])):
            result = CliRunner().invoke(cli, ["serve", "--port", str(port), "--db", str(tmp_path / db), "--project", str(REPO), *extra])
            assert result.exit_code == 2 and "Address already in use" in result.output
    assert not (tmp_path / "new.sqlite").exists()
    assert Log(tmp_path / "kept.sqlite").token() == kept


@pytest.mark.parametrize("name", ["tasty-humans-solo.yaml", "tasty-humans-solo-0.2.8.yaml"])
def test_a_solo_game_has_its_opponent_as_a_group_of_fields_and_scores_as_pnp_score_does(client: TestClient, name: str, tmp_path: Path):
    sheet = example(name)
    sid = start(client, "tasty-humans", [sheet["players"][0]["name"]], str(sheet.get("rules") or "published"))
    table = {f["key"]: f for f in client.get(f"/api/sessions/{sid}").json()["form"]["table"]}
    solo = {f["key"]: f for f in table["solo"]["fields"]}
    assert table["solo"]["kind"] == "group" and solo["ai_cards"]["kind"] == "picks"
    # the A.I.'s cards by the names printed on them, in name order: all 50, their ids the values
    cards = solo["ai_cards"]["choices"]
    assert len(cards) == 50 and {"value": "adv-03", "label": "Dame Oswin of the Ford (Swordsman)"} in cards
    assert [c["label"].casefold() for c in cards] == sorted(c["label"].casefold() for c in cards)
    # each class in its version's words: 0.2.8 says General (O109) and No Type (O237)
    labels = {c["value"]: c["label"] for c in cards}
    assert (labels["adv-25"], labels["adv-37"]) == (("Commander Hale (Captain)", "Farmer Giles (Peasant)") if name == "tasty-humans-solo.yaml"
                                                    else ("Commander Hale (General)", "Farmer Giles (No Type)"))
    if name == "tasty-humans-solo.yaml":  # published: named levels, the Balanced Diet and monster challenges
        assert solo["level"]["kind"] == "choice" and solo["level"]["choices"][0] == {"value": 0, "label": "0: Baby Beast"}
        assert [c["value"] for c in solo["challenge"]["choices"]] == ["balanced-diet/beginner", "balanced-diet/normal", "balanced-diet/expert", "monster"]
    else:  # 0.2.8: any level, and no challenge to choose (its blank sheet has none)
        assert solo["level"]["kind"] == "number" and "challenge" not in solo
    state = fill(client, sid, sheet)
    assert state["outcome"]["problems"] == [] and state["finished"]
    path = tmp_path / "solo.yaml"
    path.write_text(client.get(f"/api/sessions/{sid}/sheet.yaml").text, encoding="utf-8")
    assert {**cli_score(path), "sheet": None} == {**state["outcome"]["report"], "sheet": None}


@pytest.mark.parametrize("holder", ["Rex", None])
def test_a_028_table_names_the_king_token_holder_and_scores_as_pnp_score_does(client: TestClient, holder: str | None, tmp_path: Path):
    """Quin and Rex fill together in the Leader Phase and tie down to seat order (0.2.8
    lines 197, 215): the host picks who holds the token among the table's players, and the
    table scores as `pnp score` does on the same sheet file, the default only when unnamed."""
    sheet = yaml.safe_load(TIE)
    if holder is not None:
        sheet["king_token"] = holder
    names = [p["name"] for p in sheet["players"]]
    sid = start(client, "tasty-humans", names, "0.2.8")
    table = {f["key"]: f for f in client.get(f"/api/sessions/{sid}").json()["form"]["table"]}
    assert list(table) == ["ending", "king_token"]
    assert table["king_token"]["kind"] == "choice" and table["king_token"]["nullable"]
    assert [c["value"] for c in table["king_token"]["choices"]] == names
    assert [c["value"] for c in table["ending"]["choices"]] == ["round", "leader-phase"]
    state = fill(client, sid, sheet)
    assert state["outcome"]["problems"] == [] and state["finished"]
    report = state["outcome"]["report"]
    assert report["winners"] == [holder or "Quin"] and report["king_token"] == {"name": holder or "Quin", "stated": holder is not None}
    assert report["ending"] == "leader-phase" and report["ending_stated"]
    exported, original = tmp_path / "exported.yaml", tmp_path / "original.yaml"
    exported.write_text(client.get(f"/api/sessions/{sid}/sheet.yaml").text, encoding="utf-8")
    original.write_text(sheet_yaml(sheet), encoding="utf-8")
    assert {**cli_score(exported), "sheet": None} == {**report, "sheet": None} == {**cli_score(original), "sheet": None}


@pytest.mark.parametrize("rules", ["published", "0.2.8"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_tasty_humans_form_offers_exactly_the_blank_sheets_fields(games: Games, rules: str, players: int):
    """The form comes from the blank sheet (`pnp sheet --template`): a field the sheet of
    this version and player count has not (king_token outside 0.2.8's multi-player games,
    king and king_token in a solo game, challenge in a 0.2.8 solo game) is not offered."""
    names = ["Ana", "Ben", "Cy", "Dee"][:players]
    form = sessions.form(games, "tasty-humans", rules, names)
    blank = games.blank("tasty-humans", players, rules)
    assert {f["key"] for f in form["table"]} == set(blank) - {"game", "rules", "players"}  # in the schema's order
    assert {f["key"] for f in form["player"]} == set(blank["players"][0]) - {"name"}
    for f in form["table"]:
        if f["kind"] == "group":
            assert {g["key"] for g in f["fields"]} == set(blank[f["key"]])
    assert ("king_token" in blank) is (rules == "0.2.8" and players > 1)


def test_a_field_the_sheet_has_not_is_refused_at_the_table(client: TestClient):
    sid = start(client, "tasty-humans", ["Ana", "Ben"], "published")
    r = client.put(f"/api/sessions/{sid}/table", json={"values": {"king_token": "Ana"}})
    assert r.status_code == 400 and r.json()["error"] == "unknown field 'king_token': expected one of ending"


def test_a_dietrick_taking_solo_game_enters_fuzz_on_tracks(client: TestClient):
    sid = start(client, "dietrick-taking", ["Ana"])
    fuzz = {f["key"]: f for f in client.get(f"/api/sessions/{sid}").json()["form"]["table"]}["fuzz"]
    assert fuzz["kind"] == "group" and [f["kind"] for f in fuzz["fields"]] == ["track", "track"]


def test_fuzz_is_offered_only_in_a_solo_game(client: TestClient):
    """Fuzz's markers are the solo game's (the sheet refuses them with two or more players):
    a 3-player table's form has no field for them, so nothing tapped there by mistake."""
    sid = start(client, "dietrick-taking", ["Ana", "Ben", "Cleo"])
    assert "fuzz" not in [f["key"] for f in client.get(f"/api/sessions/{sid}").json()["form"]["table"]]
    r = client.put(f"/api/sessions/{sid}/table", json={"parts": {"fuzz": {"yellow": 3}}})
    assert r.status_code == 400 and "unknown field 'fuzz'" in r.json()["error"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=5),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.dictionaries(st.sampled_from(["monster", "king", "leaders", "held", "stomach", "claimed", "other"]), json_values, max_size=4),
       done=json_values)
def test_any_board_a_page_sends_gets_a_state_or_one_line(client: TestClient, values: dict, done: object):
    sid = client.get("/api/sessions").json()[0]["id"] if client.get("/api/sessions").json() else start(client, "tasty-humans", ["Ana", "Ben"])
    r = client.put(f"/api/sessions/{sid}/boards/0", json={"values": values, "done": done})
    assert r.status_code in (200, 400), r.text
    data = r.json()
    assert ("outcome" in data) if r.status_code == 200 else (set(data) <= {"error", "at"} and "error" in data and "\n" not in data["error"])


def test_statistics_stand_beside_what_pnp_simulate_predicts(client: TestClient):
    from pnp.simulate import simulate

    sheet = example("dietrick-taking-3p.yaml")
    fill(client, start(client, "dietrick-taking", [p["name"] for p in sheet["players"]]), sheet)
    (group,) = client.get("/api/stats").json()
    assert group["current"] and group["changes"] == {}
    body = {"game": "dietrick-taking", "rules": None, "changes": {}, "players": 3, "games": 30}
    predicted = client.post("/api/predict", json=body).json()
    run = simulate(Project(REPO), "dietrick-taking", games=30, players=3, seed=0, jobs=1)
    wins = [sum(p.win / sum(q.win for q in r.players) for r in run.records for p in r.players if p.seat == seat and p.win) / 30 for seat in range(3)]
    assert predicted["games"] == 30 and predicted["win_rate_by_seat"] == [round(w, 3) for w in wins]
    assert client.post("/api/predict", json={**body, "games": 10_000}).json() == {"error": "games: 10000: expected 1 to 200"}
    assert "unknown game" in client.post("/api/predict", json={**body, "game": "chess"}).json()["error"]
    # a choice the game cannot take, in the words the new game's form uses (not `--set`'s)
    assert client.post("/api/predict", json={**body, "rules": "0.2.8"}).json() == {"error": "rules: dietrick-taking has one rule set: expected no rule version"}
    assert client.post("/api/predict", json={**body, "changes": {"rounds": 2}}).json() == {"error": "changes: dietrick-taking takes no rule changes on its sheet"}



def test_an_edit_to_the_games_content_is_predicted_afresh(copy_game, tmp_path: Path):
    """The designer edits the YAML while `pnp serve` runs: the next prediction plays the new content."""
    project = copy_game("dietrick-taking")
    client = TestClient(make_app(Games(project), Log(tmp_path / "log.sqlite"), TOKEN))
    client.get(f"/?token={TOKEN}")
    body = {"game": "dietrick-taking", "rules": None, "changes": {}, "players": 3, "games": 10}
    before = client.post("/api/predict", json=body).json()
    assert client.post("/api/predict", json=body).json() == before
    scoring = project.content_dir / "dietrick-taking" / "scoring.yaml"
    scoring.write_text(scoring.read_text().replace("end_square: 13", "end_square: 16"))  # a longer race
    after = client.post("/api/predict", json=body).json()
    assert after["games"] == 10 and after["mean_score_by"] != before["mean_score_by"]


def test_statistics_say_when_the_content_changed_since_the_games_were_played(copy_game, tmp_path: Path):
    """An edit while `pnp serve` runs: a prediction would play the new content, so the games
    logged before no longer count as current."""
    project = copy_game("dietrick-taking")
    client = TestClient(make_app(Games(project), Log(tmp_path / "log.sqlite"), TOKEN))
    client.get(f"/?token={TOKEN}")
    sheet = example("dietrick-taking-3p.yaml")
    fill(client, start(client, "dietrick-taking", [p["name"] for p in sheet["players"]]), sheet)
    assert [g["current"] for g in client.get("/api/stats").json()] == [True]
    scoring = project.content_dir / "dietrick-taking" / "scoring.yaml"
    scoring.write_text(scoring.read_text().replace("end_square: 13", "end_square: 16"))
    assert [g["current"] for g in client.get("/api/stats").json()] == [False]


def test_the_server_remembers_at_most_so_many_predictions(client: TestClient, monkeypatch):
    import pnp.serve.predict

    played: list[int] = []

    def predict(project, game, rules, changes, players, games):  # the request, not a game played: fast
        played.append(games)
        return {"games": games}

    monkeypatch.setattr(pnp.serve.predict, "predict", predict)
    body = {"game": "dietrick-taking", "rules": None, "changes": {}, "players": 3}

    def ask(n: int) -> int:
        """Ask for a prediction of n games: 1 when it was made, 0 when it was remembered."""
        was = len(played)
        assert client.post("/api/predict", json={**body, "games": n}).json() == {"games": n}
        return len(played) - was

    assert [ask(n) for n in range(1, PREDICTIONS_KEPT + 1)] == [1] * PREDICTIONS_KEPT
    assert ask(1) == 0  # remembered, and now the most recently asked
    assert ask(PREDICTIONS_KEPT + 1) == 1  # one too many: the least recently asked (2) is dropped
    assert [ask(1), ask(PREDICTIONS_KEPT + 1), ask(3)] == [0, 0, 0]
    assert ask(2) == 1


def test_games_before_and_after_a_rule_change_are_told_apart(client: TestClient):
    sheet = example("tasty-humans-2p.yaml")
    names = [p["name"] for p in sheet["players"]]
    fill(client, start(client, "tasty-humans", names, "published"), sheet)
    changed = start(client, "tasty-humans", names, "published", {"cravings.troll.points": 5})
    unclaimed = {**sheet, "players": [{k: v for k, v in p.items() if k != "claimed"} for p in sheet["players"]]}
    fill(client, changed, unclaimed)  # the example claims its totals under the unchanged rules: a wrong claim is not logged
    groups = client.get("/api/stats").json()
    # the troll's craving scores 3 times in Ana's stomach: 4 points each (published, F317), then 5
    assert [(g["changes"], g["by_monster"]["troll"]["max"]) for g in groups] == [({"cravings.troll.points": 5}, 45), ({}, 42)]


def test_each_board_has_a_qr_code_of_its_tokened_link(client: TestClient):
    from pnp.serve.app import seat_qr_svg

    sid = start(client, "tasty-humans", ["Ana", "Ben"])
    r = client.get(f"/api/sessions/{sid}/boards/1/qr.svg")
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert r.content == seat_qr_svg("http://testserver/", TOKEN, sid, 1)
    assert r.content != seat_qr_svg("http://testserver/", TOKEN, sid, 0) and r.content.startswith(b"<?xml")
    assert client.get(f"/api/sessions/{sid}/boards/2/qr.svg").status_code == 404


def test_a_number_out_of_range_or_a_deep_body_is_one_line(client: TestClient):
    """The hostile-project report's defect 15: a 35-digit rule value overflowed the engine's
    64-bit arithmetic (500 OverflowError); a body of 30,000 nested lists overflowed the JSON
    reader's recursion (500 RecursionError). Both are a 400 with one line."""
    body = {"game": "tasty-humans", "rules": None, "changes": {"cravings.troll.points": 99999999999999999999999999999999999},
            "players": 2, "games": 2}
    r = client.post("/api/predict", json=body)
    # in the start page's words (its rule changes), as a new table's are: not `--set`'s
    assert r.status_code == 400 and r.json() == {"error": "changes: cravings.troll.points: 99999999999999999999999999999999999 is out of range: "
                                                          "expected a number from -1,000,000 to 1,000,000"}
    sid = start(client, "tasty-humans", ["Ana", "Ben"])
    r = client.put(f"/api/sessions/{sid}/boards/0", content="[" * 30000 + "]" * 30000, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json() == {"error": "expected a JSON body: lists or objects nested too deeply (hundreds deep)"}


def test_the_http_api_section_names_every_route_and_only_those(games: Games, tmp_path: Path):
    """docs/scoring.md's HTTP API lists what a tool may call: every route of the app (but the
    page and its files) by its method and path, and nothing the app does not serve."""
    import re

    from conftest import docs_text
    from starlette.routing import Route

    text = docs_text("docs/scoring.md").split("### The HTTP API", 1)[1].split("\n### ", 1)[0]
    said = {(m, re.sub(r"\b(ID|SEAT)\b", "{}", p)) for m, p in re.findall(r"`(GET|POST|PUT|DELETE) (/[^`]*)`", text)}
    app = make_app(games, Log(tmp_path / "log.sqlite"), TOKEN)
    served = {(m, re.sub(r"\{[^}]*\}", "{}", r.path)) for r in app.routes if isinstance(r, Route) and r.path.startswith("/api/")
              for m in (r.methods or ()) if m != "HEAD"}
    assert said == served


# ------------------------------------------------------------ claims the sheet does not score


@pytest.mark.parametrize("name, wrong, place, right", [
    # Ben's board scores 28: the claim is shown at his claimed field, in `pnp score`'s words
    ("tasty-humans-2p.yaml", ("board", 1, {"claimed": 20}), ["players", 1, "claimed"], {"claimed": 28}),
    ("tasty-humans-2p.yaml", ("board", 1, {"claimed": 20}), ["players", 1, "claimed"], {"claimed": None}),
    # Ben wins: a claimed winner the sheet does not score is shown at claimed_winner
    ("dietrick-taking-3p.yaml", ("table", None, {"claimed_winner": "Cleo"}), ["claimed_winner"], {"claimed_winner": None}),
    ("dietrick-taking-3p.yaml", ("table", None, {"claimed_winner": "Cleo"}), ["claimed_winner"], {"claimed_winner": "Ben"}),
    # Cleo's difference is not 99: shown at her claimed field
    ("dietrick-taking-3p.yaml", ("board", 2, {"claimed": 99}), ["players", 2, "claimed"], {"claimed": None}),
])
def test_a_game_claiming_what_its_sheet_does_not_score_is_logged_only_once_the_claim_agrees(
        client: TestClient, tmp_path: Path, name: str, wrong: tuple, place: list, right: dict):
    sheet = example(name)
    where, seat, values = wrong
    if where == "table":
        sheet.update(values)
    else:
        sheet["players"][seat].update(values)
    sid = start(client, sheet["game"], [p["name"] for p in sheet["players"]], sheet.get("rules"))
    state = fill(client, sid, sheet)
    wrong_file = tmp_path / "wrong.yaml"
    wrong_file.write_text(client.get(f"/api/sessions/{sid}/sheet.yaml").text, encoding="utf-8")
    scored = CliRunner().invoke(cli, ["score", str(wrong_file), "--project", str(REPO)])
    (problem,) = state["outcome"]["problems"]
    assert scored.exit_code == 1 and problem["at"] == place and problem["message"] in scored.output.replace("\n", " ")
    assert not state["finished"] and state["logged"] is None and state["outcome"]["exit_code"] == 1
    assert client.get("/api/sessions").json()[0]["logged"] is None and client.get("/api/stats").json() == []
    if where == "table":  # put right (or cleared), the game is logged
        r = client.put(f"/api/sessions/{sid}/table", json={"values": right})
    else:
        r = client.put(f"/api/sessions/{sid}/boards/{seat}", json={"values": right, "done": True})
    state = r.json()
    assert state["finished"] and state["logged"] == 1 and state["outcome"]["problems"] == []
    # the logged game exported imports again as the same game (docs/scoring.md: pnp log)
    db, again = tmp_path / "log.sqlite", tmp_path / "again.sqlite"
    exported = CliRunner().invoke(cli, ["log", "export", "--db", str(db), "--out", str(tmp_path / "out"), "--project", str(REPO)])
    assert exported.exit_code == 0, exported.output
    (path,) = (tmp_path / "out").iterdir()
    imported = CliRunner().invoke(cli, ["log", "import", str(path), "--db", str(again), "--project", str(REPO)])
    assert imported.exit_code == 0, imported.output
    (first,), (second,) = Log(db).games(), Log(again).games()
    assert (second.sheet, second.played, second.players) == (first.sheet, first.played, first.players)
    assert {**second.report, "sheet": None} == {**first.report, "sheet": None}


def test_a_prediction_plays_the_rule_version_the_host_chose(client: TestClient):
    """As `pnp simulate --set rules=0.2.8` plays it (seed 0), not the published rules."""
    from pnp.simulate import simulate

    body = {"game": "tasty-humans", "rules": "0.2.8", "changes": {}, "players": 2, "games": 3}
    predicted = client.post("/api/predict", json=body).json()
    run = simulate(Project(REPO), "tasty-humans", games=3, players=2, options={"rules": "0.2.8"}, seed=0, jobs=1)
    scores: dict = {}
    for p in (p for r in run.records for p in r.players):
        for tag, value in p.tags.items():
            scores.setdefault(tag, {}).setdefault(value, []).append(p.score)
    assert predicted["rules"] == "0.2.8" and predicted["mean_score_by"] == {
        tag: {value: round(sum(v) / len(v), 2) for value, v in sorted(by.items())} for tag, by in sorted(scores.items())}
    published = client.post("/api/predict", json={**body, "rules": None}).json()
    assert published["mean_score_by"] != predicted["mean_score_by"]



@pytest.mark.parametrize("values, message", [
    ("Ana's board", "expected an object of field values"),
    ({"monster": [[[["troll"]]]]}, "monster: nested too deep"),
    ({"monster": ["troll"] * 101}, "monster: more than 100 values"),
    ({"monster": {str(i): "troll" for i in range(101)}}, "monster: more than 100 values"),
])
def test_a_board_of_the_wrong_shape_or_size_is_one_line(client: TestClient, values: object, message: str):
    """What a page (or anything that has the table's link) sends as a board: bounded before it
    is kept; a value refused names its field (`at`), a board that is no object none."""
    sid = start(client, "tasty-humans", ["Ana", "Ben"])
    before = client.get(f"/api/sessions/{sid}").json()
    r = client.put(f"/api/sessions/{sid}/boards/0", json={"values": values})
    assert (r.status_code, r.json()) == (400, {"error": message} | ({"at": ["values", "monster"]} if isinstance(values, dict) else {}))
    assert client.get(f"/api/sessions/{sid}").json() == before


def test_the_sheet_limits_of_pnp_score_bound_a_tables_sheet(client: TestClient, monkeypatch: pytest.MonkeyPatch):
    """PNP_SHEET_LIMITS lowered (as for `pnp score`): a board making the table's sheet
    larger than it is refused in one line, and the board is not kept."""
    sid = start(client, "tasty-humans", ["Ana", "Ben"])
    before = client.get(f"/api/sessions/{sid}").json()
    monkeypatch.setenv("PNP_SHEET_LIMITS", "size=100")
    r = client.put(f"/api/sessions/{sid}/boards/0", json={"values": {"monster": "troll"}})
    assert (r.status_code, r.json()) == (400, {"error": "sheet.yaml: more than 100 bytes: the limit for a scoring sheet "
                                                        "(set PNP_SHEET_LIMITS=size=N to change it)"})
    monkeypatch.delenv("PNP_SHEET_LIMITS")
    assert client.get(f"/api/sessions/{sid}").json() == before


def test_two_pages_on_one_board_each_send_only_what_they_changed_and_both_land(client: TestClient):
    """The same board open on the player's phone and the host's laptop: a page sends the
    cells and keys it changed, not its whole (older) copy of the grid, and the server merges
    them into the stored board; a save without `done` leaves the board's "complete" as it was."""
    sid = start(client, "tasty-humans", ["Ana", "Ben"], "published")
    for col, symbol in enumerate("A4BHGD", start=1):  # the phone: the bottom row, a cell a tap
        r = client.put(f"/api/sessions/{sid}/boards/0", json={"values": {}, "cells": {"stomach": [[6, col, symbol]]}})
        assert r.status_code == 200, r.text
    client.put(f"/api/sessions/{sid}/boards/0", json={"values": {}, "parts": {"leaders": {"1": "hand-line"}}})
    client.put(f"/api/sessions/{sid}/boards/0", json={"values": {}, "done": True})
    # the laptop, loaded before all that: one cell and one leader of its own, and a field
    client.put(f"/api/sessions/{sid}/boards/0", json={"values": {"claimed": 42}, "cells": {"stomach": [[5, 1, "H"]]},
                                                      "parts": {"leaders": {"2": "surround-majority"}}})
    state = client.get(f"/api/sessions/{sid}").json()
    rows = state["boards"][0]["stomach"].splitlines()
    assert rows[4].split()[0] == "H" and rows[5].split() == list("A4BHGD")
    assert state["boards"][0]["leaders"]["1"] == "hand-line" and state["boards"][0]["leaders"]["2"] == "surround-majority"
    assert state["boards"][0]["claimed"] == 42 and state["done"] == [True, False]
    client.put(f"/api/sessions/{sid}/boards/0", json={"values": {}, "done": False})  # unticked: only then
    assert client.get(f"/api/sessions/{sid}").json()["done"] == [False, False]


# `at`: the change refused, named as the save sends it, so that the page marks that one
# alone and sends the others of its batch again; none where the save itself is malformed
@pytest.mark.parametrize("body, message, at", [
    ({"values": {}, "cells": {"stomach": [[7, 1, "A"]]}}, "cells: stomach: expected [row 1-6, column 1-6, one symbol], not [7, 1, \"A\"]", ["cells", "stomach", [7, 1]]),
    ({"values": {"claimed": 3}, "cells": {"stomach": [[2, 1, "H"], [1, 1, "AB"]]}},
     "cells: stomach: expected [row 1-6, column 1-6, one symbol], not [1, 1, \"AB\"]", ["cells", "stomach", [1, 1]]),
    ({"values": {}, "cells": {"claimed": [[1, 1, "A"]]}}, "cells: claimed is not a grid", ["cells", "claimed"]),
    ({"values": {}, "cells": {"bogus": []}}, "unknown field 'bogus': expected one of claimed, held, king, leaders, monster, stomach", ["cells", "bogus"]),
    ({"values": {"claimed": 1, "held": "x" * 2001}}, "held: longer than 2000 characters", ["values", "held"]),
    ({"values": {}, "cells": []}, "cells: expected an object of grids, each a list of [row, column, symbol]", None),
    ({"values": {}, "parts": {"leaders": 3}}, "parts: expected an object of fields, each an object of its keys' values", None),
])
def test_a_bad_cell_or_part_is_one_line_and_changes_nothing(client: TestClient, body: dict, message: str, at: list | None):
    sid = start(client, "tasty-humans", ["Ana", "Ben"], "published")
    before = client.get(f"/api/sessions/{sid}").json()
    r = client.put(f"/api/sessions/{sid}/boards/0", json=body)
    assert (r.status_code, r.json()) == (400, {"error": message} | ({"at": at} if at else {}))
    assert client.get(f"/api/sessions/{sid}").json() == before


def test_a_map_of_players_to_numbers_is_a_box_per_player_each_saved_as_its_key(client: TestClient):
    """Dietrick-taking's Long Game `earlier_wins` (a map player -> wins, dietrick-taking-rules.txt
    line 87): the form names each player as a key of a map of numbers, up to one win short of
    the match; two devices' boxes both land, and an emptied box takes its player out, the last
    one the field (a single game, not a Long Game with no wins)."""
    sid = start(client, "dietrick-taking", ["Ana", "Ben", "Cleo"])
    field = {f["key"]: f for f in client.get(f"/api/sessions/{sid}").json()["form"]["table"]}["earlier_wins"]
    assert {k: field[k] for k in ("kind", "values", "min", "max", "optional", "keys")} == {
        "kind": "map", "values": "number", "min": 0, "max": 1, "optional": True,
        "keys": [{"value": "Ana", "label": "Ana"}, {"value": "Ben", "label": "Ben"}, {"value": "Cleo", "label": "Cleo"}]}
    assert client.put(f"/api/sessions/{sid}/table", json={"parts": {"earlier_wins": {"Ana": 1}}}).status_code == 200
    state = client.put(f"/api/sessions/{sid}/table", json={"parts": {"earlier_wins": {"Ben": 0}}}).json()  # the other device
    assert state["table"]["earlier_wins"] == {"Ana": 1, "Ben": 0}
    assert yaml.safe_load(client.get(f"/api/sessions/{sid}/sheet.yaml").text)["earlier_wins"] == {"Ana": 1, "Ben": 0}
    assert client.put(f"/api/sessions/{sid}/table", json={"parts": {"earlier_wins": {"Ana": None}}}).json()["table"]["earlier_wins"] == {"Ben": 0}
    client.put(f"/api/sessions/{sid}/table", json={"parts": {"earlier_wins": {"Ben": None}}})
    assert "earlier_wins" not in yaml.safe_load(client.get(f"/api/sessions/{sid}/sheet.yaml").text)


@pytest.mark.parametrize("name", ["human-harvest-3p.yaml", "human-harvest-4p-advanced.yaml"])
def test_a_box_ticked_then_unticked_leaves_the_sheet_as_if_never_ticked(client: TestClient, name: str):
    """Human Harvest's optional `dna_point` box (human-harvest-rules.txt line 133): unticked
    again it is left out, not saved `false`, which a basic game's sheet is refused for and
    an advanced game's six-humans ending contradicts."""
    sheet = {k: v for k, v in example(name).items() if k != "dna_point"}  # the box left as it ends up
    names = [p["name"] for p in sheet["players"]]
    never, again = start(client, "human-harvest", names), start(client, "human-harvest", names)
    fill(client, never, sheet)
    assert client.put(f"/api/sessions/{again}/table", json={"values": {"dna_point": True}}).status_code == 200
    assert client.put(f"/api/sessions/{again}/table", json={"values": {"dna_point": False}}).json()["table"].get("dna_point") is None
    state = fill(client, again, sheet)
    assert state["outcome"]["problems"] == [] and state["finished"]
    exported = client.get(f"/api/sessions/{again}/sheet.yaml").text
    assert "dna_point" not in yaml.safe_load(exported) and exported == client.get(f"/api/sessions/{never}/sheet.yaml").text


def test_a_map_keyed_by_players_needs_the_hint_and_numbers(games: Games):
    """Generic: any map of numbers hinted `"keys_from": "players"` is keyed by the table's
    names; a map of anything else stays a map typed as JSON."""
    from pnp.serve import forms

    schema = {"properties": {"players": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}},
                             "bids": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 9}},
                             "notes": {"type": "object", "additionalProperties": {"type": "string"}}}}
    hints = {"table": {"bids": {"keys_from": "players"}, "notes": {"keys_from": "players"}}}
    form = forms.name_players(forms.build(schema, {"players": [{"name": "A"}]}, hints), ["Jo", "Al"])
    bids, notes = form["table"]
    assert (bids["values"], bids["min"], bids["max"], [k["value"] for k in bids["keys"]]) == ("number", 1, 9, ["Jo", "Al"])
    assert "values" not in notes


def test_two_devices_tapping_the_ais_cards_at_once_both_land(client: TestClient):
    """The solo A.I.'s cards (a list of picks inside the `solo` group): a tap sends only that
    card, added or removed, merged with what is stored, in the choices' order; before, each
    tap sent the page's whole list and the later device's undid the other's."""
    sid = start(client, "tasty-humans", ["Sam"], "published")
    put = lambda items: client.put(f"/api/sessions/{sid}/table", json={"items": {"solo": {"ai_cards": items}}})  # noqa: E731
    solo = {f["key"]: f for f in client.get(f"/api/sessions/{sid}").json()["form"]["table"]}["solo"]
    order = [c["value"] for c in {f["key"]: f for f in solo["fields"]}["ai_cards"]["choices"]]
    before = client.get(f"/api/sessions/{sid}").json()["table"]["solo"]
    assert put({"add": ["adv-09"]}).status_code == 200  # the laptop
    assert put({"add": ["adv-03"]}).status_code == 200  # the phone, whose page has no adv-09
    assert put({"add": ["adv-09"]}).json()["table"]["solo"]["ai_cards"] == sorted(["adv-03", "adv-09"], key=order.index)
    state = put({"remove": ["adv-09", "adv-40"]}).json()
    assert state["table"]["solo"] == {**before, "ai_cards": ["adv-03"]}  # the group's other fields as they were


@pytest.mark.parametrize("items, message, at", [
    ({"solo": {"level": {"add": [1]}}}, "items: solo: level is not a list of picks", ["items", "solo"]),
    ({"ending": {"add": ["round"]}}, "items: ending is not a list of picks", ["items", "ending"]),
    ({"solo": {"ai_cards": {"add": "adv-01"}}}, 'items: solo: ai_cards: expected {"add": [values], "remove": [values]}, not {"add": "adv-01"}', ["items", "solo"]),
    ({"solo": {"ai_cards": {"put": ["adv-01"]}}}, 'items: solo: ai_cards: expected {"add": [values], "remove": [values]}, not {"put": ["adv-01"]}', ["items", "solo"]),
    ({"solo": {"ai_cards": {"add": [["adv-01"]]}}}, "solo: nested too deep", ["items", "solo"]),
    ({"ai_cards": {"add": [{}]}}, "unknown field 'ai_cards': expected one of ending, solo", ["items", "ai_cards"]),
    ({"solo": {"bogus": {"add": []}}}, "unknown field 'bogus': expected one of ai_cards, challenge, level", ["items", "solo"]),
    ({"solo": {"ai_cards": {"add": ["x" * 2001]}}}, "solo: longer than 2000 characters", ["items", "solo"]),
    ({"solo": {"ai_cards": {"add": [f"c{i}" for i in range(101)]}}}, "solo: more than 100 values", ["items", "solo"]),
    ({"solo": {"ai_cards": {"add": [f"c{i}" for i in range(50, 101)]}}}, "solo: ai_cards: more than 100 values", ["items", "solo"]),  # merged
    ([], 'items: expected an object of lists of picks, each {"add": [...], "remove": [...]}', None),
])
def test_a_bad_toggle_is_one_line_and_changes_nothing(client: TestClient, items, message: str, at: list | None):
    """The checks of a whole save, the merged list's too; `at` names the field the page marks."""
    sid = start(client, "tasty-humans", ["Sam"], "published")
    client.put(f"/api/sessions/{sid}/table", json={"items": {"solo": {"ai_cards": {"add": [f"c{i}" for i in range(50)]}}}})
    before = client.get(f"/api/sessions/{sid}").json()
    r = client.put(f"/api/sessions/{sid}/table", json={"items": items})
    assert (r.status_code, r.json()) == (400, {"error": message} | ({"at": at} if at else {}))
    assert client.get(f"/api/sessions/{sid}").json() == before


def test_keys_merged_one_save_at_a_time_keep_a_whole_saves_limit(client: TestClient):
    """`parts` merges keys into a stored object: saves of a few keys each must not grow it past
    the 100 values a whole save may hold (each input has a limit, answered in one line)."""
    sid = start(client, "dietrick-taking", ["Ana", "Ben", "Cleo"])
    for n in range(0, 100, 50):
        r = client.put(f"/api/sessions/{sid}/table", json={"parts": {"earlier_wins": {f"p{n + i}": 0 for i in range(50)}}})
        assert r.status_code == 200
    r = client.put(f"/api/sessions/{sid}/table", json={"parts": {"earlier_wins": {"one more": 0}}})
    assert (r.status_code, r.json()) == (400, {"error": "earlier_wins: more than 100 values", "at": ["parts", "earlier_wins"]})
    assert len(client.get(f"/api/sessions/{sid}").json()["table"]["earlier_wins"]) == 100


@pytest.mark.parametrize("game, players, extra", [
    ("dietrick-taking", ["Ana", "Ben", "Cleo"], []),
    ("dietrick-taking", ["Ana"], ["Fuzz"]),
    ("human-harvest", ["Ana", "Ben", "Cleo"], []),
])
def test_the_claimed_winner_is_picked_among_the_players_and_checked_by_the_server(client: TestClient, game: str, players: list, extra: list):
    """Before: `claimed_winner` was a text box (any words, a typo only a problem of the
    sheet). Now the players (and Fuzz, solo) to tap, several for a shared win, or "nobody";
    the sheet gets what `pnp score` reads (a name, a list, `none`; untapped: no claim),
    and a name that is no choice is refused by the server at the field, the sheet unchanged."""
    sid = start(client, game, players)
    field = {f["key"]: f for f in client.get(f"/api/sessions/{sid}").json()["form"]["table"]}["claimed_winner"]
    assert (field["kind"], field["label"], field["optional"]) == ("picks", "claimed winner", True)
    assert [c["value"] for c in field["choices"]] == players + extra + ["none"] and field["choices"][-1]["label"] == "nobody"

    def tap(add: list = [], remove: list = []):
        r = client.put(f"/api/sessions/{sid}/table", json={"items": {"claimed_winner": {"add": add, "remove": remove}}})
        return r, yaml.safe_load(client.get(f"/api/sessions/{sid}/sheet.yaml").text).get("claimed_winner")

    assert tap(["Ana"])[1] == "Ana"
    if len(players) > 1:
        assert tap(["Ben"])[1] == ["Ana", "Ben"]  # a shared win
    assert tap(["none"])[1] == "none"  # nobody won: alone
    assert tap(["Ana"])[1] == "Ana"  # a player tapped after "nobody" replaces it
    assert tap(remove=["Ana"])[1] is None  # untapped: no claim, not a claim of "no winner"
    # taps sent together (a page that was offline a moment) count in the order made
    assert tap(["Ana", "none"])[1] == "none" and tap(["none", "Ana"])[1] == "Ana"
    tap(remove=["Ana"])
    for bad in (["Zed"], ["ana"], [{"x": 1}]):
        r, kept = tap(bad)
        assert r.status_code == 400 and r.json()["at"] == ["items", "claimed_winner"] and kept is None, r.text
    assert tap(["Zed"])[0].json()["error"] == 'claimed winner: "Zed" is not offered: expected one of ' + ", ".join(players + extra + ["nobody"])
    r = client.put(f"/api/sessions/{sid}/table", json={"values": {"claimed_winner": "Zed"}})
    assert r.status_code == 400 and r.json()["at"] == ["values", "claimed_winner"], r.text
    r = client.put(f"/api/sessions/{sid}/table", json={"values": {"claimed_winner": ["Ana", "none"]}})
    assert r.status_code == 400 and r.json()["error"] == "claimed winner: nobody goes alone, not with another pick", r.text
    assert client.put(f"/api/sessions/{sid}/table", json={"values": {"claimed_winner": "Ana"}}).status_code == 200



def test_the_page_says_pnps_readings_without_the_rules_yaml_keys_that_hold_them(client: TestClient):
    """Before: a solo challenge's verdict read `(the two may share tiles: pnp's reading of
    F289/F293 (rules.yaml rulings.challenge_overlap))` at the table. The page's words drop the
    citation of the content file and its key; the report (`pnp score --json`) keeps them."""
    sheet = example("tasty-humans-solo.yaml")
    state = fill(client, start(client, "tasty-humans", [sheet["players"][0]["name"]], "published"), sheet)
    reason = state["outcome"]["report"]["solo"]["challenge"]["reason"]
    assert "(rules.yaml rulings.challenge_overlap)" in reason
    assert state["outcome"]["challenge_reason"] == reason.replace(" (rules.yaml rulings.challenge_overlap)", "")
    assert state["outcome"]["ruling"] is None


def test_every_ruling_a_game_prints_reads_without_its_file_and_key():
    """Each `says` of the shipped games' rulings, as the page shows it (forms.uncited): no
    YAML file or key left, the sentence otherwise as written."""
    from pnp.serve.forms import uncited

    texts = []
    for path in (REPO / "content").glob("*/*.yaml"):
        def walk(node):
            if isinstance(node, dict):
                for k, v in node.items():
                    if str(k).startswith("says") and isinstance(v, str):
                        texts.append(v)
                    walk(v)
            elif isinstance(node, list):
                for v in node:
                    walk(v)
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    assert len(texts) >= 5
    for text in texts:
        said = uncited(text)
        assert ".yaml" not in said and "rulings." not in said, said
        assert said.startswith(text[:text.index(" (")] if " (" in text else text), (text, said)  # the words before the citation kept
    assert uncited("fills (our ruling, rules.yaml))") == "fills (our ruling))"
    assert uncited("seat order (rules.yaml rulings.king_token_unknown); name the holder") == "seat order; name the holder"



def test_every_setting_of_every_rule_version_has_its_words(games: Games):
    """What a rule version changes is listed in the game's words (reference.yaml `settings`):
    every key any Tasty Humans rule version has, at any depth, has its line there (or null:
    said by another key), so a setting added to rules.yaml is never shown by its path."""
    from game_plugins import game_module

    form = game_module("tasty_humans", "form")
    game = games.load("tasty-humans")
    rule_set, settings = game.data["rules"], game.data["reference"].settings
    for name in rule_set.names():
        for key in form._flat(rule_set.version(name).model_dump(by_alias=True)):
            words, _ = form.setting_words(settings, key)
            assert words is not None, f"reference.yaml settings: no words for rules.yaml {key} ({name})"
    # a key with words of its own beats a pattern; `*` a step, named as printed
    assert form.setting_words(settings, "cravings.troll.points") == ("{name}'s craving: points for each", "troll")
    assert form.differences({"cravings": {"troll": {"points": 4}}}, {"cravings": {"troll": {"points": 3}}}, settings, {"troll": "Troll"}) \
        == ["Troll's craving: points for each: 4 → 3"]
    assert form.differences({"held_leader": "ignored"}, {"held_leader": "zero"}, settings) == [
        "a leader still held at the end, in the tie-break and the Balanced Diet: not one of yours: never eaten → counts as 0"]


def test_a_text_is_uncited_in_linear_time():
    """`uncited` runs on texts that hold a player's values: a long white space run was read
    again from each of its characters (quadratic)."""
    import time

    from pnp.serve.forms import uncited

    text = "Ana" + " " * 400_000 + "wins"
    started = time.perf_counter()
    assert uncited(text) == text
    assert time.perf_counter() - started < 5.0  # seconds: a runaway, not a speed (as tests/test_hostile.py)
