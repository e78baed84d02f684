"""The Tressette agents: legal moves only, from the seat's view only (a view with no way to the
game, and the same move in any two games that differ only in what the seat cannot know), the
greedy player's heuristics in scenarios built by hand, its claims, and greedy beating random in
every form by a margin far clear of noise."""

import random

import pytest

from agents import agents_of
from agents.base import play
from agents.tressette import AGENTS, TressetteGreedyAgent, TressetteRandomAgent, make_agent
from agents.tressette.greedy import Table
from agents.tressette.tournament import HOOKS, run_tressette_tournament
from mediatore_env.core.cards import parse_card
from mediatore_env.tressette.game import TressetteGame
from mediatore_env.tressette.moves import CLAIM
from mediatore_env.tressette.rules import FORMS, TARGET
from tests.tressette_packs import build_pack

VARIANTS = [FORMS[form].replace(**switches) for form in FORMS
            for switches in ({}, {"low": True}, {"claim": True}, {"low": True, "claim": True})]


def _packs(seed):
    return lambda k: HOOKS.pack(seed, 0, k)


class SealedView:
    """A seat's view that hands out only its public names: no ``_game``, no way behind it."""

    def __init__(self, view):
        object.__setattr__(self, "_view", view)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(f"an agent reached for {name!r} behind the seat's view")
        return getattr(object.__getattribute__(self, "_view"), name)


class Sealed:
    """Wraps an agent so that it receives sealed views."""

    wants_observation = False

    def __init__(self, agent):
        self.agent, self.name = agent, agent.name

    def reset(self, seed=None):
        self.agent.reset(seed)

    def act(self, observation, view):
        return self.agent.act(observation, SealedView(view))


# -- legal moves, from the view alone ---------------------------------------------------------

@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.form}-low{r.low:d}-claim{r.claim:d}")
def test_agents_play_whole_games_legally_from_sealed_views(rules):
    n = rules.players
    for seed in range(3):
        lineup = [Sealed(TressetteGreedyAgent() if (s + seed) % 2 else TressetteRandomAgent())
                  for s in range(n)]
        game = play(TressetteGame(rules, seed % n), lineup, _packs(seed),
                    seeds=range(n))  # play refuses any illegal move
        assert game.is_over and sum(game.outcome) == 0


def _hidden_variant(game, seat, rng):
    """The same game with the cards ``seat`` has not seen (other hands, the dead hand, the
    stock) dealt differently; None when the history would not be legal or public facts (melds)
    would change."""
    log = game.log[-1]
    seen = set(c for c in range(40) if log.dealt[seat] >> c & 1)
    seen |= {c for t in log.tricks for c in t.cards} | set(game.trick)
    seen |= {d.card for d in log.draws if d.seat == seat or game.rules.show_draws}
    positions = [i for i, c in enumerate(log.pack) if c not in seen]
    cards = [log.pack[i] for i in positions]
    rng.shuffle(cards)
    pack = list(log.pack)
    for i, c in zip(positions, cards):
        pack[i] = c
    other = TressetteGame(game.rules, game.dealer)
    other.deal(pack)
    try:
        for _, move in game.history:
            other.apply(move)
    except ValueError:
        return None
    if other.log[-1].melds != log.melds or other.hands[seat] != game.hands[seat]:
        return None
    return other


def hidden_pairs(rules, trials: int, seed: int):
    """``(trial, game, other, seat)``: ``game`` at a random point of its first hand with
    ``seat`` to move, and ``other`` the same game with the cards ``seat`` has not seen lying
    elsewhere (:func:`_hidden_variant`), for up to ``trials`` trials."""
    rng = random.Random(seed)
    for trial in range(trials):
        game = TressetteGame(rules, trial % rules.players)
        game.deal(HOOKS.pack(seed + 6, trial, 0))
        for _ in range(rng.randrange(1, 3 * rules.players)):  # a random point of the first hand
            game.apply(rng.choice([m for m in game.legal_moves() if m != CLAIM]))
        if game.needs_pack or game.is_over:
            continue
        seat = game.to_move
        other = _hidden_variant(game, seat, rng)
        if other is None:
            continue
        assert other.log[-1].pack != game.log[-1].pack  # the unseen cards lie elsewhere
        yield trial, game, other, seat


@pytest.mark.parametrize("form", list(FORMS))
def test_greedy_moves_do_not_depend_on_what_the_seat_cannot_know(form):
    greedy, compared = TressetteGreedyAgent(), 0
    for _, game, other, seat in hidden_pairs(FORMS[form], 60, 5):
        assert greedy.act(None, other.view(seat)) == greedy.act(None, game.view(seat))
        compared += 1
    assert compared >= 30


def test_an_agent_reading_observations_gets_its_seats_encoding():
    from mediatore_env.tressette.observation import observation

    class MaskReader:
        """Plays the first move its action mask allows (and checks it against the view)."""
        name, wants_observation = "mask", True

        def reset(self, seed=None):
            pass

        def act(self, obs, view):
            expected = observation(view)
            assert (obs["observation"] == expected["observation"]).all()
            assert [int(m) for m in obs["action_mask"].nonzero()[0]] == view.legal_moves()
            return view.legal_moves()[0]

    game = play(TressetteGame(FORMS["tressette2"]), [MaskReader(), TressetteRandomAgent()],
                _packs(0), seeds=[0, 1])
    assert game.is_over


def test_random_agent_is_uniform_seeded_and_claims_only_at_its_rate():
    rules = FORMS["tressette"].replace(claim=True)
    game = TressetteGame(rules, 3)
    game.deal(build_pack(4, 3, {0: "D3 D2 DA DR DC DF D7 D6 D5 D4"}))
    view = game.view(0)
    never, always, uniform = (TressetteRandomAgent(claim_rate=r) for r in (0.0, 1.0, None))
    picks = set()
    for seed in range(200):
        never.reset(seed)
        picks.add(never.act(None, view))
    assert picks == set(range(10))  # every card of the hand, the claim never
    always.reset(1)
    assert always.act(None, view) == CLAIM
    uniform.reset(0)
    assert CLAIM in {uniform.act(None, view) for _ in range(100)}
    a, b = TressetteRandomAgent(), TressetteRandomAgent()
    a.reset(7), b.reset(7)
    assert [a.act(None, view) for _ in range(20)] == [b.act(None, view) for _ in range(20)]
    with pytest.raises(ValueError, match="claim_rate must be a probability"):
        TressetteRandomAgent(claim_rate=1.5)


def test_registry_names_and_options():
    assert set(AGENTS) == {"random", "greedy", "pimc"}
    assert set(agents_of("tressette3")) == {"random", "greedy", "pimc", "selfplay",
                                            "openspiel-ismcts", "generic-random",
                                            "generic-greedy", "generic-pimc"}
    assert make_agent("random:claim_rate=0.25").claim_rate == 0.25
    assert isinstance(make_agent("agents.tressette.greedy:TressetteGreedyAgent"),
                      TressetteGreedyAgent)
    assert make_agent("pimc:time_limit=0.05").time_limit == 0.05
    with pytest.raises(ValueError, match="unknown agent 'solver'.*random, greedy, pimc"):
        make_agent("solver")


# -- the greedy player's heuristics, by hand ----------------------------------------------------

def _game(hands, moves=(), rules=None, dealer=3):
    """A four-handed game (seat 0 leads: dealer 3) with the hands given, after ``moves``."""
    rules = rules or FORMS["tressette"]
    game = TressetteGame(rules, dealer)
    game.deal(build_pack(rules.players, dealer, hands))
    for text in moves:
        game.apply(parse_card(text))
    return game


def _greedy_move(game):
    return TressetteGreedyAgent().act(None, game.view(game.to_move))


HANDS = {0: "S3 D3 D2 DA C4 C5 C6 C7 B4 B5", 1: "SA S4 D4 D5 D6 CF CC CR B6 B7",
         2: "S5 S6 D7 DF DC DR C2 C3 BF BC", 3: "S7 SF SC SR S2 CA BR BA B2 B3"}


def test_greedy_leads_a_master_with_the_most_points():
    # Seat 0 holds D3 D2 DA (a napoletana): the Asso can be captured by nobody.
    assert _greedy_move(_game(HANDS)) == parse_card("DA")


def test_greedy_follows_cheaply_when_the_trick_is_lost():
    # S3 led: nothing beats it; seat 1 keeps its Asso and plays the 4.
    assert _greedy_move(_game(HANDS, ["S3"])) == parse_card("S4")


def test_greedy_takes_points_with_its_cheapest_sure_winner():
    hands = {0: "CF C4 C5 C6 C7 B4 B5 B6 B7 BF", 1: "CA C3 CR D4 D5 D6 D7 S4 S5 S6"}
    # The Fante led: C3 is a sure winner (nothing above it), the Asso is not (the 2 is out).
    assert _greedy_move(_game(hands, ["CF"])) == parse_card("C3")


def test_greedy_loads_points_on_its_partners_sure_trick():
    hands = {0: "D3 C4 C5 C6 C7 B4 B5 B6 B7 BF", 1: "D4 S4 S5 S6 S7 SF SC SR CF CC",
             2: "DA D5 C2 C3 CA CR S2 SA BC BR"}
    # Seat 0's D3 cannot be beaten: seat 2 (its partner) gives it the Asso, not the 5.
    assert _greedy_move(_game(hands, ["D3", "D4"])) == parse_card("DA")


def test_greedy_counts_cards_the_2_is_a_master_once_the_3_is_gone():
    hands = {0: "D3 C4 C5 C6 C7 B4 B5 B6 B7 BF", 1: "D2 D5 S4 S5 S6 S7 SF SC SR CF",
             2: "D6 C2 C3 CA CR S2 SA BC BR S3", 3: "D7 DA CC B2 B3 BA DR DF DC D4"}
    before = _game(hands)
    assert not Table.of(before.view(1)).is_master(parse_card("D2"))  # the 3 is out
    assert Table.of(before.view(3)).above_out(parse_card("DA")) == 2   # the 3 and the 2
    after = _game(hands, ["D3", "D5", "D6", "D7"])  # seat 0 takes the trick with the 3
    assert Table.of(after.view(1)).is_master(parse_card("D2"))
    assert Table.of(after.view(3)).above_out(parse_card("DA")) == 1    # the 2 only


def test_low_hand_sheds_its_asso_on_a_foes_trick_and_ducks():
    low = FORMS["tressette"].replace(low=True)
    hands = {0: "D3 C4 C5 C6 C7 B4 B5 B6 B7 BF", 1: "DA D4 S4 S5 S6 S7 SF SC SR CF"}
    assert _greedy_move(_game(hands, ["D3"], low)) == parse_card("DA")
    # Leading, it plays a pointless low card under which others hold many cards.
    move = _greedy_move(_game(hands, [], low))
    assert move in [parse_card(c) for c in ("C4", "B4")]


# -- claims -----------------------------------------------------------------------------------

def _claim_games(rules, games=6):
    for seed in range(games):
        agents = [TressetteGreedyAgent(), TressetteRandomAgent(), TressetteGreedyAgent(),
                  TressetteRandomAgent()]
        yield play(TressetteGame(rules, seed % 4), agents, _packs(seed), seeds=range(4))


def test_greedy_claims_at_31_and_never_falsely():
    claims = 0
    for game in _claim_games(FORMS["tressette"].replace(claim=True)):
        if game.claimant is not None and game.claimant % 2 == 0:  # a greedy seat claimed
            claims += 1
            assert game.end_reason == "claim" and game.outcome[game.claimant] == 1
            assert game.totals[0] >= TARGET
    assert claims >= 4


def test_greedy_never_claims_a_low_hand_it_would_lose():
    for game in _claim_games(FORMS["tressette"].replace(claim=True, low=True)):
        if game.claimant is not None and game.claimant % 2 == 0:
            assert game.outcome[game.claimant] == 1


# -- greedy against random ------------------------------------------------------------------------

@pytest.mark.parametrize("form,lineup,least", [
    ("tressette", ["greedy", "random", "greedy", "random"], 0.4),
    ("tressette3", ["greedy", "random", "random"], 0.4),
    ("tressette2", ["greedy", "random"], 0.4),
])
def test_greedy_beats_random_far_beyond_noise(form, lineup, least):
    result = run_tressette_tournament(lineup, games=40, seed=2, rules=form)
    greedy = result.standing("greedy")
    assert greedy.ci[0] > least  # 95% interval's low end, in units per game
    assert result.standing("random").ci[1] < 0


def test_the_examples_in_the_docstrings_run():
    import doctest

    import agents.tressette
    import agents.tressette.greedy
    import agents.tressette.outlook
    import agents.tressette.pimc
    import agents.tressette.random_agent
    import agents.tressette.tournament
    for module in (agents.tressette, agents.tressette.greedy, agents.tressette.outlook,
                   agents.tressette.pimc, agents.tressette.random_agent,
                   agents.tressette.tournament):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted, module.__name__
