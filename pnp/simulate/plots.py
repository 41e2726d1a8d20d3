"""Inline SVG plots for the report: bars with 95% intervals, histograms, and forest plots
of differences. Plain SVG, readable without any browser-side library."""

from __future__ import annotations

import math
from html import escape
from typing import Sequence

from .stats import Estimate, bin_edges

BASE, REF, INK, MUTED, GRID = "#2a72c9", "#e08a1e", "#1d2433", "#667085", "#e4e7ec"
FONT = 'font-family="Liberation Sans, Arial, sans-serif" font-size="11"'
LABEL_W, PLOT_W, RIGHT = 190, 380, 70


def _fmt(v: float, rate: bool) -> str:
    if math.isnan(v):
        return "-"
    return f"{v * 100:.1f}%" if rate else f"{v:.2f}" if abs(v) < 10 else f"{v:.1f}"


def _scale(lo: float, hi: float) -> tuple[float, float]:
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    return lo, hi


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.ceil(lo / step) * step
    return [start + i * step for i in range(int((hi - start) / step + 1e-9) + 1)]


def _axis(lo: float, hi: float, x, top: float, bottom: float, rate: bool) -> list[str]:
    out = []
    for t in _ticks(lo, hi):
        xx = x(t)
        out.append(f'<line x1="{xx:.1f}" x2="{xx:.1f}" y1="{top}" y2="{bottom}" stroke="{GRID}"/>')
        label = f"{round(t * 100, 1):g}%" if rate else f"{t:g}"
        out.append(f'<text x="{xx:.1f}" y="{bottom + 13}" text-anchor="middle" fill="{MUTED}" {FONT}>{label}</text>')
    return out


def bars(rows: Sequence[tuple[str, Estimate, Estimate | None]], rate: bool, title: str = "") -> str:
    """One bar per row (two when there is a second side), each with its 95% interval."""
    two = any(r is not None for _, _, r in rows)
    band = 30 if two else 20
    top = 8
    height = top + band * len(rows) + 24
    ests = [e for _, b, r in rows for e in (b, r) if e is not None and e.n]
    lo = min([0.0] + [e.low for e in ests])
    hi = max([1.0 if rate else 0.0] + [e.high for e in ests])
    lo, hi = _scale(lo, hi)
    x = lambda v: LABEL_W + (v - lo) / (hi - lo) * PLOT_W
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{LABEL_W + PLOT_W + RIGHT}" height="{height}" role="img" aria-label="{escape(title)}">']
    out += _axis(lo, hi, x, top, top + band * len(rows), rate)
    zero = x(0)
    for i, (name, b, r) in enumerate(rows):
        y = top + i * band
        out.append(f'<text x="{LABEL_W - 6}" y="{y + band / 2 + 4:.1f}" text-anchor="end" fill="{INK}" {FONT}>{escape(name)}</text>')
        for j, (e, colour) in enumerate(((b, BASE), (r, REF))):
            if e is None or not e.n or math.isnan(e.mean):
                continue
            h = (band - 6) / (2 if two else 1)
            yy = y + 3 + j * h
            x0, x1 = sorted((zero, x(e.mean)))
            out.append(f'<rect x="{x0:.1f}" y="{yy:.1f}" width="{max(x1 - x0, 0.5):.1f}" height="{h - 2:.1f}" fill="{colour}" opacity="0.85"/>')
            cy = yy + (h - 2) / 2
            out.append(f'<line x1="{x(e.low):.1f}" x2="{x(e.high):.1f}" y1="{cy:.1f}" y2="{cy:.1f}" stroke="{INK}" stroke-width="1.2"/>')
            for v in (e.low, e.high):
                out.append(f'<line x1="{x(v):.1f}" x2="{x(v):.1f}" y1="{cy - 3:.1f}" y2="{cy + 3:.1f}" stroke="{INK}" stroke-width="1.2"/>')
            out.append(f'<text x="{LABEL_W + PLOT_W + 6}" y="{cy + 4:.1f}" fill="{colour}" {FONT}>{_fmt(e.mean, rate)}</text>')
    out.append("</svg>")
    return "".join(out)


def forest(rows: Sequence[tuple[str, Estimate]], rate: bool, title: str = "") -> str:
    """Differences (this side minus the other) with 95% intervals around a zero line;
    intervals that miss zero are drawn dark."""
    band, top = 18, 8
    height = top + band * len(rows) + 24
    ests = [e for _, e in rows if e.n and not math.isnan(e.mean)]
    span = max([abs(v) for e in ests for v in (e.low, e.high)] + [0.01 if rate else 0.1])
    lo, hi = -span * 1.05, span * 1.05
    x = lambda v: LABEL_W + (v - lo) / (hi - lo) * PLOT_W
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{LABEL_W + PLOT_W + RIGHT}" height="{height}" role="img" aria-label="{escape(title)}">']
    out += _axis(lo, hi, x, top, top + band * len(rows), rate)
    out.append(f'<line x1="{x(0):.1f}" x2="{x(0):.1f}" y1="{top}" y2="{top + band * len(rows)}" stroke="{INK}"/>')
    for i, (name, e) in enumerate(rows):
        cy = top + i * band + band / 2
        out.append(f'<text x="{LABEL_W - 6}" y="{cy + 4:.1f}" text-anchor="end" fill="{INK}" {FONT}>{escape(name)}</text>')
        if not e.n or math.isnan(e.mean):
            continue
        colour = INK if e.excludes_zero() else MUTED
        out.append(f'<line x1="{x(e.low):.1f}" x2="{x(e.high):.1f}" y1="{cy:.1f}" y2="{cy:.1f}" stroke="{colour}" stroke-width="1.5"/>')
        out.append(f'<circle cx="{x(e.mean):.1f}" cy="{cy:.1f}" r="3.5" fill="{colour}"/>')
        sign = "+" if e.mean > 0 else ""
        out.append(f'<text x="{LABEL_W + PLOT_W + 6}" y="{cy + 4:.1f}" fill="{colour}" {FONT}>{sign}{_fmt(e.mean, rate)}</text>')
    out.append("</svg>")
    return "".join(out)


def hist(base: Sequence[float], ref: Sequence[float] | None = None, title: str = "", xlabel: str = "") -> str:
    """A histogram of `base` (filled) with `ref` drawn as an outline over the same bins."""
    values = list(base) + list(ref or [])
    edges = bin_edges(values, 30)
    lo, hi = edges[0], edges[-1]

    def counts(vals: Sequence[float]) -> list[float]:
        c = [0] * (len(edges) - 1)
        w = edges[1] - edges[0]
        for v in vals:
            c[min(int((v - lo) // w), len(c) - 1)] += 1
        n = max(1, len(vals))
        return [k / n for k in c]

    cb = counts(base)
    cr = counts(ref) if ref else None
    top_v = max(cb + (cr or [])) or 1
    W, H, L, B = 560, 190, 46, 30
    x = lambda v: L + (v - lo) / (hi - lo) * (W - L - 10)
    y = lambda f: 8 + (1 - f / top_v) * (H - B - 8)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" role="img" aria-label="{escape(title)}">']
    for t in _ticks(0, top_v, 4):
        out.append(f'<line x1="{L}" x2="{W - 10}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="{GRID}"/>')
        out.append(f'<text x="{L - 4}" y="{y(t) + 4:.1f}" text-anchor="end" fill="{MUTED}" {FONT}>{round(t * 100, 1):g}%</text>')
    for i, f in enumerate(cb):
        if f:
            out.append(f'<rect x="{x(edges[i]) + 0.5:.1f}" y="{y(f):.1f}" width="{x(edges[i + 1]) - x(edges[i]) - 1:.1f}" height="{y(0) - y(f):.1f}" fill="{BASE}" opacity="0.8"/>')
    if cr is not None:
        pts = [f"{x(lo):.1f},{y(0):.1f}"]
        for i, f in enumerate(cr):
            pts += [f"{x(edges[i]):.1f},{y(f):.1f}", f"{x(edges[i + 1]):.1f},{y(f):.1f}"]
        pts.append(f"{x(hi):.1f},{y(0):.1f}")
        out.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="{REF}" stroke-width="2"/>')
    # Bins one unit wide hold one whole number each: label the bin's middle with it.
    centre = 0.5 if edges[1] - edges[0] == 1 and all(float(v).is_integer() for v in values) else 0.0
    for t in _ticks(lo, hi - 2 * centre, 8):
        if centre and not float(t).is_integer():
            continue
        out.append(f'<text x="{x(t + centre):.1f}" y="{H - B + 14}" text-anchor="middle" fill="{MUTED}" {FONT}>{t:g}</text>')
    out.append(f'<line x1="{L}" x2="{W - 10}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="{INK}"/>')
    out.append(f'<text x="{(L + W) / 2:.0f}" y="{H - 4}" text-anchor="middle" fill="{INK}" {FONT}>{escape(xlabel)}</text>')
    out.append("</svg>")
    return "".join(out)
