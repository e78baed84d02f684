"""Tressette's moves: one id space for every form of the game.

The PettingZoo environments use the same ids as their ``Discrete(41)`` actions:

=======  ====================  =========================================================
ids      move                  text
=======  ====================  =========================================================
0..39    play card ``id``      ``D3``, ``SA`` (the card's text, :mod:`mediatore_env.core.cards`)
40       claim the game        ``claim`` (only with the ``claim`` switch, on one's turn)
=======  ====================  =========================================================

Melds, the two-handed draws and the deal are not moves: melds are compulsory and declared by
the engine, the draws are forced, and the pack is a chance event the caller supplies::

    >>> parse_move("SA"), move_text(40)
    (27, 'claim')
"""

from __future__ import annotations

from ..core.cards import CARD_NAMES, NUM_CARDS, parse_card

CLAIM = NUM_CARDS  # 40
NUM_MOVES = CLAIM + 1  # 41


def move_text(move: int) -> str:
    """The text of a move: the card's text for a play, ``'claim'`` for the claim."""
    if move == CLAIM:
        return "claim"
    if isinstance(move, int) and not isinstance(move, bool) and 0 <= move < NUM_CARDS:
        return CARD_NAMES[move]
    raise ValueError(f"not a Tressette move: {move!r}; valid ids are 0..{NUM_MOVES - 1}")


def parse_move(text: str) -> int:
    """The move of a text: a card (``'D3'``, also ``'play D3'``) or ``'claim'``."""
    words = text.strip().lower().split() if isinstance(text, str) else None
    if words == ["claim"]:
        return CLAIM
    if words and len(words) <= 2 and (len(words) == 1 or words[0] == "play"):
        try:
            return parse_card(words[-1])
        except ValueError:
            pass
    raise ValueError(f"not a Tressette move: {text!r}; a move is a card such as 'D3' or 'SA' "
                     "(play it), or 'claim'")
