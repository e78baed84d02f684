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

from ..core.cards import parse_card
from ..mediatore.display import STYLES, YOU, card_label, card_text, hand_lines
from ..tressette.display import (Narrator, end_of_hand_lines, moves_lines, result_lines,
                                 rules_line, side_names, view_lines)
from ..tressette.game import TressetteGame
from ..tressette.moves import CLAIM
from ..tressette.rules import FORMS, TressetteRules
from .terminal import (_COMMANDS, BadInput, Quit, Terminal, parse_cards_words, record_path,
                       running_score, seat_names, stopped)

__all__ = ["STYLES", "play_session", "read_answer"]

HELP_TEXT = """\
  Answer with the number of a move in the list, or name it:
    a card      D3, 3d, sa, ace of swords, asso di spade, 3 of coins (J, Q, K: Fante, Cavallo, Re)
    claim       claim the game (with the claim switch: your side must have 31, or it loses)
  t shows the table again, ? this help, q quits (so does Ctrl-D).
  Follow suit when you can: the list holds only the cards you may play."""


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
        term.say("Lead a card:" if not view.trick else "Play a card:", *("  " + line for line in moves_lines(listed, style)))
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
