"""``jaxgame.make``: every game of the registry has a JAX engine, made from the game's name and
switches as ``mediatore_env.make`` makes the Python engine's game, with the Python game's
players, action ids and observation size. (Each engine is held equal to its Python engine,
move by move, by tests/test_jax_differential.py, test_jax_tressette.py, test_jax_club.py.)"""

from __future__ import annotations

import pytest

pytest.importorskip("jax")
jaxgame = pytest.importorskip("mediatore_env.jaxgame")

from mediatore_env.registry import GAMES, get  # noqa: E402

FAMILY = ["mediatore", "tressette", "tressette3", "tressette2", "club"]


def python_observation_size(name: str, **switches) -> int:
    """The size of the observation the Python writer gives a seat of a fresh game."""
    entry = get(name)
    game = entry.new_game(entry.make_rules(**switches))
    if game.needs_pack:
        game.deal(list(range(40)))
    return entry.observation(game.view(0))["observation"].shape[0]


@pytest.mark.parametrize("name", FAMILY)
def test_every_game_of_the_family_has_a_jax_engine_with_its_python_facts(name):
    entry = get(name)
    env = jaxgame.make(name)
    assert env.rules == entry.make_rules()
    assert env.num_players == entry.players
    assert env.num_actions == entry.moves.count
    assert env.observation_shape == (python_observation_size(name),)
    assert env.reward_unit == entry.reward_unit_of(env.rules)  # what self-play scales by
    assert set(FAMILY) <= set(GAMES) and set(jaxgame.games()) == set(FAMILY)


def test_the_definition_says_which_jax_engine_a_game_has(monkeypatch):
    """jaxgame.make reads the game's definition (its ``jax``), not a table of its own: a
    definition without one has no JAX engine, and says which games have one."""
    import dataclasses
    monkeypatch.setitem(GAMES, "tressette3", dataclasses.replace(get("tressette3"), jax=None))
    assert "tressette3" not in jaxgame.games() and "tressette" in jaxgame.games()
    with pytest.raises(ValueError, match="'tressette3' has no JAX engine; JAX engines: "
                                         "mediatore, tressette, tressette2, club"):
        jaxgame.make("tressette3")


@pytest.mark.parametrize("name, switches", [
    ("tressette3", {"low": True, "claim": True}), ("tressette2", {"show_draws": False}),
    ("club", {"ante": 2, "deals": 3}), ("mediatore", {"signals": "off", "arcisolissimo": False})])
def test_switches_go_to_the_rules_with_the_games_fixed_ones(name, switches):
    env = jaxgame.make(name, **switches)
    assert env.rules == get(name).make_rules(**switches)
    for switch, value in {**get(name).fixed, **switches}.items():
        assert getattr(env.rules, switch) == value
    assert env.observation_shape == (python_observation_size(name, **switches),)


def test_bad_names_and_switches_are_refused_naming_what_is_valid():
    with pytest.raises(ValueError, match="unknown game 'tresette'.*tressette2"):
        jaxgame.make("tresette")
    with pytest.raises(ValueError, match="fixes players"):
        jaxgame.make("tressette3", players=4)
    with pytest.raises(ValueError, match="show_draws"):
        jaxgame.make("tressette", show_draws=False)
    with pytest.raises(TypeError):
        jaxgame.make("club", stakes=3)



@pytest.mark.parametrize("name, rows", [("mediatore", None), ("tressette2", 6), ("tressette3", 23),
                                        ("club", 20)])
def test_given_packs_and_dealers_are_checked_as_the_python_engines_check_them(name, rows):
    """Too few packs would deal the last one again (an index past the end is clamped in JAX),
    and a pack of repeated or unknown cards deals a hand of 39: each is a ValueError naming
    it, as in the Python engines. Under jit and vmap the shape is still checked (it is static);
    the values cannot be, and the caller answers for them."""
    import jax
    import numpy as np
    env = jaxgame.make(name)
    first = env.init_from_pack if rows is None else env.init_from_packs
    rng = np.random.default_rng(0)
    good = np.stack([rng.permutation(40) for _ in range(rows or 1)]).reshape(
        (40,) if rows is None else (rows, 40))
    state = first(good, 1)
    assert int(state.current_player) in range(env.num_players) and not state.terminated
    short = good[:20] if rows is None else good[:1]
    with pytest.raises(ValueError, match=r"bad packs?: shape \(\d+,( 40)?\), expected"):
        first(short, 1)
    twice = good.copy()
    twice.reshape(-1, 40)[-1, 5] = twice.reshape(-1, 40)[-1, 6]
    with pytest.raises(ValueError, match="need the 40 distinct cards.*repeated"):
        first(twice, 1)
    with pytest.raises(ValueError, match=r"card ids must be 0..39, got \[45\]"):
        first(np.where(good == 3, 45, good), 1)
    halves = good.astype(float)  # 1.5 is no card id: refused, not truncated to card 1
    halves.reshape(-1, 40)[0, np.flatnonzero(halves.reshape(-1, 40)[0] == 1)[0]] = 1.5
    with pytest.raises(ValueError, match="bad pack"):
        first(halves, 1)
    for dealer in (env.num_players, -1, 1.5):
        with pytest.raises(ValueError, match=rf"bad dealer {dealer}; valid: "
                                             rf"0..{env.num_players - 1}"):
            first(good, dealer)
    batched = jax.jit(jax.vmap(first))
    with pytest.raises(ValueError, match="bad packs?: shape"):
        batched(np.stack([short, short]), np.array([0, 1]))
