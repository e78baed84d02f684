"""The duplicate tournament of the Tressette games: rotations and partnerships, packs from the
seed, the arithmetic of units per game, zero-sum games, the same packs in every rotation,
records that replay, results independent of the number of jobs, clear errors."""

import math

import numpy as np
import pytest

from agents.tournament import Play, rotate, standings
from agents.tressette.tournament import (HOOKS, GameFacts, mean_hands, rules_of,
                                         run_tressette_tournament)
from mediatore_env.core.cards import parse_card
from mediatore_env.tressette.game import TressetteGame
from mediatore_env.tressette.rules import FORMS

LINEUPS = {"tressette": ["greedy", "random", "greedy", "random"],
           "tressette3": ["greedy", "random", "random"],
           "tressette2": ["greedy", "random"]}


# -- rotations, packs ---------------------------------------------------------------------

@pytest.mark.parametrize("n", [4, 3, 2])
def test_every_slot_plays_every_seat_once_over_the_rotations(n):
    lineup = [f"a{i}" for i in range(n)]
    seats = {name: sorted(rotate(lineup, r).index(name) for r in range(n)) for name in lineup}
    assert all(s == list(range(n)) for s in seats.values())


def test_four_handed_partners_stay_together_and_swap_sides():
    lineup = ["a", "b", "c", "d"]
    for r in range(4):
        seated = rotate(lineup, r)
        assert {seated[0], seated[2]} in ({"a", "c"}, {"b", "d"})  # slots 0 and 2 partners
    assert [rotate(lineup, r).index("a") % 2 for r in range(4)] == [0, 1, 0, 1]


def test_packs_and_dealers_come_from_the_seed_the_game_and_the_hand():
    assert HOOKS.pack(1, 7, 2) == np.random.default_rng([1, 7, 2]).permutation(40).tolist()
    assert HOOKS.pack(1, 7, 2) != HOOKS.pack(1, 7, 3) != HOOKS.pack(1, 8, 2) != HOOKS.pack(2, 7, 2)
    assert [HOOKS.dealer(i, 3) for i in range(5)] == [0, 1, 2, 0, 1]


def test_forms_by_name():
    assert rules_of("tressette3") == FORMS["tressette3"] and rules_of(None).players == 4
    with pytest.raises(ValueError, match="unknown game 'tressette5'.*tressette, tressette3"):
        rules_of("tressette5")


# -- statistics -----------------------------------------------------------------------------

def test_units_per_game_are_seat_means_over_the_rotations_by_hand():
    # Three-handed, lineup (A, B, B): A plays one seat per rotation, B two.
    lineups = [("A", "B", "B")]
    game0 = [Play(0, 0, (2, -1, -1), GameFacts((31, 10, 12), 3)),   # A at seat 0 wins
             Play(0, 1, (-1, 2, -1), GameFacts((5, 32, 20), 4)),    # A at seat 1 wins
             Play(0, 2, (2, -1, -1), GameFacts((33, 8, 9), 3))]     # A at seat 2 loses
    game1 = [Play(0, r, (-1, -1, 2), GameFacts((1, 2, 31), 2)) for r in range(3)]
    a, b = sorted(standings(["A", "B"], lineups, [game0, game1], HOOKS), key=lambda s: s.name)
    # Game 0: A holds seat 0, 1, 2 in rotations 0, 1, 2 (+2, +2, -1); B the other two seats.
    assert list(a.per_deal) == [(2 + 2 - 1) / 3, (-1 - 1 + 2) / 3] == [1.0, 0.0]
    assert list(b.per_deal) == [(-2 - 2 + 1) / 6, (1 + 1 - 2) / 6] == [-0.5, 0.0]
    for k in range(2):  # zero-sum, weighted by copies
        assert a.per_deal[k] * 1 + b.per_deal[k] * 2 == 0
    assert a.stats["won"] == 3 and b.stats["won"] == 1 + 2  # seat-plays with outcome > 0
    assert a.stats["points"] == 31 + 32 + 9 + 1 + 2 + 31
    assert a.mean == pytest.approx(sum(a.per_deal) / 2) and a.copies == 1 and b.copies == 2


@pytest.mark.parametrize("form", list(FORMS))
def test_identical_agents_come_out_at_exactly_zero(form):
    n = FORMS[form].players
    result = run_tressette_tournament(["random"] * n, games=6, seed=4, rules=form)
    (only,) = result.standings
    assert list(only.per_deal) == [0.0] * 6 and only.copies == n


@pytest.mark.parametrize("form", list(FORMS))
def test_every_play_is_zero_sum_and_every_rotation_deals_the_same_packs(form):
    result = run_tressette_tournament(LINEUPS[form], games=5, seed=9, rules=form,
                                      record_games=range(5))
    n = FORMS[form].players
    assert result.plays == 5 * n and mean_hands(result) > 1
    for k in range(5):
        assert sum(s.per_deal[k] * s.copies for s in result.standings) == pytest.approx(0)
    assert len(result.records) == 5 * n
    for record in result.records:
        m = record["meta"]
        expected = [HOOKS.pack(9, m["game_index"], k) for k in range(len(record["packs"]))]
        assert [[parse_card(c) for c in p] for p in record["packs"]] == expected
        assert record["dealer"] == HOOKS.dealer(m["game_index"], n)
        assert m["agents"] == rotate(list(LINEUPS[form]), m["rotation"])
        game = TressetteGame.replay(record)  # the record replays to its stored result
        assert list(game.outcome) == record["result"]["outcome"] and sum(game.outcome) == 0


def test_results_do_not_depend_on_the_number_of_jobs():
    kwargs = dict(games=8, seed=3, rules=FORMS["tressette2"].replace(low=True))
    one = run_tressette_tournament(["greedy", "random"], **kwargs)
    two = run_tressette_tournament(["greedy", "random"], jobs=2, **kwargs)
    assert two.jobs == 2 and two.executor == "processes"
    assert [(s.name, s.per_deal, s.stats) for s in one.standings] == \
        [(s.name, s.per_deal, s.stats) for s in two.standings]
    assert one.totals == two.totals


def test_report_and_json():
    result = run_tressette_tournament(["greedy", "random", "random"], games=4, seed=1,
                                      rules="tressette3")
    text = result.report()
    assert text.startswith("Duplicate tournament of tressette3 (3 players): 4 games x 1 lineup "
                           "x 3 rotations = 12 plays; seed 1")
    assert "Units per game" in text and "greedy" in text
    data = result.to_dict()
    assert data["game"] == "tressette3" and data["plays"] == 12
    assert {s["name"] for s in data["standings"]} == {"greedy", "random"}
    assert not math.isnan(data["hands_per_game"])


def test_a_report_of_one_game_says_one_game():
    text = run_tressette_tournament(["greedy", "random"], games=1, seed=1,
                                    rules="tressette2").report()
    assert text.startswith("Duplicate tournament of tressette2 (2 players): 1 game x 1 lineup x "
                           "2 rotations = 2 plays; seed 1")


def test_bad_arguments():
    with pytest.raises(ValueError, match="a lineup of tressette2 is 2 agents"):
        run_tressette_tournament(["greedy"] * 3, games=1, rules="tressette2")
    with pytest.raises(ValueError, match="games must be a positive integer"):
        run_tressette_tournament(["greedy"] * 4, games=0)
    with pytest.raises(ValueError, match=r"games to record \[5\] are not in the run"):
        run_tressette_tournament(["greedy"] * 4, games=2, record_games=[5])
    with pytest.raises(ValueError, match="unknown agent 'solver'"):
        run_tressette_tournament(["solver"] * 4, games=1)


def test_an_illegal_move_names_the_agent():
    class Stubborn:
        name, wants_observation = "stubborn", False

        def reset(self, seed=None):
            pass

        def act(self, observation, view):
            return 40  # claim, without the claim switch

    with pytest.raises(ValueError, match="agent 'stubborn' .* at seat 0: illegal move 'claim'"):
        run_tressette_tournament([Stubborn, "random"], games=1, rules="tressette2")


def test_a_registered_game_without_hooks_gets_its_units_alone(monkeypatch):
    import dataclasses

    from agents.tournament import run_tournament
    from mediatore_env import registry
    plain = dataclasses.replace(registry.get("tressette2"), name="plain2", tournament="")
    monkeypatch.setitem(registry.GAMES, "plain2", plain)
    result = run_tournament(["greedy", "random"], deals=4, seed=3, game="plain2",
                            record_deals=[1])
    hooked = run_tressette_tournament(["greedy", "random"], games=4, seed=3, rules="tressette2")
    assert [list(s.per_deal) for s in result.standings] == \
        [list(s.per_deal) for s in hooked.standings]  # the same games, the same packs
    assert result.standings[0].stats == {} and result.totals == {}
    data = result.to_dict()
    assert (data["format"], data["game"], data["games"], data["plays"]) == \
        ("tournament", "plain2", 4, 8)
    assert data["standings"][0]["per_episode"] == list(result.standings[0].per_deal)
    text = result.report()
    assert text.startswith("Duplicate tournament of Two-Handed Tressette: 4 games x 1 lineup x "
                           "2 rotations = 8 plays; seed 3")
    assert "Units per game" in text and "units/game" in text
    assert [r["meta"]["game_index"] for r in result.records] == [1, 1]
