"""The PDF engine on worker processes (pnp/formats/pdf_engine.py): the same bytes as in
this process, errors that come back as one located line, and a build that uses them."""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pnp.build import witness

REPO = Path(__file__).resolve().parent.parent

# run in a fresh interpreter: a pool forks only while typst is not loaded in the parent
CHILD = """
import hashlib, json, sys
from pnp.errors import PnpError
from pnp.formats import pdf_engine
from pnp.formats.pdf import SheetPlan
from pnp.load.fonts import DEFAULT

font_files = DEFAULT.paths
svg = '<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm" viewBox="0 0 20 10"><text x="1" y="6" font-size="4">Pawn</text></svg>'
good = '#set document(date: none)\\n#page(width: 20mm, height: 10mm, margin: 0pt, image(bytes(sys.inputs.f), format: "svg", width: 20mm))\\n'
bad = '#image("nowhere.png")\\n'
sheet = SheetPlan("good", 30, 20, [[("face", 0, 5, 5, 0, None)]])

def both():
    made, = pdf_engine.run_book("good", [(good, {"f": svg})], font_files, [sheet])
    try:
        pdf_engine.run_book("Deck: cards", [(bad, {})], font_files, [])
        problem = None
    except PnpError as exc:
        problem = [str(e) for e in exc.errors]
    return hashlib.sha256(made).hexdigest(), problem

with pdf_engine.engine_pool(font_files):
    pooled = pdf_engine._POOL is not None
    in_pool = both()
    typst_here = "typst" in sys.modules
here = both()
print(json.dumps({"pooled": pooled, "typst_here": typst_here, "in_pool": in_pool, "here": here}))
"""


def test_a_worker_makes_the_same_bytes_and_reports_the_engine_error_as_one_line():
    env = {**os.environ, "PYTHONPATH": str(REPO), "PNP_PDF_WORKERS": "2"}
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    if (os.cpu_count() or 1) < 2 or not sys.platform.startswith("linux"):
        pytest.skip("a pool needs two cores and fork")
    assert seen["pooled"] and not seen["typst_here"]  # the parent never loaded the engine
    assert seen["in_pool"] == seen["here"]
    problem = seen["here"][1]
    assert problem is not None and len(problem) == 1 and problem[0].startswith("Deck: cards: the PDF engine failed: ")
    assert "\n" not in problem[0]


def test_a_pool_is_not_opened_once_typst_is_loaded_here():
    from pnp.formats import pdf_engine

    import typst  # noqa: F401  (loaded, as in a process that made a PDF itself)

    with pdf_engine.engine_pool():
        assert pdf_engine._POOL is None


NICE = """
import json, os
from pnp.formats import pdf_engine

with pdf_engine.engine_pool(()):
    worker = pdf_engine._POOL.submit(os.nice, 0).result() if pdf_engine._POOL is not None else None
print(json.dumps({"here": os.nice(0), "worker": worker}))
"""


def test_the_pdf_workers_run_behind_the_build_that_renders():
    if (os.cpu_count() or 1) < 2 or not sys.platform.startswith("linux"):
        pytest.skip("a pool needs two cores and fork")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PNP_PDF_WORKERS": "2"}
    done = subprocess.run([sys.executable, "-c", NICE], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    from pnp.formats.engine_jobs import NICER

    assert seen["worker"] == min(seen["here"] + NICER, 19)


def _build(out: Path, workers: str, *games: str) -> dict[str, bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "PNP_PDF_WORKERS": workers}
    code = "import sys; from pnp.cli import main; main()"
    done = subprocess.run([sys.executable, "-c", code, "build", "-q", "--out", str(out), *games], capture_output=True, text=True,
                          cwd=REPO, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    # every file, the build caches too; the no-op record names the paths each build read
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file() and p.name != witness.RECORD}


def test_a_build_on_workers_writes_what_a_build_in_one_process_writes(tmp_path: Path):
    games = ("dietrick-taking", "human-harvest")  # two games: the workers start before they render
    pooled = _build(tmp_path / "pooled", "2", *games)
    alone = _build(tmp_path / "alone", "1", *games)
    assert len(pooled) > 2 and pooled == alone


def test_the_code_stamp_covers_the_engine_the_workers_import(monkeypatch, tmp_path: Path):
    """Only the workers import typst: its install is part of pnp's own code stamp all the same,
    and an upgrade (its files written anew) changes the stamp."""
    import importlib.util

    fake = tmp_path / "typst"
    fake.mkdir()
    (fake / "__init__.py").write_text("")
    (fake / "_typst.abi3.so").write_bytes(b"engine 0.15")
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: importlib.util.spec_from_file_location(
        "typst", fake / "__init__.py", submodule_search_locations=[str(fake)]) if name == "typst" else real(name, *a))
    witness.own_code.cache_clear()
    before = witness.own_code()
    (fake / "_typst.abi3.so").write_bytes(b"engine 0.16!")
    witness.own_code.cache_clear()
    assert witness.own_code() != before
    monkeypatch.undo()
    witness.own_code.cache_clear()


def test_the_code_stamp_imports_neither_the_engine_nor_package_metadata():
    code = "import sys; from pnp.build import witness; witness.own_code(); print(sorted({'typst', 'pikepdf', 'importlib.metadata'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_workers_start_for_a_first_build_of_several_games_and_only_when_two_games_changed_pdfs(tmp_path: Path, monkeypatch):
    from contextlib import nullcontext

    from pnp.build import driver
    from pnp.load.content import Project
    from pnp.tools.scaffold import scaffold

    project = Project(tmp_path / "proj")
    scaffold(project, "one")
    scaffold(project, "two")
    opened: list[int] = []
    monkeypatch.setattr(driver, "_engine", lambda options: opened.append(1) or nullcontext())
    options = driver.BuildOptions()
    driver.build(project, None, options)
    assert opened == [1]  # first build of two games: before they render
    driver.build(project, None, options)
    assert opened == [1]  # nothing changed: no workers
    cards = project.content_dir / "one" / "cards.yaml"
    cards.write_text(cards.read_text().replace("copies: 3", "copies: 2"))
    driver.build(project, None, options)
    assert opened == [1]  # one game's PDFs changed: one engine job, made here
    driver.build(project, ["one"], driver.BuildOptions(force=True))
    assert opened == [1]  # all of one game's PDFs: still one job
    for game in ("one", "two"):
        cards = project.content_dir / game / "cards.yaml"
        cards.write_text(cards.read_text().replace("copies: 2", "copies: 1").replace("copies: 3", "copies: 1"))
    driver.build(project, None, options)
    assert opened == [1, 1]  # two games' PDFs changed: one job each, on the workers
    driver.build(project, None, driver.BuildOptions(force=True))
    assert opened == [1, 1, 1]


# a build in a fresh interpreter, telling whether typst was loaded here as the pool opened and
# whether it forked (into the file named by $SEEN)
WATCHED_BUILD = """
import json, os, sys
from contextlib import contextmanager
from pnp.formats import pdf_engine

opened, seen = pdf_engine.engine_pool, []

@contextmanager
def watched(*args, **kwargs):
    typst_here = "typst" in sys.modules
    with opened(*args, **kwargs):
        seen.append({"typst_here": typst_here, "pooled": pdf_engine._POOL is not None})
        yield

pdf_engine.engine_pool = watched
from pnp.cli import main
try:
    main()
finally:
    with open(os.environ["SEEN"], "w") as out:
        json.dump(seen, out)
"""


def test_a_game_naming_its_own_fonts_leaves_the_engine_to_the_workers(tmp_path: Path):
    """Loading a game that names its own fonts asked typst here what it names each file, so
    the pool never forked (typst loaded) and every PDF was made in this process: the engine
    names them where it runs, and a family it names otherwise is one located line as before,
    with nothing written."""
    from fontTools.ttLib import TTFont

    from pnp.load.content import Project
    from pnp.load.fonts import DEFAULT_DIR
    from pnp.tools.scaffold import scaffold

    project = Project(tmp_path / "proj")
    scaffold(project, "one")
    scaffold(project, "two")
    for template in (project.templates_dir / "one").iterdir():  # its text plain: one regular file draws it
        template.write_text(template.read_text().replace(' font-weight="bold"', "").replace(', "bold")', ")"))
    game = project.content_dir / "one" / "game.yaml"
    game.write_text(game.read_text().replace("components:", "fonts: [Sans.ttf]\ncomponents:", 1))
    font = project.content_dir / "one" / "Sans.ttf"
    font.write_bytes((DEFAULT_DIR / "LiberationSans-Regular.ttf").read_bytes())
    env = {**os.environ, "PYTHONPATH": str(REPO), "PNP_PDF_WORKERS": "2", "SEEN": str(tmp_path / "seen.json")}

    def build() -> tuple[subprocess.CompletedProcess, list[dict]]:
        done = subprocess.run([sys.executable, "-c", WATCHED_BUILD, "build", "-q", "--force", "--format", "pdf", "--project", str(project.root)],
                              capture_output=True, text=True, env=env, timeout=300)
        return done, json.loads((tmp_path / "seen.json").read_text())

    done, seen = build()
    assert done.returncode == 0, done.stderr
    assert [s["typst_here"] for s in seen] == [False]  # two games built first: the pool opens before they render
    pooled = (os.cpu_count() or 1) >= 2 and sys.platform.startswith("linux")
    assert seen[0]["pooled"] == pooled
    made = {p: p.read_bytes() for p in project.output_dir.rglob("*") if p.is_file()}
    with TTFont(str(font)) as named:  # a family typst knows as Liberation Sans
        for record in named["name"].names:
            if record.nameID in (1, 4, 16):
                record.string = "Liberation Sans Narrow"
        named.save(str(font))
    done, seen = build()
    assert done.returncode == 2 and seen == [{"typst_here": False, "pooled": pooled}], done.stderr
    line = next(n for n, text in enumerate(game.read_text().splitlines(), 1) if text.startswith("fonts:"))
    (found,) = (done.stdout + done.stderr).strip().splitlines()
    assert f"game.yaml:{line}:9: font file Sans.ttf: the PDF engine (typst) knows its family 'Liberation Sans Narrow' as " \
           "'Liberation Sans'" in found, found
    assert {p: p.read_bytes() for p in project.output_dir.rglob("*") if p.is_file()} == made


CHECKED_INPUT = """
import sys
from pathlib import Path
from pnp.build.driver import check_input
from pnp.cli import options_for
from pnp.load.content import Project

root = Path(sys.argv[1])
check_input(Project(root), None, options_for(root, formats=sys.argv[2]))
print("typst" in sys.modules)
"""


@pytest.mark.parametrize("formats, asked_here", [("pdf-single", False), ("svg,pdf", False), ("svg", True)])
def test_checking_the_input_of_a_build_making_print_shop_pdfs_leaves_typst_to_the_workers(tmp_path: Path, formats: str,
                                                                                           asked_here: bool):
    """`--format pdf-single` makes its PDFs with typst as `pdf` does, but the check of the input
    asked typst here what it names the game's fonts: the pool could not fork any more."""
    from pnp.load.content import Project
    from pnp.load.fonts import DEFAULT_DIR
    from pnp.tools.scaffold import scaffold

    project = Project(tmp_path / "proj")
    scaffold(project, "one")
    game = project.content_dir / "one" / "game.yaml"
    game.write_text(game.read_text().replace("components:", "fonts: [Sans.ttf]\ncomponents:", 1))
    (project.content_dir / "one" / "Sans.ttf").write_bytes((DEFAULT_DIR / "LiberationSans-Regular.ttf").read_bytes())
    for template in (project.templates_dir / "one").iterdir():  # its text plain: one regular file draws it
        template.write_text(template.read_text().replace(' font-weight="bold"', "").replace(', "bold")', ")"))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", CHECKED_INPUT, str(project.root), formats], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(asked_here)], done.stdout


def test_a_bad_worker_count_is_one_line_and_exit_2(tmp_path: Path):
    env = {**os.environ, "PYTHONPATH": str(REPO), "PNP_PDF_WORKERS": "lots"}
    done = subprocess.run([sys.executable, "-c", "from pnp.cli import main; main()", "build", "-q", "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=300)
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        "PNP_PDF_WORKERS='lots': expected a whole number of PDF worker processes, 1 or more (1: none)"]
    assert not (tmp_path / "out").exists()


def _pages(data: bytes) -> list:
    import pypdfium2

    return [page.render(scale=30 / 72).to_pil().convert("RGB").tobytes() for page in pypdfium2.PdfDocument(data)]


def test_a_book_of_many_faces_is_typeset_in_chunks_apart_and_prints_the_same(tmp_path: Path, monkeypatch):
    """More faces than one document holds: each chunk is typeset in a fresh process (typst
    keeps what it typeset while its process lives), and the sheets look as from one document."""
    import io

    import pikepdf

    from pnp.formats import pdf_engine
    from pnp.formats.impose import layout, paper
    from pnp.formats.pdf import pdfs
    from pnp.load.content import Project, load_game
    from pnp.render.faces import render_game

    game = load_game(Project(REPO / "bench" / "poker"), "poker")
    comp = next(c for c in render_game(game, {}, 0.0) if c.pieces)
    sheets = [layout(comp, paper("letter"), "Cards")]
    whole, = pdfs("Deck", sheets, game.fonts)
    apart_runs = []
    compose = pdf_engine.Apart.compose
    monkeypatch.setattr(pdf_engine.Apart, "compose", lambda self, docs, plans: apart_runs.append(len(docs)) or compose(self, docs, plans))
    monkeypatch.setattr(pdf_engine, "CHUNK", 20)
    chunked, = pdfs("Deck", sheets, game.fonts)
    assert apart_runs == [3]  # 54 cards: three documents of at most 20 faces
    assert chunked == pdfs("Deck", sheets, game.fonts)[0]  # same input, same bytes
    assert _pages(chunked) == _pages(whole)
    with pikepdf.Pdf.open(io.BytesIO(chunked)) as pdf:
        fonts = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/FontDescriptor"]
        assert fonts and all("/FontFile2" in f for f in fonts)


def test_a_big_books_documents_of_small_components_go_apart_as_they_close(monkeypatch):
    """A document holds one component's faces: once the book holds CHUNK faces, each
    document is handed to the engine apart as it closes (those before with it, in order),
    though none is full, so a big game of small components is typeset while it renders."""
    from pnp.formats import pdf_engine
    from pnp.formats.pdf import BookPages
    from pnp.render.faces import Face

    handed: list[list[str]] = []

    class Recorded:
        def __init__(self, *args):
            pass

        def add(self, text, inputs):
            handed.append(sorted(inputs))

    monkeypatch.setattr(pdf_engine, "CHUNK", 3)
    monkeypatch.setattr(pdf_engine, "Apart", Recorded)
    book = BookPages("t", "Liberation Sans", early=())
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm"><rect width="{}" height="1"/></svg>'
    for component, count in (("a", 2), ("b", 2)):
        for n in range(count):
            book.add(Face(component, f"{n}", svg.format(n), 10, 10, 0))
    assert not handed  # two documents of two faces: not yet a big book
    book.add(Face("c", "0", svg.format(0), 10, 10, 0))  # the same picture: a page of c's own
    assert handed == [["f0", "f1"], ["f2", "f3"]]


def test_an_engine_failure_in_a_chunk_apart_is_one_line(monkeypatch):
    from pnp.errors import PnpError
    from pnp.formats import pdf_engine
    from pnp.load.fonts import DEFAULT

    good = ('#page(width: 20mm, height: 10mm, margin: 0pt, image(bytes(sys.inputs.f0), format: "svg", width: 20mm))\n',
            {"f0": '<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm"/>'})
    bad = ('#page(image(bytes(sys.inputs.f1), format: "svg"))\n', {"f1": "<svg"})
    monkeypatch.setattr(pdf_engine, "CHUNK", 1)
    with pytest.raises(PnpError) as failed:
        pdf_engine.run_book("Deck", [good, bad], DEFAULT.paths, [])
    message, = [str(e) for e in failed.value.errors]
    assert message.startswith("Deck: the PDF engine failed: ") and "\n" not in message


def test_a_composer_that_fails_apart_is_one_line():
    from pnp.formats import pdf_engine
    from pnp.formats.pdf import SheetPlan

    from concurrent.futures import Future

    typeset: Future = Future()
    typeset.set_result(((b"not a PDF", ""), ""))
    made, problem = pdf_engine._compose_arriving([typeset], [1], [SheetPlan("Deck", 30, 20, [[("face", 0, 5, 5, 0, None)]])])
    assert made == [] and "\n" not in problem and "PdfError" in problem


def test_a_document_apart_is_typeset_on_one_thread_in_a_light_process_behind_a_build_that_renders(monkeypatch):
    """typst's own threads would hold about 50 MiB more a document apart and gain nothing
    there (the documents run side by side already): its child runs them with one thread,
    unless the user chose a number; and the child imports only the job, not the engine's
    process machinery (that costs each child as much as starting Python)."""
    from pnp.formats import pdf_engine

    loaded = subprocess.run([sys.executable, "-c", "import sys, pnp.formats.engine_jobs; print(sorted(m for m in sys.modules if m.startswith(('pnp', 'concurrent', 'multiprocessing', 'subprocess'))))"],
                            capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(REPO)}).stdout
    assert loaded.strip() == "['pnp', 'pnp.formats', 'pnp.formats.engine_jobs']"
    seen: list[dict] = []
    commands: list[list[str]] = []

    def run(command, input, capture_output, env):
        seen.append(env)
        commands.append(command)
        return subprocess.CompletedProcess(command, 0, pickle.dumps((b"%PDF", "")), b"")

    monkeypatch.setattr(pdf_engine.subprocess, "run", run)
    monkeypatch.delenv("RAYON_NUM_THREADS", raising=False)
    assert pdf_engine._in_child(("typeset", "", {}, ())) == ((b"%PDF", ""), "")
    monkeypatch.setenv("RAYON_NUM_THREADS", "3")
    pdf_engine._in_child(("typeset", "", {}, ()))
    assert [env["RAYON_NUM_THREADS"] for env in seen] == ["1", "3"]
    # behind the build while it renders; once it waits on them, not (niceness would let
    # anything else on the machine go first)
    composed: list = []
    monkeypatch.setattr(pdf_engine, "_compose_arriving", lambda jobs, counts, plans: composed.append(([job.result()[1] for job in jobs], counts)) or ([], ""))
    apart = pdf_engine.Apart(())
    apart.add("#page()", {})
    apart.compose([("#page()", {}), ("#set text()\n#page()\n#page()", {})], [])
    assert ["--behind" in command for command in commands[2:]] == [True, False]
    assert composed == [(["", ""], [1, 2])] and "--behind" not in pdf_engine._command(False)  # the composer: the build waits on it


def test_a_small_book_imports_its_composer_while_typst_typesets():
    """typst lets go of the GIL while it compiles: the composer (pikepdf) is imported in
    the meantime, not after it (a fresh interpreter, where nothing imported it yet)."""
    script = """
import sys, time
from pnp.formats import pdf_engine
from pnp.formats.pdf import SheetPlan
from pnp.load.fonts import DEFAULT
typeset = pdf_engine.make_pdf
seen = []

def make_pdf(*job):
    made = typeset(*job)
    waited = time.perf_counter() + 10
    while "pikepdf" not in sys.modules and time.perf_counter() < waited:
        time.sleep(0.001)
    seen.append("pikepdf" in sys.modules)
    return made

pdf_engine.make_pdf = make_pdf
page = '#page(width: 20mm, height: 10mm, margin: 0pt, image(bytes(sys.inputs.f), format: "svg", width: 20mm))'
svg = '<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm"/>'
assert "pikepdf" not in sys.modules
made, problem, _ = pdf_engine.make_book([(page, {"f": svg})], DEFAULT.paths, [SheetPlan("t", 30, 20, [[("face", 0, 5, 5, 0, None)]])])
print(seen, problem, made[0][:5])
"""
    said = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}).stdout
    assert said.strip() == "[True]  b'%PDF-'"


def _poker(tmp_path: Path) -> "object":
    import shutil

    from pnp.load.content import Project

    shutil.copytree(REPO / "bench" / "poker", tmp_path / "poker")
    return Project(tmp_path / "poker")


def test_a_big_game_is_typeset_while_it_renders_and_prints_as_when_typeset_after(tmp_path: Path, monkeypatch):
    """A cold build hands each full document of faces to the engine as soon as its faces are
    rendered; a build whose faces come from the cache typesets the same documents after
    rendering: the same PDFs."""
    from pnp.build.driver import BuildOptions, Tally, build
    from pnp.formats import pdf_engine

    monkeypatch.setattr(pdf_engine, "CHUNK", 20)
    project = _poker(tmp_path)
    faces_done: list[int] = []
    tally = Tally(lambda done, total, what: faces_done.append(done))
    handed: list[tuple[int, int]] = []  # (faces counted so far, faces in the document) at each hand-in
    add = pdf_engine.Apart.add
    monkeypatch.setattr(pdf_engine.Apart, "add", lambda self, text, inputs: handed.append((faces_done[-1], len(inputs))) or add(self, text, inputs))
    out = tmp_path / "out"
    build(project, None, BuildOptions(formats=("pdf",), out=out), progress=tally)
    # 54 cards: two full documents while the faces render (after the 20th and the 40th), the rest after
    assert [size for _, size in handed] == [20, 20, 14, 0] and all(done < 54 for done, _ in handed[:2])
    cold = {p.name: p.read_bytes() for p in out.rglob("*.pdf")}
    for pdf in out.rglob("*.pdf"):
        pdf.unlink()
    handed.clear()
    (report,) = build(project, None, BuildOptions(formats=("pdf",), out=out))
    assert report.rendered == 0 and [size for _, size in handed] == [20, 20, 14, 0]  # from the cache, typeset after
    assert {p.name: p.read_bytes() for p in out.rglob("*.pdf")} == cold


def test_a_document_that_fails_while_the_game_renders_is_one_line_and_writes_nothing(tmp_path: Path, monkeypatch):
    from pnp.build.driver import BuildOptions, build
    from pnp.errors import PnpError
    from pnp.formats import pdf_engine

    monkeypatch.setattr(pdf_engine, "CHUNK", 20)
    in_child = pdf_engine._in_child
    monkeypatch.setattr(pdf_engine, "_in_child", lambda job, behind=False: (None, "error: failed to parse SVG") if "f20" in job[2] else in_child(job, behind))
    with pytest.raises(PnpError) as failed:
        build(_poker(tmp_path), None, BuildOptions(formats=("svg", "pdf"), out=tmp_path / "out"))
    message, = [str(e) for e in failed.value.errors]
    assert message == "Poker deck benchmark: the PDF engine failed: error: failed to parse SVG"
    assert not (tmp_path / "out" / "poker").exists()


@pytest.mark.skipif((os.cpu_count() or 1) < 2 or not Path("/proc").is_dir(), reason="a pool needs two cores; /proc tells a process ended")
def test_the_pools_workers_end_when_the_build_is_killed_outright():
    """kill -9 of a build (or the OOM killer) leaves no PDF worker waiting forever on its
    pool's pipe, holding the terminal's output open (`pnp build | cat` never ending)."""
    script = """
import os, signal
from pnp.formats import pdf_engine
with pdf_engine.engine_pool():
    pdf_engine._POOL.submit(int).result()
    print(" ".join(map(str, pdf_engine._POOL._processes)), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
"""
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(REPO)})
    workers = [int(pid) for pid in child.stdout.readline().split()]
    child.wait(timeout=30)
    assert len(workers) >= 2

    def running(pid: int) -> bool:
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
        except (OSError, IndexError):
            return False

    waited = time.monotonic() + 10
    while any(map(running, workers)) and time.monotonic() < waited:
        time.sleep(0.1)
    alive = [pid for pid in workers if running(pid)]
    for pid in alive:  # leave nothing behind, whatever the outcome
        os.kill(pid, signal.SIGKILL)
    assert not alive
