"""How long a notebook takes, by a rule anyone can rerun, instead of a number the author guessed.

Why a rule: stated times drift. A notebook grows a section, its "about 30 minutes" stays, and the
course promises 18 hours while it takes 21. The rule below is deliberately simple, so a reader can
check it by hand, and ``tests/test_notebook_conventions.py`` holds every notebook's stated time to
it (within five minutes) and to the course's limit of one sitting.

The rule (reading *and doing*, not the end exercise, which states its own time):

- prose: 150 words a minute (careful reading of technical text, slower than the 200-250 of
  ordinary prose); two Chinese characters count as one word;
- code: 20 non-blank, non-comment lines a minute to read, plus half a minute a code cell to run
  it and look at what it printed, plus 40 lines of printed output a minute;
- a prediction (a ``**Predict:**`` prompt): one minute to think and write the guess down;
- a "your turn" task (``your_turn(...)``): three minutes.

Diagrams are counted as the prose around them (their source lines are not words a learner reads).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["LIMIT_MINUTES", "NotebookTime", "measure", "stated_minutes"]

WORDS_PER_MINUTE = 150
CODE_LINES_PER_MINUTE = 20
MINUTES_PER_CODE_CELL = 0.5
OUTPUT_LINES_PER_MINUTE = 40
MINUTES_PER_PREDICTION = 1.0
MINUTES_PER_TASK = 3.0
#: One sitting: a notebook past this holds two ideas and should be split.
LIMIT_MINUTES = 50

_WORD = re.compile(r"[A-Za-z0-9_'’-]+")
_HAN = re.compile(r"[\u3400-\u9fff]")
_DIAGRAM = re.compile(r"```mermaid.*?```", re.S)
_TIME = re.compile(r"\*\*Time:\*\*\s*about\s+(\d+)\s+minutes")


@dataclass(frozen=True)
class NotebookTime:
    words: int
    code_lines: int
    code_cells: int
    output_lines: int
    predictions: int
    tasks: int

    @property
    def minutes(self) -> float:
        return (self.words / WORDS_PER_MINUTE + self.code_lines / CODE_LINES_PER_MINUTE
                + self.code_cells * MINUTES_PER_CODE_CELL + self.output_lines / OUTPUT_LINES_PER_MINUTE
                + self.predictions * MINUTES_PER_PREDICTION + self.tasks * MINUTES_PER_TASK)

    @property
    def rounded(self) -> int:
        """To the nearest five minutes, as the top cell states it."""
        return max(5, int(5 * round(self.minutes / 5)))


def _text(source: str | list[str]) -> str:
    return "".join(source) if isinstance(source, list) else source


def _output_lines(cell: dict) -> int:
    lines = 0
    for output in cell.get("outputs", []):
        text = output.get("text") or output.get("data", {}).get("text/markdown") or output.get("data", {}).get(
            "text/plain", "")
        lines += len(_text(text).splitlines())
    return lines


def measure(path: Path) -> NotebookTime:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    words = code_lines = code_cells = output_lines = predictions = tasks = 0
    for cell in cells:
        source = _text(cell["source"])
        if cell["cell_type"] == "markdown":
            prose = _DIAGRAM.sub("", source)
            words += len(_WORD.findall(prose)) + len(_HAN.findall(prose)) // 2
            predictions += prose.count("**Predict")
        elif cell["cell_type"] == "code":
            code_cells += 1
            code_lines += sum(1 for line in source.splitlines() if line.strip() and not line.strip().startswith("#"))
            output_lines += _output_lines(cell)
            tasks += len(re.findall(r"\byour_turn\(", source))
    return NotebookTime(words, code_lines, code_cells, output_lines, predictions, tasks)


def stated_minutes(path: Path) -> int | None:
    """The reading time the notebook's first cell states (``**Time:** about N minutes``)."""
    first = json.loads(path.read_text(encoding="utf-8"))["cells"][0]
    match = _TIME.search(_text(first["source"]))
    return int(match.group(1)) if match else None
