"""Perfect-information analysis of Mediatore deals: the double-dummy solver (:mod:`.solver`) and
the contract value tables built with it (:mod:`.tables`)."""
