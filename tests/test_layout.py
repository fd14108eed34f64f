"""The house rules of the code's layout (issue 13), checked on the source itself."""

import ast
import re
from pathlib import Path

import pytest

from tests.conftest import REPO

SOURCES = [
    p
    for root in ("envs", "trainer", "scorers", "bench", "tests")
    for p in (REPO / root).rglob("*.py")
    if "node_modules" not in p.parts
]
# Modules over 400 lines (issue 13): none, and none may come back.
OVER_400_LINES: set[str] = set()


def imported_modules(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module


def test_the_sources_are_found():
    names = {p.relative_to(REPO).as_posix() for p in SOURCES}
    assert "envs/watercolour_env/server/sandbox/renderer.py" in names and len(names) > 60


def test_the_environment_never_imports_the_trainer():
    offenders = [
        p.relative_to(REPO).as_posix()
        for p in SOURCES
        if p.is_relative_to(REPO / "envs")
        and any(m.split(".")[0] == "watercolour_trainer" for m in imported_modules(p))
    ]
    assert offenders == []


def test_no_module_grows_past_400_lines():
    long = {p.relative_to(REPO).as_posix() for p in SOURCES if len(p.read_text().splitlines()) > 400}
    assert long == OVER_400_LINES


def test_nothing_edits_sys_path():
    # the HPSv3 Space is an installed package (scorers/hpsv3_space/pyproject.toml), not a folder
    # put on the path; this file names the string only to look for it
    editing = {p.relative_to(REPO).as_posix() for p in SOURCES if "sys" + ".path" in p.read_text()}
    assert editing == set()


@pytest.mark.cli
def test_the_callers_settings_never_reach_a_test(tmp_path):
    import os
    import subprocess
    import sys

    probe = tmp_path / "test_probe.py"
    probe.write_text(
        "from watercolour_env.server.settings import load_settings\n"
        "def test_defaults():\n    assert load_settings().preset is None\n"
    )
    env = {**os.environ, "WATERCOLOUR_PRESET": "hps-only"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest", str(probe)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:]


# The environment's rooms, lowest first: a module imports from its own room and those below it.
# `curate` (pool building), `audit` and `deploy` sit above the server they render, score or check
# settings through; the pool's format sits below it (issue 35).
ROOMS = {"base": 0, "pool": 1, "server": 2, "curate": 3, "audit": 3, "deploy": 3, "cli": 4}


def room(module: str) -> str:
    """The room of `watercolour_env.<...>`: its subpackage, `cli`, or `base` for a top-level module."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in ROOMS:
        return parts[1]
    return "base"


def arrows_back_up(name: str, folder: Path, rooms: dict[str, int], room_of) -> list[str]:  # noqa: ANN001
    """Each import in package `name` (at `folder`) of a module in a higher room than its own."""
    arrows = set()
    for path in folder.rglob("*.py"):
        if "node_modules" in path.parts or "starter" in path.parts:
            continue
        parts = path.relative_to(folder).with_suffix("").parts
        here = room_of(".".join((name, *parts[:-1])) if parts[-1] == "__init__" else ".".join((name, *parts)))
        for module in imported_modules(path):
            if module.split(".")[0] == name and rooms[room_of(module)] > rooms[here]:
                arrows.add(f"{path.relative_to(REPO).as_posix()} ({here}) -> {module} ({room_of(module)})")
    return sorted(arrows)


def test_no_arrow_runs_back_up_between_the_environments_rooms():
    assert arrows_back_up("watercolour_env", REPO / "envs" / "watercolour_env", ROOMS, room) == []


# The trainer's rooms (issue 53), lowest first: the run record and its analysis; episodes and
# their rewards; training on TRL; then the commands at the package's top (cli, demo, evaluate,
# the PEP 723 script). The package's own `__init__` (where its data folders are) is below all.
TRAINER_ROOMS = {"package": 0, "record": 1, "episodes": 2, "training": 3, "commands": 4}


def trainer_room(module: str) -> str:
    """The room of `watercolour_trainer.<...>`: its subpackage, `package` for the package itself,
    `commands` for a module at its top."""
    parts = module.split(".")
    if len(parts) == 1:
        return "package"
    return parts[1] if parts[1] in TRAINER_ROOMS else "commands"


def test_the_trainer_is_rooms_of_at_most_a_dozen_modules_and_every_module_has_one():
    package = REPO / "trainer"
    top = {p.stem for p in package.glob("*.py")} - {"__init__"}
    assert top == {"cli", "demo", "evaluate", "watercolour_grpo"}
    for name in ("record", "episodes", "training"):
        assert 3 <= len(list((package / name).glob("*.py"))) - 1 <= 12, name


def test_no_arrow_runs_back_up_between_the_trainers_rooms():
    assert arrows_back_up("watercolour_trainer", REPO / "trainer", TRAINER_ROOMS, trainer_room) == []


def test_pre_commit_runs_the_ruff_the_dev_extra_pins():
    import tomllib

    import yaml

    dev = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    [pinned] = [d for d in dev if d.startswith("ruff==")]
    hooks = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text())["repos"][0]["hooks"]
    assert {h["id"] for h in hooks} == {"ruff-check", "ruff-format"}
    assert all(h["additional_dependencies"] == [pinned] for h in hooks)


def test_production_never_reads_from_tests():
    production = [p for p in SOURCES if not p.is_relative_to(REPO / "tests")]
    readers = {
        p.relative_to(REPO).as_posix() for p in production if '"tests/' in p.read_text() or "'tests/" in p.read_text()
    }
    assert readers == set()


CITED = re.compile(
    r"(?<![\w/.-])((?:envs|trainer|tests|bench|docs|docker|spaces|scorers|examples)/[\w./-]*\.(?:py|md|sh|yaml|toml|js|json|txt))(?![\w-]|\.\w)"
)


def test_every_file_the_sources_and_docs_cite_exists():
    # the LOG and the runs' records are history: a path there was true on its day
    citing = [p for p in SOURCES if not p.is_relative_to(REPO / "tests" / "fixtures")]
    citing += [
        p
        for p in REPO.rglob("*.md")
        if p.relative_to(REPO).parts[0] in {"docs", "spaces", "scorers", "envs", "trainer"}
    ]
    citing += [REPO / name for name in ("README.md", "CONTRIBUTING.md", "Makefile")]
    missing = {
        f"{p.relative_to(REPO).as_posix()}: {path}"
        for p in citing
        if p.name != "LOG.md" and "runs" not in p.relative_to(REPO).parts[:2] and "node_modules" not in p.parts
        for path in CITED.findall(p.read_text())
        if not (REPO / path).exists() and "*" not in path
    }
    assert sorted(missing) == []


def test_the_readme_stays_a_front_page():
    # issue 53: the full results live in docs/results.md; the README keeps at most 160 lines
    assert len((REPO / "README.md").read_text().splitlines()) <= 160
