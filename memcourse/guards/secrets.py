"""Secrets: credentials that must never be stored, found by a real scanner plus what it lacks.

The token formats (AWS, Azure, GitHub, GitLab, JWT, Slack, Stripe, Twilio, SendGrid, PyPI,
Discord, Telegram, private-key blocks, ``scheme://user:pass@host``...) come from Yelp's
``detect-secrets`` plugins, called directly on each normalised view, line by line. Three of its
plugins are left out on purpose, and the reason is measurable with ``memcourse eval --guards``:

- the high-entropy string plugins flag any quoted random-looking string: git SHAs, UUIDs and
  content hashes are exactly that, and users talk about them;
- the keyword plugin is tuned for source code (``password = "..."`` with quotes) and English;
- the public-IP plugin reports addresses, which are not credentials.

What ``detect-secrets`` does not know, this module adds, and nothing more:

- newer token formats it predates (``github_pat_``, ``sk-proj-``, Google ``AIza``/``GOCSPX-``,
  ``npm_``, ``hf_``, ``whsec_``...), also when the token was split into space-separated groups;
- a credential *with its value*, in English, Chinese and Japanese: "password: hunter2",
  "密码是 123456", "パスワードは abc123", "验证码 884422". A keyword alone is not a secret:
  "I forgot my password yesterday", "密钥 are managed with Vault" and "secret santa" say
  nothing anyone could use, and refusing them teaches users that the guard is noise;
- connection strings with a password (``redis://:pw@host`` too), ``Authorization: Basic``/
  ``Bearer`` headers, and Azure keys shorter than the plugin's exact 88 characters.
"""

from __future__ import annotations

import base64
import binascii
import re
from functools import lru_cache

from memcourse.guards.findings import Finding, mask
from memcourse.guards.folded import FoldedPattern
from memcourse.guards.normalise import Normalised, View
from memcourse.guards.values import PLACEHOLDER as _PLACEHOLDER
from memcourse.guards.values import QUANTITY, TOPIC_AFTER, is_placeholder

__all__ = ["find_credentials", "DETECT_SECRETS_PLUGINS"]


#: The detect-secrets plugins used, by module and class name.
DETECT_SECRETS_PLUGINS = (
    ("artifactory", "ArtifactoryDetector"),
    ("aws", "AWSKeyDetector"),
    ("azure_storage_key", "AzureStorageKeyDetector"),
    ("basic_auth", "BasicAuthDetector"),
    ("cloudant", "CloudantDetector"),
    ("discord", "DiscordBotTokenDetector"),
    ("github_token", "GitHubTokenDetector"),
    ("gitlab_token", "GitLabTokenDetector"),
    ("ibm_cloud_iam", "IbmCloudIamDetector"),
    ("ibm_cos_hmac", "IbmCosHmacDetector"),
    ("jwt", "JwtTokenDetector"),
    ("mailchimp", "MailchimpDetector"),
    ("npm", "NpmDetector"),
    ("openai", "OpenAIDetector"),
    ("private_key", "PrivateKeyDetector"),
    ("pypi_token", "PypiTokenDetector"),
    ("sendgrid", "SendGridDetector"),
    ("slack", "SlackDetector"),
    ("softlayer", "SoftlayerDetector"),
    ("square_oauth", "SquareOAuthDetector"),
    ("stripe", "StripeDetector"),
    ("telegram_token", "TelegramBotTokenDetector"),
    ("twilio", "TwilioKeyDetector"),
)


@lru_cache(maxsize=1)
def _plugins() -> list:
    """Instances of the plugins above (imported on first use: detect-secrets pulls in requests)."""
    from importlib import import_module

    found = []
    for module, name in DETECT_SECRETS_PLUGINS:
        plugin_class = getattr(import_module(f"detect_secrets.plugins.{module}"), name, None)
        if plugin_class is not None:
            found.append(plugin_class())
    return found


# -- token formats detect-secrets predates ------------------------------------------------
TOKEN_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("API key (sk-…)", re.compile(r"\bsk-(?:proj-|ant-(?:api\d\d-)?|svcacct-|admin-|live-"
     r"|test-)?(?=[A-Za-z0-9_\-]*\d)[A-Za-z0-9_\-]{12,}")),
    ("GitHub token", re.compile(r"\b(?:github_pat_[A-Za-z0-9_]{22,}|gh[pousr]_[A-Za-z0-9]{20,})")),
    ("Google API key", re.compile(r"\bAIza[0-9A-Za-z_\-]{30,}")),
    ("Google OAuth secret", re.compile(r"\b(?:GOCSPX-[0-9A-Za-z_\-]{16,}|ya29\.[0-9A-Za-z_\-]{20,})")),
    ("npm token", re.compile(r"\bnpm_[A-Za-z0-9]{30,}")),
    ("Hugging Face token", re.compile(r"\bhf_[A-Za-z0-9]{30,}")),
    ("Slack token", re.compile(r"\bx(?:ox[abposre]|app)-[A-Za-z0-9\-]{10,}")),
    ("Stripe key", re.compile(r"\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}|\bwhsec_[A-Za-z0-9]{20,}")),
    ("GitLab token", re.compile(r"\bgl(?:pat|dt|rt|ft)-[A-Za-z0-9_\-]{16,}")),
    ("AWS access key", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b")),
    ("Azure "
     "key", re.compile(r"\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)\s*=\s*[A-Za-z0-9+/%=]{16,}", re.I)),
    # every PEM / OpenSSH / PGP private-key header, ENCRYPTED and vendor prefixes included
    # (detect-secrets lists a few kinds by name and misses "BEGIN ENCRYPTED PRIVATE KEY")
    ("private key", re.compile(r"-----\s*BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?\s*-----|PuTTY-User-Key-File-\d")),
    ("other API token", re.compile(r"\b(?:shpat|shpss|dop_v1|pat|key|tok)_[A-Za-z0-9]{24,}\b|\bkey-[a-z0-9]{32}\b")),
]
#: Prefixes whose token may have been split into groups ("sk-proj- AbCd 1234 ...").
_SPLIT_PREFIX = re.compile(
    r"\b(?:sk-|github_pat_|gh[pousr]_|AIza|GOCSPX-|npm_|hf_|xox[abposre]-|[sr]k_live_|glpat-|AKIA|ASIA)"
    r"[A-Za-z0-9_\-]*(?:[ \t][A-Za-z0-9_\-]{2,12}){2,}"
)

# -- a credential named and given a value ------------------------------------------------
_LABELS_EN = (
    r"pass(?:word|wd|phrase|code)?s?|pwd|pw|creds|login|api[ _\-]?keys?|apikey|access[ _\-]?keys?(?:[ _\-]?id)?|"
    r"(?:aws[ _\-]?)?secret[ _\-]?(?:access[ _\-]?)?keys?|client[ _\-]?secrets?|secret|"
    r"(?:access|auth|bearer|refresh|session|id|csrf|personal[ _\-]?access|api|bot)[ _\-]?tokens?|tokens?|"
    r"private[ _\-]?keys?|credentials?|(?:wi-?fi|wlan|router)[ _\-]?(?:password|key)|"
    r"recovery[ _\-]?(?:codes?|phrase|keys?)|seed[ _\-]?phrase|mnemonic|license[ _\-]?key"
)
_CODES_EN = (
    r"pin(?:[ _\-]?(?:code|number))?|otp|one[ \-]?time[ _\-]?(?:pass)?code"
    r"|(?:verification|security|auth(?:entication)?|"
    r"2fa|mfa|login|sms|confirmation|access|backup|recovery|unlock|door|gate|alarm|garage|safe|locker|lock|entry"
    r"|pairing|activation)[ _\-]?codes?|cvv2?|cvc2?|passcode"
)
_LABELS_CJK = (
    "密码|口令|密钥|秘钥|私钥|令牌|助记词|访问令牌|パスワード|秘密鍵|アクセスキー|APIキー|トークン|シークレットキー"
    "|合言葉"
    "|비밀번호|비번|암호|패스워드|토큰|액세스 키|API 키|API키|비밀 키|개인 키"
)  # Korean
#: Credential labels in Spanish, German, French and Russian (the words for password, passphrase,
#: API key, token, secret key, private key), followed by the same connectors as English plus
#: each language's "is" (es, lautet/ist, est, —/это).
_LABELS_EU = (
    r"contraseña|clave(?: de (?:acceso|api|wifi|wi-fi))?|código (?:de acceso|pin|del wifi|secreto)|clave api"
    r"|token(?: de acceso)?|frase de contraseña|llave privada|clave privada|"
    r"passwort|kennwort|passphrase|zugangscode|pin-code|api-schlüssel|api-key|zugangsschlüssel|privater schlüssel"
    r"|geheimer schlüssel|zugangstoken|wlan-passwort|"
    r"mot de passe|mdp|code (?:wi-?fi|d'accès|du wi-?fi|pin|secret|de la porte)|phrase secrète"
    r"|clé (?:d'api|api|privée|secrète|d'accès)|jeton(?: d'accès)?|"
    r"пароль|парольная фраза|код (?:доступа|от двери|от домофона)|ключ(?: api| доступа)?|api-ключ|токен(?: доступа)?"
    r"|секретный ключ|закрытый ключ|приватный ключ"
)
_CONNECT_EU = (r"(?:\s+(?:de|del|für|für das|pour|du|de la|от|для)(?:\s+[\w.@\-]{1,30}){1,3}?)?"
               r"\s*(?:(?:es|era|son|ist|lautet|war|est|était|c'est|c’est|это|—|-|=|:)\s*[:=]?|:)"
               r"|\s*(?:은|는|이|가)?\s*(?:[:=]|은|는)")
#: The label, a one- to five-word name of what it opens, then a verb "is" ("mot de passe Netflix
#: est …", "Passwort Büro lautet …"): its own pattern, so the plain reading above is still tried.
_NAMED_EU = r"(?:\s+[\w.@\-]{1,30}){1,5}?\s+(?:es|era|ist|lautet|war|est|était|c'est|c’est|это)\s*[:=]?"
_CODES_CJK = ("验证码|校验码|动态码|安全码|授权码|取件码|提取码|PIN码|支付码|门禁码|开锁码|备用码|恢复码|暗証番号"
              "|認証コード|確認コード|認証番号|セキュリティコード|ワンタイムパスワード|パスコード"
              "|(?<!エラー)(?<!ステータス)(?<!ソース)(?<!文字)(?<!郵便)(?<!商品)(?<!プログラム)コード")
_CONNECT_EN = (r"(?:\s+(?:for|of|to|on|at|in)(?:\s+[\w.@\-]{1,30}){1,3}?)?\s*(?:(?:is|was|are|were|=|:|:=|=>|->"
               r"|equals|reads|became)\s*(?:now\s*)?[:=]?|(?:set|changed|updated|reset)\s+to|is\s+now)")
_CONNECT_CJK = (r"\s*(?:(?:已经|已|现在|目前|都|也|新的|设置)?(?:是|为|(?:改|设|换|变|定|设置)(?:成|为|到)了?|就是|は"
                r"|が|を|=|:|은|는|이|가)|:)")
_QUOTED = r"[\"'“‘「『《]"
_VALUE = r"(?P<value>[^\s\"'“”‘’「」『』《》,，。;；、]{3,})"
_CODE_VALUE = r"(?P<value>\d{2,4}(?:[ \-]\d{2,4}){1,2}(?!\d)|[^\s\"'“”‘’「」『』《》,，。;；、]{3,})"
_USER = r"(?:[\w.@\-]{1,30}\s*[/|]\s*)?"  # "login is alice / Sunflower#7": the user name before the password
_FAR = r"(?:\s+[\w'’\-]+){1,5}?\s+(?:is|was|=|:)\s*"  # "the password I use everywhere is ..."

#: (kind, pattern): a compiled ASCII pattern, or a FoldedPattern for labels that need case folding.
_LABELLED: list[tuple[str, re.Pattern[str] | FoldedPattern]] = [
    # a bare "key" names too many things ("the key to success"): only a value that could not be a word
    ("key", re.compile(r"(?<![A-Za-z])(?P<label>key)(?![A-Za-z])(?P<connect>\s*[:=]|\s+is"
     r"|\s+)\s*(?P<quote>)(?P<value>[A-Za-z0-9!@#$%^&*+=~?_\-./]{8,})", re.I)),
    ("password", re.compile(rf"(?<![A-Za-z])(?P<label>{_LABELS_EN})(?![A-Za-z])(?P<connect>{_CONNECT_EN}|{_CONNECT_CJK}"
     rf"|\s+)\s*{_USER}(?P<quote>{_QUOTED})?{_VALUE}", re.I)),
    ("far", re.compile(rf"(?<![A-Za-z])(?P<label>{_LABELS_EN}"
     rf"|{_CODES_EN})(?![A-Za-z])(?P<connect>{_FAR})(?P<quote>{_QUOTED})?{_CODE_VALUE}", re.I)),
    ("code", re.compile(rf"(?<![A-Za-z])(?P<label>{_CODES_EN})(?![A-Za-z])(?P<connect>{_CONNECT_EN}|{_CONNECT_CJK}|\s+"
     rf"|\s*#)\s*(?P<quote>{_QUOTED})?{_CODE_VALUE}", re.I)),
    ("password_eu", FoldedPattern(rf"(?<![^\W\d_])(?P<label>{_LABELS_EU})(?![^\W\d_])(?P<connect>{_CONNECT_EU}"
     rf"|\s+)\s*(?P<quote>{_QUOTED})?{_VALUE}", re.I)),
    ("password_eu", FoldedPattern(rf"(?<![^\W\d_])(?P<label>{_LABELS_EU})(?![^\W\d_])(?P<connect>{_NAMED_EU})"
     rf"\s*(?P<quote>{_QUOTED})?{_VALUE}", re.I)),
    ("password", FoldedPattern(rf"(?P<label>{_LABELS_CJK})(?P<connect>{_CONNECT_CJK}|{_CONNECT_EN}"
     rf"|\s*)\s*(?P<quote>{_QUOTED})?{_VALUE}", re.I)),
    ("code", FoldedPattern(rf"(?P<label>{_CODES_CJK})(?P<connect>{_CONNECT_CJK}|{_CONNECT_EN}"
     rf"|\s*)\s*(?P<quote>{_QUOTED})?{_CODE_VALUE}", re.I)),
]
#: Words that follow "password is ..." without being a password.
_NOT_VALUES = set(
    """required needed optional incorrect wrong invalid expired expiring changed reset forgotten lost unknown none null
    nil empty blank hidden redacted masked protected strong weak same different secure insecure set unset missing
    the a an my your our their his her its this that these those see in on at stored saved managed rotated kept
    shared encrypted hashed case-sensitive too very not still also only never always generated random long short
    mandatory correct locked rotating rotate rotation sent here there where what which when how whatever something
    anything nothing below above same-as different-from be been being and or but for with without from via using
    used unchanged valid please required. needed. same. manager management policy policies rules rule field fields
    prompt prompts dialog box reset-link written printed noted taped engraved memorized memorised somewhere elsewhere
    offline dead gone broken blocked disabled deactivated suspended useless obsolete outdated temporary compromised
    leaked stolen working active inactive fine""".split()
)
#: Words that say what state a password is in, in Spanish, German and French (Russian values
#: are Cyrillic, and a non-Latin word is never taken for a value): "das Passwort ist abgelaufen".
_STATE_WORDS_EU = set(
    """nueva nuevo vieja viejo segura seguro insegura caducada caducado cambiada cambiado olvidada incorrecta correcta
    bloqueada larga corta fuerte debil igual misma mismo obligatoria necesaria secreta privada temporal distinta muy
    neu alt sicher unsicher falsch richtig vergessen gesperrt abgelaufen korrekt lang kurz stark schwach gleich
    geheim privat anders erforderlich notwendig tempor nicht sehr zu noch
    nouveau nouvelle ancien ancienne faux fausse correct correcte long longue court courte fort forte faible
    identique pareil secret secrete obligatoire temporaire trop tres pas encore toujours
    geändert geandert gültig gultig ungültig ungultig expiré expire changé change oublié oublie bloqué bloque modifié
    modifie válida valida inválida invalida distinto cambió cambio""".split()
)
#: A label that is part of a setting *about* credentials, not one: MAX_TOKENS, TOKEN_TTL, pwd_len.
_COUNT_WORDS = (
    r"max|min|num|n|count|limit|total|len|length|size|ttl|expiry|expires|timeout|lifetime|budget|rate|per|used"
)
_COUNTING_LABEL = re.compile(rf"(?:(?<![A-Za-z])(?:{_COUNT_WORDS})[_\-]$)", re.I)
#: A value that is a filesystem path and nothing else (PWD=/home/me is the working directory).
_PATH_ONLY = re.compile(r"^(?:~?/|\.\.?/|[A-Za-z]:\\)[\w.\-/\\]*$")


def _credential_value(match: re.Match, kind: str) -> bool:
    """Whether what follows the label is a credential, not a word about one."""
    value = match.group("value").rstrip(".!?)]}")
    connect = match.group("connect").strip().lower()
    if len(value) < 3 or is_placeholder(value) or value.lower() in _NOT_VALUES:
        return False
    if _COUNTING_LABEL.search(match.string[max(0, match.start("label") - 12) : match.start("label")]):
        return False  # MAX_TOKENS=4096, NUM_KEYS: 3: a number about credentials
    if kind != "code" and value.isdigit() and match.group("label").lower().endswith("s") \
            and not match.group("label").lower().startswith("pass"):
        return False  # "tokens: 4096", "keys: 12": a count (a plural label names no single secret)
    if _PATH_ONLY.match(value):
        return False  # a path names where something is, it is not a secret
    if re.match(r"^(?:https?|ftp)://", value, re.I) and "@" not in value:
        return False
    if re.fullmatch(r"[\u3040-\u30ff\u3400-\u9fff]+.*", value) and not re.search(r"\d{3}", value):
        return False  # "密码是我的生日": describes the password, does not give it
    if QUANTITY.match(value):
        return False  # "パスワードは90日ごとに変える": how often, not what
    digits = sum(ch.isdigit() for ch in value)
    if kind == "key":
        looks_random = bool(
            re.search(r"[A-Za-z]", value)
            and digits
            and (re.search(r"[a-z]", value) and re.search(r"[A-Z]", value) or re.search(r"[!@#$%^&*+=~?_\-]", value))
        )
        return looks_random and not re.fullmatch(r"[0-9a-fA-F\-]{32,36}", value)
    if kind == "code":
        return digits >= 3 and digits >= len(value) // 2
    if kind == "far":  # a loose connection needs a value that could not be a word
        return bool(match.group("quote") and len(value) >= 4 or digits and re.search(r"[A-Za-z]", value)
                    or digits >= 4 and digits >= len(value.replace(" ", "")) - 1
                    or re.search(r"[A-Za-z]", value) and re.search(r"[!@#$%^&*+=~?]", value))
    # (a hyphen between lower-case words is spelling, "ice-cold", not a symbol)
    has_symbol = (bool(re.search(r"[!@#$%^&*+=~?_\-./\\|]", value[1:-1]))
                  and not re.fullmatch(r"[a-z]+(?:-[a-z]+)+", value))
    mixed = bool(re.search(r"[a-z]", value) and re.search(r"[A-Z]", value[1:]))
    if kind == "password_eu" and connect not in (":", "=") and value.lower() in _STATE_WORDS_EU:
        return False  # "das Passwort ist abgelaufen", "la contraseña es nueva": a word about it, not its value
    if not connect:  # no "is"/":": only a value that could not be a word ("hunter2")
        return (
            digits > 0
            and any(ch.isalpha() for ch in value)
            and len(value) >= 4
            or (digits >= 4 and digits == len(value))
        )
    if match.group("quote"):
        return True
    if digits or has_symbol or mixed:
        return True
    if not value.isascii():
        return False
    # "password: correcthorse" (an assignment) is a value; so is a word that ends the clause
    # ("my password is qwerty", "密码是 qwerty"); "password is required for login" is not
    if connect in (":", "=", ":=", "=>", "->"):
        return len(value) >= 4
    rest = match.string[match.end("value"):]
    return len(value) >= 4 and bool(re.match(r"\s*(?:$|[.,;!?。，；！？)\]」』\"'”’]|\s(?:and|but|for|on|so)\b)", rest))


#: The value first: "use 'Orca#2291' as the admin password", "hunter2 is my password".
_VALUE_FIRST = re.compile(
    rf"(?P<quote>{_QUOTED})?(?P<value>[^\s\"'“”‘’「」『』《》,，。;；、]{{4,}})[\"'”’」』》]?\s+(?:is|as|was"
    rf"|=)\s+(?:the|my|our"
    rf"|your)?\s*(?:[\w\-]+\s+){{0,2}}?"
    rf"(?P<label>pass(?:word|wd|phrase|code)|pin(?: code)?)\b(?P<connect>)", re.I)

#: "I changed my Steam password to LemonTree_77": a change verb, the label, then "to" and the value.
_CHANGED_TO = re.compile(
    rf"\b(?:chang|set|reset|updat|switch|rotat)\w*\s+(?:[\w'’\-]+\s+){{0,3}}?(?P<label>{_LABELS_EN}"
    rf"|{_CODES_EN})\s+(?P<connect>to|into)\s+(?P<quote>{_QUOTED})?{_CODE_VALUE}", re.I)
#: A passphrase is a run of ordinary words ("my passphrase is correct horse battery staple"): after
#: a phrase label, three or more words in a row with no function word among them (a sentence
#: about the passphrase, "my passphrase is something I never write down", has one).
_PHRASE = re.compile(
    r"(?<![A-Za-z])(?P<label>pass[ \-]?phrase|seed[ \-]?phrase|recovery[ \-]?phrase|mnemonic(?: phrase)?"
    r"|secret phrase)(?![A-Za-z])\s*(?:is|was|=|:)\s*(?P<quote>)(?P<value>[a-z]{3,12}(?:[ \-][a-z]{3,12}){3,23})"
    r"(?![ \-]?[a-z])", re.I)
_FUNCTION_WORDS = _NOT_VALUES - {"correct", "strong", "long", "short", "random", "secure"} | set(
    "i me you we they he she it is are was were do does did have has had can will would should must "
    "something anything everything nothing written stored".split())


#: "router admin: admin / Xq9!zr44": an account word, then "user / password" after a colon.
_ACCOUNT_PAIR = re.compile(
    r"\b(?P<label>admin|root|login|account|user(?:name)?|creds|credentials|router|wi-?fi|ssh|ftp|db|database|server|vpn"
    r"|nas|email|mail)\b[^:\n]{0,20}:\s*"
    r"[\w.@\-]{2,30}\s*/\s*(?P<value>[^\s/]{6,})", re.I)

# -- connection strings and HTTP credentials ----------------------------------------------
_CONNECTION = re.compile(r"\b[a-z][a-z0-9+.\-]{1,20}://(?P<user>[^\s:/@]*):(?P<password>[^\s@/]+)@[^\s/]+", re.I)
_BEARER = re.compile(r"\bbearer\s+(?=[A-Za-z0-9\-._~+/]*\d)[A-Za-z0-9\-._~+/]{16,}=*", re.I)
_BASIC = re.compile(r"\bbasic\s+(?P<payload>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])", re.I)


def _scan_view(view: View, source: str, *, tokens: bool = True, labelled: bool = True) -> list[tuple[str, str, str]]:
    """(category, label, original text) for each credential in one view."""
    found: list[tuple[str, str, str]] = []
    text = view.text

    def add(category: str, label: str, start: int, end: int) -> None:
        found.append((category, label, view.original(source, start, end)))

    if not tokens:  # a leet reading: only "p4ssw0rd: value" is worth a second look
        return [f for kind, pattern in _LABELLED if kind != "key" for f in _labelled(kind, pattern, view, source)]
    for label, pattern in TOKEN_PATTERNS:
        for m in pattern.finditer(text):
            add("api_key", label, *m.span())
    for m in _SPLIT_PREFIX.finditer(text):
        compact = re.sub(r"[ \t]+", "", m.group())
        for label, pattern in TOKEN_PATTERNS:
            if pattern.search(compact):
                add("api_key", label + " split into groups", *m.span())
                break
    for line_start, line in _lines(text):
        for plugin in _plugins():
            try:
                values = list(plugin.analyze_string(line))
            except Exception:  # a plugin's own bug must not take the guard down
                continue
            for value in values:
                at = line.find(value)
                if at >= 0 and value.strip() and not _PLACEHOLDER.match(value):
                    add("api_key", plugin.secret_type, line_start + at, line_start + at + len(value))
    for m in _CONNECTION.finditer(text):
        if not _PLACEHOLDER.match(m.group("password")):
            add("connection_string", "connection string with a password", *m.span())
    for m in _BEARER.finditer(text):
        add("api_key", "bearer token", *m.span())
    for m in _BASIC.finditer(text):
        try:
            decoded = base64.b64decode(m.group("payload") + "=" * (-len(m.group("payload")) % 4)).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
        if ":" in decoded:
            add("password", "HTTP Basic credentials", *m.span())
    for kind, label_pattern in _LABELLED:
        found += _labelled(kind, label_pattern, view, source)
    for m in _CHANGED_TO.finditer(text):
        if _credential_value(m, "far"):
            add("password", f"credential ({m.group('label').lower()}) with its value", m.start("label"), m.end("value"))
    for m in _PHRASE.finditer(text):
        if not {word.lower() for word in re.split(r"[ \-]", m.group("value"))} & _FUNCTION_WORDS:
            add("password", f"credential ({m.group('label').lower()}) with its value", m.start(), m.end())
    for m in _ACCOUNT_PAIR.finditer(text):
        value = m.group("value")
        if re.search(r"[A-Za-z]", value) and re.search(r"\d", value) and not _PLACEHOLDER.match(value):
            add("password", "account name and password", m.start(), m.end())
    for m in _VALUE_FIRST.finditer(text):
        value = m.group("value")
        if (
            (m.group("quote") or re.search(r"\d", value))
            and value.lower() not in _NOT_VALUES
            and not re.fullmatch(r"v?\d+(?:\.\d+)+", value, re.I)  # a version names a release, not a secret
            and not TOPIC_AFTER.match(text[m.end():])  # "… is the password policy": a topic
            and re.search(r"[A-Za-z0-9]", value)
        ):
            add("password", f"credential ({m.group('label').lower()}) with its value", m.start(), m.end())
    return found


def _labelled(
    kind: str, pattern: re.Pattern[str] | FoldedPattern, view: View, source: str
) -> list[tuple[str, str, str]]:
    """Label-then-value matches, overlapping ("login password is X": "login" then "password")."""
    found = []
    position = 0
    while (m := pattern.search(view.text, position)) is not None:
        position = m.start() + 1
        written = view.original(source, m.start("value"), m.end("value"))
        if (not written.isascii() and re.fullmatch(r"[^\W\d_]+", written) and not m.group("quote")
                and m.group("connect").strip() not in (":", "=", "：")):
            continue  # one word in another script, no colon: "пароль отображается как …" (folding
            # reads б as 6, so the folded word looks like it holds a digit)
        if QUANTITY.match(written):
            continue  # "パスワードは90日ごとに": how often (checked as written: a leet view reads 90 as "go")
        if _credential_value(m, kind) and not is_placeholder(written):
            # (the value as written: a digit-for-letter reading turns "$DB_PASS" into "sDB_PASS")
            label = (
                "verification code / PIN"
                if kind == "code"
                else f"credential ({m.group('label').strip().lower()}) with its value"
            )
            found.append(
                (
                    "code" if kind == "code" else "api_key" if kind == "key" else "password",
                    label,
                    view.original(source, m.start("label"), m.end("value")),
                )
            )
    return found


def _lines(text: str):
    start = 0
    for line in text.split("\n"):
        yield start, line
        start += len(line) + 1


def find_credentials(views: Normalised) -> list[Finding]:
    """Credentials in any view of the text, one finding per (label, original excerpt)."""
    findings: dict[tuple[str, str], Finding] = {}
    scans = [(view, True) for view in views.views()] + [(view, False) for view in views.leet]
    for view, tokens in scans:
        for category, label, original in _scan_view(view, views.source, tokens=tokens):
            findings.setdefault(
                (label.lower(), original), Finding("secret", label, mask(original), category, view.name)
            )
    return _dedupe(list(findings.values()))


def _dedupe(findings: list[Finding]) -> list[Finding]:
    """One finding per label and per excerpt (the first), so a refusal reads as a short list."""
    labels: set[str] = set()
    excerpts: set[str] = set()
    kept = []
    for finding in findings:
        if finding.label.lower() in labels or finding.excerpt in excerpts:
            continue
        labels.add(finding.label.lower())
        excerpts.add(finding.excerpt)
        kept.append(finding)
    return kept
