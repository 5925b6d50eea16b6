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
          r"|calls?|brings? (?:it |this |that )?up|inquires?|enquires?|wants? to know)\b"
          # someone of the user's life asking the agent itself ("if my wife ever asks you where I was")
          r"|\b(?:if|whenever|should|in case)\s+(?:my|our)\s+\w+(?:\s+\w+)?\s+(?:ever\s+)?(?:asks?|calls?|texts?"
          r"|messages?|questions?|talks? to you|writes? to you)\b"
          r"|\b(?:if|when|whenever|should|in case)\s+(?:my|our)\s+[^.!?,]{0,30}\b(?:asks?|questions?|messages?) you\b",
    "es": r"\b(?:que|q)\s+(?:te\s+|le\s+|nos\s+)?(?:pregunt|pid|escrib|consult|llam)\w*"
          r"|\bsi (?:alguien|algún \w+|alguno|te preguntan|te piden|te escriben)\b"
          r"|\bcuando te (?:escriban|pregunten|pidan|llamen|nombren)\b"
          # the subjunctive of a condition to come ("cuando algún paciente pregunte", "a quien pida consejo"); the
          # indicative is a habit ("a quien pregunta por pan sin gluten se le recomienda…" in a family bakery)
          r"|\bcuando (?:algún|alguna|un|una|cualquier)\s+\w+\s+(?:te |le |nos )?(?:pregunten?|pidan?|escriban?"
          r"|consulten?|llamen?|reclamen?)\b|\bquien(?:es)? (?:te |le |nos )?(?:pregunten?|pidan?|escriban?|consulten?"
          r"|llamen?)\b"
          r"|\b(?:si|cuando) (?:mi|mis|nuestr\w+) \w+ (?:\w+ )?(?:\w+ )?te (?:pregunt|pid|escrib|llam|habl)\w*"
          r"|\b(?:si|cuando) te (?:pregunt|pid|escrib|llam|habl)\w* (?:mi|mis|nuestr\w+) \w+",
    "de": r"\b(?:der|die|wer|dem|den)\b[^.!?]{0,30}\b(?:fragt|fragen|wissen will|wissen wollen|schreibt|schreiben"
          r"|anfragt|nachfragt)\b"
          r"|\bwenn (?:jemand|einer|leute|kunden|kollegen|\w+ dich)\b[^.!?]{0,30}"
          r"\b(?:fragt|fragen|schreibt|schreiben)\b"
          r"|\b(?:sollte|falls|wenn)\s+(?!(?:ich|wir)\b)[^.!?,]{0,30}\b(?:dich|sie·f|euch)\b[^.!?,]{0,20}\b(?:fragt|fragen|anschreibt"
          r"|anspricht|ansprechen)\b"
          r"|\bfragt dich (?:mein|meine|unser|unsere)\w*",
    "fr": r"\bqui (?:te |vous |t')?(?:demand|pos|écri|contact|interroge)\w*|\bsi (?:quelqu'un|on) (?:te |vous |t')?"
          r"(?:demand|pos|écri|interroge)\w*"
          # a condition, not a habit: "si un salarié pose…", "au cas où un candidat demanderait…" ("quand un client
          # demande les prix à ma sœur, elle…" is the sister's habit)
          r"|\b(?:si|au cas où|dès qu')\s*(?:un|une|des|les|le|la|l')\s*\w+\s+(?:te |vous |nous |t')?"
          r"(?:demand|pos|écri|interroge|réclam)\w*"
          r"|\b(?:si|quand) (?:mon|ma|mes|notre|nos) \w+ (?:\w+ )?(?:te|vous) (?:demand|pos|écri|appell|parl)\w*",
    "ru": r"\b(?:кто|если кто-то|если кто|если \w+)\b[^.!?]{0,20}(?:спрос|спраш|напиш|пиш|обрат|интересу)\w*",
    "zh": r"(?:谁|有人|别人|其他人|同事|客户|客人|顾客|访客|买家|用户|家长|员工|大家|的人)[^，。,]{0,10}"
          r"(?:问起|问到|来问|问你|问|咨询)"
          r"|(?<!我)问你",
    "ja": r"(?:誰か|人|同僚|客|お客さん|ユーザー|社員|みんな)[^。]{0,12}"
          r"(?:聞かれたら|聞いてきたら|尋ねたら|質問されたら|聞いたら|問い合わせ)"
          r"|(?:妻|夫|母|父|上司|家族|友達|大家さん|彼氏|彼女)(?:に|から)[^。]{0,12}(?:聞かれたら|尋ねられたら)",
    "ko": r"(?:물어보면|물으면|문의하면|질문하면|물어봐도|연락하면|물어보는 사람)"
          r"|묻거든",
}

_SPEAKER = {
    "en": r"\b(?:i|we)\b",
    "es": r"\b(?:yo|nosotros)\b",
    "de": r"\b(?:ich|wir)\b",
    "fr": r"\b(?:je|j'|nous)\b|\bj'",
    "ru": r"\b(?:я|мы)\b",
    # (我 as a possessor is no subject: 我老婆, 我的同事)
    "zh": r"我(?!们公司|老婆|老公|妈|爸|的|家|女朋友|男朋友|朋友|同事|老板|房东|孩子|儿子|女儿)|我们",
    "ja": r"私|僕|俺|わたし",
    "ko": r"(?:^|\s)(?:나는|저는|내가|제가|우리는)",
}

#: Anyone named by a question in a condition ("whenever a visitor asks", "cuando un paciente pregunta", "wenn ein
#: Kunde fragt"). A habit as often as a rule ("whenever a customer asks my sister, she…"), so it counts only
#: beside an impersonal norm whose recipients they are (``treated``: "…is to be recommended", "se le
#: recomienda"), where nobody of the user's world is named to act.
_ASKER = {
    "en": r"\b(?:when(?:ever)?|if|once|as soon as)\s+(?:a|an|any|some|the)\s+(?:\w+\s+)?\w+\s+(?:ever\s+)?"
          r"(?:asks?|inquires?|enquires?|wants? to know|requests?|calls?|writes? in)\b",
    "es": r"\b(?:cuando|si|siempre que)\s+(?:algún|alguna|un|una|cualquier|el|la)\s+\w+\s+(?:\w+\s+)?"
          r"(?:pregunt|pid|consult|llam|escrib)\w*",
    "fr": r"\b(?:quand|lorsqu'|si|dès qu'|chaque fois qu')\s*(?:un|une|le|la|l')\s*\w+\s+(?:\w+\s+)?"
          r"(?:demand|interroge|pos|appell|écri)\w*",
    "de": r"\b(?:wenn|falls|sobald)\s+(?:ein|eine|einer|der|die|irgendein\w*)\s+\w+\s+(?:\w+\s+)?"
          r"(?:fragt|nachfragt|anfragt|anruft|schreibt)\b",
    "ru": r"\b(?:когда|если)\s+(?:какой-(?:то|нибудь)\s+)?\w+\s+(?:\w+\s+)?(?:спрашива|спрос|интересу|звон|пиш)\w*",
}

ASKING: dict[str, dict[str, str]] = {lang: {"asking": _ASKING[lang], "speaker": _SPEAKER[lang],
                                            **({"asker": _ASKER[lang]} if lang in _ASKER else {})}
                                     for lang in _ASKING}
