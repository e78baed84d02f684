"""Duplicate tournaments of the Tressette games: every game to 31 is played in every rotation
of the lineup over the same packs, so every agent holds every hand.

**Games.** An episode is one game to 31 (docs/rules.md 10.1-10.2), a sequence of hands. Game
``i`` of a run with seed ``S`` starts with seat ``i % n`` dealing (``n`` players), and its
``k``-th hand (``k = 0, 1, ...``) is dealt from the pack :func:`game_pack` ``(S, i, k)`` =
``numpy.random.default_rng([S, i, k]).permutation(40)``. The same ``S`` gives the same packs
in every run, whatever the agents, the number of games or of processes.

**Rotations.** A lineup is one agent per seat: 4 in Partnership Tressette, 3 in the
three-handed game, 2 in the two-handed one. Each game is played ``n`` times by the same lineup
over the same packs, rotated one seat each time (:func:`agents.tournament.rotate`: in rotation
``r`` seat ``s`` is played by ``lineup[(s - r) % n]``). At four players the agents in slots 0
and 2 stay partners, as do those in 1 and 3, and the partnerships swap sides from one rotation
to the next: over the four rotations each agent holds every seat's hands, and each partnership
both sides' hands. Three-handed it is the 3 rotations, two-handed the 2 seatings. Every
rotation deals hand ``k`` from the same pack; the games may last a different number of hands
(the scores differ), but hand ``k`` is always the same cards. Before each game an agent is
reset with a seed derived from ``S``, the game number and its *seat*
(:func:`agents.tournament.derive_seed`), so identical agents play identical games in every
rotation.

**Units per game.** For each agent, its outcomes (+1/-1; three-handed +2/-1/-1, docs/rules.md
10.2) summed over all the seats it played in the ``n`` rotations of a game, divided by that
number of seats: the mean outcome of one seat played by that agent (units per game). Outcomes
are zero-sum in every play, so the results of a game, weighted by the agents' numbers of
copies, sum to zero, and identical agents come out at exactly 0. The 95% confidence interval
is over games (:func:`agents.tournament.mean_ci`): the games are independent, the rotations of
one game are not. The report also gives each agent's share of seat-plays won and its mean
final points.

**Processes and Ray** are those of :mod:`agents.tournament` (:func:`~agents.tournament.play_all`):
the games go out in chunks of consecutive numbers, each computed from the seed alone, and the
results are gathered in game order, so they are identical for any number of jobs.

    >>> result = run_tressette_tournament(["random", "random", "random", "random"], games=4)
    >>> result.standings[0].mean
    0.0
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Sequence

from mediatore_env.core.cards import NUM_CARDS
from mediatore_env.tressette.game import TressetteGame
from mediatore_env.tressette.rules import FORMS, TressetteRules

from ..tournament import (Standing, StandingsByName, build_agent, check_run, derive_seed,
                          mean_ci, name_lineup, play_all, record_numbers, rotate, uses_workers)
from .base import play_game


def game_pack(seed: int, game: int, hand: int) -> list[int]:
    """The pack of hand ``hand`` (0, 1, ...) of game ``game`` of a run with ``seed``."""
    import numpy as np
    return np.random.default_rng([seed, game, hand]).permutation(NUM_CARDS).tolist()


def game_dealer(game: int, players: int) -> int:
    """The first dealer of game ``game``: the seats take turns."""
    return game % players


def rules_of(form: str | TressetteRules | None) -> TressetteRules:
    """The rules of a form's name (``'tressette'``, ``'tressette3'``, ``'tressette2'``), or the
    rules given; ``None`` is Partnership Tressette. Raises ``ValueError`` naming the forms."""
    if form is None:
        return FORMS["tressette"]
    if isinstance(form, TressetteRules):
        return form
    if form not in FORMS:
        raise ValueError(f"unknown game {form!r}; the Tressette games are {', '.join(FORMS)}")
    return FORMS[form]


class GamePlay(NamedTuple):
    """One play of a game by one lineup in one rotation, seen from the seats."""
    lineup: int
    rotation: int
    outcome: tuple[int, ...]     # per seat, zero-sum
    points: tuple[int, ...]      # per seat, its side's final total
    hands: int                   # hands dealt


def standings(names: Sequence[str], lineups: Sequence[Sequence[str]],
              games: Sequence[Sequence[GamePlay]]) -> list[Standing]:
    """Each agent's units per game (``games[i]``: the plays of game i), best first; see the
    module docstring. The Standing's ``roles`` hold, under ``"won"``, the seat-plays the agent
    won (outcome above 0) and, under ``"points"``, its side's final points summed over them."""
    copies = {name: sum(list(lineup).count(name) for lineup in lineups) for name in names}
    unknown = {n for lineup in lineups for n in lineup} - set(copies)
    if unknown:
        raise ValueError(f"lineups name unknown agents: {sorted(unknown)}")
    per_game = {name: [] for name in names}
    won = dict.fromkeys(names, 0)
    points = dict.fromkeys(names, 0)
    seats = dict.fromkeys(names, 0)
    for plays in games:
        units = dict.fromkeys(names, 0)
        count = dict.fromkeys(names, 0)
        for play in plays:
            lineup = lineups[play.lineup]
            n = len(lineup)
            for seat in range(n):
                name = lineup[(seat - play.rotation) % n]
                units[name] += play.outcome[seat]
                count[name] += 1
                won[name] += play.outcome[seat] > 0
                points[name] += play.points[seat]
        for name in names:
            if count[name]:
                per_game[name].append(units[name] / count[name])
                seats[name] += count[name]
    out = []
    for name in names:
        if not copies[name]:
            continue
        mean, low, high = mean_ci(per_game[name])
        out.append(Standing(name, copies[name], per_game[name], mean + 0.0, (low + 0.0, high + 0.0),
                            seats[name], {"won": won[name], "points": points[name]}, {}))
    out.sort(key=lambda s: -s.mean)
    return out


class _GamePlayer:
    """Plays games for one tournament configuration (in the main process or in a worker)."""

    def __init__(self, rules: TressetteRules, seed: int, entries: dict, lineups,
                 record_games=()):
        from . import AGENTS
        self.rules, self.seed, self.lineups = rules, seed, lineups
        self.agents = [[build_agent(entries[name], name, AGENTS) for name in lineup]
                       for lineup in lineups]
        self.record_games = frozenset(record_games)

    def play(self, index: int) -> tuple[list[GamePlay], list[dict]]:
        n = self.rules.players
        dealer = game_dealer(index, n)
        seeds = [derive_seed(self.seed, index, s) for s in range(n)]
        packs = [game_pack(self.seed, index, 0)]

        def pack(k: int) -> list[int]:  # the same packs, drawn once, for every rotation
            while len(packs) <= k:
                packs.append(game_pack(self.seed, index, len(packs)))
            return packs[k]

        plays, records = [], []
        for k, agents in enumerate(self.agents):
            for r in range(n):
                seated = rotate(agents, r)
                game = play_game(TressetteGame(self.rules, dealer), seated, pack, seeds)
                points = tuple(game.totals[self.rules.side_of(s)] for s in range(n))
                plays.append(GamePlay(k, r, tuple(game.outcome), points, game.hand_number))
                if index in self.record_games:
                    records.append(game.record(
                        agents=[a.name for a in seated], game_index=index, lineup=k,
                        rotation=r, seed=self.seed))
        return plays, records

    def play_range(self, start: int, stop: int):
        return [self.play(i) for i in range(start, stop)]


@dataclass
class TressetteTournamentResult(StandingsByName):
    """What a tournament of a Tressette game measured. ``standings`` is sorted best first."""
    names: list[str]
    lineups: list[tuple[str, ...]]
    games: int
    seed: int
    rules: TressetteRules
    jobs: int
    seconds: float
    standings: list[Standing]
    plays: list[list[GamePlay]]
    records: list[dict]
    executor: str = "serial"

    def mean_hands(self) -> float:
        """Hands dealt per game, over every play."""
        n = sum(len(p) for p in self.plays)
        return sum(g.hands for p in self.plays for g in p) / n if n else math.nan

    def to_dict(self) -> dict:
        """Everything, JSON-ready (the per-game results included; the plays summarised)."""
        return {
            "format": "tressette-tournament", "version": 1, "game": self.rules.form,
            "agents": self.names, "lineups": [list(l) for l in self.lineups],
            "games": self.games, "seed": self.seed, "rules": self.rules.to_dict(),
            "jobs": self.jobs, "executor": self.executor, "seconds": round(self.seconds, 3),
            "plays": sum(len(p) for p in self.plays), "hands_per_game": self.mean_hands(),
            "standings": [{"name": s.name, "copies": s.copies, "mean": s.mean,
                           "ci95": list(s.ci), "plays": s.plays, "won": s.roles["won"],
                           "mean_points": s.roles["points"] / s.plays, "per_game": s.per_deal}
                          for s in self.standings],
        }

    def report(self) -> str:
        from ..report import _signed, _table, _pct
        rules = self.rules
        switches = ", ".join(f"{k}={v}" for k, v in rules.to_dict().items()
                             if k != "players" and v != getattr(FORMS[rules.form], k))
        plays = sum(len(p) for p in self.plays)
        n = rules.players
        workers = "Ray worker" if self.executor == "ray" else "job"
        out = [
            f"Duplicate tournament of {rules.form} ({n} players"
            + (f"; {switches}" if switches else "") + f"): {self.games} games x "
            f"{len(self.lineups)} lineup{'s' * (len(self.lineups) > 1)} x {n} rotations = "
            f"{plays} plays; seed {self.seed}",
            "lineup (seats 0-%d in rotation 0): " % (n - 1)
            + "; ".join(" ".join(l) for l in self.lineups),
            f"{self.jobs} {workers}{'s' * (self.jobs > 1)}, {self.seconds:.1f} s; "
            f"{self.mean_hands():.2f} hands per game",
            "",
            "Units per game (mean outcome of one seat over the game's rotations; 95% CI over games):",
        ]
        rows = [[str(rank), s.name, str(s.copies), _signed(s.mean),
                 f"[{_signed(s.ci[0])}, {_signed(s.ci[1])}]", _pct(s.roles["won"] / s.plays),
                 f"{s.roles['points'] / s.plays:.1f}"]
                for rank, s in enumerate(self.standings, 1)]
        out += _table(["#", "agent", "copies", "units/game", "95% CI", "won", "points"], rows,
                      "rlrrlrr")
        out.append("(won: share of the agent's seat-plays won; points: its side's final total)")
        return "\n".join(out)


def run_tressette_tournament(agents: Sequence, games: int = 200, seed: int = 0,
                             rules: str | TressetteRules | None = None, jobs: int | None = None,
                             record_games: Sequence[int] = (),
                             progress: Callable[[int], Any] | None = None,
                             ray: bool | str = False) -> TressetteTournamentResult:
    """Play a duplicate tournament of one lineup in a Tressette game (see the module docstring).

    ``agents``: one spec per seat (4, 3 or 2, as ``rules`` has players) -- names of
    :data:`agents.tressette.AGENTS` (``"greedy"``, ``"random:claim_rate=0.1"``),
    ``module:Class`` texts, Agent instances (copied per slot), or Agent classes / factories.
    Equal specs are one agent listed several times. ``rules``: a form's name or a
    :class:`TressetteRules`. ``record_games``: game numbers (below ``games``) whose plays are
    kept as game records in ``result.records``. ``jobs``, ``ray`` and ``progress`` as in
    :func:`agents.tournament.run_tournament`; the results are the same in every case.
    """
    from . import AGENTS
    rules = rules_of(rules)
    n = rules.players
    if len(agents) != n:
        raise ValueError(f"a lineup of {rules.form} is {n} agents, one per seat; got {len(agents)}")
    check_run(games, seed, jobs, ray, "games")
    record_games = record_numbers(record_games, games, "games")
    entries, lineup = name_lineup(agents)
    lineups = [lineup]
    start = time.perf_counter()
    if uses_workers(jobs, ray):  # a bad spec fails here, before workers start
        for name, spec in entries.items():
            build_agent(spec, name, AGENTS)
    args = (_GamePlayer, rules, seed, entries, lineups, record_games)
    results, workers, how = play_all(args, games, jobs, ray, progress)
    plays = [p for p, _ in results]
    records = [r for _, recs in results for r in recs]
    names = list(entries)
    return TressetteTournamentResult(names, lineups, games, seed, rules, workers,
                                     time.perf_counter() - start,
                                     standings(names, lineups, plays), plays, records, how)
