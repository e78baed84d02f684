"""The rules of a Mediatore table: every variant switch of docs/rules.md section 8, and the scoring.

``Rules()`` is the game of docs/rules.md sections 1-7. Each switch changes exactly what its
variant says; the presets name common tables::

    >>> Rules(signals="off").signals
    'off'
    >>> Rules.preset("low").schedule
    'low'
    >>> Rules(first_lead="dealer")
    Traceback (most recent call last):
    ...
    ValueError: bad value 'dealer' for rules switch 'first_lead'; valid: 'mano', 'declarer_solissimo', 'declarer_solo', 'declarer'

The payment schedule lives here too (:func:`payments`), so a reader finds every number of
docs/rules.md section 7 in one place; and what each signal of each code says about the leader's
hand (:data:`SIGNAL_MEANINGS`), which decides both the legal leads and what a seat deduces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

from ..core.cards import LOW_MASKS, NUM_CARDS, SUIT_MASKS, bit, highest, suit_of
from ..core.rules import RulesBase

# Contracts (bids), lowest first. The values double as the bid move ids of moves.py.
CHIAMO, MEDIATORE, SOLO, SOLISSIMO, ARCISOLISSIMO = 1, 2, 3, 4, 5
CONTRACTS = (CHIAMO, MEDIATORE, SOLO, SOLISSIMO, ARCISOLISSIMO)
CONTRACT_NAMES = {CHIAMO: "chiamo", MEDIATORE: "mediatore", SOLO: "solo",
                  SOLISSIMO: "solissimo", ARCISOLISSIMO: "arcisolissimo"}

# Signals a leader may announce with the card led. One id space for every code, so the
# meaning of an id depends on Rules.signals (busso is a request in the standard code and a
# statement of fact in the alternative one): SIGNAL_MEANINGS below says what each one means.
NO_SIGNAL, BUSSO, VOLO, STRISCIO, RIBUSSO, MEGLIO, BUSSO_MEGLIO, RIBUSSO_MEGLIO, TUTTO_FUORI = range(9)
SIGNAL_NAMES = ("", "busso", "volo", "striscio", "ribusso", "meglio", "busso+meglio",
                "ribusso+meglio", "tutto fuori")
NUM_SIGNALS = len(SIGNAL_NAMES)


# -- what each signal says about the leader's hand (docs/rules.md 6 and 8.7) -----------------------

class Claim(NamedTuple):
    """What a signal states about the leader's hand after its lead: it holds none of the cards
    ``none_of`` and, unless ``one_of`` is None, at least one of the cards ``one_of`` (a single
    card: that very card). A statement is true when the hand after the lead bears it out
    (:func:`statement_truths`)."""

    none_of: int = 0
    one_of: int | None = None


# What each statement claims, as ``(none_of, one_of)`` of a Claim: the statements are computed
# at every lead under the alternative code (its legal moves), so they return plain pairs and
# take suit masks by card from a tuple.
_SUIT_MASK_OF = tuple(SUIT_MASKS[suit_of(c)] for c in range(NUM_CARDS))


def _last_of_suit(led: int, played: int) -> tuple[int, int | None]:
    """Volo: the card led was the leader's last of its suit."""
    return _SUIT_MASK_OF[led], None


def _low_card_kept(led: int, played: int) -> tuple[int, int | None]:
    """Striscio: the leader keeps a low card (Re or lower) of the suit led."""
    return 0, LOW_MASKS[suit_of(led)] & ~bit(led)


def _holds_highest(led: int, played: int) -> tuple[int, int | None]:
    """Busso in the alternative code: the leader holds the highest card of the suit led that
    is not yet played -- the card led counts as played, cards in the monte as not played
    (docs/rules.md decision 8). With no card of the suit out it claims one of no cards: never
    true."""
    out = _SUIT_MASK_OF[led] & ~(played | 1 << led)
    return 0, bit(highest(out)) if out else 0


def _holds_second(led: int, played: int) -> tuple[int, int | None]:
    """Ribusso in the alternative code: the leader holds the second-highest card of the suit
    led not yet played (as busso counts them)."""
    out = _SUIT_MASK_OF[led] & ~(played | 1 << led)
    if out:
        out &= ~bit(highest(out))
    return 0, bit(highest(out)) if out else 0


# By code, each signal besides none in the order the legal moves list them, and what it
# states: a function ``(card led, cards played to earlier tricks) -> (none_of, one_of)`` of a
# Claim, or None for a request (busso in the standard code, la meglio) or a signal whose bluff
# is allowed (tutto fuori), which state nothing sure and are always allowed. A statement is
# allowed only when true (docs/rules.md 6 and 8.7).
SIGNAL_MEANINGS: dict[str, dict[int, Callable[[int, int], tuple[int, int | None]] | None]] = {
    "off": {},
    "standard": {BUSSO: None, VOLO: _last_of_suit, STRISCIO: _low_card_kept},
    "no_striscio": {BUSSO: None, VOLO: _last_of_suit},
    "alternative": {BUSSO: _holds_highest, RIBUSSO: _holds_second, MEGLIO: None,
                    BUSSO_MEGLIO: _holds_highest, RIBUSSO_MEGLIO: _holds_second, TUTTO_FUORI: None},
}
SIGNALS_OF_CODE = {code: (NO_SIGNAL, *meanings) for code, meanings in SIGNAL_MEANINGS.items()}
# By code: its distinct statements (busso and busso+meglio make the same one), numbered for
# statement_truths.
STATEMENTS = {code: tuple(dict.fromkeys(m for m in meanings.values() if m is not None))
              for code, meanings in SIGNAL_MEANINGS.items()}


def signal_claim(code: str, signal: int, led: int, played: int) -> Claim | None:
    """What leading ``led`` with ``signal`` states under the signal ``code`` about the leader's
    hand after the lead (None: nothing; no signal, a request, or a signal not of the code);
    ``played``: the cards played to the tricks before."""
    meaning = SIGNAL_MEANINGS[code].get(signal)
    return None if meaning is None else Claim(*meaning(led, played))


def statement_truths(code: str, hand: int, led: int, played: int) -> int:
    """Which statements of ``code`` (:data:`STATEMENTS`) the leader may make leading ``led``
    from ``hand``, ``played`` the cards played to the tricks before: bit ``k`` set when the
    ``k``-th statement is true of the hand after the lead."""
    rest = hand & ~bit(led)
    truths = 0
    for k, meaning in enumerate(STATEMENTS[code]):
        none_of, one_of = meaning(led, played)
        if not rest & none_of and (one_of is None or rest & one_of):
            truths |= 1 << k
    return truths


def signals_allowed_by(code: str, truths: int) -> tuple[int, ...]:
    """The signals besides none of ``code`` allowed when its statements' truths are
    ``truths`` (as :func:`statement_truths` returns them): every request, and each true
    statement."""
    statements = STATEMENTS[code]
    return tuple(signal for signal, meaning in SIGNAL_MEANINGS[code].items()
                 if meaning is None or truths >> statements.index(meaning) & 1)


def allowed_signals(code: str, hand: int, led: int, played: int) -> tuple[int, ...]:
    """The signals besides none that the leader may announce leading ``led`` from ``hand``
    under ``code``, with ``played`` the cards played to the tricks before: every request, and
    each statement that is true of the hand after the lead."""
    return signals_allowed_by(code, statement_truths(code, hand, led, played))


# Switch name -> allowed values; the first value is the default (docs/rules.md sections 1-7).
SWITCHES: dict[str, tuple] = {
    # Variant 1: False = in Chiamo the declarer neither takes nor sees the monte.
    "chiamo_monte": (True, False),
    # Variants 2 and 3: who sees the monte in the contracts where the declarer takes it.
    "monte_shown": ("standard", "always", "never"),
    # Variant 4: which cards may be called in Chiamo and Mediatore.
    "call_restriction": ("any", "three", "three_or_two", "no_ace"),
    # Variant 5: False = no Arcisolissimo, and the Solissimo declarer may not see the monte.
    "arcisolissimo": (True, False),
    # Variant 6: who leads to the first trick.
    "first_lead": ("mano", "declarer_solissimo", "declarer_solo", "declarer"),
    # Variant 7: the signal code.
    "signals": ("standard", "no_striscio", "off", "alternative"),
    # Variant 8: the payment schedule, and whether capotto adds 2 per paying player.
    "schedule": ("standard", "low"),
    "capotto_bonus": (True, False),
}


@dataclass(frozen=True, slots=True)
class Rules(RulesBase):
    """The switches of one table. Immutable and hashable; build variants with ``replace``."""

    SWITCHES = SWITCHES

    chiamo_monte: bool = True
    monte_shown: str = "standard"
    call_restriction: str = "any"
    arcisolissimo: bool = True
    first_lead: str = "mano"
    signals: str = "standard"
    schedule: str = "standard"
    capotto_bonus: bool = True

    def check(self) -> None:
        if self.schedule == "low" and self.arcisolissimo:
            raise ValueError("the low schedule has no Arcisolissimo: use schedule='low' with "
                             "arcisolissimo=False (or the preset 'low')")

    # -- what the switches mean ----------------------------------------------------------

    @property
    def top_contract(self) -> int:
        return ARCISOLISSIMO if self.arcisolissimo else SOLISSIMO

    @property
    def signal_ids(self) -> tuple[int, ...]:
        return SIGNALS_OF_CODE[self.signals]

    def callable_powers(self) -> tuple[int, ...]:
        """Powers (cards.py) of the ranks that may be called: 3 = 9, 2 = 8, Asso = 7."""
        return {"any": tuple(range(10)), "three": (9,), "three_or_two": (8, 9),
                "no_ace": (0, 1, 2, 3, 4, 5, 6, 8, 9)}[self.call_restriction]

    def declarer_leads_first(self, contract: int) -> bool:
        first_contract = {"mano": None, "declarer_solissimo": SOLISSIMO,
                          "declarer_solo": SOLO, "declarer": CHIAMO}[self.first_lead]
        return first_contract is not None and contract >= first_contract

    def first_leader(self, contract: int, declarer: int, mano: int) -> int:
        """Who leads the first trick of ``contract``: its ``declarer`` where these rules say
        so (``first_lead``), else il ``mano``."""
        return declarer if self.declarer_leads_first(contract) else mano

    def monte_seen_by(self, contract: int) -> str:
        """Who sees the original monte before play: 'all', 'declarer' or 'none'."""
        if contract == CHIAMO:
            if not self.chiamo_monte:
                return "none"
            return "all" if self.monte_shown == "always" else "declarer"
        if contract in (MEDIATORE, SOLO):
            return "declarer" if self.monte_shown == "never" else "all"
        if contract == SOLISSIMO:
            return "declarer" if self.arcisolissimo else "none"
        return "none"

    def takes_monte(self, contract: int) -> bool:
        return contract in (MEDIATORE, SOLO) or (contract == CHIAMO and self.chiamo_monte)


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    # Harder Chiamo: the declarer plays without the monte (variant 1).
    "chiamo_blind": Rules(chiamo_monte=False),
    "open_monte": Rules(monte_shown="always"),
    "closed_monte": Rules(monte_shown="never"),
    "call_three": Rules(call_restriction="three"),
    "no_arcisolissimo": Rules(arcisolissimo=False),
    "declarer_leads": Rules(first_lead="declarer"),
    "alternative_signals": Rules(signals="alternative"),
    "no_signals": Rules(signals="off"),
    # The low schedule of seeds 000/002, which has no Arcisolissimo.
    "low": Rules(schedule="low", arcisolissimo=False),
}
Rules.PRESETS = PRESETS


# -- payments (docs/rules.md section 7) ---------------------------------------------------------

# What each opponent of the declarer pays for a won contract, per schedule.
_OPPONENT_PAYS = {
    "standard": {CHIAMO: 4, MEDIATORE: 8, SOLO: 12, SOLISSIMO: 16, ARCISOLISSIMO: 18},
    "low": {CHIAMO: 2, MEDIATORE: 4, SOLO: 6, SOLISSIMO: 8},
}
# Mediatore: the player who gave the called card pays less.
_GIVER_PAYS = {"standard": 6, "low": 3}
# Chiamo with a partner: the declarer's share of the two opponents' payments; the partner
# gets the rest (standard 5 + 3 of 8, low 3 + 1 of 4).
_CHIAMO_DECLARER_GETS = {"standard": 5, "low": 3}
CAPOTTO_BONUS = 2  # per paying player


def payments(rules: Rules, contract: int, declarer: int, partner: int | None,
             giver: int | None, won: bool, capotto: bool) -> tuple[int, int, int, int]:
    """Units each seat receives (negative: pays) for a finished contract. Sums to zero.

    ``partner`` is the called partner in Chiamo (None when playing alone), ``giver`` the seat
    that gave the called card in Mediatore (None when no one did).
    """
    schedule = rules.schedule
    bonus = CAPOTTO_BONUS if capotto and rules.capotto_bonus else 0
    pay = [0, 0, 0, 0]
    opponents = [s for s in range(4) if s != declarer and s != partner]
    for s in opponents:
        pay[s] = -(_OPPONENT_PAYS[schedule][contract] + bonus)
    if contract == MEDIATORE and giver is not None:
        pay[giver] = -(_GIVER_PAYS[schedule] + bonus)
    if partner is not None:
        declarer_share = _CHIAMO_DECLARER_GETS[schedule] + bonus
        pay[partner] = -sum(pay) - declarer_share
        pay[declarer] = declarer_share
    else:
        pay[declarer] = -sum(pay)
    if not won:
        pay = [-p for p in pay]
    return tuple(pay)


def max_payment(rules: Rules) -> int:
    """The largest payment any seat can receive or pay in one deal under ``rules`` (the scale of
    normalised rewards)."""
    best = 0
    for contract in CONTRACTS:
        if contract > rules.top_contract:
            continue
        for partner in ((None, 1) if contract == CHIAMO else (None,)):
            for giver in ((None, 1) if contract == MEDIATORE else (None,)):
                for won in (True, False):
                    for capotto in (True, False):
                        pay = payments(rules, contract, 0, partner, giver, won, capotto)
                        best = max(best, *map(abs, pay))
    return best
