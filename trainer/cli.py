"""The one `watercolour` console script: the environment's commands plus the trainer's.

Composed here, where both packages are visible: `watercolour_env.cli` has the environment's
commands (`watercolour --help` lists them all); this module adds the trainer's, each defined
below: train, sft, analyze, gallery, demo, bench and eval. The heavy
imports (torch, TRL) happen inside the commands, so an install without the `train` extra still
serves and renders, and a command whose extra is missing says which one in a line
(`watercolour_env.errors.missing_extra`).
"""

from __future__ import annotations

from pathlib import Path

import typer

from watercolour_env.cli import app, output_path
from watercolour_env.cli import main as _env_main
from watercolour_env.errors import require_extra

REPO = Path(__file__).resolve().parents[1]
EXTRA_ARGS = {"allow_extra_args": True, "ignore_unknown_options": True}


@app.command(context_settings=EXTRA_ARGS, add_help_option=False)  # --help goes to the real parser
def train(ctx: typer.Context) -> None:
    """Run GRPO against an environment server (`watercolour train --help` lists every flag)."""
    require_extra("train")
    from watercolour_trainer.training.arguments import parse_arguments

    parsed = parse_arguments(list(ctx.args))  # a refusal is one line through main, exit 2, before the trainer loads
    from watercolour_trainer.training.train import run

    run(*parsed)


@app.command(context_settings=EXTRA_ARGS, add_help_option=False)
def sft(ctx: typer.Context) -> None:
    """Fine-tune a LoRA adapter on the warm start's own sketches, or --pool's (`watercolour sft --help`)."""
    require_extra("train")
    from watercolour_trainer.training.sft import main as sft_main

    sft_main(list(ctx.args))  # a refused configuration is one line through main, exit 2


@app.command()
def analyze(
    run_dir: Path = typer.Argument(..., help="A run's output_dir (or its rollouts/ folder)."),
    paintings: bool = typer.Option(
        False,
        help="Also draw the best, median and worst painting of each third "
        "(analysis-paintings.png), rendering those missing from their sketches.",
    ),
) -> None:
    """Did the run learn? Reward by third, slope and t, where the rise came from; writes JSON and a PNG."""
    from watercolour_trainer.record.analyze import run
    from watercolour_trainer.record.report import table

    try:
        result, folder = run(run_dir)
    except ValueError as err:  # no rollouts; a missing file is a ConfigError, one line through main
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from err
    typer.echo(table(result))
    typer.echo(f"\nanalysis.json and analysis.png in {folder}")
    if paintings:
        from watercolour_env.rollout import rollouts_file
        from watercolour_trainer.record.analyze import load_rollouts, thirds
        from watercolour_trainer.record.paintings import thirds_picture

        rows = load_rollouts(rollouts_file(Path(run_dir)))
        parts = thirds(sorted({r["step"] for r in rows}))
        picture = thirds_picture(rows, folder, parts, folder / "analysis-paintings.png")
        typer.echo(f"paintings of the thirds: {picture}" if picture else "no scored rollout to draw")


@app.command()
def gallery(
    run_dir: Path = typer.Argument(..., help="A run's output_dir (or its rollouts/ folder)."),
    top: int = typer.Option(24, min=0, help="Paintings on the wall of the best."),
    render: bool = typer.Option(False, help="Render the scored rollouts' missing paintings from their sketches."),
) -> None:
    """Rebuild a run's gallery.html: the best paintings, every rollout sortable and filterable."""
    from watercolour_trainer.record.gallery import rebuild

    page = rebuild(run_dir, top, render)  # a missing rollouts.jsonl is a ConfigError: one line and exit 2 through main
    typer.echo(f"gallery: {page.resolve()}")


@app.command(context_settings=EXTRA_ARGS)
def demo(ctx: typer.Context) -> None:
    """Start a server on loopback, train 2 GRPO steps from the shipped warm start, stop the server.

    Flags after `demo` go to the trainer and win over the demo's (`--max_steps 1`, `--adapter DIR`);
    `watercolour train --help` lists them.
    """
    require_extra("train")
    from watercolour_trainer.demo import run_demo

    run_demo(list(ctx.args))


def _bench_names() -> list[str]:
    return sorted(path.stem for path in (REPO / "bench").glob("*.py") if not path.stem.startswith("_"))


@app.command(context_settings=EXTRA_ARGS, add_help_option=False)  # NAME --help goes to the script
def bench(
    ctx: typer.Context,
    name: str = typer.Argument(None, help="A script of bench/: render, gate, sft_gate_pass, ..."),
) -> None:
    """Run a benchmark script from bench/ of a source checkout (`watercolour bench NAME --help`: its flags)."""
    import re
    import runpy
    import sys

    if name in (None, "--help", "-h"):
        typer.echo(ctx.get_help())
        typer.echo(f"\nbenchmarks: {', '.join(_bench_names()) or 'none here (they run from a source checkout)'}")
        return
    script = REPO / "bench" / f"{name}.py"
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", name) or not script.is_file():
        names = _bench_names()
        where = f"there are: {', '.join(names)}" if names else "benchmarks run from a source checkout"
        raise typer.BadParameter(f"no benchmark bench/{name}.py; {where}")
    sys.argv = [f"watercolour bench {name}", *ctx.args]  # argparse's prog
    runpy.run_path(str(script), run_name="__main__")


@app.command("eval")
def evaluate(
    env_url: str = typer.Option("http://127.0.0.1:8000", help="The environment server."),
    model: str = typer.Option("smollm2-135m-instruct", help="The policy: the embedded one, a .gguf, an id or folder."),
    adapter: str = typer.Option(None, help="A LoRA adapter folder: `watercolour sft`'s, a run's, a checkpoint."),
    replies: Path = typer.Option(
        None, exists=True, dir_okay=False, help="Step these replies instead of sampling (an eval's JSON, or JSONL)."
    ),
    seeds: int = typer.Option(8, min=1, help="Episodes per subject (seeds FIRST_SEED..FIRST_SEED+N-1)."),
    first_seed: int = typer.Option(0, min=0, help="The first seed; past a run's n_prompts, seeds it never trained on."),
    subject: list[str] = typer.Option(None, help="What to paint (repeatable); the server's default when omitted."),
    weights: str = typer.Option(None, help='Reward weights per episode: a preset or JSON, e.g. {"gate": 1}.'),
    temperature: float = typer.Option(1.0, min=0.01, help="Sampling temperature."),
    max_new_tokens: int = typer.Option(1600, min=1, help="The longest reply, in tokens."),
    parallel: int = typer.Option(4, min=1, help="Episodes stepped at once."),
    sheets: Path = typer.Option(
        None, file_okay=False, help="Write a contact sheet a subject here, and count its distinct paintings."
    ),
    out: Path = typer.Option(
        Path("runs/eval/eval.json"), callback=output_path, help="Where to write every episode and the summary."
    ),
) -> None:
    """Score a policy over seeds and subjects: gate-pass rate, reward distribution, components.

    Compare two checkpoints with two --adapter runs; compare two pools by sending one eval's
    replies (--replies its JSON) to two servers. Exits 3 when every episode went unscored.
    """
    require_extra("train")
    from watercolour_trainer import evaluate as ev

    if replies is not None and replies.resolve() == out.resolve():
        raise typer.BadParameter(f"{out} is the --replies file; give --out another path", param_hint="--out")
    if replies is not None:  # read before the client's imports (OpenEnv, ~3 s): a bad file is refused at once
        episodes = ev.read_replies(replies)
    from watercolour_env.client import parse_reward_weights

    parsed = parse_reward_weights(weights)
    if replies is not None:
        about = {"replies": str(replies)}
    else:
        asked = ev.prompts(env_url, subject or [None])  # None: the server's default subject
        episodes = ev.generate(model, adapter, asked, seeds, temperature, max_new_tokens, first_seed)
        about = {
            "model": model,
            "adapter": adapter,
            "seeds": seeds,
            "first_seed": first_seed,
            "temperature": temperature,
            "max_new_tokens": max_new_tokens,
        }
    pngs = ev.step_all(env_url, episodes, parsed, parallel, images=sheets is not None)
    summary = ev.summarise(episodes)
    subjects = list(dict.fromkeys(e.subject for e in episodes))
    if len(subjects) > 1:
        summary["by_subject"] = {s: ev.summarise([e for e in episodes if e.subject == s]) for s in subjects}
    if sheets is not None:
        summary["sheets"] = ev.write_sheets(sheets, episodes, pngs)
    ev.write(out, summary, episodes, {**about, "env_url": env_url, "weights": parsed})
    typer.echo(ev.table(summary, adapter or model if replies is None else str(replies)))
    for name, part in summary.get("by_subject", {}).items():
        typer.echo(ev.table(part, f"  {name}"))
    for name, drawn in summary.get("sheets", {}).items():
        typer.echo(f"{name}: {drawn['distinct']} distinct paintings of {drawn['painted']}, {drawn['sheet']}")
    typer.echo(f"every episode: {out}")
    if summary["unscored"] == summary["episodes"]:
        typer.echo(
            "error: every episode went unscored (a render or a scorer failed; `status` in the JSON); try again",
            err=True,
        )
        raise typer.Exit(3)


def main() -> None:
    """Console entry point (`watercolour`): one-line errors, exit 2, as `watercolour_env.cli.main`."""
    _env_main()


if __name__ == "__main__":
    main()
