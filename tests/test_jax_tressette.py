"""The JAX Tressette engine (mediatore_env.jaxgame.tressette) against the Python engine
(mediatore_env.tressette.game.TressetteGame), side by side, for every form and switch.

Random games to 31 (several hands each) are played in both engines at once
(tests/jax_side_by_side.py): after every move, for every game, the seat to move, the legal
mask, ``terminated``, the rewards (the game's outcome on the move that ends it, as
``tressette_v0`` gives it), every seat's observation bit for bit (the environments' own
incremental Encoder, held equal to the plain writer by tests/test_tressette_encoding.py), and
every field of the JAX state that the Python game has: the hands, the trick, the totals, the
melds, the draws, the end's reason and ender, the earlier hands the observation keeps...

The random player claims, with the ``claim`` switch, now and then at random (false claims) and
often once its side has 31 (true claims); one game in three never claims, so that hands played
out after a side reached 31 end games too. The default run compiles four tables that between
them hold every form, every value of every switch and Low Hand with claims; the slow run every
combination of the switches of every form, with more games.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from functools import lru_cache

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
pytest.importorskip("mediatore_env.jaxgame")

from mediatore_env.core.cards import CARD_NAMES, NUM_CARDS, POINTS  # noqa: E402
from mediatore_env.jaxgame.tressette import END_REASONS, MAX_HANDS, TressetteJax  # noqa: E402
from mediatore_env.tressette import CLAIM, TARGET, TressetteGame, TressetteRules  # noqa: E402
from mediatore_env.tressette.observation import EARLIER_HANDS, Encoder, meld_flag  # noqa: E402
from mediatore_env.tressette.rules import SWITCHES  # noqa: E402
from mediatore_env.registry import replay  # noqa: E402
from mediatore_env.jaxgame.records import records  # noqa: E402
from jax_side_by_side import (Batched, PythonSide, as_bools,  # noqa: E402
                              check_illegal_moves, none, play_side_by_side)


def melds_by_seat(melds, players: int) -> np.ndarray:
    """bool[players, 10]: the declared melds (``(seat, meld)``) as the JAX state's flags."""
    out = np.zeros((players, 10), bool)
    for seat, meld in melds:
        out[seat, meld_flag(meld)] = True
    return out


class TressetteSide(PythonSide):
    """A Python TressetteGame beside a JAX game: the same first dealer and packs."""

    fields = ("hand_number", "dealer", "hands", "dealt", "totals", "before", "trick_cards",
              "trick_len", "tricks_done", "trick_winners", "card_seat", "thirds_won",
              "meld_points", "melds", "draws", "last_winner", "first_to_target", "end_reason",
              "ender", "claimant", "earlier_dealer", "earlier_points", "earlier_melds")

    def __init__(self, state: dict, i: int, rules: TressetteRules, claims: bool):
        self.rules, self.claims = rules, claims
        self.packs = state["packs"][i].tolist()
        self.game = TressetteGame(rules, int(state["first_dealer"][i]))
        self.encoders = [Encoder(rules, seat) for seat in range(rules.players)]
        self.views = [self.game.view(seat) for seat in range(rules.players)]
        self._deal()

    def _deal(self):
        while self.game.needs_pack:
            self.game.deal(self.packs[self.game.hand_number])

    def over(self):
        return self.game.is_over

    def to_move(self):
        return -1 if self.game.is_over else self.game.to_move

    def legal_moves(self):
        return self.game.legal_moves()

    def choose(self, rng: random.Random) -> int:
        game = self.game
        cards = [m for m in game.legal_moves() if m != CLAIM]
        if self.claims and CLAIM in game.legal_moves():
            has_31 = game.totals[game.side_of(game.to_move)] >= TARGET
            if rng.random() < (0.2 if has_31 else 0.004):
                return CLAIM
        return rng.choice(cards)

    def apply(self, move):
        self.game.apply(move)
        self._deal()
        if self.game.is_over:
            return np.array(self.game.outcome, np.float32)
        return np.zeros(self.rules.players, np.float32)

    def observations(self):
        return np.stack([e.encode(v) for e, v in zip(self.encoders, self.views)])

    def expected(self):
        game, rules = self.game, self.rules
        n, log = rules.players, self.game.log[-1]
        trick = list(game.trick) + [-1] * (n - len(game.trick))
        winners = [t.winner for t in log.tricks] + [-1] * (rules.num_tricks - len(log.tricks))
        card_seat = np.full(NUM_CARDS, -1)
        for t in log.tricks:
            for k, card in enumerate(t.cards):
                card_seat[card] = (t.leader + k) % n
        for k, card in enumerate(game.trick):
            card_seat[card] = (game.leader + k) % n
        earlier = list(reversed(game.log[:-1]))[:EARLIER_HANDS[n]]
        blank = EARLIER_HANDS[n] - len(earlier)
        return {
            "hand_number": game.hand_number, "dealer": log.dealer,
            "hands": as_bools(game.hands), "dealt": as_bools(log.dealt),
            "totals": game.totals, "before": game.before, "trick_cards": trick,
            "trick_len": len(game.trick), "tricks_done": len(log.tricks),
            "trick_winners": winners, "card_seat": card_seat, "thirds_won": log.thirds,
            "meld_points": log.meld_points, "melds": melds_by_seat(log.melds, n),
            "draws": len(log.draws), "last_winner": none(log.last_winner),
            "first_to_target": none(game.first_to_target),
            "end_reason": END_REASONS.index(game.end_reason), "ender": none(game.ender),
            "claimant": none(game.claimant),
            "earlier_dealer": [h.dealer for h in earlier] + [-1] * blank,
            "earlier_points": [list(h.final_points) for h in earlier]
            + [[0] * rules.num_sides] * blank,
            "earlier_melds": np.stack([melds_by_seat(h.melds, n) for h in earlier]
                                      + [np.zeros((n, 10), bool)] * blank),
        }

    def describe(self):
        game = self.game
        return (f"rules {game.rules}, dealer {game.first_dealer}, packs "
                f"{[[CARD_NAMES[c] for c in p] for p in game.packs]}, moves "
                f"{[m for _, m in game.history]}")


def all_rules(players: int) -> list[TressetteRules]:
    names = [name for name in SWITCHES if name != "players"
             and (players == 2 or name != "show_draws")]
    return [TressetteRules(players=players, **dict(zip(names, values)))
            for values in itertools.product(*(SWITCHES[name] for name in names))]


# Every form, every value of every switch, and Low Hand with claims (where their rules meet:
# ties): four tables, each a compilation.
DEFAULT_RULES = [TressetteRules(players=4), TressetteRules(players=3, low=True, claim=True),
                 TressetteRules(players=2),
                 TressetteRules(players=2, low=True, claim=True, show_draws=False)]
SLOW_RULES = [r for players in (4, 3, 2) for r in all_rules(players)]


def name(rules: TressetteRules) -> str:
    changed = [f"{k}={v}" for k, v in rules.to_dict().items()
               if k != "players" and v != SWITCHES[k][0]]
    return f"{rules.form}" + (f"[{','.join(changed)}]" if changed else "")


@lru_cache(maxsize=None)
def batched(rules: TressetteRules, cheap: bool = True) -> Batched:
    """The JAX engine of ``rules`` compiled for this module's tests (once per table)."""
    return Batched(TressetteJax(rules), TressetteSide.fields, cheap)


def play(rules: TressetteRules, n: int, seed: int, cheap: bool = True):
    jx = batched(rules, cheap)
    return play_side_by_side(
        jx, lambda state, i: TressetteSide(state, i, rules, claims=i % 3 != 0), n, seed)


def check_coverage(rules: TressetteRules, sides) -> None:
    """The games reached what the switches make possible: several hands, each way of ending."""
    reasons = Counter(s.game.end_reason for s in sides)
    assert max(s.game.hand_number for s in sides) >= 3
    if rules.claim:
        assert {"claim", "false_claim", "hand_end"} <= set(reasons), reasons
    else:
        assert set(reasons) == {"target"}
    if rules.players == 2:
        assert any(len(s.game.log[-1].draws) == 20 for s in sides)


def test_default_tables_hold_every_form_and_every_value_of_every_switch():
    assert {r.players for r in DEFAULT_RULES} == set(SWITCHES["players"])
    for switch, values in SWITCHES.items():
        tables = [r for r in DEFAULT_RULES if switch != "show_draws" or r.players == 2]
        assert {getattr(r, switch) for r in tables} == set(values), switch
    assert any(r.low and r.claim for r in DEFAULT_RULES)


def check_records(jx: Batched, played) -> None:
    """The records round trip: the JAX games, written as records by jaxgame.records from the
    JAX batch's own first states, seats and actions, saved as JSON and replayed by the Python
    engine (registry.replay), give the outcomes the JAX engine paid, from its packs."""
    books = records(jx.env, played.first, played.players, played.actions, source="test")
    for i, record in enumerate(json.loads(json.dumps(books))):
        game = replay(record)
        assert list(game.outcome) == played.paid[i].tolist(), i
        packs = np.asarray(played.first.packs)[i]
        assert record["packs"] == [[CARD_NAMES[c] for c in packs[k]]
                                   for k in range(game.hand_number)]


@pytest.mark.parametrize("rules", DEFAULT_RULES, ids=name)
def test_random_games_match_the_python_engine_and_replay_from_records(rules):
    played = play(rules, n=16, seed=DEFAULT_RULES.index(rules))
    check_coverage(rules, played.sides)
    check_records(batched(rules), played)


@pytest.mark.slow
@pytest.mark.parametrize("rules", SLOW_RULES, ids=name)
def test_many_random_games_match_the_python_engine(rules):
    played = play(rules, n=300, seed=100 + SLOW_RULES.index(rules), cheap=False)
    check_coverage(rules, played.sides)
    check_records(batched(rules, cheap=False), played)


def fewest_points(played_thirds: int, sides: int) -> int:
    """The fewest points a complete hand can give the sides together when the cards taken
    hold ``played_thirds``: each side's thirds rounded down, plus the last trick's point."""
    def least(thirds, k):
        if k == 1:
            return thirds // 3
        return min(t // 3 + least(thirds - t, k - 1) for t in range(thirds + 1))
    return least(played_thirds, sides) + 1


def test_max_hands_bounds_every_game():
    """MAX_HANDS packs are enough, and no more than a game can use: with every side below 31
    the sides hold at most 30 each, and each complete hand gives them at least the fewest
    points its cards can make (three-handed, the dead hand's 10 cards hold at most the 4 Assi
    and 6 one-third cards)."""
    for players, hands in MAX_HANDS.items():
        rules = TressetteRules(players=players)
        dead = sorted(POINTS, reverse=True)[:10] if rules.has_dead_hand else []
        least = fewest_points(sum(POINTS) - sum(dead), rules.num_sides)
        assert hands == rules.num_sides * (TARGET - 1) // least + 1, players



def test_an_illegal_move_ends_the_game_and_its_mover_pays():
    """jaxgame.core's rule, in every form: the mover pays each other seat the largest outcome
    a seat can have (1 with two sides, 2 three-handed)."""
    assert [TressetteJax(TressetteRules(players=p)).illegal_penalty for p in (4, 3, 2)] == [
        1, 2, 1]  # the compiled table below is three-handed
    check_illegal_moves(batched(DEFAULT_RULES[1]), 16, seed=11, avoid=(CLAIM,))
