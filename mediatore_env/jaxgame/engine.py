"""The deal as pure JAX functions: the deal of a pack, the moves of every phase, the legal
mask, the payments. A transcription of :class:`~mediatore_env.mediatore.game.Deal` (the
functions carry the names of its methods: ``_bid``, ``_call``, ``_take_monte``, ``_start_play``,
``_play``, ``_score``), written over the arrays of :class:`.state.State`.

No Python ``if`` looks at a traced value: each phase's move is a branch of ``lax.switch`` on the
phase (under ``vmap`` every branch runs and the phase selects), and inside a branch choices
are ``jnp.where``. Python branches only on the rules, which are static (:mod:`.tables`).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ..core.cards import LAST_TRICK_THIRDS, NUM_CARDS
from ..mediatore.game import DEAL_ORDER
from ..mediatore.moves import (AUCTION, CALL, CALL_BASE, DISCARD, DISCARD_BASE, END, GIVE,
                               GIVE_BASE, HAND_SIZE, NUM_MOVES, NUM_TRICKS, PLAY, PLAY_BASE,
                               WIN_THIRDS)
from ..mediatore.rules import CHIAMO, MEDIATORE, NUM_SIGNALS, SOLO
from .state import State
from .tables import (HOLDS_HIGHEST, HOLDS_SECOND, LAST_OF_SUIT, LOW_KEPT, LOW_OF_CARD, POINTS_OF,
                     REQUEST, SUIT_MASK, SUIT_OF_CARD, RulesTables, signal_kinds)

_I32 = jnp.int32
_NONE = -1
_SEATS = np.arange(4)
_CARDS = np.arange(NUM_CARDS)
_MOVES = np.arange(NUM_MOVES)
_SIGNAL_ROW = np.arange(NUM_SIGNALS)[:, None]
# By dealer, the seat receiving each of the 40 cards of the pack (4: the monte).
_RECEIVER = np.array([list(order) + [4] * (NUM_CARDS - 4 * HAND_SIZE) for order in DEAL_ORDER],
                     np.int32)


def _set(mask: jax.Array, card: jax.Array, value) -> jax.Array:
    """``mask`` (bool[40]) with ``card`` set to ``value``."""
    return mask.at[card].set(value)


# -- the deal ------------------------------------------------------------------------------------

def init_from_pack(t: RulesTables, pack: jax.Array, dealer: jax.Array) -> State:
    """The state after dealing ``pack`` (int32[40], card ids in pack order) from ``dealer``:
    batches of three from il mano, the last four cards the monte (game.deal_hands)."""
    pack = jnp.asarray(pack, _I32)
    dealer = jnp.asarray(dealer, _I32)
    receiver = jnp.zeros(NUM_CARDS, _I32).at[pack].set(jnp.asarray(_RECEIVER)[dealer])
    hands = receiver[None, :] == _SEATS[:, None]
    monte = receiver == 4
    none = jnp.asarray(_NONE, _I32)
    zero = jnp.asarray(0, _I32)
    state = State(
        current_player=(dealer + 1) % 4,
        legal_action_mask=jnp.zeros(NUM_MOVES, bool),
        rewards=jnp.zeros(4, jnp.float32),
        terminated=jnp.asarray(False),
        truncated=jnp.asarray(False),
        _step_count=zero,
        dealer=dealer,
        phase=jnp.asarray(AUCTION, _I32),
        hands=hands,
        monte=monte,
        original_monte=monte,
        bids=jnp.zeros((5, 4), bool),
        calls=zero, high_bid=zero, high_bidder=none, passes=zero,
        contract=zero, declarer=none, called_card=none, holder=none, partner=none,
        giver=none, given_back=none,
        discards=jnp.zeros(NUM_CARDS, bool),
        leader=none,
        trick_cards=jnp.full(4, _NONE, _I32),
        trick_len=zero, tricks_done=zero,
        trick_leaders=jnp.full(NUM_TRICKS, _NONE, _I32),
        trick_signals=jnp.zeros(NUM_TRICKS, _I32),
        trick_winners=jnp.full(NUM_TRICKS, _NONE, _I32),
        card_seat=jnp.full(NUM_CARDS, _NONE, _I32),
        card_trick=jnp.full(NUM_CARDS, _NONE, _I32),
        thirds_won=jnp.zeros(4, _I32),
        tricks_won=jnp.zeros(4, _I32),
        called_played_by=none,
    )
    return state._replace(legal_action_mask=legal_action_mask(t, state))


def init(t: RulesTables, key: jax.Array) -> State:
    """A deal of a pack shuffled by ``key``, from a dealer drawn by ``key``."""
    pack_key, dealer_key = jax.random.split(key)
    return init_from_pack(t, jax.random.permutation(pack_key, NUM_CARDS),
                          jax.random.randint(dealer_key, (), 0, 4))


# -- the moves of each phase (Deal._apply and the methods it calls) -------------------------------

def _start_play(t: RulesTables, s: State) -> State:
    mano = (s.dealer + 1) % 4
    lead = jnp.where(jnp.asarray(t.leads_first)[s.contract], s.declarer, mano)
    return s._replace(phase=jnp.asarray(PLAY, _I32), leader=lead, current_player=lead,
                      trick_leaders=s.trick_leaders.at[0].set(lead))


def _take_monte(s: State) -> State:
    hands = s.hands.at[s.declarer].set(s.hands[s.declarer] | s.monte)
    return s._replace(hands=hands, monte=jnp.zeros(NUM_CARDS, bool),
                      phase=jnp.asarray(DISCARD, _I32))


def _select(pred: jax.Array, a: State, b: State) -> State:
    """``a`` where ``pred`` else ``b``, field by field."""
    return jax.tree.map(lambda x, y: jnp.where(pred, x, y), a, b)


def _bid(t: RulesTables, s: State, move: jax.Array) -> State:
    seat = s.current_player
    is_pass = move == 0
    calls = s.calls + 1
    bids = s.bids.at[jnp.maximum(move - 1, 0), seat].set(s.bids[jnp.maximum(move - 1, 0), seat]
                                                         | ~is_pass)
    high_bid = jnp.where(is_pass, s.high_bid, move)
    high_bidder = jnp.where(is_pass, s.high_bidder, seat)
    passes = jnp.where(is_pass, s.passes + (s.high_bid > 0), 0)
    s = s._replace(calls=calls, bids=bids, high_bid=high_bid, high_bidder=high_bidder,
                   passes=passes, current_player=(seat + 1) % 4)
    thrown_in = is_pass & (high_bid == 0) & (calls == 4)
    over = is_pass & (high_bid > 0) & (passes == 3)
    # _end_auction: the contract decides what comes next.
    won = s._replace(contract=high_bid, declarer=high_bidder, current_player=high_bidder)
    to_call = won._replace(phase=jnp.asarray(CALL, _I32))
    after = _select(high_bid <= MEDIATORE, to_call,
                    _select(high_bid == SOLO, _take_monte(won), _start_play(t, won)))
    ended = s._replace(phase=jnp.asarray(END, _I32), current_player=jnp.asarray(_NONE, _I32),
                       terminated=jnp.asarray(True))
    return _select(over, after, _select(thrown_in, ended, s))


def _call(t: RulesTables, s: State, move: jax.Array) -> State:
    card = move - CALL_BASE
    held = s.hands[:, card]
    holder = jnp.where(held.any(), jnp.argmax(held), _NONE).astype(_I32)
    declarer = s.declarer
    s = s._replace(called_card=card, holder=holder)
    other = (holder != _NONE) & (holder != declarer)
    # Chiamo: the holder, if another seat, is the partner.
    chiamo = s._replace(partner=jnp.where(other, holder, _NONE))
    chiamo = _take_monte(chiamo) if t.chiamo_monte else _start_play(t, chiamo)
    # Mediatore: the holder, if another seat, gives the card openly.
    giver = jnp.where(other, holder, _NONE)
    hands = s.hands.at[jnp.maximum(holder, 0), card].set(s.hands[jnp.maximum(holder, 0), card]
                                                        & ~other)
    hands = hands.at[declarer, card].set(hands[declarer, card] | other)
    mediatore = _take_monte(s._replace(giver=giver, hands=hands))
    return _select(s.contract == CHIAMO, chiamo, mediatore)


def _discard(t: RulesTables, s: State, move: jax.Array) -> State:
    card = move - DISCARD_BASE
    seat = s.current_player
    hands = s.hands.at[seat, card].set(False)
    discards = _set(s.discards, card, True)
    s = s._replace(hands=hands, discards=discards)
    done = discards.sum() == 4
    exchanged = s._replace(monte=discards)
    after = _select(exchanged.giver != _NONE, exchanged._replace(phase=jnp.asarray(GIVE, _I32)),
                    _start_play(t, exchanged))
    return _select(done, after, s)


def _give(t: RulesTables, s: State, move: jax.Array) -> State:
    card = move - GIVE_BASE
    hands = s.hands.at[s.current_player, card].set(False)
    hands = hands.at[s.giver, card].set(True)
    return _start_play(t, s._replace(hands=hands, given_back=card))


def _trick_winner(leader: jax.Array, cards: jax.Array) -> jax.Array:
    """core.tricks.trick_winner: the highest card of the suit led."""
    suits = jnp.asarray(SUIT_OF_CARD)[cards]
    strength = jnp.where(suits == suits[0], cards, -1)
    return (leader + jnp.argmax(strength)) % 4


def _play(t: RulesTables, s: State, move: jax.Array) -> State:
    signal = (move - PLAY_BASE) // NUM_CARDS
    card = (move - PLAY_BASE) % NUM_CARDS
    seat = s.current_player
    done = s.tricks_done
    lead = s.trick_len == 0
    trick_cards = s.trick_cards.at[s.trick_len].set(card)
    s = s._replace(
        hands=s.hands.at[seat, card].set(False),
        card_seat=s.card_seat.at[card].set(seat),
        card_trick=s.card_trick.at[card].set(done),
        called_played_by=jnp.where(card == s.called_card, seat, s.called_played_by),
        trick_cards=trick_cards,
        trick_len=s.trick_len + 1,
        trick_signals=s.trick_signals.at[done].set(jnp.where(lead, signal,
                                                             s.trick_signals[done])),
        current_player=(seat + 1) % 4,
    )
    # The fourth card: the trick is won and leaves the table.
    winner = _trick_winner(s.leader, trick_cards)
    points = jnp.asarray(POINTS_OF)[trick_cards].sum()
    next_done = done + 1
    closed = s._replace(
        trick_winners=s.trick_winners.at[done].set(winner),
        thirds_won=s.thirds_won.at[winner].add(points),
        tricks_won=s.tricks_won.at[winner].add(1),
        trick_cards=jnp.full(4, _NONE, _I32),
        trick_len=jnp.asarray(0, _I32),
        tricks_done=next_done,
        leader=winner,
        current_player=winner,
        trick_leaders=s.trick_leaders.at[jnp.minimum(next_done, NUM_TRICKS - 1)].set(
            jnp.where(next_done < NUM_TRICKS, winner, s.trick_leaders[NUM_TRICKS - 1])),
    )
    closed = _select(next_done == NUM_TRICKS, _score(t, closed, winner), closed)
    return _select(s.trick_len == 4, closed, s)


def payments(t: RulesTables, contract, declarer, partner, giver, won, capotto) -> jax.Array:
    """rules.payments as arrays: int32[4], what each seat receives."""
    cap = capotto.astype(_I32)
    opp = jnp.asarray(t.opponent_pays)[cap, contract]
    opponent = (_SEATS != declarer) & (_SEATS != partner)
    pay = jnp.where(opponent, -opp, 0)
    pay = jnp.where((contract == MEDIATORE) & (giver != _NONE) & (_SEATS == giver),
                    -jnp.asarray(t.giver_pays)[cap], pay)
    share = jnp.asarray(t.declarer_share)[cap]
    with_partner = jnp.where(_SEATS == partner, -pay.sum() - share,
                             jnp.where(_SEATS == declarer, share, pay))
    alone = jnp.where(_SEATS == declarer, -pay.sum(), pay)
    pay = jnp.where(partner != _NONE, with_partner, alone)
    return jnp.where(won, pay, -pay)


def _score(t: RulesTables, s: State, last_winner: jax.Array) -> State:
    """Deal._score: the monte and the last trick to the last trick's winner, then payment."""
    monte_thirds = jnp.where(s.monte, jnp.asarray(POINTS_OF), 0).sum()
    thirds = s.thirds_won.at[last_winner].add(LAST_TRICK_THIRDS + monte_thirds)
    side = (_SEATS == s.declarer) | (_SEATS == s.partner)
    side_thirds = jnp.where(side, thirds, 0).sum()
    side_tricks = jnp.where(side, s.tricks_won, 0).sum()
    capotto = (side_tricks == 0) | (side_tricks == NUM_TRICKS)
    pay = payments(t, s.contract, s.declarer, s.partner, s.giver,
                   side_thirds >= WIN_THIRDS, capotto)
    return s._replace(thirds_won=thirds, rewards=pay.astype(jnp.float32),
                      phase=jnp.asarray(END, _I32), current_player=jnp.asarray(_NONE, _I32),
                      terminated=jnp.asarray(True))


# -- the legal moves (Deal.legal_moves) -----------------------------------------------------------

def _top_two_out(t: RulesTables, s: State) -> tuple[jax.Array, jax.Array]:
    """For each card led, the highest and the second-highest card of its suit not yet played
    and not the card itself (rules._holds_highest, _holds_second), -1 when there is none."""
    out = (s.card_seat == _NONE).reshape(4, 10)
    powers = np.arange(10)
    # Powers of the three highest unplayed cards of each suit (-1: none).
    top = []
    for _ in range(3):
        p = jnp.max(jnp.where(out, powers, -1), axis=1)
        top.append(p)
        out = out & (powers[None, :] != p[:, None])
    top1, top2, top3 = (jnp.repeat(p, 10) for p in top)   # by card, of the card's suit
    power = _CARDS % 10
    highest = jnp.where(top1 == power, top2, top1)
    second = jnp.where(top1 == power, top3, jnp.where(top2 == power, top3, top2))
    base = SUIT_OF_CARD * 10

    def card(p):
        return jnp.where(p >= 0, base + p, _NONE)
    return card(highest), card(second)


def _lead_signals(t: RulesTables, s: State, hand: jax.Array) -> jax.Array:
    """bool[9, 40]: which signal may go with each card led from ``hand`` (rules.allowed_signals);
    row 0 (no signal) for every card."""
    kinds = signal_kinds(t.signal_code)
    allowed = [jnp.ones(NUM_CARDS, bool)] + [jnp.zeros(NUM_CARDS, bool)] * (NUM_SIGNALS - 1)
    if not kinds:
        return jnp.stack(allowed)
    in_suit = (hand[None, :] & SUIT_MASK).sum(axis=1)[SUIT_OF_CARD]           # by card led
    low_in_suit = (hand[None, :] & SUIT_MASK & LOW_OF_CARD[None, :]).sum(axis=1)[SUIT_OF_CARD]
    truth = {REQUEST: jnp.ones(NUM_CARDS, bool),
             LAST_OF_SUIT: in_suit == 1,
             LOW_KEPT: low_in_suit - LOW_OF_CARD > 0}
    if {HOLDS_HIGHEST, HOLDS_SECOND} & set(kinds.values()):
        highest, second = _top_two_out(t, s)
        truth[HOLDS_HIGHEST] = (highest != _NONE) & hand[jnp.maximum(highest, 0)]
        truth[HOLDS_SECOND] = (second != _NONE) & hand[jnp.maximum(second, 0)]
    for signal, kind in kinds.items():
        allowed[signal] = truth[kind]
    return jnp.stack(allowed)


def legal_action_mask(t: RulesTables, s: State) -> jax.Array:
    """bool[486]: the legal moves of the seat to move (all False once the deal is over)."""
    seat = jnp.maximum(s.current_player, 0)
    hand = s.hands[seat]
    phase = s.phase
    moves = jnp.asarray(_MOVES)
    auction = (moves == 0) | ((moves > s.high_bid) & (moves <= t.top_contract))
    call = jnp.zeros(CALL_BASE, bool)
    call = jnp.concatenate([call, jnp.asarray(t.callable_cards)])
    declarer_hand = s.hands[jnp.maximum(s.declarer, 0)]
    # Plays: a follow must be of the suit led if the hand holds one; a lead may carry signals.
    led_suit = jnp.maximum(s.trick_cards[0], 0) // 10
    follow = hand & jnp.asarray(SUIT_MASK)[led_suit]
    follow = jnp.where(follow.any(), follow, hand)
    following = s.trick_len > 0
    plain = jnp.where(following, follow, hand)
    # Only a lead carries a signal: a follow has row 0 (no signal) alone.
    signals = _lead_signals(t, s, hand) & ((_SIGNAL_ROW == 0) | ~following)
    plays = (signals & plain[None, :]).reshape(-1)

    def block(base, cards):
        return jnp.zeros(NUM_MOVES, bool).at[base:base + cards.shape[0]].set(cards)

    by_phase = jnp.stack([
        auction,
        block(0, call),
        block(DISCARD_BASE, declarer_hand),
        block(GIVE_BASE, declarer_hand),
        block(PLAY_BASE, plays),
        jnp.zeros(NUM_MOVES, bool),
    ])
    return by_phase[phase]


# -- a step ---------------------------------------------------------------------------------------

def step(t: RulesTables, s: State, action: jax.Array) -> State:
    """The state after the seat to move plays ``action``. A terminated state comes back as it
    is, with zero rewards. An illegal action ends the deal: its mover pays
    ``RulesTables.illegal_penalty`` (the largest payment of the rules) to each other seat."""
    action = jnp.asarray(action, _I32)
    legal = s.legal_action_mask[jnp.clip(action, 0, NUM_MOVES - 1)] & (action >= 0) & (
        action < NUM_MOVES)
    done = s.terminated
    s = s._replace(rewards=jnp.zeros(4, jnp.float32))
    move = jnp.clip(action, 0, NUM_MOVES - 1)
    branches = [lambda st, m, f=f: f(t, st, m) for f in (_bid, _call, _discard, _give, _play)]
    branches.append(lambda st, m: st)
    played = lax.switch(jnp.clip(s.phase, 0, END), branches, s, move)
    played = played._replace(_step_count=s._step_count + 1)
    played = played._replace(legal_action_mask=legal_action_mask(t, played))
    penalty = jnp.where(_SEATS == s.current_player, -3.0, 1.0) * t.illegal_penalty
    refused = s._replace(
        rewards=penalty.astype(jnp.float32), terminated=jnp.asarray(True),
        current_player=jnp.asarray(_NONE, _I32), phase=jnp.asarray(END, _I32),
        legal_action_mask=jnp.zeros(NUM_MOVES, bool), _step_count=s._step_count + 1)
    return _select(done, s, _select(legal, played, refused))
