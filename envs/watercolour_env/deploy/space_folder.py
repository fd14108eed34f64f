"""The folder a Space is built from: the checkout's tracked files, laid out as the image expects.

`watercolour deploy` uploads it, the `docker` tests build it and `make docker-env` runs it, so the
image tested is the image deployed. Only files git tracks go in (nothing untracked, no symbolic
links), as they are in the working tree.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from watercolour_env.errors import ConfigError

REPO = Path(__file__).resolve().parents[3]
"""The checkout the folder is assembled from (deploy runs from a git checkout)."""

SHIM = (
    '"""The watercolour environment\'s client (`pip install` this Space, then import `watercolour_env`)."""\n\n'
    "from watercolour_env import WatercolourAction, WatercolourEnv, WatercolourObservation  # noqa: F401\n"
)
"""The Space root's `__init__.py` and `client.py`: the layout `openenv push` checks for."""


TRAINER_DATA = (
    "trainer/corpus/",
    "trainer/adapters/smollm2_135m_starter/adapter_model.",
    "trainer/adapters/smollm2_135m_demo/adapter_model.",
    "trainer/adapters/smollm2_135m_three/adapter_model.",
)
"""What the environment's Space leaves out of trainer/: 29 MB of LoRA weights and the SFT corpus
(pyproject's package-data globs match nothing then, which an install accepts)."""


def _tracked(*folders: str) -> list[str]:
    """The checkout's tracked files under `folders` (paths relative to the repository root)."""
    try:
        out = subprocess.run(
            ["git", "-C", str(REPO), "ls-files", "-z", *folders], capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError) as err:
        raise ConfigError(f"deploy runs from a git checkout of the project; {REPO} is not one ({err})") from err
    return [path for path in out.split("\0") if path]


def assemble(kind: str, into: Path) -> Path:
    """Writes the Space folder of `kind` ("env" or "hpsv3") into `into` and returns it.

    env: Dockerfile (docker/env.Dockerfile), README.md (spaces/env/README.md), pyproject.toml,
    docker/env-requirements.txt, the tracked files of envs/ and those of trainer/ but its data
    (`TRAINER_DATA`: the adapters' weights and the warm-start corpus, which the server never
    reads; the trainer's code stays, as the `watercolour` command is its), and what OpenEnv reads:
    openenv.yaml, validation/ (spaces/env/validation: the runtime plan and the oracle, with the
    reward-hack corpus in validation/canaries, which the tests also read), and root `__init__.py` and
    `client.py` re-exporting the client (the layout `openenv push` checks).
    hpsv3: Dockerfile (docker/hpsv3.Dockerfile), README.md (spaces/hpsv3/README.md) and the
    tracked files of scorers/hpsv3_space/.
    """
    if into.exists() and any(into.iterdir()):
        raise ConfigError(f"{into} is not empty; give a new folder")
    copies = {"Dockerfile": f"docker/{kind}.Dockerfile", "README.md": f"spaces/{kind}/README.md"}
    if kind == "env":
        copies |= {"pyproject.toml": "pyproject.toml", "docker/env-requirements.txt": "docker/env-requirements.txt"}
        copies |= {"openenv.yaml": "envs/watercolour_env/openenv.yaml"}
        copies |= {path.replace("spaces/env/", "", 1): path for path in _tracked("spaces/env/validation")}
        sources = [path for path in _tracked("envs", "trainer") if not path.startswith(TRAINER_DATA)]
    else:
        sources = _tracked("scorers/hpsv3_space")
    copies |= {path: path for path in sources}
    links = [source for source in copies.values() if (REPO / source).is_symlink()]
    if links:  # a link could carry any file of this machine into a public Space
        raise ConfigError(f"{links[0]} is a symbolic link; a Space's folder takes regular files only")
    missing = [source for source in copies.values() if not (REPO / source).is_file()]
    if missing:
        raise ConfigError(f"{missing[0]} is tracked by git but missing from the checkout; restore it first")
    into.mkdir(parents=True, exist_ok=True)
    for target, source in copies.items():
        (into / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / source, into / target)
    if kind == "env":
        for name in ("__init__.py", "client.py"):
            (into / name).write_text(SHIM)
    return into


def uncommitted(kind: str) -> list[str]:
    """Files of the Space's folder that differ from the last commit (`git status`)."""
    folders = (
        ["envs", "trainer", "docker", "spaces/env", "pyproject.toml"]
        if kind == "env"
        else ["scorers/hpsv3_space", "docker", "spaces/hpsv3"]
    )
    out = subprocess.run(
        ["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no", "--", *folders],
        capture_output=True,
        text=True,
    ).stdout
    return [line[3:] for line in out.splitlines() if line.strip()]
