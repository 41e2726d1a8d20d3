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


@pytest.mark.parametrize("name", ["tasty-humans-2p.yaml", "tasty-humans-3p-leader-phase.yaml", "dietrick-taking-3p.yaml"])
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
    assert "cravings.troll.points: 4 → 3" in differences  # rules.yaml: F317 4, 0.2.8 3
    assert 'tie_break: ["fewer-damage", "leaders-ascending", "shared"] → ["fewer-damage", "fewer-empty", "seat-from-king"]' in differences
    assert "solo.monster_challenges: true → false" in differences and "leader_space: Leader space → Grip" in differences
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


@pytest.mark.parametrize("items, message", [
    ({"solo": {"level": {"add": [1]}}}, "items: solo: level is not a list of picks"),
    ({"ending": {"add": ["round"]}}, "items: ending is not a list of picks"),
    ({"solo": {"ai_cards": {"add": "adv-01"}}}, 'items: solo: ai_cards: expected {"add": [values], "remove": [values]}, not {"add": "adv-01"}'),
    ({"solo": {"ai_cards": {"put": ["adv-01"]}}}, 'items: solo: ai_cards: expected {"add": [values], "remove": [values]}, not {"put": ["adv-01"]}'),
    ({"solo": {"ai_cards": {"add": [["adv-01"]]}}}, "solo: nested too deep"),
    ({"ai_cards": {"add": [{}]}}, "unknown field 'ai_cards': expected one of ending, solo"),
    ({"solo": {"bogus": {"add": []}}}, "unknown field 'bogus': expected one of ai_cards, challenge, level"),
    ({"solo": {"ai_cards": {"add": ["x" * 2001]}}}, "solo: longer than 2000 characters"),
    ({"solo": {"ai_cards": {"add": [f"c{i}" for i in range(101)]}}}, "solo: more than 100 values"),
    ({"solo": {"ai_cards": {"add": [f"c{i}" for i in range(50, 101)]}}}, "solo: ai_cards: more than 100 values"),  # merged
    ([], 'items: expected an object of lists of picks, each {"add": [...], "remove": [...]}'),
])
def test_a_bad_toggle_is_one_line_and_changes_nothing(client: TestClient, items, message: str):
    """The checks of a whole save, the merged list's too."""
    sid = start(client, "tasty-humans", ["Sam"], "published")
    client.put(f"/api/sessions/{sid}/table", json={"items": {"solo": {"ai_cards": {"add": [f"c{i}" for i in range(50)]}}}})
    before = client.get(f"/api/sessions/{sid}").json()
    r = client.put(f"/api/sessions/{sid}/table", json={"items": items})
    assert (r.status_code, r.json()["error"]) == (400, message)
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
