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
and :func:`play_move`; take them apart with :func:`phase_of_move`, :func:`card_of_move` and
:func:`signal_of_move`; write and read them as text with :func:`move_text` and
:func:`parse_move`::

    >>> from mediatore_env.core.cards import SA
    >>> from mediatore_env.mediatore.rules import BUSSO
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


def bid_move(contract: int) -> int:
    """The move bidding ``contract`` (a contract id of rules.py, ``CHIAMO`` .. ``ARCISOLISSIMO``)."""
    return contract


def call_move(card: int) -> int:
    """The declarer's move calling ``card``: its holder becomes the partner (Mediatore: gives it)."""
    return CALL_BASE + card


def discard_move(card: int) -> int:
    """The declarer's move discarding ``card`` to the monte."""
    return DISCARD_BASE + card


def give_move(card: int) -> int:
    """The declarer's move giving ``card`` back to the player who gave the called card."""
    return GIVE_BASE + card


def play_move(card: int, signal: int = NO_SIGNAL) -> int:
    """The move playing ``card`` to the trick with ``signal`` (only a lead may carry one)."""
    return PLAY_BASE + signal * NUM_CARDS + card


# -- reading move ids back --------------------------------------------------------------------

def phase_of_move(move: int) -> int:
    """The phase whose move ``move`` is: ``AUCTION`` (pass and the bids), ``CALL``,
    ``DISCARD``, ``GIVE`` or ``PLAY``."""
    if move < CALL_BASE:
        return AUCTION
    if move < DISCARD_BASE:
        return CALL
    if move < GIVE_BASE:
        return DISCARD
    if move < PLAY_BASE:
        return GIVE
    return PLAY


def card_of_move(move: int) -> int:
    """The card that a call, discard, give or play move names; the inverse of
    :func:`call_move` .. :func:`play_move`. ``ValueError`` for pass and the bids."""
    if not CALL_BASE <= move < NUM_MOVES:
        raise ValueError(f"move {move!r} names no card; card moves are {CALL_BASE}..{NUM_MOVES - 1}")
    # From CALL_BASE on the ids run in blocks of NUM_CARDS, one per kind of card move and
    # one per signal of a play, each block in card order.
    return (move - CALL_BASE) % NUM_CARDS


def signal_of_move(move: int) -> int:
    """The signal a play move carries (``NO_SIGNAL`` for none). ``ValueError`` for any other move."""
    if not PLAY_BASE <= move < NUM_MOVES:
        raise ValueError(f"move {move!r} is not a play; plays are {PLAY_BASE}..{NUM_MOVES - 1}")
    return (move - PLAY_BASE) // NUM_CARDS


CARD_VERBS = {CALL: "call", DISCARD: "discard", GIVE: "give", PLAY: "play"}
"""The verb that begins the text of a card move, by its phase."""


def move_text(move: int) -> str:
    """Canonical text of a move id (see the module docstring)."""
    if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < NUM_MOVES:
        raise ValueError(f"move id {move!r} out of range; valid ids are integers 0..{NUM_MOVES - 1}")
    if move == PASS:
        return "pass"
    phase = phase_of_move(move)
    if phase == AUCTION:
        return "bid " + CONTRACT_NAMES[move]
    text = CARD_VERBS[phase] + " " + CARD_NAMES[card_of_move(move)]
    signal = signal_of_move(move) if phase == PLAY else NO_SIGNAL
    return text + (" " + SIGNAL_NAMES[signal] if signal else "")


_CONTRACT_BY_NAME = {name: c for c, name in CONTRACT_NAMES.items()}
_SIGNAL_BY_NAME = {name: s for s, name in enumerate(SIGNAL_NAMES) if name}
_MOVE_BY_VERB = {"call": call_move, "discard": discard_move, "give": give_move, "play": play_move}


def parse_move(text: str) -> int:
    """Move id of a move's text; the inverse of :func:`move_text`. Raises ``ValueError``."""
    words = text.strip().lower().split(maxsplit=2) if isinstance(text, str) else []
    try:
        if words == ["pass"]:
            return PASS
        if len(words) == 2 and words[0] == "bid":
            return bid_move(_CONTRACT_BY_NAME[words[1]])
        if words and words[0] in _MOVE_BY_VERB:
            card = parse_card(words[1])
            if len(words) == 2:
                return _MOVE_BY_VERB[words[0]](card)
            if words[0] == "play":
                return play_move(card, _SIGNAL_BY_NAME[words[2]])
    except (KeyError, IndexError, ValueError):
        pass
    raise ValueError(
        f"not a move: {text!r}; moves are 'pass', 'bid <{'|'.join(_CONTRACT_BY_NAME)}>', "
        f"'call <card>', 'discard <card>', 'give <card>', 'play <card> [<signal>]' with a card "
        f"like 'D3' and a signal among {', '.join(_SIGNAL_BY_NAME)}")
