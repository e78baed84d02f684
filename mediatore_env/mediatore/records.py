"""Game records: the JSON document users share, and :func:`replay`, which re-simulates one.

A record holds the rules, the dealer, the pack, every move with the seat that made it, and the
result. Every tool of the project (tournament, environment, terminal play, viewers) writes and
reads this one format::

    {"format": "mediatore-record", "version": 1,
     "rules": {...}, "dealer": 3, "pack": ["D3", ...],
     "moves": [{"seat": 0, "move": "bid chiamo"}, ...],
     "result": {"contract": "chiamo", "declarer": 0, "called_card": "B3", "partner": 2,
                "giver": null, "given_back": null, "tricks": [{"leader": 0, "cards": [...],
                "signal": "busso", "winner": 2}, ...], "thirds": [19, 16], "scores": [6, 5],
                "declarer_won": true, "capotto": false, "payoffs": [5, -4, 3, -4], ...}}

``tricks[i].cards`` are in playing order from the trick's leader. ``thirds`` and ``scores`` are
(declarer's side, other side), monte and last trick included.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..core.cards import CARD_NAMES, cards_of
from .game import Deal
from .moves import move_text, parse_move
from .rules import CONTRACT_NAMES, SIGNAL_NAMES, Rules

FORMAT = "mediatore-record"
VERSION = 1


def _cards(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in cards_of(mask)]


def result_of(deal: Deal) -> dict:
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
        "monte": _cards(deal.original_monte),
        "discards": _cards(deal.discards),
        "tricks": [{"leader": t.leader, "cards": [CARD_NAMES[c] for c in t.cards],
                    "signal": SIGNAL_NAMES[t.signal], "winner": t.winner} for t in deal.tricks],
        "thirds": list(deal.side_thirds()),
        "scores": list(deal.side_scores()),
        "declarer_won": deal.declarer_won,
        "capotto": deal.capotto,
        "payoffs": list(deal.payoffs),
    }


def make_record(deal: Deal, **meta) -> dict:
    """The record of a finished deal. Extra keyword arguments are stored under ``"meta"``
    (player names, a tournament's deal number...) and ignored by :func:`replay`."""
    record = {
        "format": FORMAT, "version": VERSION,
        "rules": deal.rules.to_dict(), "dealer": deal.dealer,
        "pack": [CARD_NAMES[c] for c in deal.pack],
        "hands": [_cards(h) for h in _initial_hands(deal)],
        "moves": [{"seat": seat, "move": move_text(m)} for seat, m in deal.history],
        "result": result_of(deal),
    }
    if meta:
        record["meta"] = meta
    return record


def _initial_hands(deal: Deal) -> list[int]:
    from .game import deal_hands
    return deal_hands(deal.pack, deal.dealer)[0]


def replay(record: dict) -> Deal:
    """Re-simulate a record; return the finished deal. Raises ``ValueError`` naming the first
    thing that differs (a move by the wrong seat, an illegal move, a different result)."""
    if record.get("format") != FORMAT:
        raise ValueError(f"not a Mediatore record: format is {record.get('format')!r}, expected {FORMAT!r}")
    if record.get("version") != VERSION:
        raise ValueError(f"unsupported record version {record.get('version')!r}; this library reads {VERSION}")
    deal = Deal(Rules.from_dict(record["rules"]), record["dealer"], record["pack"])
    if "hands" in record and record["hands"] != [_cards(h) for h in deal.hands]:
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


def save_record(record: dict, path) -> None:
    Path(path).write_text(json.dumps(record, indent=1) + "\n")


def load_record(path) -> dict:
    return json.loads(Path(path).read_text())
