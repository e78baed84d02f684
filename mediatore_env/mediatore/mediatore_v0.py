# noqa: D212, D415
"""
# Mediatore

The Italian four-player trick-taking game of the Tressette family (rules: docs/rules.md), as a
PettingZoo AEC environment.

{summary}

Agent `player_i` sits in seat `i` of docs/rules.md: seat `(s + 1) % 4` acts after seat `s`, and
il mano, the seat after the dealer, speaks first.

## Usage

{usage}

## Arguments

```python
mediatore_v0.env(rules=None, render_mode=None, deals=1, normalize_rewards=False,
                 render_all=False, illegal_reward=-1, **switches)
```

`rules`: a `Rules` object, a preset name (`"standard"`, `"low"`, `"chiamo_blind"`, ... see
`mediatore_env.PRESETS`) or a dict of switches; `None` is the standard game.

`**switches`: rules switches on top of `rules` (`signals="off"`, `monte_shown="always"`, ...;
see `mediatore_env.mediatore.rules.SWITCHES`). Unknown names raise `TypeError`, bad values `ValueError`.

`render_mode`: `None`, `"ansi"` (`render()` returns the table as text) or `"human"` (prints it
after every step).

`deals`: episode length in deals. The dealer passes to the right after each deal, a thrown-in
deal included (it counts as a deal, with zero payments); payoffs accumulate.

`normalize_rewards`: divide every payoff by the largest payment possible under the rules (60
units in the standard game, 30 with the low schedule), so rewards lie in [-1, 1].

`render_all`: render every hand; by default the text shows the acting seat's view only.

`illegal_reward` (`env()` only): the offender's reward for an illegal action (see below).

## Observation Space

The observation is a dictionary with an `'observation'` element, the float32 vector of what
the agent's seat knows, and an `'action_mask'` (int8, 486) of its legal actions. The same
two space objects serve every agent.

The vector is seat-relative (the observer is relative seat 0, the next seat to act after it 1,
...) and holds everything that seat knows and nothing else, with perfect recall of the deal.
It is written by `mediatore_env.mediatore.observation` from the seat's `SeatView` alone. Layout version 3
(`mediatore_env.mediatore.layout.OBSERVATION_VERSION`), 2132 floats in [0, 1]:

| offset | length | block | meaning |
|---:|---:|---|---|
| 0 | 23 | `rules` | the rules switches, one-hot per switch (so one policy can train across variants) |
| 23 | 4 | `dealer` | the dealer's relative seat |
| 27 | 6 | `phase` | auction, call, discard, give, play, end |
| 33 | 4 | `to_move` | relative seat to act |
| 37 | 40 | `hand` | own cards, by card id |
| 77 | 20 | `auction` | `4 * (contract - 1) + relative seat`: who bid what (passes follow from the turn order) |
| 97 | 5 | `contract` | the contract won in the auction |
| 102 | 4 | `declarer` | the declarer's relative seat |
| 106 | 40 | `called_card` | the card called in Chiamo or Mediatore |
| 146 | 4 | `giver` | Mediatore: who gave the called card |
| 150 | 6 | `partnership` | declarer alone (known), has a partner (known), the partner's relative seat (known) |
| 156 | 40 | `monte_seen` | the original monte, if this seat has seen it |
| 196 | 40 | `discards` | the declarer's discards (the declarer; everyone at the end) |
| 236 | 40 | `given_back` | Mediatore: the card passed back (declarer and giver) |
| 276 | 40 | `final_monte` | the monte turned over after the last trick |
| 316 | 2 | `side_thirds` | declarer's side, other side, / 35, when this seat knows the sides |
| 318 | 40 | `played` | every card played so far |
| 358 | 90 | `signals` | `9 * slot + signal`: the signal of each lead |
| 448 | 421 | `seat_0` | the play of relative seat 0: `40 * slot + card` (400) its card in each trick, led (10), won (9), thirds / 35, tricks / 9 |
| 869 | 421 | `seat_1` | the same for relative seat 1 |
| 1290 | 421 | `seat_2` | the same for relative seat 2 |
| 1711 | 421 | `seat_3` | the same for relative seat 3 |

Slots 0 to 8 are the finished tricks in order, slot 9 the trick on the table.

Card ids are `suit * 10 + power` (suits D, C, S, B; powers 4 5 6 7 F C R A 2 3, weakest
first). `mediatore_env.mediatore.observation.observation_text(vector)` prints a vector back as readable text;
`mediatore_env.mediatore.layout.LAYOUT` is this table as data.

### Legal Actions Mask

The legal actions of the agent to act are found in the `action_mask` element of its
observation. The mask is all zeros for every other agent. With `raw_env()`, an illegal
action raises `ValueError` naming the action, its meaning and the legal actions, and changes
nothing. With `env()`, as with PettingZoo's standard wrappers, an illegal action ends the
episode: the offender gets `illegal_reward` (-1), the others 0, and every agent is terminated
and truncated. Note that -1 is less than most payments in units (a lost Solo costs 36): use
`normalize_rewards=True` or a lower `illegal_reward` when agents may step outside the mask.

An action is an integer: a Python `int`, a numpy integer, a 0-d or 1-element integer array,
in `raw_env()` and `env()` alike. A float (even `1.0`), a bool, `None` (except for an agent that
is done), a string or an id out of range is not an action: `raw_env()` raises `ValueError`
saying so, `env()` fails PettingZoo's `assert ..., "action is not in action space"`; either
way nothing changes (`mediatore_env.codec.actions.as_move`).

## Action Space

One `Discrete(486)` space serves every phase; the ids are the engine's move ids
(`mediatore_env.mediatore.moves`), and `move_text(id)` / `parse_move(text)` turn them into
text and back:

| ids | phase | action | text |
|---|---|---|---|
| 0 | auction | pass | `pass` |
| 1 - 5 | auction | bid chiamo, mediatore, solo, solissimo, arcisolissimo | `bid solo` |
| 6 - 45 | call | call card `id - 6` | `call B3` |
| 46 - 85 | discard | discard card `id - 46` (4 moves, one card each) | `discard SA` |
| 86 - 125 | give | Mediatore: pass card `id - 86` back to the giver | `give D4` |
| 126 - 485 | play | play card `(id - 126) % 40` with signal `(id - 126) // 40` | `play D3`, `play D3 busso` |

Signals: 0 none, 1 busso, 2 volo, 3 striscio, 4 ribusso, 5 meglio, 6 busso+meglio,
7 ribusso+meglio, 8 tutto fuori; which are legal depends on the `signals` switch and the hand
(docs/rules.md 6 and 8.7). Only a lead may carry a signal. Every call of the auction is a decision,
the forced passes after the top bid included. docs/environment.md lists all 486 ids.

## Rewards

At the end of each deal every agent receives its payment of docs/rules.md section 7 in units (the
four sum to zero): e.g. a won Chiamo with a partner pays +5 to the declarer, +3 to the partner
and -4 to each opponent. A thrown-in deal pays 0. Rewards go through the standard `rewards` /
`_cumulative_rewards` machinery, so `last()` returns an agent's payments since it last acted.

## Other attributes

`env.unwrapped` (the `raw_env`) has `deal` (the engine's `Deal` of the current deal; also
`game`, as in every environment), `view(agent)` (that seat's `SeatView`), `records` (the game
records of the deals finished in this episode, the JSON of `mediatore_env.mediatore.records`)
and `record` (the last of them).
`python -m mediatore_env replay RECORD.json` replays and prints one.

`reset(seed=None, options=None)`: a seed (an int >= 0; anything else is a `ValueError`
that changes nothing) fixes the first dealer and the packs of the episode
(the same seed, the same deals); without one, the generator seeded last goes on (or the
unseeded one the environment was made with). The options `{"pack": [...40 cards...],
"dealer": 0..3}` replay a given deal (the first of the episode): cards as ids or texts (`"D3"`) or one string, the dealer as a seat
or an agent name; give both, since the hands depend on the dealer. `{"packs": [pack, pack, ...]}`
gives the packs of several deals in order, as every environment of the family takes them. A bad value raises
`ValueError`; an unknown option is ignored with a warning.

`env()` is `raw_env` inside `ProtectedEnv` (`mediatore_env.envs.wrappers`, shared with
`mediatore_bidding_v0`), one wrapper that behaves exactly as PettingZoo's
`TerminateIllegalWrapper`, `AssertOutOfBoundsWrapper` and `OrderEnforcingWrapper` stacked
(`standard_wrapped_env()` builds that stack, four to five times slower; tests/test_wrappers.py
runs both side by side). Random legal play runs at tens of thousands of decisions per second:
`python benchmarks/bench_env.py --compare`.

## The end of an episode

The episode ends as PettingZoo's AEC environments do: when the last deal is over every agent
is terminated, `last()` hands each its final reward, and each agent's `step(None)` takes it
out of `agents` (so `agent_iter()` stops). Once `agents` is empty, with `raw_env()` as with
`env()`:

- `last()` raises `RuntimeError: mediatore_v0: the episode is over (every agent is done and
  agents is empty), ...; call reset() ...`: there is no agent left to report on;
- `step(action)` warns as PettingZoo's `OrderEnforcingWrapper` does ("step() called after all
  agents are terminated or truncated. Should reset() first.") and changes nothing;
- `observe(agent)` still gives each agent's final observation (an all-zero mask), and
  `records` the game records; `reset()` starts the next episode.

## Copies

`copy.deepcopy(env)` and `pickle` copy the environment as it is, for search agents (MCTS over
the environment), Ray or population training: before `reset()`, in the middle of a deal or
after the end, the copy is an independent environment that goes on exactly as the original
would (the same observations, masks, rewards, terminations, infos and records for the same
actions, across later resets with or without a seed: the random generator is copied too).
Stepping the copy leaves the original unchanged (`mediatore_env.envs.base`; tests/test_copy.py
checks all of it). Being copyable costs nothing per step; a copy in the middle of a deal takes
about 0.9 ms with `copy.deepcopy` and 0.4 ms as a `pickle` round trip (best of 5 with
`python -m timeit`, on a shared AMD EPYC core).

```python
import copy
from mediatore_env import mediatore_v0

env = mediatore_v0.env()
env.reset(seed=42)
env.step(1)                    # il mano bids chiamo
branch = copy.deepcopy(env)    # the same deal, the same seat to act
branch.step(0)                 # explore a pass in the copy ...
print(env.unwrapped.deal.history == branch.unwrapped.deal.history[:1])  # ... the original waits
```

## Version History

* v0: Initial release (observation layout version 3).
"""

from __future__ import annotations

from ..codec.actions import as_move
from .definition import MEDIATORE
from .display import table_text
from .observation import OBSERVATION_SIZE, Encoder, Table
from ..core.cards import NUM_CARDS
from .game import Deal
from .moves import (CALL_BASE, DISCARD_BASE, GIVE_BASE, NUM_MOVES, PHASE_NAMES, PLAY_BASE,
                    move_text, parse_move, phase_of_move)
from .records import make_record
from .rules import CONTRACT_NAMES, CONTRACTS, max_payment
from .view import SeatView
from ..envs.base import EncodedEnv
from ..envs.options import flag_option
from ..envs.pages import env_page
from ..envs.wrappers import ProtectedEnv, wrapped

__doc__ = env_page(__doc__, "mediatore_v0", 4, NUM_MOVES, OBSERVATION_SIZE, MEDIATORE.pettingzoo_id,
                   result='print(env.unwrapped.record["result"])  # the game record of the deal: '
                          'contract, payoffs, ...')

__all__ = ["env", "raw_env", "ProtectedEnv", "standard_wrapped_env", "move_text", "parse_move",
           "action_table", "max_payment", "NUM_MOVES", "OBSERVATION_SIZE"]

# The action table of the docstring, as data: (first id, last id, phase, action).
ACTIONS = (
    (0, 0, "auction", "pass"),
    (1, CALL_BASE - 1, "auction", "bid a contract: " + ", ".join(CONTRACT_NAMES[c] for c in CONTRACTS)),
    (CALL_BASE, DISCARD_BASE - 1, "call", f"call card id - {CALL_BASE}"),
    (DISCARD_BASE, GIVE_BASE - 1, "discard", f"discard card id - {DISCARD_BASE}"),
    (GIVE_BASE, PLAY_BASE - 1, "give", f"pass card id - {GIVE_BASE} back to the giver"),
    (PLAY_BASE, NUM_MOVES - 1, "play", f"play card (id - {PLAY_BASE}) % 40 with signal (id - {PLAY_BASE}) // 40"),
)


def action_phase(action: int) -> str:
    """The name of the phase in which an action id can be legal."""
    return PHASE_NAMES[phase_of_move(as_move(action, NUM_MOVES))]


def action_table() -> str:
    """Every action id with its phase and text, as a Markdown table (docs/environment.md)."""
    rows = ["| id | phase | action |", "|---:|---|---|"]
    rows += [f"| {a} | {action_phase(a)} | `{move_text(a)}` |" for a in range(NUM_MOVES)]
    return "\n".join(rows)


class raw_env(EncodedEnv):
    """Mediatore without wrappers: illegal actions raise ``ValueError``. See the module docs.

    The generic environment of :mod:`mediatore_env.envs.base` with what is Mediatore's: an
    episode of ``deals`` deals, the dealer passing on, each deal's payments handed out as it
    ends (scaled with ``normalize_rewards``); the seats' incremental encoders over one shared
    :class:`~.observation.Table`; the ``pack`` option; the records of the episode's deals."""

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": "mediatore_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }
    options = ("rules", "render_mode", "deals", "normalize_rewards", "render_all")
    pack_deals = "deal"
    phase_names = PHASE_NAMES

    def __init__(self, rules=None, render_mode: str | None = None, deals: int = 1,
                 normalize_rewards: bool = False, render_all: bool = False, **switches):
        super().__init__(MEDIATORE, render_mode, rules=rules, **switches)
        if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
            raise ValueError(f"deals must be a positive int, got {deals!r}")
        self.render_all = flag_option("render_all", render_all)
        self.deals = deals
        normalize = flag_option("normalize_rewards", normalize_rewards)
        self.reward_scale = 1.0 / max_payment(self.rules) if normalize else 1.0
        table = Table()  # the public part of the observations, written once for the four seats
        self._encoders = [Encoder(table) for _ in range(4)]
        self._finished: list[Deal] = []

    @property
    def normalize_rewards(self) -> bool:
        """Whether the payments are divided by the largest possible (``reward_scale``)."""
        return self.reward_scale != 1.0

    # -- episode ------------------------------------------------------------------------------

    def reset(self, seed=None, options=None):
        super().reset(seed, options)  # raises for bad options before anything changes
        self._finished = []  # the deals of the new episode: none has ended yet

    @property
    def _table(self) -> Table:
        """The Table the four seats' encoders share (kept by them, not by one more attribute
        of the environment: see GameEnv's __init__)."""
        return self._encoders[0].table

    def _new_game(self) -> None:
        self._table.reset()

    def _deal_shuffled(self, deal: Deal) -> None:
        deal._deal(tuple(self._rng.permutation(NUM_CARDS).tolist()))  # valid by construction

    def _rewards(self) -> list:
        """Each seat's payment of the deal just ended, scaled."""
        scale = self.reward_scale
        return [[payoff * scale for payoff in self.game.payoffs]]

    def _next_game(self) -> bool:
        deal = self.game
        self._finished.append(deal)
        if len(self._finished) == self.deals:
            return False
        self._start_game((deal.dealer + 1) % 4)  # docs/rules.md 2: the deal passes to the right
        return True

    def _infos(self) -> list[dict]:
        """Empty, as they have always been: a deal's result is in the rewards and the records."""
        return [{} for _ in range(4)]

    @property
    def deal(self) -> Deal | None:
        """The engine's :class:`~.game.Deal` of the deal in play (``game``, as in every
        environment)."""
        return self.game

    def view(self, agent) -> SeatView:
        """The :class:`~mediatore_env.mediatore.view.SeatView` of ``agent``'s seat in the current deal."""
        return super().view(agent)

    # -- records, rendering -------------------------------------------------------------------

    @property
    def records(self) -> list[dict]:
        """Game records of the deals finished in this episode (mediatore_env.mediatore.records format)."""
        if self.deals == 1:
            return [make_record(d) for d in self._finished]
        return [make_record(d, episode_deal=i + 1, episode_deals=self.deals)
                for i, d in enumerate(self._finished)]

    @property
    def record(self) -> dict | None:
        """The record of the last finished deal of the episode (None before the first ends)."""
        return self.records[-1] if self._finished else None

    def _table_text(self) -> str:
        """The table as text (mediatore_env.mediatore.display): what the acting seat sees, or the open
        table with ``render_all`` and once the deal is over."""
        deal = self.game
        number = len(self._finished) + (0 if deal.is_over else 1)
        source = deal if self.render_all or deal.to_move is None else self._views[deal.to_move]
        return table_text(source, names=self.possible_agents,
                          title=f"mediatore_v0 · deal {number} of {self.deals}")


env, standard_wrapped_env = wrapped(raw_env)
