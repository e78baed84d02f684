"""The observation writers (mediatore_env/codec): the layout table agrees with the code, the
vector holds exactly what the seat view says the seat knows, and the incremental Encoder
equals the plain writer (mediatore_env/mediatore/reference.py, an independent reference) bit for bit after every
move, for every seat, in every rules preset and in both environments."""

import random
import re

import numpy as np
import pytest

from agents.base import Agent
from mediatore_env.mediatore import observation as encoding
from mediatore_env.mediatore.observation import (LAYOUT, OBSERVATION_SIZE, OBSERVATION_VERSION,
                                                 OFFSETS, SIZES, Encoder, Table, action_mask,
                                                 decode_observation, observation, observation_text)
from mediatore_env.mediatore.reference import write_observation
from mediatore_env.core.cards import cards_of
from mediatore_env.mediatore import mediatore_v0
from mediatore_env.mediatore.single_seat import MediatoreSeatEnv
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.moves import AUCTION, DISCARD_BASE, NUM_MOVES, PASS, PHASE_NAMES
from mediatore_env.mediatore.rules import CONTRACTS, PRESETS, SWITCHES, Rules

PRESET_NAMES = list(PRESETS)


def random_deal(rules: Rules, rng: random.Random, bid_rate=0.35, dealer=None) -> Deal:
    """A deal with a pack from ``rng`` (not yet played)."""
    pack = list(range(40))
    rng.shuffle(pack)
    return Deal(rules, rng.randrange(4) if dealer is None else dealer, pack)


def random_move(deal: Deal, rng: random.Random, bid_rate=0.35) -> int:
    """A random legal move; in the auction, pass with probability 1 - bid_rate and otherwise
    bid the lowest legal bid (sometimes one higher), so every contract and phase comes up."""
    moves = deal.legal_moves()
    if deal.phase == AUCTION and len(moves) > 1:
        if rng.random() >= bid_rate:
            return PASS
        return moves[1] if len(moves) == 2 or rng.random() < 0.7 else moves[2]
    return rng.choice(moves)


def played_deals(n, seed, presets=PRESET_NAMES, bid_rate=0.35):
    """Yield (deal, step) after every move of ``n`` random deals (and before the first)."""
    rng = random.Random(seed)
    for i in range(n):
        deal = random_deal(Rules.preset(presets[i % len(presets)]), rng)
        yield deal
        while not deal.is_over:
            deal.apply(random_move(deal, rng, bid_rate))
            yield deal


# -- the layout -----------------------------------------------------------------------------------

def test_layout_is_contiguous_and_sized():
    offset = 0
    for name, length, meaning in LAYOUT:
        assert OFFSETS[name] == offset and SIZES[name] == length and meaning
        offset += length
    assert offset == OBSERVATION_SIZE == 2132
    assert OBSERVATION_VERSION == 3
    assert SIZES["rules"] == sum(len(v) for v in SWITCHES.values())
    assert SIZES["signals"] == 10 * 9
    assert encoding.SEAT_LEN == 10 * 40 + 10 + 9 + 1 + 1 == 421
    # The play a Table writes is the end of the vector: played, signals, the four seat blocks.
    assert [name for name, _, _ in LAYOUT[-6:]] == ["played", "signals", "seat_0", "seat_1",
                                                    "seat_2", "seat_3"]
    assert all(SIZES[f"seat_{r}"] == 421 for r in range(4))


def test_documented_layout_table_matches_the_code():
    # The module docstring's table: "offset  length  block  meaning" rows.
    rows = re.findall(r"^(\d+)\s+(\d+)\s+(\w+)\s+\S", encoding.__doc__, re.MULTILINE)
    assert [(int(o), int(n), name) for o, n, name in rows] == \
        [(OFFSETS[name], length, name) for name, length, _ in LAYOUT]
    assert f"Size {OBSERVATION_SIZE}." in encoding.__doc__
    assert f"version {OBSERVATION_VERSION}" in encoding.__doc__
    table = encoding.layout_table()
    for name, length, _ in LAYOUT:
        assert f"| {OFFSETS[name]} | {length} | `{name}` |" in table


# -- what the vector holds ------------------------------------------------------------------------

def facts(view) -> dict:
    """What a seat knows, read from its SeatView, in the shape of decode_observation()."""
    me = view.seat
    rel = lambda s: None if s is None else (s - me) % 4  # noqa: E731
    by_rel = lambda values: [values[(me + r) % 4] for r in range(4)]  # noqa: E731

    def trick(leader, cards, signal, winner=None):
        return {"leader": rel(leader), "signal": signal,
                "cards": {rel(leader + i): c for i, c in enumerate(cards)}, "winner": rel(winner)}

    tricks = [trick(t.leader, t.cards, t.signal, t.winner) for t in view.tricks]
    current = None
    if view.trick:
        current = trick(view.leader, view.trick, view.trick_signal)
        del current["winner"]
    thirds = list(view.thirds_won)
    if view.alone is True:
        ours = thirds[view.declarer]
    elif view.partner is not None:
        ours = thirds[view.declarer] + thirds[view.partner]
    else:
        ours = None
    return {
        "rules": view.rules.to_dict(),
        "dealer": rel(view.dealer),
        "phase": PHASE_NAMES[view.phase],
        "to_move": rel(view.to_move),
        "hand": cards_of(view.hand),
        "bids": {bid: rel(seat) for seat, bid in view.auction if bid},
        "contract": view.contract,
        "declarer": rel(view.declarer),
        "called_card": view.called_card,
        "giver": rel(view.giver),
        "alone": view.alone,
        "partner": rel(view.partner),
        "monte_seen": cards_of(view.monte_seen),
        "discards": cards_of(view.discards),
        "given_back": view.given_back,
        "final_monte": cards_of(view.final_monte),
        "played": cards_of(view.played),
        "thirds_won": by_rel(thirds),
        "tricks_won": by_rel(view.tricks_won),
        "side_thirds": None if ours is None else [ours, sum(thirds) - ours],
        "current_trick": current,
        "tricks": tricks,
    }


def test_vector_holds_what_the_view_knows_at_every_step():
    checked = set()
    for deal in played_deals(60, seed=1):
        for seat in range(4):
            view = deal.view(seat)
            obs = observation(view)
            assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (OBSERVATION_SIZE,)
            assert obs["observation"].min() >= 0 and obs["observation"].max() <= 1
            assert decode_observation(obs["observation"]) == facts(view)
            if deal.phase != AUCTION or not deal.history:  # the text, at every phase
                text = observation_text(obs["observation"])
                assert f"phase: {PHASE_NAMES[deal.phase]}" in text
            checked.add((seat, deal.phase))
    assert checked == {(s, p) for s in range(4) for p in range(len(PHASE_NAMES))}


# -- the incremental Encoder against the plain writer ----------------------------------------------

def assert_same(got: np.ndarray, want: np.ndarray, where: str) -> None:
    """``got`` equals ``want`` bit for bit; else name the blocks that differ."""
    assert got.dtype == want.dtype == np.float32 and got.shape == want.shape == (OBSERVATION_SIZE,)
    if got.tobytes() != want.tobytes():
        blocks = [name for name, _, _ in LAYOUT if got[OFFSETS[name]:OFFSETS[name] + SIZES[name]].tobytes()
                  != want[OFFSETS[name]:OFFSETS[name] + SIZES[name]].tobytes()]
        pytest.fail(f"{where}: the Encoder differs from write_observation in {', '.join(blocks)}")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_encoder_equals_the_plain_writer_after_every_move(preset):
    """Every seat after every move of random deals, with the Encoder kept as each env keeps it:
    four sharing one Table (mediatore_v0), each with its own (single_seat); and started afresh."""
    rng = random.Random(f"differential {preset}")
    rules = Rules.preset(preset)
    table = Table()
    shared = [Encoder(table) for _ in range(4)]
    own = [Encoder() for _ in range(4)]
    contracts, phases = set(), set()
    for d in range(40):
        deal = random_deal(rules, rng)
        table.reset()
        views = [deal.view(seat) for seat in range(4)]
        while True:
            phases.add(deal.phase)
            for seat in range(4):
                want = write_observation(views[seat])
                where = f"{preset} deal {d} seat {seat} after {len(deal.history)} moves"
                assert_same(shared[seat].encode(views[seat]), want, where + " (shared Table)")
                assert_same(own[seat].encode(views[seat]), want, where + " (own Table)")
                assert_same(Encoder().encode(views[seat]), want, where + " (afresh)")
            if deal.is_over:
                break
            if d % 2 and deal.phase == AUCTION:  # every other deal, aim at each contract in turn
                aim = CONTRACTS[d // 2 % rules.top_contract]
                deal.apply(aim if aim in deal.legal_moves() and rng.random() < 0.5 else PASS)
            else:
                deal.apply(random_move(deal, rng, bid_rate=(0.25, 0.45, 0.6)[d // 2 % 3]))
        contracts.add(deal.contract)
    assert contracts == {None, *CONTRACTS[:rules.top_contract]}
    assert phases == set(range(len(PHASE_NAMES)))


def test_incremental_encoder_equals_the_plain_writer_when_observed_now_and_then():
    rng = random.Random(7)
    encoders = None
    deal_seen = None
    for deal in played_deals(150, seed=2, bid_rate=0.45):
        if deal is not deal_seen:
            deal_seen = deal
            encoders = [Encoder() for _ in range(4)]
            views = [deal.view(s) for s in range(4)]
        for seat in range(4):
            # Observe at irregular moments, so the encoder sometimes catches up on many moves.
            if rng.random() < 0.6 or deal.is_over:
                got = encoders[seat].encode(views[seat])
                want = write_observation(deal.view(seat))
                assert_same(got, want, f"seat {seat} after {len(deal.history)} moves")
                # Asking again without a move changes nothing.
                assert encoders[seat].encode(views[seat]) is got
                assert_same(got, want, f"seat {seat} after {len(deal.history)} moves, again")


def test_encoders_sharing_a_table_equal_the_plain_writer_when_observed_now_and_then():
    """The four seats' encoders of the environment share one Table (the play, written once)."""
    rng = random.Random(8)
    deal_seen = None
    table = encoding.Table()
    encoders = [Encoder(table) for _ in range(4)]
    for deal in played_deals(120, seed=9, bid_rate=0.45):
        if deal is not deal_seen:
            deal_seen = deal
            table.reset()
            views = [deal.view(s) for s in range(4)]
        for seat in rng.sample(range(4), 4):
            if rng.random() < 0.4 or deal.is_over:
                assert_same(encoders[seat].encode(views[seat]), write_observation(deal.view(seat)),
                            f"seat {seat} after {len(deal.history)} moves")


def test_encoder_restarts_on_a_new_view():
    rng = random.Random(3)
    enc = Encoder()
    for preset in PRESET_NAMES:
        deal = random_deal(Rules.preset(preset), rng)
        while not deal.is_over:
            deal.apply(random_move(deal, rng))
        for seat in range(4):
            assert_same(enc.encode(deal.view(seat)), write_observation(deal.view(seat)),
                        f"{preset} seat {seat}")


def test_mediatore_v0_observes_as_the_plain_writer():
    """Through the PettingZoo env (several deals an episode, so its Table is reset between
    deals): every agent's observation after every step."""
    rng = random.Random(11)
    for k, preset in enumerate(PRESET_NAMES):
        env = mediatore_v0.raw_env(rules=preset, deals=3)
        env.reset(seed=k)
        for agent in env.agent_iter():
            for other in env.agents:
                assert_same(env.observe(other)["observation"], write_observation(env.view(other)),
                            f"{preset}: {other} after {len(env.deal.history)} moves")
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            deal = env.deal
            env.step(random_move(deal, rng, bid_rate=0.45))


class _CheckingAgent(Agent):
    """A random player that checks the observation the single-seat env hands it."""

    checked = 0

    def reset(self, seed=None):
        self.rng = random.Random(seed)

    def act(self, observation, view):
        assert_same(observation["observation"], write_observation(view),
                    f"opponent at seat {view.seat} after {view.move_count} moves")
        _CheckingAgent.checked += 1
        moves = view.legal_moves()
        if view.phase == AUCTION and self.rng.random() < 0.6:
            return PASS
        return self.rng.choice(moves)


def test_single_seat_env_observes_as_the_plain_writer():
    """Through the gymnasium env: the learner's observations, and those it gives the
    opponents (each seat's Encoder is asked only when that seat acts)."""
    rng = random.Random(12)
    _CheckingAgent.checked = 0
    learner = 0
    for k, preset in enumerate(PRESET_NAMES):
        env = MediatoreSeatEnv([_CheckingAgent() for _ in range(3)], rules=preset)
        for episode in range(3):
            obs, _ = env.reset(seed=10 * k + episode)
            while True:
                assert_same(obs, write_observation(env.view), f"{preset}: the learner")
                learner += 1
                if env.deal.is_over:
                    break
                obs, _, terminated, _, _ = env.step(random_move(env.deal, rng, bid_rate=0.45))
    assert learner > 100 and _CheckingAgent.checked > 100


def test_observation_is_a_fresh_copy():
    deal = Deal(Rules(), 3, list(range(40)))
    a, b = observation(deal.view(0)), observation(deal.view(0))
    assert a["observation"] is not b["observation"]
    a["observation"][:] = 0
    assert b["observation"].any()


def test_action_mask_is_the_legal_moves():
    for deal in played_deals(20, seed=4):
        for seat in range(4):
            mask = action_mask(deal.view(seat))
            assert mask.dtype == np.int8 and mask.shape == (NUM_MOVES,)
            legal = deal.legal_moves() if seat == deal.to_move else []
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(legal)


def test_rules_block_tells_variants_apart():
    vectors = {name: encoding.rules_vector(rules).tobytes() for name, rules in PRESETS.items()}
    assert len(set(vectors.values())) == len(PRESETS)
    for name, rules in PRESETS.items():
        assert decode_observation(observation(Deal(rules, 0, list(range(40))).view(1))
                                  ["observation"])["rules"] == rules.to_dict()


def test_observation_text():
    deal = Deal(Rules(), 3, list(range(40)))
    text = observation_text(observation(deal.view(0))["observation"])
    assert "hand: D6 D5 D4 CF C7 C6 SR SC SF" in text and "you to act" in text
    # Seat 0 bids Chiamo, the others pass, 0 calls D7 (seat 1 holds it), discards, leads.
    for move in ("bid chiamo", "pass", "pass", "pass", "call D7"):
        deal.apply_text(move)
    for card in cards_of(deal.hands[0])[:4]:
        deal.apply(DISCARD_BASE + card)
    deal.apply(deal.legal_moves()[0])
    text0, text1, text2 = (observation_text(observation(deal.view(s))["observation"])
                           for s in range(3))
    assert "contract: chiamo by you, called D7" in text0
    assert "partnership: partner not known" in text0  # the declarer knows there is a partner
    assert "partnership: partner you" in text1        # the holder knows it is the partner
    assert "partnership: not known" in text2
    assert "discards:" in text0 and "discards:" not in text2
    assert "table: you " in text0 and "table: across " in text2


def test_decode_refuses_wrong_shapes():
    with pytest.raises(ValueError, match="shape"):
        decode_observation(np.zeros(10, np.float32))
