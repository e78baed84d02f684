"""Self-play on the JAX engine: masked PPO, one network for the four seats, in JAX end to end.

    pip install -e ".[train-jax]"                     # jax (CPU) and optax
    python examples/train_selfplay.py --steps 2000000 --envs 256 --out runs/selfplay
    pip install -U "jax[cuda12]"                      # on a GPU machine, then e.g.
    python examples/train_selfplay.py --steps 3000000000 --envs 8192 --rollout 64 \\
        --minibatches 16 --eval-every 100000000 --out runs/selfplay-gpu

In the style of PureJaxRL: ``--envs`` deals are played at once by the batched engine
(:mod:`mediatore_env.jaxgame`, ``jax.vmap`` over its pure ``step``), ``--rollout`` steps of
all of them are one ``lax.scan``, a finished deal is replaced at once by a new one (auto-reset),
and one *update* - the rollout, the advantages, ``--epochs`` passes of ``--minibatches``
clipped-PPO minibatches - is one jitted function; ``lax.scan`` runs the updates between two
evaluations, so no Python runs per step.

**Self-play.** One network (an MLP on the 2132-float observation of the seat to move; policy
and value heads on a shared trunk; numpy can run the same forward pass,
:mod:`agents.selfplay`) plays all four seats. Illegal moves get a logit of ``-1e9``, so they
are never drawn and take no probability in the loss. So that the network does not chase its
own tail, every seat of a new deal is played, with probability ``--pool-fraction``, by a
frozen past version: the pool keeps the initial (random) network for good and the last
``--pool-size`` - 1 snapshots, one taken every ``--pool-every`` updates, and one of them
(drawn per update) plays all such seats of the rollout. Their decisions act in the deals but
are not trained on. The initial network stays because it bids: without it, self-play
collapsed within a million steps to four passes in every deal (a thrown-in deal pays
nothing, a contract played badly costs), after which no deal was played out and card play
could not be learned.

**Imitation first** (``--demos DIR``, not with ``--resume``). The network first learns to
play the moves recorded in DIR (``examples/record_demos.py``: PIMC's decisions, say) and to
value each at the payment its seat got (:func:`imitate`); self-play then starts from it, and
the imitated network fills the pool (its first slot keeps it for good). ``--anchor-coef``
adds KL(policy || that first network) to the loss, so self-play improves on the imitated play
without drifting away from it (without demonstrations the first network is the initial one).

**Rewards and credit.** gamma = 1, one deal per episode, the reward is the deal's payment to
the seat times ``--reward-scale`` (a thrown-in deal pays nothing). The engine gives the
payments of all four seats on the step that ends the deal, and only one seat acts per step,
so the rollout is split into four interleaved trajectories, one per seat: a seat's decision
at step ``t`` is followed by *its* next decision (in the same deal) or by the end of the deal,
and the reward of that transition is what the seat received in between (its payment, at the
end). :func:`seat_advantages` runs GAE backwards over the rollout with a carry per seat (the
next decision's value, its advantage and the reward gathered since), so each decision is
credited with its own seat's payment, never with the seat that happened to make the last
move. A deal still going at the end of the rollout is bootstrapped, for each seat, with the
value of that seat's observation of the last state.

**Evaluation.** Every ``--eval-every`` steps the network (its most likely legal move, in numpy,
as :class:`agents.selfplay.SelfPlayAgent` plays it) plays the project's duplicate tournament
(:mod:`agents.tournament`) against three greedy agents (``--eval-deals`` deals) and three PIMC
agents (``--pimc-deals``), always on the same deals (seed ``--eval-seed``); at the end on
``--final-deals`` other deals (seed ``--eval-seed`` + 1). Writes to ``--out``:
``network.npz`` (the network alone: ``mediatore-bench --agents
selfplay:path=runs/selfplay/network.npz greedy greedy greedy``), ``best.npz`` (the network of
the best evaluation against greedy so far, a resumed run's included, so a run that gets worse
does not lose it; picked on the evaluation deals, so its mean there flatters it: measure it
again on other deals), ``checkpoint.npz`` (network,
optimiser, opponent pool, counters: ``--resume`` continues it), ``evaluations.json`` (the
settings, the throughput, every evaluation) and ``learning_curve.png`` (units per deal against
steps and against wall time, with 95% confidence bands).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

try:
    import jax
    import jax.numpy as jnp
    import optax
except ImportError as e:  # one line naming the extra, not a traceback
    print(f"train_selfplay.py: error: needs {e.name or e} (the train-jax extra): "
          "pip install -e '.[train-jax]'", file=sys.stderr)
    raise SystemExit(2) from None

from agents.demos import load_demos  # noqa: E402
from agents.selfplay import (NETWORK_FORMAT, SelfPlayAgent, check_shapes,  # noqa: E402
                             hidden_count, network_keys)
from mediatore_env.codec.layout import OBSERVATION_SIZE  # noqa: E402
from mediatore_env.jaxgame.autoreset import auto_reset  # noqa: E402
from mediatore_env.mediatore.moves import CALL_BASE, NUM_MOVES, PASS  # noqa: E402
from mediatore_env.mediatore.rules import PRESETS, max_payment  # noqa: E402
from mediatore_env.tools.checks import (ArgumentParser, input_file,  # noqa: E402
                                       non_negative_float, non_negative_int, output_dir,
                                       positive_float, positive_int, probability)

ILLEGAL = -1e9  # the logit of an illegal move


class Config(NamedTuple):
    """The static settings of the jitted update (hashable: a change recompiles)."""
    envs: int = 256
    rollout: int = 64
    epochs: int = 4
    minibatches: int = 4
    hidden: tuple = (256, 256)
    lr: float = 3e-4
    clip: float = 0.2
    ent_coef: float = 0.03
    vf_coef: float = 0.5
    gae_lambda: float = 0.95
    max_grad_norm: float = 0.5
    reward_scale: float = 3.0 / 60
    pool_size: int = 8
    pool_fraction: float = 0.25
    pool_every: int = 10
    explore: float = 0.5
    bid_rate: float = 0.3
    anchor_coef: float = 0.0


# -- the network (the numpy twin is agents/selfplay.forward) -------------------------------------

def init_network(key, hidden) -> dict:
    """He-initialised ReLU layers, a policy head near uniform and a value head near zero."""
    sizes = (OBSERVATION_SIZE, *hidden)
    keys = jax.random.split(key, len(hidden) + 2)
    params = {}
    for i in range(len(hidden)):
        params[f"layer{i}/w"] = (jax.random.normal(keys[i], (sizes[i], sizes[i + 1]))
                                 * math.sqrt(2.0 / sizes[i]))
        params[f"layer{i}/b"] = jnp.zeros(sizes[i + 1])
    params["policy/w"] = jax.random.normal(keys[-2], (sizes[-1], NUM_MOVES)) * 0.01
    params["policy/b"] = jnp.zeros(NUM_MOVES)
    params["value/w"] = jax.random.normal(keys[-1], (sizes[-1], 1)) / math.sqrt(sizes[-1])
    params["value/b"] = jnp.zeros(1)
    return params


def forward(params: dict, obs):
    """``(logits [..., 486], value [...])``: the arithmetic of agents.selfplay.forward."""
    h = obs
    for i in range(hidden_count(params)):
        h = jax.nn.relu(h @ params[f"layer{i}/w"] + params[f"layer{i}/b"])
    return h @ params["policy/w"] + params["policy/b"], (h @ params["value/w"]
                                                         + params["value/b"])[..., 0]


def masked_logits(logits, mask):
    return jnp.where(mask, logits, ILLEGAL)


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


def draw_learner_seats(key, n: int, pool_fraction: float):
    """bool[n, 4]: the seats the learner plays in ``n`` new deals (the others: the pool)."""
    return jax.random.uniform(key, (n, 4)) >= pool_fraction


# -- the training state --------------------------------------------------------------------------

class Runner(NamedTuple):
    params: dict
    opt_state: tuple
    pool: dict          # the past versions, each array with a leading axis of pool_size
    snapshots: jax.Array  # int32: networks put in the pool so far, the initial one included
    env_state: object   # the batched engine state
    learner: jax.Array  # bool[envs, 4]
    explore: jax.Array  # bool[envs]: the deal's auction is a scripted random one
    key: jax.Array
    updates: jax.Array  # int32: updates done


class Transition(NamedTuple):
    obs: jax.Array       # [envs, 2132]
    mask: jax.Array      # bool[envs, 486]
    action: jax.Array    # int32[envs]
    logp: jax.Array      # log-probability of the action under the acting network
    value: jax.Array     # the learner's value of the observation
    seat: jax.Array      # int32[envs]: the seat that acted
    mine: jax.Array      # bool[envs]: the learner acted (else a past version)
    reward: jax.Array    # [envs, 4]: scaled payments of this step
    done: jax.Array      # bool[envs]: this step ended the deal


def seat_advantages(traj: Transition, last_values, gae_lambda: float):
    """GAE with gamma 1 over four interleaved per-seat trajectories (see the module docstring).

    ``traj``: a rollout, each field with a leading time axis ``[T, envs, ...]``;
    ``last_values [envs, 4]``: each seat's value at the state after the rollout. Returns the
    advantage of each step's decision for the seat that made it, ``[T, envs]``.
    """
    def back(carry, t: Transition):
        next_value, gae, gathered = carry  # [envs, 4]: per seat, about the steps after t
        ended = t.done[:, None]            # what follows a deal's last step is another deal
        next_value = jnp.where(ended, 0.0, next_value)
        gae = jnp.where(ended, 0.0, gae)
        gathered = jnp.where(ended, 0.0, gathered) + t.reward
        actor = jax.nn.one_hot(t.seat, 4, dtype=bool)
        delta = gathered + next_value - t.value[:, None]
        advantage = delta + gae_lambda * gae
        return ((jnp.where(actor, t.value[:, None], next_value),
                 jnp.where(actor, advantage, gae),
                 jnp.where(actor, 0.0, gathered)),
                jnp.sum(jnp.where(actor, advantage, 0.0), axis=1))

    zeros = jnp.zeros_like(last_values)
    _, adv = jax.lax.scan(back, (last_values, zeros, zeros), traj, reverse=True)
    return adv


# (id(env), cfg) -> (env, (init, run)): a second run in one process compiles nothing
_made: dict = {}
_compiled: dict = {}  # (run, updates per call) -> run compiled for them (timed apart)


def make_train(env, cfg: Config):
    """``(init, run)``, both jitted: ``init(key) -> Runner``, and ``run(runner, updates) ->
    (runner, metrics)`` (``updates`` static) runs ``updates`` updates with no Python between."""
    made = _made.get((id(env), cfg))
    if made is None or made[0] is not env:
        made = _made[id(env), cfg] = (env, _make_train(env, cfg))
    return made[1]


def _make_train(env, cfg: Config):
    optimiser = optax.chain(optax.clip_by_global_norm(cfg.max_grad_norm),
                            optax.adam(cfg.lr, eps=1e-5))
    batched_init = jax.vmap(env.init)
    batched_step = jax.vmap(auto_reset(env))
    observe = jax.vmap(env.observe)
    n = cfg.envs

    def init(key) -> Runner:
        k_net, k_env, k_seats, key = jax.random.split(key, 4)
        params = init_network(k_net, cfg.hidden)
        pool = jax.tree_util.tree_map(lambda p: jnp.stack([p] * cfg.pool_size), params)
        k_seats, k_explore = jax.random.split(k_seats)
        return Runner(params, optimiser.init(params), pool, jnp.int32(1),
                      batched_init(jax.random.split(k_env, n)),
                      draw_learner_seats(k_seats, n, cfg.pool_fraction),
                      jax.random.uniform(k_explore, (n,)) < cfg.explore, key, jnp.int32(0))

    def rollout_step(carry, _):
        params, opponent, state, learner, explore, key = carry
        key, k_act, k_reset, k_seats, k_explore = jax.random.split(key, 5)
        seat = state.current_player
        obs = observe(state, seat)
        mask = state.legal_action_mask
        logits, value = forward(params, obs)
        mine = learner[jnp.arange(n), seat]
        if cfg.pool_fraction > 0:
            logits = jnp.where(mine[:, None], logits, forward(opponent, obs)[0])
        scripted = explore & mask[:, :CALL_BASE].any(axis=1)  # an exploring deal's auction
        if cfg.explore > 0:
            logits = jnp.where(scripted[:, None], random_bids(mask, cfg.bid_rate), logits)
        mine = mine & ~scripted
        logits = masked_logits(logits, mask)
        action = jax.random.categorical(k_act, logits).astype(jnp.int32)
        logp = jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], axis=1)[:, 0]
        state = batched_step(state, action, jax.random.split(k_reset, n))
        reward, done = state.rewards, state.terminated  # of this move; the state is the next deal's
        learner = jnp.where(done[:, None],
                            draw_learner_seats(k_seats, n, cfg.pool_fraction), learner)
        explore = jnp.where(done, jax.random.uniform(k_explore, (n,)) < cfg.explore, explore)
        t = Transition(obs, mask, action, logp, value, seat, mine,
                       reward.astype(jnp.float32) * cfg.reward_scale, done)
        return (params, opponent, state, learner, explore, key), t

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
        (_, _, state, learner, explore, key), traj = jax.lax.scan(
            rollout_step, (runner.params, opponent, runner.env_state, runner.learner,
                           runner.explore, key), None, cfg.rollout)
        last_obs = jax.vmap(lambda s: observe(state, jnp.full(n, s, jnp.int32)))(jnp.arange(4))
        last_values = forward(runner.params, last_obs)[1].T  # [envs, 4]
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
            # mean |payment| of the deals ended, in units: how much is at stake as play changes
            "stake": jnp.sum(jnp.abs(traj.reward).sum(-1) / 2) / jnp.maximum(ended, 1)
            / cfg.reward_scale,
            "learner_share": w.mean(),
        }
        return (Runner(params, opt_state, pool, snapshots, state, learner, explore, key, updates),
                metrics)

    def run(runner: Runner, updates: int):
        runner, metrics = jax.lax.scan(update, runner, None, updates)
        return runner, jax.tree_util.tree_map(lambda m: m.mean(), metrics)

    return jax.jit(init), jax.jit(run, static_argnums=1)


# -- imitation: a start for self-play (examples/record_demos.py records the demonstrations) ------

def imitate(params: dict, demos: dict, cfg: Config, epochs: int, batch: int, lr: float, key,
            say=print) -> tuple[dict, list[dict]]:
    """``params`` trained to play the demonstrated moves (cross-entropy over the legal moves)
    and to value each decision at the payment its seat got at the end of the deal (scaled as
    the self-play reward, weighted ``cfg.vf_coef``), ``epochs`` passes of minibatches of
    ``batch`` decisions, Adam at ``lr``. The last twentieth of the deals is held out; returns
    the trained params and, per epoch, the held-out share of moves the network's most likely
    legal move matches and its value error."""
    optimiser = optax.adam(lr)
    deal = demos["deal"]
    held = deal >= np.quantile(deal, 0.95) if deal.max() > deal.min() else np.zeros_like(deal, bool)
    train_rows, held_rows = np.flatnonzero(~held), np.flatnonzero(held)
    if len(train_rows) < batch:
        raise ValueError(f"{len(train_rows)} demonstrated decisions to train on, fewer than one "
                         f"minibatch of {batch}")

    def losses(params, obs, mask, move, target):
        logits, value = forward(params, obs)
        logp = jax.nn.log_softmax(masked_logits(logits, mask))
        nll = -jnp.take_along_axis(logp, move[:, None], axis=1)[:, 0]
        return nll.mean() + cfg.vf_coef * jnp.mean((value - target) ** 2)

    @jax.jit
    def train_step(params, opt_state, obs, mask, move, target):
        grads = jax.grad(losses)(params, obs.astype(jnp.float32), mask, move, target)
        updates, opt_state = optimiser.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state

    @jax.jit
    def scores(params, obs, mask, move, target):
        logits, value = forward(params, obs.astype(jnp.float32))
        hit = jnp.argmax(masked_logits(logits, mask), axis=1) == move
        return hit.sum(), jnp.sum((value - target) ** 2)

    def rows(idx):
        return (demos["obs"][idx], demos["mask"][idx], demos["move"][idx].astype(np.int32),
                demos["payoff"][idx] * np.float32(cfg.reward_scale))

    opt_state, history = optimiser.init(params), []
    rng = np.random.default_rng(np.asarray(jax.random.key_data(key)).ravel().tolist())
    for epoch in range(epochs):
        t = time.perf_counter()
        order = rng.permutation(train_rows)
        for start in range(0, len(order) - batch + 1, batch):
            params, opt_state = train_step(params, opt_state, *rows(np.sort(order[start:start + batch])))
        hits = sq = 0.0
        for start in range(0, len(held_rows), 4096):
            h, e = scores(params, *rows(held_rows[start:start + 4096]))
            hits, sq = hits + float(h), sq + float(e)
        n = max(len(held_rows), 1)
        history.append({"epoch": epoch + 1, "held_out_match": round(hits / n, 4),
                        "held_out_value_rmse": round(math.sqrt(sq / n), 4),
                        "seconds": round(time.perf_counter() - t, 1)})
        say(f"imitation epoch {epoch + 1}/{epochs}: {len(held_rows)} held-out decisions, "
            f"{hits / n:.1%} matched, value RMSE {math.sqrt(sq / n):.3f} "
            f"({history[-1]['seconds']:.0f} s)", flush=True)
    return params, history


def start_from(runner: Runner, params: dict) -> Runner:
    """``runner`` with ``params`` as the network, a fresh optimiser, and a pool that holds
    ``params`` alone (its first slot keeps it for good: the opponent that bids as imitated)."""
    optimiser_init = jax.tree_util.tree_map(jnp.zeros_like, runner.opt_state)  # Adam starts at 0
    pool = jax.tree_util.tree_map(lambda p, q: jnp.broadcast_to(q, p.shape), runner.pool, params)
    return runner._replace(params=params, opt_state=optimiser_init, pool=pool)


# -- checkpoints ---------------------------------------------------------------------------------

def network_arrays(params: dict, meta: dict) -> dict[str, np.ndarray]:
    """The npz content of a network: its float32 arrays, ``format`` and ``meta``."""
    out = {k: np.asarray(params[k], np.float32) for k in network_keys(hidden_count(params))}
    out["format"] = np.array(NETWORK_FORMAT)
    out["meta"] = np.array(json.dumps(meta))
    return out


def save_checkpoint(path: Path, runner: Runner, meta: dict) -> None:
    """Network, optimiser state (its leaves in order), pool, counters and key, as plain arrays;
    written to a scratch file first, so an interrupted save leaves the previous one."""
    arrays = network_arrays(runner.params, meta)
    for i, leaf in enumerate(jax.tree_util.tree_leaves(runner.opt_state)):
        arrays[f"opt/{i}"] = np.asarray(leaf)
    for k, v in runner.pool.items():
        arrays[f"pool/{k}"] = np.asarray(v)
    arrays["snapshots"] = np.asarray(runner.snapshots)
    arrays["updates"] = np.asarray(runner.updates)
    arrays["key"] = np.asarray(runner.key)
    scratch = path.with_name(path.name + ".part.npz")
    np.savez(scratch, **arrays)
    scratch.replace(path)


def load_checkpoint(path, runner: Runner) -> tuple[Runner, dict]:
    """``runner`` (a fresh one, with the settings of this run) with the network, optimiser, pool
    and counters of the checkpoint at ``path``; the deals in progress start afresh. Raises
    ValueError when the checkpoint's network or pool does not fit the settings."""
    try:
        with np.load(path, allow_pickle=False) as f:
            a = {k: f[k] for k in f.files}
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: not a readable .npz ({e})") from None
    if str(a.get("format", "")) != NETWORK_FORMAT or "updates" not in a:
        raise ValueError(f"{path}: not a checkpoint of train_selfplay.py")
    params = {k: jnp.asarray(a[k]) for k in network_keys(hidden_count(a))}
    check_shapes({k: np.asarray(v) for k, v in params.items()}, str(path))
    def widths(p):
        return [int(np.size(p[f"layer{i}/b"])) for i in range(hidden_count(p))]
    if widths(params) != widths(runner.params):
        raise ValueError(f"{path}: its network has hidden layers {widths(params)}, not "
                         f"{widths(runner.params)} (give the same --hidden)")
    leaves, tree = jax.tree_util.tree_flatten(runner.opt_state)
    opt_state = jax.tree_util.tree_unflatten(
        tree, [jnp.asarray(a[f"opt/{i}"], leaf.dtype) for i, leaf in enumerate(leaves)])
    pool = {k: jnp.asarray(a[f"pool/{k}"]) for k in params}
    if pool["policy/b"].shape[0] != runner.pool["policy/b"].shape[0]:
        raise ValueError(f"{path}: its pool holds {pool['policy/b'].shape[0]} networks, not "
                         f"{runner.pool['policy/b'].shape[0]} (give the same --pool-size)")
    runner = runner._replace(params=params, opt_state=opt_state, pool=pool,
                             snapshots=jnp.int32(a["snapshots"]),
                             updates=jnp.int32(a["updates"]), key=jnp.asarray(a["key"]))
    return runner, json.loads(str(a["meta"]))


# -- evaluation ----------------------------------------------------------------------------------

def numpy_params(params: dict) -> dict[str, np.ndarray]:
    return {k: np.asarray(v, np.float32) for k, v in params.items()}


def evaluate(params: dict, opponents: dict[str, int], seed: int, rules, jobs: int) -> dict:
    """Units per deal of the network (its most likely legal move) against three of each
    opponent, on ``opponents[name]`` duplicate deals of ``seed``."""
    from agents.tournament import run_tournament
    out = {}
    for opp, deals in opponents.items():
        if deals <= 0:
            continue
        agent = SelfPlayAgent(params=numpy_params(params))
        r = run_tournament([agent, opp, opp, opp], deals=deals, seed=seed, rules=rules,
                           jobs=jobs)
        s = r.standing("selfplay")
        out[f"vs_{opp}"] = {"mean": s.mean, "ci95": list(s.ci), "deals": deals,
                            "declarer_share": s.roles["declarer"]["count"] / s.plays,
                            "seconds": round(r.seconds, 1)}
    return out


def is_best(evaluations: list[dict]) -> bool:
    """Whether the last evaluation is the first with the highest mean against greedy (the
    evaluations all play the same deals, so their means compare)."""
    scores = [e["vs_greedy"]["mean"] for e in evaluations if "vs_greedy" in e]
    return "vs_greedy" in evaluations[-1] and scores.index(max(scores)) == len(scores) - 1


def describe(ev: dict) -> str:
    return "   ".join(f"{k.replace('_', ' 3 ')} {v['mean']:+6.2f} [{v['ci95'][0]:+.2f}, "
                      f"{v['ci95'][1]:+.2f}]" for k, v in ev.items() if k.startswith("vs_"))


def plot(log: dict, png: Path) -> None:
    """Units per deal against steps and against wall time, with the 95% bands."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    evs = log["evaluations"]
    if not evs:
        return
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), dpi=90, sharey=True)
    for ax, x_key, scale, label in ((axes[0], "step", 1e6, "environment steps (millions)"),
                                    (axes[1], "seconds", 60, "wall time (minutes, evaluations "
                                                             "excluded)")):
        for key, color in (("vs_greedy", "tab:blue"), ("vs_pimc", "tab:red")):
            pts = [e for e in evs if key in e]
            if not pts:
                continue
            x = np.array([e[x_key] for e in pts]) / scale
            mean = np.array([e[key]["mean"] for e in pts])
            ax.plot(x, mean, "o-", color=color, ms=3, label=f"self-play vs 3 {key[3:]}")
            ax.fill_between(x, [e[key]["ci95"][0] for e in pts],
                            [e[key]["ci95"][1] for e in pts], color=color, alpha=0.2)
        ax.axhline(0.0, color="grey", ls="--", lw=1)
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("units per deal (95% CI)")
    axes[0].legend(fontsize=8)
    cfg = log["config"]
    fig.suptitle(f"Self-play PPO on the JAX engine ({cfg['envs']} deals at once, hidden "
                 f"{cfg['hidden']}; {log.get('device', '')})", fontsize=10)
    fig.tight_layout()
    fig.savefig(png)
    plt.close(fig)


# -- the command line ----------------------------------------------------------------------------

def hidden_sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(x) for x in text.split(","))
    except ValueError:
        sizes = ()
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"expected layer sizes such as 256,256, not {text!r}")
    return sizes


def parse_args(argv=None):
    d = Config()
    p = ArgumentParser(prog="train_selfplay.py", description=__doc__.split("\n\n")[0],
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--steps", type=positive_int, default=2_000_000,
                   help="environment steps in all (every seat's decisions; with --resume, "
                        "the total including the checkpoint's)")
    p.add_argument("--envs", type=positive_int, default=d.envs, help="deals played at once")
    p.add_argument("--rollout", type=positive_int, default=d.rollout,
                   help="steps of every deal per update")
    p.add_argument("--epochs", type=positive_int, default=d.epochs)
    p.add_argument("--minibatches", type=positive_int, default=d.minibatches)
    p.add_argument("--hidden", type=hidden_sizes, default="256,256",
                   help="hidden layer sizes of the network")
    p.add_argument("--lr", type=positive_float, default=d.lr, help="learning rate (Adam)")
    p.add_argument("--clip", type=positive_float, default=d.clip)
    p.add_argument("--ent-coef", type=float, default=d.ent_coef)
    p.add_argument("--gae-lambda", type=probability, default=d.gae_lambda)
    p.add_argument("--reward-scale", type=positive_float, default=3.0,
                   help="reward = payment / the rules' largest payment * this")
    p.add_argument("--pool-size", type=positive_int, default=d.pool_size,
                   help="past versions kept as opponents: the initial network and the last "
                        "--pool-size - 1 snapshots (with 1: the last snapshot alone)")
    p.add_argument("--pool-every", type=positive_int, default=d.pool_every,
                   help="updates between two snapshots into the pool")
    p.add_argument("--pool-fraction", type=probability, default=d.pool_fraction,
                   help="chance that a seat of a new deal is played by a past version")
    p.add_argument("--explore", type=probability, default=d.explore,
                   help="share of deals whose auction is scripted (random bids, not trained "
                        "on), so that contracts are played out and card play is learned")
    p.add_argument("--bid-rate", type=probability, default=d.bid_rate,
                   help="chance that a seat bids in a scripted auction")
    p.add_argument("--anchor-coef", type=non_negative_float, default=d.anchor_coef,
                   help="weight of KL(policy || the pool's first network) in the loss: with "
                        "--demos, how far self-play may stray from the imitated play")
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument("--rules", default="standard", choices=list(PRESETS), help="rules preset")
    p.add_argument("--eval-every", type=positive_int, default=500_000,
                   help="environment steps between evaluations (rounded to whole updates)")
    p.add_argument("--eval-deals", type=non_negative_int, default=200,
                   help="duplicate deals against three greedy agents per evaluation")
    p.add_argument("--pimc-deals", type=non_negative_int, default=20,
                   help="duplicate deals against three PIMC agents per evaluation")
    p.add_argument("--eval-seed", type=non_negative_int, default=1_000)
    p.add_argument("--eval-jobs", type=positive_int, default=1,
                   help="processes for the tournaments")
    p.add_argument("--final-deals", type=non_negative_int, default=1_000,
                   help="deals of the final evaluation against greedy, seed --eval-seed + 1")
    p.add_argument("--final-pimc-deals", type=non_negative_int, default=100,
                   help="deals of the final evaluation against PIMC")
    p.add_argument("--out", type=output_dir, default="runs/selfplay", help="output folder")
    p.add_argument("--demos", default=None, metavar="DIR",
                   help="first train the network to imitate the decisions recorded in DIR "
                        "(examples/record_demos.py), then self-play from it; the imitated "
                        "network also takes the pool's first slot (not with --resume)")
    p.add_argument("--imitate-epochs", type=positive_int, default=4,
                   help="passes over the demonstrations")
    p.add_argument("--imitate-batch", type=positive_int, default=512)
    p.add_argument("--imitate-lr", type=positive_float, default=1e-3)
    p.add_argument("--resume", type=input_file, default=None,
                   help="continue from this checkpoint.npz (its evaluations.json, when beside "
                        "it, continues the curve)")
    args = p.parse_args(argv)
    if args.envs * args.rollout % args.minibatches:
        p.error(f"--envs x --rollout ({args.envs * args.rollout}) must divide into "
                f"--minibatches ({args.minibatches}) equal minibatches")
    return args


def config_of(args) -> Config:
    return Config(envs=args.envs, rollout=args.rollout, epochs=args.epochs,
                  minibatches=args.minibatches, hidden=tuple(args.hidden), lr=args.lr,
                  clip=args.clip, ent_coef=args.ent_coef, gae_lambda=args.gae_lambda,
                  reward_scale=args.reward_scale / max_payment(PRESETS[args.rules]),
                  pool_size=args.pool_size, pool_fraction=args.pool_fraction,
                  pool_every=args.pool_every, explore=args.explore, bid_rate=args.bid_rate,
                  anchor_coef=args.anchor_coef)


def make_env(rules: str):
    try:
        from mediatore_env.jaxgame import MediatoreJax
    except ImportError as e:
        raise SystemExit(f"train_selfplay.py: error: the JAX engine is not importable ({e})")
    return MediatoreJax(rules=rules)


def main(argv=None, env=None) -> dict:
    """Train as the command line says; return the log (also written to evaluations.json).
    ``env``: an engine object to train on instead of ``MediatoreJax(rules=--rules)``."""
    args = parse_args(argv)
    cfg = config_of(args)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rules = PRESETS[args.rules]
    env = make_env(args.rules) if env is None else env
    init, run = make_train(env, cfg)
    runner = init(jax.random.PRNGKey(args.seed))
    log = {"config": {**vars(args), "hidden": list(cfg.hidden), "reward_scale_per_unit":
                      cfg.reward_scale},
           "device": f"{jax.devices()[0].device_kind} ({jax.default_backend()})",
           "machine": f"{platform.node()} {platform.processor() or platform.machine()}",
           "command": "python examples/train_selfplay.py " + " ".join(sys.argv[1:] if argv is None
                                                                      else argv),
           "evaluations": [], "throughput": []}
    seconds_before = 0.0
    if args.demos and not args.resume:
        try:
            demos = load_demos(args.demos)
            params, log["imitation"] = imitate(runner.params, demos, cfg, args.imitate_epochs,
                                               args.imitate_batch, args.imitate_lr, runner.key)
        except ValueError as e:
            print(f"train_selfplay.py: error: --demos: {e}", file=sys.stderr)
            raise SystemExit(2) from None
        log["imitation_decisions"] = len(demos["move"])
        del demos
        runner = start_from(runner, params)
    if args.resume:
        try:
            runner, meta = load_checkpoint(args.resume, runner)
            if meta.get("rules", args.rules) != args.rules:
                raise ValueError(f"{args.resume} was trained under --rules {meta['rules']}, "
                                 f"not {args.rules} (give the same --rules)")
        except (OSError, ValueError) as e:  # one line, as for the other bad arguments
            print(f"train_selfplay.py: error: --resume: {e}", file=sys.stderr)
            raise SystemExit(2) from None
        seconds_before = meta.get("train_seconds", 0.0)
        previous = Path(args.resume).with_name("evaluations.json")
        if previous.is_file():
            old = json.loads(previous.read_text())
            log["evaluations"] = old.get("evaluations", [])
            log["throughput"] = old.get("throughput", [])
        print(f"resumed {args.resume}: {int(runner.updates)} updates, "
              f"{int(runner.updates) * cfg.envs * cfg.rollout} steps", flush=True)
    per_update = cfg.envs * cfg.rollout
    total_updates = math.ceil(args.steps / per_update)
    chunk = max(1, args.eval_every // per_update)
    eval_opponents = {"greedy": args.eval_deals, "pimc": args.pimc_deals}

    def meta(train_seconds: float) -> dict:
        return {"steps": int(runner.updates) * per_update, "updates": int(runner.updates),
                "train_seconds": round(train_seconds, 1), "rules": args.rules,
                "hidden": list(cfg.hidden), "trained_by": "examples/train_selfplay.py",
                "device": log["device"],
                "last_evaluation": log["evaluations"][-1] if log["evaluations"] else None}

    plotted = [-math.inf]

    def checkpoint(train_seconds: float, last: bool = False) -> None:
        m = meta(train_seconds)
        np.savez(out / "network.npz", **network_arrays(runner.params, m))
        save_checkpoint(out / "checkpoint.npz", runner, m)
        (out / "evaluations.json").write_text(json.dumps(log, indent=1))
        if last or time.perf_counter() - plotted[0] > 60:  # a chart costs seconds on a CPU
            plot(log, out / "learning_curve.png")
            plotted[0] = time.perf_counter()

    def evaluation(train_seconds: float) -> None:
        t = time.perf_counter()
        ev = evaluate(runner.params, eval_opponents, args.eval_seed, rules, args.eval_jobs)
        ev.update(step=int(runner.updates) * per_update, seconds=round(train_seconds, 1),
                  eval_seconds=round(time.perf_counter() - t, 1))
        log["evaluations"].append(ev)
        print(f"step {ev['step']:>11,}  {train_seconds:7.0f} s   {describe(ev)}", flush=True)
        if is_best(log["evaluations"]):
            np.savez(out / "best.npz", **network_arrays(runner.params, meta(train_seconds)))

    if not log["evaluations"]:
        evaluation(seconds_before)
    train_seconds = seconds_before
    while int(runner.updates) < total_updates:
        n = min(chunk, total_updates - int(runner.updates))
        if (run, n) not in _compiled:
            t = time.perf_counter()
            _compiled[run, n] = run.lower(runner, n).compile()
            log.setdefault("compile_seconds", []).append(round(time.perf_counter() - t, 1))
            print(f"compiled {n} updates of {cfg.envs} x {cfg.rollout} steps in "
                  f"{log['compile_seconds'][-1]:.0f} s", flush=True)
        t = time.perf_counter()
        runner, metrics = _compiled[run, n](runner)
        jax.block_until_ready(runner.params)
        dt = time.perf_counter() - t
        train_seconds += dt
        rate = n * per_update / dt
        log["throughput"].append({"step": int(runner.updates) * per_update, "updates": n,
                                  "seconds": round(dt, 2), "steps_per_second": round(rate),
                                  **{k: round(float(v), 5) for k, v in metrics.items()}})
        print(f"update {int(runner.updates):>7}  {rate:>10,.0f} steps/s (learning included)  "
              f"entropy {float(metrics['entropy']):.3f}  value loss "
              f"{float(metrics['value_loss']):.4f}  anchor KL {float(metrics['anchor_kl']):.3f}  "
              f"stake {float(metrics['stake']):.1f}  "
              f"deals {int(metrics['deals'] * n)}", flush=True)
        evaluation(train_seconds)
        checkpoint(train_seconds)
    if args.final_deals or args.final_pimc_deals:
        t = time.perf_counter()
        final = evaluate(runner.params, {"greedy": args.final_deals,
                                         "pimc": args.final_pimc_deals},
                         args.eval_seed + 1, rules, args.eval_jobs)
        final.update(step=int(runner.updates) * per_update, seconds=round(train_seconds, 1),
                     eval_seconds=round(time.perf_counter() - t, 1), seed=args.eval_seed + 1)
        log["final"] = final
        print(f"final ({args.final_deals} / {args.final_pimc_deals} other deals): "
              f"{describe(final)}", flush=True)
    checkpoint(train_seconds, last=True)
    return log


if __name__ == "__main__":
    main()
