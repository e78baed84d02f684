"""Command-line tools, the top layer (above the agents): ``mediatore-play`` (:mod:`.play`),
``mediatore-replay`` (:mod:`.replay`), ``mediatore-bench`` (:mod:`.bench`) and
``mediatore-tables`` (:mod:`.tables`)."""
