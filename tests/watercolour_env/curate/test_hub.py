"""The pool as a dataset: the dry run writes what would be uploaded, and it reads back the same."""

import datasets

from watercolour_env.curate.hub import SHARD, push, write_folder
from watercolour_env.pool import STARTER_POOL, Pool


def test_a_dry_run_writes_a_parquet_shard_and_the_card_that_read_back_as_the_same_pool(tmp_path):
    files, revision = push(STARTER_POOL, "someone/watercolour-pool", dry_run=tmp_path)
    assert revision is None
    assert sorted(map(str, files)) == ["README.md", SHARD, "pool.toml"]
    assert (tmp_path / "README.md").read_text() == (STARTER_POOL / "README.md").read_text()
    rows = datasets.load_dataset("parquet", data_files=str(tmp_path / SHARD), split="train")
    rows = rows.cast_column("image", datasets.Image(decode=False))  # as Pool.from_hub reads it
    from_parquet = Pool.from_rows(list(rows), source="parquet")  # no pool.toml here: its oracle is a row like any
    original = Pool.from_folder(STARTER_POOL)
    assert [(r.id, r.tier, r.sketch, r.png) for r in from_parquet.rated] == [
        (r.id, r.tier, r.sketch, r.png) for r in original.rated
    ]


def test_a_pulled_pool_is_written_as_a_folder_that_loads_again(tmp_path):
    original = Pool.from_folder(STARTER_POOL)
    write_folder(original, tmp_path / "copy")
    again = Pool.from_folder(tmp_path / "copy")
    assert again.counts() == original.counts()
    assert [r.png for r in again.references] == [r.png for r in original.references]
