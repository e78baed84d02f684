"""Self-play training on the batched JAX engine: masked PPO, one network for the four seats.

Needs the ``train-jax`` extra (JAX and optax; matplotlib for the curve). The network it trains
is played by :class:`agents.selfplay.SelfPlayAgent` in numpy, with neither.

======================================  ========================================================
module                                  what
======================================  ========================================================
:mod:`agents.training.network`          the MLP in JAX (the numpy twin: :mod:`agents.selfplay`)
:mod:`agents.training.ppo`              :class:`Config`, :func:`make_train` (PureJaxRL's shape),
                                        the per-seat advantages, self-play against a pool
:mod:`agents.training.imitation`        :func:`imitate` recorded decisions, :func:`start_from`
:mod:`agents.training.checkpoint`       network and checkpoint files
:mod:`agents.training.evaluation`       tournaments against greedy and PIMC, the learning curve
:mod:`agents.training.run`              :class:`Plan` and :func:`self_play`: a whole run
======================================  ========================================================

``examples/train_selfplay.py`` is the command line over :func:`self_play`; docs/training.md
has the runs.
"""

from .checkpoint import load_checkpoint, network_arrays, save_checkpoint
from .evaluation import describe, evaluate, is_best, plot_curve
from .imitation import imitate, start_from
from .network import ILLEGAL, forward, init_network, masked_logits
from .ppo import (Config, Runner, Train, Transition, check_config, draw_learner_seats,
                  make_train, pool_slot, random_bids, seat_advantages)
from .run import Plan, SettingError, self_play

__all__ = ["Config", "Plan", "Runner", "SettingError", "Train", "Transition", "ILLEGAL",
           "check_config", "describe", "draw_learner_seats", "evaluate", "forward", "imitate",
           "init_network", "is_best", "load_checkpoint", "make_train", "masked_logits",
           "network_arrays", "plot_curve", "pool_slot", "random_bids", "save_checkpoint",
           "seat_advantages", "self_play", "start_from"]
