# The two commands a newcomer needs (see README.md):
#   make course   open the course in JupyterLab (sets everything up on first use)
#   make test     run the whole test suite (likewise)
# Everything is installed into a local virtual environment, .venv/, from this project's own files.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.memcourse-installed

.PHONY: course test setup browser grade doctor clean-venv

# JupyterLab refuses to run as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

# The course's terminals must find `memcourse` and `python` from .venv: the server gets .venv/bin
# first on PATH, and its terminals run your shell directly (without that, JupyterLab started
# without a tty runs a login shell, whose profile may put the system's PATH back).
# LAB_ARGS passes extra JupyterLab options, e.g. make course LAB_ARGS=--no-browser
LAB_ARGS ?=
LAB_SHELL ?= $(or $(shell echo $$SHELL),/bin/sh)

course: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" VIRTUAL_ENV="$(CURDIR)/$(VENV)" \
	  $(BIN)/jupyter lab --notebook-dir=notebooks $(ROOT_FLAG) \
	  --ServerApp.terminado_settings=shell_command="$(LAB_SHELL)" $(LAB_ARGS)

test: $(STAMP) browser
	$(BIN)/python -m pytest

setup: $(STAMP)

grade: $(STAMP)
	$(BIN)/memcourse grade

doctor: $(STAMP)
	$(BIN)/memcourse doctor

# torch is pinned to the CPU build first, so that sentence-transformers does not pull a
# multi-GB CUDA build. Where plain pip would pick a CUDA build, say where the CPU wheel is:
#   make course TORCH='torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu'
# The stamp is rebuilt whenever pyproject.toml changes.
TORCH ?= torch==2.13.0

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "memcourse needs Python 3.10 or newer; set PYTHON=python3.11")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet $(TORCH)
	$(BIN)/python -m pip install --quiet -e ".[dev,postgres]"
	touch $(STAMP)

# The widget end-to-end test drives a real Chromium (Debian's package; test tools cannot
# download browsers here). Installed when missing and we are root with apt-get; otherwise
# say how, and the test will fail with the same advice.
browser:
	@if { command -v chromium >/dev/null 2>&1 || [ -n "$$MEMCOURSE_CHROMIUM" ]; } && fc-list :lang=zh 2>/dev/null | grep -q .; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing Chromium and CJK fonts for the browser test (apt-get)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	else \
	  echo "note: the widget browser test needs Chromium and CJK fonts: sudo apt-get install chromium fonts-noto-cjk (or set MEMCOURSE_CHROMIUM=/path/to/chrome)"; \
	fi

clean-venv:
	rm -rf $(VENV)
