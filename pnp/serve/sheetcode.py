"""The table's QR code for the printed scoring sheet: what `pnp sheet --table` hands the
sheet's template as `item.table`. The code is SVG path data in module units, drawn inline
by the template: a face may hold no link to a file (pnp/render/hrefs.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import PnpError, display_path
from . import Served, check_port, lan_address, require_extra

if TYPE_CHECKING:
    from ..load.content import Project

CAPTION = "Scan to score on your phone"


def table_url(project: "Project", db: Path | None, port: int) -> str:
    """The URL `pnp serve --lan --port PORT` prints: this machine's LAN address and the
    table's token read from the log. Nothing is written: without a token, one line saying
    to start the server first."""
    from .log import LOG_NAME, Log

    require_extra()
    check_port(port)
    path = db if db is not None else project.root / LOG_NAME
    token = Log(path).saved_token() if path.is_file() else None
    if token is None:
        raise PnpError(f"--table: no table in {display_path(path)} yet: run `pnp serve --lan` once (it makes the table's link), "
                       "then print the sheet")
    return Served(lan_address(), port, token).url


def path_data(url: str) -> tuple[str, int]:
    """The QR code of `url` (error correction M, as in the terminal) as path data of its dark
    modules, one unit a module, and its width in modules (the quiet zone not included)."""
    import segno

    code = segno.make(url, error="m")
    runs = []
    for y, row in enumerate(code.matrix_iter(border=0)):
        x = 0
        while x < len(row):
            if row[x]:
                start = x
                while x < len(row) and row[x]:
                    x += 1
                runs.append(f"M{start},{y}h{x - start}v1h-{x - start}z")  # a run of dark modules in a row
            else:
                x += 1
    return "".join(runs), code.symbol_size(border=0)[0]


def table_code(url: str) -> dict[str, Any]:
    """`item.table` for the sheet's template: the URL, the caption and the code."""
    d, modules = path_data(url)
    return {"url": url, "caption": CAPTION, "path": d, "modules": modules}
