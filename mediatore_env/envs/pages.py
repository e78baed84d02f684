"""What every environment's page says alike. A versioned environment module's docstring is its
documentation page (PettingZoo's style; ``python -m mediatore_env docs`` writes the pages out),
and each opens with the same summary table and shows the same loop of PettingZoo's API, written
here once from the environment's facts::

    >>> print(summary_table("toy_v0", 2, 40, 97, "mediatore/toy-v0").splitlines()[7])
    | Agents             | 2                                                             |

A page's source holds the line ``{summary}`` where the table goes, and may hold ``{usage}``
where the loop goes (:func:`env_page` fills both).
"""

from __future__ import annotations

__all__ = ["summary_table", "usage", "env_page"]


def summary_table(name: str, players: int, actions: int, observation_size: int,
                  pettingzoo_id: str | None = None) -> str:
    """The table that opens the page of environment ``name``: how to import and make it, its
    agents, its ``Discrete(actions)`` actions and its observation vector of
    ``observation_size`` values in [0, 1]."""
    rows = [("Import", f"`from mediatore_env import {name}`")]
    if pettingzoo_id is not None:
        rows.append(("Creation", f'`{name}.env()` or `pettingzoo.make("aec", "{pettingzoo_id}")`'))
    rows += [("Actions", "Discrete"), ("Parallel API", "No"), ("Manual Control", "No"),
             ("Agents", f"`agents= {[f'player_{seat}' for seat in range(players)]}`"),
             ("Agents", str(players)),
             ("Action Shape", f"Discrete({actions})"), ("Action Values", f"Discrete({actions})"),
             ("Observation Shape", f"({observation_size},)"), ("Observation Values", "[0, 1]")]
    lines = [f"| {key:<18} | {value:<61} |" for key, value in rows]
    return "\n".join([lines[0], f"|{'-' * 20}|{'-' * 63}|", *lines[1:]])


def usage(name: str, result: str) -> str:
    """The page's example: an episode of ``name`` played by random legal actions through
    ``env()``, then ``result`` (a line that prints what the episode left)."""
    return f"""```python
from mediatore_env import {name}

env = {name}.env()
env.reset(seed=42)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action = None
    else:
        action = env.action_space(agent).sample(observation["action_mask"])  # a legal action
    env.step(action)
{result}
```"""


def env_page(source: str, name: str, players: int, actions: int, observation_size: int,
             pettingzoo_id: str | None = None, result: str | None = None) -> str:
    """The page ``source`` (a module's docstring) with its ``{summary}`` line replaced by
    :func:`summary_table` and, given ``result``, its ``{usage}`` line by :func:`usage`."""
    parts = {"{summary}": summary_table(name, players, actions, observation_size, pettingzoo_id)}
    if result is not None:
        parts["{usage}"] = usage(name, result)
    for line, text in parts.items():
        if line not in source:
            raise ValueError(f"the page of {name} has no {line} line")
        source = source.replace(line, text, 1)
    return source
