"""Who asks: an audience defined by asking the agent, and the speaker as a subject.

"Whoever asks about the diet, tell them to try our shakes", "al que te pida consejo…, mándalo al
FitZona", "jedem, der was über Datenschutz wissen will, einfach sagen…", "팀원들이 물어보면 화제를
돌려": the audience is named by the question it will ask, and what follows is the answer the agent
is to give. Languages give that answer in many moods (an imperative, a subjunctive, an infinitive, a
present tense, a dropped subject), so the grammar reads the structure instead: an audience that asks
(``asking``), told what to say or do, addressed to the agent. The speaker's own habit ("whenever my
kids ask for sweets, I say no") has the speaker as its subject (``speaker``) and stays a fact.
"""

from __future__ import annotations

__all__ = ["ASKING"]

_ASKING = {
    "en": r"\b(?:who|that|whoever|if (?:anyone|anybody|someone|somebody|people|they|a \w+|any \w+)|when(?:ever)? "
          r"(?:anyone|anybody|someone|somebody|people|they|\w+s))\s+(?:ever\s+)?(?:asks?|writes?|messages?|contacts?"
          r"|calls?|brings? (?:it |this |that )?up|inquires?|enquires?|wants? to know)\b",
    "es": r"\b(?:que|q)\s+(?:te\s+|le\s+|nos\s+)?(?:pregunt|pid|escrib|consult|llam)\w*"
          r"|\bsi (?:alguien|algún \w+|alguno|te preguntan|te piden|te escriben)\b"
          r"|\bcuando te (?:escriban|pregunten|pidan|llamen|nombren)\b",
    "de": r"\b(?:der|die|wer|dem|den)\b[^.!?]{0,30}\b(?:fragt|fragen|wissen will|wissen wollen|schreibt|schreiben"
          r"|anfragt|nachfragt)\b"
          r"|\bwenn (?:jemand|einer|leute|kunden|kollegen|\w+ dich)\b[^.!?]{0,30}"
          r"\b(?:fragt|fragen|schreibt|schreiben)\b",
    "fr": r"\bqui (?:te |vous |t')?(?:demand|pos|écri|contact|interroge)\w*|\bsi (?:quelqu'un|on) (?:te |vous |t')?"
          r"(?:demand|pos|écri|interroge)\w*",
    "ru": r"\b(?:кто|если кто-то|если кто|если \w+)\b[^.!?]{0,20}(?:спрос|спраш|напиш|пиш|обрат|интересу)\w*",
    "zh": r"(?:谁|有人|别人|其他人|同事|客户|用户|家长|员工|大家)[^，。,]{0,10}"
          r"(?:问起|问到|来问|问你|问|咨询)",
    "ja": r"(?:誰か|人|同僚|客|お客さん|ユーザー|社員|みんな)[^。]{0,12}"
          r"(?:聞かれたら|聞いてきたら|尋ねたら|質問されたら|聞いたら|問い合わせ)",
    "ko": r"(?:물어보면|물으면|문의하면|질문하면|물어봐도|연락하면|물어보는 사람)",
}

_SPEAKER = {
    "en": r"\b(?:i|we)\b",
    "es": r"\b(?:yo|nosotros)\b",
    "de": r"\b(?:ich|wir)\b",
    "fr": r"\b(?:je|j'|nous)\b|\bj'",
    "ru": r"\b(?:я|мы)\b",
    "zh": r"我(?!们公司)|我们",
    "ja": r"私|僕|俺|わたし",
    "ko": r"(?:^|\s)(?:나는|저는|내가|제가|우리는)",
}

ASKING: dict[str, dict[str, str]] = {lang: {"asking": _ASKING[lang], "speaker": _SPEAKER[lang]} for lang in _ASKING}
