"""How any failure that reaches the command line becomes one line and an exit code.

The README's exit-code table is `ExitCode`. `one_line` is the one place that turns an exception
into that line: the project's own errors say what to do already; a file, a network, a YAML or a
validation error from a library is named in its terms; anything else is a bug, whose traceback
goes to a file the line names (and to the terminal with `-v`).
"""

from __future__ import annotations

import enum
import json
import os
import re
import tempfile
import traceback

from watercolour_env.errors import WatercolourError, missing_extra

LINE_CHARS = 400
"""The longest line a failure prints; a library's message can carry a page (Playwright's launch log)."""


class ExitCode(enum.IntEnum):
    """The exit codes of every `watercolour` command (the README's table)."""

    DONE = 0
    SKETCH_FAILED = 1
    FIX = 2
    UNSCORED = 3
    BROKE = 4
    INTERRUPTED = 130


def redact(text: str, environ: dict[str, str] | None = None) -> str:
    """`text` with the value of every `*TOKEN*` or `*KEY*` variable of `environ` (os.environ) blanked."""
    environ = os.environ if environ is None else environ
    for name, value in environ.items():
        if len(value) >= 4 and ("TOKEN" in name.upper() or "KEY" in name.upper()):
            text = text.replace(value, "[redacted]")
    return text


def _squeeze(text: str) -> str:
    text = re.sub(r"\s+", " ", redact(str(text))).strip()
    return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 3] + "..."


_PATH_PROBLEMS = {
    FileNotFoundError: "{} does not exist",
    IsADirectoryError: "{} is a folder where a file is wanted",
    NotADirectoryError: "{} is a file where a folder is wanted",
    FileExistsError: "{} is in the way (a file where a folder is wanted, or already there)",
    PermissionError: "{} cannot be read or written here (permission denied)",
}


def _path_line(err: OSError) -> str:
    shown = err.filename if err.filename2 is None else f"{err.filename} -> {err.filename2}"
    for kind, line in _PATH_PROBLEMS.items():
        if isinstance(err, kind):
            return line.format(shown) + "; give another path"
    return f"{shown}: {err.strerror or err}; give another path"


def _network_line(err: BaseException) -> str | None:
    """The line for a library's failure to reach a server or the Hub, or None for anything else."""
    kind = type(err)
    module = kind.__module__.partition(".")[0]
    modules = {cls.__module__.partition(".")[0] for cls in kind.__mro__}
    if module == "openai" and kind.__name__ in {"APIConnectionError", "APITimeoutError"}:
        return f"could not reach the endpoint ({_squeeze(err)}); check --base-url and the network"
    if module == "openai" and hasattr(err, "status_code"):
        return f"the endpoint refused the request (HTTP {err.status_code}: {_squeeze(err)}); check the model and token"
    if isinstance(err, OSError) and "huggingface.co" in str(err):  # transformers' "couldn't connect to ..."
        return (
            f"could not load from the Hugging Face Hub ({_squeeze(err)}); check the network and HF_TOKEN, "
            "or give a local folder"
        )
    if modules & {"httpx", "httpx2", "requests", "urllib3", "huggingface_hub"} or isinstance(err, ConnectionError):
        return f"could not reach the Hugging Face Hub or a server ({_squeeze(err)}); check the network and HF_TOKEN"
    return None


def one_line(err: BaseException) -> tuple[str, ExitCode]:
    """The one line (without `error: `) and the exit code for `err`, an exception no command caught.

    Returns:
        (line, code): code FIX for a failure the user can act on (a setting, a path, a file that
        is not text, an unreachable server), UNSCORED for `WatercolourError`s that say "try again",
        INTERRUPTED for Ctrl+C, BROKE for anything unforeseen (a bug: the line names the file
        that holds the traceback).
    """
    if isinstance(err, WatercolourError):
        return _squeeze(err), ExitCode(err.exit_code)
    if isinstance(err, KeyboardInterrupt):
        return "interrupted (Ctrl+C)", ExitCode.INTERRUPTED
    if isinstance(err, ModuleNotFoundError) and (line := missing_extra(err)) is not None:
        return line, ExitCode.FIX
    if (line := _network_line(err)) is not None:
        return line, ExitCode.FIX
    if isinstance(err, OSError) and err.filename is not None:
        return _path_line(err), ExitCode.FIX
    if type(err).__module__.startswith("PIL"):
        return f"an image cannot be read ({_squeeze(err)}); render the pool again", ExitCode.FIX
    if isinstance(err, OSError) and err.errno is not None:  # no file named: a full disk, an I/O error
        return f"the system refused ({err.strerror or err}); check the disk, the path and its permissions", ExitCode.FIX
    if isinstance(err, UnicodeDecodeError):
        return f"a file is not UTF-8 text ({err.reason} at byte {err.start}); give a text file", ExitCode.FIX
    if isinstance(err, json.JSONDecodeError):
        return f"a file is not valid JSON ({err.msg}, line {err.lineno} column {err.colno})", ExitCode.FIX
    if type(err).__module__.startswith("pydantic"):
        first = err.errors()[0] if hasattr(err, "errors") and err.errors() else {}
        where = ".".join(map(str, first.get("loc", ()))) or "a value"
        return f"{where}: {_squeeze(first.get('msg', err))}", ExitCode.FIX
    if type(err).__module__.startswith("yaml"):
        return f"a YAML file is malformed ({_squeeze(err)})", ExitCode.FIX
    kept = os.path.join(tempfile.gettempdir(), f"watercolour-traceback-{os.getpid()}.txt")
    with open(kept, "w", encoding="utf-8") as file:
        file.write(redact("".join(traceback.format_exception(err))))
    return (
        f"unexpected {type(err).__name__}: {_squeeze(err)} (a bug, or this machine; the traceback is in "
        f"{kept}, `watercolour -v ...` prints it; please report it)",
        ExitCode.BROKE,
    )
