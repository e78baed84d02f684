"""docs/jax.md shows a real run: its rollout example prints what the page says it prints; and
its table of names maps every field that every JAX game's state has."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import re
from pathlib import Path

import pytest

pytest.importorskip("jax")
pytest.importorskip("mediatore_env.jaxgame")

PAGE = Path(__file__).resolve().parent.parent / "docs" / "jax.md"


@pytest.mark.slow  # compiles the engine with its observation, about a minute on 2 cores
def test_the_rollout_example_prints_what_the_page_shows():
    text = PAGE.read_text()
    code, shown = re.search(r"## A rollout in ten lines.*?```python\n(.*?)```.*?```\n(.*?)```",
                            text, re.S).groups()
    body = [line for line in code.splitlines()
            if line.strip() and not line.startswith(("import ", "from ", "print("))]
    assert len(body) == 10  # as the heading says
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(PAGE), "exec"), {})
    assert out.getvalue() == shown


def test_the_names_table_maps_every_shared_field_of_a_jax_state():
    from mediatore_env.jaxgame.core import State
    table = re.search(r"### Names:.*?\n\n(\|.*?)\n\n", PAGE.read_text(), re.S).group(1)
    missing = [f.name for f in dataclasses.fields(State) if f"`state.{f.name}" not in table]
    assert not missing, f"docs/jax.md's table of names lacks {missing}"
