"""Random simulation of Tressette games of every form and switch, with the rules' invariants
checked at every step. What every game owes the interface (is_legal on every id, refusals,
clones, the JSON round trip, records that replay, zero-sum outcomes, observations) is checked
for every registered game by tests/test_universal.py; this file holds what is Tressette's own.

At every step: the 40 cards are conserved (hands, cards played, the dead hand, the stock); the
legal moves are the cards of the suit led when the player holds some, else all its cards (and
the claim with the ``claim`` switch); hand sizes follow the tricks. At the end of a game: the
totals and the moment the game ended are recomputed here from the tricks and melds, event by
event (docs/rules.md 10.1: each trick, each meld, 31 ends the game at once); each complete hand
of the four- and two-handed games scores 11 card points; the declarations go from the first
trick's winner, then the others from the seat after the dealer; the two-handed draws go winner
first, from the top of the stock; the outcome is the spec's.

The default run plays 250 games of each form (switches mixed); ``-m slow`` plays 4000 of each.
"""

from __future__ import annotations

import random

import pytest

from mediatore_env.tressette import CLAIM, FORMS, TARGET, TressetteGame, melds_of, random_pack

ALL = (1 << 40) - 1
THIRDS_BY_POWER = (0, 0, 0, 0, 1, 1, 1, 3, 1, 1)  # docs/rules.md 1: 4-7 none, A 3, others 1


def thirds(cards):
    return sum(THIRDS_BY_POWER[c % 10] for c in cards)


def side(rules, seat):
    return seat % 2 if rules.players == 4 else seat


def choose(rng, game):
    """Random legal cards; a claim now and then (mostly false), and often once the side has 31."""
    moves = game.legal_moves()
    if moves[-1] == CLAIM:
        ours = game.totals[game.side_of(game.to_move)]
        if rng.random() < (0.5 if ours >= TARGET else 0.01):
            return CLAIM
        moves = moves[:-1]
    return rng.choice(moves)


def check_step(game):
    rules = game.rules
    log = game.log[-1]
    played = 0
    for t in log.tricks:
        for c in t.cards:
            played |= 1 << c
    for c in game.trick:
        played |= 1 << c
    stock = 0
    for c in game.stock:
        stock |= 1 << c
    parts = [*game.hands, played, log.dead, stock]
    assert sum(p.bit_count() for p in parts) == 40
    union = 0
    for p in parts:
        union |= p
    assert union == ALL
    if rules.players != 2 and game.leader is not None:
        done = len(log.tricks)
        for seat, hand in enumerate(game.hands):
            in_trick = (seat - game.leader) % rules.players < len(game.trick)
            assert hand.bit_count() == 10 - done - in_trick
    if game.to_move is not None and not game.needs_pack:
        hand = game.hands[game.to_move]
        cards = [c for c in range(40) if hand >> c & 1]
        if game.trick and any(c // 10 == game.trick[0] // 10 for c in cards):
            cards = [c for c in cards if c // 10 == game.trick[0] // 10]
        assert game.legal_moves() == cards + ([CLAIM] if rules.claim else [])


def replay_scores(game):
    """The totals recomputed from the log, event by event, and whether 31 was first reached at
    the game's very last event (the checks of docs/rules.md 10.1's "Game")."""
    rules = game.rules
    n_sides = 2 if rules.players in (4, 2) else 3
    totals = [0] * n_sides
    first_to_31 = None
    last_event_crossed = False
    for h, log in enumerate(game.log):
        before = totals[:]
        meld_pts, thirds_won, last = [0] * n_sides, [0] * n_sides, [0] * n_sides
        events = []
        for k, trick in enumerate(log.tricks):
            events.append(("trick", trick))
            if k == 0:
                events += [("meld", d) for d in log.melds]
        for kind, what in events:
            if kind == "trick":
                s = side(rules, what.winner)
                thirds_won[s] += thirds(what.cards)
                if len(log.tricks) == rules.num_tricks and what is log.tricks[-1]:
                    last[s] = 1
            else:
                s = side(rules, what.seat)
                meld_pts[s] += what.meld.points
            old = totals[s]
            totals[s] = before[s] + meld_pts[s] + thirds_won[s] // 3 + last[s]
            crossed = old < TARGET <= totals[s] and all(
                t < TARGET for i, t in enumerate(totals) if i != s)
            if first_to_31 is None and totals[s] >= TARGET:
                first_to_31 = s
            last_event_crossed = crossed
        if len(log.tricks) == rules.num_tricks and rules.players in (4, 2):
            card_points = [thirds_won[s] // 3 + last[s] for s in range(n_sides)]
            assert sum(card_points) == 11, "a hand's card points add up to 11"
        assert log.points(rules) == [meld_pts[s] + thirds_won[s] // 3 + last[s]
                                     for s in range(n_sides)]
    return totals, first_to_31, last_event_crossed


def check_log(game):
    rules = game.rules
    for log in game.log:
        if log.tricks:
            # The winner of the first trick, then the others from the seat after the dealer.
            winner = log.tricks[0].winner
            after_dealer = [(log.dealer + k) % rules.players for k in range(1, rules.players + 1)]
            order = [winner] + [seat for seat in after_dealer if seat != winner]
            expected = [(seat, m) for seat in order for m in melds_of(log.dealt[seat])]
            assert [tuple(d) for d in log.melds] == expected[:len(log.melds)]
            if log is not game.log[-1] or not game.is_over:
                assert len(log.melds) == len(expected)
        if rules.players == 2:
            for k, d in enumerate(log.draws):
                trick = log.tricks[k // 2]
                assert d.seat == (trick.winner if k % 2 == 0 else 1 - trick.winner)
                assert d.card == log.stock[k]


def check_outcome(game, first_to_31, last_event_crossed):
    rules, out, totals = game.rules, game.outcome, game.totals
    if rules.players == 4:
        assert out[0] == out[2] and out[1] == out[3] and sorted(out) == [-1, -1, 1, 1]
    elif rules.players == 2:
        assert sorted(out) == [-1, 1]
    else:
        assert sorted(out) in ([-1, -1, 2], [-2, 1, 1])
    reason = game.end_reason
    if reason == "false_claim":
        assert totals[game.side_of(game.claimant)] < TARGET
        assert out[game.claimant] < 0
        return
    if reason == "target":
        assert not rules.claim and last_event_crossed and game.ender == first_to_31
    elif reason == "claim":
        assert rules.claim and totals[game.side_of(game.claimant)] >= TARGET
        assert game.ender == game.side_of(game.claimant)
    else:
        assert reason == "hand_end" and rules.claim and game.ender == first_to_31
        assert len(game.log[-1].tricks) == rules.num_tricks
    winners = {side(rules, s) for s in range(rules.players) if out[s] > 0}
    if not rules.low:
        assert winners == {game.ender}
    else:
        lowest = min(totals)
        assert all(totals[w] == lowest for w in winners)
        if len([t for t in totals if t == lowest]) == 1:
            assert len(winners) == 1


def run_games(form, count, seed):
    rng = random.Random(seed)
    base = FORMS[form]
    variants = [{}, {"low": True}, {"claim": True}, {"low": True, "claim": True}]
    if base.players == 2:
        variants += [{"show_draws": False}]
    reasons = set()
    for g in range(count):
        rules = base.replace(**variants[g % len(variants)])
        game = TressetteGame(rules, dealer=rng.randrange(rules.players))
        while not game.is_over:
            if game.needs_pack:
                game.deal(random_pack(rng))
                continue
            check_step(game)
            game.apply(choose(rng, game))
        totals, first_to_31, crossed = replay_scores(game)
        assert totals == game.totals
        check_log(game)
        check_outcome(game, first_to_31, crossed)
        reasons.add(game.end_reason)
    return reasons


@pytest.mark.parametrize("form", ["tressette", "tressette3", "tressette2"])
def test_random_games(form):
    reasons = run_games(form, 250, seed=len(form))
    assert reasons == {"target", "claim", "false_claim", "hand_end"}


@pytest.mark.slow
@pytest.mark.parametrize("form", ["tressette", "tressette3", "tressette2"])
def test_many_random_games(form):
    run_games(form, 4000, seed=12345)
