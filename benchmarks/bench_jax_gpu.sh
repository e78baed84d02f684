#!/usr/bin/env bash
# Every game's JAX engine on a GPU, in one run: what docs/jax.md's GPU table reports.
#
#     bash benchmarks/bench_jax_gpu.sh [OUTPUT_DIR] [SECONDS_PER_GAME]
#
# Needs JAX with a CUDA backend (pip install -e ".[jax]" "jax[cuda13]"). Each game runs in
# its own process under a time limit, Mediatore first (the headline figure) with the
# calibration loop, and writes OUTPUT_DIR/<game>.txt as it goes, so a run cut short still
# leaves what it measured. Then the differential tests run on the GPU: the engines must agree
# with the Python ones there as on the CPU (several processes share the GPU: no preallocation).
set -u
out=${1:-runs/gpu}
seconds=${2:-85}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
python3 -c "import jax; print('JAX', jax.__version__, jax.devices())" | tee "$out/devices.txt"
python3 -c "import jax, sys; sys.exit(jax.devices()[0].platform != 'gpu')" \
    || { echo "JAX sees no GPU: nothing measured"; exit 1; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee -a "$out/devices.txt"

bench() {  # game, seconds, extra arguments
    local game=$1 limit=$2
    shift 2
    timeout "$limit" python3 benchmarks/bench_jax.py --game "$game" --min-decisions 20000000 \
        --repeat 2 "$@" 2>&1 | tee "$out/$game.txt"
}
bench mediatore $((seconds * 2)) --batches 8192,65536,524288 --calibrate
for game in tressette tressette3 tressette2 club; do
    bench "$game" "$seconds" --batches 16384,131072
done
XLA_PYTHON_CLIENT_PREALLOCATE=false timeout 60 python3 -m pytest -q -n 8 \
    -p no:cacheprovider tests/test_jax_differential.py tests/test_jax_tressette.py \
    tests/test_jax_club.py -m "not slow" 2>&1 | tee "$out/differential.txt"
