"""Mediatore's own agents: random, greedy (with its bidding, calling, exchange and play
policies), PIMC, and the calibration of the greedy agent's hand evaluations. The registry of
their names is :data:`agents.AGENTS`."""
