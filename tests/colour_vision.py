"""Contrast as greyscale printers and colour-blind readers see it: the WCAG contrast ratio of
two #rrggbb colours in normal vision, in greyscale (Rec. 709 luminance) and under Machado
et al. 2009's deuteranopia and protanopia (severity 1, in linear sRGB). Used by the tests
that keep the games' colour pairs readable."""

from __future__ import annotations

MACHADO = {
    "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
}
VIEWS = ("normal", "grey", "deutan", "protan")


def _linear(colour: str) -> tuple[float, ...]:
    c = [int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    return tuple(x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in c)


def _luminance(lin: tuple[float, ...]) -> float:
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def luminance(colour: str, view: str = "normal") -> float:
    """Relative luminance of `colour` as seen in `view` (greyscale keeps luminance as is)."""
    lin = _linear(colour)
    if view in MACHADO:
        lin = tuple(min(1.0, max(0.0, sum(m * x for m, x in zip(row, lin)))) for row in MACHADO[view])
    return _luminance(lin)


def contrast(a: str, b: str, view: str = "normal", alpha: float = 1.0) -> float:
    """WCAG contrast ratio of ink `a` (drawn at opacity `alpha` over `b`) on `b`, seen in `view`."""
    if alpha < 1:
        fa, fb = ([int(c.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)] for c in (a, b))
        a = "#" + "".join(f"{round(alpha * x + (1 - alpha) * y):02x}" for x, y in zip(fa, fb))
    hi, lo = sorted((luminance(a, view), luminance(b, view)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def worst(a: str, b: str, alpha: float = 1.0) -> dict[str, float]:
    """The contrast of `a` on `b` in every view."""
    return {v: round(contrast(a, b, v, alpha), 2) for v in VIEWS}
