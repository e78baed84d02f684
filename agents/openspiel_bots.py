"""Agents both ways between this project and OpenSpiel (docs/openspiel.md): any OpenSpiel bot
as an agent of the tournaments (:class:`OpenSpielAgent`, registered as ``openspiel-ismcts``:
OpenSpiel's Python IS-MCTS), and any agent of this project as an OpenSpiel bot
(:class:`AgentBot`). Needs the ``openspiel`` extra.

An OpenSpiel bot reads a state; an agent is given only its seat's view. So the agent rebuilds
the game's state from the packs and moves of the game behind the view, and hands the bot a
state resampled from the seat's information (``resample_from_infostate``): the cards the seat
cannot see are dealt again at random, and the bot never sees them::

    >>> from mediatore_env.mediatore.game import Deal
    >>> agent = ISMCTSAgent(simulations=20)
    >>> agent.reset(seed=1)
    >>> deal = Deal(dealer=3, pack=list(range(40)))
    >>> agent.act(None, deal.view(0)) in deal.legal_moves()
    True
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from agents.base import Agent, ask, reset_agent
import mediatore_env.openspiel  # noqa: F401  (registers the games with OpenSpiel)
from mediatore_env.registry import GAMES


def definition_of_view(view):
    """The definition of the game a view is of: the definition whose rules class and fixed
    switches the view's rules have."""
    for definition in GAMES.values():
        if definition.has_rules(view.rules):
            return definition
    raise ValueError(f"no registered game has rules {view.rules!r}")


def _engine_of(view):
    """The game behind a view, which every view of the family keeps as ``_game`` (its packs
    and moves rebuild the state; what the seat cannot see is dealt again before a bot looks)."""
    engine = getattr(view, "_game", None)
    if engine is None:
        raise ValueError(f"not a view of a game of the family: {view!r}")
    return engine


def spiel_state(engine, game: pyspiel.Game) -> pyspiel.State:
    """The OpenSpiel state of ``engine`` (a game of the family): its packs as chance actions,
    card by card, and its moves."""
    packs = iter(engine.packs)
    state = game.new_initial_state()
    for _, move in engine.history:
        while state.is_chance_node():
            for card in next(packs):
                state.apply_action(card)
        state.apply_action(move)
    while state.is_chance_node():
        pack = next(packs, None)
        if pack is None:
            break
        for card in pack:
            state.apply_action(card)
    return state


class OpenSpielAgent(Agent):
    """An OpenSpiel bot as an agent: ``make_bot(game, seat, rng)`` builds the bot of a seat
    (once per game and seat); each move, the bot steps on a state resampled from the seat's
    information."""

    wants_observation = False

    def __init__(self, make_bot):
        self.make_bot = make_bot
        self.rng = np.random.RandomState()
        self.bots = {}

    def reset(self, seed=None):
        self.rng = np.random.RandomState(None if seed is None else seed % 2 ** 32)
        self.bots = {}

    def act(self, observation, view):
        definition = definition_of_view(view)
        engine = _engine_of(view)
        params = {**engine.rules.to_dict(), "dealer": engine.first_dealer}
        for name, value in definition.fixed.items():
            params.pop(name)
        params = {k: (0 if v is None else v) for k, v in params.items()}
        game = pyspiel.load_game(definition.name, params)
        seat = view.seat
        key = (definition.name, tuple(sorted(params.items())), seat)
        if key not in self.bots:
            self.bots[key] = self.make_bot(game, seat, self.rng)
        real = spiel_state(engine, game)
        sampler = random.Random(int(self.rng.randint(2 ** 31)))
        state = real.resample_from_infostate(seat, sampler.random)
        move = self.bots[key].step(state)
        return int(move)


class ISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's Python IS-MCTS bot (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, the
    same arguments and the same search) with the two things it lacks:

    - **Seeded whole by** ``random_state``. OpenSpiel's bot draws its worlds through
      ``pyspiel.UniformProbabilitySampler``, which seeds itself from the system's entropy, so
      the same ``random_state`` gave other moves on every run; here the worlds are drawn from
      ``random_state`` too.
    - **restart_at**, so that ``open_spiel.python.algorithms.evaluate_bots`` runs it (pyspiel's
      ``Bot.restart_at`` raises "RestartAt(state) not implemented"). The bot searches afresh
      from the state it is given at every step, so there is nothing to restart.
    """

    def __init__(self, game, evaluator, uct_c, max_simulations, **options):
        super().__init__(game, evaluator, uct_c, max_simulations, **options)
        draw = self._random_state.uniform  # the bot's own generator, set or made by OpenSpiel
        self.set_resampler(lambda state, player: state.resample_from_infostate(player, draw))

    def restart_at(self, state):
        pass


class ISMCTSAgent(OpenSpielAgent):
    """OpenSpiel's Python IS-MCTS (:class:`ISMCTSBot`) as an agent: ``simulations`` per move,
    one random rollout per leaf, UCT constant ``uct_c``, worlds drawn by the game's world sampler
    (``resample_from_infostate``). Every draw comes from the generator that :meth:`reset` seeds
    (the tournament seeds each play), so the same seed gives the same moves."""

    def __init__(self, simulations: int = 100, uct_c: float = 2.0, rollouts: int = 1):
        self.simulations = simulations

        def make_bot(game, seat, rng):
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rng)
            return ISMCTSBot(game, evaluator, uct_c, max_simulations=simulations,
                             random_state=rng)

        super().__init__(make_bot)


class AgentBot(pyspiel.Bot):
    """An agent of this project as an OpenSpiel bot: at each step it is shown its seat's view
    of the state's game (and, if it wants one, the environment's observation)."""

    def __init__(self, agent: Agent, seed: int | None = None):
        pyspiel.Bot.__init__(self)
        self.agent = agent
        reset_agent(agent, seed)

    def step(self, state):
        view = state.table.engine.view(state.current_player())
        return int(ask(self.agent, view, definition_of_view(view).observation))

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass


__all__ = ["OpenSpielAgent", "ISMCTSAgent", "ISMCTSBot", "AgentBot", "spiel_state",
           "definition_of_view"]
