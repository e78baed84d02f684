"""docs/rules.md says what the engines do: here, how a Tressette game with claims ends (10.1)."""

from __future__ import annotations

import re
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def claiming_bullet() -> str:
    section = RULES.read_text().split("### 10.1 ")[1].split("\n### ")[0]
    return re.search(r"^- \*\*Claiming\*\*.*?(?=^- )", section, re.M | re.S).group(0)


def test_the_claiming_rule_names_every_way_the_engine_ends_a_game_with_claims():
    """A claim ends the game, and so does a hand played out unclaimed after a side reached 31
    (decision 16; tests/test_tressette_engine.py plays it): the bullet must say both, not
    that only a claim ends it, and name the engine's end reasons."""
    bullet = " ".join(claiming_bullet().split())
    assert "only" not in bullet and "decision 16" in bullet
    for reason in ("claim", "false_claim", "hand_end"):  # tests/test_tressette_simulation.py
        assert f"`'{reason}'`" in bullet                # meets each of them
