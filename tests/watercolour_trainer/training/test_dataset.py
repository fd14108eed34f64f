"""A run's prompts: every subject it names, in turn, each with its own line, from the real server."""

import pytest

from watercolour_trainer.training.arguments import WatercolourArguments
from watercolour_trainer.training.dataset import build_dataset, split_subjects

pytestmark = pytest.mark.train


def test_subjects_split_on_semicolons_and_none_means_the_servers():
    assert split_subjects(" a hibiscus ;a jellyfish; ") == ["a hibiscus", "a jellyfish"]
    assert split_subjects(None) == split_subjects(" ; ") == [None]


@pytest.mark.server
@pytest.mark.browser
def test_rows_ask_for_each_subject_in_turn_with_its_own_line(server_url):
    args = WatercolourArguments(
        env_url=server_url, subject="a hibiscus; a jellyfish; a songbird on a branch", n_prompts=4, base_seed=10
    )
    rows = build_dataset(args, tokenizer=None).to_list()
    assert [r["subject"] for r in rows] == ["a hibiscus", "a jellyfish", "a songbird on a branch", "a hibiscus"]
    assert [r["seed"] for r in rows] == [10, 11, 12, 13]
    users = [r["prompt"][1]["content"] for r in rows]
    assert "petal" in users[0] and "bell" in users[1] and "branch" in users[2] and users[3] == users[0]
    assert len({r["prompt"][0]["content"] for r in rows}) == 1  # one system prompt, naming no subject
    assert "petal" not in rows[0]["prompt"][0]["content"]
