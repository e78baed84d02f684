"""What every game of the Tressette family shares: the 40-card Italian pack and its notation
(:mod:`.cards`), tricks without trumps (:mod:`.tricks`), and what an engine takes as a move
id (:mod:`.moves`). Plain ints and bitsets, no numpy."""
