"""One seat of any game of the registry as a single-agent ``gymnasium.Env``, the other seats
played by agents.

For training with single-agent libraries (Stable-Baselines3, sb3-contrib's ``MaskablePPO``):
the learner sits in one seat, fixed or drawn each episode; the other seats are played by
agents you give (any agent of :mod:`mediatore_env.core.agent`: the project's or your own);
one episode is the game's (a deal, a game to 31, a session). ::

    >>> from agents import make_agent
    >>> env = SeatEnv("tressette2", make_agent("greedy", "tressette2"), seat=0)
    >>> obs, info = env.reset(seed=7)
    >>> obs.shape, env.action_masks().shape, env.action_masks().dtype
    ((2890,), (41,), dtype('bool'))
    >>> while True:
    ...     action = int(env.action_masks().nonzero()[0][0])   # any legal move
    ...     obs, reward, terminated, truncated, info = env.step(action)
    ...     if terminated:
    ...         break
    >>> reward == info["outcome"][0]
    True

=================  ===========================================================================
Observation        ``Box(lo, hi, (size,), float32)``: the learner's observation from the game's
                   observation writer (its registry entry's ``observation``), as in its
                   PettingZoo environment
Action             ``Discrete(moves)``: the game's move ids (its ``moves`` module)
Mask               ``env.action_masks()``: bool ``(moves,)``, True for the legal moves (the
                   method sb3-contrib's ``MaskablePPO`` calls); the same array is
                   ``info["action_mask"]`` after every ``reset`` and ``step``
Reward             0 until the episode ends, then the learner's outcome (the game's ``outcome``)
                   times the reward scale
Episode            the game's unit; ``terminated`` when it ends, never ``truncated``
=================  ===========================================================================

**Turns.** The opponents' moves (and the packs of a game of several hands, drawn from the
environment's generator) are played inside :meth:`~SeatEnv.reset` and :meth:`~SeatEnv.step`,
until the learner is to move or the episode is over, so every observation the learner gets
asks it for a move, except the last one; a ``step`` after which the others play the episode to
its end returns ``terminated=True`` with the learner's outcome.

**Arguments** of ``SeatEnv(game, opponents, seat=None, rules=None, ...)``:

- ``game``: a registered game's name (``"tressette3"``) or definition.
- ``opponents``: one agent per other seat, for the seats after the learner's in playing order;
  or one agent, copied into each; or a function ``opponents(np_random) -> agents``, called at
  every reset with the env's random generator (a mix of opponents, a pool of past versions).
  The agents are reset before each episode with seeds drawn from that generator, so
  ``reset(seed=s)`` replays the same episode. An agent written for another game's views is
  refused (:func:`mediatore_env.core.agent.check_seats`).
- ``seat``: the learner's seat, or None to draw it each episode.
- ``rules``: the game's rules (a rules object, a preset name or a dict of switches);
  ``**switches`` add rules switches on top (``low=True``).
- ``normalize_rewards``: count outcomes in the game's reward unit (its definition's
  ``reward_unit_of``: the largest outcome possible under the rules, so that rewards lie in
  [-1, 1]; club Mediatore's first pot, which a session may win many times over);
  ``reward_scale`` multiplies on top (default 1).
- ``illegal_reward``: an illegal action ends the episode with this reward (default: minus the
  largest outcome, in the env's reward units: worse than any episode) and
  ``info["illegal_action"]``; ``strict=True`` raises ``ValueError`` instead. An action that is
  no action id at all (a float, a bool, None, a string, an integer out of range) raises
  ``ValueError`` in either mode and changes nothing (:func:`mediatore_env.codec.actions.as_move`).
- ``skip_forced``: play the learner's moves that have no alternative without asking it.
- ``render_mode``: None or ``"ansi"`` (the learner's table as text).

``reset(seed=None, options=None)``: the seed fixes the seat (when drawn), the first dealer, the
packs, the opponents and their seeds. ``options`` may give ``{"packs": [[...40 cards...],
...], "dealer": d, "seat": s}`` (or ``"pack"``: the first alone) to replay given hands; a
hand past the packs given is drawn from the generator.

**Copies.** ``copy.deepcopy(env)`` and ``pickle`` copy the environment at any point and the
copy goes on exactly as the original would (:mod:`mediatore_env.envs.base`).

``info`` holds ``"action_mask"``, ``"seat"``, ``"dealer"`` (of the hand on the table); at the
end also ``"outcome"`` (every seat's, unscaled). ``env.game`` is the engine, ``env.view`` the
learner's view. Mediatore's own, with its payments and contract in ``info``, is
:class:`~mediatore_env.mediatore.single_seat.MediatoreSeatEnv`.
"""

from __future__ import annotations

import copy
import inspect

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from ..codec.actions import action_mask, as_move, as_seat
from ..core.agent import agent_name, ask, check_seats, is_agent, reset_agent
from ..core.game import CHANCE
from ..registry import GameDef, get
from .base import CopyableEnv
from .options import (flag_option, number_option, options_dict, packs_option, seed_option,
                      unknown_keywords)

__all__ = ["SeatEnv"]


class SeatEnv(CopyableEnv, gymnasium.Env):
    """One seat of a table of any registered game as a single-agent environment (see the
    module docstring). A subclass for one game may write its observation its own way
    (:meth:`_observe`) and add to the end's ``info`` (:meth:`_end_info`)."""

    metadata = {"render_modes": ["ansi"], "name": "seat_v0"}
    #: reset's options (``pack``: the first of ``packs`` alone)
    OPTIONS = ("packs", "pack", "dealer", "seat")

    def __init__(self, game: str | GameDef, opponents, seat: int | None = None, rules=None, *,
                 normalize_rewards: bool = False, reward_scale: float = 1.0,
                 illegal_reward: float | None = None, strict: bool = False,
                 skip_forced: bool = False, render_mode: str | None = None, **switches):
        self.definition = definition = game if isinstance(game, GameDef) else get(game)
        self.rules = self._make_rules(rules, switches)
        self.players = definition.players
        self.moves = definition.moves.count
        self.set_opponents(opponents)  # self.opponents, or self._draw_opponents to call
        self.fixed_seat = None if seat is None else as_seat(seat, players=self.players)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"bad render_mode {render_mode!r}; valid: None, 'ansi'")
        self.render_mode = render_mode
        scale = number_option("reward_scale", reward_scale)
        if flag_option("normalize_rewards", normalize_rewards):
            scale /= definition.reward_unit_of(self.rules)
        self.reward_scale = scale
        self.illegal_reward = (-self._largest_outcome() * scale if illegal_reward is None
                               else number_option("illegal_reward", illegal_reward))
        self.strict = flag_option("strict", strict)
        self.skip_forced = flag_option("skip_forced", skip_forced)
        self.observation_space = self._observation_space()
        self.action_space = spaces.Discrete(self.moves)
        self.game = None
        self.view = None
        self.seat: int | None = None
        self._seated: list = [None] * self.players
        self._views: list = [None] * self.players
        self._packs: list = []  # the packs given to reset, for the hands they deal
        self._done = True
        # Gymnasium makes the unseeded generator at the first reset(seed=None); made now, a
        # copy taken before that reset goes on as the original does.
        self._np_random, self._np_random_seed = seeding.np_random()

    # -- what a game's own seat environment may write otherwise ------------------------------

    def _make_rules(self, rules, switches: dict):
        known = [f.name for f in self.definition.rules.__dataclass_fields__.values()
                 if f.name not in self.definition.fixed]
        unknown = set(switches) - set(known)
        if unknown:
            named = [p.name for p in inspect.signature(type(self)).parameters.values()
                     if p.kind is not p.VAR_KEYWORD]
            raise unknown_keywords(type(self).__name__, unknown, ", ".join(named + known))
        return self.definition.make_rules(rules, **switches)

    def _largest_outcome(self) -> float:
        """The largest outcome (in absolute value) a seat can have under the rules."""
        limits = self.definition.limits(self.rules)
        return float(max(abs(limits.min_utility), abs(limits.max_utility)))

    def _observation_space(self) -> spaces.Box:
        """The space of the game's PettingZoo observation: values in [0, 1]."""
        sample = self.definition.observation(self.definition.new_game(self.rules).view(0))
        return spaces.Box(0.0, 1.0, (len(sample["observation"]),), np.float32)

    def _observe(self, view) -> np.ndarray:
        """The observation of ``view``'s seat (a copy the caller may keep)."""
        return np.array(self.definition.observation(view)["observation"], np.float32)

    def _end_info(self) -> dict:
        return {"outcome": tuple(self.game.outcome)}

    # -- opponents ---------------------------------------------------------------------------

    def _check_opponents(self, opponents) -> list:
        others = ("one", "two", "three")[self.players - 2]  # the family's tables: 2 to 4 seats
        count = self.players - 1
        if isinstance(opponents, str) or (isinstance(opponents, (list, tuple))
                                          and any(isinstance(a, str) for a in opponents)):
            raise ValueError(f"opponents must be agents, not names (got {opponents!r}): make them "
                             f"with agents.make_agent('greedy', game), one or {others}")
        try:
            opponents = list(opponents)
        except TypeError:
            raise ValueError(f"opponents must be an agent, {others} agents or a function of the "
                             f"random generator returning {others} agents; got "
                             f"{opponents!r}") from None
        if len(opponents) != count or not all(map(is_agent, opponents)):
            raise ValueError(f"opponents must be {others} agents (objects with an act method), "
                             f"one per seat after the learner's; got {opponents!r}")
        if len({id(a) for a in opponents}) != count:
            raise ValueError(f"the {others} opponents must be distinct objects (an agent may keep "
                             "state for its seat); pass one agent to have it copied")
        # seats 1..: after the learner's, whose views the check reads
        check_seats([None, *opponents], self.definition.new_game(self.rules))
        return opponents

    def set_opponents(self, opponents) -> None:
        """Change the opponents from the next episode on (same forms as the constructor's
        argument). Reachable through ``VecEnv.env_method("set_opponents", ...)``."""
        if is_agent(opponents):
            opponents = [opponents] + [copy.deepcopy(opponents) for _ in range(self.players - 2)]
        if callable(opponents):
            self._draw_opponents, self.opponents = opponents, None
        else:
            self.opponents, self._draw_opponents = self._check_opponents(opponents), None

    # -- gymnasium API ------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        options = options_dict(options, self.OPTIONS)
        unknown = set(options) - set(self.OPTIONS)
        if unknown:  # no wrapper passes options of its own to a single-agent env: a typo
            raise ValueError(f"unknown reset options {sorted(unknown)}; valid: "
                             + ", ".join(self.OPTIONS))
        # Every option and the seed checked before the generator is touched: a bad reset
        # changes nothing.
        n = self.players
        given_seat = as_seat(options["seat"], players=n) if "seat" in options else None
        given_dealer = as_seat(options["dealer"], "dealer", n) if "dealer" in options else None
        packs = self._packs_of(options)
        super().reset(seed=seed_option(seed))
        rng = self.np_random
        if given_seat is not None:
            seat = given_seat
        elif self.fixed_seat is not None:
            seat = self.fixed_seat
        else:
            seat = int(rng.integers(n))
        dealer = given_dealer if given_dealer is not None else int(rng.integers(n))
        if not packs:  # the first drawn here, the others as their hands come
            packs = [rng.permutation(40).tolist()]
        if self._draw_opponents is not None:
            opponents = self._check_opponents(self._draw_opponents(rng))
        else:
            opponents = self.opponents
        seeds = rng.integers(0, 2 ** 63, size=n - 1).tolist()

        self.seat, self._packs = seat, packs
        self.game = game = self._new_game(dealer)
        self._views = [game.view(s) for s in range(n)]
        self.view = self._views[seat]
        self._seated = [None] * n
        for k, agent in enumerate(opponents):
            self._seated[(seat + 1 + k) % n] = agent
            reset_agent(agent, seeds[k])
        self._done = False
        self._play_others()
        self._done = game.is_over
        return self._observation(), self._info()

    def _packs_of(self, options: dict) -> list:
        if "pack" in options and "packs" in options:
            raise ValueError("give packs (one per hand, in order) or pack (the first), not both")
        if "pack" in options:
            return packs_option([options["pack"]])
        return packs_option(options["packs"]) if "packs" in options else []

    def _new_game(self, dealer: int):
        """A game of the rules, first dealt by ``dealer``, waiting for its first pack."""
        return self.definition.new_game(self.rules, dealer)

    def step(self, action):
        game = self.game
        if game is None:
            raise RuntimeError("step() before reset(): call reset() first")
        if self._done:
            raise RuntimeError("the episode is over (terminated); call reset()")
        move = as_move(action, self.moves)  # not an action id: ValueError, and nothing changes
        if not game.is_legal(move):
            if self.strict:
                game.apply(move)  # raises the engine's message
            self._done = True
            info = self._info()
            info["illegal_action"] = move
            return self._observation(), float(self.illegal_reward), True, False, info
        game.apply(move)
        self._play_others()
        reward = 0.0
        if game.is_over:
            self._done = True
            reward = float(game.outcome[self.seat]) * self.reward_scale
        return self._observation(), reward, self._done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Bool mask of the learner's legal moves now; all False once the episode is over.
        sb3-contrib's ``MaskablePPO`` calls this method."""
        mask = np.zeros(self.moves, bool)
        if not self._done and self.game is not None:
            mask[self.game.legal_moves()] = True
        return mask

    def render(self):
        if self.render_mode == "ansi" and self.game is not None:
            return self.definition.display.table_text(self.view, title=self.metadata["name"])
        return None

    # -- internals ----------------------------------------------------------------------------

    def _play_others(self) -> None:
        """Deal the packs the game waits for and play the opponents' moves (and the learner's
        forced ones when ``skip_forced``) until the learner has a choice or the game is over."""
        game, me = self.game, self.seat
        while not game.is_over:
            seat = game.to_move
            if seat == CHANCE:
                given = self._packs
                dealt = len(game.packs)
                game.deal(given[dealt] if dealt < len(given)
                          else self.np_random.permutation(40).tolist())
                continue
            if seat == me:
                if not self.skip_forced:
                    return
                legal = game.legal_moves()
                if len(legal) > 1:
                    return
                game.apply(legal[0])
                continue
            agent = self._seated[seat]
            move = ask(agent, self._views[seat], self._seat_observation)
            try:
                game.apply(as_move(move, self.moves))
            except ValueError as e:
                raise ValueError(f"opponent {agent_name(agent)!r} ({type(agent).__name__}) at "
                                 f"seat {seat} played {move!r}: {e}") from None

    def _seat_observation(self, view) -> dict:
        """What the environment would observe for ``view``'s seat (an opponent's)."""
        return {"observation": self._observe(view), "action_mask": action_mask(view, self.moves)}

    def _observation(self) -> np.ndarray:
        return self._observe(self.view)

    def _info(self) -> dict:
        game = self.game
        info = {"action_mask": self.action_masks(), "seat": self.seat, "dealer": game.dealer}
        if game.is_over:
            info.update(self._end_info())
        return info
