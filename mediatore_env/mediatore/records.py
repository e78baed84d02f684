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

This module does not import the engine (the engine's methods call it): :func:`replay_deal`
is given the class to rebuild.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.cards import CARD_NAMES, card_names
# One replay and one file format for every game: re-exported where 0.1 had them.
from ..core.records import check_header, header, load_record, replay, save_record
from .moves import move_text, parse_move
from .rules import CONTRACT_NAMES, SIGNAL_NAMES, Rules

if TYPE_CHECKING:
    from .game import Deal

__all__ = ["GAME", "LEGACY_FORMAT", "result_of", "make_record", "replay_deal", "replay",
           "save_record", "load_record"]

GAME = "mediatore"
#: The format of version 1 records, before the common header.
LEGACY_FORMAT = "mediatore-record"



def result_of(deal: "Deal") -> dict:
    """The result part of a record, for a finished deal."""
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
        "tricks": [{"leader": t.leader, "cards": [CARD_NAMES[c] for c in t.cards],
                    "signal": SIGNAL_NAMES[t.signal], "winner": t.winner} for t in deal.tricks],
        "thirds": list(deal.side_thirds()),
        "scores": list(deal.side_scores()),
        "declarer_won": deal.declarer_won,
        "capotto": deal.capotto,
        "payoffs": list(deal.payoffs),
    }


def make_record(deal: "Deal", **meta) -> dict:
    """The record of a finished deal (``deal.record(**meta)``). Extra keyword arguments are
    stored under ``"meta"`` (player names, a tournament's deal number...) and ignored by
    :func:`replay`."""
    record = {
        **header(GAME),
        "rules": deal.rules.to_dict(), "dealer": deal.dealer,
        "pack": [CARD_NAMES[c] for c in deal.pack],
        "hands": [card_names(h) for h in _initial_hands(deal)],
        "moves": [{"seat": seat, "move": move_text(m)} for seat, m in deal.history],
        "result": result_of(deal),
    }
    if meta:
        record["meta"] = meta
    return record


def _initial_hands(deal: "Deal") -> list[int]:
    return type(deal)(deal.rules, deal.dealer, deal.pack).hands


def replay_deal(cls: type, record: dict) -> "Deal":
    """Re-simulate a record as a ``cls`` (a Deal); return the finished deal (``Deal.replay``).
    Raises ``ValueError`` naming the first thing that differs (the header, a move by the wrong
    seat, an illegal move, a different result)."""
    check_header(record, "Mediatore", (GAME,), LEGACY_FORMAT)
    deal = cls(Rules.from_dict(record["rules"]), record["dealer"], record["pack"])
    if "hands" in record and record["hands"] != [card_names(h) for h in deal.hands]:
        raise ValueError("record's hands differ from the hands its pack deals")
    for i, entry in enumerate(record["moves"]):
        if entry["seat"] != deal.to_move:
            raise ValueError(f"move {i} ({entry['move']!r}) is recorded for seat {entry['seat']}, "
                             f"but seat {deal.to_move} is to move")
        try:
            deal.apply(parse_move(entry["move"]))
        except ValueError as e:
            raise ValueError(f"move {i}: {e}") from None
    if not deal.is_over:
        raise ValueError(f"the record's {len(record['moves'])} moves do not finish the deal")
    actual = result_of(deal)
    stored = record.get("result")
    if stored is not None:
        for key in sorted(set(actual) | set(stored)):
            if actual.get(key) != stored.get(key):
                raise ValueError(f"result differs at {key!r}: record says {stored.get(key)!r}, "
                                 f"replay gives {actual.get(key)!r}")
    return deal
