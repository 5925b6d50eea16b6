"""Live demos for the notebooks: thin ipywidgets layers over plain functions.

Each module pairs a plain function that returns data (tests call it directly) with a small
widget builder that wires controls to it. ipywidgets is imported only when a widget is built.

- :mod:`memcourse.widgets.policy`: type a message, see the write gate's decision and reason.
"""

from memcourse.widgets.policy import (
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
