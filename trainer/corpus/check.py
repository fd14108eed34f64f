"""Check the warm-start corpus against the reward: the copy guard (source and picture) and the taste model.

Run from the repository root after `watercolour pool render trainer/corpus/warmstart` and
`python trainer/corpus/compose.py --label`:

    .venv/bin/python trainer/corpus/check.py

Prints one line per sketch (characters, policy tokens, closest pool sketch at the source and in
the picture, the embedded scorer's score for the row's own subject), then per subject the totals
that trainer/corpus/warmstart/README.md reports, against that subject's okay median in the
starter pool. The bars: every source share < 0.3, every picture similarity < 0.92 (the guard's
threshold), every sketch at most 947 tokens (the longest hibiscus; `sft --max_sketch_tokens`
counts 4 more, the fence), two thirds of each subject above its okay median.
"""

import json
import pathlib
import statistics
from collections import defaultdict

from transformers import AutoTokenizer

from watercolour_env.pool import STARTER_POOL, Pool, Tier
from watercolour_env.server.copies import CopyGuard
from watercolour_env.server.reward.embedded import EmbeddedScorer
from watercolour_trainer.training.policy import embedded_gguf

pool = Pool.load(str(STARTER_POOL))
scorer = EmbeddedScorer.fit(pool, folds=0)
guard = CopyGuard(pool, encoder=scorer.encoder)  # as the server holds it: at any seed and place too
gguf = embedded_gguf()
tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
d = pathlib.Path(__file__).resolve().parent / "warmstart"
okay: dict[str, float] = {}
found: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
for row in map(json.loads, (d / "pool.jsonl").read_text().splitlines()):
    subject = row["subject"]
    if subject not in okay:  # the pool's okay paintings of this subject, scored as this subject
        okay[subject] = statistics.median(
            scorer.score(r.png, subject) for r in pool.tier(Tier.OKAY) if r.subject == subject
        )
    src = (d / row["sketch"]).read_text()
    png = (d / row["image"]).read_bytes()
    s, p = guard.closest(src, png)
    copied = guard.match(src, png)  # the server's verdict, the joint check at any seed and place included
    found[subject]["copies"].extend([row["id"]] if copied else [])
    sc = scorer.score(png, subject)
    tokens = len(tokenizer(src, add_special_tokens=False)["input_ids"])  # the sketch bare; sft's fence adds 4
    for key, value in [("source", s.similarity), ("picture", p.similarity), ("score", sc), ("chars", len(src))]:
        found[subject][key].append(value)
    found[subject]["tokens"].append(tokens)
    print(
        row["id"],
        row["tier"],
        len(src),
        tokens,
        f"source {s.similarity:.2f} {s.reference}",
        f"picture {p.similarity:.2f} {p.reference}",
        f"score {sc:.3f}",
        f"COPY of {copied.reference} ({copied.level} {copied.similarity:.2f})" if copied else "",
    )
for subject, f in found.items():
    above = sum(sc > okay[subject] for sc in f["score"])
    print(f"== {subject}: {len(f['score'])} sketches")
    print(f"okay median {okay[subject]:.3f}, above {above} of {len(f['score'])}")
    print(f"max source share {max(f['source']):.2f}, max picture similarity {max(f['picture']):.2f}")
    print(f"copies the server would refuse: {', '.join(f['copies']) or 'none'}")
    sc, ch, tk = f["score"], f["chars"], f["tokens"]
    print(f"score min {min(sc):.3f} median {statistics.median(sc):.3f} max {max(sc):.3f}")
    print(f"characters min {min(ch)} median {statistics.median(ch):g} max {max(ch)}")
    print(f"policy tokens min {min(tk)} median {statistics.median(tk):g} max {max(tk)}")
