"""Training with revisions (issue 37): the policy paints with a tool, reads the critique, paints again.

`watercolour train --revisions K` trains on TRL's own multi-turn path: `GRPOTrainer(
environment_factory=...)` with `PaintingEpisode` (one tool, `paint`), a chat template that can
call tools, and `RevisionReward` as the reward function. TRL masks the critiques out of the loss
(its `tool_mask`), so the loss covers every painting the policy wrote and nothing it read; the
whole exchange fits in `max_completion_length` tokens.

A rollout ends when the policy stops calling `paint`. `RevisionReward` then finishes an episode
that is still open with the completion's last message (`PaintingEpisode._finish`) and pays
the episode's reward: the last painting's, or the best's (`--revision_reward best`).

TRL calls the tool of one rollout after another (`GRPOTrainer._tool_call_loop`, 1.16); the
trainer `train` makes (`grpo_tools.ConcurrentToolsTrainer`) runs a turn's calls of every rollout
at once, so its renders spread over the server's workers as single paintings do. The step line's
environment time is wall time: calls that overlap count once (`tool_turns.BusyClock`).
"""

from __future__ import annotations

import itertools
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from watercolour_env import WatercolourObservation
from watercolour_env.errors import ConfigError
from watercolour_trainer.episodes.painter import PaintingEpisode
from watercolour_trainer.episodes.rewards import ConfigurationRefused, EnvironmentReward, log_to_trl, refusal
from watercolour_trainer.episodes.tool_turns import BusyClock

log = logging.getLogger(__name__)

CHATML_START = "<|im_start|>"


def give_tools(tokenizer: Any, template_path: str | None = None) -> str:  # noqa: ANN401
    """Makes the policy's chat template able to call tools; returns what it did, for the log.

    A template read from `template_path` (a Jinja file, as `--chat_template_path` gives) must call
    tools itself. Otherwise a template that already renders a tool call and its answer is kept
    (Qwen3's), and a ChatML template that cannot (SmolLM2's: `<|im_start|>role ... <|im_end|>`) is
    replaced by TRL's Qwen2.5 template, the same ChatML with tools: the tool schema in the system
    message, calls as `<tool_call>{json}</tool_call>`, answers as the `tool` role; TRL parses those.

    Raises:
        ConfigError: `template_path` is not a readable file or its template cannot call tools;
            or, with no path, a template that is neither, naming `--chat_template_path`.
    """
    from trl.chat_template_utils import qwen2_5_chat_template, supports_tool_calling

    if template_path:
        try:
            tokenizer.chat_template = Path(template_path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise ConfigError(f"--chat_template_path {template_path}: not a readable Jinja file ({err})") from err
        if not supports_tool_calling(tokenizer):
            raise ConfigError(f"--chat_template_path {template_path}: this template cannot call tools")
        return f"the chat template of {template_path} calls tools"
    if supports_tool_calling(tokenizer):
        return "the policy's chat template calls tools"
    if CHATML_START in (tokenizer.chat_template or ""):
        tokenizer.chat_template = qwen2_5_chat_template
        return "the policy's ChatML template cannot call tools: using TRL's Qwen2.5 ChatML template with tools"
    raise ConfigError(
        "--revisions needs a chat template that can call tools, and this policy's cannot: "
        "give a Jinja file of one with --chat_template_path FILE"
    )


class RevisionReward(EnvironmentReward):
    """The reward of an episode with revisions, and its factory of `PaintingEpisode`s for TRL.

    Args (besides `EnvironmentReward`'s):
        revisions: paintings after the first, K in [0, the server's WATERCOLOUR_MAX_REVISIONS].
        revision_reward: "last" or "best": which painting's reward the episode pays.
        images: each `paint` answers with the picture too (a vision-language policy).

    Call it as TRL does, with the batch's `completions` (message lists) and `environments`
    (the `PaintingEpisode` of each). It returns one reward in [0, 1] or None per completion:
    None only when the environment failed at some turn; a policy that painted nothing gets
    the gate's verdict on its last words (0.0), like any reply without a sketch.
    """

    __name__ = "environment"

    def __init__(
        self,
        *args: Any,  # noqa: ANN401
        revisions: int,
        revision_reward: str = "last",
        images: bool = False,
        **kwargs: Any,  # noqa: ANN401
    ) -> None:
        super().__init__(*args, **kwargs)
        self.revisions, self.revision_reward, self.images = revisions, revision_reward, images
        self._urls = itertools.cycle(self.replicas.urls)
        self._clock = BusyClock(self._spend)

    def check_sessions(self, rollouts: int) -> None:
        """Refuses a run whose open episodes the servers cannot all hold.

        TRL keeps one `PaintingEpisode` per rollout of a generation batch and reuses them, never
        closing one, so `rollouts` websocket sessions stay open, spread over the replicas.

        Raises:
            ConfigError: the replicas' session capacity (`/health`) is below `rollouts`.
        """
        capacity, silent = 0, []
        for replica in self.replicas.replicas:
            try:
                capacity += int((replica.health or {})["sessions"]["capacity"])
            except (KeyError, TypeError, ValueError):
                silent.append(replica.url)  # did not answer, or an older server
        if silent:
            log.warning("session capacity counted without %s: they did not report it", ", ".join(silent))
        if capacity and capacity < rollouts:
            raise ConfigError(
                f"--revisions keeps one session open per rollout: {rollouts} a generation batch, and the "
                f"environment holds {capacity}. Raise WATERCOLOUR_MAX_CONCURRENT_ENVS, add replicas, or lower "
                "the batch"
            )

    def _reset_options(self, seed: int, subject: str | None, return_image: bool) -> dict[str, Any]:
        """The single painting's options plus the revisions (so `check_configuration` tries them)."""
        options = super()._reset_options(seed, subject, return_image)
        return {**options, "revisions": self.revisions, "revision_reward": self.revision_reward}

    def episode(self) -> PaintingEpisode:
        """A new episode bound to the next replica (TRL calls this as its `environment_factory`)."""
        kept = ("weights", "references", "revision_reward", "return_image")  # seed, subject: the dataset's row
        options = {k: v for k, v in self._reset_options(0, None, self.log is not None).items() if k in kept}
        url = next(self._urls)
        return PaintingEpisode(
            url,
            self.revisions,
            timeout_s=self.timeout_s,
            options=options,
            spent=self._clock.timing,
            others=tuple(u for u in self.replicas.urls if u != url),
            count_tokens=self.count_tokens,
            images=self.images,
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
            judged = observation.judged_turn if observation is not None else None
            if judged is not None and 1 <= judged < len(episode.turns):  # the best was an earlier painting
                chosen = episode.turns[judged - 1].observation
                rollout.sketch, rollout.paint_fraction = chosen.sketch, chosen.paint_fraction
                rollout.violations = [v.value for v in chosen.violations]
                rollout.js_errors, png = list(chosen.js_errors), chosen.image_png_b64
            rollout.completion = exchange_text(completions[i])
            rollout.turns = [turn.record for turn in episode.turns]
            self.log.add(rollout, png, [turn.observation.image_png_b64 for turn in episode.turns[:-1]])
        if self.log is not None:
            self.log.flush()
        self._report_unscored(step, results)
        if "log_extra" in kwargs and "log_metric" in kwargs:
            log_to_trl(results, kwargs["log_extra"], kwargs["log_metric"])
            painted = sum(1 for e in environments for t in e.turns if not t.repeated)  # the policy's own
            kwargs["log_metric"]("env/paintings", painted / max(n, 1))
        return [observation.reward if observation is not None else None for observation, _ in results]


def exchange_text(completion: Any) -> str:  # noqa: ANN401
    """A rollout's whole exchange as text: what the policy wrote and called, and what it read.

    Each assistant message's words, then each `paint` call's sketch under a `[paint]` line;
    each tool answer under `[critique]`. A string (a completion without messages) is itself.
    """
    if isinstance(completion, str):
        return _valid(completion)
    parts: list[str] = []
    for message in completion:
        if not isinstance(message, dict):
            continue
        if message.get("role") == "tool":
            parts.append(f"[critique] {message.get('content') or ''}")
            continue
        if message.get("content"):
            parts.append(str(message["content"]))
        for call in message.get("tool_calls") or []:
            function = call.get("function", call) if isinstance(call, dict) else {}
            arguments = function.get("arguments") if isinstance(function, dict) else None
            sketch = arguments.get("sketch") if isinstance(arguments, dict) else arguments
            parts.append(f"[{function.get('name', 'tool')}]\n{sketch if sketch is not None else ''}")
    return _valid("\n\n".join(parts))


def _valid(text: str) -> str:
    """`text` as valid UTF-8: a lone surrogate (a tool argument's JSON can hold one) becomes "?"."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _last_words(completion: Any) -> str:  # noqa: ANN401
    """The text of a completion's last assistant message (TRL: a list of messages), or the text itself."""
    if isinstance(completion, str):
        return _valid(completion)
    said = [m for m in completion if isinstance(m, dict) and m.get("role") == "assistant"]
    return _valid(str(said[-1].get("content") or "")) if said else ""


def _finish(episode: PaintingEpisode, last_words: str) -> tuple[WatercolourObservation | None, str]:
    """(the judged observation, "") or (None, why) when the environment failed."""
    try:
        return episode._finish(last_words), ""
    except Exception as err:  # noqa: BLE001 (a failure to finish an episode is the infrastructure's)
        log.warning("episode not scored: %s: %s", type(err).__name__, err)
        return None, f"{type(err).__name__}: {err}"


def _reset(env: Any, env_url: str, revisions: int, **options: Any) -> WatercolourObservation:  # noqa: ANN401
    """`env.reset` of an episode with `revisions`; a refusal of its options becomes a ConfigError."""
    try:
        return env.reset(revisions=revisions, **options).observation
    except RuntimeError as err:
        if (message := refusal(err)) is None:
            raise
        raise ConfigurationRefused(f"the environment at {env_url} refused --revisions {revisions}: {message}") from None


def check_revisions(env_url: str, revisions: int) -> None:
    """Refuses, before a model loads, a server that cannot play episodes of 1 + `revisions` paintings.

    Raises:
        ConfigError: no server answered at `env_url`, or it refused the revisions (more than its
            WATERCOLOUR_MAX_REVISIONS), naming what to set.
    """
    from watercolour_env import WatercolourEnv
    from watercolour_env.client import talking_to

    with talking_to(env_url), WatercolourEnv(base_url=env_url).sync() as env:
        _reset(env, env_url, revisions, seed=0)


def tool_examples(rows: list[dict], revisions: int, env_url: str, seed: int = 0, parallel: int = 8) -> list[dict]:
    """SFT examples in the form `--revisions K` trains in: paint with the tool, read, paint again.

    Example i paints the sketches of rows i, i + 1, ..., i + K (wrapping) through `paint`, each
    answered by the server's real critique (an episode of 1 + K paintings on render seed
    `seed` + i), and ends with "Done.". The corpus holds no revised pairs, so this teaches the
    form (calls, their arguments, when to stop), not how to revise: that is GRPO's to learn.

    Args:
        rows: `sft.sketch_examples` rows (prompt [system, user], completion [the sketch in a block]).
        revisions: K >= 1, paintings after the first.
        env_url: a watercolour server; its `WATERCOLOUR_MAX_REVISIONS` must allow K.
        seed: the render seed of the first example's episode.
        parallel: episodes played at once (each its own session; the server's render workers
            bound how many paint at a time).

    Returns:
        Rows in the order of `rows`, with `prompt` (the user prompt says how many revisions),
        `completion` (assistant tool calls, tool answers, the closing words), `tools` (the `paint`
        schema as JSON, the form TRL's SFTTrainer reads), `id` (the painted ids, joined by "+"),
        `tier` (the first's) and `subject`.

    Raises:
        ConfigurationRefused: the server refused the episode's options (more revisions than its
            WATERCOLOUR_MAX_REVISIONS), naming what to set.
        RuntimeError, ConnectionError: the server failed.
    """
    import json

    from transformers.utils import get_json_schema

    from watercolour_env import WatercolourEnv
    from watercolour_env.sketch import extract_sketch

    schema = json.dumps([get_json_schema(PaintingEpisode(env_url, revisions).paint)])

    def example(i: int) -> dict:
        row, episode = rows[i], PaintingEpisode(env_url, revisions)
        try:
            with WatercolourEnv(base_url=env_url).sync() as env:
                subject = str(row.get("subject") or "")
                start = _reset(env, env_url, revisions, seed=seed + i, subject=subject or None)
            episode.reset(seed=seed + i, subject=start.subject)
            if episode._broken:
                raise ConnectionError(f"the server at {env_url} did not start an episode: {episode._broken}")
            painted = [rows[(i + j) % len(rows)] for j in range(1 + revisions)]
            completion: list[dict] = []
            for source in painted:
                sketch = extract_sketch(source["completion"][0]["content"]) or ""
                call = {"type": "function", "function": {"name": "paint", "arguments": {"sketch": sketch}}}
                completion.append({"role": "assistant", "content": "", "tool_calls": [call]})
                completion.append({"role": "tool", "name": "paint", "content": episode.paint(sketch)})
        finally:
            episode._close()
        completion.append({"role": "assistant", "content": "Done."})
        return {
            "prompt": [row["prompt"][0], {"role": "user", "content": start.prompt}],
            "completion": completion,
            "tools": schema,
            "id": "+".join(str(r.get("id", "")) for r in painted),
            "tier": row.get("tier"),
            "subject": start.subject,
        }

    with ThreadPoolExecutor(max(1, parallel)) as pool:
        return list(pool.map(example, range(len(rows))))
