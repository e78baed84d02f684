"""Playing one game of the Tressette family to its end with agents, from packs the caller gives.

The agents are those of :mod:`agents.base`: ``reset(seed)`` when a game starts and
``act(observation, view) -> move`` with ``view`` the acting seat's
:class:`~mediatore_env.tressette.view.TressetteView` (its hand, the declared melds, the public
history, in the two-handed game the draws it saw, the scores, ``legal_moves()``) and
``observation`` the environment's observation of that seat (``None`` for an agent with
``wants_observation = False``). Move ids are those of :mod:`mediatore_env.tressette.moves`:
0..39 play that card, ``CLAIM`` claims the game.

A game to 31 runs over several hands; each hand needs a pack (a chance event), which
:func:`play_game` takes from ``packs(k)`` for the ``k``-th hand it deals, so a duplicate
tournament plays the same packs in every rotation and a record replays them.
"""

from __future__ import annotations

from typing import Callable, Sequence

from mediatore_env.codec.actions import as_move
from mediatore_env.tressette.moves import NUM_MOVES

from ..base import Agent

def play_game(game, agents: Sequence[Agent], packs: Callable[[int], Sequence[int]],
              seeds: Sequence[int | None] | None = None):
    """Play ``game`` (a :class:`~mediatore_env.tressette.game.TressetteGame`) to its end,
    ``agents[s]`` choosing for seat ``s``; the ``k``-th hand dealt here gets ``packs(k)``.
    Returns the game.

    Each agent is first reset with ``seeds[s]`` (None when no seeds are given). An illegal
    move raises ``ValueError`` naming the agent, the seat and the move (the engine's message
    lists the legal ones). Every hand gives a side at least the last trick's point, so a game
    ends (with the ``claim`` switch, at the latest when a hand ends after a side reached 31).
    """
    players = game.rules.players
    if len(agents) != players:
        raise ValueError(f"this game needs {players} agents, one per seat; got {len(agents)}")
    for s, agent in enumerate(agents):
        agent.reset(None if seeds is None else seeds[s])
    encode = None
    if any(a.wants_observation for a in agents):
        from mediatore_env.tressette.observation import observation as encode  # only when read
    dealt = 0
    while not game.is_over:
        if game.needs_pack:
            game.deal(packs(dealt))
            dealt += 1
            continue
        seat = game.to_move
        agent = agents[seat]
        view = game.view(seat)
        move = agent.act(encode(view) if agent.wants_observation else None, view)
        try:
            game.apply(as_move(move, NUM_MOVES))  # numpy integers are fine; floats, bools, None are not
        except ValueError as e:
            raise ValueError(f"agent {agent.name!r} ({type(agent).__name__}) at seat {seat}: "
                             f"{e}") from None
    return game
