"""``env()`` of every PettingZoo environment: the raw environment in one fast wrapper that
behaves exactly as PettingZoo's standard chain.

PettingZoo's classic environments build ``env()`` as ``raw_env`` inside
``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``
(:func:`standard_wrappers` builds that chain). Every attribute read through that chain
(``agents``, ``agent_selection``, ``terminations``, ...; the wrappers read them too) falls
through up to three ``__getattr__`` calls, each after a failed lookup, some 36 of them per
decision, and every action goes through Gymnasium's ``Discrete.contains``. On random legal
play the chain makes ``env()`` four to five times slower than in :class:`ProtectedEnv`, which
does the same checks in one layer (measured with ``benchmarks/bench_env.py --env env
standard_wrapped_env`` for ``mediatore_v0``; about four times for ``mediatore_bidding_v0``).

Behaving "exactly as the standard chain" means, and tests/test_wrappers.py checks on both
environments, side by side with the chain: the same agent order, observations, rewards,
terminations, truncations and infos at every step, the same warnings, and the same exceptions
with the same messages (``AssertionError: action is not in action space`` for an action
outside the ``Discrete`` space, before anything else; the order errors before ``reset``; the
dead-step ``ValueError``). The three differences: this wrapper's space takes every action id
the raw environment takes (:func:`~mediatore_env.codec.actions.is_action`), as the environment
pages promise, where Gymnasium's ``Discrete.contains`` refuses two of them, an unsigned numpy
integer wider than ``int64`` allows (``np.uint64(3)``) and a 1-element array (``np.array([3])``,
what vectorised single-agent libraries hand one environment), so the chain fails its assertion.
``True`` passes the space's check (a bool is an int to Gymnasium) and then the chain fails with
numpy's "truth value of an array ... is ambiguous" ``ValueError``, where this wrapper raises the
``ValueError`` of :func:`~mediatore_env.codec.actions.as_move`: a bool is not an action id. And
once the episode is over (``agents`` empty), ``last()`` in the chain fails with ``KeyError`` on
the last agent's name, where this wrapper gives the raw environment's ``RuntimeError`` saying
the episode is over (:class:`~mediatore_env.envs.base.GameAEC`).

A raw environment wrapped here provides, besides the AEC API:

- one ``Discrete(n)`` action space (starting at 0) shared by every agent;
- ``play_if_legal(move: int) -> bool``: play ``move`` (an id in range) for the agent to act
  and return True if it is legal, exactly when the agent's ``action_mask`` has a 1 there;
  otherwise change nothing and return False.
"""

from __future__ import annotations

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ..codec.actions import as_move, is_action
from .options import number_option

__all__ = ["ProtectedEnv", "standard_wrappers", "wrapped"]


def standard_wrappers(raw: AECEnv, illegal_reward: float = -1) -> AECEnv:
    """``raw`` in PettingZoo's standard chain, as the classic environments build ``env()``:
    the reference that :class:`ProtectedEnv` behaves as (slower; kept for tests and
    benchmarks)."""
    e = wrappers.TerminateIllegalWrapper(raw, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class ProtectedEnv(wrappers.OrderEnforcingWrapper):
    """A raw environment with the behaviour of PettingZoo's ``TerminateIllegalWrapper``,
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper`` stacked, in one layer that
    reaches the raw environment without a chain of ``__getattr__`` calls (see the module
    docstring):

    - before ``reset()``: ``step``, ``observe``, ``render``, ``state``, ``agent_iter`` fail an
      assertion and the episode attributes raise ``AttributeError``; stepping with no agents
      left warns and does nothing;
    - an action outside the ``Discrete`` space fails ``assert ..., "action is not in action
      space"`` (``None`` passes for an agent that is done; every action id that ``as_move``
      takes is in the space);
    - an illegal action: a warning, ``illegal_reward`` to the offender (its pending rewards
      are dropped), 0 to the others, every agent terminated and truncated.

    PettingZoo internals it relies on, as the standard wrappers themselves do: the
    ``_has_reset`` and ``_has_updated`` flags of ``OrderEnforcingWrapper`` (its subclass;
    its ``agent_iter`` reads ``_has_updated``), and the raw ``AECEnv``'s own helpers
    ``_was_dead_step``, ``_accumulate_rewards``, ``_deads_step_first`` and
    ``_cumulative_rewards``, which ``TerminateIllegalWrapper`` calls on the raw environment
    just the same.
    """

    def __init__(self, env: AECEnv, illegal_reward: float = -1):
        super().__init__(env)
        number_option("illegal_reward", illegal_reward)  # kept as given, as PettingZoo keeps it
        self._illegal_reward = illegal_reward
        space = env.action_space(env.possible_agents[0])
        assert int(space.start) == 0, "ProtectedEnv needs Discrete(n) actions starting at 0"
        self._num_actions = int(space.n)

    def __str__(self) -> str:
        return str(self.env)

    # The attributes read at every step, forwarded without __getattr__.
    def _forward(name):  # noqa: N805 - a helper run at class creation
        def get(self):
            if not self._has_reset:
                raise AttributeError(f"{name} cannot be accessed before reset")
            return getattr(self.env, name)
        return property(get, doc=f"The raw environment's ``{name}``.")

    agents = _forward("agents")
    agent_selection = _forward("agent_selection")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    num_agents = _forward("num_agents")
    _cumulative_rewards = property(lambda self: self.env._cumulative_rewards)
    del _forward

    def observe(self, agent):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def last(self, observe: bool = True):
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def step(self, action) -> None:
        # OrderEnforcingWrapper
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        e = self.env
        if not e.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._has_updated = True
        # AssertOutOfBoundsWrapper (a Python int in range is in the space: skip the calls), with
        # every action id as_move takes; a bool is in Gymnasium's space, and as_move refuses it.
        agent = e.agent_selection
        dead = e.terminations[agent] or e.truncations[agent]
        if not (type(action) is int and 0 <= action < self._num_actions):
            assert (action is None and dead) or is_action(action, self._num_actions) \
                or e.action_space(agent).contains(action), "action is not in action space"
        if dead:
            e._was_dead_step(action)
            return
        # TerminateIllegalWrapper: a legal move is played; an illegal one ends the episode.
        if e.play_if_legal(as_move(action, self._num_actions)):
            return
        EnvLogger.warn_on_illegal_move()
        e._cumulative_rewards[agent] = 0
        e.terminations = dict.fromkeys(e.agents, True)
        e.truncations = dict.fromkeys(e.agents, True)
        e.rewards = dict.fromkeys(e.truncations, 0)
        e.rewards[agent] = float(self._illegal_reward)
        e._accumulate_rewards()
        e._deads_step_first()


def wrapped(raw_env: type) -> tuple:
    """``env`` and ``standard_wrapped_env`` of a versioned environment module, from its
    ``raw_env`` class: ``env = wrapped(raw_env)[0]`` is written once here, not in every
    module.

    - ``env(illegal_reward=-1, **kwargs)``: ``raw_env(**kwargs)`` with PettingZoo's protections
      in one fast layer (:class:`ProtectedEnv`): an illegal action ends the episode with
      ``illegal_reward`` to the offender, an action outside the space fails an assertion,
      calls out of order are refused, exactly as with PettingZoo's standard wrappers;
    - ``standard_wrapped_env(illegal_reward=-1, **kwargs)``: ``raw_env(**kwargs)`` in
      PettingZoo's own chain (:func:`standard_wrappers`); the same behaviour, slower, kept for
      comparison and tests."""
    def env(illegal_reward: float = -1, **kwargs):
        number_option("illegal_reward", illegal_reward)  # checked before the environment is made
        return ProtectedEnv(raw_env(**kwargs), illegal_reward=illegal_reward)

    def standard_wrapped_env(illegal_reward: float = -1, **kwargs):
        number_option("illegal_reward", illegal_reward)
        return standard_wrappers(raw_env(**kwargs), illegal_reward=illegal_reward)

    for function, what in ((env, "with PettingZoo's protections in one fast layer"),
                           (standard_wrapped_env, "in PettingZoo's standard wrappers")):
        function.__module__ = raw_env.__module__
        function.__doc__ = (f"``raw_env(**kwargs)`` {what}; an illegal action ends the episode "
                            "with ``illegal_reward`` (-1) to the offender "
                            "(:func:`mediatore_env.envs.wrappers.wrapped`).")
    return env, standard_wrapped_env
