#!/usr/bin/env bash
# On the GPU machine, after `python3 bench/gpu_kit_up.py`: serves the environment on this
# machine's cores and runs GRPO against it (docs/gpu-run.md).
#
#   [TRAIN_SECONDS=420] bash bench/gpu_learn.sh [CONFIG] [-- train arguments]  # trains in this call
#   [TRAIN_SECONDS=S] bash bench/gpu_learn.sh --detach [CONFIG] [-- train arguments]
#   bash bench/gpu_learn.sh --wait SECONDS [CONFIG]
#   bash bench/gpu_learn.sh --stop [CONFIG]
#
# The first form trains until TRAIN_SECONDS have passed, saves, and packs. --detach starts the
# server and the trainer in a process session of their own, which outlives the call while the
# machine stays held; it returns once the server answers. The trainer then saves every 5 steps
# (keeping 2). Each --wait call waits up to SECONDS (less if training ends) and packs the newest
# complete checkpoint; --stop asks the trainer to stop at the end of its step (a stop file), waits
# for it to save and end, and packs. So one start serves a session, with no model load, compile or
# server start between calls, and a machine taken back loses only what followed the last pack.
# Refused: a start in a folder with checkpoints without --resume_from_checkpoint (a record of two
# runs), a resume with nothing to resume, a second --detach; a server that stops answering during
# a --wait stops the trainer (docs/gpu-run.md says more).
#
# The server (bench/gpu_serve.sh) serves the proxy half of the starter pool and reports the gold
# half beside it (`watercolour pool split`, seed 0). A run resumed on a fresh machine (a new
# session's) starts from the record kept in the repository, docs/runs/<name>/: its checkpoint
# (the adapter and the trainer's state, without the optimiser's) and its rollouts. On a machine
# still warm from an earlier call, the run's own folder holds the full checkpoint, and that one
# is used. Packing (bench/gpu_record.py) leaves $OUT/record.tar (what docs/runs/<name>/ keeps) and
# $OUT/logs.tar: a call returns at most 8 files, and the record alone has 9.
set -euo pipefail
mode=run
case "${1:-}" in
  --detach) mode=detach; shift ;;
  --wait) mode=wait; wait_s=${2:?--wait SECONDS [CONFIG]}; shift 2 ;;
  --stop) mode=stop; shift ;;
esac
config=${1:-trainer/configs/h200-learn.yaml}
shift || true
[ "${1:-}" = "--" ] && shift
# output_dir's value, without quotes or a comment; the trainer gets it absolute (below)
run_dir=$(sed -n 's/^output_dir: *//p' "$config" | sed 's/ \{1,\}#.*//; s/^["'"'"']//; s/["'"'"'] *$//')
[ -n "$run_dir" ] || { echo "$config has no output_dir"; exit 2; }
kit=${KIT_DIR:-/tmp/kit} port=${KIT_PORT:-8000}  # moved by the test that runs this here
out=${OUT:-$kit/out}
# a process group, the detached run's (setsid): the wrapper, the server, the trainer, Chromium
group() { cat "$kit/train.pid" 2> /dev/null; }
running() { [ -f "$kit/train.pid" ] && kill -0 -- "-$(group)" 2> /dev/null; }
readable() { tr '\r' '\n' < "$kit/train.log" | grep -v -E "it/s\]|s/it\]|^ *$"; }
steps() { [ -f "$kit/train.log" ] && readable | grep -i -E "^step [0-9]+/|stopping|error" | tail -n "$1" || true; }
newest() { compgen -G "$run_dir/checkpoint-*/trainer_state.json" | sort -V | tail -1 || true; }
pack() {  # never fatal: what a call brings back is worth more than its exit status
  python3 bench/gpu_record.py "$run_dir" "$config" "$out" "$kit/train.log" "$kit/server.log" "$kit/serve.out" || true
}

if [ "$mode" = wait ] || [ "$mode" = stop ]; then
  [ -f "$kit/train.pid" ] || { echo "no detached run on this machine (a fresh one?): start it with --detach"; exit 1; }
  if [ "$mode" = stop ]; then
    running && touch "$run_dir/STOP"
    wait_s=${STOP_WAIT_S:-240}  # the step in progress (about 40 s) and the save
  fi
  pack  # first, so that a call cut at its limit still brings back the record
  packed=$(newest) seen=$packed silent=0
  end=$((SECONDS + wait_s))
  while running && [ $SECONDS -lt $end ]; do
    sleep 5
    now=$(newest)  # a checkpoint seen twice, 5 s apart, is complete: pack it
    if [ "$now" = "$seen" ] && [ "$now" != "$packed" ]; then pack; packed=$now; fi
    seen=$now
    if curl -sf --max-time 10 "http://127.0.0.1:$port/health" > /dev/null; then silent=0; else silent=$((silent + 1)); fi
    if [ $silent = 3 ] && running; then  # every step from here on would be unscored
      echo "the server stopped answering: the trainer stops at the end of its step"
      touch "$run_dir/STOP"
    fi
  done
  steps 4
  [ "$(newest)" = "$packed" ] || pack
  if running; then
    echo "training goes on (process group $(group))"
    exit 0
  fi
  rm -f "$run_dir/STOP"
  status=$(cat "$kit/train.rc" 2> /dev/null || echo 1)
  if [ "$status" != 0 ]; then readable 2> /dev/null | tail -n 25 || cat "$kit/serve.out"; fi
  echo "training ended: exit $status"
  exit "$status"
fi

case " $* " in *" --output_dir "*) echo "give output_dir in $config, not after --"; exit 2 ;; esac
resuming=0
case " $* " in *" --resume_from_checkpoint "*) resuming=1 ;; esac
mkdir -p "$run_dir"
kept=docs/runs/$(basename "$run_dir")
if [ $resuming = 1 ] && ! compgen -G "$run_dir/checkpoint-*" > /dev/null && compgen -G "$kept/checkpoint-*" > /dev/null; then
  cp -r "$kept"/checkpoint-* "$run_dir"/
  mkdir -p "$run_dir/rollouts"
  gunzip -c "$kept/rollouts.jsonl.gz" > "$run_dir/rollouts/rollouts.jsonl"
fi
if [ $resuming = 0 ] && compgen -G "$run_dir/checkpoint-*" > /dev/null; then
  echo "$run_dir holds checkpoints: resume with -- --resume_from_checkpoint last, or move it to start afresh"
  exit 2
fi
if [ $resuming = 1 ] && [ -z "$(newest)" ]; then
  echo "nothing to resume: no complete checkpoint in $run_dir, nor in $kept"
  exit 2
fi
abs_run_dir=$(cd "$run_dir" && pwd)  # the trainer writes by path, whatever happens to its cwd

if [ "$mode" = detach ]; then
  running && { echo "a detached run is already training (process group $(group))"; exit 1; }
  rm -f "$run_dir/STOP" "$kit/train.rc" "$kit/train.log" "$kit/train.pid"
  limit=()
  [ -n "${TRAIN_SECONDS:-}" ] && limit=(--stop_after_s "$TRAIN_SECONDS")
  # setsid: a process session and group of its own, which the call's end does not kill (the
  # device's README); its id is the wrapper's pid
  setsid bash -c '
    echo $$ > "$0/train.pid"
    . bench/gpu_serve.sh > "$0/serve.out" 2>&1 || { echo 1 > "$0/train.rc"; exit 1; }
    status=0
    watercolour train --config "$1" --output_dir "$2" --stop_file "$2/STOP" \
      --save_strategy steps --save_steps 5 --save_total_limit 2 "${@:3}" > "$0/train.log" 2>&1 || status=$?
    echo $status > "$0/train.rc"' "$kit" "$config" "$abs_run_dir" "${limit[@]}" "$@" < /dev/null > /dev/null 2>&1 &
  healthy=0
  for _ in $(seq "${SERVE_WAIT_S:-180}"); do  # seconds; the test on a loaded CPU gives more
    if curl -sf "http://127.0.0.1:$port/health" > /dev/null; then healthy=1; break; fi
    [ -f "$kit/train.pid" ] && ! running && break
    sleep 1
  done
  if [ $healthy = 0 ]; then
    echo "the server did not answer"; cat "$kit/serve.out"; tail -20 "$kit/server.log"; exit 1
  fi
  curl -s "http://127.0.0.1:$port/health" | head -c 600; echo
  printf 'training in the background (process group %s): bash bench/gpu_learn.sh --wait SECONDS %q\n' "$(group)" "$config"
  exit 0
fi

. bench/gpu_serve.sh
status=0
# A call ends at 10 minutes: the trainer saves and stops at the end of the step it is in once
# TRAIN_SECONDS (default 420) have passed since its training began; a hard stop 150 s later keeps
# time to pack what it made (a step takes about 40 s, the first after a start about 120 s)
train_s=${TRAIN_SECONDS:-420}
timeout --signal=INT $((train_s + 150)) watercolour train --config "$config" --output_dir "$abs_run_dir" \
  --stop_after_s "$train_s" "$@" 2>&1 | tee "$kit/train.log" || status=$?
pack
exit $status
