"""The agent interface: given what one seat sees, choose a move.

An agent is anything with two methods::

    class MyAgent(Agent):
        def reset(self, seed):              # a new deal starts; reseed any randomness
            self.rng = random.Random(seed)
        def act(self, observation, view):   # -> a move id, one of view.legal_moves()
            return self.rng.choice(view.legal_moves())

``view`` is the :class:`~mediatore_env.mediatore.view.SeatView` of the seat to move: its hand, the
auction, the contract, the tricks, ``view.legal_moves()`` -- only what that seat may know.
``observation`` is the environment's observation of that seat,
``{"observation": float32 array, "action_mask": int8 array}`` from
``mediatore_env.mediatore.observation.observation(view)``, for agents that read tensors (a neural
network). Building it costs time, so an agent that only reads the view sets
``wants_observation = False`` and receives ``None``.

Move ids are those of :mod:`mediatore_env.mediatore.moves` (``pass``, ``bid solo``, ``call D3``,
``discard SA``, ``give B4``, ``play D3 busso``...), which are also the environment's action
ids. ``reset(seed)`` is called before every deal with a seed derived from the tournament's
seed, the deal's number and the seat, so that a seeded agent's decisions do not depend on
how the deals were spread over processes.

The same agent drives the PettingZoo environment (``env.unwrapped.view(agent)`` gives the
SeatView of the agent to act)::

    from mediatore_env import mediatore_v0
    from agents import GreedyAgent
    env = mediatore_v0.env()
    env.reset(seed=1)
    players = {name: GreedyAgent() for name in env.agents}
    for player in players.values():
        player.reset(seed=1)
    for name in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        done = terminated or truncated
        env.step(None if done else players[name].act(obs, env.unwrapped.view(name)))

and :func:`play_deal` drives the engine directly (what the tournament does, faster).
"""

from __future__ import annotations

from typing import Sequence

from mediatore_env.codec.actions import as_move
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.moves import NUM_MOVES
from mediatore_env.mediatore.view import SeatView


class Agent:
    """Base class of agents. Subclasses implement :meth:`act`; :meth:`reset` is optional."""

    #: Name used in reports; the registry sets it to the name an agent was made from.
    name: str = "agent"
    #: False when :meth:`act` ignores its ``observation`` argument (it then gets None).
    wants_observation: bool = True

    def reset(self, seed: int | None = None) -> None:
        """A new deal starts. ``seed`` seeds any randomness the agent uses."""

    def act(self, observation: dict | None, view: SeatView) -> int:
        """The move id this seat plays now; it must be one of ``view.legal_moves()``."""
        raise NotImplementedError

    def __repr__(self):
        return f"<{type(self).__name__} {self.name!r}>"


def play_deal(deal: Deal, agents: Sequence[Agent], seeds: Sequence[int | None] | None = None) -> Deal:
    """Play ``deal`` to its end, ``agents[s]`` choosing for seat ``s``; return the deal.

    Each agent is first reset with ``seeds[s]`` (None when no seeds are given). An illegal
    move raises ``ValueError`` naming the agent, the seat and the move.
    """
    return play_to_end(deal, agents, seeds, "deal", _observation)


def _observation():
    from mediatore_env.mediatore.observation import observation  # only when an agent reads it
    return observation


def play_to_end(game, agents: Sequence[Agent], seeds: Sequence[int | None] | None, what: str,
                observation_writer, num_actions: int = NUM_MOVES):
    """:func:`play_deal` for any game of the package: ``game`` is its state machine (a
    ``Deal``, a club ``Session``: ``to_move``, ``view(seat)``, ``is_over``, ``is_legal``,
    ``apply``), ``what`` its name in errors, ``observation_writer()`` the function that writes
    a seat's observation from its view (asked for only when an agent wants observations),
    ``num_actions`` its number of move ids (Mediatore's by default)."""
    if len(agents) != 4:
        raise ValueError(f"a {what} needs 4 agents, one per seat; got {len(agents)}")
    for s, agent in enumerate(agents):
        agent.reset(None if seeds is None else seeds[s])
    views = [game.view(s) for s in range(4)]
    encode = observation_writer() if any(a.wants_observation for a in agents) else None
    while not game.is_over:
        seat = game.to_move
        agent = agents[seat]
        view = views[seat]
        move = agent.act(encode(view) if agent.wants_observation else None, view)
        try:
            move = as_move(move, num_actions)  # numpy integers are fine; floats, bools, None are not
            if not game.is_legal(move):
                game.apply(move)  # raises the engine's message, which lists the legal moves
        except ValueError as e:
            raise ValueError(f"agent {agent.name!r} ({type(agent).__name__}) at seat {seat}: "
                             f"{e}") from None
        game._apply(move)
    return game
