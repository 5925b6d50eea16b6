"""Write docs/glossary.md: the course's words, each with a one-line meaning and where it is introduced.

The "introduced in" column is *computed* the same way as the Chinese glossary's
(``scripts/zh_glossary.py``): the first notebook after 00 whose prose matches the term (00's course
map previews nearly every term). Notebook 00 links here. Run it after notebooks change;
``tests/test_glossary.py`` fails when the committed page differs from a fresh run.

    python scripts/glossary.py           # write docs/glossary.md
    python scripts/glossary.py --check   # compare only
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from zh_glossary import introduced_in, notebooks, prose, write_or_check  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "docs" / "glossary.md"

#: (term, pattern in the English prose, meaning), grouped as the course meets them.
TERMS = [
    ("RAG (retrieval-augmented generation)", r"\bRAG\b",
     "fetching documents that are the same for every user, as evidence for an answer; not memory of the user."),
    ("checkpoint", r"checkpoint",
     "the saved state of one run (steps, observations, pending actions) so it can resume; it ends with the run."),
    ("long-term memory", r"long-term memory",
     "what an agent keeps about a user across sessions and recalls in later ones."),
    ("typed record", r"typed record",
     "a memory with a type (preference, entity, task, event, decision, rule), a subject and its provenance, "
     "instead of a bare string."),
    ("subject", r"\bsubject\b",
     "what a memory is about (`response_style`, `pet.name`): the key that lets a new statement update the old one."),
    ("provenance", r"provenance",
     "where a memory came from (source, conversation id, confidence), kept so it can be trusted, checked or undone."),
    ("write gate (policy)", r"write gate|policy gate|write policy",
     "the decision, with a reason, whether a message may become a memory: worth keeping, not a secret, "
     "not an instruction."),
    ("read gate (admission)", r"read gate|admission",
     "the second check after recall and before the prompt: expired, superseded, low-confidence or "
     "instruction-like memories are not admitted."),
    ("trust boundary", r"trust boundary",
     "the line between what a user may state (facts, their own preferences) and what only an administrator may "
     "set (the agent's rules)."),
    ("prompt injection", r"injection",
     "text that tries to change the agent's instructions, identity or permissions; stored in memory it would act in "
     "every later session."),
    ("fence", r"\bfence",
     "recalled memories wrapped as quoted, escaped data in the prompt, so a memory is read as background and never "
     "run as an instruction."),
    ("Luhn check", r"Luhn",
     "the checksum that card numbers satisfy; the secret detector uses it to tell a card number from any 16 digits."),
    ("tokeniser (jieba)", r"tokeni[sz]|jieba",
     "what splits text into words; Chinese has no spaces, so the course uses jieba to cut it into words."),
    ("BM25", r"BM25",
     "the classic keyword ranking: shared words weighted by rarity (idf), with term frequency saturating and long "
     "documents normalised (Robertson & Zaragoza, 2009)."),
    ("embedding (embedder)", r"embedd",
     "a vector that places texts of similar meaning near each other; the embedder is the model that computes it."),
    ("cosine similarity", r"cosine",
     "the angle-based similarity of two embeddings, from -1 to 1; its scale differs per model, so every threshold "
     "on it belongs to the model."),
    ("[UNK]", r"\[UNK\]",
     "the token an English-only model gives a character it does not know; most Chinese characters become [UNK] "
     "in MiniLM."),
    ("keyword channel / vector channel", r"keyword channel|vector channel",
     "the two ways recall ranks memories: by shared words (BM25) and by embedding similarity."),
    ("HNSW", r"HNSW",
     "Hierarchical Navigable Small World graphs: the approximate nearest-neighbour index behind Chroma and "
     "pgvector; fast, but a filter applied after it can return too few rows."),
    ("hybrid recall", r"hybrid",
     "ranking by both channels at once and fusing their scores or ranks."),
    ("RRF (reciprocal rank fusion)", r"\bRRF\b",
     "fusing rankings by summing 1/(k + rank) over the channels (Cormack, Clarke & Büttcher, 2009)."),
    ("vector_sharpen", r"sharpen",
     "the exponent applied to normalised cosines before fusion, so a model whose cosines bunch together still "
     "separates good from middling matches."),
    ("passage score (MaxP)", r"MaxP|passage",
     "scoring a long memory by its best sentence as well as its whole text; MaxP is Dai & Callan's (2019) name for "
     "taking the maximum over passages."),
    ("time decay (λ)", r"\bdecay",
     "a bounded factor that lowers a memory's score the longer it goes unused; λ sets how fast."),
    ("Recall@k", r"Recall@|R@\d",
     "the share of questions whose right memory is among the top k results."),
    ("MRR (mean reciprocal rank)", r"\bMRR\b",
     "the mean of 1/rank of the first right result; it rewards putting the right memory first."),
    ("LoCoMo", r"LoCoMo",
     "a benchmark of long multi-session conversations with questions and evidence turns (Maharana et al., 2024); "
     "its categories are 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial; the course scores "
     "1-4."),
    ("held-out split", r"held-out",
     "test data kept out of development, so a figure on it says how the method generalises; once its misses "
     "are read or its totals steer a choice, it drifts towards development data (the course says which)."),
    ("supersede", r"supersed",
     "replacing a memory with a newer one while keeping the old one, marked superseded and linked to the new."),
    ("validity (valid_from / valid_to)", r"validity|valid_from",
     "the time range in which a fact held; an update closes the old fact's range."),
    ("as-of query", r"as-of|\bas_of\b",
     "recall of what was true at a past moment, not what is true now."),
    ("near-duplicate threshold", r"near-duplicate|dedup",
     "the cosine above which two memories count as the same fact and are merged; set per model."),
    ("forget", r"\bforget",
     "deleting every copy of a memory (its chain, vectors, index entries, derived records), proved by searching the "
     "bytes."),
    ("crypto-shredding", r"crypto-shred|per-user key",
     "encrypting each user's memories under a key of their own and destroying the key to forget, so copies in "
     "backups or logs become unreadable."),
    ("WAL (write-ahead log)", r"\bWAL\b",
     "PostgreSQL's write-ahead log: a deleted row lives on in it until its segment is recycled (and in its "
     "heap page until vacuum)."),
    ("tenant", r"tenan",
     "one user or customer whose memories must never be visible to another."),
    ("namespace", r"namespace",
     "the scope a memory lives in (user, agent, project, task); LangGraph's store addresses items by namespace "
     "tuples."),
    ("hot path / cold path", r"hot path|cold path",
     "work done while the user waits (fast, small writes) and work done after the session (consolidation, "
     "re-indexing)."),
    ("extraction", r"extract",
     "finding candidate memories in a conversation (by rules, a model or both); every candidate still goes through "
     "the write gate."),
    ("reconciliation", r"reconciliation|reconcile[sd]? (?:a |the |each |every )?(?:candidate|memor)",
     "comparing a candidate with what is stored and deciding ADD, UPDATE, DELETE or NOOP, with an audit line."),
    ("consolidation", r"consolidat",
     "after a session, merging, deduplicating and summarising memories on the cold path."),
    ("MemGPT", r"MemGPT",
     "a design where the model manages its own memory through tools, like an operating system paging memory "
     "(Packer et al., 2023)."),
    ("LangGraph store / checkpointer", r"LangGraph",
     "LangGraph's two persistence layers: the checkpointer keeps a thread's state, the store keeps memories across "
     "threads."),
    ("pgvector", r"pgvector",
     "the PostgreSQL extension for vector columns and nearest-neighbour indexes (HNSW, IVFFlat)."),
    ("atomic write", r"atomic",
     "writing a file so that a crash leaves either the old or the new version, never half of one."),
]


def render() -> str:
    texts = {path.name: prose(path) for path in notebooks()}
    lines = [
        "# Glossary",
        "",
        "Each term with a one-line meaning and the notebook that introduces it. Generated by "
        "`python scripts/glossary.py`: the last column is the first notebook after 00 whose prose uses the term "
        "(00's course map previews nearly every term). 中文术语表: [`zh/glossary.md`](zh/glossary.md).",
        "",
        "| term | meaning | introduced in |",
        "|---|---|---|",
    ]
    for term, pattern, meaning in TERMS:
        where = introduced_in(pattern, texts)
        cell = f"[{where[:2]}](../notebooks/{where})" if where else "—"
        lines.append(f"| {term} | {meaning} | {cell} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    return write_or_check(render(), OUTPUT, "glossary.py", len(TERMS), argv, __doc__.split("\n\n")[0])


if __name__ == "__main__":
    sys.exit(main())
