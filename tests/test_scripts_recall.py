"""Keyword recall in every script: an exact copy of a stored sentence finds it.

Before the tokeniser knew about scripts other than ASCII and Chinese, a Russian, Korean or
Hindi sentence produced no tokens at all, so keyword recall could not find even an exact
copy of it. One test per script, each against distractors in the same script (so finding it
is not just "the only document with any tokens"), in the BM25 index and in the JSON store.
"""

from __future__ import annotations

import pytest

from memcourse.recall.bm25 import BM25Index
from memcourse.records import MemoryRecord
from memcourse.stores.json_store import JsonMemoryStore
from memcourse.text import tokenize

# script -> (the sentence to find, a distractor in the same script, a two-word query from it)
SENTENCES = {
    "cyrillic": ("Пользователь живёт в Новосибирске и работает "
    "врачом", "Пользователь любит зелёный чай по утрам", "Новосибирске врачом"),
    "greek": ("Ο χρήστης μένει στη Θεσσαλονίκη και δουλεύει ως "
    "μηχανικός", "Ο χρήστης πίνει καφέ χωρίς ζάχαρη", "Θεσσαλονίκη μηχανικός"),
    "hangul": ("사용자는 부산에서 살고 간호사로 일합니다", "사용자는 아침마다 녹차를 마십니다", "부산 간호사"),
    "devanagari": ("उपयोगकर्ता पुणे में रहता है और शिक्षक है", "उपयोगकर्ता को सुबह की चाय पसंद है", "पुणे शिक्षक"),
    "arabic": ("المستخدم يعيش في الإسكندرية ويعمل مهندسا", "المستخدم يحب القهوة بدون سكر", "الإسكندرية مهندسا"),
    "hebrew": ("המשתמש גר בחיפה ועובד כמורה", "המשתמש אוהב תה ירוק בבוקר", "בחיפה כמורה"),
    "thai": ("ผู้ใช้อาศัยอยู่ที่เชียงใหม่และทำงานเป็นครู", "ผู้ใช้ชอบดื่มกาแฟตอนเช้า", "เชียงใหม่"),
    "japanese": ("ユーザーはさっぽろにすんでいてかんごしです", "ユーザーはあさにりょくちゃをのみます", "さっぽろ"),
    "armenian": ("Օգտատերը ապրում է Գյումրիում և աշխատում է "
    "բժիշկ", "Օգտատերը սիրում է սուրճ առանց շաքարի", "Գյումրիում բժիշկ"),
    "georgian": ("მომხმარებელი ცხოვრობს ბათუმში და მუშაობს "
    "ექიმად", "მომხმარებელს უყვარს ყავა შაქრის გარეშე", "ბათუმში ექიმად"),
    "latin-accents": ("L'utilisateur habite à Besançon et travaille comme "
    "infirmière", "L'utilisateur préfère le café sans sucre", "Besançon infirmière"),
    "chinese": ("用户住在成都，职业是护士", "用户每天早上喝绿茶", "成都 护士"),
}


@pytest.mark.parametrize("script", sorted(SENTENCES))
def test_every_script_gives_tokens(script):
    sentence, _, _ = SENTENCES[script]
    assert len(tokenize(sentence)) >= 2, f"{script}: a sentence must give several tokens"


@pytest.mark.parametrize("script", sorted(SENTENCES))
def test_bm25_finds_an_exact_sentence_and_a_phrase_from_it(script):
    sentence, distractor, phrase = SENTENCES[script]
    index = BM25Index()
    index.add_many([("target", sentence), ("other", distractor), ("english", "The user lives in Lyon")])
    assert [doc for doc, _ in index.search(sentence, limit=3)][0] == "target"
    assert [doc for doc, _ in index.search(phrase, limit=3)] == ["target"], (
        f"{script}: words of the sentence must find it, and only it"
    )


@pytest.mark.parametrize("script", sorted(SENTENCES))
def test_json_store_keyword_recall_finds_the_sentence(tmp_path, script):
    sentence, distractor, _ = SENTENCES[script]
    store = JsonMemoryStore(tmp_path / "m.json")
    store.upsert(MemoryRecord("entity", "home", sentence))
    store.upsert(MemoryRecord("preference", "drink", distractor))
    assert [r.content for r in store.search(sentence, limit=1)] == [sentence]


def test_korean_particles_still_match_the_bare_word():
    index = BM25Index()
    index.add_many([("seoul", "사용자는 서울에서 일합니다"), ("busan", "사용자는 부산에 삽니다")])
    assert [doc for doc, _ in index.search("서울", limit=2)] == ["seoul"]


def test_thai_without_spaces_matches_a_word_inside_a_run():
    index = BM25Index()
    index.add_many([("cm", "ผู้ใช้อาศัยอยู่ที่เชียงใหม่"), ("bkk", "ผู้ใช้อาศัยอยู่ที่กรุงเทพ")])
    assert [doc for doc, _ in index.search("เชียงใหม่", limit=2)][0] == "cm"
