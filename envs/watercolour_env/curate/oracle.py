"""`watercolour pool oracle`: choose the love painting a pool holds out as its deployment's oracle.

A Space validates its reward with an oracle: a painting the pool's taste loves, sent as an
episode, must score near the top (`audit/oracle.py`). A painting of the pool cannot be that
oracle, since sent back it is a copy. So one love painting is held out of the references
(`oracle = "<id>"` in pool.toml). Each love painting is judged as its episode would be, by the
copy guard and the reward built on every other rated painting (leave one out); the best that is
not a copy of another is held out.

Paintings written from one template (shared helpers, other numbers) are copies of each other at
the source: all five love paintings of the jellyfish example pool are. Such a pool needs one
love painting in code of its own, as the example's `jelly-17` is (docs/LOG.md, 2026-12-05,
seventh session). The table also shows how far the pool's taste reaches beyond its paintings:
held out, two of those five template paintings score 0.055.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from tqdm import tqdm

from watercolour_env.errors import ConfigError
from watercolour_env.pool import Pool, Tier
from watercolour_env.pool.declaration import write_declaration
from watercolour_env.server.app import guard_encoder
from watercolour_env.server.copies import CopyGuard
from watercolour_env.server.pool_route import reference_reward
from watercolour_env.server.reward import build_terms
from watercolour_env.server.reward.rubric import Rubric
from watercolour_env.server.settings import ServerSettings


@dataclass(frozen=True)
class HeldOut:
    """One love painting scored by the rest of its pool.

    Attributes:
        id: the painting, e.g. "jelly-17".
        reward: its reward in [0, 1] from the reward built without it; None when a scorer gave
            no verdict; 0.0 when it is a copy.
        copy_of: what the copy guard says of it against the others, e.g. "copied_reference:
            jelly-03 (source 1.00)"; None when it is no copy (or the guard is off).
    """

    id: str
    reward: float | None
    copy_of: str | None = None


def held_out_rewards(pool: Pool, settings: ServerSettings) -> list[HeldOut]:
    """Each love painting of `pool` (its oracle too) judged by the copy guard and reward of the others.

    The guard and reward are the ones `settings` configures (as the server builds them: the
    guard holds the gold pool's paintings too when one is set), with seed 0, on the painting's
    stored PNG and sketch (no render). No copy first, best first;
    unscored ones last.

    Raises:
        ConfigError: the pool has one love painting, so holding it out would leave none.
    """
    loved = [r for r in pool.rated if r.tier is Tier.LOVE]
    if len(loved) < 2:
        raise ConfigError(
            f"the pool {pool.source} has one love painting; held out, it would leave the reward none to learn "
            "from: rate more love paintings first (docs/pool.md, how many)"
        )
    weights = settings.weights()
    options = settings.term_options()
    plain = replace(pool.declaration, oracle=None)
    whole = Rubric(weights, build_terms(options, dict(weights), pool), settings.fail_reward)
    gold = getattr(whole.terms.get("gold"), "pool", None)  # the server's guard holds the gold pool's too
    encoder = guard_encoder(whole)  # and checks pictures at any seed with it
    whole.close()
    results = []
    for painting in tqdm(loved, desc="holding out", unit="painting", leave=False):
        rest = Pool([r for r in pool.rated if r is not painting], pool.source, pool.declared_subjects, plain)
        guarded = Pool(rest.references + (gold.references if gold else []), pool.source)
        guard = CopyGuard(guarded, encoder=encoder) if settings.copy_guard else None
        copy = guard.match(painting.sketch, painting.png) if guard is not None else None
        if copy is not None:
            results.append(HeldOut(painting.id, 0.0, copy.describe()))
            continue
        rubric = Rubric(weights, build_terms(options, dict(weights), rest), settings.fail_reward)
        try:
            results.append(HeldOut(painting.id, reference_reward(rubric, painting)))
        finally:
            rubric.close()
    return sorted(results, key=lambda h: (h.copy_of is not None, h.reward is None, -(h.reward or 0.0)))


def declare_oracle(folder: Path, painting: str) -> None:
    """Writes `oracle = "<painting>"` into the folder's pool.toml, keeping its subject and hint.

    Raises:
        ConfigError: `painting` is not a love painting of the pool (checked by loading it).
    """
    folder = Path(folder)
    pool = Pool.from_folder(folder, hold_out=False)  # a stale oracle line is what is being replaced
    declared = replace(pool.declaration, oracle=painting)
    Pool(pool.rated, pool.source, pool.declared_subjects, declared)  # the loader's checks, before writing
    write_declaration(folder, declared)
