"""The tables of ``mediatore-web``, without the web: a game played by persons and agents at
one table (:class:`Table`), and a record stepped through (:class:`Watch`). Written once over the
game interface (:mod:`mediatore_env.core.game`) and the registry: every game's part is its
display (:class:`~mediatore_env.core.display.Display`): ``view_json(view, names, style)`` (the
table a seat sees; every game has one, the default a trick game's) and its text hooks
(``narrator``, ``dealt_lines``, ``stop_lines``) for the news between two looks.

What leaves a table for a person is built from ``game.view(seat)`` of that person's seat (or,
watching a record, of the seat chosen), never from the game itself, so no card the seat may
not see is ever sent; each person has their own events, told in their own words.

Nothing here trusts what a request holds: :func:`table_request` checks every field of a new
table (the game, the seat, each agent's name and options, the rules, the seed, the packs, the
creator's name, the stand-in) before anything is made, and refuses a bad one with
:class:`BadRequest`, one line saying what was wrong and what is valid; a person joining is
checked whole the same way (:meth:`Table.check_join`). Agents are the names of the game's
registry (and those the server's operator added): never an import path, and their options are
data (numbers, booleans, text) checked against the agent's own parameters
(:func:`check_agent_options`).

The agents do not think here: :meth:`Table.agent_turn` hands out what the agent to move needs,
:func:`think` (a pure function, run by the server in a worker) chooses the move, and
:meth:`Table.agent_moved` makes it, so the server keeps answering while agents think.
"""
from __future__ import annotations

import inspect
import math
import pickle
import secrets
import time
import unicodedata
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from agents import agent_factory, agents_of, make_agent
from agents.registry import plain_members
from ..codec.actions import as_move
from ..core.agent import ask, reset_agent
from ..core.cards import NUM_CARDS
from ..core.game import CHANCE
from ..core.rules import Count
from ..registry import definition_of, replay
from ..registry import GAMES, GameDef, get
from ..tools.replay import record_names, record_start, record_steps
from ..core.text import YOU, shown
from ..tools.terminal import seat_names

__all__ = ["BadRequest", "Table", "Watch", "games_json", "table_request",
           "check_agent_options", "switch_specs", "think", "one_line", "person_name",
           "watch_names"]

#: The most characters of an agent's text, the most packs a table may be given, the most
#: an agent's numeric options may raise its effort above its default's: each number, and all
#: of them together, the product of their ratios to their defaults (a request shares the
#: server's CPU with every other table; an operator who wants more registers the agent with
#: --agent).
MAX_SPEC, MAX_PACKS, MAX_EFFORT = 120, 64, 10
#: The most cards in play at which a request may have a PIMC agent solve its worlds
#: (``solve_at``, whose default None is each game's own threshold, 28 at the most: four-handed
#: Tressette's); more would have it solve from the first trick, within its node budget.
MAX_SOLVE_AT = 28
#: The most seconds a request may give a search agent's ``time_limit``, whose default is None
#: (the agents play their reproducible work budget by default, a table's seed replaying them:
#: docs/agents.md, Budgets; a time limit is for an operator who wants moves on the clock).
MAX_THINK = 2.0
#: Seeds are numpy's: a non-negative int, here below 2**63.
MAX_SEED = 2 ** 63 - 1
#: The most a whole-number rules switch may be at a table (club's ``deals`` and ``ante``): a
#: session that stand-ins could play on for ever, or chips past what a page counts exactly.
MAX_COUNT = 100
#: The most steps (packs dealt and moves made) of an uploaded record: each look at a step
#: replays the record up to it, on the event loop. A club session of MAX_COUNT deals takes
#: about 4,300 (4,600 at most: a pack and 45 moves a deal); a Tressette game to 31, a few
#: hundred.
MAX_WATCH_STEPS = 10_000
#: The most events a table keeps per person's seat, and so the most one answer carries: the
#: oldest go (``first`` moves on), as an earlier episode's do. A page that fell further behind
#: gets the latest it can show; a 100-deal session played by stand-ins stays a few megabytes.
MAX_EVENTS = 64
#: Agent options a request never sets: each names a file of the server (``selfplay:game``
#: picks the network file of another game, and is the table's game anyway).
UNSET = ("path", "file", "model", "weights", "game")
#: Agent options a request may give only their default: a text that buys far more than the
#: numbers' bound (``pimc:rollout=selfplay`` plays its rollout cards by the network, a forward
#: pass a card: a hundred times greedy's rollouts' CPU). The operator may offer it, --agent.
DEFAULT_ONLY = ("rollout",)


class BadRequest(ValueError):
    """A request the table refuses; ``status`` is its HTTP status (400, 404, 409...)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def one_line(error: BaseException, width: int = 200) -> str:
    """An exception's message on one line of at most ``width`` characters."""
    text = " ".join(str(error).split())
    return text if len(text) <= width else text[:width - 3] + "..."


# -- the rules switches, typed for the page's form -----------------------------------------------

def switch_specs(definition: GameDef) -> list[dict]:
    """Each rules switch of the game the page may set (those its definition does not fix), typed so
    the form draws the right input: ``{"name", "kind", "default"}``, ``kind`` one of ``bool``,
    ``choice`` (with ``"choices"``), ``int`` or ``optional int`` (None or an int, from
    ``"minimum"``): the rules' own description of their switches."""
    default = definition.make_rules()
    specs = []
    for switch in definition.rules.switches():
        if switch.name in definition.fixed:
            continue
        spec: dict[str, Any] = {"name": switch.name, "kind": switch.kind,
                                "default": getattr(default, switch.name)}
        if switch.kind == "choice":
            spec["choices"] = list(switch.choices)
        if switch.minimum is not None:
            spec["minimum"] = switch.minimum
        specs.append(spec)
    return specs


def games_json(extra_agents: Mapping[str, Mapping[str, Callable]] | None = None) -> list[dict]:
    """The registry's games the page can draw: name, title, seats, typed rules switches, and
    the agents a table may seat (the game's registry, then what the operator added)."""
    out = []
    for game in GAMES.values():
        out.append({"name": game.name, "title": game.title, "players": game.players,
                    "unit": game.unit,
                    "agents": [name for name, factory in agent_registry(game, extra_agents).items()
                               if seatable(game.name, name, factory)],
                    "switches": switch_specs(game)})
    return out


def agent_registry(definition: GameDef, extra: Mapping[str, Mapping[str, Callable]] | None = None
                   ) -> dict[str, Callable]:
    """The agents a table of ``definition`` may seat, by name: the game's own, then ``extra[game]``
    (registered by the server's operator with ``--agent``)."""
    return {**agents_of(definition), **((extra or {}).get(definition.name) or {})}


_SEATABLE: dict[tuple[str, str], bool] = {}


def seatable(game: str, name: str, factory: Callable) -> bool:
    """Whether the agent ``name`` can sit at a table of ``game`` as the page offers it, with
    no options (made once per server, then remembered): not ``selfplay`` where the game ships
    no network (it needs ``path=``, which no request may give), nor an agent whose library is
    not installed, nor one that cannot go to the agents' processes (every move sends it there
    and back, pickled: ``openspiel-ismcts`` builds its bot with a local function). The page
    lists only these; a request naming another gets its 400."""
    key = (game, name)
    if key not in _SEATABLE:
        try:
            pickle.loads(pickle.dumps(factory()))
            _SEATABLE[key] = True
        except (ValueError, OSError, ImportError, TypeError, AttributeError,
                pickle.PicklingError):
            _SEATABLE[key] = False
    return _SEATABLE[key]


# -- what a request may ask of an agent ----------------------------------------------------------

def check_agent_options(factory: Callable, options: dict) -> None:
    """Refuse (``ValueError``) options a request may not give an agent: each must be a
    keyword parameter of the agent's factory that takes plain data (:func:`option_kinds`), its
    value of one of those kinds (a text at most 40 characters; None only where None is the
    default), and a number at most :data:`MAX_EFFORT` times a positive default, and so are
    all the numbers raised above their defaults together, the product of their ratios (so no
    request buys an agent a day of thought, nor ten times ten). A parameter that takes an
    object (a policy, a table of weights) or names a file cannot be set."""
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        params = {}
    for name, value in options.items():
        param = params.get(name)
        kinds = set() if param is None else option_kinds(param)
        if not kinds:
            settable = [p for p, q in params.items() if option_kinds(q)]
            raise ValueError(f"option {name!r} cannot be set here; options: "
                             + (", ".join(settable) or "none"))
        if name in DEFAULT_ONLY and value != param.default:
            raise ValueError(f"option {name!r} is its default's here ({param.default!r}): "
                             f"{shown(value)} costs far more than the default's effort (an "
                             "operator may offer it with --agent)")
        if not _fits(value, kinds, param.default, name):
            raise ValueError(f"bad value {shown(value)} for option {name!r} (default "
                             f"{param.default!r}): " + _expected(kinds, param.default, name))
    raised = {name: value / params[name].default for name, value in options.items()
              if _positive(params[name].default) and _positive(value)
              and value > params[name].default}
    if math.prod(raised.values()) > MAX_EFFORT:
        raise ValueError(f"options {', '.join(raised)} together ask "
                         f"{math.prod(raised.values()):.3g} times the default's effort; at most "
                         f"{MAX_EFFORT} in all (the product of each raised number's ratio to "
                         "its default)")


def _positive(value) -> bool:
    """Whether ``value`` is a positive number (not a bool)."""
    return type(value) in (int, float) and value > 0


def option_kinds(param: inspect.Parameter) -> set[str]:
    """The kinds of plain data (``bool``, ``int``, ``float``, ``str``) a request may give the
    agent parameter ``param`` (and None where None is its default): its default's type, or
    where the default is None those its annotation names (``solve_at: int | None = None``).
    None else: a parameter without an annotation, or whose annotation names no plain kind,
    takes an object (``play=None``: a policy), and one of :data:`UNSET` names a file."""
    if param.kind not in (param.KEYWORD_ONLY, param.POSITIONAL_OR_KEYWORD) or param.name in UNSET:
        return set()
    default = param.default
    if default is None:
        return plain_members(param.annotation)
    return {type(default).__name__} if type(default) in (bool, int, float, str) else set()


def _fits(value, kinds: set[str], default, name: str = "") -> bool:
    """Whether a request's ``value`` is of one of ``kinds`` (and a number in its range)."""
    if value is None:
        # only where it is the default: never to lift a number's bound (max_time=None)
        return default is None
    if type(value) is bool:
        return "bool" in kinds
    if type(value) is str:
        return "str" in kinds and len(value) <= 40
    if type(value) not in (int, float) or not math.isfinite(value):
        return False
    if "float" not in kinds and not ("int" in kinds and type(value) is int):
        return False
    low, high = _number_range(default, name)
    return low <= value <= high


def _number_range(default, name: str = "") -> tuple[float, float]:
    """A number option's range: up to :data:`MAX_EFFORT` times a positive default; a
    ``time_limit`` without one up to :data:`MAX_THINK` seconds, a ``solve_at`` up to
    :data:`MAX_SOLVE_AT` cards; else -1000 to 1000."""
    if name == "time_limit" and default is None:
        return 0, MAX_THINK
    if name == "solve_at" and default is None:
        return 0, MAX_SOLVE_AT
    if _positive(default):
        return 0, MAX_EFFORT * default
    return -1000, 1000


def _expected(kinds: set[str], default, name: str = "") -> str:
    """What ``_fits`` takes, in words."""
    words = []
    if kinds & {"int", "float"}:
        low, high = _number_range(default, name)
        words.append(f"{'a number' if 'float' in kinds else 'an integer'} from {low:g} to {high:g}")
    if "bool" in kinds:
        words.append("true or false")
    if "str" in kinds:
        words.append("a text of at most 40 characters")
    if default is None:
        words.append("None")
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


def _agent(spec, seat: int, registry: dict, make: bool = True) -> Any:
    """The agent ``spec`` names for ``seat``, its name and options checked; made only with
    ``make`` (a request is checked whole, every agent's text, before any is made)."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SPEC:
        raise BadRequest(f"agent at seat {seat}: {shown(spec)} is not an agent's name; valid: "
                         + ", ".join(registry))
    try:
        if not make:
            return check_agent_options(*agent_factory(spec, registry, imports=False))
        return make_agent(spec, registry, imports=False, check_options=check_agent_options)
    except ValueError as e:
        raise BadRequest(f"agent at seat {seat}: {one_line(e, 300)}") from None
    except Exception as e:  # an agent's own check of an option's meaning, whatever its type
        raise BadRequest(f"agent at seat {seat}: cannot make {shown(spec)}: "
                         f"{type(e).__name__}: {one_line(e)}") from None


#: How a table may name the cards (``core.text``'s styles but ``french``: the page's faces
#: carry the Italian deck's suits and letters, which "K♦" would contradict).
CARD_NAMES_HERE = ("english", "italian", "short")
#: The longest name a person may give themselves at a table, in characters.
MAX_NAME = 24
#: The bounds of the stand-in option's ``after``: how long a person's seat may be away (no
#: page open, no request) before an agent moves for it, in seconds.
MIN_AWAY, MAX_AWAY = 1.0, 24 * 3600.0


def table_names(specs: Sequence[str | None], seat: int, name: str | None = None) -> list[str]:
    """The names at a new table: the creator's ``name`` (or ``player 0``) at ``seat``,
    ``player 2`` at a seat waiting for a person (whose ``specs`` is None), ``greedy(1)`` at an
    agent's."""
    agent_names = seat_names([spec or "" for spec in specs], -1)
    return [(name or f"player {s}") if s == seat else f"player {s}" if spec is None
            else agent_names[s] for s, spec in enumerate(specs)]


def _same_name(a: str, b: str) -> bool:
    """Whether two names would read the same at the table: case and Unicode's compatibility
    forms aside (a fullwidth ``ｐｌａｙｅｒ 2`` is ``player 2``)."""
    return (unicodedata.normalize("NFKC", a).casefold()
            == unicodedata.normalize("NFKC", b).casefold())


def person_name(value, taken: Sequence[str] = ()) -> str:
    """A person's name at a table, checked: a text of 1 to :data:`MAX_NAME` printable
    characters (runs of spaces made one), not ``You`` (how the table names each person to
    themselves) and none of ``taken`` (the other seats' names), as :func:`_same_name` reads
    them."""
    if not isinstance(value, str):
        raise BadRequest(f"bad name {shown(value)}: a text of 1-{MAX_NAME} characters is expected")
    name = " ".join(value.split())
    if not plain_name(name, MAX_NAME):
        raise BadRequest(f"bad name {shown(value)}: 1-{MAX_NAME} printable characters are "
                         "expected")
    if _same_name(name, YOU):
        raise BadRequest(f"bad name {name!r}: the table calls each person {YOU!r} on their "
                         "own screen; choose another")
    if any(_same_name(name, t) for t in taken):
        raise BadRequest(f"the name {name!r} is taken at this table; choose another", 409)
    return name


def _stand_in(data) -> tuple[Any, float | None]:
    """The ``stand_in`` option's shape checked: ``{"agent": name, "after": seconds}`` or null
    (``(None, None)``). The agent, one per person's seat, moves for a seat that has been away
    ``after`` seconds."""
    if data is None:
        return None, None
    if not isinstance(data, dict) or set(data) != {"agent", "after"}:
        raise BadRequest('bad stand_in: {"agent": name, "after": seconds} or null is expected')
    after = data["after"]
    if type(after) not in (int, float) or not MIN_AWAY <= after <= MAX_AWAY:
        raise BadRequest(f"bad stand_in after {shown(after)}; valid: {MIN_AWAY:g}-{MAX_AWAY:g} "
                         "seconds")
    return data["agent"], float(after)


# -- a new table, checked whole before anything is made ----------------------------------------

def _int(value, what: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise BadRequest(f"bad {what} {shown(value)}; valid: {low}-{high}")
    return value


def _version(version) -> int:
    """A request's table version: an int (``true`` and ``1.0`` equal 1 in Python; neither is
    a version)."""
    if type(version) is not int:
        raise BadRequest(f"bad version {shown(version)}: the table's version number (an "
                         "integer) is expected")
    return version


def _pack(pack) -> list[int]:
    if (not isinstance(pack, list) or len(pack) != NUM_CARDS
            or any(type(c) is not int for c in pack) or sorted(pack) != list(range(NUM_CARDS))):
        raise BadRequest(f"bad pack: a list of the {NUM_CARDS} card ids 0-{NUM_CARDS - 1}, "
                         f"each once, is expected")
    return pack


def table_request(data: dict, extra_agents=None) -> dict:
    """The keyword arguments of :class:`Table` for a request's ``data`` (the JSON of ``POST
    /api/games``: ``game``, ``seat``, ``agents``, ``rules``, ``seed``, ``packs``, ``name``,
    ``stand_in``, ``cards``), every field checked; ``BadRequest`` for the first bad one, before
    anything is made. ``agents`` holds an agent's name per seat, or null for a person: the
    creator sits at ``seat`` (whatever its definition says), the other persons' seats wait for
    them to join."""
    fields = {"game", "seat", "agents", "rules", "seed", "packs", "name", "stand_in", "cards"}
    unknown = sorted(set(data) - fields)
    if unknown:
        raise BadRequest(f"unknown field {shown(unknown[0])}; valid: {', '.join(sorted(fields))}")
    if "game" not in data:
        raise BadRequest("game is missing; valid: " + ", ".join(g for g in GAMES))
    try:
        definition = get(data["game"])
    except ValueError as e:
        raise BadRequest(str(e) if isinstance(data["game"], str) and len(data["game"]) <= 40
                         else f"unknown game {shown(data['game'])}; valid: {', '.join(GAMES)}"
                         ) from None
    players = definition.players
    seat = _int(data.get("seat", 0), "seat", 0, players - 1)
    rules = {} if data.get("rules") is None else data["rules"]
    if not isinstance(rules, dict):
        raise BadRequest(f"bad rules {shown(rules)}: an object of switches (or null: the "
                         "defaults) is expected")
    try:
        rules = definition.make_rules(rules)  # a dict of switches: its keys are switches only
    except (TypeError, ValueError) as e:
        raise BadRequest(f"bad rules for {definition.name}: {one_line(e)}") from None
    for switch, kind in type(rules).SWITCHES.items():  # the rules' own names, not the request's
        value = getattr(rules, switch)
        if isinstance(kind, Count) and value is not None and value > MAX_COUNT:
            raise BadRequest(f"bad rules for {definition.name}: {switch} {value} is more than a "
                             f"table here takes; valid: {kind.minimum}-{MAX_COUNT}")
    specs = data.get("agents")
    specs = ["random"] * players if specs is None else specs
    if not isinstance(specs, list) or len(specs) != players:
        raise BadRequest(f"agents: a list of {players} agent names is expected (null at each "
                         "person's seat)")
    if not (specs[seat] is None or isinstance(specs[seat], str) and len(specs[seat]) <= MAX_SPEC):
        raise BadRequest(f"agents: null (or any agent's name, ignored) at the person's seat "
                         f"{seat}, not {shown(specs[seat])}")
    specs = [None if s == seat else spec for s, spec in enumerate(specs)]
    persons = [s for s, spec in enumerate(specs) if spec is None]
    seed = data.get("seed")
    if seed is not None:
        seed = _int(seed, "seed", 0, MAX_SEED)
    packs = [] if data.get("packs") is None else data["packs"]
    if not isinstance(packs, list) or len(packs) > MAX_PACKS:
        raise BadRequest(f"bad packs {shown(packs)}: a list of at most {MAX_PACKS} packs (or "
                         "null) is expected")
    packs = [_pack(p) for p in packs]
    if len(persons) > 1 and (seed is not None or packs):
        # whoever chose them could work out every hand the other people are dealt
        raise BadRequest(f"{'seed' if seed is not None else 'packs'}: only at a table of one "
                         "person, as whoever chooses the deals knows every hand; at a table "
                         "with other people leave seed and packs out, and the server deals")
    style = data.get("cards", "english")  # how the news and the panels name the cards
    if not isinstance(style, str) or style not in CARD_NAMES_HERE:
        raise BadRequest(f"bad cards {shown(style)}; valid: {', '.join(CARD_NAMES_HERE)}")
    stand_in, after = _stand_in(data.get("stand_in"))
    registry = agent_registry(definition, extra_agents)
    offered = [n for n, factory in registry.items() if seatable(definition.name, n, factory)]
    # every agent's text (the stand-in's as the first person's), before any agent is made
    for s, spec in [*((s, spec) for s, spec in enumerate(specs) if spec is not None),
                    *((s, stand_in) for s in persons[:1] if after is not None)]:
        _agent(spec, s, registry, make=False)
        if spec.strip().partition(":")[0] not in offered:
            raise BadRequest(f"agent at seat {s}: {shown(spec)} cannot sit at a table here; "
                             "valid: " + ", ".join(offered))
    others = [n for s, n in enumerate(table_names(specs, seat)) if s != seat]  # agents named
    name = person_name(data["name"], others) if data.get("name") is not None else None
    # the whole request is good: the agents are made last, the costliest (a network's weights)
    agents = [None if spec is None else _agent(spec, s, registry) for s, spec in enumerate(specs)]
    stand_ins = {} if after is None else {s: _agent(stand_in, s, registry) for s in persons}
    return dict(definition=definition, seat=seat, agents=agents, rules=rules, seed=seed,
                packs=packs, specs=specs, name=name, stand_ins=stand_ins, after=after,
                stand_in=stand_in, style=style)


def think(agent, game, seat: int, observe: Callable | None) -> tuple[int, Any]:
    """The move ``agent`` makes at ``seat`` of ``game`` (a copy: nothing here touches a live
    table), and the agent after it (in a worker process, a copy that carries its state back).
    ``observe``: the game's observation writer, for an agent that reads tensors."""
    return ask(agent, game.view(seat), observe), agent


class Table:
    """A game of the registry played at a table of persons and agents, episode after episode
    (a deal, a game or a session: the game's unit). ``agents`` holds an agent per seat, None
    for a person: the creator sits at ``seat``, the other persons' seats wait for them to join
    with their seat's code. The packs come from ``packs`` while they last, then from a numpy
    generator seeded with ``seed``.

    ``id`` (unguessable) names the table; each person's seat has its own secret token, the
    server answering for a seat only to a request that carries it. ``codes`` are the seats
    still free: the creator's table carries them (to send to the persons), and each works
    once.

    ``version`` counts the persons' moves and new episodes: a move must name the version it
    was chosen at, so a move chosen on a stale table (another tab, a double click) is refused.
    ``events[p]`` is what happened this episode as person ``p`` saw it, each with the lines
    that tell it and ``p``'s table after it, so a page can show the moves one by one; ``first``
    is the number of the first one kept (events of earlier episodes are let go, and the oldest
    past :data:`MAX_EVENTS`).

    With ``stand_ins`` (an agent per person's seat) and ``after`` (seconds), a person's seat
    nobody has asked about for ``after`` seconds, with no page open on it, is played by its
    stand-in until its person comes back. ``clock`` tells the time (the lobby's)."""

    def __init__(self, definition: GameDef, seat: int, agents: Sequence[Any], rules,
                 seed: int | None, packs: Sequence[list], specs: Sequence[str | None],
                 name: str | None = None, stand_ins: Mapping[int, Any] | None = None,
                 after: float | None = None, stand_in: str | None = None,
                 style: str = "english", clock: Callable[[], float] = time.monotonic):
        self.definition, self.seat, self.agents, self.rules = definition, seat, list(agents), rules
        self.packs = [list(p) for p in packs]
        self.rng = np.random.default_rng(seed)
        self.seed, self.style, self.specs, self.clock = seed, style, list(specs), clock
        self.text = definition.display
        self.observe = definition.observation
        self.persons = [s for s, a in enumerate(self.agents) if a is None]
        self.id = secrets.token_urlsafe(16)
        self.tokens = {seat: secrets.token_urlsafe(24)}
        self.codes = {s: secrets.token_urlsafe(12) for s in self.persons if s != seat}
        self.names = table_names(self.specs, seat, name)
        self.stand_ins, self.after = dict(stand_ins or {}), after
        self.stand_in_name = stand_in
        now = clock()
        self.seen = {s: now for s in self.persons}     # when each seat last asked
        self.present = {s: 0 for s in self.persons}    # its pages connected now
        self.version, self.episodes = 0, 0
        self.totals = [0] * definition.players
        self.events: dict[int, list[dict]] = {p: [] for p in self.persons}
        self.first = 0
        self.dealer = 0
        #: an agent's failure, once one has failed: the table plays no more
        self.broken: str | None = None
        #: an agent is thinking (the server's worker has its turn)
        self.thinking = False
        #: told of every event (``on_event(table, kind)``): the server pushes it to the pages
        self.on_event: Callable[["Table", str], None] | None = None
        self._new_episode()

    @property
    def token(self) -> str:
        """The creator's token."""
        return self.tokens[self.seat]

    def _new_episode(self) -> None:
        self.game = self.definition.new_game(self.rules, self.dealer)
        self.episodes += 1
        self.first += len(self.events[self.seat])
        self.events = {p: [] for p in self.persons}
        self.stood_in: list[int] = []  # the moves of this episode made by stand-ins
        for s, agent in [*enumerate(self.agents), *self.stand_ins.items()]:
            if agent is not None:
                reset_agent(agent, self._agent_seed(s))
        self.narrators = {p: self.text.narrator(self.game, p, self.names_for(p), self.style)
                          for p in self.persons}

    def _agent_seed(self, seat: int) -> int | None:
        return None if self.seed is None else self.seed * 1009 + self.episodes * 7 + seat

    # -- what each person sees -------------------------------------------------------------------

    def names_for(self, viewer: int | None) -> list[str]:
        """The seats' names on ``viewer``'s screen: ``You`` for their own."""
        return [YOU if s == viewer else n for s, n in enumerate(self.names)]

    def view_json(self, viewer: int | None = None) -> dict:
        """``viewer``'s table, with ``question``: what the seat is asked, in the game's words
        (``Call a card: ...``), while it has moves to choose from."""
        viewer = self.seat if viewer is None else viewer
        view = self.game.view(viewer)
        data = self.text.view_json(view, self.names_for(viewer), self.style)
        data["question"] = self.text.question(view).rstrip(":") if data["moves"] else None
        data["choose"] = self.text.choose(view) if data["moves"] else None
        return data

    def _event(self, kind: str, seat: int | None, lines: Callable[[int], list[str]],
               end: Callable[[int], dict | None] | None = None, **extra) -> None:
        """``kind``: ``deal`` (a pack dealt), ``move`` (by ``seat``), ``join``, ``stop`` (a
        hand of the episode over, another to come) or ``end``; ``lines(p)``: what person ``p``
        is told of it; ``end(p)``, a stop's or the end's: the hand's end as data, in ``p``'s
        words (None: the game has none)."""
        for p in self.persons:
            self.events[p].append({"kind": kind, "seat": seat, "lines": lines(p),
                                   "view": self.view_json(p), **extra,
                                   **({"end": end(p)} if end else {})})
        if len(self.events[self.seat]) > MAX_EVENTS:  # the oldest goes
            self.first += 1
            for p in self.persons:
                del self.events[p][0]
        if self.on_event is not None:
            self.on_event(self, kind)

    def _news(self, viewer: int) -> list[str]:
        return self.narrators[viewer].news()

    @property
    def next(self) -> int:
        """The number the next event will have."""
        return self.first + len(self.events[self.seat])

    def check_since(self, since) -> int:
        """``since`` as an event number this table can answer from."""
        return _int(since, "since", 0, self.next)

    def seats_json(self) -> list[dict]:
        """Who sits where: each seat's name, ``person`` or ``agent``, and for a person's seat
        whether it is taken, has a page open, and is played by its stand-in now."""
        now = self.clock()
        out = []
        for s, name in enumerate(self.names):
            if self.agents[s] is not None:
                out.append({"seat": s, "name": name, "kind": "agent"})
                continue
            out.append({"seat": s, "name": name, "kind": "person",
                        "taken": s in self.tokens, "present": self.present[s] > 0,
                        "away": self.away(s, now)})
        return out

    def state(self, viewer: int | None = None, since: int = 0) -> dict:
        """Person ``viewer``'s table now (the creator's by default) and the events from number
        ``since`` on (those kept); the creator is also given the codes of the seats still free
        (``join``, null at the others)."""
        viewer = self.seat if viewer is None else viewer
        since = self.check_since(since)
        out = {"id": self.id, "game": self.definition.name, "title": self.definition.title,
               "seat": viewer, "version": self.version, "episode": self.episodes,
               "unit": self.definition.unit, "totals": self.totals, "view": self.view_json(viewer),
               "events": self.events[viewer][max(since - self.first, 0):], "next": self.next,
               "thinking": self.thinking, "broken": self.broken, "seats": self.seats_json(),
               "stand_in": None if self.after is None else {"agent": self.stand_in_name,
                                                            "after": self.after}}
        if viewer == self.seat:
            out["join"] = [self.codes.get(s) for s in range(self.definition.players)]
        return out

    def fingerprint(self) -> tuple:
        """What a refused request must leave as it was (for the tests)."""
        return (self.version, self.episodes, self.next, tuple(self.game.history),
                self.game.to_move, tuple(self.totals), len(self.packs), tuple(self.names),
                tuple(sorted(self.tokens.items())), tuple(sorted(self.codes.items())))

    # -- who sits where ----------------------------------------------------------------------

    def seat_of(self, token: str) -> int | None:
        """The seat whose token ``token`` is, if any (compared in constant time)."""
        found = None
        for s, t in self.tokens.items():
            if secrets.compare_digest(token.encode(), t.encode()):
                found = s
        return found

    def check_code(self, seat, code) -> int:
        """``seat``, free for a person, and ``code``, its code; ``BadRequest`` 403 for a code
        that is not the seat's, 409 for a seat taken (its code worked once)."""
        seat = _int(seat, "seat", 0, self.definition.players - 1)
        if self.agents[seat] is not None:
            raise BadRequest(f"seat {seat} is an agent's, not a person's", 409)
        if seat in self.tokens:
            raise BadRequest(f"seat {seat} is taken: its code worked once", 409)
        if not (isinstance(code, str) and len(code) <= 64
                and secrets.compare_digest(code.encode(), self.codes[seat].encode())):
            raise BadRequest(f"this is not seat {seat}'s code", 403)
        return seat

    def check_join(self, seat, code, name) -> tuple[int, str]:
        """A request to take ``seat`` with its ``code`` under ``name``, checked: the seat and
        its code (:meth:`check_code`), and the name (409 for a name taken)."""
        seat = self.check_code(seat, code)
        name = person_name(f"player {seat}" if name is None else name,
                           [n for s, n in enumerate(self.names) if s != seat])
        return seat, name

    def invitation(self, seat: int) -> dict:
        """What a person holding ``seat``'s link is told before taking it: the game, the
        rules, who opened the table and who sits where."""
        return {"id": self.id, "seat": seat, "game": self.definition.name,
                "title": self.definition.title, "rules": self.text.rules_line(self.rules),
                "host": self.names[self.seat], "seats": self.seats_json()}

    def join(self, seat: int, name: str) -> str:
        """Seat a person at ``seat`` under ``name`` (checked by :meth:`check_join`); their
        token."""
        del self.codes[seat]
        self.tokens[seat] = secrets.token_urlsafe(24)
        self.names[seat] = name
        self.seen[seat] = self.clock()
        # the narrators name the seats: new ones, told nothing of what was told already
        for p in self.persons:
            self.narrators[p] = self.text.narrator(self.game, p, self.names_for(p), self.style)
            self.narrators[p].skip()
        self._event("join", seat, lambda p: [f"{self.names_for(p)[seat]} "
                                             f"{'take' if p == seat else 'takes'} seat {seat}."])
        return self.tokens[seat]

    def saw(self, seat: int) -> None:
        """Seat ``seat``'s person has just asked about the table."""
        self.seen[seat] = self.clock()

    def away(self, seat: int, now: float | None = None) -> bool:
        """Whether person ``seat`` is away long enough for the stand-in to move for it: no
        page open on it and nothing asked for ``after`` seconds."""
        if seat not in self.stand_ins or self.present[seat]:
            return False
        return (self.clock() if now is None else now) - self.seen[seat] >= self.after

    def away_at(self, seat: int) -> float | None:
        """When (the clock's time) ``seat`` will be away, if nothing changes; None without a
        stand-in or with a page open."""
        if seat not in self.stand_ins or self.present[seat]:
            return None
        return self.seen[seat] + self.after

    # -- moves -----------------------------------------------------------------------------------

    def check_move(self, move, version, seat: int | None = None) -> int:
        """Person ``seat``'s ``move`` (a move id) chosen at table ``version``, as a legal move
        id; ``BadRequest`` (409 for a stale table or another seat's turn) otherwise."""
        seat = self.seat if seat is None else seat
        if _version(version) != self.version:
            raise BadRequest(f"stale move: the table is at version {self.version}, the move "
                             f"was chosen at {shown(version)}; reload the table", 409)
        game = self.game
        if game.to_move != seat or self.thinking:
            raise BadRequest("not your turn: " + (
                "the episode is over; start the next" if game.is_over else
                "your stand-in is moving for you" if game.to_move == seat else
                "the agents are to move" if self.agents[game.to_move] is not None else
                f"{self.names[game.to_move]} is to move"), 409)
        try:
            move = as_move(move, self.definition.moves.count)
        except ValueError as e:
            raise BadRequest(f"bad move: {one_line(e)}") from None
        legal = game.legal_moves()
        if move not in legal:
            words = self.text.move_words
            raise BadRequest(f"illegal move {move!r}; legal: " + ", ".join(
                f"{m} ({words(m, self.style)})" for m in legal))
        return move

    def move(self, move: int, seat: int | None = None) -> None:
        """Make person ``seat``'s move, checked by :meth:`check_move`."""
        seat = self.seat if seat is None else seat
        self.game.apply(move)
        self.version += 1
        self._event("move", seat, self._news)
        self._ended()

    def check_next(self, version) -> None:
        if _version(version) != self.version:
            raise BadRequest(f"stale request: the table is at version {self.version}", 409)
        if not self.game.is_over:
            raise BadRequest(f"the {self.definition.unit} is not over yet", 409)

    def next_episode(self) -> None:
        """Start the next deal, game or session, the next seat dealing (checked by
        :meth:`check_next`)."""
        self.version += 1
        self.dealer = (self.dealer + 1) % self.definition.players
        self._new_episode()
        if self.on_event is not None:
            self.on_event(self, "next")

    def agent_turn(self) -> tuple[int, Any, Any, Callable] | None:
        """Deal the packs the game waits for, then what the agent to move needs to think:
        ``(seat, agent, a copy of the game, the observation writer)``, the agent being a
        person's stand-in where that person is away; None when a person is to move, the
        episode is over or an agent has failed."""
        game = self.game
        while game.to_move == CHANCE:
            # a hand (a club deal) of the episode is over: its end, before the next is dealt,
            # in words for the news and as data for the page's table
            said = {p: self.text.stop_lines(game, p, self.names_for(p), self.style)
                    for p in self.persons}
            if any(said.values()):
                self._event("stop", None, said.__getitem__, word=self.text.hand_word,
                            end=lambda p: self.text.stop_json(game, p, self.names_for(p),
                                                              self.style))
            game.deal(self.packs.pop(0) if self.packs else
                      self.rng.permutation(NUM_CARDS).tolist())
            for narrator in self.narrators.values():
                narrator.skip()
            self._event("deal", None, lambda p: self.text.dealt_lines(
                game, p, self.names_for(p), self.style))
        if self.broken or game.is_over:
            return None
        seat = game.to_move
        agent = self.agents[seat]
        if agent is None:
            if not self.away(seat):
                return None
            agent = self.stand_ins[seat]
        return seat, agent, game.clone(), self.observe

    def agent_moved(self, seat: int, move, agent) -> None:
        """Make the move an agent chose at ``seat`` (its copy ``agent`` carries its state on:
        a stand-in's, at a person's seat); an agent that fails or names an illegal move stops
        the table, saying so."""
        stand_in = self.agents[seat] is None
        if stand_in:
            self.stand_ins[seat] = agent
        else:
            self.agents[seat] = agent
        try:
            self.game.apply(move)
        except ValueError as e:
            self.fail(f"the agent at seat {seat} ({self.names[seat]}) made an illegal move: "
                      f"{one_line(e)}")
            return
        if stand_in:
            self.stood_in.append(len(self.game.history) - 1)
            self.version += 1  # the person's page, if any, chose nothing at this version
            note = f"({self.stand_in_name} moved for {{}}, away)"
            self._event("move", seat, lambda p: self._news(p) + [note.format(
                self.names_for(p)[seat])], stand_in=True)
        else:
            self._event("move", seat, self._news)
        self._ended()

    def fail(self, message: str) -> None:
        self.broken = message
        self._event("end", None, lambda p: [message])

    def _ended(self) -> None:
        game = self.game
        if game.is_over:
            self.totals = [t + r for t, r in zip(self.totals, game.outcome)]

            def lines(p):
                names = self.names_for(p)
                result = " · ".join(f"{names[s]} {r:+d}" for s, r in enumerate(game.outcome))
                return self.text.stop_lines(game, p, names, self.style) + [f"Result: {result}"]
            # the last hand's end as data too (a Tressette game's, club's last deal's), for
            # the page to draw under the summary, as it draws every hand's end before it
            self._event("end", None, lines, end=lambda p: self.text.stop_json(
                game, p, self.names_for(p), self.style))

    def seated(self) -> tuple[list[str], list[int]]:
        """Who played the episode: each seat's name, and the seats persons played: taken, and
        not with every one of its moves made by the stand-in (a seat nobody took, or whose
        person was away all the episode, was played by its stand-in, under its name)."""
        stood_in, own = set(self.stood_in), {}  # seat -> whether its person made a move
        for k, (s, _) in enumerate(self.game.history):
            own[s] = own.get(s, False) or k not in stood_in
        persons = [s for s in self.persons if s in self.tokens and own.get(s, True)]
        names = [self.stand_in_name or n if s in self.persons and s not in persons else n
                 for s, n in enumerate(self.names)]
        return names, persons

    def record(self) -> dict:
        """The finished episode's record, with who sat where under ``meta``: ``names`` (a
        person's name or an agent's), ``agents`` (an agent's name, null for a person),
        ``persons`` (the persons' seats) and ``stood_in`` (the moves, by their number in the
        episode, that a stand-in made for an away person)."""
        names, persons = self.seated()
        return self.game.record(program="mediatore-web", names=names,
                                agents=[None if s in persons else spec or self.stand_in_name
                                        for s, spec in enumerate(self.specs)],
                                persons=persons, stood_in=list(self.stood_in),
                                episode=self.episodes)  # not the seed: it deals the next packs


def watch_names(record: dict, players: int) -> list[str]:
    """The names at the table of a record: ``meta.names`` where mediatore-web wrote them (a
    person's name or an agent's; each a :func:`plain_name`), else ``greedy(1)`` from
    ``meta.agents``, else ``seat 1``."""
    names = (record.get("meta") or {}).get("names")
    if isinstance(names, list) and len(names) == players and all(map(plain_name, names)):
        return list(names)
    return record_names(record, players)


def plain_name(name, limit: int = 40) -> bool:
    """Whether ``name`` may name a seat on a page: a text of 1 to ``limit`` printable
    characters (no control character, no half of one: a lone surrogate is not printable)."""
    return isinstance(name, str) and 0 < len(name) <= limit and name.isprintable()


class Watch:
    """A checked record to step through: ``at(k, seat)`` is the table after its first ``k``
    steps (packs dealt and moves made), as ``seat`` saw it, or every seat's table (``None``:
    all hands open)."""

    def __init__(self, record, label: str = "record", style: str = "english",
                 max_steps: int | None = None):
        try:
            self.definition = definition_of(record)
            self.final = replay(record)
        except RecursionError:
            raise BadRequest(f"{label}: not a valid game record: nested too deeply") from None
        except ValueError as e:
            raise BadRequest(f"{label}: not a valid game record: {one_line(e)}") from None
        self.label, self.style = label, style
        self.text = self.definition.display
        # kept: the steps and the names, all checked; not the record, whose other fields (an
        # upload's meta) are whatever its sender put there
        self.steps = list(record_steps(record_start(self.final), self.final))
        if max_steps is not None and len(self.steps) > max_steps:
            raise BadRequest(f"{label}: {len(self.steps)} steps (packs dealt and moves made); "
                             f"at most {max_steps} may be uploaded")
        self.names = watch_names(record, self.final.players)

    def at(self, step: int, seat: int | None) -> dict:
        players = self.final.players
        step = _int(step, "step", 0, len(self.steps))
        if seat is not None:
            _int(seat, "seat", 0, players - 1)
        game = record_start(self.final)
        narrator = None
        for k, (kind, what) in enumerate(self.steps[:step]):
            if k == step - 1:
                narrator = self.text.narrator(game, seat, self.names, self.style)
                narrator.skip()  # a narrator made mid-game tells what it sees from now on
            mover = game.to_move
            game.deal(what) if kind == "pack" else game.apply(what)
        if narrator is None or self.steps[step - 1][0] == "pack":
            lines = self.text.dealt_lines(game, seat, self.names, self.style) if step else []
        else:
            # every step is told: a move the narrator keeps for later (a card of a trick
            # not yet complete, in some games) in the move's own words meanwhile
            lines = narrator.news() or [
                f"{self.names[mover]}: {self.text.move_words(self.steps[step - 1][1], self.style)}"]
        seats = range(players) if seat is None else [seat]
        return {"label": self.label, "game": self.definition.name, "title": self.definition.title,
                "step": step, "steps": len(self.steps), "seat": seat, "lines": lines,
                "views": [self.text.view_json(game.view(s), self.names, self.style)
                          for s in seats],
                "recorded_outcome": list(self.final.outcome)}
