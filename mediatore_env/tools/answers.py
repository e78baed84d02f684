"""Reading what a person types at ``mediatore-play``: one small reader per game, and the
sentences that say why an answer names no legal move.

:func:`read_answer` reads what every game shares -- the commands (``q``, ``?``, ``t``), an
empty answer -- then hands the words to the game's :class:`Reader` (:func:`reader_of`):
Mediatore's knows its bids, signals and the four discards given in one answer; every other
game's is :func:`card_game_reader`, which reads a number from the list, the move's own text
(``claim``, ``accept``, ``call D3``) or a card typed as people type it (``D3``, ``3d``,
``ace of swords``) and finds the legal move that plays it, and club Mediatore's discards in one
answer as Mediatore's (:func:`check_discards`). A card refused is explained one way in every
game (:func:`card_refusal`): not held, or held but the suit led must be followed.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, NamedTuple, Sequence

from ..core.cards import SUIT_MASKS, SUITS, cards_of, parse_card, power_of, suit_of
from ..core.tricks import follow_suit
from ..core.text import card_label, card_tag, card_text, rank_text, shown, suit_label
from ..mediatore.moves import (AUCTION, CALL, DISCARD, GIVE, PASS, PLAY, call_move, card_of_move,
                               discard_move, give_move, parse_move, phase_of_move, play_move,
                               signal_of_move)
from ..mediatore.nine_tricks import discards_left
from ..mediatore.rules import (BUSSO, BUSSO_MEGLIO, CONTRACT_NAMES, NO_SIGNAL, SIGNAL_NAMES,
                               STRISCIO, TUTTO_FUORI, VOLO)
from .terminal import _COMMANDS, BadInput, parse_cards_words

__all__ = ["Reader", "reader_of", "read_answer", "card_refusal", "not_held", "check_discards",
           "card_game_reader", "explain_illegal"]


def no_note(view) -> str:
    """A game whose terminal reads every question as the page does: no note."""
    return ""


class Reader(NamedTuple):
    """How one game reads its answers: ``read(words, view, listed)`` -> the moves named (a
    list: Mediatore's and club Mediatore's discards come four at once), raising
    :class:`BadInput` saying why not; ``help``, the help text of ``?``; ``order(legal)``, the
    legal moves in the order listed; ``note(view)``, how to answer the game's question here,
    where the terminal reads it its own way (the four discards in one answer; the page takes
    them card by card)."""
    read: Callable[[str, object, Sequence[int]], list[int]]
    help: str
    order: Callable[[list[int]], list[int]] = list
    note: Callable[[Any], str] = no_note  # of a view of the game's own


def read_answer(text: str, view, listed: Sequence[int], reader: Reader) -> list[int] | str:
    """What a person typed at a decision of ``view``'s seat: a list of move ids, or a command
    (``QUIT``, ``HELP``, ``TABLE``). ``listed`` are the legal moves in the order shown,
    numbered from 1. Raises :class:`BadInput` with an explanation when it names no legal move."""
    raw = text.strip().lower()
    if raw in _COMMANDS:
        return _COMMANDS[raw]
    if not raw:
        raise BadInput("Type the number of a move from the list, or the move in words.")
    return reader.read(raw, view, listed)


def _numbered(tokens: Sequence[str], listed: Sequence[int], several: bool = False
              ) -> list[int] | None:
    """The moves of ``listed`` numbered by ``tokens`` (from 1), None if they are not numbers."""
    if not all(t.isdecimal() for t in tokens):  # what int() reads: not '²', a digit too
        return None
    numbers = [int(t) for t in tokens]
    bad = [n for n in numbers if not 1 <= n <= len(listed)]
    if bad:
        raise BadInput(f"There is no move {bad[0]}: choose a number from 1 to {len(listed)}.")
    if len(numbers) > 1 and not several:
        raise BadInput("One move at a time, please (several numbers only when discarding).")
    return [listed[n - 1] for n in numbers]


def not_held(card: int, style: str = "english") -> str:
    """The refusal of a card the seat does not hold, in every game and phase, in the card
    names the player chose (``style``, as every refusal)."""
    return f"You do not hold the {card_label(card, style)}."


def card_refusal(card: int, view, style: str = "english") -> str | None:
    """Why ``view``'s seat may not play ``card`` to the trick on the table: it does not hold
    it, or it holds a card of the suit led; None if it may."""
    if not view.hand >> card & 1:
        return not_held(card, style)
    if view.trick and not follow_suit(view.hand, view.trick[0]) >> card & 1:
        suit = suit_of(view.trick[0])
        held = " ".join(card_tag(c, style) for c in cards_of(view.hand & SUIT_MASKS[suit]))
        # the short style's suit is a letter ("C"): the sentence names it in words
        led = suit_label(suit, "english" if style == "short" else style)
        return f"You must follow suit: {led} were led and you hold {held}."
    return None


# -- the discards of Mediatore and club Mediatore: all in one answer -------------------------------

def check_discards(cards: Sequence[int], view, style: str = "english") -> None:
    """Refuse an answer naming the cards to discard unless it names every card ``view``'s seat
    has still to discard, each held and once: nothing is discarded until all are named, as an
    answer applied piecemeal would renumber the list under the player (the page, which shows
    no numbers, takes them card by card)."""
    for card in cards:
        if not view.hand >> card & 1:
            raise BadInput(not_held(card, style))
    if len(set(cards)) != len(cards):
        raise BadInput("The same card twice: name each card to discard once.")
    left = discards_left(view)
    if len(cards) != left:
        raise BadInput(f"Name all {left} cards to discard in one answer, not {len(cards)} "
                       f"(numbers like '1 4 6 9' or cards like 'C4 C5 B4 B5'); "
                       "nothing is discarded until all are named.")


#: What to type when discarding.
NAME_DISCARDS = "Name the cards to discard, all in one answer (e.g. 'C4 C5 B4 B5' or '1 4 6 9')."
#: After the number in ``?``'s text, where the discards are named in one answer.
_ALL_AT_ONCE = "        (in the discard phase all four at once: 1 4 6 9)"


def discard_note(view) -> str:
    """The terminal's note to the question of the discards (the :class:`Reader`'s ``note``)."""
    return "name them all in one answer" if discards_left(view) else ""


# -- every game but Mediatore: its moves' text and the cards ---------------------------------------

#: The small words between a card's rank and suit (``3 of coins``, ``asso di spade``).
_OF = ("of", "di", "the")
_CARD_VERBS = {"play": "play", "lead": "play", "call": "call", "discard": "discard",
               "give": "give"}


def _card_of(move_text: str) -> int | None:
    """The card a move's text ends with (``D3``, ``discard D3``), or None (``claim``)."""
    try:
        return parse_card(move_text.split()[-1])
    except ValueError:
        return None


def _names(move_text: str, card: int, verb: str | None) -> bool:
    """Whether a move's text names ``card`` with ``verb`` (any verb if None; a text without a
    verb, a card alone, goes with every verb)."""
    words = move_text.lower().split()
    return _card_of(move_text) == card and (verb is None or len(words) == 1 or words[0] == verb)


def card_game_reader(moves, text, discards: bool = False, style: str = "english") -> Reader:
    """The reader of a game from its moves (a :class:`~mediatore_env.core.definition.MoveTable`)
    and its display (``move_words``): a number from the list, a move's text, or a card (with a verb or
    alone: the legal move whose text ends with that card). With ``discards`` (club Mediatore),
    the cards to discard are named all in one answer, as in Mediatore (:func:`check_discards`)."""

    def refuse(move: int, view, listed: Sequence[int]) -> BadInput:
        card = _card_of(moves.text(move))
        from_hand = all(view.hand >> c & 1 for c in map(_card_of, map(moves.text, listed))
                        if c is not None)
        why = card_refusal(card, view, style) if card is not None and from_hand else None
        return BadInput(why or f"You cannot {text.move_words(move, style)} now: choose a move "
                               "of the list.")

    def read(raw: str, view, listed: Sequence[int]) -> list[int]:
        if discards and discards_left(view):
            return read_discards(raw, view, listed)
        tokens = raw.replace(",", " ").split()
        numbers = _numbered(tokens, listed)
        if numbers is not None:
            return numbers
        try:  # the game's own text: "claim", "accept", "call D3"
            move = moves.parse(raw)
        except ValueError:
            move = None
        if move is not None:
            if move in listed:
                return [move]
            raise refuse(move, view, listed)
        verb = _CARD_VERBS.get(tokens[0])
        cards, rest = parse_cards_words([t for t in tokens[verb is not None:]
                                         if t not in _OF])
        if len(cards) != 1 or rest:
            raise BadInput(f"Not a card or a move: {shown(raw)}. Type a number from 1 to "
                           f"{len(listed)}, a card such as D3, or ? for help.")
        named = [m for m in listed if _names(moves.text(m), cards[0], verb)]
        if len(named) == 1:
            return named
        for m in range(moves.count):  # the move it would be, to say why not
            if _names(moves.text(m), cards[0], verb):
                raise refuse(m, view, listed)
        raise BadInput(f"Not a move now: {shown(raw)}. Type a number from 1 to {len(listed)}.")

    def read_discards(raw: str, view, listed: Sequence[int]) -> list[int]:
        tokens = raw.replace(",", " ").split()
        numbers = _numbered(tokens, listed, several=True)
        if numbers is None:
            cards, rest = parse_cards_words([t for t in tokens[tokens[0] == "discard":]
                                             if t not in _OF])
            if not cards or rest:
                raise BadInput(f"Not a card or a move: {shown(raw)}. {NAME_DISCARDS}")
        else:  # a discard's text ends with its card: "discard D3"
            cards = [parse_card(moves.text(m).split()[-1]) for m in numbers]
        check_discards(cards, view, style)
        discard = {_card_of(moves.text(m)): m for m in listed}
        return [discard[c] for c in cards]

    def order(legal: list[int]) -> list[int]:
        # the moves that name no card first, as given; then by suit and strongest first, as
        # the hand is shown
        def key(m: int) -> tuple:
            card = _card_of(moves.text(m))
            return (0, 0, 0) if card is None else (1, suit_of(card), -power_of(card))
        return sorted(legal, key=key)

    return Reader(read, help_cards(moves, discards, style), order,
                  discard_note if discards else no_note)


def help_cards(moves, discards: bool = False, style: str = "english") -> str:
    """``?``'s text for a game of these moves: its own words (``claim``, ``call D3``), not
    another game's."""
    words: list[str] = []
    for m in range(moves.count):
        text = moves.text(m)
        card = _card_of(text)
        if card is None or len(text.split()) > 1:
            word = text if card is None else f"{text.split()[0]} D3"
            if word not in words:
                words.append(word)
    # a move in words is taken only when the list offers it (a claim not at every card)
    listed = (f"as listed, when the list has {'it' if len(words) == 1 else 'them'}: "
              f"{', '.join(words)}" if words else "the card alone: D3")
    return f"""\
How to answer
  a number from the list          3{_ALL_AT_ONCE if discards else ""}
{card_syntax(style)}
  the move in words               {listed}
  t   show the whole table again     ?   this help     q (or Ctrl-D)   quit
The list holds only the moves you may make (when playing, you follow suit if you can)."""


def card_syntax(style: str = "english") -> str:
    """``?``'s lines on typing a card, in the words the table names cards with: the Italian
    names under ``--cards italian`` (which the answers read too), else the English ones (the
    french symbols and the short codes have no words of their own)."""
    words = _word_style(style)
    suits = " ".join(suit_label(suit, words) for suit in SUITS)
    jack, horse, king, ace = (rank_text(parse_card(f"D{r}"), words) for r in "FCRA")
    indent = " " * 34
    return (f"  a card in two characters        D3 or 3D, SA or AS (suit D C S B = {suits};\n"
            f"{indent}rank 4 5 6 7 F C R A 2 3 = ... {jack} {horse} {king} {ace} 2 3;\n"
            f"{indent}J Q K also mean {jack}, {horse}, {king}), or A♠, or "
            f"{_words(parse_card('SA'), style)}")


def reader_of(definition, style: str = "english") -> Reader:
    """The reader of a definition's game: Mediatore's own, any other game's from its moves
    and display (club Mediatore's with its discards in one answer). Its refusals name cards
    in ``style``, as the table does (:data:`~mediatore_env.core.text.STYLES`)."""
    if definition.name == "mediatore":
        return Reader(partial(read_mediatore, style=style), help_text(style), _orderly,
                      discard_note)
    # club Mediatore's mediator discards as Mediatore's declarer does: all in one answer
    return card_game_reader(definition.moves, definition.display,
                            discards=definition.name == "club", style=style)


# -- Mediatore ------------------------------------------------------------------------------------

_FILLER = {"of", "di", "the", "a", "with", "and", "e", "cerco", "la", "card", "to"}
_VERBS = {"pass": AUCTION, "bid": AUCTION, "call": CALL, "discard": DISCARD, "give": GIVE,
          "play": PLAY, "lead": PLAY}
_PHASE_WORDS = {AUCTION: "the auction", CALL: "the call", DISCARD: "the discard",
                GIVE: "the card passed back", PLAY: "the play"}


def _signal_of(words: Sequence[str], allowed: Sequence[int]) -> int:
    """The signal named by ``words`` (``volo``, ``v``, ``busso e cerco la meglio``)."""
    text = "+".join(w for w in words if w not in _FILLER).replace("++", "+")
    if not text:
        return NO_SIGNAL
    names = {SIGNAL_NAMES[s]: s for s in range(1, len(SIGNAL_NAMES))}
    names.update({"tutto+fuori": TUTTO_FUORI, "tuttofuori": TUTTO_FUORI, "knock": BUSSO,
                  "fly": VOLO, "piombo": VOLO, "stroke": STRISCIO, "liscio": STRISCIO,
                  "busso+la+meglio": BUSSO_MEGLIO, "meglio+busso": BUSSO_MEGLIO})
    if text in names:
        return names[text]
    # A short form: the one signal it begins, else the one of those this lead allows (a
    # signal it does not allow is returned, to be refused with the rule's reason).
    matches = {s for name, s in names.items() if name.startswith(text)}
    if len(matches) > 1:
        matches = matches & set(allowed) or matches
    if len(matches) == 1:
        return matches.pop()
    here = ", ".join(SIGNAL_NAMES[s] for s in allowed if s != NO_SIGNAL) or "none"
    if matches:
        raise BadInput(f"{shown(' '.join(words))} could be "
                       + " or ".join(sorted(SIGNAL_NAMES[s] for s in matches))
                       + f": write more of it (signals with this card: {here})")
    raise BadInput(f"not a signal: {shown(' '.join(words))}; signals with this card: {here}")


def _may_bid(legal: Sequence[int]) -> str:
    """The calls the seat may still make: ``'pass, or bid one of solissimo, arcisolissimo'``
    (none lower than the bid to beat, none the table has not)."""
    bids = [CONTRACT_NAMES[m] for m in legal if m != PASS]
    if not bids:
        return "only pass"
    return "pass, or bid " + ("one of " * (len(bids) > 1)) + ", ".join(bids)


def _contract_of(word: str, legal: Sequence[int]) -> int:
    """The contract ``word`` names: its name, or the start of one (``arci``, ``c``). A bid
    binds, so a start that fits several contracts (``s``: solo or solissimo) is never
    guessed: it is refused, with the bids still ``legal``; but where none of them may be bid
    any more, their highest is returned, to be refused with the reason (too low)."""
    for contract, name in CONTRACT_NAMES.items():
        if word == name:
            return contract
    matches = [c for c, name in CONTRACT_NAMES.items() if name.startswith(word)]
    if len(matches) > 1 and not set(matches) & set(legal):
        matches = matches[-1:]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise BadInput(f"{shown(word)} could be " + " or ".join(CONTRACT_NAMES[c] for c in matches)
                       + f": write more of it (you may {_may_bid(legal)})")
    raise BadInput(f"not a bid: {shown(word)}; you may {_may_bid(legal)}")


def read_mediatore(raw: str, view, listed: Sequence[int], style: str = "english") -> list[int]:
    """Mediatore's moves in words (``solo``, ``call 3 of coins``, ``SA volo``, four discards in
    one answer) or numbers from the list (several only for the discards)."""
    tokens = raw.replace(",", " ").replace("+", " + ").split()
    tokens = [t for t in tokens if t != "+"]
    legal = set(listed)
    phase = view.phase
    numbers = _numbered(tokens, listed, several=phase == DISCARD)
    if numbers is not None:
        return _check_discards(numbers, view, style) if phase == DISCARD else numbers
    try:  # the engine's own text: "play D3 busso", "bid solo"
        move = parse_move(raw)
    except ValueError:
        move = None
    if move in legal:
        return _check_discards([move], view, style) if phase == DISCARD else [move]
    if tokens[0] in _VERBS:
        if _VERBS[tokens[0]] != phase:
            raise BadInput(f"Now it is {_PHASE_WORDS[phase]}, not {_PHASE_WORDS[_VERBS[tokens[0]]]}. "
                           + _what_to_type(view, style))
        if tokens[0] != "pass":
            tokens = tokens[1:]
    tokens = [t for t in tokens if t not in _OF]
    if not tokens:
        raise BadInput(_what_to_type(view, style))
    if phase == AUCTION:
        if tokens in (["pass"], ["p"], ["no"]):
            return [PASS]
        if len(tokens) != 1:
            raise BadInput("Bid one contract or pass: " + _what_to_type(view, style))
        move = _contract_of(tokens[0], listed)
        if move not in legal:
            raise BadInput(explain_illegal(move, view, style))
        return [move]
    cards, rest = parse_cards_words(tokens)
    if not cards:
        raise BadInput(f"Not a card or a move: {shown(raw)}. " + _what_to_type(view, style))
    if phase == PLAY:
        if len(cards) > 1:
            raise BadInput("Play one card at a time.")
        card = cards[0]
        allowed = [signal_of_move(m) for m in listed if card_of_move(m) == card]
        signal = _signal_of(rest, allowed or range(len(SIGNAL_NAMES)))
        move = play_move(card, signal)
    elif rest:
        raise BadInput(f"I do not understand {shown(' '.join(rest))} after the card. " + _what_to_type(view, style))
    elif phase == DISCARD:
        return _check_discards([discard_move(c) for c in cards], view, style)
    elif len(cards) > 1:
        raise BadInput("One card, please.")
    else:
        move = {CALL: call_move, GIVE: give_move}[phase](cards[0])
    if move not in legal:
        raise BadInput(explain_illegal(move, view, style))
    return [move]


def _check_discards(moves: list[int], view, style: str) -> list[int]:
    check_discards([card_of_move(m) for m in moves], view, style)
    return moves


def _what_to_type(view, style: str) -> str:
    return {
        AUCTION: "Type pass or a bid (e.g. 'solo'), or a number from the list.",
        CALL: f"Name the card to call (e.g. 'D3' or '{_words(parse_card('D3'), style)}'), or a "
              "number from the list.",
        DISCARD: NAME_DISCARDS,
        GIVE: "Name the card of your hand to pass back (e.g. 'B4'), or a number from the list.",
        PLAY: "Name a card of your hand (e.g. 'SA', or 'SA volo' when leading), or a number.",
    }.get(view.phase, "")


def explain_illegal(move: int, view, style: str = "english") -> str:
    """Why ``move`` is not legal for ``view``'s seat now, in a sentence a player understands,
    its cards named in ``style``."""
    phase = view.phase
    if phase == AUCTION:
        if view.auction and max(b for _, b in view.auction) >= view.rules.top_contract:
            return (f"{CONTRACT_NAMES[view.rules.top_contract]} is the top bid: "
                    "everyone else can only pass.")
        high = max((b for _, b in view.auction), default=PASS)
        if move <= high:
            return (f"A bid must be higher than {CONTRACT_NAMES[high]}: "
                    f"{_may_bid(view.legal_moves())}.")
        return f"{CONTRACT_NAMES[move]} is not a contract at this table (no arcisolissimo)."
    if phase == CALL:
        only = {"three": "a 3", "three_or_two": "a 3 or a 2", "no_ace": "any card but an ace"}
        return (f"At this table you may call only {only.get(view.rules.call_restriction, 'any card')}; "
                f"{card_text(card_of_move(move), style)} is not allowed.")
    card = card_of_move(move)
    if phase in (DISCARD, GIVE):
        return not_held(card, style)
    signal = signal_of_move(move)
    refusal = card_refusal(card, view, style)
    if refusal:
        return refusal
    if view.trick and signal:
        return "Only the player who leads a trick may signal."
    name = SIGNAL_NAMES[signal]
    if view.rules.signals == "off":
        return "Signals are off at this table: play the card without one."
    if signal not in view.rules.signal_ids:
        return f"{name} is not a signal of this table's code ({view.rules.signals})."
    # A signal of the code refused with a card it may go with is a statement that is false
    # here (docs/rules.md 6 and 8.7: requests are always allowed); say what it states.
    why = {
        "volo": "it says this is your last card of the suit, and you hold more",
        "striscio": "it says you hold another low card (king or lower) of the suit",
        "busso": "busso here says you hold the highest card of the suit still out",
        "ribusso": "ribusso says you hold the second highest card of the suit still out",
        "busso+meglio": "busso says you hold the highest card of the suit still out",
        "ribusso+meglio": "ribusso says you hold the second highest card of the suit still out",
    }.get(name, "that signal is not allowed with this card")
    return f"You cannot lead {card_tag(card, style)} with {name}: {why}."


def help_text(style: str = "english") -> str:
    """Mediatore's ``?`` text, its cards named in ``style``'s words (:func:`card_syntax`)."""
    ace, king, horse, jack = (rank_text(parse_card(f"D{r}"), _word_style(style)) for r in "ARCF")
    return f"""\
How to answer
  a number from the list          3{_ALL_AT_ONCE}
  the move in words               pass, solo, bid solo, call {_words(parse_card("D3"), style)}, SA, play SA volo
{card_syntax(style)}
  a signal after a lead           SA busso, SA volo, SA striscio (b, v, s are enough)
  t   show the whole table again     ?   this help     q (or Ctrl-D)   quit
The order of play is anticlockwise: the seat after seat n is seat n+1 (mod 4).
Cards, strongest first in each suit: 3 2 A({ace}) R({king}) C({horse}) F({jack}) 7 6 5 4.
Points: {ace} 1, 3 2 R C F 1/3 each, the last trick 1 more; the declarer's side needs 6 of 11."""


def _word_style(style: str) -> str:
    """The style whose words the answers read and the help shows: Italian under ``--cards
    italian``, else English (the french symbols and the short codes have no words of their
    own)."""
    return "italian" if style == "italian" else "english"


def _words(card: int, style: str) -> str:
    """A card in the words the answers read (:func:`_word_style`)."""
    return card_text(card, _word_style(style))


def _orderly(moves: list[int]) -> list[int]:
    """Legal moves in the order shown: calls by suit, strongest card first; others as given."""
    if moves and phase_of_move(moves[0]) == CALL:
        return sorted(moves, key=lambda m: (suit_of(card_of_move(m)), -card_of_move(m)))
    return list(moves)


