"""What the benchmarks share: the environment of a measured `pnp` process."""

from __future__ import annotations

import os
import resource
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def child_env() -> dict[str, str]:
    """This tree's pnp, with Python's bytecode cache on as on a user's machine
    (PYTHONDONTWRITEBYTECODE would recompile every pnp module in every process; pip
    installs packages already compiled)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def host_loop(runs: int = 3) -> float:
    """Seconds of a fixed pure-Python loop, the fastest of `runs`: how fast this host runs
    Python now, so that figures taken on other days (or hosts) can be set side by side."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        total = 0
        for i in range(5_000_000):
            total += i * i % 7
        best = min(best, time.perf_counter() - start)
    return best


def host_line() -> str:
    return f"host: a fixed Python loop (bench/measured.py host_loop) takes {host_loop():.3f} s here now"


def process_tree(pid: int) -> list[int]:
    """`pid` and every process under it (the PDF engine's workers), whichever of its
    threads started them (/proc lists a child under the thread that made it)."""
    found = [pid]
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for thread in threads:
        try:
            with open(f"/proc/{pid}/task/{thread}/children") as children:
                for child in children.read().split():
                    found += process_tree(int(child))
        except OSError:
            pass
    return found


def pss_kb(pid: int) -> int:
    """Proportional set size: pages a forked worker still shares with the build count once."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            return next(int(line.split()[1]) for line in rollup if line.startswith("Pss:"))
    except (OSError, StopIteration):
        return 0


def measure(command: list[str], env: dict[str, str], sample: bool = False) -> tuple[float, float, float]:
    """Wall seconds of one process, its CPU seconds (user and system, the processes it
    waited for included: what a busy host hardly inflates) and, with `sample`, its peak
    memory (MiB: the summed PSS of the process and those under it, read every 10 ms; 0
    without: reading costs the process CPU, so timed runs are not sampled). A failure ends
    the benchmark with the end of what the process said."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    peak = 0
    while sample and child.poll() is None:
        peak = max(peak, sum(pss_kb(pid) for pid in process_tree(child.pid)))
        time.sleep(0.01)
    errors = child.communicate()[1]
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {errors[-500:]}")
    return seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, peak / 1024
