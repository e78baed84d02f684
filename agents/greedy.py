"""GreedyAgent: a heuristic Mediatore player built from four swappable policies.

(Draft: the full description of the heuristics is written once they are tuned.)
"""

from __future__ import annotations

import math
from itertools import combinations

from mediatore_env.cards import ALL_CARDS, POINTS, SUIT_MASKS, cards_of
from mediatore_env.game import (AUCTION, CALL, CALL_BASE, DISCARD, DISCARD_BASE, GIVE, GIVE_BASE,
                                PASS, PLAY, PLAY_BASE, NUM_CARDS)
from mediatore_env.rules import (BUSSO, CHIAMO, CONTRACTS, MEDIATORE, NO_SIGNAL, SOLISSIMO, SOLO,
                                 ARCISOLISSIMO, VOLO, payments)

from .base import Agent

# -- hand evaluation ---------------------------------------------------------------------------

FEATURES = ("three", "two_top", "two", "two_single", "ace_top", "ace_half", "ace_long",
            "ace_short", "king_top", "courts", "long4", "long6", "void", "singleton")


def suit_features(pattern: int) -> tuple[int, ...]:
    """Features of the cards one hand holds in one suit (``pattern``: bit ``power`` set for
    each card held, power 9 = the 3, 8 = the 2, 7 = the Asso, 6 = the Re; see cards.py)."""
    n = pattern.bit_count()
    has3, has2, hasA, hasR = (pattern >> 9) & 1, (pattern >> 8) & 1, (pattern >> 7) & 1, (pattern >> 6) & 1
    return (
        has3,
        has2 & has3,
        has2 & (1 - has3) & (n >= 2),
        has2 & (1 - has3) & (n == 1),
        hasA & has3 & has2,
        hasA & (has3 ^ has2),
        hasA & (1 - has3) & (1 - has2) & (n >= 3),
        hasA & (1 - has3) & (1 - has2) & (n <= 2),
        hasR & hasA & has3 & has2,
        ((pattern >> 4) & 7).bit_count(),
        max(0, n - 3),
        max(0, n - 5),
        int(n == 0),
        int(n == 1),
    )


_SUIT_FEATURES = tuple(suit_features(p) for p in range(1024))


def hand_features(hand: int) -> list[int]:
    """The features of a hand: the sum over its four suits of :func:`suit_features`."""
    f = [0] * len(FEATURES)
    for s in range(4):
        for i, x in enumerate(_SUIT_FEATURES[(hand >> (10 * s)) & 1023]):
            f[i] += x
    return f


class LinearEvaluation:
    """A score of a hand that is a sum over its suits: ``bias + sum(weights * features)``.

    Precomputes the score of every suit pattern, so scoring a hand is four table look-ups.
    """

    def __init__(self, weights: dict[str, float], bias: float = 0.0):
        unknown = set(weights) - set(FEATURES)
        if unknown:
            raise ValueError(f"unknown features {sorted(unknown)}; valid: {', '.join(FEATURES)}")
        self.weights = dict(weights)
        self.bias = bias
        w = [weights.get(name, 0.0) for name in FEATURES]
        self._table = tuple(sum(a * b for a, b in zip(w, feats)) for feats in _SUIT_FEATURES)

    def __call__(self, hand: int) -> float:
        t = self._table
        return (self.bias + t[hand & 1023] + t[(hand >> 10) & 1023] + t[(hand >> 20) & 1023]
                + t[(hand >> 30) & 1023])


# Strength: the thirds a hand of 9 cards is expected to take playing alone against three
# (no monte). Initial guess; replaced by the calibrated one.
STRENGTH = LinearEvaluation({
    "three": 2.5, "two_top": 2.0, "two": 1.0, "ace_top": 4.0, "ace_half": 2.0, "ace_long": 1.0,
    "king_top": 1.0, "courts": 0.4, "long4": 1.0, "void": 0.5}, bias=2.0)


# -- what a seat can deduce ------------------------------------------------------------------

def _higher(card: int) -> int:
    """Cards of ``card``'s suit that beat it."""
    return SUIT_MASKS[card // 10] & ~((2 << card) - 1)


HIGHER = tuple(_higher(c) for c in range(NUM_CARDS))
FRIEND, FOE, UNKNOWN = 1, -1, 0


class Situation:
    """What the seat to move knows and deduces, computed once per decision from its view.

    - ``possible[s]``: cards seat ``s`` may hold (not in my hand, not played, not known to be
      in the monte or elsewhere, not in a suit ``s`` has shown void in);
    - ``outstanding``: cards any other seat may hold;
    - ``team[s]``: FRIEND, FOE or UNKNOWN (Chiamo before the called card shows).
    """

    def __init__(self, view):
        self.view = view
        me = self.me = view.seat
        hand = self.hand = view.hand
        played = self.played = view.played
        contract = self.contract = view.contract
        declarer = self.declarer = view.declarer
        self.trick = view.trick
        self.leader = view.leader
        self.tricks = view.tricks
        void = [0, 0, 0, 0]
        for t in self.tricks:
            suit_mask = SUIT_MASKS[t.cards[0] // 10]
            for i in (1, 2, 3):
                if not (1 << t.cards[i]) & suit_mask:
                    void[(t.leader + i) % 4] |= suit_mask
        trick = self.trick
        if trick:
            suit_mask = SUIT_MASKS[trick[0] // 10]
            for i in range(1, len(trick)):
                if not (1 << trick[i]) & suit_mask:
                    void[(self.leader + i) % 4] |= suit_mask
        self.void = void
        hidden = ALL_CARDS & ~hand & ~played
        if me == declarer:
            hidden &= ~view.discards
            if contract == SOLISSIMO:
                hidden &= ~view.monte_seen  # seen, then put back: it is not in play
        possible = [hidden & ~void[s] for s in range(4)]
        possible[me] = hand
        # Known places: the monte shown in Mediatore and Solo went to the declarer (hand or
        # discards), the called card of Mediatore is in the declarer's hand, the card passed
        # back is in the giver's hand.
        if contract is not None:
            seen = view.monte_seen & hidden
            if seen and contract in (MEDIATORE, SOLO):
                for s in range(4):
                    if s != declarer and s != me:
                        possible[s] &= ~seen
            called = view.called_card
            if contract == MEDIATORE and called is not None and not played >> called & 1:
                self._place(possible, called, declarer)
            back = view.given_back
            if back is not None and not played >> back & 1 and view.giver != me:
                self._place(possible, back, view.giver)
            if contract == CHIAMO and called is not None and not played >> called & 1:
                partner = view.partner
                if partner is not None and partner != me:
                    self._place(possible, called, partner)
        self.possible = possible
        out = 0
        for s in range(4):
            if s != me:
                out |= possible[s]
        self.outstanding = out
        self.team = self._teams()

    def _place(self, possible, card, seat):
        bit = 1 << card
        for s in range(4):
            if s != self.me:
                possible[s] &= ~bit
        if seat != self.me:
            possible[seat] |= bit

    def _teams(self) -> list[int]:
        me, declarer, contract, view = self.me, self.declarer, self.contract, self.view
        team = [UNKNOWN] * 4
        team[me] = FRIEND
        if contract is None:
            return team
        if contract != CHIAMO:
            for s in range(4):
                if s != me:
                    team[s] = FRIEND if (s == declarer) == (me == declarer) else FOE
            return team
        alone, partner = view.alone, view.partner
        called = view.called_card
        if me == declarer:
            if alone:
                return [FRIEND if s == me else FOE for s in range(4)]
            if partner is not None:
                return [FRIEND if s in (me, partner) else FOE for s in range(4)]
            candidates = [s for s in range(4) if s != me and self.possible[s] >> called & 1]
            for s in range(4):
                if s != me:
                    team[s] = FOE if s not in candidates else UNKNOWN
            if alone is False and len(candidates) == 1:
                team[candidates[0]] = FRIEND
            return team
        if partner == me or (self.hand >> called & 1):
            return [FRIEND if s in (me, declarer) else FOE for s in range(4)]
        team[declarer] = FOE
        others = [s for s in range(4) if s not in (me, declarer)]
        if alone:
            for s in others:
                team[s] = FRIEND
        elif partner is not None:
            for s in others:
                team[s] = FOE if s == partner else FRIEND
        else:
            for s in others:  # a seat void in the called suit cannot be the partner
                if not self.possible[s] >> called & 1:
                    team[s] = FRIEND
        return team

    # -- card facts ---------------------------------------------------------------------
    def is_master(self, card: int) -> bool:
        """No card another seat may hold beats ``card``."""
        return not self.outstanding & HIGHER[card]

    def can_beat(self, seat: int, card: int) -> bool:
        return bool(self.possible[seat] & HIGHER[card])


# -- policies ------------------------------------------------------------------------------------

def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x > -50 else 0.0


class BiddingPolicy:
    """Bids the contract with the best expected payoff, if that beats passing by ``margin``.

    The chance of making contract ``c`` with a hand is ``sigmoid(model_c(hand))``: a linear
    score of the hand's features (:data:`FEATURES`), fitted per contract by simulation
    (agents/calibrate.py), so the score of a contract includes what its monte, call and
    partner bring on average. The expected payoff uses the rules' payment schedule.
    """

    def __init__(self, margin: float = 0.0, models: dict | None = None, max_contract: int | None = None):
        self.margin = margin
        self.models = BID_MODELS if models is None else models
        self.max_contract = max_contract

    def win_chance(self, view, contract: int) -> float:
        model = self.models[contract]
        x = model(view.hand)
        if view.rules.declarer_leads_first(contract) or view.mano == view.seat:
            x += MANO_BONUS.get(contract, 0.0)
        return _sigmoid(x)

    def expected_payoff(self, view, contract: int) -> float:
        p = self.win_chance(view, contract)
        win = _declarer_win_payment(view.rules, contract)
        return p * win - (1 - p) * win

    def bid(self, view) -> int:
        legal = view.legal_moves()
        best, best_value = PASS, self.margin
        for move in legal[1:]:
            contract = move  # bid move ids are the contract ids
            if self.max_contract is not None and contract > self.max_contract:
                continue
            value = self.expected_payoff(view, contract)
            if value > best_value:
                best, best_value = move, value
        return best


def _declarer_win_payment(rules, contract: int) -> float:
    """What the declarer receives for a made contract (Chiamo: mostly with a partner)."""
    if contract == CHIAMO:
        with_partner = payments(rules, CHIAMO, 0, 1, None, True, False)[0]
        alone = payments(rules, CHIAMO, 0, None, None, True, False)[0]
        return 0.87 * with_partner + 0.13 * alone
    return payments(rules, contract, 0, None, 1 if contract == MEDIATORE else None, True, False)[0]


# Per-contract models of the chance to make the contract (logit); initial guesses.
def _bid_model(scale, shift):
    w = {k: v * scale for k, v in STRENGTH.weights.items()}
    return LinearEvaluation(w, STRENGTH.bias * scale - shift)


BID_MODELS = {CHIAMO: _bid_model(0.35, 4.5), MEDIATORE: _bid_model(0.35, 6.0),
              SOLO: _bid_model(0.35, 6.5), SOLISSIMO: _bid_model(0.35, 7.5),
              ARCISOLISSIMO: _bid_model(0.35, 7.8)}
MANO_BONUS: dict[int, float] = {}


class CallingPolicy:
    """Calls the missing card that adds most to the hand's strength (typically the 3 of the
    suit where the hand holds the 2 and the Asso); a card of one's own only if no other may be
    called."""

    def __init__(self, strength=None):
        self.strength = STRENGTH if strength is None else strength

    def call(self, view) -> int:
        hand = view.hand
        best, best_value = None, -math.inf
        for move in view.legal_moves():
            card = move - CALL_BASE
            if hand >> card & 1:
                value = -1e9 + card  # own card: plays alone; only when nothing else is legal
            else:
                value = self.strength(hand | 1 << card) + 0.001 * (card % 10)
            if value > best_value:
                best, best_value = move, value
        return best


class ExchangePolicy:
    """Discards the 4 cards (and, in Mediatore, passes back the 1 card) whose removal leaves
    the strongest 9-card hand, with ``discard_points`` the value of a third put in the monte
    (which goes to the last trick's winner) relative to a third kept in hand."""

    def __init__(self, strength=None, discard_points: float = -0.5, give_points: float = -1.0):
        self.strength = STRENGTH if strength is None else strength
        self.discard_points = discard_points
        self.give_points = give_points

    def _plan(self, hand: int, discards_left: int, give: bool):
        cards = cards_of(hand)
        best, best_value = None, -math.inf
        strength = self.strength
        for out in combinations(cards, discards_left + give):
            removed = 0
            for c in out:
                removed |= 1 << c
            kept = hand & ~removed
            value = strength(kept)
            if give:
                # the card passed back goes to an opponent: the least valuable one of `out`
                g = min(out, key=lambda c: (POINTS[c], c % 10))
                value += self.give_points * POINTS[g] - 0.05 * (g % 10)
                value += self.discard_points * sum(POINTS[c] for c in out if c != g)
            else:
                value += self.discard_points * sum(POINTS[c] for c in out)
            if value > best_value:
                best, best_value = out, value
        return best

    def discard(self, view) -> int:
        hand = view.hand
        left = 4 - view.discards.bit_count()
        give = view.giver is not None
        out = self._plan(hand, left, give)
        if give:
            g = min(out, key=lambda c: (POINTS[c], c % 10))
            out = [c for c in out if c != g]
        return DISCARD_BASE + max(out)

    def give(self, view) -> int:
        out = self._plan(view.hand, 0, True)
        return GIVE_BASE + out[0]


class PlayPolicy:
    """Card play: see the module docstring."""

    def __init__(self, signals: bool = True):
        self.signals = signals

    def play(self, view) -> int:
        legal = view.legal_moves()
        if len(legal) == 1:
            return legal[0]
        sit = Situation(view)
        if sit.trick:
            return PLAY_BASE + self.follow(sit)
        card, signal = self.lead(sit)
        move = PLAY_BASE + signal * NUM_CARDS + card
        return move if move in legal else PLAY_BASE + card

    # -- values of cards --------------------------------------------------------------------
    def keep_value(self, sit: Situation, card: int) -> float:
        """What keeping ``card`` for later is worth, in thirds (roughly)."""
        if sit.is_master(card):
            return 2.0 + POINTS[card]
        higher_out = (sit.outstanding & HIGHER[card]).bit_count()
        suit_len = (sit.hand & SUIT_MASKS[card // 10]).bit_count()
        if POINTS[card] == 3:  # an Asso that may be captured
            return 0.5 if higher_out == 1 and suit_len >= 3 else 0.0
        if higher_out == 1:
            return 1.0
        return 0.1 * (card % 10) / 9

    def dump_cost(self, sit: Situation, card: int) -> float:
        return POINTS[card] + self.keep_value(sit, card)

    # -- following ------------------------------------------------------------------------------
    def follow(self, sit: Situation) -> int:
        trick, leader = sit.trick, sit.leader
        suit = trick[0] // 10
        best_i = max(range(len(trick)), key=lambda i: trick[i] if trick[i] // 10 == suit else -1)
        best = trick[best_i]
        winner = (leader + best_i) % 4
        after = [(leader + i) % 4 for i in range(len(trick) + 1, 4)]
        team = sit.team
        trick_points = sum(POINTS[c] for c in trick)
        mine = sit.hand & SUIT_MASKS[suit]
        cards = cards_of(mine) if mine else cards_of(sit.hand)

        def secure(card):
            return not any(team[s] != FRIEND and sit.can_beat(s, card) for s in after)

        friend_wins = team[winner] == FRIEND
        if not mine:  # void: discard
            if friend_wins and secure(best):
                return max(cards, key=lambda c: (POINTS[c] - self.keep_value(sit, c), -(c % 10)))
            return self.discard_low(sit, cards)
        if friend_wins and secure(best):
            return max(cards, key=lambda c: (POINTS[c] - self.keep_value(sit, c), -(c % 10)))
        winners = [c for c in cards if c > best]
        safe = [c for c in winners if secure(c)]
        if friend_wins:
            # partner winning but threatened: secure it if cheap and worth it
            if safe and trick_points >= 2:
                c = min(safe)
                if not sit.is_master(c) or trick_points + POINTS[c] >= 3:
                    return c
            return min(cards, key=lambda c: (self.dump_cost(sit, c), c))
        if safe:
            c = min(safe)
            if trick_points + POINTS[c] >= 1 or not sit.is_master(c) or any(team[s] == FRIEND for s in after):
                return c
        return min(cards, key=lambda c: (self.dump_cost(sit, c), c))

    def discard_low(self, sit: Situation, cards) -> int:
        hand = sit.hand

        def cost(c):
            n = (hand & SUIT_MASKS[c // 10]).bit_count()
            return (self.dump_cost(sit, c) + 0.05 * n, c % 10)
        return min(cards, key=cost)

    # -- leading ---------------------------------------------------------------------------------
    def lead(self, sit: Situation) -> tuple[int, int]:
        hand = sit.hand
        team = sit.team
        friends = [s for s in range(4) if s != sit.me and team[s] == FRIEND]
        best, best_value = None, -math.inf
        for card in cards_of(hand):
            suit_mask = SUIT_MASKS[card // 10]
            n = (hand & suit_mask).bit_count()
            outstanding_in_suit = (sit.outstanding & suit_mask).bit_count()
            if sit.is_master(card):
                value = 1.0 + POINTS[card]
                if outstanding_in_suit == 0:
                    value -= 0.5
                if any(sit.void[f] & suit_mask and sit.possible[f] for f in friends):
                    value += 2.0
                # more masters behind it in the suit: cashing keeps control
                value += 0.3 * n
            else:
                value = -self.dump_cost(sit, card) - 0.5 * POINTS[card]
                value += 0.1 * n
            if value > best_value:
                best, best_value = card, value
        signal = NO_SIGNAL
        if self.signals:
            rest = hand & ~(1 << best) & SUIT_MASKS[best // 10]
            if not rest:
                signal = VOLO
        return best, signal


class GreedyAgent(Agent):
    """A heuristic player composed of a bidding, a calling, an exchange and a play policy.

    Pass a policy object (or, for bidding, a name of :data:`BIDDING_POLICIES`) to change one
    and keep the others: ``GreedyAgent(bidding="cautious")``.
    """

    name = "greedy"
    wants_observation = False

    def __init__(self, bidding=None, calling=None, exchange=None, play=None):
        self.bidding = make_bidding_policy(bidding if bidding is not None else "greedy")
        self.calling = calling if calling is not None else CallingPolicy()
        self.exchange = exchange if exchange is not None else ExchangePolicy()
        self.play = play if play is not None else PlayPolicy()

    def reset(self, seed=None):
        reset = getattr(self.bidding, "reset", None)
        if reset is not None:
            reset(seed)

    def act(self, observation, view) -> int:
        phase = view.phase
        if phase == PLAY:
            return self.play.play(view)
        if phase == AUCTION:
            return self.bidding.bid(view)
        if phase == CALL:
            return self.calling.call(view)
        if phase == DISCARD:
            return self.exchange.discard(view)
        if phase == GIVE:
            return self.exchange.give(view)
        raise ValueError(f"no decision to make in phase {phase}")


class RandomBidding:
    """The random agent's bidding: bids one step up with probability ``bid_rate``."""

    def __init__(self, bid_rate: float = 0.2):
        import random
        self.bid_rate = bid_rate
        self.rng = random.Random(0)

    def reset(self, seed):
        self.rng.seed(seed)

    def bid(self, view) -> int:
        legal = view.legal_moves()
        return legal[1] if len(legal) > 1 and self.rng.random() < self.bid_rate else PASS


class PassBidding:
    """Never bids."""

    def bid(self, view) -> int:
        return PASS


BIDDING_POLICIES = {
    "greedy": lambda: BiddingPolicy(),
    "cautious": lambda: BiddingPolicy(margin=2.0),
    "bold": lambda: BiddingPolicy(margin=-1.0),
    "chiamo": lambda: BiddingPolicy(max_contract=CHIAMO),
    "random": RandomBidding,
    "pass": PassBidding,
}


def make_bidding_policy(spec):
    """A bidding policy from a name of :data:`BIDDING_POLICIES`, a ``module:Class`` text, or
    an object with a ``bid(view)`` method (returned as is)."""
    if not isinstance(spec, str):
        if not callable(getattr(spec, "bid", None)):
            raise ValueError(f"not a bidding policy (no bid method): {spec!r}")
        return spec
    if spec in BIDDING_POLICIES:
        return BIDDING_POLICIES[spec]()
    if ":" in spec:
        from . import load_object
        return load_object(spec)()
    raise ValueError(f"unknown bidding policy {spec!r}; known: {', '.join(BIDDING_POLICIES)}, "
                     f"or a 'package.module:Class' path")
