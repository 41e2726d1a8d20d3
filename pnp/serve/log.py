"""The play-test log: one SQLite file in the project (`pnp-log.sqlite`) holding the open
sessions of `pnp serve` and every finished game, with its date, players, rule version, rule
changes and a digest of the game's content (results before and after a content change are
told apart).

The schema is versioned with `PRAGMA user_version` and brought up to date by MIGRATIONS
when the file is opened, once it is found to be exactly pnp's; what is read from it is
checked as any input is (pnp/serve/logcheck.py). Every write is one short transaction (WAL journal, a busy timeout),
so two phones saving at once both land; a restart finds every session where it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import stat
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Union

from ..load import project_files
from ..errors import ContentError, PnpError, display_name, display_path
from . import logcheck

LOG_NAME = project_files.LOG_NAME
# fields to set, or how to make them from the stored ones (inside the write transaction)
Edit = Union[dict[str, Any], Callable[[dict[str, Any]], dict[str, Any]]]


def log_path(root: Path, db: Path | None) -> Path:
    """The log file: `--db` when given, else `pnp-log.sqlite` in the project folder `root`."""
    return db if db is not None else Path(root).resolve() / LOG_NAME
BUSY_SECONDS = 30.0

# MIGRATIONS[i] brings a file of user_version i to i + 1. Append, never edit one that shipped.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        rules TEXT,
        changes TEXT NOT NULL,          -- JSON mapping: rule values changed, as on the sheet
        players TEXT NOT NULL,          -- JSON list of names, in seat order
        table_values TEXT NOT NULL,     -- JSON mapping: the sheet's fields the table shares
        created TEXT NOT NULL
    );
    CREATE TABLE boards (
        session TEXT NOT NULL REFERENCES sessions(id),
        seat INTEGER NOT NULL,          -- 0-based
        board TEXT NOT NULL,            -- JSON mapping: the player's fields
        done INTEGER NOT NULL,
        PRIMARY KEY (session, seat)
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session TEXT UNIQUE,            -- NULL for an imported sheet
        played TEXT NOT NULL,           -- UTC, ISO 8601
        game TEXT NOT NULL,
        rules TEXT,
        changes TEXT NOT NULL,
        players TEXT NOT NULL,
        digest TEXT NOT NULL,           -- sha256 of the game's content files
        sheet TEXT NOT NULL,            -- the sheet YAML, as `pnp score` reads it
        report TEXT NOT NULL            -- `pnp score --json` of it
    );
    """,
    """
    CREATE TABLE settings (              -- the server's own values, e.g. the table's token
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
)
VERSION = len(MIGRATIONS)


PLAYED_FORMAT = "%Y-%m-%dT%H:%M:%SZ"  # UTC, ISO 8601: every date the log holds


def _now() -> str:
    return time.strftime(PLAYED_FORMAT, time.gmtime())


@dataclass
class Session:
    id: str
    game: str
    rules: str | None
    changes: dict[str, Any]
    players: list[str]
    table: dict[str, Any]
    boards: dict[int, dict[str, Any]]
    done: dict[int, bool]
    created: str


@dataclass
class Game:
    """A finished game in the log."""

    id: int
    session: str | None
    played: str
    game: str
    rules: str | None
    changes: dict[str, Any]
    players: list[str]
    digest: str
    sheet: str
    report: dict[str, Any]


SIDE_FILES = ("-wal", "-shm", "-journal")  # SQLite's own files beside the log, opened (and made) by name


def plain_log(path: Path) -> Path:
    """`path`, or a PnpError when pnp must not open it as the log: it (or a file SQLite keeps
    beside it) is a link, which would make pnp create or change the file it leads to, or no
    plain file (a pipe would hang); or it is a database of another program (its tables, or
    a `user_version` no pnp wrote), which pnp must not migrate. Only read: a command that
    lists the log changes nothing."""
    for name in (str(path), *(f"{path}{side}" for side in SIDE_FILES)):
        try:
            found = os.lstat(name)
        except OSError:
            continue
        if stat.S_ISLNK(found.st_mode):
            raise PnpError(f"{display_name(name)}: the log is a link (to {os.path.realpath(name)}): pnp opens only a plain "
                           "file as its log: remove the link, or name the file itself with --db")
        if not stat.S_ISREG(found.st_mode):
            raise PnpError(ContentError(name, None, None, "the log is not a plain file: remove it, or name another file with --db"))
    if not path.exists() or path.stat().st_size == 0:
        return path
    _checked(path)
    return path


def _checked(path: Path) -> None:
    """Refuse a database whose schema is not exactly pnp's at its version (another program's,
    or a log changed by hand), read without a write: immutable first (no lock, no side file
    made); again with a shared lock when that read met a page `pnp serve` was writing."""
    uri = Path(os.path.abspath(path)).as_uri()
    for mode in ("mode=ro&immutable=1", "mode=ro"):
        try:
            db = sqlite3.connect(f"{uri}?{mode}", uri=True)
            try:
                version = db.execute("PRAGMA user_version").fetchone()[0]
                if version > VERSION:
                    raise PnpError(_newer(path, version))
                logcheck.check_schema(db, path, version, MIGRATIONS)
                return
            finally:
                db.close()
        except sqlite3.Error as exc:
            problem = exc
    raise PnpError(ContentError(path, None, None, f"the log cannot be used: {problem}"))


def _newer(path: Path, version: int) -> ContentError:
    return ContentError(path, None, None, f"log schema version {version} is newer than this pnp's ({VERSION}): upgrade pnp")


class Log:
    """The log file: open it with Log(path); each method is one transaction."""

    def __init__(self, path: Path):
        self.path = plain_log(path)
        self._migrate()

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        try:
            db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as exc:
            why = str(exc) if self.path.parent.is_dir() else (  # SQLite makes no folder, and says only "unable to open"
                f"its folder {display_path(self.path.parent)} does not exist: make it, or give --db a file in a folder that does")
            raise PnpError(ContentError(self.path, None, None, f"cannot open the log: {why}")) from None
        try:
            logcheck.bound(db)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA foreign_keys=ON")
            yield db
        except sqlite3.DatabaseError as exc:
            raise PnpError(ContentError(self.path, None, None, f"the log cannot be used: {logcheck.reason(exc)}")) from None
        finally:
            db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")  # take the write lock first: no upgrade deadlock between writers
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _migrate(self) -> None:
        with self._db() as db:  # a log up to date is only read: `pnp log list` changes nothing
            if db.execute("PRAGMA user_version").fetchone()[0] == VERSION:
                logcheck.check_schema(db, self.path, VERSION, MIGRATIONS)  # every definition pnp's, before any query of its tables
                return
        with self._write() as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > VERSION:
                raise PnpError(_newer(self.path, version))
            logcheck.check_schema(db, self.path, version, MIGRATIONS)  # before any query of its tables
            logcheck.apply(db, MIGRATIONS[version:])
            db.execute(f"PRAGMA user_version = {VERSION}")

    # --- sessions -------------------------------------------------------------------

    def create_session(self, sid: str, game: str, rules: str | None, changes: dict[str, Any], players: list[str],
                       table: dict[str, Any], boards: list[dict[str, Any]]) -> None:
        with self._write() as db:
            db.execute("INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (sid, game, rules, json.dumps(changes), json.dumps(players), json.dumps(table), _now()))
            db.executemany("INSERT INTO boards VALUES (?, ?, ?, 0)", [(sid, seat, json.dumps(b)) for seat, b in enumerate(boards)])

    def session(self, sid: str) -> Session | None:
        with self._db() as db:
            row = db.execute("SELECT id, game, rules, changes, players, table_values, created FROM sessions WHERE id = ?", (sid,)).fetchone()
            if row is None:
                return None
            boards = db.execute("SELECT seat, board, done FROM boards WHERE session = ? ORDER BY seat LIMIT ?",
                                (sid, logcheck.rows_limit())).fetchall()
        where = f"session {sid}"
        logcheck.check_rows(boards, self.path, f"boards in {where}")
        seats = [logcheck.value(self.path, f"{where}: seat", seat, int) for seat, _, _ in boards]
        return Session(row[0], logcheck.game_name(self.path, f"{where}: game", row[1]), self._text(f"{where}: rules", row[2]),
                       self._json(f"{where}: changes", row[3], dict), self._players(f"{where}: players", row[4]),
                       self._json(f"{where}: table values", row[5], dict),
                       {seat: self._json(f"{where}: board {seat}", b, dict) for seat, (_, b, _) in zip(seats, boards)},
                       {seat: bool(d) for seat, (_, _, d) in zip(seats, boards)}, str(row[6]))

    def sessions(self) -> list[dict[str, Any]]:
        """Every session, newest first: id, game, players, created and whether it is logged."""
        with self._db() as db:
            rows = db.execute("SELECT s.id, s.game, s.players, s.created, g.id FROM sessions s LEFT JOIN games g ON g.session = s.id "
                              "ORDER BY s.created DESC, s.rowid DESC LIMIT ?", (logcheck.rows_limit(),)).fetchall()
        logcheck.check_rows(rows, self.path, "sessions")
        return [{"id": str(r[0]), "game": logcheck.game_name(self.path, f"session {r[0]}: game", r[1]),
                 "players": self._players(f"session {r[0]}: players", r[2]), "created": str(r[3]), "logged": r[4]} for r in rows]

    def save_board(self, sid: str, seat: int, values: Edit, done: bool | None = None) -> None:
        """Set these fields of a board (the others stay) and, unless None, whether it is
        complete: read and written in one transaction, so two pages saving at once both land.
        `values` may be a function of the stored board giving the fields to set (a page's
        cells and keys merged into what is stored)."""
        with self._write() as db:
            row = db.execute("SELECT board, done FROM boards WHERE session = ? AND seat = ?", (sid, seat)).fetchone()
            if row is not None:
                board = self._json(f"session {sid}: board {seat}", row[0], dict)
                board.update(values(board) if callable(values) else values)
                db.execute("UPDATE boards SET board = ?, done = ? WHERE session = ? AND seat = ?",
                           (json.dumps(board), row[1] if done is None else int(done), sid, seat))

    def save_table(self, sid: str, values: Edit) -> None:
        """Set these of the fields the table shares (the others stay), in one transaction
        (`values`: as save_board's)."""
        with self._write() as db:
            row = db.execute("SELECT table_values FROM sessions WHERE id = ?", (sid,)).fetchone()
            if row is not None:
                table = self._json(f"session {sid}: table values", row[0], dict)
                table.update(values(table) if callable(values) else values)
                db.execute("UPDATE sessions SET table_values = ? WHERE id = ?", (json.dumps(table), sid))

    def saved_token(self) -> str | None:
        """The table's token if `pnp serve` made one, else None (nothing is written)."""
        with self._db() as db:
            row = db.execute("SELECT value FROM settings WHERE key = 'token'").fetchone()
        return None if row is None else _table_token(row[0])

    def token(self, new: bool = False) -> str:
        """The table's token: the same after a restart (phones keep their link), a new one
        when `new`."""
        with self._write() as db:
            row = None if new else db.execute("SELECT value FROM settings WHERE key = 'token'").fetchone()
            if row is not None:
                return _table_token(row[0])
            seed = secrets.token_urlsafe(24)
            db.execute("INSERT OR REPLACE INTO settings VALUES ('token', ?)", (seed,))
            return _table_token(seed)

    # --- finished games ---------------------------------------------------------------

    def record(self, game: str, rules: str | None, changes: dict[str, Any], players: list[str], digest: str, sheet: str,
               report: dict[str, Any], session: str | None = None, played: str | None = None) -> int:
        """Log a finished game; a session's game logged again (a board changed after it was
        complete) keeps its id and takes the new sheet. The game's id."""
        values = (played or _now(), game, rules, json.dumps(changes), json.dumps(players), digest, sheet, json.dumps(report, sort_keys=True))
        with self._write() as db:
            if session is not None:
                logged = db.execute("SELECT id, sheet FROM games WHERE session = ?", (session,)).fetchone()
                if logged is not None:
                    if logged[1] != sheet:
                        db.execute("UPDATE games SET played = ?, game = ?, rules = ?, changes = ?, players = ?, digest = ?, sheet = ?, report = ? "
                                   "WHERE id = ?", (*values, logged[0]))
                    return int(logged[0])
            cur = db.execute("INSERT INTO games (session, played, game, rules, changes, players, digest, sheet, report) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             (session, *values))
            return int(cur.lastrowid or 0)

    def same_game(self, game: str, changes: dict[str, Any], players: list[str], sheet: str, played: str | None) -> int | None:
        """The id of a logged game of this sheet text (which names its rules too), game, rule
        changes, players and, when known, played date: an exported sheet imported again."""
        with self._db() as db:
            rows = db.execute("SELECT id, played, changes, players FROM games WHERE game = ? AND sheet = ? ORDER BY id LIMIT ?",
                              (game, sheet, logcheck.rows_limit())).fetchall()
        logcheck.check_rows(rows, self.path, "logged games")
        for r in rows:
            where = f"game {r[0]}"
            if self._json(f"{where}: changes", r[2], dict) == changes and self._players(f"{where}: players", r[3]) == players \
                    and played in (None, r[1]):
                return logcheck.value(self.path, f"{where}: id", r[0], int)
        return None

    def unrecord(self, session: str) -> None:
        """A session's game is no longer finished (a board was reopened, its sheet became
        impossible): out of the log. Looked for first, so that saving a board of a session
        not logged takes no write lock."""
        with self._db() as db:
            if db.execute("SELECT 1 FROM games WHERE session = ?", (session,)).fetchone() is None:
                return
        with self._write() as db:
            db.execute("DELETE FROM games WHERE session = ?", (session,))

    def logged(self, session: str) -> tuple[int, str] | None:
        """A session's logged game: its id and the content digest it was logged under."""
        with self._db() as db:
            row = db.execute("SELECT id, digest FROM games WHERE session = ?", (session,)).fetchone()
        if row is None:
            return None
        return logcheck.value(self.path, f"session {session}: logged game", row[0], int), \
            logcheck.value(self.path, f"game {row[0]}: digest", row[1], str)

    def games(self, ids: list[int] | None = None) -> list[Game]:
        """The logged games in the order played (only `ids` when given)."""
        with self._db() as db:
            rows = db.execute("SELECT id, session, played, game, rules, changes, players, digest, sheet, report FROM games "
                              "ORDER BY id LIMIT ?", (logcheck.rows_limit(),)).fetchall()
        logcheck.check_rows(rows, self.path, "logged games")
        return _only([self._game(r) for r in rows], ids, self.path)

    # --- reading what the file holds: checked, as any input (pnp/serve/logcheck.py) -----

    def _game(self, r: tuple) -> Game:
        where = f"game {r[0]}"

        def text(column: str, value: Any) -> str:
            return logcheck.value(self.path, f"{where}: {column}", value, str)

        return Game(r[0], self._text(f"{where}: session", r[1]), text("played", r[2]), logcheck.game_name(self.path, f"{where}: game", r[3]),
                    self._text(f"{where}: rules", r[4]), self._json(f"{where}: changes", r[5], dict), self._players(f"{where}: players", r[6]),
                    text("digest", r[7]), text("sheet", r[8]), self._report(f"{where}: report", r[9]))

    def _json(self, where: str, text: Any, kind: type) -> Any:
        return logcheck.parsed(self.path, where, text, kind)

    def _text(self, where: str, value: Any) -> str | None:
        return None if value is None else logcheck.value(self.path, where, value, str)

    def _players(self, where: str, text: Any) -> list[str]:
        return [logcheck.value(self.path, f"{where}: seat {i}", name, str) for i, name in enumerate(self._json(where, text, list), start=1)]

    def _report(self, where: str, text: Any) -> dict[str, Any]:
        """A `pnp score --json` report: what the log's readers look up in it is of its type."""
        report = self._json(where, text, dict)
        winners = report.get("winners") or []
        players = report.get("players") or []
        if not (isinstance(winners, list) and all(isinstance(w, str) for w in winners)):
            raise logcheck.refused(self.path, f"{where}: winners: expected a list of names")
        if not (isinstance(players, list) and all(not isinstance(p, dict) or isinstance(p.get("name", ""), str) for p in players)):
            raise logcheck.refused(self.path, f"{where}: players: expected a list of players, each named by a text")
        return report


def _table_token(seed: Any) -> str:
    """The table's token from what the log keeps (its 'token' setting): sealed with the
    user's own key (pnp/load/seal.py), so a log that came with a project, its setting chosen by
    the project's author, still gives a token only this user's pnp can make."""
    from ..load.seal import mac

    return mac("table token", str(seed).encode("utf-8", "surrogateescape"))[:32]


def _only(games: list[Game], ids: list[int] | None, path: Path) -> list[Game]:
    """The games of these ids (all when None); an id not logged is an error."""
    if ids is None:
        return games
    missing = sorted(set(ids) - {g.id for g in games})
    if missing:
        raise PnpError(f"{path}: no logged game {', '.join(map(str, missing))}: `pnp log list` shows their ids")
    return [g for g in games if g.id in ids]


def logged_games(path: Path, ids: list[int] | None = None, *, named: bool) -> list[Game]:
    """The logged games (only `ids` when given) of the log at `path`, for commands that only
    read it: a missing file is never created. When the user `named` the file (`--db`) it not
    being there is an error (a mistyped name); the project's default log not made yet holds
    no games."""
    if not plain_log(path).exists():
        if named:
            raise PnpError(ContentError(path, None, None, "no game log here (pnp log import or pnp serve make one)"))
        return _only([], ids, path)
    return Log(path).games(ids)


def content_digest(root: Path, content_dir: Path) -> str:
    """sha256 over the game's content files (names and bytes), the first 16 hex digits; read
    through the project's one door (a link out of the project is an error, not read). Not
    files.tree_digest: logs keep these values, and games of the same content group by them."""
    h = hashlib.sha256()
    for path in project_files.listing(root, content_dir, "**/*"):
        if path.is_file():
            h.update(path.relative_to(content_dir).as_posix().encode() + b"\0")
            h.update(project_files.read_bytes(root, path) + b"\0")
    return h.hexdigest()[:16]
