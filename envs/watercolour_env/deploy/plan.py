"""The plan of a deploy (`watercolour deploy`): every check, then the Hub calls it would make.

Each deployment of the environment or the HPSv3 scorer as a Hugging Face Docker Space is: assemble
the Space's folder from the checkout (its Dockerfile at the root, its card as README.md, the
sources the image copies; `space_folder`), then a short list of Hub calls made with
`huggingface_hub.HfApi`: create the Space, set its variables and secrets, request hardware and a
sleep time, upload the folder. `--dry-run DIR` makes no call: it writes the folder to
`DIR/space/`, every call with its arguments to `DIR/calls.json` (secret values masked) and prints
them (`calls`). The folder is the one the `docker` tests build, so the image tested is the one
deployed.

The environment's Space also carries `trainer/`: a training Job fetches the project's code from it
(docs/decisions/0004-one-training-command.md).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from watercolour_env.errors import ConfigError

if TYPE_CHECKING:
    from watercolour_env.server.settings import ServerSettings

MASK = "***"
# The Hub's repository ids (huggingface_hub.utils.validate_repo_id): ASCII, at most 96 a name.
SPACE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,95}/[A-Za-z0-9][A-Za-z0-9_.-]{0,95}", re.ASCII)
POOL_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,95}/[A-Za-z0-9][A-Za-z0-9_.-]{0,95}(@[A-Za-z0-9_./-]+)?", re.ASCII)
COMMIT = re.compile(r"[0-9a-f]{40}")
"""A commit id as the Hub gives it: the only revision that pins a pool (a branch or tag moves)."""
MAX_REPLICAS = 64
# GPUs under 24 GB, and ZeroGPU (not for Docker Spaces), cannot hold the HPSv3 scorer.
TOO_SMALL_FOR_HPSV3 = ("t4-small", "t4-medium", "zero-a10g")
# Settings that hold credentials: set on a Space only as secrets, read from the deployer's environment.
ENV_SECRETS = ("WATERCOLOUR_API_TOKEN", "WATERCOLOUR_HPSV3_TOKEN", "WATERCOLOUR_JUDGE_TOKEN")
HPSV3_SECRETS = ("HPSV3_API_TOKEN",)
# A read token the Space gets as its HF_TOKEN (to load a private pool), exported under this name.
SPACE_HF_TOKEN = "SPACE_HF_TOKEN"
ENV_HARDWARE = "cpu-upgrade"
HPSV3_HARDWARE = "l4x1"


@dataclass
class Plan:
    """One deployment: the folder to upload (None when duplicating) and the Hub calls, in order.

    Attributes:
        folder: the assembled Space folder, or None for `--duplicate-from` (nothing uploaded).
        calls: (method of HfApi, keyword arguments) pairs; the values of `add_space_secret`
            are real here and masked wherever a call is shown (`shown`).
        warnings: what deploys but deserves a second look (an open Space, an unpinned pool).
    """

    folder: Path | None
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def shown(self) -> list[dict[str, Any]]:
        """The calls as JSON-ready dicts, the value of every secret replaced by `***`."""
        shown = []
        for name, args in self.calls:
            args = {key: str(value) if isinstance(value, Path) else value for key, value in args.items()}
            if name == "add_space_secret":
                args["value"] = MASK
            shown.append({"call": name, "args": args})
        return shown


def _valid_id(value: str, pattern: re.Pattern) -> bool:
    return bool(pattern.fullmatch(value)) and ".." not in value and "--" not in value


def _space_names(space: str, replicas: int) -> list[str]:
    if not _valid_id(space, SPACE_ID):
        raise ConfigError(f"--space {space!r} is not USER/NAME (ASCII letters, digits, '-', '_', '.'; 96 at most)")
    if not 1 <= replicas <= MAX_REPLICAS:
        raise ConfigError(f"--replicas {replicas} must be between 1 and {MAX_REPLICAS}")
    names = [space] if replicas == 1 else [f"{space}-{i}" for i in range(1, replicas + 1)]
    if len(names[-1].split("/")[1]) > 96:
        raise ConfigError(f"--space {space!r}: {names[-1]} is longer than the Hub's 96 characters; shorten NAME")
    return names


def _check_sleep(sleep_after: int | None) -> None:
    if sleep_after is not None and sleep_after < 1:
        raise ConfigError(f"--sleep-after {sleep_after} must be a positive number of seconds (-1 would mean never)")


def _pairs(settings: list[str], secrets: tuple[str, ...]) -> dict[str, str]:
    """`KEY=VALUE` strings of `--set` as a dict; a credential among them is refused."""
    found = {}
    for item in settings:
        key, sep, value = item.partition("=")
        if not sep or not re.fullmatch(r"[A-Z][A-Z0-9_]*", key):
            raise ConfigError(f"--set {item!r} is not KEY=VALUE with an upper-case KEY")
        if key in secrets or key.endswith(("_TOKEN", "_KEY", "_SECRET")):
            raise ConfigError(f"--set {key}: credentials go in as secrets; export {key} and deploy again")
        found[key] = value
    return found


def _env_setting_names() -> set[str]:
    from watercolour_env.server.settings import settings_class

    return {f"WATERCOLOUR_{name.upper()}" for name in settings_class().model_fields}


def _known_names(variables: dict[str, str], known: set[str], prefix: str) -> None:
    import difflib

    for key in variables:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f"did you mean {close[0]}?" if close else "docs/environment.md lists the settings"
            raise ConfigError(f"--set {key}: the Space reads no such {prefix}* setting; {hint}")


def _server_would_start(variables: dict[str, str], secrets: dict[str, str]) -> ServerSettings:
    """The settings the Space's server will start on; refuses what it would refuse at start-up.

    The server's own checks (`load_settings`) run on the variables and secrets the Space will have,
    with none of this machine's WATERCOLOUR_* variables.
    """
    from watercolour_env.server.settings import load_settings

    try:
        return load_settings({**variables, **secrets})
    except ConfigError as err:
        raise ConfigError(f"the Space would refuse to start: {err}") from err


def _check_hardware(hardware: str) -> None:
    from huggingface_hub import SpaceHardware

    known = [h.value for h in SpaceHardware]
    if hardware not in known:
        raise ConfigError(f"--hardware {hardware!r} is not a Space hardware; one of {', '.join(known)}")


def _secrets(names: tuple[str, ...], environ: dict[str, str]) -> dict[str, str]:
    found = {name: environ[name] for name in names if environ.get(name)}
    for name, value in found.items():
        if any(c.isspace() or not c.isprintable() for c in value):
            raise ConfigError(f"{name} holds whitespace or a control character; export it without them")
    return found


def plan_env(
    space: str,
    *,
    folder: Path | None,
    pool: str | None = None,
    preset: str | None = None,
    hardware: str | None = None,
    replicas: int = 1,
    private: bool = False,
    sleep_after: int | None = None,
    settings: list[str] = (),
    duplicate_from: str | None = None,
    environ: dict[str, str] | None = None,
) -> Plan:
    """The Hub calls that deploy the environment Space `space` (or `space-1 .. space-N`).

    Args:
        space: USER/NAME of the Space to create or update.
        folder: the assembled Space folder to upload (None with `duplicate_from`).
        pool: WATERCOLOUR_POOL, a Hub dataset `USER/NAME[@REVISION]`; the starter pool when None.
        preset: WATERCOLOUR_PRESET, one of the rubric's presets.
        hardware: a Space hardware name (`huggingface_hub.SpaceHardware`); None requests
            cpu-upgrade for a new Space and nothing for a copy (`duplicate_from`), which then
            runs on what the Hub gives a copy: paid hardware only when asked for.
        replicas: N > 1 deploys `space-1 .. space-N`, for the trainer's `--env-replicas N`.
        private: create the Space private (clients then send an HF token).
        sleep_after: seconds of inactivity before the Space sleeps; None leaves the Hub's default.
        settings: more `KEY=VALUE` variables (WATERCOLOUR_*), never credentials.
        duplicate_from: USER/NAME of an environment Space to copy instead of uploading.
        environ: where credentials are read (os.environ by default): WATERCOLOUR_API_TOKEN,
            WATERCOLOUR_HPSV3_TOKEN and WATERCOLOUR_JUDGE_TOKEN become secrets when set, and
            SPACE_HF_TOKEN becomes the Space's HF_TOKEN (a read token, for a private pool).

    Raises:
        ConfigError: a malformed Space id, pool id, preset, hardware or setting.
    """
    from watercolour_env.server.reward.rubric import PRESETS

    environ = dict(os.environ if environ is None else environ)
    names = _space_names(space, replicas)
    if hardware is None and duplicate_from is None:
        hardware = ENV_HARDWARE
    if hardware is not None:
        _check_hardware(hardware)
    _check_sleep(sleep_after)
    variables = _pairs(list(settings), ENV_SECRETS)
    unknown = [key for key in variables if not key.startswith("WATERCOLOUR_")]
    if unknown:
        raise ConfigError(f"--set {unknown[0]}: the environment reads WATERCOLOUR_* variables only")
    for key, option in (("WATERCOLOUR_POOL", "--pool"), ("WATERCOLOUR_PRESET", "--preset")):
        if key in variables:
            raise ConfigError(f"--set {key}: give it as {option}, which is checked")
    for key in ("WATERCOLOUR_HOST", "WATERCOLOUR_PORT"):
        if key in variables:
            raise ConfigError(f"--set {key}: the image sets it to serve on the Space's port (app_port 8000)")
    if pool is not None:
        if Path(pool).expanduser().is_dir():
            raise ConfigError(
                f"--pool {pool} is a folder here, and a Space reads its pool from the Hub: "
                f"`watercolour pool push {pool} USER/NAME` prints the revision to deploy with, "
                "--pool USER/NAME@REVISION"
            )
        if not _valid_id(pool, POOL_ID):
            raise ConfigError(f"--pool {pool!r} is not a Hub dataset USER/NAME[@REVISION]")
        variables["WATERCOLOUR_POOL"] = pool
    if preset is not None:
        if preset not in PRESETS:
            raise ConfigError(f"--preset {preset!r} is not one of {', '.join(PRESETS)}")
        variables["WATERCOLOUR_PRESET"] = preset
    secrets = _secrets(ENV_SECRETS, environ)
    space_token = _secrets((SPACE_HF_TOKEN,), environ).get(SPACE_HF_TOKEN)
    if space_token:  # never the deployer's own HF_TOKEN, which can write
        secrets["HF_TOKEN"] = space_token
    if duplicate_from is not None and not _valid_id(duplicate_from, SPACE_ID):
        raise ConfigError(f"--duplicate-from {duplicate_from!r} is not USER/NAME")
    plan = Plan(folder=None if duplicate_from else folder)
    if duplicate_from is None:
        started = _server_would_start(variables, secrets)
        if started.weight_hpsv3 > 0 and "WATERCOLOUR_HPSV3_TOKEN" not in secrets:
            plan.warnings.append(
                "no WATERCOLOUR_HPSV3_TOKEN exported: the Space reaches the HPSv3 scorer only if that scorer is open"
            )
    else:  # the copy keeps the original's variables, unknown here: check only the names
        _known_names(variables, _env_setting_names(), "WATERCOLOUR_")
    if hardware is None:
        plan.warnings.append(
            "--duplicate-from without --hardware requests none: the copy runs on what the Hub gives a copy "
            f"(free CPU), whatever the original runs on; --hardware {ENV_HARDWARE} (paid) matches a new deployment"
        )
    if "WATERCOLOUR_API_TOKEN" not in secrets:
        plan.warnings.append("no WATERCOLOUR_API_TOKEN exported: anyone who reaches the Space can use it")
    if space_token and space_token == environ.get("HF_TOKEN"):
        plan.warnings.append(f"{SPACE_HF_TOKEN} is your own HF_TOKEN: give the Space a read-only token instead")
    if pool is not None and "@" not in pool:
        plan.warnings.append(f"--pool {pool} has no @REVISION: the reward follows every push to it; pin one")
    elif pool is not None and not COMMIT.fullmatch(pool.partition("@")[2]):
        plan.warnings.append(
            f"--pool {pool} names a branch or tag, not a commit: the reward follows every push to it; "
            "pin the commit id `pool push` printed"
        )
    for name in names:
        _space_calls(
            plan,
            name,
            variables=variables,
            secrets=secrets,
            hardware=hardware,
            private=private,
            sleep_after=sleep_after,
            duplicate_from=duplicate_from,
        )
    return plan


def plan_hpsv3(
    space: str,
    *,
    folder: Path | None,
    hardware: str = HPSV3_HARDWARE,
    sleep_after: int | None = 3600,
    private: bool = False,
    settings: list[str] = (),
    environ: dict[str, str] | None = None,
) -> Plan:
    """The Hub calls that deploy the HPSv3 scorer Space `space` on a GPU.

    Args:
        space: USER/NAME of the Space.
        folder: the assembled Space folder to upload.
        hardware: a GPU Space hardware (l4x1 by default: 24 GB holds the 7B model in bfloat16).
        sleep_after: seconds of inactivity before the GPU Space sleeps and stops billing (3600).
        private: create the Space private.
        settings: more `KEY=VALUE` variables (HPSV3_*), never credentials.
        environ: where HPSV3_API_TOKEN is read (os.environ by default); set, it becomes a secret.

    Raises:
        ConfigError: a malformed Space id, hardware or setting, or CPU hardware.
    """
    environ = dict(os.environ if environ is None else environ)
    names = _space_names(space, 1)
    _check_hardware(hardware)
    if hardware.startswith("cpu") or hardware in TOO_SMALL_FOR_HPSV3:
        raise ConfigError(
            f"--hardware {hardware}: the HPSv3 scorer needs a GPU with 24 GB or more (l4x1, a10g-large, a100-large)"
        )
    _check_sleep(sleep_after)
    variables = _pairs(list(settings), HPSV3_SECRETS)
    unknown = [key for key in variables if not key.startswith("HPSV3_")]
    if unknown:
        raise ConfigError(f"--set {unknown[0]}: the scorer reads HPSV3_* variables only")
    from hpsv3_space.settings import Settings

    _known_names(variables, {f"HPSV3_{name.upper()}" for name in Settings.model_fields}, "HPSV3_")
    secrets = _secrets(HPSV3_SECRETS, environ)
    plan = Plan(folder=folder)
    if not secrets:
        plan.warnings.append("no HPSV3_API_TOKEN exported: anyone who reaches the Space can use its GPU")
    _space_calls(
        plan,
        names[0],
        variables=variables,
        secrets=secrets,
        hardware=hardware,
        private=private,
        sleep_after=sleep_after,
        duplicate_from=None,
    )
    return plan


def _space_calls(
    plan: Plan,
    name: str,
    *,
    variables: dict[str, str],
    secrets: dict[str, str],
    hardware: str | None,
    private: bool,
    sleep_after: int | None,
    duplicate_from: str | None,
) -> None:
    """Appends one Space's calls: create (or duplicate), variables, secrets, hardware, upload."""
    if duplicate_from is not None:
        plan.calls.append(
            (
                "duplicate_repo",
                {"from_id": duplicate_from, "to_id": name, "repo_type": "space", "private": private, "exist_ok": True},
            )
        )
    else:
        plan.calls.append(
            (
                "create_repo",
                {"repo_id": name, "repo_type": "space", "space_sdk": "docker", "private": private, "exist_ok": True},
            )
        )
    for key, value in variables.items():
        plan.calls.append(("add_space_variable", {"repo_id": name, "key": key, "value": value}))
    for key, value in secrets.items():
        plan.calls.append(("add_space_secret", {"repo_id": name, "key": key, "value": value}))
    if hardware is not None:
        hardware_args: dict[str, Any] = {"repo_id": name, "hardware": hardware}
        if sleep_after is not None:
            hardware_args["sleep_time"] = sleep_after
        plan.calls.append(("request_space_hardware", hardware_args))
    elif sleep_after is not None:
        plan.calls.append(("set_space_sleep_time", {"repo_id": name, "sleep_time": sleep_after}))
    if plan.folder is not None:
        plan.calls.append(
            (
                "upload_folder",
                {
                    "repo_id": name,
                    "repo_type": "space",
                    "folder_path": plan.folder,
                    "commit_message": "Deploy with `watercolour deploy`",
                },
            )
        )
