"""The classroom, not the library: tools the course uses around the memory library.

Everything under ``memcourse.course`` exists for the learner's benefit (grading and hints, the
progress view, the environment doctor, throwaway scratch folders, the notebook widgets). The memory
library itself (``memcourse.records``, ``memcourse.stores``, ``memcourse.recall``, ...) never imports
from here, so you can read the library without the classroom and ship it without it too.

- :mod:`memcourse.course.layout`: which course folder you are working in, which exercises it has.
- :mod:`memcourse.course.grading`: run the graded tests and score them (``memcourse grade``).
- :mod:`memcourse.course.hints`: hints on request, level 1 to 3 (``memcourse hint NN``).
- :mod:`memcourse.course.progress`: the progress table, in a terminal and in a notebook.
- :mod:`memcourse.course.doctor`: check the environment and say how to fix what is missing.
- :mod:`memcourse.course.i18n`: every message above in the learner's language (``MEMCOURSE_LANG=zh``: 中文).
- :mod:`memcourse.course.scratch`: temporary folders for notebooks, removed when the kernel exits.
- :mod:`memcourse.course.widgets`: the live demos (policy gate, recall explorer, timeline, chat).
- :mod:`memcourse.course.inline_tasks`: the short tasks inside each notebook, checked when run (tasks in ``turns/``).

In a notebook: ``from memcourse.course import show_progress, hint, your_turn``.
"""

from __future__ import annotations

from memcourse.course.grading import show_progress
from memcourse.course.hints import hint
from memcourse.course.inline_tasks import your_turn

__all__ = ["hint", "show_progress", "your_turn"]
