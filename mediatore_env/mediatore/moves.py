"""Mediatore's moves: one id space shared by every phase of a deal, and the phases.

The PettingZoo environments use the same ids as their ``Discrete`` actions:

=============  ==========================  ===============================================
ids            move                        text
=============  ==========================  ===============================================
0              pass                        ``pass``
1..5           bid a contract              ``bid chiamo`` .. ``bid arcisolissimo``
6..45          call card ``id - 6``        ``call D3``
46..85         discard card ``id - 46``    ``discard SA``
86..125        give back card ``id - 86``  ``give B4`` (Mediatore: to the player who gave)
126..485       play card with a signal     ``play D3`` / ``play D3 busso``;
               ``126 + 40 * signal + card``  signal ids in rules.py
=============  ==========================  ===============================================

Build ids with :func:`bid_move`, :func:`call_move`, :func:`discard_move`, :func:`give_move`
and :func:`play_move`; read them back with :func:`move_text` and :func:`parse_move`::

    >>> move_text(play_move(parse_card("D3"), BUSSO)), parse_move("call SA") == call_move(SA)
    ('play D3 busso', True)
"""

from __future__ import annotations

from ..core.cards import CARD_NAMES, NUM_CARDS, parse_card
from .rules import CONTRACT_NAMES, NO_SIGNAL, NUM_SIGNALS, SIGNAL_NAMES

# -- move ids ---------------------------------------------------------------------------------
PASS = 0
CALL_BASE = 6
DISCARD_BASE = CALL_BASE + NUM_CARDS
GIVE_BASE = DISCARD_BASE + NUM_CARDS
PLAY_BASE = GIVE_BASE + NUM_CARDS
NUM_MOVES = PLAY_BASE + NUM_SIGNALS * NUM_CARDS  # 486

# -- phases -----------------------------------------------------------------------------------
AUCTION, CALL, DISCARD, GIVE, PLAY, END = range(6)
PHASE_NAMES = ("auction", "call", "discard", "give", "play", "end")

HAND_SIZE = 9
NUM_TRICKS = 9
WIN_THIRDS = 18  # 6 points


def bid_move(contract: int) -> int:
    return contract


def call_move(card: int) -> int:
    return CALL_BASE + card


def discard_move(card: int) -> int:
    return DISCARD_BASE + card


def give_move(card: int) -> int:
    return GIVE_BASE + card


def play_move(card: int, signal: int = NO_SIGNAL) -> int:
    return PLAY_BASE + signal * NUM_CARDS + card


def move_text(move: int) -> str:
    """Canonical text of a move id (see the module docstring)."""
    if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < NUM_MOVES:
        raise ValueError(f"move id {move!r} out of range; valid ids are integers 0..{NUM_MOVES - 1}")
    if move == PASS:
        return "pass"
    if move < CALL_BASE:
        return "bid " + CONTRACT_NAMES[move]
    if move < DISCARD_BASE:
        return "call " + CARD_NAMES[move - CALL_BASE]
    if move < GIVE_BASE:
        return "discard " + CARD_NAMES[move - DISCARD_BASE]
    if move < PLAY_BASE:
        return "give " + CARD_NAMES[move - GIVE_BASE]
    signal, card = divmod(move - PLAY_BASE, NUM_CARDS)
    return "play " + CARD_NAMES[card] + (" " + SIGNAL_NAMES[signal] if signal else "")


_CONTRACT_BY_NAME = {name: c for c, name in CONTRACT_NAMES.items()}
_SIGNAL_BY_NAME = {name: s for s, name in enumerate(SIGNAL_NAMES) if name}
_CARD_VERBS = {"call": CALL_BASE, "discard": DISCARD_BASE, "give": GIVE_BASE, "play": PLAY_BASE}


def parse_move(text: str) -> int:
    """Move id of a move's text; the inverse of :func:`move_text`. Raises ``ValueError``."""
    words = text.strip().lower().split(maxsplit=2)
    try:
        if words == ["pass"]:
            return PASS
        if len(words) == 2 and words[0] == "bid":
            return _CONTRACT_BY_NAME[words[1]]
        if words and words[0] in _CARD_VERBS:
            card = parse_card(words[1])
            if len(words) == 2:
                return _CARD_VERBS[words[0]] + card
            if words[0] == "play":
                return play_move(card, _SIGNAL_BY_NAME[words[2]])
    except (KeyError, IndexError, ValueError):
        pass
    raise ValueError(
        f"not a move: {text!r}; moves are 'pass', 'bid <{'|'.join(_CONTRACT_BY_NAME)}>', "
        f"'call <card>', 'discard <card>', 'give <card>', 'play <card> [<signal>]' with a card "
        f"like 'D3' and a signal among {', '.join(_SIGNAL_BY_NAME)}")
