"""What every environment of the package shares: copies that go on with the game
(:class:`CopyableEnv`), for the PettingZoo ones the start of an episode, ``step`` and the
end of an episode (:class:`GameAEC`), and the environment of any registered game from its
registry entry alone (:class:`GameEnv`, :func:`make_env`).

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
import warnings
from dataclasses import fields
from functools import partial
from types import SimpleNamespace

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from ..codec.actions import as_move, as_seat, illegal_action_message
from ..core.cards import validate_pack
from ..core.game import CHANCE
from ..registry import GameDef, get
from .wrappers import ProtectedEnv

__all__ = ["CopyableEnv", "GameAEC", "GameEnv", "make_env", "environment_module",
           "dealer_option", "packs_option"]


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


def packs_option(packs) -> list[tuple[int, ...]]:
    """The ``packs`` option of an environment's ``reset``: None (none given) or a list of
    packs, one per hand or deal, each 40 distinct cards (ids or texts such as ``'D3'``), as
    tuples of ids. ``ValueError`` naming the bad pack otherwise."""
    if packs is None:
        return []
    if isinstance(packs, str) or not hasattr(packs, "__len__"):
        raise ValueError(f"bad packs {packs!r} in options: a list of packs, one per hand, "
                         "each 40 distinct cards (ids or texts such as 'D3')")
    checked = []
    for i, pack in enumerate(packs):
        try:
            checked.append(validate_pack(pack))
        except ValueError as e:
            raise ValueError(f"pack {i} in options: {e}") from None
    return checked


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


class GameEnv(GameAEC):
    """The PettingZoo AEC environment of any registered game, from its registry entry alone:
    ``GameEnv("toy", low=True)`` or ``GameEnv(entry)``. An episode is one game of the entry's
    engine (its ``unit``: a deal, a game, a session), seat ``i`` is agent ``player_i``.

    - ``reset(seed=None, options=None)``: a seed fixes the first dealer and every pack; the
      options ``{"packs": [pack, ...], "dealer": d}`` give the packs of the first hands
      (later ones come from the generator) and the first dealer (a seat or an agent name).
      The generator draws the dealer first, then each pack as the game asks for it
      (``to_move == CHANCE``), as ``rng.permutation(40)``; a bad option raises
      ``ValueError`` and changes nothing.
    - ``observe(agent)``: the entry's writer, ``codec.observation(view)``, on that seat's
      view (made at ``reset``; every engine's view is live: it follows the game).
    - rewards: each seat's ``outcome`` when the game ends (0 before), and in ``infos`` too
      (``{"outcome": ...}``).
    - ``render()``: the text module's ``table_text(view, names=, title=)`` of the seat to
      move (seat 0 at chance and at the end).
    - ``record``: the game's record once it is over, else None.

    A game's own environment subclasses it where it needs more (Tressette's hand rewards and
    incremental encoders, :mod:`mediatore_env.tressette.env`) through the hooks
    :meth:`_observation`, :meth:`_rewards` and :meth:`_infos`. Spaces: the entry's
    ``moves.NUM_MOVES`` actions, and the length of the observation of a game dealt from the
    ordered pack.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "game_v0",
                "is_parallelizable": False, "render_fps": 1}
    #: The constructor's keyword arguments besides the rules switches (for its messages).
    options: tuple[str, ...] = ("render_mode",)
    #: The rules switches users may set; None: every switch the entry does not fix.
    switches: tuple[str, ...] | None = None

    def __init__(self, game: str | GameDef, render_mode: str | None = None, **switches):
        super().__init__()
        entry = game if isinstance(game, GameDef) else get(game)
        if type(self).metadata is GameEnv.metadata:
            self.metadata = {**GameEnv.metadata, "name": f"{entry.name}_v0"}
        name = self.metadata["name"]
        valid = self.switches
        if valid is None:
            valid = tuple(f.name for f in fields(entry.rules) if f.name not in entry.fixed)
        unknown = sorted(set(switches) - set(valid))
        if unknown:
            raise TypeError(f"unknown keyword argument(s) {', '.join(map(repr, unknown))} for "
                            f"{name}; valid: {', '.join(self.options)}, and the rules "
                            f"switches {', '.join(valid)}")
        self.rules = entry.make_rules(**switches)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"bad render_mode {render_mode!r}; valid: None, "
                             + ", ".join(map(repr, self.metadata["render_modes"])))
        self.entry = entry
        self.render_mode = render_mode
        # The writer and the moves' text as functions, not modules: copies pickle them.
        self._write = entry.observation
        moves = entry.moves
        self._move_text = moves.text
        agents = tuple(f"player_{seat}" for seat in range(entry.players))
        self._agents = agents
        self._seats = {agent: seat for seat, agent in enumerate(agents)}
        self._set_spaces(agents, self._observation_size(), moves.count)
        self._rng = np.random.default_rng()  # made now, so that copies share its future
        self.game = None
        self._packs: list = []

    def _observation_size(self) -> int:
        """The length of the observation vector: that of seat 0 in a game of these rules
        dealt from the ordered pack (a game's layout depends on its rules at most)."""
        game = self.entry.new_game(self.rules, 0)
        game.deal(range(40))
        return len(self._write(game.view(0))["observation"])

    # -- episode ------------------------------------------------------------------------------

    def reset(self, seed=None, options=None):
        packs, dealer = self._read_options(options)  # first: bad options change nothing
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        if dealer is None:
            dealer = int(self._rng.integers(len(self._agents)))
        self._packs = packs
        self._dealt = 0
        self.game = self.entry.new_game(self.rules, dealer)
        self._views = [self.game.view(seat) for seat in range(len(self._agents))]
        self._new_game()
        self._deal_while_chance()
        self._start_episode(self._agents[self.game.to_move])

    def _new_game(self) -> None:
        """A hook: the game of a new episode is ``self.game``, not dealt yet."""

    def _read_options(self, options):
        name = self.metadata["name"]
        if options is None:
            return [], None
        if not isinstance(options, dict):
            raise ValueError(f"options must be a dict (keys 'packs', 'dealer'), got {options!r}")
        unknown = sorted(set(options) - {"packs", "dealer"}, key=str)
        if unknown:
            warnings.warn(f"{name}.reset: ignoring unknown option(s) "
                          f"{', '.join(map(repr, unknown))}; known: 'packs', 'dealer'",
                          stacklevel=3)
        return packs_option(options.get("packs")), dealer_option(options.get("dealer"),
                                                                 self._agents)

    def _deal_while_chance(self) -> None:
        """Deal each pack the game asks for: the next of the options, else a shuffled one."""
        game = self.game
        while game.to_move == CHANCE:
            given = self._dealt < len(self._packs)
            game.deal(self._packs[self._dealt] if given
                      else self._rng.permutation(40).tolist())
            self._dealt += 1

    # -- observations -------------------------------------------------------------------------

    def observe(self, agent):
        return self._observation(self._seats[agent])

    def _observation(self, seat: int) -> dict:
        """A hook: the observation of ``seat`` (the entry's writer on its view)."""
        return self._write(self._views[seat])

    def view(self, agent):
        """The view of ``agent``'s seat: what it knows (live: it follows the game)."""
        return self._views[self._seats[agent]]

    # -- steps --------------------------------------------------------------------------------

    def _refusal(self, action, agent: str) -> str:
        return illegal_action_message(action, agent, None, self.game.legal_moves(),
                                      self._num_actions, self._move_text)

    def play_if_legal(self, move: int) -> bool:
        """Play ``move`` (an id in range) for the agent to act and do the bookkeeping, if it is
        legal; return whether it was. An illegal move changes nothing."""
        game = self.game
        if not game.is_legal(move):
            return False
        agent = self.agent_selection
        mark = self._progress()
        self._apply(move)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            for a in self.rewards:
                self.rewards[a] = 0.0
            self._rewarded = False
        for rewards in self._rewards(mark):
            self._give(rewards)
        if game.is_over:
            for a, info in zip(self._agents, self._infos()):
                self.infos[a] = info
            self.terminations = dict.fromkeys(self.agents, True)
            self._deads_step_first()
        else:
            self._deal_while_chance()
            self.agent_selection = self._agents[game.to_move]
        if self.render_mode == "human":
            self.render()
        return True

    def _apply(self, move: int) -> None:
        """Make ``move``, known to be legal."""
        self.game.apply(move)

    def _progress(self):
        """A hook: what :meth:`_rewards` compares with after the move (here nothing)."""
        return None

    def _rewards(self, before) -> list:
        """A hook: the rewards the move just made hands out, as a list of per-seat sequences
        (each given in turn): here the outcome once the game is over."""
        return [self.game.outcome] if self.game.is_over else []

    def _infos(self) -> list[dict]:
        """A hook: each seat's ``infos`` once the game is over."""
        return [{"outcome": outcome} for outcome in self.game.outcome]

    def _give(self, rewards) -> None:
        for agent, reward in zip(self._agents, rewards):
            self.rewards[agent] += float(reward)
            self._cumulative_rewards[agent] += float(reward)
        self._rewarded = True

    # -- records, rendering -------------------------------------------------------------------

    @property
    def record(self) -> dict | None:
        """The game's record once the game is over (None before)."""
        game = self.game
        return game.record() if game is not None and game.is_over else None

    def _table_text(self) -> str:
        """The table as text: what the seat to move sees (seat 0 at chance and at the end)."""
        game = self.game
        seat = game.to_move if game.to_move not in (None, CHANCE) else 0
        return self.entry.display.table_text(self._views[seat], names=self._agents,
                                                   title=self.metadata["name"])


def environment_module(game: str | GameDef):
    """The module of a game's main environment (``env()``, ``raw_env``): the first of its
    definition's, or for a game with none of its own the generic :class:`GameEnv` as one."""
    definition = game if isinstance(game, GameDef) else get(game)
    if definition.environments:
        return definition.environments[0].load()
    return SimpleNamespace(env=partial(make_env, definition), raw_env=partial(GameEnv, definition),
                           __name__=f"{definition.name}_v0")


def make_env(game: str | GameDef, illegal_reward: float = -1, **kwargs):
    """:class:`GameEnv` of ``game`` with PettingZoo's protections in one layer
    (:class:`~.wrappers.ProtectedEnv`): an illegal action ends the episode with
    ``illegal_reward`` to the offender. ``make_env("toy", scoring="tricks")``."""
    return ProtectedEnv(GameEnv(game, **kwargs), illegal_reward=illegal_reward)
