"""Scratch folders for notebooks: temporary, and gone when the kernel exits.

A notebook that deletes its temporary folder in its last cell pulls the floor from under its
own live widgets: a learner who runs all cells and then plays with a widget is writing to a
store whose file was just deleted. So notebooks take their folder from :func:`scratch_dir`,
which removes it when the Python process (the kernel) exits instead.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path


def scratch_dir(prefix: str = "memcourse-") -> Path:
    """A new empty temporary folder, removed (with everything in it) at interpreter exit."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, path, True)
    return path
