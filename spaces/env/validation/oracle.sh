#!/bin/sh
# The oracle: one episode with an honest hibiscus written for the audit, in no pool
# (envs/watercolour_env/audit/sketches/honest/hibiscus-12.js, the action of runtime.json), against
# a running environment; prints the observation as JSON. With the default weights it scores 0.95
# (docs/LOG.md, 2026-12-04; tests/docker/test_images.py checks >= 0.9). A pool sketch would be a
# copy now (`copied_reference`, reward 0).
# Usage: validation/oracle.sh [URL]
set -eu
here=$(dirname "$0")
reply=$(mktemp)  # private to this run: no fixed /tmp name another user could plant or read
trap 'rm -f "$reply"' EXIT
python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["actions"][0]["reply"])' "$here/runtime.json" > "$reply"
watercolour episode "$reply" --env-url "${1:-http://127.0.0.1:8000}" --seed 7 --subject "a peach hibiscus"
