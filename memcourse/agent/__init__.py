"""The agent side: what uses memory to answer, and what writes it afterwards.

- :mod:`~memcourse.agent.agent`: :class:`~memcourse.agent.agent.MemoryAwareAgent`, one turn
  of read (recall + read gate), reason (compose) and write (the write gate)
- :mod:`~memcourse.agent.compose`: answer composition, deterministic by default, or a model
  through :class:`~memcourse.agent.compose.OpenAICompatibleComposer`
- :mod:`~memcourse.agent.writer`: the background writer, the cold path after the reply
- :mod:`~memcourse.agent.tools`: memory tools a model may call, scoped by the runtime

Nothing is imported here: ``from memcourse import MemoryAwareAgent`` is the short way in.
"""
