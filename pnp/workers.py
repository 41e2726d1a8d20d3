"""What every worker process pnp forks shares: it ends when the process that made it does."""

from __future__ import annotations

import os
import threading
import time


def end_with_parent(parent: int, every: float = 0.5) -> None:
    """Make this forked worker end once its parent has: a build killed outright (kill -9,
    the OOM killer) would otherwise leave its pool's workers waiting forever on a pipe they
    hold both ends of, and holding the terminal's output open (`pnp build | cat` would never
    end). A parent's thread may fork it, so the parent process is watched, not the thread
    (prctl's death signal follows the thread). `parent`: its pid, as the parent read it (read
    here, it would already be another's when the parent died before the worker started)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(1)

    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=watch, name="pnp-end-with-parent", daemon=True).start()
