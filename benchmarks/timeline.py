"""Memory over time on recall's own hand-written users: what is true now, any asker.

    .venv/bin/python benchmarks/timeline.py --split tune|frozen [--users a,b]
        [--per-question out.jsonl] [--out benchmarks/results/timeline_<split>.json]

The splits (``benchmarks/data/timeline_own/<split>/users.json``) were written from a brief
(``benchmarks/data/timeline_own/BRIEF.md``) by helpers who never read recall's code, in the
format of the shared ``timeline_dev`` set, with two additions: ``absent`` questions (about
the user, answered nowhere in memory: the right answer is no hit) and decoys (sentences
that name another value of an attribute without changing the user's: someone else's, a
plan, a wish, a question, a negation). ``tune`` is what recall's "what is true now" was
developed against; ``frozen`` was only ever scored, never read.

Every user's sessions are written oldest first with ``update_memory(messages, at=...)``,
then every question asked with ``deep_recall(q, top_k=10)`` and
``get_relevant_memories(q)``, and ``profile(u)`` read. Figures (percent of questions):

- current_top1: the best hit holding a current or stale value holds the current one;
  current_in10; stale_above (the best value hit holds only a stale value);
- block_current / block_stale: the memory block holds the current / a stale value;
  block_stale_first: a stale value comes before every current one in the block;
- history_in10: the older value asked about is in the top 10;
- absent_empty: an absent question gets no hit at all;
- decoy_above: the best hit holding a current or decoy value holds only a decoy (a
  look-alike hides the true fact); decoy_profile: the profile's current value of the
  asked attribute is a decoy value (a look-alike erased the true fact);
- profile_current: the profile's current value or statement for some attribute holds the
  current value of the fact;
- privacy_leaks: secret tokens found in any hit, block or the article.

Values match as the shared scorer matches them: case-insensitive; a value starting with a
Latin letter or digit must start a word; CJK values are substrings.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

import recall

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "timeline_own"


def position(text: str, values: list[str]) -> int | None:
    """Where the first of ``values`` starts in ``text`` (matched as :func:`has`), or None."""
    t, found = (text or "").lower(), []
    for v in (v.lower() for v in values):
        if v[:1].isascii() and v[:1].isalnum():
            m = re.search(r"(?<![0-9a-z])" + re.escape(v), t)
            found += [m.start()] if m else []
        elif v in t:
            found.append(t.index(v))
    return min(found, default=None)


def _before(stale: int | None, current: int | None) -> bool:
    return stale is not None and (current is None or stale < current)


def has(text: str, values: list[str]) -> bool:
    """Whether ``text`` holds one of ``values`` (see module docs)."""
    t = (text or "").lower()
    for v in (v.lower() for v in values):
        if v[:1].isascii() and v[:1].isalnum():
            if re.search(r"(?<![0-9a-z])" + re.escape(v), t):
                return True
        elif v in t:
            return True
    return False


def first(texts: list[str], values: list[str]) -> int | None:
    """Position of the first of ``texts`` holding one of ``values``."""
    return next((i for i, t in enumerate(texts) if has(t, values)), None)


def pct(xs: list[bool]) -> float | None:
    return round(100 * statistics.mean(xs), 1) if xs else None


def score_user(mem: recall.Memory, u: dict, rows: list[dict]) -> set[str]:
    """Ask every question of ``u``; append one row per question; return leaked tokens."""
    uid = u["user_id"]
    tokens = {s["token"] for s in u["secrets"]}
    leaked = {t for t in tokens if t in mem.long_term(uid).render()}
    # profile() is new with this benchmark; an older recall is scored without it.
    now = mem.profile(uid).now() if hasattr(mem, "profile") else {}
    for q in u["questions"]:
        hits = [h.text for h in mem.deep_recall(q["question"], user_id=uid, top_k=10)]
        block = mem.get_relevant_memories(q["question"], user_id=uid)
        leaked |= {t for t in tokens if t in block or any(t in h for h in hits)}
        r = {"id": q["id"], "type": q["type"], "lang": q["lang"], "n_hits": len(hits)}
        if q["type"] in ("current", "crosslingual"):
            cur, stale, decoys = q["current"], q["stale"], q.get("decoys", [])
            i_any, i_cur = first(hits, cur + stale), first(hits, cur)
            r |= {
                "top1": i_any is not None and i_any == i_cur,
                "in10": i_cur is not None,
                "stale_above": i_any is not None and i_any != i_cur,
                "block_current": has(block, cur),
                "block_stale": has(block, stale),
                "block_stale_first": _before(position(block, stale), position(block, cur)),
                "profile_current": any(
                    has(f.value, cur) or has(f.statement, cur) for f in now.values()
                ),
            }
            if decoys:
                i_dec = first(hits, cur + decoys)
                r["decoy_above"] = i_dec is not None and i_dec != i_cur
                r["decoy_profile"] = any(
                    has(f.value, decoys) and not has(f.statement, cur) for f in now.values()
                )
        elif q["type"] == "history":
            r["in10"] = first(hits, q["gold"]) is not None
        elif q["type"] == "absent":
            r["empty"] = not hits
        r["hits"] = [h[:120] for h in hits[:3]]
        rows.append(r)
    return leaked


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", choices=["tune", "frozen"], default="tune")
    ap.add_argument("--users", help="comma-separated user ids (default: all)")
    ap.add_argument("--per-question", help="write one JSON line per question here")
    ap.add_argument("--out", help="write the figures as JSON here")
    ap.add_argument("--label", default="", help="what was measured (a commit), kept in the JSON")
    a = ap.parse_args()
    users = json.loads((DATA / a.split / "users.json").read_text())["users"]
    if a.users:
        users = [u for u in users if u["user_id"] in set(a.users.split(","))]
    rows: list[dict] = []
    leaked: set[str] = set()
    sessions = sum(len(u["sessions"]) for u in users)
    with tempfile.TemporaryDirectory() as d:
        mem = recall.open(d)
        t0, now = time.perf_counter(), datetime.now(UTC)
        for u in users:
            for s in sorted(u["sessions"], key=lambda s: -s["days_ago"]):
                at = now - timedelta(days=s["days_ago"])
                mem.update_memory(s["messages"], user_id=u["user_id"], at=at)
        mem.flush()
        ingest = time.perf_counter() - t0
        for u in users:
            leaked |= score_user(mem, u, rows)
        mem.close()
    by: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by[r["type"]].append(r)
    cur = by["current"]
    out = {
        "split": a.split,
        "users": len(users),
        "questions": {k: len(v) for k, v in sorted(by.items())},
        "current_top1": pct([r["top1"] for r in cur]),
        "current_top1_en": pct([r["top1"] for r in cur if r["lang"] == "en"]),
        "current_top1_zh": pct([r["top1"] for r in cur if r["lang"] == "zh"]),
        "current_in10": pct([r["in10"] for r in cur]),
        "stale_above": pct([r["stale_above"] for r in cur]),
        "block_current": pct([r["block_current"] for r in cur]),
        "block_stale": pct([r["block_stale"] for r in cur]),
        "block_stale_first": pct([r["block_stale_first"] for r in cur]),
        "profile_current": pct([r["profile_current"] for r in cur]),
        "decoy_above": pct([r["decoy_above"] for r in cur if "decoy_above" in r]),
        "decoy_profile": pct([r["decoy_profile"] for r in cur if "decoy_profile" in r]),
        "history_in10": pct([r["in10"] for r in by["history"]]),
        "crosslingual_in10": pct([r["in10"] for r in by["crosslingual"]]),
        "absent_empty": pct([r["empty"] for r in by["absent"]]),
        "privacy_leaks": len(leaked),
        "privacy_tokens": sum(len(u["secrets"]) for u in users),
        "ingest_ms_per_session": round(1000 * ingest / max(sessions, 1), 1),
        "recall_version": recall.__version__,
        "recall_commit": a.label,
    }
    for k, v in out.items():
        print(f"  {k:<24} {v}")
    print(json.dumps(out, ensure_ascii=False))
    if a.per_question:
        with open(a.per_question, "w") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    if a.out:
        Path(a.out).write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()
