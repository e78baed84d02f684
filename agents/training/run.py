"""A training run: imitation first if asked, then updates cut by evaluations, with the files
written along the way. ``examples/train_selfplay.py`` is its command line.

    from agents.training import Config, Plan, self_play
    log = self_play(Config(envs=64, hidden=(128, 128)), Plan(steps=200_000, out="runs/sp"))

:class:`Plan` says what happens around the updates; :func:`self_play` does it:

- **a start** (``init``, not with ``resume``): a saved network of the game (a run's
  ``network.npz``, a shipped file) instead of a random one, also the pool's first member;
- **imitation** (``demos``, not with ``resume``): the network first learns the moves recorded
  in that folder (:func:`agents.training.imitation.imitate`), and self-play starts from it;
  with ``init``, the imitation starts from that network (a fine-tune on other demonstrations);
- **resume** (``resume``): a checkpoint's network, optimiser, pool and counters, and the curve
  of the ``evaluations.json`` beside it;
- **evaluations** every ``eval_every`` steps (rounded to whole updates), on the same deals
  each time (seed ``eval_seed``): the network, as :class:`agents.selfplay.SelfPlayAgent` plays
  it, against three greedy agents (``eval_deals``) and three PIMC agents (``pimc_deals``); at
  the end on other deals (``final_deals``, ``final_pimc_deals``, seed ``eval_seed`` + 1);
- **files** in ``out``: ``network.npz`` (the network alone: ``mediatore-bench --agents
  selfplay:path=runs/selfplay/network.npz greedy greedy greedy``), ``best.npz`` (the network
  of the best evaluation against greedy so far, a resumed run's included, so a run that gets
  worse does not lose it; picked on the evaluation deals, so its mean there flatters it:
  measure it again on other deals), ``checkpoint.npz`` (what ``resume`` continues),
  ``evaluations.json`` (the settings, the throughput, every evaluation) and
  ``learning_curve.png`` (units per deal against steps and against wall time).
"""

from __future__ import annotations

import dataclasses
import json
import math
import platform
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import jax
import numpy as np

from mediatore_env.registry import get
from mediatore_env.runinfo import counting, json_text, say_above

from ..demos import load_demos
from ..selfplay import load_network
from .checkpoint import (check_widths, load_checkpoint, network_arrays, read_checkpoint,
                         save_checkpoint)
from .evaluation import describe, evaluate, is_best, plot_curve
from .imitation import check_targets, imitate, start_from
from .ppo import Config, Runner, Train, engine_of, make_train


@dataclass(frozen=True)
class Plan:
    """What a run does around the updates, each default here alone (the command line spells
    them ``--steps``, ``--eval-every``...)."""
    steps: int = 2_000_000         # environment steps in all (with resume: the checkpoint's too)
    seed: int = 0                  # of the network's initialisation, the deals, the draws
    eval_every: int = 500_000      # environment steps between evaluations
    eval_deals: int = 200          # duplicate deals against three greedy agents per evaluation
    pimc_deals: int = 20           # duplicate deals against three PIMC agents per evaluation
    eval_seed: int = 1_000         # the evaluations' deals; the final one's: this + 1
    eval_jobs: int = 1             # processes for the tournaments
    final_deals: int = 1_000       # deals of the final evaluation against greedy
    final_pimc_deals: int = 100    # deals of the final evaluation against PIMC
    out: str = "runs/selfplay"     # the folder of the run's files
    demos: str | None = None       # imitate the decisions recorded in this folder first
    imitate_epochs: int = 4        # passes over the demonstrations
    imitate_batch: int = 512       # decisions per minibatch of imitation
    imitate_lr: float = 1e-3       # Adam's learning rate for imitation
    imitate_temperature: float | None = None  # imitate softmax(the search's values / this)
    imitate_margin: float | None = None  # correct the moves the values put this far below
    resume: str | None = None      # continue from this checkpoint.npz
    init: str | None = None        # start from this saved network rather than a random one


class SettingError(ValueError):
    """A setting the run cannot follow (a folder without demonstrations, a checkpoint of other
    settings); ``setting`` names it as :class:`Plan` does."""

    def __init__(self, setting: str, message: str):
        super().__init__(message)
        self.setting = setting


def self_play(cfg: Config, plan: Plan = Plan(), env=None, train: Train | None = None,
              say: Callable = print, command: str = "", progress=False) -> dict:
    """Run ``plan`` with the updates of ``cfg``; return the log (also written to
    ``evaluations.json``). ``env``: the engine to train on (default the JAX engine of
    ``cfg.game``, Mediatore's under ``cfg.rules``); ``train``: ``make_train(cfg, env)`` made already (its compilations are
    kept, so a second run of the same settings compiles nothing); ``say``: where the progress
    lines go; ``command``: the command line, for the log; ``progress``: True shows a bar of the
    environment steps on stderr (tqdm's: a widget in a notebook), moved at each evaluation, or
    ``progress(n)`` is called with the steps of each chunk of updates. Raises
    :class:`SettingError` for a folder without demonstrations or a checkpoint that does not
    fit."""
    demos = start = None
    if plan.init:
        with blame("init"):  # before compiling anything
            if plan.resume:
                raise ValueError("a resumed run goes on with its checkpoint's network; give "
                                 "--init or --resume, not both")
            start, _ = load_network(plan.init, cfg.game, who="")
            check_widths(start, cfg.hidden, plan.init)
    if plan.demos and not plan.resume:
        with blame("demos"):  # before compiling anything
            demos = load_demos(plan.demos)
            if str(demos["game"]) != cfg.game:
                raise ValueError(f"{plan.demos} holds demonstrations of {demos['game']}, not of "
                                 f"{cfg.game} (record them with examples/record_demos.py "
                                 f"--game {cfg.game})")
            check_targets(demos, plan.imitate_temperature, plan.imitate_margin)
    if plan.resume:
        with blame("resume"):  # before compiling anything too
            check_resumable(plan.resume, cfg)
    if train is None:
        train = make_train(cfg, env)
    elif train.cfg != cfg:
        raise ValueError(f"train was made for {train.cfg}, not {cfg}")
    runner = train.init(jax.random.PRNGKey(plan.seed))
    log = {"config": {**cfg._asdict(), **dataclasses.asdict(plan), "hidden": list(cfg.hidden),
                      "reward_scale_per_unit": cfg.reward_per_unit},
           "device": f"{jax.devices()[0].device_kind} ({jax.default_backend()})",
           "machine": f"{platform.node()} {platform.processor() or platform.machine()}",
           "command": command, "evaluations": [], "throughput": []}
    train_seconds = 0.0
    if start is not None:
        runner = start_from(runner, {k: jax.numpy.asarray(v) for k, v in start.items()})
    if demos is not None:
        runner = imitation_start(runner, demos, cfg, plan, log, say)
        del demos  # gigabytes, for a long run
    if plan.resume:
        runner, train_seconds = resume(runner, cfg, plan, log, say)
    out = Path(plan.out)  # made once the settings are known to be good
    out.mkdir(parents=True, exist_ok=True)
    per_update = cfg.envs * cfg.rollout
    total_updates = math.ceil(plan.steps / per_update)
    chunk = max(1, plan.eval_every // per_update)
    rules = engine_of(cfg.game, cfg.rules).rules  # of the game the evaluations play
    first = runner.params["layer0/w" if "layer0/w" in runner.params else "policy/w"]
    shape = {"game": cfg.game, "observation_size": int(first.shape[0]),
             "num_actions": int(runner.params["policy/b"].shape[0])}
    plotted = [-math.inf]

    def meta() -> dict:
        return {**shape, "steps": int(runner.updates) * per_update,
                "updates": int(runner.updates), "train_seconds": round(train_seconds, 1),
                "rules": cfg.rules, "hidden": list(cfg.hidden),
                "trained_by": "python -m agents.training", "command": command,
                "device": log["device"],
                "last_evaluation": log["evaluations"][-1] if log["evaluations"] else None}

    def save(last: bool = False) -> None:
        np.savez(out / "network.npz", **network_arrays(runner.params, meta()))
        save_checkpoint(out / "checkpoint.npz", runner, meta())
        (out / "evaluations.json").write_text(json_text(log))
        if last or time.perf_counter() - plotted[0] > 60:  # a chart costs seconds on a CPU
            plot_curve(log, out / "learning_curve.png")
            plotted[0] = time.perf_counter()

    def evaluation() -> None:
        t = time.perf_counter()
        ev = evaluate(runner.params, {"greedy": plan.eval_deals, "pimc": plan.pimc_deals},
                      plan.eval_seed, rules, plan.eval_jobs, cfg.game)
        ev.update(step=int(runner.updates) * per_update, seconds=round(train_seconds, 1),
                  eval_seconds=round(time.perf_counter() - t, 1))
        log["evaluations"].append(ev)
        say(f"step {ev['step']:>11,}  {train_seconds:7.0f} s   {describe(ev)}", flush=True)
        if is_best(log["evaluations"]):
            np.savez(out / "best.npz", **network_arrays(runner.params, meta()))

    with counting(progress, total_updates * per_update, "steps") as tick:
        say = say_above(tick is not None and not callable(progress), say)
        if tick and runner.updates:
            tick(int(runner.updates) * per_update)  # a resumed run's steps
        if not log["evaluations"]:
            evaluation()
        while int(runner.updates) < total_updates:
            n = min(chunk, total_updates - int(runner.updates))
            runner, seconds = run_chunk(train, cfg, runner, n, log, say)
            train_seconds += seconds
            evaluation()
            save()
            if tick:
                tick(n * per_update)
    if plan.final_deals or plan.final_pimc_deals:
        t = time.perf_counter()
        final = evaluate(runner.params, {"greedy": plan.final_deals,
                                         "pimc": plan.final_pimc_deals},
                         plan.eval_seed + 1, rules, plan.eval_jobs, cfg.game)
        final.update(step=int(runner.updates) * per_update, seconds=round(train_seconds, 1),
                     eval_seconds=round(time.perf_counter() - t, 1), seed=plan.eval_seed + 1)
        log["final"] = final
        say(f"final ({plan.final_deals} / {plan.final_pimc_deals} other {get(cfg.game).unit}s): "
            f"{describe(final)}", flush=True)
    save(last=True)
    return log


@contextmanager
def blame(setting: str):
    """Turns the ValueError (or OSError) of a setting's file into a :class:`SettingError`."""
    try:
        yield
    except (OSError, ValueError) as e:
        raise SettingError(setting, str(e)) from None


def imitation_start(runner: Runner, demos: dict, cfg: Config, plan: Plan, log: dict,
                    say) -> Runner:
    """``runner`` starting from the imitation of ``demos`` (:func:`agents.demos.load_demos`);
    the imitation's epochs go to ``log``."""
    with blame("demos"):
        first = runner.params["layer0/w" if "layer0/w" in runner.params else "policy/w"]
        want = (int(first.shape[0]), int(runner.params["policy/b"].shape[0]))
        got = (demos["obs"].shape[1], demos["mask"].shape[1])
        if got != want:
            raise ValueError(f"the demonstrations' observations and moves are {got[0]} and "
                             f"{got[1]} wide, the network's {want[0]} and {want[1]}")
        params, log["imitation"] = imitate(runner.params, demos, cfg, plan.imitate_epochs,
                                           plan.imitate_batch, plan.imitate_lr, runner.key,
                                           say=say, temperature=plan.imitate_temperature,
                                           margin=plan.imitate_margin)
    log["imitation_decisions"] = len(demos["move"])
    return start_from(runner, params)


def check_resumable(path: str, cfg: Config) -> None:
    """Raises ValueError unless ``path`` is a checkpoint of ``cfg``'s game and rules."""
    _, meta = read_checkpoint(path)
    if meta.get("game", "mediatore") != cfg.game:
        raise ValueError(f"{path} was trained on --game {meta['game']}, not {cfg.game} (give "
                         "the same --game)")
    if meta.get("rules", cfg.rules) != cfg.rules:
        raise ValueError(f"{path} was trained under --rules {meta['rules']}, not {cfg.rules} "
                         "(give the same --rules)")


def resume(runner: Runner, cfg: Config, plan: Plan, log: dict, say) -> tuple[Runner, float]:
    """``runner`` as the checkpoint ``plan.resume`` left it, and its seconds of training; the
    curve of the ``evaluations.json`` beside the checkpoint goes on in ``log``."""
    with blame("resume"):
        runner, meta = load_checkpoint(plan.resume, runner)
    previous = Path(plan.resume).with_name("evaluations.json")
    if previous.is_file():
        old = json.loads(previous.read_text())
        log["evaluations"] = old.get("evaluations", [])
        log["throughput"] = old.get("throughput", [])
    say(f"resumed {plan.resume}: {int(runner.updates)} updates, "
        f"{int(runner.updates) * cfg.envs * cfg.rollout} steps", flush=True)
    return runner, meta.get("train_seconds", 0.0)


def run_chunk(train: Train, cfg: Config, runner: Runner, n: int, log: dict,
              say) -> tuple[Runner, float]:
    """``n`` updates in one call (compiled first if need be, its time logged apart); their
    throughput and losses go to ``log``. Returns the runner and the seconds of training."""
    if n not in train.executables:
        t = time.perf_counter()
        train.compiled(runner, n)
        log.setdefault("compile_seconds", []).append(round(time.perf_counter() - t, 1))
        say(f"compiled {n} updates of {cfg.envs} x {cfg.rollout} steps in "
            f"{log['compile_seconds'][-1]:.0f} s", flush=True)
    t = time.perf_counter()
    runner, metrics = train.compiled(runner, n)(runner)
    jax.block_until_ready(runner.params)
    dt = time.perf_counter() - t
    per_update = cfg.envs * cfg.rollout
    rate = n * per_update / dt
    log["throughput"].append({"step": int(runner.updates) * per_update, "updates": n,
                              "seconds": round(dt, 2), "steps_per_second": round(rate),
                              **{k: round(float(v), 5) for k, v in metrics.items()}})
    say(f"update {int(runner.updates):>7}  {rate:>10,.0f} steps/s (learning included)  "
        f"entropy {float(metrics['entropy']):.3f}  value loss "
        f"{float(metrics['value_loss']):.4f}  anchor KL {float(metrics['anchor_kl']):.3f}  "
        f"stake {float(metrics['stake']):.1f}  deals {int(metrics['deals'] * n)}", flush=True)
    return runner, dt
