"""Record the decisions of agents playing any game of the family, as demonstrations to imitate.

    python examples/record_demos.py --agents pimc pimc pimc pimc --deals 20000 --out runs/demos
    python examples/train_selfplay.py --demos runs/demos --imitate-epochs 4 ...
    python examples/record_demos.py --game tressette --agents greedy --deals 500 --out runs/t-demos
    python examples/train_selfplay.py --game tressette --demos runs/t-demos ...

Plays episodes ``0 .. --deals - 1`` of ``--seed`` of ``--game`` (Mediatore's deals, a Tressette
form's games to 31...) with ``--workers`` processes and records every decision with a choice
(:mod:`agents.demos`: the observation, the legal moves, the move, the seat's outcome at the
end of the episode), in shards of ``--shard`` episodes, ``demos-<first episode>.npz``. One
agent per seat, or one for every seat. A shard already written is skipped, so a stopped run
continues where it stopped; ``--minutes`` starts no shard after that much time.

Why: on a CPU, self-play from a random network learns slowly (docs/training.md); a network
that first imitates PIMC - the project's strongest agent - starts where self-play on a CPU
does not get to, and self-play then trains from there.
"""

from __future__ import annotations

import multiprocessing as mp
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from agents.demos import make_advisor, record_deals  # noqa: E402
from agents.registry import agents_of  # noqa: E402
from mediatore_env.mediatore.rules import PRESETS, Rules  # noqa: E402
from mediatore_env.registry import GAMES, get  # noqa: E402
from mediatore_env.tools.checks import (ArgumentParser, check_agents, output_dir,  # noqa: E402
                                       positive_int, non_negative_int)


def play_shard(args) -> int:
    """Record one shard unless it is written or time is up; returns the deals played."""
    game, specs, rules, seed, first, count, out, deadline, advisor = args
    path = Path(out) / f"demos-{first:07d}.npz"
    if path.exists() or time.time() > deadline:
        return 0
    record_deals(specs, rules, seed, first, count, path, game=game, advisor=advisor)
    return count


def main(argv=None) -> int:
    p = ArgumentParser(prog="record_demos.py", description=__doc__.split("\n\n")[1])
    p.add_argument("--game", default="mediatore", choices=list(GAMES),
                   help="the game played (its default rules but Mediatore's --rules)")
    p.add_argument("--agents", nargs="+", default=["pimc"], metavar="AGENT",
                   help="the seats' agents, one per seat or one for every seat (default: pimc "
                        "at every seat)")
    p.add_argument("--deals", type=positive_int, default=20_000,
                   help="episodes: deals of Mediatore, games to 31 of Tressette...")
    p.add_argument("--seed", type=non_negative_int, default=7)
    p.add_argument("--rules", default="standard", choices=list(PRESETS),
                   help="Mediatore's rules preset")
    p.add_argument("--shard", type=positive_int, default=100, help="episodes per file")
    p.add_argument("--advisor", metavar="AGENT",
                   help="a search agent (pimc...) asked at every decision for its value of each "
                        "move, recorded beside the move the seat's agent plays (imitation's "
                        "--imitate-margin corrects the moves by them)")
    p.add_argument("--workers", type=positive_int, default=mp.cpu_count())
    p.add_argument("--minutes", type=float, default=float("inf"),
                   help="start no shard after this many minutes")
    p.add_argument("--out", type=output_dir, default="runs/demos")
    args = p.parse_args(argv)
    definition = get(args.game)
    players = definition.players
    if len(args.agents) == 1:
        args.agents *= players
    if len(args.agents) != players:
        p.error(f"--agents: {args.game} has {players} seats: give {players} agents or one, "
                f"not {len(args.agents)}")
    if args.game != "mediatore" and args.rules != "standard":
        p.error(f"--rules {args.rules!r}: a preset of Mediatore; {args.game} is recorded under "
                "its default rules")
    try:
        check_agents(args.agents, agents_of(definition))
        if args.advisor is not None:
            make_advisor(args.advisor, agents_of(definition))
    except ValueError as e:
        p.error(str(e))
    Path(args.out).mkdir(parents=True, exist_ok=True)
    deadline = time.time() + 60 * args.minutes
    rules = Rules.preset(args.rules) if args.game == "mediatore" else definition.make_rules()
    jobs = [(args.game, args.agents, rules, args.seed, first,
             min(args.shard, args.deals - first), args.out, deadline, args.advisor)
            for first in range(0, args.deals, args.shard)]
    start, played = time.time(), 0
    with mp.Pool(args.workers) as pool:
        for n in pool.imap_unordered(play_shard, jobs):
            played += n
            if n:
                print(f"{played} {definition.unit}s played in {time.time() - start:.0f} s",
                      flush=True)
    print(f"{played} {definition.unit}s recorded in {args.out} (shards already there were kept)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
