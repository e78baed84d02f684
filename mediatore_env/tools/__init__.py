"""Command-line tools, the top layer (above the agents): ``mediatore-play`` (:mod:`.play`),
``mediatore-replay`` (:mod:`.replay`), ``mediatore-bench`` (:mod:`.bench`) and
``mediatore-tables`` (:mod:`.tables`). ``mediatore-play`` and ``mediatore-bench`` take
``--game`` (:data:`.checks.GAMES`): ``tressette``, ``tressette3`` or ``tressette2`` play the
Tressette games (:mod:`.tressette`), ``club`` club Mediatore (:mod:`.club`);
``mediatore-replay`` tells every game's records apart by their format. They share
:mod:`.checks` (arguments) and :mod:`.terminal` (reading and writing at a terminal)."""
