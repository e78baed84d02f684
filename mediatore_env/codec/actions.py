"""A user's action as a move id: the one input check of every environment and agent wrapper.

The environments' actions are the engine's move ids (each game's ``moves`` module:
:mod:`mediatore_env.mediatore.moves`, ...), ``Discrete(n)`` spaces of ``n`` ids. What a
PettingZoo or Gymnasium user may pass as an action, and what an agent may return as its move,
is decided here, once:

- accepted: a Python ``int``, a numpy integer scalar (``np.int64(3)``: a policy's argmax, an
  element of a sampled array), a 0-d or 1-element integer array (``np.array(3)``,
  ``np.array([3])``: what vectorised single-agent libraries hand one environment), in range;
- refused with ``ValueError``, naming the value and the valid ids: ``bool`` (``True`` is not
  move 1), floats, even whole ones (``1.0``, ``np.float32(1)``: truncating ``1.9`` to ``1``
  would play a move nobody chose), ``None``, strings (``parse_move`` reads a move's text),
  and integers out of range.

The raw environments read actions with :func:`as_move`, and ``env()``'s check of the action
space (:func:`is_action`) takes the same values, so both accept all of the above.

The other way, a seat's legal move ids become its ``action_mask`` here too (:func:`action_mask`,
every game's).

Whether a move id is *legal* now is the game's question (``game.is_legal``), not this
module's: an id in range may still be illegal. (An engine's ``apply`` keeps its own guard, in
the layer below this one; it refuses the same values, except that it takes no 1-element
arrays.) Nothing here knows a game: the number of ids and their text come from the caller.
"""

from __future__ import annotations

import operator

import numpy as np

from ..core.game import seat_of

__all__ = ["as_move", "is_action", "as_seat", "illegal_action_message", "action_mask"]


def _integer(value) -> int | None:
    """``value`` as a Python int if it is an integer (Python, numpy, or a 0-d or 1-element
    integer array); None if it is anything else, bools included."""
    if isinstance(value, np.ndarray):
        if value.shape not in ((), (1,)):
            return None
        value = value.reshape(())[()]  # the numpy scalar inside
    if isinstance(value, (bool, np.bool_)):  # bool is an int subclass: True would be move 1
        return None
    try:
        return operator.index(value)  # int, numpy integers, anything else that is an integer
    except TypeError:
        return None


def _why_not(value) -> str:
    """What a refused value is, for the error message."""
    scalar = value.reshape(())[()] if isinstance(value, np.ndarray) and value.size == 1 else value
    if isinstance(scalar, (bool, np.bool_)):
        return ", not bools"
    if isinstance(scalar, (float, np.floating)):
        return ", not floats"
    if isinstance(scalar, str):
        return " (parse_move turns a move's text into its id)"
    return ""


def is_action(action, num_actions: int) -> bool:
    """Whether :func:`as_move` takes ``action`` (the check of ``env()``'s action space, which
    Gymnasium's ``Discrete.contains`` would make narrower: it refuses ``np.uint64(3)`` and
    ``np.array([3])``)."""
    try:
        as_move(action, num_actions)
    except ValueError:
        return False
    return True


def as_move(action, num_actions: int) -> int:
    """The move id that ``action`` stands for, a Python int in ``0..num_actions - 1`` (see
    the module docstring for what is accepted). Raises ``ValueError`` naming the value and
    the valid ids otherwise."""
    if type(action) is int and 0 <= action < num_actions:  # the common case, first
        return action
    move = _integer(action)
    if move is None or not 0 <= move < num_actions:
        raise ValueError(f"{action!r} is not an action id: action ids are integers "
                         f"0..{num_actions - 1}{_why_not(action)}")
    return move


def as_seat(seat, what: str = "seat", players: int = 4) -> int:
    """A seat given by a user, accepted as :func:`as_move` accepts an action id (a 0-d or
    one-element array too), checked as every engine checks one (:func:`~..core.game.seat_of`):
    ``ValueError`` ("bad dealer 4; valid: 0, 1, 2, 3")."""
    index = _integer(seat)
    return seat_of(seat if index is None else index, players, what)


def illegal_action_message(action, agent: str, phase: str | None, legal, num_actions: int,
                           text) -> str:
    """The message of a raw environment refusing ``action`` from ``agent``: the action and
    its meaning (or why it is no action id), the phase (None in a game without phases, such as
    Tressette), and the legal actions. ``num_actions`` is the number of move ids and ``text``
    writes one (the game's own ``move_text``)."""
    try:
        move = as_move(action, num_actions)
    except ValueError as e:
        what = f"{action!r} ({e})"
    else:
        what = f"{move} ({text(move)})"
    where = "" if phase is None else f" in phase {phase}"
    return (f"illegal action {what} for {agent}{where}; legal actions: "
            + ", ".join(f"{m} ({text(m)})" for m in legal))


def action_mask(view, num_moves: int) -> np.ndarray:
    """The legal-move mask of ``view``'s seat among ``num_moves`` move ids (the game's): int8,
    1 at each of ``view.legal_moves()``, all 0 when it is not that seat's turn."""
    buf = bytearray(num_moves)  # filled as bytes, then seen as int8: cheaper than numpy's
    for move in view.legal_moves():  # indexing for a few moves, and this runs every step
        buf[move] = 1
    return np.frombuffer(buf, np.int8)
