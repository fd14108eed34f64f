"""The prompts of a GRPO run: one row per episode, from the environment's own `reset`."""

from __future__ import annotations

from datasets import Dataset

from watercolour_env import WatercolourEnv
from watercolour_env.prompt import REPLY_PRIMER
from watercolour_trainer.training.arguments import WatercolourArguments


def split_subjects(subject: str | None) -> list[str | None]:
    """`--subject`'s subjects in order: "a hibiscus; a jellyfish" gives both; None or blank gives [None].

    Example:
        >>> split_subjects(" a hibiscus ;a jellyfish; "), split_subjects(None)
        (['a hibiscus', 'a jellyfish'], [None])
    """
    subjects = [part.strip() for part in (subject or "").split(";") if part.strip()]
    return subjects or [None]


def build_dataset(args: WatercolourArguments, tokenizer, template_kwargs: dict | None = None) -> Dataset:  # noqa: ANN001
    """One row per prompt from the environment's own `reset` (system prompt + subject).

    Row i asks for the (i mod n)-th of `--subject`'s n subjects (`split_subjects`), with render
    seed `base_seed + i`: with `shuffle_dataset: false` and a step of k prompts, each step takes k
    rows in turn, so k >= n mixes every subject into every step.

    With `prime_reply`, the prompt is the chat-templated text followed by the reply primer and
    the primer travels in column `reply_primer` so the reward sends primer + completion.
    """
    rows = []
    url = args.replica_urls()[0]  # replicas score alike (checked); the prompt is the same on each
    subjects = split_subjects(args.subject)
    with WatercolourEnv(base_url=url, message_timeout_s=args.episode_timeout_s).sync() as env:
        for i in range(args.n_prompts):
            revising = {"revisions": args.revisions, "revision_reward": args.revision_reward} if args.revisions else {}
            subject = subjects[i % len(subjects)]
            obs = env.reset(seed=args.base_seed + i, subject=subject, **revising).observation
            messages = [{"role": "system", "content": obs.system_prompt}, {"role": "user", "content": obs.prompt}]
            if args.prime_reply:
                text = tokenizer.apply_chat_template(
                    messages, add_generation_prompt=True, tokenize=False, **(template_kwargs or {})
                )
                rows.append(
                    {
                        "prompt": text + REPLY_PRIMER,
                        "reply_primer": REPLY_PRIMER,
                        "seed": obs.seed,
                        "subject": obs.subject,
                    }
                )
            else:
                rows.append({"prompt": messages, "reply_primer": "", "seed": obs.seed, "subject": obs.subject})
    return Dataset.from_list(rows)
