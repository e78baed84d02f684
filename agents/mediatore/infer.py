"""``pimc-infer``: PIMC whose worlds are weighted by how the other seats played their cards,
and whose declarer calls and exchanges by simulation (:mod:`agents.mediatore.declarer`).

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
   linear score of :data:`FEATURE_NAMES` (:func:`play_columns`), fitted to the card play of
   four ``pimc`` agents (:mod:`agents.training.infer`; the weights are shipped in
   ``agents/data/infer.npz``, read with numpy; the sum over plays, worlds and legal cards is
   the C core ``_likelihood`` where it was built, numpy otherwise: :data:`BACKEND`);
3. with ``auction`` set, multiplies in PIMC's auction likelihood too
   (:class:`~agents.mediatore.pimc.AuctionLikelihood`);
4. resamples the worlds to solve by weight and plays as PIMC does (:meth:`PIMCAgent.card_values`,
   the same budgets: the weighting's time counts in the decision's ``time_limit`` when it has
   one).

The model reads only what the seat that played saw (its own hand then, the public history)
and the partnership as the world has it: the agent builds it from its own
:class:`~mediatore_env.mediatore.view.SeatView` and each world, nothing else.

docs/infer.md has the measurements and the training command. In short: the weighted worlds
place more of the unseen cards right (42% against 37%); alone, neither they nor the call or
the exchange by simulation was shown to gain on plain PIMC, but the three together were ahead
of three ``pimc`` agents at their table, +0.44 units/deal (95% CI [+0.28, +0.60]) over 4000
deals, and of ``pimc`` against three greedy agents, +0.46 [+0.18, +0.74] over 2000.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from mediatore_env.core.cards import NUM_CARDS, POINTS, POWER_OF, SUIT_OF
from mediatore_env.core.tricks import trick_winner
from mediatore_env.mediatore.worlds import WorldSampler

from .declarer import side_mask
from .pimc import AuctionLikelihood, PIMCAgent, WeightedSampler, initial_hands

try:
    from . import _likelihood
except ImportError:  # not compiled (setup.py builds it where a C compiler is found)
    _likelihood = None

BACKEND = "c" if _likelihood is not None else "numpy"
"""Which core :func:`play_log_likelihood` uses by default: ``"c"`` or ``"numpy"``."""

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

_POINTS = np.array(POINTS, float) / 3
_POWER_OF = np.array(POWER_OF)
_POWER = _POWER_OF / 9
_SUIT = np.array(SUIT_OF)
#: A suit's cards as a 10-bit pattern, bit i the card of power i (card 10 * suit + power:
#: cards.py's order); the hand facts are read per suit from tables over the 1024 patterns.
_SUIT_SHIFTS = np.arange(4, dtype=np.uint64) * 10
_PATTERN = np.arange(1024)[:, None]
_POWERS = np.arange(10)
_IN = (_PATTERN >> _POWERS) & 1 == 1  # [pattern, power]: the card is in the pattern
_NONE_BELOW = _PATTERN & ((1 << _POWERS) - 1) == 0  # no card of the pattern below it
_NONE_ABOVE = _PATTERN >> (_POWERS + 1) == 0  # no card of the pattern above it
_LENGTH = np.repeat(_IN.sum(axis=1, keepdims=True) / 9, 10, axis=1)
assert all(c == 10 * SUIT_OF[c] + POWER_OF[c] for c in range(NUM_CARDS))


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

    def table(self) -> dict[str, np.ndarray]:
        """The rows' public facts as arrays over the ``K`` plays: ``seat``, ``card``,
        ``winner`` and ``suit`` (the suit led; both -1 on a lead), ``lead``, ``last`` (the
        trick's fourth card), ``thirds`` (in the trick so far, in points), ``later`` and
        ``seen`` (the cards of finished tricks and of the trick so far) as uint64 bitsets,
        ``led`` (the led suit's cards) and ``wins`` (the cards that would win the trick so far)
        ``[K, 40]``."""
        k = len(self.rows)
        t = {"seat": np.zeros(k, np.int64), "card": np.zeros(k, np.int64),
             "winner": np.full(k, -1), "suit": np.full(k, -1, np.int64),
             "last": np.zeros(k, bool), "thirds": np.zeros(k)}
        seen, later, best = [], [], np.zeros(k, int)  # best: the trick's highest power so far
        for i, (seat, card, trick, gone, winner, after) in enumerate(self.rows):
            t["seat"][i], t["card"][i] = seat, card
            seen.append(gone | sum(1 << c for c in trick))
            later.append(after)
            if not trick:
                continue
            t["suit"][i] = led = SUIT_OF[trick[0]]
            best[i] = max(POWER_OF[c] for c in trick if SUIT_OF[c] == led)
            t["winner"][i], t["last"][i] = winner, len(trick) == 3
            t["thirds"][i] = sum(POINTS[c] for c in trick) / 3
        t["seen"], t["later"] = np.array(seen, np.uint64), np.array(later, np.uint64)
        t["lead"], t["led"] = t["suit"] < 0, _SUIT == t["suit"][:, None]
        t["wins"] = t["led"] & (_POWER_OF > best[:, None])
        return t


#: How each of :data:`_BASE_FEATURES` is made: (the hand fact it multiplies, 0 none, 1 master,
#: 2 lowest, 3 length; whether it counts only when the trick's winner is a friend). The public
#: part of each is in :func:`_public_parts`, in the same order.
_MADE = ((0, 0), (1, 0), (1, 0), (3, 0), (2, 0), (0, 0),
         (0, 0), (0, 0), (0, 0), (0, 0), (1, 0), (0, 1), (0, 1), (2, 0), (0, 0), (3, 0), (1, 0))


def _public_parts(t: dict) -> list[np.ndarray]:
    """The public part ``[K, 40]`` of each of :data:`_BASE_FEATURES` for the plays of ``t``."""
    lead = t["lead"][:, None].astype(float)
    fol = 1 - lead
    wins = t["wins"] * fol
    return [lead * _POINTS, lead, lead * _POINTS, lead, lead, lead * _POWER,
            fol * _POINTS, wins, wins * t["thirds"][:, None], wins * t["last"][:, None], wins,
            fol * _POINTS, wins, fol, fol * _POWER, fol * ~t["led"], fol]


def _hand_facts(t: dict, hands: np.ndarray) -> list[np.ndarray]:
    """(legal, master, lowest, length), each ``[K, N, 40]``, of the cards of ``hands`` (bitsets,
    uint64 ``[K, N]``) at the plays of ``t``: may it be played; no unseen card above it (the
    seat's hand, the cards of finished tricks and of the trick so far are seen); no card below
    it in the hand; the length of its suit in the hand, / 9."""
    shape = (*hands.shape, NUM_CARDS)
    held_suits = ((hands[..., None] >> _SUIT_SHIFTS) & 1023).astype(np.intp)  # [K, N, 4]
    unseen = ~(hands | t["seen"][:, None])
    unseen_suits = ((unseen[..., None] >> _SUIT_SHIFTS) & 1023).astype(np.intp)
    held = _IN[held_suits].reshape(shape)
    follow = held & t["led"][:, None, :]
    legal = np.where(follow.any(axis=2, keepdims=True), follow, held)
    return [legal, _NONE_ABOVE[unseen_suits].reshape(shape),
            _NONE_BELOW[held_suits].reshape(shape), _LENGTH[held_suits].reshape(shape)]


def play_columns(t: dict, hands: np.ndarray, friend: np.ndarray
                 ) -> tuple[list[np.ndarray], np.ndarray]:
    """(the :data:`_BASE_FEATURES` of every card, each ``[K, N, 40]``; the legal cards
    ``[K, N, 40]``) for the ``K`` plays of ``t`` (:meth:`CardPlays.table`) in ``N`` worlds:
    ``hands`` (uint64 bitsets ``[K, N]``) the hand the seat held at each play in each world,
    ``friend`` (bool ``[K, N]``) whether the trick's winner so far was on its side (the
    declarer's side or the other). The training stacks them; the agent's
    :func:`play_log_likelihood` sums the same products grouped by hand fact."""
    legal, *facts = _hand_facts(t, hands)
    one = np.ones(legal.shape)
    columns = []
    for part, (fact, by_friend) in zip(_public_parts(t), _MADE):
        column = part[:, None, :] * (facts[fact - 1] if fact else one)
        columns.append(column * friend[:, :, None] if by_friend else column)
    return columns, legal


def _world_facts(plays: CardPlays, hands_now, sides):
    """(table, hands (uint64 bitsets ``[K, N]``), friend ``[K, N]``, declarer side ``[K, N]``)
    of ``plays`` in the worlds of ``hands_now`` (four hands now each) and ``sides`` (declarer
    side bitsets)."""
    t = plays.table()
    now = np.array(hands_now, np.uint64)  # [N, 4]
    hands = now[:, t["seat"]].T | t["later"][:, None]
    sides = np.array(sides)[None, :]
    declarer = (sides >> t["seat"][:, None]) & 1 == 1
    winner_side = (sides >> np.maximum(t["winner"], 0)[:, None]) & 1 == 1
    return t, hands, declarer == winner_side, declarer


def play_log_likelihood(plays: CardPlays, hands_now: list, sides: list[int],
                        weights: np.ndarray, backend: str | None = None) -> np.ndarray:
    """Per world, the sum over ``plays`` of log P(card played | the hand then, the history):
    ``hands_now[w]`` the four hands of world ``w`` now, ``sides[w]`` its declarer side.

    The logits are :func:`play_columns` times the weights, grouped by the hand fact each
    column multiplies (the public parts summed first, for each of the four roles: on the
    declarer's side or not, the winner a friend or not), so the work per play and world is a
    few products, whatever the number of features. ``backend``: ``"c"`` (the compiled core
    ``_likelihood``, a loop over the legal cards alone), ``"numpy"`` (``[K, N, 40]`` arrays),
    None: :data:`BACKEND`."""
    backend = backend or BACKEND
    if backend not in ("c", "numpy"):
        raise ValueError(f"backend must be 'c' or 'numpy', got {backend!r}")
    if backend == "c" and _likelihood is None:
        raise RuntimeError("the C core agents.mediatore._likelihood is not built")
    if not plays.rows:
        return np.zeros(len(hands_now))
    t, hands, friend, declarer = _world_facts(plays, hands_now, sides)
    # [fact, role, feature]: each feature's weight where it counts, the role being 2 * on the
    # declarer's side + the winner a friend; times the public parts [feature, play, card].
    base = len(_MADE)
    by_role = np.zeros((4, 4, base))
    for f, (fact, by_friend) in enumerate(_MADE):
        for role in range(1 if by_friend else 0, 4, 2 if by_friend else 1):
            by_role[fact, role, f] = weights[f] + weights[base + f] * (role >> 1)
    parts = np.stack(np.broadcast_arrays(*_public_parts(t)))
    coef = np.ascontiguousarray(np.tensordot(by_role, parts, axes=1)
                                .transpose(0, 2, 1, 3))  # [fact, play, role, card]
    role = 2 * declarer + friend
    if backend == "c":
        out = np.zeros(hands.shape[1])
        _likelihood.log_likelihood(coef, np.ascontiguousarray(hands), t["seen"], t["suit"],
                                   t["card"], np.ascontiguousarray(role, np.int64), out)
        return out
    legal, *facts = _hand_facts(t, hands)
    rows = np.arange(len(t["card"]))[:, None]
    z = coef[0][rows, role]
    for fact in range(3):
        z = z + coef[fact + 1][rows, role] * facts[fact]
    played = z[rows, :, t["card"][:, None]].sum(axis=0)[0]
    # |logit| stays far below exp's range (the weights are a few units, the features at most
    # 3), so the softmax's sum needs no shift by its maximum.
    return played - np.log((np.exp(z) * legal).sum(axis=2)).sum(axis=0)


def load_model(path=DEFAULT_MODEL) -> np.ndarray:
    """The player model's weights from an .npz written by :mod:`agents.training.infer`."""
    try:
        with np.load(path, allow_pickle=False) as f:
            names, weights = tuple(str(s) for s in f["names"]), np.array(f["weights"], float)
    # EOFError: an empty file; TypeError: a bare .npy array, which is no archive
    except (OSError, ValueError, KeyError, EOFError, TypeError) as e:
        raise ValueError(f"cannot read the player model {str(path)!r} ({e}); "
                         "python3 -m agents.training.infer --out PATH writes one") from None
    if names != FEATURE_NAMES or weights.shape != (len(FEATURE_NAMES),):
        raise ValueError(f"{path}: a player model of other features ({', '.join(names)}); "
                         "retrain it with python3 -m agents.training.infer")
    return weights


def examples_of_deal(deal):
    """The card plays of a finished deal as training examples for the player model:
    (features ``[k, F]`` of the ``k`` legal cards, index of the card played among them), with
    the hands as they were and the deal's real partnership; plays without a choice left out."""
    plays = CardPlays(deal.tricks, deal.trick, deal.leader)
    if not plays.rows:
        return []
    side = side_mask(deal.contract, deal.declarer, deal.partner)
    t, hands, friend, declarer = _world_facts(plays, [tuple(deal.hands)], [side])
    columns, legal = play_columns(t, hands, friend)
    x = np.stack([np.broadcast_to(c, legal.shape) for c in columns], axis=-1)[:, 0]
    x = np.concatenate([x, x * declarer[:, 0, None, None]], axis=-1)
    out = []
    for i, card in enumerate(t["card"]):
        cards = np.flatnonzero(legal[i, 0])
        if len(cards) > 1:
            out.append((x[i, cards], int(np.flatnonzero(cards == card)[0])))
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
    1: the model as fitted; default 0.5); ``model``: the path of the weights (default the
    shipped file); ``pool``: worlds drawn per world solved (default 4); ``calling`` and
    ``exchange``: ``"search"`` by default, the declarer's call and exchange by simulation
    (:mod:`agents.mediatore.declarer`; None: the greedy policies); the other options are
    :class:`PIMCAgent`'s (``auction`` too). The defaults are the parts measured together
    ahead of plain PIMC (docs/infer.md)."""

    name = "pimc-infer"

    def __init__(self, infer: float = 0.5, model=None, pool: int = 4, calling="search",
                 exchange="search", **options):
        super().__init__(pool=pool, calling=calling, exchange=exchange, **options)
        if isinstance(infer, bool) or not isinstance(infer, (int, float)) or not infer >= 0:
            raise ValueError(f"infer must be a number >= 0 (0: plain PIMC's worlds), got {infer!r}")
        self.infer = float(infer)
        self.weights = load_model(DEFAULT_MODEL if model is None else model)
        #: the last decision's effective number of worlds in the pool (Kish's n_eff)
        self.effective = None

    def world_sampler(self, view):
        sampler = WorldSampler(view)
        pool = self.weighed_pool(view, sampler)
        if pool is None:
            return sampler
        worlds, log_w = pool
        w = np.exp(log_w - log_w.max())
        self.effective = float(w.sum() ** 2 / (w ** 2).sum())
        return _Resampled(worlds, log_w)

    def weighed_pool(self, view, sampler):
        """(``pool * worlds`` worlds drawn by ``sampler``, the log-weight of each: the card play
        seen, and the auction's calls with ``auction`` set), or None where nothing weighs them
        (no card seen or ``infer=0``, and no auction weights)."""
        auction = AuctionLikelihood(view, self.auction) if self.auction is not None else None
        plays = CardPlays(view.tricks, view.trick, view.leader, skip=view.seat)
        if not (plays.rows and self.infer) and not (auction and auction.calls):
            return None
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
        return worlds, log_w
