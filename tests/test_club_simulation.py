"""Random club Mediatore sessions with the rules' invariants checked at every move: the 40
cards conserved, the chips conserved (what the players lost is in the pot), the pot a multiple
of four antes' worth of doublings; at the end the deals' chips add up to the session's.
``-m slow`` runs a bigger batch. What every game owes the interface (refusals, clones, the JSON
round trip, records, observations) is checked by tests/test_universal.py."""

from __future__ import annotations

import random

import numpy as np
import pytest

from mediatore_env.club.game import Session
from mediatore_env.club.moves import AUCTION, CALL, END
from mediatore_env.club.rules import ClubRules
from mediatore_env.core.cards import ALL_CARDS


def check(session: Session) -> None:
    hands = session.hands
    parts = [*hands, session.played, session.discards]
    if session.phase in (AUCTION, CALL):
        parts.append(session.widow)  # not taken yet
    union = 0
    for part in parts:
        assert not union & part, "a card in two places"
        union |= part
    assert union == ALL_CARDS or session.phase == END
    assert sum(session.chips) + session.pot == 0
    assert all(s >= 0 for s in session.stakes)
    # 4 antes, doubled by each matching since the pot was last empty (so never an odd chip)
    doublings, rest = divmod(session.pot, 4 * session.rules.ante)
    assert rest == 0 and doublings & (doublings - 1) == 0, session.stakes
    if session.phase == END:
        assert sum(session.chips) == 0 and session.pot == 0


def run(sessions: int, seed: int) -> int:
    """Play ``sessions`` random sessions, checking the invariants after every move; return the
    number of deals played."""
    rng = random.Random(seed)
    deals = 0
    for i in range(sessions):
        rules = ClubRules(ante=rng.choice((1, 5, 7)), deals=rng.choice((None, None, 1, 3)))
        session = Session(rules, dealer=rng.randrange(4), rng=np.random.default_rng(seed + i))
        while not session.is_over:
            legal = session.legal_moves()
            session.apply(rng.choice(legal))
            check(session)
        check(session)
        assert len(session.results) <= rules.max_deals
        assert sum(r.chips[s] for r in session.results for s in range(4)) == 0
        for s in range(4):  # per-deal chip changes add up to the session's
            assert sum(r.chips[s] for r in session.results) == session.chips[s]
        if rules.until_won:
            won = [r.won for r in session.results]
            assert won.count(True) <= 1 and (won[-1] or len(won) == rules.max_deals)
        deals += len(session.results)
    return deals


def test_random_sessions():
    assert run(2000, seed=1) > 2000


@pytest.mark.slow
def test_random_sessions_many():
    assert run(20000, seed=2) > 20000
