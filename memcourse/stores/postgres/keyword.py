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
  primary key starts ``(user_id, token)``, so a term's postings and its ``df`` are one index
  range of one user.
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
        PRIMARY KEY (user_id, token, memory_id)
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
        return
    for statement in _POSTINGS_DDL:
        conn.execute(statement)
    conn.execute(
        "INSERT INTO agent_memory_terms (user_id, token, memory_id, agent_id, memory_type, tf, length) "
        "SELECT m.user_id, token, m.id, m.agent_id, m.memory_type, count(*), cardinality(m.keywords) "
        "FROM agent_memory m CROSS JOIN LATERAL unnest(m.keywords) AS token "
        "WHERE m.status = 'active' "
        "GROUP BY m.user_id, token, m.id, m.agent_id, m.memory_type")


# MATERIALIZED: N, avgdl and each df are computed once (left inline, the planner re-ran the
# count for every posting: 7 s instead of 40 ms at 2,000 memories). Ties are broken by id in
# code-point order (COLLATE "C"), as BM25Index does, whatever the database's collation.
_RANKING = """
WITH stats AS MATERIALIZED (
    SELECT count(*)::float8 AS docs, coalesce(nullif(avg(keyword_count), 0), 1)::float8 AS mean
    FROM agent_memory WHERE user_id = %(user)s AND status = 'active'
), frequency AS MATERIALIZED (
    SELECT token, count(*)::float8 AS df FROM agent_memory_terms
    WHERE user_id = %(user)s AND token = ANY(%(terms)s) GROUP BY token
), scored AS (
    SELECT t.memory_id, t.memory_type,
           sum(ln(1 + (s.docs - f.df + 0.5) / (f.df + 0.5))
               * t.tf / (t.tf + %(k1)s * (1 - %(b)s + %(b)s * t.length / s.mean))) AS score
    FROM agent_memory_terms t JOIN frequency f USING (token) CROSS JOIN stats s
    WHERE t.user_id = %(user)s AND t.token = ANY(%(terms)s) {scope}
    GROUP BY t.memory_id, t.memory_type
)
{cut}
"""
_CUT = 'SELECT memory_id, memory_type, score FROM scored WHERE score > 0 ORDER BY score DESC, memory_id COLLATE "C" ' \
       'LIMIT %(limit)s'
# every row whose score is among the best ``limit`` (rank() gives equal scores one rank)
_CUT_WITH_TIES = ('SELECT memory_id, memory_type, score FROM ('
                  'SELECT memory_id, memory_type, score, rank() OVER (ORDER BY score DESC) AS place '
                  'FROM scored WHERE score > 0) ranked WHERE place <= %(limit)s '
                  'ORDER BY score DESC, memory_id COLLATE "C"')


def bm25_ranking(conn: psycopg.Connection, terms: list[str], *, user_id: str, agent_id: str | None,
                 memory_type: str | None, limit: int, k1: float = BM25_PARAMS["k1"],
                 b: float = BM25_PARAMS["b"], with_ties: bool = False) -> list[tuple[str, str, float]]:
    """``(row key, memory_type, score)`` of the user's active rows in scope holding any of
    ``terms`` (hashed, distinct), best first, equal scores by row key, at most ``limit``;
    ``with_ties``: also the rows tied with the last one (the store orders ties by memory id,
    which the database does not know, and cuts to ``limit`` itself)."""
    terms = list(dict.fromkeys(terms))
    if not terms:
        return []
    scope, params = "", {"user": user_id, "terms": terms, "k1": float(k1), "b": float(b), "limit": limit}
    if agent_id is not None:
        scope += " AND t.agent_id = %(agent)s"
        params["agent"] = agent_id
    if memory_type is not None:
        scope += " AND t.memory_type = %(type)s"
        params["type"] = memory_type
    cursor = conn.execute(_RANKING.format(scope=scope, cut=_CUT_WITH_TIES if with_ties else _CUT), params)
    return [(doc_id, kind, float(score)) for doc_id, kind, score in cursor.fetchall()]
