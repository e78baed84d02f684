"""Command-line tools, the top layer (above the agents): ``mediatore-play`` (:mod:`.play`),
``mediatore-replay`` (:mod:`.replay`), ``mediatore-bench`` (:mod:`.bench`) and
``mediatore-tables`` (:mod:`.tables`); ``python -m agents.training`` (:mod:`.train`, self-play
training of any JAX game). ``mediatore-play`` and ``mediatore-bench`` take
``--game`` with any game of the registry (:mod:`mediatore_env.registry`), each written once
for all of them; ``mediatore-replay`` reads every game's records through their header. They
share :mod:`.checks` (arguments), :mod:`.answers` (moves typed at the terminal) and
:mod:`.terminal` (reading and writing at a terminal)."""
