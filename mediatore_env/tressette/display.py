"""The Tressette games as text for people (:class:`TressetteDisplay`): the table as a seat
sees it, the news of each move (cards played, tricks won, melds, draws), a hand's and a game's
end; what ``mediatore-play``, ``mediatore-replay``, ``mediatore-web`` and the environments'
``render()`` show.

The defaults of a trick game (:class:`~mediatore_env.core.display.Display`) with what is
Tressette's: the claim, the scores to 31, the melds, the two-handed stock and draws, the
three-handed dead hand. It reads a :class:`~mediatore_env.tressette.view.TressetteView`
(what one seat knows) or, for the open table of a replay, the
:class:`~mediatore_env.tressette.game.TressetteGame`; what a seat may see is decided by the
view, never here.
"""

from __future__ import annotations

import textwrap
from typing import Sequence

from ..core.cards import CARD_NAMES, POINTS, cards_of
from ..core.display import Display, Facts, TrickNarrator
from ..core.text import (card_json, card_label, card_text, cards_json, format_thirds,
                         end_json, end_part, grid_lines, hand_inline, panel, person,
                         points_text, summary_json)
from .game import TressetteGame
from .melds import MELD_KINDS
from .moves import CLAIM, move_text
from .rules import FORMS, TARGET, TressetteRules, score_of_thirds

__all__ = ["DISPLAY", "TressetteDisplay", "TressetteNarrator", "side_names", "meld_text",
           "scores_line", "hand_end", "hand_end_lines", "result_lines", "table_text"]


# -- text ---------------------------------------------------------------------------------------

def side_names(rules: TressetteRules, names: Sequence[str]) -> list[str]:
    """The sides as people say them: ``'You and greedy(2)'`` four-handed, a seat's name otherwise."""
    return [" and ".join(names[s] for s in seats) for seats in rules.sides]


_COUNTS = {3: "three", 4: "four"}
#: The melds' names in Italian, as a table that names its cards in Italian says them.
_ITALIAN = {"aces": "assi", "twos": "due", "threes": "tre", 3: "tre", 4: "quattro"}


def meld_name(meld, style: str = "english") -> str:
    """``'three twos'``, ``'four aces'``, ``'a napoletana'``; in the italian style ``'tre
    due'``, ``'quattro assi'``, ``'una napoletana'``."""
    kind, n = MELD_KINDS[meld.kind], meld.cards.bit_count()
    if style == "italian":
        return "una napoletana" if kind == "napoletana" else f"{_ITALIAN[n]} {_ITALIAN[kind]}"
    return "a napoletana" if kind == "napoletana" else f"{_COUNTS[n]} {kind}"


def meld_words(meld, style: str = "english") -> str:
    """``'three twos (2 of coins, 2 of cups, 2 of swords), 3 points'``: its cards in the
    table's words (:func:`~mediatore_env.core.text.card_text`), as a card played is named;
    ``'three twos (D2 C2 S2), 3 points'`` in the short style, ``(2♦ 2♥ 2♠)`` in the french."""
    cards = (" " if style in ("short", "french") else ", ").join(
        card_text(c, style) for c in cards_of(meld.cards))
    return f"{meld_name(meld, style)} ({cards}), {meld.points} points"


def meld_text(seat_name: str, meld, style: str = "english") -> str:
    """``'greedy(1): three twos (D2 C2 S2), 3 points'`` (short): a meld in a list."""
    return f"{seat_name}: {meld_words(meld, style)}"


def scores_line(rules: TressetteRules, names: Sequence[str], totals, hand_points) -> str:
    sides = side_names(rules, names)
    return "Scores: " + " · ".join(f"{sides[i]} {totals[i]} ({hand_points[i]} this hand)"
                                   for i in range(rules.num_sides))


def hand_end(game: TressetteGame, names: Sequence[str], style: str) -> dict:
    """The end of the last hand dealt (:func:`~mediatore_env.core.text.end_json`), all of it
    public: a row per side, the cards taken (thirds, and the points they make rounded down),
    the last trick's point, the melds, the hand's total and the game's score; then the melds
    declared, each with its cards. The page draws it; :func:`hand_end_lines` prints it."""
    rules, log = game.rules, game.log[-1]
    points = log.points(rules)
    # a side of one seat (Two- and Three-Handed) is a player
    who = "side" if any(len(seats) > 1 for seats in rules.sides) else "player"
    rows = []
    for side, name in enumerate(side_names(rules, names)):
        thirds = log.side_thirds(rules, side)
        cards = format_thirds(thirds) + (f" -> {score_of_thirds(thirds)}" if thirds % 3 else "")
        rows.append([name, cards, log.last_trick_points(rules, side) or "-",
                     log.meld_points[side] or "-", points[side], game.totals[side]])
    melds = [meld_text(names[d.seat], d.meld, style) for d in log.melds]
    return end_json(f"hand {game.hand_number}: the end", [
        end_part("", columns=[who, "cards", "last", "melds", "hand", "game"], rows=rows,
                 notes=["cards: the thirds taken, rounded down to points",
                        "last: the last trick's point", f"the game is to {TARGET}"]),
        *([end_part("melds", melds)] if melds else [])])


def hand_end_lines(game: TressetteGame, names: Sequence[str], style: str) -> list[str]:
    """A hand's end (:func:`hand_end`) as text::

          side                     cards       last  melds  hand  game
          You and greedy(2)        4 2/3 -> 4  1     3      8     19
          greedy(1) and greedy(3)  6           -     -      6     14
          melds: You: three aces (ace of coins, ace of cups, ace of batons), 3 points
          (cards: the thirds taken, rounded down to points; last: the
           last trick's point; the game is to 31)

    Narrow (62 characters four-handed), so that a phone's terminal shows it whole."""
    return end_text(hand_end(game, names, style))


def end_text(end: dict) -> list[str]:
    """:func:`hand_end_lines` from the hand's end already made (:func:`hand_end`)."""
    points, *melds = end["parts"]
    notes = textwrap.wrap("(" + "; ".join(points["notes"]) + ")", 60)
    return ["", f"== {end['title']} ".ljust(78, "="),
            *("  " + line for line in grid_lines(points["columns"], points["rows"])),
            *(f"  {part['label']}: " + "; ".join(part["lines"]) for part in melds),
            *("  " + " " * (k > 0) + line for k, line in enumerate(notes))]


def ending_line(game, names: Sequence[str]) -> str:
    """Why a finished game ended, in a sentence, from a game or a seat's view of it (both
    have these public facts): ``The game ends in hand 5: greedy(1) reached 31.``"""
    rules = game.rules
    sides = side_names(rules, names)
    claimant = names[game.claimant] if game.claimant is not None else "?"
    why = {"target": f"{sides[game.ender]} reached 31",
           "claim": f"{claimant} claimed the game with {game.totals[game.ender]}",
           "false_claim": f"{claimant} claimed the game with only {game.totals[game.ender]}: "
                          "a false claim loses",
           "hand_end": f"the hand ended unclaimed after {sides[game.ender]} reached 31"
           }.get(game.end_reason, str(game.end_reason))
    return (f"The game ends in hand {game.hand_number}: {why}"
            + (" (Low Hand: the lower total wins)" if rules.low else "") + ".")


def result_lines(game: TressetteGame, names: Sequence[str], style: str = "english") -> list[str]:
    """The end of a game: why it ended, the totals, each seat's outcome (the last hand's
    points come before it, as every hand's end: :meth:`TressetteDisplay.stop_lines`)."""
    rules = game.rules
    sides = side_names(rules, names)
    return [ending_line(game, names),
            "Totals: " + " · ".join(f"{sides[i]} {game.totals[i]}" for i in range(rules.num_sides)),
            "Outcome: " + " · ".join(f"{names[s]} {o:+d}" for s, o in enumerate(game.outcome))]


#: The draws a table lists in sight (the news told each as it came); the earlier ones are
#: counted, or folded on the page (the stock panel's ``shown``).
SHOWN_DRAWS = 6


def draws_line(seen: Sequence[tuple[int, int]], names: Sequence[str]) -> str:
    """The last :data:`SHOWN_DRAWS` shown draws, the earlier ones counted."""
    earlier = max(0, len(seen) - SHOWN_DRAWS)
    return ((f"{earlier} earlier, then " if earlier else "")
            + ", ".join(f"{names[s]} {CARD_NAMES[c]}" for s, c in seen[earlier:]))


class TressetteNarrator(TrickNarrator):
    """The default news (cards played, tricks won) and Tressette's: melds and draws. Given the
    ``game`` as well (the open table of a replay) it names every card drawn from the stock."""

    def __init__(self, view, names: Sequence[str], style: str, game: TressetteGame | None = None):
        self.game = game
        super().__init__(view, names, style)

    def _draws(self):
        if self.game is None:
            return self.view.draws
        return tuple((d.seat, d.card) for d in self.game.log[-1].draws) if self.game.log else ()

    def counts(self) -> tuple[int, ...]:
        return super().counts() + (len(self.view.melds), len(self._draws()))

    def tell(self, seen: tuple[int, ...]) -> list[str]:
        names, (melds, draws) = self.names, seen[3:]
        out = super().tell(seen)
        out += [self.line(seat, f"{person(names[seat], 'declare')} {meld_words(meld, self.style)}")
                for seat, meld in self.view.melds[melds:]]
        for seat, card in self._draws()[draws:]:
            out.append(self.line(seat, f"{person(names[seat], 'draw')} "
                       + ("a card" if card is None else card_label(card, self.style))))
        return out

    def of_trick(self, number: int, trick) -> str:
        return (f" ({number} of {self.view.rules.num_tricks}), "
                f"{points_text(sum(POINTS[c] for c in trick.cards))}")


class TressetteDisplay(Display):
    """The Tressette games' hooks: the default trick game's, with the claim, the scores to 31,
    the melds, the two-handed stock and draws, and the three-handed dead hand."""

    move_text = staticmethod(move_text)

    def move_words(self, move: int, style: str = "english") -> str:
        """A move in words: ``'ace of swords'``, ``'claim the game'``."""
        return "claim the game" if move == CLAIM else card_text(move, style)

    def rules_line(self, rules: TressetteRules) -> str:
        """``'tressette3 (3 players), low'``: the form and the switches that differ from it."""
        changed = [k for k, v in rules.to_dict().items()
                   if k != "players" and v != getattr(FORMS[rules.form], k)]
        return f"{rules.form} ({rules.players} players)" + "".join(
            f", {k}" if getattr(rules, k) is True else f", {k}={getattr(rules, k)}"
            for k in changed)


    def facts(self, view, names: Sequence[str], style: str) -> Facts:
        """The scores, the melds, the stock and the draws as far as ``view`` knows them."""
        rules = view.rules
        seen = [(s, c) for s, c in view.draws if c is not None]
        return [("Scores", [scores_line(rules, names, view.totals, view.hand_points)[8:],
                            "the game is to 31" + (", Low Hand: the lower total wins"
                                                   if rules.low else "")]),
                ("Melds", [meld_text(names[s], m, style) for s, m in view.melds]),
                ("Stock", [f"{view.stock_size} cards"] if rules.stock_size else []),
                ("Draws", [draws_line(seen, names)] if seen else [])]

    def marks(self, view) -> dict:
        """The default's, with each seat's side (``rules.sides``: the partners of the
        four-handed game share one; every seat its own otherwise): public from the deal on."""
        marks = super().marks(view)
        for side, seats in enumerate(view.rules.sides):
            for s in seats:
                marks["sides"][s] = side
        return marks

    def panels(self, view, names: Sequence[str], style: str) -> list[dict]:
        """The scores to 31 by side, the melds declared, the stock and the draws as far as
        ``view`` saw them, the hand and the rules."""
        rules = view.rules
        # the cards' thirds too: a player counts the figures taken, which the hand's points
        # round down until they make a point
        out = [panel("scores", "Scores", target=31, low=rules.low, sides=[
            {"seats": list(seats), "name": name, "total": total, "hand": hand,
             "cards": format_thirds(sum(view.thirds[s] for s in seats))}
            for seats, name, total, hand in zip(rules.sides, side_names(rules, names),
                                                view.totals, view.hand_points)])]
        if view.melds:
            out.append(panel("melds", "Melds", melds=[
                {"seat": s, "name": meld_name(m, style), "cards": cards_json(m.cards, style),
                 "points": m.points} for s, m in view.melds]))
        if rules.stock_size:
            # both players draw after each trick while the stock lasts: the last two draws
            # are this trick's (fresh) until the next trick is played
            out.append(panel("stock", "Stock", size=view.stock_size, draws=[
                {"seat": s, "card": None if c is None else card_json(c, style)}
                for s, c in view.draws], shown=SHOWN_DRAWS,
                fresh=bool(view.draws) and len(view.draws) == 2 * len(view.tricks)))
        return out + [panel("note", "Hand", lines=[self.hand_line(view, names)])]

    def summary(self, view, names: Sequence[str]) -> dict:
        """Why the game ended; each seat's side's score and its result."""
        rules = view.rules
        return summary_json(("score", "result"),
                            [(view.totals[rules.side_of(s)], o) for s, o in enumerate(view.outcome)],
                            [ending_line(view, names)])

    def table_lines(self, view, names: Sequence[str], style: str, title: str) -> list[str]:
        """The default's, the head counting the hand's tricks, the melds apart by ``;``."""
        n_tricks = view.rules.num_tricks
        head = (f"== {title} · hand {view.hand_number} · trick "
                f"{min(len(view.tricks) + 1, n_tricks)} of {n_tricks} ")
        return [head.ljust(78, "="),
                *(f"{label}: " + ("; " if label == "Melds" else " · ").join(lines)
                  for label, lines in self.facts(view, names, style) if lines),
                *self.play_lines(view, names, style)]

    def table_text(self, view, names=None, style: str = "english",
                   title: str = "tressette") -> str:
        """The default's, with why the game ended."""
        text = super().table_text(view, names, style, title)
        return text + f" ({view.end_reason})" if view.is_over else text

    def start_lines(self, game: TressetteGame, seat: int, names, style: str,
                    title: str) -> list[str]:
        """The default's, with the partners at the first hand four-handed."""
        lines = super().start_lines(game, seat, names, style, title)
        if game.hand_number == 1 and game.players == 4:
            lines[0] = lines[0][:-1] + f"; partners: {' · '.join(side_names(game.rules, names))}."
        return lines

    def dealt_lines(self, game: TressetteGame, seat: int | None, names, style: str) -> list[str]:
        """The default's; the open table shows the dead hand and the stock too."""
        out = super().dealt_lines(game, seat, names, style)
        if seat is not None:
            return out
        w, log = max(map(len, names)), game.log[-1]
        if game.rules.has_dead_hand:
            out.append(f"  {'dead hand':<{w}}  {hand_inline(log.dead, style)}")
        if log.stock:
            out.append(f"  {'stock':<{w}}  " + " ".join(CARD_NAMES[c] for c in log.stock)
                       + "  (top first)")
        return out

    def narrator(self, game: TressetteGame, seat: int | None, names,
                 style: str) -> TressetteNarrator:
        """The news of ``game`` as ``seat`` sees it (None: the open table, every draw named)."""
        return TressetteNarrator(game.view(0 if seat is None else seat), names, style,
                                 game if seat is None else None)

    def stop_json(self, game: TressetteGame, seat: int | None, names, style: str) -> dict | None:
        """After a trick: a hand's points once it is over (:func:`hand_end`), the last hand's
        too (a game may end in the middle of a hand: its points so far)."""
        if game.log and (game.needs_pack or game.is_over):
            return hand_end(game, names, style)
        return None

    def stop_lines(self, game: TressetteGame, seat: int | None, names, style: str) -> list[str]:
        """:meth:`stop_json` as text."""
        end = self.stop_json(game, seat, names, style)
        return end_text(end) if end else []

    def final_lines(self, game: TressetteGame, seat: int, names, style: str,
                    title: str) -> list[str]:
        """The default's table at the end, then the last hand's points."""
        return (super().final_lines(game, seat, names, style, title)
                + hand_end_lines(game, names, style))

    def end_lines(self, game: TressetteGame, names, style: str = "english") -> list[str]:
        return result_lines(game, names, style)


DISPLAY = TressetteDisplay()
#: The table as text, for those who import it from here.
table_text = DISPLAY.table_text
