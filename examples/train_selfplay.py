"""Self-play on the JAX engine: masked PPO, one network for every seat, in JAX end to end.

    pip install -e ".[train-jax]"                     # jax (CPU) and optax
    python examples/train_selfplay.py --steps 2000000 --envs 256 --out runs/selfplay
    python examples/train_selfplay.py --game tressette --out runs/tressette  # any JAX game
    pip install -U "jax[cuda12]"                      # on a GPU machine, then e.g.
    python examples/train_selfplay.py --steps 3000000000 --envs 8192 --rollout 64 \\
        --minibatches 16 --eval-every 100000000 --out runs/selfplay-gpu

The command line of :mod:`agents.training` (``python -m agents.training``, the same:
:mod:`mediatore_env.tools.train`): the PPO settings (``--envs`` ... ``--anchor-coef``,
``--rules``) make its :class:`~agents.training.Config` (the algorithm: :mod:`agents.training.ppo`),
the others its :class:`~agents.training.Plan` (imitation with ``--demos``, ``--resume``,
evaluations, the files written to ``--out``: :mod:`agents.training.run`). Every default is the
library's. A bad argument, a folder without demonstrations or a checkpoint that does not fit
is one line and exit status 2. docs/training.md has the runs.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

try:
    import jax  # noqa: F401  (the library needs both; say which is missing in one line)
    import optax  # noqa: F401
except ImportError as e:
    print(f"train_selfplay.py: error: needs {e.name or e} (the train-jax extra): "
          "pip install -e '.[train-jax]'", file=sys.stderr)
    raise SystemExit(2) from None

from mediatore_env.tools.train import main, run  # noqa: E402,F401  (main: the tests call it)


if __name__ == "__main__":
    raise SystemExit(run(prog="train_selfplay.py"))
