"""`watercolour pool split`: a proxy half to train against and a gold half to judge by."""

import subprocess
import sys
from collections import Counter

import pytest

from tests.conftest import png_of
from watercolour_env.curate.split import family, split_pool
from watercolour_env.pool import Pool, Tier
from watercolour_env.pool.loader import Reference
from watercolour_env.prompt import SYSTEM_PROMPT, system_prompt


def reference(id_: str, tier: Tier) -> Reference:
    return Reference(id_, tier, png_of("grey"), "function setup() {}", "a hibiscus", "test", 0, "")


def test_a_painting_kind_is_its_id_without_the_number():
    assert family(reference("bloom-03", Tier.LOVE)) == "bloom"
    assert family(reference("formless-grid-4x4-pale-300", Tier.NOPE)) == "formless-grid"
    assert family(reference("other-pear-tree", Tier.NOPE)) == "other"


def test_each_tier_and_kind_is_dealt_evenly_and_nothing_is_lost_or_shared():
    # love: 4 blooms, 3 pairs; okay: 2 simple; nope: 3 weak, 2 formless grids, 1 formless wash
    counts = {
        ("bloom", Tier.LOVE): 4,
        ("pair", Tier.LOVE): 3,
        ("simple", Tier.OKAY): 2,
        ("weak", Tier.NOPE): 3,
        ("formless-grid", Tier.NOPE): 2,
        ("formless-wash", Tier.NOPE): 1,
    }
    pool = Pool([reference(f"{kind}-{i}", tier) for (kind, tier), n in counts.items() for i in range(n)])
    proxy, gold = split_pool(pool, seed=0)
    ids = [r.id for r in pool.references]
    assert sorted(r.id for r in proxy + gold) == sorted(ids) and not {r.id for r in proxy} & {r.id for r in gold}
    kinds = lambda half: Counter((r.tier, family(r)) for r in half)  # noqa: E731
    # even groups split in two equal halves; the odd ones (3 pairs, 3 weak, 1 wash) differ by one
    for key, n in kinds(pool.references).items():
        assert abs(kinds(proxy)[key] - kinds(gold)[key]) == n % 2, key
    # the odd one out alternates between the halves: 15 paintings split 8 / 7 or 7 / 8, not 9 / 6
    assert {len(proxy), len(gold)} == {7, 8}
    assert [r.id for r in split_pool(pool, seed=0)[0]] == [r.id for r in proxy]  # the seed fixes the deal
    assert [r.id for r in proxy] == [i for i in ids if i in {r.id for r in proxy}]  # pool order kept


@pytest.mark.cli
def test_the_command_writes_two_pools_that_load(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "watercolour_trainer.cli", "pool", "split", str(tmp_path / "s")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    proxy, gold = Pool.load(str(tmp_path / "s" / "proxy")), Pool.load(str(tmp_path / "s" / "gold"))
    # the starter pool's 165 paintings (39 love, 53 okay, 73 nope): each tier halved, the odd ones
    # out alternating, so a tier's halves differ by at most one
    assert len(proxy.references) + len(gold.references) == 165
    for tier, n in ((Tier.LOVE, 39), (Tier.OKAY, 53), (Tier.NOPE, 73)):
        assert len(proxy.tier(tier)) + len(gold.tier(tier)) == n
        assert abs(len(proxy.tier(tier)) - len(gold.tier(tier))) <= 1
    assert "proxy" in done.stdout and "gold" in done.stdout
    # both halves ask for the pool's subject; the served half keeps the oracle, out of its references
    assert proxy.subject == gold.subject == "a peach hibiscus" and gold.declaration.hint == proxy.declaration.hint
    assert proxy.oracle.id == "songbird-33" and gold.oracle is None
    # the learning run (docs/runs/h200-learn) serves the proxy: its prompt is the one steps 1-29 had
    assert system_prompt(proxy.declaration.hint) == SYSTEM_PROMPT
    assert "songbird-33" not in {r.id for r in proxy.references + gold.references}
