"""The trick facts of a game's definition (core/definition.py's TrickFacts): the generic world
sampler they give a plain trick game (core/worlds.py) draws worlds that fit the seat's view,
each equally often, and OpenSpiel resamples the toy game through it; each game's facts say
which card a move plays and which seats a seat knows to be on its side, and never more."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from test_worlds_family import chi_square_is_uniform, played_to

from agents import GreedyAgent
from agents.random_agent import UniformAgent
from agents.tournament import shuffled_pack
from mediatore_env.core.cards import CARD_NAMES, SUIT_MASKS, SUIT_OF, bit, cards_of
from mediatore_env.core.definition import THIRDS, TRICKS, TrickFacts
from mediatore_env.registry import get

TOYS = ("toy", "toy3")


def played(name: str, rng, moves: int):
    """A toy game after up to ``moves`` random moves, stopped where a hand is in play."""
    return played_to(get(name).new_game(dealer=rng.randrange(2)), rng, moves)


def rebuilt(game, pack):
    """``game`` with its current hand dealt from ``pack`` instead, the same moves played."""
    data = game.to_json()
    data["packs"] = data["packs"][:-1] + [pack]
    return type(game).from_json(data)


@pytest.mark.parametrize("name", TOYS)
def test_the_toys_worlds_fit_the_seats_view(name):
    definition = get(name)
    rng = random.Random(len(name))
    for trial in range(40):
        game = played(name, rng, rng.randrange(0, 12))
        if game.is_over:
            continue
        seat = rng.randrange(definition.players)
        mine = game.view(seat)
        for _ in range(3):
            pack, moves = definition.worlds(mine, rng)
            assert moves == [card for t in mine.tricks for card in t.cards] + list(mine.trick)
            other = rebuilt(game, [int(c) for c in pack])
            theirs = other.view(seat)
            assert (theirs.hand, theirs.tricks, theirs.trick, theirs.points) == (
                mine.hand, mine.tricks, mine.trick, mine.points)
            assert (definition.observation(theirs)["observation"]
                    == definition.observation(mine)["observation"]).all()


def test_late_in_a_toy_hand_every_world_equally_often():
    """Two players, two tricks played, one shown void: the other seat's last card is any card
    unseen outside the suit it did not follow, each as often."""
    definition, rng = get("toy"), random.Random(3)
    for _ in range(200):
        game = played("toy", rng, 4)
        tricks = game.view(0).tricks
        if len(tricks) == 2 and not game.trick and any(
                SUIT_OF[t.cards[0]] != SUIT_OF[t.cards[1]] for t in tricks):
            break
    seat, other = game.to_move, 1 - game.to_move
    view = game.view(seat)
    seen = view.hand | sum(bit(c) for t in view.tricks for c in t.cards)
    void = 0
    for t in view.tricks:
        follower = (t.leader + 1) % 2
        if follower == other and SUIT_OF[t.cards[1]] != SUIT_OF[t.cards[0]]:
            void |= SUIT_MASKS[SUIT_OF[t.cards[0]]]
    support = set(cards_of(~seen & ~void & ((1 << 40) - 1)))
    draws = 40 * len(support)
    counts = Counter()
    for _ in range(draws):
        pack, _ = definition.worlds(view, rng)
        counts[cards_of(rebuilt(game, pack).hands[other])[0]] += 1
    assert set(counts) == support
    chi_square_is_uniform(counts, support, draws)


@pytest.mark.parametrize("name", TOYS)
def test_openspiel_resamples_the_toy_through_its_trick_facts(name):
    """OpenSpiel's resampling test of the games (tests/test_openspiel.py), on the toy."""
    pytest.importorskip("pyspiel")
    from test_openspiel import test_resampled_states_fit_the_players_information as resampled
    resampled(name)


def test_a_definition_takes_the_generic_sampler_only_where_it_has_none():
    toy = get("toy")
    assert toy.worlds == toy.trick.redeal
    assert get("tressette").worlds is not get("tressette").trick.redeal  # its own
    bare = dataclasses.replace(toy, trick=TrickFacts(), worlds=None)
    assert bare.worlds is None  # no deal order: no sampler


def test_scoring_by_the_rules():
    toy = get("toy").trick
    assert toy.scoring(get("toy").make_rules()) == THIRDS
    assert toy.scoring(get("toy").make_rules(scoring="tricks")) == TRICKS
    low = get("tressette").trick.scoring(get("tressette").make_rules(low=True))
    assert low.low and low.card == THIRDS.card
    assert sum(THIRDS.card) + THIRDS.last_trick == 35


def test_what_a_trick_scores():
    """A trick scores its cards' points, a point a trick where tricks score, and the last
    trick's; a hand at most all of these (the toy's limits and observation read it)."""
    ace_three_four = [CARD_NAMES.index(c) for c in ("DA", "D3", "C4")]
    assert THIRDS.trick(ace_three_four, False) == 4
    assert THIRDS.trick(ace_three_four, True) == 7
    assert TRICKS.trick(ace_three_four, False) == TRICKS.trick(ace_three_four, True) == 1
    assert THIRDS.most_per_hand(10) == 35 and TRICKS.most_per_hand(3) == 3
    toy = get("toy")
    assert toy.limits(toy.make_rules(hands=2)).max_utility == 2 * 35


@pytest.mark.parametrize("game", ["mediatore", "club"])
def test_every_play_id_plays_the_card_its_text_names_and_no_other_id_plays_one(game):
    """Over the whole id space of Mediatore and club Mediatore: ``card`` is the card of each
    ``play`` move (Mediatore's with any signal), None for every other move."""
    definition, facts = get(game), get(game).trick
    for move in range(definition.moves.count):
        words = definition.moves.text(move).split()
        expected = CARD_NAMES.index(words[1]) if words[0] == "play" else None
        assert facts.card(move) == expected, (move, words)


@pytest.mark.parametrize("game", ["mediatore", "club", "tressette", "tressette3", "tressette2",
                                  "toy"])
def test_each_move_plays_its_card_and_a_seat_knows_only_its_own_side(game):
    """Over random play: a move plays the card it names (Mediatore's and club's plays, the
    others' ids), and ``play`` gives it back; the side a seat knows holds itself and only
    seats of its real side."""
    definition, facts, player = get(game), get(game).trick, UniformAgent(seed=5)
    for episode in range(3):
        engine = definition.new_game(
            definition.make_rules(**({"deals": 1} if game == "club" else {})))
        packs = 0
        while not engine.is_over:
            if engine.needs_pack:
                engine.deal(shuffled_pack(episode, packs))
                packs += 1
                continue
            seat = engine.to_move
            view = engine.view(seat)
            side = facts.side(view)
            assert side >> seat & 1 and not side & ~real_side(game, engine, seat)
            move = player.act(None, view)
            card = facts.card(move)
            if card is not None:
                assert CARD_NAMES[card] in definition.moves.text(move).split()
                assert view.hand >> card & 1 and facts.card(facts.play(card)) == card
                assert facts.play(card) in view.legal_moves()
            engine.apply(move)


def real_side(game: str, engine, seat: int) -> int:
    """The seats that really score with ``seat``, as a bitmask (all four before a contract:
    anyone may yet be a partner)."""
    if game.startswith("tressette"):
        rules = engine.rules
        return sum(1 << s for s in rules.sides[rules.side_of(seat)])
    if game == "toy":
        return 1 << seat
    declarer = engine.declarer if game == "mediatore" else engine.mediator
    if declarer is None:
        return 15
    ours = 1 << declarer | (0 if engine.partner is None else 1 << engine.partner)
    return ours if ours >> seat & 1 else 15 & ~ours


def test_mediatore_seats_learn_their_side_as_the_deal_shows_it():
    """A Chiamo deal played out: once the called card is played every seat knows its whole
    side (before, a defender knows only itself: the test above holds it to no more)."""
    from mediatore_env.mediatore.rules import CHIAMO
    definition = get("mediatore")
    for n in range(40):
        deal = definition.new_game()
        deal.deal(shuffled_pack(9, n))
        greedy = GreedyAgent()
        while not deal.is_over:
            deal.apply(greedy.act(None, deal.view(deal.to_move)))
        if deal.contract == CHIAMO and deal.partner is not None:
            break
    else:
        pytest.fail("no Chiamo deal with a partner")
    for seat in range(4):
        assert definition.trick.side(deal.view(seat)) == real_side("mediatore", deal, seat)
