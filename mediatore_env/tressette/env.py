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

from .observation import Encoder, layout_of
from .rules import FORM_OF_PLAYERS
from .view import TressetteView
from ..envs.base import GameEnv

__all__ = ["TressetteAEC", "REWARDS", "page"]

REWARDS = ("game", "hand")


#: What the three environments' pages say alike, from "Observation Space" on (the modules'
#: docstrings are their pages, written out as docs/environment-*.md): the form's parts are
#: fields, its observation table comes from its layout.
_PAGE_TAIL = """## Observation Space

The observation is a dictionary with an `'observation'` element, the float32 vector of what
the agent's seat knows, and an `'action_mask'` (int8, 41) of its legal actions.

The vector is seat-relative (the observer is relative seat 0, the next to play after it 1, ...)
and holds everything that seat knows and nothing else: its hand, every trick of the hand card
by card with who led and who won, the melds declared with their cards, the scores, the
dealer, whose turn it is, the rules switches, and the earlier hands of the game as their
points and melds. It is written by `mediatore_env.tressette.observation` from the seat's
`TressetteView` alone (docs: that module; `layout_of({players}).table()` prints this table).
{size} floats in [0, 1]:

{table}

Card ids are `suit * 10 + power` (suits D, C, S, B; powers 4 5 6 7 F C R A 2 3, weakest
first).

### Legal Actions Mask

The legal actions of the agent to play are the 1s of its `action_mask`; the mask is all zeros
for every other agent. With `raw_env()` an illegal action raises `ValueError` naming it and
the legal actions, and changes nothing; with `env()`, as with PettingZoo's standard wrappers,
it ends the episode with `illegal_reward` (-1) to the offender and 0 to the others. Actions
are integers (a Python or numpy integer, a 0-d or 1-element integer array); bools, floats,
strings and ids out of range are refused (`mediatore_env.codec.actions.as_move`).

## Action Space

`Discrete(41)`, the engine's move ids (`mediatore_env.tressette.moves`; `move_text(id)` and
`parse_move(text)` turn them into text and back):

| ids | action | text |
|---|---|---|
| 0 - 39 | play card `id` (`suit * 10 + power`) | `D3`, `SA` |
| 40 | claim the game (legal only with `claim=True`, on one's turn) | `claim` |

A player must follow suit when it can (the mask says which cards); melds are declared by the
environment after the first trick (compulsory){draws}, and the next hand
is dealt by it: every decision is a card to play or a claim.

## Rewards

{game_reward}

`reward="hand"` (shaping): the same outcome at the end, plus at the end of each hand (and
when the game ends in the middle of one, for its points so far) the difference in hand points:
the agent's side's points in the hand minus {others}, negated in Low Hand
(fewer points are better there). Also zero-sum.

At the end `infos[agent]` holds `{{"outcome": ..., "totals": [...]}}`. Rewards go through the
standard `rewards` / `_cumulative_rewards` machinery, so `last()` returns an agent's rewards
since it last acted.

## Other attributes and options

`env.unwrapped` (the `raw_env`) has `game` (the engine's `TressetteGame`), `view(agent)` (that
seat's `TressetteView`) and `record` (the game's record once over: `TressetteGame.replay`
replays it bit for bit).

`reset(seed=None, options=None)`: a seed fixes the first dealer and the packs (the same seed,
the same game for the same actions). The options `{{"packs": [pack, ...], "dealer": d}}` replay
a given game: the first hands are dealt from the packs given (40 cards each, ids or texts such
as `"D3"`), any further hand from the seeded generator; the dealer as a seat or an agent name
(give it with the packs: the hands depend on it; without it the generator draws it).
A bad value raises `ValueError`; an unknown option is ignored with a warning.

`env()` is `raw_env` in `ProtectedEnv` (`mediatore_env.envs.wrappers`), which behaves as
PettingZoo's standard wrapper chain in one layer; `standard_wrapped_env()` builds the chain.
The end of an episode and copies (`copy.deepcopy`, `pickle`, at any point) behave as in
`mediatore_v0` (`mediatore_env.envs.base`). Random legal play through `env()` runs at about
20,000 decisions per second of CPU time (`python benchmarks/bench_tressette_env.py`, on a
shared AMD EPYC core).

## Version History

* v0: Initial release.
"""


def page(head: str, players: int, game_reward: str) -> str:
    """The page of the Tressette environment for ``players`` seats: ``head`` (its own text,
    from the title to its switches), then the sections every form shares, with its observation
    table and ``game_reward`` (the paragraph on ``reward="game"``)."""
    layout = layout_of(players)
    return head + _PAGE_TAIL.format(
        players=players, size=layout.size, table=layout.table(), game_reward=game_reward,
        draws=", the draws are made by it too" if players == 2 else "",
        others="the mean of the other two players'" if players == 3 else "the other side's")


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

    def view(self, agent) -> TressetteView:
        """The :class:`~mediatore_env.tressette.view.TressetteView` of ``agent``'s seat."""
        return super().view(agent)

    # -- steps --------------------------------------------------------------------------------

    def _rewards(self) -> list:
        """The outcome at the end; with ``reward="hand"`` first the shaping of the hand that
        the move ended (or, if it ended the game, of its points so far)."""
        game = self.game
        out = []
        if self.reward == "hand":
            out.append(self._hand_rewards(game.log[-1]))  # the next hand is not dealt yet
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
