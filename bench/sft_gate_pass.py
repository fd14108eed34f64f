"""Gate-pass rate of unprimed replies, before and after SFT: does the warm start write sketches?

    watercolour bench sft_gate_pass [--adapter trainer/adapters/smollm2_135m_starter] [--samples 64]

Samples `--samples` replies of the embedded policy to the environment's own prompt (system
prompt + user prompt for the default subject, no primer) at `--temperature` (1.0), without and
with the adapter, with the same sampling seeds, and puts every reply through the environment's
gate (source checks, a real render, the render checks, then the copy guard against the starter
pool, as the environment runs it by default). Prints per model: replies that pass, the pass
rate, the replies named copies of the pool, the embedded taste score of those that pass (median
and range), the commonest violations and the median reply length, and the ratio of the two pass
rates; writes everything, replies included, to `--out` (JSON).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path

import torch

from watercolour_env.pool import STARTER_POOL, Pool
from watercolour_env.prompt import DEFAULT_SUBJECT, SYSTEM_PROMPT, user_prompt
from watercolour_env.server.copies import CopyGuard
from watercolour_env.server.gate import check_copy, check_render, check_source
from watercolour_env.server.reward.embedded import EmbeddedScorer
from watercolour_env.server.sandbox import Renderer
from watercolour_trainer.training.policy import EMBEDDED_POLICY, load_policy
from watercolour_trainer.training.train import load_adapter

REPO = Path(__file__).resolve().parents[1]
DEFAULT_ADAPTER = REPO / "trainer" / "adapters" / "smollm2_135m_starter"


def sample(model, tokenizer, n: int, temperature: float, max_new_tokens: int, batch: int) -> list[dict]:  # noqa: ANN001
    """`n` replies to the default prompt, seeds 0..n-1 in batches; each with its token count."""
    messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user_prompt(DEFAULT_SUBJECT)}]
    prompt = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    encoded = tokenizer([prompt] * batch, return_tensors="pt", add_special_tokens=False)
    replies = []
    model.eval()
    for start in range(0, n, batch):
        torch.manual_seed(start)
        size = min(batch, n - start)
        with torch.no_grad():
            out = model.generate(
                input_ids=encoded["input_ids"][:size],
                attention_mask=encoded["attention_mask"][:size],
                do_sample=True,
                temperature=temperature,
                top_p=1.0,
                top_k=0,
                max_new_tokens=max_new_tokens,
                pad_token_id=tokenizer.pad_token_id,
            )
        for row in out[:, encoded["input_ids"].shape[1] :]:
            ids = [int(t) for t in row if int(t) != tokenizer.pad_token_id]
            replies.append({"reply": tokenizer.decode(ids, skip_special_tokens=True), "tokens": len(ids)})
        print(f"  sampled {len(replies)}/{n}", flush=True)
    return replies


def gate_all(replies: list[dict], renderer: Renderer, guard: CopyGuard, scorer: EmbeddedScorer) -> None:
    """Adds `passed`, `violations`, `copied` (the pool sketch it reproduces, or None) and `score`
    (the embedded taste model's, in [0, 1], for replies that pass) to each reply."""
    for i, item in enumerate(replies):
        gate = check_source(item["reply"])
        if gate.passed:
            gate = check_copy(check_render(gate, renderer.render(gate.sketch or "", seed=i)), guard)
        item["passed"] = gate.passed
        item["violations"] = [v.value for v in gate.violations]
        item["copied"] = gate.copied.reference if gate.copied else None
        item["score"] = scorer.score(gate.render.png) if gate.passed and gate.render else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adapter", default=str(DEFAULT_ADAPTER))
    parser.add_argument("--samples", type=int, default=64)
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--max-new-tokens", type=int, default=1600)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--out", default="runs/bench/sft_gate_pass.json")
    parser.add_argument("--replies", help="Gate the replies of bench/sample_replies.py (a GPU's) instead of sampling.")
    args = parser.parse_args()

    results = {}
    if args.replies:
        sampled = json.loads(Path(args.replies).read_text())
        results = {name: sampled[name] for name in ("base", "sft") if name in sampled}
        print(f"gating {args.replies}: sampled on {sampled['device']} with {sampled['args']}")
    pool = Pool.load(str(STARTER_POOL))
    guard, scorer = CopyGuard(pool), EmbeddedScorer.fit(pool, folds=0)
    with Renderer(workers=2) as renderer:
        for name in results if args.replies else ("base", "sft"):
            if name not in results:
                model, tokenizer = load_policy(EMBEDDED_POLICY)
                if name == "sft":
                    model = load_adapter(model, args.adapter).merge_and_unload()
                print(f"{name}: sampling {args.samples} replies at temperature {args.temperature} ...", flush=True)
                started = time.perf_counter()
                replies = sample(model, tokenizer, args.samples, args.temperature, args.max_new_tokens, args.batch)
                results[name] = {"seconds": round(time.perf_counter() - started, 1), "replies": replies}
            gate_all(results[name]["replies"], renderer, guard, scorer)

    print(
        f"\n{'model':<6} {'passed':>8} {'rate':>6} {'copies':>6} {'score median [range]':>22} "
        f"{'median tokens':>14} {'sampling s':>10}  commonest violations"
    )
    rates = {}
    for name, result in results.items():
        replies = result["replies"]
        passed = sum(r["passed"] for r in replies)
        rates[name] = passed / len(replies)
        tokens = statistics.median(r["tokens"] for r in replies)
        common = Counter(v for r in replies for v in r["violations"]).most_common(4)
        copies = sum(r["copied"] is not None for r in replies)
        scores = sorted(r["score"] for r in replies if r["score"] is not None)
        spread = f"{statistics.median(scores):.3f} [{scores[0]:.3f}, {scores[-1]:.3f}]" if scores else "-"
        print(
            f"{name:<6} {passed:>4}/{len(replies):<3} {rates[name]:>6.0%} {copies:>6} {spread:>22} "
            f"{tokens:>14.0f} {result['seconds']:>10}  " + ", ".join(f"{v} {c}" for v, c in common)
        )
    if "base" in rates and "sft" in rates:
        ratio = "n/a (no base reply passed)" if rates["base"] == 0 else f"{rates['sft'] / rates['base']:.1f}x"
        print(f"pass rate after / before SFT: {ratio}; adapter {args.adapter}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"args": vars(args), "rates": rates, **results}, indent=1) + "\n")
    print(f"replies and verdicts: {args.out}")


if __name__ == "__main__":
    main()
