"""The warm start's own corpus stays apart from the reward's pool (issue 33, part 5).

A policy fine-tuned on the paintings it is judged against learns the answers, and the copy guard
fails every reply that reproduces one. So `watercolour sft` learns from `trainer/corpus/warmstart`
by default, and none of its sketches may be a copy of the starter pool: a change to either that
makes one a copy fails here, before an adapter is made from it.
"""

import json

import pytest

from watercolour_env.pool import STARTER_POOL, Pool, Tier
from watercolour_env.server.copies import CopyGuard
from watercolour_trainer.training.sft import WARMSTART_CORPUS, SFTArguments

pytestmark = pytest.mark.train


def test_sft_learns_from_the_corpus_by_default_not_from_the_reward_pool():
    assert SFTArguments().pool == str(WARMSTART_CORPUS)
    assert WARMSTART_CORPUS.resolve() != STARTER_POOL.resolve()


def test_the_corpus_is_48_hibiscus_sketches_of_love_and_okay():
    corpus = Pool.load(str(WARMSTART_CORPUS))
    assert len(corpus.tier(Tier.LOVE)) == 36 and len(corpus.tier(Tier.OKAY)) == 12
    assert not corpus.tier(Tier.NOPE)
    assert {ref.subject for ref in corpus.references} == {"a hibiscus"}


def test_no_corpus_sketch_is_a_copy_of_the_reward_pool():
    guard = CopyGuard(Pool.load(str(STARTER_POOL)))
    pool_ids = {json.loads(line)["id"] for line in (STARTER_POOL / "pool.jsonl").read_text().splitlines()}
    rows = [json.loads(line) for line in (WARMSTART_CORPUS / "pool.jsonl").read_text().splitlines()]
    assert not pool_ids & {row["id"] for row in rows}
    copies = {}
    for row in rows:
        sketch = (WARMSTART_CORPUS / row["sketch"]).read_text()
        png = (WARMSTART_CORPUS / row["image"]).read_bytes()
        match = guard.match(sketch, png)
        if match is not None:
            copies[row["id"]] = match
    assert copies == {}
