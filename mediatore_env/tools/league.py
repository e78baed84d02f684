"""``mediatore-league``: every agent of a set against every other in duplicate, in any
registered game, with a rating for each fitted from all the pairs (:mod:`agents.league`).

    mediatore-league --game tressette2 --agents random greedy pimc --deals 200 --seed 1
    mediatore-league --agents random greedy pimc --deals 500 --jobs 2 --json league.json
    mediatore-league --bidding greedy cautious bold --deals 1000     # Mediatore's bidding policies
    mediatore-league --game club --agents random greedy --deals 100 --plot league.png

Prints the ratings (units per episode per seat, summing to zero, with 95% intervals), each
agent's edge over every other, and each pair's edge with its interval; ``--json`` saves them all
(each pair's edge in every episode included), ``--plot`` draws them. Bad arguments get one line
and exit status 2; Ctrl-C stops the run with one line and exit status 130.
"""

from __future__ import annotations

import sys

import mediatore_env.registry as registry

from ..runinfo import add_progress_options, command, jobs_note, print_results, wants_progress
from .checks import (ArgumentParser, add_worker_options, bidding_player, check_agents,
                     non_negative_int, output_file, parse_game_rules, positive_int)

PROG = "mediatore-league"


def build_parser() -> ArgumentParser:
    p = ArgumentParser(
        prog=PROG,
        description="A league: every pair of the agents plays a duplicate tournament of the "
                    "same episodes, each agent holding half the seats in every rotation; "
                    "prints each pair's edge and a rating per agent fitted from all pairs.")
    p.add_argument("--game", default="mediatore", choices=list(registry.GAMES),
                   help="the game (default mediatore)")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--agents", nargs="+", metavar="AGENT",
                     help="two agents or more, as mediatore-bench takes them")
    who.add_argument("--bidding", nargs="+", metavar="POLICY",
                     help="Mediatore: the league of these bidding policies (names, or "
                          "module:Class paths, with options as agents take them), each in "
                          "the player of --player (PLAYER:bidding=POLICY)")
    p.add_argument("--player",
                   help="with --bidding: the player whose call, exchange and card play every "
                        "policy shares (default greedy)")
    p.add_argument("--deals", type=positive_int, default=200, metavar="N",
                   help="episodes each pair plays, in the game's unit (default 200)")
    p.add_argument("--seed", type=non_negative_int, default=0,
                   help="seed of the cards, the same for every pair (default 0)")
    add_worker_options(p, "episodes")
    p.add_argument("--preset", help="the game's rules preset, where it has presets")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="a rules switch of the game, e.g. --rule low=true")
    p.add_argument("--json", metavar="PATH", type=output_file, help="save the league as JSON")
    p.add_argument("--plot", metavar="PATH", type=output_file,
                   help="draw the ratings and the edges (.png, .svg, .pdf); needs the plot extra")
    add_progress_options(p)
    return p


def lineup_of(args) -> list[str] | dict:
    """The league's agents: ``--agents``, or each ``--bidding`` policy in the ``--player``
    (named ``PLAYER:bidding=POLICY``)."""
    player = bidding_player(args)
    if player is None:
        return args.agents
    if args.game != "mediatore":
        raise ValueError(f"--bidding compares Mediatore's bidding policies; {args.game} has "
                         "no auction: give --agents")
    from agents.mediatore.tournament import check_bidding
    check_bidding(args.bidding, player)
    return {f"{player}:bidding={policy}": (player, {"bidding": policy})
            for policy in args.bidding}


def _run(args, parser) -> int:
    from agents import agents_of
    from agents.league import run_league
    try:
        agents = lineup_of(args)
        if len(dict.fromkeys(agents)) < 2:
            raise ValueError("a league needs two different agents or more")
        if not isinstance(agents, dict):  # the --bidding lineup is checked already
            check_agents(agents, agents_of(args.game))
        rules = parse_game_rules(args.game, args.rule, args.preset)
        if args.plot:
            from agents.plot import check_plot_path
            check_plot_path(args.plot)
        # each pair plays --deals episodes (a cluster's workers are its own)
        note = not isinstance(args.ray, str) and args.jobs and jobs_note(
            PROG, args.jobs, args.deals, registry.get(args.game).unit)
        if note:
            print(note, file=sys.stderr)
        result = run_league(args.game, agents, args.deals, args.seed, rules, args.jobs,
                            args.ray, progress=wants_progress(args.progress))
    except (ValueError, ImportError) as e:
        parser.exit(2, f"{PROG}: error: {e}\n")
    print_results(result, args.json)
    if args.plot:
        from agents.plot import plot_league
        plot_league(result.to_dict(), args.plot)
        print(f"chart saved to {args.plot}")
    return 0


@command(PROG)  # Ctrl-C: one line and status 130; the workers and the bar go with the run
def main(argv=None) -> int:
    parser = build_parser()
    return _run(parser.parse_args(argv), parser)


if __name__ == "__main__":
    sys.exit(main())
