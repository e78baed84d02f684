"""Demonstrations: the decisions of agents at play, recorded to train a network to imitate,
for any game of the registry.

:func:`record_deals` plays episodes of a game (a Mediatore deal, a Tressette game to 31...)
with one agent per seat and keeps every decision that had a choice (one legal move: not kept)
as the seat that made it saw it: the observation the game's environments give that seat then
(its registry definition's ``observation`` writer: the vector the JAX engine's ``observe``
also writes, as the differential tests hold, so a network trained by self-play reads it),
stored as float16 (every value lies in [0, 1] and is a small fraction, which float16 keeps
within 3e-4), the legal moves (bit-packed over the game's ``moves.count``), the move, the
seat, the episode's number and the seat's outcome at its end (``game.outcome``: Mediatore's
payment in units, a Tressette game's +1/-1...), where a seat searches worlds
(:class:`agents.search.WorldSearch`: PIMC) the mean value it found for each legal move
(``values``: the search's whole judgement, not only its choice, which imitation can learn
from), and the game's name, in a compressed .npz
(the observations are mostly zeros: a Tressette shard is about 60 times smaller so, and
loads in about a second). :func:`load_demos` reads
a folder of such files back; files written before the game was recorded are Mediatore's.
``examples/record_demos.py`` is the command line, :func:`agents.training.imitation.imitate`
(``python -m agents.training --demos``) the user (docs/training.md).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mediatore_env.registry import get

from .base import Agent, agent_name, play, reset_agent, wants_observation
from .registry import agents_of, make_agent
from .search import WorldSearch
from .tournament import derive_seed, hooks_of

#: The game of a demonstrations file that does not name one (written before games were named).
LEGACY_GAME = "mediatore"


class Recorder(Agent):
    """Plays as ``inner`` and appends each decision with a choice to ``rows``, the observation
    written by ``writer`` (a game's observation writer) over ``num_moves`` moves, and the move
    values of ``advisor`` (a search asked at each decision, whose own move is not played) or,
    without one, of ``inner`` where it searches."""

    wants_observation = False  # it writes the observation itself, before the move

    def __init__(self, inner: Agent, rows: list, writer, num_moves: int,
                 advisor: WorldSearch | None = None):
        self.inner, self.rows, self.writer, self.num_moves = inner, rows, writer, num_moves
        self.name = agent_name(inner)
        self.judge = advisor if advisor is not None else (
            inner if isinstance(inner, WorldSearch) else None)
        self.advisor = advisor

    def reset(self, seed=None):
        for agent in (self.inner, self.advisor):
            reset_agent(agent, seed)

    def act(self, observation, view) -> int:
        seen = self.writer(view)  # before the move: what was seen
        if self.judge is not None:
            self.judge.last_values = None  # so a decision it did not search records no values
        if self.advisor is not None:
            self.advisor.act(None, view)  # its values, not its move
        move = self.inner.act(seen if wants_observation(self.inner) else None, view)
        legal = view.legal_moves()
        if len(legal) > 1:
            mask = np.zeros(self.num_moves, bool)
            mask[legal] = True
            values = np.full(self.num_moves, np.nan, np.float32)  # NaN: no value
            if self.judge is not None and self.judge.last_values:
                for m, v in self.judge.last_values.items():
                    values[m] = v
            self.rows.append((seen["observation"].astype(np.float16), np.packbits(mask), move,
                              view.seat, values))
        return move


def record_deals(specs, rules, seed: int, first: int, count: int, path,
                 game: str = LEGACY_GAME, advisor: str | None = None) -> None:
    """Play episodes ``first .. first + count - 1`` of ``seed`` of ``game`` (those of the
    duplicate tournament's first rotation, :mod:`agents.tournament`: episode ``i`` first dealt
    by seat ``i % players``, its packs and the agents' seeds from the seed) under ``rules``
    (None: the game's default rules) with the agents of ``specs`` (one text per seat for
    :func:`agents.make_agent`, names of the game's agents), and write their decisions to
    ``path`` (an .npz: written whole or not at all). ``advisor``: a search agent's text
    (such as ``pimc``), asked at every decision for its values of the moves, which are recorded
    beside the move the seat's agent plays (without it, a seat that searches records its
    own)."""
    definition = get(game)
    rules = definition.make_rules() if rules is None else rules
    hooks, known = hooks_of(game), agents_of(definition)
    rows: list = []
    recorders = [Recorder(make_agent(spec, known), rows, definition.observation,
                          definition.moves.count, advisor and make_advisor(advisor, known))
                 for spec in specs]
    n = len(recorders)
    obs, masks, moves, seats, deals, payoffs, values = [], [], [], [], [], [], []
    for index in range(first, first + count):
        start = len(rows)
        packs = lambda k, index=index: hooks.pack(seed, index, k)  # noqa: E731
        done = play(definition.engine(rules, hooks.dealer(index, n)), recorders, packs,
                    seeds=[derive_seed(seed, index, s) for s in range(n)])
        for o, m, a, s, v in rows[start:]:
            obs.append(o), masks.append(m), moves.append(a), seats.append(s)
            deals.append(index), payoffs.append(done.outcome[s])
            values.append(v)
    size = len(definition.observation(definition.engine(rules, 0).view(0))["observation"]) \
        if not obs else len(obs[0])
    # No values where no decision had any (Mediatore's PIMC searches apart from best_move).
    searched = any(np.isfinite(v).any() for v in values)
    _save(path, game, size, obs, masks, moves, seats, deals, payoffs,
          values if searched else None)


def make_advisor(spec: str, known) -> WorldSearch:
    """The agent of ``spec`` (of the game's ``known`` agents), which must search worlds."""
    agent = make_agent(spec, known)
    if not isinstance(agent, WorldSearch):
        raise ValueError(f"advisor {spec!r} does not search worlds, so it has no move values "
                         "(give a search agent, such as pimc)")
    return agent


def _save(path, game, size, obs, masks, moves, seats, deals, payoffs, values=None) -> None:
    """Write one demonstrations file, whole or not at all (``values``: the searches' move
    values of each decision, or None when none has any)."""
    path = Path(path)
    tmp = path.with_suffix(".tmp.npz")
    extra = {} if values is None else {
        "values": np.array(values, np.float32).reshape(len(masks), -1)}
    np.savez_compressed(tmp, obs=np.array(obs, np.float16).reshape(-1, size),
             mask=np.array(masks, np.uint8).reshape(len(masks), -1),
             move=np.array(moves, np.int16), seat=np.array(seats, np.int8),
             deal=np.array(deals, np.int32), payoff=np.array(payoffs, np.float32),
             game=np.array(game), **extra)
    tmp.rename(path)


def load_demos(folder) -> dict[str, np.ndarray]:
    """The demonstrations of a folder written by :func:`record_deals`, every shard concatenated:
    ``obs`` float16 ``[n, observation size]``, ``mask`` bool ``[n, moves]``, ``move``,
    ``seat``, ``deal``, ``payoff``, ``game`` (its name, a 0-d str array), and where every
    shard has them ``values`` float32 ``[n, moves]`` (a search's mean value of each move, NaN
    where it gave none). Raises
    ``ValueError`` when the folder holds none, or shards of different games."""
    paths = sorted(Path(folder).glob("demos-*[0-9].npz"))
    if not paths:
        raise ValueError(f"no demonstrations in {str(folder)!r} (.npz files written by "
                         "examples/record_demos.py)")
    parts: dict[str, list] = {}
    games = {}
    for p in paths:
        with np.load(p) as f:
            games.setdefault(str(f["game"]) if "game" in f.files else LEGACY_GAME, p.name)
            for k in f.files:
                if k != "game":
                    parts.setdefault(k, []).append(f[k])
    if len(games) > 1:
        raise ValueError(f"demonstrations of several games in {str(folder)!r}: "
                         + ", ".join(f"{g} ({name}...)" for g, name in games.items()))
    (game,) = games
    if len(parts.get("values", paths)) < len(paths):
        del parts["values"]  # values are for a folder whose every shard has them
    demos = {k: np.concatenate(v) for k, v in parts.items()}
    demos["mask"] = np.unpackbits(demos["mask"], axis=1, count=get(game).moves.count
                                  ).astype(bool)
    demos["game"] = np.array(game)
    return demos


def demos_of_records(records, path) -> int:
    """The decisions of the persons in Mediatore ``records`` (as ``mediatore-web --export``
    writes them: ``meta.persons`` names the persons' seats, ``meta.stood_in`` the moves an
    agent made for an away person; a record without ``meta.persons`` gives every seat's), as
    the demonstrations :func:`record_deals` writes (an .npz at ``path``, written whole or not
    at all): games played by people become training data. Other games' records are passed
    over. The number of decisions written."""
    from mediatore_env.mediatore.game import Deal
    from mediatore_env.mediatore.layout import OBSERVATION_SIZE
    from mediatore_env.mediatore.moves import NUM_MOVES
    from mediatore_env.mediatore.observation import Encoder
    from mediatore_env.registry import replay
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
    _save(path, "mediatore", OBSERVATION_SIZE, obs, masks, moves, seats, deals, payoffs)
    return len(moves)
