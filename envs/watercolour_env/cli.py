"""The environment's commands: render a sketch, serve the environment, run an episode, build a pool.

The `watercolour` console script is `watercolour_trainer.cli`, which adds the trainer's commands
(train, demo, bench) to these; this package never imports the trainer.
"""

from __future__ import annotations

import base64
import json
import logging
from pathlib import Path

import typer

from watercolour_env.pool import STARTER_POOL
from watercolour_env.server.prompt import DEFAULT_SUBJECT

app = typer.Typer(
    help="Teach language models to paint watercolours with p5.brush.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)


def main() -> None:
    """Console entry point: project errors (bad settings, no browser, an extra not installed) print one line, exit 2."""
    from watercolour_env.errors import WatercolourError, missing_extra

    try:
        app()
    except WatercolourError as err:
        typer.echo(f"error: {err}", err=True)
        raise SystemExit(2) from None
    except ModuleNotFoundError as err:
        line = missing_extra(err)
        if line is None:
            raise
        typer.echo(f"error: {line}", err=True)
        raise SystemExit(2) from None


def read_text(path: Path, wanted: str) -> str:
    """The UTF-8 text of `path`; a file that is not text is a ConfigError saying what to give instead."""
    from watercolour_env.errors import ConfigError

    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ConfigError(f"{path} is not a text file; give {wanted}") from err


pool_app = typer.Typer(help="Build a reference pool: render sketches, see the tiers at a glance.", no_args_is_help=True)
app.add_typer(pool_app, name="pool")


@pool_app.callback()
def _pool() -> None:
    from watercolour_env.errors import require_extra

    require_extra("server")


@app.callback()
def _main(verbose: bool = typer.Option(False, "--verbose", "-v", help="Log at INFO level.")) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )


@app.command()
def render(
    sketch: Path = typer.Argument(..., exists=True, dir_okay=False, help="A p5.js sketch file."),
    seed: int = typer.Option(0, help="Seed of Math.random in [0, 2**32)."),
    out: Path = typer.Option(None, help="Where to write the PNG; next to the sketch when omitted."),
    deadline_s: float = typer.Option(20.0, help="Seconds before the render is abandoned."),
) -> None:
    """Render one sketch to a 600x600 PNG and print the result as JSON.

    Exits 0 when the sketch ran to the end, 1 when it threw or ran out of time (`status` says
    which), 2 when the file is not a text file or a setting is wrong, 3 when the renderer failed.
    """
    from watercolour_env.errors import require_extra

    require_extra("server")
    from watercolour_env.server.sandbox import Renderer, RenderStatus
    from watercolour_env.server.settings import load_settings

    source = read_text(sketch, "a p5.js sketch")
    settings = load_settings()
    out = out or sketch.with_suffix(".png")
    with Renderer(
        workers=1, deadline_s=deadline_s, chromium_path=settings.chromium_path,
        network_namespace=settings.render_network_namespace,
    ) as renderer:  # fmt: skip
        result = renderer.render(source, seed=seed)
    if result.png:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(result.png)
    report = {
        "status": result.status.value,
        "paint_fraction": round(result.paint_fraction, 4),
        "elapsed_ms": round(result.elapsed_ms, 1),
        "finished": result.finished,
        "js_errors": result.js_errors,
        "blocked": [f"{name} ({what})" for name, what in result.violations],
        "renderer": result.renderer,
        "output": str(out) if result.png else None,
        "detail": result.detail,
    }
    typer.echo(json.dumps(report, indent=2))
    if result.status is not RenderStatus.OK:
        raise typer.Exit(3 if result.status is RenderStatus.INFRA_ERROR else 1)


@app.command()
def serve(
    host: str = typer.Option(None, help="Interface to bind; WATERCOLOUR_HOST or 127.0.0.1."),
    port: int = typer.Option(None, min=1, max=65535, help="Port; WATERCOLOUR_PORT or 8000."),
) -> None:
    """Start the environment server (OpenEnv websocket at /ws)."""
    from watercolour_env.errors import require_extra

    require_extra("server")
    from watercolour_env.server.app import main

    main(host=host, port=port)


@app.command()
def episode(
    reply_file: Path = typer.Argument(..., exists=True, dir_okay=False, help="A model reply or a bare sketch."),
    env_url: str = typer.Option("http://127.0.0.1:8000", help="Environment server URL."),
    seed: int = typer.Option(0, help="Render seed."),
    subject: str = typer.Option(None, help="What to paint; the server default when omitted."),
    weights: str = typer.Option(None, help='Reward weights: a preset (hps-led, ...) or JSON, e.g. {"gate": 1}.'),
    out: Path = typer.Option(None, help="Write the painting here as PNG."),
) -> None:
    """Run one episode against a server and print the observation as JSON (without the PNG).

    Exits 0 with a verdict (scored or rejected by the gate), 3 when the episode went unscored
    (status infra_error: a render or a scorer failed), 2 when the server refuses the request.
    """
    from watercolour_env import EpisodeStatus, WatercolourAction, WatercolourEnv
    from watercolour_env.client import connection_problem, parse_reward_weights
    from watercolour_env.errors import WatercolourError

    parsed = parse_reward_weights(weights)
    options = {} if parsed is None else {"weights": parsed}
    reply = read_text(reply_file, "a model reply or a p5.js sketch")
    try:
        with WatercolourEnv(base_url=env_url).sync() as env:
            try:
                env.reset(seed=seed, subject=subject, return_image=out is not None, **options)
            except RuntimeError as err:  # the server's refusal, e.g. weights for a scorer it lacks
                raise WatercolourError(f"the server refused the episode: {err}") from err
            result = env.step(WatercolourAction(reply=reply))
    except ConnectionError as err:
        raise WatercolourError(connection_problem(err, env_url)) from err
    observation = result.observation
    if out is not None and observation.image_png_b64:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(base64.b64decode(observation.image_png_b64))
    report = observation.model_dump(mode="json", exclude={"image_png_b64", "system_prompt"})
    report["image"] = str(out) if out is not None and observation.image_png_b64 else None
    typer.echo(json.dumps(report, indent=2))
    if observation.status is EpisodeStatus.INFRA_ERROR:
        typer.echo(f"error: the episode went unscored ({observation.detail or 'infra_error'}); try again", err=True)
        raise typer.Exit(3)


@pool_app.command("render")
def pool_render(
    folder: Path = typer.Argument(..., exists=True, file_okay=False, help="Pool folder with sketches/*.js."),
    workers: int = typer.Option(None, help="Parallel renders; the CPU count when omitted."),
    seed: int = typer.Option(0, help="Render seed of new paintings."),
) -> None:
    """Render every sketch of a pool folder (parallel, resumable) and update pool.jsonl.

    A sketch the environment's gate rejects is left out of the pool and named; then the exit code is 1.
    """
    from watercolour_env.pool.render import render_folder
    from watercolour_env.server.sandbox import Renderer
    from watercolour_env.server.settings import load_settings

    settings = load_settings()
    with Renderer(
        workers=workers or settings.render_workers, chromium_path=settings.chromium_path,
        network_namespace=settings.render_network_namespace,
    ) as renderer:  # fmt: skip
        summary = render_folder(folder, renderer, seed=seed)
    typer.echo(f"rendered {len(summary.rendered)}, up to date {len(summary.skipped)}, failed {len(summary.failed)}")
    for name, reason in summary.failed.items():
        typer.echo(f"  {name}: {reason}")
    if summary.failed:
        typer.echo(f"error: {len(summary.failed)} sketches were left out of the pool (above); fix or remove them",
                   err=True)  # fmt: skip
        raise typer.Exit(1)


@pool_app.command("add")
def pool_add(
    run_dir: Path = typer.Argument(..., exists=True, file_okay=False, help="A run's output_dir (or rollouts/)."),
    into: Path = typer.Option(..., "--into", file_okay=False, help="The pool folder; created when missing."),
    min_reward: float = typer.Option(0.0, min=0.0, max=1.0, help="Least reward a painting needs."),
) -> None:
    """Add a run's scored paintings to a pool as unrated candidates (then: watercolour pool rate POOL)."""
    from watercolour_env.pool.collect import add_rollouts

    summary = add_rollouts(run_dir, into, min_reward)
    left_out = ", ".join(f"{n} {why}" for why, n in sorted(summary.left_out.items())) or "none"
    typer.echo(f"added {len(summary.added)} unrated paintings to {into}, already there {len(summary.present)}, "
               f"left out: {left_out}")  # fmt: skip
    if summary.added:
        typer.echo(f"rate them: watercolour pool rate {into}")


@pool_app.command("rate")
def pool_rate(
    folder: Path = typer.Argument(..., exists=True, file_okay=False, help="A rendered pool folder."),
    port: int = typer.Option(8765, help="Port on 127.0.0.1."),
) -> None:
    """Rate a pool in the browser: 1 love, 2 okay, 3 nope, u undo, s skip; saved on every key."""
    import uvicorn

    from watercolour_env.pool.rating import rating_app

    typer.echo(f"Open http://127.0.0.1:{port}/ to rate {folder}; Ctrl+C to stop (ratings are already saved).")
    uvicorn.run(rating_app(folder), host="127.0.0.1", port=port, log_level="warning")


@pool_app.command("generate")
def pool_generate(
    out: Path = typer.Argument(..., file_okay=False, help="Output folder (an unrated pool)."),
    model: list[str] = typer.Option(..., "--model", help="Painter model; repeat for several."),
    base_url: str = typer.Option("https://router.huggingface.co/v1", help="OpenAI-compatible endpoint."),
    api_key_env: str = typer.Option("HF_TOKEN", help="Environment variable holding the endpoint's token."),
    critic_model: str = typer.Option(None, help="Vision model that critiques each render; off when omitted."),
    rounds: int = typer.Option(1, min=1, help="Refinement rounds per sketch (needs --critic-model)."),
    per_model: int = typer.Option(4, min=1, help="Sketches per painter model."),
    subject: str = typer.Option(DEFAULT_SUBJECT, help="What to paint."),
) -> None:
    """Generate candidate sketches with chat models, refine them with a critic, render and gate them."""
    import os

    from openai import OpenAI

    from watercolour_env.pool.generate import Generator
    from watercolour_env.server.sandbox import Renderer
    from watercolour_env.server.settings import load_settings

    settings = load_settings()
    client = OpenAI(base_url=base_url, api_key=os.environ.get(api_key_env, "none"), max_retries=3, timeout=300)
    with Renderer(
        chromium_path=settings.chromium_path, network_namespace=settings.render_network_namespace
    ) as renderer:
        candidates = Generator(client, renderer, out, critic_model=critic_model).run(model, subject, per_model, rounds)
    passed = sum(c.passed for c in candidates)
    typer.echo(
        f"{len(candidates)} candidates, {passed} passed the gate -> {out} (rate them: watercolour pool rate {out})"
    )


@pool_app.command("calibrate")
def pool_calibrate(
    rollouts: Path = typer.Argument(..., exists=True, file_okay=False, help="A run's rollouts folder."),
    pool: str = typer.Option(str(STARTER_POOL), help="The pool: a folder or user/name@revision."),
    judge_model: str = typer.Option("Qwen/Qwen3-VL-30B-A3B-Instruct", help="Vision-language judge."),
    base_url: str = typer.Option("https://router.huggingface.co/v1", help="OpenAI-compatible endpoint."),
    api_key_env: str = typer.Option("HF_TOKEN", help="Environment variable holding the endpoint's token."),
    limit: int = typer.Option(16, help="Rollout paintings to use, the most recent."),
) -> None:
    """How often a policy's rollouts beat each reference under the judge (too easy? too hard?).

    Exits 2 without a token for the Hugging Face router, 3 when the judge resolved no comparison.
    """
    import os

    from openai import OpenAI

    from watercolour_env.errors import ConfigError
    from watercolour_env.pool import Pool
    from watercolour_env.pool.calibrate import calibrate, rollout_paintings, write_report
    from watercolour_env.server.reward.judge import PairwiseJudge

    token = os.environ.get(api_key_env)
    if not token and "huggingface.co" in base_url:
        raise ConfigError(f"the judge at {base_url} needs a token: set {api_key_env} (or name one with --api-key-env)")
    client = OpenAI(base_url=base_url, api_key=token or "none", max_retries=3, timeout=120)
    results = calibrate(Pool.load(pool), rollout_paintings(rollouts, limit), PairwiseJudge(client, judge_model))
    for r in results:
        rate = "unavailable" if r.rollout_win_rate is None else f"{r.rollout_win_rate:.2f}"
        typer.echo(f"{r.id:<28} {r.tier:<5} rollouts win {rate} ({r.resolved}/{r.comparisons} resolved)")
    write_report(results, rollouts / "calibration.json")
    typer.echo(f"report: {rollouts / 'calibration.json'}")
    if results and not any(r.resolved for r in results):
        typer.echo(f"error: the judge {judge_model} at {base_url} resolved no comparison; check the endpoint, "
                   "the model and its token", err=True)  # fmt: skip
        raise typer.Exit(3)


@pool_app.command("push")
def pool_push(
    folder: Path = typer.Argument(..., exists=True, file_okay=False, help="A rated pool folder."),
    repo_id: str = typer.Argument(..., help="Dataset id user/name on the Hugging Face Hub."),
    dry_run: Path = typer.Option(None, help="Write what would be uploaded to this folder instead."),
    private: bool = typer.Option(False, help="Create the dataset private."),
) -> None:
    """Upload a pool as a Hugging Face dataset with its card (token from HF_TOKEN or the cache)."""
    from watercolour_env.pool.hub import push

    files, revision = push(folder, repo_id, dry_run=dry_run, private=private)
    where = dry_run if dry_run is not None else f"https://huggingface.co/datasets/{repo_id}"
    typer.echo(f"{'wrote' if dry_run else 'uploaded'} {', '.join(map(str, files))} -> {where}")
    if revision:
        typer.echo(f"pin it: WATERCOLOUR_POOL={repo_id}@{revision}")


@pool_app.command("pull")
def pool_pull(
    spec: str = typer.Argument(..., help="A Hub dataset user/name, or user/name@revision to pin one; or a folder "
                               "`pool push --dry-run` wrote."),
    folder: Path = typer.Argument(..., file_okay=False, help="Where to write the pool folder."),
) -> None:
    """Download a pool dataset into a pool folder (images, sketches, pool.jsonl) to edit or rate again."""
    from watercolour_env.pool import Pool
    from watercolour_env.pool.hub import write_folder

    repo, _, revision = spec.partition("@")
    pool = Pool.from_hub(repo, revision or None)
    write_folder(pool, folder)
    typer.echo(f"{pool.counts()} -> {folder}")


@pool_app.command("sheet")
def pool_sheet(
    folder: Path = typer.Argument(..., exists=True, file_okay=False, help="A rendered pool folder."),
) -> None:
    """Write a contact sheet per tier and summary statistics under FOLDER/sheets/."""
    from watercolour_env.pool.render import contact_sheets

    summary = contact_sheets(folder)
    typer.echo(json.dumps(summary, indent=2))
    typer.echo(f"sheets: {folder / 'sheets'}")


if __name__ == "__main__":
    main()
