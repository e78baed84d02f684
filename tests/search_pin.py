"""The moves of every search agent in its reproducible mode (``time_limit=None``, the default
since issue 38; the specs still say it, as the pin's names were written with it), played now,
to hold against what they played when tests/data/search_pin.json was written: the search
loops may be rebuilt, the agents' choices may not change (tests/test_search_pin.py).

    python3 tests/search_pin.py            # rewrite tests/data/search_pin.json

Written from commit b31a858, before Mediatore's PIMC, its call and exchange searches and the
Tressette and club searches were put on one loop and one budget (agents/search.py). Rewrite it
only for a change meant to change the agents' play, and say so in the commit.

Mediatore: deals played by four copies of each agent, one dealt as the tournament deals it
and one whose auction is forced to Chiamo (so that the call and the exchange are searched),
under three presets; and a short tournament's table. Tressette (every form, Low Hand too) and
club Mediatore: the first hand (deal) with PIMC at every seat, few worlds, so that both the
solver and the rollouts are used.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

PIN = Path(__file__).resolve().parent / "data" / "search_pin.json"
SEED = 35

#: Mediatore's search agents in their reproducible mode, and the presets each is pinned under.
MEDIATORE = {
    "pimc:time_limit=None": ("standard", "low", "open_monte"),
    "pimc-infer:time_limit=None": ("standard", "declarer_leads"),
    "pimc:calling=search,exchange=search,time_limit=None": ("standard", "call_three"),
}
#: The other games' PIMC, few worlds: (game, rules switches).
OTHERS = (("tressette", {}), ("tressette", {"low": True}), ("tressette3", {}),
          ("tressette3", {"low": True}), ("tressette2", {}), ("tressette2", {"low": True}),
          ("club", {"deals": 1}))
OTHER_AGENT = "pimc:time_limit=None,max_worlds=6"


def mediatore_deal(spec: str, preset: str, index: int) -> list[str]:
    """The moves, as text, of deal ``index`` of the pin's seed under ``preset``, four copies
    of ``spec`` at the table; index 1 has its auction forced to Chiamo for the seat after the
    dealer."""
    from agents import make_agent
    from agents.base import play
    from agents.mediatore.tournament import HOOKS
    from agents.tournament import derive_seed
    from mediatore_env import Deal
    from mediatore_env.mediatore.tables import forced_deal
    from mediatore_env.mediatore.moves import move_text
    from mediatore_env.mediatore.rules import CHIAMO, PRESETS

    rules, pack, dealer = PRESETS[preset], HOOKS.pack(SEED, index, 0), HOOKS.dealer(index, 4)
    deal = (forced_deal(rules, pack, dealer, (dealer + 1) % 4, CHIAMO) if index == 1
            else Deal(rules, dealer, pack))
    play(deal, [make_agent(spec) for _ in range(4)],
         seeds=[derive_seed(SEED, index, s) for s in range(4)])
    return [move_text(m) for _, m in deal.history]


def first_hand(game: str, switches: dict) -> list[str]:
    """The moves, as text, of the first hand (deal) of episode 0 of the pin's seed, PIMC at
    every seat."""
    from agents import make_agent
    from agents.registry import agents_of
    from agents.tournament import derive_seed, hooks_of
    from mediatore_env.registry import get

    definition = get(game)
    engine = definition.new_game(definition.make_rules(**switches))
    engine.deal(hooks_of(game).pack(SEED, 0, 0))
    agents = [make_agent(OTHER_AGENT, agents_of(game)) for _ in range(definition.players)]
    for seat, agent in enumerate(agents):
        agent.reset(derive_seed(SEED, 0, seat))
    moves = []
    while not engine.is_over and not engine.needs_pack and not getattr(engine, "results", ()):
        view = engine.view(engine.to_move)
        move = agents[engine.to_move].act(None, view)
        moves.append(definition.moves.text(move))
        engine.apply(move)
    return moves


def tournament_table() -> dict:
    """A short Mediatore tournament of the two PIMC agents and greedy: its JSON, less the
    time and the workers."""
    from agents.tournament import run_tournament
    result = run_tournament(["pimc:time_limit=None", "pimc-infer:time_limit=None", "greedy",
                             "greedy"], deals=2, seed=SEED)
    table = result.to_dict()
    for key in ("seconds", "jobs", "executor"):
        table.pop(key)
    return table


def cases() -> list[tuple[str, object]]:
    """(name, how to play it) of every pinned case."""
    out = [(f"mediatore {spec} {preset} {index}",
            lambda s=spec, p=preset, i=index: mediatore_deal(s, p, i))
           for spec, presets in MEDIATORE.items() for preset in presets for index in (0, 1)]
    out += [(f"{game} {json.dumps(switches)}", lambda g=game, w=switches: first_hand(g, w))
            for game, switches in OTHERS]
    out.append(("mediatore tournament", tournament_table))
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(PIN.parent.parent))  # the toy game's folder
    pins = {}
    for name, run in cases():
        pins[name] = run()
        print(name, len(pins[name]), flush=True)
    PIN.write_text(json.dumps(pins, indent=0) + "\n")
