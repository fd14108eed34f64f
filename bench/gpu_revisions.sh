#!/usr/bin/env bash
# On the GPU machine, after `python3 bench/gpu_kit_up.py`: issue 37's turn table (docs/gpu-run.md).
#
#   [SFT_ARGS=...] [TURNS_ARGS=...] bash bench/gpu_revisions.sh [EPISODES]
#
# Serves the environment (bench/gpu_serve.sh), teaches the policy the tool form (`watercolour sft`
# with trainer/configs/sft-tools.yaml: 48 warm-start sketches, 3 to an example, answered by the
# server's critiques) unless runs/sft-tools holds an adapter from an earlier call, or the one kept in
# the repository (docs/runs/sft-tools, copied there); then plays EPISODES (default 64) episodes of
# 3 paintings with it and scores every painting alone (bench/revision_turns.py). Leaves under $OUT: turns.json (the table, every turn's record),
# sft-tools.tar (the adapter and its provenance) and logs.tar. SFT_ARGS and TURNS_ARGS are added
# to the two commands (a check on a CPU: SFT_ARGS="--max_steps 1" TURNS_ARGS="--max-new-tokens 64").
set -euo pipefail
episodes=${1:-64}
. bench/gpu_serve.sh
out=${OUT:-/tmp/kit/out}
mkdir -p "$out" /tmp/kit/logs
status=0
if [ ! -f runs/sft-tools/adapter_model.safetensors ] && [ -f docs/runs/sft-tools/adapter_model.safetensors ]; then
  mkdir -p runs && cp -r docs/runs/sft-tools runs/
fi
if [ ! -f runs/sft-tools/adapter_model.safetensors ]; then
  timeout 300 watercolour sft --config trainer/configs/sft-tools.yaml --env_url http://127.0.0.1:8000 \
    ${SFT_ARGS:-} > /tmp/kit/logs/sft.log 2>&1 || status=$?
  grep -v "it/s]" /tmp/kit/logs/sft.log | tail -8
fi
if [ -f runs/sft-tools/adapter_model.safetensors ]; then
  tar -cf "$out/sft-tools.tar" runs/sft-tools/adapter_config.json runs/sft-tools/adapter_model.safetensors \
    runs/sft-tools/sft_provenance.json
  timeout 420 python3 bench/revision_turns.py --env-url http://127.0.0.1:8000 --adapter runs/sft-tools \
    --episodes "$episodes" --revisions 2 --out "$out/turns.json" ${TURNS_ARGS:-} 2>&1 | tee /tmp/kit/logs/turns.log || status=$?
fi
cp /tmp/kit/server.log /tmp/kit/logs/
tar -C /tmp/kit -cf "$out/logs.tar" logs
exit $status
