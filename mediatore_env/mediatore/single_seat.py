"""One seat of Mediatore as a single-agent ``gymnasium.Env``, the other three played by agents.

For training with single-agent libraries (Stable-Baselines3, sb3-contrib's ``MaskablePPO``):
the learner sits in one seat, fixed or drawn each episode; the three other seats are played by
agents you give (any :class:`agents.base.Agent`: the project's or your own); one episode is
one deal. ::

    >>> from agents import GreedyAgent, RandomAgent
    >>> env = MediatoreSeatEnv([GreedyAgent(), GreedyAgent(), RandomAgent()], seat=0)
    >>> obs, info = env.reset(seed=7)
    >>> obs.shape, env.action_masks().shape, env.action_masks().dtype
    ((2132,), (486,), dtype('bool'))
    >>> while True:
    ...     action = int(env.action_masks().nonzero()[0][0])   # any legal move
    ...     obs, reward, terminated, truncated, info = env.step(action)
    ...     if terminated:
    ...         break
    >>> reward == info["payoffs"][0]
    True

=================  ===========================================================================
Observation        ``Box(0, 1, (2132,), float32)``: the learner's seat observation vector of
                   :mod:`mediatore_env.mediatore.observation` (seat-relative), as in the PettingZoo env
Action             ``Discrete(486)``: the engine's move ids (:mod:`mediatore_env.mediatore.moves`)
Mask               ``env.action_masks()``: bool ``(486,)``, True for the legal moves (the
                   method sb3-contrib's ``MaskablePPO`` calls); the same array is
                   ``info["action_mask"]`` after every ``reset`` and ``step``
Reward             0 until the deal ends, then the learner's payment for the deal (docs/rules.md 7)
                   times the reward scale; 0 for a thrown-in deal
Episode            one deal; ``terminated`` when it ends, never ``truncated``
=================  ===========================================================================

**Turns.** The opponents' moves are played inside :meth:`~MediatoreSeatEnv.reset` and
:meth:`~MediatoreSeatEnv.step`, until the learner is to move or the deal is over, so every
observation the learner gets asks it for a move, except the last one. The learner always
speaks in the auction (the first four calls go round the table), so ``reset`` never returns a
finished deal.

**The reward reaches the learner however the deal ends.** When the learner's move is not the
last of the deal, the opponents play on to the end within the same ``step``, which returns
``terminated=True`` with the learner's payment. (PettingZoo's SB3 tutorial wrapper returns
``last()`` of whichever agent moves next, which is not always the learner.)

**Arguments** of ``MediatoreSeatEnv(opponents, seat=None, rules=None, ...)``:

- ``opponents``: three agents, for the seats after the learner's in playing order (its right,
  across, its left); or one agent, copied into the three seats; or a function
  ``opponents(np_random) -> three agents``, called at every reset with the env's random
  generator (a mix of opponents, a pool of past versions). The agents are reset before each
  deal with seeds drawn from that generator, so ``reset(seed=s)`` replays the same episode.
- ``seat``: the learner's seat 0..3, or None to draw it each episode.
- ``rules``: a :class:`~mediatore_env.mediatore.rules.Rules`, a preset name or a dict of switches;
  ``**switches`` add rules switches on top (``signals="off"``).
- ``normalize_rewards``: divide payments by the largest payment possible under the rules
  (60 units in the standard game), so rewards lie in [-1, 1]; ``reward_scale`` multiplies on
  top (default 1).
- ``illegal_reward``: an illegal action ends the episode with this reward (default: minus the
  largest payment, in the env's reward units: worse than any deal) and ``info["illegal_action"]``;
  ``strict=True`` raises ``ValueError`` instead. Masked policies never play one. An action
  that is no action id at all (a float, even ``1.0``, a bool, None, a string, an integer out of
  ``0..485``) raises ``ValueError`` in either mode and changes nothing
  (:func:`mediatore_env.codec.actions.as_move`); integers, numpy integers and 0-d or 1-element
  integer arrays are actions.
- ``skip_forced``: play the learner's moves that have no alternative (a single legal move: the
  forced passes after the top bid, the last card) without asking it.
- ``render_mode``: None or ``"ansi"`` (the learner's observation as text).

``reset(seed=None, options=None)``: the seed fixes the seat (when drawn), the dealer, the pack,
the opponents and their seeds. ``options`` may give ``{"pack": [...40 cards...], "dealer":
0..3, "seat": 0..3}`` to replay a given deal.

**Copies.** ``copy.deepcopy(env)`` and ``pickle`` copy the environment at any point, the
opponents with their random generators and the env's own included, and the copy goes on
exactly as the original would for the same actions, across later resets too
(:mod:`mediatore_env.envs.base`). An ``opponents`` function must be picklable (a module-level
function, not a lambda) for the environment to pickle.

``info`` holds ``"action_mask"``, ``"seat"``, ``"dealer"``; at the end also ``"payoffs"`` (the
four seats' payments in units, unscaled), ``"contract"`` (None when thrown in) and
``"declarer"``. ``env.deal`` is the engine's :class:`~mediatore_env.mediatore.game.Deal`, ``env.view``
the learner's :class:`~mediatore_env.mediatore.view.SeatView`.
"""

from __future__ import annotations

import copy
import inspect

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from ..codec.actions import as_move, as_seat
from .observation import OBSERVATION_SIZE, Encoder, action_mask, observation_text
from ..core.agent import agent_name, ask, check_seats, is_agent, reset_agent
from ..core.cards import validate_pack
from .game import Deal
from .moves import NUM_MOVES
from .rules import SWITCHES, Rules, max_payment
from ..envs.base import CopyableEnv
from ..envs.options import flag_option, number_option, seed_option, unknown_keywords

__all__ = ["MediatoreSeatEnv"]


def _make_rules(rules, switches: dict) -> Rules:
    unknown = set(switches) - set(SWITCHES)
    if unknown:
        named = [p.name for p in inspect.signature(MediatoreSeatEnv).parameters.values()
                 if p.kind is not p.VAR_KEYWORD]
        raise unknown_keywords("MediatoreSeatEnv", unknown, ", ".join(named + list(SWITCHES)))
    return Rules.coerce(rules, **switches)


class MediatoreSeatEnv(CopyableEnv, gymnasium.Env):
    """One seat of a Mediatore table as a single-agent environment (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "mediatore_seat_v0"}

    def __init__(self, opponents, seat: int | None = None, rules=None, *,
                 normalize_rewards: bool = False, reward_scale: float = 1.0,
                 illegal_reward: float | None = None, strict: bool = False,
                 skip_forced: bool = False, render_mode: str | None = None, **switches):
        self.rules = _make_rules(rules, switches)
        if is_agent(opponents):
            opponents = [opponents] + [copy.deepcopy(opponents) for _ in range(2)]
        if callable(opponents):
            self._draw_opponents, fixed = opponents, None
        else:
            fixed = self._check_opponents(opponents)
            self._draw_opponents = None
        self.opponents: list | None = fixed
        self.fixed_seat = None if seat is None else as_seat(seat)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"bad render_mode {render_mode!r}; valid: None, 'ansi'")
        self.render_mode = render_mode
        scale = number_option("reward_scale", reward_scale)
        if flag_option("normalize_rewards", normalize_rewards):
            scale /= max_payment(self.rules)
        self.reward_scale = scale
        self.illegal_reward = (-max_payment(self.rules) * scale if illegal_reward is None
                               else number_option("illegal_reward", illegal_reward))
        self.strict = flag_option("strict", strict)
        self.skip_forced = flag_option("skip_forced", skip_forced)
        self.observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
        self.action_space = spaces.Discrete(NUM_MOVES)
        self.deal: Deal | None = None
        self.view = None
        self.seat: int | None = None
        self._seated: list = [None] * 4
        self._encoders = [Encoder() for _ in range(4)]
        self._views = [None] * 4
        self._done = True
        # Gymnasium makes the unseeded generator at the first reset(seed=None); made now, a
        # copy taken before that reset goes on as the original does.
        self._np_random, self._np_random_seed = seeding.np_random()

    def _check_opponents(self, opponents) -> list:
        if isinstance(opponents, str) or (isinstance(opponents, (list, tuple))
                                          and any(isinstance(a, str) for a in opponents)):
            raise ValueError(f"opponents must be agents, not names (got {opponents!r}): make them "
                             f"with agents.make_agent('greedy'), one or three")
        try:
            opponents = list(opponents)
        except TypeError:
            raise ValueError(f"opponents must be an agent, three agents or a function of the "
                             f"random generator returning three agents; got {opponents!r}") from None
        if len(opponents) != 3 or not all(map(is_agent, opponents)):
            raise ValueError(f"opponents must be three agents (objects with an act method), one "
                             f"per seat after the learner's; got {opponents!r}")
        if len({id(a) for a in opponents}) != 3:
            raise ValueError("the three opponents must be distinct objects (an agent may keep "
                             "state for its seat); pass one agent to have it copied")
        check_seats([None, *opponents], Deal(self.rules, 0))  # seats 1-3: after the learner's
        return opponents

    def set_opponents(self, opponents) -> None:
        """Change the opponents from the next episode on (same forms as the constructor's
        argument). Reachable through ``VecEnv.env_method("set_opponents", ...)``."""
        if is_agent(opponents):
            opponents = [opponents] + [copy.deepcopy(opponents) for _ in range(2)]
        if callable(opponents):
            self._draw_opponents, self.opponents = opponents, None
        else:
            self.opponents, self._draw_opponents = self._check_opponents(opponents), None

    # -- gymnasium API ------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        options = dict(options or {})
        unknown = set(options) - {"pack", "dealer", "seat"}
        if unknown:
            raise ValueError(f"unknown reset options {sorted(unknown)}; valid: pack, dealer, seat")
        # Every option and the seed checked before the generator is touched: a bad reset
        # changes nothing.
        given_seat = as_seat(options["seat"]) if "seat" in options else None
        given_dealer = as_seat(options["dealer"], "dealer") if "dealer" in options else None
        given_pack = validate_pack(options["pack"]) if "pack" in options else None
        super().reset(seed=seed_option(seed))
        rng = self.np_random
        if given_seat is not None:
            seat = given_seat
        elif self.fixed_seat is not None:
            seat = self.fixed_seat
        else:
            seat = int(rng.integers(4))
        dealer = given_dealer if given_dealer is not None else int(rng.integers(4))
        pack = given_pack if given_pack is not None else rng.permutation(40).tolist()
        if self._draw_opponents is not None:
            opponents = self._check_opponents(self._draw_opponents(rng))
        else:
            opponents = self.opponents
        seeds = rng.integers(0, 2 ** 63, size=3).tolist()

        self.seat = seat
        self.deal = deal = Deal(self.rules, dealer, pack)
        self._views = [deal.view(s) for s in range(4)]
        self.view = self._views[seat]
        self._seated = [None] * 4
        for k, agent in enumerate(opponents):
            s = (seat + 1 + k) % 4
            self._seated[s] = agent
            reset_agent(agent, seeds[k])
        self._done = False
        self._play_others()
        self._done = deal.is_over  # never, under the rules: the learner speaks in the auction
        return self._observation(), self._info()

    def step(self, action):
        deal = self.deal
        if deal is None:
            raise RuntimeError("step() before reset(): call reset() first")
        if self._done:
            raise RuntimeError("the episode is over (terminated); call reset()")
        move = as_move(action, NUM_MOVES)  # not an action id: ValueError, and nothing changes
        if not deal.is_legal(move):
            if self.strict:
                deal.apply(move)  # raises the engine's message
            self._done = True
            info = self._info()
            info["illegal_action"] = move
            return self._observation(), float(self.illegal_reward), True, False, info
        deal.apply(move)
        self._play_others()
        reward = 0.0
        if deal.is_over:
            self._done = True
            reward = float(deal.payoffs[self.seat]) * self.reward_scale
        return self._observation(), reward, self._done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Bool mask of the learner's legal moves now, shape (486,); all False once the
        episode is over. sb3-contrib's ``MaskablePPO`` calls this method."""
        mask = np.zeros(NUM_MOVES, bool)
        if not self._done and self.deal is not None:
            mask[self.deal.legal_moves()] = True
        return mask

    def render(self):
        if self.render_mode == "ansi" and self.deal is not None:
            return observation_text(self._encoders[self.seat].encode(self.view))
        return None

    # -- internals ----------------------------------------------------------------------------

    def _play_others(self) -> None:
        """Play the opponents' moves (and the learner's forced ones when ``skip_forced``)
        until the learner has a choice to make or the deal is over."""
        deal, me = self.deal, self.seat
        while not deal.is_over:
            seat = deal.to_move
            if seat == me:
                if not self.skip_forced:
                    return
                legal = deal.legal_moves()
                if len(legal) > 1:
                    return
                deal.apply(legal[0])
                continue
            agent = self._seated[seat]
            move = ask(agent, self._views[seat], self._seat_observation)
            try:
                deal.apply(as_move(move, NUM_MOVES))
            except ValueError as e:
                raise ValueError(f"opponent {agent_name(agent)!r} "
                                 f"({type(agent).__name__}) at seat {seat} played "
                                 f"{move!r}: {e}") from None

    def _seat_observation(self, view) -> dict:
        """What the environment would observe for ``view``'s seat (an opponent's)."""
        return {"observation": self._encoders[view.seat].encode(view).copy(),
                "action_mask": action_mask(view)}

    def _observation(self) -> np.ndarray:
        return self._encoders[self.seat].encode(self.view).copy()

    def _info(self) -> dict:
        deal = self.deal
        info = {"action_mask": self.action_masks(), "seat": self.seat, "dealer": deal.dealer}
        if deal.is_over:
            info["payoffs"] = tuple(deal.payoffs)
            info["contract"] = deal.contract
            info["declarer"] = deal.declarer
        return info
