"""Every code block of README.md and docs/*.md that shows output is run here and its output
compared, so that no example goes stale. The conventions (docs/contributing.md has them for
writers):

- A ```` ```python ```` block with ``>>>`` prompts (or a ```` ```pycon ```` block) is a
  doctest: run with ``ELLIPSIS`` and ``NORMALIZE_WHITESPACE``, the page's doctests sharing one
  namespace in order, in a fresh interpreter.
- A block with no language is **output**. It is either what the ```` ```python ```` block just
  before it prints (at most three lines of prose between them, no heading), or a console
  session: lines ``$ command`` each followed by what the command prints. The python block runs
  in a fresh interpreter (an example that ends in an error shows its last line), the
  commands in a shell, both in a temporary folder (with ``benchmarks``, ``examples`` and ``tests``
  linked into it), and the output is
  compared with ``...`` matching anything (doctest's ``ELLIPSIS``) after the lines that name
  the machine or the time are normalised (``machine: ...`` dropped, ``8.3 s`` read ``N s``).
- An output block that takes too long for the default suite (a strength table over thousands
  of deals) is marked with ``<!-- slow: regenerate with `COMMAND` -->`` on a line of its own
  just before it: it is not run, and :func:`test_slow_blocks_are_listed` lists them with their
  commands (``pytest -rs`` shows the list).
- Every other block names its language: ```` ```bash ```` for commands shown without output,
  ```` ```text ```` for a figure that is not a program's output (a folder tree), and so on. A
  block with no language that is none of the above fails the test: output nobody checks.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(\S*)\s*$")
SLOW = re.compile(r"^<!--\s*slow:\s*(.+?)\s*-->\s*$")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# A command's output names the machine and the time it took; neither is what an example shows.
TIME = re.compile(r"\b\d+(?:\.\d+)?(?: ?(?:s|ms|min))\b")


@dataclass
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    before: list[str]  # the page's lines before the fence
    slow: str | None = None

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    lines = page.read_text().splitlines()
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while not lines[j].startswith("```"):
            j += 1
        block = Block(page, i + 1, m.group(1), "\n".join(lines[i + 1:j]) + "\n", lines[:i])
        prior = [line for line in lines[max(0, i - 2):i] if line.strip()]
        if prior and (s := SLOW.match(prior[-1])):
            block.slow = s.group(1)
        out.append(block)
        i = j + 1
    return out


def source_of(output: Block, previous: Block | None) -> Block | None:
    """The python block whose output ``output`` shows, if it is just before it."""
    if previous is None or previous.lang != "python":
        return None
    # from the line after the block's closing fence (``line`` is its opening fence's, from 1)
    between = output.before[previous.line + previous.text.count("\n") + 1:]
    prose = [line for line in between if line.strip()]
    if len(prose) > 3 or any(line.startswith(("#", "<!--")) for line in prose):
        return None
    return previous


def is_doctest(block: Block) -> bool:
    return block.lang == "pycon" or (block.lang == "python" and ">>> " in block.text)


def classify():
    """(kind, block, source) for every block that shows output: kind is ``python``,
    ``console``, ``doctest``, ``slow`` or ``untested``."""
    for page in PAGES:
        previous = None
        for block in blocks(page):
            if is_doctest(block):
                yield "doctest", block, None
            elif block.lang == "":
                source = source_of(block, previous)
                if block.slow:
                    yield "slow", block, source
                elif block.text.startswith("$ "):
                    yield "console", block, None
                elif source is not None:
                    yield "python", block, source
                else:
                    yield "untested", block, None
            previous = block


ALL = list(classify())


def params(kind):
    return [pytest.param(b, s, id=b.where) for k, b, s in ALL if k == kind]


def normalise(text: str) -> str:
    lines = [line.rstrip() for line in text.splitlines()
             if not line.startswith("machine:")]
    return TIME.sub("N s", "\n".join(lines)).strip() + "\n"


def compare(want: str, got: str, where: str) -> None:
    checker = doctest.OutputChecker()
    if not checker.check_output(want, got, FLAGS):
        diff = checker.output_difference(doctest.Example("", want), got, FLAGS | doctest.REPORT_UDIFF)
        pytest.fail(f"{where} shows output the code no longer prints:\n{diff}")


@pytest.fixture
def in_tmp(tmp_path):
    """A temporary folder to run in, where the repository's scripts are at their paths."""
    for name in ("benchmarks", "examples", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    return tmp_path


def environ() -> dict:
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, "COLUMNS": "100", "NO_COLOR": "1",
            "NO_MKDOCS_2_WARNING": "1"}


def run_python(code: str, cwd: Path) -> subprocess.CompletedProcess:
    """``code`` run by a fresh interpreter (so nothing the tests registered, such as the toy
    game, shows), in ``cwd``."""
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=environ(),
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_every_output_block_is_run_or_marked_slow():
    untested = [b.where for k, b, _ in ALL if k == "untested"]
    assert not untested, (
        "blocks with no language that are neither the output of the python block before them, "
        "nor a $ console session, nor marked <!-- slow: ... --> (a command shown without output "
        f"is ```bash, a figure ```text): {untested}")


@pytest.mark.parametrize("block, source", params("python"))
def test_python_block_prints_what_the_page_shows(block, source, in_tmp):
    run = run_python(source.text, in_tmp)
    got = run.stdout
    if run.returncode:  # an example that ends in an error shows its last line
        got += run.stderr.strip().splitlines()[-1] + "\n"
    compare(normalise(block.text), normalise(got), block.where)


@pytest.mark.parametrize("block, source", params("console"))
def test_console_block_prints_what_the_page_shows(block, source, in_tmp):
    # Each "$ command" and the lines after it up to the next one.
    for session in re.split(r"^\$ ", block.text, flags=re.M)[1:]:
        command, _, shown = session.partition("\n")
        while command.endswith("\\"):  # a command continued on the next line
            more, _, shown = shown.partition("\n")
            command = command[:-1] + " " + more.strip()
        run = subprocess.run(command, shell=True, cwd=in_tmp, env=environ(), capture_output=True,
                             text=True, timeout=120, stdin=subprocess.DEVNULL)
        compare(normalise(shown), normalise(run.stdout + run.stderr), f"{block.where} ($ {command})")


DOCTEST_RUNNER = """
import doctest, sys
flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
globs, failed = {"__name__": "__main__"}, 0
for where, line, text in BLOCKS:
    test = doctest.DocTestParser().get_doctest(text, globs, where, where, line)
    runner = doctest.DocTestRunner(optionflags=flags)
    runner.run(test, clear_globs=False)
    failed += runner.failures
sys.exit(1 if failed else 0)
"""


@pytest.mark.parametrize("page", sorted({b.page for k, b, _ in ALL if k == "doctest"}),
                         ids=lambda page: str(page.relative_to(ROOT)))
def test_doctest_blocks_of_the_page(page, in_tmp):
    examples = [(b.where, b.line, b.text) for k, b, _ in ALL if k == "doctest" and b.page == page]
    run = run_python(f"BLOCKS = {examples!r}\n" + DOCTEST_RUNNER, in_tmp)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("block, source", params("slow"))
def test_slow_blocks_are_listed(block, source):
    assert "`" in block.slow or block.text.startswith("$ "), (
        f"{block.where}: a slow block names the command that regenerates it")
    commands = [line for line in block.text.splitlines() if line.startswith("$ ")]
    pytest.skip(f"slow, not run: {block.where}: {block.slow}" + "".join(f"; {c}" for c in commands))


def test_an_output_block_belongs_to_the_python_block_at_most_three_lines_of_prose_above(tmp_path):
    """The rule docs/contributing.md states: three lines of prose may stand between a block
    and its output (the closing fence is none of them), four may not."""
    page = tmp_path / "page.md"
    for prose, belongs in ((["one", "two", "three:"], True), (["one", "two", "three", "four:"], False)):
        page.write_text("\n".join(["```python", "print(1)", "```", "", *prose, "", "```", "1",
                                   "```", ""]))
        source, output = blocks(page)
        assert (source_of(output, source) is source) == belongs
