# /// script
# requires-python = ">=3.11"
# dependencies = [
#     "torch==2.13.0",
#     "transformers==5.23.0",
#     "trl==1.16.0",
#     "peft==0.21.2",
#     "accelerate==1.16.0",
#     "datasets==5.2.0",
#     "huggingface_hub==2.4.0",
#     "trackio==0.43.0",
#     "gguf==0.19.0",
#     "openenv==0.10.0",
#     "pydantic==2.14.4",
#     "pydantic-settings==2.16.3",
#     "httpx==0.29.0",
#     "numpy==2.4.6",
#     "pillow==12.3.0",
#     "psutil==7.2.2",
#     "pyyaml==6.0.4",
#     "tqdm==4.70.1",
#     "typer==0.29.2",
#     "tree-sitter==0.26.1",
#     "tree-sitter-javascript==0.25.0",
# ]
# ///
"""GRPO against a watercolour environment: the one training command, as a self-contained script.

    uv run trainer/watercolour_grpo.py --env-url http://127.0.0.1:8000 --steps 2 ...
    hf jobs uv run --flavor h200 --timeout 48h --secrets HF_TOKEN trainer/watercolour_grpo.py -- \
      --env-url https://<you>-watercolour-env.hf.space ... --out <you>/watercolour-grpo --push-to-hub

The header pins every third-party package (the versions `make test` runs). The project's own
code comes from the checkout this file sits in; a Job gets the file alone, so there it comes
from the environment Space the run trains against (`--env-url`): the Space repository holds the
package source, so the trainer's client always matches the server it talks to (decision 0004).
`--package-from <owner>/<space>` names another Space. Arguments are `watercolour train`'s, the
seed's flag names included (`watercolour_trainer.training.arguments`).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def mount(root: Path) -> None:
    """Makes the checkout's two packages importable, registered by location.

    `watercolour_env` is root/envs/watercolour_env and `watercolour_trainer` is root/trainer; the
    import path is left as it is.
    """
    packages = {"watercolour_env": root / "envs" / "watercolour_env", "watercolour_trainer": root / "trainer"}
    for name, folder in packages.items():
        spec = importlib.util.spec_from_file_location(
            name, folder / "__init__.py", submodule_search_locations=[str(folder)]
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)


def space_of(argv: list[str]) -> str | None:
    """The Space repo id to fetch the package from: `--package-from`, else `--env-url`'s Space.

    A Space's host is `<owner>-<name>.hf.space` (a replica's ends `-1`, `-2` ...), which does
    not say where the owner ends: each split is asked of the Hub until one exists.
    """
    value = _flag(argv, "--package-from")
    if value:
        return value
    url = _flag(argv, "--env-url") or _flag(argv, "--env_url") or ""
    host = url.split("://", 1)[-1].split("/", 1)[0]
    if not host.endswith(".hf.space"):
        return None
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError

    stem = host.removesuffix(".hf.space")
    for i, char in enumerate(stem):
        if char == "-":
            candidate = f"{stem[:i]}/{stem[i + 1 :]}"
            try:
                HfApi().space_info(candidate)
                return candidate
            except HfHubHTTPError:
                continue
    return None


def _flag(argv: list[str], flag: str) -> str | None:
    """The value after `flag` (or in `flag=value`), or None."""
    for i, token in enumerate(argv):
        if token == flag and i + 1 < len(argv):
            return argv[i + 1]
        if token.startswith(flag + "="):
            return token.partition("=")[2]
    return None


def package_source(argv: list[str]) -> Path:
    """Where the project's code is: the checkout around this file, else a download of the Space.

    Raises:
        SystemExit: neither is there (a Job without a Space URL and without --package-from).
    """
    here = Path(__file__).resolve().parents[1]
    if (here / "envs" / "watercolour_env").is_dir() and (here / "trainer" / "training" / "train.py").is_file():
        return here
    space = space_of(argv)
    if space is None:
        raise SystemExit(
            "watercolour_grpo.py runs from a checkout, or with --package-from <owner>/<space> naming the "
            "environment Space whose repository holds the package"
        )
    from huggingface_hub import snapshot_download

    return Path(snapshot_download(space, repo_type="space", allow_patterns=["envs/**", "trainer/**"]))


def main() -> None:
    """Finds the project's code, then runs `watercolour train` with this command line."""
    argv = sys.argv[1:]
    if argv[:1] == ["--"]:  # `uv run script -- flags`, as `hf jobs uv run` is written
        argv = argv[1:]
    try:
        import watercolour_trainer.training.train  # noqa: F401 (installed, e.g. `pip install -e .`)
    except ImportError:
        mount(package_source(argv))
    argv = [t for i, t in enumerate(argv) if t != "--package-from" and (i == 0 or argv[i - 1] != "--package-from")]
    argv = [t for t in argv if not t.startswith("--package-from=")]
    from watercolour_env.errors import ConfigError
    from watercolour_trainer.training.train import main as train

    try:
        train(argv)
    except ConfigError as err:  # a refused configuration: one line, exit 2, as `watercolour train`
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(2) from err


if __name__ == "__main__":
    main()
