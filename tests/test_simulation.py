"""Random simulation of Mediatore's rules: seeded deals under every preset, with the rules'
invariants checked at every step. What every game owes the interface (legal moves and
is_legal agreeing, refusals, clones, the JSON round trip, zero-sum results, observations) is
checked for every registered game by tests/test_universal.py; this file holds what is
Mediatore's own.

At every step: the 40 cards are conserved; hand sizes follow the tricks; the signals allowed
with each lead are those docs/rules.md 6 and 8.7 give the hand; each seat's view is never wrong
and hides what the seat may not know. At the end: nine tricks, the side scores sum to 11, and
the payoffs equal those of docs/rules.md 7's table (tests/schedule.py, written by hand),
recomputed here from the tricks without asking the engine; every record replays, and a
tampered record does not.

The auction policy is not uniform (a uniform one nearly always ends in Arcisolissimo): a seat
opens with probability 0.35, overbids with probability 0.2, and mostly bids just one step up.
In a third of the deals the declarer's side plays its highest cards and the defenders their
lowest, so that won contracts and capotti turn up too.
"""

import copy
import json
import random
from collections import Counter

import pytest
from schedule import CAPOTTO, LINES, expected, lost

from mediatore_env.core.cards import card_name
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.moves import AUCTION, DISCARD, END, GIVE, PLAY, PLAY_BASE
from mediatore_env.registry import replay
from mediatore_env.mediatore.rules import CHIAMO, MEDIATORE, PRESETS

ALL_CARDS = (1 << 40) - 1
# docs/rules.md 1, by rank letter
THIRDS = {"A": 3, "3": 1, "2": 1, "R": 1, "C": 1, "F": 1, "7": 0, "6": 0, "5": 0, "4": 0}
CONTRACT_LINES = {3: "solo", 4: "solissimo", 5: "arcisolissimo"}


def thirds(cards):
    return sum(THIRDS[card_name(c)[1]] for c in cards)


def bits(mask):
    return [c for c in range(40) if mask >> c & 1]


# -- the policy -------------------------------------------------------------------------------

def choose(rng, deal, biased):
    moves = deal.legal_moves()
    if deal.phase == AUCTION:
        p = 0.35 if deal.high_bid == 0 else 0.2
        if len(moves) == 1 or rng.random() > p:
            return 0
        return moves[1] if rng.random() < 0.75 else rng.choice(moves[1:])
    if deal.phase == PLAY and biased:
        strength = lambda m: (m - PLAY_BASE) % 40 % 10  # noqa: E731
        pick = max if deal.to_move in deal.declarer_side else min
        best = pick(strength(m) for m in moves)
        return rng.choice([m for m in moves if strength(m) == best])
    return rng.choice(moves)


# -- checks at every step ---------------------------------------------------------------------

def check_cards(deal):
    parts = list(deal.hands) + [deal.monte, deal.played]
    if deal.phase == DISCARD:
        parts.append(deal.discards)  # the new monte is only complete after four discards
    assert sum(p.bit_count() for p in parts) == 40
    union = 0
    for p in parts:
        union |= p
    assert union == ALL_CARDS
    in_tricks = 0
    for t in deal.tricks:
        for c in t.cards:
            in_tricks |= 1 << c
    for c in deal.trick:
        in_tricks |= 1 << c
    assert in_tricks == deal.played
    if deal.phase == PLAY:
        done = len(deal.tricks)
        in_trick = {(deal.leader + k) % 4 for k in range(len(deal.trick))}
        assert [h.bit_count() for h in deal.hands] == [9 - done - (s in in_trick) for s in range(4)]
        assert deal.monte.bit_count() == 4
    if deal.phase == GIVE:
        assert deal.hands[deal.declarer].bit_count() == 10
        assert deal.hands[deal.giver].bit_count() == 8


def lead_signals(deal, card):
    """The signals docs/rules.md 6 and 8.7 allow with ``card`` led, worked out from the hand."""
    hand = bits(deal.hands[deal.to_move])
    code = deal.rules.signals
    rest = [c for c in hand if c != card and c // 10 == card // 10]  # same suit, kept
    if code == "off":
        return {0}
    if code in ("standard", "no_striscio"):
        out = {0, 1}  # none, busso (a request)
        if not rest:
            out.add(2)  # volo: the last card of the suit
        if code == "standard" and any(card_name(c)[1] in "RCF7654" for c in rest):
            out.add(3)  # striscio: keeps a Re or lower
        return out
    played = {c for t in deal.tricks for c in t.cards} | {card}
    outstanding = sorted((c for c in range(40) if c // 10 == card // 10 and c not in played),
                         reverse=True)
    busso = len(outstanding) > 0 and outstanding[0] in rest
    ribusso = len(outstanding) > 1 and outstanding[1] in rest
    return {0, 5, 8} | ({1, 6} if busso else set()) | ({4, 7} if ribusso else set())


def check_signals(deal):
    legal = deal.legal_moves()
    if deal.phase == PLAY:
        signals = {}
        for m in legal:
            signal, card = divmod(m - PLAY_BASE, 40)
            signals.setdefault(card, set()).add(signal)
        if deal.trick:
            assert all(s == {0} for s in signals.values())
        else:
            for card, s in signals.items():
                assert s == lead_signals(deal, card), (card_name(card), s)


def check_views(deal):
    for seat in range(4):
        view = deal.view(seat)
        assert view.hand == deal.hands[seat]
        assert view.monte_seen in (0, deal.original_monte)
        assert view.partner in (None, deal.partner)
        if deal.contract is not None and deal.phase != AUCTION:
            assert view.alone in (None, deal.partner is None)
            if view.partner is not None:
                assert view.alone is False
        if deal.phase != END and seat != deal.declarer:
            assert view.discards == 0
        if seat not in (deal.declarer, deal.giver):
            assert view.given_back is None
        else:
            assert view.given_back == deal.given_back
        if deal.called_card is not None and deal.contract == CHIAMO and seat == deal.partner:
            assert view.partner == seat  # the partner knows at once
        if deal.contract is not None and deal.contract != CHIAMO:
            assert view.alone is True
        if (deal.contract == CHIAMO and deal.called_card is not None and deal.phase != END
                and deal.called_played_by is None and seat not in (deal.declarer, deal.partner)
                and holder_at_deal(deal, deal.called_card) != seat):
            # docs/rules.md 5: no one else knows whether there is a partner, or who, until the
            # called card is played -- unless variant 2 showed the card in the monte to all.
            shown = (deal.rules.monte_shown == "always" and deal.rules.chiamo_monte
                     and holder_at_deal(deal, deal.called_card) is None)
            assert (view.alone, view.partner) == ((True, None) if shown else (None, None))


# -- the end ----------------------------------------------------------------------------------

def holder_at_deal(deal, card):
    """Who was dealt ``card`` (None: the monte), from the pack and docs/rules.md 3."""
    i = deal.pack.index(card)
    return None if i >= 36 else (deal.dealer + 1 + i // 3) % 4


def check_result(deal, stats):
    auction = deal.auction
    if deal.contract is None:
        assert [b for _, b in auction] == [0, 0, 0, 0] and deal.payoffs == (0, 0, 0, 0)
        stats["thrown in"] += 1
        return
    # The auction: the last bid wins once three passes follow it.
    last = max(i for i, (_, b) in enumerate(auction) if b)
    assert len(auction) == last + 4 and all(b == 0 for _, b in auction[last + 1:])
    declarer, contract = auction[last]
    assert (deal.declarer, deal.contract) == (declarer, contract)
    bids = [b for _, b in auction if b]
    assert bids == sorted(set(bids))  # strictly increasing
    # Partner and giver from the deal itself.
    partner = giver = None
    if contract in (CHIAMO, MEDIATORE):
        holder = holder_at_deal(deal, deal.called_card)
        if holder not in (None, declarer):
            partner, giver = (holder, None) if contract == CHIAMO else (None, holder)
    assert (deal.partner, deal.giver) == (partner, giver)
    # Nine tricks, each won by the highest card of the suit led; thirds by seat.
    assert len(deal.tricks) == 9
    won_thirds, won_tricks = [0] * 4, [0] * 4
    leader = deal.tricks[0].leader
    for t in deal.tricks:
        assert t.leader == leader
        suit = t.cards[0] // 10
        best = max((c for c in t.cards if c // 10 == suit))
        winner = (leader + t.cards.index(best)) % 4
        assert t.winner == winner
        won_thirds[winner] += thirds(t.cards)
        won_tricks[winner] += 1
        leader = winner
    won_thirds[leader] += 3 + thirds(bits(deal.monte))  # last trick and the monte
    assert deal.thirds_won == won_thirds and deal.tricks_won == won_tricks
    side = {declarer, partner} - {None}
    ours = sum(won_thirds[s] for s in side)
    assert deal.side_thirds() == (ours, 35 - ours)
    assert sum(deal.side_scores()) == 11 and deal.side_scores() == (ours // 3, (35 - ours) // 3)
    won = ours >= 18
    capotto = sum(won_tricks[s] for s in side) in (0, 9)
    assert deal.declarer_won is won and deal.capotto is capotto
    # Payments: docs/rules.md 7, by hand in tests/schedule.py.
    if contract == CHIAMO:
        line = "chiamo partner" if partner is not None else "chiamo alone"
    elif contract == MEDIATORE:
        line = "mediatore giver" if giver is not None else "mediatore alone"
    else:
        line = CONTRACT_LINES[contract]
    schedule = deal.rules.schedule
    table = CAPOTTO if capotto and deal.rules.capotto_bonus else LINES
    pay = expected(table, schedule, line, declarer, partner, giver)
    assert deal.payoffs == (pay if won else lost(pay))
    allowed = {v for key, entry in list(LINES.items()) + list(CAPOTTO.items())
               if key[0] == schedule for v in entry if v is not None}
    assert all(abs(p) in allowed for p in deal.payoffs)
    stats[line] += 1
    stats["won" if won else "lost"] += 1
    if capotto:
        stats["capotto won" if won else "capotto lost"] += 1


def check_record(deal):
    """Tampered records of Mediatore are refused (tests/test_universal.py replays every game's
    record as it was written)."""
    record = json.loads(json.dumps(deal.record(seed="x")))
    bad = copy.deepcopy(record)
    bad["result"]["payoffs"][0] += 1
    bad["result"]["payoffs"][1] -= 1  # still zero-sum, but not this deal's
    with pytest.raises(ValueError, match="payoffs"):
        replay(bad)
    bad = copy.deepcopy(record)
    i = len(bad["moves"]) // 2
    bad["moves"][i]["seat"] = (bad["moves"][i]["seat"] + 1) % 4
    with pytest.raises(ValueError, match="seat"):
        replay(bad)


# -- the runs ---------------------------------------------------------------------------------

def run(rules, seed, stats, every_step=True):
    rng = random.Random(seed)
    deal = Deal(rules, seed % 4, rng.sample(range(40), 40))
    biased = rng.random() < 1 / 3
    started_play = False
    while not deal.is_over:
        if every_step:
            check_cards(deal)
            check_signals(deal)
            check_views(deal)
        if deal.phase == PLAY and not started_play:
            started_play = True
            assert [h.bit_count() for h in deal.hands] == [9, 9, 9, 9]
            assert deal.monte.bit_count() == 4 and not deal.trick and not deal.tricks
        move = choose(rng, deal, biased)
        if deal.phase == PLAY and not deal.trick and (move - PLAY_BASE) // 40:
            stats["signal %d" % ((move - PLAY_BASE) // 40)] += 1
        deal.apply(move)
    check_cards(deal)
    check_views(deal)
    check_result(deal, stats)
    check_record(deal)
    return deal


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_deals(preset):
    rules = PRESETS[preset]
    stats = Counter()
    for seed in range(200):
        run(rules, seed, stats)
    # The run must have exercised every contract and every payment line of this table.
    lines = {"chiamo partner", "chiamo alone", "mediatore giver", "mediatore alone", "solo",
             "solissimo"} | ({"arcisolissimo"} if rules.arcisolissimo else set())
    assert lines <= set(stats), stats
    assert stats["won"] and stats["lost"] and stats["thrown in"], stats
    assert stats["capotto won"] + stats["capotto lost"], stats
    signals = {"standard": {1, 2, 3}, "no_striscio": {1, 2}, "off": set(),
               "alternative": {1, 4, 5, 6, 7, 8}}[rules.signals]
    assert {int(k.split()[1]) for k in stats if k.startswith("signal")} == signals, stats


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
def test_many_random_deals(preset):
    rules = PRESETS[preset]
    stats = Counter()
    for seed in range(1000, 6000):
        run(rules, seed, stats, every_step=seed % 5 == 0)
    assert stats["capotto won"] and stats["capotto lost"], stats
