"""The chat template of a policy that paints with a tool (trainer/episodes/revisions.py `give_tools`)."""

import pytest

from watercolour_env.errors import ConfigError

pytestmark = pytest.mark.train

PLAIN = "{% for message in messages %}{{ message['content'] }}{% endfor %}"


@pytest.fixture(scope="module")
def tokenizer():
    from transformers import AutoTokenizer

    from watercolour_trainer.training.policy import embedded_gguf

    gguf = embedded_gguf()
    return AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)


def test_smollm2s_chatml_is_swapped_for_trls_qwen2_5_template_with_tools(tokenizer):
    from trl.chat_template_utils import qwen2_5_chat_template

    tokenizer.chat_template = "<|im_start|>" + PLAIN  # ChatML that cannot call tools
    assert give(tokenizer).startswith("the policy's ChatML template cannot call tools: using TRL's Qwen2.5")
    assert tokenizer.chat_template == qwen2_5_chat_template


def test_a_template_file_that_calls_tools_is_used_as_it_is(tokenizer, tmp_path):
    from trl.chat_template_utils import qwen2_5_chat_template

    path = tmp_path / "tools.jinja"
    path.write_text(qwen2_5_chat_template + "{# ours #}")
    tokenizer.chat_template = PLAIN
    assert give(tokenizer, str(path)) == f"the chat template of {path} calls tools"
    assert tokenizer.chat_template.endswith("{# ours #}")


def test_a_template_that_cannot_call_tools_is_refused_naming_the_flag_or_the_file(tokenizer, tmp_path):
    tokenizer.chat_template = PLAIN
    with pytest.raises(ConfigError, match="give a Jinja file of one with --chat_template_path FILE"):
        give(tokenizer)
    path = tmp_path / "plain.jinja"
    path.write_text(PLAIN)
    with pytest.raises(ConfigError, match=f"--chat_template_path {path}: this template cannot call tools"):
        give(tokenizer, str(path))
    with pytest.raises(ConfigError, match="not a readable Jinja file"):
        give(tokenizer, str(tmp_path))  # a folder


def give(tokenizer, path=None) -> str:
    from watercolour_trainer.episodes.revisions import give_tools

    return give_tools(tokenizer, path)
