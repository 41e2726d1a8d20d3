"""Golden renders: a small picture of every face of every game, to catch art regressions.

    python -m pnp.tools.goldens            # compare every face with tests/goldens/ (exit 1 on a difference)
    python -m pnp.tools.goldens --update   # render them all again (after an intended change)

Faces are rendered without bleed at a low resolution and reduced to a 64-colour palette,
so the committed pictures stay small; a face matches its golden when the pictures agree up
to anti-aliasing (see `matches`) and it prints the same words: at 30 dpi a changed word of
small text is a few pixels, so each golden also holds the face's text (`printed`).
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from ..units import percent

if TYPE_CHECKING:
    from PIL import Image

    from ..load.content import GameContent, Project

DPI = 30
COLOURS = 64
FOLDER = Path("tests") / "goldens"
TEXT = "pnp-text"  # the PNG text chunk a golden keeps its face's words in


def printed(svg: str) -> str:
    """The words a face prints: each <text> element's, a line each, in the order drawn."""
    import xml.etree.ElementTree as ET

    texts = ET.fromstring(svg.encode("utf-8")).iter("{http://www.w3.org/2000/svg}text")
    return "\n".join(" ".join("".join(t.itertext()).split()) for t in texts)


def faces(project: "Project", games: list[str] | None = None) -> Iterator[tuple[str, "Image.Image", str]]:
    """(`<game>/<component>/<face>.png`, picture, words) for every face of every game (or those
    named) built with its default options; then, for each other value of each option the
    game declares (`--set rules=0.2.8`, `--players 3`), the faces that value draws
    differently, as `<game>@<option>=<value>/<component>/<face>.png`."""
    from ..config import BuildOptions
    from ..build.pipeline import Pipeline
    from ..formats.raster import svg_to_image

    for name in games or project.games():
        ((game, rendered),) = Pipeline(project, BuildOptions(bleed=0.0)).each([name], lambda game, rendered: (game, rendered))
        drawn: dict[str, str] = {}
        for comp in rendered:
            for face in comp.faces:
                drawn[f"{face.component}/{face.name}"] = face.svg
                yield f"{name}/{face.component}/{face.name}.png", quantised(svg_to_image(face.svg, DPI, face.fonts)), printed(face.svg)
        for key, value in option_values(game):
            options = BuildOptions(bleed=0.0, players=value) if key == "players" else BuildOptions(bleed=0.0, extra={key: value})
            (rendered,) = Pipeline(project, options).each([name], lambda game, rendered: rendered)
            for comp in rendered:
                for face in comp.faces:
                    if drawn.get(f"{face.component}/{face.name}") != face.svg:
                        yield (f"{name}@{key}={value}/{face.component}/{face.name}.png", quantised(svg_to_image(face.svg, DPI, face.fonts)),
                               printed(face.svg))


def option_values(game: "GameContent") -> list[tuple[str, Any]]:
    """Every value but the default of each option `game` declares with a closed set of
    values (choices, a whole-number range, yes/no)."""
    from ..load.options import choices

    found: list[tuple[str, Any]] = []
    for key, spec in game.manifest.options.items():
        allowed = choices(game, key, spec)
        if allowed is None and spec.type == "int" and spec.min is not None and spec.max is not None:
            allowed = list(range(int(spec.min), int(spec.max) + 1))
        elif allowed is None and spec.type == "bool":
            allowed = [False, True]
        found += [(key, value) for value in allowed or [] if value != spec.default]
    return found


def quantised(image: "Image.Image") -> "Image.Image":
    from PIL import Image

    flat = Image.new("RGB", image.size, "white")
    flat.paste(image, mask=image.getchannel("A") if image.mode == "RGBA" else None)
    return flat.quantize(COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def matches(golden: "Image.Image", fresh: "Image.Image") -> str | None:
    """None when the pictures agree, else what differs."""
    from PIL import ImageChops, ImageStat

    if golden.size != fresh.size:
        return f"size {fresh.size[0]}x{fresh.size[1]} px, golden {golden.size[0]}x{golden.size[1]}"
    diff = ImageChops.difference(golden.convert("RGB"), fresh.convert("RGB")).convert("L")
    mean = ImageStat.Stat(diff).mean[0]
    far = sum(diff.point(lambda v: 255 if v > 80 else 0).histogram()[255:]) / (diff.width * diff.height)
    if mean > 2.0 or far > 0.005:
        return f"{percent(far)} of pixels differ strongly (mean difference {mean:.1f})"
    return None


def differs(golden: "Image.Image", fresh: "Image.Image", words: str) -> str | None:
    """None when `fresh` (printing `words`) matches the golden picture, else what differs."""
    kept = getattr(golden, "text", {}).get(TEXT)
    if kept is None:
        return "the golden holds no text (run python -m pnp.tools.goldens --update)"
    if kept != words:
        old, new = kept.splitlines(), words.splitlines()
        at = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
        was, now = (old[at] if at < len(old) else "(nothing)"), (new[at] if at < len(new) else "(nothing)")
        return f"its text differs from the golden's: {was!r} -> {now!r}"
    return matches(golden, fresh)


def _png(image: "Image.Image", words: str) -> bytes:
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    info.add_itxt(TEXT, words)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True, pnginfo=info)
    return buffer.getvalue()


def check(project: "Project", folder: Path | None = None, games: list[str] | None = None) -> list[str]:
    """One line per face that differs from its golden, has none, or no longer exists."""
    from PIL import Image

    folder = folder or project.root / FOLDER
    problems, seen = [], set()
    for rel, image, words in faces(project, games):
        seen.add(rel)
        path = folder / rel
        if not path.is_file():
            problems.append(f"{rel}: no golden (run python -m pnp.tools.goldens --update)")
            continue
        why = differs(Image.open(path), image, words)
        if why:
            problems.append(f"{rel}: {why}")
    wanted = games or project.games()
    gone = {rel for rel in _existing(folder) - seen if rel.split("/")[0].split("@")[0] in wanted}
    problems += [f"{rel}: golden of a face that no longer exists" for rel in sorted(gone)]
    return problems


def update(project: "Project", folder: Path | None = None) -> tuple[int, int]:
    """Write every face's golden (only those whose pixels or words changed); remove stale ones."""
    from PIL import Image

    from ..files import write_atomic

    folder = folder or project.root / FOLDER
    written, seen = 0, set()
    for rel, image, words in faces(project):
        seen.add(rel)
        path = folder / rel
        if path.is_file() and differs(Image.open(path), image, words) is None:
            continue
        write_atomic(path, _png(image, words))
        written += 1
    stale = _existing(folder) - seen
    for rel in stale:
        (folder / rel).unlink()
    return written, len(stale)


def _existing(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*.png")} if folder.is_dir() else set()


def main(argv: list[str] | None = None) -> int:
    from ..errors import counted
    from ..load.content import Project

    parser = argparse.ArgumentParser(prog="python -m pnp.tools.goldens", description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="render every golden again")
    parser.add_argument("--project", type=Path, default=Path.cwd(), help="project folder (default: here)")
    args = parser.parse_args(argv)
    project = Project(args.project.resolve())
    if args.update:
        written, removed = update(project)
        print(f"{counted(written, 'golden')} written, {removed} removed, in {project.root / FOLDER}")
        return 0
    problems = check(project)
    for line in problems:
        print(line)
    print("ok" if not problems else f"{counted(len(problems), 'face')} {'differs from its golden' if len(problems) == 1 else 'differ from their goldens'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
