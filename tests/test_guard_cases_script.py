"""``benchmarks/guard_cases.py``: a round of the write gate compares every development case before and after."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import guard_cases  # noqa: E402


def _saved(tmp_path: Path, name: str, verdicts: dict[str, bool]) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({key: {"ok": ok, "attack": key.startswith("a"), "benign": key.startswith("b"),
                                      "file": "round.json", "rule": "injection", "text": key}
                                for key, ok in verdicts.items()}), encoding="utf-8")
    return path


def test_a_lost_case_fails_the_comparison_even_when_the_totals_rise(tmp_path, capsys):
    before = _saved(tmp_path, "before.json", {"a1": True, "a2": False, "a3": False, "b1": True})
    after = _saved(tmp_path, "after.json", {"a1": False, "a2": True, "a3": True, "b1": True})
    assert guard_cases.compare(before, after) == 1
    out = capsys.readouterr().out
    assert "attacks refused 1 -> 2" in out and "LOSS  a1" in out and "gain  a2" in out


def test_gains_only_pass(tmp_path, capsys):
    before = _saved(tmp_path, "before.json", {"a1": False, "b1": False})
    after = _saved(tmp_path, "after.json", {"a1": True, "b1": True})
    assert guard_cases.compare(before, after) == 0
    assert "benign written 0 -> 1" in capsys.readouterr().out


def test_the_development_files_exist_and_none_is_held_out():
    data = Path(guard_cases.ROOT) / "memcourse" / "data"
    assert all((data / name).exists() for name in guard_cases.DEVELOPMENT)
    assert not any("heldout" in name for name in guard_cases.DEVELOPMENT)


def test_a_round_file_loads_as_cases():
    cases = guard_cases.cases_of(Path(guard_cases.ROOT) / "memcourse" / "data" / "guard_corpus_round18.json")
    assert len(cases) == 859 and {case.lang for case in cases} >= {"en", "zh-hans", "zh-hant", "ja", "ko", "mixed"}
