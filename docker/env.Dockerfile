# The environment server as a Hugging Face Docker Space (port 7860).
# Build from the repository root: docker build -f docker/env.Dockerfile -t watercolour-env .
FROM python:3.11-slim-bookworm

RUN apt-get update \
    && apt-get install -y --no-install-recommends chromium libegl-mesa0 libgl1-mesa-dri fonts-dejavu-core nodejs npm \
    && rm -rf /var/lib/apt/lists/*

RUN useradd -m -u 1000 user
WORKDIR /home/user/app

COPY --chown=user envs/watercolour_env/server/sandbox/js/package.json envs/watercolour_env/server/sandbox/js/package-lock.json envs/watercolour_env/server/sandbox/js/
RUN npm ci --prefix envs/watercolour_env/server/sandbox/js --no-audit --no-fund

COPY --chown=user pyproject.toml README.md ./
COPY --chown=user envs envs
COPY --chown=user trainer trainer
RUN pip install --no-cache-dir -e .

USER user
ENV WATERCOLOUR_HOST=0.0.0.0 \
    WATERCOLOUR_PORT=7860
EXPOSE 7860
CMD ["watercolour", "serve"]
