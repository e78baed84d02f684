"""Mediatore's game records: the body of a deal's record (:mod:`mediatore_env.core.records`
is the header and the one :func:`replay` of every game), written by :meth:`Deal.record
<mediatore_env.mediatore.game.Deal.record>` and read back by ``Deal.replay``.

A record holds the rules, the dealer, the pack, every move with the seat that made it, and the
result. Every tool of the project (tournament, environment, terminal play, viewers) writes and
reads this one format::

    {"format": "mediatore-env-record", "game": "mediatore", "version": 2,
     "rules": {...}, "dealer": 3, "pack": ["D3", ...],
     "moves": [{"seat": 0, "move": "bid chiamo"}, ...],
     "result": {"contract": "chiamo", "declarer": 0, "called_card": "B3", "partner": 2,
                "giver": null, "given_back": null, "tricks": [{"leader": 0, "cards": [...],
                "signal": "busso", "winner": 2}, ...], "thirds": [19, 16], "scores": [6, 5],
                "declarer_won": true, "capotto": false, "payoffs": [5, -4, 3, -4], ...}}

``tricks[i].cards`` are in playing order from the trick's leader. ``thirds`` and ``scores`` are
(declarer's side, other side), monte and last trick included. Version 1 records, of format
``"mediatore-record"``, have the same body and still replay.

The engine's :meth:`~mediatore_env.mediatore.game.Deal.record` and ``Deal.replay`` call down
to this module, which never imports the engine: :func:`replay_deal` is given the class to
rebuild, and rebuilds it as every engine does (:func:`mediatore_env.core.records.rebuild`).
"""

from __future__ import annotations

from ..core.cards import CARD_NAMES, card_names
# One replay and one file format for every game: re-exported where 0.1 had them.
from ..core.records import (check_header, check_result, header, load_record, rebuild,
                            recorded_moves, save_record)
from ..registry import replay
from .moves import move_text, parse_move
from .nine_tricks import deal_hands
from .rules import CONTRACT_NAMES, SIGNAL_NAMES, Rules

__all__ = ["GAME", "LEGACY_FORMAT", "result_of", "make_record", "replay_deal", "replay",
           "save_record", "load_record"]

GAME = "mediatore"
#: The format of version 1 records, before the common header.
LEGACY_FORMAT = "mediatore-record"


def result_of(deal) -> dict:
    """The result part of a record, for a finished deal (a :class:`~.game.Deal`)."""
    if not deal.is_over:
        raise ValueError("the deal is not over: a result needs all nine tricks (or a throw-in)")
    if deal.thrown_in:
        return {"thrown_in": True, "payoffs": list(deal.payoffs)}
    name = lambda c: None if c is None else CARD_NAMES[c]  # noqa: E731
    return {
        "thrown_in": False,
        "contract": CONTRACT_NAMES[deal.contract],
        "declarer": deal.declarer,
        "called_card": name(deal.called_card),
        "partner": deal.partner,
        "giver": deal.giver,
        "given_back": name(deal.given_back),
        "monte": card_names(deal.original_monte),
        "discards": card_names(deal.discards),
        "tricks": [t.to_dict(SIGNAL_NAMES) for t in deal.tricks],
        "thirds": list(deal.side_thirds()),
        "scores": list(deal.side_scores()),
        "declarer_won": deal.declarer_won,
        "capotto": deal.capotto,
        "payoffs": list(deal.payoffs),
    }


def make_record(deal, **meta) -> dict:
    """The record of a finished deal (``deal.record(**meta)``). Extra keyword arguments are
    stored under ``"meta"`` (player names, a tournament's deal number...) and ignored by
    :func:`replay`."""
    record = {
        **header(GAME),
        "rules": deal.rules.to_dict(), "dealer": deal.dealer,
        "pack": [CARD_NAMES[c] for c in deal.pack],
        "hands": [card_names(h) for h in deal_hands(deal.pack, deal.dealer)[0]],
        "moves": [{"seat": seat, "move": move_text(m)} for seat, m in deal.history],
        "result": result_of(deal),
    }
    if meta:
        record["meta"] = meta
    return record


def replay_deal(cls: type, record: dict):
    """Re-simulate a record as a ``cls`` (a Deal); return the finished deal (``Deal.replay``).
    Raises ``ValueError`` naming the first thing that differs (the header, the hands its pack
    deals, a move by the wrong seat, an illegal move, a different result)."""
    check_header(record, "Mediatore", (GAME,), LEGACY_FORMAT)
    deal = cls(Rules.from_dict(record["rules"]), record["dealer"], record["pack"])
    if "hands" in record and record["hands"] != [card_names(h) for h in deal.hands]:
        raise ValueError("record's hands differ from the hands its pack deals")
    rebuild(deal, [], recorded_moves(record["moves"]), parse_move)
    if not deal.is_over:
        raise ValueError(f"the record's {len(record['moves'])} moves do not finish the deal")
    check_result(result_of(deal), record.get("result"))
    return deal
