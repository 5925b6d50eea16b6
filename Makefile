# The two commands a newcomer needs (see README.md):
#   make course   open the course in JupyterLab (sets everything up on first use)
#   make course-zh  the same, in Chinese: notebooks/zh/ and the course's messages (中文版)
#   make test     run the whole test suite (likewise)
# Everything is installed into a local virtual environment, .venv/, from this project's own files.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.memcourse-installed

.PHONY: course course-zh test setup browser grade doctor clean-venv

# JupyterLab refuses to run as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

# JupyterLab is rooted at the project folder, so that every file a notebook tells you to open
# (exercises/, their hints, memcourse/, docs/) is in its file browser, and it opens on the first
# notebook. The course's terminals must find `memcourse` and `python` from .venv: the server
# gets .venv/bin first on PATH, and its terminals run scripts/course-shell, which starts your
# shell ($(LAB_SHELL)) with your usual start-up files and then puts .venv/bin first again
# (a pyenv or conda set-up in ~/.bashrc would otherwise put its own python back in front).
# LAB_ARGS passes extra JupyterLab options, e.g. make course LAB_ARGS=--no-browser
LAB_ARGS ?=
LAB_SHELL ?= $(or $(shell echo $$SHELL),/bin/sh)
# The Chinese edition (notebooks/zh/, built by scripts/build_zh.py) opens when MEMCOURSE_LANG is
# zh: `make course-zh`, or `make course MEMCOURSE_LANG=zh`. The server, its kernels and its
# terminals inherit MEMCOURSE_LANG, so grading, hints, the doctor and the widgets speak Chinese
# too (memcourse/course/i18n.py). Not `make course LANG=zh`: LANG is the locale every program
# reads, and "zh" is not a locale; a Chinese locale (LANG=zh_CN.UTF-8) does switch the messages.
MEMCOURSE_LANG ?=
FIRST_NOTEBOOK := $(if $(filter zh zh_% zh-%,$(MEMCOURSE_LANG)),notebooks/zh/00_start_here.ipynb,notebooks/00_start_here.ipynb)

course-zh:
	@$(MAKE) --no-print-directory course MEMCOURSE_LANG=zh

course: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" VIRTUAL_ENV="$(CURDIR)/$(VENV)" $(if $(MEMCOURSE_LANG),MEMCOURSE_LANG="$(MEMCOURSE_LANG)") \
	  MEMCOURSE_VENV_BIN="$(CURDIR)/$(BIN)" MEMCOURSE_USER_SHELL="$(LAB_SHELL)" \
	  $(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" --LabApp.default_url="/lab/tree/$(FIRST_NOTEBOOK)?file-browser-path=/" $(ROOT_FLAG) \
	  --ServerApp.terminado_settings=shell_command="$(CURDIR)/scripts/course-shell" $(LAB_ARGS)

# The suite runs on every core (pytest-xdist, at most 4 workers). --dist loadfile keeps each file on
# one worker: a notebook's cells run in order in one kernel, and module-scoped fixtures are built
# once per file. Session fixtures (the Chroma server, the embedded PostgreSQL) start once per
# worker, on free ports / private socket folders. TEST_ARGS=-n0 runs everything in one process.
TEST_ARGS ?= -n auto --maxprocesses=4 --dist loadfile
test: $(STAMP) browser
	$(BIN)/python -m pytest $(TEST_ARGS)

# `make setup` is the repair the doctor and notebook 00 advise: it installs when the install
# stamp is older than pyproject.toml, and also when .venv/ exists but the course's packages do
# not all import there (a package removed or broken by hand, an interrupted install).
# Should that not help, `make clean-venv setup` starts from an empty .venv/.
INSTALL_CHECK := import memcourse, importlib, sys; from memcourse.course.doctor import REQUIRED, FOR_TESTS; [importlib.import_module(name) for name in {**REQUIRED, **FOR_TESTS}]

setup:
	@if [ -f $(STAMP) ] && [ ! pyproject.toml -nt $(STAMP) ] && $(BIN)/python -c "$(INSTALL_CHECK)" >/dev/null 2>&1; then \
	  echo "$(VENV)/ is up to date: every package the course uses imports"; \
	else \
	  [ ! -f $(STAMP) ] || echo "reinstalling into $(VENV)/ (pyproject.toml changed, or a package does not import)"; \
	  rm -f $(STAMP) && $(MAKE) --no-print-directory $(STAMP) && \
	  { $(BIN)/python -c "$(INSTALL_CHECK)" || { echo "still broken: make clean-venv setup starts from an empty $(VENV)/"; exit 1; }; }; \
	fi

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
	$(BIN)/python -c '' 2>/dev/null || $(PYTHON) -m venv --clear $(VENV)
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
