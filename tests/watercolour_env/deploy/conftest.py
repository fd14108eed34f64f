"""What the deploy tests share: the command, its stderr, and the checkout's tracked files."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.conftest import REPO, WATERCOLOUR

SECRET = "hf_secret_value_never_shown_0123"


def deploy(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.endswith("TOKEN")}
    return subprocess.run(
        [WATERCOLOUR, "deploy", *args], capture_output=True, text=True, timeout=120, env={**clean, **(env or {})}
    )


def stderr_of(result: subprocess.CompletedProcess) -> list[str]:
    """stderr's lines but the warning about uncommitted changes (the tests run on a working tree)."""
    return [line for line in result.stderr.splitlines() if "files with uncommitted changes" not in line]


def tracked(*folders: str) -> set[str]:
    out = subprocess.run(["git", "-C", str(REPO), "ls-files", *folders], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def files_in(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
