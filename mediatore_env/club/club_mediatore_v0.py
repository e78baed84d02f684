# noqa: D212, D415
"""
# Club Mediatore

The older, club form of Mediatore played for chips (docs/rules.md 10.3), as a PettingZoo AEC
environment: antes into a pot, the first player who accepts becomes the mediator, plays alone
or calls a card for a secret partner, takes the widow, and must win 6 of the 11 points; a won
pot is taken, a lost one stays and grows. An episode is one session.

{summary}

Agent `player_i` sits in seat `i` of docs/rules.md: seat `(s + 1) % 4` acts after seat `s`; the
seat after the dealer speaks first and leads the first trick.

## Usage

{usage}

## Arguments

```python
club_mediatore_v0.env(rules=None, render_mode=None, normalize_rewards=False, render_all=False,
                      illegal_reward=-1, ante=5, deals=None)
```

`rules`: a `ClubRules` object or a dict of switches; `None` is the table of docs/rules.md 10.3.
`ante` (chips each player puts into an empty pot, default 5) and `deals` (`None`: until a pot
is won, at most 20 deals; an int: exactly that many deals) set the switches on top of `rules`.
Unknown names raise `TypeError`, bad values `ValueError`.

`render_mode`: `None`, `"ansi"` (`render()` returns the table as text) or `"human"` (prints it
after every step). `render_all`: render every hand; by default the acting seat's view only.

`normalize_rewards`: rewards in units of the first pot (4 antes, 20 chips by default) instead
of chips. They are not bounded by 1: a lost pot doubles when the next mediator matches it.

`illegal_reward` (`env()` only): the offender's reward for an illegal action (see below).

## Observation Space

The observation is a dictionary with an `'observation'` element, the float32 vector of what
the agent's seat knows, and an `'action_mask'` (int8, 123) of its legal actions.

The vector is seat-relative (the observer is relative seat 0, the next seat to act after it
1, ...) and holds everything that seat knows of the deal in progress and of the chips, and
nothing else (`mediatore_env.club.observation`, written from the seat's `ClubView` alone). Chips
are written as `log2(1 + chips) / 32` (at most 1): the pot can double deal after deal.
Layout version 1, 1932 floats in [0, 1]:

| offset | length | block | meaning |
|---:|---:|---|---|
| 0 | 2 | `rules` | the ante as a chip value; 1 when the session ends with the first pot won |
| 2 | 1 | `deal` | deals finished before this one / the session's most deals (20 by default) |
| 3 | 4 | `dealer` | the dealer's relative seat |
| 7 | 5 | `phase` | one-hot: auction, call, discard, play, end (auction: choosing the mediator; end: the session is over) |
| 12 | 4 | `to_move` | relative seat to act (all 0 once the session is over) |
| 16 | 40 | `hand` | the observer's cards now |
| 56 | 4 | `passed` | relative seats that passed in this deal's choosing of the mediator |
| 60 | 4 | `mediator` | the mediator's relative seat |
| 64 | 2 | `call` | [the mediator announced alone, the mediator called a card] |
| 66 | 40 | `called_card` | the card the mediator called |
| 106 | 6 | `partnership` | [mediator plays alone (known), has a partner (known), the partner's relative seat (4) when known] |
| 112 | 40 | `widow` | the widow, to the mediator once he has taken it |
| 152 | 40 | `discards` | the mediator's discards: to him at once, to all once the play ends |
| 192 | 1 | `pot` | the chips in the pot now, as a chip value |
| 193 | 1 | `to_match` | the pot the mediator's side must match (the pot when he accepted), as a chip value |
| 194 | 4 | `stakes` | by relative seat, the chips it has put into the standing pot, as chip values |
| 198 | 8 | `chips` | by relative seat, its change in chips so far in the session: the gain (4), then the loss (4), as chip values |
| 206 | 2 | `side_thirds` | (mediator's side, other side) thirds / 35 when the observer knows the sides, else 0 |
| 208 | 40 | `played` | every card played in this deal so far (on the table included) |
| 248 | 421 | `seat_0` | what relative seat 0 (the observer) did in this deal's play: 40 * slot + card (400) its card in each trick, led (10), won (9), its thirds taken / 35, its tricks taken / 9 |
| 669 | 421 | `seat_1` | the same for relative seat 1 |
| 1090 | 421 | `seat_2` | the same for relative seat 2 |
| 1511 | 421 | `seat_3` | the same for relative seat 3 |

Slots 0 to 8 of the seat blocks are the finished tricks in order, slot 9 the trick on the table.

### Legal Actions Mask

The legal actions of the agent to act are in the `action_mask` element of its observation;
the mask is all zeros for every other agent. With `raw_env()` an illegal action raises
`ValueError` naming the action, its meaning and the legal actions, and changes nothing. With
`env()`, as with PettingZoo's standard wrappers, an illegal action ends the episode: the
offender gets `illegal_reward` (-1), the others 0. Actions are accepted as in `mediatore_v0`
(`mediatore_env.codec.actions.as_move`: ints, numpy integers, 0-d or 1-element integer
arrays; never floats, bools or strings).

## Action Space

One `Discrete(123)` space serves every phase; the ids are the engine's move ids
(`mediatore_env.club.moves`), and `move_text(id)` / `parse_move(text)` turn them into text and
back:

| ids | phase | action | text |
|---|---|---|---|
| 0 | auction | pass: let the next player choose | `pass` |
| 1 | auction | accept: become the mediator (the first acceptance ends the choice) | `accept` |
| 2 | call | play alone | `alone` |
| 3 - 42 | call | call card `id - 3`, one the mediator does not hold | `call B3` |
| 43 - 82 | discard | discard card `id - 43` (4 moves, one card each) | `discard SA` |
| 83 - 122 | play | play card `id - 83` | `play D3` |

## Rewards

At the end of each deal every agent receives its change in chips over that deal: the ante it
put in at the start (an empty pot), what it matched, its share of a pot won, and at the end
of the session what it has in the pot still standing, returned. So an agent's rewards add up
to its chip change over the session, and the four agents' session totals sum to zero (a
single deal's need not: the pot holds the rest). Rewards go through the standard `rewards` /
`_cumulative_rewards` machinery, so `last()` returns an agent's rewards since it last acted.

## Other attributes

`env.unwrapped` (the `raw_env`) has `session` (the engine's `Session`; also `game`, as in
every environment), `view(agent)` (that seat's `ClubView`) and `record` (the session record of
`mediatore_env.club.records` once the session is over, else None). `mediatore-replay RECORD.json` replays and prints one.

`reset(seed=None, options=None)`: a seed (an int >= 0; anything else is a `ValueError`
that changes nothing) fixes the first dealer and the packs of the session
(the same seed, the same deals); without one, the generator seeded last goes on. The options
`{"packs": [pack, ...], "dealer": 0..3}` give the packs of the first deals (40 cards each, ids
or texts, or one string per pack; later deals are shuffled) and the first dealer, as a seat
or an agent name; `{"pack": pack}` is the first deal's alone. A bad value raises `ValueError`;
an unknown option is ignored with a warning.

`env()` is `raw_env` inside `ProtectedEnv` (`mediatore_env.envs.wrappers`), one wrapper that
behaves exactly as PettingZoo's `TerminateIllegalWrapper`, `AssertOutOfBoundsWrapper` and
`OrderEnforcingWrapper` stacked. The end of an episode, and copies with `copy.deepcopy` or
`pickle` at any point, behave as in `mediatore_v0` (`mediatore_env.envs.base.GameAEC`).

## Version History

* v0: Initial release (observation layout version 1).
"""

from __future__ import annotations

from .definition import CLUB
from .display import table_text
from .game import Session
from .moves import NUM_MOVES, PHASE_NAMES, move_text, parse_move
from .observation import OBSERVATION_SIZE
from .view import ClubView
from ..core.cards import NUM_CARDS
from ..envs.base import GameEnv
from ..envs.options import flag_option
from ..envs.pages import env_page
from ..envs.wrappers import wrapped

__doc__ = env_page(__doc__, "club_mediatore_v0", 4, NUM_MOVES, OBSERVATION_SIZE, CLUB.pettingzoo_id,
                   result='print(env.unwrapped.record["chips"])  # the session record: every deal, '
                          'and the chips')

__all__ = ["env", "raw_env", "standard_wrapped_env", "move_text", "parse_move", "NUM_MOVES",
           "OBSERVATION_SIZE"]


class raw_env(GameEnv):
    """Club Mediatore without wrappers: illegal actions raise ``ValueError``. See the module docs.

    The generic environment of :mod:`mediatore_env.envs.base` with what is club's: each
    deal's chip changes handed out as it ends (in units of the first pot with
    ``normalize_rewards``), ``render_all``, and the session by its own name."""

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": "club_mediatore_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }
    options = ("rules", "render_mode", "normalize_rewards", "render_all")
    pack_deals = "deal"
    phase_names = PHASE_NAMES

    def __init__(self, rules=None, render_mode: str | None = None, normalize_rewards: bool = False,
                 render_all: bool = False, **switches):
        super().__init__(CLUB, render_mode, rules=rules, **switches)
        self.render_all = flag_option("render_all", render_all)
        normalize = flag_option("normalize_rewards", normalize_rewards)
        self.reward_scale = 1.0 / CLUB.reward_unit_of(self.rules) if normalize else 1.0

    @property
    def normalize_rewards(self) -> bool:
        """Whether the chips are counted in first pots (``reward_scale``)."""
        return self.reward_scale != 1.0

    def _deal_shuffled(self, session: Session) -> None:
        session._deal(tuple(self._rng.permutation(NUM_CARDS).tolist()))  # valid by construction

    def _rewards(self) -> list:
        """The chip changes of the deal just ended, scaled."""
        scale = self.reward_scale
        return [[chips * scale for chips in self.game.results[-1].chips]]

    def _infos(self) -> list[dict]:
        """Empty, as they have always been: the chips are in the rewards and the record."""
        return [{} for _ in range(4)]

    @property
    def session(self) -> Session | None:
        """The engine's :class:`~.game.Session` in play (``game``, as in every environment)."""
        return self.game

    def view(self, agent) -> ClubView:
        """The :class:`~mediatore_env.club.view.ClubView` of ``agent``'s seat."""
        return super().view(agent)

    def _table_text(self) -> str:
        """The table as text: what the acting seat sees, or the open table with ``render_all``."""
        s = self.game
        source = s if self.render_all or s.to_move is None else self._views[s.to_move]
        return table_text(source, names=self.possible_agents, title="club_mediatore_v0")


env, standard_wrapped_env = wrapped(raw_env)
