"""`pnp serve` and a game's plugin: the plugin's own exception is its located line (that of
`pnp score`) on the page and on the server's terminal, one game's failure hides no other
game, and a table seats only the player counts the game declares (as `pnp sheet`)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from game_plugins import edit_plugin, own_copy  # noqa: E402
from pnp.load.content import Project  # noqa: E402
from pnp.serve.app import make_app  # noqa: E402
from pnp.serve.log import Log  # noqa: E402
from pnp.serve.scoring import Games  # noqa: E402

TOKEN = "t0ken"
INIT = "plugins/dietrick_taking/__init__.py"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with its own copy of Dietrick-taking and its plugin, the working folder."""
    monkeypatch.chdir(tmp_path)
    return own_copy(tmp_path / "proj", "dietrick-taking", "dietrick_taking")


def client(root: Path) -> TestClient:
    c = TestClient(make_app(Games(Project(root)), Log(root / "log.sqlite"), TOKEN))
    assert c.get(f"/?token={TOKEN}").status_code == 200
    return c


def located(root: Path, line: int, error: str) -> str:
    return f"proj/{INIT}:{line}: plugin plugins/dietrick_taking failed: {error} (set PNP_DEBUG=1 for a traceback)"


def test_a_scorers_exception_is_its_located_problem_on_the_page_and_terminal(root: Path, capsys: pytest.CaptureFixture,
                                                                              monkeypatch: pytest.MonkeyPatch):
    line = edit_plugin(root, INIT, '"""Score a sheet (see `sheet.py` for its format) against the printed scoring cards."""', "1 // 0")
    c = client(root)
    sid = c.post("/api/sessions", json={"game": "dietrick-taking", "players": ["Ana", "Bo"]}).json()["id"]
    r = c.get(f"/api/sessions/{sid}")  # the live check scores the sheet so far
    assert r.status_code == 200, r.text
    expected = located(root, line, "ZeroDivisionError: integer division or modulo by zero")
    outcome = r.json()["outcome"]
    assert [p["message"] for p in outcome["problems"]] == [expected] and outcome["exit_code"] == 2
    assert expected in capsys.readouterr().err.splitlines()
    monkeypatch.setenv("PNP_DEBUG", "1")  # the traceback too, on the terminal only (as the line offers)
    sid = c.post("/api/sessions", json={"game": "dietrick-taking", "players": ["Cy", "Di"]}).json()["id"]  # a sheet not checked yet
    r = c.get(f"/api/sessions/{sid}")
    assert [p["message"] for p in r.json()["outcome"]["problems"]] == [expected]
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "ZeroDivisionError" in err and err.rstrip().endswith(expected)


def test_a_failing_sheet_template_is_listed_with_its_error_and_hides_no_other_game(root: Path, capsys: pytest.CaptureFixture):
    line = edit_plugin(root, INIT, "from .sheet import template", "raise KeyError('edition')")
    c = client(root)
    r = c.get("/api/games")
    assert r.status_code == 200, r.text
    listed = {g["name"]: g for g in r.json()}
    expected = located(root, line, "KeyError: 'edition'")
    # named by its title, as a game that plays is (before: by its id alone)
    assert listed["dietrick-taking"] == {"name": "dietrick-taking", "title": "Dietrick-taking", "error": expected}
    assert listed["tasty-humans"]["players"] == [1, 2, 3, 4]  # the other games still play
    r = c.post("/api/sessions", json={"game": "dietrick-taking", "players": ["Ana", "Bo"]})
    assert (r.status_code, r.json()) == (400, {"error": expected})
    assert expected in capsys.readouterr().err.splitlines()


def test_a_failing_entry_form_is_the_plugins_error(root: Path):
    line = edit_plugin(root, "plugins/dietrick_taking/form.py", "def sheet_form(game: \"GameContent\", rules: str | None, players: int) -> dict[str, Any]:",
                       "[][1]")
    r = client(root).post("/api/sessions", json={"game": "dietrick-taking", "players": ["Ana", "Bo"]})
    assert r.status_code == 400
    assert r.json()["error"].startswith(f"proj/plugins/dietrick_taking/form.py:{line}: plugin plugins/dietrick_taking failed: IndexError")


def test_a_table_seats_only_the_player_counts_the_game_declares(root: Path):
    """game.yaml's `options: players` bounds serve's tables as it bounds `pnp sheet` (the
    blank sheet itself would be made for 1 to 4)."""
    manifest = root / "content/dietrick-taking/game.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert "players: {type: int, min: 1, max: 4," in text
    manifest.write_text(text.replace("players: {type: int, min: 1, max: 4,", "players: {type: int, min: 2, max: 3,"), encoding="utf-8")
    c = client(root)
    listed = {g["name"]: g for g in c.get("/api/games").json()}
    assert listed["dietrick-taking"]["players"] == [2, 3]
    for players in (["Solo"], ["A", "B", "C", "D"]):
        r = c.post("/api/sessions", json={"game": "dietrick-taking", "players": players})
        assert r.status_code == 400 and "is played by 2, 3" in r.json()["error"], r.text
    assert c.post("/api/sessions", json={"game": "dietrick-taking", "players": ["A", "B"]}).status_code == 200


def test_an_entry_form_of_the_wrong_kind_is_the_plugins_error_at_its_def(root: Path):
    """`sheet_form` must return a dict of hints (docs/writing-games.md's plugin reference); a list is the
    plugin's error at the hook's `def` line, as `pnp score` reports a scorer's wrong value."""
    form = "plugins/dietrick_taking/form.py"
    edit_plugin(root, form, 'def sheet_form(game: "GameContent", rules: str | None, players: int) -> dict[str, Any]:', "return []")
    at = (root / form).read_text(encoding="utf-8").splitlines().index('def sheet_form(game: "GameContent", rules: str | None, players: int) -> dict[str, Any]:') + 1
    r = client(root).post("/api/sessions", json={"game": "dietrick-taking", "players": ["Ana", "Bo"]})
    assert r.status_code == 400
    assert r.json()["error"].startswith(f"proj/{form}:{at}: plugin plugins/dietrick_taking: sheet_form returned a list: expected a dict of ")


def _def_line(root: Path, file: str, start: str) -> int:
    return next(n for n, text in enumerate((root / file).read_text(encoding="utf-8").splitlines(), 1) if text.startswith(start))


def test_a_scorers_broken_contract_is_its_whole_located_line_on_the_sheet(root: Path, capsys: pytest.CaptureFixture):
    """A scorer returning a dict: the page showed the message without its file and line,
    pinned to a line of the sheet the plugin's line number happened to match."""
    edit_plugin(root, INIT, '"""Score a sheet (see `sheet.py` for its format) against the printed scoring cards."""', "return {}")
    at = _def_line(root, INIT, "def score(")
    c = client(root)
    sid = c.post("/api/sessions", json={"game": "dietrick-taking", "players": ["Ana", "Bo"]}).json()["id"]
    outcome = c.get(f"/api/sessions/{sid}").json()["outcome"]
    expected = f"proj/{INIT}:{at}: plugin plugins/dietrick_taking: score returned a dict: expected a pnp.api.ScoreReport"
    assert [(p["message"], p["at"], p["cell"]) for p in outcome["problems"]] == [(expected, [], None)]
    assert expected in capsys.readouterr().err.splitlines()


def test_a_sheet_template_returning_no_text_is_listed_with_its_error(root: Path, capsys: pytest.CaptureFixture):
    sheet = "plugins/dietrick_taking/sheet.py"
    edit_plugin(root, sheet, "has one rule set, so `options` change nothing.\"\"\"", "return []")
    listed = {g["name"]: g for g in client(root).get("/api/games").json()}
    assert "sheet_template returned a list: expected text (a str) of YAML" in listed["dietrick-taking"]["error"]
    assert "players" in listed["tasty-humans"]
    assert "dietrick-taking cannot be played" in capsys.readouterr().err


def test_a_game_whose_check_raises_hides_no_other_game(root: Path):
    """An exception in a content check (the game does not load): the start page answered 400
    for every game."""
    checks = "plugins/dietrick_taking/checks.py"
    line = edit_plugin(root, checks, 'deck: DeckFile = game.data["deck"]', "1 // 0")
    r = client(root).get("/api/games")
    assert r.status_code == 200, r.text
    listed = {g["name"]: g for g in r.json()}
    assert listed["dietrick-taking"]["error"] == f"proj/{checks}:{line}: plugin plugins/dietrick_taking failed: ZeroDivisionError: " \
                                                 "integer division or modulo by zero (set PNP_DEBUG=1 for a traceback)"
    assert listed["dietrick-taking"]["title"] == "Dietrick-taking"  # game.yaml's, read alone: the game does not load
    assert "players" in listed["tasty-humans"]


def test_a_report_that_cannot_be_drawn_is_not_logged(root: Path):
    """The finished table's report is drawn as `pnp score` prints it before the game is logged:
    a `render` that raises was logged anyway (with a 400 to the page)."""
    report = "plugins/dietrick_taking/report.py"
    line = edit_plugin(root, report, "def render(self, console: Console) -> None:", "raise ValueError('no drawing today')")
    c = client(root)
    sid = c.post("/api/sessions", json={"game": "dietrick-taking", "players": ["Ana", "Ben", "Cleo"]}).json()["id"]
    c.put(f"/api/sessions/{sid}/table", json={"values": {"scoring_order": [2, 1, 3]}})
    for seat, (yellow, blue) in enumerate([(7, 2), (4, 11), (13, 2)]):  # examples/dietrick-taking-3p.yaml
        r = c.put(f"/api/sessions/{sid}/boards/{seat}", json={"values": {"yellow": yellow, "blue": blue}, "done": True})
    state = r.json()
    assert r.status_code == 200 and not state["finished"] and state["logged"] is None
    assert [p["message"] for p in state["outcome"]["problems"]] == [
        f"proj/{report}:{line}: plugin plugins/dietrick_taking failed: ValueError: no drawing today (set PNP_DEBUG=1 for a traceback)"]
    assert c.get("/api/stats").json() == []


def test_a_report_whose_mismatch_places_are_of_the_wrong_shape_is_the_plugins_error(root: Path, capsys: pytest.CaptureFixture):
    """serve reads `mismatch_places()` (the command line does not): a list of bare paths was a
    500 internal error."""
    report = "plugins/dietrick_taking/report.py"
    edit_plugin(root, report, "def mismatch_places(self) -> list[tuple[tuple[Any, ...], str]]:", "return [('players', 0)]")
    at = _def_line(root, report, "    def mismatch_places(")
    c = client(root)
    sid = c.post("/api/sessions", json={"game": "dietrick-taking", "players": ["Ana", "Ben", "Cleo"]}).json()["id"]
    c.put(f"/api/sessions/{sid}/table", json={"values": {"scoring_order": [2, 1, 3]}})
    for seat, (yellow, blue) in enumerate([(7, 2), (4, 11), (13, 2)]):  # examples/dietrick-taking-3p.yaml: a finished game
        r = c.put(f"/api/sessions/{sid}/boards/{seat}", json={"values": {"yellow": yellow, "blue": blue}, "done": False})
    assert r.status_code == 200, r.text
    (problem,) = r.json()["outcome"]["problems"]
    assert problem["message"].startswith(f"proj/{report}:{at}: plugin plugins/dietrick_taking: mismatch_places returned a list: "
                                         "expected a list of (path in the sheet, message) pairs"), problem
    assert problem["message"] in capsys.readouterr().err


def test_an_entry_form_hint_of_the_wrong_shape_shows_on_the_start_page_and_terminal(root: Path, capsys: pytest.CaptureFixture):
    """Choices as plain strings drew "undefined" on the page; the error showed only once a
    table was started, and never in the terminal."""
    form = "plugins/dietrick_taking/form.py"
    edit_plugin(root, form, 'def sheet_form(game: "GameContent", rules: str | None, players: int) -> dict[str, Any]:',
                "return {'player': {'yellow': {'kind': 'choice', 'choices': ['low', 'high']}}}")
    c = client(root)
    listed = {g["name"]: g for g in c.get("/api/games").json()}
    assert "sheet_form returned a dict: expected a dict of " in listed["dietrick-taking"]["error"]
    assert "players" in listed["tasty-humans"]
    capsys.readouterr()
    r = c.post("/api/sessions", json={"game": "dietrick-taking", "players": ["Ana", "Bo"]})
    assert r.status_code == 400 and "sheet_form returned a dict" in r.json()["error"]
    assert f"pnp serve: {r.json()['error']}" in capsys.readouterr().err.splitlines()


def test_a_blank_sheet_without_players_is_refused_when_the_table_starts(root: Path):
    """The plugin's sheet_template writes YAML without `players:` (`pnp sheet --template`
    prints it as it is): a table cannot seat anyone on it, so serve says so in one line."""
    edit_plugin(root, INIT, "from .sheet import template", "return 'game: dietrick-taking\\n'")
    r = client(root).post("/api/sessions", json={"game": "dietrick-taking", "players": ["Ana", "Bo"]})
    assert (r.status_code, r.json()) == (400, {"error": "game 'dietrick-taking': its blank sheet has no players list"})


def _a_finished_table(root: Path):
    """A client and the answer to the last board of a three-player Dietrick-taking table
    marked done (the game then scored)."""
    c = client(root)
    sid = c.post("/api/sessions", json={"game": "dietrick-taking", "players": ["Ana", "Ben", "Cleo"]}).json()["id"]
    c.put(f"/api/sessions/{sid}/table", json={"values": {"scoring_order": [2, 1, 3]}})
    for seat, (yellow, blue) in enumerate([(7, 2), (4, 11), (13, 2)]):
        r = c.put(f"/api/sessions/{sid}/boards/{seat}", json={"values": {"yellow": yellow, "blue": blue}, "done": True})
    return c, r


@pytest.mark.parametrize("file, after", [
    (INIT, '"""Score a sheet (see `sheet.py` for its format) against the printed scoring cards."""'),
    ("plugins/dietrick_taking/report.py", "def render(self, console: Console) -> None:"),
], ids=["score", "render"])
def test_a_plugins_sys_exit_is_its_located_problem_not_a_500(root: Path, file: str, after: str):
    """`sys.exit()` in a plugin's code answered 500 with uvicorn's traceback."""
    line = edit_plugin(root, file, after, "raise SystemExit(3)")
    c, r = _a_finished_table(root)
    assert r.status_code == 200, r.text
    assert [p["message"] for p in r.json()["outcome"]["problems"]] == [
        f"proj/{file}:{line}: plugin plugins/dietrick_taking failed: sys.exit(3) (SystemExit): a plugin must not end pnp; "
        "raise PnpError for input it cannot use (set PNP_DEBUG=1 for a traceback)"]
    assert c.get("/api/stats").json() == []


def test_a_plugins_own_base_exception_is_its_located_problem_not_a_traceback(root: Path):
    """A BaseException that is no Exception, raised in the plugin's render, escaped the
    request's handler to uvicorn (a traceback on the host's terminal, no answer)."""
    file, after = "plugins/dietrick_taking/report.py", "def render(self, console: Console) -> None:"
    line = edit_plugin(root, file, after, "raise GeneratorExit()")
    _, r = _a_finished_table(root)
    said = r.text
    assert f"{file}:{line}:" in said and "GeneratorExit" in said, said
