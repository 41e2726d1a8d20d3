"""The play-test log (pnp/serve/log.py) and `pnp log`: schema versions, concurrent writers,
sessions that survive a restart, export to sheets `pnp score` accepts and CSV, import."""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
import sqlite3
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app as cli
from pnp.errors import PnpError
from pnp.serve.log import MIGRATIONS, VERSION, Log, content_digest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
runner = CliRunner()


def pnp(*args: str) -> tuple[int, str]:
    result = runner.invoke(cli, [*args, "--project", str(REPO)])
    return result.exit_code, result.output


def test_a_new_log_has_the_current_schema_version(tmp_path: Path):
    Log(tmp_path / "log.sqlite")
    db = sqlite3.connect(tmp_path / "log.sqlite")
    assert db.execute("PRAGMA user_version").fetchone()[0] == VERSION == len(MIGRATIONS)
    assert {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} >= {"sessions", "boards", "games"}


def test_a_log_of_an_older_schema_is_migrated_keeping_its_games(tmp_path: Path):
    db = sqlite3.connect(tmp_path / "log.sqlite")
    db.executescript(MIGRATIONS[0] + "; PRAGMA user_version = 1;")
    db.execute("INSERT INTO games (session, played, game, rules, changes, players, digest, sheet, report) "
               "VALUES (NULL, '2026-01-01T00:00:00Z', 'g', NULL, '{}', '[\"A\"]', 'd', 'sheet', '{}')")
    db.commit()
    db.close()
    log = Log(tmp_path / "log.sqlite")
    assert [(g.id, g.sheet) for g in log.games()] == [(1, "sheet")]
    assert sqlite3.connect(tmp_path / "log.sqlite").execute("PRAGMA user_version").fetchone()[0] == VERSION == 2
    assert log.token() == Log(tmp_path / "log.sqlite").token() != log.token(new=True)


def test_a_log_from_a_newer_pnp_is_refused_in_one_line(tmp_path: Path):
    db = sqlite3.connect(tmp_path / "log.sqlite")
    db.execute(f"PRAGMA user_version = {VERSION + 1}")
    db.close()
    with pytest.raises(PnpError, match=f"log schema version {VERSION + 1} is newer than this pnp's"):
        Log(tmp_path / "log.sqlite")


def test_a_file_that_is_no_database_is_one_line(tmp_path: Path):
    (tmp_path / "log.sqlite").write_bytes(b"not sqlite at all" * 100)
    code, output = pnp("log", "list", "--db", str(tmp_path / "log.sqlite"))
    assert code == 2 and len(output.strip().splitlines()) == 1 and "the log cannot be used" in output


@pytest.mark.parametrize("command", [["list"], ["export"], ["export", "--csv"]])
def test_an_empty_log_says_so(tmp_path: Path, command: list[str]):
    """Not nothing at all, which reads as a command that did not run; on stderr: stdout
    stays what a script reads (the CSV's header row)."""
    Log(tmp_path / "log.sqlite")  # a log, no game in it
    result = runner.invoke(cli, ["log", *command, "--db", str(tmp_path / "log.sqlite"), "--project", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("no games logged yet: ")
    assert result.stdout.splitlines() == (["\ufeffgame_id,played,game,rules,changes,content_digest,seat,player,total,winner"] if "--csv" in command else [])


def test_a_restart_keeps_every_session(tmp_path: Path):
    log = Log(tmp_path / "log.sqlite")
    log.create_session("s1", "tasty-humans", "published", {"a.b": 1}, ["Ana", "Ben"], {"ending": None}, [{"king": False}, {"king": True}])
    log.save_board("s1", 1, {"king": False, "monster": "troll"}, True)
    log.save_table("s1", {"variant": "x"})
    again = Log(tmp_path / "log.sqlite").session("s1")
    assert again is not None
    assert (again.game, again.rules, again.changes, again.players) == ("tasty-humans", "published", {"a.b": 1}, ["Ana", "Ben"])
    assert again.boards == {0: {"king": False}, 1: {"king": False, "monster": "troll"}} and again.done == {0: False, 1: True}
    assert again.table == {"ending": None, "variant": "x"}


def _writer(path: str, seat: int, rounds: int) -> None:
    log = Log(Path(path))
    for i in range(rounds):
        log.save_board("s1", seat, {"claimed": i}, i == rounds - 1)
        log.save_board("s1", 0, {f"field {seat}": i}, seat == 0 and i == rounds - 1)  # both write the same board too
        log.record("g", None, {}, ["A", "B"], "d", f"seat {seat} round {i}", {})


@pytest.mark.parametrize("how", ["threads", "processes"])
def test_two_writers_at_once_lose_nothing(tmp_path: Path, how: str):
    path = tmp_path / "log.sqlite"
    Log(path).create_session("s1", "g", None, {}, ["A", "B"], {}, [{}, {}])
    rounds = 40
    if how == "threads":
        workers = [threading.Thread(target=_writer, args=(str(path), seat, rounds)) for seat in (0, 1)]
    else:
        ctx = multiprocessing.get_context("spawn")
        workers = [ctx.Process(target=_writer, args=(str(path), seat, rounds)) for seat in (0, 1)]  # type: ignore[misc]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
    log = Log(path)
    s = log.session("s1")
    assert s is not None
    last = rounds - 1
    assert s.boards == {0: {"claimed": last, "field 0": last, "field 1": last}, 1: {"claimed": last}}
    assert sorted(g.sheet for g in log.games()) == sorted(f"seat {seat} round {i}" for seat in (0, 1) for i in range(rounds))


def test_a_sessions_game_is_logged_once_and_replaced_when_it_changes(tmp_path: Path):
    log = Log(tmp_path / "log.sqlite")
    first = log.record("g", None, {}, ["A"], "d", "sheet 1", {}, session="s1")
    assert log.record("g", None, {}, ["A"], "d", "sheet 1", {}, session="s1") == first
    log.record("g", None, {}, ["B"], "d", "other", {}, session="s2")
    assert log.record("g", None, {}, ["A"], "d", "sheet 2", {}, session="s1") == first
    assert [(g.id, g.sheet) for g in log.games()] == [(first, "sheet 2"), (first + 1, "other")]
    log.unrecord("s2")
    log.unrecord("s1")
    assert log.games() == []


def test_the_digest_follows_the_content(tmp_path: Path):
    game = tmp_path / "content/g"
    game.mkdir(parents=True)
    (game / "a.yaml").write_text("x: 1\n")
    before = content_digest(tmp_path, game)
    assert content_digest(tmp_path, game) == before
    (game / "a.yaml").write_text("x: 2\n")
    assert content_digest(tmp_path, game) != before


def test_the_digest_reads_nothing_outside_the_project(tmp_path: Path):
    secret = tmp_path / "secret.txt"
    secret.write_text("key\n")
    game = tmp_path / "proj/content/g"
    game.mkdir(parents=True)
    (game / "leak.yaml").symlink_to(secret)
    with pytest.raises(PnpError, match="outside the project folder"):
        content_digest(tmp_path / "proj", game)


# ------------------------------------------------------------ `pnp log`


def test_import_list_export_and_score_again(tmp_path: Path):
    db = str(tmp_path / "log.sqlite")
    sheets = [EXAMPLES / "tasty-humans-2p.yaml", EXAMPLES / "dietrick-taking-3p.yaml"]
    code, output = pnp("log", "import", *map(str, sheets), "--db", db)
    assert code == 0, output
    assert output.split() == ["logged", "game", "1", "logged", "game", "2"]
    code, output = pnp("log", "list", "--db", db)
    lines = output.strip().splitlines()
    assert code == 0 and len(lines) == 2
    assert lines[0].startswith("1  ") and "tasty-humans  published  -  Ana, Ben  Ana" in lines[0]
    assert "dietrick-taking" in lines[1]
    out = tmp_path / "exported"
    code, output = pnp("log", "export", "--db", db, "--out", str(out))
    assert code == 0, output
    written = sorted(out.iterdir())
    assert [p.name for p in written] == ["dietrick-taking-2.yaml", "tasty-humans-1.yaml"]
    for original, exported in zip(sorted(sheets, key=lambda p: p.name), written):
        code, again = pnp("score", str(exported), "--json")
        assert code == 0, again
        _, first = pnp("score", str(original), "--json")
        assert {**json.loads(again), "sheet": None} == {**json.loads(first), "sheet": None}
    # the export is the same, byte for byte, every time
    before = {p.name: p.read_bytes() for p in written}
    pnp("log", "export", "--db", db, "--out", str(out))
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_export_csv_has_a_row_per_player(tmp_path: Path):
    db = str(tmp_path / "log.sqlite")
    pnp("log", "import", str(EXAMPLES / "tasty-humans-2p.yaml"), str(EXAMPLES / "dietrick-taking-3p.yaml"), "--db", db)
    code, output = pnp("log", "export", "--csv", "--db", db)
    assert code == 0, output
    assert output.startswith("\ufeffgame_id,")  # UTF-8 with a BOM, which Excel needs to read it as UTF-8
    rows = list(csv.DictReader(io.StringIO(output.removeprefix("\ufeff"))))
    assert [(r["game_id"], r["seat"], r["player"], r["total"], r["winner"]) for r in rows[:2]] == [("1", "1", "Ana", "42", "yes"), ("1", "2", "Ben", "28", "no")]
    assert [r["game"] for r in rows] == ["tasty-humans"] * 2 + ["dietrick-taking"] * 3
    code, output = pnp("log", "export", "7", "--db", db)
    assert code == 2 and "no logged game 7" in output


def test_the_csv_file_is_utf8_with_a_bom(tmp_path: Path):
    db, out = str(tmp_path / "log.sqlite"), tmp_path / "played.csv"
    sheet = tmp_path / "dt.yaml"
    sheet.write_text((EXAMPLES / "dietrick-taking-3p.yaml").read_text(encoding="utf-8").replace("Ana", "Zo\u00eb"), encoding="utf-8")
    assert pnp("log", "import", str(sheet), "--db", db)[0] == 0
    code, output = pnp("log", "export", "--csv", "--db", db, "--out", str(out))
    assert code == 0, output
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfgame_id,") and "Zo\u00eb".encode() in data


def test_import_is_all_or_nothing(tmp_path: Path):
    db = str(tmp_path / "log.sqlite")
    bad = tmp_path / "bad.yaml"
    bad.write_text((EXAMPLES / "tasty-humans-2p.yaml").read_text().replace("monster: troll", "monster: kraken"))
    code, output = pnp("log", "import", str(EXAMPLES / "dietrick-taking-3p.yaml"), str(bad), "--db", db)
    assert code == 2 and "unknown monster 'kraken'" in output and "Traceback" not in output
    assert Log(Path(db)).games() == []


@pytest.mark.parametrize("command", [["list"], ["export", "--csv"], ["export"]])
def test_reading_a_log_that_is_not_there_creates_nothing(tmp_path: Path, command: list[str]):
    typo = tmp_path / "typo.sqlite"
    code, output = pnp("log", *command, "--db", str(typo))
    assert code == 2 and output.strip() == f"{typo}: no game log here (pnp log import or pnp serve make one)"
    assert list(tmp_path.iterdir()) == []


def test_listing_the_default_log_before_any_game_lists_nothing_and_creates_nothing(tmp_path: Path):
    project = tmp_path / "proj"
    project.mkdir()
    result = runner.invoke(cli, ["log", "list", "--project", str(project)])
    assert result.exit_code == 0 and result.stdout == "" and result.stderr.startswith("no games logged yet: ")
    assert list(project.iterdir()) == []


def test_import_of_a_sheet_whose_claims_are_wrong_logs_nothing_and_says_why_as_score_does(tmp_path: Path):
    db = str(tmp_path / "log.sqlite")
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text((EXAMPLES / "tasty-humans-2p.yaml").read_text().replace("claimed: 42", "claimed: 40").replace("claimed: 28", "claimed: 29"))
    code, output = pnp("log", "import", str(EXAMPLES / "dietrick-taking-3p.yaml"), str(wrong), "--db", db)
    assert code == 1, output
    assert output.strip().splitlines() == [f"{wrong}: Ana: claimed 40 but the board scores 42", f"{wrong}: Ben: claimed 29 but the board scores 28"]
    _, scored = pnp("score", str(wrong))
    assert "Ana: claimed 40 but the board scores 42" in scored and "Ben: claimed 29 but the board scores 28" in scored
    assert Log(Path(db)).games() == []


def test_import_of_a_dietrick_sheet_claiming_the_wrong_winner_logs_nothing(tmp_path: Path):
    db = str(tmp_path / "log.sqlite")
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text((EXAMPLES / "dietrick-taking-3p.yaml").read_text() + "claimed_winner: Cleo\n")  # Ben wins
    code, output = pnp("log", "import", str(wrong), "--db", db)
    _, scored = pnp("score", str(wrong))
    lines = output.strip().splitlines()
    assert code == 1 and len(lines) == 1 and lines[0].startswith(f"{wrong}: mismatch: claimed winner"), output
    assert lines[0].split(": ", 1)[1] in scored
    assert Log(Path(db)).games() == []


def test_a_report_that_names_no_mismatch_still_gives_one_line_when_its_claims_are_wrong():
    from pnp.api import ScoreReport

    class Report(ScoreReport):
        game = "g"

        def __init__(self, code: int):
            self.code = code

        def to_json(self) -> dict:
            return {}

        def render(self, console) -> None:
            pass

        @property
        def exit_code(self) -> int:
            return self.code

    assert Report(0).mismatch_lines() == []
    assert Report(1).mismatch_lines() == ["a claimed value differs from the scored one: `pnp score` shows which"]
    assert Report(1).mismatch_places() == [((), "a claimed value differs from the scored one: `pnp score` shows which")]  # the whole sheet


def test_unrecording_a_session_not_logged_takes_no_write_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import pnp.serve.log as log_module

    monkeypatch.setattr(log_module, "BUSY_SECONDS", 0.2)
    log = Log(tmp_path / "log.sqlite")
    log.record("g", None, {}, ["A"], "d", "sheet", {}, session="s1")
    writer = sqlite3.connect(tmp_path / "log.sqlite", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another page is writing
    log.unrecord("s2")  # a page polling a session not logged: answers at once
    with pytest.raises(PnpError, match="locked"):
        log.unrecord("s1")
    writer.execute("ROLLBACK")
    log.unrecord("s1")
    assert log.games() == []


def test_an_export_imported_again_is_the_same_sheet_with_its_played_date(tmp_path: Path):
    sheets = [EXAMPLES / "tasty-humans-2p.yaml", EXAMPLES / "dietrick-taking-3p.yaml"]
    first = Log(tmp_path / "first.sqlite")
    first.record("tasty-humans", "published", {}, ["Ana", "Ben"], "d", "", {})  # takes id 1: the ids differ below
    assert pnp("log", "import", *map(str, sheets), "--db", str(tmp_path / "first.sqlite"))[0] == 0
    with sqlite3.connect(tmp_path / "first.sqlite") as db:  # played on other days than today
        db.execute("UPDATE games SET played = '2025-03-0' || id || 'T19:30:00Z'")
    pnp("log", "export", "2", "3", "--db", str(tmp_path / "first.sqlite"), "--out", str(tmp_path / "a"))
    exports = sorted((tmp_path / "a").iterdir())
    code, output = pnp("log", "import", *map(str, exports), "--db", str(tmp_path / "second.sqlite"))
    assert code == 0, output
    again = Log(tmp_path / "second.sqlite").games()
    originals = sorted(first.games([2, 3]), key=lambda g: g.game)  # as the files sort
    assert [g.played for g in again] == [g.played for g in originals] == ["2025-03-03T19:30:00Z", "2025-03-02T19:30:00Z"]
    assert [g.sheet for g in again] == [g.sheet for g in originals] == [p.read_text() for p in sorted(sheets)]
    pnp("log", "export", "--db", str(tmp_path / "second.sqlite"), "--out", str(tmp_path / "b"))
    for exported in sorted((tmp_path / "b").iterdir()):
        text = exported.read_text()
        assert text.count("# pnp log:") == 1 and text.startswith("# pnp log: game ")


def test_an_exported_sheet_imported_again_into_its_log_is_not_logged_twice(tmp_path: Path):
    db = str(tmp_path / "log.sqlite")
    sheet = EXAMPLES / "tasty-humans-2p.yaml"
    Log(tmp_path / "log.sqlite").record("tasty-humans", None, {}, ["Ana", "Ben"], "d", sheet.read_text(), {}, session="s1")  # served, default rules
    assert pnp("log", "export", "--db", db, "--out", str(tmp_path / "out"))[0] == 0
    exported = tmp_path / "out" / "tasty-humans-1.yaml"
    assert pnp("log", "import", str(exported), str(exported), "--db", db) == (0, "game 1 is already in the log\n" * 2)
    # a sheet typed by hand (no header, no date), imported twice: the second time it is the game the first one logged
    typed = str(EXAMPLES / "dietrick-taking-3p.yaml")
    assert pnp("log", "import", typed, typed, "--db", db) == (0, "logged game 2\ngame 2 is already in the log\n")
    # the export of a game played on another day is another game
    other_day = tmp_path / "other-day.yaml"
    other_day.write_text(exported.read_text().replace(Log(tmp_path / "log.sqlite").games([1])[0].played, "2025-01-01T10:00:00Z", 1))
    assert pnp("log", "import", str(other_day), "--db", db) == (0, "logged game 3\n")
    assert [g.id for g in Log(tmp_path / "log.sqlite").games()] == [1, 2, 3]


@pytest.mark.parametrize("played", ["2025-13-01T19:30:00Z", "2025-03-01 19:30:00", "2025-3-1T19:30:00Z", "yesterday", "2025-03-01T19:30:00+01:00"])
def test_a_pnp_header_with_a_date_pnp_does_not_write_is_refused_at_line_1(tmp_path: Path, played: str):
    sheet = tmp_path / "sheet.yaml"
    sheet.write_text(f"# pnp log: game 4, played {played}, content digest 0123456789abcdef\n" + (EXAMPLES / "dietrick-taking-3p.yaml").read_text())
    code, output = pnp("log", "import", str(sheet), "--db", str(tmp_path / "log.sqlite"))
    assert code == 2 and output.strip() == f"{sheet}:1: played {played!r}: expected the UTC date and time pnp writes, as 2026-01-31T18:05:00Z"
    assert Log(tmp_path / "log.sqlite").games() == []


def test_another_first_comment_is_kept_with_the_sheet(tmp_path: Path):
    text = "# pnp log: my notes from Tuesday, played 2025-03-01T19:30:00Z\n" + (EXAMPLES / "dietrick-taking-3p.yaml").read_text()
    (tmp_path / "sheet.yaml").write_text(text)
    assert pnp("log", "import", str(tmp_path / "sheet.yaml"), "--db", str(tmp_path / "log.sqlite"))[0] == 0
    [game] = Log(tmp_path / "log.sqlite").games()
    assert game.sheet == text and game.played != "2025-03-01T19:30:00Z"


@pytest.mark.parametrize("name", ['=HYPERLINK("http://evil.example/","x")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tTab", "\rCR"])
def test_export_csv_writes_no_live_formula(tmp_path: Path, name: str):
    """A name a spreadsheet would run (OWASP's CSV injection) comes out after an apostrophe;
    numbers (a negative total) stay numbers."""
    log = Log(tmp_path / "log.sqlite")
    log.record("g", "=rules", {}, [name, "Ben"], "d", "sheet", {"players": [{"name": name, "total": -3}, {"name": "Ben", "total": 2}],
                                                          "winners": ["Ben"]})
    from pnp.serve.logbook import export_csv

    rows = list(csv.DictReader(io.StringIO(export_csv(log.games()), newline="")))  # as `pnp log export --csv` writes it
    assert [(r["player"], r["total"], r["rules"]) for r in rows] == [("'" + name, "-3", "'=rules"), ("Ben", "2", "'=rules")]


def test_export_csv_keeps_a_line_break_inside_its_cell(tmp_path: Path):
    """A CR or LF within a name is quoted: no new row starting with a formula."""
    from pnp.serve.logbook import export_csv

    log = Log(tmp_path / "log.sqlite")
    log.record("g", None, {}, ["Eve\r=1+1", "Bo\n@x"], "d", "sheet", {})
    rows = list(csv.DictReader(io.StringIO(export_csv(log.games()), newline="")))
    assert [r["player"] for r in rows] == ["Eve\r=1+1", "Bo\n@x"]


def test_a_name_a_log_kept_before_names_were_checked_is_listed_and_exported_escaped(tmp_path: Path):
    """Half of an emoji in a player's name (logged before `pnp serve` checked names; the log
    keeps its JSON escaped) cannot be written as UTF-8: `pnp log` prints it escaped, as the
    page shows it, rather than crash."""
    db = tmp_path / "log.sqlite"
    Log(db).record("tasty-humans", None, {"a\ud800": 1}, ["Ana", "A\ud83d"], "d", "game: tasty-humans\n",
                   {"players": [{"name": "A\ud83d", "total": 3}], "winners": ["A\ud83d"]})
    code, output = pnp("log", "list", "--db", str(db))
    assert (code, output.split("  ")[5:7]) == (0, ["Ana, A\\ud83d", "A\\ud83d"])
    code, output = pnp("log", "export", "--csv", "--db", str(db))
    assert code == 0 and [r["player"] for r in csv.DictReader(io.StringIO(output))] == ["Ana", "A\\ud83d"]
    code, output = pnp("log", "export", "--csv", "--db", str(db), "--out", str(tmp_path / "games.csv"))
    assert code == 0 and "A\\ud83d,3,yes" in (tmp_path / "games.csv").read_text(encoding="utf-8")
    code, output = pnp("log", "export", "--db", str(db), "--out", str(tmp_path / "sheets"))
    assert code == 0 and (tmp_path / "sheets" / "tasty-humans-1.yaml").read_text(encoding="utf-8").startswith(
        "# pnp log: game 1, played ")
    assert (tmp_path / "sheets" / "tasty-humans-1.yaml").read_text(encoding="utf-8").splitlines()[0].endswith(', rule changes a\\ud800=1')


# The shipped solo example's board (Sam, 27) against other A.I. cards: level 0's 2 cards plus
# 2 in each of 3 rounds, 2 Swordsmen (2^2 = 4) and 6 Peasants, shapes 23: the A.I. scores 27.
AI_27 = "solo:\n  level: 0\n  ai_cards: [adv-01, adv-09, adv-37, adv-38, adv-39, adv-40, adv-41, adv-44]\n  challenge: {challenge}\n"


def _solo_sheet(tmp_path: Path, name: str, challenge: str | None) -> Path:
    path = tmp_path / f"{name}.yaml"
    board = (EXAMPLES / "tasty-humans-solo.yaml").read_text().split("solo:\n")[0]
    path.write_text(board + AI_27.format(challenge=challenge or "null"))
    return path


@pytest.mark.parametrize("name, challenge, won", [
    ("won", None, True),  # published line 267: a score equal to the A.I.'s wins
    ("lost-challenge", "balanced-diet/beginner", False),  # line 275: every leader needs 10; Hand Range scored 2
    ("lost", "example", False),  # the shipped example as it is: 27 < the A.I.'s 45
])
def test_a_tasty_humans_solo_game_is_logged_with_the_verdict_pnp_score_gives(tmp_path: Path, name: str, challenge: str | None, won: bool):
    from pnp.serve.stats import statistics

    sheet = EXAMPLES / "tasty-humans-solo.yaml" if challenge == "example" else _solo_sheet(tmp_path, name, challenge)
    code, text = pnp("score", str(sheet))
    assert code == 0 and ("Sam wins:" in text) is won and ("Sam loses:" in text) is not won, text
    _, report = pnp("score", str(sheet), "--json")
    assert json.loads(report)["winners"] == (["Sam"] if won else [])
    db = str(tmp_path / "log.sqlite")
    assert pnp("log", "import", str(sheet), "--db", db)[0] == 0
    listed = pnp("log", "list", "--db", db)[1].split("  ")
    assert listed[listed.index("Sam") + 1] == ("Sam" if won else "nobody")
    rows = list(csv.DictReader(io.StringIO(pnp("log", "export", "--csv", "--db", db)[1])))
    assert [(r["player"], r["winner"]) for r in rows] == [("Sam", "yes" if won else "no")]
    assert statistics(Log(Path(db)).games())[0]["wins_by_seat"] == [int(won)]


def test_export_csv_to_a_file_and_not_onto_a_folder(tmp_path: Path):
    """`pnp log export --csv --out FILE` writes the CSV there (byte for byte what stdout
    gets) and names it; a folder given as FILE is one line naming that folder (it named
    a temporary file, `.rows.csv.<pid>-0.tmp: Is a directory`), nothing left beside it."""
    db = str(tmp_path / "log.sqlite")
    pnp("log", "import", str(EXAMPLES / "tasty-humans-2p.yaml"), "--db", db)
    _, shown = pnp("log", "export", "--csv", "--db", db)
    code, output = pnp("log", "export", "--csv", "--db", db, "--out", str(tmp_path / "rows.csv"))
    assert (code, output) == (0, f"{tmp_path / 'rows.csv'}\n")
    assert (tmp_path / "rows.csv").read_text(encoding="utf-8") == shown
    (tmp_path / "folder").mkdir()
    code, output = pnp("log", "export", "--csv", "--db", db, "--out", str(tmp_path / "folder"))
    assert (code, output) == (2, f"{tmp_path / 'folder'}: Is a directory\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "log.sqlite", "rows.csv"]


def test_an_exported_sheet_says_the_rule_changes_it_was_played_with(tmp_path: Path):
    db = tmp_path / "log.sqlite"
    Log(db).record("tasty-humans", None, {"king_bonus": 4, "cravings.troll.points": 3}, ["Ana"], "0" * 16, "game: tasty-humans\n", {})
    code, output = pnp("log", "export", "--db", str(db), "--out", str(tmp_path / "out"))
    assert code == 0, output
    first = (tmp_path / "out/tasty-humans-1.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# pnp log: game 1, played ") and first.endswith(", rule changes cravings.troll.points=3, king_bonus=4")


def test_a_log_in_a_folder_that_is_not_there_is_one_line(tmp_path: Path):
    """`--db` in a folder not made: listing says there is no log; importing, that the log
    cannot be opened (SQLite makes no folder), and makes nothing."""
    db = tmp_path / "missing" / "log.sqlite"
    code, output = pnp("log", "list", "--db", str(db))
    assert (code, output) == (2, f"{db}: no game log here (pnp log import or pnp serve make one)\n")
    code, output = pnp("log", "import", str(EXAMPLES / "tasty-humans-2p.yaml"), "--db", str(db))
    assert (code, output) == (2, f"{db}: cannot open the log: its folder {db.parent} does not exist: make it, or give --db a file in a folder that does\n")
    assert not (tmp_path / "missing").exists()
