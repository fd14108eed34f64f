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


def test_the_corpus_is_three_subjects_of_love_and_okay():
    from collections import Counter

    corpus = Pool.load(str(WARMSTART_CORPUS))
    # 48 hibiscus (35 love), 24 jellyfish and 24 songbirds (18 love each): one wash is okay
    assert len(corpus.tier(Tier.LOVE)) == 71 and len(corpus.tier(Tier.OKAY)) == 25
    assert not corpus.tier(Tier.NOPE)
    assert Counter(ref.subject for ref in corpus.references) == {
        "a hibiscus": 48,
        "a jellyfish": 24,
        "a songbird on a branch": 24,
    }
    # every subject of the corpus is one the starter pool covers, with the same line in its prompt
    starter = Pool.load(str(STARTER_POOL))
    for subject in ("a hibiscus", "a jellyfish", "a songbird on a branch"):
        assert starter.coverage().covers(subject)
        assert corpus.declaration.subject_hint(subject) == starter.declaration.subject_hint(subject) is not None


def test_no_corpus_sketch_is_a_copy_of_the_reward_pool():
    from watercolour_env.server.reward.vision.encoder import shared_encoder

    guard = CopyGuard(Pool.load(str(STARTER_POOL)), encoder=shared_encoder())  # as the server holds it
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
