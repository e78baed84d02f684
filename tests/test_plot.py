"""The tournament chart: one bar per agent with the result's 95% CI, the contract breakdown,
written from a result or from its saved JSON. Skipped without the ``plot`` extra."""

import json
import math

import pytest

pytest.importorskip("matplotlib")

from agents.league import run_league  # noqa: E402
from agents.plot import (CONTRACT_PANELS, STANDINGS_TITLE, league_figure,  # noqa: E402
                         plot_tournament, tournament_figure)
from agents.tournament import run_tournament  # noqa: E402
from mediatore_env.tools.bench import main  # noqa: E402


@pytest.fixture(scope="module")
def result():
    return run_tournament(["greedy", "random", "random:bid_rate=0.5", "random"], deals=30, seed=2)


def _axes(fig, title):
    (ax,) = [ax for ax in fig.get_axes() if ax.get_title() == title]
    return ax


def test_one_bar_per_agent_with_its_confidence_interval(result):
    ax = _axes(tournament_figure(result), STANDINGS_TITLE)
    (bars,) = [c for c in ax.containers if hasattr(c, "errorbar")]
    assert len(bars.patches) == len(result.standings) == 3
    for bar, s in zip(bars.patches, result.standings):
        assert bar.get_height() == pytest.approx(s.mean)
    segments = bars.errorbar.lines[2][0].get_segments()  # one vertical line per bar
    assert len(segments) == 3
    for seg, s in zip(segments, result.standings):
        assert sorted(y for _, y in seg) == pytest.approx(list(s.ci))
        assert s.ci[0] < s.ci[1]


def test_the_contract_breakdown_shows_each_agents_contracts(result):
    fig = tournament_figure(result)
    declared = [(s, name) for s in result.standings for name in s.contracts]
    assert len(declared) >= 3
    expected = (  # the three panels, worked out from the standing
        lambda s, c: 100 * c["declared"] / s.plays,
        lambda s, c: 100 * c["made"] / c["declared"],
        lambda s, c: c["units"] / c["declared"])
    for (title, _), want in zip(CONTRACT_PANELS, expected):
        ax = _axes(fig, title)
        shown = [t.get_text() for t in ax.get_xticklabels()]
        by_agent = {c.get_label(): c for c in ax.containers}
        assert set(by_agent) == {s.name for s in result.standings}
        for s, name in declared:
            height = by_agent[s.name].patches[shown.index(name)].get_height()
            assert height == pytest.approx(want(s, s.contracts[name]))


def test_the_chart_of_saved_json_is_the_same(result, tmp_path):
    data = json.loads(json.dumps(result.to_dict()))
    a = _axes(tournament_figure(result), STANDINGS_TITLE)
    b = _axes(tournament_figure(data), STANDINGS_TITLE)
    assert [p.get_height() for p in a.patches] == [p.get_height() for p in b.patches]
    path = plot_tournament(data, tmp_path / "t.svg")
    assert open(path).read().lstrip().startswith("<?xml")
    with pytest.raises(ValueError, match="mediatore-tournament"):
        tournament_figure({"standings": []})
    with pytest.raises(ValueError, match=r"\.png"):
        plot_tournament(result, tmp_path / "t.jpg")


def test_cli_plots_a_run_and_a_saved_run(tmp_path, capsys):
    png, saved, svg = tmp_path / "t.png", tmp_path / "t.json", tmp_path / "t.svg"
    assert main(["--agents", "greedy", "random", "random", "random", "--deals", "6", "-q",
                 "--json", str(saved), "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["--plot-json", str(saved), "--plot", str(svg)]) == 0
    assert svg.stat().st_size > 1000 and "chart saved" in capsys.readouterr().out


def test_a_single_deal_has_no_interval_to_draw():
    one = run_tournament(["greedy", "random", "random", "random"], deals=1, seed=2)
    assert all(math.isnan(x) for s in one.standings for x in s.ci)
    ax = _axes(tournament_figure(one), STANDINGS_TITLE)
    (bars,) = [c for c in ax.containers if hasattr(c, "errorbar")]
    segments = bars.errorbar.lines[2][0].get_segments()
    assert all(seg[0][1] == seg[1][1] for seg in segments)  # zero length


def test_the_charts_titles_count_one_in_the_singular():
    one = run_tournament(["greedy", "random", "random", "random"], deals=1, seed=2)
    assert tournament_figure(one).get_suptitle().startswith(
        "Duplicate tournament of agents: 1 deal, 4 plays, seed 2")
    league = run_league("tressette2", ["random", "greedy"], episodes=1, seed=2)
    assert league_figure(league.to_dict()).get_suptitle().startswith(
        "League of tressette2 agents: 1 game a pair")
