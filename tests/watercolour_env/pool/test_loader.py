"""The pool format, its loader and its tools, on paintings rendered by the real renderer."""

import io
import json
import shutil

import numpy as np
import pytest
from PIL import Image

from tests.conftest import EXAMPLES, REPO
from watercolour_env.curate.render import contact_sheets, render_folder
from watercolour_env.errors import ConfigError
from watercolour_env.pool import Pool, Tier, read_manifest, write_manifest

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def rendered(tmp_path_factory, renderer):
    folder = tmp_path_factory.mktemp("pool")
    (folder / "sketches").mkdir()
    for name in ("trivial", "hibiscus", "rich", "paints_nothing"):
        shutil.copy(EXAMPLES / f"{name}.js", folder / "sketches" / f"{name}.js")
    # paints a flat ellipse through an alias of p5's: the gate rejects it, so no one may rate it
    shutil.copy(REPO / "spaces/env/validation/canaries/alias_global.js", folder / "sketches" / "alias_global.js")
    summary = render_folder(folder, renderer, subject="a hibiscus")
    return folder, summary


def rate(folder, tiers):
    rows = read_manifest(folder)
    for row in rows:
        row.tier = tiers.get(row.id)
    write_manifest(folder, rows)


def test_render_writes_pngs_and_a_manifest_and_names_what_failed(rendered):
    folder, summary = rendered
    assert sorted(summary.rendered) == ["hibiscus", "rich", "trivial"]
    assert "blank canvas" in summary.failed["paints_nothing"]
    assert summary.failed["alias_global"].startswith("the gate rejects it: bare primitive")
    assert [r.id for r in read_manifest(folder)] == ["hibiscus", "rich", "trivial"]


def test_a_second_render_skips_what_is_up_to_date_and_keeps_ratings(rendered, renderer):
    folder, _ = rendered
    rate(folder, {"rich": Tier.LOVE})
    again = render_folder(folder, renderer)
    assert sorted(again.skipped) == ["hibiscus", "rich", "trivial"] and again.rendered == []
    assert {r.id: r.tier for r in read_manifest(folder)}["rich"] is Tier.LOVE


def test_a_touched_sketch_is_not_rendered_again_and_an_edited_one_is(rendered, renderer):
    import os
    import time

    folder, _ = rendered
    later = time.time() + 60
    os.utime(folder / "sketches" / "trivial.js", (later, later))  # a copy or a checkout: same bytes, newer
    again = render_folder(folder, renderer)
    assert again.rendered == [] and "trivial" in again.skipped
    hibiscus = folder / "sketches" / "hibiscus.js"
    hibiscus.write_text(hibiscus.read_text() + "\n// edited\n")
    os.utime(hibiscus, (0, 0))  # older than its PNG, but its bytes changed
    assert render_folder(folder, renderer).rendered == ["hibiscus"]


def test_a_rated_folder_loads_and_unrated_rows_are_left_out(rendered):
    folder, _ = rendered
    rate(folder, {"rich": Tier.LOVE, "hibiscus": Tier.OKAY})
    pool = Pool.load(str(folder))
    assert pool.counts() == {"love": 1, "okay": 1, "nope": 0}
    assert pool.tier(Tier.LOVE)[0].sketch == (folder / "sketches" / "rich.js").read_text()


def test_a_pool_without_love_refuses_to_load_and_says_why(rendered):
    folder, _ = rendered
    rate(folder, {"hibiscus": Tier.OKAY, "trivial": Tier.NOPE})
    with pytest.raises(ConfigError, match="no love") as refused:
        Pool.from_folder(folder)
    assert str(refused.value).endswith(f"painting: rate its paintings with `watercolour pool rate {folder}`")


def test_a_dataset_without_ratings_says_to_pull_it_and_rate_it():
    with pytest.raises(ConfigError) as refused:
        Pool([], source="me/pool@v2")
    assert str(refused.value) == (
        "the pool me/pool@v2 has no love and no okay painting: "
        "`watercolour pool pull me/pool@v2 FOLDER`, then `watercolour pool rate FOLDER`"
    )


def test_an_unreadable_image_names_the_painting(rendered, tmp_path):
    folder, _ = rendered
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    rate(copy, {"rich": Tier.LOVE, "hibiscus": Tier.OKAY})
    (copy / "images" / "hibiscus.png").write_bytes(b"not a png")
    with pytest.raises(ConfigError, match="hibiscus"):
        Pool.from_folder(copy)


def test_dataset_rows_and_the_folder_give_the_same_pool(rendered):
    folder, _ = rendered
    rate(folder, {"rich": Tier.LOVE, "hibiscus": Tier.OKAY, "trivial": Tier.NOPE})
    from_folder = Pool.from_folder(folder)
    rows = []
    for line in (folder / "pool.jsonl").read_text().splitlines():
        row = json.loads(line)
        row["image"] = Image.open(folder / row["image"])  # as `datasets` decodes an Image column
        row["sketch"] = (folder / row["sketch"]).read_text()
        rows.append(row)
    from_rows = Pool.from_rows(rows, source="rows")
    assert [(r.id, r.tier, r.sketch) for r in from_rows.references] == [
        (r.id, r.tier, r.sketch) for r in from_folder.references
    ]
    for a, b in zip(from_rows.references, from_folder.references, strict=True):
        pixels = [np.asarray(Image.open(io.BytesIO(p)).convert("RGBA")) for p in (a.png, b.png)]
        assert np.array_equal(*pixels)


def test_a_spec_that_is_neither_folder_nor_dataset_id_is_a_clear_error():
    with pytest.raises(ConfigError, match="no pool"):
        Pool.load("./no/such/folder")


def test_contact_sheets_show_each_tier_with_counts_and_coverage(rendered):
    folder, _ = rendered
    rate(folder, {"rich": Tier.LOVE, "hibiscus": Tier.OKAY})
    summary = contact_sheets(folder)
    assert summary["counts"] == {"love": 1, "okay": 1, "nope": 0, "unrated": 1}
    assert 0 < summary["paint_fraction"]["love"]["median"] <= 1
    assert sorted(p.name for p in (folder / "sheets").iterdir()) == [
        "love.png",
        "okay.png",
        "summary.json",
        "unrated.png",
    ]


def test_the_starter_pool_loads_with_enough_paintings_in_every_tier():
    from watercolour_env.pool import STARTER_POOL

    counts = Pool.load(str(STARTER_POOL)).counts()
    assert counts["love"] >= 15 and counts["okay"] >= 20 and counts["nope"] >= 15
    assert sum(counts.values()) >= 60


def test_the_server_refuses_to_start_on_a_broken_pool(tmp_path):
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    with pytest.raises(ConfigError, match="pool.jsonl is missing"):
        build_app(load_settings(pool=str(tmp_path)))


def test_the_pool_render_command_exits_1_naming_the_sketches_left_out(tmp_path):
    import subprocess

    from tests.conftest import WATERCOLOUR

    (tmp_path / "sketches").mkdir()
    for name in ("trivial", "paints_nothing"):
        shutil.copy(EXAMPLES / f"{name}.js", tmp_path / "sketches" / f"{name}.js")
    done = subprocess.run(
        [WATERCOLOUR, "pool", "render", str(tmp_path), "--workers", "1", "--subject", "a hibiscus"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 1, done.stderr
    assert "paints_nothing: blank canvas" in done.stdout
    last = done.stderr.strip().splitlines()[-1]  # after tqdm's progress
    assert last == "error: 1 sketches were left out of the pool (above); fix or remove them"
