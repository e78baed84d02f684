"""Train the card-play model of ``pimc-infer`` (:mod:`agents.mediatore.infer`) on these cores.

Two steps, one command (``python3 -m agents.training.infer``; docs/infer.md has the measured
time):

1. **Record**: play ``--deals`` deals of ``--seed`` with four ``pimc`` agents (:data:`SPEC`; the
   packs, dealers and agent seeds of the duplicate tournament's first rotation) and keep each
   deal's dealer, pack and moves (``--records``, JSON lines: a deal replays exactly from them).
2. **Fit**: every card play with a choice, by every seat, is one example: the features of each
   legal card (:func:`agents.mediatore.infer.play_features`, the seat's hand as it was and the
   public history) and the card played. The weights maximise the likelihood of the cards played
   under the softmax over the legal cards (a conditional logit), by Newton's method with a small
   ridge penalty; they are written to ``--out`` (an .npz of float64 weights, read with numpy).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.rules import Rules
from mediatore_env.runinfo import (ArgumentParser, add_progress_options, check_output_file,
                                   command, counting, wants_progress)

from ..registry import make_agent
from ..base import play
from ..mediatore.infer import DEFAULT_MODEL, FEATURE_NAMES, examples_of_deal
from ..mediatore.tournament import HOOKS
from ..tournament import derive_seed

#: The recorded players: ``pimc`` at its node budget, without the CPU-time limit, so that the
#: records (and the weights) come out the same on any machine.
SPEC = "pimc:time_limit=None"
PROG = "python3 -m agents.training.infer"


def record(path, deals: int, seed: int, spec: str = SPEC, progress=False) -> None:
    """Play deals ``0 .. deals - 1`` of ``seed`` with four ``spec`` agents and write each as a
    JSON line ``{"dealer", "pack", "moves"}`` to ``path`` (written whole or not at all).
    ``progress``: True shows a progress bar on stderr, or ``progress(n)`` is called as deals
    are recorded."""
    path = Path(path)
    agents = [make_agent(spec) for _ in range(4)]
    rules = Rules()
    lines = []
    with counting(progress, deals, "deals") as tick:
        for index in range(deals):
            deal = play(Deal(rules, HOOKS.dealer(index, 4), HOOKS.pack(seed, index, 0)), agents,
                        seeds=[derive_seed(seed, index, s) for s in range(4)])
            lines.append(json.dumps({"dealer": deal.dealer, "pack": list(deal.pack),
                                     "moves": [m for _, m in deal.history]}))
            if tick:
                tick(1)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n")
    tmp.rename(path)


def load_records(path) -> list[Deal]:
    """The deals of a file written by :func:`record`, replayed."""
    deals = []
    for line in Path(path).read_text().splitlines():
        r = json.loads(line)
        deal = Deal(Rules(), r["dealer"], r["pack"])
        for m in r["moves"]:
            deal.apply(m)
        deals.append(deal)
    return deals


def fit(examples, ridge: float = 1.0, steps: int = 30) -> np.ndarray:
    """The weights maximising the log-likelihood of the cards played, less ``ridge/2 |w|^2``.

    ``examples``: (features ``[k, F]`` of the ``k`` legal cards, index of the card played)."""
    width = len(FEATURE_NAMES)
    w = np.zeros(width)
    for _ in range(steps):
        grad = -ridge * w
        hess = -ridge * np.eye(width)
        for x, played in examples:
            z = x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            mean = p @ x
            grad += x[played] - mean
            hess -= (x * p[:, None]).T @ x - np.outer(mean, mean)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def log_likelihood(examples, w) -> float:
    """Mean log-probability of the card played, per example."""
    total = 0.0
    for x, played in examples:
        z = x @ w
        total += z[played] - z.max() - np.log(np.exp(z - z.max()).sum())
    return total / len(examples)


@command(PROG)  # Ctrl-C: one line and status 130 (the records are written whole or not at all)
def main(argv=None) -> int:
    ap = ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1000, help="deals to record (default 1000)")
    ap.add_argument("--seed", type=int, default=9026,
                    help="seed of the recorded deals (default 9026)")
    ap.add_argument("--records", default="infer-records.jsonl",
                    help="the recorded deals; kept, and reused when present (default %(default)s)")
    ap.add_argument("--out", default=str(DEFAULT_MODEL),
                    help="the weights (default: the shipped file)")
    ap.add_argument("--ridge", type=float, default=1.0, help="L2 penalty (default 1.0)")
    add_progress_options(ap)
    args = ap.parse_args(argv)
    if args.deals < 5 or args.seed < 0 or not args.ridge > 0:
        ap.error(f"need --deals of 5 or more (one in five is held out), --seed >= 0 and "
                 f"--ridge > 0; got {args.deals}, {args.seed}, {args.ridge}")
    check_output_file(ap, "--out", args.out)
    if Path(args.records).is_dir():
        ap.error(f"--records {args.records} is a folder, not the file of recorded deals")
    start = time.time()
    if not Path(args.records).exists():
        record(args.records, args.deals, args.seed, progress=wants_progress(args.progress))
        print(f"recorded {args.deals} deals in {time.time() - start:.0f} s", flush=True)
    try:
        deals = load_records(args.records)
    except (OSError, ValueError, KeyError, TypeError, IndexError, RecursionError) as e:
        message = str(e).splitlines()[0][:200] if str(e) else ""
        ap.error(f"--records {args.records}: not deals recorded by this command "
                 f"({type(e).__name__}: {message})")
    if len(deals) < 5:
        ap.error(f"--records {args.records}: {len(deals)} deals; the fit needs 5 or more (one "
                 "in five is held out)")
    examples = [e for d in deals for e in examples_of_deal(d)]
    held = [e for i, d in enumerate(deals) if i % 5 == 0 for e in examples_of_deal(d)]
    train = [e for i, d in enumerate(deals) if i % 5 != 0 for e in examples_of_deal(d)]
    w_check = fit(train, args.ridge)
    uniform = float(np.mean([-np.log(len(x)) for x, _ in held]))
    print(f"held-out log-likelihood per card: model {log_likelihood(held, w_check):.4f}, "
          f"uniform {uniform:.4f} ({len(held)} plays of {len(deals[::5])} deals)")
    w = fit(examples, args.ridge)
    np.savez(args.out, weights=w, names=np.array(FEATURE_NAMES))
    print(f"{len(examples)} card plays of {len(deals)} deals; weights written to {args.out} "
          f"in {time.time() - start:.0f} s")
    for name, value in zip(FEATURE_NAMES, w):
        print(f"  {name:24s} {value:+.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
