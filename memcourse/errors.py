"""The root of memcourse's exceptions: ``except MemcourseError`` catches every error the
library raises on purpose (not the ``TypeError``/``ValueError`` of a bad argument).

Each class keeps ``RuntimeError`` or ``ValueError`` as a second base where callers already
catch those, so re-basing broke no ``except``::

    MemcourseError
    ├── StoreError (RuntimeError)                 memcourse.stores.base
    │   ├── CorruptStoreError                     the file is not a store, or is damaged
    │   └── TenancyError (ValueError)             an id belongs to another user or agent
    │       └── MisScopedIdError                  a derived id that is not the record's own
    ├── AuditLogError (RuntimeError)              memcourse.extraction.audit: the log is unreadable
    ├── SessionLogError (RuntimeError)            memcourse.session_log: a transcript file is damaged
    ├── PendingMentionsError (RuntimeError)       memcourse.extraction.mentions: the pending-mentions file is damaged
    ├── DocumentAccessError (PermissionError)     memcourse.documents: the caller may not do this with this document
    ├── ConfirmationError (PermissionError)       memcourse.rule_proposals: a confirmation that may not happen
    ├── ReplyError (ValueError)                   memcourse.extraction.parsing: a model reply that is not usable
    ├── LLMError (RuntimeError)                   memcourse.llm: the chat server failed or answered nonsense
    ├── ToolArgumentError (ValueError)            memcourse.agent.tools: a tool call the model got wrong
    ├── WriteRefused (ValueError)                 memcourse.integrations.langgraph: the write gate said no
    └── CourseError (RuntimeError)                memcourse.course.layout: the classroom, not the library
        └── GradingError                          memcourse.course.grading

``tests/test_errors.py`` checks that every exception class defined in memcourse is in this
tree (and so in this drawing).
"""

from __future__ import annotations

__all__ = ["MemcourseError"]


class MemcourseError(Exception):
    """Something memcourse refused or could not do; the message says what and where."""
