"""A chart of a duplicate tournament: units per deal with 95% confidence intervals, and what
each agent does with each contract.

    from agents.tournament import run_tournament
    from agents.plot import plot_tournament

    result = run_tournament(["greedy", "random", "random", "random"], deals=200)
    plot_tournament(result, "tournament.png")        # or .svg, .pdf; also result.plot(path)

It takes a :class:`~agents.tournament.TournamentResult` or the dict of its ``to_dict()`` (what
``mediatore-bench --json`` saves), so a saved run can be drawn later. The top panel has one bar
per agent (or bidding policy), best first, with its 95% interval over deals written beyond the
interval's end; the three below break the agents' declarations down by contract: how often
each agent declares it (share of its seat-plays), how often it makes it, and its mean payoff as
declarer, with the agents' colours named once under them.

matplotlib is the ``plot`` extra, imported here only, with the non-interactive Agg backend.
"""

from __future__ import annotations

import math
from typing import Any

from mediatore_env.mediatore.rules import CONTRACT_NAMES, CONTRACTS

from .report import counted
from .tournament import has_interval

PLOT_MISSING = ("matplotlib is not installed; it is an optional extra: "
                "pip install -e \".[plot]\" (or pip install \"matplotlib>=3.7\")")
FORMATS = ("png", "svg", "pdf")
STANDINGS_TITLE = "Units per deal, 95% CI over deals"
# The panels of the contract breakdown: (title, value from a standing's contract entry
# {"declared", "made", "units"} and the agent's number of seat-plays).
CONTRACT_PANELS = (
    ("Declares (% of seat-plays)", lambda c, plays: 100 * c["declared"] / plays),
    ("Makes (% of its declarations)",
     lambda c, plays: 100 * c["made"] / c["declared"] if c["declared"] else math.nan),
    ("Mean payoff as declarer (units)",
     lambda c, plays: c["units"] / c["declared"] if c["declared"] else math.nan),
)


def import_pyplot():
    """matplotlib's pyplot on the Agg backend, or an ImportError that names the extra."""
    try:
        import matplotlib
    except ImportError:
        raise ImportError(PLOT_MISSING) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _data(result: Any) -> dict:
    data = result.to_dict() if hasattr(result, "to_dict") else result
    if not isinstance(data, dict) or data.get("format") != "mediatore-tournament":
        raise ValueError("not a tournament result: expected a TournamentResult or the JSON that "
                         "mediatore-bench --json saves (format 'mediatore-tournament')")
    return data


def _title(data: dict) -> str:
    what = "bidding policies" if data.get("mode") == "bidding" else "agents"
    plays = data.get("plays")
    return (f"Duplicate tournament of {what}: {counted(data['deals'], 'deal')}"
            + (f", {counted(plays, 'play')}" if plays else "") + f", seed {data['seed']}")


def tournament_figure(result: Any):
    """The chart as a matplotlib Figure (see the module docstring)."""
    data = _data(result)
    plt = import_pyplot()
    standings = data["standings"]
    names = [s["name"] for s in standings]
    colors = [plt.cm.tab10(i % 10) for i in range(len(names))]
    fig = plt.figure(figsize=(11, 7.5), layout="constrained")
    top, bottom = fig.subfigures(2, 1, height_ratios=[1, 1.1])
    fig.suptitle(_title(data), fontsize=12)

    ax = top.subplots()
    means = [s["mean"] for s in standings]
    # A single deal has no interval: no error bar then, rather than a wrong one.
    low = [s["mean"] - s["ci95"][0] if has_interval(s["ci95"]) else 0.0 for s in standings]
    high = [s["ci95"][1] - s["mean"] if has_interval(s["ci95"]) else 0.0 for s in standings]
    bars = ax.bar(range(len(names)), means, color=colors, yerr=[low, high], capsize=6,
                  error_kw={"elinewidth": 1.5})
    # "copies", as the standings table has it
    ax.set_xticks(range(len(names)), [f"{n}\n({counted(s['copies'], 'copy', 'copies')})"
                                      for n, s in zip(names, standings)])
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel("units per deal")
    ax.set_title(STANDINGS_TITLE)
    for bar, s in zip(bars, standings):
        _label_bar(ax, bar, s)
    ax.margins(y=0.3)  # room for the labels beyond the intervals

    declared = [CONTRACT_NAMES[c] for c in CONTRACTS
                if any(CONTRACT_NAMES[c] in s["contracts"] for s in standings)]
    axes = bottom.subplots(1, len(CONTRACT_PANELS))
    width = 0.8 / max(1, len(names))
    for ax, (title, value) in zip(axes, CONTRACT_PANELS):
        for k, (s, color) in enumerate(zip(standings, colors)):
            ys = [value(s["contracts"][c], s["plays"]) if c in s["contracts"] else math.nan
                  for c in declared]
            ax.bar([i - 0.4 + width * (k + 0.5) for i in range(len(declared))], ys, width,
                   color=color, label=s["name"])
        ax.set_xticks(range(len(declared)), declared, rotation=30, ha="right")
        ax.set_title(title, fontsize=10)
        ax.axhline(0, color="black", linewidth=0.8)
    if not declared:
        axes[0].text(0.5, 0.5, "every deal was thrown in", ha="center", transform=axes[0].transAxes)
    bottom.suptitle("By contract, as declarer", fontsize=11)
    # under the panels, not in one: inside, it hid the tallest bars (chiamo's, often)
    handles, labels = axes[0].get_legend_handles_labels()
    bottom.legend(handles, labels, loc="outside lower center", ncols=min(len(names), 6),
                  fontsize=8, frameon=False)
    return fig


def _label_bar(ax, bar, standing: dict) -> None:
    """Write a bar's mean and interval over its middle, just beyond the interval's end (below
    it for a bar under zero), so that a label stays in its own bar's column."""
    mean, (lo, hi) = standing["mean"], standing["ci95"]
    up = mean >= 0
    end = (hi if up else lo) if has_interval((lo, hi)) else mean
    label = f"{mean:+.2f}" + (f"\n[{lo:+.2f}, {hi:+.2f}]" if has_interval((lo, hi)) else "")
    ax.annotate(label, (bar.get_x() + bar.get_width() / 2, end), xytext=(0, 3 if up else -3),
                textcoords="offset points", ha="center", va="bottom" if up else "top",
                fontsize=8)


def text_colour(rgba) -> str:
    """``"black"`` or ``"white"``, whichever reads better on a cell of colour ``rgba`` (0-1):
    white where the cell's relative luminance (WCAG's, of the linear sRGB channels) is under
    0.179, where the contrast with white and with black are equal.

    >>> text_colour((0.4, 0.0, 0.12, 1.0)), text_colour((0.97, 0.97, 0.97, 1.0))
    ('white', 'black')
    """
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgba[:3])
    return "white" if 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.179 else "black"


def check_plot_path(path) -> str:
    """``path`` if a chart can be written there: its suffix names a format (.png, .svg, .pdf)
    and matplotlib is installed; else ``ValueError`` saying which."""
    import importlib.util
    path = str(path)
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if suffix not in FORMATS:
        raise ValueError(f"cannot tell the chart's format from {path!r}: end it in "
                         + ", ".join("." + f for f in FORMATS))
    if importlib.util.find_spec("matplotlib") is None:
        raise ValueError(PLOT_MISSING)
    return path


def _save(fig, path) -> str:
    try:
        fig.savefig(path, dpi=100)
    finally:
        import_pyplot().close(fig)
    return path


def plot_tournament(result: Any, path) -> str:
    """Draw the chart of ``result`` (a TournamentResult or its ``to_dict()``) into ``path``;
    the format follows the suffix: .png, .svg or .pdf. Returns the path."""
    return _save(tournament_figure(result), check_plot_path(path))


def league_figure(data: dict):
    """A league's chart (``LeagueResult.to_dict()``, what ``mediatore-league --json`` saves):
    the ratings with their 95% intervals, best first, and beside them each agent's edge over
    each other agent as a grid."""
    if not isinstance(data, dict) or data.get("format") != "mediatore-league":
        raise ValueError("not a league: expected the JSON that mediatore-league --json saves")
    plt = import_pyplot()
    ratings = data["ratings"]
    names = [r["name"] for r in ratings]
    unit = data["unit"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 0.6 * len(names) + 3),
                                      layout="constrained")
    fig.suptitle(f"League of {data['game']} agents: {counted(data['episodes'], unit)} a pair, "
                 f"seed {data['seed']}", fontsize=12)
    ys = list(range(len(names)))[::-1]
    values = [r["rating"] for r in ratings]
    left.errorbar(values, ys, xerr=[[v - r["ci95"][0] for v, r in zip(values, ratings)],
                                    [r["ci95"][1] - v for v, r in zip(values, ratings)]],
                  fmt="o", capsize=5)
    left.set_yticks(ys, names)
    left.axvline(0, color="black", linewidth=0.8)
    left.set_xlabel(f"rating, units per {unit} per seat (95% CI)")
    grid = [[math.nan] * len(names) for _ in names]
    for pair in data["pairs"]:
        i, j = names.index(pair["first"]), names.index(pair["second"])
        grid[i][j], grid[j][i] = pair["edge"], -pair["edge"]
    top = max((abs(v) for row in grid for v in row if not math.isnan(v)), default=1.0) or 1.0
    image = right.imshow(grid, cmap="RdBu", vmin=-top, vmax=top)
    right.set_xticks(range(len(names)), names, rotation=30, ha="right")
    right.set_yticks(range(len(names)), names)
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if not math.isnan(v):
                right.text(j, i, f"{v:+.2f}", ha="center", va="center", fontsize=8,
                           color=text_colour(image.cmap(image.norm(v))))
    right.set_title(f"edge of the row's agent over the column's,\nunits per {unit}")
    fig.colorbar(image, ax=right, shrink=0.8)
    return fig


def plot_league(data: dict, path) -> str:
    """Draw a league's chart (see :func:`league_figure`) into ``path``. Returns the path."""
    return _save(league_figure(data), check_plot_path(path))
