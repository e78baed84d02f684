"""``mediatore-play``: play Mediatore at the terminal, one human seat against three agents.

    mediatore-play                                   # you at seat 0 against three greedy agents
    mediatore-play --agents greedy random greedy --seat 2 --seed 7
    mediatore-play --preset low --rule signals=off --deals 5 --save game.json
    mediatore-play --cards italian                   # Asso di Spade instead of ace of swords
    mediatore-play --game club --seat 1              # a session of club Mediatore, the pot game

At each decision you see your seat's view of the table -- your hand by suit, the auction, the
contract and the called card, what you saw of the monte, the tricks played, the trick on the
table, the points -- and the numbered list of your legal moves. Answer with a number from the
list or with the move in words: ``solo`` / ``bid solo``, ``pass``, ``D3`` / ``3D`` /
``3 of coins`` / ``call D3``, ``SA volo`` / ``play ace of swords, volo``; in the discard phase
all four cards in one answer (``D4 D5 C4 C5`` or ``1 4 6 9``): nothing is discarded until all
four are named, so a slip cannot throw away a card the renumbered list put under a number.
``?`` shows help, ``t`` the table again, ``q`` quits (so does Ctrl-D). Bad input gets an explanation and the same question again.

The screen is built from the human's :class:`~mediatore_env.mediatore.view.SeatView` only, so it cannot
show what the seat may not know; the full record, every hand included, is shown at the end.

With ``--game tressette``, ``tressette3`` or ``tressette2`` it plays the Tressette games
instead, games to 31 (:mod:`.tressette`; ``--deals`` counts games, ``--rule low=true`` sets
the switches).

Deal ``k`` of seed ``S`` has the same cards and dealer as deal ``k`` of
``mediatore-bench --seed S`` (:func:`agents.tournament.deal_pack`), so a deal seen in a
tournament can be played by hand with ``--seed S --deal k``. Each finished deal can be saved
as a game record (:mod:`mediatore_env.mediatore.records`) for ``mediatore-replay``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import textwrap
from typing import Callable, Sequence, TextIO

from ..mediatore.display import (STYLES, YOU, card_text, changes, hand_lines, move_words,
                                 moves_lines, result_lines, rules_text, snapshot, view_text)
from ..core.cards import CARD_NAMES, SUIT_MASKS, SUIT_NAMES_EN, cards_of, suit_of
from ..core.tricks import follow_suit
from ..mediatore.game import Deal
from ..mediatore.moves import (AUCTION, CALL, DISCARD, GIVE, PASS, PLAY, call_move, card_of_move,
                               discard_move, give_move, parse_move, phase_of_move, play_move,
                               signal_of_move)
from ..mediatore.records import make_record, save_record
from ..mediatore.rules import (BUSSO, BUSSO_MEGLIO, CHIAMO, CONTRACT_NAMES, NO_SIGNAL, PRESETS,
                               SIGNAL_NAMES, STRISCIO, SWITCHES, TUTTO_FUORI, VOLO, Rules)
from .checks import (GAMES, ArgumentParser, check_agents, non_negative_int, output_file,
                     parse_rules, parse_tressette_rules, positive_int)
from .terminal import (_COMMANDS, HELP, QUIT, TABLE, BadInput, Quit, Terminal, _echoing_input,
                       parse_cards_words, record_path, running_score, score_line, seat_names,
                       stopped)
from .club import game_argv
from .club import play_main as club_play_main

# -- reading what a person types ----------------------------------------------------------------

_FILLER = {"of", "di", "the", "a", "with", "and", "e", "cerco", "la", "card", "to"}
_VERBS = {"pass": AUCTION, "bid": AUCTION, "call": CALL, "discard": DISCARD, "give": GIVE,
          "play": PLAY, "lead": PLAY}
_PHASE_WORDS = {AUCTION: "the auction", CALL: "the call", DISCARD: "the discard",
                GIVE: "the card passed back", PLAY: "the play"}


def _signal_of(words: Sequence[str], allowed: Sequence[int]) -> int:
    """The signal named by ``words`` (``volo``, ``v``, ``busso e cerco la meglio``)."""
    text = "+".join(w for w in words if w not in _FILLER).replace("++", "+")
    if not text:
        return NO_SIGNAL
    names = {SIGNAL_NAMES[s]: s for s in range(1, len(SIGNAL_NAMES))}
    names.update({"tutto+fuori": TUTTO_FUORI, "tuttofuori": TUTTO_FUORI, "knock": BUSSO,
                  "fly": VOLO, "piombo": VOLO, "stroke": STRISCIO, "liscio": STRISCIO,
                  "busso+la+meglio": BUSSO_MEGLIO, "meglio+busso": BUSSO_MEGLIO})
    if text in names:
        return names[text]
    matches = {s for name, s in names.items() if name.startswith(text) and s in allowed}
    if len(matches) == 1:
        return matches.pop()
    raise BadInput(f"not a signal: {' '.join(words)!r}; signals: "
                   + ", ".join(SIGNAL_NAMES[s] for s in range(1, len(SIGNAL_NAMES))))


def _contract_of(word: str) -> int:
    for contract, name in CONTRACT_NAMES.items():
        if word == name:
            return contract
    matches = [c for c, name in CONTRACT_NAMES.items() if len(word) >= 2 and name.startswith(word)]
    if len(matches) == 1:
        return matches[0]
    raise BadInput(f"not a bid: {word!r}; bids are pass, " + ", ".join(CONTRACT_NAMES.values()))


def read_answer(text: str, view, listed: Sequence[int]) -> list[int] | str:
    """What a person typed at a decision of ``view``'s seat: a list of move ids (several only
    for discards), or a command (:data:`QUIT`, :data:`HELP`, :data:`TABLE`). ``listed`` are the
    legal moves in the order shown, numbered from 1. Raises :class:`BadInput` with an
    explanation when the text names no legal move."""
    raw = text.strip().lower()
    if raw in _COMMANDS:
        return _COMMANDS[raw]
    if not raw:
        raise BadInput("Type the number of a move from the list, or the move in words.")
    tokens = raw.replace(",", " ").replace("+", " + ").split()
    tokens = [t for t in tokens if t != "+"]
    legal = set(listed)
    phase = view.phase
    if all(t.isdigit() for t in tokens):
        numbers = [int(t) for t in tokens]
        bad = [n for n in numbers if not 1 <= n <= len(listed)]
        if bad:
            raise BadInput(f"There is no move {bad[0]}: choose a number from 1 to {len(listed)}.")
        if len(numbers) > 1 and phase != DISCARD:
            raise BadInput("One move at a time, please (several numbers only when discarding).")
        return _check_discards([listed[n - 1] for n in numbers], view) if phase == DISCARD \
            else [listed[numbers[0] - 1]]
    try:  # the engine's own text: "play D3 busso", "bid solo"
        move = parse_move(raw)
    except ValueError:
        move = None
    if move in legal:
        return _check_discards([move], view) if phase == DISCARD else [move]
    if tokens[0] in _VERBS:
        if _VERBS[tokens[0]] != phase:
            raise BadInput(f"Now it is {_PHASE_WORDS[phase]}, not {_PHASE_WORDS[_VERBS[tokens[0]]]}. "
                           + _what_to_type(view))
        if tokens[0] != "pass":
            tokens = tokens[1:]
    tokens = [t for t in tokens if t not in ("of", "di", "the")]
    if not tokens:
        raise BadInput(_what_to_type(view))
    if phase == AUCTION:
        if tokens in (["pass"], ["p"], ["no"]):
            return [PASS]
        if len(tokens) != 1:
            raise BadInput("Bid one contract or pass: " + _what_to_type(view))
        move = _contract_of(tokens[0])
        if move not in legal:
            raise BadInput(explain_illegal(move, view))
        return [move]
    cards, rest = parse_cards_words(tokens)
    if not cards:
        raise BadInput(f"Not a card or a move: {text.strip()!r}. " + _what_to_type(view))
    if phase == PLAY:
        if len(cards) > 1:
            raise BadInput("Play one card at a time.")
        card = cards[0]
        allowed = [signal_of_move(m) for m in listed if card_of_move(m) == card]
        signal = _signal_of(rest, allowed or range(len(SIGNAL_NAMES)))
        move = play_move(card, signal)
    elif rest:
        raise BadInput(f"I do not understand {' '.join(rest)!r} after the card. " + _what_to_type(view))
    elif phase == DISCARD:
        return _check_discards([discard_move(c) for c in cards], view)
    elif len(cards) > 1:
        raise BadInput("One card, please.")
    else:
        move = {CALL: call_move, GIVE: give_move}[phase](cards[0])
    if move not in legal:
        raise BadInput(explain_illegal(move, view))
    return [move]


def _check_discards(moves: list[int], view) -> list[int]:
    left = 4 - view.discards.bit_count()
    for m in moves:
        if not view.hand >> card_of_move(m) & 1:
            raise BadInput(explain_illegal(m, view))
    if len(set(moves)) != len(moves):
        raise BadInput("The same card twice: name each card to discard once.")
    if len(moves) != left:
        # All at once: an answer applied piecemeal would renumber the list under the player.
        raise BadInput(f"Name all {left} cards to discard in one answer, not {len(moves)} "
                       f"(numbers like '1 4 6 9' or cards like 'C4 C5 B4 B5'); "
                       "nothing is discarded until all are named.")
    return moves


def _what_to_type(view) -> str:
    return {
        AUCTION: "Type pass or a bid (e.g. 'solo'), or a number from the list.",
        CALL: "Name the card to call (e.g. 'D3' or '3 of coins'), or a number from the list.",
        DISCARD: "Name the cards to discard, all in one answer (e.g. 'C4 C5 B4 B5' or '1 4 6 9').",
        GIVE: "Name the card of your hand to pass back (e.g. 'B4'), or a number from the list.",
        PLAY: "Name a card of your hand (e.g. 'SA', or 'SA volo' when leading), or a number.",
    }.get(view.phase, "")


def explain_illegal(move: int, view) -> str:
    """Why ``move`` is not legal for ``view``'s seat now, in a sentence a player understands."""
    phase, hand = view.phase, view.hand
    if phase == AUCTION:
        if view.auction and max(b for _, b in view.auction) >= view.rules.top_contract:
            return (f"{CONTRACT_NAMES[view.rules.top_contract]} is the top bid: "
                    "everyone else can only pass.")
        high = max((b for _, b in view.auction), default=PASS)
        if move <= high:
            return (f"A bid must be higher than {CONTRACT_NAMES[high]}: pass, or bid one of "
                    + ", ".join(CONTRACT_NAMES[b] for b in range(high + 1, view.rules.top_contract + 1))
                    + ".")
        return f"{CONTRACT_NAMES[move]} is not a contract at this table (no arcisolissimo)."
    if phase == CALL:
        only = {"three": "a 3", "three_or_two": "a 3 or a 2", "no_ace": "any card but an ace"}
        return (f"At this table you may call only {only.get(view.rules.call_restriction, 'any card')}; "
                f"{card_text(card_of_move(move))} is not allowed.")
    card = card_of_move(move)
    if phase in (DISCARD, GIVE):
        return f"You do not hold the {card_text(card)} ({CARD_NAMES[card]})."
    signal = signal_of_move(move)
    if not hand >> card & 1:
        return f"You do not hold the {card_text(card)} ({CARD_NAMES[card]})."
    if view.trick:
        if not follow_suit(hand, view.trick[0]) >> card & 1:
            suit = suit_of(view.trick[0])
            held = " ".join(CARD_NAMES[c] for c in cards_of(hand & SUIT_MASKS[suit]))
            return f"You must follow suit: {SUIT_NAMES_EN[suit]} were led and you hold {held}."
        if signal:
            return "Only the player who leads a trick may signal."
    name = SIGNAL_NAMES[signal]
    if view.rules.signals == "off":
        return "Signals are off at this table: play the card without one."
    if signal not in view.rules.signal_ids:
        return f"{name} is not a signal of this table's code ({view.rules.signals})."
    # A signal of the code refused with a card it may go with is a statement that is false
    # here (docs/rules.md 6 and 8.7: requests are always allowed); say what it states.
    why = {
        "volo": "it says this is your last card of the suit, and you hold more",
        "striscio": "it says you hold another low card (king or lower) of the suit",
        "busso": "busso here says you hold the highest card of the suit still out",
        "ribusso": "ribusso says you hold the second highest card of the suit still out",
        "busso+meglio": "busso says you hold the highest card of the suit still out",
        "ribusso+meglio": "ribusso says you hold the second highest card of the suit still out",
    }.get(name, "that signal is not allowed with this card")
    return f"You cannot lead {CARD_NAMES[card]} with {name}: {why}."


HELP_TEXT = """\
How to answer
  a number from the list          3        (in the discard phase all four at once: 1 4 6 9)
  the move in words               pass, solo, bid solo, call 3 of coins, SA, play SA volo
  a card in two characters        D3 or 3D, SA or AS (suit D C S B = coins cups swords batons;
                                  rank 4 5 6 7 F C R A 2 3 = ... jack horse king ace 2 3;
                                  J Q K also mean jack, horse, king), or A♠, or ace of swords
  a signal after a lead           SA busso, SA volo, SA striscio (b, v, s are enough)
  t   show the whole table again     ?   this help     q (or Ctrl-D)   quit
The order of play is anticlockwise: the seat after seat n is seat n+1 (mod 4).
Cards, strongest first in each suit: 3 2 A K(re) C(cavallo) J(fante) 7 6 5 4.
Points: ace 1, 3 2 K C J 1/3 each, the last trick 1 more; the declarer's side needs 6 of 11."""


# -- one game at the terminal -------------------------------------------------------------------

def _orderly(moves: list[int]) -> list[int]:
    """Legal moves in the order shown: calls by suit, strongest card first; others as given."""
    if moves and phase_of_move(moves[0]) == CALL:
        return sorted(moves, key=lambda m: (suit_of(card_of_move(m)), -card_of_move(m)))
    return list(moves)


def choose_move(view, names: Sequence[str], style: str, term: Terminal, title: str) -> list[int]:
    """Show the human's view and legal moves, and ask until the answer names legal moves."""
    listed = _orderly(view.legal_moves())
    if view.phase == PLAY:
        title += f" · trick {len(view.tricks) + 1} of 9"
    term.say("", view_text(view, names, style, title))
    while True:
        term.say(_heading(view), *("  " + line for line in moves_lines(listed, style)))
        while True:
            try:
                answer = read_answer(term.ask(f"Your move [1-{len(listed)}, ? help, q quit]: "),
                                     view, listed)
            except BadInput as e:
                term.say(textwrap.fill(str(e), 78, initial_indent="  ", subsequent_indent="  "))
                continue
            if answer == QUIT:
                raise Quit
            if answer == HELP:
                term.say(HELP_TEXT)
                break
            if answer == TABLE:
                term.say(view_text(view, names, style, title))
                break
            return answer


def _heading(view) -> str:
    phase = view.phase
    if phase == AUCTION:
        return "Your call in the auction:"
    if phase == CALL:
        if view.contract == CHIAMO:
            return "Call a card: its holder becomes your secret partner:"
        return "Call a card: its holder gives it to you:"
    if phase == DISCARD:
        left = 4 - view.discards.bit_count()
        return (f"Discard {left} card{'s' if left != 1 else ''} to form the new monte "
                "(name them all in one answer):")
    if phase == GIVE:
        return "Pass one card face down to the player who gave you the called card:"
    if view.trick:
        return "Play a card:"
    return "Lead a card (a signal may go with it):"


def play_deal_at_terminal(deal: Deal, human: int, agents: Sequence, names: Sequence[str],
                          term: Terminal, style: str = "english", title: str = "",
                          seeds: Sequence[int] | None = None, auto: bool = True) -> Deal:
    """Play ``deal`` to the end: the human at seat ``human`` through ``term``, the agents
    (``agents[s]``, None at the human's seat) at the others. The human's screen is built from
    ``deal.view(human)`` only. Raises :class:`Quit` if the human quits."""
    for s, agent in enumerate(agents):
        if s != human:
            agent.reset(None if seeds is None else seeds[s])
    view = deal.view(human)
    encode = None
    if any(a is not None and getattr(a, "wants_observation", True) for a in agents):
        from ..mediatore.observation import observation as encode
    term.say("", f"{title}: dealer {names[deal.dealer]}, il mano {names[deal.mano]} speaks first."
             f" {'You are' if names[human] == YOU else names[human] + ' is'} seat {human}.",
             "Your hand:" if names[human] == YOU else "Hand:",
             *("  " + line for line in hand_lines(view.hand, style)))
    before = snapshot(view)
    queue: list[int] = []
    while not deal.is_over:
        seat = deal.to_move
        if seat == human:
            legal = view.legal_moves()
            if queue and queue[0] in legal:
                move = queue.pop(0)
            elif auto and len(legal) == 1:
                move = legal[0]
                term.say(f"  (your only legal move: {move_words(move, style)})")
            else:
                queue = choose_move(view, names, style, term, title)
                move = queue.pop(0)
        else:
            agent = agents[seat]
            agent_view = deal.view(seat)
            obs = encode(agent_view) if getattr(agent, "wants_observation", True) else None
            move = agent.act(obs, agent_view)
            if not deal.is_legal(move):
                raise RuntimeError(f"agent {names[seat]} chose an illegal move {move!r}")
        deal.apply(move)
        after = snapshot(view)
        lines = changes(before, after, names, style)
        if lines:
            term.say(*lines)
        before = after
    term.say("", view_text(view, names, style, f"{title}: the end"))
    return deal


def play_session(agent_specs: Sequence[str], human: int = 0, rules: Rules | None = None,
                 seed: int = 0, first_deal: int = 0, deals: int = 1, style: str = "english",
                 save: str | None = None, term: Terminal | None = None, auto: bool = True) -> int:
    """Play ``deals`` deals (``first_deal``, ``first_deal + 1``, ... of ``seed``) with the human at
    seat ``human`` and ``agent_specs`` (3 specs of :func:`agents.make_agent`, for the other seats
    in seat order) keeping a running score. Returns the exit status (0)."""
    from agents import make_agent  # the agents layer comes after this one
    from agents.tournament import deal_dealer, deal_pack, derive_seed
    rules = Rules() if rules is None else rules
    term = term or Terminal()
    specs = list(agent_specs)
    seat_specs: list[str | None] = []
    for s in range(4):
        seat_specs.append(None if s == human else specs.pop(0))
    agents = [None if spec is None else make_agent(spec) for spec in seat_specs]
    names = seat_names(["human" if sp is None else sp for sp in seat_specs], human)
    totals = [0, 0, 0, 0]
    term.say(f"Mediatore · rules: {rules_text(rules)} · seed {seed}"
             + (f" · deals {first_deal}-{first_deal + deals - 1}" if deals > 1 else
                f" · deal {first_deal}"),
             "Playing order: " + " -> ".join(names) + "   (? for help)")
    played = 0
    try:
        for k in range(deals):
            index = first_deal + k
            deal = Deal(rules, deal_dealer(index), deal_pack(seed, index))
            seeds = [derive_seed(seed, index, s) for s in range(4)]
            title = f"Deal {k + 1} of {deals}" if deals > 1 else "Deal"
            play_deal_at_terminal(deal, human, agents, names, term, style, title, seeds, auto)
            record = make_record(deal, agents=[sp or "human" for sp in seat_specs], human_seat=human,
                                 seed=seed, deal_index=index, program="mediatore-play")
            totals = [t + p for t, p in zip(totals, deal.payoffs)]
            played += 1
            term.say("", f"== {title}: the result ".ljust(78, "="),
                     *result_lines(record, names, style))
            path = record_path(save, index, deals > 1)
            if path is not None:
                save_record(record, path)
                term.say(f"record saved to {path}", f"replay it with: mediatore-replay {path}")
            if deals > 1:
                running_score(term, "deal", played, names, totals, last=k + 1 == deals)
    except Quit:
        term.say(stopped("deal", played, names, totals))
        return 0
    if deals > 1:
        term.say("Final score: " + score_line(names, totals))
    return 0


# -- the command line -----------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(
        prog="mediatore-play",
        description="Play Mediatore at the terminal: you hold one seat, three agents the others "
                    "(with --game, a Tressette game: a game to 31, agents in the other seats; "
                    "--game club: a session of club Mediatore, see --game club --help).",
        epilog="Answer each question with a number from the list or the move in words "
               "(solo, pass, D3, 3 of coins, SA volo); when discarding, all four cards in one "
               "answer (C4 C5 B4 B5 or 1 4 6 9). ? for help, q to quit. Rules presets: "
               + ", ".join(PRESETS) + ".")
    p.add_argument("--game", default="mediatore", choices=GAMES,
                   help="the game (default mediatore): Tressette with four players in "
                        "partnerships, three-handed or two-handed, or club Mediatore")
    p.add_argument("--agents", nargs="+", default=["greedy"], metavar="AGENT",
                   help="one agent for all three other seats, or three (in seat order); names of "
                        "the agents registry (greedy, random, random:bid_rate=0.5) or "
                        "package.module:Class (default: greedy)")
    p.add_argument("--seat", type=int, default=0, choices=range(4),
                   help="your seat, 0-3 (default 0; three-handed 0-2, two-handed 0-1)")
    p.add_argument("--preset", default="standard", choices=list(PRESETS), help="rules preset")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help=f"a rules switch on top of the preset (switches: {', '.join(SWITCHES)})")
    p.add_argument("--seed", type=non_negative_int,
                   help="seed of the cards, 0 or more (default: a random one, printed)")
    p.add_argument("--deal", type=non_negative_int, default=0, metavar="K",
                   help="play deal K of the seed first: the same cards as deal K of "
                        "mediatore-bench --seed S (default 0)")
    p.add_argument("--deals", type=positive_int, default=1,
                   help="number of deals (in the Tressette games, of games to 31), with a "
                        "running score (default 1)")
    p.add_argument("--cards", default="english", choices=STYLES,
                   help="how cards are named: english (ace of swords), italian (Asso di Spade), "
                        "french (A♠) or short (SA)")
    p.add_argument("--save", metavar="PATH", type=output_file,
                   help="save each finished deal's game record here "
                   "(with several deals: PATH-<deal>.json)")
    p.add_argument("--ask-forced", dest="auto", action="store_false",
                   help="ask even when only one move is legal (default: play it and say so)")
    return p


def main(argv=None, ask: Callable[[str], str] | None = None, out: TextIO | None = None) -> int:
    club_argv = game_argv(sys.argv[1:] if argv is None else argv)
    if club_argv is not None:  # --game club: a session of club Mediatore (tools/club.py)
        return club_play_main(club_argv, ask, out)
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.game != "mediatore":
        return _play_tressette(parser, args, ask, out)
    try:
        rules = parse_rules(args.preset, args.rule)
        if len(args.agents) not in (1, 3):
            raise ValueError(f"--agents takes one agent (for all three seats) or three, "
                             f"got {len(args.agents)}")
        specs = args.agents * 3 if len(args.agents) == 1 else args.agents
        check_agents(specs)  # a bad name fails here, with the list of known agents
    except ValueError as e:
        parser.error(str(e))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    term = Terminal(ask or _echoing_input, out)
    return _session(play_session, term, specs, args.seat, rules, seed, args.deal, args.deals,
                    args.cards, args.save, term, args.auto)


def _play_tressette(parser, args, ask, out) -> int:
    """``--game tressette|tressette3|tressette2``: the arguments checked, then the session of
    :mod:`.tressette`."""
    from agents.tressette import AGENTS as TRESSETTE_AGENTS

    from .tressette import play_session as play_tressette
    try:
        if args.preset != "standard":
            raise ValueError(f"--preset names Mediatore rules; {args.game}'s switches are given "
                             f"with --rule, e.g. --rule low=true")
        rules = parse_tressette_rules(args.game, args.rule)
        others = rules.players - 1
        if args.seat >= rules.players:
            raise ValueError(f"--seat {args.seat}: {args.game} has seats 0-{others}")
        if len(args.agents) not in (1, others):
            raise ValueError(f"--agents takes one agent (for all {others} other seats) or "
                             f"{others}, got {len(args.agents)}")
        specs = args.agents * others if len(args.agents) == 1 else args.agents
        check_agents(specs, TRESSETTE_AGENTS)
    except ValueError as e:
        parser.error(str(e))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    term = Terminal(ask or _echoing_input, out)
    return _session(play_tressette, term, specs, args.seat, rules, seed, args.deal, args.deals,
                    args.cards, args.save, term, args.auto)


def _session(play, term: Terminal, *args) -> int:
    """Run ``play(*args)``; an interrupt or a cut pipe ends it quietly, a write error in one
    line."""
    try:
        return play(*args)
    except KeyboardInterrupt:
        term.say("", "Interrupted.")
        return 130
    except BrokenPipeError:  # the output was cut short (| head): not an error
        sys.stdout = open(os.devnull, "w")
        return 0
    except OSError as e:
        term.say(f"mediatore-play: error: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
