"""A league: every agent of a set against every other in a duplicate tournament, and a rating of
each agent fitted from all the pairs, so that agents of one game (and bidding policies) are
compared on one scale.

Each pair plays the same episodes (the league's seed), in the lineups where each agent holds
half the seats (:func:`~agents.tournament.cyclic_lineups`: ``a b a b`` and ``b a b a``; three
seats ``a b a`` and ``b a b``), every lineup in every rotation, so both agents hold every hand.
The pair's result is the first agent's **edge**: half the difference of the two agents' mean
results per seat, per episode (in a zero-sum game where each holds half the seats, simply the
first agent's own mean result), with a 95% interval over episodes.

The ratings are the numbers ``r`` that best explain every edge as ``r[a] - r[b]``, weighted by
how precisely each edge is measured (least squares with weights ``1 / variance``), summing to
zero, with 95% intervals from the fit's covariance and the pairs' own quantile of Student's t
(:func:`rating_quantile`): a linear Bradley-Terry on the game's own scale (units per deal,
results per game), which adds up edges where a logistic model would squash them::

    >>> pairs = [Pair("b", "a", [1.0, 1.2, 0.8]), Pair("c", "b", [0.5, 0.6, 0.4])]
    >>> [(r.name, round(r.rating, 2)) for r in fit_ratings(["a", "b", "c"], pairs)]
    [('c', 0.67), ('b', 0.17), ('a', -0.83)]
"""

from __future__ import annotations

import itertools
import math
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

import mediatore_env.registry as registry
from mediatore_env.runinfo import counting

from .report import counted, signed, table
from .tournament import cyclic_lineups, mean_ci, run, t95

__all__ = ["Pair", "Rating", "LeagueResult", "fit_ratings", "run_league", "pair_edges",
           "weighing_variances", "rating_quantile"]


@dataclass(frozen=True)
class Pair:
    """The first agent's edge over the second in each episode (see the module docstring)."""

    first: str
    second: str
    per_episode: Sequence[float]

    @property
    def edge(self) -> tuple[float, float, float]:
        """(mean, low, high): the mean edge and its 95% interval over episodes."""
        return mean_ci(self.per_episode)

    @property
    def spread(self) -> float:
        """The sample variance of the edge over episodes (0 where every episode agreed)."""
        n = len(self.per_episode)
        mean = math.fsum(self.per_episode) / n
        return math.fsum((v - mean) ** 2 for v in self.per_episode) / max(n - 1, 1)

    @property
    def variance(self) -> float:
        """The variance of the mean edge (a tiny floor where every episode agreed)."""
        return max(self.spread / len(self.per_episode), 1e-12)


def weighing_variances(pairs: Sequence[Pair]) -> list[float]:
    """The variance of each pair's mean edge, as the fit weighs it. A pair whose episodes all
    agreed (one agent won every game) measured none: it gets the smallest variance over
    episodes that another pair measured, over its own episodes, rather than a weight that
    would drown every other pair (two such pairs, ``a`` beating ``c`` and ``b`` beating ``c``
    every game, would otherwise pin ``a`` and ``b`` level whatever ``a`` against ``b``
    said)."""
    measured = [p.spread for p in pairs if p.spread > 0]
    floor = min(measured) if measured else 0.0
    return [p.variance if p.spread > 0 or not floor else floor / len(p.per_episode)
            for p in pairs]


def rating_quantile(pairs: Sequence[Pair]) -> float:
    """The quantile of the ratings' 95% intervals: Student's t for the pair of the fewest
    episodes, as that pair's own interval has it (nan where it has a single episode, and no
    interval). A league's pairs play the same episodes, so their edges are as many
    independent draws as the episodes, not as the pairs times the episodes; and with two
    agents the difference of the ratings is the pair's edge, with its variance, so the
    ratings' intervals leave out zero exactly when the pair's does."""
    fewest = min(len(p.per_episode) for p in pairs)
    return t95(fewest - 1) if fewest > 1 else math.nan


@dataclass(frozen=True)
class Rating:
    name: str
    rating: float
    ci: tuple[float, float]


def fit_ratings(names: Sequence[str], pairs: Sequence[Pair]) -> list[Rating]:
    """Each agent's rating from the pairs' edges (the module docstring), best first.

    Weighted least squares: the edges ``y``, one row of ``X`` per pair (+1 for its first agent,
    -1 for its second), weights ``1 / variance`` (:func:`weighing_variances`). The normal
    matrix ``X'WX`` is singular along the constant vector (adding a constant to every rating
    explains the edges as well); its pseudo-inverse gives the solution that sums to zero and,
    being the covariance of that solution, the intervals (:func:`rating_quantile` standard
    errors either side). Agents no pair connects to the rest cannot be compared with it."""
    index = {name: i for i, name in enumerate(names)}
    design = np.zeros((len(pairs), len(names)))
    edges, weights = np.zeros(len(pairs)), np.zeros(len(pairs))
    for k, (pair, variance) in enumerate(zip(pairs, weighing_variances(pairs))):
        design[k, index[pair.first]], design[k, index[pair.second]] = 1.0, -1.0
        edges[k], weights[k] = pair.edge[0], 1.0 / variance
    covariance = np.linalg.pinv(design.T @ (weights[:, None] * design))
    ratings = covariance @ (design.T @ (weights * edges))
    spread = rating_quantile(pairs) * np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    out = [Rating(name, float(ratings[i]), (float(ratings[i] - spread[i]),
                                             float(ratings[i] + spread[i])))
           for name, i in index.items()]
    return sorted(out, key=lambda r: -r.rating)


def pair_edges(first: Sequence[float], second: Sequence[float]) -> list[float]:
    """Per episode, half the difference of the two agents' mean results per seat."""
    return [(a - b) / 2 for a, b in zip(first, second)]


@dataclass
class LeagueResult:
    """A league's pairs and ratings, with what it took (``to_dict``, ``report``)."""

    game: str
    agents: list[str]
    episodes: int
    seed: int
    rules: Any
    pairs: list[Pair]
    ratings: list[Rating]
    seconds: float
    jobs: int
    unit: str = field(init=False)

    def __post_init__(self):
        self.unit = registry.get(self.game).unit

    def edge(self, first: str, second: str) -> tuple[float, float, float]:
        """``first``'s edge over ``second`` (mean, low, high), whichever way the pair played."""
        for pair in self.pairs:
            if (pair.first, pair.second) == (first, second):
                return pair.edge
            if (pair.first, pair.second) == (second, first):
                mean, low, high = pair.edge
                return -mean, -high, -low
        raise KeyError((first, second))

    def to_dict(self) -> dict:
        return {"format": "mediatore-league", "version": 1, "game": self.game,
                "agents": self.agents, "episodes": self.episodes, "unit": self.unit,
                "seed": self.seed, "rules": self.rules.to_dict(), "jobs": self.jobs,
                "seconds": self.seconds,
                "pairs": [{"first": p.first, "second": p.second, "edge": p.edge[0],
                           "ci95": list(p.edge[1:]), "per_episode": list(p.per_episode)}
                          for p in self.pairs],
                "ratings": [{"name": r.name, "rating": r.rating, "ci95": list(r.ci)}
                            for r in self.ratings]}

    @classmethod
    def from_dict(cls, data: dict) -> "LeagueResult":
        """A saved league (``to_dict``, what ``mediatore-league --json`` writes) with its ratings
        fitted again from each pair's episodes: a league played before the fit changed reads
        as the fit has it now, without playing it again."""
        if not isinstance(data, dict) or data.get("format") != "mediatore-league":
            raise ValueError("not a league: expected the JSON that mediatore-league --json saves")
        pairs = [Pair(p["first"], p["second"], p["per_episode"]) for p in data["pairs"]]
        rules = registry.get(data["game"]).rules.from_dict(data["rules"])
        return cls(data["game"], data["agents"], data["episodes"], data["seed"], rules, pairs,
                   fit_ratings(data["agents"], pairs), data["seconds"], data["jobs"])

    def report(self) -> str:
        unit = self.unit
        names = [r.name for r in self.ratings]
        header = ["#", "agent", "rating", "95% CI", *(str(i) for i in range(1, len(names) + 1))]
        rows = []
        for rank, r in enumerate(self.ratings, 1):
            cells = ["-" if other == r.name else signed(self.edge(r.name, other)[0])
                     for other in names]
            rows.append([str(rank), r.name, signed(r.rating),
                         f"[{signed(r.ci[0])}, {signed(r.ci[1])}]", *cells])
        pair_rows = [[p.first, p.second, signed(p.edge[0]),
                      f"[{signed(p.edge[1])}, {signed(p.edge[2])}]"] for p in self.pairs]
        return "\n".join([
            f"League of {self.game} agents: {counted(len(self.agents), 'agent')}, "
            f"{counted(len(self.pairs), 'pair')}, {counted(self.episodes, unit)} each; seed "
            f"{self.seed}; {counted(self.jobs, 'job')}, {self.seconds:.1f} s", "",
            f"Ratings (units per {unit} per seat, summing to zero; 95% CI) and each agent's "
            f"edge over the agent of each column:",
            *table(header, rows, "rlrl" + "r" * len(names)), "",
            f"Pairs (the first agent's edge over the second, units per {unit} per seat; 95% CI "
            f"over {unit}s):",
            *table(["agent", "against", "edge", "95% CI"], pair_rows, "llrl")])


def run_league(game: str, agents: Sequence[str] | dict, episodes: int = 200, seed: int = 0,
               rules=None, jobs: int | None = None, ray: bool | str = False,
               progress: Callable[[int], Any] | bool | None = None) -> LeagueResult:
    """Every pair of ``agents`` (texts as ``mediatore-bench`` takes them, or a dict of names
    to any spec :func:`agents.tournament.build_agent` takes) of registered game ``game`` in a
    duplicate tournament of ``episodes`` episodes of the same ``seed``; their edges and the
    ratings fitted from them. ``progress``: True shows one progress bar over every pair's
    episodes on stderr (tqdm's: a widget in a notebook), or ``progress(n)`` is called as
    episodes finish."""
    entries = agents if isinstance(agents, dict) else {a: a for a in agents}
    names = list(entries)
    if len(names) < 2:
        raise ValueError(f"a league needs two agents or more, got {len(names)}")
    definition = registry.get(game)
    start, pairs, workers = time.perf_counter(), [], 1
    matches = list(itertools.combinations(names, 2))
    with counting(progress, episodes * len(matches), f"{definition.unit}s") as tick:
        for first, second in matches:
            result = run(game, {first: entries[first], second: entries[second]},
                         cyclic_lineups([first, second], definition.players), episodes, seed,
                         rules, jobs, progress=tick, ray=ray)
            by_name = {s.name: s.per_deal for s in result.standings}
            pairs.append(Pair(first, second, pair_edges(by_name[first], by_name[second])))
            workers = result.jobs
    rules = definition.make_rules() if rules is None else rules
    return LeagueResult(game, names, episodes, seed, rules, pairs, fit_ratings(names, pairs),
                        time.perf_counter() - start, workers)


if __name__ == "__main__":
    # The command line is mediatore_env.tools.league's, in the layer above this library, which
    # may not import it (tests/test_layers.py): name the command rather than do nothing.
    print("agents.league is the league's library; its command is mediatore-league "
          "(python -m mediatore_env.tools.league --help)", file=sys.stderr)
    raise SystemExit(2)
