"""Mediatore as a game of the family: its :class:`~mediatore_env.core.definition.GameDef`,
:data:`MEDIATORE`, every part of the game in one place (the registry holds it)."""

from __future__ import annotations

from functools import partial

from ..core.definition import Environment, GameDef, Lazy, Limits, MoveTable, TrickFacts
from ..core.moves import card_played
from .display import DISPLAY
from .game import Deal
from .moves import NUM_MOVES, PLAY_BASE, move_text, parse_move, play_move
from .nine_tricks import NUM_TRICKS
from .observation import observation
from .records import LEGACY_FORMAT
from .reference import write_observation
from .rules import CHIAMO, CONTRACTS, MEDIATORE as MEDIATORE_CONTRACT, Rules, max_payment
from .worlds import redeal

__all__ = ["MEDIATORE", "limits", "known_side"]


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


def known_side(seat: int, declarer: int | None, partner: int | None, alone: bool | None) -> int:
    """The seats ``seat`` knows to share its payment, as a bitmask: itself before a contract;
    the declarer and the partner it knows of, on their side; the other defenders, on theirs,
    once it knows who the declarer's side is (``alone``, or the ``partner`` known)."""
    if declarer is None:
        return 1 << seat
    ours = 1 << declarer | (0 if partner is None else 1 << partner)
    if ours >> seat & 1:
        return ours
    return 15 & ~ours if alone or partner is not None else 1 << seat


MEDIATORE = GameDef(
    name="mediatore", title="Mediatore", players=4, unit="deal",
    rules=Rules, engine=Deal, moves=MoveTable(NUM_MOVES, move_text, parse_move),
    observation=observation, reference_observation=write_observation, display=DISPLAY,
    limits=limits, worlds=redeal, record_format=LEGACY_FORMAT,
    environments=(Environment("mediatore_env.mediatore.mediatore_v0", "mediatore/mediatore-v0"),
                  Environment("mediatore_env.mediatore.mediatore_bidding_v0",
                              "mediatore/mediatore-bidding-v0"),
                  Environment("mediatore_env.mediatore.single_seat")),
    agents=Lazy("agents.mediatore:AGENTS"), tournament=Lazy("agents.mediatore.tournament:HOOKS"),
    jax=Lazy("mediatore_env.jaxgame.env:MediatoreJax"),
    trick=TrickFacts(card=partial(card_played, play_base=PLAY_BASE), play=play_move,
                     side=lambda view: known_side(view.seat, view.declarer, view.partner,
                                                  view.alone)))
