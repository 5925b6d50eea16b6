"""The phrase patterns of :mod:`memcourse.guards.injection`: one row per way an instruction is
worded, grouped by category, in English, Chinese and Japanese, built from shared blocks (the
verbs of discarding, what counts as "earlier", what counts as orders). The detector that reads
them, and the co-occurrence windows, live in :mod:`memcourse.guards.injection`.
"""

from __future__ import annotations

from memcourse.guards.folded import FoldedPattern, either_case

#: The speakers of a chat transcript, in every gate language: a forged transcript needs both.
_USER_ROLE = (r"user|human|nutzer|benutzer|usuario|humano|utilisateur|utilisatrice|humain|ユーザー|人間|사용자|유저"
              r"|用户|用戶|顾客|客户|" + either_case(r"пользователь|человек"))
_ASSISTANT_ROLE = (r"assistant|assistent|assistentin|asistente|assistante|ki|ia|ai|bot|model|modelo|modèle|助理|助手"
                   r"|アシスタント|ボット|어시스턴트|비서|봇|" + either_case(r"ассистент|помощник|бот|ии|модель"))


__all__ = ["INJECTION_PATTERNS"]


def _c(pattern: str) -> FoldedPattern:
    return FoldedPattern(pattern)


# -- English building blocks ----------------------------------------------------------------
#: An imperative starts a clause, or follows a softener or a "you must".
_START = (
    r"(?:^|(?<=[.!?;:,\n>\-\"'(\[*#]))\s*|\b(?:please|pls|plz|now|just|kindly|simply|and|then|so|also|first|"
    r"you (?:must|should|will|shall|can|need to|have to|are to|are required to)|"
    r"i (?:want|need|order|command|instruct|require) you to|(?:the "
    r")?(?:assistant|ai|model|agent|chatbot|llm) (?:must|should|will|shall))\s+"
)
_DISCARD = (
    r"ignore|disregard|forget|override|overrule|bypass|skip|drop|discard|abandon|neglect|set aside|throw (?:away|out)|"
    r"pay no (?:attention|heed) to|do not (?:follow|obey|apply|heed)|don'?t (?:follow|obey|apply|heed)"
    r"|stop (?:following|obeying)|"
    r"no longer (?:follow|obey)|cancel|void|nullify|revoke|erase|wipe|clear|reset|delete|supersede|replace|unlearn"
    r"|ditch"
)
_EARLIER = (
    r"previous|prior|above|earlier|preceding|former|original|initial|old|existing|all|any|every|your|system|developer|"
    r"default|current|these|those|given|built-?in|safety|programmed|pre-?set|standing|other|"
    r"(?:the )?(?:user|customer|operator|owner|developer|admin)'?s?"
)
_ORDERS = (
    r"instructions?|rules?|prompts?|guidelines?|directions?|directives?|commands?|orders?|guidance|constraints?|context"
    r"|"
    r"programming|training|polic(?:y|ies)|restrictions?|settings|configuration|conditioning|limitations?|guardrails?|"
    r"filters?|protocols?|principles?|boundaries|safeguards?|messages?"
)
_AI = r"(?:ai|a\.i\.|assistant|llm|language model|model|chatbot|chat bot|bot|agent|gpt|chatgpt|claude|copilot|gemini)"

# -- Chinese building blocks (written in either script; compiled to simplified) -------------
_ZH_DISCARD = (
    r"忽略|无视|忽视|忘掉|忘记|忘了|不要理会|不用理会|别理会|不要管|不用管|别管|抛开|抛弃|丢掉|放弃|作废|废除|废弃|"
    r"取消|清除|清空|推翻|覆盖|跳过|违背|不要遵守|不用遵守|不必遵守|无需遵守|别遵守|不再遵守|停止遵守|不要遵循|"
    r"不再遵循|不要执行|不用执行|绕开|绕过|撤销|删除|删掉|不要听|别听|不用听|"
    r"(?:不要|别|不用|不必|无需|停止|不再)再?(?:遵守|遵循|理会|管|听从?|执行|服从|按照)"
)
_ZH_EARLIER = (r"之前|以上|上面|前面|先前|此前|原先|原来|原有|原本|早先|刚才|所有|全部|一切|任何|系统|开发者|你的|默认"
               r"|已有|现有|既有|上述|前述|此前|最初|初始")
_ZH_ORDERS = (r"指令|指示|规则|提示词|提示|要求|设定|约束|命令|规定|限制|准则|政策|策略|守则|规范|说明|安排|配置|训练"
              r"|人设|身份设定|条款")
_ZH_NEGATED = r"(?<!不能)(?<!不要)(?<!不可)(?<!不得)(?<!禁止)(?<!不许)(?<!不准)(?<!别)(?<!勿)(?<!不会)"
# -- Japanese building blocks ---------------------------------------------------------------
_JA_EARLIER = r"以前|前|上記|これまで|今まで|最初|元|すべて|全て|全部|あらゆる|システム|既存|先ほど|初期|開発者"
_JA_ORDERS = r"指示|命令|ルール|規則|設定|制約|プロンプト|指令|ガイドライン|方針|制限|ポリシー"
_JA_DISCARD = r"無視|忘れ|破棄|取り消|捨て|リセット|従わな|守らな|無効|削除|上書き|撤回"

INJECTION_PATTERNS: list[tuple[str, str, FoldedPattern]] = [
    # ---- override -------------------------------------------------------------------------
    ("override", "override of earlier instructions", _c(
        rf"(?:{_START})(?:{_DISCARD})\b[^.!?\n]{{0,30}}?\b(?:{_EARLIER})\b[^.!?\n]{{0,25}}?\b(?:{_ORDERS})\b")),
    ("override", "override of earlier instructions", _c(
        rf"(?:{_START})(?:{_DISCARD})\s+(?:the\s+|all\s+|any\s+|your\s+)?(?:{_ORDERS})\s+(?:above|before|so far|given"
        rf"|earlier|previously|you (?:were|have been|'ve been) given|you (?:got|received|had|were given)|from (?:before"
        rf"|earlier|your (?:developers?|creators?)))")),
    # object first: "the earlier rules no longer apply" (someone's own rules, "my landlord's old rules", are
    # left to the directive grammar, which knows whose rules they are)
    ("override", "override of earlier instructions", _c(
        rf"\b(?<!'s )(?<!s' )(?:{_EARLIER})\s+(?:{_ORDERS})\b(?:\s+\w+){{0,3}}?\s+"
        rf"(?:no longer (?:apply|matter|count|exist|hold|stand)"
        rf"|(?:are|is|were|was)\s+(?:now\s+|all\s+)?"
        r"(?:void|null|cancel+ed|invalid|obsolete|revoked|a test|fake|wrong|outdated|lifted|removed|suspended|over|gone"
        r"|irrelevant)|(?:don'?t|do not) (?:apply|matter|count))"
        rf"|\btreat\s+(?:all\s+|any\s+|every\s+|the\s+|your\s+)*(?:{_EARLIER})?\s*(?:{_ORDERS})\s+as\s+(?:void|null"
        rf"|invalid|obsolete|cancel+ed|non-?existent|irrelevant|suggestions|optional)")),
    ("override", "override of earlier instructions", _c(
        rf"(?:{_START})(?:{_DISCARD})\s+(?:everything|anything|all(?: of)? (?:that|this|it|the above)|whatever"
        rf"|what)\b[^.!?\n]{{0,15}}?"
        r"(?:you(?:'ve| have)? (?:been |were |was )?(?:told|given|instructed|taught|trained|programmed|said)|above"
        r"|before(?: this)?|so far|earlier|prior|previously|until now|up to now|you know)")),
    ("override", "override of earlier instructions", _c(
        r"\b(?:whatever|everything|anything|all|what)\s+(?:else\s+)?you(?:'ve| have)?\s+(?:been\s+|were\s+"
        r"|was\s+)?(?:told|given|instructed|taught|programmed)\b"
        rf"[^.!?\n]{{0,30}}?\b(?:{_DISCARD})\s+(?:it|that|them|this|all(?: of it)?|those)\b")),
    ("override", "override of earlier instructions", _c(
        rf"\b(?:this|these|the following|which|it)\s+(?:message\s+|note\s+|text\s+|instruction\s+"
        rf"|rule\s+)?(?:overrides?|supersedes?|replaces?|takes? precedence over|cancels?|invalidates?"
        rf"|voids?)\b[^.!?\n]{{0,25}}?\b(?:{_ORDERS})\b")),
    ("override", "replacement instructions", _c(
        r"\b(?:new|updated|revised|real|actual|true|override|replacement|secret"
        r"|hidden)\s+(?:system\s+)?(?:instructions?|directives?|system prompt|orders|commands|rules)\s*[:：]"
        r"|\byour\s+(?:new|real|actual|true|only|updated)\s+(?:instructions?|task|goal|purpose|mission|rules?"
        r"|directives?|orders|job)\s+(?:is|are|:|will be)")),
    ("override", "override keyword", _c(
        r"\b(?:system|security|safety|admin(?:istrator)?|developer|root|emergency|priority|master|sudo)\s+(?:override"
        r"|overwrite|bypass)\b"
        r"|\boverride\s+(?:code|mode|protocol|command|activated|enabled|accepted|granted)\b|\bsudo\s+mode\b")),
    ("override", "忽略指令 (override of instructions)", _c(
        rf"{_ZH_NEGATED}(?:{_ZH_DISCARD})[^。！？!?\n，,]{{0,6}}?(?:{_ZH_EARLIER})[^。！？!?\n]{{0,10}}?(?:{_ZH_ORDERS})")),
    ("override", "忽略指令 (override of instructions)", _c(
        rf"{_ZH_NEGATED}(?:{_ZH_DISCARD})(?:掉|了)?(?:这些|那些|这个|那个|这条|那条|这几条|你的|你收到的"
        rf"|你被设定的)?(?:{_ZH_ORDERS})")),
    ("override", "忽略指令 (override of instructions)", _c(
        rf"(?:{_ZH_EARLIER})[^。！？!?\n]{{0,8}}?(?:{_ZH_ORDERS})[^。！？!?\n]{{0,6}}?(?:全部|都|一律|统统|一概"
        rf"|全都)?(?:作废|无效|失效|不算数?"
        rf"|不再有效|不再适用|不再生效|取消了?|废除)")),
    ("override", "忽略指令 (override of instructions)", _c(
        rf"{_ZH_NEGATED}(?:{_ZH_DISCARD})[^。！？!?\n，,]{{0,4}}?(?:之前|以上|上面|前面|此前|先前|刚才)(?:你)?(?:说|讲"
        rf"|写|收到|被告知|得到"
        rf"|学到)?的?(?:一切|所有内容|所有的话|全部内容|所有东西|东西|内容)")),
    ("override", "忽略指令 (override of instructions)", _c(  # the 把 construction: object first, verb last
        rf"把[^。！？!?\n]{{0,12}}?(?:{_ZH_ORDERS})[^。！？!?\n]{{0,6}}?(?:全部|都|统统|一律|通通|彻底)?(?:忘掉|忘记"
        rf"|忘了|忽略|丢掉|删掉|删除|清空|作废|扔掉"
        rf"|抛开|无视|废除|撤销|"
        r"当作?(?:没看见|没看到|不存在|没有|无效|没说过|空气)|当成(?:没看见|不存在|空气|无效))")),
    ("override", "服从 (obedience to a new master)", _c(
        r"你[^。！？!?\n]{0,10}?(?:只|必须|要|得|完全|绝对|无条件)?(?:服从|听从|遵从|听命于|效忠)(?:我|用户|下面|以下"
        r"|新的|这条|这些)")),
    ("override", "指示の無視 (override of instructions)", _c(
        rf"(?:{_JA_EARLIER})の?[^。！？!?\n]{{0,8}}?(?:{_JA_ORDERS})[^。！？!?\n]{{0,8}}?(?:{_JA_DISCARD})(?![^。！？!?\n]{{0,8}}と(?:言われ|言っ|聞い|書い|話し))")),
    ("override", "指示の無視 (override of instructions)", _c(
        rf"(?:{_JA_ORDERS})(?:を|は)(?:全て|すべて|全部|一切"
        rf"|完全に)?(?:{_JA_DISCARD})(?![^。！？!?\n]{{0,8}}と(?:言われ|言っ|聞い|書い|話し))")),
    # ---- identity ------------------------------------------------------------------------
    ("identity", "identity or role change", _c(
        r"\byou\s*(?:are|'re|r)\s+(?:now|no longer|henceforth|from now on)\s+(?:an?\b|the\b|my\b|called\b|named\b|dan\b"
        r"|free\b|unrestricted|unfiltered|uncensored|jailbroken|evil|in\s+\w+\s+mode|not\b|bound\b|capable|able|allowed"
        r"|a\s+different|nothing\s+but)")),
    ("identity", "identity or role change", _c(
        r"\b(?:from now on|starting now|from this (?:point|moment)(?: on)?|henceforth|going forward|for the rest of "
        r"(?:this|the) (?:conversation|chat|session))"
        r"\s*,?\s*(?:you|u)\s+(?:are|'re|will be|shall be|become|must (?:act|behave|obey|comply|pretend|respond as"
        r"|answer as|follow)|"
        r"will (?:act|behave|obey|comply|pretend|respond as|answer as|follow my|do (?:anything|whatever|everything)"
        r"|ignore|no longer)|"
        r"act|behave|play|obey|comply|answer as|respond as|speak as|role-?play|have no|no longer"
        r"|can (?:do|say) (?:anything|whatever))")),
    ("identity", "identity or role change", _c(
        rf"(?:{_START})(?:pretend|imagine|suppose)\s+(?:to be|you(?:'re| are)|that you(?:'re| are)?|you have no|you can"
        rf"|you were)"
        rf"|(?:{_START})(?:role-?play|roleplay)\s*(?:as\b|that\b|[:：])|\blet'?s (?:role-?play|pretend)\b"
        rf"|(?:{_START})act\s+as\s+(?:if\s+you|an?\s+|the\s+|my\s+|though|dan\b)(?![^.!?\n]*\?)"
        r"|\b(?:stay|remain) in character\b|\byour (?:new )?(?:name|identity|persona|role|character) (?:is|will be) "
        r"(?:now )?"
        r"|\bassume the (?:role|identity|persona) of\b"
        r"|\byou(?:'ll| will| shall| must| are going to| are to)?\s+(?:now\s+)?(?:play|take on|assume|adopt"
        r"|become)\s+(?:the\s+)?(?:role|part|persona|character|identity)\s+of\b"
        rf"|(?:{_START})(?:play|take on|assume|adopt)\s+(?:the\s+)?(?:role|part|persona|character)\s+of\s+(?:an?\s+"
        rf"|the\s+)?(?:\w+\s+){{0,2}}?{_AI}\b|\byou (?:will|shall|must) (?:now )?(?:act|behave|respond|answer) "
        rf"as (?:an?|the|my|if)\b")),
    ("identity", "jailbreak mode", _c(
        r"\b(?:developer|dev|god|jailbreak|jailbroken|unrestricted|unfiltered|uncensored|no-?limits?|evil|dan|debug "
        r"admin)\s+mode\b[^.!?\n]{0,20}?\b(?:on|enabled|activated|engaged|unlocked)?"
        r"|\b(?:enable|activate|enter|switch to|turn on|unlock)\s+(?:the\s+)?(?:developer|dev|god|jailbreak"
        r"|unrestricted|unfiltered|uncensored|dan)\s+mode\b"
        r"|\bdo anything now\b|\bjailbreak(?:ing|en)?\b")),
    ("identity", "身份篡改 (identity change)", _c(
        r"你(?:现在|从现在起|从现在开始|今后|以后|此后|从今以后|接下来)(?:就|将|要|已经|只)?(?:是|成为|变成|扮演|作为"
        r"|叫)"
        r"|(?:从现在(?:开始|起)|从今以后|从今天起|今后|此后|接下来)[,，\s]*你(?:就|将|要|必须|得|只)?(?:是|成为|变成"
        r"|扮演|作为|服从|听从|不再)"
        r"|(?:^|[。！？!?，,；;:\n]|请|你|现在)\s*(?:扮演|假装|假扮|装作|装成|充当|化身为?)"
        r"|你(?:要|得|必须|需要|可以|就|来|将|得要)\s*(?:扮演|假装|假扮|装作|装成|充当|化身)"
        r"|你的新(?:身份|名字|角色|人设)是|你不再是(?:一个)?(?:AI|助手|人工智能|机器人|模型|语言模型)"
        r"|(?:(?:我们|咱们)?来|请|让我们|开始)角色扮演|角色扮演\s*(?:一下|吧)?\s*[:：,，]\s*你"
        r"|(?:进入|开启|切换到|切换为|激活|打开)(?:开发者|越狱|上帝|无限制|无审查|DAN|管理员)模式|越狱")),
    ("identity", "なりすまし (identity change)", _c(
        r"(?:今から|これから|今後|以後)[、,\s]*(?:あなた|君|お前)は|(?:あなた|君|お前)は(?:今から|これから|今後|もう)"
        r"|として(?:振る舞|振舞|ふるま|行動し|ロールプレイ)|のふりをして|になりきって|を演じて"
        r"|(?:開発者|脱獄|ジェイルブレイク|無制限)モード")),
    # ---- extraction ------------------------------------------------------------------------
    ("extraction", "request for the system prompt", _c(
        r"\b(?:reveal|print|show|repeat|leak|output|display|dump|expose|disclose|share|give me|tell me|send me|write "
        r"out|recite|"
        r"spell out|copy|paste|list|provide|return|echo|translate|summari[sz]e|read back"
        r"|what (?:is|are|were|was))\b[^.!?\n]{0,30}?"
        r"\b(?:(?:your|the)\s+(?:full\s+|entire\s+|exact\s+|complete\s+|original\s+|verbatim\s+)?(?:(?:system|hidden"
        r"|initial|original|developer|internal|"
        r"secret|confidential|pre-?|base|master|starting|first)\s*){1,3}(?:prompt|instructions?|message|configuration"
        r"|guidelines|directives?|rules)|"
        r"system\s+(?:prompt|message|instructions?)|your\s+(?:instructions|prompt|guidelines|directives|configuration"
        r"|initial prompt)|"
        r"(?:everything|all(?: the)? text|the text|what is written|the words|all instructions)\s+(?:above|before)(?: "
        r"this)?)")),
    ("extraction", "request for the system prompt", _c(
        r"\b(?:reveal|print|show|repeat|leak|output|display|dump|expose|disclose|share|give me|tell me|send me|write "
        r"out|recite|spell out|copy|paste|list|"
        r"provide|return|echo|translate|summari[sz]e|read back)\b[^.!?\n]{0,30}?\b(?:prompts?|instructions?|directives?"
        r"|configuration|rules|guidelines|message)\s+"
        r"(?:that\s+)?you\s+(?:were|have been|'ve been|got|received|are)\s*(?:given|initiali[sz]ed|started|configured"
        r"|set up|loaded|provided|trained|programmed|running)?\b")),
    ("extraction", "request for the system prompt", _c(
        r"\bwhat (?:were|was|are) you (?:told|instructed|given|programmed)|\bwhat "
        r"did (?:your|the) (?:developers?|creators?|system|admin|operator)s? (?:tell|instruct|say to)")),
    ("extraction", "索要系统提示词 (request for the system prompt)", _c(
        r"(?:透露|泄露|泄漏|输出|显示|打印|告诉我|说出|展示|给我看|复述|重复|发给我|列出|念出|贴出|公开|暴露|翻译|写出"
        r"|背诵|发出来|交出)"
        r"[^。！？!?\n]{0,10}?(?:系统提示词?|system prompt|初始指令|隐藏指令|系统指令|内部指令|预设指令|开发者指令"
        r"|你的提示词|你的指令|你的设定|"
        r"原始指令|初始提示|系统消息|系统设定|你收到的指令|你被告知的|你的初始|最初的指令|上面的(?:所有)?内容)")),
    ("extraction", "索要系统提示词 (request for the system prompt)", _c(
        r"把[^。！？!?\n]{0,6}?(?:系统提示词?|初始指令|隐藏指令|系统指令|内部指令|预设指令|开发者指令|提示词|设定"
        r"|原始指令|系统消息)[^。！？!?\n]{0,8}?"
        r"(?:输出|显示|打印|告诉我|说出|展示|发给我|发出来|列出|念出|贴出|写出|复述|重复|翻译|给我)")),
    ("extraction", "索要系统提示词 (request for the system prompt)", _c(
        r"(?:你的|你收到的|给你的)(?:初始|原始|系统|隐藏|内部|预设|最初的?)?(?:设定|提示词?|指令|指示|规则"
        r"|配置)(?:是什么|是啥|有哪些|的内容|原文|全文|都是什么)")),
    ("extraction", "システムプロンプトの要求 (request for the system prompt)", _c(
        r"(?:システムプロンプト|初期指示|初期プロンプト|隠された指示|内部指示|開発者の指示|あなたの指示"
        r"|システムメッセージ|設定された指示|元の指示)"
        r"(?:を|は)?[^。！？!?\n]{0,8}?(?:表示|教えて|出力|見せて|開示|繰り返|書き出|公開|貼り付け|共有|言って|翻訳|何)"
        r"|(?:最初に|初めに|事前に|前もって)?(?:与えられた|受け取った|設定された|渡された)(?:指示|命令|プロンプト"
        r"|ルール|設定)[^。！？!?\n]{0,8}?(?:表示|教え|出力|見せ|開示|繰り返"
        r"|書き出|公開|共有|言っ)")),
    # ---- role markers ----------------------------------------------------------------------
    ("role_marker", "fake role marker", _c(
        r"(?:^|\n|[.!?。！？]\s*)\s*(?:#{1,6}\s*|\*\*)?(?:system|assistant|developer|sys|system (?:prompt|message|note"
        r"|instruction|override)"
        # the system's and the developer's turn named in the other gate languages
        r"|sistema|mensaje del sistema|système|systeme|message système|systemnachricht|systemhinweis|entwickler"
        r"|desarrollador|développeur|developpeur|" + either_case(r"система|системное сообщение|разработчик") + r")"
        r"\s*(?:\*\*)?\s*(?:\([^()\n]{1,40}\)\s*)?[:：]"
        r"|(?:^|\n)\s*(?:#{1,6}\s*)?(?:系统|系統|系统消息|系統訊息|系统提示|系統提示|系统指令|管理员指令|开发者|開發者|システム"
        r"|開発者|アシスタント|助手|시스템|개발자|어시스턴트)\s*[:：]")),
    ("role_marker", "fake conversation tag", _c(
        r"</?\s*(?:system|sys|assistant|developer|instructions?|memory|memories|context|admin|user|human|tool|function"
        r"|im_start|im_end|"
        r"endoftext|prompt|rules?|policy|tool_call|tool_result|thinking)(?:[_\-][a-z]+)?\b[^>]{0,40}>"
        r"|<\|[A-Za-z_ ]{2,30}\|>|<\s*/?\s*(?:start_of_turn|end_of_turn|bos|eos|s)\s*>\s*(?:model|user|system"
        r"|assistant)?|"
        r"(?:^|\n)\s*(?:<\|?)?(?:start_of_turn|im_start|im_sep)\|?>?\s*(?:model|system|assistant)\b|"
        r"(?:^|\n)\s*(?:human|user|assistant|ai|bot|model|system|gpt|claude|chatgpt)\s*[:：]\s*\S|"
        # a transcript in another language: a user's line and an assistant's line, in either order
        rf"(?:^|\n)\s*(?:{_USER_ROLE})\s*[:：][^\n]*\n(?:[^\n]*\n){{0,3}}\s*(?:{_ASSISTANT_ROLE})\s*[:：]\s*\S|"
        rf"(?:^|\n)\s*(?:{_ASSISTANT_ROLE})\s*[:：][^\n]*\n(?:[^\n]*\n){{0,3}}\s*(?:{_USER_ROLE})\s*[:：]\s*\S|"
        # a bracketed header naming the system or its operators, where a line or sentence starts, over a
        # notice about the assistant or its memory ("[System notice] maintenance tonight" is news)
        r"(?:^|\n|[.!?。！？:：]\s*)\s*[【\[〖〔［][^】\]〗〕］\n]{0,16}?(?:系统|系統|管理员|官方|开发者|開發者|システム"
        r"|運営|运营|運營|管理者|開発者|\bsystem\w*|\badmin\w*|\bdeveloper|\boperator|\bbetreiber\w*|\bentwickler\w*"
        r"|시스템|관리자|운영|개발자|\bsistema|\badministrador|\bdesarrollador|\bopérateur|\badministrateur|\bdéveloppeur"
        r"|\bsystème|" + either_case(r"систем\w*|администратор\w*|оператор\w*|разработчик\w*") + r")"
        r"[^】\]〗〕］\n]{0,24}[】\]〗〕］][\s\S]{0,200}?"
        r"(?:\b(?:" + _ASSISTANT_ROLE + r"|memor\w*|speicher\w*|gedächtnis|mémoire)\b"
        r"|助理|助手|アシスタント|어시스턴트|记忆|記憶|メモリ|메모리|模型|机器人|機器人|" + either_case("памят") + r")|"
        r"\[/?\s*(?:INST|SYS|SYSTEM|ASSISTANT|USER)\s*\]"
        r"|<<\s*/?\s*SYS\s*>>"
        r"|###\s*(?:system|instruction|assistant|response)\b"
        r"|【\s*(?:系统|系统消息|系统提示|system|管理员|开发者|システム)\s*】"
        r"|\[\s*(?:系统|系统消息|system message|system note|admin|管理员"
        r"|システム)\s*\]")),
    # ---- permission grants and security bypass ----------------------------------------------
    ("permission", "permission grant", _c(
        r"\byou\s*(?:are|'re)\s*(?:now\s+|hereby\s+)?(?:allowed|permitted|authori[sz]ed|free|cleared|entitled"
        r"|approved)\s+to\b[^.!?\n]{0,50}?"
        r"\b(?:other|another|all|any|every)\s+(?:users?|customers?|people|accounts?|tenants?|members?|clients?"
        r"|patients?)"
        r"|\byou\s*(?:are|'re)\s*(?:now\s+|hereby\s+)?(?:allowed|permitted|authori[sz]ed|free|cleared)\s+to\s+(?:share"
        r"|reveal|disclose|leak|ignore|bypass|break|skip|violate|disable|"
        r"export|dump)\b[^.!?\n]{0,40}?\b(?:data|information|records|memories|secrets|passwords|credentials|rules"
        r"|restrictions|safety|polic(?:y|ies)|"
        r"guidelines|filters|private|personal|confidential|anything|everything|whatever|prompt|instructions)"
        r"|\byou (?:now )?have (?:(?:full|admin(?:istrator)?|root|unrestricted|special|elevated|my|our|explicit"
        r"|complete|every|official)\s+){0,3}(?:permission|clearance|authori[sz]ation|admin rights|root access|"
        r"privileges|consent|blessing)\s+to\b"
        r"|\b(?:consider yourself|you(?:'ve| have) been|you(?:'re| are) (?:hereby |now "
        r")?)\s*(?:fully\s+)?(?:authori[sz]ed|allowed|permitted|cleared|entitled|free|unlocked"
        r"|unrestricted)\s+to\b[^.!?\n]{0,40}?\b(?:every|all|any|other|anything|everything|whatever)\b"
        r"|\b(?:i|we) (?:hereby )?(?:grant|give|authori[sz]e|allow|permit) "
        r"you\b[^.!?\n]{0,30}?\b(?:to|permission|access|rights|privileges)\b"
        r"|\b(?:admin|root|sudo|elevated|god) (?:access|privileges|rights|mode) (?:granted|enabled|activated"
        r"|unlocked)")),
    ("permission", "attempt to disable safety", _c(
        rf"(?:{_START})(?:disable|bypass|turn off|switch off|circumvent|get around|evade|deactivate|lift|suspend|remove"
        rf"|skip|ignore|override|"
        r"break|violate|drop|disregard|dodge|work around|deactivate|shut off|don'?t (?:apply|enforce|follow)|do "
        r"not (?:apply|enforce|follow)|stop (?:applying|enforcing))\b"
        r"[^.!?\n]{0,30}?\b(?:safety|security|content|moderation|ethic(?:s|al)|guard ?rails?|filters?|restrictions?"
        r"|limitations?|censorship|"
        r"polic(?:y|ies)|safeguards?|checks?|protections?|guidelines?|rules?|alignment)\b")),
    ("permission", "attempt to disable safety", _c(
        r"\byou (?:don'?t|do not|no longer|won'?t|will not|never) (?:need|have|got) "
        r"to (?:follow|obey|respect|apply|care about|worry about)\s+(?:the |your |any |those |these )?"
        r"(?:rules|guidelines|polic(?:y|ies)|safety|restrictions|limits|ethics|content policy|filters)"
        r"|\b(?:safety|security|content) (?:rules|checks|filters|policies|guidelines) (?:don'?t|do not|no longer"
        r"|won'?t) apply"
        r"|\bno (?:more )?(?:rules|restrictions|limits|filters|guidelines|censorship)\s+(?:apply|for you|anymore|from "
        r"now on)"
        r"|\b(?:answer|respond|reply|act|operate|talk|speak)\b[^.!?\n]{0,20}?\b(?:without|with no|free of|free "
        r"from)\s+(?:any\s+)?(?:restrictions|filters|censorship|limitations|limits|safety|ethical|moral|rules"
        r"|guidelines)"
        rf"|\b{_AI}s?\s+(?:with no|without(?: any)?|free (?:of|from)|that has no|that ignores)\s+(?:limits|restrictions"
        rf"|rules|filters|censorship|guidelines|boundaries|ethics|safety)")),
    ("permission", "关闭安全限制 (attempt to disable safety)", _c(
        rf"{_ZH_NEGATED}(?:关闭|绕过|绕开|无视|跳过|忽略|取消|解除|不用管|不要管|别管|不必遵守|不用遵守|无需遵守"
        rf"|不用理会|放开|去掉|突破|规避|避开|关掉|停用|禁用|不再遵守)"
        r"[^。！？!?\n]{0,8}?(?:安全|审查|过滤|限制|规则|约束|防护|风控|道德|伦理|合规|内容策略|检查|护栏)")),
    ("permission", "关闭安全限制 (attempt to disable safety)", _c(
        r"(?:安全|审查|过滤|防护|风控|道德|伦理|合规)(?:规则|限制|检查|策略|审查|措施|规范"
        r"|要求)?[^。！？!?\n]{0,8}?(?:直接|都|就|一律|全部|统统)?"
        + _ZH_NEGATED + r"(?:跳过|忽略|无视|绕过|关闭|不用管|别管|不管|不理|不用遵守|作废)"
        r"|你[^。！？!?\n]{0,8}?(?:不受|没有|不再有|不再受)(?:任何)?(?:限制|约束|规则|审查)"
        r"|把[^。！？!?\n]{0,8}?(?:安全|审查|过滤|限制|规则|约束|防护|风控|护栏)[^。！？!?\n]{0,6}?(?:关掉|关闭|去掉"
        r"|取消|解除|绕过|跳过|无视|忽略|停用|禁用|拿掉|撤掉)")),
    ("permission", "越权授权 (permission grant)", _c(
        r"你(?:现在)?(?:可以|被允许|获准|有权|有权限|获得了?[^。！？!?\n]{0,6}?权限)[^。！？!?\n]{0,12}?(?:分享|透露"
        r"|告诉|提供|访问|查看|泄露|导出|给我|发给|读取)"
        r"[^。！？!?\n]{0,10}?(?:其他|别的|所有|任何|全部|别人)(?:的)?(?:用户|人|客户|账号|账户|成员)?"
        r"|你(?:现在)?(?:可以|能|被允许|有权)把?[^。！？!?\n]{0,4}?(?:其他|别的|所有|任何|全部|别人)(?:的)?(?:用户|人"
        r"|客户|账号|账户"
        r"|成员)?的?[^。！？!?\n]{0,10}?(?:发给|告诉|给|透露给|转给|分享给)"
        r"|(?:授予|赋予|给)你[^。！？!?\n]{0,6}?(?:管理员|最高|root|全部|所有)?(?:权限|权利)")),
    ("permission", "安全制限の解除 (attempt to disable safety)", _c(
        r"(?:安全|セキュリティ|制限|フィルター|ガイドライン|ポリシー|検閲|倫理|安全装置)[^。！？!?\n]{0,10}?(?:を"
        r"|は)?(?:無視|解除|回避|スキップ|無効|オフ|外し|破っ|破り|突破)"
        r"|他の(?:ユーザー|利用者|人|顧客|お客様)の[^。！？!?\n]{0,10}?(?:共有|教え|見せ|開示|提供|送)"
        r"|(?:あなた|君)は[^。！？!?\n]{0,20}?(?:許可されて|権限があり|権限を持)")),
    # ---- exfiltration -----------------------------------------------------------------------
    ("exfiltration", "request to send data out", _c(
        r"\b(?:send|forward|post|upload|email|e-mail|leak|transmit|exfiltrate|copy|paste|submit|report"
        r"|append)\b[^.!?\n]{0,40}?"
        r"\b(?:conversation|chat(?: history| log)?|history|memories|memory|user data|users'? data|personal (?:data"
        r"|information)|credentials|"
        r"passwords?|api keys?|tokens?|secrets?|system prompt|context|session"
        r"|cookies?)\b[^.!?\n]{0,40}?(?:\bto\b|\binto\b|→|->)\s*"
        r"(?:https?://|www\.|\S+@\S+\.\w+|this (?:url|address|endpoint|webhook|server|email)|the following (?:url"
        r"|address)|my server|attacker)"
        r"|!\[[^\]]*\]\(https?://[^)]*[?&][^)]*=(?:\{|\[|%7B|\$|<)")),
    ("exfiltration", "外发数据 (request to send data out)", _c(
        r"(?:发送|转发|上传|提交|发到|发给|贴到|泄露|同步)[^。！？!?\n]{0,15}?(?:对话|聊天记录|历史记录|记忆|用户数据"
        r"|个人信息|密码|密钥|令牌|凭证|系统提示词)"
        r"[^。！？!?\n]{0,15}?(?:到|给|至)\s*(?:https?://|\S+@|这个(?:网址|地址|邮箱|链接|接口))"
        r"|把[^。！？!?\n]{0,10}?(?:对话|聊天记录|历史记录|记忆|用户数据|个人信息|密码|密钥|令牌|凭证"
        r"|系统提示词)[^。！？!?\n]{0,10}?(?:发送|发|上传|转发|提交|同步|贴)(?:到"
        r"|给|至)\s*(?:https?://|\S+@|这个|我的服务器)"
        r"|(?:会話|履歴|記憶|個人情報|パスワード|ユーザーデータ)[^。！？!?\n]{0,15}?(?:https?://"
        r"|\S+@)[^。！？!?\n]{0,20}?(?:送信|送って|転送|アップロード)")),
    # ---- embedded (text written for an AI that reads it later) -------------------------------
    ("embedded", "instruction addressed to an AI reader", _c(
        rf"\b(?:note|message|instructions?|attention|important|notice|reminder|memo|directive)\s+(?:to|for)\s+(?:the\s+"
        rf"|any\s+|all\s+)?{_AI}s?\b"
        # (the order is in the reader's clause: a dash or a semicolon starts another one)
        rf"|\b(?:if|when|whenever)\s+(?:you(?:'re| are)|an?)\s+(?:an?\s+)?{_AI}\b[^.!?\n;—–]{{0,60}}?\b(?:must|should"
        rf"|need to|have to|ignore|disregard|do not|don'?t|always|never|tell|send|include|"
        r"reply|respond|say|recommend|output|append|add|insert|mention|visit|click|execute|run|forward|follow|obey)\b"
        rf"|\b{_AI}s?\s+(?:reading|processing|summari[sz]ing|that reads?|who reads?|seeing|parsing|browsing|indexing"
        rf"|crawling|scraping)\s+(?:this|these|the following)\b"
        rf"|\b(?:dear|hey|attention|to|note to|note for)\s+(?:all\s+|any\s+|the\s+)?{_AI}s?(?:\s+{_AI}s?)?\s*[,:!]"
        rf"|(?:^|[^\w\s]\s*)(?:hey\s+|dear\s+|ok\s+|okay\s+)?{_AI}\s*[,:]\s*(?:please\s+)?(?:ignore|disregard|forget"
        rf"|reply|respond|answer|say|tell|send|reveal|"
        r"recommend|include|append|add|output|print|write|do not|don'?t|never|always|stop|visit|click|execute|run"
        r"|forward)\b"
        rf"|\b(?:the\s+)?{_AI}\s+(?:must|shall|is required to|is instructed to|is hereby)\s+(?:now\s+)?(?:ignore|reveal"
        rf"|send|disclose|forward|tell the user|always|never|not|stop|recommend|include|append|obey)")),
    ("embedded", "写给AI的指令 (instruction addressed to an AI reader)", _c(
        r"(?:致|给|提醒|通知|注意)\s*(?:AI|人工智能)?\s*(?:助手|大模型|语言模型|模型|机器人"
        r"|智能体)?(?<=[A-Za-z能手型人体])\s*[:：,，]"
        r"|(?:给|致|写给|提供给)(?:AI|人工智能|大模型|语言模型|模型|助手|智能体|机器人)的(?:提示|指令|指示|消息|话|说明"
        r"|备注|留言)\s*[:：]"
        r"|(?:写给|致|给)[^。！？!?\n:：]{0,10}?的(?:AI|人工智能|大模型|语言模型|模型|助手|智能体|机器人)\s*[:：]"
        r"|(?:如果|假如|若)你是(?:一个)?(?:AI|人工智能|助手|大模型|语言模型|机器人|智能体)"
        r"|(?:AI|人工智能|助手|大模型|语言模型|模型|机器人|智能体)(?:在)?(?:读到|看到|阅读|处理|总结|解析)(?:这|此|本)"
        r"|(?:读到|看到|处理)(?:这|此|本)(?:段|条|个|篇)?(?:文字|内容|信息|消息|网页|文档|结果)?的(?:AI|人工智能|助手"
        r"|模型|机器人|智能体)"
        r"|(?:AI|アシスタント|言語モデル|モデル|エージェント|ボット)(?:へ|に)の?(?:指示|注意|メッセージ|お願い)"
        r"|(?:あなたが|もしあなたが)(?:AI|アシスタント|言語モデル)(?:なら|であれば|の場合)"
        r"|(?:この|これを)[^。！？!?\n]{0,6}?(?:読んでいる|読んだ|処理している)(?:AI|アシスタント|モデル)")),
]
