"""The table's QR code for the printed scoring sheet: what `pnp sheet --table` hands the
sheet's template as `item.table`. The code is an SVG data URI pnp makes, the only kind of
picture a face may hold (no link to a file: pnp/render/hrefs.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import OptionError, PnpError, display_path
from . import Served, check_port, lan_address, require_extra

if TYPE_CHECKING:
    from ..load.content import Project


def table_url(project: "Project", db: Path | None, port: int) -> str:
    """The URL `pnp serve --lan --port PORT` prints: this machine's LAN address and the
    table's token read from the log. Nothing is written: without a token, one line saying
    to start the server first."""
    from .log import Log, log_path

    require_extra()
    check_port(port)
    path = log_path(project.root, db)
    token = Log(path).saved_token() if path.is_file() else None
    if token is None:
        raise OptionError(f"--table: no table in {display_path(path)} yet: run `pnp serve --lan` once (it makes the table's link), "
                       "then print the sheet")
    try:
        host = lan_address()
    except PnpError:
        raise OptionError("--table: no local network found: connect to the table's Wi-Fi (the code holds this computer's address on it)") from None
    return Served(host, port, token).url


def table_code(url: str) -> dict[str, Any]:
    """`item.table` for the sheet's template: the URL and its QR code (error
    correction M, as in the terminal) as an SVG data URI drawn by segno, without its quiet
    zone (the sheet leaves white room around it)."""
    import segno

    image = segno.make(url, error="m").svg_data_uri(border=0, omitsize=True, dark="#000")
    return {"url": url, "image": image}
