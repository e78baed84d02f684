"""What every game of the Tressette family shares: the 40-card Italian pack and its notation
(:mod:`.cards`), tricks without trumps (:mod:`.tricks`), what an engine takes as a move id
(:mod:`.moves`), the game interface and the engines' base (:mod:`.game`), records and the one
rebuild of a game (:mod:`.records`), a game's definition (:mod:`.definition`, :mod:`.rules`)
and its display with a trick game's defaults (:mod:`.display`, the cards in words
:mod:`.text`), and what a seat asks of an agent (:mod:`.agent`). Plain ints and bitsets, no
numpy."""
