"""Club Mediatore, the pot game (docs/rules.md 10.3), as a pure state machine: antes into a pot,
the first player to accept becomes the mediator, plays alone or calls a secret partner, takes
the widow, and must win 6 of the 11 points; a won pot is taken, a lost one grows.

Modules, each importing only those above it in this list (and :mod:`mediatore_env.core` and
what the Mediatore engine already says once: the deal of docs/rules.md 3, tricks, the phases):

- :mod:`.rules`: the switches (:class:`~.rules.ClubRules`: ``ante``, ``deals``) and the chip
  arithmetic of matching and splitting the pot;
- :mod:`.moves`: the one id space of moves (accept, pass, alone, call, discard, play);
- :mod:`.view`: :class:`~.view.ClubView`, what one seat may know;
- :mod:`.records`: session records (JSON) and their bit-exact replay;
- :mod:`.game`: :class:`~.game.Session`, a session of deals from the first ante to the chips
  settled.
"""
