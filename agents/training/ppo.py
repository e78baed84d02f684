"""Masked PPO self-play on the batched JAX engine, in the shape of PureJaxRL's ``make_train``.

    import jax
    from agents.training import Config, make_train
    train = make_train(Config(envs=256, rollout=64))   # on MediatoreJax(rules=Config.rules)
    runner, metrics = train(jax.random.PRNGKey(0), 100)  # 100 updates, one jitted call
    train = make_train(Config(game="tressette3"))        # any game of jaxgame.make

**Any game.** ``Config.game`` names a game of :func:`mediatore_env.jaxgame.make` (Mediatore, the
three Tressette forms, club Mediatore); the network's input is that engine's observation
(``observation_shape``), its policy head one logit per move id (``num_actions``), and the seats
are the engine's ``num_players``. Mediatore's scripted auctions (``explore``) exist only in
Mediatore (a game without an auction has none to script). The outcome is the engine's: each
seat's ``rewards`` on the step that ends an episode (club Mediatore: each deal), zero-sum over
the seats whatever the sides (Mediatore's declarer against one, two or three, Tressette's two
partnerships, three players alone); :func:`seat_rewards` is the one place that turns them into
training rewards, for any number of seats and sides: each seat's own, scaled so that the
engine's ``reward_unit`` (the largest outcome a seat can have; club Mediatore's first pot) is
``reward_scale``. The
partners of a side get the same reward and learn it each at its own seat.

:func:`make_train` returns the jitted parts of one :class:`Config`: ``train.init(key)`` makes
the carried state (:class:`Runner`), ``train.run(runner, updates)`` runs ``updates`` updates
with no Python between them, and ``train(key, updates)`` does both, as PureJaxRL's
``train(rng)``. The driver (:mod:`agents.training.run`) cuts a run into such calls, evaluating
and saving between them.

**One update.** ``Config.envs`` deals are played at once by the batched engine
(:mod:`mediatore_env.jaxgame`, ``jax.vmap`` over its pure ``step``); ``Config.rollout`` steps
of all of them are one ``lax.scan``; a finished deal is replaced at once by a new one
(:func:`mediatore_env.jaxgame.autoreset.auto_reset_batch`), so the rollout only ever reads the
mask of a deal in progress; then the advantages and ``Config.epochs`` passes of
``Config.minibatches`` clipped-PPO minibatches. ``lax.scan`` runs the updates of one call.

**Self-play.** One network (:mod:`agents.training.network`: an MLP on the observation of the
seat to move, 2132 floats in Mediatore; policy and value heads on a shared trunk; numpy runs
the same forward pass, :mod:`agents.selfplay`) plays every seat. Illegal moves get a logit of
``-1e9``, so they are never drawn and take no probability in the loss. So that the network does
not chase its own tail, every seat of a new deal is played, with probability
``pool_fraction``, by a frozen past version: the pool keeps the initial network for good and
the last ``pool_size`` - 1 snapshots, one taken every ``pool_every`` updates, and one of them
(drawn per update) plays all such seats of the rollout. Their decisions act in the deals but
are not trained on. The initial network stays because it bids: without it, self-play
collapsed within a million steps to four passes in every deal (a thrown-in deal pays nothing,
a contract played badly costs), after which no deal was played out and card play could not be
learned. In a share ``explore`` of the deals the auction is scripted (random bids at
``bid_rate``, not trained on), so that contracts are played out. ``anchor_coef`` adds
KL(policy || the pool's first network) to the loss: started from an imitated network
(:func:`agents.training.imitation.start_from`), self-play improves on the imitated play without
drifting away from it.

**Rewards and credit.** gamma = 1, one deal per episode in Mediatore (a game to 31 in
Tressette), the reward is the deal's payment to the seat times :attr:`Config.reward_per_unit`
(a thrown-in deal pays nothing). The engine gives the payments of all seats on the step that
ends the deal, and only one seat acts per step, so the rollout is split into interleaved
trajectories, one per seat: a seat's decision at
step ``t`` is followed by *its* next decision (in the same deal) or by the end of the deal, and
the reward of that transition is what the seat received in between (its payment, at the end).
:func:`seat_advantages` runs GAE backwards over the rollout with a carry per seat (the next
decision's value, its advantage and the reward gathered since), so each decision is credited
with its own seat's payment, never with the seat that happened to make the last move. A deal
still going at the end of the rollout is bootstrapped, for each seat, with the value of that
seat's observation of the last state.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp
import optax

from mediatore_env.jaxgame.autoreset import auto_reset_batch
from mediatore_env.mediatore.moves import CALL_BASE, NUM_MOVES, PASS
from mediatore_env.mediatore.rules import PRESETS

from .network import forward, init_network, masked_logits


class Config(NamedTuple):
    """The settings of the jitted update (static: a change recompiles), each default here
    alone; the command line (examples/train_selfplay.py) spells them ``--envs``,
    ``--ent-coef``..."""
    envs: int = 256              # deals played at once
    rollout: int = 64            # steps of every deal per update
    epochs: int = 4              # passes over the rollout per update
    minibatches: int = 4         # per epoch; envs x rollout must divide into them
    hidden: tuple = (256, 256)   # hidden layer sizes of the network
    lr: float = 3e-4             # Adam's learning rate
    clip: float = 0.2            # PPO's ratio clip
    ent_coef: float = 0.03       # weight of the entropy bonus
    vf_coef: float = 0.5         # weight of the value loss
    gae_lambda: float = 0.95
    max_grad_norm: float = 0.5
    reward_scale: float = 3.0    # reward = payment / the rules' largest payment x this
    pool_size: int = 8           # past versions kept: the first network and the last - 1
    pool_fraction: float = 0.25  # chance that a seat of a new deal is played by one of them
    pool_every: int = 10         # updates between two snapshots into the pool
    explore: float = 0.5         # share of deals whose auction is scripted
    bid_rate: float = 0.3        # chance that a seat bids in a scripted auction
    anchor_coef: float = 0.0     # weight of KL(policy || the pool's first network)
    rules: str = "standard"      # Mediatore's rules preset (mediatore_env.mediatore.rules.PRESETS)
    game: str = "mediatore"      # the game: one of mediatore_env.jaxgame.games()
    shaping: float = 0.0         # weight of the score potential (see potential()); 0: none

    @property
    def reward_per_unit(self) -> float:
        """The reward of an outcome of one unit: ``reward_scale`` / the engine's
        ``reward_unit`` (the largest outcome a seat can have: 3/60 in Mediatore's standard rules,
        3/1 in Partnership Tressette; club Mediatore's first pot, 3/20)."""
        return self.reward_scale / engine_of(self.game, self.rules).reward_unit


@lru_cache(maxsize=None)
def engine_of(game: str, rules: str = "standard"):
    """The JAX engine a config trains on: ``jaxgame.make(game)``, Mediatore's under its preset
    ``rules`` (the other games know only ``"standard"``, their default rules)."""
    from mediatore_env.jaxgame import MediatoreJax, make
    if game == "mediatore":
        return MediatoreJax(rules=PRESETS[rules])
    return make(game)


def check_config(cfg: Config, env=None) -> None:
    """ValueError unless the game has a JAX engine, its rules exist, one update's decisions
    split into equal minibatches, and, with shaping, the engine (``env``, default the game's)
    has a score potential."""
    from mediatore_env.jaxgame import games
    if cfg.game not in games():
        raise ValueError(f"--game {cfg.game!r}: no JAX engine; games: {', '.join(games())}")
    if cfg.rules != "standard" and cfg.game != "mediatore":
        raise ValueError(f"--rules {cfg.rules!r}: a preset of Mediatore; {cfg.game} trains under "
                         "its standard rules")
    if cfg.rules not in PRESETS:
        raise ValueError(f"--rules {cfg.rules!r}: presets: {', '.join(PRESETS)}")
    if cfg.envs * cfg.rollout % cfg.minibatches:
        raise ValueError(f"--envs x --rollout ({cfg.envs * cfg.rollout}) must divide into "
                         f"--minibatches ({cfg.minibatches}) equal minibatches")
    if cfg.shaping > 0 and not has_potential(env or engine_of(cfg.game, cfg.rules)):
        raise ValueError(f"--shaping: {cfg.game} has no score potential (the Tressette forms do)")


# -- self-play seats -----------------------------------------------------------------------------

def pool_slot(snapshots, pool_size: int):
    """The slot of the next snapshot: slot 0 keeps the initial network, the others turn over
    (a pool of one holds the last snapshot alone)."""
    return 1 + (snapshots - 1) % (pool_size - 1) if pool_size > 1 else 0


def random_bids(mask, bid_rate: float):
    """Logits of the scripted auction of an exploring deal: pass with probability
    ``1 - bid_rate``, else one of the legal bids, uniformly (like ``random:bid_rate=...``)."""
    bids = mask[:, PASS + 1:CALL_BASE].sum(axis=1, keepdims=True)
    is_pass = jnp.arange(NUM_MOVES) == PASS
    # when no bid is left, pass is certain: log(1 - 1) would put an illegal move above it
    return jnp.where(is_pass, jnp.where(bids > 0, jnp.log(1 - bid_rate), 0.0),
                     jnp.log(bid_rate) - jnp.log(jnp.maximum(bids, 1)))


def draw_learner_seats(key, n: int, pool_fraction: float, players: int = 4):
    """bool[n, players]: the seats the learner plays in ``n`` new deals (the others: the
    pool)."""
    return jax.random.uniform(key, (n, players)) >= pool_fraction


def seat_rewards(rewards, unit: float):
    """The training rewards of a step from the engine's ``rewards [envs, players]`` (each seat's
    outcome, zero-sum over the seats): each seat's own times ``unit``. The one place where the
    outcome of any number of seats and sides becomes rewards: a side's seats all get the
    side's outcome from the engine (Tressette's partners, Mediatore's declarer and partner) and
    each learns it at its own seat, so nothing here needs to know the sides."""
    return rewards.astype(jnp.float32) * unit


def potential(env, state):
    """float32[envs, players]: how well each seat's side stands in the episode so far, for
    potential-based reward shaping (Ng et al. 1999), or None for a game without one. In the
    Tressette forms: the side's running total (the hand in play's tricks and melds included)
    less the mean of the other sides', over the target of 31 (its opposite in Low Hand).

    With ``Config.shaping`` = w > 0 a step's reward gains w * (potential after - potential
    before), the potential after an episode's last step taken as 0: over a seat's episode the
    terms add up to nothing (it starts at 0), so the return is still the outcome alone and the
    best policy the same; what changes is when credit comes: the points of a trick at once,
    not only when the game ends some 160 moves later."""
    if not has_potential(env):
        return None
    t = env.tables
    totals = state.totals.astype(jnp.float32)                      # [envs, sides]
    others = (totals.sum(-1, keepdims=True) - totals) / max(t.sides - 1, 1)
    lead = (totals - others) / 31.0 * (-1.0 if t.rules.low else 1.0)
    return lead[:, t.side_of]                                      # [envs, players]


def has_potential(env) -> bool:
    """Whether :func:`potential` knows ``env``'s game."""
    from mediatore_env.jaxgame.tressette import TressetteJax
    return isinstance(env, TressetteJax)


def episode_stake(rewards):
    """What was at stake in episodes that ended, from their zero-sum ``rewards [..., players]``
    (in the engine's units): the largest outcome of a seat (a Partnership Tressette game
    +1/+1/-1/-1: 1; three-handed +2/-1/-1: 2; a Mediatore solo +3x/-x/-x/-x: 3x)."""
    return jnp.abs(rewards).max(axis=-1)


# -- the training state --------------------------------------------------------------------------

class Runner(NamedTuple):
    params: dict
    opt_state: tuple
    pool: dict          # the past versions, each array with a leading axis of pool_size
    snapshots: jax.Array  # int32: networks put in the pool so far, the initial one included
    env_state: object   # the batched engine state
    learner: jax.Array  # bool[envs, players]
    explore: jax.Array  # bool[envs]: the deal's auction is a scripted random one
    key: jax.Array
    updates: jax.Array  # int32: updates done


class Transition(NamedTuple):
    obs: jax.Array       # [envs, observation size]
    mask: jax.Array      # bool[envs, num_actions]
    action: jax.Array    # int32[envs]
    logp: jax.Array      # log-probability of the action under the acting network
    value: jax.Array     # the learner's value of the observation
    seat: jax.Array      # int32[envs]: the seat that acted
    mine: jax.Array      # bool[envs]: the learner acted (else a past version)
    reward: jax.Array    # [envs, players]: scaled payments of this step
    done: jax.Array      # bool[envs]: this step ended the deal


def seat_advantages(traj: Transition, last_values, gae_lambda: float):
    """GAE with gamma 1 over interleaved per-seat trajectories, one per seat (see the module
    docstring).

    ``traj``: a rollout, each field with a leading time axis ``[T, envs, ...]``;
    ``last_values [envs, players]``: each seat's value at the state after the rollout. Returns the
    advantage of each step's decision for the seat that made it, ``[T, envs]``.
    """
    def back(carry, t: Transition):
        next_value, gae, gathered = carry  # [envs, players]: per seat, after step t
        ended = t.done[:, None]            # what follows a deal's last step is another deal
        next_value = jnp.where(ended, 0.0, next_value)
        gae = jnp.where(ended, 0.0, gae)
        gathered = jnp.where(ended, 0.0, gathered) + t.reward
        actor = jax.nn.one_hot(t.seat, last_values.shape[-1], dtype=bool)
        delta = gathered + next_value - t.value[:, None]
        advantage = delta + gae_lambda * gae
        return ((jnp.where(actor, t.value[:, None], next_value),
                 jnp.where(actor, advantage, gae),
                 jnp.where(actor, 0.0, gathered)),
                jnp.sum(jnp.where(actor, advantage, 0.0), axis=1))

    zeros = jnp.zeros_like(last_values)
    _, adv = jax.lax.scan(back, (last_values, zeros, zeros), traj, reverse=True)
    return adv


class Train:
    """The jitted parts of ``cfg`` (see the module docstring): ``init(key) ->
    Runner``, ``run(runner, updates) -> (runner, metrics)`` (``updates`` static: a new count
    compiles anew), and the two at once as a call."""

    def __init__(self, cfg: Config, init: Callable, run: Callable):
        self.cfg, self.init, self.run = cfg, init, run
        self.executables: dict[int, Callable] = {}  # updates per call -> run compiled for them

    def __call__(self, key, updates: int):
        """PureJaxRL's ``train(rng)``: ``updates`` updates from ``init(key)``."""
        return self.run(self.init(key), updates)

    def compiled(self, runner: Runner, updates: int) -> Callable:
        """``run`` compiled ahead of time for ``updates`` updates per call, once per count, so
        that a driver can time compiling apart from training."""
        if updates not in self.executables:
            self.executables[updates] = self.run.lower(runner, updates).compile()
        return self.executables[updates]


def make_train(cfg: Config, env=None) -> Train:
    """The jitted training of ``cfg`` on ``env``: any JAX game (:class:`~mediatore_env.jaxgame.
    JaxGame`: ``init``, ``step``, ``observe``, ``num_players``, ``num_actions``,
    ``observation_shape``, ``reward_unit``; states with ``current_player``,
    ``legal_action_mask``, ``rewards``, ``terminated``); default the engine of ``cfg.game``
    (:func:`engine_of`)."""
    check_config(cfg, env)
    if env is None:
        env = engine_of(cfg.game, cfg.rules)
    unit = cfg.reward_scale / env.reward_unit
    players, actions = env.num_players, env.num_actions
    obs_size = env.observation_shape[0]
    scripts = cfg.explore > 0 and cfg.game == "mediatore"  # only Mediatore has an auction
    shaped = cfg.shaping > 0
    optimiser = optax.chain(optax.clip_by_global_norm(cfg.max_grad_norm),
                            optax.adam(cfg.lr, eps=1e-5))
    batched_init = jax.vmap(env.init)
    batched_step = auto_reset_batch(env)
    observe = jax.vmap(env.observe)
    n = cfg.envs

    def init(key) -> Runner:
        k_net, k_env, k_seats, key = jax.random.split(key, 4)
        params = init_network(k_net, cfg.hidden, obs_size, actions)
        pool = jax.tree_util.tree_map(lambda p: jnp.stack([p] * cfg.pool_size), params)
        k_seats, k_explore = jax.random.split(k_seats)
        return Runner(params, optimiser.init(params), pool, jnp.int32(1),
                      batched_init(jax.random.split(k_env, n)),
                      draw_learner_seats(k_seats, n, cfg.pool_fraction, players),
                      jax.random.uniform(k_explore, (n,)) < cfg.explore, key, jnp.int32(0))

    def rollout_step(carry, _):
        params, opponent, state, learner, explore, key = carry
        key, k_act, k_reset, k_seats, k_explore = jax.random.split(key, 5)
        seat = state.current_player
        obs = observe(state, seat)
        # a deal in progress: auto_reset_batch has replaced every finished one, so the mask of
        # a finished state (all True under pgx's convention) is never read
        mask = state.legal_action_mask
        logits, value = forward(params, obs)
        mine = learner[jnp.arange(n), seat]
        if cfg.pool_fraction > 0:
            logits = jnp.where(mine[:, None], logits, forward(opponent, obs)[0])
        if scripts:
            scripted = explore & mask[:, :CALL_BASE].any(axis=1)  # an exploring deal's auction
            logits = jnp.where(scripted[:, None], random_bids(mask, cfg.bid_rate), logits)
            mine = mine & ~scripted
        logits = masked_logits(logits, mask)
        action = jax.random.categorical(k_act, logits).astype(jnp.int32)
        logp = jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], axis=1)[:, 0]
        before = potential(env, state) if shaped else None
        state = batched_step(state, action, jax.random.split(k_reset, n))
        reward, done = state.rewards, state.terminated  # of this move; the state is the next deal's
        shaping = 0.0
        if shaped:  # the potential after an episode's end is 0 (the state is the next one's)
            after = jnp.where(done[:, None], 0.0, potential(env, state))
            shaping = cfg.shaping * (after - before)
        learner = jnp.where(done[:, None],
                            draw_learner_seats(k_seats, n, cfg.pool_fraction, players),
                            learner)
        explore = jnp.where(done, jax.random.uniform(k_explore, (n,)) < cfg.explore, explore)
        t = Transition(obs, mask, action, logp, value, seat, mine,
                       seat_rewards(reward, unit) + shaping, done)
        # the stake of an episode ended here, from the outcome alone (not the shaping)
        stake = jnp.where(done, episode_stake(reward.astype(jnp.float32)), 0.0)
        return (params, opponent, state, learner, explore, key), (t, stake)

    def loss_fn(params, anchor, batch, adv, target):
        logits, value = forward(params, batch.obs)
        logp_all = jax.nn.log_softmax(masked_logits(logits, batch.mask))
        logp = jnp.take_along_axis(logp_all, batch.action[:, None], axis=1)[:, 0]
        # the ratio of a decision not trained on (a past version's, a scripted bid) is kept
        # at 1: its old log-probability may be far off the learner's, and an overflow there
        # would turn the zero weight into NaN
        ratio = jnp.exp(jnp.where(batch.mine, logp - batch.logp, 0.0))
        policy = -jnp.minimum(ratio * adv, jnp.clip(ratio, 1 - cfg.clip, 1 + cfg.clip) * adv)
        entropy = -jnp.sum(jnp.where(batch.mask, jnp.exp(logp_all) * logp_all, 0.0), axis=1)
        vloss = 0.5 * (value - target) ** 2
        w = batch.mine.astype(jnp.float32)
        count = jnp.maximum(w.sum(), 1.0)

        def mean(x):
            return jnp.sum(w * x) / count
        loss = mean(policy) + cfg.vf_coef * mean(vloss) - cfg.ent_coef * mean(entropy)
        drift = 0.0
        if cfg.anchor_coef > 0:  # KL(policy || anchor) over the legal moves
            anchor_logp = jax.nn.log_softmax(masked_logits(forward(anchor, batch.obs)[0],
                                                           batch.mask))
            drift = mean(jnp.sum(jnp.where(batch.mask, jnp.exp(logp_all)
                                           * (logp_all - anchor_logp), 0.0), axis=1))
            loss = loss + cfg.anchor_coef * drift
        kl = mean((ratio - 1) - (logp - batch.logp))
        return loss, (mean(policy), mean(vloss), mean(entropy), kl, drift)

    def update(runner: Runner, _):
        key, k_opp, k_perm = jax.random.split(runner.key, 3)
        slot = jax.random.randint(k_opp, (), 0, jnp.minimum(runner.snapshots, cfg.pool_size))
        opponent = jax.tree_util.tree_map(lambda p: p[slot], runner.pool)
        anchor = jax.tree_util.tree_map(lambda p: p[0], runner.pool)  # kept for good
        (_, _, state, learner, explore, key), (traj, stakes) = jax.lax.scan(
            rollout_step, (runner.params, opponent, runner.env_state, runner.learner,
                           runner.explore, key), None, cfg.rollout)
        last_obs = jax.vmap(lambda s: observe(state, jnp.full(n, s, jnp.int32)))(
            jnp.arange(players))
        last_values = forward(runner.params, last_obs)[1].T  # [envs, players]
        adv = seat_advantages(traj, last_values, cfg.gae_lambda)
        target = adv + traj.value
        w = traj.mine.astype(jnp.float32)
        count = jnp.maximum(w.sum(), 1.0)
        mu = jnp.sum(w * adv) / count
        sd = jnp.sqrt(jnp.sum(w * (adv - mu) ** 2) / count) + 1e-8
        adv = (adv - mu) / sd

        size = cfg.rollout * n
        flat = jax.tree_util.tree_map(lambda x: x.reshape((size,) + x.shape[2:]),
                                      (traj, adv, target))

        def epoch(carry, k):
            def minibatch(carry, batch):
                params, opt_state = carry
                grads, stats = jax.grad(loss_fn, has_aux=True)(params, anchor, *batch)
                updates, opt_state = optimiser.update(grads, opt_state, params)
                return (optax.apply_updates(params, updates), opt_state), stats
            order = jax.random.permutation(k, size)
            batches = jax.tree_util.tree_map(
                lambda x: x[order].reshape((cfg.minibatches, -1) + x.shape[1:]), flat)
            return jax.lax.scan(minibatch, carry, batches)

        (params, opt_state), stats = jax.lax.scan(
            epoch, (runner.params, runner.opt_state), jax.random.split(k_perm, cfg.epochs))

        updates = runner.updates + 1
        take = (updates % cfg.pool_every) == 0
        pool = jax.tree_util.tree_map(
            lambda pool, p: jnp.where(take, pool.at[pool_slot(runner.snapshots, cfg.pool_size)]
                                      .set(p), pool), runner.pool, params)
        snapshots = runner.snapshots + take.astype(jnp.int32)
        ended = traj.done.sum()
        metrics = {
            "policy_loss": stats[0].mean(), "value_loss": stats[1].mean(),
            "entropy": stats[2].mean(), "approx_kl": stats[3].mean(),
            "anchor_kl": stats[4].mean(),
            "deals": ended,
            # the stakes of the episodes ended, summed (run divides by their number)
            "stake": jnp.sum(stakes),
            "learner_share": w.mean(),
        }
        return (Runner(params, opt_state, pool, snapshots, state, learner, explore, key, updates),
                metrics)

    def run(runner: Runner, updates: int):
        runner, metrics = jax.lax.scan(update, runner, None, updates)
        means = jax.tree_util.tree_map(lambda m: m.mean(), metrics)
        # the mean stake of the episodes ended in these updates, in the engine's units (how
        # much is at stake as play changes): over the episodes, not the updates, of which a
        # long game's leave many with none ended
        means["stake"] = metrics["stake"].sum() / jnp.maximum(metrics["deals"].sum(), 1)
        return runner, means

    return Train(cfg, jax.jit(init), jax.jit(run, static_argnums=1))
