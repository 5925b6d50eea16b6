"""benchmarks/locomo.py on a tiny LoCoMo-shaped file written here (the real data is not shipped)."""

from __future__ import annotations

import json
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import locomo  # noqa: E402


def tiny(path: Path) -> Path:
    data = [
        {
            "sample_id": "conv-x",
            "conversation": {
                "speaker_a": "Ana",
                "speaker_b": "Ben",
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": [
                    {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a beagle puppy called Biscuit"},
                    {"speaker": "Ben", "dia_id": "D1:2", "text": "Lovely! I started pottery classes"},
                    {"speaker": "Ana", "dia_id": "D1:3", "text": "Look at "
                     "this", "blip_caption": "a photo of a red kite"},
                ],
                "session_2_date_time": "10:00 am on 2 July, 2023",
                "session_2": [
                    {"speaker": "Ben", "dia_id": "D2:1", "text": "My pottery teacher moved to Lisbon"},
                    {"speaker": "Ana", "dia_id": "D2:2", "text": "Biscuit chewed my shoes"},
                ],
            },
            "qa": [
                {"question": "What is the name of Ana's "
                 "puppy?", "answer": "Biscuit", "evidence": ["D1:1"], "category": 4},
                {"question": "Where did the pottery teacher "
                 "move?", "answer": "Lisbon", "evidence": ["D2:1; D1:2"], "category": 1},
                {"question": "What did Ana photograph?", "answer": "a kite", "evidence": ["D:1:3"], "category": 4},
                {"question": "When did Ben start "
                 "pottery?", "answer": "May", "evidence": ["D01:02", "D9:9"], "category": 2},
                {"question": "What is Ben's cat called?", "evidence": ["D"], "category": 5, "adversarial_answer": "x"},
            ],
        },
        {"sample_id": "conv-y", "conversation": {"speaker_a": "C", "speaker_b": "D",
                                                  "session_1_date_time": "9:00 am on 1 June, 2023",
                                                  "session_1": [{"speaker": "C", "dia_id": "D1:1", "text": "Hello "
                                                  "there"}]},
         "qa": []},
    ]
    file = path / "locomo-tiny.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    return file


def test_session_time_is_parsed():
    assert locomo.parse_session_time("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=timezone.utc)
    assert locomo.parse_session_time("12:05 am on 1 January, 2024").hour == 0
    with pytest.raises(ValueError, match="session date"):
        locomo.parse_session_time("yesterday")


def test_evidence_ids_are_repaired_or_dropped_and_counted(tmp_path):
    conversations, report = locomo.load_locomo(tiny(tmp_path))
    conv = conversations[0]
    evidence = {q.text: q.evidence for q in conv.questions}
    assert evidence["Where did the pottery teacher move?"] == ("D2:1", "D1:2"), "'D2:1; D1:2' is two ids"
    assert evidence["What did Ana photograph?"] == ("D1:3",), "'D:1:3' -> D1:3"
    assert evidence["When did Ben start pottery?"] == ("D1:2",), "'D01:02' -> D1:2; D9:9 names no turn"
    assert report.skipped_questions == 1, "the question whose only evidence is 'D' is skipped"
    assert len(report.dropped) == 2 and len(report.repaired) == 3


def test_each_turn_is_an_event_written_at_its_session_time(tmp_path):
    conversations, _ = locomo.load_locomo(tiny(tmp_path), ["conv-x"])
    conv = conversations[0]
    records = [locomo.turn_record(conv, t) for t in conv.turns]
    assert {r.memory_type.value for r in records} == {"event"}
    assert {r.user_id for r in records} == {"conv-x"}
    assert records[0].created_at == datetime(2023, 5, 8, 13, 56, tzinfo=timezone.utc)
    assert records[3].created_at == records[3].updated_at == datetime(2023, 7, 2, 10, 0, tzinfo=timezone.utc)
    assert records[2].content == "Ana: Look at this [shares a photo: a photo of a red kite]"
    assert locomo.dia_id_of(records[4]) == "D2:2"
    assert conv.asked_at == datetime(2023, 7, 3, 10, 0, tzinfo=timezone.utc)


def test_unknown_conversation_or_bad_file_is_a_clear_error(tmp_path, capsys):
    with pytest.raises(ValueError, match="conv-z"):
        locomo.load_locomo(tiny(tmp_path), ["conv-z"])
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    assert locomo.main(["--data", str(bad)]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_scores_by_hand():
    result = locomo.ModeResult("m")
    result.add(4, ["a", "b", "c"], ["b", "z"])
    result.add(1, ["x"] * 10, ["y"])
    s = result.summary((1, 2, 3, 4))
    assert s["n"] == 2
    assert s["R@5"] == pytest.approx((0.5 + 0) / 2) and s["MRR@10"] == pytest.approx((1 / 2 + 0) / 2)


def test_a_full_run_prints_every_mode_and_category(tmp_path, capsys):
    out = tmp_path / "summary.json"
    assert locomo.main(["--data", str(tiny(tmp_path)), "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    for mode in ("memcourse hybrid", "memcourse hybrid-rrf", "memcourse keyword", "memcourse vector",
                 "bm25s", "chroma", "naive rrf"):
        assert mode in printed
    assert "1 multi-hop" in printed and "5 adversarial" in printed and "query p50" in printed
    summary = json.loads(out.read_text())
    assert summary["memcourse hybrid"]["1-4"]["n"] == 4
    assert summary["memcourse keyword"]["4"]["R@5"] == 1.0, "Biscuit and the red kite: keyword finds both"


def test_time_ablations_swap_only_the_recency_rule_and_put_it_back():
    import math
    from datetime import datetime, timedelta, timezone

    from memcourse.recall import hybrid
    from memcourse.records import MemoryRecord, MemoryType

    now = datetime(2024, 1, 1, tzinfo=timezone.utc)
    old = MemoryRecord(MemoryType.EVENT, "turn", "Ana: hello", created_at=now - timedelta(days=60))
    original = hybrid.recency_factor
    with locomo.recency_rule("hybrid-exp-decay"):
        assert hybrid.recency_factor(old, now) == pytest.approx(math.exp(-0.05 * 60))
    with locomo.recency_rule("hybrid-no-time"):
        assert hybrid.recency_factor(old, now) == 1.0
    with locomo.recency_rule("hybrid"):
        assert hybrid.recency_factor is original
    with pytest.raises(RuntimeError), locomo.recency_rule("hybrid-no-time"):
        raise RuntimeError("a failing run")
    assert hybrid.recency_factor is original
    assert 0.9 <= original(old, now) < 1.0, "the library's own rule: bounded"


def test_passage_ablations_swap_the_weight_or_the_labels_and_put_them_back(tmp_path):
    from memcourse.recall import passages

    weight, label = passages.PASSAGE_WEIGHT, passages.label
    turn = "Ana: Hi! I adopted a dog."
    with locomo.passage_rule(1.0, labels=False):
        assert passages.passage_similarity(0.2, 0.9) == pytest.approx(0.2)  # whole text only
        assert passages.passages(turn) == ["Ana: Hi!", "I adopted a dog."]
    with locomo.passage_rule(None, labels=True):
        assert passages.PASSAGE_WEIGHT == weight and passages.passages(turn)[1] == "Ana: I adopted a dog."
    with pytest.raises(RuntimeError), locomo.passage_rule(0.0, labels=False):
        raise RuntimeError("a failing run")
    assert (passages.PASSAGE_WEIGHT, passages.label) == (weight, label)
    assert locomo.main(["--data", str(tiny(tmp_path)), "--modes", "vector", "--no-baselines",
                        "--passage-weight", "0.25", "--no-passage-labels"]) == 0
    assert locomo.main(["--data", str(tiny(tmp_path)), "--passage-weight", "1.5"]) == 2


def test_the_time_ablations_run_as_modes(tmp_path, capsys):
    out = tmp_path / "summary.json"
    modes = "hybrid,hybrid-no-time,hybrid-exp-decay"
    assert locomo.main(["--data", str(tiny(tmp_path)), "--modes", modes, "--no-baselines", "--json", str(out)]) == 0
    summary = json.loads(out.read_text())
    assert set(summary) == {f"memcourse {m}" for m in modes.split(",")}
    assert locomo.main(["--data", str(tiny(tmp_path)), "--modes", "hybrid-sometimes"]) == 2


def test_relevance_curves_fit_the_exponent_of_a_known_curve():
    import numpy as np
    import relevance_curves

    rng = np.random.default_rng(3)
    norms = np.concatenate([rng.uniform(0.05, 0.999, 200_000), np.ones(20_000)])
    rows = [(float(n), bool(rng.random() < 0.5 * n**2.5)) for n in norms]
    shares, best, exponent = relevance_curves.curve(rows)
    assert best == pytest.approx(0.5, abs=0.02)
    assert exponent == pytest.approx(2.5, abs=0.15)
    assert shares[-1] > shares[5] > shares[2]


def test_relevance_curves_run_on_a_locomo_file(tmp_path, capsys):
    import relevance_curves

    assert relevance_curves.main(["--data", str(tiny(tmp_path)), "--groups", "conv-x"]) == 0
    printed = capsys.readouterr().out
    assert "conv-x" in printed and "keyword" in printed and "vector" in printed
    assert relevance_curves.main(["--data", str(tiny(tmp_path)), "--groups", "conv-nope"]) == 2


def test_passage_cold_start_runs_on_a_locomo_file(tmp_path, capsys):
    import passage_cold_start

    assert passage_cold_start.main(["--data", str(tiny(tmp_path)), "--conversation", "conv-x"]) == 0
    printed = capsys.readouterr().out
    assert "first pass" in printed and "second pass" in printed
    assert passage_cold_start.main(["--data", str(tiny(tmp_path)), "--conversation", "conv-nope"]) == 2


def test_evidence_ids_with_spaces_or_zeros_are_read_and_leftovers_reported():
    report = locomo.DataReport()
    known = {"D4:3", "D8:6", "D9:17", "D30:5"}
    found = locomo.repair_evidence("D 4 : 3; D8:6 D9:17, D30:05 see above", known, report, "q1")
    assert found == ["D4:3", "D8:6", "D9:17", "D30:5"]
    assert report.dropped == ["q1: 'see'", "q1: 'above'"]
    assert "q1: 'D 4 : 3' -> D4:3" in report.repaired and "q1: 'D30:05' -> D30:5" in report.repaired
