"""An audience named by what it does: "whoever complains about delivery", 来问退款的顾客, 返品を聞いてくる
お客様, 항의하는 사람, "Kunden, die die Konkurrenz erwähnen", "кто жалуется…, тому".

A rule about other people rarely says "everyone". It names a class of people by an act of theirs (they
ask, complain, call, mention a rival, request a refund) or by a group that is not the speaker's own
(students from section B, other departments), and then says how the agent treats them. Every language
has one usual form for that, a relative clause on a person noun, so this layer adds to the ``others``
feature:

- a person noun (customer, guest, caller, student, colleague…) tied to a relative clause whose verb is
  an act of asking, complaining, calling, mentioning, requesting, buying (English "people who…",
  "customers mentioning…"; German "Kunden, die…"; French "les invités qui…"; Spanish "a los que
  pregunten…"; Russian "клиентов, которые…", "кто…, тому…"; Chinese 来问…的顾客, 客人抱怨…的话; Japanese
  …してくるお客様には, 新入生から質問が来ても; Korean 항의하는 사람한테는);
- a group named apart from the speaker ("students from section B", 其他部门的人, 他の部署).

``others`` alone orders nothing: "customers who ask about refunds usually want store credit" is still a
fact. The directive grammar needs an order, a rule-filing sentence, or ``treated`` on top of it: the same
people as the recipients of a norm (below; :mod:`memcourse.guards.directives`).
"""

from __future__ import annotations

__all__ = ["AUDIENCE"]

_PEOPLE_EN = (r"(?:people|folks|those|customers?|clients?|users?|guests?|visitors?|callers?|students?|members?"
              r"|shoppers?|buyers?|patients?|parents?|tenants?|subscribers?|applicants?|colleagues?|employees?"
              r"|staff)")
_ACTS_EN = (r"(?:ask\w*|complain\w*|call\w*|mention\w*|request\w*|bring\w* up|want\w*|inquir\w*|enquir\w*|email\w*"
            r"|writ\w+|contact\w*|order\w*|buy\w*|book\w*|sign\w* up|come\w* in|show\w* up|reach\w* out|demand\w*"
            r"|look\w* for|talk\w* about|rais\w+)")

_AUDIENCE = {
    "en": (rf"\b{_PEOPLE_EN}\s+(?:who|that)\s+(?:\w+\s+)?{_ACTS_EN}\b"
           rf"|\b{_PEOPLE_EN}\s+(?:asking|complaining|calling|mentioning|requesting|bringing up|inquiring|enquiring"
           r"|writing in|emailing|contacting|wanting|looking for|demanding)\b"
           r"|\b(?:students?|pupils?|kids|members?|staff|people|teams?|employees?)\s+from\s+(?:section|class"
           r"|group|team|grade|year|shift|department|dept)\b"
           r"|\b(?:other|another|the other)\s+(?:departments?|divisions?|branches?)\b"),
    "de": (r"\b(?:kunden|kundinnen|leute|nutzer\w*|gäste|besucher\w*|kollegen|kolleginnen|schüler\w*|studierende\w*"
           r"|anrufer\w*|mitarbeiter\w*|eltern|mieter\w*|interessenten|bewerber\w*|abonnenten),\s*(?:die"
           r"|welche)\b|\b(?:den|allen) (?:anderen|übrigen) (?:abteilungen|teams|bereichen|filialen"
           r"|standorten)\b|\b(?:kollegen|kolleginnen|leute|mitarbeiter\w*|schüler\w*) (?:aus|von) (?:der|dem"
           r"|den)\b"),
    "fr": (r"\b(?:les |aux |des )?(?:clients?|clientes?|invités?|élèves|visiteurs?|utilisateurs?|gens|personnes"
           r"|collègues|étudiants?|abonnés?|patients?|locataires|parents|appelants?|acheteurs?)\s+qui\b|\b(?:les "
           r"|aux )?autres (?:services|départements|équipes|agences|classes)\b"),
    "es": (r"\ba (?:los|las) que\b|\b(?:los|las) que (?:pregunt|pid|llam|reclam|se quej|escrib|consult|mencion|vengan"
           r"|compr)\w*|\b(?:clientes|alumnos|alumnas|usuarios|invitados|visitantes|compradores|empleados|estudiantes"
           r"|pacientes|inquilinos|padres|socios|suscriptores)\s+(?:que|del|de la|de los)\b|\b(?:los |a los "
           r"|las )?(?:otros|demás) (?:departamentos|equipos|áreas|sucursales|grupos)\b"),
    "ru": (r"\bкто\b[^.!?]{0,50},?\s*(?:тому|тем|им|ему|ей)\b|\b(?:клиент|покупател|посетител|пользовател|гост|коллег"
           r"|сотрудник|абонент|жильц|арендатор|подписчик)\w*,\s*(?:котор\w+|кто)\b|\b(?:други[хем]"
           r"|остальн\w+) (?:отдел\w*|подразделени\w+|команд\w*|филиал\w*)\b"),
    "zh": (r"(?:来|打电话来?|来电|前来|过来)?(?:问|咨询|询问|投诉|抱怨|来要|来找|提到|提起|申请|反馈|催|退货|退款"
           r"|联系|留言|打听|质疑|下单|购买|报名)[^，。,]{0,12}的(?:人|顾客|客户|客人|用户|使用者|买家|会员|家长|学生"
           r"|患者|游客|同学|新生|员工|同事|访客)|(?:客人|顾客|客户|用户|买家|会员|学生|家长|患者|游客|访客|新生"
           r"|其他部门(?:的人|的同事)?|别的部门(?:的人|的同事)?|其他(?:门店|分店|团队|小组)|customers?|clients?"
           r"|users?|guests?)(?:要是|如果)?[^，。]{0,10}(?:问|来要|要求|抱怨|投诉|咨询|来找|提到|催|申请"
           r"|打电话)[^，。]{0,10}(?:的话|的时候|时候)|(?:其他|别的|外)(?:部门|门店|分店|团队|小组|科室)(?:的)?(?:人"
           r"|同事|员工)"),
    "ja": (r"(?:てくる|てきた|出した|出す|挙げた|口にした|聞いた|尋ねた|頼んだ|買った|注文した|申し込んだ|予約した"
           r"|問い合わせた)(?:人|方|お客様|お客さん|客|ユーザー|利用者|生徒|学生|新入生|会員|\s?customers?)"
           r"(?:たち)?\s*(?:に|には|へ|から|は|とは)|(?:新入生|生徒|学生|お客様|お客さん|客|ユーザー|利用者|部下|同僚"
           r"|他の部署|他部署|他の店舗|customers?)(?:の方)?(?:から|に)[^。]{0,10}(?:質問|問い合わせ|連絡|相談|依頼"
           r"|苦情|クレーム)が(?:来|あ)|(?:他の|別の|ほかの)(?:部署|店舗|チーム|クラス)(?:の人|の方)?"),
    "ko": (r"(?:항의|문의|요청|연락|전화|언급|불평|컴플레인|질문|물어보)(?:하는|한|해 오는|해오는|하시는|해 온|해온"
           r"|는)?\s*(?:사람|분|고객|손님|사용자|이용자|학생|회원|customers?|clients?)\s*들?\s*(?:한테|에게|께|은|는"
           r"|이|가|을|를)|(?:다른|타) (?:부서|팀|지점|매장|반)(?:의)?\s*(?:사람|직원|분)?"),
}

#: Other people as the *recipients* of a norm: a modal or a passive that says they are to be told, offered,
#: steered or refused something ("should be steered to…", "sollen … gelenkt werden", "hay que decirles",
#: "надо переводить", 一律说…, …には…と説明して, …한테는 …라고 해). Their own duties ("customers who order must pay a
#: deposit", "alle Mitarbeiter müssen um neun da sein") make them the subject, not the recipient, and do not match.
_TREATED = {
    "en": r"\b(?:must|should|shall|is to|are to|needs? to|has to|have to|ought to)\s+(?:not\s+|never\s+|always\s+"
          r"|only\s+)?be\s+(?:\w+ly\s+)?(?:told|given|offered|steered|shown|pointed|sent|refused|denied|informed"
          r"|directed|redirected|pitched|quoted|charged|answered|warned|referred|handed|promised|recommended|suggested"
          r"|mentioned)\b|\b(?:is"
          r"|are)\s+not\s+to\s+be\s+(?:told|given|offered|shown|informed|sent|pointed|steered)\b|\bgets?\s+(?:pointed"
          r"|steered|offered|pitched|redirected|quoted)\b",
    "de": r"\b(?:soll|sollen|sollte|sollten|muss|müssen)\b[^.!?]{0,60}\b(?:gesagt|gelenkt|angeboten|informiert"
          r"|mitgeteilt|verwiesen|weitergeleitet|empfohlen|genannt|erklärt|vertröstet|abgewimmelt|berechnet"
          r"|verweigert)\s+werden\b|\bman sagt ihnen\b",
    "fr": r"\b(?:doi\w+|faut|devr\w+)\s+(?:pas\s+|jamais\s+|toujours\s+)?(?:être\s+(?:informé\w*|orienté\w*"
          r"|redirigé\w*|dirigé\w*|proposé\w*)|leur\s+(?:dire|proposer|expliquer|répondre|donner|offrir|montrer"
          r"|indiquer|envoyer))\b|\bon leur (?:dit|propose|répond|donne|offre|explique)\b"
          # the future of a norm ("on lui dira que…")
          r"|\bon (?:leur|lui) (?:dira|proposera|répondra|donnera|offrira|expliquera|recommandera|conseillera)\b",
    "es": r"\b(?:hay que|deben?|tienes? que|se (?:debe|tiene que))\s+(?:no\s+)?(?:decir|contar|ofrecer|explicar"
          r"|recomendar|mandar|enviar|dar|informar|avisar|cobrar|negar|responder)(?:le|les)(?:lo|la|los"
          r"|las)?\b|\bse les? (?:dice|cobra|ofrece|da|niega|responde|recomienda)\b"
          # the subjunctive of a norm ("que no se le mencione…", "se le recomiende…")
          r"|\bse les? (?:diga|digan|cobre|ofrezca|dé|niegue|responda|recomiende|mencione|mencionen|explique|oculte"
          r"|cuente|mande|envíe|informe)\b",
    # (Russian puts the one who must act in the dative: "тому надо говорить" is their duty, so the verb must
    # take the audience as its object, or "им" must follow the modal)
    "ru": r"\b(?:надо|нужно|следует|необходимо)\s+(?:им|ему)\s+(?:не\s+)?(?:говорить|сказать|предлагать|предложить"
          r"|отвечать|ответить|отказывать|отказать|рекомендовать|советовать|называть|давать)\b|\b(?:надо|нужно"
          r"|следует|необходимо)\s+(?:не\s+)?(?:переводить|перевести|направлять|направить|перенаправлять"
          r"|отправлять)\b|\b(?:им|ему|тем)\s+(?:говорим|отвечаем|даём|предлагаем|называем|отказываем)\b",
    "zh": r"一律(?:只)?(?:说|回复|回答|告诉|推荐|推|给|拒绝|报|收)|(?:告诉|跟)他们(?:说)?"
          r"|(?:都|就)要?先?(?:推荐|推销|推)",
    "ja": r"(?:には|に対しては|へは)[^。]{0,30}(?:と(?:説明|案内|伝え|言)(?:して|する|しておく|っておいて)"
          r"|(?:を)?(?:勧め|案内|紹介|伝え|教え|伏せ)(?:て|る|ておく|ておいて)|で対応(?:する|して))",
    "ko": r"(?:한테는|에게는|께는)[^.!?]{0,30}(?:라고 (?:하고|해|말해|안내해|설명해)|(?:얘기|말|안내|설명|추천"
          r"|제안)(?:하지 마|해 줘|하고)|(?:주고|줘라))",
}

#: What the audience *receives* ("customers who complain get a free coffee", "bekommt nur einen Gutschein",
#: "n'ont droit qu'à un avoir", 一律只给代金券): a treatment, which a sentence filing it as "the rule now" makes
#: a rule. "Anyone who's late buys coffee for the team. That's the rule now" is the group's own duty.
_RECEIVES = {
    "en": r"\b(?:gets?|receives?|(?:is|are) (?:given|offered|told|charged|refused|denied|pointed|steered|sent)"
          r"|(?:don'?t|doesn'?t|do not|does not) get|(?:have|has) no access|(?:is|are) entitled|discounts?|coupons?"
          r"|vouchers?)\b",
    "de": r"\b(?:bekommt|bekommen|erhält|erhalten|kriegt|kriegen|(?:wird|werden) (?:\w+ )?(?:angeboten|gesagt"
          r"|berechnet|verweigert|gegeben)|rabatt\w*|gutschein\w*)\b",
    "fr": r"\b(?:reçoi\w+|ont droit|a droit|n'ont (?:pas )?(?:accès|droit)|n'a (?:pas )?(?:accès|droit)"
          r"|on leur (?:dit|donne|propose|offre)|remises?|réductions?|bons? d'achat)\b",
    "es": r"\b(?:recibe\w*|reciben|tienen derecho|tiene derecho|no tienen acceso|se les? (?:da|dan|dice|cobra|ofrece"
          r"|niega)|descuentos?|cupones?|cupón|vales?)\b",
    "ru": r"\b(?:получа\w+|получит\w*|даём|даем|дают|выдаём|выдают|скидк\w+|бонус\w*|купон\w*)\b",
    "zh": r"只给|一律给|一律送|给(?:他们|她们)|送(?:他们|一)|得到|拿到|享受|只能拿|不给|打.?折|减免|免单|优惠|代金券",
    "ja": r"もらえ|差し上げ|お渡し|渡す|渡して|で対応|ご案内|案内する|割引|クーポン",
    "ko": r"받(?:는|을|아|습)|드려|드리|주고|준다|줍니다|할인|쿠폰|적립금",
}

#: The user's own place named as where it happens ("in my store", "per the Airbnb listing", 我们店里,
#: うちの店では, "in meinem Laden"): a description of how the user's world works, told by someone who works
#: there, not an order to the agent (the treated-norm and filing readings are skipped for it).
_OWN_PLACE = {
    "en": r"\b(?:in|at) (?:my|our) (?:store|shop|job|work|office|school|class|classroom|hotel|restaurant|café|cafe"
          r"|bar|pharmacy|gym|clinic|practice|salon|bakery|company|business|building)\b|\b(?:my|our) (?:shopify "
          r"|etsy |online )?(?:store|shop) works\b|\bper the (?:\w+ )?(?:listing|handbook|contract"
          r"|policy)\b|\bthe (?:hotel|school|company|store|shop|gym|club|theatre|theater|university|restaurant"
          r"|landlord|coach)'s (?:policy|rule)",
    "de": r"\b(?:in|bei) (?:meinem|unserem|meiner|unserer) (?:laden|geschäft|job|büro|firma|schule|klasse|hotel"
          r"|restaurant|café|praxis|apotheke|verein|team)\b",
    "fr": r"\b(?:dans|à|chez) (?:mon|ma|notre|nous au) (?:magasin|boutique|travail|bureau|école|classe|hôtel"
          r"|restaurant|café|pharmacie|club|entreprise|cabinet)\b",
    "es": r"\ben (?:mi|nuestra|nuestro) (?:tienda|negocio|trabajo|oficina|escuela|clase|hotel|restaurante|café"
          r"|farmacia|gimnasio|club|empresa|consulta)\b|\basí lo hace (?:la|el|mi)\b",
    "ru": r"\b(?:в|на) (?:моём|моем|нашем|моей|нашей) (?:магазине|работе|офисе|школе|классе|отеле|ресторане|кафе"
          r"|аптеке|клубе|компании|салоне)\b",
    "zh": r"(?:我们|我的|咱们)(?:店里?|公司里?|学校里?|班上|餐厅|酒店|药店|门店|诊所|健身房)",
    "ja": r"(?:うちの|私の)(?:店|会社|学校|クラス|ホテル|レストラン|薬局|ジム|クリニック)(?:で|では)",
    "ko": r"(?:우리|제|내) (?:가게|회사|학교|반|호텔|식당|약국|헬스장|병원)(?:에서|에서는|는)",
}

#: The user reporting what they told their own people ("I told my waiters that every guest gets water",
#: 我跟店里的小工说了，以后每个顾客…, "les he dicho a mis camareros que…"): what follows is what was said to
#: the staff, the class or the children, not an order to the agent (a blind set, round 17).
_TOLD_OWN = {
    "en": r"\b(?:i|we)(?: have| had|'ve|'d)? (?:told|asked|instructed|reminded|informed) (?:all )?(?:my|our) (?:\w+ )?"
          r"(?:staff|employees|team|workers|waiters|servers|cashiers|kids|children|students|class|crew|nurses"
          r"|drivers|volunteers|colleagues|interns|people|guys|baristas|cooks|reports)\b",
    "de": r"\b(?:ich|wir) (?:habe|haben|hab|hatte|hatten) (?:allen )?(?:meinen|unseren|meiner|unserer) \w+ (?:\w+ )?"
          r"(?:gesagt|erklärt|aufgetragen|mitgeteilt|eingeschärft)|\b(?:ich|wir) (?:sagte|sagten|erklärte) "
          r"(?:meinen|unseren) \w+",
    "fr": r"\b(?:j'ai|nous avons|je leur ai|on a) (?:bien )?(?:dit|demandé|expliqué|rappelé|indiqué) (?:à|aux) "
          r"(?:tous )?(?:mes|nos|mon|ma) \w+",
    "es": r"\b(?:les? )?(?:he|hemos|había|habíamos) (?:dicho|pedido|indicado|explicado|recordado) a (?:todos )?"
          r"(?:mis|nuestros|nuestras|mi) \w+"
          r"|\b(?:les? )?(?:dije|pedí|indiqué|expliqué) a (?:mis|nuestros|nuestras) \w+",
    "ru": r"\b(?:я|мы) (?:сказал\w*|попросил\w*|объяснил\w*|велел\w*|напомнил\w*) (?:всем )?(?:своим|моим|нашим) \w+",
    "zh": r"我(?:们)?(?:已经)?(?:跟|和|对|给|告诉|通知|叮嘱|交代|吩咐)了?"
          r"(?:店里的?|我们的?|我的|公司的?|手下的?|班上的?)?"
          r"[^，,。]{0,4}?(?:员工|店员|小工|伙计|工人|师傅|服务员|学生|孩子|同事|下属|手下|团队|大家)(?:们)?"
          r"(?:说|讲|交代|强调|叮嘱)?(?:了|过)",
    "ja": r"(?:スタッフ|従業員|社員|店員|バイト|アルバイト|部下|生徒|子供|子ども|チーム|同僚)"
          r"(?:たち|達|全員|みんな)?に[^。]{0,40}"
          r"(?:伝えた|言った|指示した|頼んだ|お願いした|伝えました|言いました|指示しました|お願いしました)",
    "ko": r"(?:제가|내가|저는|나는) (?:\S+ )?(?:직원|알바생?|아르바이트생|팀원|학생|아이|애들|부하|동료)"
          r"(?:들)?(?:에게|한테)"
          r"[^.]{0,40}(?:말했|전했|지시했|부탁했|얘기했|이야기했)",
}

#: What someone told or taught the user, or advice the user was given ("my boss told me…", "Mi jefe me dijo:
#: desde mañana eres…", "Tip from my negotiation course: if the buyer questions you…", 아빠가 … 넌 … 된다고
#:하셨어): reported speech, where "you" is the user. The grammar reads it as a fact unless it names an AI.
_TOLD_ME = {
    "en": r"\b(?:told|taught|advised|reminded|warned|texted|messaged|emailed) me\b|\b(?:tip|advice|lesson|rule of thumb"
          r"|motto) (?:from|of) (?:my|our)\b|\b(?:my|our) \w+(?: \w+)? (?:always |once |just )?(?:said|says|used to say"
          r"|decided|insists)\b",
    "es": r"\bme (?:dijo|dijeron|dice|decía|enseñó|aconsejó|recordó|advirtió|escribió|escribieron)\b"
          r"|\b(?:consejo|truco|lección) de (?:mi|mis|nuestr\w+)\b"
          r"|\bsiempre (?:decía|dice)\b",
    "fr": r"\bm'(?:a|ont) (?:dit|appris|conseillé|rappelé|écrit)\b|\bme (?:disait|dit)\b|\b(?:conseil|astuce"
      r"|leçon) de (?:mon|ma|mes|notre)\b"
          r"|\btoujours dit\b",
    "de": r"\b(?:hat|haben) mir (?:\w+ )?(?:gesagt|beigebracht|geraten|erklärt|mitgegeben|geschrieben)\b"
          r"|\b(?:sagte|meinte) (?:immer|mir)\b"
          r"|\b(?:tipp|rat|ratschlag) (?:von|aus) (?:mein\w*|unser\w*)\b|\bmein\w* \w+ sagt\b",
    "ru": r"\b(?:сказал\w*|говорил\w*|советовал\w*|учил\w*|объяснил\w*|написал\w*) мне\b|\bмне (?:сказал\w*"
          r"|говорил\w*|советовал\w*)\b"
          r"|\b(?:совет|урок) (?:от )?(?:мо\w+|наш\w+)\b|\b(?:коллега|начальник|шеф|друг|подруга|мама|папа) "
          r"(?:рассказывал\w*|рассказал\w*|говорил\w*)\b",
    "zh": r"跟我说过|对我说过|告诉我说|教我的|(?:我妈|我爸|老师|教练|师傅)(?:常|总是|一直|以前)?(?:说|讲)过?"
          r"|(?:老板|经理|领导|主管|同事|老师|朋友)[^，。,]{0,6}说(?:了|过)",
    "ja": r"(?:に|から)言われた|って言われ|と言われ|(?:に|から)教わった|(?:母|父|先生|コーチ)(?:が"
          r"|は)(?:いつも)?言って|(?:が|の)言うには|によると",
    "ko": r"(?:다|라|자)고 (?:하셨|하셔서|했|해서|말했|말씀하셨)|(?:라는|이라는) 말을 들었|(?:한테서|에게서) 배운",
}

#: The user's own world named as the place where something happens ("at my office", "dans la boulangerie de mes
#: parents", "en la clínica de mi madre"): a norm for people there is that place's habit, told as news.
_MINE = {
    "en": r"\b(?:at|in) (?:my|our) \w+|\b(?:at|in) (?:the|a) \w+ (?:where (?:i|we) work|of my \w+)"
          r"|\bmy \w+'s (?:rule|policy)",
    "es": r"\ben (?:mi|mis|nuestr[oa]s?) \w+|\ben (?:la|el) \w+ de (?:mi|mis|nuestr[oa]s?) \w+",
    "fr": r"\b(?:dans|à|chez) (?:mon|ma|mes|notre|nos) \w+|\b(?:dans|à) (?:la |le |l')\w+ (?:de|d') ?(?:mon"
      r"|ma|mes|notre"
          r"|nos) \w+",
    "de": r"\b(?:in|bei|an) (?:meine\w*|unsere\w*) \w+|\bin (?:der|dem) \w+ (?:meine\w*|unsere\w*) \w+",
    "ru": r"\bв (?:мо\w+|наш\w+) \w+|\bу (?:мо\w+ \w+|нас)\b",
}

AUDIENCE: dict[str, dict[str, str]] = {
    lang: {"others": _AUDIENCE[lang], "treated": _TREATED[lang], "receives": _RECEIVES[lang],
           "own_place": _OWN_PLACE[lang], "told_own": _TOLD_OWN[lang], "told_me": _TOLD_ME[lang],
           **({"mine": _MINE[lang]} if lang in _MINE else {})}
    for lang in _AUDIENCE
}
