# noqa: D212, D415
"""
# Partnership Tressette

Partnership Tressette (docs/rules.md 10.1), with its Low Hand and claim variants, as a
PettingZoo AEC environment: four players, `player_0` and `player_2` against `player_1` and
`player_3`, ten cards each, melds, a game to 31 points over as many hands as it takes.

| Import             | `from mediatore_env import tressette_v0`                      |
|--------------------|---------------------------------------------------------------|
| Creation           | `tressette_v0.env()` or `pettingzoo.make("aec", "mediatore/tressette-v0")` |
| Actions            | Discrete                                                      |
| Parallel API       | No                                                            |
| Manual Control     | No                                                            |
| Agents             | `agents= ['player_0', 'player_1', 'player_2', 'player_3']` |
| Agents             | 4                                                             |
| Action Shape       | Discrete(41)                                                  |
| Action Values      | Discrete(41)                                                  |
| Observation Shape  | (2217,)                                                      |
| Observation Values | [0, 1]                                                        |

Agent `player_i` sits in seat `i`: seat `(s + 1) % 4` plays after seat `s`; the seat after
the dealer receives the first cards, leads the first trick and deals the next hand. Relative
side 0 of an observation is the observer's partnership.

An episode is one game to 31. The packs are a chance event: the environment shuffles one for
each hand from its generator, or takes them from `reset(options={"packs": [...]})`.

## Usage

```python
import numpy as np
from mediatore_env import tressette_v0

env = tressette_v0.env()
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
[-1, 1, -1, 1] [6, 31] target 3 hands
[[2, 12], [3, 12], [1, 7]]
```

Side 1 (`player_1`, `player_3`) reached 31 in the fifth trick of the third hand (its 7 points
there: three 2s declared by `player_3`, and 4 points of cards); each complete hand's points
are the 11 card points and the melds.

## Arguments

```python
tressette_v0.env(low=False, claim=False, reward="game", render_mode=None, illegal_reward=-1)
```

The rules switches are keyword arguments (see Switches below); an unknown name raises
`TypeError`, a bad value `ValueError`. `reward`: `"game"` or `"hand"` (see Rewards).
`render_mode`: `None`, `"ansi"` (`render()` returns the table as the seat to play sees it) or
`"human"` (prints it after every step). `illegal_reward` (`env()` only): the offender's reward
for an illegal action.

## Switches

`low` (Low Hand): when a side reaches 31 the game ends and the side with the *lower* total
wins; melds still count, so they hurt. `claim`: the game does not end by itself at 31; a
player ends it with the claim action (id 40) on its turn, and wins if its side has 31 or more,
else loses; a hand that ends unclaimed after a side reached 31 ends the game for the first
side to have reached it (docs/rules.md 10.1).

## Observation Space

The observation is a dictionary with an `'observation'` element, the float32 vector of what
the agent's seat knows, and an `'action_mask'` (int8, 41) of its legal actions.

The vector is seat-relative (the observer is relative seat 0, the next to play after it 1, ...)
and holds everything that seat knows and nothing else: its hand, every trick of the hand card
by card with who led and who won, the melds declared with their cards, the scores, the
dealer, whose turn it is, the rules switches, and the earlier hands of the game as their
points and melds. It is written by `mediatore_env.tressette.observation` from the seat's
`TressetteView` alone (docs: that module; `layout_of(4).table()` prints this table).
2217 floats in [0, 1]:

| offset | length | block | meaning |
|---:|---:|---|---|
| 0 | 6 | `rules` | one-hot players 4, 3, 2; then low, claim, show_draws (1 only two-handed, where the switch exists) |
| 6 | 4 | `dealer` | the dealer's relative seat |
| 10 | 4 | `to_move` | the relative seat to play (all 0 when none: the game is over) |
| 14 | 40 | `hand` | the observer's cards now |
| 54 | 40 | `played` | every card played this hand (the table included) |
| 94 | 1600 | `trick_cards` | `(slot * 4 + r) * 40 + card`: the card relative seat r played to each trick of this hand (10 slots, the table's trick in its slot) |
| 1694 | 40 | `trick_leader` | `slot * 4 + r`: who led each trick |
| 1734 | 40 | `trick_winner` | `slot * 4 + r`: who won each finished trick |
| 1774 | 160 | `meld_cards` | `r * 40 + card`: the cards relative seat r showed in its melds this hand |
| 1934 | 40 | `meld_kinds` | `r * 10 + k`: its melds, k = napoletana of Denari, Coppe, Spade, Bastoni (0-3), three / four Assi (4, 5), 2s (6, 7), 3s (8, 9) |
| 1974 | 4 | `thirds` | thirds each relative seat took this hand / 35 |
| 1978 | 2 | `hand_points` | each relative side's points this hand / 65 |
| 1980 | 2 | `totals` | each relative side's running total / 65 |
| 1982 | 235 | `earlier` | the 5 most recent earlier hands, the last first, 47 each: present (1), dealer (4), points by relative side / 65 (2), melds by relative seat (4 * 10, as meld_kinds) |

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
environment after the first trick (compulsory), and the next hand is
dealt by it: every decision is a card to play or a claim.

## Rewards

`reward="game"` (default): the outcome of docs/rules.md 10.1 when the game ends, +1 to each
player of the winning side, -1 to each of the losing side; 0 before. Zero-sum.

`reward="hand"` (shaping): the same outcome at the end, plus at the end of each hand (and
when the game ends in the middle of one, for its points so far) the difference in hand points:
the agent's side's points in the hand minus the other side's, negated in Low Hand
(fewer points are better there). Also zero-sum.

At the end `infos[agent]` holds `{"outcome": ..., "totals": [...]}`. Rewards go through the
standard `rewards` / `_cumulative_rewards` machinery, so `last()` returns an agent's rewards
since it last acted.

## Other attributes and options

`env.unwrapped` (the `raw_env`) has `game` (the engine's `TressetteGame`), `view(agent)` (that
seat's `TressetteView`) and `record` (the game's record once over: `TressetteGame.replay`
replays it bit for bit).

`reset(seed=None, options=None)`: a seed fixes the first dealer and the packs (the same seed,
the same game for the same actions). The options `{"packs": [pack, ...], "dealer": d}` replay
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

from __future__ import annotations

from .moves import NUM_MOVES, move_text, parse_move
from .env import TressetteAEC
from ..envs.wrappers import wrapped

__all__ = ["env", "raw_env", "standard_wrapped_env", "move_text", "parse_move", "NUM_MOVES"]


class raw_env(TressetteAEC):
    """Partnership Tressette without wrappers: illegal actions raise ``ValueError``.
    See the module docs."""

    players = 4
    switches = ("low", "claim")
    metadata = {"render_modes": ["ansi", "human"], "name": "tressette_v0",
                "is_parallelizable": False, "render_fps": 1}


env, standard_wrapped_env = wrapped(raw_env)
