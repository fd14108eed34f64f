"""`watercolour pool add`: a run's scored paintings become unrated rows of a pool, once."""

import json
import subprocess

import pytest

from tests.conftest import WATERCOLOUR, png_of
from watercolour_env.pool import read_manifest


def write_run(folder):
    rollouts = folder / "rollouts"
    (rollouts / "paintings").mkdir(parents=True)
    (rollouts / "paintings" / "a.png").write_bytes(png_of("stripes"))
    (rollouts / "paintings" / "b.png").write_bytes(png_of("grey"))
    rows = [
        {
            "step": 3,
            "group": 1,
            "position": 2,
            "subject": "a white hibiscus",
            "seed": 7,
            "sketch": "// good",
            "reward": 0.8,
            "status": "scored",
            "image": "paintings/a.png",
        },
        {
            "step": 3,
            "group": 1,
            "position": 3,
            "subject": "a white hibiscus",
            "seed": 7,
            "sketch": "// weak",
            "reward": 0.2,
            "status": "scored",
            "image": "paintings/b.png",
        },
        {"step": 4, "group": 0, "position": 0, "seed": 8, "sketch": None, "reward": 0.0, "status": "rejected"},
        {"step": 4, "group": 0, "position": 1, "seed": 8, "sketch": "// ?", "reward": None, "status": "infra_error"},
        {
            "step": 4,
            "group": 0,
            "position": 2,
            "seed": 8,
            "sketch": "// lost",
            "reward": 0.9,
            "status": "scored",
            "image": None,
        },
    ]
    (rollouts / "rollouts.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return rollouts


@pytest.mark.cli
def test_scored_paintings_above_the_floor_join_the_pool_unrated_with_their_provenance(tmp_path):
    rollouts = write_run(tmp_path / "my-run")
    pool = tmp_path / "mypool"
    command = [WATERCOLOUR, "pool", "add", str(tmp_path / "my-run"), "--into", str(pool), "--min-reward", "0.5"]
    first = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("added 1 unrated paintings")
    for reason in (
        "1 no painting or sketch",
        "1 not scored (infra_error)",
        "1 not scored (rejected)",
        "1 reward under 0.5",
    ):
        assert reason in first.stdout
    (row,) = read_manifest(pool)
    assert row.id == "my-run-s0003-g01-p02" and row.tier is None
    assert (row.subject, row.seed, row.author) == ("a white hibiscus", 7, "rollout of my-run")
    assert json.loads(row.notes) == {
        "run": str(rollouts.resolve()),
        "step": 3,
        "group": 1,
        "position": 2,
        "reward": 0.8,
    }
    assert (pool / row.image).read_bytes() == png_of("stripes")
    assert (pool / row.sketch).read_text() == "// good"
    again = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert again.stdout.startswith("added 0 unrated paintings") and "already there 1" in again.stdout
    assert len(read_manifest(pool)) == 1


@pytest.mark.cli
def test_a_folder_without_a_run_is_one_line_and_exit_2(tmp_path):
    run = subprocess.run(
        [WATERCOLOUR, "pool", "add", str(tmp_path), "--into", str(tmp_path / "p")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "no rollouts.jsonl" in run.stderr and "Traceback" not in run.stderr
