"""GRPO steps of randomly initialised policy architectures against the real environment server.

    python bench/grpo_gpu.py --arch qwen3-4b --steps 3 [--tokenizer DIR] [--json out.json]
    accelerate launch --config_file trainer/configs/accelerate/ddp.yaml bench/grpo_gpu.py --arch qwen3-4b ...

What a run of the seed's command needs, measured where weights cannot be downloaded (the lent
H200): the policy is built from its architecture's config with random weights (bf16 on a GPU),
and the tokenizer is SmolLM2's (`--tokenizer`, default the embedded policy's), so the vocabulary
is 49,152 rather than Qwen3's 151,936 (about 0.26 B fewer parameters at 4 B, 0.41 B at 30 B).
Chromium cannot run there either: the server is the real one (OpenEnv websocket, gate, embedded
scorer, in this process on loopback) with a stand-in renderer that holds a worker for a measured
render's time (`--render-s`) and returns a real painting from the starter pool. Random weights
write no sketch, so every completion reaches the environment as the hibiscus example: the
policy's own tokens are generated and trained on, and the environment costs what a trained
policy's replies would. The run's settings are the seed's (LoRA on all linear layers, bf16,
gradient checkpointing, 8 generations, batch 1 x 8 accumulated, top-p 0.95, top-k 20) with a
shorter `--max-completion-length`.

Prints per step: seconds of generation, reward (the environment) and optimisation; generated
tokens/s; peak GPU memory; and, once, trainable parameters and LoRA's modules.

Under `accelerate launch` (one process per GPU) a step is still one group of 8: gradient
accumulation is divided by the number of processes. Each process serves its own environment
with `--render-workers` divided among them, so the environment's capacity is the one-process
run's. The first process prints; peak memory is given per GPU.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import threading
import time
from pathlib import Path

import torch
import yaml

REPO = Path(__file__).resolve().parents[1]

try:
    import watercolour_trainer  # noqa: F401 (installed: `pip install -e .`)
except ImportError:  # the GPU machine: no install, the checkout's code as trainer/watercolour_grpo.py mounts it
    import importlib.util

    _spec = importlib.util.spec_from_file_location("watercolour_grpo", REPO / "trainer" / "watercolour_grpo.py")
    _script = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_script)
    _script.mount(REPO)

ARCHES: dict[str, dict] = yaml.safe_load((REPO / "bench" / "grpo_gpu_arches.yaml").read_text())
"""The architectures `--arch` names, by name: transformers' config fields, cited in the YAML."""


class StandInRenderer:
    """The renderer's interface without Chromium: holds one of `workers` for `render_s`, then
    returns a real painting (a starter-pool reference) as the render of any sketch."""

    def __init__(self, png: bytes, render_s: float, workers: int) -> None:
        self.png, self.render_s, self.workers = png, render_s, workers
        self._slots = threading.Semaphore(workers)
        self.renders = 0
        self.renderer_string = f"stand-in ({render_s:g} s a render, {workers} workers)"

    def render(self, sketch: str, seed: int = 0, deadline_s=None, deadline_at=None):  # noqa: ANN001, ANN201, ARG002
        from watercolour_env.server.sandbox import RenderResult, RenderStatus

        started = time.perf_counter()
        with self._slots:
            queued = time.perf_counter() - started
            time.sleep(self.render_s)
        self.renders += 1
        elapsed = (time.perf_counter() - started) * 1000
        return RenderResult(
            RenderStatus.OK,
            png=self.png,
            paint_fraction=0.4,
            finished=True,
            elapsed_ms=elapsed,
            queued_ms=queued * 1000,
            renderer=self.renderer_string,
        )

    def stats(self) -> dict:
        return {
            "workers": self.workers,
            "busy": 0,
            "free": self.workers,
            "replacing": 0,
            "queued": 0,
            "max_queue": 64,
            "renderer": self.renderer_string,
            "chromium": "none",
            "started": True,
            "closed": False,
            "network": "none",
        }

    def close(self) -> None:
        pass


def serve_environment(render_s: float, workers: int):  # noqa: ANN201 (a context manager of the base URL)
    """The real environment server on a free loopback port, with the stand-in renderer."""
    import contextlib
    import socket

    import uvicorn

    from watercolour_env.pool import Pool, Tier
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    settings = load_settings(render_workers=workers)
    png = Pool.load(settings.pool).tier(Tier.LOVE)[0].png
    app = build_app(settings, renderer=StandInRenderer(png, render_s, workers))

    @contextlib.contextmanager
    def running():
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        try:
            yield f"http://127.0.0.1:{port}", app
        finally:
            server.should_exit = True
            thread.join(timeout=10)

    return running()


def build_policy(arch: str, tokenizer, device: str):  # noqa: ANN001, ANN201
    """A randomly initialised model of `arch` (bf16 on a GPU, fp32 on CPU) and its build time."""
    from transformers import AutoConfig, AutoModelForCausalLM

    fields = dict(ARCHES[arch])
    config = AutoConfig.for_model(
        fields.pop("model_type"),
        vocab_size=len(tokenizer),
        **fields,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    dtype = torch.bfloat16 if device == "cuda" else torch.float32
    started = time.perf_counter()
    with torch.device(torch.cuda.current_device() if device == "cuda" else device):
        model = AutoModelForCausalLM.from_config(config, dtype=dtype)
    return model, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", choices=sorted(ARCHES), default="qwen3-4b")
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--max-completion-length", type=int, default=512)
    parser.add_argument("--render-s", type=float, default=1.4, help="Seconds a stand-in render holds a worker.")
    parser.add_argument("--render-workers", type=int, default=2, help="A free CPU Space has 2 cores.")
    parser.add_argument("--tokenizer", help="A tokenizer folder; default: the embedded policy's (GGUF).")
    parser.add_argument("--json", help="Also write the rows here.")
    parser.add_argument("--output-dir", default="runs/grpo_gpu")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from watercolour_trainer.training.processes import keep_multicast_off

    keep_multicast_off()
    processes, rank = int(os.environ.get("WORLD_SIZE", "1")), int(os.environ.get("RANK", "0"))
    if 8 % processes or args.render_workers % processes:
        parser.error(f"{processes} processes must divide the group of 8 and --render-workers")
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda":
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))  # this process's GPU

    from peft import LoraConfig
    from transformers import AutoTokenizer, TrainerCallback
    from trl import GRPOTrainer

    from watercolour_trainer.episodes.rewards import EnvironmentReward
    from watercolour_trainer.training.arguments import parse_arguments
    from watercolour_trainer.training.policy import embedded_gguf
    from watercolour_trainer.training.train import build_dataset, describe_training

    if args.tokenizer:
        tokenizer = AutoTokenizer.from_pretrained(args.tokenizer)
    else:
        gguf = embedded_gguf()
        tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model, build_s = build_policy(args.arch, tokenizer, device)
    hibiscus = (REPO / "examples" / "sketches" / "hibiscus.js").read_text()

    class ExampleReplies(EnvironmentReward):
        """The real reward function, sent the hibiscus example in place of each completion."""

        seconds = 0.0

        async def __call__(self, prompts, completions, **kwargs):  # noqa: ANN001, ANN003, ANN204
            started = time.perf_counter()
            try:
                return await super().__call__(prompts, ["```js\n" + hibiscus + "\n```"] * len(completions), **kwargs)
            finally:
                ExampleReplies.seconds += time.perf_counter() - started

    rows: list[dict] = []

    class Split(TrainerCallback):
        """Per optimiser step: wall time, reward time, generation time, tokens, peak memory."""

        def on_step_begin(self, *_, **__) -> None:  # noqa: ANN002, ANN003
            self.started, ExampleReplies.seconds, generating[0], tokens[0] = time.perf_counter(), 0.0, 0.0, 0
            if device == "cuda":
                torch.cuda.reset_peak_memory_stats()

        def on_step_end(self, *_, **__) -> None:  # noqa: ANN002, ANN003
            step_s = time.perf_counter() - self.started
            peak_gib = torch.cuda.max_memory_allocated() / 2**30 if device == "cuda" else 0.0
            reward_s, generate_s = ExampleReplies.seconds, generating[0] - ExampleReplies.seconds
            peaks, made = [peak_gib], [tokens[0]]
            if processes > 1:  # every GPU's peak, every process's tokens (a collective: all processes call it)
                from accelerate.utils import gather_object

                peaks, made = gather_object([peak_gib]), gather_object([tokens[0]])
            rows.append(
                {
                    "step": len(rows) + 1,
                    "step_s": step_s,
                    "generate_s": generate_s,
                    "reward_s": reward_s,
                    "optimise_s": step_s - generating[0],
                    "tokens": sum(made),
                    "tokens_per_s": sum(made) / generate_s if generate_s > 0 else 0.0,
                    "peak_gib": max(peaks),
                    "peak_gib_per_gpu": peaks,
                }
            )
            if rank == 0:
                print(json.dumps(rows[-1]), flush=True)

    generating, tokens = [0.0], [0]
    with serve_environment(args.render_s, args.render_workers // processes) as (url, app):
        flags = [
            "--env-url",
            url,
            "--lora",
            "--all-linear",
            "--gradient-checkpointing",
            "--top-p",
            "0.95",
            "--top-k",
            "20",
            "--lr",
            "5e-5",
            "--lr-scheduler",
            "constant_with_warmup",
            "--warmup-steps",
            "5",
            "--scale-rewards",
            "none",
            "--steps",
            str(args.steps),
            "--n-episodes",
            str(max(8, args.steps)),
            "--num-generations",
            "8",
            "--per-device-batch-size",
            "1",
            "--gradient-accumulation-steps",
            str(8 // processes),
            "--max-completion-length",
            str(args.max_completion_length),
            "--report_to",
            "none",
            "--save_strategy",
            "no",
            "--logging_steps",
            "1",
            "--output_dir",
            args.output_dir,
        ]
        flags += ["--bf16"] if device == "cuda" else ["--use_cpu", "true", "--bf16", "false"]
        wargs, config = parse_arguments(flags)
        reward = ExampleReplies(wargs.replica_urls(), config.num_generations, max_parallel=8)
        reward.check_configuration(wargs.subject)
        wargs.episode_timeout_s = reward.timeout_s
        dataset = build_dataset(wargs, tokenizer)
        peft_config = LoraConfig(
            r=wargs.lora_r, lora_alpha=wargs.lora_alpha, target_modules="all-linear", task_type="CAUSAL_LM"
        )
        trainer = GRPOTrainer(
            model=model,
            reward_funcs=[reward],
            args=config,
            train_dataset=dataset,
            processing_class=tokenizer,
            peft_config=peft_config,
            callbacks=[Split()],
        )
        described = describe_training(trainer.model)
        print(described, flush=True)
        generate = trainer._generate_and_score_completions  # generation plus the reward call inside it

        def timed(*a, **k):  # noqa: ANN002, ANN003, ANN202
            started = time.perf_counter()
            out = generate(*a, **k)
            generating[0] += time.perf_counter() - started
            tokens[0] += int(out["completion_mask"].sum().item())
            return out

        trainer._generate_and_score_completions = timed
        trainer.train()
        renders = app.state.renderer.renders
    if processes > 1:  # every process's environment
        from accelerate.utils import gather_object

        renders = sum(gather_object([renders]))
    if rank != 0:
        return
    summary = {
        "arch": args.arch,
        "device": torch.cuda.get_device_name() if device == "cuda" else "cpu",
        "processes": processes,
        "sharding": "fsdp" if os.environ.get("ACCELERATE_USE_FSDP") == "true" else "none",
        "build_s": build_s,
        "training": described,
        "renders": renders,
        "render_s": args.render_s,
        "render_workers": args.render_workers,
        "max_completion_length": args.max_completion_length,
        "steps": rows,
    }
    print(
        f"\n{args.arch} on {summary['device']} x{processes} (sharding: {summary['sharding']}): built in "
        f"{build_s:.1f} s; {described}"
    )
    print(
        f"{'step':>4} {'step s':>7} {'generate s':>10} {'reward s':>8} {'optimise s':>10} {'tokens/s':>8} "
        f"{'env share':>9} {'peak GiB':>8}"
    )
    for r in rows:
        print(
            f"{r['step']:>4} {r['step_s']:>7.1f} {r['generate_s']:>10.1f} {r['reward_s']:>8.1f} "
            f"{r['optimise_s']:>10.1f} {r['tokens_per_s']:>8.0f} {r['reward_s'] / r['step_s']:>9.1%} "
            f"{r['peak_gib']:>8.1f}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
