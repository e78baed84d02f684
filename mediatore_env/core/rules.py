"""What every game's rules share, written once: :class:`RulesBase`, a frozen dataclass of
switches that checks itself, reads and writes dicts, and describes each switch (:class:`Switch`)
for the tools that set them (``--rule``, the browser table's form, OpenSpiel's parameters).

A game's rules are a frozen dataclass whose fields are its switches, with a table of what each
may be (:attr:`RulesBase.SWITCHES`: the valid values, the default first, or a :class:`Count`)::

    @dataclass(frozen=True, slots=True)
    class ToyRules(RulesBase):
        SWITCHES = {"hands": (2, 1), "scoring": ("thirds", "tricks")}
        hands: int = 2
        scoring: str = "thirds"

    >>> from mediatore_env.tressette.rules import TressetteRules
    >>> TressetteRules(players=5)
    Traceback (most recent call last):
    ...
    ValueError: bad value 5 for rules switch 'players'; valid: 4, 3, 2
    >>> TressetteRules(colour=1)
    Traceback (most recent call last):
    ...
    mediatore_env.core.rules.UnknownSwitch: unknown Tressette rules switch(es) 'colour'; valid: players, low, claim, show_draws
    >>> [(s.name, s.kind) for s in TressetteRules.switches()][:2]
    [('players', 'choice'), ('low', 'bool')]
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, Mapping

__all__ = ["RulesBase", "Count", "Switch", "UnknownSwitch"]


@dataclass(frozen=True)
class Count:
    """A switch that is a whole number from ``minimum`` up (None too, where ``optional``)."""

    minimum: int = 1
    optional: bool = False

    def allows(self, value) -> bool:
        return (value is None and self.optional) or (type(value) is int
                                                     and value >= self.minimum)

    def describe(self) -> str:
        whole = "a positive int" if self.minimum == 1 else f"an int of at least {self.minimum}"
        return whole + (" or None" if self.optional else "")


@dataclass(frozen=True)
class Switch:
    """One switch as the tools show it: ``kind`` is ``bool``, ``choice`` (one of ``choices``),
    ``int`` or ``optional int`` (from ``minimum``)."""

    name: str
    kind: str
    default: Any
    choices: tuple = ()
    minimum: int | None = None


class UnknownSwitch(ValueError, TypeError):
    """A rules switch name that does not exist. A ValueError, as every bad rules input is (the
    message lists the valid names); also a TypeError, Python's error for an unknown keyword
    argument, so ``Rules(colour=1)`` is caught by code written either way."""


class RulesBase:
    """The base of every game's rules (see the module docstring). A subclass is a frozen
    dataclass; it sets :attr:`SWITCHES`, may set :attr:`GAME` (its name in messages) and
    :attr:`PRESETS`, and checks what holds between its switches in :meth:`check`."""

    __slots__ = ()
    #: Each switch: its valid values, the default first, or a :class:`Count`.
    SWITCHES: ClassVar[Mapping[str, tuple | Count]] = {}
    #: Named rule sets (``Rules.preset("low")``); none by default.
    PRESETS: ClassVar[Mapping[str, Any]] = {}
    #: The game's name in messages: "unknown Tressette rules switch".
    GAME: ClassVar[str] = ""

    def __new__(cls, *args, **switches):
        # Checked here, before the generated __init__ would raise a bare TypeError.
        unknown = sorted(set(switches) - {f.name for f in fields(cls)})
        if unknown:
            raise UnknownSwitch(f"unknown {cls._words()} switch(es) "
                                f"{', '.join(map(repr, unknown))}; valid: "
                                + ", ".join(f.name for f in fields(cls)))
        return object.__new__(cls)

    def __post_init__(self):
        for name, allowed in self.SWITCHES.items():
            value = getattr(self, name)
            if isinstance(allowed, Count):
                if not allowed.allows(value):
                    raise ValueError(f"bad value {value!r} for {self._words()} switch "
                                     f"{name!r}: {allowed.describe()}")
            # `True == 1` in Python, so check the type too: True is not a number of players.
            elif not any(value == v and type(value) is type(v) for v in allowed):
                raise ValueError(f"bad value {value!r} for rules switch {name!r}; valid: "
                                 + ", ".join(repr(v) for v in allowed))
        self.check()

    def check(self) -> None:
        """What must hold between the switches (``ValueError`` otherwise); nothing here."""

    @classmethod
    def _words(cls) -> str:
        return f"{cls.GAME} rules" if cls.GAME else "rules"

    # -- dicts and variants ----------------------------------------------------------------

    def to_dict(self) -> dict:
        return asdict(self)  # type: ignore[call-overload]

    @classmethod
    def from_dict(cls, switches: Mapping):
        """Rules from a dict of switches; an unknown name raises ``ValueError`` naming the valid
        ones."""
        if not isinstance(switches, Mapping):
            raise ValueError(f"{cls._words()} must be a dict of switches, got {switches!r}")
        return cls(**switches)

    def replace(self, **switches):
        """These rules with ``switches`` changed."""
        return self.from_dict({**self.to_dict(), **switches})

    @classmethod
    def preset(cls, name: str):
        """The rules named ``name`` in :attr:`PRESETS`; ``ValueError`` naming the presets."""
        try:
            return cls.PRESETS[name]
        except (KeyError, TypeError):
            if not cls.PRESETS:  # say what this game takes instead
                raise ValueError(f"unknown rules preset {name!r}: {cls._words()} have no "
                                 "presets; give a dict of switches: "
                                 + ", ".join(s.name for s in cls.switches())) from None
            raise ValueError(f"unknown rules preset {name!r}; valid: "
                             + ", ".join(cls.PRESETS)) from None

    @classmethod
    def coerce(cls, rules=None, **switches):
        """Rules from what a user may pass: None (the default game), rules of this class, a
        preset name or a dict of switches; then ``switches`` on top. Bad input raises
        ``ValueError``."""
        if rules is None:
            base = cls()
        elif isinstance(rules, cls):
            base = rules
        elif isinstance(rules, str):
            base = cls.preset(rules)
        elif isinstance(rules, Mapping):
            base = cls.from_dict(rules)
        else:
            presets = f"a preset name ({', '.join(cls.PRESETS)}), " if cls.PRESETS else ""
            raise ValueError(f"rules must be a {cls.__name__} object, {presets}or a dict of "
                             f"switches, got {rules!r}")
        return base.replace(**switches) if switches else base

    # -- the switches as the tools show them ------------------------------------------------

    @classmethod
    def switches(cls) -> tuple[Switch, ...]:
        """Every switch, typed for a form or a command line, with its default."""
        default = cls()
        out = []
        for f in fields(cls):  # type: ignore[arg-type]
            allowed = cls.SWITCHES.get(f.name, ())
            value = getattr(default, f.name)
            if isinstance(allowed, Count):
                out.append(Switch(f.name, "optional int" if allowed.optional else "int", value,
                                  minimum=allowed.minimum))
            elif allowed and all(type(v) is bool for v in allowed):
                out.append(Switch(f.name, "bool", value, tuple(allowed)))
            else:
                out.append(Switch(f.name, "choice", value, tuple(allowed)))
        return tuple(out)
