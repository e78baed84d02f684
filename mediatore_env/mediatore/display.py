"""The table as text for people: hands, the auction, the contract, tricks, points and results.

Small pure functions from a :class:`~mediatore_env.mediatore.view.SeatView` (what one seat knows), a
:class:`~mediatore_env.mediatore.game.Deal` (everything: an open table, for replays) or a game record
(:mod:`mediatore_env.mediatore.records`) to lines of text, and :class:`MediatoreDisplay`, the
hooks through which ``mediatore-play``, ``mediatore-replay``, ``mediatore-web`` and the
environment's ``render()`` show them, so the game looks the same everywhere.

Cards are written in one of four styles (``STYLES``)::

    >>> from mediatore_env.core.cards import SA, D3, bit
    >>> [card_text(SA, style) for style in STYLES]
    ['ace of swords', 'Asso di Spade', 'A♠', 'SA']
    >>> from mediatore_env.mediatore.moves import parse_move
    >>> move_words(parse_move("play SA volo"))
    'play ace of swords, volo'
    >>> hand_inline(bit(D3) | bit(SA))
    'D3 · - · SA · -'
    >>> format_thirds(5)
    '1 2/3'

``names`` arguments are the four seats' names, by seat (default ``seat 0`` .. ``seat 3``);
the name ``"You"`` gets verbs in the second person ("You pass", "seat 1 passes").

What a seat may see is decided by the engine's :class:`SeatView`, never here: given a view,
these functions print only what that view exposes. Given a Deal, they print everything.
"""

from __future__ import annotations

from typing import Sequence

from ..core.display import Display, Narrator
from ..core.text import (DEFAULT_NAMES, STYLES, YOU, card_json, card_label, card_tag,
                          card_text, cards_inline, cards_json, columns, counted, end_part,
                          format_thirds, hand_inline, hand_lines, hand_news, panel, points_text,
                          rank_text, suit_label, summary_json, table_json)
from ..core.cards import CARD_NAMES, POINTS, SUITS, suit_of, to_mask
from .game import Deal
from .nine_tricks import WIN_THIRDS, discards_left
from .moves import (AUCTION, CALL, CARD_VERBS, DISCARD, END, GIVE, PASS, PHASE_NAMES, PLAY,
                    card_of_move, phase_of_move, signal_of_move)
from .rules import NO_SIGNAL
from .rules import CHIAMO, CONTRACT_NAMES, MEDIATORE, PRESETS, SIGNAL_NAMES, SWITCHES, Rules

__all__ = ["STYLES", "DEFAULT_NAMES", "card_text", "card_tag", "card_label", "suit_label",
           "format_thirds", "hand_lines", "hand_inline", "rules_text", "bid_text", "move_words",
           "move_signal", "moves_lines", "auction_lines", "contract_lines", "monte_lines",
           "tricks_part", "tricks_part_lines", "tricks_table", "trick_lines", "points_line",
           "table_text", "result_lines", "snapshot", "changes", "columns", "text_facts",
           "MediatoreNarrator", "MediatoreDisplay", "DISPLAY"]


# -- cards ------------------------------------------------------------------------------------


# -- rules, bids and moves --------------------------------------------------------------------

def rules_text(rules: Rules) -> str:
    """The rules in a few words: a preset's name, or the switches that differ from the default."""
    for name, preset in PRESETS.items():
        if preset == rules:
            return name
    changed = [f"{k}={v}" for k, v in rules.to_dict().items() if v != SWITCHES[k][0]]
    return "standard with " + ", ".join(changed)


def bid_text(bid: int) -> str:
    return "pass" if bid == PASS else CONTRACT_NAMES[bid]


def move_words(move: int, style: str = "english") -> str:
    """A move in words: ``'pass'``, ``'bid solo'``, ``'call 3 of coins'``, ``'discard 4 of cups'``,
    ``'give king of batons'``, ``'play ace of swords, volo'``."""
    if move == PASS:
        return "pass"
    phase = phase_of_move(move)
    if phase == AUCTION:
        return "bid " + CONTRACT_NAMES[move]
    text = CARD_VERBS[phase] + " " + card_text(card_of_move(move), style)
    signal = move_signal(move)
    return text + (", " + SIGNAL_NAMES[signal] if signal else "")


def move_signal(move: int) -> int:
    """The signal a move gives with its card: a lead's, NO_SIGNAL for any other move."""
    return signal_of_move(move) if phase_of_move(move) == PLAY else NO_SIGNAL


def _call_columns(numbered, style: str, num_width: int) -> list[str]:
    """Calls in four columns, one per suit under its name, strongest card first."""
    by_suit = [[(i, card_of_move(m)) for i, m in numbered if suit_of(card_of_move(m)) == s]
               for s in SUITS]
    rank = (lambda c: card_tag(c, style)) if style in ("short", "french") \
        else (lambda c: rank_text(c, style))
    cells = [[f"{i:>{num_width}}  {rank(c)}" for i, c in column] for column in by_suit]
    w = max(len(suit_label(s, style)) for s in SUITS)
    w = max(w, *(len(cell) for column in cells for cell in column)) + 4
    lines = ["".join(f"{' ' * (num_width + 2) + suit_label(s, style):<{w}}" for s in SUITS).rstrip()]
    for r in range(max(map(len, cells))):
        lines.append("".join(f"{column[r] if r < len(column) else '':<{w}}" for column in cells).rstrip())
    return lines


def moves_lines(moves: Sequence[int], style: str = "english", width: int = 78) -> list[str]:
    """The numbered list of ``moves`` (numbered from 1 in the order given), laid out to read
    at a glance: a lead's signals on the line of its card, calls and discards in columns."""
    numbered = [(i, m) for i, m in enumerate(moves, 1)]
    num_width = len(str(len(moves)))
    phases = {phase_of_move(m) for m in moves}
    if phases == {PLAY} and any(signal_of_move(m) != NO_SIGNAL for m in moves):
        # A lead: one line per card, its signals after it.
        rows: list[list[tuple[int, int]]] = []
        for i, m in numbered:
            if signal_of_move(m) == NO_SIGNAL or not rows:
                rows.append([(i, m)])
            else:
                rows[-1].append((i, m))
        first = max(len(card_text(card_of_move(r[0][1]), style)) for r in rows)
        lines = []
        for row in rows:
            (i, m), rest = row[0], row[1:]
            text = f"{i:>{num_width}}  {card_text(card_of_move(m), style):<{first}}"
            for j, s in rest:
                text += f"   {j:>{num_width}} {SIGNAL_NAMES[signal_of_move(s)]}"
            lines.append(text)
        return lines
    if phases == {CALL}:
        return _call_columns(numbered, style, num_width)
    verbs = {move_words(m, "short").split()[0] for m in moves}
    if len(verbs) == 1 and verbs & set(CARD_VERBS.values()):
        entries = [f"{i:>{num_width}}  {move_words(m, style).split(' ', 1)[1]}" for i, m in numbered]
    else:
        entries = [f"{i:>{num_width}}  {move_words(m, style)}" for i, m in numbered]
    return columns(entries, width)


# -- parts of the table -----------------------------------------------------------------------

def _name(names: Sequence[str], seat: int | None) -> str:
    return "nobody" if seat is None else names[seat]


def _obj(name: str) -> str:
    """A seat's name after a verb or preposition: ``'seat 1'``, ``'you'``."""
    return "you" if name == YOU else name


def _poss(name: str) -> str:
    """``"seat 1's"``, ``'your'``."""
    return "your" if name == YOU else f"{name}'s"


def _verb(name: str, third: str, second: str) -> str:
    """``'seat 1 passes'`` or ``'You pass'``."""
    return f"{name} {second if name == YOU else third}"


def _cell_width(names: Sequence[str], least: int = 9) -> int:
    return max(least, *(len(n) for n in names)) + 2


def auction_lines(auction: Sequence[tuple[int, int]], mano: int,
                  names: Sequence[str] = DEFAULT_NAMES) -> list[str]:
    """The auction as a grid, one column per seat from il mano (who speaks first)::

        seat 0     seat 1     seat 2     seat 3
        pass       chiamo     pass       pass
        pass
    """
    w = _cell_width(names, max(len(bid_text(b)) for _, b in auction) if auction else 9)
    order = [(mano + k) % 4 for k in range(4)]
    lines = ["".join(f"{names[s]:<{w}}" for s in order).rstrip()]
    row = ""
    for k, (_, bid) in enumerate(auction):
        row += f"{bid_text(bid):<{w}}"
        if k % 4 == 3:
            lines.append(row.rstrip())
            row = ""
    if row:
        lines.append(row.rstrip())
    return lines


def _source_parts(source):
    """(viewer seat or None, is open table) of a SeatView or a Deal."""
    if isinstance(source, Deal):
        return None, True
    return source.seat, False


def _knowledge(source) -> tuple[bool | None, int | None]:
    """(alone, partner) as far as ``source`` knows: a SeatView's knowledge, or the truth."""
    if isinstance(source, Deal):
        if source.contract is None or (source.contract == CHIAMO and source.called_card is None):
            return None, None
        return source.partner is None, source.partner
    return source.alone, source.partner


def contract_lines(source, names: Sequence[str] = DEFAULT_NAMES, style: str = "english") -> list[str]:
    """The contract, the declarer, the called card, the giver and the partnership as known to
    ``source`` (a SeatView or, for an open table, a Deal). Empty before the auction ends."""
    if source.contract is None:
        return []
    text = f"{CONTRACT_NAMES[source.contract]} by {_obj(names[source.declarer])}"
    if source.called_card is not None:
        text += f", called {card_label(source.called_card, style)}"
        if source.giver is not None:
            text += f", given by {_obj(names[source.giver])}"
    alone, partner = _knowledge(source)
    if source.contract in (CHIAMO, MEDIATORE) and source.called_card is None:
        side = "card not called yet"
    elif source.contract != CHIAMO:
        side = "alone against three"
    elif alone:
        side = "alone against three (the called card is in the declarer's hand or the monte)"
    elif partner is not None:
        side = f"partner {_obj(names[partner])}" + (
            " (you)" if partner == _source_parts(source)[0] and names[partner] != YOU else "")
    elif alone is False:
        side = "with a secret partner, not known who"
    else:
        side = "partner not known yet"
    return [text, side]


def monte_lines(source, names: Sequence[str] = DEFAULT_NAMES, style: str = "english") -> list[str]:
    """What ``source`` knows of the monte: the original monte if seen, the declarer's
    discards, the card passed back in Mediatore, the monte turned over at the end."""
    _, open_table = _source_parts(source)
    if source.contract is None:
        return [] if source.phase == END else ["4 cards face down"]
    who = source.rules.monte_seen_by(source.contract)
    whom = {"all": "shown to all", "declarer": "seen by the declarer only",
            "none": "face down until the end"}[who]
    if open_table:
        seen, final = source.original_monte, source.monte if source.phase == END else 0
    else:
        seen, final = source.monte_seen, source.final_monte
    if seen:
        lines = [f"{cards_inline(seen, style)}   ({whom})"]
    elif source.contract in (CHIAMO, MEDIATORE) and source.called_card is None:
        lines = ["4 cards face down"]
    else:
        lines = ["not seen by you" if who != "none" else whom]
    if source.discards and source.phase != END:
        lines.append(f"discarded: {cards_inline(source.discards, style)}   (the new monte)")
    if source.given_back is not None:
        lines.append(f"passed back to {_obj(names[source.giver])}: "
                     f"{card_label(source.given_back, style)}")
    if final:
        lines.append(f"at the end: {cards_inline(final, style)}   (goes with the last trick)")
    return lines


def tricks_part(tricks, mano: int, names: Sequence[str], style: str,
                thirds_won: Sequence[int] | None = None, signals: bool = True,
                note: str = "> led, * won; the last trick also takes 1 point and the monte",
                label: str = "Tricks") -> dict:
    """Finished tricks as a table (:func:`~mediatore_env.core.text.end_part`), a row each: the
    card of every seat (columns from il mano), the led card marked ``>`` and the winning card
    ``*``, the lead's signal (without ``signals``, a game that has none, no column), the
    winner, the points; with ``thirds_won``, a foot of the points each seat has taken; the
    ``note`` says the marks (and where the last points go, the game's own)."""
    order = [(mano + k) % 4 for k in range(4)]
    rows = []
    for n, t in enumerate(tricks, 1):
        cells = [(">" if s == t.leader else "") + card_tag(t.cards[(s - t.leader) % 4], style)
                 + ("*" if s == t.winner else "") for s in order]
        signal = [SIGNAL_NAMES[t.signal] or "-"] if signals else []
        rows.append([n, *cells, *signal, names[t.winner],
                     format_thirds(sum(POINTS[c] for c in t.cards))])
    return end_part(label, columns=["#", *(names[s] for s in order),
                                    *(["signal"] if signals else []), "won by", "points"],
                    rows=rows, notes=[note],
                    foot=None if thirds_won is None else
                    ["taken", *(format_thirds(thirds_won[s]) for s in order)])


def tricks_part_lines(part: dict) -> list[str]:
    """:func:`tricks_part` as text, the note last in brackets::

          #  seat 0     seat 1     seat 2     seat 3     signal  won by     points
          1  >SA*        S4         S5         S6        busso   seat 0     1 1/3
    """
    if not part["rows"]:
        return []
    columns, rows = part["columns"], part["rows"]
    seats = columns[1:5]
    w = _cell_width(seats)
    signals = len(columns) == 8
    sw = max(8, *(len(row[5]) + 2 for row in rows)) if signals else 0

    def card(cell: str) -> str:  # the led card's mark sticks out to the left of its column
        return f"{cell if cell.startswith('>') else ' ' + cell:<{w}}"
    lines = ["  #  " + "".join(f"{name:<{w}}" for name in seats)
             + f"{'signal' if signals else '':<{sw}}{'won by':<{w}}points"]
    for row in rows:
        lines.append(f"{row[0]:>3}  " + "".join(map(card, row[1:5]))
                     + f"{row[5] if signals else '':<{sw}}{row[-2]:<{w}}{row[-1]}")
    if part["foot"] is not None:
        lines.append("taken" + "".join(f" {c:<{w - 1}}" for c in part["foot"][1:]).rstrip())
    return lines + [" " * 5 + f"({note})" for note in part["notes"]]


def tricks_table(tricks, mano: int, names: Sequence[str] = DEFAULT_NAMES,
                 style: str = "english", thirds_won: Sequence[int] | None = None,
                 signals: bool = True) -> list[str]:
    """Finished tricks as text (:func:`tricks_part`), the note on the marks last."""
    return tricks_part_lines(tricks_part(tricks, mano, names, style, thirds_won, signals))


def trick_lines(leader: int, cards: Sequence[int], signal: int, names: Sequence[str] = DEFAULT_NAMES,
                style: str = "english", to_move: int | None = None) -> list[str]:
    """The trick in progress, a line per card in playing order, then who is to play::

        seat 1  ace of swords (SA), busso   (led)
        seat 2  4 of swords (S4)
        seat 3  to play
    """
    w = max(map(len, names))
    lines = []
    for k, card in enumerate(cards):
        text = card_label(card, style)
        if k == 0:
            text += (f", {SIGNAL_NAMES[signal]}" if signal else "") + "   (led)"
        lines.append(f"{names[(leader + k) % 4]:<{w}}  {text}")
    if to_move is not None and len(cards) < 4:
        lines.append(f"{names[to_move]:<{w}}  to play")
    return lines


def points_line(thirds_won: Sequence[int], side: Sequence[int] | None) -> str:
    """Points of the declarer's side (``side``: its seats, None while not known) and of the
    defenders: ``"declarer's side 2 2/3, defenders 1 (the declarer's side needs 6)"``."""
    if not side:
        return f"sides not known yet (the declarer's side needs {WIN_THIRDS // 3} points)"
    ours = sum(thirds_won[s] for s in side)
    return (f"declarer's side {format_thirds(ours)}, defenders "
            f"{format_thirds(sum(thirds_won) - ours)} (the declarer's side needs "
            f"{WIN_THIRDS // 3})")


def dealer_line(source, names: Sequence[str]) -> str:
    """Who deals, who speaks first and the rules: ``dealer You · il mano greedy(1) · rules:
    standard``."""
    return (f"dealer {names[source.dealer]} · il mano {names[source.mano]} · "
            f"rules: {rules_text(source.rules)}")


def discard_choice(view) -> dict | None:
    """The discards still to make, picked together on the page (Mediatore's and club
    Mediatore's :meth:`~mediatore_env.core.display.Display.choose`); None outside them."""
    left = discards_left(view)
    return {"count": left, "verb": "Discard"} if left else None


def discard_question(view, what_for: str) -> str:
    """The question of the discards, Mediatore's and club Mediatore's: ``'Discard 4 cards to
    form the new monte:'``, counting the cards still to discard (the page takes them one by
    one)."""
    return f"Discard {counted(discards_left(view), 'card')} {what_for}:"


def verdict_line(view, names: Sequence[str]) -> str:
    """A finished deal in a line: ``"solo by Anna: made (7 points, 6 needed)"``, the points
    the declarer's side took; the declarer's payment says made or lost (zero-sum)."""
    if view.contract is None:
        return "All four passed: the deal is thrown in, no one pays."
    made = view.payoffs[view.declarer] > 0
    ours = sum(view.thirds_won[s] for s in _known_side(view))
    return (f"{CONTRACT_NAMES[view.contract]} by {names[view.declarer]}: "
            f"{'made' if made else 'lost'} ({format_thirds(ours)} points, "
            f"{WIN_THIRDS // 3} needed)")


def _known_side(source) -> tuple[int, ...] | None:
    if source.contract is None:
        return None
    alone, partner = _knowledge(source)
    if alone:
        return (source.declarer,)
    if partner is not None:
        return (source.declarer, partner)
    return None


_LABEL = 10


def hands_section(source, names: Sequence[str], style: str, open_table: bool,
                  viewer: int) -> list[str]:
    """The foot of a table's text while the cards are in play: every hand on the open table,
    else the viewer's (``source.hand``; "Your hand" for the person at the terminal)."""
    if open_table:
        w = max(map(len, names))
        return section("Hands", [f"{names[s]:<{w}}  {hand_inline(source.hands[s], style)}"
                                 for s in range(4)])
    label = "Your hand" if names[viewer] == YOU else "Hand"
    return section(label, hand_lines(source.hand, style) if source.hand else ["(empty)"])


def section(label: str, lines: Sequence[str]) -> list[str]:
    """Lines under a label in the left column of a table's text (a line with newlines is
    several)."""
    out = []
    for k, line in enumerate(lines):
        for sub in line.split("\n"):
            out.append(f"{label if k == 0 and not out else '':<{_LABEL}}{sub}")
    return out


def table_text(source, names: Sequence[str] = DEFAULT_NAMES, style: str = "english",
              title: str = "", width: int = 78) -> str:
    """The whole table as ``source`` sees it: a SeatView (its own hand only) or, for an open
    table, a Deal (every hand). Auction, contract, monte, tricks, the trick on the table,
    points and hands, each under a label."""
    viewer, open_table = _source_parts(source)
    head = f" {title} " if title else " "
    lines = [f"=={head}".ljust(width, "=")]
    who = "" if open_table else f"{names[viewer]} (seat {viewer}) · "
    lines.append(who + dealer_line(source, names))
    if source.auction:
        lines += section("Auction", auction_lines(source.auction, source.mano, names))
    lines += section("Contract", contract_lines(source, names, style))
    lines += section("Monte", monte_lines(source, names, style))
    if source.tricks:  # the widest part: under its label rather than beside it
        lines.append("Tricks")
        lines += ["  " + line for line in tricks_table(source.tricks, source.mano, names, style,
                                                       source.thirds_won)]
    if source.trick:
        lines += section("On table", trick_lines(source.leader, source.trick, source.trick_signal,
                                                  names, style, source.to_move))
    if source.tricks:
        lines += section("Points", [points_line(source.thirds_won, _known_side(source))])
    if source.phase != END:
        lines += hands_section(source, names, style, open_table, viewer)
    if source.phase != END and not open_table:
        others = [f"{names[s]} {n}" for s, n in enumerate(source.hand_sizes) if s != viewer]
        lines += section("", ["cards held: " + ", ".join(others)])
    if source.phase != END and source.to_move is not None:
        lines += section("To act", [f"{names[source.to_move]} ({PHASE_NAMES[source.phase]})"])
    return "\n".join(lines)


# -- the result of a finished deal, from its record --------------------------------------------

def result_lines(record: dict, names: Sequence[str] = DEFAULT_NAMES, style: str = "english") -> list[str]:
    """The full result of a record: contract, points, won or lost, payoffs, every hand as
    dealt, the monte and the discards. Everything is shown: the deal is over."""
    result = record["result"]
    lines = []
    if result.get("thrown_in"):
        lines.append("All four passed: the deal is thrown in, no one pays.")
    else:
        text = f"{result['contract']} by {_obj(names[result['declarer']])}"
        if result["called_card"]:
            text += f", called {card_label(_card(result['called_card']), style)}"
        if result["giver"] is not None:
            text += f", given by {_obj(names[result['giver']])}"
        lines.append(text)
        lines.append("alone against three" if result["partner"] is None
                     else f"with {_obj(names[result['partner']])} as partner")
        (ours, theirs), (a, b) = result["thirds"], result["scores"]
        verdict = "WON" if result["declarer_won"] else "LOST"
        lines.append(f"declarer's side {format_thirds(ours)} -> {a} points, defenders "
                     f"{format_thirds(theirs)} -> {b}: contract {verdict}"
                     + (" with capotto (all nine tricks)" if result["capotto"] else ""))
        last = result["tricks"][-1]["winner"]
        final = result["discards"] or result["monte"]
        lines.append(f"the monte {' '.join(final)} and the last trick went to {_obj(names[last])}")
    lines.append("payoffs: " + " · ".join(f"{names[s]} {p:+d}" for s, p in enumerate(result["payoffs"])))
    if "hands" in record:
        w = max(map(len, names))
        lines.append("hands as dealt:")
        for s, hand in enumerate(record["hands"]):
            mask = to_mask(_card(c) for c in hand)
            lines.append(f"  {names[s]:<{w}}  {hand_inline(mask, style)}")
        monte = to_mask(_card(c) for c in record["pack"][36:])
        lines.append(f"  {'monte':<{w}}  {cards_inline(monte, style)}")
    if not result.get("thrown_in"):
        if result["discards"]:
            lines.append(f"discarded by {_obj(names[result['declarer']])}: {' '.join(result['discards'])}")
        if result["given_back"]:
            lines.append(f"passed back to {_obj(names[result['giver']])}: {result['given_back']}")
    return lines


def _card(text: str) -> int:
    return CARD_NAMES.index(text)


# -- what happened between two moments: narration from snapshots ------------------------------

def snapshot(source) -> dict:
    """The public facts of ``source`` (a SeatView, or a Deal for an open table) as plain data,
    plus what that seat privately knows of the monte and the exchange. :func:`changes` turns
    two snapshots into the lines that tell what happened in between."""
    viewer, open_table = _source_parts(source)
    plays = []
    for t in source.tricks:
        plays += [((t.leader + k) % 4, c, t.signal if k == 0 else 0) for k, c in enumerate(t.cards)]
    plays += [((source.leader + k) % 4, c, source.trick_signal if k == 0 else 0)
              for k, c in enumerate(source.trick)]
    alone, partner = _knowledge(source)
    if open_table:
        monte_seen = source.original_monte if source.contract is not None else 0
        discards, given_back = source.discards, source.given_back
    else:
        monte_seen, discards, given_back = source.monte_seen, source.discards, source.given_back
    return {
        "viewer": viewer, "rules": source.rules, "phase": source.phase,
        "auction": tuple(source.auction), "contract": source.contract,
        "declarer": source.declarer, "called_card": source.called_card, "giver": source.giver,
        "alone": alone, "partner": partner, "monte_seen": monte_seen, "discards": discards,
        "given_back": given_back, "plays": tuple(plays),
        "winners": tuple(t.winner for t in source.tricks),
        "trick_thirds": tuple(sum(POINTS[c] for c in t.cards) for t in source.tricks),
    }


def changes(before: dict, after: dict, names: Sequence[str] = DEFAULT_NAMES,
            style: str = "english") -> list[str]:
    """What happened between two :func:`snapshot` s of the same seat (or open table), one
    line per event: calls of the auction, the call, the monte, the exchange, cards played,
    tricks won, the partnership becoming known."""
    out = []
    w = max(map(len, names))

    def say(seat, third, second):
        out.append(f"  {names[seat]:<{w}}  {second if names[seat] == YOU else third}")

    for seat, bid in after["auction"][len(before["auction"]):]:
        if bid == PASS:
            say(seat, "passes", "pass")
        else:
            say(seat, "bids " + bid_text(bid), "bid " + bid_text(bid))
    contract, declarer = after["contract"], after["declarer"]
    if before["phase"] == AUCTION and after["phase"] != AUCTION:
        if contract is None:
            out.append("All four passed: the deal is thrown in.")
        else:
            out.append(f"{_verb(names[declarer], 'wins', 'win')} the auction: "
                       f"{CONTRACT_NAMES[contract]}.")
    if after["called_card"] is not None and before["called_card"] is None:
        out.append(f"{_verb(names[declarer], 'calls', 'call')} {card_label(after['called_card'], style)}.")
        if after["giver"] is not None:
            out.append(f"{_verb(names[after['giver']], 'holds', 'hold')} it and "
                       f"{'give' if names[after['giver']] == YOU else 'gives'} it openly to "
                       f"{_obj(names[declarer])}.")
    # Phases are numbered in the order they come (AUCTION < CALL < DISCARD < GIVE < PLAY <
    # END), so each event is told once however many moves lie between the two snapshots.
    if contract is not None and before["phase"] <= CALL < after["phase"]:
        out.extend(_monte_event(after, names, style))
    plays, old = after["plays"], len(before["plays"])
    revealed = any(c == after["called_card"] for _, c, _ in plays[old:])
    if (contract == CHIAMO and not revealed
            and (after["alone"], after["partner"]) != (before["alone"], before["partner"])):
        out.extend(_partner_event(after, names))
    if before["phase"] <= DISCARD < after["phase"] and after["rules"].takes_monte(contract):
        if after["discards"]:
            out.append(f"{_verb(names[declarer], 'discards', 'discard')} "
                       f"{cards_inline(after['discards'], style)} as the new monte.")
        else:
            out.append(f"{_verb(names[declarer], 'discards', 'discard')} 4 cards face down.")
    if before["phase"] <= GIVE < after["phase"] and after["giver"] is not None:
        card = after["given_back"]
        what = card_label(card, style) if card is not None else "a card face down"
        out.append(f"{_verb(names[declarer], 'passes', 'pass')} {what} to {_obj(names[after['giver']])}.")
    for i in range(old, len(plays)):
        seat, card, signal = plays[i]
        text = card_label(card, style) + (f", {SIGNAL_NAMES[signal]}" if signal else "")
        if card == after["called_card"] and contract == CHIAMO:
            text += ("   (the called card: the declarer plays alone)" if seat == declarer
                     else f"   (the called card: partner of {_obj(names[declarer])})")
        if i % 4 == 0:
            say(seat, "leads " + text, "lead " + text)
        else:
            say(seat, "plays " + text, "play " + text)
        if i % 4 == 3:
            n = i // 4
            out.append(f"  {'':<{w}}  -> trick {n + 1} to {_obj(names[after['winners'][n]])}, "
                       f"{points_text(after['trick_thirds'][n])}")
    return out


def _monte_event(after: dict, names: Sequence[str], style: str) -> list[str]:
    rules, contract, declarer = after["rules"], after["contract"], after["declarer"]
    d = names[declarer]
    who = rules.monte_seen_by(contract)
    cards = cards_inline(after["monte_seen"], style) if after["monte_seen"] else None
    if rules.takes_monte(contract):
        if who == "all":
            return [f"{_verb(d, 'turns', 'turn')} the monte face up and "
                    f"{'take' if d == YOU else 'takes'} it: {cards}."]
        if cards:
            return [f"{_verb(d, 'takes', 'take')} the monte without showing it: {cards}."]
        return [f"{_verb(d, 'takes', 'take')} the monte without showing it."]
    if who == "declarer":
        return [f"{_verb(d, 'looks', 'look')} at the monte privately"
                + (f": {cards}" if cards else "") + "; it stays aside."]
    return ["The monte stays face down until the end."]


def _partner_event(after: dict, names: Sequence[str]) -> list[str]:
    viewer, declarer = after["viewer"], after["declarer"]
    alone, partner = after["alone"], after["partner"]
    d = names[declarer]
    if alone:
        return [f"{_verb(d, 'plays', 'play')} alone against three."]
    if partner is not None:
        p = names[partner]
        if partner == viewer or (viewer is None and after["phase"] != END
                                 and not any(c == after["called_card"] for _, c, _ in after["plays"])):
            return [f"{_verb(p, 'holds', 'hold')} the called card and "
                    f"{'are' if p == YOU else 'is'} {_poss(d)} secret partner."]
        return [f"{p} {'are' if p == YOU else 'is'} {_poss(d)} partner."]
    if alone is False:
        return [f"{_verb(d, 'has', 'have')} a secret partner: the called card is in another hand."]
    return []


# -- a seat's table as structured data for the browser ------------------------------------------
# Each reads a SeatView and what it exposes, as the text above does: what it gives the seat
# knows. docs/web.md documents the fields, an API for other clients.

def auction_json(auction: Sequence[tuple[int, int]], mano: int) -> dict:
    """The auction as a grid: ``order`` the seats from il mano (the columns), ``rounds`` one
    row a round of calls, each cell a bid's words or None (not spoken yet); and ``calls``
    ``[{"seat", "bid", "words"}]`` in order. Every seat speaks each round, from il mano."""
    order = [(mano + k) % 4 for k in range(4)]
    rounds: list[list[str | None]] = []
    for k, (seat, bid) in enumerate(auction):
        if k % 4 == 0:
            rounds.append([None] * 4)
        rounds[-1][(seat - mano) % 4] = bid_text(bid)
    return {"order": order, "rounds": rounds,
            "calls": [{"seat": seat, "bid": bid, "words": bid_text(bid)} for seat, bid in auction]}


def known_sides(view) -> list[int | None]:
    """Each seat's side as far as ``view`` knows: 0 the declarer's, 1 the defenders', None
    not known (the declarer is on 0 from the auction's end; the others once the partnership
    is known to this seat)."""
    sides: list[int | None] = [None] * 4
    side = _known_side(view)
    if side:
        sides = [0 if s in side else 1 for s in range(4)]
    elif view.declarer is not None:
        sides[view.declarer] = 0
    return sides


def seat_roles(view) -> list[list[str]]:
    """Each seat's roles as far as ``view`` knows: ``declarer``, ``partner`` (the called
    card's holder in Chiamo, once this seat may know it), ``giver`` (the called card's holder
    in Mediatore, who gives it openly)."""
    roles: list[list[str]] = [[] for _ in range(4)]
    if view.declarer is not None:
        roles[view.declarer].append("declarer")
    if view.partner is not None:
        roles[view.partner].append("partner")
    if view.giver is not None:
        roles[view.giver].append("giver")
    return roles


def monte_json(view, style: str) -> dict:
    """The monte as far as ``view`` saw it: ``shown_to`` (``all``, ``declarer``, ``none``; None
    before the contract), the original ``seen`` if this seat saw it, the declarer's
    ``discards`` (the declarer's eyes until the end), the card ``given_back`` (declarer and
    giver), and the ``final`` monte turned over at the end."""
    return {"shown_to": None if view.contract is None else view.rules.monte_seen_by(view.contract),
            "seen": cards_json(view.monte_seen, style),
            "discards": cards_json(view.discards if view.phase != END else 0, style),
            "given_back": None if view.given_back is None else card_json(view.given_back, style),
            "final": cards_json(view.final_monte, style)}


def points_json(view, side: Sequence[int] | None) -> dict:
    """The card points taken (public: every card is seen), by seat in thirds and in words,
    the tricks won, and by side once the sides are known to ``view`` (``side``: the declarer's
    or mediator's seats as ``view`` knows them, else None), with the points that side needs
    to win."""
    ours = sum(view.thirds_won[s] for s in side) if side else None
    return {"thirds": list(view.thirds_won), "points": [format_thirds(t) for t in view.thirds_won],
            "tricks": list(view.tricks_won), "side": list(side) if side else None,
            "side_points": None if ours is None else format_thirds(ours),
            "defenders_points": None if ours is None else format_thirds(sum(view.thirds_won) - ours),
            "needs": WIN_THIRDS // 3}


def mediatore_panels(view, names: Sequence[str], style: str) -> list[dict]:
    """A seat's panels: the auction, the contract, the monte, the points, the deal's line."""
    out = []
    if view.auction:
        out.append(panel("auction", "Auction", **auction_json(view.auction, view.mano)))
    if view.contract is not None:
        out.append(panel("contract", "Contract", contract=CONTRACT_NAMES[view.contract],
                         declarer=view.declarer,
                         called=None if view.called_card is None else card_json(view.called_card, style),
                         giver=view.giver, alone=view.alone, partner=view.partner,
                         lines=contract_lines(view, names, style)))
    if view.phase != END or view.contract is not None:
        out.append(panel("monte", "Monte", **monte_json(view, style),
                         lines=monte_lines(view, names, style)))
    if view.tricks:
        out.append(panel("points", "Points", **points_json(view, _known_side(view))))
    return out + [panel("note", "Dealer", lines=[dealer_line(view, names)])]


# -- a table text's sections as the browser's facts ----------------------------------------------

def text_facts(lines: Sequence[str], skip: Sequence[str] = ()) -> list[tuple[str, list[str]]]:
    """The ``[label, lines]`` of a table's text written with :func:`section` (the inverse of
    it), less the sections labelled in ``skip``: how a game whose table text is made of
    sections gives its facts to :func:`table_json` without saying them twice."""
    facts: list[tuple[str, list[str]]] = []
    for line in lines:
        label = line[:_LABEL].strip()
        if label and not line.startswith(" "):
            facts.append((label, [line[_LABEL:]] if len(line) > _LABEL else []))
        elif facts:
            facts[-1][1].append(line[_LABEL:] if not line[:_LABEL].strip() else line)
    return [(label, body) for label, body in facts if label not in skip]


# -- the hooks of the tools: Mediatore's own -----------------------------------------------------

class MediatoreNarrator(Narrator):
    """Tells what happened at the table since it last looked (:func:`changes` between two
    :func:`snapshot` s of ``source``, a live SeatView or, for an open table, the Deal)."""

    def __init__(self, source, names: Sequence[str] = DEFAULT_NAMES, style: str = "english"):
        self.source, self.names, self.style = source, names, style
        self.skip()

    def skip(self) -> None:
        """Tell nothing of what happened so far."""
        self.before = snapshot(self.source)

    def news(self) -> list[str]:
        after = snapshot(self.source)
        lines = changes(self.before, after, self.names, self.style)
        self.before = after
        return lines


def _source(deal: Deal, seat: int | None):
    return deal if seat is None else deal.view(seat)


class MediatoreDisplay(Display):
    """Mediatore's hooks: a deal of one hand, its auction, call and exchange before the
    tricks, the signals of a lead; every hook is its own but the trick game's card words."""

    move_words = staticmethod(move_words)
    move_signal = staticmethod(move_signal)
    moves_lines = staticmethod(moves_lines)

    def card_of(self, move: int) -> int | None:
        return card_of_move(move) if phase_of_move(move) in (DISCARD, GIVE, PLAY) else None

    def named_card(self, move: int) -> int | None:
        return card_of_move(move) if phase_of_move(move) == CALL else None

    def rules_line(self, rules: Rules) -> str:
        return rules_text(rules)

    def table_text(self, view, names: Sequence[str] | None = None, style: str = "english",
                   title: str = "") -> str:
        return table_text(view, names or DEFAULT_NAMES, style, title)

    def table_lines(self, view, names: Sequence[str], style: str, title: str) -> list[str]:
        """The whole table as ``view``'s seat sees it (:func:`table_text`), the trick's number
        in the title during the play."""
        if view.phase == PLAY:
            title += f" · trick {len(view.tricks) + 1} of 9"
        return [table_text(view, names, style, title)]

    def question(self, view) -> str:
        """What ``view``'s seat is asked, above the list of its moves."""
        phase = view.phase
        if phase == AUCTION:
            return "Your call in the auction:"
        if phase == CALL:
            if view.contract == CHIAMO:
                return "Call a card: its holder becomes your secret partner:"
            return "Call a card: its holder gives it to you:"
        if phase == DISCARD:
            return discard_question(view, "to form the new monte")
        if phase == GIVE:
            return "Pass one card face down to the player who gave you the called card:"
        if view.trick:
            return "Play a card:"
        return "Lead a card (a signal may go with it):"

    def choose(self, view) -> dict | None:
        """The discards, then the card passed back to the giver: picked, then sent."""
        if view.phase == GIVE:
            return {"count": 1, "verb": "Pass back"}
        return discard_choice(view)

    def view_json(self, view, names: Sequence[str] | None = None, style: str = "english") -> dict:
        """A Mediatore seat's table for the browser (see :func:`table_json`): the auction, the
        contract, the monte and the points as far as ``view`` knows them."""
        names = names or DEFAULT_NAMES
        facts = [("Auction", auction_lines(view.auction, view.mano, names) if view.auction
                  else []),
                 ("Contract", contract_lines(view, names, style)),
                 ("Monte", monte_lines(view, names, style)),
                 ("Points", [points_line(view.thirds_won, _known_side(view))] if view.tricks
                  else []),
                 ("Dealer", [dealer_line(view, names)])]
        over = view.phase == END
        return table_json(view, names, style, facts, move_words, self.card_of,
                          view.payoffs if over else None, signals=SIGNAL_NAMES,
                          named_card=self.named_card, move_signal=self.move_signal,
                          marks={"dealer": view.dealer, "mano": view.mano,
                                 "roles": seat_roles(view), "sides": known_sides(view)},
                          panels=mediatore_panels(view, names, style),
                          summary=summary_json(("tricks", "points", "payment"), [
                              (view.tricks_won[s], format_thirds(view.thirds_won[s]),
                               view.payoffs[s]) for s in range(4)], [verdict_line(view, names)])
                          if over else None)

    def start_lines(self, deal: Deal, seat: int, names: Sequence[str], style: str,
                    title: str) -> list[str]:
        """The deal just dealt, as ``seat`` hears of it at the table: who deals, who speaks
        first, and its own hand."""
        you = names[seat] == YOU
        return [f"{title}: dealer {names[deal.dealer]}, il mano {names[deal.mano]} speaks "
                f"first. {'You are' if you else names[seat] + ' is'} seat {seat}.",
                *hand_news(names[seat], deal.view(seat).hand, style)]

    def dealt_lines(self, deal: Deal, seat: int | None, names: Sequence[str],
                    style: str) -> list[str]:
        """The deal just dealt: every hand and the monte (the open table) or ``seat``'s hand."""
        if seat is not None:
            return hand_news(names[seat], deal.view(seat).hand, style)
        w = max(map(len, names))
        return ["Hands as dealt:",
                *(f"  {names[s]:<{w}}  {hand_inline(deal.hands[s], style)}" for s in range(4)),
                f"  {'monte':<{w}}  {cards_inline(deal.monte, style)}"]

    def narrator(self, deal: Deal, seat: int | None, names: Sequence[str],
                 style: str) -> MediatoreNarrator:
        """The news of ``deal`` as ``seat`` sees it (None: the open table)."""
        return MediatoreNarrator(_source(deal, seat), names, style)

    def stage(self, deal: Deal, seat: int | None = None) -> str:
        """The last stage the deal has finished, for a replay's stops: ``start``,
        ``auction``, ``exchange`` (the call, the monte and the discards), ``trick N``,
        ``end``."""
        if deal.phase == END:
            return "end"
        if deal.phase == AUCTION:
            return "start"
        if deal.phase != PLAY:
            return "auction"
        return f"trick {len(deal.tricks)}" if deal.tricks else "exchange"

    def stop_lines(self, deal: Deal, seat: int | None, names: Sequence[str],
                   style: str) -> list[str]:
        """After a stage: the hands left and the points taken; at the end, the whole table."""
        source = _source(deal, seat)
        if deal.phase == END:
            return ["", table_text(source, names, style, "the end")]
        if deal.phase != PLAY:
            return []
        w = max(map(len, names))
        if seat is None:
            out = [f"  {names[s]:<{w}}  {hand_inline(deal.hands[s], style)}"
                   for s in range(4) if deal.hands[s]]
        else:
            whose = "your hand" if names[seat] == YOU else f"{names[seat]} holds"
            out = [f"  {whose}: {hand_inline(source.hand, style)}"]
        if deal.tricks:
            out.append("  points taken: " + " · ".join(
                f"{names[s]} {format_thirds(deal.thirds_won[s])}" for s in range(4)))
        return out

    def end_lines(self, deal: Deal, names: Sequence[str], style: str = "english") -> list[str]:
        """The result of the finished deal, every hand shown."""
        return result_lines(deal.record(), names, style)


DISPLAY = MediatoreDisplay()
