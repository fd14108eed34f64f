"""`watercolour eval`: score a policy, or a file of replies, over seeds and subjects against a server.

The way to compare two checkpoints (same server, two `--adapter`s) or two pools (the same
`--replies`, two servers). Each (subject, seed) is one episode: the policy answers the prompts the
server hands out at reset (so they are the server's, as in training), sampled with the seed, and the
reply is stepped. The summary gives the gate-pass rate (among episodes with a verdict), the reward
distribution (over scored and gate-rejected episodes; unscored ones are counted apart, as GRPO
leaves them out) and each component's mean; the JSON holds every episode, replies included, so
`--replies` can send the very same replies to another server.
"""

from __future__ import annotations

import base64
import concurrent.futures
import io
import json
import re
import statistics
from dataclasses import asdict, dataclass, field
from pathlib import Path

from watercolour_env.errors import ConfigError, read_text
from watercolour_trainer.record.variety import distinct_paintings


@dataclass
class Episode:
    """One evaluated episode: what was asked, the reply and the verdict.

    Attributes:
        subject: what the prompt asked to paint.
        seed: the episode's seed (render and sampling), >= 0.
        reply: the policy's reply, as stepped.
        status: `scored`, `rejected` or `infra_error`.
        reward: in [0, 1]; None when unscored.
        violations: the gate's violation names.
        components: each reward component's raw value in [0, 1] (None when it gave none).
    """

    subject: str
    seed: int
    reply: str
    status: str = ""
    reward: float | None = None
    violations: list[str] = field(default_factory=list)
    components: dict[str, float | None] = field(default_factory=dict)


def summarise(episodes: list[Episode]) -> dict:
    """Counts, gate-pass rate, reward distribution and component means of a list of episodes.

    Returns:
        {"episodes", "scored", "rejected", "unscored", "gate_pass_rate" (scored / (scored +
        rejected), None when neither), "reward": {"mean", "median", "p10", "p90", "min", "max"}
        over the rewards that are not None (None when there are none), "components": {name: mean
        of its values that are not None, over the episodes with a verdict, as the reward}}.
    """
    counts = {status: sum(e.status == status for e in episodes) for status in ("scored", "rejected", "infra_error")}
    verdicts = counts["scored"] + counts["rejected"]
    rewards = sorted(e.reward for e in episodes if e.reward is not None)
    reward = None
    if rewards:
        deciles = statistics.quantiles(rewards, n=10, method="inclusive") if len(rewards) > 1 else rewards * 9
        reward = {
            "mean": statistics.fmean(rewards),
            "median": statistics.median(rewards),
            "p10": deciles[0],
            "p90": deciles[-1],
            "min": rewards[0],
            "max": rewards[-1],
        }
    names = sorted({name for e in episodes for name in e.components})
    components = {}
    for name in names:
        values = [
            e.components[name] for e in episodes if e.status != "infra_error" and e.components.get(name) is not None
        ]
        components[name] = statistics.fmean(values) if values else None
    return {
        "episodes": len(episodes),
        "scored": counts["scored"],
        "rejected": counts["rejected"],
        "unscored": counts["infra_error"],
        "gate_pass_rate": counts["scored"] / verdicts if verdicts else None,
        "reward": reward,
        "components": components,
    }


def table(summary: dict, label: str) -> str:
    """The summary as a few aligned lines for the terminal."""
    reward = summary["reward"]
    rate = "n/a" if summary["gate_pass_rate"] is None else f"{summary['gate_pass_rate']:.0%}"
    lines = [
        f"{label}: {summary['episodes']} episodes, {summary['scored']} scored, {summary['rejected']} rejected by "
        f"the gate, {summary['unscored']} unscored; gate pass rate {rate}",
    ]
    if reward:
        lines.append("reward: " + ", ".join(f"{k} {v:.3f}" for k, v in reward.items()))
    for name, mean in summary["components"].items():
        lines.append(f"  {name:<10} mean {'n/a' if mean is None else f'{mean:.3f}'}")
    return "\n".join(lines)


def step_all(
    env_url: str, episodes: list[Episode], weights: str | dict | None, parallel: int = 4, images: bool = False
) -> dict[int, bytes]:
    """Steps each episode's reply in a fresh episode of the server at `env_url`, filling its verdict.

    Returns:
        With `images`, each painted episode's 600x600 PNG by its index in `episodes`; else {}.

    Raises:
        ConfigError: the server refused the episode (e.g. weights for a scorer it lacks, a reply
            over its size limit), or no server answered (`watercolour_env.client.talking_to`).
        Unscored: the server closed the connection or went quiet.
    """
    from watercolour_env import WatercolourAction, WatercolourEnv
    from watercolour_env.client import talking_to

    options = ({} if weights is None else {"weights": weights}) | ({"return_image": True} if images else {})
    pngs: dict[int, bytes] = {}

    def run(index: int) -> None:
        episode = episodes[index]
        with talking_to(env_url), WatercolourEnv(base_url=env_url, message_timeout_s=300).sync() as env:
            env.reset(seed=episode.seed, subject=episode.subject, **options)
            result = env.step(WatercolourAction(reply=episode.reply))
        obs = result.observation
        if obs.image_png_b64:
            pngs[index] = base64.b64decode(obs.image_png_b64)
        episode.status = obs.status.value
        episode.reward = result.reward
        episode.violations = [v.value for v in obs.violations]
        episode.components = {c.name: c.value for c in obs.reward_components if c.weight > 0}

    with concurrent.futures.ThreadPoolExecutor(max(1, parallel)) as pool:
        list(pool.map(run, range(len(episodes))))
    return pngs


def prompts(env_url: str, subjects: list[str | None]) -> dict[str, tuple[str, str]]:
    """The server's (system prompt, user prompt) by subject, from one reset each (None: its default)."""
    from watercolour_env import WatercolourEnv
    from watercolour_env.client import talking_to

    found = {}
    with talking_to(env_url), WatercolourEnv(base_url=env_url, message_timeout_s=60).sync() as env:
        for subject in subjects:
            obs = env.reset(seed=0, subject=subject).observation
            found[obs.subject] = (obs.system_prompt, obs.prompt)
    return found


def generate(
    model_name: str,
    adapter: str | None,
    asked: dict[str, tuple[str, str]],
    seeds: int,
    temperature: float,
    max_new_tokens: int,
    first_seed: int = 0,
) -> list[Episode]:
    """One sampled reply per (subject, seed): seed s draws with `torch.manual_seed(s)`.

    Args:
        model_name: `smollm2-135m-instruct`, a `.gguf` file, or a model id or folder.
        adapter: a LoRA adapter folder (`watercolour sft`'s output, a run's output_dir or one of
            its `checkpoint-N` folders), or None.
        asked: the server's prompts by subject (`prompts`).
        seeds: episodes per subject, seeds `first_seed` .. `first_seed` + seeds - 1: past a run's
            `n_prompts` (its render seeds start at its `base_seed`, 0 unless set), none was trained on.
        temperature: sampling temperature, > 0.
        max_new_tokens: the longest reply, in tokens.
        first_seed: the first seed, >= 0.
    """
    import torch

    from watercolour_trainer.training.policy import load_policy

    model, tokenizer = load_policy(model_name)
    if adapter is not None:
        from peft import PeftModel

        from watercolour_trainer.training.train import adapter_folder

        adapter_folder(adapter)
        model = PeftModel.from_pretrained(model, adapter)
    model.eval()
    episodes = []
    for subject, (system_prompt, prompt) in asked.items():
        messages = [{"role": "system", "content": system_prompt}, {"role": "user", "content": prompt}]
        text = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        encoded = tokenizer(text, return_tensors="pt", add_special_tokens=False)
        for seed in range(first_seed, first_seed + seeds):
            torch.manual_seed(seed)
            with torch.no_grad():
                out = model.generate(
                    **encoded,
                    do_sample=True,
                    temperature=temperature,
                    top_p=1.0,
                    top_k=0,
                    max_new_tokens=max_new_tokens,
                    pad_token_id=tokenizer.pad_token_id,
                )
            reply = tokenizer.decode(out[0, encoded["input_ids"].shape[1] :], skip_special_tokens=True)
            episodes.append(Episode(subject=subject, seed=seed, reply=reply))
    return episodes


def read_replies(path: Path) -> list[Episode]:
    """Episodes to step from an earlier eval's JSON (its `episodes`) or a JSONL of {subject, seed, reply}.

    Raises:
        ConfigError: the file is not text, is neither, holds no entry, or an entry lacks subject,
            seed or a reply that is a string.
    """
    text = read_text(path, "an eval's JSON or a JSONL of subject, seed, reply")
    try:
        try:
            whole = json.loads(text)
            rows = whole["episodes"] if isinstance(whole, dict) and "episodes" in whole else [whole]  # an eval's JSON
        except json.JSONDecodeError:  # JSONL: one episode a line
            rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        episodes = [Episode(subject=r["subject"], seed=int(r["seed"]), reply=r["reply"]) for r in rows]
        if any(not isinstance(e.reply, str) for e in episodes):
            raise TypeError("a reply is not a string")
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
        raise ConfigError(f"--replies {path}: not an eval's JSON nor JSONL of subject, seed, reply ({err})") from err
    if not episodes:
        raise ConfigError(f"--replies {path}: no replies in it")
    return episodes


def write_sheets(folder: Path, episodes: list[Episode], pngs: dict[int, bytes]) -> dict[str, dict]:
    """One contact sheet a subject, `folder/<subject>.png`: its paintings by seed, with their rewards.

    Returns:
        Per subject: episodes, painted (those with a picture), distinct (`distinct_paintings` over
        the replies that passed the gate) and the sheet's path.
    """
    from PIL import Image

    from watercolour_env.curate.render import THUMB_PX, sheet

    folder.mkdir(parents=True, exist_ok=True)
    found = {}
    for subject in dict.fromkeys(e.subject for e in episodes):
        own = [(i, e) for i, e in enumerate(episodes) if e.subject == subject]
        thumbs = []
        for i, e in own:
            if i in pngs:
                picture = Image.open(io.BytesIO(pngs[i])).convert("RGB").resize((THUMB_PX, THUMB_PX))
                reward = "n/a" if e.reward is None else f"{e.reward:.2f}"
                thumbs.append((f"seed {e.seed}: {reward}", picture))
        path = folder / (re.sub(r"[^a-z0-9]+", "-", subject.lower()).strip("-") + ".png")
        distinct = distinct_paintings([e.reply for _, e in own if e.status == "scored"])
        if thumbs:
            sheet(thumbs, f"{subject}: {len(thumbs)} paintings, {distinct} distinct").save(path)
        found[subject] = {"episodes": len(own), "painted": len(thumbs), "distinct": distinct, "sheet": str(path)}
    return found


def write(out: Path, summary: dict, episodes: list[Episode], about: dict) -> None:
    """The eval's JSON: what was evaluated (`about`), the summary and every episode."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({**about, "summary": summary, "episodes": [asdict(e) for e in episodes]}, indent=2))
