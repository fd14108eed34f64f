"""The environment's commands: render, serve, episode, audit, oracle, prompt; `pool` and `deploy` mounted.

The `watercolour` console script is `watercolour_trainer.cli`, which adds the trainer's commands
(train, sft, eval, analyze, gallery, demo, bench) to these; this package never imports the trainer.
"""

from __future__ import annotations

import base64
import json
import logging
from pathlib import Path

import typer

from watercolour_env.audit.command import audit_command
from watercolour_env.curate.commands import pool_app
from watercolour_env.deploy.commands import deploy_app
from watercolour_env.errors import ConfigError, read_text
from watercolour_env.limits import DEFAULT_RENDER_DEADLINE_S, MAX_RENDER_DEADLINE_S, MAX_REVISIONS, MAX_SEED
from watercolour_env.pool import STARTER_POOL

app = typer.Typer(
    help="Teach language models to paint watercolours with p5.brush.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)


def main() -> None:
    """Console entry point: any failure prints one line and exits with the README's code (`failures`)."""
    import traceback

    from watercolour_env.failures import ExitCode, one_line

    try:
        app()
    except SystemExit as done:  # typer turns Ctrl+C into a silent exit 130
        if done.code == ExitCode.INTERRUPTED:
            typer.echo(f"error: {one_line(KeyboardInterrupt())[0]}", err=True)
        raise
    except Exception as err:  # noqa: BLE001 - the one place every failure becomes a line
        line, code = one_line(err)
        if code is ExitCode.BROKE and logging.getLogger().isEnabledFor(logging.INFO):
            traceback.print_exception(err)
        typer.echo(f"error: {line}", err=True)
        raise SystemExit(code) from None


def output_path(path: Path | None) -> Path | None:
    """Refuses, before any work, an output path that is a folder or lies under a file."""
    if path is None:
        return None
    if path.is_dir():
        raise typer.BadParameter(f"{path} is a folder; give a file path")
    parent = next((p for p in path.parents if p.exists()), None)
    if parent is not None and not parent.is_dir():
        raise typer.BadParameter(f"{parent} is a file, so {path} cannot be written under it")
    return path


def _deadline(seconds: float) -> float:
    """Refuses a render deadline that is not a number of seconds in (0, 300]."""
    if not 0 < seconds <= MAX_RENDER_DEADLINE_S:  # also NaN
        raise typer.BadParameter(f"{seconds} is not a deadline in (0, {MAX_RENDER_DEADLINE_S:.0f}] seconds")
    return seconds


app.add_typer(pool_app, name="pool")
app.add_typer(deploy_app, name="deploy")


@app.callback()
def _main(verbose: bool = typer.Option(False, "--verbose", "-v", help="Log at INFO level.")) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    if not verbose:  # the Hub client's retries repeat one cause ten times; the failure's own line names it
        import os

        os.environ.setdefault("HF_HUB_VERBOSITY", "error")  # read when huggingface_hub is first imported
        logging.getLogger("huggingface_hub").setLevel(logging.ERROR)


@app.command()
def render(
    sketch: Path = typer.Argument(..., exists=True, dir_okay=False, help="A p5.js sketch file."),
    seed: int = typer.Option(0, min=0, max=MAX_SEED, help="Seed of Math.random in [0, 2**32)."),
    out: Path = typer.Option(
        None, callback=output_path, help="Where to write the PNG; next to the sketch when omitted."
    ),
    deadline_s: float = typer.Option(
        DEFAULT_RENDER_DEADLINE_S, callback=_deadline, help="Seconds before the render is abandoned, in (0, 300]."
    ),
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
    with Renderer.from_settings(settings, workers=1, deadline_s=deadline_s) as renderer:
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
    if result.status is RenderStatus.INFRA_ERROR:
        typer.echo(f"error: the renderer failed ({result.detail}); try again", err=True)
        raise typer.Exit(3)
    if result.status is not RenderStatus.OK:
        typer.echo(
            f"error: {result.status.value}: {result.detail or 'the sketch failed'}; fix the sketch "
            "(its errors are in js_errors above)",
            err=True,
        )
        raise typer.Exit(1)


@app.command()
def serve(
    host: str = typer.Option(None, help="Interface to bind; WATERCOLOUR_HOST or 127.0.0.1."),
    port: int = typer.Option(None, min=1, max=65535, help="Port; WATERCOLOUR_PORT or 8000."),
    warm_only: bool = typer.Option(
        False,
        "--warm-only",
        help="Fit the scorers and ready the copy guard on the pool, keeping what they compute from its paintings in "
        "WATERCOLOUR_CACHE_DIR, then exit without serving (the image build runs it).",
    ),
) -> None:
    """Start the environment server (OpenEnv websocket at /ws)."""
    from watercolour_env.errors import require_extra

    require_extra("server")
    from watercolour_env.server.app import main, warm

    if warm_only:
        typer.echo(warm())
        return
    main(host=host, port=port)


@app.command()
def episode(
    reply_files: list[Path] = typer.Argument(
        ...,
        exists=True,
        dir_okay=False,
        help="A model reply or a bare sketch; several make an episode with revisions, painted in order.",
    ),
    env_url: str = typer.Option("http://127.0.0.1:8000", help="Environment server URL."),
    seed: int = typer.Option(0, min=0, max=MAX_SEED, help="Render seed, in [0, 2**32)."),
    subject: str = typer.Option(None, help="What to paint; the server default when omitted."),
    weights: str = typer.Option(None, help='Reward weights: a preset (hps-led, ...) or JSON, e.g. {"gate": 1}.'),
    out: Path = typer.Option(None, callback=output_path, help="Write the (last) painting here as PNG."),
) -> None:
    """Run one episode against a server and print the observation as JSON (without the PNG).

    With several replies, the episode has one revision per reply after the first: it prints
    one JSON list of every turn's observation: each with its critique, the last with the reward.
    Exits 0 with a verdict (scored or rejected by the gate), 3 when the episode went unscored
    (status infra_error: a render or a scorer failed), 2 when the server refuses the request.
    """
    from watercolour_env import EpisodeStatus, WatercolourAction, WatercolourEnv
    from watercolour_env.client import parse_reward_weights, server_error, talking_to

    parsed = parse_reward_weights(weights)
    options = {} if parsed is None else {"weights": parsed}
    replies = [read_text(path, "a model reply or a p5.js sketch") for path in reply_files]
    if len(replies) > MAX_REVISIONS + 1:
        raise ConfigError(f"{len(replies)} reply files: an episode paints at most {MAX_REVISIONS + 1} (1 + revisions)")
    if len(replies) > 1:
        options["revisions"] = len(replies) - 1
    observations = []
    with talking_to(env_url), WatercolourEnv(base_url=env_url).sync() as env:
        try:
            env.reset(seed=seed, subject=subject, return_image=out is not None, **options)
        except RuntimeError as err:
            frame = server_error(err)
            if len(replies) > 1 and frame and "WATERCOLOUR_MAX_REVISIONS" in frame[0]:
                raise ConfigError(f"{len(replies)} reply files are {len(replies) - 1} revisions: {frame[0]}") from None
            raise
        for reply in replies:
            result = env.step(WatercolourAction(reply=reply))
            observations.append(result.observation)
            if result.done:  # an infrastructure failure ends an episode early
                break
    observation = observations[-1]
    if out is not None and observation.image_png_b64:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(base64.b64decode(observation.image_png_b64))
    reports = [o.model_dump(mode="json", exclude={"image_png_b64", "system_prompt"}) for o in observations]
    reports[-1]["image"] = str(out) if out is not None and observation.image_png_b64 else None
    typer.echo(json.dumps(reports if len(replies) > 1 else reports[0], indent=2))
    if observation.status is EpisodeStatus.INFRA_ERROR:
        typer.echo(f"error: the episode went unscored ({observation.detail or 'infra_error'}); try again", err=True)
        raise typer.Exit(3)


app.command("audit")(audit_command)


@app.command()
def oracle(
    env_url: str = typer.Argument("http://127.0.0.1:8000", help="Environment server URL (a Space's, or local)."),
    env_url_option: str | None = typer.Option(None, "--env-url", help="The same URL, as episode and audit take it."),
) -> None:
    """Send the deployment's oracle (the love painting its pool.toml holds out) and check its reward.

    Prints the observation as JSON. Exits 0 when it scores at least 0.9 (OpenEnv's oracle
    tolerance of openenv.yaml), 1 below, 3 when the episode went unscored, 2 when the pool
    declares no oracle or the server cannot be asked (the token: WATERCOLOUR_API_TOKEN).
    """
    from watercolour_env.audit.oracle import ORACLE_FLOOR, run_oracle

    result = run_oracle(env_url_option or env_url)
    typer.echo(json.dumps(result.observation, indent=2))
    if result.reward is None:
        typer.echo(f"error: the oracle {result.id} went unscored ({result.observation['detail']}); try again", err=True)
        raise typer.Exit(3)
    verdict = "passes" if result.passed else "FAILS"
    why = (
        ""
        if result.observation["status"] == "scored"
        else f" ({result.observation['status']}: {result.observation['detail']})"
    )
    typer.echo(
        f"oracle {result.id} ({result.subject!r}): reward {result.reward:.3f}{why}, {verdict} (>= {ORACLE_FLOOR})",
        err=True,
    )
    if not result.passed:
        raise typer.Exit(1)


@app.command()
def prompt(
    subject: str = typer.Option(
        None,
        envvar="WATERCOLOUR_DEFAULT_SUBJECT",
        help="What to paint, as reset takes it (1-200 printable characters); the pool's subject when omitted.",
    ),
    pool: str = typer.Option(
        str(STARTER_POOL), envvar="WATERCOLOUR_POOL", help="The pool whose subject and hint (pool.toml) to use."
    ),
) -> None:
    """Print the system prompt and the user prompt that reset hands a policy for SUBJECT."""
    from watercolour_env.options import ResetOptions
    from watercolour_env.pool import Pool
    from watercolour_env.prompt import system_prompt, user_prompt

    ResetOptions.check(subject=subject)  # the bounds a reset holds it to, in the server's words
    loaded = Pool.load(pool)
    asked = (subject or loaded.subject).strip()
    said = user_prompt(asked, hint=loaded.declaration.subject_hint(asked))
    typer.echo(f"{system_prompt(loaded.declaration.hint)}\n\n{said}")


if __name__ == "__main__":
    main()
