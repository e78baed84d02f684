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

"""

from __future__ import annotations

from .moves import NUM_MOVES, move_text, parse_move
from .env import TressetteAEC, page
from ..envs.wrappers import wrapped

# The page goes on with what the three forms share (tressette/env.py), its reward paragraph here.
__doc__ = page(__doc__, 4, game_reward="""\
`reward="game"` (default): the outcome of docs/rules.md 10.1 when the game ends, +1 to each
player of the winning side, -1 to each of the losing side; 0 before. Zero-sum.""")

__all__ = ["env", "raw_env", "standard_wrapped_env", "move_text", "parse_move", "NUM_MOVES"]


class raw_env(TressetteAEC):
    """Partnership Tressette without wrappers: illegal actions raise ``ValueError``.
    See the module docs."""

    players = 4
    switches = ("low", "claim")
    metadata = {"render_modes": ["ansi", "human"], "name": "tressette_v0",
                "is_parallelizable": False, "render_fps": 1}


env, standard_wrapped_env = wrapped(raw_env)
