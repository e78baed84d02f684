"""Fit the greedy agent's hand evaluations by simulation (how the numbers in greedy.py were made).

    python3 -m agents.mediatore.calibrate --packs 3000 --seed 7 --jobs 2

For each pack and each seat, the seat is made declarer of each contract in turn (the others
pass), and four greedy agents play the deal out. From these games:

- ``STRENGTH`` (printed for reference; greedy.py starts from such a fit and adjusts it by
  duplicate A/B tests): least squares of the thirds the declarer took, playing alone with no
  monte (Solissimo and Arcisolissimo), on the features of its 9 cards;
- ``BID_MODELS[c]``: logistic regression of "the declarer's side made contract c" on the
  features of the declarer's hand *before* the auction, so each includes what the call, the
  monte and the partner bring on average to that contract; plus a term for leading first.

It prints the fitted tables as Python to paste into greedy.py. The games use the greedy agent
as it is, so re-run it after changing the play. The models in greedy.py come from
``--packs 3000 --seed 8`` (60,000 games, about 70 s on 2 cores with ``--jobs 2``).
"""

from __future__ import annotations

import time
import zipfile

import numpy as np

from mediatore_env.mediatore.tables import forced_deal
from mediatore_env.mediatore.rules import CONTRACT_NAMES, CONTRACTS, Rules
from mediatore_env.runinfo import ArgumentParser, check_output_file

from ..base import play
from .greedy import FEATURES, hand_features
from .tournament import HOOKS


def _simulate(args):
    rules, seed, start, stop, contracts, agent_spec = args
    from ..registry import make_agent
    agents = [make_agent(agent_spec) for _ in range(4)]
    rows = []
    for i in range(start, stop):
        pack, dealer = HOOKS.pack(seed, i, 0), HOOKS.dealer(i, 4)
        for declarer in range(4):
            for contract in contracts:
                deal = forced_deal(rules, pack, dealer, declarer, contract)
                hand = deal.hands[declarer]
                leads = int(rules.first_leader(contract, declarer, deal.mano) == declarer)
                play(deal, agents, seeds=[i * 4 + s for s in range(4)])
                rows.append((contract, hand_features(hand), leads, deal.side_thirds()[0],
                             int(deal.declarer_won), deal.payoffs[declarer]))
    return rows


def simulate(packs: int, seed: int, rules: Rules, contracts=CONTRACTS, jobs: int = 1,
             agent: str = "greedy"):
    chunks = [(rules, seed, i, min(i + 20, packs), tuple(contracts), agent) for i in range(0, packs, 20)]
    rows = []
    if jobs == 1:
        for c in chunks:
            rows.extend(_simulate(c))
    else:
        import multiprocessing
        with multiprocessing.Pool(jobs) as pool:
            for part in pool.imap(_simulate, chunks):
                rows.extend(part)
    return rows


def fit_ols(X: np.ndarray, y: np.ndarray, l2: float = 1.0) -> np.ndarray:
    A = np.column_stack([np.ones(len(X)), X])
    reg = l2 * np.eye(A.shape[1])
    reg[0, 0] = 0.0
    return np.linalg.solve(A.T @ A + reg, A.T @ y)


def fit_logistic(X: np.ndarray, y: np.ndarray, l2: float = 1.0, iters: int = 50) -> np.ndarray:
    """Logistic regression by Newton's method with a small ridge penalty; [bias, weights...]."""
    A = np.column_stack([np.ones(len(X)), X])
    w = np.zeros(A.shape[1])
    reg = l2 * np.eye(A.shape[1])
    reg[0, 0] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(A @ w)))
        grad = A.T @ (p - y) + reg @ w
        H = (A * (p * (1 - p))[:, None]).T @ A + reg
        step = np.linalg.solve(H, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def _fmt_weights(w) -> str:
    return "{" + ", ".join(f'"{name}": {x:.3f}' for name, x in zip(FEATURES, w) if abs(x) >= 0.0005) + "}"


def main(argv=None):
    # the project's parser (a bad argument is one line), and every argument checked before
    # the games are simulated
    p = ArgumentParser(prog="python3 -m agents.mediatore.calibrate",
                       description=__doc__.split("\n")[0])
    p.add_argument("--packs", type=int, default=2000)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--agent", default="greedy")
    p.add_argument("--save", help="save the simulated games (npz) here")
    p.add_argument("--load", help="fit games saved by --save instead of simulating")
    args = p.parse_args(argv)
    if args.packs < 1 or args.jobs < 1 or args.seed < 0:
        p.error(f"need --packs and --jobs of 1 or more and --seed >= 0; got {args.packs}, "
                f"{args.jobs}, {args.seed}")
    try:
        from ..registry import make_agent
        make_agent(args.agent)
    except ValueError as e:
        p.error(f"--agent: {e}")
    if args.save:
        check_output_file(p, "--save", args.save)
    if args.load:
        try:
            data = np.load(args.load)
            if not hasattr(data, "files"):  # a .npy: one array
                raise ValueError("one array, not an .npz")
            contract, X, leads, thirds, won, payoff = (data[k] for k in (
                "contract", "X", "leads", "thirds", "won", "payoff"))
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
            p.error(f"--load {args.load}: not the games --save writes "
                    f"({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})")
    else:
        t = time.perf_counter()
        rows = simulate(args.packs, args.seed, Rules(), jobs=args.jobs, agent=args.agent)
        print(f"# {len(rows)} games in {time.perf_counter() - t:.0f} s")
        contract = np.array([r[0] for r in rows])
        X = np.array([r[1] for r in rows], dtype=float)
        leads = np.array([r[2] for r in rows], dtype=float)
        thirds = np.array([r[3] for r in rows], dtype=float)
        won = np.array([r[4] for r in rows], dtype=float)
        payoff = np.array([r[5] for r in rows], dtype=float)
    if args.save:
        np.savez(args.save, contract=contract, X=X, leads=leads, thirds=thirds, won=won, payoff=payoff)
    alone = (contract == 4) | (contract == 5)
    w = fit_ols(np.column_stack([X[alone], leads[alone]]), thirds[alone])
    resid = thirds[alone] - np.column_stack([np.ones(alone.sum()), X[alone], leads[alone]]) @ w
    print(f"# strength: thirds alone with no monte; residual sd {resid.std():.2f}, "
          f"leading first {w[-1]:+.2f}")
    print(f"STRENGTH = LinearEvaluation({_fmt_weights(w[1:-1])}, bias={w[0]:.3f})")
    print("BID_MODELS = {")
    mano = {}
    for c in CONTRACTS:
        m = contract == c
        wc = fit_logistic(np.column_stack([X[m], leads[m]]), won[m])
        mano[c] = wc[-1]
        print(f"    {CONTRACT_NAMES[c].upper()}: LinearEvaluation({_fmt_weights(wc[1:-1])}, "
              f"bias={wc[0]:.3f}),  # made {won[m].mean():.1%}, mean payoff {payoff[m].mean():+.2f}")
    print("}")
    print("MANO_BONUS = {" + ", ".join(f"{CONTRACT_NAMES[c].upper()}: {v:.3f}" for c, v in mano.items()) + "}")


if __name__ == "__main__":
    main()
