"""The JAX engine (mediatore_env.jaxgame) against the Python engine, side by side.

Random deals (random packs and dealers, random legal moves) are played in both engines at
once: the JAX deals as one batch, stepped by one ``jit(vmap(step))``, the Python deals one by
one. After every move, for every deal: the same seat to move (-1 at the end), the same legal
mask over the 486 move ids, the same ``terminated``, the rewards zero but on the move that
ends the deal and then the Python engine's payments, and the same observation for every seat,
bit for bit (the Python engine's :class:`~mediatore_env.codec.observation.Encoder`, itself held
equal to the plain writer ``codec.reference.write_observation`` by tests/test_encoding.py).

Rules: a few tables that between them hold every value of every switch of
``rules.SWITCHES`` (combined at random) by default; every preset and more random combinations
in the slow run (``pytest -m slow``). The recorded deals of tests/data/records_0_1.json are
replayed through the JAX engine, and a batch of deals in mixed phases (auction, call,
exchange, play, finished) is stepped by ``jit(vmap(step))`` and compared with stepping each
deal alone.

Each rules table costs one compilation, so the default run keeps to few tables and many deals.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
jaxgame = pytest.importorskip("mediatore_env.jaxgame")

from mediatore_env.codec.layout import LAYOUT, OBSERVATION_SIZE, OFFSETS  # noqa: E402
from mediatore_env.codec.observation import Encoder, Table  # noqa: E402
from mediatore_env.core.cards import CARD_NAMES, NUM_CARDS, parse_card  # noqa: E402
from mediatore_env.mediatore.game import Deal  # noqa: E402
from mediatore_env.mediatore.moves import AUCTION, NUM_MOVES, PASS, move_text, parse_move  # noqa: E402
from mediatore_env.mediatore.rules import PRESETS, SWITCHES, Rules  # noqa: E402

MediatoreJax = jaxgame.MediatoreJax
RECORDS = Path(__file__).parent / "data" / "records_0_1.json"


# -- rules tables --------------------------------------------------------------------------------

def valid(switches: dict) -> bool:
    try:
        Rules(**switches)
    except ValueError:
        return False
    return True


def covering_rules(seed: int) -> list[Rules]:
    """As many tables as the switch with the most values has values (4), that between them
    hold every value of every switch, combined at random (``seed``)."""
    width = max(len(values) for values in SWITCHES.values())
    rng = random.Random(seed)
    while True:
        orders = {name: rng.sample(values, len(values)) for name, values in SWITCHES.items()}
        tables = [{name: order[k % len(order)] for name, order in orders.items()}
                  for k in range(width)]
        if all(map(valid, tables)):
            return [Rules(**t) for t in tables]


def random_rules(n: int, seed: int) -> list[Rules]:
    """``n`` tables with each switch drawn at random (invalid combinations drawn again)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        switches = {name: rng.choice(values) for name, values in SWITCHES.items()}
        if valid(switches):
            out.append(Rules(**switches))
    return out


DEFAULT_RULES = covering_rules(seed=16)
SLOW_RULES = list(PRESETS.values()) + random_rules(8, seed=1616)


def test_default_tables_hold_every_value_of_every_switch():
    for name, values in SWITCHES.items():
        assert {getattr(r, name) for r in DEFAULT_RULES} == set(values), name


# -- the JAX side: one compiled batch step per rules table ---------------------------------------

def observe_available(env) -> bool:
    """Whether ``env.observe`` is written yet (tracing it raises nothing)."""
    try:
        state = env.init_from_pack(jnp.arange(NUM_CARDS, dtype=jnp.int32), jnp.int32(0))
        jax.eval_shape(env.observe, state, jnp.int32(0))
    except (AttributeError, ImportError, NotImplementedError):
        return False
    return True


class Batched:
    """The JAX engine for one rules table, compiled for batches: ``start(packs, dealers)`` and
    ``advance(states, actions)``, each returning the states and what the test compares: the
    current player, the legal mask, the rewards, terminated, and (when ``observe`` is written)
    the observations of the four seats, ``[batch, 4, 2132]``."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.env = env = MediatoreJax(rules=rules)
        self.observes = observe_available(env)
        seats = jnp.arange(4, dtype=jnp.int32)

        def look(state):
            obs = (jax.vmap(env.observe, in_axes=(None, 0))(state, seats) if self.observes
                   else jnp.zeros((4, 0), jnp.float32))
            return (state.current_player, state.legal_action_mask, state.rewards,
                    state.terminated, obs)

        def start(pack, dealer):
            state = env.init_from_pack(pack, dealer)
            return state, look(state)

        def advance(state, action):
            state = env.step(state, action)
            return state, look(state)

        self.start = jax.jit(jax.vmap(start))
        self.advance = jax.jit(jax.vmap(advance))
        self.step = jax.jit(jax.vmap(env.step))

    def fetch(self, looked):
        return [np.asarray(x) for x in looked]


@lru_cache(maxsize=None)
def batched(rules: Rules) -> Batched:
    return Batched(rules)


# -- the Python side ------------------------------------------------------------------------------

def random_move(deal: Deal, rng: random.Random, bid_rate: float) -> int:
    """A random legal move. In the auction: pass with probability ``1 - bid_rate``, else the
    lowest bid, sometimes one higher, now and then the highest (so every contract and phase
    comes up, throw-ins too)."""
    moves = deal.legal_moves()
    if deal.phase == AUCTION and len(moves) > 1:
        if rng.random() >= bid_rate:
            return PASS
        r = rng.random()
        if r < 0.08:
            return moves[-1]
        return moves[1] if len(moves) == 2 or r < 0.7 else moves[2]
    return rng.choice(moves)


class PyDeal:
    """One Python deal with the observations of its four seats (incremental Encoders)."""

    def __init__(self, rules: Rules, dealer: int, pack: list[int]):
        self.deal = Deal(rules, dealer, pack)
        table = Table()
        self.encoders = [Encoder(table) for _ in range(4)]
        self.views = [self.deal.view(seat) for seat in range(4)]

    def mask(self) -> np.ndarray:
        mask = np.zeros(NUM_MOVES, bool)
        mask[self.deal.legal_moves()] = True
        return mask

    def observations(self, out: np.ndarray) -> None:
        for seat in range(4):
            out[seat] = self.encoders[seat].encode(self.views[seat])


def describe(deal: Deal) -> str:
    """Everything needed to replay a deal by hand: rules, dealer, pack, moves."""
    changed = {k: v for k, v in deal.rules.to_dict().items() if v != SWITCHES[k][0]}
    return (f"rules {changed or 'standard'}, dealer {deal.dealer}, "
            f"pack {[CARD_NAMES[c] for c in deal.pack]}, "
            f"moves {[move_text(m) for _, m in deal.history]}")


def blocks_differing(ours: np.ndarray, theirs: np.ndarray) -> list[str]:
    """The layout blocks where two observation vectors differ, with the offsets inside them."""
    out = []
    for name, length, _ in LAYOUT:
        lo = OFFSETS[name]
        where = np.flatnonzero(ours[lo:lo + length].view(np.uint32)
                               != theirs[lo:lo + length].view(np.uint32))
        if where.size:
            out.append(f"{name}[{', '.join(map(str, where[:8]))}]: python "
                       f"{ours[lo + where[:8]].tolist()} jax {theirs[lo + where[:8]].tolist()}")
    return out


def compare(step: int, deals: list[PyDeal], looked, ended_now: np.ndarray,
            py_obs: np.ndarray | None) -> None:
    """Assert the JAX batch's ``looked`` values equal the Python deals' after ``step`` moves;
    ``ended_now[i]``: deal ``i`` ended on this very move (its rewards are its payments)."""
    player, mask, rewards, terminated, obs = looked
    for i, d in enumerate(deals):
        deal = d.deal
        over = deal.is_over()
        where = f"deal {i} after {step} moves ({describe(deal)})"
        expected_player = -1 if over else deal.to_move
        assert player[i] == expected_player, f"current_player {player[i]} != {expected_player}: {where}"
        assert bool(terminated[i]) == over, f"terminated {terminated[i]} != {over}: {where}"
        if not over:
            legal = d.mask()
            if not np.array_equal(mask[i], legal):
                extra = [move_text(int(m)) for m in np.flatnonzero(mask[i] & ~legal)]
                missing = [move_text(int(m)) for m in np.flatnonzero(legal & ~mask[i])]
                raise AssertionError(f"legal mask: JAX also allows {extra}, lacks {missing}: {where}")
        expected = np.asarray(deal.payoffs if ended_now[i] else (0, 0, 0, 0), np.float32)
        assert np.array_equal(rewards[i], expected), f"rewards {rewards[i]} != {expected}: {where}"
    if py_obs is not None:
        same = (obs.view(np.uint32) == py_obs.view(np.uint32)).all(axis=2)
        if not same.all():
            i, seat = map(int, np.argwhere(~same)[0])
            raise AssertionError(
                f"observation of seat {seat} differs in {blocks_differing(py_obs[i, seat], obs[i, seat])}: "
                f"deal {i} after {step} moves ({describe(deals[i].deal)})")


def play_side_by_side(rules: Rules, n: int, seed: int) -> dict:
    """Play ``n`` random deals under ``rules`` in both engines, comparing after every move.
    Returns counts of what was played (contracts, throw-ins, decisions), for the caller to
    check that the deals covered the phases."""
    jx = batched(rules)
    rng = random.Random(seed)
    packs, dealers, rates = [], [], []
    for _ in range(n):
        pack = list(range(NUM_CARDS))
        rng.shuffle(pack)
        packs.append(pack)
        dealers.append(rng.randrange(4))
        rates.append(rng.choice((0.2, 0.35, 0.6)))
    deals = [PyDeal(rules, dealer, pack) for dealer, pack in zip(dealers, packs)]
    py_obs = np.zeros((n, 4, OBSERVATION_SIZE), np.float32) if jx.observes else None

    def python_observations():
        if py_obs is not None:
            for i, d in enumerate(deals):
                d.observations(py_obs[i])

    state, looked = jx.start(jnp.asarray(packs, jnp.int32), jnp.asarray(dealers, jnp.int32))
    python_observations()
    compare(0, deals, jx.fetch(looked), np.zeros(n, bool), py_obs)
    step = decisions = 0
    while not all(d.deal.is_over() for d in deals):
        actions = np.zeros(n, np.int32)  # a finished deal gets move 0: it must stay as it is
        ended_now = np.zeros(n, bool)
        for i, d in enumerate(deals):
            if not d.deal.is_over():
                actions[i] = move = random_move(d.deal, rng, rates[i])
                d.deal.apply(move)
                ended_now[i] = d.deal.is_over()
                decisions += 1
        state, looked = jx.advance(state, jnp.asarray(actions))
        step += 1
        python_observations()
        compare(step, deals, jx.fetch(looked), ended_now, py_obs)
    contracts = [d.deal.contract for d in deals]
    return {"decisions": decisions, "thrown_in": contracts.count(None),
            "contracts": {c for c in contracts if c is not None}}


# -- the tests ------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", DEFAULT_RULES, ids=lambda r: f"table{DEFAULT_RULES.index(r)}")
def test_random_deals_match_the_python_engine(rules):
    seen = play_side_by_side(rules, n=400, seed=DEFAULT_RULES.index(rules))
    # The random bidding reaches every contract and throw-ins, so every phase was compared.
    assert seen["thrown_in"] > 0
    assert seen["contracts"] == set(range(1, rules.top_contract + 1))


def test_observations_are_written():
    """The checks above compare observations only once ``observe`` exists; this one says
    whether it does."""
    if not batched(DEFAULT_RULES[0]).observes:
        pytest.xfail("MediatoreJax.observe is not written yet: observations not compared")


@pytest.mark.slow
@pytest.mark.parametrize("rules", SLOW_RULES, ids=lambda r: f"rules{SLOW_RULES.index(r)}")
def test_many_random_deals_match_the_python_engine(rules):
    seen = play_side_by_side(rules, n=2000, seed=100 + SLOW_RULES.index(rules))
    assert seen["thrown_in"] > 0
    assert seen["contracts"] == set(range(1, rules.top_contract + 1))


def test_init_from_a_key_deals_a_valid_pack():
    """``init(key)``: a dealer and a shuffled pack from the key (the same key, the same deal);
    the four hands, read from the observations, are nine cards each, disjoint, and the deal
    then plays exactly as the Python engine's deal of those hands."""
    rules = DEFAULT_RULES[0]
    jx = batched(rules)
    if not jx.observes:
        pytest.xfail("MediatoreJax.observe is not written yet: the hands cannot be read")
    keys = jax.random.split(jax.random.PRNGKey(7), 64)
    init = jax.jit(jax.vmap(jx.env.init))
    states = init(keys)
    again = init(keys)
    for a, b in zip(jax.tree_util.tree_leaves(states), jax.tree_util.tree_leaves(again)):
        assert np.array_equal(np.asarray(a), np.asarray(b))
    obs = np.asarray(jax.jit(jax.vmap(jax.vmap(jx.env.observe, in_axes=(None, 0)),
                                      in_axes=(0, None)))(states, jnp.arange(4)))
    hand, dealer_block = OFFSETS["hand"], OFFSETS["dealer"]
    dealers, monte_sets = [], set()
    for i in range(len(keys)):
        hands = [obs[i, seat, hand:hand + NUM_CARDS] for seat in range(4)]
        assert all(h.sum() == 9 for h in hands)
        assert np.sum(hands, axis=0).max() == 1  # disjoint
        relative = int(np.argmax(obs[i, 0, dealer_block:dealer_block + 4]))
        dealers.append(relative)  # seat 0's relative seat of the dealer is the dealer
        assert np.asarray(states.current_player)[i] == (relative + 1) % 4
        monte_sets.add(tuple(np.flatnonzero(np.sum(hands, axis=0) == 0)))
    assert set(dealers) == {0, 1, 2, 3}
    assert len(monte_sets) == len(keys)  # 64 different packs


def test_recorded_deals_replay_to_the_same_results():
    """The 50 recorded deals (tests/data/records_0_1.json, every preset) replayed through the
    JAX engine, all of a table's records in one batch: every recorded move is legal in the
    JAX mask for the recorded seat, and the deal ends on its last move with the record's
    payments. Tables not compiled by the other tests are stepped without jit (vmap alone)."""
    records = json.loads(RECORDS.read_text())["records"]
    by_rules: dict[Rules, list[dict]] = {}
    for record in records:
        by_rules.setdefault(Rules.from_dict(record["rules"]), []).append(record)
    assert len(by_rules) == len(PRESETS)
    for rules, group in by_rules.items():
        env = MediatoreJax(rules=rules)
        init = jax.vmap(env.init_from_pack)
        step = jax.vmap(env.step)
        if rules in DEFAULT_RULES:
            init, step = jax.jit(init), jax.jit(step)
        packs = jnp.asarray([[parse_card(c) for c in r["pack"]] for r in group], jnp.int32)
        state = init(packs, jnp.asarray([r["dealer"] for r in group], jnp.int32))
        moves = [[(m["seat"], parse_move(m["move"])) for m in r["moves"]] for r in group]
        total = np.zeros((len(group), 4), np.float32)
        for t in range(max(map(len, moves))):
            player = np.asarray(state.current_player)
            mask = np.asarray(state.legal_action_mask)
            actions = np.zeros(len(group), np.int32)
            for i, deal_moves in enumerate(moves):
                if t < len(deal_moves):
                    seat, move = deal_moves[t]
                    where = f"record {group[i]['meta']}, move {t} {move_text(move)!r}"
                    assert player[i] == seat, f"current_player {player[i]} != {seat}: {where}"
                    assert mask[i, move], f"JAX mask refuses it: {where}"
                    actions[i] = move
            state = step(state, jnp.asarray(actions))
            rewards = np.asarray(state.rewards)
            for i, deal_moves in enumerate(moves):
                done = bool(np.asarray(state.terminated)[i])
                assert done == (t + 1 >= len(deal_moves)), f"terminated {done} at move {t}: record {group[i]['meta']}"
            total += rewards
        for i, record in enumerate(group):
            assert total[i].tolist() == record["result"]["payoffs"], record["meta"]
            assert np.asarray(state.current_player)[i] == -1


def test_a_batch_in_mixed_phases_steps_as_each_deal_alone():
    """``jit(vmap(step))`` on a batch of deals in every phase (the auction, the call, the
    discards, the give, the play, finished) gives, deal by deal, the state ``jit(step)`` gives
    that deal alone, and the Python engine's next seat and mask; a finished deal stays exactly
    as it was, with zero rewards."""
    rules = DEFAULT_RULES[0]
    jx = batched(rules)
    rng = random.Random(5)
    n = 60
    deals, stops = [], []
    for i in range(n):
        # Deal i is stopped in phase i % 6 (auction, call, discard, give, play, end): random
        # deals are played until one goes through that phase.
        wanted = []
        while not wanted:
            pack = list(range(NUM_CARDS))
            rng.shuffle(pack)
            deal = Deal(rules, i % 4, pack)
            phases = [deal.phase]  # phases[t]: the phase after t moves
            while not deal.is_over():
                deal.apply(random_move(deal, rng, 0.6))
                phases.append(deal.phase)
            wanted = [t for t, phase in enumerate(phases) if phase == i % 6]
        stops.append(rng.choice(wanted))
        deals.append((deal, [m for _, m in deal.history]))
    packs = jnp.asarray([d.pack for d, _ in deals], jnp.int32)
    dealers = jnp.asarray([d.dealer for d, _ in deals], jnp.int32)
    state, _ = jx.start(packs, dealers)
    for t in range(max(stops)):
        actions = jnp.asarray([moves[t] if t < stop else 0
                               for (_, moves), stop in zip(deals, stops)], jnp.int32)
        stepped = jx.step(state, actions)
        active = jnp.asarray([t < stop for stop in stops])
        state = jax.tree_util.tree_map(
            lambda new, old: jnp.where(active.reshape((-1,) + (1,) * (new.ndim - 1)), new, old),
            stepped, state)
    replayed = []
    for (deal, moves), stop in zip(deals, stops):
        d = Deal(rules, deal.dealer, deal.pack)
        for m in moves[:stop]:
            d.apply(m)
        replayed.append(d)
    assert {d.phase for d in replayed} == set(range(6))  # every phase is in the batch
    # The next move of each deal (0 for a finished one).
    actions = jnp.asarray([moves[stop] if stop < len(moves) else 0
                           for (_, moves), stop in zip(deals, stops)], jnp.int32)
    together = jx.step(state, actions)
    alone_step = jax.jit(jx.env.step)
    leaves = jax.tree_util.tree_leaves_with_path
    for i in range(n):
        before = jax.tree_util.tree_map(lambda x: x[i], state)
        batched_next = jax.tree_util.tree_map(lambda x: x[i], together)
        alone = alone_step(before, actions[i])
        for (path, a), (_, b) in zip(leaves(alone), leaves(batched_next)):
            assert np.array_equal(np.asarray(a), np.asarray(b)), \
                f"deal {i}: {jax.tree_util.keystr(path)} differs batched and alone"
        d = replayed[i]
        if d.is_over():
            for (path, a), (_, b) in zip(leaves(before), leaves(batched_next)):
                name = jax.tree_util.keystr(path)
                if "rewards" in name:
                    assert not np.asarray(b).any(), f"deal {i}: stepping a finished deal pays"
                else:
                    assert np.array_equal(np.asarray(a), np.asarray(b)), \
                        f"deal {i}: stepping a finished deal changed {name}"
        else:
            d.apply(int(actions[i]))
            assert int(batched_next.current_player) == (-1 if d.is_over() else d.to_move)
            if not d.is_over():
                legal = np.zeros(NUM_MOVES, bool)
                legal[d.legal_moves()] = True
                assert np.array_equal(np.asarray(batched_next.legal_action_mask), legal)
