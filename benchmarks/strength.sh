#!/usr/bin/env bash
# The headline strength tables of the docs, in the reproducible mode: every search agent on its
# default work budget (worlds and solver nodes, docs/agents.md#budgets), so each command prints
# the same table on any machine and with any --jobs; only the times differ.
#
#     bash benchmarks/strength.sh [OUTPUT_DIR] [JOBS]
#
# Each run writes OUTPUT_DIR/<name>.txt (the table) and <name>.json (every episode, for paired
# comparisons), one after the other, so a run cut short keeps what it measured; a name already
# there is skipped. On the 2-core AMD EPYC where the docs' tables were made, one job each, the
# runs took from 1 minute (the Tressette forms against random) to an hour (infer-pimc), about
# 3.5 hours in all; --jobs 2 halves that and changes no figure.
#
# Where each table is: pimc1 and pimc3 in docs/strength.md and docs/pimc.md, infer1 (paired
# with pimc1: same seed, same deals) and infer-pimc in docs/infer.md, the Tressette forms and
# club in docs/search.md; docs/strength.md sums them up.
set -eu
out=${1:-runs/strength}
jobs=${2:-2}
mkdir -p "$out"
here=$(dirname "$0")

run() {  # name, command...
    local name=$1
    shift
    [ -s "$out/$name.txt" ] && { echo "$name: already in $out"; return; }
    echo "$name: $*"
    "$@" --jobs "$jobs" --json "$out/$name.json" > "$out/$name.tmp" && mv "$out/$name.tmp" "$out/$name.txt"
    tail -n 12 "$out/$name.txt"
}

# Mediatore: PIMC against greedy, alone and three of it; pimc-infer on pimc1's deals and at a
# table of three pimc (issue 38's measure).
run pimc1 python3 "$here/bench_pimc.py" --lineup pimc-1 --deals 1000 --seed 4401
run pimc3 python3 "$here/bench_pimc.py" --lineup pimc-3 --deals 600 --seed 4402
run infer1 python3 "$here/bench_pimc.py" --lineup pimc-1 --pimc pimc-infer --deals 1000 --seed 4401
run infer-pimc mediatore-bench --agents pimc-infer pimc pimc pimc --deals 1000 --seed 3901
# The family's PIMC against greedy.
run t2-greedy mediatore-bench --game tressette2 --agents pimc greedy --deals 20 --seed 4507
run t3-greedy mediatore-bench --game tressette3 --agents pimc greedy greedy --deals 20 --seed 4505
run t-greedy mediatore-bench --game tressette --agents pimc greedy pimc greedy --deals 30 --seed 4503
run t2-low mediatore-bench --game tressette2 --agents pimc greedy --rule low=true --deals 20 --seed 4508
run t3-low mediatore-bench --game tressette3 --agents pimc greedy greedy --rule low=true --deals 40 --seed 4506
run t-low mediatore-bench --game tressette --agents pimc greedy pimc greedy --rule low=true --deals 40 --seed 4504
run t2-random mediatore-bench --game tressette2 --agents pimc random --deals 10 --seed 4511
run t3-random mediatore-bench --game tressette3 --agents pimc random random --deals 10 --seed 4510
run t-random mediatore-bench --game tressette --agents pimc random pimc random --deals 10 --seed 4509
run club-greedy mediatore-bench --game club --agents pimc greedy greedy greedy --deals 500 --seed 4412
python3 "$here/bench_infer.py" --paired "$out/infer1.json:pimc-infer" "$out/pimc1.json:pimc" \
    | tee "$out/infer1-paired.txt"
