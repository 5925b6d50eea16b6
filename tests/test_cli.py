"""The memcourse command: demo (scripted end to end), doctor, and argument errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memcourse.cli import main

DEMO_SCRIPT = Path(__file__).resolve().parents[1] / "memcourse" / "data" / "two_turn_demo.txt"


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memcourse.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_demo_script_reproduces_the_two_turn_flow_end_to_end(tmp_path):
    store = tmp_path / "demo.json"
    result = run_cli("demo", "--script", str(DEMO_SCRIPT), "--store", str(store), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    first, second = out.split("you> ")[1:3]
    assert "已写入长期记忆（preference / response_style）" in first
    assert "回答风格：优先给Python代码示例。" in second
    assert "本次召回的长期记忆" in second and "代码示例尽量用Python" in second
    saved = json.loads(store.read_text(encoding="utf-8"))
    assert [r["subject"] for r in saved["records"]] == ["response_style"]
    assert "代码示例尽量用Python" in store.read_text(encoding="utf-8")  # stored readable, not \u-escaped


def test_demo_reads_script_from_stdin_and_reset_forgets(tmp_path, monkeypatch, capsys):
    store = tmp_path / "demo.json"
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("记住：我的项目叫 智能客服助手。\n"))
    assert main(["demo", "--script", "-", "--store", str(store)]) == 0
    assert "project_name" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("# only a comment\n"))
    assert main(["demo", "--script", "-", "--store", str(store), "--reset"]) == 0
    assert json.loads(store.read_text(encoding="utf-8"))["records"] == []


def test_demo_interactive_commands(tmp_path, monkeypatch, capsys):
    store = tmp_path / "demo.json"
    answers = iter(["以后回答我问题时，代码示例尽量用Python。", ":memories", ":forget nope", ":quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["demo", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "preference:response_style:" in out
    assert "no memory 'nope'" in out


def test_demo_refuses_a_corrupt_store_without_touching_it(tmp_path, capsys):
    store = tmp_path / "demo.json"
    store.write_text("{not json", encoding="utf-8")
    assert main(["demo", "--script", str(DEMO_SCRIPT), "--store", str(store)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert store.read_text(encoding="utf-8") == "{not json"


def test_demo_missing_script_is_a_clear_error(tmp_path, capsys):
    assert main(["demo", "--script", str(tmp_path / "nope.txt"), "--store", str(tmp_path / "s.json")]) == 2
    assert "cannot read script" in capsys.readouterr().err


def test_doctor_passes_here(tmp_path):
    result = run_cli("doctor", "--data-dir", str(tmp_path / "data"), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "All checks passed." in result.stdout
    assert "[ok  ] embedding model" in result.stdout


def test_unknown_command_exits_with_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["teleport"])
    assert exit_info.value.code == 2
