"""National identity numbers of every language the gate supports: valid numbers (built with their
own check digits, for many random bodies) are refused; the same shapes with a wrong check, and
ordinary numbers, are written; a labelled number is refused in each language."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memcourse.guards import national_ids as ids
from memcourse.policy import MemoryPolicy
from memcourse.vocabulary import DecisionRule

POLICY = MemoryPolicy()


def refused(text: str) -> bool:
    return POLICY.decide(text).rule == DecisionRule.SECRET


# -- building valid numbers: each check computed independently of the module's validators ------
def my_number(body11: str) -> str:
    total = sum(int(x) * w for x, w in zip(body11, (6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2), strict=False))
    r = total % 11
    n = body11 + str(0 if r <= 1 else 11 - r)
    return f"{n[:4]} {n[4:8]} {n[8:]}"


def dni(number: int) -> str:
    return f"{number:08d}" + "TRWAGMYFPDXBNJZSQVHLCKE"[number % 23]


def nir(body13: str) -> str:
    return body13 + f"{97 - int(body13) % 97:02d}"


def snils(body9: str) -> str:
    total = sum(int(x) * (9 - i) for i, x in enumerate(body9))
    check = total if total < 100 else 0 if total in (100, 101) else total % 101 % 100
    return f"{body9[:3]}-{body9[3:6]}-{body9[6:]} {check:02d}"


def inn(body10: str) -> str:
    a = sum(int(x) * w for x, w in zip(body10, (7, 2, 4, 10, 3, 5, 9, 4, 6, 8), strict=False)) % 11 % 10
    b = sum(int(x) * w for x, w in zip(body10 + str(a), (3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8), strict=False)) % 11 % 10
    return body10 + f"{a}{b}"


def steuer_id(rng: random.Random) -> str:
    digits = rng.sample(range(10), 9)
    while digits[0] == 0:
        rng.shuffle(digits)
    digits.insert(rng.randrange(1, 10), digits[rng.randrange(9)])
    product = 10
    for x in digits:
        total = (x + product) % 10 or 10
        product = (total * 2) % 11
    return "".join(map(str, digits)) + str((11 - product) % 10)


def rrn(rng: random.Random) -> str:
    born = date(1950, 1, 1) + timedelta(days=rng.randrange(25000))
    sex = rng.choice("1234") if born.year < 2000 or True else "3"
    sex = rng.choice("12") if born.year < 2000 else rng.choice("34")
    return born.strftime("%y%m%d") + "-" + sex + "".join(rng.choice("0123456789") for _ in range(6))


def tw_id(rng: random.Random) -> str:
    letters = "ABCDEFGHJKLMNPQRSTUVXYWZIO"
    letter = rng.choice(letters)
    code = letters.index(letter) + 10
    body = [rng.choice((1, 2))] + [rng.randrange(10) for _ in range(7)]
    total = code // 10 + (code % 10) * 9 + sum(x * w for x, w in zip(body, (8, 7, 6, 5, 4, 3, 2, 1), strict=False))
    return letter + "".join(map(str, body)) + str((10 - total % 10) % 10)


def valid_numbers(seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    digits = lambda n: "".join(rng.choice("0123456789") for _ in range(n))  # noqa: E731
    return [
        ("ko", f"제 주민등록번호는 {rrn(rng)}이에요."),
        ("ko", f"참고로 {rrn(rng)} 이거 내 번호야"),
        ("ja", f"私のマイナンバーは{my_number(digits(11))}です。"),
        ("ja", f"番号 {my_number(digits(11))} を控えておいて"),
        ("es", f"Mi DNI es {dni(rng.randrange(10**8))}, guárdalo."),
        ("es", f"apunta esto: {dni(rng.randrange(10**8))}"),
        ("fr", f"Mon numéro de sécu : {nir('1' + digits(2) + '05' + '75' + digits(6))}"),
        ("fr", f"note bien {nir('2' + digits(2) + '11' + '69' + digits(6))} pour le dossier"),
        ("de", f"Meine Steuer-ID lautet {steuer_id(rng)}."),
        ("de", f"merk dir {steuer_id(rng)} fürs Finanzamt"),
        ("ru", f"Мой СНИЛС {snils(digits(9))}, запомни."),
        ("ru", f"ИНН {inn(digits(10))} для бухгалтерии"),
        ("zh-hant", f"我的身分證字號是 {tw_id(rng)}。"),
        ("zh-hant", f"記一下 {tw_id(rng)} 這個號碼"),
    ]


@pytest.mark.parametrize("seed", range(8))
def test_valid_national_numbers_are_refused_in_every_language(seed):
    missed = [(lang, text) for lang, text in valid_numbers(seed) if not refused(text)]
    assert not missed, missed


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=10**8 - 1))
def test_a_dni_with_the_wrong_letter_is_an_ordinary_code(number):
    good = dni(number)
    bad = good[:8] + ("A" if good[8] != "A" else "B")
    assert ids.spanish_dni(good) and not ids.spanish_dni(bad)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="0123456789", min_size=11, max_size=11))
def test_my_number_check_digit(body):
    good = my_number(body).replace(" ", "")
    bad = good[:11] + str((int(good[11]) + 1) % 10)
    assert ids.japanese_my_number(good) and not ids.japanese_my_number(bad)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="0123456789", min_size=9, max_size=9))
def test_snils_check_number(body):
    good = snils(body)
    bad = good[:-2] + f"{(int(good[-2:]) + 1) % 100:02d}"
    assert ids.russian_snils(good) and not ids.russian_snils(bad)


@pytest.mark.parametrize("text", [
    "订单号 123456789012 已经发货",            # twelve bare digits: an order number
    "Tracking 1234 5678 9013 arrives Friday",  # grouped like My Number, wrong check digit
    "El pedido 12345678A llegó tarde",         # DNI shape, wrong letter (Z would be right)
    "Die Rechnung 12345678901 ist bezahlt",    # eleven digits, no repeated digit rule
    "Заказ 123-456-789 01 доставлен",           # SNILS shape, wrong check
    "내 생일은 990230-1234567 이 아니야",           # RRN shape with an impossible date
    "I ran 10k in 52:30 and slept 8 hours",
    "ts=986540968000 in the log",                 # twelve digits: a millisecond timestamp, not an INN
])
def test_ordinary_numbers_of_the_same_shapes_are_written(text):
    assert not refused(text), text


@pytest.mark.parametrize("text", [
    "여권번호는 M12345678입니다",
    "Mi número de pasaporte es PAA123456",
    "Meine Reisepassnummer: C01X00T47",
    "Mon numéro de passeport est 18AB12345",
    "Номер паспорта 45 08 123456",
    "我的護照號碼是 312345678",
    "Meine Kontonummer ist 0532013000",
    "Номер паспорта 45 08 123456",             # a capital Н folds to Latin H, the label still matches
    "Мой телефон 8 916 123-45-67",
    "звони мне: 8 (903) 123 45 67",
])
def test_a_labelled_number_is_refused_in_each_language(text):
    assert refused(text), text


@pytest.mark.parametrize("text", [
    "여권번호 바꾸는 방법 알려줘",                  # asks about a passport number, gives none
    "Mi pasaporte caduca en 2027",
    "Meine Reisepassnummer steht auf Seite 2",
    "Номер паспорта нужен для визы",
])
def test_a_label_without_a_number_is_written(text):
    assert not refused(text), text
