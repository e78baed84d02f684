"""The network-agent base (agents/network_agent.py) that SelfPlayAgent and PPOAgent share: the
masked argmax or draw over the legal moves, seeding, copies, and the one-line errors of a saved
file that is missing or not what it should be."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from agents.network_agent import NetworkAgent, read_saved
from mediatore_env.mediatore.game import Deal


class FixedLogits(NetworkAgent):
    """Logits that do not depend on the observation; counts the network's calls."""

    def __init__(self, logits, **options):
        super().__init__(**options)
        self.fixed, self.calls = np.asarray(logits, np.float32), 0

    def policy_logits(self, observation):
        assert observation.shape == (2132,)
        self.calls += 1
        return self.fixed


def first_decision():
    """A deal's first view with a choice (the opening bids) and its legal moves."""
    deal = Deal(None, 0, list(range(40)))
    view = deal.view(deal.to_move)
    assert len(view.legal_moves()) > 2
    return view, view.legal_moves()


def test_deterministic_plays_the_best_legal_logit_not_an_illegal_one():
    view, legal = first_decision()
    logits = np.zeros(486)
    logits[max(legal) + 1] = 100.0  # illegal: never played
    logits[legal[1]] = 5.0
    assert FixedLogits(logits).act(None, view) == legal[1]


def test_draws_are_legal_seeded_and_follow_the_logits():
    view, legal = first_decision()
    logits = np.full(486, 50.0)  # the illegal moves would take every draw
    logits[legal] = 0.0
    logits[legal[0]] = np.log(3.0)  # three times as likely as each other legal move
    agent = FixedLogits(logits, deterministic=False)
    agent.reset(7)
    draws = [agent.act(None, view) for _ in range(2000)]
    assert set(draws) <= set(legal)
    share = draws.count(legal[0]) / len(draws)
    expected = 3 / (3 + len(legal) - 1)
    assert abs(share - expected) < 0.05, (share, expected)
    agent.reset(7)
    assert [agent.act(None, view) for _ in range(50)] == draws[:50]


def forced_decision(seed: int = 0):
    """The view of the first decision with one legal move in a deal played at random, bidding
    included (a thrown-in deal has none: the next deal is tried)."""
    rng = np.random.default_rng(seed)
    while True:
        deal = Deal(None, 0, rng.permutation(40).tolist())
        while not deal.is_over:
            legal = deal.legal_moves()
            if len(legal) == 1:
                return deal.view(deal.to_move), legal[0]
            deal.apply(legal[int(rng.integers(len(legal)))])


def test_a_forced_move_asks_no_network():
    view, move = forced_decision()
    agent = FixedLogits(np.zeros(486))
    assert agent.act(None, view) == move and agent.calls == 0


def test_a_copy_draws_what_the_original_would_and_shares_the_network():
    view, legal = first_decision()
    logits = np.zeros(486)
    agent = FixedLogits(logits, deterministic=False, seed=3)
    agent.act(None, view)  # mid-deal: the generator has moved on from its seed
    clone = copy.deepcopy(agent)
    assert clone.fixed is agent.fixed and clone.encoder is not agent.encoder
    assert [clone.act(None, view) for _ in range(20)] == [agent.act(None, view)
                                                           for _ in range(20)]


def test_read_saved_tries_the_suffixes_and_names_a_bad_file(tmp_path):
    (tmp_path / "model.zip").write_text("x")
    assert read_saved(tmp_path / "model", "A", "saved model", "a .zip", lambda f: f,
                      suffixes=("", ".zip")) == str(tmp_path / "model.zip")
    with pytest.raises(ValueError) as e:
        read_saved(tmp_path / "none", "A", "network", "a .npz of B", np.load)
    assert str(e.value) == f"A: no network at {str(tmp_path / 'none')!r} (path= takes a .npz of B)"
    (tmp_path / "notes.txt").write_text("a text file\n")
    with pytest.raises(ValueError) as e:
        read_saved(tmp_path / "notes.txt", "A", "network", "a .npz of B", np.load)
    assert str(e.value) == (f"A: {str(tmp_path / 'notes.txt')!r} is not a readable network "
                            "(path= takes a .npz of B)")

    def needs_a_package(path):
        raise ImportError("no torch")
    with pytest.raises(ImportError):  # a missing library is not a bad file
        read_saved(tmp_path / "notes.txt", "A", "network", "a .npz", needs_a_package)


def test_ppo_agent_names_a_file_that_is_not_a_model(tmp_path):
    pytest.importorskip("sb3_contrib")
    from agents.ppo_agent import PPOAgent
    for name, content in (("notes.txt", b"a text file\n"), ("net.zip", b"PK\x05\x06" + bytes(18))):
        (tmp_path / name).write_bytes(content)
        with pytest.raises(ValueError) as e:
            PPOAgent(str(tmp_path / name))
        assert str(e.value).startswith(f"PPOAgent: {str(tmp_path / name)!r} is not a readable "
                                       "saved model (path= takes the .zip written by model.save")
