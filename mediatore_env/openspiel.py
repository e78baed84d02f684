"""Every game of the family as an OpenSpiel game: one adapter over the game interface
(:mod:`mediatore_env.core.game`), registered with ``pyspiel.register_game`` for every definition of
:data:`mediatore_env.registry.GAMES`, so that OpenSpiel's algorithms, bots and tests run on
Mediatore, the three Tressette forms and club Mediatore (docs/openspiel.md)::

    >>> import pyspiel, mediatore_env.openspiel          # registers the games
    >>> game = pyspiel.load_game("tressette3(low=true)")
    >>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
    (3, 41, 40)

Needs the ``openspiel`` extra (``pip install -e ".[openspiel]"``).

- The game's parameters are its rules switches (the definition's rules class, less the
  switches the definition fixes) and ``dealer``, the seat that deals first (default 0). Club's
  ``deals`` is an int here: 0 for the default, a session until a pot is won.
- Chance is the pack, card by card: while the engine waits for a pack (``to_move`` is
  ``CHANCE``), each chance outcome is the next card of the pack, uniform over the cards not yet
  drawn; the 40th card deals the pack to the engine. So a Tressette game or a club session has
  one such pack per hand or deal, and every pack is equally likely, as the engines' dealers
  make them.
- Actions are the game's move ids (its ``moves`` module: ``NUM_MOVES`` distinct actions), in
  the game's notation (``move_text``); a chance action reads ``deal D3``.
- Returns are the engine's ``outcome`` at the end (units, a game's result, chips), zero-sum;
  there are no rewards before.
- Observation tensor: the PettingZoo environment's observation of the seat, the same floats
  (the definition's observation writer). The information-state tensor is the same vector (it holds
  the deal in progress in full, and the earlier deals or hands as the environment sums them
  up); the information-state string is the perfect-recall key: the seat's cards as dealt in
  every deal, what it saw at the end of each earlier one, and the observation now.
- ``resample_from_infostate(player, sampler)``: the current deal dealt again as the player
  could imagine it, by the game's world sampler (the definition's ``worlds``), the earlier deals
  as they were (nothing in them changes what is to come).
- Games and states pickle, as OpenSpiel's own Python games do (so they travel to worker
  processes): ``pickle.loads(pickle.dumps(pyspiel.load_game("tressette3(low=true)")))``.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import pyspiel

from .core.cards import CARD_NAMES, NUM_CARDS, format_cards
from .core.game import CHANCE
from .core.definition import GameDef
from .registry import GAMES

#: The parameter that is not a rules switch: the seat that deals first.
DEALER = "dealer"


# -- parameters -------------------------------------------------------------------------------

def _switches(definition: GameDef) -> dict:
    """The definition's rules switches with their defaults, less the ones it fixes."""
    return {f.name: f.default for f in dataclasses.fields(definition.rules)
            if f.name not in definition.fixed}


def parameters(definition: GameDef) -> dict:
    """The game's parameters with their defaults: its rules switches (less the fixed ones),
    then ``dealer``. A switch whose default is None (club's ``deals``) is an int, 0 for None."""
    defaults = {name: 0 if default is None else default
                for name, default in _switches(definition).items()}
    return {**defaults, DEALER: 0}


def rules_of(definition: GameDef, params: dict):
    """The rules and the first dealer that OpenSpiel ``params`` name."""
    defaults = _switches(definition)
    switches = {name: None if defaults[name] is None and value == 0 else value
                for name, value in params.items() if name != DEALER}
    return definition.make_rules(**switches), params.get(DEALER, 0)


# -- the state ------------------------------------------------------------------------------

class Table:
    """The Python side of a state: the engine, the pack being drawn, and what perfect recall
    keeps of the deals so far. ``copy.deepcopy`` (OpenSpiel's clone) clones the engine."""

    def __init__(self, definition: GameDef, rules, dealer: int):
        self.name = definition.name
        self.engine = definition.new_game(rules, dealer)
        self.pack: list[int] = []
        #: the index in the state's history of each deal's first card
        self.deal_starts: list[int] = []
        #: by seat, a line per deal: its cards as dealt, and what it saw when the deal ended
        self.recall: list[list[str]] = [[] for _ in range(definition.players)]

    def __deepcopy__(self, memo):
        other = object.__new__(Table)
        other.name, other.engine = self.name, self.engine.clone()
        other.pack, other.deal_starts = self.pack[:], self.deal_starts[:]
        other.recall = [lines[:] for lines in self.recall]
        return other


class SpielState(pyspiel.State):
    """One game of the family in play, as an OpenSpiel state (see the module docstring)."""

    def __init__(self, game):
        super().__init__(game)
        self.table = Table(game.definition, game.rules, game.dealer)

    # -- the verbs -----------------------------------------------------------------------------

    def current_player(self):
        engine = self.table.engine
        if engine.is_over:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE if engine.to_move == CHANCE else engine.to_move

    def _legal_actions(self, player):
        return sorted(self.table.engine.legal_moves())  # Mediatore lists a card with its signals

    def chance_outcomes(self):
        drawn = set(self.table.pack)
        left = [card for card in range(NUM_CARDS) if card not in drawn]
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_action(self, action):
        table = self.table
        engine = table.engine
        if engine.to_move != CHANCE:
            engine.apply(int(action))
            return
        if action not in range(NUM_CARDS) or action in table.pack:  # before anything changes
            raise ValueError(f"bad chance action {action!r}: a card not dealt yet is expected "
                             f"({len(self.chance_outcomes())} left, ids 0-{NUM_CARDS - 1} "
                             "but those drawn)")
        if not table.pack:
            self._new_deal()
        table.pack.append(int(action))
        if len(table.pack) == NUM_CARDS:
            engine.deal(table.pack)
            table.pack = []
            for seat, lines in enumerate(table.recall):
                lines.append(f"dealt {format_cards(engine.view(seat).hand)}")

    def _new_deal(self):
        """A pack starts: what each seat saw of the deal before is kept for its recall."""
        table = self.table
        if table.deal_starts:
            for seat, lines in enumerate(table.recall):
                lines.append(f"saw {_tensor_text(self.observation_vector(seat))}")
        table.deal_starts.append(self.move_number())

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARD_NAMES[action]}"
        return _parts(self.table.name).moves.text(int(action))

    def is_terminal(self):
        return self.table.engine.is_over

    def returns(self):
        outcome = self.table.engine.outcome
        return [0.0] * self.num_players() if outcome is None else [float(x) for x in outcome]

    def __str__(self):
        """The engine's state in the game's notation (its ``to_json``), with the pack being
        drawn, if any."""
        data = self.table.engine.to_json()
        if self.table.pack:
            data["drawing"] = [CARD_NAMES[c] for c in self.table.pack]
        return json.dumps(data, separators=(",", ":"))

    # -- what a seat knows -----------------------------------------------------------------------

    def observation_vector(self, seat: int) -> np.ndarray:
        """The environment's observation vector of ``seat`` (the observation tensor)."""
        return _parts(self.table.name).codec(self.table.engine.view(seat))[
            "observation"]

    def observation_text(self, seat: int) -> str:
        """The table as ``seat`` sees it: the game's own table text."""
        return _parts(self.table.name).text(self.table.engine.view(seat))

    def information_state_text(self, seat: int) -> str:
        """``seat``'s perfect-recall key: its cards as dealt in every deal, what it saw at the
        end of each earlier deal, and its observation now (its non-zero entries)."""
        now = _tensor_text(self.observation_vector(seat))
        return "\n".join([f"seat {seat}", *self.table.recall[seat], f"now {now}"])

    def resample_from_infostate(self, player, sampler):
        """A state that ``player`` cannot tell from this one, drawn uniformly by the game's
        world sampler for the deal in progress (a pack being drawn: the unseen cards at
        random); the earlier deals as they were. ``sampler()`` draws uniform floats in [0, 1)
        (``pyspiel.UniformProbabilitySampler``, or any callable)."""
        table = self.table
        rng = _Draws(sampler)
        history = self.history()
        state = self.get_game().new_initial_state()
        if table.engine.to_move == CHANCE or not table.deal_starts:
            drawn = len(table.pack)
            for action in history[:len(history) - drawn]:
                state.apply_action(action)
            left = list(range(NUM_CARDS))
            for j in range(drawn):  # cards no seat has seen yet
                k = j + int(rng.random() * (NUM_CARDS - j))
                left[j], left[k] = left[k], left[j]
                state.apply_action(left[j])
            return state
        redeal = _parts(table.name).worlds
        pack, moves = redeal(table.engine.view(player), rng)
        for action in itertools.chain(history[:table.deal_starts[-1]], pack, moves):
            state.apply_action(action)
        return state


class _Draws:
    """An OpenSpiel sampler (a callable giving floats in [0, 1)) as a ``random()`` source."""

    def __init__(self, sampler):
        self.random = lambda: float(sampler())


def _tensor_text(vector: np.ndarray) -> str:
    """A vector as the text of its non-zero entries, ``index:value``: exact and short."""
    nonzero = np.flatnonzero(vector)
    return " ".join(f"{i}:{vector[i]:.6g}" for i in nonzero)


class Observer:
    """OpenSpiel's observer of a seat: the environment's observation vector, and the
    observation or the information-state text (``perfect_recall``)."""

    def __init__(self, size: int, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and (
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise ValueError("only a player's own observation is written (private_info "
                             "SINGLE_PLAYER with public_info)")
        self.perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SpielState, player: int) -> None:
        self.tensor[:] = state.observation_vector(player)

    def string_from(self, state: SpielState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_text(player)
        return state.observation_text(player)


# -- the games --------------------------------------------------------------------------------

class _Parts(NamedTuple):
    moves: object
    codec: object
    text: object
    worlds: object


@lru_cache(maxsize=None)
def _parts(name: str) -> _Parts:
    definition = GAMES[name]
    return _Parts(definition.moves, definition.observation, definition.display.table_text,
                  definition.worlds)


def game_type(definition: GameDef) -> pyspiel.GameType:
    """The OpenSpiel type of a definition's game."""
    return pyspiel.GameType(
        short_name=definition.name, long_name=definition.title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=definition.players, min_num_players=definition.players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameters(definition))


class SpielGame(pyspiel.Game):
    """A game of the family as an OpenSpiel game; :func:`register` makes one subclass per
    definition (``definition``)."""

    definition: GameDef

    def __init__(self, params=None):
        definition = self.definition
        params = {**parameters(definition), **(params or {})}
        rules, dealer = rules_of(definition, params)
        limits = definition.limits(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=definition.moves.count, max_chance_outcomes=NUM_CARDS,
            num_players=definition.players, min_utility=float(limits.min_utility),
            max_utility=float(limits.max_utility), utility_sum=0.0,
            max_game_length=limits.max_moves)
        super().__init__(game_type(definition), info, params)
        self.rules, self.dealer, self.limits = rules, dealer, limits
        probe = definition.new_game(rules, dealer)
        self.observation_size = _parts(definition.name).codec(probe.view(0))[
            "observation"].size

    def new_initial_state(self):
        return SpielState(self)

    def __reduce__(self):
        # pyspiel pickles a game as its class and game string, and unpickles it without calling
        # __init__ (no rules, no limits), and a class made by register() is no module's
        # attribute; so a game pickles as its string, loaded again through OpenSpiel's
        # registry. (pyspiel pickles a state as its game's string, its history and its
        # __dict__, so states need nothing more.)
        return load_game, (str(self),)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return Observer(self.observation_size, iig_obs_type, params)

    def max_chance_nodes_in_history(self):
        return NUM_CARDS * self.limits.max_deals


def load_game(text: str) -> SpielGame:
    """``pyspiel.load_game(text)`` with the games of this module registered: what an unpickled
    game is made by."""
    return pyspiel.load_game(text)


def register(definition: GameDef) -> type:
    """Register ``definition``'s game with OpenSpiel under its registry name; returns its class."""
    cls = type(f"{definition.name.title()}SpielGame", (SpielGame,), {"definition": definition})
    pyspiel.register_game(game_type(definition), cls)
    return cls


#: The games registered, by name.
SPIEL_GAMES = {name: register(definition) for name, definition in GAMES.items()}
