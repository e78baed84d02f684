"""Club Mediatore's moves: one id space shared by every phase of a deal.

The PettingZoo environment ``club_mediatore_v0`` uses the same ids as its ``Discrete(123)``
actions. The words are Mediatore's where the meaning is the same (``pass``, ``call D3``,
``discard SA``, ``play D3``: :mod:`mediatore_env.mediatore.moves`), and so are the phases
(``AUCTION`` is here the choosing of the mediator: accept or pass, no overbidding; there is
no give phase and no signals):

=============  ==========================  ===============================================
ids            move                        text
=============  ==========================  ===============================================
0              pass                        ``pass``
1              accept: become mediator     ``accept``
2              play alone                  ``alone``
3..42          call card ``id - 3``        ``call D3``: its holder is the secret partner
43..82         discard card ``id - 43``    ``discard SA``
83..122        play card ``id - 83``       ``play D3``
=============  ==========================  ===============================================

    >>> from mediatore_env.core.cards import SA
    >>> move_text(call_move(SA)), parse_move("play d3") == play_move(parse_card("D3"))
    ('call SA', True)
"""

from __future__ import annotations

from ..core.cards import CARD_NAMES, NUM_CARDS, parse_card
# The phases are Mediatore's (docs/rules.md 10.3 names them the same way; GIVE is never used).
from ..mediatore.moves import AUCTION, CALL, DISCARD, END, PHASE_NAMES, PLAY

__all__ = ["PASS", "ACCEPT", "ALONE", "CALL_BASE", "DISCARD_BASE", "PLAY_BASE", "NUM_MOVES",
           "AUCTION", "CALL", "DISCARD", "PLAY", "END", "PHASE_NAMES", "PHASES", "call_move",
           "discard_move", "play_move", "phase_of_move", "card_of_move", "move_text", "parse_move"]

PASS, ACCEPT, ALONE = 0, 1, 2
CALL_BASE = 3
DISCARD_BASE = CALL_BASE + NUM_CARDS
PLAY_BASE = DISCARD_BASE + NUM_CARDS
NUM_MOVES = PLAY_BASE + NUM_CARDS  # 123

#: the phases of a club deal, in order
PHASES = (AUCTION, CALL, DISCARD, PLAY, END)


def call_move(card: int) -> int:
    """The mediator's move calling ``card``: its holder becomes the secret partner."""
    return CALL_BASE + card


def discard_move(card: int) -> int:
    """The mediator's move discarding ``card`` (the discards count as a trick for him)."""
    return DISCARD_BASE + card


def play_move(card: int) -> int:
    """The move playing ``card`` to the trick."""
    return PLAY_BASE + card


def phase_of_move(move: int) -> int:
    """The phase in which ``move`` can be legal: ``AUCTION`` (pass, accept), ``CALL`` (alone,
    a call), ``DISCARD`` or ``PLAY``."""
    if move <= ACCEPT:
        return AUCTION
    if move < DISCARD_BASE:
        return CALL
    if move < PLAY_BASE:
        return DISCARD
    return PLAY


def card_of_move(move: int) -> int:
    """The card a call, discard or play names. ``ValueError`` for pass, accept and alone."""
    if not CALL_BASE <= move < NUM_MOVES:
        raise ValueError(f"move {move!r} names no card; card moves are {CALL_BASE}..{NUM_MOVES - 1}")
    return (move - CALL_BASE) % NUM_CARDS


_WORDS = {PASS: "pass", ACCEPT: "accept", ALONE: "alone"}
_VERBS = {CALL: "call", DISCARD: "discard", PLAY: "play"}
_MOVE_BY_VERB = {"call": call_move, "discard": discard_move, "play": play_move}
_MOVE_BY_WORD = {text: move for move, text in _WORDS.items()}


def move_text(move: int) -> str:
    """Canonical text of a move id (see the module docstring)."""
    if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < NUM_MOVES:
        raise ValueError(f"move id {move!r} out of range; valid ids are integers 0..{NUM_MOVES - 1}")
    if move in _WORDS:
        return _WORDS[move]
    return _VERBS[phase_of_move(move)] + " " + CARD_NAMES[card_of_move(move)]


def parse_move(text: str) -> int:
    """Move id of a move's text; the inverse of :func:`move_text`. Raises ``ValueError``."""
    words = text.strip().lower().split() if isinstance(text, str) else []
    if len(words) == 1 and words[0] in _MOVE_BY_WORD:
        return _MOVE_BY_WORD[words[0]]
    if len(words) == 2 and words[0] in _MOVE_BY_VERB:
        try:
            return _MOVE_BY_VERB[words[0]](parse_card(words[1]))
        except ValueError:
            pass
    raise ValueError(f"not a club Mediatore move: {text!r}; moves are 'pass', 'accept', 'alone', "
                     "'call <card>', 'discard <card>', 'play <card>' with a card like 'D3'")
