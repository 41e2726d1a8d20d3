"""Turn a run's records into sections of estimates: win rates and mean scores by seat,
strategy and every tag, points by source, game metrics; with `--against`, the paired
difference of each (same seeds on both sides)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from .base import PlayerRecord, Record
from .runner import Run
from .stats import Estimate, mean_ci, paired_diff, rate_ci


@dataclass
class Row:
    name: str
    base: Estimate
    ref: Estimate | None = None
    diff: Estimate | None = None


@dataclass
class Section:
    id: str
    title: str
    rate: bool  # values are proportions (shown as %)
    rows: list[Row] = field(default_factory=list)
    note: str = ""


Pick = Callable[[PlayerRecord], float | None]
Group = tuple[Any, Callable[[PlayerRecord], bool]]  # a tag value names its group as it is


def _where(key: Callable[[PlayerRecord], Any], value: Any) -> Callable[[PlayerRecord], bool]:
    """Membership of a group: the players whose `key` is `value`."""
    return lambda p: key(p) == value


def _source_points(source: str) -> Pick:
    return lambda p: float(p.sources[source])


def _has_source(source: str) -> Callable[[PlayerRecord], bool]:
    return lambda p: source in p.sources


def is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


PerGame = Callable[[list[Record]], tuple[list[Any], dict[int, float]]]  # one side's values, and each game's (by seed)


def _row(run: Run, name: str, per_game: PerGame, estimate: Callable[[list[Any]], Estimate]) -> Row:
    """A row estimating each side's values, with the paired difference of their games."""
    values, games = per_game(run.records)
    row = Row(name, estimate(values))
    if run.ref_records is not None:
        ref_values, ref_games = per_game(run.ref_records)
        row.ref, row.diff = estimate(ref_values), paired_diff(games, ref_games)
    return row


def _player_rows(run: Run, groups: Sequence[Group], value: Pick, rate: bool) -> list[Row]:
    rows = []
    for name, member in groups:
        def per_game(records: list[Record]) -> tuple[list[float], dict[int, float]]:
            flat: list[float] = []
            games: dict[int, float] = {}
            for r in records:
                vals = [v for p in r.players if member(p) and (v := value(p)) is not None and v == v]  # v == v: not NaN
                flat.extend(vals)
                if vals:
                    games[r.seed] = sum(vals) / len(vals)
            return flat, games

        row = _row(run, name, per_game, rate_ci if rate else mean_ci)
        if row.base.n or (row.ref and row.ref.n):
            rows.append(row)
    return rows


def _values(records: Iterable[Record], fn: Callable[[PlayerRecord], object]) -> list:
    return sorted({fn(p) for r in records for p in r.players}, key=str)


def summarise(run: Run) -> list[Section]:
    both = run.records + (run.ref_records or [])
    win: Pick = lambda p: float(p.win)
    score: Pick = lambda p: None if p.score is None else float(p.score)
    seat_groups = [(f"seat {s + 1}", _where(lambda p: p.seat, s)) for s in range(run.players)]
    sections = [
        Section("win-seat", "Win rate by seat", True, _player_rows(run, seat_groups, win, True),
                "a shared win counts for every winner"),
    ]
    if not run.names_winners:  # the rules name no winner: report no win rates
        sections = []
    if len(set(run.strategies)) > 1 and run.names_winners:
        strat_groups = [(s, _where(lambda p: p.strategy, s)) for s in dict.fromkeys(run.strategies)]
        sections.append(Section("win-strategy", "Win rate by strategy", True, _player_rows(run, strat_groups, win, True),
                                "strategies take turns in the seats, game by game"))
    tags = sorted({k for r in both for p in r.players for k in p.tags})
    for tag in tags:
        def tagged(p: PlayerRecord, tag: str = tag) -> Any:
            return p.tags.get(tag)

        groups = [(v, _where(tagged, v)) for v in _values(both, tagged) if v is not None]
        if run.names_winners:
            sections.append(Section(f"win-{tag}", f"Win rate by {tag}", True, _player_rows(run, groups, win, True)))
        sections.append(Section(f"score-{tag}", f"Mean score by {tag}", False, _player_rows(run, groups, score, False), run.score_label))
    # a game without winners has no score either: its per-player measure is named as such
    per_seat = "Mean score by seat" if run.names_winners else f"Mean {run.score_label} by seat"
    sections.append(Section("score-seat", per_seat, False, _player_rows(run, seat_groups, score, False), run.score_label))
    sources = sorted({k for r in both for p in r.players for k in p.sources})
    if sources:
        rows: list[Row] = []
        for s in sources:
            rows += _player_rows(run, [(s, _has_source(s))], _source_points(s), False)
        rows.sort(key=lambda r: -(r.base.mean if r.base.n else r.ref.mean if r.ref else 0))
        sections.append(Section("sources", "Points by source", False, rows,
                                "mean points per player who had the source (n = how often it appeared)"))
    sections += _metric_sections(run, both)
    return sections


def _metric_sections(run: Run, both: list[Record]) -> list[Section]:
    out = []
    numeric = [m for m in run.metrics if all(is_number(r.metrics.get(m)) for r in both if m in r.metrics)]
    extra = sorted({k for r in both for k in r.metrics} - set(run.metrics))
    names = list(run.metrics) + extra
    rows = []
    for m in names:
        vals = [r.metrics[m] for r in both if m in r.metrics]
        if vals and all(is_number(v) for v in vals):
            def per(records: list[Record], m: str = m) -> tuple[list[float], dict[int, float]]:
                games = {r.seed: float(r.metrics[m]) for r in records if m in r.metrics}
                return list(games.values()), games

            rows.append(_row(run, m, per, mean_ci))
    if rows:
        out.append(Section("metrics", "Game metrics (mean per game)", False, rows,
                           "; ".join(f"{k}: {v}" for k, v in run.metrics.items() if k in numeric)))
    for m in names:
        vals = [r.metrics[m] for r in both if m in r.metrics]
        if not vals or all(is_number(v) for v in vals):
            continue
        rows = []
        for label in sorted({str(v) for v in vals}):
            def hits(records: list[Record], m: str = m, label: str = label) -> tuple[list[bool], dict[int, float]]:
                games = {r.seed: float(str(r.metrics.get(m)) == label) for r in records if m in r.metrics}
                return [v > 0 for v in games.values()], games

            rows.append(_row(run, label, hits, rate_ci))
        title = m.replace("_", " ").capitalize()  # a metric's key (decided_by) as a heading
        out.append(Section(f"metric-{m}", f"{title} (share of games)", True, rows, run.metrics.get(m, "")))
    return out
