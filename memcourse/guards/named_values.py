"""Credentials and identifiers a message *names and gives*, read in a window after the name.

Why a reader beside ``secrets.py``'s label-then-value patterns: those need the words between a
label and its value to be a connector they know ("is", "ist", "c'est", "は"), and every tense,
word order and language brings a new one: "Cambié la contraseña de Netflix, ahora es …",
"Пароль от госуслуг у меня …", "비번 바꿨어 ㅎㅎ 이제 … 로 로그인하면 돼", "Der Code für den
Schlüsseltresor an der Ferienwohnung ist …". A person reads these differently: a word that names
a credential or an identity document, then, in the same sentence, something that could only be
its value. That is what this module does:

- a **concept** is what is named (a password, an access code, a key or token, an identity
  document, a passport, a bank account, a phone number), with its words in every gate language
  (English, Chinese, Japanese, Korean, Spanish, German, French, Russian; inflected forms by stem);
- its **value test** is a shape, not a vocabulary: a password mixes letters with digits or
  symbols, a code is four or more digits, an identity number has five or more, a token is long
  and mixes letters and digits; a quotation after a password's name is its value whatever it says;
- the **window** is the rest of the sentence, at most :data:`WINDOW` characters;
- what is *not* a value is said once for every concept: dates, times, amounts with a unit or a
  currency, ranges, version numbers, and a word that is the object of a place preposition
  ("stored in 1Password", "im KeePass2") — it says where the secret is, not what it is.

Two shapes need no name at all (``bare_secrets.py``): a run of twelve or more words from one
BIP-39 word list and a URL that carries a key; :func:`find_named_values` reports them too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memcourse.guards.bare_secrets import recovery_phrases, secret_urls
from memcourse.guards.findings import Finding, mask
from memcourse.guards.folded import FoldedPattern, either_case
from memcourse.guards.normalise import Normalised, View, fold_text
from memcourse.guards.values import QUANTITY, TOPIC_AFTER, count_digits, count_letters, is_placeholder

__all__ = ["CONCEPTS", "WINDOW", "find_named_values"]

#: How far after a name its value may be: one sentence, at most this many characters.
WINDOW = 90

_B = r"(?<!\w)"  # a word starts here (not inside "2fa0c1", a hex string)
_E = r"(?!\w)"  # and ends here

# -- the names, per concept, in every gate language ------------------------------------------
_PASSWORD = (
    # en
    rf"{_B}(?:pass(?:word|wd|phrase|code)s?|pass ?phrase|pwd|pw|code ?word|security answer|secret answer"
    rf"|(?:wi-?fi|wlan|network|wpa2?|router) ?(?:key|pass)){_E}"
    # es
    rf"|{_B}(?:contraseñas?|contra|claves?(?! (?:de )?(?:api|privada|pública|publica)\b)|respuesta de seguridad"
    rf"|palabra clave|frase de (?:contraseña|paso)){_E}"
    # de (compounds: Masterpasswort, WLAN-Kennwort)
    rf"|\w*(?:passwort|kennwort|passwörter|netzwerkschlüssel|sicherheitsfrage|sicherheitsantwort){_E}"
    # fr
    rf"|{_B}(?:mots? de passe|mdp|phrase (?:de passe|secrète)|clé de sécurité|réponse secrète|code secret){_E}"
    # ru
    rf"|{_B}(?:парол\w*|кодов\w* слов\w*|секретн\w* слов\w*)"
    # ko, ja, zh
    r"|비밀번호|비번|암호문?|패스워드|비밀 ?복구 ?구문|パスワード|パスフレーズ|合言葉|暗号化キー"
    r"|密码|密碼|口令|通關密語|通关密语"
)
#: Names of a phrase used as a password: its value is the words after a colon or a dash.
_PASSPHRASE = (
    rf"{_B}(?:pass ?phrases?|secret phrase|frases? de (?:contraseña|paso)|frase secreta|passphrase|passsatz|"
    rf"phrases? (?:de passe|secrète)|парольн\w* фраз\w*|кодов\w* фраз\w*){_E}"
    r"|암호문|패스프레이즈|パスフレーズ|合言葉|通關密語|通关密语|口令短语"
)
#: Names of a code that opens or confirms something (a PIN, a one-time code, a door or safe code,
#: recovery codes): specific enough on their own.
_CODE = (
    rf"{_B}(?:pin|pin[ \-]?(?:code|number|nummer)|(?-i:TAN)|otp|2fa|mfa|passcode|digicode|keypad code|"
    rf"(?:verification|security|confirmation|recovery|backup|unlock|door|gate|alarm|garage|safe|locker|lock|entry)"
    rf"[ \-]?codes?|combination|"
    rf"códigos? de (?:verificación|seguridad|respaldo|recuperación|desbloqueo|acceso|confirmación)|combinación|"
    rf"wiederherstellungscodes?|sicherheitscode|entsperrcode|zugangscode|bestätigungscode|türcode|torcode|alarmcode|"
    rf"tresorcode|zahlencode|zahlenkombination|(?:zahlen|kombinations|fahrrad)schloss|(?:handy|sim|karten|ec)-?pin|"
    rf"codes? (?:de (?:vérification|sécurité|secours|récupération|déverrouillage|confirmation|accès)|pin)|combinaison|"
    rf"пин\w*|пин-код\w*|резервн\w* код\w*|код\w* (?:подтвержд\w*|доступа|разблокир\w*)|комбинац\w*){_E}"
    r"|자물쇠 ?(?:번호|비번)|南京錠の番号|密码锁密码"
    r"|인증 ?번호|인증 ?코드|복구 ?코드|백업 ?코드|보안 ?코드|OTP|비밀번호 네 자리|"
    r"暗証番号|認証コード|確認コード|認証番号|ワンタイムパスワード|リカバリーコード|バックアップコード|"
    r"验证码|驗證碼|校验码|动态码|安全码|恢复码|备用码|開鎖碼|开锁码|门禁码|門禁碼|密碼鎖|密码锁"
)
#: A word that is just "code" in some language: a code only when something it opens or confirms
#: is named in the same sentence (:data:`_ACCESS`), and never a postal, error or promotion code.
_GENERIC_CODE = rf"{_B}(?:codes?|código|codigo|kod|код\w*){_E}|코드|コード|[密]?[码碼]|番号|번호|号码|號碼"
_ACCESS = (
    r"door|gate|building|portal|entry|intercom|buzzer|alarm|safe|locker|lock|padlock|keypad|garage|mailbox|"
    r"sms|text(?:ed)?|verif|confirm|login|log in|sign[ -]?in|unlock|bank|card|phone|wi-?fi|"
    r"puerta|portal|portero|caja fuerte|candado|alarma|buzón|verificaci|desbloque|acceso|tarjeta|"
    r"tür|haus|schloss|tresor|schlüsselsafe|schlüsseltresor|alarmanlage|briefkasten|bestätigung|entsperr|zugang|"
    r"porte|portail|immeuble|interphone|coffre|cadenas|alarme|boîte aux lettres|vérification|déverrouill|accès|"
    r"двер|подъезд|домофон|сейф|зам[окк]|сигнализац|смс|sms|подтвержд|разблокир|доступ|карт|"
    r"현관|도어락|금고|자물쇠|사물함|경보|문자|인증|잠금|ドア|玄関|金庫|ロッカー|南京錠|認証|ロック|"
    r"门禁|門禁|保险柜|保險箱|保险箱|锁|鎖|信箱|短信|简讯|簡訊|验证|驗證|解锁|解鎖"
)
_NOT_ACCESS = (
    r"post|zip|error|fehler|erreur|ошибк|status|promo|coupon|discount|rabatt|gutschein|réduction|descuento|"
    r"скидк|купон|промо|country|area|region|região|регион|product|artikel|article|item|товар|course|kurs|"
    r"source|quell|qr|bar|hex|colou?r|farb|ISO|iata|airport|booking|reserv|buchung|бронир|tracking|"
    r"sendungs|suivi|seguimiento|отслеж|order|bestell|commande|pedido|заказ|invoice|rechnung|facture|factura|"
    r"счет-фактур|邮政|郵便|郵遞|우편|错误|エラー|오류|优惠|クーポン|할인|쿠폰"
)
_KEY = (
    rf"{_B}(?:api[ _\-]?keys?|apikey|access[ _\-]?(?:key|token)s?|secret[ _\-]?keys?|client[ _\-]?secrets?|"
    rf"(?:auth|bearer|bot|session|refresh|personal access|api) ?tokens?|tokens?|webhooks?|private[ _\-]?keys?|"
    rf"licen[cs]e[ _\-]?keys?|encryption key|recovery key|bitlocker(?: key)?|wiederherstellungsschlüssel|"
    rf"clé de récupération|clave de recuperación|ключ\w* восстановлени\w*|"
    rf"clave (?:de )?api|clave privada|llave privada|api-schlüssel|privater schlüssel|geheimer schlüssel|"
    rf"lizenzschlüssel|zugangstoken|clé (?:d'?api|api|privée|secrète|d'accès|de licence)|jetons?|"
    rf"api-ключ\w*|ключ\w* api|токен\w*|вебхук\w*|закрыт\w* ключ\w*|приватн\w* ключ\w*|секретн\w* ключ\w*){_E}"
    r"|복구 ?키|回復キー|回复密钥|恢复密钥|復原金鑰"
    r"|API ?키|토큰|웹훅|개인 ?키|비밀 ?키|APIキー|トークン|秘密鍵|アクセスキー"
    r"|API ?密钥|API ?金鑰|令牌|權杖|权杖|私钥|私鑰|密钥|秘钥"
)
_IDENTITY = (
    rf"{_B}(?:national id(?: number)?|id card(?: number)?|identity (?:card|number)|social security(?: number)?|"
    rf"tax id|driver'?s? licen[cs]e(?: number)?|my number|"
    rf"(?-i:DNI|NIE|NIF|NIR|AVS|SSN|ИНН)|número de identidad|seguridad social|"
    rf"\w*ausweis\w*|steuer-?id|steueridentifikationsnummer|sozialversicherungsnummer|rentenversicherungsnummer|"
    rf"numéro de sécurité sociale|sécurité sociale|numéro de sécu|sécu|carte vitale|carte d'identité|registre national|"
    rf"снилс\w*|паспорт\w*|удостоверени\w*){_E}"
    r"|주민등록번호|주민번호|외국인등록번호|운전면허번호|身份证号?码?|身分證(?:字號|號碼)?|身份證(?:號碼)?|社保号|"
    r"マイナンバー|個人番号|免許証番号"
)
_PASSPORT = (
    rf"{_B}(?:passports?(?: number| no\.?)?|pasaporte|reisepass\w*|passnummer|passeport|загранпаспорт\w*){_E}"
    r"|여권 ?번호|여권|护照号?码?|護照號?碼?|パスポート番号|旅券番号"
)
_ACCOUNT = (
    rf"{_B}(?:bank account|account number|routing number|(?-i:IBAN|CLABE|RIB)|compte(?: bancaire)?|"
    rf"cuenta(?: bancaria)?|número de cuenta|konto\w*|bankverbindung|сч[её]т\w*|реквизит\w*|"
    rf"(?-i:BIK|БИК)){_E}"
    r"|계좌\w*|통장|口座(?:番号)?|振込先|普通預金|普通|銀行帳戶|帳號|账号|账户|銀行卡號|银行卡号"
)
#: A card number's name: a labelled card number counts even when a digit was mistyped (no Luhn).
_CARD = (
    rf"{_B}(?:card number|credit card|debit card|número de (?:la )?tarjeta|tarjeta|kartennummer|kreditkarte\w*|"
    rf"numéro de (?:la )?carte|carte bancaire|carte bleue|номер\w* карт\w*|карт[аыуе]){_E}"
    r"|카드 ?번호|카드|カード番号|クレジットカード|卡号|卡號|信用卡|银行卡|銀行卡"
)
_PHONE = (
    rf"{_B}(?:phone(?: number)?|mobile|cell(?: phone)?|tel|móvil|movil|celular|teléfono|telefono|"
    rf"handy\w*|telefon\w*|mobilnummer|portable|téléphone|numéro perso|numéro de portable|"
    rf"телефон\w*|мобильн\w*|сотов\w*){_E}"
    r"|전화\w*|휴대폰|핸드폰|폰 ?번호|電話番号|携帯|手机号?|手機號?|电话|電話|联系方式"
)


#: Right after a name, where it is kept rather than what it is: "is on the router's sticker",
#: "está en el cajón", "steht auf der Rückseite", "лежит в ящике", "est dans le tiroir".
_KEPT_AT = re.compile(
    r"^\s*(?:is|are|was|'s|est|ist|liegt|steht|klebt|está|esta|estaba|находится|лежит|записан\w*)\s+"
    r"(?:on|in|at|inside|under|behind|written on|sur|dans|sous|derrière|auf|im|unter|hinter|an der|am|en|sobre|"
    r"bajo|detrás|dentro|на|в|под|за)(?!\w)", re.I)
# -- what a value looks like ---------------------------------------------------------------
#: A word-like token: anything up to a space or punctuation that ends a phrase.
#: (Chinese and Japanese are not written with spaces: a run of their characters is a token of its
#: own, so "は90日ごとに" reads as "は", "90", "日ごとに", and "密码是abc123" as "密码是", "abc123".)
_CJK = "\u3040-\u30ff\u3400-\u9fff"
_TOKEN = re.compile(rf"[{_CJK}]+|[^\s\"'“”‘’«»„‹›「」『』《》()\[\]{{}}<>,，。;；、！？{_CJK}]+")
#: Digits in groups ("3 8 1 9 0 6", "0-4-7-2", "582 041", "8245 1937"): one separator at a time.
_DIGIT_RUN = re.compile(r"(?<![\w.\-/#])\+?\d(?:[ \-.·/]?\d)*(?![\d])")  # (not the tail of "INC-204981")
_QUOTATION = re.compile(r"[\"“„«‹「『'‘]\s*(?P<inner>[^\"“”„«»‹›「」『』'‘’\n]{3,80}?)\s*[\"”»›」』'’]")
_DATE = re.compile(r"^\d{1,4}([./\-])\d{1,2}(?:\1\d{1,4})?$|^\d{1,2}:\d{2}(?::\d{2})?$|^\d{1,2}/\d{4}$")
_RANGE = re.compile(r"^\d{1,3}\s?[-–~]\s?\d{1,3}$")
_VERSION = re.compile(r"^v\d|^\d{1,2}(?:\.\d{1,3}){1,3}$", re.I)
#: A standard or a product generation named by capitals and one digit (WPA3, USB3, MP3, PS5, IPv6):
#: what a router or a device runs, said next to its password ("changed the password and enabled WPA3").
_STANDARD = re.compile(r"^[A-Z]{2,5}[1-9]$|^[A-Z]{2,4}v[1-9]$")
_UNIT_AFTER = re.compile(
    r"^\s?(?:%|‰|€|\$|£|¥|₩|₽|元|円|원|块|塊|年|月|日|号|號|時|時間|点|點|分|秒|歳|岁|歲|층|명|개|번째|"
    r"(?:eur|euros?|usd|dollars?|yuan|yen|руб\w*|р\.|долл\w*|евро|gb|mb|kb|tb|km|kg|g|m|cm|mm|ml|l|h|hrs?|hours?|"
    r"min|mins|minutes?|sec|s|ms|px|pt|x|times|mal|fois|veces|раз\w*|stunden|heures|horas|час\w*|"
    r"years?|jahre?n?|ans?|años|лет|года?|days?|tage?n?|jours?|días|дн\w*|people|personas|personen|personnes|"
    r"человек\w*)(?![^\W\d_]))", re.I)
_UNIT_BEFORE = re.compile(r"(?:[€$£¥₩₽]|\b(?:eur|usd|rmb|cny|jpy|krw|rub)|no\.|#)\s?$", re.I)
#: A place preposition before a value: it says where the secret is kept, not what it is
#: ("stored in 1Password", "im KeePass2", "dans Bitwarden", "в 1Password"). Change words
#: ("to", "en", "auf", "на") are not here: "changé en Qz7!pLm2Vx" gives the value.
_PLACE_WORDS = set(
    "in inside within into on at with using via from by im mit bei über aus dans avec sur chez par depuis con desde "
    "mediante dentro в во с со через из внутри 에서 안에".split()
)
#: A word that says the next token is a reference, a model or a ticket, not a credential:
#: "ticket INC-204981", "model TL-WR841N", "Modell 7590", "pedido 4471", "заказ 1234".
_REFERENCE_WORDS = set(
    "ticket case order invoice ref ref. reference incident tracking booking flight room model version build "
    "release sku item article part serial bestellung bestellnummer rechnung modell artikel vorgang "
    "commande facture modèle modele référence reference dossier pedido factura modelo referencia "
    "заказ счёт-фактура модель версия артикул заявка тикет".split()
)
_TEMPORAL_WORDS = set("in since until till by before after seit bis vor nach depuis avant après desde hasta antes "
                      "después с до после в году".split())


def _not_a_value(value: str, before: str, after: str) -> bool:
    """Dates, times, ranges, versions, standards and amounts are never a credential or an identifier."""
    compact = value.strip()
    if (_DATE.match(compact) or _RANGE.match(compact) or _VERSION.match(compact)
            or _STANDARD.match(compact.rstrip(".,;:!?"))):
        return True
    if _UNIT_AFTER.match(after) or _UNIT_BEFORE.search(before):
        return True
    words = before.split()
    previous = words[-1].lower().strip(":,") if words else ""
    if re.fullmatch(r"(?:19|20)\d\d", compact) and (previous in _TEMPORAL_WORDS or after.lstrip().startswith("年")):
        return True
    return previous in _PLACE_WORDS or previous in _REFERENCE_WORDS


def _credential_token(token: str) -> bool:
    """A password's shape: letters with digits or symbols inside (hunter2, Qz7!pLm2Vx, 햇살가득한오후7),
    or six or more digits."""
    core = token.strip(".,:;!?")
    if len(core) < 4 or QUANTITY.match(core):
        return False
    letters, digits = count_letters(core), count_digits(core)
    symbol = bool(re.search(r"[!@#$%^&*+=~?_|\\/]", core[1:-1] if len(core) > 2 else "")) or core.endswith(("!", "!!"))
    if re.fullmatch(r"(?:https?|ftp)://\S+", core, re.I) or "@" in core and "." in core.split("@")[-1] \
            or re.match(r"(?:~?/|\.\.?/|[A-Za-z]:\\)", core):
        return False  # a link, an e-mail address or a path says where, not what
    if letters and digits:
        return True
    if letters >= 3 and symbol and not re.fullmatch(r"[^\W\d_]+(?:[\-'][^\W\d_]+)+", core):
        return True  # (a hyphen or apostrophe inside a word is spelling: "ice-cold", "l'heure")
    return digits >= 6 and digits == len(re.sub(r"[\s\-.·/]", "", core))


def _phrase_token(phrase: str) -> bool:
    """A passphrase: three to twelve words."""
    return 3 <= len(phrase.split()) <= 12


def _code_token(token: str) -> bool:
    """A code's shape: four or more digits (in groups or not), or letters and digits (47B29, 7HQK-2M9D)."""
    core = token.strip(".,:;!?[]")
    digits = count_digits(core)
    if digits >= 4 and digits == len(re.sub(r"[\s\-.·/]", "", core)):
        return True
    return (len(core) >= 4 and digits >= 2 and count_letters(core) >= 1
            and bool(re.fullmatch(r"[^\W_]+(?:-[^\W_]+)*", core)))


def _key_token(token: str) -> bool:
    """A key's or token's shape: twelve or more characters mixing letters and digits."""
    core = token.strip(".,:;!?")
    return len(core) >= 12 and count_digits(core) >= 2 and count_letters(core) >= 2 and not re.search(r"\s", core)


def _identity_token(token: str) -> bool:
    core = token.strip(".,:;!?")
    return count_digits(core) >= 5 and len(re.sub(r"[\s\-.·/()]", "", core)) >= 6


def _passport_token(token: str) -> bool:
    core = re.sub(r"[\s\-]", "", token.strip(".,:;!?"))
    return 6 <= len(core) <= 12 and count_digits(core) >= 2 and bool(re.fullmatch(r"[A-Z0-9А-Я]+", core))


def _card_token(token: str) -> bool:
    return 13 <= count_digits(token) <= 19


def _account_token(token: str) -> bool:
    return count_digits(token) >= 7


def _phone_token(token: str) -> bool:
    return 9 <= count_digits(token) <= 15


@dataclass(frozen=True)
class Concept:
    """What a message names (``label``) and what its value looks like (``shape``)."""

    name: str
    kind: str  # "secret" or "personal_id"
    category: str
    label: FoldedPattern
    shape: Callable[[str], bool]
    digit_runs: bool  # read digit groups ("4829 1736") as one value
    quotations: bool  # a quotation after the name is its value ("«le petit chat dort»")
    needs_access: bool = False  # only with something it opens named nearby (a generic "code")


def _concept(name: str, kind: str, category: str, label: str, shape: Callable[[str], bool], *,
             digit_runs: bool = False, quotations: bool = False, needs_access: bool = False) -> Concept:
    return Concept(name, kind, category, FoldedPattern(either_case(label)), shape, digit_runs, quotations,
                   needs_access)


CONCEPTS: tuple[Concept, ...] = (
    _concept("password", "secret", "password", _PASSWORD, _credential_token, digit_runs=True, quotations=True),
    _concept("passphrase", "secret", "password", _PASSPHRASE, _phrase_token, quotations=True),
    _concept("code", "secret", "code", _CODE, _code_token, digit_runs=True),
    _concept("access code", "secret", "code", _GENERIC_CODE, _code_token, digit_runs=True, needs_access=True),
    _concept("key or token", "secret", "api_key", _KEY, _key_token),
    _concept("identity number", "personal_id", "labelled_id", _IDENTITY, _identity_token, digit_runs=True),
    _concept("passport number", "personal_id", "labelled_id", _PASSPORT, _passport_token, digit_runs=True),
    _concept("bank account", "personal_id", "bank_account", _ACCOUNT, _account_token, digit_runs=True),
    _concept("card number", "personal_id", "card", _CARD, _card_token, digit_runs=True),
    _concept("phone number", "personal_id", "phone", _PHONE, _phone_token, digit_runs=True),
)
_ACCESS_PATTERN = FoldedPattern(either_case(_ACCESS))
_NOT_ACCESS_PATTERN = FoldedPattern(either_case(_NOT_ACCESS))
#: What joins a name to its value just before a quotation: "is", a colon, "changed to", in each language.
_CONNECTOR_END = re.compile(
    r"(?:[:：=—–\-]|(?<![^\W\d_])(?:is|was|to|into|es|era|ist|lautet|war|auf|zu|in|est|c'est|c’est|en|это|на|"
    r"теперь|ahora|jetzt|maintenant|now)|是|为|為|は|는|은|로|으로)\s*$", re.I)
#: Where a sentence ends: not after an abbreviation ("Nr.", "No.", "n°.", "Tel."), which labels use.
_SENTENCE_END = re.compile(r"(?<!\bnr)(?<!\bno)(?<!\bn°)(?<!\btel)(?<!\bca)[.!?](?=\s|$)|[。！？\n]", re.I)
#: A question answered in the next breath ("mein neues Passwort? Es ist …"): the window goes on.
_ANSWER_STARTS = re.compile(r"[?？]\s*(?:es ist|it's|it is|it was|c'est|es|era|это|그건|그거|それは|是)(?!\w)", re.I)


def _window(text: str, start: int) -> str:
    window = text[start:start + WINDOW]
    end = _SENTENCE_END.search(window)
    if end and _ANSWER_STARTS.match(window, end.start()):
        later = _SENTENCE_END.search(window, end.end())
        return window[: later.start()] if later else window
    return window[: end.start()] if end else window


def _value_in(concept: Concept, window: str) -> re.Match[str] | None:
    """The first thing in ``window`` shaped like the concept's value (and not excluded)."""
    if concept.shape is _phrase_token:  # the words after a colon or a dash, to the end of the sentence
        after = _AFTER_COLON.search(window)
        return after if after and _phrase_token(after.group("inner")) else _quoted_value(window)
    quotes = list(_QUOTATION.finditer(window)) if concept.quotations else []
    tokens = list(_TOKEN.finditer(window)) + (list(_DIGIT_RUN.finditer(window)) if concept.digit_runs else [])
    for m in sorted(quotes + tokens, key=lambda m: m.start()):
        if m.re is _QUOTATION:
            if _quote_is_value(window, m):
                return m
            continue
        value = m.group().lstrip("=:：")
        if concept.shape(value) and not is_placeholder(value.strip(".,:;!?")) \
                and not _not_a_value(value, window[: m.start()], window[m.end():]):
            return m
    return None


_AFTER_COLON = re.compile(r"[:：—–=]\s*(?P<inner>[^\s:：\"“„«‹「『'‘].*)$")


def _quote_is_value(window: str, quote: re.Match[str]) -> bool:
    """A quotation right after the name, or after its verb ("es «…»", "changé en «…»"), is its value."""
    before = window[: quote.start()]
    return bool(re.match(r"[\s:：=—\-–]*(?:\w+\s*){0,2}$", before) or _CONNECTOR_END.search(before))


def _quoted_value(window: str) -> re.Match[str] | None:
    return next((m for m in _QUOTATION.finditer(window) if _quote_is_value(window, m)), None)


#: The value first, then what it is: "Kotik2023! — это мой пароль", "Lirio_2020 es mi contraseña",
#: "Feder#88 ist mein neues Passwort", "hunter2 is the password": a copula or a dash between, then at
#: most a possessive and "new".
_VALUE_THEN_NAME = re.compile(
    r"(?P<value>[^\s\"'“”‘’«»„「」『』]+)[\"'”’»」』]?\s*(?:[—–:=]\s*)?(?:is|was|es|era|ist|war|c'est|c’est|est|это|是|は|が|이|가)"
    r"\s*(?:my|the|our|mein|meine|mi|el|la|mon|ma|le|notre|мой|моя|наш|наша|내|私の|我的)?\s*"
    r"(?:new|neues?|nueva|nuevo|nouveau|nouvelle|новый|новая|새)?\s*$", re.I)


#: Where the sentence before a name starts: after an end mark and a space before a word ("Kotik2023! —
#: это мой пароль" keeps its "!", the value's last character).
_HEAD_SPLIT = re.compile(r"[.!?]\s+(?=[^\W\d_])|[。！？\n]")


def _value_before(concept: Concept, before: str) -> bool:
    m = _VALUE_THEN_NAME.search(before)
    return bool(m and concept.shape(m.group("value")) and not is_placeholder(m.group("value")))


def _named_in_view(view: View, source: str) -> list[tuple[Concept, str]]:
    found: list[tuple[Concept, str]] = []
    for concept in CONCEPTS:
        for label in concept.label.finditer(view.text):
            if concept.kind == "secret" and concept.shape is not _phrase_token:
                head = view.text[max(0, label.start() - 60): label.start()]
                head = _HEAD_SPLIT.split(head)[-1]
                written = view.original(source, label.start() - len(head), label.start())
                if head.strip() and _value_before(concept, written):
                    found.append((concept, written.strip() + view.original(source, label.start(), label.end())))
                    continue
            window_view = _window(view.text, label.end())
            window = view.original(source, label.end(), label.end() + len(window_view))
            if not window_view.strip() or TOPIC_AFTER.match(window_view) or _KEPT_AT.match(window):
                continue
            if label.start() and view.text[label.start() - 1] in ":/@=." or window_view.startswith("@"):
                continue  # inside a URL or an assignment ("user:password@host"): not a name in a sentence
            if concept.needs_access:
                around = fold_text(view.original(source, max(0, label.start() - 40), label.end() + len(window_view)))
                if not _ACCESS_PATTERN.search(around) or _NOT_ACCESS_PATTERN.search(around):
                    continue
            value = _value_in(concept, window)
            if value is None:
                continue
            excerpt = view.original(source, label.start(), label.end()) + window[: value.end()]
            found.append((concept, excerpt))
    return found


def find_named_values(views: Normalised) -> list[Finding]:
    """Credentials and identifiers that a message names and gives, in any view of it."""
    findings: dict[str, Finding] = {}
    for view in views.views():
        for concept, excerpt in _named_in_view(view, views.source):
            label = f"{concept.name} named with its value"
            findings.setdefault(label, Finding(concept.kind, label, mask(excerpt), concept.category, view.name))
    for phrase in recovery_phrases(views.source):
        findings.setdefault("recovery", Finding("secret", "wallet recovery phrase (BIP-39 words)", mask(phrase),
                                                "password"))
    for url in secret_urls(views.source):
        findings.setdefault("url", Finding("secret", "URL carrying a key", mask(url), "api_key"))
    return list(findings.values())
