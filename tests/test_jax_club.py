"""The JAX club Mediatore engine (mediatore_env.jaxgame.club) against the Python engine
(mediatore_env.club.game.Session), side by side.

Random sessions are played in both engines at once (tests/jax_side_by_side.py): after every
move, for every session, the seat to move, the legal mask, ``terminated``, the rewards (each
seat's chips over a deal on the move that ends it, as ``club_mediatore_v0`` gives them), every
seat's observation bit for bit (the environment's writer), and every field of the JAX state
that the Session has: the hands, the widow, the mediator, the call, the discards, the trick,
the chips, the stakes, the pot to match...

The random player accepts now and then (so that some deals are passed by all four, and pots
are carried over and grow) and calls alone, a card, or sometimes a card of the widow. Tables:
the default (until a pot is won, at most 20 deals), and a fixed number of deals at another
ante (pots won and antes again); the slow run adds more.
"""

from __future__ import annotations

import json
import math
import random
from functools import lru_cache

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
pytest.importorskip("mediatore_env.jaxgame")

from mediatore_env.club.game import Session  # noqa: E402
from mediatore_env.club.moves import ACCEPT, ALONE, AUCTION, CALL, PASS  # noqa: E402
from mediatore_env.club.observation import chip_value as python_chip_value  # noqa: E402
from mediatore_env.club.observation import write_observation  # noqa: E402
from mediatore_env.club.rules import ClubRules  # noqa: E402
from mediatore_env.core.cards import CARD_NAMES, NUM_CARDS  # noqa: E402
from mediatore_env.jaxgame.club import ClubJax, chip_value  # noqa: E402
from mediatore_env.registry import replay  # noqa: E402
from mediatore_env.jaxgame.records import records  # noqa: E402
from jax_side_by_side import (Batched, PythonSide, as_bools,  # noqa: E402
                              check_illegal_moves, none, play_side_by_side)


class ClubSide(PythonSide):
    """A Python Session beside a JAX session: the same first dealer and packs."""

    fields = ("deal_number", "dealer", "phase", "hands", "widow", "passed", "mediator",
              "pot_accepted", "announced_alone", "called_card", "partner", "alone", "discards",
              "called_played_by", "chips", "stakes", "trick_cards", "tricks_done",
              "trick_winners", "card_seat", "thirds_won", "tricks_won")

    def __init__(self, state: dict, i: int, rules: ClubRules, accept_rate: float):
        self.rules, self.accept_rate = rules, accept_rate
        self.session = Session(rules, int(state["first_dealer"][i]),
                               packs=state["packs"][i].tolist())
        self.views = [self.session.view(seat) for seat in range(4)]

    def over(self):
        return self.session.is_over

    def to_move(self):
        return -1 if self.session.is_over else self.session.to_move

    def legal_moves(self):
        return self.session.legal_moves()

    def choose(self, rng: random.Random) -> int:
        s = self.session
        if s.phase == AUCTION:
            return ACCEPT if rng.random() < self.accept_rate else PASS
        if s.phase == CALL:
            r = rng.random()
            if r < 0.15:
                return ALONE
            if r < 0.3:  # a card of the widow: the mediator plays alone, having said so
                return 3 + rng.choice([c for c in range(NUM_CARDS) if s.widow >> c & 1])
        return rng.choice(s.legal_moves())

    def apply(self, move):
        deals = len(self.session.results)
        self.session.apply(move)
        if len(self.session.results) > deals:
            return np.array(self.session.results[-1].chips, np.float32)
        return np.zeros(4, np.float32)

    def observations(self):
        return np.stack([write_observation(view) for view in self.views])

    def expected(self):
        s = self.session
        trick = list(s.trick) + [-1] * (4 - len(s.trick))
        card_seat = np.full(NUM_CARDS, -1)
        for t in s.tricks:
            for k, card in enumerate(t.cards):
                card_seat[card] = (t.leader + k) % 4
        for k, card in enumerate(s.trick):
            card_seat[card] = (s.leader + k) % 4
        passed = np.zeros(4, bool)
        for seat, move in s.auction:
            passed[seat] |= move == PASS
        return {
            "deal_number": s.deal_number, "dealer": s.dealer, "phase": s.phase,
            "hands": as_bools(s.hands), "widow": as_bools(s.widow), "passed": passed,
            "mediator": none(s.mediator), "pot_accepted": s.pot_accepted,
            "announced_alone": s.announced_alone, "called_card": none(s.called_card),
            "partner": none(s.partner), "alone": -1 if s.alone is None else int(s.alone),
            "discards": as_bools(s.discards), "called_played_by": none(s.called_played_by),
            "chips": s.chips, "stakes": s.stakes, "trick_cards": trick,
            "tricks_done": len(s.tricks),
            "trick_winners": [t.winner for t in s.tricks] + [-1] * (9 - len(s.tricks)),
            "card_seat": card_seat, "thirds_won": s.thirds_won, "tricks_won": s.tricks_won,
        }

    def describe(self):
        s = self.session
        return (f"rules {s.rules}, dealer {s.first_dealer}, packs "
                f"{[[CARD_NAMES[c] for c in p] for p in s.packs]}, moves "
                f"{[m for _, m in s.history]}")


@lru_cache(maxsize=None)
def batched(rules: ClubRules, cheap: bool = True) -> Batched:
    """The JAX engine of ``rules`` compiled for this module's tests (once per table)."""
    return Batched(ClubJax(rules), ClubSide.fields, cheap)


def play(rules: ClubRules, n: int, seed: int, cheap: bool = True) -> list[ClubSide]:
    jx = batched(rules, cheap)
    rates = (0.2, 0.35, 0.6)
    return play_side_by_side(
        jx, lambda state, i: ClubSide(state, i, rules, rates[i % len(rates)]), n, seed)


def check_coverage(sides: list[ClubSide]) -> None:
    """The sessions went through what the rules make happen: deals passed by all four, pots
    won and lost, the mediator alone (announced, or by the widow) and with a partner."""
    results = [r for side in sides for r in side.session.results]
    assert any(r.passed for r in results)
    assert {True, False} <= {r.won for r in results}
    assert {True, False} <= {r.alone for r in results}
    assert any(r.alone and r.called_card is not None for r in results)  # the widow's card
    assert max(len(side.session.results) for side in sides) >= 3


DEFAULT_RULES = [ClubRules(), ClubRules(ante=3, deals=4)]
SLOW_RULES = [ClubRules(ante=1, deals=20), ClubRules(ante=7, deals=1), ClubRules(deals=9)]


def check_records(jx: Batched, played) -> None:
    """The records round trip: the JAX sessions, written as records by jaxgame.records from
    the JAX batch's own first states, seats and actions, saved as JSON and replayed by the
    Python engine (core.records.replay), give the chips the JAX engine paid, from its packs."""
    books = records(jx.env, played.first, played.players, played.actions, source="test")
    for i, record in enumerate(json.loads(json.dumps(books))):
        session = replay(record)
        assert session.outcome == tuple(played.paid[i].tolist()) == tuple(record["chips"])
        packs = np.asarray(played.first.packs)[i]
        assert [d["pack"] for d in record["deals"]] == [
            [CARD_NAMES[c] for c in packs[k]] for k in range(len(record["deals"]))]


@pytest.mark.parametrize("rules", DEFAULT_RULES, ids=str)
def test_random_sessions_match_the_python_engine_and_replay_from_records(rules):
    played = play(rules, n=16, seed=DEFAULT_RULES.index(rules))
    check_coverage(played.sides)
    check_records(batched(rules), played)


@pytest.mark.slow
@pytest.mark.parametrize("rules", DEFAULT_RULES + SLOW_RULES, ids=str)
def test_many_random_sessions_match_the_python_engine(rules):
    played = play(rules, n=200, seed=100 + (DEFAULT_RULES + SLOW_RULES).index(rules),
                  cheap=False)
    check_records(batched(rules, cheap=False), played)


def test_chip_values_are_the_writers_bit_for_bit():
    """chip_value in integer arithmetic gives the float32 the Python writer stores for every
    chip count below 2^18, random counts up to 2^31, and the powers of two and their
    neighbours (where the logarithm is an integer, or nearly)."""
    rng = np.random.default_rng(0)
    powers = [x for k in range(32) for x in (2 ** k - 2, 2 ** k - 1, 2 ** k)  # 1 + x near 2^k
              if 0 <= x < 2 ** 31 - 1]
    chips = np.concatenate([np.arange(2 ** 18), rng.integers(0, 2 ** 31 - 2, 20_000), powers])
    got = np.asarray(jax.jit(chip_value)(jnp.asarray(chips, jnp.int32)))
    expected = np.array([python_chip_value(int(c)) for c in chips], np.float32)
    differ = np.flatnonzero(got.view(np.uint32) != expected.view(np.uint32))
    assert not differ.size, [(int(chips[i]), got[i], expected[i]) for i in differ[:5]]
    assert math.isclose(float(got[2 ** 10 - 1]), 10 / 32)


def test_a_table_whose_pots_could_pass_the_exact_range_is_refused():
    ClubJax(ClubRules(ante=5, deals=20))       # the default's 20 deals: pots to 10 million
    with pytest.raises(ValueError, match="2\\^24"):
        ClubJax(ClubRules(ante=5, deals=21))



def test_an_illegal_move_ends_the_session_and_its_mover_pays():
    """jaxgame.core's rule: the mover pays each other seat the most a seat can win or lose in
    a deal, the largest pot a mediator can match (4 antes doubled once per deal before the
    last), and the session ends in the phase of a session over."""
    assert ClubJax(ClubRules()).illegal_penalty == 20 * 2 ** 19
    check_illegal_moves(batched(DEFAULT_RULES[0]), 16, seed=11)
