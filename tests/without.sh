#!/usr/bin/env bash
# Runs a command with Chromium, the Docker engine and any GPU out of reach, as on a bare machine:
# `make check`'s lane says it needs none of them, and this makes a test that does fail on every
# machine, not only on one that lacks them.
#
#   bash tests/without.sh COMMAND [ARGS...]
#
# As root (CI), the command runs in a mount namespace of its own where each of their executables,
# sockets and device files that exist is covered by /dev/null; elsewhere only the variables below
# hide them, and a note says so.
set -euo pipefail
export DOCKER_HOST=unix:///nonexistent/docker.sock CUDA_VISIBLE_DEVICES= NVIDIA_VISIBLE_DEVICES=void
if [ "$(id -u)" != 0 ] || ! unshare --mount --propagation private true 2> /dev/null; then
  echo "note: Chromium and Docker stay visible to this run (no mount namespace: it needs root," \
    "CAP_SYS_ADMIN and util-linux's unshare)" >&2
  exec "$@"
fi
hidden=()
for name in chromium chromium-browser google-chrome docker dockerd nvidia-smi; do
  path=$(command -v "$name" 2> /dev/null) && hidden+=("$(readlink -f "$path")" "$path")
done
for path in /usr/lib/chromium/chromium /var/run/docker.sock /run/docker.sock /dev/nvidia*; do
  [ -e "$path" ] && hidden+=("$(readlink -f "$path")")
done
# shellcheck disable=SC2016 # expanded by the inner shell
exec unshare --mount --propagation private bash -c '
  for path in "${@:2:$1}"; do
    [ -d "$path" ] || mount --bind /dev/null "$path" 2> /dev/null || echo "note: could not hide $path" >&2
  done
  shift $(($1 + 1)); exec "$@"' hide "${#hidden[@]}" "${hidden[@]}" "$@"
