"""What every game's writers, table texts and environments share, above the engines and below
the environments; no game's own rules (each game's layout, writer and text live in its folder):

- :mod:`.layout`: an observation layout as blocks laid end to end, its offsets and its table;
- :mod:`.trick`: the observation of a plain trick game (a new game's, written once);
- :mod:`.actions`: a user's action turned into a move id, the one input check of every
  environment, the message of a refused action, and the legal moves as an action mask.
"""
