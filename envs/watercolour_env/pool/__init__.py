"""The reference pool.

Its format and loader (what the server uses), and the curation tools (render, contact sheets,
the rating page, generation, the Hub, calibration), which the server never imports.
"""

from watercolour_env.pool.loader import STARTER_POOL, Pool, PoolRow, Reference, Tier, read_manifest, write_manifest

__all__ = ["STARTER_POOL", "Pool", "PoolRow", "Reference", "Tier", "read_manifest", "write_manifest"]
