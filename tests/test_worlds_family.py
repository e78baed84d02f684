"""The Tressette and club world samplers (tressette/worlds.py, club/worlds.py): every pack they
draw gives the seat the very view it has, and late in a hand every world that fits turns up
about equally often (chi-square against a brute-force count written here, not the samplers'
own counting)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from mediatore_env.club.game import Session
from mediatore_env.club.observation import write_observation as club_observation
from mediatore_env.club.rules import ClubRules
from mediatore_env.club.worlds import DealSampler
from mediatore_env.core.cards import SUIT_MASKS, bit, cards_of, suit_of
from mediatore_env.tressette.game import TressetteGame
from mediatore_env.tressette.melds import melds_of
from mediatore_env.tressette.observation import write_observation as tressette_observation
from mediatore_env.tressette.rules import TressetteRules
from mediatore_env.tressette.worlds import HandSampler

TRESSETTE_RULES = [TressetteRules(players=4), TressetteRules(players=3),
                   TressetteRules(players=2), TressetteRules(players=2, show_draws=False),
                   TressetteRules(players=3, low=True, claim=True)]


def played_to(game, rng, moves: int):
    """``game`` after up to ``moves`` random moves, packs from ``rng`` as needed, stopped
    where a hand is in play (or the game is over)."""
    while not game.is_over and (moves > 0 or game.needs_pack):
        if game.needs_pack:
            game.deal(rng.sample(range(40), 40))
        else:
            game.apply(rng.choice(game.legal_moves()))
            moves -= 1
    return game


def rebuilt(game, pack, moves, deals_made):
    """The game with its earlier packs and moves, then ``pack`` and ``moves`` for the current
    one: what a resampled state is. ``deals_made(game)`` counts the deals finished."""
    other = type(game)(game.rules, game.first_dealer)
    history = [move for _, move in game.history]
    i = 0
    for pack_before in game.packs[:-1]:
        other.deal(pack_before)
        done = deals_made(other)
        while deals_made(other) == done:
            other.apply(history[i])
            i += 1
    other.deal(pack)
    for move in moves:
        other.apply(move)
    return other


@pytest.mark.parametrize("rules", TRESSETTE_RULES, ids=lambda r: f"{r.form}-{r.to_dict()}")
def test_tressette_worlds_fit_the_seats_view(rules):
    rng = random.Random(rules.players * 10 + rules.show_draws)
    for trial in range(12):
        game = played_to(TressetteGame(rules, rng.randrange(rules.players)), rng,
                         rng.randrange(1, 120))
        seat = rng.randrange(rules.players)
        sampler = HandSampler(game.view(seat))
        for _ in range(2):
            pack, moves = sampler.sample(rng)
            other = rebuilt(game, pack, moves, lambda g: len(g.log) - g.needs_pack)
            mine, theirs = game.view(seat), other.view(seat)
            assert theirs.hands_played == mine.hands_played
            assert (theirs.hand, theirs.dealt, theirs.totals) == (mine.hand, mine.dealt,
                                                                  mine.totals)
            assert (tressette_observation(theirs) == tressette_observation(mine)).all()


def test_club_worlds_fit_the_seats_view():
    rng = random.Random(7)
    for trial in range(60):
        session = played_to(Session(ClubRules(deals=rng.choice([None, 3])), rng.randrange(4)),
                            rng, rng.randrange(1, 100))
        seat = rng.randrange(4)
        sampler = DealSampler(session.view(seat))
        for _ in range(2):
            pack, moves = sampler.sample(rng)
            other = rebuilt(session, pack, moves, lambda s: len(s.results))
            mine, theirs = session.view(seat), other.view(seat)
            assert (theirs.hand, theirs.partner, theirs.alone, theirs.discards) == (
                mine.hand, mine.partner, mine.alone, mine.discards)
            assert (club_observation(theirs) == club_observation(mine)).all()


def test_a_pack_is_needed_first():
    game = TressetteGame(TressetteRules(players=2))
    with pytest.raises(ValueError, match="no hand is in play"):
        HandSampler(game.view(0))
    with pytest.raises(ValueError, match="no deal is in play"):
        DealSampler(Session().view(0))


def test_the_samplers_examples():
    import doctest

    import mediatore_env.club.worlds
    import mediatore_env.tressette.worlds
    for module in (mediatore_env.tressette.worlds, mediatore_env.club.worlds):
        assert doctest.testmod(module).failed == 0


def placements(cards, sizes):
    """Every way to share ``cards`` among places of ``sizes``: tuples of bitsets."""
    if not sizes:
        yield ()
        return
    for chosen in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in chosen]
        for tail in placements(rest, sizes[1:]):
            yield (sum(bit(c) for c in chosen), *tail)


def chi_square_is_uniform(counts: Counter, support: set, draws: int) -> None:
    assert set(counts) <= support, "a world that does not fit was drawn"
    assert set(counts) == support, "a world that fits was never drawn"
    expected = draws / len(support)
    chi2 = sum((counts[w] - expected) ** 2 / expected for w in support)
    dof = len(support) - 1
    assert chi2 < dof + 5 * (2 * dof) ** 0.5, (chi2, dof)


def test_tressette_late_in_a_hand_every_world_equally_often():
    """Four-handed, eight tricks played: every way to share the unseen cards among the
    other three hands that respects their voids and melds, counted here by brute force."""
    rng = random.Random(11)
    for _ in range(50):  # a hand with some voids shown, so that the facts bite
        game = TressetteGame(TressetteRules(players=4), 0)
        game.deal(rng.sample(range(40), 40))
        for _ in range(32):
            game.apply(rng.choice(game.legal_moves()))
        if not game.is_over and sum(1 for t in game.log[-1].tricks
                                    for c in t.cards if suit_of(c) != suit_of(t.cards[0])) >= 2:
            break
    seat = 0
    view = game.view(seat)
    played_by = [0] * 4
    voids = [0] * 4
    for t in view.tricks:
        for i, c in enumerate(t.cards):
            s = (t.leader + i) % 4
            played_by[s] |= bit(c)
            if suit_of(c) != suit_of(t.cards[0]):
                voids[s] |= SUIT_MASKS[suit_of(t.cards[0])]
    unseen = cards_of(sum(game.hands) & ~view.hand)
    support = set()
    for shares in placements(unseen, [2, 2, 2]):
        hands = [view.hand, *shares]
        if any(hands[s] & voids[s] for s in (1, 2, 3)):
            continue
        if any(melds_of(hands[s] | played_by[s]) != [d.meld for d in view.melds if d.seat == s]
               for s in (1, 2, 3)):
            continue
        support.add(tuple(hands))
    sampler = HandSampler(view)
    draws = 40 * len(support)
    counts = Counter()
    for _ in range(draws):
        where = sampler.sample_world(rng)
        counts[tuple(where[s] & ~played_by[s] if s != seat else view.hand
                     for s in range(4))] += 1
    chi_square_is_uniform(counts, support, draws)


def test_club_late_in_a_deal_every_world_equally_often():
    """Eight tricks played with a partner not yet shown: every placement of the unseen cards
    among the other hands and the discards that respects the voids and the call."""
    rng = random.Random(12)
    while True:
        session = Session(ClubRules(), 3)
        session.deal(rng.sample(range(40), 40))
        session.apply(1)  # seat 0 accepts and names a card another seat holds
        called = next(c for c in range(40) if session.hands[2] >> c & 1)
        session.apply(3 + called)
        for c in cards_of(session.hands[0])[:4]:
            session.apply(43 + c)
        for _ in range(32):
            moves = session.legal_moves()
            session.apply(rng.choice([m for m in moves if m != 83 + called] or moves))
        if not session.played >> called & 1:
            break
    seat = 1  # neither the mediator nor the partner
    view = session.view(seat)
    voids = [0] * 4
    for t in view.tricks:
        for i, c in enumerate(t.cards):
            if suit_of(c) != suit_of(t.cards[0]):
                voids[(t.leader + i) % 4] |= SUIT_MASKS[suit_of(t.cards[0])]
    unseen = cards_of(sum(session.hands) & ~view.hand | session.discards)
    places = (0, 2, 3, 4)
    support = set()
    for shares in placements(unseen, [1, 1, 1, 4]):  # a card in each hand; four discards
        where = [0] * 5
        for place, share in zip(places, shares):
            where[place] = share
        if any(where[s] & voids[s] for s in (0, 2, 3)):
            continue
        if not (where[2] | where[3]) >> called & 1:
            continue
        support.add(tuple(where[p] for p in places))
    sampler = DealSampler(view)
    assert sampler.count() == len(support)
    draws = 40 * len(support)
    counts = Counter(tuple(w[p] for p in places) for w in
                     (sampler.sample_world(rng) for _ in range(draws)))
    chi_square_is_uniform(counts, support, draws)
