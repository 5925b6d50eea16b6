"""Scratch folders outlive every cell and disappear with the kernel."""

import subprocess
import sys

from memcourse.course.scratch import scratch_dir


def test_scratch_dir_is_new_and_empty():
    first, second = scratch_dir("memcourse-test-"), scratch_dir("memcourse-test-")
    assert first != second and first.is_dir() and list(first.iterdir()) == []
    assert first.name.startswith("memcourse-test-")


def test_scratch_dir_is_removed_when_the_process_exits(tmp_path):
    code = (
        "from memcourse.course.scratch import scratch_dir; p = scratch_dir(); (p / 'f.json').write_text('{}'); print(p)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    from pathlib import Path

    assert out and not Path(out).exists()
