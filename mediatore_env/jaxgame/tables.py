"""What a table's rules (the static switches of :class:`~mediatore_env.mediatore.rules.Rules`)
become for the JAX engine: small numpy arrays indexed by traced values, built once per Rules.

The rules are static configuration: everything that depends on a switch alone is settled here,
in plain Python, before tracing, so the traced step only indexes arrays (by contract, by card)
and never branches on a switch at run time. Each number is read from the Python engine's own
rules module (``rules.payments``, ``Rules.monte_seen_by``, ...), so a rule is written once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.cards import LOW_MASKS, NUM_CARDS, TOTAL_THIRDS
from ..mediatore.nine_tricks import DEAL_ORDER, HAND_SIZE, NUM_TRICKS
from ..mediatore.observation import rules_vector
from ..mediatore.rules import (ARCISOLISSIMO, CHIAMO, CONTRACTS, MEDIATORE, SIGNAL_MEANINGS,
                               Rules, max_payment, payments)
from .tricks import bools

# Who sees the original monte before play (Rules.monte_seen_by), as numbers.
MONTE_NONE, MONTE_DECLARER, MONTE_ALL = 0, 1, 2
_MONTE_CODE = {"none": MONTE_NONE, "declarer": MONTE_DECLARER, "all": MONTE_ALL}


# Contract ids as tables by contract index them: 0 (no contract) and the contracts.
CONTRACT_IDS = range(ARCISOLISSIMO + 1)

# Facts of the pack for every table, besides those every trick game shares (.tricks: POINTS_OF,
# SUIT_OF_CARD).
LOW_OF_CARD = bools(sum(LOW_MASKS))                         # Re or lower, by card
LOW_POWERS = int(LOW_OF_CARD[:10].sum())                    # the low cards: a suit's first 7
assert (LOW_OF_CARD.reshape(4, 10) == (np.arange(10) < LOW_POWERS)).all()
# By dealer, where each card of the pack goes in Mediatore's deal and club Mediatore's: a seat
# (nine_tricks.DEAL_ORDER), or 4 for the last four, the monte (club: the widow).
RECEIVER = np.array([list(order) + [4] * (NUM_CARDS - 4 * HAND_SIZE) for order in DEAL_ORDER],
                    np.int32)
# Values of the observation as the Python writers compute them (k / 35 and k / 9 in double,
# stored as float32), so the JAX observation is bit-identical.
THIRDS_VALUE = np.array([k / TOTAL_THIRDS for k in range(TOTAL_THIRDS + 1)], np.float32)
TRICKS_VALUE = np.array([k / NUM_TRICKS for k in range(NUM_TRICKS + 1)], np.float32)


@dataclass(frozen=True)
class RulesTables:
    """The arrays of one Rules (see the module docstring). Indexed by contract id 0..5 where a
    table is by contract (0: no contract)."""

    rules: Rules
    top_contract: int
    signal_code: str
    callable_cards: np.ndarray      # bool[40]: the cards the call_restriction lets be called
    chiamo_monte: bool              # Chiamo: the declarer takes the monte
    leads_first: np.ndarray         # bool[6]: the declarer leads to the first trick
    monte_seen: np.ndarray          # int32[6]: MONTE_NONE / _DECLARER / _ALL by contract
    # Payments of a won contract by contract (rules.payments read back): what each opponent
    # pays, with and without capotto; the giver's and the Chiamo declarer's share.
    opponent_pays: np.ndarray       # int32[2, 6]: [capotto, contract]
    giver_pays: np.ndarray          # int32[2]: [capotto]
    declarer_share: np.ndarray      # int32[2]: [capotto], Chiamo with a partner
    illegal_penalty: int            # what an illegal move costs its mover, per other seat
    rules_block: np.ndarray         # float32[23]: the observation's rules block

    @classmethod
    def of(cls, rules: Rules) -> "RulesTables":
        callable_cards = np.zeros(NUM_CARDS, bool)
        for power in rules.callable_powers():
            callable_cards[power::10] = True
        opponent_pays = np.zeros((2, len(CONTRACT_IDS)), np.int32)
        giver_pays = np.zeros(2, np.int32)
        declarer_share = np.zeros(2, np.int32)
        for capotto in (0, 1):
            for contract in CONTRACTS:
                if contract <= rules.top_contract:
                    # Declarer 0 alone: seat 1 is an opponent.
                    opponent_pays[capotto, contract] = -payments(
                        rules, contract, 0, None, None, True, bool(capotto))[1]
            giver_pays[capotto] = -payments(rules, MEDIATORE, 0, None, 1, True, bool(capotto))[1]
            declarer_share[capotto] = payments(rules, CHIAMO, 0, 1, None, True, bool(capotto))[0]
        return cls(
            rules=rules,
            top_contract=rules.top_contract,
            signal_code=rules.signals,
            callable_cards=callable_cards,
            chiamo_monte=rules.chiamo_monte,
            leads_first=np.array([c != 0 and rules.declarer_leads_first(c) for c in CONTRACT_IDS]),
            monte_seen=np.array([MONTE_NONE] + [_MONTE_CODE[rules.monte_seen_by(c)]
                                               for c in CONTRACTS], np.int32),
            opponent_pays=opponent_pays,
            giver_pays=giver_pays,
            declarer_share=declarer_share,
            illegal_penalty=max_payment(rules),
            rules_block=np.array(rules_vector(rules)),
        )


# The signals of each code besides none and what each states, as numbers for the traced lead
# mask: a request (always allowed), "last of its suit" (volo), "a low card kept" (striscio),
# "holds the highest card out" or "the second highest" (the alternative code's busso, ribusso).
REQUEST, LAST_OF_SUIT, LOW_KEPT, HOLDS_HIGHEST, HOLDS_SECOND = range(5)
_STATEMENT_KIND = {"_last_of_suit": LAST_OF_SUIT, "_low_card_kept": LOW_KEPT,
                   "_holds_highest": HOLDS_HIGHEST, "_holds_second": HOLDS_SECOND}


def signal_kinds(code: str) -> dict[int, int]:
    """By signal id of ``code`` (none excluded), the kind of what it states (above)."""
    return {signal: REQUEST if meaning is None else _STATEMENT_KIND[meaning.__name__]
            for signal, meaning in SIGNAL_MEANINGS[code].items()}

