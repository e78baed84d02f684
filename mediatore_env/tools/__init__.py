"""Command-line tools, the top layer (above the agents): ``mediatore-play`` (:mod:`.play`),
``mediatore-replay`` (:mod:`.replay`), ``mediatore-bench`` (:mod:`.bench`) and
``mediatore-tables`` (:mod:`.tables`); with ``--game tressette``, ``tressette3`` or
``tressette2`` the first three play the Tressette games (:mod:`.tressette`). They share
:mod:`.checks` (arguments) and :mod:`.terminal` (reading and writing at a terminal)."""
