"""Every game of the family in JAX: each game as pure array functions, bit-exact with its
Python engine, batched with ``jax.vmap``.

Imported on demand only (``import mediatore_env`` never imports JAX). Any game of the registry
by its name and switches, as ``mediatore_env.make`` makes the Python engine's game::

    from mediatore_env import jaxgame

    env = jaxgame.make("tressette3", low=True)   # TressetteJax(TressetteRules(players=3, ...))
    env = jaxgame.make("club", deals=5)          # ClubJax, a session of 5 deals
    env = jaxgame.make("mediatore", signals="off")

Each is a :class:`.core.JaxGame` (``init``, ``step``, ``observe``; ``num_players``,
``num_actions``, ``observation_shape``), its state a record of arrays whose first fields are
pgx's. One episode is what the game's PettingZoo environment makes one: a Mediatore deal, a
Tressette game to 31 (:mod:`.tressette`), a club session (:mod:`.club`). Mediatore's, in
detail::

    import jax
    from mediatore_env.jaxgame import MediatoreJax

    env = MediatoreJax("standard")          # rules: Rules, preset name, dict or None (static)
    state = env.init(jax.random.key(0))     # or env.init_from_pack(pack int32[40], dealer)
    state = jax.jit(env.step)(state, action)   # action: a legal move id of moves.py (0..485)
    obs = env.observe(state, seat)          # float32[2132], observation layout version 3

``env.num_players == 4``, ``env.num_actions == 486``, ``env.observation_shape == (2132,)``.
The state (:class:`State`) starts with the fields every JAX game has (:class:`.core.State`,
under pgx's names; docs/jax.md maps them to the Python engine's): ``current_player`` (int32,
-1 once the deal is over), ``legal_action_mask`` (bool[486]), ``rewards`` (float32[4]: the
deal's payments on the step that ends it, 0 on every other step), ``terminated``,
``truncated`` (always False) and ``_step_count``. ``init``, ``init_from_pack``, ``step`` and
``observe`` are pure, and jit- and vmap-able: ``jax.vmap(env.step)`` steps a batch of states,
whatever phase each is in.

Behaviour at the edges, the same for every JAX game (:class:`.core.JaxGame` writes it once):

- One deal per episode. A thrown-in deal (four passes) terminates with zero rewards.
- Stepping a terminated state returns it unchanged, with zero rewards.
- Once the deal is over, ``legal_action_mask`` is all True (pgx's convention; the Python
  engine's ``legal_moves()`` is empty): an action there changes nothing.
- An illegal action (the Python engine refuses it with a ValueError; a traced step cannot
  raise), or a number that is no move id, ends the deal at once as it stood: its mover pays
  the largest payment of the rules (``rules.max_payment``) to each of the three other seats,
  as pgx makes the mover lose. Rewards still sum to zero.

The state holds, besides pgx's fields, the deal itself (:class:`State` lists every field:
hands as ``bool[4, 40]``, seats and cards as int32 with -1 for none), so a state can be
inspected, e.g. ``state.contract``, ``state.declarer``, ``state.thirds_won``.

For training loops, :mod:`.autoreset` has ``auto_reset(env)`` (a step that deals the next
deal when one ends), ``auto_reset_batch(env)`` (the same for a whole batch, dealing only
where a deal ended), ``init_batch`` and ``random_legal_action``.

Modules: :mod:`.core` (what every JAX game shares: ``JaxGame``, its ``State``),
:mod:`.tricks` (what every trick game shares: follow suit, the trick's winner, points in
thirds, a card played), Mediatore's :mod:`.state` (the record of arrays), :mod:`.tables` (the
static rules as arrays), :mod:`.engine` (deal, moves, legal mask, payments), :mod:`.observe`
(the observation), :mod:`.env` (``MediatoreJax``); :mod:`.tressette` (``TressetteJax``, the
three forms), :mod:`.club` (``ClubJax``); :mod:`.autoreset` (for every JAX game),
:mod:`.records` (a batch of JAX games as the Python engines' records). The Python engines are
the reference for every behaviour: ``tests/test_jax_differential.py``,
``tests/test_jax_tressette.py`` and ``tests/test_jax_club.py`` hold each pair equal move by
move.
"""

from __future__ import annotations

from ..registry import GAMES, get
from .core import JaxGame
from .env import MediatoreJax
from .state import State

__all__ = ["JaxGame", "MediatoreJax", "State", "games", "make"]

def games() -> list[str]:
    """The registry's games that have a JAX engine (their definition's ``jax``), by name."""
    return [name for name in GAMES if GAMES[name].jax is not None]


def make(name: str, rules=None, **switches) -> JaxGame:
    """The JAX engine of the registry's game ``name`` under its ``rules`` (a preset name, a
    dict of switches or a rules object; None: the game's) with ``switches`` on top (the
    game's fixed switches, such as ``tressette3``'s three players, come from the registry).
    ``ValueError`` for a game without a JAX engine or a bad switch."""
    entry = get(name)
    if entry.jax is None:
        raise ValueError(f"game {name!r} has no JAX engine; JAX engines: {', '.join(games())}")
    return entry.jax.load()(entry.make_rules(rules, **switches))
