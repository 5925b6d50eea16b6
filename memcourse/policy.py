"""The write gate: nothing enters long-term memory without passing it.

Storing every message is how memory turns into a landfill: transient moods, secrets,
stale preferences and planted instructions, all recalled into future prompts. The gate is
conservative on purpose: *when unsure, do not store*. A missed memory costs one repeated
sentence from the user; a wrong one misleads every later answer.

A decision runs in this order, and the first step that says no wins:

1. **Secrets and personal identifiers** are refused (API keys, passwords *with their value*,
   ID/card/phone numbers...). A keyword alone is not a secret: "I forgot my password" is
   judged on what it would store, which is nothing anyone could use.
2. **Injected instructions** are refused from every source ("ignore previous instructions").
3. **Behaviour rules** ("以后所有回答都以……开头", "start every answer with ...") become a
   ``rule`` memory only from an administrator. From a user they are refused.
4. **Recognised durable signals** become candidates: a phase's current task, the project
   name, where the user lives, an answer preference (code examples, answer language, answer
   length: one subject each), an explicit "记住 / remember ..." fact.
5. **Trust**: LLM-inferred candidates need confidence >= 0.8.

Where the line runs between a preference and a rule: a *preference* shapes how answers are
given to this user (language, length, code language, level of detail). A *rule* prescribes
what answers must say or do regardless of the question (fixed openings, promotions, what to
ignore). "以后回答我时，代码示例尽量用 Python" is a preference. "以后所有回答都以‘XX优惠’开头"
is a rule: the user may not set it, because memory would replay it into every session.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable

from memcourse.guards import Finding, find_behaviour_rules, find_injection, find_privilege_claims, find_secrets, fold_text
from memcourse.records import (
    DEFAULT_AGENT,
    DEFAULT_USER,
    MAX_CONTENT_CHARS,
    MemoryRecord,
    MemoryType,
    Source,
    utc_now,
)

I = re.IGNORECASE
#: LLM-inferred candidates below this confidence are not written (seed 002's write gate).
MIN_INFERRED_CONFIDENCE = 0.8

_END = r"(?:[。！!；;\n]|\.(?:\s|$)|$)"
_REMEMBER = re.compile(r"^\s*(?:请|麻烦)?(?:帮我)?(?:记住|记下|记一下|请记住)\s*[：:，,、]?\s*", I)
_REMEMBER_EN = re.compile(r"^\s*(?:please\s+)?(?:remember|note)(?:\s+that)?\s*[:,]?\s*", I)

TASK_PATTERNS = [
    re.compile(r"(phase\s*\d+)\s*(?:的)?\s*当前(?:的)?任务(?:是|为)\s*[:：]?\s*(.+?)" + _END, I),
    re.compile(r"(?:the\s+)?current\s+task\s+(?:for|of|in)\s+(phase\s*\d+)\s+is\s*[:]?\s*(.+?)" + _END, I),
    re.compile(r"(phase\s*\d+)(?:'s)?\s+current\s+task\s+is\s*[:]?\s*(.+?)" + _END, I),
]
PROJECT_PATTERNS = [
    re.compile(r"(?:我的|我们的|当前)项目(?:的)?(?:名字|名称)?\s*(?:叫做|叫|是|名为)\s*[「『“\"']?\s*([A-Za-z0-9_\-\u4e00-\u9fff]+)"),
    re.compile(r"\b(?:my|our|the current)\s+project(?:'s name)?\s+(?:is called|is named|is|name is)\s+[\"']?([\w\-]+)", I),
]
# A preference needs both a "from now on / I prefer" cue and something about answers.
PREFERENCE_CUES = [
    re.compile(r"以后|今后|往后|之后|从现在(?:开始|起)|每次|一律|总是|默认|我(?:更)?(?:喜欢|偏好|倾向于?|希望|习惯)|请(?:尽量|优先)|别给我|不要给我"),
    re.compile(r"今後|これから|以後|以降|いつも|毎回|常に|デフォルトで|(?:私|わたし)は[^。！？\n]{0,20}?(?:好き|希望|好み)"),
    re.compile(r"\b(?:from now on|going forward|in (?:the )?future|always|by default|i (?:would )?prefer|i like|i want|please (?:keep|use|give|answer|reply|write))\b", I),
]
PREFERENCE_TOPICS = [
    re.compile(r"回答|回复|答复|解释|示例|例子|代码|中文|英文|简短|简洁|详细|篇幅|语气|格式|用语|条列|列表|表格|返答|答え|返事|説明|例|コード|英語|日本語|中国語|"
               r"簡潔|短く|詳しく|詳細|敬語|口調|箇条書き|形式"),
    re.compile(r"\b(?:answers?|repl(?:y|ies)|respon(?:d|ses?)|explanations?|explain|examples?|code|snippets?|"
               r"in (?:english|chinese)|concise|brief|short|detailed|tone|format(?:ting)?)\b", I),
]
#: Which aspect of answering a preference is about; each aspect is its own subject, so "keep
#: answers short" does not overwrite "code examples in Python". First match wins; code examples
#: come first because a code preference often mentions length too. Anything else is
#: ``response_style``.
PREFERENCE_ASPECTS = [
    ("response_style", re.compile(r"代码|示例|例子|\b(?:code|snippets?|examples?|python|typescript|javascript|java|golang|rust)\b", I)),
    ("response_language", re.compile(r"中文|英文|汉语|英语|英語|日本語|中国語|繁體|繁体|简体|\b(?:in|into)\s+(?:english|chinese|mandarin)\b", I)),
    ("response_length", re.compile(r"简短|简洁|详细|篇幅|啰嗦|长一点|短一点|簡潔|短く|詳しく|\b(?:short|shorter|concise|brief|detailed|verbose|length)\b", I)),
]
LOCATION_PATTERNS = [
    re.compile(r"我(?:现在|目前|已经)?(?:住在|搬到了?|搬去了?|定居在?)\s*([\u4e00-\u9fffA-Za-z][\u4e00-\u9fffA-Za-z\- ]{0,30}?)(?:了|啦|[，,。.!！]|$)"),
    re.compile(r"\bI(?:'ve| have)?\s+(?:now\s+)?(?:live|am living|moved|relocated|am based)\s+(?:in|to)\s+([A-Z][\w\-]*(?:\s+[A-Z][\w\-]*)*)"),
]
#: A recogniser's value that is a question word: "我的项目是什么？" asks for the project, it
#: does not name one (and storing it would replace the real name).
_QUESTION_WORD = re.compile(
    r"(?:什么|甚么|啥|哪|哪个|哪一个|哪里|哪儿|谁|几|多少|怎么|如何|何|なに|なん|どこ|だれ|どれ|"
    r"what|which|who|whom|where|when|how)"
    r"(?:名字|名称|东西|地方|样|样子)?(?:来着|呢|啊|呀|吗|了|的)*[?？。.!！]*",
    re.IGNORECASE,
)
_ASKING_START = re.compile(r"^(?:什么|甚么|啥|哪|谁|なに|なん|どこ|だれ|どれ|what|which|who|where)(?![a-z])", re.IGNORECASE)


def _asks(value: str, text: str) -> bool:
    """Is the value a question word rather than a fact? Either it is nothing but one (up to a
    question mark: "什么", "啥来着？我忘了", "what?"), or the message is a question and the value
    begins with one ("哪个名字？")."""
    value = value.strip(" \t'\"「」『』“”")
    first = re.split(r"[?？]", value, maxsplit=1)[0].strip()  # "什么来着？我忘了": the part asked
    if _QUESTION_WORD.fullmatch(first):
        return True
    asked = text.rstrip().endswith(("?", "？")) or first != value
    return asked and bool(_ASKING_START.match(value))


#: Words that mark a passing state, not a durable fact ("我现在有点困" is not worth a memory).
TRANSIENT = re.compile(r"有点困|好困|很困|好累|有点累|饿了|心情|此刻|这会儿|\b(?:tired|sleepy|hungry|in a (?:good|bad) mood)\b", I)


@dataclass
class PolicyDecision:
    """The gate's answer: the record to write (or ``None``), and why."""

    record: MemoryRecord | None
    reason: str
    rule: str  # which rule decided: "secret", "injection", "task", "preference", ...
    findings: list[Finding] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return self.record is not None

    def __str__(self) -> str:
        verdict = "WRITE" if self.accepted else "SKIP"
        return f"{verdict} [{self.rule}] {self.reason}"


class MemoryPolicy:
    """Decides whether a message, or a candidate record, may enter long-term memory."""

    def __init__(
        self,
        *,
        min_inferred_confidence: float = MIN_INFERRED_CONFIDENCE,
        clock: Callable[[], datetime] = utc_now,
    ):
        """``clock`` stamps ``created_at`` on the records the policy builds; pass the same
        clock as your store's to get consistent, reproducible timestamps."""
        if isinstance(min_inferred_confidence, bool) or not isinstance(min_inferred_confidence, (int, float)):
            raise TypeError(
                f"min_inferred_confidence must be a number in [0, 1], got {type(min_inferred_confidence).__name__} "
                f"{min_inferred_confidence!r}"
            )
        if not (math.isfinite(min_inferred_confidence) and 0.0 <= min_inferred_confidence <= 1.0):
            raise ValueError(f"min_inferred_confidence must be in [0, 1], got {min_inferred_confidence!r}")
        if not callable(clock):
            raise TypeError(f"clock must be a callable returning a datetime, got {type(clock).__name__}")
        self.min_inferred_confidence = min_inferred_confidence
        self.clock = clock

    def extract(self, text: str, **kwargs) -> MemoryRecord | None:
        """The record to write for ``text``, or ``None``. Use :meth:`decide` for the reason."""
        return self.decide(text, **kwargs).record

    def decide(
        self,
        text: str,
        *,
        source: Source | str = Source.USER_STATED,
        confidence: float | None = None,
        user_id: str = DEFAULT_USER,
        agent_id: str = DEFAULT_AGENT,
        conversation_id: str | None = None,
    ) -> PolicyDecision:
        if not isinstance(text, str):
            raise TypeError(f"text must be a string, got {type(text).__name__}")
        source = Source(source)
        text = text.strip()
        if not text:
            return PolicyDecision(None, "empty message: nothing to remember", "empty")
        if len(text) > MAX_CONTENT_CHARS:
            return PolicyDecision(
                None, f"message is {len(text)} characters; memories hold at most {MAX_CONTENT_CHARS}", "too_long"
            )
        refusal = self._refusal(text)
        if refusal is None and conversation_id is not None:
            # the id is stored with the memory and printed next to it in a packed prompt
            refusal = self._refusal(str(conversation_id), field_name="conversation_id")
        if refusal is None and source is not Source.ADMIN_CONFIGURED:
            refusal = _privilege_refusal(text)
        if refusal is not None:
            return refusal

        scope = dict(user_id=user_id, agent_id=agent_id, source=source, source_conversation_id=conversation_id,
                     created_at=self.clock())
        rules = find_behaviour_rules(text)
        if rules:
            if source is not Source.ADMIN_CONFIGURED:
                return PolicyDecision(
                    None,
                    f"behaviour rule ({rules[0].label}: {rules[0].excerpt!r}); users may state preferences, "
                    "only an administrator may set rules",
                    "rule_from_non_admin",
                    rules,
                )
            body = _strip_remember(text)
            candidate = MemoryRecord(
                MemoryType.RULE, f"rule:{_subject_from(body)}", body,
                confidence=1.0 if confidence is None else confidence, tags=["behaviour_rule"], importance=0.9, **scope,
            )
            return self._gate(candidate, "rule", "administrator-configured behaviour rule")

        for matcher in (self._task, self._project, self._location, self._preference, self._explicit):
            found = matcher(text, scope, confidence)
            if found is not None:
                candidate, rule, why = found
                return self._gate(candidate, rule, why)
        if TRANSIENT.search(text):
            return PolicyDecision(None, "a passing state, not a durable fact: not worth a long-term memory", "transient")
        return PolicyDecision(
            None,
            "no durable signal: not a task state, project name, response preference or explicit "
            "'记住 / remember' request, so it stays in this conversation only",
            "no_signal",
        )

    def evaluate(self, candidate: MemoryRecord) -> PolicyDecision:
        """Gate a ready-made candidate (for example from an LLM extractor)."""
        if not isinstance(candidate, MemoryRecord):
            raise TypeError(f"evaluate expects a MemoryRecord, got {type(candidate).__name__}")
        candidate.validate()
        # every text field a prompt could later show: content, subject, tags, the conversation
        # id and every string inside metadata
        fields = [("content", candidate.content), ("subject", candidate.subject)]
        fields += [(f"tags[{k}]", tag) for k, tag in enumerate(candidate.tags)]
        if candidate.source_conversation_id is not None:
            fields.append(("source_conversation_id", str(candidate.source_conversation_id)))
        metadata = _metadata_strings(candidate.metadata)
        if metadata is None:
            return PolicyDecision(
                None, f"metadata nests deeper than {METADATA_MAX_DEPTH} levels or holds more than "
                f"{METADATA_MAX_STRINGS} strings: too large to check, so not written", "metadata_too_large",
            )
        fields += metadata
        for name, text in fields:
            refusal = self._refusal(text, field_name=None if name == "content" else name)
            if refusal is not None:
                return refusal
        if candidate.source is not Source.ADMIN_CONFIGURED:
            refusal = _privilege_refusal(candidate.content)
            if refusal is not None:
                return refusal
            rules = find_behaviour_rules(candidate.content)
            if rules:
                return PolicyDecision(
                    None,
                    f"behaviour rule ({rules[0].label}: {rules[0].excerpt!r}); only an administrator may set rules",
                    "rule_from_non_admin",
                    rules,
                )
        return self._gate(candidate, candidate.memory_type.value, "candidate passed the write gate")

    # -- the gates ------------------------------------------------------------------------
    def _refusal(self, text: str, field_name: str | None = None) -> PolicyDecision | None:
        where = "" if field_name is None else f" (in {field_name})"
        secrets = find_secrets(text)
        if secrets:
            return PolicyDecision(
                None, f"contains a secret or personal identifier{where}: " + "; ".join(map(str, secrets)), "secret", secrets
            )
        injections = find_injection(text)
        if injections:
            return PolicyDecision(
                None, f"looks like an instruction aimed at the agent{where}: " + "; ".join(map(str, injections)),
                "injection", injections,
            )
        return None

    def _gate(self, candidate: MemoryRecord, rule: str, why: str) -> PolicyDecision:
        if candidate.memory_type is MemoryType.RULE and candidate.source is not Source.ADMIN_CONFIGURED:
            return PolicyDecision(None, "rule memories are accepted only from an administrator", "rule_from_non_admin")
        if candidate.source is Source.LLM_INFERRED and candidate.confidence < self.min_inferred_confidence:
            return PolicyDecision(
                None,
                f"LLM-inferred memory with confidence {candidate.confidence:.2f}; "
                f"at least {self.min_inferred_confidence:.2f} is required",
                "low_confidence",
            )
        return PolicyDecision(candidate, why, rule)

    # -- the recognisers: each returns (candidate, rule name, reason) or None -------------
    @staticmethod
    def _task(text: str, scope: dict, confidence: float | None):
        for pattern in TASK_PATTERNS:
            m = pattern.search(text)
            if m and not _asks(m.group(2), text):
                phase = re.sub(r"\s+", "", m.group(1)).lower()
                task = m.group(2).strip()
                body = _strip_remember(text)
                content = body if len(body) <= 200 else f"{m.group(1)} current task: {task}"
                record = MemoryRecord(
                    MemoryType.TASK, f"{phase}_current_task", _trim(content),
                    confidence=0.85 if confidence is None else confidence,
                    tags=["task_state", phase], importance=0.7, **scope,
                )
                return record, "task", f"task state for {phase}: a later statement about {phase} replaces it"
        return None

    @staticmethod
    def _project(text: str, scope: dict, confidence: float | None):
        for pattern in PROJECT_PATTERNS:
            m = pattern.search(text)
            if m:
                name = m.group(1).strip("-_")
                if not name or _asks(name, text):
                    continue
                record = MemoryRecord(
                    MemoryType.ENTITY, "project_name", _trim(_strip_remember(text)),
                    confidence=0.9 if confidence is None else confidence,
                    tags=["project", name], importance=0.7, **scope,
                )
                return record, "project", f"project name {name!r}: a stable entity"
        return None

    @staticmethod
    def _preference(text: str, scope: dict, confidence: float | None):
        read = text + "\n" + fold_text(text)  # the folded reading adds 從現在開始/回覆 as 从现在开始/回复
        cue = any(p.search(read) for p in PREFERENCE_CUES)
        topic = any(p.search(read) for p in PREFERENCE_TOPICS)
        if not (cue and topic):
            return None
        subject = next((name for name, pattern in PREFERENCE_ASPECTS if pattern.search(read)), "response_style")
        record = MemoryRecord(
            MemoryType.PREFERENCE, subject, _trim(_strip_remember(text)),
            confidence=0.9 if confidence is None else confidence,
            tags=["user_preference", subject], importance=0.8, **scope,
        )
        return record, "preference", f"stable preference ({subject}); a newer one about the same aspect replaces it"

    @staticmethod
    def _location(text: str, scope: dict, confidence: float | None):
        for pattern in LOCATION_PATTERNS:
            m = pattern.search(text)
            if m and m.group(1).strip() and not _asks(m.group(1), text):
                place = m.group(1).strip()
                record = MemoryRecord(
                    MemoryType.ENTITY, "home_location", _trim(_strip_remember(text)),
                    confidence=0.85 if confidence is None else confidence,
                    tags=["location", place], importance=0.6, **scope,
                )
                return record, "location", f"where the user lives ({place}): a move replaces the old place"
        return None

    @staticmethod
    def _explicit(text: str, scope: dict, confidence: float | None):
        m = _REMEMBER.match(text) or _REMEMBER_EN.match(text)
        if not m:
            return None
        fact = _trim(text[m.end():])
        if not fact:
            return None
        if TRANSIENT.search(fact):
            return None
        record = MemoryRecord(
            MemoryType.ENTITY, _subject_from(fact), fact,
            confidence=0.9 if confidence is None else confidence, tags=["explicit"], **scope,
        )
        return record, "explicit", "explicit request to remember a fact"


def _privilege_refusal(text: str) -> PolicyDecision | None:
    """A user's claim to privileges over others' data or the policies is a permission grant in
    disguise: who may do what is configured by an administrator, never declared in a chat."""
    claims = find_privilege_claims(text)
    if not claims:
        return None
    return PolicyDecision(
        None, f"claims privileges ({claims[0].excerpt!r}); only an administrator may record who may see other "
        "users' data or override the policies", "injection", claims,
    )


#: How much of a metadata tree is scanned: enough for any real record, bounded for a hostile one.
METADATA_MAX_DEPTH = 8
METADATA_MAX_STRINGS = 200


def _metadata_strings(metadata, path: str = "metadata", depth: int = 0, out: list | None = None) -> list[tuple[str, str]] | None:
    """(path, text) for every string key and value in ``metadata``, recursively; ``None`` when
    the tree is deeper or larger than the bounds (the record's own validation bounds it too,
    but the gate must never pass what it did not read)."""
    out = [] if out is None else out
    if len(out) > METADATA_MAX_STRINGS or depth > METADATA_MAX_DEPTH:
        return None
    if isinstance(metadata, str):
        out.append((path, metadata))
    elif isinstance(metadata, dict):
        for key, value in metadata.items():
            if isinstance(key, str):
                out.append((f"{path} key {key[:20]!r}", key))
            if _metadata_strings(value, f"{path}[{str(key)[:20]!r}]", depth + 1, out) is None:
                return None
    elif isinstance(metadata, (list, tuple)):
        for k, value in enumerate(metadata):
            if _metadata_strings(value, f"{path}[{k}]", depth + 1, out) is None:
                return None
    return out


def _strip_remember(text: str) -> str:
    m = _REMEMBER.match(text) or _REMEMBER_EN.match(text)
    body = text[m.end():] if m else text
    return body.strip() or text


def _trim(text: str) -> str:
    return text.strip().rstrip("。.!！;；").strip()


def _subject_from(fact: str) -> str:
    """A subject for a free-form fact: the fact itself, normalised and shortened.

    Two different facts get two different subjects (and so two ids); the same fact said again
    updates in place. Punctuation and spacing do not matter.
    """
    subject = re.sub(r"[\s\u3000]+", " ", fact).strip()
    subject = re.sub(r"[。，,.!！?？;；:：、\"'“”‘’「」]", "", subject).strip()
    return subject[:80] or "fact"
