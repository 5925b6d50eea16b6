"""Send a text box's message on the button *and* on Enter, the way a chat box should behave.

Shared by the chat and extraction widgets. ``Text.on_submit`` is deprecated in ipywidgets 8;
the front end still sends ``{"event": "submit"}`` over the widget's comm when Enter is pressed
(the value is already synced by then), so we listen for that message directly.
"""

from __future__ import annotations

from typing import Any, Callable


def wire_send(box_input: Any, send_button: Any, send: Callable[[str], Any]) -> None:
    """Call ``send(text)`` on click or Enter; clear the box when ``send`` accepted it (not None)."""

    def on_click(_button: Any = None) -> None:
        if send(box_input.value) is not None:
            box_input.value = ""

    def on_message(_widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("event") == "submit":
            on_click()

    send_button.on_click(on_click)
    box_input.on_msg(on_message)
