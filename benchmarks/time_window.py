"""Time-scoped recall: do the hits of "what did we talk about last week?" fall in last week?

Feeds the 40 dated sessions of ``tests/data/sessions_en.jsonl`` and ``sessions_zh.jsonl``
through ``update_memory(messages, at=)`` (one user per language; 40 updates promote the
oldest into the long-term article), then asks, for each session, questions whose time
expression names a window holding it, with ``now=`` set after it:

- *time only*: "What did we talk about yesterday?", "…three days ago?", "…last week?",
  "…in March?", "昨天我们聊了什么？", "上周…", "三天前…", "三月份…";
- *time and topic*: "What did I say about <a word of that session> last week?".

A hit is *inside* when the span it was said over (``created_at``, or a Dynamic passage's
``said_from``/``said_to``) meets the window the query names (read by
:func:`recall.text.when.resolve`, the resolver deep_recall uses). Reported per kind of
question and language: precision@5 (hits inside among the top 5, over 5 and over the hits
returned) and found@10 (the asked-about session's statement among the top 10: a hit inside
the window sharing a word with it; for time-only questions, any hit inside).

    .venv/bin/python benchmarks/time_window.py            # writes results/time_window.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import recall
from recall.models import Hit
from recall.text import tokenize
from recall.text.when import resolve

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
_MONTHS = ["January", "February", "March", "April", "May", "June", "July"]
_STOP_WORDS = """the and with for that this have what about your you from they them been just
yesterday today tomorrow week weekend month conversation 昨天 今天 上周 我们"""
_STOP = set(_STOP_WORDS.split())


def _sessions(lang: str) -> list[dict[str, Any]]:
    lines = (DATA / f"sessions_{lang}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _at(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(hour=12, tzinfo=UTC)


def _topic(session: dict[str, Any]) -> str:
    first = next(m["content"] for m in session["messages"] if m["role"] == "user")
    words = [t for t in tokenize(first) if len(t) >= (2 if lang_of(first) == "zh" else 5)]
    words = [w for w in words if w.lower() not in _STOP and not w.isdigit()]
    return max(words, key=len) if words else ""


def lang_of(text: str) -> str:
    return "zh" if any("\u4e00" <= c <= "\u9fff" for c in text) else "en"


def _questions(lang: str, day: datetime, topic: str) -> list[tuple[str, str, datetime]]:
    """(kind, question, now) for one session said on ``day``."""
    month = _MONTHS[day.month - 1]
    zh_month = f"{day.month}月份"
    if lang == "en":
        only = [
            ("What did we talk about yesterday?", day + timedelta(days=1)),
            ("What did I tell you three days ago?", day + timedelta(days=3)),
            ("What did we talk about last week?", day + timedelta(days=7)),
            (f"What did we discuss in {month}?", day + timedelta(days=62)),
        ]
        topical = [(f"What did I say about {topic} last week?", day + timedelta(days=7))]
    else:
        only = [
            ("昨天我们聊了什么？", day + timedelta(days=1)),
            ("三天前我跟你说了什么？", day + timedelta(days=3)),
            ("上周我们聊了什么？", day + timedelta(days=7)),
            (f"{zh_month}我们聊了些什么？", day + timedelta(days=62)),
        ]
        topical = [(f"上周我说的{topic}是怎么回事？", day + timedelta(days=7))]
    out = [("time only", q, now) for q, now in only]
    if topic:
        out += [("time and topic", q, now) for q, now in topical]
    return out


def _span(hit: Hit) -> tuple[datetime, datetime]:
    meta = hit.metadata or {}
    lo, hi = meta.get("said_from"), meta.get("said_to")
    if isinstance(lo, str) and isinstance(hi, str):
        return datetime.fromisoformat(lo), datetime.fromisoformat(hi)
    return hit.created_at, hit.created_at


def _inside(hit: Hit, start: datetime, end: datetime) -> bool:
    lo, hi = _span(hit)
    return lo < end and hi >= start


def run(langs: list[str], top_k: int = 10) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder, recall.open(folder) as mem:
        for lang in langs:
            sessions = _sessions(lang)
            for s in sessions:
                mem.update_memory(s["messages"], user_id=lang, at=_at(s["at"]))
            mem.flush()
            for s in sessions:
                day, topic = _at(s["at"]), _topic(s)
                for kind, q, now in _questions(lang, day, topic):
                    window = resolve(q, now)
                    if window is None or not (window.start <= day < window.end):
                        continue  # the phrase does not reach the session from this now
                    hits = mem.deep_recall(q, user_id=lang, top_k=top_k, now=now)
                    inside = [_inside(h, window.start, window.end) for h in hits]
                    top5 = inside[:5]
                    if kind == "time only":
                        found = any(inside)
                    else:
                        found = any(
                            i and topic in h.text for i, h in zip(inside, hits, strict=True)
                        )
                    rows.append(
                        {
                            "lang": lang,
                            "kind": kind,
                            "question": q,
                            "now": now.isoformat(),
                            "p5": sum(top5) / 5,
                            "p5_returned": sum(top5) / len(top5) if top5 else 1.0,
                            "found10": found,
                            "hits": len(hits),
                        }
                    )
    return {"rows": rows, "summary": _summary(rows)}


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    groups: dict[str, list[dict[str, Any]]] = {"all": rows}
    for r in rows:
        groups.setdefault(f"{r['lang']} / {r['kind']}", []).append(r)
        groups.setdefault(r["kind"], []).append(r)
    for name, rs in sorted(groups.items()):
        out[name] = {
            "questions": len(rs),
            "precision@5": round(statistics.mean(r["p5"] for r in rs), 3),
            "precision@5 of returned": round(statistics.mean(r["p5_returned"] for r in rs), 3),
            "found@10": round(statistics.mean(float(r["found10"]) for r in rs), 3),
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", choices=["en", "zh", "both"], default="both")
    ap.add_argument(
        "--out", type=Path, default=ROOT / "benchmarks" / "results" / "time_window.json"
    )
    args = ap.parse_args()
    langs = ["en", "zh"] if args.lang == "both" else [args.lang]
    t0 = time.perf_counter()
    result = run(langs)
    result["seconds"] = round(time.perf_counter() - t0, 1)
    print(f"{'group':<28} {'n':>4} {'P@5':>6} {'P@5 ret':>8} {'found@10':>9}")
    for name, m in result["summary"].items():
        print(
            f"{name:<28} {m['questions']:>4} {m['precision@5']:>6.3f} "
            f"{m['precision@5 of returned']:>8.3f} {m['found@10']:>9.3f}"
        )
    print(f"{result['seconds']} s")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
