"""What every engine of the family accepts as a move id: an integer, numpy integers included,
checked before the engine asks whether the move is legal (``Deal.apply``, ``Session.apply``,
``TressetteGame.apply``); the card a move plays where the plays are the top ids
(:func:`card_played`); and the moves of a game whose only move is a card (move ``c`` plays
card ``c``): :func:`card_move_text` and :func:`parse_card_move`."""

from __future__ import annotations

import operator

from .cards import CARD_NAMES, NUM_CARDS, parse_card


def as_move_id(move) -> int | None:
    """``move`` as an int if it is an integer (numpy integers are welcome), else None
    (floats, bools, strings, arrays such as ``np.array([1])``): what an engine's ``apply``
    accepts before it checks that the move is legal.

        >>> as_move_id(3), as_move_id(True), as_move_id(3.0), as_move_id("3")
        (3, None, None, None)
    """
    if type(move) is int:
        return move
    if isinstance(move, bool):
        return None
    try:
        return operator.index(move)
    except TypeError:
        return None


def described_move(move, num_moves: int, text) -> str:
    """How an engine's error names ``move``: its text and id when it is a move id (``text``
    writes one, as the game's ``move_text``), else the value and the valid ids.

        >>> described_move(3, 41, lambda m: f"card {m}"), described_move(2.5, 41, str)
        ("'card 3' (id 3)", '2.5 (valid ids are integers 0..40)')
    """
    if isinstance(move, int) and not isinstance(move, bool) and 0 <= move < num_moves:
        return f"{text(move)!r} (id {move})"
    return f"{move!r} (valid ids are integers 0..{num_moves - 1})"


def card_played(move: int, play_base: int) -> int | None:
    """The card move ``move`` plays to the trick in a game whose plays are the ids from
    ``play_base`` up, in blocks of the 40 cards in card order (Mediatore's: a block per signal;
    club Mediatore's: one); None for a lower id (a bid, a call, a discard, a card given).

        >>> card_played(126 + 40 + 3, 126), card_played(125, 126)
        (3, None)
    """
    return (move - play_base) % NUM_CARDS if move >= play_base else None


def card_move_text(move: int) -> str:
    """Move ``move`` of a game whose moves are the 40 cards: the card's notation, ``'D3'``.

        >>> card_move_text(0), card_move_text(39)
        ('D4', 'B3')
    """
    if type(move) is int and 0 <= move < NUM_CARDS:
        return CARD_NAMES[move]
    raise ValueError(f"not a card move: {move!r}; valid ids are 0..{NUM_CARDS - 1}")


def parse_card_move(text: str) -> int:
    """The move of a game whose moves are the 40 cards that ``text`` names (a card: ``'D3'``)."""
    try:
        return parse_card(text)
    except ValueError:
        raise ValueError(f"not a card move: {text!r}; a move is a card such as 'D3'") from None
