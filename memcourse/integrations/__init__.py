"""Bridges from memcourse to agent frameworks.

- :mod:`memcourse.integrations.langgraph`: ``MemcourseStore``, any memcourse store as a
  LangGraph ``BaseStore`` (pass it as ``store=`` when compiling a graph).
- :mod:`memcourse.integrations.memory_graph`: a small deterministic LangGraph graph that
  recalls, answers from documents, checks grounding and writes memories through the policy.

Nothing is imported here on purpose: ``langgraph`` takes a second to import, and
``import memcourse`` must stay fast for notebooks that never touch it.
"""
