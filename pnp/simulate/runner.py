"""Run many games on every core: same seeds for both sides of a comparison, results in
seed order whatever the number of processes (so a run is reproducible)."""

from __future__ import annotations

import gc
import multiprocessing
import os
import shutil
import signal
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from pnp.load.content import GameContent, Project, load_game
from pnp.errors import OptionError, PnpError
from pnp.limits import SIMULATIONS
from pnp.load import revision, trust
from pnp.load.plugins import call_hook, stop_failure
from pnp.load.options import parse_pairs
from pnp.workers import end_with_parent

from .base import Record, Simulation, load_simulation

SEED_STRIDE = 1_000_003  # game g of a run with --seed s plays seed s * SEED_STRIDE + g


@dataclass
class Side:
    """One rule set to play: a project folder, the game and its options."""

    label: str
    root: Path
    game: str
    options: dict[str, str] = field(default_factory=dict)
    setting: str = ""  # what this side plays at the run's player count that the label does not name (the game's `setting`)

    @property
    def title(self) -> str:
        """The label of this side in a report of one player count."""
        return f"{self.label}, {self.setting}" if self.setting else self.label

    def key(self) -> tuple:
        return (str(self.root), self.game, tuple(sorted(self.options.items())))


@dataclass
class Run:
    """Everything a report needs: the setup and each side's records in seed order."""

    game: str
    title: str
    players: int
    strategies: list[str]
    games: int
    seed: int
    jobs: int
    metrics: dict[str, str]
    score_label: str
    base: Side
    records: list[Record]
    ref: Side | None = None
    ref_records: list[Record] | None = None
    seconds: float = 0.0
    names_winners: bool = True  # False: the rules name no winner, so no win rates
    leaves_out: str = ""  # what the simulation does not play, said with every report


# --- the worker side: one simulation per side per process, built on first use -------

_SIMULATIONS: dict[tuple, Simulation] = {}


def _simulation(side: Side) -> Simulation:
    sim = _SIMULATIONS.get(side.key())
    if sim is None:
        game = load_game(Project(side.root), side.game)
        sim = _SIMULATIONS[side.key()] = load_simulation(game, side.options)
    return sim


def _worker_start(parent: int, allow_all: bool, revisions: dict[str, tuple[str, str]]) -> None:
    """A worker's start: trust what the parent trusts, and leave Ctrl-C to the parent. A spawned
    worker imports pnp afresh, so `pnp --trust` (trust.ALLOW_ALL) and the revisions' folders would
    otherwise be forgotten there. Ctrl-C on a terminal reaches every process of the group: a worker
    that took it would die with a traceback and its chunk lost, which the pool waits for forever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parent(parent)  # and not outlive a run killed outright
    trust.ALLOW_ALL = allow_all
    trust.REVISIONS.update(revisions)


def _play_chunk(args: tuple[int, Side, list[tuple[int, list[str]]], bool]) -> tuple[int, list[Record]]:
    """Chunk number and its records (the pool gives chunks back as they finish)."""
    index, side, games, sheets = args
    try:
        sim = _simulation(side)
        return index, [sim.play(seed, strategies, sheets) for seed, strategies in games]
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt) and multiprocessing.parent_process() is None:
            raise  # Ctrl-C in a run without workers
        # A traceback does not cross the process boundary, and with it the plugin's file and
        # line would be lost: a plugin's own failure (`sys.exit()` and a BaseException too)
        # leaves a worker as its located error (kept whole with PNP_DEBUG, whose traceback
        # the pool passes on). Nothing but an Exception may leave a worker: a pool waits
        # forever for the games of a worker that died.
        if not os.environ.get("PNP_DEBUG") and (found := stop_failure(exc)) is not None:
            raise PnpError(found) from None
        if isinstance(exc, Exception):
            raise
        raise RuntimeError(f"{type(exc).__name__} in a simulation worker:\n{traceback.format_exc()}") from None


def seats(strategies: list[str], players: int, g: int) -> list[str]:
    """Strategies by seat in game g: the list repeats over the seats and turns one seat
    per game, so no strategy always sits first."""
    k = len(strategies)
    return [strategies[(i + g) % k] for i in range(players)]


def run_games(sides: list[Side], games: int, players: int, strategies: list[str], seed: int = 0,
              jobs: int | None = None, sheets: bool = False, progress: Callable[[int, int], None] | None = None) -> list[list[Record]]:
    """Play `games` games per side on `jobs` processes; records per side, in seed order.
    `progress(done, total)` is told the games played (all sides) as each chunk comes back."""
    plan = [(seed * SEED_STRIDE + g, seats(strategies, players, g)) for g in range(games)]
    jobs = max(1, jobs or os.cpu_count() or 1)
    size = max(1, min(200, games // (jobs * 4) or 1))
    chunks = [(side, plan[i:i + size], sheets) for side in sides for i in range(0, games, size)]
    owner = [k for k in range(len(sides)) for _ in range(0, games, size)]  # side of each chunk
    done: list[list[Record] | None] = [None] * len(chunks)
    serial = jobs == 1 or len(chunks) == 1
    fork = "fork" in multiprocessing.get_all_start_methods()
    # This process keeps the simulations of this run only: one that runs many (`pnp serve`'s
    # predictions) plays the content as it is now, and holds no more than one run's.
    _SIMULATIONS.clear()
    if serial or fork:  # load the content once, here: forked workers inherit it instead of each loading it
        for side in sides:
            _simulation(side)
    # What is loaded lives as long as the run: the garbage collector need not walk it again
    # while the games allocate (about 1% of a greedy Tasty Humans game), and forked workers
    # do not touch (and so copy) the pages of the content they inherit.
    gc.freeze()
    tasks = [(i, *chunk) for i, chunk in enumerate(chunks)]
    pool = None
    try:
        if serial:
            results: Iterator[tuple[int, list[Record]]] = map(_play_chunk, tasks)
        else:
            ctx = multiprocessing.get_context("fork" if fork else "spawn")
            pool = ctx.Pool(min(jobs, len(chunks)), initializer=_worker_start,
                            initargs=(os.getpid(), trust.allowed_by_user(), dict(trust.REVISIONS)))
            # as each chunk finishes, not in order: a plugin's error is told (and the run stopped) as soon as a worker meets it
            results = pool.imap_unordered(_play_chunk, tasks)
        played = 0
        for i, records in results:
            done[i] = records
            played += len(records)
            if progress is not None:
                progress(played, games * len(sides))
    finally:
        gc.unfreeze()
        if pool is not None:
            # idle workers when all went well; after an error or Ctrl-C the chunks still queued are dropped, not played to the end
            pool.terminate()
            pool.join()
    out: list[list[Record]] = [[] for _ in sides]
    for k, chunk in zip(owner, done):
        out[k].extend(chunk or ())
    return out


# --- the command ------------------------------------------------------------------

def _git_content(project: Project, game: str, rev: str, into: Path) -> Path | None:
    """Extract content/<game> and templates/<game> at git revision `rev` into `into`, played
    by today's project plugins (the engines: a link to the project's plugins/); None when
    `rev` is not a revision of the project's repository."""
    try:
        root = revision.export(project.root, rev, [f"content/{game}", f"templates/{game}"], into)[0]
    except revision.NoRevision:
        return None
    if not (root / "content" / game).is_dir():
        raise OptionError(f"--against {rev}: the revision has no content/{game}")
    if (project.root / "plugins").is_dir():
        (root / "plugins").symlink_to((project.root / "plugins").resolve(), target_is_directory=True)
    return root


def simulate(project: Project, game_name: str, *, games: int = 1000, players: int | None = None,
             strategies: list[str] | None = None, options: dict[str, str] | None = None,
             against: str | None = None, seed: int = 0, jobs: int | None = None, sheets: bool = False,
             progress: Callable[[int, int], None] | None = None) -> Run:
    """Play `games` games of `game_name` (and of `against`: a KEY=VALUE change, a rule
    version name or a git revision of the content) on the same seeds."""
    options = dict(options or {})
    name, game, sim, players, strategies = check(project, game_name, games=games, players=players, strategies=strategies,
                                                 options=options)

    base = Side(_label(options, sim), project.root, name, options, _setting(sim, players))
    sides = [base]
    tmp = None
    try:
        if against:
            ref, tmp = _against(project, name, against, options, sim)
            try:  # fail early, in one line
                ref_sim = load_simulation(load_game(Project(ref.root), name), ref.options)
                _check_players(ref_sim, players)
                ref.setting = _setting(ref_sim, players)
            except PnpError as exc:  # a game checks its options as --set; here the change is --against's
                raise type(exc)([f"--against {e.removeprefix('--set ')}" if isinstance(e, str) and e.startswith("--set ") else e
                                for e in exc.errors]) from None
            sides.append(ref)
        started = time.perf_counter()
        results = run_games(sides, games, players, strategies, seed, jobs, sheets, progress)
        seconds = time.perf_counter() - started
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    run = Run(name, game.manifest.title, players, strategies, games, seed, max(1, jobs or os.cpu_count() or 1),
              dict(sim.metrics), sim.score_label, base, results[0], seconds=seconds,
              names_winners=getattr(sim, "names_winners", True), leaves_out=getattr(sim, "leaves_out", ""))
    if against:
        run.ref, run.ref_records = sides[1], results[1]
    return run


def check(project: Project, game_name: str, *, games: int = 1000, players: int | None = None,
          strategies: list[str] | None = None, options: dict[str, str] | None = None) -> tuple[str, GameContent, Simulation, int, list[str]]:
    """What `simulate` checks before a game is played (the game, its options for this player
    count, the strategies and the number of games): its name, content, simulation, player
    count and strategies. Several player counts are each checked before any is played."""
    name = project.resolve_games([game_name])[0]
    game = load_game(project, name)
    sim = load_simulation(game, dict(options or {}))  # checks the options before any process starts
    players = players if players is not None else sim.default_players
    if players not in sim.player_counts:
        raise OptionError(f"--players {players}: {name} simulates {', '.join(map(str, sim.player_counts))} players")
    _check_players(sim, players)
    strategies = list(strategies or [sim.strategies[0]])
    unknown = [s for s in strategies if s not in sim.strategies]
    if unknown:
        raise OptionError(f"--players-as: unknown strategy {unknown[0]!r}: expected {', '.join(sim.strategies)}")
    if len(strategies) > players:
        raise OptionError(f"--players-as names {len(strategies)} strategies for {players} players: expected at most {players}")
    if games < 1:
        raise OptionError(f"--games {games}: expected at least 1")
    if games > SIMULATIONS["games"]:  # each game's record is kept for the report: about 16 KB of memory
        raise OptionError(f"--games {games:,}: expected at most {SIMULATIONS['games']:,}, {SIMULATIONS.hint('games')}")
    return name, game, sim, players, strategies


def _check_players(sim: Simulation, players: int) -> None:
    """The game's own check that its options fit the player count (optional)."""
    check = getattr(sim, "check_players", None)
    if check is not None:
        check(players)


def _setting(sim: Simulation, players: int) -> str:
    """The game's own words for what it plays at this count that no option named (optional)."""
    setting = getattr(sim, "setting", None)
    if setting is None:
        return ""
    return call_hook(setting, "setting(players)", (players,), lambda said: None if isinstance(said, str) else "text (\"\" for none)")


def _label(options: dict[str, str], sim: Simulation) -> str:
    label = getattr(sim, "label", None)
    return label or (", ".join(f"{k}={v}" for k, v in options.items()) or "as shipped")


def _against(project: Project, name: str, ref: str, options: dict[str, str], sim: Simulation) -> tuple[Side, Path | None]:
    if "=" in ref:
        changed = {**options, **parse_pairs([ref], flag="--against")}
        return Side(ref, project.root, name, changed), None
    versions: tuple[str, ...] = getattr(sim, "versions", ())  # optional: a game with rule versions
    if ref in versions:
        changed = {**options, getattr(sim, "version_key"): ref}
        return Side(ref, project.root, name, changed), None
    tmp = Path(tempfile.mkdtemp(prefix="pnp-against-"))
    root = _git_content(project, name, ref, tmp)
    if root is None:
        shutil.rmtree(tmp, ignore_errors=True)
        known = f"a rule version ({', '.join(versions)}), " if versions else ""
        raise OptionError(f"--against {ref!r}: expected KEY=VALUE, {known}or a git revision of the project")
    trust.revision_of(root, project.root, ref)
    return Side(f"git {ref}", root, name, dict(options)), tmp
