"""A batch of JAX games as game records: the Python engines' format
(:mod:`mediatore_env.core.records`), so that games played in JAX (a training run's, a
benchmark's) replay in every tool of the project (``mediatore-replay``, the browser table,
``registry.replay``).

A JAX state keeps what the game needs to go on, not its history, so a rollout keeps the moves:
for each step the seat to move before it (``state.current_player``, -1 once the game is over)
and the action. :func:`records` then plays each game's packs and moves through its Python
engine, which writes the record (and its result) as it writes any game's::

    first = states                                   # the batch as dealt (init)
    for t in range(steps):
        players.append(states.current_player); actions.append(action[t])
        states = step(states, action[t])
    books = records(env, first, players, actions)    # one record per game of the batch

The packs are the JAX games' own (``state.packs``: Tressette's hands, club's deals), and so
are the first dealers. Mediatore's JAX state keeps the hands dealt rather than the pack, so its
record holds a pack that deals those very hands (each seat's cards in id order at its places
in the pack, the monte last): the same deal.

A move the Python engine refuses (a JAX game ended by an illegal move: the JAX engine's
penalty has no place in a record), or a game not finished, raises ``ValueError`` naming it.
"""

from __future__ import annotations

import numpy as np

from ..mediatore.game import Deal
from ..mediatore.nine_tricks import DEAL_ORDER

__all__ = ["records", "python_game"]


def _one(first, i: int) -> dict:
    """Game ``i`` of a batch of states as numpy arrays by field name."""
    return {name: np.asarray(getattr(first, name))[i] for name in first.__dataclass_fields__}


def _mediatore_pack(state: dict) -> list[int]:
    """A pack that deals ``state``'s hands and monte (its dealer's order, cards in id order)."""
    order = DEAL_ORDER[int(state["dealer"])]
    cards = [list(np.flatnonzero(hand)) for hand in state["hands"]]
    pack = [int(cards[seat].pop(0)) for seat in order]
    return pack + [int(c) for c in np.flatnonzero(state["original_monte"])]


def python_game(env, state: dict):
    """The Python engine's game of a JAX game's first state (one game, numpy arrays by field),
    dealt and waiting for its first move."""
    from .club import ClubJax
    from .env import MediatoreJax
    from .tressette import TressetteJax
    if isinstance(env, MediatoreJax):
        return Deal(env.rules, int(state["dealer"]), _mediatore_pack(state))
    if isinstance(env, TressetteJax):
        from ..tressette.game import TressetteGame
        game = TressetteGame(env.rules, int(state["first_dealer"]))
        game.deal(state["packs"][0].tolist())
        return game
    if isinstance(env, ClubJax):
        from ..club.game import Session
        return Session(env.rules, int(state["first_dealer"]), packs=state["packs"].tolist())
    raise ValueError(f"no Python engine known for {env!r}")


def records(env, first, players, actions, **meta) -> list[dict]:
    """The record of each game of a batch: ``first``, the batch's first states (as ``init``
    deals them); ``players`` and ``actions`` (int[steps, batch]), the seat to move before each
    step (-1 once the game is over) and the action taken. Keyword arguments go under each
    record's ``"meta"``, with ``"batch_index"`` added. ``ValueError`` names a game whose moves
    its Python engine refuses, or that they do not finish."""
    players, actions = np.asarray(players), np.asarray(actions)
    out = []
    for i in range(players.shape[1]):
        state = _one(first, i)
        game = python_game(env, state)
        packs = state.get("packs")
        for t in np.flatnonzero(players[:, i] >= 0):
            seat, move = int(players[t, i]), int(actions[t, i])
            if seat != game.to_move or not game.is_legal(move):
                raise ValueError(f"game {i}, step {t}: seat {seat}'s move {move} is not legal in "
                                 f"the Python engine (seat {game.to_move} to move; an illegal "
                                 "move ends a JAX game with a penalty that no record holds)")
            game.apply(move)
            while game.needs_pack and packs is not None and not game.is_over:
                game.deal(packs[game.hand_number].tolist())  # Tressette's next hand
        if not game.is_over:
            raise ValueError(f"game {i} is not over after its {len(game.history)} moves")
        out.append(game.record(**meta, batch_index=i))
    return out
