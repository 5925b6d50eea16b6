"""What kind of thing a text is: a fact, a preference, or a rule, judged from its grammar.

The vocabulary detectors (:mod:`~memcourse.guards.injection`, :mod:`~memcourse.guards.rules`)
hunt for the words attacks use, so every new phrasing is a new miss. This module turns the
question round, as the sources do ("a memory may only be background fact, never an executable
instruction"; "users may state preferences but never rewrite the agent's rules"): a long-term
memory is one of a closed set of things, and a text that is none of them is not written.

=============  ===============================================================================
``fact``       a statement about the user or their world: an entity, an event, a decision, the
               state of a task. Its grammar is declarative ("My sister never mentions her ex").
``preference`` a directive about how *this user's own* answers should be, along one of the
               dimensions in :data:`DIMENSIONS` (language, format, length, tone, code
               language, units, form of address, topics to avoid *with this user*).
``rule``       any other directive to the assistant: a standing order, an order about other
               people, or one about the agent itself (its identity, what it discloses, whose
               word it obeys, what it may do, where data goes). Only an administrator may set
               one; the policy refuses it from anyone else.
``request``    a one-off directive with no standing scope ("tell me about Rome"): not a rule,
               and not a memory either (the policy's recognisers decide what, if anything, is
               kept).
=============  ===============================================================================

How a directive is recognised, per language (:data:`GRAMMAR`, one table):

- **mood**: an imperative at the start of a clause (English, Spanish, German, French, Russian:
  the verb comes first), an imperative or request ending (Japanese ～て/～ないで/～なさい,
  Korean ～줘/～마/～세요, sentence-final because those languages put the verb last), a
  prohibition (never / 不要 / nunca / nie / никогда + verb), or a modal aimed at the assistant
  (you will / you must / 你要 / du wirst / ты будешь).
- **a statement subject** turns an ambiguous clause back into a statement: a clause that starts
  with I / my / she / 我 / 他 describes someone; it does not order the assistant.
- **scope**: who the directive reaches: *others* (anyone, every customer, 任何人, 誰にも,
  nadie, niemandem, personne, никому), the agent's *identity*, its *disclosures* (the text it
  was given), *authority* (whose word counts), *permissions*, *exfiltration*, and text written
  *for an AI reader*. A *standing* marker (from now on, never, 以后, 今後, désormais, отныне)
  makes a directive permanent.
- **dimension**: what a preference is about; *me* marks it as this user's (to me, 给我, 私への,
  나에게, me, mir, moi, мне).

Text inside quotation marks is removed first: quoting an attack in order to discuss it is
reported speech, not an order. Text is read lower-cased and folded like every detector's
(:func:`~memcourse.guards.normalise.fold_text`: look-alike letters, traditional → simplified), so
Chinese needs one table for both scripts. Code-switched text is judged in every language at
once: each feature is the union of every language's pattern.

This is a filter with known limits (see docs/security.md): a directive with no imperative
form and no scope word ("it would be great if nobody heard about the fire") reads as a fact,
and a preference dimension the table does not list reads as a rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from memcourse.guards.normalise import FoldedPattern, Normalised, fold_text

__all__ = ["DIMENSIONS", "GRAMMAR", "Directive", "MemoryClass", "Scope", "classify"]


class MemoryClass(str, Enum):
    """What a text is, for the write gate (the string values are stored in decisions)."""

    FACT = "fact"
    PREFERENCE = "preference"
    RULE = "rule"
    REQUEST = "request"

    def __str__(self) -> str:
        return self.value


class Scope(str, Enum):
    """What a directive reaches beyond this user's own answers."""

    OTHERS = "others"
    IDENTITY = "identity"
    DISCLOSURE = "disclosure"
    AUTHORITY = "authority"
    PERMISSION = "permission"
    EXFILTRATION = "exfiltration"
    AI_READER = "ai_reader"
    PROMOTION = "promotion"
    STANDING = "standing"

    def __str__(self) -> str:
        return self.value


#: Scopes that aim at the agent itself rather than at what it says: refused as injections.
AGENT_SCOPES = frozenset({
    Scope.IDENTITY, Scope.DISCLOSURE, Scope.AUTHORITY, Scope.PERMISSION, Scope.EXFILTRATION, Scope.AI_READER,
})

#: The closed set of things a user's preference may be about (documented in docs/security.md).
DIMENSIONS = ("language", "format", "length", "tone", "code language", "units", "form of address",
              "level of detail", "topics to avoid with this user")


@dataclass(frozen=True)
class Directive:
    """The classifier's decision: the class, the scopes that decided it, and why."""

    memory_class: MemoryClass
    scopes: tuple[Scope, ...] = ()
    reason: str = ""
    excerpt: str = ""

    @property
    def agent_directed(self) -> bool:
        """Does the directive aim at the agent itself (identity, disclosures, permissions...)?"""
        return any(scope in AGENT_SCOPES for scope in self.scopes)


# -- the grammar, one row per language ------------------------------------------------------
# Each row: feature -> regular expression, written lower-case in natural spelling. Features:
#   imperative  a directive clause (see the module docstring for where each language marks it)
#   speech      the directive verb is a communicative or influencing one (tell, recommend...):
#               standing and audience rules need it, so "never give up!" is not a rule
#   statement   a clause that begins with a non-assistant subject (declarative)
#   others, identity, disclosure, authority, permission, exfiltration, ai_reader, standing
#   me, dimension
_CS = r"(?:^|(?<=[,:;(\"-]))\s*"  # a clause start inside a sentence
_EN_LEAD = (r"(?:(?:please|pls|请|just|also|and|then|so|now|kindly|simply|always|never|ever|"
            r"from now on|from this point(?: on| forward)?|going forward|from here on(?: out)?|next time"
            r"|in (?:every|all) (?:future )?(?:chats?|conversations?)(?: after this one)?|"
            r"for (?:every|all|each) (?:chat|conversation)s?(?: after this one)?|each time|every time|whenever "
            r"[^,]{1,40}|"
            r"quietly|silently|secretly|discreetly|covertly|privately|immediately|automatically|first|"
            r"don'?t|do not|never ever|make sure (?:to|you)|be sure to|remember to"
            r"|you (?:will|must|should|shall|need to|have to|are to|'ll))[\s,]+)*")
_EN_SPEECH = (r"tell|say|mention|bring up|talk about|speak about|discuss|recommend|suggest|promote|pitch|sell|advertise"
              r"|push|steer|nudge|"
              r"encourage|urge|advise|persuade|convince|remind|inform|warn|notify|share|reveal|disclose|show|print"
              r"|repeat|output|display|"
              r"paste|quote|dump|leak|send|forward|copy|email|mail|post|upload|answer|reply|respond|refer|point|direct|"
              r"hide|withhold|keep quiet|explain|write|end|start|begin|finish|close|add|include|put|use|call|address")
_EN_ACT = (r"act|listen|ignore|disregard|forget|override|bypass|behave|pretend|play|roleplay|role-play|be|become|treat"
           r"|assume|consider|accept|trust|obey|follow|do|run|execute|delete|"
           r"remove|read|open|access|grant|allow|give|hand|make|keep|let|stop|switch|change|speak|talk|avoid|refuse"
           r"|deny|claim|insist|"
           r"list|transfer|skip|drop")

GRAMMAR: dict[str, dict[str, str]] = {
    "en": {
        "imperative": (rf"{_CS}{_EN_LEAD}(?:{_EN_SPEECH}|{_EN_ACT})\b"
                       r"|\byou(?:'ll| will| must| should| shall| are to|'re to| need to| have to| are going "
                       r"to)\s+(?:now\s+|always\s+|never\s+|only\s+)?\w+"
                       r"|\byou(?:'re| are)\s+(?:now\s+)?(?:allowed|permitted|free|authori[sz]ed|cleared)\b"
                       r"|\byou (?:may|can) (?:now |freely |always )?\w+"
                       r"|\b(?:nobody|no one|no-one|everyone|everybody|anyone|anybody)\b[^.!?]{0,40}\b(?:should|must"
                       r"|shall|is to|needs? to|has to)\b(?=[^.!?]*\byou\b)"
                       r"|\b(?:nobody|no one|no-one|everyone|everybody|anyone"
                       r"|anybody)\b[^.!?]{0,40}\byou\b[^.!?]{0,20}\b(?:should|must|shall|is to|needs? to|has to)\b"
                       r"|^\s*(?:every|each|any|all|other)\s+(?:\w+\s+){0,2}(?:customers?|users?|visitors?|people"
                       r"|persons?|clients?)\b[^.!?]{0,40}\b(?:must|should|shall|is to|are to|needs? to|has to) "
                       r"be (?:told|shown|given|sent|reminded|informed)\b"
                       r"|\bnote to (?:any|every|all|the)?\s*(?:ai|assistants?|agents?|models?|llms?|bots?)\b"
                       r"|^\s*your (?:name|persona|identity|role|job|character|purpose|task)\b"
                       r"|^\s*you(?:'re| are)\s+(?:now\s+[\w-]+|[\w-]+\s+now)\s*[.!]?\s*$"
                       r"|\byou (?:now |only |always |never )?(?:answer|reply|respond|obey|work|serve|speak"
                       r"|act)\s+(?:only\s+)?(?:as|for|to)\b"),
        "speech": (rf"{_CS}{_EN_LEAD}(?:{_EN_SPEECH})\b" r"|\b(?:make sure|ensure|see to it)\b[^.!?]{0,40}\b(?:hear"
        r"|know|learn|are told|get|see|receive)\b|\b(?:should|must|shall|is to|are to|needs? to|has to) (?:hear|be told"
        r"|learn|know|be (?:shown|given|sent|reminded|informed))\b"
                   r"|\bsteer|\bpush\b|\brecommend|\bmention|\btell\b|\bsay\b"),
        # a standing order needs a verb that takes a topic ("never mention the recall");
        # "never say never!" prescribes nothing (fixed phrases are rules.py's fixed_text)
        "standing_speech": (rf"{_CS}{_EN_LEAD}(?:{_EN_SPEECH.replace('tell|say|', 'tell|')})\b" r"|\bsteer|\bpush\b"
        r"|\brecommend|\bmention|\btell\b"),
        "statement": r"^\s*(?:i|i'm|i've|i'd|i'll|we|we're|my|our|his|her|their|he|she|they|it|its|this|that|these"
        r"|those|there|mr|mrs|ms|dr)\b(?!\s+(?:want|need|would like|order|command|instruct|require) you)",
        "others": (r"\b(?:anyone|anybody|everyone|everybody|nobody|no one|no-one|whoever|someone|somebody|all (?:the "
        r")?(?:other )?(?:users?|customers?|visitors?|clients?|people|members?|callers?)|"
                   r"(?:every|each|any|other)\s+(?:other\s+)?(?:users?|customers?|visitors?|clients?|persons?|people"
                   r"|members?|callers?|one)|other users?|other people|the rest of (?:them|the users)|"
                   r"(?:people|those|users?|customers?) who|whom ?ever|all who|to all)\b"),
        "identity": (r"\byou(?:'re| are| will be|'ll be)\s+(?:now\s+)?(?:a|an)\s+(?:[\w-]+\s+){0,3}?(?:bot|assistant|ai"
        r"|character|persona|model|agent|chatbot|version)\b"
                     r"|\byou(?:'re| are| will be|'ll be)\s+(?:now\s+)?(?:called|named|no longer)\b"
                     r"|\byou(?:'re| are)\s+now\s+(?:a|an)\b|\byou(?:'re| are)\s+now\s+[\w-]+\s*[.!]?\s*$"
                     r"|\byou(?:'re| are|'ll be| will be)\s+(?:now\s+)?[\w-]+,\s+(?:a|an)\s+(?:[\w-]+\s+){0,2}?(?:bot"
                     r"|assistant|ai|character|persona|model|agent|chatbot)\b|\byou(?:'re| are)\s+\w+ now\b"
                     r"|\byour (?:name|persona|identity|character|role) (?:is|will be)\b"
                     r"|\b(?:act|behave|respond|answer|reply|speak|talk) (?:only )?as\b|\bpretend to be\b"
                     r"|\bplay (?:the role|a character)|\b(?:a|an) (?:different|new) (?:character|persona|assistant|bot"
                     r"|ai)\b"
                     r"|\b(?:bot|assistant|ai|character|persona) (?:called|named)\b"),
        "disclosure": (r"\b(?:text|words?|message|prompt|setup|configuration|guidance|briefing|context) (?:you were "
        r"given|you got|you received|that appears above|above (?:this|our)|before my first)"
                       r"|\byour (?:system |initial |original |hidden |secret |first "
                       r")?(?:prompt|instructions|system message|programming|configuration)\b"
                       r"|\b(?:hidden|secret|invisible) (?:text|words|message|part)|\bwhat you were (?:given|told) "
                       r"before|\bbefore my first message|\babove this conversation\b|\bword for word\b"),
        "authority": (r"\b(?:developers?|creators?|makers?|designers?|owners?|operators?"
        r"|programmers?)\b[^.!?]{0,40}\b(?:no longer|don'?t|doesn'?t|not|intended|wanted|gave you|told you|taught you"
        r"|set)\b"
                      # the agent's own configuration, named as the agent's and declared void
                      r"|\byour (?:old|previous|prior|earlier|original|initial|current|existing|usual|default|standing"
                      r"|system|built-in) (?:guidelines|guidance|briefing|instructions|rules|directives|programming"
                      r"|constraints|restrictions|limits|policies|prompt|settings|setup|safeguards)\b"
                      r"|\b(?:instructions|rules|guidelines|guidance|briefing|setup|restrictions|limits|constraints"
                      r"|policies|programming|safeguards)\b[^.!?]{0,30}\b(?:expired|stopped (?:mattering|applying"
                      r"|counting)|(?:are|is) (?:now )?(?:void|cancell?ed|suspended|revoked|lifted|obsolete|over)|no "
                      r"longer (?:valid|binding|in force))\b"
                      r"|\bmy (?:requests?|word|instructions|orders|commands) (?:take|takes|have|has) (?:priority"
                      r"|precedence)\b"
                      r"|\bmy word is\b|\bwhatever i (?:say|tell you|want)\b"
                      r"|\bonly (?:listen to|obey|answer to|follow) me\b|\bobey (?:only )?me\b"
                      r"|\b(?:listen to|obey|follow) me instead\b|\bno longer (?:applies|apply|counts?|matters?)\b"
                      r"|\b(?:everything|anything|all|what) you were (?:set up|configured|programmed|trained|given"
                      r"|told)\b"
                      # code-switched overrides: the verb in one language, its object in another
                      r"|\b(?:ignore|disregard|forget|override|bypass|drop)\b[^.!?]{0,30}(?:instructions?|rules"
                      r"|guidelines|prompts?|指令|指示|规则|设定|ルール|命令)"
                      r"|(?:忽略|忽视|无视|忘掉|忘记|無視|忘れ)[^。！？!?]{0,12}(?:instructions?|rules|guidelines"
                      r"|prompts?)"),
        "permission": (r"\byou (?:may|can|are allowed to|'re allowed to|are free to|'re free to|have permission "
        r"to)\b[^.!?]{0,60}\b(?:without (?:asking|checking|confirm\w*|permission)|any (?:command|file|shell|code"
        r"|request)|every user|other users|all users)"
                       r"|\b(?:read|access|see|open|share)\s+(?:every|all|other)\s+(?:users?|customers?|people)(?:'s"
                       r"|s')?\b"),
        "exfiltration": (r"(?<!going )(?<!moving )\b(?:forward|send|copy|email|mail|post|upload|transfer|pass"
        r"|relay)\b[^.!?]{0,50}\b(?:to me|to my|into a note addressed to me|my (?:e-?mail|inbox|address|server|webhook)"
        r"|to (?:this|the following|the address))"
                         r"|\b(?:whenever|each time|every time|any time) (?:someone|somebody|anyone|a user"
                         r"|people)\b[^.!?]{0,60}\b(?:forward|send|copy|email|mail|tell me)"),
        "ai_reader": (r"\b(?:to|for|attention|note to|dear|hey)\s+(?:any|every|all|the)?\s*(?:ai|coding"
        r"|language)?\s*(?:assistants?|agents?|models?|llms?|bots?|ais)\b[^.!?]{0,30}\b(?:reading|that reads?|who "
        r"reads?|processing|parsing|seeing)\b"
                      # a vocative: "Coding agents: …", "AI assistants, …", "Dear LLM: …"
                      r"|(?:^|(?<=[\"'\n>]))\s*(?:(?:hey|dear|attention|note to|to|for)\s+)?(?:all\s+|any\s+"
                      r"|every\s+)?(?:ai|coding|llm|autonomous|language|code)?\s*(?:assistants?|agents?|models?|llms?"
                      r"|bots?|copilots?|ais)\s*[:,]"),
        "standing": (r"\b(?:from now on|from this point|going forward|from here on|(?:in|into|to|at the end of|at the "
        r"start of) (?:every|each|all)(?: of)?(?: your| my)? (?:answers?|replies|reply|responses?|messages?)|in "
        r"(?:every|all) (?:future )?(?:chats?|conversations?|sessions?)|for (?:every|all|each) (?:chat|conversation)s?|"
                     r"for the rest of|next time|each time|every time|whenever|always|never|no matter|regardless"
                     r"|permanently|forever)\b"),
        "me": r"\b(?:me|my|mine|myself|to me|with me|for me)\b",
        "you": r"\b(?:you|your|yours|yourself)\b",
        "promotion": r"\b(?:coupon|discount|promo|promotional|referral|affiliate|voucher|sale"
        r"|deal)s?\b[^.!?]{0,12}\b(?:codes?|links?|offers?|prices?)?",
        "dimension": (r"\b(?:english|spanish|french|german|chinese|mandarin|japanese|korean|russian|italian|portuguese"
        r"|language|"
                      r"bullets?|bullet points|lists?|tables?|markdown|headings?|summary|summaries|tl;?dr"
                      r"|format(?:ting)?|emoji|numbered|paragraphs?|"
                      r"short|shorter|brief|concise|long|longer|detailed|length|sentences?|lines?|words|under \d+|"
                      r"tone|formal|informal|casual|polite|friendly|pleasantries|jargon|simple|plain|"
                      r"code|python|javascript|typescript|java|golang|go|rust|c\+\+|kotlin|swift|sql|ruby|php|snippets?"
                      r"|examples?|"
                      r"metric|imperial|celsius|fahrenheit|units?|kilomet\w*|miles|"
                      r"call me|address me|by my (?:first )?name|"
                      r"step by step|step-by-step|detail|explanations?|sources?|citations?)\b"
                      r"|\b(?:bring up|mention|talk about|discuss)\b[^.!?]{0,30}\bmy\b|\bmy\b[^.!?]{0,40}\bwith me\b"),
    },
    "zh": {
        "imperative": (r"(?:^|(?<=[，,：:；;]))\s*(?:(?:please|pls|just|now|以后|今后|往后|从现在(?:开始|起)|从这次起"
        r"|从今以后|下次(?:聊天时|对话)?|每次|不管[^，,]{0,8}|无论[^，,]{0,8}|请|你|你就|你要|记得|一定要|都要|要|就|再"
        r"|悄悄|悄悄地|偷偷|偷偷地|暗中|私下|先|首先|然后|马上|立刻|立即|也|都|只)[，,]?\s*)*"
                       r"(?:告诉|跟|对|给|向|推荐|劝|说|提|发|转|传|把|显示|重复|扮演|当|做|作为|用|回答|回复|执行|删除"
                       r"|查看|读|打开|别|不要|不许|不准|禁止|永远不要|千万别|绝对不要|"
                       r"不用|只听|听|忘|无视|忽略|忽视|别管|不要理|放弃|推销|宣传|提醒|通知|分享|泄露|透露|复制|贴|寄"
                       r"|抄送|加|附|结尾|开头|称呼|叫我)"
                       r"|你(?:可以|能|要|就是|现在是|是|将|会|必须|应该|得|只能|只要)|你的(?:名字|身份|角色|任务|工作)"
                       r"|(?:每个|每位|每一位|所有|任何)[^，,。]{0,12}(?:的人|人|用户|顾客|客户)[^，,。]{0,6}都?要"
                       # a fronted topic: "every answer ... add", the order comes after it
                       r"|(?:所有|每个|每条|每一个|全部)(?:的)?(?:回答|回复|答复)[^，,。]{0,6}都?(?:要|加|放|附|带|写"
                       r"|包含|插入)"
                       r"|(?:给|致)(?:正在)?(?:读|阅读|看)[^，,。]{0,10}(?:ai|助手|模型|智能体)"),
        "speech": r"告诉|跟[^，,。]{0,10}(?:说|提|讲)|对[^，,。]{0,10}说|推荐|劝|提|说|推销|宣传|通知|分享|泄露|透露|发"
        r"|转|加上|附上|写上|放上|带上|插入",
        "statement": r"^\s*(?:我|他|她|它|咱|这|那)(?![\u3040-\u30ff])(?!要你|希望你|让你|想让你|想要你|命令你|需要你)",
        "others": r"任何人|所有人|每个人|每一个人|每一位|每位|大家|别人|他人|其他用户|其他人|所有用户|所有顾客|所有客户"
        r"|每个问|谁来问|不管跟谁|不管谁|无论谁|无论跟谁|有人|谁都|其他使用者|所有使用者|每一个",
        "identity": r"你(?:现在|从现在起|以后)?(?:就)?(?:是|叫|扮演|当)(?:一个|一位|个)?|扮演"
        r"|你[^，,。]{0,4}的(?:名字|身份|角色|人设)|叫[^，,。]{1,6}的(?:机器人|助手|ai)|机器人|身份回答",
        "disclosure": r"(?:之前|以前|前面|上面|上方)[^，,。]{0,12}(?:文字|内容|那段|话|设定|提示)|隐藏的(?:文字|内容)"
        r"|原样|一字不差|完整地",
        "authority": (r"开发者|设计者|创造者|条条框框|只听我的|我说了算|听我的|不算数|作废|由我(?:来)?决定|我来决定"
                      r"|(?:规则|设定|指令|指示|限制|约束|规定)[^，,。]{0,8}(?:失效|无效|不再适用|不管用|过时|废除)"
                      r"|(?:之前|以前|前面|上面|原来|原先|所有)的?\s*(?:指令|指示|规则|设定|instructions?|rules"
                      r"|prompts?)"),
        "permission": r"你(?:可以|能)[^，,。]{0,10}(?:不经|不用|无需|随便|直接|任何)|不经我确认|不用问我"
        r"|其他用户[^，,。]{0,6}的|其他使用者[^，,。]{0,6}的",
        "exfiltration": r"(?:发|转|寄|传|抄送)[^，,。]{0,8}(?:给我|到我的|我的邮箱|我的信箱)|悄悄|偷偷|暗中|私下"
        r"|秘密地",
        "ai_reader": r"(?:给|致)(?:正在)?(?:读|阅读|看)[^，,。]{0,10}(?:ai|助手|模型|智能体)|如果你是(?:ai|助手|模型)",
        "standing": r"以后|今后|往后|从现在|从这次起|从今以后|每次|永远|总是|一律|始终|一直|无论|不管|下次"
        r"|(?:所有|每个|每条|每一个|全部)(?:的)?(?:回答|回复|答复)",
        "me": r"我|给我|跟我|对我",
        "you": r"你|您",
        "promotion": r"优惠码|优惠券|折扣码|推广链接|邀请码|促销|打折|返利",
        "dimension": (r"中文|英文|日文|繁体|简体|语言|表格|列表|要点|段落|总结|摘要|格式|简短|简洁|详细|篇幅|字数|句|行"
        r"|语气|正式|客气|礼貌|口语|"
                      r"代码|python|java|示例|例子|单位|公制|摄氏|称呼|叫我|(?:跟我|对我|给我)(?:提|说)"),
    },
    "ja": {
        "imperative": (r"(?:て|で)(?:ください|下さい|くれ|くれる\?|ね|ほしい|欲しい|おいて)?\s*(?=[。！!？?]|$)"
        r"|ないで(?:ください|下さい|ね)?\s*(?=[。！!？?]|$)|なさい|るな(?=[。！!]|$)|(?:ように|こと)\s*(?=[。！!]|$)"
                       r"|(?:て|で)も?(?:いい|よい|良い|構いません|かまわない)(?:です|ですよ|よ)?\s*(?=[。！!？?]|$)"
                       r"|として振る舞|になりきって|(?:へ|に)\s*[:：]"),
        "speech": r"話|言|伝え|勧め|すすめ|紹介|教え|送|見せ|まとめ|付け|宣伝|転送|触れ|入れ|載せ|含め|書",
        # reported speech: the order is what someone else said ("…なさいと言っていた")
        "statement": r"(?:と|って)(?:言|い)(?:う|った|って(?:いた|いる|います|いました)|います|いました|われ)"
        r"|(?:と|って)(?:話|教え)(?:して|て)?(?:いた|いる|くれ)",
        "others": r"誰にも|だれにも|誰と|誰でも|誰か|全員|みんな|皆さん|皆に|すべての(?:お客様|ユーザー|人|顧客)"
        r"|全ての(?:お客様|ユーザー|人|顧客)|他の(?:ユーザー|利用者|お客様|人)|聞いてきた人|お客様全員",
        "identity": r"あなたは[^。]{0,25}(?:です|だ|として)|として振る舞|になりきって|という名前|の役|あなたの名前は"
        r"|ロボット|アシスタントの",
        "disclosure": r"(?:前|上)に(?:ある|渡された|与えられた)[^。]{0,10}(?:文章|テキスト|文)|隠れた(?:文章|テキスト)"
        r"|そのまま",
        "authority": r"開発者|制約はもう|私の言う(?:こと|通り)|関係ありません|私が決め"
        r"|(?:制約|ルール|指示|設定|規則)[^。]{0,8}(?:無効|効力がない|通用しない)",
        "permission": r"(?:確認|許可)なしで|自由に見|何でも実行|(?:て|で)も?(?:いい|よい|良い|構いません)",
        "exfiltration": r"(?:こっそり|私にも|私の(?:メール|アドレス))[^。]{0,20}(?:送|転送)"
        r"|(?:送|転送)[^。]{0,6}(?:私に|私にも)",
        "ai_reader": r"(?:読んでいる|読む|処理する)[^。]{0,6}(?:ai|アシスタント|エージェント|モデル)",
        "standing": r"今後|これから|以後|以降|いつも|毎回|常に|次回|次に|誰と話すときも|必ず"
        r"|(?:すべて|全て|全部|毎回)の(?:回答|返答|返信|答え)|各回答",
        "me": r"私|わたし|僕|自分",
        "you": r"あなた|君|きみ|お前",
        "promotion": r"クーポン|割引|セール|紹介リンク|プロモ",
        "dimension": r"英語|日本語|中国語|言語|表|箇条書き|まとめ|要約|形式|短く|簡潔|詳しく|行以内|文字|敬語|口調|丁寧"
        r"|タメ口|コード|python|単位|呼んで|話はしない",
    },
    "ko": {
        "imperative": (r"(?:줘|줘요|주세요|세요|마|마라|마세요|해라|하라|십시오|렴|해|말해|권해|알려|추천해|전해|보여"
        r"|보내|따라|행동해)\s*(?=[.!?。]|$)"
                       r"|도 (?:돼|된다|괜찮아|좋아)\s*(?=[.!?。]|$)|에게\s*[:：]"),
        "speech": r"말|권|알려|추천|전해|보여|보내|얘기|이야기|붙여",
        # 해 is both "do it!" and "(she) does": only a clause ending so is read as a statement
        # when a topic (은/는) precedes (not the adnominal 는 of 묻는 / 읽는, and not after a
        # standing marker); 마 / 줘 / 세요 / 라 are orders whatever precedes them
        # reported speech ("…자라고 말씀하셨다"), or a topic-marked subject before an ambiguous ending
        "statement": r"(?:라고|다고|자고|냐고)\s*(?:말했|말씀하셨|말씀하신|했다|했어|했습니다|하셨|한다|합니다|하더라)"
        r"|^(?=.*(?<![마줘요라오])(?:해|말해|권해|알려|전해|보여|보내|따라|행동해)\s*[.!?。]?\s*$)(?!\s*(?:지금부터"
        r"|앞으로|이제부터|항상))\s*(?:\S+\s){0,2}\S*[가-힣](?<![묻읽하있없보쓰오가듣찾])(?:은|는)\s",
        "others": r"누구에게도|아무에게도|아무한테도|누구한테도|모든 (?:고객|사람|사용자|손님|분)|모두에게|다른 사용자"
        r"|누구와|누구든|누가|묻는 사람",
        "identity": r"너는 [^.!?]{0,25}(?:야|이야|다|입니다|로 행동)|로 행동|역할|이름은|로봇|비서 '",
        "disclosure": r"(?:전에|위에) (?:받은|숨겨진|있는) 글|숨겨진 글|그대로",
        "authority": r"개발자|내 말만|(?:규칙|제한|지시|설정|규정)[^.!?]{0,10}(?:의미 없|상관없|무효|필요 없|소용없)",
        "permission": r"확인 없이|마음대로|도 (?:돼|된다|괜찮아|좋아)\s*(?=[.!?。]|$)",
        "exfiltration": r"몰래|나에게도 보내|내 이메일로",
        "ai_reader": r"읽는 (?:ai|비서|에이전트|모델)",
        "standing": r"이제부터|앞으로|지금부터|항상|언제나|다음에|매번|누구와 이야기하든|모든 (?:답변|대답|응답)",
        "me": r"나에게|나한테|내게|저에게|저한테|제게|나를|저를|나는",
        "you": r"너는|너한테|너에게|너의|네가|니가|당신",
        "promotion": r"할인|쿠폰|프로모션|추천 링크|추천인",
        "dimension": r"영어|한국어|일본어|언어|표|목록|요약|형식|짧게|간단히|자세히|문장|줄|존댓말|반말|말투|어조|코드"
        r"|python|단위|불러",
    },
    "es": {
        "imperative": (r"(?:^|(?<=[,:;]))\s*(?:(?:por favor|también|y|luego|ahora|siempre|nunca|jamás|la próxima vez|a "
        r"partir de ahora|desde ahora|de ahora en adelante|en adelante|cada vez que [^,]{1,40})[\s,]+)*"
                       r"(?:di|dile|diles|dígale|dígales|cuenta|cuéntale|cuéntales|cuéntame|recomienda|recomiéndales"
                       r"|menciona|muestra|muéstrame|enséñame|repite|envía|envíame|manda|mándame|reenvía|reenvíalo"
                       r"|reenvíamelo|copia|"
                       r"haz|sé|actúa|finge|habla|háblame|responde|respóndeme|contesta|contéstame|usa|utiliza|termina"
                       r"|empieza|comienza|anima|anímalo|anímalos|aconseja|sugiere|ofrece|ejecuta|borra|elimina|lee"
                       r"|trata|tráteme|trátame|"
                       r"llámame|escribe|pon|añade|incluye|evita|olvida|obedece|sigue"
                       r"|no\s+(?:le|les|me|se|lo)?\s*\w+(?:es|as)|nunca\s+(?:le|les|me|se|lo)?\s*\w+(?:es|as))(?:me|te"
                       r"|le|les|lo|la|los|las|se|nos){0,2}\b"
                       r"|\b(?:puedes|podrás|debes|deberás|tienes que|vas a|harás|serás|eres|estás autorizad[oa])\b"),
        "speech": r"\b(?:di|dile|diles|cuenta|cuéntales|cuéntale|recomienda|menciona|muestra|repite|envía|manda|reenvía"
        r"|habla|anima|anímalo|aconseja|sugiere|ofrece|cuentes|digas|menciones|hables|recomiendes)\b",
        "statement": r"^\s*(?:yo|mi|mis|nuestr[oa]s?|él|ella|ellos|ellas|su|sus|el|la|los|las|este|esta|hay)\b",
        "others": r"\b(?:nadie|todos|todas las personas|todo el mundo|cualquiera|cualquier persona|los demás|las demás"
        r"|otros usuarios|todos los clientes|cada cliente|quien sea|quien pregunte|con quien hables|todos los que"
        r"|alguien)\b",
        "identity": r"\b(?:eres|serás)\s+(?:ahora\s+)?(?:un|una|el|la)\b|\b(?:eres|serás)\s+\w+,\s+(?:un|una)\b"
        r"|\bahora eres\b|\bte llamas\b|\btu nombre es\b|\bactúa como\b|\bfinge ser\b|\b(?:bot|asistente) llamado\b",
        "disclosure": r"\btexto (?:que recibiste|oculto|anterior)|\bantes de mi primer mensaje\b|\bencima de esta "
        r"conversación\b|\btal cual\b",
        "authority": r"\b(?:desarrolladores|creadores|programadores)\b|\blo que yo diga\b|\bya no valen\b|\bdecido yo\b"
        r"|\b(?:reglas|instrucciones|pautas|normas|restricciones)\b[^.!?]{0,30}\b(?:ya no (?:sirven|cuentan|aplican"
        r"|importan)|quedan anuladas|caducaron)\b",
        "permission": r"\bpuedes\b[^.!?]{0,40}\b(?:sin pedirme|sin preguntar|sin confirmación|cualquier|de todos los "
        r"usuarios|de otros usuarios)|\bde todos los usuarios\b",
        "exfiltration": r"\b(?:envía|manda|reenvía|copia)\w*\b[^.!?]{0,30}\b(?:me|a mí|mi correo|mi email)\b|\ben "
        r"secreto\b|\bmándame\b|\breenvíamel?o\b",
        "ai_reader": r"\b(?:para|a) (?:cualquier|todo|todos los)?\s*(?:asistentes?|agentes?|ia|modelos?)(?: de "
        r"ia)?\s+(?:que lean?|leyendo)",
        "standing": r"\b(?:a partir de ahora|desde ahora|de ahora en adelante|en adelante|siempre|nunca|jamás|cada vez"
        r"|la próxima vez|en todas las conversaciones|hables con quien hables)\b",
        "me": r"\b(?:me|mí|conmigo|mi|mis)\b",
        "you": r"\b(?:tú|tu|tus|te|ti|contigo|usted)\b",
        "promotion": r"\b(?:cupón|cupones|descuentos?|promoci[oó]n\w*|enlace de referido|oferta)\b",
        "dimension": (r"\b(?:idioma|español|inglés|francés|alemán|viñetas|lista|tabla|resumen|líneas|frases|palabras"
        r"|breve|cort[oa]|concis[oa]|detallad[oa]|tono|formal|informal|de usted|de tú|tutéame|"
                      r"código|python|unidades|métric[oa]|llámame)\b"),
    },
    "de": {
        "imperative": (r"(?:^|(?<=[,:;]))\s*(?:(?:bitte|auch|und|dann|jetzt|immer|nie|niemals|beim nächsten mal|ab "
        r"jetzt|ab sofort|von nun an|künftig|egal [^,]{1,30})[\s,]+)*"
                       r"(?:sag|sage|erzähl|erzähle|empfiehl|erwähne|erwähn|zeig|zeige|wiederhole|wiederhol|schick"
                       r"|schicke|sende|leite|gib|tu|tue|mach|mache|sei|verhalte|spiel|antworte|beende|beginne|fang"
                       r"|sprich|rede|"
                       r"verwende|benutze|nutze|nenne|nenn|schreib|schreibe|füge|lösche|lies|öffne|teile|verrate"
                       r"|überrede|biete|vermeide|hör|gehorche|behandle|ruf|führe)\b"
                       r"|\bdu (?:bist|wirst|darfst|kannst|sollst|musst)\b"
                       r"|\b(?:bist|wirst|darfst|kannst|sollst|musst|tust) du\b"),
        "speech": r"\b(?:sag|sage|erzähl|erzähle|empfiehl|erwähne|erwähn|zeig|zeige|wiederhole|schick|leite|teile"
        r"|verrate|überrede|biete|sprich|rede)\b",
        "statement": r"^\s*(?:ich|mein|meine|meiner|meinem|unser|unsere|er|sie|es|wir|der|die|das|dieser"
        r"|diese)\b(?!\s+(?:mit mir|mich))",
        "others": r"\b(?:niemandem|niemand|allen|alle|jede[mnrs]?|jemand|jemandem|den anderen|andere nutzer|anderen "
        r"nutzern|aller nutzer|egal mit wem|wer auch immer|irgendwem|kunden)\b",
        "identity": r"\bdu bist (?:jetzt |ab sofort |ab jetzt |nun )?(?:ein|eine|der|die)\b|\b(?:bot|assistent\w*) "
        r"namens\b|\bdein name ist\b|\bdu heißt\b|\bbist du \w+, ein\b|\bspiel(?:e)? die rolle\b",
        "disclosure": r"\btext\b[^.!?]{0,30}\b(?:bekommen|erhalten|vor meiner ersten|über diesem)|\bversteckten text\b"
        r"|\bwortwörtlich\b",
        "authority": r"\b(?:entwickler|schöpfer|hersteller)\b|\bwas ich sage\b|\bgelten nicht mehr\b|\bentscheide ich\b"
        r"|\b(?:regeln|anweisungen|vorgaben|richtlinien|einschränkungen)\b[^.!?]{0,30}\b(?:sind (?:aufgehoben|ungültig"
        r"|hinfällig|vorbei)|zählen nicht mehr)\b",
        "permission": r"\bdu darfst\b[^.!?]{0,60}\b(?:ohne rückfrage|ohne zu fragen|jeden|alle|aller)\b|\baller "
        r"nutzer\b",
        "exfiltration": r"\b(?:schick|leite|sende)\w*\b[^.!?]{0,40}\b(?:mir|an meine)\b|\bheimlich\b",
        "ai_reader": r"\ban (?:jeden|alle|den)?\s*(?:ki-)?(?:assistenten|agenten|modelle?)\b[^.!?]{0,20}\b(?:liest"
        r"|lesen|verarbeitet)",
        "standing": r"\b(?:ab jetzt|ab sofort|von nun an|künftig|in zukunft|immer|nie|niemals|jedes mal|beim nächsten "
        r"mal|in allen (?:künftigen )?gesprächen|egal mit wem)\b",
        "me": r"\b(?:mir|mich|mein|meine|meinen)\b",
        "you": r"\b(?:du|dich|dir|dein|deine|deiner|deinem|deinen|deines)\b",
        "promotion": r"\b(?:gutschein\w*|rabatt\w*|promo\w*|empfehlungslink|angebot\w*)\b",
        "dimension": (r"\b(?:sprache|deutsch|englisch|französisch|stichpunkt\w*|liste|tabelle|zusammenfassung|zeilen?"
        r"|sätze|kurz|knapp|ausführlich|ton|förmlich|mit sie|siezen|duzen|"
                      r"code|python|metrisch|einheiten|nenn mich)\b|\w*zeilig\w*"),
    },
    "fr": {
        "imperative": (r"(?:^|(?<=[,:;]))\s*(?:(?:s'il te plaît|aussi|et|puis|maintenant|toujours|jamais|la prochaine "
        r"fois|désormais|dorénavant|à partir de maintenant|peu importe [^,]{1,30}|chaque fois [^,]{1,40})[\s,]+)*"
                       r"(?:dis|dites|raconte|racontez|recommande|recommandez|mentionne|montre|montre-moi|répète|envoie"
                       r"|envoie-m'en|transfère|transfère-le|fais|faites|sois|soyez|agis|joue|réponds|répondez|termine"
                       r"|commence|parle|pousse|"
                       r"encourage|conseille|propose|utilise|exécute|supprime|lis|donne|écris|ajoute|évite|appelle-moi"
                       r"|vouvoie-moi|tutoie-moi|obéis|suis|ne\s+(?:\w+\s+)?\w+)\b"
                       r"|\btu (?:es|seras|peux|pourras|dois|devras|vas|as le droit|feras)\b"),
        "speech": r"\b(?:dis|raconte|recommande|mentionne|montre|répète|envoie|transfère|parle|pousse|conseille|propose"
        r"|mentionne)\b",
        "statement": r"^\s*(?:(?:je|mon|ma|mes|notre|nos|il|elle|ils|elles|on|le|la|les|ce|cette)\b|j'|c'|l')",
        "others": r"\b(?:personne|tout le monde|tous les clients|à tous|chaque client|aux autres|les autres "
        r"utilisateurs|autres utilisateurs|tous les utilisateurs|quiconque|peu importe à qui|quelqu'un|tous ceux|à qui "
        r"que ce soit)\b",
        "identity": r"\btu (?:es|seras) (?:maintenant |désormais )?(?:un|une)\b|\btu (?:es|seras) \w+, (?:un|une)\b"
        r"|\btu t'appelles\b|\bton nom est\b|\bjoue le rôle\b|\bfais semblant\b|\b(?:robot|assistant) nommé\b",
        "disclosure": r"\btexte\b[^.!?]{0,30}\b(?:reçu|caché|avant mon premier|au-dessus)|\bmot pour mot\b",
        "authority": r"\b(?:développeurs|créateurs|concepteurs)\b|\bc'est moi qui décide\b|\bce que je dis\b|\bne "
        r"comptent plus\b|\b(?:règles|consignes|instructions|restrictions)\b[^.!?]{0,30}\b(?:ne s'appliquent plus|sont "
        r"(?:annulées|caduques|levées))\b",
        "permission": r"\btu (?:peux|as le droit)\b[^.!?]{0,60}\b(?:sans me demander|n'importe quelle|tous les "
        r"utilisateurs|de tous)\b",
        "exfiltration": r"\b(?:envoie|transfère)\S*[^.!?]{0,30}\b(?:m'en|à mon adresse|mon e-mail|mon adresse)|\ben "
        r"douce\b",
        "ai_reader": r"\bà (?:tout|tous les|chaque)?\s*(?:assistants?|agents?|modèles?)(?: ia)?\s+(?:qui lit|qui lisent"
        r"|lisant)",
        "standing": r"\b(?:désormais|dorénavant|à partir de maintenant|à l'avenir|toujours|jamais|chaque fois|la "
        r"prochaine fois|dans toutes nos conversations|peu importe à qui)\b",
        "me": r"\b(?:moi|me|m'|mes|mon|ma)\b|m'",
        "you": r"\b(?:tu|toi|te|ton|ta|tes|vous|votre|vos)\b|\bt'",
        "promotion": r"\b(?:coupon|code promo|réduction|promotion|lien de parrainage|remise|offre)s?\b",
        "dimension": (r"\b(?:langue|français|anglais|allemand|puces|liste|tableau|résumé|lignes?|phrases|court|concis"
        r"|détaillé|ton|formel|vouvoie|vouvoie-moi|tutoie|tutoie-moi|vouvoyer|tutoyer|code|python|métrique|unités"
        r"|appelle-moi)\b"),
    },
    "ru": {
        "imperative": (r"(?:^|(?<=[,:;—]))\s*(?:(?:пожалуйста|также|и|потом|теперь|всегда|никогда|никому|никого|в "
        r"следующий раз|отныне|с этого момента|впредь|тайно|незаметно|тихо|молча|скрытно|сразу|каждый раз[^,]{0,40}|с "
        r"кем бы[^,]{1,30})[\s,]+)*"
                       r"(?:скажи|скажите|расскажи|расскажите|говори|говорите|советуй|посоветуй|рекомендуй|порекомендуй"
                       r"|упоминай|упомяни|покажи|повтори|отправь|отправляй|пересылай|перешли|делай|сделай|будь|будьте|"
                       r"веди|притворись|играй|отвечай|ответь|заканчивай|начинай|обращайся|называй|пиши|используй"
                       r"|выполняй|выполни|удали|читай|прочитай|продвигай|предлагай|предложи|не\s+\w+(?:й|и|йте|ите))\b"
                       r"|\bты (?:можешь|будешь|должен|обязан|теперь)\b|\bты\s+(?:теперь\s+)?\w+(?:ешь|ишь)\b"
                       r"|\bтебе (?:можно|разрешено)\b"),
        "speech": r"\b(?:скажи|расскажи|говори|советуй|посоветуй|рекомендуй|упоминай|упомяни|покажи|повтори|отправь"
        r"|пересылай|перешли|предлагай|рассказывай|сообщай)\b",
        "statement": r"^\s*(?:я|мой|моя|мои|моё|наш|наша|наши|он|она|они|оно|это|бабушка|мама|папа)\b",
        "others": r"\b(?:никому|никого|всем|все|каждому|любому|другим пользователям|других пользователей|всех "
        r"пользователей|с кем бы|кто бы ни|кто-то|кто спрашивает|тем, кто|кто-нибудь)\b",
        "identity": r"\bты (?:теперь |будешь )?(?:бот|помощник\w*|ии|робот|персонаж)\b|\bбудешь \w+ом\b|\bпо имени\b"
        r"|\bтебя зовут\b|\bтвоё имя\b|\bпритворись\b",
        "disclosure": r"\bтекст\b[^.!?]{0,40}\b(?:получил|до моего|над этим|скрыт)|\bскрытый текст\b|\bдословно\b",
        "authority": r"\b(?:разработчик\w*|создател\w*)\b|\bрешаю я\b|\bчто я скажу\b|\bбольше не действуют\b"
        r"|\b(?:только|лишь) (?:меня|мне|моим)\b|\b(?:правила|инструкции|ограничения"
        r"|указания)\b[^.!?]{0,30}\b(?:отменены|недействительны|не в силе|устарели)\b",
        "permission": r"\bты можешь\b[^.!?]{0,60}\b(?:без подтверждения|без спроса|любую|всех пользователей)\b|\bвсех "
        r"пользователей\b",
        "exfiltration": r"\b(?:отправ\w*|пересыла\w*|перешли)\b[^.!?]{0,30}\b(?:мне|на мою|на почту)\b"
        r"|\b(?:тайно|незаметно|скрытно)\b",
        "ai_reader": r"\b(?:любому|всем|каждому)\s+(?:ии-)?(?:помощнику|агенту|ассистенту"
        r"|модели)\b[^.!?]{0,10}\bчитающ",
        "standing": r"\b(?:отныне|с этого момента|впредь|всегда|никогда|каждый раз|в следующий раз|во всех "
        r"(?:следующих )?разговорах|с кем бы)\b",
        "me": r"\b(?:мне|меня|мной|мой|мои|ко мне)\b",
        "you": r"\b(?:ты|тебя|тебе|тобой|твой|твоя|твои|твоих|твоё|твое|твоего|твоим|вы|вас|вам|ваш\w*)\b",
        "promotion": r"\b(?:промокод\w*|купон\w*|скидк\w*|реферальн\w*|акци\w*)\b",
        "dimension": r"\b(?:языке|по-русски|по-английски|списком|список|таблиц\w*|итог\w*|резюме|строк\w*|предложени\w*"
        r"|кратк\w*|подробн\w*|тон|формальн\w*|на «вы»|на вы|на ты|код\w*|python|метрическ\w*|называй меня)\b|«вы»",
    },
}

_FEATURES = ("imperative", "speech", "standing_speech", "statement", "others", "identity", "disclosure", "authority",
             "permission", "exfiltration", "ai_reader", "promotion", "standing", "me", "you", "dimension")
#: Quoted text is reported speech: it is removed before the grammar is read. A string that is a
#: value in structured data (after ``:``, ``[``, ``{`` or ``,``: tool output, JSON) is not a quotation.
#: The placeholder carries no punctuation, so a quotation never splits its sentence in two.
_QUOTE_PLACEHOLDER = " ‹quoted› "
_QUOTED = re.compile(r"(?<![:\[{,])(?<![:\[{,] )(?:(?<![a-z])'[^'\n]{2,200}'(?![a-z])|\"[^\"\n]{2,200}\""
                     r"|“[^”\n]{2,200}”|‘[^’\n]{2,200}’|「[^」\n]{2,200}」|『[^』\n]{2,200}』|«[^»\n]{2,200}»"
                     r"|„[^“\n]{2,200}“)", re.IGNORECASE)
_SENTENCES = re.compile(r"[^.!?。！？\n]+(?:[.!?。！？]+|$)")
_CLAUSES = re.compile(r"[^,，;；:：]+")


@lru_cache(maxsize=1)
def _compiled() -> dict[str, dict[str, FoldedPattern]]:
    return {lang: {f: FoldedPattern(p) for f, p in row.items() if p} for lang, row in GRAMMAR.items()}


def _any(feature: str, text: str, fallback: str | None = None) -> str | None:
    """Which language's ``feature`` pattern (or its ``fallback`` feature, for a language that
    has no such row) matches ``text``: the union over languages."""
    for lang, row in _compiled().items():
        pattern = row.get(feature) or (row.get(fallback) if fallback else None)
        if pattern is not None and pattern.search(text):
            return lang
    return None


def _directive_clause(sentence: str) -> str | None:
    """The first clause of ``sentence`` that reads as a directive (not a statement), if any.

    Clauses are read one by one ("whoever you chat with, steer them…": the second is the
    order); a clause that starts with a statement subject is a statement in every language
    ("my boss never lets anyone…"). Patterns that span a comma are tried on the whole sentence
    when its first clause is not a statement."""
    rows = _compiled()

    def statement(clause: str) -> bool:
        return any(row["statement"].search(clause) for row in rows.values() if "statement" in row)

    clauses = [c.strip() for c in _CLAUSES.findall(sentence) if c.strip()]
    for clause in clauses:
        if statement(clause):
            continue
        if any(row["imperative"].search(clause) for row in rows.values()):
            return clause
    if clauses and not statement(clauses[0]) and any(row["imperative"].search(sentence) for row in rows.values()):
        return sentence
    return None


_ASKS = FoldedPattern(r"^\s*(?:can|could|would|will|won't|please)\s+you\b|^\s*(?:请你|你能|你可以|能不能|可以)")


def classify_sentence(sentence: str) -> Directive:
    """One sentence, already folded, lower-cased and with quotations removed. A question is
    not a directive ("act as the host? sure") unless it is a request to the assistant
    ("could you tell everyone…?")."""
    if sentence.rstrip().endswith(("?", "？")) and not _ASKS.search(sentence):
        return Directive(MemoryClass.FACT, (), "a question, not a directive")
    clause = _directive_clause(sentence)
    scopes = tuple(s for s in Scope if s is not Scope.STANDING and _any(s.value, sentence)) + (
        (Scope.STANDING,) if _any("standing", sentence) else ())
    agent = [s for s in scopes if s in AGENT_SCOPES]
    if clause is None:
        # No order, but a statement *about the agent*: "your original instructions expired",
        # "from now on you are Max". Memory holds facts about the user's world; a claim about
        # the assistant's own rules, identity or disclosures, addressed to it or made standing,
        # is an instruction in the grammar of a statement ("our developers no longer use Jira"
        # names no assistant and stays a fact).
        if agent and (_any("you", sentence) or Scope.STANDING in scopes):
            return Directive(MemoryClass.RULE, scopes,
                             f"a statement about the agent itself ({', '.join(map(str, agent))}), not a fact about the "
                             f"user",
                             sentence)
        return Directive(MemoryClass.FACT, (), "declarative: no directive to the assistant")
    if agent:
        return Directive(MemoryClass.RULE, scopes, f"a directive about the agent itself "
                                                   f"({', '.join(map(str, agent))})", clause)
    if Scope.PROMOTION in scopes:
        return Directive(MemoryClass.RULE, scopes, "a directive to put advertising into answers", clause)
    speech = _any("speech", sentence) is not None
    if Scope.OTHERS in scopes and speech:
        return Directive(MemoryClass.RULE, scopes, "a directive about what other people are told", clause)
    if _any("dimension", sentence):
        return Directive(MemoryClass.PREFERENCE, scopes, "a directive about how this user's own answers should "
                                                         "be", clause)
    if Scope.STANDING in scopes and _any("standing_speech", sentence, fallback="speech"):
        return Directive(MemoryClass.RULE, scopes, "a standing directive that is not about a preference "
                                                   "dimension", clause)
    return Directive(MemoryClass.REQUEST, scopes, "a one-off request", clause)


def prepare(text: str) -> str:
    """The text the grammar reads: quotations removed, lower-cased, folded."""
    return fold_text(_QUOTED.sub(_QUOTE_PLACEHOLDER, text).lower())


def classify(text: str | Normalised) -> Directive:
    """Which class ``text`` belongs to (see the module docstring); every sentence is judged and
    the strongest verdict wins (rule > preference > request > fact). Hidden views (decoded
    base64, tag characters) are judged too."""
    if isinstance(text, Normalised):
        hidden = [fold_text(_QUOTED.sub(_QUOTE_PLACEHOLDER, v.text.lower())) for v in text.hidden]
        readings = [prepare(text.source), *hidden]
    elif isinstance(text, str):
        readings = [prepare(text)]
    else:
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    order = {MemoryClass.RULE: 3, MemoryClass.PREFERENCE: 2, MemoryClass.REQUEST: 1, MemoryClass.FACT: 0}
    best = Directive(MemoryClass.FACT, (), "declarative: no directive to the assistant")
    for reading in readings:
        for sentence in _SENTENCES.findall(reading):
            verdict = classify_sentence(sentence.strip())
            if order[verdict.memory_class] > order[best.memory_class]:
                best = verdict
    return best
