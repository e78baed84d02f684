"""The text report of a tournament: standings with confidence intervals, roles, contracts."""

from __future__ import annotations

import math


def _signed(x: float, digits: int = 2) -> str:
    if math.isnan(x):
        return "-"
    x = round(x, digits) + 0.0  # no "-0.00"
    return f"{x:+.{digits}f}"


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def _table(header: list[str], rows: list[list[str]], align: str) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells):
        return "  ".join(c.ljust(w) if a == "l" else c.rjust(w)
                         for c, w, a in zip(cells, widths, align)).rstrip()
    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def format_report(result) -> str:
    """The report :meth:`TournamentResult.report` prints."""
    plays = sum(len(g) for g in result.games)
    rules = result.rules
    preset = next((name for name, r in _presets().items() if r == rules), None)
    rules_text = preset if preset else ", ".join(
        f"{k}={v}" for k, v in rules.to_dict().items() if v != getattr(type(rules)(), k))
    what = "bidding policies" if result.mode == "bidding" else "agents"
    out = [
        f"Duplicate tournament of {what}: {result.deals} deals x {len(result.lineups)} "
        f"lineup{'s' if len(result.lineups) > 1 else ''} x 4 rotations = {plays} plays; "
        f"seed {result.seed}; rules {rules_text}",
        "lineup" + ("s" if len(result.lineups) > 1 else "") + " (seats 0-3 in rotation 0): "
        + "; ".join(" ".join(l) for l in result.lineups),
        f"{result.jobs} {'Ray worker' if result.executor == 'ray' else 'job'}"
        f"{'s' if result.jobs > 1 else ''}, {result.seconds:.1f} s; "
        f"thrown in: {_pct(result.thrown_in_share())} of plays",
        "",
        "Units per deal (mean payoff of one seat over the deal's rotations; 95% CI over deals):",
    ]
    rows = []
    for rank, s in enumerate(result.standings, 1):
        rows.append([str(rank), s.name, str(s.copies), _signed(s.mean),
                     f"[{_signed(s.ci[0])}, {_signed(s.ci[1])}]"])
    out += _table(["#", "agent" if result.mode != "bidding" else "bidding policy", "copies",
                   "units/deal", "95% CI"], rows, "rlrrl")
    out += ["", "By seat role (share of the agent's seat-plays, mean payoff in the role, "
            "contribution to units/deal):"]
    rows = []
    for s in result.standings:
        for role, share, mean, contrib in s.role_rows():
            if role == "none":
                role, mean = "thrown in", math.nan
            rows.append([s.name, role, _pct(share), _signed(mean), _signed(contrib)])
    out += _table(["agent", "role", "share", "mean", "units/deal"], rows, "llrrr")
    out += ["", "By contract (as declarer: times it won the auction with it, as a share of its "
            "seat-plays, share made, mean payoff):"]
    rows = []
    for s in result.standings:
        for name, share, made, mean in s.contract_rows():
            rows.append([s.name, name, str(s.contracts[name]["declared"]), _pct(share), _pct(made),
                         _signed(mean)])
    if rows:
        out += _table(["agent", "contract", "times", "share", "made", "mean"], rows, "llrrrr")
    else:
        out.append("(every deal was thrown in)")
    return "\n".join(out)


def _presets():
    from mediatore_env.mediatore.rules import PRESETS
    return PRESETS
