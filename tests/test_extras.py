"""What the base install carries and what an optional extra adds: numpy is only the
balance lab's (`pnp simulate`), and a lab without it says how to add it."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from pnp import __version__

REPO = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _names(requirements: list[str]) -> set[str]:
    return {r.split(">")[0].split("<")[0].split("=")[0].split("[")[0].strip().lower() for r in requirements}


def test_numpy_is_the_balance_labs_extra_not_a_base_dependency():
    assert "numpy" not in _names(PROJECT["dependencies"])
    assert "numpy" in _names(PROJECT["optional-dependencies"]["lab"])


def _simulate_without_numpy(game: str, tmp_path: Path, numpy: str = "sys.modules['numpy'] = None") -> subprocess.CompletedProcess:
    code = (f"import sys; {numpy}; from pnp.cli import main; "
            f"sys.argv = ['pnp', 'simulate', {game!r}, '--games', '2', '--out', {str(tmp_path)!r}]; main()")
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)


def test_simulate_without_numpy_says_how_to_add_it(tmp_path: Path):
    done = _simulate_without_numpy("tasty-humans", tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == ("pnp simulate tasty-humans: the rules engine needs numpy, which the balance lab's extra "
                                   "installs: pip install '.[lab]' in pnp's checkout, or pip install "
                                   f"'<folder>/pnp_kit-{__version__}-py3-none-any.whl[lab]' with the wheel pnp was installed from "
                                   "(or pip install numpy)")
    assert not [p for p in tmp_path.rglob('*') if p.is_file()]  # nothing half-written


def test_simulate_with_numpy_1_says_the_lab_needs_numpy_2(tmp_path: Path):
    """pip keeps an installed numpy 1.x; the engine would fail mid-game (np.bitwise_count)."""
    done = _simulate_without_numpy("tasty-humans", tmp_path, numpy="import numpy; numpy.__version__ = '1.26.4'")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == ("pnp simulate tasty-humans: the rules engine needs numpy 2.0 or later, not 1.26.4: "
                                   "pip install '.[lab]' in pnp's checkout, or pip install "
                                   f"'<folder>/pnp_kit-{__version__}-py3-none-any.whl[lab]' with the wheel pnp was installed from "
                                   "(or pip install 'numpy>=2.0')")
    assert not [p for p in tmp_path.rglob('*') if p.is_file()]


def test_a_game_whose_engine_needs_no_numpy_still_simulates_without_it(tmp_path: Path):
    done = _simulate_without_numpy("dietrick-taking", tmp_path)
    assert done.returncode == 0, done.stderr
