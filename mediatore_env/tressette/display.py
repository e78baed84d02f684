"""The Tressette games as text for people: the table as a seat sees it, the news of each move
(cards played, tricks won, melds, draws), a hand's and a game's end; what ``mediatore-play``,
``mediatore-replay`` and the environments' ``render()`` show.

Small functions from a :class:`~mediatore_env.tressette.view.TressetteView` (what one seat
knows) or, for the open table of a replay, the :class:`~mediatore_env.tressette.game.TressetteGame`;
cards in the four styles of :mod:`mediatore_env.mediatore.display`. What a seat may see is
decided by the view, never here.

The terminal tools read each game's text module by the same names (the registry's ``text``):
:func:`rules_line`, :func:`table_text`, :func:`moves_lines`, :func:`narrator`, :func:`stage`,
:func:`dealt_lines`, :func:`stop_lines`, :func:`end_lines` and :func:`record_packs`;
terminal play also :func:`start_lines`, :func:`question` and :func:`table_lines`.
"""

from __future__ import annotations

from typing import Sequence

from ..core.cards import CARD_NAMES, cards_of
from ..codec.text import (STYLES, YOU, card_label, card_text, columns, hand_inline, hand_lines,
                          table_json)
from .game import TressetteGame
from .melds import MELD_KINDS
from .moves import CLAIM, move_text
from .rules import FORMS, TressetteRules

__all__ = ["STYLES", "rules_line", "side_names", "meld_text", "view_lines", "table_text",
           "move_words", "moves_lines", "Narrator", "narrator", "stage", "dealt_lines",
           "stop_lines", "end_lines", "record_packs", "result_lines", "start_lines", "question",
           "table_lines"]


# -- text ---------------------------------------------------------------------------------------

def rules_line(rules: TressetteRules) -> str:
    """``'tressette3 (3 players), low'``: the form and the switches that differ from it."""
    changed = [k for k, v in rules.to_dict().items()
               if k != "players" and v != getattr(FORMS[rules.form], k)]
    return f"{rules.form} ({rules.players} players)" + "".join(
        f", {k}" if getattr(rules, k) is True else f", {k}={getattr(rules, k)}" for k in changed)


def side_names(rules: TressetteRules, names: Sequence[str]) -> list[str]:
    """The sides as people say them: ``'You and greedy(2)'`` four-handed, a seat's name otherwise."""
    return [" and ".join(names[s] for s in seats) for seats in rules.sides]


def meld_text(seat_name: str, meld, style: str, verb: bool = True) -> str:
    """``'greedy(1) declares three twos (D2 C2 S2): 3 points'`` (without the verb for lists)."""
    kind = MELD_KINDS[meld.kind]
    count = {3: "three", 4: "four"}.get(meld.cards.bit_count(), meld.cards.bit_count())
    what = "a napoletana" if kind == "napoletana" else f"{count} {kind}"
    cards = " ".join(CARD_NAMES[c] for c in cards_of(meld.cards))
    says = (" declare" if seat_name == YOU else " declares") if verb else ":"
    return f"{seat_name}{says} {what} ({cards}), {meld.points} points"


def scores_line(rules: TressetteRules, names: Sequence[str], totals, hand_points) -> str:
    sides = side_names(rules, names)
    return "Scores: " + " · ".join(f"{sides[i]} {totals[i]} ({hand_points[i]} this hand)"
                                   for i in range(rules.num_sides))


def trick_line(leader: int, cards: Sequence[int], names: Sequence[str], players: int,
               style: str) -> str:
    return ", ".join(f"{names[(leader + k) % players]} {card_text(c, style)}"
                     for k, c in enumerate(cards))


def view_lines(view, names: Sequence[str], style: str = "english", title: str = "") -> list[str]:
    """The table as ``view``'s seat sees it: scores, melds, this hand's tricks, the trick in
    progress, the stock and draws (two-handed), the seat's hand."""
    rules, players = view.rules, view.players
    n_tricks = rules.num_tricks
    head = f"== {title} · hand {view.hand_number} · trick {min(len(view.tricks) + 1, n_tricks)}" \
        f" of {n_tricks} "
    out = [head.ljust(78, "="),
           scores_line(rules, names, view.totals, view.hand_points)
           + " · the game is to 31" + (", Low Hand: the lower total wins" if rules.low else "")]
    if view.melds:
        out.append("Melds: " + "; ".join(meld_text(names[s], m, style, verb=False)
                                         for s, m in view.melds))
    if rules.stock_size:
        out.append(f"Stock: {view.stock_size} cards")
        seen = [(s, c) for s, c in view.draws if c is not None]
        if seen:
            out.append("Draws: " + ", ".join(f"{names[s]} {CARD_NAMES[c]}" for s, c in seen))
    if view.tricks:
        out.append("Tricks of this hand (leader first, winner last):")
        for i, (leader, cards, winner, _) in enumerate(view.tricks, 1):
            out.append(f"  {i:>2}. " + " ".join(CARD_NAMES[c] for c in cards)
                       + f"  led by {names[leader]}, won by {names[winner]}")
    if view.trick:
        out.append("On the table: " + trick_line(view.leader, view.trick, names, players, style))
    out.append("Your hand:" if names[view.seat] == YOU else f"{names[view.seat]} holds:")
    out += ["  " + line for line in hand_lines(view.hand, style)]
    return out


def move_words(move: int, style: str = "english") -> str:
    """A move in words: ``'ace of swords'``, ``'claim the game'``."""
    return "claim the game" if move == CLAIM else card_text(move, style)


def moves_lines(moves: Sequence[int], style: str = "english", width: int = 78) -> list[str]:
    """The numbered list of ``moves`` (from 1, in the order given), in columns."""
    return columns([f"{i:>2}  {move_words(m, style)}" for i, m in enumerate(moves, 1)], width)


class Narrator:
    """Says what happened since it last looked: cards played, tricks won, melds, draws.

    It reads a seat's ``view`` only (every fact it tells is public, or that seat's own), so
    the human's screen cannot tell more than the seat knows; given the ``game`` as well (the
    open table of a replay) it names every card drawn from the stock."""

    def __init__(self, view, names: Sequence[str], style: str, game: TressetteGame | None = None):
        self.view, self.names, self.style, self.game = view, names, style, game
        self.seen = (0, 0, 0, 0, 0)  # hand number, tricks, cards of the trick, melds, draws

    def _draws(self):
        if self.game is None:
            return self.view.draws
        return tuple((d.seat, d.card) for d in self.game.log[-1].draws) if self.game.log else ()

    def _now(self):
        v = self.view
        return (v.hand_number, len(v.tricks), len(v.trick), len(v.melds), len(self._draws()))

    def skip(self) -> None:
        """Say nothing of what happened so far (a hand was just dealt and shown)."""
        self.seen = self._now()

    def _cards(self, leader: int, cards, skip: int) -> str:
        players = self.view.players
        return trick_line((leader + skip) % players, cards[skip:], self.names, players, self.style)

    def news(self) -> list[str]:
        v, names = self.view, self.names
        hand, tricks, cards, melds, draws = self.seen
        now = self._now()
        if now[0] != hand:  # a new hand: nothing of it said yet
            tricks = cards = melds = draws = 0
        out = []
        for leader, played, winner, _ in v.tricks[tricks:]:
            told = self._cards(leader, played, cards) + "  " if cards < len(played) else ""
            who = names[winner]
            out.append(f"  {told}-> {who} {'win' if who == YOU else 'wins'} the trick "
                       f"({len(v.tricks)} of {v.rules.num_tricks})")
            cards = 0
        if len(v.trick) > cards:
            out.append("  " + self._cards(v.leader, v.trick, cards))
        out += ["  " + meld_text(names[seat], meld, self.style) for seat, meld in v.melds[melds:]]
        for seat, card in self._draws()[draws:]:
            verb = "draw" if names[seat] == YOU else "draws"
            out.append(f"  {names[seat]} {verb} "
                       + ("a card" if card is None else card_label(card, self.style)))
        self.seen = now
        return out


def end_of_hand_lines(game: TressetteGame, names: Sequence[str]) -> list[str]:
    rules = game.rules
    log = game.log[-1]
    sides = side_names(rules, names)
    points = log.points(rules)
    return [f"Hand {game.hand_number} ends: "
            + " · ".join(f"{sides[i]} {points[i]}" for i in range(rules.num_sides))
            + "; totals " + " · ".join(str(t) for t in game.totals)]


def result_lines(game: TressetteGame, names: Sequence[str]) -> list[str]:
    """The end of a game: why it ended, the totals, each seat's outcome."""
    rules = game.rules
    sides = side_names(rules, names)
    why = {"target": f"{sides[game.ender]} reached 31",
           "claim": f"{names[game.claimant] if game.claimant is not None else '?'} claimed the "
                    f"game with {game.totals[game.ender]}",
           "false_claim": f"{names[game.claimant] if game.claimant is not None else '?'} claimed "
                          f"the game with only {game.totals[game.ender]}: a false claim loses",
           "hand_end": f"the hand ended unclaimed after {sides[game.ender]} reached 31"
           }.get(game.end_reason, str(game.end_reason))
    return [f"The game ends after {game.hand_number} hand{'s' * (game.hand_number > 1)}: {why}"
            + (" (Low Hand: the lower total wins)" if rules.low else "") + ".",
            "Totals: " + " · ".join(f"{sides[i]} {game.totals[i]}" for i in range(rules.num_sides)),
            "Outcome: " + " · ".join(f"{names[s]} {o:+d}" for s, o in enumerate(game.outcome))]


def table_text(view, names=None, style: str = "english", title: str = "tressette") -> str:
    """The table as ``view``'s seat sees it, as text (:func:`view_lines`), then its legal moves
    or the outcome: what ``render()`` shows."""
    names = names or [f"seat {s}" for s in range(view.players)]
    lines = view_lines(view, names, style, title)
    if view.is_over:
        lines.append("over: " + ", ".join(f"{names[s]} {o:+d}" for s, o in enumerate(view.outcome))
                     + f" ({view.end_reason})")
    elif view.to_move == view.seat:
        lines.append("to play: " + " ".join(move_text(m) for m in view.legal_moves()))
    return "\n".join(lines)


# -- the hooks of the terminal tools (mediatore-replay) ------------------------------------------

def narrator(game: TressetteGame, seat: int | None, names, style: str) -> Narrator:
    """The news of ``game`` as ``seat`` sees it (None: the open table, every draw named)."""
    return Narrator(game.view(0 if seat is None else seat), names, style,
                    game if seat is None else None)


def stage(game: TressetteGame, seat: int | None = None) -> str:
    """Where the game stands, for a replay's stops: a hand's tricks."""
    tricks = len(game.log[-1].tricks) if game.log else 0
    return f"hand {game.hand_number}, trick {tricks}"


def dealt_lines(game: TressetteGame, seat: int | None, names, style: str) -> list[str]:
    """A hand just dealt: the last hand's points, who deals, and the hands (the open table:
    every hand, the dead hand, the stock) or ``seat``'s."""
    out: list[str] = []
    rules = game.rules
    out.append(f"-- hand {game.hand_number}: {names[game.dealer]} "
               f"{'deal' if names[game.dealer] == YOU else 'deals'} ".ljust(40, "-"))
    if seat is not None:
        return out + [f"{names[seat]} holds:" if names[seat] != YOU else "Your hand:",
                      *("  " + line for line in hand_lines(game.view(seat).hand, style))]
    w = max(map(len, names))
    log = game.log[-1]
    out += [f"  {names[s]:<{w}}  {hand_inline(game.hands[s], style)}" for s in range(rules.players)]
    if rules.has_dead_hand:
        out.append(f"  {'dead hand':<{w}}  {hand_inline(log.dead, style)}")
    if log.stock:
        out.append(f"  {'stock':<{w}}  " + " ".join(CARD_NAMES[c] for c in log.stock)
                   + "  (top first)")
    return out


def stop_lines(game: TressetteGame, seat: int | None, names, style: str) -> list[str]:
    """After a trick: a hand's points once it is over."""
    if game.needs_pack and game.log:
        return end_of_hand_lines(game, names)
    return []


def end_lines(game: TressetteGame, names, style: str = "english") -> list[str]:
    return result_lines(game, names)


def record_packs(record: dict) -> list:
    """The packs of a record, in the order dealt."""
    return record["packs"]


def view_json(view, names: Sequence[str] | None = None, style: str = "english") -> dict:
    """A Tressette seat's table for the browser (:func:`~mediatore_env.codec.text.
    table_json`): the scores, the melds, the stock and the draws as far as ``view`` knows them."""
    rules = view.rules
    names = names or [f"seat {s}" for s in range(view.players)]
    seen = [(s, c) for s, c in view.draws if c is not None]
    facts = [("Scores", [scores_line(rules, names, view.totals, view.hand_points)[8:],
                         "the game is to 31" + (", Low Hand: the lower total wins"
                                                if rules.low else "")]),
             ("Melds", [meld_text(names[s], m, style, verb=False) for s, m in view.melds]),
             ("Stock", [f"{view.stock_size} cards"] if rules.stock_size else []),
             ("Draws", [", ".join(f"{names[s]} {CARD_NAMES[c]}" for s, c in seen)] if seen
              else []),
             ("Hand", [f"hand {view.hand_number} · dealer {names[view.dealer]} · "
                       f"{rules_line(rules)}"])]
    return table_json(view, names, style, facts, move_words,
                      lambda m: m if m != CLAIM else None,
                      view.outcome if view.is_over else None, view.players)


# -- the hooks of terminal play (mediatore-play) ---------------------------------------------------

def start_lines(game: TressetteGame, seat: int, names, style: str, title: str) -> list[str]:
    """A hand just dealt, as ``seat`` hears of it: who deals and leads (the partners, at the
    first hand four-handed), and its own hand."""
    dealer, leader = names[game.dealer], names[game.to_move]
    partners = (f"; partners: {' · '.join(side_names(game.rules, names))}."
                if game.hand_number == 1 and game.players == 4 else ".")
    return [f"{title}, hand {game.hand_number}: {dealer} {'deal' if dealer == YOU else 'deals'}, "
            f"{leader} {'lead' if leader == YOU else 'leads'}{partners}",
            "Your hand:" if names[seat] == YOU else f"Hand of {names[seat]}:",
            *("  " + line for line in hand_lines(game.view(seat).hand, style))]


def question(view) -> str:
    return "Play a card:" if view.trick else "Lead a card:"


def table_lines(view, names, style: str, title: str) -> list[str]:
    return view_lines(view, names, style, title)
