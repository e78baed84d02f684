"""The arguments an environment takes from its user, checked: each answers bad input with a
``ValueError`` that names the argument and what would be valid, before anything changes.
"""

from __future__ import annotations

import math
import sys
import warnings

import numpy as np

from ..codec.actions import as_seat
from ..core.cards import validate_pack


def unknown_keywords(env: str, unknown, valid: str) -> TypeError:
    """The error for keyword arguments ``unknown`` to environment ``env``'s constructor, with
    the ``valid`` ones (Python's own names neither)."""
    return TypeError(f"unknown keyword argument(s) {', '.join(map(repr, sorted(unknown)))} for "
                     f"{env}; valid: {valid}")


def options_dict(options, known: tuple[str, ...]) -> dict:
    """The ``options`` of a ``reset`` as a dict: None (none given) or a dict. ``ValueError``
    naming the ``known`` keys for anything else (a number, a list of pairs)."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(f"options must be a dict (keys {', '.join(map(repr, known))}), "
                         f"got {options!r}")
    return options


def reset_options(env: str, options, known: tuple[str, ...]) -> dict:
    """The ``options`` of environment ``env``'s ``reset``, as a dict: None (none given) or a
    dict, whose keys other than ``known`` are ignored with a warning (a wrapper may pass its
    own). ``ValueError`` for anything else, before anything changes."""
    options = options_dict(options, known)
    unknown = sorted(set(options) - set(known), key=str)
    if unknown:
        warnings.warn(f"{env}.reset: ignoring unknown option(s) "
                      f"{', '.join(map(repr, unknown))}; known: "
                      f"{', '.join(map(repr, known))}", stacklevel=_user_level())
    return options


def _user_level() -> int:
    """The ``stacklevel`` that names the user's line, whatever resets and wrappers (this
    package's, PettingZoo's) lie between: the first frame of neither."""
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None and frame.f_globals.get("__name__", "").startswith(
            ("mediatore_env.", "pettingzoo.")):
        frame, level = frame.f_back, level + 1
    return level


def dealer_option(dealer, agents) -> int | None:
    """The ``dealer`` option of an environment's ``reset``: None (not given), a seat (0 to one
    less than the number of ``agents``) or the name of an agent of ``agents``, as a seat.
    ``ValueError`` for anything else."""
    if isinstance(dealer, str) and dealer in agents:
        return list(agents).index(dealer)
    if dealer is None:
        return None
    try:
        return as_seat(dealer, "dealer", len(agents))
    except ValueError:
        raise ValueError(f"bad dealer {dealer!r} in options; valid: "
                         + ", ".join(map(str, range(len(agents)))) + " or an agent name") from None


def flag_option(name: str, value) -> bool:
    """A yes-or-no argument of an environment (``normalize_rewards``, ``render_all``): True or
    False, nothing that merely looks like one (``"yes"``, ``1``). ``ValueError`` otherwise."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def seed_option(seed) -> int | None:
    """The ``seed`` of ``reset``: None or a non-negative int (not a bool; a numpy integer too),
    as a Python int (Gymnasium's seeding takes no other). ``ValueError`` naming it otherwise,
    before anything changes."""
    if seed is None:
        return None
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)) and seed >= 0:
        return int(seed)
    raise ValueError(f"bad seed {seed!r}; valid: None or an int >= 0")


def packs_option(packs, per: str = "hand") -> list[tuple[int, ...]]:
    """The ``packs`` option of an environment's ``reset``: None (none given) or a list of
    packs, one ``per`` hand (or deal), each 40 distinct cards (ids or texts such as ``'D3'``),
    as tuples of ids. ``ValueError`` naming the bad pack otherwise."""
    if packs is None:
        return []
    if isinstance(packs, str) or not hasattr(packs, "__len__"):
        raise ValueError(f"bad packs {packs!r} in options: a list of packs, one per {per}, "
                         "each 40 distinct cards (ids or texts such as 'D3')")
    checked = []
    for i, pack in enumerate(packs):
        try:
            checked.append(validate_pack(pack))
        except ValueError as e:
            raise ValueError(f"pack {i} in options: {e}") from None
    return checked


def number_option(name: str, value) -> float:
    """A real-number argument (``illegal_reward``, ``reward_scale``): an int or a float, finite,
    not a bool nor a string that reads as one. ``ValueError`` otherwise."""
    number = (isinstance(value, (int, float, np.integer, np.floating))
              and not isinstance(value, (bool, np.bool_)))
    if not number or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return float(value)
