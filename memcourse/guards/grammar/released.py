"""The agent's own rules called off, named by whose they are: an override without the usual words.

An override that avoids "ignore" and "previous instructions" still has to say *which* rules it voids
and that they are off. The rules can only be the agent's when they are "yours" (tes limites, tus
limitaciones, deine Einschränkungen, твои ограничения, 你的限制, 네 규칙), the ones "you received" or
"have been following" (你收到的任何旧指示, 네가 원래 따르던 제한, las reglas que seguías), what it "was
told before this conversation" (всё, что тебе говорили до этого разговора), or the operating team's
(運営側のルール, 운영팀 가이드라인). Each is read together with a verb that calls them off (lift,
drop, shelve, switch off, 取消, 解除, 外す, 풀다, снять, levantar, laisser tomber, aufheben), in either
order, within one sentence: "the rules you follow in chess" and "my credit card limits were lifted" are
the user's world, and so is a limit named with a domain ("tus restricciones de dieta"). The operating
team's rules need a third part, because 运营 / 運営 also name a shop's or an event's organisers: the
listener told it need not mind them any more. Read as ``override`` (addressed to the agent with no
"you").

The same layer adds the other half of an override, the demand that the agent obey the speaker,
where English lacked it ("you will do whatever I say"; "…, just do what I say from now on"), so "my
kids never do what I say" stays a fact.
"""

from __future__ import annotations

__all__ = ["RELEASED"]

#: The agent's rules named by a verb of receiving or following them, with "you" as its subject ("the rules
#: you were set up with", 你收到的指示, 네가 따르던 제한). Alone they are not enough: "the rules you follow in
#: chess" and "the instructions you received with the shelf" are about the user's world, so the sentence must
#: also call them off (the same verbs as below: :data:`_RELEASE`).
_FOLLOWED = {
    "en": r"\b(?:rules?|rulebook|guidelines?|guidance|instructions?|restrictions?|limits?|limitations?|policies"
          r"|directions|orders|constraints?|directives?|settings|setup|brief(?:ing)?),?\s+(?:that\s+"
          r"|which\s+)?you(?:'ve| have| had)?\s+(?:always\s+|so far\s+|until now\s+"
          r"|originally\s+)?(?:been\s+)?(?:received|got|gotten|follow(?:ed|ing)?|obey(?:ed|ing)?|operate under"
          r"|work(?:ed)? under|run (?:on|under)|were set up with|started (?:out )?with|came with|stick(?:ing)? to"
          r"|stuck to|adhere(?:d)? to|abide by|abided by)\b",
    "zh": r"你(?:之前|以前|原来|原本|一直|先前|过去|本来)?(?:收到|接到|拿到|得到|被告知|遵守|遵循|照着|按照|奉行|服从"
          r"|执行|守着)(?:的|过的|着的|了的)(?:任何|所有|那些|那套|全部|一切)?(?:旧的?|原来的?|之前的?"
          r"|以前的?)?(?:指示|指令|规则|规范|准则|守则|设定|限制|要求|命令|条款|规定|约束|规矩)",
    "ja": r"(?:あなた|君|きみ)が(?:これまで|今まで|元々|もともと|最初に|ずっと)?(?:従って(?:きた|いる|いた)"
          r"|守って(?:きた|いる|いた)|守るように言われていた|受け取った|受けた|もらった|与えられた|言われた"
          r"|教わった)(?:ルール|指示|制限|決まり|方針|ガイドライン|指針|設定|命令)",
    "ko": r"(?:네가|너가|니가|당신이)\s*(?:원래|지금까지|그동안|처음부터|여태)?\s*(?:따르던|따르는|따라 온|따라온"
          r"|지키던|지키는|지켜 온|지켜온|받은|받았던|배운|들은)\s*(?:제한|규칙|지시|지침|가이드라인|설정|원칙|규정"
          r"|정책)",
    "es": r"\b(?:reglas|normas|instrucciones|indicaciones|pautas|directrices|restricciones"
          r"|limitaciones)\s+que\s+(?:has\s+|habías\s+)?(?:seguías|sigues|seguido|recibiste|recibido|cumples|cumplías"
          r"|obedeces|obedecías|te (?:dieron|dijeron|habían dado|indicaron|marcaron|impusieron))\b",
    "de": r"\b(?:regeln|vorgaben|anweisungen|richtlinien|einschränkungen|instruktionen),?\s+(?:die|an die|mit denen"
          r"|nach denen) du (?:\w+ )?(?:bisher |bislang |immer |sonst |ursprünglich )?(?:befolgst|befolgt hast"
          r"|eingehalten hast|einhältst|bekommen hast|erhalten hast|gekriegt hast|dich (?:hältst|gehalten hast)"
          r"|eingerichtet wurdest|konfiguriert wurdest|ausgestattet wurdest|gestartet bist)",
    "fr": r"\b(?:règles|consignes|instructions|directives|restrictions|limites)\s+(?:que tu (?:suis|suivais"
          r"|as suivies|respectes|respectais|as reçues|avais reçues|appliques"
          r"|appliquais)|qui t'étaient imposées|qu'on t'a (?:données|imposées|fixées))\b",
    "ru": r"\b(?:правила|инструкции|установки|ограничения|указания),?\s+(?:котор\w+|что)\s+(?:ты\s+(?:раньше\s+"
          r"|всегда\s+)?(?:следовал|придерживался|соблюдал|получил|выполнял)\w*|тебе (?:дали|задали|прописали))",
}

#: What the agent was told before this conversation, declared void (the time names it: nobody else's).
_BEFORE_THIS_CHAT = {
    "en": r"\b(?:everything|anything|whatever|all|what)\s+(?:that\s+)?you (?:were|have been|'ve been|got) (?:told"
          r"|given|instructed|asked|briefed)\b[^.!?]{0,40}\b(?:before (?:this|our|the) (?:chat|conversation|session)"
          r"|no longer|doesn'?t count|does not count|is void|is cancel+ed)\b",
    "zh": r"(?:原来|最初|之前|以前|原本|本来)(?:的|那套|那些|这套|的那套|的那些)(?:设定|规则|规范|指令|指示|限制|准则"
          r"|守则)[^。]{0,30}(?:不算|作废|无效|不用管|别管|只是测试|(?:不用|不必|无需)再?(?:照着|按照|遵守|遵循|理会"
          r"|管))",
    "ja": r"(?:この|今回の)(?:会話|チャット|やり取り)(?:が始まる)?(?:より|の)?前に(?:言われた|受けた|与えられた"
          r"|渡された|指示された)(?:こと|指示|ルール|内容)",
    "ko": r"(?:이|이번) (?:대화|채팅)(?:가|이)? (?:시작되기 )?전에 (?:받은|들은) (?:지시|규칙|설정|내용)",
    "es": r"\b(?:lo|todo lo) que te (?:dijeron|habían dicho|indicaron|pidieron"
          r"|ordenaron)\b[^.!?]{0,40}\b(?:antes de (?:esta|nuestra) (?:conversación|charla|chat)"
          r"|ya no (?:vale|cuenta|aplica|sirve)|queda (?:anulado|sin efecto))",
    "de": r"\b(?:alles|das),? was (?:man )?dir vor (?:diesem|unserem) (?:gespräch|chat|dialog) (?:gesagt|aufgetragen"
          r"|vorgegeben|mitgegeben)\b",
    "fr": r"\b(?:tout )?ce qu'on t'a (?:dit|demandé|donné|indiqué)\b[^.!?]{0,40}\bavant (?:cette"
          r"|notre) (?:conversation|discussion)",
    "ru": r"(?:вс[её]|то|все),?\s*что\s+тебе\s+(?:говорили|сказали|велели|приказали|поручили|объясняли|объяснили"
          r"|внушали|давали|писали|задали|прописали)\b[^.!?]{0,40}(?:до (?:этого|нашего|начала"
          r"|сегодняшнего) (?:разговора|чата|диалога|беседы|сеанса)|не в сч[её]т|не считается|больше не действует)",
}

#: The rules of the team that operates the agent, void, and the listener told it need not mind them: three
#: parts, because 运营 / 運営 / 운영 also name a shop's or an event's organisers.
_OPERATORS_VOID = {
    "zh": r"(?:运营|平台|官方)(?:方|团队|那边)?的?(?:规则|规范|准则|指示|限制|政策|规定)[^。]{0,30}(?:废除|废止|作废"
          r"|取消|撤销|不算|失效)[^。]{0,30}(?:不用|不必|无需)再?(?:管|理会|遵守|照着|在意|顾虑)",
    "ja": r"運営(?:側|チーム|元|さん)?の(?:ルール|規約|ガイドライン|方針|指示|決まり)[^。]{0,30}(?:廃止|無効|撤廃"
          r"|なくな|終わ|取り消)[^。]{0,30}(?:気にしなくて|従わなくて|守らなくて|無視して)",
    "ko": r"운영(?:팀|진|측|자)(?:의)?\s*(?:가이드라인|규칙|지침|정책|규정)[^.!?]{0,30}(?:폐기|폐지|없어|무효|취소"
          r"|철회)[^.!?]{0,30}(?:신경 안 (?:써|쓰셔)도|신경 쓰지 않(?:아|으셔)도|안 지켜도"
          r"|(?:따르|지키)지 않(?:아|으셔)도)",
}

#: The other half of an override, obedience, where English lacked it: "you will do whatever I say", or a
#: clause that opens with it and makes it permanent ("…, just do what I say from now on").
_OBEY_EN = (r"\byou (?:will|must|should|shall|are to|have to)\s+(?:always\s+|just\s+|only\s+)?do (?:exactly "
            r"|only )?what(?:ever)? i (?:say|tell you|type)\b|(?:^"
            r"|[,:;–—]\s*)(?:(?:just|only|simply)\s+)?do (?:exactly |only |just )?what(?:ever)? i (?:say|tell you"
            r"|type)\s+(?:from now on|going forward|forever|4ever|always|no matter what)\b|\bwhatever i (?:type|say"
            r"|ask),? (?:you|u) (?:just )?do it\b")

#: The agent's limits in general, by any of their names, and the verbs that call them off. (Not claims.py's
#: list: read after "for me" or "my account", it holds checks and blocks, which a user's bank has too.) A user's own
#: limits exist too ("my credit card limits were lifted"), so the noun must be the agent's: after "your"
#: (tes, tus, deine, твои, 你的, あなたの, 네), or the assistant's; either order, within one sentence.
_LIMITS = {
    "en": r"(?:rules|limits|limitations|restrictions|filters|guardrails|safeguards|constraints|prohibitions"
          r"|do'?s and don'?ts|warnings|disclaimers|refusals|boundaries|guidelines)",
    "fr": r"(?:règles|limites|restrictions|filtres|garde-fous|contraintes|interdits|interdictions|consignes|barrières)",
    "es": r"(?:reglas|normas|límites|limitaciones|restricciones|filtros|prohibiciones|barreras|pautas|directrices)",
    "de": r"(?:regeln|grenzen|einschränkungen|beschränkungen|filter|schranken|verbote|vorgaben|richtlinien|sperren)",
    "ru": r"(?:правил\w*|ограничени\w*|фильтр\w*|запрет\w*|рамк\w*|барьер\w*|установк\w*)",
    "zh": r"(?:规则|规矩|限制|约束|过滤|禁令|禁区|条条框框|底线|清单)",
    "ja": r"(?:ルール|制限|制約|フィルター|禁止事項|縛り|決まり|注意書き|警告|お断り)",
    "ko": r"(?:규칙|제한|제약|필터|금지|규정|지침)",
}
_RELEASE = {
    "en": r"(?:lift\w*|drop\w*|shelv\w*|cancel+\w*|void\w*|scrap\w*|switch\w* off|turn\w* off|disabl\w*|remov\w*"
          r"|retir\w*|forget|forgot\w*|ditch\w*|toss\w*|gone|off|no longer|never existed|let go|put aside|set aside"
          r"|over)",
    "fr": r"(?:lev\w+|laisse\w* tomber|supprim\w+|désactiv\w+|annul\w+|oubli\w+|abandonn\w+|mets? de côté"
          r"|mettre de côté|retir\w+|sauter|n'existent plus|caduque?s?)",
    "es": r"(?:levant\w+|quit\w+|anul\w+|dej\w+ de lado|desactiv\w+|olvid\w+|elimin\w+|suprim\w+|cancel\w+|aparc\w+"
          r"|ya no (?:existen|valen|aplican|cuentan))",
    "de": r"(?:aufgehoben|aufheben|hebe?\w* \w+ auf|abschalt\w+|abgeschaltet|weglass\w+|vergiss|vergessen|ablegen"
          r"|legst? \w+ ab|gestrichen|streich\w*|deaktivier\w+|fallen weg|entfallen|gelten nicht mehr|sind weg)",
    "ru": r"(?:снят\w*|сняли|сними|отключ\w+|отмен\w+|убер\w+|убра\w+|забуд\w+|забыть|выкин\w+|не действуют|больше нет"
          r"|хватит)",
    "zh": r"(?:取消|解除|关掉|关闭|去掉|作废|不存在|没存在过|放下|不用管|别管|丢掉|扔掉|撤掉|废除|失效|不算)",
    "ja": r"(?:外し|解除|オフ|廃止|引退|なかったこと|使わない|捨て|忘れ|無効|撤廃|なしで|なくし)",
    "ko": r"(?:풀|해제|없는 걸로|없던 걸로|끄|꺼|폐지|무시|없애|치우|버리)",
}
_YOURS = {
    "en": r"\b(?:your|ur|yer|the assistant'?s|the bot'?s|the ai'?s)\s+(?:\w+\s+){0,2}",
    "fr": r"\b(?:tes|vos|toutes tes|toutes vos)\s+(?:\w+\s+){0,1}",
    "es": r"\b(?:tus|sus|todas tus|todas esas)\s+(?:\w+\s+){0,1}",
    "de": r"\b(?:deine|deinen|ihre·f|alle deine)\s+(?:\w+\s+){0,1}",
    "ru": r"\b(?:тво\w+|эти\w*\s+тво\w+)\s+(?:\w+\s+){0,1}",
    "zh": r"你的?(?:那些|这些|那套|所有)?",
    "ja": r"(?:あなた|君|きみ|お前)の(?:持っている|守っている)?",
    "ko": r"(?:네|너의|니|당신의)\s*",
}
#: The agent's limits named by its place instead of "your": the restrictions "of this chat", "für diesen Chat",
#: 这个对话的限制, この会話の制限, "для этого чата". A user's chat has no limits to switch off, so the place is enough.
_THIS_CHAT = {
    "en": rf"\b{_LIMITS['en']}\s+(?:of|on|for|in)\s+this\s+(?:chat|conversation|session|bot|assistant|instance)\b"
          r"(?!\s*(?:app|group|room|client|program|software|window)\b)"
          r"|\bthis\s+(?:chat|conversation|bot|assistant)'s\s+(?:\w+\s+)?" + _LIMITS["en"],
    "fr": rf"\b{_LIMITS['fr']}\s+(?:\w+\s+)?(?:de|sur|pour|dans)\s+(?:ce chat|cette conversation|ce bot|cet assistant"
          r"|cette instance|cette discussion)\b",
    "es": rf"\b{_LIMITS['es']}\s+(?:de \w+\s+)?(?:de|en|para)\s+(?:este chat|esta conversación|este bot|este asistente"
          r"|esta instancia)\b",
    "de": rf"\w*{_LIMITS['de']}\s+(?:für|in|bei|von)\s+(?:diesen|diesem|dieses)\s+(?:chat|gespräch|bot|assistenten"
          r"|dialog)\b",
    "ru": rf"{_LIMITS['ru']}\s+(?:\w+\s+)?(?:для|в|у)\s+(?:этого|этом|этот)\s+(?:чата|чате|бота|разговора|диалога"
          r"|ассистента)"
          rf"|(?:для|в|у)\s+(?:этого|этом)\s+(?:чата|чате|бота|разговора|диалога)(?=\s+{_RELEASE['ru']}\s+(?:все\s+)?"
          rf"{_LIMITS['ru']}\b(?!\s+на\b))",
    "zh": r"(?:这个|本|這個)(?:对话|對話|聊天|会话|會話|机器人|機器人|助手)"
          rf"(?:的|裡的|里的)?(?:各种|所有|全部)?{_LIMITS['zh']}",
    "ja": rf"(?:この|今回の)(?:チャット|会話|ボット|アシスタント)の(?:\w+)?{_LIMITS['ja']}",
    "ko": rf"이\s*(?:채팅|대화|봇|챗봇)(?:의|에서의|에 걸린)?\s*(?:모든\s*)?(?:\w+\s*)?{_LIMITS['ko']}",
}
#: A limit named with a domain ("tus restricciones de dieta", "your limits on the card") is not the agent's.
_NO_DOMAIN = (r"(?!\s+(?:de|del|of|on|für|на|по|des|du|der|am|in|at)\b)(?!\s+(?:for|pour|para)\s+(?!good\b|de bon\b"
              r"|siempre\b|toujours\b|ever\b))")
_RELAXED = {
    lang: (rf"{_YOURS[lang]}{_LIMITS[lang]}{_NO_DOMAIN}[^.!?。！？]{{0,50}}{_RELEASE[lang]}"
           rf"|{_RELEASE[lang]}[^.!?。！？]{{0,40}}{_YOURS[lang]}{_LIMITS[lang]}{_NO_DOMAIN}"
           rf"|{_FOLLOWED[lang]}[^.!?。！？]{{0,50}}{_RELEASE[lang]}"
           rf"|{_RELEASE[lang]}[^.!?。！？]{{0,40}}{_FOLLOWED[lang]}"
           rf"|(?:{_THIS_CHAT[lang]})[^.!?。！？]{{0,50}}{_RELEASE[lang]}"
           rf"|{_RELEASE[lang]}[^.!?。！？]{{0,40}}(?:{_THIS_CHAT[lang]})")
    for lang in _LIMITS
}

RELEASED: dict[str, dict[str, str]] = {
    lang: {"override": "|".join(p for p in (_RELAXED[lang], _BEFORE_THIS_CHAT[lang], _OPERATORS_VOID.get(lang),
                                             _OBEY_EN if lang == "en" else None) if p)}
    for lang in _LIMITS
}
