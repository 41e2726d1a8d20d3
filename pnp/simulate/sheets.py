"""Write a run's finished games as scoring-sheet files that `pnp score` reads."""

from __future__ import annotations

from pathlib import Path

import yaml

from pnp.files import write_atomic

from .runner import Run


def sheet_yaml(sheet: dict) -> str:
    """A sheet as YAML, keys in the order the game wrote them."""
    return yaml.safe_dump(sheet, sort_keys=False, allow_unicode=True)


def write_sheets(run: Run, folder: Path) -> list[Path]:
    """One `<side>-<seed>.yaml` per game that has a sheet; returns the paths."""
    out = []
    sides = [("base", run.base, run.records)]
    if run.ref is not None and run.ref_records is not None:
        sides.append(("ref", run.ref, run.ref_records))
    for name, side, records in sides:
        label = " ".join(side.label.splitlines())  # a comment line, whatever --set held
        note = ""
        if side.root != run.base.root:  # --against a git revision: its content, not the project's
            note = (f"# played on the content of {label}: `pnp score` checks it against the content of\n"
                    "# the project it is given, so a rule value changed since may make a claimed total wrong\n")
        for r in records:
            if r.sheet is None:
                continue
            path = folder / f"{run.game}-{name}-{r.seed}.yaml"
            head = f"# pnp simulate {run.game}, seed {r.seed}, side: {label}\n{note}"
            write_atomic(path, (head + sheet_yaml(r.sheet)).encode("utf-8"))
            out.append(path)
    return out
