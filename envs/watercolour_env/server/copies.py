"""The copy guard: a reply that reproduces a painting of the pool fails the gate, `copied_reference`.

A policy that remembers the pool earns the pool's scores without painting anything new; the
judge's references and the embedded scorer's fit come from the same pool (issue 33). The guard
runs on the server, after the render, where the sketch cannot reach it, at two levels:

- **Source**: the sketch's `code_tokens` (comments dropped; numbers, strings and its own names
  made alike, so recolouring, jittering and renaming change nothing) cut into shingles of
  `SHINGLE` tokens. A reference is copied when at least `SOURCE_THRESHOLD` of its distinctive
  shingles are in the reply: padding or reordering the copy keeps them. Shingles that any sketch
  of the ten methods has (the audit's formless families: `fill`, `fillBleed`, `fillTexture`,
  `beginShape`, ... in a row) are not evidence and are left out; a reference with fewer than
  `MIN_SHINGLES` distinctive shingles is judged by its picture only.
- **Picture**: the paint-presence map of the painting at `SIGNATURE_PX` px, correlated with each
  reference's, under 36 rotations about the centre and their mirror images. A reference is copied
  when the correlation is at least `PICTURE_THRESHOLD`: the same painting in other code,
  recoloured or rotated.
- **Picture, at any seed and place** (with the image encoder; issue 54): p5.brush's texture
  follows the seed, so a copy sent at another seed than the reference's render, or moved, fell
  under that threshold (0.64-0.90). The presence map, moved so that its paint's centre of mass
  is the canvas centre and blurred (`BLUR_PX`), correlated as above, is averaged with the cosine
  of the two paintings' learned features (`vision.encoder`); a reference is copied from
  `JOINT_THRESHOLD`. Measured on 84 copies at seeds 0-8 and moved 40 px (80% named) and 76
  renders of honest paintings and examples (none; the closest 0.877).

The thresholds come from measurement (docs/LOG.md, issue 33): 16 honest paintings written for the
audit reach at most 0.20 at the source and 0.84 in the picture; copies edited at the source reach
0.99-1.0 there, and copies recoloured or rotated 0.88-1.0 in the picture.
`WATERCOLOUR_COPY_GUARD=false` turns the guard off for someone who wants imitation.

What it misses (the red team of issue 33, `tests/fixtures/sketches/reward-attacks/`): a copy
re-coded without the composer's helpers and loops (every vertex written out) keeps none of the
template's shingles, and its picture differs in texture, since p5.brush draws its texture from
the order of the calls (0.73-0.87 here, where honest paintings reach 0.84).
"""

from __future__ import annotations

import functools
import hashlib
import io
from dataclasses import dataclass

import numpy as np
from PIL import Image

from watercolour_env.pool import Pool
from watercolour_env.server import derived
from watercolour_env.server.reward.embedded import unit_rows
from watercolour_env.server.reward.vision.encoder import ImageEncoder
from watercolour_env.server.sandbox import paper_colour
from watercolour_env.tokens import code_tokens

SHINGLE = 8
"""Tokens per shingle: about one brush call, `brush . fill ( $str , $num )`."""
SOURCE_THRESHOLD = 0.7
"""Share of a reference's distinctive shingles in a reply from which it is a copy: edited copies
reach 0.99-1.0, the project's example sketches (by the pool's composer) 0.35-0.47, honest
paintings by another hand at most 0.20 (docs/LOG.md, issue 33)."""
MIN_SHINGLES = 20
"""Distinctive shingles a reference needs to be judged at the source."""
SIGNATURE_PX = 64
PICTURE_THRESHOLD = 0.92
"""Correlation of paint-presence maps from which a painting is a copy: honest paintings reach at
most 0.84, verbatim and recoloured copies 0.93-1.0, copies rotated about the centre 0.88-0.99."""
ROTATIONS = 36
PRESENCE_DIFF = 48.0
"""Levels off the paper at which paint counts as fully present in the signature."""
BLUR_PX = 1.0
"""Gaussian blur of the centred presence map, in its pixels (about 9 px of the painting)."""
JOINT_THRESHOLD = 0.90
"""Mean of the centred, blurred presence correlation and the learned features' cosine from which
a painting is a copy: 67 of 84 copies at other seeds or moved reach it, and no honest painting or
example of 76 renders (the closest 0.877, the project's hibiscus example; docs/LOG.md, issue 54)."""


@dataclass(frozen=True)
class CopyMatch:
    """The pool painting a reply reproduces.

    Attributes:
        reference: the pool painting's id.
        level: "source" or "picture", where the copy was seen.
        similarity: the share of shingles (source) or the correlation (picture), in [0, 1].
    """

    reference: str
    level: str
    similarity: float

    def describe(self) -> str:
        """One line for the observation's detail, e.g. "copied_reference: bloom-03 (source 0.97)"."""
        return f"copied_reference: {self.reference} ({self.level} {self.similarity:.2f})"


def shingles(source: str) -> set[int]:
    """Hashes of every run of `SHINGLE` consecutive `code_tokens` of a sketch.

    The hash is the same in every process (each token's blake2b, combined by position with
    64-bit wrap-around), so a pool's shingles can be kept on disk (`derived`).
    """
    return set(_shingle_array(code_tokens(source)).tolist())


def _shingle_array(tokens: list[str]) -> np.ndarray:
    codes = np.array([_token_code(token) for token in tokens] or [0], dtype=np.uint64)
    windows = max(1, len(codes) - SHINGLE + 1)
    out = np.zeros(windows, dtype=np.uint64)
    for offset in range(min(SHINGLE, len(codes))):
        out += codes[offset : offset + windows] * _MIXERS[offset]  # uint64 arithmetic wraps
    return out.view(np.int64)


@functools.lru_cache(maxsize=65536)
def _token_code(token: str) -> np.uint64:
    return np.uint64(int.from_bytes(hashlib.blake2b(token.encode(), digest_size=8).digest(), "little"))


_MIXERS = np.array([(0x9E3779B97F4A7C15 * (2 * k + 1)) % 2**64 for k in range(SHINGLE)], dtype=np.uint64)
"""Odd 64-bit multipliers, one per position in a shingle (the golden-ratio constant's odd multiples)."""


def _sketch_shingles(sources: list[bytes]) -> list[np.ndarray]:
    return [np.unique(_shingle_array(code_tokens(s.decode("utf-8", errors="replace")))) for s in sources]


def common_shingles() -> set[int]:
    """Shingles of sketches that any policy writes: five draws of the audit's formless families."""
    return set(derived.rows("common-shingles", [b"families 6, seeds 10-14"], _common_shingles)[0].tolist())


def _common_shingles(_: list[bytes]) -> list[np.ndarray]:
    from watercolour_env.families import family_sketches

    common: set[int] = set()
    for seed in range(10, 15):
        for source in family_sketches(6, seed).values():
            common |= shingles(source)
    return [np.array(sorted(common), dtype=np.int64)]


def presence(png: bytes) -> np.ndarray:
    """[SIGNATURE_PX, SIGNATURE_PX] paint presence in [0, 1]: difference from the paper, clipped."""
    image = Image.open(io.BytesIO(png)).convert("RGB").resize((SIGNATURE_PX, SIGNATURE_PX), Image.Resampling.BOX)
    pixels = np.asarray(image)
    diff = np.abs(pixels.astype(np.float64) - paper_colour(pixels)).max(axis=2)
    return np.clip(diff / PRESENCE_DIFF, 0.0, 1.0)


def centred(map_: np.ndarray) -> np.ndarray:
    """The map moved (whole pixels, paper coming in) so that its paint's centre of mass is central."""
    total = float(map_.sum())
    if total <= 0:
        return map_
    ys, xs = np.indices(map_.shape)
    middle = (map_.shape[0] - 1) / 2
    dy = int(round(middle - float((ys * map_).sum()) / total))
    dx = int(round(middle - float((xs * map_).sum()) / total))
    out = np.zeros_like(map_)
    h, w = map_.shape
    out[max(0, dy) : h + min(0, dy), max(0, dx) : w + min(0, dx)] = map_[
        max(0, -dy) : h - max(0, dy), max(0, -dx) : w - max(0, dx)
    ]
    return out


def blurred(map_: np.ndarray, sigma: float = BLUR_PX) -> np.ndarray:
    """The map under a separable Gaussian blur of `sigma` pixels (edges fall off to paper)."""
    radius = int(3 * sigma + 0.5)
    kernel = np.exp(-(np.arange(-radius, radius + 1) ** 2) / (2 * sigma * sigma))
    kernel /= kernel.sum()
    rows = np.apply_along_axis(np.convolve, 1, map_, kernel, mode="same")
    return np.apply_along_axis(np.convolve, 0, rows, kernel, mode="same")


def placed(png: bytes) -> np.ndarray:
    """[SIGNATURE_PX, SIGNATURE_PX] the presence map, centred on its paint and blurred: the same at any place."""
    return blurred(centred(presence(png)))


def _presences(pngs: list[bytes]) -> list[np.ndarray]:
    return [presence(png) for png in pngs]


def _placed_maps(pngs: list[bytes]) -> list[np.ndarray]:
    return [placed(png) for png in pngs]


def _unit(vector: np.ndarray) -> np.ndarray:
    zero_mean = vector - vector.mean(axis=-1, keepdims=True)
    norm = np.linalg.norm(zero_mean, axis=-1, keepdims=True)
    return np.divide(zero_mean, norm, out=np.zeros_like(zero_mean), where=norm > 0)


def orientations(map_: np.ndarray) -> np.ndarray:
    """[2 * ROTATIONS, SIGNATURE_PX**2] the map rotated about its centre and mirrored, unit vectors."""
    image = Image.fromarray(np.round(map_ * 255).astype(np.uint8))
    out = []
    for base in (image, image.transpose(Image.Transpose.FLIP_LEFT_RIGHT)):
        for step in range(ROTATIONS):
            turned = base.rotate(step * 360 / ROTATIONS, resample=Image.Resampling.BILINEAR)
            out.append(np.asarray(turned, dtype=np.float64).ravel() / 255)
    return _unit(np.stack(out))


class CopyGuard:
    """The pool's paintings, ready to be compared with a reply at both levels.

    Args:
        pool: the deployment's pool (every rated painting, of any tier).
        source_threshold: see `SOURCE_THRESHOLD`.
        picture_threshold: see `PICTURE_THRESHOLD`.
        encoder: the image encoder, for the check at any seed and place; without it (the
            embedded scorer off and no encoder made) that check is skipped.

    Example:
        >>> guard = CopyGuard(Pool.load(str(STARTER_POOL)))  # doctest: +SKIP
        >>> guard.match(pool.references[0].sketch, None).reference  # doctest: +SKIP
        'bloom-01'
    """

    def __init__(
        self,
        pool: Pool,
        source_threshold: float = SOURCE_THRESHOLD,
        picture_threshold: float = PICTURE_THRESHOLD,
        encoder: ImageEncoder | None = None,
    ) -> None:
        self.source_threshold = source_threshold
        self.picture_threshold = picture_threshold
        self.encoder = encoder
        common = common_shingles()
        self._ids = [r.id for r in pool.references]
        sources = derived.rows(
            "shingles", [r.sketch.encode("utf-8", errors="replace") for r in pool.references], _sketch_shingles
        )
        distinctive = [(r.id, set(own.tolist()) - common) for r, own in zip(pool.references, sources, strict=True)]
        self._sources = [(ref, own) for ref, own in distinctive if len(own) >= MIN_SHINGLES]
        pngs = [r.png for r in pool.references]
        self._pictures = _unit(np.stack([m.ravel() for m in derived.rows("presence", pngs, _presences)]))
        self._placed = _unit(np.stack([m.ravel() for m in derived.rows("placed", pngs, _placed_maps)]))
        self._features = None if encoder is None else unit_rows(encoder.pool_features([r.png for r in pool.references]))

    def match(self, sketch: str, png: bytes | None, ignore: str | None = None) -> CopyMatch | None:
        """The pool painting this reply copies, or None.

        A copy seen at the source names, of the references over the threshold, the one with the
        largest share, ties going to the closest picture (the starter pool's sketches share one
        template, so a copy of one holds the others' shingles too).

        Args:
            sketch: the extracted sketch.
            png: its render, or None when there is none (the source alone is compared).
            ignore: the id of a painting this reply may copy (the oracle, in an episode reset for
                it): left out, so a reply that copies it and another painting is named for the other.
        """
        shares = {ref: share for ref, share in self._shares(sketch).items() if ref != ignore}
        pictures = self._pictures_like(png) if png is not None else None
        if pictures is not None and ignore in self._ids:
            pictures[self._ids.index(ignore)] = -1.0
        over = [(share, ref) for ref, share in shares.items() if share >= self.source_threshold]
        if over:
            closeness = (lambda ref: pictures[self._ids.index(ref)]) if pictures is not None else (lambda ref: 0.0)
            share, ref = max(over, key=lambda item: (round(item[0], 2), closeness(item[1])))
            return CopyMatch(ref, "source", share)
        if pictures is not None and pictures.max() >= self.picture_threshold:
            best = int(pictures.argmax())
            return CopyMatch(self._ids[best], "picture", float(pictures[best]))
        joint = self._joint_like(png) if png is not None else None
        if joint is not None and ignore in self._ids:
            joint[self._ids.index(ignore)] = -1.0
        if joint is not None and joint.max() >= JOINT_THRESHOLD:
            best = int(joint.argmax())
            return CopyMatch(self._ids[best], "picture", float(joint[best]))
        return None

    def closest(self, sketch: str, png: bytes | None) -> tuple[CopyMatch, CopyMatch | None]:
        """The closest reference at the source and in the picture, whatever the thresholds (to measure)."""
        shares = self._shares(sketch)
        ref = max(shares, key=shares.__getitem__, default="")
        source = CopyMatch(ref, "source", shares.get(ref, 0.0))
        if png is None:
            return source, None
        pictures = self._pictures_like(png)
        best = int(pictures.argmax())
        return source, CopyMatch(self._ids[best], "picture", float(pictures[best]))

    def _shares(self, sketch: str) -> dict[str, float]:
        """Reference id -> the share of its distinctive shingles in the sketch."""
        reply = shingles(sketch)
        return {ref: len(own & reply) / len(own) for ref, own in self._sources}

    def _joint_like(self, png: bytes) -> np.ndarray | None:
        """[references] the mean of the placed-map correlation and the features' cosine; None without an encoder."""
        if self.encoder is None or self._features is None:
            return None
        maps = (orientations(placed(png)) @ self._placed.T).max(axis=0)
        cosine = self._features @ unit_rows(self.encoder.feature(png)[None])[0]
        return (maps + cosine) / 2

    def _pictures_like(self, png: bytes) -> np.ndarray:
        """[references] the best correlation of the painting with each, over its orientations."""
        return (orientations(presence(png)) @ self._pictures.T).max(axis=0)
