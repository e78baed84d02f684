"""GreedyAgent: a heuristic Mediatore player built from four swappable policies.

``GreedyAgent(bidding=..., calling=..., exchange=..., play=...)`` composes a
:class:`BiddingPolicy`, a :class:`CallingPolicy`, an :class:`ExchangePolicy` and a
:class:`PlayPolicy`; replace one and keep the others (``GreedyAgent(bidding="cautious")``, or
any object with a ``bid(view)`` method). Every policy reads only the seat's view and is
deterministic. docs/agents.md gives the measurements behind each choice.

**Hand evaluation.** A hand is described suit by suit (:func:`suit_features`): the 3; the 2
with the 3, the 2 without it (guarded or bare); the Asso with both the 3 and the 2, with one
of them, or with neither (in a suit of 3+ cards or of 1-2); the Re under 3-2-A; the court
cards; length beyond 3 and beyond 5; voids and singletons. A :class:`LinearEvaluation` weighs
these features, so a hand's score is a sum over its four suits.

**Bidding.** For each contract it may bid, the chance to make it is
``sigmoid(BID_MODELS[c](hand) + MANO_BONUS[c] if the declarer would lead first)``: logistic
regressions fitted by simulation (agents/mediatore/calibrate.py: every seat of 3000 packs made declarer
of each contract, four greedy players), so each model already holds what that contract's call,
monte and partner bring on average. Its expected payoff is ``p * W - (1 - p) * W``, with ``W``
what the declarer receives under the table's schedule (Chiamo: 87% with a partner, 13%
alone, the chance the called card lies in the monte). It bids the contract with the best
expected payoff when that beats ``margin`` (0 units), else passes. Variants by name
(:data:`BIDDING_POLICIES`): ``cautious`` (margin 2), ``bold`` (margin -1), ``chiamo`` (never
above Chiamo), ``random`` (the random agent's bidding), ``pass``.

**Calling.** The callable card, not in hand, that raises :data:`STRENGTH` of the hand the most
as if it were held: typically the 3 of the suit where the hand holds the 2 and the Asso (in
self-play 56% of calls are a 3, 39% a 2). Its own card only when nothing else may be called.

**Exchange.** The 4 discards (and in Mediatore the 1 card passed back) leaving the strongest
hand by :data:`STRENGTH`, with the Chiamo partner's called card counted in; each third
discarded counts +0.5, because the monte goes to the last trick's winner while a court card that
takes no trick is lost in play; each third passed back to the giver counts -1. As strength
rewards voids and sure tricks, the discards are low cards of short suits (making voids) and lone
court cards; 3s, guarded 2s and protected Assi stay. The best set is found suit by suit
(every subset of each suit) and combined over the number removed.

**Card play.** :class:`Situation` works out, from the facts that
:mod:`mediatore_env.mediatore.knowledge` deduces, which cards each other seat may still hold
(voids shown, a volo signal, the monte shown in Mediatore and Solo, the called card given
openly, the card passed back, the partner once known), which seats are friends, foes, or
unknown (Chiamo before the called card shows; a seat void in the called suit is not the
partner; a seat that, void, throws a point card on a trick someone is winning is taken as
that seat's partner). A card is *sure* if no foe or unknown seat still to play can
beat it. The *keep value* of a card: a master (no outstanding card beats it) 2 + its points, a
card with one outstanding card above it 1, an Asso that may be captured 0.

- Following, with a friend winning the trick for sure: it loads the card with the most points
  for the least keep value (an Asso the 3 or 2 could capture goes first); answering a friend's
  busso, it plays its highest card of the suit when that wins.
- A friend winning but threatened: it secures the trick with its cheapest sure winner when the
  trick holds 2 thirds (a master only for 3), else plays its cheapest card.
- A foe or unknown winning: it takes the trick with its cheapest sure winner -- a master only
  when the trick is worth a point (3 thirds) with it, or a friend still plays after it --
  else it plays its cheapest card (points plus keep value: low cards, never a protected Asso).
- Void: it loads a friend's sure trick, else throws its cheapest card, from its shortest suit.
- Leading: a card only friends can beat is cashed first (points, suit length, and more when a
  friend is void in the suit and will load), else the lowest pointless card of a long suit; an
  Asso or 2 that can be captured is not led. After winning a trick on a friend's busso it
  returns the suit.
- Signals (standard code): volo with the last card of a suit; busso when leading low from a
  suit where a friend may hold the one card above ours (la meglio in the alternative code).
"""

from __future__ import annotations

import math
from functools import partial

from mediatore_env.mediatore.exchange import best_removal, exchange_move
from mediatore_env.core.cards import (ALL_CARDS, NUM_CARDS, POINTS, SUIT_MASKS, bit, cards_of,
                                      highest, power_of, suit_of, thirds_of)
from mediatore_env.mediatore.knowledge import deduce
from mediatore_env.mediatore.moves import (AUCTION, CALL, DISCARD, GIVE, PASS, PLAY,
                                           card_of_move, play_move)
from mediatore_env.mediatore.rules import (ARCISOLISSIMO, BUSSO, BUSSO_MEGLIO, CHIAMO, MEDIATORE,
                                           MEGLIO, NO_SIGNAL, RIBUSSO_MEGLIO, SIGNAL_MEANINGS,
                                           SOLISSIMO, SOLO, VOLO, payments)
from mediatore_env.mediatore.view import SeatView

from ..base import Agent, reset_agent

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
        #: the score of each suit pattern (bit ``power`` set for each card held)
        self.table = tuple(sum(a * b for a, b in zip(w, feats)) for feats in _SUIT_FEATURES)

    def __deepcopy__(self, memo):
        # Read-only once made (the scores are precomputed from the weights): a copied agent
        # (the opponents of a copied environment, say) shares it instead of copying 1024
        # scores per model, which made copying a GreedyAgent take milliseconds.
        return self

    def __call__(self, hand: int) -> float:
        t = self.table
        return (self.bias + t[hand & 1023] + t[(hand >> 10) & 1023] + t[(hand >> 20) & 1023]
                + t[(hand >> 30) & 1023])


# The strength of a hand, for the call and the exchange: about the thirds it takes playing
# alone with no monte. Started from the least-squares fit of agents/mediatore/calibrate.py on Solissimo
# and Arcisolissimo games; "courts" and "long4" then raised by duplicate A/B tests (+0.10 units
# per deal: a fit says what goes with strong hands, not what a discard should keep).
STRENGTH = LinearEvaluation({
    "three": 1.81, "two_top": 3.48, "two": 1.79, "two_single": 0.42, "ace_top": 2.65,
    "ace_half": 1.72, "ace_long": 1.10, "ace_short": 0.56, "king_top": 0.32, "courts": 0.40,
    "long4": 0.80, "long6": -0.08, "void": 0.63, "singleton": 0.34}, bias=2.36)


# -- what a seat can deduce ------------------------------------------------------------------

def _higher(card: int) -> int:
    """Cards of ``card``'s suit that beat it."""
    return SUIT_MASKS[suit_of(card)] & ~((bit(card) << 1) - 1)


HIGHER = tuple(_higher(c) for c in range(NUM_CARDS))
# Signals that ask the partner to play its highest card of the suit and return the suit.
REQUESTS = {"standard": (BUSSO,), "no_striscio": (BUSSO,), "off": (),
            "alternative": (MEGLIO, BUSSO_MEGLIO, RIBUSSO_MEGLIO)}
FRIEND, FOE, UNKNOWN = 1, -1, 0


class Situation:
    """What the seat to move knows and deduces, computed once per decision from its view, on
    the facts of :func:`~mediatore_env.mediatore.knowledge.deduce` (``knowledge``):

    - ``possible[s]``: cards seat ``s`` may hold (not in my hand, not played, not known to be
      in the monte or elsewhere, not in a suit ``s`` has shown void in);
    - ``outstanding``: cards any other seat may hold;
    - ``team[s]``: FRIEND, FOE or UNKNOWN (Chiamo before the called card shows).
    """

    def __init__(self, view, infer: bool = True):
        self.view = view
        self.infer = infer
        me = self.me = view.seat
        hand = self.hand = view.hand
        played = self.played = view.played
        contract = self.contract = view.contract
        declarer = self.declarer = view.declarer
        self.trick = view.trick
        self.leader = view.leader
        self.tricks = view.tricks
        code = self.code = view.rules.signals
        # The facts of the seat's view (voids, the signals' statements, the monte, the cards
        # placed); which of them greedy uses, and how, is its own choice below.
        k = self.knowledge = deduce(view)
        void = self.void = k.voids
        hidden = ALL_CARDS & ~hand & ~played
        if k.monte is not None:
            hidden &= ~k.monte  # the declarer's discards, the monte the Solissimo declarer saw
        possible = [hidden & ~void[s] for s in range(4)]
        possible[me] = hand
        # Known places: greedy reads the monte shown only in Mediatore and Solo (not the
        # Chiamo monte shown under monte_shown="always"): it went to the declarer (hand or
        # discards; greedy overlooks the one card that may have been passed back to the
        # giver); greedy takes the called card of Mediatore to be in the declarer's hand
        # (though it may have been discarded); then the cards known to be in a seat's hand.
        if contract in (MEDIATORE, SOLO):
            for s in range(4):
                if s != declarer and s != me:
                    possible[s] &= ~k.pool_only
        called = k.called
        if contract == MEDIATORE and called is not None and not played >> called & 1:
            self._place(possible, called, declarer)
        for seat, card in k.held:
            self._place(possible, card, seat)
        self.possible = possible
        out = 0
        for s in range(4):
            if s != me:
                out |= possible[s]
        self.outstanding = out
        self.team = team = self._teams()
        # A friend's request signal (busso; la meglio in the alternative code): play the
        # highest card of the suit, and return the suit after winning the trick.
        requests = REQUESTS[code]
        self.request = bool(self.trick) and view.trick_signal in requests \
            and self.leader != me and team[self.leader] == FRIEND
        self.return_suit = None
        if self.tricks:
            t = self.tricks[-1]
            if t.signal in requests and t.leader != me and t.winner == me and team[t.leader] == FRIEND:
                self.return_suit = suit_of(t.cards[0])

    def _place(self, possible, card, seat):
        """Put ``card`` in ``seat``'s hand and out of every other seat's."""
        for s in range(4):
            if s != self.me:
                possible[s] &= ~bit(card)
        if seat != self.me:
            possible[seat] |= bit(card)

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
            elif self.infer:
                self._infer(team)
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
        if self.infer and UNKNOWN in team:
            self._infer(team)
        return team

    def loads(self) -> list[tuple[int, int]]:
        """(a, b): seat ``a``, void in the suit led, discarded a card with points on a trick
        that seat ``b`` was winning -- a sign that ``a`` and ``b`` play together."""
        out = []
        tricks = [(t.leader, t.cards) for t in self.tricks]
        if self.trick:
            tricks.append((self.leader, self.trick))
        for leader, cards in tricks:
            suit = suit_of(cards[0])
            best, bi = cards[0], 0
            for i in range(1, len(cards)):
                c = cards[i]
                if suit_of(c) != suit:
                    if POINTS[c]:
                        out.append(((leader + i) % 4, (leader + bi) % 4))
                elif c > best:
                    best, bi = c, i
        return out

    def _infer(self, team: list[int]) -> None:
        """Chiamo, partner not shown yet: guess teams from who loaded points on whose tricks."""
        me, declarer = self.me, self.declarer
        for a, b in self.loads():
            if team[a] != UNKNOWN or a == b:
                continue
            if me == declarer:
                if b == me:
                    for s in range(4):
                        if s != me:
                            team[s] = FRIEND if s == a else FOE
                    return
                if team[b] == UNKNOWN or team[b] == FOE:  # two defenders together
                    team[a] = FOE
                    if team[b] == UNKNOWN:
                        team[b] = FOE
            else:
                if b == declarer:  # a is the partner
                    for s in range(4):
                        if team[s] == UNKNOWN:
                            team[s] = FOE if s == a else FRIEND
                    return
                team[a] = FRIEND  # loaded for a defender: a defender
                if team[b] == UNKNOWN:
                    team[b] = FRIEND
        if me == declarer and self.view.alone is False:
            unknown = [s for s in range(4) if team[s] == UNKNOWN]
            if len(unknown) == 1 and FRIEND not in (team[s] for s in range(4) if s != me):
                team[unknown[0]] = FRIEND

    # -- card facts ---------------------------------------------------------------------
    def is_master(self, card: int) -> bool:
        """No card another seat may hold beats ``card``."""
        return not self.outstanding & HIGHER[card]

    def side_master(self, card: int) -> bool:
        """Only friends may hold a card that beats ``card``."""
        higher = HIGHER[card]
        team = self.team
        return not any(team[s] != FRIEND and self.possible[s] & higher for s in range(4) if s != self.me)

    def can_beat(self, seat: int, card: int) -> bool:
        return bool(self.possible[seat] & HIGHER[card])


# -- policies ------------------------------------------------------------------------------------

def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x > -50 else 0.0


class BiddingPolicy:
    """Bids the contract with the best expected payoff, if that beats passing by ``margin``.

    The chance of making contract ``c`` with a hand is ``sigmoid(model_c(hand))``: a linear
    score of the hand's features (:data:`FEATURES`), fitted per contract by simulation
    (agents/mediatore/calibrate.py), so the score of a contract includes what its monte, call and
    partner bring on average. The expected payoff uses the rules' payment schedule.
    """

    def __init__(self, margin: float = 0.0, overcall_margin: float | None = None,
                 models: dict | None = None, max_contract: int | None = None):
        self.margin = margin
        self.overcall_margin = margin if overcall_margin is None else overcall_margin
        self.models = BID_MODELS if models is None else models
        self.max_contract = max_contract

    def win_chance(self, view, contract: int) -> float:
        x = self.models[contract](view.hand) + lead_bonus(view.rules, contract, view.seat,
                                                          view.mano)
        return _sigmoid(x)

    def expected_payoff(self, view, contract: int) -> float:
        p = self.win_chance(view, contract)
        win = _declarer_win_payment(view.rules, contract)
        return p * win - (1 - p) * win

    def bid(self, view) -> int:
        legal = view.legal_moves()
        others_bid = any(bid and seat != view.seat for seat, bid in view.auction)
        best, best_value = PASS, self.overcall_margin if others_bid else self.margin
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


# The logit of the chance to make each contract, from the declarer's hand before the auction:
# logistic regressions fitted by agents/mediatore/calibrate.py (3000 packs x 4 declarers, four greedy
# players, seed 8), so each includes what that contract's call, monte and partner bring on
# average. MANO_BONUS is added when the declarer leads the first trick.
BID_MODELS = {
    CHIAMO: LinearEvaluation({
        "three": 0.34, "two_top": 0.57, "two": 0.35, "two_single": 0.35, "ace_top": 0.92,
        "ace_half": 0.21, "ace_long": 0.11, "ace_short": 0.06, "king_top": -0.01,
        "courts": 0.02, "long4": 0.03, "long6": 0.00, "void": -0.14, "singleton": -0.02}, bias=-0.24),
    MEDIATORE: LinearEvaluation({
        "three": 0.77, "two_top": 0.53, "two": 0.60, "two_single": 0.18, "ace_top": 0.47,
        "ace_half": 0.34, "ace_long": 0.20, "ace_short": 0.10, "king_top": -0.33,
        "courts": -0.05, "long4": 0.19, "long6": 0.25, "singleton": 0.10}, bias=-2.14),
    SOLO: LinearEvaluation({
        "three": 0.72, "two_top": 0.84, "two": 0.50, "two_single": 0.12, "ace_top": 0.60,
        "ace_half": 0.39, "ace_long": 0.42, "ace_short": 0.29, "king_top": 0.21,
        "courts": 0.02, "long4": 0.09, "long6": 0.45, "void": -0.38, "singleton": -0.12}, bias=-4.19),
    SOLISSIMO: LinearEvaluation({
        "three": 0.76, "two_top": 1.00, "two": 0.80, "two_single": 0.27, "ace_top": 0.58,
        "ace_half": 0.58, "ace_long": 0.71, "ace_short": 0.20, "king_top": 0.40,
        "courts": 0.05, "long4": 0.29, "long6": 0.10, "void": 0.10, "singleton": 0.20}, bias=-4.93),
    ARCISOLISSIMO: LinearEvaluation({
        "three": 0.71, "two_top": 0.92, "two": 0.78, "two_single": 0.41, "ace_top": 0.52,
        "ace_half": 0.53, "ace_long": 0.60, "ace_short": 0.23, "king_top": 0.32,
        "courts": 0.05, "long4": 0.25, "long6": 0.08, "void": 0.05, "singleton": 0.17}, bias=-4.72),
}
MANO_BONUS = {CHIAMO: -0.42, MEDIATORE: -0.37, SOLO: -0.72, SOLISSIMO: -0.80, ARCISOLISSIMO: -0.67}


def lead_bonus(rules, contract: int, seat: int, mano: int) -> float:
    """What :data:`MANO_BONUS` adds to the logit of ``contract`` declared by ``seat``: its
    value where that declarer would lead the first trick, else nothing."""
    return (MANO_BONUS.get(contract, 0.0) if rules.first_leader(contract, seat, mano) == seat
            else 0.0)



class CallingPolicy:
    """Calls the missing card that adds most to the hand's strength (typically the 3 of the
    suit where the hand holds the 2 and the Asso); a card of one's own only if no other may be
    called."""

    def __init__(self, strength=None):
        self.strength = STRENGTH if strength is None else strength

    def call(self, view) -> int:
        return self.ranked(view)[0]

    def ranked(self, view) -> list[int]:
        """The legal call moves, best first (on equal values, in the order of the legal moves)."""
        hand = view.hand

        def value(move):
            card = card_of_move(move)
            if hand >> card & 1:
                return -1e9 + card  # own card: plays alone; only when nothing else is legal
            return self.strength(hand | bit(card)) + 0.001 * power_of(card)
        return sorted(view.legal_moves(), key=lambda move: -value(move))


class ExchangePolicy:
    """Discards the 4 cards (and, in Mediatore, passes back the 1 card) whose removal leaves
    the strongest 9-card hand by ``strength``, counting ``discard_points`` per third put in the
    monte (it goes to the last trick's winner) and ``give_points`` per third passed to the
    opponent who gave the called card.

    The strength of a hand is a sum over its suits, so the best removal is found suit by suit
    (every subset of each suit) and combined by dynamic programming over the number removed.
    """

    def __init__(self, strength=None, discard_points: float = 0.5, give_points: float = -1.0,
                 with_partner: bool = True):
        self.with_partner = with_partner
        self.strength = STRENGTH if strength is None else strength
        self.discard_points = discard_points
        self.give_points = give_points

    def plan(self, hand: int, removals: int, give: bool, partner_card: int = 0) -> tuple[int, int | None]:
        """(cards to remove as a bitset, the one of them to pass back or None).

        ``partner_card``: a bitset of the card a Chiamo partner holds, counted with the hand
        when scoring it (it cannot be discarded)."""
        table = self.strength.table
        discard_points = self.discard_points

        def suit_value(suit: int, kept: int, removed: int) -> float:
            theirs = partner_card >> 10 * suit & 1023
            return table[kept | theirs] + discard_points * thirds_of(removed)

        def give_choice(removed: int) -> tuple[int, float]:
            # pass back the card that costs least, the lowest of equal points
            g = max(cards_of(removed), key=self.give_value)
            return g, self.give_value(g)
        return best_removal(hand, removals, give, suit_value, give_choice)

    def give_value(self, card: int) -> float:
        """What passing ``card`` back adds to a removal's score, against discarding it."""
        return (self.give_points - self.discard_points) * POINTS[card] - 0.05 * power_of(card)

    def partner_card(self, view) -> int:
        """The card a Chiamo partner holds, as a bitset, where the hand is scored with it
        (``with_partner`` and a partner known to exist); else 0."""
        if self.with_partner and view.contract == CHIAMO and view.alone is False:
            return bit(view.called_card)
        return 0

    def discard(self, view) -> int:
        partner_card = self.partner_card(view)
        return exchange_move(view, lambda hand, removals, give:
                             self.plan(hand, removals, give, partner_card))

    def give(self, view) -> int:
        return exchange_move(view, self.plan)


class PlayPolicy:
    """Card play, from what the seat knows (:class:`Situation`); see the module docstring."""

    #: lead value of a master card, on top of its points and 0.3 per card held in its suit
    MASTER_LEAD = 1.0
    #: added to the lead value of a master that is the last card of its suit
    BARE_MASTER = 0.0
    #: lead value per card held in the suit of a low card led
    LONG_LEAD = 0.1
    #: a friend's card that may be beaten after us is secured when the trick holds this many thirds
    SECURE_POINTS = 2

    def __init__(self, signals: bool = True, infer: bool = True, take_points: int = 3,
                 master_keep: float = 2.0):
        self.signals = signals
        self.infer = infer
        self.take_points = take_points
        self.master_keep = master_keep

    def play(self, view) -> int:
        legal = view.legal_moves()
        if len(legal) == 1:
            return legal[0]
        sit = Situation(view, self.infer)
        if sit.trick:
            return play_move(self.follow(sit))
        card = self.lead(sit)
        signal = self.lead_signal(sit, card) if self.signals else NO_SIGNAL
        move = play_move(card, signal)
        return move if signal and move in legal else play_move(card)

    # -- values of cards --------------------------------------------------------------------
    def keep_value(self, sit: Situation, card: int) -> float:
        """What keeping ``card`` for later is worth, in thirds (roughly): a master is a sure
        trick, a card with one outstanding card above it a likely one; an Asso that may be
        captured is worth nothing to keep."""
        if sit.is_master(card):
            return self.master_keep + POINTS[card]
        higher_out = (sit.outstanding & HIGHER[card]).bit_count()
        suit_len = (sit.hand & SUIT_MASKS[suit_of(card)]).bit_count()
        if POINTS[card] == 3:
            return 0.5 if higher_out == 1 and suit_len >= 3 else 0.0
        if higher_out == 1:
            return 1.0
        return 0.1 * power_of(card) / 9

    def dump_cost(self, sit: Situation, card: int) -> float:
        """What playing ``card`` to a trick the other side wins costs: its points, and its
        value kept."""
        return POINTS[card] + self.keep_value(sit, card)

    def load_value(self, sit: Situation, card: int) -> float:
        """What playing ``card`` to a trick our side wins gains: its points, less its value kept."""
        return POINTS[card] - self.keep_value(sit, card)

    # -- following ------------------------------------------------------------------------------
    def follow(self, sit: Situation) -> int:
        trick, leader = sit.trick, sit.leader
        suit = suit_of(trick[0])
        best_i = max(range(len(trick)), key=lambda i: trick[i] if suit_of(trick[i]) == suit else -1)
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
        if not mine:  # void: load points on a sure friend's trick, else discard
            if friend_wins and secure(best):
                return max(cards, key=lambda c: (self.load_value(sit, c), -power_of(c)))
            return self.discard_low(sit, cards)
        if sit.request and cards[0] > best:
            return cards[0]  # the partner knocked: our highest card of the suit, and it wins
        if friend_wins and secure(best):
            return max(cards, key=lambda c: (self.load_value(sit, c), -power_of(c)))
        winners = [c for c in cards if c > best]
        safe = [c for c in winners if secure(c)]
        if friend_wins:
            # the friend's card may be beaten after us: secure the trick if it is worth it
            if safe and trick_points >= self.SECURE_POINTS:
                c = min(safe)
                if not sit.is_master(c) or trick_points + POINTS[c] >= 3:
                    return c
            return min(cards, key=lambda c: (self.dump_cost(sit, c), c))
        if safe:
            c = min(safe)
            if trick_points + POINTS[c] >= self.take_points or not sit.is_master(c) \
                    or any(team[s] == FRIEND for s in after):
                return c
        return min(cards, key=lambda c: (self.dump_cost(sit, c), c))

    def discard_low(self, sit: Situation, cards) -> int:
        """The cheapest card to throw away, from a short suit where possible (towards a void)."""
        hand = sit.hand

        def cost(c):
            n = (hand & SUIT_MASKS[suit_of(c)]).bit_count()
            return (self.dump_cost(sit, c) + 0.05 * n, power_of(c))
        return min(cards, key=cost)

    # -- leading ---------------------------------------------------------------------------------
    def lead(self, sit: Situation) -> int:
        hand = sit.hand
        team = sit.team
        friends = [s for s in range(4) if s != sit.me and team[s] == FRIEND]
        best, best_value = None, -math.inf
        foes = [s for s in range(4) if s != sit.me and team[s] != FRIEND]
        for card in cards_of(hand):
            suit_mask = SUIT_MASKS[suit_of(card)]
            n = (hand & suit_mask).bit_count()
            if not any(sit.can_beat(f, card) for f in foes):  # only friends may beat it
                value = self.MASTER_LEAD + POINTS[card] + 0.3 * n
                if n == 1:
                    value += self.BARE_MASTER
                if not sit.outstanding & suit_mask:
                    value -= 0.5  # no one follows: it takes only itself
                if any(sit.void[f] & suit_mask and sit.possible[f] for f in friends):
                    value += 2.0  # a void friend loads points on it
            else:
                value = -self.dump_cost(sit, card) - 0.5 * POINTS[card] + self.LONG_LEAD * n
            if sit.return_suit == suit_of(card):
                value += 3.0 if card == min(c for c in cards_of(hand & suit_mask)) else 1.0
            if value > best_value:
                best, best_value = card, value
        return best

    def lead_signal(self, sit: Situation, card: int) -> int:
        """Volo when leading the last card of a suit; a request (busso, or la meglio in the
        alternative code) when leading low from a suit where a friend's top card would make
        ours the master."""
        code = sit.code
        if code == "off":
            return NO_SIGNAL
        suit_mask = SUIT_MASKS[suit_of(card)]
        rest = sit.hand & ~bit(card) & suit_mask
        if not rest:
            return VOLO if VOLO in SIGNAL_MEANINGS[code] else NO_SIGNAL
        if sit.is_master(card):
            return NO_SIGNAL
        mine = highest(rest)
        above = sit.outstanding & HIGHER[mine]
        friends = [s for s in range(4) if s != sit.me and sit.team[s] == FRIEND]
        if above.bit_count() == 1 and any(sit.possible[f] & above for f in friends):
            return BUSSO if code != "alternative" else MEGLIO
        return NO_SIGNAL


class GreedyAgent(Agent):
    """A heuristic player composed of a bidding, a calling, an exchange and a play policy.

    Pass a policy object (or, for bidding, a name of :data:`BIDDING_POLICIES`) to change one
    and keep the others: ``GreedyAgent(bidding="cautious")``.
    """

    name = "greedy"
    wants_observation = False
    view_type = SeatView

    def __init__(self, bidding: str | BiddingPolicy | None = None,
                 calling: CallingPolicy | None = None, exchange: ExchangePolicy | None = None,
                 play: PlayPolicy | None = None):
        self.bidding = make_bidding_policy(bidding if bidding is not None else "greedy")
        self.calling = calling if calling is not None else CallingPolicy()
        self.exchange = exchange if exchange is not None else ExchangePolicy()
        self.play = play if play is not None else PlayPolicy()

    def reset(self, seed=None):
        for policy in (self.bidding, self.calling, self.exchange, self.play):
            reset_agent(policy, seed)  # a policy's reset is optional, as an agent's is

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


#: The bidding policies by name, each a factory that takes the policy's options by name
#: (``cautious:margin=1.5``, ``random:bid_rate=0.5``).
BIDDING_POLICIES = {
    "greedy": BiddingPolicy,
    "cautious": partial(BiddingPolicy, margin=2.0),
    "bold": partial(BiddingPolicy, margin=-1.0),
    "chiamo": partial(BiddingPolicy, max_contract=CHIAMO),
    "random": RandomBidding,
    "pass": PassBidding,
}


def make_bidding_policy(spec):
    """A bidding policy from its text -- a name of :data:`BIDDING_POLICIES` or a
    ``module:Class`` path, either with options (``cautious:margin=1.5``,
    ``mypkg.bids:Mine:bold=True``), as agents are written -- or an object with a ``bid(view)``
    method (returned as is). Raises ``ValueError`` naming the policy and what is wrong."""
    if not isinstance(spec, str):
        if not callable(getattr(spec, "bid", None)):
            raise ValueError(f"not a bidding policy (no bid method): {spec!r}")
        return spec
    from ..registry import build, named_factory
    factory, options = named_factory(spec, BIDDING_POLICIES, ("bidding policy",
                                                              "bidding policies"))
    policy = build(factory, options, f"bidding policy {spec!r}")
    if not callable(getattr(policy, "bid", None)):
        raise ValueError(f"{spec!r} is not a bidding policy: it needs a method bid(view) "
                         "returning a move id (PASS or bid_move(contract))")
    return policy
