"""Mediatore's observation layout, version 3: where each block of a seat's observation vector lies.

Only numbers: names, offsets and lengths of the blocks, and the places inside a seat block.
Two writers fill this layout independently and a test checks that they agree at every step:
:mod:`.reference` (``write_observation``: from the SeatView, plainly, block by block) and
:mod:`.observation` (``Encoder``: incrementally, for speed). The meaning of every block is
documented in :mod:`.observation`'s docstring (the table a test compares with ``LAYOUT``).
Club Mediatore's layout (:mod:`mediatore_env.club.observation`) reuses the seat block.
"""

from __future__ import annotations

from ..codec.layout import block_offsets, markdown_table
from ..core.cards import NUM_CARDS, TOTAL_THIRDS
from .moves import PHASE_NAMES
from .nine_tricks import NUM_TRICKS
from .rules import CONTRACT_NAMES, CONTRACTS, NUM_SIGNALS, SWITCHES

# 1: a block per trick, the trick in progress in its slot too; 2: blocks by kind (leaders,
# winners, played, signals, cards) with the table as slot 9; 3: the play grouped by seat.
OBSERVATION_VERSION = 3

RULES_LEN = sum(len(values) for values in SWITCHES.values())
SLOTS = NUM_TRICKS + 1  # nine finished tricks and the table
TABLE = NUM_TRICKS      # the slot of the trick on the table
# Inside a seat block: cards by slot, led by slot, won by finished slot, thirds, tricks.
S_CARDS, S_LED, S_WON = 0, SLOTS * NUM_CARDS, SLOTS * NUM_CARDS + SLOTS
S_THIRDS = S_WON + NUM_TRICKS
S_TRICKS = S_THIRDS + 1
SEAT_LEN = S_TRICKS + 1  # 421

def seat_blocks(seat_0: str) -> tuple[tuple[str, int, str], ...]:
    """The four seat blocks that close the layout (club's too): relative seat 0's, whose meaning
    is ``seat_0``, then the same for relative seats 1, 2 and 3."""
    return (("seat_0", SEAT_LEN, seat_0),
            *((f"seat_{r}", SEAT_LEN, f"the same for relative seat {r}") for r in (1, 2, 3)))


LAYOUT: tuple[tuple[str, int, str], ...] = (
    ("rules", RULES_LEN, "the table's rules switches, one-hot per switch, in the order of "
     "rules.SWITCHES and of each switch's values"),
    ("dealer", 4, "the dealer's relative seat"),
    ("phase", len(PHASE_NAMES), "one-hot: " + ", ".join(PHASE_NAMES)),
    ("to_move", 4, "relative seat to act (all 0 once the deal is over)"),
    ("hand", NUM_CARDS, "the observer's cards now"),
    ("auction", 4 * len(CONTRACTS), "4 * (contract - 1) + relative seat is 1 when that seat bid "
     "that contract; with the dealer and the fixed turn order this is the whole auction"),
    ("contract", len(CONTRACTS), "one-hot contract once the auction is won: "
     + ", ".join(CONTRACT_NAMES[c] for c in CONTRACTS)),
    ("declarer", 4, "the declarer's relative seat"),
    ("called_card", NUM_CARDS, "the card called in Chiamo or Mediatore"),
    ("giver", 4, "Mediatore: relative seat that gave the called card openly"),
    ("partnership", 6, "[declarer plays alone (known), declarer has a partner (known), "
     "the partner's relative seat (4) when known]"),
    ("monte_seen", NUM_CARDS, "the original monte, if the observer has seen it"),
    ("discards", NUM_CARDS, "the declarer's discards: to the declarer at once, to all at the end"),
    ("given_back", NUM_CARDS, "Mediatore: the card passed back (declarer and giver only)"),
    ("final_monte", NUM_CARDS, "the monte turned over after the last trick"),
    ("side_thirds", 2, f"(declarer's side, other side) thirds / {TOTAL_THIRDS} when the observer "
     "knows the sides, else 0"),
    ("played", NUM_CARDS, "every card played so far (on the table included)"),
    ("signals", NUM_SIGNALS * SLOTS, f"{NUM_SIGNALS} * slot + signal: the signal of each lead "
     "(signal ids of rules.py; 0 = none)"),
    *seat_blocks(f"what relative seat 0 (the observer) did in the play: 40 * slot + card "
                 f"({SLOTS * NUM_CARDS}) the card it played to each trick, then led ({SLOTS}, by "
                 f"slot), won ({NUM_TRICKS}, by finished slot), its thirds taken / {TOTAL_THIRDS} "
                 f"(monte and last trick included at the end), its tricks taken / {NUM_TRICKS}"),
)


OFFSETS, SIZES, OBSERVATION_SIZE = block_offsets(LAYOUT)  # OBSERVATION_SIZE: 2132


def layout_table() -> str:
    """The observation layout as a Markdown table (offset, length, block, meaning)."""
    return markdown_table(LAYOUT)
