"""The report of a run: a short table for the terminal and
`output/<game>/simulate/index.html` with inline SVG plots."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from markupsafe import Markup

from pnp.errors import counted
from pnp.files import write_atomic
from pnp.render.pages import render_page

from . import plots
from .runner import Run
from .summary import Row, Section, is_number, summarise

if TYPE_CHECKING:
    from rich.console import Console

# Sections worth a line in the terminal; the page shows every section.
TERMINAL = ("win-", "score-", "metrics", "metric-")
TERMINAL_SOURCES = ("craving", "damage", "king")


def fmt(v: float, rate: bool, sign: bool = False) -> str:
    """Two decimals (one for a rate in %); two significant digits for a value closer to 0
    than the last decimal (and a rate closer to 100%), so that a difference marked as
    missing 0 never reads `+0.00 ± 0.00`, nor a share of 1 game in 2000 `100.0%`."""
    if math.isnan(v):
        return "-"
    shown, decimals, unit = (v * 100, 1, "%") if rate else (v, 2, "")
    for off in (abs(shown), 100 - shown if rate else 0):
        off = round(off, 9)  # 100 - 99.9 is 0.0999...: not closer to 100 than one decimal
        if 0 < off < 10 ** -decimals:
            decimals = max(decimals, 1 - math.floor(math.log10(off)))
    return ("+" if sign and v > 0 else "") + f"{shown:.{decimals}f}{unit}"


def ci(e, rate: bool, sign: bool = False) -> str:
    if e is None or not e.n:
        return "-"
    return f"{fmt(e.mean, rate, sign)} [{fmt(e.low, rate, sign)}, {fmt(e.high, rate, sign)}]"


def short(e, rate: bool, sign: bool = False) -> str:
    """Mean ± half the 95% interval, for the terminal."""
    if e is None or not e.n:
        return "-"
    return f"{fmt(e.mean, rate, sign)} ± {fmt(e.half, rate)}"


def changes(sections: list[Section]) -> list[tuple[Section, Row]]:
    """Rows whose difference has a 95% interval that misses zero, largest first."""
    found = [(s, r, r.diff) for s in sections for r in s.rows if r.diff is not None and r.diff.n > 1 and r.diff.excludes_zero()]
    return [(s, r) for s, r, d in sorted(found, key=lambda srd: -abs(srd[2].mean) / max(srd[2].half, 1e-9))]


def print_table(run: Run, console: "Console", sections: list[Section] | None = None) -> None:
    from rich.table import Table

    sections = sections if sections is not None else summarise(run)
    speed = run.games * (2 if run.ref else 1) / run.seconds if run.seconds else 0
    console.print(f"{run.title}: {run.games} games x {counted(2 if run.ref else 1, 'side')}, {counted(run.players, 'player')} "
                  f"({', '.join(run.strategies)}), seed {run.seed}, {run.seconds:.1f}s on {run.jobs} process(es), {speed:.0f} games/s",
                  markup=False, soft_wrap=True)
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("")
    table.add_column(run.base.title)
    if run.ref:
        table.add_column(run.ref.title)
        table.add_column("difference")
    for s in sections:
        if not s.id.startswith(TERMINAL) and s.id != "sources":
            continue
        rows = [r for r in s.rows if s.id != "sources" or r.name in TERMINAL_SOURCES]
        if not rows:
            continue
        table.add_row(f"[bold]{s.title}[/bold]", *[""] * (3 if run.ref else 1))
        for r in rows:
            cells = [f"  {r.name}", short(r.base, s.rate)]
            if run.ref:
                star = " *" if r.diff is not None and r.diff.n > 1 and r.diff.excludes_zero() else ""
                cells += [short(r.ref, s.rate), short(r.diff, s.rate, sign=True) + star]
            table.add_row(*cells)
    console.print(table)
    if run.leaves_out:
        console.print(f"not simulated: {run.leaves_out}", markup=False, soft_wrap=True)
    if run.ref:
        console.print(f"mean ± half the 95% interval; difference = {run.base.title} minus {run.ref.title} on the same seeds; "
                      "* its interval misses 0", markup=False, soft_wrap=True)


def write_report(run: Run, out_dir: Path, sections: list[Section] | None = None) -> Path:
    """Write index.html into `out_dir` (atomically); return its path."""
    sections = sections if sections is not None else summarise(run)
    two = run.ref is not None
    ref_records = run.ref_records or []
    blocks = []
    for s in sections:
        chart = plots.bars([(r.name, r.base, r.ref) for r in s.rows], s.rate, s.title)
        diff = plots.forest([(r.name, r.diff) for r in s.rows if r.diff is not None], s.rate, s.title) if two else ""
        blocks.append({"section": s, "chart": Markup(chart), "diff": Markup(diff),
                       "rows": [{"name": r.name, "base": ci(r.base, s.rate), "n": r.base.n,
                                 "ref": ci(r.ref, s.rate) if two else "", "diff": ci(r.diff, s.rate, True) if two else "",
                                 "sig": bool(two and r.diff is not None and r.diff.n > 1 and r.diff.excludes_zero())}
                                for r in s.rows]})
    scores = [p.score for r in run.records for p in r.players if p.score is not None]
    ref_scores = [p.score for r in ref_records for p in r.players if p.score is not None] if two else None
    label = run.score_label
    hists = [{"title": f"Final scores, every player ({label})", "svg": Markup(plots.hist(scores, ref_scores, "scores", label))}]
    if run.names_winners and (len({p.strategy for r in run.records for p in r.players}) > 1 or any(p.tags for r in run.records for p in r.players)):
        winners = [p.score for r in run.records for p in r.players if p.win and p.score is not None]
        ref_w = [p.score for r in ref_records for p in r.players if p.win and p.score is not None] if two else None
        hists.append({"title": f"Winners' scores ({label})", "svg": Markup(plots.hist(winners, ref_w, "winning scores", label))})
    for m, meaning in run.metrics.items():
        vals = [r.metrics[m] for r in run.records if m in r.metrics]
        if vals and all(is_number(v) for v in vals):
            ref_v = [r.metrics[m] for r in ref_records if m in r.metrics] if two else None
            hists.append({"title": f"{m}: {meaning}", "svg": Markup(plots.hist(vals, ref_v, m, m))})
    found = [{"section": s.title, "name": r.name, "base": ci(r.base, s.rate), "ref": ci(r.ref, s.rate), "diff": ci(r.diff, s.rate, True)}
             for s, r in changes(sections)] if two else []
    speed = run.games * (2 if two else 1) / run.seconds if run.seconds else 0
    page = render_page("simulate.html.j2", run=run, blocks=blocks, hists=hists, found=found, speed=speed,
                       base_colour=plots.BASE, ref_colour=plots.REF)
    path = out_dir / "index.html"
    write_atomic(path, page)
    return path


# --- several player counts -------------------------------------------------------------

COUNT_SECTIONS = ("win-strategy", "metrics", "metric-")


def _by_count(runs: list[tuple[Run, list[Section], Path]]) -> list[dict]:
    """One entry per (section, row) seen at any count: its estimate at each count."""
    table: dict[tuple[str, str], dict] = {}
    for run, sections, _ in runs:
        for s in sections:
            if not s.id.startswith(COUNT_SECTIONS):
                continue
            for r in s.rows:
                entry = table.setdefault((s.title, r.name), {"section": s.title, "name": r.name, "rate": s.rate, "at": {}})
                entry["at"][run.players] = r
    # a row first seen at a later count (a solo game's "Decided by" rows) goes with its section, not after every other section
    order = {section: i for i, section in enumerate(dict.fromkeys(entry["section"] for entry in table.values()))}
    return sorted(table.values(), key=lambda entry: order[entry["section"]])


def print_counts(runs: list[tuple[Run, list[Section], Path]], console: "Console") -> None:
    """The figures that matter across player counts, one column per count."""
    from rich.table import Table

    first = runs[0][0]
    console.print(f"{first.title}: {first.games} games per player count ({', '.join(first.strategies)}), seed {first.seed}",
                  markup=False, soft_wrap=True)
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("")
    counts = [run.players for run, _, _ in runs]
    for n in counts:
        table.add_column(counted(n, "player"))
    section = None
    for entry in _by_count(runs):
        if entry["section"] != section:
            section = entry["section"]
            table.add_row(f"[bold]{section}[/bold]", *[""] * len(counts))
        cells = []
        for n in counts:
            r = entry["at"].get(n)
            text = short(r.base, entry["rate"]) if r else "-"
            if r is not None and r.diff is not None:
                text += f" ({short(r.diff, entry['rate'], sign=True)}{' *' if r.diff.n > 1 and r.diff.excludes_zero() else ''})"
            cells.append(text)
        table.add_row(f"  {entry['name']}", *cells)
    console.print(table)
    if first.leaves_out:
        console.print(f"not simulated: {first.leaves_out}", markup=False, soft_wrap=True)
    if first.ref:
        console.print(f"in brackets: {first.base.label} minus {first.ref.label}; * its interval misses 0", markup=False, soft_wrap=True)


def write_counts(runs: list[tuple[Run, list[Section], Path]], out_dir: Path) -> Path:
    """index.html comparing the player counts, linking each count's own report."""
    charts = []
    for entry in _by_count(runs):
        rows = [(counted(run.players, "player"), entry["at"][run.players].base, entry["at"][run.players].ref)
                for run, _, _ in runs if run.players in entry["at"]]
        charts.append({"title": f"{entry['section']}: {entry['name']}",
                       "svg": Markup(plots.bars(rows, entry["rate"], entry["name"]))})
    first = runs[0][0]
    links = [{"players": run.players, "href": f"{run.players}p/index.html", "games": run.games} for run, _, _ in runs]
    page = render_page("simulate-counts.html.j2", run=first, charts=charts, links=links,
                       base_colour=plots.BASE, ref_colour=plots.REF)
    path = out_dir / "index.html"
    write_atomic(path, page)
    return path
