"""`watercolour eval`: the summary computed by hand, replies stepped through the real server, and a
real policy (the embedded SmolLM2 with the demo adapter) sampled and scored."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.conftest import EXAMPLES, REPO, WATERCOLOUR
from watercolour_env import WatercolourAction, WatercolourEnv
from watercolour_trainer.evaluate import Episode, summarise
from watercolour_trainer.record.variety import distinct_paintings


def test_the_summary_of_four_episodes_by_hand():
    episodes = [
        Episode("a", 0, "", status="scored", reward=0.9, components={"embedded": 0.95, "length": 0.2}),
        Episode("a", 1, "", status="scored", reward=0.4, components={"embedded": 0.45, "length": 0.1}),
        Episode("b", 0, "", status="rejected", reward=0.2, components={"embedded": None, "length": None}),
        Episode("b", 1, "", status="infra_error", reward=None, components={"embedded": None, "length": 0.3}),
    ]
    summary = summarise(episodes)
    assert (summary["episodes"], summary["scored"], summary["rejected"], summary["unscored"]) == (4, 2, 1, 1)
    assert summary["gate_pass_rate"] == pytest.approx(2 / 3)
    # rewards 0.2, 0.4, 0.9: deciles by linear interpolation at (n - 1) * k / 10
    assert summary["reward"] == pytest.approx(
        {"mean": 0.5, "median": 0.4, "p10": 0.24, "p90": 0.8, "min": 0.2, "max": 0.9}
    )
    # over the episodes with a verdict, as the reward: the unscored episode's length 0.3 is left out
    assert summary["components"] == pytest.approx({"embedded": 0.7, "length": (0.2 + 0.1) / 2})


def test_distinct_paintings_counts_chains_of_near_duplicates_once():
    a = [f"brush.line({i}, 0, {i}, 9);" for i in range(10)]
    b = a[:9] + ["brush.circle(5, 5, 5);"]  # one line of ten changed: 9 shared of 11, Jaccard 0.818
    c = b[:8] + ["brush.rect(1, 1, 2, 2);", b[9]]  # one more: b~c 0.818, a~c 8 of 12 = 0.667, joined through b
    d = [f"brush.set('HB', '#00{i}', 1);" for i in range(10)]
    four = ["\n".join(lines) for lines in (a, b, c, d)]
    assert distinct_paintings(four) == 2
    assert distinct_paintings([four[0], four[2], four[3]]) == 3  # without b, a and c are apart (0.667 < 0.8)
    assert distinct_paintings([four[0], "  " + four[0].replace("\n", "\n\n  ")]) == 1  # blank lines and indents
    assert distinct_paintings([]) == 0


def direct(url: str, subject: str, seed: int, reply: str) -> float | None:
    with WatercolourEnv(base_url=url, message_timeout_s=60).sync() as env:
        env.reset(seed=seed, subject=subject)
        return env.step(WatercolourAction(reply=reply)).reward


@pytest.mark.server
@pytest.mark.browser
def test_replies_are_stepped_and_summarised_and_can_be_sent_again(server_url, tmp_path):
    rows = [
        {"subject": "a peach hibiscus", "seed": 3, "reply": (EXAMPLES / "hibiscus.js").read_text()},
        {"subject": "a blue hibiscus", "seed": 4, "reply": (EXAMPLES / "rich.js").read_text()},
        {"subject": "a blue hibiscus", "seed": 5, "reply": "I would rather describe it in words."},
    ]
    replies = tmp_path / "replies.jsonl"
    replies.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out, sheets = tmp_path / "eval.json", tmp_path / "sheets"
    done = subprocess.run(
        [
            WATERCOLOUR,
            "eval",
            "--env-url",
            server_url,
            "--replies",
            str(replies),
            "--out",
            str(out),
            "--sheets",
            str(sheets),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    expected = [direct(server_url, r["subject"], r["seed"], r["reply"]) for r in rows]
    assert [e["reward"] for e in report["episodes"]] == expected
    assert [e["status"] for e in report["episodes"]] == ["scored", "scored", "rejected"]
    assert report["summary"]["gate_pass_rate"] == pytest.approx(2 / 3)
    assert report["summary"]["reward"]["mean"] == pytest.approx(sum(expected) / 3)
    assert "3 episodes, 2 scored, 1 rejected by the gate, 0 unscored; gate pass rate 67%" in done.stdout
    by_subject = report["summary"]["by_subject"]
    assert [by_subject[s]["gate_pass_rate"] for s in ("a peach hibiscus", "a blue hibiscus")] == [1.0, 0.5]
    # one sheet a subject, of the paintings the server sent back: the words painted nothing
    drawn = report["summary"]["sheets"]
    assert {s: (d["painted"], d["distinct"]) for s, d in drawn.items()} == {
        "a peach hibiscus": (1, 1),
        "a blue hibiscus": (1, 1),
    }
    assert sorted(p.name for p in sheets.iterdir()) == ["a-blue-hibiscus.png", "a-peach-hibiscus.png"]
    # the same replies again, from the eval's own JSON: the way to compare two pools
    again = subprocess.run(
        [WATERCOLOUR, "eval", "--env-url", server_url, "--replies", str(out), "--out", str(tmp_path / "again.json")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0, again.stderr
    assert [e["reward"] for e in json.loads((tmp_path / "again.json").read_text())["episodes"]] == expected


@pytest.mark.server
@pytest.mark.browser
@pytest.mark.slow
def test_a_policy_with_its_adapter_is_sampled_per_seed_and_scored(server_url, tmp_path):
    out = tmp_path / "eval.json"
    adapter = REPO / "trainer" / "adapters" / "smollm2_135m_demo"
    done = subprocess.run(
        [
            WATERCOLOUR,
            "eval",
            "--env-url",
            server_url,
            "--adapter",
            str(adapter),
            "--seeds",
            "2",
            "--first-seed",
            "900",
            "--max-new-tokens",
            "24",
            "--temperature",
            "3.0",  # the adapter writes the boilerplate near-certainly: hot enough that two seeds part early
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    assert [(e["subject"], e["seed"]) for e in report["episodes"]] == [
        ("a peach hibiscus", 900),
        ("a peach hibiscus", 901),
    ]
    assert all(e["reply"] and e["status"] in ("scored", "rejected") for e in report["episodes"])
    assert report["episodes"][0]["reply"] != report["episodes"][1]["reply"]  # two seeds, two samples
    assert report["adapter"] == str(adapter) and report["summary"]["episodes"] == 2


@pytest.mark.train
def test_a_server_that_is_not_there_and_a_bad_replies_file_are_one_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"subject": "x"}\n')
    refused = subprocess.run([WATERCOLOUR, "eval", "--replies", str(bad)], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and refused.stderr.startswith(f"error: --replies {bad}: not an eval's JSON")
    good = tmp_path / "good.jsonl"
    good.write_text('{"subject": "x", "seed": 0, "reply": "y"}\n')
    nobody = subprocess.run(
        [WATERCOLOUR, "eval", "--replies", str(good), "--env-url", "http://127.0.0.1:9"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert nobody.returncode == 2 and nobody.stderr.startswith("error: no environment server answered")
    assert len(nobody.stderr.strip().splitlines()) == 1
