"""A chat client for any server speaking the OpenAI-compatible chat API.

The course never needs a model. When you want one, point :class:`ChatClient` at any server
that speaks ``POST /chat/completions`` (a hosted API, vLLM, llama.cpp's server, Ollama's
OpenAI endpoint...) through three environment variables:

- ``MEMCOURSE_LLM_BASE_URL``  e.g. ``http://127.0.0.1:8000/v1``
- ``MEMCOURSE_LLM_MODEL``     the model name the server expects
- ``MEMCOURSE_LLM_API_KEY``   optional; sent as a bearer token

This module only talks to the server: what the messages say is decided by their users (the
agent's answer composer, :class:`memcourse.agent.compose.OpenAICompatibleComposer`; the LLM
extractor and reconciler; the end-to-end answerer). A stand-in server for tests and offline
demos is :class:`memcourse.testing.LoopbackChatServer`. The standard library's ``urllib``
does the HTTP, so this adds no dependency.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memcourse.errors import MemcourseError

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["ChatClient", "LLMError"]


class LLMError(MemcourseError, RuntimeError):
    """The LLM server could not be reached or answered something unusable."""


@dataclass
class ChatClient:
    """One OpenAI-compatible chat endpoint: ``complete(messages)`` returns the reply text."""

    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 60.0
    temperature: float = 0.2

    @classmethod
    def from_env(cls) -> "Self | None":
        """The client configured by environment variables, or ``None`` if not configured."""
        base_url = os.environ.get("MEMCOURSE_LLM_BASE_URL", "").strip()
        model = os.environ.get("MEMCOURSE_LLM_MODEL", "").strip()
        if not base_url and not model:
            return None
        if not (base_url and model):
            raise LLMError("set both MEMCOURSE_LLM_BASE_URL and MEMCOURSE_LLM_MODEL (or neither)")
        return cls(base_url, model, os.environ.get("MEMCOURSE_LLM_API_KEY") or None)

    def complete(self, messages: list[dict], **options: object) -> str:
        """POST ready-made chat ``messages`` to ``{base_url}/chat/completions`` and return the
        reply text; every failure is an :class:`LLMError` that says what went wrong.

        ``options`` are extra request fields, e.g. ``response_format=`` for structured output
        (:mod:`memcourse.extraction.llm` uses it) or ``max_tokens=``."""
        request_body = {"model": self.model, "messages": messages, "temperature": self.temperature, **options}
        body = json.dumps(request_body).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        url = self.base_url.rstrip("/") + "/chat/completions"
        request = urllib.request.Request(url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                payload = json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as error:
            detail = error.read().decode("utf-8", "replace")[:300]
            raise LLMError(f"{url} answered HTTP {error.code}: {detail}") from None
        except (urllib.error.URLError, TimeoutError, OSError) as error:
            raise LLMError(f"could not reach {url}: {error}") from None
        except json.JSONDecodeError:
            raise LLMError(f"{url} did not return JSON") from None
        try:
            content = payload["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise LLMError(f"{url} returned no choices[0].message.content: {str(payload)[:300]}") from None
        if not isinstance(content, str) or not content.strip():
            raise LLMError(f"{url} returned an empty answer")
        return content.strip()
