"""``memcourse eval --extraction``: which memories does each extractor end up with?

Extraction is judged by the memories a user *ends* with, after every update, retraction and
refusal, not by the candidates along the way: a pipeline that proposes the right fact and
then lets a later message overwrite it has still failed. The shipped conversation set
(``memcourse/data/extraction_conversations.json``: four users, twelve sessions, Chinese and
English) lists the memories each user should end with. For each extractor this runs the whole
pipeline (screen, extract, gate, reconcile) over every message in order, on a fresh JSON store,
and reports

- **precision**: the share of final memories that match an expected one (one-to-one), and
- **recall**: the share of expected memories that some final memory matches.

Rows:

``rules``               the rule extractor alone (no model, deterministic)
``hybrid (scripted)``   rules first, then the *scripted* model replies stored in the set, served
                        by a loopback OpenAI-compatible server: a replay that exercises the
                        parser, the gate and reconciliation offline. It scores what the pipeline
                        makes of those replies, not how good any model is.
``hybrid (MODEL)``      rules first, then your model, which also reconciles; only when
                        ``MEMCOURSE_LLM_BASE_URL`` and ``MEMCOURSE_LLM_MODEL`` are set
                        (see docs/extraction.md for Ollama and llama.cpp's server).

Usage: ``memcourse eval --extraction [--dataset FILE] [--strict] [--show-misses] [--no-live] [--audit USER]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Callable

from memcourse.evaluations.datasets import load_json
from memcourse.extraction import (
    AuditLog,
    HybridExtractor,
    LLMExtractor,
    MemoryPipeline,
    Message,
    Reconciler,
    format_entries,
)
from memcourse.extraction.base import Extractor
from memcourse.extraction.importance import WRITE_THRESHOLD
from memcourse.extraction.mentions import PendingMentions
from memcourse.extraction.rules import RuleExtractor
from memcourse.llm import ChatClient, LLMError
from memcourse.records import MemoryRecord, MemoryType, parse_timestamp
from memcourse.stores.json_store import JsonMemoryStore
from memcourse.testing import LoopbackChatServer, scripted_model

#: Minutes between two messages of one session (the set stores each session's start only).
MESSAGE_GAP = timedelta(minutes=2)


# -- the data set ----------------------------------------------------------------------------
def load_set(path: str | Path | None = None) -> dict[str, Any]:
    """The conversation set, checked: a malformed file is an error naming the bad entry."""
    data = load_json(path, packaged="extraction_conversations.json", format="memcourse.extraction-conversations")
    for number, conv in enumerate(data["conversations"]):
        for key in ("user", "conversation_id", "start", "messages"):
            if key not in conv:
                raise ValueError(f"conversations[{number}] lacks {key!r}")
        parse_timestamp(conv["start"], f"conversations[{number}].start")
        for position, message in enumerate(conv["messages"]):
            if not isinstance(message.get("text"), str) or not message["text"].strip():
                raise ValueError(f"conversations[{number}].messages[{position}].text must be a non-empty string")
    for number, item in enumerate(data["expected"]):
        MemoryType(item["type"])
        if not item.get("must_include"):
            raise ValueError(f"expected[{number}] needs must_include")
    return data


def messages(data: dict[str, Any]) -> list[Message]:
    """Every message of the set as a :class:`Message`, in conversation order."""
    out = []
    for conv in data["conversations"]:
        start = parse_timestamp(conv["start"], "start")
        for position, item in enumerate(conv["messages"]):
            out.append(Message(item["text"], conv["conversation_id"], start + position * MESSAGE_GAP, conv["user"]))
    return out


def scripted_replies(data: dict[str, Any]) -> dict[str, str]:
    """Message text -> the scripted model reply stored with it (``repeat`` multiplies it)."""
    replies = {}
    for conv in data["conversations"]:
        for item in conv["messages"]:
            if "model_reply" in item:
                replies[item["text"]] = item["model_reply"] * int(item.get("repeat", 1))
    return replies


def scripted_server(replies: dict[str, str]) -> LoopbackChatServer:
    """A loopback server answering each extraction request with that message's scripted reply."""
    return LoopbackChatServer(scripted_model(replies), model="scripted")


# -- running and scoring -----------------------------------------------------------------------
@dataclass
class Run:
    name: str
    final: list[MemoryRecord]
    model_calls: int
    seconds: float
    audit: AuditLog | None = None
    outcomes: dict[str, int] = field(default_factory=dict)


def run_pipeline(data: dict[str, Any], extractor: Extractor, *, workdir: Path, name: str,
                 reconcile_model: ChatClient | None = None, write_threshold: float = WRITE_THRESHOLD) -> Run:
    """Every message through a fresh pipeline on a JSON store under ``workdir`` (pending
    mentions in files there too, as a deployment would keep them)."""
    workdir.mkdir(parents=True, exist_ok=True)
    now = {"t": datetime.fromisoformat("2026-01-01T00:00:00+00:00")}
    clock: Callable[[], datetime] = lambda: now["t"]  # noqa: E731 - the store's clock follows the messages
    store = JsonMemoryStore(workdir / "memories.json", clock=clock)
    audit = AuditLog(workdir / "audit")
    reconciler = Reconciler(store, model=reconcile_model)
    pipeline = MemoryPipeline(store, extractor=extractor, reconciler=reconciler, audit=audit, clock=clock,
                              mentions=PendingMentions(workdir / "mentions"), write_threshold=write_threshold)
    outcomes: dict[str, int] = {}
    started = time.perf_counter()
    for message in messages(data):
        now["t"] = message.at
        result = pipeline.process(message)
        if result.screen is not None:
            key = "screen:" + result.screen.rule
        elif result.extraction is not None:
            key = "extraction:" + result.extraction.outcome
        else:
            raise RuntimeError(f"the pipeline returned neither a screen nor an extraction for {message.text!r}")
        outcomes[key] = outcomes.get(key, 0) + 1
    seconds = time.perf_counter() - started
    calls = getattr(extractor, "calls", 0) or getattr(getattr(extractor, "model", None), "calls", 0)
    return Run(name, store.list_all(), calls + reconciler.calls, seconds, audit, outcomes)


def matches(record: MemoryRecord, expected: dict[str, Any], *, strict: bool) -> bool:
    content = record.content.casefold()
    return (
        record.user_id == expected["user"]
        and record.memory_type.value == expected["type"]
        and all(word.casefold() in content for word in expected["must_include"])
        and not any(word.casefold() in content for word in expected.get("must_exclude", []))
        and (not strict or "subject" not in expected or record.subject == expected["subject"])
    )


@dataclass
class Score:
    precision: float
    recall: float
    matched: list[tuple[dict, MemoryRecord]]
    missing: list[dict]
    extra: list[MemoryRecord]


def score(final: list[MemoryRecord], expected: list[dict[str, Any]], *, strict: bool = False) -> Score:
    """One-to-one matching, expected items in order, each taking the first unused match."""
    unused = list(final)
    matched, missing = [], []
    for item in expected:
        hit = next((record for record in unused if matches(record, item, strict=strict)), None)
        if hit is None:
            missing.append(item)
        else:
            unused.remove(hit)
            matched.append((item, hit))
    precision = len(matched) / len(final) if final else 1.0
    recall = len(matched) / len(expected) if expected else 1.0
    return Score(precision, recall, matched, missing, unused)


def format_table(rows: list[tuple[Run, Score]]) -> str:
    lines = [
        f"{'extractor':<34} {'final':>5} {'correct':>7} {'precision':>9} {'recall':>6} "
        f"{'model calls':>11} {'seconds':>7}"
    ]
    for run, result in rows:
        lines.append(f"{run.name:<34} {len(run.final):>5} {len(result.matched):>7} {result.precision:>9.2f} "
                     f"{result.recall:>6.2f} {run.model_calls:>11} {run.seconds:>7.1f}")
    return "\n".join(lines)


def evaluate(data: dict[str, Any], *, workdir: Path, strict: bool = False, live: bool = True,
             timeout: float = 60.0, write_threshold: float = WRITE_THRESHOLD) -> list[tuple[Run, Score]]:
    """The table's rows: rules, scripted hybrid, and the configured model when there is one."""
    rows = []
    runs = [run_pipeline(data, RuleExtractor(), workdir=workdir / "rules", name="rules",
                         write_threshold=write_threshold)]
    with scripted_server(scripted_replies(data)) as server:
        model = LLMExtractor(ChatClient(server.base_url, "scripted", timeout=10.0))
        runs.append(run_pipeline(data, HybridExtractor(model), workdir=workdir / "scripted",
                                 name="hybrid (scripted replies)", write_threshold=write_threshold))
    composer = ChatClient.from_env() if live else None
    if composer is not None:
        composer.timeout = timeout
        composer.temperature = 0.0
        runs.append(run_pipeline(data, HybridExtractor(LLMExtractor(composer)), workdir=workdir / "live",
                                 name=f"hybrid ({composer.model})", reconcile_model=composer,
                                 write_threshold=write_threshold))
    for run in runs:
        rows.append((run, score(run.final, data["expected"], strict=strict)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="memcourse eval --extraction",
        description="Which memories does each extractor end up with? Precision and recall of the final "
                    "memories on a conversation set: rules, the scripted hybrid, and your model when "
                    "MEMCOURSE_LLM_BASE_URL and MEMCOURSE_LLM_MODEL are set (see docs/extraction.md).")
    parser.add_argument("--dataset", type=Path, default=None, help="a conversation set (default: the packaged one)")
    parser.add_argument("--strict", action="store_true", help="subjects must match too, where the set gives one")
    parser.add_argument("--show-misses", action="store_true", help="list missing and unexpected memories per row")
    parser.add_argument("--no-live", action="store_true", help="skip the configured model even if MEMCOURSE_LLM_* is "
                        "set")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per model call (default: %(default)s)")
    parser.add_argument("--audit", metavar="USER", default=None,
                        help="also print USER's audit log from the scripted run")
    args = parser.parse_args(argv)
    try:
        data = load_set(args.dataset)
    except (OSError, ValueError, KeyError) as error:
        print(f"memcourse eval --extraction: {error}", file=sys.stderr)
        return 2
    total = sum(len(conv["messages"]) for conv in data["conversations"])
    users = sorted({conv["user"] for conv in data["conversations"]})
    print(f"{total} messages, {len(data['conversations'])} sessions, {len(users)} users, "
          f"{len(data['expected'])} expected memories")
    try:
        with tempfile.TemporaryDirectory(prefix="memcourse-extraction-") as tmp:
            rows = evaluate(data, workdir=Path(tmp), strict=args.strict, live=not args.no_live, timeout=args.timeout)
            audit = rows[1][0].audit
            audit_text = format_entries(audit.entries(args.audit)) if args.audit and audit is not None else ""
    except LLMError as error:
        print(f"memcourse eval --extraction: {error}", file=sys.stderr)
        return 2
    print(format_table(rows))
    if audit_text:
        print(f"\naudit log of {args.audit!r} (scripted run):\n{audit_text}")
    if args.show_misses:
        for run, result in rows:
            print(f"\n{run.name}:")
            for item in result.missing:
                print(f"  missing  {item['user']} {item['type']} {item.get('subject', '')} {item['must_include']}")
            for record in result.extra:
                print(f"  extra    {record.user_id} {record.memory_type.value} {record.subject}: {record.content}")
    return 0
