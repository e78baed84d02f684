"""Contract value tables (mediatore_env.mediatore.tables): entries, the table policy, files,
command."""

import numpy as np
import pytest
from packs import mask

from mediatore_env import Rules
from mediatore_env.analysis.solver import reaches, solve
from mediatore_env.mediatore.tables import (ContractTable, build_table, call_candidates,
                                           contract_deal, contract_position, deal_of, plan_exchange,
                                           suit_score)
from mediatore_env.core.cards import parse_card, thirds_of
from mediatore_env.mediatore.nine_tricks import deal_hands
from mediatore_env.mediatore.moves import PLAY
from mediatore_env.mediatore.rules import (ARCISOLISSIMO, CHIAMO, CONTRACTS, MEDIATORE, SOLISSIMO,
                                           SOLO, payments)
from mediatore_env.tools.tables import main


@pytest.fixture(scope="module")
def exact():
    return build_table(1, seed=11)


@pytest.fixture(scope="module")
def quick():
    return build_table(3, seed=11, values="made", jobs=2)


def test_deals_are_the_tournament_deals():
    from agents.mediatore.tournament import HOOKS
    for i in range(5):
        assert deal_of(4, i) == (HOOKS.dealer(i, 4), HOOKS.pack(4, i, 0))


def test_entries_are_consistent(exact):
    hands, _ = deal_hands(exact.packs[0].tolist(), int(exact.dealers[0]))
    entries = exact.entries(0)
    assert len(entries) == sum(len(exact.call_cards(0, s, c)) for s in range(4)
                               for c in (CHIAMO, MEDIATORE)) + 4 * 3
    for e in entries:
        assert sum(e.payoffs) == 0
        assert e.made == (e.thirds >= 18)
        assert 0 <= e.thirds <= 35
        if e.called is not None:
            holder = next((s for s in range(4) if hands[s] >> e.called & 1), None)
            other = holder if holder not in (None, e.seat) else None
            assert (e.partner if e.contract == CHIAMO else e.giver) == other
            assert not hands[e.seat] >> e.called & 1
        assert e.payoffs == payments(exact.rules, e.contract, e.seat, e.partner, e.giver, e.made, False)
    # every seat has every contract
    assert {(e.seat, e.contract) for e in entries} == {(s, c) for s in range(4) for c in CONTRACTS}


def test_an_entry_is_the_solved_deal(exact):
    dealer, pack = deal_of(11, 0)
    for seat, contract in ((0, SOLO), (2, ARCISOLISSIMO), (3, MEDIATORE)):
        e = exact.entry(0, seat, contract)
        deal = contract_deal(Rules(), dealer, pack, seat, contract, e.called)
        pos = contract_position(deal)
        assert deal.phase == PLAY and not any(deal.tricks)
        assert pos.leader == deal.mano and pos.taken == 0
        assert pos.monte_thirds == thirds_of(deal.monte)
        assert solve(pos) == e.thirds
        assert reaches(pos, 18) == e.made


def test_made_only_tables_agree_with_exact_ones(exact):
    quick = build_table(1, seed=11, values="made")
    assert (quick.thirds == -1).all()
    assert np.array_equal(quick.made, exact.made)
    assert np.array_equal(quick.calls, exact.calls)
    assert quick.entry(0, 1, SOLISSIMO).thirds is None


def test_call_candidates():
    rules = Rules()
    hand = mask("D3 D2 DA C2 S7 S6 S5 B4 B5")
    assert call_candidates(rules, hand) == [parse_card(c) for c in ("DR", "C3", "S3", "B3")]
    assert len(call_candidates(rules, hand, "all")) == 40 - 9
    three = Rules(call_restriction="three")
    assert call_candidates(three, hand) == [parse_card(c) for c in ("C3", "S3", "B3")]
    all_threes = mask("D3 C3 S3 B3 D4 C4 S4 B4 D5")
    assert call_candidates(three, all_threes) == [parse_card("B3")]  # plays alone


def test_table_exchange_keeps_masters_and_is_legal():
    assert suit_score(0b1110000000) > suit_score(0b0110000000) > suit_score(0)
    hand = mask("D3 D2 DA DR C4 C5 C6 S4 S7 B3 B2 BA B4")
    removed, give = plan_exchange(hand, 4, False)
    assert removed.bit_count() == 4 and give is None and removed & ~hand == 0
    assert not removed & mask("D3 D2 DA DR B3 B2 BA")
    for seed in range(6):
        dealer, pack = deal_of(seed, 0)
        for contract, called in ((MEDIATORE, "B3"), (SOLO, None), (CHIAMO, "S3")):
            card = parse_card(called) if called else None
            deal = contract_deal(Rules(), dealer, pack, seed % 4, contract, card)
            assert deal.phase == PLAY and deal.discards.bit_count() == 4
            assert [h.bit_count() for h in deal.hands] == [9, 9, 9, 9]
            if deal.giver is not None:
                assert deal.given_back is not None


@pytest.mark.parametrize("hand,discards,removed,given", [
    ("D3 D2 DA DR C4 C5 C6 S4 S7 B3 B2 BA B4", "C6 C5 C4 S7", "C6 C5 C4 S7 S4", "S4"),
    ("D3 DA D7 D4 C2 CF C5 SR S6 B2 BC B6 B5", "C2 CF C5 SR", "C2 CF C5 SR S6", "S6"),
    ("DC D6 C3 CA CR C7 S3 S2 SA SC S5 BA BF", "DC D6 BA BF", "DC D6 CR BA BF", "D6"),
])
def test_the_table_policy_is_frozen(hand, discards, removed, given):
    """The table policy's choices as the 0.1 code made them (tables must stay reproducible):
    the 4 discards, and in Mediatore the 5 cards removed with the one passed back."""
    assert plan_exchange(mask(hand), 4, False) == (mask(discards), None)
    assert plan_exchange(mask(hand), 5, True) == (mask(removed), parse_card(given))


def test_save_load_and_concatenate(tmp_path, quick):
    path = tmp_path / "t.npz"
    quick.save(path)
    back = ContractTable.load(path)
    assert len(back) == 3 and back.rules == quick.rules and back.seed == 11
    assert back.values == "made" and back.call_mode == "top"
    for i in range(3):
        assert back.entries(i) == quick.entries(i)
        assert back.deal(i).pack == quick.deal(i).pack
    both = ContractTable.concatenate([quick, back])
    assert len(both) == 6 and both.entries(4) == quick.entries(1)
    assert path.stat().st_size < 3 * 600
    (tmp_path / "bad.npz").write_bytes(b"not a table")
    with pytest.raises(Exception):
        ContractTable.load(tmp_path / "bad.npz")


def test_jobs_do_not_change_the_table(quick):
    one = build_table(3, seed=11, values="made", jobs=1)
    assert np.array_equal(one.made, quick.made) and np.array_equal(one.calls, quick.calls)


def test_entry_errors(quick):
    with pytest.raises(ValueError, match="not tabled"):
        quick.entry(0, 0, CHIAMO, called=next(c for c in range(40)
                                              if c not in quick.call_cards(0, 0, CHIAMO)))
    with pytest.raises(ValueError, match="has no call"):
        quick.entry(0, 0, SOLO, called=3)


def test_command_line(tmp_path, capsys):
    path = str(tmp_path / "cli.npz")
    assert main(["build", "--deals", "2", "--seed", "5", "--jobs", "2", "--values", "made",
                 "--out", path, "--progress"]) == 0
    out, err = capsys.readouterr()
    assert "2/2 deals" in err and "wrote" in out and "chiamo" in out
    assert main(["build", "--deals", "2", "--seed", "5", "--values", "made", "--out", path]) == 0
    out, err = capsys.readouterr()  # stderr is no terminal here: no bar unless asked
    assert err == "" and "wrote" in out
    assert main(["show", path]) == 0
    assert "2 deals, seed 5" in capsys.readouterr().out
    assert main(["show", path, "--deal", "1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("deal 1: dealer 1") and "seat 3 arcisolissimo" in text
    assert main(["show", path, "--deal", "7"]) == 2
    one = str(tmp_path / "one.npz")
    assert main(["build", "--deals", "1", "--seed", "5", "--values", "made", "--out", one]) == 0
    capsys.readouterr()
    assert main(["show", one]) == 0
    assert capsys.readouterr().out.startswith("1 deal, seed 5")
    with pytest.raises(SystemExit) as e:  # checked with the arguments (tests/test_cli_errors.py)
        main(["show", str(tmp_path / "missing.npz")])
    assert e.value.code == 2
