"""Worlds of a plain trick game, from its trick facts alone: the current hand's pack dealt
again as a seat could imagine it, drawn uniformly (:func:`redeal`, a game's ``worlds`` when its
:class:`~.definition.TrickFacts` say how a hand is dealt).

A plain trick game deals each hand's pack in a fixed order (its trick facts' ``deal``: the
seat each card of the pack goes to, None for a card left unseen) and then only plays cards:
no auction, exchange or stock. What a seat knows of the hand is then its own cards, every card
played and by whom, and, where the game makes a seat follow suit, the suits a seat has shown
void in. Every other card lies in another seat's hand (not in a suit it showed void in) or among
the cards left unseen, each placement equally likely
(:class:`~mediatore_env.core.placement.Placement`), and each place's cards take its places in
the pack in a shuffled order, so the pack is uniform among those that fit. A game with more
to know (Mediatore's auction and monte, Tressette's melds and draws) brings its own sampler.

The view read: ``seat``, ``hand``, ``rules``, ``dealer`` (the current hand's), ``tricks``
(the hand's finished ones, each with its ``leader`` and ``cards``), ``trick`` and ``leader``.
"""

from __future__ import annotations

import random

from .cards import ALL_CARDS, cards_of
from .placement import Placement, shuffled
from .tricks import plays_and_voids, tricks_so_far


def redeal(facts, view, rng=None) -> tuple[list[int], list[int]]:
    """The current hand's ``(pack, moves)`` as ``view``'s seat could imagine it, under the
    trick facts ``facts`` (the module docstring): the moves are the hand's card plays so far."""
    rng = random.Random() if rng is None else rng
    order = list(facts.deal(view.rules, view.dealer))
    players = 1 + max(s for s in order if s is not None)
    unseen = players  # the place of the cards no seat was dealt
    tricks = tricks_so_far(view)
    played, voids = plays_and_voids(tricks, players)
    if not facts.follow_suit:
        voids = [0] * players  # a seat may play off suit holding the suit led
    me = view.seat
    fixed = [*played, 0]  # each seat's cards as dealt that the seat knows of
    fixed[me] |= view.hand
    caps = [order.count(s) - fixed[s].bit_count() for s in range(players)] + [order.count(None)]
    known = 0
    for cards in fixed:
        known |= cards
    anywhere = 1 << unseen | sum(1 << s for s in range(players) if s != me)
    allowed = {c: anywhere & ~sum(1 << s for s in range(players) if voids[s] >> c & 1)
               for c in cards_of(ALL_CARDS & ~known)}
    where = Placement(fixed, allowed, caps).deal(rng)
    queues = [shuffled(cards, rng) for cards in where]
    pack = [queues[unseen if s is None else s].pop() for s in order]
    return pack, [facts.play(card) for _, cards in tricks for card in cards]
