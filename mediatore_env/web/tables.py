"""The tables of ``mediatore-web``, without the web: a game played by one person against agents
(:class:`Table`), and a record stepped through (:class:`Watch`). Written once over the game
interface (:mod:`mediatore_env.core.game`) and the registry: every game's part is its display
module's ``view_json(view, names, style)`` (the table a seat sees) and its text hooks
(``narrator``, ``dealt_lines``, ``stop_lines``) for the news between two looks.

What leaves a table is built from ``game.view(seat)`` of the person's seat (or, watching a
record, of the seat chosen), never from the game itself, so no card the seat may not see is
ever sent. Bad requests raise :class:`BadRequest` with one line saying what was wrong and what
is valid, before anything is changed.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from agents import make_agent
from ..codec.actions import as_move
from ..core.cards import NUM_CARDS
from ..core.game import CHANCE
from ..core.records import entry_of, replay
from ..registry import GAMES, get
from ..tools.replay import record_names, record_start, record_steps
from ..tools.terminal import seat_names

__all__ = ["BadRequest", "Table", "Watch", "games_json", "playable"]


class BadRequest(ValueError):
    """A request the table refuses; ``status`` is its HTTP status (400, 404 or 409)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def playable(entry) -> bool:
    """Whether a game's display module draws its table for the browser (has ``view_json``)."""
    return hasattr(entry.load("text"), "view_json")


def games_json() -> list[dict]:
    """The registry's games the page can draw: name, title, seats, rules switches, agents."""
    out = []
    for entry in GAMES.values():
        if not playable(entry):
            continue
        rules = entry.make_rules().to_dict()
        out.append({"name": entry.name, "title": entry.title, "players": entry.players,
                    "unit": entry.unit, "agents": list(entry.load("agents")),
                    "rules": {k: v for k, v in rules.items() if k not in entry.fixed}})
    return out


def _seat(value, players: int, what: str = "seat") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise BadRequest(f"bad {what} {value!r}; valid: 0-{players - 1}")
    return value


def _pack(pack) -> list[int]:
    if (not isinstance(pack, list) or sorted(pack) != list(range(NUM_CARDS))
            or any(isinstance(c, bool) for c in pack)):
        raise BadRequest(f"bad pack: a list of the {NUM_CARDS} card ids 0-{NUM_CARDS - 1}, "
                         f"each once, is expected")
    return pack


class Table:
    """One person at ``seat`` of a game of the registry, agents at the other seats, episode
    after episode (a deal, a game or a session: the game's unit). The packs come from
    ``packs`` while they last, then from a numpy generator seeded with ``seed``.

    ``version`` counts the person's moves and new episodes: a move must name the version it
    was chosen at, so a move chosen on a stale table (another tab, a double click) is refused.
    ``events`` is everything that happened, each with the lines that tell it and the person's
    table after it, so the page can show the agents' moves one by one."""

    def __init__(self, game: str, seat: int = 0, agents: Sequence[str] | None = None,
                 rules: dict | None = None, seed: int | None = None,
                 packs: Sequence[list] | None = None, style: str = "english"):
        self.entry = get(game)
        if not playable(self.entry):
            raise BadRequest(f"game {game!r} has no table for the browser (its display "
                             f"module has no view_json)")
        players = self.entry.players
        self.seat = _seat(seat, players)
        if not isinstance(rules or {}, dict):
            raise BadRequest("bad rules: an object of switches is expected")
        try:
            self.rules = self.entry.make_rules(**(rules or {}))
        except (TypeError, ValueError) as e:
            raise BadRequest(f"bad rules for {game}: {e}") from None
        agents = list(agents) if agents is not None else ["random"] * players
        if len(agents) != players or not all(isinstance(a, str) for a in agents):
            raise BadRequest(f"agents: a list of {players} agent names is expected (the "
                             f"person's seat's is ignored)")
        registry = self.entry.load("agents")
        self.agents: list[Any] = []
        for s, spec in enumerate(agents):
            try:
                self.agents.append(None if s == self.seat else make_agent(spec, registry))
            except ValueError as e:
                raise BadRequest(f"agent at seat {s}: {e}") from None
        self.packs = [_pack(p) for p in (packs or [])]
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise BadRequest(f"bad seed {seed!r}: an integer is expected")
        self.rng = np.random.default_rng(seed)
        self.seed, self.style = seed, style
        self.names = seat_names(agents, self.seat)
        self.text = self.entry.load("text")
        self.codec = self.entry.load("codec")
        self.version, self.episodes = 0, 0
        self.totals = [0] * players
        self.events: list[dict] = []
        self.dealer = 0
        self.id: str | None = None  # the server's name for it
        self._new_episode()

    def _new_episode(self) -> None:
        self.game = self.entry.new_game(self.rules, self.dealer)
        self.episodes += 1
        for s, agent in enumerate(self.agents):
            if agent is not None:
                agent.reset(None if self.seed is None else self.seed * 1009 + self.episodes * 7 + s)
        self.narrator = self.text.narrator(self.game, self.seat, self.names, self.style)
        self._advance()

    # -- what the person sees ------------------------------------------------------------------

    def view_json(self) -> dict:
        return self.text.view_json(self.game.view(self.seat), self.names, self.style)

    def _event(self, kind: str, seat: int | None, lines: list[str]) -> None:
        """``kind``: ``deal`` (a pack dealt), ``move`` (by ``seat``) or ``end``."""
        self.events.append({"kind": kind, "seat": seat, "lines": lines,
                            "view": self.view_json()})

    def state(self, since: int = 0) -> dict:
        """The person's table now and the events from number ``since`` on."""
        if not isinstance(since, int) or isinstance(since, bool) or since < 0:
            raise BadRequest(f"bad since {since!r}; valid: 0-{len(self.events)}")
        return {"id": self.id, "game": self.entry.name, "title": self.entry.title, "seat": self.seat,
                "version": self.version, "episode": self.episodes, "unit": self.entry.unit,
                "totals": self.totals, "view": self.view_json(),
                "events": self.events[since:], "next": len(self.events)}

    # -- moves -----------------------------------------------------------------------------------

    def move(self, move, version) -> None:
        """The person's ``move`` (a move id), chosen at table ``version``; then the agents
        play until it is the person's turn again or the episode is over."""
        if version != self.version:
            raise BadRequest(f"stale move: the table is at version {self.version}, the move "
                             f"was chosen at {version!r}; reload the table", 409)
        game = self.game
        if game.to_move != self.seat:
            raise BadRequest("not your turn: " + ("the episode is over; start the next"
                                                  if game.is_over else f"seat {game.to_move} "
                                                  "is to move"), 409)
        legal = game.legal_moves()
        try:
            move = as_move(move, self.entry.load("moves").NUM_MOVES)
        except ValueError as e:
            raise BadRequest(f"bad move: {e}") from None
        if move not in legal:
            words = self.text.move_words
            raise BadRequest(f"illegal move {move!r}; legal: " + ", ".join(
                f"{m} ({words(m, self.style)})" for m in legal))
        game.apply(move)
        self.version += 1
        self._event("move", self.seat, self.narrator.news())
        self._advance()

    def next_episode(self, version) -> None:
        """Start the next deal, game or session, the next seat dealing."""
        if version != self.version:
            raise BadRequest(f"stale request: the table is at version {self.version}", 409)
        if not self.game.is_over:
            raise BadRequest(f"the {self.entry.unit} is not over yet", 409)
        self.version += 1
        self.dealer = (self.dealer + 1) % self.entry.players
        self._new_episode()

    def _advance(self) -> None:
        """Deal packs and let the agents move until the person is to move or it is over."""
        game = self.game
        while not game.is_over and game.to_move != self.seat:
            seat = game.to_move
            if seat == CHANCE:
                game.deal(self.packs.pop(0) if self.packs else
                          self.rng.permutation(NUM_CARDS).tolist())
                self.narrator.skip()
                self._event("deal", None, self.text.dealt_lines(game, self.seat, self.names,
                                                        self.style))
                continue
            agent, view = self.agents[seat], game.view(seat)
            observation = (self.codec.observation(view)
                           if getattr(agent, "wants_observation", True) else None)
            game.apply(agent.act(observation, view))
            self._event("move", seat, self.narrator.news())
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
        except (KeyError, TypeError, AttributeError) as e:
            raise BadRequest(f"{label}: not a valid game record: malformed "
                             f"({type(e).__name__}: {e})") from None
        except ValueError as e:
            raise BadRequest(f"{label}: not a valid game record: {e}") from None
        if not playable(self.entry):
            raise BadRequest(f"{label}: game {self.entry.name!r} has no table for the browser")
        self.record, self.label, self.style = record, label, style
        self.text = self.entry.load("text")
        self.steps = list(record_steps(record_start(record, self.final), record, self.final))
        self.names = record_names(record, self.final.players)

    def at(self, step: int, seat: int | None) -> dict:
        players = self.final.players
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= len(self.steps):
            raise BadRequest(f"bad step {step!r}; valid: 0-{len(self.steps)}")
        if seat is not None:
            _seat(seat, players)
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
