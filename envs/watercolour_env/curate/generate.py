"""Candidate paintings for a pool from any OpenAI-compatible chat endpoint, optionally refined.

The seed's pool was made this way: several models wrote sketches with the environment's system
prompt, a vision model wrote a critique of each render, and the painter revised its sketch over
a few rounds. Every candidate is gated and rendered; the ones that pass land in the output
folder as an unrated pool (`sketches/`, `images/`, `pool.jsonl`) ready for `watercolour pool
rate`, and `candidates.jsonl` keeps every candidate with its verdict.
"""

from __future__ import annotations

import base64
import json
import logging
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tqdm import tqdm

from watercolour_env.pool import PoolRow, read_manifest, write_manifest
from watercolour_env.pool.declaration import read_declaration
from watercolour_env.prompt import system_prompt, user_prompt
from watercolour_env.server.gate import check_render, check_source
from watercolour_env.server.sandbox import Renderer

log = logging.getLogger(__name__)

CRITIC_PROMPT = (
    "You are a watercolour teacher. Look at this painting of {subject}, made by the p5.brush sketch "
    "below. In at most five short sentences, say what to change to make it a better loose watercolour "
    "(composition, layering of washes, bleed, colour, the subject's shape). Do not write code.\n\n{sketch}"
)
REVISE_PROMPT = "A teacher looked at the render of your sketch and wrote:\n\n{critique}\n\nRevise the whole sketch."


@dataclass
class Candidate:
    """One generated sketch and what the gate and the renderer made of it."""

    id: str
    model: str
    round: int
    reply: str
    passed: bool
    violations: list[str] = field(default_factory=list)
    paint_fraction: float | None = None
    critique: str = ""
    image: str | None = None


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40]


class Generator:
    """Writes candidates with painter models and (optionally) refines them with a critic.

    Args:
        client: an `openai.OpenAI` client pointed at any OpenAI-compatible endpoint.
        renderer: the renderer that paints every candidate.
        out: the output folder (an unrated pool); the painters' system prompt carries the hint
            of its `pool.toml`, when it declares one.
        critic_model: a vision model for critiques; None turns refinement off.
        temperature: sampling temperature of the painters.
        max_tokens: completion budget per reply.
    """

    def __init__(
        self,
        client,  # noqa: ANN001 (openai.OpenAI, imported lazily)
        renderer: Renderer,
        out: Path,
        critic_model: str | None = None,
        temperature: float = 0.8,
        max_tokens: int = 4096,
    ) -> None:
        self.client = client
        self.renderer = renderer
        self.out = Path(out)
        self.critic_model = critic_model
        self.temperature = temperature
        self.max_tokens = max_tokens
        for sub in ("sketches", "images"):
            (self.out / sub).mkdir(parents=True, exist_ok=True)
        self.system_prompt = system_prompt(read_declaration(self.out).hint)

    def run(self, models: list[str], subject: str, per_model: int, rounds: int = 1, seed: int = 0) -> list[Candidate]:
        """Generates `per_model` sketches per model, each refined over `rounds` rounds (>= 1)."""
        candidates = []
        jobs = [(model, i) for model in models for i in range(per_model)]
        for model, i in tqdm(jobs, desc="generating", unit="sketch"):
            messages = [
                {"role": "system", "content": self.system_prompt},
                {"role": "user", "content": user_prompt(subject)},
            ]
            for r in range(1, rounds + 1):
                reply = self._chat(model, messages, self.temperature)
                candidate = self._judge(f"{_slug(model)}-{i + 1:02d}-r{r}", model, r, reply, subject, seed)
                candidates.append(candidate)
                if r == rounds or not self.critic_model or not candidate.passed:
                    break
                candidate.critique = self._critique(candidate, subject)
                messages += [
                    {"role": "assistant", "content": reply},
                    {"role": "user", "content": REVISE_PROMPT.format(critique=candidate.critique)},
                ]
        self._write(candidates, subject, seed)
        return candidates

    def _chat(self, model: str, messages: list[dict], temperature: float) -> str:
        response = self.client.chat.completions.create(
            model=model, messages=messages, temperature=temperature, max_tokens=self.max_tokens
        )
        return response.choices[0].message.content or ""

    def _judge(self, cid: str, model: str, round_: int, reply: str, subject: str, seed: int) -> Candidate:
        gate = check_source(reply)
        if gate.passed:
            gate = check_render(gate, self.renderer.render(gate.sketch or "", seed=seed))
        candidate = Candidate(cid, model, round_, reply, gate.passed, [v.value for v in gate.violations])
        if gate.render is not None and gate.render.png is not None:
            candidate.paint_fraction = gate.render.paint_fraction
            if gate.passed:
                (self.out / "images" / f"{cid}.png").write_bytes(gate.render.png)
                (self.out / "sketches" / f"{cid}.js").write_text(gate.sketch or "", encoding="utf-8")
                candidate.image = f"images/{cid}.png"
        return candidate

    def _critique(self, candidate: Candidate, subject: str) -> str:
        png = (self.out / (candidate.image or "")).read_bytes()
        sketch = (self.out / "sketches" / f"{candidate.id}.js").read_text(encoding="utf-8")
        content = [
            {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(png).decode()}},
            {"type": "text", "text": CRITIC_PROMPT.format(subject=subject, sketch=sketch)},
        ]
        return self._chat(self.critic_model or "", [{"role": "user", "content": content}], 0.2)

    def _write(self, candidates: list[Candidate], subject: str, seed: int) -> None:
        with open(self.out / "candidates.jsonl", "a", encoding="utf-8") as f:
            for c in candidates:
                f.write(json.dumps(asdict(c)) + "\n")
        rows = {r.id: r for r in read_manifest(self.out)} if (self.out / "pool.jsonl").exists() else {}
        for c in candidates:
            if c.passed and c.id not in rows:
                rows[c.id] = PoolRow.at(c.id, subject=subject, author=c.model, seed=seed, notes=c.critique)
        write_manifest(self.out, [rows[k] for k in sorted(rows)])
