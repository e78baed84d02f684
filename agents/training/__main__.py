"""``python -m agents.training``: self-play training of any JAX game. The command lives in the
tools layer (:mod:`mediatore_env.tools.train`); this entry point, like ``mediatore_env``'s
``__main__``, stands above every layer."""

from mediatore_env.tools.train import run

raise SystemExit(run())
