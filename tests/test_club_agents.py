"""Club Mediatore agents: legal moves in every phase, the greedy agent's choices on hands made
for them, the duplicate tournament's arithmetic, and greedy beating random."""

from __future__ import annotations

import numpy as np
import pytest

from agents.base import play
from agents.club import ClubGreedyAgent, ClubRandomAgent, make_club_agent
from agents.club.greedy import ChiamoView
from agents.club.tournament import HOOKS, run_club_tournament
from mediatore_env.club.game import Session
from mediatore_env.club.moves import ACCEPT, ALONE, AUCTION, CALL_BASE, DISCARD, PASS, parse_move
from mediatore_env.club.rules import ClubRules
from mediatore_env.club import club_mediatore_v0
from mediatore_env.mediatore.rules import CHIAMO, SOLO
from tests.test_club_game import STRONG, WEAK


def test_agents_play_only_legal_moves_in_many_sessions():
    lineups = [[ClubGreedyAgent(), ClubRandomAgent(), ClubGreedyAgent(), ClubRandomAgent()],
               [ClubGreedyAgent()] * 4, [ClubRandomAgent(accept_rate=0.2)] * 4]
    deals = 0
    for i in range(60):
        session = Session(ClubRules(deals=None if i % 3 else 3), dealer=i % 4,
                          rng=np.random.default_rng(i))
        play(session, lineups[i % 3], seeds=[i, i + 1, i + 2, i + 3])  # raises if illegal
        assert session.is_over and sum(session.chips) == 0
        deals += len(session.results)
    assert deals > 60


def test_agents_act_from_the_seats_view_alone():
    """Given views that refuse every private name (no way to the session behind them), the
    agents still play whole sessions, and choose exactly as with the plain views."""
    from tests.test_tressette_agents import Sealed
    for i in range(12):
        packs = [HOOKS.pack(3, i, j) for j in range(20)]
        plain, sealed = ([ClubGreedyAgent(), ClubRandomAgent(accept_rate=0.3)] * 2 for _ in "ab")
        one = play(Session(ClubRules(), i % 4, packs), plain, seeds=[i] * 4)
        two = play(Session(ClubRules(), i % 4, packs), [Sealed(a) for a in sealed],
                   seeds=[i] * 4)
        assert two.is_over and two.chips == one.chips and two.history == one.history


def test_greedy_accepts_a_strong_hand_plays_it_alone_and_passes_a_weak_one():
    greedy = ClubGreedyAgent()
    strong = Session(ClubRules(), dealer=3, packs=[STRONG])
    assert greedy.act(None, strong.view(0)) == ACCEPT
    strong.apply(ACCEPT)
    assert greedy.act(None, strong.view(0)) == ALONE  # nine sure tricks: the whole pot
    weak = Session(ClubRules(), dealer=3, packs=[WEAK])
    assert greedy.act(None, weak.view(0)) == PASS


def test_greedy_calls_a_card_it_lacks_and_discards_what_it_can_spare():
    # Dealer 3: seats 0 and 1 pass, seat 2 accepts with WEAK's third hand.
    session = Session(ClubRules(), dealer=3, packs=[WEAK])
    session.apply(PASS)
    session.apply(PASS)
    session.apply(ACCEPT)  # seat 2: DF DC DR D3 D2 DA B4 B5 B6
    greedy = ClubGreedyAgent()
    with_partner, alone = greedy.gains(session.view(2))
    move = greedy.act(None, session.view(2))
    assert with_partner > alone and move >= CALL_BASE
    assert not session.hands[2] >> (move - CALL_BASE) & 1
    session.apply(move)
    seen = ChiamoView(session.view(2))
    assert seen.contract == CHIAMO and seen.declarer == 2 and seen.monte_seen == session.widow
    discards = []
    while session.phase == DISCARD:
        m = greedy.act(None, session.view(2))
        discards.append(m)
        session.apply(m)
    assert len(discards) == 4 and session.hands[2] >> 9 & 1  # it keeps the D3


def test_announced_alone_reads_as_solo_to_the_greedy_policies():
    session = Session(ClubRules(), dealer=3, packs=[STRONG])
    session.apply(ACCEPT)
    session.apply(ALONE)
    assert ChiamoView(session.view(1)).contract == SOLO and ChiamoView(session.view(0)).monte_seen


def test_greedy_drives_the_environment():
    env = club_mediatore_v0.env()
    env.reset(seed=3)
    players = {a: ClubGreedyAgent() for a in env.agents}
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else
                 players[agent].act(obs, env.unwrapped.view(agent)))
    assert env.unwrapped.session.is_over


def test_identical_agents_break_even_and_sessions_share_packs():
    result = run_club_tournament(["greedy"] * 4, sessions=6, seed=1)
    assert result.standings[0].mean == 0.0
    assert list(result.standings[0].per_deal) == [0.0] * 6
    assert result.totals["deals"] >= 6 * 4 and result.plays == 6 * 4


def test_a_tournament_records_replayable_sessions_and_is_the_same_in_two_processes():
    one = run_club_tournament(["greedy", "random", "greedy", "random"], sessions=8, seed=4,
                              record_sessions=[2])
    two = run_club_tournament(["greedy", "random", "greedy", "random"], sessions=8, seed=4, jobs=2)
    assert [s.per_deal for s in one.standings] == [s.per_deal for s in two.standings]
    assert (one.executor, two.executor) == ("serial", "processes")
    assert two.to_dict()["executor"] == "processes" and "with 2 jobs" in two.report()
    from mediatore_env.club.records import replay
    assert len(one.records) == 4 and all(replay(r).is_over for r in one.records)


def test_greedy_beats_random():
    result = run_club_tournament(["greedy", "random", "greedy", "random"], sessions=80, seed=7)
    greedy = result.standing("greedy")
    assert greedy.ci[0] > 0, result.report()


def test_bad_agent_specs_say_what_is_known():
    with pytest.raises(ValueError, match="known agents: random, greedy, pimc"):
        make_club_agent("solver")
    with pytest.raises(ValueError, match="accept_rate"):
        make_club_agent("random:accept_rate=2")
    with pytest.raises(ValueError, match="4 agents"):
        run_club_tournament(["greedy"], sessions=1)
    assert make_club_agent("greedy:margin=0.2").margin == 0.2
    assert parse_move("accept") == ACCEPT


class _Overbidder(ClubRandomAgent):
    """Plays 'alone' where only 'pass' and 'accept' are legal."""

    def act(self, observation, view):
        assert observation["action_mask"][ACCEPT] == 1  # it asked for observations and got them
        return ALONE


def test_an_illegal_agent_move_names_the_agent_and_changes_nothing():
    agent = _Overbidder()
    agent.name, agent.wants_observation = "overbidder", True
    session = Session(ClubRules(), dealer=3, packs=[STRONG])
    with pytest.raises(ValueError, match=r"agent 'overbidder' \(_Overbidder\) at seat 0: illegal "
                                         r"move 'alone' .*legal: pass \(0\), accept \(1\)"):
        play(session, [agent, ClubRandomAgent(), ClubRandomAgent(), ClubRandomAgent()])
    assert session.history == [] and session.phase == AUCTION
    with pytest.raises(ValueError, match="this game needs 4 agents, one per seat; got 1"):
        play(session, [agent])
