"""TressetteGreedyAgent: a card-counting heuristic player for every form of Tressette.

It reads only the seat's :class:`~mediatore_env.tressette.view.TressetteView`, and from it
works out a :class:`Table` (:meth:`Table.of`): the cards played this hand, the cards it knows
another seat holds (the cards of its declared melds, the two-handed draws it saw), the suits
a seat has shown void in (two-handed, only since the last draw), and which seats are friends
(the partner, four-handed) or foes. From these, a card is a *master* when no card still out
of sight or held by another seat beats it -- counting the cards, so once the 3 is played the
2 is the top of its suit -- and a card played to the trick is *sure* when no foe still to play
can beat it.

Playing for points (the normal game):

- **Following a friend's sure trick** it loads points: the card of most thirds for the least
  *keep value* (a master is worth keeping: 3, a card with one outstanding card above it 1).
- **Following otherwise** it takes the trick with its cheapest sure winner when the trick
  holds a third or more, or when that winner is no master worth keeping; else it plays its
  cheapest card (thirds plus keep value), keeping its points and its masters.
- **Void in the suit led** it loads a friend's sure trick, else throws its cheapest card from
  its shortest suit.
- **Leading** it cashes its masters, the one with most thirds first, from its longest suit
  (its own cards do not count against it: with a napoletana the Asso is a master, the 3 and
  the 2 being its own); with no master it leads the lowest card of its longest suit, never
  an Asso or a 2 that a higher card could capture. (Against the first version, which led its
  cheapest card by points and keep value from any suit, the longest suit scored +0.05, +0.01,
  +0.04 and +0.03 units per game in four tournaments of 300-400 games: small, but never worse.)

Low Hand (switch ``low``) turns the goals round: under a foe's winning card it sheds its most
dangerous card (most thirds, then the highest) that stays under; forced to win, it wins with
its highest card when it plays last (the trick is its anyway) and with its lowest otherwise;
void, it throws its Assi and high cards onto a foe's trick; it leads its lowest card of a suit
in which others hold higher ones.

With the ``claim`` switch it claims the game as soon as its side has 31 and the claim wins
(:func:`mediatore_env.tressette.rules.outcome`: in Low Hand a claim by the side at 31 wins only
when the others have more), and never otherwise.

    >>> from mediatore_env.tressette.game import TressetteGame
    >>> from agents.base import play
    >>> game = play(TressetteGame(), [TressetteGreedyAgent() for _ in range(4)],
    ...             packs=lambda k: list(range(40)))
    >>> game.is_over
    True
"""

from __future__ import annotations

from typing import NamedTuple

from mediatore_env.core.cards import ALL_CARDS, BIT_OF, POINTS, POWER_OF, SUIT_MASKS, SUIT_OF
from mediatore_env.core.tricks import plays_and_voids, trick_winner, tricks_so_far
from mediatore_env.tressette.moves import CLAIM
from mediatore_env.tressette.rules import TARGET, outcome
from mediatore_env.tressette.view import TressetteView

from ..base import Agent

#: The keep value of a master (a card nothing out can beat): a sure trick later.
MASTER_KEEP = 3
#: The keep value of a card with exactly one card out above it.
GUARDED_KEEP = 1
#: The power (mediatore_env.core.cards) of the Asso; the 2 and the 3 are above it.
ACE_POWER = 7


def _above(card: int) -> int:
    """The cards of the same suit that beat ``card``."""
    return SUIT_MASKS[SUIT_OF[card]] & ~((BIT_OF[card] << 1) - 1)


class Table(NamedTuple):
    """What the seat to move knows that matters to its play, as plain bitsets and tuples."""

    seat: int
    players: int
    low: bool
    hand: int                    # own cards
    trick: tuple[int, ...]       # the trick so far, from its leader
    leader: int
    friends: frozenset           # other seats of its side
    possible: tuple[int, ...]    # per seat: the cards it may hold (0 for itself)

    @classmethod
    def of(cls, view) -> "Table":
        """The table as ``view`` (the seat to move) sees it."""
        seat, players, rules = view.seat, view.players, view.rules
        draws, tricks = view.draws, tricks_so_far(view)
        # void: suits (as a card mask) a seat cannot follow. Two-handed, a draw may bring a seat
        # a suit it showed void in: only the voids since the last draw (two a trick) hold.
        since_draw = len(draws) // 2
        before_draw, _ = plays_and_voids(tricks[:since_draw], players)
        since, void = plays_and_voids(tricks[since_draw:], players)
        played = sum(before_draw) + sum(since)  # disjoint: each card is played once
        held = [0] * players  # cards it knows another seat still holds
        for who, meld in view.melds:
            held[who] |= meld.cards
        for who, card in draws:
            if card is not None:
                held[who] |= BIT_OF[card]
        hand = view.hand
        held = [0 if s == seat else h & ~played for s, h in enumerate(held)]
        unknown = ALL_CARDS & ~played & ~hand
        for h in held:
            unknown &= ~h
        possible = tuple(0 if s == seat else held[s] | (unknown & ~void[s])
                         for s in range(players))
        friends = frozenset(s for s in range(players)
                            if s != seat and rules.side_of(s) == rules.side_of(seat))
        return cls(seat, players, rules.low, hand, tuple(view.trick), view.leader, friends,
                   possible)

    # -- facts about cards ------------------------------------------------------------------

    @property
    def out(self) -> int:
        """Cards another seat may hold."""
        mask = 0
        for p in self.possible:
            mask |= p
        return mask

    def above_out(self, card: int) -> int:
        """How many cards another seat may hold that beat ``card``."""
        return (_above(card) & self.out).bit_count()

    def is_master(self, card: int) -> bool:
        return not _above(card) & self.out

    def keep(self, card: int) -> int:
        """What holding on to ``card`` is worth: a master most, a card one below the top some."""
        above = self.above_out(card)
        return MASTER_KEEP if above == 0 else GUARDED_KEEP if above == 1 else 0

    def later(self) -> list[int]:
        """Seats still to play to the trick after this one."""
        return [(self.seat + k) % self.players
                for k in range(1, self.players - len(self.trick))]

    def foe_beats(self, card: int, seats) -> bool:
        """Whether a foe among ``seats`` may hold a card beating ``card``."""
        above = _above(card)
        return any(s not in self.friends and self.possible[s] & above for s in seats)

    def winning(self) -> tuple[int, int]:
        """(card, seat) winning the trick so far."""
        seat = trick_winner(self.leader, self.trick, self.players)
        return self.trick[(seat - self.leader) % self.players], seat

    def suit_length(self, card: int) -> int:
        return (self.hand & SUIT_MASKS[SUIT_OF[card]]).bit_count()


def claim_wins(view) -> bool:
    """Whether a claim now wins the game for this seat's side: exact from the totals, which
    every seat sees, so every agent claims by it."""
    totals, side = view.totals, view.side
    return totals[side] >= TARGET and outcome(view.rules, totals, side)[view.seat] > 0


def unweighed(view) -> tuple[int | None, list[int]]:
    """(the move to make without weighing the cards -- the claim where it wins (never
    otherwise), or the only card -- or None; the cards to choose from, the claim left out)."""
    legal = view.legal_moves()
    if CLAIM in legal:
        if claim_wins(view):
            return CLAIM, legal
        legal = [m for m in legal if m != CLAIM]
    return (legal[0] if len(legal) == 1 else None), legal


class TressetteGreedyAgent(Agent):
    """The card-counting heuristic player of the module docstring. Deterministic."""

    name = "greedy"
    wants_observation = False
    view_type = TressetteView

    def act(self, observation, view) -> int:
        move, legal = unweighed(view)
        if move is not None:
            return move
        table = Table.of(view)
        if not table.trick:
            return self.lead_low(table, legal) if table.low else self.lead(table, legal)
        return self.follow_low(table, legal) if table.low else self.follow(table, legal)

    # -- playing for points ---------------------------------------------------------------

    def lead(self, t: Table, legal: list[int]) -> int:
        masters = [c for c in legal if t.is_master(c)]
        if masters:
            return max(masters, key=lambda c: (POINTS[c], t.suit_length(c), -c))
        # No master: an Asso or a 2 under a card still out is not led into it.
        plain = [c for c in legal if POWER_OF[c] < ACE_POWER] or legal
        return min(plain, key=lambda c: (-t.suit_length(c), POINTS[c], c))

    def follow(self, t: Table, legal: list[int]) -> int:
        best, winner = t.winning()
        later = t.later()
        friend_sure = winner in t.friends and not t.foe_beats(best, later)
        following = SUIT_OF[legal[0]] == SUIT_OF[t.trick[0]]
        if friend_sure:
            return max(legal, key=lambda c: (POINTS[c] - t.keep(c), -c))
        if following:
            trick_thirds = sum(POINTS[c] for c in t.trick)
            sure = [c for c in legal if c > best and not t.foe_beats(c, later)]
            if sure:
                card = min(sure)
                if trick_thirds + POINTS[card] >= 1 or not t.is_master(card):
                    return card
        return self.cheapest(t, legal)

    def cheapest(self, t: Table, legal: list[int]) -> int:
        """The card losing least: fewest thirds and keep value, from the shortest suit."""
        return min(legal, key=lambda c: (POINTS[c] + t.keep(c), t.suit_length(c), c))

    # -- Low Hand: avoiding points --------------------------------------------------------

    def lead_low(self, t: Table, legal: list[int]) -> int:
        # The lowest card of a suit where others hold more cards above it: someone else wins.
        return min(legal, key=lambda c: (POINTS[c], -t.above_out(c), POWER_OF[c], c))

    def follow_low(self, t: Table, legal: list[int]) -> int:
        best, winner = t.winning()
        led = SUIT_OF[t.trick[0]]
        foe_wins = winner not in t.friends
        if SUIT_OF[legal[0]] == led:
            under = [c for c in legal if c < best]
            if under:
                if foe_wins:  # shed the most dangerous card the foe's trick can take
                    return max(under, key=lambda c: (POINTS[c], c))
                return max(under, key=lambda c: (-POINTS[c], c))
            if not t.later():  # forced to win, last: the trick is ours, shed the highest
                return max(legal, key=lambda c: (-POINTS[c], c))
            return min(legal)
        if foe_wins:  # void: load the foe's trick with Assi, then high cards
            return max(legal, key=lambda c: (POINTS[c], POWER_OF[c], -t.suit_length(c)))
        return max(legal, key=lambda c: (-POINTS[c], POWER_OF[c], -t.suit_length(c)))


#: The rollout policy, stateless and deterministic: one instance serves every seat.
_ROLLOUT = TressetteGreedyAgent()


def roll_out(game, agent=None) -> None:
    """Play the current hand of ``game`` (a :class:`~mediatore_env.tressette.game.TressetteGame`)
    to its end with ``agent`` at every seat (None: the greedy policy)."""
    agent = _ROLLOUT if agent is None else agent
    hand = game.hand_number
    while not game.is_over and not game.needs_pack and game.hand_number == hand:
        game.apply(agent.act(None, game.view(game.to_move)))
