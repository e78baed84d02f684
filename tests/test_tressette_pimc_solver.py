"""The Tressette PIMC agent on the double-dummy solver (agents/tressette/pimc.py): where every
card is known it plays a card the solver proves best; it solves a world exactly at most
``solve_at`` cards in play and within ``world_nodes`` nodes, and rolls it out otherwise."""

import random

import pytest

import agents.tressette.pimc as pimc
from agents.tressette import TressetteGreedyAgent, TressettePimcAgent
from mediatore_env.analysis.solver import table_move_values
from mediatore_env.tressette.positions import table_of
from mediatore_env.tressette.game import TressetteGame
from mediatore_env.tressette.rules import TressetteRules

GREEDY = TressetteGreedyAgent()


def two_handed_after_the_stock(seed: int, low: bool, cards: int) -> TressetteGame | None:
    """A two-handed hand played by greedy until the stock is drawn out and the seat to move,
    on lead or not, holds ``cards`` cards: every card is then known to both players."""
    rng = random.Random(seed)
    game = TressetteGame(TressetteRules(players=2, low=low), 0)
    game.deal(rng.sample(range(40), 40))
    while game.stock or game.hands[game.to_move].bit_count() != cards:
        game.apply(GREEDY.act(None, game.view(game.to_move)))
        if game.is_over or game.needs_pack:
            return None
    return game


@pytest.mark.parametrize("low", [False, True], ids=["high", "low"])
def test_with_every_card_known_pimc_plays_a_card_the_solver_proves_best(low):
    checked = 0
    for seed in range(40):
        game = two_handed_after_the_stock(seed, low, 6)
        if game is None or len(game.legal_moves()) < 2:
            continue
        seat = game.to_move
        values = table_move_values(table_of(game, seat))
        best = (min if low else max)(values.values())
        card = TressettePimcAgent(time_limit=None, max_worlds=3).act(None, game.view(seat))
        assert values[card] == best, (seed, values, card)
        checked += 1
    assert checked >= 10


def counting(monkeypatch):
    """Count the solver's and the rollouts' calls inside the agent."""
    calls = {"solver": 0, "rollout": 0}
    solve, roll = pimc.table_move_values, pimc.roll_out

    def counted_solve(*args, **kw):
        calls["solver"] += 1
        return solve(*args, **kw)

    def counted_roll(game):
        calls["rollout"] += 1
        roll(game)

    monkeypatch.setattr(pimc, "table_move_values", counted_solve)
    monkeypatch.setattr(pimc, "roll_out", counted_roll)
    return calls


@pytest.mark.parametrize("options, solver_used, rollouts_used", [
    (dict(solve_at=0), False, True),        # never solve
    (dict(solve_at=40), True, False),       # always solve (a late position: cheap)
    (dict(solve_at=40, world_nodes=0), True, True),  # out of nodes: rolled out
])
def test_where_the_agent_solves(monkeypatch, options, solver_used, rollouts_used):
    calls = counting(monkeypatch)
    game = two_handed_after_the_stock(1, False, 5)
    agent = TressettePimcAgent(time_limit=None, max_worlds=2, **options)
    agent.act(None, game.view(game.to_move))
    assert (calls["solver"] > 0, calls["rollout"] > 0) == (solver_used, rollouts_used)


@pytest.mark.parametrize("rules, rolled_out, solved", [
    (TressetteRules(), 32, 28),  # four-handed: a hand of 8 cards is rolled out, of 7 solved
    (TressetteRules(players=3), 30, 27),
    (TressetteRules(players=3, low=True), 6, None),  # three-handed Low Hand: never solved
    (TressetteRules(low=True), 8, None),  # four-handed Low Hand: never solved
])
def test_the_default_threshold_is_by_players_and_low(monkeypatch, rules, rolled_out, solved):
    calls = counting(monkeypatch)
    rng = random.Random(2)
    game = TressetteGame(rules, 0)
    game.deal(rng.sample(range(40), 40))
    agent = TressettePimcAgent(time_limit=None, max_worlds=1)
    seen = {}
    while not game.needs_pack and not game.is_over:
        seat = game.to_move
        if len(game.legal_moves()) > 1 and not game.trick:
            before = dict(calls)
            agent.act(None, game.view(seat))
            in_play = sum(h.bit_count() for h in game.hands)
            seen[in_play] = calls["solver"] > before["solver"]
        game.apply(GREEDY.act(None, game.view(seat)))
    assert seen.get(rolled_out) is False and seen.get(solved, True) is True, seen


@pytest.mark.parametrize("option", ["solve_at", "world_nodes"])
def test_bad_solver_options_are_refused(option):
    with pytest.raises(ValueError, match=f"{option} must be an int >= 0"):
        TressettePimcAgent(**{option: -1})
