"""The toy game's agents: the family's uniform random player (agents.random_agent) is all it
needs, with no agent code of its own."""

from __future__ import annotations

from agents.random_agent import UniformAgent

AGENTS = {"random": UniformAgent}
