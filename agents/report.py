"""The text of tournament reports: signed figures, percentages, aligned tables, and the
standings table that every game's report starts from (things counted: the text helpers'
:func:`~mediatore_env.core.text.counted`, re-exported here for the reports)."""

from __future__ import annotations

import math

from mediatore_env.core.text import counted

__all__ = ["counted", "signed", "pct", "table", "standings_table"]


def signed(x: float, digits: int = 2) -> str:
    if math.isnan(x):
        return "-"
    x = round(x, digits) + 0.0  # no "-0.00"
    return f"{x:+.{digits}f}"


def pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.1f}%"


def table(header: list[str], rows: list[list[str]], align: str) -> list[str]:
    """Lines of a table with a rule under the header; ``align``: ``l`` or ``r`` per column."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells):
        return "  ".join(c.ljust(w) if a == "l" else c.rjust(w)
                         for c, w, a in zip(cells, widths, align)).rstrip()
    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def standings_table(result, columns: dict | None = None) -> list[str]:
    """The standings of ``result`` (an :class:`agents.tournament.TournamentResult`) with their
    95% intervals, under a line that says what they are; ``columns``: more columns, header ->
    (alignment, text of a standing)."""
    unit = result.unit
    columns = columns or {}
    rows = [[str(rank), s.name, str(s.copies), signed(s.mean),
             f"[{signed(s.ci[0])}, {signed(s.ci[1])}]", *(cell(s) for _, cell in columns.values())]
            for rank, s in enumerate(result.standings, 1)]
    return [f"Units per {unit} (mean outcome of one seat over the {unit}'s rotations; 95% CI "
            f"over {unit}s):",
            *table(["#", "agent", "copies", f"units/{unit}", "95% CI", *columns], rows,
                   "rlrrl" + "".join(a for a, _ in columns.values()))]
