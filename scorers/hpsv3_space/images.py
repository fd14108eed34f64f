"""The request's images: base64 PNG in, 8-bit RGB out, with every check before a decoder sees them."""

from __future__ import annotations

import base64
import binascii
import io
import logging

from fastapi import HTTPException

from hpsv3_space.settings import Settings

log = logging.getLogger("hpsv3_space")


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_ASPECT = 200
"""Qwen2-VL's image processor refuses an aspect ratio above 200 (`smart_resize`)."""


def decode_png(data: str, index: int, settings: Settings):  # noqa: ANN201 (PIL.Image.Image)
    """A base64 PNG as an 8-bit RGB PIL image, transparency composited onto white.

    Whitespace in the base64 (line-wrapped output of `base64`) is ignored; a `data:` prefix is
    allowed. Only Pillow's PNG decoder ever sees the bytes.

    Raises:
        HTTPException: 400 bad base64 or an undecodable PNG, 413 too many bytes or pixels,
            415 not a PNG, 422 an aspect ratio over 200.
    """
    from PIL import Image

    if data.startswith("data:"):
        data = data.partition(",")[2]
    if len(data) > settings.max_image_bytes * 4 // 3 + 4096:
        raise HTTPException(413, f"image {index} is over {settings.max_image_bytes} bytes")
    try:
        raw = base64.b64decode("".join(data.split()), validate=True)
    except (binascii.Error, ValueError) as err:
        raise HTTPException(400, f"image {index} is not valid base64: {err}") from err
    if len(raw) > settings.max_image_bytes:
        raise HTTPException(413, f"image {index} is over {settings.max_image_bytes} bytes")
    if not raw.startswith(PNG_SIGNATURE):
        raise HTTPException(415, f"image {index} is not a PNG (only image/png is accepted)")
    try:
        image = Image.open(io.BytesIO(raw), formats=["PNG"])
        width, height = image.size
        if max(width, height) > settings.max_image_side:
            raise HTTPException(413, f"image {index} is {width}x{height}, over {settings.max_image_side} px a side")
        if max(width, height) > MAX_ASPECT * min(width, height):
            raise HTTPException(422, f"image {index} is {width}x{height}: an aspect ratio over {MAX_ASPECT}")
        image.load()
    except HTTPException:
        raise
    except Image.DecompressionBombError as err:
        raise HTTPException(413, f"image {index} has too many pixels") from err
    except Exception as err:  # noqa: BLE001 (PIL raises many types for broken files)
        raise HTTPException(400, f"image {index} is not a readable PNG ({type(err).__name__})") from err
    return to_rgb(image)


def to_rgb(image):  # noqa: ANN001, ANN201 (PIL.Image.Image)
    """8-bit RGB: 16-bit grey scaled down (not clipped), transparency composited onto white."""
    import numpy as np
    from PIL import Image

    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        grey = np.asarray(image, dtype=np.uint32)
        scale = 257 if grey.max(initial=0) > 255 or image.mode != "I" else 1
        image = Image.fromarray((grey // scale).clip(0, 255).astype(np.uint8), "L")
    if image.mode == "P" and "transparency" in image.info:
        image = image.convert("RGBA")
    if image.mode in ("RGBA", "LA", "PA"):
        rgba = image.convert("RGBA")
        paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(paper, rgba).convert("RGB")
    return image.convert("RGB")
