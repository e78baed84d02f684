"""The Tressette PIMC agent (agents/tressette/pimc.py): legal moves only, from sealed views, in
every form and switch; the same choices from the same seed with time_limit=None; choices that
do not depend on what the seat cannot know; the value it scores a hand by; its options."""

import pytest

from agents.base import play
from agents.tressette import TressetteGreedyAgent, TressettePimcAgent
from agents.tressette.greedy import claim_wins
from agents.tressette.pimc import ROLLOUTS, hand_value, roll_out, side_thirds
from agents.tressette.tournament import HOOKS
from mediatore_env.core.cards import POINTS, cards_of
from mediatore_env.tressette.game import TressetteGame
from mediatore_env.tressette.moves import CLAIM
from mediatore_env.tressette.rules import FORMS
from tests.test_tressette_agents import VARIANTS, Sealed, hidden_pairs

def _pimc(**options):
    return TressettePimcAgent(time_limit=None, max_worlds=2, **options)


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.form}-low{r.low:d}-claim{r.claim:d}")
def test_pimc_plays_whole_games_legally_from_sealed_views(rules):
    n = rules.players
    lineup = [Sealed(_pimc() if s % 2 == 0 else TressetteGreedyAgent()) for s in range(n)]
    game = play(TressetteGame(rules, 1 % n), lineup, lambda k: HOOKS.pack(3, 0, k),
                seeds=range(n))  # play refuses any illegal move
    assert game.is_over and sum(game.outcome) == 0


@pytest.mark.parametrize("form", list(FORMS))
def test_pimc_with_no_time_limit_repeats_its_game_from_its_seeds(form):
    rules = FORMS[form]
    n = rules.players

    def history(seed):
        lineup = [_pimc() if s == 0 else TressetteGreedyAgent() for s in range(n)]
        return play(TressetteGame(rules), lineup, lambda k: HOOKS.pack(4, 0, k),
                    seeds=[seed] + [None] * (n - 1)).history

    assert history(7) == history(7)


@pytest.mark.parametrize("options", [{}, {"outlook": True}, {"rollout": "selfplay"},
                                     {"infer": 0.3}],
                         ids=["hand", "outlook", "network", "infer"])
@pytest.mark.parametrize("form", list(FORMS))
def test_pimc_moves_do_not_depend_on_what_the_seat_cannot_know(form, options):
    pimc, compared = _pimc(**options), 0
    for trial, game, other, seat in hidden_pairs(FORMS[form], 40, 6):
        pimc.reset(trial)
        here = pimc.act(None, game.view(seat))
        pimc.reset(trial)
        assert pimc.act(None, other.view(seat)) == here
        compared += 1
    assert compared >= 15


@pytest.mark.parametrize("rollout", ROLLOUTS)
@pytest.mark.parametrize("form", list(FORMS))
def test_a_rolled_out_hand_holds_every_third_once(form, rollout):
    rules, agent = FORMS[form], _pimc(rollout=rollout)
    for seed in range(5):
        game = TressetteGame(rules, seed % rules.players)
        game.deal(HOOKS.pack(13, seed, 0))
        agent.roll_out(game)
        assert game.needs_pack or game.is_over
        log = game.log[-1]
        melds = sum(log.meld_points)
        thirds = [side_thirds(game, side) for side in range(rules.num_sides)]
        played = sum(POINTS[card] for trick in log.tricks for card in trick.cards)
        dead = sum(POINTS[card] for card in cards_of(log.dead))  # three-handed: not played
        assert played + dead == 32  # 4 Assi of 3 thirds, 20 figures, 2s and 3s of 1
        assert sum(thirds) == played + 3 * (melds + 1)  # and the last trick's point
        assert [t // 3 for t in thirds] == game.hand_points or game.is_over  # thirds round down
        # Zero-sum two ways: a side's value is what the others lose on average.
        values = [hand_value(game, side) for side in range(rules.num_sides)]
        assert abs(sum(values)) < 1e-9


def test_low_hand_values_fewer_thirds():
    rules = FORMS["tressette"]
    game = TressetteGame(rules, 0)
    game.deal(HOOKS.pack(13, 0, 0))
    roll_out(game)
    low = TressetteGame(rules.replace(low=True), 0)
    low.deal(HOOKS.pack(13, 0, 0))
    for _, move in game.history:
        low.apply(move)
    assert hand_value(low, 0) == -hand_value(game, 0) != 0


def test_pimc_claims_when_the_claim_wins_and_only_then():
    rules = FORMS["tressette2"].replace(claim=True)
    pimc, claims = _pimc(), 0
    pimc.reset(0)  # seeded: unseeded worlds made no claim at all in one run of many
    for seed in range(3):  # about 500 decisions, three claims
        game = TressetteGame(rules, seed % 2)
        while not game.is_over:
            if game.needs_pack:
                game.deal(HOOKS.pack(14, seed, game.hand_number))
                continue
            view = game.view(game.to_move)
            move = pimc.act(None, view)
            assert (move == CLAIM) == (CLAIM in view.legal_moves() and claim_wins(view))
            claims += move == CLAIM
            game.apply(move)
    assert claims >= 1


def test_bad_options_are_refused_with_what_is_valid():
    with pytest.raises(ValueError, match="time_limit must be a positive number.*or None"):
        TressettePimcAgent(time_limit=0)
    with pytest.raises(ValueError, match="max_worlds must be at least 1, got 4 and 0"):
        TressettePimcAgent(max_worlds=0)
    with pytest.raises(ValueError, match="rollout must be one of greedy, selfplay, got 'net'"):
        TressettePimcAgent(rollout="net")
    for infer in (0, 1.5, "0.3", True):
        with pytest.raises(ValueError, match=r"infer must be a weight in \(0, 1\] or None"):
            TressettePimcAgent(infer=infer)
    # The shipped networks play the standard rules: in Low Hand they would take points.
    for rules in (FORMS["tressette"].replace(low=True),
                  FORMS["tressette2"].replace(show_draws=False)):
        game = TressetteGame(rules, 0)
        game.deal(HOOKS.pack(3, 0, 0))
        with pytest.raises(ValueError, match="trained under its standard rules.*rollout='greedy'"):
            _pimc(rollout="selfplay").act(None, game.view(game.to_move))


@pytest.mark.parametrize("form", list(FORMS))
def test_the_networks_rollouts_are_its_own_moves(form):
    """rollout="selfplay": every seat of the world plays the form's shipped network, which is
    not greedy (their hands part somewhere), and a world rolled out twice ends the same."""
    from agents.selfplay import SelfPlayAgent
    rules, network = FORMS[form], SelfPlayAgent(game=form)
    parted = 0
    for seed in range(3):
        games = []
        for rollout in ("selfplay", "selfplay", "greedy"):
            game = TressetteGame(rules, 0)
            game.deal(HOOKS.pack(15, seed, 0))
            _pimc(rollout=rollout).roll_out(game)
            games.append(game)
        assert games[0].history == games[1].history
        parted += games[0].history != games[2].history
        replay = TressetteGame(rules, 0)
        replay.deal(HOOKS.pack(15, seed, 0))
        for _, move in games[0].history[:12]:
            assert move == network.act(None, replay.view(replay.to_move))
            replay.apply(move)
    assert parted >= 1


@pytest.mark.parametrize("form", list(FORMS))
def test_a_hand_played_by_the_model_misses_nothing_and_another_does(form):
    """misses(): replaying the real hand, a hand played by greedy at every seat has no move
    greedy would not have made; one where the others play at random has some; the seat's own
    moves never count (seat 0 plays at random in the second)."""
    from agents.search import misses
    from agents.tressette import TressetteRandomAgent
    rules, model = FORMS[form], TressetteGreedyAgent()
    missed = 0
    for players in ("greedy", "random"):
        for seed in range(3):
            game = TressetteGame(rules, 0)
            game.deal(HOOKS.pack(16, seed, 0))
            agents = [TressetteGreedyAgent() if players == "greedy"
                      else TressetteRandomAgent(seed=seed) for _ in range(rules.players)]
            while not game.needs_pack and not game.is_over:
                game.apply(agents[game.to_move].act(None, game.view(game.to_move)))
            replay = TressetteGame(rules, 0)
            replay.deal(HOOKS.pack(16, seed, 0))
            count = misses(replay, [move for _, move in game.history], 0, model)
            assert replay.history == game.history
            if players == "greedy":
                assert count == 0
            missed += count
    assert missed > 0


def test_weighed_worlds_hand_out_the_likely_first_each_once():
    """WeighedWorlds: every candidate once, in an order drawn by weight miss ** misses: with a
    small miss the worlds of no miss come first, of one next, then two; with miss 1 the order
    does not follow the misses."""
    import random
    from agents.search import WeighedWorlds

    def handed(miss):
        draws = iter(range(60))
        worlds = WeighedWorlds(lambda rng: (n := next(draws), n % 3), 60, miss,
                               random.Random(1))
        out = [worlds.sample(None) for _ in range(60)]
        with pytest.raises(IndexError, match="all 60 candidate worlds were handed out"):
            worlds.sample(None)
        return out

    order = handed(1e-6)
    assert sorted(order) == list(range(60))
    assert [n % 3 for n in order] == [0] * 20 + [1] * 20 + [2] * 20
    assert [n % 3 for n in handed(1.0)] != [0] * 20 + [1] * 20 + [2] * 20


def test_infer_scores_the_likely_worlds_first_and_repeats_from_its_seed():
    rules = FORMS["tressette"]
    game = TressetteGame(rules, 0)
    game.deal(HOOKS.pack(17, 0, 0))
    greedy = TressetteGreedyAgent()
    for _ in range(16):  # four tricks of greedy play: the others' moves tell something
        game.apply(greedy.act(None, game.view(game.to_move)))
    view = game.view(game.to_move)
    agent = TressettePimcAgent(time_limit=None, max_worlds=8, infer=0.3)
    moves = []
    for _ in range(2):
        agent.reset(3)
        moves.append(agent.act(None, view))
    assert moves[0] == moves[1]
    worlds = agent.world_sampler(view)
    assert len(worlds.worlds) == 4 * agent.max_worlds
    assert sum(worlds.misses[:8]) < sum(worlds.misses[-8:])
