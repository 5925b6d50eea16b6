"""What is never a credential's value, whichever detector read it: a template's blank and a count.

Every reader that finds "a name, then a value" (``secrets.py``'s patterns, ``named_values.py``'s
window, ``commandline.py``'s flags) asks these before it refuses: "password: ********",
``token=YOUR_TOKEN``, ``api_key="sk-xxxxxxxx"`` are blanks a template leaves for the reader, and
"パスワードは90日ごとに変える" says how often, not what.
"""

from __future__ import annotations

import re

__all__ = ["PLACEHOLDER", "QUANTITY", "TOPIC_AFTER", "count_digits", "count_letters", "is_placeholder"]

def count_digits(text: str) -> int:
    return sum(ch.isdigit() for ch in text)


def count_letters(text: str) -> int:
    return sum(ch.isalpha() for ch in text)


#: A number with a counter after it is a quantity: "90日ごとに", "90일마다", "3次", "8자리", "12文字".
#: So is a number with a magnitude: "128k", "4M", "2GB", "10x", "95%".
QUANTITY = re.compile(r"^\d{1,4}\s?(?:日|天|回|个|個|次|年|月|号|號|時間?|分|秒|歳|岁|人|位|桁|文字|字|周|週|"
                      r"일|개|번|시간?|분|초|년|월|살|명|자리|글자|주)|^\d+(?:[.,]\d+)?(?:k|m|bn|b|kb|mb|gb|tb|ms|x|%)$",
                      re.I)


PLACEHOLDER = re.compile(r"^(?:[<{\[($%].*|.*[>}\])]$|\*+|x+|\.+|_+|-+|\?+|password|passwd|pass|pwd|secret|changeme"
                         r"|yourpassword|your[_\-]?password|value|example)$", re.I)
#: Placeholders a template leaves for the reader: a mask after a token's prefix ("sk-xxxxxxxx"),
#: capitals joined by underscores in any script ("YOUR_TOKEN", "ВАШ_ТОКЕН"), or "your" as a part.
_MASK_AFTER_PREFIX = re.compile(r"^(?:[A-Za-z]{1,8}[-_])*(?P<c>[xX*•#.0])(?P=c){3,}$")
_YOUR = re.compile(r"(?:^|[-_ ])(?:your|yours|ваш\w*|твой|votre|ton|tu|su|dein\w*|ihr\w*|당신의|너의)(?:[-_ ]|$)", re.I)


def is_placeholder(value: str) -> bool:
    """A template's blank, not a value: every detector that reads a value asks this."""
    value = value.strip("\"'“”‘’")
    if PLACEHOLDER.match(value) or _MASK_AFTER_PREFIX.match(value):
        return True
    if not any(ch.isdigit() for ch in value) and re.search(r"[_\-]", value):
        return value.isupper() or bool(_YOUR.search(value))
    return False


#: Right after a name, a word that makes it a topic rather than one credential: "password manager",
#: "gestor de contraseñas", "Passwortrichtlinie", "비밀번호 관리", "パスワード管理".
TOPIC_AFTER = re.compile(
    r"^(?:_(?:file|path|dir|url|len|length|min|max|limit|ttl|policy|hash|salt)\b"
    r"|[\s\-]*(?:managers?|management|policy|policies|reset|requirements?|rules?|field|strength|hints?|generators?|"
    r"gestor|administrador|política|restablec|verwaltung|manager|richtlinie|regeln|gestionnaire|politique|"
    r"réinitialis|менеджер|политик|сброс|관리|정책|재설정|관리자|管理|ポリシー|リセット|策略|重置))", re.I)
