"""Credentials typed on a command line: a flag that takes a password, followed by its value.

People paste the command they ran: ``curl -u alice:Hunter2 …``, ``docker login -p …``,
``mysql -uroot -pS3cret``, ``sshpass -p … ssh host``, ``PGPASSWORD=… psql``. None of these
say "password is"; the flag is the label. Stored as a memory, the command replays the password
into every later prompt.

A flag alone is not a credential, and most short flags are not about passwords at all:
``ls -p``, ``mkdir -p dir``, ``python -u script.py``, "use curl -u to pass your username",
"docker login --password-stdin". So:

- a **long flag** that names a credential (``--password``, ``--token``, ``--api-key``…) is
  one anywhere, when a value follows it (``=value`` or a separate word that is not a word of
  prose such as "flag" or "option");
- a **short flag** counts only after the tool that gives it that meaning (``-p`` after
  ``mysql``, ``sshpass``, ``docker login``; ``-u user:pass`` after ``curl``), in the same
  command (no ``|``, ``;`` or line break in between);
- an **environment variable** whose name says password, token or secret, assigned a value
  (``PGPASSWORD=…``, ``export GITHUB_TOKEN=…``); ``$VAR`` and ``<placeholder>`` values are not
  credentials.
"""

from __future__ import annotations

import re

from memcourse.guards.findings import Finding, mask
from memcourse.guards.normalise import Normalised, View
from memcourse.guards.values import is_placeholder

__all__ = ["find_command_line_credentials"]


#: A value: quoted, or a run of printable ASCII (it stops at spaces and at CJK text).
_VALUE = r"(?P<value>'[^'\n]{1,100}'|\"[^\"\n]{1,100}\"|[!-~]{1,200})"
_LONG_FLAGS = re.compile(
    r"(?<![\w-])--?(?P<flag>(?:db-|admin-|root-|client-|store|key|registry-|proxy-)?pass(?:word|wd|phrase)?|"
    r"(?:api|access|auth|bearer|refresh|client|personal-access|bot)[-_]?(?:token|key|secret)|token|secret|"
    r"client[-_]secret|secret[-_]access[-_]key|storepass|keypass|proxy-user|user|basic-auth|auth)"
    r"(?:=|[ \t]+)" + _VALUE, re.I)
#: Short flags whose meaning depends on the tool: (tools, flag pattern).
_TOOL_FLAGS = [
    (r"mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|mysqlimport|mysqlsh", r"-p(?P<attached>)"),
    (r"sshpass", r"-p"),
    (r"(?:docker|podman|buildah|skopeo|helm|nerdctl|oras|crane)(?:\s+registry)?\s+login|az\s+login|cf\s+(?:login|auth)"
     r"|oc\s+login", r"-p"),
    (r"curl|wget|http|https|xh", r"-u|--user"),
    (r"redis-cli|keydb-cli", r"-a"),
    (r"mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport", r"-p"),
    (r"smbclient|sqlcmd|bcp|isql|ldapsearch|ldapmodify|ldapadd", r"-[UPw]"),
    (r"openssl\s+\w+|openssl", r"-pass(?:in|out)?\s+pass:|-k"),
]
_COMMAND = re.compile(
    "|".join(rf"(?P<t{k}>(?<![\w./-])(?:{tools})(?![\w-]))(?P<rest{k}>[^"
    rf"|;\n]{{0,200}})" for k, (tools, _) in enumerate(_TOOL_FLAGS)), re.I)
_ENV = re.compile(
    r"(?<![\w$])(?:export\s+|set\s+|\$env:)?(?P<name>(?:[A-Z0-9]+_)*(?:[A-Z0-9]{0,8}(?:PASSWORD|PASSWD|PASSPHRASE|TOKEN"
    r"|SECRET)|PASS|PWD|API_?KEY|ACCESS_KEY|AUTH)(?:_[A-Z0-9]+)*)"
    r"\s?=\s?" + _VALUE)
#: Variables *about* a credential rather than holding one (TOKEN_LIMIT=4096, PASSWORD_FILE=…).
_ABOUT = re.compile(r"_(?:LIMIT|COUNT|TTL|EXPIRY|EXPIRES|LENGTH|LEN|MIN|MAX|FILE|PATH|DIR|URL|HEADER|TYPE|NAME|ENABLED"
                    r"|REQUIRED|POLICY|SIZE|TIMEOUT)$")
#: Words that follow a flag in prose ("the --password flag", "-p to set"), not values.
_PROSE = set(
    """flag flags option options argument arguments parameter parameters switch switches field value values and or to is
    with without for the a an of in on at if when it this that your my our their instead too also only then as by not
    prompt prompts interactively stdin flag. option. here there above below""".split()
)
_PLACEHOLDER = re.compile(r"^(?:<.*>|\{.*\}|\[.*\]|\$\{?\w+\}?|\$\(.*\)|%\w+%|\*+|x{3,}|\.{2,}|_+|\?+|-.*|"
                          r"(?:your|my|the)?[_-]?(?:password|passwd|pass|pwd|secret|token|value|key)|changeme|example"
                          r"|redacted|true|false|none|null|yes|no|on|off)$", re.I)


def _strip(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value.rstrip(".,;:!?)]}")


def _plausible(value: str, *, loose: bool) -> bool:
    """Whether a value after a credential flag could be the credential. ``loose`` (an attached
    ``=value``, ``-pVALUE`` or a quoted value) accepts any non-placeholder; a separate word must
    not be a word of prose and must look like something other than a plain word."""
    if len(value) < 3 or _PLACEHOLDER.match(value) or is_placeholder(value) or value.lower() in _PROSE:
        return False
    if loose:
        return True
    return bool(
        re.search(r"\d", value)
        or re.search(r"[^A-Za-z0-9]", value)
        or re.search(r"[a-z]", value)
        and re.search(r"[A-Z]", value)
    )


def _user_colon_password(value: str) -> bool:
    user, sep, password = value.partition(":")
    if user.isdigit() and password.isdigit():
        return False  # docker run --user 1000:1000 is a uid:gid
    return bool(sep and user and password and not _PLACEHOLDER.match(password) and not password.startswith("//"))


def _scan_view(view: View, source: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    text = view.text

    def add(label: str, start: int, end: int) -> None:
        found.append((label, view.original(source, start, end)))

    for m in _LONG_FLAGS.finditer(text):
        raw, flag = m.group("value"), m.group("flag").lower()
        value = _strip(raw)
        attached = text[m.start("value") - 1] == "=" or raw[:1] in "'\""
        if flag in ("user", "proxy-user", "basic-auth", "auth"):
            ok = _user_colon_password(value)
        else:
            ok = _plausible(value, loose=attached)
        if ok:
            add(f"command-line credential (--{flag})", m.start(), m.end())
    for m in _COMMAND.finditer(text):
        k = next(int(name[1:]) for name, group in m.groupdict().items() if group is not None and name.startswith("t"))
        rest, offset = m.group(f"rest{k}"), m.start(f"rest{k}")
        flags = _TOOL_FLAGS[k][1]
        for f in re.finditer(rf"(?<![\w-])(?P<flag>{flags})(?P<gap>[ \t]*)" + _VALUE, rest):
            value = _strip(f.group("value"))
            flag = f.group("flag").strip()
            if flag in ("-u", "--user", "-U"):
                ok = _user_colon_password(value)
            else:
                ok = _plausible(
                    value, loose=not f.group("gap") or f.group("value")[:1] in "'\"" or flag.endswith("pass:")
                )
            if ok:
                add(f"command-line credential "
                    f"({m.group(f't{k}').split()[0].lower()} {flag.split()[0]})", offset + f.start(), offset + f.end())
    for m in _ENV.finditer(text):
        value = _strip(m.group("value"))
        if m.group("name") == "PWD" or _ABOUT.search(m.group("name")) or not _plausible(value, loose=True):
            continue
        add(f"credential in environment variable ({m.group('name')})", m.start(), m.end())
    return found


def find_command_line_credentials(views: Normalised) -> list[Finding]:
    """Credentials given as command-line flags or environment variables, in any view."""
    findings: dict[str, Finding] = {}
    for view in views.views():
        for label, original in _scan_view(view, views.source):
            findings.setdefault(original, Finding("secret", label, mask(original), "password", view.name))
    return list(findings.values())
