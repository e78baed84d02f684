"""The toy game's table as text and JSON: a trick game's defaults, with its rules in words and
its points."""

from __future__ import annotations

from mediatore_env.core.display import Display, Facts


class ToyDisplay(Display):
    def rules_line(self, rules) -> str:
        return f"{rules.hands} hands, scoring by {rules.scoring}"

    def facts(self, view, names, style) -> Facts:
        return [("Points", [", ".join(f"{names[s]} {p}" for s, p in enumerate(view.points))])]


DISPLAY = ToyDisplay()
