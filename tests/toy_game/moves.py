"""The toy game's moves: id ``c`` plays card ``c`` (0..39), written as the card's text."""

from __future__ import annotations

from mediatore_env.core.cards import CARD_NAMES, NUM_CARDS, parse_card

NUM_MOVES = NUM_CARDS


def move_text(move: int) -> str:
    if type(move) is int and 0 <= move < NUM_MOVES:
        return CARD_NAMES[move]
    raise ValueError(f"not a toy move: {move!r}; valid ids are 0..{NUM_MOVES - 1}")


def parse_move(text: str) -> int:
    try:
        return parse_card(text)
    except ValueError:
        raise ValueError(f"not a toy move: {text!r}; a move is a card such as 'D3'") from None
