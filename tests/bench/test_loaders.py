"""Benchmark loaders on small files written here in the real formats, and the generator."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from recall.bench.data import DatasetError
from recall.bench.locomo import load_locomo
from recall.bench.memdaily import load_memdaily
from recall.bench.runner import _ends
from recall.bench.scifact import load_scifact
from recall.bench.synthetic import synthetic, synthetic_scale

LOCOMO = [
    {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a cat."},
                {"speaker": "Bo", "dia_id": "D1:2", "text": "Look!", "blip_caption": "a dog"},
            ],
            "session_2_date_time": "9:00 am on 9 May, 2023",
            "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "The cat is Tom."}],
        },
        "qa": [
            {"question": "What pet?", "answer": "cat", "evidence": ["D1:1"], "category": 1},
            {"question": "Name?", "answer": "Tom", "evidence": ["D1:1; D2:1"], "category": 4},
            {"question": "Adversarial", "answer": "", "evidence": ["D1:2"], "category": 5},
            {"question": "Empty", "answer": "x", "evidence": [], "category": 2},
            {"question": "Broken", "answer": "x", "evidence": ["D", "D:1:1"], "category": 3},
            {"question": "Mixed", "answer": "x", "evidence": ["D1:2", "D9:9"], "category": 2},
        ],
        "observation": {
            "session_1_observation": {
                "Ann": [["Ann adopted a cat.", "D1:1"]],
                "Bo": [["Bo showed a dog.", ["D1:2", "D1:1"]]],
            },
            "session_2_observation": {"Ann": [["Ann's cat is Tom.", "D2:1"]]},
        },
        "session_summary": {
            "session_1_summary": "Ann adopted a cat.",
            "session_2_summary": "The cat is called Tom.",
        },
    }
]


@pytest.fixture
def locomo_file(tmp_path: Path) -> Path:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps(LOCOMO), encoding="utf-8")
    return path


def test_locomo_turns(locomo_file: Path) -> None:
    ds = load_locomo(locomo_file, "turns")
    assert ds.corpus["conv-x/D1:1"]["text"] == "(1:56 pm on 8 May, 2023) Ann: I adopted a cat."
    assert ds.corpus["conv-x/D1:2"]["text"].endswith("Bo: Look! [shares a dog]")
    assert ds.corpus["conv-x/D2:1"]["created_at"].day == 9
    assert {ds.user_of_doc(d) for d in ds.corpus} == {"conv-x"}
    assert sorted(ds.queries.values()) == ["Mixed", "Name?", "What pet?"]
    name = next(q for q, t in ds.queries.items() if t == "Name?")
    assert ds.evidence is not None and ds.evidence[name] == {"D1:1", "D2:1"}  # split on ";"
    assert ds.qrels[name] == {"conv-x/D1:1": 1, "conv-x/D2:1": 1}
    assert ds.query_meta[name]["category"] == "4"
    assert ds.stats["skipped_category_5"] == 1
    assert ds.stats["empty_evidence"] == 1
    assert ds.stats["malformed_evidence_ids"] == 2
    assert ds.stats["unknown_evidence_ids"] == 1  # D9:9: dropped, D1:2 kept
    assert ds.stats["skipped_no_valid_evidence"] == 2  # "Empty" and "Broken"
    assert ds.stats["evidence_strings_with_several_ids"] == 1


def test_locomo_observations_cover_their_turns(locomo_file: Path) -> None:
    ds = load_locomo(locomo_file, "observations")
    assert ds.covers is not None
    bo = next(d for d, doc in ds.corpus.items() if "dog" in doc["text"])
    assert ds.covers[bo] == {"D1:1", "D1:2"}
    pet = next(q for q, t in ds.queries.items() if t == "What pet?")
    assert set(ds.qrels[pet]) == {
        bo,
        next(d for d in ds.corpus if "adopted" in ds.corpus[d]["text"]),
    }


def test_locomo_summaries_score_sessions(locomo_file: Path) -> None:
    ds = load_locomo(locomo_file, "summaries")
    assert set(ds.corpus) == {"conv-x/S1", "conv-x/S2"}
    name = next(q for q, t in ds.queries.items() if t == "Name?")
    assert ds.evidence is not None and ds.evidence[name] == {"S1", "S2"}


def test_locomo_bad_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(DatasetError, match="cannot read LoCoMo file"):
        load_locomo(bad)
    with pytest.raises(DatasetError, match="unknown LoCoMo unit"):
        load_locomo(bad, "words")  # type: ignore[arg-type]


def _memdaily_file(path: Path, n: int) -> None:
    trajs = []
    for t in range(n):
        msgs = [
            {
                "mid": m,
                "message": f"事件{t}的第{m}条消息。",
                "time": "2024年04月01日 周一 08:30",
                "place": "深圳",
            }
            for m in range(4)
        ]
        qs = [
            {
                "qid": 0,
                "question": f"事件{t}是什么？",
                "answer": "x",
                "choices": {},
                "ground_truth": "A",
                "target_step_id": [1, 2],
                "time": "2024年04月02日 周二 09:00",
            }
        ]
        trajs.append({"tid": t, "message_list": msgs, "question_list": qs})
    path.write_text(json.dumps(trajs, ensure_ascii=False), encoding="utf-8")


def test_memdaily_haystack_is_seeded_and_mixed(tmp_path: Path) -> None:
    _memdaily_file(tmp_path / "01_a.json", 6)
    _memdaily_file(tmp_path / "02_b.json", 6)
    ds = load_memdaily(tmp_path, haystack=10, seed=3)
    assert len(ds.queries) == 12
    users = ds.docs_by_user()
    assert len(users) == 12
    docs = users["01_a/t0"]
    assert len(docs) == 10
    assert {d for d in docs if d.startswith("01_a/t0/0:")} == {f"01_a/t0/0:{m}" for m in range(4)}
    assert all(d.split("/")[1] == "t0" for d in docs)  # every doc belongs to this user
    assert all(not d.startswith("02_b") for d in docs)  # distractors come from the same file
    assert ds.qrels["01_a/t0/q0"] == {"01_a/t0/0:1": 1, "01_a/t0/0:2": 1}
    assert (
        ds.corpus["01_a/t0/0:1"]["text"] == "(2024年04月01日 周一 08:30, 深圳) 事件0的第1条消息。"
    )
    assert ds.corpus["01_a/t0/0:1"]["created_at"].hour == 8
    # "上周" in a question is read against when it was asked, not the haystack's end.
    assert ds.query_meta["01_a/t0/q0"]["asked_at"] == datetime(2024, 4, 2, 9, 0, tzinfo=UTC)
    nows = _ends(ds)
    assert nows[("01_a/t0", "事件0是什么？")] == datetime(2024, 4, 2, 9, 0, tzinfo=UTC)
    assert nows[("01_a/t0", "")] == datetime(2024, 4, 1, 8, 30, tzinfo=UTC)
    again = load_memdaily(tmp_path, haystack=10, seed=3)
    assert again.corpus.keys() == ds.corpus.keys()
    other = load_memdaily(tmp_path, haystack=10, seed=4)
    assert other.corpus.keys() != ds.corpus.keys()
    part = load_memdaily(tmp_path, haystack=10, limit=3)
    assert len(part.queries) == 3
    assert {q.split("/")[0] for q in part.queries} == {"01_a", "02_b"}  # spread over files


def test_memdaily_missing(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="does not exist"):
        load_memdaily(tmp_path / "nope")
    with pytest.raises(DatasetError, match="no MemDaily"):
        load_memdaily(tmp_path)


def test_scifact_beir_files(tmp_path: Path) -> None:
    (tmp_path / "qrels").mkdir()
    docs = [
        {"_id": "1", "title": "Cats", "text": "Cats purr."},
        {"_id": "2", "title": "", "text": "Dogs bark."},
    ]
    (tmp_path / "corpus.jsonl").write_text("\n".join(json.dumps(d) for d in docs) + "\n")
    queries = [{"_id": "q1", "text": "purring"}, {"_id": "q2", "text": "unjudged"}]
    (tmp_path / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in queries) + "\n")
    (tmp_path / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\t1\t1\n")
    ds = load_scifact(tmp_path)
    assert ds.queries == {"q1": "purring"}
    assert ds.qrels == {"q1": {"1": 1}}
    assert ds.doc_text("1") == "Cats\nCats purr."
    assert ds.doc_text("2") == "Dogs bark."
    with pytest.raises(DatasetError, match=r"train\.tsv is missing"):
        load_scifact(tmp_path, split="train")


def test_synthetic_is_deterministic_and_bilingual() -> None:
    a, b = synthetic(users=1, seed=7), synthetic(users=1, seed=7)
    assert a.corpus == b.corpus and a.queries == b.queries and a.qrels == b.qrels
    assert synthetic(users=1, seed=8).corpus != a.corpus
    assert {m["lang"] for m in a.query_meta.values()} == {"en", "zh"}
    assert {c.split("-")[1] for c in a.categories()} == {"single", "multi"}
    for qid, rel in a.qrels.items():
        assert all(a.user_of_doc(d) == a.user_of_query(qid) for d in rel)
        assert all(a.corpus[d]["text"] for d in rel)


def test_synthetic_scale_size() -> None:
    ds = synthetic_scale(1_234, queries=10)
    assert len(ds.corpus) == 1_234
    assert len(ds.queries) == 10
    assert {ds.user_of_doc(d) for d in ds.corpus} == {"scale"}


def test_limited_keeps_only_needed_users() -> None:
    ds = synthetic(users=2, seed=1)
    small = ds.limited(1)
    assert len(small.queries) == 1
    assert {small.user_of_doc(d) for d in small.corpus} == {
        small.user_of_query(q) for q in small.queries
    }
    with pytest.raises(DatasetError):
        ds.limited(0)
