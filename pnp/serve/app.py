"""The ASGI app of `pnp serve`: the page (files of this package only) and a small JSON API
over sessions, boards and the play-test log. Every request needs the server's token (in
the URL once, then in a cookie); every bad request gets one clear line, never a
traceback; no path a request names reaches the project's files.
"""

from __future__ import annotations

import json
import secrets
import sys
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Awaitable, Callable, MutableMapping

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.responses import JSONResponse as StarletteJSON
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from ..errors import PluginError, PnpError
from . import forms
from . import session as sessions
from .log import Log, Session
from .scoring import Games, Outcome, Problem, plugin_error, sheet_yaml
from .stats import statistics

STATIC = Path(__file__).resolve().parent / "static"
COOKIE = "pnp_token"
MAX_BODY = 64 * 1024  # bytes of one request: a board is a few hundred
PREDICTIONS_KEPT = 32  # predictions remembered, the least recently asked dropped first
REFUSED = "403 Forbidden: open the link that `pnp serve` printed (it carries the table's token)"


# Every response: scripts and styles only from pnp itself, the tokened URL never sent on as a referrer.
HEADERS = [
    (b"content-security-policy", b"default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
]


class JSONResponse(StarletteJSON):
    """Starlette's, but a text that is no valid Unicode (a lone surrogate in a name a log
    kept before names were checked) goes out escaped, `\\ud83d`, rather than as a 500."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, allow_nan=False, separators=(",", ":")).encode("ascii")


class TokenGate:
    """Refuse every request without the token (query `?token=` or the cookie it sets)."""

    def __init__(self, app: ASGIApp, token: str):
        self.app, self.token = app, token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        given = request.query_params.get("token")
        tokened = given is not None and secrets.compare_digest(given.encode(), self.token.encode())

        async def with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = message.setdefault("headers", [])
                headers += HEADERS
                if tokened:
                    headers.append((b"set-cookie", f"{COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict".encode()))
            await send(message)

        cookie = request.cookies.get(COOKIE, "")
        if tokened or (cookie and secrets.compare_digest(cookie.encode(), self.token.encode())):
            await self.app(scope, receive, with_headers)
            return
        await PlainTextResponse(REFUSED, status_code=403)(scope, receive, with_headers)


def _error(status: int, message: str, at: list[Any] | None = None) -> JSONResponse:
    """An error answer; `at`, where one thing of a save was refused, names it (session.Refused)."""
    return JSONResponse({"error": message} | ({"at": at} if at else {}), status_code=status)


def _said(exc: PnpError) -> str:
    """A PnpError's lines as the one line a page shows."""
    return "; ".join(str(e) for e in exc.errors)


async def _body(request: Request) -> Any:
    """The request's JSON, read up to MAX_BODY bytes. A body declared as something else (a
    form, text/plain) is refused unread: the page always sends application/json, and a
    text/plain POST is what another site's form could send."""
    kind = request.headers.get("content-type")
    if kind is not None and kind.split(";")[0].strip().lower() != "application/json":
        raise HTTPException(415, f"expected a JSON body (content-type: application/json), not {kind.split(';')[0].strip()[:60] or 'an empty type'}")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise HTTPException(413, f"request body over {MAX_BODY:,} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise HTTPException(413, f"request body over {MAX_BODY:,} bytes")
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_no_constant, parse_int=_whole)
    except (UnicodeDecodeError, ValueError) as exc:
        raise HTTPException(400, f"expected a JSON body: {exc}") from None
    except RecursionError:  # Python's JSON reader recurses once a nesting
        raise HTTPException(400, "expected a JSON body: lists or objects nested too deeply (hundreds deep)") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _whole(digits: str) -> int:
    """A JSON whole number; one of thousands of digits is refused in our words (Python's
    own error tells the player to call sys.set_int_max_str_digits)."""
    if len(digits.lstrip("-")) > 100:
        raise ValueError(f"a number of {len(digits.lstrip('-')):,} digits: expected at most 100")
    return int(digits)


class Table:
    """What the routes share: the project's games, the log, a cache of checked sheets."""

    def __init__(self, games: Games, log: Log):
        self.games, self.log = games, log
        self._checked: dict[str, Outcome] = {}

    def check(self, sheet: dict[str, Any]) -> Outcome:
        """`pnp score`'s verdict on a sheet; the same sheet polled again is not scored again."""
        key = sheet_yaml(sheet)
        outcome = self._checked.get(key)
        if outcome is None:
            if len(self._checked) > 256:
                self._checked.clear()
            outcome = self._checked[key] = self.games.check(sheet)
        return outcome

    def _drawn(self, sheet: dict[str, Any], outcome: Outcome) -> Outcome:
        """A finished sheet's outcome with its report drawn as `pnp score` prints it, before the
        game is logged: a plugin that cannot draw it is that plugin's error on the sheet."""
        try:
            outcome.text
        except Exception as exc:
            if (error := plugin_error(exc)) is None:
                raise
            outcome = self._checked[sheet_yaml(sheet)] = Outcome([Problem(str(e)) for e in error.errors], exit_code=error.exit_code)
        return outcome

    def session(self, sid: str) -> Session:
        s = self.log.session(sid)
        if s is None:
            raise HTTPException(404, f"no session {sid!r}: start one on the first page")
        return s

    def state(self, sid: str, saved: bool = True) -> dict[str, Any]:
        """Everything a page shows of a session. After a save (`saved`: a board or the table)
        the game is logged when every board is in and it scores as claimed, and taken out of
        the log when it no longer does (a board reopened, a value that makes the sheet
        impossible or a claim wrong): the log holds only games whose sheet, as last saved,
        `pnp log import` would take. A page only reading (`saved` false: it polls) changes
        nothing: a game logged under content edited since stays logged under its digest,
        and the page shows how it scores now."""
        s = self.session(sid)
        sheet = sessions.sheet(self.games, s)
        outcome = self.check(sheet)
        finished = all(s.done.get(i, False) for i in range(len(s.players))) and outcome.report is not None and not outcome.exit_code
        if finished:
            outcome = self._drawn(sheet, outcome)
            finished = not outcome.exit_code
        if saved and finished:
            assert outcome.report is not None
            self.log.record(s.game, s.rules, s.changes, s.players, self.games.digest(s.game), sheet_yaml(sheet),
                            outcome.report, session=s.id)
        elif saved:
            self.log.unrecord(s.id)
        logged = self.log.logged(s.id)
        form = sessions.form(self.games, s.game, s.rules, s.players)
        shown = outcome.to_json(text=finished)
        # each problem also in the words of the form it is shown on (`said`); `message` stays the CLI's
        shown["problems"] = [{**p, "said": forms.said(p["message"], p["at"], form)} for p in shown["problems"]]
        # the readings pnp made, as the page says them: without where rules.yaml keeps them (the report keeps its words)
        report = shown.get("report") or {}
        solo: dict[str, Any] = report["solo"] if isinstance(report.get("solo"), dict) else {}
        challenge: dict[str, Any] = solo["challenge"] if isinstance(solo.get("challenge"), dict) else {}
        shown["ruling"] = forms.uncited(report["ruling"]) if isinstance(report.get("ruling"), str) else None
        shown["challenge_reason"] = forms.uncited(challenge["reason"]) if isinstance(challenge.get("reason"), str) else None
        return {
            "id": s.id, "game": s.game, "title": self.games.title(s.game), "rules": s.rules, "changes": s.changes,
            "rule_version": _rule_version(self, s.game, s.rules), "players": s.players, "created": s.created,
            "form": form,
            "table": s.table, "boards": [s.boards.get(i, {}) for i in range(len(s.players))],
            "done": [s.done.get(i, False) for i in range(len(s.players))],
            "outcome": shown, "finished": finished, "logged": logged and logged[0],
            "logged_under_other_content": logged is not None and logged[1] != self.games.digest(s.game),
        }


def seat_qr_svg(base_url: str, token: str, sid: str, seat: int) -> bytes:
    """The QR code (SVG) of the link that opens this seat's board with the token."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(f"{base_url}?token={token}#/s/{sid}/p/{seat}", error="m").save(out, kind="svg", scale=4, border=2)
    return out.getvalue()


def _rule_version(table: Table, game: str, rules: str | None) -> dict[str, Any]:
    """The rule version's title and what it changes from the game's default rules."""
    for option in table.games.hints(game, rules, 0).get("rules", []) if rules else []:
        if option["value"] == rules:
            return dict(option)
    return {"value": rules, "label": rules, "differences": []}


def _rule_title(table: Table, game: str, rules: str | None) -> str | None:
    """A rule version's title (None for a game of one rule set), its name where the game no
    longer has it."""
    if rules is None:
        return None
    try:
        return str(_rule_version(table, game, rules)["label"])
    except PnpError:
        return rules


def _choice_names(games: Games, game: str, rules: str | None, players: int) -> dict[str, str]:
    """Every value a player's field offers, by the name its choice shows ({} where the game's
    form cannot be made for these rules and players)."""
    try:
        form = sessions.form(games, game, rules, [f"player {n + 1}" for n in range(players)])
    except PnpError:
        return {}
    return {str(c["value"]): str(c["label"]) for f in form["player"] for c in f.get("choices", []) if isinstance(c.get("value"), str)}


def make_app(games: Games, log: Log, token: str) -> Starlette:
    """The app for one project and log, refusing requests without `token`."""
    table = Table(games, log)

    def handler(fn: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def wrapped(request: Request) -> Response:
            try:
                return await fn(request)
            except HTTPException as exc:
                return _error(exc.status_code, str(exc.detail))
            except PnpError as exc:
                if isinstance(exc, PluginError):  # the game's plugin, not the request: the host sees it too
                    print(f"pnp serve: {_said(exc)}", file=sys.stderr)
                return _error(400, _said(exc), getattr(exc, "at", None))
            except BaseException as exc:
                if not isinstance(exc, KeyboardInterrupt) and (error := plugin_error(exc)) is not None:
                    return _error(400, _said(error))  # the game's own Python (its `sys.exit()` too): its line, as `pnp score` says it
                if not isinstance(exc, Exception):
                    raise  # Ctrl-C, a task's cancellation, pnp's own exit: not the plugin's
                # a bug in pnp: one line to the page and one to the server's terminal
                print(f"pnp serve: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
                return _error(500, f"internal error: {type(exc).__name__}")
        return wrapped

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"cache-control": "no-store"})

    async def list_games(request: Request) -> Response:
        def work() -> list[dict[str, Any]]:
            out = []
            for name in games.project.known_games():
                try:
                    if not games.scored(name):
                        continue
                    hints = games.hints(name, None, 0)  # a broken entry form shows here, not only when a table starts
                    rules = hints.get("rules") if "rules" in games.schema(name).get("properties", {}) else None
                    out.append({"name": name, "title": games.title(name), "players": games.player_counts(name), "rules": rules})
                except PnpError as exc:  # one game's fault hides no other game: it is listed with its error
                    print(f"pnp serve: {name} cannot be played: {_said(exc)}", file=sys.stderr)
                    out.append({"name": name, "title": games.listed_title(name), "error": _said(exc)})
                except Exception as exc:
                    if (error := plugin_error(exc)) is None:
                        raise
                    out.append({"name": name, "title": games.listed_title(name), "error": _said(error)})
            return out
        return JSONResponse(await run_in_threadpool(work))

    async def new_session(request: Request) -> Response:
        body = await _body(request)
        if not isinstance(body, dict):
            raise HTTPException(400, "expected an object with game, rules, changes and players")
        game, rules, changes, players = body.get("game"), body.get("rules") or None, body.get("changes") or {}, body.get("players")
        if not isinstance(game, str) or not isinstance(players, list) or not isinstance(changes, dict) or not (rules is None or isinstance(rules, str)):
            raise HTTPException(400, "expected game (text), rules (text or null), changes (object) and players (list of names)")
        sessions.clean([{"key": str(k)} for k in changes], changes, "changes")

        def work() -> str:
            names = sessions.player_names(players)
            start_table, boards = sessions.start(games, game, rules, changes, names)
            sid = secrets.token_hex(4)
            log.create_session(sid, game, rules, changes, names, start_table, boards)
            return sid
        return JSONResponse({"id": await run_in_threadpool(work)})

    async def list_sessions(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(log.sessions))

    async def get_session(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(table.state, request.path_params["sid"], False))

    async def put_table(request: Request) -> Response:
        sid = request.path_params["sid"]
        body = await _body(request)

        def work() -> dict[str, Any]:
            s = table.session(sid)
            fields = sessions.form(games, s.game, s.rules, s.players)["table"]
            log.save_table(sid, sessions.edit(fields, body if isinstance(body, dict) else {"values": None}))
            return table.state(sid)
        return JSONResponse(await run_in_threadpool(work))

    async def put_board(request: Request) -> Response:
        sid, seat = request.path_params["sid"], request.path_params["seat"]
        body = await _body(request)
        # `done` only when the page's box was ticked or unticked: a save of a field from a page
        # loaded earlier never takes back another page's "complete"
        if not isinstance(body, dict) or not isinstance(body.get("done", False), bool):
            raise HTTPException(400, "expected an object with values (object) and done (true or false, or left out)")

        def work() -> dict[str, Any]:
            s = table.session(sid)
            if not 0 <= seat < len(s.players):
                raise HTTPException(404, f"no seat {seat + 1}: this session has {len(s.players)} players")
            fields = sessions.form(games, s.game, s.rules, s.players)["player"]
            log.save_board(sid, seat, sessions.edit(fields, body), body.get("done"))
            return table.state(sid)
        return JSONResponse(await run_in_threadpool(work))

    async def export_sheet(request: Request) -> Response:
        sid = request.path_params["sid"]
        text = await run_in_threadpool(lambda: sheet_yaml(sessions.sheet(games, table.session(sid))))
        return PlainTextResponse(text, media_type="application/yaml", headers={"content-disposition": f'attachment; filename="{sid}.yaml"'})

    async def seat_qr(request: Request) -> Response:
        """A QR code of one board's link (with the token), for the host to show that player."""
        sid, seat = request.path_params["sid"], request.path_params["seat"]
        s = await run_in_threadpool(log.session, sid)
        if s is None or not 0 <= seat < len(s.players):
            raise HTTPException(404, f"no seat {seat + 1} in session {sid!r}")
        return Response(seat_qr_svg(str(request.base_url), token, sid, seat), media_type="image/svg+xml")

    async def stats(request: Request) -> Response:
        def work() -> list[dict[str, Any]]:
            out = statistics(log.games())
            names = games.names()
            for group in out:  # a prediction plays the content on disk now: the games' own, or not
                group["current"] = group["game"] in names and games.digest_now(group["game"]) == group["digest"]
                group["title"] = games.title(group["game"]) if group["game"] in names else group["game"]
                # the rule version by its title (rules.yaml `title`), as the start page lists it
                group["rules_title"] = _rule_title(table, group["game"], group["rules"]) if group["game"] in names else group["rules"]
                # the monsters and leaders by the names their components print (the keys stay ids)
                group["names"] = _choice_names(games, group["game"], group["rules"], group["players"]) if group["game"] in names else {}
                for part in ("by_monster", "by_leader"):  # in the order of those names, as the page lists them
                    group[part] = dict(sorted(group[part].items(), key=lambda kv: (group["names"].get(kv[0], kv[0]).casefold(), kv[0])))
            return out
        return JSONResponse(await run_in_threadpool(work))

    # (content digest, request) -> prediction: an edit to the game's content asks afresh
    predicted: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
    predicted_lock = threading.Lock()  # requests are worked on in several threads

    async def prediction(request: Request) -> Response:
        body = await _body(request)
        if not isinstance(body, dict) or not isinstance(body.get("game"), str) or not isinstance(body.get("players"), int) \
                or not isinstance(body.get("changes", {}), dict) or not isinstance(body.get("rules"), (str, type(None))) \
                or not isinstance(body.get("games", 100), int):
            raise HTTPException(400, "expected game (text), rules (text or null), changes (object), players and games (numbers)")
        sessions.clean([{"key": str(k)} for k in body.get("changes", {})], body.get("changes", {}), "changes")
        key = json.dumps(body, sort_keys=True)

        def work() -> dict[str, Any]:
            from .predict import predict

            games.load(body["game"])  # a game of this project that has a scorer
            # in the host's words, not `--set`'s or `--players`', as the start page checks a table
            sessions.check_table(games, body["game"], body.get("rules"), body.get("changes", {}), body["players"])
            at = (games.digest_now(body["game"]), key)
            with predicted_lock:
                if at in predicted:
                    predicted.move_to_end(at)
                    return predicted[at]
            made = predict(games.project, body["game"], body.get("rules"), body.get("changes", {}), body["players"], body.get("games", 100))
            with predicted_lock:
                predicted[at] = made
                while len(predicted) > PREDICTIONS_KEPT:
                    predicted.popitem(last=False)
            return made
        return JSONResponse(await run_in_threadpool(work))

    async def not_found(request: Request, exc: Exception) -> Response:
        return _error(404, "no such page")

    routes = [
        Route("/", index),
        Route("/api/games", handler(list_games)),
        Route("/api/sessions", handler(list_sessions), methods=["GET"]),
        Route("/api/sessions", handler(new_session), methods=["POST"]),
        Route("/api/sessions/{sid:str}", handler(get_session)),
        Route("/api/sessions/{sid:str}/table", handler(put_table), methods=["PUT"]),
        Route("/api/sessions/{sid:str}/boards/{seat:int}", handler(put_board), methods=["PUT"]),
        Route("/api/sessions/{sid:str}/sheet.yaml", handler(export_sheet)),
        Route("/api/sessions/{sid:str}/boards/{seat:int}/qr.svg", handler(seat_qr)),
        Route("/api/stats", handler(stats)),
        Route("/api/predict", handler(prediction), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]
    return Starlette(routes=routes, middleware=[Middleware(TokenGate, token=token)],
                     exception_handlers={404: not_found, 405: lambda r, e: _error(405, "method not allowed")})
