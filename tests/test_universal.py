"""The universal random-simulation test, as OpenSpiel's ``random_sim_test``: every game of the
registry (mediatore_env/registry.py; the toy game of tests/toy_game too, registered by
tests/conftest.py) is played at random under a spread of its rules switches, and the game
interface (mediatore_env/core/game.py) is checked at every step, from the definition's
parts alone. A game registered tomorrow is covered with no change here.

At every step:

- chance one way: ``to_move == CHANCE`` exactly when ``needs_pack``; then there is no legal
  move and a move is refused, and the JSON round trip waits for the pack too; ``deal(pack)``
  is refused at any other time, state unchanged;
- the dealer: ``first_dealer`` the seat given; ``dealer`` the dealer of the hand on the table
  (the one just ended while the next waits for its pack), changed by a pack, never by a
  move, and the same in every seat's view;
- legal moves only: ``legal_moves()`` distinct, empty exactly at chance and at the
  end, and ``is_legal`` agrees on every id of ``moves.count``; a move not among them (an
  id, or a float) is refused with ``ValueError``, ``to_json()`` unchanged; each move made is
  appended to ``history`` with its seat;
- copies: ``clone()`` is equal, and moving it leaves the original as it was;
  ``from_json(to_json())`` (through JSON text) is equal;
- each seat's observation (the definition's ``observation(view)``) has a fixed shape, float32
  values in [0, 1] and an int8 mask of that seat's legal moves (its view's, which counts the
  moves made too); where the game has a plain
  reference writer (``reference_observation``) the vector is equal to its, bit for bit.

At the end the outcome has one result per seat and sums to zero. Apart: the record replays to
an equal game (``type(game).replay(game.record())``); a seat cannot tell apart two games that
differ only in two cards it cannot see (the leak check below); and each game's environment
observes as its writer does, the incremental encoders of the environments included; and the
generic environment made from the definition alone passes PettingZoo's API test.

What is a game's own (its rules: scoring, signals, melds, chips) is tested in its own files
(tests/test_simulation.py, test_tressette_simulation.py, test_club_simulation.py, ...).
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import re

import numpy as np
import pytest
from pettingzoo.test import api_test

from mediatore_env.core.cards import CARD_NAMES, power_of
from mediatore_env.core.game import CHANCE
from mediatore_env.registry import replay
from mediatore_env.envs.base import environment_module, make_env
from mediatore_env.registry import GAMES, get

NAMES = sorted(GAMES)
#: How many moves of each registered game the default run plays (in whole games, at least
#: four), and ``-m slow`` plays.
MOVES, SLOW_MOVES = 2500, 40000


# -- the rules and the players ----------------------------------------------------------------

def switch_values(definition) -> dict[str, tuple]:
    """Each switch the game does not fix, with values to try: a choice's every value, a
    count's default and two more (club's ``deals``: until a pot is won, 1 or 3 deals)."""
    return {s.name: s.choices or (s.default, s.minimum, s.minimum + 2)
            for s in definition.rules.switches() if s.name not in definition.fixed}


def spread_of_rules(definition, rng: random.Random):
    """Rules without end: the definition's default first, then each switch set at random (a rule
    set the rules refuse, such as a two-handed switch at four, is drawn again)."""
    values = switch_values(definition)
    yield definition.make_rules()
    while True:
        try:
            yield definition.make_rules(**{k: rng.choice(v) for k, v in values.items()})
        except ValueError:
            continue


def games(definition, rng, moves: int, least: int = 4):
    """Rules of the spread for games to play until ``moves`` moves are made (``least`` games
    at the least): send each game's number of moves back."""
    made = 0
    for count, rules in enumerate(spread_of_rules(definition, rng)):
        if made >= moves and count >= least:
            return
        made += yield rules


def random_pack(rng: random.Random) -> list[int]:
    return rng.sample(range(40), 40)


# -- checks at every step ---------------------------------------------------------------------

def as_json(game) -> dict:
    return json.loads(json.dumps(game.to_json()))


def check_chance(game, moves):
    assert (game.to_move == CHANCE) == game.needs_pack
    before = game.to_json()
    if game.needs_pack:
        assert game.legal_moves() == [] and not game.is_over and game.outcome is None
        with pytest.raises(ValueError):
            game.apply(0)
        # A game waiting for a pack waits again once rebuilt (club's did not: it drew one).
        assert type(game).from_json(as_json(game)) == game
    else:
        with pytest.raises(ValueError, match="no pack is needed now"):
            game.deal(list(range(40)))
    assert game.to_json() == before


def check_legal(game, moves, rng):
    legal = game.legal_moves()
    assert len(set(legal)) == len(legal)
    assert bool(legal) == (game.to_move not in (None, CHANCE))
    # In a game's own order (Mediatore's: strongest card first within a suit), which the
    # seeded agents read, so it is the game's to keep.
    assert [m for m in range(moves.count) if game.is_legal(m)] == sorted(legal)
    before = game.to_json()
    illegal = [m for m in range(moves.count) if m not in legal]
    for bad in [rng.choice(illegal)] if illegal else []:
        with pytest.raises(ValueError):
            game.apply(bad)
    for bad in (float(legal[0]) if legal else 0.5, moves.count, -1):
        with pytest.raises(ValueError):
            game.apply(bad)
    assert game.to_json() == before


def check_copies(game, move):
    """Clone equal and independent; the JSON round trip equal. Returns the clone, moved."""
    engine = type(game)
    assert engine.from_json(as_json(game)) == game
    twin, before = game.clone(), game.to_json()
    assert twin == game
    twin.apply(move)
    assert game.to_json() == before and twin != game
    return twin


def check_observations(game, definition, sizes):
    reference = definition.reference_observation
    for seat in range(game.players):
        view = game.view(seat)
        obs = definition.observation(view)
        vector, mask = obs["observation"], obs["action_mask"]
        assert vector.dtype == np.float32 and mask.dtype == np.int8
        assert sizes.setdefault("observation", vector.shape) == vector.shape
        assert 0.0 <= vector.min() and vector.max() <= 1.0
        legal = game.legal_moves() if seat == game.to_move else []
        assert np.flatnonzero(mask).tolist() == sorted(legal) and view.legal_moves() == legal
        assert view.move_count == len(game.history)
        if reference is not None:
            assert np.array_equal(vector, reference(view)), f"seat {seat}: not the plain writer's"


def play(definition, rules, rng, every_step=True):
    """One game of ``rules`` at random, checked at every step; returns the game and its events
    (``("pack", pack)`` and ``("move", seat, move)``, in order)."""
    moves = definition.moves
    first = rng.randrange(definition.players)
    game = definition.new_game(rules, dealer=first)
    assert game.players == definition.players and game.rules == rules
    events, sizes = [], {}
    while not game.is_over:
        if every_step:
            check_chance(game, moves)
        if game.needs_pack:
            if every_step:  # what each seat observes while the pack is awaited (OpenSpiel's)
                check_observations(game, definition, sizes)
            pack = random_pack(rng)
            game.deal(pack)
            events.append(("pack", pack))
            continue
        if every_step:
            check_legal(game, moves, rng)
            check_observations(game, definition, sizes)
        seat, move = game.to_move, rng.choice(game.legal_moves())
        twin = check_copies(game, move) if every_step else None
        dealer = game.dealer
        game.apply(move)
        assert game.history[-1] == (seat, move)
        # the dealer of the hand on the table, the one just ended too: a pack passes the deal
        # on, a move never does; every seat's view names him
        assert game.dealer == dealer and game.first_dealer == first
        assert all(game.view(s).dealer == dealer for s in range(game.players))
        events.append(("move", seat, move))
        if twin is not None:
            assert twin == game  # the same move from the same state: the same state
    check_chance(game, moves)
    check_legal(game, moves, rng)
    check_observations(game, definition, sizes)
    assert game.to_move is None and game.legal_moves() == []
    outcome = game.outcome
    assert len(outcome) == game.players and sum(outcome) == 0
    assert type(game).from_json(as_json(game)) == game
    return game, events


def run(name: str, moves: int, seed: str, every: int = 1) -> None:
    """Random games of ``name`` for ``moves`` moves, every ``every``-th checked at every step;
    every value a switch can take in this form of the game is played."""
    definition = get(name)
    rng = random.Random(seed)
    schedule, played, made = games(definition, rng, moves), [], None
    while True:
        try:
            rules = schedule.send(made)
        except StopIteration:
            break
        game, _ = play(definition, rules, rng, every_step=len(played) % every == 0)
        played.append(rules)
        made = len(game.history)
    drawn = list(itertools.islice(spread_of_rules(definition, random.Random(0)), 500))
    for switch in switch_values(definition):  # those a rule set of this form can have
        assert {getattr(r, switch) for r in played} == {getattr(r, switch) for r in drawn}


@pytest.mark.parametrize("name", NAMES)
def test_random_games(name):
    run(name, MOVES, seed=name)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_many_random_games(name):
    run(name, SLOW_MOVES, seed=name + " slow", every=4)


# -- records ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_records_replay_to_an_equal_game(name):
    definition = get(name)
    engine = definition.engine
    rng = random.Random(name + " records")
    for rules, _ in zip(spread_of_rules(definition, rng), range(6)):
        game, _ = play(definition, rules, rng, every_step=False)
        record = json.loads(json.dumps(game.record(seed="x")))
        assert record["meta"] == {"seed": "x"}
        assert (record["format"], record["game"]) == ("mediatore-env-record", name)
        assert engine.replay(record) == game == replay(record)
        # A record whose moves stop short of its result is refused.
        bad = copy.deepcopy(record)
        last_moves(bad).pop()
        with pytest.raises(ValueError):
            engine.replay(bad)


def last_moves(record):
    """The last non-empty list of moves in a record (a game's, or its last deal's or hand's)."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "moves" and isinstance(value, list) and value:
                    found.append(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)
    walk(record)
    return found[-1]


# -- the leak check ---------------------------------------------------------------------------

def replayed(definition, rules, dealer, events, hand, swap):
    """The game of ``events`` with cards ``swap`` exchanged in the ``hand``-th pack, stepped in
    lockstep with the game itself: yields both games at each step of that hand (from its deal
    to the next chance or the end), stopping early at a move that names one of the two cards
    (the move shows it) or that the swapped game refuses."""
    a, b = swap
    names = {CARD_NAMES[a], CARD_NAMES[b]}
    text = definition.moves.text
    game, other = definition.new_game(rules, dealer), definition.new_game(rules, dealer)
    packs = -1
    for event in events:
        if event[0] == "pack":
            packs += 1
            if packs > hand:
                return
            pack = event[1]
            swapped = [b if c == a else a if c == b else c for c in pack] if packs == hand else pack
            game.deal(pack)
            other.deal(swapped)
        else:
            _, seat, move = event
            if packs == hand and (set(text(move).split()) & names or not other.is_legal(move)):
                return
            game.apply(move)
            other.apply(move)
        if packs == hand:
            yield game, other


def check_no_leak(definition, rules, dealer, events, rng, counts, observe=None):
    """Two cards of the same hand, held by two seats, swapped in the pack: every other seat
    sees the same observations, step by step through that hand, while the moves made stay
    legal and name neither card; the two holders see their hands differ. Only cards that no
    automatic event of the family shows (no ace, 2 or 3: Tressette's melds show those) are
    swapped, so only a leak can tell the games apart. ``observe``: the game's writer unless
    given."""
    observe = observe or definition.observation
    hands = sum(e[0] == "pack" for e in events)
    hand = rng.randrange(hands)
    game = definition.new_game(rules, dealer)
    dealt = -1
    for event in events:  # the hands as dealt: each seat's view of them right after the deal
        if event[0] == "pack":
            dealt += 1
            game.deal(event[1])
            if dealt == hand:
                break
        else:
            game.apply(event[2])
    held = [[c for c in range(40) if game.view(s).hand >> c & 1 and power_of(c) < 7]
            for s in range(definition.players)]
    holders = [s for s in range(definition.players) if held[s]]
    if len(holders) < 3:  # two holders and an observer
        return
    first, second = rng.sample(holders, 2)
    swap = rng.choice(held[first]), rng.choice(held[second])
    observers = [s for s in range(definition.players) if s not in (first, second)]
    for step, (game, other) in enumerate(replayed(definition, rules, dealer, events, hand, swap)):
        for seat in observers:
            mine, theirs = observe(game.view(seat)), observe(other.view(seat))
            assert np.array_equal(mine["observation"], theirs["observation"]), \
                f"leak: seat {seat} sees {swap} swapped between seats {first} and {second}"
            assert np.array_equal(mine["action_mask"], theirs["action_mask"])
            counts["same"] += 1
        if step == 0:
            for seat in (first, second):
                assert not np.array_equal(observe(game.view(seat))["observation"],
                                          observe(other.view(seat))["observation"])
            counts["holders"] += 1


def check_leaks(name, games=20, observe=None):
    definition = get(name)
    rng = random.Random(name + " leaks")
    counts = {"same": 0, "holders": 0}
    for rules, _ in zip(spread_of_rules(definition, rng), range(games)):
        dealer = rng.randrange(definition.players)
        game = definition.new_game(rules, dealer)
        events = []
        while not game.is_over:
            if game.needs_pack:
                events.append(("pack", random_pack(rng)))
                game.deal(events[-1][1])
            else:
                events.append(("move", game.to_move, rng.choice(game.legal_moves())))
                game.apply(events[-1][2])
        for _ in range(3):
            check_no_leak(definition, rules, dealer, events, rng, counts, observe)
    assert counts["holders"] >= 20 and counts["same"] >= 100, counts


@pytest.mark.parametrize("name", NAMES)
def test_a_seat_cannot_tell_apart_cards_it_cannot_see(name):
    if get(name).players < 3:
        pytest.skip("two seats: no third seat to watch two others' cards swapped")
    check_leaks(name)


class PlantedLeak:
    """The toy's writer with the next seat's hand written in too: what the check must catch."""

    def __init__(self, observe):
        self.observe = observe

    def __call__(self, view):
        obs = self.observe(view)
        game = view._game
        obs["observation"][:40] += [game.hands[(view.seat + 1) % game.players] >> c & 1
                                    for c in range(40)]
        return obs


def test_the_leak_check_catches_a_planted_leak():
    with pytest.raises(AssertionError, match="leak: seat"):
        check_leaks("toy3", observe=PlantedLeak(get("toy3").observation))


# -- the environments -------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_the_environment_observes_as_the_writer(name):
    """Each game's PettingZoo environment (the definition's ``env`` module) played at random: every
    agent's observation at every step is the writer's on that agent's view, so the
    environments' incremental encoders write what the plain writers do; an episode ends with
    every agent done and rewards summing to zero."""
    definition = get(name)
    observe = definition.observation
    env = environment_module(definition).raw_env()
    rng = np.random.default_rng(0)
    for episode in range(2):
        env.reset(seed=episode)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            for each in env.possible_agents:
                got, want = env.observe(each), observe(env.view(each))
                assert np.array_equal(got["observation"], want["observation"]), each
                assert np.array_equal(got["action_mask"], want["action_mask"]), each
            observation, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        assert abs(sum(totals.values())) < 1e-9


@pytest.mark.parametrize("name", NAMES)
def test_an_environment_keeps_at_most_30_attributes(name):
    """Speed (mediatore_env.envs.base.GameEnv): CPython keeps an instance's attributes in a
    table shared by its class while there are at most 30 of them; past that every attribute
    read of every step is a dict lookup, about 3% of a step. Counted after a whole episode,
    when every attribute a step sets exists."""
    env = environment_module(name).raw_env()
    env.reset(seed=0)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated
                 else int(np.flatnonzero(observation["action_mask"])[0]))
    assert len(vars(env)) <= 30, sorted(vars(env))


@pytest.mark.filterwarnings("ignore::UserWarning")  # PettingZoo's advice on Dict spaces
@pytest.mark.parametrize("name", NAMES)
def test_the_generic_environment_serves_every_game(name):
    """:class:`~mediatore_env.envs.base.GameEnv`, made from the definition alone, passes
    PettingZoo's API test for every game: the interface is all an environment needs."""
    api_test(make_env(name), num_cycles=200)


@pytest.mark.parametrize("name", NAMES)
def test_a_refused_reset_changes_neither_the_episode_nor_the_next_one(name):
    """Every environment checks its options before it takes the seed: a reset refused for its
    options leaves the game in play and the generator as they were, so the next reset deals
    what it would have dealt."""
    env_module = environment_module(name)
    refused, plain = env_module.raw_env(), env_module.raw_env()
    refused.reset(seed=1)
    plain.reset(seed=1)
    before = refused.game.to_json()
    for options in ({"dealer": 7}, "player_0"):
        with pytest.raises(ValueError):
            refused.reset(seed=2, options=options)
        assert refused.game.to_json() == before
    refused.reset()
    plain.reset()
    assert refused.game.to_json() == plain.game.to_json()


@pytest.mark.parametrize("name", NAMES)
def test_every_game_checks_a_seat_alike(name):
    """A view's seat is checked once for every game (core.game.seat_of): a bool, a float or a
    seat past the last is refused naming the valid seats; a numpy integer is a seat."""
    definition = get(name)
    game = definition.new_game(definition.make_rules())
    valid = ", ".join(map(str, range(definition.players)))
    for bad in (True, 1.0, definition.players, -1, "0"):
        with pytest.raises(ValueError, match=f"bad seat {bad!r}; valid: {valid}$"):
            game.view(bad)
    seat = game.view(np.int64(1)).seat
    assert seat == 1 and type(seat) is int


@pytest.mark.parametrize("name", NAMES)
def test_every_game_refuses_a_move_text_that_is_no_text_alike(name):
    """A game's parse_move (its definition's moves.parse) answers a value that is no text
    (None, a move id) with the ValueError naming it and the moves it reads, as it answers a
    bad text, not with an AttributeError; apply_text of it changes nothing."""
    definition = get(name)
    game = definition.new_game(definition.make_rules())
    game.deal(range(40))
    before = game.to_json()
    for bad in (None, 5, 1.5, b"pass", ["pass"]):
        with pytest.raises(ValueError, match=re.escape(repr(bad))):
            definition.moves.parse(bad)
        with pytest.raises(ValueError, match=re.escape(repr(bad))):
            game.apply_text(bad)
        assert game.to_json() == before
