"""What every environment of the package shares: copies that go on with the game
(:class:`CopyableEnv`), for the PettingZoo ones the start of an episode, ``step`` and the
end of an episode (:class:`GameAEC`), and the environment of any registered game from its
definition alone (:class:`GameEnv`, :func:`make_env`).

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
from dataclasses import fields
from functools import partial
from types import ModuleType, SimpleNamespace
from typing import NoReturn

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from ..codec.actions import as_move, illegal_action_message
from ..core.game import CHANCE, Engine
from ..registry import GameDef, get
from .options import dealer_option, packs_option, reset_options, seed_option, unknown_keywords
from .wrappers import ProtectedEnv, wrapped

_INT8 = np.dtype(np.int8)  # a dtype object: numpy resolves np.int8 on every call otherwise

__all__ = ["CopyableEnv", "GameAEC", "GameEnv", "EncodedEnv", "EnvironmentModule", "make_env",
           "environment_module", "dealer_option", "packs_option"]


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

    def __getattr__(self, name: str) -> NoReturn:
        # Reached only when an attribute is missing (never on a step's path). Before the first
        # reset() the episode's attributes (agent_selection, agents, rewards, the views...) do
        # not exist yet, and step(), last() and observe() failed naming an internal one
        # ('raw_env' object has no attribute '_views'); say what is wrong and what to do.
        # env() (ProtectedEnv) refuses those calls before reset() itself, as PettingZoo does.
        # A misspelt name is still named as missing, not said to come with the episode.
        missing = f"{type(self).__name__!r} object has no attribute {name!r}"
        if name.startswith("__") or "agent_selection" in self.__dict__:
            raise AttributeError(missing)
        raise AttributeError(f"{missing}: before reset() there is no episode; call reset() "
                             "before step(), last(), observe() or render()")

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
        return self._of_agent(self.observation_spaces, agent)

    def action_space(self, agent):
        return self._of_agent(self.action_spaces, agent)

    def _of_agent(self, table: dict, agent):
        """``table[agent]``; for an agent that is none of this environment's (a seat number
        given for a name, a typo) a KeyError naming it and the valid names."""
        try:
            return table[agent]
        except KeyError:
            raise KeyError(f"unknown agent {agent!r}; the agents are "
                           + ", ".join(map(repr, self.possible_agents))) from None

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
        self.agent_selection  # noqa: B018 - before reset(): __getattr__'s error, not the game's
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
    """The PettingZoo AEC environment of any registered game, from its definition alone:
    ``GameEnv("toy", low=True)`` or ``GameEnv(definition)``. An episode is one game of the
    definition's engine (its ``unit``: a deal, a game, a session), seat ``i`` is agent
    ``player_i``.

    - ``reset(seed=None, options=None)``: a seed fixes the first dealer and every pack; the
      options ``{"packs": [pack, ...], "dealer": d}`` give the packs of the first hands
      (later ones come from the generator; ``"pack"``: the first hand's alone) and the first
      dealer (a seat or an agent name).
      The generator draws the dealer first, then each pack as the game asks for it
      (``to_move == CHANCE``), as ``rng.permutation(40)``; a bad option raises
      ``ValueError`` and changes nothing.
    - ``observe(agent)``: the definition's writer, ``observation(view)``, on that seat's view
      (made when the game starts; every engine's view is live: it follows the game).
    - rewards: each seat's ``outcome`` when the game ends (0 before), and in ``infos`` too
      (``{"outcome": ...}``).
    - ``render()``: the game's ``display.table_text(view, names=, title=)`` of the seat to
      move (seat 0 at chance and at the end).
    - ``record``: the game's record once it is over, else None.

    A game's own environment is a subclass that changes only what is the game's, through
    these hooks (Tressette's, :mod:`mediatore_env.tressette.env`; Mediatore's,
    :mod:`mediatore_env.mediatore.mediatore_v0`; club's,
    :mod:`mediatore_env.club.club_mediatore_v0`):

    - the constructor's own arguments (:attr:`options`; with ``"rules"`` among them it takes
      ``rules=``, a rules object, a preset name or a dict of switches) and switches
      (:attr:`switches`); the options of ``reset`` (:attr:`reset_options`, :meth:`_packs_of`);
    - ``observe``: :class:`EncodedEnv` observes through incremental encoders instead;
    - :meth:`_rewards` and :meth:`_infos`, asked when a move ends a hand (the game waits for a
      pack) or the game;
    - :meth:`_next_game`: an episode of several games (Mediatore's ``deals``);
    - :meth:`_deal_shuffled`, :meth:`_new_game`, :meth:`_table_text`, :attr:`record`.

    Spaces: the definition's ``moves.count`` actions, and the length of the observation of a
    game dealt from the ordered pack.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "game_v0",
                "is_parallelizable": False, "render_fps": 1}
    #: The constructor's keyword arguments besides the rules switches (for its messages); with
    #: ``"rules"`` among them, ``rules=`` gives the rules to start from.
    options: tuple[str, ...] = ("render_mode",)
    #: The rules switches users may set; None: every switch the definition does not fix.
    switches: tuple[str, ...] | None = None
    #: The keys of ``reset``'s options.
    reset_options: tuple[str, ...] = ("packs", "pack", "dealer")
    #: What each pack of the ``packs`` option deals, in its messages: "one per hand".
    pack_deals: str = "hand"
    #: The names of the game's phases (``game.phase`` indexes them), for the message of a
    #: refused action; None: a game without phases.
    phase_names: tuple[str, ...] | None = None

    def __init__(self, game: str | GameDef, render_mode: str | None = None, **switches):
        super().__init__()
        definition = game if isinstance(game, GameDef) else get(game)
        if type(self).metadata is GameEnv.metadata:
            self.metadata = {**GameEnv.metadata, "name": f"{definition.name}_v0"}
        name = self.metadata["name"]
        rules = switches.pop("rules", None) if "rules" in self.options else None
        valid = self.switches
        if valid is None:
            valid = tuple(f.name for f in fields(definition.rules)
                          if f.name not in definition.fixed)
        unknown = set(switches) - set(valid)
        if unknown:
            raise unknown_keywords(name, unknown, f"{', '.join(self.options)}, illegal_reward "
                                   f"(with env()), and the rules switches {', '.join(valid)}")
        self.rules = definition.make_rules(rules, **switches)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"bad render_mode {render_mode!r}; valid: None, "
                             + ", ".join(map(repr, self.metadata["render_modes"])))
        self.definition = definition
        self.render_mode = render_mode
        agents = [f"player_{seat}" for seat in range(definition.players)]
        self._seats = {agent: seat for seat, agent in enumerate(agents)}
        self._set_spaces(agents, self._observation_size(), definition.moves.count)
        self._rng = np.random.default_rng()  # made now, so that copies share its future
        self.game = None
        self._packs: list = []  # the packs of the options not dealt yet
        # Speed: CPython keeps the attributes of an instance in a table shared with the other
        # instances of its class, read at fixed places, while there are at most 30 of them; one
        # more and every attribute read of every step goes through a dict lookup (about 3% of a
        # step). A game's environment adds its own few: tests/test_universal.py counts them.

    def _observation_size(self) -> int:
        """The length of the observation vector: that of seat 0 in a game of these rules
        dealt from the ordered pack (a game's layout depends on its rules at most)."""
        game = self.definition.new_game(self.rules, 0)
        game.deal(range(40))
        return len(self.definition.observation(game.view(0))["observation"])

    # -- episode ------------------------------------------------------------------------------

    def reset(self, seed=None, options=None):
        packs, dealer = self._read_options(options)  # first: bad options change nothing
        if seed_option(seed) is not None:
            self._rng = np.random.default_rng(seed)
        if dealer is None:
            dealer = int(self._rng.integers(len(self.possible_agents)))
        self._packs = packs
        self._start_game(dealer)
        self._start_episode(self.possible_agents[self.game.to_move])

    def _start_game(self, dealer: int) -> None:
        """The episode's next game (its first at ``reset``), first dealt by ``dealer``, dealt."""
        game = self.definition.new_game(self.rules, dealer)
        self.game = game
        # Bound once per game: a legal move takes the engine's unchecked path straight away.
        self._make = game._apply if isinstance(game, Engine) else game.apply
        self._views = [game.view(seat) for seat in range(len(self.possible_agents))]
        self._legal_at = -1  # len(game.history) when self._legal was listed
        self._new_game()
        self._deal_while_chance()

    def _new_game(self) -> None:
        """A hook: the game of the episode is ``self.game``, new, not dealt yet."""

    def _read_options(self, options):
        options = reset_options(self.metadata["name"], options, self.reset_options)
        return self._packs_of(options), dealer_option(options.get("dealer"), self.possible_agents)

    def _packs_of(self, options: dict) -> list:
        """The packs that ``options`` give, checked (``ValueError`` naming the bad one):
        ``packs``, one per hand in order, or ``pack``, the first hand's alone (Mediatore's one
        deal's), not both."""
        if options.get("pack") is None:
            return packs_option(options.get("packs"), self.pack_deals)
        if options.get("packs") is not None:
            raise ValueError("give packs (a list, one per hand) or pack (the first hand's), "
                             "not both")
        return packs_option([options["pack"]], self.pack_deals)

    def _deal_while_chance(self) -> None:
        """Deal each pack the game asks for: the next of the options, else a shuffled one."""
        game = self.game
        while game.to_move == CHANCE:
            if self._packs:
                game.deal(self._packs.pop(0))
            else:
                self._deal_shuffled(game)

    def _deal_shuffled(self, game) -> None:
        """A hook: deal ``game`` a pack shuffled by the generator."""
        game.deal(self._rng.permutation(40).tolist())

    # -- observations -------------------------------------------------------------------------

    def observe(self, agent):
        return self.definition.observation(self._views[self._of_agent(self._seats, agent)])

    def view(self, agent):
        """The view of ``agent``'s seat: what it knows (live: it follows the game)."""
        return self._views[self._of_agent(self._seats, agent)]

    # -- steps --------------------------------------------------------------------------------

    def _refusal(self, action, agent: str) -> str:
        game = self.game
        phase = None if self.phase_names is None else self.phase_names[game.phase]
        return illegal_action_message(action, agent, phase, game.legal_moves(),
                                      self._num_actions, self.definition.moves.text)

    def play_if_legal(self, move: int) -> bool:
        """Play ``move`` (an id in range) for the agent to act and do the bookkeeping, if it is
        legal; return whether it was. An illegal move changes nothing."""
        game = self.game
        if self._legal_at == len(game.history):  # the mask was just listed: look it up
            if move not in self._legal:
                return False
        elif not game.is_legal(move):
            return False
        agent = self.agent_selection
        self._make(move)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            rewards = self.rewards
            for a in rewards:
                rewards[a] = 0.0
            self._rewarded = False
        to_move = game.to_move
        if to_move is not None and to_move != CHANCE:  # the hand goes on
            self.agent_selection = self.possible_agents[to_move]
        else:
            self._end_hand()
        if self.render_mode == "human":
            self.render()
        return True

    def _end_hand(self) -> None:
        """The move ended a hand (the game waits for a pack) or the game: the rewards, then the
        next hand, the episode's next game, or the end of the episode."""
        for rewards in self._rewards():
            self._give(rewards)
        if self.game.is_over and not self._next_game():
            for a, info in zip(self.possible_agents, self._infos()):
                self.infos[a] = info
            self.terminations = dict.fromkeys(self.agents, True)
            self._deads_step_first()
            return
        self._deal_while_chance()
        self.agent_selection = self.possible_agents[self.game.to_move]

    def _rewards(self) -> list:
        """A hook: the rewards of a move that ended a hand or the game, as a list of per-seat
        sequences (each given in turn): here the outcome once the game is over."""
        return [self.game.outcome] if self.game.is_over else []

    def _next_game(self) -> bool:
        """A hook: the game is over; start the episode's next game (:meth:`_start_game`) and
        return True, or return False: the episode is over (here, always)."""
        return False

    def _infos(self) -> list[dict]:
        """A hook: each seat's ``infos`` once the episode is over."""
        return [{"outcome": outcome} for outcome in self.game.outcome]

    def _give(self, rewards) -> None:
        for agent, reward in zip(self.possible_agents, rewards):
            reward = float(reward)
            self.rewards[agent] += reward
            self._cumulative_rewards[agent] += reward
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
        return self.definition.display.table_text(self._views[seat], names=self.possible_agents,
                                             title=self.metadata["name"])


class EncodedEnv(GameEnv):
    """:class:`GameEnv` observing through one incremental encoder per seat (Mediatore's and
    Tressette's: ``encode(view)`` writes only what changed since its last look, into a buffer
    it returns), which the subclass sets as ``_encoders`` once or in :meth:`_new_game`.
    ``observe`` copies the encoder's vector and writes the mask from the legal moves, listed
    once per position and looked up again by ``step``."""

    def observe(self, agent):
        seat = self._of_agent(self._seats, agent)
        observation = self._encoders[seat].encode(self._views[seat]).copy()
        game = self.game
        if seat != game.to_move:
            return {"observation": observation, "action_mask": np.zeros(self._num_actions, _INT8)}
        moves = len(game.history)
        if self._legal_at != moves:
            self._legal, self._legal_at = game.legal_moves(), moves
        mask = bytearray(self._num_actions)
        for move in self._legal:
            mask[move] = 1
        return {"observation": observation, "action_mask": np.frombuffer(mask, _INT8)}


class EnvironmentModule(ModuleType):
    """An environment module that is no file of its own (a form of a game whose environments
    are written as one module: ``tressette3_v0`` in :mod:`mediatore_env.tressette.env`): to its
    users a module like any other, with ``raw_env``, ``env()`` and ``standard_wrapped_env()``
    made from it (:func:`~.wrappers.wrapped`), its page as ``__doc__`` and whatever else it
    names (``move_text``, ...)."""

    def __init__(self, name: str, raw_env: type, doc: str, **names):
        super().__init__(name, doc)
        self.raw_env = raw_env
        self.env, self.standard_wrapped_env = wrapped(raw_env)
        vars(self).update(names)
        self.__all__ = ["env", "raw_env", "standard_wrapped_env", *names]


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
