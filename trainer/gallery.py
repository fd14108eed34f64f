"""A static `gallery.html`: the paintings of a run by step, best reward first within a step."""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from watercolour_trainer.rollouts import Rollout

STYLE = """
body{font-family:system-ui,sans-serif;margin:24px;background:#faf7f0;color:#222}
h1{font-weight:600}h2{margin-top:32px;border-bottom:1px solid #ddd}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:16px}
.card{background:#fff;border:1px solid #e5e0d5;border-radius:6px;padding:8px}
.card img,.blank{width:100%;aspect-ratio:1;display:block;border-radius:4px}
.blank{background:repeating-linear-gradient(45deg,#eee,#eee 10px,#f6f6f6 10px,#f6f6f6 20px);
display:flex;align-items:center;justify-content:center;color:#777;font-size:13px;text-align:center}
.reward{font-size:20px;font-weight:600}.meta{font-size:12px;color:#666}
.bad{color:#a33}pre{font-size:11px;max-height:240px;overflow:auto;background:#f4f4f4;padding:6px}
"""


def _sort_key(rollout: Rollout) -> tuple[int, float]:
    return rollout.step, -(rollout.reward if rollout.reward is not None else -1.0)


def _card(r: Rollout) -> str:
    reward = "unscored" if r.reward is None else f"{r.reward:.3f}"
    if r.image:
        picture = f'<img src="{html.escape(r.image)}" loading="lazy" alt="step {r.step} position {r.position}">'
    else:
        picture = f'<div class="blank">{html.escape(", ".join(r.violations) or r.status)}</div>'
    problems = ", ".join(r.violations + r.js_errors[:2])
    sketch = html.escape(r.sketch if r.sketch is not None else r.completion)
    return (
        f'<div class="card">{picture}<div class="reward">{reward}</div>'
        f'<div class="meta">group {r.group} · position {r.position} · seed {r.seed} · {html.escape(r.status)}</div>'
        f'<div class="meta bad">{html.escape(problems)}</div>'
        f"<details><summary>sketch</summary><pre>{sketch}</pre></details></div>"
    )


def write_gallery(path: Path, rollouts: list[Rollout]) -> None:
    """Writes the gallery page; image paths are relative to the page's folder."""
    ordered = sorted(rollouts, key=_sort_key)
    sections = []
    for step in sorted({r.step for r in ordered}):
        cards = "".join(_card(r) for r in ordered if r.step == step)
        scored = [r.reward for r in ordered if r.step == step and r.reward is not None]
        mean = f"mean reward {sum(scored) / len(scored):.3f}" if scored else "no scored rollout"
        sections.append(f'<h2>Step {step} <span class="meta">{mean}</span></h2><div class="grid">{cards}</div>')
    painted = sum(1 for r in rollouts if r.image)
    page = (
        f'<!doctype html><html><head><meta charset="utf-8"><title>Watercolour rollouts</title>'
        f"<style>{STYLE}</style></head><body><h1>Watercolour rollouts</h1>"
        f'<p class="meta">{len(rollouts)} rollouts, {painted} paintings. Sorted by step, best reward first.</p>'
        f"{''.join(sections)}</body></html>"
    )
    path.write_text(page, encoding="utf-8")
