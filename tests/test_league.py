"""The league (agents/league.py, mediatore-league): each pair's edge is the duplicate
tournament's own figure for that lineup, the ratings recover known strengths and their
intervals, the edges are antisymmetric, and the command answers bad arguments in one line."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from agents.league import LeagueResult, Pair, fit_ratings, rating_quantile, run_league
from agents.tournament import Z95, run, t95
from mediatore_env.tools.league import main

ROOT = Path(__file__).resolve().parent.parent


def test_the_ratings_recover_known_strengths():
    """Edges drawn around known differences of strength, every pair played: the fit finds the
    strengths (summing to zero) within their intervals, and a better-measured pair counts
    more."""
    truth = {"a": -1.0, "b": 0.0, "c": 0.25, "d": 0.75}
    rng = random.Random(7)
    pairs = [Pair(x, y, [truth[x] - truth[y] + rng.gauss(0, 0.3) for _ in range(400)])
             for i, x in enumerate(truth) for y in list(truth)[i + 1:]]
    ratings = {r.name: r for r in fit_ratings(list(truth), pairs)}
    assert list(ratings) == ["d", "c", "b", "a"]  # best first
    assert math.isclose(sum(r.rating for r in ratings.values()), 0.0, abs_tol=1e-9)
    for name, r in ratings.items():
        assert r.ci[0] < truth[name] < r.ci[1], name
        assert 0 < r.ci[1] - r.ci[0] < 0.1


@pytest.mark.parametrize("episodes", [2, 3, 4, 6, 40])
def test_with_two_agents_the_ratings_say_what_their_pair_says(episodes):
    """Two agents' ratings are plus and minus half their pair's edge, so the difference of the
    ratings has twice a rating's interval: the pair's, Student's t for its episodes, which
    widens as they get fewer. Zero lies inside the one exactly when inside the other."""
    rng = random.Random(episodes)
    pair = Pair("a", "b", [0.5 + rng.gauss(0, 1) for _ in range(episodes)])
    a, b = sorted(fit_ratings(["a", "b"], [pair]), key=lambda r: r.name)
    mean, low, high = pair.edge
    assert a.rating - b.rating == pytest.approx(mean)
    assert 2 * (a.ci[1] - a.rating) == pytest.approx(high - mean)
    assert (a.ci[1] - a.rating) / math.sqrt(pair.variance / 4) == pytest.approx(t95(episodes - 1))
    assert t95(episodes - 1) > Z95
    assert (a.ci[0] < 0 < a.ci[1]) == (low < 0 < high) == (b.ci[0] < 0 < b.ci[1])


def test_a_small_leagues_ratings_hold_zero_where_its_pair_does():
    """Two-handed Tressette, four games of seed 3: greedy's edge over random, +0.75 [-0.05,
    +1.55], includes zero, and so does greedy's rating (with the normal quantile it was +0.37
    [+0.13, +0.62], clear of zero)."""
    league = run_league("tressette2", ["random", "greedy"], episodes=4, seed=3)
    mean, low, high = league.edge("greedy", "random")
    assert low < 0 < high
    for r in league.ratings:
        assert r.ci[0] < 0 < r.ci[1], r


def test_the_pair_of_fewest_episodes_sets_the_quantile():
    """A rating leans on every pair: its quantile is the least measured pair's, and a pair of
    one episode, which has no interval, leaves the ratings none either."""
    many, few = Pair("a", "b", [0.1 * i for i in range(30)]), Pair("b", "c", [0.3, 0.1, 0.2])
    assert rating_quantile([many, few]) == t95(2)
    assert rating_quantile([many]) == t95(29)
    one = fit_ratings(["a", "b"], [Pair("a", "b", [1.0])])
    assert all(math.isnan(x) for r in one for x in r.ci)
    assert all(math.isnan(x) for x in Pair("a", "b", [1.0]).edge[1:])


def test_a_noisier_edge_weighs_less():
    """Three agents in a triangle whose edges disagree: the fit follows the precise edges."""
    exact = [Pair("b", "a", [1.0, 1.01, 0.99]), Pair("c", "b", [1.0, 1.01, 0.99])]
    noisy = Pair("c", "a", [0.0, 8.0, -8.0, 4.0, -4.0])  # says c = a, loosely
    r = {x.name: x.rating for x in fit_ratings(["a", "b", "c"], [*exact, noisy])}
    assert r["c"] - r["a"] == pytest.approx(2.0, abs=0.01)


def test_a_pair_whose_every_episode_agreed_does_not_drown_the_others():
    """Four-handed Tressette's league (seed 3804): pimc and greedy each won every game
    against random, and pimc was ahead of greedy by 0.33 per game over six. With an unmeasured
    variance weighed as zero, the two certain pairs pinned pimc and greedy level; weighed as
    the pair measured, pimc is rated ahead by about what its pair said."""
    pairs = [Pair("random", "greedy", [-1.0] * 6), Pair("random", "pimc", [-1.0] * 6),
             Pair("greedy", "pimc", [0.0, -1.0, 0.0, -1.0, 0.0, 0.0])]
    r = {x.name: x for x in fit_ratings(["random", "greedy", "pimc"], pairs)}
    assert r["pimc"].rating - r["greedy"].rating == pytest.approx(0.33, abs=0.15)
    assert r["random"].ci[1] < r["greedy"].rating < r["pimc"].rating
    assert all(x.ci[1] > x.ci[0] for x in r.values())


def test_a_pairs_edge_is_the_tournaments_figure_for_its_lineups():
    league = run_league("tressette2", ["random", "greedy"], episodes=12, seed=3)
    (pair,) = league.pairs
    direct = run("tressette2", {"random": "random", "greedy": "greedy"},
                 [("random", "greedy"), ("greedy", "random")], 12, 3)
    by_name = {s.name: s for s in direct.standings}
    # zero-sum with a seat each: half the difference is the first agent's own mean
    assert pair.edge[0] == pytest.approx(by_name["random"].mean)
    assert pair.edge[0] == pytest.approx(-by_name["greedy"].mean)
    assert league.edge("greedy", "random")[0] == pytest.approx(-pair.edge[0])


def test_three_seats_play_both_lineups_and_the_league_is_reproducible():
    one = run_league("tressette3", ["random", "greedy"], episodes=6, seed=5)
    two = run_league("tressette3", ["random", "greedy"], episodes=6, seed=5)
    assert one.to_dict()["pairs"] == two.to_dict()["pairs"]
    assert len(one.pairs[0].per_episode) == 6


def test_greedy_is_rated_above_random_clear_of_zero():
    league = run_league("tressette2", ["random", "greedy"], episodes=40, seed=11)
    best, worst = league.ratings
    assert (best.name, worst.name) == ("greedy", "random")
    assert best.ci[0] > 0 > worst.ci[1]


def test_the_command_prints_and_saves_the_league(tmp_path, capsys):
    out = tmp_path / "league.json"
    assert main(["--game", "tressette2", "--agents", "random", "greedy", "--deals", "6",
                 "--seed", "2", "--json", str(out), "-q"]) == 0
    text = capsys.readouterr().out
    assert "League of tressette2 agents: 2 agents, 1 pair, 6 games each" in text
    assert "machine:" in text
    data = json.loads(out.read_text())
    assert data["format"] == "mediatore-league" and data["unit"] == "game"
    assert {r["name"] for r in data["ratings"]} == {"random", "greedy"}
    assert len(data["pairs"][0]["per_episode"]) == 6


def test_a_bidding_league_takes_policies_as_mediatore_bench_does(tmp_path, capsys):
    """Policies by name with options, or by module:Class path, each in the --player: the same
    policy under two names is level in every deal; one that bids differently is not."""
    out = tmp_path / "bidding.json"
    assert main(["--bidding", "pass", "agents.mediatore.greedy:PassBidding",
                 "random:bid_rate=1.0", "--player", "greedy", "--deals", "3", "--seed", "4",
                 "--json", str(out), "-q"]) == 0
    capsys.readouterr()
    pairs = {(p["first"], p["second"]): p["per_episode"] for p in json.loads(out.read_text())["pairs"]}
    same = ("greedy:bidding=pass", "greedy:bidding=agents.mediatore.greedy:PassBidding")
    assert pairs[same] == [0.0, 0.0, 0.0]
    assert any(pairs[(same[0], "greedy:bidding=random:bid_rate=1.0")])


@pytest.mark.parametrize("args, message", [
    (["--agents", "greedy"], "two different agents"),
    (["--agents", "greedy", "greedy"], "two different agents"),
    (["--agents", "greedy", "nobody"], "unknown agent 'nobody'"),
    (["--game", "tressette", "--bidding", "greedy", "bold"], "has no auction"),
    (["--bidding", "greedy", "wild"], "unknown bidding policy 'wild'"),
    (["--bidding", "greedy", "random:bid_rate=lots"], "'bid_rate': it takes a float"),
    (["--bidding", "greedy", "bold", "--player", "random"], "'random' takes no bidding policy"),
    (["--agents", "greedy", "random", "--player", "pimc"], "--player goes with --bidding"),
    (["--agents", "greedy", "random", "--rule", "colour=red"], "unknown rules switch"),
    (["--agents", "greedy", "random", "--plot", "out.txt"], "format"),
    (["--agents", "greedy", "random", "--deals", "0"], "must be 1 or more"),
])
def test_bad_arguments_get_one_line(args, message):
    run = subprocess.run([sys.executable, "-m", "mediatore_env.tools.league", *args],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2, run.stderr
    assert message in run.stderr and run.stderr.strip().count("\n") == 0


def test_a_saved_league_reads_back_with_its_ratings_fitted_again(tmp_path):
    league = run_league("tressette2", ["random", "greedy"], episodes=5, seed=4)
    saved = json.loads(json.dumps(league.to_dict()))
    assert LeagueResult.from_dict(saved).report() == league.report()
    saved["ratings"] = []  # a fit of before: the pairs' episodes are what counts
    assert LeagueResult.from_dict(saved).to_dict() == league.to_dict()
    with pytest.raises(ValueError, match="not a league"):
        LeagueResult.from_dict({"format": "mediatore-tournament"})


@pytest.mark.parametrize("path", sorted((ROOT / "docs" / "league").glob("*.json")),
                         ids=lambda p: p.name)
def test_the_docs_saved_leagues_hold_the_ratings_of_their_pairs(path):
    """docs/league/ keeps the leagues whose tables docs/agents.md shows: their ratings are the
    ones the fit gives from their pairs' episodes today."""
    saved = json.loads(path.read_text())
    fitted = LeagueResult.from_dict(saved).to_dict()["ratings"]
    assert [r["name"] for r in saved["ratings"]] == [r["name"] for r in fitted]
    for mine, now in zip(saved["ratings"], fitted):
        assert [mine["rating"], *mine["ci95"]] == pytest.approx([now["rating"], *now["ci95"]])


def test_a_league_of_one_game_counts_it_in_the_singular():
    text = run_league("tressette2", ["random", "greedy"], episodes=1, seed=2).report()
    assert text.startswith("League of tressette2 agents: 2 agents, 1 pair, 1 game each; seed 2; "
                           "1 job, ")


@pytest.mark.parametrize("library, command", [("agents.league", "mediatore-league"),
                                              ("agents.tournament", "mediatore-bench")])
def test_running_the_library_names_the_command(library, command):
    """``python -m agents.league`` cannot run the command a layer above it: it says which to
    run, in one line, and fails, rather than print nothing and succeed."""
    run = subprocess.run([sys.executable, "-m", library, "--help"], capture_output=True,
                         text=True, cwd=ROOT)
    assert run.returncode == 2 and run.stdout == ""
    assert command in run.stderr and run.stderr.strip().count("\n") == 0
