"""The course's own set-up: `make setup` repairs what notebook 00 and the doctor say it
repairs, and a course terminal runs the course's Python whatever the shell profile does.

Both are checked cheaply, without installing anything: the Makefile runs in a temporary copy
of the project with a stand-in ``python`` that logs what it is asked to do, and the terminal
wrapper (scripts/course-shell) runs in a subprocess with a fake home whose start-up files put
another ``python`` first on PATH, as a pyenv or conda set-up does.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAKE = shutil.which("make")

# A stand-in interpreter: logs its arguments; "imports" fail while the file `broken` exists, and
# an editable install of the project (the repair) removes it.
FAKE_PYTHON = """#!/bin/sh
here=$(cd "$(dirname "$0")/../.." && pwd)
echo "$*" >> "$here/python.log"
case "$*" in
  *"pip install"*"-e"*) rm -f "$here/broken" ;;
  *"from memcourse.course.doctor import"*) [ ! -f "$here/broken" ] || exit 1 ;;
esac
exit 0
"""


@pytest.fixture
def project(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text(FAKE_PYTHON)
    (bin_dir / "python").chmod(0o755)
    return tmp_path


def _make(project: Path, *targets: str) -> subprocess.CompletedProcess:
    return subprocess.run([MAKE, "--no-print-directory", *targets, f"PYTHON={project / '.venv/bin/python'}"],
                          cwd=project, capture_output=True, text=True, timeout=60)


def _installs(project: Path) -> list[str]:
    log = project / "python.log"
    return [line for line in log.read_text().splitlines() if "pip "
                                                             "install" in line and "-e" in line] if log.exists() else []


@pytest.mark.skipif(MAKE is None, reason="make is what the learner runs; without it there is nothing to test")
def test_make_setup_reinstalls_when_the_install_is_broken_but_the_stamp_is_fresh(project):
    first = _make(project, "setup")
    assert first.returncode == 0, first.stdout + first.stderr
    assert len(_installs(project)) == 1, "a first setup installs"
    again = _make(project, "setup")
    assert again.returncode == 0 and "up to date" in again.stdout
    assert len(_installs(project)) == 1, "a healthy, fresh install is left alone"
    (project / "broken").write_text("")  # a package removed or broken by hand; the stamp still looks fresh
    repaired = _make(project, "setup")
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    assert "reinstalling" in repaired.stdout
    assert len(_installs(project)) == 2, "the advice 'run make setup' must reinstall"
    assert not (project / "broken").exists()


@pytest.mark.skipif(MAKE is None, reason="make is what the learner runs; without it there is nothing to test")
def test_make_setup_says_what_to_do_when_reinstalling_does_not_help(project):
    assert _make(project, "setup").returncode == 0
    fake = project / ".venv" / "bin" / "python"
    fake.write_text(FAKE_PYTHON.replace('rm -f "$here/broken"', ":"))  # the install cannot fix it
    (project / "broken").write_text("")
    result = _make(project, "setup")
    assert result.returncode != 0 and "make clean-venv setup" in result.stdout


def test_the_doctor_advises_the_target_that_repairs():
    from memcourse.course import doctor

    assert "make setup" in doctor.REINSTALL
    assert "\nsetup:" in (ROOT / "Makefile").read_text()


@pytest.mark.skipif(MAKE is None, reason="make is what the learner runs; without it there is nothing to test")
def test_make_course_roots_lab_at_the_project_and_opens_the_first_notebook():
    result = subprocess.run([MAKE, "-n", "-o", ".venv/.memcourse-installed", "course"], cwd=ROOT,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    command = result.stdout
    assert f'--ServerApp.root_dir="{ROOT}"' in command, "exercises/, hints and docs/ must be in Lab's file browser"
    assert "--notebook-dir" not in command
    first, browser = command.split('--LabApp.default_url="/lab/tree/')[1].split('"')[0].split("?")
    assert (ROOT / first).is_file() and first.startswith("notebooks/00_")
    # the file browser opens on the course folder, not on the notebook's (where exercises/ is not seen)
    assert browser == "file-browser-path=/"
    assert f"shell_command=\"{ROOT}/scripts/course-shell\"" in command


@pytest.mark.skipif(MAKE is None, reason="make is what the learner runs; without it there is nothing to test")
def test_make_course_zh_opens_the_chinese_edition_and_sets_the_language():
    result = subprocess.run([MAKE, "-n", "-o", ".venv/.memcourse-installed", "course-zh"], cwd=ROOT,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    first = result.stdout.split('--LabApp.default_url="/lab/tree/')[1].split("?")[0]
    assert first == "notebooks/zh/00_start_here.ipynb" and (ROOT / first).is_file()
    assert 'MEMCOURSE_LANG="zh"' in result.stdout, "kernels and terminals must inherit the language"


# -- the terminal's shell -----------------------------------------------------------------------
def _fake_home(tmp_path: Path) -> tuple[Path, Path]:
    """A home whose profile puts a pyenv-like bin, with its own `python`, first on PATH."""
    home, other = tmp_path / "home", tmp_path / "pyenv" / "shims"
    home.mkdir()
    other.mkdir(parents=True)
    (other / "python").write_text("#!/bin/sh\necho \"not the course's python\"\n")
    (other / "python").chmod(0o755)
    prepend = f'export PATH="{other}:$PATH"\n'
    (home / ".profile").write_text(prepend)
    (home / ".bashrc").write_text('[ -f "$HOME/.profile" ] && . "$HOME/.profile"\nalias ll="ls -l"\n')
    (home / "envrc").write_text(prepend)
    return home, other


def _venv_bin(tmp_path: Path) -> Path:
    venv_bin = tmp_path / "course" / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "python").write_text("#!/bin/sh\necho \"the course's python\"\n")
    (venv_bin / "python").chmod(0o755)
    return venv_bin


def _in_course_terminal(tmp_path: Path, shell: str, commands: str, profile: str = "", **extra_env: str) -> str:
    """What ``commands`` print in a course terminal; ``profile`` is added to the fake ~/.bashrc
    (``{other}`` names the pyenv-like bin with the wrong python)."""
    home, other = _fake_home(tmp_path)
    with (home / ".bashrc").open("a") as bashrc:
        bashrc.write(profile.format(other=other))
    venv_bin = _venv_bin(tmp_path)
    env = {"PATH": f"{venv_bin}:/usr/bin:/bin", "HOME": str(home), "SHELL": shell, "LANG": "C.UTF-8",
           "MEMCOURSE_VENV_BIN": str(venv_bin), "MEMCOURSE_USER_SHELL": shell, **extra_env}
    result = subprocess.run([str(ROOT / "scripts" / "course-shell")], input=commands + "\nexit\n", env=env,
                            capture_output=True, text=True, timeout=30)
    return result.stdout


@pytest.mark.parametrize("shell", [path for path in ("/bin/bash", "/bin/dash", "/bin/sh") if Path(path).exists()])
def test_a_course_terminal_runs_the_course_python_whatever_the_profile_does(tmp_path, shell):
    out = _in_course_terminal(tmp_path, shell, "echo WHERE $(command -v python) END; python; echo VENV=$VIRTUAL_ENV",
                              ENV=str(tmp_path / "home" / "envrc"))
    venv_bin = tmp_path / "course" / ".venv" / "bin"
    assert f"WHERE {venv_bin}/python END" in out, out
    assert "the course's python" in out and "not the course's" not in out
    assert f"VENV={venv_bin.parent}" in out


@pytest.mark.parametrize("profile", [
    'alias python=/usr/bin/false\n',  # an alias wins over PATH
    'PROMPT_COMMAND=\'PATH="{other}:$PATH"\'\n',  # a prompt hook (direnv, pyenv-virtualenv) changes PATH later
    'PROMPT_COMMAND=(\'PATH="{other}:$PATH"\')\n',  # the same, as bash 5.1's array
])
def test_an_alias_or_a_prompt_hook_in_the_profile_does_not_take_python_back(tmp_path, profile):
    out = _in_course_terminal(tmp_path, "/bin/bash", "true\ntype python; python", profile=profile)
    assert "the course's python" in out and "not the course's" not in out, out
    assert "aliased" not in out, out


def test_a_course_terminal_does_not_inherit_makes_variables(tmp_path):
    """`make course` starts the server: its MAKEFLAGS (holding LAB_ARGS, a token included) must not
    reach a learner's `make` in a terminal."""
    out = _in_course_terminal(tmp_path, "/bin/bash", "echo FLAGS=[$MAKEFLAGS] LEVEL=[$MAKELEVEL]",
                              MAKEFLAGS=" -- LAB_ARGS=--IdentityProvider.token=secret", MAKELEVEL="1")
    assert "FLAGS=[] LEVEL=[]" in out, out


def test_the_profile_still_runs_in_a_course_terminal(tmp_path):
    """The learner's own set-up is kept (aliases, the other PATH entries), only reordered."""
    out = _in_course_terminal(tmp_path, "/bin/bash", "alias ll; echo PATH=$PATH")
    assert "ls -l" in out
    path = next(line for line in out.splitlines() if line.startswith("PATH=")).split("=", 1)[1].split(":")
    assert path[0] == str(tmp_path / "course" / ".venv" / "bin")
    assert str(tmp_path / "pyenv" / "shims") in path


def test_the_wrapper_is_a_plain_shell_without_the_course_settings(tmp_path):
    home, _ = _fake_home(tmp_path)
    result = subprocess.run([str(ROOT / "scripts" / "course-shell")], input="echo ALIVE\nexit\n",
                            env={"PATH": "/usr/bin:/bin", "HOME": str(home), "SHELL": "/bin/sh"},
                            capture_output=True, text=True, timeout=30)
    assert "ALIVE" in result.stdout and "MEMCOURSE_VENV_BIN is not set" in result.stderr
