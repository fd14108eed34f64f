"""A deploy's plan carried out: assemble the Space's folder, then make its calls or record them.

`deploy` runs every check of the plan (`watercolour_env.deploy.plan`) before anything is written;
`--dry-run DIR` writes the folder and `calls.json` and sends nothing, otherwise `execute` makes the
calls on the Hub with the deployer's token.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from watercolour_env.deploy.plan import Plan
from watercolour_env.deploy.space_folder import assemble, uncommitted
from watercolour_env.errors import ConfigError


def write_dry_run(plan: Plan, out: Path) -> Path:
    """Writes `out/calls.json` (secrets masked) beside the folder already in `out/space`; returns the file."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "calls.json"
    path.write_text(json.dumps(plan.shown(), indent=2) + "\n")
    return path


def execute(plan: Plan, echo: Callable[[str], None] = print, api: Any = None) -> None:  # noqa: ANN401
    """Makes the plan's calls on the Hub with the deployer's token (HF_TOKEN or `hf auth login`).

    Raises:
        ConfigError: no token, or a call the Hub refused (its message, one line).
    """
    import httpx2  # huggingface_hub's HTTP client
    from huggingface_hub import HfApi, get_token
    from huggingface_hub.errors import HfHubHTTPError

    if api is None:
        if not get_token():
            raise ConfigError("no Hugging Face token: run `hf auth login` or set HF_TOKEN (a token with write access)")
        api = HfApi()
    for done, (shown, (name, args)) in enumerate(zip(plan.shown(), plan.calls, strict=True)):
        echo(f"{name}({', '.join(f'{k}={v!r}' for k, v in shown['args'].items())})")
        try:
            getattr(api, name)(**args)
        except (HfHubHTTPError, httpx2.HTTPError, OSError) as err:
            what = "refused" if isinstance(err, HfHubHTTPError) else "did not answer"
            first_line = str(err).splitlines()[0] if str(err) else type(err).__name__
            raise ConfigError(
                f"the Hub {what} {name} for {args.get('repo_id') or args.get('to_id')} ({first_line}); "
                f"{done} of {len(plan.calls)} calls were made, and the same command finishes the deploy"
            ) from err


def deploy(
    kind: str,
    dry_run: Path | None,
    build_plan: Callable[[Path | None], Plan],
    echo: Callable[[str], None] = print,
    upload: bool = True,
    warn: Callable[[str], None] | None = None,
) -> Plan:
    """Plans (every check before anything is written), assembles the folder, then sends or records.

    The folder goes to `dry_run/space` in a dry run, else to a temporary folder. `upload=False` (a
    duplicate) assembles nothing: the Space's files come from the original. Warnings go to `warn`
    (`echo` by default), one line each, before any call.
    """
    warn = warn or echo

    def planned(folder: Path | None, checked: Callable[[], None] = lambda: None) -> Plan:
        plan = build_plan(folder)  # every check of the settings, before anything is written
        checked()
        changed = uncommitted(kind) if upload else []
        if changed:
            plan.warnings.append(f"{len(changed)} files with uncommitted changes go up as they are now: {changed[0]}")
        for line in plan.warnings:
            warn(f"warning: {line}")
        return plan

    def make_dry_run_folder() -> None:
        try:
            dry_run.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise ConfigError(f"--dry-run {dry_run}: cannot make that folder ({err.strerror})") from err

    if dry_run is not None:
        if dry_run.exists() and not dry_run.is_dir():
            raise ConfigError(f"--dry-run {dry_run} is a file; give a folder")
        if (dry_run / "calls.json").exists():
            raise ConfigError(f"--dry-run {dry_run} holds an earlier dry run (calls.json); give a new folder")
        folder = dry_run / "space"
        plan = planned(folder if upload else None, make_dry_run_folder)
        if upload:
            assemble(kind, folder)
        for call in plan.shown():
            echo(f"{call['call']}({', '.join(f'{k}={v!r}' for k, v in call['args'].items())})")
        written = write_dry_run(plan, dry_run)
        echo(f"dry run: nothing sent; the calls are in {written}" + (f", the folder in {folder}" if upload else ""))
        return plan
    if not upload:
        plan = planned(None)
        execute(plan, echo)
        return plan
    with tempfile.TemporaryDirectory(prefix=f"watercolour-{kind}-space-") as tmp:
        folder = Path(tmp) / "space"
        plan = planned(folder)
        assemble(kind, folder)
        execute(plan, echo)
    return plan
