"""Train sb3-contrib's MaskablePPO to play one seat of Mediatore, on CPU.

    pip install -e ".[train]"
    python examples/train_ppo.py --steps 2000000 --out runs/ppo

The learner sits in a seat drawn each deal of
:class:`mediatore_env.mediatore.single_seat.MediatoreSeatEnv`;
the three other seats are played by a mix of opponents (``--opponents greedy=0.7,random=0.3``:
each deal, all three seats get the same kind of agent, drawn with these weights; ``self``
draws from a pool of the learner's own past versions, a snapshot taken at each evaluation).

Every ``--eval-every`` steps the current policy (its most likely legal move) plays a duplicate
tournament (:mod:`agents.tournament`) against three greedy agents and against three random
agents, on the same ``--eval-deals`` deals each time, scored in real units per deal with 95%
confidence intervals, whatever the training reward. At the end the final policy is measured
again on ``--final-deals`` other deals (a separate seed, so the figure reported is not the
maximum of many noisy evaluations).

``--imitate N`` first trains the policy by behaviour cloning on the greedy agent's decisions in
N deals (and the value head on the payments that followed), then runs PPO from there; 0 (the
default) starts PPO from a random network.

Writes to ``--out``: ``model.zip`` (``MaskablePPO.load``-able; ``examples/play_trained.py`` and
:class:`agents.ppo_agent.PPOAgent` play it), ``evaluations.json`` (the settings, every
evaluation and the final one) and ``learning_curve.png`` (units per deal against steps, with
the confidence bands).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

try:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv
except ImportError as e:  # one line naming the extra, not a traceback
    print(f"train_ppo.py: error: needs {e.name or e} (the train extra): pip install -e '.[train]'",
          file=sys.stderr)
    raise SystemExit(2) from None

from agents import GreedyAgent, RandomAgent, make_agent  # noqa: E402
from agents.ppo_agent import PPOAgent  # noqa: E402
from agents.tournament import run_tournament  # noqa: E402
from mediatore_env.mediatore.observation import Encoder  # noqa: E402
from mediatore_env.core.cards import NUM_CARDS  # noqa: E402
from mediatore_env.mediatore.game import Deal  # noqa: E402
from mediatore_env.mediatore.rules import max_payment  # noqa: E402
from mediatore_env.mediatore.single_seat import MediatoreSeatEnv  # noqa: E402
from mediatore_env.mediatore.rules import PRESETS, Rules  # noqa: E402
from mediatore_env.tools.checks import (ArgumentParser, check_agents, input_file,  # noqa: E402
                                       non_negative_int, output_dir, positive_int)


def parse_args(argv=None):
    p = ArgumentParser(prog="train_ppo.py", description=__doc__.split("\n\n")[0],
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--steps", type=positive_int, default=200_000,
                   help="PPO steps (learner decisions)")
    p.add_argument("--out", type=output_dir, default="runs/ppo", help="output directory")
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument("--rules", default="standard", choices=list(PRESETS), help="rules preset")
    p.add_argument("--opponents", default="greedy=0.7,random=0.3",
                   help="weights of the opponent kinds: agent specs (greedy, random, "
                        "module:Class) and 'self' (past versions of the learner)")
    p.add_argument("--eval-every", type=positive_int, default=50_000,
                   help="steps between evaluations")
    p.add_argument("--eval-deals", type=positive_int, default=200,
                   help="deals per evaluation tournament")
    p.add_argument("--eval-seed", type=non_negative_int, default=1_000)
    p.add_argument("--final-deals", type=positive_int, default=1_000,
                   help="deals of the final evaluation, on seed --eval-seed + 1")
    p.add_argument("--imitate", type=non_negative_int, default=0,
                   help="deals of behaviour cloning of the greedy agent before PPO (0: none)")
    p.add_argument("--imitate-epochs", type=positive_int, default=1)
    p.add_argument("--n-envs", type=positive_int, default=8)
    p.add_argument("--n-steps", type=positive_int, default=512,
                   help="rollout steps per env per update")
    p.add_argument("--batch-size", type=positive_int, default=1024)
    p.add_argument("--epochs", type=positive_int, default=4, help="PPO epochs per update")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--net", default="256,256", help="hidden layers of the policy and value nets")
    p.add_argument("--reward-scale", type=float, default=3.0,
                   help="reward = payment / largest payment (60) * this")
    p.add_argument("--pool-size", type=positive_int, default=5,
                   help="past versions kept for 'self'")
    p.add_argument("--threads", type=positive_int, default=1, help="torch threads")
    p.add_argument("--init", type=input_file, default=None,
                   help="continue training this saved model (its PPO settings; steps count on)")
    p.add_argument("--previous", type=input_file, default=None,
                   help="evaluations.json of the run --init continues, drawn on the curve")
    p.add_argument("--stage-note", default="continued", help="label of the stage boundary")
    args = p.parse_args(argv)
    try:  # before any training: a bad opponent or layer list fails at once
        check_agents([k for k in parse_weights(args.opponents) if k != "self"])
        layers(args.net)
    except ValueError as e:
        p.error(str(e))
    return args


def layers(text: str) -> list[int]:
    """``'256,256'`` -> hidden layer sizes; ValueError naming the text otherwise."""
    try:
        sizes = [int(x) for x in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 1:
        raise ValueError(f"bad --net {text!r}: expected layer sizes, e.g. 256,256")
    return sizes


def parse_weights(text: str) -> dict[str, float]:
    weights = {}
    for item in filter(None, (t.strip() for t in text.split(","))):
        name, _, w = item.rpartition("=")
        if not name:
            name, w = w, "1"
        try:
            weights[name] = float(w)
        except ValueError:
            weights.clear()
            break
    if not weights or min(weights.values()) < 0 or sum(weights.values()) <= 0:
        raise ValueError(f"bad --opponents {text!r}: expected e.g. greedy=0.7,random=0.3")
    return weights


class OpponentMix:
    """Draws the three opponents of each deal: one kind by weight, in all three seats.

    ``self`` plays a past version of the learner, sampled (not argmax) from its policy."""

    def __init__(self, weights: dict[str, float], pool: list):
        self.kinds = list(weights)
        w = np.array([weights[k] for k in self.kinds], float)
        self.p = w / w.sum()
        self.pool = pool  # shared with the training loop, which appends snapshots
        for kind in self.kinds:
            if kind != "self":
                make_agent(kind)  # fail early on a bad name

    def __call__(self, rng: np.random.Generator):
        kind = self.kinds[rng.choice(len(self.kinds), p=self.p)]
        if kind == "self":
            if not self.pool:
                kind = "greedy"
            else:
                policy = self.pool[rng.integers(len(self.pool))]
                return [PPOAgent(model=policy, deterministic=False) for _ in range(3)]
        return [make_agent(kind) for _ in range(3)]


def evaluate(policy, deals: int, seed: int, rules: Rules) -> dict:
    """Units per deal of the policy against three greedy and against three random agents."""
    out = {}
    for opp in ("greedy", "random"):
        agent = PPOAgent(model=policy)
        result = run_tournament([agent, opp, opp, opp], deals=deals, seed=seed, rules=rules)
        s = result.standing("ppo")
        out[f"vs_{opp}"] = {"mean": s.mean, "ci95": list(s.ci), "deals": deals,
                            "declarer_share": s.stats["roles"]["declarer"]["count"] / s.plays,
                            "contracts": s.stats["contracts"]}
    return out


def reference(deals: int, seed: int, rules: Rules) -> dict:
    """The baselines on the same deals: greedy against three random, random against three greedy."""
    out = {}
    for me, opp in (("greedy", "random"), ("random", "greedy")):
        r = run_tournament([me, opp, opp, opp], deals=deals, seed=seed, rules=rules)
        s = r.standing(me)
        out[f"{me}_vs_{opp}"] = {"mean": s.mean, "ci95": list(s.ci), "deals": deals}
    return out


class EvalCallback(BaseCallback):
    """Evaluates every ``every`` steps, snapshots the policy into the self-play pool, logs."""

    def __init__(self, args, rules, log: dict, pool: list, path: Path):
        super().__init__()
        self.args, self.rules, self.log, self.pool, self.path = args, rules, log, pool, path
        self.next_eval = args.eval_every
        self.start = time.perf_counter()

    def run_eval(self):
        t = time.perf_counter()
        self.model.policy.set_training_mode(False)
        ev = evaluate(self.model.policy, self.args.eval_deals, self.args.eval_seed, self.rules)
        ev.update(step=int(self.model.num_timesteps), seconds=round(time.perf_counter() - self.start, 1),
                  eval_seconds=round(time.perf_counter() - t, 1))
        self.log["evaluations"].append(ev)
        g, r = ev["vs_greedy"], ev["vs_random"]
        print(f"step {ev['step']:>9}  {ev['seconds']:>7.0f} s   vs 3 greedy {g['mean']:+6.2f} "
              f"[{g['ci95'][0]:+.2f}, {g['ci95'][1]:+.2f}]   vs 3 random {r['mean']:+6.2f} "
              f"[{r['ci95'][0]:+.2f}, {r['ci95'][1]:+.2f}]   declares {g['declarer_share']:.0%}"
              f" / {r['declarer_share']:.0%}", flush=True)
        if "self" in self.args.opponents:
            self.pool.append(copy.deepcopy(self.model.policy))
            del self.pool[:-self.args.pool_size]
        save_log(self.log, self.path)
        plot(self.log, self.path / "learning_curve.png")

    def _on_training_start(self):
        self.start = time.perf_counter()
        self.next_eval = self.model.num_timesteps + self.args.eval_every
        self.run_eval()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_eval:
            self.next_eval += self.args.eval_every
            self.run_eval()
        return True


# -- behaviour cloning warm start ---------------------------------------------------------------

def greedy_decisions(rules: Rules, deals: int, scale: float, rng):
    """(observations, masks, moves, returns) of the greedy agents' real choices in ``deals``
    deals: tables of four greedy agents, and one greedy agent against three random ones."""
    obs, masks, moves, returns = [], [], [], []
    for i in range(deals):
        table = [GreedyAgent() for _ in range(4)] if i % 3 else \
            [GreedyAgent()] + [RandomAgent() for _ in range(3)]
        order = rng.permutation(4)
        table = [table[k] for k in order]
        deal = Deal(rules, int(rng.integers(4)), rng.permutation(NUM_CARDS).tolist())
        for s, agent in enumerate(table):
            agent.reset(int(rng.integers(2 ** 62)))
        views = [deal.view(s) for s in range(4)]
        encoders = [Encoder() for _ in range(4)]
        mine = {s: [] for s in range(4)}
        while not deal.is_over:
            s = deal.to_move
            legal = deal.legal_moves()
            move = table[s].act(None, views[s])
            if len(legal) > 1 and isinstance(table[s], GreedyAgent):
                mine[s].append(len(obs))
                obs.append(encoders[s].encode(views[s]).copy())
                m = np.zeros(486, bool)
                m[legal] = True
                masks.append(m)
                moves.append(move)
                returns.append(0.0)
            deal.apply(move)
        for s, rows in mine.items():
            for k in rows:
                returns[k] = deal.payoffs[s] * scale
    return (np.array(obs), np.array(masks), np.array(moves), np.array(returns, np.float32))


def imitate(model, rules: Rules, deals: int, epochs: int, scale: float, seed: int) -> dict:
    """Behaviour cloning of the greedy agent: the policy learns its moves (cross-entropy under
    the mask), the value head the payments that followed; ``epochs`` passes over the
    decisions of ``deals`` deals (kept as float16), 5% of them held out to measure how often
    the policy's most likely move is the greedy agent's."""
    policy = model.policy
    rng = np.random.default_rng([seed, 77])
    t = time.perf_counter()
    parts = []
    for done in range(0, deals, 500):
        X, M, A, R = greedy_decisions(rules, min(500, deals - done), scale, rng)
        parts.append((X.astype(np.float16), np.packbits(M, axis=1), A, R))
    X = np.concatenate([p[0] for p in parts])
    M = np.concatenate([p[1] for p in parts])
    A = np.concatenate([p[2] for p in parts])
    R = np.concatenate([p[3] for p in parts])
    del parts
    n = len(X)
    held = rng.permutation(n)
    test, train = held[: n // 20], held[n // 20:]
    print(f"imitation: {n} greedy decisions from {deals} deals in "
          f"{time.perf_counter() - t:.0f} s", flush=True)

    def batch(idx):
        return (torch.as_tensor(X[idx].astype(np.float32)), torch.as_tensor(A[idx]),
                torch.as_tensor(np.unpackbits(M[idx], axis=1, count=486).astype(bool)),
                torch.as_tensor(R[idx]))

    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    steps_total = epochs * ((len(train) + 511) // 512)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-3, total_steps=steps_total)
    stats = {}
    for epoch in range(epochs):
        policy.set_training_mode(True)
        losses = []
        for b in range(0, len(train), 512):
            x, a, m, r = batch(np.sort(train[b:b + 512]))
            _, logp, _ = policy.evaluate_actions(x, a, action_masks=m)
            v = policy.predict_values(x).flatten()
            pl, vl = -logp.mean(), torch.nn.functional.mse_loss(v, r)
            loss = pl + 0.5 * vl
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            opt.step()
            sched.step()
            losses.append((pl.item(), vl.item()))
        rng.shuffle(train)
        policy.set_training_mode(False)
        with torch.no_grad():
            hits, vls = 0, []
            for b in range(0, len(test), 2048):
                x, a, m, r = batch(test[b:b + 2048])
                dist = policy.get_distribution(x, action_masks=m.numpy())
                hits += int((dist.distribution.probs.argmax(1) == a).sum())
                vls.append(float(torch.nn.functional.mse_loss(policy.predict_values(x).flatten(), r)))
        pl, vl = np.mean(losses, axis=0)
        stats = {"deals": deals, "decisions": n, "epochs": epoch + 1,
                 "policy_loss": round(float(pl), 4), "value_loss": round(float(vl), 4),
                 "held_out_agreement": round(hits / len(test), 4),
                 "held_out_value_loss": round(float(np.mean(vls)), 4),
                 "seconds": round(time.perf_counter() - t, 1)}
        print(f"imitation epoch {epoch + 1}/{epochs}: policy loss {pl:.3f}, value loss {vl:.4f}, "
              f"held-out agreement with greedy {hits / len(test):.1%}, "
              f"{stats['seconds']:.0f} s", flush=True)
    return stats


# -- output -------------------------------------------------------------------------------------

def code_version() -> dict:
    """The git commit of the checkout and its changed files (the agents evolve)."""
    import subprocess
    root = Path(__file__).resolve().parent.parent

    def git(*a):
        try:
            return subprocess.run(["git", *a], cwd=root, capture_output=True, text=True,
                                  timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return None
    status = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": git("rev-parse", "HEAD"),
            "changed": status.splitlines() if status else []}


def save_log(log: dict, path: Path) -> None:
    with open(path / "evaluations.json", "w") as f:
        json.dump(log, f, indent=1)


def plot(log: dict, png: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    evs = log["evaluations"]
    if not evs:
        return
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=90)
    previous = (log.get("previous") or {}).get("evaluations") or []
    stages = [(previous, ":", 0.1, " (first stage)"), (evs, "-", 0.2, "")] if previous else \
        [(evs, "-", 0.2, "")]
    for stage, ls, alpha, suffix in stages:
        steps = np.array([e["step"] for e in stage]) / 1e6
        for key, color, label in (("vs_random", "tab:green", "PPO vs 3 random"),
                                  ("vs_greedy", "tab:blue", "PPO vs 3 greedy")):
            mean = np.array([e[key]["mean"] for e in stage])
            lo = np.array([e[key]["ci95"][0] for e in stage])
            hi = np.array([e[key]["ci95"][1] for e in stage])
            ax.plot(steps, mean, "o" + ls, color=color, ms=3, label=label + suffix)
            ax.fill_between(steps, lo, hi, color=color, alpha=alpha)
    if previous:
        ax.axvline(evs[0]["step"] / 1e6, color="grey", lw=0.8)
        ax.annotate(log.get("stage_note", "continued"), (evs[0]["step"] / 1e6, 0.5),
                    textcoords="offset points", xytext=(-4, 0), fontsize=8, rotation=90,
                    ha="right", va="bottom", color="grey")
    first = previous or evs
    ref = log.get("reference", {})
    if "greedy_vs_random" in ref:
        ax.axhline(ref["greedy_vs_random"]["mean"], color="tab:green", ls="--", lw=1,
                   label="greedy vs 3 random")
    ax.axhline(0.0, color="tab:blue", ls="--", lw=1, label="greedy vs 3 greedy (0)")
    if ((log.get("previous") or {}).get("config") or log.get("config", {})).get("imitate"):
        ax.annotate("after imitation", (first[0]["step"] / 1e6, first[0]["vs_greedy"]["mean"]),
                    textcoords="offset points", xytext=(5, -14), fontsize=8)
    ax.set_xlabel("PPO steps (millions of learner decisions)")
    ax.set_ylabel("units per deal (95% CI)")
    cfg = log.get("config", {})
    ax.set_title(f"MaskablePPO on Mediatore ({cfg.get('eval_deals')} duplicate deals per point)",
                 fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="center right")
    fig.tight_layout()
    fig.savefig(png)
    plt.close(fig)


def main(argv=None):
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rules = Rules.preset(args.rules)
    weights = parse_weights(args.opponents)
    scale = args.reward_scale / max_payment(rules)
    pool: list = []
    mix = OpponentMix(weights, pool)

    def make_env(rank):
        def thunk():
            return MediatoreSeatEnv(mix, rules=rules, reward_scale=scale, skip_forced=True)
        return thunk

    venv = DummyVecEnv([make_env(k) for k in range(args.n_envs)])
    venv.seed(args.seed)
    net = layers(args.net)
    if args.init:
        model = MaskablePPO.load(args.init, env=venv, device="cpu")
    else:
        model = MaskablePPO(
            "MlpPolicy", venv, learning_rate=args.lr, n_steps=args.n_steps,
            batch_size=args.batch_size, n_epochs=args.epochs, gamma=1.0,
            gae_lambda=args.gae_lambda, clip_range=args.clip, ent_coef=args.ent_coef,
            policy_kwargs=dict(net_arch=net), seed=args.seed, device="cpu", verbose=0)

    log = {"format": "mediatore-ppo-training", "config": vars(args),
           "machine": {"python": platform.python_version(), "torch": torch.__version__,
                       "cpus": os.cpu_count(), "threads": args.threads},
           "code": code_version(), "stage_note": args.stage_note, "evaluations": []}
    if args.previous:
        with open(args.previous) as f:
            previous = json.load(f)
        log["previous"] = {k: previous.get(k) for k in ("config", "code", "evaluations", "final",
                                                       "timing", "imitation")}
    t0 = time.perf_counter()
    log["reference"] = reference(args.eval_deals, args.eval_seed, rules)
    if args.imitate:
        log["imitation"] = imitate(model, rules, args.imitate, args.imitate_epochs, scale,
                                   args.seed)
    callback = EvalCallback(args, rules, log, pool, out)
    t1 = time.perf_counter()
    model.learn(total_timesteps=args.steps, callback=callback,
                reset_num_timesteps=not args.init)
    train_seconds = time.perf_counter() - t1
    if callback.log["evaluations"][-1]["step"] < model.num_timesteps:
        callback.run_eval()
    model.save(out / "model.zip")
    eval_seconds = sum(e["eval_seconds"] for e in log["evaluations"])
    log["timing"] = {"total_seconds": round(time.perf_counter() - t0, 1),
                     "ppo_seconds": round(train_seconds, 1),
                     "eval_seconds_in_ppo": round(eval_seconds, 1),
                     "steps": int(model.num_timesteps),
                     "ppo_steps_per_second": round(args.steps / max(1e-9, train_seconds - eval_seconds), 1)}
    print("final evaluation ...", flush=True)
    log["final"] = evaluate(model.policy, args.final_deals, args.eval_seed + 1, rules)
    log["final"]["reference"] = reference(args.final_deals, args.eval_seed + 1, rules)
    log["timing"]["total_seconds"] = round(time.perf_counter() - t0, 1)
    save_log(log, out)
    plot(log, out / "learning_curve.png")
    for key in ("vs_greedy", "vs_random"):
        f = log["final"][key]
        print(f"final {key}: {f['mean']:+.2f} units/deal, 95% CI [{f['ci95'][0]:+.2f}, "
              f"{f['ci95'][1]:+.2f}] over {f['deals']} deals")
    print(f"{model.num_timesteps} steps in {log['timing']['total_seconds']:.0f} s; wrote "
          f"{out}/model.zip, evaluations.json, learning_curve.png")


if __name__ == "__main__":
    main()
