"""Imitation: a start for self-play, from the decisions of agents at play.

``examples/record_demos.py`` records the demonstrations (:mod:`agents.demos`); :func:`imitate`
trains a network to play the recorded moves and to value each decision at the payment that
followed; :func:`start_from` makes that network the start of self-play and the pool's first,
lasting member (the opponent that bids as imitated, and the anchor of ``anchor_coef``).
"""

from __future__ import annotations

import math
import time

import jax
import jax.numpy as jnp
import numpy as np
import optax

from .network import forward, masked_logits
from .ppo import Config, Runner


def imitate(params: dict, demos: dict, cfg: Config, epochs: int, batch: int, lr: float, key,
            say=print, temperature: float | None = None,
            margin: float | None = None) -> tuple[dict, list[dict]]:
    """``params`` trained to play the demonstrated moves (cross-entropy over the legal moves)
    and to value each decision at the payment its seat got at the end of the deal (scaled as
    the self-play reward, weighted ``cfg.vf_coef``), ``epochs`` passes of minibatches of
    ``batch`` decisions, Adam at ``lr``. The last twentieth of the deals is held out; returns
    the trained params and, per epoch, the held-out share of moves the network's most likely
    legal move matches, the held-out cross-entropy of the targets (``held_out_loss``) and the
    value error. ``demos`` are of any game (:func:`agents.demos.load_demos`) whose observation
    and moves the network's input and output fit.

    ``temperature``: where the demonstrations hold a search's move values (``values``), the
    target of a decision is ``softmax(values / temperature)`` over the moves it valued rather
    than the move played (:func:`value_targets`): PIMC's choice among moves it values alike
    is a coin toss, and its values say which moves were alike and which were far worse.
    ``margin``: the target is the move played unless the recorded values put another more
    than ``margin`` above it, then the best valued (:func:`corrected_moves`): demonstrations
    of greedy with pimc as the advisor teach greedy's play with pimc's clear corrections."""
    optimiser = optax.adam(lr)
    deal = demos["deal"]
    held = (deal >= np.quantile(deal, 0.95) if deal.max() > deal.min()
            else np.zeros_like(deal, bool))
    train_rows, held_rows = np.flatnonzero(~held), np.flatnonzero(held)
    if len(train_rows) < batch:
        raise ValueError(f"{len(train_rows)} demonstrated decisions to train on, fewer than one "
                         f"minibatch of {batch}")

    check_targets(demos, temperature, margin)
    moves = demos["move"].astype(np.int32)
    if margin is not None:
        moves = corrected_moves(demos["values"], moves, margin)
        say(f"imitation: {np.mean(moves != demos['move']):.1%} of the moves corrected by the "
            f"values (margin {margin})", flush=True)

    def losses(params, obs, mask, probs, target):
        logits, value = forward(params, obs)
        logp = jax.nn.log_softmax(masked_logits(logits, mask))
        nll = -jnp.sum(probs * logp, axis=1)
        return nll.mean() + cfg.vf_coef * jnp.mean((value - target) ** 2)

    @jax.jit
    def train_step(params, opt_state, obs, mask, probs, target):
        grads = jax.grad(losses)(params, obs.astype(jnp.float32), mask, probs, target)
        updates, opt_state = optimiser.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state

    @jax.jit
    def scores(params, obs, mask, probs, target, move):
        logits, value = forward(params, obs.astype(jnp.float32))
        masked = masked_logits(logits, mask)
        hit = jnp.argmax(masked, axis=1) == move
        nll = -jnp.sum(probs * jax.nn.log_softmax(masked), axis=1)
        return hit.sum(), nll.sum(), jnp.sum((value - target) ** 2)

    one_hot = np.eye(demos["mask"].shape[1], dtype=np.float32)  # made once, not per batch

    def rows(idx):
        move = moves[idx]
        probs = (value_targets(demos["values"][idx], move, temperature)
                 if temperature is not None else one_hot[move])
        return (demos["obs"][idx], demos["mask"][idx], probs,
                demos["payoff"][idx] * np.float32(cfg.reward_per_unit))

    opt_state, history = optimiser.init(params), []
    rng = np.random.default_rng(np.asarray(jax.random.key_data(key)).ravel().tolist())
    for epoch in range(epochs):
        t = time.perf_counter()
        order = rng.permutation(train_rows)
        for start in range(0, len(order) - batch + 1, batch):
            params, opt_state = train_step(params, opt_state,
                                           *rows(np.sort(order[start:start + batch])))
        hits = nll = sq = 0.0
        for start in range(0, len(held_rows), 4096):
            idx = held_rows[start:start + 4096]
            h, c, e = scores(params, *rows(idx), moves[idx])
            hits, nll, sq = hits + float(h), nll + float(c), sq + float(e)
        n = max(len(held_rows), 1)
        history.append({"epoch": epoch + 1, "held_out_match": round(hits / n, 4),
                        "held_out_loss": round(nll / n, 4),
                        "held_out_value_rmse": round(math.sqrt(sq / n), 4),
                        "seconds": round(time.perf_counter() - t, 1)})
        say(f"imitation epoch {epoch + 1}/{epochs}: {len(held_rows)} held-out decisions, "
            f"{hits / n:.1%} matched, loss {nll / n:.3f}, value RMSE {math.sqrt(sq / n):.3f} "
            f"({history[-1]['seconds']:.0f} s)", flush=True)
    return params, history


def check_targets(demos: dict, temperature: float | None, margin: float | None) -> None:
    """ValueError unless :func:`imitate` can learn ``demos`` so: ``temperature`` and ``margin``
    need the values of a search, and exclude each other."""
    if (temperature is not None or margin is not None) and "values" not in demos:
        raise ValueError("these demonstrations hold no move values (record a search agent, "
                         "such as pimc, or give record_demos.py an --advisor)")
    if temperature is not None and margin is not None:
        raise ValueError("imitate values at a temperature or moves corrected by a margin, "
                         "not both")


def value_targets(values: np.ndarray, move: np.ndarray, temperature: float) -> np.ndarray:
    """Per decision, ``softmax(values / temperature)`` over the moves with a value (``values``
    NaN elsewhere), or all on the move played where none has one."""
    valued = np.isfinite(values)
    scaled = np.where(valued, values, -np.inf) / temperature
    top = np.max(scaled, axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    weights = np.where(valued, np.exp(scaled - top), 0.0)
    unvalued = ~valued.any(axis=1)
    weights[unvalued, move[unvalued]] = 1.0
    return (weights / weights.sum(axis=1, keepdims=True)).astype(np.float32)


def corrected_moves(values: np.ndarray, move: np.ndarray, margin: float) -> np.ndarray:
    """``move``, but where the move played has a value and the best valued move (the lowest id
    of the best) is more than ``margin`` above it, that move."""
    valued = np.isfinite(values)
    scored = np.where(valued, values, -np.inf)
    best = scored.argmax(axis=1)
    played = scored[np.arange(len(move)), move]
    with np.errstate(invalid="ignore"):  # -inf - -inf where no move has a value
        gain = scored[np.arange(len(move)), best] - played
    return np.where(np.isfinite(played) & (gain > margin), best, move).astype(np.int32)


def start_from(runner: Runner, params: dict) -> Runner:
    """``runner`` with ``params`` as the network, a fresh optimiser, and a pool that holds
    ``params`` alone (its first slot keeps it for good: the opponent that bids as imitated)."""
    optimiser_init = jax.tree_util.tree_map(jnp.zeros_like, runner.opt_state)  # Adam starts at 0
    pool = jax.tree_util.tree_map(lambda p, q: jnp.broadcast_to(q, p.shape), runner.pool, params)
    return runner._replace(params=params, opt_state=optimiser_init, pool=pool)
