"""The retrospective: a run's paintings rendered again and scored by today's scorer, by window."""

import gzip
import json
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import REPO, bench_module, example

rescore_run = bench_module("rescore_run")


def test_percentiles_share_ties_and_run_from_worst_to_best():
    # ranks 0..3 of [3, 1, 2, 2]: 1 -> 0, the two 2s share (1 + 2) / 2 = 1.5, 3 -> 3; over 3
    assert rescore_run.percentiles(np.array([3.0, 1.0, 2.0, 2.0])).tolist() == [1.0, 0.0, 0.5, 0.5]


def test_rank_correlation_is_one_for_the_same_order_and_minus_one_reversed():
    a = np.array([0.1, 0.5, 0.3, 0.9])
    assert rescore_run.spearman(a, a * 10 + 3) == pytest.approx(1.0)
    assert rescore_run.spearman(a, -a) == pytest.approx(-1.0)


def rollout(step: int, sketch: str, seed: int, proxy: float, gold: float | None) -> dict:
    components = [{"name": "embedded", "value": proxy}, {"name": "gold", "value": gold}]
    return {"step": step, "subject": "a peach hibiscus", "seed": seed, "sketch": sketch, "components": components}


@pytest.mark.browser
@pytest.mark.cli
def test_a_run_is_rescored_by_window_and_a_second_call_renders_nothing(tmp_path):
    hibiscus, trivial = example("hibiscus.js"), example("trivial.js")
    rows = [
        rollout(1, hibiscus, 0, 0.80, 0.85),
        rollout(2, hibiscus, 0, 0.81, 0.84),  # the same sketch and seed: rendered once
        rollout(12, trivial, 3, 0.90, 0.70),  # gold 0.2 under the proxy: marked down
        rollout(13, trivial, 3, 0.95, None),  # no gold: left out
    ]
    run = tmp_path / "run"
    run.mkdir()
    with gzip.open(run / "rollouts.jsonl.gz", "wt") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    cache = tmp_path / "cache.jsonl"
    command = [sys.executable, str(REPO / "bench" / "rescore_run.py"), "--run", str(run), "--cache", str(cache)]
    first = subprocess.run([*command, "--workers", "1"], capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "4 rollouts, 3 with proxy and gold" in first.stdout
    assert "0 scores cached, 2 to render" in first.stdout
    lines = first.stdout.splitlines()
    window_1 = next(line for line in lines if line.startswith("  1-10"))
    window_2 = next(line for line in lines if line.startswith(" 11-20"))
    # steps 1-10: two rollouts, proxy mean 0.805, gold mean 0.845, none marked down
    assert window_1.split()[1:4] == ["2", "0.805", "0.845"] and window_1.split()[6] == "0"
    # steps 11-20: one rollout, marked down; it is the run's best under the proxy and worst under the gold
    assert window_2.split()[1:4] == ["1", "0.900", "0.700"] and window_2.split()[6:9] == ["1", "1.00", "0.00"]
    assert len(cache.read_text().splitlines()) == 2
    second = subprocess.run([*command, "--workers", "1"], capture_output=True, text=True, timeout=300)
    assert second.returncode == 0 and "2 scores cached, 0 to render" in second.stdout, second.stdout + second.stderr
