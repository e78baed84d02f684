"""mediatore_env.jaxgame.core, the base every JAX game stands on, through a second game: the toy
of tests/toy_jax_game.py writes only its own ``_init``, ``_step`` and ``_observe``, and gets
from the base what MediatoreJax gets (tests/test_jax_differential.py checks it there against
the Python engine): a finished game steps to itself with zero rewards, an illegal action
(off the mask, or no action id at all) ends the game with its mover paying each other seat,
the mask of a finished game is all True, and auto_reset keeps a batch of its games going.
"""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
pytest.importorskip("mediatore_env.jaxgame")

from mediatore_env.jaxgame.autoreset import auto_reset, init_batch  # noqa: E402
from mediatore_env.jaxgame.core import JaxGame  # noqa: E402
from jax_states import fields  # noqa: E402
from toy_jax_game import LEGAL, MOVES_PER_SEAT, NUM_ACTIONS, ToyGame  # noqa: E402

GAME = ToyGame()
STEP = jax.jit(GAME.step)
MOVES = 4 * MOVES_PER_SEAT  # a toy game's length


def played(moves: list[int], key: int = 0):
    """The toy game of ``key`` after ``moves``."""
    state = GAME.init(jax.random.PRNGKey(key))
    for move in moves:
        state = STEP(state, move)
    return state


def test_legal_actions_are_the_games_own_step_counted():
    state = played([])
    for t in range(MOVES):
        seat = int(state.current_player)
        mine = GAME._step(state._replace(_step_count=state._step_count + 1), 2 * seat)
        state = STEP(state, 2 * seat)  # a good move
        assert all(np.array_equal(a, fields(mine)[name]) for name, a in fields(state).items()
                   if name != ".legal_action_mask")
        assert int(state._step_count) == t + 1
    assert bool(state.terminated) and int(state.current_player) == -1
    assert np.asarray(state.rewards).tolist() == [MOVES_PER_SEAT - MOVES_PER_SEAT / 4] * 4


def test_a_finished_game_has_every_action_legal_and_steps_to_itself():
    state = played([0] * MOVES)
    assert bool(state.terminated) and np.asarray(state.legal_action_mask).all()
    assert np.asarray(state.rewards).any()  # the last move paid
    for action in (0, LEGAL, NUM_ACTIONS - 1, -1, NUM_ACTIONS):
        again = fields(STEP(state, action))
        for name, value in fields(state).items():
            expected = np.zeros_like(value) if name == ".rewards" else value
            assert np.array_equal(again[name], expected), (action, name)


@pytest.mark.parametrize("action", [LEGAL, NUM_ACTIONS - 1, -1, NUM_ACTIONS, 2**31 - 1])
@pytest.mark.parametrize("after", [0, 5, MOVES - 1])
def test_an_illegal_action_ends_the_game_and_its_mover_pays_each_other_seat(action, after):
    state = played([1] * after)
    mover = int(state.current_player)
    ended = STEP(state, action)
    expected = np.full(4, GAME.illegal_penalty, np.float32)
    expected[mover] = -3 * GAME.illegal_penalty
    assert np.array_equal(np.asarray(ended.rewards), expected) and expected.sum() == 0
    assert bool(ended.terminated) and int(ended.current_player) == -1
    assert np.asarray(ended.legal_action_mask).all()
    assert int(ended._step_count) == after + 1
    assert np.array_equal(np.asarray(ended.good), np.asarray(state.good))  # the game as it was


def test_the_base_works_under_vmap_for_a_batch_in_every_case():
    """One batched step over a game going on, one ending, one finished, one refused: each as
    stepped alone."""
    states = [played([]), played([0] * (MOVES - 1)), played([0] * MOVES), played([3] * 4)]
    actions = [1, 2, 5, LEGAL + 1]
    batch = jax.tree.map(lambda *leaves: jnp.stack(leaves), *states)
    together = fields(jax.jit(jax.vmap(GAME.step))(batch, jnp.asarray(actions)))
    for i, (state, action) in enumerate(zip(states, actions)):
        for name, value in fields(STEP(state, action)).items():
            assert np.array_equal(together[name][i], value), (i, name)


def test_auto_reset_keeps_every_slot_of_a_batch_of_toy_games_going():
    batch = 8
    step = jax.jit(jax.vmap(auto_reset(GAME)))
    states = init_batch(GAME, jax.random.PRNGKey(1), batch)
    ends = 0
    for t in range(3 * MOVES):
        assert (np.asarray(states.current_player) >= 0).all()
        actions = jnp.asarray(np.arange(batch) % LEGAL, jnp.int32)
        keys = jax.random.split(jax.random.PRNGKey(100 + t), batch)
        states = step(states, actions, keys)
        done = np.asarray(states.terminated)
        assert done.all() == ((t + 1) % MOVES == 0) and done.all() == done.any()
        assert not np.asarray(states.rewards)[~done].any()
        fresh = fields(jax.vmap(GAME.init)(keys))
        for name, value in fields(states).items():
            if name not in (".rewards", ".terminated"):
                assert np.array_equal(value[done], fresh[name][done]), name
        ends += done.sum()
    assert ends == 3 * batch


def test_a_game_must_write_its_own_parts():
    class Unwritten(JaxGame):
        num_players, num_actions = 2, 3

    with pytest.raises(NotImplementedError, match="Unwritten has no _init"):
        Unwritten().init(jax.random.PRNGKey(0))
