"""Club Mediatore at the command line: ``--game club`` of ``mediatore-bench`` and
``mediatore-play``, and the session records that ``mediatore-replay`` recognises by their
format. The Mediatore tools hand over to this module and nothing else changes in them.

    mediatore-bench --game club --agents greedy random greedy random --deals 500 --seed 1
    mediatore-bench --game club --agents greedy random random random --ante 3 --session-deals 5
    mediatore-bench --game club --agents greedy random greedy random --deals 2000 --ray
    mediatore-bench --game club --agents greedy random greedy random --save-records recs \\
        --record-deals 0,2
    mediatore-play --game club --agents greedy --seat 1 --seed 7 --save session.json
    mediatore-replay session.json --seat 1

``--deals`` counts sessions here (docs/rules.md 10.3: an episode of club Mediatore is a
session: until a pot is won, at most 20 deals, or ``--session-deals`` deals), and
``--record-deals`` chooses sessions: each is saved in its 4 rotations, as
``sessionNNNNN_rotR.json``. ``--jobs``, ``--ray [ADDRESS]`` and ``--record-deals`` are
Mediatore's options (:mod:`.checks`), with the same results whatever the workers. Bad arguments
get one line on stderr and exit status 2, as in every tool.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Callable, Sequence, TextIO

from ..club.game import Session
from ..club.moves import DISCARD, PLAY, parse_move
from ..club.records import make_record, result_of, save_record
from ..club.rules import ClubRules
from ..club.display import deal_line, move_words, session_lines, table_text
from ..mediatore.display import STYLES, YOU
from ..core.cards import parse_card
from ..runinfo import ProgressBar, print_results
from .checks import (ArgumentParser, add_worker_options, check_agents, deals_to_record,
                     non_negative_int, output_dir, output_file, positive_int)

__all__ = ["game_argv", "bench_main", "play_main"]


def game_argv(argv: Sequence[str]) -> list[str] | None:
    """``argv`` without its ``--game club`` (or ``--game=club``) if it asks for club Mediatore,
    else None: how the Mediatore tools know to hand over."""
    argv = list(argv)
    for i, arg in enumerate(argv):
        if arg == "--game=club":
            return argv[:i] + argv[i + 1:]
        if arg == "--game" and i + 1 < len(argv) and argv[i + 1] == "club":
            return argv[:i] + argv[i + 2:]
    return None


def _rules(args) -> ClubRules:
    return ClubRules(ante=args.ante, deals=args.session_deals)


def _common(p: ArgumentParser) -> None:
    p.add_argument("--ante", type=positive_int, default=5,
                   help="chips each player puts into an empty pot (default 5)")
    p.add_argument("--session-deals", type=positive_int, metavar="K",
                   help="sessions of exactly K deals (default: until a pot is won, at most 20)")


# -- mediatore-bench --game club -------------------------------------------------------------------

def build_bench_parser() -> ArgumentParser:
    from agents.club import CLUB_AGENTS
    p = ArgumentParser(
        prog="mediatore-bench --game club",
        description="Duplicate tournament of club Mediatore agents: every session is played in "
                    "the 4 rotations of the lineup over the same packs. Prints chips per session "
                    "with 95% confidence intervals over sessions.",
        epilog=f"Agents: {', '.join(CLUB_AGENTS)}, with options after a colon "
               "(greedy:margin=0.1), or your own as package.module:Class.")
    p.add_argument("--agents", nargs=4, metavar="AGENT", required=True,
                   help="the lineup: four agents, seats 0-3 of the first rotation")
    p.add_argument("--deals", type=positive_int, default=1000, metavar="N",
                   help="number of sessions (default 1000)")
    p.add_argument("--seed", type=non_negative_int, default=0, help="seed of the packs (default 0)")
    add_worker_options(p, "sessions")
    _common(p)
    p.add_argument("--json", metavar="PATH", type=output_file, help="save the results as JSON")
    p.add_argument("--save-records", metavar="DIR", type=output_dir,
                   help="save the session records of --record-deals (each in its 4 rotations) here")
    p.add_argument("--record-deals", metavar="LIST",
                   help="sessions to record with --save-records, e.g. 0,2 or 0-9 (default 0)")
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", action="store_true", default=None, help="show a progress bar")
    bar.add_argument("--quiet", "-q", action="store_false", dest="progress", help="no progress bar")
    return p


def bench_main(argv: Sequence[str]) -> int:
    from agents.club import CLUB_AGENTS  # the agents, only when a club tool runs
    from agents.club.tournament import run_club_tournament
    parser = build_bench_parser()
    args = parser.parse_args(list(argv))
    try:
        check_agents(args.agents, CLUB_AGENTS)
        record_sessions = deals_to_record(args.save_records, args.record_deals, args.deals,
                                          "session", "sessions")
        show = sys.stderr.isatty() if args.progress is None else args.progress
        bar = ProgressBar(args.deals) if show else None
        try:
            result = run_club_tournament(args.agents, sessions=args.deals, seed=args.seed,
                                         rules=_rules(args), jobs=args.jobs, ray=args.ray,
                                         record_sessions=record_sessions, progress=bar)
        finally:
            if bar:
                bar.close()
    except (ValueError, ImportError) as e:  # ImportError: --ray without the ray extra
        parser.error(str(e))
    try:
        print_results(result, args.json)
        if args.save_records:
            out = Path(args.save_records)
            out.mkdir(parents=True, exist_ok=True)
            for rec in result.records:
                save_record(rec, out / f"session{rec['meta']['session_index']:05d}_rot"
                                       f"{rec['meta']['rotation']}.json")
            print(f"{len(result.records)} session records saved in {out}/")
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


# -- mediatore-play --game club --------------------------------------------------------------------

def build_play_parser() -> ArgumentParser:
    from agents.club import CLUB_AGENTS
    p = ArgumentParser(
        prog="mediatore-play --game club",
        description="Play a session of club Mediatore at the terminal: you hold one seat, three "
                    "agents the others.",
        epilog="Answer with a number from the list or the move in words: accept, pass, alone, "
               "D3 (call it, discard it or play it, by the phase), call D3; q quits.")
    p.add_argument("--agents", nargs="+", default=["greedy"], metavar="AGENT",
                   help=f"one agent for the three other seats, or three ({', '.join(CLUB_AGENTS)}"
                        ", or package.module:Class; default greedy)")
    p.add_argument("--seat", type=int, default=0, choices=range(4), help="your seat, 0-3 (default 0)")
    p.add_argument("--seed", type=non_negative_int,
                   help="seed of the packs (default: a random one, printed); session K of "
                        "mediatore-bench --game club --seed S with --session K")
    p.add_argument("--session", type=non_negative_int, default=0, metavar="K",
                   help="play session K of the seed (default 0)")
    _common(p)
    p.add_argument("--cards", default="english", choices=STYLES, help="how cards are named")
    p.add_argument("--save", metavar="PATH", type=output_file, help="save the session record here")
    return p


class _Quit(Exception):
    pass


def read_answer(text: str, legal: Sequence[int], phase: int) -> int:
    """A move of ``legal`` from an answer: its number in the list, its text (``accept``,
    ``call D3``), or a card alone (the phase's verb). Raises ``ValueError`` saying what is
    valid, or :class:`_Quit` for ``q``."""
    text = text.strip()
    if text.lower() in ("q", "quit", "exit"):
        raise _Quit
    if text.isdigit():
        k = int(text)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        raise ValueError(f"no move number {k}: choose 1-{len(legal)}")
    try:
        move = parse_move(text)
    except ValueError:
        try:
            parse_card(text)
        except ValueError:
            raise ValueError(f"not a move: {text!r}; answer a number 1-{len(legal)}, a move "
                             "(accept, pass, alone, call D3) or a card (D3)") from None
        verb = "discard" if phase == DISCARD else "play" if phase == PLAY else "call"
        move = parse_move(f"{verb} {text}")
    if move not in legal:
        raise ValueError(f"{move_words(move)!r} is not legal now; choose 1-{len(legal)}")
    return move


def play_main(argv: Sequence[str], ask: Callable[[str], str] | None = None,
              out: TextIO | None = None) -> int:
    from agents.club import CLUB_AGENTS, make_club_agent
    from agents.club.tournament import session_packs
    from agents.tournament import derive_seed
    parser = build_play_parser()
    args = parser.parse_args(list(argv))
    try:
        if len(args.agents) not in (1, 3):
            raise ValueError(f"--agents takes one agent (for all three seats) or three, "
                             f"got {len(args.agents)}")
        specs = args.agents * 3 if len(args.agents) == 1 else args.agents
        check_agents(specs, CLUB_AGENTS)
    except ValueError as e:
        parser.error(str(e))
    out = out if out is not None else sys.stdout
    ask = ask or input
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)

    def say(*lines):
        for line in lines:
            print(line, file=out)
        out.flush()

    rules = _rules(args)
    others = iter(specs)
    players = [None if s == args.seat else make_club_agent(next(others)) for s in range(4)]
    names = [YOU if p is None else f"{p.name}({s})" for s, p in enumerate(players)]
    session = Session(rules, args.session % 4, session_packs(seed, args.session, rules.max_deals))
    say(f"club Mediatore · seed {seed} · session {args.session} · you are seat {args.seat}")
    for s, player in enumerate(players):  # seeded as the same session of mediatore-bench
        if player is not None:
            player.reset(derive_seed(seed, args.session, s))
    encode = None
    if any(p is not None and p.wants_observation for p in players):
        from ..club.observation import observation as encode
    seen = 0
    try:
        while not session.is_over:
            seat = session.to_move
            view = session.view(seat)
            if players[seat] is None:
                legal = view.legal_moves()
                say("", table_text(view, names, args.cards, f"deal {session.deal_number}"),
                    *(f"  {k:>2}. {move_words(m, args.cards)}" for k, m in enumerate(legal, 1)))
                while True:
                    try:
                        move = read_answer(ask(f"Your move [1-{len(legal)}, q quit]: "), legal,
                                           view.phase)
                        break
                    except ValueError as e:
                        say(f"  {e}")
            else:
                player = players[seat]
                move = player.act(encode(view) if player.wants_observation else None, view)
                # The discards are face down: the others see that a card went, not which.
                say(f"{names[seat]}: " + ("discards a card" if view.phase == DISCARD
                                          else move_words(move, args.cards)))
            session.apply(move)
            if len(session.results) > seen:
                seen = len(session.results)
                deal = session.results[-1]
                say("-- " + deal_line(seen, deal.dealer, result_of(deal), names))
    except (_Quit, EOFError, KeyboardInterrupt):
        say("", "Quit.")
        return 0
    record = make_record(session, agents=[None if p is None else n for p, n in zip(players, names)],
                         human_seat=args.seat, seed=seed, session_index=args.session)
    say("", "== the session ".ljust(78, "="), *session_lines(record, names))
    if args.save:
        save_record(record, args.save)
        say(f"session record saved to {args.save}")
    return 0
