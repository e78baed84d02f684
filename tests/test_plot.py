"""The tournament chart: one bar per agent with the result's 95% CI, the contract breakdown,
written from a result or from its saved JSON, nothing drawn over a bar; the league's chart, its
figures legible on every cell. Skipped without the ``plot`` extra."""

import json
import math

import pytest

pytest.importorskip("matplotlib")

from agents.league import LeagueResult, Pair, fit_ratings, run_league  # noqa: E402
from agents.plot import (CONTRACT_PANELS, STANDINGS_TITLE, league_figure,  # noqa: E402
                         plot_tournament, text_colour, tournament_figure)
from mediatore_env.tressette.rules import TressetteRules  # noqa: E402
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
    declared = [(s, name) for s in result.standings for name in s.stats["contracts"]]
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
            assert height == pytest.approx(want(s, s.stats["contracts"][name]))


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


def test_a_single_deals_saved_run_is_strict_json_and_plots_again(tmp_path):
    """--json writes the interval that does not exist as null, not NaN (which only Python
    reads), and --plot-json draws the run again from it, with no error bar."""
    saved, svg = tmp_path / "one.json", tmp_path / "one.svg"
    assert main(["--agents", "greedy", "random", "random", "random", "--deals", "1", "-q",
                 "--json", str(saved)]) == 0
    data = json.loads(saved.read_text(), parse_constant=lambda word: pytest.fail(word))
    assert all(s["ci95"] == [None, None] for s in data["standings"])
    assert main(["--plot-json", str(saved), "--plot", str(svg)]) == 0
    ax = _axes(tournament_figure(data), STANDINGS_TITLE)
    (bars,) = [c for c in ax.containers if hasattr(c, "errorbar")]
    assert all(seg[0][1] == seg[1][1] for seg in bars.errorbar.lines[2][0].get_segments())


def test_the_charts_titles_count_one_in_the_singular():
    one = run_tournament(["greedy", "random", "random", "random"], deals=1, seed=2)
    assert tournament_figure(one).get_suptitle().startswith(
        "Duplicate tournament of agents: 1 deal, 4 plays, seed 2")
    league = run_league("tressette2", ["random", "greedy"], episodes=1, seed=2)
    assert league_figure(league.to_dict()).get_suptitle().startswith(
        "League of tressette2 agents: 1 game a pair")


def _extent(artist):
    return artist.get_window_extent(artist.figure.canvas.get_renderer())


def _apart(a, b) -> bool:
    return a.x1 <= b.x0 or b.x1 <= a.x0 or a.y1 <= b.y0 or b.y1 <= a.y0


def test_each_bars_figures_stay_in_its_column_and_name_its_copies(result):
    """A bar's mean and interval are written over its middle, inside the panel: beside it they
    ran into the next bar. Under each bar, its copies, the standings table's word."""
    fig = tournament_figure(result)
    fig.canvas.draw()
    ax = _axes(fig, STANDINGS_TITLE)
    (bars,) = [c for c in ax.containers if hasattr(c, "errorbar")]
    labels = [t for t in ax.texts if "[" in t.get_text()]
    assert len(labels) == len(bars.patches) == 3
    inside = _extent(ax)
    for bar, label in zip(bars.patches, labels):
        column, text = _extent(bar), _extent(label)
        assert column.x0 <= text.x0 and text.x1 <= column.x1, label.get_text()
        assert inside.y0 <= text.y0 and text.y1 <= inside.y1, label.get_text()
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks == [f"{s.name}\n({s.copies} {'copy' if s.copies == 1 else 'copies'})"
                     for s in result.standings]
    assert "(2 copies)" in ticks[[s.name for s in result.standings].index("random")]


def test_the_legend_of_the_contract_panels_covers_no_bar(result):
    fig = tournament_figure(result)
    fig.canvas.draw()
    assert not any(ax.get_legend() for ax in fig.get_axes())
    (legend,) = [leg for sub in fig.subfigs for leg in sub.legends]
    assert [t.get_text() for t in legend.get_texts()] == [s.name for s in result.standings]
    for title, _ in CONTRACT_PANELS:
        for bar in _axes(fig, title).patches:
            if not math.isnan(bar.get_height()):  # a contract the agent never declared
                assert _apart(_extent(legend), _extent(bar))


def test_text_colour_follows_the_cells_luminance():
    assert text_colour((0.0, 0.0, 0.0, 1.0)) == text_colour((0.4, 0.0, 0.12)) == "white"
    assert text_colour((1.0, 1.0, 1.0, 1.0)) == text_colour((0.97, 0.97, 0.97)) == "black"
    assert text_colour((0.02, 0.19, 0.38)) == "white"   # RdBu's darkest blue
    assert text_colour((0.96, 0.65, 0.51)) == "black"   # a pale red


def test_the_league_grid_writes_white_on_dark_cells_and_black_on_light():
    pairs = [Pair("a", "b", [5.1, 5.5, 5.4]), Pair("b", "c", [0.1, 0.3, -0.1]),
             Pair("a", "c", [5.0, 5.3, 5.6])]
    league = LeagueResult("tressette2", ["a", "b", "c"], 3, 0, TressetteRules(players=2), pairs,
                          fit_ratings(["a", "b", "c"], pairs), 0.0, 1)
    fig = league_figure(league.to_dict())
    (grid,) = [ax for ax in fig.get_axes() if ax.get_images()]
    colours = {t.get_text(): t.get_color() for t in grid.texts}
    assert colours["+5.33"] == colours["-5.33"] == colours["+5.30"] == "white"
    assert colours["+0.10"] == colours["-0.10"] == "black"
