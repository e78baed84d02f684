"""Double-dummy solver: both search cores against plain minimax, and hand-worked endings.

The C core (``_dds``) is skipped, not failed, when the extension is not built; the
pure-Python core always runs. Run the long checks with ``pytest -m slow``.
"""

from __future__ import annotations

import random

import pytest

from mediatore_env.analysis import solver
from mediatore_env.analysis.solver import (Position, brute_force, legal_cards, move_values, play,
                                           reaches, solve, to_move)
from mediatore_env.core.cards import CARD_NAMES, parse_cards, thirds_of, to_mask

BACKENDS = [
    "python",
    pytest.param(
        "c", marks=pytest.mark.skipif(solver._dds is None, reason="C core mediatore_env.analysis._dds not built")
    ),
]
SIDES = (0b0001, 0b0010, 0b0100, 0b1000, 0b0101, 0b1010, 0b0011, 0b0110, 0b1100, 0b1001)


def random_position(rng: random.Random, tricks: int) -> Position:
    """``tricks`` tricks left: 4 random hands, then 0 to 3 random legal cards played to
    the current trick; random leader, declarer side of 1 or 2 seats, taken and monte."""
    cards = rng.sample(range(40), 4 * tricks)
    hands = tuple(to_mask(cards[s * tricks:(s + 1) * tricks]) for s in range(4))
    pos = Position(hands, rng.randrange(4), (), rng.choice(SIDES), rng.randrange(15), rng.randrange(13))
    for _ in range(rng.randrange(4)):
        pos = play(pos, rng.choice(legal_cards(pos)))
    return pos


def random_deal(rng: random.Random) -> Position:
    """A full 9-trick deal; the monte is the 4 cards left over."""
    cards = rng.sample(range(40), 40)
    hands = tuple(to_mask(cards[9 * s:9 * s + 9]) for s in range(4))
    monte = thirds_of(to_mask(cards[36:]))
    return Position(hands, rng.randrange(4), (), rng.choice(SIDES), 0, monte)


def hands_of(*texts: str) -> tuple[int, int, int, int]:
    return tuple(to_mask(parse_cards(t)) for t in texts)


def named(values: dict[int, int]) -> dict[str, int]:
    return {CARD_NAMES[c]: v for c, v in values.items()}


# -- agreement with plain minimax ------------------------------------------------------

AVAILABLE = ["python"] + (["c"] if solver._dds is not None else [])


@pytest.mark.parametrize("tricks,count", [(3, 2000), (4, 500), (5, 30)])
def test_solve_agrees_with_brute_force(tricks, count):
    rng = random.Random(1000 * tricks + 7)
    for _ in range(count):
        pos = random_position(rng, tricks)
        expected = brute_force(pos)
        for backend in AVAILABLE:
            assert solve(pos, backend=backend) == expected, (backend, str(pos))


@pytest.mark.parametrize("backend", BACKENDS)
def test_move_values_agree_with_brute_force_per_move(backend):
    rng = random.Random(11)
    for i in range(150):
        pos = random_position(rng, 3 if i % 3 else 4)
        values = move_values(pos, backend=backend)
        assert sorted(values) == sorted(legal_cards(pos))
        for card, value in values.items():
            assert value == brute_force(play(pos, card)), (str(pos), CARD_NAMES[card])
        best = max if pos.declarer_side >> to_move(pos) & 1 else min
        assert best(values.values()) == solve(pos, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_reaches_is_solve_at_least_target(backend):
    rng = random.Random(12)
    for _ in range(60):
        pos = random_position(rng, rng.choice((4, 5)))
        value = solve(pos, backend=backend)
        for target in sorted({0, 1, value - 1, value, value + 1, 18, 36, pos.taken}):
            assert reaches(pos, target, backend=backend) == (value >= target), (str(pos), target)


def test_backends_agree_on_longer_endings():
    if solver._dds is None:
        pytest.skip("C core not built")
    rng = random.Random(13)
    for _ in range(40):
        pos = random_position(rng, 6)
        assert solve(pos, backend="c") == solve(pos, backend="python"), str(pos)


def test_python_core_visits_the_same_nodes_as_c():
    """The fallback is the same algorithm, not just the same answers."""
    if solver._dds is None:
        pytest.skip("C core not built")
    rng = random.Random(14)
    for _ in range(40):
        pos = random_position(rng, 5)
        args = (pos.hands, pos.leader, pos.trick, pos.declarer_side, pos.monte_thirds)
        solver._dds.clear()
        c_value = solver._dds.solve(*args)
        py = solver._PySearch()
        assert (py.solve(*args), py.nodes) == (c_value, solver._dds.last_nodes()), str(pos)


# -- the table: bounds on thirds still to win, kept between calls -----------------------

@pytest.mark.parametrize("backend", BACKENDS)
def test_value_is_taken_plus_a_future_independent_of_taken(backend):
    """The table stores bounds on the thirds still to be won, so positions that differ
    only in ``taken`` share its entries and their values differ by exactly that."""
    rng = random.Random(15)
    for _ in range(40):
        pos = random_position(rng, 5)
        base = solve(pos._replace(taken=0), backend=backend)
        for taken in (3, 17):
            assert solve(pos._replace(taken=taken), backend=backend) == base + taken
            assert reaches(pos._replace(taken=taken), 18, backend=backend) == (base + taken >= 18)


def test_c_table_survives_changes_of_context():
    """Alternating declarer sides and montes between calls must not mix table entries."""
    if solver._dds is None:
        pytest.skip("C core not built")
    rng = random.Random(16)
    positions = [random_position(rng, 4) for _ in range(30)]
    expected = [brute_force(p) for p in positions]
    for _ in range(3):
        for pos, value in zip(positions, expected):
            assert solve(pos, backend="c") == value
            other_side = SIDES[(SIDES.index(pos.declarer_side) + 3) % len(SIDES)]
            flipped = pos._replace(declarer_side=other_side)
            assert solve(flipped, backend="c") == brute_force(flipped)


def test_best_line_keeps_the_value():
    """Along a line where each seat plays a best card, the exact value never changes."""
    rng = random.Random(17)
    for _ in range(3):
        pos = random_position(rng, 7) if solver._dds is not None else random_position(rng, 5)
        value = solve(pos)
        while any(pos.hands):
            values = move_values(pos)
            best = max if pos.declarer_side >> to_move(pos) & 1 else min
            assert best(values.values()) == value, str(pos)
            pos = play(pos, rng.choice([c for c, v in values.items() if v == value]))
        assert pos.taken == value


# -- node budgets ----------------------------------------------------------------------

def fresh_counts(pos, backend, target=18, node_limit=None):
    """(reaches, nodes) from an empty table."""
    solver.clear_table()
    return reaches(pos, target, node_limit=node_limit, backend=backend), solver.last_nodes()


@pytest.mark.parametrize("backend", BACKENDS)
def test_node_limit_answers_exactly_when_the_search_fits(backend):
    """A search of n nodes answers as without a limit when allowed n nodes or more, and
    gives up after exactly node_limit nodes when allowed fewer."""
    rng = random.Random(21)
    for i in range(80 if backend == "c" else 40):
        pos = random_position(rng, 6 if backend == "c" and i % 2 else 5)
        target = rng.choice((18, pos.taken + rng.randrange(1, 20)))
        answer, n = fresh_counts(pos, backend, target)
        assert isinstance(answer, bool)
        for limit in (n, n + 1, 10**12):
            assert fresh_counts(pos, backend, target, limit) == (answer, n), (str(pos), limit)
        if n:
            for limit in {0, n // 2, n - 1}:
                assert fresh_counts(pos, backend, target, limit) == (None, limit), (str(pos), limit)
        solver.clear_table()
        value = solve(pos, backend=backend)
        m = solver.last_nodes()
        solver.clear_table()
        assert solve(pos, node_limit=m, backend=backend) == value
        solver.clear_table()
        assert solve(pos, node_limit=m - 1, backend=backend) is None and solver.last_nodes() == m - 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_tiny_node_limit_on_a_full_deal_gives_none(backend):
    rng = random.Random(22)
    for _ in range(5):
        pos = random_deal(rng)
        assert reaches(pos, 18, node_limit=10, backend=backend) is None
        assert solver.last_nodes() == 10
        assert solve(pos, node_limit=100, backend=backend) is None
        assert solver.last_nodes() == 100


def test_answers_that_need_no_search_ignore_the_limit():
    pos = Position(hands_of("DA C3", "D3 C4", "D5 C5", "D6 C6"), 0, (), 0b0001, taken=18)
    for backend in AVAILABLE:
        assert reaches(pos, 18, node_limit=0, backend=backend) is True and solver.last_nodes() == 0
        assert reaches(pos, 28, node_limit=0, backend=backend) is False and solver.last_nodes() == 0
        assert solve(pos, node_limit=0, backend=backend) is None  # 4 more thirds to find
        with pytest.raises(ValueError, match="node_limit"):
            reaches(pos, 20, node_limit=-1, backend=backend)


def test_aborted_searches_leave_the_c_table_correct():
    """Searches cut off at every depth, on one table, then exact values: the table holds
    only bounds that sub-searches proved, so nothing goes wrong."""
    if solver._dds is None:
        pytest.skip("C core not built")
    rng = random.Random(23)
    solver.clear_table()
    for _ in range(200):
        pos = random_position(rng, rng.choice((3, 4, 4)))
        for limit in (1, 2, 5, 17, 60, 250, 1000):
            reaches(pos, rng.randrange(pos.taken, pos.taken + 25), node_limit=limit, backend="c")
        assert solve(pos, backend="c") == brute_force(pos), str(pos)
    # Full deals, where the table holds much more: cut-off searches of the deal and of the
    # positions after its first cards, then the exact value against a fresh table.
    for _ in range(4):
        pos = random_deal(rng)
        solver.clear_table()
        expected = solve(pos, backend="c")
        for limit in (10, 1000, 30000, 100000):
            for card in legal_cards(pos):
                reaches(play(pos, card), 18, node_limit=limit, backend="c")
            solve(pos, node_limit=limit, backend="c")
        assert solve(pos, backend="c") == expected, str(pos)


def test_aborted_searches_leave_the_python_table_correct():
    rng = random.Random(24)
    for _ in range(100):
        pos = random_position(rng, 4)
        core = solver._PySearch()  # one table for all the calls, as the C core's
        args = (pos.hands, pos.leader, pos.trick, pos.declarer_side, pos.monte_thirds)
        for limit in (1, 2, 5, 17, 60, 250):
            assert core.reach(*args, rng.randrange(1, 25), limit) in (True, False, None)
        assert pos.taken + core.solve(*args) == brute_force(pos), str(pos)


def test_backends_count_nodes_alike_with_limits_and_after_aborts():
    """Same moves, same table contents: the C and Python cores run out of nodes at the same
    node, and after aborted searches their (kept) tables still lead to equal counts."""
    if solver._dds is None:
        pytest.skip("C core not built")
    rng = random.Random(25)
    for _ in range(40):
        pos = random_position(rng, 5)
        args = (pos.hands, pos.leader, pos.trick, pos.declarer_side, pos.monte_thirds)
        py = solver._PySearch()
        solver._dds.clear()
        for limit in (3, 40, 400, None):
            need = rng.randrange(1, 30)
            c_answer = solver._dds.reach(*args, need, limit)
            c_nodes = solver._dds.last_nodes()
            assert (py.reach(*args, need, limit), py.nodes) == (c_answer, c_nodes), (str(pos), need, limit)
        assert (py.solve(*args, 500), py.nodes) == (solver._dds.solve(*args, 500), solver._dds.last_nodes())


# -- hand-worked endings ---------------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
def test_keep_the_three_for_the_last_trick(backend):
    # Seat 0 alone, to lead: DA C3 against D3 C4 / D5 C5 / D6 C6, monte empty.
    # - DA first: seat 1 must follow with D3 and wins it (A 3 + 3 1 = 4 thirds to the
    #   defenders); seat 1 leads C4 and seat 0's C3 wins the last trick: 1 + 3 = 4 thirds.
    # - C3 first: it wins (1 third); then the DA falls to the D3 in the last trick: nothing.
    pos = Position(hands_of("DA C3", "D3 C4", "D5 C5", "D6 C6"), 0, (), 0b0001)
    assert named(move_values(pos, backend=backend)) == {"DA": 4, "C3": 1}
    assert solve(pos, backend=backend) == 4
    assert reaches(pos, 4, backend=backend) and not reaches(pos, 5, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_do_not_discard_the_ace_on_the_opponents_trick(backend):
    # Seats 0 and 2 against 1 and 3; taken 12, monte 0. Seat 3 led B4, seat 0 (void in
    # Bastoni) must discard from DA C4; seat 1 then has to play B3 and wins, seat 2 adds B5.
    # - C4 away: the defenders get B3's 1 third. Seat 1 leads D5, seat 2's D3 beats D6 and
    #   seat 0's DA: D3 1 + DA 3 + last trick 3 = 7 -> 12 + 7 = 19.
    # - DA away: the defenders get 4. The last trick D5 D3 D6 C4 gives 1 + 3 = 4 -> 16.
    hands = hands_of("DA C4", "B3 D5", "B5 D3", "D6")
    pos = Position(hands, 3, tuple(parse_cards("B4")), 0b0101, taken=12)
    assert named(move_values(pos, backend=backend)) == {"DA": 16, "C4": 19}
    assert solve(pos, backend=backend) == 19
    assert reaches(pos, 18, backend=backend) and not reaches(pos, 20, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_monte_goes_with_the_last_trick_and_a_discard_never_wins(backend):
    # Last trick: seat 0 leads D4, seat 1 D5, seat 2 discards C3, seat 3's D6 wins:
    # C3 1 + last trick 3 + monte 5 = 9 thirds to seat 3's side.
    hands = hands_of("D4", "D5", "C3", "D6")
    assert solve(Position(hands, 0, (), 0b1000, 10, 5), backend=backend) == 19
    assert solve(Position(hands, 0, (), 0b0100, 10, 5), backend=backend) == 10
    assert solve(Position(hands, 0, (), 0b1010, 10, 5), backend=backend) == 19


@pytest.mark.parametrize("backend", BACKENDS)
def test_finished_deal_and_early_answers(backend):
    empty = Position((0, 0, 0, 0), 2, (), 0b0001, taken=20, monte_thirds=4)
    assert solve(empty, backend=backend) == 20
    assert move_values(empty, backend=backend) == {}
    pos = Position(hands_of("DA C3", "D3 C4", "D5 C5", "D6 C6"), 0, (), 0b0001, taken=18)
    assert reaches(pos, 18, backend=backend)  # already there
    assert not reaches(pos, 18 + 10, backend=backend)  # more than is left to win


# -- the API ----------------------------------------------------------------------------

def test_play_completes_a_trick():
    pos = Position(hands_of("DA C4", "B3 D5", "B5 D3", "D6"), 3, tuple(parse_cards("B4")), 0b0101, 12)
    assert to_move(pos) == 0 and legal_cards(pos) == parse_cards("DA C4")
    pos = play(play(play(pos, parse_cards("DA")[0]), parse_cards("B3")[0]), parse_cards("B5")[0])
    assert pos.leader == 1 and pos.trick == () and pos.taken == 12  # B3 won for the defenders
    assert legal_cards(pos) == parse_cards("D5")
    with pytest.raises(ValueError, match="not legal"):
        play(pos, parse_cards("C4")[0])


@pytest.mark.parametrize(
    "pos, message",
    [
        (Position(hands_of("DA", "DA", "D4", "D5"), 0, (), 1), "held twice"),
        (Position(hands_of("DA C4", "D3", "D4 C5", "D5 C6"), 0, (), 1), "hand sizes"),
        (Position(hands_of("C4", "D3", "D4", "D5"), 0, tuple(parse_cards("DA")), 1), "hand sizes"),
        (Position(hands_of("C4", "D3", "D4", "D5"), 0, (), 0b0111), "1 or 2 seats"),
        (Position(hands_of("C4", "D3", "D4", "D5"), 4, (), 1), "leader"),
        (Position(hands_of("C4", "D3", "D4", "D5"), 0, (), 1, monte_thirds=13), "monte_thirds"),
        (Position(hands_of("C4", "D3", "D4", "D5"), 1, tuple(parse_cards("D3")), 1), "in the trick"),
    ],
)
def test_impossible_positions_are_refused(pos, message):
    with pytest.raises(ValueError, match=message):
        solve(pos)


def test_backend_is_reported_and_table_clearing_changes_no_answer():
    assert solver.BACKEND in ("c", "python")
    assert (solver.BACKEND == "c") == (solver._dds is not None)
    pos = Position(hands_of("DA C4", "B3 D5", "B5 D3", "D6"), 3, tuple(parse_cards("B4")), 0b0101, 12)
    before = solve(pos)
    solver.clear_table()
    assert solve(pos) == before == 19
    with pytest.raises(ValueError, match="unknown solver backend"):
        solve(Position(hands_of("D4", "D5", "C3", "D6"), 0, (), 1), backend="fortran")


# -- long runs ---------------------------------------------------------------------------

@pytest.mark.slow
def test_solve_agrees_with_brute_force_many():
    rng = random.Random(99)
    for tricks, count in ((3, 20000), (4, 5000), (5, 500)):
        for _ in range(count):
            pos = random_position(rng, tricks)
            expected = brute_force(pos)
            for backend in AVAILABLE:
                assert solve(pos, backend=backend) == expected, (backend, str(pos))


@pytest.mark.slow
def test_full_deals_backends_agree():
    if solver._dds is None:
        pytest.skip("C core not built")
    rng = random.Random(100)
    for _ in range(5):
        pos = random_deal(rng)
        value = solve(pos, backend="c")
        assert value == solve(pos, backend="python"), str(pos)
        assert reaches(pos, 18, backend="python") == (value >= 18)


def test_ci_runs_the_c_core():
    # The extension is optional so installs never fail, but CI must notice when it did not
    # build: PIMC and the tables are ~100x slower on the fallback.
    import os
    if os.environ.get("CI") and solver.BACKEND != "c":
        pytest.fail("the C solver did not build; mediatore_env.analysis.solver fell back to pure Python")
