"""Type a conversation turn, watch extraction, the gate and reconciliation decide (notebook 14).

Plain functions do the work and tests call them directly:

- :func:`extraction_turn` sends one message through a :class:`~memcourse.extraction.MemoryPipeline`
  and returns plain data: the screen's verdict, what the extractor proposed (and dropped, and
  why), each candidate's gate verdict and reconciliation decision with reasons, the user's
  memories after the turn, and the user's audit log;
- :func:`render_turn_html`, :func:`render_memories_html` and :func:`render_audit_html` turn that
  data into HTML (every value escaped);
- :func:`demo_model` is the notebook's stand-in for a model: a loopback server's answer function
  that proposes memories for a few phrasings ("I like …", "我喜欢…", "we decided …") and sends
  the scripted reply of the shipped conversation set when it knows the message. It is not a
  model and does not pretend to be one; with ``MEMCOURSE_LLM_*`` set the notebook can use yours.

:func:`extraction_widget` is the thin ipywidgets layer. Stable hooks for browser tests:

- the whole widget is a ``VBox`` with class ``memcourse-extraction``;
- the message box (:mod:`memcourse.course.widgets.sending`: Enter and Send deliver exactly what
  was typed) has class ``memcourse-extraction-input``; inside it an ``<input>`` and the button,
  a ``<button>`` with class ``memcourse-extraction-send``;
- the result is an ``HTML`` widget with class ``memcourse-extraction-result``; inside it one
  ``.memcourse-extraction-turn`` carries ``data-outcome`` (``refused`` when the screen stopped the
  message, else the extraction outcome) and ``data-actions`` (the decisions, space-separated);
  each candidate is a ``.memcourse-candidate`` with ``data-gate`` (``WRITE``/``SKIP``/``-``) and
  ``data-action``;
- the memories are in ``memcourse-extraction-memories`` (one ``.memcourse-memory`` each, with
  ``data-subject``), the audit log in ``memcourse-extraction-audit``.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from memcourse.course.i18n import t
from memcourse.course.widgets.sending import message_box, wire_send
from memcourse.extraction import MemoryPipeline, Message
from memcourse.extraction.audit import format_entries
from memcourse.testing import scripted_model
from memcourse.vocabulary import DecisionRule

WIDGET_CLASS = "memcourse-extraction"
INPUT_CLASS = "memcourse-extraction-input"
SEND_CLASS = "memcourse-extraction-send"
RESULT_CLASS = "memcourse-extraction-result"
MEMORIES_CLASS = "memcourse-extraction-memories"
AUDIT_CLASS = "memcourse-extraction-audit"
EMPTY_PROMPT = "Type a turn (\"I like TypeScript\", \"忘掉我住在杭州\", a secret...) and press Send."

_TOY = [
    (re.compile(r"\bI (?:really )?(?:like|love|prefer|enjoy) (?P<x>[A-Z][\w+#.\- ]{0,40}?)[.!]?$"), "preference",
     "favourite_{slug}", "User likes {x}"),
    (re.compile(r"我(?:很|最|特别)?喜欢(?:用)?\s*(?P<x>[A-Za-z][\w+#.\-]{0,30}|[\u4e00-\u9fff]{1,12})"), "preference",
     "favourite_{slug}", "用户喜欢 {x}"),
    (re.compile(r"\bwe (?:finally )?decided to (?P<x>[\w\s\-]{3,60}?)[.!]?$", re.I), "decision", "team_decision",
     "Team decided to {x}"),
    (re.compile(r"我们(?:最后|最终)?决定(?P<x>.{2,40}?)[。！]?$"), "decision", "team_decision", "团队决定{x}"),
]


def demo_model(scripted: dict[str, str] | None = None):
    """An answer function for :class:`~memcourse.testing.LoopbackChatServer`: the scripted reply for
    a known message, else a toy proposal for a few phrasings, else ``{"memories": []}``."""
    return scripted_model(dict(scripted or {}), fallback=_toy_proposal)


def _toy_proposal(text: str) -> str | None:
    """A proposal for a few phrasings ("I like X", "we decided to X"), as a model might make."""
    stripped = text.strip()
    for pattern, kind, subject, template in _TOY:
        m = pattern.search(stripped)
        if m:
            x = m.group("x").strip()
            slug = re.sub(r"[^a-z0-9]+", "_", x.lower()).strip("_") or "thing"
            item = {"kind": "memory", "type": kind, "subject": subject.format(slug=slug)[:48],
                    "content": template.format(x=x), "confidence": 0.9, "importance": 0.6,
                    "evidence": m.group(0).strip(" .!。！")}
            return json.dumps({"memories": [item]}, ensure_ascii=False)
    return None


def _memory(record) -> dict[str, Any]:
    return {"memory_id": record.memory_id, "memory_type": record.memory_type.value, "subject": record.subject,
            "content": record.content, "source": record.source.value, "confidence": record.confidence,
            "importance": record.importance, "tags": list(record.tags), "history": len(record.history)}


def extraction_turn(pipeline: MemoryPipeline, text: str, *, user_id: str = "demo",
                    conversation_id: str = "widget") -> dict[str, Any]:
    """One message through ``pipeline``, as plain data (see the module docstring)."""
    result = pipeline.process(Message(text, conversation_id, pipeline.clock(), user_id))
    extraction = result.extraction
    steps = []
    for step in result.steps:
        decision = step.decision
        steps.append({
            "candidate": step.candidate.summary(),
            "gate": "-" if step.verdict is None else ("WRITE" if step.verdict.accepted else "SKIP"),
            "gate_rule": step.verdict.rule if step.verdict else "",
            "gate_reason": step.verdict.reason if step.verdict else t("a retraction writes nothing: no gate"),
            "action": decision.action if decision else "-",
            "target": decision.target_id if decision else None,
            "reason": decision.reason if decision else "",
            "by": decision.decided_by if decision else "",
            "reconfirm": bool(decision and decision.reconfirm),
        })
    memories = pipeline.store.list_all(user_id=user_id)
    audit = pipeline.audit.entries(user_id) if pipeline.audit is not None else []
    return {
        "message": text,
        "refused": result.screen is not None,
        "screen_rule": result.screen.rule if result.screen else "",
        "screen_reason": result.screen.reason if result.screen else "",
        "extractor": extraction.extractor if extraction else "",
        "outcome": "refused" if result.screen or extraction is None else extraction.outcome,
        "detail": extraction.detail if extraction else "",
        "rejected": [reason for _, reason in extraction.rejected] if extraction else [],
        "steps": steps,
        "actions": [s["action"] for s in steps],
        "memories": [_memory(r) for r in memories],
        "audit": audit,
    }


def render_turn_html(view: dict[str, Any] | None) -> str:
    esc = html.escape
    if view is None:
        return f'<div class="memcourse-extraction-turn" data-outcome="" data-actions="">{esc(t(EMPTY_PROMPT))}</div>'
    shown = t("(not repeated here: it holds a "
              "secret)") if view.get("screen_rule") == DecisionRule.SECRET else view["message"]
    head = (f'<div class="memcourse-extraction-turn" data-outcome="{esc(view["outcome"])}" '
            f'data-actions="{esc(" ".join(view["actions"]))}"><div><b>{esc(t("message"))}</b> {esc(shown)}</div>')
    if view["refused"]:
        body = (f'<div style="color:#b42318"><b>{esc(t("screen: REFUSED"))}</b> [{esc(view["screen_rule"])}] '
                f'{esc(view["screen_reason"])}<br>{esc(t("nothing was extracted, nothing was sent to a model"))}</div>')
        return head + body + "</div>"
    parts = [f'<div><b>{esc(t("extractor"))}</b> {esc(view["extractor"])} → <b>{esc(view["outcome"])}</b> '
             f'<span style="color:#555">{esc(view["detail"])}</span></div>']
    for reason in view["rejected"]:
        parts.append(
            f'<div class="memcourse-rejected" style="color:#b42318">{esc(t("dropped: {reason}", reason=reason))}</div>'
        )
    for step in view["steps"]:
        c = step["candidate"]
        colour = {"WRITE": "#1a7f37", "SKIP": "#b42318"}.get(step["gate"], "#555")
        target = f" → {esc(step['target'])}" if step["target"] else ""
        flag = t(" (marked for reconfirmation)") if step["reconfirm"] else ""
        facts = t("(confidence {confidence:.2f}, importance {importance:.2f}, {source}, evidence “{evidence}”)",
                  confidence=c["confidence"], importance=c["importance"], source=c["source"], evidence=c["evidence"])
        gate = t("gate: {verdict}", verdict=step["gate"])
        parts.append(
            f'<div class="memcourse-candidate" data-gate="{esc(step["gate"])}" data-action="{esc(step["action"])}" '
            f'style="border-left:3px solid {colour};padding-left:.5em;margin:.3em 0">'
            f"<div><b>{esc(c['kind'])}</b> [{esc(c['type'])}] <code>{esc(c['subject'])}</code>: {esc(c['content'])} "
            f'<span style="color:#555">{esc(facts)}</span></div>'
            f'<div><b style="color:{colour}">{esc(gate)}</b> {esc(step["gate_rule"])} — '
            f"{esc(step['gate_reason'])}</div>"
            f"<div><b>{esc(t('decision: {action}', action=step['action']))}</b>{target}{esc(flag)} "
            f"{esc(t('by {decider}', decider=step['by']))} — {esc(step['reason'])}</div></div>"
        )
    return head + "".join(parts) + "</div>"


def render_memories_html(memories: list[dict[str, Any]]) -> str:
    esc = html.escape
    if not memories:
        return f"<i>{esc(t('No active memories for this user.'))}</i>"
    def facts(m: dict[str, Any]) -> str:
        return t("{source}, confidence {confidence:.2f}, importance {importance:.2f}", source=m["source"],
                 confidence=m["confidence"], importance=m["importance"])

    rows = "".join(
        f'<li class="memcourse-memory" data-subject="{esc(m["subject"])}" data-type="{esc(m["memory_type"])}">'
        f"[{esc(m['memory_type'])}] <code>{esc(m['subject'])}</code>: {esc(m['content'])} "
        f'<span style="color:#555">({esc(facts(m))}'
        f"{t(', {count} earlier version(s)', count=m['history']) if m['history'] else ''}"
        f"{', ' + ', '.join(map(esc, m['tags'])) if 'needs_reconfirmation' in m['tags'] else ''})</span></li>"
        for m in memories
    )
    return f"<ul>{rows}</ul>"


def render_audit_html(entries: list[dict[str, Any]], *, last: int = 8) -> str:
    text = format_entries(entries[-last:]) if entries else t("(empty)")
    return f'<pre style="white-space:pre-wrap;font-size:85%">{html.escape(text)}</pre>'


def extraction_widget(pipeline: MemoryPipeline, *, user_id: str = "demo", conversation_id: str = "widget",
                      messages: list[str] | tuple[str, ...] = ()):
    """A text box wired to ``pipeline``; ``messages`` are sent first, as if typed. The returned
    box has ``.turns`` and ``.send(text)``, handy in a notebook."""
    import ipywidgets as widgets

    turns: list[dict[str, Any]] = []
    box_input = message_box(placeholder=t("e.g. I like TypeScript / 忘掉我住在杭州 / my password is …"),
                            label=t("Turn"), send_label=t("Send"), send_class=SEND_CLASS, width="100%")
    box_input.add_class(INPUT_CLASS)
    result = widgets.HTML(render_turn_html(None))
    result.add_class(RESULT_CLASS)
    memories = widgets.HTML(render_memories_html([_memory(r) for r in pipeline.store.list_all(user_id=user_id)]))
    memories.add_class(MEMORIES_CLASS)
    audit = widgets.HTML(render_audit_html(pipeline.audit.entries(user_id) if pipeline.audit else []),
                         layout=widgets.Layout(max_height="14em", overflow="auto"))
    audit.add_class(AUDIT_CLASS)

    def send(text: str) -> dict[str, Any] | None:
        text = (text or "").strip()
        if not text:
            return None
        turn = extraction_turn(pipeline, text, user_id=user_id, conversation_id=conversation_id)
        turns.append(turn)
        result.value = render_turn_html(turn)
        memories.value = render_memories_html(turn["memories"])
        audit.value = render_audit_html(turn["audit"])
        return turn

    wire_send(box_input, send)
    for message in messages:
        send(message)
    box = widgets.VBox([
        box_input, result,
        widgets.HTML(f"<b>{html.escape(t('Long-term memory'))}</b>"), memories,
        widgets.HTML(f"<b>{html.escape(t('Audit log (latest entries)'))}</b>"), audit,
    ])
    box.add_class(WIDGET_CLASS)
    box.turns = turns
    box.send = send
    return box
