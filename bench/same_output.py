"""Do this work tree's pnp and content build the same bytes as a git revision's?

    python bench/same_output.py [REF] [-- BUILD ARGS...]     (REF defaults to main)

Exports REF into a temporary folder, builds every game there (with REF's own pnp) and
here into two temporary output folders, and lists every file that differs, is missing or
is extra (build caches aside). Exit 0 when every output is byte-identical. Use it before
and after a refactor that must not change what is printed, e.g. with `-- --set rules=0.2.8`.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(tree: Path, out: Path, args: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": str(tree)}  # that tree's pnp, not the installed one
    code = "import sys; from pnp.cli import main; sys.argv = ['pnp'] + sys.argv[1:]; main()"
    subprocess.run([sys.executable, "-c", code, "build", "-q", "--force", "--out", str(out), *args], cwd=tree, env=env, check=True)


def differences(a: Path, b: Path) -> list[str]:
    def files(root: Path) -> dict[str, Path]:
        return {p.relative_to(root).as_posix(): p for p in root.rglob("*") if p.is_file() and p.name not in (".pnp-cache.json", ".pnp-build.json")}

    old, new = files(a), files(b)
    out = [f"only in {a.name}: {rel}" for rel in old.keys() - new.keys()]
    out += [f"only in {b.name}: {rel}" for rel in new.keys() - old.keys()]
    out += [f"differs: {rel}" for rel in old.keys() & new.keys() if old[rel].read_bytes() != new[rel].read_bytes()]
    return sorted(out)


def main(argv: list[str]) -> int:
    ref, args = "main", []
    if "--" in argv:
        args = argv[argv.index("--") + 1:]
        argv = argv[: argv.index("--")]
    if argv:
        ref = argv[0]
    with tempfile.TemporaryDirectory(prefix="pnp-same-") as tmp:
        old_tree = Path(tmp) / "tree"
        old_tree.mkdir()
        data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref], capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(old_tree, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
        before, after = Path(tmp) / "before", Path(tmp) / "after"
        build(old_tree, before, args)
        build(ROOT, after, args)
        found = differences(before, after)
        for line in found:
            print(line)
        print(f"{len(found)} differences between {ref} and this work tree" if found else f"byte-identical to {ref}")
        return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
