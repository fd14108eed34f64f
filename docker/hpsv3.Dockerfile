# The HPSv3 scorer as a Hugging Face Docker Space on a GPU, port 7860.
# Build context: the folder `watercolour deploy hpsv3` uploads, tracked files only (this file is its
# Dockerfile): watercolour deploy hpsv3 --space me/x --dry-run /tmp/d && docker build /tmp/d/space
# Its own image: hpsv3 pins transformers 4.45.2, which the environment's image cannot share.
# Only syntax that both Docker 20.10 and Hugging Face's builder accept: no `# syntax=` line, no
# heredocs, no `COPY --link`.
FROM debian:bookworm-slim

RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates python3 python3-venv \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 1000 user

ENV VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /home/user/app
# hpsv3 with --no-deps: its metadata asks for deepspeed, diffusers, opencv and timm, which
# inference never imports; requirements.txt pins what it does import.
COPY scorers/hpsv3_space/requirements.txt scorers/hpsv3_space/requirements.txt
RUN python3 -m venv /opt/venv \
    && pip install -r scorers/hpsv3_space/requirements.txt \
    && pip install --no-deps hpsv3==1.0.0

COPY scorers/hpsv3_space scorers/hpsv3_space
RUN pip install --no-deps ./scorers/hpsv3_space

USER 1000
ENV HOME=/home/user \
    HF_HOME=/home/user/.cache/huggingface
EXPOSE 7860
# /health answers 503 while the ~33 GB of weights download: allow 30 minutes before counting.
HEALTHCHECK --interval=30s --timeout=5s --start-period=1800s --retries=3 \
    CMD ["python3", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:7860/health', timeout=4)"]
CMD ["uvicorn", "hpsv3_space.app:app", "--host", "0.0.0.0", "--port", "7860"]
