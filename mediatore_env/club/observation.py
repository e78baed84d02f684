"""Club Mediatore's observation vectors: what one seat knows, as a flat float32 vector, and its
legal-move mask (``club_mediatore_v0``'s observations).

The writer reads a :class:`~mediatore_env.club.view.ClubView` and nothing else, so it can only
write what that seat knows (docs/rules.md 10.3)::

    >>> from mediatore_env.club.game import Session
    >>> session = Session(dealer=3, packs=[list(range(40))])
    >>> obs = observation(session.view(0))
    >>> obs["observation"].shape, obs["action_mask"].nonzero()[0].tolist()
    ((1932,), [0, 1])

As in Mediatore's layout (:mod:`.observation`) everything is seat-relative: the observer is
seat 0, seat 1 the next to act after it, 2 the seat across, 3 the seat to its left. One-hot
blocks of 40 are indexed by card id. The play of each seat is written as Mediatore writes it
(the same seat block, :data:`~.layout.SEAT_LEN` values: ``40 * slot + card`` the card played
to each trick, slot 9 the trick on the table; led by slot; won by finished slot; thirds / 35;
tricks / 9).

Chips can grow without bound (a lost pot doubles when the next mediator matches it), so a
number of chips ``x`` is written as ``log2(1 + x) / 32`` (:func:`chip_value`; at most 1,
reached at 2^32 chips), and a change in chips as two such values, the gain and the loss.

Layout, version 1 (``LAYOUT`` holds this table as data, ``OFFSETS`` and ``SIZES`` the
numbers; :func:`layout_table` prints it as Markdown).
"""

from __future__ import annotations

import math

import numpy as np

from .moves import AUCTION, CALL, NUM_MOVES, PASS, PHASE_NAMES, PHASES
from .rules import MAX_DEALS
from ..core.cards import NUM_CARDS, TOTAL_THIRDS
from ..core.game import CHANCE
from ..mediatore.nine_tricks import NUM_TRICKS
from ..codec import actions
from ..codec.layout import block_offsets, markdown_table
from ..mediatore.layout import (S_CARDS, S_LED, S_THIRDS, S_TRICKS, S_WON, SLOTS, TABLE,
                                seat_blocks)

__all__ = ["OBSERVATION_VERSION", "OBSERVATION_SIZE", "LAYOUT", "OFFSETS", "SIZES", "CHIP_BITS",
           "chip_value", "layout_table", "write_observation", "action_mask", "observation"]

OBSERVATION_VERSION = 1
#: chips are written as log2(1 + chips) / CHIP_BITS, at most 1
CHIP_BITS = 32

LAYOUT: tuple[tuple[str, int, str], ...] = (
    ("rules", 2, "the ante as a chip value; 1 when the session ends with the first pot won"),
    ("deal", 1, f"deals finished before this one / the session's most deals ({MAX_DEALS} by default)"),
    ("dealer", 4, "the dealer's relative seat"),
    ("phase", len(PHASES), "one-hot: " + ", ".join(PHASE_NAMES[p] for p in PHASES)
     + " (auction: choosing the mediator; end: the session is over)"),
    ("to_move", 4, "relative seat to act (all 0 once the session is over)"),
    ("hand", NUM_CARDS, "the observer's cards now"),
    ("passed", 4, "relative seats that passed in this deal's choosing of the mediator"),
    ("mediator", 4, "the mediator's relative seat"),
    ("call", 2, "[the mediator announced alone, the mediator called a card]"),
    ("called_card", NUM_CARDS, "the card the mediator called"),
    ("partnership", 6, "[mediator plays alone (known), has a partner (known), the partner's "
     "relative seat (4) when known]"),
    ("widow", NUM_CARDS, "the widow, to the mediator once he has taken it"),
    ("discards", NUM_CARDS, "the mediator's discards: to him at once, to all once the play ends"),
    ("pot", 1, "the chips in the pot now, as a chip value"),
    ("to_match", 1, "the pot the mediator's side must match (the pot when he accepted), as a chip value"),
    ("stakes", 4, "by relative seat, the chips it has put into the standing pot, as chip values"),
    ("chips", 8, "by relative seat, its change in chips so far in the session: the gain (4), "
     "then the loss (4), as chip values"),
    ("side_thirds", 2, f"(mediator's side, other side) thirds / {TOTAL_THIRDS} when the "
     "observer knows the sides, else 0"),
    ("played", NUM_CARDS, "every card played in this deal so far (on the table included)"),
    *seat_blocks(f"what relative seat 0 (the observer) did in this deal's play: 40 * slot + "
                 f"card ({SLOTS * NUM_CARDS}) its card in each trick, led ({SLOTS}), won "
                 f"({NUM_TRICKS}), its thirds taken / {TOTAL_THIRDS}, its tricks taken / "
                 f"{NUM_TRICKS}"),
)

OFFSETS, SIZES, OBSERVATION_SIZE = block_offsets(LAYOUT)  # OBSERVATION_SIZE: 1932

_PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}


def layout_table() -> str:
    """The observation layout as a Markdown table (offset, length, block, meaning)."""
    return markdown_table(LAYOUT)


def chip_value(chips: int) -> float:
    """A number of chips (0 or more) as a value in [0, 1]: ``log2(1 + chips) / 32``, at most 1."""
    return min(1.0, math.log2(1 + chips) / CHIP_BITS)


def _cards(out: np.ndarray, block: str, mask: int) -> None:
    base = OFFSETS[block]
    while mask:
        low = mask & -mask
        out[base + low.bit_length() - 1] = 1.0
        mask ^= low


def write_observation(view, out: np.ndarray | None = None) -> np.ndarray:
    """The observation vector of ``view``'s seat (a :class:`ClubView`), written into ``out``
    (a float32 array of ``OBSERVATION_SIZE``, overwritten) or a new array."""
    if out is None:
        out = np.zeros(OBSERVATION_SIZE, np.float32)
    else:
        out[:] = 0.0
    me = view.seat

    def rel(seat: int) -> int:
        return (seat - me) % 4

    rules = view.rules
    o = OFFSETS
    out[o["rules"]] = chip_value(rules.ante)
    out[o["rules"] + 1] = float(rules.until_won)
    out[o["deal"]] = max(view.deal_number - 1, 0) / rules.max_deals  # 0 before the first too
    out[o["dealer"] + rel(view.dealer)] = 1.0
    phase = view.phase
    out[o["phase"] + _PHASE_INDEX[phase]] = 1.0
    if view.to_move is not None and view.to_move != CHANCE:  # no seat while a pack is awaited
        out[o["to_move"] + rel(view.to_move)] = 1.0
    _cards(out, "hand", view.hand)
    for seat, move in view.auction:
        if move == PASS:
            out[o["passed"] + rel(seat)] = 1.0
    mediator = view.mediator
    if mediator is not None:
        out[o["mediator"] + rel(mediator)] = 1.0
    if mediator is not None and phase not in (AUCTION, CALL):
        out[o["call"] + (0 if view.announced_alone else 1)] = 1.0
        if view.called_card is not None:
            out[o["called_card"] + view.called_card] = 1.0
    alone, partner = view.alone, view.partner
    if alone is not None:
        out[o["partnership"] + (0 if alone else 1)] = 1.0
    if partner is not None:
        out[o["partnership"] + 2 + rel(partner)] = 1.0
    _cards(out, "widow", view.widow)
    _cards(out, "discards", view.discards)
    out[o["pot"]] = chip_value(view.pot)
    out[o["to_match"]] = chip_value(view.pot_accepted)
    stakes, chips = view.stakes, view.chips
    for seat in range(4):
        r = rel(seat)
        out[o["stakes"] + r] = chip_value(stakes[seat])
        out[o["chips"] + r] = chip_value(max(0, chips[seat]))
        out[o["chips"] + 4 + r] = chip_value(max(0, -chips[seat]))
    thirds = view.thirds_won
    if mediator is not None and (alone is True or partner is not None):
        side = (mediator,) if alone else (mediator, partner)
        ours = sum(thirds[s] for s in side)
        out[o["side_thirds"]] = ours / TOTAL_THIRDS
        out[o["side_thirds"] + 1] = (sum(thirds) - ours) / TOTAL_THIRDS
    _cards(out, "played", view.played)
    seats = [o[f"seat_{rel(seat)}"] for seat in range(4)]

    def write_trick(slot: int, leader: int, cards) -> None:
        out[seats[leader] + S_LED + slot] = 1.0
        for i, card in enumerate(cards):  # in playing order, from the leader
            out[seats[(leader + i) % 4] + S_CARDS + NUM_CARDS * slot + card] = 1.0

    for slot, trick in enumerate(view.tricks):
        write_trick(slot, trick.leader, trick.cards)
        out[seats[trick.winner] + S_WON + slot] = 1.0
    if view.trick:
        write_trick(TABLE, view.leader, view.trick)
    tricks_won = view.tricks_won
    for seat in range(4):
        out[seats[seat] + S_THIRDS] = thirds[seat] / TOTAL_THIRDS
        out[seats[seat] + S_TRICKS] = tricks_won[seat] / NUM_TRICKS
    return out


def action_mask(view) -> np.ndarray:
    """The legal-move mask of ``view``'s seat: :func:`~mediatore_env.codec.actions.action_mask`
    of the game's ``NUM_MOVES`` (123) moves."""
    return actions.action_mask(view, NUM_MOVES)


def observation(view) -> dict:
    """``{"observation": float32[OBSERVATION_SIZE], "action_mask": int8[NUM_MOVES]}`` of a seat."""
    return {"observation": write_observation(view), "action_mask": action_mask(view)}

