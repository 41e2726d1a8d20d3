"""A play-test log that came with a project (hostile-project report, defect 5) is input like
any other (pnp/serve/logcheck.py): a schema that is not exactly pnp's (a recursive view, a
trigger, another program's tables) is refused before any query, what is read is bounded and
of the type pnp wrote, and the table's token is never one the log's author chose."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.errors import PnpError
from pnp.serve.log import VERSION, Log

BOUND = 5.0  # seconds: a runaway, not a speed, as tests/test_hostile.py
runner = CliRunner()
RECURSIVE_VIEW = """
CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO settings VALUES('token','known-to-the-author');
CREATE TABLE sessions(id TEXT PRIMARY KEY, game TEXT NOT NULL, rules TEXT, changes TEXT NOT NULL, players TEXT NOT NULL,
                      table_values TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE boards(session TEXT NOT NULL, seat INTEGER NOT NULL, board TEXT NOT NULL, done INTEGER NOT NULL, PRIMARY KEY(session,seat));
CREATE VIEW games(id,session,played,game,rules,changes,players,digest,sheet,report) AS
  WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x,NULL,'','g',NULL,'{}','[]','','','{}' FROM c WHERE x<0;
PRAGMA user_version=2;
"""


def one_line(path: Path, *command: str) -> str:
    """`pnp log COMMAND --db path`: exit 2, one line naming the file, promptly."""
    started = time.perf_counter()
    result = runner.invoke(app, ["log", *command, "--db", str(path)])
    assert time.perf_counter() - started < BOUND
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}: ") and "internal error" not in lines[0], result.output
    return lines[0]


def edit(path: Path, *statements: tuple[str, tuple[object, ...]]) -> None:
    """Run `statements` (SQL, parameters) on the database at `path`, as another program would."""
    db = sqlite3.connect(path)
    for sql, parameters in statements:
        db.execute(sql, parameters)
    db.commit()
    db.close()


def logged(tmp_path: Path, **columns: object) -> Path:
    """A log pnp made, holding one game, some of whose columns are then set as a hostile author would."""
    path = tmp_path / "log.sqlite"
    Log(path).record("g", None, {"a": 1}, ["Ana", "Ben"], "d", "sheet", {"winners": ["Ana"], "players": [{"name": "Ana", "total": 3}]})
    edit(path, *((f"UPDATE games SET {column} = ?", (value,)) for column, value in columns.items()))
    return path


@pytest.mark.parametrize("command", [["list"], ["export", "--csv"]])
def test_a_log_whose_games_are_a_recursive_view_is_refused_promptly(tmp_path: Path, command: list[str]):
    path = tmp_path / "log.sqlite"
    sqlite3.connect(path).executescript(RECURSIVE_VIEW)
    assert "not a pnp play-test log of schema version 2: it holds view 'games'" in one_line(path, *command)


def test_a_trigger_or_another_programs_tables_are_refused(tmp_path: Path):
    path = logged(tmp_path)
    edit(path, ("CREATE TRIGGER t AFTER INSERT ON games BEGIN DELETE FROM sessions; END", ()))
    with pytest.raises(PnpError, match="it holds trigger 't'"):
        Log(path)
    other = tmp_path / "app.db"
    edit(other, ("CREATE TABLE bookmarks(u)", ()))
    with pytest.raises(PnpError, match="schema version 0: it holds table 'bookmarks'"):
        Log(other)
    assert [r[0] for r in sqlite3.connect(other).execute("SELECT name FROM sqlite_master")] == ["bookmarks"]  # not migrated


def test_a_log_of_pnps_schema_at_each_version_is_accepted(tmp_path: Path):
    from pnp.serve.log import MIGRATIONS

    for version in range(VERSION + 1):
        path = tmp_path / f"v{version}.sqlite"
        db = sqlite3.connect(path)
        db.executescript(";".join(MIGRATIONS[:version]) + f"; PRAGMA user_version = {version};")
        db.close()
        assert Log(path).games() == []


@pytest.mark.parametrize("depth", [100, 100_000])
@pytest.mark.parametrize("command", [["list"], ["export", "--csv"]])
def test_deep_json_in_the_log_is_one_located_line(tmp_path: Path, depth: int, command: list[str]):
    path = logged(tmp_path, changes="[" * depth + "]" * depth)
    assert "game 1: changes: JSON nested more than 64 levels deep" in one_line(path, *command)


@pytest.mark.parametrize("column, value, message", [
    ("players", '"Ana"', "game 1: players: expected a JSON list, found str"),
    ("players", "[1, 2]", "game 1: players: seat 1: expected text, found int"),
    ("changes", "{", "game 1: changes: not JSON"),
    ("changes", b"{}", "game 1: changes: expected JSON text, found bytes"),
    ("game", "../../../x", "game 1: game: expected a game's name"),
    ("played", b"\x00", "game 1: played: expected text, found bytes"),
    ("report", '{"winners": [["Ana"]]}', "game 1: report: winners: expected a list of names"),
    ("report", '{"players": [{"name": ["Ana"]}]}', "game 1: report: players: expected a list of players"),
])
def test_a_value_of_the_wrong_type_is_one_located_line(tmp_path: Path, column: str, value: object, message: str):
    for command in (["list"], ["export", "--csv"], ["export", "--out", str(tmp_path / "out")]):
        assert message in one_line(logged(tmp_path, **{column: value}), *command)
    assert not (tmp_path / "out").exists()


def test_what_is_read_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = logged(tmp_path, sheet="x" * 5000)
    monkeypatch.setenv("PNP_LOG_LIMITS", "value=4000")
    assert one_line(path, "list").endswith(": the log cannot be used: a value longer than 4,000 bytes: the limit for a "
                                           "play-test log (set PNP_LOG_LIMITS=value=N to change it)")
    monkeypatch.setenv("PNP_LOG_LIMITS", "json=10")  # changes {"a": 1} fit
    assert "game 1: players: JSON of 14 characters, more than 10: the limit for a play-test log" in one_line(path, "list")
    Log(path).record("g", None, {}, ["A"], "d", "sheet", {})
    monkeypatch.setenv("PNP_LOG_LIMITS", "rows=1")
    assert "more than 1 logged games: the limit for a play-test log (set PNP_LOG_LIMITS=rows=N" in one_line(path, "list")


def test_a_hostile_session_is_one_line(tmp_path: Path):
    path = tmp_path / "log.sqlite"
    log = Log(path)
    log.create_session("s1", "g", None, {}, ["Ana"], {}, [{}])
    edit(path, ("UPDATE boards SET board = ?", ("[" * 5000 + "]" * 5000,)))
    with pytest.raises(PnpError, match="session s1: board 0: JSON nested more than 64 levels deep"):
        log.session("s1")
    with pytest.raises(PnpError, match="session s1: board 0"):
        log.save_board("s1", 0, {"x": 1}, False)


def test_the_token_is_never_the_one_the_log_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A log that came with the project may name a token its author knows: the table's token
    is made from it with the user's own key, the same after a restart, another with --new-token
    and for another user."""
    path = tmp_path / "log.sqlite"
    log = Log(path)
    edit(path, ("INSERT INTO settings VALUES ('token', 'known-to-the-author')", ()))
    token = log.token()
    assert token != "known-to-the-author" and "known" not in token and len(token) >= 32
    assert Log(path).token() == token == Log(path).saved_token()
    renewed = log.token(new=True)
    assert renewed != token and Log(path).token() == renewed
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "another-user"))
    assert Log(path).token() != renewed


def test_serve_answers_a_hostile_log_with_one_line_not_an_internal_error(tmp_path: Path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    from starlette.testclient import TestClient

    from pnp.load.content import Project
    from pnp.serve.app import make_app
    from pnp.serve.scoring import Games

    path = logged(tmp_path, changes="[" * 100_000 + "]" * 100_000)
    client = TestClient(make_app(Games(Project(tmp_path)), Log(path), "t"))
    assert client.get("/?token=t").status_code == 200
    answer = client.get("/api/stats")
    assert answer.status_code == 400 and "game 1: changes: JSON nested more than 64 levels deep" in answer.text


def test_a_log_that_is_a_pipe_is_one_line(tmp_path: Path):
    """`--db` naming a pipe (SQLite would wait on it for ever): refused before it is opened."""
    import os

    os.mkfifo(tmp_path / "log.fifo")
    assert one_line(tmp_path / "log.fifo", "list").endswith(": the log is not a plain file: remove it, or name another file with --db")
