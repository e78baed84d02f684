"""TressettePimcAgent: Perfect Information Monte Carlo for every form of Tressette
(four-handed partnerships, three-handed, two-handed) and the ``low`` and ``claim`` switches,
with greedy-policy rollouts early in a hand and the exact double-dummy solver late.

At each card to play with a choice, the agent draws worlds -- packs of the current hand that
its seat cannot tell from the real one -- from the game's own sampler
(:func:`mediatore_env.tressette.worlds.redeal`, which reads only the seat's view: its cards,
the cards played, the voids shown, the melds declared, the draws seen). In each world it
replays the hand so far on a fresh :class:`~mediatore_env.tressette.game.TressetteGame` and
scores every legal card (the world's hands in full view, which is the "perfect information"
of PIMC):

- **Late in the hand** -- at most ``solve_at`` cards still in play, in the hands and the
  stock (default :data:`SOLVE_AT`, by the number of players and Low Hand) -- exactly, with
  the solver (:func:`mediatore_env.analysis.solver.table_move_values` on
  :func:`~mediatore_env.tressette.positions.table_of` the world): the thirds the side
  ends the hand with after each card, all seats playing perfectly; a seat that plays alone is
  searched against a coalition of the others (the paranoid reduction). A world whose search
  would take more than ``world_nodes`` nodes is rolled out instead.
- **Earlier**, by a rollout: the card played, then the rest of the hand with
  :class:`~.greedy.TressetteGreedyAgent` at every seat (``rollout="selfplay"``: the form's
  shipped self-play network, each seat playing from its own view of the world; several
  times greedy's cost a card, docs/search.md); the value is the hand's points of the
  agent's side less the mean of the other sides', counted in thirds (melds and the last trick
  three thirds a point) so that the rounding down of thirds does not hide a difference.

Both are negated in Low Hand and put on one scale: the solver's thirds of the side times
``sides / (sides - 1)``, which is what the rollout's difference changes by per third of the
side (melds are fixed by the deal, so within a world they add the same to every card). The
card of best mean value over the worlds is played (ties: the lowest card id).
:data:`SOLVE_AT` was chosen by measurement (docs/search.md): the largest number of cards in
play at which a world's exact values cost about 10 ms median, so that a 100 ms decision
still sees about ten worlds (two-handed earlier, which beat it head to head on the work
budget); and none in Low Hand with three or four players, where greedy
rollouts played better: three-handed the paranoid coalition (two opponents pushing points onto
the seat, when each really sheds its own) lost to greedy, and four-handed the rollouts won
more games against greedy on the same packs.

With ``outlook=True`` a world is valued by the game to 31 instead of the hand's points: the
world starts from the game's totals, so it ends at 31 where the real one would (and is worth
its outcome), and a hand that leaves the game on is worth the expected outcome from the
totals it leaves (:mod:`.outlook`); the hand's margin breaks ties. Measured better against
greedy and not against plain PIMC, so it is off by default (docs/search.md).

With ``infer`` (a weight in (0, 1]) the worlds are not uniform: four candidates are drawn for
each world the budget may score, each weighed by ``infer`` to the power of the other seats'
moves, with a choice, that the greedy agent would not have made in it, and the search scores
them likely ones first (:class:`agents.search.WeighedWorlds`): the other seats' play tells
where their cards lie (docs/search.md, "Ahead of pimc: inference").

The worlds, the budget and the paired comparison are :class:`agents.search.WorldSearch`'s. By
default the budget is work, reproducible from the seed: at most ``max_worlds`` worlds (32),
:data:`ROLLOUT_CARDS` cards played by their rollouts (a world rolled out costs the cards in play
times the cards tried: early in the hand a few worlds fit, late in it all 32) and :data:`NODES`
solver nodes a decision; the solver's table is cleared before each world, so whether a world
fits ``world_nodes`` depends on the world alone.
Calibrated against the 0.1 s time limit it replaces (docs/agents.md, *Budgets*), which stays an
option (``time_limit``, ``min_worlds``).

The claim (switch ``claim``) is decided as the greedy agent decides it: whether a claim wins
depends only on the totals, which every seat sees, so no world is needed.

    >>> from mediatore_env.tressette.game import TressetteGame
    >>> from agents.base import play
    >>> agents = [TressettePimcAgent(time_limit=None, max_worlds=2) for _ in range(4)]
    >>> play(TressetteGame(), agents, packs=lambda k: list(range(40)), seeds=range(4)).is_over
    True
"""

from __future__ import annotations

from functools import lru_cache

from mediatore_env.analysis.solver import table_move_values
from mediatore_env.tressette.positions import table_of
from mediatore_env.core.cards import TOTAL_THIRDS, thirds_of
from mediatore_env.tressette.game import TressetteGame
from mediatore_env.tressette.rules import FORMS, LAST_TRICK_POINTS
from mediatore_env.tressette.worlds import HandSampler, redeal
from mediatore_env.tressette.view import TressetteView

from ..search import WeighedWorlds, WorldSearch, misses
from .greedy import TressetteGreedyAgent, roll_out, unweighed
from .outlook import expected_outcome

#: By (players, low), the most cards still in play (hands and stock) at which a world is
#: solved exactly: four-handed 7 cards a hand and three-handed 9, where exact values cost about
#: 10 ms median; two-handed 10 and a stock of 6, which beat the stock of 2 that rule gave head
#: to head (docs/search.md, "Ahead of pimc: solving earlier"). Never in Low Hand with three or
#: four players, where the greedy rollouts won more games against greedy than the solver did
#: (three-handed: the paranoid reduction; four-handed: paired on the same packs,
#: docs/search.md "Where the solver replaces the rollouts").
SOLVE_AT = {(4, False): 28, (4, True): 0, (3, False): 27, (3, True): 0, (2, False): 26,
            (2, True): 26}
#: The default budget's most cards played by a decision's rollouts (docs/agents.md,
#: *Budgets*): a world costs its cards in play times the cards tried.
ROLLOUT_CARDS = 3200
#: ... and its solver nodes per decision
NODES = 1_000_000
#: Who plays the rollouts: the greedy agent, or the form's shipped self-play network
ROLLOUTS = ("greedy", "selfplay")
#: With ``infer``, the candidate worlds drawn a decision, per world it may score
CANDIDATES_PER_WORLD = 4
#: The model of the other seats that ``infer`` weighs a world by (deterministic, stateless)
_MODEL = TressetteGreedyAgent()


@lru_cache(maxsize=None)
def rollout_network(rules):
    """The shipped network of ``rules``' form, for rollouts. Refused for rules other than the
    form's standard ones (claims aside: a world is played without them), which the network was
    not trained under: Low Hand, hidden draws. Checked once per rules, read once per form (the
    table's rules, with claims, and its worlds', without, share the file)."""
    if rules.replace(claim=False) != FORMS[rules.form]:
        raise ValueError(f"rollout='selfplay' plays {rules.form}'s shipped network, trained "
                         f"under its standard rules, not {rules}; use rollout='greedy'")
    return _shipped_network(rules.form)


@lru_cache(maxsize=None)
def _shipped_network(form: str):
    from ..selfplay import SelfPlayAgent  # numpy only
    return SelfPlayAgent(game=form)


def side_thirds(game: TressetteGame, side: int) -> int:
    """The thirds ``side`` holds in the current hand of ``game``: its cards' thirds, its
    melds and the last trick (each point counted as three thirds)."""
    rules, log = game.rules, game.log[-1]
    last = log.last_winner is not None and rules.side_of(log.last_winner) == side
    return (3 * log.meld_points[side] + sum(log.thirds[s] for s in rules.sides[side])
            + 3 * LAST_TRICK_POINTS * last)


def hand_value(game: TressetteGame, side: int) -> float:
    """What the hand played in ``game`` is worth to ``side``: its thirds less the mean of the
    other sides' (negated in Low Hand, where fewer points are better)."""
    sides = game.rules.num_sides
    mine = side_thirds(game, side)
    others = sum(side_thirds(game, s) for s in range(sides) if s != side) / (sides - 1)
    return (others - mine) if game.rules.low else (mine - others)


#: What a third of the hand's margin adds to a world's game value (``outlook``): enough to
#: break ties between cards the game's points cannot tell apart (thirds rounded down), too
#: little to outweigh any difference in the game's chances.
TIE_BREAK = 1e-4


def game_value(game: TressetteGame, view) -> float:
    """What the hand played in ``game`` (a world begun from the real totals) is worth to
    ``view``'s seat in the game: its outcome where the hand ended the game at 31, else the
    expected outcome from the totals (:mod:`.outlook`), the hand's margin breaking ties."""
    tie = TIE_BREAK * hand_value(game, view.side)
    if game.is_over:
        return game.outcome[view.seat] + tie
    return expected_outcome(game.rules, game.totals)[view.side] + tie


def solved_value(world: TressetteGame, view, thirds: int) -> float:
    """:func:`game_value` of a solved world whose side ends the hand with ``thirds`` (cards
    and the last trick), the game's end at 31 in mid-hand not seen."""
    rules, side = world.rules, view.side
    totals, others = hand_end_totals(world, side, thirds)
    margin = thirds - others if not rules.low else others - thirds
    return expected_outcome(rules, totals)[side] + TIE_BREAK * margin


def hand_end_totals(world: TressetteGame, side: int, thirds: int) -> tuple[list[int], int]:
    """The sides' totals when the hand of ``world`` ends with ``side`` holding ``thirds``
    (cards and the last trick), and the thirds each other side holds then: the rest of the
    hand's, shared evenly (exact with two sides; the solver does not say how the others split
    them). The melds are those declared: the default ``solve_at`` never solves before the
    first trick is over, when they are."""
    log = world.log[-1]
    in_play = TOTAL_THIRDS - thirds_of(log.dead)  # the dead hand's thirds are never won
    others = (in_play - thirds) // (world.rules.num_sides - 1)
    totals = [before + melds + (thirds if s == side else others) // 3
              for s, (before, melds) in enumerate(zip(world.before, log.meld_points))]
    return totals, others


class TressettePimcAgent(WorldSearch):
    """PIMC with exact late worlds and greedy rollouts (the module docstring). ``max_worlds``,
    ``rollout_cards``, ``nodes``: the work budget of a decision (the default, reproducible from the
    seed); ``time_limit``: seconds a decision may take instead; ``solve_at``: the most cards in
    play (hands and stock) at which a world is solved (None: :data:`SOLVE_AT`; 0: never,
    rollouts only); ``world_nodes``: the solver's node budget for one world; ``outlook``: value
    a world by the game to 31, not the hand's points (not with claims:
    :meth:`plays_for_game`); ``rollout``: who plays the rollouts at every seat, ``"greedy"``
    or ``"selfplay"`` (the form's shipped network, :data:`agents.tressette.SELFPLAY`);
    ``infer``: None (the worlds uniform), or the weight, in (0, 1], of a world for each move
    of another seat that the greedy agent would not have made in it
    (:class:`agents.search.WeighedWorlds`, from :data:`CANDIDATES_PER_WORLD` candidates a
    world)."""

    name = "pimc"
    view_type = TressetteView

    def __init__(self, time_limit: float | None = None, min_worlds: int = 4,
                 max_worlds: int = 32, seed: int | None = None, solve_at: int | None = None,
                 world_nodes: int = 150_000, outlook: bool = False,
                 rollout_cards: int | None = ROLLOUT_CARDS, nodes: int | None = NODES,
                 rollout: str = "greedy", infer: float | None = None):
        super().__init__(time_limit, min_worlds, max_worlds, seed, rollout_cards=rollout_cards,
                         nodes=nodes)
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        self.rollout = rollout
        for name, value in (("solve_at", solve_at), ("world_nodes", world_nodes)):
            if value is not None and (type(value) is not int or value < 0):
                raise ValueError(f"{name} must be an int >= 0, got {value!r}")
        if type(outlook) is not bool:
            raise ValueError(f"outlook must be True or False, got {outlook!r}")
        self.solve_at, self.world_nodes, self.outlook = solve_at, world_nodes, outlook
        if infer is not None and (type(infer) not in (int, float) or not 0 < infer <= 1):
            raise ValueError(f"infer must be a weight in (0, 1] or None, got {infer!r}")
        self.infer = infer

    def act(self, observation, view) -> int:
        move, legal = unweighed(view)
        if move is not None:
            return move
        if self.plays_for_game(view.rules):
            expected_outcome(view.rules, view.before)  # the model is built before the clock runs
        if self.rollout == "selfplay":
            rollout_network(view.rules)  # read, or refused, before the clock runs
        return self.best_move(view, legal)

    def plays_for_game(self, rules) -> bool:
        """Whether a world is valued by the game to 31 (``outlook``): not with claims, where
        reaching 31 does not end the game and a world of the hand alone cannot say when it
        ends."""
        return self.outlook and not rules.claim

    def world(self, view, rng) -> TressetteGame:
        """The current hand in a sampled world, alone (a fresh game) and without claims (the
        claim is decided apart)."""
        pack, moves = redeal(view, rng)
        world = self.dealt(view, pack)
        for move in moves:
            world.apply(move)
        return world

    def world_sampler(self, view):
        if self.infer is None:
            return super().world_sampler(view)
        sampler = HandSampler(view)  # built once for the decision's candidates

        def draw(rng) -> tuple[TressetteGame, int]:
            pack, moves = sampler.sample(rng)
            world = self.dealt(view, pack)
            return world, misses(world, moves, view.seat, _MODEL)

        return WeighedWorlds(draw, CANDIDATES_PER_WORLD * self.max_worlds, self.infer,
                             self.rng)

    def dealt(self, view, pack: list[int]) -> TressetteGame:
        """A fresh game of ``view``'s current hand, without claims, dealt ``pack``."""
        # Played for the game, the world starts from its totals, so it ends at 31 as it will.
        world = TressetteGame(view.rules.replace(claim=False), view.hands_played[-1]["dealer"],
                              view.before if self.plays_for_game(view.rules) else None)
        world.deal(pack)
        return world

    def move_values(self, world: TressetteGame, view, legal: list[int],
                    budget) -> dict[int, float]:
        """Exact values late in the hand (within ``world_nodes``), else rollouts."""
        rules = world.rules
        limit = SOLVE_AT[rules.players, rules.low] if self.solve_at is None else self.solve_at
        if cards_in_play(world) <= limit:
            thirds, spent = budget.solve_world(table_move_values, table_of(world, view.seat),
                                               self.world_nodes)
            if spent:
                return None
            if thirds is not None:
                if self.plays_for_game(view.rules):
                    return {move: solved_value(world, view, thirds[move]) for move in legal}
                sides = rules.num_sides
                scale = (-1 if rules.low else 1) * sides / (sides - 1)
                return {move: scale * thirds[move] for move in legal}
        return super().move_values(world, view, legal, budget)

    def roll_out(self, game: TressetteGame) -> None:
        if self.rollout == "selfplay":
            roll_out(game, rollout_network(game.rules))
        else:
            roll_out(game)

    def cards_in_play(self, world: TressetteGame) -> int:
        return cards_in_play(world)

    def value(self, game: TressetteGame, view) -> float:
        if self.plays_for_game(view.rules):
            return game_value(game, view)
        return hand_value(game, view.side)


def cards_in_play(game: TressetteGame) -> int:
    """Cards still to be played in the current hand: in the hands and the stock."""
    return sum(h.bit_count() for h in game.hands) + len(game.stock)
