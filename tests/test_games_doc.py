"""docs/games.md is a tutorial whose code runs: its python blocks, in order, in one namespace
(the environment example, then the new game built step by step, registered and given every
capability), in a process of their own so that the game they register stays out of the
other tests' registry."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "games.md"


def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", text, re.M | re.S)


def test_the_doc_has_its_steps_and_no_elisions():
    text = DOC.read_text()
    blocks = python_blocks(text)
    assert len(blocks) >= 7
    assert not [b for b in blocks if "..." in b]  # every block is code that runs, whole
    for part in ("RulesBase", "PlainTrickGame", "Display", "TrickFacts", "GameDef",
                 "mediatore_env.games", "register("):
        assert part in text


def test_the_docs_code_runs():
    pytest.importorskip("pyspiel")
    code = "\n\n".join(python_blocks(DOC.read_text()))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "UnknownSwitch unknown Sette rules switch(es) 'colour'" in out.stdout
    assert "illegal move" in out.stdout and "Points: seat 0 " in out.stdout
    shown = DOC.read_text().partition("prints\n\n```\n")[2].partition("```")[0]
    assert shown and shown in out.stdout  # the output the page shows is the output
