"""Print each notebook's measured time (memcourse.course.timing's rule) and, with --write, state it.

    python scripts/notebook_times.py            # the table: words, code, tasks, measured vs stated
    python scripts/notebook_times.py --write    # rewrite "**Time:** about N minutes" in each notebook's
                                                # first cell, and the same number in its Chinese translation

The Chinese translation of the first cell is re-pinned only when it was current before the edit
(a stale translation stays stale, so ``scripts/build_zh.py`` still names it).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from build_zh import cell_sha256, translation_path  # noqa: E402

from memcourse.course.timing import LIMIT_MINUTES, measure, stated_minutes  # noqa: E402

_EN = re.compile(r"(\*\*Time:\*\*\s*about\s+)(\d+)(\s+minutes)")
_ZH = re.compile(r"(\*\*时间：\*\*\s*约\s*)(\d+)(\s*分钟)")


def _write(path: Path, minutes: int) -> bool:
    notebook = nbformat.read(path, as_version=4)
    first = notebook.cells[0]
    before_sha = cell_sha256(first)
    text = "".join(first["source"]) if isinstance(first["source"], list) else first["source"]
    new = _EN.sub(lambda m: f"{m.group(1)}{minutes}{m.group(3)}", text, count=1)
    if new == text:
        return False
    first["source"] = new
    nbformat.write(notebook, path)
    translation_file = translation_path(path)
    if translation_file.is_file():
        translation = json.loads(translation_file.read_text(encoding="utf-8"))
        entry = translation["cells"].get(first["id"])
        if entry and entry.get("en_sha256") == before_sha:
            entry["zh"] = _ZH.sub(lambda m: f"{m.group(1)}{minutes}{m.group(3)}", entry["zh"], count=1)
            entry["en_sha256"] = cell_sha256(first)
            translation_file.write_text(json.dumps(translation, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="state the measured time in each notebook")
    args = parser.parse_args(argv)
    print(f"{'notebook':34} {'words':>6} {'code':>5} {'cells':>5} {'out':>5} {'pred':>4} {'tasks':>5} "
          f"{'measured':>8} {'stated':>6}")
    total = 0.0
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        time = measure(path)
        total += time.minutes
        if args.write:
            _write(path, time.rounded)
        flag = "  over the limit" if time.minutes > LIMIT_MINUTES else ""
        print(f"{path.stem[:34]:34} {time.words:6} {time.code_lines:5} {time.code_cells:5} {time.output_lines:5} "
              f"{time.predictions:4} {time.tasks:5} {time.minutes:8.1f} {stated_minutes(path)!s:>6}{flag}")
    print(f"total {total / 60:.1f} hours of reading and doing (limit a notebook: {LIMIT_MINUTES} minutes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
