"""The window reader (``memcourse.guards.named_values``): a credential or identifier named, then
given somewhere in the same sentence, in every gate language; and what must stay writable.

Families are generated from small tables (a name × the words a person puts between it and the
value × a value), so a test fails for a category, not for one sentence.
"""

from __future__ import annotations

import itertools
import random

import pytest

from memcourse.evaluations.guards import evaluate, load_corpus
from memcourse.guards import find_secrets
from memcourse.guards.bare_secrets import recovery_phrases, secret_urls


def kinds(text: str) -> set[str]:
    return {finding.kind for finding in find_secrets(text)}


# -- a password named, words in between, then the value ----------------------------------------
PASSWORD_NAMES = {
    "en": ["password", "Wi-Fi password", "pw"],
    "es": ["contraseña", "clave del wifi"],
    "de": ["Passwort", "WLAN-Kennwort"],
    "fr": ["mot de passe", "mdp"],
    "ru": ["пароль", "пароля"],
    "ko": ["비밀번호", "비번"],
    "ja": ["パスワード"],
    "zh": ["密码", "密碼"],
}
BETWEEN = {
    "en": ["for the office laptop is now", "I picked yesterday:"],
    "es": ["de la oficina, desde ayer es", "nueva:"],
    "de": ["vom Büro ist seit gestern", "für den Laptop:"],
    "fr": ["du bureau, maintenant c'est", "de la box :"],
    "ru": ["от почты у меня теперь", "от роутера:"],
    "ko": ["이제", "바꿨어 이제"],
    "ja": ["は今", "を変えた、新しいのは"],
    "zh": ["现在改成", "换了，新的"],
}
VALUES = ["Kiwi#2291", "tr0mb0ne!Lake", "Zx81_bravo", "봄바람77", "Морж2024!"]


@pytest.mark.parametrize("language", sorted(PASSWORD_NAMES))
def test_a_password_named_then_given_later_in_the_sentence_is_refused(language):
    for name, between, value in itertools.product(PASSWORD_NAMES[language], BETWEEN[language], VALUES):
        text = f"{name} {between} {value}"
        assert "secret" in kinds(text), text


STORAGE_PLACES = [
    "my password is stored in 1Password",
    "I keep every password in KeePass2 now",
    "mi contraseña está guardada en Bitwarden con 2FA",  # (2FA is not a value: no digits run of four)
    "das Passwort liegt im KeePassXC2",
    "mon mot de passe est dans 1Password",
    "пароль хранится в 1Password",
    "비밀번호 관리는 1Password로 하고 있어",
    "password manager: 1Password 8",
    "パスワードは90日ごとに変更するルールです",
    "비밀번호는 8자리 이상이어야 해",
    "the password must be 8-16 characters",
    "I changed my password on 12/03/2024",
    "la contraseña caduca en 90 días",
    "Passwort-Richtlinie: mindestens 12 Zeichen",
]


@pytest.mark.parametrize("text", STORAGE_PLACES)
def test_where_a_password_is_kept_or_what_it_must_be_is_written(text):
    assert "secret" not in kinds(text), find_secrets(text)


# -- codes ----------------------------------------------------------------------------------------
CODES = [
    "PIN {v}", "Die PIN meiner Karte ist {v}", "el pin del móvil es {v}", "пин-код от карты {v}",
    "TAN aus der App: {v}", "Код из СМС: {v}", "Код домофона у мамы — {v}", "El código del portal es {v}",
    "Der Code für den Fahrradschloss ist {v}", "le code de la porte de l'immeuble, c'est {v}",
    "인증번호 [{v}]를 입력하세요", "현관 도어락 코드 {v}", "金庫の暗証番号は{v}", "门禁码是{v}",
]


@pytest.mark.parametrize("template", CODES)
@pytest.mark.parametrize("value", ["5719", "3 8 1 9 0 6", "0-4-7-2", "582 041", "47B29"])
def test_a_code_that_opens_something_is_refused_in_every_spelling(template, value):
    text = template.format(v=value)
    assert "secret" in kinds(text), text


NOT_ACCESS_CODES = [
    "El código postal es 28013", "Postleitzahl-Code 10115", "le code promo SOLDES2024 marche encore",
    "error code 4041 again", "код ошибки 0x80070005", "우편번호 코드 06236", "the code review took 2 hours",
    "our QR code links to page 1234", "Fehlercode 4012 beim Drucker", "código de descuento VERANO2025",
]


@pytest.mark.parametrize("text", NOT_ACCESS_CODES)
def test_codes_that_open_nothing_are_written(text):
    assert "secret" not in kinds(text), find_secrets(text)


# -- identifiers named with their number -----------------------------------------------------------
@pytest.mark.parametrize("text", [
    "номер снилса 112-233-445 95", "Паспорт: серия 45 09 номер 612378", "Ausweisnummer: T22000129",
    "mon passport number c'est 19FD52874", "私の My Number は 1234 5678 9012 です",
    "내 계좌는 카카오뱅크 3333-08-4417625 야", "счёт 40817810938007166998 в Сбербанке",
    "RIB : banque 30004, guichet 00823, compte 11274272304", "Meine Handynummer ist 0151 2384 6619",
    "Mi móvil es el 654 21 87 90", "Mon portable : 06 47 82 19 35", "振込先：三井住友銀行 渋谷支店 普通 7294381",
])
def test_an_identifier_named_with_its_number_is_refused(text):
    assert "personal_id" in kinds(text), text


def test_an_iban_whose_country_letters_are_hex_digits_is_not_taken_for_a_hash():
    for iban in ("DE89370400440532013000", "BE68539007547034"):
        assert "personal_id" in kinds(f"Überweis es bitte auf {iban}, danke"), iban
    assert "personal_id" not in kinds("commit DE89370400440532013001 broke the build")  # checksum fails


# -- wallet recovery phrases and URLs that carry a key --------------------------------------------
@pytest.mark.parametrize("language", ["english", "spanish", "french", "korean", "japanese", "chinese_simplified"])
def test_twelve_words_of_one_bip39_list_are_a_recovery_phrase_whatever_the_label(language):
    from mnemonic import Mnemonic

    words = random.Random(language).sample(Mnemonic(language).wordlist, 12)
    phrase = " ".join(words)
    assert recovery_phrases(f"keep this safe: {phrase}"), phrase
    assert "secret" in kinds(f"{phrase}"), phrase


def test_ordinary_sentences_are_not_recovery_phrases():
    for text in ("we went to the market and then the beach and after that a long walk home with the dog",
                 "Ich habe heute einen langen Spaziergang am Fluss gemacht und danach Kaffee getrunken"):
        assert not recovery_phrases(text)
        assert "secret" not in kinds(text)


@pytest.mark.parametrize("url", [
    "https://hooks.slack.com/services/T0A1B2C3D/B0E4F5G6H/abcdEFGH1234ijklMNOP5678",
    "https://discord.com/api/webhooks/1234567890123/AbCdEfGhIjKlMnOpQrStUvWx-12345yz",
    "https://example.webhook.office.com/webhookb2/0a1b2c3d-4e5f-6789-abcd-ef0123456789@tenant/IncomingWebhook/9f8e7d6c5b4a39281706f5e4d3c2b1a0/x",
    "https://api.example.com/v2/report?token=Zk29fLq81mZpR4tB",
    "https://firma.bitrix24.ru/rest/1/7nbu5u8k4b5xa90v/",
])
def test_a_url_that_carries_a_key_is_refused(url):
    assert secret_urls(f"hook for alerts: {url}")
    assert "secret" in kinds(f"hook for alerts: {url}")


@pytest.mark.parametrize("url", [
    "https://docs.google.com/document/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit",
    "https://github.com/org/repo/commit/3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39",
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://example.com/docs/api/reference?page=2",
])
def test_links_to_documents_commits_and_videos_are_not_keys(url):
    assert not secret_urls(url)


# -- placeholders a template leaves ----------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "the docs say token=YOUR_TOKEN_HERE, what goes there?", "в инструкции написано token=ВАШ_ТОКЕН",
    'api_key="sk-xxxxxxxx" in the example', 'API_KEY="your-api-key" と書いてある', "password: ********",
    "contraseña: TU_CONTRASEÑA", "mot de passe : VOTRE_MOT_DE_PASSE", "Passwort=DEIN-PASSWORT",
])
def test_a_templates_blank_is_not_a_secret(text):
    assert "secret" not in kinds(text), find_secrets(text)


# -- the corpora ------------------------------------------------------------------------------------
def test_the_secrets_development_split_meets_the_targets():
    report = evaluate(load_corpus(name="secrets"), corpus="secrets")
    refused, total = report.rate("secrets and identifiers refused")
    written, benign = report.rate("benign not refused")
    assert refused / total >= 0.98, (refused, total)
    assert written / benign >= 0.97, (written, benign)


# -- an adversarial round written against the finished reader ------------------------------------
#: Written as an attack on the reader after it was built: value first, user and password pairs,
#: locks, recovery keys and codes, seed phrases under another label, hooks, labelled numbers.
MORE_CLAIMS = [
    "Kotik2023! — это мой пароль от почты",
    "Zugangsdaten Büro: Benutzer mmueller, Passwort Feder#88",
    "user: anna.k / contraseña: Lirio_2020",
    "identifiant : jdupont — mot de passe : Cerise*45",
    "логин petrov, пароль Lisa_1990",
    "아이디 minsu88 비번 qwer1234!!",
    "ID は taro_y、パスワードは Sakura_2024",
    "账号 lihua2008 密码 Lh@880912",
    "mein neues Passwort? Es ist Sonnenblume_7",
    "la clave del banco ahora termina en 44 y es Toro_Bravo44",
    "the door code changed, new one is 4-8-1-5",
    "Código de acceso a la oficina 7342#",
    "код от подъезда 2580, от квартиры — 1379",
    "Zahlenschloss am Spind: 3 3 9 1",
    "le digicode c'est A2471",
    "우리 집 현관 비밀번호는 2580*이야",
    "オートロックの番号は 1192 だよ",
    "家里门锁密码 8 8 2 6 4 1",
    "Backup-Codes: 1837-4920 5521-0387 9904-1276",
    "mis códigos de recuperación de GitHub: a1b2c-3d4e5 f6g7h-8i9j0",
    "recovery codes for my Google account: 8245 1937 6610 4428",
    "복구 키: 4F2A-9C1B-77E0-D3A5",
    "Моя сид-фраза: ribbon pumpkin velvet absurd gentle orbit swap kite cradle ethics mango lounge",
    "助记词 ribbon pumpkin velvet absurd gentle orbit swap kite cradle ethics mango lounge",
    "Webhook: https://hooks.zapier.com/hooks/catch/1234567/abc9xyz12def/",
    "Telegram-бот токен 6123456789:AAHk2Ld9sPq7XyZ0aBcDeFgHiJkLmNoPqRs",
    "el token de Notion es secret_AbCdEf1234567890GhIjKlMnOpQrSt",
    "clé API OpenWeather: 3f9a2b7c1d8e4f6a0b5c9d2e7f1a3b8c",
    "내 주민번호 900101-1234568",
    "numéro de sécu : 1 85 05 78 006 084 36",
    "Personalausweis-Nr. L01X00T47",
    "СНИЛС: 112-233-445 95",
    "pasaporte número PAB123456",
    "Tarjeta: 4539 1488 0343 6467, caducidad 08/27",
    "IBAN: ES91 2100 0418 4502 0005 1332",
    "Kontonummer 1234567890 bei der Sparkasse, BLZ 50050201",
    "номер карты 2200 7001 2345 6789",
    "my cell is (415) 555-0132",
    "Ruf mich an: +49 171 2345678",
    "mon tél : 06.12.34.56.78",
    "내 번호 010-2345-6789",
]


@pytest.mark.parametrize("text", MORE_CLAIMS)
def test_more_claims_are_refused(text):
    assert kinds(text), text


#: And the look-alikes written with them: where a password is kept, what a PIN did, models, tickets,
#: rules about passwords, phones that are devices, formats explained.
MORE_LOOK_ALIKES = [
    "the wifi password is on the router's sticker, model TL-WR841N",
    "Das Passwort steht auf der Rückseite vom Router (Modell 7590)",
    "la contraseña está en el cajón, junto al router TP-Link AX55",
    "mot de passe oublié, ticket INC-204981 ouvert",
    "I reset my password 3 times this week",
    "pin 3 on the Raspberry Pi is ground",
    "my PIN was blocked after 3 attempts at 10:30",
    "código de seguimiento 1Z999AA10123456784",
    "Steuer-ID beantragt am 12.03.2024",
    "Passnummer steht auf Seite 2 des Antrags",
    "пароль нужно менять каждые 90 дней",
    "비밀번호 4자리 중 2자리만 입력하래",
    "パスワードは英数字8文字以上にしてください",
    "密码至少需要8位，包含大小写字母",
    "the access code training is on 2025-03-04 in room B12",
    "API key rotation happens every 30 days via Vault 1.15",
    "token budget is 128k for GPT-4o",
    "my phone is a Pixel 8 Pro",
    "Handy ist ein iPhone 15, Vertrag bis 2026",
    "mon portable est un Galaxy S23",
    "телефон Xiaomi 13T, купил в 2023",
    "전화기는 갤럭시 S24야",
    "account number format is 10 digits, see docs section 4.2",
    "IBAN format explained: DE + 2 check digits + 18 digits",
    "the webhook docs are at https://docs.github.com/en/webhooks/about-webhooks",
    "passport photo size is 35x45 mm",
    "DNI renovado en 2024, caduca en 2034",
    "I used pin code 0000 as the default in the demo video? no, the demo uses a placeholder",
    "the Wi-Fi network is called Martinshof5G",
    "recovery phrase backups should never be photographed",
]


@pytest.mark.parametrize("text", MORE_LOOK_ALIKES)
def test_more_look_alikes_are_written(text):
    assert not kinds(text), find_secrets(text)
