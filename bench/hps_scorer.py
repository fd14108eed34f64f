"""HPSv3 scorer benchmark: images per second and peak GPU memory, direct and through HTTP.

    .venv-hpsv3/bin/python bench/hps_scorer.py [--size 7b|tiny] [--device cuda|cpu] [--json out.json]

Runs in the scorer's own environment (transformers 4.45.2), on the GPU machine for the real
numbers: the real 7B architecture (Qwen2-VL-7B-Instruct's shapes plus HPSv3's reward head)
with random weights, built from a config, since weights cannot be downloaded there. Inputs are
the starter pool's paintings (600x600 PNG), scored against the default prompt.

(1) `HPSv3RewardInferencer.reward` at batch 1, 8 and 32 (preprocessing included): median
seconds per batch, images per second, peak GPU memory; once with transformers' own SDPA vision
attention (one masked square over the whole batch) and once per image (the app's default).
(2) Through the app over HTTP, 64 single-image requests from 32 concurrent clients: the baseline
serves them one at a time (max_batch 1, no overlap, transformers' attention: what the public
reproduction's Space did), ours gathers them into batches of up to 32 and prepares the next
batch during the forward pass; the ratio is ours / baseline in images per second.
`--size tiny --device cpu` is a smoke run on a laptop.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from hpsv3_space.app import (
    DEFAULT_PROMPT,
    Loaded,
    Settings,
    create_app,
)
from hpsv3_space.model import use_block_diagonal_vision_attention
from hpsv3_space.tiny_model import random_inferencer

REPO = Path(__file__).resolve().parents[1]


def paintings(n: int) -> list[bytes]:
    """`n` PNGs from the starter pool, cycling."""
    files = sorted((REPO / "envs" / "watercolour_env" / "pool" / "starter" / "images").glob("*.png"))
    return [files[i % len(files)].read_bytes() for i in range(n)]


def direct(inferencer, batch: int, reps: int, device: str) -> dict:  # noqa: ANN001
    import torch
    from PIL import Image

    images = [Image.open(io.BytesIO(b)).convert("RGB") for b in paintings(batch)]
    prompts = [DEFAULT_PROMPT] * batch
    cuda = device.startswith("cuda")
    if cuda:
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
    times, prepare_times = [], []
    for i in range(reps + 2):
        started = time.perf_counter()
        with torch.inference_mode():  # reward() = prepare_batch + model, timed apart
            inputs = inferencer.prepare_batch(images, prompts)
            if cuda:
                torch.cuda.synchronize()
            prepared = time.perf_counter()
            inferencer.model(return_dict=True, **inputs)["logits"].float().cpu()
        if i >= 2:  # two warm-ups
            times.append(time.perf_counter() - started)
            prepare_times.append(prepared - started)
    median = statistics.median(times)
    return {
        "batch": batch,
        "median_s": median,
        "min_s": min(times),
        "max_s": max(times),
        "images_per_s": batch / median,
        "prepare_s": statistics.median(prepare_times),
        "peak_gib": torch.cuda.max_memory_allocated() / 2**30 if cuda else None,
    }


def over_http(inferencer, max_batch: int, in_flight: int, requests: int, clients: int) -> dict:  # noqa: ANN001
    import httpx
    import uvicorn

    settings = Settings(max_batch=max_batch, max_wait_ms=5, batches_in_flight=in_flight, device="cpu")
    app = create_app(settings, loader=lambda s: Loaded(inferencer, {"model": "random"}))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    while httpx.get(f"{url}/health").json()["status"] != "loaded":
        time.sleep(0.05)
    bodies = [{"images": [base64.b64encode(b).decode()]} for b in paintings(requests)]
    with httpx.Client(timeout=600) as client:
        for body in bodies[:2]:
            client.post(f"{url}/score", json=body).raise_for_status()  # warm-up
        started = time.perf_counter()
        with ThreadPoolExecutor(clients) as pool:
            list(pool.map(lambda b: client.post(f"{url}/score", json=b).raise_for_status(), bodies))
        elapsed = time.perf_counter() - started
        counters = client.get(f"{url}/info").json()["counters"]
    server.should_exit = True
    thread.join(10)
    return {
        "max_batch": max_batch,
        "requests": requests,
        "clients": clients,
        "seconds": elapsed,
        "images_per_s": requests / elapsed,
        "largest_batch": counters["largest_batch"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="7b", choices=["7b", "tiny"])
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--dtype", default="bfloat16")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--batches", default="1,8,32")
    parser.add_argument("--http-requests", type=int, default=64)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    import torch
    import transformers

    started = time.perf_counter()
    inferencer = random_inferencer(args.size, args.device, args.dtype)
    build_s = time.perf_counter() - started
    params = sum(p.numel() for p in inferencer.model.parameters())
    device_name = torch.cuda.get_device_name() if args.device.startswith("cuda") else "cpu"
    print(
        f"HPSv3 {args.size} (random weights, {params / 1e9:.2f} B parameters, {args.dtype}) on {device_name}; "
        f"built in {build_s:.1f} s; torch {torch.__version__}, transformers {transformers.__version__}"
    )

    rows = []
    for block_diagonal in (False, True):
        use_block_diagonal_vision_attention(block_diagonal)
        for b in args.batches.split(","):
            rows.append(
                {
                    "vision_attention": "per image" if block_diagonal else "masked square (transformers)",
                    **direct(inferencer, int(b), args.reps, args.device),
                }
            )
    print(
        "\n| vision attention | batch | median s/batch | of which CPU prepare | min | max | images/s "
        "| peak GPU GiB |\n|---|---|---|---|---|---|---|---|"
    )
    for r in rows:
        peak = f"{r['peak_gib']:.1f}" if r["peak_gib"] is not None else "-"
        print(
            f"| {r['vision_attention']} | {r['batch']} | {r['median_s']:.3f} | {r['prepare_s']:.3f} | "
            f"{r['min_s']:.3f} | {r['max_s']:.3f} | {r['images_per_s']:.1f} | {peak} |"
        )

    top = max(int(b) for b in args.batches.split(","))
    use_block_diagonal_vision_attention(False)
    http = [over_http(inferencer, 1, 1, args.http_requests, top)]
    use_block_diagonal_vision_attention(True)
    http += [
        over_http(inferencer, top, 1, args.http_requests, top),
        over_http(inferencer, top, 2, args.http_requests, top),
    ]
    print(
        f"\nThrough HTTP, {args.http_requests} single-image requests from {top} concurrent clients:\n"
        "| server | seconds | images/s | largest batch |\n|---|---|---|---|"
    )
    names = [
        "baseline (one at a time, transformers' attention)",
        f"batches of up to {top}, per-image attention",
        f"batches of up to {top}, per-image attention, next batch prepared during forward",
    ]
    for name, r in zip(names, http, strict=True):
        print(f"| {name} | {r['seconds']:.2f} | {r['images_per_s']:.1f} | {r['largest_batch']} |")
    ratio = http[-1]["images_per_s"] / http[0]["images_per_s"]
    print(f"ratio ours / baseline: {ratio:.1f}x")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "size": args.size,
                    "device": device_name,
                    "parameters": params,
                    "direct": rows,
                    "http": http,
                    "ratio": ratio,
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
