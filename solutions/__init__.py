"""Reference solutions, one module per exercise, with the same function names as ``exercises/``.

The graded tests run against ``exercises/`` by default; ``memcourse grade --target solutions``
(or ``MEMCOURSE_TARGET=solutions``) runs them against these instead.
"""
