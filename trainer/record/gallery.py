"""A static `gallery.html` of a run: a wall of its best paintings, then every rollout as a card.

The cards can be sorted (by step with the best first within a step, the default; by reward, best
or worst first) and filtered by status and by violation, in the page itself (a few lines of
JavaScript, no server). Each card shows the reward, its components (value x weight), the status,
what the gate found and the sketch; an episode with revisions shows its paintings side by side,
each with the critique it got, and the whole exchange. Image paths are relative to the page's folder, so the folder
can be copied or served as is. `watercolour gallery RUN_DIR` rebuilds the page from a run's
`rollouts.jsonl`; the trainer rewrites it as it goes.
"""

from __future__ import annotations

import html
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING

from watercolour_env.errors import ConfigError

if TYPE_CHECKING:
    from watercolour_env.rollout import Rollout

TOP_PAINTINGS = 24
"""Paintings on the wall at the top of the page, by reward."""

STYLE = """
body{font-family:system-ui,sans-serif;margin:24px;background:#faf7f0;color:#222}
h1{font-weight:600}h2{margin-top:28px;border-bottom:1px solid #ddd}
.controls{display:flex;gap:16px;flex-wrap:wrap;margin:12px 0;font-size:14px}
.wall{display:grid;grid-template-columns:repeat(auto-fill,minmax(140px,1fr));gap:8px}
.wall figure{margin:0;font-size:12px;color:#555}.wall img{width:100%;aspect-ratio:1;display:block;border-radius:4px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:16px}
.card{background:#fff;border:1px solid #e5e0d5;border-radius:6px;padding:8px}
.card[hidden]{display:none}
.card img,.blank{width:100%;aspect-ratio:1;display:block;border-radius:4px}
.blank{background:repeating-linear-gradient(45deg,#eee,#eee 10px,#f6f6f6 10px,#f6f6f6 20px);
display:flex;align-items:center;justify-content:center;color:#777;font-size:13px;text-align:center}
.reward{font-size:20px;font-weight:600}.meta{font-size:12px;color:#666}
.bad{color:#a33}pre{font-size:11px;max-height:240px;overflow:auto;background:#f4f4f4;padding:6px}
table.components{font-size:12px;border-collapse:collapse}table.components td{padding:0 6px 0 0}
.card.episode{grid-column:span 2}.turns{display:flex;gap:6px;margin-bottom:6px}
.turn{flex:1;min-width:0;font-size:11px;color:#555}.turn img,.turn .blank{aspect-ratio:1;width:100%}
.turn p{margin:4px 0;max-height:120px;overflow:auto}
"""

SCRIPT = """
const grid = document.getElementById("cards");
const cards = [...grid.children];
const reward = c => c.dataset.reward === "" ? -1 : Number(c.dataset.reward);
const orders = {
  step: (a, b) => Number(a.dataset.step) - Number(b.dataset.step) || reward(b) - reward(a),
  "reward-desc": (a, b) => reward(b) - reward(a) || Number(a.dataset.step) - Number(b.dataset.step),
  "reward-asc": (a, b) => reward(a) - reward(b) || Number(a.dataset.step) - Number(b.dataset.step),
};
function update() {
  const order = document.getElementById("sort").value;
  const status = document.getElementById("status").value;
  const violation = document.getElementById("violation").value;
  let shown = 0;
  for (const card of [...cards].sort(orders[order])) {
    card.hidden = (status !== "all" && card.dataset.status !== status) ||
      (violation !== "all" && !card.dataset.violations.split(" ").includes(violation));
    shown += card.hidden ? 0 : 1;
    grid.appendChild(card);
  }
  document.getElementById("shown").textContent = shown;
}
for (const id of ["sort", "status", "violation"]) document.getElementById(id).addEventListener("change", update);
update();
"""


def _reward(rollout: Rollout) -> str:
    return "unscored" if rollout.reward is None else f"{rollout.reward:.3f}"


def _components(rollout: Rollout) -> str:
    rows = []
    for c in rollout.components:
        value = "—" if c.get("value") is None else f"{c['value']:.3f}"
        status = "" if c.get("status", "ok") == "ok" else f" {c['status']}"
        rows.append(f"<tr><td>{html.escape(c['name'])}</td><td>{value} × {c.get('weight', 0):g}{status}</td></tr>")
    return f'<table class="components">{"".join(rows)}</table>' if rows else ""


def _picture(image: str | None, alt: str, missing: str) -> str:
    if image:
        return f'<img src="{html.escape(image)}" loading="lazy" alt="{html.escape(alt)}">'
    return f'<div class="blank">{html.escape(missing)}</div>'


def _turns(r: Rollout, last: str) -> str:
    """An episode's paintings side by side, each with its critique; the last is the judged one."""
    cells = []
    for n, turn in enumerate(r.turns, start=1):
        picture = (
            last
            if n == len(r.turns)
            else _picture(
                turn.get("image"), f"turn {n}", ", ".join(turn.get("violations") or []) or "not rendered here"
            )
        )
        critique = html.escape(turn.get("critique") or "")
        cells.append(f'<div class="turn">{picture}<b>painting {n}</b><p>{critique}</p></div>')
    return f'<div class="turns">{"".join(cells)}</div>'


def _card(r: Rollout) -> str:
    picture = _picture(r.image, f"step {r.step} position {r.position}", ", ".join(r.violations) or r.status)
    episode = len(r.turns) > 1
    if episode:
        picture = _turns(r, picture)
    problems = ", ".join(r.violations + r.js_errors[:2])
    sketch = html.escape(r.sketch if r.sketch is not None else r.completion)
    data = (
        f'data-step="{r.step}" data-reward="{"" if r.reward is None else r.reward}" '
        f'data-status="{html.escape(r.status)}" data-violations="{html.escape(" ".join(r.violations))}"'
    )
    summary = "the exchange" if episode else "sketch"
    if episode:
        sketch = html.escape(r.completion)
    return (
        f'<div class="card{" episode" if episode else ""}" {data}>{picture}<div class="reward">{_reward(r)}</div>'
        f'<div class="meta">step {r.step} · group {r.group} · position {r.position} · seed {r.seed} · '
        f"{html.escape(r.status)}</div>{_components(r)}"
        f'<div class="meta bad">{html.escape(problems)}</div>'
        f"<details><summary>{summary}</summary><pre>{sketch}</pre></details></div>"
    )


def _options(element: str, label: str, values: list[tuple[str, str]]) -> str:
    options = "".join(f'<option value="{html.escape(v)}">{html.escape(text)}</option>' for v, text in values)
    return f'<label>{label} <select id="{element}">{options}</select></label>'


def write_gallery(path: Path, rollouts: list[Rollout], top: int = TOP_PAINTINGS) -> None:
    """Writes the page: the `top` best paintings, then every rollout's card (see the module docstring)."""
    ordered = sorted(rollouts, key=lambda r: (r.step, -(r.reward if r.reward is not None else -1.0)))
    best = sorted((r for r in rollouts if r.image and r.reward is not None), key=lambda r: -r.reward)[:top]
    wall = "".join(
        f'<figure><img src="{html.escape(r.image)}" loading="lazy" alt="best {i + 1}">'
        f"<figcaption>{_reward(r)} · step {r.step}</figcaption></figure>"
        for i, r in enumerate(best)
    )
    statuses = sorted({r.status for r in rollouts})
    violations = sorted({v for r in rollouts for v in r.violations})
    controls = (
        _options(
            "sort",
            "sort",
            [
                ("step", "by step, best first"),
                ("reward-desc", "reward, best first"),
                ("reward-asc", "reward, worst first"),
            ],
        )
        + _options("status", "status", [("all", "all"), *((s, s) for s in statuses)])
        + _options("violation", "violation", [("all", "all"), *((v, v) for v in violations)])
    )
    painted = sum(1 for r in rollouts if r.image)
    steps = len({r.step for r in rollouts})
    page = (
        '<!doctype html><html><head><meta charset="utf-8"><title>Watercolour rollouts</title>'
        f"<style>{STYLE}</style></head><body><h1>Watercolour rollouts</h1>"
        f'<p class="meta">{len(rollouts)} rollouts over {steps} steps, {painted} paintings.</p>'
        f'<h2>The best {len(best)} paintings</h2><div class="wall" id="wall">{wall}</div>'
        f'<h2>Every rollout <span class="meta"><span id="shown">{len(rollouts)}</span> shown</span></h2>'
        f'<div class="controls">{controls}</div>'
        f'<div class="grid" id="cards">{"".join(_card(r) for r in ordered)}</div>'
        f"<script>{SCRIPT}</script></body></html>"
    )
    path.write_text(page, encoding="utf-8")


def rebuild(run_dir: Path, top: int = TOP_PAINTINGS, render: bool = False) -> Path:
    """Rewrites `gallery.html` from a run's `rollouts.jsonl`; returns the page's path.

    A rollout shows its painting when the file is there (`paintings/`, the trainer's names); with
    `render`, the scored rollouts whose painting is not are rendered again from their sketches
    first (`watercolour_trainer.record.paintings`: a run's record carries no PNGs).

    Raises:
        ConfigError: no rollouts.jsonl in `run_dir` or `run_dir/rollouts`, or one that is empty or not a run's.
    """
    from watercolour_env.rollout import Rollout, read_rollout_rows, rollouts_file

    source = rollouts_file(Path(run_dir))
    known = {f.name for f in fields(Rollout)}
    from watercolour_trainer.record.paintings import render_missing, with_paintings

    rows = [row for _, row in read_rollout_rows(source)]
    if render:
        count, renderer = render_missing(rows, source.parent)
        print(f"rendered {count} paintings again from their sketches" + (f" on {renderer}" if renderer else ""))
    try:
        rows = with_paintings(rows, source.parent)
        rollouts = [Rollout(**{k: v for k, v in row.items() if k in known}) for row in rows]
    except TypeError as err:  # a field the trainer always writes is missing
        raise ConfigError(f"{source}: not a run's rollouts ({err})") from err
    if not rollouts:
        raise ConfigError(f"{source} holds no rollouts yet")
    page = source.parent / "gallery.html"
    write_gallery(page, rollouts, top)
    return page
