"""The text of cards for people, shared by every game's display (:mod:`.display`, the defaults,
and ``<game>/display.py``): card words in four styles, hands by suit, a trick in a line,
columns of moves, points in thirds, the verbs of "You", and the table as JSON for the browser
(:func:`table_json`, which each game's ``view_json`` fills with its own facts).

    >>> from mediatore_env.core.cards import SA, D3, bit
    >>> [card_text(SA, style) for style in STYLES]
    ['ace of swords', 'Asso di Spade', 'A♠', 'SA']
    >>> hand_inline(bit(D3) | bit(SA))
    'D3 · - · SA · -'
    >>> format_thirds(5)
    '1 2/3'
"""

from __future__ import annotations

from typing import Sequence

from ..core.cards import (CARD_NAMES, RANK_LETTERS, RANK_NAMES_EN, RANK_NAMES_IT,
                          RANK_SYMBOLS_FR, SUIT_LETTERS, SUIT_NAMES_EN, SUIT_NAMES_FR,
                          SUIT_NAMES_IT, SUIT_SYMBOLS_FR, SUITS, card_long_name, cards_of,
                          power_of, suit_of)

STYLES = ("english", "italian", "french", "short")
DEFAULT_NAMES = ("seat 0", "seat 1", "seat 2", "seat 3")
YOU = "You"
_RANKS = {"english": RANK_NAMES_EN, "italian": RANK_NAMES_IT, "french": RANK_SYMBOLS_FR,
          "short": tuple(RANK_LETTERS)}
_SUITS = {"english": SUIT_NAMES_EN, "italian": SUIT_NAMES_IT,
          "french": tuple(f"{sym} {name}" for sym, name in zip(SUIT_SYMBOLS_FR, SUIT_NAMES_FR)),
          "short": tuple(SUIT_LETTERS)}


def shown(value, width: int = 40) -> str:
    """``repr(value)`` cut to ``width`` characters: an error names what it got without
    echoing a whole request, or a whole line typed, back."""
    text = repr(value)
    if len(text) <= width:
        return text
    if isinstance(value, str):  # cut inside its quotes: 'xxxx...', each escape whole ('\x00')
        cut = value[:max(width - 5, 1)]
        while len(repr(cut + "...")) > width and len(cut) > 1:
            cut = cut[:-1]
        return repr(cut + "...")
    return text[:width - 3] + "..."


def _check_style(style: str) -> None:
    if style not in STYLES:
        raise ValueError(f"unknown card style {style!r}; valid: {', '.join(STYLES)}")


def card_text(card: int, style: str = "english") -> str:
    """A card in words: ``'ace of swords'``, ``'Asso di Spade'``, ``'A♠'`` or ``'SA'``."""
    _check_style(style)
    return CARD_NAMES[card] if style == "short" else card_long_name(card, style)


def rank_text(card: int, style: str = "english") -> str:
    """A card's rank in words: ``'ace'``, ``'Asso'``, ``'A'`` (french and short)."""
    _check_style(style)
    return _RANKS[style][power_of(card)]


def card_tag(card: int, style: str = "english") -> str:
    """A card in at most 3 characters, for tables: ``'A♠'`` in the french style, else ``'SA'``."""
    return card_long_name(card, "french") if style == "french" else CARD_NAMES[card]


def card_label(card: int, style: str = "english") -> str:
    """A card for running text: its words with the short notation, ``'ace of swords (SA)'``."""
    if style in ("short", "french"):
        return card_text(card, style)
    return f"{card_text(card, style)} ({CARD_NAMES[card]})"


def suit_label(suit: int, style: str = "english") -> str:
    _check_style(style)
    return _SUITS[style][suit]


def counted(n: int, noun: str, plural: str = "") -> str:
    """``n`` things, the noun singular for one (reports count down to a single deal)::

        >>> counted(1, "pair"), counted(3, "pair"), counted(1, "copy", "copies")
        ('1 pair', '3 pairs', '1 copy')
    """
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def points_text(thirds: int) -> str:
    """Thirds of a point as points, singular up to one: ``'1 1/3 points'``, ``'2/3 point'``."""
    return format_thirds(thirds) + (" point" if 0 < thirds <= 3 else " points")


def format_thirds(thirds: int) -> str:
    """Points from thirds of a point, with the fraction: 5 -> ``'1 2/3'``, 1 -> ``'1/3'``."""
    whole, rest = divmod(thirds, 3)
    if not rest:
        return str(whole)
    return f"{whole} {rest}/3" if whole else f"{rest}/3"


def does(name: str, verb: str) -> str:
    """``name`` doing ``verb``, in the second person for :data:`YOU`: ``'seat 1 deals'``,
    ``'You deal'`` (a verb whose third person takes a plain ``s``)."""
    return f"{name} {person(name, verb)}"


def person(name: str, verb: str) -> str:
    """``verb`` as :func:`does` puts it for ``name``, without the name: ``'deals'``,
    ``'deal'`` for :data:`YOU` (for a narrator that writes the names in a column)."""
    return verb if name == YOU else verb + "s"


def trick_line(leader: int, cards: Sequence[int], names: Sequence[str], players: int,
               style: str) -> str:
    """The cards of a trick with who played each, from ``leader`` on:
    ``'seat 1 ace of swords, seat 2 4 of swords'``."""
    return ", ".join(f"{names[(leader + k) % players]} {card_text(c, style)}"
                     for k, c in enumerate(cards))


def hand_lines(mask: int, style: str = "english") -> list[str]:
    """A hand sorted by suit, one line per suit, strongest card first::

        coins    3  ace  king  7       D3 DA DR D7
        cups     -

    The short notation follows the words (it is what the input accepts); the french and
    short styles show symbols or codes only.
    """
    _check_style(style)
    cards = cards_of(mask)
    labels = _SUITS[style]
    label_width = max(map(len, labels))
    rows = []
    for s in SUITS:
        in_suit = [c for c in cards if suit_of(c) == s]
        if style == "short":
            words = " ".join(CARD_NAMES[c] for c in in_suit)
        elif style == "french":
            words = " ".join(card_tag(c, style) for c in in_suit)
        else:
            words = "  ".join(rank_text(c, style) for c in in_suit)
        rows.append((labels[s], words or "-", " ".join(CARD_NAMES[c] for c in in_suit)))
    if style in ("short", "french"):
        return [f"{label:<{label_width}}  {words}" for label, words, _ in rows]
    words_width = max(len(words) for _, words, _ in rows)
    return [f"{label:<{label_width}}  {words:<{words_width}}   {codes}".rstrip()
            for label, words, codes in rows]


def hand_news(name: str, hand: int, style: str = "english") -> list[str]:
    """A seat's hand as the news gives it when dealt: ``Your hand:`` (``Hand of Anna:``), then
    its :func:`hand_lines`, indented."""
    return ["Your hand:" if name == YOU else f"Hand of {name}:",
            *("  " + line for line in hand_lines(hand, style))]


def cards_inline(mask: int, style: str = "short") -> str:
    """A few cards on one line, strongest first within each suit: ``'DA C5 B4'``."""
    return " ".join(card_tag(c, style) for c in cards_of(mask))


def hand_inline(mask: int, style: str = "short") -> str:
    """A hand on one line, suits in order D C S B separated by dots: ``'D3 DA · - · SA · B4'``."""
    cards = cards_of(mask)
    return " · ".join(" ".join(card_tag(c, style) for c in cards if suit_of(c) == s) or "-"
                      for s in SUITS)


def columns(entries: list[str], width: int) -> list[str]:
    """Entries laid out in as many columns as fit in ``width``, filled column by column."""
    if not entries:
        return []
    cell = max(map(len, entries)) + 3
    ncols = max(1, min(len(entries), (width + 3) // cell))
    nrows = -(-len(entries) // ncols)
    ncols = -(-len(entries) // nrows)
    lines = []
    for r in range(nrows):
        row = [entries[c * nrows + r] for c in range(ncols) if c * nrows + r < len(entries)]
        lines.append("".join(f"{e:<{cell}}" for e in row).rstrip())
    return lines


def card_json(card: int, style: str = "english") -> dict:
    """One card for the page to draw: its tag (``'SA'``), rank and suit in words, its suit's
    number (for the colour) and the words people read."""
    suit = suit_of(card)
    return {"tag": CARD_NAMES[card], "rank": rank_text(card, style),
            "suit": suit_label(suit, style), "suit_index": suit, "text": card_text(card, style)}


def cards_json(mask: int, style: str = "english") -> list[dict]:
    """The cards of a bitset (:func:`card_json` each), strongest first within each suit."""
    return [card_json(c, style) for c in cards_of(mask)]


def trick_json(leader: int, cards: Sequence[int], players: int, style: str,
               signal: str | None = None) -> list[dict]:
    """A trick as ``[{"seat", "card", "signal"}]`` in playing order from its leader: the
    signal (Mediatore's ``busso``, ``volo``, ``striscio``...) goes with the lead, the card it
    was given with, so the page shows it there; every other card has none."""
    return [{"seat": (leader + k) % players, "card": card_json(c, style),
             "signal": signal if k == 0 else None}
            for k, c in enumerate(cards)]


def summary_json(columns: Sequence[str], rows: Sequence[Sequence],
                 lines: Sequence[str] = ()) -> dict:
    """The end of a deal, game or session as a table: a row per seat under ``columns``, the
    last column each seat's result; ``best`` the seats that won, whose (zero-sum) result is
    positive: the whole winning side, a Mediatore giver paid less than the defenders beside
    him included; none where nobody won (a deal thrown in); ``lines``, what the game says of
    the end above the table (Mediatore's contract made or lost)."""
    return {"columns": list(columns), "rows": [list(row) for row in rows],
            "best": [s for s, row in enumerate(rows) if row[-1] > 0], "lines": list(lines)}


def grid_lines(columns: Sequence[str], rows: Sequence[Sequence]) -> list[str]:
    """A table as text: the ``columns`` over the ``rows``, each column as wide as its widest
    cell and two spaces, the last unpadded (a hand's end: :func:`end_json`'s ``columns``
    and ``rows``, printed from the same cells the page draws)::

        >>> grid_lines(["side", "hand"], [["You", 8], ["greedy(1)", 3]])
        ['side       hand', 'You        8', 'greedy(1)  3']
    """
    table = [list(map(str, columns)), *([str(c) for c in row] for row in rows)]
    widths = [max(len(row[k]) for row in table) + 2 for k in range(len(columns))]
    return ["".join(c.ljust(w) for c, w in zip(row[:-1], widths)) + row[-1] for row in table]


def end_json(title: str, parts: Sequence[dict]) -> dict:
    """A hand's end within an episode (a Tressette hand, a club deal) as the page draws it:
    its ``title`` (``hand 1: the end``) and its ``parts`` in order, each an :func:`end_part`.
    A game's display makes it once (``stop_json``) and prints its text end from it, so the
    terminal's table and the page's cannot disagree."""
    return {"title": title, "parts": list(parts)}


def end_part(label: str, lines: Sequence[str] = (), columns: Sequence[str] = (),
             rows: Sequence[Sequence] = (), foot: Sequence | None = None,
             notes: Sequence[str] = ()) -> dict:
    """One part of :func:`end_json`: under its ``label`` (empty: none), either ``lines`` of
    words or a table, ``columns`` over ``rows`` (each row's first cell names it: a side, a
    trick's number) with an optional ``foot`` row (the points each seat took) and the
    ``notes`` that explain its marks."""
    return {"label": label, "lines": list(lines), "columns": list(columns),
            "rows": [list(row) for row in rows], "foot": None if foot is None else list(foot),
            "notes": list(notes)}


def panel(kind: str, label: str, **fields) -> dict:
    """One of the game's facts as structured data for a panel of the page: its ``kind`` says
    which fields it has (docs/web.md lists them), its ``label`` is its title."""
    return {"kind": kind, "label": label, **fields}


def table_json(view, names: Sequence[str], style: str, facts, move_words, hand_card,
               outcome, players: int = 4, *, signals: Sequence[str] = (),
               marks: dict | None = None, panels: Sequence[dict] = (),
               summary: dict | None = None, named_card=None, move_signal=None) -> dict:
    """What every game's ``view_json`` returns, from a seat's ``view`` (never the game): the
    hand, the cards each seat holds, the trick on the table and the last one (each lead with
    its signal's word among ``signals``, a game's names of them), the facts as ``[label,
    lines]`` in the game's own words, the same facts as structured ``panels``, the seats'
    ``marks`` (``dealer``, ``mano``, ``roles``, ``sides``), the legal moves with their text and
    the hand card each one plays (``hand_card(move)``, None for a move that is not a card of
    the hand) and the card it names otherwise (``named_card(move)``: a call, as
    :func:`card_json`), the signal a lead's move gives with its card, its word
    (``move_signal(move)``, an index into ``signals``; None without a signal: the page labels
    a card's several moves by it, not by their whole words), ``outcome`` (each seat's result
    once over, else None) and its
    ``summary``. The view decides what the seat knows; nothing here looks further."""
    def said(signal: int) -> str | None:
        return signals[signal] or None if signals else None

    # A call's cards after the other moves, by suit and strongest first, so that the page lays
    # them out without writing the family's strength order again.
    listed = []
    for m in view.legal_moves():
        card, named = hand_card(m), named_card(m) if named_card else None
        order = (0, 0, 0) if named is None else (1, suit_of(named), -power_of(named))
        listed.append((order, {"move": int(m), "words": move_words(m, style),
                               "card": None if card is None else CARD_NAMES[card],
                               "names": None if named is None else card_json(named, style),
                               "signal": said(move_signal(m)) if move_signal else None}))
    moves = [move for _, move in sorted(listed, key=lambda row: row[0])]
    tricks = view.tricks
    last = tricks[-1] if tricks else None

    marks = marks or {}
    return {
        "seat": view.seat, "players": players, "names": list(names),
        "to_move": view.to_move,
        "hand": [card_json(c, style) for c in cards_of(view.hand)],
        "hand_sizes": list(view.hand_sizes),
        "trick": trick_json(view.leader, view.trick, players, style,
                            said(getattr(view, "trick_signal", 0))) if view.trick else [],
        "last_trick": None if last is None else {
            "cards": trick_json(last.leader, last.cards, players, style, said(last.signal)),
            "winner": last.winner},
        "facts": [[label, list(lines)] for label, lines in facts if lines],
        "dealer": marks.get("dealer", view.dealer), "mano": marks.get("mano"),
        "roles": [list(r) for r in marks.get("roles", [()] * players)],
        "sides": list(marks.get("sides", [None] * players)),
        "panels": list(panels),
        "moves": moves,
        "over": outcome is not None, "outcome": None if outcome is None else list(outcome),
        "summary": summary if outcome is not None else None,
    }
