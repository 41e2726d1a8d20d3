"""Hostile input (issue 11): the five ways a careless or malicious file broke `pnp score`
and `pnp validate`, each with a regression test, plus the limits, the exit codes and
`--json` errors. The fuzz suite is tests/test_fuzz.py; precise timings bench/bench_limits.py.
"""

from __future__ import annotations

import io
import json
import re
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from pnp.cli import app
from pnp.load.content import Project
from pnp.errors import PnpError
from pnp.safetext import clip, json_text, markup, plain
from pnp.score.dispatch import score_sheet
from pnp.load.yamlio import SHEET, load_located, parse_located
from game_plugins import game_module


REPO = Path(__file__).resolve().parent.parent
TH_EXAMPLE = (REPO / "examples/tasty-humans-2p.yaml").read_text()
DT_EXAMPLE = (REPO / "examples/dietrick-taking-3p.yaml").read_text()
BOUND = 5.0  # seconds: generous, the bench measures (bench/bench_limits.py)
runner = CliRunner()
pytestmark = pytest.mark.usefixtures("cached_games")

MARKUP_NAMES = ["[/bold]", ":pile_of_poo:", "Bo[link=file:///etc/passwd]x[/link]", "[red]Eve[/red]", "back\\", "a\\[b]"]
ESCAPES = ["\x1b[2J\x1b[31mEve", "\x1b]8;;file:///etc/passwd\x07Eve\x1b]8;;\x07", "\x9b31mEve", "Eve\u202egnp.exe"]


def score(tmp_path: Path, text: str, *args: str, name: str = "game.yaml"):
    sheet = tmp_path / name
    sheet.write_text(text, encoding="utf-8")
    started = time.perf_counter()
    result = runner.invoke(app, ["score", str(sheet), *args, "--project", str(REPO)])
    return result, time.perf_counter() - started


def one_error(result, *parts: str) -> str:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    for part in parts:
        assert part in lines[0], lines[0]
    return lines[0]


# --- 1. non-ASCII digits in a stomach ------------------------------------------------

# the line of Ana's first stomach row in the example sheet
ROW1_LINE = TH_EXAMPLE.splitlines().index("      H A B G 1 H") + 1


@pytest.mark.parametrize("char", ["²", "³", "①", "٣", "\u00a0", "\u3000", "Ｈ", "\u200b"])
def test_a_stomach_symbol_outside_the_ascii_alphabet_is_unknown(tmp_path, char):
    result, _ = score(tmp_path, TH_EXAMPLE.replace("H A B G 1 H", f"H A B G {char} H", 1))
    line = one_error(result, f"game.yaml:{ROW1_LINE}: Ana, row 1 column 5: unknown symbol ", f"(U+{ord(char):04X})",
                     "expected H A B G D, 1-5 (leaders) or .")
    assert "\x1b" not in line


def test_a_control_character_is_a_located_yaml_error(tmp_path):
    result, _ = score(tmp_path, TH_EXAMPLE.replace("H A B G 1 H", "H A B G \x1b H", 1))
    one_error(result, f"game.yaml:{ROW1_LINE}:15: malformed YAML: unacceptable character #x001b")


# --- 2. markup and control sequences in names ----------------------------------------

def _render(report) -> str:
    buffer = io.StringIO()
    report.render(Console(file=buffer, force_terminal=True, color_system="truecolor", width=200, emoji=False))
    return buffer.getvalue()


@pytest.mark.parametrize("name", MARKUP_NAMES + ESCAPES)
@pytest.mark.parametrize("example, first", [(TH_EXAMPLE, "Ana"), (DT_EXAMPLE, "Ana")])
def test_a_name_is_printed_as_text_in_both_reports(tmp_path, example, first, name, repo_project):
    quoted = json.dumps(name)  # a YAML double-quoted string
    text = example.replace(f"name: {first}", f"name: {quoted}", 1)
    claimed = re.search(r"claimed: (\d+)", text)  # Tasty Humans: make the first claim wrong on purpose
    if claimed:
        text = text.replace(claimed.group(0), f"claimed: {int(claimed.group(1)) + 1}", 1)
    result, _ = score(tmp_path, text)
    assert result.exit_code in (0, 1), result.output  # 1: the TH claim was made wrong on purpose
    assert "Traceback" not in result.output and "\x1b" not in result.output and "\x9b" not in result.output
    shown = plain(name)
    assert shown in result.output or clip(shown, 10) in result.output or "…" in result.output

    # On a colour terminal: styles are ANSI codes, the name is never one of them.
    sheet = tmp_path / "game.yaml"
    rendered = _render(score_sheet(repo_project, sheet))
    assert "\x1b]8;" not in rendered  # no hyperlink
    assert "\x1b[2J" not in rendered and "\x9b" not in rendered and "\u202e" not in rendered
    assert json.loads(runner.invoke(app, ["score", str(sheet), "--json", "--project", str(REPO)]).output)["players"]


def test_a_name_in_an_error_line_is_text(tmp_path):
    text = TH_EXAMPLE.replace("name: Ana", 'name: "\\e[2JAna"').replace("H A B G 1 H", "H A B G X H")
    line = one_error(score(tmp_path, text)[0], "\\x1b[2JAna, row 1 column 5: unknown symbol 'X'")
    assert "\x1b" not in line


def test_every_command_prints_user_text_as_text(tmp_path, demo: Project):
    hostile = "[red]x\x1b[2J"  # no "/": it is a folder name too
    for part in ("content", "templates"):
        (demo.root / part / "demo").rename(demo.root / part / hostile)
    for command in (["list"], ["validate"], ["build", "--format", "svg"], ["build", "[/bold]\x1b[2J"], ["schema"]):
        result = runner.invoke(app, [*command, "--project", str(demo.root)])
        assert "Traceback" not in result.output and "\x1b" not in result.output, (command, result.output)
        assert result.exit_code in (0, 2), (command, result.output)
    listed = runner.invoke(app, ["list", "--project", str(demo.root)]).output
    assert "[red]x\\x1b[2J" in listed
    built = runner.invoke(app, ["build", "--format", "svg", "--project", str(demo.root)]).output
    assert built.startswith("[red]x\\x1b[2J: 1 component,")
    bad = runner.invoke(app, ["build", "[/bold]\x1b[2J", "--project", str(demo.root)])
    assert bad.exit_code == 2 and "unknown game '[/bold]\\x1b[2J'" in bad.output


def test_markup_escape_round_trips_any_text():
    console = Console(file=io.StringIO(), width=300, emoji=False)  # as the CLI's
    for text in MARKUP_NAMES + ESCAPES + ["[", "]", "\\", "[[b]]", "\\\\[i]"]:
        with console.capture() as cap:
            console.print(f"[bold]{markup(text)}[/bold]", end="")
        assert cap.get() == plain(text)


def test_json_text_escapes_terminal_controls():
    text = json_text({"name": "\x1b[2J\x9b\u202e"})
    assert json.loads(text) == {"name": "\x1b[2J\x9b\u202e"}
    assert not any(c in text for c in "\x1b\x9b\u202e")


# --- 3. deep nesting -----------------------------------------------------------------

@pytest.mark.parametrize("depth", [33, 2_000, 30_000])
def test_deep_nesting_is_one_located_line(tmp_path, depth):
    result, seconds = score(tmp_path, "game: tasty-humans\nplayers: " + "[" * depth + "]" * depth + "\n")
    one_error(result, "game.yaml:2:", "nested more than 32 levels deep", "PNP_SHEET_LIMITS")
    assert seconds < BOUND


def test_deep_block_nesting_and_nesting_through_aliases(tmp_path):
    block = "game: tasty-humans\nplayers:\n" + "".join("  " * i + "- \n" for i in range(1, 300))
    one_error(score(tmp_path, block)[0], "nested more than 32 levels deep")
    chain = "a0: &a0 [1]\n" + "".join(f"a{i}: &a{i} [*a{i - 1}]\n" for i in range(1, 40))
    one_error(score(tmp_path, chain)[0], "nested more than 32 levels deep (through alias *a")


def test_deep_nesting_in_a_real_process_does_not_crash(tmp_path):
    """The C composer segfaulted (exit 139) at this depth: only a subprocess can tell."""
    sheet = tmp_path / "deep.yaml"
    sheet.write_text("game: tasty-humans\nplayers: " + "[" * 30_000 + "]" * 30_000 + "\n")
    done = subprocess.run([sys.executable, "-c", "from pnp.cli import main; main()", "score", str(sheet), "--project", str(REPO)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "nested more than 32 levels deep" in done.stderr and "Traceback" not in done.stderr


# --- 4. alias bombs --------------------------------------------------------------------

def bomb(levels: int, width: int = 9) -> str:
    lines = ["game: tasty-humans", "a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("levels", [7, 9, 30])
def test_alias_bombs_stop_early(tmp_path, levels):
    result, seconds = score(tmp_path, bomb(levels))
    one_error(result, "more than 10,000 values (an alias counts as a copy of what it names)")
    assert seconds < BOUND


def test_too_many_aliases_and_merge_keys_count_too(tmp_path):
    many = "game: tasty-humans\na: &a 1\nb: [" + ", ".join(["*a"] * 101) + "]\n"
    one_error(score(tmp_path, many)[0], "more than 100 aliases (*name)")
    merges = "a0: &a0 {k: [1, 2, 3, 4, 5, 6, 7, 8, 9]}\n" + "".join(
        f"a{i}: &a{i} {{<<: [{', '.join([f'*a{i - 1}'] * 9)}]}}\n" for i in range(1, 12))
    with pytest.raises(PnpError, match="more than"):
        parse_located(merges, "m.yaml", SHEET)


def test_aliases_within_the_limits_still_work():
    doc = parse_located("base: &b {x: 1}\nitems: [*b, *b]\nmerged: {<<: *b, y: 2}\n", "f.yaml")
    assert doc.data == {"base": {"x": 1}, "items": [{"x": 1}, {"x": 1}], "merged": {"x": 1, "y": 2}}


# --- 5. size ---------------------------------------------------------------------------

def test_a_huge_name_or_player_list_is_refused_before_reading(tmp_path):
    name = TH_EXAMPLE.replace("name: Ana", "name: " + "x" * 3_000_000)
    result, seconds = score(tmp_path, name)
    one_error(result, "game.yaml: file of 2.9 MiB, more than 2 MiB: the limit for a scoring sheet (set PNP_SHEET_LIMITS=size=N to change it)")
    players = "game: tasty-humans\nplayers:\n" + "  - {name: P, monster: troll, stomach: x}\n" * 60_000
    one_error(score(tmp_path, players)[0], "more than 2 MiB: the limit for a scoring sheet")
    assert seconds < BOUND


def test_a_long_text_within_the_file_size_is_refused(tmp_path):
    result, _ = score(tmp_path, TH_EXAMPLE.replace("name: Ana", "name: " + "x" * 20_000))
    line = TH_EXAMPLE.splitlines().index("  - name: Ana") + 1
    one_error(result, f"game.yaml:{line}:11: a text of 20,000 characters, more than 10,000: the limit for a scoring sheet (set PNP_SHEET_LIMITS=string=N to change it)")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_dev_zero_is_read_with_the_same_cap():
    started = time.perf_counter()
    result = runner.invoke(app, ["score", "/dev/zero", "--project", str(REPO)])
    one_error(result, "/dev/zero: not a regular file, more than 2 MiB: the limit for a scoring sheet")
    assert time.perf_counter() - started < BOUND


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_pipe_is_read_and_an_unopened_pipe_does_not_hang(tmp_path):
    fifo = tmp_path / "sheet.fifo"
    os.mkfifo(fifo)
    with pytest.raises(PnpError):  # nobody writes: empty, not a hang
        score_sheet(Project(REPO), fifo)
    keep = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # holds the pipe's buffer open
    try:
        writer = os.open(fifo, os.O_WRONLY)
        os.write(writer, DT_EXAMPLE.encode())
        os.close(writer)
        assert score_sheet(Project(REPO), fifo).exit_code == 0  # what was written, then EOF
    finally:
        os.close(keep)


def test_limits_can_be_changed_from_the_environment(tmp_path, monkeypatch, demo: Project):
    monkeypatch.setenv("PNP_SHEET_LIMITS", "size=4M, string=40000")
    result, _ = score(tmp_path, TH_EXAMPLE.replace("name: Ana", "name: " + "x" * 20_000))
    assert result.exit_code == 0, result.output
    monkeypatch.setenv("PNP_CONTENT_LIMITS", "size=100")
    result = runner.invoke(app, ["validate", "--project", str(demo.root)])
    assert result.exit_code == 2 and "more than 100 bytes: the limit for a content file" in result.output
    monkeypatch.setenv("PNP_CONTENT_LIMITS", "depth=lots")
    result = runner.invoke(app, ["validate", "--project", str(demo.root)])
    assert result.output.strip() == "PNP_CONTENT_LIMITS: 'depth=lots': expected KEY=NUMBER with KEY one of size, depth, nodes, aliases, string, e.g. size=8M"


def test_limits_do_not_change_what_real_files_mean():
    import yaml

    files = sorted(REPO.glob("content/*/*.yaml")) + sorted(REPO.glob("examples/*.yaml"))
    for path in files:
        assert load_located(path).data == yaml.load(path.read_text(), Loader=yaml.CSafeLoader), path


# --- exit codes, --json, the guard ----------------------------------------------------

def test_json_errors_go_to_stdout_as_json(tmp_path):
    result, _ = score(tmp_path, TH_EXAMPLE.replace("H A B G 1 H", "H A B G ² H"), "--json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["exit_code"] == 2 and len(data["errors"]) == 1
    error = data["errors"][0]
    assert Path(error.pop("file")) == tmp_path / "game.yaml"
    assert error == {"line": ROW1_LINE, "column": None,
                     "message": "Ana, row 1 column 5: unknown symbol '²' (U+00B2): expected H A B G D, 1-5 (leaders) or ."}


def test_json_mismatch_keeps_exit_1(tmp_path):
    claimed = re.search(r"claimed: (\d+)", TH_EXAMPLE)
    result, _ = score(tmp_path, TH_EXAMPLE.replace(claimed.group(0), f"claimed: {int(claimed.group(1)) + 1}", 1), "--json")
    assert result.exit_code == 1 and json.loads(result.stdout)["exit_code"] == 1


def test_a_bug_while_rendering_is_one_line_and_exit_3(tmp_path, monkeypatch):
    TastyHumansReport = game_module("tasty_humans", "scoring").TastyHumansReport

    def broken(self, console):
        console.print("half a report")
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(TastyHumansReport, "render", broken)
    result, _ = score(tmp_path, TH_EXAMPLE)
    assert result.exit_code == 3
    assert result.output == "pnp: internal error: ZeroDivisionError: boom (set PNP_DEBUG=1 for a traceback)\n"
    monkeypatch.setenv("PNP_DEBUG", "1")  # what the line offers: the bug itself, for its traceback
    result, _ = score(tmp_path, TH_EXAMPLE)
    assert isinstance(result.exception, ZeroDivisionError) and "internal error" not in result.output


def test_an_internal_error_in_json_mode_is_json(tmp_path, monkeypatch):
    import pnp.score.dispatch

    monkeypatch.setattr(pnp.score.dispatch, "load_game", lambda *a: 1 / 0)
    result, _ = score(tmp_path, TH_EXAMPLE, "--json")
    assert result.exit_code == 3
    assert json.loads(result.stdout)["errors"][0]["message"].startswith("pnp: internal error: ZeroDivisionError")


def test_a_very_long_error_line_is_shortened_in_the_middle():
    line = "f.yaml:3: " + "x" * 5000 + " expected a name"
    short = clip(line)
    assert len(short) < 1100 and short.startswith("f.yaml:3: ") and short.endswith("expected a name")


def test_content_expressions_and_templates_cannot_reach_python(demo: Project, tmp_path):
    """A collaborator's game.yaml or template runs in Jinja's sandbox: no os.system."""
    marker = tmp_path / "pwned"
    manifest = demo.content_dir / "demo/game.yaml"
    attack = f"cycler.__init__.__globals__.os.system('touch {marker}') or cards.cards"
    manifest.write_text(manifest.read_text().replace("items: cards.cards", f'items: "{attack}"'))
    result = runner.invoke(app, ["validate", "--project", str(demo.root)])
    assert result.exit_code == 2 and "is unsafe" in result.output and not marker.exists()
    template = demo.templates_dir / "demo/card.svg.j2"
    manifest.write_text(manifest.read_text().replace(f'items: "{attack}"', "items: cards.cards"))
    template.write_text('<svg xmlns="http://www.w3.org/2000/svg">{{ cycler.__init__.__globals__.os.system("touch %s") }}</svg>' % marker)
    result = runner.invoke(app, ["validate", "--project", str(demo.root)])
    assert result.exit_code == 2 and "is unsafe" in result.output and not marker.exists()


def test_exit_codes_and_limits_are_documented():
    from conftest import docs_text
    from pnp import cli
    from pnp.load.yamlio import CONTENT, size_in_words as _size

    readme = docs_text("docs/writing-games.md", "docs/security.md")
    for code in (cli.EXIT_OK, cli.EXIT_MISMATCH, cli.EXIT_INPUT, cli.EXIT_INTERNAL, cli.EXIT_INTERRUPTED):
        assert f"\n| {code} | " in readme
    assert f"| {_size(SHEET.size)} | {_size(CONTENT.size)} | `size` |" in readme
    assert f"| {SHEET.depth} | {CONTENT.depth} (at most " in readme
    for key in ("nodes", "aliases", "string"):
        assert f"| {getattr(SHEET, key):,} | {getattr(CONTENT, key):,} | `{key}` |" in readme


def test_the_pure_python_parser_keeps_the_limits(monkeypatch):
    """Without libyaml PyYAML parses in Python: same data, same limits."""
    import yaml

    import pnp.load.yamlio

    monkeypatch.setattr(pnp.load.yamlio, "_Loader", pnp.load.yamlio.loader_class(pnp.load.yamlio.PythonParser))
    path = REPO / "content/dietrick-taking/scoring.yaml"
    assert load_located(path).data == yaml.load(path.read_text(), Loader=yaml.CSafeLoader)
    for text, message in [("a: " + "[" * 100, "nested more than 32 levels deep"), (bomb(9), "more than 10,000 values")]:
        with pytest.raises(PnpError, match=message):
            parse_located(text, "f.yaml", SHEET)


def test_a_line_break_in_a_name_cannot_forge_a_line_of_output(tmp_path):
    text = TH_EXAMPLE.replace("name: Ana", 'name: "Ana\\nok: all\\tfine"').replace("H A B G 1 H", "H A B G X H")
    line = one_error(score(tmp_path, text)[0], "Ana\\nok: all\\tfine, row 1 column 5: unknown symbol 'X'")
    assert "\n" not in line and "\t" not in line
