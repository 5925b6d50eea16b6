"""BM25 inside PostgreSQL, with the library's formula and parameters.

The keyword channel ranks by :class:`memcourse.recall.bm25.BM25Index`'s BM25 (bm25s, "lucene"
variant, the stores' ``k1`` and ``b``)::

    score(doc) = sum over the query's distinct terms t in doc of
                 ln(1 + (N - df_t + 0.5) / (df_t + 0.5)) * tf / (tf + k1 * (1 - b + b * len / avgdl))

Scoring in Python meant shipping every candidate's token array out of the database, and a
common word ("user", "the") makes every row a candidate: at 2,000 memories of one user that
was most of a search's time. So the database keeps what BM25 reads, and one query computes it:

- ``agent_memory_terms`` has one row per (user, hashed token, memory) of every *active*
  memory, with the term's frequency ``tf`` in it, the memory's length ``len`` in tokens, and its
  agent and type (the scope filters, so the ranking never joins back to ``agent_memory``). Its
  primary key ``(user_id, token, memory_id)`` INCLUDEs those columns, so a term's postings and
  its ``df`` are one index range of one user, and one memory's posting of a term is one probe,
  both read from the index alone (measured at 10,000 memories: a heap fetch per posting was
  half the query).
- ``N`` and ``avgdl`` are a count and a mean over the user's active rows, read from a covering
  index on ``agent_memory (user_id, status) INCLUDE (keyword_count)`` without touching the table.
- Triggers on ``agent_memory`` keep the postings in step: an insert of an active row adds its
  postings; a change of its status, tokens, owner, agent or type rewrites them; a delete removes them. Every
  write path (upsert, supersede, forget) is covered without the store having to remember.

Statistics are the user's own: one user's words cannot move another user's ranking (the Chroma
store's index is shared by all tenants; with one tenant the two are the same). The scope filter
(agent, type) is applied to the scored rows before the cut to ``limit``, as
``BM25Index.search(allowed=...)`` does. Tokens here are the HMAC-hashed tokens of
:mod:`.sealing`: the postings hold no word in clear, and forgetting deletes them with the row.
"""

from __future__ import annotations

import math
from typing import Any

import psycopg

from memcourse.recall.hybrid import BM25_PARAMS

__all__ = ["install_postings", "bm25_ranking"]

#: Column, index, table and triggers of the keyword channel (after ``agent_memory`` exists).
_POSTINGS_DDL = [
    "ALTER TABLE agent_memory ADD COLUMN IF NOT EXISTS keyword_count integer "
    "GENERATED ALWAYS AS (cardinality(keywords)) STORED",
    "CREATE INDEX IF NOT EXISTS agent_memory_keyword_stats ON agent_memory (user_id, status) INCLUDE (keyword_count)",
    "DROP INDEX IF EXISTS agent_memory_keywords",  # the GIN index of the Python-scored design
    """CREATE TABLE agent_memory_terms (
        user_id text NOT NULL,
        token text NOT NULL,
        memory_id text NOT NULL,
        agent_id text NOT NULL,
        memory_type text NOT NULL,
        tf integer NOT NULL,
        length integer NOT NULL,
        CONSTRAINT agent_memory_terms_covering PRIMARY KEY (user_id, token, memory_id)
            INCLUDE (tf, length, memory_type, agent_id)
    )""",
    "CREATE INDEX IF NOT EXISTS agent_memory_terms_memory ON agent_memory_terms (memory_id)",
    # SET search_path FROM CURRENT: the function always writes this schema's postings, whatever
    # the search_path of the session that fired it.
    """CREATE OR REPLACE FUNCTION agent_memory_terms_sync() RETURNS trigger LANGUAGE plpgsql
    SET search_path FROM CURRENT AS $$
    BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
            DELETE FROM agent_memory_terms WHERE memory_id = OLD.id;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'active' THEN
            INSERT INTO agent_memory_terms (user_id, token, memory_id, agent_id, memory_type, tf, length)
            SELECT NEW.user_id, token, NEW.id, NEW.agent_id, NEW.memory_type, count(*), cardinality(NEW.keywords)
            FROM unnest(NEW.keywords) AS token GROUP BY token;
        END IF;
        RETURN NULL;
    END $$""",
    "CREATE TRIGGER agent_memory_terms_insert AFTER INSERT ON agent_memory "
    "FOR EACH ROW EXECUTE FUNCTION agent_memory_terms_sync()",
    # only when what the postings hold changed: counting an access fires nothing
    "CREATE TRIGGER agent_memory_terms_update AFTER UPDATE ON agent_memory FOR EACH ROW "
    "WHEN ((OLD.status, OLD.keywords, OLD.user_id, OLD.agent_id, OLD.memory_type) IS DISTINCT FROM "
    "(NEW.status, NEW.keywords, NEW.user_id, NEW.agent_id, NEW.memory_type)) EXECUTE FUNCTION "
    "agent_memory_terms_sync()",
    "CREATE TRIGGER agent_memory_terms_delete AFTER DELETE ON agent_memory "
    "FOR EACH ROW EXECUTE FUNCTION agent_memory_terms_sync()",
]


def install_postings(conn: psycopg.Connection) -> None:
    """Create the postings and their triggers once per schema, and fill them from the active rows
    already there (a schema an older version of this store made, which scored in Python).

    Runs under the caller's schema lock; once the table exists it does nothing, so opening a
    store does not take the table lock that (re)creating a trigger needs."""
    exists = conn.execute("SELECT to_regclass('agent_memory_terms') IS NOT NULL").fetchone()
    if exists is not None and exists[0]:
        covering = conn.execute("SELECT to_regclass('agent_memory_terms_covering') IS NOT NULL").fetchone()
        if covering is not None and not covering[0]:  # postings made before the index covered them
            conn.execute("CREATE UNIQUE INDEX agent_memory_terms_covering ON agent_memory_terms "
                         "(user_id, token, memory_id) INCLUDE (tf, length, memory_type, agent_id)")
        return
    for statement in _POSTINGS_DDL:
        conn.execute(statement)
    conn.execute(
        "INSERT INTO agent_memory_terms (user_id, token, memory_id, agent_id, memory_type, tf, length) "
        "SELECT m.user_id, token, m.id, m.agent_id, m.memory_type, count(*), cardinality(m.keywords) "
        "FROM agent_memory m CROSS JOIN LATERAL unnest(m.keywords) AS token "
        "WHERE m.status = 'active' "
        "GROUP BY m.user_id, token, m.id, m.agent_id, m.memory_type")


#: N, avgdl and each query term's df (a row per term found; one row with a NULL token if none is).
_STATISTICS = """
SELECT s.docs, s.mean, f.token, f.df FROM (
    SELECT count(*)::float8 AS docs, coalesce(nullif(avg(keyword_count), 0), 1)::float8 AS mean
    FROM agent_memory WHERE user_id = %(user)s AND status = 'active'
) s LEFT JOIN (
    SELECT token, count(*)::float8 AS df FROM agent_memory_terms
    WHERE user_id = %(user)s AND token = ANY(%(terms)s) GROUP BY token
) f ON true
"""

#: One term's share of a memory's score (the term's idf computed once, in Python, from the df).
_SHARE = "q.idf * t.tf / (t.tf + %(k1)s * (1 - %(b)s + %(b)s * t.length / %(mean)s))"

#: The postings of the terms in ``%({terms})s``. Every sum over them runs in token order
#: (``ORDER BY q.token``), whatever the plan: float addition is not associative, a hash or a
#: sorted aggregate feeds a group's rows in any order, and the last bit then decides between
#: two memories that hold the same terms the same way, which the library's BM25 ties (and
#: orders by id). Measured: with the plan's order, identical memories came out in a wrong order.
_POSTINGS = """unnest(%({terms})s::text[], %({terms}_idf)s::float8[]) AS q(token, idf)
    CROSS JOIN LATERAL (SELECT p.memory_id, p.memory_type, p.tf, p.length FROM agent_memory_terms p
                        WHERE p.user_id = %(user)s AND p.token = q.token {where}) t"""

#: Memories holding a *head* term, scored with every term (a tail term's share by one index
#: probe), the best ``depth`` ranks (ties kept), and how many there were.
_HEAD = """
WITH head AS MATERIALIZED (
    SELECT t.memory_id, t.memory_type, sum({share} ORDER BY q.token) AS score
    FROM {head} GROUP BY t.memory_id, t.memory_type
), scored AS MATERIALIZED (
    SELECT h.memory_id, h.memory_type,
           h.score + coalesce((SELECT sum({share} ORDER BY q.token) FROM {tail}), 0) AS score
    FROM head h
)
SELECT memory_id, memory_type, score, (SELECT count(*) FROM head) FROM (
    SELECT *, rank() OVER (ORDER BY score DESC) AS place FROM scored) ranked
WHERE place <= %(depth)s ORDER BY score DESC, memory_id COLLATE "C"
"""

#: Memories ranked by their *tail* terms alone, the best ``depth`` ranks (ties kept).
_TAIL = """
SELECT memory_id, memory_type, score FROM (
    SELECT *, rank() OVER (ORDER BY score DESC) AS place FROM (
        SELECT t.memory_id, t.memory_type, sum({share} ORDER BY q.token) AS score
        FROM {tail} GROUP BY t.memory_id, t.memory_type
    ) s) ranked
WHERE place <= %(depth)s
"""

Ranked = list[tuple[str, str, float]]


def bm25_ranking(conn: psycopg.Connection, terms: list[str], *, user_id: str, agent_id: str | None,
                 memory_type: str | None, limit: int, k1: float = BM25_PARAMS["k1"],
                 b: float = BM25_PARAMS["b"], with_ties: bool = False) -> Ranked:
    """``(row key, memory_type, score)`` of the user's active rows in scope holding any of
    ``terms`` (hashed, distinct), best first, equal scores by row key, at most ``limit``;
    ``with_ties``: also the rows tied with the last one (the store orders ties by memory id,
    which the database does not know, and cuts to ``limit`` itself).

    Exact, with MaxScore-style pruning. A term most memories hold ("user", a speaker's name) has
    an idf near 0, and summing its 10,000 postings was most of a search's time. Such *tail* terms
    (:func:`_tail`) are not scanned: a memory is a candidate when it holds a *head* term, and its
    tail shares are looked up by key. A memory holding only tail terms scores below the sum ``U``
    of their idfs (each share is ``idf * tf / (tf + K)``, less than idf), so:

    1. the ``limit``-th candidate scores at least ``U``: nothing skipped can reach it; done;
    2. else, when every candidate is in (at most ``limit`` of them), the memories holding only
       tail terms are ranked by those terms alone, ``limit + candidates`` ranks deep (enough: a
       skipped memory that belongs in the answer has fewer than ``limit`` better memories that
       hold no head term, and at most ``candidates`` that do), and the two lists merged;
    3. else the ranking runs again with every term scanned (no tail)."""
    terms = list(dict.fromkeys(terms))
    if not terms:
        return []
    found = conn.execute(_STATISTICS, {"user": user_id, "terms": terms}).fetchall()
    docs, mean = float(found[0][0]), float(found[0][1])
    df = {token: float(count) for _, _, token, count in found if token is not None}
    if not df:
        return []
    idf = {term: math.log(1 + (docs - count + 0.5) / (count + 0.5)) for term, count in df.items()}
    where, params = "", {"user": user_id, "k1": float(k1), "b": float(b), "mean": mean, "depth": limit}
    if agent_id is not None:
        where += " AND p.agent_id = %(agent)s"
        params["agent"] = agent_id
    if memory_type is not None:
        where += " AND p.memory_type = %(type)s"
        params["type"] = memory_type

    def run(template: str, head: list[str], tail: list[str], depth: int) -> list[tuple[Any, ...]]:
        params.update(head=sorted(head), head_idf=[idf[t] for t in sorted(head)], tail=sorted(tail),
                      tail_idf=[idf[t] for t in sorted(tail)], depth=depth)
        lookup = " AND p.memory_id = h.memory_id"
        sql = template.format(share=_SHARE, head=_POSTINGS.format(terms="head", where=where),
                              tail=_POSTINGS.format(terms="tail", where=where if template is _TAIL else lookup))
        return conn.execute(sql, params).fetchall()

    tail = _tail(idf, df, limit, float(k1))
    head = [term for term in df if term not in tail]
    rows = run(_HEAD, head, tail, limit)
    ranked: Ranked = [(key, kind, float(score)) for key, kind, score, _ in rows]
    candidates = rows[0][3] if rows else 0
    bound = sum(idf[t] for t in tail)
    if tail and not (len(ranked) >= limit and ranked[limit - 1][2] >= bound):
        if candidates <= limit:  # 2.: every candidate is in `ranked`
            held = {key for key, _, _ in ranked}
            ranked += [(key, kind, float(score)) for key, kind, score in run(_TAIL, [], tail, limit + candidates)
                       if key not in held]
            ranked.sort(key=lambda item: (-item[2], item[0]))
        else:  # 3.
            ranked = [(key, kind, float(score)) for key, kind, score, _ in run(_HEAD, list(df), [], limit)]
    return _cut(ranked, limit, with_ties)


def _tail(idf: dict[str, float], df: dict[str, float], limit: int, k1: float) -> list[str]:
    """The common terms whose postings need not be read: most frequent first, a term joins
    while the tail together adds less than one remaining head term gives a memory that holds it
    once at the mean length (``idf / (1 + k1)``), so that step 1 of :func:`bm25_ranking` likely
    passes. A term in fewer than ``2 * limit`` memories is not worth skipping; one term stays."""
    tail: list[str] = []
    bound = 0.0
    ranked = sorted(df, key=lambda term: (-df[term], term))
    for i, term in enumerate(ranked[:-1]):
        rest = min(idf[t] for t in ranked[i + 1:])
        if df[term] < 2 * limit or bound + idf[term] > rest / (1 + k1):
            break
        tail.append(term)
        bound += idf[term]
    return tail


def _cut(ranked: Ranked, limit: int, with_ties: bool) -> Ranked:
    """The first ``limit`` of a ranking sorted best first (equal scores by key); ``with_ties``:
    and every row tied with the last of them."""
    if len(ranked) <= limit:
        return ranked
    if not with_ties:
        return ranked[:limit]
    last = ranked[limit - 1][2]
    return [item for item in ranked if item[2] >= last]
