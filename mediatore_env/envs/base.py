"""What every environment of the package shares: copies that go on with the game
(:class:`CopyableEnv`), and for the PettingZoo ones the start of an episode, ``step`` and the
end of an episode (:class:`GameAEC`).

Search agents (MCTS over the environment), Ray and population training copy environments in
the middle of a game. An environment of this package copied with ``copy.deepcopy`` or through
``pickle`` at any point (before ``reset``, mid-deal, after the episode ended) is an
independent environment that goes on exactly as the original would: the same observations,
masks, rewards, terminations, infos and game records for the same actions, across later
``reset`` calls too, with or without a seed (the random generator is copied with its state;
each environment makes its generator when it is made, so this holds before the first
``reset`` as well). Stepping the copy leaves the original as it was. tests/test_copy.py checks
it for every environment.

Why this needs saying at all: Gymnasium's ``EzPickle``, which PettingZoo's own environments
use, pickles an environment as its constructor arguments, so a copy comes back as a new
environment with no game in it; and the observation encoders keep memoryviews into their
buffers, which cannot be pickled (:class:`~mediatore_env.mediatore.observation.Encoder` copies
its state without them and makes them again).
"""

from __future__ import annotations

import copy

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from ..codec.actions import as_move, as_seat

__all__ = ["CopyableEnv", "GameAEC", "dealer_option"]


def dealer_option(dealer, agents) -> int | None:
    """The ``dealer`` option of an environment's ``reset``: None (not given), a seat (0 to one
    less than the number of ``agents``) or the name of an agent of ``agents``, as a seat.
    ``ValueError`` for anything else."""
    if isinstance(dealer, str) and dealer in agents:
        return list(agents).index(dealer)
    if dealer is None:
        return None
    try:
        seat = as_seat(dealer, "dealer")
    except ValueError:
        seat = None
    if seat is None or seat >= len(agents):
        raise ValueError(f"bad dealer {dealer!r} in options; valid: "
                         + ", ".join(map(str, range(len(agents)))) + " or an agent name")
    return seat


class CopyableEnv:
    """Mixin: ``copy.deepcopy`` and ``pickle`` copy the whole state, game included (see the
    module docstring), never the constructor arguments as ``EzPickle`` would (listed before an
    ``EzPickle`` base, it wins over it too).

    ``shared_on_copy`` names attributes holding read-only data that ``copy.deepcopy`` shares
    between the original and the copy instead of copying (a contract table of thousands of
    deals, say); ``pickle`` writes them out like everything else. Nothing here runs per step.
    """

    #: attributes of read-only data that a deepcopy shares instead of copying
    shared_on_copy: tuple[str, ...] = ()

    def __getstate__(self) -> dict:
        return self.__dict__.copy()

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    def __deepcopy__(self, memo: dict):
        for name in self.shared_on_copy:
            value = self.__dict__.get(name)
            if value is not None:
                memo[id(value)] = value  # deepcopy then takes it as already copied: itself
        cls = type(self)
        new = cls.__new__(cls)
        memo[id(self)] = new
        new.__setstate__(copy.deepcopy(self.__getstate__(), memo))
        return new


class GameAEC(CopyableEnv, AECEnv):
    """The base of the package's PettingZoo environments: copies (:class:`CopyableEnv`), the
    start of an episode, ``step``, and what happens once the episode is over.

    PettingZoo's AEC loop ends when every agent is done: each has taken its final ``step(None)``
    and left ``agents``, which is then empty, and with it the ``rewards``, ``terminations``,
    ``truncations``, ``infos`` and ``_cumulative_rewards`` entries (``AECEnv._was_dead_step``).
    Then, in the raw environment as in ``env()``:

    - ``step(action)`` warns as PettingZoo's ``OrderEnforcingWrapper`` does ("step() called
      after all agents are terminated or truncated. Should reset() first.") and changes
      nothing;
    - ``last()`` raises ``RuntimeError`` saying the episode is over: there is no agent left to
      report on (the final rewards were handed out by ``last()`` before each agent's last
      step; ``observe(agent)`` still gives any agent's final observation).

    ``step`` is written here once: a subclass starts each episode with :meth:`_start_episode`
    and supplies ``play_if_legal(move) -> bool`` (play an action id in range for the agent to
    act if it is legal, with the bookkeeping; an illegal one changes nothing) and
    ``_refusal(action, agent) -> str`` (the ``ValueError`` message for an action refused).
    """

    def _set_spaces(self, agents, observation_size: int, num_actions: int) -> None:
        """The agents, and for each the same spaces: ``{"observation": Box(0, 1,
        (observation_size,), float32), "action_mask": Box(0, 1, (num_actions,), int8)}`` and
        ``Discrete(num_actions)`` (the game's move ids)."""
        self.possible_agents = list(agents)
        observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
        })
        action_space = spaces.Discrete(num_actions)
        self.observation_spaces = dict.fromkeys(agents, observation_space)
        self.action_spaces = dict.fromkeys(agents, action_space)
        self._num_actions = num_actions

    def _start_episode(self, first: str) -> None:
        """Every agent in play, no rewards yet, nothing done, ``first`` to act."""
        agents = self.possible_agents
        self.agents = list(agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {agent: {} for agent in agents}
        self._rewarded = False  # whether self.rewards holds rewards handed out by the last step
        self._skip_agent_selection = None
        self.agent_selection = first

    def step(self, action):
        """Play ``action`` for the agent to act. An illegal action raises ``ValueError``
        naming it and the legal ones, and changes nothing; once the agent is done, its final
        ``step(None)``; once every agent is, PettingZoo's warning."""
        agent = self.agent_selection
        try:
            done = self.terminations[agent] or self.truncations[agent]
        except KeyError:  # every agent is done and gone
            return self._step_after_end()
        if done:
            return self._was_dead_step(action)
        try:
            move = as_move(action, self._num_actions)
        except ValueError:  # not an action id: the message says why
            move = None
        if move is None or not self.play_if_legal(move):
            raise ValueError(self._refusal(action, agent))

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def last(self, observe: bool = True):
        agent = self.agent_selection
        try:
            reward, terminated = self._cumulative_rewards[agent], self.terminations[agent]
            truncated, info = self.truncations[agent], self.infos[agent]
        except KeyError:
            if self.agents:
                raise
            raise RuntimeError(self._over_message("last()")) from None
        return (self.observe(agent) if observe else None, reward, terminated, truncated, info)

    def render(self):
        """The table as text (the subclass's ``_table_text()``): returned with
        ``render_mode="ansi"``, printed with ``"human"``; without a render mode, gymnasium's
        warning and None."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = self._table_text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self):
        pass

    def _step_after_end(self) -> None:
        """``step()`` once every agent is done: PettingZoo's warning, nothing else."""
        if self.agents:  # not the end: a bookkeeping error, not to be hidden
            raise KeyError(self.agent_selection)
        EnvLogger.warn_step_after_terminated_truncated()

    def _over_message(self, call: str) -> str:
        return (f"{self.metadata['name']}: the episode is over (every agent is done and "
                f"agents is empty), so {call} has no agent to report on; call reset() to start "
                "another (observe(agent) still gives an agent's final observation)")
