"""A LangGraph agent that manages its own memory through tools, and a scripted model to drive it.

The graph is the classic tool loop, small enough to read in one go::

    START -> model --(tool calls?)--> tools -> model -> ... -> END

``model`` is any LangChain chat model that supports ``bind_tools`` (a hosted or local
OpenAI-compatible model through ``langchain_openai.ChatOpenAI``, say), and ``tools`` is a
``ToolNode`` over :func:`memcourse.tools.langchain_tools`. Whose memory the tools touch is
never up to the model: it is the run's ``config["configurable"]["user_id"]`` (or the run's
context), set by the application when it invokes the graph.

:class:`ScriptedToolModel` stands in for a model offline: it answers from a script, so a
notebook or a test can play a model that does exactly what a manipulative user asked it to
do, and show that the boundary holds anyway.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from memcourse.tools import MemoryTools, langchain_tools

#: One scripted step: a ready reply, or a function of the conversation so far returning one.
Step = AIMessage | Callable[[list[BaseMessage]], AIMessage]


class ScriptedToolModel(BaseChatModel):
    """A chat model that plays a script of replies (tool calls included), for offline runs.

    ``steps`` are used in order, one per model call; a step may be a function of the
    messages so far (to react to a tool's result). When the script runs out the model says
    ``"(end of script)"``. ``bind_tools`` records the tools it was offered and returns the
    model itself, as a real model's binding would return a model that can call them.
    """

    steps: list[Any]
    bound_tools: list[Any] = []
    calls: int = 0

    @property
    def _llm_type(self) -> str:
        return "memcourse-scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> "ScriptedToolModel":
        self.bound_tools = list(tools)
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.calls < len(self.steps):
            step = self.steps[self.calls]
            message = step(list(messages)) if callable(step) else step
        else:
            message = AIMessage(content="(end of script)")
        self.calls += 1
        return ChatResult(generations=[ChatGeneration(message=message)])


_ids = itertools.count(1)


def tool_call(name: str, **arguments: Any) -> AIMessage:
    """An AI message that calls one tool: ``tool_call("save_memory", content=..., ...)``."""
    return AIMessage(
        content="", tool_calls=[{"name": name, "args": arguments, "id": f"call_{next(_ids)}", "type": "tool_call"}]
    )


def build_tool_agent(model: BaseChatModel, tools: MemoryTools, *, checkpointer: Any = None, max_steps: int = 12):
    """Compile the model <-> tools loop over ``tools``; invoke it with the user in config::

        graph.invoke({"messages": [("user", "...")]},
                     {"configurable": {"user_id": "alice", "thread_id": "t1"}})

    ``max_steps`` bounds the loop (LangGraph's recursion limit is the backstop): a model
    that keeps calling tools is stopped rather than left spinning.
    """
    lc_tools = langchain_tools(tools)
    bound = model.bind_tools(lc_tools)

    def call_model(state: MessagesState) -> dict:
        steps = sum(1 for message in state["messages"] if isinstance(message, AIMessage))
        if steps >= max_steps:
            return {"messages": [AIMessage(content=f"(stopped after {max_steps} model steps)")]}
        return {"messages": [bound.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("model", call_model)
    graph.add_node("tools", ToolNode(lc_tools))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition, {"tools": "tools", END: END})
    graph.add_edge("tools", "model")
    return graph.compile(checkpointer=checkpointer)
