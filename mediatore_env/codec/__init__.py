"""Mediatore's state turned into what learners and people read, and user input turned into moves:

- :mod:`.layout`: the observation's layout (version, blocks, offsets), the one place it is defined;
- :mod:`.reference`: the plain observation writer, from a SeatView alone (the tests' reference);
- :mod:`.observation`: the incremental :class:`~.observation.Encoder` the environments use, the
  action mask, and reading a vector back;
- :mod:`.actions`: the one function that turns a user's action into a move id;
- :mod:`.display`: the table as text.
"""
