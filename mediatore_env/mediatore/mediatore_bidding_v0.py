# noqa: D212, D415
"""
# Mediatore bidding

The auction (and the call) of Mediatore alone, as a PettingZoo AEC environment: the play is
not played, its result comes from the deal's double-dummy contract table
(`mediatore_env.mediatore.tables`). For fast training and benchmarking of bidding.

{summary}

Agent `player_i` sits in seat `i`, as in `mediatore_v0`: il mano, the seat after the dealer,
speaks first, and the auction follows docs/rules.md 4 (a seat that passed may bid again; four
passes throw the deal in; three passes after a bid end it). The declarer of Chiamo or
Mediatore then calls a card. Then the episode ends.

## Arguments

```python
mediatore_bidding_v0.env(table=None, render_mode=None, normalize_rewards=False,
                         illegal_reward=-1, rules=None)
```

`table`: a `ContractTable` (`mediatore_env.mediatore.tables`) or the path of a saved one
(`mediatore-tables build ... --out tables.npz`); its rules are the game's. Each episode is
one of its deals, drawn at random (or chosen with `reset(options={"deal": i})`). With
`table=None` each episode deals a fresh random pack and computes its table on the spot under
`rules` (a `Rules` or a preset name) -- with `values="made"`, about a second of CPU per
deal: good for trying things, not for training. A bad `deal` or options that are not a dict
raise `ValueError`; an unknown option is ignored with a warning.

`normalize_rewards` (True or False): divide the payoffs by the largest payment possible under
the rules.

`illegal_reward` (`env()` only): with `env()`, as with PettingZoo's standard wrappers, an
illegal action ends the episode with this reward to the offender (0 to the others); with
`raw_env()` it raises `ValueError`. Actions are integers, as in `mediatore_v0` (a float such
as `1.9` is not an action: `raw_env()` raises `ValueError`, `env()` fails PettingZoo's
"action is not in action space" assertion). `env()` is `raw_env` in the wrapper of
`mediatore_v0.env()` (`mediatore_env.envs.wrappers.ProtectedEnv`); `standard_wrapped_env()`
is `raw_env` in PettingZoo's own three wrappers, which it behaves exactly as.

The end of an episode and copies are as in `mediatore_v0`: once `agents` is empty, `last()`
raises `RuntimeError` saying the episode is over and `step()` warns and changes nothing;
`copy.deepcopy` and `pickle` copy the environment mid-game (its generator too), and the copy
goes on exactly as the original would (a deepcopy shares the read-only contract table, a
pickle carries it along).

## Observation Space

A dictionary: `'observation'`, a float32 vector of what the agent's seat knows at the
auction, seat-relative (the observer is relative seat 0, the next seat to act after it 1,
...), and `'action_mask'` (int8, 46).

| offset | length | block | meaning |
|---:|---:|---|---|
| 0 | 23 | `rules` | the rules switches, one-hot per switch (as in `mediatore_v0`) |
| 23 | 4 | `dealer` | the dealer's relative seat |
| 27 | 2 | `phase` | auction, call |
| 29 | 40 | `hand` | own cards, by card id |
| 69 | 20 | `auction` | `4 * (contract - 1) + relative seat`: who bid what |
| 89 | 6 | `high_bid` | the highest bid so far: none, chiamo .. arcisolissimo |
| 95 | 4 | `high_bidder` | its relative seat |

## Action Space

`Discrete(46)`: the engine's move ids for these phases (`mediatore_env.mediatore.moves`), so
`move_text(id)` reads them:

| ids | phase | action |
|---|---|---|
| 0 | auction | pass |
| 1 - 5 | auction | bid chiamo, mediatore, solo, solissimo, arcisolissimo |
| 6 - 45 | call | call card `id - 6` |

Only the cards the table holds a value for may be called (the mask): by default, in each
suit the highest callable card the declarer does not hold (`mediatore_env.mediatore.tables`, "cards
worth calling"); with a table built with `--calls all`, every callable card.

## Rewards

When the episode ends every agent receives the payment of docs/rules.md 7 that the table gives
for the contract, the declarer and the call: made or lost as the double-dummy play makes or
loses it, with the partner (the called card's holder) or the giver of the deal. A thrown-in
deal pays 0. Capotto is not counted.

## Bias

The payoffs are those of double-dummy play: everyone plays knowing where every card is,
and the declarer exchanges by the table's fixed policy. Real play differs: defenders who
cannot see the declarer's hand defend worse than double dummy in many deals, a declarer
who does not know where the missing cards are plays worse, the partner in Chiamo is known to
everyone at once, and the exchange is not the best possible. So contracts that need a
lucky lie of the cards are valued by that lie alone: a policy trained here learns to bid
what perfect players would make, which is not exactly what pays at a real table. Use it to
train and compare bidding fast, then check the result with the full game (`mediatore_v0`,
or the duplicate tournament).

## Version History

* v0: Initial release.
"""

from __future__ import annotations

import numpy as np

from .tables import ContractTable, build_table
from ..codec.actions import illegal_action_message
from .observation import rules_vector
from ..core.cards import NUM_CARDS, cards_of
from .moves import AUCTION, CALL, CALL_BASE, END, PHASE_NAMES, call_move, move_text
from .rules import CONTRACTS, Rules, max_payment
from ..codec.layout import block_offsets
from ..envs.base import GameAEC
from ..envs.options import flag_option, reset_options, seed_option, unknown_keywords
from ..envs.pages import env_page
from ..envs.wrappers import wrapped

__all__ = ["env", "raw_env", "standard_wrapped_env", "NUM_ACTIONS", "OBSERVATION_SIZE", "LAYOUT",
           "OFFSETS"]

AGENTS = tuple(f"player_{i}" for i in range(4))
SEATS = {agent: seat for seat, agent in enumerate(AGENTS)}
NUM_ACTIONS = CALL_BASE + NUM_CARDS  # 46: pass, five bids, forty calls

LAYOUT = (("rules", len(rules_vector(Rules()))), ("dealer", 4), ("phase", 2),
          ("hand", NUM_CARDS), ("auction", 4 * len(CONTRACTS)), ("high_bid", 1 + len(CONTRACTS)),
          ("high_bidder", 4))
OFFSETS, _, OBSERVATION_SIZE = block_offsets((name, length, "") for name, length in LAYOUT)  # 99

__doc__ = env_page(__doc__, "mediatore_bidding_v0", 4, NUM_ACTIONS, OBSERVATION_SIZE)


class raw_env(GameAEC):
    """The bidding environment without wrappers: illegal actions raise ``ValueError``."""

    metadata = {"render_modes": ["ansi", "human"], "name": "mediatore_bidding_v0",
                "is_parallelizable": False, "render_fps": 1}
    # The contract tables are read-only: a deepcopy shares them (a table of many deals is
    # large), a pickle writes them out.
    shared_on_copy = ("table", "_current")

    def __init__(self, table=None, render_mode: str | None = None,
                 normalize_rewards: bool = False, rules=None, **unknown):
        super().__init__()
        if unknown:  # as the other environments say it: with the valid names
            raise unknown_keywords("mediatore_bidding_v0", unknown, "table, render_mode, "
                                   "normalize_rewards, rules, illegal_reward (with env())")
        if isinstance(table, (str, bytes)) or hasattr(table, "__fspath__"):
            table = ContractTable.load(table)
        if table is not None and not isinstance(table, ContractTable):
            raise ValueError(f"table must be a ContractTable, a path to one or None, got {table!r}")
        if table is not None and rules is not None:
            raise ValueError("give a table (its rules are the game's) or rules, not both")
        self.table = table
        self.rules = table.rules if table is not None else Rules.coerce(rules)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"bad render_mode {render_mode!r}; valid: None, 'ansi', 'human'")
        self.render_mode = render_mode
        normalize = flag_option("normalize_rewards", normalize_rewards)
        self.reward_scale = 1.0 / max_payment(self.rules) if normalize else 1.0

        self._set_spaces(AGENTS, OBSERVATION_SIZE, NUM_ACTIONS)
        self._rng = np.random.default_rng()  # made now, so that copies share its future
        self.deal = None
        self.index = None
        self.entry = None

    # -- episode ------------------------------------------------------------------------------

    def reset(self, seed=None, options=None):
        i = self._read_options(options)  # checked, with the seed, before anything changes
        if seed_option(seed) is not None:
            self._rng = np.random.default_rng(seed)
        if self.table is None:
            seed_ = int(self._rng.integers(2 ** 31))
            self._current = build_table(1, seed=seed_, rules=self.rules, values="made")
            self.index = 0
        else:
            self._current = self.table
            self.index = int(i) if i is not None else int(self._rng.integers(len(self.table)))
        self.deal = self._current.deal(self.index)
        self.entry = None
        self._start_episode(AGENTS[self.deal.to_move])

    def _read_options(self, options) -> int | None:
        """The deal of the table that ``options`` ask for, checked (None: not given)."""
        i = reset_options(self.metadata["name"], options, ("deal",)).get("deal")
        if i is not None and self.table is None:
            raise ValueError("the 'deal' option needs a table")
        if i is not None and (isinstance(i, bool) or not isinstance(i, (int, np.integer))
                              or not 0 <= i < len(self.table)):
            raise ValueError(f"bad deal {i!r}; the table has deals 0..{len(self.table) - 1}")
        return i

    # -- observations -------------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """The legal action ids of the agent to act (empty once the episode is over)."""
        deal = self.deal
        if deal.phase == AUCTION:
            return deal.legal_moves()
        if deal.phase == CALL:
            cards = self._current.call_cards(self.index, deal.declarer, deal.contract)
            return [call_move(c) for c in cards]
        return []

    def observe(self, agent):
        seat = self._of_agent(SEATS, agent)
        deal = self.deal
        obs = np.zeros(OBSERVATION_SIZE, np.float32)
        obs[:OFFSETS["dealer"]] = rules_vector(self.rules)
        obs[OFFSETS["dealer"] + (deal.dealer - seat) % 4] = 1
        if deal.phase in (AUCTION, CALL):
            obs[OFFSETS["phase"] + (deal.phase == CALL)] = 1
        base = OFFSETS["hand"]
        for card in cards_of(deal.hands[seat]):
            obs[base + card] = 1
        for s, bid in deal.auction:
            if bid:
                obs[OFFSETS["auction"] + 4 * (bid - 1) + (s - seat) % 4] = 1
        obs[OFFSETS["high_bid"] + deal.high_bid] = 1
        if deal.high_bidder is not None:
            obs[OFFSETS["high_bidder"] + (deal.high_bidder - seat) % 4] = 1
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if self.deal.to_move == seat and not self.terminations.get(agent, True):
            mask[self.legal_actions()] = 1
        return {"observation": obs, "action_mask": mask}

    # -- steps --------------------------------------------------------------------------------

    def _refusal(self, action, agent: str) -> str:
        return illegal_action_message(action, agent, PHASE_NAMES[self.deal.phase],
                                      self.legal_actions(), NUM_ACTIONS, move_text)

    def play_if_legal(self, move: int) -> bool:
        """Play ``move`` (an id in range) for the agent to act, and end the episode with the
        table's payoffs when the auction (and the call) is over, if it is legal (one of
        :meth:`legal_actions`, the mask); return whether it was. An illegal move changes
        nothing."""
        if move not in self.legal_actions():
            return False
        agent = self.agent_selection
        deal = self.deal
        deal.apply(move)
        self._cumulative_rewards[agent] = 0.0
        for a in self.rewards:
            self.rewards[a] = 0.0
        if deal.phase in (AUCTION, CALL):
            self.agent_selection = AGENTS[deal.to_move]
            return True
        if deal.phase == END:  # thrown in
            payoffs = (0, 0, 0, 0)
        else:
            self.entry = self._current.entry(self.index, deal.declarer, deal.contract,
                                             deal.called_card)
            payoffs = self.entry.payoffs
        for seat, a in enumerate(AGENTS):
            self.rewards[a] = payoffs[seat] * self.reward_scale
            self.infos[a] = {"deal": self.index, "entry": self.entry}
        self._accumulate_rewards()
        self.terminations = dict.fromkeys(self.agents, True)
        return True

    # -- rendering ----------------------------------------------------------------------------

    def _table_text(self) -> str:
        """The hands (only the bidder's during the auction and the call), the auction, the
        result."""
        from ..core.cards import format_cards
        deal = self.deal
        lines = [f"mediatore_bidding_v0 · deal {self.index}, dealer {deal.dealer}"]
        seat = deal.to_move if deal.phase in (AUCTION, CALL) else None
        for s in range(4):
            shown = format_cards(deal.hands[s]) if seat is None or s == seat else "..."
            lines.append(f"  {AGENTS[s]}: {shown}")
        lines.append("  auction: " + (", ".join(f"{AGENTS[s]} {move_text(b)}" for s, b in deal.auction) or "-"))
        if self.entry is not None:
            lines.append(f"  result: {self.entry}")
        return "\n".join(lines)


env, standard_wrapped_env = wrapped(raw_env)
