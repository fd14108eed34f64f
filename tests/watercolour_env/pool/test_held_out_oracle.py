"""A pool's oracle (`oracle = "<id>"` in pool.toml): a love painting held out of the references."""

import json
import shutil

import pytest
from fastapi.testclient import TestClient

from watercolour_env.curate.hub import push, write_folder
from watercolour_env.curate.oracle import declare_oracle
from watercolour_env.curate.render import pool_subject
from watercolour_env.errors import ConfigError
from watercolour_env.pool import STARTER_POOL, Pool, Tier
from watercolour_env.pool.declaration import PoolDeclaration, read_declaration
from watercolour_env.server.copies import CopyGuard


def rows_of(folder):
    return [json.loads(line) for line in (folder / "pool.jsonl").read_text().splitlines()]


def test_the_starter_holds_hibiscus_12_out_of_its_references_and_keeps_its_taste():
    rows = rows_of(STARTER_POOL)
    pool = Pool.load(str(STARTER_POOL))
    assert pool.declaration.oracle == "hibiscus-12" and pool.oracle.id == "hibiscus-12"
    assert pool.oracle.tier is Tier.LOVE and pool.oracle.seed == 7
    assert "hibiscus-12" not in {r.id for r in pool.references}
    assert [r.id for r in pool.rated] == [row["id"] for row in rows]  # every rated painting, in pool order
    by_hand = {tier: sum(row["tier"] == tier for row in rows if row["id"] != "hibiscus-12") for tier in Tier}
    assert pool.counts() == {tier.value: n for tier, n in by_hand.items()} == {"love": 19, "okay": 27, "nope": 47}


def test_the_copy_guard_does_not_know_the_oracle():
    pool = Pool.load(str(STARTER_POOL))
    assert CopyGuard(pool).match(pool.oracle.sketch, pool.oracle.png) is None
    held_in = Pool(pool.rated, pool.source)  # the same painting as a reference is a copy of itself
    assert CopyGuard(held_in).match(pool.oracle.sketch, pool.oracle.png).reference == "hibiscus-12"


@pytest.mark.parametrize(
    ("oracle", "says"),
    [
        ("bloom-99", "declares the oracle 'bloom-99' (pool.toml), which is no rated painting of it"),
        ("simple-01", "declares the oracle 'simple-01' (pool.toml), rated okay: the oracle must be a love painting"),
    ],
)
def test_an_oracle_that_is_no_love_painting_refuses_the_pool(tmp_path, oracle, says):
    shutil.copytree(STARTER_POOL, tmp_path / "pool")
    text = (tmp_path / "pool" / "pool.toml").read_text().replace('"hibiscus-12"', f'"{oracle}"')
    (tmp_path / "pool" / "pool.toml").write_text(text)
    with pytest.raises(ConfigError) as refused:
        Pool.load(str(tmp_path / "pool"))
    assert says in str(refused.value)


@pytest.mark.parametrize("oracle", ["../images/x", "a b", "", "-lead"])
def test_an_oracle_that_is_no_id_is_refused_naming_the_file(tmp_path, oracle):
    (tmp_path / "pool.toml").write_text(f'oracle = "{oracle}"\n')
    with pytest.raises(ConfigError, match="pool.toml: oracle"):
        read_declaration(tmp_path)


def test_declaring_an_okay_painting_is_refused_before_anything_is_written(tmp_path):
    folder = shutil.copytree(STARTER_POOL, tmp_path / "pool")
    before = (folder / "pool.toml").read_text()
    with pytest.raises(ConfigError, match="rated okay: the oracle must be a love painting"):
        declare_oracle(folder, "simple-01")
    assert (folder / "pool.toml").read_text() == before
    declare_oracle(folder, "bloom-05")
    assert read_declaration(folder).oracle == "bloom-05"
    assert read_declaration(folder).subject == "a peach hibiscus"  # the rest of the declaration kept


def test_render_keeps_a_declared_oracle_when_it_writes_the_subject(tmp_path):
    (tmp_path / "pool.toml").write_text('oracle = "jelly-17"\n')
    assert pool_subject(tmp_path, "a jellyfish") == "a jellyfish"
    assert read_declaration(tmp_path) == PoolDeclaration("a jellyfish", None, "jelly-17")


def test_a_pushed_and_pulled_pool_keeps_its_oracle_row_and_declaration(tmp_path):
    folder = shutil.copytree(STARTER_POOL, tmp_path / "pool")
    push(folder, "someone/hibiscus", dry_run=tmp_path / "upload")
    pulled = Pool.from_hub(str(tmp_path / "upload"))
    assert pulled.oracle.id == "hibiscus-12" and len(pulled.rated) == len(rows_of(STARTER_POOL))
    write_folder(pulled, tmp_path / "pulled")
    assert "hibiscus-12" in {row["id"] for row in rows_of(tmp_path / "pulled")}
    assert Pool.load(str(tmp_path / "pulled")).oracle.sketch == Pool.load(str(STARTER_POOL)).oracle.sketch


def test_get_pool_reports_the_oracle_and_not_among_the_references(tmp_path):
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    with TestClient(build_app(load_settings(), renderer=object())) as client:
        report = client.get("/pool").json()
    sketch = (STARTER_POOL / "sketches" / "hibiscus-12.js").read_text()
    assert report["oracle"] == {"id": "hibiscus-12", "seed": 7, "sketch": sketch}
    assert "hibiscus-12" not in {r["id"] for r in report["references"]}


@pytest.mark.server
def test_the_oracle_command_says_how_to_choose_one_and_names_a_wrong_token(tmp_path, monkeypatch):
    from tests.conftest import serving
    from watercolour_env.audit.oracle import run_oracle
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    folder = shutil.copytree(STARTER_POOL, tmp_path / "pool")
    (folder / "pool.toml").write_text('subject = "a peach hibiscus"\n')  # no oracle
    monkeypatch.delenv("WATERCOLOUR_API_TOKEN", raising=False)
    app = build_app(load_settings(pool=str(folder), api_token="s3cret-token"), renderer=object())
    with serving(app) as url:
        with pytest.raises(ConfigError, match=r"/pool answered HTTP 401 \(set WATERCOLOUR_API_TOKEN to the server's"):
            run_oracle(url, token="wrong")
        with pytest.raises(ConfigError) as refused:
            run_oracle(url, token="s3cret-token")
    assert f"the pool {folder} declares no oracle: `watercolour pool oracle FOLDER` chooses one" in str(refused.value)


def test_a_pool_with_one_love_painting_has_none_to_hold_out():
    from watercolour_env.curate.oracle import held_out_rewards
    from watercolour_env.pool.loader import Reference
    from watercolour_env.server.settings import load_settings

    pool = Pool([Reference(i, t, b"", "", "a koi", "", 0, "") for i, t in [("a", Tier.LOVE), ("b", Tier.OKAY)]], "koi")
    with pytest.raises(ConfigError, match="^the pool koi has one love painting; held out, it would leave"):
        held_out_rewards(pool, load_settings())
