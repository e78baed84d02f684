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

It is :class:`mediatore_env.envs.seat.SeatEnv`, one seat of any game, for Mediatore.

**Copies.** ``copy.deepcopy(env)`` and ``pickle`` copy the environment at any point, the
opponents with their random generators and the env's own included, and the copy goes on
exactly as the original would for the same actions, across later resets too
(:mod:`mediatore_env.envs.base`). An ``opponents`` function must be picklable (a module-level
function, not a lambda) for the environment to pickle.

``info`` holds ``"action_mask"``, ``"seat"``, ``"dealer"``; at the end also ``"payoffs"`` (the
four seats' payments in units, unscaled; ``"outcome"`` too, as every game's), ``"contract"`` (None when thrown in) and
``"declarer"``. ``env.deal`` is the engine's :class:`~mediatore_env.mediatore.game.Deal`, ``env.view``
the learner's :class:`~mediatore_env.mediatore.view.SeatView`.
"""

from __future__ import annotations

from ..envs.seat import SeatEnv
from .observation import Encoder, observation_text

__all__ = ["MediatoreSeatEnv"]


class MediatoreSeatEnv(SeatEnv):
    """One seat of a Mediatore table as a single-agent environment (see the module docstring):
    :class:`~mediatore_env.envs.seat.SeatEnv` of Mediatore, observing through an incremental
    encoder per seat, with the deal's payments, contract and declarer in the end's ``info``."""

    metadata = {"render_modes": ["ansi"], "name": "mediatore_seat_v0"}

    def __init__(self, opponents, seat: int | None = None, rules=None, *,
                 normalize_rewards: bool = False, reward_scale: float = 1.0,
                 illegal_reward: float | None = None, strict: bool = False,
                 skip_forced: bool = False, render_mode: str | None = None, **switches):
        self._encoders = [Encoder() for _ in range(4)]
        super().__init__("mediatore", opponents, seat, rules,
                         normalize_rewards=normalize_rewards, reward_scale=reward_scale,
                         illegal_reward=illegal_reward, strict=strict, skip_forced=skip_forced,
                         render_mode=render_mode, **switches)

    @property
    def deal(self):
        """The engine's :class:`~mediatore_env.mediatore.game.Deal` (``env.game``)."""
        return self.game

    def _observe(self, view):
        return self._encoders[view.seat].encode(view).copy()

    def _end_info(self) -> dict:
        deal = self.game
        return {**super()._end_info(), "payoffs": tuple(deal.payoffs),
                "contract": deal.contract, "declarer": deal.declarer}

    def render(self):
        if self.render_mode == "ansi" and self.game is not None:
            return observation_text(self._encoders[self.seat].encode(self.view))
        return None
