"""What a render gives back.

Its status and result, the checks on the PNG before any decoder sees it, and how much of the
paper is painted.
"""

from __future__ import annotations

import base64
import enum
import io
import re
from dataclasses import dataclass, field

import numpy as np
from PIL import Image

CANVAS_PX = 600
# Channel difference (0-255) above which a pixel counts as paint rather than paper.
PAINT_DELTA = 12


# What a report's text may carry: a sketch chooses its error messages, so each is cut to this
# many characters and at most this many are kept (the harness cuts them too, static/harness.js).
MAX_ERROR_CHARS = 2000
MAX_ERRORS = 20
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: object, max_chars: int = MAX_ERROR_CHARS) -> str:
    """Text from the sandbox made safe to send: valid Unicode, at most `max_chars` characters.

    A lone UTF-16 surrogate (half an emoji, made at run time by `"🌺".slice(0, 1)`) cannot be
    encoded as UTF-8 or JSON; it becomes U+FFFD. Longer text is cut and ends in "…".

    Args:
        text: anything; it is turned into a string first.
        max_chars: the longest result, in characters (>= 1).

    Returns:
        A string of at most `max_chars` characters that encodes as UTF-8.
    """
    text = text if isinstance(text, str) else str(text)
    if len(text) > max_chars:
        text = text[: max_chars - 1] + "…"
    return _LONE_SURROGATE.sub("\ufffd", text)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# A 600x600 RGBA PNG is at most ~1.45 MB even stored uncompressed; its data URL a third more.
MAX_DATA_URL_CHARS = 2_500_000


def check_png(data_url: object) -> tuple[bytes | None, str]:
    """Decodes the sandbox's data URL only if it is the canvas PNG the renderer expects.

    Checks, before any image decoder sees the bytes: a `data:image/png;base64,` URL of at most
    `MAX_DATA_URL_CHARS`, the PNG signature, and an IHDR of 600x600 pixels, 8-bit RGBA (colour
    type 6), what Chromium's `toDataURL` gives for a WebGL canvas. The size check bounds the
    decoded image to 600x600, so no decompression bomb reaches PIL.

    Args:
        data_url: the `png` field of the sandbox's report.

    Returns:
        (png bytes, "") when valid, else (None, what was wrong), e.g. "canvas is 800x800 pixels".
    """
    prefix = "data:image/png;base64,"
    if not isinstance(data_url, str) or not data_url.startswith(prefix):
        return None, "not a PNG data URL"
    if len(data_url) > MAX_DATA_URL_CHARS:
        return None, f"data URL of {len(data_url)} characters"
    try:
        png = base64.b64decode(data_url[len(prefix) :], validate=True)
    except ValueError:
        return None, "invalid base64"
    if png[:8] != PNG_SIGNATURE or png[12:16] != b"IHDR" or len(png) < 33:
        return None, "no PNG signature and header"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    if (width, height) != (CANVAS_PX, CANVAS_PX):
        return None, f"canvas is {width}x{height} pixels, not {CANVAS_PX}x{CANVAS_PX}"
    if (png[24], png[25]) != (8, 6):
        return None, f"bit depth {png[24]} and colour type {png[25]}, not 8-bit RGBA"
    return png, ""


def guard_violations(raw: object) -> list[tuple[str, str]]:
    """The guard's records as (violation, what), dropping anything malformed."""
    out = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, dict) and isinstance(item.get("kind"), str):
            out.append((clean_text(item["kind"], 40), clean_text(item.get("name", ""), 80)))
    return out[:40]


class RenderStatus(str, enum.Enum):
    """How a render ended: a closed set."""

    OK = "ok"
    SKETCH_ERROR = "sketch_error"
    TIMEOUT = "timeout"
    INFRA_ERROR = "infra_error"


@dataclass
class RenderResult:
    """One render's outcome.

    Attributes:
        status: how the render ended.
        png: PNG bytes of the 600x600 canvas, or None when nothing could be read back.
        paint_fraction: share of pixels that differ from the paper colour, in [0, 1].
        finished: True when the sketch completed a frame (setup and first draw) without error.
        js_errors: uncaught JavaScript errors in the order they happened.
        elapsed_ms: wall time of the render including queueing for a worker.
        queued_ms: the part of `elapsed_ms` spent waiting for a worker.
        renderer: the WebGL renderer string of the browser that ran it.
        detail: a human-readable reason for a non-ok status.
        violations: what the sandbox blocked and recorded while the sketch ran, as
            (violation name, what was reached), e.g. ("bare_primitive", "ellipse"); the names
            are `Violation` values. Also "invalid_frame" when the picture was not a 600x600 PNG.
        recording: a recorder's report of the sketch's calls, as the frame sent it (unchecked:
            sealed.py checks it), or None from a painting frame.
    """

    status: RenderStatus
    png: bytes | None = None
    paint_fraction: float = 0.0
    finished: bool = False
    js_errors: list[str] = field(default_factory=list)
    elapsed_ms: float = 0.0
    queued_ms: float = 0.0
    renderer: str = ""
    detail: str = ""
    violations: list[tuple[str, str]] = field(default_factory=list)
    recording: object = None


def paper_colour(rgb: np.ndarray, stride: int = 1) -> np.ndarray:
    """The paper's colour: the most common colour of an image, as int32 [3] in 0-255.

    What counts as paint, everywhere (the gate's paint fraction, the embedded scorer's
    features): a pixel any channel of which differs from this colour by more than `PAINT_DELTA`.

    Args:
        rgb: uint8 pixels [..., 3].
        stride: count every `stride`-th pixel only (the paper is most of a painting).
    """
    sample = rgb.reshape(-1, 3)[::stride].astype(np.int32)
    values, counts = np.unique((sample[:, 0] << 16) | (sample[:, 1] << 8) | sample[:, 2], return_counts=True)
    mode = int(values[np.argmax(counts)])
    return np.array([(mode >> 16) & 255, (mode >> 8) & 255, mode & 255], dtype=np.int32)


def paint_fraction(png: bytes) -> float:
    """Share of pixels that are paint: any channel more than `PAINT_DELTA` from `paper_colour`.

    Args:
        png: PNG bytes of an RGB(A) image.

    Returns:
        A fraction in [0, 1]; 0.0 for a single-colour canvas.
    """
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    flat = rgb.reshape(-1, 3)
    # The mode from every 7th pixel (51,429 of 360,000; 7 is prime to the 600-pixel rows), since
    # the paper is most of a painting; with the uint8 comparison below, 14.5 ms instead of 23 a
    # painting, the same value on all 62 starter-pool paintings (docs/LOG.md).
    paper = paper_colour(flat, stride=7)
    low = np.clip(paper - PAINT_DELTA, 0, 255).astype(np.uint8)
    high = np.clip(paper + PAINT_DELTA, 0, 255).astype(np.uint8)
    paint = ((flat < low) | (flat > high)).any(axis=1)  # |channel - paper| > PAINT_DELTA, in uint8
    return float(paint.mean())


def read_report(payload: dict, enforce: bool) -> tuple[RenderStatus, dict]:
    """Reads the sandbox's report on one render (static/harness.js) into a status and result fields.

    Args:
        payload: the report: `reason` ("drawn" or "navigated"), `errors`, `violations`, `png`
            (a data URL) and `guard` ("on", or why the allowlist did not run).
        enforce: whether the allowlist was meant to run; a render it did not watch gets no
            verdict (`INFRA_ERROR`).

    Returns:
        The status and the `RenderResult` fields besides it (png, paint_fraction, finished,
        js_errors, detail, violations; only detail for `INFRA_ERROR`).
    """
    guard = payload.get("guard", "on")
    if enforce and payload.get("reason") != "navigated" and guard != "on":
        return RenderStatus.INFRA_ERROR, {"detail": clean_text(f"the sandbox guard did not run: {guard}", 500)}
    raw_errors = payload.get("errors")
    errors = [clean_text(e) for e in (raw_errors if isinstance(raw_errors, list) else [])[:MAX_ERRORS]]
    violations = guard_violations(payload.get("violations"))
    png, detail = None, ""
    data_url = payload.get("png")
    if data_url:
        png, problem = check_png(data_url)
        if problem:
            # resizeCanvas, pixelDensity or a huge createCanvas: not the environment's canvas
            violations.append(("canvas_change" if problem.startswith("canvas is") else "invalid_frame", problem))
            detail = f"the reported picture is not a {CANVAS_PX}x{CANVAS_PX} PNG: {problem}"
    finished = payload.get("reason") == "drawn" and not errors and not detail
    if not detail and not finished:
        detail = "the sketch navigated away" if payload.get("reason") == "navigated" else "the sketch threw"
    fields = {
        "png": png,
        "paint_fraction": paint_fraction(png) if png else 0.0,
        "finished": finished,
        "js_errors": errors,
        "detail": detail,
        "violations": violations,
        "recording": payload.get("recording"),
    }
    return (RenderStatus.OK if finished else RenderStatus.SKETCH_ERROR), fields
