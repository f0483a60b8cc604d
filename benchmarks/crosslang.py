"""Cross-language recall on the project's own development set, through ``mem.deep_recall``.

    .venv/bin/python benchmarks/crosslang.py [--data tests/data/crosslang.jsonl]
        [--scales 1.0,1.2 --scales-cjk 1.0,1.3] [--out benchmarks/results/crosslang.json]

One user's memory holds 60 facts (30 said in Chinese, 30 in English: allergies, family,
work, pets, habits, plans; pairs on the same topic in the two languages) and 40 everyday
distractors (20 in each language), each added as a note. Every fact is asked in both
languages, so four question sets: English questions about facts said in Chinese (en->zh),
the reverse (zh->en) and the same-language controls (en->en, zh->zh), which must not lose
what the other language's records gain. Unrelated questions (10 per language) measure the
relevance floor: the share that comes back empty.

A hit counts when the fact's record is in the top 10 (top 1) of ``deep_recall`` with the
default settings (floor included), with the cached vector matrix and with the cold path
(``vector_cache_mb=0``: Chroma queries). For each (cross_language_scale,
cross_language_scale_cjk) on the grid it prints the figures; run it on a checkout before
the change (the settings are ignored there) for the before row. Writes JSON.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import recall

UNRELATED = {
    "en": [
        "What is the boiling point of tungsten?",
        "How do I configure BGP on a Cisco router?",
        "Explain the Riemann hypothesis",
        "Which enzyme unwinds DNA during replication?",
        "What was the GDP of Portugal in 1987?",
        "How many moons does Neptune have?",
        "Who won the 1954 World Cup?",
        "What is the half-life of carbon-14?",
        "How do I compile Rust to WebAssembly?",
        "What is the speed of sound in helium?",
    ],
    "zh": [
        "钨的沸点是多少？",
        "如何在思科路由器上配置BGP？",
        "黎曼猜想是什么？",
        "海王星有几颗卫星？",
        "谁赢得了1954年世界杯？",
        "碳十四的半衰期是多久？",
        "布基纳法索的首都是哪里？",
        "第一次世界大战是哪一年爆发的？",
        "如何计算圆锥的体积？",
        "莎士比亚写过多少部戏剧？",
    ],
}


def _git() -> str:
    try:
        cmd = ["git", "rev-parse", "--short", "HEAD"]
        out = subprocess.run(cmd, capture_output=True, check=False)
        return out.stdout.decode().strip()
    except OSError:
        return ""


def filler(n: int) -> list[str]:
    """``n`` everyday messages per language from the shared data sets (none when absent):
    LoCoMo dev turns (English; the project's tuning set) and MemDaily messages (Chinese;
    the messages only, never a question) of the first file, in order."""
    out: list[str] = []
    locomo = Path("../shared/datasets/locomo/locomo_dev7.json")
    memdaily = Path("../shared/datasets/memdaily/01_simple_events.json")
    if n <= 0 or not locomo.is_file() or not memdaily.is_file():
        return out
    en = []
    for sample in json.loads(locomo.read_text()):
        conv = sample["conversation"]
        for key in sorted(k for k in conv if k.startswith("session_") and k[8:].isdigit()):
            en += [f"{t['speaker']}: {t['text']}" for t in conv[key]]
    zh = [m["message"] for t in json.loads(memdaily.read_text()) for m in t["message_list"]]
    return en[:n] + zh[:n]


def run(rows: list[dict[str, Any]], retrieval: dict[str, Any], extra: list[str]) -> dict[str, Any]:
    """The figures of one setting: found@1 / found@10 per question set, unrelated empty."""
    facts = [r for r in rows if "q_en" in r]
    found: dict[str, list[tuple[bool, bool]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        settings = recall.Settings(path=Path(tmp) / "m", vector_partitions=4, retrieval=retrieval)
        with recall.open(settings=settings) as mem:
            ids = {r["id"]: mem.add(r["text"], user_id="u") for r in rows}
            for text in extra:
                mem.add(text, user_id="u")
            for fact in facts:
                for qlang in ("en", "zh"):
                    hits = mem.deep_recall(fact[f"q_{qlang}"], user_id="u", top_k=10)
                    got = [h.id for h in hits]
                    key = f"{qlang}->{fact['lang']}"
                    hit = ids[fact["id"]]
                    found.setdefault(key, []).append((got[:1] == [hit], hit in got))
            empty = {
                lang: sum(not mem.deep_recall(q, user_id="u", top_k=10) for q in qs) / len(qs)
                for lang, qs in UNRELATED.items()
            }
    out: dict[str, Any] = {}
    for key, v in sorted(found.items()):
        out[key] = {
            "n": len(v),
            "found_at_1": sum(a for a, _ in v) / len(v),
            "found_at_10": sum(b for _, b in v) / len(v),
        }
    out["unrelated_empty"] = empty
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="tests/data/crosslang.jsonl")
    ap.add_argument("--scales", default="1.0")
    ap.add_argument("--scales-cjk", default="1.0")
    ap.add_argument("--share", default="1.0", help="cross_keyword_share values (1.0,0.5)")
    ap.add_argument("--filler", type=int, default=0, help="everyday messages per language")
    ap.add_argument("--cache", default="1024,0", help="vector_cache_mb values")
    ap.add_argument("--label", default="")
    ap.add_argument("--out", default="benchmarks/results/crosslang.json")
    args = ap.parse_args()
    rows = [json.loads(line) for line in Path(args.data).read_text().splitlines() if line]
    extra = filler(args.filler)
    results = []
    grid = [
        (float(s), float(sc), float(f), int(c))
        for s in args.scales.split(",")
        for sc in args.scales_cjk.split(",")
        for f in args.share.split(",")
        for c in args.cache.split(",")
    ]
    for s, sc, fill, cache in grid:
        retrieval: dict[str, Any] = {
            "cross_language_scale": s,
            "cross_language_scale_cjk": sc,
            "cross_keyword_share": fill,
            "vector_cache_mb": cache,
        }
        if "cross_keyword_share" not in type(recall.Settings().retrieval).model_fields:
            retrieval = {"vector_cache_mb": cache}  # a checkout before the change
        fig = run(rows, retrieval, extra)
        results.append({"retrieval": retrieval, **fig})
        sets = "  ".join(
            f"{k} {100 * v['found_at_10']:.0f}/{100 * v['found_at_1']:.0f}"
            for k, v in fig.items()
            if k != "unrelated_empty"
        )
        e = fig["unrelated_empty"]
        print(
            f"scale {s:g} cjk {sc:g} share {fill:g} cache {cache:>4}: {sets}  "
            f"unrelated empty en {100 * e['en']:.0f}% zh {100 * e['zh']:.0f}%"
            "  (found@10/found@1, %)",
            flush=True,
        )
    doc = {
        "label": args.label,
        "git": _git(),
        "data": args.data,
        "filler_per_language": len(extra) // 2,
        "results": results,
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps(doc, ensure_ascii=False))


if __name__ == "__main__":
    main()
