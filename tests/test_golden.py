"""Deals played and recorded by the 0.1 code (the flat layout, before the layered package), kept
in tests/data/records_0_1.json by tests/data/make_records_0_1.py: every preset, played by greedy
agents, by one PIMC agent among greedy ones, and by random agents.

The current code must replay each record bit-exactly (they are version 1 records, of format
"mediatore-record": a record written now is the same but for the common header), the same agents with the same seeds must
choose the same moves, and every seat's observation after every move must hash the same,
whether written by the plain writer or by the environment's incremental Encoders.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from agents import make_agent, play
from agents.mediatore.tournament import HOOKS
from agents.tournament import derive_seed
from mediatore_env import Deal, parse_move, replay
from mediatore_env.core.records import body, header
from mediatore_env.mediatore.observation import Encoder, Table, action_mask, observation
from mediatore_env.mediatore.rules import PRESETS

DATA = json.loads((Path(__file__).parent / "data" / "records_0_1.json").read_text())
RECORDS = DATA["records"]


def test_the_stored_records_cover_every_preset_and_lineup():
    assert {r["meta"]["preset"] for r in RECORDS} == set(PRESETS)
    assert {r["meta"]["lineup"][0] for r in RECORDS} == {"greedy", "pimc:time_limit=None", "random"}


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"{r['meta']['preset']}-{r['meta']['index']}-{r['meta']['lineup'][0]}")
def test_records_of_0_1_replay_bit_exactly(record):
    assert (record["format"], record["version"]) == ("mediatore-record", 1)
    deal = replay(record)
    assert deal.record(**record["meta"]) == {**header("mediatore"), **body(record)}


@pytest.mark.parametrize("record", [r for r in RECORDS if not r["meta"]["lineup"][0].startswith("pimc")],
                         ids=lambda r: f"{r['meta']['preset']}-{r['meta']['index']}-{r['meta']['lineup'][0]}")
def test_the_agents_still_choose_the_same_moves(record):
    meta = record["meta"]
    seed, index = meta["seed"], meta["index"]
    deal = Deal(PRESETS[meta["preset"]], HOOKS.dealer(index, 4), HOOKS.pack(seed, index, 0))
    play(deal, [make_agent(name) for name in meta["lineup"]],
         seeds=[derive_seed(seed, index, s) for s in range(4)])
    assert body(deal.record(**meta)) == body(record)


@pytest.mark.parametrize("record", [r for r in RECORDS if r["meta"]["lineup"][0].startswith("pimc")],
                         ids=lambda r: f"{r['meta']['preset']}-{r['meta']['index']}")
def test_pimc_still_chooses_the_same_moves(record):
    test_the_agents_still_choose_the_same_moves(record)


def plain_observer(deal):
    """observation(view): the plain writer, from scratch each time."""
    return lambda seat: observation(deal.view(seat))


def encoder_observer(deal):
    """The env's way: four Encoders sharing a Table, kept along the deal."""
    table = Table()
    encoders, views = [Encoder(table) for _ in range(4)], [deal.view(seat) for seat in range(4)]
    return lambda seat: {"observation": encoders[seat].encode(views[seat]),
                         "action_mask": action_mask(views[seat])}


@pytest.mark.parametrize("observer", [plain_observer, encoder_observer], ids=["plain", "encoder"])
@pytest.mark.parametrize("k", range(len(DATA["observation_sha256"])))
def test_observations_hash_as_in_0_1(k, observer):
    record = RECORDS[k]
    deal = Deal(replay(record).rules, record["dealer"], record["pack"])
    observe = observer(deal)
    h = hashlib.sha256()
    for entry in record["moves"]:
        for seat in range(4):
            o = observe(seat)
            h.update(o["observation"].tobytes())
            h.update(o["action_mask"].tobytes())
        deal.apply(parse_move(entry["move"]))
    assert h.hexdigest() == DATA["observation_sha256"][k]
