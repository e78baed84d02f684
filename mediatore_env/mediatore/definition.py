"""Mediatore as a game of the family: its :class:`~mediatore_env.core.definition.GameDef`,
:data:`MEDIATORE`, every part of the game in one place (the registry holds it)."""

from __future__ import annotations

from ..core.definition import Environment, GameDef, Lazy, Limits, MoveTable
from . import display
from .game import Deal
from .moves import NUM_MOVES, NUM_TRICKS, move_text, parse_move
from .observation import observation
from .reference import write_observation
from .rules import CHIAMO, CONTRACTS, MEDIATORE as MEDIATORE_CONTRACT, Rules, max_payment
from .worlds import redeal

__all__ = ["MEDIATORE", "limits"]


def limits(rules: Rules) -> Limits:
    """One deal: an auction of up to three passes, then each contract bid in turn with two
    passes between, then three passes; the call, the four discards and the card passed back
    where the contract has them; 36 cards. The payment schedule bounds the utilities."""
    longest = 4  # four passes: thrown in
    for contract in (c for c in CONTRACTS if c <= rules.top_contract):
        auction = 3 + contract + 2 * (contract - 1) + 3
        exchange = ((contract in (CHIAMO, MEDIATORE_CONTRACT)) + 4 * rules.takes_monte(contract)
                    + (contract == MEDIATORE_CONTRACT))
        longest = max(longest, auction + exchange + 4 * NUM_TRICKS)
    pay = max_payment(rules)
    return Limits(-pay, pay, longest, 1)


MEDIATORE = GameDef(
    name="mediatore", title="Mediatore", players=4, unit="deal",
    rules=Rules, engine=Deal, moves=MoveTable(NUM_MOVES, move_text, parse_move),
    observation=observation, reference_observation=write_observation, display=display,
    limits=limits, worlds=redeal, record_format="mediatore-record",
    environments=(Environment("mediatore_env.mediatore.mediatore_v0", "mediatore/mediatore-v0"),
                  Environment("mediatore_env.mediatore.mediatore_bidding_v0",
                              "mediatore/mediatore-bidding-v0"),
                  Environment("mediatore_env.mediatore.single_seat")),
    agents=Lazy("agents.mediatore:AGENTS"), tournament=Lazy("agents.mediatore.tournament:HOOKS"))
