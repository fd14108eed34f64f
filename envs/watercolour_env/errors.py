"""The project's small error hierarchy, and the one line for an optional dependency not installed."""

from __future__ import annotations

import importlib.util
from pathlib import Path


class WatercolourError(Exception):
    """Base of every error this project raises on purpose; its message says what to do.

    `exit_code` is the command line's (the README's table): 2, fix the command or the settings.
    """

    exit_code = 2


class ConfigError(WatercolourError):
    """A setting is missing, malformed or contradicts another; raised at start-up."""


class InvalidOption(WatercolourError, ValueError):
    """A reset option out of range or of the wrong type: an error frame, or the client's own refusal."""


class Unscored(WatercolourError):
    """Nothing was wrong with the request, but no verdict came back (a server closed or went quiet); try again."""

    exit_code = 3


class RenderError(WatercolourError):
    """The renderer itself failed (the browser could not start or died)."""


EXTRAS = {
    **dict.fromkeys(("playwright", "pydantic_settings", "numpy", "uvicorn", "fastapi", "psutil", "datasets"), "server"),
    **dict.fromkeys(("torch", "transformers", "trl", "peft", "accelerate", "gguf", "matplotlib", "trackio"), "train"),
}
"""Top-level modules of the optional dependencies, and the extra of pyproject.toml that brings each.

The client install (no extra) has the client, the models, the prompt and `watercolour episode`.
"""


def _line(extra: str, module: str) -> str:
    return (
        f"this command needs the `{extra}` extra ({module} is not installed): pip install -e '.[{extra}]' "
        f"in a checkout, or add [{extra}] after the project's name or URL where you installed it"
    )


def require_extra(extra: str) -> None:
    """Checks, without importing anything, that the modules of `extra` ("server" or "train") are installed.

    "train" includes "server" (pyproject.toml). Raises:
        ConfigError: one line naming the extra and the first missing module.
    """
    wanted = [module for module, brought_by in EXTRAS.items() if brought_by == extra]
    wanted += [module for module, brought_by in EXTRAS.items() if brought_by == "server" and extra != "server"]
    for module in wanted:
        if importlib.util.find_spec(module) is None:
            raise ConfigError(_line(extra, module))


def read_text(path: Path, wanted: str) -> str:
    """The UTF-8 text of `path`.

    Raises:
        ConfigError: the file is not UTF-8 text, or not a readable file; the line says to give `wanted`.
    """
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ConfigError(f"{path} is not a text file; give {wanted}") from err
    except (IsADirectoryError, FileNotFoundError, PermissionError) as err:
        raise ConfigError(f"{path} is not a readable file ({err.strerror}); give {wanted}") from err


def missing_extra(err: ModuleNotFoundError) -> str | None:
    """The one line for a command that hit a module of an extra this install lacks, or None for another module.

    The catch-all behind `require_extra`, for a command that did not call it.
    """
    module = (err.name or "").partition(".")[0]
    extra = EXTRAS.get(module)
    return None if extra is None else _line(extra, module)
