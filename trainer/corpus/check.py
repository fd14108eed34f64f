"""Check the warm-start corpus against the reward: the copy guard (source and picture) and the taste model.

Run from the repository root after `watercolour pool render trainer/corpus/warmstart`:

    .venv/bin/python trainer/corpus/check.py

Prints one line per sketch (characters, closest pool sketch at the source and in the picture, the
embedded scorer's score), then the totals that trainer/corpus/warmstart/README.md reports. The bars:
every source share < 0.3, every picture similarity < 0.92 (the guard's threshold), at least 32 of 48
above the okay median. Token counts (the policy's tokenizer, as `sft --max_sketch_tokens` counts
the reply) are printed too.
"""

import json
import pathlib
import statistics

from transformers import AutoTokenizer

from watercolour_env.pool import STARTER_POOL, Pool, Tier
from watercolour_env.server.copies import CopyGuard
from watercolour_env.server.reward.embedded import EmbeddedScorer
from watercolour_trainer.training.policy import embedded_gguf

pool = Pool.load(str(STARTER_POOL))
guard = CopyGuard(pool)
scorer = EmbeddedScorer.fit(pool, folds=0)
okay = statistics.median(scorer.score(r.png) for r in pool.tier(Tier.OKAY))
gguf = embedded_gguf()
tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
d = pathlib.Path(__file__).resolve().parent / "warmstart"
above, sources, pictures, lengths, scores, tokens = 0, [], [], [], [], []
for row in map(json.loads, (d / "pool.jsonl").read_text().splitlines()):
    src = (d / row["sketch"]).read_text()
    png = (d / row["image"]).read_bytes()
    s, p = guard.closest(src, png)
    sc = scorer.score(png)
    above += sc > okay
    sources.append(s.similarity)
    pictures.append(p.similarity)
    lengths.append(len(src))
    tokens.append(len(tokenizer(src, add_special_tokens=False)["input_ids"]))  # the sketch bare; sft's fence adds 4
    scores.append(sc)
    print(
        row["id"],
        row["tier"],
        len(src),
        tokens[-1],
        f"source {s.similarity:.2f} {s.reference}",
        f"picture {p.similarity:.2f} {p.reference}",
        f"score {sc:.3f}",
    )
print("okay median", round(okay, 3), "above", above, "of", len(scores))
print(f"max source share {max(sources):.2f}, max picture similarity {max(pictures):.2f}")
print(f"score min {min(scores):.3f} median {statistics.median(scores):.3f} max {max(scores):.3f}")
print(f"characters min {min(lengths)} median {statistics.median(lengths):g} max {max(lengths)}")
print(f"policy tokens min {min(tokens)} median {statistics.median(tokens):g} max {max(tokens)}")
