"""The duplicate tournament: rotations, seeds, the arithmetic of units per deal and confidence
intervals, the exact zero of identical agents, independence from the number of jobs, records."""

import json
import math
import sys

import numpy as np
import pytest

from agents import Agent
from agents.mediatore.tournament import (HOOKS, DealFacts, role_rows, run_bidding_tournament,
                                         thrown_in_share)
from agents.tournament import (Play, cyclic_lineups, derive_seed, mean_ci, rotate,
                               run_tournament, standings, t95)
from mediatore_env.mediatore.records import replay
from mediatore_env.mediatore.rules import CHIAMO, MEDIATORE, SOLO, Rules
from mediatore_env.tools.bench import main
from mediatore_env.tools.checks import parse_deal_list, parse_game_rules

# -- rotations, packs, seeds --------------------------------------------------------------

def test_every_slot_plays_every_seat_once_over_the_rotations():
    lineup = ["a", "b", "c", "d"]
    seats_of = {name: [] for name in lineup}
    for r in range(4):
        for seat, name in enumerate(rotate(lineup, r)):
            seats_of[name].append(seat)
    assert all(sorted(seats) == [0, 1, 2, 3] for seats in seats_of.values())
    assert rotate(lineup, 0) == lineup
    assert rotate(lineup, 1) == ["d", "a", "b", "c"]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_cyclic_lineups_give_each_name_the_same_number_of_slots(n):
    names = [f"p{i}" for i in range(n)]
    lineups = cyclic_lineups(names)
    counts = {name: sum(l.count(name) for l in lineups) for name in names}
    assert set(counts.values()) == {4}
    assert all(len(l) == 4 for l in lineups)


def test_a_deals_pack_and_dealer_come_from_the_seed_and_the_deal_number():
    assert HOOKS.pack(1, 7, 0) == np.random.default_rng([1, 7]).permutation(40).tolist()
    assert HOOKS.pack(1, 7, 0) == HOOKS.pack(1, 7, 0) != HOOKS.pack(1, 8, 0) != HOOKS.pack(2, 7, 0)
    assert [HOOKS.dealer(i, 4) for i in range(6)] == [0, 1, 2, 3, 0, 1]


def test_derived_seeds_are_fixed_and_distinct():
    seeds = {derive_seed(s, i, seat) for s in range(3) for i in range(50) for seat in range(4)}
    assert len(seeds) == 3 * 50 * 4
    assert derive_seed(5, 6, 2) == derive_seed(5, 6, 2)
    assert all(0 <= x < 2 ** 64 for x in seeds)


# -- statistics ---------------------------------------------------------------------------

def test_mean_ci_by_hand():
    mean, low, high = mean_ci([1.0, 2.0, 3.0, 4.0])
    half = 3.182 * math.sqrt(5 / 3) / 2  # t(3) * sd / sqrt(n), sd^2 = 5/3
    assert mean == 2.5
    assert low == pytest.approx(2.5 - half) and high == pytest.approx(2.5 + half)
    assert mean_ci([3.0, 3.0, 3.0]) == (3.0, 3.0, 3.0)
    m, lo, hi = mean_ci([2.0])
    assert m == 2.0 and math.isnan(lo) and math.isnan(hi)


def test_t_quantiles():
    assert t95(1) == 12.706 and t95(30) == 2.042
    assert t95(1000) == pytest.approx(1.962, abs=0.001)
    assert t95(10 ** 6) == pytest.approx(1.95996, abs=1e-4)


def _game(lineup, rotation, payoffs, contract=CHIAMO, declarer=0, partner=None, won=True):
    return Play(lineup, rotation, payoffs, DealFacts(contract, declarer, partner, won))


def test_units_per_deal_are_seat_means_over_the_rotations():
    # Lineup (A, B, B, B): A's result is the sum of its four seat payoffs / 4,
    # B's the sum over its twelve seats / 12.
    lineup = ("A", "B", "B", "B")
    deal0 = [
        _game(0, 0, (5, -4, 3, -4), CHIAMO, declarer=0, partner=2),       # A at seat 0
        _game(0, 1, (-24, 8, 8, 8), MEDIATORE, declarer=0),               # A at seat 1
        _game(0, 2, (0, 0, 0, 0), None, None),                            # thrown in
        _game(0, 3, (12, 12, 12, -36), SOLO, declarer=3, won=False),      # A at seat 3
    ]
    deal1 = [_game(0, r, (4, 4, 4, -12), SOLO, declarer=3, won=False) for r in range(4)]
    result = standings(["A", "B"], [lineup], [deal0, deal1], HOOKS)
    a = next(s for s in result if s.name == "A")
    b = next(s for s in result if s.name == "B")
    # deal 0: A sat at 0, 1, 2, 3 in rotations 0..3 -> 5 + 8 + 0 - 36
    assert a.per_deal[0] == (5 + 8 + 0 - 36) / 4
    assert b.per_deal[0] == -(5 + 8 + 0 - 36) / 12
    # deal 1: A sat at seats 0, 1, 2, 3 -> 4 + 4 + 4 - 12 = 0
    assert a.per_deal[1] == 0.0 and b.per_deal[1] == 0.0
    assert a.mean == pytest.approx((5 + 8 - 36) / 8)
    assert a.copies == 1 and b.copies == 3 and a.plays == 8 and b.plays == 24
    # the game's own sums are the hooks' stats, read there by name (no attribute stands in)
    assert set(a.stats) == {"roles", "contracts"} and not hasattr(a, "roles")
    # roles, by hand: A declared in deal 0 rotations 0 and 3 and deal 1 rotation 3
    assert a.stats["roles"]["declarer"] == {"count": 3, "units": 5 - 36 - 12}
    assert a.stats["roles"]["none"] == {"count": 1, "units": 0}
    assert a.stats["roles"]["partner"] == {"count": 0, "units": 0}
    assert a.stats["roles"]["defender"] == {"count": 4, "units": 8 + 4 + 4 + 4}
    assert b.stats["roles"]["partner"] == {"count": 1, "units": 3}
    # role contributions add up to the mean
    assert sum(row[3] for row in role_rows(a)) == pytest.approx(a.mean)
    assert a.stats["contracts"] == {"chiamo": {"declared": 1, "made": 1, "units": 5},
                                    "solo": {"declared": 2, "made": 0, "units": -36 - 12}}
    assert b.stats["contracts"] == {"mediatore": {"declared": 1, "made": 1, "units": -24},
                                    "solo": {"declared": 3, "made": 0, "units": -36}}
    # the agents' results, weighted by copies, sum to zero in every deal
    for i in range(2):
        assert a.per_deal[i] * 1 + b.per_deal[i] * 3 == pytest.approx(0.0)
    assert result[0].name == "B"  # sorted best first


def test_four_identical_agents_come_out_at_exactly_zero():
    for name in ("random", "greedy"):
        result = run_tournament([name] * 4, deals=12, seed=3)
        (s,) = result.standings
        assert s.mean == 0.0 and s.ci == (0.0, 0.0)
        assert all(x == 0.0 for x in s.per_deal)


def test_identical_agents_listed_twice_are_one_agent():
    result = run_tournament(["greedy", "random", "greedy", "random"], deals=6, seed=1)
    assert [s.copies for s in result.standings] == [2, 2]
    g, r = result.standing("greedy"), result.standing("random")
    assert all(x + y == 0.0 for x, y in zip(g.per_deal, r.per_deal))


def test_results_do_not_depend_on_the_number_of_jobs():
    lineup = ["greedy", "random", "random:bid_rate=0.5", "random"]
    one = run_tournament(lineup, deals=24, seed=9, jobs=1)
    two = run_tournament(lineup, deals=24, seed=9, jobs=2)
    same = ("seconds", "jobs", "executor")
    assert ({k: v for k, v in one.to_dict().items() if k not in same}
            == {k: v for k, v in two.to_dict().items() if k not in same})
    assert two.executor == "processes" and one.standings[0].mean != 0


def test_bidding_tournament_ranks_policies_and_is_zero_sum():
    result = run_bidding_tournament(["greedy", "pass", "random"], deals=4, seed=2)
    assert result.mode == "bidding" and len(result.lineups) == 3
    assert sorted(s.name for s in result.standings) == ["greedy", "pass", "random"]
    assert [s.mean for s in result.standings] == sorted((s.mean for s in result.standings), reverse=True)
    for i in range(4):
        assert sum(s.per_deal[i] for s in result.standings) == pytest.approx(0.0, abs=1e-12)
    assert "pass" in result.report()


def test_records_of_chosen_deals_replay():
    result = run_tournament(["greedy", "random", "random", "random"], deals=3, seed=4,
                            record_deals=[1])
    assert len(result.records) == 4  # deal 1 in its four rotations
    for rec in result.records:
        meta = rec["meta"]
        assert meta["deal_index"] == 1 and meta["seed"] == 4
        assert meta["agents"] == rotate(["greedy", "random", "random", "random"], meta["rotation"])
        deal = replay(rec)  # checks the record's result too
        assert deal.pack == tuple(HOOKS.pack(4, 1, 0)) and deal.dealer == 1


def test_a_thrown_in_deal_counts_with_zero():
    class Passer(Agent):
        wants_observation = False

        def act(self, observation, view):
            return 0
    passer = Passer()  # one agent in four slots (four separate instances are four agents)
    result = run_tournament([passer] * 4, deals=3, seed=0)
    (s,) = result.standings
    assert list(s.per_deal) == [0.0, 0.0, 0.0] and thrown_in_share(result) == 1.0
    assert s.stats["roles"]["none"]["count"] == 3 * 16


def test_an_agent_reading_observations_gets_the_seat_view_encoding():
    from mediatore_env.mediatore.observation import observation

    class MaskReader(Agent):
        """Plays the first move its action mask allows (and checks it against the view)."""

        def act(self, obs, view):
            assert obs is not None
            allowed = np.flatnonzero(obs["action_mask"]).tolist()
            assert allowed == sorted(view.legal_moves())
            assert np.array_equal(obs["observation"], observation(view)["observation"])
            return allowed[0]

    result = run_tournament([MaskReader(), "greedy", "greedy", "greedy"], deals=2, seed=5)
    assert {s.name for s in result.standings} == {"agent", "greedy"}


def test_illegal_moves_are_reported_with_the_agent():
    class Cheat(Agent):
        name = "cheat"
        wants_observation = False

        def act(self, observation, view):
            return 485
    with pytest.raises(ValueError, match="cheat.*seat"):
        run_tournament([Cheat(), "random", "random", "random"], deals=1)


def test_bad_arguments():
    with pytest.raises(ValueError, match="4 agents"):
        run_tournament(["greedy"] * 3)
    with pytest.raises(ValueError, match="known agents: random, greedy"):
        run_tournament(["greedy", "grumpy", "greedy", "greedy"], deals=1)
    with pytest.raises(ValueError, match="seed"):
        run_tournament(["random"] * 4, deals=1, seed=-1)
    with pytest.raises(ValueError, match="at least two"):
        run_bidding_tournament(["greedy"], deals=1)
    with pytest.raises(ValueError, match=r"\[7\] are not in the run.*numbered 0-2"):
        run_tournament(["random"] * 4, deals=3, record_deals=[1, 7])
    with pytest.raises(ValueError, match="whole numbers, got True"):
        run_tournament(["random"] * 4, deals=3, record_deals=[True])
    with pytest.raises(ValueError, match="jobs"):
        run_tournament(["random"] * 4, deals=3, jobs=0)
    with pytest.raises(ValueError, match="one or the other"):
        run_tournament(["random"] * 4, deals=3, jobs=2, ray="auto")
    with pytest.raises(ValueError, match="cluster address"):
        run_tournament(["random"] * 4, deals=3, ray="")


def test_a_ray_address_where_nothing_listens_is_refused_at_once():
    pytest.importorskip("ray")
    import socket
    with socket.socket() as s:  # a port that was free a moment ago
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ValueError, match=f"no Ray cluster answers at '127.0.0.1:{port}'"):
        run_tournament(["random"] * 4, deals=3, ray=f"127.0.0.1:{port}")


def test_a_ray_port_of_digits_int_cannot_read_is_left_to_ray():
    """'²' is a digit to str.isdigit() but no number to int(): the check that something
    listens leaves it to Ray, which names the port it cannot read, rather than failing on
    int()'s own words ('invalid literal for int() with base 10')."""
    from agents.tournament import _check_reachable
    for address in ("127.0.0.1:²", "ray://127.0.0.1:¹²"):
        assert _check_reachable(address) is None


def test_a_missing_extra_is_named(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if not installed
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r'pip install -e "\.\[ray\]"'):
        run_tournament(["random"] * 4, deals=2, ray=True)
    with pytest.raises(ImportError, match=r'pip install -e "\.\[plot\]"'):
        run_tournament(["random"] * 4, deals=2).plot("out.png")
    for option, extra in (("--ray", "ray"), ("--plot=out.png", "plot")):
        with pytest.raises(SystemExit) as exit:
            main(["--agents", "random", "random", "random", "random", "--deals", "1", "-q",
                  option])
        err = capsys.readouterr().err
        assert exit.value.code == 2 and f'.[{extra}]' in err and len(err.splitlines()) == 1


# -- command line ---------------------------------------------------------------------------

def test_cli_prints_the_tables_and_saves_json_and_records(tmp_path, capsys):
    out_json = tmp_path / "r.json"
    main(["--agents", "greedy", "random", "random", "random", "--deals", "5", "--seed", "1",
          "--json", str(out_json), "--save-records", str(tmp_path / "recs"),
          "--record-deals", "0,2", "-q"])
    text = capsys.readouterr().out
    assert "units/deal" in text and "95% CI" in text and "declarer" in text
    data = json.loads(out_json.read_text())
    assert data["deals"] == 5 and len(data["standings"]) == 2
    assert len(data["standings"][0]["per_deal"]) == 5
    files = sorted(p.name for p in (tmp_path / "recs").iterdir())
    assert files == [f"deal0000{d}_rot{r}.json" for d in (0, 2) for r in range(4)]


def test_cli_rules_and_errors(capsys):
    assert (parse_game_rules("mediatore", ["signals=off"], "low")
            == Rules.preset("low").replace(signals="off"))
    assert parse_game_rules("mediatore", ["chiamo_monte=false"], "standard") == Rules(
        chiamo_monte=False)
    assert parse_deal_list("0,5,10-12") == [0, 5, 10, 11, 12]
    with pytest.raises(SystemExit):
        main(["--agents", "greedy", "nobody", "random", "random", "--deals", "1", "-q"])
    assert "known agents" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--agents", "random", "random", "random", "random", "--rule", "signals=loud", "-q"])
    assert "valid" in capsys.readouterr().err


@pytest.mark.parametrize("options, message", [
    (["--json", "/nonexistent/out.json"], "--json /nonexistent/out.json: the folder '/nonexistent' does not exist"),
    (["--json", "{tmp}"], "is a folder, not a file"),
    (["--plot", "/nonexistent/out.png"], "--plot /nonexistent/out.png: the folder '/nonexistent' does not exist"),
    (["--plot", "{tmp}/out.jpg"], ".png, .svg, .pdf"),
    (["--save-records", "{tmp}/file"], "is a file, not a folder"),
    (["--save-records", "{tmp}/file/recs"], "is a file, not a folder"),
    (["--save-records", "/proc/recs"], "cannot create the folder '/proc/recs' in '/proc'"),
    (["--save-records", "{tmp}/recs", "--record-deals", "7"], "deal 7 not in the run"),
    (["--record-deals", "3"], "give --save-records too"),
    # a list of no numbers saved nothing (',') or deal 0 (''), the default it does not ask for
    (["--save-records", "{tmp}/recs", "--record-deals", ","], "bad deal list ',': no number"),
    (["--save-records", "{tmp}/recs", "--record-deals", ""], "bad deal list '': no number"),
    (["--seed", "-3"], "argument --seed: must be 0 or more, not -3"),
    (["--plot-json", "{tmp}/file", "--plot", "{tmp}/a.png"], "not JSON"),
    (["--plot-json", "{tmp}/deep", "--plot", "{tmp}/a.png"],
     "not a tournament result (its JSON is nested too deeply)"),
    (["--plot-json", "{tmp}/partial", "--plot", "{tmp}/a.png"],
     "not a whole tournament result as mediatore-bench --json saves it (KeyError: 'standings')"),
    (["--json", ""], "--json '' is an empty path"),
    (["--save-records", ""], "--save-records '' is an empty path"),
])
def test_cli_refuses_bad_outputs_before_playing(options, message, tmp_path, capsys):
    (tmp_path / "file").write_text("not a directory")
    (tmp_path / "partial").write_text('{"format": "mediatore-tournament", "deals": 5, "seed": 0}')
    (tmp_path / "deep").write_text("[" * 100_000 + "]" * 100_000)  # past json's recursion
    options = [o.replace("{tmp}", str(tmp_path)) for o in options]
    who = [] if "--plot-json" in options else ["--agents", "greedy", "random", "random", "random"]
    with pytest.raises(SystemExit) as exit:
        main([*who, "--deals", "5", "-q", *options])
    err = capsys.readouterr().err
    assert exit.value.code == 2 and message in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deep", "file", "partial"]  # no more


def test_numpy_deal_numbers_are_recorded():
    import numpy as np
    result = run_tournament(["random"] * 4, deals=3, seed=2, record_deals=np.arange(2))
    assert sorted({r["meta"]["deal_index"] for r in result.records}) == [0, 1]


# -- what a new user hit ----------------------------------------------------------------------

class _Stop(Exception):
    pass


@pytest.mark.parametrize("jobs", [1, 2])
def test_memory_does_not_grow_with_the_number_of_deals_asked_for(jobs):
    import tracemalloc

    def stop_at_once(n):
        raise _Stop
    tracemalloc.start()
    try:
        with pytest.raises(_Stop):  # the first chunk comes back: nothing was listed up front
            run_tournament(["random"] * 4, deals=10 ** 14, seed=1, jobs=jobs,
                           progress=stop_at_once)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2 ** 20, peak


ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent
# How the console script mediatore-bench starts: from a script elsewhere, so that the current
# folder is not on sys.path (python -m and python -c would put it there).
LAUNCHER = ("import sys\nfrom mediatore_env.tools.bench import main\n"
            "if __name__ == '__main__':\n    sys.exit(main())\n")


def _bench_script(tmp_path, *args, **options):
    import subprocess
    launcher = tmp_path / "bin" / "mediatore-bench"
    launcher.parent.mkdir(exist_ok=True)
    launcher.write_text(LAUNCHER)
    return subprocess.Popen([sys.executable, str(launcher), *args], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, **options)


def test_readmes_agent_is_found_in_the_current_folder_without_pythonpath(tmp_path):
    (tmp_path / "mypkg").mkdir()
    (tmp_path / "mypkg" / "__init__.py").write_text("")
    (tmp_path / "mypkg" / "bots.py").write_text(
        "class MyAgent:\n"
        "    def act(self, observation, view):\n"
        "        return view.legal_moves()[0]\n")
    run = _bench_script(tmp_path, "--agents", "mypkg.bots:MyAgent", "greedy", "greedy",
                        "greedy", "--deals", "2", "-q", cwd=tmp_path)
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, err
    assert "mypkg.bots:MyAgent" in out and err == ""
    run = _bench_script(tmp_path, "--agents", "mypkg.bots:Nobody", "greedy", "greedy", "greedy",
                        "--deals", "2", "-q", cwd=tmp_path)
    out, err = run.communicate(timeout=300)
    assert run.returncode == 2 and err.count("\n") == 1 and "has no 'Nobody'" in err


def test_workers_are_not_forked_from_a_process_that_loaded_jax():
    pytest.importorskip("jax")
    import subprocess
    code = ("import jax.numpy as jnp; jnp.zeros(3) + 1\n"
            "from agents.tournament import run_tournament\n"
            "run_tournament(['random'] * 4, deals=4, seed=1, jobs=2)\n")
    run = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-W",
                          "error::DeprecationWarning:multiprocessing", "-c", code],
                         capture_output=True, text=True, env={**__import__("os").environ,
                                                              "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0 and "fork" not in run.stderr, run.stderr


LONG_NAME = "openspiel-ismcts:simulations=20"


def table_blocks(report: str) -> list[list[str]]:
    """Each table of a report: its header, its rule of dashes, its rows (to a blank line or a
    note in brackets)."""
    lines, blocks = report.splitlines(), []
    for i, line in enumerate(lines):
        if line and set(line) <= {"-", " "} and i:
            end = next((j for j in range(i + 1, len(lines))
                        if not lines[j].strip() or lines[j].startswith("(")), len(lines))
            blocks.append([lines[i - 1], line, *lines[i + 1:end]])
    return blocks


def assert_aligned(block: list[str]) -> None:
    """The header and the rows fit the columns the rule draws: nothing past its end, and only
    spaces in the gaps between its runs of dashes."""
    rule = block[1]
    gaps = [i for i, c in enumerate(rule) if c == " "]
    for line in [block[0], *block[2:]]:
        assert len(line) <= len(rule), (line, rule)
        assert all(i >= len(line) or line[i] == " " for i in gaps), (line, rule)


@pytest.mark.parametrize("game", ["mediatore", "tressette", "tressette3", "tressette2", "club"])
def test_reports_fit_any_agent_name(game):
    """Every game's report sizes its columns to their content: a long agent name (an agent
    with options) pushes the columns right instead of breaking them."""
    from agents import agents_of, make_agent
    from mediatore_env.registry import get
    agent = make_agent("random", agents_of(game))
    agent.name = LONG_NAME
    lineup = [agent] + ["random"] * (get(game).players - 1)
    report = run_tournament(lineup, deals=2, seed=1, game=game).report()
    blocks = table_blocks(report)
    assert blocks and any(LONG_NAME in line for block in blocks for line in block), report
    for block in blocks:
        assert_aligned(block)


@pytest.mark.parametrize("game, switches, words", [
    ("mediatore", {"chiamo_monte": False, "signals": "off"},
     "rules: standard with chiamo_monte=False, signals=off"),
    ("tressette3", {"low": True}, "Duplicate tournament of tressette3 (3 players), low: "),
    ("club", {"ante": 3, "deals": 2}, "rules: ante 3, 2 deals (at most 2)")])
def test_reports_say_the_rules_in_the_games_own_words(game, switches, words):
    """A report's heading words the rules as everything else of the game does (its display's
    rules_line), changed switches and all."""
    from mediatore_env.registry import get
    definition = get(game)
    rules = definition.make_rules(**switches)
    report = run_tournament(["random"] * definition.players, deals=1, seed=1, rules=rules,
                            game=game).report()
    assert words in report.splitlines()[0]
    assert definition.display.rules_line(rules) in report.splitlines()[0]


class _FailsAtItsThirdMove(Agent):
    """Plays the first legal move, and fails at its third decision of an episode."""

    def reset(self, seed=None):
        self.moves = 0

    def act(self, observation, view):
        self.moves += 1
        if self.moves == 3:
            raise RuntimeError("out of ideas")
        return view.legal_moves()[0]


def test_an_agents_own_error_says_whose_it_is_and_where():
    """Its traceback is kept (the type and message unchanged), with notes naming the agent, its
    seat and the episode, lineup and rotation, so that the episode can be played again alone."""
    from agents.tournament import run
    with pytest.raises(RuntimeError, match="out of ideas") as e:
        run("tressette2", {"odd": _FailsAtItsThirdMove, "random": "random"},
            [("random", "odd")], 2, seed=5)
    assert e.value.__notes__ == ["raised by agent 'odd' (_FailsAtItsThirdMove) at seat 1",
                                 "in game 0 (lineup 0, rotation 0) of the run of seed 5"]
