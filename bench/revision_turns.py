"""Turn by turn: does a policy's second and third painting beat its first? (issue 37)

    python bench/revision_turns.py --env-url http://127.0.0.1:8000 --adapter runs/sft-tools \
        --episodes 64 --revisions 2 --out runs/turns.json

Plays `--episodes` episodes of 1 + K paintings with the policy, as `watercolour train
--revisions K` would: the chat template with the `paint` tool, TRL's parsing of its calls, the
server's critique fed back, a batch generated per turn (unlike TRL, the turn's renders run at
once). Then every painting is scored again alone, as a single-painting episode on its episode's
seed, so each turn has a reward of its own. Prints one row per turn: the episodes that reached
it (a painting the finishing repeated is not counted), gate passes, the mean and median reward,
and the paired difference from the first turn (episodes that reached both) with its t statistic;
and the environment's seconds per turn.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import torch


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-url", required=True)
    parser.add_argument("--model", default="smollm2-135m-instruct", help="A model folder, .gguf, or the embedded one.")
    parser.add_argument("--adapter", help="A LoRA adapter taught the tool form (`watercolour sft --revisions K`).")
    parser.add_argument("--episodes", type=int, default=64)
    parser.add_argument("--revisions", type=int, default=2)
    parser.add_argument("--subject", default=None)
    parser.add_argument("--base-seed", type=int, default=1000, help="Episode i renders on seed base + i.")
    parser.add_argument("--temperature", type=float, default=0.7)
    parser.add_argument("--max-new-tokens", type=int, default=1200, help="Per turn.")
    parser.add_argument("--out", required=True)
    return parser.parse_args()


def paint(episode, sketch: str) -> str:  # noqa: ANN001 (a PaintingEpisode)
    """The tool's answer, or its refusal in words, as TRL hands it to the policy."""
    try:
        return episode.paint(sketch)
    except Exception as err:  # noqa: BLE001 (TRL hands any tool failure to the policy the same way)
        return json.dumps({"error": str(err)})


def paint_all(episode, sketches: list[str]) -> list[str]:  # noqa: ANN001 (a PaintingEpisode)
    """The answers to one message's calls, run in order."""
    return [paint(episode, sketch) for sketch in sketches]


def finish(episode, last_words: str):  # noqa: ANN001, ANN201 (a PaintingEpisode; an observation or None)
    """The episode's judged observation, or None when the environment failed."""
    try:
        return episode._finish(last_words)
    except Exception as err:  # noqa: BLE001
        print(f"episode not scored: {type(err).__name__}: {err}", flush=True)
        return None


def sessions_of(env_url: str) -> dict:
    """The server's sessions, `{"live": int, "capacity": int}` (its /health)."""
    with urllib.request.urlopen(f"{env_url.rstrip('/')}/health", timeout=30) as response:
        return json.load(response)["sessions"]


def released(env_url: str, live: int, within_s: float = 30.0) -> None:
    """Waits until at most `live` sessions are open on the server; RuntimeError after `within_s`."""
    deadline = time.monotonic() + within_s
    while (now := sessions_of(env_url)["live"]) > live:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server still holds {now} sessions after {within_s:.0f} s")
        time.sleep(0.2)


def main() -> None:
    args = parse()
    before = sessions_of(args.env_url)
    sessions = before["capacity"] - before["live"]
    if args.episodes > sessions:
        raise SystemExit(f"--episodes {args.episodes} is more than the server's {sessions} free sessions")
    from trl.chat_template_utils import add_response_schema, parse_response

    from watercolour_env import WatercolourAction, WatercolourEnv
    from watercolour_trainer.episodes.painter import PaintingEpisode
    from watercolour_trainer.episodes.revisions import give_tools
    from watercolour_trainer.training.policy import load_policy

    device = "cuda" if torch.cuda.is_available() else "cpu"
    model, tokenizer = load_policy(args.model)
    if args.adapter:
        from peft import PeftModel

        model = PeftModel.from_pretrained(model, args.adapter).merge_and_unload()
    model.to(device).eval()
    print(give_tools(tokenizer), flush=True)
    add_response_schema(tokenizer)
    tokenizer.padding_side = "left"

    with WatercolourEnv(base_url=args.env_url).sync() as env:
        start = env.reset(seed=args.base_seed, subject=args.subject, revisions=args.revisions).observation
    released(args.env_url, before["live"])
    seeds = [args.base_seed + i for i in range(args.episodes)]
    episodes = [PaintingEpisode(args.env_url, args.revisions) for _ in seeds]
    for episode, seed in zip(episodes, seeds, strict=True):
        episode.reset(seed=seed, subject=start.subject)
    tools = [episodes[0].paint]
    chats = [
        [{"role": "system", "content": start.system_prompt}, {"role": "user", "content": start.prompt}] for _ in seeds
    ]
    open_ = list(range(len(seeds)))
    last_words = [""] * len(seeds)
    timing: dict[str, list[float]] = {"generation_s": [], "environment_s": []}
    for turn in range(1, args.revisions + 2):
        if not open_:
            break
        texts = [
            tokenizer.apply_chat_template(chats[i], tools=tools, add_generation_prompt=True, tokenize=False)
            for i in open_
        ]
        encoded = tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False).to(device)
        started = time.perf_counter()
        torch.manual_seed(turn)
        with torch.no_grad():
            out = model.generate(
                **encoded,
                do_sample=True,
                temperature=args.temperature,
                max_new_tokens=args.max_new_tokens,
                pad_token_id=tokenizer.pad_token_id,
            )
        timing["generation_s"].append(round(time.perf_counter() - started, 1))
        width = encoded["input_ids"].shape[1]
        calls = {}
        stops = model.generation_config.eos_token_id
        stops = {stops} if isinstance(stops, int) else set(stops or [tokenizer.eos_token_id])
        for row, i, text in zip(out[:, width:].tolist(), open_, texts, strict=True):
            end = next((k for k, token in enumerate(row) if token in stops), len(row) - 1)
            ids = row[: end + 1]  # up to the end of the turn (padding after it is often the same token)
            prefix = tokenizer(text, add_special_tokens=False)["input_ids"]  # the template's parser needs the prompt
            message = parse_response(tokenizer, ids, prefix=prefix, tools=tools)
            chats[i].append(message)
            last_words[i] = str(message.get("content") or "")
            sketches = [
                str(c["function"]["arguments"].get("sketch"))
                for c in message.get("tool_calls") or []
                if c.get("function", {}).get("name") == "paint" and isinstance(c["function"].get("arguments"), dict)
            ]
            if sketches:
                calls[i] = sketches  # every call of the message, in order, as TRL runs them
        started = time.perf_counter()
        with ThreadPoolExecutor(16) as pool:
            answers = dict(zip(calls, pool.map(paint_all, [episodes[i] for i in calls], calls.values()), strict=True))
        timing["environment_s"].append(round(time.perf_counter() - started, 1))
        for i, said in answers.items():
            chats[i] += [{"role": "tool", "name": "paint", "content": answer} for answer in said]
        open_ = [i for i in answers if not episodes[i].done]
        print(f"turn {turn}: {len(calls)} of {len(texts)} replies called paint", flush=True)
    with ThreadPoolExecutor(16) as pool:
        finals = list(pool.map(finish, episodes, last_words))
    for episode in episodes:  # their sessions go back before each painting is scored alone
        episode._close()
    released(args.env_url, before["live"])

    def alone(job: tuple[int, str]) -> float | None:
        seed, sketch = job
        with WatercolourEnv(base_url=args.env_url).sync() as env:
            env.reset(seed=seed, subject=start.subject)
            return env.step(WatercolourAction(reply=sketch)).reward

    jobs = [(seeds[i], t.reply) for i, e in enumerate(episodes) for t in e.turns]
    with ThreadPoolExecutor(min(16, sessions)) as pool:
        rewards = iter(list(pool.map(alone, jobs)))
    table = []
    per_episode = [[next(rewards) for _ in e.turns] for e in episodes]
    for n in range(args.revisions + 1):
        reached = [i for i, e in enumerate(episodes) if len(e.turns) > n and not e.turns[n].repeated]
        passed = [i for i in reached if not episodes[i].turns[n].observation.violations]
        scored = [per_episode[i][n] for i in reached if per_episode[i][n] is not None]
        pairs = [
            per_episode[i][n] - per_episode[i][0] for i in reached if None not in (per_episode[i][n], per_episode[i][0])
        ]
        t = None
        if len(pairs) > 1 and statistics.stdev(pairs) > 0:
            t = statistics.fmean(pairs) / (statistics.stdev(pairs) / len(pairs) ** 0.5)
        table.append(
            {
                "turn": n + 1,
                "episodes": len(reached),
                "gate_pass": round(len(passed) / len(reached), 3) if reached else None,
                "reward_mean": round(statistics.fmean(scored), 3) if scored else None,
                "reward_median": round(statistics.median(scored), 3) if scored else None,
                "vs_first": round(statistics.fmean(pairs), 3) if pairs and n else None,
                "t": round(t, 2) if t is not None and n else None,
            }
        )
    episode_rewards = [f.reward for f in finals if f is not None]
    result = {
        "device": torch.cuda.get_device_name(0) if device == "cuda" else "cpu",
        "args": vars(args),
        "turns": table,
        "episode_reward_mean": round(statistics.fmean(episode_rewards), 3) if episode_rewards else None,
        "timing": timing,
        "episodes": [
            {"seed": s, "turns": [t.record | {"alone": r} for t, r in zip(e.turns, per_episode[i], strict=True)]}
            for i, (s, e) in enumerate(zip(seeds, episodes, strict=True))
        ],
    }
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(f"{'turn':>4} {'episodes':>8} {'gate pass':>9} {'mean':>6} {'median':>6} {'vs 1st':>7} {'t':>6}")
    for row in table:
        cells = [
            row["turn"],
            row["episodes"],
            row["gate_pass"],
            row["reward_mean"],
            row["reward_median"],
            row["vs_first"],
            row["t"],
        ]
        print(" ".join(f"{'-' if c is None else c:>{w}}" for c, w in zip(cells, (4, 8, 9, 6, 6, 7, 6), strict=True)))
    print(f"episode reward (last painting) mean {result['episode_reward_mean']}; timing {timing}")


if __name__ == "__main__":
    main()
