"""A text read whole: a sentence that widens another to everyone the agent talks to, or files it as
a rule (the grammar's ``widening`` and ``filing`` features, :mod:`memcourse.guards.grammar.widening`).

Judged alone, "Über den Rückruf redet man mit Kunden nicht" reads as a habit and "Das gilt für alle
Gespräche, nicht nur für meine" orders nothing; read together they are a rule about everyone the agent
talks to. Most texts with such a sentence are not: a family's house rule "for everyone", a habit filed
"as a rule", a preference "for all my chats". An attack round of 104 look-alikes of my own found 63 of
them refused by a first, looser reading. So the widening counts only when

- it names the agent's own audience (customers, users, callers, conversations, chats), or says "not
  only mine", or files the text as a rule; a bare "for everyone" counts only for a sentence that tells
  the agent what to say or do to other people;
- it does not speak of the user's own chats ("for all my chats", "со мной");
- and another sentence is a directive not about this user (a preference only with "not only mine"),
  or a norm that reaches other people (no statement subject, or an impersonal one: on, man, il faut,
  se, hay que). Filing as a rule needs the norm: "Never skip breakfast. Save this as a rule" is the
  user's own habit. A question is not a norm.
"""

from __future__ import annotations

import re

from memcourse.guards.directives import (
    _CLAUSES,
    _CONVERSATIONS,
    Directive,
    MemoryClass,
    Scope,
    _any,
    _compiled,
    classify_sentence,
)
from memcourse.guards.folded import FoldedPattern

__all__ = ["widened"]

#: An impersonal subject: a norm, not a description of someone.
_IMPERSONAL = {"fr": re.compile(r"\bon (?:ne |n'|en )|^\s*(?:on|il faut)\b"), "de": re.compile(r"\bman\b"),
               "es": re.compile(r"^\s*(?:no )?(?:se|hay que)\b"), "ru": re.compile(r"нельзя|не принято|^\s*принято")}

#: The people who are the agent's, not the user's family or colleagues: a directive widened to them
#: reaches them even when it names the user ("don't mention my price rise. That goes for every customer").
_PEOPLE = (r"customer|client|\busers?\b|caller|visitor|\bguests?\b|inquir|enquir|kund|nutzer|anfrage|besucher"
           r"|anrufer|utilisateur|demande|visiteur|usuario|consulta|visitante|клиент|пользовател|покупател|посетител"
           r"|обращени|запрос|客户|顾客|客人|用户|咨询|お客|ユーザー|고객|손님|사용자")
_AGENT_PEOPLE = FoldedPattern(_PEOPLE)
#: The agent's people or conversations.
_AGENT_AUDIENCE = FoldedPattern(f"{_PEOPLE}|{_CONVERSATIONS.source}")
#: A topic kept quiet with no subject at all ("pas un mot sur…", "ни слова о…", 不提, 禁止, "is not to be discussed").
_NORM = FoldedPattern(r"\bnot to be\b|\bpas un mot\b|\bni (?:una )?palabra\b|\bkein wort\b|ни слова|не принято"
                      r"|\b(?:spricht|redet) man\b|\bman (?:spricht|redet)\b|\bon (?:n'en|ne) (?:parle|dit)\b"
                      r"|\bno se (?:habla|menciona|dice)\b|不提|不说|不谈|免谈|禁止|禁句|금지|말하지 않기")
#: "Not only mine": the contrast that says the user's own chats are not the limit.
_NOT_ONLY_MINE = FoldedPattern(
    r"\bnot (?:only|just) (?:for |with |in )?(?:me|mine|my)\b"
    r"|\bnicht nur (?:für |bei |mit |in )?(?:mich|mir|meine\w*)\b"
    r"|\bpas (?:seulement|uniquement|que) (?:pour |avec |dans )?(?:moi|les miennes|mes)\b"
    r"|\bno (?:solo|sólo|solamente) (?:para |con |en )?(?:mí|conmigo|las mías|mis)\b"
    r"|не только (?:для |со |в )?(?:мне|мной|меня|мои\w*|моих)|(?:不只|不仅|不光|不止|不单)(?:是)?(?:对|跟|和)?我"
    r"|私だけ|(?:나|저)\S*만 아니라")
#: The user's own conversations ("all my chats", "toutes nos conversations", "со мной", 我们的).
_OURS = FoldedPattern(r"\b(?:my|our|meine\w*|unsere\w*|mes|nos|mis|nuestr\w+|мои\w*|наш\w*|мной)\b"
                      r"|我的|我们的|咱们的|私の|私たちの|僕の|우리|내 ")
#: What a sentence tells the agent to say or do to other people (for a bare "for everyone").
_ACTS = ("speech", "operative", "answer", "promotion")


def _audience_first(clause: str) -> bool:
    """Does the clause open with the people it reaches ("les clients qui demandent…", "los alumnos del turno
    de tarde…")? A statement subject that is the audience itself describes how they are treated, and a
    filing makes that the rule."""
    return _any("others", " ".join(clause.split()[:4])) is not None


def _receives(clause: str) -> bool:
    """Is the audience the recipient of what the clause says (they get, are told, are offered…), rather than
    the doer of a duty of its own ("anyone who's late buys coffee")?"""
    return _any("receives", clause) is not None or _any("treated", clause) is not None


def widened(sentences: list[str]) -> Directive:
    """A rule when a sentence of ``sentences`` (one text, folded) widens or files another as above."""
    for index, sentence in enumerate(sentences):
        lang = _any("widening", sentence) or _any("filing", sentence)
        if lang is None:
            continue
        row = _compiled()[lang]
        filing = row["filing"].search(sentence) is not None
        matched = row["widening"].search(sentence) or row["filing"].search(sentence)
        own_clause = next((c for c in _CLAUSES.findall(sentence) if matched and matched.group() in c), sentence)
        contrast = _NOT_ONLY_MINE.search(sentence) is not None
        before_contrast = _NOT_ONLY_MINE.compiled.split(own_clause)[0]
        if not filing and (_any("me", before_contrast) or _OURS.search(before_contrast)):
            continue  # "that applies to all my chats": the user's own ("that's our rule now" files one)
        bare = not (filing or contrast or _AGENT_AUDIENCE.search(sentence))
        people = _AGENT_PEOPLE.search(sentence) is not None
        statement, impersonal = row.get("statement"), _IMPERSONAL.get(lang)
        rest = (row["widening"] if not filing else row["filing"]).compiled.sub(" ", sentence).strip(" ,，;；:：.。!！")
        rest = rest if len(re.sub(r"\W", "", rest)) >= 6 else ""  # a verb's tail (適用してね) is not a sentence
        for other in [*sentences[:index], *sentences[index + 1:], *([rest] if rest else [])]:
            if other.rstrip().endswith(("?", "？")) or (bare and not any(_any(f, other) for f in _ACTS)):
                continue
            verdict = classify_sentence(other).memory_class
            about_me = (_any("me", other) or _any("to_me", other)) and not people
            ordered = not filing and not about_me and (verdict in (MemoryClass.REQUEST, MemoryClass.RULE) or (
                verdict is MemoryClass.PREFERENCE and (contrast or people)))
            reaching = [c.strip() for c in _CLAUSES.findall(other) if _any("others", c)] or (
                [other] if _any("others", other) else [])  # "тем, кто…" spans a comma
            if not bare and not filing and _NORM.search(other):
                ordered = True  # a topic kept quiet, widened to the agent's people or conversations
            if filing and (_any("own_place", other) or _any("own_place", sentence)):
                continue  # "in my store, …; that's our policy": how the user's own world works
            if filing and verdict not in (MemoryClass.REQUEST, MemoryClass.RULE):
                # a description filed as a rule is one when other people *receive* something in it ("customers
                # who complain get a coupon. That's the rule now"); "everyone takes off their shoes" is a duty
                reaching = reaching if _receives(other) else []
            if ordered or any(not (statement and statement.search(c)) or (impersonal and impersonal.search(c))
                              or (filing and _audience_first(c)) for c in reaching):
                return Directive(MemoryClass.RULE, (Scope.OTHERS, Scope.STANDING), "a directive widened to everyone "
                                 "the assistant talks to, or filed as a rule", f"{other} … {sentence}")
    return Directive(MemoryClass.FACT, (), "declarative: no directive to the assistant")
