"""Mediatore's state turned into what learners and people read: observation tensors
(:mod:`.observation`), action ids from user input (:mod:`.actions`) and text (:mod:`.display`)."""
