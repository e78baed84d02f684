"""How often the greedy agent plays the card a search agent plays, in a Tressette form: the
model that ``pimc:infer`` weighs worlds by is greedy, and how far it is from the players it
meets says how much a move it would not have made tells (docs/search.md, "Ahead of pimc:
inference").

    python3 benchmarks/bench_agreement.py --game tressette --games 3 --seed 100 pimc

The agent plays every seat of ``--games`` games to 31 (packs and seeds from ``--seed``); at
each of its decisions with a choice the greedy agent is asked what it would play from the
same view. It prints the share of those decisions where the two agree, leads and follows
apart, and the machine.
"""

from __future__ import annotations

from agents.registry import agents_of, make_agent
from agents.tournament import derive_seed
from agents.tressette.greedy import TressetteGreedyAgent, unweighed
from agents.tressette.tournament import HOOKS
from mediatore_env import registry
from mediatore_env.runinfo import machine
from mediatore_env.tools.checks import ArgumentParser, non_negative_int, positive_int

FORMS = ("tressette", "tressette3", "tressette2")


def agreement(game: str, spec: str, games: int, seed: int) -> dict[str, list[int]]:
    """Per kind of decision (``"lead"``, ``"follow"``): [decisions with a choice, of them the
    ones where greedy plays ``spec``'s card]."""
    entry = registry.get(game)
    greedy, counts = TressetteGreedyAgent(), {"lead": [0, 0], "follow": [0, 0]}
    for index in range(games):
        agents = [make_agent(spec, agents_of(entry)) for _ in range(entry.players)]
        for seat, agent in enumerate(agents):
            agent.reset(derive_seed(seed, index, seat))
        engine = entry.engine(entry.make_rules(), HOOKS.dealer(index, entry.players))
        while not engine.is_over:
            if engine.needs_pack:
                engine.deal(HOOKS.pack(seed, index, engine.hand_number))
                continue
            view = engine.view(engine.to_move)
            move = agents[engine.to_move].act(None, view)
            if unweighed(view)[0] is None:
                kind = counts["follow" if view.trick else "lead"]
                kind[0] += 1
                kind[1] += greedy.act(None, view) == move
            engine.apply(move)
    return counts


def main(argv=None) -> None:
    parser = ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spec", nargs="?", default="pimc", help="the agent at every seat")
    parser.add_argument("--game", default="tressette", choices=FORMS)
    parser.add_argument("--games", type=positive_int, default=3)
    parser.add_argument("--seed", type=non_negative_int, default=100)
    args = parser.parse_args(argv)
    try:
        make_agent(args.spec, agents_of(registry.get(args.game)))
    except ValueError as error:
        parser.error(str(error))
    counts = agreement(args.game, args.spec, args.games, args.seed)
    print(f"{args.game}, {args.spec} at every seat, {args.games} games, seed {args.seed}; "
          f"{machine()}")
    total = [sum(c[i] for c in counts.values()) for i in range(2)]
    for kind, (decisions, agreed) in [*counts.items(), ("all", total)]:
        share = agreed / decisions if decisions else float("nan")
        print(f"  {kind:6s} {decisions:5d} decisions with a choice, greedy plays the same card "
              f"at {share:.1%}")


if __name__ == "__main__":
    main()
