"""Mediatore's rules as a pure state machine, and what each seat knows and can deduce.

Modules, each importing only those above it in this list (and :mod:`mediatore_env.core`):

- :mod:`.rules`: the variant switches (:class:`~.rules.Rules`), contracts, signals, payments;
- :mod:`.moves`: the one id space of moves, and the phases of a deal;
- :mod:`.nine_tricks`: what a deal shares with club Mediatore's: its sizes, the 6 points to
  win, the four seats, the hands dealt in threes, the step of a card played, what a seat sees
  of it alike;
- :mod:`.view`: :class:`~.view.SeatView`, what one seat may know;
- :mod:`.records`: game records (JSON) and their bit-exact replay;
- :mod:`.game`: :class:`~.game.Deal`, one deal from the shuffle to the payment;
- :mod:`.knowledge`: what a seat can deduce about the hidden cards;
- :mod:`.worlds`: worlds that fit a seat's knowledge, drawn uniformly (for PIMC).
- :mod:`.exchange`: the search of the declarer's exchange (the best cards to remove);
- :mod:`.tables`: contract value tables, each deal solved double dummy
  (:mod:`mediatore_env.analysis.solver`; numpy for their files).
"""
