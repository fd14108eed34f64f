"""The embedded scorer's view of a painting: 24 image features on a 150 px thumbnail (one at 300 px).

Colour, value, edges, composition and form (issue 33 added the form; docs/LOG.md).
"""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from watercolour_env.server.sandbox import PAINT_DELTA, paper_colour

THUMB_PX = 150
PREFERENCE_FEATURES = (
    "coverage",
    "coverage_sq",
    "saturation",
    "darkest",
    "value_contrast",
    "layering",
    "edge_sharpness",
    "centre_offset",
    "spread",
    "border_paint",
    "bbox_fill",
    "paint_strength",
    "edge_order",
    "parts",
    "dark_centre",
    "roundness",
    "petals",
)
"""The 17 features the Bradley-Terry utility weighs. Colourfulness and hue spread are not among
them: "more hues" paid by itself (a swatch card of 12 hues beat the pool), and held-out accuracy
is as good without them; the dark centre, roundness and petals are, so that a painting of another
subject is told from a bloom by its form, not its colour (docs/LOG.md, issue 33). The range
still bounds the hues."""
FEATURES = PREFERENCE_FEATURES + (
    "colourfulness",
    "hue_spread",
    "stroke_order",
    "largest_part",
    "outline_variation",
    "dominant_hue",
    "teeth",
)
"""Every feature, in the order of `image_features`."""
RANGE_FEATURES = (
    "centre_offset",
    "spread",
    "border_paint",
    "bbox_fill",
    "hue_spread",
    "edge_order",
    "stroke_order",
    "parts",
    "largest_part",
    "outline_variation",
    "dominant_hue",
    "teeth",
)
"""The 12 features of form, composition and hue count kept inside the pool's love and okay range.
Colour and value (coverage, saturation, darkness, paint strength) are left to the utility: bounding
them too scored 9 of 12 honest new hibiscus paintings 0.0 for being stronger than the pale pool
(docs/LOG.md, issue 33). `teeth` is bounded from above only (`embedded.UPPER_ONLY`)."""
FINE_PX = 300
"""Side of the second thumbnail, for `teeth`: a starburst's gaps are a few pixels wide."""
MIN_PART = 0.02
"""A separate part counts when it holds at least this share of the paint."""


def image_features(png: bytes) -> np.ndarray:
    """The 24 features of `FEATURES` for one painting, float64.

    Each is in [0, 1] except `edge_sharpness` and `centre_offset` (0 to about 1.5).

    Args:
        png: PNG bytes of a 600x600 painting.
    """
    full = Image.open(io.BytesIO(png)).convert("RGB")
    image = full.resize((THUMB_PX, THUMB_PX), Image.Resampling.BOX)
    pixels = np.asarray(image)
    rgb = pixels.astype(np.float64)
    diff = np.abs(rgb - paper_colour(pixels)).max(axis=2)
    mask = diff > PAINT_DELTA  # paint as the gate counts it (sandbox.paper_colour), on the thumbnail
    coverage = float(mask.mean())
    f = dict.fromkeys(FEATURES, 0.0)
    f["coverage"], f["coverage_sq"] = coverage, coverage**2
    if mask.sum() >= 20:
        paint = rgb[mask]
        hsv = np.asarray(image.convert("HSV"), dtype=np.float64)[mask]
        rg, yb = paint[:, 0] - paint[:, 1], 0.5 * (paint[:, 0] + paint[:, 1]) - paint[:, 2]
        f["colourfulness"] = min(1.0, (np.hypot(rg.std(), yb.std()) + 0.3 * np.hypot(rg.mean(), yb.mean())) / 100)
        f["saturation"] = hsv[:, 1].mean() / 255
        hues = np.bincount((hsv[:, 0] * 12 // 256).astype(np.int64), minlength=12) / len(hsv)
        hues = hues[hues > 0]
        f["hue_spread"] = float(-(hues * np.log(hues)).sum() / np.log(12))
        f["darkest"] = 1 - np.percentile(hsv[:, 2], 5) / 255
        f["value_contrast"] = hsv[:, 2].std() / 128
        f["layering"] = diff[mask].std() / 128
        f["paint_strength"] = diff[mask].mean() / 255
        gy, gx = np.gradient(diff)
        f["edge_sharpness"] = float(np.hypot(gx, gy)[mask].mean() / max(1.0, diff[mask].mean()))
        ys, xs = np.nonzero(mask)
        weights = diff[mask]
        cy, cx = np.average(ys, weights=weights), np.average(xs, weights=weights)
        half = THUMB_PX / 2
        f["centre_offset"] = float(np.hypot(cy - half, cx - half) / half)
        f["spread"] = float(np.sqrt(np.average((ys - cy) ** 2 + (xs - cx) ** 2, weights=weights)) / half)
        edge = max(1, THUMB_PX // 30)
        border = np.zeros_like(mask)
        border[:edge], border[-edge:], border[:, :edge], border[:, -edge:] = True, True, True, True
        f["border_paint"] = float(mask[border].mean())
        box = (ys.max() - ys.min() + 1) * (xs.max() - xs.min() + 1)
        f["bbox_fill"] = float(mask.sum() / box)
        fine = np.asarray(full.resize((FINE_PX, FINE_PX), Image.Resampling.BOX))
        f.update(_form_features(diff, mask, image, np.abs(fine.astype(np.float64) - paper_colour(fine)).max(axis=2)))
    return np.array([f[name] for name in FEATURES], dtype=np.float64)


def _form_features(diff: np.ndarray, mask: np.ndarray, image: Image.Image, fine: np.ndarray) -> dict[str, float]:
    """The form features of a thumbnail with paint (`mask.sum() >= 20`).

    - edge_order, stroke_order: how much the paint's edges share one orientation modulo 90 and
      180 degrees, in [0, 1], whatever the rotation: 1 for a grid of squares or a band, about
      0.05 for a bloom.
    - parts: 1 - 1/n, n the number of 8-connected parts holding `MIN_PART` of the paint or more
      (0 for one part, 0.5 for two, towards 1 for a scatter); largest_part: the largest part's share of the paint.
    - outline_variation: the coefficient of variation of the largest part's outer radius over
      36 directions from its centre; petals: the strongest of its 3rd to 8th harmonics, relative
      to the mean radius (a five-petal bloom has a strong 5th).
    - dark_centre: c / (c + m), c the paint strength within 0.2 mean radii of the largest part's
      centre and m its mean: 0.5 when the centre is no darker, about 0.65 for a bloom's throat.
    - roundness: the largest part's area over the disc of its largest radius, in (0, 1].
    - dominant_hue: the largest share of tinted paint within two adjacent 30-degree hue bins.
    """
    gy, gx = np.gradient(diff)
    magnitude, angle = np.hypot(gx, gy), np.arctan2(gy, gx)
    weight = magnitude * (magnitude > 2)
    total = weight.sum() + 1e-9
    f = {
        "edge_order": float(abs((weight * np.exp(4j * angle)).sum()) / total),
        "stroke_order": float(abs((weight * np.exp(2j * angle)).sum()) / total),
    }
    labels, sizes = label_parts(mask)
    paint = mask.sum()
    f["parts"] = float(1 - 1 / max(1, (sizes >= MIN_PART * paint).sum()))
    f["largest_part"] = float(sizes.max() / paint)
    part = labels == int(sizes.argmax()) + 1
    ys, xs = np.nonzero(part)
    cy, cx = np.average(ys, weights=diff[part]), np.average(xs, weights=diff[part])
    f["teeth"] = _teeth(fine, ys, xs, cy, cx, fine.shape[0] / mask.shape[0])
    radius = np.hypot(ys - cy, xs - cx)
    direction = ((np.arctan2(ys - cy, xs - cx) + np.pi) / (2 * np.pi) * 36).astype(np.int64) % 36
    outline = np.zeros(36)
    np.maximum.at(outline, direction, radius)
    mean_radius = outline.mean() + 1e-9
    f["outline_variation"] = float(outline.std() / mean_radius)
    f["petals"] = float(np.abs(np.fft.rfft(outline - outline.mean()))[3:9].max() / (18 * mean_radius))
    inner = radius < 0.2 * mean_radius
    centre = diff[ys[inner], xs[inner]].mean() if inner.any() else 0.0
    f["dark_centre"] = float(centre / (centre + diff[part].mean()))
    f["roundness"] = float(min(1.0, part.sum() / (np.pi * outline.max() ** 2 + 1e-9)))
    hsv = np.asarray(image.convert("HSV"), dtype=np.float64)[mask]
    tinted = hsv[hsv[:, 1] > 12, 0]
    if len(tinted) > 10:
        hues = np.bincount((tinted * 12 // 256).astype(np.int64), minlength=12) / len(tinted)
        f["dominant_hue"] = float((hues + np.roll(hues, -1)).max())
    else:
        f["dominant_hue"] = 1.0
    return f


def _teeth(
    fine: np.ndarray, ys: np.ndarray, xs: np.ndarray, cy: float, cx: float, scale: float, bins: int = 180
) -> float:
    """Rays rather than petals: h / (h + l) of the paint's angular profile round the largest part.

    The profile is the mean paint strength in each of `bins` directions, in the ring from 0.3 to
    0.9 of the part's 90th-percentile radius, on the `FINE_PX` thumbnail `fine` (its paint-minus-
    paper strength; the part's pixels `ys`, `xs` and centre `cy`, `cx` are the thumbnail's, `scale`
    times smaller). h
    is the profile's strongest harmonic from the 10th to the 45th, l its strongest 3rd to 8th. In
    [0, 1]: the starter pool's love and okay paintings 0.10-0.49, honest new hibiscus paintings
    0.06-0.45, the warm start's corpus 0.14-0.46, generated starbursts of 16-32 rays 0.49-0.78, a
    sun with 14 rays 0.76 (docs/LOG.md, issue 33, third session). A stamen or a stem is thin, so it
    moves the profile little.
    """
    cy, cx = cy * scale, cx * scale
    reach = np.percentile(np.hypot(ys * scale - cy, xs * scale - cx), 90)
    yy, xx = np.mgrid[0 : fine.shape[0], 0 : fine.shape[1]]
    radius = np.hypot(yy - cy, xx - cx)
    ring = (radius >= 0.3 * reach) & (radius <= 0.9 * reach)
    direction = ((np.arctan2(yy - cy, xx - cx)[ring] + np.pi) / (2 * np.pi) * bins).astype(np.int64) % bins
    counts = np.bincount(direction, minlength=bins)
    profile = np.bincount(direction, weights=fine[ring], minlength=bins) / np.maximum(counts, 1)
    spectrum = np.abs(np.fft.rfft(profile - profile.mean()))
    high, low = spectrum[10:46].max(), spectrum[3:9].max()
    return float(high / (high + low + 1e-9))


def label_parts(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """8-connected parts of a boolean image: (labels 1..n, 0 off the mask; sizes [n] in pixels).

    Runs of each row are joined to the runs they touch in the row above, with a union-find over
    runs, so the cost grows with the number of runs, not with a part's diameter.
    """
    height, width = mask.shape
    padded = np.zeros((height, width + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    edges = np.diff(padded, axis=1)
    rows, starts = np.nonzero(edges == 1)
    ends = np.nonzero(edges == -1)[1]  # exclusive; same order as starts (row-major)
    parent = list(range(len(starts)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    above_first = above_end = 0  # the runs of the row above: indices [above_first, above_end)
    row_first = 0
    for i in range(len(starts)):
        if i == 0 or rows[i] != rows[i - 1]:
            above_first, above_end = (row_first, i) if i and rows[i] == rows[i - 1] + 1 else (i, i)
            row_first = i
        for j in range(above_first, above_end):  # 8-connected: touching or diagonal
            if starts[j] <= ends[i] and ends[j] >= starts[i]:
                parent[root(j)] = root(i)
    roots = np.array([root(i) for i in range(len(starts))], dtype=np.int64)
    _, label_of_run = np.unique(roots, return_inverse=True)
    labels = np.zeros((height, width), dtype=np.int64)
    for run, (row, start, end) in enumerate(zip(rows, starts, ends, strict=True)):
        labels[row, start:end] = label_of_run[run] + 1
    return labels, np.bincount(labels.ravel())[1:]
