"""Training with revisions (issue 37): the policy paints with a tool, reads the critique, paints again.

`watercolour train --revisions K` trains on TRL's own multi-turn path: `GRPOTrainer(
environment_factory=...)` with `PaintingEpisode` (one tool, `paint`), a chat template that can
call tools, and `RevisionReward` as the reward function. TRL masks the critiques out of the loss
(its `tool_mask`), so the loss covers every painting the policy wrote and nothing it read; the
whole exchange fits in `max_completion_length` tokens.

A rollout ends when the policy stops calling `paint`. `RevisionReward` then finishes an episode
that is still open with the completion's last message (`PaintingEpisode._finish`) and pays
the episode's reward: the last painting's, or the best's (`--revision_reward best`).

TRL calls the tool of one rollout after another (`GRPOTrainer._tool_call_loop`, 1.16), so the
renders of a turn run one at a time, not spread over the server's workers as single paintings
are; the step line's environment time shows what that costs.
"""

from __future__ import annotations

import itertools
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from watercolour_env import WatercolourObservation
from watercolour_env.errors import ConfigError
from watercolour_trainer.painter import PaintingEpisode
from watercolour_trainer.rewards import EnvironmentReward, completion_text, log_to_trl

log = logging.getLogger(__name__)

CHATML_START = "<|im_start|>"


def give_tools(tokenizer: Any) -> str:  # noqa: ANN401
    """Makes the policy's chat template able to call tools; returns what it did, for the log.

    A template that already renders a tool call and its answer is kept (Qwen3's). A ChatML
    template that cannot (SmolLM2's: `<|im_start|>role ... <|im_end|>`) is replaced by TRL's
    Qwen2.5 template, the same ChatML with tools: the tool schema in the system message,
    calls as `<tool_call>{json}</tool_call>`, answers as the `tool` role; TRL parses those.

    Raises:
        ConfigError: a template that is neither, naming `--chat_template_path`.
    """
    from trl.chat_template_utils import qwen2_5_chat_template, supports_tool_calling

    if supports_tool_calling(tokenizer):
        return "the policy's chat template calls tools"
    if CHATML_START in (tokenizer.chat_template or ""):
        tokenizer.chat_template = qwen2_5_chat_template
        return "the policy's ChatML template cannot call tools: using TRL's Qwen2.5 ChatML template with tools"
    raise ConfigError(
        "--revisions needs a chat template that can call tools, and this policy's cannot: "
        "give one with --chat_template_path (TRL's GRPOConfig)"
    )


class RevisionReward(EnvironmentReward):
    """The reward of an episode with revisions, and its factory of `PaintingEpisode`s for TRL.

    Args (besides `EnvironmentReward`'s):
        revisions: paintings after the first, K in [0, the server's WATERCOLOUR_MAX_REVISIONS].
        revision_reward: "last" or "best": which painting's reward the episode pays.

    Call it as TRL does, with the batch's `completions` (message lists) and `environments`
    (the `PaintingEpisode` of each). It returns one reward in [0, 1] or None per completion:
    None only when the environment failed at some turn; a policy that painted nothing gets
    the gate's verdict on its last words (0.0), like any reply without a sketch.
    """

    __name__ = "environment"

    def __init__(self, *args: Any, revisions: int, revision_reward: str = "last", **kwargs: Any) -> None:  # noqa: ANN401
        super().__init__(*args, **kwargs)
        self.revisions, self.revision_reward = revisions, revision_reward
        self._urls = itertools.cycle(self.replicas.urls)

    def _reset_options(self, seed: int, subject: str | None, return_image: bool) -> dict[str, Any]:
        """The single painting's options plus the revisions (so `check_configuration` tries them)."""
        options = super()._reset_options(seed, subject, return_image)
        return {**options, "revisions": self.revisions, "revision_reward": self.revision_reward}

    def episode(self) -> PaintingEpisode:
        """A new episode bound to the next replica (TRL calls this as its `environment_factory`)."""
        kept = ("weights", "references", "revision_reward")  # seed and subject come from the dataset's row
        options = {k: v for k, v in self._reset_options(0, None, False).items() if k in kept}
        return PaintingEpisode(
            next(self._urls), self.revisions, timeout_s=self.timeout_s, options=options, spent=self._spend
        )

    def _spend(self, seconds: float) -> None:
        self.seconds += seconds  # the step line's environment time (tools and finishing alike)

    def __call__(
        self, prompts: list[Any], completions: list[Any], environments: list[PaintingEpisode], **kwargs: Any
    ) -> list[float | None]:
        """Finishes each open episode (in parallel), logs every rollout with its turns, returns the rewards."""
        n = len(completions)
        last_words = [_last_words(completion) for completion in completions]
        with ThreadPoolExecutor(max_workers=max(1, min(n, self.max_parallel))) as pool:
            results = list(pool.map(_finish, environments, last_words))
        state = kwargs.get("trainer_state")
        step = (state.global_step + 1) if state is not None else 0
        seeds = kwargs.get("seed") or [0] * n
        subjects = kwargs.get("subject") or [None] * n
        first = self.process_index * n
        for i, ((observation, error), episode) in enumerate(zip(results, environments, strict=True)):
            if self.log is None:
                break
            reply = episode.turns[-1].reply if episode.turns else last_words[i]
            rollout, png = self._rollout(step, first + i, reply, seeds[i], subjects[i], observation, error)
            rollout.completion = completion_text(completions[i])
            rollout.turns = [turn.record for turn in episode.turns]
            self.log.add(rollout, png)
        if self.log is not None:
            self.log.flush()
        self._report_unscored(step, results)
        if "log_extra" in kwargs and "log_metric" in kwargs:
            log_to_trl(results, kwargs["log_extra"], kwargs["log_metric"])
            kwargs["log_metric"]("env/paintings", sum(len(e.turns) for e in environments) / max(n, 1))
        return [observation.reward if observation is not None else None for observation, _ in results]


def _last_words(completion: Any) -> str:  # noqa: ANN401
    """The text of a completion's last assistant message (TRL: a list of messages), or the text itself."""
    if isinstance(completion, str):
        return completion
    said = [m for m in completion if isinstance(m, dict) and m.get("role") == "assistant"]
    return str(said[-1].get("content") or "") if said else ""


def _finish(episode: PaintingEpisode, last_words: str) -> tuple[WatercolourObservation | None, str]:
    """(the judged observation, "") or (None, why) when the environment failed."""
    try:
        return episode._finish(last_words), ""
    except Exception as err:  # noqa: BLE001 (a failure to finish an episode is the infrastructure's)
        log.warning("episode not scored: %s: %s", type(err).__name__, err)
        return None, f"{type(err).__name__}: {err}"
