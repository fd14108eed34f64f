"""The p5.brush API of the pinned build, read from the installed package, not written by hand."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from watercolour_env.server.sandbox.library_server import DEFAULT_JS_DIR

_EXPORTS = re.compile(r"export\s*\{([^}]*)\}\s*;?\s*(?://# sourceMappingURL=\S*\s*)?$")


@functools.cache
def brush_methods(js_dir: Path = DEFAULT_JS_DIR) -> frozenset[str]:
    """Names exported by the installed p5.brush ESM build (the `brush.*` API), e.g. "fillBleed".

    Raises:
        FileNotFoundError: p5.brush is not installed (run `make install`).
        ValueError: the build has no export list this parser understands.
    """
    source = (js_dir / "p5.brush" / "dist" / "p5.brush.esm.js").read_text(encoding="utf-8")
    match = _EXPORTS.search(source[-8000:])
    if match is None:
        raise ValueError("no export list at the end of p5.brush.esm.js; update brush_api.py for this build")
    names = {part.split(" as ")[-1].strip() for part in match.group(1).split(",")}
    return frozenset(name for name in names if name)
