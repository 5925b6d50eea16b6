"""Chat with the memory-aware agent and watch its long-term memory change.

Two plain functions do the work and tests call them directly:

- :func:`chat_turn` runs one turn (``agent.reply``) and returns plain data: the answer, what was
  recalled and blocked, what the write gate decided, what was written, this turn's short-term
  steps, and the user's memories *after* the turn;
- :func:`render_transcript_html` and :func:`render_memories_html` turn that data into HTML
  (every value escaped).

:func:`chat_widget` is the thin ipywidgets layer: a message box (Enter sends, like its button),
the transcript and the memory panel. Stable hooks for browser tests and custom styling:

- the whole widget is a ``VBox`` with CSS class ``memcourse-chat``;
- the message box (:mod:`memcourse.course.widgets.sending`: Enter and Send deliver exactly what
  was typed, never a partial value) has class ``memcourse-chat-input``; inside it an ``<input>``
  and the send button, a ``<button>`` with class ``memcourse-chat-send``;
- the transcript is an ``HTML`` widget with class ``memcourse-chat-transcript``; each turn is a
  ``.memcourse-turn`` element carrying ``data-rule`` (the write gate's rule) and ``data-written``
  (``"true"``/``"false"``); the turns sit in a ``.memcourse-chat-log`` box of fixed height that
  scrolls inside itself and stays pinned to the newest turn, so the input and the memory panel
  never scroll away however long the conversation gets;
- the memory panel is an ``HTML`` widget with class ``memcourse-chat-memories``; inside it, one
  ``.memcourse-memory`` element per active memory of the agent's user, carrying ``data-subject``,
  ``data-type`` and ``data-id``.
"""

from __future__ import annotations

import html
from typing import Any

from memcourse.agent import MemoryAwareAgent
from memcourse.course.widgets.sending import message_box, wire_send
from memcourse.records import MemoryRecord

WIDGET_CLASS = "memcourse-chat"
CHAT_CLASS = WIDGET_CLASS  # exported under this name (policy.WIDGET_CLASS is the policy widget's)
CHAT_INPUT_CLASS = "memcourse-chat-input"
SEND_CLASS = "memcourse-chat-send"
TRANSCRIPT_CLASS = "memcourse-chat-transcript"
MEMORIES_CLASS = "memcourse-chat-memories"
MEMORY_ITEM_CLASS = "memcourse-memory"
EMPTY_TRANSCRIPT = "Say something to the agent: a preference, your project, a question."
EMPTY_MEMORIES = "No long-term memories for this user yet."
LOG_CLASS = "memcourse-chat-log"
#: The transcript and the memory panel scroll inside boxes of this height.
PANEL_HEIGHT = "360px"


def memory_view(record: MemoryRecord) -> dict[str, Any]:
    """One memory as plain data (what the panel shows)."""
    return {
        "memory_id": record.memory_id,
        "memory_type": record.memory_type.value,
        "subject": record.subject,
        "content": record.content,
        "source": record.source.value,
        "confidence": record.confidence,
        "updated_at": record.updated_at.isoformat(),
    }


def chat_turn(agent: MemoryAwareAgent, message: str, *, wait: float | None = 30.0) -> dict[str, Any]:
    """Run one turn of ``agent`` and return what happened, as plain data.

    Keys: ``message``, ``answer``, ``retrieved`` and ``blocked`` (memory views), ``decision``
    (``accepted``, ``rule``, ``reason``), ``written`` (a memory view or ``None``), ``steps`` (this
    turn's short-term state steps) and ``memories`` (the user's active memories after the turn).

    With a background writer (``agent.writer``), the reply returns before the write; here we
    then wait up to ``wait`` seconds for that one write, so the panel shows its result. (The
    agent itself never waits: the widget does, after the answer is already composed.)
    """
    reply = agent.reply(message)
    decision = reply.decision
    written = reply.written
    if reply.pending is not None:
        outcome = reply.pending.result(timeout=wait)
        # A writer with a pipeline resolves to a PipelineResult (its verdict is .decision, what it
        # wrote is .written); a plain writer to the PolicyDecision itself.
        decision = getattr(outcome, "decision", outcome)
        stored = list(getattr(outcome, "written", None) or [])
        if not stored and decision.accepted and decision.record is not None:
            stored = [decision.record]
        if stored:
            written = agent.store.get(stored[0].memory_id)
    memories = agent.store.list_all(user_id=agent.user_id, agent_id=agent.agent_id)
    return {
        "message": message,
        "answer": reply.answer,
        "retrieved": [memory_view(r) for r in reply.retrieved],
        "blocked": [memory_view(r) for r in reply.blocked],
        "decision": {"accepted": decision.accepted, "rule": decision.rule, "reason": decision.reason},
        "written": memory_view(written) if written is not None else None,
        "steps": list(reply.state.get("steps", [])),
        "memories": [memory_view(r) for r in memories],
    }


_TYPE_COLOURS = {
    "preference": "#1f6feb", "entity": "#1a7f37", "task": "#9a6700",
    "event": "#6e7781", "decision": "#8250df", "rule": "#b42318",
}


def render_memories_html(memories: list[dict[str, Any]], *, highlight: str | None = None) -> str:
    """The memory panel: one ``.memcourse-memory`` per memory; ``highlight`` is a memory id to mark
    (the one just written)."""
    esc = html.escape
    if not memories:
        return f'<div class="memcourse-memory-list" data-count="0"><i>{esc(EMPTY_MEMORIES)}</i></div>'
    items = []
    for m in memories:
        colour = _TYPE_COLOURS.get(m["memory_type"], "#555")
        new = m["memory_id"] == highlight
        items.append(
            f'<div class="{MEMORY_ITEM_CLASS}" data-subject="{esc(m["subject"])}" data-type="{esc(m["memory_type"])}" '
            f'data-id="{esc(m["memory_id"])}" style="margin:2px 0;padding:2px 6px;border-left:4px solid {colour};'
            f'{"background:#fff8c5;" if new else ""}">'
            f'<b style="color:{colour}">{esc(m["memory_type"])}</b> · <code>{esc(m["subject"])}</code>'
            f'{" <b>new</b>" if new else ""}<br>{esc(m["content"])}'
            f'<br><span style="color:#6e7781;font-size:85%">{esc(m["source"])}, confidence {m["confidence"]:.2f}, '
            f'{esc(m["updated_at"][:10])}</span></div>'
        )
    return f'<div class="memcourse-memory-list" data-count="{len(memories)}">{"".join(items)}</div>'


def render_transcript_html(turns: list[dict[str, Any]]) -> str:
    """The transcript: each turn's message, answer, and a one-line memory note."""
    esc = html.escape
    if not turns:
        return _log(f'<div class="memcourse-turns"><i>{esc(EMPTY_TRANSCRIPT)}</i></div>')
    parts = []
    for turn in turns:
        decision = turn["decision"]
        written = turn["written"]
        if written is not None:
            note = f'wrote {written["memory_type"]} / {written["subject"]}'
        else:
            note = f'not written ({decision["rule"]})'
        recalled = ", ".join(m["subject"] for m in turn["retrieved"]) or "nothing"
        blocked = f' · blocked: {", ".join(m["subject"] for m in turn["blocked"])}' if turn["blocked"] else ""
        answer = esc(turn["answer"]).replace("\n", "<br>")
        parts.append(
            f'<div class="memcourse-turn" data-rule="{esc(decision["rule"])}" '
            f'data-written="{"true" if written is not None else "false"}" style="margin-bottom:8px">'
            f'<div><b>You:</b> {esc(turn["message"])}</div>'
            f'<div style="margin-left:1em"><b>Agent:</b> {answer}</div>'
            f'<div style="margin-left:1em;color:#6e7781;font-size:85%">recalled: {esc(recalled)}{esc(blocked)}'
            f' · memory: {esc(note)}</div></div>'
        )
    return _log(f'<div class="memcourse-turns">{"".join(parts)}</div>')


def _log(inner: str) -> str:
    """A box of fixed height that scrolls inside itself. ``column-reverse`` makes the browser
    keep it scrolled to the bottom, so the newest turn is in view without any script."""
    return (
        f'<div class="{LOG_CLASS}" style="height:{PANEL_HEIGHT};overflow-y:auto;display:flex;'
        f'flex-direction:column-reverse;border:1px solid #d0d7de;border-radius:4px;padding:6px">'
        f"<div>{inner}</div></div>"
    )


def chat_widget(agent: MemoryAwareAgent, *, messages: list[str] | tuple[str, ...] = ()):
    """A chat box wired to ``agent``; ``messages`` are sent first, as if typed.

    The returned ``VBox`` also has ``.turns`` (the list of :func:`chat_turn` results so far) and
    ``.send(text)`` (what the button does), handy in a notebook.
    """
    import ipywidgets as widgets

    turns: list[dict[str, Any]] = []
    box_input = message_box(
        placeholder="e.g. 以后回答我时，代码示例尽量用 Python / what is my project?",
        label="Message", send_class=SEND_CLASS, width="100%",
    )
    box_input.add_class(CHAT_INPUT_CLASS)
    transcript = widgets.HTML(render_transcript_html(turns), layout=widgets.Layout(width="58%"))
    transcript.add_class(TRANSCRIPT_CLASS)
    memories = widgets.HTML(
        render_memories_html(
            [memory_view(r) for r in agent.store.list_all(user_id=agent.user_id, agent_id=agent.agent_id)]
        ),
        layout=widgets.Layout(width="100%"),
    )
    memories.add_class(MEMORIES_CLASS)

    def send(text: str) -> dict[str, Any] | None:
        text = (text or "").strip()
        if not text:
            return None
        turn = chat_turn(agent, text)
        turns.append(turn)
        transcript.value = render_transcript_html(turns)
        highlight = turn["written"]["memory_id"] if turn["written"] else None
        memories.value = render_memories_html(turn["memories"], highlight=highlight)
        return turn

    wire_send(box_input, send)
    for message in messages:
        send(message)
    memories.layout = widgets.Layout(width="100%", max_height=PANEL_HEIGHT, overflow="auto")
    panel = widgets.VBox([widgets.HTML("<b>Long-term memory</b>"), memories], layout=widgets.Layout(width="40%"))
    box = widgets.VBox([
        box_input,
        widgets.HBox([transcript, panel]),
    ])
    box.add_class(WIDGET_CLASS)
    box.turns = turns
    box.send = send
    return box
