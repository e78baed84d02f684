# noqa: D212, D415
"""
# Three-Handed Tressette

Three-Handed Tressette (docs/rules.md 10.2) as a PettingZoo AEC environment: three players,
each for himself, ten cards each and a dead hand of ten that nobody sees and that never comes
into play; melds; a game to 31 points over as many hands as it takes.

| Import             | `from mediatore_env import tressette3_v0`                      |
|--------------------|---------------------------------------------------------------|
| Creation           | `tressette3_v0.env()` or `pettingzoo.make("aec", "mediatore/tressette3-v0")` |
| Actions            | Discrete                                                      |
| Parallel API       | No                                                            |
| Manual Control     | No                                                            |
| Agents             | `agents= ['player_0', 'player_1', 'player_2']` |
| Agents             | 3                                                             |
| Action Shape       | Discrete(41)                                                  |
| Action Values      | Discrete(41)                                                  |
| Observation Shape  | (1955,)                                                      |
| Observation Values | [0, 1]                                                        |

Agent `player_i` sits in seat `i`: seat `(s + 1) % 3` plays after seat `s`; the seat after
the dealer receives the first cards, leads the first trick and deals the next hand. The dead
hand is dealt as to a fourth seat after the dealer. Each player is its own side.

An episode is one game to 31. The packs are a chance event: the environment shuffles one for
each hand from its generator, or takes them from `reset(options={"packs": [...]})`.

## Usage

```python
import numpy as np
from mediatore_env import tressette3_v0

env = tressette3_v0.env()
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
[-1, 2, -1] [16, 32, 26] target 8 hands
[[2, 9, 1], [0, 0, 5], [7, 5, 1], [2, 1, 5], [1, 9, 1], [0, 1, 13], [3, 4, 0], [1, 3, 0]]
```

`player_1` reached 31 in the eighth hand. The three hand scores add up to less than 11
when the dead hand holds points (each player's thirds are also rounded down apart).

## Arguments

```python
tressette3_v0.env(low=False, claim=False, reward="game", render_mode=None, illegal_reward=-1)
```

The rules switches are keyword arguments (see Switches below); an unknown name raises
`TypeError`, a bad value `ValueError`. `reward`: `"game"` or `"hand"` (see Rewards).
`render_mode`: `None`, `"ansi"` (`render()` returns the table as the seat to play sees it) or
`"human"` (prints it after every step). `illegal_reward` (`env()` only): the offender's reward
for an illegal action.

## Switches

`low` (Low Hand): when a player reaches 31 the game ends and the lowest total wins.
`claim`: the game does not end by itself at 31; a player ends it with the claim action (id 40)
on its turn, and wins with 31 or more, else loses; a hand that ends unclaimed after a player
reached 31 ends the game for the first to have reached it (docs/rules.md 10.1-10.2).

"""

from __future__ import annotations

from .moves import NUM_MOVES, move_text, parse_move
from .env import TressetteAEC, page
from ..envs.wrappers import wrapped

# The page goes on with what the three forms share (tressette/env.py), its reward paragraph here.
__doc__ = page(__doc__, 3, game_reward="""\
`reward="game"` (default): the outcome of docs/rules.md 10.2 when the game ends, +2 to the
winner and -1 to each other player (a false claim: -2 to the claimant, +1 to each other; Low
Hand: +2 to the lowest total, or +1 to each of two tied lowest and -2 to the player who reached
31); 0 before. Zero-sum.""")

__all__ = ["env", "raw_env", "standard_wrapped_env", "move_text", "parse_move", "NUM_MOVES"]


class raw_env(TressetteAEC):
    """Three-Handed Tressette without wrappers: illegal actions raise ``ValueError``.
    See the module docs."""

    players = 3
    switches = ("low", "claim")
    metadata = {"render_modes": ["ansi", "human"], "name": "tressette3_v0",
                "is_parallelizable": False, "render_fps": 1}


env, standard_wrapped_env = wrapped(raw_env)
