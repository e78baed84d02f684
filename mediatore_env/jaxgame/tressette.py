"""Tressette in JAX: a whole game to 31, over as many hands as it takes, as pure array
functions, for every form (Partnership, Three-Handed with its dead hand, Two-Handed with its
stock and shown draws) and every switch (``low``, ``claim``, ``show_draws``).

A transcription of :class:`~mediatore_env.tressette.game.TressetteGame` (the reference for
every behaviour: ``tests/test_jax_tressette.py`` holds the two equal move by move), under the
same names; its observation is :mod:`mediatore_env.tressette.observation`'s, value for value::

    import jax
    from mediatore_env.tressette import TressetteRules
    from mediatore_env.jaxgame.tressette import TressetteJax

    env = TressetteJax(TressetteRules(players=3, low=True))
    state = env.init(jax.random.PRNGKey(0))   # a first dealer and every hand's pack
    state = env.step(state, action)           # 0..39 play a card, 40 claim (moves.py)
    obs = env.observe(state, seat)            # float32[2087] three-handed

One game is one episode, as in ``tressette_v0``: the next hand is dealt within the step that
ends a hand (the Python engine's chance node between hands is not a state here), and the
game's outcome (``rules.outcome``: +1/-1, three-handed +2/-1/-1, ...) is the ``rewards`` of
the step that ends it, as the environments give it with ``reward="game"``. An illegal move ends
the game with its mover paying ``illegal_penalty`` to each other seat (:mod:`.core`): the
largest outcome a seat can have, 1 with two sides and 2 three-handed.

The packs are the game's chance events: ``init(key)`` draws a first dealer and the pack of
every hand the game can need up front (``state.packs``: :data:`MAX_HANDS` of them), and
``init_from_packs(packs, dealer)`` takes them, so the state is a pure function of its inputs.
The tricks are those of every trick game (:mod:`.tricks`); the melds are declared, scored and
shown by the step that closes a hand's first trick, the two-handed draws by every step that
closes a trick while the stock lasts, in the order of docs/rules.md 10.1-10.2 (decisions 14,
15, 19): whichever event brings a side to 31 ends the game at once.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from ..core.cards import NUM_CARDS, TOTAL_THIRDS
from ..tressette.game import DEAD, DEAL_TARGETS
from ..tressette.melds import ACES, GROUP_MASKS, GROUP_POINTS, NAPOLETANA_MASKS, NAPOLETANA_POINTS
from ..tressette.moves import CLAIM, NUM_MOVES
from ..tressette.observation import (DRAWS, EARLIER_HANDS, MELD_FLAGS, SCORE_SCALE, layout_of,
                                     rules_vector)
from ..tressette.rules import (HAND_SIZE, LAST_TRICK_POINTS, TARGET, TressetteRules,
                               false_claim_outcome, outcome)
from .core import NONE, JaxGame, one_hot
from .tricks import (SUIT_OF_CARD, TrickState, bools, checked_deal, no_tricks, play_card, playable,
                     shuffled_pack)

_I32, _F32 = jnp.int32, jnp.float32

# The most hands a game can last, by players: every complete hand gives the sides 11 points
# four- and two-handed, so after 5 hands of two sides below 31 the sixth is the last; three-
# handed at least 4 (the dead hand holds at most 18 of the 32 thirds), so 23 hands give more
# than the 90 that three players below 31 can hold (tressette/observation.py says the same of
# its EARLIER_HANDS). init draws this many packs.
MAX_HANDS = {4: 6, 3: 23, 2: 6}

# Why the game ended (TressetteGame.end_reason), as numbers: 0 while it goes on.
END_REASONS = (None, "target", "claim", "false_claim", "hand_end")
TARGET_END, CLAIM_END, FALSE_CLAIM_END, HAND_END = range(1, 5)

# The melds a hand can hold, in declaration order (melds.melds_of): the napoletane by suit,
# then the Assi, the 2s, the 3s; each with its cards.
MELD_MASKS = np.stack([bools(m) for m in NAPOLETANA_MASKS]
                      + [bools(GROUP_MASKS[kind]) for kind in (ACES, ACES + 1, ACES + 2)])
NUM_NAPOLETANE = len(NAPOLETANA_MASKS)
# The powers that meld (the Asso, the 2, the 3), in the order of the groups: a napoletana is a
# suit's cards of these powers, a group a power's cards of every suit (MELD_MASKS by suit).
MELD_POWERS = np.flatnonzero(MELD_MASKS[NUM_NAPOLETANE:].any(axis=0)[:10])
assert all((MELD_MASKS[k].reshape(4, 10)[:, MELD_POWERS] == (np.arange(4) == k)[:, None]).all()
           for k in range(NUM_NAPOLETANE))
assert all((MELD_MASKS[NUM_NAPOLETANE + g].reshape(4, 10)[:, MELD_POWERS]
            == (np.arange(3) == g)[None, :]).all() for g in range(3))
_KINDS = np.arange(len(MELD_MASKS))
# The cards each flag of an observation's meld_kinds block names (observation.meld_flag): a
# napoletana by suit (0-3), then three or four Assi (4, 5), 2s (6, 7), 3s (8, 9).
FLAG_MASKS = np.stack([MELD_MASKS[f] if f < NUM_NAPOLETANE
                       else MELD_MASKS[NUM_NAPOLETANE + (f - NUM_NAPOLETANE) // 2]
                       for f in range(MELD_FLAGS)])
_GROUP_POINTS = np.array([GROUP_POINTS.get(k, 0) for k in range(5)], np.int32)  # by cards held


@dataclass(frozen=True)
class TressetteTables:
    """What a table's rules are for the traced functions: Python numbers and small numpy
    arrays, settled before tracing (the rules are static; the step never branches on them)."""

    rules: TressetteRules
    players: int
    sides: int
    tricks: int                 # tricks in a hand
    stock: int                  # cards in the two-handed stock (0 in the other forms)
    hands: int                  # MAX_HANDS
    earlier: int                # earlier hands the observation keeps
    side_of: np.ndarray         # int32[players]
    receiver: np.ndarray        # int32[players, 40]: by dealer, where each card of the pack
                                # goes: a seat, `players` (the dead hand) or players + 1 (stock)
    illegal_penalty: int        # the largest outcome a seat can have
    rules_block: np.ndarray     # float32[6]: the observation's rules block

    @classmethod
    def of(cls, rules: TressetteRules) -> "TressetteTables":
        n = rules.players
        receiver = np.array([[n if target == DEAD else n + 1 if target < 0 else target
                              for target in DEAL_TARGETS[n][dealer]] for dealer in range(n)],
                            np.int32)
        sides = range(rules.num_sides)
        worst = [false_claim_outcome(rules, side) for side in sides] + [
            outcome(rules, totals, side) for side in sides
            for totals in ([0] * rules.num_sides, [TARGET] * rules.num_sides)]
        return cls(rules=rules, players=n, sides=rules.num_sides, tricks=rules.num_tricks,
                   stock=rules.stock_size, hands=MAX_HANDS[n], earlier=EARLIER_HANDS[n],
                   side_of=np.array([rules.side_of(s) for s in range(n)], np.int32),
                   receiver=receiver, illegal_penalty=max(abs(v) for o in worst for v in o),
                   rules_block=rules_vector(rules))


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class TressetteState(TrickState):
    """A game to 31: :class:`.core.State`'s fields (``rewards``: the outcome on the step that
    ends the game), :class:`.tricks.TrickState`'s for the hand in play, then the game's own
    (TressetteGame's names; its HandLog's for the hand in play). ``n`` players, ``S`` sides,
    ``H`` = MAX_HANDS, ``E`` earlier hands kept for the observation."""

    packs: jax.Array                # int8[H, 40]: the pack of each hand, in pack order
    first_dealer: jax.Array         # int32
    dealer: jax.Array               # int32: the dealer of the hand in play
    hand_number: jax.Array          # int32: hands dealt so far (1 during the first)
    hands: jax.Array                # bool[n, 40]: each seat's cards now
    dealt: jax.Array                # bool[n, 40]: the cards dealt to each seat this hand
    meld_points: jax.Array          # int32[S]: this hand's melds, by side
    melds: jax.Array                # bool[n, 10]: the melds each seat declared this hand, by
                                    # the flags of the observation (observation.meld_flag)
    draws: jax.Array                # int32: cards drawn from the stock this hand
    last_winner: jax.Array          # int32: the winner of the hand's last trick, -1 before
    totals: jax.Array               # int32[S]: running totals, the hand in play included
    before: jax.Array               # int32[S]: the totals when the hand in play began
    first_to_target: jax.Array      # int32: with `claim`, the first side to reach 31
    end_reason: jax.Array           # int32: END_REASONS' index, 0 while the game goes on
    ender: jax.Array                # int32: the side that ended the game
    claimant: jax.Array             # int32: the seat that claimed
    earlier_dealer: jax.Array       # int32[E]: the earlier hands, most recent first (-1: none)
    earlier_points: jax.Array       # int32[E, S]: their points by side
    earlier_melds: jax.Array        # bool[E, n, 10]: their melds by seat, as `melds`


# -- the deal of a hand ------------------------------------------------------------------------

def _dealt(t: TressetteTables, pack: jax.Array, dealer: jax.Array) -> jax.Array:
    """bool[n, 40]: the hands ``pack`` gives when ``dealer`` deals (game.deal_hands: batches of
    five from the seat after the dealer; the dead hand and the stock to no seat)."""
    receiver = jnp.zeros(NUM_CARDS, _I32).at[pack.astype(_I32)].set(
        jnp.asarray(t.receiver)[dealer])
    return receiver[None, :] == np.arange(t.players)[:, None]


def _hand_fields(t: TressetteTables, packs: jax.Array, number: jax.Array,
                 dealer: jax.Array) -> dict:
    """The fields of hand ``number`` (1 for the first) dealt by ``dealer``, before its first
    card (TressetteGame.deal and a fresh HandLog)."""
    dealt = _dealt(t, packs[jnp.minimum(number, t.hands) - 1], dealer)
    leader = (dealer + 1) % t.players
    return dict(current_player=leader, hand_number=number, dealer=dealer, hands=dealt,
                dealt=dealt, meld_points=jnp.zeros(t.sides, _I32),
                melds=jnp.zeros((t.players, MELD_FLAGS), bool), draws=jnp.asarray(0, _I32),
                last_winner=jnp.asarray(NONE, _I32), **no_tricks(t.players, t.tricks, leader))


def init_from_packs(t: TressetteTables, packs: jax.Array, dealer: jax.Array) -> TressetteState:
    """The game whose hands are dealt from ``packs`` (int[H, 40], card ids in pack order; the
    first hand's first), the first by ``dealer``: its first hand dealt."""
    checked_deal(packs, dealer, t.hands, t.players)
    packs = jnp.asarray(packs).astype(jnp.int8)
    dealer = jnp.asarray(dealer, _I32)
    n, sides, none = t.players, t.sides, jnp.asarray(NONE, _I32)
    hand = _hand_fields(t, packs, jnp.asarray(1, _I32), dealer)
    state = TressetteState.start(
        hand.pop("current_player"), jnp.zeros(NUM_MOVES, bool), n, **hand,
        packs=packs, first_dealer=dealer, totals=jnp.zeros(sides, _I32),
        before=jnp.zeros(sides, _I32), first_to_target=none, end_reason=jnp.asarray(0, _I32),
        ender=none, claimant=none, earlier_dealer=jnp.full(t.earlier, NONE, _I32),
        earlier_points=jnp.zeros((t.earlier, sides), _I32),
        earlier_melds=jnp.zeros((t.earlier, n, MELD_FLAGS), bool))
    return state._replace(legal_action_mask=legal_action_mask(t, state))


def init(t: TressetteTables, key: jax.Array) -> TressetteState:
    """A game from ``key``: the first dealer, and a shuffled pack for every hand it can need."""
    pack_key, dealer_key = jax.random.split(key)
    packs = jax.vmap(shuffled_pack)(jax.random.split(pack_key, t.hands))
    return init_from_packs(t, packs, jax.random.randint(dealer_key, (), 0, t.players))


# -- points and the outcome (rules.py, HandLog.points) -------------------------------------------

def _by_side(t: TressetteTables, by_seat: jax.Array) -> jax.Array:
    """int32[S]: a number by seat summed by side."""
    return jnp.where(np.arange(t.sides)[:, None] == t.side_of[None, :], by_seat, 0).sum(axis=1)


def hand_points(t: TressetteTables, meld_points, thirds, last_winner) -> jax.Array:
    """HandLog.side_points for every side: melds, the cards taken (thirds rounded down, per
    side), the last trick."""
    last = (last_winner != NONE) & (jnp.asarray(t.side_of)[jnp.maximum(last_winner, 0)]
                                    == np.arange(t.sides))
    return meld_points + _by_side(t, thirds) // 3 + LAST_TRICK_POINTS * last


def game_outcome(t: TressetteTables, totals, ender) -> jax.Array:
    """rules.outcome: each seat's outcome of a game ended by side ``ender`` (int32[n])."""
    sides = np.arange(t.sides)
    if not t.rules.low:
        by_side = jnp.where(sides == ender, t.sides - 1, -1)
    else:  # the lowest total wins; a tie goes against the ender; two of three tied: +1 each
        best = totals == totals.min()
        best = best & ~((sides == ender) & (best.sum() > 1))
        by_side = jnp.where(best.sum() == 1, jnp.where(best, t.sides - 1, -1),
                            jnp.where(best, 1, -2))
    return by_side[t.side_of]


def false_claim(t: TressetteTables, side) -> jax.Array:
    """rules.false_claim_outcome: the claimant's side loses (int32[n])."""
    return jnp.where(np.arange(t.sides) == side, 1 - t.sides, 1)[t.side_of]


# -- the melds (TressetteGame._declare_melds) ---------------------------------------------------

def _declare(t: TressetteTables, s: TressetteState, winner, totals, stop: bool):
    """The melds declared after the first trick: the winner's first, then the others' in
    playing order from the trick's leader, each meld scoring as it is declared. With ``stop``
    (no claims) a meld that brings its side to 31 is the last. Returns the melds declared by
    seat (bool[n, 10]), their points by side, and the side whose meld reached 31 first (-1:
    none)."""
    n = t.players
    leader = s.trick_leaders[0]
    # The order of declaration: the winner, then the others from the leader (winner skipped).
    w = (winner - leader) % n
    after = np.arange(n - 1)
    order = jnp.concatenate([winner[None], (leader + after + (after >= w)) % n])
    # The cards of each suit that meld (the Asso, 2 and 3: MELD_POWERS) held by each declarer,
    # [n, suit, rank]: a napoletana is a suit's three, a group a rank's count over the suits.
    top = s.dealt[order].reshape(n, 4, 10)[:, :, MELD_POWERS]
    held = jnp.concatenate([top.sum(axis=2), top.sum(axis=1)], axis=1)        # [n, 7]
    napoletana = _KINDS < NUM_NAPOLETANE
    present = jnp.where(napoletana, held == 3, held >= 3)
    points = jnp.where(present, jnp.where(napoletana, NAPOLETANA_POINTS,
                                          jnp.asarray(_GROUP_POINTS)[held]), 0)
    flags = jnp.where(napoletana, _KINDS,
                      NUM_NAPOLETANE + 2 * (_KINDS - NUM_NAPOLETANE) + (held == 4))
    # Each side's total after each meld, in declaration order (n * 7 melds at most).
    side = jnp.repeat(jnp.asarray(t.side_of)[order], len(_KINDS))
    mine = side[:, None] == np.arange(t.sides)[None, :]                            # [7n, S]
    running = jnp.cumsum(jnp.where(mine, points.reshape(-1)[:, None], 0), axis=0)
    reached = present.reshape(-1) & jnp.where(mine, totals[None, :] + running >= TARGET,
                                              False).any(axis=1)
    first = jnp.where(reached.any(), jnp.argmax(reached), len(side))
    declared = present.reshape(-1)
    if stop:
        declared = declared & (np.arange(len(side)) <= first)
    declared = declared.reshape(n, len(_KINDS))
    meld_points = jnp.where(mine, jnp.where(declared, points, 0).reshape(-1)[:, None],
                            0).sum(axis=0)
    by_position = (declared[:, :, None] & (flags[:, :, None] == np.arange(MELD_FLAGS))).any(1)
    melds = (order[:, None] == np.arange(n)[None, :])  # [position, seat]
    melds = (melds[:, :, None] & by_position[:, None, :]).any(axis=0)
    return melds, meld_points, jnp.where(reached.any(), side[first], NONE)


# -- a move (TressetteGame._apply and the methods it calls) -------------------------------------
#
# One branch-free function for every move, as Mediatore's engine is (engine.py): each field is
# computed once with jnp.where from flags of what the move is and what it sets off (a trick
# closed, the melds, the draws, the hand's end, the game's end). ``go`` False (the move
# illegal, or the game over: core.JaxGame.step) turns every flag off.

def _apply(t: TressetteTables, s: TressetteState, move: jax.Array, go) -> TressetteState:
    n, rules = t.players, t.rules
    seat = s.current_player
    seats = np.arange(n)
    claiming = go & (move == CLAIM)
    playing = go & (move != CLAIM)
    card = jnp.minimum(move, NUM_CARDS - 1)

    # The card: out of the hand, onto the trick (tricks.play_card); a closed trick scores for
    # its winner's side, the last with its point (TressetteGame._score).
    hands = s.hands & ~(playing & (seats == seat)[:, None] & one_hot(card, NUM_CARDS)[None, :])
    played = play_card(s, seat, card, playing)
    closes, winner = played.closes, played.winner
    tricks_done = played.fields["tricks_done"]
    last = closes & (tricks_done == t.tricks)
    last_winner = jnp.where(last, winner, s.last_winner)
    totals = s.before + hand_points(t, s.meld_points, played.fields["thirds_won"], last_winner)
    won_side = jnp.asarray(t.side_of)[winner]
    reached = closes & (totals[won_side] >= TARGET)
    # Without claims, 31 ends the game at once; with them, the first side there is noted.
    target_end = reached & (not rules.claim)
    first_to_target = jnp.where(reached & (s.first_to_target == NONE) & rules.claim, won_side,
                                s.first_to_target)

    # The melds, once the first trick is closed (unless it ended the game).
    melding = closes & (tricks_done == 1) & ~target_end
    declared, meld_points, meld_reached = _declare(t, s, winner, totals, stop=not rules.claim)
    meld_points = s.meld_points + jnp.where(melding, meld_points, 0)
    melds = jnp.where(melding, declared, s.melds)
    totals = s.before + hand_points(t, meld_points, played.fields["thirds_won"], last_winner)
    meld_end = melding & (meld_reached != NONE) & (not rules.claim)
    first_to_target = jnp.where(melding & (first_to_target == NONE) & rules.claim, meld_reached,
                                first_to_target)
    ended = target_end | meld_end

    # Two-handed, after each trick while the stock lasts (TressetteGame._draw): the winner
    # draws the top card, then the other player the next.
    draws = s.draws
    if t.stock:
        drawing = closes & ~ended & (s.draws < t.stock)
        pack = s.packs[s.hand_number - 1].astype(_I32)
        top = pack[n * HAND_SIZE + s.draws]
        after = pack[n * HAND_SIZE + s.draws + 1]
        drawn = jnp.where((seats == winner)[:, None], one_hot(top, NUM_CARDS)[None, :],
                          one_hot(after, NUM_CARDS)[None, :])
        hands = hands | (drawing & drawn)
        draws = s.draws + 2 * drawing

    # The hand's end (TressetteGame._end_hand): with claims, the game ends if a side has
    # reached 31; else the next hand, dealt by the next seat, from the next pack.
    hand_over = last & ~ended
    hand_end = hand_over & (first_to_target != NONE)
    next_hand = hand_over & ~hand_end
    claim_side = jnp.asarray(t.side_of)[jnp.maximum(seat, 0)]
    claim_won = totals[claim_side] >= TARGET
    ended = ended | hand_end | claiming
    reason = jnp.where(claiming, jnp.where(claim_won, CLAIM_END, FALSE_CLAIM_END),
                       jnp.where(hand_end, HAND_END, TARGET_END))
    ender = jnp.where(claiming, claim_side,
                      jnp.where(hand_end, first_to_target,
                                jnp.where(target_end, won_side, meld_reached)))
    result = jnp.where(claiming & ~claim_won, false_claim(t, claim_side),
                       game_outcome(t, totals, ender))

    to_move = jnp.where(playing, jnp.where(closes, winner, (seat + 1) % n), seat)
    out = s._replace(**played.fields)._replace(
        current_player=jnp.where(ended, NONE, to_move).astype(_I32),
        rewards=jnp.where(ended, result, 0).astype(_F32),
        terminated=s.terminated | ended, hands=hands, meld_points=meld_points, melds=melds,
        draws=draws, last_winner=last_winner, totals=totals, first_to_target=first_to_target,
        end_reason=jnp.where(ended, reason, s.end_reason).astype(_I32),
        ender=jnp.where(ended, ender, s.ender).astype(_I32),
        claimant=jnp.where(claiming, seat, s.claimant).astype(_I32))

    # The next hand: the one just played becomes the most recent earlier hand.
    points = totals - s.before
    fresh = _hand_fields(t, s.packs, s.hand_number + 1, (s.dealer + 1) % n)
    fresh.update(
        before=totals,
        earlier_dealer=jnp.concatenate([s.dealer[None], s.earlier_dealer[:-1]]),
        earlier_points=jnp.concatenate([points[None], s.earlier_points[:-1]]),
        earlier_melds=jnp.concatenate([melds[None], s.earlier_melds[:-1]]))
    return out._replace(**{name: jnp.where(next_hand, value, getattr(out, name))
                           for name, value in fresh.items()})


def legal_action_mask(t: TressetteTables, s: TressetteState) -> jax.Array:
    """bool[41]: TressetteGame.legal_moves: the cards the seat to move may play (following
    suit), and the claim with the ``claim`` switch."""
    hand = (s.hands & one_hot(s.current_player, t.players)[:, None]).any(axis=0)
    cards = playable(hand, s.trick_cards, s.trick_len)
    claim = jnp.asarray(t.rules.claim) & (s.current_player != NONE)
    return jnp.concatenate([cards, claim[None]])


def apply(t: TressetteTables, s: TressetteState, move: jax.Array, go=True) -> TressetteState:
    """The state after the seat to move makes ``move`` (legal) if ``go``, with the next mask."""
    s = _apply(t, s, move, jnp.asarray(go))
    return s._replace(legal_action_mask=legal_action_mask(t, s))


# -- the observation (tressette/observation.py's layout, value for value) ----------------------

# Values as the Python writer computes them (k / 35, k / 65, k / 20 in double, then float32).
_THIRDS_VALUE = np.array([k / TOTAL_THIRDS for k in range(TOTAL_THIRDS + 1)], np.float32)
_SCORE_VALUE = np.array([k / SCORE_SCALE for k in range(2 * SCORE_SCALE)], np.float32)
_STOCK_VALUE = np.array([k / DRAWS for k in range(DRAWS + 1)], np.float32)


def shown_out(t: TressetteTables, s: TressetteState, played_by) -> jax.Array:
    """bool[n, 4]: the suits each seat (``played_by``: bool[n, 40], the cards each seat
    played, as a relative seat or not) did not follow when led this hand, counting two-handed
    only the tricks since the last draw (observation._since_draw)."""
    lead = (s.card_seat != NONE) & (s.card_seat == s.trick_leaders[jnp.maximum(s.card_trick, 0)])
    led = jnp.full(t.tricks, NONE, _I32).at[jnp.where(lead, s.card_trick, t.tricks)].set(
        jnp.asarray(SUIT_OF_CARD), mode="drop")                       # the suit led, by trick
    led_to = led[jnp.maximum(s.card_trick, 0)]                        # by card
    off = (jnp.asarray(SUIT_OF_CARD) != led_to) & (s.card_trick >= s.draws // 2)
    suits = led_to[:, None] == np.arange(4)[None, :]                  # [40, 4]
    return ((played_by & off[None, :]).astype(_I32) @ suits.astype(_I32)) > 0


def observe(t: TressetteTables, s: TressetteState, seat) -> jax.Array:
    """float32[size]: what ``seat`` knows (observation.write_observation): seat-relative,
    relative seat ``r`` the seat ``(seat + r) % n``, relative side ``r`` the side
    ``(side + r) % S``."""
    n, sides = t.players, t.sides
    me = jnp.asarray(seat, _I32)
    my_side = jnp.asarray(t.side_of)[me]
    rel_seats = (me + np.arange(n)) % n                   # the seat at each relative seat
    rel_sides = (my_side + np.arange(sides)) % sides

    def rel(abs_seat):
        """One-hot of ``abs_seat`` as the observer sees it (all False for -1)."""
        return one_hot(jnp.where(abs_seat == NONE, NONE, (abs_seat - me) % n), n)

    def scores(points):
        return jnp.asarray(_SCORE_VALUE)[points]

    blocks = {"rules": jnp.asarray(t.rules_block)}
    blocks["dealer"] = rel(s.dealer)
    blocks["to_move"] = rel(s.current_player)
    blocks["hand"] = s.hands[me]
    played = s.card_seat != NONE
    blocks["played"] = played
    # The tricks of this hand: (slot * n + r) * 40 + card, slot the trick the card went to.
    slot_seat = jnp.where(played, s.card_trick * n + (s.card_seat - me) % n, NONE)
    blocks["trick_cards"] = np.arange(t.tricks * n)[:, None] == slot_seat[None, :]
    slots = np.arange(t.tricks)
    finished = slots < s.tricks_done
    on_table = (slots == s.tricks_done) & (s.trick_len > 0)
    leaders = jnp.where(finished, s.trick_leaders, jnp.where(on_table, s.leader, NONE))
    blocks["trick_leader"] = jax.vmap(rel)(leaders)
    blocks["trick_winner"] = jax.vmap(rel)(jnp.where(finished, s.trick_winners, NONE))
    seat_of_card = (s.card_seat[None, :] - me) % n == np.arange(n)[:, None]   # [n, 40]
    blocks["table"] = seat_of_card & played & (s.card_trick == s.tricks_done)
    blocks["shown_out"] = shown_out(t, s, seat_of_card & played)
    # The melds shown this hand, by relative seat: their cards and their flags.
    melds = s.melds[rel_seats]
    blocks["meld_cards"] = ((melds[:, :, None] & FLAG_MASKS[None, :, :]).any(axis=1)
                            & s.dealt[rel_seats])
    blocks["meld_kinds"] = melds
    if n == 2:  # the draws the observer saw, and the stock left
        k = np.arange(DRAWS)
        winner = s.trick_winners[k // 2]
        drawer = jnp.where(k % 2 == 0, winner, 1 - winner)
        seen = (k < s.draws) & (t.rules.show_draws | (drawer == me))
        stock = s.packs[s.hand_number - 1].astype(_I32)[n * HAND_SIZE:]
        blocks["draws"] = seen[:, None] & (stock[:, None] == np.arange(NUM_CARDS)[None, :])
        blocks["stock"] = jnp.asarray(_STOCK_VALUE)[t.stock - s.draws][None]
    blocks["thirds"] = jnp.asarray(_THIRDS_VALUE)[s.thirds_won[rel_seats]]
    points = s.totals - s.before
    blocks["hand_points"] = scores(points[rel_sides])
    blocks["totals"] = scores(s.totals[rel_sides])
    # The earlier hands, most recent first: present, dealer, points by side, melds by seat.
    present = s.earlier_dealer != NONE
    blocks["earlier"] = jnp.concatenate([
        present[:, None], jax.vmap(rel)(s.earlier_dealer),
        jnp.where(present[:, None], scores(s.earlier_points[:, rel_sides]), 0),
        s.earlier_melds[:, rel_seats].reshape(t.earlier, -1)], axis=1)
    layout = layout_of(n)
    out = jnp.concatenate([blocks[name].reshape(-1).astype(_F32)
                           for name, length, _ in layout.blocks if length])
    assert out.shape == (layout.size,)
    return out


class TressetteJax(JaxGame):
    """One game of Tressette to 31 under ``rules`` (a TressetteRules; default Partnership
    Tressette), as pure JAX functions (see the module docstring)."""

    num_actions = NUM_MOVES

    def __init__(self, rules: TressetteRules | None = None):
        self.rules = TressetteRules() if rules is None else rules
        if not isinstance(self.rules, TressetteRules):
            raise ValueError(f"rules must be a TressetteRules object, got {rules!r}")
        self.tables = TressetteTables.of(self.rules)
        self.num_players = self.rules.players
        self.observation_shape = (layout_of(self.rules).size,)
        self.illegal_penalty = self.tables.illegal_penalty

    def init_from_packs(self, packs, dealer) -> TressetteState:
        """The game of ``packs`` (int[MAX_HANDS, 40]: each hand's pack, in pack order; rows the
        game does not reach are never read) whose first hand ``dealer`` deals."""
        return init_from_packs(self.tables, packs, dealer)

    def _init(self, key: jax.Array) -> TressetteState:
        return init(self.tables, key)

    def _step(self, state: TressetteState, action: jax.Array) -> TressetteState:
        return apply(self.tables, state, action)

    def _move(self, state: TressetteState, action: jax.Array, go: jax.Array) -> TressetteState:
        """``_step`` if ``go``, else the game as it was (``go`` folded into the move's flags)."""
        return apply(self.tables, state, action, go)

    def _observe(self, state: TressetteState, seat) -> jax.Array:
        return observe(self.tables, state, seat)

    def __repr__(self):
        return f"TressetteJax({self.rules!r})"
