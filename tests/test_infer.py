"""pimc-infer (agents/mediatore/infer.py): PIMC over worlds weighted by a player model of the
other seats' card play. The worlds still fit the seat's information exactly, the model reads
only what the seat saw, the model's probabilities are those its definition gives by hand, and
the agent plays legally and reproducibly."""

import math
import random
import subprocess
import sys

import numpy as np
import pytest

from agents import InferAgent, make_agent
from agents.base import play
from agents.mediatore.declarer import SimulatedCall, SimulatedExchange
from agents.mediatore.greedy import GreedyAgent
from agents.mediatore import infer
from agents.mediatore.infer import (DEFAULT_MODEL, FEATURE_NAMES, CardPlays, _hand_facts,
                                    _world_facts, examples_of_deal, load_model, play_columns,
                                    play_log_likelihood, side_mask)
from agents.mediatore.pimc import PIMCAgent
from agents.training.infer import fit, load_records, log_likelihood, record
from mediatore_env import Deal, Rules
from mediatore_env.analysis import solver
from mediatore_env.core.cards import POWER_OF, SUIT_OF, parse_card
from mediatore_env.mediatore.moves import PLAY
from mediatore_env.mediatore.observation import observation
from mediatore_env.mediatore.rules import PRESETS
from mediatore_env.mediatore.worlds import WorldSampler

PRESET_NAMES = sorted(PRESETS)
BACKENDS = ["numpy", pytest.param("c", marks=pytest.mark.skipif(
    infer._likelihood is None, reason="C core agents.mediatore._likelihood not built"))]


def fast(**options):
    """The agent as registered, its searches on small node budgets (reproducible)."""
    small = {"candidates": 3, "worlds": 2, "time_limit": None, "max_time": 0.02}
    return InferAgent(**{"worlds": 4, "time_limit": None, "calling": SimulatedCall(**small),
                         "exchange": SimulatedExchange(**small), **options})


def played_deal(n, rules=None, upto=None, agents=None):
    """Deal ``n`` played by greedy agents, stopped after ``upto`` card plays (None: to the end)."""
    rules = Rules() if rules is None else rules
    deal = Deal(rules, n % 4, rng=np.random.default_rng([26, n]))
    agents = agents or [GreedyAgent() for _ in range(4)]
    for a in agents:
        a.reset(n)
    cards = 0
    while not deal.is_over and (upto is None or cards < upto):
        seat = deal.to_move
        cards += deal.phase == PLAY
        deal.apply(agents[seat].act(None, deal.view(seat)))
    return deal


def test_registered_and_options():
    agent = make_agent("pimc-infer:infer=0.7,worlds=8,time_limit=None")
    assert isinstance(agent, InferAgent) and agent.infer == 0.7 and agent.worlds == 8
    # the defaults: the parts measured together (docs/infer.md)
    default = make_agent("pimc-infer")
    assert default.infer == 0.5 and default.pool == 4
    assert isinstance(default.greedy.calling, SimulatedCall)
    assert isinstance(default.greedy.exchange, SimulatedExchange)
    assert not isinstance(make_agent("pimc-infer:exchange=None").greedy.exchange, SimulatedExchange)
    assert agent.weights.shape == (len(FEATURE_NAMES),)
    for bad in (-1, True, "x"):
        with pytest.raises(ValueError, match="infer"):
            InferAgent(infer=bad)
    with pytest.raises(ValueError, match="pool"):
        InferAgent(pool=0)


def test_a_model_file_that_is_not_one_is_one_line(tmp_path):
    (tmp_path / "empty.npz").write_bytes(b"")  # numpy's EOFError before
    np.save(tmp_path / "one.npy", np.zeros(3))  # an array, no archive
    for name in ("empty.npz", "one.npy"):
        with pytest.raises(ValueError, match=r"cannot read the player model .*agents.training.infer"):
            make_agent(f"pimc-infer:model={str(tmp_path / name)!r}")


def test_the_shipped_model_loads_with_numpy_alone():
    """The weights are a small .npz of plain arrays (no pickle), and the agent's module needs
    no training library: neither torch nor jax is imported to play."""
    assert DEFAULT_MODEL.stat().st_size < 100_000
    with np.load(DEFAULT_MODEL, allow_pickle=False) as f:
        assert set(f.files) == {"weights", "names"}
    code = ("import sys; from agents import make_agent; make_agent('pimc-infer'); "
            "print(sorted(m for m in ('torch', 'jax', 'scipy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_model_of_other_features_is_refused(tmp_path):
    path = tmp_path / "old.npz"
    np.savez(path, weights=np.zeros(3), names=np.array(["a", "b", "c"]))
    with pytest.raises(ValueError, match="retrain"):
        load_model(path)
    with pytest.raises(ValueError, match="cannot read the player model"):
        make_agent(f"pimc-infer:model={str(tmp_path / 'missing.npz')!r}")


def test_a_lead_probability_worked_by_hand():
    """Seat 1 leads D3 from D3 D4 (nothing else in hand, nothing played): D3 is a master worth
    1/3 point, of power 9/9, not the lowest of its suit; D4 the lowest, power 0, no points;
    both of a 2-card suit; seat 1 defends (no declarer features). So P(D3) =
    sigmoid(w.lead_points/3 + w.lead_master + w.lead_master_points/3 - w.lead_lowest
    + w.lead_power)."""
    w = load_model()
    i = {name: k for k, name in enumerate(FEATURE_NAMES)}
    d3, d4 = parse_card("D3"), parse_card("D4")
    plays = CardPlays([], (d3,), leader=1)
    hands = [(0, 0, 0, 0)]  # seat 1's hand now: nothing left but what it played (D3) ...
    plays.rows[0][-1] |= 1 << d4  # ... and D4, still in hand in this hypothetical
    got = play_log_likelihood(plays, hands, [0], w)[0]
    x = (w[i["lead_points"]] / 3 + w[i["lead_master"]] + w[i["lead_master_points"]] / 3
         - w[i["lead_lowest"]] + w[i["lead_power"]])
    assert math.exp(got) == pytest.approx(1 / (1 + math.exp(-x)))


def test_a_friend_winning_changes_a_follow_probability():
    """Seat 2 follows D5 (seat 1 led D4, winning) with D5 or DA, both as a defender. The sides
    decide whether the winner is a friend (seats 0 and 3 declare) or a foe (seat 1 declares):
    the log-odds DA : D5 differ between the two by exactly w.friend_winning_points * 1 (DA's
    point) + w.friend_winning_wins * 0 (both cards win)."""
    w = load_model()
    i = {name: k for k, name in enumerate(FEATURE_NAMES)}
    d4, d5, da = parse_card("D4"), parse_card("D5"), parse_card("DA")
    for played, sign in ((da, 1), (d5, -1)):
        plays = CardPlays([], (d4, played), leader=1, skip=1)
        other = da if played == d5 else d5
        plays.rows[0][-1] |= 1 << other
        friends, foes = play_log_likelihood(plays, [(0,) * 4] * 2, [0b1001, 0b0010], w)
        logit = lambda p: math.log(p / (1 - p))
        diff = sign * (logit(math.exp(friends)) - logit(math.exp(foes)))
        assert diff == pytest.approx(w[i["friend_winning_points"]])


def test_worlds_fit_the_seat_information_exactly():
    """Every world the agent solves, resampled by weight, is one the seat cannot tell from the
    real deal: replayed from its pack with the same history it gives the same observation."""
    rng = random.Random(3)
    checked = 0
    for n in range(6):
        deal = played_deal(n, upto=4 + 5 * (n % 5))
        if deal.is_over or deal.phase != PLAY:
            continue
        for seat in range(4):
            view = deal.view(seat)
            agent = fast(auction=2.0) if n % 2 else fast()
            agent.reset(n)
            sampler = WorldSampler(view)
            expected = observation(view)["observation"]
            worlds = agent.world_sampler(view)
            for _ in range(5):
                world = worlds.sample(agent.rng)
                assert sampler.allows(world)
                other = sampler.deal(world, rng)
                assert np.array_equal(observation(other.view(seat))["observation"], expected)
                checked += 1
    assert checked >= 60


def test_the_player_model_reads_only_what_the_seat_saw():
    """A leak test: two deals the seat cannot tell apart (the real one and a world drawn for
    it, replayed) give the agent the same plays to explain, the same weights for the same
    worlds, and the same card."""
    rng = random.Random(9)
    compared = 0
    for n in range(8):
        deal = played_deal(n, upto=6 + 3 * n)
        if deal.is_over or deal.phase != PLAY:
            continue
        seat = deal.to_move
        view = deal.view(seat)
        other = WorldSampler(view).sample_deal(rng)
        assert other.hands != deal.hands
        results = []
        for d in (deal, other):
            v = d.view(seat)
            agent = fast()
            agent.reset(n)
            plays = CardPlays(v.tricks, v.trick, v.leader, skip=seat)
            worlds = agent.world_sampler(v)
            agent.reset(n)
            results.append((plays.rows, getattr(worlds, "worlds", None),
                            getattr(worlds, "cumulative", None), agent.act(None, v)))
        assert results[0][1] and results[0] == results[1]
        compared += 1
    assert compared >= 5


def test_the_real_world_is_likelier_than_uniform_worlds():
    """The model explains real play: in deals of four PIMC agents, the real hands score a
    higher likelihood under it than the worlds the uniform sampler draws, on average."""
    w = load_model()
    real, drawn = [], []
    rng = random.Random(4)
    for n in range(6):
        deal = played_deal(n, upto=20, agents=[PIMCAgent(worlds=4, time_limit=None)
                                               for _ in range(4)])
        if deal.is_over:
            continue
        view = deal.view(deal.to_move)
        plays = CardPlays(view.tricks, view.trick, view.leader, skip=view.seat)
        worlds = [WorldSampler(view).sample(rng) for _ in range(50)]
        sides = [side_mask(deal.contract, deal.declarer, x.partner) for x in worlds]
        drawn.append(play_log_likelihood(plays, [x.hands for x in worlds], sides, w).mean())
        side = side_mask(deal.contract, deal.declarer, deal.partner)
        real.append(play_log_likelihood(plays, [tuple(deal.hands)], [side], w)[0])
    assert len(real) >= 4 and np.mean(real) > np.mean(drawn) + 1


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_legal_moves_under_every_preset(preset):
    rules = Rules.preset(preset)
    for i in range(2):
        deal = Deal(rules, i % 4, rng=np.random.default_rng([i, 26]))
        play(deal, [fast(), GreedyAgent(), fast(auction=2.0), PIMCAgent(worlds=4, time_limit=None)],
             seeds=[i] * 4)  # play() raises on an illegal move
        assert deal.is_over


def test_reproducible_from_its_seed_without_time_limit():
    def run():
        deals = []
        for n in range(2):
            deal = Deal(Rules(), n % 4, rng=np.random.default_rng([5, n]))
            play(deal, [fast(), fast(), PIMCAgent(worlds=4, time_limit=None), fast()],
                 seeds=[10 * n + s for s in range(4)])
            deals.append(deal.history)
        return deals
    assert run() == run()


def test_training_records_replay_and_the_fit_beats_uniform(tmp_path):
    """The recorded deals replay to the same payoffs; the fitted model explains held-out card
    plays better than a uniform choice among the legal cards (weights 0)."""
    path = tmp_path / "records.jsonl"
    record(path, deals=6, seed=3, spec="greedy")
    deals = load_records(path)
    assert len(deals) == 6 and all(d.is_over for d in deals)
    again = [d.payoffs for d in load_records(path)]
    assert [d.payoffs for d in deals] == again
    train = [e for d in deals[:5] for e in examples_of_deal(d)]
    held = [e for e in examples_of_deal(deals[5])] or train
    w = fit(train)
    assert log_likelihood(held, w) > log_likelihood(held, np.zeros(len(FEATURE_NAMES)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_agent_likelihood_agrees_with_the_training_features(backend):
    """The agent's grouped sums (play_log_likelihood, by numpy and by the C core) and the
    training's feature columns (play_columns, stacked as examples_of_deal does, softmax by
    numpy) give the same log-likelihood in every world: three ways to one model."""
    w = load_model()
    rng = random.Random(2)
    for n in range(3):
        deal = played_deal(n, upto=10 + 7 * n)
        view = deal.view(deal.to_move)
        worlds = [WorldSampler(view).sample(rng) for _ in range(15)]
        plays = CardPlays(view.tricks, view.trick, view.leader, skip=view.seat)
        sides = [side_mask(deal.contract, deal.declarer, x.partner) for x in worlds]
        hands_now = [x.hands for x in worlds]
        fast = play_log_likelihood(plays, hands_now, sides, w, backend=backend)
        t, hands, friend, declarer = _world_facts(plays, hands_now, sides)
        columns, legal = play_columns(t, hands, friend)
        x = np.stack([np.broadcast_to(c, legal.shape) for c in columns], axis=-1)
        x = np.concatenate([x, x * declarer[:, :, None, None]], axis=-1)
        z = np.where(legal, x @ w, -np.inf)
        top = z.max(axis=2)
        lse = top + np.log(np.exp(z - top[..., None]).sum(axis=2))
        played = np.take_along_axis(z, t["card"][:, None, None].repeat(len(worlds), 1), 2)
        assert np.allclose(fast, (played[..., 0] - lse).sum(axis=0), rtol=0, atol=1e-9)


def test_the_c_core_is_built_where_the_solver_is():
    """setup.py builds both C cores with the same compiler: where the solver's was built, the
    likelihood's must be too, or pimc-infer silently runs six times slower on numpy."""
    if solver._dds is not None:
        assert infer._likelihood is not None and infer.BACKEND == "c"


@pytest.mark.skipif(infer._likelihood is None, reason="C core agents.mediatore._likelihood not built")
def test_the_c_core_equals_numpy_at_every_point_of_a_deal():
    """Differential: every third card of a deal under each of four presets, the C core and
    numpy give the same log-likelihood for every world drawn, leads, follows and discards."""
    w = load_model()
    rng = random.Random(7)
    compared = 0
    for n, preset in enumerate(PRESET_NAMES[:4]):
        for upto in range(4, 36, 3):
            part = played_deal(n, rules=Rules.preset(preset), upto=upto)
            if part.is_over:
                break
            view = part.view(part.to_move)
            worlds = [WorldSampler(view).sample(rng) for _ in range(12)]
            plays = CardPlays(view.tricks, view.trick, view.leader, skip=view.seat)
            sides = [side_mask(part.contract, part.declarer, x.partner) for x in worlds]
            args = (plays, [x.hands for x in worlds], sides, w)
            c, numpy = play_log_likelihood(*args, backend="c"), play_log_likelihood(*args, backend="numpy")
            assert np.allclose(c, numpy, rtol=0, atol=1e-9)
            compared += 1
    assert compared >= 20


def test_hand_facts_match_their_definitions():
    """The per-suit tables of _hand_facts against each fact's definition, card by card: legal
    (follow the led suit if held), master (no unseen card of its suit above it), lowest (no
    held card of its suit below it), length (its suit's cards held / 9)."""
    deal = played_deal(3, upto=17)
    view = deal.view(deal.to_move)
    worlds = [WorldSampler(view).sample(random.Random(1)) for _ in range(5)]
    plays = CardPlays(view.tricks, view.trick, view.leader, skip=view.seat)
    sides = [side_mask(deal.contract, deal.declarer, x.partner) for x in worlds]
    t, hands, _, _ = _world_facts(plays, [x.hands for x in worlds], sides)
    legal, master, lowest, length = _hand_facts(t, hands)
    for k in range(len(t["card"])):
        for n in range(len(worlds)):
            hand, seen = int(hands[k, n]), int(t["seen"][k])
            held = [c for c in range(40) if hand >> c & 1]
            follow = [c for c in held if SUIT_OF[c] == t["suit"][k]]
            for c in range(40):
                same = [d for d in range(40) if SUIT_OF[d] == SUIT_OF[c]]
                assert legal[k, n, c] == (c in (follow or held))
                assert master[k, n, c] == all(POWER_OF[d] <= POWER_OF[c] or (hand | seen) >> d & 1
                                              for d in same)
                assert lowest[k, n, c] == all(POWER_OF[d] >= POWER_OF[c] for d in same if d in held)
                assert length[k, n, c] == sum(d in held for d in same) / 9


def test_a_bad_backend_is_named():
    plays = CardPlays([], ())
    with pytest.raises(ValueError, match="backend must be 'c' or 'numpy', got 'gpu'"):
        play_log_likelihood(plays, [], [], load_model(), backend="gpu")
