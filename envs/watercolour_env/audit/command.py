"""The `watercolour audit` command (its work is in `run.py`)."""

from __future__ import annotations

from pathlib import Path

import typer


def _output_path(path: Path | None) -> Path | None:
    """A --json path whose folder exists, or None."""
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    return path


def audit_command(
    env_url: str = typer.Option("http://127.0.0.1:8000", help="Environment server URL (a Space's, or local)."),
    per_family: int = typer.Option(6, min=1, max=50, help="Formless probes per family."),
    workers: int = typer.Option(2, min=1, max=64, help="Episodes sent at once."),
    only: str = typer.Option(
        None,
        help="Send only these, comma-separated: formless, radial, copies, another subject, "
        "subject swap, comment padding, dead-code padding, honest (control).",
    ),
    json_out: Path = typer.Option(None, "--json", callback=_output_path, help="Write the report here as JSON."),
    subject: str = typer.Option(
        None, help="The subject the probes ask for, one the pool covers (default: the deployment's)."
    ),
) -> None:
    """Send a deployment the probes a reward must not pay and print one table against its pool.

    Formless families, radial things that are no flower, copies of the
    deployment's own pool, paintings of other subjects, a subject swap,
    comment and dead-code padding, and honest controls: each family's best
    reward against the pool's tier medians under the same reward. Exits 1
    when a probe family reaches the okay median, 2 when the server cannot
    be asked (the token: WATERCOLOUR_API_TOKEN).
    """
    from watercolour_env.audit.run import GROUPS, table, to_json
    from watercolour_env.audit.run import audit as run_audit
    from watercolour_env.client import talking_to

    groups = GROUPS if only is None else tuple(g.strip() for g in only.split(","))
    if unknown := set(groups) - set(GROUPS):
        typer.echo(f"error: --only {', '.join(sorted(unknown))}: choose among {', '.join(GROUPS)}", err=True)
        raise typer.Exit(2)

    with talking_to(env_url):  # a server that refuses or is not there: one line, exit 2 (`fetch_pool`)
        report, rows = run_audit(env_url, per_family=per_family, workers=workers, only=groups, subject=subject)
    typer.echo(table(report, rows))
    if json_out is not None:
        json_out.write_text(to_json(report, rows))
    if any(row.verdict == "FAIL" for row in rows):
        raise typer.Exit(1)
