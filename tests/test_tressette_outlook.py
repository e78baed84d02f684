"""The game to 31 in the Tressette search: the outlook model (agents/tressette/outlook.py: each
side's expected outcome from the totals) is zero-sum, symmetric, the rules' outcome at 31 and
monotone in a side's points; a game can start from given totals (the worlds of a search do) and
keeps them through its records; the PIMC agent's ``outlook`` option plays legally, in worlds
that begin from the real totals (that it reads only what its seat knows is
tests/test_tressette_search.py's test, with the option)."""

import itertools
import random

import pytest

from agents.base import play
from agents.tressette import TressetteGreedyAgent, TressettePimcAgent
from agents.tressette.greedy import roll_out
from agents.tressette.outlook import expected_outcome, hand_point_model
from agents.tressette.pimc import game_value, hand_end_totals, side_thirds
from agents.tressette.tournament import HOOKS
from mediatore_env.tressette.game import TressetteGame
from mediatore_env.tressette.rules import FORMS, TARGET, outcome
from tests.test_tressette_agents import VARIANTS, Sealed

EVERY_FORM = [FORMS[f].replace(low=low) for f in FORMS for low in (False, True)]
IDS = [f"{r.form}-low{r.low:d}" for r in EVERY_FORM]
GREEDY = TressetteGreedyAgent()


def some_totals(rules, n=40, seed=0):
    rng = random.Random(seed)
    return [tuple(rng.randrange(TARGET) for _ in range(rules.num_sides)) for _ in range(n)]


@pytest.mark.parametrize("rules", EVERY_FORM, ids=IDS)
def test_the_model_of_a_hand_deals_its_points_and_sums_to_one(rules):
    drawn = hand_point_model(rules)
    assert abs(sum(chance for _, chance in drawn) - 1) < 1e-9
    # The cards and the last trick make 35 thirds, rounded down per side: 11 points between
    # two sides, melds on top. Three-handed the dead hand's cards are never won, and it may
    # hold 18 thirds (four Assi, six cards of a third): 17 thirds in play, 4 points at least.
    least = {4: 11, 3: 4, 2: 11}[rules.players]
    assert all(least <= sum(points) and min(points) >= 0 for points, _ in drawn)


@pytest.mark.parametrize("rules", EVERY_FORM, ids=IDS)
def test_the_outlook_is_zero_sum_and_no_side_is_favoured(rules):
    seats = [len(s) for s in rules.sides]
    for totals in some_totals(rules):
        value = expected_outcome(rules, totals)
        assert abs(sum(v * n for v, n in zip(value, seats))) < 1e-9
        for order in itertools.permutations(range(rules.num_sides)):
            swapped = expected_outcome(rules, [totals[s] for s in order])
            assert all(abs(swapped[i] - value[s]) < 1e-9 for i, s in enumerate(order))


@pytest.mark.parametrize("rules", EVERY_FORM, ids=IDS)
def test_at_31_the_outlook_is_the_rules_outcome(rules):
    def by_side(seat_outcome):
        return [seat_outcome[seats[0]] for seats in rules.sides]

    for totals in some_totals(rules, seed=1):
        ended = (TARGET + 2,) + totals[1:]
        assert expected_outcome(rules, ended) == tuple(by_side(outcome(rules, ended, 0)))
        # Two sides at 31 in one hand: which was first is not known, each counts alike.
        both = (TARGET + 2, TARGET + totals[1] % 5) + totals[2:]
        mean = [(a + b) / 2 for a, b in zip(by_side(outcome(rules, both, 0)),
                                             by_side(outcome(rules, both, 1)))]
        assert expected_outcome(rules, both) == pytest.approx(mean)


@pytest.mark.parametrize("rules", [r for r in EVERY_FORM if r.num_sides == 2], ids=str)
def test_a_point_is_worth_having_and_in_low_hand_worth_avoiding(rules):
    sign = -1 if rules.low else 1
    for mine, theirs in itertools.product(range(TARGET - 1), range(TARGET)):
        more = expected_outcome(rules, (mine + 1, theirs))[0]
        assert sign * (more - expected_outcome(rules, (mine, theirs))[0]) >= -1e-9


def test_low_hand_at_30_is_lost_unless_the_hand_gives_no_point():
    low = FORMS["tressette"].replace(low=True)
    zero = sum(chance for points, chance in hand_point_model(low) if points[0] == 0)
    assert 0 < zero < 0.2  # a side takes no point in a hand now and then
    # A point loses (-1); no point goes on to a game worth between -1 and +1.
    assert abs(expected_outcome(low, (30, 0))[0] + (1 - zero)) <= zero


# -- a game taken up from its totals -------------------------------------------------------

def test_a_game_started_from_totals_ends_at_31_in_the_first_hand():
    game = TressetteGame(FORMS["tressette2"], 0, totals=(29, 30))
    assert game.totals == [29, 30] and game.before == [29, 30]
    game.deal(HOOKS.pack(5, 0, 0))
    roll_out(game)
    assert game.is_over and game.hand_number == 1 and max(game.totals) >= TARGET
    assert game.view(0).before == (29, 30)


@pytest.mark.parametrize("totals", [(1, 2, 3), (31, 0), (-1, 0), (1.0, 0), (True, 0)])
def test_bad_starting_totals_are_refused_with_what_is_valid(totals):
    with pytest.raises(ValueError, match=r"bad totals .*; valid: 2 ints from 0 to 30"):
        TressetteGame(FORMS["tressette"], 0, totals=totals)


def test_the_starting_totals_survive_json_and_a_record_refuses_them():
    game = TressetteGame(FORMS["tressette"].replace(low=True), 1, totals=(20, 7))
    game.deal(HOOKS.pack(6, 0, 0))
    while not game.is_over and game.hand_number < 3:
        if game.needs_pack:
            game.deal(HOOKS.pack(6, 0, game.hand_number))
        game.apply(GREEDY.act(None, game.view(game.to_move)))
    assert game.to_json()["start_totals"] == [20, 7]
    assert TressetteGame.from_json(game.to_json()) == game
    assert "start_totals" not in TressetteGame(FORMS["tressette"]).to_json()
    with pytest.raises(ValueError, match=r"no record of a game taken up at totals \[20, 7\]"):
        game.record()


def test_the_view_tells_the_totals_before_the_hand():
    game = TressetteGame(FORMS["tressette"], 0, totals=(4, 9))
    packs = lambda k: HOOKS.pack(7, 0, k)  # noqa: E731
    game.deal(packs(0))
    first = None
    while game.hand_number < 2 or len(game.log[-1].tricks) < 2:
        if game.needs_pack:
            first = game.totals[:]
            game.deal(packs(game.hand_number))
        game.apply(GREEDY.act(None, game.view(game.to_move)))
        if game.hand_number == 1 and not game.needs_pack:  # between hands: the next's start
            assert game.view(2).before == (4, 9)
    view = game.view(2)
    assert view.before == tuple(first) != (4, 9)
    assert view.before == tuple(t - p for t, p in zip(view.totals, view.hand_points))


@pytest.mark.parametrize("form", list(FORMS))
def test_the_totals_a_solved_hand_ends_with(form):
    """Every trick of a hand, the hand's end read from the side's final thirds alone: its own
    total exactly, and with two sides the other's too."""
    rules = FORMS[form]
    for seed in range(3):
        game = TressetteGame(rules, seed % rules.players, totals=(3,) * rules.num_sides)
        game.deal(HOOKS.pack(11, seed, 0))
        positions = []
        while not game.needs_pack:
            if game.log[-1].tricks:  # the melds are declared
                positions.append(game.clone())
            game.apply(GREEDY.act(None, game.view(game.to_move)))
        for side in range(rules.num_sides):
            thirds = side_thirds(game, side) - 3 * game.log[-1].meld_points[side]
            for position in positions:
                totals, _ = hand_end_totals(position, side, thirds)
                assert totals[side] == game.totals[side]
                if rules.num_sides == 2:
                    assert totals == game.totals


# -- the agent -----------------------------------------------------------------------------

def _outlook():
    return TressettePimcAgent(time_limit=None, max_worlds=2, outlook=True)


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.form}-low{r.low:d}-claim{r.claim:d}")
def test_pimc_with_the_outlook_plays_whole_games_legally_from_sealed_views(rules):
    n = rules.players
    lineup = [Sealed(_outlook() if s % 2 == 0 else TressetteGreedyAgent()) for s in range(n)]
    game = play(TressetteGame(rules, 0), lineup, lambda k: HOOKS.pack(8, 0, k), seeds=range(n))
    assert game.is_over and sum(game.outcome) == 0


def test_its_worlds_begin_from_the_real_totals_and_an_ended_one_is_worth_its_outcome():
    rules = FORMS["tressette"].replace(low=True)
    game = TressetteGame(rules, 0)
    packs = lambda k: HOOKS.pack(10, 0, k)  # noqa: E731
    while game.hand_number < 2 or len(game.log[-1].tricks) < 3:  # into the second hand
        if game.needs_pack:
            game.deal(packs(game.hand_number))
        game.apply(GREEDY.act(None, game.view(game.to_move)))
    assert any(game.before)
    view, agent = game.view(game.to_move), _outlook()
    world = agent.world(view, random.Random(0))
    assert world.totals == game.totals and world.before == game.before
    ended = TressetteGame(rules, 0, totals=(30, 30))
    ended.deal(packs(0))
    roll_out(ended)
    assert ended.is_over and round(game_value(ended, ended.view(0))) == ended.outcome[0]


def test_a_bad_outlook_option_is_refused():
    with pytest.raises(ValueError, match="outlook must be True or False, got 'yes'"):
        TressettePimcAgent(outlook="yes")
