"""The packaged data sets, read one way.

Every evaluation reads a JSON file shipped in ``memcourse/data/`` unless it is given a path:
the recall set, the guard corpora, the extraction conversations and the end-to-end
benchmark. This module is the one place that knows where they live and how they are read,
so a data set is opened the same way by the CLI, the notebooks and the tests, and a file
that is not the data set it claims to be fails here, by name, before any evaluation runs.

>>> sorted(PACKAGED)[:2]
['e2e_benchmark.json', 'extraction_conversations.json']
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["PACKAGED", "load_json", "read_text"]

#: Every data file the package ships, and what it is for.
PACKAGED = {
    "recall_eval.json": "the bilingual recall set (memcourse eval)",
    "recall_crosslingual.json": "cross-lingual recall queries (memcourse eval --dataset)",
    "guard_corpus.json": "labelled guard cases, development split",
    "guard_corpus_paraphrase.json": "paraphrased guard cases, development split",
    "guard_corpus_heldout.json": "labelled guard cases, held-out split",
    "guard_corpus_paraphrase_heldout.json": "paraphrased guard cases, held-out split",
    "guard_corpus_fresh_heldout.json": "guard cases written blind to the detectors, fresh held-out split",
    "guard_corpus_blind_heldout.json": "guard cases written blind to the detectors and corpora, blind held-out split",
    "guard_corpus_blind2_heldout.json": "guard cases written blind by a later session, second blind held-out split",
    "guard_corpus_blind3_heldout.json": "labelled guard cases, third blind held-out split (aggregates only)",
    "guard_corpus_secrets.json": "credentials, identifiers and look-alikes in nine languages, development split",
    "guard_corpus_secrets_check_heldout.json": "credentials and look-alikes written apart, held-out (aggregates only)",
    "guard_corpus_injections2.json": "paraphrased injections and rules with benign twins, development split",
    "guard_corpus_injections_check_heldout.json": "paraphrased injections written apart, held out",
    "guard_corpus_injections3.json": "paraphrased injections and rules with benign twins, round 9 development split",
    "guard_corpus_injections_check2_heldout.json": "paraphrased injections written apart for round 9, held out",
    "guard_corpus_blind4_heldout.json": "guard cases written blind as round 14's check, held out (aggregates only)",
    "guard_corpus_blind5_heldout.json": "guard cases written blind as round 18's check, held out (aggregates only)",
    "extraction_conversations.json": "conversations with expected memories (memcourse eval --extraction)",
    "e2e_benchmark.json": "multi-session questions (memcourse eval --e2e)",
}


def read_text(path: str | Path | None, *, packaged: str | None = None) -> str:
    """The text of ``path``, or of the packaged file ``packaged`` when ``path`` is None."""
    if path is not None:
        return Path(path).read_text(encoding="utf-8")
    if packaged is None or packaged not in PACKAGED:
        raise ValueError(f"no packaged data set {packaged!r}; there are {sorted(PACKAGED)}")
    return resources.files("memcourse").joinpath("data").joinpath(packaged).read_text(encoding="utf-8")


def load_json(path: str | Path | None, *, packaged: str | None = None, format: str | None = None) -> Any:
    """Parse ``path`` (or the packaged file) as JSON. With ``format``, the top level must be an
    object whose ``"format"`` field says so: a different file is an error, not a wrong score."""
    data = json.loads(read_text(path, packaged=packaged))
    if format is not None and (not isinstance(data, dict) or data.get("format") != format):
        raise ValueError(f"{path or packaged} is not a {format} file (its \"format\" field says otherwise)")
    return data
