"""Packs chosen by hand for Tressette scenario tests: the deal of docs/rules.md 10.1-10.2, inverted.

The dealer deals batches of five, starting with the seat after the dealer and going in playing
order. Four-handed that is two rounds of four batches; three-handed the fourth batch of each
round is the dead hand; two-handed two rounds of two batches, and the other 20 cards (the next
card of the pack on top) are the stock. :func:`build_pack` turns the hands we want back into the
pack that deals them, so a test can say "seat 2 holds these ten cards".

This module computes the inverse on its own (it does not call the engine's ``deal_hands``), so
a test comparing the two checks the engine's deal against docs/rules.md.
"""

from __future__ import annotations

from mediatore_env.core.cards import parse_card, parse_cards

DEAD = "dead"


def cards(text_or_ids) -> list[int]:
    if isinstance(text_or_ids, str):
        return parse_cards(text_or_ids)
    return [parse_card(c) if isinstance(c, str) else c for c in text_or_ids]


def batch_owners(players: int, dealer: int) -> list:
    """Who receives each batch of five cards dealt (a seat, DEAD, or None for the stock)."""
    if players == 4:
        return [(dealer + 1 + b) % 4 for b in range(8)]
    if players == 3:
        return [DEAD if b % 4 == 3 else (dealer + 1 + b % 4) % 3 for b in range(8)]
    return [(dealer + 1 + b) % 2 for b in range(4)] + [None] * 4


def build_pack(players: int, dealer: int, hands: dict, dead="", stock="") -> list[int]:
    """The pack dealing ``hands[seat]`` (up to 10 cards each, text or ids) to each seat, ``dead``
    to the three-handed dead hand and ``stock`` (top first) to the two-handed stock; cards not
    named fill the rest in id order."""
    wanted = {seat: cards(h) for seat, h in hands.items()}
    wanted[DEAD] = cards(dead)
    stock = cards(stock)
    named = [c for h in wanted.values() for c in h] + stock
    assert len(named) == len(set(named)), "a card named twice"
    spare = [c for c in range(40) if c not in named]
    owners = batch_owners(players, dealer)
    slots = {owner: 0 for owner in owners}
    pack = []
    for owner in owners:
        if owner is None:
            continue
        mine = wanted.get(owner, [])
        for _ in range(5):
            i = slots[owner]
            pack.append(mine[i] if i < len(mine) else spare.pop(0))
            slots[owner] += 1
    if players == 2:
        pack += stock + spare[:20 - len(stock)]
        spare = spare[20 - len(stock):]
    assert len(pack) == 40 and not spare, "more cards named than a hand holds"
    return pack
