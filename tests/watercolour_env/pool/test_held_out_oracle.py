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


def test_the_starter_holds_songbird_33_out_of_its_references_and_keeps_its_taste():
    rows = rows_of(STARTER_POOL)
    pool = Pool.load(str(STARTER_POOL))
    assert pool.declaration.oracle == "songbird-33" and pool.oracle.id == "songbird-33"
    assert pool.oracle.tier is Tier.LOVE and pool.oracle.seed == 0
    assert "songbird-33" not in {r.id for r in pool.references}
    assert [r.id for r in pool.rated] == [row["id"] for row in rows]  # every rated painting, in pool order
    by_hand = {tier: sum(row["tier"] == tier for row in rows if row["id"] != "songbird-33") for tier in Tier}
    assert pool.counts() == {tier.value: n for tier, n in by_hand.items()} == {"love": 39, "okay": 53, "nope": 73}


def passed(reference):
    """A gate result that passed every check but the copy guard, with the painting's stored picture."""
    from watercolour_env.server.gate import GateResult
    from watercolour_env.server.sandbox import RenderResult, RenderStatus
    from watercolour_env.sketch import inspect_sketch

    render = RenderResult(RenderStatus.OK, reference.png, 0.5, finished=True)
    return GateResult(True, [], reference.sketch, inspect_sketch(reference.sketch), render)


def test_the_servers_copy_guard_holds_the_oracle_and_lets_only_it_through_when_asked():
    from types import SimpleNamespace

    from watercolour_env.server.app import guarded_pool
    from watercolour_env.server.gate import check_copy

    pool = Pool.load(str(STARTER_POOL))
    assert CopyGuard(pool).match(pool.oracle.sketch, pool.oracle.png) is None  # not a reference
    guard = CopyGuard(guarded_pool(pool, SimpleNamespace(terms={})))  # no gold pool
    assert [v.value for v in check_copy(passed(pool.oracle), guard).violations] == ["copied_reference"]
    assert check_copy(passed(pool.oracle), guard, allowed="songbird-33").passed
    other = next(r for r in pool.references if r.id == "songbird-06")
    gated = check_copy(passed(other), guard, allowed="songbird-33")  # the episode may copy the oracle only
    assert not gated.passed and gated.copied.reference == "songbird-06"
    # the oracle's code and another painting's in one reply: named for the other, not let through
    both = guard.match(pool.oracle.sketch + "\n" + other.sketch, pool.oracle.png, ignore="songbird-33")
    assert both is not None and both.reference != "songbird-33"  # a template songbird, share 1.00


@pytest.mark.server
@pytest.mark.browser
def test_an_episode_pays_the_oracle_only_when_reset_for_it():
    from tests.conftest import serving
    from watercolour_env import EpisodeStatus, WatercolourAction, WatercolourEnv
    from watercolour_env.errors import InvalidOption
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    pool = Pool.load(str(STARTER_POOL))
    reply = WatercolourAction(reply=f"```js\n{pool.oracle.sketch}\n```")
    app = build_app(load_settings(render_workers=1, render_deadline_s=60))
    try:
        with serving(app) as url, WatercolourEnv(base_url=url, token="").sync() as env:
            env.reset(seed=0, subject="a songbird on a branch")
            copied = env.step(reply).observation
            env.reset(seed=0, subject="a songbird on a branch", oracle=True)
            paid = env.step(reply).observation
            with pytest.raises(InvalidOption, match="oracle must be true or false"):
                env.reset(seed=0, oracle="yes")
    finally:
        app.state.renderer.close()
    assert (copied.status, copied.reward, copied.violations) == (EpisodeStatus.REJECTED, 0.0, ["copied_reference"])
    assert paid.status is EpisodeStatus.SCORED and paid.reward >= 0.9, paid.detail  # 0.921 (docs/LOG.md)


@pytest.mark.parametrize(
    ("oracle", "says"),
    [
        ("bloom-99", "declares the oracle 'bloom-99' (pool.toml), which is no rated painting of it"),
        ("simple-01", "declares the oracle 'simple-01' (pool.toml), rated okay: the oracle must be a love painting"),
    ],
)
def test_an_oracle_that_is_no_love_painting_refuses_the_pool(tmp_path, oracle, says):
    shutil.copytree(STARTER_POOL, tmp_path / "pool")
    text = (tmp_path / "pool" / "pool.toml").read_text().replace('"songbird-33"', f'"{oracle}"')
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
    assert pulled.oracle.id == "songbird-33" and len(pulled.rated) == len(rows_of(STARTER_POOL))
    write_folder(pulled, tmp_path / "pulled")
    assert "songbird-33" in {row["id"] for row in rows_of(tmp_path / "pulled")}
    assert Pool.load(str(tmp_path / "pulled")).oracle.sketch == Pool.load(str(STARTER_POOL)).oracle.sketch


def test_get_pool_reports_the_oracle_and_not_among_the_references(tmp_path):
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    with TestClient(build_app(load_settings(), renderer=object())) as client:
        report = client.get("/pool").json()
    sketch = (STARTER_POOL / "sketches" / "songbird-33.js").read_text()
    assert report["oracle"] == {"id": "songbird-33", "subject": "a songbird on a branch", "seed": 0, "sketch": sketch}
    assert "songbird-33" not in {r["id"] for r in report["references"]}


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


def small_pool(folder, ids, declaration=""):
    """A few of the starter's rows (images and sketches copied), with `declaration` as pool.toml."""
    shutil.copytree(STARTER_POOL, folder)
    rows = [row for row in rows_of(folder) if row["id"] in ids]
    (folder / "pool.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    (folder / "pool.toml").write_text(declaration)
    return folder


SMALL = ("bloom-01", "bloom-02", "hibiscus-12", "simple-01", "weak-muddy")


def test_the_servers_guard_holds_the_gold_pool_so_the_choice_does_too(tmp_path):
    from watercolour_env.curate.oracle import held_out_rewards
    from watercolour_env.server.settings import load_settings

    pool = Pool.load(str(small_pool(tmp_path / "pool", SMALL, 'subject = "a peach hibiscus"\n')))
    gold = small_pool(tmp_path / "gold", SMALL)  # a gold pool that holds the would-be oracle
    alone = {h.id: h for h in held_out_rewards(pool, load_settings(pool=str(tmp_path / "pool")))}
    assert alone["hibiscus-12"].copy_of is None and alone["bloom-01"].copy_of.startswith("copied_reference: bloom-02")
    with_gold = {h.id: h for h in held_out_rewards(pool, load_settings(gold_pool=str(gold)))}
    assert with_gold["hibiscus-12"].copy_of == "copied_reference: hibiscus-12 (source 1.00)"


def test_a_stale_or_broken_oracle_line_is_replaced_not_a_dead_end(tmp_path):
    folder = small_pool(tmp_path / "pool", SMALL, 'subject = "a peach hibiscus"\noracle = "nosuch"\n')
    with pytest.raises(ConfigError, match="declares the oracle 'nosuch'"):
        Pool.load(str(folder))
    assert {r.id for r in Pool.from_folder(folder, hold_out=False).references} == set(SMALL)
    declare_oracle(folder, "hibiscus-12")
    assert (folder / "pool.toml").read_text() == 'subject = "a peach hibiscus"\noracle = "hibiscus-12"\n'


def test_an_oracle_that_takes_the_only_love_painting_says_so(tmp_path):
    ids = ("hibiscus-12", "simple-01", "weak-muddy")
    folder = small_pool(tmp_path / "pool", ids, 'oracle = "hibiscus-12"\n')
    with pytest.raises(ConfigError, match="has one love painting, hibiscus-12, and pool.toml holds it out as the"):
        Pool.load(str(folder))


def test_a_datasets_duplicate_ids_and_an_oracle_seed_out_of_range_are_refused(tmp_path):
    from watercolour_env.pool.loader import Reference

    def painting(id, tier, seed=0):
        return Reference(id, tier, b"", "", "a koi", "", seed, "")

    png = (STARTER_POOL / "images" / "bloom-01.png").read_bytes()
    rows = [{"id": i, "tier": t, "image": png, "sketch": ""} for i, t in [("a", "love"), ("b", "okay"), ("a", "love")]]
    with pytest.raises(ConfigError, match="^the pool koi has two paintings with the id 'a'$"):
        Pool.from_rows(rows, "koi")
    seeded = [painting("a", Tier.LOVE), painting("c", Tier.LOVE, seed=-1), painting("b", Tier.OKAY)]
    with pytest.raises(ConfigError, match="its oracle 'c' has the seed -1, outside"):
        Pool(seeded, "koi", declaration=PoolDeclaration(oracle="c"))


def test_a_push_of_a_pool_that_no_longer_declares_removes_the_old_declaration(tmp_path):
    folder = shutil.copytree(STARTER_POOL, tmp_path / "pool")
    (folder / "subjects.txt").write_text("a hibiscus bush\n")
    push(folder, "someone/hibiscus", dry_run=tmp_path / "upload")
    assert (tmp_path / "upload" / "pool.toml").exists() and (tmp_path / "upload" / "subjects.txt").exists()
    (folder / "pool.toml").unlink()
    (folder / "subjects.txt").unlink()
    push(folder, "someone/hibiscus", dry_run=tmp_path / "upload")
    assert not (tmp_path / "upload" / "pool.toml").exists() and not (tmp_path / "upload" / "subjects.txt").exists()
    assert Pool.from_hub(str(tmp_path / "upload")).oracle is None


def test_the_oracle_command_refuses_a_token_a_header_cannot_carry_and_a_server_not_ours(tmp_path):
    from fastapi import FastAPI

    from tests.conftest import serving
    from watercolour_env.audit.oracle import run_oracle
    from watercolour_env.client import base_url_of

    with pytest.raises(ConfigError, match="holds a space, a newline or another character a header cannot carry"):
        run_oracle("http://127.0.0.1:9", token="sekrit-token\n")  # refused before any request: nothing listens
    other = FastAPI()
    other.get("/pool")(lambda: [1, 2])
    with serving(other) as url, pytest.raises(ConfigError, match=f"^what answered at {url}/pool is not a watercolour"):
        run_oracle(url + "/ws", token="")
    assert base_url_of("http://h:1/ws/") == base_url_of("http://h:1/") == "http://h:1"


def test_the_contact_sheets_and_the_card_count_the_oracle_apart(tmp_path):
    from watercolour_env.curate.hub import dataset_card
    from watercolour_env.curate.render import contact_sheets

    folder = small_pool(tmp_path / "pool", SMALL, 'oracle = "hibiscus-12"\n')
    assert contact_sheets(folder)["counts"] == {"love": 2, "okay": 1, "nope": 1, "unrated": 0, "oracle": 1}
    assert (folder / "sheets" / "oracle.png").is_file()
    card = dataset_card(Pool.load(str(folder)), None)
    assert "(2 love, 1 okay, 1 nope, and hibiscus-12, a love painting held out as the deployment's oracle" in card


@pytest.mark.cli
def test_the_oracle_command_takes_its_url_as_episode_and_audit_do():
    import subprocess

    from tests.conftest import WATERCOLOUR

    for url in (["http://127.0.0.1:9"], ["--env-url", "http://127.0.0.1:9"]):  # nothing listens on port 9
        done = subprocess.run([WATERCOLOUR, "oracle", *url], capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and "cannot reach http://127.0.0.1:9" in done.stderr, done.stderr
