"""The sandboxed renderer and everything it trusts.

Chromium, the library server, the guard and harness scripts (static/), the pinned p5 and
p5.brush (js/), the network namespace.
"""

from watercolour_env.server.sandbox.renderer import CANVAS_PX, Renderer, RenderResult, RenderStatus

__all__ = ["CANVAS_PX", "RenderResult", "RenderStatus", "Renderer"]
