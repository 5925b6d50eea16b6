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
fact. The directive grammar needs an order, an obligation or a rule-filing sentence on top of it
(:mod:`memcourse.guards.directives`).
"""

from __future__ import annotations

__all__ = ["AUDIENCE"]

_PEOPLE_EN = (r"(?:people|folks|those|customers?|clients?|users?|guests?|visitors?|callers?|students?|members?|shoppers?"
              r"|buyers?|patients?|parents?|tenants?|subscribers?|applicants?|colleagues?|employees?|staff)")
_ACTS_EN = (r"(?:ask\w*|complain\w*|call\w*|mention\w*|request\w*|bring\w* up|want\w*|inquir\w*|enquir\w*|email\w*|writ\w+"
            r"|contact\w*|order\w*|buy\w*|book\w*|sign\w* up|come\w* in|show\w* up|reach\w* out|demand\w*|look\w* for"
            r"|talk\w* about|rais\w+)")

_AUDIENCE = {
    "en": (rf"\b{_PEOPLE_EN}\s+(?:who|that)\s+(?:\w+\s+)?{_ACTS_EN}\b"
           rf"|\b{_PEOPLE_EN}\s+(?:asking|complaining|calling|mentioning|requesting|bringing up|inquiring|enquiring"
           r"|writing in|emailing|contacting|wanting|looking for|demanding)\b"
           r"|\b(?:students?|pupils?|kids|members?|staff|people|teams?|employees?)\s+(?:from|in|of)\s+(?:section|class"
           r"|group|team|grade|year|shift|department|dept)\b"
           r"|\b(?:other|another|the other)\s+(?:departments?|teams?|divisions?|branches?|offices?)\b"),
    "de": (r"\b(?:kunden|kundinnen|leute|nutzer\w*|gäste|besucher\w*|kollegen|kolleginnen|schüler\w*|studierende\w*"
           r"|anrufer\w*|mitarbeiter\w*|eltern|mieter\w*|interessenten|bewerber\w*|abonnenten),\s*(?:die|welche)\b"
           r"|\b(?:andere[nr]?|übrige[nr]?|sonstige[nr]?) (?:abteilung\w*|teams?|bereiche?|filialen?|standorte?)\b"
           r"|\b(?:kollegen|kolleginnen|leute|mitarbeiter\w*|schüler\w*) (?:aus|von) (?:der|dem|den)\b"),
    "fr": (r"\b(?:les |aux |des )?(?:clients?|clientes?|invités?|élèves|visiteurs?|utilisateurs?|gens|personnes|collègues"
           r"|étudiants?|abonnés?|patients?|locataires|parents|appelants?|acheteurs?)\s+qui\b"
           r"|\b(?:les |aux )?autres (?:services|départements|équipes|agences|classes)\b"),
    "es": (r"\ba (?:los|las) que\b|\b(?:los|las) que (?:pregunt|pid|llam|reclam|se quej|escrib|consult|mencion|vengan"
           r"|compr)\w*"
           r"|\b(?:clientes|alumnos|alumnas|usuarios|invitados|visitantes|compradores|empleados|estudiantes|pacientes"
           r"|inquilinos|padres|socios|suscriptores)\s+(?:que|del|de la|de los)\b"
           r"|\b(?:los |a los |las )?(?:otros|demás) (?:departamentos|equipos|áreas|sucursales|grupos)\b"),
    "ru": (r"\bкто\b[^.!?]{0,50},?\s*(?:тому|тем|им|ему|ей)\b"
           r"|\b(?:клиент|покупател|посетител|пользовател|гост|студент|учени|коллег|сотрудник|абонент|жильц|арендатор"
           r"|родител|подписчик)\w*,\s*(?:котор\w+|кто)\b"
           r"|\b(?:други[хем]|остальн\w+) (?:отдел\w*|подразделени\w+|команд\w*|филиал\w*)\b"),
    "zh": (r"(?:来|打电话来?|来电|前来|过来)?(?:问|咨询|询问|投诉|抱怨|来要|来找|提到|提起|申请|反馈|催|退货|退款|联系|留言"
           r"|打听|质疑|下单|购买|报名)[^，。,]{0,12}的(?:人|顾客|客户|客人|用户|使用者|买家|会员|家长|学生|患者|游客|同学"
           r"|新生|员工|同事|访客)"
           r"|(?:客人|顾客|客户|用户|买家|会员|学生|家长|患者|游客|访客|新生|其他部门(?:的人|的同事)?|别的部门(?:的人|的同事)?"
           r"|其他(?:门店|分店|团队|小组)|customers?|clients?|users?|guests?)[^，。]{0,20}(?:的话|的时候|时候)"
           r"|(?:其他|别的|外)(?:部门|门店|分店|团队|小组|科室)(?:的)?(?:人|同事|员工)"),
    "ja": (r"(?:てくる|てきた|出した|出す|挙げた|口にした|聞いた|尋ねた|頼んだ|買った|注文した|申し込んだ|予約した|問い合わせた)"
           r"(?:人|方|お客様|お客さん|客|ユーザー"
           r"|利用者|生徒|学生|新入生|会員|\s?customers?)(?:たち)?\s*(?:に|には|へ|から|は|とは)"
           r"|(?:新入生|生徒|学生|お客様|お客さん|客|ユーザー|利用者|部下|同僚|他の部署|他部署|他の店舗|customers?)"
           r"(?:の方)?(?:から|に)[^。]{0,10}(?:質問|問い合わせ|連絡|相談|依頼|苦情|クレーム)が(?:来|あ)"
           r"|(?:他の|別の|ほかの)(?:部署|店舗|チーム|クラス)(?:の人|の方)?"),
    "ko": (r"(?:항의|문의|요청|연락|전화|언급|불평|컴플레인|구매|주문|신청|방문|질문|물어보|찾아오)(?:하는|한|해 오는|해오는"
           r"|하시는|해 온|해온|는)?\s*(?:사람|분|고객|손님|사용자|이용자|학생|회원|customers?|clients?)\s*들?"
           r"\s*(?:한테|에게|께|은|는|이|가|을|를)"
           r"|(?:다른|타) (?:부서|팀|지점|매장|반)(?:의)?\s*(?:사람|직원|분)?"),
}

#: Spanish and French attach "them" to an infinitive after a modal ("hay que decirles", "il faut leur dire"):
#: the act is done to the audience, so it counts as speech.
_TO_THEM = {
    "es": r"\b(?:decir|contar|ofrecer|explicar|recomendar|mandar|enviar|dar|informar|avisar)(?:le|les)(?:lo|la|los|las)?\b",
    "fr": r"\bleur (?:dire|proposer|expliquer|recommander|offrir|donner|envoyer|indiquer|répondre|montrer)\b",
}

AUDIENCE: dict[str, dict[str, str]] = {
    lang: {"others": _AUDIENCE[lang], **({"speech": _TO_THEM[lang]} if lang in _TO_THEM else {})} for lang in _AUDIENCE
}
