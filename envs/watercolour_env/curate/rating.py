"""A local rating page: one painting at a time, large, rated with the keyboard.

Keys: 1 love, 2 okay, 3 nope, u undo, s skip, n note. Every keypress is saved at once (the tier
and notes into `pool.jsonl`, the undo history and skips into `rating.json`, all written
atomically), so a session can stop at any moment and resume where it left off. Serve it with
`watercolour pool rate DIR`; it listens on 127.0.0.1 only.

Blind by default: the page shows "painting 3 of 16", never a file id or a row's notes (an id
such as `love-amber`, or a rollout's reward in its provenance, gives the intent away); it
addresses paintings by tokens drawn afresh for each page server. `--show-ids` shows both.
"""

from __future__ import annotations

import json
import secrets
import threading
from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel, Field

from watercolour_env.pool import PoolRow, Tier, read_manifest, write_manifest

HISTORY = "rating.json"

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Rate the pool</title><style>
body{margin:0;font-family:system-ui,sans-serif;background:#f4f1ea;color:#222;display:flex;flex-direction:column;
align-items:center}header{margin:16px;font-size:15px}#progress{font-weight:600}img{width:min(80vh,90vw);
aspect-ratio:1;box-shadow:0 2px 12px #0002;background:#fff}#meta{margin:10px;font-size:13px;color:#555}
#keys{margin:8px;font-size:14px}kbd{background:#fff;border:1px solid #ccc;border-radius:3px;padding:1px 6px}
#done{display:none;font-size:22px;margin:40px}</style></head><body>
<header><span id="progress"></span> · <span id="flash"></span></header>
<img id="painting" alt="painting to rate"><div id="meta"></div><div id="done">Every painting is rated.</div>
<div id="keys"><kbd>1</kbd> love <kbd>2</kbd> okay <kbd>3</kbd> nope <kbd>u</kbd> undo <kbd>s</kbd> skip
<kbd>n</kbd> note</div>
<script>
let current = null;
async function call(path, body) {
  const r = await fetch(path, body ? {method: "POST", headers: {"Content-Type": "application/json"},
                                      body: JSON.stringify(body)} : {});
  return r.json();
}
function show(state) {
  current = state.current;
  document.getElementById("progress").textContent = `${state.rated} / ${state.total} rated`;
  document.getElementById("done").style.display = current ? "none" : "block";
  document.getElementById("painting").style.display = current ? "block" : "none";
  if (current) {
    document.getElementById("painting").src = `/images/${encodeURIComponent(current.id)}`;
    document.getElementById("painting").dataset.id = current.id;
    document.getElementById("meta").textContent = current.notes ? `${current.label} · ${current.notes}` : current.label;
  } else {
    document.getElementById("meta").textContent = "";
  }
}
const keys = {"1": "love", "2": "okay", "3": "nope"};
document.addEventListener("keydown", async (ev) => {
  let state = null;
  if (keys[ev.key] && current) state = await call("/api/rate", {id: current.id, tier: keys[ev.key]});
  else if (ev.key === "s" && current) state = await call("/api/skip", {id: current.id});
  else if (ev.key === "u") state = await call("/api/undo", {});
  else if (ev.key === "n" && current) {
    const note = window.prompt("A note on this painting (kept in pool.jsonl)");
    if (note) state = await call("/api/note", {id: current.id, note: note});
  }
  if (state) { document.getElementById("flash").textContent = state.message; show(state); }
});
call("/api/state").then(show);
</script></body></html>"""


class RateRequest(BaseModel):
    """A rating of one painting."""

    id: str
    tier: Tier


class SkipRequest(BaseModel):
    """Skipping one painting for now."""

    id: str


class NoteRequest(BaseModel):
    """A note on one painting, added to its row's notes."""

    id: str
    note: str = Field(min_length=1, max_length=2000)


class RatingSession:
    """Ratings of one pool folder, saved after every change; thread-safe.

    Args:
        folder: a rendered pool folder (with `pool.jsonl`).
        blind: address paintings by tokens and label them by position, hiding ids and notes
            from the page (the API's answers included).
    """

    def __init__(self, folder: Path, blind: bool = True) -> None:
        self.folder = Path(folder)
        self.blind = blind
        self._tokens: dict[str, str] = {}  # token -> id, drawn afresh for each page server
        self._lock = threading.Lock()
        history_path = self.folder / HISTORY
        saved = json.loads(history_path.read_text()) if history_path.exists() else {}
        self.history: list[dict] = saved.get("history", [])
        self.skipped: list[str] = saved.get("skipped", [])

    def state(self, message: str = "") -> dict:
        """Progress and the next painting to rate (first unrated, not skipped), or None."""
        rows = read_manifest(self.folder)
        unrated = [r for r in rows if r.tier is None]
        pending = [r for r in unrated if r.id not in self.skipped] or unrated
        current = pending[0] if pending else None
        shown = None
        if current is not None and self.blind:
            label = f"painting {[r.id for r in rows].index(current.id) + 1} of {len(rows)}"
            shown = {"id": self.token(current.id), "label": label, "notes": ""}
        elif current is not None:
            shown = {"id": current.id, "label": current.id, "notes": current.notes}
        return {"total": len(rows), "rated": len(rows) - len(unrated), "current": shown, "message": message}

    def token(self, painting_id: str) -> str:
        """The page's name for a painting: its id, or in blind mode a random token."""
        if not self.blind:
            return painting_id
        for token, known in self._tokens.items():
            if known == painting_id:
                return token
        token = secrets.token_hex(8)
        self._tokens[token] = painting_id
        return token

    def resolve(self, shown: str) -> str:
        """The painting id behind a name the page used.

        Raises:
            HTTPException: 404 for a token this server never gave.
        """
        if not self.blind:
            return shown
        if shown not in self._tokens:
            raise HTTPException(404, "no such painting on this page")
        return self._tokens[shown]

    def _said(self, painting_id: str, what: str) -> str:
        """A message about one painting; without its id in blind mode."""
        return what if self.blind else f"{painting_id}: {what}"

    def note(self, painting_id: str, note: str) -> dict:
        """Adds a note to a painting's row (on a new line after any it has)."""
        with self._lock:
            rows = read_manifest(self.folder)
            row = self._row(rows, painting_id)
            row.notes = f"{row.notes}\n{note.strip()}" if row.notes else note.strip()
            self._save(rows)
            return self.state(self._said(painting_id, "note kept"))

    def rate(self, painting_id: str, tier: Tier | None) -> dict:
        """Sets one painting's tier (None clears it) and records the change for undo."""
        with self._lock:
            rows = read_manifest(self.folder)
            row = self._row(rows, painting_id)
            self.history.append({"id": painting_id, "before": row.tier.value if row.tier else None})
            row.tier = tier
            if painting_id in self.skipped:
                self.skipped.remove(painting_id)
            self._save(rows)
            return self.state(self._said(painting_id, tier.value if tier else "unrated"))

    def skip(self, painting_id: str) -> dict:
        """Moves a painting to the back of the queue without rating it."""
        with self._lock:
            self._row(read_manifest(self.folder), painting_id)
            if painting_id not in self.skipped:
                self.skipped.append(painting_id)
            self.history.append({"id": painting_id, "skip": True})
            self._save(None)
            return self.state(self._said(painting_id, "skipped"))

    def undo(self) -> dict:
        """Reverts the last rating or skip."""
        with self._lock:
            if not self.history:
                return self.state("nothing to undo")
            last = self.history.pop()
            rows = read_manifest(self.folder)
            if last.get("skip"):
                if last["id"] in self.skipped:
                    self.skipped.remove(last["id"])
                self._save(None)
            else:
                self._row(rows, last["id"]).tier = Tier(last["before"]) if last["before"] else None
                self._save(rows)
            return self.state("undid the last change" if self.blind else f"undid {last['id']}")

    def _row(self, rows: list[PoolRow], painting_id: str) -> PoolRow:
        for row in rows:
            if row.id == painting_id:
                return row
        raise HTTPException(404, f"no painting {painting_id!r} in {self.folder}")

    def _save(self, rows: list[PoolRow] | None) -> None:
        if rows is not None:
            write_manifest(self.folder, rows)
        path = self.folder / HISTORY
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps({"history": self.history, "skipped": self.skipped}))
        tmp.replace(path)


def rating_app(folder: Path, blind: bool = True) -> FastAPI:
    """The rating page and its small JSON API for one pool folder; blind unless told (`RatingSession`)."""
    session = RatingSession(folder, blind)
    app = FastAPI(title="Rate the pool", docs_url=None, redoc_url=None)
    images = {row.id: Path(folder) / row.image for row in read_manifest(folder)}

    @app.get("/", response_class=HTMLResponse)
    def page() -> str:
        return PAGE

    @app.get("/api/state")
    def state() -> dict:
        return session.state()

    @app.post("/api/rate")
    def rate(request: RateRequest) -> dict:
        return session.rate(session.resolve(request.id), request.tier)

    @app.post("/api/skip")
    def skip(request: SkipRequest) -> dict:
        return session.skip(session.resolve(request.id))

    @app.post("/api/note")
    def note(request: NoteRequest) -> dict:
        return session.note(session.resolve(request.id), request.note)

    @app.post("/api/undo")
    def undo() -> dict:
        return session.undo()

    @app.get("/images/{shown}")
    def image(shown: str) -> FileResponse:
        painting_id = session.resolve(shown)
        if painting_id not in images:
            raise HTTPException(404, f"no painting {painting_id!r}")
        return FileResponse(images[painting_id], media_type="image/png")

    return app
