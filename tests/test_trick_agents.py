"""The generic trick agents (agents/trick.py): every registered game with trick facts gets a
greedy player and PIMC that play it legally to the end from the seat's sealed view, the same
moves from the same seed in the reproducible mode, choices blind to the cards the seat cannot
see; the toy game gets them with no agent code of its own, and in duplicate they beat random
play; the registry names them."""

from __future__ import annotations

import random

import pytest

from agents.base import play
from agents.random_agent import UniformAgent
from agents.registry import GENERIC, agents_of
from agents.tournament import run_tournament, shuffled_pack
from agents.trick import TrickGreedyAgent, TrickPimcAgent, card_moves
from mediatore_env.registry import GAMES, get
from tests.test_tressette_agents import Sealed

#: Every registered game the generic agents can play, with rules short enough for a test.
SHORT = {"club": {"deals": 2}}
TRICK_GAMES = sorted(name for name, d in GAMES.items() if d.trick is not None)


def generic(game: str, name: str, **options):
    """The generic agent ``name`` of ``game``, as the registry makes it."""
    return GENERIC[name](get(game))(**options)


def fast_pimc(game: str):
    return generic(game, "pimc", time_limit=None, max_worlds=2)


def episode(game: str, lineup, seed: int):
    definition = get(game)
    rules = definition.make_rules(**SHORT.get(game, {}))
    return play(definition.new_game(rules, seed % definition.players), lineup,
                lambda k: shuffled_pack(seed, k), seeds=[seed + s for s in range(len(lineup))])


def test_every_game_of_the_family_and_the_toy_has_trick_facts():
    assert {"mediatore", "tressette", "tressette3", "tressette2", "club", "toy",
            "toy3"} <= set(TRICK_GAMES)


@pytest.mark.parametrize("game", TRICK_GAMES)
def test_greedy_and_pimc_play_whole_episodes_legally_from_sealed_views(game):
    n = get(game).players
    makers = [lambda: generic(game, "greedy"), lambda: fast_pimc(game), UniformAgent]
    lineup = [Sealed(makers[s % 3]()) for s in range(n)]
    finished = episode(game, lineup, 4)  # play() refuses any illegal move
    assert finished.is_over and sum(finished.outcome) == 0


@pytest.mark.parametrize("game", TRICK_GAMES)
def test_pimc_with_no_time_limit_repeats_its_episode_from_its_seeds(game):
    n = get(game).players

    def history():
        lineup = [fast_pimc(game) if s == 0 else generic(game, "greedy") for s in range(n)]
        return episode(game, lineup, 7).history

    assert history() == history()


def hidden_pairs(game: str, trials: int, seed: int):
    """``(game, other, seat)``: ``game`` at a point of its first hand where ``seat`` has a card
    to choose, played by random agents, and ``other`` the same hand with the cards ``seat``
    cannot see lying elsewhere: the game's own world sampler's draw, replayed."""
    definition = get(game)
    rng = random.Random(seed)
    for trial in range(trials):
        rules = definition.make_rules(**SHORT.get(game, {}))
        real = definition.new_game(rules, trial % definition.players)
        real.deal(shuffled_pack(seed, trial))
        hand = getattr(real, "hand_number", None)
        skip = rng.randrange(3 * definition.players * 3)  # moves, then the next choice
        while not real.is_over and not real.needs_pack:
            moves = real.legal_moves()
            if skip <= 0 and len(card_moves(definition.trick, moves)) > 1:
                break
            real.apply(rng.choice(moves))
            skip -= 1
        if real.is_over or real.needs_pack or getattr(real, "hand_number", None) != hand:
            continue
        seat = real.to_move
        view = real.view(seat)
        if len(card_moves(definition.trick, view.legal_moves())) < 2:
            continue
        pack, moves = definition.worlds(view, rng)
        other = definition.new_game(rules, view.dealer)
        other.deal(pack)
        for move in moves:
            other.apply(move)
        if other.view(seat).hand != view.hand or [real.view(s).hand for s in range(
                definition.players)] == [other.view(s).hand for s in range(definition.players)]:
            continue
        yield real, other, seat


@pytest.mark.parametrize("game", TRICK_GAMES)
def test_choices_do_not_depend_on_what_the_seat_cannot_see(game):
    greedy, pimc = generic(game, "greedy"), generic(game, "pimc", time_limit=None, max_worlds=3)
    compared = 0
    for trial, (real, other, seat) in enumerate(hidden_pairs(game, 30, 11)):
        assert greedy.act(None, other.view(seat)) == greedy.act(None, real.view(seat))
        pimc.reset(trial)
        here = pimc.act(None, real.view(seat))
        pimc.reset(trial)
        assert pimc.act(None, other.view(seat)) == here
        compared += 1
    assert compared >= 5


# -- strength: the toy game, in duplicate ----------------------------------------------------

@pytest.mark.parametrize("game, scoring", [("toy", "thirds"), ("toy", "tricks"),
                                           ("toy3", "thirds")])
def test_greedy_and_pimc_beat_random_play_of_the_toy(game, scoring):
    """Duplicate tournaments on a fixed seed: each generic agent against random agents, its
    95% interval over games clear of zero (PIMC solves the toy's worlds where it scores
    thirds, and rolls them out where it counts tricks)."""
    n, rules = get(game).players, get(game).make_rules(scoring=scoring)
    for agent in ("greedy", "pimc:time_limit=None,max_worlds=16"):
        result = run_tournament([agent] + ["random"] * (n - 1), deals=100, seed=35, game=game,
                                rules=rules)
        standing = result.standing(agent)
        assert standing.ci[0] > 0, (agent, standing.mean, standing.ci)


def test_a_tressette_world_is_solved_on_the_table_tressettes_own_pimc_solves():
    """The generic table (the seats' hands, the trick, the side's thirds, the stock) of every
    Tressette form and Low Hand is tressette.positions.table_of, at random points."""
    from mediatore_env.tressette.positions import table_of
    rng, compared = random.Random(3), 0
    for name in ("tressette", "tressette3", "tressette2"):
        for low in (False, True):
            definition = get(name)
            rules = definition.make_rules(low=low)
            pimc = generic(name, "pimc", solve_at=40)
            for trial in range(12):
                game = definition.new_game(rules, trial % definition.players)
                game.deal(shuffled_pack(trial, 0))
                for _ in range(rng.randrange(30)):
                    if game.needs_pack or game.is_over:
                        break
                    game.apply(rng.choice(game.legal_moves()))
                if game.needs_pack or game.is_over:
                    continue
                seat = game.to_move
                scoring = definition.trick.scoring(rules)
                in_play = pimc.cards_in_play(game)
                assert pimc.table(game, game.view(seat), scoring, in_play) == table_of(game, seat)
                compared += 1
    assert compared >= 40


# -- the registry --------------------------------------------------------------------------

def test_the_toy_gets_random_greedy_and_pimc_from_the_registry_alone():
    import toy_game
    assert not any(name.startswith("agent") for name in dir(toy_game))
    for game in ("toy", "toy3"):
        agents = agents_of(game)
        assert {"random", "greedy", "pimc"} <= set(agents)
        assert isinstance(agents["greedy"](), TrickGreedyAgent)
        assert isinstance(agents["pimc"](), TrickPimcAgent)
        assert not any(name.startswith("generic-") for name in agents)


def test_a_game_with_its_own_agents_keeps_the_generic_ones_under_generic_names():
    agents = agents_of("tressette3")
    assert {"random", "greedy", "pimc", "selfplay", "generic-random", "generic-greedy",
            "generic-pimc", "openspiel-ismcts"} == set(agents)
    assert isinstance(agents["generic-pimc"](), TrickPimcAgent)
    assert not isinstance(agents["pimc"](), TrickPimcAgent)


def test_a_game_without_trick_facts_gets_no_greedy_nor_pimc():
    import dataclasses
    bare = dataclasses.replace(get("toy"), name="bare", trick=None, agents=None, worlds=None)
    assert set(agents_of(bare)) == {"random", "openspiel-ismcts"}
    with pytest.raises(ValueError, match="no trick facts"):
        TrickGreedyAgent(bare)
    no_worlds = dataclasses.replace(get("mediatore"), name="bare", worlds=None, agents=None)
    assert "pimc" not in agents_of(no_worlds) and "greedy" in agents_of(no_worlds)


def test_a_move_that_plays_no_card_is_the_lowest_legal_one():
    """Mediatore's auction: the generic agents pass (id 0); Tressette with claims: they play
    a card rather than claim."""
    deal = get("mediatore").new_game()
    deal.deal(shuffled_pack(1, 0))
    view = deal.view(deal.to_move)
    assert generic("mediatore", "greedy").act(None, view) == min(view.legal_moves()) == 0
    game = get("tressette2").new_game(get("tressette2").make_rules(claim=True))
    game.deal(shuffled_pack(2, 0))
    view = game.view(game.to_move)
    assert 40 in view.legal_moves()
    assert generic("tressette2", "greedy").act(None, view) < 40
    assert fast_pimc("tressette2").act(None, view) < 40


def test_options_are_checked():
    with pytest.raises(ValueError, match="solve_at"):
        generic("toy", "pimc", solve_at=-1)
    with pytest.raises(ValueError, match="time_limit"):
        generic("toy", "pimc", time_limit=0)
    assert generic("toy", "pimc", max_worlds=8).max_worlds == 8
    assert generic("toy3", "pimc").solve_at == 27 and generic("toy", "pimc", solve_at=0).solve_at == 0
