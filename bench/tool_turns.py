"""A turn of `paint` calls over a batch of rollouts: TRL's order (one after another) against `TurnCalls`.

    watercolour bench tool_turns [--rollouts 8] [--rounds 3] [--sketch hibiscus.js]

Starts `watercolour serve` on a free loopback port and opens `--rollouts` episodes with one
revision, as `watercolour train --revisions 1` does (`RevisionReward.episode`). A round resets
every episode on one seed and plays one turn: each rollout paints the example sketch through its
`paint` tool, the way TRL 1.16's `_tool_call_loop` calls it. The baseline, in the same run, is
TRL's own order: each call waits for its answer before the next. The other is the same calls
through `tool_turns.TurnCalls` (what `ConcurrentToolsTrainer` hands TRL), all of the turn at
once. Rounds alternate between the two, so a machine that changes speed moves both. Prints the
seconds a turn took (median and range over the rounds) and the ratio of the medians, and exits 1
when the two gave different answers (critiques) on a round's seed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from watercolour_env.server.settings import default_render_workers
from watercolour_trainer.demo import free_port, wait_healthy
from watercolour_trainer.episodes.revisions import RevisionReward
from watercolour_trainer.episodes.tool_turns import TurnCalls

REPO = Path(__file__).resolve().parents[1]


def turn(episodes: list, sketch: str, seed: int, concurrent: bool) -> tuple[float, list]:  # noqa: ANN001
    """Seconds for one turn of every episode's `paint` after a reset on `seed`, and their answers."""
    for episode in episodes:
        episode.reset(seed=seed, subject="a peach hibiscus")
    tools = [{"paint": episode.paint} for episode in episodes]
    arguments = {"sketch": sketch}
    call = {"type": "function", "function": {"name": "paint", "arguments": arguments}}
    completions = [[{"role": "assistant", "tool_calls": [call]}] for _ in episodes]
    calls = TurnCalls(tools, completions, workers=len(episodes)) if concurrent else None
    started = time.perf_counter()
    try:  # TRL's loop: one rollout after another
        answers = [tool["paint"](**arguments) for tool in (calls.tool_dicts() if calls else tools)]
    finally:
        if calls:
            calls.close()
    return time.perf_counter() - started, answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sketch", default="hibiscus.js")
    args = parser.parse_args()
    sketch = (REPO / "examples" / "sketches" / args.sketch).read_text()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "WATERCOLOUR_PORT": str(port), "WATERCOLOUR_MAX_CONCURRENT_ENVS": str(max(64, args.rollouts))}
    server = subprocess.Popen(
        [sys.executable, "-m", "watercolour_env.cli", "serve"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    episodes = []
    try:
        wait_healthy(url, server)
        reward = RevisionReward(url, num_generations=args.rollouts, revisions=1)
        reward.check_configuration("a peach hibiscus")
        episodes = [reward.episode() for _ in range(args.rollouts)]
        turn(episodes, sketch, 0, concurrent=True)  # warm: sessions open, pages loaded
        times: dict[bool, list[float]] = {False: [], True: []}
        differ = 0
        for r in range(args.rounds):
            answers = []
            for concurrent in (False, True):
                seconds, said = turn(episodes, sketch, r + 1, concurrent)
                times[concurrent].append(seconds)
                answers.append(said)
            differ += answers[0] != answers[1]
    finally:
        for episode in episodes:
            episode._close()
        server.terminate()
        server.wait(timeout=30)

    workers = default_render_workers()
    print(f"{args.rollouts} rollouts, one turn of {args.sketch}, {workers} render workers, {args.rounds} rounds\n")
    print(f"{'calls':<28} {'median s':>9} {'range s':>14}")
    for concurrent, name in ((False, "one after another (TRL)"), (True, "a turn at once (TurnCalls)")):
        t = times[concurrent]
        print(f"{name:<28} {statistics.median(t):>9.2f} {min(t):>6.2f}-{max(t):<6.2f}")
    ratio = statistics.median(times[False]) / statistics.median(times[True])
    print(f"\nratio, one after another / at once: {ratio:.2f}x")
    print(f"rounds whose answers differ between the two: {differ} of {args.rounds}")
    if differ:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
