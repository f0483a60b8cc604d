"""What is true now, asked in other forms: each current question as written, all in lower
case, as keywords, and as lower-case keywords (issue 33, "any asker").

    .venv/bin/python benchmarks/asker_forms.py --data ../shared/datasets/timeline_dev/users.json
    .venv/bin/python benchmarks/asker_forms.py --data benchmarks/data/timeline_own/tune/users.json
        [--store DIR] [--out FILE.json]

Every user's sessions are written once (``update_memory(messages, at=now - days_ago)``,
oldest first, into ``--store`` when it is empty, or a temporary folder; a ``--store`` that
holds the set already is only read). Then every ``current`` question is asked in each form
with ``deep_recall(q, top_k=10)``, scored as the shared scorer scores it: current_top1 (the
best hit holding a current or stale value holds the current one) and current_in10. The
keyword form drops the function words of an English question and keeps the person
("Where does Sam work now?" -> "Sam work", "Who's my dentist?" -> "Who's my
dentist"); Chinese questions have no keyword form here. A form recall reads as well as
the question as written loses nothing.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Sibling scripts (a script's own folder is first on sys.path).
from now_bounds import ingest
from timeline import first

import recall

#: Dropped from an English question to make its keyword form (question and function
#: words, and words of the present: agents' keyword queries carry none of them). The
#: person stays ("my dentist", "Sam employer"): without it a keyword query asks of no one.
_FUNCTION = frozenset(
    (
        *("what", "which", "where", "who", "how", "does", "do", "did", "is", "are", "am"),
        *("the", "a", "an", "of", "in", "at", "for", "to"),
        *("now", "these", "days", "currently", "right", "moment", "present", "today"),
        "nowadays",
    )
)
_CJK = re.compile(r"[\u4e00-\u9fff]")


def keywords(question: str) -> str | None:
    """The question's keyword form, or None for a Chinese question."""
    if _CJK.search(question):
        return None
    return " ".join(w for w in re.findall(r"[\w']+", question) if w.lower() not in _FUNCTION)


FORMS: dict[str, Callable[[str], str | None]] = {
    "as_written": lambda q: q,
    "lower": str.lower,
    "keywords": keywords,
    "keywords_lower": lambda q: None if (k := keywords(q)) is None else k.lower(),
}


def score(data: dict[str, Any], store: Path) -> dict[str, dict[str, float]]:
    """Per form: the questions it applies to, current_top1 and current_in10 (%)."""
    out: dict[str, list[tuple[bool, bool]]] = {form: [] for form in FORMS}
    with recall.open(store) as mem:
        for u in data["users"]:
            for q in (q for q in u["questions"] if q["type"] == "current"):
                for form, rewrite in FORMS.items():
                    asked = rewrite(q["question"])
                    if not asked:
                        continue
                    hits = mem.deep_recall(asked, user_id=u["user_id"], top_k=10)
                    texts = [h.text for h in hits]
                    i_any, i_cur = (
                        first(texts, q["current"] + q["stale"]),
                        first(texts, q["current"]),
                    )
                    out[form].append((i_any is not None and i_any == i_cur, i_cur is not None))
    return {
        form: {
            "n": len(rows),
            "current_top1": round(100 * sum(t for t, _ in rows) / len(rows), 1),
            "current_in10": round(100 * sum(i for _, i in rows) / len(rows), 1),
        }
        for form, rows in out.items()
        if rows
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--data", required=True, help="a timeline users.json")
    ap.add_argument("--store", type=Path, help="a folder holding the set (written if empty)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    data = json.loads(Path(args.data).read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        store = args.store or Path(tmp) / "m"
        if not store.exists() or not any(store.iterdir()):
            ingest(data, store)
        result = score(data, store)
    for form, figures in result.items():
        print(f"  {form:<16} {figures}")
    if args.out:
        args.out.write_text(json.dumps({"data": args.data, "forms": result}, indent=2) + "\n")


if __name__ == "__main__":
    main()
