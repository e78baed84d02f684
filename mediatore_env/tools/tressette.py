"""The Tressette games at the terminal: ``mediatore-play --game ...`` and ``mediatore-replay``
of Tressette records (docs/tressette.md).

    mediatore-play --game tressette                     # you and greedy(2) against two greedy
    mediatore-play --game tressette3 --agents random --seat 1 --rule low=true
    mediatore-play --game tressette2 --seed 7 --deal 3 --save game.json
    mediatore-replay game.json --seat 0                 # only what seat 0 knew

A session plays games to 31 (``--deals N`` of them): game ``k`` of seed ``S`` has the packs and
the first dealer of game ``k`` of ``mediatore-bench --game ... --seed S``
(:func:`agents.tressette.tournament.game_pack`). At each decision the screen shows the
human's view -- the scores, the melds declared, the tricks of the hand, the trick on the
table, the stock and the draws it saw two-handed, its hand -- built from its
:class:`~mediatore_env.tressette.view.TressetteView` only, and the numbered legal moves.
Answer with a number, a card (``D3``, ``3d``, ``ace of swords``) or ``claim``; ``?`` for help,
``t`` shows the table again, ``q`` quits. Each finished game can be saved as a record
(``TressetteGame.record``), which ``mediatore-replay`` steps through trick by trick.
"""

from __future__ import annotations

import textwrap
from typing import Sequence

from ..mediatore.display import STYLES, YOU, card_label, card_text, hand_inline, hand_lines
from ..core.cards import CARD_NAMES, cards_of, parse_card
from ..tressette.game import TressetteGame
from ..tressette.melds import MELD_KINDS
from ..tressette.moves import CLAIM, parse_move
from ..tressette.rules import FORMS, TressetteRules
from .terminal import (_COMMANDS, BadInput, Pager, Quit, Terminal, parse_cards_words, record_path,
                       running_score, seat_names, stopped)

__all__ = ["STYLES", "play_session", "show_record", "record_names", "view_lines",
           "read_answer", "rules_line"]

HELP_TEXT = """\
  Answer with the number of a move in the list, or name it:
    a card      D3, 3d, sa, ace of swords, asso di spade, 3 of coins (J, Q, K: Fante, Cavallo, Re)
    claim       claim the game (with the claim switch: your side must have 31, or it loses)
  t shows the table again, ? this help, q quits (so does Ctrl-D).
  Follow suit when you can: the list holds only the cards you may play."""


# -- text ---------------------------------------------------------------------------------------

def rules_line(rules: TressetteRules) -> str:
    """``'tressette3 (3 players), low'``: the form and the switches that differ from it."""
    changed = [k for k, v in rules.to_dict().items()
               if k != "players" and v != getattr(FORMS[rules.form], k)]
    return f"{rules.form} ({rules.players} players)" + "".join(
        f", {k}" if getattr(rules, k) is True else f", {k}={getattr(rules, k)}" for k in changed)


def side_names(rules: TressetteRules, names: Sequence[str]) -> list[str]:
    """The sides as people say them: ``'You and greedy(2)'`` four-handed, a seat's name otherwise."""
    return [" and ".join(names[s] for s in seats) for seats in rules.sides]


def meld_text(seat_name: str, meld, style: str, verb: bool = True) -> str:
    """``'greedy(1) declares three twos (D2 C2 S2): 3 points'`` (without the verb for lists)."""
    kind = MELD_KINDS[meld.kind]
    count = {3: "three", 4: "four"}.get(meld.cards.bit_count(), meld.cards.bit_count())
    what = "a napoletana" if kind == "napoletana" else f"{count} {kind}"
    cards = " ".join(CARD_NAMES[c] for c in cards_of(meld.cards))
    says = (" declare" if seat_name == YOU else " declares") if verb else ":"
    return f"{seat_name}{says} {what} ({cards}), {meld.points} points"


def scores_line(rules: TressetteRules, names: Sequence[str], totals, hand_points) -> str:
    sides = side_names(rules, names)
    return "Scores: " + " · ".join(f"{sides[i]} {totals[i]} ({hand_points[i]} this hand)"
                                   for i in range(rules.num_sides))


def trick_line(leader: int, cards: Sequence[int], names: Sequence[str], players: int,
               style: str) -> str:
    return ", ".join(f"{names[(leader + k) % players]} {card_text(c, style)}"
                     for k, c in enumerate(cards))


def view_lines(view, names: Sequence[str], style: str = "english", title: str = "") -> list[str]:
    """The table as ``view``'s seat sees it: scores, melds, this hand's tricks, the trick in
    progress, the stock and draws (two-handed), the seat's hand."""
    rules, players = view.rules, view.players
    n_tricks = rules.num_tricks
    head = f"== {title} · hand {view.hand_number} · trick {min(len(view.tricks) + 1, n_tricks)}" \
        f" of {n_tricks} "
    out = [head.ljust(78, "="),
           scores_line(rules, names, view.totals, view.hand_points)
           + " · the game is to 31" + (", Low Hand: the lower total wins" if rules.low else "")]
    if view.melds:
        out.append("Melds: " + "; ".join(meld_text(names[s], m, style, verb=False)
                                         for s, m in view.melds))
    if rules.stock_size:
        out.append(f"Stock: {view.stock_size} cards")
        seen = [(s, c) for s, c in view.draws if c is not None]
        if seen:
            out.append("Draws: " + ", ".join(f"{names[s]} {CARD_NAMES[c]}" for s, c in seen))
    if view.tricks:
        out.append("Tricks of this hand (leader first, winner last):")
        for i, (leader, cards, winner, _) in enumerate(view.tricks, 1):
            out.append(f"  {i:>2}. " + " ".join(CARD_NAMES[c] for c in cards)
                       + f"  led by {names[leader]}, won by {names[winner]}")
    if view.trick:
        out.append("On the table: " + trick_line(view.leader, view.trick, names, players, style))
    whose = "Your hand" if names[view.seat] == YOU else f"Hand of {names[view.seat]}"
    out.append(f"{whose}:")
    out += ["  " + line for line in hand_lines(view.hand, style)]
    return out


def moves_text(moves: Sequence[int], style: str) -> list[str]:
    entries = [f"{i:>2}  {'claim the game' if m == CLAIM else card_text(m, style)}"
               for i, m in enumerate(moves, 1)]
    width = max(map(len, entries)) + 3
    per_line = max(1, 76 // width)
    return ["  " + "".join(e.ljust(width) for e in entries[i:i + per_line]).rstrip()
            for i in range(0, len(entries), per_line)]


class Narrator:
    """Says what happened since it last looked: cards played, tricks won, melds, draws.

    It reads a seat's ``view`` only (every fact it tells is public, or that seat's own), so
    the human's screen cannot tell more than the seat knows; given the ``game`` as well (the
    open table of a replay) it names every card drawn from the stock."""

    def __init__(self, view, names: Sequence[str], style: str, game: TressetteGame | None = None):
        self.view, self.names, self.style, self.game = view, names, style, game
        self.seen = (0, 0, 0, 0, 0)  # hand number, tricks, cards of the trick, melds, draws

    def _draws(self):
        if self.game is None:
            return self.view.draws
        return tuple((d.seat, d.card) for d in self.game.log[-1].draws) if self.game.log else ()

    def _now(self):
        v = self.view
        return (v.hand_number, len(v.tricks), len(v.trick), len(v.melds), len(self._draws()))

    def skip(self) -> None:
        """Say nothing of what happened so far (a hand was just dealt and shown)."""
        self.seen = self._now()

    def _cards(self, leader: int, cards, skip: int) -> str:
        players = self.view.players
        return trick_line((leader + skip) % players, cards[skip:], self.names, players, self.style)

    def news(self) -> list[str]:
        v, names = self.view, self.names
        hand, tricks, cards, melds, draws = self.seen
        now = self._now()
        if now[0] != hand:  # a new hand: nothing of it said yet
            tricks = cards = melds = draws = 0
        out = []
        for leader, played, winner, _ in v.tricks[tricks:]:
            told = self._cards(leader, played, cards) + "  " if cards < len(played) else ""
            who = names[winner]
            out.append(f"  {told}-> {who} {'win' if who == YOU else 'wins'} the trick "
                       f"({len(v.tricks)} of {v.rules.num_tricks})")
            cards = 0
        if len(v.trick) > cards:
            out.append("  " + self._cards(v.leader, v.trick, cards))
        out += ["  " + meld_text(names[seat], meld, self.style) for seat, meld in v.melds[melds:]]
        for seat, card in self._draws()[draws:]:
            verb = "draw" if names[seat] == YOU else "draws"
            out.append(f"  {names[seat]} {verb} "
                       + ("a card" if card is None else card_label(card, self.style)))
        self.seen = now
        return out


def end_of_hand_lines(game: TressetteGame, names: Sequence[str]) -> list[str]:
    rules = game.rules
    log = game.log[-1]
    sides = side_names(rules, names)
    points = log.points(rules)
    return [f"Hand {game.hand_number} ends: "
            + " · ".join(f"{sides[i]} {points[i]}" for i in range(rules.num_sides))
            + "; totals " + " · ".join(str(t) for t in game.totals)]


def result_lines(game: TressetteGame, names: Sequence[str]) -> list[str]:
    """The end of a game: why it ended, the totals, each seat's outcome."""
    rules = game.rules
    sides = side_names(rules, names)
    why = {"target": f"{sides[game.ender]} reached 31",
           "claim": f"{names[game.claimant] if game.claimant is not None else '?'} claimed the "
                    f"game with {game.totals[game.ender]}",
           "false_claim": f"{names[game.claimant] if game.claimant is not None else '?'} claimed "
                          f"the game with only {game.totals[game.ender]}: a false claim loses",
           "hand_end": f"the hand ended unclaimed after {sides[game.ender]} reached 31"
           }.get(game.end_reason, str(game.end_reason))
    return [f"The game ends after {game.hand_number} hand{'s' * (game.hand_number > 1)}: {why}"
            + (" (Low Hand: the lower total wins)" if rules.low else "") + ".",
            "Totals: " + " · ".join(f"{sides[i]} {game.totals[i]}" for i in range(rules.num_sides)),
            "Outcome: " + " · ".join(f"{names[s]} {o:+d}" for s, o in enumerate(game.outcome))]


# -- reading the human's answer -----------------------------------------------------------------

def read_answer(text: str, listed: Sequence[int]) -> int | str:
    """A move id of ``listed`` from what a person typed (a number, a card, ``claim``), or the
    commands ``'quit'``, ``'help'``, ``'table'``. Raises :class:`BadInput` saying why not."""
    words = text.strip().lower().replace(",", " ").split()
    if not words:
        raise BadInput(f"type a number from 1 to {len(listed)}, a card such as D3, or ? for help")
    if len(words) == 1 and words[0] in _COMMANDS:
        return _COMMANDS[words[0]]
    if words[0] in ("play", "lead"):
        words = words[1:]
    if words == ["claim"]:
        if CLAIM in listed:
            return CLAIM
        raise BadInput("you cannot claim: the claim switch is off in this game")
    if len(words) == 1 and words[0].isdigit():
        k = int(words[0])
        if 1 <= k <= len(listed):
            return listed[k - 1]
        raise BadInput(f"no move {k}: the moves are numbered 1 to {len(listed)}")
    cards, rest = parse_cards_words([w for w in words if w not in ("of", "di", "the")])
    if len(cards) != 1 or rest:
        try:
            cards = [parse_card(" ".join(words))]
        except ValueError:
            raise BadInput(f"not a card or a move: {text.strip()!r}; type a number from 1 to "
                           f"{len(listed)}, a card such as D3, or ? for help") from None
    card = cards[0]
    if card not in listed:
        raise BadInput(f"you cannot play {card_label(card)} now: you must follow suit if you "
                       f"can, with a card you hold; your choices are listed")
    return card


def choose(view, names, style, term: Terminal, title: str) -> int:
    listed = view.legal_moves()
    term.say("", *view_lines(view, names, style, title))
    while True:
        term.say("Lead a card:" if not view.trick else "Play a card:", *moves_text(listed, style))
        while True:
            try:
                answer = read_answer(term.ask(f"Your move [1-{len(listed)}, ? help, q quit]: "),
                                     listed)
            except BadInput as e:
                term.say(textwrap.fill(str(e), 78, initial_indent="  ", subsequent_indent="  "))
                continue
            if answer == "quit":
                raise Quit
            if answer == "help":
                term.say(HELP_TEXT)
                break
            if answer == "table":
                term.say(*view_lines(view, names, style, title))
                break
            return answer


# -- a session at the terminal --------------------------------------------------------------------

def play_game_at_terminal(game: TressetteGame, human: int, agents: Sequence, names: Sequence[str],
                          term: Terminal, packs, style: str = "english", title: str = "Game",
                          seeds: Sequence[int] | None = None, auto: bool = True) -> TressetteGame:
    """Play ``game`` to its end: the human at seat ``human`` through ``term``, the agents
    (``agents[s]``, None at the human's seat) at the others; hand ``k`` dealt from
    ``packs(k)``. The human sees ``game.view(human)`` only. Raises :class:`Quit`."""
    for s, agent in enumerate(agents):
        if s != human:
            agent.reset(None if seeds is None else seeds[s])
    view = game.view(human)
    narrator = Narrator(view, names, style)
    encode = None
    if any(a is not None and getattr(a, "wants_observation", True) for a in agents):
        from ..tressette.observation import observation as encode
    dealt = 0
    while not game.is_over:
        if game.needs_pack:
            if dealt:
                term.say(*end_of_hand_lines(game, names))
            game.deal(packs(dealt))
            dealt += 1
            narrator.skip()
            term.say("", f"{title}, hand {game.hand_number}: {names[game.dealer]} "
                     f"{'deal' if names[game.dealer] == YOU else 'deals'}, "
                     f"{names[game.to_move]} {'lead' if names[game.to_move] == YOU else 'leads'}.",
                     "Your hand:" if names[human] == YOU else f"Hand of {names[human]}:",
                     *("  " + line for line in hand_lines(view.hand, style)))
            continue
        seat = game.to_move
        if seat == human:
            legal = view.legal_moves()
            if auto and len(legal) == 1:
                move = legal[0]
                term.say(f"  (your only legal move: {card_text(move, style)})")
            else:
                move = choose(view, names, style, term, title)
        else:
            agent = agents[seat]
            agent_view = game.view(seat)
            obs = encode(agent_view) if getattr(agent, "wants_observation", True) else None
            move = agent.act(obs, agent_view)
            if not game.is_legal(move):
                raise RuntimeError(f"agent {names[seat]} chose an illegal move {move!r}")
        if move == CLAIM:
            term.say(f"  {names[seat]} {'claim' if names[seat] == YOU else 'claims'} the game!")
        game.apply(move)
        lines = narrator.news()
        if lines:
            term.say(*lines)
    return game


def play_session(agent_specs: Sequence[str], human: int = 0, rules: TressetteRules | None = None,
                 seed: int = 0, first_game: int = 0, games: int = 1, style: str = "english",
                 save: str | None = None, term: Terminal | None = None, auto: bool = True) -> int:
    """Play ``games`` games to 31 (``first_game``, ``first_game + 1``, ... of ``seed``) with the
    human at seat ``human`` and ``agent_specs`` (one per other seat, in seat order; names of
    :data:`agents.tressette.AGENTS`), keeping a running score. Returns the exit status (0)."""
    from agents.tressette import make_agent
    from agents.tressette.tournament import game_dealer, game_pack
    from agents.tournament import derive_seed
    rules = FORMS["tressette"] if rules is None else rules
    n = rules.players
    term = term or Terminal()
    specs = list(agent_specs)
    seat_specs = [None if s == human else specs.pop(0) for s in range(n)]
    agents = [None if spec is None else make_agent(spec) for spec in seat_specs]
    names = seat_names(["human" if sp is None else sp for sp in seat_specs], human)
    score = [0] * n
    term.say(f"Tressette · {rules_line(rules)} · seed {seed}"
             + (f" · games {first_game}-{first_game + games - 1}" if games > 1 else
                f" · game {first_game}"),
             "Playing order: " + " -> ".join(names)
             + (f"; partners: {' · '.join(side_names(rules, names))}" if n == 4 else "")
             + "   (? for help)")
    played = 0
    try:
        for k in range(games):
            index = first_game + k
            game = TressetteGame(rules, game_dealer(index, n))
            seeds = [derive_seed(seed, index, s) for s in range(n)]
            title = f"Game {k + 1} of {games}" if games > 1 else "Game"
            play_game_at_terminal(game, human, agents, names, term,
                                  lambda h, i=index: game_pack(seed, i, h), style, title, seeds,
                                  auto)
            score = [t + o for t, o in zip(score, game.outcome)]
            played += 1
            term.say("", f"== {title}: the result ".ljust(78, "="), *result_lines(game, names))
            path = record_path(save, index, games > 1)
            if path is not None:
                record = game.record(agents=[sp or "human" for sp in seat_specs],
                                     human_seat=human, seed=seed, game_index=index,
                                     program="mediatore-play")
                from ..mediatore.records import save_record
                save_record(record, path)
                term.say(f"record saved to {path}", f"replay it with: mediatore-replay {path}")
            if games > 1:
                running_score(term, "game", played, names, score, last=k + 1 == games)
    except Quit:
        term.say(stopped("game", played, names, score))
        return 0
    return 0


# -- replay ------------------------------------------------------------------------------------

def record_names(record: dict, seat: int | None = None) -> list[str]:
    """Display names of the seats of a Tressette record (``greedy(1)``, ``seat 1``, ``You``)."""
    meta = record.get("meta") or {}
    players = TressetteRules.from_dict(record["rules"]).players
    agents = meta.get("agents")
    if not (isinstance(agents, list) and len(agents) == players
            and all(isinstance(a, str) for a in agents)):
        agents = [f"seat {s}" for s in range(players)]
        names = list(agents)
    else:
        names = seat_names(agents, -1)
    if seat is not None and seat == meta.get("human_seat"):
        names[seat] = YOU
    return names


_ABOUT = {"program": "from", "seed": "seed", "game_index": "game", "lineup": "lineup",
          "rotation": "rotation"}


def show_record(record: dict, seat: int | None = None, style: str = "english", pager=None,
                label: str = "") -> bool:
    """Step through one Tressette record (already checked), stopping at each hand dealt and
    each trick; the open table, or only what ``seat`` saw. Returns False if the person quit."""
    pager = pager or Pager(False)
    rules = TressetteRules.from_dict(record["rules"])
    if seat is not None and not 0 <= seat < rules.players:
        raise ValueError(f"--seat {seat}: this {rules.form} record has seats 0-{rules.players - 1}")
    names = record_names(record, seat)
    meta = record.get("meta") or {}
    about = ", ".join(f"{text} {meta[key]}" for key, text in _ABOUT.items() if key in meta)
    pager.say(f"== {label or 'Record'} ".ljust(78, "="),
              f"{rules_line(rules)} · first dealer {names[record['dealer']]}"
              + (f" · {about}" if about else ""),
              "seen by " + ("everyone: the open table" if seat is None else
                            f"{names[seat]} (seat {seat}) only"))
    game = TressetteGame(rules, record["dealer"])
    packs = list(record["packs"])
    view = None if seat is None else game.view(seat)
    narrator = Narrator(game.view(0) if seat is None else view, names, style,
                        game if seat is None else None)
    moves = list(record["moves"])
    i = 0
    while not game.is_over:
        if game.needs_pack:
            if game.hand_number:
                pager.say(*end_of_hand_lines(game, names))
            if game.hand_number == len(packs):
                break
            game.deal(packs[game.hand_number])
            narrator.skip()
            pager.say("", f"-- hand {game.hand_number}: {names[game.dealer]} deals ".ljust(40, "-"))
            if seat is None:
                w = max(map(len, names))
                log = game.log[-1]
                pager.say(*(f"  {names[s]:<{w}}  {hand_inline(game.hands[s], style)}"
                            for s in range(rules.players)))
                if rules.has_dead_hand:
                    pager.say(f"  {'dead hand':<{w}}  {hand_inline(log.dead, style)}")
                if log.stock:
                    pager.say(f"  {'stock':<{w}}  " + " ".join(CARD_NAMES[c] for c in log.stock)
                              + "  (top first)")
            else:
                pager.say(f"Hand of {names[seat]}:",
                          *("  " + line for line in hand_lines(view.hand, style)))
            if not pager.wait():
                return False
            continue
        if i == len(moves):
            break
        tricks = len(game.log[-1].tricks)
        move = parse_move(moves[i]["move"])
        i += 1
        if move == CLAIM:
            pager.say(f"  {names[game.to_move]} claims the game")
        game.apply(move)
        if len(game.log[-1].tricks) > tricks or game.is_over:
            pager.say(*narrator.news())
            if not game.is_over and not pager.wait():
                return False
    if not game.is_over:
        pager.say(*narrator.news(), "", "(the record ends here: the game was not finished)")
        return True
    pager.say("", f"== {label or 'Record'}: the result ".ljust(78, "="), *result_lines(game, names))
    return True


def check_record(record: dict) -> None:
    """Re-simulate a Tressette record (raises ``ValueError`` naming what differs)."""
    TressetteGame.replay(record)

