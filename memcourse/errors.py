"""The root of memcourse's exceptions: ``except MemcourseError`` catches every error the
library raises on purpose (not the ``TypeError``/``ValueError`` of a bad argument).

The tree, as it stands (classes keep ``RuntimeError``/``ValueError`` as a second base where
callers already catch those)::

    MemcourseError
    └── StoreError (RuntimeError)                 memcourse.stores.base
        ├── CorruptStoreError                     the file is not a store, or is damaged
        └── TenancyError (ValueError)             an id belongs to another user or agent
            └── MisScopedIdError                  a derived id that is not the record's own

Other modules' errors join this tree as they are re-based on :class:`MemcourseError`.
"""

from __future__ import annotations

__all__ = ["MemcourseError"]


class MemcourseError(Exception):
    """Something memcourse refused or could not do; the message says what and where."""
