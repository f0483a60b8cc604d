"""`recall ingest` and `recall memory show` on a real memory (SQLite, Chroma, MiniLM).

Files are written by the tests: a LoCoMo-format conversation, OpenAI-format JSON and JSONL
chats, and malformed files, each of which must fail with its location and write nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import recall
from recall.cli import main
from recall.errors import InputError
from recall.lifecycle.ingest import chunk_bounds, plan_file
from recall.settings import Settings

# Small capacity so that four updates promote once; few partitions keep Chroma quick.
ENV = {
    "RECALL_SHORT_TERM_CAPACITY": "2",
    "RECALL_PROMOTE_COUNT": "2",
    "RECALL_VECTOR_PARTITIONS": "4",
    "ANONYMIZED_TELEMETRY": "False",
}


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env={**ENV, **(env or {})})


def locomo_sample() -> dict[str, Any]:
    said = {
        1: [
            ("Caroline", "My name is Caroline and I work as a school counselor in Leeds."),
            ("Melanie", "Nice! I am a potter, my studio is on Bramley Road."),
        ],
        2: [
            ("Caroline", "I adopted a greyhound called Pickle last weekend."),
            ("Melanie", "Lovely. I fired forty mugs in the new kiln."),
        ],
        3: [
            ("Caroline", "The charity run raised 1,250 pounds for the shelter."),
            ("Melanie", "I sold six vases at the Otley craft fair."),
        ],
        4: [
            ("Caroline", "Pickle learned to fetch the newspaper."),
            ("Melanie", "My sister Ruth visits from Dublin in June."),
        ],
    }
    conv: dict[str, Any] = {"speaker_a": "Caroline", "speaker_b": "Melanie"}
    for n, turns in said.items():
        conv[f"session_{n}_date_time"] = f"1:{10 + n} pm on {n} May, 2023"
        conv[f"session_{n}"] = [
            {"speaker": who, "dia_id": f"D{n}:{t + 1}", "text": text}
            for t, (who, text) in enumerate(turns)
        ]
    conv["session_2"][1]["blip_caption"] = "a photo of blue glazed mugs on a shelf"
    return {
        "sample_id": "conv-test",
        "conversation": conv,
        "qa": [{"question": "What is the dog called?", "answer": "Pickle", "evidence": ["D2:1"]}],
        "session_summary": {"session_1_summary": "NOT TO BE INGESTED"},
    }


def nothing_written(path: Path) -> bool:
    return not path.exists()  # the file is checked before the memory is even opened


# --- planning (pure) ----------------------------------------------------------------------
def test_chunk_bounds_keep_tool_results_with_their_call() -> None:
    assert chunk_bounds([10, 10, 10, 10], [True] * 4, 25) == [range(0, 2), range(2, 4)]
    assert chunk_bounds([10, 10, 10, 10], [True, True, False, True], 15) == [
        range(0, 1),
        range(1, 3),
        range(3, 4),
    ]
    assert chunk_bounds([50, 5], [True, True], 10) == [range(0, 1), range(1, 2)]
    assert chunk_bounds([], [], 10) == []


def test_plan_jsonl_chat_by_token_budget(tmp_path: Path) -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}
    lines = [
        {"role": "user", "content": "Where do the nightly backups of the billing database go?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "nightly-2024-05-01.tar.zst 14 GB"},
        {"role": "assistant", "content": "They go to /srv/backup; the latest one is 14 GB."},
        {"role": "user", "content": "Thanks. Move the cache to Redis 7.2 on port 6380."},
        {"role": "assistant", "content": "Done: Redis 7.2 now serves the cache on port 6380."},
    ]
    chat = tmp_path / "chat.jsonl"
    chat.write_text("\n".join(json.dumps(m) for m in lines) + "\n\n", encoding="utf-8")
    updates = plan_file(chat, Settings(ingest_chunk_tokens=30))
    assert len(updates) > 1
    assert [m for u in updates for m in u.messages] == lines  # all, in order
    assert all(u.messages[0]["role"] != "tool" for u in updates)
    assert updates[0].where.startswith("chat.jsonl line 1")
    assert len(plan_file(chat, Settings())) == 1  # the default budget: one chunk


def test_plan_json_file_with_several_values_reads_it_as_jsonl(tmp_path: Path) -> None:
    # Decided by what follows the first value, not by the wording of a JSON error.
    lines = [
        {"role": "user", "content": "The release train leaves on Thursdays."},
        {"role": "assistant", "content": "Noted: releases go out on Thursdays."},
    ]
    several = tmp_path / "several.json"
    several.write_text("\n" + "\n".join(json.dumps(m) for m in lines) + "\n", encoding="utf-8")
    (update,) = plan_file(several, Settings())
    assert update.messages == lines and update.where == "several.json line 2 to 3"
    one = tmp_path / "one.json"
    one.write_text("\n\n  " + json.dumps(lines) + " \n", encoding="utf-8")
    assert plan_file(one, Settings())[0].where == "one.json[0] to [1]"
    broken = tmp_path / "broken.json"
    broken.write_text('\n\n[{"role": "user", "content": "hi"},\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"broken.json line 4 column 1: not valid JSON"):
        plan_file(broken, Settings())
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'[{"role": "user",\n "content": "caf\xe9"}]')
    with pytest.raises(InputError, match=r"latin.json line 2: not UTF-8"):
        plan_file(latin, Settings())


# --- the CLI ------------------------------------------------------------------------------
@pytest.mark.slow
def test_ingest_locomo_then_show(tmp_path: Path) -> None:
    data, mem_path = tmp_path / "locomo.json", tmp_path / "memory"
    data.write_text(json.dumps([locomo_sample()]), encoding="utf-8")
    res = run("ingest", str(data), "--user", "u1", "--path", str(mem_path), "--quiet", "--json")
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert (report["updates"], report["promotions"]) == (4, 1)
    assert (report["version"], report["short_term_count"]) == (1, 2)

    show = run("memory", "show", "--user", "u1", "--path", str(mem_path))
    assert show.exit_code == 0, show.output
    out = show.stdout
    assert "version 1 of 1" in out
    bedrock = out.split("<Bedrock>\n", 1)[1].split("\n</Bedrock>", 1)[0]
    # Session 1, promoted, routed and retold in my voice (the transcript names the speaker).
    assert "I know Caroline's name is Caroline" in bedrock
    assert "<Evolutionary>" in out and "<Dynamic>" in out
    short = out.split("short-term summaries (2):", 1)[1]
    assert "Session 3 of the conversation between Caroline and Melanie" in short
    assert "1:14 pm on 4 May, 2023" in short and "Pickle learned to fetch" in short
    assert "NOT TO BE INGESTED" not in out and "What is the dog called" not in out

    past = run("memory", "show", "--user", "u1", "--version", "1", "--path", str(mem_path))
    assert past.exit_code == 0, past.output
    promoted = past.stdout.split("summaries promoted into version 1 (2):", 1)[1]
    assert "Caroline: My name is Caroline" in promoted
    assert "blue glazed mugs" in promoted  # session 2's photo caption
    assert "Pickle learned" not in promoted

    zero = run("memory", "show", "--user", "u1", "--version", "0", "--path", str(mem_path))
    assert zero.exit_code == 0 and "nothing promoted yet" in zero.stdout

    bad = run("memory", "show", "--user", "u1", "--version", "7", "--path", str(mem_path))
    assert bad.exit_code == 1
    assert "no long-term version 7" in bad.stderr and "0 to 1" in bad.stderr
    assert "Traceback" not in bad.output

    as_json = run("memory", "show", "--user", "u1", "--json", "--path", str(mem_path))
    doc = json.loads(as_json.stdout)
    assert doc["latest_version"] == 1 and doc["article"]["version"] == 1
    assert len(doc["summaries"]) == 2 and doc["summaries_kind"] == "short_term"


def test_ingest_json_and_jsonl_chats(tmp_path: Path) -> None:
    mem_path = tmp_path / "memory"
    chat = tmp_path / "chat.json"
    chat.write_text(
        json.dumps(
            [
                {"role": "system", "content": "You are a helpful assistant."},
                {"role": "user", "content": "Our staging database runs PostgreSQL 16 now."},
                {"role": "assistant", "content": "Noted: staging is on PostgreSQL 16."},
            ]
        ),
        encoding="utf-8",
    )
    res = run("ingest", str(chat), "--user", "u2", "--path", str(mem_path), "--quiet", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["updates"] == 1

    lines: list[dict[str, Any]] = [
        {"role": "user", "content": f"Ticket {4100 + i}: the printer on floor {i} jams."}
        for i in range(6)
    ]
    lines.append({"messages": [{"role": "user", "content": "Lunch is at noon on Fridays."}]})
    jsonl = tmp_path / "chat.jsonl"
    jsonl.write_text("\n".join(json.dumps(m) for m in lines), encoding="utf-8")
    env = {"RECALL_INGEST_CHUNK_TOKENS": "40", "RECALL_SHORT_TERM_CAPACITY": "50"}
    planned = plan_file(jsonl, Settings(ingest_chunk_tokens=40))
    assert len(planned) >= 3 and planned[-1].where == "chat.jsonl line 7.messages[0]"
    res = run("ingest", str(jsonl), "--user", "u2", "--path", str(mem_path), "--json", env=env)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["updates"] == len(planned)
    with recall.open(mem_path, settings=Settings(path=mem_path, vector_partitions=4)) as mem:
        texts = [r.text for r in mem.short_term("u2")]
    assert len(texts) == 1 + len(planned)
    assert "PostgreSQL 16" in texts[0] and "helpful assistant" not in texts[0]
    assert "Ticket 4100" in texts[1] and "Lunch is at noon" in texts[-1]


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        (
            "bad.jsonl",
            '{"role": "user", "content": "hi"}\n{"role": "user", "content": "ok"}\n{"role": \n',
            "bad.jsonl line 3: not valid JSON",
        ),
        (
            "role.jsonl",
            '{"role": "user", "content": "hi"}\n{"role": "robot", "content": "beep"}\n',
            "role.jsonl line 2: not an OpenAI chat message: role",
        ),
        (
            "part.json",
            json.dumps(
                [
                    {"role": "user", "content": "hi"},
                    {"role": "user", "content": [{"type": "hologram", "data": "x"}]},
                ]
            ),
            "part.json[1]: content part 0 has unknown type 'hologram'",
        ),
        ("broken.json", '[{"role": "user", "content": "hi"}', "broken.json line 1 column"),
        ("number.json", "42", "number.json: expected a chat message"),
        ("empty.json", "[]", "empty.json is empty"),
        ("blank.jsonl", "\n\n", "blank.jsonl is empty"),
    ],
)
def test_malformed_files_fail_with_location_and_write_nothing(
    tmp_path: Path, name: str, content: str, expected: str
) -> None:
    bad, mem_path = tmp_path / name, tmp_path / "memory"
    bad.write_text(content, encoding="utf-8")
    res = run("ingest", str(bad), "--user", "u1", "--path", str(mem_path), "--quiet")
    assert res.exit_code == 1, res.output
    assert res.stderr.startswith("error: ") and expected in res.stderr, res.stderr
    assert "Traceback" not in res.output
    assert nothing_written(mem_path)


def test_malformed_locomo_and_unknown_sample(tmp_path: Path) -> None:
    mem_path = tmp_path / "memory"
    sample = locomo_sample()
    del sample["conversation"]["session_2"][1]["text"]
    bad = tmp_path / "locomo.json"
    bad.write_text(json.dumps(sample), encoding="utf-8")
    res = run("ingest", str(bad), "--user", "u1", "--path", str(mem_path), "--quiet")
    assert res.exit_code == 1
    assert "locomo.json (conv-test) session_2[1]: not a LoCoMo turn: text" in res.stderr

    good = tmp_path / "good.json"
    good.write_text(json.dumps([locomo_sample()]), encoding="utf-8")
    args = ["--user", "u1", "--path", str(mem_path), "--sample", "conv-99", "--quiet"]
    res = run("ingest", str(good), *args)
    assert res.exit_code == 1
    assert "no LoCoMo sample conv-99" in res.stderr and "conv-test" in res.stderr
    assert nothing_written(mem_path)
