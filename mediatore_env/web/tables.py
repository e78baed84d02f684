"""The tables of ``mediatore-web``, without the web: a game played by one person against agents
(:class:`Table`), and a record stepped through (:class:`Watch`). Written once over the game
interface (:mod:`mediatore_env.core.game`) and the registry: every game's part is its display
(:class:`~mediatore_env.core.display.Display`): ``view_json(view, names, style)`` (the table a
seat sees; every game has one, the default a trick game's) and its text hooks (``narrator``,
``dealt_lines``, ``stop_lines``) for the news between two looks.

What leaves a table is built from ``game.view(seat)`` of the person's seat (or, watching a
record, of the seat chosen), never from the game itself, so no card the seat may not see is
ever sent.

Nothing here trusts what a request holds: :func:`table_request` checks every field of a new
table (the game, the seat, each agent's name and options, the rules, the seed, the packs)
before anything is made, and refuses a bad one with :class:`BadRequest`, one line saying what
was wrong and what is valid. Agents are the names of the game's registry (and those the
server's operator added): never an import path, and their options are data (numbers,
booleans, text) checked against the agent's own parameters (:func:`check_agent_options`).

The agents do not think here: :meth:`Table.agent_turn` hands out what the agent to move needs,
:func:`think` (a pure function, run by the server in a worker) chooses the move, and
:meth:`Table.agent_moved` makes it, so the server keeps answering while agents think.
"""

from __future__ import annotations

import inspect
import math
import secrets
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from agents import agents_of, make_agent
from ..codec.actions import as_move
from ..core.cards import NUM_CARDS
from ..core.game import CHANCE
from ..core.records import entry_of, replay
from ..registry import GAMES, GameDef, get
from ..tools.replay import record_names, record_start, record_steps
from ..tools.terminal import seat_names

__all__ = ["BadRequest", "Table", "Watch", "games_json", "table_request",
           "check_agent_options", "switch_specs", "think", "shown", "one_line"]

#: The most characters of an agent's text, the most packs a table may be given, the most
#: an agent's numeric option may be raised above its default (a request shares the server's
#: CPU with every other table; an operator who wants more registers the agent with --agent).
MAX_SPEC, MAX_PACKS, MAX_EFFORT = 120, 64, 10
#: Seeds are numpy's: a non-negative int, here below 2**63.
MAX_SEED = 2 ** 63 - 1


class BadRequest(ValueError):
    """A request the table refuses; ``status`` is its HTTP status (400, 404, 409...)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def shown(value, width: int = 40) -> str:
    """``repr(value)`` cut to ``width`` characters: an error names what it got without
    echoing a whole request back."""
    text = repr(value)
    return text if len(text) <= width else text[:width - 3] + "..."


def one_line(error: BaseException, width: int = 200) -> str:
    """An exception's message on one line of at most ``width`` characters."""
    text = " ".join(str(error).split())
    return text if len(text) <= width else text[:width - 3] + "..."


# -- the rules switches, typed for the page's form -----------------------------------------------

def switch_specs(entry: GameDef) -> list[dict]:
    """Each rules switch of the game the page may set (those its entry does not fix), typed so
    the form draws the right input: ``{"name", "kind", "default"}``, ``kind`` one of ``bool``,
    ``choice`` (with ``"choices"``), ``int`` or ``optional int`` (None or an int, from
    ``"minimum"``): the rules' own description of their switches."""
    default = entry.make_rules()
    specs = []
    for switch in entry.rules.switches():
        if switch.name in entry.fixed:
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
    for entry in GAMES.values():
        out.append({"name": entry.name, "title": entry.title, "players": entry.players,
                    "unit": entry.unit, "agents": list(agent_registry(entry, extra_agents)),
                    "switches": switch_specs(entry)})
    return out


def agent_registry(entry: GameDef, extra: Mapping[str, Mapping[str, Callable]] | None = None
                   ) -> dict[str, Callable]:
    """The agents a table of ``entry`` may seat, by name: the game's own, then ``extra[game]``
    (registered by the server's operator with ``--agent``)."""
    return {**agents_of(entry), **((extra or {}).get(entry.name) or {})}


# -- what a request may ask of an agent ----------------------------------------------------------

def check_agent_options(factory: Callable, options: dict) -> None:
    """Refuse (``ValueError``) options a request may not give an agent: each must be a
    keyword parameter of the agent's factory, its value a number, a boolean or a short text
    of the parameter's default's type (or None where the parameter takes None), and a number
    at most :data:`MAX_EFFORT` times a positive default (so no request buys an agent a day of
    thought). A parameter without a
    plain default (a policy object, a table of weights) or naming a file cannot be set."""
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        params = {}
    for name, value in options.items():
        param = params.get(name)
        default = None if param is None else param.default
        if (param is None or param.kind not in (param.KEYWORD_ONLY, param.POSITIONAL_OR_KEYWORD)
                or not (default is None or type(default) in (bool, int, float, str))
                or name in ("path", "file", "model", "weights")):
            settable = [p for p, q in params.items() if q.default is None
                        or type(q.default) in (bool, int, float, str)
                        if p not in ("path", "file", "model", "weights")]
            raise ValueError(f"option {name!r} cannot be set here; options: "
                             + (", ".join(settable) or "none"))
        if not (_fits(value, default) or value is None and "None" in str(param.annotation)):
            raise ValueError(f"bad value {shown(value)} for option {name!r} (default "
                             f"{default!r}): " + _expected(default))


def _fits(value, default) -> bool:
    """Whether a request's ``value`` may stand for an option whose default is ``default``."""
    if type(value) is bool or type(default) is bool:
        return type(value) is bool and type(default) in (bool, type(None))
    if type(value) is str:
        return type(default) in (str, type(None)) and len(value) <= 40
    if type(value) not in (int, float) or type(default) is str or not math.isfinite(value):
        return False
    if type(default) is int and type(value) is not int:
        return False
    low, high = _number_range(default)
    return low <= value <= high


def _number_range(default) -> tuple[float, float]:
    """A number option's range: up to :data:`MAX_EFFORT` times a positive default, else
    -1000 to 1000."""
    if isinstance(default, (int, float)) and default > 0:
        return 0, MAX_EFFORT * default
    return -1000, 1000


def _expected(default) -> str:
    if type(default) is bool:
        return "true or false"
    if type(default) is str:
        return "a text of at most 40 characters"
    low, high = _number_range(default)
    kind = "an integer" if type(default) is int else "a number"
    return f"{kind} from {low:g} to {high:g}" + (", true, false or a short text"
                                                  if default is None else "")


def _agent(spec, seat: int, registry: dict) -> Any:
    if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SPEC:
        raise BadRequest(f"agent at seat {seat}: {shown(spec)} is not an agent's name; valid: "
                         + ", ".join(registry))
    try:
        return make_agent(spec, registry, imports=False, check_options=check_agent_options)
    except ValueError as e:
        raise BadRequest(f"agent at seat {seat}: {one_line(e, 300)}") from None
    except Exception as e:  # an agent's own check of an option's meaning, whatever its type
        raise BadRequest(f"agent at seat {seat}: cannot make {shown(spec)}: "
                         f"{type(e).__name__}: {one_line(e)}") from None


# -- a new table, checked whole before anything is made ----------------------------------------

def _int(value, what: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise BadRequest(f"bad {what} {shown(value)}; valid: {low}-{high}")
    return value


def _pack(pack) -> list[int]:
    if (not isinstance(pack, list) or len(pack) != NUM_CARDS
            or any(type(c) is not int for c in pack) or sorted(pack) != list(range(NUM_CARDS))):
        raise BadRequest(f"bad pack: a list of the {NUM_CARDS} card ids 0-{NUM_CARDS - 1}, "
                         f"each once, is expected")
    return pack


def table_request(data: dict, extra_agents=None) -> dict:
    """The keyword arguments of :class:`Table` for a request's ``data`` (the JSON of ``POST
    /api/games``: ``game``, ``seat``, ``agents``, ``rules``, ``seed``, ``packs``), every field
    checked; ``BadRequest`` for the first bad one, before anything is made."""
    fields = {"game", "seat", "agents", "rules", "seed", "packs"}
    unknown = sorted(set(data) - fields)
    if unknown:
        raise BadRequest(f"unknown field {shown(unknown[0])}; valid: {', '.join(sorted(fields))}")
    if "game" not in data:
        raise BadRequest("game is missing; valid: " + ", ".join(g for g in GAMES))
    try:
        entry = get(data["game"])
    except ValueError as e:
        raise BadRequest(str(e) if isinstance(data["game"], str) and len(data["game"]) <= 40
                         else f"unknown game {shown(data['game'])}; valid: {', '.join(GAMES)}"
                         ) from None
    players = entry.players
    seat = _int(data.get("seat", 0), "seat", 0, players - 1)
    rules = data.get("rules") or {}
    if not isinstance(rules, dict):
        raise BadRequest("bad rules: an object of switches is expected")
    try:
        rules = entry.make_rules(**rules)
    except (TypeError, ValueError) as e:
        raise BadRequest(f"bad rules for {entry.name}: {one_line(e)}") from None
    specs = data.get("agents")
    specs = ["random"] * players if specs is None else specs
    if not isinstance(specs, list) or len(specs) != players:
        raise BadRequest(f"agents: a list of {players} agent names is expected (null at the "
                         "person's seat)")
    if not (specs[seat] is None or isinstance(specs[seat], str) and len(specs[seat]) <= MAX_SPEC):
        raise BadRequest(f"agents: null (or any agent's name, ignored) at the person's seat "
                         f"{seat}, not {shown(specs[seat])}")
    seed = data.get("seed")
    if seed is not None:
        seed = _int(seed, "seed", 0, MAX_SEED)
    packs = data.get("packs") or []
    if not isinstance(packs, list) or len(packs) > MAX_PACKS:
        raise BadRequest(f"bad packs: a list of at most {MAX_PACKS} packs is expected")
    packs = [_pack(p) for p in packs]
    registry = agent_registry(entry, extra_agents)  # made last: the costliest check
    agents = [None if s == seat else _agent(spec, s, registry) for s, spec in enumerate(specs)]
    names = seat_names([spec if isinstance(spec, str) else "" for spec in specs], seat)
    return dict(entry=entry, seat=seat, agents=agents, rules=rules, seed=seed, packs=packs,
                names=names)


def think(agent, game, seat: int, observe: Callable | None) -> tuple[int, Any]:
    """The move ``agent`` makes at ``seat`` of ``game`` (a copy: nothing here touches a live
    table), and the agent after it (in a worker process, a copy that carries its state back).
    ``observe``: the game's observation writer, for an agent that reads tensors."""
    view = game.view(seat)
    observation = observe(view) if observe and getattr(agent, "wants_observation", True) else None
    return agent.act(observation, view), agent


class Table:
    """One person at ``seat`` of a game of the registry, agents at the other seats, episode
    after episode (a deal, a game or a session: the game's unit). The packs come from
    ``packs`` while they last, then from a numpy generator seeded with ``seed``.

    ``id`` (unguessable) names the table and ``token`` is the person's secret: the server
    answers for the seat only to a request that carries it.

    ``version`` counts the person's moves and new episodes: a move must name the version it
    was chosen at, so a move chosen on a stale table (another tab, a double click) is refused.
    ``events`` is what happened this episode, each with the lines that tell it and the
    person's table after it, so the page can show the agents' moves one by one; ``first`` is
    the number of the first one kept (events of earlier episodes are let go)."""

    def __init__(self, entry: GameDef, seat: int, agents: Sequence[Any], rules,
                 seed: int | None, packs: Sequence[list], names: Sequence[str],
                 style: str = "english"):
        self.entry, self.seat, self.agents, self.rules = entry, seat, list(agents), rules
        self.packs = [list(p) for p in packs]
        self.rng = np.random.default_rng(seed)
        self.seed, self.style, self.names = seed, style, list(names)
        self.text = entry.display
        self.observe = entry.observation
        self.id = secrets.token_urlsafe(16)
        self.token = secrets.token_urlsafe(24)
        self.version, self.episodes = 0, 0
        self.totals = [0] * entry.players
        self.events: list[dict] = []
        self.first = 0
        self.dealer = 0
        #: an agent's failure, once one has failed: the table plays no more
        self.broken: str | None = None
        #: an agent is thinking (the server's worker has its turn)
        self.thinking = False
        self._new_episode()

    def _new_episode(self) -> None:
        self.game = self.entry.new_game(self.rules, self.dealer)
        self.episodes += 1
        self.first += len(self.events)
        self.events = []
        for s, agent in enumerate(self.agents):
            if agent is not None:
                agent.reset(None if self.seed is None else self.seed * 1009 + self.episodes * 7 + s)
        self.narrator = self.text.narrator(self.game, self.seat, self.names, self.style)

    # -- what the person sees ------------------------------------------------------------------

    def view_json(self) -> dict:
        return self.text.view_json(self.game.view(self.seat), self.names, self.style)

    def _event(self, kind: str, seat: int | None, lines: list[str]) -> None:
        """``kind``: ``deal`` (a pack dealt), ``move`` (by ``seat``) or ``end``."""
        self.events.append({"kind": kind, "seat": seat, "lines": lines,
                            "view": self.view_json()})

    @property
    def next(self) -> int:
        """The number the next event will have."""
        return self.first + len(self.events)

    def check_since(self, since) -> int:
        """``since`` as an event number this table can answer from."""
        return _int(since, "since", 0, self.next)

    def state(self, since: int = 0) -> dict:
        """The person's table now and the events from number ``since`` on (those kept)."""
        since = self.check_since(since)
        return {"id": self.id, "game": self.entry.name, "title": self.entry.title,
                "seat": self.seat, "version": self.version, "episode": self.episodes,
                "unit": self.entry.unit, "totals": self.totals, "view": self.view_json(),
                "events": self.events[max(since - self.first, 0):], "next": self.next,
                "thinking": self.thinking, "broken": self.broken}

    def fingerprint(self) -> tuple:
        """What a refused request must leave as it was (for the tests)."""
        return (self.version, self.episodes, self.next, tuple(self.game.history),
                self.game.to_move, tuple(self.totals), len(self.packs))

    # -- moves -----------------------------------------------------------------------------------

    def check_move(self, move, version) -> int:
        """The person's ``move`` (a move id) chosen at table ``version``, as a legal move id;
        ``BadRequest`` (409 for a stale table or another seat's turn) otherwise."""
        if version != self.version:
            raise BadRequest(f"stale move: the table is at version {self.version}, the move "
                             f"was chosen at {shown(version)}; reload the table", 409)
        game = self.game
        if game.to_move != self.seat:
            raise BadRequest("not your turn: " + ("the episode is over; start the next"
                                                  if game.is_over else "the agents are to move"),
                             409)
        try:
            move = as_move(move, self.entry.moves.count)
        except ValueError as e:
            raise BadRequest(f"bad move: {one_line(e)}") from None
        legal = game.legal_moves()
        if move not in legal:
            words = self.text.move_words
            raise BadRequest(f"illegal move {move!r}; legal: " + ", ".join(
                f"{m} ({words(m, self.style)})" for m in legal))
        return move

    def move(self, move: int) -> None:
        """Make the person's move, checked by :meth:`check_move`."""
        self.game.apply(move)
        self.version += 1
        self._event("move", self.seat, self.narrator.news())
        self._ended()

    def check_next(self, version) -> None:
        if version != self.version:
            raise BadRequest(f"stale request: the table is at version {self.version}", 409)
        if not self.game.is_over:
            raise BadRequest(f"the {self.entry.unit} is not over yet", 409)

    def next_episode(self) -> None:
        """Start the next deal, game or session, the next seat dealing (checked by
        :meth:`check_next`)."""
        self.version += 1
        self.dealer = (self.dealer + 1) % self.entry.players
        self._new_episode()

    def agent_turn(self) -> tuple[int, Any, Any, Callable] | None:
        """Deal the packs the game waits for, then what the agent to move needs to think:
        ``(seat, agent, a copy of the game, the observation writer)``; None when the person
        is to move, the episode is over or an agent has failed."""
        game = self.game
        while game.to_move == CHANCE:
            game.deal(self.packs.pop(0) if self.packs else
                      self.rng.permutation(NUM_CARDS).tolist())
            self.narrator.skip()
            self._event("deal", None, self.text.dealt_lines(game, self.seat, self.names,
                                                            self.style))
        if self.broken or game.is_over or game.to_move == self.seat:
            return None
        seat = game.to_move
        return seat, self.agents[seat], game.clone(), self.observe

    def agent_moved(self, seat: int, move, agent) -> None:
        """Make the move an agent chose at ``seat`` (its copy ``agent`` carries its state on);
        an agent that fails or names an illegal move stops the table, saying so."""
        self.agents[seat] = agent
        try:
            self.game.apply(move)
        except ValueError as e:
            self.fail(f"the agent at seat {seat} ({self.names[seat]}) made an illegal move: "
                      f"{one_line(e)}")
            return
        self._event("move", seat, self.narrator.news())
        self._ended()

    def fail(self, message: str) -> None:
        self.broken = message
        self._event("end", None, [message])

    def _ended(self) -> None:
        game = self.game
        if game.is_over:
            self.totals = [t + r for t, r in zip(self.totals, game.outcome)]
            result = " · ".join(f"{self.names[s]} {r:+d}" for s, r in enumerate(game.outcome))
            self._event("end", None, self.text.stop_lines(game, self.seat, self.names,
                                                          self.style) + [f"Result: {result}"])


class Watch:
    """A checked record to step through: ``at(k, seat)`` is the table after its first ``k``
    steps (packs dealt and moves made), as ``seat`` saw it, or every seat's table (``None``:
    all hands open)."""

    def __init__(self, record, label: str = "record", style: str = "english"):
        try:
            self.entry = entry_of(record)
            self.final = replay(record)
        except RecursionError:
            raise BadRequest(f"{label}: not a valid game record: nested too deeply") from None
        except (KeyError, TypeError, AttributeError, IndexError) as e:
            raise BadRequest(f"{label}: not a valid game record: malformed "
                             f"({type(e).__name__}: {one_line(e, 100)})") from None
        except ValueError as e:
            raise BadRequest(f"{label}: not a valid game record: {one_line(e)}") from None
        self.record, self.label, self.style = record, label, style
        self.text = self.entry.display
        self.steps = list(record_steps(record_start(record, self.final), record, self.final))
        self.names = record_names(record, self.final.players)

    def at(self, step: int, seat: int | None) -> dict:
        players = self.final.players
        step = _int(step, "step", 0, len(self.steps))
        if seat is not None:
            _int(seat, "seat", 0, players - 1)
        game = self.entry.new_game(self.final.rules, self.record["dealer"])
        narrator = None
        for k, (kind, what) in enumerate(self.steps[:step]):
            if k == step - 1:
                narrator = self.text.narrator(game, seat, self.names, self.style)
            game.deal(what) if kind == "pack" else game.apply(what)
        if narrator is None or self.steps[step - 1][0] == "pack":
            lines = self.text.dealt_lines(game, seat, self.names, self.style) if step else []
        else:
            lines = narrator.news()
        seats = range(players) if seat is None else [seat]
        return {"label": self.label, "game": self.entry.name, "title": self.entry.title,
                "step": step, "steps": len(self.steps), "seat": seat, "lines": lines,
                "views": [self.text.view_json(game.view(s), self.names, self.style)
                          for s in seats],
                "recorded_outcome": list(self.final.outcome)}
