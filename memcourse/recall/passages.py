"""A memory that says several things should be found by any one of them.

One vector per memory is an average of everything the memory says. A conversation turn like
"Hi Tim! Congrats on your success! I'm also trying out yoga to get a little extra strength
and flexibility." holds one fact among greetings, and its single vector sits between them:
asked "what is John trying for strength and flexibility?", all-MiniLM-L6-v2 finds the turn far
less close than the yoga sentence alone (notebook 07 measures such a case). The dense channel then
ranks a turn that merely *talks about* the topic above the one that *answers*. Information
retrieval met this long ago with long documents, and scores a document by its best passage
("MaxP", Dai & Callan, 2019).

So the vector channel scores a memory of several sentences by its whole text *and* its best
*passage*: one sentence, with the label the text opens with when it has one (a transcript's
"Tim:", a note's "Ticket SUP-7:", "用户："). A sentence cut out of its text loses who or what it
is about; "Tim: I've been reading fantasy books." is the passage, not "I've been reading fantasy
books.". (On LoCoMo, sentences without the speaker gave back most of the gain: the questions
name the person.) ::

    similarity = PASSAGE_WEIGHT · whole + (1 - PASSAGE_WEIGHT) · max(whole, best passage)

Half and half because each side alone misleads: the best sentence alone overrates a short,
generic sentence ("I love that!") that happens to share the query's topic, the whole alone
buries a fact in small talk (the grid from whole-only to passage-only is in the benchmarks doc). A memory of one
sentence is unchanged (its best sentence is
itself), and the result is never below the whole's cosine, so a memory found by its meaning
is never pushed out by this step.

Passage vectors are derived data, computed from the text when a memory is written. The
embedded store keeps them in the memory's own row of its record database (so a reopened store
does not embed them again, and forgetting the row forgets them); otherwise they come through the
embedder's cache, which stores warm when they write and clear when a memory is forgotten.
Passages the model cannot read (mostly ``[UNK]`` tokens, e.g.
Chinese with the English model, MiniLM) take no part, exactly as whole texts do not.

Measured on LoCoMo's development conversations, tuned on three and checked on the other two
(docs/benchmarks.md, section 1).
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Iterable, Mapping

if TYPE_CHECKING:  # numpy is imported where vectors are handled, so `import memcourse` stays fast
    import numpy as np

from memcourse.text import split_sentences

__all__ = [
    "MAX_PASSAGES", "PASSAGE_WEIGHT", "best_of", "best_passage_similarity", "label", "passage_similarity",
    "passage_texts", "passage_vectors", "passages", "sentences",
]

#: The whole text's share of a multi-sentence memory's similarity (the rest: its best sentence).
PASSAGE_WEIGHT = 0.5
#: At most this many passages per memory: a longer text's sentences are grouped, in order, into
#: this many runs of neighbours, so a huge memory costs a bounded number of vectors.
MAX_PASSAGES = 16
#: A label a text opens with: up to 40 characters without a sentence end, then ": " (an ASCII
#: colon needs the space, so "10:30" and "https://" are not labels) or a full-width "：".
_LABEL = re.compile(r"\s*([^\s:：.!?…。！？][^:：\n.!?…。！？]{0,39}?)\s*(?::\s+|：\s*)")


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` when it has more than one, else ``[]`` (the text is its own
    best sentence, and scoring it twice would change nothing).

    >>> sentences("Hi Tim! I'm trying out yoga. It helps my back.")
    ['Hi Tim!', "I'm trying out yoga.", 'It helps my back.']
    >>> sentences("用户喜欢短回答。周五要交报告！")
    ['用户喜欢短回答。', '周五要交报告！']
    >>> sentences("Upgrade to Python 3.11.6 before Friday")
    []
    """
    pieces = split_sentences(text)
    return pieces if len(pieces) > 1 else []


def label(text: str) -> str | None:
    """The label ``text`` opens with ("Tim" in "Tim: Hi!"), or ``None``.

    >>> label("Tim: Hi John! Fantasy books, mostly."), label("用户：喜欢短回答"), label("Meet at 10:30. Bring slides.")
    ('Tim', '用户', None)
    """
    found = _LABEL.match(text)
    return found.group(1) if found else None


def passages(text: str) -> list[str]:
    """The passages of a text of several sentences (each sentence, with the text's label when
    it has one; runs of neighbouring sentences past :data:`MAX_PASSAGES`), else ``[]``.

    >>> passages("Tim: Hi John! I've been reading fantasy books.")
    ['Tim: Hi John!', "Tim: I've been reading fantasy books."]
    >>> passages("Deploys happen on Fridays. Ask Ana first.")
    ['Deploys happen on Fridays.', 'Ask Ana first.']
    """
    parts = sentences(text)
    if len(parts) > MAX_PASSAGES:
        bounds = [round(i * len(parts) / MAX_PASSAGES) for i in range(MAX_PASSAGES + 1)]
        parts = [" ".join(parts[a:b]) for a, b in pairwise(bounds)]
    name = label(text) if parts else None
    if name is None:
        return parts
    return [parts[0], *(f"{name}: {part}" for part in parts[1:])]


def passage_similarity(whole: float, best_passage: float | None, *, weight: float | None = None) -> float:
    """Mix a memory's whole-text cosine with its best passage's (``None``: one sentence);
    ``weight`` is the whole text's share (a store passes its ``RecallConfig.passage_weight``;
    ``None``: :data:`PASSAGE_WEIGHT`).

    >>> passage_similarity(0.37, 0.71)
    0.54
    >>> passage_similarity(0.60, 0.40)   # a weaker sentence never lowers the whole
    0.6
    >>> passage_similarity(0.5, None)
    0.5
    """
    if best_passage is None:
        return whole
    if weight is None:
        weight = PASSAGE_WEIGHT
    return round(weight * whole + (1.0 - weight) * max(whole, best_passage), 12)


def passage_vectors(texts: Mapping[str, str], embedder: Any, *, min_known: float) -> dict[str, np.ndarray]:
    """For each id in ``texts`` whose text has passages, the vectors of its readable ones
    (shape ``(n, dim)``; ``n`` is 0 when the model can read none of them). One batch through
    ``embedder`` (cached by content); passages whose known-token share is below ``min_known``
    are left out. A store may keep these next to the record, so a reopened store need not
    embed them again."""
    import numpy as np

    owners: list[str] = []
    pieces: list[str] = []
    for memory_id, text in texts.items():
        for passage in passages(text):
            owners.append(memory_id)
            pieces.append(passage)
    readable = [ratio >= min_known for ratio in embedder.known_token_ratios(pieces)]
    kept = [i for i, ok in enumerate(readable) if ok]
    vectors = embedder.embed([pieces[i] for i in kept]) if kept else np.zeros((0, 0), dtype=np.float32)
    rows: dict[str, list[int]] = {owner: [] for owner in owners}
    for row, i in enumerate(kept):
        rows[owners[i]].append(row)
    return {owner: np.asarray(vectors[found], dtype=np.float32).reshape(len(found), vectors.shape[1])
            for owner, found in rows.items()}


def best_of(query_vector: np.ndarray, matrices: Mapping[str, np.ndarray]) -> dict[str, float]:
    """The best passage cosine per id, from each id's passage vectors (ids with none: left out)."""
    import numpy as np

    query = np.asarray(query_vector, dtype=np.float32).reshape(-1)
    return {memory_id: float((matrix @ query).max()) for memory_id, matrix in matrices.items()
            if len(matrix) and matrix.shape[1] == len(query)}


def best_passage_similarity(
    query_vector: np.ndarray, texts: Mapping[str, str], embedder: Any, *, min_known: float
) -> dict[str, float]:
    """For each id in ``texts`` whose text has readable passages, the cosine of its best
    passage with ``query_vector`` (unit length): :func:`passage_vectors`, then :func:`best_of`."""
    return best_of(query_vector, passage_vectors(texts, embedder, min_known=min_known))


def passage_texts(texts: Iterable[str]) -> list[str]:
    """Every passage of every text, for warming or clearing a cache."""
    return [passage for text in texts for passage in passages(text)]
