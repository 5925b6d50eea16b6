"""The classroom, not the library: tools the course uses around the memory library.

Everything under ``memcourse.course`` exists for the learner's benefit (grading and hints, the
progress view, the environment doctor, throwaway scratch folders, the notebook widgets). The memory
library itself (``memcourse.records``, ``memcourse.stores``, ``memcourse.recall``, ...) never imports
from here, so you can read the library without the classroom and ship it without it too.

- :mod:`memcourse.course.grading`: run graded tests, show progress, give hints on request.
- :mod:`memcourse.course.doctor`: check the environment and say how to fix what is missing.
- :mod:`memcourse.course.scratch`: temporary folders for notebooks, removed when the kernel exits.
- :mod:`memcourse.course.widgets`: the live demos (policy gate, recall explorer, timeline, chat).
"""
