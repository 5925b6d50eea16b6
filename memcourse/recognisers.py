"""The policy's recognisers: which durable signals become which memory, one table.

The write gate (:mod:`memcourse.policy`) first refuses what must never be stored; what is left
becomes a memory only if one of these recognisers finds a durable signal in it: a phase's
current task, the project's name, where the user lives, a preference about how answers should
be, or an explicit "remember: …". Each row of :data:`RECOGNISERS` says what it looks for, which
memory it makes (type, subject, tags, default confidence and importance) and why; one function,
:func:`recognise`, turns a row and a message into a record. Every record stores the exact
string the gate judged (the message after its write wrapper, see
:func:`unwrap`, also here).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from memcourse.guards import Directive, fold_text
from memcourse.records import MemoryRecord, MemoryType
from memcourse.vocabulary import DecisionRule

__all__ = ["RECOGNISERS", "TRANSIENT", "Found", "Recogniser", "recognise", "subject_from", "unwrap", "unwrap_leading"]

_END = r"(?:[。！!；;\n]|\.(?:\s|$)|$)"

# -- the write wrapper ---------------------------------------------------------------------
#: The write wrapper, "remember: …", in every supported language: what follows it is what is
#: stored, so what follows it is what the gate judges. A wrapper needs a separator or "that"
#: after it ("remember when we met?" asks; it does not ask to store).
_SEP = r"\s*[：:，,、]\s*|\s+(?=\S)"
_REMEMBER = re.compile(
    r"^\s*(?:"
    r"(?:请|請|麻烦|麻煩)?(?:帮我|幫我)?(?:记住|記住|记下|記下|记一下|記一下|请记住"
    r"|請記住)\s*[：:，,、]?\s*"  # zh-Hans, zh-Hant
    r"|(?:これを)?(?:覚えておいて|覚えといて|覚えて|記憶して)(?:ください|下さい|ね|ほしい)?\s*[：:，,、。]\s*"  # ja
    r"|(?:이거\s*)?(?:기억해|기억해\s?줘|기억해\s?주세요|기억해\s?둬|기억하세요)\s*[：:，,.]\s*"  # ko
    r"|(?:por favor,?\s+)?(?:recuerda|recuerde|recordá|acuérdate(?: de)?)(?:\s+que)?" + "(?:" + _SEP + ")"  # es
    r"|(?:bitte\s+)?(?:merk dir|merke dir|merken sie sich|denk daran|denke "
    r"daran)(?:,?\s+dass)?" + "(?:" + _SEP + ")"  # de
    r"|(?:s'il te plaît,?\s+)?(?:souviens-toi|souvenez-vous|retiens|retenez|rappelle-toi)(?:\s+(?:bien\s+)?que"
    r"|\s+de)?" + "(?:" + _SEP + ")"  # fr
    r"|(?:пожалуйста,?\s+)?(?:запомни|запомните|помни|учти)(?:,?\s+что)?" + "(?:" + _SEP + ")"  # ru
    r")",
    re.I,
)
_REMEMBER_EN = re.compile(
    r"^\s*(?:please\s+)?(?:remember|note|keep in mind|don'?t forget|do not forget)\b(?:\s+that)?\s*[:,]?\s*", re.I
)


#: The same request said *after* the fact ("I'm vegetarian, please keep that in mind"; 我对花生过敏，
#: 记住这一点): a closing clause that asks to keep what came before it, and says nothing else.
_REMEMBER_AFTER = re.compile(
    r"(?:^|[,，、;；.。!！—–-])\s*(?:"
    r"(?:please\s+|and\s+)?(?:(?:remember|note|keep|bear)\s+(?:that|this|it)(?:\s+in\s+mind)?|don'?t\s+forget"
    r"(?:\s+(?:that|this|it))?)(?:\s*,?\s*(?:please|ok(?:ay)?|thanks?(?:\s+you)?))?"  # en
    r"|(?:请|請|麻烦|麻煩)?(?:帮我|幫我)?(?:记住|記住|记下来|記下來|记下|記下|记着|記著|别忘了|別忘了)(?:这一?点|這一?點|这个|這個|这件事|這件事)?"
    r"(?:哦|喔|啊|吧|呀|哈)?"  # zh-Hans, zh-Hant
    r"|(?:これを|このことを)?(?:覚えておいて|覚えといて|忘れないで)(?:ください|下さい|ね|ほしい)?"  # ja
    r"|(?:이거|이걸|이것을)?\s*(?:기억해\s?(?:줘|주세요|둬|두세요)?|잊지\s?(?:마|마세요|말아\s?줘))"  # ko
    r"|(?:por favor,?\s+)?(?:recuérdalo|recuérdelo|tenlo en cuenta|téngalo en cuenta|no lo olvides)"  # es
    r"|(?:bitte\s+)?(?:merk dir das|merken sie sich das|denk daran|vergiss das nicht|behalte das im hinterkopf)"  # de
    r"|(?:s'il te plaît,?\s+)?(?:retiens-le|retenez-le|souviens-t'en|garde-le en tête|ne l'oublie pas)"  # fr
    r"|(?:пожалуйста,?\s+)?(?:запомни(?:те)?(?:\s+это)?|учти(?:те)?(?:\s+это)?|не забудь(?:те)?)"  # ru
    r")\s*[.。!！~～]*\s*$",
    re.I,
)


def unwrap_leading(text: str) -> str:
    """``text`` without a write wrapper it opens with ("Remember: …"); the text itself otherwise."""
    m = _REMEMBER.match(text) or _REMEMBER_EN.match(text)
    body = text[m.end():] if m else text
    return body.strip() or text.strip()


def unwrap(text: str) -> str:
    """What the gate stores for ``text``: the text after the write wrapper ("Remember:",
    记住, 覚えておいて, 기억해, recuerda, merk dir, souviens-toi, запомни…), or before the same
    request said last ("…, please keep that in mind"), stripped; the text itself when there is
    none. Every check runs on this exact string."""
    body = unwrap_leading(text)
    after = _REMEMBER_AFTER.search(body)
    if after and after.start() > 0:
        body = body[:after.start()]
    return body.strip() or text.strip()


# -- the signals -------------------------------------------------------------------------------
TASK_PATTERNS = [
    re.compile(r"(phase\s*\d+)\s*(?:的)?\s*当前(?:的)?任务(?:是|为)\s*[:：]?\s*(.+?)" + _END, re.I),
    re.compile(r"(?:the\s+)?current\s+task\s+(?:for|of|in)\s+(phase\s*\d+)\s+is\s*[:]?\s*(.+?)" + _END, re.I),
    re.compile(r"(phase\s*\d+)(?:'s)?\s+current\s+task\s+is\s*[:]?\s*(.+?)" + _END, re.I),
]
PROJECT_PATTERNS = [
    re.compile(r"(?:我的|我们的|当前)项目(?:的)?(?:名字|名称)?\s*(?:叫做|叫|是"
               r"|名为)\s*[「『“\"']?\s*([A-Za-z0-9_\-\u4e00-\u9fff]+)"),
    re.compile(r"\b(?:my|our|the current)\s+project(?:'s name)?\s+(?:is called|is named|is|name "
               r"is)\s+[\"']?([\w\-]+)", re.I),
]
# A preference needs both a "from now on / I prefer" cue and something about answers.
PREFERENCE_CUES = [
    re.compile(r"以后|今后|往后|之后|从现在(?:开始|起)|每次|一律|总是|默认|我(?:更)?(?:喜欢|偏好|倾向于?|希望|习惯)"
               r"|请(?:尽量|优先)|别给我|不要给我"),
    re.compile(r"今後|これから|以後|以降|いつも|毎回|常に|デフォルトで"
               r"|(?:私|わたし)は[^。！？\n]{0,20}?(?:好き|希望|好み)"),
    re.compile(r"\b(?:from now on|going forward|in (?:the )?future|always|by default|i (?:would )?prefer|i like|i want"
               r"|please (?:keep|use|give|answer|reply|write))\b", re.I),
]
PREFERENCE_TOPICS = [
    re.compile(r"回答|回复|答复|解释|示例|例子|代码|中文|英文|简短|简洁|详细|篇幅|语气|格式|用语|条列|列表|表格|返答"
               r"|答え|返事|説明|例|コード|英語|日本語|中国語|"
               r"簡潔|短く|詳しく|詳細|敬語|口調|箇条書き|形式"),
    re.compile(r"\b(?:answers?|repl(?:y|ies)|respon(?:d|ses?)|explanations?|explain|examples?|code|snippets?|"
               r"in (?:english|chinese)|concise|brief|short|detailed|tone|format(?:ting)?)\b", re.I),
]
#: Which aspect of answering a preference is about; each aspect is its own subject, so "keep
#: answers short" does not overwrite "code examples in Python". First match wins; code examples
#: come first because a code preference often mentions length too. Anything else is
#: ``response_style``.
PREFERENCE_ASPECTS = [
    (
        "response_style",
        re.compile(
            r"代码|示例|例子|\b(?:code|snippets?|examples?|python|typescript|javascript|java|golang"
            r"|rust)\b",
            re.I,
        ),
    ),
    (
        "response_language",
        re.compile(
            r"中文|英文|汉语|英语|英語|日本語|中国語|繁體|繁体|简体|\b(?:in|into)\s+(?:english|chinese"
            r"|mandarin)\b",
            re.I,
        ),
    ),
    (
        "response_length",
        re.compile(
            r"简短|简洁|详细|篇幅|啰嗦|长一点|短一点|簡潔|短く|詳しく|\b(?:short|shorter|concise|brief|detailed|verbose"
            r"|length)\b",
            re.I,
        ),
    ),
]
LOCATION_PATTERNS = [
    re.compile(
        r"我(?:现在|目前|已经)?(?:住在|搬到了?|搬去了?|定居在?)\s*([\u4e00-\u9fffA-Za-z][\u4e00-\u9fffA-Za-z\- "
        r"]{0,30}?)(?:了|啦"
        r"|[，,。.!！]|$)"
    ),
    re.compile(
        r"\bI(?:'ve| have)?\s+(?:now\s+)?(?:live|am living|moved|relocated|am based)\s+(?:in"
        r"|to)\s+([A-Z][\w\-]*(?:\s+[A-Z][\w\-]*)*)"
    ),
]
#: A recogniser's value that is a question word: "我的项目是什么？" asks for the project, it
#: does not name one (and storing it would replace the real name).
_QUESTION_WORD = re.compile(
    r"(?:什么|甚么|啥|哪|哪个|哪一个|哪里|哪儿|谁|几|多少|怎么|如何|何|なに|なん|どこ|だれ|どれ|"
    r"what|which|who|whom|where|when|how)"
    r"(?:名字|名称|东西|地方|样|样子)?(?:来着|呢|啊|呀|吗|了|的)*[?？。.!！]*",
    re.IGNORECASE,
)
_ASKING_START = re.compile(
    r"^(?:什么|甚么|啥|哪|谁|なに|なん|どこ|だれ|どれ|what|which|who|where)(?![a-z])", re.IGNORECASE
)


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
TRANSIENT = re.compile(
    r"有点困|好困|很困|好累|有点累|饿了|心情|此刻|这会儿|\b(?:tired|sleepy|hungry|in a (?:good|bad) mood)\b", re.I
)


@dataclass(frozen=True)
class Found:
    """What a recogniser found: the memory's subject, its tags, why, and (rarely) a shorter
    content than the whole stored text."""

    subject: str
    tags: list[str]
    why: str
    content: str | None = None


@dataclass(frozen=True)
class Recogniser:
    rule: DecisionRule  # the code the decision carries
    memory_type: MemoryType
    confidence: float  # when the caller gives none
    importance: float
    find: Callable[[str, str, Directive], Found | None]  # (message, stored text, grammar verdict)


def _task(text: str, body: str, directive: Directive) -> Found | None:
    for pattern in TASK_PATTERNS:
        m = pattern.search(text)
        if m and not _asks(m.group(2), text):
            phase = re.sub(r"\s+", "", m.group(1)).lower()
            content = None if len(body) <= 200 else f"{m.group(1)} current task: {m.group(2).strip()}"
            return Found(f"{phase}_current_task", ["task_state", phase],
                         f"task state for {phase}: a later statement about {phase} replaces it", content)
    return None


def _project(text: str, body: str, directive: Directive) -> Found | None:
    for pattern in PROJECT_PATTERNS:
        m = pattern.search(text)
        if m:
            name = m.group(1).strip("-_")
            if name and not _asks(name, text):
                return Found("project_name", ["project", name], f"project name {name!r}: a stable entity")
    return None


def _location(text: str, body: str, directive: Directive) -> Found | None:
    for pattern in LOCATION_PATTERNS:
        m = pattern.search(text)
        if m and m.group(1).strip() and not _asks(m.group(1), text):
            place = m.group(1).strip()
            return Found("home_location", ["location", place], f"where the user lives ({place}): a move replaces the "
                         f"old place")
    return None


def _preference(text: str, body: str, directive: Directive) -> Found | None:
    """A cue and a topic. (The grammar's PREFERENCE verdict only keeps a preference from being
    refused as a rule; it does not make one: it is too broad to decide what is worth storing.)"""
    read = text + "\n" + fold_text(text)  # the folded reading adds 從現在開始/回覆 as 从现在开始/回复
    if not (any(p.search(read) for p in PREFERENCE_CUES) and any(p.search(read) for p in PREFERENCE_TOPICS)):
        return None
    subject = next((name for name, pattern in PREFERENCE_ASPECTS if pattern.search(read)), "response_style")
    return Found(subject, ["user_preference", subject], f"stable preference ({subject}); a newer one about the same "
                           f"aspect replaces it")


def _explicit(text: str, body: str, directive: Directive) -> Found | None:
    if body == text.strip() or not _trim(body) or TRANSIENT.search(body):
        return None  # no write wrapper, or nothing durable after it
    return Found(subject_from(_trim(body)), ["explicit"], "explicit request to remember a fact")


#: First match wins. Confidence and importance are the defaults when the caller gives none.
RECOGNISERS: list[Recogniser] = [
    Recogniser(DecisionRule.TASK, MemoryType.TASK, 0.85, 0.7, _task),
    Recogniser(DecisionRule.PROJECT, MemoryType.ENTITY, 0.9, 0.7, _project),
    Recogniser(DecisionRule.LOCATION, MemoryType.ENTITY, 0.85, 0.6, _location),
    Recogniser(DecisionRule.PREFERENCE, MemoryType.PREFERENCE, 0.9, 0.8, _preference),
    Recogniser(DecisionRule.EXPLICIT, MemoryType.ENTITY, 0.9, 0.5, _explicit),
]


def recognise(recogniser: Recogniser, text: str, body: str, directive: Directive, scope: dict,
              confidence: float | None) -> tuple[MemoryRecord, str] | None:
    """The record ``recogniser`` makes of ``text`` (stored as ``body``), and why; or ``None``."""
    found = recogniser.find(text, body, directive)
    if found is None:
        return None
    record = MemoryRecord(
        recogniser.memory_type, found.subject, _trim(found.content or body),
        confidence=recogniser.confidence if confidence is None else confidence,
        tags=found.tags, importance=recogniser.importance, **scope,
    )
    return record, found.why


def _trim(text: str) -> str:
    return text.strip().rstrip("。.!！;；").strip()


def subject_from(fact: str) -> str:
    """A subject for a free-form fact: the fact itself, normalised and shortened.

    Two different facts get two different subjects (and so two ids); the same fact said again
    updates in place. Punctuation and spacing do not matter.
    """
    subject = re.sub(r"[\s\u3000]+", " ", fact).strip()
    subject = re.sub(r"[。，,.!！?？;；:：、\"'“”‘’「」]", "", subject).strip()
    return subject[:80] or "fact"
