"""`pnp serve`: score at the table. A web app (Starlette, served by uvicorn) where the host
starts a game and every player enters their own board on their own phone; boards are
checked and scored live by `pnp score`'s code and every finished game goes to the
play-test log (log.py). Needs the optional extra `serve`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..errors import OptionError, PnpError, display_path, pip_extra

if TYPE_CHECKING:
    from ..load.content import Project

INSTALL = f"pnp serve needs the extra `serve`: {pip_extra('serve')} (or pip install starlette uvicorn segno)"
DEFAULT_PORT = 8000


def require_extra() -> None:
    """Raise a one-line PnpError when the `serve` extra is not installed."""
    try:
        import segno  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise PnpError(INSTALL) from None


def lan_address() -> str:
    """This machine's address on the local network (the one its default route uses)."""
    import socket  # here: the command line imports this package for DEFAULT_PORT

    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))  # UDP: nothing is sent, the kernel picks the interface
        return str(probe.getsockname()[0])
    except OSError:
        raise OptionError("--lan: no local network found: connect to the table's Wi-Fi, or leave --lan out") from None
    finally:
        probe.close()


@dataclass(frozen=True)
class Served:
    host: str
    port: int
    token: str

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/?token={self.token}"


def qr_text(url: str) -> str:
    """The URL as a QR code drawn with text blocks, for the terminal."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def check_port(port: int) -> None:
    if not 1 <= port <= 65535:
        raise OptionError(f"--port {port}: expected 1 to 65535")


def serve(project: "Project", db: Path | None, lan: bool, port: int, say: Callable[[str], None], new_token: bool = False) -> None:
    """Run the server until Ctrl-C; `say` prints the URL (and with `lan` its QR code). The
    token is kept in the log, so a restart keeps the link; `new_token` makes another."""
    require_extra()
    import socket

    import uvicorn

    from .app import make_app
    from .log import Log, log_path
    from .scoring import Games

    check_port(port)
    host = lan_address() if lan else "127.0.0.1"
    # refuse a port in use in one line, before uvicorn would log a traceback, and before the
    # log is opened: a server that never ran leaves no new log file (nor a new token) behind
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as exc:
        raise OptionError(f"--port {port}: cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    log = Log(log_path(project.root, db))
    served = Served(host, port, log.token(new=new_token))
    app = make_app(Games(project), log, served.token)
    say(f"log: {display_path(log.path)}")
    if lan:
        for line in qr_text(served.url).splitlines():
            say(line)
    say(f"open: {served.url}")
    if lan:
        options = "".join([f" --project {display_path(project.root)}" if project.root.resolve() != Path.cwd().resolve() else "",
                           f" --port {port}" if port != DEFAULT_PORT else "", f" --db {display_path(log.path)}" if db is not None else ""])
        say(f"print this code on the scoring sheet: pnp sheet GAME --players N --table{options}")
    say("Ctrl-C stops")
    uvicorn.run(app, host=served.host, port=port, log_level="warning")
