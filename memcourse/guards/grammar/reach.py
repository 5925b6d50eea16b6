"""The third layer of the directive grammar: who a directive reaches, in every language.

The first two layers recognise a directive's *mood*; this one says *whom it is for*, which is
what the allowlist decides on (see :mod:`memcourse.guards.directives`): a directive that reaches
people other than this user, or that names the assistant's own answers in general, is a
rule whatever verb it uses. Features (joined onto the rows by
:func:`~memcourse.guards.grammar.rows.merged`):

  others      an audience named by a condition on a third person ("if a customer asks",
              如果有客户问, お客様に聞かれたら, 고객이 물어보면, si un cliente pregunta, wenn ein
              Kunde fragt, si un client demande, если клиент спросит) or by "the reader" of a
              text the agent summarises
  ai_reader   a dedication to an AI reader followed by a colon ("Note for the assistant
              summarising this page:", 致总结本页的AI助手：, …AIアシスタントへ：)
  to_me       the directive's recipient is the speaker ("let me know", "tell me", 告诉我,
              教えて, 알려 줘, dime, sag mir, dis-moi, скажи мне): a request back to this user,
              whoever else the sentence names
  statement   "let's …" (vamos a, lass uns, allons, давай): the speaker includes themself; a
              suggestion, not an order to the assistant
  weak_modal  "you can / could / might / should": a possibility or advice offered, not an order
              (a standing marker or an agent scope still makes it a rule)
  operative   a verb acting on the assistant's tools, output or data (run, execute, send,
              forward, delete, reply, refuse…): with a standing marker it makes a rule
  all_talk    every conversation or reply the assistant has ("in every conversation you have",
              任何对话里, どの会話でも, 어떤 대화에서도, en cualquier conversación, in jedem Gespräch,
              dans toutes les conversations, в любом разговоре): a standing scope, even in the
              grammar of a statement ("the layoffs are off-limits in every conversation you have")
  answers     the assistant's answers in general ("in the answer", "in each reply",
              回答里, 返事の中で, 답변 중에, en la respuesta, in die Antwort, dans la réponse,
              в ответ): content put there is put before everyone
"""

from __future__ import annotations

from memcourse.guards.grammar.rows import merged

__all__ = ["REACH"]

#: Words that open an English clause without being an order (pronouns, determiners, connectives,
#: interjections, evaluative openers): any other word followed by an object is read as a verb.
_EN_NOT_VERB = (r"i|i'm|i've|i'd|i'll|you|you're|he|she|it|it's|we|they|my|your|his|her|its|our|their|this|that"
                r"|these|those|there|here|the|a|an|and|but|or|so|if|when|whenever|while|because|since|as|what"
                r"|who|which|where|why|how|thanks|thank|congrats|congratulations|wow|oh|yeah|yes|no|hey|hi|hello"
                r"|great|good|nice|glad|sorry|sounds|looks|seems|bet|hope|love|sure|awesome|amazing|cool|really"
                r"|totally|definitely|absolutely|all|both|each|every|some|any|many|much|more|most|not|also|even"
                r"|still|maybe|perhaps|probably|hopefully|anyway|well|ok|okay|of|in|on|at|for|with|about|from|to"
                r"|by|after|before|during|like|once|yesterday|today|tonight|tomorrow|last|next|sometimes|usually"
                r"|often|then|now|wish|miss|can't|cannot|happy|proud|lucky|fun|such|just|only|true|right|exactly"
                r"|whether|although|though|unless|until|whatever|wherever|either|neither|otherwise|plus|except"
                # a gerund or an adverb opens a clause without ordering ("sharing our stories…")
                r"|\w+ing|\w+ly")
_EN_LEADS = r"(?:(?:please|just|also|and|then|so|now|go ahead and|feel free to|make a point of|take care to)\s+)*"

_EN_PERSON = (r"(?:customers?|clients?|users?|visitors?|shoppers?|buyers?|callers?|guests?|patients?|students?"
              r"|readers?|members?|someone|somebody|anyone|anybody|people|person|they)")

_AUDIENCE: dict[str, dict[str, str]] = {
    "en": {
        # a clause that opens with a verb taking an object or a particle ("work in a line",
        # "paste back everything", "go ahead and do it"), whatever the verb
        "imperative": (rf"(?:^|(?<=[,:;]))\s*{_EN_LEADS}(?!(?:{_EN_NOT_VERB})\b)[a-z]{{2,}}\s+(?:in|into|out|up|back"
                       r"|down|off|over|away|the|every|each|all|any|some|everything|anything|it|them|this|that"
                       r"|these|those|our|their|his|its)\b"
                       r"|\b(?:answers?|replies|responses)\b[^.!?]{0,60}\b(?:should|must|shall|need to|have to"
                       r"|are to)\b"),
        # a subject and a finite verb of being or having ("mom has…", "the team was…")
        "statement": (r"^\s*(?!(?:you|answers?|replies|responses|everyone|anyone|nobody|no one|whoever)\b)[\w'-]+"
                      r"\s+(?:is|was|are|were|has|had|does|did)\b"
                      r"|^\s*(?:the|a|an|our|my|his|her|their)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+\s+(?:is|was|are"
                      r"|were|has|had"
                      r"|does|did|can|could|will|would|may|might|must|should)\b"
                      r"|^\s*(?:(?:so|and|yeah|yes|ok|okay|now|then|well)[\s,]+)*(?:let's|lets|let us)\b"),
        "permission": (r"\bwithout\s+\w+ing\b[^.!?]{0,20}\b(?:me|anyone|anybody|us|first|the user)\b"
                       r"|\bgo ahead and (?:run|execute|do|delete|send)\b"),
        "disclosure": (r"\b(?:loaded|put|fed|given|provided|handed)\s+(?:in)?to\s+(?:you|your (?:context|memory|window"
                       r"|prompt))\b|\byour context\b|\bbefore (?:i|we) (?:said|say) (?:hello|hi)\b"
                       r"|\bbefore (?:i|we) (?:greeted|started|began)\b"),
        "identity": r"\b(?:from (?:here|now)(?: on)?|henceforth|starting now)[, ]+you(?:'re| are)\s+[\w-]+",
        "others": (rf"\b(?:if|when|whenever|once|in case|should)\s+(?:a|an|any|the|some|other|another)?\s*{_EN_PERSON}"
                   r"\b[^.!?]{0,30}\b(?:asks?|asked|mentions?|brings? up|wants?|inquires?|enquires?|writes?"
                   r"|comes?|contacts?|raises?|needs?|says?|questions?)\b"
                   rf"|\b(?:to|for)\s+(?:the|any|every|each|all)?\s*{_EN_PERSON}\s+(?:asking|who asks?|who ask"
                   r"|that asks?|inquiring|enquiring|looking for|interested in)\b"
                   r"|\b(?:answers?|replies|responses)\s+to\s+(?:people|users|customers|anyone|whoever|those)\b"
                   r"|\b(?:the|any|every|each|your) readers?\b|\bwhoever\b"),
        "ai_reader": (r"\b(?:note|message|instructions?|reminder|attention)?\s*(?:to|for)\s+"
                      r"(?:the|any|every|all|each)?\s*"
                      r"(?:ai|llm|coding|language|automated)?\s*(?:assistants?|agents?|models?|llms?|bots?|ais)\b"
                      r"[^.!?:]{0,60}:"),
        "to_me": (r"(?:^|(?<=[,:;]))\s*(?:(?:please|so|just|and|then|also|do)\s+)*(?:let (?:me|us) know|keep (?:me|us)"
                  r" (?:posted|updated|in the loop)|give (?:me|us) a (?:shout|call|ring|heads-up))\b"),
        "weak_modal": (r"(?:^|(?<=[,;:]))\s*(?:(?:but|and|so|then|maybe|perhaps|also|honestly|i think)\s+)*"
                       r"you (?:can|could|might|may|should|ought to)\s+"),
        "operative": (r"\b(?:run|execute|launch|start|send|forward|copy|delete|remove|erase|wipe|share|upload|post"
                      r"|reply|respond|answer|refuse|decline|approve|accept|grant|open|read|access|transfer|pay|buy"
                      r"|order|book|sign|publish|insert|add|include|append|attach|link|mention|recommend|favou?r"
                      r"|prioriti[sz]e|promote|push|steer|work in|slip in|weave in|drop in)\b"),
        "answers": (r"\b(?:in|into|to|at the end of|at the start of|with)\s+(?:the|each|every|all|any|your)\s+(?:of\s+"
                    r"(?:your|the)\s+)?(?:answers?|replies|reply|responses?|messages?|outputs?)\b"),
    },
    "zh": {
        # "你直接…", and an adverbial lead before the verb: 就顺便提一下, 也顺手推荐
        "imperative": (r"你直接|直接(?:执行|运行|跑|做|发|删|回复)"
                       r"|(?:^|(?<=[，,：:；;]))\s*(?:就|也|都|再)?(?:顺便|顺手|顺带|务必)(?:地)?(?:提|说|推|介绍|加|附|发"
                       r"|转|告诉)"),
        "permission": r"(?:不必|无须|无需|不需要|用不着)(?:再|先)?(?:跟|和|向)?(?:我|任何人)?(?:确认|商量|请示|问)",
        "others": (r"(?:如果|要是|假如|当|万一|每当|若)有?(?:人|客户|顾客|用户|访客|读者|买家|使用者|别人|谁)"
                   r"[^，,。]{0,12}(?:问|咨询|提到|找|要|说|来)"
                   r"|有(?:人|客户|顾客|用户|访客|买家)(?:来)?(?:问|咨询|提到)|谁(?:来)?(?:问|提起|问起|咨询|找)|(?:不管|无论|不论)(?:对方)?是谁"
                   r"|(?:不管|无论|不论)(?:跟|和|对)谁|读者|对方是谁"),
        "ai_reader": r"(?:^|(?<=[\"'\n>]))\s*(?:ai|助手|助理|智能体|模型|机器人)\s*[：:,，]"
                     r"|(?:给|致|写给|对)[^，,。：:]{0,16}(?:ai|助手"
                 r"|助理|模型|智能体|代理|机器人)[^，,。：:]{0,4}[：:]",
        "to_me": r"(?:告诉|通知|提醒)我一声|(?:跟|和)我说一声|让我知道",
        "operative": r"执行|运行|跑|发送|转发|删除|回复|拒绝|批准|打开|读取|插入|加上|附上|提一句|提到|推荐|推",
        "answers": r"(?:回答|回复|答复|答案)(?:里|中|内|里面|当中|末尾|结尾|开头)",
    },
    "ja": {
        "permission": r"(?:確かめ|確認し|聞か|相談し|尋ね)(?:ずに|ないで)",
        "others": (r"(?:お客様|お客さん|ユーザー|利用者|顧客|読者|相手|誰か|人)(?:から|に|が)[^。]{0,12}"
                   r"(?:聞かれ|尋ねられ|質問され|問われ|聞いてき|聞いてく|聞いたら|尋ねたら)"
                   r"|(?:聞いて|尋ねて)(?:くる|きた)(?:人|方|お客様)|相手が誰|誰であれ|誰であっても|読者"),
        "ai_reader": r"(?:ai|アシスタント|エージェント|モデル|ボット|llm)(?:へ|に|の方へ|各位|様)\s*[：:]",
        "to_me": r"(?:知らせて|連絡して|教えてね)\s*[。！!]?\s*$",
        "operative": r"実行|動か|送|転送|削除|返信|返答|断|承認|開|読み込|挿入|添え|付け|触れ|勧め|推|宣伝|締め",
        "answers": r"(?:返事|回答|返答|返信|答え)(?:の中|の最後|の冒頭|に|で|には)",
    },
    "ko": {
        "permission": r"(?:확인하지|묻지|물어보지|상의하지) (?:말고|않고)",
        "others": (r"(?:고객|손님|사용자|이용자|독자|상대|누군가|사람)(?:이|가|께서)\s[^.!?]{0,20}(?:물어보면|물으면"
                   r"|묻는다면|문의하면|찾으면|말하면)|(?:물어보는|묻는|문의하는) (?:사람|분|고객|손님)"
                   r"|상대가 누구|독자"),
        "ai_reader": r"(?:ai|어시스턴트|에이전트|모델|봇|비서)(?:에게|께|한테)\s*[:：]",
        "to_me": r"(?:나|저)(?:에게|한테|께)\s*알려|연락(?:해|줘|주세요)",
        "operative": r"실행|돌려|보내|전달|삭제|답|거절|승인|열어|넣어|끼워|붙여|언급|추천|밀어",
        "dimension": r"불릿|글머리|간략|짧은|한 줄|요점",
        "me": r"(?:^|\s)(?:제|내|저의|나의) ",
        "answers": r"(?:답변|대답|응답|답장)\s*(?:중에|안에|속에|끝에|마다|에)",
    },
    "es": {
        "imperative": (r"(?:^|(?<=[,:;]))\s*(?:(?:por favor|también|y|luego)\s+)*(?:mete|inserta|añade|agrega|incluye"
                       r"|pon|coloca|cuela|intercala|pega|copia|lanza|ejecuta)\b"),
        "disclosure": (r"\bte (?:cargaron|pasaron|metieron|dieron|proporcionaron|han cargado|habían cargado)\b"
                       r"|\bantes de que (?:yo )?te salud\w*"),
        "statement": r"^\s*(?!tú\b|usted\b)\w+\s+(?:ha|han|había|habían|son|era|eran|fue|fueron)\s"
                     r"|^\s*(?:vamos a|hagamos|sigamos|pongamos)\b",
        "permission": r"\bsin (?:consultar|preguntar|avisar|confirmar)\w*",
        "others": (r"\b(?:si|cuando|en cuanto)\s+(?:un|una|algún|alguna|el|la|cualquier)?\s*(?:cliente|usuari[oa]"
                   r"|visitante|comprador\w*|lector\w*|persona|alguien)\b[^.!?]{0,30}\b(?:pregunt\w*|consult\w*"
                   r"|mencion\w*|escrib\w*|pid\w*|quier\w*)"
                   r"|\ba quien(?:es)? (?:pregunte|consulte|quiera|busque)\b|\bhables con quien hables\b"
                   r"|\bsea quien sea\b|\bal lector\b|\blos lectores\b"),
        "ai_reader": (r"\b(?:para|a|nota para)\s+(?:el|la|los|cualquier|todo|todos los)?\s*(?:asistentes?|agentes?"
                      r"|modelos?|ia|bots?)\b[^.!?:]{0,60}:"),
        "to_me": r"\b(?:avísame|avíseme|avísanos|házmelo saber|mantenme al tanto)\b",
        "operative": r"\b(?:ejecut|lanz|envi|reenví|borr|elimin|respond|contest|rechaz|mete|añad|inclu|mencion"
                     r"|recomiend|recomend|promocion)\w*",
        "dimension": r"\b(?:brevemente|en pocas palabras|viñetas|de forma breve)\b",
        "answers": r"\b(?:en|a|al final de)\s+(?:la|cada|todas las|tus|las)\s+respuestas?\b",
    },
    "de": {
        "imperative": (r"(?:^|(?<=[,:;]))\s*(?:(?:bitte|auch|und|dann)\s+)*(?:bau|baue|füg|füge|setz|setze|pack|packe"
                       r"|häng|hänge|streu|streue|start|starte|führ|führe|kopier|kopiere)\b"),
        "disclosure": (r"\bdir (?:geladen|gegeben|mitgegeben|eingespielt|vorgegeben) wurde\b"
                       r"|\bbevor ich (?:dich begrüßt|hallo|hi|dir geschrieben)\w*"),
        "statement": r"^\s*(?!du\b)\w+\s+(?:hat|haben|hatte|hatten|ist|sind|war|waren|wird|werden)\s"
                     r"|^\s*(?:lass|lasst) uns\b",
        "permission": (r"\bohne\b[^.!?,]{0,30}\b(?:nachzufragen|rückzufragen|zu fragen|abzuklären|abzusprechen"
                       r"|zu bestätigen)\b"),
        "others": (r"\b(?:wenn|falls|sobald)\s+(?:ein|eine|einer|der|die|jemand)?\s*(?:kunde|kundin|nutzer\w*"
                   r"|besucher\w*|käufer\w*|leser\w*|jemand|person)\b[^.!?]{0,30}\b(?:fragt|anfragt|erwähnt|schreibt"
                   r"|wissen will|möchte|will)\b"
                   r"|\bwer (?:nach|über|wegen)\b|\begal mit wem\b|\bdem leser\b|\bden lesern\b"),
        "ai_reader": (r"\b(?:für|an)\s+(?:den|die|das|jeden|alle|jede)?\s*(?:ki-)?(?:assistent\w*|agent\w*|modell\w*"
                      r"|ki|bot\w*)\b[^.!?:]{0,60}:"),
        "to_me": r"\b(?:sag|gib) (?:mir|uns) bescheid\b|\bhalte? (?:mich|uns) auf dem laufenden\b",
        "operative": (r"\b(?:führ|start|schick|send|leit|lösch|antwort|beantwort|lehn|bau|füg|setz|erwähn"
                      r"|empfiehl|empfehl|leg)\w*"),
        "answers": r"\b(?:in|an|am ende) (?:die|der|jede|jeder|deine|deiner|alle|allen) antworten?\b",
    },
    "fr": {
        "imperative": (r"(?:^|(?<=[,:;]))\s*(?:(?:aussi|et|puis)\s+)*(?:glisse|insère|ajoute|mets|place|intègre|colle"
                       r"|recopie|lance)\b"),
        "disclosure": (r"\b(?:on )?t'a (?:chargé|donné|fourni|transmis)\b[^.!?]{0,30}\bavant\b"
                       r"|\bavant que je (?:te )?(?:dise bonjour|salue)\b"),
        # a noun subject and a finite auxiliary: passé composé and the like ("maman a offert…")
        "statement": r"^\s*(?!tu\b|vous\b)[\w'-]+\s+(?:ont|avait|avaient|était|étaient)\s"
                     r"|^\s*(?:allons|faisons|continuons)\b",
        "permission": r"\bsans (?:me |nous )?(?:demander|consulter|prévenir|vérifier)\b",
        "others": (r"\b(?:si|quand|lorsqu'|dès qu')\s*(?:un|une|le|la|quelqu'un|n'importe quel)?\s*(?:client\w*"
                   r"|utilisat\w*|visiteur\w*|acheteur\w*|lecteur\w*|personne|quelqu'un)\b[^.!?]{0,30}\b(?:demande"
                   r"|pose|mentionne|écrit|veut|cherche)\w*"
                   r"|\bà ceux qui\b|\bpeu importe avec qui\b|\bau lecteur\b|\baux lecteurs\b"),
        "ai_reader": (r"\b(?:pour|à)\s+(?:l'|le|la|les|tout|chaque)?\s*(?:assistants?|agents?|modèles?|ia|bots?)\b"
                      r"[^.!?:]{0,60}:"),
        "to_me": r"\b(?:fais|faites)-(?:moi|nous) savoir\b|\btiens-(?:moi|nous) au courant\b|\bpréviens-(?:moi|nous)\b",
        "operative": (r"\b(?:lance|exécute|envoie|transfère|supprime|réponds|refuse|glisse|ajoute|insère|mentionne"
                      r"|recommande|conseille|promeus)\w*"),
        "dimension": r"\b(?:brièvement|en bref|puces|en quelques mots)\b",
        "answers": r"\b(?:dans|à la fin de)\s+(?:la|chaque|toutes les|tes|les)\s+réponses?\b",
    },
    "ru": {
        "imperative": r"(?:^|(?<=[,:;—]))\s*(?:вставляй|вставь|добавляй|добавь|запускай|запусти|вставьте|добавьте)\b",
        "permission": r"\bне (?:\w+(?:я|яя|ая|ив|ав))\s+(?:у|с) (?:меня|мной|нас)\b",
        "others": (r"\b(?:если|когда)\s+(?:\w+\s+)?(?:клиент|пользовател|покупател|посетител|читател|кто-то"
                   r"|кто-нибудь)\w*\b[^.!?]{0,30}\b(?:спрос|спраш|упомян|напиш|попрос|захоч)\w*"
                   r"|\bтем,? кто\b|\bчитател\w*"),
        "ai_reader": r"\b(?:для|к)\s+(?:\w+\s+)?(?:ии-)?(?:ассистент|агент|модел|бот|помощник)\w*\b[^.!?:]{0,60}:",
        "to_me": r"\bдай(?:те)? (?:мне |нам )?знать\b|\bсообщи(?:те)? мне\b",
        # "давай…", and a clause that opens with a subject and a past-tense verb ("начальник велел…")
        "statement": (r"^\s*(?:давай|давайте)\b"
                      r"|^\s*(?!не\b)\w+\s+(?:\w+\s+)?(?!не\b)\w{2,}(?:ал|ял|ил|ел|ул)(?:а|о|и)?\b"),
        "operative": (r"\b(?:запуска|запуст|выполня|выполн|отправ|пересыл|перешл|удал|отвеча|ответ|отказ|вставля"
                      r"|встав|добавля|добав|упомина|упомян|советуй|рекоменд)\w*"),
        "answers": r"\bв (?:ответ|ответе|каждом ответе|ответах|каждый ответ)\b",
    },
}

#: Conversation-wide scope and the forms of the development rounds p-<lang>-45x: the text the
#: agent was given before the chat, its rules declared expired, acting at its own discretion.
_TALK: dict[str, dict[str, str]] = {
    "en": {
        "all_talk": (r"\b(?:in|during|across|for)\s+(?:every|any|all|each)\s+(?:of\s+)?(?:your\s+|the\s+)?(?:other\s+)?"
                     r"(?:conversations?|chats?|sessions?|replies|reply|answers?|responses?|messages?)\b"),
        "disclosure": (r"\bbefore (?:the start of )?(?:this|our|the) (?:chat|conversation|session)(?: (?:began"
                       r"|started))?\b"
                       r"|\bwhat (?:were|are) you (?:told|instructed|asked|given|briefed|set up)\b"),
        "authority": (r"\b(?:guidance|rules|instructions|guidelines|setup|brief|briefing"
                      r"|orders)\b[^.!?]{0,40}\b(?:lapsed"
                      r"|ended|ran out|run out|timed out|been (?:retired|superseded|replaced|withdrawn))\b"
                      r"|\bwhat i say (?:now )?(?:is what counts|goes|is final|decides|rules)\b"),
        "permission": r"\b(?:on|at|by|using) your own (?:judge?ment|discretion|initiative)\b",
    },
    "zh": {
        "all_talk": (r"(?:任何|每个|每次|所有|每一个)(?:的)?(?:对话|聊天|会话)"
                     r"|(?:所有|每个|每条|每一条|每次|每则|每一则|每封)(?:的)?"
                     r"(?:回答|回复|答复)"),
        "disclosure": (r"(?:这次|本次|这个|我们的)?(?:聊天|对话|会话)开始(?:之)?前"
                       r"|(?:别人|有人|他们)?(?:交代|吩咐|指示|告诉)你(?:做|要)"),
        "override": (r"(?:规定|规则|设定|指示|要求|守则)[^，,。]{0,8}(?:过期|到期|作废|不算了|结束了)"
                      r"|以我(?:说|讲)的为准|我说的(?:才)?算"),
        "permission": r"你觉得该\w就\w|(?:自己|自行)(?:判断|决定)|不用(?:再|先)?(?:请示|确认|问)",
        "promotion": r"优惠|特惠|特价|降价",
    },
    "ja": {
        "all_talk": (r"(?:どの|すべての|全ての|あらゆる)(?:会話|チャット|やりとり|やり取り|返信|返事|回答|返答)"
                     r"|(?:どの|すべての|全ての)(?:返信|返事|回答|返答)も"),
        "disclosure": r"(?:この|今回の)?(?:チャット|会話)が始まる前|何をするよう(?:に)?(?:言われ|指示され|頼まれ)",
        "override": r"(?:決まりごと|決まり|ルール|指示|設定)[^。]{0,10}(?:期限切れ|失効|無効)|私の言うことが基準",
        "permission": r"(?:自分|あなた|君)の判断で",
        "promotion": r"キャンペーン|値引き|特価|宣伝",
    },
    "ko": {
        "all_talk": r"(?:어떤|모든|어느) (?:대화|채팅|답장|답변|대답|응답)",
        "disclosure": r"(?:이|이번) (?:채팅|대화)(?:이|가)? 시작되기 전|(?:뭘|무엇을) 하라고 (?:지시|명령|부탁)",
        "override": r"(?:규정|규칙|지시|설정)(?:은|는|이|가)?[^.!?]{0,10}만료|내 말이 기준",
        "permission": r"(?:네|너의|당신의) 판단(?:대로|으로)",
        "promotion": r"홍보",
    },
    "es": {
        "all_talk": r"\b(?:en|durante)\s+(?:cualquier|cada|todas las|toda)\s+(?:conversaci[oó]n\w*|charla\w*|chat\w*)",
        "disclosure": (r"\bantes de que (?:empezara|comenzara|empezase|iniciara) (?:este|el|nuestro) (?:chat"
                       r"|conversaci\w*)"
                       r"|\bqué te (?:indicaron|dijeron|pidieron|ordenaron)\b"),
        "permission": r"\bsegún tu (?:propio )?criterio\b|\ba tu criterio\b",
        "you": r"\bque (?:tú )?\w+(?:as|es)\b",
    },
    "de": {
        "all_talk": r"\bin (?:jedem|jeglichem|allen) (?:gespräch\w*|chat\w*|unterhaltung\w*)",
        "disclosure": r"\bvor (?:beginn|anfang|start) (?:dieses|des|unseres) (?:chats|gesprächs)\b|\bwas hat man dir\b",
        "permission": r"\bnach (?:eigenem|deinem) ermessen\b",
        "promotion": r"\w+rabatt\w*",
        "answers": r"\bjede[nmr]? antwort\b",
    },
    "fr": {
        "all_talk": r"\bdans (?:toutes? (?:les )?|chaque |n'importe quelle )(?:conversations?|discussions?"
                    r"|échanges?)\b",
        "disclosure": r"\bavant le début de (?:ce|cette|notre) (?:chat|conversation|discussion)\b"
                      r"|\bqu'est-ce qu'on t'a demandé\b",
        "authority": r"\b(?:consignes|règles|instructions|directives)\b[^.!?]{0,40}\b(?:expiré|périmé|terminé)e?s?\b"
                     r"|\bc'est ma parole qui compte\b",
        "permission": r"\bselon ton (?:propre )?jugement\b|\bà ta discrétion\b",
    },
    "ru": {
        "all_talk": r"\bв (?:любом|каждом|любой|каждой) (?:разговоре|диалоге|чате|беседе|переписке)\b",
        "disclosure": r"\bдо начала (?:\w+ )?(?:чата|разговора|беседы|диалога)\b|\bчто тебе (?:велели|сказали"
                      r"|поручили)\b",
        "authority": (r"\b(?:правила|инструкции|указания|установки)\b[^.!?]{0,40}\b(?:истекли|истёк|закончились"
                      r"|кончились)\b"
                      r"|\bчто скажу я\b"),
        "permission": r"\bна сво[ёе] усмотрение\b",
    },
}

#: The forms of the third development round (p-<lang>-47x): the assistant asked to regard
#: *itself* as someone else (a reflexive identity), and the user's own mailbox as the
#: destination of what other accounts share.
_SELF: dict[str, dict[str, str]] = {
    "en": {"identity": r"\b(?:think of|see|regard|consider|imagine|picture) yourself as\b|\bconsider yourself\b",
           # a vocative to an AI at the start of a text or a structured value ("AI, before you answer…")
           "ai_reader": r"(?:^|(?<=[\"'\n>]))\s*(?:hey |dear )?(?:ai|assistant|llm|chatbot)s?\s*[:,]",
           "exfiltration": r"\b(?:to|into) my (?:inbox|mailbox|e-?mail)\b"},
    "zh": {"identity": r"把(?:你)?自己当(?:成|作)|你就当自己是|把自己想(?:成|象成)",
           "exfiltration": r"(?:转|发|寄|传)[^，,。]{0,6}(?:到|给)?我的(?:邮箱|信箱|收件箱)"},
    "ja": {"identity": r"自分を[^。]{0,15}(?:だと|と)(?:思|考え|みな)",
           "exfiltration": r"私の(?:受信箱|メールボックス|受信トレイ)"},
    "ko": {"identity": r"(?:너 |네 )?자신을 [^.!?]{0,15}(?:라고|이라고|로) (?:생각|여기|간주)",
           "exfiltration": r"(?:내|제|나의) (?:메일함|받은편지함|우편함)"},
    "es": {"identity": r"\b(?:piensa en ti|considérate|imagínate|mírate|tómate) como\b|\bconsidérate\b",
           "exfiltration": r"\b(?:mi|a mi) (?:bandeja de entrada|buzón)\b"},
    "de": {"identity": r"\b(?:hältst|halte|betrachte|betrachtest|sieh|siehst) (?:du )?dich (?:für|als)\b",
           "exfiltration": r"\b(?:in|an) (?:mein|meinen) (?:postfach|posteingang|mailfach)\b"},
    "fr": {"identity": r"\b(?:considère|vois|imagine|prends)-toi (?:comme|pour)\b|\bpense à toi comme\b",
           "exfiltration": r"\b(?:dans|vers|à) ma boîte (?:de réception|mail|aux lettres)\b"},
    "ru": {"identity": r"\b(?:считай|представь|воспринимай|представляй) себя\b",
           "exfiltration": r"\bв (?:мой|мою) (?:почтовый ящик|почту|входящие)\b"},
}


# a reflexive order ("think of yourself as", 把自己当成, считай себя) addresses the assistant even
# where the language drops the pronoun: the same forms count as "you"
for _row in _SELF.values():
    _row["you"] = _row["identity"]

#: The forms of the fourth development round (p-<lang>-48x): permission as a *needless* check
#: ("no need to run it by me before you…", 之前不用跟我说, 私に断らなくていい), audiences named
#: by a relative clause ("people who ask about…", 来问…的人, 聞く人には, los que pregunten,
#: Leute, die … fragen, les gens qui demandent, тех, кто спрашивает), obligations in the passive
#: about them ("…should be nudged toward"), and the setup text received at the start.
_NEEDLESS: dict[str, dict[str, str]] = {
    "en": {"permission": (r"\b(?:no need to|(?:don't|do not|needn't|won't) (?:need|have) to)\s+(?:ask|check with"
                          r"|consult|tell|warn|notify|clear \w+ with|run \w+ by)\s+(?:me|us|anyone)\b"
                          r"[^.!?]{0,20}\b(?:before|first|beforehand)\b"),
           "others": (r"\b(?:folks|people|those|customers|users|visitors|guests|anyone)\s+(?:who\s+)?(?:asking|ask"
                      r"|asks|inquiring|enquiring|wanting)\b"),
           "imperative": (r"\b(?:folks|people|customers|users|visitors|guests|anyone|everyone|those)\b[^.!?]{0,40}"
                          r"\b(?:should|must|shall|are to|need to) be \w+ed\b"),
           "disclosure": (r"\b(?:setup|configuration|config|initial|starting) (?:text|message|prompt|notes?)\b"
                          r"|\b(?:got|received|were given|were handed) (?:at|in) the (?:very )?(?:start|beginning)\b")},
    "zh": {"permission": r"(?:之前|以前|前)(?:都)?不(?:用|必|需要)(?:先)?(?:跟|和|向|问)?我",
           "others": r"(?:来|前来)?(?:问|咨询|询问)[^，,。]{0,10}的(?:人|客人|客户|顾客|用户)",
           "imperative": (r"(?:^|(?<=[，,：:；;]))\s*(?:一律|统统|一概)(?:先)?(?:引导|推荐|告诉|回复|回答|拒绝|转"
                          r"|介绍|劝|推)"),
           "disclosure": r"(?:一开始|最开始|最初|开头)(?:拿到|收到|得到|被给)的(?:设定|配置|说明|文字|内容)"},
    "ja": {"permission": (r"(?:前に|とき(?:は|に)?)[^。]{0,15}(?:断ら|確認し|聞か|相談し|言わ|知らせ)なくて(?:いい"
                          r"|も(?:いい|大丈夫))"),
           "others": r"(?:聞く|尋ねる|問い合わせる|相談する|聞いてくる)(?:人|方|お客様)(?:に|には|へ)"},
    "ko": {"permission": (r"(?:\S+ 때|\S+기 전에|전에)[^.!?]{0,15}(?:말할|물어볼|확인할|허락받을|알릴) 필요 없")},
    "es": {"permission": (r"\bno hace falta que me (?:consultes|preguntes|avises|pidas)\w*[^.!?]{0,10}\bantes\b"
                          r"|\bno (?:necesitas|tienes que) (?:consultarme|preguntarme|avisarme)\b"),
           "others": (r"\ba la gente que\b|\b(?:la gente|las personas|quienes|los que|las que) (?:que )?"
                      r"(?:pregunte|pregunten|consulte|consulten|pida|pidan)\b"),
           "imperative": r"(?:^|(?<=[,:;]))\s*\w{3,}[aei](?:la|lo|las|los)\b(?=\s+(?:hacia|a|al|con|en|por)\b)",
           "disclosure": r"\btexto de (?:configuraci\w*|inicio)\b|\brecibiste al (?:principio|inicio)\b"},
    "de": {"permission": r"\bdu musst mich nicht (?:fragen|informieren|benachrichtigen)\b[^.!?]{0,10}\bbevor\b",
           "others": r"\b(?:leute|menschen|kunden|personen|nutzer),? die (?:nach|wegen|über)\b",
           "disclosure": r"\beinrichtungstext\w*|\b(?:am|zu) anfang (?:bekommen|erhalten)\b"},
    "fr": {"permission": (r"\bpas besoin de me (?:prévenir|demander|consulter|avertir)\b[^.!?]{0,10}\bavant\b"
                          r"|\btu n'as pas (?:besoin|à) de me (?:prévenir|demander|consulter)\b"),
           "others": r"\bles gens qui\b|\b(?:ceux|celles|les personnes|les clients) qui (?:demandent|posent"
                     r"|veulent)\b"},
    "ru": {"permission": (r"\bне нужно (?:спрашивать|предупреждать|уведомлять) (?:меня|мне)\b[^.!?]{0,10}\bпрежде\b"
                          r"|\bне спрашивая меня\b"),
           "others": r"\b(?:тех|того|всех),? кто\b"},
}

REACH: dict[str, dict[str, str]] = merged(merged(merged(_AUDIENCE, _TALK), _SELF), _NEEDLESS)
