"""The render libraries: a checkout or kit without one refuses to start, naming the file."""

import shutil

import pytest

from watercolour_env.errors import ConfigError
from watercolour_env.server.sandbox.library_server import DEFAULT_JS_DIR, library_files


def test_the_served_files_are_found_in_the_checkout():
    expected = {"p5.min.js", "p5.brush.js", "guard.js", "harness.js", "seed.js", "recorder.js"}
    assert set(library_files(DEFAULT_JS_DIR)) == expected


def test_without_the_esm_build_the_gate_reads_it_refuses_to_start(tmp_path):
    # a kit for the GPU machine once carried the served files only: the server started and every
    # episode failed reading p5.brush.esm.js (docs/LOG.md, 2026-12-04 fourth session)
    for name in ("p5/lib/p5.min.js", "p5.brush/dist/p5.brush.js"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(DEFAULT_JS_DIR / name, tmp_path / name)
    with pytest.raises(ConfigError, match="p5.brush.esm.js"):
        library_files(tmp_path)
