"""An experiment kept because it failed: BM25 normalised by the query's own ceiling.

Weighted fusion normalises each channel by *this query's best* match (``memcourse.recall.fusion``),
so a keyword channel whose best match shares one common word with the query ("meet" in "what is
too early in the day to book a meeting with her?") still scores 1.0, ten such memories tie at the
top, and a paraphrase the dense channel ranked third falls out of the top ten. The idea tried here:
divide BM25 scores by the score an average-length memory holding every query term once would get
(the query's ceiling, ``Σ idf(t) / (1 + k1)``), so a match on one common word is worth little.

Nothing here changes the library: the script patches the ranking in this process only, then runs
the command after ``--``. ``--mode all`` counts every query term in the ceiling (a word no memory
holds at its highest idf); ``--mode known`` only terms some memory holds; ``--mode off`` is the
library as it is. docs/benchmarks.md §5 ("An experiment that failed") has the figures and the
decision::

    .venv/bin/python benchmarks/keyword_ceiling.py --mode all -- \\
        memcourse/cli.py eval --modes hybrid --quiet
    .venv/bin/python benchmarks/keyword_ceiling.py --mode all -- \\
        benchmarks/locomo.py --data ../shared/benchmarks/locomo/locomo-dev.json --modes hybrid --no-baselines
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from patched_run import add_command, run_patched  # noqa: E402

import memcourse.recall.bm25 as bm25  # noqa: E402
import memcourse.recall.hybrid as hybrid  # noqa: E402
from memcourse.text import keyword_tokens  # noqa: E402

_CEILING = "\0ceiling"  # a pseudo-candidate: normalisation divides by max(best, ceiling)


_FREQUENCIES: dict[int, tuple[object, dict[str, int], int]] = {}  # id(index) -> (its built model, df, n)


def _document_frequencies(index: bm25.BM25Index) -> tuple[dict[str, int], int]:
    """How many memories hold each term, counted once per build of the index (not per query)."""
    with index._lock:
        model = index._ensure_built()
        cached = _FREQUENCIES.get(id(index))
        if cached is None or cached[0] is not model:
            frequency: dict[str, int] = {}
            for tokens in index._tokens.values():
                for term in set(tokens):
                    frequency[term] = frequency.get(term, 0) + 1
            cached = _FREQUENCIES[id(index)] = (model, frequency, len(index._tokens))
    return cached[1], cached[2]


def ceiling(index: bm25.BM25Index, query: str, mode: str) -> float:
    """``Σ idf(t) / (1 + k1)`` over the query's distinct terms (bm25s' Lucene idf, tf = 1, mean length)."""
    frequency, n = _document_frequencies(index)
    total = 0.0
    for term in dict.fromkeys(keyword_tokens(query)):
        df = frequency.get(term, 0)
        if df == 0 and mode == "known":
            continue
        total += math.log(1 + (n - df + 0.5) / (df + 0.5)) / (1 + index.k1)
    return total


def patch(mode: str) -> None:
    """Make every hybrid search in this process normalise BM25 by the query's ceiling."""
    if mode == "off":
        return
    current: dict[str, float] = {}
    search, fuse = bm25.BM25Index.search, hybrid.weighted_fusion

    def search_noting_the_ceiling(self, query, **kwargs):
        current["ceiling"] = ceiling(self, query, mode)
        return search(self, query, **kwargs)

    def fusion_under_the_ceiling(scores, weights, **kwargs):
        keyword = scores.get("keyword")
        if keyword and current.get("ceiling", 0.0) > 0:
            scores = {**scores, "keyword": {**keyword, _CEILING: max(current["ceiling"], max(keyword.values()))}}
        return [row for row in fuse(scores, weights, **kwargs) if row[0] != _CEILING]

    bm25.BM25Index.search = search_noting_the_ceiling
    hybrid.weighted_fusion = fusion_under_the_ceiling


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("off", "known", "all"), default="all")
    add_command(parser)
    args = parser.parse_args()
    run_patched(parser, args.command, lambda: patch(args.mode))


if __name__ == "__main__":
    main()
