"""The double-dummy solver at every table of the family: 4 hands in partnerships, 3 hands
with a dead hand, 2 hands with and without a stock, high and Low Hand -- both search cores
against plain minimax, against each other, and against the Tressette engine.

Mediatore's own solver tests (tests/test_solver.py) are unchanged: Mediatore is the four-hand,
no-stock case of the same core.
"""

from __future__ import annotations

import random

import pytest

from mediatore_env.analysis import solver
from mediatore_env.analysis.solver import (TablePosition, table_brute_force, table_legal_cards,
                                           table_move_values, table_play, table_solve,
                                           table_to_move)
from mediatore_env.tressette.positions import table_of
from mediatore_env.core.cards import CARD_NAMES, parse_cards, to_mask
from mediatore_env.tressette.game import TressetteGame
from mediatore_env.tressette.rules import TressetteRules

AVAILABLE = ["python"] + (["c"] if solver._dds is not None else [])
# name: (hands, sides a seat may be searched for, stock sizes)
TABLES = {
    "partnership": (4, (0b0101, 0b1010), (0,)),
    "three-handed": (3, (0b001, 0b010, 0b100), (0,)),
    "two-handed": (2, (0b01, 0b10), (0,)),
    "two-handed stock": (2, (0b01, 0b10), (2, 4, 6)),
}


def random_table(rng: random.Random, name: str, tricks: int, low: bool) -> TablePosition:
    """``tricks`` cards in each hand (three-handed, the other cards are dead), a stock as
    the table has, 0 to n-1 random legal cards played to the current trick."""
    n, sides, stocks = TABLES[name]
    stock = rng.choice(stocks)
    cards = rng.sample(range(40), n * tricks + stock)
    hands = tuple(to_mask(cards[s * tricks:(s + 1) * tricks]) for s in range(n))
    pos = TablePosition(hands, rng.randrange(n), (), rng.choice(sides), rng.randrange(20), low,
                        tuple(cards[n * tricks:]))
    for _ in range(rng.randrange(n)):
        pos = table_play(pos, rng.choice(table_legal_cards(pos)))
    return pos


def wants(pos: TablePosition, seat: int):
    """The pick of ``seat``: the side takes most thirds (fewest in Low Hand)."""
    return max if (pos.side >> seat & 1) != pos.low else min


@pytest.mark.parametrize("low", [False, True], ids=["high", "low"])
@pytest.mark.parametrize("name", list(TABLES))
def test_solve_agrees_with_brute_force(name, low):
    rng = random.Random(hash((name, low)) % 1000)
    for tricks, count in ((3, 60), (4, 15)):
        for _ in range(count):
            pos = random_table(rng, name, tricks, low)
            expected = table_brute_force(pos)
            for backend in AVAILABLE:
                assert table_solve(pos, backend=backend) == expected, (backend, str(pos))


@pytest.mark.parametrize("low", [False, True], ids=["high", "low"])
@pytest.mark.parametrize("name", list(TABLES))
def test_move_values_agree_with_brute_force_per_move(name, low):
    rng = random.Random(7 + low)
    for _ in range(15):
        pos = random_table(rng, name, 3, low)
        for backend in AVAILABLE:
            values = table_move_values(pos, backend=backend)
            assert values == {c: table_brute_force(table_play(pos, c))
                              for c in table_legal_cards(pos)}, (backend, str(pos))
            assert wants(pos, table_to_move(pos))(values.values()) == table_solve(pos)


def test_python_core_is_the_c_core_node_for_node():
    """Same answers and the same nodes visited, at every table, high and low."""
    if solver._dds is None:
        pytest.skip("C core not built")
    rng = random.Random(3)
    for name in TABLES:
        for low in (False, True):
            for _ in range(8):
                pos = random_table(rng, name, 5 if name != "partnership" else 4, low)
                args = (pos.hands, pos.leader, pos.trick, pos.side, pos.low, pos.bonus, pos.stock)
                solver.clear_table()
                c_value = solver._dds.table_solve(*args)
                py = solver._PySearch()
                assert (py.table_solve(*args), py.nodes) == (c_value, solver._dds.last_nodes()), \
                    str(pos)


def test_c_table_survives_changes_of_table_low_and_stock():
    """Alternating tables, Low Hand and stocks between calls must not mix table entries; a
    stock that is the end of an earlier one keeps them (entries stay exact)."""
    if solver._dds is None:
        pytest.skip("C core not built")
    rng = random.Random(5)
    positions = [random_table(rng, name, 3, low) for _ in range(6)
                 for name in TABLES for low in (False, True)]
    expected = [table_brute_force(p) for p in positions]
    for _ in range(2):
        for pos, value in zip(positions, expected):
            assert table_solve(pos, backend="c") == value, str(pos)
    # A line of play with draws: each position's stock is the end of the one before.
    for _ in range(10):
        pos = random_table(rng, "two-handed stock", 3, rng.random() < 0.5)
        while table_legal_cards(pos):
            assert table_solve(pos, backend="c") == table_brute_force(pos), str(pos)
            pos = table_play(pos, rng.choice(table_legal_cards(pos)))


def hands_of(*texts: str) -> tuple[int, ...]:
    return tuple(to_mask(parse_cards(t)) for t in texts)


@pytest.mark.parametrize("backend", AVAILABLE)
def test_two_handed_draws_worked_by_hand(backend):
    """Seat 0 holds DA D4, seat 1 D5 B4; the stock is C3 then C4. Leading DA takes the Ace
    (3 thirds), draws C3 and keeps the lead: C3 takes C4 (1), and D4 takes the last trick
    against B4 (3): 7 thirds. Leading D4 loses to D5, so seat 1 draws C3 and leads; seat 0,
    left with DA C4, must throw the Ace on whatever suit seat 1 leads last: 0 thirds.
    In Low Hand the same two values, and seat 0 plays D4."""
    for low in (False, True):
        pos = TablePosition(hands_of("DA D4", "D5 B4"), 0, (), 0b01, 0, low,
                            tuple(parse_cards("C3 C4")))
        values = {CARD_NAMES[c]: v for c, v in table_move_values(pos, backend=backend).items()}
        assert values == {"D4": 0, "DA": 7}
        assert table_solve(pos, backend=backend) == (0 if low else 7)


@pytest.mark.parametrize("backend", AVAILABLE)
def test_three_handed_coalition_worked_by_hand(backend):
    """Three-handed, seat 0 alone against seats 1 and 2, who play together (the paranoid
    reduction). Seat 0 leads D3 (1 third) from D3 B4, seat 1 holds D2 C4, seat 2 DA C5. Cards
    of the same suit: the highest wins. D3 wins the first trick (D2 and DA are below it) and
    takes D2 and DA too: 1 + 1 + 3 = 5 thirds; then B4 leads, C4 and C5 discard, seat 0 wins
    the last trick, 3 more: 8. Leading B4 first, seat 2 or 1 can't follow; seat 0 wins it
    (0 thirds), then D3 takes the rest: 8 as well. In Low Hand seat 0 cannot shed either:
    every trick is its own."""
    pos = TablePosition(hands_of("D3 B4", "D2 C4", "DA C5"), 0, (), 0b001)
    assert table_move_values(pos, backend=backend) == {c: 8 for c in parse_cards("B4 D3")}
    assert table_solve(pos._replace(low=True), backend=backend) == 8


@pytest.mark.parametrize("players", [4, 3, 2])
@pytest.mark.parametrize("low", [False, True], ids=["high", "low"])
def test_positions_follow_the_tressette_engine(players, low):
    """table_of a real game, played on by table_play, is table_of the game played on by the
    engine: the same hands, leader, trick, stock and thirds taken, through every trick and
    draw of whole hands; the hand's last position's taken is the side's thirds in the log."""
    rng = random.Random(players * 2 + low)
    rules = TressetteRules(players=players, low=low)
    for _ in range(3):
        game = TressetteGame(rules, rng.randrange(players))
        game.deal(rng.sample(range(40), 40))
        seat = rng.randrange(players)
        pos = table_of(game, seat)
        while True:
            card = rng.choice(table_legal_cards(pos))
            assert sorted(table_legal_cards(pos)) == game.legal_moves()
            pos = table_play(pos, card)
            game.apply(card)
            if game.is_over or game.needs_pack:
                break
            assert pos == table_of(game, seat)
        log = game.log[-1]
        side = rules.sides[rules.side_of(seat)]
        if len(log.tricks) == rules.num_tricks:  # played out, not ended at 31
            assert pos.taken == sum(log.thirds[s] for s in side) + 3 * (log.last_winner in side)


@pytest.mark.parametrize("players", [4, 3, 2])
def test_endings_of_real_hands_agree_with_brute_force(players):
    """The last 3 tricks of hands dealt and played at random, for a random seat's side."""
    rng = random.Random(11 * players)
    for low in (False, True):
        rules = TressetteRules(players=players, low=low)
        for _ in range(10):
            game = TressetteGame(rules, 0)
            game.deal(rng.sample(range(40), 40))
            stop = rules.num_tricks - 3
            while len(game.log[-1].tricks) < stop or game.trick and rng.random() < 0.5:
                game.apply(rng.choice(game.legal_moves()))
                if game.is_over:
                    break
            if game.is_over:
                continue
            pos = table_of(game, rng.randrange(players))
            for backend in AVAILABLE:
                assert table_solve(pos, backend=backend) == table_brute_force(pos), str(pos)


@pytest.mark.parametrize("change, message", [
    (dict(hands=(0b1,)), "2, 3 or 4 hands"),
    (dict(leader=3), "leader must be a seat 0..2"),
    (dict(side=0b111), "side must be a bitmask of 1 to 2 of the 3 seats"),
    (dict(side=0), "side must be a bitmask"),
    (dict(low=1), "low must be True or False"),
    (dict(taken=-1), "taken must be an int 0..60"),
    (dict(stock=(30, 31)), "a stock is two-handed"),
    (dict(trick=(1, 2, 3)), "a trick in progress holds 0 to 2 cards"),
    (dict(hands=(0b11, 0b1, 0b100)), "held twice"),
    (dict(hands=(0b11, 0b100, 0b1000)), "hand sizes do not fit"),
])
def test_bad_positions_are_named(change, message):
    good = TablePosition(hands_of("D3 B4", "D2 C4", "DA C5"), 0, (), 0b001)
    table_solve(good)
    with pytest.raises(ValueError, match=message):
        table_solve(good._replace(**change))


def test_table_of_needs_a_hand_in_play():
    game = TressetteGame()
    with pytest.raises(ValueError, match="no hand is in play"):
        table_of(game, 0)
    game.deal(list(range(40)))
    with pytest.raises(ValueError, match="bad seat 4"):
        table_of(game, 4)
