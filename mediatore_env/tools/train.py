"""The command line of :mod:`agents.training`: ``python -m agents.training`` (and
``examples/train_selfplay.py``, the same): a command, so of the tools layer, above the agents.

    python -m agents.training --game tressette --steps 4000000 --out runs/tressette
    python -m agents.training --steps 2000000 --envs 256 --out runs/selfplay    # Mediatore

The PPO settings (``--game``, ``--envs`` ... ``--anchor-coef``, ``--rules``) make its
:class:`~agents.training.Config` (the algorithm: :mod:`agents.training.ppo`), the others its
:class:`~agents.training.Plan` (imitation with ``--demos``, ``--resume``, evaluations, the files
written to ``--out``: :mod:`agents.training.run`). Every default is the library's. A bad
argument, a folder without demonstrations or a checkpoint that does not fit is one line and
exit status 2. docs/training.md has the runs.
"""

from __future__ import annotations

import argparse
import sys

from mediatore_env.jaxgame import games
from mediatore_env.mediatore.rules import PRESETS
from mediatore_env.runinfo import add_progress_options, command, wants_progress
from mediatore_env.tools.checks import (ArgumentParser, input_file, non_negative_float,
                                       non_negative_int, output_dir, positive_float,
                                       positive_int, probability)

from agents.training import Config, Plan, SettingError, check_config, self_play

PROG = "python -m agents.training"


#: the widest hidden layer taken: a typo's 99999999 would allocate for minutes, deaf to Ctrl-C
MAX_WIDTH = 8192


def hidden_sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(x) for x in text.split(","))
    except ValueError:
        sizes = ()
    if not sizes or not 1 <= min(sizes) <= max(sizes) <= MAX_WIDTH:
        raise argparse.ArgumentTypeError(f"expected layer sizes from 1 to {MAX_WIDTH} such as "
                                         f"256,256, not {text!r}")
    return sizes


def parser(prog: str = PROG) -> ArgumentParser:
    d, r = Config(), Plan()
    p = ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0],
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--game", default=d.game, choices=games(),
                   help="the game to train on: any game with a JAX engine")
    p.add_argument("--steps", type=non_negative_int, default=r.steps,
                   help="environment steps in all (every seat's decisions; with --resume, "
                        "the total including the checkpoint's; 0: no self-play, the network "
                        "as --init or --demos leave it)")
    p.add_argument("--envs", type=positive_int, default=d.envs, help="deals played at once")
    p.add_argument("--rollout", type=positive_int, default=d.rollout,
                   help="steps of every deal per update")
    p.add_argument("--epochs", type=positive_int, default=d.epochs)
    p.add_argument("--minibatches", type=positive_int, default=d.minibatches)
    p.add_argument("--hidden", type=hidden_sizes, default=",".join(map(str, d.hidden)),
                   help="hidden layer sizes of the network")
    p.add_argument("--lr", type=positive_float, default=d.lr, help="learning rate (Adam)")
    p.add_argument("--clip", type=positive_float, default=d.clip)
    p.add_argument("--ent-coef", type=float, default=d.ent_coef)
    p.add_argument("--gae-lambda", type=probability, default=d.gae_lambda)
    p.add_argument("--reward-scale", type=positive_float, default=d.reward_scale,
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
    p.add_argument("--shaping", type=non_negative_float, default=d.shaping,
                   help="weight of potential-based shaping by the score (the Tressette forms: "
                        "the side's lead in points / 31); the return stays the outcome")
    p.add_argument("--seed", type=non_negative_int, default=r.seed)
    p.add_argument("--rules", default=d.rules, choices=list(PRESETS),
                   help="Mediatore's rules preset (the other games: their standard rules)")
    p.add_argument("--eval-every", type=positive_int, default=r.eval_every,
                   help="environment steps between evaluations (rounded to whole updates)")
    p.add_argument("--eval-deals", type=non_negative_int, default=r.eval_deals,
                   help="duplicate episodes (deals, games) against greedy per evaluation")
    p.add_argument("--pimc-deals", type=non_negative_int, default=r.pimc_deals,
                   help="duplicate episodes against PIMC per evaluation")
    p.add_argument("--eval-seed", type=non_negative_int, default=r.eval_seed)
    p.add_argument("--eval-jobs", type=positive_int, default=r.eval_jobs,
                   help="processes for the tournaments")
    p.add_argument("--final-deals", type=non_negative_int, default=r.final_deals,
                   help="deals of the final evaluation against greedy, seed --eval-seed + 1")
    p.add_argument("--final-pimc-deals", type=non_negative_int, default=r.final_pimc_deals,
                   help="deals of the final evaluation against PIMC")
    p.add_argument("--out", type=output_dir, default=r.out, help="output folder")
    p.add_argument("--demos", default=r.demos, metavar="DIR",
                   help="first train the network to imitate the decisions recorded in DIR "
                        "(examples/record_demos.py --game, the same game), then self-play "
                        "from it; the imitated "
                        "network also takes the pool's first slot (not with --resume)")
    p.add_argument("--imitate-epochs", type=positive_int, default=r.imitate_epochs,
                   help="passes over the demonstrations")
    p.add_argument("--imitate-batch", type=positive_int, default=r.imitate_batch)
    p.add_argument("--imitate-lr", type=positive_float, default=r.imitate_lr)
    p.add_argument("--imitate-temperature", type=positive_float, default=r.imitate_temperature,
                   metavar="T",
                   help="imitate softmax(values / T) of the move values a search recorded "
                        "(demonstrations of pimc) rather than the move it played")
    p.add_argument("--imitate-margin", type=non_negative_float, default=r.imitate_margin,
                   metavar="M",
                   help="imitate the move played unless the recorded values (record_demos.py "
                        "--advisor) put another more than M above it, then that one")
    p.add_argument("--resume", type=input_file, default=r.resume,
                   help="continue from this checkpoint.npz (its evaluations.json, when beside "
                        "it, continues the curve)")
    p.add_argument("--init", type=input_file, default=r.init, metavar="NETWORK",
                   help="start from this saved network of the game (a run's network.npz, a "
                        "shipped agents/data file; the same --hidden) rather than a random one; "
                        "with --demos the imitation starts from it (not with --resume)")
    add_progress_options(p)
    return p


def settings(argv=None, prog: str = PROG) -> tuple[Config, Plan, bool | None]:
    """The library's settings from the command line (one line and exit status 2 when bad), and
    ``--progress`` / ``--quiet``."""
    p = parser(prog)
    args = vars(p.parse_args(argv))
    progress = args.pop("progress")
    cfg = Config(**{k: args.pop(k) for k in Config._fields if k in args})
    try:
        check_config(cfg)
    except ValueError as e:
        p.error(str(e))
    return cfg, Plan(**args), progress


def main(argv=None, env=None, prog: str = PROG) -> dict:
    """Train as the command line says; return the log (also written to evaluations.json).
    ``env``: an engine object to train on instead of ``--game``'s (Mediatore's under
    ``--rules``)."""
    cfg, plan, progress = settings(argv, prog)
    command = f"{prog} " + " ".join(sys.argv[1:] if argv is None else argv)
    try:
        return self_play(cfg, plan, env=env, command=command,
                         progress=wants_progress(progress))
    except SettingError as e:  # one line, as for the other bad arguments
        print(f"{prog}: error: --{e.setting.replace('_', '-')}: {e}", file=sys.stderr)
        raise SystemExit(2) from None


def run(argv=None, prog: str = PROG) -> int:
    """The command: Ctrl-C is one line and status 130, the run's files as the last evaluation
    left them."""
    status = command(prog)(main)(argv, prog=prog)
    return status if isinstance(status, int) else 0
