"""The club Mediatore PIMC agent (agents/club/pimc.py): legal moves only, from sealed views;
the same choices from the same seed with time_limit=None; its accept/pass and call searched in
chips, greedy's choices where it does not search; decisions blind to the cards the seat cannot
see; the values it scores a deal by; its options and its name in the registry."""

import random

import numpy as np
import pytest

from agents import agents_of
from agents.base import play
from agents.club import CLUB_AGENTS, ClubGreedyAgent, ClubPimcAgent, make_club_agent
from agents.club.pimc import chip_value, deal_value, roll_out
from agents.club.tournament import HOOKS
from mediatore_env.club.game import Session
from mediatore_env.club.moves import ACCEPT, ALONE, AUCTION, CALL, PASS, PLAY
from mediatore_env.club.rules import ClubRules
from mediatore_env.mediatore.nine_tricks import deal_order
from tests.test_club_game import STRONG, WEAK
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
        packs = [HOOKS.pack(5, 0, j) for j in range(3)]
        return play(Session(ClubRules(deals=3), 0, packs), lineup,
                    seeds=[seed, None, None, None]).history

    assert history(3) == history(3)


def _decisions(seed, sessions=6):
    """(view, greedy's move) at every decision of greedy sessions, the session left at it."""
    greedy = ClubGreedyAgent()
    for i in range(sessions):
        session = Session(ClubRules(deals=2), i % 4, [HOOKS.pack(seed, i, j) for j in range(4)])
        while not session.is_over:
            view = session.view(session.to_move)
            move = greedy.act(None, view)
            yield view, move
            session.apply(move)


@pytest.mark.parametrize("bidding, play, searched", [
    ("greedy", "search", {PLAY}), ("accept", "greedy", {AUCTION}), ("call", "greedy", {CALL}),
    ("search", "greedy", {AUCTION, CALL})])
def test_pimc_decides_as_greedy_does_wherever_it_is_told_not_to_search(bidding, play, searched):
    pimc = ClubPimcAgent(time_limit=None, max_worlds=2, bidding=bidding, play=play, seed=0)
    compared = 0
    for view, move in _decisions(6):
        if view.phase not in searched:
            assert pimc.act(None, view) == move
            compared += 1
    assert compared >= 20


def test_pimc_searches_accept_and_call_and_keeps_greedys_discards():
    """The discards are always greedy's; a call is alone or one of greedy's best calls, the
    first of them greedy's own; and the search does not always agree with greedy."""
    search = ClubPimcAgent(time_limit=None, max_worlds=4, seed=1)
    counts = {AUCTION: 0, CALL: 0, "changed": 0}
    for view, move in _decisions(8):
        if view.phase == PLAY:
            continue
        chosen = search.act(None, view)
        if view.phase == CALL:
            calls = search.best_calls(view)
            assert calls[0] == move or move == ALONE
            assert chosen == ALONE or chosen in calls
        if view.phase in counts:
            counts[view.phase] += 1
            counts["changed"] += chosen != move
        else:
            assert chosen == move
    assert counts[AUCTION] >= 10 and counts[CALL] >= 3 and counts["changed"] >= 1


def _chips(pimc, view, move, worlds=8):
    """``move``'s chips (chip_value) for ``view``'s seat in each of ``worlds`` sampled worlds,
    the rest of the deal played by greedy."""
    out, rng = [], random.Random(0)
    for _ in range(worlds):
        world = pimc.world(view, rng)
        world.apply(move)
        roll_out(world, pimc.greedy)
        out.append(chip_value(world, view.seat))
    return out


def test_the_search_accepts_nine_sure_tricks_and_plays_them_alone():
    """Worked out by hand: STRONG's seat 0 takes every trick, so accepting alone takes the
    whole pot of 20 after matching 20 (+15 chips after its ante); a partner would halve the
    gain (+5), unless the called card lies in the widow."""
    pimc = ClubPimcAgent(time_limit=None, max_worlds=16, seed=3)
    session = Session(ClubRules(), 3, [STRONG])
    assert pimc.act(None, session.view(0)) == ACCEPT
    session.apply(ACCEPT)
    view = session.view(0)
    assert _chips(pimc, view, ALONE) == [15] * 8
    for call in pimc.best_calls(view):
        assert set(_chips(pimc, view, call)) <= {5, 15}
    assert pimc.act(None, view) == ALONE


def test_in_the_sessions_last_deal_the_search_accepts_even_a_weak_hand():
    """Worked out by hand: in the last deal a pot that is not won goes back as it was put in,
    so the mediator risks nothing by accepting, while a pass lets another seat accept and take
    the seat's ante. Greedy does not read the rules and passes; the search accepts."""
    session = Session(ClubRules(deals=1), 3, [WEAK])
    view = session.view(0)
    assert ClubGreedyAgent().act(None, view) == PASS
    pimc = ClubPimcAgent(time_limit=None, max_worlds=16, seed=3)
    assert min(_chips(pimc, view, ACCEPT)) >= 0 >= max(_chips(pimc, view, PASS))
    assert pimc.act(None, view) == ACCEPT


def _hidden_shuffled(pack, dealer, seat, rng):
    """``pack`` with every card but ``seat``'s hand moved at random: a deal ``seat`` cannot
    tell from the real one."""
    mine = [i for i, s in enumerate(deal_order(dealer)) if s == seat]
    others = [i for i in range(40) if i not in mine]
    cards = [pack[i] for i in others]
    rng.shuffle(cards)
    out = list(pack)
    for i, card in zip(others, cards):
        out[i] = card
    return out


@pytest.mark.parametrize("case", range(6))
def test_bidding_decisions_do_not_depend_on_cards_the_seat_cannot_see(case):
    """Two deals that differ only in cards hidden from the deciding seat, the same public
    moves before: the same accept/pass and the same call with the same seed."""
    rng = random.Random(case)
    dealer, passes = case % 4, case % 3
    pack = HOOKS.pack(9, case, 0)
    seat = (dealer + 1 + passes) % 4
    twin = _hidden_shuffled(pack, dealer, seat, rng)
    views = []
    for p in (pack, twin):
        session = Session(ClubRules(), dealer, [p])
        for _ in range(passes):
            session.apply(PASS)
        views.append(session)
    decisions = []
    for session in views:
        pimc = ClubPimcAgent(time_limit=None, max_worlds=6, seed=case)
        accept = pimc.act(None, session.view(seat))
        session.apply(ACCEPT)  # the call too, whatever the search said
        decisions.append((accept, pimc.act(None, session.view(seat))))
    assert views[0].hands[seat] == views[1].hands[seat] and views[0].hands != views[1].hands
    assert decisions[0] == decisions[1]


def test_a_sampled_world_has_the_real_chips_pot_and_the_seats_own_view():
    """What a searched move is worth in chips is read in a world with the real session's public
    chips and pot: after a lost deal (a bigger pot, the chips moved), the world agrees."""
    pimc = ClubPimcAgent(time_limit=None, max_worlds=2, seed=0)
    session = Session(ClubRules(), 3, [WEAK, STRONG])
    session.apply(ACCEPT)  # seat 0 alone with nothing: it loses, and the pot stays
    session.apply(ALONE)
    roll_out(session, ClubGreedyAgent())
    assert not session.results[-1].won and session.pot == 40
    session.apply(PASS)
    view = session.view(session.to_move)
    world = pimc.world(view, random.Random(1))
    assert world.chips == session.chips and world.stakes == session.stakes
    seen = world.view(view.seat)
    assert (seen.hand, seen.pot, seen.phase, seen.to_move) == (view.hand, view.pot, view.phase,
                                                                view.to_move)


def test_chips_a_deal_leaves_are_zero_sum_and_worked_out_by_hand():
    """Seat 0 accepts STRONG (nine sure tricks) and plays alone: it matches the pot of 20 and
    takes 40, +15 after its ante; the others lose their antes and the session ends."""
    session = Session(ClubRules(), 3, [STRONG])
    session.apply(ACCEPT)
    session.apply(ALONE)
    roll_out(session, ClubGreedyAgent())
    assert [chip_value(session, s) for s in range(4)] == [15, -5, -5, -5]
    lost = Session(ClubRules(), 3, [WEAK])   # seat 0 alone with nothing: it loses 20 chips
    lost.apply(ACCEPT)                        # into a pot of 40 that stays, a quarter each
    lost.apply(ALONE)
    roll_out(lost, ClubGreedyAgent())
    assert not lost.results[-1].won and lost.pot == 40
    assert [chip_value(lost, s) for s in range(4)] == [-15, 5, 5, 5]


def test_a_deal_is_worth_the_same_to_partners_and_the_opposite_to_their_foes():
    greedy = ClubGreedyAgent()
    played = 0
    for i in range(8):
        session = Session(ClubRules(deals=1), i % 4, [HOOKS.pack(7, i, j) for j in range(2)])
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
    assert set(CLUB_AGENTS) == {"random", "greedy", "pimc", "selfplay"}
    assert set(agents_of("club")) == {"random", "greedy", "pimc", "selfplay", "openspiel-ismcts",
                                      "generic-random", "generic-greedy", "generic-pimc"}
    assert make_club_agent("pimc:time_limit=0.05").time_limit == 0.05
    assert make_club_agent("pimc:bidding=greedy").bidding == "greedy"
    with pytest.raises(ValueError, match="time_limit must be a positive number.*or None"):
        ClubPimcAgent(time_limit=-1)
    with pytest.raises(ValueError, match="max_worlds must be at least 1, got 4 and 0"):
        ClubPimcAgent(max_worlds=0)
    with pytest.raises(ValueError, match="bidding must be one of 'search', 'accept', 'call', "
                                         "'greedy', got 'x'"):
        ClubPimcAgent(bidding="x")
    with pytest.raises(ValueError, match="play must be one of 'search', 'greedy', got 'solver'"):
        make_club_agent("pimc:play=solver")
    with pytest.raises(ValueError, match="calls must be a whole number of cards, at least 1, "
                                         "got 0"):
        ClubPimcAgent(calls=0)
