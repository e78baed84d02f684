"""Club Mediatore, the pot game, as a game of the family: its
:class:`~mediatore_env.core.definition.GameDef`, :data:`CLUB`."""

from __future__ import annotations

from functools import partial

from ..core.definition import Environment, GameDef, Lazy, Limits, MoveTable, TrickFacts
from ..core.moves import card_played
from ..mediatore.definition import known_side
from ..mediatore.nine_tricks import NUM_TRICKS
from .display import DISPLAY
from .game import DISCARDS, Session
from .moves import NUM_MOVES, PLAY_BASE, move_text, parse_move, play_move
from .observation import observation, write_observation
from .records import LEGACY_FORMAT
from .rules import ClubRules
from .worlds import redeal

__all__ = ["CLUB", "limits"]


def limits(rules: ClubRules) -> Limits:
    """A session of at most ``max_deals`` deals, each four choices, the call, four discards
    and 36 cards. A seat wins or loses at most the largest pot: four antes doubled by each
    deal at most (a mediator's side that loses matches it)."""
    deals = rules.max_deals
    pot = rules.first_pot * 2 ** deals
    return Limits(-pot, pot, deals * (4 + 1 + DISCARDS + 4 * NUM_TRICKS), deals)


CLUB = GameDef(
    name="club", title="club Mediatore", players=4, unit="session",
    rules=ClubRules, engine=Session, moves=MoveTable(NUM_MOVES, move_text, parse_move),
    observation=observation, reference_observation=write_observation, display=DISPLAY,
    limits=limits, reward_unit=lambda rules: rules.first_pot, worlds=redeal,
    record_format=LEGACY_FORMAT,
    environments=(Environment("mediatore_env.club.club_mediatore_v0",
                              "mediatore/club-mediatore-v0"),),
    agents=Lazy("agents.club:CLUB_AGENTS"), tournament=Lazy("agents.club.tournament:HOOKS"),
    jax=Lazy("mediatore_env.jaxgame.club:ClubJax"),
    trick=TrickFacts(card=partial(card_played, play_base=PLAY_BASE), play=play_move,
                     side=lambda view: known_side(view.seat, view.mediator, view.partner,
                                                  view.alone)))
