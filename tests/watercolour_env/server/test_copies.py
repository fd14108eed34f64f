"""The copy guard: edited copies of a pool sketch are named, honest new paintings are not."""

import pytest

from tests.conftest import example
from watercolour_env.audit.copies import EDITS, edited_copies
from watercolour_env.audit.probes import honest_sketches
from watercolour_env.pool import STARTER_POOL, Pool
from watercolour_env.server.copies import CopyGuard


@pytest.fixture(scope="module")
def pool() -> Pool:
    return Pool.load(str(STARTER_POOL))


@pytest.fixture(scope="module")
def guard(pool) -> CopyGuard:  # noqa: ANN001
    return CopyGuard(pool)


@pytest.mark.parametrize("reference", ["bloom-01", "pair-03", "simple-02", "weak-blob"])
def test_every_edit_of_a_pool_sketch_is_a_copy_at_the_source(pool, guard, reference):
    source = next(r.sketch for r in pool.references if r.id == reference)
    copies = edited_copies(source, seed=3)
    assert sorted(copies) == sorted(EDITS)
    for edit, copy in copies.items():
        match = guard.match(copy, None)
        assert match is not None and match.level == "source", edit
        assert match.similarity >= 0.7, edit


def test_honest_new_paintings_and_the_examples_are_not_copies_at_the_source(guard):
    sketches = honest_sketches("") | {name: example(name) for name in ("hibiscus.js", "rich.js", "trivial.js")}
    assert len(sketches) >= 19
    assert {name: guard.match(source, None) for name, source in sketches.items() if guard.match(source, None)} == {}


def test_a_copy_names_the_painting_it_copies_when_the_template_is_shared(pool, guard):
    # every bloom-* sketch shares the composer's helpers: the picture breaks the tie
    reference = next(r for r in pool.references if r.id == "bloom-07")
    match = guard.match(reference.sketch, reference.png)
    assert (match.reference, match.level) == ("bloom-07", "source")
    assert match.describe() == "copied_reference: bloom-07 (source 1.00)"


def test_a_reference_made_of_common_shingles_is_judged_by_its_picture(pool, guard):
    # the formless paintings are written in the families' generic code: no source evidence
    formless = next(r for r in pool.references if r.id.startswith("formless-grid-"))
    assert guard.match(formless.sketch, None) is None
    match = guard.match(formless.sketch, formless.png)
    assert (match.reference, match.level) == (formless.id, "picture") and match.similarity > 0.999


@pytest.mark.browser
def test_recoloured_and_rotated_copies_are_copies_in_the_picture(pool, guard, renderer):
    formless = next(r for r in pool.references if r.id == "formless-scatter-30-hibiscus-90")
    copies = edited_copies(formless.sketch, seed=1)
    for edit in ("recoloured", "rotated", "padded"):
        png = renderer.render(copies[edit], seed=0).png
        match = guard.match(copies[edit], png)
        assert match is not None and (match.reference, match.level) == (formless.id, "picture"), edit


@pytest.mark.browser
def test_honest_new_paintings_are_not_copies_in_the_picture(guard, renderer):
    matches = {}
    for name, source in honest_sketches("").items():
        png = renderer.render(source, seed=0).png
        assert png is not None, name
        if (match := guard.match(source, png)) is not None:
            matches[name] = match
    assert matches == {}


@pytest.mark.browser
def test_a_copy_at_another_seed_or_moved_is_named_in_the_picture_with_the_encoder(pool, renderer):
    from watercolour_env.server.reward.vision.encoder import shared_encoder

    seeing = CopyGuard(pool, encoder=shared_encoder())
    blind = CopyGuard(pool)  # the presence map alone, at the reference's own seed only
    source = {r.id: r.sketch for r in pool.references}
    cases = [
        ("bloom-01", edited_copies(source["bloom-01"])["moved"], 3),  # 40 px right, 25 down; seed 3
        ("bloom-05", source["bloom-05"], 1),  # verbatim, at seed 1: the texture differs
    ]
    for reference, sketch, seed in cases:
        png = renderer.render(sketch, seed=seed).png
        assert blind.match("", png) is None, reference  # measured 0.866 and 0.842, under 0.92
        match = seeing.match("", png)  # the source left out: the picture alone
        assert (match.reference, match.level) == (reference, "picture") and match.similarity >= 0.90, reference
    honest = renderer.render(honest_sketches("hibiscus-01")["hibiscus-01"], seed=0).png
    assert seeing.match("", honest) is None  # the closest honest painting measured: 0.877
