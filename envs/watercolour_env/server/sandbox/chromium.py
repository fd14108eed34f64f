"""What Chromium is started with and what the renderer runs in its pages.

Flags measured in docs/decisions/0003 ("Rendering p5.brush in Chromium") and docs/LOG.md; the
JavaScript the host page evaluates (a fresh frame per render, the WebGL renderer string, the GPU
probe); what is wiped after each render; what is said when Chromium will not start.
"""

import os

from watercolour_env.errors import RenderError

# What Storage.clearDataForOrigin wipes after each render: all a page can keep, but the shader
# cache (Chromium's own, shared, and what keeps p5.brush's shaders compiled).
WIPED_STORAGE = ",".join(
    ["cookies", "file_systems", "indexeddb", "local_storage", "cache_storage", "service_workers", "websql"]
    + ["shared_storage", "storage_buckets"]
)

CHROMIUM_FLAGS = [
    "--use-gl=angle",
    "--use-angle=gl-egl",
    "--ignore-gpu-blocklist",
    "--disable-accelerated-2d-canvas",
    # Software compositing: 0.82 instead of 1.03 core-seconds per typical render (docs/LOG.md).
    "--disable-gpu-compositing",
    # Every frame is on 127.0.0.1: after a few lost contexts (a sketch's 30000 px canvas, three
    # renders) Chromium refused WebGL to that "domain", and every later sketch, innocent or not,
    # failed with "Error creating webgl context" (docs/LOG.md, 2026-12-01, third session). Nor may
    # repeated GPU-process crashes switch the browser to another rasterizer (other pixels).
    "--disable-domain-blocking-for-3d-apis",
    "--disable-gpu-process-crash-limit",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
    # Nothing but loopback: names do not resolve and every other address goes to a dead proxy
    # (loopback bypasses proxies), so a request that slips past the frame's policy fails at once.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    "--proxy-server=http://127.0.0.1:9",
    # WebRTC only through the (dead) proxy: no UDP of its own, no STUN or TURN to any address.
    "--force-webrtc-ip-handling-policy",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--js-flags=--max-old-space-size=1024",
]
RECORDER_FLAGS = [f for f in CHROMIUM_FLAGS if not f.startswith("--use-")] + ["--disable-3d-apis", "--disable-gpu"]
"""A recorder's browser (decision 0007): no WebGL in any of its pages, nor a GPU process to share."""
SWIFTSHADER_FLAGS = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-accelerated-2d-canvas"]

RENDERER_JS = """() => {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return 'no webgl2';
  const ext = gl.getExtension('WEBGL_debug_renderer_info');
  return ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
}"""

# One WebGL pixel, read back: it waits for the GPU process, so it hangs while that is stalled.
GPU_PROBE_JS = """() => {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return 'no webgl2';
  gl.clearColor(0, 1, 0, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
  const pixel = new Uint8Array(4);
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
  return pixel[1] === 255 ? 'ok' : 'wrong pixel ' + pixel.join(',');
}"""
# Seconds the GPU probe may take: a well GPU process answers in milliseconds.
GPU_PROBE_S = 3.0

RENDER_JS = """([url, nonce]) => new Promise((resolve) => {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  let loads = 0;
  const finish = (payload) => {
    window.removeEventListener('message', onMessage);
    frame.remove();
    resolve(payload);
  };
  const onMessage = (ev) => {
    if (ev.source === frame.contentWindow && url.startsWith(ev.origin + '/') && ev.data && ev.data.nonce === nonce) {
      finish(ev.data);
    }
  };
  window.addEventListener('message', onMessage);
  frame.addEventListener('load', () => {
    if (++loads > 1) finish({reason: 'navigated', errors: ['the sketch navigated its frame away']});
  });
  frame.src = url;
  document.body.replaceChildren(frame);
})"""


def launch_options(flags: list[str], origins: tuple[str, ...], workers: int, browser_env: dict[str, str]) -> dict:
    """Playwright's `launch` arguments besides the executable: Chromium's flags and environment.

    Args:
        flags: `CHROMIUM_FLAGS`, or the SwiftShader fallback's.
        origins: the library server's origins ("http://127.0.0.1:PORT"), the only loopback
            addresses not sent to the dead proxy.
        workers: render workers sharing the one GPU process, >= 1.
        browser_env: variables that override these (tests hide Mesa with them).

    llvmpipe's rasterizer threads (`LP_NUM_THREADS`, one setting for the one GPU process that all
    workers share) follow the pool's use. One worker: one rasterizer thread, so the GPU work of a
    render overlaps its JavaScript (single typical and rich renders 8-18% faster than with none).
    Several workers: none, rasterizing on the GPU process's own thread (groups of 8 renders 9-14%
    faster than with one thread and 5-10% faster than with two, 5-8% fewer core-seconds;
    docs/LOG.md, 2026-11-30, interleaved on 2 cores). The pixels are the same either way.
    """
    threads = "1" if workers == 1 else "0"
    # Loopback too goes to the dead proxy (Chromium bypasses it for loopback by default, and
    # WebRTC's TURN over TCP reached any loopback port), except the library server's two.
    ports = [origin.rsplit(":", 1)[1] for origin in origins]
    bypass = "--proxy-bypass-list=<-loopback>;" + ";".join(f"127.0.0.1:{port}" for port in ports)
    return {"args": [*flags, bypass], "env": {**browser_environment(), "LP_NUM_THREADS": threads, **browser_env}}


BROWSER_ENV_NAMES = frozenset({"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "SHELL"})
BROWSER_ENV_PREFIXES = ("LC_", "XDG_", "FONTCONFIG_", "MESA_", "LIBGL_", "GALLIUM_", "LP_", "EGL_", "__EGL", "__GLX")


def browser_environment() -> dict[str, str]:
    """The part of this process's environment Chromium gets: locale, paths and graphics settings.

    Nothing else: the server's own settings hold credentials (WATERCOLOUR_API_TOKEN, the scorers'
    tokens, HF_TOKEN), and the browser runs untrusted sketches, so a renderer exploit must find
    none of them in /proc/<pid>/environ (docs/decisions/0002-sandbox-threat-model.md).
    """
    return {
        name: value
        for name, value in os.environ.items()
        if name in BROWSER_ENV_NAMES or name.startswith(BROWSER_ENV_PREFIXES)
    }


def launch_failure(chromium_path: str, err: Exception) -> RenderError:
    """The one-line error for a Chromium that would not start: missing, or missing its libraries.

    Args:
        chromium_path: the executable the renderer tried.
        err: what Playwright raised.
    """
    if not (os.path.isfile(chromium_path) and os.access(chromium_path, os.X_OK)):
        return RenderError(
            f"there is no Chromium at {chromium_path}: install it with `make install` (Debian "
            "package chromium), or point WATERCOLOUR_CHROMIUM_PATH at its executable"
        )
    first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return RenderError(
        f"Chromium could not be launched from {chromium_path} ({first}); check "
        "WATERCOLOUR_CHROMIUM_PATH, and install Chromium's libraries with `make install` (Debian "
        "packages chromium libegl1 libegl-mesa0 libgl1-mesa-dri)"
    )
