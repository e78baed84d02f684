"""The agents: the interface and registry, RandomAgent, and each greedy policy's decisions on
hand-built situations (deals injected with tests/packs.py; dealer 3, so seat 0 is il mano)."""

import io
import random
import re

import numpy as np
import pytest
from packs import make_deal, play

from agents import AGENTS, Agent, GreedyAgent, RandomAgent, make_agent
from agents.base import play as play_agents
from agents.mediatore.greedy import (BIDDING_POLICIES, FEATURES, FOE, FRIEND, UNKNOWN,
                                     BiddingPolicy, CallingPolicy, ExchangePolicy, PassBidding,
                                     PlayPolicy, Situation, hand_features, make_bidding_policy)
from mediatore_env.core.cards import SUIT_MASKS, format_cards, parse_card, parse_cards, power_of
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.moves import DISCARD, GIVE, PASS, move_text
from mediatore_env.mediatore.rules import (BUSSO, CHIAMO, CONTRACTS, MEDIATORE, SOLISSIMO, SOLO,
                                           VOLO, Rules)


def texts(deal, agent, seat=None):
    return move_text(agent.act(None, deal.view(deal.to_move if seat is None else seat)))


# -- interface and registry ---------------------------------------------------------------------

def test_registry_makes_agents_with_options_and_user_classes():
    assert {"random", "greedy"} <= set(AGENTS)
    a = make_agent("random:bid_rate=0.5")
    assert isinstance(a, RandomAgent) and a.bid_rate == 0.5 and a.name == "random:bid_rate=0.5"
    g = make_agent("greedy:bidding=cautious")
    assert isinstance(g, GreedyAgent) and g.bidding.margin > 0
    u = make_agent("agents.mediatore.random_agent:RandomAgent:bid_rate=None")
    assert isinstance(u, RandomAgent) and u.bid_rate is None
    assert make_agent("greedy", bidding="pass").bidding.bid(None) == PASS


@pytest.mark.parametrize("spec, message", [
    ("grumpy", "unknown agent 'grumpy'; known agents: random, greedy"),
    # a name misspelt before its options is no module to import
    ("pimcc:worlds=8", "unknown agent 'pimcc'; known agents: random, greedy"),
    ("random:bid_rate", "bad option"),
    # a colon with no option after it is no spec: the league took 'greedy:' for another agent
    ("greedy:", "bad agent 'greedy:': no option after the colon; write greedy alone, or "
                "greedy:NAME=VALUE$"),
    ("random: , ", "bad agent 'random: , ': no option after the colon"),
    ("agents.mediatore.random_agent:RandomAgent:", "no option after the colon; write "
                                                   "agents.mediatore.random_agent:RandomAgent "
                                                   "alone"),
    ("random:speed=3", "unexpected keyword argument 'speed'; its options: bid_rate, seed$"),
    ("random:bid_rate=0.1,bid_rate=0.2", "option 'bid_rate' is given twice; give each option "
                                         "once$"),
    ("nosuchmodule:Agent", "cannot import module"),
    ("agents.base:Nothing", "has no 'Nothing'"),
    # a kind of data the option's annotation does not take, refused before the agent is made
    ("random:bid_rate=abc", "cannot make agent 'random:bid_rate=abc': bad value 'abc' for "
                            "option 'bid_rate': it takes a float$"),
    ("random:bid_rate=True", "bad value True for option 'bid_rate': it takes a float"),
    ("random:bid_rate=2", r"bid_rate must be a probability in \[0, 1\] or None, got 2$"),
    ("greedy:play=nope", "bad value 'nope' for option 'play': it takes an object, which an "
                         "agent's text cannot give"),
    ("pimc:pool=nope", "bad value 'nope' for option 'pool': it takes an int$"),
    ("pimc:pool=-1", "pool must be a positive int, got -1$"),
    ("pimc:capotto=1", "bad value 1 for option 'capotto': it takes a bool$"),
    ("pimc:time_limit=abc", "bad value 'abc' for option 'time_limit': it takes a float$"),
    ("selfplay:deterministic=maybe", "option 'deterministic': it takes a bool$"),
    ("tests.test_agents:NotAnAgent", "is not an agent: an agent needs a method act"),
])
def test_registry_errors_name_the_problem(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


class NotAnAgent:
    pass


def test_a_network_file_that_is_not_one_is_named_without_numpys_words(tmp_path):
    (tmp_path / "notes.txt").write_text("hello\n")
    with pytest.raises(ValueError) as error:
        make_agent(f"selfplay:path={str(tmp_path / 'notes.txt')!r}")
    message = str(error.value)
    assert "path=" in message and "is not a readable network" in message
    assert "pickle" not in message and "\n" not in message


class FirstLegal:  # README's agent: no reset, no name, no wants_observation
    def act(self, observation, view):
        assert observation is not None  # it did not say it skips them
        return view.legal_moves()[0]


def test_an_agent_with_only_act_plays_and_is_named_by_its_class():
    deal = play_agents(Deal(Rules(), 0, pack=list(range(40))), [FirstLegal()] * 4)
    assert deal.is_over
    from agents.tournament import run_tournament
    for spec in (FirstLegal, FirstLegal()):  # a class, or an instance copied per slot
        result = run_tournament([spec, "random", "random", "random"], deals=2, seed=1)
        assert {s.name for s in result.standings} == {"FirstLegal", "random"}


def test_an_agent_with_only_act_plays_wherever_a_seat_is_asked():
    from mediatore_env.mediatore.observation import observation
    from mediatore_env.mediatore.single_seat import MediatoreSeatEnv
    from mediatore_env.tools.answers import reader_of
    from mediatore_env.tools.play import play_game
    from mediatore_env.tools.terminal import Terminal
    from mediatore_env.web.tables import think
    from mediatore_env import registry
    env = MediatoreSeatEnv(FirstLegal())
    env.reset(seed=3)
    while not env.step(int(np.flatnonzero(env.action_masks())[0]))[2]:
        pass
    definition = registry.get("mediatore")
    deal = Deal(Rules(), 0, pack=list(range(40)))
    move, _ = think(FirstLegal(), deal, deal.to_move, observation)
    assert move == deal.legal_moves()[0]
    play_game(deal, None, [FirstLegal() for _ in range(4)], ["a", "b", "c", "d"],
              Terminal(None, io.StringIO()), definition.display, reader_of(definition),
              seeds=[1, 2, 3, 4], observation=observation)
    assert deal.is_over


def games_agents():
    """Each registered game with each agent of its registry written for its views alone (its
    shipped self-play network where it has one: club's is not shipped)."""
    from agents import agents_of
    from agents.selfplay import default_path
    from mediatore_env import registry
    for definition in registry.GAMES.values():
        for name, factory in agents_of(definition).items():
            if name == "selfplay" and not default_path(definition.name).exists():
                continue
            agent = factory()
            if getattr(agent, "view_type", None) is not None:
                yield definition, name, agent


def test_every_game_refuses_another_games_agents_before_a_move():
    """Every agent of a game that reads its game's own views (a Mediatore SeatView...) is
    refused, in one line naming it, its seat and both views, at a game of other views, with
    the game left as it was; at its own game's tables it is seated."""
    from mediatore_env import registry
    from mediatore_env.core.agent import check_seats
    refused = 0
    for home, name, agent in games_agents():
        for definition in registry.GAMES.values():
            game = definition.new_game()
            seated = [agent] + [None] * (definition.players - 1)
            if isinstance(game.view(0), agent.view_type):
                check_seats(seated, game)  # no error
                continue
            assert definition.name != home.name
            with pytest.raises(ValueError, match=f"agent {name!r} .* at seat 0 is written for "
                                                 f"another game: it reads a .*{agent.view_type.__name__}"):
                play_agents(game, [agent] * definition.players, packs=lambda k: range(40))
            assert game.needs_pack and not game.packs  # nothing dealt, nothing played
            refused += 1
    assert refused >= 3 * 4 * 3  # greedy, pimc, random of three kinds of views, at four tables


def test_a_network_of_one_form_is_refused_at_another_forms_table():
    from agents.selfplay import SelfPlayAgent
    from mediatore_env import registry
    agent = SelfPlayAgent(game="tressette")
    game = registry.make("tressette3")
    with pytest.raises(ValueError, match="plays tressette, not this game"):
        play_agents(game, [agent] + [make_agent("random", "tressette3") for _ in range(2)],
                    packs=lambda k: list(range(40)))
    with pytest.raises(ValueError, match="at seat 0 is written for another game"):
        play_agents(registry.make("club"), [agent] + [None] * 3)


def test_the_single_seat_environment_refuses_another_games_opponents():
    from agents.tressette import TressetteGreedyAgent
    from mediatore_env.mediatore.single_seat import MediatoreSeatEnv
    with pytest.raises(ValueError, match=r"\(TressetteGreedyAgent\) at seat 1 is written for "
                                         "another game"):
        MediatoreSeatEnv(TressetteGreedyAgent())
    env = MediatoreSeatEnv(GreedyAgent())
    with pytest.raises(ValueError, match="written for another game"):
        env.set_opponents(TressetteGreedyAgent())
    assert all(isinstance(a, GreedyAgent) for a in env.opponents)  # kept


def test_the_protocol_asks_for_what_an_agent_has_and_only_that():
    from agents.base import agent_name, ask, is_agent, reset_agent
    seeds = []

    class Quiet:
        name, wants_observation = "quiet", False

        def reset(self, seed):
            seeds.append(seed)

        def act(self, observation, view):
            return observation

    reset_agent(Quiet(), 5)
    reset_agent(FirstLegal(), 5)  # no reset: nothing to do
    assert seeds == [5]
    assert ask(Quiet(), "view", lambda view: "seen") is None
    view = Deal(Rules(), 0, pack=list(range(40))).view(1)
    assert ask(FirstLegal(), view, lambda v: "seen") == view.legal_moves()[0]
    assert [agent_name(a) for a in (Quiet(), FirstLegal())] == ["quiet", "FirstLegal"]
    assert is_agent(Quiet()) and is_agent(FirstLegal()) and not is_agent(NotAnAgent())


def test_a_users_agent_in_a_few_lines_plays_a_deal():
    class FirstLegal(Agent):
        wants_observation = False

        def act(self, observation, view):
            return view.legal_moves()[0]
    deal = play_agents(Deal(Rules(), 0, pack=list(range(40))), [FirstLegal()] * 4)
    assert deal.is_over


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_agents_are_deterministic_given_the_seed(name):
    def run(seed):
        deal = Deal(Rules(), 2, pack=list(range(40))[::-1])
        return play_agents(deal, [make_agent(name) for _ in range(4)], seeds=[seed] * 4).history
    assert run(7) == run(7)


@pytest.mark.parametrize("preset", ["standard", "low", "alternative_signals", "no_signals",
                                    "chiamo_blind", "call_three", "declarer_leads"])
def test_greedy_plays_legal_moves_under_every_preset(preset):
    rules = Rules.preset(preset)
    for i in range(6):
        deal = Deal(rules, i % 4, rng=np.random.default_rng(i))
        play_agents(deal, [GreedyAgent(), RandomAgent(0.3), GreedyAgent(), RandomAgent(0.3)],
                  seeds=[i] * 4)
        assert deal.is_over


# -- RandomAgent --------------------------------------------------------------------------------

def test_random_agent_bidding_eagerness():
    deal = Deal(Rules(), 3, pack=list(range(40)))
    view = deal.view(0)
    assert RandomAgent(bid_rate=0.0).act(None, view) == PASS
    assert RandomAgent(bid_rate=1.0).act(None, view) == 1  # the lowest bid: chiamo
    uniform = RandomAgent(bid_rate=None, seed=1)
    assert {uniform.act(None, view) for _ in range(200)} == {0, 1, 2, 3, 4, 5}
    with pytest.raises(ValueError):
        RandomAgent(bid_rate=1.5)


def test_random_agent_reset_reseeds():
    deal = Deal(Rules(), 3, pack=list(range(40)))
    play(deal, "bid solo", "pass", "pass", "pass")
    view = deal.view(0)
    agent = RandomAgent()
    agent.reset(5)
    first = [agent.act(None, view) for _ in range(10)]
    agent.reset(5)
    assert [agent.act(None, view) for _ in range(10)] == first
    assert all(m in view.legal_moves() for m in first)


# -- hand evaluation and bidding -------------------------------------------------------------------

def deal_for(hand, seed=0, **switches):
    """Seat 0 holds ``hand``; the other cards are dealt at random."""
    mine = parse_cards(hand)
    rest = [c for c in range(40) if c not in mine]
    random.Random(seed).shuffle(rest)
    return make_deal([mine, rest[:9], rest[9:18], rest[18:27]], rest[27:], **switches)


def test_hand_features_count_high_cards_aces_and_lengths():
    f = dict(zip(FEATURES, hand_features(sum(1 << c for c in parse_cards("D3 D2 DA DR C2 C7 SA B4 B5")))))
    assert f["three"] == 1 and f["two_top"] == 1 and f["ace_top"] == 1 and f["king_top"] == 1
    assert f["two"] == 1 and f["ace_short"] == 1 and f["void"] == 0 and f["singleton"] == 1
    assert f["long4"] == 1 and f["courts"] == 1


WEAK, MEDIUM, STRONG, HUGE = ("D4 D5 D6 C4 C5 C6 S4 S5 S6", "D3 DA D5 C2 C6 S3 SR S6 B7",
                              "C4 C7 S3 S2 SA B3 B2 D5 BR", "D3 D2 DA C3 C2 CA S3 S2 SA")


def test_bidding_weak_passes_medium_calls_strong_plays_alone():
    bid = BiddingPolicy()
    assert bid.bid(deal_for(WEAK).view(0)) == PASS
    assert bid.bid(deal_for(MEDIUM).view(0)) == CHIAMO
    assert bid.bid(deal_for(STRONG).view(0)) >= MEDIATORE
    assert bid.bid(deal_for(HUGE).view(0)) >= SOLISSIMO


def test_win_chances_grow_with_the_hand():
    bid = BiddingPolicy()
    for contract in CONTRACTS:
        chances = [bid.win_chance(deal_for(h).view(0), contract) for h in (WEAK, MEDIUM, STRONG, HUGE)]
        assert chances == sorted(chances), contract
    # the monte, the call and the partner make Chiamo the easiest contract to make
    view = deal_for(MEDIUM).view(0)
    assert bid.win_chance(view, CHIAMO) > bid.win_chance(view, MEDIATORE) > bid.win_chance(view, SOLO)


def test_bidding_overcalls_only_with_a_better_hand_and_policies_can_be_swapped():
    deal = deal_for(MEDIUM)
    play(deal, "pass", "bid mediatore", "pass", "pass")  # seat 0 speaks again
    assert BiddingPolicy().bid(deal.view(0)) == PASS
    strong = deal_for(STRONG)
    assert BiddingPolicy(max_contract=CHIAMO).bid(strong.view(0)) == CHIAMO
    assert PassBidding().bid(strong.view(0)) == PASS
    assert isinstance(make_bidding_policy("cautious"), BiddingPolicy)
    assert set(BIDDING_POLICIES) >= {"greedy", "cautious", "bold", "chiamo", "random", "pass"}
    with pytest.raises(ValueError, match="known bidding policies: greedy"):
        make_bidding_policy("wild")
    # written as agents are: a name or a module:Class path, with options
    assert make_bidding_policy("cautious:margin=1.5").margin == 1.5
    assert make_bidding_policy("random:bid_rate=0.5").bid_rate == 0.5
    assert isinstance(make_bidding_policy("agents.mediatore.greedy:PassBidding"), PassBidding)
    for spec, words in (("random:x=1", "unexpected keyword argument 'x'; its options: bid_rate"),
                        ("cautious:margin=abc", "'margin': it takes a float"),
                        ("agents.mediatore.greedy:GreedyAgent", "needs a method bid(view)")):
        with pytest.raises(ValueError, match=re.escape(repr(spec))) as e:
            make_bidding_policy(spec)
        assert words in str(e.value) and "bidding policy" in str(e.value)
    # a GreedyAgent with another bidding policy keeps the other three
    agent = GreedyAgent(bidding="pass")
    assert isinstance(agent.play, PlayPolicy) and agent.act(None, strong.view(0)) == PASS


# -- calling -----------------------------------------------------------------------------------

CALL_HANDS = ["D2 DA DR D7 C2 CA S5 S6 B7", "D3 C3 C4 S3 S2 SA B3 B2 BA",
              "D4 D5 D6 C5 C6 C7 S4 SF SC", "DC DF CR CC CF SR S7 BR BC"]
CALL_MONTE = "BF B6 B5 B4"


def test_calling_the_three_of_the_strongest_suit():
    deal = make_deal(CALL_HANDS, CALL_MONTE)
    play(deal, "bid chiamo", "pass", "pass", "pass")
    assert texts(deal, GreedyAgent()) == "call D3"


def test_calling_a_two_when_holding_every_three():
    deal = deal_for("D3 C3 S3 B3 DA D2 C5 S6 B7")
    play(deal, "bid chiamo", "pass", "pass", "pass")
    called = CallingPolicy().call(deal.view(0)) - 6
    assert power_of(called) == 8 and not deal.hands[0] >> called & 1  # a 2 it does not hold


def test_calling_respects_the_call_restriction():
    deal = deal_for("D2 DA DR D7 C2 CA S5 S6 B7", call_restriction="no_ace")
    play(deal, "bid mediatore", "pass", "pass", "pass")
    assert texts(deal, GreedyAgent()) == "call D3"


# -- the exchange ------------------------------------------------------------------------------

def test_chiamo_discards_make_a_void_and_keep_the_called_suit():
    deal = make_deal(CALL_HANDS, CALL_MONTE)
    play(deal, "bid chiamo", "pass", "pass", "pass", "call D3")
    agent = GreedyAgent()
    while deal.phase == DISCARD:
        deal.apply(agent.act(None, deal.view(0)))
    kept = deal.hands[0]
    assert not kept & SUIT_MASKS[2]  # the two low spades went: a void
    for card in ("D2", "DA", "DR"):  # with the partner's D3: four sure tricks in Denari
        assert kept >> parse_card(card) & 1, format_cards(kept)


def test_mediatore_passes_back_a_worthless_card():
    deal = make_deal(CALL_HANDS, CALL_MONTE)
    play(deal, "bid mediatore", "pass", "pass", "pass", "call D3")
    assert deal.giver == 1
    agent = GreedyAgent()
    while deal.phase == DISCARD:
        deal.apply(agent.act(None, deal.view(0)))
    assert deal.phase == GIVE
    given = agent.act(None, deal.view(0)) - 86
    assert power_of(given) <= 3  # a 4, 5, 6 or 7: no points for the opponent
    kept = deal.hands[0] & ~(1 << given)
    for card in ("D3", "D2", "DA", "C2", "CA"):
        assert kept >> parse_card(card) & 1


def test_exchange_plan_counts_points_in_the_monte():
    hand = sum(1 << c for c in parse_cards("D3 D2 DA DR C3 C2 CA SR SC SF S4 B4 B5"))
    keep_points, _ = ExchangePolicy(discard_points=-3.0).plan(hand, 4, False)
    dump_points, _ = ExchangePolicy(discard_points=1.0).plan(hand, 4, False)
    assert format_cards(keep_points) != format_cards(dump_points)
    from mediatore_env.core.cards import thirds_of
    assert thirds_of(dump_points) > thirds_of(keep_points)


# -- card play -------------------------------------------------------------------------------

# Seat 0 declares Solissimo (no monte, alone against three) and leads first.
PLAY_HANDS = ["C4 C7 S3 S2 SA B3 B2 D5 BR", "C3 D3 BA D6 S4 S5 B4 B5 CF",
              "DA D4 C5 CR S6 S7 B6 B7 CC", "C6 D2 DR DC DF D7 C2 CA SF"]
PLAY_MONTE = "SR SC BC BF"


def solissimo(*moves, **switches):
    deal = make_deal(PLAY_HANDS, PLAY_MONTE, **switches)
    return play(deal, "bid solissimo", "pass", "pass", "pass", *moves)


def test_loads_an_asso_on_a_friends_sure_trick():
    # seat 1 leads the 3 of Denari; seat 2 drops its Asso on it (the 3 is master)
    deal = solissimo("play C4", "play C3", "play C5", "play C6", "play D3")
    assert texts(deal, GreedyAgent()) == "play DA"


def test_dumps_its_lowest_card_under_the_declarers_master():
    deal = solissimo("play B3")
    assert texts(deal, GreedyAgent()) == "play B4"  # keeps BA away from the trick


def test_wins_with_the_cheapest_card_that_surely_wins():
    # the declarer leads D5; seat 1 holds D3 and D6, and only friends play after it
    deal = solissimo("play D5")
    assert texts(deal, GreedyAgent()) == "play D6"


def test_does_not_lead_an_asso_the_three_or_two_can_capture():
    deal = solissimo("play C7", "play CF", "play CR", "play C6")  # seat 2 wins with CR
    move = texts(deal, GreedyAgent())
    assert move != "play DA" and move.startswith("play")


def test_answers_a_friends_busso_with_its_highest_card():
    asked = solissimo("play C4", "play C3", "play C5", "play C6", "play D6 busso")
    assert texts(asked, GreedyAgent()) == "play DA"
    plain = solissimo("play C4", "play C3", "play C5", "play C6", "play D6")
    assert texts(plain, GreedyAgent()) == "play D4"  # the declarer may still beat the Asso


def test_leads_with_signals_only_when_the_code_allows():
    deal = solissimo("play C4", "play C3", "play C5", "play C6")  # seat 1 leads
    sit = Situation(deal.view(1))
    assert PlayPolicy().lead_signal(sit, parse_card("CF")) == VOLO  # its last Coppe
    assert PlayPolicy().lead_signal(sit, parse_card("D6")) in (BUSSO, 0)
    off = solissimo("play C4", "play C3", "play C5", "play C6", signals="off")
    assert PlayPolicy().lead_signal(Situation(off.view(1)), parse_card("CF")) == 0
    assert all(m < 126 + 40 for m in off.legal_moves())


def test_volo_tells_everyone_the_leader_is_void():
    deal = solissimo("play C4", "play C3", "play C5", "play C6", "play CF volo")
    sit = Situation(deal.view(2))
    assert sit.void[1] == SUIT_MASKS[1]
    assert not sit.possible[1] & SUIT_MASKS[1]


def test_teams_in_solo_and_chiamo():
    deal = solissimo()
    assert Situation(deal.view(2)).team == [FOE, FRIEND, FRIEND, FRIEND]
    # Chiamo: seat 0 calls CA (held by seat 3). Seat 3 knows; seats 1 and 2 do not.
    chiamo = make_deal(PLAY_HANDS, PLAY_MONTE)
    play(chiamo, "bid chiamo", "pass", "pass", "pass", "call CA")
    agent = GreedyAgent()
    while chiamo.phase == DISCARD:
        chiamo.apply(agent.act(None, chiamo.view(0)))
    assert Situation(chiamo.view(3)).team == [FRIEND, FOE, FOE, FRIEND]
    assert Situation(chiamo.view(1)).team == [FOE, FRIEND, UNKNOWN, UNKNOWN]
    assert Situation(chiamo.view(0)).team == [FRIEND, UNKNOWN, UNKNOWN, UNKNOWN]


def test_partner_guessed_from_points_loaded_on_the_declarers_trick():
    chiamo = make_deal(PLAY_HANDS, PLAY_MONTE)
    play(chiamo, "bid chiamo", "pass", "pass", "pass", "call CA")
    play(chiamo, "discard C4", "discard C7", "discard D5", "discard BR")
    # seat 0 leads B3; seats 1 and 2 follow; seat 3, void in Bastoni, drops DR (a point) on it
    play(chiamo, "play B3", "play B4", "play B6", "play DR")
    assert Situation(chiamo.view(0)).team == [FRIEND, FOE, FOE, FRIEND]
    assert Situation(chiamo.view(1)).team == [FOE, FRIEND, FRIEND, FOE]
    assert Situation(chiamo.view(1), infer=False).team[2:] == [UNKNOWN, UNKNOWN]
