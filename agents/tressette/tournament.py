"""Duplicate tournaments of the Tressette games: every game to 31 is played in every rotation
of the lineup over the same packs, so every agent holds every hand.

**Games.** An episode is one game to 31 (docs/rules.md 10.1-10.2), a sequence of hands. Game
``i`` of a run with seed ``S`` starts with seat ``i % n`` dealing (``n`` players), and its
``k``-th hand (``k = 0, 1, ...``) is dealt from the pack ``HOOKS.pack(S, i, k)`` =
``numpy.random.default_rng([S, i, k]).permutation(40)`` (every game's default,
:meth:`agents.tournament.Hooks.pack`). The same ``S`` gives the same packs
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

The engine, its processes and Ray are those of :mod:`agents.tournament`, for every game; this
module is what the Tressette games add to it (:data:`HOOKS`, named by their registry entries):
the packs of each hand, the games won and the final points.

    >>> result = run_tressette_tournament(["random", "random", "random", "random"], games=4)
    >>> result.standings[0].mean
    0.0
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Sequence

from mediatore_env.tressette.rules import FORMS, TressetteRules

from ..report import counted, pct, standings_table
from ..tournament import Hooks, TournamentResult, run_tournament


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


class GameFacts(NamedTuple):
    """What the statistics keep of one play of a game besides its outcome."""
    points: tuple[int, ...]      #: per seat, its side's final total
    hands: int                   #: hands dealt


def mean_hands(result: TournamentResult) -> float:
    """Hands dealt per game, over every play."""
    return result.totals["hands"] / result.plays


class TressetteHooks(Hooks):
    format = "tressette-tournament"

    def facts(self, game) -> GameFacts:
        side_of = game.rules.side_of
        return GameFacts(tuple(game.totals[side_of(s)] for s in range(game.rules.players)),
                         game.hand_number)

    def run_totals(self) -> dict:
        return {"hands": 0}

    def agent_totals(self) -> dict:
        return {"won": 0, "points": 0}

    def count_play(self, totals, facts) -> None:
        totals["hands"] += facts.hands

    def count_seat(self, totals, facts, seat, outcome) -> None:
        totals["won"] += outcome > 0
        totals["points"] += facts.points[seat]

    def to_dict(self, result) -> dict:
        return {**result.header(), "hands_per_game": mean_hands(result), "standings": [
            {"name": s.name, "copies": s.copies, "mean": s.mean, "ci95": list(s.ci),
             "plays": s.plays, "won": s.stats["won"], "mean_points": s.stats["points"] / s.plays,
             "per_game": list(s.per_deal)} for s in result.standings]}

    def report(self, result) -> str:
        n = result.rules.players
        out = [
            f"Duplicate tournament of {result.rules_line}: {counted(result.deals, 'game')} x "
            f"{counted(len(result.lineups), 'lineup')} x {n} rotations = {result.plays} plays; "
            f"seed {result.seed}",
            "lineup (seats 0-%d in rotation 0): " % (n - 1)
            + "; ".join(" ".join(l) for l in result.lineups),
            f"{result.workers}, {result.seconds:.1f} s; "
            f"{mean_hands(result):.2f} hands per game",
            "",
            *standings_table(result, {
                "won": ("r", lambda s: pct(s.stats["won"] / s.plays)),
                "points": ("r", lambda s: f"{s.stats['points'] / s.plays:.1f}")}),
            "(won: share of the agent's seat-plays won; points: its side's final total)",
        ]
        return "\n".join(out)


HOOKS = TressetteHooks()


def run_tressette_tournament(agents: Sequence, games: int = 200, seed: int = 0,
                             rules: str | TressetteRules | None = None, jobs: int | None = None,
                             record_games: Sequence[int] = (),
                             progress: Callable[[int], Any] | bool | None = None,
                             ray: bool | str = False) -> TournamentResult:
    """Play a duplicate tournament of one lineup in a Tressette game (see the module docstring):
    :func:`agents.tournament.run_tournament` of the form that ``rules`` (a form's name or a
    :class:`TressetteRules`) names, with ``games`` games to 31."""
    rules = rules_of(rules)
    return run_tournament(agents, games, seed, rules, jobs, record_games, progress, ray,
                          game=rules.form)
