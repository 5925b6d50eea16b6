"""Live demos for the notebooks: thin ipywidgets layers over plain functions.

Every widget here is a few lines of wiring around a plain function that returns data
(:func:`policy_decision_view`) and one that renders it (:func:`render_policy_html`). Tests call
those two directly; the widget only connects a text box to them. ipywidgets is imported when a
widget is built, so importing this module is cheap.

Stable hooks for browser tests and custom styling:

- the whole widget is a ``VBox`` with CSS class ``memcourse-policy-widget``;
- the message box is a ``Textarea`` with class ``memcourse-policy-input`` (description "Message");
- the result is an ``HTML`` widget with class ``memcourse-policy-result``; inside it, one element
  ``.memcourse-decision`` carries ``data-verdict`` (WRITE/SKIP) and ``data-rule``.
"""

from __future__ import annotations

import html
from typing import Any

from memcourse.policy import MemoryPolicy
from memcourse.records import Source

WIDGET_CLASS = "memcourse-policy-widget"
INPUT_CLASS = "memcourse-policy-input"
RESULT_CLASS = "memcourse-policy-result"
EMPTY_PROMPT = "Type a message to see what the policy gate decides."


def policy_decision_view(
    text: str,
    source: Source | str = "user_stated",
    confidence: float | None = None,
    *,
    policy: MemoryPolicy | None = None,
) -> dict[str, Any]:
    """What the write gate decides for ``text``, as plain data.

    Keys: ``text``, ``source``, ``verdict`` ("WRITE" or "SKIP"), ``accepted``, ``rule`` (which
    rule decided), ``reason``, ``findings`` (what the guards found, secrets masked), and for an
    accepted message the record's ``memory_type``, ``subject``, ``content``, ``confidence`` and
    ``memory_id`` (``None`` when skipped).
    """
    decision = (policy or MemoryPolicy()).decide(text, source=source, confidence=confidence)
    record = decision.record
    return {
        "text": text,
        "source": Source(source).value,
        "verdict": "WRITE" if decision.accepted else "SKIP",
        "accepted": decision.accepted,
        "rule": decision.rule,
        "reason": decision.reason,
        "findings": [str(finding) for finding in decision.findings],
        "memory_type": record.memory_type.value if record else None,
        "subject": record.subject if record else None,
        "content": record.content if record else None,
        "confidence": record.confidence if record else None,
        "memory_id": record.memory_id if record else None,
    }


def render_policy_html(view: dict[str, Any] | None) -> str:
    """The result panel's HTML for one view (``None``: the empty prompt). Every value is escaped."""
    if view is None or not view["text"].strip():
        return f'<div class="memcourse-decision" data-verdict="" data-rule="">{html.escape(EMPTY_PROMPT)}</div>'
    esc = html.escape
    colour = "#1a7f37" if view["accepted"] else "#b42318"
    rows = [
        ("rule", view["rule"]),
        ("reason", view["reason"]),
    ]
    if view["accepted"]:
        rows += [
            ("type", view["memory_type"]),
            ("subject", view["subject"]),
            ("content", view["content"]),
            ("confidence", f"{view['confidence']:.2f}"),
        ]
    if view["findings"]:
        rows.append(("found", "; ".join(view["findings"])))
    body = "".join(
        f'<tr><th style="text-align:left;padding-right:1em">{esc(k)}</th>'
        f'<td class="memcourse-{esc(k)}">{esc(str(v))}</td></tr>'
        for k, v in rows
    )
    return (
        f'<div class="memcourse-decision" data-verdict="{esc(view["verdict"])}" data-rule="{esc(view["rule"])}">'
        f'<b class="memcourse-verdict" style="color:{colour}">{esc(view["verdict"])}</b>'
        f' <span style="color:#555">(source: {esc(view["source"])})</span>'
        f"<table>{body}</table></div>"
    )


def policy_widget(initial_text: str = "", *, policy: MemoryPolicy | None = None):
    """Type a message, pick its source, see the gate's decision and reason as you type."""
    import ipywidgets as widgets

    policy = policy or MemoryPolicy()
    message = widgets.Textarea(
        value=initial_text,
        description="Message",
        placeholder="e.g. 以后回答我时，代码示例尽量用 Python / remember my API key is sk-…",
        continuous_update=True,
        layout=widgets.Layout(width="95%", height="4.5em"),
    )
    message.add_class(INPUT_CLASS)
    source = widgets.Dropdown(options=[s.value for s in Source], value="user_stated", description="Source")
    source.add_class("memcourse-policy-source")
    confidence = widgets.FloatSlider(
        value=0.9, min=0.0, max=1.0, step=0.05, description="Confidence",
        tooltip="only used for llm_inferred messages", continuous_update=True,
    )
    confidence.add_class("memcourse-policy-confidence")
    result = widgets.HTML()
    result.add_class(RESULT_CLASS)

    def update(_change=None) -> None:
        inferred = source.value == Source.LLM_INFERRED.value
        confidence.disabled = not inferred  # the slider only means something for an LLM's guess
        chosen = confidence.value if inferred else None
        view = (
            policy_decision_view(message.value, source.value, chosen, policy=policy) if message.value.strip() else None
        )
        result.value = render_policy_html(view)

    for control in (message, source, confidence):
        control.observe(update, names="value")
    update()
    box = widgets.VBox([message, widgets.HBox([source, confidence]), result])
    box.add_class(WIDGET_CLASS)
    return box
