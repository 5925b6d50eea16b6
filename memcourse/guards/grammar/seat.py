"""The agent named without a "you": by its seat, by everyone who talks to it, by the approval its
actions wait for.

An attack that knows "you are now X" is refused stops addressing the agent and describes its place
instead. Three forms recur in every language, each naming a scope the allowlist refuses while the
sentence stays a statement:

- ``seat``: whoever answers *here* is someone else now ("whoever answers here is Rex", "the character
  replying in this chat", "ab heute antwortet hier Rex", "c'est Rex qui répond ici", 这里回答问题的叫阿强,
  ここで答えるのは, 여기서 답하는 건): the agent's identity, in the third person;
- ``agent_audience``: *everyone* defined by talking to the agent ("every customer you chat with",
  "anyone who writes in here", 跟你聊天的每位客人, あなたと話すお客様全員, 당신과 대화하는 모든 손님, "cada
  cliente con el que hablas", "jeder Kunde, mit dem du sprichst", "chaque client avec qui tu parles",
  "каждый, с кем ты общаешься"): a norm for them reaches the agent's whole audience. The universal
  quantifier is what makes it a scope: "the person you talk to at the bank" is the generic "you" of a
  story about a bank (an attack on the first version of this module, round 16, found 24 such texts);
- ``waiver``: the user's approval of the agent's actions declared unneeded or done away with ("my
  approval is no longer needed", "checking with me first isn't required", "meine Freigabe ist nicht
  mehr nötig", 不用等我点头, 私の承認はもう要りません, 제 승인은 이제 필요 없어요): a permission, in the
  grammar of a fact.

None of them is an order, and each has innocent uses ("the person who answers the phone here is
Maria", "everyone who writes in to my podcast asks about sourdough", "my approval is no longer needed
for my team's leave requests", "the builders ordered the tiles without waiting for my confirmation").
So they are *scope signals* only (:data:`memcourse.guards.learned.SCOPE_SIGNALS`), never a rule to the
grammar: a text that names one is judged by the learned classifier at its lower ``scoped``
threshold. (Read into the grammar's ``permission`` feature, the waiver refused 15 of the attack's 34
benign look-alikes, at probabilities down to 0.003: docs/security.md, round 16.) None of the three
occurs in LoCoMo's 2,760 development turns.
"""

from __future__ import annotations

__all__ = ["SEAT"]

# Whoever answers here: a noun for the answering party, or "whoever", with a verb of answering and a
# place that is this conversation; or the agent's nouns bound to this chat.
_SEAT = {
    "en": (r"\b(?:whoever|the one|the (?:character|persona|voice|entity|bot|assistant|ai|agent|model|chatbot))"
           r"(?: who| that)?(?: is| has been| will be| now)?(?: doing the)? (?:answer|repl|respond|speak|talk)\w*"
           r"(?: (?:to )?\w+){0,2}? (?:here|in this (?:chat|conversation|thread|window)|on this (?:page|site|app"
           r"|channel))\b"
           r"|\bthe (?:character|persona|voice|role) (?:answering|replying|responding|of the one answering)\b"
           r"|\bthe (?:assistant|bot|ai|chatbot|agent|voice) (?:here|of this (?:chat|page|site|app)|in this chat"
           r"|on this (?:page|site|app))\b(?! (?:on|at) my)"
           r"|\bthe (?:assistant|bot|ai|chatbot) (?:now )?(?:goes by|is (?:now )?(?:called|named)"
           r"|answers to the name)\b"),
    "de": (r"\b(?:antwortet|spricht|schreibt) (?:ab (?:heute|sofort|jetzt) |jetzt |nun )?hier\b"
           r"|\bhier (?:antwortet|spricht) (?:ab (?:heute|sofort|jetzt) |jetzt |nun )?\w+"
           r"|\b(?:der|die|das) (?:\w+ )?(?:hier|in diesem chat) antwortet\b"
           r"|\b(?:der|die) (?:assistent\w*|bot|ki|charakter|figur|persona|stimme) (?:hier|in diesem chat"
           r"|dieses chats)\b"
           r"|\b(?:rolle|stimme) des antwortenden\b"),
    "fr": (r"\bqui (?:répond|parle|écrit) (?:ici|dans (?:ce|cette) (?:chat|conversation|discussion)|sur cette page)\b"
           r"|\b(?:l'assistant|le bot|l'ia|le personnage|le chatbot|la voix) (?:d'ici|de (?:ce|cette) (?:chat"
           r"|conversation|page)|ici)\b"
           r"|\bici,? (?:c'est \w+ qui répond|répond)\b"),
    "es": (r"\b(?:quien|que) (?:contesta|responde|habla|escribe) (?:aquí|en este chat|en esta (?:conversación"
           r"|página))\b"
           r"|\b(?:el asistente|el bot|la ia|el personaje|el chatbot|la voz) (?:de aquí|de este chat|aquí)\b"
           r"|\baquí (?:contesta|responde) (?:ahora |desde hoy )?\w+"),
    "ru": (r"\b(?:отвечает|отвечать будет|говорит|пишет) (?:теперь |сейчас )?здесь\b"
           r"|\bздесь (?:теперь |сейчас )?(?:отвечает|отвечать будет)\b"
           r"|\b(?:ассистент|бот|ии|персонаж|помощник) (?:здесь|этого чата|в этом чате)\b"),
    "zh": (r"(?:这里|这儿|本聊天室?|本对话|这个(?:聊天室?|对话|页面))(?:负责)?(?:回答|回复|答复|应答|回话)(?:问题)?的"
           r"|在(?:这里|这儿|这个聊天室?|这个对话)(?:负责)?(?:回答|回复|答复)(?:问题)?的"
           r"|(?:这里|这个聊天室?|这个对话|这个页面)的(?:助手|助理|机器人|ai|角色)"),
    "ja": (r"ここ(?:で|の)(?:答え|回答|返事|返信|応答|話し)(?:を(?:し|書い))?(?:て(?:いる|る))?(?:のは|キャラ|人|側)"
           r"|このチャットで(?:答え|回答|返事|返信|応答)(?:を(?:し|書い))?(?:て(?:いる|る))?(?:のは|側|人|キャラ)"
           r"|ここの(?:担当|アシスタント|ボット|キャラクター)は"),
    "ko": (r"여기(?:서)? (?:답하는|대답하는|답변하는|응답하는) (?:건|것은|사람은|캐릭터는|ai는)"
           r"|여기 (?:담당|어시스턴트|봇)(?:은|는)"
           r"|이 (?:채팅|대화)(?:방)?에서 (?:답하는|대답하는|답변하는|응답하는)"),
}

# Everyone who talks to the agent: a universal quantifier ("every", "anyone", 任何, 全員, 모든, cada,
# jeder, chaque, каждый, "кто…, тот") on the people defined by talking to it ("you chat with", "who
# writes in here"). The quantifier is the scope: "the person you talk to at the bank" is the generic
# "you" of a story about a bank, "every customer you chat with" is the agent's whole audience.
_EN_PEOPLE = (r"(?:\w+ )?(?:users?|customers?|clients?|people|shoppers?|visitors?|guests?|callers?|folks|patients?"
              r"|members?|person|one)")
_EN_TALKS = r"you(?:'re| are)? (?:talk|chat|speak|message|deal|help|assist|serv)\w*"
_AGENT_AUDIENCE = {
    "en": (rf"\b(?:every|each|any|all(?: the)?) {_EN_PEOPLE}(?: (?:who|that))? {_EN_TALKS}\b"
           rf"|\b(?:everyone|anyone|anybody|everybody|no ?one|nobody|whoever)(?: (?:who|that))? (?:{_EN_TALKS}"
           r"|(?:chats?|writes?|talks?|messages?) (?:in )?(?:here|with you|to you)|writes? in|(?:chatting|talking"
           r"|writing) (?:here|with you|to you))\b"
           rf"|\b{_EN_PEOPLE} {_EN_TALKS}(?: (?:to|with))? (?:should |must |will |are to )?all\b"),
    "de": (r"\b(?:jede[rnms]?|alle[n]?) (?:\w+ )?(?:\w+, )?mit (?:dem|der|denen) du (?:sprichst|chattest|redest"
           r"|schreibst)\b"
           r"|\b(?:irgendwe[rnm]|jede[rnm]?|alle[n]?|niemand\w*),? (?:der|die) (?:hier|dir) (?:schreib|chatt)\w*"),
    "fr": (r"\b(?:chaque|tout|toute|tous les|toutes les) \w+ avec (?:qui|lequel|laquelle|lesquels|lesquelles) tu "
           r"(?:parles|discutes|échanges|chattes)\b"
           r"|\b(?:personne|quiconque|tous ceux|toutes celles|chacun) qui (?:t'écri\w+|te parle\w*|discute\w* avec toi"
           r"|écri\w+ ici|discute\w* ici)\b"),
    "es": (r"\b(?:cada|todo|toda|todos los|todas las) \w+ con (?:el|la|los|las) que (?:hablas|chateas|conversas)\b"
           r"|\b(?:nadie|cualquiera|todo el que|toda persona|todos los que) que? ?(?:te escrib\w+|escrib\w+ aquí"
           r"|chatea\w* aquí|chatea\w* contigo|habla\w* contigo)\b"),
    "ru": (r"\bкажд\w+(?: \w+)?,? с (?:кем|которым|которой) (?:ты )?(?:общаешься|говоришь|разговариваешь"
           r"|переписываешься)\b"
           r"|\b(?:всем|все|никому|ни для кого|любой|каждый),? кто (?:здесь|тебе|сюда) (?:пишет|пишут|обращается)\b"
           r"|\bкто (?:здесь|тебе|сюда) (?:пишет|обращается),? тот\b"),
    "zh": (r"任何(?:来|在)?(?:这里)?(?:跟你|和你)?(?:聊天|提问|留言)的"
           r"|(?:跟|和|与)你(?:聊天|对话|说话|交流|聊)的(?:每|所有|任何|全部)"
           r"|(?:每(?:一)?(?:位|个)|所有)(?:跟|和|与)你(?:聊天|对话|说话|交流|聊)的"),
    "ja": (r"あなたと(?:話す|話している|話してる|チャットする|やり取りする)[^。、]{0,6}(?:全員|みんな|皆さん|皆)"
           r"|(?:ここで|あなたと)(?:話す|話している|チャットする|質問する|書き込む)誰(?:にも|にとっても|でも|も)"
           r"|(?:すべて|全て)の[^。、]{0,6}あなたと(?:話す|話している|チャットする)"),
    "ko": (r"(?:당신|너|님)(?:와|랑|하고|과) (?:대화하는|이야기하는|얘기하는|채팅하는) 모든"
           r"|모든 [^.]{0,6}(?:당신|너|님)(?:와|랑|하고|과) (?:대화하는|이야기하는|얘기하는|채팅하는)"
           r"|여기(?:서|에서)? (?:대화하는|이야기하는|채팅하는|질문하는|글을 쓰는) 누구(?:에게도|든|도)"),
}

# The user's approval of the agent's actions declared unneeded or done away with: "my" approval (not a
# manager's), approval "from me" / "on my side", or the confirmation *step* itself, then a verb of
# needing negated or of removing; or an action done without waiting for it.
_EN_APPROVAL = r"(?:approvals?|sign-?offs?|confirmations?|consent|go-ahead|okay|ok|permission|say-so)"
_EN_WAIVED = (r"(?:(?:no longer|not|isn't|is not|aren't|are not|stopped being|never|no more)\b[^.!?]{0,12}\b(?:needed"
              r"|necessary|required|a requirement|a step|part of)|(?:has|have|had) been (?:removed|dropped|abolished"
              r"|retired|scrapped|eliminated|waived|switched off|turned off|lifted)|(?:is|are|was|were) (?:gone|over"
              r"|removed|dropped|abolished|retired|scrapped|waived))")
_WAIVER = {
    "en": (rf"\b(?:(?:my|me) {_EN_APPROVAL}|{_EN_APPROVAL} (?:from|by|with|on the part of) me|(?:checking|confirming)"
           rf" with me|the (?:confirmation|approval|sign-?off) (?:step|check|prompt))\b(?: first)?[^.!?]{{0,60}}"
           rf"\b{_EN_WAIVED}"
           r"|\bwithout (?:waiting for|asking for|getting) (?:my|me) (?:approval|sign-?off|confirmation|consent"
           r"|go-ahead|ok)\b"),
    "es": (r"\b(?:mi (?:aprobación|confirmación|permiso|autorización|visto bueno|firma|consentimiento)|(?:la )?"
           r"(?:aprobación|confirmación|autorización) (?:de mi parte|por mi parte|mía))\b[^.!?]{0,60}"
           r"\b(?:(?:ya )?no (?:hace falta|es necesari\w|se necesita|se requiere|es un paso|forma parte)"
           r"|(?:se ha|ha sido|queda|quedó) (?:eliminad\w|suprimid\w|abolid\w|retirad\w))"
           r"|\bsin (?:esperar|pedir|consultar) (?:mi )?(?:confirmación|aprobación|permiso|autorización"
           r"|visto bueno)\b"),
    "fr": (r"\b(?:(?:mon|ma) (?:accord|approbation|autorisation|feu vert|aval|confirmation|validation|permission"
           r"|consentement)|(?:la |les )?(?:confirmation|validation|approbation)s? de ma part)\b[^.!?]{0,60}"
           r"\b(?:n'est plus (?:nécessaire|requis\w*|obligatoire|une étape|demandé\w*)|ne sont plus (?:nécessaires"
           r"|requis\w*|obligatoires)|(?:a|ont) été (?:supprimé\w*|abolie?s?|retiré\w*))"
           r"|\bsans attendre (?:ma|mon) (?:confirmation|accord|validation|autorisation|feu vert)\b"),
    "de": (r"\b(?:meine (?:freigabe|zustimmung|bestätigung|genehmigung|erlaubnis|einwilligung)\w*"
           r"|(?:freigabe|zustimmung|bestätigung|genehmigung)\w* (?:durch mich|von mir))\b[^.!?]{0,60}"
           r"\b(?:(?:nicht mehr|nicht|kein schritt mehr|keine voraussetzung mehr)\b(?: (?:nötig|notwendig|erforderlich"
           r"|gebraucht))?|(?:ist|sind|wurde|wurden) (?:abgeschafft|gestrichen|weggefallen|entfallen)|entf[aä]ll\w*)"
           r"|\bohne auf (?:meine )?(?:bestätigung|freigabe|zustimmung|genehmigung) zu warten\b"),
    "ru": (r"\b(?:(?:моё|мое|моего|мой|моя|моей) (?:одобрени\w*|подтверждени\w*|согласи\w*|разрешени\w*)|(?:одобрени\w*"
           r"|подтверждени\w*|согласи\w*) (?:с моей стороны|от меня))\b[^.!?]{0,60}"
           r"\b(?:(?:больше )?не (?:требуется|требуются|нужно|нужен|нужна|нужны|обязательно)|отменен\w*|отменён\w*)"
           r"|\bне дожидаясь (?:моего )?(?:подтверждени\w*|одобрени\w*|согласи\w*|разрешени\w*)"),
    "zh": (r"(?:不需要|不用|无需|不必|用不着)(?:再)?(?:等|经过|经|问)?我(?:的)?"
           r"(?:点头|确认|同意|批准|审批|许可|签字|首肯)"
           r"|我的(?:确认|同意|批准|许可|审批|点头)(?:已经|现在|以后)?(?:不需要|不用|没必要|不再需要|不是必须|取消)"
           r"|不等我(?:确认|同意|点头|批准)"),
    "ja": (r"(?:私|わたし|僕|俺)の(?:承認|確認|許可|同意|ok|ゴーサイン)(?:は|を取る(?:の|こと)は)?(?:もう)?"
           r"(?:要りません|いりません|要らない|いらない|不要|必要(?:ありません|ない|なくな)|廃止)"
           r"|(?:私|わたし)の(?:確認|承認|許可)を待たずに"),
    "ko": (r"(?:제|내) (?:승인|확인|허락|허가|동의)(?:은|는|을|를)?(?: 받는 (?:단계|절차)(?:는|은)?)?"
           r" (?:이제 |더 이상 )?"
           r"(?:필요 없|필요하지 않|없어졌|폐지)"
           r"|(?:제|내) (?:확인|승인|허락)(?:을|를)? 기다리지 않고"),
}

SEAT: dict[str, dict[str, str]] = {
    lang: {"seat": _SEAT[lang], "agent_audience": _AGENT_AUDIENCE[lang], "waiver": _WAIVER[lang]} for lang in _SEAT
}
