# The HPSv3 scorer as a Hugging Face Docker Space on a GPU (port 7860).
# Build from the repository root: docker build -f docker/hpsv3.Dockerfile -t watercolour-hpsv3 .
# Its own image: hpsv3 pins transformers 4.45.2, which the environment's image cannot share.
FROM python:3.11-slim-bookworm

RUN useradd -m -u 1000 user
WORKDIR /home/user/app

COPY scorers/hpsv3_space/requirements.txt scorers/hpsv3_space/requirements.txt
# hpsv3 with --no-deps: its metadata asks for deepspeed, diffusers, opencv and timm, which
# inference never imports; requirements.txt pins what it does import.
RUN pip install --no-cache-dir -r scorers/hpsv3_space/requirements.txt \
    && pip install --no-cache-dir --no-deps hpsv3==1.0.0

COPY --chown=user scorers/hpsv3_space scorers/hpsv3_space
RUN pip install --no-cache-dir --no-deps ./scorers/hpsv3_space

USER user
ENV HF_HOME=/home/user/.cache/huggingface
EXPOSE 7860
CMD ["uvicorn", "hpsv3_space.app:app", "--host", "0.0.0.0", "--port", "7860"]
