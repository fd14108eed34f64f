"""Loopback HTTP server that hands p5, p5.brush and one-time sketch pages to the browser.

Serving the libraries over HTTP with immutable caching lets every render after the first load
them from the browser's memory cache (~10 ms, decision 0003, "Rendering p5.brush in Chromium"); `data:` URLs and
`set_content` cost 1.8 s more per render. Each render gets a fresh frame URL whose page and
sketch can be fetched once, so a frame cannot reload another render's code or nonce.
"""

from __future__ import annotations

import http.server
import json
import logging
import secrets
import socketserver
import threading
from pathlib import Path

from watercolour_env.errors import ConfigError

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).parent / "static"
DEFAULT_JS_DIR = Path(__file__).parent / "js" / "node_modules"

# Fetch, XHR, WebSocket, EventSource, workers, nested frames and foreign images stay off. Scripts
# come from this server, or inline with the frame's one-time nonce (only the arm script has it, and
# it removes itself): a script, event-handler attribute or javascript: URL the sketch adds never runs.
# A second policy in the frame's own <meta>, parsed after the libraries and before the sketch,
# narrows scripts to the sketch's one-time URL: no library file runs twice, by any script type or
# `import()` (which would inherit a nonce), whatever the sketch reconfigures (issue 32).
FRAME_CSP = (
    "default-src 'none'; script-src 'self' 'nonce-{script_nonce}'; style-src 'unsafe-inline'; "
    "img-src 'self' data: blob:; connect-src 'none'; worker-src 'none'; frame-src 'none'; "
    "object-src 'none'; media-src 'none'; font-src 'none'; base-uri 'none'; form-action 'none'"
)

HOST_PAGE = b"""<!doctype html><html><head><meta charset="utf-8"><style>
html,body{margin:0;padding:0;overflow:hidden;background:#fff}
iframe{border:0;width:600px;height:600px;display:block}</style></head><body></body></html>"""

FRAME_TEMPLATE = """<!doctype html><html><head><meta charset="utf-8">
<style>html,body{{margin:0;padding:0;overflow:hidden;background:#fff}}</style>
<script crossorigin="anonymous" src="/lib/seed.js" data-seed="{seed}"></script>
<script crossorigin="anonymous" src="/lib/p5.min.js"></script>
{painting}<script crossorigin="anonymous" src="/lib/harness.js"></script>
<script nonce="{script_nonce}">__watercolourArm("{nonce}"); document.currentScript.remove();</script>
<meta http-equiv="Content-Security-Policy" content="script-src {origin}/sketch/{token}.js">
<script crossorigin="anonymous" src="/sketch/{token}.js"></script>
</head><body></body></html>"""


BRUSH_TAG = '<script crossorigin="anonymous" src="/lib/p5.brush.js"></script>\n'
GUARD_TAG = '<script crossorigin="anonymous" src="/lib/guard.js"></script>\n'
RECORDER_TAG = '<script crossorigin="anonymous" src="/lib/recorder.js"></script>\n'
"""A recorder frame (decision 0007) loads no p5.brush and no guard: recorder.js stands in for both."""


def library_files(js_dir: Path) -> dict[str, Path]:
    """The files served under `/lib/`, by name; also checks the p5.brush build the gate reads.

    Args:
        js_dir: the `node_modules` folder holding the pinned `p5` and `p5.brush` packages.

    Raises:
        ConfigError: a library is missing (run `make install`, or npm ci in the folder named).
    """
    files = {
        "p5.min.js": js_dir / "p5" / "lib" / "p5.min.js",
        "p5.brush.js": js_dir / "p5.brush" / "dist" / "p5.brush.js",
        "guard.js": STATIC_DIR / "guard.js",
        "harness.js": STATIC_DIR / "harness.js",
        "recorder.js": STATIC_DIR / "recorder.js",
        "seed.js": STATIC_DIR / "seed.js",
    }
    # the gate reads the ESM build's export list (brush_api.py): missing, every episode would fail
    esm = js_dir / "p5.brush" / "dist" / "p5.brush.esm.js"
    missing = [str(p) for p in (*files.values(), esm) if not p.is_file()]
    if missing:
        raise ConfigError(
            f"render libraries missing ({', '.join(missing)}): run `make install` in a checkout, "
            f"or `npm ci --prefix {js_dir.parent}` where the package is installed"
        )
    return files


class LibraryServer:
    """A threaded HTTP server on 127.0.0.1 with an ephemeral port.

    Args:
        js_dir: the `node_modules` folder with `p5` and `p5.brush`.
        enforce: whether frames load `static/guard.js`, the run-time allowlist; off only to
            measure what it costs and that it changes no painting (bench/gate.py).
        recorder: serve recorder frames (`static/recorder.js`, decision 0007): the sketch runs
            without p5.brush and the report carries its calls, not a picture.

    Example:
        >>> server = LibraryServer(DEFAULT_JS_DIR)  # doctest: +SKIP
        >>> url = server.add_frame("function setup(){}", seed=1)  # doctest: +SKIP
    """

    def __init__(self, js_dir: Path = DEFAULT_JS_DIR, enforce: bool = True, recorder: bool = False) -> None:
        from watercolour_env.server.sandbox.brush_api import brush_methods  # it reads DEFAULT_JS_DIR from here

        self.enforce, self.recorder = enforce, recorder
        self._libraries = {name: path.read_bytes() for name, path in library_files(js_dir).items()}
        exports = json.dumps(sorted(brush_methods(js_dir))).encode()
        self._libraries["recorder.js"] = self._libraries["recorder.js"].replace(b'/*BRUSH_EXPORTS*/["circle"]', exports)
        if recorder:
            self.painting = RECORDER_TAG
        else:
            self.painting = BRUSH_TAG + (GUARD_TAG if enforce else "")
        self._sketches: dict[str, bytes] = {}
        self._nonces: dict[str, str] = {}
        self._lock = threading.Lock()
        # Two ports, two origins of one site: the host page cannot be touched by a frame (another
        # origin), while the HTTP cache, keyed by site, still serves the libraries to every frame.
        self._servers = [http.server.ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class()) for _ in range(2)]
        for httpd in self._servers:
            httpd.daemon_threads = True
            threading.Thread(target=httpd.serve_forever, name="library-server", daemon=True).start()
        self.host_origin, self.origin = (f"http://127.0.0.1:{h.server_address[1]}" for h in self._servers)
        self.ports = [h.server_address[1] for h in self._servers]

    def serve_unix(self, directory: Path) -> None:
        """Also answers on the Unix sockets `directory/<port>`, one per port.

        For a browser in a network namespace of its own (netns.py), which reaches no TCP port of
        this process.
        """
        handler = self._handler_class()
        for port in self.ports:
            httpd = socketserver.ThreadingUnixStreamServer(str(directory / str(port)), handler)
            httpd.daemon_threads = True
            self._servers.append(httpd)
            threading.Thread(target=httpd.serve_forever, name="library-server-unix", daemon=True).start()

    def add_frame(self, sketch: str, seed: int) -> tuple[str, str]:
        """Registers one sketch.

        Returns:
            The URL of the frame page that runs it once, and the nonce its report will carry.
        """
        token, nonce = secrets.token_hex(12), secrets.token_hex(12)
        with self._lock:
            self._sketches[token] = sketch.encode("utf-8", errors="replace")
            self._nonces[token] = nonce
        return f"{self.origin}/frame/{token}?seed={int(seed) & 0xFFFFFFFF}", nonce

    def forget(self, frame_url: str) -> None:
        """Drops a sketch that was never fetched (the render failed before loading it)."""
        token = frame_url.rsplit("/", 1)[-1].split("?")[0]
        with self._lock:
            self._sketches.pop(token, None)
            self._nonces.pop(token, None)

    def close(self) -> None:
        """Stops serving; idempotent."""
        for httpd in self._servers:
            httpd.shutdown()
            httpd.server_close()

    def _take_sketch(self, token: str) -> bytes | None:
        with self._lock:
            return self._sketches.pop(token, None)

    def _handler_class(self) -> type[http.server.BaseHTTPRequestHandler]:
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                path, _, query = self.path.partition("?")
                if path == "/host.html":
                    self._send(200, "text/html", HOST_PAGE)
                elif path.startswith("/lib/") and path[5:] in server._libraries and not query:
                    # only the exact URL is cached: a query of the sketch's choosing would make
                    # the HTTP cache a channel to the next render ("was this URL fetched before?")
                    self._send(200, "text/javascript", server._libraries[path[5:]], immutable=True)
                elif path.startswith("/frame/"):
                    token = path[len("/frame/") :]
                    with server._lock:
                        nonce = server._nonces.pop(token, None)
                    if nonce is None:
                        self._send(404, "text/plain", b"gone")
                        return
                    seed = query.removeprefix("seed=") if query.startswith("seed=") else "0"
                    script_nonce = secrets.token_hex(12)
                    body = FRAME_TEMPLATE.format(
                        seed=int(seed) if seed.isdigit() else 0,
                        token=token,
                        nonce=nonce,
                        painting=server.painting,
                        origin=server.origin,
                        script_nonce=script_nonce,
                    )
                    self._send(200, "text/html", body.encode(), csp=FRAME_CSP.format(script_nonce=script_nonce))
                elif path.startswith("/sketch/") and path.endswith(".js"):
                    sketch = server._take_sketch(path[len("/sketch/") : -3])
                    if sketch is None:
                        self._send(404, "text/plain", b"gone")
                    else:
                        self._send(200, "text/javascript", sketch)
                else:
                    self._send(404, "text/plain", b"not found")

            def _send(self, code: int, kind: str, body: bytes, immutable: bool = False, csp: str = "") -> None:
                self.send_response(code)
                self.send_header("Content-Type", f"{kind}; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                cache = "public, max-age=31536000, immutable" if immutable else "no-store"
                self.send_header("Cache-Control", cache)
                # The sandboxed frame has an opaque origin; CORS keeps its errors unmuted.
                self.send_header("Access-Control-Allow-Origin", "*")
                if csp:
                    self.send_header("Content-Security-Policy", csp)
                self.end_headers()
                self.wfile.write(body)

            def address_string(self) -> str:
                # a Unix socket's peer has no address (http.server would index an empty string)
                return self.client_address[0] if isinstance(self.client_address, tuple) else "unix"

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                log.debug("library server: " + format, *args)

        return Handler
