"""Extraction and reconciliation: from what the user said to what memory keeps.

- :mod:`~memcourse.extraction.base`: the :class:`Extractor` protocol, :class:`Message`, :class:`Candidate`
- :mod:`~memcourse.extraction.rules`: :class:`RuleExtractor`, the policy's recognisers (+ retractions)
- :mod:`~memcourse.extraction.llm`: :class:`LLMExtractor`, a model behind a strict schema
- :mod:`~memcourse.extraction.hybrid`: :class:`HybridExtractor`, rules first, model for the rest
- :mod:`~memcourse.extraction.parsing`: reading a model's JSON reply as untrusted input
- :mod:`~memcourse.extraction.importance`: the documented importance score
- :mod:`~memcourse.same_fact` (shared with the stores and consolidation): when two texts state the same fact (no model)
- :mod:`~memcourse.extraction.reconcile`: ADD / UPDATE / SUPERSEDE / DELETE / NOOP
- :mod:`~memcourse.extraction.audit`: the per-user, forgettable audit log
- :mod:`~memcourse.extraction.pipeline`: :class:`MemoryPipeline`, all of the above wired together
"""

import logging

from memcourse.extraction.audit import AuditLog, AuditLogError, format_entries
from memcourse.extraction.base import MEMORY, RETRACTION, Candidate, Extraction, Extractor, Message
from memcourse.extraction.hybrid import HybridExtractor
from memcourse.extraction.llm import LLMExtractor
from memcourse.extraction.pipeline import MemoryPipeline, PipelineResult, Step
from memcourse.extraction.reconcile import ACTIONS, Decision, Reconciler, decide_by_rules
from memcourse.extraction.rules import RuleExtractor

# A library logs, the application decides where logs go (nothing is printed by default).
logging.getLogger("memcourse.extraction").addHandler(logging.NullHandler())

__all__ = [
    "ACTIONS", "AuditLog", "AuditLogError", "Candidate", "Decision", "Extraction", "Extractor",
    "HybridExtractor", "LLMExtractor", "MEMORY", "MemoryPipeline", "Message", "PipelineResult",
    "RETRACTION", "Reconciler", "RuleExtractor", "Step", "decide_by_rules", "format_entries",
]
