#!/bin/sh
# The oracle: one episode with the love painting that the deployment's pool holds out of its
# references (pool.toml's `oracle`; `GET /pool` reports it), for the subject it was rated for,
# against a running environment. Prints the observation as JSON; exits 0 when the reward is >= 0.9 (the
# oracle_tolerance of openenv.yaml), 1 below, 2 when the pool declares no oracle. The starter
# pool's oracle (songbird-33, a songbird on a branch; also the action of runtime.json) scores
# 0.921 (docs/LOG.md, issue 54); a Space pointed at another pool checks that pool's own
# (docs/pool.md, "The Space's oracle"). The token, when the server has one: WATERCOLOUR_API_TOKEN.
# Usage: validation/oracle.sh [URL]
set -eu
exec watercolour oracle "${1:-http://127.0.0.1:8000}"
