"""Evaluation of a network in training: the project's duplicate tournament against the agents
of each kind, and the learning curve of a run's evaluations.

The network sits where :func:`lineup` says: in Mediatore and club Mediatore at one seat against
three opponents (the sides change every deal); in Partnership Tressette at both seats of one
partnership (``selfplay greedy selfplay greedy``); three- and two-handed at one seat. The
duplicate tournament rotates the lineup over the seats and deals the same packs in every
rotation.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from agents import SelfPlayAgent  # the package facade: wherever the agent lives
from mediatore_env.registry import get
from ..tournament import has_interval, run_tournament


def lineup(game: str, agent, opponent) -> list:
    """The seats of an evaluation: the network's side against the opponent's (see the module
    docstring)."""
    players = get(game).players
    if game == "tressette":  # two fixed partnerships: seats 0 and 2 against 1 and 3
        return [agent, opponent] * (players // 2)
    return [agent] + [opponent] * (players - 1)


def evaluate(params: dict, opponents: dict[str, int], seed: int, rules, jobs: int,
             game: str = "mediatore") -> dict:
    """Units per episode (a deal, a game to 31) of the network (its most likely legal move)
    against each opponent (:func:`lineup`), on ``opponents[name]`` duplicate episodes of
    ``seed`` (``rules``: the game's rules object), ``jobs`` processes. Per opponent: the mean
    and its 95% interval, the episodes, in Mediatore the share of its seat-plays the network
    declared, the seconds taken."""
    out = {}
    for opp, deals in opponents.items():
        if deals <= 0:
            continue
        agent = SelfPlayAgent(params=params, game=game)  # in numpy, as it will be played
        r = run_tournament(lineup(game, agent, opp), deals=deals, seed=seed, rules=rules,
                           jobs=jobs, game=game)
        s = r.standing("selfplay")
        out[f"vs_{opp}"] = {"mean": s.mean, "ci95": list(s.ci), "deals": deals,
                            "seconds": round(r.seconds, 1)}
        roles = s.stats.get("roles", {})  # Mediatore's hooks count the seat roles
        if "declarer" in roles:
            out[f"vs_{opp}"]["declarer_share"] = roles["declarer"]["count"] / s.plays
    return out


def is_best(evaluations: list[dict]) -> bool:
    """Whether the last evaluation is the first with the highest mean against greedy (the
    evaluations all play the same deals, so their means compare)."""
    scores = [e["vs_greedy"]["mean"] for e in evaluations if "vs_greedy" in e]
    return "vs_greedy" in evaluations[-1] and scores.index(max(scores)) == len(scores) - 1


def describe(ev: dict) -> str:
    """An evaluation in one line: ``vs greedy  +0.88 [-3.89, +5.64]`` per opponent (no
    interval over a single episode)."""
    return "   ".join(f"{k.replace('_', ' ')} {v['mean']:+6.2f}" + (
        f" [{v['ci95'][0]:+.2f}, {v['ci95'][1]:+.2f}]" if has_interval(v["ci95"]) else "")
        for k, v in ev.items() if k.startswith("vs_"))


def plot_curve(log: dict, png: Path) -> None:
    """The learning curve of a run's log: units per deal against steps and against wall time,
    with the 95% bands."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    evs = [e for e in log["evaluations"] if any(k.startswith("vs_") for k in e)]
    if not evs:
        return  # nothing measured (no evaluation, or evaluations of 0 deals)
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
            ax.plot(x, mean, "o-", color=color, ms=3, label=f"self-play vs {key[3:]}")
            ax.fill_between(x, [e[key]["ci95"][0] for e in pts],
                            [e[key]["ci95"][1] for e in pts], color=color, alpha=0.2)
        ax.axhline(0.0, color="grey", ls="--", lw=1)
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("units per episode (95% CI)")
    axes[0].legend(fontsize=8)
    cfg = log["config"]
    fig.suptitle(f"Self-play PPO on {cfg.get('game', 'mediatore')}'s JAX engine "
                 f"({cfg['envs']} at once, hidden "
                 f"{cfg['hidden']}; {log.get('device', '')})", fontsize=10)
    fig.tight_layout()
    fig.savefig(png)
    plt.close(fig)
