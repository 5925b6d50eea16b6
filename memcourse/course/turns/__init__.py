"""The "your turn" tasks of each notebook: ``nbNN.py`` holds the ``"NN.k"`` tasks as ``TURNS``.

See :mod:`memcourse.course.inline_tasks` for how a notebook calls them and why they exist.
"""

from __future__ import annotations

import pkgutil

#: The task modules, found on disk, so adding ``nb16.py`` needs no edit here.
MODULES = sorted(info.name for info in pkgutil.iter_modules(__path__) if info.name.startswith("nb"))
