"""Tournaments on Ray: the deals as Ray tasks on a local instance give exactly the results of
one process, for agents and bidding policies and for the Tressette games' tournament, from the
API and the command line. Skipped without the ``ray`` extra; the two local Ray start-ups (one
by the tournament, one for the tests of a running instance, shared) take about 20 s on 2
cores."""

import json
import warnings

import pytest

ray = pytest.importorskip("ray")

from agents.mediatore.tournament import run_bidding_tournament  # noqa: E402
from agents.tournament import run_tournament  # noqa: E402
from agents.tressette.tournament import run_tressette_tournament  # noqa: E402
from mediatore_env.runinfo import cores  # noqa: E402
from mediatore_env.tools.bench import main  # noqa: E402

LINEUP = ["greedy", "random", "random:bid_rate=0.5", "random"]


def measured(result) -> dict:
    """What a tournament measured: its JSON but the time and the workers."""
    return {k: v for k, v in result.to_dict().items() if k not in ("seconds", "jobs", "executor")}


def test_a_local_ray_instance_gives_the_results_of_one_process():
    assert not ray.is_initialized()
    done = []
    one = run_tournament(LINEUP, deals=24, seed=9, jobs=1, record_deals=[3])
    on_ray = run_tournament(LINEUP, deals=24, seed=9, jobs=64, record_deals=[3], ray=True,
                            progress=done.append)
    # the local instance's workers are capped as processes are: by the deals and the cores
    assert (on_ray.executor, on_ray.jobs) == ("ray", min(24, cores()))
    assert measured(on_ray) == measured(one)
    assert on_ray.records == one.records
    assert sum(done) == 24 and len(done) > 1  # the progress bar moves chunk by chunk
    assert not ray.is_initialized()  # the instance it started is shut down


@pytest.fixture(scope="module")
def local_ray():
    with warnings.catch_warnings():  # as agents.tournament starts Ray: JAX's fork warning off
        warnings.filterwarnings("ignore", r"os\.fork\(\) was called", RuntimeWarning)
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_bidding_tournaments_and_the_command_line_on_a_running_instance(local_ray, tmp_path):
    one = run_bidding_tournament(["greedy", "pass", "random"], deals=8, seed=2)
    on_ray = run_bidding_tournament(["greedy", "pass", "random"], deals=8, seed=2, ray=True)
    assert measured(on_ray) == measured(one)
    assert ray.is_initialized()  # an instance the caller started is left running

    def cli(*extra):
        path = tmp_path / f"r{len(extra)}.json"
        assert main(["--agents", *LINEUP, "--deals", "10", "--seed", "4", "-q",
                     "--json", str(path), *extra]) == 0
        data = json.loads(path.read_text())
        return {k: v for k, v in data.items() if k not in ("seconds", "jobs", "executor")}, data
    alone, _ = cli()
    with_ray, data = cli("--ray")
    assert data["executor"] == "ray" and data["jobs"] == 2
    assert with_ray == alone


def test_the_tressette_tournament_on_a_running_instance(local_ray):
    kwargs = dict(games=6, seed=4, rules="tressette3", record_games=[2])
    one = run_tressette_tournament(["greedy", "random", "random"], **kwargs)
    on_ray = run_tressette_tournament(["greedy", "random", "random"], ray=True, **kwargs)
    assert on_ray.executor == "ray" and ray.is_initialized()  # not ours to shut down
    assert measured(on_ray) == measured(one) and on_ray.records == one.records
    assert [s.per_deal for s in on_ray.standings] == [s.per_deal for s in one.standings]


def test_search_agents_give_the_same_table_on_ray(local_ray):
    """The search agents' default budgets are work (issue 38): on Ray's workers they play as
    in one process (tests/test_reproducible.py has every game in the process pool)."""
    lineup = ["pimc:worlds=3", "pimc-infer:worlds=3", "generic-pimc:max_worlds=3", "greedy"]
    one = run_tournament(lineup, deals=2, seed=38)
    on_ray = run_tournament(lineup, deals=2, seed=38, ray=True)
    assert on_ray.executor == "ray"
    assert measured(on_ray) == measured(one)
