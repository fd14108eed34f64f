"""A local placeholder scorer from image statistics: no network, no weights.

PLACEHOLDER. It stands in for the real scorers (HPSv3, the pairwise judge and the embedded
preference model of issue 6) so that the reward has real variance on real paintings from day
one. It knows nothing of taste or of flowers: it rewards a moderate share of paint, colourful
paint and a range of hues, and cannot tell a hibiscus from a smear.
"""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from watercolour_env.server.render import PAINT_DELTA

TARGET_COVERAGE = 0.35
"""Paint fraction at which the coverage term peaks; the seed's judge runs ended at 0.23-0.30."""


def image_stats_score(png: bytes) -> tuple[float, dict[str, float]]:
    """Scores a painting from its pixels.

    Terms, each in [0, 1]: coverage (paint fraction, peaking at `TARGET_COVERAGE` and falling
    to 0 at full cover), colourfulness of the painted pixels (Hasler and Suesstrunk 2003, M / 100 clipped to 1) and
    hue spread (entropy of a 12-bin hue histogram of painted pixels over log 12).

    Args:
        png: PNG bytes of a 600x600 image.

    Returns:
        The mean of the three terms in [0, 1], and the terms by name.
    """
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.float32)
    flat = rgb.reshape(-1, 3)
    paper = np.median(flat, axis=0)
    painted = np.abs(flat - paper).max(axis=1) > PAINT_DELTA
    fraction = float(painted.mean())
    if fraction <= TARGET_COVERAGE:
        coverage = fraction / TARGET_COVERAGE
    else:
        coverage = max(0.0, 1.0 - (fraction - TARGET_COVERAGE) / (1.0 - TARGET_COVERAGE))

    colour = hue_spread = 0.0
    if painted.sum() >= 100:
        paint = flat[painted]
        r, g, b = paint[:, 0], paint[:, 1], paint[:, 2]
        rg, yb = r - g, 0.5 * (r + g) - b
        colourfulness = float(np.hypot(rg.std(), yb.std()) + 0.3 * np.hypot(rg.mean(), yb.mean()))
        colour = min(1.0, colourfulness / 100.0)
        hsv = np.asarray(Image.fromarray(rgb.astype(np.uint8)).convert("HSV")).reshape(-1, 3)
        hues = hsv[painted, 0].astype(np.int32) * 12 // 256
        p = np.bincount(hues, minlength=12) / hues.size
        p = p[p > 0]
        hue_spread = float(-(p * np.log(p)).sum() / np.log(12))

    terms = {"coverage": coverage, "colourfulness": colour, "hue_spread": hue_spread}
    return float(np.mean(list(terms.values()))), terms
