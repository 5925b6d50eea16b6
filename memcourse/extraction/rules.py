"""The rule extractor: the policy's recognisers behind the :class:`Extractor` protocol.

Rules are cheap, fast and certain about the few things they know (a phase's task, the project
name, where the user lives, how they want answers, an explicit "记住 …"). They know nothing
else: "I like TypeScript" has no cue they recognise, so it is skipped. That is the first of
the source articles' "three ways" (the engineering guide, section 3.1); the model and the
hybrid are the other two.

The recognisers themselves live in :class:`~memcourse.policy.MemoryPolicy` (the gate keeps
its role; this class only re-labels what it recognises as candidates). One thing is new here:
*retractions*. "忘掉我住在杭州" / "forget that I like Rust" / "我已经不住在杭州了" /
"I no longer use Java" ask to take a memory back; they become a ``retraction`` candidate
that reconciliation turns into DELETE (or NOOP when nothing matches).
"""

from __future__ import annotations

import re

from memcourse.extraction.base import MEMORY, RETRACTION, Candidate, Extraction, Message
from memcourse.extraction.importance import rule_importance
from memcourse.policy import MemoryPolicy, _subject_from
from memcourse.records import MemoryType, Source

_STOP = r"(?:[。！!；;\n]|\.(?:\s|$)|$)"
#: "Forget …" requests. "忘了说 / 忘记告诉你" (forgot to mention) is not a request.
FORGET_PATTERNS = [
    re.compile(r"^\s*(?:请|麻烦)?(?:你)?(?:帮我)?(?:忘掉|忘记|忘了|删掉|删除|别再记着?|不要再记着?|不用再记着?)(?!说|告诉|提)"
               r"\s*(?:关于)?\s*[：:，,]?\s*(?P<fact>.+?)\s*(?:这件事|这条|这个)?(?:吧|了)?" + _STOP),
    re.compile(r"^\s*(?:please\s+)?(?:forget|delete|erase|stop remembering|don'?t remember|do not remember)\b"
               r"\s*(?:the fact\s+)?(?:that|about)?\s*(?P<fact>.+?)" + _STOP, re.I),
]
#: "Forget it" / "forget this, …" means "never mind", not "delete a memory".
_IDIOM = re.compile(r"^\s*(?:it|this|that|about it)\b(?!\s+(?:i|my|we|our)\b)", re.I)
#: "I no longer …" statements: the rest of the sentence, said positively, is what is retracted.
NO_LONGER_PATTERNS = [
    # 不再 says "no longer" by itself; a plain 不 needs the closing 了 ("我不喜欢长回答" is a
    # preference, "我不喜欢长回答了" takes one back).
    (re.compile(r"^\s*我(?:已经|现在)?不再(?P<fact>(?:住在|用|使用|喜欢|在做|负责).+?)了?" + _STOP), "我"),
    (re.compile(r"^\s*我(?:已经|现在)?不(?P<fact>(?:住在|用|使用|喜欢|在做|负责).+?)了" + _STOP), "我"),
    (re.compile(r"^\s*I\s+(?:no longer|don'?t|do not)\s+(?P<fact>.+?)\s+any\s?more" + _STOP, re.I), "I "),
    (re.compile(r"^\s*I\s+no longer\s+(?P<fact>.+?)" + _STOP, re.I), "I "),
]


class RuleExtractor:
    """Today's recognisers as an extractor. ``policy`` supplies the recognisers."""

    name = "rules"

    def __init__(self, policy: MemoryPolicy | None = None):
        self.policy = policy or MemoryPolicy()

    def extract(self, message: Message, context: list[Message] | None = None) -> Extraction:
        retraction = self._retraction(message)
        if retraction is not None:
            return Extraction(self.name, "ok", [retraction], detail="a request to take a memory back")
        decision = self.policy.decide(
            message.text, user_id=message.user_id, agent_id=message.agent_id,
            conversation_id=message.conversation_id,
        )
        if not decision.accepted or decision.record is None:
            # Not a candidate. Refusals (secrets, injections) are reported by the pipeline's screen.
            return Extraction(self.name, "nothing", detail=f"{decision.rule}: {decision.reason}")
        record = decision.record
        explicit = decision.rule == "explicit"
        candidate = Candidate(
            record.memory_type, record.subject, record.content,
            confidence=record.confidence,
            importance=rule_importance(record.memory_type, record.content, explicit=explicit),
            evidence=message.text.strip(), source=record.source, extractor=self.name,
            message=message, kind=MEMORY, tags=list(record.tags),
        )
        return Extraction(self.name, "ok", [candidate], detail=f"{decision.rule}: {decision.reason}")

    def _retraction(self, message: Message) -> Candidate | None:
        text = message.text.strip()
        fact = None
        for pattern in FORGET_PATTERNS:
            m = pattern.match(text)
            if m:
                fact = m.group("fact")
                break
        if fact is None:
            for pattern, prefix in NO_LONGER_PATTERNS:
                m = pattern.match(text)
                if m:
                    fact = prefix + m.group("fact")
                    break
        if fact is None or _IDIOM.match(fact):
            return None
        fact = re.sub(r"^(?:我的|my)\s*", "", fact.strip(), flags=re.I) if len(fact) > 4 else fact.strip()
        fact = fact.strip(" ，,。.!！") or text
        # Which memory is meant? Ask the recognisers what the fact, said positively, would be.
        said = self.policy.decide(fact, user_id=message.user_id, agent_id=message.agent_id)
        if said.accepted and said.record is not None and said.rule != "explicit":
            memory_type, subject = said.record.memory_type, said.record.subject
        else:
            memory_type, subject = MemoryType.ENTITY, _subject_from(fact)
        return Candidate(
            memory_type, subject, fact, confidence=0.9, importance=0.0, evidence=text,
            source=Source.USER_STATED, extractor=self.name, message=message, kind=RETRACTION,
        )
