"""``mediatore-bench``: play a duplicate tournament of agents in any registered game and print
the standings.

    mediatore-bench --agents greedy random random random --deals 2000 --seed 1
    mediatore-bench --agents greedy greedy random random --deals 2000 --jobs 2 --json out.json
    mediatore-bench --agents greedy mypkg.bots:MyAgent greedy greedy --preset no_signals
    mediatore-bench --bidding greedy cautious bold chiamo --deals 1000
    mediatore-bench --agents greedy greedy random random --save-records recs --record-deals 0,5,17
    mediatore-bench --agents greedy greedy random random --deals 2000 --ray --plot out.png
    mediatore-bench --plot-json out.json --plot out.svg     # the chart of a saved run

``--game`` names any game of :mod:`mediatore_env.registry`; ``--deals N`` counts that game's
episodes (its unit: Mediatore's deals, the Tressette games' games to 31, club Mediatore's
sessions), ``--agents`` is one agent per seat, and ``--rule name=value`` sets its switches::

    mediatore-bench --game tressette --agents greedy random greedy random --deals 500
    mediatore-bench --game tressette3 --agents greedy random random --rule low=true --jobs 2
    mediatore-bench --game tressette2 --agents greedy random --rule claim=true --save-records recs
    mediatore-bench --game club --agents greedy random greedy random --deals 500 --rule ante=3

See :mod:`agents.tournament` for the format (rotations, units per episode, confidence
intervals) and each game's hooks for what it adds. Bad arguments get one line and exit status
2; Ctrl-C stops the run with one line and exit status 130. ``--jobs`` is lowered, with a line
saying so, to the episodes and the cores.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import mediatore_env.registry as registry

from ..core.records import save_record
from ..core.text import counted
from ..runinfo import add_progress_options, command, jobs_note, print_results, wants_progress
from .checks import (ArgumentParser, add_rules_options, add_worker_options, bidding_player,
                     check_agents, check_lineup, deals_to_record, game_of, non_negative_int,
                     output_dir, output_file, parse_for_game, positive_int, rules_of,
                     rules_options_elsewhere)

PROG = "mediatore-bench"


def _hooks(game: str):
    from agents.tournament import hooks_of  # the agents layer, only when a game is played
    return hooks_of(game)


def build_parser(game: str = "mediatore") -> argparse.ArgumentParser:
    """The parser of ``--game game``: its agents, its rules options, and ``--bidding`` and
    ``--plot`` where its tournament hooks have them (:func:`main` reads ``--game`` first)."""
    from agents import agents_of
    from agents.plot import FORMATS
    definition, hooks = registry.get(game), _hooks(game)
    p = ArgumentParser(
        prog=PROG,
        description="Duplicate tournament of agents: every episode of the game (a Mediatore "
                    "deal, a Tressette game to 31, a club Mediatore session) is played in every "
                    "rotation of the lineup over the same cards, so every agent holds every "
                    "hand. Prints the agents' results per episode with 95% confidence intervals "
                    "over episodes, and what the game adds (Mediatore: by seat role and by "
                    "contract). The options shown are those of --game "
                    f"{game}: --game NAME --help shows another game's.",
        epilog=f"Agents of {game}: {', '.join(agents_of(definition))}; with options after a "
               "colon (random:bid_rate=0.5), or your own as package.module:Class (looked for "
               "in the current folder too)."
               + (f" Bidding policies: {', '.join(hooks.bidding_policies)}."
                  if hooks.bidding is not None else ""))
    p.add_argument("--game", default="mediatore", choices=list(registry.GAMES),
                   help="the game (default mediatore)")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--agents", nargs="+", metavar="AGENT",
                     help=f"the lineup: one agent per seat ({definition.players}), the seats of "
                          "the first rotation")
    if hooks.bidding is not None:
        who.add_argument("--bidding", nargs="+", metavar="POLICY",
                         help="compare these bidding policies (2 or more) inside one shared "
                              "player")
        p.add_argument("--player",
                       help="with --bidding: the player whose calling, exchange and play they "
                            "share (default greedy)")
    p.set_defaults(bidding=None, player=None, plot=None, plot_json=None)
    p.add_argument("--deals", type=positive_int, default=1000, metavar="N",
                   help=f"number of episodes, {definition.unit}s of {game} (default 1000)")
    p.add_argument("--seed", type=non_negative_int, default=0, help="seed of the cards (default 0)")
    add_worker_options(p, "episodes")
    add_rules_options(p, game)
    p.add_argument("--json", metavar="PATH", help="save the full results as JSON")
    if hooks.chart is not None:
        p.add_argument("--plot", metavar="PATH",
                       help="draw units per episode with CIs and the game's breakdown into "
                            f"PATH ({', '.join('.' + f for f in FORMATS)}); needs the plot extra")
        who.add_argument("--plot-json", metavar="PATH",
                         help="play nothing: draw the chart (--plot) of results saved with "
                              "--json")
    p.add_argument("--save-records", metavar="DIR",
                   help="save the records of --record-deals here, each in its rotations")
    p.add_argument("--record-deals", metavar="LIST",
                   help="episodes to record with --save-records, e.g. 0,5,17 or 0-9 (default 0)")
    add_progress_options(p)
    return p


def options_elsewhere(game: str) -> dict[str, str]:
    """The options of other games' parsers that ``game``'s has not, and why."""
    hooks = _hooks(game)
    out = rules_options_elsewhere(game)
    if hooks.bidding is None:
        out["--bidding"] = (f"--bidding compares bidding policies "
                            f"({_games_with(lambda h: h.bidding)}); {game} has no auction: "
                            "give --agents")
        out["--player"] = f"--player goes with --bidding, which {game} has not"
    if hooks.chart is None:
        out["--plot"] = (f"--plot draws {_games_with(lambda h: h.chart)} tournaments only; save "
                         f"{game}'s results with --json")
        out["--plot-json"] = out["--plot"]
    return out


def _check_path(option: str, check, path: str) -> None:
    """Refuse, before any episode is played, an output path that ``check`` (:mod:`.checks`)
    refuses, naming the option."""
    try:
        check(path)
    except argparse.ArgumentTypeError as e:
        raise ValueError(f"{option} {e}") from None


def _games_with(has) -> str:
    return ", ".join(name for name in registry.GAMES if has(_hooks(name)))


def check_options(args) -> None:
    """Refuse a lineup of the wrong size before anything is played (what the game does not
    have, its parser has not: :func:`options_elsewhere`)."""
    if args.agents:
        check_lineup(args.game, args.agents)
    bidding_player(args)


def check_outputs(args) -> list[int]:
    """Check every output path and its options before the run; the episodes to record."""
    from agents.plot import check_plot_path
    if args.json is not None:
        _check_path("--json", output_file, args.json)
    if args.plot is not None:
        try:
            check_plot_path(args.plot)
        except ValueError as e:
            raise ValueError(f"--plot {e}") from None
        _check_path("--plot", output_file, args.plot)
    if args.save_records is not None:
        _check_path("--save-records", output_dir, args.save_records)
    unit = registry.get(args.game).unit
    return deals_to_record(args.save_records, args.record_deals, args.deals, unit, f"{unit}s")


def _plot_saved(args) -> int:
    """--plot-json: draw the chart of a saved run."""
    from agents.plot import plot_tournament
    if not args.plot:
        raise ValueError("--plot-json draws a saved run's chart: give --plot OUT.png too")
    check_outputs(args)
    try:
        data = json.loads(Path(args.plot_json).read_text())
    except OSError as e:
        raise ValueError(f"--plot-json {args.plot_json}: {e.strerror}") from None
    except ValueError as e:  # not text, or not JSON
        raise ValueError(f"--plot-json {args.plot_json}: not JSON ({e})") from None
    except RecursionError:  # lists or objects nested past Python's recursion limit
        raise ValueError(f"--plot-json {args.plot_json}: not a tournament result (its JSON is "
                         "nested too deeply)") from None
    try:
        plot_tournament(data, args.plot)
    except (KeyError, TypeError, IndexError) as e:  # the format's name, not all of its body
        raise ValueError(f"--plot-json {args.plot_json}: not a whole tournament result as "
                         f"mediatore-bench --json saves it ({type(e).__name__}: {e})") from None
    print(f"chart saved to {args.plot}")
    return 0


def _run(args, parser) -> int:
    from agents import agents_of
    from agents.tournament import run_tournament
    try:
        if args.plot_json:
            return _plot_saved(args)
        check_options(args)
        record = check_outputs(args)
        rules = rules_of(args)
        definition = registry.get(args.game)
        if args.agents:
            check_agents(args.agents, agents_of(definition))
        # a cluster's workers are its own (--jobs with an address is refused below)
        note = not isinstance(args.ray, str) and args.jobs and jobs_note(
            PROG, args.jobs, args.deals, definition.unit)
        if note:
            print(note, file=sys.stderr)
        common = dict(seed=args.seed, rules=rules, jobs=args.jobs, record_deals=record,
                      progress=wants_progress(args.progress), ray=args.ray)
        if args.agents:
            result = run_tournament(args.agents, args.deals, game=args.game, **common)
        else:
            result = _hooks(args.game).bidding(args.bidding, args.deals,
                                               base=bidding_player(args),
                                               **common)
    except (ValueError, ImportError) as e:
        parser.exit(2, f"{PROG}: error: {e}\n")
    _output(args, result)
    return 0


@command(PROG)  # Ctrl-C: one line and status 130; the workers and the bar go with the run
def main(argv=None) -> int:
    game = game_of(argv)
    parser = build_parser(game)
    return _run(parse_for_game(parser, argv, game, options_elsewhere(game)), parser)


def _output(args, result) -> None:
    print_results(result, args.json)
    if args.plot:
        result.plot(args.plot)
        print(f"chart saved to {args.plot}")
    if args.save_records:
        out = Path(args.save_records)
        out.mkdir(parents=True, exist_ok=True)
        several = len(result.lineups) > 1
        unit = result.unit
        for rec in result.records:
            m = rec["meta"]
            lineup = f"_lineup{m['lineup']}" if several else ""
            name = f"{unit}{m[f'{unit}_index']:05d}{lineup}_rot{m['rotation']}.json"
            save_record(rec, out / name)
        print(f"{counted(len(result.records), f'{unit} record')} saved in {out}/")


if __name__ == "__main__":
    sys.exit(main())
