"""The one `watercolour` console script: the environment's commands plus the trainer's.

Composed here, where both packages are visible: `watercolour_env.cli` has render, serve, episode
and pool; this adds train, sft, analyze, gallery, demo and bench. The heavy imports (torch, TRL) happen inside the
commands, so an install without the `train` extra still serves and renders.
"""

from __future__ import annotations

from pathlib import Path

import typer

from watercolour_env.cli import app
from watercolour_env.cli import main as _env_main

REPO = Path(__file__).resolve().parents[1]
EXTRA_ARGS = {"allow_extra_args": True, "ignore_unknown_options": True}


@app.command(context_settings=EXTRA_ARGS)
def train(ctx: typer.Context) -> None:
    """Run GRPO against an environment server (arguments as in `python -m watercolour_trainer.train`)."""
    try:
        from watercolour_trainer.train import main as train_main
    except ImportError as err:
        raise typer.BadParameter(f"the trainer needs the `train` extra: pip install -e '.[train]' ({err})") from err
    from watercolour_env.errors import ConfigError

    try:
        train_main(list(ctx.args))
    except ConfigError as err:  # a refused configuration: the server's message, not a traceback
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from err


@app.command(context_settings=EXTRA_ARGS)
def sft(ctx: typer.Context) -> None:
    """Fine-tune a LoRA adapter on a pool's sketches (arguments as in `python -m watercolour_trainer.sft`)."""
    try:
        from watercolour_trainer.sft import main as sft_main
    except ImportError as err:
        raise typer.BadParameter(f"sft needs the `train` extra: pip install -e '.[train]' ({err})") from err
    from watercolour_env.errors import ConfigError

    try:
        sft_main(list(ctx.args))
    except ConfigError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from err


@app.command()
def analyze(run_dir: Path = typer.Argument(..., help="A run's output_dir (or its rollouts/ folder).")) -> None:
    """Did the run learn? Reward by third, slope and t, where the rise came from; writes JSON and a PNG."""
    from watercolour_trainer.analyze import run, table

    try:
        result, folder = run(run_dir)
    except ValueError as err:  # no rollouts; a missing file is a ConfigError, one line through main
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from err
    typer.echo(table(result))
    typer.echo(f"\nanalysis.json and analysis.png in {folder}")


@app.command()
def gallery(
    run_dir: Path = typer.Argument(..., help="A run's output_dir (or its rollouts/ folder)."),
    top: int = typer.Option(24, min=0, help="Paintings on the wall of the best."),
) -> None:
    """Rebuild a run's gallery.html: the best paintings, every rollout sortable and filterable."""
    from watercolour_trainer.gallery import rebuild

    page = rebuild(run_dir, top)  # a missing rollouts.jsonl is a ConfigError: one line and exit 2 through main
    typer.echo(f"gallery: {page.resolve()}")


@app.command(context_settings=EXTRA_ARGS)
def demo(ctx: typer.Context) -> None:
    """Start a server on loopback, train 2 GRPO steps from the shipped warm start, stop the server."""
    try:
        from watercolour_trainer.demo import run_demo
    except ImportError as err:
        raise typer.BadParameter(f"the demo needs the `train` extra: pip install -e '.[train]' ({err})") from err
    run_demo(list(ctx.args))


@app.command(context_settings=EXTRA_ARGS)
def bench(ctx: typer.Context, name: str = typer.Argument(..., help="Which benchmark: render.")) -> None:
    """Run a benchmark script from bench/ of a source checkout (e.g. `watercolour bench render`)."""
    import runpy
    import sys

    script = REPO / "bench" / f"{name}.py"
    if not script.is_file():
        raise typer.BadParameter(f"no benchmark {script}; benchmarks run from a source checkout")
    sys.argv = [str(script), *ctx.args]
    runpy.run_path(str(script), run_name="__main__")


def main() -> None:
    """Console entry point (`watercolour`): one-line errors, exit 2, as `watercolour_env.cli.main`."""
    _env_main()


if __name__ == "__main__":
    main()
