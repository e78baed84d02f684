# noqa: D212, D415
"""
# Two-Handed Tressette

Two-Handed Tressette (docs/rules.md 10.2) as a PettingZoo AEC environment: two players, ten
cards each and a stock of twenty; after each trick, while the stock lasts, the winner draws
the top card and the other player the next; twenty tricks a hand; melds; a game to 31 points
over as many hands as it takes.

| Import             | `from mediatore_env import tressette2_v0`                      |
|--------------------|---------------------------------------------------------------|
| Creation           | `tressette2_v0.env()` or `pettingzoo.make("aec", "mediatore/tressette2-v0")` |
| Actions            | Discrete                                                      |
| Parallel API       | No                                                            |
| Manual Control     | No                                                            |
| Agents             | `agents= ['player_0', 'player_1']` |
| Agents             | 2                                                             |
| Action Shape       | Discrete(41)                                                  |
| Action Values      | Discrete(41)                                                  |
| Observation Shape  | (2802,)                                                      |
| Observation Values | [0, 1]                                                        |

Agent `player_i` sits in seat `i`; the seat after the dealer (the other one) receives the
first cards, leads the first trick and deals the next hand. The draws are made by the
environment (they are forced), right after the trick (and, after the first trick, after the
melds).

An episode is one game to 31. The packs are a chance event: the environment shuffles one for
each hand from its generator, or takes them from `reset(options={"packs": [...]})`.

## Usage

```python
import numpy as np
from mediatore_env import tressette2_v0

env = tressette2_v0.env()
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
[-1, 1] [25, 31] target 5 hands
[[8, 3], [5, 9], [6, 5], [3, 8], [3, 6]]
```

`player_1` reached 31 in the fifth hand.

## Arguments

```python
tressette2_v0.env(low=False, claim=False, show_draws=True, reward="game", render_mode=None,
                  illegal_reward=-1)
```

The rules switches are keyword arguments (see Switches below); an unknown name raises
`TypeError`, a bad value `ValueError`. `reward`: `"game"` or `"hand"` (see Rewards).
`render_mode`: `None`, `"ansi"` (`render()` returns the table as the seat to play sees it) or
`"human"` (prints it after every step). `illegal_reward` (`env()` only): the offender's reward
for an illegal action.

## Switches

`show_draws` (on by default): each card drawn from the stock is shown to both players as it
is drawn; off, only the drawer sees it (the other sees that a card was drawn). `low` (Low
Hand): when a player reaches 31 the game ends and the lower total wins. `claim`: the game
does not end by itself at 31; a player ends it with the claim action (id 40) on its turn, and
wins with 31 or more, else loses; a hand that ends unclaimed after a player reached 31 ends
the game for the first to have reached it (docs/rules.md 10.1-10.2).

"""

from __future__ import annotations

from .moves import NUM_MOVES, move_text, parse_move
from .env import TressetteAEC, page
from ..envs.wrappers import wrapped

# The page goes on with what the three forms share (tressette/env.py), its reward paragraph here.
__doc__ = page(__doc__, 2, game_reward="""\
`reward="game"` (default): the outcome of docs/rules.md 10.2 when the game ends, +1 to the
winner, -1 to the loser; 0 before. Zero-sum.""")

__all__ = ["env", "raw_env", "standard_wrapped_env", "move_text", "parse_move", "NUM_MOVES"]


class raw_env(TressetteAEC):
    """Two-Handed Tressette without wrappers: illegal actions raise ``ValueError``.
    See the module docs."""

    players = 2
    switches = ("low", "claim", "show_draws")
    metadata = {"render_modes": ["ansi", "human"], "name": "tressette2_v0",
                "is_parallelizable": False, "render_fps": 1}


env, standard_wrapped_env = wrapped(raw_env)
