"""club_mediatore_v0: PettingZoo's own tests, seeding and deal injection, rewards that are the
chip changes, refusals, and observations that leak nothing a seat cannot know."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from mediatore_env.club.game import Session
from mediatore_env.club.moves import ACCEPT, AUCTION, CALL, DISCARD_BASE, END, PASS, PHASE_NAMES, PLAY_BASE
from mediatore_env.club.records import replay
from mediatore_env.club.rules import ClubRules
from mediatore_env.core.cards import CARD_NAMES, parse_card
from mediatore_env.club.observation import OBSERVATION_SIZE, layout_table, write_observation
from mediatore_env.club import club_mediatore_v0
from tests.test_club_game import STRONG, WEAK


def play(env, rng: random.Random, accept_rate: float = 0.5):
    """Random legal play to the end of the episode; the rewards each agent got, in order."""
    got = {a: [] for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        got[agent].append(reward)
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        if legal == [PASS, ACCEPT]:
            env.step(ACCEPT if rng.random() < accept_rate else PASS)
        else:
            env.step(rng.choice(legal))
    return got


@pytest.mark.parametrize("make", [club_mediatore_v0.env, club_mediatore_v0.raw_env])
def test_pettingzoo_api_test(make):
    api_test(make(), num_cycles=300)
    api_test(make(deals=3, ante=2), num_cycles=300)


def test_pettingzoo_seed_test():
    seed_test(club_mediatore_v0.env, num_cycles=100)
    seed_test(club_mediatore_v0.raw_env, num_cycles=100)


def test_pettingzoo_render_test(capsys):
    render_test(club_mediatore_v0.env)
    render_test(lambda render_mode: club_mediatore_v0.env(render_mode=render_mode, render_all=True))
    assert "club_mediatore_v0" in capsys.readouterr().out  # human mode printed the table


def test_registered_with_pettingzoo():
    import pettingzoo
    env = pettingzoo.make("aec", "mediatore/club-mediatore-v0", ante=3)
    assert str(env) == "club_mediatore_v0" and env.unwrapped.rules == ClubRules(ante=3)


def test_rewards_are_the_chip_changes_and_sum_to_the_session():
    rng = random.Random(5)
    for seed in range(12):
        env = club_mediatore_v0.env(deals=None if seed % 2 else 4)
        env.reset(seed=seed)
        got = play(env, rng)
        session = env.unwrapped.session
        assert session.is_over
        totals = [sum(got[a]) for a in env.possible_agents]
        assert totals == session.chips and sum(totals) == 0
        assert replay(env.unwrapped.record) == session


def test_normalized_rewards_are_in_units_of_the_first_pot():
    plain_env = club_mediatore_v0.env(ante=5)
    scaled = club_mediatore_v0.env(ante=5, normalize_rewards=True)
    plain_env.reset(seed=3)
    scaled.reset(seed=3)
    a, b = play(plain_env, random.Random(1)), play(scaled, random.Random(1))
    for agent in a:
        assert [x / 20 for x in a[agent]] == pytest.approx(b[agent])


def test_options_inject_the_packs_and_the_dealer():
    env = club_mediatore_v0.raw_env(deals=2)
    env.reset(options={"packs": [STRONG, " ".join(CARD_NAMES[c] for c in WEAK)],
                       "dealer": "player_3"})
    session = env.session
    assert session.dealer == 3 and session.pack == tuple(STRONG) and env.agent_selection == "player_0"
    for action in (ACCEPT, 2):  # accept, alone
        env.step(action)
    assert session.mediator == 0 and session.alone
    while session.deal_number == 1:
        env.step(session.legal_moves()[0])
    assert session.pack == tuple(WEAK) and session.dealer == 0  # the second pack, the deal passed on
    with pytest.raises(ValueError, match="bad pack"):
        env.reset(options={"packs": [list(range(39))]})
    with pytest.raises(ValueError, match="bad dealer 7"):
        env.reset(options={"dealer": 7})
    with pytest.raises(ValueError, match="a list of packs"):
        env.reset(options={"packs": "D3 D2"})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env.reset(options={"deck": STRONG})
    assert "ignoring unknown option(s) 'deck'" in str(caught[0].message)
    # "pack" is the first deal's alone, as in every environment of the family
    env.reset(options={"pack": STRONG, "dealer": 3})
    assert env.unwrapped.game.packs[0] == tuple(STRONG)
    with pytest.raises(ValueError, match="give packs .* or pack .*, not both"):
        env.reset(options={"pack": STRONG, "packs": [STRONG]})


def test_seeds_reproduce_sessions():
    def moves(seed):
        env = club_mediatore_v0.raw_env()
        env.reset(seed=seed)
        play(env, random.Random(0))
        return env.session.to_json()
    assert moves(4) == moves(4) and moves(4) != moves(5)


def test_raw_env_refuses_illegal_actions_and_changes_nothing():
    env = club_mediatore_v0.raw_env()
    env.reset(options={"packs": [STRONG], "dealer": 3})
    before = env.session.clone()
    for bad, message in ((2, r"illegal action 2 \(alone\) for player_0 in phase auction; legal "
                             r"actions: 0 \(pass\), 1 \(accept\)"),
                         (1.0, "not floats"), (123, "integers 0..122"), ("accept", "parse_move")):
        with pytest.raises(ValueError, match=message):
            env.step(bad)
    assert env.session == before
    with pytest.raises(TypeError, match="valid: rules, render_mode"):
        club_mediatore_v0.raw_env(signals="off")
    with pytest.raises(ValueError, match="'ante'"):
        club_mediatore_v0.raw_env(ante=0)


def test_env_illegal_action_ends_the_episode_with_a_penalty():
    env = club_mediatore_v0.env()
    env.reset(seed=1)
    agent = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(50)
    assert all(env.terminations.values()) and env.rewards[agent] == -1


def test_render_shows_the_acting_seat():
    env = club_mediatore_v0.env(render_mode="ansi")
    env.reset(options={"packs": [STRONG], "dealer": 3})
    text = env.render()
    assert "player_0 (seat 0)" in text and "pot 20" in text and "C3" in text and "CF" not in text


def test_documented_tables_match_the_code():
    doc = club_mediatore_v0.__doc__
    assert layout_table() in doc and f"({OBSERVATION_SIZE},)" in doc
    assert f"Discrete({club_mediatore_v0.NUM_MOVES})" in doc
    for first, last, text in ((0, 0, "pass"), (1, 1, "accept"), (2, 2, "alone"),
                              (3, 42, "call"), (43, 82, "discard"), (83, 122, "play")):
        ids = f"| {first} |" if first == last else f"| {first} - {last} |"
        assert ids in doc
        assert club_mediatore_v0.move_text(first).startswith(text)
        assert club_mediatore_v0.move_text(last).startswith(text)


# -- leaks --------------------------------------------------------------------------------------

def knowledge(session: Session, seat: int):
    """Everything ``seat`` knows of a one-deal session, as a comparable value: the rules, the
    dealer, its own cards as dealt, every move (the mediator's discards hidden from the others
    until the play ends), the widow if it is the mediator who took it, and whether the
    mediator plays alone (announced, or known from the widow when he takes it)."""
    over = session.phase == END
    moves = []
    for who, move in session.history:
        if DISCARD_BASE <= move < PLAY_BASE and seat != session.mediator and not over:
            move = "a discard"
        moves.append((who, move))
    first = next((i for i, (_, m) in enumerate(moves) if m == "a discard" or
                  isinstance(m, int) and DISCARD_BASE <= m < PLAY_BASE), None)
    if first is not None:  # the order of the discards tells nothing: the observation has the set
        moves[first:first + 4] = sorted(moves[first:first + 4], key=str)
    taken = session.mediator is not None and session.phase not in (AUCTION, CALL)
    dealt = Session(session.rules, session.dealer, [session.pack]).hands[seat]
    return (session.rules, session.dealer, seat, dealt, tuple(moves),
            session.widow if taken and seat == session.mediator else None,
            session.alone if taken else None)


def random_moves(rng: random.Random, pack, dealer):
    session = Session(ClubRules(deals=1), dealer, [pack])
    while not session.is_over:
        legal = session.legal_moves()
        if session.phase == AUCTION:
            session.apply(ACCEPT if rng.random() < 0.4 else PASS)
        elif session.phase == CALL and rng.random() < 0.3:
            session.apply(legal[0])  # alone
        else:
            session.apply(rng.choice(legal))
    return [m for _, m in session.history]


def replayed(pack, dealer, moves):
    session = Session(ClubRules(deals=1), dealer, [pack])
    for move in moves:
        if not session.is_legal(move):
            return None
        session.apply(move)
    return session


def test_observations_depend_on_knowledge_only():
    rng = random.Random(2026)
    same = set()
    for game in range(60):
        pack = list(range(40))
        rng.shuffle(pack)
        dealer = rng.randrange(4)
        moves = random_moves(rng, pack, dealer)
        for k in sorted({0, len(moves), *rng.sample(range(len(moves) + 1), min(5, len(moves) + 1))}):
            base = replayed(pack, dealer, moves[:k])
            for _ in range(10):  # another pack: two of its cards swapped
                i, j = rng.sample(range(40), 2)
                other_pack = pack[:]
                other_pack[i], other_pack[j] = other_pack[j], other_pack[i]
                other = replayed(other_pack, dealer, moves[:k])
                if other is None:
                    continue
                for seat in range(4):
                    if knowledge(base, seat) == knowledge(other, seat):
                        a = write_observation(base.view(seat))
                        b = write_observation(other.view(seat))
                        assert np.array_equal(a, b), \
                            f"leak: seat {seat} in {PHASE_NAMES[base.phase]} after {k} moves"
                        same.add(PHASE_NAMES[base.phase])
    assert same == {"auction", "call", "discard", "play", "end"}


def test_the_secret_partner_stays_secret_until_the_called_card_is_played():
    # Dealer 3, seat 0 mediator calls DR, held by seat 2; swap DR with a card of seat 3's.
    swapped = STRONG[:]
    dr, cr = STRONG.index(parse_card("DR")), STRONG.index(parse_card("CR"))
    swapped[dr], swapped[cr] = swapped[cr], swapped[dr]  # now seat 3 holds DR, seat 2 CR
    a = Session(ClubRules(), 3, [STRONG])
    b = Session(ClubRules(), 3, [swapped])
    for s in (a, b):
        for text in ("accept", "call DR", "discard D3", "discard D2", "discard DA", "discard B7"):
            s.apply_text(text)
    assert a.partner == 2 and b.partner == 3
    for view in (lambda s: s.view(0), lambda s: s.view(1)):  # the mediator, a defender
        assert np.array_equal(write_observation(view(a)), write_observation(view(b)))
    a.apply_text("play C3")
    b.apply_text("play C3")
    assert np.array_equal(write_observation(a.view(1)), write_observation(b.view(1)))


def test_the_page_is_generated_from_the_docstring():
    from mediatore_env import __main__ as cli
    path = cli.DOCS.with_name("environment-club_mediatore_v0.md")
    page = cli.env_pages()[path]
    assert club_mediatore_v0.__doc__.strip() in page and "| 122 | `play" in page
    assert path.read_text() == page, "run: python -m mediatore_env docs"
