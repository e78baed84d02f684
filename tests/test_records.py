"""Game records: the one format of every game (its header, the one replay, version 1 records
still read), Mediatore's record body, and tampered records refused."""

import copy
import json
import random
import re

import pytest
from packs import SIX_DENARI, SIX_DENARI_MONTE, make_deal, play, play_tricks

import mediatore_env
from mediatore_env import registry
from mediatore_env.core.game import Game
from mediatore_env.core.records import FORMAT, VERSION, body
from mediatore_env.registry import definition_of, replay
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.records import load_record, make_record, save_record
from mediatore_env.mediatore.rules import Rules
from mediatore_env.registry import GAMES, make

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
    assert record == deal.record(table="t1")
    assert list(record)[:3] == ["format", "game", "version"]
    assert (record["format"], record["game"], record["version"]) == (FORMAT, "mediatore", 2)
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
    (lambda r: r.__setitem__("version", 3), ["version 3"]),
    (lambda r: r.__setitem__("version", 1), ["version 1"]),  # version 1 had its own format
    (lambda r: r.update(format="mediatore-record", version=2), ["version 2", "mediatore-record"]),
    (lambda r: r["rules"].__setitem__("signals", "off"), ["move 10", "illegal"]),
])
def test_tampered_record_fails(change, words):
    record = tampered(change)
    for reader in (replay, Deal.replay):
        with pytest.raises(ValueError) as e:
            reader(record)
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


# -- one record format for every game ------------------------------------------------------------

def random_game(name, seed):
    """A game of ``name`` played to its end by random moves over random packs."""
    rng = random.Random(seed)
    game = make(name, dealer=seed % GAMES[name].players)
    while not game.is_over:
        if game.needs_pack:
            game.deal(rng.sample(range(40), 40))
        else:
            game.apply(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_writes_the_common_header_and_replays_its_record(name, tmp_path):
    for seed in range(3):
        game = random_game(name, seed)
        assert isinstance(game, Game)
        record = game.record(seed=seed, agents=["random"] * game.players)
        assert list(record)[:3] == ["format", "game", "version"]
        assert (record["format"], record["game"], record["version"]) == (FORMAT, name, VERSION)
        assert record["meta"] == {"seed": seed, "agents": ["random"] * game.players}
        assert type(game).replay(record) == game
        assert replay(record) == game and definition_of(record) is GAMES[name]
        path = tmp_path / f"{name}.json"
        save_record(record, path)
        assert replay(load_record(path)) == game and load_record(path) == record


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_games_replay_names_a_field_missing_or_of_the_wrong_kind(name):
    """The one replay answers any record with ``ValueError`` (its promise): a record without
    its rules, or whose moves are no list, raised the engine's KeyError or TypeError."""
    record = random_game(name, 3).record()
    for field in ("rules", "dealer", "moves"):
        copied = copy.deepcopy(record)
        holder = copied["deals"][0] if "deals" in copied else copied  # club's are per deal
        if field == "moves":
            holder["moves"] = None
        else:
            del copied[field]
        with pytest.raises(ValueError, match=f"'{field}'|NoneType"):
            replay(copied)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_games_replay_refuses_a_move_that_names_no_seats_number(name):
    """A record names the seat of every move; ``true`` and ``1.0`` equal seat 1 in Python but
    are no seat's number, and a null seat is none: each is refused, naming the move."""
    record = random_game(name, 2).record()
    for seat in (True, 1.0, None, "1"):
        broken = json.loads(json.dumps(record))
        moves = broken["deals"][0]["moves"] if "deals" in broken else broken["moves"]
        index = next(i for i, m in enumerate(moves) if m["seat"] == 1)
        moves[index]["seat"] = seat
        with pytest.raises(ValueError, match=rf"move {index} \({moves[index]['move']!r}\) is "
                                             rf"recorded for seat {re.escape(repr(seat))}, not a "
                                             "seat's number"):
            replay(broken)


@pytest.mark.parametrize("name", sorted(n for n, e in GAMES.items() if e.record_format))
def test_a_version_1_record_of_every_game_replays_to_the_same_game(name):
    game = random_game(name, 5)
    record = game.record(seed=5)
    old = {"format": GAMES[name].record_format, "version": 1, **body(record)}
    assert type(game).replay(old) == game and replay(old) == game
    assert body(replay(old).record(seed=5)) == body(old)
    with pytest.raises(ValueError, match="unsupported record version 2 of format"):
        replay({**old, "version": 2})


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_engine_refuses_another_games_record(name):
    other = "club" if name != "club" else "mediatore"
    record = random_game(other, 1).record()
    with pytest.raises(ValueError, match="not a .*record: game is"):
        GAMES[name].engine.replay(record)


def test_a_tressette_record_must_be_of_the_form_its_rules_say():
    record = random_game("tressette3", 2).record()
    with pytest.raises(ValueError, match="the record is of tressette2, but its rules are "
                                         "tressette3's"):
        replay({**record, "game": "tressette2"})


@pytest.mark.parametrize("record,words", [
    ([1, 2], "not a game record: a JSON object is expected, not list"),
    ({"format": "chess-pgn"}, "not a game record: format is 'chess-pgn', expected "
                              "'mediatore-env-record' (or, version 1, one of mediatore-record"),
    ({"format": FORMAT, "game": "bridge", "version": 2}, "unknown game 'bridge'; valid: "),
])
def test_the_one_replay_names_what_is_not_a_record(record, words):
    with pytest.raises(ValueError) as e:
        replay(record)
    assert words in str(e.value)


def test_the_old_paths_give_the_one_replay():
    assert mediatore_env.replay is registry.replay
    from mediatore_env.club import records as club_records
    from mediatore_env.mediatore import records as mediatore_records
    assert mediatore_records.replay is club_records.replay is replay
