"""Perfect-information analysis for every game of the family: the double-dummy solver
(:mod:`.solver`, its C core ``_dds``), on the shared core alone, beneath the games. What each
game builds with it lives in its folder: Mediatore's contract value tables
(:mod:`mediatore_env.mediatore.tables`) and best exchange (:mod:`mediatore_env.mediatore.exchange`),
a Tressette hand as a position (:mod:`mediatore_env.tressette.positions`)."""
