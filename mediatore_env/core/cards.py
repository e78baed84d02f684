"""The 40-card Italian pack: cards as ints, hands as bitsets, and their text form.

A card is an int ``0..39``: ``suit * 10 + power``. ``power`` orders the ranks of a
suit by trick-taking strength, weakest first::

    power  0  1  2  3  4  5  6  7  8  9
    rank   4  5  6  7  F  C  R  A  2  3      (F = Fante, C = Cavallo, R = Re, A = Asso)

so within one suit a larger id always beats a smaller one. Suits are Denari (D),
Coppe (C), Spade (S) and Bastoni (B) -- coins, cups, swords, batons; in a French pack
diamonds, hearts, spades, clubs.

A set of cards (a hand, the monte, the cards played) is an int with bit ``card`` set
for each card in it, so "the cards of suit s in hand" is ``hand & SUIT_MASKS[s]``.

The canonical text of a card is its suit letter followed by its rank letter, the
same as its constant in this module::

    >>> parse_card("D3") == D3
    True
    >>> card_name(SA)
    'SA'
    >>> card_long_name(BR), card_long_name(BR, "french")
    ('Re di Bastoni', 'K♣')
"""

from __future__ import annotations

import operator
from typing import Iterable, Sequence

SUIT_LETTERS = "DCSB"
RANK_LETTERS = "4567FCRA23"  # by power, weakest first

DENARI, COPPE, SPADE, BASTONI = range(4)
SUITS = (DENARI, COPPE, SPADE, BASTONI)
NUM_CARDS = 40
ALL_CARDS = (1 << NUM_CARDS) - 1

SUIT_NAMES_IT = ("Denari", "Coppe", "Spade", "Bastoni")
SUIT_NAMES_EN = ("coins", "cups", "swords", "batons")
SUIT_NAMES_FR = ("diamonds", "hearts", "spades", "clubs")
SUIT_SYMBOLS_FR = ("♦", "♥", "♠", "♣")
RANK_NAMES_IT = ("4", "5", "6", "7", "Fante", "Cavallo", "Re", "Asso", "2", "3")
RANK_NAMES_EN = ("4", "5", "6", "7", "jack", "horse", "king", "ace", "2", "3")
RANK_SYMBOLS_FR = ("4", "5", "6", "7", "J", "Q", "K", "A", "2", "3")


def suit_of(card: int) -> int:
    """The suit of a card: ``DENARI``, ``COPPE``, ``SPADE`` or ``BASTONI`` (0..3)."""
    return card // 10


def power_of(card: int) -> int:
    """A card's strength within its suit, 0 (the 4) .. 9 (the 3); see the table above."""
    return card % 10


def make_card(suit: int, power: int) -> int:
    """The card of ``suit`` with ``power``: the inverse of :func:`suit_of` and :func:`power_of`."""
    return suit * 10 + power


def bit(card: int) -> int:
    """The one-card bitset of ``card``."""
    return 1 << card


# The same by table, for hot loops (the solver's search, the engine): indexing a tuple costs
# less than a call and no more than the arithmetic, and names what it means.
SUIT_OF = tuple(suit_of(c) for c in range(NUM_CARDS))
POWER_OF = tuple(power_of(c) for c in range(NUM_CARDS))
BIT_OF = tuple(bit(c) for c in range(NUM_CARDS))

# Card points in thirds of a point, by power: A = 3, the 3, 2 and court cards 1, 4-7 nothing.
_POINTS_BY_POWER = (0, 0, 0, 0, 1, 1, 1, 3, 1, 1)
POINTS = tuple(_POINTS_BY_POWER[power_of(c)] for c in range(NUM_CARDS))
DECK_THIRDS = sum(POINTS)  # 32
LAST_TRICK_THIRDS = 3
TOTAL_THIRDS = DECK_THIRDS + LAST_TRICK_THIRDS  # 35 thirds = 11 2/3 points

SUIT_MASKS = tuple(sum(bit(make_card(s, p)) for p in range(10)) for s in SUITS)
# "Low" cards for the striscio signal: Re or lower (power <= 6).
LOW_MASKS = tuple(sum(bit(make_card(s, p)) for p in range(7)) for s in SUITS)
ACES = sum(bit(c) for c in range(NUM_CARDS) if POINTS[c] == 3)
ONE_THIRD_CARDS = sum(bit(c) for c in range(NUM_CARDS) if POINTS[c] == 1)


def card_name(card: int) -> str:
    """Canonical two-letter text of a card: suit letter then rank letter, e.g. ``'D3'``.
    ``ValueError`` for what is no card id (0..39; a numpy integer is one, a bool is not)."""
    try:
        c = _card_id(card)
    except ValueError:
        c = None
    if c is None or not 0 <= c < NUM_CARDS:  # -1 would be 'B3', a list's last
        raise ValueError(f"not a card id: {card!r}; card ids are integers 0..{NUM_CARDS - 1}")
    return CARD_NAMES[c]


CARD_NAMES = tuple(SUIT_LETTERS[suit_of(c)] + RANK_LETTERS[power_of(c)] for c in range(NUM_CARDS))
_BY_NAME = {name: c for c, name in enumerate(CARD_NAMES)}

# Named constants D4 .. B3, one per card, equal to their text.
globals().update(_BY_NAME)
D4: int; D5: int; D6: int; D7: int; DF: int; DC: int; DR: int; DA: int; D2: int; D3: int  # noqa: E702
C4: int; C5: int; C6: int; C7: int; CF: int; CC: int; CR: int; CA: int; C2: int; C3: int  # noqa: E702
S4: int; S5: int; S6: int; S7: int; SF: int; SC: int; SR: int; SA: int; S2: int; S3: int  # noqa: E702
B4: int; B5: int; B6: int; B7: int; BF: int; BC: int; BR: int; BA: int; B2: int; B3: int  # noqa: E702


def parse_card(text: str) -> int:
    """Parse a card's text (``'D3'``, case-insensitive) or raise ``ValueError``."""
    card = _BY_NAME.get(text.strip().upper()) if isinstance(text, str) else None
    if card is None:
        raise ValueError(
            f"not a card: {text!r}; a card is a suit letter ({'/'.join(SUIT_LETTERS)}) "
            f"followed by a rank letter ({'/'.join(reversed(RANK_LETTERS))}), e.g. 'D3' or 'SA'"
        )
    return card


def card_long_name(card: int, style: str = "italian") -> str:
    """Display name: ``'Asso di Spade'`` (italian), ``'ace of swords'`` (english), ``'A♠'`` (french)."""
    suit, power = suit_of(card), power_of(card)
    if style == "italian":
        return f"{RANK_NAMES_IT[power]} di {SUIT_NAMES_IT[suit]}"
    if style == "english":
        return f"{RANK_NAMES_EN[power]} of {SUIT_NAMES_EN[suit]}"
    if style == "french":
        return RANK_SYMBOLS_FR[power] + SUIT_SYMBOLS_FR[suit]
    raise ValueError(f"unknown card style {style!r}; valid: 'italian', 'english', 'french'")


# -- bitsets -----------------------------------------------------------------------------

def to_mask(cards: Iterable[int]) -> int:
    """The bitset of some cards."""
    mask = 0
    for c in cards:
        mask |= BIT_OF[c]
    return mask


# For each 10-bit suit pattern, the powers present, strongest first; and per suit the cards.
_POWERS = tuple(tuple(p for p in range(9, -1, -1) if pattern >> p & 1) for pattern in range(1024))
_D, _C, _S, _B = (tuple(tuple(make_card(s, p) for p in ps) for ps in _POWERS) for s in SUITS)


def cards_of(mask: int) -> list[int]:
    """The cards of a bitset, grouped by suit (D, C, S, B), strongest first within a suit."""
    return [*_D[mask & 1023], *_C[(mask >> 10) & 1023], *_S[(mask >> 20) & 1023], *_B[mask >> 30]]


def highest(mask: int) -> int:
    """The highest card id in a non-empty bitset (the strongest card when all share a suit)."""
    return mask.bit_length() - 1


def thirds_of(mask: int) -> int:
    """Card points of a set of cards, in thirds."""
    return 3 * (mask & ACES).bit_count() + (mask & ONE_THIRD_CARDS).bit_count()


def card_names(mask: int) -> list[str]:
    """The names of a set of cards, as records list them: ``['D3', 'DA', 'CR']``."""
    return [CARD_NAMES[c] for c in cards_of(mask)]


def format_cards(mask: int) -> str:
    """Text of a set of cards: ``'D3 DA CR SF B7'``."""
    return " ".join(card_names(mask))


def parse_cards(text: str) -> list[int]:
    """Parse space-separated card texts, in order. Raises ``ValueError``."""
    if not isinstance(text, str):
        raise ValueError(f"not cards: {text!r}; cards are a text of card names separated by "
                         "spaces, e.g. 'D3 SA'")
    return [parse_card(t) for t in text.split()]


_EVERY_CARD = frozenset(range(NUM_CARDS))


def _card_id(c) -> int:
    if not isinstance(c, bool):  # a numpy bool has no __index__
        try:
            return operator.index(c)
        except TypeError:
            pass
    raise ValueError(f"{c!r} is not a card: a card is an id 0..39 (an integer) or a text such "
                     "as 'D3'")


def validate_pack(pack: Sequence) -> tuple[int, ...]:
    """A pack as a tuple of 40 card ids; accepts ids or card texts. Raises ``ValueError``."""
    if isinstance(pack, str):
        pack = pack.split()
    try:
        ids = tuple(pack)
    except TypeError:
        raise ValueError(f"bad pack: expected a sequence of 40 cards, got {pack!r}") from None
    if len(ids) == NUM_CARDS and set(map(type, ids)) == {int} and set(ids) == _EVERY_CARD:
        return ids  # the common case: already 40 distinct card ids
    try:
        ids = tuple(parse_card(c) if isinstance(c, str) else _card_id(c) for c in ids)
    except ValueError as e:
        raise ValueError(f"bad pack: {e}") from None
    bad = [c for c in ids if not 0 <= c < NUM_CARDS]
    if bad:
        raise ValueError(f"bad pack: card ids must be 0..39, got {bad}")
    if len(ids) != NUM_CARDS or len(set(ids)) != NUM_CARDS:
        seen, dup = set(), []
        for c in ids:
            (dup.append(CARD_NAMES[c]) if c in seen else seen.add(c))
        missing = [CARD_NAMES[c] for c in range(NUM_CARDS) if c not in seen]
        raise ValueError(f"bad pack: need the 40 distinct cards, got {len(ids)} cards"
                         + (f"; repeated: {' '.join(dup)}" if dup else "")
                         + (f"; missing: {' '.join(missing)}" if missing else ""))
    return ids
