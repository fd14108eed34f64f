#!/usr/bin/env bash
# On the GPU machine, after `python3 bench/gpu_kit_up.py`: serves the environment on this
# machine's cores and runs GRPO against it (docs/gpu-run.md).
#
#   [TRAIN_SECONDS=420] bash bench/gpu_learn.sh [CONFIG] [-- train arguments, e.g. --resume_from_checkpoint last]
#
# The server serves the proxy half of the starter pool and reports the gold half beside it
# (`watercolour pool split`, seed 0). A checkpoint carried in as parts (runs/ckpt-in/part-* and
# SHA256SUMS, as an earlier call wrote them under $OUT/ckpt) is joined into the run's folder first.
# At the end the run's record (rollouts without PNGs, curve, config, logs) goes under
# $OUT/record, and its last checkpoint with the rollouts, in parts of 15 MiB, under $OUT/ckpt.
set -euo pipefail
config=${1:-trainer/configs/h200-learn.yaml}
shift || true
[ "${1:-}" = "--" ] && shift
. /tmp/kit/env.sh
run_dir=$(sed -n 's/^output_dir: *//p' "$config")
mkdir -p "$run_dir"
if compgen -G "runs/ckpt-in/part-*" > /dev/null; then
  (cd runs/ckpt-in && sha256sum -c --quiet SHA256SUMS)
  cat runs/ckpt-in/part-* | tar x -C "$run_dir"
  rm -rf runs/ckpt-in
fi
[ -d /tmp/kit/split ] || watercolour pool split /tmp/kit/split
export WATERCOLOUR_POOL=/tmp/kit/split/proxy WATERCOLOUR_GOLD_POOL=/tmp/kit/split/gold
watercolour serve --port 8000 > /tmp/kit/server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 120); do
  curl -sf http://127.0.0.1:8000/health > /dev/null && break
  kill -0 $server 2>/dev/null || { tail -20 /tmp/kit/server.log; exit 1; }
  sleep 1
done
curl -s http://127.0.0.1:8000/health | head -c 600; echo
status=0
# A call ends at 10 minutes: the trainer saves and stops at the end of the step it is in once
# TRAIN_SECONDS (default 420) have passed since its training began; a hard stop 150 s later keeps
# time to pack what it made (a step takes about 40 s, the first after a start about 120 s)
train_s=${TRAIN_SECONDS:-420}
timeout --signal=INT $((train_s + 150)) watercolour train --config "$config" --stop_after_s "$train_s" "$@" 2>&1 \
  | tee /tmp/kit/train.log || status=$?
out=${OUT:-/tmp/kit/out}
mkdir -p "$out/record" "$out/ckpt"
cp "$config" "$out/record/config.yaml"
cp /tmp/kit/train.log /tmp/kit/server.log "$out/record/"
cp "$run_dir"/rollouts/rollouts.jsonl "$run_dir"/rollouts/curve.csv "$out/record/" 2>/dev/null || true
last=$(ls -d "$run_dir"/checkpoint-* 2>/dev/null | sort -V | tail -1 || true)
if [ -n "$last" ]; then
  cp "$last/trainer_state.json" "$out/record/"
  # the rollouts travel with the checkpoint: a resumed run keeps those up to its step (RolloutLog)
  tar c -C "$run_dir" "$(basename "$last")" rollouts/rollouts.jsonl rollouts/curve.csv \
    | split -b 15M -d - "$out/ckpt/part-"
  (cd "$out/ckpt" && sha256sum part-* > SHA256SUMS)
fi
exit $status
