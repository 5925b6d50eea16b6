"""Measurements: what the library does, in numbers, on packaged labelled data.

One module per evaluation, each with a ``main(argv)`` behind ``memcourse eval``:

- :mod:`~memcourse.evaluations.recall`: vector vs keyword vs hybrid recall on the bilingual
  recall set (:mod:`~memcourse.evaluations.recall_set`); ``memcourse eval``
- :mod:`~memcourse.evaluations.guards`: the write and read gates on the labelled guard corpus;
  ``memcourse eval --guards``
- :mod:`~memcourse.evaluations.extraction`: extraction + reconciliation on conversations with
  expected memories; ``memcourse eval --extraction``
- :mod:`~memcourse.evaluations.e2e`: multi-session questions answered end to end
  (:mod:`~memcourse.evaluations.e2e_set`); ``memcourse eval --e2e``

Beside them: :mod:`~memcourse.evaluations.datasets` (the one way the packaged data sets are
read) and :mod:`~memcourse.evaluations.residue` (did forgetting leave a byte behind?).

Nothing is imported here, so ``import memcourse.evaluations.residue`` stays light.
"""
