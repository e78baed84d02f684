"""Demonstrations: the decisions of agents at play, recorded to train a network to imitate.

:func:`record_deals` plays deals with four agents and keeps every decision that had a choice
(one legal move: not kept) as the seat that made it saw it: the observation (float16: its
values are multiples of 1/35 and 1/9, which float16 keeps within 2e-4), the legal moves
(bit-packed), the move, the seat, the deal's number and the seat's payment at the end of the
deal (units). :func:`load_demos` reads a folder of such files back.
``examples/record_demos.py`` is the command line, :func:`agents.training.imitation.imitate`
(``examples/train_selfplay.py --demos``) the user (docs/training.md).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mediatore_env.mediatore.layout import OBSERVATION_SIZE
from mediatore_env.mediatore.observation import Encoder
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.moves import NUM_MOVES

from .registry import make_agent
from .base import Agent, play
from .mediatore.tournament import deal_dealer, deal_pack
from .tournament import derive_seed

class Recorder(Agent):
    """Plays as ``inner`` and appends each decision with a choice to ``rows``."""

    wants_observation = False

    def __init__(self, inner: Agent, rows: list):
        self.inner, self.rows = inner, rows
        self.name = inner.name

    def reset(self, seed=None):
        self.inner.reset(seed)
        self.encoder = Encoder()

    def act(self, observation, view) -> int:
        obs = self.encoder.encode(view).astype(np.float16)  # before the move: what was seen
        move = self.inner.act(None, view)  # the agents recorded read views (checked at start)
        legal = view.legal_moves()
        if len(legal) > 1:
            mask = np.zeros(NUM_MOVES, bool)
            mask[legal] = True
            self.rows.append((obs, np.packbits(mask), move, view.seat))
        return move


def record_deals(specs, rules, seed: int, first: int, count: int, path) -> None:
    """Play deals ``first .. first + count - 1`` of ``seed`` (the packs, dealers and agent seeds
    of the duplicate tournament's first rotation, :mod:`agents.tournament`) with the agents of
    ``specs`` (four texts for :func:`agents.make_agent`, agents that read views), and write
    their decisions to ``path`` (an .npz: written whole or not at all)."""
    path = Path(path)
    rows: list = []
    recorders = [Recorder(make_agent(spec), rows) for spec in specs]
    obs, masks, moves, seats, deals, payoffs = [], [], [], [], [], []
    for index in range(first, first + count):
        start = len(rows)
        deal = play(Deal(rules, deal_dealer(index), deal_pack(seed, index)), recorders,
                    seeds=[derive_seed(seed, index, s) for s in range(4)])
        for o, m, a, s in rows[start:]:
            obs.append(o), masks.append(m), moves.append(a), seats.append(s)
            deals.append(index), payoffs.append(deal.payoffs[s])
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, obs=np.array(obs, np.float16).reshape(-1, OBSERVATION_SIZE),
             mask=np.array(masks, np.uint8).reshape(len(masks), -1),
             move=np.array(moves, np.int16), seat=np.array(seats, np.int8),
             deal=np.array(deals, np.int32), payoff=np.array(payoffs, np.float32))
    tmp.rename(path)


def load_demos(folder) -> dict[str, np.ndarray]:
    """The demonstrations of a folder written by :func:`record_deals`, every shard concatenated:
    ``obs`` float16 ``[n, OBSERVATION_SIZE]``, ``mask`` bool ``[n, NUM_MOVES]``, ``move``,
    ``seat``, ``deal``, ``payoff``. Raises ``ValueError`` when the folder holds none."""
    paths = sorted(Path(folder).glob("demos-*[0-9].npz"))
    if not paths:
        raise ValueError(f"no demonstrations in {str(folder)!r} (.npz files written by "
                         "examples/record_demos.py)")
    parts: dict[str, list] = {}
    for p in paths:
        with np.load(p) as f:
            for k in f.files:
                parts.setdefault(k, []).append(f[k])
    demos = {k: np.concatenate(v) for k, v in parts.items()}
    demos["mask"] = np.unpackbits(demos["mask"], axis=1, count=NUM_MOVES).astype(bool)
    return demos


def demos_of_records(records, path) -> int:
    """The decisions of the persons in Mediatore ``records`` (as ``mediatore-web --export``
    writes them: ``meta.persons`` names the persons' seats, ``meta.stood_in`` the moves an
    agent made for an away person; a record without ``meta.persons`` gives every seat's), as
    the demonstrations :func:`record_deals` writes (an .npz at ``path``, written whole or not
    at all): games played by people become training data. Other games' records are passed
    over. The number of decisions written."""
    from mediatore_env.core.records import replay
    obs, masks, moves, seats, deals, payoffs = [], [], [], [], [], []
    for index, record in enumerate(records):
        if record.get("game") != "mediatore":
            continue
        final = replay(record)
        meta = record.get("meta") or {}
        persons = set(meta.get("persons", range(4)))
        by_agents = set(meta.get("stood_in", ()))
        deal = Deal(final.rules, final.dealer, final.pack)
        encoders = {s: Encoder() for s in persons}
        for number, (seat, move) in enumerate(final.history):
            if seat in persons and number not in by_agents:
                view = deal.view(seat)
                legal = view.legal_moves()
                if len(legal) > 1:
                    mask = np.zeros(NUM_MOVES, bool)
                    mask[legal] = True
                    obs.append(encoders[seat].encode(view).astype(np.float16))
                    masks.append(np.packbits(mask)), moves.append(move), seats.append(seat)
                    deals.append(index), payoffs.append(final.payoffs[seat])
            deal.apply(move)
    path = Path(path)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, obs=np.array(obs, np.float16).reshape(-1, OBSERVATION_SIZE),
             mask=np.array(masks, np.uint8).reshape(len(masks), -1),
             move=np.array(moves, np.int16), seat=np.array(seats, np.int8),
             deal=np.array(deals, np.int32), payoff=np.array(payoffs, np.float32))
    tmp.rename(path)
    return len(moves)
