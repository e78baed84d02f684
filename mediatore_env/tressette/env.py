"""What the three Tressette environments share (``tressette_v0``, ``tressette3_v0``,
``tressette2_v0``): one PettingZoo AEC environment of a game to 31, for a given number of
players. Each module subclasses :class:`TressetteAEC` with its form and documents it.

An episode is one game to 31 (docs/rules.md 10.1-10.2) over as many hands as it takes; the
packs come from the environment's generator, or from ``reset(options={"packs": [...]})``.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..codec.actions import illegal_action_message
from .display import table_text
from .observation import Encoder, layout_of
from ..core.cards import validate_pack
from ..core.game import CHANCE
from .game import TressetteGame, random_pack
from .moves import NUM_MOVES, move_text
from .rules import TressetteRules
from .view import TressetteView
from ..envs.base import GameAEC, dealer_option

__all__ = ["TressetteAEC", "REWARDS"]

_INT8 = np.dtype(np.int8)
REWARDS = ("game", "hand")


class TressetteAEC(GameAEC):
    """A game of Tressette to 31 as a PettingZoo AEC environment (see the modules' pages).

    Subclasses set ``players``, ``switches`` (the rules switches their users may set) and
    ``metadata["name"]``."""

    players: int = 4
    switches: tuple[str, ...] = ("low", "claim")
    metadata = {"render_modes": ["ansi", "human"], "name": "tressette_v0",
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, render_mode: str | None = None, reward: str = "game", **switches):
        super().__init__()
        name = self.metadata["name"]
        unknown = sorted(set(switches) - set(self.switches))
        if unknown:
            raise TypeError(f"unknown keyword argument(s) {', '.join(map(repr, unknown))} for "
                            f"{name}; valid: render_mode, reward, and the rules switches "
                            f"{', '.join(self.switches)}")
        self.rules = TressetteRules(players=self.players, **switches)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"bad render_mode {render_mode!r}; valid: None, "
                             + ", ".join(map(repr, self.metadata["render_modes"])))
        if reward not in REWARDS:
            raise ValueError(f"bad reward {reward!r}; valid: " + ", ".join(map(repr, REWARDS)))
        self.render_mode = render_mode
        self.reward = reward
        agents = tuple(f"player_{i}" for i in range(self.players))
        self._agents = agents
        self._seats = {agent: seat for seat, agent in enumerate(agents)}
        self._layout = layout_of(self.rules)
        self._set_spaces(agents, self._layout.size, NUM_MOVES)
        self._rng = np.random.default_rng()  # made now, so that copies share its future
        self.game: TressetteGame | None = None
        self._packs: list = []

    # -- episode ------------------------------------------------------------------------------

    def reset(self, seed=None, options=None):
        packs, dealer = self._read_options(options)  # first: bad options change nothing
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        if dealer is None:
            dealer = int(self._rng.integers(self.players))
        self._packs = packs
        self.game = TressetteGame(self.rules, dealer)
        self._views = [TressetteView(self.game, seat) for seat in range(self.players)]
        self._encoders = [Encoder(self.rules, seat) for seat in range(self.players)]
        self._deal_next()
        self._start_episode(self._agents[self.game.to_move])

    def _read_options(self, options):
        name = self.metadata["name"]
        if options is None:
            return [], None
        if not isinstance(options, dict):
            raise ValueError(f"options must be a dict (keys 'packs', 'dealer'), got {options!r}")
        unknown = sorted(set(options) - {"packs", "dealer"}, key=str)
        if unknown:
            warnings.warn(f"{name}.reset: ignoring unknown option(s) "
                          f"{', '.join(map(repr, unknown))}; known: 'packs', 'dealer'",
                          stacklevel=3)
        packs = options.get("packs")
        if packs is None:
            packs = []
        elif isinstance(packs, str) or not hasattr(packs, "__len__"):
            raise ValueError(f"bad packs {packs!r} in options: a list of packs, one per hand, "
                             "each 40 distinct cards (ids or texts such as 'D3')")
        else:
            checked = []
            for i, pack in enumerate(packs):
                try:
                    checked.append(validate_pack(pack))
                except ValueError as e:
                    raise ValueError(f"pack {i} in options: {e}") from None
            packs = checked
        dealer = dealer_option(options.get("dealer"), self._agents)
        return packs, dealer

    def _deal_next(self) -> None:
        """Deal the next hand: the next pack of the options, else one from the generator."""
        game = self.game
        number = game.hand_number
        pack = self._packs[number] if number < len(self._packs) else random_pack(self._rng)
        game.deal(pack)

    # -- observations -------------------------------------------------------------------------

    def observe(self, agent):
        seat = self._seats[agent]
        observation = self._encoders[seat].encode(self._views[seat]).copy()
        mask = np.zeros(NUM_MOVES, _INT8)
        if self.game.to_move == seat:
            mask[self.game.legal_moves()] = 1
        return {"observation": observation, "action_mask": mask}

    def view(self, agent) -> TressetteView:
        """The :class:`~mediatore_env.tressette.view.TressetteView` of ``agent``'s seat."""
        return self._views[self._seats[agent]]

    # -- steps --------------------------------------------------------------------------------

    def _refusal(self, action, agent: str) -> str:
        return illegal_action_message(action, agent, None, self.game.legal_moves(), NUM_MOVES,
                                      move_text)

    def play_if_legal(self, move: int) -> bool:
        """Play ``move`` (an id in range) for the agent to act and do the bookkeeping, if it is
        legal; return whether it was. An illegal move changes nothing."""
        game = self.game
        if not game.is_legal(move):
            return False
        agent = self.agent_selection
        hand = game.hand_number
        game._apply(move)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            for a in self.rewards:
                self.rewards[a] = 0.0
            self._rewarded = False
        hand_over = game.needs_pack or game.is_over
        if self.reward == "hand" and hand_over:
            self._give(self._hand_rewards(game.log[hand - 1]))
        if game.is_over:
            self._give(game.outcome)
            outcome = dict(zip(self._agents, game.outcome))
            for a in self._agents:
                self.infos[a] = {"outcome": outcome[a], "totals": list(game.totals)}
            self.terminations = dict.fromkeys(self.agents, True)
            self._deads_step_first()
        else:
            if game.needs_pack:
                self._deal_next()
            self.agent_selection = self._agents[game.to_move]
        if self.render_mode == "human":
            self.render()
        return True

    def _hand_rewards(self, log) -> list[float]:
        """Shaping (``reward="hand"``): each seat's side's points in the hand minus the mean of
        the other sides' (the difference, with two sides), negated in Low Hand. Zero-sum."""
        rules = self.rules
        points = log.points(rules)
        total, others = sum(points), rules.num_sides - 1
        sign = -1.0 if rules.low else 1.0
        return [sign * (points[s] - (total - points[s]) / others)
                for s in (rules.side_of(seat) for seat in range(self.players))]

    def _give(self, rewards) -> None:
        for agent, reward in zip(self._agents, rewards):
            self.rewards[agent] += float(reward)
            self._cumulative_rewards[agent] += float(reward)
        self._rewarded = True

    # -- records, rendering -------------------------------------------------------------------

    @property
    def record(self) -> dict | None:
        """The game record of the episode once the game is over (None before)."""
        game = self.game
        return game.record() if game is not None and game.is_over else None

    def _table_text(self) -> str:
        """The table as text: what the seat to play sees (the final table once it is over)."""
        game = self.game
        seat = game.to_move if game.to_move not in (None, CHANCE) else 0
        return table_text(self._views[seat], names=self._agents, title=self.metadata["name"])
