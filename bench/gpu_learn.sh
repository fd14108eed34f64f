#!/usr/bin/env bash
# On the GPU machine, after `python3 bench/gpu_kit_up.py`: serves the environment on this
# machine's cores and runs GRPO against it (docs/gpu-run.md).
#
#   [TRAIN_SECONDS=420] bash bench/gpu_learn.sh [CONFIG] [-- train arguments, e.g. --resume_from_checkpoint last]
#
# The server (bench/gpu_serve.sh) serves the proxy half of the starter pool and reports the gold
# half beside it (`watercolour pool split`, seed 0). A run resumed on a fresh machine (a new
# session's) starts from the record kept in the repository, docs/runs/<name>/: its checkpoint
# (the adapter and the trainer's state, without the optimiser's) and its rollouts. On a machine still warm from an
# earlier call, the run's own folder holds the full checkpoint, and that one is used.
# At the end the run's record goes into $OUT/record.tar (what docs/runs/<name>/ keeps: rollouts
# gzipped without PNGs, curve, config, trainer state, the last checkpoint without the optimiser's
# state), and the logs into $OUT/logs.tar: a call returns at most 8 files, and the record alone
# has 9 (on 2026-12-05 the checkpoint's trainer state and random generators were left out).
set -euo pipefail
config=${1:-trainer/configs/h200-learn.yaml}
shift || true
[ "${1:-}" = "--" ] && shift
run_dir=$(sed -n 's/^output_dir: *//p' "$config")
mkdir -p "$run_dir"
kept=docs/runs/$(basename "$run_dir")
if ! compgen -G "$run_dir/checkpoint-*" > /dev/null && compgen -G "$kept/checkpoint-*" > /dev/null; then
  cp -r "$kept"/checkpoint-* "$run_dir"/
  mkdir -p "$run_dir/rollouts"
  gunzip -c "$kept/rollouts.jsonl.gz" > "$run_dir/rollouts/rollouts.jsonl"
fi
. bench/gpu_serve.sh
status=0
# A call ends at 10 minutes: the trainer saves and stops at the end of the step it is in once
# TRAIN_SECONDS (default 420) have passed since its training began; a hard stop 150 s later keeps
# time to pack what it made (a step takes about 40 s, the first after a start about 120 s)
train_s=${TRAIN_SECONDS:-420}
timeout --signal=INT $((train_s + 150)) watercolour train --config "$config" --stop_after_s "$train_s" "$@" 2>&1 \
  | tee /tmp/kit/train.log || status=$?
out=${OUT:-/tmp/kit/out}
pack=$(mktemp -d)
mkdir -p "$pack/record" "$pack/logs"
cp /tmp/kit/train.log /tmp/kit/server.log "$pack/logs/"
cp "$config" "$pack/record/config.yaml"
if [ -f "$run_dir/rollouts/rollouts.jsonl" ]; then
  gzip -c "$run_dir/rollouts/rollouts.jsonl" > "$pack/record/rollouts.jsonl.gz"
fi
cp "$run_dir/rollouts/curve.csv" "$pack/record/" 2>/dev/null || true
last=$(ls -d "$run_dir"/checkpoint-* 2>/dev/null | sort -V | tail -1 || true)
if [ -n "$last" ]; then
  cp "$last/trainer_state.json" "$pack/record/"
  # what a resumed run needs but the optimiser's state (twice the adapter): a new session's run
  # starts Adam afresh, its learning rate warming up again (docs/gpu-run.md)
  slim="$pack/record/$(basename "$last")"
  mkdir -p "$slim"
  for f in adapter_config.json adapter_model.safetensors trainer_state.json rng_state.pth; do
    if [ -f "$last/$f" ]; then cp "$last/$f" "$slim/"; fi
  done
fi
mkdir -p "$out"
tar -C "$pack" -cf "$out/record.tar" record
tar -C "$pack" -cf "$out/logs.tar" logs
rm -rf "$pack"
exit $status
