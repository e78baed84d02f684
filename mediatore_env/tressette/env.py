"""What the three Tressette environments share (``tressette_v0``, ``tressette3_v0``,
``tressette2_v0``): one PettingZoo AEC environment of a game to 31, for a given number of
players. Each module subclasses :class:`TressetteAEC` with its form and documents it.

An episode is one game to 31 (docs/rules.md 10.1-10.2) over as many hands as it takes; the
packs come from the environment's generator, or from ``reset(options={"packs": [...]})``.
Everything but Tressette's own is the generic environment's
(:class:`~mediatore_env.envs.base.GameEnv`: options, seeding, dealing, steps, records,
rendering); here are the incremental :class:`~.observation.Encoder` of each seat and the
``reward="hand"`` shaping.
"""

from __future__ import annotations

import numpy as np

from .observation import Encoder
from .moves import NUM_MOVES
from .rules import FORM_OF_PLAYERS
from .view import TressetteView
from ..envs.base import GameEnv

__all__ = ["TressetteAEC", "REWARDS"]

_INT8 = np.dtype(np.int8)
REWARDS = ("game", "hand")


class TressetteAEC(GameEnv):
    """A game of Tressette to 31 as a PettingZoo AEC environment (see the modules' pages).

    Subclasses set ``players``, ``switches`` (the rules switches their users may set) and
    ``metadata["name"]``."""

    players: int = 4
    switches: tuple[str, ...] = ("low", "claim")
    options = ("render_mode", "reward")
    metadata = {"render_modes": ["ansi", "human"], "name": "tressette_v0",
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, render_mode: str | None = None, reward: str = "game", **switches):
        super().__init__(FORM_OF_PLAYERS[self.players], render_mode, **switches)
        if reward not in REWARDS:
            raise ValueError(f"bad reward {reward!r}; valid: " + ", ".join(map(repr, REWARDS)))
        self.reward = reward

    def _new_game(self) -> None:
        self._encoders = [Encoder(self.rules, seat) for seat in range(self.players)]

    def _observation(self, seat: int) -> dict:
        observation = self._encoders[seat].encode(self._views[seat]).copy()
        mask = np.zeros(NUM_MOVES, _INT8)
        if self.game.to_move == seat:
            mask[self.game.legal_moves()] = 1
        return {"observation": observation, "action_mask": mask}

    def view(self, agent) -> TressetteView:
        """The :class:`~mediatore_env.tressette.view.TressetteView` of ``agent``'s seat."""
        return super().view(agent)

    # -- steps --------------------------------------------------------------------------------

    def _apply(self, move: int) -> None:
        self.game._apply(move)  # known to be legal: the engine's unchecked path

    def _progress(self) -> int:
        return self.game.hand_number

    def _rewards(self, hand: int) -> list:
        """The outcome at the end; with ``reward="hand"`` first the shaping of the hand that
        the move ended (or, if it ended the game, of its points so far)."""
        game = self.game
        out = []
        if self.reward == "hand" and (game.needs_pack or game.is_over):
            out.append(self._hand_rewards(game.log[hand - 1]))
        if game.is_over:
            out.append(game.outcome)
        return out

    def _infos(self) -> list[dict]:
        game = self.game
        return [{"outcome": outcome, "totals": list(game.totals)} for outcome in game.outcome]

    def _hand_rewards(self, log) -> list[float]:
        """Shaping (``reward="hand"``): each seat's side's points in the hand minus the mean of
        the other sides' (the difference, with two sides), negated in Low Hand. Zero-sum."""
        rules = self.rules
        points = log.points(rules)
        total, others = sum(points), rules.num_sides - 1
        sign = -1.0 if rules.low else 1.0
        return [sign * (points[s] - (total - points[s]) / others)
                for s in (rules.side_of(seat) for seat in range(self.players))]
