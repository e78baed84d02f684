"""SelfPlayAgent: a network trained by self-play on a JAX engine, played with numpy alone.

:mod:`agents.training` (its command line: ``python -m agents.training --game NAME``, or
``examples/train_selfplay.py``) trains one network for every seat of a game (masked PPO on the
batched JAX engine of any game of :func:`mediatore_env.jaxgame.make`) and saves it as a
``.npz`` of plain numpy arrays; this agent reads that file and computes the same forward pass
in numpy, so playing it needs neither JAX nor torch.

**Any game.** A network's ``meta`` names its game (``"game"``; a file without one is
Mediatore's, as every file was before); its input is that game's observation (Mediatore's 2132
floats, Partnership Tressette's 2393...) and its logits one per move id of that game. The
agent plays the game its file names; made for a game (``game=``, as each game's registry
makes it), a file of another game is refused in one line. Shipped networks
(:func:`default_path`): ``agents/data/selfplay.npz`` (Mediatore) and
``agents/data/selfplay-<game>.npz`` for the others that have one (registered as ``selfplay``
in that game's agents). By name::

    mediatore-bench --agents selfplay pimc pimc pimc           # the shipped network
    mediatore-bench --agents selfplay:path=runs/selfplay/checkpoint.npz greedy greedy greedy
    mediatore-play --agents selfplay selfplay selfplay

or in Python (the tournament, :func:`agents.base.play`, the PettingZoo environment as
in :mod:`agents.base`)::

    from agents.selfplay import SelfPlayAgent
    from agents.tournament import run_tournament
    result = run_tournament([SelfPlayAgent(), "greedy", "greedy", "greedy"], deals=1000)

**The network** (``NETWORK_FORMAT``): the seat's observation (the game's registered writer's:
in Mediatore the 2132 floats of :mod:`mediatore_env.mediatore.observation`, which the JAX
engine writes bit for bit) through hidden layers ``h = relu(x @ W + b)``, then two heads on
the last hidden layer: the action logits (one per move id: 486 in Mediatore, 41 in Tressette)
and the value (the seat's expected scaled outcome). The file holds ``layer{i}/w``, ``layer{i}/b``, ``policy/w``,
``policy/b``, ``value/w``, ``value/b`` (float32, or float16 to halve the file: read as
float32), ``format`` and ``meta`` (a JSON text: how it was trained and measured). A training
checkpoint holds the same keys and more (optimiser state, opponent pool), which the agent
ignores, so ``path=`` takes either.

**Playing** (:class:`agents.network_agent.NetworkAgent`): the logits of the legal moves only
(Mediatore's encoded incrementally from the view; another game's read from the observation the
table gives, the game's registered writer's);
the highest one (``deterministic=True``, the default) or a draw from their softmax with a
generator seeded by :meth:`reset`.

**The shipped network** (``DEFAULT_PATH``, ``agents/data/selfplay.npz``) was trained on two
CPU cores, not on an accelerator: it first imitated four PIMC agents (10,600 recorded deals),
then played self-play anchored to that imitation (``train_selfplay.py --demos
--anchor-coef``); its weights are stored as float16 (half the file; the agent computes in
float32). Its ``meta`` says how it was made, docs/training.md what it scores.
"""

from __future__ import annotations

import json
import os
import warnings
from functools import lru_cache
from pathlib import Path

import numpy as np

from mediatore_env.mediatore.layout import OBSERVATION_SIZE
from mediatore_env.mediatore.moves import NUM_MOVES
from mediatore_env.registry import get

from .network_agent import NetworkAgent, read_saved

NETWORK_FORMAT = "mediatore-selfplay-mlp-v1"
DATA = Path(__file__).resolve().parent / "data"
DEFAULT_PATH = DATA / "selfplay.npz"
EXPECTED = "a .npz written by python -m agents.training, e.g. runs/selfplay/network.npz"


def default_path(game: str = "mediatore") -> Path:
    """The shipped network of ``game``: ``agents/data/selfplay.npz`` for Mediatore,
    ``agents/data/selfplay-<game>.npz`` for the others."""
    return DEFAULT_PATH if game == "mediatore" else DATA / f"selfplay-{game}.npz"


@lru_cache(maxsize=None)
def game_shape(game: str = "mediatore") -> tuple[int, int]:
    """``(observation size, move count)`` of ``game`` under its default rules: what a network
    of that game reads and writes (its registered observation writer's size, measured on a
    fresh game; its move table's count)."""
    if game == "mediatore":
        return OBSERVATION_SIZE, NUM_MOVES
    entry = get(game)
    fresh = entry.new_game()
    if fresh.needs_pack:
        fresh.deal(list(range(40)))
    return int(entry.observation(fresh.view(fresh.to_move))["observation"].shape[0]), \
        entry.moves.count


def game_of(meta: dict) -> str:
    """The game a network's ``meta`` says it plays (Mediatore for files from before games had
    names)."""
    return str(meta.get("game", "mediatore"))


def network_keys(hidden_layers: int) -> list[str]:
    """The array names of a network with ``hidden_layers`` hidden layers, input to output."""
    keys = [f"layer{i}/{p}" for i in range(hidden_layers) for p in ("w", "b")]
    return keys + ["policy/w", "policy/b", "value/w", "value/b"]


def hidden_count(arrays) -> int:
    """How many hidden layers the arrays (a dict or an open npz) hold."""
    n = 0
    while f"layer{n}/w" in arrays:
        n += 1
    return n


def load_network(path, game: str | None = None,
                 who: str = "SelfPlayAgent") -> tuple[dict[str, np.ndarray], dict]:
    """``(params, meta)`` of a saved network or checkpoint: the network's float32 arrays by name
    and the JSON ``meta``. Raises ``ValueError`` in one line, beginning with ``who`` (none when
    empty: a caller that names the setting itself) and naming the file, when it is missing,
    not an npz, not of ``NETWORK_FORMAT``, a network of another game than ``game`` (None: any)
    or not shaped as a network of its game."""
    path, lead = os.fspath(path), f"{who}: " if who else ""
    arrays = read_saved(path, who, "network", EXPECTED, read_npz)
    fmt = str(arrays.get("format", ""))
    if fmt != NETWORK_FORMAT:
        raise ValueError(f"{lead}{path!r} is not a self-play network (format {fmt!r}, "
                         f"expected {NETWORK_FORMAT!r})")
    keys = network_keys(hidden_count(arrays))
    missing = [k for k in keys if k not in arrays]
    if missing:
        raise ValueError(f"{lead}{path!r} lacks arrays {missing}")
    params = {k: arrays[k].astype(np.float32) for k in keys}
    meta = json.loads(str(arrays["meta"])) if "meta" in arrays else {}
    trained = game_of(meta)
    if game is not None and trained != game:
        raise ValueError(f"{lead}{path!r} is a network of {trained}, not of {game} "
                         f"(train one with: python -m agents.training --game {game})")
    check_shapes(params, f"{lead}{path!r}", trained)
    return params, meta


def save_half(path, out) -> None:
    """Write the network at ``path`` (a run's ``network.npz`` or ``best.npz``) to ``out`` with
    its weights stored as float16: half the file, as the networks shipped in agents/data are
    (:func:`load_network` reads them back as float32, and the agent computes in float32)."""
    params, meta = load_network(path)
    np.savez(out, **{k: v.astype(np.float16) for k, v in params.items()},
             format=np.array(NETWORK_FORMAT), meta=np.array(json.dumps(meta)))


def read_npz(path: str) -> dict[str, np.ndarray]:
    """Every array of an ``.npz`` file, read without unpickling anything."""
    with np.load(path, allow_pickle=False) as f:
        return {k: f[k] for k in f.files}


def check_shapes(params: dict[str, np.ndarray], where: str = "network",
                 game: str = "mediatore") -> None:
    """ValueError unless the layers chain from ``game``'s observation to one logit per move of
    it and one value."""
    width, moves = game_shape(game)
    for i in range(hidden_count(params)):
        w, b = params[f"layer{i}/w"], params[f"layer{i}/b"]
        if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
            raise ValueError(f"{where}: layer{i} has shapes {w.shape}, {b.shape}; expected "
                             f"({width}, n) and (n,) for {game}")
        width = w.shape[1]
    for head, n in (("policy", moves), ("value", 1)):
        if params[f"{head}/w"].shape != (width, n) or params[f"{head}/b"].shape != (n,):
            raise ValueError(f"{where}: {head} head has shapes {params[f'{head}/w'].shape}, "
                             f"{params[f'{head}/b'].shape}; expected ({width}, {n}) and ({n},)")


def forward(params: dict[str, np.ndarray], obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(logits, value)`` of observations ``obs`` (``[..., observation size]``): logits
    ``[..., moves]`` for every move, legal or not, and the value ``[...]``. The same arithmetic as the training's
    JAX forward pass (:func:`agents.training.network.forward`)."""
    h = np.asarray(obs, np.float32)
    for i in range(hidden_count(params)):
        h = np.maximum(h @ params[f"layer{i}/w"] + params[f"layer{i}/b"], 0.0)
    logits = h @ params["policy/w"] + params["policy/b"]
    value = (h @ params["value/w"] + params["value/b"])[..., 0]
    return logits, value


class SelfPlayAgent(NetworkAgent):
    """A self-play network playing one seat.

    ``path``: a ``.npz`` network or checkpoint of ``python -m agents.training`` (default: the
    shipped network of ``game``, :func:`default_path`); or ``params``: the network's arrays in
    memory (a dict as :func:`load_network` returns). ``game``: the game it must play (None: the
    one its file names; with ``params``, Mediatore); a file of another game is a ValueError.
    ``deterministic``: the most likely legal move (True) or a draw from the policy over the
    legal moves (False).
    """

    name = "selfplay"

    def __init__(self, path: str | None = None, params: dict | None = None,
                 deterministic: bool = True, seed: int | None = None, game: str | None = None):
        if path is not None and params is not None:
            raise ValueError("give either path (a saved .npz) or params, not both")
        if params is None:
            self.path = os.fspath(path) if path is not None else str(
                default_path(game or "mediatore"))
            params, self.meta = load_network(self.path, game)
            self.game = game_of(self.meta)
        else:
            self.path, self.meta, self.game = None, {}, game or "mediatore"
            params = {k: np.asarray(v, np.float32) for k, v in params.items()}
            check_shapes(params, game=self.game)
        self.params = params
        # Mediatore's view is encoded incrementally; another game's observation is the table's
        self.wants_observation = self.game != "mediatore"
        self.view_type = type(get(self.game).new_game().view(0))  # its game's, refused elsewhere
        self.rules_seen: set = set()  # the rules of the tables it sat at (warned once each)
        super().__init__(deterministic, seed)

    def trained_rules(self):
        """The rules the network was trained under (its ``meta``'s ``rules``: a preset of the
        game, ``standard`` where the game has none its defaults); None where it does not say."""
        trained = self.meta.get("rules")
        if trained is None:
            return None
        entry = get(self.game)
        return entry.make_rules(trained if trained in entry.rules.PRESETS else None)

    def check_rules(self, rules) -> None:
        """Warn, once per rules, where the table's rules are not those the network learned:
        it was never shown what the others change (a claim it may make falsely, a contract
        it never bid). ``ValueError`` where they are another game's (Three-Handed Tressette's
        for a network of the Partnership game: its observation is another size)."""
        if rules in self.rules_seen:
            return
        if not get(self.game).has_rules(rules):
            raise ValueError(f"selfplay: the network {self.path or '(params)'} plays "
                             f"{self.game}, not this game (rules {rules!r})")
        self.rules_seen.add(rules)
        trained = self.trained_rules()
        if trained is not None and rules != trained:
            line = get(self.game).display.rules_line
            warnings.warn(f"selfplay: the network {self.path or '(params)'} was trained under "
                          f"the rules {line(trained)}, not {line(rules)}: what they change "
                          "it never learned", stacklevel=2)

    def policy_logits(self, observation: np.ndarray) -> np.ndarray:
        return forward(self.params, observation)[0]

    def logits(self, view, observation=None) -> np.ndarray:
        if self.game == "mediatore":
            return super().logits(view)
        if observation is None:  # a caller that gave none: the game's writer
            observation = get(self.game).observation(view)
        if isinstance(observation, dict):
            observation = observation["observation"]
        return self.policy_logits(observation)

    def act(self, observation, view) -> int:
        self.check_rules(view.rules)
        return super().act(observation, view)
