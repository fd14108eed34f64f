"""The gold term: a scorer fitted on held-out ratings, reported beside the reward and never paid."""

import pytest

from tests.conftest import example, png_of, starter_scorer
from watercolour_env import EpisodeStatus, WatercolourAction
from watercolour_env.curate.hub import write_folder
from watercolour_env.errors import ConfigError
from watercolour_env.pool import STARTER_POOL, Pool, Tier
from watercolour_env.pool.loader import Reference
from watercolour_env.server.reward import build_terms
from watercolour_env.server.reward.embedded import EmbeddedTerm
from watercolour_env.server.reward.gold import GoldOptions, GoldTerm
from watercolour_env.server.reward.length import LengthTerm
from watercolour_env.server.reward.rubric import Rubric, RubricWeights
from watercolour_env.server.sandbox import Renderer
from watercolour_env.server.settings import load_settings
from watercolour_env.server.watercolour_environment import WatercolourEnvironment


def stripes_over_grey(folder):
    """A pool folder that loves colourful stripes and rejects a grey square (2 paintings a tier)."""
    rows = [("love", "stripes"), ("okay", "stripes"), ("nope", "grey")]
    refs = [
        Reference(f"{tier}-{i}", Tier(tier), png_of(kind), "function setup() {}", "a hibiscus", "t", 0, "")
        for tier, kind in rows
        for i in range(2)
    ]
    write_folder(Pool(refs, str(folder)), folder)
    return folder


def test_unset_it_is_not_built_and_weighs_nothing(monkeypatch):
    settings = load_settings()
    assert settings.weights()["gold"] == 0.0 and settings.term_options()["gold"].pool is None
    assert GoldTerm.build(GoldOptions(), None, 0.0) is None


def test_set_it_fits_on_the_gold_pool_not_the_reward_pool(tmp_path, monkeypatch):
    monkeypatch.setenv("WATERCOLOUR_GOLD_POOL", str(stripes_over_grey(tmp_path / "gold")))
    options = load_settings().term_options()["gold"]
    term = GoldTerm.build(options, None, 0.0)
    # this gold pool rates stripes above a grey square; the starter pool has neither
    # (a painting like the pool's median scores 0.5: here the stripes, 4 of its 6 paintings)
    assert term.scorer.score(png_of("stripes")) == pytest.approx(0.5) and term.scorer.score(png_of("grey")) < 0.1


def test_a_gold_pool_that_does_not_load_refuses_to_start(tmp_path):
    with pytest.raises(ConfigError, match=str(tmp_path / "missing")):
        build_terms({"gold": GoldOptions(pool=str(tmp_path / "missing"))} | _others(), {}, Pool.load(str(STARTER_POOL)))


def _others() -> dict:
    settings = load_settings()
    return {name: o for name, o in settings.term_options().items() if name != "gold"}


@pytest.mark.browser
def test_an_episode_reports_gold_at_weight_zero_and_the_reward_leaves_it_out(tmp_path):
    gold = GoldTerm.build(GoldOptions(pool=str(stripes_over_grey(tmp_path / "gold"))), None, 0.0)
    rubric = Rubric(RubricWeights(), [LengthTerm(), EmbeddedTerm(starter_scorer()), gold])
    env = WatercolourEnvironment(Renderer(workers=1), rubric)
    env.reset(seed=1)
    obs = env.step(WatercolourAction(reply=example("hibiscus.js")))
    assert obs.status is EpisodeStatus.SCORED
    parts = {c.name: c for c in obs.reward_components}
    assert parts["gold"].status.value == "ok" and parts["gold"].weight == 0.0 and parts["gold"].contribution == 0.0
    assert 0.0 < parts["gold"].value < 1.0
    assert obs.reward == pytest.approx(sum(c.contribution for name, c in parts.items() if name != "gold"))


def test_the_copy_guard_holds_the_gold_pools_paintings_too():
    from watercolour_env.curate.split import split_pool
    from watercolour_env.server.app import guarded_pool
    from watercolour_env.server.copies import CopyGuard

    proxy, gold = split_pool(Pool.load(str(STARTER_POOL)))
    served, held_out = Pool(proxy, "proxy"), Pool(gold, "gold")
    terms = [LengthTerm(), EmbeddedTerm(starter_scorer())]
    rubric = Rubric(RubricWeights(), [*terms, GoldTerm(starter_scorer(), held_out)])
    guard = CopyGuard(guarded_pool(served, rubric))
    painting = next(r for r in held_out.references if r.id.startswith("bloom-"))
    # served the proxy half alone, a gold painting sent back would be paid by the gold scorer as its own
    assert guard.match(painting.sketch, painting.png).reference == painting.id
    alone = guarded_pool(served, Rubric(RubricWeights(), terms))  # no gold (and no oracle): the pool alone
    assert [r.id for r in alone.references] == [r.id for r in served.references]
