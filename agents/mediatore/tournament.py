"""What Mediatore adds to the duplicate tournament of :mod:`agents.tournament`: its packs, the
seat roles and contracts, the report, the chart, and tournaments of bidding policies.

**Deals.** Deal ``i`` of a run with seed ``S`` is the pack
``numpy.random.default_rng([S, i]).permutation(40)`` dealt by seat ``i % 4``, played in the 4
rotations of the lineup. Its result for an agent is its units (payoffs) summed over the seats
it played, divided by that number of seats: units per deal. A thrown-in deal counts, with zero
payoffs.

**Roles and contracts.** Each seat-play also has a role: declarer, partner (the called partner
in Chiamo) or defender (or none, in a thrown-in deal). The report gives, per agent and role,
how often the agent was in it, its mean payoff in it, and its contribution to the units per deal
(the contributions add up to the total). The contract table gives per agent and contract how
often it won the auction with it (share of its seat-plays), how often it made it, and its mean
payoff as declarer.

**Bidding tournaments.** :func:`run_bidding_tournament` compares bidding policies inside one
shared player (by default the greedy agent): with ``n`` policies it plays the lineups
``(p_k, p_k+1, p_k+2, p_k+3)`` (indices mod ``n``) for ``k = 0 .. n-1`` on every deal, four
rotations each, so every policy holds every seat equally often, and ranks the policies.
"""

from __future__ import annotations

import math
from typing import Any, Callable, NamedTuple, Sequence

from mediatore_env.mediatore.records import make_record
from mediatore_env.mediatore.rules import CONTRACT_NAMES, CONTRACTS, Rules

from ..report import counted, pct, signed, table
from ..tournament import Hooks, cyclic_lineups, run, shuffled_pack

ROLES = ("declarer", "partner", "defender", "none")


class DealFacts(NamedTuple):
    """What the statistics keep of one play of a deal besides its payoffs."""
    contract: int | None      #: None: thrown in
    declarer: int | None
    partner: int | None
    won: bool | None

    def role(self, seat: int) -> str:
        if self.contract is None:
            return "none"
        if seat == self.declarer:
            return "declarer"
        return "partner" if seat == self.partner else "defender"


def role_rows(standing):
    """(role, share of seat-plays, mean payoff in the role, contribution in units/deal)."""
    deals = len(standing.per_deal)
    seats_per_deal = standing.plays / deals
    for role in ROLES:
        r = standing.stats["roles"][role]
        n = r["count"]
        yield (role, n / standing.plays, r["units"] / n if n else math.nan,
               r["units"] / seats_per_deal / deals)


def contract_rows(standing):
    """(contract, share of seat-plays declared, share made, mean payoff as declarer)."""
    for name in (CONTRACT_NAMES[c] for c in CONTRACTS):
        c = standing.stats["contracts"].get(name)
        if c is None:
            continue
        n = c["declared"]
        yield (name, n / standing.plays, c["made"] / n if n else math.nan,
               c["units"] / n if n else math.nan)


def thrown_in_share(result) -> float:
    """The share of a tournament's plays that were thrown in."""
    return result.totals["thrown_in"] / result.plays


class MediatoreHooks(Hooks):
    format = "mediatore-tournament"

    @staticmethod
    def chart(result, path) -> str:
        from ..plot import plot_tournament
        return plot_tournament(result, path)

    @staticmethod
    def bidding(policies, deals, **options):
        return run_bidding_tournament(policies, deals, **options)

    @property
    def bidding_policies(self) -> tuple[str, ...]:
        from .greedy import BIDDING_POLICIES
        return tuple(BIDDING_POLICIES)

    def pack(self, seed: int, index: int, hand: int) -> list[int]:
        if hand:
            raise ValueError("a Mediatore deal is dealt from one pack")
        return shuffled_pack(seed, index)

    def facts(self, deal) -> DealFacts:
        return DealFacts(deal.contract, deal.declarer, deal.partner, deal.declarer_won)

    def record(self, deal, **meta) -> dict:
        return make_record(deal, **meta)

    def run_totals(self) -> dict:
        return {"thrown_in": 0}

    def agent_totals(self) -> dict:
        return {"roles": {role: {"count": 0, "units": 0} for role in ROLES}, "contracts": {}}

    def count_play(self, totals, facts) -> None:
        totals["thrown_in"] += facts.contract is None

    def count_seat(self, totals, facts, seat, outcome) -> None:
        role = totals["roles"][facts.role(seat)]
        role["count"] += 1
        role["units"] += outcome
        if seat == facts.declarer:
            c = totals["contracts"].setdefault(CONTRACT_NAMES[facts.contract],
                                               {"declared": 0, "made": 0, "units": 0})
            c["declared"] += 1
            c["made"] += bool(facts.won)
            c["units"] += outcome

    def to_dict(self, result) -> dict:
        return {
            "format": self.format, "version": 1, "mode": result.mode,
            "agents": result.names, "lineups": [list(l) for l in result.lineups],
            "deals": result.deals, "seed": result.seed, "rules": result.rules.to_dict(),
            "jobs": result.jobs, "executor": result.executor,
            "seconds": round(result.seconds, 3), "plays": result.plays,
            "thrown_in_share": thrown_in_share(result),
            "standings": [{"name": s.name, "copies": s.copies, "mean": s.mean,
                           "ci95": list(s.ci), "plays": s.plays,
                           "roles": s.stats["roles"], "contracts": s.stats["contracts"],
                           "per_deal": list(s.per_deal)}
                          for s in result.standings],
        }

    def report(self, result) -> str:
        what = "bidding policies" if result.mode == "bidding" else "agents"
        several = len(result.lineups) > 1
        out = [
            f"Duplicate tournament of {what}: {counted(result.deals, 'deal')} x "
            f"{counted(len(result.lineups), 'lineup')} x 4 rotations = {result.plays} plays; "
            f"seed {result.seed}; rules: {result.rules_line}",
            "lineup" + ("s" if several else "") + " (seats 0-3 in rotation 0): "
            + "; ".join(" ".join(l) for l in result.lineups),
            f"{result.workers}, {result.seconds:.1f} s; "
            f"thrown in: {pct(thrown_in_share(result))} of plays",
            "",
            "Units per deal (mean payoff of one seat over the deal's rotations; 95% CI over "
            "deals):",
        ]
        rows = [[str(rank), s.name, str(s.copies), signed(s.mean),
                 f"[{signed(s.ci[0])}, {signed(s.ci[1])}]"]
                for rank, s in enumerate(result.standings, 1)]
        out += table(["#", "agent" if result.mode != "bidding" else "bidding policy", "copies",
                      "units/deal", "95% CI"], rows, "rlrrl")
        out += ["", "By seat role (share of the agent's seat-plays, mean payoff in the role, "
                "contribution to units/deal):"]
        rows = []
        for s in result.standings:
            for role, share, mean, contrib in role_rows(s):
                if role == "none":
                    role, mean = "thrown in", math.nan
                rows.append([s.name, role, pct(share), signed(mean), signed(contrib)])
        out += table(["agent", "role", "share", "mean", "units/deal"], rows, "llrrr")
        out += ["", "By contract (as declarer: times it won the auction with it, as a share of "
                "its seat-plays, share made, mean payoff):"]
        rows = [[s.name, name, str(s.stats["contracts"][name]["declared"]), pct(share), pct(made),
                 signed(mean)]
                for s in result.standings for name, share, made, mean in contract_rows(s)]
        if rows:
            out += table(["agent", "contract", "times", "share", "made", "mean"], rows, "llrrrr")
        else:
            out.append("(every deal was thrown in)")
        return "\n".join(out)


HOOKS = MediatoreHooks()


def check_bidding(policies: Sequence[str], base: str = "greedy") -> None:
    """Refuse (``ValueError``, before anything is played) what cannot compare bidding
    policies: fewer than two, one listed twice, one that cannot be made
    (:func:`~agents.mediatore.greedy.make_bidding_policy` says why), or a player ``base``
    that takes no ``bidding`` option."""
    from ..registry import agent_factory, option_names, takes_option
    from .greedy import make_bidding_policy
    if len(policies) < 2:
        raise ValueError("a bidding tournament compares at least two bidding policies")
    if len(set(policies)) != len(policies):
        raise ValueError(f"bidding policies listed twice: {list(policies)}")
    for policy in policies:
        make_bidding_policy(policy)
    factory, _ = agent_factory(base)
    if not takes_option(factory, "bidding"):
        raise ValueError(f"the player {base!r} takes no bidding policy (its options: "
                         f"{', '.join(option_names(factory)) or 'none'}): give a player with "
                         "a bidding option, such as greedy or pimc")


def run_bidding_tournament(policies: Sequence[str], deals: int = 1000, seed: int = 0,
                           rules: Rules | None = None, jobs: int | None = None,
                           base: str = "greedy", record_deals: Sequence[int] = (),
                           progress: Callable[[int], Any] | bool | None = None,
                           ray: bool | str = False):
    """Compare bidding policies (names of :data:`agents.mediatore.greedy.BIDDING_POLICIES` or
    ``module:Class`` texts) inside one shared player ``base`` (its calling, exchange and card
    play), over the cyclic lineups of the module docstring. Ranks the policies. The other
    arguments are those of :func:`agents.tournament.run_tournament`."""
    check_bidding(policies, base)
    entries = {p: (base, {"bidding": p}) for p in policies}
    return run("mediatore", entries, cyclic_lineups(list(policies)), deals, seed, rules, jobs,
               record_deals, progress, ray, "bidding")
