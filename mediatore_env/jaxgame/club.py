"""Club Mediatore in JAX: a whole session (antes, the mediator, the call, the widow, nine
tricks, the pot matched and taken or carried, deal after deal) as pure array functions.

A transcription of :class:`~mediatore_env.club.game.Session` (the reference for every
behaviour: ``tests/test_jax_club.py`` holds the two equal move by move), under the same names;
its observation is :mod:`mediatore_env.club.observation`'s (layout version 1), value for
value::

    import jax
    from mediatore_env.club.rules import ClubRules
    from mediatore_env.jaxgame.club import ClubJax

    env = ClubJax(ClubRules(deals=3))
    state = env.init(jax.random.PRNGKey(0))   # a first dealer and every deal's pack
    state = env.step(state, action)           # a move id of club/moves.py (0..122)
    obs = env.observe(state, seat)            # float32[1932]

One session is one episode, as in ``club_mediatore_v0``; the next deal is dealt within the
step that ends a deal. The rewards are the environment's: on the step that ends a deal, each
seat's change in chips over that deal (its ante, its matching, its share of a pot won, and at
the session's end the standing pot returned), so a seat's rewards add up to its chips over the
session, which sum to zero. An illegal move ends the session, its mover paying
``illegal_penalty`` to each other seat (:mod:`.core`): the most a seat can win or lose in a
deal, the largest pot a mediator can match (4 antes doubled once per deal before the last).

Chips are int32 and rewards float32, exact up to 2^24 chips: a table whose pots could grow
past that (``ante * 2^(deals + 1) > 2^24``: more than 20 deals at 5 chips) is refused. A
number of chips is observed as ``log2(1 + chips) / 32`` (observation.chip_value), which the
Python writer computes in double precision and stores as float32; :func:`chip_value` computes
the same float32 with integer arithmetic only (a float32 logarithm would be off in the last
bit now and then).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal, localcontext

import jax
import jax.numpy as jnp
import numpy as np

from ..club.moves import (ACCEPT, ALONE, AUCTION, CALL, CALL_BASE, DISCARD, DISCARD_BASE, END,
                          NUM_MOVES, PASS, PHASES, PLAY, PLAY_BASE)
from ..club.observation import LAYOUT, OBSERVATION_SIZE, chip_value as py_chip_value
from ..club.rules import ClubRules
from ..core.cards import LAST_TRICK_THIRDS, NUM_CARDS
from ..mediatore.nine_tricks import DISCARDS, NUM_TRICKS, WIN_THIRDS
from .core import NONE, JaxGame, one_hot
from .observe import seat_blocks
from .tables import RECEIVER, THIRDS_VALUE, TRICKS_VALUE
from .tricks import (POINTS_OF, TrickState, checked_deal, no_tricks, play_card, playable,
                     shuffled_pack)

_I32, _F32, _U32 = jnp.int32, jnp.float32, jnp.uint32
_SEATS = np.arange(4)
_PHASE_INDEX = np.full(max(PHASES) + 1, -1, np.int32)
_PHASE_INDEX[list(PHASES)] = np.arange(len(PHASES))
#: Chips a JAX table may count up to: rewards are float32, exact on integers up to 2^24.
MAX_CHIPS = 2 ** 24
NO_PHASE = -1  # the phase flags of a move not made (go False)


@dataclass(frozen=True)
class ClubTables:
    """What a table's rules are for the traced functions, settled before tracing."""

    rules: ClubRules
    max_deals: int
    illegal_penalty: int
    rules_block: np.ndarray   # float32[2]: the observation's rules block
    deal_value: np.ndarray    # float32[max_deals + 1]: k / max_deals, as the writer has it

    @classmethod
    def of(cls, rules: ClubRules) -> "ClubTables":
        deals = rules.max_deals
        if rules.ante * 2 ** (deals + 1) > MAX_CHIPS:
            raise ValueError(
                f"the JAX engine counts chips exactly up to 2^24: ante {rules.ante} over "
                f"{deals} deals could grow a pot past that (ante * 2^(deals + 1) must be at "
                f"most 2^24, e.g. at most 20 deals at an ante of 5)")
        return cls(rules=rules, max_deals=deals,
                   illegal_penalty=rules.first_pot * 2 ** (deals - 1),
                   rules_block=np.array([py_chip_value(rules.ante), rules.until_won], np.float32),
                   deal_value=np.array([k / deals for k in range(deals + 1)], np.float32))


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class ClubState(TrickState):
    """A session: :class:`.core.State`'s fields (``rewards``: each seat's chips over the deal
    on the step that ends a deal), :class:`.tricks.TrickState`'s for the deal in play (4 seats,
    9 tricks), then Session's own fields of the same names. ``D`` = the rules' most deals."""

    packs: jax.Array                # int8[D, 40]: the pack of each deal, in pack order
    first_dealer: jax.Array         # int32
    dealer: jax.Array               # int32: the dealer of the deal in play
    deal_number: jax.Array          # int32: deals dealt so far (1 during the first)
    phase: jax.Array                # int32: AUCTION, CALL, DISCARD, PLAY (moves.py), END
    hands: jax.Array                # bool[4, 40]
    widow: jax.Array                # bool[40]
    passed: jax.Array               # bool[4]: the seats that passed in this deal's choosing
    mediator: jax.Array             # int32
    pot_accepted: jax.Array         # int32: the pot when the mediator accepted
    announced_alone: jax.Array      # bool
    called_card: jax.Array          # int32
    partner: jax.Array              # int32: the holder of the called card (-1: none)
    alone: jax.Array                # int32: -1 before the call, else 1 alone, 0 with a partner
    discards: jax.Array             # bool[40]
    called_played_by: jax.Array     # int32
    chips: jax.Array                # int32[4]: each seat's change in chips so far
    stakes: jax.Array               # int32[4]: what each seat has put into the standing pot
    deal_start: jax.Array           # int32[4]: chips when the deal in play started


# -- the deal ------------------------------------------------------------------------------------

def _deal_fields(t: ClubTables, packs, number, dealer, chips, stakes) -> dict:
    """Deal ``number`` (1 for the first) by ``dealer`` (Session._start_deal, _deal): the antes
    into an empty pot, the hands and the widow, the seat after the dealer to speak."""
    pack = packs[jnp.minimum(number, t.max_deals) - 1].astype(_I32)
    receiver = jnp.zeros(NUM_CARDS, _I32).at[pack].set(jnp.asarray(RECEIVER)[dealer])
    ante = jnp.where(stakes.any(), 0, t.rules.ante)
    none = jnp.asarray(NONE, _I32)
    return dict(
        current_player=((dealer + 1) % 4).astype(_I32), deal_number=number, dealer=dealer,
        phase=jnp.asarray(AUCTION, _I32), hands=receiver[None, :] == _SEATS[:, None],
        widow=receiver == 4, passed=jnp.zeros(4, bool), mediator=none,
        pot_accepted=jnp.asarray(0, _I32), announced_alone=jnp.asarray(False),
        called_card=none, partner=none, alone=none, discards=jnp.zeros(NUM_CARDS, bool),
        called_played_by=none, chips=chips - ante, stakes=stakes + ante, deal_start=chips,
        **no_tricks(4, NUM_TRICKS, none))


def init_from_packs(t: ClubTables, packs, dealer) -> ClubState:
    """The session whose deals are dealt from ``packs`` (int[D, 40], card ids in pack order),
    the first by ``dealer``."""
    checked_deal(packs, dealer, t.max_deals, 4, per="deal")
    packs = jnp.asarray(packs).astype(jnp.int8)
    dealer = jnp.asarray(dealer, _I32)
    zero = jnp.zeros(4, _I32)
    deal = _deal_fields(t, packs, jnp.asarray(1, _I32), dealer, zero, zero)
    state = ClubState.start(deal.pop("current_player"), jnp.zeros(NUM_MOVES, bool), 4,
                            packs=packs, first_dealer=dealer, **deal)
    return state._replace(legal_action_mask=legal_action_mask(t, state))


def init(t: ClubTables, key) -> ClubState:
    """A session from ``key``: the first dealer, and a shuffled pack for every deal it can
    have."""
    pack_key, dealer_key = jax.random.split(key)
    packs = jax.vmap(shuffled_pack)(jax.random.split(pack_key, t.max_deals))
    return init_from_packs(t, packs, jax.random.randint(dealer_key, (), 0, 4))


def shares(chips, partner) -> tuple[jax.Array, jax.Array]:
    """rules.shares: (the mediator's part, the partner's part) of ``chips``: alone all of it,
    with a partner half each, the odd chip the mediator's."""
    half = jnp.where(partner, chips // 2, 0)
    return chips - half, half


# -- a move (Session._apply and the methods it calls) --------------------------------------------
#
# One branch-free function for every phase, as Mediatore's engine (engine.py); ``go`` False
# (the move illegal, or the session over: core.JaxGame.step) turns every phase flag off.

def _apply(t: ClubTables, s: ClubState, move, go) -> ClubState:
    seat = s.current_player
    phase = jnp.where(go, s.phase, NO_PHASE)
    choosing, calling = phase == AUCTION, phase == CALL
    discarding, playing = phase == DISCARD, phase == PLAY
    card = (move - CALL_BASE) % NUM_CARDS      # the card of a call, discard or play
    card_bit = one_hot(card, NUM_CARDS)
    seat_bit = one_hot(seat, 4)

    # Session._choose: the first to accept is the mediator; four passes end the deal.
    accepts = choosing & (move == ACCEPT)
    passed = s.passed | (choosing & (move == PASS) & seat_bit)
    all_passed = choosing & (move == PASS) & (passed.sum() == 4)
    mediator = jnp.where(accepts, seat, s.mediator)
    pot_accepted = jnp.where(accepts, s.stakes.sum(), s.pot_accepted)
    mediator_bit = one_hot(mediator, 4)

    # Session._call: alone, or a card whose holder is the secret partner (none: the widow's,
    # and the mediator plays alone); the mediator takes the widow.
    named = calling & (move != ALONE)
    held = (s.hands & card_bit[None, :]).any(axis=1) & named
    holder = jnp.where(held.any(), jnp.argmax(held), NONE)
    called_card = jnp.where(named, card, s.called_card)
    announced_alone = jnp.where(calling, move == ALONE, s.announced_alone)
    partner = jnp.where(calling, holder, s.partner)
    alone = jnp.where(calling, (holder == NONE).astype(_I32), s.alone)
    hands = s.hands | (calling & mediator_bit[:, None] & s.widow[None, :])

    # The discards; a card played leaves the hand too.
    hands = hands & ~((discarding | playing) & seat_bit[:, None] & card_bit[None, :])
    discards = s.discards | (discarding & card_bit)
    exchanged = discarding & (discards.sum() == DISCARDS)
    mano = (s.dealer + 1) % 4

    # Session._play: the card to the trick (tricks.play_card); after the ninth trick its point
    # to its winner, the discards' to the mediator.
    played = play_card(s, seat, card, playing)
    closes, winner = played.closes, played.winner
    last_trick = closes & (played.fields["tricks_done"] == NUM_TRICKS)
    thirds_won = (played.fields["thirds_won"]
                  + jnp.where(last_trick & played.winner_bit, LAST_TRICK_THIRDS, 0)
                  + jnp.where(last_trick & mediator_bit,
                              jnp.where(discards, jnp.asarray(POINTS_OF), 0).sum(), 0))
    called_played_by = jnp.where(playing & (card == s.called_card), seat, s.called_played_by)

    # Session._end_deal: the pot matched (settled now, so that paying reveals no partner), and
    # won or carried; the standing pot back as it was put in after the session's last deal.
    with_partner = partner != NONE
    partner_bit = one_hot(partner, 4)
    matched_mediator, matched_partner = shares(pot_accepted, with_partner)
    matched = jnp.where(last_trick, mediator_bit * matched_mediator
                        + partner_bit * matched_partner, 0)
    stakes = s.stakes + matched
    chips = s.chips - matched
    side = mediator_bit | partner_bit
    won = last_trick & (jnp.where(side, thirds_won, 0).sum() >= WIN_THIRDS)
    taken_mediator, taken_partner = shares(stakes.sum(), with_partner)
    chips = chips + jnp.where(won, mediator_bit * taken_mediator + partner_bit * taken_partner, 0)
    stakes = jnp.where(won, 0, stakes)
    deal_over = all_passed | last_trick
    last = deal_over & ((won & t.rules.until_won) | (s.deal_number == t.max_deals))
    chips = chips + jnp.where(last, stakes, 0)
    stakes = jnp.where(last, 0, stakes)
    rewards = jnp.where(deal_over, chips - s.deal_start, 0)

    # Who moves next, and in which phase.
    to_move = jnp.where(choosing & ~accepts | playing, (seat + 1) % 4, seat)
    to_move = jnp.where(exchanged, mano, jnp.where(closes, winner, to_move))
    new_phase = jnp.where(accepts, CALL, s.phase)
    new_phase = jnp.where(calling, DISCARD, new_phase)
    new_phase = jnp.where(exchanged, PLAY, new_phase)
    new_phase = jnp.where(last, END, new_phase)
    out = s._replace(**played.fields)._replace(
        current_player=jnp.where(last, NONE, to_move).astype(_I32),
        rewards=rewards.astype(_F32), terminated=s.terminated | last,
        phase=new_phase.astype(_I32), hands=hands, passed=passed,
        mediator=mediator.astype(_I32), pot_accepted=pot_accepted.astype(_I32),
        announced_alone=announced_alone, called_card=called_card.astype(_I32),
        partner=partner.astype(_I32), alone=alone, discards=discards,
        called_played_by=called_played_by.astype(_I32), chips=chips.astype(_I32),
        stakes=stakes.astype(_I32), thirds_won=thirds_won,
        leader=jnp.where(exchanged, mano, played.fields["leader"]).astype(_I32),
        trick_leaders=jnp.where(exchanged & (np.arange(NUM_TRICKS) == 0), mano,
                                played.fields["trick_leaders"]))

    # The next deal: by the same dealer after four passes, else by the next seat.
    next_deal = deal_over & ~last
    dealer = jnp.where(all_passed, s.dealer, (s.dealer + 1) % 4)
    fresh = _deal_fields(t, s.packs, s.deal_number + 1, dealer, out.chips, out.stakes)
    return out._replace(**{name: jnp.where(next_deal, value, getattr(out, name))
                           for name, value in fresh.items()})


def legal_action_mask(t: ClubTables, s: ClubState) -> jax.Array:
    """bool[123]: Session.legal_moves, as the blocks of the move ids (pass and accept, alone
    and the calls, the discards, the plays), each on in its phase."""
    phase = s.phase
    hand = (s.hands & one_hot(s.current_player, 4)[:, None]).any(axis=0)
    mediator_hand = (s.hands & one_hot(s.mediator, 4)[:, None]).any(axis=0)
    choose = jnp.broadcast_to(phase == AUCTION, (2,))
    alone = (phase == CALL)[None]
    calls = (phase == CALL) & ~mediator_hand
    discards = (phase == DISCARD) & mediator_hand
    plays = (phase == PLAY) & playable(hand, s.trick_cards, s.trick_len)
    mask = jnp.concatenate([choose, alone, calls, discards, plays])
    assert mask.shape == (NUM_MOVES,) and PASS == 0 and ACCEPT == 1 and ALONE == 2
    assert CALL_BASE == 3 and DISCARD_BASE == 43 and PLAY_BASE == 83
    return mask


def apply(t: ClubTables, s: ClubState, move, go=True) -> ClubState:
    """The state after the seat to move makes ``move`` (legal) if ``go``, with the next mask."""
    s = _apply(t, s, move, jnp.asarray(go))
    return s._replace(legal_action_mask=legal_action_mask(t, s))


# -- chip values, exactly (observation.chip_value) -----------------------------------------------
#
# chip_value(x) = float32(log2(1 + x) / 32), the logarithm in double precision. Here: n = 1 + x
# = 2^e * m with m in [1, 2); log2(m) by multiplicative normalisation (m is approached from
# below by a product of factors 1 + 2^-i, i = 1..56, each taken once if it still fits, and
# log2(m) is the sum of their logarithms, from a table) in fixed point on pairs of uint32: m
# with 62 fractional bits, the logarithm with 64; then e + log2(m) rounded to float32's 24
# bits, to nearest, ties to even, and divided by 32 (exact). The error before rounding is
# below 2^-50, so it rounds as the double does but for values within that of a rounding
# boundary (tests/test_jax_club.py checks every chip count to 2^18 and random ones to 2^31;
# every one to 2^24 was checked once, offline).

_STEPS = 56


def _log_table() -> tuple[np.ndarray, np.ndarray]:
    """log2(1 + 2^-i) for i = 1.._STEPS, to 64 fractional bits, as (high, low) uint32 words."""
    with localcontext() as context:
        context.prec = 60
        fixed = [int(((Decimal(1) + Decimal(2) ** -i).ln() / Decimal(2).ln()
                      * Decimal(2) ** 64).to_integral_value()) for i in range(1, _STEPS + 1)]
    return (np.array([f >> 32 for f in fixed], np.uint32),
            np.array([f & 0xFFFFFFFF for f in fixed], np.uint32))


_LOG_HIGH, _LOG_LOW = _log_table()


def _add(high, low, add_high, add_low):
    """(high, low) + (add_high, add_low), 64-bit numbers as pairs of uint32 words."""
    total = low + add_low
    return high + add_high + (total < low).astype(_U32), total


def chip_value(chips: jax.Array) -> jax.Array:
    """observation.chip_value of ``chips`` (int32 >= 0, any shape), bit for bit, as float32."""
    n = chips.astype(_U32) + _U32(1)
    e = (31 - jax.lax.clz(n)).astype(_I32)               # n = 2^e * m
    m_high = n << (30 - e).astype(_U32)                  # m: high word, 2 integer bits

    def factor(i, carry):
        p_high, p_low, l_high, l_low = carry
        shift = (i + 1).astype(_U32)                     # p * (1 + 2^-shift) = p + p >> shift
        wide = shift >= 32
        s_high = jnp.where(wide, _U32(0), p_high >> jnp.minimum(shift, 31))
        s_low = jnp.where(wide, p_high >> jnp.clip(shift - 32, 0, 31),
                          (p_low >> jnp.minimum(shift, 31))
                          | (p_high << jnp.clip(32 - shift, 1, 31)))
        q_high, q_low = _add(p_high, p_low, s_high, s_low)
        fits = (q_high < m_high) | ((q_high == m_high) & (q_low == 0))
        n_high, n_low = _add(l_high, l_low, jnp.asarray(_LOG_HIGH)[i], jnp.asarray(_LOG_LOW)[i])
        return (jnp.where(fits, q_high, p_high), jnp.where(fits, q_low, p_low),
                jnp.where(fits, n_high, l_high), jnp.where(fits, n_low, l_low))

    one, zero = jnp.full_like(n, _U32(1 << 30)), jnp.zeros_like(n)
    _, _, l_high, l_low = jax.lax.fori_loop(0, _STEPS, factor, (one, zero, zero, zero))
    # e + log2(m) to 24 significant bits: e's bits above log2(m)'s top bits, the rest rounded.
    top = (31 - jax.lax.clz(jnp.maximum(e, 1).astype(_U32))).astype(_I32)  # e in [2^top, ..)
    shift = (9 + top).astype(_U32)                       # log2(m)'s bits below float32's
    kept = l_high >> shift
    rest = l_high & ((_U32(1) << shift) - _U32(1))
    half = _U32(1) << (shift - _U32(1))
    up = (rest > half) | ((rest == half) & ((l_low > 0) | ((kept & _U32(1)) > 0)))
    mantissa = (e.astype(_U32) << (23 - top).astype(_U32)) + kept + up.astype(_U32)
    # 2^(top - 23) / 32, built from its bits (an exp2 would be approximate).
    scale = jax.lax.bitcast_convert_type(((127 + top - 23 - 5) << 23).astype(_I32), _F32)
    return jnp.where(e > 0, mantissa.astype(_F32) * scale, 0.0)


# -- the observation (club/observation.py's layout, value for value) ----------------------------

def observe(t: ClubTables, s: ClubState, seat) -> jax.Array:
    """float32[1932]: what ``seat`` knows (observation.write_observation, ClubView)."""
    me = jnp.asarray(seat, _I32)

    def rel(abs_seat):
        """One-hot of ``abs_seat`` as the observer sees it (all False for -1)."""
        return one_hot(jnp.where(abs_seat == NONE, NONE, (abs_seat - me) % 4), 4)

    rel_seats = (me + _SEATS) % 4
    before_play = (s.phase == AUCTION) | (s.phase == CALL)
    over = s.phase == END
    # ClubView: what the seat knows of the partnership, the widow, the discards.
    alone = jnp.where(before_play, NONE, s.alone)
    partner = jnp.where(before_play | ((me != s.partner) & (s.called_played_by == NONE) & ~over),
                        NONE, s.partner)
    called = (s.mediator != NONE) & ~before_play
    side = one_hot(s.mediator, 4) | one_hot(partner, 4)
    ours = jnp.where(side, s.thirds_won, 0).sum()
    sides_known = (s.mediator != NONE) & ((alone == 1) | (partner != NONE))
    # The chip values: the pot, the pot to match, the stakes, the gains and the losses.
    values = chip_value(jnp.concatenate([
        s.stakes.sum()[None], s.pot_accepted[None], s.stakes[rel_seats],
        jnp.maximum(s.chips[rel_seats], 0), jnp.maximum(-s.chips[rel_seats], 0)]))
    by_seat, thirds_rel, tricks_rel = seat_blocks(s, me)
    by_seat = jnp.concatenate([
        by_seat[:, :-2].astype(_F32), jnp.asarray(THIRDS_VALUE)[thirds_rel][:, None],
        jnp.asarray(TRICKS_VALUE)[tricks_rel][:, None]], axis=1)
    blocks = {
        "rules": jnp.asarray(t.rules_block),
        "deal": jnp.asarray(t.deal_value)[s.deal_number - 1][None],
        "dealer": rel(s.dealer),
        "phase": one_hot(jnp.asarray(_PHASE_INDEX)[s.phase], len(PHASES)),
        "to_move": rel(s.current_player),
        "hand": s.hands[me],
        "passed": s.passed[rel_seats],
        "mediator": rel(s.mediator),
        "call": called & jnp.stack([s.announced_alone, ~s.announced_alone]),
        "called_card": called & one_hot(s.called_card, NUM_CARDS),
        "partnership": jnp.concatenate([jnp.stack([alone == 1, alone == 0]), rel(partner)]),
        "widow": s.widow & (me == s.mediator) & ~before_play,
        "discards": s.discards & ((me == s.mediator) | over),
        "pot": values[:1], "to_match": values[1:2], "stakes": values[2:6],
        "chips": values[6:14],
        "side_thirds": jnp.where(sides_known, jnp.asarray(THIRDS_VALUE)[
            jnp.stack([ours, s.thirds_won.sum() - ours])], 0.0),
        "played": s.card_seat != NONE,
    }
    out = jnp.concatenate([blocks[name].reshape(-1).astype(_F32)
                           for name, _, _ in LAYOUT if name in blocks] + [by_seat.reshape(-1)])
    assert out.shape == (OBSERVATION_SIZE,)
    return out


class ClubJax(JaxGame):
    """A session of club Mediatore under ``rules`` (a ClubRules, a dict of switches or None
    for the default table), as pure JAX functions (see the module docstring)."""

    num_players = 4
    num_actions = NUM_MOVES
    observation_shape = (OBSERVATION_SIZE,)

    def __init__(self, rules=None):
        self.rules = ClubRules.coerce(rules)
        self.tables = ClubTables.of(self.rules)
        self.illegal_penalty = self.tables.illegal_penalty

    @property
    def reward_unit(self) -> float:
        """The first pot (``ClubRules.first_pot``), the definition's reward unit."""
        return self.rules.first_pot

    def init_from_packs(self, packs, dealer) -> ClubState:
        """The session of ``packs`` (int[deals, 40]: each deal's pack in pack order, a deal
        all four passed included; rows the session does not reach are never read) whose
        first deal ``dealer`` deals."""
        return init_from_packs(self.tables, packs, dealer)

    def _init(self, key) -> ClubState:
        return init(self.tables, key)

    def _step(self, state: ClubState, action) -> ClubState:
        return apply(self.tables, state, action)

    def _move(self, state: ClubState, action, go) -> ClubState:
        """``_step`` if ``go``, else the session as it was (``go`` folded into the phase)."""
        return apply(self.tables, state, action, go)

    def _observe(self, state: ClubState, seat) -> jax.Array:
        return observe(self.tables, state, seat)

    def _refuse(self, state: ClubState) -> ClubState:
        """The base's end by an illegal move, in the phase of a session over."""
        return super()._refuse(state)._replace(phase=jnp.asarray(END, _I32))

    def __repr__(self):
        return f"ClubJax({self.rules!r})"
