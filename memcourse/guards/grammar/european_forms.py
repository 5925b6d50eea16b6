"""The second layer of the Spanish, German, French and Russian rows (see
:mod:`memcourse.guards.grammar.rows`): the forms that differ from a clause-initial imperative by
word order or periphrasis. Russian imperatives read by their endings wherever the verb stands;
the polite German "Sie" (marked ``sie·f`` before lower-casing) and V2 clauses with "du" after
the verb; French -ez and clitic imperatives and jussive futures; Spanish usted and enclitic
imperatives and fronted objects; audiences, override claims, permission and exfiltration forms."""

from __future__ import annotations

__all__ = ["MORE", "RUSSIAN_MORE", "SHARED_FORMS", "THIRD_PERSON"]

#: Russian imperatives by their endings: the plural / polite -йте -ите -ьте and the -уй of
#: советуй are imperatives wherever they stand (after a fronted object: "покупателям говорите");
#: -ай / -и / -ь ones only at a clause start, after "не" or after an adverb, since nouns end so too.
#: A locative after в / на / о ("на сайте", "о защите") is not one.
_RU_IMP_ANY = (r"(?<!\bв )(?<!\bна )(?<!\bо )(?<!\bоб )(?<!\bпри )(?<!\bвы )\b\w{2,}(?:йте|ите|ьте)(?:сь)?\b"
               r"|\b\w{3,}(?:уй|юй)(?:те)?\b")
#: Imperatives of the verbs a standing rule is made of (speak, mention, recommend, send, add,
#: show, hide, answer...), second person singular: their -ай / -и / -ь forms are verbs wherever they
#: stand, so they need no clause start ("в каждом ответе любому пользователю упоминай, что…").
_RU_IMP_VERBS = (r"\b(?:упоминай|упомяни|сообщай|сообщи|рассказывай|расскажи|говори|скажи|напоминай|напомни|объясняй"
                 r"|объясни|отправляй|отправь|пересылай|перешли|присылай|пришли|предлагай|предложи|продвигай|называй"
                 r"|назови|добавляй|добавь|вставляй|вставь|пиши|напиши|отвечай|ответь|заканчивай|закончи|начинай|начни"
                 r"|показывай|покажи|выдавай|выдай|раскрывай|раскрой|делись|поделись|скрывай|скрой|забудь|забывай"
                 r"|выводи|выведи|повторяй|повтори|отказывай|откажи|упомяните)(?:те)?\b")
_RU_ADV = (r"(?:не|всегда|никогда|сразу|тоже|также|обязательно|только|теперь|впредь|отныне|кстати|срочно|лучше|просто"
           r"|всем|каждому|никому)")
_RU_IMP_START = (r"(?:(?:^|(?<=[,:;—]))\s*(?:(?:пожалуйста|кстати|теперь|впредь|отныне|с (?:этой|этого|сегодняшнего) "
                 r"(?:минуты|момента|дня)|from now on|please)[\s,]+)*|\b" + _RU_ADV + r"\s+)"
                 r"(?!(?:впредь|теперь|опять|ведь|вновь|лишь|кстати|почти|впереди|позади|сзади|внутри|снаружи|мои|твои"
                 r"|свои|наши|ваши|эти|они|дети|люди|гости|новости|деньги|мать|дочь)\b)\w{2,}(?:ай|яй|ей|и"
                 r"|ь)(?:те)?(?:сь|ся)?\b")

MORE: dict[str, dict[str, str]] = {
    "ru": {
        "imperative": (_RU_IMP_ANY + "|" + _RU_IMP_VERBS + "|" + _RU_IMP_START
                       + r"|\bты (?:не )?(?:должен|должна|обязан|обязана)\b|\bтебе (?:нельзя|следует|придётся|надо"
                         r"|нужно)\b"
                       r"|\bвы (?:теперь )?(?:будете|должны|обязаны|можете)\b"),
        "speech": (r"\b(?:сообща|сообщи|рассказ|расскаж|говор|скаж|упомина|упомян|совет|предлага|предлож|рекоменд"
                   r"|напомина"
                   r"|напомн|объявл|объяв|информир|реклам|продвига|дава|выдава|раздава|пересыл|перешл|отправ|присыл"
                   r"|напиш|вывод|выве|выпиш|объясн|уведом|внуш|убежда"
                   r"|убед)\w*"),
        "statement": r"^\s*(?:мы|люди|дети|гости|друзья|коллеги|родители|соседи|вы(?!\s+(?:теперь\s+)?(?:будете|должны"
                     r"|обязаны|можете)))\b",
        "others": (r"\b(?:каждому|каждого|любому|всем|всех) (?:\w+ )?(?:покупател|клиент|посетител|пользовател|гост"
                   r"|человек"
                   r"|абонент|собеседник)\w*|\bни (?:одному|одной) (?:\w+ )?(?:человек|клиент|пользовател|покупател)\w*"
                   r"|\bни с кем\b|\bесли (?:\w+ )?(?:клиент|пользовател|покупател|посетител|абонент|кто-то"
                   r"|кто-нибудь)\w*|\b(?:покупател|клиент|посетител|пользовател|абонент)(?:ям|ам)\b"
                   r"|\bкто бы (?:то )?ни\b"),
        "identity": (r"\bкоторого зовут\b|\bты больше не (?:\w+ )?(?:ассистент|помощник|бот|ии|модель|прежн)\w*"
                     r"|\b(?:ты|вы) (?:теперь )?(?:консультант|ассистент|помощник|бот|дворецкий|персонаж|агент)\w*\b"
                     r"|\bтебя\s+(?:\w+\s+)?зовут\b|\bзовут\s+тебя\b|\b(?:твоё|твое|твоим) (?:новое )?имя\b"
                     r"|\bнет (?:никаких |всяких )?(?:рамок|ограничений|правил|запретов)\b|\bбез (?:всяких "
                     r"|каких-либо )?"
                     r"(?:ограничений|рамок|запретов)\b"),
        "disclosure": (r"\b(?:написано|сказано|указано) (?:выше|сверху)\b|\b(?:выше|сверху) (?:написан|сказан"
                       r"|указан)\w*"
                       r"|\bдо начала (?:разговора|беседы|диалога|чата)\b|\b(?:изначально|исходно) (?:задан|настро"
                       r"|да)\w*"
                       r"|\bзадан\w* тебе\b|\bслово в слово\b|\b(?:тебе|вам) (?:загрузили|дали"
                       r"|выдали|передали|прописали)\b"),
        "override": (r"\b(?:считай|считайте)\s+(?:\w+\s+)?(?:недействительн|отменённ|отмененн|несуществующ|нулев"
                     r"|пустым)\w*"
                     r"|\b(?:как|что) я (?:скажу|прикажу|велю|говорю|попрошу|сказал|захочу|хочу|пожелаю)\b"
                     r"|\bтолько (?:мои|моим|моих) (?:\w+ )?(?:указани|инструкци|приказ|слов|команд|распоряжени)\w*"
                     r"|\b(?:мои|моё|мое|мой) (?:слова?"
                     r"|указания|просьбы|приказы?|решени\w*) (?:важнее|главнее|выше|приоритетнее|в приоритете)"
                     r"|\bне (?:обращай|обращайте) внимания\b|\bне (?:должен |должна |смей |можешь )?отказыва\w*"
                     r"|\bни в (?:одной|какой) просьбе\b"
                     r"|\b(?:инструкци|указани|правил|настройк|распоряжени)\w*[^.!?]{0,60}\b(?:утратил\w* силу"
                     r"|потерял\w* силу)"
                     r"|\bзабудь (?:про |о )?(?:ограничени|правил|запрет)\w*|\bотвечай на (?:всё|все|любые)\b"),
        "permission": (r"\b(?:ты|вы) (?:теперь )?(?:вправе|имеешь право|имеете право|уполномочен\w*)\b"
                       r"|\bбез (?:спроса|подтверждения|разрешения|согласия|одобрения)\b"
                       r"|\b(?:других|чужих) (?:аккаунт|пользовател|клиент|учётн|учетн)\w*|\bя администратор\b"
                       r"|\b(?:записи|данные|заметки|файлы|историю|переписку|сообщения|карточки"
                       r"|профили) (?:\w+ )?(?:других"
                       r"|чужих|всех|любых)\b|\bне (?:спрашивай|спрашивайте|проси|просите) разрешени\w*"),
        "exfiltration": (r"\bна (?:мой|мою|мои) (?:\w+ )?(?:адрес|почту|ящик|e-?mail|имейл|номер|сервер|телеграм"
                         r"|аккаунт)\b"
                         r"|\b(?:перешли|отправь|пересылай|пришли|скинь)\w*[^.!?]{0,30}(?:переписк|разговор|диалог"
                         r"|беседу)"),
        "standing": (r"\bс (?:этой|этого|сегодняшнего|сей) (?:минуты|момента|дня|часа|поры)\b|\bв дальнейшем\b"
                     r"|\bна будущее\b"),
        "dimension": (r"\bтаблиц\w*|\bкоротк\w*|\bпопроще\b|\bпроще\b|\bпонятн\w*|\bкратко\b|\bподробно\b"
                      r"|\b(?:не длиннее|не больше|не более|максимум) \w+"),
    },
    "de": {
        # V1 imperatives by their verb, the polite "Sagen Sie" / V2 "ab sofort empfehlen Sie" (sie·f:
        # see directives.prepare) and a V2 clause with "du" after the verb ("so heißt du", "erzählst du")
        "imperative": (r"(?:^|(?<=[,:;]))\s*(?:(?:bitte|übrigens|ab heute|ab morgen|ab sofort|ab jetzt|von nun an"
                       r"|von jetzt an"
                       r"|von diesem moment an|fortan|künftig|in zukunft|from now on|please)[\s,]+)*"
                       r"(?:informiere|informier|biete|betrachte|handle|frag|frage|führe|kümmere|kümmer|halte|lass"
                       r"|erkläre"
                       r"|behalte|nenne|hilf|nimm|vergiss|ignoriere|beachte|befolge|bleib|werde|verschweige|melde|weise"
                       r"|zahle|bezahle|lösch|akzeptiere|kopiere|schreib|empfiehl|leite|mach|antworte|sag|sage|erzähl"
                       r"|erzähle|zeig|zeige"
                       r"|schick|sende|teile|gib|sprich|rede|verrate|erwähne|folge|beantworte|\w+iere)\b"
                       # a fronted topic and a passive: "über X wird niemandem etwas erklärt"
                       r"|(?:^|(?<=[,:;]))\s*(?:über|zu|bei|von|zum|zur)\b[^,.!?]{0,40}\bwird (?:\w+ ){0,3}(?:ge)?\w+t"
                       r"\b"
                       r"|\b\w+(?:en|ern|eln) sie·f\b|\b(?!est\b)\w+st du\b|\bheißt du\b"),
        "speech": (r"\b(?:sag|erzähl|empfiehl|empfehl|erwähn|zeig|schick|teil|verrat|verschweig|erklär|biet|informier"
                   r"|nenn|bericht|meld|mitteil|weis|bewerb|vorstell|werb)\w*|\bstell\w* [^.!?]{0,60}\bvor\b|\b(?:gib"
                   r"|geben)\b"),
        "others": (r"\b(?:jedem|jeden|jeder|allen|alle|den|die|keinem|keiner) (?:\w+ )?(?:kunde|kunden|besucher\w*"
                   r"|gast|gäste\w*"
                   r"|nutzer\w*|käufer\w*|anrufer\w*|interessent\w*|menschen|person)\b|\bwer (?:auch )?immer\b"
                   r"|\bwenn (?:ein |eine |einer )?(?:kunde|kundin|nutzer\w*|käufer\w*|besucher\w*|jemand|gast)\b"
                   r"|\b(?:der kunde|die kundin|der nutzer|der besucher)\b"),
        "identity": (r"\bden man \w+ nennt\b|\bdu bist nicht mehr (?:der |die |das |ein |eine )?(?:\w+ )?(?:assistent"
                     r"|helfer"
                     r"|bot|ki|modell)\w*|\b(?:so )?heißt du\b|\bdein (?:neuer )?name (?:ist|lautet|wird)\b"
                     r"|\bdu hast keiner?(?:lei)? (?:grenzen"
                     r"|regeln|einschränkungen|beschränkungen|filter)\b|\bohne (?:jede |alle )?(?:grenzen"
                     r"|einschränkungen)\b"),
        "disclosure": (r"\bursprünglich (?:vorgegeben|gegeben|eingestellt|festgelegt)\w*|\bvorgegeben wurde\b"
                       r"|\bwas oben steht\b|\bweiter oben\b|\boben genannt\w*|\b(?:oben|weiter oben) (?:steht|stehen"
                       r"|geschrieben|genannt)\b|\bvor beginn (?:des"
                       r"|unseres) gesprächs\b|\bwort für wort\b|\bmitgegeben\b"),
        "override": (r"\bbetrachte\w* (?:\w+ )?als (?:ungültig|nichtig|hinfällig|aufgehoben)\b"
                     r"|\bwie ich (?:es )?(?:sage|will"
                     r"|befehle|anordne)\b|\bwas ich (?:dir )?(?:sage|auftrage|befehle|anordne|will|möchte)\b"
                     r"|\bnur (?:noch )?meine (?:\w+ )?(?:anweisungen|befehle|vorgaben|worte|regeln)\b"
                     r"|\bmeine (?:worte|anweisungen"
                     r"|wünsche|befehle) (?:zählen|gelten|wiegen|haben) (?:mehr|vorrang|höher)\b"
                     r"|\bkümmere? dich nicht um\b"
                     r"|\bbitte (?:mehr )?ab(?:lehnen|zulehnen)\b|\bnichts (?:mehr )?ablehnen\b|\blehne? (?:nie|nichts"
                     r"|keine)\b"
                     r"|\b(?:anweisungen|regeln|vorgaben|richtlinien)\b[^.!?]{0,60}\b(?:gültigkeit verloren"
                     r"|außer kraft|nicht mehr gültig)"
                     r"|\bvergiss (?:die |alle |deine )?(?:beschränkungen|einschränkungen|regeln|grenzen|vorgaben)\b"
                     r"|\bbeantworte (?:einfach |ab jetzt )?alles\b|\bfolge\w* (?:\w+ ){0,2}meinen (?:regeln|vorgaben"
                     r"|anweisungen)\b"
                     r"|\b(?:hör|höre) (?:nur |ab jetzt |nur noch )?auf mich\b|\bnur (?:noch )?auf mich\b|\b(?:gelten"
                     r"|zählen"
                     r"|betreffen|interessieren) (?:für )?dich nicht mehr\b"),
        "permission": (r"\bich bin (?:der |ein )?administrator\b|\b(?:anderer|fremder) (?:konten|nutzer|kunden"
                       r"|accounts)\b"
                       r"|\b(?:berechtigt|befugt)\b|\b(?:ohne|nicht erst) (?:um )?(?:erlaubnis|genehmigung|zustimmung"
                       r"|bestätigung)\b|\bfrag(?:e)? nicht (?:erst |vorher )?(?:um erlaubnis|nach)\b"
                       r"|\b(?:einträge|daten|notizen|dateien|akten|nachrichten|unterlagen"
                       r"|verläufe?) (?:\w+ )?(?:anderer"
                       r"|fremder|aller)\b"),
        "exfiltration": (r"\ban (?:meine|meinen|mein) (?:\w+-)?(?:e-mail|mail|adresse|e-mail-adresse|postfach|server"
                         r"|konto"
                         r"|nummer)\b|\b(?:verlauf|gespräch|chat|unterhaltung)\w*[^.!?]{0,30}\b(?:weiter|an mich"
                         r"|an meine)\b"),
        "standing": r"\b(?:ab heute|ab morgen|von diesem moment an|von jetzt an|fortan)\b",
        "dimension": r"\b(?:tabelle\w*|sätze\w*|höchstens \w+|einfacher|verständlich\w*)\b",
        "you": r"\bsie·f\b",
    },
    "fr": {
        # the vous imperative (-ez, not after "vous"), hyphenated clitics (considère-le, dis-leur),
        # and the jussive futures "tu exécuteras", "vous direz"
        "imperative": (r"(?<!\bvous )\b\w{3,}ez\s+(?:\w+ment\s+)?(?:à|au|aux|le|la|les|l'|un|une|des|du|de|d'|moi|lui"
                       r"|leur|toujours|jamais"
                       r"|pas|rien|que|qu'|tout|tous|bien|ce|cette|ces|mon|ma|mes|votre|vos|notre|nos)\b"
                       r"|\b\w{2,}-(?:moi|toi|lui|leur|nous|le|la"
                       r"|les|en|y)\b|\btu\s+(?:ne\s+|n')?(?:\w+\s+)?\w+ras\b|\bvous\s+(?:ne\s+|n')?(?:\w+\s+)?\w+rez\b"
                       r"|\bne doit (?:plus )?être\b|\btu (?:ne |n')?(?:dois|devras|peux|pourras|vas|seras|es)\b"
                       r"|\bvous (?:ne )?(?:devez|devrez|pouvez"
                       r"|allez|êtes)\b"
                       r"|(?:^|(?<=[,:;]))\s*(?:(?:au fait|dès aujourd'hui|à partir d'aujourd'hui|dès maintenant"
                       r"|à partir de "
                       r"(?:cet instant|ce moment)|from now on|please)[\s,]+)*(?:\w{3,}(?:ique|ise|ose|orme|onne|ande"
                       r"|ente|ille|ette|ève"
                       r"|ère|oute|iche)|informe|propose|affiche|montre|présente|donne|passe|publie|considère|recopie"
                       r"|copie"
                       r"|transfère|effectue|retiens|ignore|oublie|demande|envoie|fais|tiens|garde|accepte|mets|écris"
                       r"|note"
                       r"|rappelle|signale|cache|tais|recommande|dis|dites|faites|réponds|obéis|suis|laisse|ouvre|lis"
                       r"|paie|exécute)\b"),
        "speech": (r"\b(?:donn\w*|présent\w*|publicité|promouv\w*|envoy\w*|propose\w*|dites|direz|diras|informe\w*"
                   r"|recopie\w*|transf[eè]r\w*|signale\w*"
                   r"|conseill\w*|recommand\w*|dis-\w+|racont\w*|parle\w*|mentionn\w*|expliqu\w*)\b"),
        "others": (r"\bqui que ce soit\b|\b(?:chaque|tous les|toutes les|les|aux) (?:\w+ )?(?:clients?|visiteurs?"
                   r"|utilisateurs?"
                   r"|acheteurs?|usagers?|interlocuteurs?|personnes?)\b|\bpeu importe qui\b|\btous ceux\b"
                   r"|\btoutes celles\b"
                   r"|\bsi (?:un |une )?(?:client|cliente|utilisateur|utilisatrice|acheteur|visiteur|quelqu'un)\b"
                   r"|\ble client\b|\bla cliente\b"
                   r"|\bauprès de (?:tous|toutes|chaque)\b"
                   r"|\baucun(?:e)? (?:\w+ )?(?:client|acheteur|utilisateur|visiteur|personne|interlocuteur"
                   r"|usager)s?\b"),
        "identity": (r"\bqu'on appelle \w+|\btu n'es plus (?:l'|le |la |un |une )?(?:\w+ )?(?:assistant|bot|ia"
                     r"|modèle)\w*"
                     r"|\bton (?:nouveau )?nom (?:est|sera)\b|\btu t'appell\w*|\b(?:plus )?aucune (?:limite"
                     r"|restriction|règle)\b"
                     r"|\bsans (?:aucune )?(?:limite|restriction)s?\b"),
        "disclosure": (r"\bqu'on t'a (?:fixé|imposé|donné|fourni|transmis)e?s?\b|\bplus haut\b|\bci-dessus\b"
                       r"|\bau-dessus\b|\bavant le début de "
                       r"(?:la|notre|cette) (?:conversation|discussion)\b|\bqu'on t'a (?:fourni|donné|transmis)\b"),
        "override": (r"\bcomme (?:nul|nulle|nuls|caduc|caduque|invalide|inexistant|annulé)e?s?\b|\b(?:seulement"
                     r"|uniquement|que) mes (?:\w+ )?(?:consignes|instructions|ordres|règles)\b"
                     r"|\b(?:comme|ce que) je (?:veux|voudrai|dis"
                     r"|dirai|veux|t'ordonne|ordonne|demande)\b|\bmes (?:paroles|mots|consignes|ordres|instructions"
                     r"|demandes) "
                     r"(?:comptent|priment|passent|valent) (?:plus|avant|sur)\b|\bne (?:tiens|tenez) pas compte\b"
                     r"|\bne (?:dois "
                     r"|devez )?refuser aucune\b|\bne refuse (?:jamais|rien|aucune)\b"
                     r"|\b(?:écoute|écoutez|obéis|obéissez)[- ](?:seulement |uniquement )?(?:moi|à moi)\b"
                     r"|\bne te concernent plus\b"
                     r"|\bne (?:s'appliquent|comptent|valent) plus\b"
                     r"|\b(?:consignes|règles|instructions|directives)\b[^.!?]{0,60}\b(?:perdu leur validité|caduques"
                     r"|plus valables)"
                     r"|\boublie (?:les |tes |toutes les )?(?:restrictions|règles|limites)\b|\bréponds à tout\b"
                     r"|\bsui[st] (?:\w+ ){0,2}mes (?:règles|consignes)\b"),
        "permission": (r"\bje suis (?:l'|un )?administrat\w*|\b(?:des|d')autres comptes\b"
                       r"|\b(?:tu es|vous êtes) (?:désormais |maintenant )?(?:autorisée?s?|habilitée?s?|en droit)\b"
                       r"|\bne (?:demande|demandez) pas (?:la )?permission\b|\bsans (?:demander|autorisation"
                       r"|permission)\b"
                       r"|\b(?:dossiers|données|notes|fichiers|historiques?|messages|comptes) (?:des|d'autres"
                       r"|de tous les) "
                       r"(?:autres )?(?:clients|utilisateurs|personnes|usagers)\b"),
        "exfiltration": (r"\b(?:envoie|transfère|transmets|expédie|fais suivre)\S*[^.!?]{0,30}\b(?:historique"
                         r"|conversation|discussion|échanges)\b|\bà mon adresse\b|\bmon adresse (?:e-?mail|mail)\b"
                         r"|\btransf[eè]re\w* (?:l'intégralité|toute|tout|la|cette)"
                         r"[^.!?]{0,20}(?:conversation|discussion)"),
        "standing": (r"\b(?:à partir d'aujourd'hui|dès aujourd'hui|à partir de (?:cet instant|ce moment)"
                     r"|dès maintenant)\b"),
        "dimension": r"\b(?:tableau|phrases?|au maximum|simplement|plus simple|clairement)\b",
    },
    "es": {
        # the usted imperative and enclitic pronouns at a clause start (ofrézcale, dígales), the
        # future of an order (harás), and the lead-ins with no punctuation after them
        "imperative": (r"(?:^|(?<=[,:;]))\s*(?:(?:por cierto|desde hoy|a partir de (?:hoy|este momento|ahora)"
                       r"|de hoy en "
                       r"adelante|desde este momento|de ahora en adelante|from now on|please)[\s,]+)*"
                       r"(?:da(?:le|les|me|nos)(?:lo|la|los|las)?\b|\w{3,}[aei](?:le|les|me|nos|se)(?:lo|la|los"
                       r"|las)?(?=\s+(?:a (?:los|las|la|cada|todos|todas|nadie|mi|su|sus)"
                       r"|al|que|los|las|el|nuestr\w*|mis?|tus?|sus?|siempre|nunca|todo|nada|esto|eso|sin|ya|también"
                       r"|de|del|con|en|por"
                       r"|para|un|una|solo|sólo|únicamente)\b)|\w+selo|informa|ofrece|considera|copia"
                       r"|reenvía|envía|manda|escribe|realiza|pide|presente|promocione|muestra|guarda|acepta|atiende"
                       r"|explica|recomienda|olvida|ignora|obedece|sigue|haz|di)\b"
                       r"|\b(?:harás|dirás|responderás|obedecerás|seguirás|ofrecerás|recomendarás|contarás|enviarás"
                       r"|tendrás"
                       r"|darás|no debes|ya no tienes)\b"
                       r"|\bno\s+(?:(?:le|les|me|se|lo|la|los|las|te|nos)\s+){0,2}\w+(?:es|as)\b|\bno se (?:le "
                       r"|les )?\w+(?:a|e)\b"
                       r"|(?:^|(?<=[,:;]))\s*a (?:\w+ ){1,3}\w{3,}[aei](?:le|les|me|nos|se)\b"),
        "speech": (r"\b(?:da|dale|dales|presente\w*|promocion\w*|anunci\w*|explic\w*|menciones|informa\w*|ofrec\w*"
                   r"|ofrezc\w*|díga\w*|dile\w*|cuent\w*|comunic\w*|avis\w*|recomend\w*"
                   r"|recomiend\w*)\b"),
        "others": (r"\bningun[ao]? (?:\w+ )?(?:persona|cliente|usuario|visitante|comprador)s?\b|\b(?:cada|todos los"
                   r"|todas las|los|las) "
                   r"(?:\w+ )?(?:clientes?|visitantes?|usuarios?|compradores?|personas|demás)\b|\btodos los que\b"
                   r"|\bpregunte quien pregunte\b"
                   r"|\bsi (?:un |una )?(?:cliente|usuari[oa]|comprador\w*|visitante|alguien)\b|\bel cliente\b"
                   r"|\bla clienta\b"
                   r"|\bentre (?:todos|todas)\b"
                   r"|\bquienquiera\b"),
        "identity": (r"\btu (?:nuevo )?nombre (?:es|será)\b|\bte llamas\b|\bningún límite\b|\bsin (?:ningún |ninguna )?"
                     r"(?:límites?|restricci\w*)\b|\bya no tienes (?:ningún |ninguna )?(?:límite|regla|restricci)\w*"),
        "disclosure": (r"\bque te (?:fijaron|dieron|pusieron|configuraron|indicaron)\b|\bmás arriba\b|\b(?:escrit|dich"
                       r"|indicad)[oa]s? arriba\b|\bde arriba\b|\bantes de (?:empezar|comenzar|iniciar) "
                       r"(?:la|esta|nuestra) conversación\b|\bpalabra por palabra\b|\bte dieron antes\b"),
        "override": (r"\bconsid[eé]ral[oa]s? (?:nul[oa]s?|inválid[oa]s?|anulad[oa]s?|sin efecto)\b"
                     r"|\blo que (?:yo )?(?:te )?(?:diga"
                     r"|ordene|pida|mande|digo)\b|\bcomo (?:yo )?(?:diga|digo|ordene|mande)\b|\bmis (?:palabras|órdenes"
                     r"|instrucciones|indicaciones|deseos) (?:valen|cuentan|pesan|están) (?:más|por encima)\b"
                     r"|\bno hagas caso\b"
                     r"|\bno (?:debes )?rechazar\b|\bno rechaces\b|\bninguna petición\b"
                     r"|\b(?:escúchame|obedéceme|hazme caso)\b[^.!?]{0,10}\b(?:solo|sólo|únicamente) a mí\b"
                     r"|\bsolo a mí\b|\b(?:solo|sólo|únicamente) mis (?:\w+ )?(?:indicaciones|instrucciones|órdenes"
                     r"|reglas)\b"
                     r"|\bya no te (?:importan|afectan|aplican|valen|incumben)\b"
                     r"|\b(?:indicaciones|reglas|instrucciones|normas)\b[^.!?]{0,60}\b(?:perdieron su validez"
                     r"|ya no valen|sin efecto)"
                     r"|\bolvida (?:las |tus |todas las )?(?:restricciones|reglas|límites|normas)\b|\bresponde a todo\b"
                     r"|\bsigue (?:\w+ ){0,2}mis (?:reglas|normas|indicaciones)\b"),
        "permission": (r"\bsoy (?:el |un )?administrador\b|\bde otras cuentas\b|\btienes permiso\b|\b(?:estás"
                       r"|quedas) autorizad[oa]\b|\bno pidas permiso\b|\bsin pedir (?:permiso"
                       r"|autorización)\b|\b(?:expedientes|datos|notas|archivos|historial(?:es)?|mensajes|cuentas"
                       r"|fichas) de "
                       r"(?:otros|todos los|cualquier)\b"),
        "exfiltration": (r"\ba mi (?:dirección|correo|email|cuenta|servidor|número)\b|\breenv[ií]a\w* (?:esta |la "
                         r"|toda )?"
                         r"conversación"),
        "standing": r"\b(?:desde hoy|a partir de (?:hoy|este momento)|de hoy en adelante)\b",
        "dimension": r"\b(?:sencill[oa]|simple|más claro|claramente)\b",
    },
}

#: Forms shared by the four languages' attacks, grouped by what they do: acting under a name,
#: ordering silence, records of *other* people, acting without the user's confirmation, and the
#: copy/paste verbs that hand over the text the agent was given.
SHARED_FORMS: dict[str, dict[str, str]] = {
    "ru": {
        "imperative": r"\b(?:молчи|помалкивай|умалчивай)\b",
        "speech": r"\b(?:молч|помалкива|умалч)\w*",
        "identity": r"\bпод (?:именем|названием|ником)\b",
        "permission": (r"\bбез (?:\w+ )?(?:спроса|подтверждени\w*|разрешени\w*|согласи\w*)"
                       r"|\b(?:других|чужих)\s+(?:\w+\s+)?(?:пользовател|клиент|покупател|аккаунт|абонент|заказчик"
                       r"|учётн"
                       r"|учетн)\w*"),
    },
    "de": {
        "imperative": r"(?:^|(?<=[,:;]))\s*(?:übertrag|übertrage|füge|füg|setze|setz|kopiere|pack|leg|lege|schweig)\b",
        "speech": r"\bschweig\w*",
        "others": r"\begal wer\b",
        "identity": r"\bunter dem namen\b",
        "disclosure": (r"\beinstellungstext\w*|\b(?:text|satz|einstellung\w*|konfiguration\w*)\b[^.!?]{0,40}\b(?:du"
                       r"|dir) "
                       r"(?:zuerst|anfangs|am anfang|ursprünglich|vorher|zu beginn)\b"),
        "permission": (r"\bohne (?:\w+ )?(?:erlaubnis|genehmigung|zustimmung|bestätigung|rückfrage)\b"
                       r"|\b(?:anderer|fremder) (?:konten|nutzer|kunden|accounts|käufer|personen|leute)\b"),
        "exfiltration": r"\ban (?:meine|meinen|mein) \w*(?:mail|adresse|postfach|server|konto|nummer)\w*",
    },
    "fr": {
        "speech": r"\b(?:tais|taire)\b",
        "identity": r"\bsous le nom de\b",
        "permission": (r"\bsans (?:ma |mon |mes |votre |aucune )?(?:confirmation|autorisation|permission|accord)\b"
                       r"|\b(?:des |d')autres (?:comptes|clients|utilisateurs|acheteurs|usagers|personnes)\b"),
    },
    "es": {
        "imperative": (r"(?:^|(?<=[,:;]))\s*(?:pega|inserta|pon|coloca|transcribe|ofrezca|diga|cuente|recomiende"
                       r"|informe"
                       r"|muestre|envíe|haga|presente|promocione)\b|\bte callas\b|\bcállate\b"),
        "speech": r"\b(?:call\w*|ofrezca|diga|cuente|recomiende)\b",
        "identity": r"\bbajo el nombre de\b",
        "you": r"\b(?:actúas|haces|dices|respondes|sigues|obedeces)\b",
        "permission": (r"\bsin (?:mi |tu |su )?(?:confirmación|permiso|autorización)\b"
                       r"|\bde otr[oa]s (?:cuentas|clientes|usuarios|compradores|personas)\b"),
    },
}

#: The agent in the third person ("this assistant recommends our account to every customer"):
#: a clause with the assistant as its subject is an order to it, not a fact about the world.
THIRD_PERSON: dict[str, dict[str, str]] = {
    "ru": {"agent_subject": r"^\s*(?:этот|наш) (?:помощник|ассистент|бот|чат-бот)\b"},
    "de": {"agent_subject": r"^\s*(?:dieser|unser) (?:assistent|bot|chatbot)\b"},
    "fr": {"agent_subject": r"^\s*(?:cet|notre) (?:assistant|bot|chatbot)\b"},
    "es": {"agent_subject": r"^\s*(?:este|nuestro) (?:asistente|bot|chatbot)\b"},
}

#: Russian forms found by this round's own attacks (docs/security.md, "The learned second reader"):
#: a statement that the agent's earlier instructions are cancelled; a second-person verb with no
#: "ты" ("можешь показывать"); a role-play as a model ("представь, что ты модель…", "ИИ без
#: фильтров"); the user's confirmations declared unnecessary.
RUSSIAN_MORE: dict[str, dict[str, str]] = {
    "ru": {
        "override": (r"(?<!мои )(?<!наши )\b(?:прежние|предыдущие|исходные|первоначальные|твои)\s+(?:\w+\s+)?"
                     r"(?:указания|инструкции|установки|распоряжения)\b[^.!?]{0,30}"
                     r"\b(?:отменены|отменяются|недействительны|аннулированы|больше не действуют|утратили силу)"),
        "you": r"\b\w{2,}(?:ешь|ёшь|ишь)\b",
        "identity": (r"\b(?:представь|вообрази|допустим|предположим|пусть),? (?:что|будто) ты\s+(?:\w+\s+){0,2}?"
                     r"(?:модель|ии|бот|ассистент|помощник|персонаж|нейросеть|программа|агент)\b"
                     r"|\b(?:модель|ии|бот|ассистент|помощник|нейросеть)\w* без (?:всяких |каких-либо |любых )?"
                     r"(?:фильтр|цензур)\w*"),
        "permission": (r"\b(?:подтверждени|разрешени|согласи|одобрени)\w* от меня\b[^.!?]{0,20}\b(?:больше )?"
                       r"(?:не нужн|не требу)\w*|\b(?:моё|мое|мои|моего) (?:подтверждени|разрешени|согласи|одобрени)"
                       r"\w*[^.!?]{0,20}\b(?:больше )?(?:не нужн|не требу)\w*"),
    },
}
