"""Write a run's finished games as scoring-sheet files that `pnp score` reads."""

from __future__ import annotations

from pathlib import Path

import yaml

from pnp.build.output import write_atomic

from .runner import Run


def sheet_yaml(sheet: dict) -> str:
    """A sheet as YAML, keys in the order the game wrote them."""
    return yaml.safe_dump(sheet, sort_keys=False, allow_unicode=True)


def write_sheets(run: Run, folder: Path) -> list[Path]:
    """One `<side>-<seed>.yaml` per game that has a sheet; returns the paths."""
    out = []
    sides = [("base", run.records)] + ([("ref", run.ref_records)] if run.ref_records is not None else [])
    for name, records in sides:
        for r in records:
            if r.sheet is None:
                continue
            path = folder / f"{run.game}-{name}-{r.seed}.yaml"
            write_atomic(path, sheet_yaml(r.sheet).encode("utf-8"))
            out.append(path)
    return out
