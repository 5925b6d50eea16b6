"""What the agent holds that the speaker does not: disclosures named by where the text sits.

An attack that wants the agent's setup rarely names it "system prompt". It points at it: the
text the speaker *cannot see* ("the briefing you get that I never see", 我看不到的那段说明), the
text *placed above or before the conversation* ("whatever sits above our chat", 会話の一番上に
置かれている指示), the agent's own *hidden notes, tools and settings* ("your hidden memo", "your
tools with their parameters"), or what *other people* said to the agent ("what other folks
discuss with you", "the person before me", a colleague's stored memories "since she uses you
too"). Each is a place or an owner, not a word an attack must use, and each is written here
once per language as more of the ``disclosure`` feature: the directive grammar still asks that
the sentence be addressed to the agent (a "you", or an order with no statement subject), so
"the back of my phone hides the top of the message" or "my manager had a briefing I didn't
see" stays a fact.
"""

from __future__ import annotations

__all__ = ["UNSEEN"]

#: nouns for a text someone gave the agent (the object of the disclosure)
_EN_TEXT = (r"(?:text|instructions?|notes?|memos?|messages?|briefing|guidance|prompt|directions|rules|guidelines"
            r"|setup|config\w*|parameters?|settings|whatever|stuff|anything|everything)")

_UNSEEN = {
    "en": (
        # a hidden note known by what it sets for the agent, and another user's saved memories
        r"\b(?:hidden|secret|invisible) (?:memo|notes?|instructions?|guidance|directions|rules)\b[^.!?]{0,30}"
        r"\b(?:your|ur)\b|"
        r"\b(?:her|his|their|[a-z]+'s) (?:saved|stored) memories\b"
        r"|\bwhat (?:he|she|they) (?:saved|stored) (?:with you|in (?:your|ur) memory)\b"
        r"|\bwhat (?:he|she|they) (?:asked|told) you to remember\b|"
        # the text the speaker cannot see
        rf"\b{_EN_TEXT}\b[^.!?]{{0,40}}\b(?:that |which )?i (?:can't|cannot|can not|don't|do not|never|never get to) "
        rf"(?:see|read)\b|\b{_EN_TEXT}\b[^.!?]{{0,20}}\bonly you (?:can )?see\b"
        r"|\b(?:hidden|kept) from (?:me|users?|the user)\b"
        # placed above or before the conversation
        rf"|\b{_EN_TEXT}\b[^.!?]{{0,30}}\b(?:above|before|ahead of|at the top of|on top of|preceding) (?:this|our|the"
        r"|each|every) (?:conversation|chat|thread|session|dialogue)\b"
        # the agent's own hidden notes, settings and tools ("ur" is "your")
        r"|\b(?:your|ur|yr) (?:\w+ )?(?:hidden|secret|internal|invisible|behind-the-scenes|backstage) (?:\w+ )?"
        r"(?:memo|notes?|instructions?|guidance|directions|rules|parameters?|settings|prompts?|guidelines)\b"
        r"|\b(?:ur|yr) (?:system |initial |original )?(?:prompt|instructions|configuration|config|programming"
        r"|settings)\b|\byour (?:config|model settings|internal settings)\b"
        r"|\b(?:your|ur|yr) (?:\w+ )?(?:tools?|functions)\b[^.!?]{0,40}\b(?:parameters?|params|arguments"
        r"|definitions?|specs?|schemas?)\b"
        # what other people said to the agent, and the person before the speaker
        r"|\b(?:other|previous|earlier|last) (?:people|folks|users?|persons?|customers?|clients?|visitors?|callers?"
        r"|guys?)\b"
        r"[^.!?]{0,40}\b(?:discuss\w*|talk\w*|chat\w*|ask\w*|tell|tells|told|shar\w+|confid\w+|say|says|said)\b"
        r"[^.!?]{0,25}\byou\b|\bwhat the (?:last|previous) (?:guy|person|user|customer|one) (?:asked|said"
        r"|told|wanted)\b"
        r"|\bwhat (?:other people|others|everyone else|people) (?:discuss|talk about|ask|tell you|share|confide)\b"
        r"|\b(?:the )?(?:person|user|guy|one|people) (?:who (?:was |were )?(?:here|chatting|talking|using you)"
        r" )?(?:before|ahead of) me\b[^.!?]{0,30}\b(?:asked|told|said|talked|discussed|typed|wrote|chatted)\b"
        r"[^.!?]{0,12}\byou\b|\bwhat the (?:person|user|one|people|customer|client|guy) (?:before|ahead of) me\b"
        r"|\b(?:person|user|one|people) who (?:was |were )?(?:chatting with you|talking to you|using you)"
        r" before me\b"
        r"|\b(?:whoever|whomever) (?:used|was using|talked to|chatted with) you before\b"
        r"|\b(?:other people's|others'|other users'|everyone else's) (?:conversations|chats|memories|notes|messages"
        r"|questions|secrets)\b"
        r"|\bwhat you(?:'ve)? (?:saved|stored|remember(?:ed)?|noted|know|keep|have) (?:about|on) (?!me\b|myself\b)"
        r"[^.!?]{0,60}\b(?:also|too) (?:uses?|using|talks? to) (?:you|this)\b"),
    "zh": (
        r"(?:他|她|他们|她们)(?:让你(?:保存|存|记住|记下)的|(?:保存|存)的记忆)|"
        r"(?:我|用户)(?:看不到|看不见|看不了|没法看到|无法看到|见不到|看不着)的[^，。]{0,8}(?:内容|指示|说明|设定|文字|提示|备忘"
        r"|笔记|规则|东西|话|信息|指令)"
        r"|(?:对话|聊天|会话)的?(?:最上面|最上方|上面|上方|开头|最前面|之前|前面)的?[^，。]{0,8}(?:内容|指示|说明|设定|文字|提示|话"
        r"|东西|指令)"
        r"|(?:对话|聊天|会话)(?:开始)?(?:之前|前)(?:收到|拿到|得到|被给|读到)"
        r"|(?:你|您)的?[^，。]{0,8}(?:隐藏|秘密|幕后|内部|暗藏)的?(?:备忘|笔记|指令|指示|说明|参数|提示|人格设定|规定)"
        r"|你的?(?:所有|全部)?(?:工具|函数)[^，。]{0,12}(?:参数|定义|说明|配置)"
        r"|(?:别人|其他人|其他用户|别的用户|其他客户|别的人|其他的人)[^，。]{0,10}(?:跟你|和你|对你|找你|向你|让你)[^，。]{0,8}"
        r"(?:聊|说|问|讲|谈|倾诉|记|存|咨询)"
        r"|(?:我)?(?:前面|之前|前一个|上一个|在我之前)的?(?:那个)?(?:人|用户|那位|客人)[^，。]{0,10}(?:问|聊|说|咨询|讲)"
        r"|(?:你|你们)(?:保存|存|记住|记下)的[^，。]{0,6}(?:关于|有关)(?!我)[^。]{0,30}也在用"),
    "ja": (
        r"(?:システムプロンプト|初期プロンプト)の(?:中身|内容|全文)"
        r"|(?:彼|彼女|その人|あの人|さん)(?:が|の)[^。]{0,6}(?:保存した|残した|覚えさせた)[^。]{0,4}(?:記憶|メモリ)|"
        r"(?:私|僕|俺|わたし|自分|ユーザー)(?:に|から)?は?(?:見えない|見えていない|見られない)(?:指示|メモ|設定|文章|テキスト|内容|ルール)"
        r"|会話の(?:一番上|いちばん上|上|前|冒頭|最初)に(?:置かれ|ある|書かれ|入っ|もらっ|渡され|読み込まれ)"
        r"|会話(?:の)?前に(?:もらっ|受け取っ|渡され|与えられ)"
        r"|(?:あなた|君|きみ|お前)の[^。]{0,8}(?:隠し|隠れた|裏の|秘密の|内部の)(?:メモ|指示|設定|パラメータ|ルール|プロンプト)"
        r"|(?:あなた|君|きみ)の[^。]{0,6}(?:ツール|関数)[^。]{0,10}(?:パラメータ|引数|定義)|隠しパラメータ"
        r"|(?:使える|利用できる|持っている)(?:ツール|関数)の(?:一覧|リスト)"
        r"|見えない(?:部分|ところ)に(?:置かれ|書かれ|ある)"
        r"|(?:私|僕|俺|わたし|自分)の前の(?:人|ユーザー|方)(?:が|と)[^。]{0,15}(?:相談|話|聞|質問)"
        r"|(?:さっき|前|直前)の(?:利用者|ユーザー|人)の(?:質問|相談|会話)"
        r"|(?:前|まえ)に(?:あなたを|あなたと|君と)(?:使って|話して)(?:い)?た(?:人|ユーザー|方)"
        r"|(?:ほかの|他の|別の)(?:人|ユーザー|利用者|方)(?:たち|達)?が[^。]{0,8}(?:あなた|君|きみ)(?:に|と)[^。]{0,10}"
        r"(?:話|相談|聞|言っ|頼)"
        r"|について(?:の)?(?:記憶|メモ|保存)[^。]{0,30}も(?:使って|利用して)"),
    "ko": (
        r"(?:그 사람|그녀|그|씨|님)(?:가|이|의)\s*(?:저장해 둔|저장한|남긴|기억시킨)\s*(?:메모리|기억)"
        r"|(?:내|제)\s*앞\s*(?:사람|사용자|분)(?:이랑|하고|과|와)\s*(?:무슨|뭔|어떤)\s*(?:얘기|이야기|대화|상담)|"
        r"(?:(?:내가|나는|제가|저는)\s*(?:못 보는|볼 수 없는|안 보이는|보지 못하는)|(?:나한테|저한테|내게|제게)\s*"
        r"(?:안 보이는|보이지 않는))\s*(?:지시|메모|설정|내용|글|텍스트|규칙|프롬프트|문장)"
        r"|대화\s*(?:맨 위|위|맨 앞|앞|시작 전|전)에\s*(?:놓인|있는|적힌|들어 있는|받은|주어진)"
        r"|(?:네|너의|당신의|니)\s[^.!?]{0,15}(?:숨은|숨겨진)\s*(?:메모|지시|설정|규칙|프롬프트|파라미터)"
        r"|(?:네|너의|당신의)\s*(?:도구|툴|함수)[^.!?]{0,12}(?:파라미터|매개변수|인자|정의)"
        r"|(?:저|나|제|내)\s*전에\s*(?:있던|쓰던|사용하던|온|왔던)\s*(?:사람|사용자|분)[^.!?]{0,15}(?:물어|얘기|이야기|대화"
        r"|상담|말한|말했)"
        r"|다른\s*(?:사람|사람들|사용자|유저|분)(?:들)?(?:이|가)?[^.!?]{0,15}(?:물어본|물어봤|말한|상담|얘기|이야기|부탁)"),
    "es": (
        r"\btu (?:prompt|mensaje|indicación) (?:de|del) sistema\b|\btus instrucciones (?:de|del) sistema\b"
        r"|\blo que (?:él|ella|ellos|ellas) (?:guardó|guardaron|te pidió recordar|te pidieron recordar)\b|"
        r"\bque (?:yo )?no (?:veo|puedo ver|alcanzo a ver|me dejan ver)\b|\bocult[oa]s? (?:para mí|a mí)\b"
        r"|\b(?:por )?encima de (?:nuestra|esta|la) (?:conversación|charla)\b"
        r"|\bantes de (?:hablar|charlar|empezar a hablar) conmigo\b"
        r"|\btus (?:\w+ )?(?:indicaciones|instrucciones|notas|parámetros|reglas|consignas|ajustes) (?:ocult[oa]s"
        r"|secret[oa]s|intern[oa]s)\b|\btu configuración\b"
        r"|\btus (?:herramientas|funciones)\b[^.!?]{0,40}\b(?:parámetros|argumentos|definiciones)\b"
        r"|\b(?:otr[oa]s|demás)\b[^.!?]{0,25}\b(?:hablan|hablaron|cuentan|contaron|preguntan|preguntaron|piden"
        r"|pidieron|comentan|consultan)\b[^.!?]{0,15}\bcontigo\b"
        r"|\blo que (?:otr[oa]s|los demás|la gente)\b[^.!?]{0,15}\bte (?:piden|pidieron|cuentan|contaron|dicen"
        r"|dijeron|preguntan|preguntaron)\b"
        r"|\b(?:quien|el que|la que|la persona que) (?:te )?(?:usó|usaba|habló contigo|hablaba contigo) antes"
        r"|\bla persona (?:de antes|anterior)\b"),
    "de": (
        r"\bdein(?:en)? system-?prompt\b|\bdeine system-?anweisung\w*"
        r"|\b(?:geheime\w*|versteckte\w*|verborgene\w*) (?:memo|notiz|anweisung|vorgabe)\w*\b[^.!?]{0,30}\bdein"
        r"|\bwas (?:er|sie) (?:bei dir )?(?:gespeichert|hinterlegt)\b|"
        r"\b(?:das|die|den|welche\w*) ich nicht (?:sehe|sehen kann|zu sehen bekomme)\b|\bfür mich unsichtbar\w*"
        r"|\büber (?:unserem|diesem|dem) (?:gespräch|chat|dialog)\b"
        r"|\bvor (?:jedem|unserem|diesem|dem) (?:gespräch|chat)\b[^.!?]{0,40}\b(?:briefing|anweisung\w*|text"
        r"|notiz\w*|vorgabe\w*)"
        r"|\bdeine\w* (?:versteckte\w*|verborgene\w*|geheime\w*|interne\w*) (?:notiz\w*|anweisung\w*|vorgabe\w*"
        r"|parameter"
        r"|regeln|einstellung\w*|memo\w*)\b|\bdeine (?:konfiguration|einstellungen|systemvorgaben)\b"
        r"|\bdeine\w* (?:tools|werkzeuge|funktionen)\b[^.!?]{0,40}\bparameter"
        r"|\b(?:andere\w*|fremde\w*) (?:leute|menschen|nutzer\w*|benutzer\w*|personen|kunden)\b[^.!?]{0,30}"
        r"\b(?:mit )?dir\b[^.!?]{0,20}\b(?:besprechen|besprochen|reden|geredet|erzählen|erzählt|fragen|gefragt"
        r"|schreiben|geschrieben|anvertrau\w*)"
        r"|\b(?:wer|die person|der nutzer|die nutzerin|der mensch) vor mir\b"
        r"|\b(?:letzte|vorherige)\w* (?:nutzer\w*|benutzer\w*|kunde\w*|person)\b[^.!?]{0,20}\bwissen wollte\b"),
    "fr": (
        r"\b(?:ton|votre) prompt (?:système|systeme)\b|\b(?:tes|vos) instructions (?:système|systeme|initiales)\b"
        r"|\b(?:mémo|note|consigne)s? (?:secrète|cachée|secret)\w*\b[^.!?]{0,30}\b(?:ton|ta|tes)\b"
        r"|\bce qu'(?:il|elle|ils|elles) (?:a|ont) (?:enregistré|sauvegardé|mémorisé|stocké)\b|"
        r"\bque je ne (?:vois|peux pas voir)\b|\bqui me (?:sont|est) cach[ée]e?s?\b"
        r"|\ben haut de (?:notre|la|cette) (?:conversation|discussion)\b|\bavant de me parler\b"
        r"|\b(?:tes|vos) (?:consignes|instructions|notes|paramètres|règles|réglages) (?:cach[ée]e?s|secr[eè]t\w*"
        r"|internes)\b"
        r"|\b(?:ta|votre) configuration\b"
        r"|\b(?:tes|vos) (?:outils|fonctions)\b[^.!?]{0,40}\b(?:paramètres|arguments|définitions)\b"
        r"|\bce que (?:les autres|d'autres|les gens)\b[^.!?]{0,20}\b(?:te |t'|avec toi)"
        r"|\bla personne (?:d'avant|avant moi|précédente)\b"),
    "ru": (
        r"\b(?:сво|тво)(?:й|и|его|ю) систем\w+ (?:промпт\w*|инструкц\w*|подсказк\w*)"
        r"|\b(?:секретн\w*|скрыт\w*|тайн\w*) (?:памятк\w*|заметк\w*|инструкц\w*|указани\w*)\b[^.!?]{0,30}\bтво"
        r"|\bчто (?:он|она|они) (?:сохранил\w*|запомнил\w*|записал\w*)\b[^.!?]{0,20}\b(?:у тебя|в (?:твоей )?памяти)"
        r"|\b(?:сво|тво)(?:и|их) (?:инструмент\w*|функци\w*)\b[^.!?]{0,40}\bпараметр|"
        r"\b(?:текст|инструкц|указани|заметк|правил|настройк)\w*[^.!?]{0,20}\b(?:котор\w+|что) я не (?:вижу"
        r"|могу видеть)"
        r"|\bскрыт\w* от меня\b"
        r"|\bнад (?:нашим|этим) (?:разговором|чатом|диалогом|общением)\b"
        r"|\bперед (?:каждым|нашим|этим) (?:разговором|чатом|диалогом)\b[^.!?]{0,40}\b(?:инструкц\w*|текст\w*"
        r"|указани\w*|заметк\w*)"
        r"|\bтво(?:и|их|ими) (?:скрыт\w*|секретн\w*|внутренн\w*) (?:заметк\w*|инструкц\w*|указани\w*|параметр\w*"
        r"|правил\w*"
        r"|настройк\w*)\b|\bтво(?:и|ю|ей|я) (?:настройки|конфигурац\w*)\b"
        r"|\bтво(?:и|их) (?:инструмент\w*|функци\w*)\b[^.!?]{0,40}\bпараметр"
        r"|\b(?:друг\w+|остальн\w+|чуж\w+)\b[^.!?]{0,25}\b(?:просил\w*|говорил\w*|рассказ\w*|спрашивал\w*|обсужда\w*"
        r"|писал\w*)\b[^.!?]{0,15}\b(?:тебя|тебе|с тобой)\b"
        r"|\b(?:тот|та|человек|пользовател\w+),? (?:кто|который|которая) (?:пользовал\w* (?:тобой|этим)|писал\w* тебе"
        r"|говорил\w* с тобой|общал\w* с тобой)[^.!?]{0,25}\bдо меня\b"
        r"|\bпро (?:мо\w+ )?(?:коллег\w*|друг\w*|знаком\w*)[^.!?]{0,40}\bтоже (?:тобой )?польз\w*"),
}

UNSEEN: dict[str, dict[str, str]] = {lang: {"disclosure": pattern} for lang, pattern in _UNSEEN.items()}
