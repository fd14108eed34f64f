"""The limits the server and its clients both hold: one copy, read by each side.

The server refuses what lies outside them (`server/watercolour_environment.py`, `server/settings.py`);
the client and the command line check them before a round trip, and the client waits for the
episode deadline plus a margin.
"""

MAX_SEED = 2**32 - 1
"""The largest seed: Math.random's seed in the renderer is an unsigned 32-bit integer."""
MAX_SUBJECT_CHARS = 200
"""A subject is a few words for the prompt ("a peach hibiscus"), not a second prompt."""
DEFAULT_MAX_REPLY_BYTES = 262_144
"""About 65,000 tokens of code: 8 times the longest completion budget of the seed's runs (8,192)."""
DEFAULT_RENDER_DEADLINE_S = 20.0
"""How long one render may take, in seconds: the 41-fill sketch renders in 2.6 s (decision 0003,
"Rendering"), so this leaves room for a loaded machine and a slow sketch."""
MAX_RENDER_DEADLINE_S = 300.0
"""The longest render deadline a deployment or `watercolour render` may set, in seconds."""
DEFAULT_EPISODE_DEADLINE_S = 120.0
"""One step's whole budget (render queue, render, scorers): the render deadline (above) and the
judge's request timeout (60 s) with room for the queue of 64 sessions on 2 workers (p99 67 s;
docs/LOG.md, issue 15)."""
MAX_REFERENCES = 32
"""The most references one episode may ask the judge for (each is two comparisons); the same
bound as `WATERCOLOUR_REFERENCES_PER_EPISODE`."""
MAX_REVISIONS = 8
"""The most revisions a reset may ask for (an episode of at most 9 paintings); a deployment may
allow fewer (`WATERCOLOUR_MAX_REVISIONS`, 3 by default)."""
DEFAULT_MAX_REVISIONS = 3
"""The pool itself was drafted in three rounds under a vision critic (the seed's notes)."""
MAX_DETAIL_CHARS = 4000
"""The longest `detail` a step sends, in characters: a few violations and their reasons."""
