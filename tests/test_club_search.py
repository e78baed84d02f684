"""The club Mediatore PIMC agent (agents/club/pimc.py): legal moves only, from sealed views;
the same choices from the same seed with time_limit=None; greedy's choices outside the card
play; the value it scores a deal by; its options and its name in the registry."""

import numpy as np
import pytest

from agents.base import play
from agents.club import CLUB_AGENTS, ClubGreedyAgent, ClubPimcAgent, make_club_agent
from agents.club.pimc import deal_value, roll_out
from agents.club.tournament import session_packs
from mediatore_env.club.game import Session
from mediatore_env.club.moves import PLAY
from mediatore_env.club.rules import ClubRules
from tests.test_tressette_agents import Sealed


def _pimc():
    return ClubPimcAgent(time_limit=None, max_worlds=2)


def test_pimc_plays_whole_sessions_legally_from_sealed_views():
    deals = 0
    for i in range(4):
        lineup = [Sealed(_pimc() if (s + i) % 2 else ClubGreedyAgent()) for s in range(4)]
        session = play(Session(ClubRules(deals=3), i % 4, rng=np.random.default_rng(i)),
                       lineup, seeds=range(4))  # play refuses any illegal move
        assert session.is_over and sum(session.chips) == 0
        deals += sum(not r.passed for r in session.results)
    assert deals >= 4


def test_pimc_with_no_time_limit_repeats_its_session_from_its_seeds():
    def history(seed):
        lineup = [_pimc(), ClubGreedyAgent(), ClubGreedyAgent(), ClubGreedyAgent()]
        return play(Session(ClubRules(deals=3), 0, session_packs(5, 0, 3)), lineup,
                    seeds=[seed, None, None, None]).history

    assert history(3) == history(3)


def test_pimc_decides_all_but_the_card_play_as_greedy_does():
    pimc, greedy = _pimc(), ClubGreedyAgent()
    compared = 0
    for i in range(6):
        session = Session(ClubRules(deals=2), i % 4, session_packs(6, i, 4))
        while not session.is_over:
            view = session.view(session.to_move)
            move = greedy.act(None, view)
            if view.phase != PLAY:
                assert pimc.act(None, view) == move
                compared += 1
            session.apply(move)
    assert compared >= 20


def test_a_deal_is_worth_the_same_to_partners_and_the_opposite_to_their_foes():
    greedy = ClubGreedyAgent()
    played = 0
    for i in range(8):
        session = Session(ClubRules(deals=1), i % 4, session_packs(7, i, 2))
        roll_out(session, greedy)
        result = session.results[-1]
        if result.passed:
            continue
        side = {result.mediator, result.partner} - {None}
        values = [deal_value(session, seat) for seat in range(4)]
        sign = 1 if result.won else -1
        for seat in range(4):
            assert (values[seat] > 0) == ((seat in side) == result.won)
            assert abs(values[seat]) > 0.5  # winning the deal outweighs any margin
        foe = next(s for s in range(4) if s not in side)
        assert values[result.mediator] == -values[foe]
        assert sign * values[result.mediator] > 0
        played += 1
    assert played >= 3


def test_registry_and_bad_options():
    assert set(CLUB_AGENTS) == {"random", "greedy", "pimc", "openspiel-ismcts"}
    assert make_club_agent("pimc:time_limit=0.05").time_limit == 0.05
    with pytest.raises(ValueError, match="time_limit must be a positive number.*or None"):
        ClubPimcAgent(time_limit=-1)
    with pytest.raises(ValueError, match="max_worlds must be at least 1, got 4 and 0"):
        ClubPimcAgent(max_worlds=0)
