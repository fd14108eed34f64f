"""A run's record carries no PNGs: its paintings come back from the sketches, the same bytes."""

import gzip
import json
import subprocess

import pytest
from PIL import Image

from tests.conftest import WATERCOLOUR, example
from watercolour_env.errors import ConfigError
from watercolour_env.rollout import read_rollout_rows, rollouts_file


def row(step, position, reward, sketch, status="scored", seed=7):
    return {
        "step": step,
        "group": 0,
        "position": position,
        "subject": "a peach hibiscus",
        "seed": seed,
        "completion": sketch,
        "sketch": sketch,
        "reward": reward,
        "status": status,
        "image": f"paintings/step{step:04d}-g00-p{position:02d}.png",
    }


def record(folder, rows):
    """A record as docs/runs keeps it: rollouts.jsonl.gz alone."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "rollouts.jsonl.gz").write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in rows).encode()))
    return folder


def test_a_gzipped_record_is_a_runs_rollouts_and_a_damaged_one_is_named(tmp_path):
    folder = record(tmp_path / "run", [row(1, 0, 0.5, "x")])
    assert rollouts_file(folder) == folder / "rollouts.jsonl.gz"
    assert [r["reward"] for _, r in read_rollout_rows(folder / "rollouts.jsonl.gz")] == [0.5]
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "rollouts.jsonl.gz").write_bytes(b"not gzip")
    with pytest.raises(ConfigError, match="not a gzipped rollouts.jsonl"):
        read_rollout_rows(tmp_path / "bad" / "rollouts.jsonl.gz")


@pytest.mark.browser
def test_the_gallery_renders_the_missing_paintings_as_the_render_command_does(tmp_path):
    hibiscus = example("hibiscus.js")
    folder = record(tmp_path / "run", [row(1, 0, 0.9, hibiscus), row(1, 1, 0.0, "bad", status="rejected")])
    done = subprocess.run(
        [WATERCOLOUR, "gallery", str(folder), "--render"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    painted = folder / "paintings" / "step0001-g00-p00.png"
    assert sorted(p.name for p in (folder / "paintings").iterdir()) == [painted.name]  # the rejected one is not
    (tmp_path / "h.js").write_text(hibiscus)
    subprocess.run(
        [WATERCOLOUR, "render", str(tmp_path / "h.js"), "--seed", "7", "--out", str(tmp_path / "h.png")],
        check=True,
        capture_output=True,
        timeout=300,
    )
    assert painted.read_bytes() == (tmp_path / "h.png").read_bytes()  # same sketch, same seed, same machine
    page = (folder / "gallery.html").read_text()
    assert 'src="paintings/step0001-g00-p00.png"' in page and "step0001-g00-p01.png" not in page


@pytest.mark.browser
def test_an_episodes_earlier_paintings_are_rendered_again_and_shown_beside_the_last(tmp_path, chromium):
    trivial, hibiscus = example("trivial.js"), example("hibiscus.js")
    turns = [
        {
            "turn": 1,
            "sketch": None,
            "status": "revise",
            "critique": "The gate refused this reply.",
            "violations": ["no_sketch"],
        },
        {
            "turn": 2,
            "sketch": trivial,
            "status": "revise",
            "critique": "One small circle near the centre.",
            "violations": [],
        },
        {"turn": 3, "sketch": hibiscus, "status": "scored", "critique": "A bloom fills the middle.", "violations": []},
    ]
    folder = record(tmp_path / "run", [row(1, 0, 0.8, hibiscus) | {"turns": turns, "completion": "[paint] ..."}])
    done = subprocess.run(
        [WATERCOLOUR, "gallery", str(folder), "--render"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    names = sorted(p.name for p in (folder / "paintings").iterdir())
    assert names == ["step0001-g00-p00-t2.png", "step0001-g00-p00.png"]  # the refused first one has no picture
    (tmp_path / "t.js").write_text(trivial)
    subprocess.run(
        [WATERCOLOUR, "render", str(tmp_path / "t.js"), "--seed", "7", "--out", str(tmp_path / "t.png")],
        check=True,
        capture_output=True,
        timeout=300,
    )
    assert (folder / "paintings" / "step0001-g00-p00-t2.png").read_bytes() == (tmp_path / "t.png").read_bytes()
    tab = chromium.new_page()
    try:
        tab.goto((folder / "gallery.html").as_uri())
        tab.wait_for_load_state("load")
        cells = tab.eval_on_selector_all(
            ".card.episode .turn",
            "ts => ts.map(t => [t.querySelector('b').textContent, t.querySelector('p').textContent,"
            " t.querySelector('img') ? t.querySelector('img').naturalWidth : 0])",
        )
    finally:
        tab.close()
    assert cells == [
        ["painting 1", "The gate refused this reply.", 0],
        ["painting 2", "One small circle near the centre.", 600],
        ["painting 3", "A bloom fills the middle.", 600],
    ]


@pytest.mark.browser
def test_analyze_draws_the_best_median_and_worst_of_each_third(tmp_path):
    trivial, hibiscus = example("trivial.js"), example("hibiscus.js")
    rows = [
        row(step, p, reward, sketch)
        for step, p, reward, sketch in (
            (1, 0, 0.2, trivial),
            (1, 1, 0.4, hibiscus),
            (2, 0, 0.5, hibiscus),
            (3, 0, 0.9, hibiscus),
        )
    ]
    folder = record(tmp_path / "run", rows)
    done = subprocess.run(
        [WATERCOLOUR, "analyze", str(folder), "--paintings"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    # 3 columns of 240 px; 3 rows of 240 px with a 28 px caption each, and a 28 px title
    assert Image.open(folder / "analysis-paintings.png").size == (720, 3 * (240 + 28) + 28)
    # only the 9 it draws are rendered: step 1's best and median (0.4, the lower middle of two) and
    # worst (0.2), and the one painting of steps 2 and 3
    assert sorted(p.name for p in (folder / "paintings").iterdir()) == [
        "step0001-g00-p00.png",
        "step0001-g00-p01.png",
        "step0002-g00-p00.png",
        "step0003-g00-p00.png",
    ]
