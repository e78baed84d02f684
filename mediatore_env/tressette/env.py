"""The three Tressette environments, one module: ``tressette_v0`` (Partnership Tressette),
``tressette3_v0`` (Three-Handed) and ``tressette2_v0`` (Two-Handed), each a PettingZoo AEC
environment of a game to 31 for its number of players.

An episode is one game to 31 (docs/rules.md 10.1-10.2) over as many hands as it takes; the
packs come from the environment's generator, or from ``reset(options={"packs": [...]})``.
Everything but Tressette's own is the generic environment's
(:class:`~mediatore_env.envs.base.GameEnv`: options, seeding, dealing, steps, records,
rendering; observing through encoders, :class:`~mediatore_env.envs.base.EncodedEnv`);
:class:`TressetteAEC` makes the incremental :class:`~.observation.Encoder` of each seat and
adds the ``reward="hand"`` shaping.

The forms differ in their definition (:mod:`.definition`), their switches and a few
paragraphs of their page, so each is made here from those: an environment module to its users
(:class:`~mediatore_env.envs.base.EnvironmentModule`: ``from mediatore_env import
tressette3_v0`` gives ``env()``, ``raw_env``, ``standard_wrapped_env()`` and the page as
``__doc__``, written out as docs/environment-tressette3_v0.md), registered with PettingZoo as
``mediatore/tressette3-v0``.
"""

from __future__ import annotations

import textwrap

from .definition import TRESSETTE, TRESSETTE2, TRESSETTE3
from .moves import NUM_MOVES, move_text, parse_move
from .observation import Encoder, layout_of
from .view import TressetteView
from ..core.definition import GameDef
from ..envs.base import EncodedEnv, EnvironmentModule
from ..envs.pages import env_page

__all__ = ["TressetteAEC", "REWARDS", "tressette_v0", "tressette3_v0", "tressette2_v0"]

REWARDS = ("game", "hand")


class TressetteAEC(EncodedEnv):
    """A game of Tressette to 31 as a PettingZoo AEC environment (see the forms' pages): the
    form of :attr:`definition`, with its :attr:`switches`. Each form's ``raw_env`` is a
    subclass that sets them and its name."""

    definition: GameDef = TRESSETTE
    switches: tuple[str, ...] = ("low", "claim")
    options = ("render_mode", "reward")
    metadata = {"render_modes": ["ansi", "human"], "name": "tressette_v0",
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, render_mode: str | None = None, reward: str = "game", **switches):
        super().__init__(self.definition, render_mode, **switches)
        if reward not in REWARDS:
            raise ValueError(f"bad reward {reward!r}; valid: " + ", ".join(map(repr, REWARDS)))
        self.reward = reward

    def _new_game(self) -> None:
        self._encoders = [Encoder(self.rules, seat) for seat in range(len(self.possible_agents))]

    def view(self, agent) -> TressetteView:
        """The :class:`~mediatore_env.tressette.view.TressetteView` of ``agent``'s seat."""
        return super().view(agent)

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
                for s in (rules.side_of(seat) for seat in range(len(self.possible_agents)))]


# -- the pages and the forms ------------------------------------------------------------------

#: What the three forms' pages say alike up to "Switches" (the modules' docstrings are their
#: pages, written out as docs/environment-*.md): the form's own parts are fields.
_PAGE_HEAD = """
# {title}

{intro}

{summary}

{seating}

An episode is one game to 31. The packs are a chance event: the environment shuffles one for
each hand from its generator, or takes them from `reset(options={{"packs": [...]}})`.

## Usage

```python
import numpy as np
from mediatore_env import {name}

env = {name}.env()
env.reset(seed=42)
rng = np.random.default_rng(0)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action = None
    else:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))  # a legal action
    env.step(action)
result = env.unwrapped.record["result"]
print(result["outcome"], result["totals"], result["end"], len(result["hands"]), "hands")
print([hand["points"] for hand in result["hands"]])
```

prints (a real run)

```
{printed}
```

{run}

## Arguments

```python
{signature}
```

The rules switches are keyword arguments (see Switches below); an unknown name raises
`TypeError`, a bad value `ValueError`. `reward`: `"game"` or `"hand"` (see Rewards).
`render_mode`: `None`, `"ansi"` (`render()` returns the table as the seat to play sees it) or
`"human"` (prints it after every step). `illegal_reward` (`env()` only): the offender's reward
for an illegal action.

## Switches

{switch_text}

"""

#: ... and from "Observation Space" on, with the form's observation table from its layout.
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

`reset(seed=None, options=None)`: a seed (an int >= 0; anything else is a `ValueError`
that changes nothing) fixes the first dealer and the packs (the same seed,
the same game for the same actions). The options `{{"packs": [pack, ...], "dealer": d}}` replay
a given game: the first hands are dealt from the packs given (40 cards each, ids or texts such
as `"D3"`), any further hand from the seeded generator; the dealer as a seat or an agent name
(give it with the packs: the hands depend on it; without it the generator draws it);
`{{"pack": pack}}` is the first hand's alone. A bad value raises `ValueError`; an unknown
option is ignored with a warning.

`env()` is `raw_env` in `ProtectedEnv` (`mediatore_env.envs.wrappers`), which behaves as
PettingZoo's standard wrapper chain in one layer; `standard_wrapped_env()` builds the chain.
The end of an episode and copies (`copy.deepcopy`, `pickle`, at any point) behave as in
`mediatore_v0` (`mediatore_env.envs.base`). Random legal play through `env()` runs at about
20,000 decisions per second of CPU time (`python benchmarks/bench_tressette_env.py`, on a
shared AMD EPYC core).

## Version History

* v0: Initial release.
"""


def _form(definition: GameDef, switches: tuple[str, ...], *, intro: str, seating: str,
          printed: str, run: str, switch_text: str, game_reward: str) -> EnvironmentModule:
    """The environment module of one form: its ``raw_env`` (a :class:`TressetteAEC` of the
    form), ``env()`` and its page, from the form's definition and the paragraphs that are its
    own (the usage example's output, as a real run prints it: a test runs it)."""
    name = definition.environments[0].name
    players = definition.players
    layout = layout_of(players)
    default = definition.make_rules()
    arguments = ", ".join([*(f"{s}={getattr(default, s)!r}" for s in switches), 'reward="game"',
                           "render_mode=None", "illegal_reward=-1"])
    signature = textwrap.fill(f"{name}.env({arguments})", width=95, break_long_words=False,
                              subsequent_indent=" " * len(f"{name}.env("))
    head = _PAGE_HEAD.format(title=definition.title, intro=intro, summary="{summary}",
                             name=name, seating=seating, printed=printed, run=run,
                             signature=signature, switch_text=switch_text)
    page = env_page(head, name, players, NUM_MOVES, layout.size,
                    definition.pettingzoo_id) + _PAGE_TAIL.format(
        players=players, size=layout.size, table=layout.table(), game_reward=game_reward,
        draws=", the draws are made by it too" if players == 2 else "",
        others="the mean of the other two players'" if players == 3 else "the other side's")
    # A class of this module by its qualified name, ``tressette3_v0.raw_env``: pickle finds it.
    raw_env = type("raw_env", (TressetteAEC,), {
        "__module__": __name__, "__qualname__": f"{name}.raw_env",
        "__doc__": f"{definition.title} without wrappers: illegal actions raise "
                   "``ValueError``. See the module docs.",
        "definition": definition, "switches": switches,
        "metadata": {**TressetteAEC.metadata, "name": name}})
    return EnvironmentModule(f"{__name__}.{name}", raw_env, page, move_text=move_text,
                             parse_move=parse_move, NUM_MOVES=NUM_MOVES)


tressette_v0 = _form(
    TRESSETTE, ("low", "claim"),
    intro="""\
Partnership Tressette (docs/rules.md 10.1), with its Low Hand and claim variants, as a
PettingZoo AEC environment: four players, `player_0` and `player_2` against `player_1` and
`player_3`, ten cards each, melds, a game to 31 points over as many hands as it takes.""",
    seating="""\
Agent `player_i` sits in seat `i`: seat `(s + 1) % 4` plays after seat `s`; the seat after
the dealer receives the first cards, leads the first trick and deals the next hand. Relative
side 0 of an observation is the observer's partnership.""",
    printed="""\
[-1, 1, -1, 1] [6, 31] target 3 hands
[[2, 12], [3, 12], [1, 7]]""",
    run="""\
Side 1 (`player_1`, `player_3`) reached 31 in the fifth trick of the third hand (its 7 points
there: three 2s declared by `player_3`, and 4 points of cards); each complete hand's points
are the 11 card points and the melds.""",
    switch_text="""\
`low` (Low Hand): when a side reaches 31 the game ends and the side with the *lower* total
wins; melds still count, so they hurt. `claim`: the game does not end by itself at 31; a
player ends it with the claim action (id 40) on its turn, and wins if its side has 31 or more,
else loses; a hand that ends unclaimed after a side reached 31 ends the game for the first
side to have reached it (docs/rules.md 10.1).""",
    game_reward="""\
`reward="game"` (default): the outcome of docs/rules.md 10.1 when the game ends, +1 to each
player of the winning side, -1 to each of the losing side; 0 before. Zero-sum.""")

tressette3_v0 = _form(
    TRESSETTE3, ("low", "claim"),
    intro="""\
Three-Handed Tressette (docs/rules.md 10.2) as a PettingZoo AEC environment: three players,
each for himself, ten cards each and a dead hand of ten that nobody sees and that never comes
into play; melds; a game to 31 points over as many hands as it takes.""",
    seating="""\
Agent `player_i` sits in seat `i`: seat `(s + 1) % 3` plays after seat `s`; the seat after
the dealer receives the first cards, leads the first trick and deals the next hand. The dead
hand is dealt as to a fourth seat after the dealer. Each player is its own side.""",
    printed="""\
[-1, 2, -1] [16, 32, 26] target 8 hands
[[2, 9, 1], [0, 0, 5], [7, 5, 1], [2, 1, 5], [1, 9, 1], [0, 1, 13], [3, 4, 0], [1, 3, 0]]""",
    run="""\
`player_1` reached 31 in the eighth hand. The three hand scores add up to less than 11
when the dead hand holds points (each player's thirds are also rounded down apart).""",
    switch_text="""\
`low` (Low Hand): when a player reaches 31 the game ends and the lowest total wins.
`claim`: the game does not end by itself at 31; a player ends it with the claim action (id 40)
on its turn, and wins with 31 or more, else loses; a hand that ends unclaimed after a player
reached 31 ends the game for the first to have reached it (docs/rules.md 10.1-10.2).""",
    game_reward="""\
`reward="game"` (default): the outcome of docs/rules.md 10.2 when the game ends, +2 to the
winner and -1 to each other player (a false claim: -2 to the claimant, +1 to each other; Low
Hand: +2 to the lowest total, or +1 to each of two tied lowest and -2 to the player who reached
31); 0 before. Zero-sum.""")

tressette2_v0 = _form(
    TRESSETTE2, ("low", "claim", "show_draws"),
    intro="""\
Two-Handed Tressette (docs/rules.md 10.2) as a PettingZoo AEC environment: two players, ten
cards each and a stock of twenty; after each trick, while the stock lasts, the winner draws
the top card and the other player the next; twenty tricks a hand; melds; a game to 31 points
over as many hands as it takes.""",
    seating="""\
Agent `player_i` sits in seat `i`; the seat after the dealer (the other one) receives the
first cards, leads the first trick and deals the next hand. The draws are made by the
environment (they are forced), right after the trick (and, after the first trick, after the
melds).""",
    printed="""\
[-1, 1] [25, 31] target 5 hands
[[8, 3], [5, 9], [6, 5], [3, 8], [3, 6]]""",
    run="`player_1` reached 31 in the fifth hand.",
    switch_text="""\
`show_draws` (on by default): each card drawn from the stock is shown to both players as it
is drawn; off, only the drawer sees it (the other sees that a card was drawn). `low` (Low
Hand): when a player reaches 31 the game ends and the lower total wins. `claim`: the game
does not end by itself at 31; a player ends it with the claim action (id 40) on its turn, and
wins with 31 or more, else loses; a hand that ends unclaimed after a player reached 31 ends
the game for the first to have reached it (docs/rules.md 10.1-10.2).""",
    game_reward="""\
`reward="game"` (default): the outcome of docs/rules.md 10.2 when the game ends, +1 to the
winner, -1 to the loser; 0 before. Zero-sum.""")
