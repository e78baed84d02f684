"""A game's table as text and JSON for people, with the defaults of a trick game written once:
:class:`Display`. Every tool that shows a game (``mediatore-play``, ``mediatore-replay``, an
environment's ``render()``, OpenSpiel's observation text, ``mediatore-web``) calls the hooks of
its definition's ``display`` and nothing else; a game's display is a subclass that overrides
only what is its own. The toy game of the tests overrides two hooks (its rules in words, its
points); Tressette adds its melds, draws and scores; Mediatore and club Mediatore, whose deals
have an auction and an exchange before the tricks, write most hooks themselves.

=====================  ========================================================================
hook                   default
=====================  ========================================================================
``card_of``            move ``c`` below 40 plays card ``c``; any other move plays none
``move_text``          the card's notation (``D3``); another move: its id
``move_words``         the card in words (``3 of coins``); another move: ``move_text``
``moves_lines``        the moves numbered from 1, in columns
``rules_line``         every switch as ``name=value`` (bare: the callers write ``rules:``)
``facts``              none: the game's own facts as ``(label, lines)`` (its scores, melds)
``table_lines``        a head (title, hand, trick), the facts, this hand's tricks, the trick on
                       the table, the seat's hand
``table_text``         ``table_lines``, then the moves it may make or the outcome
``question``           ``Lead a card:`` or ``Play a card:``
``view_json``          :func:`~.text.table_json` with the facts and the hand, dealer and rules
``marks``              the dealer, the first hand (the first trick's leader), no roles, no sides
``panels``             the facts as panels of words (``note``), the hand, dealer and rules
``summary``            at the end, each seat's tricks won and result
``start_lines``        who deals and leads, and the seat's hand
``dealt_lines``        who deals, and the seat's hand (the open table: every hand)
``narrator``           a :class:`TrickNarrator`: the cards played and the tricks won
``stage``              ``hand N, trick K``: a replay stops after every trick
``stop_lines``         nothing
``stop_json``          nothing: a hand's end within an episode as data (:func:`~.text.end_json`)
``hand_word``          ``hand``: the word of terminal play's wait between two hands
``final_lines``        the seat's table at the end (``table_lines``)
``end_lines``          each seat's outcome
=====================  ========================================================================

The defaults read the :class:`~.game.Game` protocol and a seat's view with the fields every
trick game's view has (:class:`TrickView`); a view is all a seat may know, so what the
defaults show of a seat's table the seat knows. ``names`` are the seats' names (``You`` gets
verbs in the second person), ``style`` one of :data:`~.text.STYLES`::

    >>> from mediatore_env.registry import make
    >>> game = make("tressette2")
    >>> game.deal(list(range(40)))
    >>> display = Display()
    >>> display.question(game.view(0)), display.move_words(game.legal_moves()[0])
    ('Lead a card:', '4 of coins')
    >>> display.stage(game), display.dealt_lines(game, 1, ["You", "seat 1"], "short")[0]
    ('hand 1, trick 0', '-- hand 1: You deal --------------------')
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence

from .cards import CARD_NAMES, NUM_CARDS
from .game import CHANCE, Game
from .text import (YOU, card_label, card_text, columns, does, hand_inline, hand_lines,
                   hand_news, panel, person, summary_json, table_json, trick_line)

__all__ = ["Display", "Narrator", "TrickNarrator", "TrickView", "Facts", "seat_names"]

#: A game's own facts about a table, each a label and its lines: ``[("Points", ["seat 0 3"])]``.
Facts = list[tuple[str, list[str]]]


class TrickView(Protocol):
    """What the defaults read of a seat's view (the toy game's and Tressette's views have it)."""

    @property
    def seat(self) -> int: ...
    @property
    def rules(self) -> Any: ...
    @property
    def players(self) -> int: ...
    @property
    def hand_number(self) -> int:
        """The hand in play, from 1."""
    @property
    def dealer(self) -> int:
        """The dealer of the hand in play."""
    @property
    def to_move(self) -> int | None: ...
    @property
    def hand(self) -> int:
        """The seat's cards, a bitset."""
    @property
    def hand_sizes(self) -> tuple[int, ...]: ...
    @property
    def trick(self) -> tuple[int, ...]:
        """The trick on the table, in playing order from its leader."""
    @property
    def leader(self) -> int | None: ...
    @property
    def tricks(self) -> tuple:
        """This hand's finished tricks (:class:`~.tricks.Trick`)."""
    @property
    def is_over(self) -> bool: ...
    @property
    def outcome(self) -> tuple[int, ...] | None: ...
    def legal_moves(self) -> list[int]: ...


def seat_names(players: int) -> list[str]:
    """The names of the seats when none are given: ``seat 0``, ``seat 1``, ..."""
    return [f"seat {s}" for s in range(players)]


class Narrator:
    """What happened at a table since it last looked, as lines: :meth:`news` tells it and looks
    again, :meth:`skip` looks again saying nothing (a hand was just dealt and shown). What it
    tells is what its seat saw (every seat, at the open table of a replay)."""

    names: Sequence[str]

    def skip(self) -> None:
        raise NotImplementedError

    def news(self) -> list[str]:
        raise NotImplementedError

    def line(self, seat: int | None, says: str) -> str:
        """One line of news: ``says`` after the name of ``seat`` (None: no one), the names in
        a column, as every game's narrator has them."""
        width = max(map(len, self.names))
        return f"  {'' if seat is None else self.names[seat]:<{width}}  {says}"


class TrickNarrator(Narrator):
    """The default narrator: the cards played and the tricks won, read from a seat's view, so
    it tells only what is public. A game's narrator may add its own news: :meth:`counts` says
    how far the telling has come (one count per kind of news), :meth:`tell` tells what came
    after ``seen``."""

    def __init__(self, view: TrickView, names: Sequence[str], style: str = "english"):
        self.view, self.names, self.style = view, names, style
        self.skip()

    def counts(self) -> tuple[int, ...]:
        """The hand, its finished tricks, the cards of the trick on the table."""
        v = self.view
        return (v.hand_number, len(v.tricks), len(v.trick))

    def skip(self) -> None:
        self.seen = self.counts()

    def news(self) -> list[str]:
        now = self.counts()
        if now[0] == self.seen[0]:
            seen = self.seen
        else:  # a new hand: nothing of it told yet
            seen = (now[0],) + (0,) * (len(now) - 1)
        self.seen = now
        return self.tell(seen)

    def tell(self, seen: tuple[int, ...]) -> list[str]:
        v, names = self.view, self.names
        tricks, cards = seen[1:3]
        out = []
        for number, trick in enumerate(v.tricks[tricks:], tricks + 1):
            out += self.cards(trick.leader, trick.cards, cards)
            out.append(self.line(None, f"-> {does(names[trick.winner], 'win')} the trick"
                                       + self.of_trick(number, trick)))
            cards = 0
        if v.leader is not None:
            out += self.cards(v.leader, v.trick, cards)
        return out

    def cards(self, leader: int, cards: Sequence[int], told: int) -> list[str]:
        """A line for each card of a trick after the first ``told``: who led or played it."""
        players = self.view.players
        out = []
        for k in range(told, len(cards)):
            seat = (leader + k) % players
            verb = person(self.names[seat], "lead" if k == 0 else "play")
            out.append(self.line(seat, f"{verb} {card_label(cards[k], self.style)}"))
        return out

    def of_trick(self, number: int, trick) -> str:
        """After the winner of the hand's trick ``number``: what the game says of it
        (Tressette: how far the hand has come and the trick's points, `` (3 of 10), 1 1/3
        points``)."""
        return ""


class Display:
    """A game's table as text and JSON: the hooks of the tools, each with the default of a
    trick game (the module docstring lists them). A game's display subclasses it, overrides
    what differs, and its definition holds one instance (``display=ToyDisplay()``)."""

    #: What the game calls one dealing of the cards within an episode, in the terminal's
    #: pause between two of them: a Tressette ``hand``, a club Mediatore ``deal``.
    hand_word = "hand"

    # -- moves ------------------------------------------------------------------------------

    def card_of(self, move: int) -> int | None:
        """The card of the hand that ``move`` plays, None for a move that plays none."""
        return move if 0 <= move < NUM_CARDS else None

    def named_card(self, move: int) -> int | None:
        """The card ``move`` names without playing it from the hand (Mediatore's and club's
        calls), for the page to lay out as cards; None for any other move."""
        return None

    def move_text(self, move: int) -> str:
        """A move in the game's notation, what the input reads back: ``D3``."""
        card = self.card_of(move)
        return str(move) if card is None else CARD_NAMES[card]

    def move_words(self, move: int, style: str = "english") -> str:
        """A move in words: ``3 of coins``."""
        card = self.card_of(move)
        return self.move_text(move) if card is None else card_text(card, style)

    def moves_lines(self, moves: Sequence[int], style: str = "english",
                    width: int = 78) -> list[str]:
        """The numbered list of ``moves`` (from 1, in the order given), in columns."""
        return columns([f"{i:>2}  {self.move_words(m, style)}" for i, m in enumerate(moves, 1)],
                       width)

    # -- the table ----------------------------------------------------------------------------

    def rules_line(self, rules) -> str:
        """The rules in a few words, bare (``tressette2 (2 players)``, ``standard``): every
        caller writes ``rules:`` before them, the same for every game."""
        return ", ".join(f"{name}={value}" for name, value in rules.to_dict().items())

    def facts(self, view, names: Sequence[str], style: str) -> Facts:
        """The game's own facts about ``view``'s table, as ``(label, lines)``: what its
        :meth:`table_lines` and :meth:`view_json` show beyond the cards."""
        return []

    def table_lines(self, view, names: Sequence[str], style: str, title: str) -> list[str]:
        """The table as ``view``'s seat sees it, without its moves: the head, the facts, the
        play so far (:meth:`play_lines`)."""
        head = " · ".join(filter(None, (title, f"hand {view.hand_number}",
                                        _trick_words(view))))
        return ([f"== {head} ".ljust(78, "=")]
                + [f"{label}: " + " · ".join(lines)
                   for label, lines in self.facts(view, names, style) if lines]
                + self.play_lines(view, names, style))

    def play_lines(self, view, names: Sequence[str], style: str) -> list[str]:
        """This hand's tricks, the trick on the table, and the seat's hand."""
        out = []
        if view.tricks:
            out.append("Tricks of this hand (leader first, winner last):")
            for i, (leader, cards, winner, _) in enumerate(view.tricks, 1):
                out.append(f"  {i:>2}. " + " ".join(CARD_NAMES[c] for c in cards)
                           + f"  led by {names[leader]}, won by {names[winner]}")
        if view.trick:
            out.append("On the table: " + trick_line(view.leader, view.trick, names,
                                                     view.players, style))
        out.append("Your hand:" if names[view.seat] == YOU else f"{names[view.seat]} holds:")
        return out + ["  " + line for line in hand_lines(view.hand, style)]

    def table_text(self, view, names: Sequence[str] | None = None, style: str = "english",
                   title: str = "") -> str:
        """The table as ``view``'s seat sees it (:meth:`table_lines`), then the moves it may
        make or the outcome: what ``render()`` shows."""
        names = names or seat_names(view.players)
        lines = self.table_lines(view, names, style, title)
        if view.is_over:
            lines.append("over: " + _outcome(view.outcome, names))
        elif view.to_move == view.seat:
            lines.append("to play: " + " ".join(map(self.move_text, view.legal_moves())))
        return "\n".join(lines)

    def question(self, view) -> str:
        """What the seat is asked above the list of its moves."""
        return "Play a card:" if view.trick else "Lead a card:"

    def choose(self, view) -> dict | None:
        """Cards the seat picks from its hand before they go, one move each (Mediatore's
        discards): ``{"count", "verb"}``, as the page's button says them (``Discard``); None
        where each card is a move of its own."""
        return None

    def hand_line(self, view, names: Sequence[str]) -> str:
        """The hand in play, its dealer and the rules, in a line: ``hand 2 · dealer You ·
        rules: tressette2 (2 players)``."""
        return (f"hand {view.hand_number} · dealer {names[view.dealer]} · "
                f"rules: {self.rules_line(view.rules)}")

    def view_json(self, view, names: Sequence[str] | None = None,
                  style: str = "english") -> dict:
        """The seat's table for the browser (:func:`~.text.table_json`): the facts, then the
        hand number, the dealer and the rules; the same as :meth:`panels`, the seats'
        :meth:`marks` and, once over, the :meth:`summary`."""
        names = names or seat_names(view.players)
        facts = self.facts(view, names, style) + [("Hand", [self.hand_line(view, names)])]
        return table_json(view, names, style, facts, self.move_words, self.card_of,
                          view.outcome if view.is_over else None, view.players,
                          named_card=self.named_card,
                          marks=self.marks(view), panels=self.panels(view, names, style),
                          summary=self.summary(view, names) if view.is_over else None)

    def marks(self, view) -> dict:
        """What the page marks on the seats: the ``dealer``, the ``mano`` (who leads first:
        the first trick's leader, else the seat after the dealer), each seat's ``roles`` (none
        here) and ``sides`` (None: not known), from ``view`` alone."""
        players, dealer = view.players, view.dealer
        mano = view.tricks[0].leader if view.tricks else (dealer + 1) % players
        return {"dealer": dealer, "mano": mano, "roles": [()] * players,
                "sides": [None] * players}

    def panels(self, view, names: Sequence[str], style: str) -> list[dict]:
        """The facts as panels for the page: the defaults are words (``note``) only; a game
        gives its own kinds (:mod:`.text`'s :func:`~.text.panel`)."""
        return [panel("note", label, lines=list(lines))
                for label, lines in self.facts(view, names, style) if lines] + [
            panel("note", "Hand", lines=[self.hand_line(view, names)])]

    def summary(self, view, names: Sequence[str]) -> dict:
        """The end as a table (:func:`~.text.summary_json`): each seat's tricks won in the
        last hand and its result."""
        won = [0] * view.players
        for trick in view.tricks:
            won[trick.winner] += 1
        return summary_json(("tricks", "result"),
                            [(won[s], o) for s, o in enumerate(view.outcome)])

    # -- a hand dealt, the news, the stops, the end ------------------------------------------

    def start_lines(self, game: Game, seat: int, names: Sequence[str], style: str,
                    title: str) -> list[str]:
        """A hand just dealt, as ``seat`` hears of it at the table: who deals and leads, and
        its own hand."""
        view = game.view(seat)
        return [f"{title}, hand {view.hand_number}: {does(names[view.dealer], 'deal')}, "
                f"{does(names[view.to_move], 'lead')}.",
                *hand_news(names[seat], view.hand, style)]

    def dealt_lines(self, game: Game, seat: int | None, names: Sequence[str],
                    style: str) -> list[str]:
        """A hand just dealt, in a replay: who deals, and ``seat``'s hand or (None, the open
        table) every hand."""
        view = game.view(0 if seat is None else seat)
        out = [f"-- hand {view.hand_number}: {does(names[view.dealer], 'deal')} "
               .ljust(40, "-")]
        if seat is not None:
            return out + ["Your hand:" if names[seat] == YOU else f"{names[seat]} holds:",
                          *("  " + line for line in hand_lines(view.hand, style))]
        width = max(map(len, names))
        return out + [f"  {names[s]:<{width}}  {hand_inline(game.view(s).hand, style)}"
                      for s in range(game.players)]

    def narrator(self, game: Game, seat: int | None, names: Sequence[str],
                 style: str) -> Narrator:
        """The news of ``game`` as ``seat`` sees it (None: the open table)."""
        return TrickNarrator(game.view(0 if seat is None else seat), names, style)

    def stage(self, game: Game, seat: int | None = None) -> str:
        """Where the game stands, for a replay's stops: it stops whenever this changes."""
        view = game.view(0 if seat is None else seat)
        return f"hand {view.hand_number}, trick {len(view.tricks)}"

    def stop_lines(self, game: Game, seat: int | None, names: Sequence[str],
                   style: str) -> list[str]:
        """What to say at a stop of a replay and between two hands of play."""
        return []

    def stop_json(self, game: Game, seat: int | None, names: Sequence[str],
                  style: str) -> dict | None:
        """A hand's end within the episode (a Tressette hand, a club deal), once it is over,
        as data for the page (:func:`~.text.end_json`): what :meth:`stop_lines` says of it,
        from the same rows; None at any other stop, and in a game that has none."""
        return None

    def final_lines(self, game: Game, seat: int, names: Sequence[str], style: str,
                    title: str) -> list[str]:
        """The table as ``seat`` sees it once the game is over, before its result."""
        return self.table_lines(game.view(seat), names, style, f"{title}: the end")

    def end_lines(self, game: Game, names: Sequence[str], style: str = "english") -> list[str]:
        """The result of the finished game."""
        return ["outcome: " + _outcome(game.outcome, names)]


def _trick_words(view) -> str:
    """``trick 2`` while a hand is played; between hands and at the end, the tricks played."""
    if view.to_move is None or view.to_move == CHANCE:
        return f"{len(view.tricks)} tricks played"
    return f"trick {len(view.tricks) + 1}"


def _outcome(outcome, names: Sequence[str]) -> str:
    return ", ".join(f"{names[s]} {o:+d}" for s, o in enumerate(outcome))
