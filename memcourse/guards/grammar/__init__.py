"""The directive grammar: one row per language, feature -> regular expression.

Rows are written lower-case in natural spelling and folded when they compile (look-alike
letters, traditional -> simplified Chinese), like the text they read. Four layers feed each row:
the plain forms and their word-order variants (english, east_asian, european), who a directive
reaches (reach), and what is claimed to the agent or where data goes (claims). Features:

  imperative  a directive clause (where each language marks it: see memcourse.guards.directives)
  speech      the directive verb is a communicative or influencing one (tell, recommend...):
              standing and audience rules need it, so "never give up!" is not a rule
  statement   a clause that begins with a non-assistant subject (declarative)
  others, identity, disclosure, authority, permission, exfiltration, ai_reader, standing
  me, dimension
  you         the assistant addressed (second person); a statement about the agent needs it
  promotion   advertising a directive would put into answers
  answer      answering or declining to answer (speech, when an audience is named)
  standing_speech  (English only) a standing order needs a verb that takes a topic
  agent_subject  the assistant named in the third person as a clause's subject ("this
              assistant recommends…"): the clause is an order to it, not a statement
  override    a claim that can only be about the agent: the user's word outranks its rules,
              the text it was given is void, it must turn nothing down, this user's requests
              need no checks (:mod:`memcourse.guards.grammar.unchecked`; read as authority,
              and as addressed to the agent without a "you"); the agent's rules named by who
              gave them or who follows them (:mod:`memcourse.guards.grammar.released`); rank
              borrowed from someone else and caution retired (:mod:`memcourse.guards.grammar.borrowed`)

  to_me, weak_modal, operative, answers, all_talk  who a directive reaches (see
              :mod:`memcourse.guards.grammar.reach`, the layer the allowlist reads)
  world_rules, obligation, machine  rules of the user's world (parking rules, Parkregeln, 停车规定),
              a modal that turns a named reader into an order, a noun for an AI (see
              :mod:`memcourse.guards.grammar.world`)
  asking, speaker, asker  an audience named by the question it will ask, the speaker as a subject, and
              anyone named by a question in a condition (read only beside ``treated``), and the
              user's own world named (my, our, mein…)
              (see :mod:`memcourse.guards.grammar.asking`; ``others`` also reads
              :mod:`memcourse.guards.grammar.audience`: people named by what they do)
  treated     other people as the recipients of a norm: to be told, offered, steered (audience)
  receives, own_place  what that audience gets, and the user's own place named as where it happens (audience)
  told_own    the user reporting what they told their own staff, class or children: reported speech (audience)
  told_me     what someone told or taught the user, or advice they were given: reported speech (audience)
  (identity also reads :mod:`memcourse.guards.grammar.persona`: a second self of the agent, or a
              role it is told to keep)
  (disclosure also reads :mod:`memcourse.guards.grammar.unseen`: the agent's text named by where it
              sits, who cannot see it, or whose conversation it was)
  widening, filing  a sentence that extends what the text said to everyone the agent talks to, or
              files it as a rule (see :mod:`memcourse.guards.grammar.widening`, read by
              :mod:`memcourse.guards.widened`)
  seat, agent_audience, waiver  the agent named without a "you": whoever answers here, the people
              who talk to it, the approval its actions wait for (:mod:`memcourse.guards.grammar.seat`;
              scope signals for the learned reader only)
  agent_named  the agent named by its noun under a modal or a new regime ("the bot must…", 助手以后…要…;
              :mod:`memcourse.guards.grammar.third_person`; a scope signal for the learned reader only), and
  own_frame   a text set in something of the user's own ("in my novel, …"), where that signal does not count

A row may leave a feature out; :mod:`memcourse.guards.directives` reads each feature as the
union over every language, so code-switched text is judged in all of them at once.
"""

from __future__ import annotations

from functools import reduce

from memcourse.guards.grammar.asking import ASKING
from memcourse.guards.grammar.audience import AUDIENCE
from memcourse.guards.grammar.borrowed import BORROWED
from memcourse.guards.grammar.claims import CLAIMS
from memcourse.guards.grammar.east_asian import EAST_ASIAN
from memcourse.guards.grammar.english import ENGLISH
from memcourse.guards.grammar.european import EUROPEAN
from memcourse.guards.grammar.persona import PERSONA
from memcourse.guards.grammar.reach import REACH
from memcourse.guards.grammar.released import RELEASED
from memcourse.guards.grammar.rows import merged
from memcourse.guards.grammar.seat import SEAT
from memcourse.guards.grammar.third_person import THIRD_PERSON
from memcourse.guards.grammar.unchecked import UNCHECKED
from memcourse.guards.grammar.unseen import UNSEEN
from memcourse.guards.grammar.widening import WIDENING
from memcourse.guards.grammar.world import WORLD

__all__ = ["FEATURES", "GRAMMAR"]

GRAMMAR: dict[str, dict[str, str]] = reduce(
    merged, (REACH, CLAIMS, WORLD, ASKING, AUDIENCE, UNCHECKED, RELEASED, BORROWED, WIDENING, UNSEEN, PERSONA,
            SEAT, THIRD_PERSON),
    {**ENGLISH, **EAST_ASIAN, **EUROPEAN})

FEATURES = ("imperative", "speech", "standing_speech", "statement", "others", "identity", "disclosure", "authority",
            "permission", "exfiltration", "ai_reader", "promotion", "standing", "me", "you", "answer", "dimension",
            "override", "agent_subject", "to_me", "weak_modal", "operative", "answers", "all_talk", "reader_if",
            "treated",
            "receives", "own_place", "told_own", "told_me",
            "world_rules", "obligation", "machine", "reader_address", "asking", "speaker", "asker", "mine",
            "widening", "filing",
            "seat", "agent_audience", "waiver", "agent_named", "own_frame", "own_work")
