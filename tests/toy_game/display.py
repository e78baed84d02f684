"""The toy game's table as text, as one seat sees it."""

from __future__ import annotations

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
