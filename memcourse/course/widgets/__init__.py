"""Live demos for the notebooks: thin ipywidgets layers over plain functions.

Each module pairs a plain function that returns data (tests call it directly) with a small
widget builder that wires controls to it. ipywidgets is imported only when a widget is built.

- :mod:`memcourse.course.widgets.policy`: type a message, see the write gate's decision and reason.
- :mod:`memcourse.course.widgets.recall`: move λ, RRF k, limit and mode, watch a ranking and its score breakdown.
- :mod:`memcourse.course.widgets.timeline`: every version of one memory (updates, supersedes), oldest first.
"""

from memcourse.course.widgets.policy import (
    EMPTY_PROMPT,
    INPUT_CLASS,
    RESULT_CLASS,
    WIDGET_CLASS,
    policy_decision_view,
    policy_widget,
    render_policy_html,
)

__all__ = [
    "EMPTY_PROMPT",
    "INPUT_CLASS",
    "RESULT_CLASS",
    "WIDGET_CLASS",
    "policy_decision_view",
    "policy_widget",
    "render_policy_html",
]
from memcourse.course.widgets.recall import (  # noqa: E402  (notebook 06: the recall explorer)
    RECALL_EXPLORER_CLASS,
    RECALL_RESULT_CLASS,
    recall_explorer,
    recall_explorer_view,
    render_recall_html,
)
from memcourse.course.widgets.timeline import (  # noqa: E402  (notebook 09: the memory timeline)
    TIMELINE_CLASS,
    render_timeline_html,
    timeline_view,
    timeline_widget,
)

__all__ += [
    "RECALL_EXPLORER_CLASS",
    "RECALL_RESULT_CLASS",
    "recall_explorer",
    "recall_explorer_view",
    "render_recall_html",
    "TIMELINE_CLASS",
    "render_timeline_html",
    "timeline_view",
    "timeline_widget",
]

# The agent chat widget (notebook 11): chat with the agent, watch its memory panel change.
from memcourse.course.widgets.chat import (  # noqa: E402
    CHAT_CLASS,
    CHAT_INPUT_CLASS,
    MEMORIES_CLASS,
    MEMORY_ITEM_CLASS,
    SEND_CLASS,
    TRANSCRIPT_CLASS,
    chat_turn,
    chat_widget,
    memory_view,
    render_memories_html,
    render_transcript_html,
)

__all__ += [
    "CHAT_CLASS",
    "CHAT_INPUT_CLASS",
    "MEMORIES_CLASS",
    "MEMORY_ITEM_CLASS",
    "SEND_CLASS",
    "TRANSCRIPT_CLASS",
    "chat_turn",
    "chat_widget",
    "memory_view",
    "render_memories_html",
    "render_transcript_html",
]

# The extraction widget (notebook 14): a turn through extraction, the gate and reconciliation.
from memcourse.course.widgets.extraction import (  # noqa: E402
    demo_model,
    extraction_turn,
    extraction_widget,
)

__all__ += ["demo_model", "extraction_turn", "extraction_widget"]
