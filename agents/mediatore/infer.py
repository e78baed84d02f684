"""``pimc-infer``: PIMC whose worlds are weighted by how the other seats played their cards.

Plain PIMC (:mod:`agents.mediatore.pimc`) draws worlds uniformly among those that fit what its
seat knows: it uses the cards played only as facts (a seat that did not follow is void).
Policy-based inference (Rebstock, Solinas, Buro, Sturtevant 2019) uses them as evidence too:
a world in which the other seats' cards so far were likely choices, for the hands the world
deals them, is more likely than one in which they were odd. So this agent

1. draws ``pool * worlds`` worlds uniformly, as PIMC does (so every world still fits the
   seat's information exactly: weighting never makes a world);
2. weighs each world by ``P(card | hand, history) ** infer`` over every card another seat has
   played so far, with the seat's hand at that moment as the world deals it (its cards now and
   those it played since), under a **player model**: a softmax over the legal cards of a
   linear score of :data:`FEATURE_NAMES` (:func:`play_features`), fitted to the card play of
   four ``pimc`` agents (:mod:`agents.training.infer`; the weights are shipped in
   ``agents/data/infer.npz``, read with numpy);
3. with ``auction`` set, multiplies in PIMC's auction likelihood too
   (:class:`~agents.mediatore.pimc.AuctionLikelihood`);
4. resamples the worlds to solve by weight and plays as PIMC does (:meth:`PIMCAgent.card_values`,
   the same budgets: the weighting's time counts in the decision's ``time_limit``).

The model reads only what the seat that played saw (its own hand then, the public history)
and the partnership as the world has it: the agent builds it from its own
:class:`~mediatore_env.mediatore.view.SeatView` and each world, nothing else.

docs/infer.md has the measurements (the ablation against plain PIMC, the timings) and the
training command.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from mediatore_env.core.cards import NUM_CARDS, POINTS, POWER_OF, SUIT_OF
from mediatore_env.core.tricks import trick_winner
from mediatore_env.mediatore.rules import CHIAMO
from mediatore_env.mediatore.worlds import WorldSampler

from .pimc import AuctionLikelihood, PIMCAgent, WeightedSampler, initial_hands

#: The shipped weights of the player model (``python3 -m agents.training.infer`` writes them).
DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "data" / "infer.npz"

#: What the player model scores for each legal card; lead features are 0 when following and
#: follow features 0 when leading. Points are in points (thirds / 3), powers and lengths / 9.
_BASE_FEATURES = (
    "lead_points", "lead_master", "lead_master_points", "lead_length", "lead_lowest",
    "lead_power",
    "follow_points", "follow_wins", "follow_wins_trick_points", "follow_wins_last",
    "follow_wins_master", "friend_winning_points", "friend_winning_wins", "follow_lowest",
    "follow_power", "discard_length", "follow_master",
)
#: ... and each again for a seat of the declarer's side (0 for a defender): declarers and
#: defenders play differently (held-out log-likelihood per card -0.849 with these, -0.883
#: without, docs/infer.md)
FEATURE_NAMES = _BASE_FEATURES + tuple("declarer_" + name for name in _BASE_FEATURES)

_CARDS = np.arange(NUM_CARDS)
_POINTS = np.array(POINTS, float) / 3
_POWER = np.array(POWER_OF, float) / 9
_SUIT = np.array(SUIT_OF)
_SAME_SUIT = _SUIT[:, None] == _SUIT[None, :]
#: _ABOVE[c, d]: d is a card of c's suit that beats it; _BELOW the other way round
_ABOVE = (_SAME_SUIT & (_POWER[None, :] > _POWER[:, None])).astype(float)
_BELOW = _ABOVE.T.copy()
_IN_SUIT = (_SUIT[:, None] == np.arange(4)[None, :]).astype(float)  # card -> its suit


def bits(masks) -> np.ndarray:
    """Card bitsets (ints) as a bool array ``[len(masks), 40]``."""
    return (np.array(masks, dtype=np.uint64)[:, None] >> _CARDS.astype(np.uint64)) & 1 == 1


def play_features(hands: np.ndarray, trick: tuple[int, ...], gone: int,
                  friend_winning: np.ndarray, declarer_side: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(features ``[n, 40, F]``, legal cards ``[n, 40]``) of the cards a seat may play, for ``n``
    hands at once: ``hands`` (bool ``[n, 40]``) the seat's hand in each, ``trick`` the cards
    of the trick so far (public), ``gone`` the cards played to finished tricks (a bitset),
    ``friend_winning`` (bool ``[n]``) whether the trick's winner so far is on the seat's side
    (the declarer's side or the other; unused on a lead), ``declarer_side`` (bool ``[n]``)
    whether the seat is on the declarer's side."""
    n = len(hands)
    legal = hands.copy()
    if trick:
        follow = hands & (_SUIT == _SUIT[trick[0]])[None, :]
        has = follow.any(axis=1)
        legal[has] = follow[has]
    seen = hands | bits([gone | sum(1 << c for c in trick)])  # cards the seat knows the place of
    unseen = (~seen).astype(float)
    master = unseen @ _ABOVE.T == 0  # no card above it left with anyone else
    lowest = hands.astype(float) @ _BELOW.T == 0
    length = (hands.astype(float) @ _IN_SUIT) @ _IN_SUIT.T / 9
    base = len(_BASE_FEATURES)
    x = np.zeros((n, NUM_CARDS, 2 * base))
    pts = np.broadcast_to(_POINTS, (n, NUM_CARDS))
    if not trick:
        x[..., 0] = pts
        x[..., 1] = master
        x[..., 2] = master * pts
        x[..., 3] = length
        x[..., 4] = lowest
        x[..., 5] = _POWER
        x[..., base:] = x[..., :base] * declarer_side[:, None, None]
        return x, legal
    led = _SUIT[trick[0]]
    best = max((c for c in trick if SUIT_OF[c] == led), key=POWER_OF.__getitem__)
    wins = np.broadcast_to((_SUIT == led) & (_POWER > _POWER[best]), (n, NUM_CARDS))
    thirds = sum(POINTS[c] for c in trick) / 3
    friend = friend_winning.astype(float)[:, None]
    x[..., 6] = pts
    x[..., 7] = wins
    x[..., 8] = wins * thirds
    x[..., 9] = wins * (len(trick) == 3)
    x[..., 10] = wins & master
    x[..., 11] = friend * pts
    x[..., 12] = friend * wins
    x[..., 13] = lowest
    x[..., 14] = _POWER
    x[..., 15] = (_SUIT != led) * length
    x[..., 16] = master
    x[..., base:] = x[..., :base] * declarer_side[:, None, None]
    return x, legal


def log_softmax_of_played(x: np.ndarray, legal: np.ndarray, weights: np.ndarray,
                          card: int) -> np.ndarray:
    """log P(``card``) under the player model, per row: the softmax of ``x @ weights`` over
    the legal cards (``-inf`` where ``card`` is not legal)."""
    z = np.where(legal, x @ weights, -np.inf)
    top = z.max(axis=1, keepdims=True)
    return z[:, card] - top[:, 0] - np.log(np.exp(z - top).sum(axis=1))


class CardPlays:
    """The card plays a seat has seen, each as what the model needs: (the seat that played,
    the card, the trick so far, the cards of finished tricks, the seat winning the trick so
    far, the cards that seat played from this card on). Built from public facts only: the
    tricks of a :class:`~mediatore_env.mediatore.view.SeatView` or a deal."""

    def __init__(self, tricks, trick=(), leader=None, skip=None):
        rows = []
        gone = 0
        for t_leader, cards in [(t.leader, t.cards) for t in tricks] + ([(leader, trick)]
                                                                        if trick else []):
            for i, c in enumerate(cards):
                seat = (t_leader + i) % 4
                winner = trick_winner(t_leader, cards[:i]) if i else None
                rows.append([seat, c, tuple(cards[:i]), gone, winner])
            gone |= sum(1 << c for c in cards)
        later = [0, 0, 0, 0]
        for row in reversed(rows):
            later[row[0]] |= 1 << row[1]
            row.append(later[row[0]])
        self.rows = [r for r in rows if r[0] != skip]


def side_mask(contract, declarer, partner) -> int:
    """The declarer's side as a bitset of seats (0 before a contract)."""
    if declarer is None:
        return 0
    return 1 << declarer | (1 << partner if contract == CHIAMO and partner is not None else 0)


def play_log_likelihood(plays: CardPlays, hands_now: list, sides: list[int],
                        weights: np.ndarray) -> np.ndarray:
    """Per world, the sum over ``plays`` of log P(card played | the hand then, the history):
    ``hands_now[w]`` the four hands of world ``w`` now, ``sides[w]`` its declarer side."""
    n = len(hands_now)
    total = np.zeros(n)
    sides = np.array(sides)
    for seat, card, trick, gone, winner, later in plays.rows:
        hands = bits([h[seat] | later for h in hands_now])
        declarer = (sides >> seat) & 1 == 1
        friend = declarer == ((sides >> winner) & 1 == 1) if trick else np.zeros(n, bool)
        x, legal = play_features(hands, trick, gone, friend, declarer)
        total += log_softmax_of_played(x, legal, weights, card)
    return total


def load_model(path=DEFAULT_MODEL) -> np.ndarray:
    """The player model's weights from an .npz written by :mod:`agents.training.infer`."""
    with np.load(path) as f:
        names = tuple(str(s) for s in f["names"])
        if names != FEATURE_NAMES:
            raise ValueError(f"{path}: a player model of other features ({', '.join(names)}); "
                             "retrain it with python3 -m agents.training.infer")
        return np.array(f["weights"], float)


def examples_of_deal(deal):
    """The card plays of a finished deal as training examples for the player model:
    (features ``[k, F]`` of the ``k`` legal cards, index of the card played among them), with
    the hands as they were and the deal's real partnership; plays without a choice left out."""
    plays = CardPlays(deal.tricks, deal.trick, deal.leader)
    hands_now = [tuple(deal.hands)]
    side = side_mask(deal.contract, deal.declarer, deal.partner)
    out = []
    for seat, card, trick, gone, winner, later in plays.rows:
        hand = bits([hands_now[0][seat] | later])
        friend = np.array([trick != () and (side >> seat & 1) == (side >> winner & 1)])
        x, legal = play_features(hand, trick, gone, friend, np.array([side >> seat & 1 == 1]))
        cards = np.flatnonzero(legal[0])
        if len(cards) > 1:
            out.append((x[0, cards], int(np.flatnonzero(cards == card)[0])))
    return out


class _Resampled(WeightedSampler):
    """Given worlds resampled by given log-weights (:meth:`WeightedSampler.sample`)."""

    def __init__(self, worlds, log_weights):
        self.worlds = worlds
        w = np.exp(log_weights - log_weights.max()) if len(worlds) else log_weights
        self.cumulative = np.cumsum(w).tolist()
        self.total = self.cumulative[-1]


class InferAgent(PIMCAgent):
    """PIMC over worlds weighted by the other seats' card play (see the module docstring).

    ``infer``: the exponent of the player model's likelihood (0: uniform worlds, plain PIMC;
    1: the model as fitted); ``model``: the path of the weights (default the shipped file);
    ``pool``: worlds drawn per world solved (default 4); the other options are
    :class:`PIMCAgent`'s (``auction`` too)."""

    name = "pimc-infer"

    def __init__(self, infer: float = 1.0, model=None, pool: int = 4, **options):
        super().__init__(pool=pool, **options)
        if isinstance(infer, bool) or not isinstance(infer, (int, float)) or not infer >= 0:
            raise ValueError(f"infer must be a number >= 0 (0: plain PIMC's worlds), got {infer!r}")
        if not isinstance(pool, int) or pool < 1:
            raise ValueError(f"pool must be a positive int, got {pool!r}")
        self.infer = float(infer)
        self.weights = load_model(DEFAULT_MODEL if model is None else model)
        #: the last decision's effective number of worlds in the pool (Kish's n_eff)
        self.effective = None

    def world_sampler(self, view):
        sampler = WorldSampler(view)
        auction = AuctionLikelihood(view, self.auction) if self.auction is not None else None
        plays = CardPlays(view.tricks, view.trick, view.leader, skip=view.seat)
        if not (plays.rows and self.infer) and not (auction and auction.calls):
            return sampler
        rng = self.rng
        worlds = [sampler.sample(rng) for _ in range(self.pool * self.worlds)]
        log_w = np.zeros(len(worlds))
        if plays.rows and self.infer:
            sides = [side_mask(view.contract, view.declarer, w.partner) for w in worlds]
            log_w += self.infer * play_log_likelihood(plays, [w.hands for w in worlds], sides,
                                                      self.weights)
        if auction is not None and auction.calls:
            log_w += [math.log(max(auction(initial_hands(sampler, w, rng)), 1e-300))
                      for w in worlds]
        w = np.exp(log_w - log_w.max())
        self.effective = float(w.sum() ** 2 / (w ** 2).sum())
        return _Resampled(worlds, log_w)

