"""Records of deals played by the 0.1 code (flat layout), for tests/test_golden.py: each preset,
played by greedy agents and by one PIMC agent among greedy ones, with the tournament's packs,
dealers and agent seeds. PIMC runs with time_limit=None, so that its moves do not depend on
the machine's speed. Run from a checkout of the flat layout (commit 7f58a9e)."""
import json, sys
from agents import make_agent
from agents.base import play
from agents.tournament import deal_dealer, deal_pack, derive_seed
from mediatore_env.game import Deal
from mediatore_env.records import make_record
from mediatore_env.rules import PRESETS
from mediatore_env.encoding import observation


out = []
SEED = 2026
for p, preset in enumerate(PRESETS):
    for lineup in (["greedy"] * 4, ["pimc:time_limit=None", "greedy", "greedy", "greedy"], ["random"] * 4):
        for i in range(2 if not lineup[0].startswith("pimc") else 1):
            index = 10 * p + i
            deal = Deal(PRESETS[preset], deal_dealer(index), deal_pack(SEED, index))
            agents = [make_agent(name) for name in lineup]
            play(deal, agents, seeds=[derive_seed(SEED, index, s) for s in range(4)])
            out.append(make_record(deal, preset=preset, lineup=lineup, seed=SEED, index=index))
# Observations: a checksum of every seat's observation after every move of a few records.
import hashlib
from mediatore_env.records import replay
digests = []
for rec in out[:12]:
    deal = Deal(replay(rec).rules, rec["dealer"], rec["pack"])
    h = hashlib.sha256()
    for entry in rec["moves"]:
        for s in range(4):
            o = observation(deal.view(s)); h.update(o["observation"].tobytes()); h.update(o["action_mask"].tobytes())
        from mediatore_env.game import parse_move
        deal.apply(parse_move(entry["move"]))
    digests.append(h.hexdigest())
json.dump({"records": out, "observation_sha256": digests}, open(sys.argv[1], "w"), indent=0)
print(len(out), "records")
