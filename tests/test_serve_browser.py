"""`pnp serve` in a real browser: Debian's Chromium, driven by Playwright at a phone's
width (360 px), two phones at once. A 2-player Tasty Humans game and a 3-player
Dietrick-taking game are entered by taps; the totals and winner on the page are those of
`pnp score` on the exported sheets; an impossible board shows its error at its cell; a
request without the token is refused; the log survives a restart of the server."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from typer.testing import CliRunner  # noqa: E402

from pnp.cli import app as cli  # noqa: E402
from pnp.load.content import Project  # noqa: E402
from pnp.serve.app import make_app  # noqa: E402
from pnp.serve.log import Log  # noqa: E402
from pnp.serve.scoring import Games  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 360, "height": 800}
WAIT = 15_000  # ms for anything the page shows after a request


@pytest.fixture(scope="module")
def chromium() -> str:
    if os.path.exists(CHROMIUM):
        return CHROMIUM
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        pytest.fail("chromium is required under CI (.ci/run installs it with apt-get)")
    pytest.skip("chromium is not installed (apt-get install chromium); CI runs this test")


class Server:
    """uvicorn serving the app on a free local port, in a thread."""

    def __init__(self, db: Path, token: str, wrap: Any = None, root: Path = REPO):
        import uvicorn

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.token = token
        app = make_app(Games(Project(root)), Log(db), token)
        app = wrap(app) if wrap else app
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def url(self, fragment: str = "", token: bool = True) -> str:
        return f"http://127.0.0.1:{self.port}/" + (f"?token={self.token}" if token else "") + fragment

    def path(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}/{path}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield b
        b.close()


def phone(browser: Any) -> Any:
    """A page in its own context: another phone, with its own cookies."""
    return browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True).new_page()


def example(name: str) -> dict:
    return yaml.safe_load((REPO / "examples" / name).read_text(encoding="utf-8"))


def start_game(page: Any, server: Server, game: str, names: list[str], rules: str | None = None) -> str:
    page.goto(server.url())
    page.select_option("#game", game)
    if rules:
        page.select_option("#rules", rules)
    page.select_option("#count", str(len(names)))
    for i, name in enumerate(names):
        page.fill(f"#name-{i}", name)
    page.click("#start")
    page.wait_for_url("**#/s/*", timeout=WAIT)
    return page.url.rsplit("#/s/", 1)[1]


def open_board(page: Any, server: Server, sid: str, seat: int, first: bool) -> None:
    page.goto(server.url(f"#/s/{sid}/p/{seat}", token=first))
    page.wait_for_selector("#board", timeout=WAIT)


def settled(page: Any) -> None:
    """Every edit on the page is sent and answered (the page says so)."""
    page.wait_for_selector("html[data-sync='saved']", state="attached", timeout=WAIT)
    assert page.inner_text("#save-state") == "Every change is saved"


def tap(page: Any, selector: str, check: bool = False) -> None:
    """A tap once the page is settled: a save answered during a tap can add a problem line
    above the target, and the tap would land on what moved under it."""
    settled(page)
    (page.check if check else page.click)(selector)


def tap_cell(page: Any, row: int, col: int, symbol: str) -> None:
    tap(page, f"#p-stomach .cell[data-row='{row}'][data-col='{col}']")
    tap(page, f"#p-stomach ~ .palette button[data-symbol='{symbol}']")


def stomach(board: dict) -> list[tuple[int, int, str]]:
    rows = [r.split() for r in board["stomach"].splitlines() if r.strip()]
    return [(r + 1, c + 1, s) for r, row in enumerate(rows) for c, s in enumerate(row) if s != "."]


LEADER_TITLES = {l["id"]: l["title"] for l in yaml.safe_load((REPO / "content/tasty-humans/leaders.yaml").read_text(encoding="utf-8"))["leaders"]}


MONSTER_NAMES = {m["id"]: m["name"] for m in yaml.safe_load((REPO / "content/tasty-humans/monsters.yaml").read_text(encoding="utf-8"))["monsters"]}


def tasty_board(page: Any, board: dict) -> list:
    """The taps of one board, as steps to interleave with another phone's."""
    steps: list = []
    monster_index = page.eval_on_selector("#p-monster", f"s => [...s.options].findIndex(o => o.textContent.toLowerCase().replace(/ /g, '-') === {json.dumps(board['monster'])})")
    assert monster_index > 0, board["monster"]
    steps.append(lambda: page.select_option("#p-monster", index=monster_index))
    if board.get("king"):
        steps.append(lambda: tap(page, "#p-king", check=True))
    for slot, leader in board["leaders"].items():
        steps.append(lambda slot=slot, leader=leader: page.select_option(f"#p-leaders select[data-slot='{slot}']", leader))
    if board.get("held"):
        # the leader by its tile's printed title, as the list shows it
        steps.append(lambda: page.select_option("#p-held", label=LEADER_TITLES[board["held"]]))
    for row, col, symbol in stomach(board):
        steps.append(lambda row=row, col=col, symbol=symbol: tap_cell(page, row, col, symbol))
    if board.get("claimed") is not None:
        steps.append(lambda: page.fill("#p-claimed", str(board["claimed"])))
    return steps


def interleave(*lists: list) -> None:
    """Two phones at once: one tap on each in turn."""
    for i in range(max(len(l) for l in lists)):
        for steps in lists:
            if i < len(steps):
                steps[i]()


def until(page: Any, script: str) -> None:
    """Poll a script in the page until it is true. Not `wait_for_function`: its polling
    evaluates a string, which the page's content security policy refuses."""
    deadline = time.monotonic() + WAIT / 1000
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"still false after {WAIT} ms: {script}"
        page.wait_for_timeout(100)


def complete(page: Any) -> None:
    tap(page, "#done", check=True)


def finish(pages: list) -> None:
    for page in pages:
        complete(page)
    for page in pages:
        try:
            page.wait_for_selector("#finished", timeout=WAIT)
        except sync_api.TimeoutError:
            raise AssertionError(f"the game did not finish on {page.url}: {diagnosis(page)}") from None


def diagnosis(page: Any) -> str:
    """What the page shows and what the server holds, for a game that did not finish."""
    sid = page.url.split("#/s/", 1)[1].split("/", 1)[0]
    state = page.request.get(page.url.split("#", 1)[0].split("?", 1)[0] + f"api/sessions/{sid}").json()
    return json.dumps({"status": page.inner_text("#status"), "problems": page.eval_on_selector_all(".problems, .problem", "es => es.map(e => e.innerText)"),
                       "done": state.get("done"), "finished": state.get("finished"), "outcome": state.get("outcome"), "boards": state.get("boards")})[:6000]


def scored(page: Any, server: Server, sid: str, tmp_path: Path) -> dict:
    """`pnp score --json` of the sheet the page exports."""
    response = page.request.get(server.path(f"api/sessions/{sid}/sheet.yaml"))
    assert response.ok
    path = tmp_path / f"{sid}.yaml"
    path.write_text(response.text(), encoding="utf-8")
    result = CliRunner().invoke(cli, ["score", str(path), "--json", "--project", str(REPO)])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def shown(page: Any) -> tuple[dict[str, str], str]:
    """The totals and the winner line the page shows."""
    totals = page.eval_on_selector_all("#results h2[data-score]", "hs => Object.fromEntries(hs.map(h => [h.dataset.score, h.dataset.total]))")
    return totals, page.inner_text("#winner")


def test_two_phones_score_a_tasty_humans_game_and_a_dietrick_taking_game(browser: Any, tmp_path: Path):
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        ana, ben = phone(browser), phone(browser)

        # Tasty Humans, 2 players: the host starts it on Ana's phone; both enter their boards at once
        sheet = example("tasty-humans-2p.yaml")
        sid = start_game(ana, server, "tasty-humans", [p["name"] for p in sheet["players"]], "published")
        ana.wait_for_selector("#t-ending", timeout=WAIT)
        ana.select_option("#t-ending", index=1)  # round
        tap(ana, "text=A code to scan for each board")  # one QR code per board, drawn by pnp
        until(ana, "[...document.querySelectorAll('figure.qr img')].filter(i => i.complete && i.naturalWidth > 0).length === 2")
        open_board(ana, server, sid, 0, first=False)
        open_board(ben, server, sid, 1, first=True)
        assert ana.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # one column, no sideways scrolling
        interleave(tasty_board(ana, sheet["players"][0]), tasty_board(ben, sheet["players"][1]))

        # an impossible board: a hole under a tile shows its error at that cell, in the CLI's words
        tap_cell(ana, 2, 1, ".")
        # the palette names each digit's leader as chosen above
        assert ana.inner_text("#p-stomach ~ .palette button[data-symbol='1']").split() == ["1", "1:", "Hand", "Line"]
        ana.wait_for_selector("#p-stomach .cell.bad[data-row='2'][data-col='1']", timeout=WAIT)
        assert ana.locator("#p-stomach .cell.bad").count() == 1
        problem = ana.inner_text(".field[data-key='stomach'] .problems")
        assert "Ana, row 2 column 1: empty cell below a tile" in problem
        tap_cell(ana, 2, 1, "A")
        ana.wait_for_selector("#p-stomach .cell.bad", state="detached", timeout=WAIT)

        finish([ana, ben])
        report = scored(ana, server, sid, tmp_path)
        for page in (ana, ben):
            totals, winner = shown(page)
            assert totals == {p["name"]: str(p["total"]) for p in report["players"]}
            assert winner == f"Winner: {' and '.join(report['winners'])}"
        assert report["winners"] == ["Ana"] and totals == {"Ana": "42", "Ben": "28"}
        if os.environ.get("PNP_SERVE_SCREENSHOT"):  # the README's picture: `PNP_SERVE_SCREENSHOT=docs/serve-board.png pytest ...`
            ben.click("#p-stomach .cell[data-row='1'][data-col='1']")  # opens the palette; changes nothing
            ben.eval_on_selector(".field[data-key='stomach']", "e => e.scrollIntoView()")
            ben.screenshot(path=os.environ["PNP_SERVE_SCREENSHOT"], full_page=False)

        # Dietrick-taking, 3 players: the scoring order on the host page, boards on two phones
        sheet = example("dietrick-taking-3p.yaml")
        sid = start_game(ana, server, "dietrick-taking", [p["name"] for p in sheet["players"]])
        settled(ana)
        for card in sheet["scoring_order"]:  # one order: not saved (nor settled) until its last card
            ana.click(f"#t-scoring_order button[data-value='{card}']")
        settled(ana)
        open_board(ana, server, sid, 0, first=False)
        open_board(ben, server, sid, 1, first=False)

        def markers(page: Any, board: dict) -> list:
            return [lambda: tap(page, f"#p-yellow button[data-value='{board['yellow']}']"),
                    lambda: tap(page, f"#p-blue button[data-value='{board['blue']}']")]

        interleave(markers(ana, sheet["players"][0]), markers(ben, sheet["players"][1]))
        complete(ana)
        open_board(ana, server, sid, 2, first=False)
        interleave(markers(ana, sheet["players"][2]))
        finish([ana, ben])
        report = scored(ana, server, sid, tmp_path)
        totals, winner = shown(ana)
        assert totals == {p["name"]: str(p["difference"]) for p in report["players"]}
        assert winner == f"Winner: {' and '.join(report['winners'])}"
    finally:
        server.stop()

    # a restart keeps every game: a new server (and token) on the same log lists both, logged
    server = Server(tmp_path / "log.sqlite", "another-token")
    try:
        stranger = phone(browser)
        assert stranger.goto(server.url(token=False)).status == 403
        assert stranger.goto(server.path("api/games")).status == 403
        assert "token" in stranger.inner_text("body")
        stranger.goto(server.url())
        stranger.wait_for_selector("text=Games at this table", timeout=WAIT)
        listed = stranger.inner_text("section:has(h2:text('Games at this table'))")
        assert listed.count("(logged)") == 2
        # the statistics page, with what pnp simulate predicts beside the table's results
        stranger.goto(server.url("#/stats"))
        dietrick = stranger.locator("section", has_text="dietrick-taking, 3 players: 1 game")
        dietrick.locator("button.predict").click()
        assert "Win rate by seat: seat 1:" in dietrick.locator(".prediction").inner_text(timeout=WAIT)
        assert "Wins by seat: seat 1: 0, seat 2: 1, seat 3: 0" in dietrick.inner_text()  # Ben, seat 2, won
    finally:
        server.stop()


def test_a_028_host_picks_who_holds_the_king_token_from_the_players(browser: Any, tmp_path: Path):
    """0.2.8 counts its last tie-break from the King token (line 215): the host's page taps
    its holder among the table's players, and the exported sheet says so (`king_token:`)."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        host = phone(browser)
        sid = start_game(host, server, "tasty-humans", ["Pia", "Quin", "Rex"], "0.2.8")
        host.wait_for_selector("#t-king_token", timeout=WAIT)
        assert host.eval_on_selector("#t-king_token", "s => [...s.options].map(o => o.textContent)") == ["—", "Pia", "Quin", "Rex"]
        host.select_option("#t-king_token", label="Rex")
        host.select_option("#t-ending", label="in the Leader Phase")
        settled(host)
        sheet = yaml.safe_load(host.request.get(server.path(f"api/sessions/{sid}/sheet.yaml")).text())
        assert (sheet.get("king_token"), sheet.get("ending")) == ("Rex", "leader-phase")
    finally:
        server.stop()


def test_the_ais_cards_are_tapped_from_the_cards_names(browser: Any, tmp_path: Path):
    """The A.I.'s adventurers are picked from the names printed on the cards (with their
    class), not typed: a tap takes one in, a second tap out again; the sheet holds their ids."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        host = phone(browser)
        sid = start_game(host, server, "tasty-humans", ["Sam"], "published")
        host.wait_for_selector("#t-solo-ai_cards", timeout=WAIT)
        assert host.locator("#t-solo-ai_cards button").count() == 50
        assert host.inner_text("#t-solo-ai_cards button[data-value='adv-03']") == "Dame Oswin of the Ford (Swordsman)"
        for card in ("adv-37", "adv-03", "adv-09", "adv-37"):  # adv-37 in, then out again
            tap(host, f"#t-solo-ai_cards button[data-value='{card}']")
        assert host.get_attribute("#t-solo-ai_cards button[data-value='adv-03']", "aria-pressed") == "true"
        assert host.get_attribute("#t-solo-ai_cards button[data-value='adv-37']", "aria-pressed") == "false"
        assert host.inner_text("#t-solo-ai_cards .picked-count") == "2 chosen"
        assert host.inner_text("#t-solo-ai_cards .help") == ": Dame Oswin of the Ford (Swordsman), Squire Nob (Swordsman)"
        host.fill("#t-solo-ai_cards input[type=search]", "dame")  # a long list: part of a name finds the card
        assert [b.get_attribute("data-value") for b in host.locator("#t-solo-ai_cards button:visible").all()] == ["adv-03"]
        host.fill("#t-solo-ai_cards input[type=search]", "")
        assert host.locator("#t-solo-ai_cards button:visible").count() == 50
        assert host.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the names wrap, no sideways scrolling
        settled(host)
        sheet = yaml.safe_load(host.request.get(server.path(f"api/sessions/{sid}/sheet.yaml")).text())
        assert sorted(sheet["solo"]["ai_cards"]) == ["adv-03", "adv-09"]
    finally:
        server.stop()


class FirstTableSaveSlow:
    """ASGI middleware: the first save of the table's fields waits before it is handled, so
    a second save sent while it is under way would be handled first."""

    def __init__(self, app: Any):
        self.app, self.slowed = app, False

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "PUT" and scope["path"].endswith("/table") and not self.slowed:
            self.slowed = True
            await asyncio.sleep(1.5)
        await self.app(scope, receive, send)


def test_a_page_sends_its_saves_in_order(browser: Any, tmp_path: Path):
    """A host who changes their mind (the game ended on a round, no: in the Leader Phase)
    sends the field twice; the second save must not land before the first, or the table
    keeps the answer taken back. The page sends one save at a time and says "Saving…"
    until the last is answered."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table", wrap=FirstTableSaveSlow)
    try:
        host = phone(browser)
        sid = start_game(host, server, "tasty-humans", ["Ana", "Ben"], "published")
        host.select_option("#t-ending", label="after a round")
        host.select_option("#t-ending", label="in the Leader Phase")
        assert host.inner_text("#save-state") == "Saving…"  # the first save is held for 1.5 s
        settled(host)
        sheet = yaml.safe_load(host.request.get(server.path(f"api/sessions/{sid}/sheet.yaml")).text())
        assert sheet["ending"] == "leader-phase"
    finally:
        server.stop()


class TableSavesFail:
    """ASGI middleware: while `down`, every save of the table's fields is answered 503 (a
    server that went away for a moment) without reaching the app."""

    def __init__(self, app: Any):
        self.app, self.down = app, True

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "PUT" and scope["path"].endswith("/table") and self.down:
            await send({"type": "http.response.start", "status": 503, "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": b'{"error": "the server is restarting"}'})
            return
        await self.app(scope, receive, send)


def test_a_save_that_failed_stays_marked_until_it_is_itself_saved(browser: Any, tmp_path: Path):
    """A change the server did not take is not "saved", and a later change that is saved
    does not make it so: it stays marked at its field and is sent again (with the next
    change, or once a poll finds the server back) until the server has it."""
    down: list = []
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table", wrap=lambda app: down.append(TableSavesFail(app)) or down[0])
    try:
        host = phone(browser)
        sid = start_game(host, server, "tasty-humans", ["Pia", "Quin", "Rex"], "0.2.8")
        host.select_option("#t-ending", label="after a round")
        host.wait_for_selector("html[data-sync='failed']", state="attached", timeout=WAIT)
        assert host.inner_text("#save-state") == "1 change not saved yet (marked): sent again once the server answers"
        assert "the server is restarting" in host.inner_text(".problem[role=alert]")
        assert host.locator(".field.unsaved").evaluate_all("fs => fs.map(f => f.dataset.key)") == ["ending"]
        down[0].down = False  # back: the next change carries the one that failed
        host.select_option("#t-king_token", label="Rex")
        settled(host)
        assert host.locator(".unsaved").count() == 0 and host.locator(".problem[role=alert]").count() == 0
        sheet = yaml.safe_load(host.request.get(server.path(f"api/sessions/{sid}/sheet.yaml")).text())
        assert (sheet.get("ending"), sheet.get("king_token")) == ("round", "Rex")
    finally:
        server.stop()


def test_one_board_open_on_two_pages_keeps_what_each_entered(browser: Any, tmp_path: Path):
    """Ana's board on her phone and on the host's laptop ("Ana's board"): a tap sends its cell
    only, so the laptop's tap keeps the phone's cells; polling brings the phone's cells and
    its "complete" into the laptop's page; and a field saved on the laptop does not untick
    the board the phone marked complete."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        laptop, ana = phone(browser), phone(browser)
        sid = start_game(laptop, server, "tasty-humans", ["Ana", "Ben"], "published")
        open_board(laptop, server, sid, 0, first=False)
        open_board(ana, server, sid, 0, first=True)
        for col, symbol in enumerate("A4B", start=1):
            tap_cell(ana, 6, col, symbol)
        tap_cell(laptop, 5, 1, "H")  # the laptop's page was loaded before the phone's taps
        settled(ana), settled(laptop)
        board = laptop.request.get(server.path(f"api/sessions/{sid}")).json()["boards"][0]
        assert stomach(board) == [(5, 1, "H"), (6, 1, "A"), (6, 2, "4"), (6, 3, "B")]
        until(laptop, "document.querySelector(\"#p-stomach .cell[data-row='6'][data-col='3']\").dataset.symbol === 'B'")
        until(ana, "document.querySelector(\"#p-stomach .cell[data-row='5'][data-col='1']\").dataset.symbol === 'H'")
        complete(ana)
        settled(ana)
        laptop.fill("#p-claimed", "42")
        settled(laptop)
        state = laptop.request.get(server.path(f"api/sessions/{sid}")).json()
        assert state["done"] == [True, False] and state["boards"][0]["claimed"] == 42
        until(laptop, "document.getElementById('done').checked")
        until(ana, "document.getElementById('p-claimed').value === '42'")
    finally:
        server.stop()


def saves(page: Any) -> list:
    """The bodies of the page's saves from now on."""
    sent: list = []
    page.on("request", lambda r: sent.append(r.post_data_json) if r.method == "PUT" else None)
    return sent


def test_the_host_enters_a_long_games_earlier_wins_and_a_claimed_winner(browser: Any, tmp_path: Path):
    """The optional fields of the table (Dietrick-taking's Long Game `earlier_wins`, a
    `claimed_winner`) are on the host's page, as on the printed --table sheet; one left
    empty stays out of the sheet. The earlier wins are a number box per player, labelled
    with the name, each saved as its player's key: the host's laptop and phone both land,
    and an emptied box takes its player out (all emptied: a single game again)."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        host, other = phone(browser), phone(browser)
        sid = start_game(host, server, "dietrick-taking", ["Ana", "Ben", "Cleo"])
        other.goto(server.url(f"#/s/{sid}"))
        for page in (host, other):
            page.wait_for_selector("#t-earlier_wins input[data-name='Ana']", timeout=WAIT)
        assert "(optional)" in host.inner_text(".field[data-key='claimed_winner'] > label")
        assert host.locator("#t-earlier_wins label").all_inner_texts() == ["Ana", "Ben", "Cleo"]
        assert host.get_attribute("#t-earlier_wins input[data-name='Ana']", "max") == "1"  # the Long Game ends at 2 wins
        sent = saves(host)
        host.fill("#t-earlier_wins input[data-name='Ana']", "1")
        other.fill("#t-earlier_wins input[data-name='Ben']", "0")  # a page that has no Ana yet
        # the claimed winner: the players' names (and "nobody") to tap, not a text box
        assert host.locator("#t-claimed_winner button").all_inner_texts() == ["Ana", "Ben", "Cleo", "nobody"]
        tap(host, "#t-claimed_winner button[data-value='Ben']")
        settled(host), settled(other)
        assert sent[0] == {"values": {}, "parts": {"earlier_wins": {"Ana": 1}}}
        sheet = yaml.safe_load(host.request.get(server.path(f"api/sessions/{sid}/sheet.yaml")).text())
        assert (sheet.get("earlier_wins"), sheet.get("claimed_winner")) == ({"Ana": 1, "Ben": 0}, "Ben")
        until(other, "document.querySelector(\"#t-earlier_wins input[data-name='Ana']\").value === '1'")
        tap(host, "#t-claimed_winner button[data-value='none']")  # "nobody" takes Ben's place
        assert host.locator("#t-claimed_winner button.on").all_inner_texts() == ["nobody"]
        settled(host)
        assert yaml.safe_load(host.request.get(server.path(f"api/sessions/{sid}/sheet.yaml")).text())["claimed_winner"] == "none"
        tap(host, "#t-claimed_winner button[data-value='none']")  # untapped: no claim, not a claim of "no winner"
        host.fill("#t-earlier_wins input[data-name='Ana']", "")
        settled(host)
        sheet = yaml.safe_load(host.request.get(server.path(f"api/sessions/{sid}/sheet.yaml")).text())
        assert "claimed_winner" not in sheet and sheet["earlier_wins"] == {"Ben": 0}
        until(host, "document.querySelector(\"#t-earlier_wins input[data-name='Ben']\").value === '0'")
        host.fill("#t-earlier_wins input[data-name='Ben']", "")
        settled(host)
        assert "earlier_wins" not in yaml.safe_load(host.request.get(server.path(f"api/sessions/{sid}/sheet.yaml")).text())
    finally:
        server.stop()


def test_two_pages_tapping_the_ais_cards_at_once_keep_both_taps(browser: Any, tmp_path: Path):
    """The solo A.I.'s cards tapped on the host's laptop and phone at once: a tap sends that
    card only (added or removed), so neither page's tap undoes the other's; polling shows
    each page the other's."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        laptop, other = phone(browser), phone(browser)
        sid = start_game(laptop, server, "tasty-humans", ["Sam"], "published")
        other.goto(server.url(f"#/s/{sid}"))
        for page in (laptop, other):
            page.wait_for_selector("#t-solo-ai_cards", timeout=WAIT)
        sent = saves(other)
        laptop.click("#t-solo-ai_cards button[data-value='adv-03']")
        other.click("#t-solo-ai_cards button[data-value='adv-09']")  # its page has no adv-03 yet
        settled(laptop), settled(other)
        assert sorted(laptop.request.get(server.path(f"api/sessions/{sid}")).json()["table"]["solo"]["ai_cards"]) == ["adv-03", "adv-09"]
        assert sent == [{"values": {}, "items": {"solo": {"ai_cards": {"add": ["adv-09"]}}}}]
        for page in (laptop, other):
            until(page, "document.querySelector(\"#t-solo-ai_cards .picked-count\").textContent === '2 chosen'")
        tap(other, "#t-solo-ai_cards button[data-value='adv-03']")  # out again, from the other page
        settled(other)
        until(laptop, "document.querySelector(\"#t-solo-ai_cards button[data-value='adv-03']\").getAttribute('aria-pressed') === 'false'")
        assert laptop.request.get(server.path(f"api/sessions/{sid}")).json()["table"]["solo"]["ai_cards"] == ["adv-09"]
    finally:
        server.stop()


def test_a_game_whose_plugin_fails_is_shown_with_its_error_and_the_others_offered(browser: Any, tmp_path: Path,
                                                                                  monkeypatch: pytest.MonkeyPatch):
    """A sheet template that raises: the start page names the plugin's line, and the
    other games can still be started."""
    from game_plugins import edit_plugin, own_copy

    monkeypatch.chdir(tmp_path)
    root = own_copy(tmp_path / "proj", "dietrick-taking", "dietrick_taking")
    line = edit_plugin(root, "plugins/dietrick_taking/__init__.py", "from .sheet import template", "raise KeyError('edition')")
    server = Server(tmp_path / "log.sqlite", "tok", root=root)
    try:
        page = phone(browser)
        page.goto(server.url())
        problem = page.wait_for_selector("div.problem", timeout=WAIT).inner_text()
        # by the game's title (before: its id, dietrick-taking)
        assert problem == (f"Dietrick-taking cannot be played: proj/plugins/dietrick_taking/__init__.py:{line}: plugin "
                           "plugins/dietrick_taking failed: KeyError: 'edition' (set PNP_DEBUG=1 for a traceback)")
        offered = page.eval_on_selector_all("#game option", "options => options.map(o => o.value)")
        assert "dietrick-taking" not in offered and "tasty-humans" in offered
        start_game(page, server, "tasty-humans", ["Ana", "Bo"])
    finally:
        server.stop()


def test_a_problem_line_above_the_grid_does_not_move_the_cell_under_the_finger(browser: Any, tmp_path: Path):
    """A save's answer adds a problem line at a field above the stomach grid (here: a leader
    chosen for digit 5, which the stomach does not show). The page scrolls by as much, so the
    cell last tapped stays where the finger is: before, the grid moved down under it in a
    browser without scroll anchoring."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        page = phone(browser)
        sid = start_game(page, server, "tasty-humans", ["Ana", "Ben"], "published")
        open_board(page, server, sid, 0, first=False)
        # as Safari (iPhones), which has no scroll anchoring: Chromium's own would hide the move
        page.evaluate("for (const e of [document.documentElement, document.body]) e.style.overflowAnchor = 'none'")
        cell = "#p-stomach .cell[data-row='1'][data-col='1']"
        # the leaders and the grid's top row both on the screen: the line appears in view, above the finger
        page.eval_on_selector(".field[data-key='leaders']", "e => e.scrollIntoView()")
        tap_cell(page, 1, 1, "H")
        settled(page)
        before = page.locator(cell).bounding_box()["y"]
        assert 0 < before < PHONE["height"]
        lines = page.locator(".field[data-key='leaders'] .problem").count()
        page.select_option("#p-leaders select[data-slot='5']", "surround-majority")
        settled(page)
        assert page.locator(".field[data-key='leaders'] .problem").count() > lines  # a line was added above the grid
        assert abs(page.locator(cell).bounding_box()["y"] - before) < 1
    finally:
        server.stop()


def cell_selector(row: int, col: int) -> str:
    return f"#p-stomach .cell[data-row='{row}'][data-col='{col}']"


def test_changes_not_saved_outlive_a_visit_to_another_page_and_the_page_says_plainly_why(browser: Any, tmp_path: Path):
    """The server goes away while Ana taps her stomach: the page says so in plain words at
    the board's sync line (not the browser's "Failed to fetch"), marks the cells apart from a
    wrong cell's red, and asks before a reload. She looks at the whole table (it cannot be
    shown: it is, by itself, once the server is back) and comes back: her cells are still
    there, marked, and are saved when the server takes them; a cell left behind on her board
    is saved even while she stays on the table's page."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        ana = phone(browser)
        sid = start_game(ana, server, "tasty-humans", ["Ana", "Ben"], "published")
        open_board(ana, server, sid, 0, first=False)
        tap_cell(ana, 6, 1, "A")
        settled(ana)
        away = lambda route: route.abort()  # noqa: E731 - the server does not answer at all
        ana.route("**/api/**", away)
        for col, symbol in ((2, "B"), (3, "H")):
            ana.click(cell_selector(6, col))
            ana.click(f"#p-stomach ~ .palette button[data-symbol='{symbol}']")
        ana.wait_for_selector("html[data-sync='failed']", state="attached", timeout=WAIT)
        assert ana.inner_text("#save-state") == "The server did not answer: your changes are kept and sent again when it does (2 changes, marked)"
        assert "Failed to fetch" not in ana.inner_text("body")
        marks = ana.eval_on_selector(cell_selector(6, 2), "c => [getComputedStyle(c).borderTopStyle, getComputedStyle(c).borderTopColor, getComputedStyle(c, '::after').content]")
        assert marks[0] == "dashed" and marks[2] != "none" and marks[1] != "rgb(208, 0, 0)"  # not the red of a wrong cell
        assert ana.evaluate("(() => { const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented; })()")

        ana.click("text=The whole table")
        ana.wait_for_selector("text=The server did not answer: this page is shown again as soon as it does", timeout=WAIT)
        ana.unroute("**/api/**", away)
        ana.route("**/api/**", lambda route: route.abort() if route.request.method == "PUT" else route.continue_())
        ana.wait_for_selector("#table", timeout=WAIT)  # back by itself
        ana.go_back()
        ana.wait_for_selector("#board", timeout=WAIT)
        assert ana.eval_on_selector(cell_selector(6, 3), "c => c.dataset.symbol") == "H"  # as she entered it, not as saved
        until(ana, f"document.querySelector(\"{cell_selector(6, 2)}\").classList.contains('unsaved')")
        ana.unroute("**/api/**")
        settled(ana)
        board = ana.request.get(server.path(f"api/sessions/{sid}")).json()["boards"][0]
        assert stomach(board) == [(6, 1, "A"), (6, 2, "B"), (6, 3, "H")]
        assert not ana.evaluate("(() => { const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented; })()")

        ana.route("**/api/**", away)  # away again: a cell tapped, then the table looked at until the server is back
        ana.click(cell_selector(6, 4))
        ana.click("#p-stomach ~ .palette button[data-symbol='G']")
        ana.wait_for_selector("html[data-sync='failed']", state="attached", timeout=WAIT)
        ana.click("text=The whole table")
        ana.wait_for_selector("text=The server did not answer: this page is shown again as soon as it does", timeout=WAIT)
        ana.unroute("**/api/**", away)
        ana.wait_for_selector("#table", timeout=WAIT)
        deadline = time.monotonic() + WAIT / 1000
        while (6, 4, "G") not in stomach(ana.request.get(server.path(f"api/sessions/{sid}")).json()["boards"][0]):
            assert time.monotonic() < deadline, "the cell left behind on the board was not saved"
            ana.wait_for_timeout(200)
    finally:
        server.stop()


def test_an_optional_track_tapped_can_be_emptied_again(browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A track left out of the blank sheet (here Fuzz's markers, in a copy of the game whose
    form does not say they are the solo game's) has a "—" that empties it again: a tap by
    mistake is not there for good."""
    from game_plugins import own_copy
    from pnp.load.trust import trust

    monkeypatch.chdir(tmp_path)
    root = own_copy(tmp_path / "proj", "dietrick-taking", "dietrick_taking")
    form = root / "plugins/dietrick_taking/form.py"
    form.write_text(form.read_text(encoding="utf-8").replace(', "solo_only": True', ""), encoding="utf-8")
    trust(root)
    server = Server(tmp_path / "log.sqlite", "tok", root=root)
    try:
        host = phone(browser)
        sid = start_game(host, server, "dietrick-taking", ["Ana", "Ben", "Cleo"])
        host.wait_for_selector("#t-fuzz-yellow", timeout=WAIT)
        assert host.locator("#p-yellow button[data-value='']").count() == 0  # a track the sheet needs has none
        tap(host, "#t-fuzz-yellow button[data-value='3']")
        settled(host)
        assert host.request.get(server.path(f"api/sessions/{sid}")).json()["table"].get("fuzz") == {"yellow": 3}
        tap(host, "#t-fuzz-yellow button[data-value='']")
        settled(host)
        assert host.request.get(server.path(f"api/sessions/{sid}")).json()["table"].get("fuzz") is None
        assert host.get_attribute("#t-fuzz-yellow button[data-value='3']", "aria-pressed") == "false"
    finally:
        server.stop()


def test_a_solo_result_says_the_ais_score_and_the_verdict_unfolded(browser: Any, tmp_path: Path):
    """A solo game has no winner line to show but a verdict: the page says it, with the
    A.I.'s score and why (here the monster challenge failed), as `pnp score` ends its report,
    not folded away in the printed text; and no stray "null" line."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        host = phone(browser)
        sheet = example("tasty-humans-solo.yaml")
        sid = start_game(host, server, "tasty-humans", ["Sam"], "published")
        host.wait_for_selector("#t-solo", timeout=WAIT)
        api = server.path(f"api/sessions/{sid}")
        assert host.request.put(api + "/table", data={"values": {"solo": sheet["solo"]}}).ok
        board = {k: v for k, v in sheet["players"][0].items() if k != "name"}
        assert host.request.put(api + "/boards/0", data={"values": board, "done": True}).ok
        host.wait_for_selector("#finished", timeout=WAIT)
        report = scored(host, server, sid, tmp_path)
        ai = report["solo"]["ai"]
        # the challenge as the 1-player sheet names it, not its id (`monster`)
        # the page's words: the reading without the rules.yaml key holding it (the report keeps it)
        reason = report['solo']['challenge']['reason'].replace(" (rules.yaml rulings.challenge_overlap)", "")
        assert host.inner_text("#winner") == f"Sam loses: Monster challenge failed ({reason})"
        assert host.inner_text("#ai") == f"A.I. level 2 (Capable Creature): classes {ai['class_points']} + shapes {ai['shape_points']} = {ai['total']}"
        assert "null" not in host.inner_text("#results").split("\n")
        assert ["Village King (held no)", "0"] in breakdown(host, "Sam")  # the hints' words: a solo board has no king field
    finally:
        server.stop()


def tasty_humans_played(host: Any, server: Server, sheet_text: str, tmp_path: Path) -> dict:
    """A Tasty Humans game (published rules) started on the page for the sheet's players,
    each board entered as done through the page's API; its report as `pnp score` gives it."""
    sheet = yaml.safe_load(sheet_text)
    sid = start_game(host, server, "tasty-humans", [p["name"] for p in sheet["players"]], "published")
    host.wait_for_selector("#t-ending", timeout=WAIT)
    api = server.path(f"api/sessions/{sid}")
    for seat, p in enumerate(sheet["players"]):
        board = {k: v for k, v in p.items() if k != "name"}
        if isinstance(board.get("stomach"), list):  # the page's box takes the rows as lines
            board["stomach"] = "".join(r + "\n" for r in board["stomach"])
        assert host.request.put(api + f"/boards/{seat}", data={"values": board, "done": True}).ok
    host.wait_for_selector("#finished", timeout=WAIT)
    return scored(host, server, sid, tmp_path)


def breakdown(host: Any, name: str) -> list[list[str]]:
    """The rows of the player `name`'s breakdown on the page, each as its cells' text."""
    return host.eval_on_selector_all(f"table[data-player='{name}'] tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))")


def test_a_tie_broken_by_leaders_is_said_in_the_rules_words_with_each_players_damage_tiles(browser: Any, tmp_path: Path):
    """Four players, two tied on points and on damage tiles (published rules line 204): the
    page says what decided it as `pnp score` prints it, not the report's id, and each
    player's breakdown shows their damage tiles beside the damage points, so the table sees
    why fewer damage tiles did not decide it."""
    from test_serve import FOUR_TIED

    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        host = phone(browser)
        report = tasty_humans_played(host, server, FOUR_TIED, tmp_path)
        assert report["winners"] == ["Di"] and report["decided_by"] == "leaders-ascending"
        assert host.inner_text("#winner") == "Winner: Di"
        assert host.inner_text("#decided") == "Decided by: higher lowest-scoring leaders"
        for name in ("Cy", "Di"):
            rows = breakdown(host, name)
            assert ["damage (tiles 4, adjacent 0)", "0"] in rows and ["Village King (held no)", "0"] in rows, rows
    finally:
        server.stop()


def test_the_tiles_palette_opens_once_a_cell_is_tapped(browser: Any, tmp_path: Path):
    """A tile tapped before any cell would go nowhere: the palette is shown only once a cell
    of the stomach is picked (the grid's `hidden` palette was shown by its CSS)."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        page = phone(browser)
        sid = start_game(page, server, "tasty-humans", ["Ana", "Ben"], "published")
        open_board(page, server, sid, 0, first=False)
        assert not page.is_visible("#p-stomach ~ .palette")
        page.click("#p-stomach .cell[data-row='2'][data-col='3']")
        assert page.is_visible("#p-stomach ~ .palette button[data-symbol='H']")
    finally:
        server.stop()


def _finished_dietrick_game(host: Any, server: Server, tmp_path: Path, table: dict[str, Any],
                            boards: list[tuple[int, int]] | None = None) -> dict[str, Any]:
    """The example 3-player Dietrick-taking game played to its end at the table, with `table`'s
    values besides its scoring order and each seat's (yellow, blue) of `boards` (the example's
    by default): `pnp score`'s report of the game saved."""
    sheet = example("dietrick-taking-3p.yaml")
    sid = start_game(host, server, "dietrick-taking", [p["name"] for p in sheet["players"]])
    host.wait_for_selector("#t-scoring_order", timeout=WAIT)
    api = server.path(f"api/sessions/{sid}")
    assert host.request.put(api + "/table", data={"values": {"scoring_order": sheet["scoring_order"], **table}}).ok
    for seat, (yellow, blue) in enumerate(boards or [(p["yellow"], p["blue"]) for p in sheet["players"]]):
        assert host.request.put(api + f"/boards/{seat}", data={"values": {"yellow": yellow, "blue": blue}, "done": True}).ok
    host.wait_for_selector("#finished", timeout=WAIT)
    return scored(host, server, sid, tmp_path)


def test_a_long_games_result_shows_the_match_and_the_ranking_unfolded(browser: Any, tmp_path: Path):
    """A finished Dietrick-taking game of a Long Game: the match's tally and its winner, and
    the game's ranking, are on the result as `pnp score` prints them, not only folded away in
    its printed text (as a Tasty Humans result shows its ranking)."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        host = phone(browser)
        report = _finished_dietrick_game(host, server, tmp_path, {"earlier_wins": {"Ana": 1, "Ben": 1}})
        assert report["long_game"] == {"wins": {"Ana": 1, "Ben": 2, "Cleo": 0}, "winners": ["Ben"]}
        assert host.is_visible("#match") and host.inner_text("#match") == "Long Game: wins Ana 1, Ben 2, Cleo 0; won by Ben"
        assert host.is_visible("#ranking")
        rows = host.eval_on_selector_all("#ranking tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))")
        by_rank = sorted(report["players"], key=lambda p: p["rank"])
        assert rows == [["place", "player", "difference"]] + [[str(p["rank"]), p["name"], str(p["difference"])] for p in by_rank]
    finally:
        server.stop()


def test_a_players_breakdown_has_numbers_only_in_its_points_column_adding_up_to_the_total(browser: Any, tmp_path: Path):
    """Before: the monster's and the held leader's ids stood in the points column, and Bo's
    17 empty cells (a tie-break count, no points) were added there as if points. A text is
    said in its row's label, a count too, and the column adds up to the total."""
    from test_th_scoring_sheet import BASE

    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        host = phone(browser)
        report = tasty_humans_played(host, server, BASE, tmp_path)
        for player in report["players"]:
            rows = breakdown(host, player["name"])
            points = [int(n) for _, n in rows if n != ""]
            assert sum(points) == player["total"], rows
            labels = [label for label, _ in rows]
            # the monster by its board's printed name, the held leader by its tile's title, in the
            # space the rule version names (published: Leader space); the report keeps the ids
            assert f"monster: {MONSTER_NAMES[player['monster']]}" in labels and f"empty cells: {player['empty_cells']}" in labels, rows
        ana = breakdown(host, "Ana")
        assert ["Leader space: Straight Chain", ""] in ana and report["players"][0]["held"] == "chain-orthogonal", ana
        assert report["players"][1]["empty_cells"] == 17  # Bo's: a count the column would otherwise add
    finally:
        server.stop()


def test_a_ruling_that_decided_the_game_is_shown_open_and_the_rank_only_in_the_ranking(browser: Any, tmp_path: Path):
    """A Beginner Class tie broken by the markers' squares (pnp's reading where the book is
    silent, scoring.yaml rulings.beginner_tie): the ruling is said under "Decided by", as
    `pnp score` prints it, not only in the folded text; and each player's breakdown leaves
    out the rank the ranking table shows."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        host = phone(browser)
        # Ana and Ben 5 squares apart; Ben's blue marker on the higher square
        report = _finished_dietrick_game(host, server, tmp_path, {"variant": "beginner"}, [(7, 2), (10, 5), (13, 2)])
        assert report["winners"] == ["Ben"] and report["ruling"], report
        assert host.inner_text("#decided") == f"Decided by: {report['decided_by']}"
        ruling = report["ruling"].replace(" (scoring.yaml rulings.beginner_tie)", "")  # the page's words: no YAML key
        assert host.is_visible("#decided + #ruling") and host.inner_text("#ruling") == f"Ruling: {ruling}"
        assert host.is_visible("#ranking")
        for player in report["players"]:
            rows = host.eval_on_selector_all(f"table[data-player='{player['name']}'] tr", "rs => rs.map(r => r.cells[0].textContent)")
            assert "difference" in rows and "rank" not in rows, rows
    finally:
        server.stop()


def test_an_order_tapped_again_is_unsaved_until_complete_and_the_saved_one_stays_shown(browser: Any, tmp_path: Path):
    """Dietrick-taking's scoring order saved as 2, 1, 3, then tapped "again" and one card: the
    page shows the order the server holds, says the new one is not saved and how many taps
    are left; left half done (the page left, or "keep the saved order"), the saved order stays.
    Before, the page showed the half order and said every change was saved."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        host = phone(browser)
        sid = start_game(host, server, "dietrick-taking", ["Ana", "Ben", "Cleo"])
        host.wait_for_selector("#t-scoring_order", timeout=WAIT)
        held = lambda: host.request.get(server.path(f"api/sessions/{sid}")).json()["table"].get("scoring_order")  # noqa: E731
        order = "#t-scoring_order button[data-value='{}']"
        for card in (2, 1):
            host.click(order.format(card))
        assert host.get_attribute("html", "data-sync") == "unsaved" and "1 tap left" in host.inner_text("#save-state")
        host.click(order.format(3))
        settled(host)
        assert held() == [2, 1, 3] and host.inner_text("#t-scoring_order .order-now") == "2 → 1 → 3"
        assert "null" not in host.inner_text("#t-scoring_order").split("\n")  # no draft: no line for it

        host.click("#t-scoring_order button:text('again')")  # no card tapped yet: a draft already, as the widget says
        assert host.get_attribute("html", "data-sync") == "unsaved" and "3 taps left" in host.inner_text("#save-state")
        host.click(order.format(3))
        host.wait_for_timeout(2500)  # a poll comes and goes: the half order is still not sent
        assert held() == [2, 1, 3]
        assert host.inner_text("#t-scoring_order .order-now") == "2 → 1 → 3"  # what the server holds
        assert host.get_attribute("html", "data-sync") == "unsaved"
        assert host.inner_text("#save-state") == "New scoring order: 2 taps left, not saved until complete (saved: 2 → 1 → 3)"
        assert "3 → …" in host.inner_text("#t-scoring_order .order-draft")
        assert "unsaved" in host.get_attribute(".field[data-key='scoring_order']", "class")
        host.click("#t-scoring_order button.keep")  # taken back: the saved order, settled
        settled(host)
        assert host.locator("#t-scoring_order .order-draft").count() == 0

        host.click(order.format(1))  # a card tapped starts a new order too; the page is left half done
        host.click(f"a[data-seat='0']")
        host.wait_for_selector("#board", timeout=WAIT)
        host.go_back()
        host.wait_for_selector("#t-scoring_order", timeout=WAIT)
        settled(host)
        assert host.inner_text("#t-scoring_order .order-now") == "2 → 1 → 3" and held() == [2, 1, 3]

        for card in (3, 1, 2):  # a new order, complete: saved
            host.click(order.format(card))
        settled(host)
        assert held() == [3, 1, 2] and host.inner_text("#t-scoring_order .order-now") == "3 → 1 → 2"
    finally:
        server.stop()


def test_a_refusal_naming_one_change_of_a_batch_leaves_the_others_to_be_saved(browser: Any, tmp_path: Path):
    """Two changes of the table sent in one save while the server was away (a Long Game's
    earlier win, and a claimed winner tapped): the server refuses the save naming the claimed
    winner (`at`; here answered for the server, as no tap makes a pick the server refuses:
    tests/test_serve.py has its refusals). That change alone is marked refused; the earlier
    win is sent again without it and saved. Before, both were marked refused and the win
    never sent."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        host = phone(browser)
        sid = start_game(host, server, "dietrick-taking", ["Ana", "Ben", "Cleo"])
        host.wait_for_selector("#t-earlier_wins input[data-name='Ana']", timeout=WAIT)
        away = lambda route: route.abort() if route.request.method == "PUT" else route.continue_()  # noqa: E731
        host.route("**/api/**", away)
        host.fill("#t-earlier_wins input[data-name='Ana']", "1")
        host.click("#t-claimed_winner button[data-value='Ben']")
        host.wait_for_selector("html[data-sync='failed']", state="attached", timeout=WAIT)
        sent = saves(host)

        def refuse_the_winner(route: Any) -> None:  # back, refusing what names the claimed winner
            if route.request.method == "PUT" and "claimed_winner" in (route.request.post_data or ""):
                route.fulfill(status=400, content_type="application/json",
                              body=json.dumps({"error": "claimed winner: refused", "at": ["items", "claimed_winner"]}))
            else:
                route.continue_()
        host.unroute("**/api/**", away)
        host.route("**/api/**", refuse_the_winner)  # a poll sends both again, in one save
        until(host, "document.querySelector('.problem[role=alert]') && /claimed winner: refused/.test(document.querySelector('.problem[role=alert]').textContent)")
        deadline = time.monotonic() + WAIT / 1000
        while host.request.get(server.path(f"api/sessions/{sid}")).json()["table"].get("earlier_wins") != {"Ana": 1}:
            assert time.monotonic() < deadline, "the earlier win refused with the claimed winner was not saved"
            host.wait_for_timeout(200)
        assert sent[0] == {"values": {}, "parts": {"earlier_wins": {"Ana": 1}}, "items": {"claimed_winner": {"add": ["Ben"]}}}
        host.wait_for_selector("html[data-sync='failed']", state="attached", timeout=WAIT)
        assert host.inner_text("#save-state") == "1 change not saved (marked, see above): change it again"
        assert "unsaved" in host.get_attribute(".field[data-key='claimed_winner']", "class")
        assert "unsaved" not in host.get_attribute(".field[data-key='earlier_wins']", "class")
        host.unroute("**/api/**", refuse_the_winner)
        host.click("#t-claimed_winner button[data-value='Ben']")  # made again: off, then on, saved
        host.click("#t-claimed_winner button[data-value='Ben']")
        settled(host)
        assert host.request.get(server.path(f"api/sessions/{sid}")).json()["table"].get("claimed_winner") == "Ben"
    finally:
        server.stop()


def test_the_page_says_what_the_components_print_and_the_forms_labels_not_the_sheets_ids_and_keys(browser: Any, tmp_path: Path):
    """A play-tester saw `troll`, `chain-orthogonal` and `--set` where the cards say Troll and
    the form Rule changes: every value a player picks or reads is the name the game's content
    prints (lists, problems, statistics), each problem names the field as the form labels it,
    and the sheet, the report and the log keep the ids."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        host = phone(browser)
        host.goto(server.url())
        host.select_option("#game", "tasty-humans")
        host.fill("#changes", "cravings.troll.pointz=3")
        for i, name in enumerate(["Ana", "Ben"]):
            host.fill(f"#name-{i}", name)
        host.click("#start")
        host.wait_for_selector(".problem", timeout=WAIT)
        assert host.inner_text(".problem").startswith("Rule changes: cravings.troll.pointz: cravings.troll has no 'pointz'")
        host.fill("#changes", "")
        host.click("#start")
        host.wait_for_url("**#/s/*", timeout=WAIT)
        sid = host.url.rsplit("#/s/", 1)[1]
        sheet = example("tasty-humans-2p.yaml")
        api = server.path(f"api/sessions/{sid}")
        assert host.request.put(api + "/table", data={"values": {"ending": sheet["ending"]}}).ok
        boards = [{k: v for k, v in p.items() if k != "name"} for p in sheet["players"]]
        for seat, board in enumerate(boards):
            assert host.request.put(api + f"/boards/{seat}", data={"values": {**board, "monster": "troll"}}).ok
        open_board(host, server, sid, 1, first=False)
        host.wait_for_selector(".problems[data-for='monster'] .problem", timeout=WAIT)
        assert host.inner_text(".problems[data-for='monster'] .problem") == "Ben: monster 'Troll' is also Ana's: each monster board is used once"
        assert host.eval_on_selector_all("#p-held option", "os => os.map(o => o.textContent)")[1:] == list(LEADER_TITLES.values())
        assert host.eval_on_selector_all("#p-monster option", "os => os.map(o => o.textContent)")[1:] == list(MONSTER_NAMES.values())
        # a cell reads out as its tile's name, as the palette shows it, not its letter
        assert host.get_attribute("#p-stomach .cell[data-row='2'][data-col='1']", "aria-label") == "row 2 column 1: Helmet"
        for seat, board in enumerate(boards):
            assert host.request.put(api + f"/boards/{seat}", data={"values": board, "done": True}).ok
        host.goto(server.url(f"#/s/{sid}", token=False))
        host.wait_for_selector("#finished", timeout=WAIT)
        assert host.eval_on_selector_all("#t-ending option", "os => os.map(o => o.textContent)")[1:] == ["after a round", "in the Leader Phase"]
        assert ["monster: Troll", ""] in breakdown(host, "Ana")
        host.goto(server.url("#/stats", token=False))
        host.wait_for_selector("text=Total by monster", timeout=WAIT)
        text = host.inner_text("#app")
        assert text.startswith("Logged games\nTasty Humans, Published rules") and "Troll" in text and "Straight Chain" not in text, text
        assert "troll" not in text and "line-hand" not in text and "Hand Line" in text, text
        logged = host.request.get(server.path("api/stats")).json()[0]
        # the rule version by its title and the day played, not the content's digest (a tool reads that on the section)
        assert logged["digest"] not in text and "published" not in text and "\nplayed " in text, text
        assert host.get_attribute("section", "data-digest") == logged["digest"]
        assert "troll" in logged["by_monster"] and "line-hand" in logged["by_leader"]  # the log's keys stay ids
    finally:
        server.stop()


def test_the_start_page_lists_the_tables_games_by_title_and_a_readable_time(browser: Any, tmp_path: Path):
    """Before: "tasty-humans: Ana, Ben 2026-11-28T02:42:24Z", and the rule versions as
    "Published rules (published)": the start page says the game's title and when it started as
    the phone says a time, and a rule version's title alone where it says its id; the API
    keeps the ids and the ISO time."""
    server = Server(tmp_path / "log.sqlite", "t0ken-for-the-table")
    try:
        host = phone(browser)
        host.goto(server.url())
        host.select_option("#game", "tasty-humans")
        assert host.eval_on_selector_all("#rules option", "os => os.map(o => o.textContent)") == ["Published rules", "Rules 0.2.8"]
        start_game(host, server, "tasty-humans", ["Ana", "Ben"], "published")
        host.goto(server.url())
        host.wait_for_selector("text=Games at this table", timeout=WAIT)
        (line,) = host.eval_on_selector_all("section ul li", "ls => ls.map(l => l.textContent)")
        listed = host.request.get(server.path("api/sessions")).json()[0]
        assert (listed["game"], listed["created"][-1]) == ("tasty-humans", "Z")
        year = listed["created"][:4]
        assert line.startswith("Tasty Humans: Ana, Ben started ") and year in line, line
        assert "tasty-humans" not in line and listed["created"][:10] not in line, line  # no ISO date
    finally:
        server.stop()
