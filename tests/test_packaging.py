"""What a built wheel carries: the starter pool works outside a source checkout, and the build is quiet."""

import json
import os
import subprocess
import sys
import tomllib
import zipfile
from collections import Counter

import pytest

from tests.conftest import REPO

STARTER = REPO / "envs" / "watercolour_env" / "pool" / "starter"


AUDIT = REPO / "envs" / "watercolour_env" / "audit" / "sketches"


@pytest.mark.wheel
def test_a_wheel_carries_the_starter_pool_and_an_install_of_it_loads_the_pool_outside_the_checkout(tmp_path):
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", str(REPO), "-w", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "absent from the `packages` configuration" not in build.stdout + build.stderr
    (wheel,) = tmp_path.glob("watercolour-*.whl")
    rows = [json.loads(line) for line in (STARTER / "pool.jsonl").read_text().splitlines()]
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        archive.extractall(tmp_path / "site")
    for row in rows:
        assert f"watercolour_env/pool/starter/{row['image']}" in names
        assert f"watercolour_env/pool/starter/{row['sketch']}" in names
    # the trainer's rooms (issue 53) are packages the wheel lists one by one
    rooms = {f"watercolour_trainer/{room}/__init__.py" for room in ("training", "episodes", "record")}
    assert rooms | {"watercolour_trainer/training/train.py"} <= names
    # the image encoder's code travels, its ONNX file is made where it is installed (issue 54)
    assert "watercolour_env/server/reward/vision/export.py" in names
    assert not [n for n in names if n.endswith(".onnx")]
    audit = {f"watercolour_env/audit/sketches/{p.parent.name}/{p.name}" for p in AUDIT.glob("*/*.js")}
    assert len(audit) > 30 and audit <= names
    oracle = tomllib.loads((STARTER / "pool.toml").read_text())["oracle"]  # held out of the references
    tiers = Counter(row["tier"] for row in rows if row["tier"] and row["id"] != oracle)
    probe = (
        "import json, watercolour_env\n"
        "from watercolour_env.pool import STARTER_POOL, Pool\n"
        "pool = Pool.load(str(STARTER_POOL))\n"
        "print(json.dumps([watercolour_env.__file__, pool.counts(), pool.subject, pool.oracle.id]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    run = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=True
    )
    where, counts, subject, held_out = json.loads(run.stdout.splitlines()[-1])
    assert held_out == oracle == "songbird-33"
    assert subject == "a peach hibiscus"  # pool.toml travels: the rows say "a hibiscus"
    assert where.startswith(str(tmp_path / "site"))  # the installed copy, not the checkout
    assert counts == {"love": tiers["love"], "okay": tiers["okay"], "nope": tiers["nope"]}
