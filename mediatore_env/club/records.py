"""Session records: the body of a club Mediatore session's record
(:mod:`mediatore_env.core.records` is the header and the one :func:`replay` of every game),
written by :meth:`Session.record <mediatore_env.club.game.Session.record>` and read back by
``Session.replay``.

A record holds the rules, the first dealer, the pack of every deal, every move with the seat
that made it, and the result of every deal; the terminal play, the environment and the
tournament write it, ``mediatore-replay`` reads it::

    {"format": "mediatore-env-record", "game": "club", "version": 2,
     "rules": {"ante": 5, "deals": null}, "dealer": 3,
     "deals": [{"dealer": 3, "pack": ["D3", ...],
                "moves": [{"seat": 0, "move": "pass"}, {"seat": 1, "move": "accept"}, ...],
                "result": {"mediator": 1, "alone": false, "called_card": "B3", "partner": 2,
                           "discards": [...], "tricks": [...], "thirds": 19, "won": true,
                           "pot": 20, "matched": [10, 10], "taken": [20, 20],
                           "chips": [-5, 15, 15, -5]}}, ...],
     "chips": [-5, 15, 15, -5]}

``tricks[i].cards`` are in playing order from the trick's leader; ``thirds`` are the
mediator's side's, the discards and the last trick included; ``chips`` each seat's change in
chips over the deal (``result``) or the session (the last line). Version 1 records, of format
``"club-mediatore-record"``, have the same body and still replay.

The engine's :meth:`~mediatore_env.club.game.Session.record` and ``Session.replay`` call down
to this module, which never imports the engine: :func:`replay_session` is given the class to
rebuild, and rebuilds each deal as every engine does (:func:`mediatore_env.core.records.
rebuild`).
"""

from __future__ import annotations

from ..core.cards import CARD_NAMES, card_names
# One replay and one file format for every game.
from ..core.records import (check_header, check_result, header, load_record, rebuild,
                            recorded_moves, save_record)
from ..registry import replay
from .moves import move_text, parse_move
from .rules import ClubRules

__all__ = ["GAME", "LEGACY_FORMAT", "result_of", "make_record", "replay_session", "replay",
           "save_record", "load_record"]

GAME = "club"
#: The format of version 1 records, before the common header.
LEGACY_FORMAT = "club-mediatore-record"


def result_of(deal) -> dict:
    """The result part of a deal's entry in a record, from its
    :class:`~mediatore_env.club.game.DealResult`."""
    if deal.passed:
        return {"passed": True, "chips": list(deal.chips)}
    return {
        "passed": False,
        "mediator": deal.mediator,
        "alone": deal.alone,
        "called_card": None if deal.called_card is None else CARD_NAMES[deal.called_card],
        "partner": deal.partner,
        "discards": card_names(deal.discards),
        "tricks": [t.to_dict() for t in deal.tricks],
        "thirds": deal.thirds,
        "won": deal.won,
        "pot": deal.pot,
        "matched": list(deal.matched),
        "taken": list(deal.taken),
        "chips": list(deal.chips),
    }


def make_record(session, **meta) -> dict:
    """The record of a finished session (``session.record(**meta)``). Extra keyword arguments
    are stored under ``"meta"`` (player names, a tournament's session number...) and ignored
    by :func:`replay`."""
    if not session.is_over:
        raise ValueError("the session is not over: a record needs every deal finished")
    record = {
        **header(GAME),
        "rules": session.rules.to_dict(), "dealer": session.first_dealer,
        "deals": [{"dealer": d.dealer, "pack": [CARD_NAMES[c] for c in d.pack],
                   "moves": [{"seat": seat, "move": move_text(m)} for seat, m in d.moves],
                   "result": result_of(d)} for d in session.results],
        "chips": list(session.chips),
    }
    if meta:
        record["meta"] = meta
    return record


def replay_session(cls: type, record: dict):
    """Re-simulate a record as a ``cls`` (a Session); return the finished session
    (``Session.replay``). Raises ``ValueError`` naming the first thing that differs (the
    header, a deal's dealer, a move by the wrong seat, an illegal move, a different result)."""
    check_header(record, "club Mediatore", (GAME,), LEGACY_FORMAT)
    try:
        deals = record["deals"]
        packs = [d["pack"] for d in deals]
        session = cls(ClubRules.from_dict(record["rules"]), record["dealer"])
    except (KeyError, TypeError) as e:
        raise ValueError(f"bad club Mediatore record: missing or malformed {e}") from None
    for number, (deal, pack) in enumerate(zip(deals, packs), 1):
        if session.is_over:
            raise ValueError(f"the session is over after deal {number - 1}, but the record has "
                             f"{len(deals)} deals")
        if deal["dealer"] != session.next_dealer:
            raise ValueError(f"deal {number} is recorded with dealer {deal['dealer']}, but "
                             f"seat {session.next_dealer} deals it")
        try:
            rebuild(session, [pack], recorded_moves(deal["moves"]), parse_move, "deal")
        except ValueError as e:
            raise ValueError(f"deal {number}, {e}") from None
        if len(session.results) != number:
            raise ValueError(f"the {len(deal['moves'])} moves of deal {number} do not finish it")
        check_result(result_of(session.results[-1]), deal.get("result"), f"deal {number}: ")
    if not session.is_over:
        raise ValueError(f"the record's {len(deals)} deals do not finish the session")
    if "chips" in record and record["chips"] != session.chips:
        raise ValueError(f"the session's chips differ: record says {record['chips']}, replay "
                         f"gives {session.chips}")
    return session
