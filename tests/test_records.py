"""Game records: the JSON document, replay, and tampered records refused."""

import copy
import json

import pytest
from packs import SIX_DENARI, SIX_DENARI_MONTE, make_deal, play, play_tricks

from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.records import load_record, make_record, replay, save_record
from mediatore_env.mediatore.rules import Rules

# The Mediatore deal of test_scoring: seat 1 gives C3, seat 0 wins 18 thirds to 17.
TRICKS = ("D3 C7 S7 B7", "D2 C6 S6 B6", "DA C5 S5 B2", "DR CF SF BF", "DC CC SC BC",
          "DF CR SR BR", "C4 C3 S3 B3", "C2 S2 B5 S4", "CA SA BA B4")


def finished():
    deal = make_deal(SIX_DENARI, SIX_DENARI_MONTE)
    play(deal, "bid mediatore", "pass", "pass", "pass", "call C3",
         "discard D7", "discard D6", "discard D5", "discard D4", "give C3")
    play(deal, "play D3 busso")
    play_tricks(deal, *(TRICKS[0].split(" ", 1)[1],), *TRICKS[1:])
    return deal


def test_record_contents():
    deal = finished()
    record = make_record(deal, table="t1")
    assert record["format"] == "mediatore-record" and record["version"] == 1
    assert record["dealer"] == 3 and record["rules"] == Rules().to_dict()
    assert record["hands"][0] == "D3 D2 DA DR DC DF C4 S4 B4".split()
    assert record["moves"][0] == {"seat": 0, "move": "bid mediatore"}
    assert record["moves"][10] == {"seat": 0, "move": "play D3 busso"}
    assert len(record["moves"]) == 4 + 1 + 4 + 1 + 36
    result = record["result"]
    assert result["contract"] == "mediatore" and result["declarer"] == 0
    assert result["giver"] == 1 and result["given_back"] == "C3" and result["partner"] is None
    assert result["monte"] == "D7 D6 D5 D4".split() and result["discards"] == result["monte"]
    assert result["thirds"] == [18, 17] and result["scores"] == [6, 5]
    assert result["declarer_won"] is True and result["capotto"] is False
    assert result["payoffs"] == [22, -6, -8, -8]  # docs/rules.md 7: giver 6, others 8
    assert result["tricks"][0] == {"leader": 0, "cards": ["D3", "C7", "S7", "B7"],
                                   "signal": "busso", "winner": 0}
    assert record["meta"] == {"table": "t1"}
    json.dumps(record)  # plain JSON


def test_replay_round_trip(tmp_path):
    deal = finished()
    record = make_record(deal)
    assert replay(record) == deal
    path = tmp_path / "deal.json"
    save_record(record, path)
    assert load_record(path) == record
    assert replay(load_record(path)) == deal


def test_thrown_in_record():
    deal = play(make_deal(SIX_DENARI, SIX_DENARI_MONTE), "pass", "pass", "pass", "pass")
    record = make_record(deal)
    assert record["result"] == {"thrown_in": True, "payoffs": [0, 0, 0, 0]}
    assert replay(record) == deal


def test_unfinished_deal_has_no_record():
    with pytest.raises(ValueError, match="not over"):
        make_record(play(make_deal(SIX_DENARI, SIX_DENARI_MONTE), "pass"))


def tampered(change):
    record = copy.deepcopy(make_record(finished()))
    change(record)
    return record


@pytest.mark.parametrize("change,words", [
    (lambda r: r["result"].__setitem__("payoffs", [23, -7, -8, -8]), ["payoffs", "23"]),
    (lambda r: r["result"].__setitem__("declarer_won", False), ["declarer_won"]),
    (lambda r: r["result"]["tricks"][0].__setitem__("winner", 1), ["tricks"]),
    (lambda r: r["moves"][1].__setitem__("seat", 2), ["move 1", "seat 2", "seat 1 is to move"]),
    # C4 led instead of D3: seat 1's C7 wins trick 1, so seat 0's next lead is out of turn
    (lambda r: r["moves"][10].__setitem__("move", "play C4"), ["move 14", "seat 1 is to move"]),
    (lambda r: r["moves"][11].__setitem__("move", "play D2"), ["move 11", "illegal"]),
    (lambda r: r["moves"].pop(), ["do not finish"]),
    (lambda r: r["moves"].append({"seat": 0, "move": "pass"}), ["move 46"]),
    (lambda r: r["hands"][0].__setitem__(0, "C3"), ["hands"]),
    (lambda r: r.__setitem__("dealer", 0), []),
    (lambda r: r.__setitem__("format", "chess"), ["format"]),
    (lambda r: r.__setitem__("version", 2), ["version"]),
    (lambda r: r["rules"].__setitem__("signals", "off"), ["move 10", "illegal"]),
])
def test_tampered_record_fails(change, words):
    with pytest.raises(ValueError) as e:
        replay(tampered(change))
    for word in words:
        assert word in str(e.value)


def test_meta_is_ignored():
    record = tampered(lambda r: r.__setitem__("meta", {"anything": [1, 2]}))
    assert replay(record) == finished()


def test_to_json_round_trip_mid_deal():
    deal = finished()
    for n in range(len(deal.history) + 1):
        partial = Deal(deal.rules, deal.dealer, deal.pack)
        for _, move in deal.history[:n]:
            partial.apply(move)
        data = json.loads(json.dumps(partial.to_json()))
        assert Deal.from_json(data) == partial
