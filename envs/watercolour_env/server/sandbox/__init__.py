"""The sandboxed renderer and everything it trusts.

Chromium (chromium.py, renderer.py, pages.py), the sealed render (sealed.py), the library
server, the guard, recorder and harness scripts (static/), the pinned p5 and p5.brush (js/), the
network namespace (netns.py), and what a render gives back (picture.py).

Threat model (the adversary is the policy; docs/decisions/0002-sandbox-threat-model.md has the
table of what a sketch must not do, the layer that stops it and the test that proves it): a
sketch may paint with the ten brush methods and take its deadline; it must not paint otherwise,
forge the report, reach the host page or the network, leave state for the next render, cost
another render its reward, or make the gate fail.

What the sandbox covers: the sketch runs in an `<iframe sandbox="allow-scripts
allow-same-origin">` served from another origin than the host page (another port: no popups, no
dialogs, no top navigation, no access to the host page; storage APIs and WebRTC are removed by
the harness; an opaque origin would have cost ~100 ms a render, its HTTP cache never hit) under
a Content-Security-Policy that forbids fetch, XHR, WebSocket, EventSource, workers, nested
frames, foreign scripts and foreign images. Outside the policy, host names other than 127.0.0.1
do not resolve and every address, loopback included, goes to a dead proxy except the library
server's two ports; WebRTC may use nothing but that proxy, so nothing leaves the renderer (a
child frame's own WebRTC reached a loopback canary over UDP and TCP before). Beneath all that,
where the machine allows it, every Chromium process runs in a network namespace whose only
interface is loopback (netns.py): no route out whatever the flags miss. After each render
the frame origin's storage is wiped over CDP (what a child frame of the sketch's stored, the
origin private file system), and only the libraries' exact URLs are cacheable, so no render
can count the ones before it. A timeout whose cause is a stalled GPU process (shared by every
page of its browser; the pages may be split over several browsers, browsers.py) relaunches that
browser, and the renders it lost are rendered again, alone in that browser (others may render
beside it on the same cores), so only the sketch that stalls it again is judged for it. The
report comes by postMessage with a nonce the sketch cannot read. The frame is removed when it
reports, so timers cannot paint later; a frame that navigates away is reported.
V8's heap is capped (1 GiB): a memory flood crashes the page, which is replaced. Every render has
a deadline, after which the worker's page is closed and replaced; a browser that dies is
relaunched and its renders count as infrastructure failures.
Navigations are vetted over CDP: a document request other than the host page or a frame page
of the library server (a sketch sending its frame to another loopback port, say) fails before
it is made, and the render reports that the sketch navigated away.
A render can be sealed (`Renderer(sealed=True)`, sealed.py, docs/decisions/0007-the-sealed-sketch.md;
not yet the default): the sketch runs in a
recorder frame, in a browser of its own without WebGL and without p5.brush (static/recorder.js),
where the ten methods and p5's picture functions only record their arguments; Python checks the
calls against a closed grammar of plain values, and the painter's frame paints them as a sketch
of literal calls. No code of the sketch's runs where anything is painted. The recorder names
what else the sketch called as the guard does; that report is no longer the containment.
Unsealed (the default), in the sketch's own frame, and sealed in the painter's, the allowlist
runs inside the frame (static/guard.js, docs/decisions/0001-run-time-allowlist.md):
every way to paint but the ten brush methods is blocked and named in `RenderResult.violations`;
the picture is read from p5's canvas with the browser's own toDataURL and its PNG header checked
here before decoding; a frame the sketch attaches inside its own (a fresh JavaScript realm) is
counted from outside the page. A render whose guard did not load is an infrastructure failure.
What it does not cover: CPU use within the deadline is not limited;
Chromium runs with `--no-sandbox` (the usual setting as root in a container), so the process
sandbox is the container's.
"""

from watercolour_env.server.sandbox.picture import (
    CANVAS_PX,
    PAINT_DELTA,
    RenderResult,
    RenderStatus,
    check_png,
    paint_fraction,
    paper_colour,
)
from watercolour_env.server.sandbox.renderer import Renderer

__all__ = [
    "CANVAS_PX",
    "PAINT_DELTA",
    "RenderResult",
    "RenderStatus",
    "Renderer",
    "check_png",
    "paint_fraction",
    "paper_colour",
]
