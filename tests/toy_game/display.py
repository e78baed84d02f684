"""The toy game's table as text, as one seat sees it."""

from __future__ import annotations

from mediatore_env.codec.text import table_json
from mediatore_env.core.cards import CARD_NAMES, NUM_CARDS


def table_text(view, names=None, title: str = "toy") -> str:
    names = names or [f"seat {s}" for s in range(view.players)]
    lines = [f"{title}: hand {view.hand_number} of {view.rules.hands}, dealer "
             f"{names[view.dealer]}, points " + ", ".join(
                 f"{names[s]} {p}" for s, p in enumerate(view.points))]
    for leader, cards, winner, _ in view.tricks:
        lines.append(f"  {names[leader]} led {' '.join(CARD_NAMES[c] for c in cards)}: "
                     f"{names[winner]} won")
    if view.trick:
        lines.append(f"  on the table, led by {names[view.leader]}: "
                     + " ".join(CARD_NAMES[c] for c in view.trick))
    hand = [CARD_NAMES[c] for c in range(NUM_CARDS) if view.hand >> c & 1]
    lines.append(f"{names[view.seat]} holds: {' '.join(hand) or '-'}")
    if view.is_over:
        lines.append(f"over: outcome {list(view.outcome)}")
    return "\n".join(lines)


# -- the hooks of terminal play (mediatore-play's one loop, tools/play.py) ----------------------

def rules_line(rules) -> str:
    return f"{rules.hands} hands, scoring by {rules.scoring}"


def start_lines(game, seat, names, style, title):
    return [f"{title}, hand {len(game.packs)}: {names[game.hand_dealer]} deals",
            f"{names[seat]} holds: " + " ".join(CARD_NAMES[c] for c in range(NUM_CARDS)
                                               if game.hands[seat] >> c & 1)]


def question(view) -> str:
    return "Play a card:" if view.trick else "Lead a card:"


def table_lines(view, names, style, title):
    return [table_text(view, names, title)]


def move_words(move, style="english") -> str:
    return CARD_NAMES[move]


def moves_lines(moves, style="english"):
    return [f"{i:>2}  {move_words(m)}" for i, m in enumerate(moves, 1)]


class Narrator:
    """The cards played since it last looked, each trick with its winner."""

    def __init__(self, game, names):
        self.game, self.names = game, names
        self.skip()

    def skip(self):
        self.told = len(self.game.history)

    def news(self):
        out = []
        for seat, card in self.game.history[self.told:]:
            out.append(f"  {self.names[seat]} plays {CARD_NAMES[card]}")
        if self.game.history[self.told:] and not self.game.trick and self.game.tricks:
            out.append(f"  -> {self.names[self.game.tricks[-1].winner]} wins the trick")
        self.told = len(self.game.history)
        return out


def narrator(game, seat, names, style):
    return Narrator(game, names)


def stop_lines(game, seat, names, style):
    return ["points so far: " + ", ".join(f"{names[s]} {p}" for s, p in enumerate(game.points))]


def end_lines(game, names, style="english"):
    return ["outcome: " + ", ".join(f"{names[s]} {o:+d}" for s, o in enumerate(game.outcome))]


# -- the hooks of replay (mediatore-replay's one viewer) and of the browser table -------------

def stage(game, seat=None) -> str:
    return f"hand {len(game.packs)}, trick {len(game.tricks)}"


def dealt_lines(game, seat, names, style) -> list[str]:
    seats = range(game.players) if seat is None else (seat,)
    return [f"-- hand {len(game.packs)}: {names[game.hand_dealer]} deals"] + [
        f"{names[s]} holds: " + " ".join(CARD_NAMES[c] for c in range(NUM_CARDS)
                                         if game.hands[s] >> c & 1) for s in seats]


def record_packs(record: dict) -> list:
    return record["packs"]


def view_json(view, names=None, style: str = "english") -> dict:
    names = names or [f"seat {s}" for s in range(view.players)]
    facts = [("Points", [", ".join(f"{names[s]} {p}" for s, p in enumerate(view.points))])]
    return table_json(view, names, style, facts, move_words, lambda move: move,
                      view.outcome if view.is_over else None, view.players)
