# Sourced by bench/gpu_learn.sh and bench/gpu_revisions.sh on the GPU machine, after
# `python3 bench/gpu_kit_up.py`: serves the environment on this machine's cores, on port 8000, and
# returns once /health answers. The server serves the proxy half of the starter pool and reports
# the gold half beside it (`watercolour pool split`, seed 0); it is stopped when the script exits.
# KIT_DIR (default /tmp/kit) and KIT_PORT (default 8000) move it, for the test that runs it here.
KIT=${KIT_DIR:-/tmp/kit} PORT=${KIT_PORT:-8000}
. "$KIT/env.sh"
[ -d "$KIT/split" ] || watercolour pool split "$KIT/split"
export WATERCOLOUR_POOL=$KIT/split/proxy WATERCOLOUR_GOLD_POOL=$KIT/split/gold
# The render workers over several browsers, 4 pages each: on the lent H100 (16 cores, SwiftShader)
# 48 renders took 20.8 s on one browser of 16 pages and 12.0 s on 4 of 4 (docs/LOG.md, issue 55)
cores=$(nproc)
export WATERCOLOUR_RENDER_BROWSERS=${WATERCOLOUR_RENDER_BROWSERS:-$(( cores >= 8 ? cores / 4 : 1 ))}
watercolour serve --port "$PORT" > "$KIT/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 120); do
  curl -sf "http://127.0.0.1:$PORT/health" > /dev/null && break
  kill -0 $server 2>/dev/null || { tail -20 "$KIT/server.log"; exit 1; }
  sleep 1
done
curl -s "http://127.0.0.1:$PORT/health" | head -c 600; echo
