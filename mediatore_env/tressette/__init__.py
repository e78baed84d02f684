"""Tressette (docs/rules.md 10.1-10.2) as a pure state machine: Partnership Tressette, its Low
Hand and claim variants, Three-Handed Tressette with its dead hand, Two-Handed Tressette with
its stock. Built on :mod:`mediatore_env.core`; no numpy, no RL stack.

Modules, each importing only those above it in this list (and :mod:`mediatore_env.core`):

- :mod:`.rules`: :class:`~.rules.TressetteRules` (the form: 4, 3 or 2 players; the switches
  ``low``, ``claim``, ``show_draws``), the sides, the target of 31, the outcome of a game;
- :mod:`.moves`: the one id space of moves (0..39 play a card, 40 claim the game);
- :mod:`.melds`: the napoletane and groups of a dealt hand;
- :mod:`.view`: :class:`~.view.TressetteView`, what one seat may know;
- :mod:`.game`: :class:`~.game.TressetteGame`, one game to 31 over several hands, its JSON
  text, its record and the record's bit-exact replay.
- :mod:`.positions`: a hand in play as a position of the double-dummy solver
  (:mod:`mediatore_env.analysis.solver`).

A game asks for a pack at the start of each hand (a chance event the caller controls)::

    >>> import random
    >>> game = TressetteGame(FORMS["tressette3"], dealer=0)
    >>> rng = random.Random(7)
    >>> while not game.is_over:
    ...     if game.needs_pack:
    ...         game.deal(random_pack(rng))
    ...     else:
    ...         game.apply(rng.choice(game.legal_moves()))
    >>> sum(game.outcome), max(game.totals) >= TARGET
    (0, True)

The game keeps a :class:`~.game.HandLog` per hand in ``TressetteGame.log`` (its deal, tricks,
melds, draws and points), each side's running total in ``totals`` and the totals when the hand
began in ``before``; ``record()`` writes the game for :meth:`~.game.TressetteGame.replay`, and
``random_pack(rng)`` shuffles a pack.
"""

from .game import Declared, Draw, HandLog, TressetteGame, Trick, deal_hands, random_pack
from .melds import MELD_KINDS, Meld, melds_of
from .moves import CLAIM, NUM_MOVES, move_text, parse_move
from .rules import FORMS, TARGET, TressetteRules
from .view import TressetteView

__all__ = ["TressetteGame", "TressetteRules", "TressetteView", "FORMS", "TARGET", "CLAIM",
           "NUM_MOVES", "move_text", "parse_move", "Meld", "MELD_KINDS", "melds_of", "HandLog",
           "Trick", "Declared", "Draw", "deal_hands", "random_pack"]
