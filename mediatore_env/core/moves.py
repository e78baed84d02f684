"""What every engine of the family accepts as a move id: an integer, numpy integers included,
checked before the engine asks whether the move is legal (``Deal.apply``, ``Session.apply``,
``TressetteGame.apply``)."""

from __future__ import annotations

import operator


def as_move_id(move) -> int | None:
    """``move`` as an int if it is an integer (numpy integers are welcome), else None
    (floats, bools, strings, arrays such as ``np.array([1])``): what an engine's ``apply``
    accepts before it checks that the move is legal.

        >>> as_move_id(3), as_move_id(True), as_move_id(3.0), as_move_id("3")
        (3, None, None, None)
    """
    if type(move) is int:
        return move
    if isinstance(move, bool):
        return None
    try:
        return operator.index(move)
    except TypeError:
        return None
