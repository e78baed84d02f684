"""Every search agent plays, in its reproducible mode, the moves it played when the pin was
written (tests/search_pin.py says when and how): Mediatore's ``pimc``, ``pimc-infer`` and
``pimc`` with its call and exchange searched, a short tournament's table, and the Tressette
and club PIMC agents' first hands."""

import json

import pytest
from search_pin import PIN, cases

from mediatore_env.analysis.solver import BACKEND

PINNED = json.loads(PIN.read_text())

# The node budgets of the reproducible mode are counted in the C core's nodes.
pytestmark = pytest.mark.skipif(BACKEND != "c", reason="the pin was played with the C solver")


def test_every_case_is_pinned():
    assert sorted(name for name, _ in cases()) == sorted(PINNED)


@pytest.mark.parametrize("name, run", cases(), ids=[name for name, _ in cases()])
def test_the_same_moves_as_when_pinned(name, run):
    assert run() == PINNED[name]
