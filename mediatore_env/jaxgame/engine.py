"""The deal as pure JAX functions: the deal of a pack, the moves of every phase, the legal
mask, the payments. A transcription of :class:`~mediatore_env.mediatore.game.Deal` over the
arrays of :class:`.state.State`; the comments of :func:`_apply` name the Deal method each part
transcribes (``_bid``, ``_call``, ``_take_monte``, ``_start_play``, ``_play``, ``_score``).
What every JAX game does alike (a finished deal, an illegal move, the mask once over) is not
here but in :class:`.core.JaxGame`, which calls :func:`apply` with a flag ``go``: the move is
legal and the deal not over (where it is not, the deal's fields stay as they were). What every
trick game does alike (follow suit, the trick's winner, its points in thirds) is in
:mod:`.tricks`.

No Python ``if`` looks at a traced value: a move is applied by one branch-free function for
every phase (each field computed once with ``jnp.where`` from flags of the phase), so a batch
of deals in mixed phases costs one pass under ``vmap``. Python branches only on the rules,
which are static (:mod:`.tables`).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..core.cards import LAST_TRICK_THIRDS, NUM_CARDS
from ..mediatore.moves import (AUCTION, CALL, CALL_BASE, DISCARD, END, GIVE, NUM_MOVES, PLAY,
                               PLAY_BASE)
from ..mediatore.nine_tricks import NUM_TRICKS, WIN_THIRDS
from ..mediatore.rules import CHIAMO, CONTRACTS, MEDIATORE, NUM_SIGNALS, SOLISSIMO, SOLO
from .state import NONE, State, one_hot, row
from .tables import (HOLDS_HIGHEST, HOLDS_SECOND, LAST_OF_SUIT, LOW_KEPT, LOW_OF_CARD,
                     LOW_POWERS, RECEIVER, REQUEST, RulesTables, signal_kinds)
from .tricks import (POINTS_OF, SUIT_OF_CARD, checked_deal, no_tricks, of_suit, play_card, playable,
                     shuffled_pack)

_I32 = jnp.int32
_SEATS = np.arange(4)
_CARDS = np.arange(NUM_CARDS)
_BIDS = np.arange(CALL_BASE)            # pass and the bids
_TRICKS = np.arange(NUM_TRICKS)
NO_PHASE = -1                           # the phase flags of a move not made (go False)


# -- the deal ------------------------------------------------------------------------------------

def init_from_pack(t: RulesTables, pack: jax.Array, dealer: jax.Array) -> State:
    """The state after dealing ``pack`` (int32[40], card ids in pack order) from ``dealer``:
    batches of three from il mano, the last four cards the monte (nine_tricks.deal_hands)."""
    checked_deal(pack, dealer, None, 4)
    pack = jnp.asarray(pack, _I32)
    dealer = jnp.asarray(dealer, _I32)
    receiver = jnp.zeros(NUM_CARDS, _I32).at[pack].set(jnp.asarray(RECEIVER)[dealer])
    hands = receiver[None, :] == _SEATS[:, None]
    monte = receiver == 4
    none = jnp.asarray(NONE, _I32)
    zero = jnp.asarray(0, _I32)
    state = State.start(
        (dealer + 1) % 4, jnp.zeros(NUM_MOVES, bool), 4,    # the mask: below, from the state
        dealer=dealer,
        phase=jnp.asarray(AUCTION, _I32),
        hands=hands,
        monte=monte,
        original_monte=monte,
        bids=jnp.zeros((len(CONTRACTS), 4), bool),
        calls=zero, high_bid=zero, high_bidder=none, passes=zero,
        contract=zero, declarer=none, called_card=none, holder=none, partner=none,
        giver=none, given_back=none,
        discards=jnp.zeros(NUM_CARDS, bool),
        trick_signals=jnp.zeros(NUM_TRICKS, _I32),
        **no_tricks(4, NUM_TRICKS, none),
        called_played_by=none,
    )
    return state._replace(legal_action_mask=legal_action_mask(t, state))


def init(t: RulesTables, key: jax.Array) -> State:
    """A deal of a pack shuffled by ``key``, from a dealer drawn by ``key``."""
    pack_key, dealer_key = jax.random.split(key)
    return init_from_pack(t, shuffled_pack(pack_key),
                          jax.random.randint(dealer_key, (), 0, 4))


# -- a move (Deal._apply and the methods it calls) ------------------------------------------------
#
# One function for every phase, pgx style: each field of the state is computed once, from
# flags that say which phase the move is of and what it sets off (the auction won, the
# exchange done, the play started, the trick complete, the deal over). Under vmap a batch in
# mixed phases then costs one pass over the state, not one per phase. Sets of cards and seats
# change by one-hot masks rather than scatters (cheaper on every backend for arrays this small).
# A move not to be made (``go`` False: core.JaxGame.step found it illegal, or the deal over)
# turns every phase flag off, so every field stays as it was at no extra cost.

def payments(t: RulesTables, contract, declarer, partner, giver, won, capotto) -> jax.Array:
    """rules.payments as arrays: int32[4], what each seat receives."""
    cap = capotto.astype(_I32)
    opp = jnp.asarray(t.opponent_pays)[cap, contract]
    opponent = (_SEATS != declarer) & (_SEATS != partner)
    pay = jnp.where(opponent, -opp, 0)
    pay = jnp.where((contract == MEDIATORE) & (giver != NONE) & (_SEATS == giver),
                    -jnp.asarray(t.giver_pays)[cap], pay)
    share = jnp.asarray(t.declarer_share)[cap]
    with_partner = jnp.where(_SEATS == partner, -pay.sum() - share,
                             jnp.where(_SEATS == declarer, share, pay))
    alone = jnp.where(_SEATS == declarer, -pay.sum(), pay)
    pay = jnp.where(partner != NONE, with_partner, alone)
    return jnp.where(won, pay, -pay)


def _apply(t: RulesTables, s: State, move: jax.Array, go: jax.Array) -> State:
    """The state after the seat to move plays ``move``, known to be legal, if ``go``; else the
    deal as it was (Deal._apply)."""
    seat = s.current_player
    phase = jnp.where(go, s.phase, NO_PHASE)
    bidding, calling = phase == AUCTION, phase == CALL
    discarding, giving, playing = phase == DISCARD, phase == GIVE, phase == PLAY
    card = (move - CALL_BASE) % NUM_CARDS      # the card of a call, discard, give or play
    card_bit = one_hot(card, NUM_CARDS)
    seat_bit = one_hot(seat, 4)

    # Deal._bid: a bid or a pass; four passes throw the deal in, three after a bid end it.
    bid = bidding & (move != 0)
    passed = bidding & (move == 0)
    bids = s.bids | (bid & one_hot(move - 1, len(CONTRACTS))[:, None] & seat_bit[None, :])
    calls = s.calls + bidding
    high_bid = jnp.where(bid, move, s.high_bid)
    high_bidder = jnp.where(bid, seat, s.high_bidder)
    passes = jnp.where(bid, 0, s.passes + (passed & (s.high_bid > 0)))
    thrown_in = passed & (high_bid == 0) & (calls == 4)
    auction_won = passed & (high_bid > 0) & (passes == 3)
    # Deal._end_auction.
    contract = jnp.where(auction_won, high_bid, s.contract)
    declarer = jnp.where(auction_won, high_bidder, s.declarer)
    declarer_bit = one_hot(declarer, 4)

    # Deal._call: Chiamo's holder of the called card is the partner, Mediatore's gives it.
    held = s.hands[:, card] & calling
    holder = jnp.where(held.any(), jnp.argmax(held), NONE)
    other = held.any() & (holder != declarer)
    chiamo = contract == CHIAMO
    called_card = jnp.where(calling, card, s.called_card)
    partner = jnp.where(calling & chiamo & other, holder, s.partner)
    handed = calling & ~chiamo & other
    giver = jnp.where(handed, holder, s.giver)

    # Deal._take_monte: Solo at once, Mediatore and (unless blind) Chiamo after the call.
    takes = (auction_won & (contract == SOLO)) | (calling & (~chiamo | t.chiamo_monte))

    # The exchange: a discard, the give back; a card played leaves the hand too.
    discards = s.discards | (discarding & card_bit)
    exchanged = discarding & (discards.sum() == 4)
    monte = jnp.where(exchanged, discards, jnp.where(takes, False, s.monte))
    given_back = jnp.where(giving, card, s.given_back)

    # The hands: a move takes at most the one card from one hand (the called card from its
    # holder, a card discarded, given back or played from its seat's) and gives cards to at
    # most one hand (the called card and the monte to the declarer, the card given back to the
    # giver), so the four hands change by one outer product each way.
    loses = jnp.where(handed, held, (discarding | giving | playing) & seat_bit)
    gains = jnp.where(handed | takes, declarer_bit, giving & one_hot(s.giver, 4))
    given = ((handed | giving) & card_bit) | (takes & s.monte)
    hands = (s.hands & ~(loses[:, None] & card_bit[None, :])) | (gains[:, None] & given[None, :])

    # Deal._start_play.
    starts = ((auction_won & (contract >= SOLISSIMO)) | (calling & chiamo & (not t.chiamo_monte))
              | (exchanged & (giver == NONE)) | giving)
    mano = (s.dealer + 1) % 4
    first = jnp.where(jnp.asarray(t.leads_first)[contract], declarer, mano)

    # Deal._play: the card to the trick (tricks.play_card: the fourth card wins it for the best
    # of the suit led); the lead's signal; who played the called card.
    signal = (move - PLAY_BASE) // NUM_CARDS
    played = play_card(s, seat, card, playing)
    trick_signals = jnp.where(played.lead & one_hot(s.tricks_done, NUM_TRICKS), signal,
                              s.trick_signals)
    called_played_by = jnp.where(playing & (card == s.called_card), seat, s.called_played_by)
    closes, winner, winner_bit = played.closes, played.winner, played.winner_bit
    tricks_done, thirds_won = played.fields["tricks_done"], played.fields["thirds_won"]
    trick_leaders = jnp.where(starts & (_TRICKS == 0), first, played.fields["trick_leaders"])
    leader = jnp.where(starts, first, played.fields["leader"])

    # Deal._score: the monte and the last trick to the last trick's winner, then payment.
    scored = closes & (tricks_done == NUM_TRICKS)
    monte_thirds = jnp.where(monte, jnp.asarray(POINTS_OF), 0).sum()
    thirds_won = thirds_won + jnp.where(scored & winner_bit, LAST_TRICK_THIRDS + monte_thirds, 0)
    side = (_SEATS == declarer) | (_SEATS == partner)
    side_tricks = jnp.where(side, played.fields["tricks_won"], 0).sum()
    pay = payments(t, contract, declarer, partner, giver,
                   jnp.where(side, thirds_won, 0).sum() >= WIN_THIRDS,
                   (side_tricks == 0) | (side_tricks == NUM_TRICKS))
    ended = thrown_in | scored

    # Who moves next, and in which phase.
    to_move = jnp.where(bidding | playing, (seat + 1) % 4, seat)
    to_move = jnp.where(auction_won, declarer, to_move)
    to_move = jnp.where(starts, first, jnp.where(closes, winner, to_move))
    to_move = jnp.where(ended, NONE, to_move)
    next_phase = jnp.where(contract <= MEDIATORE, CALL, DISCARD)   # after the auction
    new_phase = jnp.where(auction_won, next_phase, s.phase)
    new_phase = jnp.where(takes, DISCARD, new_phase)
    new_phase = jnp.where(exchanged & (giver != NONE), GIVE, new_phase)
    new_phase = jnp.where(starts, PLAY, new_phase)
    new_phase = jnp.where(ended, END, new_phase)
    return s._replace(**played.fields)._replace(
        current_player=to_move.astype(_I32), rewards=jnp.where(scored, pay, 0).astype(jnp.float32),
        terminated=s.terminated | ended, phase=new_phase.astype(_I32), hands=hands, monte=monte,
        bids=bids, calls=calls, high_bid=high_bid, high_bidder=high_bidder, passes=passes,
        contract=contract, declarer=declarer, called_card=called_card,
        holder=jnp.where(calling, holder, s.holder).astype(_I32), partner=partner.astype(_I32),
        giver=giver.astype(_I32), given_back=given_back, discards=discards, leader=leader,
        trick_leaders=trick_leaders, trick_signals=trick_signals, thirds_won=thirds_won,
        called_played_by=called_played_by)


# -- the legal moves (Deal.legal_moves) -----------------------------------------------------------

def _top_two_out(s: State) -> tuple[jax.Array, jax.Array]:
    """For each card led, the highest and the second-highest card of its suit not yet played
    and not the card itself (rules._holds_highest, _holds_second), -1 when there is none."""
    out = (s.card_seat == NONE).reshape(4, 10)
    powers = np.arange(10)
    # Powers of the three highest unplayed cards of each suit (-1: none).
    top = []
    for _ in range(3):
        p = jnp.max(jnp.where(out, powers, -1), axis=1)
        top.append(p)
        out = out & (powers[None, :] != p[:, None])
    top1, top2, top3 = (of_suit(p) for p in top)   # by card, of the card's suit
    power = _CARDS % 10
    highest = jnp.where(top1 == power, top2, top1)
    second = jnp.where(top1 == power, top3, jnp.where(top2 == power, top3, top2))
    base = SUIT_OF_CARD * 10

    def card(p):
        return jnp.where(p >= 0, base + p, NONE)
    return card(highest), card(second)


def _lead_signals(t: RulesTables, s: State, hand: jax.Array) -> jax.Array:
    """bool[9, 40]: which signal may go with each card led from ``hand`` (rules.allowed_signals);
    row 0 (no signal) for every card."""
    kinds = signal_kinds(t.signal_code)
    allowed = [jnp.ones(NUM_CARDS, bool)] + [jnp.zeros(NUM_CARDS, bool)] * (NUM_SIGNALS - 1)
    if not kinds:
        return jnp.stack(allowed)
    # By card led: the hand's cards of its suit, and its low ones (Re or lower: the first
    # seven powers); a suit is ten consecutive card ids.
    by_suit = hand.reshape(4, 10)
    in_suit = of_suit(by_suit.sum(axis=1, dtype=_I32))
    low_in_suit = of_suit(by_suit[:, :LOW_POWERS].sum(axis=1, dtype=_I32))
    truth = {REQUEST: jnp.ones(NUM_CARDS, bool),
             LAST_OF_SUIT: in_suit == 1,
             LOW_KEPT: low_in_suit - LOW_OF_CARD > 0}
    if {HOLDS_HIGHEST, HOLDS_SECOND} & set(kinds.values()):
        highest, second = _top_two_out(s)
        truth[HOLDS_HIGHEST] = (highest != NONE) & hand[jnp.maximum(highest, 0)]
        truth[HOLDS_SECOND] = (second != NONE) & hand[jnp.maximum(second, 0)]
    for signal, kind in kinds.items():
        allowed[signal] = truth[kind]
    return jnp.stack(allowed)


def legal_action_mask(t: RulesTables, s: State) -> jax.Array:
    """bool[486]: the legal moves of the seat to move (none once the deal is over: the step of
    core.JaxGame then sets them all, pgx's convention). Built as the blocks of the move ids
    (bids, calls, discards, gives, plays), each on in its phase."""
    phase = s.phase
    hand = row(s.hands, s.current_player)
    declarer_hand = row(s.hands, s.declarer)
    bids = (phase == AUCTION) & ((_BIDS == 0) | ((_BIDS > s.high_bid) & (_BIDS <= t.top_contract)))
    calls = (phase == CALL) & jnp.asarray(t.callable_cards)
    discards = (phase == DISCARD) & declarer_hand
    gives = (phase == GIVE) & declarer_hand
    # Plays: a follow must be of the suit led if the hand holds one; only a lead has signals.
    plain = (phase == PLAY) & playable(hand, s.trick_cards, s.trick_len)
    leads = plain & (s.trick_len == 0)
    signals = _lead_signals(t, s, hand)
    plays = jnp.concatenate([plain[None, :], signals[1:] & leads[None, :]])
    return jnp.concatenate([bids, calls, discards, gives, plays.reshape(-1)])


# -- a step ---------------------------------------------------------------------------------------

def apply(t: RulesTables, s: State, move: jax.Array, go=True) -> State:
    """Deal.apply of a legal ``move`` if ``go`` (else the deal as it was): the state after the
    seat to move plays it, with the next legal mask (the game's ``_move``; core.JaxGame.step
    checks the move first)."""
    s = _apply(t, s, move, jnp.asarray(go))
    return s._replace(legal_action_mask=legal_action_mask(t, s))
