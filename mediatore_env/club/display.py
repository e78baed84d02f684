"""A club Mediatore table as text for people (:class:`ClubDisplay`): the chips, the choosing
of the mediator, the call, the tricks and the hands; and a finished session's deals, from its
record.

The same small functions as Mediatore's (:mod:`mediatore_env.mediatore.display`: hands,
tricks, cards in four styles) from a :class:`~mediatore_env.club.view.ClubView` (what one seat
knows) or a :class:`~mediatore_env.club.game.Session` (an open table, for replays). What a
seat may see is decided by the view, never here::

    >>> from mediatore_env.club.game import Session
    >>> session = Session(dealer=3, packs=[list(range(40))])
    >>> print(table_text(session.view(0)).splitlines()[2])
    Chips     pot 20 (seat 0 5, seat 1 5, seat 2 5, seat 3 5) · session: seat 0 -5, seat 1 -5, seat 2 -5, seat 3 -5
    >>> move_words(parse_move("call D3"))
    'call 3 of coins'
"""

from __future__ import annotations

from typing import Sequence

from ..core.cards import cards_of
from ..core.display import Display, Narrator
from ..core.game import CHANCE
from ..core.text import (DEFAULT_NAMES, YOU, card_json, card_label, card_text, cards_json,
                         counted, does, end_json, end_part, format_thirds, hand_inline,
                         hand_lines, hand_news, panel, person, summary_json, table_json)
from ..mediatore.display import (discard_choice, discard_question, hands_section, points_json,
                                 section, text_facts, trick_lines, tricks_part,
                                 tricks_part_lines)
from ..mediatore.nine_tricks import WIN_THIRDS
from .game import Session
from .moves import (ACCEPT, ALONE, AUCTION, CALL, DISCARD, END, PASS, PHASE_NAMES, PLAY,
                    card_of_move, parse_move, phase_of_move)
from .records import result_of

__all__ = ["DISPLAY", "ClubDisplay", "ClubNarrator", "move_words", "table_text", "deal_line",
           "deal_end", "deal_end_lines", "session_lines", "parse_move"]

_WORDS = {PASS: "pass", ACCEPT: "accept (become the mediator)", ALONE: "play alone"}
_VERBS = {CALL: "call", DISCARD: "discard", PLAY: "play"}


def move_words(move: int, style: str = "english") -> str:
    """A move in words: ``'pass'``, ``'accept (become the mediator)'``, ``'play alone'``,
    ``'call 3 of coins'``, ``'discard 4 of cups'``, ``'play ace of swords'``."""
    if move in _WORDS:
        return _WORDS[move]
    return _VERBS[phase_of_move(move)] + " " + card_text(card_of_move(move), style)


def _seats(values, names) -> str:
    return ", ".join(f"{names[s]} {v:+d}" if v else f"{names[s]} 0" for s, v in enumerate(values))


def _knowledge(source) -> tuple[bool | None, int | None, int, int]:
    """(alone, partner, widow, discards) as far as ``source`` knows (a view), or the truth."""
    if isinstance(source, Session):
        taken = source.phase not in (AUCTION, CALL)
        return (source.alone if taken else None, source.partner if taken else None,
                source.widow, source.discards)
    return source.alone, source.partner, source.widow, source.discards


def choosing_line(auction: Sequence[tuple[int, int]], names: Sequence[str]) -> str | None:
    """The choosing of the mediator so far, who passed and who accepted; None before it."""
    if not auction:
        return None
    said = {ACCEPT: ("accept", "accepts"), PASS: ("pass", "passes")}
    return ", ".join(f"{names[s]} {said[m][names[s] != YOU]}" for s, m in auction)


def mediator_line(mediator: int | None, to_match: int, alone: bool | None,
                  called_card: int | None, partner: int | None, names: Sequence[str],
                  style: str) -> str | None:
    """The mediator, the pot his side matches and his call as far as it is known: ``alone``
    None before the call, ``partner`` None for a partner still secret; None before there is
    a mediator."""
    if mediator is None:
        return None
    m = names[mediator]
    are, plays = ("are", "play") if m == YOU else ("is", "plays")
    text = f"{m} {are} the mediator, to match {to_match}"
    if alone is not None:
        if called_card is None:  # he announced alone
            text += f"; {plays} alone"
        else:
            text += f"; called {card_label(called_card, style)}"
            text += (f", which lay in the widow: {plays} alone" if alone else
                     f", partner {names[partner]}" if partner is not None else
                     ", partner secret")
    return text


def club_tricks(tricks, mano: int, thirds_won: Sequence[int], names: Sequence[str],
                style: str) -> dict:
    """The deal's tricks, a row each, and the points each seat has taken: Mediatore's table
    (:func:`~mediatore_env.mediatore.display.tricks_part`) without the signal column (club
    has no signals)."""
    return tricks_part(tricks, mano, names, style, thirds_won, signals=False,
                       note="> led, * won; the last trick takes 1 point, the discards are "
                            "the mediator's")


def parts_lines(parts: Sequence[dict]) -> list[str]:
    """Parts of a table (:func:`~mediatore_env.core.text.end_part`) as text: words under their
    label in the left column, the tricks under theirs, a part without a label whole."""
    lines = []
    for part in parts:
        if part["columns"]:  # the widest part: under its label rather than beside it
            lines += [part["label"], *("  " + line for line in tricks_part_lines(part))]
        elif part["label"]:
            lines += section(part["label"], part["lines"])
        else:
            lines += part["lines"]
    return lines


def table_text(source, names: Sequence[str] = DEFAULT_NAMES, style: str = "english",
               title: str = "", width: int = 78) -> str:
    """The table as ``source`` sees it: a ClubView (its own hand only) or a Session (every hand)."""
    open_table = isinstance(source, Session)
    head = f" {title} " if title else " "
    lines = [f"=={head}".ljust(width, "=")]
    who = "" if open_table else f"{names[source.seat]} (seat {source.seat}) · "
    rules = source.rules
    length = "until a pot is won" if rules.until_won else counted(rules.deals, "deal")
    lines.append(f"{who}deal {source.deal_number} of at most {rules.max_deals} ({length}) · dealer "
                 f"{names[source.dealer]} · ante {rules.ante}")
    stakes = ", ".join(f"{names[s]} {v}" for s, v in enumerate(source.stakes))
    lines += section("Chips", [f"pot {source.pot} ({stakes}) · session: {_seats(source.chips, names)}"])
    alone, partner, widow, discards = _knowledge(source)
    lines += parts_lines(_said("Choosing", choosing_line(source.auction, names))
                         + _said("Mediator", mediator_line(source.mediator, source.pot_accepted,
                                                           alone, source.called_card, partner,
                                                           names, style)))
    if widow:
        lines += section("Widow", [hand_inline(widow, style) + "  (the mediator's eyes only)"])
    if discards:
        lines += section("Discards", [hand_inline(discards, style)])
    if source.tricks:
        lines += parts_lines([club_tricks(source.tricks, source.mano, source.thirds_won, names,
                                          style)])
    if source.trick:
        lines += section("On table", trick_lines(source.leader, source.trick, 0, names, style,
                                                  source.to_move))
    if source.phase != END:
        lines += hands_section(source, names, style, open_table, getattr(source, "seat", None))
    if source.phase != END and source.to_move is not None:
        lines += section("To act", [f"{names[source.to_move]} ({PHASE_NAMES[source.phase]})"])
    return "\n".join(lines)


def _said(label: str, line: str | None) -> list[dict]:
    """A part of one line under ``label``, none where there is nothing to say."""
    return [] if line is None else [end_part(label, [line])]


def deal_end(session: Session, names: Sequence[str] = DEFAULT_NAMES,
             style: str = "english") -> dict:
    """The end of the session's last finished deal (:func:`~mediatore_env.core.text.end_json`),
    as Mediatore's end of a deal: the choosing, the mediator and his call, the discards turned
    over, the tricks and the points each seat took, the deal won or lost, and the chips. All
    of it is public once the play has ended (the widow, which only the mediator saw, is not
    shown). The page draws it; :func:`deal_end_lines` prints it."""
    r = session.results[-1]
    parts = _said("Choosing", choosing_line(
        [(s, m) for s, m in r.moves if phase_of_move(m) == AUCTION], names))
    if r.passed:
        parts.append(end_part("", ["All four passed: the same dealer deals again, the pot "
                                   "unchanged."]))
    else:
        parts += _said("Mediator", mediator_line(r.mediator, r.pot, r.alone, r.called_card,
                                                 r.partner, names, style))
        parts += [end_part("Discards", [hand_inline(r.discards, style)
                                        + "  (turned over: the mediator's)"]),
                  club_tricks(r.tricks, (r.dealer + 1) % 4, r.thirds_won, names, style),
                  end_part("Points", [
                      f"the mediator's side {format_thirds(r.thirds)}, the others "
                      f"{format_thirds(sum(r.thirds_won) - r.thirds)} (the side needs "
                      f"{WIN_THIRDS // 3}): " + ("won, it takes the pot" if r.won else
                                                 "lost, the pot stays")])]
    parts.append(end_part("Chips", [f"this deal {_seats(r.chips, names)}",
                                    f"session {_seats(session.chips, names)} · pot now "
                                    f"{session.pot}"]))
    return end_json(f"deal {r.number}: the end", parts)


def deal_end_lines(session: Session, names: Sequence[str] = DEFAULT_NAMES,
                   style: str = "english", width: int = 78) -> list[str]:
    """The end of the session's last finished deal (:func:`deal_end`) as text."""
    return end_text(deal_end(session, names, style), width)


def end_text(end: dict, width: int = 78) -> list[str]:
    """:func:`deal_end_lines` from the deal's end already made (:func:`deal_end`)."""
    return [f"== {end['title']} ".ljust(width, "="), *parts_lines(end["parts"])]


def deal_line(number: int, dealer: int, result: dict, names: Sequence[str] = DEFAULT_NAMES) -> str:
    """One finished deal in a line, from its result in a record (records.result_of)."""
    r = result
    if r["passed"]:
        text = "all passed"
    else:
        how = ("alone" if r["alone"] and r["called_card"] is None else
               f"called {r['called_card']}, in the widow: alone" if r["alone"] else
               f"called {r['called_card']}, partner {names[r['partner']]}")
        text = (f"{names[r['mediator']]} mediator ({how}), matched {r['pot']}: "
                f"{format_thirds(r['thirds'])} points, "
                + ("won the pot" if r["won"] else "lost, the pot stays"))
    return (f"deal {number:>2} (dealer {names[dealer]}): {text}; chips this deal "
            f"{_seats(r['chips'], names)}")


def session_lines(record: dict, names: Sequence[str] = DEFAULT_NAMES) -> list[str]:
    """A finished session, one line per deal, from its record (records.make_record)."""
    lines = [deal_line(number, deal["dealer"], deal["result"], names)
             for number, deal in enumerate(record["deals"], 1)]
    lines.append(f"session: chips {_seats(record['chips'], names)}")
    return lines


# -- a seat's table as structured data for the browser (docs/web.md): from a ClubView alone ------

def club_marks(view) -> dict:
    """The dealer, il mano, the ``mediator`` and his ``partner`` (once this seat may know it),
    and the sides once known: 0 the mediator's, 1 the others'."""
    roles: list[list[str]] = [[] for _ in range(4)]
    sides: list[int | None] = [None] * 4
    if view.mediator is not None:
        roles[view.mediator].append("mediator")
        sides[view.mediator] = 0
        side = ((view.mediator,) if view.alone else
                (view.mediator, view.partner) if view.partner is not None else None)
        if side:
            sides = [0 if s in side else 1 for s in range(4)]
    if view.partner is not None:
        roles[view.partner].append("partner")
    return {"dealer": view.dealer, "mano": view.mano, "roles": roles, "sides": sides}


def club_panels(view, names, style: str) -> list[dict]:
    """The chips and the pot, the choosing of the mediator and his call, the widow and the
    discards as far as ``view`` saw them, the points taken, the deal's line."""
    rules = view.rules
    out = [panel("chips", "Chips", pot=view.pot, stakes=list(view.stakes), chips=list(view.chips),
                 ante=rules.ante, deal=view.deal_number, max_deals=rules.max_deals)]
    choosing = view.phase == AUCTION and view.to_move != CHANCE  # not while a pack is awaited
    if view.auction or choosing:
        out.append(panel("choosing", "Choosing", calls=[
            {"seat": s, "move": m, "words": "accept" if m == ACCEPT else "pass"}
            for s, m in view.auction],
            choosing=view.to_move if choosing else None,
            mediator=view.mediator, to_match=view.pot_accepted if view.mediator is not None else None,
            called=None if view.called_card is None else card_json(view.called_card, style),
            alone=view.alone, partner=view.partner))
    if view.widow or view.discards:
        out.append(panel("widow", "Widow", widow=cards_json(view.widow, style),
                         discards=cards_json(view.discards, style)))
    if view.tricks:
        sides = club_marks(view)["sides"]
        side = None if None in sides else [s for s in range(4) if sides[s] == 0]
        out.append(panel("points", "Points", **points_json(view, side)))
    return out + [panel("note", "Deal", lines=[deal_note(view, names)])]


def deal_note(view, names: Sequence[str]) -> str:
    """The deal on the table in a line: ``deal 2 of at most 20 · dealer You · ante 5``."""
    return (f"deal {view.deal_number} of at most {view.rules.max_deals} · dealer "
            f"{names[view.dealer]} · ante {view.rules.ante}")


def club_summary(view, names: Sequence[str]) -> dict:
    """How the session ended; by seat, the deals it was the mediator, the pots it won, its
    chips."""
    deals = view.past_deals
    last = deals[-1]
    if last.won:
        side = "alone" if last.partner is None else f"with {names[last.partner]}"
        why = f"{names[last.mediator]}, the mediator, won the pot {side}"
    else:
        why = "no one won the pot, and each stake in it went back"
    return summary_json(("mediator", "pots won", "chips"), [
        (sum(d.mediator == s for d in deals), sum(d.mediator == s and bool(d.won) for d in deals),
         chips) for s, chips in enumerate(view.chips)],
        [f"The session ends after {counted(len(deals), 'deal')}: {why}."])


# -- the hooks of the tools: a trick game's, and club Mediatore's own -----------------------------

class ClubNarrator(Narrator):
    """Tells the moves made since it last looked, as ``seat`` sees them (None: the open table):
    the choosing, the call, the discards (face down but to the mediator and the open table),
    each card with each trick's winner, each deal's result. Everything it tells is public but
    the discards, which it names only to those who saw them."""

    def __init__(self, session: Session, seat: int | None, names=DEFAULT_NAMES,
                 style: str = "english"):
        self.session, self.seat, self.names, self.style = session, seat, names, style
        self.skip()

    def skip(self) -> None:
        self.told, self.deals = len(self.session.history), len(self.session.results)
        self.plays = len(self.session.tricks) * 4 + len(self.session.trick)

    def news(self) -> list[str]:
        session, names = self.session, self.names
        out = []
        hidden, mediator = 0, None  # discards this seat does not see: one line once all are made
        for seat, move in session.history[self.told:]:
            name, phase = names[seat], phase_of_move(move)
            if phase == DISCARD and self.seat not in (None, seat):
                hidden, mediator = hidden + 1, seat
                continue
            out += self._face_down(hidden, mediator)
            hidden = 0
            if move in _CHOICES:
                out.append(self.line(seat, _CHOICES[move][name == YOU]))
                continue
            card = card_label(card_of_move(move), self.style)
            if phase == PLAY:
                verb = person(name, "lead" if self.plays % 4 == 0 else "play")
                out.append(self.line(seat, f"{verb} {card}"))
                self.plays += 1
                if self.plays % 4 == 0:
                    out.append(self._won(self.plays // 4))
            else:  # a call or a discard seen
                verb = person(name, "discard" if phase == DISCARD else "call")
                out.append(self.line(seat, f"{verb} {card}"))
        if hidden and session.phase == DISCARD:  # more to come: told with them
            self.told = len(session.history) - hidden
            return out
        out += self._face_down(hidden, mediator)
        self.told = len(session.history)
        for number in range(self.deals + 1, len(session.results) + 1):
            result = session.results[number - 1]
            told = result_of(result)
            out.append(deal_line(number, result.dealer, told, names))
            if not told["passed"]:  # turned over at the end, counted in the mediator's points
                shown = ", ".join(card_label(c, self.style) for c in cards_of(result.discards))
                mediator = told["mediator"]
                out.append(self.line(mediator, f"{person(names[mediator], 'turn')} over the "
                                               f"discards: {shown}"))
            self.plays = 0
        self.deals = len(session.results)
        return out

    def _face_down(self, count: int, mediator: int | None) -> list[str]:
        """The mediator's discards that this seat did not see, in one line."""
        if not count:
            return []
        return [self.line(mediator, f"{person(self.names[mediator], 'discard')} "
                                    f"{counted(count, 'card')} face down")]

    def _won(self, number: int) -> str:
        session = self.session
        finished = len(session.results) > self.deals  # the trick ended its deal
        winner = (session.results[-1] if finished else session).tricks[number - 1].winner
        return self.line(None, f"-> trick {number} to {self.names[winner]}")


#: The choosing and the call as news: (said of another, said of You).
_CHOICES = {PASS: ("passes", "pass"), ACCEPT: ("becomes the mediator", "become the mediator"),
            ALONE: ("plays alone", "play alone")}

_QUESTIONS = {AUCTION: "Become the mediator (match the pot) or pass:",
              CALL: "Call a card (its holder becomes your secret partner) or play alone:"}


class ClubDisplay(Display):
    """Club Mediatore's hooks: the defaults of a trick game where they serve (the list of
    moves, the question of the play, no stops), and its own deals, chips and sessions."""

    move_words = staticmethod(move_words)
    hand_word = "deal"

    def card_of(self, move: int) -> int | None:
        return card_of_move(move) if phase_of_move(move) in (DISCARD, PLAY) else None

    def named_card(self, move: int) -> int | None:
        return card_of_move(move) if phase_of_move(move) == CALL and move != ALONE else None

    def rules_line(self, rules) -> str:
        length = ("until a pot is won" if rules.until_won
                  else counted(rules.deals, "deal"))
        return f"ante {rules.ante}, {length} (at most {rules.max_deals})"

    def table_text(self, view, names: Sequence[str] | None = None, style: str = "english",
                   title: str = "") -> str:
        return table_text(view, names or DEFAULT_NAMES, style, title)

    def table_lines(self, view, names, style: str, title: str) -> list[str]:
        return [table_text(view, names, style, title)]

    def question(self, view) -> str:
        if view.phase == DISCARD:
            return discard_question(view, "face down")
        return _QUESTIONS.get(view.phase) or super().question(view)

    def choose(self, view) -> dict | None:
        return discard_choice(view)

    def view_json(self, view, names: Sequence[str] | None = None, style: str = "english") -> dict:
        """A club Mediatore seat's table for the browser (:func:`~mediatore_env.core.text.
        table_json`): the chips, the choosing, the mediator and his call, the widow and the
        discards as far as ``view`` knows them: the sections of its :func:`table_text`."""
        names = names or DEFAULT_NAMES
        text = table_text(view, names, style).splitlines()[2:]  # below the title and deal line
        facts = [("Deal", [deal_note(view, names)]),
                 *text_facts(text, skip=("Tricks", "On table", "Hand", "Your hand", "To act"))]
        over = view.to_move is None
        return table_json(view, names, style, facts, move_words, self.card_of,
                          view.chips if over else None, marks=club_marks(view),
                          named_card=self.named_card,
                          panels=club_panels(view, names, style),
                          summary=club_summary(view, names) if over else None)

    def start_lines(self, session: Session, seat: int, names, style: str,
                    title: str) -> list[str]:
        """A deal just dealt, as ``seat`` hears of it: who deals, the pot, and its own hand."""
        return [f"{title}, deal {session.deal_number}: {does(names[session.dealer], 'deal')}, "
                f"the pot holds {session.pot}.",
                *hand_news(names[seat], session.view(seat).hand, style)]

    def dealt_lines(self, session: Session, seat: int | None, names, style: str) -> list[str]:
        """A deal just dealt: its dealer and pot, every hand (the open table) or ``seat``'s."""
        out = [f"-- deal {session.deal_number}: {does(names[session.dealer], 'deal')}, pot "
               f"{session.pot} ".ljust(40, "-")]
        if seat is not None:
            return out + [f"{names[seat]} holds:" if names[seat] != YOU else "Your hand:",
                          *("  " + line for line in hand_lines(session.view(seat).hand, style))]
        w = max(map(len, names))
        return out + [f"  {names[s]:<{w}}  {hand_inline(session.hands[s], style)}"
                      for s in range(4)]

    def narrator(self, session: Session, seat: int | None, names, style: str) -> ClubNarrator:
        return ClubNarrator(session, seat, names, style)

    def stage(self, session: Session, seat: int | None = None) -> str:
        """The last stage the session has finished, for a replay's stops: a deal's choosing of
        the mediator, its exchange, each trick, its end."""
        if session.needs_pack or session.is_over:
            return f"deal {len(session.results)}, the end"
        number, phase = session.deal_number, session.phase
        if phase == AUCTION:
            return f"deal {number}, start"
        if phase != PLAY:
            return f"deal {number}, the mediator"
        return (f"deal {number}, trick {len(session.tricks)}" if session.tricks
                else f"deal {number}, the exchange")

    def stop_json(self, session: Session, seat: int | None, names, style: str) -> dict | None:
        """After a deal: its end, the same for every seat (:func:`deal_end`)."""
        if session.results and (session.needs_pack or session.is_over):
            return deal_end(session, names, style)
        return None

    def stop_lines(self, session: Session, seat: int | None, names, style: str) -> list[str]:
        """:meth:`stop_json` as text (:func:`deal_end_lines`)."""
        end = self.stop_json(session, seat, names, style)
        return ["", *end_text(end)] if end else []

    def final_lines(self, session: Session, seat: int, names, style: str,
                    title: str) -> list[str]:
        """The last deal's end (:func:`deal_end_lines`): the table of a finished session
        would show the chips already paid and a pot already taken."""
        return deal_end_lines(session, names, style)

    def end_lines(self, session: Session, names, style: str = "english") -> list[str]:
        """Every deal of the finished session in a line, and the chips."""
        return session_lines(session.record(), names)


DISPLAY = ClubDisplay()
