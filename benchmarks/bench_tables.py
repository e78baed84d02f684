"""What the double-dummy solver costs on Tressette hands: exact move values of positions of
every form, by the cards left, the figures the PIMC agent's ``SOLVE_AT`` rests on.

    python3 benchmarks/bench_tables.py [--positions 12] [--seed 0]

For each form (four-handed, three-handed, two-handed with the stock drawn out) and each number
of cards in a hand from 10 down to 5, and two-handed for stocks of 2 to 10 cards with 10 cards
in each hand, it deals ``--positions`` hands from a seeded ``random.Random``, plays them with
the greedy agent at every seat up to the first trick boundary where the seat to move holds
that many cards (and the stock is as asked), and times
``solver.table_move_values(table_of(game, seat))`` from a cleared table: the median, 90th
percentile and maximum of the calling thread's CPU time in ms, and the median nodes. Hands
that end (31 reached) before that point are skipped, so a row may have fewer positions.
"""

from __future__ import annotations

import random
import statistics
import time

from agents.tressette.greedy import TressetteGreedyAgent
from mediatore_env.analysis import solver
from mediatore_env.tressette.positions import table_of
from mediatore_env.runinfo import machine, median_p90
from mediatore_env.tools.checks import ArgumentParser, non_negative_int, positive_int
from mediatore_env.tressette.game import TressetteGame
from mediatore_env.tressette.rules import TressetteRules

GREEDY = TressetteGreedyAgent()


def reached(rng: random.Random, players: int, cards: int, stock: int) -> TressetteGame | None:
    """A hand played by greedy to the first trick boundary where the seat to move holds
    ``cards`` cards and the stock ``stock``; None if the game ended first."""
    game = TressetteGame(TressetteRules(players=players), 0)
    game.deal(rng.sample(range(40), 40))
    while game.trick or game.hands[game.to_move].bit_count() != cards or len(game.stock) != stock:
        game.apply(GREEDY.act(None, game.view(game.to_move)))
        if game.is_over or game.needs_pack:
            return None
    return game


def row(name: str, games: list) -> str:
    times, nodes = [], []
    for game in games:
        pos = table_of(game, game.to_move)
        solver.clear_table()
        start = time.thread_time()
        solver.table_move_values(pos)
        times.append(1000 * (time.thread_time() - start))
        nodes.append(solver.last_nodes())
    median, p90 = median_p90(times)
    return (f"{name:34s} {len(times):3d} {median:8.1f} {p90:8.1f} "
            f"{max(times):8.1f} {int(statistics.median(nodes)):10d}")


def main(argv=None) -> None:
    parser = ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=positive_int, default=12)
    parser.add_argument("--seed", type=non_negative_int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"solver backend {solver.BACKEND}; {machine()}")
    print(f"{'position':34s} {'n':>3s} {'median':>8s} {'p90':>8s} {'max':>8s} {'nodes':>10s}"
          "  (CPU ms)")
    cases = [(players, cards, 0) for players in (4, 3, 2) for cards in range(10, 4, -1)]
    cases += [(2, 10, stock) for stock in (2, 4, 6, 8, 10)]
    for players, cards, stock in cases:
        games = [g for g in (reached(rng, players, cards, stock) for _ in range(args.positions))
                 if g is not None]
        if games:
            print(row(f"{players} players, {cards} cards, stock {stock}", games), flush=True)


if __name__ == "__main__":
    main()
