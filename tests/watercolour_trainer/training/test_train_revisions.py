"""`watercolour train --revisions 1`: one real GRPO step on TRL's tool path, against the real server.

The policy is a tiny random Llama with SmolLM2's tokenizer, first taught (about a hundred plain
optimiser steps here) one exchange by heart: paint a short wash circle, read the critique, paint
it again, say "Done.". So the step's rollouts go through TRL's parsing of `<tool_call>`, the
`paint` tool, the critique fed back and the second painting, as a warm-started policy's would.
"""

import json
import logging

import pytest

from tests.watercolour_trainer.training.test_train import small_run
from watercolour_trainer.training.train import main

pytestmark = [pytest.mark.slow, pytest.mark.server, pytest.mark.browser, pytest.mark.train]


def tool_step(server_url: str, tool_policy, output_dir, *extra: str) -> list[dict]:
    """One GRPO step of the tool policy with 1 revision (and `extra`); its rollouts' rows."""
    main(
        small_run(
            server_url,
            output_dir,
            *("--model", str(tool_policy), "--max_completion_length", "700", "--temperature", "0.05"),
            *("--revisions", "1", *extra),
        )
    )
    return [json.loads(line) for line in (output_dir / "rollouts" / "rollouts.jsonl").read_text().splitlines()]


def test_one_grpo_step_with_revisions_paints_through_the_tool_and_logs_each_turn(
    server_url, tool_policy, tmp_path, caplog, capfd
):
    caplog.set_level(logging.DEBUG, logger="watercolour_trainer.episodes.tool_turns")
    rows = tool_step(server_url, tool_policy, tmp_path)
    assert len(rows) == 2 and len({r["seed"] for r in rows}) == 1
    # the first painting of both rollouts went to the server at once, not one after the other
    # --max_parallel (16 by default) bounds them, as it bounds the reward's own calls
    assert "a turn: 2 calls of 2 rollouts at once (at most 16)" in capfd.readouterr().err  # main() logs to stderr
    for row in rows:
        assert [t["status"] for t in row["turns"]] == ["revise", "scored"]  # both painted by the tool
        assert row["turns"][0]["critique"] and row["status"] == "scored" and row["reward"] > 0
        assert row["completion"].count("[paint]") == 2 and row["completion"].count("[critique]") == 2
    paintings = sorted(p.name for p in (tmp_path / "rollouts" / "paintings").iterdir())
    assert paintings == [
        "step0001-g00-p00-t1.png",
        "step0001-g00-p00.png",
        "step0001-g00-p01-t1.png",
        "step0001-g00-p01.png",
    ]
    page = (tmp_path / "rollouts" / "gallery.html").read_text()
    assert page.count('class="turn"') == 4 and 'src="paintings/step0001-g00-p00-t1.png"' in page


def test_max_turn_tokens_cuts_a_turn_that_the_completion_budget_would_let_run(server_url, tool_policy, tmp_path):
    """TRL gives every turn's generate max_completion_length new tokens (issue 37's GRPO steps of
    about 300 s, docs/LOG.md); `--max_turn_tokens` lowers that. 12 tokens cannot hold the taught
    `<tool_call>` (a whole sketch), so the first turn is cut before its call: no painting."""
    rows = tool_step(server_url, tool_policy, tmp_path, "--max_turn_tokens", "12")
    assert len(rows) == 2
    for row in rows:
        assert "[paint]" not in row["completion"] and row["completion"].startswith("<tool_call>")
        assert (row["status"], row["violations"]) == ("rejected", ["no_sketch"])


def test_a_batch_of_more_rollouts_than_the_server_holds_sessions_is_refused_before_the_model_loads(tmp_path):
    from tests.conftest import app_server
    from watercolour_env.errors import ConfigError

    with app_server(render_workers=1, max_concurrent_envs=3) as url:
        with pytest.raises(ConfigError, match="4 a generation batch, and the environment holds 3"):
            main(
                [
                    "--config",
                    "trainer/configs/demo.yaml",
                    "--env_url",
                    url,
                    "--model",
                    "no-such-model-is-loaded",
                    "--output_dir",
                    str(tmp_path),
                    "--revisions",
                    "1",
                ]
            )
