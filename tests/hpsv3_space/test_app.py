"""The HPSv3 scorer over real HTTP, with a tiny random model loaded by hpsv3's own inferencer."""

from __future__ import annotations

import base64
import io
import logging
import math
import random
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import numpy as np
import pytest
from PIL import Image

from hpsv3_space.app import Loaded, Settings, create_app, load_hpsv3, to_score
from tests.hpsv3_space.conftest import serve, wait_loaded


def png(colour: tuple[int, int, int], size: int = 600) -> str:
    """A base64 PNG of one colour with a darker square, so images differ in more than mean."""
    image = Image.new("RGB", (size, size), colour)
    image.paste(tuple(c // 2 for c in colour), (size // 4, size // 4, size // 2, size // 2))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return base64.b64encode(buffer.getvalue()).decode()


COLOURS = [
    (200, 50, 80),
    (20, 150, 80),
    (240, 200, 40),
    (30, 60, 200),
    (250, 250, 250),
    (90, 20, 120),
    (10, 10, 10),
    (180, 120, 60),
]


def score(url: str, images: list[str], **kw: object) -> httpx.Response:
    return httpx.post(f"{url}/score", json={"images": images, **kw}, timeout=60, headers=kw.pop("headers", None))


def test_scores_each_image_with_a_bounded_score(scorer_url: str) -> None:
    response = score(scorer_url, [png(c) for c in COLOURS[:3]], prompt="a loose watercolour flower")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["prompt"] == "a loose watercolour flower"
    assert len(body["scores"]) == 3
    for s in body["scores"]:
        assert 0.0 < s["score"] < 1.0 and s["sigma"] > 0
        assert s["score"] == pytest.approx(1 / (1 + math.exp(-s["mu"] / 4)))
    assert len({s["mu"] for s in body["scores"]}) == 3  # different paintings, different verdicts


def test_batched_scores_equal_single_scores(scorer_url: str) -> None:
    images = [png(c) for c in COLOURS[:4]]
    together = [s["mu"] for s in score(scorer_url, images).json()["scores"]]
    alone = [score(scorer_url, [i]).json()["scores"][0]["mu"] for i in images]
    assert together == pytest.approx(alone, abs=1e-5)


def test_concurrent_clients_each_get_their_own_image_score(scorer_url: str) -> None:
    images = [png(c) for c in COLOURS]
    alone = [score(scorer_url, [i]).json()["scores"][0]["mu"] for i in images]
    before = httpx.get(f"{scorer_url}/info").json()["counters"]
    barrier = threading.Barrier(len(images))

    def client(i: int) -> float:
        barrier.wait()
        return score(scorer_url, [images[i]]).json()["scores"][0]["mu"]

    with ThreadPoolExecutor(len(images)) as pool:
        got = list(pool.map(client, range(len(images))))
    assert got == pytest.approx(alone, abs=1e-5)
    after = httpx.get(f"{scorer_url}/info").json()["counters"]
    assert after["images"] - before["images"] == len(images)
    assert after["batches"] - before["batches"] < len(images)  # gathered into shared batches
    assert after["largest_batch"] > 1


def test_default_prompt_and_prompt_changes_the_verdict(scorer_url: str) -> None:
    image = png(COLOURS[0])
    default = score(scorer_url, [image]).json()
    assert default["prompt"] == "a loose watercolour flower"
    other = score(scorer_url, [image], prompt="a photograph of a truck").json()
    assert other["scores"][0]["mu"] != default["scores"][0]["mu"]


def test_info_names_model_device_dtype_and_versions(scorer_url: str) -> None:
    info = httpx.get(f"{scorer_url}/info").json()
    assert info["status"] == "loaded"
    assert info["device"] == "cpu" and info["dtype"] == "float32"
    assert info["versions"]["transformers"] == "4.45.2"
    assert info["versions"]["hpsv3"] == "1.0.0"
    assert info["parameters"] > 0 and info["max_batch"] == 8


@pytest.mark.parametrize(
    ("images", "status", "words"),
    [
        (["not base64 at all!"], 400, "not valid base64"),
        ([base64.b64encode(b"GIF89a" + b"\0" * 64).decode()], 415, "not a PNG"),
        ([base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 64).decode()], 400, "not a readable PNG"),
        ([], 422, ""),
    ],
)
def test_bad_input_gets_a_clear_4xx(scorer_url: str, images: list[str], status: int, words: str) -> None:
    response = score(scorer_url, images)
    assert response.status_code == status
    assert words in response.text


def test_jpeg_is_refused_with_415(scorer_url: str) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 64), (1, 2, 3)).save(buffer, "JPEG")
    response = score(scorer_url, [base64.b64encode(buffer.getvalue()).decode()])
    assert response.status_code == 415 and "image 0 is not a PNG" in response.text


def test_oversized_input_is_refused_with_413(tiny_settings: Settings) -> None:
    small = tiny_settings.model_copy(
        update={
            "max_image_bytes": 20_000,
            "max_images_per_request": 3,
            "max_image_side": 1000,
            "max_request_bytes": 100_000,
            "max_queued_images": 2,
        }
    )
    with serve(small) as url:
        wait_loaded(url)
        noisy = Image.frombytes("RGB", (100, 100), random.Random(0).randbytes(100 * 100 * 3))  # incompressible
        buffer = io.BytesIO()
        noisy.save(buffer, "PNG")
        big = score(url, [base64.b64encode(buffer.getvalue()).decode()])
        assert big.status_code == 413 and "over 20000 bytes" in big.text
        wide = score(url, [png((1, 2, 3), size=1200)])
        assert wide.status_code == 413 and "px a side" in wide.text
        many = score(url, [png((1, 2, 3), size=28)] * 4)
        assert many.status_code == 413 and "over 3 per request" in many.text
        busy = score(url, [png((1, 2, 3), size=28)] * 3)  # more than may wait in the queue
        assert busy.status_code == 503 and busy.headers["retry-after"] == "1"
        declared = httpx.post(f"{url}/score", content=b"x" * 200_000, headers={"content-type": "application/json"})
        assert declared.status_code == 413
        chunks = (b"x" * 10_000 for _ in range(20))  # no Content-Length: counted as it streams
        streamed = httpx.post(f"{url}/score", content=chunks, headers={"content-type": "application/json"})
        assert streamed.status_code == 413 and "over 100000 bytes" in streamed.text


def test_health_answers_while_loading_then_loaded(tiny_settings: Settings) -> None:
    release = threading.Event()

    def slow_loader(settings: Settings) -> Loaded:
        release.wait(30)
        return load_hpsv3(settings)

    with serve(tiny_settings, slow_loader) as url:
        loading = httpx.get(f"{url}/health")
        assert loading.status_code == 503 and loading.json()["status"] == "loading"
        early = score(url, [png(COLOURS[0])])
        assert early.status_code == 503 and "still loading" in early.text and early.headers["retry-after"]
        release.set()
        assert wait_loaded(url)["load_s"] > 0
        assert score(url, [png(COLOURS[0])]).status_code == 200


def test_health_shows_the_load_error(tiny_settings: Settings) -> None:
    broken = tiny_settings.model_copy(update={"checkpoint_path": "/nonexistent/HPSv3.safetensors"})
    with serve(broken) as url:
        for _ in range(600):
            body = httpx.get(f"{url}/health").json()
            if body["status"] != "loading":
                break
            threading.Event().wait(0.05)
        assert body["status"] == "error" and "nonexistent" in body["error"]
        response = score(url, [png(COLOURS[0])])
        assert response.status_code == 503 and "failed to load" in response.text


def test_bearer_token_guards_score_and_info_but_not_health(tiny_settings: Settings) -> None:
    guarded = Settings(**{**tiny_settings.model_dump(), "api_token": "s3cret"})
    with serve(guarded) as url:
        wait_loaded(url)
        assert httpx.get(f"{url}/health").status_code == 200
        assert httpx.get(f"{url}/info").status_code == 401
        assert score(url, [png(COLOURS[0])]).status_code == 401
        wrong = {"Authorization": "Bearer nope"}
        assert httpx.post(f"{url}/score", json={"images": [png(COLOURS[0])]}, headers=wrong).status_code == 401
        right = {"Authorization": "Bearer s3cret"}
        assert (
            httpx.post(f"{url}/score", json={"images": [png(COLOURS[0])]}, headers=right, timeout=60).status_code == 200
        )
        assert "s3cret" not in httpx.get(f"{url}/info", headers=right).text


def test_to_score_is_the_seed_logistic() -> None:
    assert to_score(0.0) == 0.5
    assert to_score(8.0) == pytest.approx(0.8808, abs=1e-4)
    assert to_score(-8.0) == pytest.approx(0.1192, abs=1e-4)


def encode(image: Image.Image) -> str:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return base64.b64encode(buffer.getvalue()).decode()


def test_a_prompt_with_special_tokens_is_refused(scorer_url: str) -> None:
    """A second <|Reward|> token would shift a batch's rows onto their neighbours' scores."""
    for prompt in ["<|Reward|>", "a flower <|image_pad|>"]:
        response = score(scorer_url, [png(COLOURS[0])], prompt=prompt)
        assert response.status_code == 422 and "special tokens" in response.text
    assert "a flower" not in response.text  # errors do not echo the input


def test_awkward_but_valid_pngs_are_scored_as_what_they_show(scorer_url: str) -> None:
    grey8 = Image.new("L", (64, 64), 128)
    grey16 = Image.fromarray(np.full((64, 64), 128 * 257, dtype=np.uint16))  # mode I;16
    clear = Image.new("RGBA", (64, 64), (0, 0, 0, 0))  # fully transparent: white paper
    white = Image.new("RGB", (64, 64), (255, 255, 255))
    mus = [score(scorer_url, [encode(i)]).json()["scores"][0]["mu"] for i in (grey8, grey16, clear, white)]
    assert mus[0] == pytest.approx(mus[1], abs=1e-6) and mus[2] == pytest.approx(mus[3], abs=1e-6)
    wrapped = "\n".join(textwrap.wrap(png(COLOURS[1]), 76)) + "\n"  # what `base64` prints
    assert score(scorer_url, [wrapped]).status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ('{"images": ["iVBORw0KGgo="], "prompt": NaN}', 422, "prompt"),
        ('{"images": ["iVBORw0KGgo="], "prompt": "\\ud800"}', 422, ""),
        ('{"images": "not a list"}', 422, "images"),
    ],
)
def test_odd_json_gets_a_422_not_a_500(scorer_url: str, body: str, status: int, words: str) -> None:
    response = httpx.post(f"{scorer_url}/score", content=body, headers={"content-type": "application/json"})
    assert response.status_code == status and words in response.text


def test_only_the_png_decoder_sees_the_bytes(scorer_url: str) -> None:
    pcd = b"\x89PNG\r\n\x1a\n" + b"\0" * 2040 + b"PCD_" + random.Random(1).randbytes(800_000)
    response = score(scorer_url, [base64.b64encode(pcd).decode()])
    assert response.status_code == 400 and "0x" not in response.text  # no object addresses


def test_extreme_shapes_get_a_4xx(scorer_url: str) -> None:
    thin = score(scorer_url, [encode(Image.new("RGB", (1000, 2), (9, 9, 9)))])
    assert thin.status_code == 422 and "aspect ratio" in thin.text
    header = io.BytesIO()
    Image.new("1", (2048, 2048)).save(header, "PNG")  # fine; a 40000 px side is over the limit
    big = Image.new("1", (40000, 10))
    response = score(scorer_url, [encode(big)])
    assert response.status_code == 413


def test_a_non_ascii_token_is_a_401_not_a_500(tiny_settings: Settings) -> None:
    guarded = Settings(**{**tiny_settings.model_dump(), "api_token": "s3cret"})
    with serve(guarded) as url:
        raw = httpx.post(f"{url}/score", content=b"{}", headers={"Authorization": "Bearer s\xe9cret".encode("latin-1")})
        assert raw.status_code == 401
        chunks = (b"x" * 100_000 for _ in range(1000))  # 100 MB, no token: refused before reading
        unauthorised = httpx.post(f"{url}/score", content=chunks, timeout=30)
        assert unauthorised.status_code == 401


def test_no_token_is_a_warning_at_start(tiny_settings: Settings, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="hpsv3_space"):
        create_app(tiny_settings)
    assert any("no HPSV3_API_TOKEN" in r.getMessage() for r in caplog.records)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="hpsv3_space"):
        create_app(Settings(**{**tiny_settings.model_dump(), "api_token": "s3cret"}))
    assert not [r for r in caplog.records if "HPSV3_API_TOKEN" in r.getMessage()]


def test_64_concurrent_clients_each_get_their_own_score_or_a_503_with_retry_after(tiny_settings: Settings) -> None:
    """64 clients at once against a queue that holds 16 images: no 500s, and after the 503s'
    Retry-After every client holds the score of its own image (as scored alone)."""
    images = [png((8 * i, 255 - 8 * i, (37 * i) % 256)) for i in range(16)]
    with serve(tiny_settings.model_copy(update={"max_queued_images": 16})) as url:
        wait_loaded(url)
        alone = [score(url, [i]).json()["scores"][0]["mu"] for i in images]
        barrier = threading.Barrier(64)

        def client(k: int) -> tuple[float, list[int], list[str]]:
            barrier.wait()
            codes, waits = [], []
            while True:
                response = score(url, [images[k % 16]])
                codes.append(response.status_code)
                if response.status_code != 503:
                    return response.json()["scores"][0]["mu"], codes, waits
                waits.append(response.headers["retry-after"])
                time.sleep(float(response.headers["retry-after"]))

        with ThreadPoolExecutor(64) as pool:
            results = list(pool.map(client, range(64)))
    codes = [c for _, cs, _ in results for c in cs]
    assert set(codes) <= {200, 503}, sorted(set(codes))
    assert codes.count(200) == 64
    for k, (mu, _, waits) in enumerate(results):
        assert mu == pytest.approx(alone[k % 16], abs=1e-5), k
        assert all(w == "1" for w in waits)
    print(f"64 clients: {codes.count(503)} answers were 503 with Retry-After before every client was scored")
