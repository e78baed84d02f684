"""The agent interface: given what one seat sees, choose a move; and :func:`play`, the one
loop that plays any game of the package to its end with agents.

An agent is anything with an ``act`` method::

    class MyAgent(Agent):
        def reset(self, seed):              # optional: a new episode starts; reseed
            self.rng = random.Random(seed)
        def act(self, observation, view):   # -> a move id, one of view.legal_moves()
            return self.rng.choice(view.legal_moves())

``view`` is the acting seat's view of the game (``game.view(seat)``; a Mediatore
:class:`~mediatore_env.mediatore.view.SeatView`, a Tressette or club view): its hand, the
public history, ``view.legal_moves()`` -- only what that seat may know. ``observation`` is
the environment's observation of that seat, ``{"observation": float32 array, "action_mask":
int8 array}`` from the game's observation writer (its registry entry's ``observation``), for agents
that read tensors (a neural network). Building it costs time, so an agent that only reads the
view sets ``wants_observation = False`` and receives ``None``.

Subclassing :class:`Agent` is not required: ``reset``, ``name`` and ``wants_observation`` are
optional (:mod:`mediatore_env.core.agent`, the protocol every seat asks through, re-exported
here: :func:`is_agent`, :func:`agent_name`, :func:`reset_agent`, :func:`ask`).

Move ids are those of the game's ``moves`` module (Mediatore's ``pass``, ``bid solo``, ``call
D3``, ``play D3 busso``...), which are also the environment's action ids. ``reset(seed)`` is
called before every episode (a deal, a game to 31, a session) with a seed derived from the
tournament's seed, the episode's number and the seat, so that a seeded agent's decisions do
not depend on how the episodes were spread over processes.

The same agent drives the PettingZoo environment (``env.unwrapped.view(agent)`` gives the
view of the agent to act)::

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

and :func:`play` drives the engine directly (what the tournament does, faster).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from mediatore_env.core.agent import (agent_name, ask, check_seats, is_agent, reset_agent,
                                      wants_observation)
from mediatore_env.core.game import CHANCE

__all__ = ["Agent", "agent_name", "ask", "check_seats", "is_agent", "reset_agent", "wants_observation",
           "observation_writer", "play"]


class Agent:
    """Base class of agents. Subclasses implement :meth:`act`; :meth:`reset` is optional."""

    #: Name used in reports; the registry sets it to the name an agent was made from.
    name: str = "agent"
    #: False when :meth:`act` ignores its ``observation`` argument (it then gets None).
    wants_observation: bool = True

    def reset(self, seed: int | None = None) -> None:
        """A new episode starts. ``seed`` seeds any randomness the agent uses."""

    def act(self, observation: dict | None, view) -> int:
        """The move id this seat plays now; it must be one of ``view.legal_moves()``."""
        raise NotImplementedError

    def __repr__(self):
        return f"<{type(self).__name__} {self.name!r}>"


def observation_writer(game) -> Callable[[Any], dict]:
    """The observation writer of ``game``'s kind: that of the registered game whose engine is
    the game's class."""
    from mediatore_env.registry import GAMES
    for definition in GAMES.values():
        if type(game) is definition.engine:
            return definition.observation
    engine = f"{type(game).__module__}:{type(game).__qualname__}"
    raise ValueError(f"no registered game has the engine {engine}; register it "
                     "(mediatore_env.registry.register) or pass observation=")


def play(game, agents: Sequence, packs: Callable[[int], Sequence] | None = None,
         seeds: Sequence[int | None] | None = None, observation=None):
    """Play ``game`` (any :class:`~mediatore_env.core.game.Game`) to its end, ``agents[s]``
    choosing for seat ``s``; return the game.

    Whenever the game waits for a pack (``to_move == CHANCE``) it is dealt ``packs(k)``, ``k``
    counting the packs dealt by this call (0, 1, ...), so a duplicate tournament deals the same
    packs in every rotation (a game given its packs when made needs none). Each agent is first
    reset with ``seeds[s]`` (None when no seeds are given). ``observation``: the observation
    writer, by default the game's registered one (:func:`observation_writer`), used only when an
    agent wants observations. An illegal move raises ``ValueError`` naming the agent, the seat
    and the move (the engine's message lists the legal ones), the game left as it was; an
    error an agent raises is raised with a note naming the agent and its seat.
    """
    if packs is not None and not callable(packs):
        raise ValueError("packs is a function: packs(k) -> the k-th pack to deal; give the "
                         "agents' seeds by name: play(game, agents, seeds=[...])")
    if len(agents) != game.players:
        raise ValueError(f"this game needs {game.players} agents, one per seat; "
                         f"got {len(agents)}")
    check_seats(agents, game)
    for s, agent in enumerate(agents):
        reset_agent(agent, None if seeds is None else seeds[s])
    if observation is None and any(map(wants_observation, agents)):
        observation = observation_writer(game)
    dealt = 0
    while not game.is_over:
        seat = game.to_move
        if seat == CHANCE:
            if packs is None:
                raise ValueError("the game waits for a pack and no packs were given")
            game.deal(packs(dealt))
            dealt += 1
            continue
        agent = agents[seat]
        try:
            move = ask(agent, game.view(seat), observation)
        except Exception as e:  # the agent's own error, its traceback kept: say whose it is
            e.add_note(f"raised by agent {agent_name(agent)!r} ({type(agent).__name__}) at "
                       f"seat {seat}")
            raise
        try:
            game.apply(move)  # numpy integers are fine; floats, bools, None are refused
        except ValueError as e:
            raise ValueError(f"agent {agent_name(agent)!r} ({type(agent).__name__}) at seat "
                             f"{seat}: {e}") from None
    return game
