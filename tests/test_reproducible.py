"""Every search agent is reproducible by default (issue 38): its default budget is work
(worlds, cards rolled out, solver nodes), not time, so a short tournament of every search
agent of every game prints the same table in one process and in two (``jobs=2``, the
tournament's process pool). The agents get small budgets through their options, as a user
would; the point is that nothing read off a clock enters their choices."""

import importlib.util

import pytest

from agents.registry import agents_of, make_agent
from agents.search import WorldSearch
from agents.tournament import name_lineup, run
from mediatore_env import runinfo
from mediatore_env.analysis.solver import BACKEND
from mediatore_env.registry import get

ISMCTS = ("openspiel-ismcts:simulations=4" if importlib.util.find_spec("pyspiel")
          else "greedy")

#: Per game: a lineup seating every search agent of the game with a small budget, the
#: rules' switches and the episodes. Tressette's games go to 31 (several hands each), so
#: their PIMC rolls out one world a decision (a budget of one card, :data:`ONE_ROLLOUT`);
#: OpenSpiel's IS-MCTS (pure Python) sits at the club table, the shortest.
ONE_ROLLOUT = "max_worlds=3,rollout_cards=1"
TRESSETTE_SEARCH = [f"pimc:{ONE_ROLLOUT}", f"generic-pimc:{ONE_ROLLOUT}"]
TABLES = {
    "mediatore": (["pimc:worlds=3", "pimc-infer:worlds=3",
                   "pimc:worlds=3,calling=search,exchange=search",
                   "generic-pimc:max_worlds=3"], {}, 2),
    # and the network's rollouts: numpy on one thread in the workers, on the cores here
    "tressette": ([*TRESSETTE_SEARCH, f"pimc:{ONE_ROLLOUT},rollout=selfplay", "greedy"], {}, 2),
    "tressette3": ([*TRESSETTE_SEARCH, f"pimc:{ONE_ROLLOUT},infer=0.3"], {}, 2),
    "tressette2": (TRESSETTE_SEARCH, {}, 2),
    "club": (["pimc:max_worlds=3", "generic-pimc:max_worlds=3", ISMCTS, "greedy"],
             {"deals": 2}, 2),
}


def table(game: str, jobs: int) -> dict:
    agents, switches, episodes = TABLES[game]
    entries, lineup = name_lineup(agents)
    result = run(game, entries, [lineup], episodes, seed=38,
                 rules=get(game).make_rules(**switches), jobs=jobs)
    assert (result.jobs, result.executor) == ((2, "processes") if jobs == 2 else (1, "serial"))
    out = result.to_dict()
    for key in ("seconds", "jobs", "executor"):
        out.pop(key)
    return out


@pytest.mark.skipif(BACKEND != "c", reason="node budgets are counted in the C core's nodes")
@pytest.mark.parametrize("game", list(TABLES))
def test_the_same_table_in_one_process_and_in_two(game, monkeypatch):
    monkeypatch.setattr(runinfo, "cores", lambda: 2)  # two workers even on a one-core machine
    assert table(game, 1) == table(game, 2)


def search_agents():
    for game in TABLES:
        for name, factory in agents_of(game).items():
            if name not in ("openspiel-ismcts", "selfplay"):  # seeded, and a network: no search
                yield game, name


@pytest.mark.parametrize("game, name", list(search_agents()))
def test_every_search_agent_has_no_time_limit_by_default(game, name):
    """The defaults are work alone: every WorldSearch of every game, and the declarer's
    searches a Mediatore agent makes with ``calling=search``/``exchange=search``."""
    agent = make_agent(name, agents_of(game))
    searches = [agent] + [getattr(getattr(agent, "greedy", None), part, None)
                          for part in ("calling", "exchange")]
    searches = [s for s in searches if isinstance(s, WorldSearch)]
    assert all(s.time_limit is None for s in searches)
    assert all(s.budget().time_limit is None for s in searches)


def test_a_time_limit_is_still_an_option():
    from agents.mediatore.declarer import DECLARER_TIME_LIMIT
    agent = make_agent("pimc-infer:time_limit=0.05")
    assert agent.time_limit == 0.05 and agent.budget().time_limit == 0.05
    declarer = agent.greedy
    assert declarer.calling.time_limit == declarer.exchange.time_limit == DECLARER_TIME_LIMIT
    tressette = make_agent("pimc:time_limit=0.1", agents_of("tressette2"))
    budget = tressette.budget()
    assert budget.time_limit == 0.1 and budget.max_cards is None and budget.max_nodes is None


def test_the_work_budget_counts_rollout_cards_and_nodes():
    """Tressette's and the generic PIMC: a world rolled out costs its cards in play times the
    cards tried, and worlds start while ``rollout_cards`` are left, so the same budget rolls
    out a few worlds early in a hand and more late in it; worlds solved late in the hand count
    in the decision's ``nodes`` (none left: no world)."""
    from agents.trick import TrickGreedyAgent
    definition = get("tressette2")
    game = definition.new_game()
    game.deal(list(range(40)))
    view = game.view(game.to_move)
    legal = view.legal_moves()
    assert len(legal) == 10  # the leader's ten cards, 40 in play (hands and stock)
    for name in ("pimc", "generic-pimc"):
        agent = make_agent(f"{name}:rollout_cards=801", agents_of("tressette2"))
        agent.reset(0)
        _, budget = agent.search(view, legal)
        assert (budget.worlds, budget.rollouts, budget.cards, budget.nodes) == (3, 3, 1200, 0)
    greedy = TrickGreedyAgent("tressette2")
    while len(game.view(0).tricks) < 12:  # 24 cards played: 16 in play, solved
        game.apply(greedy.act(None, game.view(game.to_move)))
    view = game.view(game.to_move)
    legal = view.legal_moves()
    for name in ("pimc", "generic-pimc"):
        agent = make_agent(f"{name}:rollout_cards=801,solve_at=0", agents_of("tressette2"))
        agent.reset(0)
        _, budget = agent.search(view, legal)
        worlds = -(-801 // (16 * len(legal)))  # more than three: a world costs 16 a card
        assert worlds > 3 and budget.worlds == budget.rollouts == min(32, worlds)
        assert budget.cards == budget.worlds * 16 * len(legal)
    for name in ("pimc", "generic-pimc"):
        agent = make_agent(f"{name}:max_worlds=5", agents_of("tressette2"))
        agent.reset(0)
        _, budget = agent.search(view, view.legal_moves())
        assert budget.worlds == 5 and budget.rollouts == 0 and 0 < budget.nodes <= 1_000_000
        starved = make_agent(f"{name}:nodes=1", agents_of("tressette2"))
        starved.reset(0)
        _, budget = starved.search(view, view.legal_moves())
        assert budget.worlds == 0 and budget.spent
