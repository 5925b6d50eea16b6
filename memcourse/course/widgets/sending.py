"""A message box whose Enter and Send deliver exactly the text the learner typed.

Shared by the chat and extraction widgets. Why not an ``ipywidgets.Text`` with a button: its
value reaches the kernel through state updates that the front end *throttles* (one in flight,
the rest buffered until the kernel is idle again), while Enter and a click are custom messages
sent at once. Type fast and press Enter, and the kernel reads the value of a few keystrokes ago:
"北极星。" arrives as "北极", is stored, and clearing the box then races the buffered update,
so the next keystrokes land in the old text.

So the box here is a small front end of its own (anywidget, a well-kept library for exactly
this): on Enter or Send it reads the text from the page's input element, puts it *in the
message itself*, and empties the input before the next keystroke. An Enter that only confirms
an input method's composition (pinyin → 汉字: ``isComposing``, key code 229) sends nothing. If
the kernel cannot use a message (it raised), it sends the text back and the box shows it again.

Browser-test hooks: the box carries the CSS classes given to it (``add_class``); inside, an
``<input>`` and a ``<button class="jupyter-button mod-primary {send_class}">``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

_ESM = r"""
function render({ model, el }) {
  el.classList.add("memcourse-message-box");
  const input = document.createElement("input");
  input.type = "text";
  input.className = "widget-input memcourse-message-text";
  input.placeholder = model.get("placeholder");
  input.setAttribute("aria-label", model.get("label") || "Message");
  const button = document.createElement("button");
  button.className = "jupyter-button mod-primary widget-button " + model.get("send_class");
  button.textContent = model.get("send_label");
  let composing = false;
  input.addEventListener("compositionstart", () => { composing = true; });
  input.addEventListener("compositionend", () => { composing = false; });
  const submit = () => {
    const text = input.value;
    if (!text.trim()) return;
    input.value = "";  // before the next keystroke, whatever the kernel is doing
    model.send({ event: "submit", text });
  };
  // Keys typed here are the learner's, not JupyterLab's shortcuts (ipywidgets does the same).
  input.addEventListener("keypress", (event) => event.stopPropagation());
  input.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key !== "Enter") return;
    if (event.isComposing || composing || event.keyCode === 229) return;  // confirms a composition
    event.preventDefault();
    submit();
  });
  button.addEventListener("click", submit);
  model.on("msg:custom", (message) => {
    if (message && message.event === "restore" && !input.value) input.value = message.text;
  });
  el.append(input, button);
}
export default { render };
"""

_CSS = """
.memcourse-message-box { display: flex; gap: 6px; align-items: center; margin: 2px 0; }
.memcourse-message-box .memcourse-message-text { flex: 1 1 auto; min-width: 12em; height: 28px;
  box-sizing: border-box; padding: 2px 6px; }
"""


@lru_cache(maxsize=1)
def _message_box_class():
    """The widget class, built on first use so that importing the course does not import ipywidgets."""
    import anywidget
    import traitlets

    class MessageBox(anywidget.AnyWidget):
        """An input and a Send button; see the module docstring for why it is not a ``Text``."""

        _esm = _ESM
        _css = _CSS
        placeholder = traitlets.Unicode("").tag(sync=True)
        label = traitlets.Unicode("Message").tag(sync=True)
        send_label = traitlets.Unicode("Send").tag(sync=True)
        send_class = traitlets.Unicode("").tag(sync=True)

        def submit(self, text: str) -> Any:
            """What Enter and Send do in the browser: hand ``text`` to the box's handler."""
            return self._on_text(text)

        def _on_text(self, text: str) -> Any:  # replaced by wire_send
            return None

    return MessageBox


def message_box(*, placeholder: str = "", label: str = "Message", send_label: str = "Send",
                send_class: str = "", width: str = "100%") -> Any:
    """A new message box (not yet wired: see :func:`wire_send`)."""
    import ipywidgets as widgets

    return _message_box_class()(placeholder=placeholder, label=label, send_label=send_label,
                                send_class=send_class, layout=widgets.Layout(width=width))


def wire_send(box: Any, send: Callable[[str], Any]) -> None:
    """Call ``send(text)`` with the exact text of each Enter or Send in ``box``.

    Only ``{"event": "submit", "text": ...}`` messages send; the text comes from the message,
    never from a synced value. If ``send`` raises, the text goes back to the box (the learner
    does not lose it) and the error propagates, so the notebook shows it.
    """

    def on_text(text: str) -> Any:
        try:
            return send(text)
        except Exception:
            box.send({"event": "restore", "text": text})
            raise

    def on_message(_widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("event") == "submit" and isinstance(content.get("text"), str):
            on_text(content["text"])

    box._on_text = on_text
    box.on_msg(on_message)
