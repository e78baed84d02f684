"""What every game of the Tressette family shares: the 40-card Italian pack and its notation
(:mod:`.cards`), and tricks without trumps (:mod:`.tricks`). Plain ints and bitsets, no numpy."""
