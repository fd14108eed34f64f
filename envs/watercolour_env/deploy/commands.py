"""`watercolour deploy env|hpsv3`: the command line of a deploy, mounted by `watercolour_env.cli`."""

from __future__ import annotations

from pathlib import Path

import typer

from watercolour_env.errors import require_extra

deploy_app = typer.Typer(
    help="Deploy the environment or the HPSv3 scorer as a Hugging Face Space.", no_args_is_help=True
)
DRY_RUN_HELP = "Write the Space folder to DIR/space and the Hub calls to DIR/calls.json; send nothing."


@deploy_app.command("env")
def deploy_env(
    space: str = typer.Option(..., help="USER/NAME of the environment Space."),
    pool: str = typer.Option(
        None, help="WATERCOLOUR_POOL: a Hub dataset USER/NAME@REVISION; the starter pool when omitted."
    ),
    preset: str = typer.Option(None, help="WATERCOLOUR_PRESET: hps-only, judge-led, hps-led, ..."),
    hardware: str = typer.Option(
        None, help="Space hardware: cpu-upgrade (8 vCPU, paid) for a new Space; none requested for a copy."
    ),
    replicas: int = typer.Option(1, help="Deploy NAME-1..NAME-N (N up to 64), for the trainer's --env-replicas N."),
    private: bool = typer.Option(False, "--private", help="Create the Space private (clients send an HF token)."),
    sleep_after: int = typer.Option(None, help="Seconds idle before the Space sleeps (Hub default when omitted)."),
    settings: list[str] = typer.Option([], "--set", help="Another variable, WATERCOLOUR_KEY=VALUE (repeatable)."),
    duplicate_from: str = typer.Option(None, help="USER/NAME of an environment Space to copy instead of uploading."),
    dry_run: Path = typer.Option(None, metavar="DIR", help=DRY_RUN_HELP),
) -> None:
    """Create or update the environment Space: upload the image's sources, set variables, secrets, hardware.

    Credentials are read from your environment and set only as secrets: WATERCOLOUR_API_TOKEN,
    WATERCOLOUR_HPSV3_TOKEN, WATERCOLOUR_JUDGE_TOKEN, and SPACE_HF_TOKEN as the Space's HF_TOKEN
    (a read token, for a private pool; your own HF_TOKEN is never passed on).
    """
    require_extra("server")
    from watercolour_env.deploy.calls import deploy
    from watercolour_env.deploy.plan import plan_env

    def build(folder: Path | None):  # noqa: ANN202
        return plan_env(
            space,
            folder=folder,
            pool=pool,
            preset=preset,
            hardware=hardware,
            replicas=replicas,
            private=private,
            sleep_after=sleep_after,
            settings=settings,
            duplicate_from=duplicate_from,
        )

    warn = lambda line: typer.echo(line, err=True)  # noqa: E731
    deploy("env", dry_run, build, typer.echo, upload=duplicate_from is None, warn=warn)


@deploy_app.command("hpsv3")
def deploy_hpsv3(
    space: str = typer.Option(..., help="USER/NAME of the scorer Space."),
    hardware: str = typer.Option("l4x1", help="A GPU with 24 GB or more: l4x1, a10g-large, a100-large, ..."),
    sleep_after: int = typer.Option(3600, help="Seconds idle before the GPU Space sleeps and stops billing."),
    private: bool = typer.Option(False, "--private", help="Create the Space private."),
    settings: list[str] = typer.Option([], "--set", help="Another variable, HPSV3_KEY=VALUE (repeatable)."),
    dry_run: Path = typer.Option(None, metavar="DIR", help=DRY_RUN_HELP),
) -> None:
    """Create or update the HPSv3 scorer Space on a GPU; HPSV3_API_TOKEN from your environment becomes its secret."""
    require_extra("server")
    from watercolour_env.deploy.calls import deploy
    from watercolour_env.deploy.plan import plan_hpsv3

    def build(folder: Path | None):  # noqa: ANN202
        return plan_hpsv3(
            space, folder=folder, hardware=hardware, sleep_after=sleep_after, private=private, settings=settings
        )

    deploy("hpsv3", dry_run, build, typer.echo, warn=lambda line: typer.echo(line, err=True))
