"""The agents any trick game of the family gets: a greedy player and PIMC, which know no game
but the trick and read the rest from the game's definition (its trick facts,
:class:`~mediatore_env.core.definition.TrickFacts`, and its world sampler). They are the
``greedy`` and ``pimc`` of every game that brings none of its own (the toy game), and
``generic-greedy`` and ``generic-pimc`` of the others (:mod:`agents.registry`).

**Moves that play no card** (a bid, a call, a discard, a claim) are made only when no card can
be played, and then the lowest id of those legal: the cautious one in the family's games (a
pass; a claim never, as a card can always be played instead). Of the moves that play one card
the lowest id is played (Mediatore's: no signal).

**Greedy** (:class:`TrickGreedyAgent`) counts the cards it has seen this hand, and plays for
the points of its game's scoring (its trick facts' ``scoring``: the points of each card, of
every trick, of the last one; in Low Hand the fewest):

- it plays to win a trick with the card of best worth: the trick's points (the cards in it,
  its own, a point a trick where tricks score, the last trick's) if it holds, less its own
  points if it does not, each as likely as no foe still to play holds a card that beats it
  (its cards drawn at random from those unseen: a card nothing unseen beats -- a master --
  surely holds); where no card is worth it, it plays its cheapest card (fewest points, then
  weakest), saving its points; leading, this cashes its masters of most points, and leads low
  where the others hold many cards (Tressette's full deals) and high where they hold few of
  those unseen (the toy game's three cards of 40);
- last to play, its partner winning, it loads the trick with its card of most points;
- in Low Hand it stays under the trick with its most dangerous card (most points, then
  strongest), wins when it must with its strongest card if last, its weakest otherwise, and
  leads its cheapest card.

A card's strength is how many cards it beats when played to a trick they lead (the game's
``winner``: the power within the suit in the family; a trump beats every plain card).

**PIMC** (:class:`TrickPimcAgent`) is :class:`agents.search.WorldSearch` over the game's own
world sampler (the definition's ``worlds``): each world is a fresh game of the view's rules
dealt by the current hand's dealer, given the world's pack and the hand's moves so far. A card
is scored in a world exactly, with the family's double-dummy solver, when the world has at
most ``solve_at`` cards in play (hands and stock; by default Tressette's measured thresholds,
:data:`SOLVE_AT`) and the game can be solved: its tricks are the family's (no trumps, follow
suit) and score its thirds (the table: the seats' hands, the trick, the side's thirds so far,
the trick facts' stock); a world over ``world_nodes`` nodes is rolled out instead. Otherwise
by a rollout: the card, then the rest of the hand with the greedy player at every seat, the
value the points the seat's side takes from there on (the trick in play included). Negated in
Low Hand. The budget is WorldSearch's work: at most ``max_worlds`` worlds (32),
:data:`ROLLOUT_CARDS` cards played by their rollouts and :data:`NODES` solver nodes a decision,
as Tressette's PIMC.

    >>> from mediatore_env.registry import get
    >>> from agents.base import play
    >>> game = play(get("tressette2").new_game(), [TrickGreedyAgent("tressette2"),
    ...             TrickPimcAgent("tressette2", time_limit=None, max_worlds=2)],
    ...             packs=lambda k: list(range(40)), seeds=[1, 2])
    >>> game.is_over
    True
"""

from __future__ import annotations

from functools import lru_cache

from mediatore_env.analysis.solver import TablePosition, table_move_values
from mediatore_env.core.cards import ALL_CARDS, BIT_OF, NUM_CARDS, POINTS, bit
from mediatore_env.core.definition import GameDef, TrickFacts
from mediatore_env.core.tricks import trick_winner
from mediatore_env.registry import get

from .base import Agent
from .search import WorldSearch

__all__ = ["TrickGreedyAgent", "TrickPimcAgent", "SOLVE_AT", "card_moves"]

#: By players, the most cards in play (hands and stock) at which a world is solved: where a
#: Tressette world's exact values cost about 10 ms median (docs/search.md).
SOLVE_AT = {2: 22, 3: 27, 4: 28}
#: The default budget's most cards played by a decision's rollouts, as Tressette's PIMC
#: (docs/agents.md, *Budgets*).
ROLLOUT_CARDS = 3200
#: ... and its solver nodes per decision
NODES = 1_000_000


def trick_game(game: GameDef | str) -> GameDef:
    """The definition of ``game``; ValueError when it has no trick facts."""
    definition = get(game) if isinstance(game, str) else game
    if definition.trick is None:
        raise ValueError(f"{definition.name} has no trick facts: the generic trick agents "
                         "cannot play it (its definition's trick field)")
    return definition


def card_moves(facts: TrickFacts, legal: list[int]) -> dict[int, int]:
    """The cards ``legal`` plays, each by the lowest id that plays it: ``{card: move}``."""
    out: dict[int, int] = {}
    for move in sorted(legal):
        card = facts.card(move)
        if card is not None:
            out.setdefault(card, move)
    return out


@lru_cache(maxsize=None)
def _beats(winner) -> tuple[int, ...]:
    """For each card, the cards that beat it when played to a trick it leads, as a bitset."""
    return tuple(sum(bit(b) for b in range(NUM_CARDS) if b != a and winner(0, (a, b), 2) == 1)
                 for a in range(NUM_CARDS))


@lru_cache(maxsize=None)
def _beats_over(winner, led: int, card: int) -> int:
    """The cards that beat ``card`` once it is winning a trick led with ``led``, as a bitset
    (the trick's other cards lost to it, so only the suit led and ``card`` matter)."""
    return sum(bit(x) for x in range(NUM_CARDS)
               if x not in (led, card) and winner(0, (led, card, x), 3) == 2)


@lru_cache(maxsize=None)
def _strength(winner) -> tuple[int, ...]:
    """Each card's strength: how many cards it beats when played to a trick they lead."""
    beats = _beats(winner)
    return tuple(sum(beats[a] >> c & 1 for a in range(NUM_CARDS)) for c in range(NUM_CARDS))


class TrickGreedyAgent(Agent):
    """The greedy player of any trick game (the module docstring), for the game ``game`` (its
    definition or name). Deterministic."""

    name = "greedy"
    wants_observation = False

    # read through the definition, which pickles by its name (the facts hold functions, which
    # would not): an agent goes to a worker process (a tournament's, the web table's)
    facts = property(lambda self: self.game.trick)

    def __init__(self, game: GameDef | str):
        self.game = trick_game(game)
        self.beats, self.strength = _beats(self.facts.winner), _strength(self.facts.winner)

    def act(self, observation, view) -> int:
        legal = view.legal_moves()
        cards = card_moves(self.facts, legal)
        if not cards:
            return min(legal)
        return cards[self.card(view, list(cards)) if len(cards) > 1 else next(iter(cards))]

    def card(self, view, cards: list[int]) -> int:
        """The card to play of ``cards`` (the module docstring)."""
        facts, players, seat = self.facts, self.game.players, view.seat
        scoring = facts.scoring(view.rules)
        points, strength = scoring.card, self.strength
        trick, leader = tuple(view.trick), view.leader
        seen = view.hand
        for t in view.tricks:
            for c in t.cards:
                seen |= BIT_OF[c]
        for c in trick:
            seen |= BIT_OF[c]
        unseen = ALL_CARDS & ~seen

        def cheapest(c):
            return points[c], strength[c], c

        def dangerous(c):
            return points[c], strength[c], -c

        wins = [c for c in cards if facts.winner(leader, trick + (c,), players) == seat]
        last = len(trick) == players - 1
        if scoring.low:
            if not trick:
                return min(cards, key=cheapest)
            under = [c for c in cards if c not in wins]
            if under:
                return max(under, key=dangerous)
            return max(wins, key=dangerous) if last else min(wins, key=cheapest)
        side = facts.side(view)
        winning = facts.winner(leader, trick, players) if trick else seat
        if last and winning != seat and side >> winning & 1:
            return max(cards, key=lambda c: (points[c], -strength[c], -c))  # load the partner
        # Each winner's worth: the trick's points if it holds, its own lost if it does not,
        # as likely as no foe still to play holds a card that beats it.
        later = [(seat + k) % players for k in range(1, players - len(trick))]
        foe_cards = sum(not side >> s & 1 for s in later) * view.hand.bit_count()
        stake = scoring.trick(trick, view.hand.bit_count() == 1)

        def worth(c):
            above = self.beats[c] if not trick else _beats_over(facts.winner, trick[0], c)
            held = _none_held((above & unseen).bit_count(), unseen.bit_count(), foe_cards)
            return held * (stake + points[c]) - (1 - held) * points[c]

        if wins:
            worths = {c: worth(c) for c in wins}
            card = max(wins, key=lambda c: (worths[c], -strength[c], -c))
            if worths[card] > 0:
                return card
        return min(cards, key=cheapest)


@lru_cache(maxsize=4096)
def _none_held(beaten: int, unseen: int, held: int) -> float:
    """The chance that none of ``beaten`` cards of ``unseen`` lies among ``held`` of them drawn
    at random (the foes' cards)."""
    chance = 1.0
    for i in range(held):
        if unseen - i <= 0:
            break
        chance *= max(0, unseen - beaten - i) / (unseen - i)
    return chance


class TrickPimcAgent(WorldSearch):
    """PIMC for any trick game with a world sampler (the module docstring), for the game
    ``game``. ``max_worlds``, ``rollout_cards``, ``nodes``: WorldSearch's work budget, the
    default, reproducible from the seed; ``time_limit`` (seconds), ``min_worlds``: a budget on
    the clock instead;
    ``solve_at``: the most cards in play at which a world is solved (None: :data:`SOLVE_AT`;
    0: never); ``world_nodes``: the solver's node budget for one world."""

    name = "pimc"

    def __init__(self, game: GameDef | str, time_limit: float | None = None,
                 min_worlds: int = 4, max_worlds: int = 32, seed: int | None = None,
                 solve_at: int | None = None, world_nodes: int = 150_000,
                 rollout_cards: int | None = ROLLOUT_CARDS, nodes: int | None = NODES):
        super().__init__(time_limit, min_worlds, max_worlds, seed, rollout_cards=rollout_cards,
                         nodes=nodes)
        self.game = trick_game(game)
        if self.game.worlds is None:
            raise ValueError(f"{self.game.name} has no world sampler: PIMC cannot play it "
                             "(its definition's worlds, or a deal order in its trick facts)")
        for option, value in (("solve_at", solve_at), ("world_nodes", world_nodes)):
            if value is not None and (type(value) is not int or value < 0):
                raise ValueError(f"{option} must be an int >= 0, got {value!r}")
        self.greedy = TrickGreedyAgent(self.game)
        self.solve_at = SOLVE_AT.get(self.game.players, 0) if solve_at is None else solve_at
        self.world_nodes = world_nodes

    facts = TrickGreedyAgent.facts  # the definition's, as the greedy agent reads them

    def act(self, observation, view) -> int:
        legal = view.legal_moves()
        cards = card_moves(self.facts, legal)
        if not cards:
            return min(legal)
        moves = sorted(cards.values())
        return moves[0] if len(moves) == 1 else self.best_move(view, moves)

    def world(self, view, rng):
        """The current hand in a world drawn by the game's sampler, on a fresh game."""
        pack, moves = self.game.worlds(view, rng)
        world = self.game.new_game(view.rules, view.dealer)
        world.deal(pack)
        for move in moves:
            world.apply(move)
        return world

    def move_values(self, world, view, moves: list[int], budget) -> dict[int, float]:
        """Exact values where the world is small enough to solve, else rollouts."""
        scoring = self.facts.scoring(view.rules)
        sign = -1 if scoring.low else 1
        in_play = self.cards_in_play(world)  # what the solver's threshold and a rollout read
        table = self.table(world, view, scoring, in_play)
        if table is not None:
            values, spent = budget.solve_world(table_move_values, table, self.world_nodes)
            if spent:
                return None
            if values is not None:
                return {m: sign * values[self.facts.card(m)] for m in moves}
        side = self.facts.side(view)
        budget.rolled_out(len(moves) * in_play)
        return {m: sign * self.play_out(world.clone(), m, side, scoring) for m in moves}

    def table(self, world, view, scoring, in_play: int) -> TablePosition | None:
        """The solver's table of ``world`` for the seat's side, where the game can be solved
        and the world, with ``in_play`` cards still to play, is small enough (the module
        docstring); else None."""
        facts = self.facts
        if not (facts.winner is trick_winner and facts.follow_suit and scoring.card == POINTS
                and not scoring.per_trick):
            return None
        if in_play > self.solve_at:
            return None
        stock = tuple(facts.stock(world)) if facts.stock is not None else ()
        hands = tuple(world.view(s).hand for s in range(self.game.players))
        side, seen = facts.side(view), world.view(view.seat)
        # A finished trick is never the hand's last while a card is still to be chosen.
        taken = sum(scoring.trick(t.cards, False) for t in seen.tricks if side >> t.winner & 1)
        return TablePosition(hands, seen.leader, tuple(seen.trick), side, taken, scoring.low,
                             stock, scoring.last_trick)

    def cards_in_play(self, world) -> int:
        """Cards still to be played in the current hand: in the hands and the stock."""
        stock = len(self.facts.stock(world)) if self.facts.stock is not None else 0
        return stock + sum(world.view(s).hand.bit_count() for s in range(self.game.players))

    def play_out(self, game, move: int, side: int, scoring) -> int:
        """The points ``side`` takes from here to the end of the hand: ``move`` played in
        ``game``, then the greedy player at every seat."""
        facts, players, taken = self.facts, self.game.players, 0
        while True:
            view = game.view(game.to_move)
            card, trick = facts.card(move), tuple(view.trick)
            won = None  # the cards of a trick this move ends and the side takes
            if card is not None and len(trick) == players - 1:
                cards = trick + (card,)
                if side >> facts.winner(view.leader, cards, players) & 1:
                    won = cards
            game.apply(move)
            over = game.is_over or game.needs_pack
            if won is not None:
                taken += scoring.trick(won, over)
            if over:
                return taken
            move = self.greedy.act(None, game.view(game.to_move))
