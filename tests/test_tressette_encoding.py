"""The Tressette observation (mediatore_env/tressette/observation.py): its layout, its content on the
scripted game of test_tressette_engine, and the leak test.

The leak test: a seat's observation is the same for any two states that differ only in what
the seat cannot know. Two such states are made by swapping, in the current hand's pack, two
cards the seat has not seen (in other hands, the dead hand, the stock, or drawn unseen), and
replaying the same moves; the pair counts when every move is still legal and every declared
meld stays the same (the moves and melds are public). Pairs of one suit mostly replay; pairs
of two suits replay less often, but they change how many cards of a suit a seat holds, which
a swap within a suit cannot reveal. The observer's vector must not change, nor anything its
view tells or the table shows; a seat that holds one of the swapped cards must see its change.
And the test is shown to fail on writers with a leak planted in them (another hand, its count
of a suit, the dead hand, the stock's top card, an unshown draw).
"""

from __future__ import annotations

import doctest
import random

import numpy as np
import pytest
from test_tressette_engine import HAND_2, play_hand, play_trick, scripted_game
from tressette_packs import build_pack, cards

from mediatore_env.tressette import observation as codec
from mediatore_env.tressette.display import table_text
from mediatore_env.tressette.observation import (EARLIER_HANDS, SCORE_SCALE, Encoder, action_mask,
                                                 layout_of, observation, write_observation)
from mediatore_env.core.cards import parse_card
from mediatore_env.tressette import (CLAIM, FORMS, TressetteGame, TressetteRules, TressetteView,
                                     move_text, random_pack)


def test_docstring_examples():
    assert doctest.testmod(codec).failed == 0


@pytest.mark.parametrize("players, size", [(4, 2393), (3, 2087), (2, 2890)])
def test_layout_sizes_and_blocks(players, size):
    lay = layout_of(players)
    assert lay.size == size == sum(lay.sizes.values())
    n, sides, tricks = players, (3 if players == 3 else 2), (20 if players == 2 else 10)
    assert lay.sizes["trick_cards"] == tricks * n * 40
    assert lay.sizes["earlier"] == EARLIER_HANDS[players] * (1 + n + sides + 10 * n)
    assert (lay.sizes["draws"] > 0) == (players == 2)
    assert layout_of(TressetteRules(players=players, low=True)) is lay
    table = lay.table()
    assert all(f"`{name}`" in table for name, length, _ in lay.blocks if length)


def block(obs, lay, name):
    return obs[lay.offsets[name]:lay.offsets[name] + lay.sizes[name]]


def on(values):
    return [int(i) for i in np.flatnonzero(values)]


def test_the_scripted_first_trick_as_seat_1_sees_it():
    game = scripted_game()
    play_trick(game)  # seat 0 led DA, seats 1, 2, 3 followed with their lowest Denaro
    trick = game.log[0].tricks[0]
    lay = layout_of(4)
    obs = write_observation(game.view(1))
    assert obs.dtype == np.float32 and obs.min() >= 0 and obs.max() <= 1
    assert on(block(obs, lay, "rules")) == [0]
    assert on(block(obs, lay, "dealer")) == [2]  # dealer 3 is seat 1's relative seat 2
    assert on(block(obs, lay, "to_move")) == [3]  # seat 0 won and leads: relative 3
    assert on(block(obs, lay, "hand")) == sorted(
        c for c in range(40) if game.hands[1] >> c & 1)
    # Slot 0: relative seat 3 (seat 0) led DA; seat 1 (relative 0) played its card.
    cards_block = block(obs, lay, "trick_cards")
    assert on(cards_block[3 * 40:4 * 40]) == [parse_card("DA")]
    assert on(cards_block[0:40]) == [trick.cards[1]]
    assert on(block(obs, lay, "trick_leader")) == [3] and on(block(obs, lay, "trick_winner")) == [3]
    assert on(block(obs, lay, "played")) == sorted(trick.cards)
    # Seat 0's six melds, shown: relative seat 3's cards and flags.
    melds = block(obs, lay, "meld_cards")
    assert on(melds[3 * 40:]) == sorted(cards("DA D2 D3 CA C2 C3 SA S2 S3 BA"))
    assert on(block(obs, lay, "meld_kinds")) == [30 + k for k in (0, 1, 2, 5, 6, 8)]
    # Side 0 (seat 1's relative side 1) has 19 + the trick's points.
    assert block(obs, lay, "totals")[1] * SCORE_SCALE == pytest.approx(game.totals[0])
    assert block(obs, lay, "totals")[0] == 0
    assert not block(obs, lay, "earlier").any()
    assert action_mask(game.view(1)).sum() == 0
    assert on(action_mask(game.view(0))) == game.legal_moves()


def test_earlier_hands_keep_their_points_and_melds():
    game = scripted_game()
    play_hand(game)
    game.deal(build_pack(4, 0, HAND_2))
    lay = layout_of(4)
    obs = write_observation(game.view(2))
    first = block(obs, lay, "earlier")[:lay.hand_len]
    assert first[0] == 1 and on(first[1:5]) == [1]  # present; dealer 3 is seat 2's relative 1
    assert list(first[5:7] * SCORE_SCALE) == pytest.approx([30, 0])  # seat 2 is in side 0
    assert on(first[7:]) == [20 + k for k in (0, 1, 2, 5, 6, 8)]  # seat 0 = relative 2
    assert not block(obs, lay, "earlier")[lay.hand_len:].any()
    assert not block(obs, lay, "trick_cards").any() and not block(obs, lay, "meld_kinds").any()


def test_two_handed_draws_are_seen_as_the_switch_says():
    pack = build_pack(2, 1, {0: "D4 DA D2", 1: "D5 C4"}, stock="D3 B3")
    lay = layout_of(2)
    for show in (True, False):
        game = TressetteGame(FORMS["tressette2"].replace(show_draws=show), dealer=1)
        game.deal(pack)
        play_trick(game)  # seat 1 wins, draws D3; seat 0 draws B3
        draws = block(write_observation(game.view(0)), lay, "draws")
        assert on(draws) == ([parse_card("D3")] if show else []) + [40 + parse_card("B3")]
        assert block(write_observation(game.view(0)), lay, "stock")[0] == pytest.approx(18 / 20)


@pytest.mark.parametrize("form", ["tressette", "tressette3", "tressette2"])
def test_the_table_and_shown_out_blocks_say_what_the_play_showed(form):
    """``table`` is the trick in play by relative seat; ``shown_out`` flags a suit exactly
    when its seat played off it to a trick that counts (two-handed: since the last draw), and
    a flagged seat truly holds none of that suit (a draw cannot have brought one back)."""
    rules = FORMS[form]
    lay, n, rng = layout_of(rules), rules.players, random.Random(form)
    flagged = 0
    for g in range(4):
        game = TressetteGame(rules, dealer=g % n)
        while not game.is_over:
            if game.needs_pack:
                game.deal(random_pack(rng))
            me = rng.randrange(n)
            view = game.view(me)
            obs = write_observation(view)
            table = block(obs, lay, "table").reshape(n, 40)
            expect = np.zeros((n, 40), bool)
            for k, card in enumerate(view.trick):
                expect[(view.leader + k - me) % n, card] = True
            assert np.array_equal(table, expect)
            draws = len(view.draws) // 2 if n == 2 else 0
            counted = [(t.leader, t.cards) for t in view.tricks[draws:]]
            counted += [(view.leader, view.trick)] if view.trick else []
            expect = np.zeros((n, 4), bool)
            for leader, trick in counted:
                for k, card in enumerate(trick[1:], 1):
                    if card // 10 != trick[0] // 10:
                        expect[(leader + k - me) % n, trick[0] // 10] = True
            shown = block(obs, lay, "shown_out").reshape(n, 4).astype(bool)
            assert np.array_equal(shown, expect)
            for r, suit in zip(*np.nonzero(shown)):
                assert not game.hands[(me + r) % n] & (0x3FF << 10 * suit)  # holds none
                flagged += 1
            game.apply(rng.choice([m for m in game.legal_moves() if m != CLAIM]))
    assert flagged > 50  # the games showed suits out, so the check above was exercised


# -- the leak test ----------------------------------------------------------------------------

def hidden_from(game, seat):
    """The current hand's cards ``seat`` has not seen (and cannot place): not its own, not
    played, not shown in a meld, not a draw it saw."""
    log = game.log[-1]
    view = game.view(seat)
    seen = view.hand
    for t in log.tricks:
        for c in t.cards:
            seen |= 1 << c
    for c in game.trick:
        seen |= 1 << c
    for d in log.melds:
        seen |= d.meld.cards
    for _, card in view.draws:
        if card is not None:
            seen |= 1 << card
    return [c for c in range(40) if not seen >> c & 1]


def swapped(game, a, b):
    """The game replayed with cards ``a`` and ``b`` swapped in the current hand's pack, or None
    when the moves are no longer legal or a meld changed."""
    packs = [list(p) for p in game.packs]
    pack = packs[-1]
    i, j = pack.index(a), pack.index(b)
    pack[i], pack[j] = pack[j], pack[i]
    try:
        other = TressetteGame.from_json({"rules": game.rules.to_dict(),
                                         "dealer": game.first_dealer, "packs": packs,
                                         "moves": [move_text(m) for _, m in game.history]})
    except ValueError:
        return None
    return other if other.log[-1].melds == game.log[-1].melds else None


def told(view):
    """Everything the view tells its seat (each public attribute, each query without arguments)
    and the table as it renders it: what agents and ``render()`` read."""
    told = {"table": table_text(view)}
    for name in dir(TressetteView):
        if not name.startswith("_"):
            value = getattr(view, name)
            told[name] = value() if callable(value) else value
    return told


@pytest.mark.parametrize("form, switches", [
    ("tressette", {}), ("tressette", {"claim": True}), ("tressette3", {}),
    ("tressette3", {"low": True, "claim": True}), ("tressette2", {}),
    ("tressette2", {"show_draws": False})])
def test_nothing_leaks(form, switches):
    check_nothing_leaks(FORMS[form].replace(**switches), seed=len(form) * 7 + len(switches))


def _leaking(secret):
    """``write_observation`` with one more fact written in its last float: ``secret(game,
    seat)``, read from the whole game as a careless writer could."""
    def write(view):
        out = write_observation(view)
        out[-1] = secret(view._game, view.seat) % 97 / 97
        return out
    return write


@pytest.mark.parametrize("form, switches, secret", [
    ("tressette", {}, lambda game, seat: game.hands[(seat + 1) % 4] & 1023),  # its Denari
    ("tressette", {}, lambda game, seat: (game.hands[(seat + 1) % 4] & 1023).bit_count()),
    ("tressette3", {}, lambda game, seat: game.log[-1].dead % 1000),
    ("tressette2", {}, lambda game, seat: game.stock[0] if game.stock else 0),
    ("tressette2", {"show_draws": False},
     lambda game, seat: sum(d.card for d in game.log[-1].draws if d.seat != seat))])
def test_the_leak_test_catches_a_planted_leak(form, switches, secret):
    with pytest.raises(AssertionError, match="leak: seat"):
        check_nothing_leaks(FORMS[form].replace(**switches), seed=1, write=_leaking(secret))


def check_nothing_leaks(rules, seed, write=write_observation):
    """The leak test over 10 games of ``rules``, each stopped at a random move: see the
    module's docstring."""
    rng = random.Random(seed)
    checked = sensitive = across = 0
    for g in range(10):
        game = TressetteGame(rules, dealer=g % rules.players)
        stop = rng.randrange(6, 60)
        while not game.is_over and len(game.history) < stop:
            if game.needs_pack:
                game.deal(random_pack(rng))
            else:
                moves = [m for m in game.legal_moves() if m != CLAIM]
                game.apply(rng.choice(moves))
        if game.needs_pack:
            game.deal(random_pack(rng))
        for seat in range(rules.players):
            hidden = hidden_from(game, seat)
            # Pairs of one suit keep every move legal; pairs of two suits often do not, but
            # those that do catch what a suit-blind swap cannot (a seat's count of a suit).
            pairs = [(a, b) for a in hidden for b in hidden if a < b]
            rng.shuffle(pairs)
            same = [p for p in pairs if p[0] // 10 == p[1] // 10][:6]
            for a, b in same + [p for p in pairs if p[0] // 10 != p[1] // 10][:12]:
                other = swapped(game, a, b)
                if other is None:
                    continue
                assert np.array_equal(write(game.view(seat)), write(other.view(seat))), \
                    f"leak: seat {seat} sees cards {a} and {b} swapped"
                assert np.array_equal(action_mask(game.view(seat)), action_mask(other.view(seat)))
                assert told(game.view(seat)) == told(other.view(seat)), (seat, a, b)
                checked += 1
                across += a // 10 != b // 10
                for holder in range(rules.players):  # a seat holding one of the two sees it
                    if game.hands[holder] >> a & 1 != game.hands[holder] >> b & 1:
                        assert not np.array_equal(write(game.view(holder)),
                                                  write(other.view(holder)))
                        sensitive += 1
    assert checked >= 50 and sensitive >= 10 and across >= 20


def test_observation_dict():
    game = TressetteGame(FORMS["tressette3"].replace(claim=True), dealer=0)
    game.deal(list(range(40)))
    obs = observation(game.view(1))
    assert obs["observation"].shape == (layout_of(3).size,)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"][CLAIM] == 1
    out = np.ones(layout_of(3).size, np.float32)
    assert write_observation(game.view(1), out) is out
    assert np.array_equal(out, obs["observation"])


@pytest.mark.parametrize("form, switches", [
    ("tressette", {}), ("tressette", {"claim": True, "low": True}), ("tressette3", {}),
    ("tressette2", {}), ("tressette2", {"show_draws": False})])
def test_the_incremental_encoder_writes_what_the_plain_writer_writes(form, switches):
    """Encoder (the environments' writer) against write_observation, every seat, every move,
    over whole games (new hands, melds, draws, the end)."""
    rules = FORMS[form].replace(**switches)
    rng = random.Random(form + str(switches))
    for g in range(6):
        game = TressetteGame(rules, dealer=g % rules.players)
        encoders = [Encoder(rules, seat) for seat in range(rules.players)]
        while True:
            if game.needs_pack:
                game.deal(random_pack(rng))
            for seat, encoder in enumerate(encoders):
                if rng.random() < 0.5 or game.is_over:  # sometimes several moves between looks
                    view = game.view(seat)
                    assert np.array_equal(encoder.encode(view), write_observation(view))
            if game.is_over:
                break
            moves = game.legal_moves()
            game.apply(CLAIM if CLAIM in moves and rng.random() < 0.01 else
                       rng.choice([m for m in moves if m != CLAIM]))
        encoders[0].reset()
        other = TressetteGame(rules, dealer=0)
        other.deal(random_pack(rng))
        assert np.array_equal(encoders[0].encode(other.view(0)), write_observation(other.view(0)))
