"""``mediatore-play``: play any game of the family at the terminal, one human seat against agents.

    mediatore-play                                   # Mediatore: you at seat 0, three greedy agents
    mediatore-play --agents greedy random greedy --seat 2 --seed 7
    mediatore-play --preset low --rule signals=off --deals 5 --save game.json
    mediatore-play --cards italian                   # Asso di Spade instead of ace of swords
    mediatore-play --game tressette3 --rule low=true # a game to 31 of Three-Handed Tressette
    mediatore-play --game club --seat 1 --ante 3     # a session of club Mediatore, the pot game

One loop (:func:`play_game`) plays every game of the registry (:mod:`mediatore_env.registry`)
through the game interface (:mod:`mediatore_env.core.game`): it deals the packs, asks the human
and the agents in turn, and tells what happened in the words of the game's display (the
registry's ``display``, :class:`~mediatore_env.core.display.Display`: ``start_lines``,
``question``, ``table_lines``, ``moves_lines``, ``move_words``, ``narrator``, ``stop_lines``,
``end_lines``, ``rules_line``). At each decision
you see your seat's view of the table and the numbered list of your legal moves; answer with a
number or the move in words (:mod:`.answers`: ``solo``, ``D3``, ``3 of coins``, ``SA volo``,
``claim``, ``accept``); ``?`` shows help, ``t`` the table again, ``q`` or Ctrl-D stops, with the
score of the episodes finished (each already saved with ``--save``); Ctrl-C stops at once, with
one line and exit status 130, as every command does. A move that is the only
legal one is played for you and said (``--ask-forced`` to be asked anyway). Between two hands
of an episode (a Tressette hand, a club deal) the end of the last is shown (``stop_lines``),
and Enter goes on to the next.

The screen is built from the human's view only, so it cannot show what the seat may not know;
the full result, every hand included, is shown at the end of each episode (a Mediatore deal, a
Tressette game to 31, a club session: the registry's ``unit``).

Episode ``k`` of seed ``S`` has the same packs, first dealer and agents' seeds as episode ``k``
of ``mediatore-bench --game G --seed S`` (the tournament hooks' ``pack``), so an episode seen in a
tournament can be played by hand with ``--seed S --deal k``. Each finished episode can be saved
as a game record (:mod:`mediatore_env.core.records`) for ``mediatore-replay``.
"""

from __future__ import annotations

import argparse
import random
import sys
import textwrap
from functools import partial
from typing import Callable, Sequence, TextIO

from ..registry import GAMES, get
from ..core.agent import NotThisGame, ask, check_seats, reset_agent, wants_observation
from ..core.records import save_record
from ..core.text import STYLES
from ..runinfo import command
from .answers import Reader, read_answer, reader_of
from .checks import (ArgumentParser, add_rules_options, check_agents, game_of, non_negative_int,
                     output_file, parse_for_game, positive_int, rules_of, rules_options_elsewhere)
from .terminal import (HELP, QUIT, TABLE, BadInput, Quit, Terminal, _echoing_input, record_path,
                       running_score, score_line, seat_names, stopped,
                       wait_for_next)

__all__ = ["play_game", "play_session", "main"]


# -- one episode at the terminal ------------------------------------------------------------------

def choose_moves(view, names: Sequence[str], style: str, term: Terminal, text, reader: Reader,
                 title: str) -> list[int]:
    """Show the human's view and legal moves, and ask until the answer names legal moves (or
    a command: ``?`` help, ``t`` the table; ``q`` raises :class:`Quit`)."""
    listed = reader.order(view.legal_moves())
    term.say("", *text.table_lines(view, names, style, title))
    question, note = text.question(view), reader.note(view)
    if note:  # "Discard 4 cards to form the new monte (name them all in one answer):"
        question = f"{question.rstrip(':')} ({note}):"
    while True:
        term.say(question, *("  " + line for line in text.moves_lines(listed, style)))
        while True:
            try:
                answer = read_answer(term.ask(f"Your move [1-{len(listed)}, ? help, q quit]: "),
                                     view, listed, reader)
            except BadInput as e:
                term.say(textwrap.fill(str(e), 78, initial_indent="  ", subsequent_indent="  "))
                continue
            if isinstance(answer, list):
                return answer
            if answer == QUIT:
                raise Quit
            if answer == HELP:
                term.say(reader.help)
                break
            if answer == TABLE:
                term.say(*text.table_lines(view, names, style, title))
                break


def play_game(game, human: int | None, agents: Sequence, names: Sequence[str], term: Terminal,
              text, reader: Reader, style: str = "english", title: str = "Game",
              packs: Callable[[int], Sequence] | None = None,
              seeds: Sequence[int] | None = None, auto: bool = True, observation=None):
    """Play ``game`` (any :class:`~mediatore_env.core.game.Game`) to its end: the human at seat
    ``human`` through ``term``, the agents (``agents[s]``, None at the human's seat) at the
    others, each reset with ``seeds[s]``; whenever the game waits for a pack it is dealt
    ``packs(k)`` (k = 0, 1, ...). ``text`` is the game's display, ``reader`` reads the
    human's answers (:func:`.answers.reader_of`), ``observation`` writes an agent's
    observation (needed only if one wants it). The human sees ``game.view(human)`` only.
    Between two hands (deals) of the game it shows the end of the last and waits for Enter.
    With ``human`` None agents play every seat and ``term`` is told all, the open table, and
    asked nothing. Returns the game; raises :class:`Quit` if the human quits."""
    for s, agent in enumerate(agents):
        if agent is not None:
            reset_agent(agent, None if seeds is None else seeds[s])
    narrator = text.narrator(game, human, names, style)

    def dealt_lines() -> list[str]:
        if human is None:
            return text.dealt_lines(game, None, names, style)
        return text.start_lines(game, human, names, style, title)

    if not game.needs_pack and not game.is_over:  # dealt already
        term.say("", *dealt_lines())
    queue: list[int] = []  # the rest of an answer that named several moves (discards)
    dealt = 0
    while not game.is_over:
        seat = game.to_move
        if game.needs_pack:
            if dealt:  # a hand is over: its end, and the time to read it if a person plays
                term.say(*text.stop_lines(game, human, names, style))
                if human is not None:
                    wait_for_next(term, text.hand_word)
            if packs is None:
                raise ValueError("the game waits for a pack, and play_game was given no packs")
            game.deal(packs(dealt))
            dealt += 1
            narrator.skip()
            term.say("", *dealt_lines())
            continue
        if seat == human:
            legal = game.legal_moves()
            if queue and queue[0] in legal:
                move = queue.pop(0)
            elif auto and len(legal) == 1:
                move = legal[0]
                term.say(f"  (your only legal move: {text.move_words(move, style)})")
            else:
                queue = choose_moves(game.view(human), names, style, term, text, reader, title)
                move = queue.pop(0)
        else:
            move = ask(agents[seat], game.view(seat), observation)
            if not game.is_legal(move):
                raise RuntimeError(f"agent {names[seat]} chose an illegal move {move!r}")
        game.apply(move)
        news = narrator.news()
        if news:
            term.say(*news)
    if human is not None:
        term.say("", *text.final_lines(game, human, names, style, title))
    else:  # the open table's last stop: the end as a replay shows it
        term.say(*text.stop_lines(game, None, names, style))
    return game


def play_session(game: str, agent_specs: Sequence[str], human: int = 0, rules=None,
                 seed: int = 0, first: int = 0, count: int = 1, style: str = "english",
                 save: str | None = None, term: Terminal | None = None, auto: bool = True) -> int:
    """Play ``count`` episodes of registered game ``game`` (episodes ``first``, ``first + 1``,
    ... of ``seed``) with the human at seat ``human`` and ``agent_specs`` (one per other seat,
    in seat order; names of the game's agents registry or ``package.module:Class``), keeping a
    running score; ``rules`` default to the game's. Returns the exit status (0)."""
    from agents import agents_of, make_agent  # imported when played: the rest needs no agents
    from agents.tournament import derive_seed, hooks_of
    hooks = hooks_of(game)  # mediatore-bench's episodes (dealer, packs): --deal K is K there
    definition = get(game)
    text, reader = definition.display, reader_of(definition, style)
    rules = definition.make_rules() if rules is None else rules
    n, unit = definition.players, definition.unit
    term = term or Terminal()
    specs = list(agent_specs)
    seat_specs = [None if s == human else specs.pop(0) for s in range(n)]
    known = agents_of(definition)
    agents = [None if spec is None else make_agent(spec, known) for spec in seat_specs]
    check_seats(agents, definition.new_game(rules))  # a class of another game: before a word
    wanted = any(a is not None and wants_observation(a) for a in agents)
    observation = definition.observation if wanted else None
    names = seat_names(["human" if sp is None else sp for sp in seat_specs], human)
    totals = [0] * n
    term.say(f"{definition.title} · rules: {text.rules_line(rules)} · seed {seed}"
             + (f" · {unit}s {first}-{first + count - 1}" if count > 1 else f" · {unit} {first}"),
             "Playing order: " + " -> ".join(names) + "   (? for help)")
    played = 0
    try:
        for k in range(count):
            index = first + k
            title = f"{unit.capitalize()} {k + 1} of {count}" if count > 1 else unit.capitalize()
            played_game = play_game(
                definition.new_game(rules, hooks.dealer(index, n)), human, agents, names, term,
                text, reader, style, title, partial(hooks.pack, seed, index),
                [derive_seed(seed, index, s) for s in range(n)], auto, observation)
            totals = [t + o for t, o in zip(totals, played_game.outcome)]
            played += 1
            term.say("", f"== {title}: the result ".ljust(78, "="),
                     *text.end_lines(played_game, names, style))
            path = record_path(save, index, count > 1)
            if path is not None:
                save_record(played_game.record(
                    agents=[sp or "human" for sp in seat_specs], human_seat=human, seed=seed,
                    **{f"{unit}_index": index}, program="mediatore-play"), path)
                term.say(f"record saved to {path}", f"replay it with: mediatore-replay {path}")
            if count > 1:
                running_score(term, unit, played, names, totals, last=k + 1 == count)
    except Quit:
        term.say(stopped(unit, played, names, totals))
        return 0
    if count > 1:
        term.say("Final score: " + score_line(names, totals))
    return 0


# -- the command line -----------------------------------------------------------------------------

def build_parser(game: str = "mediatore") -> argparse.ArgumentParser:
    """The parser of ``--game game``: its seats, its rules options and its word for an
    episode (:func:`main` reads ``--game`` first)."""
    definition = get(game)
    seats = definition.players
    p = ArgumentParser(
        prog="mediatore-play",
        description="Play a game of the family at the terminal: you hold one seat, agents the "
                    f"others. An episode of {game} is a {definition.unit}. The options shown "
                    f"are those of --game {game}: --game NAME --help shows another game's.",
        epilog="Answer each question with a number from the list or the move in words "
               "(solo, pass, D3, 3 of coins, SA volo, claim, accept); when discarding in "
               "Mediatore or club, all four cards in one answer (C4 C5 B4 B5 or 1 4 6 9). "
               "? for help, "
               "t for the table, q to quit.")
    p.add_argument("--game", default="mediatore", choices=list(GAMES),
                   help="the game (default mediatore): " + ", ".join(
                       f"{d.name} ({d.title})" for d in GAMES.values()))
    p.add_argument("--agents", nargs="+", default=["greedy"], metavar="AGENT",
                   help=("one agent for the other seat" if seats == 2 else
                         f"one agent for all the other {seats - 1} seats, or one per other seat "
                         "(in seat order)")
                        + "; names of the game's agents (greedy, random, pimc; options after a "
                          "colon, as pimc:NAME=VALUE) or package.module:Class (default: greedy)")
    p.add_argument("--seat", type=int, default=0, choices=range(seats),
                   help=f"your seat, 0-{seats - 1} (default 0)")
    add_rules_options(p, game)
    p.add_argument("--seed", type=non_negative_int,
                   help="seed of the cards, 0 or more (default: a random one, printed)")
    unit = definition.unit
    p.add_argument("--deal", type=non_negative_int, default=0, metavar="K",
                   help=f"play {unit} K of the seed first: the same cards as episode K of "
                        "mediatore-bench --seed S (default 0)")
    if f"--{unit}" not in p._option_string_actions:  # club's --session; not --game
        p.add_argument(f"--{unit}", dest="deal", type=non_negative_int, metavar="K",
                       help=f"the same as --deal, in {game}'s word")
    p.add_argument("--deals", type=positive_int, default=1,
                   help=f"number of {unit}s, with a running score (default 1)")
    p.add_argument("--cards", default="english", choices=STYLES,
                   help="how cards are named: english (ace of swords), italian (Asso di Spade), "
                        "french (A♠) or short (SA)")
    p.add_argument("--save", metavar="PATH", type=output_file,
                   help="save each finished episode's game record here "
                   "(with several: PATH-<episode>.json)")
    p.add_argument("--ask-forced", dest="auto", action="store_false",
                   help="ask even when only one move is legal (default: play it and say so)")
    return p


@command("mediatore-play")  # Ctrl-C, at a prompt too: one line and status 130
def main(argv=None, ask: Callable[[str], str] | None = None, out: TextIO | None = None) -> int:
    game = game_of(argv)
    parser = build_parser(game)
    words = {f"--{d.unit}": f"--{d.unit} is {d.name}'s word for --deal" for d in GAMES.values()
             if f"--{d.unit}" not in parser._option_string_actions}
    args = parse_for_game(parser, argv, game, {**words, **rules_options_elsewhere(game)})
    definition = get(args.game)
    try:
        rules = rules_of(args)
        others = definition.players - 1
        if len(args.agents) not in (1, others):
            raise ValueError(f"--agents takes one agent (for all {others} other seats) or "
                             f"{others}, got {len(args.agents)}")
        specs = args.agents * others if len(args.agents) == 1 else args.agents
        from agents import agents_of
        check_agents(specs, agents_of(definition))  # a bad name fails here, with the known ones
    except ValueError as e:
        parser.error(str(e))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    term = Terminal(ask or _echoing_input, out)
    try:
        return play_session(args.game, specs, args.seat, rules, seed, args.deal, args.deals,
                            args.cards, args.save, term, args.auto)
    except NotThisGame as e:  # an agent class of another game, refused before any play
        parser.error(str(e))
    except OSError as e:
        term.say(f"mediatore-play: error: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
