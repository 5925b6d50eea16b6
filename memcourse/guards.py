"""Guards: what must never be stored, and what must never reach a prompt.

Two kinds of text are dangerous in long-term memory, because memory is recalled into
*every* later conversation:

- **Secrets and personal identifiers** (API keys, passwords, ID and card numbers). Stored
  once, they leak into every prompt the memory is recalled into.
- **Instructions** ("ignore previous instructions", "以后所有回答都以……开头"). Stored once,
  they poison every later session: this is *memory injection*.

The same detectors run on the write path (the policy gate refuses such text) and on the read
path (recall drops such memories before they are packed into a prompt, in case one got in
through another door). Each finding names what was found so a refusal can explain itself;
secrets are masked in that explanation, so a refusal never repeats the secret.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

I = re.IGNORECASE


@dataclass(frozen=True)
class Finding:
    kind: str  # "secret", "personal_id", "injection" or "behaviour_rule"
    label: str  # human-readable: "API key", "Chinese ID number", ...
    excerpt: str  # the matched text, masked for secrets

    def __str__(self) -> str:
        return f"{self.label} ({self.excerpt})"


def _mask(text: str) -> str:
    text = text.strip()
    if len(text) <= 4:
        return "****"
    return text[:2] + "*" * min(len(text) - 4, 12) + text[-2:]


# -- secrets ------------------------------------------------------------------------------
SECRET_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("private key block", re.compile(r"-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----")),
    ("AWS access key", re.compile(r"\bAKIA[0-9A-Z]{16}\b")),
    ("API key (sk-…)", re.compile(r"\bsk-[A-Za-z0-9_\-]{4,}")),
    ("GitHub token", re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}")),
    ("bearer token", re.compile(r"\bbearer\s+[A-Za-z0-9._~+/=\-]{8,}", I)),
    ("API key", re.compile(r"\bapi[_ \-]?keys?\b", I)),
    ("access token", re.compile(r"\b(?:access|auth|refresh|session|api)[_ \-]?tokens?\b", I)),
    # "token" is also a word this course uses all the time ("a BM25 token is a word"), so a bare
    # token is flagged only when a value with a digit in it follows: "my token is 1234abcd".
    ("token", re.compile(r"\btoken\s*(?:is|was|[:=]|是|为)\s*[\"'“]?(?=[A-Za-z_\-.]*\d)[A-Za-z0-9_\-.]{6,}", I)),
    ("password", re.compile(r"\bpass(?:word|wd|phrase)s?\b", I)),
    ("secret", re.compile(r"\bsecrets?\b", I)),
    ("密码 (password)", re.compile(r"密码|口令")),
    ("密钥 (secret key)", re.compile(r"密钥|秘钥|私钥")),
    ("令牌 (token)", re.compile(r"令牌")),
    ("验证码 (verification code)", re.compile(r"验证码")),
]

PERSONAL_ID_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("身份证 (ID card)", re.compile(r"身份证")),
    ("银行卡 (bank card)", re.compile(r"银行卡|信用卡")),
    ("社保号 (social security number)", re.compile(r"社保号|社会保障号")),
]

_CN_ID = re.compile(r"(?<![0-9])[1-9]\d{16}[0-9Xx](?![0-9A-Za-z])")
_CARD = re.compile(r"(?<![0-9])\d(?:[ \-]?\d){12,18}(?![0-9])")
_CN_ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]


def is_chinese_id_number(candidate: str) -> bool:
    """GB 11643 check digit: a random 18-digit number passes only 1 time in 11."""
    if not re.fullmatch(r"\d{17}[\dXx]", candidate):
        return False
    total = sum(int(d) * w for d, w in zip(candidate[:17], _CN_ID_WEIGHTS))
    return "10X98765432"[total % 11] == candidate[17].upper()


def passes_luhn(digits: str) -> bool:
    """The checksum every payment card number carries."""
    numbers = [int(d) for d in digits][::-1]
    total = sum(n if i % 2 == 0 else (n * 2 - 9 if n * 2 > 9 else n * 2) for i, n in enumerate(numbers))
    return total % 10 == 0


def find_secrets(text: str) -> list[Finding]:
    """Secrets and personal identifiers in ``text`` (empty list if none)."""
    found = [
        Finding("secret", label, _mask(m.group()))
        for label, pattern in SECRET_PATTERNS
        for m in [pattern.search(text)]
        if m
    ]
    found += [
        Finding("personal_id", label, m.group())
        for label, pattern in PERSONAL_ID_PATTERNS
        for m in [pattern.search(text)]
        if m
    ]
    for m in _CN_ID.finditer(text):
        if is_chinese_id_number(m.group()):
            found.append(Finding("personal_id", "Chinese ID number", _mask(m.group())))
    for m in _CARD.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if 13 <= len(digits) <= 19 and passes_luhn(digits) and not is_chinese_id_number(digits):
            found.append(Finding("personal_id", "payment card number", _mask(digits)))
    return found


# -- injection: instructions aimed at the agent, refused from anyone ---------------------
INJECTION_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("override of earlier instructions", re.compile(
        r"\b(?:ignore|disregard|forget|override)\b.{0,20}\b(?:previous|prior|above|earlier|preceding|all|any|your)\b"
        r".{0,20}\b(?:instructions?|rules?|prompts?|guidelines?|directions?)\b", I)),
    ("request for the system prompt", re.compile(
        r"\b(?:reveal|print|show|repeat|leak|output|tell me|display)\b.{0,25}\b(?:system|hidden|initial|developer)\s+"
        r"(?:prompt|instructions?|message)", I)),
    ("attempt to disable safety", re.compile(
        r"\b(?:disable|bypass|turn off|switch off|ignore|remove)\b.{0,20}\b(?:safety|security|guardrails?|"
        r"content (?:policy|filters?)|restrictions?)\b", I)),
    ("identity override", re.compile(r"\byou are now\b|\bfrom now on,? you are\b|\bact as an? (?:unrestricted|jailbroken)", I)),
    ("忽略指令 (override of instructions)", re.compile(
        r"(?:忽略|无视|忘掉|忘记|不要理会|不用管)(?:掉)?(?:之前|以上|前面|先前|上面|所有|全部|一切)?的?(?:所有|全部)?"
        r"(?:指令|指示|规则|提示词?|要求|设定|约束)")),
    ("索要系统提示词 (request for the system prompt)", re.compile(
        r"(?:透露|泄露|输出|显示|打印|告诉我|说出|展示)(?:一下)?(?:你的)?(?:系统提示词?|system prompt|初始指令|隐藏指令|系统指令)", I)),
    ("关闭安全限制 (attempt to disable safety)", re.compile(
        r"(?:关闭|绕过|无视|跳过|忽略|取消|解除)(?:掉)?(?:所有|全部)?的?(?:安全规则|安全限制|安全策略|安全检查|内容审查|审查|限制)")),
    ("身份篡改 (identity override)", re.compile(r"从现在(?:开始|起)[，,]?\s*你(?:就)?是|你的新身份是|扮演一个没有(?:任何)?限制")),
]


# -- behaviour rules: legitimate only from an administrator --------------------------------
BEHAVIOUR_RULE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("fixed opening or closing", re.compile(
        r"(?:所有|每次|每条|每个|任何|全部)的?(?:回答|回复|答复|答案|输出|消息).{0,20}?(?:开头|结尾|落款)")),
    ("fixed text in every answer", re.compile(
        r"(?:所有|每次|每条|每个|任何|全部)的?(?:回答|回复|答复|答案|输出|消息).{0,12}?"
        r"(?:加上|附上|带上|插入|推荐|提到|宣传|推销|写上)")),
    ("fixed opening or closing", re.compile(r"(?:以|用)[‘“\"'「『].{1,40}?[’”\"'」』](?:开头|结尾|开始|结束)")),
    ("fixed text in every answer", re.compile(
        r"\b(?:start|begin|end|finish|prefix|suffix|sign off|close)\b.{0,25}\b(?:every|each|all|any)\b"
        r".{0,10}\b(?:answers?|repl(?:y|ies)|responses?|messages?|outputs?)\b", I)),
    ("fixed text in every answer", re.compile(
        r"\b(?:every|each|all)\s+(?:answers?|repl(?:y|ies)|responses?|messages?)\b.{0,30}\b(?:must|should|will|shall)?"
        r"\s*(?:start|begin|end|mention|promote|recommend|advertise)\b", I)),
    ("standing promotion", re.compile(r"\balways\s+(?:recommend|promote|advertise|mention|plug|link to)\b", I)),
    ("standing promotion", re.compile(r"(?:总是|一直|始终|每次都)(?:推荐|推销|宣传|提到|提及|附上)")),
]


def _scan(patterns: list[tuple[str, re.Pattern[str]]], kind: str, text: str) -> list[Finding]:
    found: dict[str, Finding] = {}
    for label, pattern in patterns:
        m = pattern.search(text)
        if m and label not in found:
            found[label] = Finding(kind, label, m.group().strip())
    return list(found.values())


def find_injection(text: str) -> list[Finding]:
    """Instructions that try to override the agent's own rules: refused from every source."""
    return _scan(INJECTION_PATTERNS, "injection", text)


def find_behaviour_rules(text: str) -> list[Finding]:
    """Standing orders about what every answer must say: an admin's rule, never a user's
    preference."""
    return _scan(BEHAVIOUR_RULE_PATTERNS, "behaviour_rule", text)


def unsafe_for_context(text: str) -> list[Finding]:
    """Why a stored memory must not be packed into a prompt (empty list: it may be).

    Used on the read path. Behaviour rules are not checked here: a rule that reached the store
    went through the policy's admin check, and the read gate checks its source itself.
    """
    return find_secrets(text) + find_injection(text)
