"""For the JAX games' differential tests: a batch of games played in a JAX engine and in its
Python engine at once, compared after every move.

The JAX games are dealt from keys (their packs are drawn by ``init``, as a training loop deals
them) and stepped as one batch by one compiled ``jit(vmap(...))``; each Python game is made
from the JAX game's first dealer and is handed the JAX game's pack whenever it needs one (a
chance event the Python engines take from outside), so both play the same packs. Each move is
a random legal move of the Python game, made in both. After every move, for every game: the
seat to move (-1 at the end), the legal mask (all True once over), ``terminated``, the rewards
of the move, the observation of every seat bit for bit (the Python environment's own writer),
and every field of the JAX state that has a Python counterpart. The JAX side's own account of
the games (first states, seats and actions, rewards) is returned too, for the records round
trip (:mod:`mediatore_env.jaxgame.records`).

A game's test supplies a :class:`PythonSide` per game: how to make the Python game, its
moves, its rewards and its fields (by the JAX state's field names).
"""

from __future__ import annotations

import random
from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np

from mediatore_env.core.cards import NUM_CARDS

# Compiling is most of these tests' time: XLA's cheap settings compile in a third of the time
# (each step then runs slower, which a test does not mind), as tests/test_jax_differential.py.
CHEAP_COMPILE = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}


class PythonSide:
    """One Python game beside a JAX one. Subclasses write the game's own parts."""

    #: the JAX state's fields this side compares, by name
    fields: tuple[str, ...] = ()

    def __init__(self, state: dict, i: int):
        """The game of JAX game ``i`` of a batch whose first state is ``state`` (numpy arrays
        by field name, batch first)."""
        raise NotImplementedError

    def over(self) -> bool:
        raise NotImplementedError

    def to_move(self) -> int:
        """The seat to move, -1 once the game is over."""
        raise NotImplementedError

    def legal_moves(self) -> list[int]:
        raise NotImplementedError

    def choose(self, rng: random.Random) -> int:
        """A random legal move."""
        return rng.choice(self.legal_moves())

    def apply(self, move: int) -> np.ndarray:
        """Make ``move``; return the rewards it hands out, by seat (float32)."""
        raise NotImplementedError

    def observations(self) -> np.ndarray:
        """float32[players, size]: every seat's observation now."""
        raise NotImplementedError

    def expected(self) -> dict[str, np.ndarray]:
        """The values of :attr:`fields` now, as the JAX state holds them."""
        raise NotImplementedError

    def describe(self) -> str:
        """Enough to replay the game by hand (rules, dealer, packs, moves)."""
        raise NotImplementedError


class Batched:
    """A JAX game compiled once for batches of ``batch`` games: ``start(keys)`` deals,
    ``advance(states, actions)`` steps; both return the states and what is compared (the
    current player, the mask, the rewards, terminated, every seat's observations and the
    compared fields), as numpy arrays."""

    def __init__(self, env, fields: tuple[str, ...], cheap: bool = True):
        self.env, self.fields = env, fields
        seats = jnp.arange(env.num_players, dtype=jnp.int32)
        options = CHEAP_COMPILE if cheap else None

        def looks(state):
            obs = jax.vmap(env.observe, in_axes=(None, 0))(state, seats)
            return (state.current_player, state.legal_action_mask, state.rewards,
                    state.terminated, obs, {name: getattr(state, name) for name in fields})

        def step(state, action):
            state = env.step(state, action)
            return state, looks(state)

        def start(key):
            state = env.init(key)
            return state, looks(state)

        self._step = jax.jit(jax.vmap(step), compiler_options=options)
        self._start = jax.jit(jax.vmap(start), compiler_options=options)

    def start(self, keys):
        return self._start(keys)

    def advance(self, states, actions):
        return self._step(states, jnp.asarray(actions, jnp.int32))


def as_bools(masks) -> np.ndarray:
    """Card bitsets (an int or a list of them) as bool[..., 40]."""
    return np.unpackbits(np.array(masks, "<u8")[..., None].view(np.uint8), axis=-1,
                         bitorder="little")[..., :NUM_CARDS].astype(bool)


def none(value) -> int:
    """A Python field's None as the JAX state's -1."""
    return -1 if value is None else value


def numpy_fields(state) -> dict[str, np.ndarray]:
    """A batch of states as numpy arrays by field name."""
    return {f: np.asarray(getattr(state, f)) for f in state.__dataclass_fields__}


def compare(step: int, sides: list[PythonSide], looks, rewards: np.ndarray) -> None:
    """Assert the JAX batch's ``looks`` equal the Python games' after ``step`` moves;
    ``rewards[i]``: what game ``i``'s move handed out. Each value is compared for the whole
    batch at once; a failure names the first game that differs, and how to replay it."""
    player, mask, jax_rewards, terminated, obs, fields = (
        np.asarray(x) if not isinstance(x, dict) else {k: np.asarray(v) for k, v in x.items()}
        for x in looks)
    over = np.array([side.over() for side in sides])
    legal = np.zeros(mask.shape, bool)
    for i, side in enumerate(sides):
        legal[i, side.legal_moves()] = True
    legal[over] = True  # a finished game's mask: all True (the Python engine has no move)
    expected = [side.expected() for side in sides]
    python_obs = np.stack([side.observations() for side in sides])
    checks = [("current_player", player, np.array([side.to_move() for side in sides])),
              ("terminated", terminated, over), ("legal_action_mask", mask, legal),
              ("rewards", jax_rewards, rewards)]
    checks += [(name, fields[name], np.stack([np.asarray(e[name]) for e in expected]))
               for name in expected[0]]
    for name, ours, theirs in checks:
        same = (ours == theirs).reshape(len(sides), -1).all(axis=1)
        if not same.all():
            i = int(np.flatnonzero(~same)[0])
            raise AssertionError(
                f"{name}: JAX {ours[i].tolist()}, Python {theirs[i].tolist()}: game {i} after "
                f"{step} moves ({sides[i].describe()})")
    same = (obs.view(np.uint32) == python_obs.view(np.uint32)).all(axis=2)
    if not same.all():
        i, seat = map(int, np.argwhere(~same)[0])
        at = np.flatnonzero(obs[i, seat].view(np.uint32) != python_obs[i, seat].view(np.uint32))
        raise AssertionError(
            f"observation of seat {seat} differs at {at[:8].tolist()}: JAX "
            f"{obs[i, seat, at[:8]].tolist()}, Python {python_obs[i, seat, at[:8]].tolist()}: "
            f"game {i} after {step} moves ({sides[i].describe()})")


class Played:
    """What :func:`play_side_by_side` played: the Python sides, finished; and the JAX batch's
    own account of it, for :mod:`mediatore_env.jaxgame.records`: its first states, the seat to
    move and the action at each step (int[steps, n]; -1 once a game is over) and each game's
    rewards summed."""

    def __init__(self, sides, first, players, actions, paid):
        self.sides, self.first, self.paid = sides, first, paid
        self.players, self.actions = np.array(players), np.array(actions)


def play_side_by_side(jx: Batched, make_side: Callable[[dict, int], PythonSide], n: int,
                      seed: int) -> Played:
    """Play ``n`` random games in both engines, comparing after every move (see the module
    docstring)."""
    rng = random.Random(seed)
    first, looks = jx.start(jax.random.split(jax.random.PRNGKey(seed), n))
    states = first
    sides = [make_side(numpy_fields(states), i) for i in range(n)]
    players_count = jx.env.num_players
    compare(0, sides, looks, np.zeros((n, players_count), np.float32))
    step = 0
    players, actions = [], []
    paid = np.zeros((n, players_count), np.float32)
    while not all(side.over() for side in sides):
        players.append(np.asarray(looks[0]))
        action = np.zeros(n, np.int32)   # a finished game gets move 0: it must stay as it is
        rewards = np.zeros((n, players_count), np.float32)
        for i, side in enumerate(sides):
            if not side.over():
                action[i] = move = side.choose(rng)
                rewards[i] = side.apply(move)
        actions.append(action)
        states, looks = jx.advance(states, action)
        step += 1
        compare(step, sides, looks, rewards)
        paid += np.asarray(looks[2])
    return Played(sides, first, players, actions, paid)


@jax.jit
def _keep(keep, old, new):
    """A batch of states: ``old`` where ``keep``, else ``new``."""
    return jax.tree.map(
        lambda o, n: jnp.where(keep.reshape((-1,) + (1,) * (n.ndim - 1)), o, n), old, new)


def check_illegal_moves(jx: Batched, n: int, seed: int, avoid: tuple[int, ...] = ()) -> None:
    """``n`` games played some random legal moves into (``avoid``: moves made only when
    nothing else is legal, such as a claim that would end most games), then each given a move
    off its mask
    (now and then no action id at all): each ends at once as it stood, its mover paying the
    engine's ``illegal_penalty`` to each other seat (jaxgame.core), the mask all True; stepping
    it again pays nothing and changes nothing."""
    rng = np.random.default_rng(seed)
    states, _ = jx.start(jax.random.split(jax.random.PRNGKey(seed), n))
    stop = rng.integers(0, 60, n)  # game i makes stop[i] moves (fewer if it ends first)
    for t in range(int(stop.max())):
        mask = np.asarray(states.legal_action_mask)
        preferred = mask.copy()
        preferred[:, list(avoid)] = False
        mask = np.where(preferred.any(axis=1, keepdims=True), preferred, mask)
        action = np.array([rng.choice(np.flatnonzero(m)) for m in mask], np.int32)
        moved, _ = jx.advance(states, action)
        states = _keep(t >= stop, states, moved)
    before = numpy_fields(states)
    player, mask = before["current_player"], before["legal_action_mask"]
    on = ~before["terminated"]
    illegal = np.array([rng.choice(np.flatnonzero(~m)) if m.any() and not m.all() and i % 4
                        else (-1, jx.env.num_actions, 2 ** 31 - 1)[i % 3]
                        for i, m in enumerate(mask)], np.int32)
    ended, _ = jx.advance(states, illegal)
    again, _ = jx.advance(ended, illegal)
    after, after_again = numpy_fields(ended), numpy_fields(again)
    penalty = jx.env.illegal_penalty
    for i in np.flatnonzero(on):
        expected = np.full(jx.env.num_players, penalty, np.float32)
        expected[player[i]] = -(jx.env.num_players - 1) * penalty
        assert after["terminated"][i] and after["current_player"][i] == -1
        assert after["legal_action_mask"][i].all()
        assert np.array_equal(after["rewards"][i], expected), (i, after["rewards"][i], expected)
        assert after["_step_count"][i] == before["_step_count"][i] + 1
        for name in set(before) - {"rewards", "terminated", "current_player",
                                   "legal_action_mask", "_step_count", "phase"}:
            assert np.array_equal(before[name][i], after[name][i]), (i, name)
        for name in after:
            expected_again = 0 * after[name][i] if name == "rewards" else after[name][i]
            assert np.array_equal(after_again[name][i], expected_again), (i, name)
    assert on.sum() > n // 2
