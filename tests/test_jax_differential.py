"""The JAX engine (mediatore_env.jaxgame) against the Python engine, side by side.

Random deals (random packs and dealers, random legal moves) are played in both engines at
once: the JAX deals as one batch, stepped by one ``jit(vmap(step))``, the Python deals one by
one. After every move, for every deal: the same seat to move (-1 at the end), the same legal
mask over the 486 move ids (all True once the deal is over: pgx's convention, kept by
``jaxgame.core``), the same ``terminated``, the rewards zero but on the move that ends the deal
and then the Python engine's payments, and the same observation for every seat,
bit for bit (the Python engine's :class:`~mediatore_env.mediatore.observation.Encoder`, itself
held equal to the plain writer ``mediatore.reference.write_observation`` by
tests/test_encoding.py).

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

from mediatore_env.mediatore.layout import LAYOUT, OBSERVATION_SIZE, OFFSETS  # noqa: E402
from mediatore_env.mediatore.observation import Encoder, Table  # noqa: E402
from mediatore_env.core.cards import CARD_NAMES, NUM_CARDS, card_names, parse_card  # noqa: E402
from mediatore_env.mediatore.game import Deal  # noqa: E402
from mediatore_env.mediatore.moves import (AUCTION, END, NUM_MOVES, PASS, move_text,  # noqa: E402
                                           parse_move)
from mediatore_env.mediatore.rules import PRESETS, SWITCHES, Rules, max_payment  # noqa: E402
from mediatore_env.registry import replay  # noqa: E402
from mediatore_env.jaxgame.records import records  # noqa: E402
from jax_states import fields  # noqa: E402

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
    hold every value of every switch: the standard table, then the other values combined at
    random (``seed``)."""
    width = max(len(values) for values in SWITCHES.values())
    rng = random.Random(seed)
    while True:
        orders = {name: [values[0], *rng.sample(values[1:], len(values) - 1)]
                  for name, values in SWITCHES.items()}
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

# Compiling is most of this test's time: the default run compiles with XLA's cheap settings
# (about a third of the time; each step then runs slower, which a test does not mind), the slow
# run with the defaults the engine is used with.
CHEAP_COMPILE = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}
BATCH = 500  # every batch is padded to this size, so each table compiles once


class Batched:
    """The JAX engine for one rules table, compiled once, for batches of ``BATCH`` deals (fewer
    are padded with copies of the first). :meth:`start` deals packs, :meth:`advance` steps;
    both return the states and what the test compares: the current player, the legal mask,
    the rewards, terminated and the observations of the four seats, ``[n, 4, 2132]``. One
    compiled function does both, so the observation is compiled once per table."""

    def __init__(self, rules: Rules, cheap: bool = True):
        self.rules = rules
        self.env = env = MediatoreJax(rules=rules)
        seats = jnp.arange(4, dtype=jnp.int32)

        def run(state, action, pack, dealer, first, active):
            fresh = env.init_from_pack(pack, dealer)
            stepped = env.step(state, action)
            state = jax.tree_util.tree_map(
                lambda new, stepped, old: jnp.where(first, new, jnp.where(active, stepped, old)),
                fresh, stepped, state)
            obs = jax.vmap(env.observe, in_axes=(None, 0))(state, seats)
            return state, (state.current_player, state.legal_action_mask, state.rewards,
                           state.terminated, obs)

        self._run = jax.jit(jax.vmap(run), compiler_options=CHEAP_COMPILE if cheap else None)
        self._shape = jax.eval_shape(env.init_from_pack, jnp.zeros(NUM_CARDS, jnp.int32),
                                     jnp.int32(0))

    @staticmethod
    def pad(values, dtype) -> jax.Array:
        values = np.asarray(values, dtype)
        return jnp.asarray(np.concatenate([values, np.repeat(values[:1], BATCH - len(values), 0)]))

    def start(self, packs, dealers):
        """The deals of ``packs`` (int[n, 40]) by ``dealers`` (int[n]), and their looks."""
        blank = jax.tree_util.tree_map(lambda x: jnp.zeros((BATCH, *x.shape), x.dtype), self._shape)
        self.n = len(dealers)
        return self._run(blank, jnp.zeros(BATCH, jnp.int32), self.pad(packs, np.int32),
                         self.pad(dealers, np.int32), jnp.ones(BATCH, bool), jnp.ones(BATCH, bool))

    def advance(self, states, actions, active=None):
        """``states`` stepped by ``actions`` (those where ``active`` is set, when given), and
        their looks."""
        active = np.ones(len(actions), bool) if active is None else active
        return self._run(states, self.pad(actions, np.int32),
                         jnp.zeros((BATCH, NUM_CARDS), jnp.int32), jnp.zeros(BATCH, jnp.int32),
                         jnp.zeros(BATCH, bool), self.pad(active, bool))

    def fetch(self, looked) -> list[np.ndarray]:
        """The looks as numpy arrays, without the padding."""
        return [np.asarray(x)[:self.n] for x in looked]


@lru_cache(maxsize=None)
def batched(rules: Rules, cheap: bool = True) -> Batched:
    return Batched(rules, cheap)


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
            py_obs: np.ndarray) -> None:
    """Assert the JAX batch's ``looked`` values equal the Python deals' after ``step`` moves;
    ``ended_now[i]``: deal ``i`` ended on this very move (its rewards are its payments)."""
    player, mask, rewards, terminated, obs = looked
    over = np.array([d.deal.is_over for d in deals])
    expected_player = np.array([-1 if d.deal.is_over else d.deal.to_move for d in deals])
    paid = np.zeros((len(deals), 4), np.float32)
    legal = np.zeros((len(deals), NUM_MOVES), bool)
    for i, d in enumerate(deals):
        if ended_now[i]:
            paid[i] = d.deal.outcome
        legal[i, d.deal.legal_moves()] = True
    legal[over] = True  # a finished deal's mask: all True (the Python engine has no move)
    checks = (("current_player", player == expected_player),
              ("terminated", terminated == over),
              ("legal_action_mask", (mask == legal).all(axis=1)),
              ("rewards", (rewards == paid).all(axis=1)))
    for name, ok in checks:
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            def texts(moves):
                return [move_text(int(m)) for m in np.flatnonzero(moves)]
            what = {"current_player": (player[i], expected_player[i]),
                    "terminated": (terminated[i], over[i]), "rewards": (rewards[i], paid[i]),
                    "legal_action_mask": (f"also allows {texts(mask[i] & ~legal[i])}",
                                          f"lacks {texts(legal[i] & ~mask[i])}")}[name]
            raise AssertionError(f"{name}: JAX {what[0]}, Python {what[1]}: deal {i} after "
                                 f"{step} moves ({describe(deals[i].deal)})")
    same = (obs.view(np.uint32) == py_obs.view(np.uint32)).all(axis=2)
    if not same.all():
        i, seat = map(int, np.argwhere(~same)[0])
        raise AssertionError(
            f"observation of seat {seat} differs in "
            f"{blocks_differing(py_obs[i, seat], obs[i, seat])}: "
            f"deal {i} after {step} moves ({describe(deals[i].deal)})")


def play_side_by_side(rules: Rules, n: int, seed: int, cheap: bool = True) -> dict:
    """Play ``n`` random deals under ``rules`` in both engines, comparing after every move, in
    batches of ``BATCH``. Returns counts of what was played (contracts, throw-ins, decisions),
    for the caller to check that the deals covered the phases."""
    rng = random.Random(seed)
    seen = {"decisions": 0, "thrown_in": 0, "contracts": set()}
    for start in range(0, n, BATCH):
        played = play_batch(batched(rules, cheap), min(BATCH, n - start), rng)
        seen["decisions"] += played["decisions"]
        seen["thrown_in"] += played["thrown_in"]
        seen["contracts"] |= played["contracts"]
    return seen


def play_batch(jx: Batched, n: int, rng: random.Random) -> dict:
    """Play ``n`` random deals side by side in ``jx``'s table (see play_side_by_side)."""
    rules = jx.rules
    packs, dealers, rates = [], [], []
    for _ in range(n):
        pack = list(range(NUM_CARDS))
        rng.shuffle(pack)
        packs.append(pack)
        dealers.append(rng.randrange(4))
        rates.append(rng.choice((0.2, 0.35, 0.6)))
    deals = [PyDeal(rules, dealer, pack) for dealer, pack in zip(dealers, packs)]
    py_obs = np.zeros((n, 4, OBSERVATION_SIZE), np.float32)

    def python_observations():
        for i, d in enumerate(deals):
            d.observations(py_obs[i])

    state, looked = jx.start(packs, dealers)
    python_observations()
    compare(0, deals, jx.fetch(looked), np.zeros(n, bool), py_obs)
    step = decisions = 0
    while not all(d.deal.is_over for d in deals):
        actions = np.zeros(n, np.int32)  # a finished deal gets move 0: it must stay as it is
        ended_now = np.zeros(n, bool)
        for i, d in enumerate(deals):
            if not d.deal.is_over:
                actions[i] = move = random_move(d.deal, rng, rates[i])
                d.deal.apply(move)
                ended_now[i] = d.deal.is_over
                decisions += 1
        state, looked = jx.advance(state, actions)
        step += 1
        python_observations()
        compare(step, deals, jx.fetch(looked), ended_now, py_obs)
    contracts = [d.deal.contract for d in deals]
    return {"decisions": decisions, "thrown_in": contracts.count(None),
            "contracts": {c for c in contracts if c is not None}}


# -- the tests ------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", DEFAULT_RULES, ids=lambda r: f"table{DEFAULT_RULES.index(r)}")
def test_random_deals_match_the_python_engine(rules):
    seen = play_side_by_side(rules, n=BATCH, seed=DEFAULT_RULES.index(rules))
    # The random bidding reaches every contract and throw-ins, so every phase was compared.
    assert seen["thrown_in"] > 0
    assert seen["contracts"] == set(range(1, rules.top_contract + 1))


@pytest.mark.slow
@pytest.mark.parametrize("rules", SLOW_RULES, ids=lambda r: f"rules{SLOW_RULES.index(r)}")
def test_many_random_deals_match_the_python_engine(rules):
    seen = play_side_by_side(rules, n=2000, seed=100 + SLOW_RULES.index(rules), cheap=False)
    assert seen["thrown_in"] > 0
    assert seen["contracts"] == set(range(1, rules.top_contract + 1))


def test_init_from_a_key_deals_a_valid_pack():
    """``init(key)``: a dealer and a shuffled pack from the key (the same key, the same deal);
    the four hands, read from the observations, are nine cards each, disjoint, and il mano
    (the seat after the dealer) is to bid."""
    jx = batched(DEFAULT_RULES[0])
    env, seats = jx.env, jnp.arange(4)

    def deal(key):
        state = env.init(key)
        return state, jax.vmap(env.observe, in_axes=(None, 0))(state, seats)

    deal = jax.jit(jax.vmap(deal), compiler_options=CHEAP_COMPILE)
    keys = jax.random.split(jax.random.PRNGKey(7), 64)
    states, obs = deal(keys)
    again, _ = deal(keys)
    for a, b in zip(jax.tree_util.tree_leaves(states), jax.tree_util.tree_leaves(again)):
        assert np.array_equal(np.asarray(a), np.asarray(b))
    obs, player = np.asarray(obs), np.asarray(states.current_player)
    hand, dealer_block = OFFSETS["hand"], OFFSETS["dealer"]
    dealers, montes = [], set()
    for i in range(len(keys)):
        hands = obs[i, :, hand:hand + NUM_CARDS]
        assert (hands.sum(axis=1) == 9).all() and hands.sum(axis=0).max() == 1
        dealer = int(np.argmax(obs[i, 0, dealer_block:dealer_block + 4]))  # relative to seat 0
        assert player[i] == (dealer + 1) % 4
        dealers.append(dealer)
        montes.add(tuple(np.flatnonzero(hands.sum(axis=0) == 0)))
    assert set(dealers) == {0, 1, 2, 3}
    assert len(montes) == len(keys)  # 64 different packs


def replay_records(rules: Rules, records: list[dict], cheap: bool = True) -> None:
    """Replay ``records`` (all under ``rules``) through the JAX engine in one batch: every
    recorded move is made by the JAX engine's seat to move and legal in its mask, and the deal
    ends on its last move with the record's payments."""
    jx = batched(rules, cheap)
    packs = [[parse_card(c) for c in r["pack"]] for r in records]
    state, looked = jx.start(packs, [r["dealer"] for r in records])
    moves = [[(m["seat"], parse_move(m["move"])) for m in r["moves"]] for r in records]
    paid = np.zeros((len(records), 4), np.float32)
    for t in range(max(map(len, moves))):
        player, mask, _, _, _ = jx.fetch(looked)
        actions = np.zeros(len(records), np.int32)
        for i, deal_moves in enumerate(moves):
            if t < len(deal_moves):
                seat, move = deal_moves[t]
                where = f"record {records[i]['meta']}, move {t} {move_text(move)!r}"
                assert player[i] == seat, f"current_player {player[i]} != {seat}: {where}"
                assert mask[i, move], f"the JAX mask refuses it: {where}"
                actions[i] = move
        state, looked = jx.advance(state, actions)
        player, _, rewards, terminated, _ = jx.fetch(looked)
        for i, deal_moves in enumerate(moves):
            assert terminated[i] == (t + 1 >= len(deal_moves)), \
                f"terminated {terminated[i]} after move {t}: record {records[i]['meta']}"
        paid += rewards
    for i, record in enumerate(records):
        assert paid[i].tolist() == record["result"]["payoffs"], record["meta"]
        assert player[i] == -1


def records_by_rules() -> dict[Rules, list[dict]]:
    by_rules: dict[Rules, list[dict]] = {}
    for record in json.loads(RECORDS.read_text())["records"]:
        by_rules.setdefault(Rules.from_dict(record["rules"]), []).append(record)
    return by_rules


def test_recorded_deals_replay_to_the_same_results():
    """The recorded deals (tests/data/records_0_1.json) of the tables compiled above; every
    preset's in the slow run."""
    by_rules = records_by_rules()
    assert set(by_rules) == set(PRESETS.values())
    replayed = [rules for rules in by_rules if rules in DEFAULT_RULES]
    assert replayed
    for rules in replayed:
        replay_records(rules, by_rules[rules])


@pytest.mark.slow
def test_every_recorded_deal_replays_to_the_same_result():
    for rules, recorded in records_by_rules().items():
        replay_records(rules, recorded, cheap=False)


def test_a_batch_in_mixed_phases_steps_as_each_deal_alone():
    """``jit(vmap(step))`` on a batch of deals in every phase (the auction, the call, the
    discards, the give, the play, finished) gives, deal by deal, the state ``jit(step)`` gives
    that deal alone, and the Python engine's next seat and mask (all True for a deal it ends);
    a finished deal stays exactly as it was, with zero rewards."""
    rules = DEFAULT_RULES[0]
    jx = batched(rules)
    rng = random.Random(5)
    n = 60
    deals, stops = [], []
    for i in range(n):
        # Deal i is stopped in phase i % 6 (auction, call, discard, give, play, end), early in
        # it: random deals are played until one goes through that phase. Among the finished
        # deals, every other one bids rarely (mostly thrown in), the rest are played out.
        wanted = []
        while not wanted:
            pack = list(range(NUM_CARDS))
            rng.shuffle(pack)
            deal = Deal(rules, i % 4, pack)
            phases = [deal.phase]  # phases[t]: the phase after t moves
            while not deal.is_over:
                deal.apply(random_move(deal, rng, 0.6 if i % 12 != 5 else 0.1))
                phases.append(deal.phase)
            wanted = [t for t, phase in enumerate(phases) if phase == i % 6][:6]
        stops.append(rng.choice(wanted))
        deals.append((deal, [m for _, m in deal.history]))
    state, _ = jx.start([d.pack for d, _ in deals], [d.dealer for d, _ in deals])
    for t in range(max(stops)):
        actions = [moves[t] if t < stop else 0 for (_, moves), stop in zip(deals, stops)]
        state, _ = jx.advance(state, actions, active=[t < stop for stop in stops])
    replayed = []
    for (deal, moves), stop in zip(deals, stops):
        d = Deal(rules, deal.dealer, deal.pack)
        for m in moves[:stop]:
            d.apply(m)
        replayed.append(d)
    assert {d.phase for d in replayed} == set(range(6))  # every phase is in the batch
    # The next move of each deal (0 for a finished one).
    actions = np.asarray([moves[stop] if stop < len(moves) else 0
                          for (_, moves), stop in zip(deals, stops)], np.int32)
    together, _ = jx.advance(state, actions)
    alone_step = jax.jit(jx.env.step, compiler_options=CHEAP_COMPILE)
    # The states as numpy arrays by field, to take deals out of the batch.
    names = [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_leaves_with_path(state)]
    before_all = [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(state)]
    after_all = [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(together)]
    treedef = jax.tree_util.tree_structure(state)
    for i in range(n):
        before = [leaf[i] for leaf in before_all]
        batched_next = [leaf[i] for leaf in after_all]
        alone = jax.tree_util.tree_leaves(
            alone_step(jax.tree_util.tree_unflatten(treedef, before), actions[i]))
        for name, a, b in zip(names, alone, batched_next):
            assert np.array_equal(np.asarray(a), b), f"deal {i}: {name} differs batched and alone"
        field = dict(zip(names, batched_next))
        d = replayed[i]
        if d.is_over:
            for name, a, b in zip(names, before, batched_next):
                if "rewards" in name:
                    assert not b.any(), f"deal {i}: stepping a finished deal pays"
                else:
                    assert np.array_equal(a, b), \
                        f"deal {i}: stepping a finished deal changed {name}"
        else:
            d.apply(int(actions[i]))
            assert field[".current_player"] == (-1 if d.is_over else d.to_move)
            legal = np.full(NUM_MOVES, d.is_over)  # all True once over
            legal[d.legal_moves()] = True
            assert np.array_equal(field[".legal_action_mask"], legal), f"deal {i}"


def test_an_illegal_move_ends_the_deal_and_its_mover_pays():
    """The JAX engine's documented answer to an illegal move (the Python engine raises), from
    jaxgame.core: the deal ends as it stood (in the phase of a deal over), the mover pays the
    rules' largest payment to each other seat, the mask is all True; a number that is no move
    id at all is illegal too. Stepping the ended deal again pays nothing and changes nothing."""
    rules = DEFAULT_RULES[0]
    jx = batched(rules)
    rng = random.Random(9)
    deals, illegal = [], []
    for i in range(40):
        pack = list(range(NUM_CARDS))
        rng.shuffle(pack)
        deal = Deal(rules, i % 4, pack)
        for _ in range(rng.randrange(30)):  # somewhere in the deal, not finished
            if deal.is_over:
                break
            move = random_move(deal, rng, 0.6)
            deal.apply(move)
        if deal.is_over:
            continue
        legal = set(deal.legal_moves())
        ids = [-1, NUM_MOVES, 2**31 - 1] if i % 5 == 0 else range(NUM_MOVES)
        illegal.append(rng.choice([m for m in ids if m not in legal]))
        deals.append(deal)
    state, _ = jx.start([d.pack for d in deals], [d.dealer for d in deals])
    for t in range(max(len(d.history) for d in deals)):
        state, _ = jx.advance(state, [d.history[t][1] if t < len(d.history) else 0 for d in deals],
                              active=[t < len(d.history) for d in deals])
    ended, looked = jx.advance(state, illegal)
    player, mask, rewards, terminated, _ = jx.fetch(looked)
    again, _ = jx.advance(ended, illegal)
    penalty = max_payment(rules)
    before, after, after_again = (fields(s, len(deals)) for s in (state, ended, again))
    changed = {".rewards", ".terminated", ".current_player", ".legal_action_mask",
               "._step_count", ".phase"}
    for i, deal in enumerate(deals):
        move = move_text(illegal[i]) if 0 <= illegal[i] < NUM_MOVES else str(illegal[i])
        expected = np.full(4, penalty, np.float32)
        expected[deal.to_move] = -3 * penalty
        assert terminated[i] and player[i] == -1 and mask[i].all(), move
        assert np.array_equal(rewards[i], expected), (move, rewards[i])
        assert after["._step_count"][i] == before["._step_count"][i] + 1
        assert after[".phase"][i] == END
        for name in set(before) - changed:
            assert np.array_equal(before[name][i], after[name][i]), (move, name)
        for name in set(before) - {".rewards"}:
            assert np.array_equal(after[name][i], after_again[name][i]), (move, name)
        assert not after_again[".rewards"][i].any()


def test_a_batch_written_as_records_replays_to_its_payments():
    """JAX deals played alone (random legal moves from the JAX mask), written as records by
    jaxgame.records, saved as JSON and replayed by the Python engine (registry.replay):
    the hands dealt and the payments the JAX engine made. (The JAX state keeps the hands, not
    the pack: the record's pack is one that deals them.)"""
    rules = DEFAULT_RULES[0]
    jx = batched(rules)
    rng = np.random.default_rng(3)
    n = 60
    packs = [rng.permutation(NUM_CARDS).tolist() for _ in range(n)]
    dealers = rng.integers(0, 4, n).tolist()
    first, looked = jx.start(packs, dealers)
    state, players, actions, paid = first, [], [], np.zeros((n, 4), np.float32)
    player, mask, _, terminated, _ = jx.fetch(looked)
    while not terminated.all():
        action = np.array([rng.choice(np.flatnonzero(m)) for m in mask], np.int32)
        players.append(player)
        actions.append(action)
        state, looked = jx.advance(state, action)
        player, mask, rewards, terminated, _ = jx.fetch(looked)
        paid += rewards
    books = json.loads(json.dumps(records(jx.env, first, players, actions)))
    for i, record in enumerate(books):
        deal = replay(record)
        assert list(deal.outcome) == paid[i].tolist(), i
        dealt = Deal(rules, dealers[i], packs[i])
        assert record["hands"] == [card_names(h) for h in dealt.hands]
