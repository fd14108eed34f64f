"""The prompt a policy gets: printed by `watercolour prompt`, and documented once."""

import os
import re
import subprocess

import pytest

from tests.conftest import REPO, WATERCOLOUR

TEN = {
    "scaleBrushes",
    "noStroke",
    "fill",
    "noFill",
    "fillBleed",
    "fillTexture",
    "beginShape",
    "vertex",
    "endShape",
    "circle",
}


@pytest.mark.cli
def test_the_command_prints_the_system_prompt_then_the_subjects_user_prompt():
    done = subprocess.run([WATERCOLOUR, "prompt", "--subject", " a jellyfish "], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    system, _, user = done.stdout.rpartition("\n\n")
    assert user.strip() == (
        "Paint a jellyfish as a loose watercolour. Paint the bell two or three times, a large pale wash first, then "
        "deeper ones inside; trail the tentacles below. Reply with one ```js code block like the example."
    )
    allowed = re.search(r"Paint only with these ten p5.brush methods: (.*)\.\n", system).group(1)
    assert {name.strip().removeprefix("brush.") for name in allowed.split(",")} == TEN


@pytest.mark.cli
def test_a_subject_reset_would_refuse_is_refused_in_one_line():
    done = subprocess.run([WATERCOLOUR, "prompt", "--subject", "x" * 201], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "error: subject must be at most 200 printable characters (201 given)\n"


def test_the_docs_list_the_ten_methods_the_gate_allows():
    from watercolour_env.sketch import ALLOWED_BRUSH_METHODS

    text = (REPO / "docs" / "environment.md").read_text()
    section = text[text.index("## The prompt") : text.index("## Observation")]
    assert set(re.findall(r"`brush\.(\w+)`", section)) == TEN == set(ALLOWED_BRUSH_METHODS)


@pytest.mark.cli
def test_the_command_reads_the_pools_subject_and_hint(tmp_path):
    import shutil

    from watercolour_env.pool import STARTER_POOL

    starter = subprocess.run([WATERCOLOUR, "prompt"], capture_output=True, text=True)
    assert "- Paint each shape two or three times" in starter.stdout  # three subjects: the generic line
    assert starter.stdout.endswith(
        "\n\nPaint a peach hibiscus as a loose watercolour. Paint each petal two or three times: a large wash first, "
        "then a smaller, more opaque one inside. Reply with one ```js code block like the example.\n"
    )
    shutil.copytree(STARTER_POOL, tmp_path / "pool")
    (tmp_path / "pool" / "pool.toml").write_text('subject = "a jellyfish"\nhint = "Paint each bell twice."\n')
    jellyfish = subprocess.run(
        [WATERCOLOUR, "prompt"],
        capture_output=True,
        text=True,
        env={**os.environ, "WATERCOLOUR_POOL": str(tmp_path / "pool")},
    )
    assert "\n- Paint each bell twice.\n" in jellyfish.stdout and "petal" not in jellyfish.stdout
    assert jellyfish.stdout.endswith(
        "\n\nPaint a jellyfish as a loose watercolour. Reply with one ```js code block like the example.\n"
    )


@pytest.mark.cli
def test_the_command_asks_for_the_deployments_default_subject_as_the_server_would():
    env = {**os.environ, "WATERCOLOUR_DEFAULT_SUBJECT": "a white hibiscus"}
    done = subprocess.run([WATERCOLOUR, "prompt"], capture_output=True, text=True, env=env)
    assert done.stdout.endswith(
        "\n\nPaint a white hibiscus as a loose watercolour. Paint each petal two or three times: a large wash first, "
        "then a smaller, more opaque one inside. Reply with one ```js code block like the example.\n"
    )
