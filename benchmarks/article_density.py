"""How dense the offline long-term article is: what it keeps of the summaries it consumed.

    .venv/bin/python benchmarks/article_density.py [--data tests/data/sessions_en.jsonl
        tests/data/sessions_zh.jsonl] [--label after] [--show]
        [--out benchmarks/results/article_density.json]

Each file is 40 realistic chat sessions of one user (``{"at": "2026-01-05", "messages":
[...]}`` per line: a job, a family, a diet and an allergy, hobbies, a move, a trip, many
questions; an assistant answering and advising). Every session goes through
``update_memory(messages, user_id=..., at=...)`` with the default settings and no LLM (the
offline summarizer and reconstructor): past 20 summaries the oldest 5 are promoted, so 40
sessions make 4 article versions from the 20 oldest summaries.

For each promotion it reports the article's tokens (its three chapters) against the tokens
of every summary promoted so far (what the article was built from), and for the final
article: its sentences, how many come from the assistant (traced to the summary sentence
they share the most words with), how many of those are advice (an imperative, "you
should/could", "I'd recommend", 建议/可以/试试…), how many are the user's questions, and
which of the listed durable facts (diet, allergy, family, job, health) it holds, and
whether any version ever held them. Run it on a checkout before a change for the before
row (``--label before``). Prints a table, writes JSON.

``--more N`` then writes N more sessions of other talk, one a day after the file's last:
LoCoMo dev sessions after the English file (its first speaker as the user, the second as
the assistant) and MemDaily trajectories after the Chinese one (the user's messages), read
from ``--shared`` (default ``../shared/datasets``). The durable facts are then looked for in
the final article and in the memory block of a question about dinner, as the issue asks
("after 160 more sessions, the name and the allergy are still there").

    .venv/bin/python benchmarks/article_density.py --more 160 \
        --out benchmarks/results/article_longrun.json
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import recall
from recall.lifecycle.sentences import split_whole_sentences, utterances
from recall.text import count_tokens, tokenize

ROOT = Path(__file__).resolve().parents[1]
DATA = [ROOT / "tests/data/sessions_en.jsonl", ROOT / "tests/data/sessions_zh.jsonl"]

#: Facts about the user said in the 20 oldest sessions (the ones promoted), some of them
#: only beside a mood word; each is a pattern the article's text must match.
DURABLE = {
    "en": {
        "allergy: tree nuts": r"allergic to tree nuts",
        "diet: vegetarian": r"(?:user|they)(?:'re| is| are|'ve been| has been) (?:a )?vegetarian",
        "health: asthma": r"asthma",
        "family: husband Marco": r"husband,? Marco",
        "family: son Theo": r"son,? Theo",
        "family: cat Pixel": r"cat called Pixel",
        "job: designer": r"(?:UX|product) designer",
    },
    "zh": {
        "allergy: 芒果": r"芒果过敏",
        "diet: 吃素": r"用户吃素",
        "health: 乳糖不耐": r"乳糖不耐",
        "family: 老公陈磊": r"陈磊是建筑设计师|老公陈磊",
        "family: 儿子豆豆": r"儿子叫豆豆",
        "family: 猫团子": r"叫团子",
        "job: 产品经理": r"产品经理",
    },
}
# Advice, said by the assistant: an imperative opening, or a suggestion anywhere.
_ADVICE_EN = re.compile(
    r"^(?:(?:please|just|also|then|so|first|yes|no|sure)[,:]?\s+)?(?:try|use|add|put|keep|"
    r"take|make|check|ask|book|pack|start|run|fix|invite|plan|serve|open|leave|block|wear|"
    r"email|call|register|prepare|recruit|rank|move|label|practise|practice|avoid|give|send|"
    r"end|frame|set|spend|learn|carry|show|renew|get|buy|visit|register|tell|choose)\b"
    r"|\b(?:you should|you could|you might|you can|you'll want|i'd recommend|i recommend|"
    r"i'd suggest|i suggest|consider|make sure|it's worth|aim to|don't forget)\b",
    re.IGNORECASE,
)
_ADVICE_ZH = re.compile(
    r"^(?:先|可以|建议|试试|试着|用|把|注意|记得|别|不要|提前|每天|多|保持|考虑|避免|尽量|"
    r"最好|定期|确认|看看|问|选|拍照|按|预约|给|出发|开园|苏州|园区|笑着|一般)"
    r"|建议|可以试试|不妨|最好|记得|别忘了|要注意"
)
_QUESTION = re.compile(r"[?？][\"'”’)）]*$")
_DATE = re.compile(r"^\[\d{4}-\d{2}-\d{2}\]\s*")


def _git() -> str:
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, check=False)
    return out.stdout.decode().strip()


def _words(text: str) -> frozenset[str]:
    return frozenset(t for t in tokenize(text) if len(t) > 1 or not t.isascii())


def _origin(sentence: str, said: list[tuple[str, str, frozenset[str]]]) -> tuple[str, str]:
    """(role, text) of the summary sentence ``sentence`` shares the most words with."""
    words = _words(_DATE.sub("", sentence))
    if not words or not said:
        return "", ""
    best = max(said, key=lambda s: 2 * len(words & s[2]) / (len(words) + len(s[2]) or 1))
    return best[0], best[1]


def kind_of(role: str, text: str) -> str:
    """What an article sentence came from: advice, assistant, question or user."""
    if role == "assistant":
        advice = _ADVICE_ZH if re.search(r"[\u4e00-\u9fff]", text) else _ADVICE_EN
        return "advice" if advice.search(text) or _QUESTION.search(text) else "assistant"
    return "question" if _QUESTION.search(text) else "user"


def more_sessions(lang: str, n: int, shared: Path) -> list[list[dict[str, str]]]:
    """``n`` sessions of other talk: LoCoMo dev (en) or MemDaily (zh), in file order."""
    out: list[list[dict[str, str]]] = []
    if lang == "en":
        for conv in json.loads((shared / "locomo/locomo_dev7.json").read_text(encoding="utf-8")):
            c = conv["conversation"]
            keys = [k for k in c if re.fullmatch(r"session_\d+", k)]
            for k in sorted(keys, key=lambda k: int(k[8:])):
                roles = {c["speaker_a"]: "user", c["speaker_b"]: "assistant"}
                out.append([{"role": roles[t["speaker"]], "content": t["text"]} for t in c[k]])
    else:
        for f in sorted((shared / "memdaily").glob("*.json")):
            for traj in json.loads(f.read_text(encoding="utf-8")):
                said = traj["message_list"]
                out.append([{"role": "user", "content": m["message"]} for m in said])
    if len(out) < n:
        raise SystemExit(f"only {len(out)} more sessions in {shared} for {lang}, asked for {n}")
    return out[:n]


#: The question whose memory block is searched for the durable facts after --more.
DINNER = {"en": "What should I cook for dinner tonight?", "zh": "今晚做什么菜好？"}


def run(path: Path, lang: str, show: bool, more: int = 0, shared: Path = Path()) -> dict[str, Any]:
    """Feed one file (then ``more`` other sessions) through update_memory; the figures of
    its article."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    uid = f"density-{lang}"
    block = ""
    with tempfile.TemporaryDirectory() as tmp:
        settings = recall.Settings(path=Path(tmp) / "m", vector_partitions=4, llm_model=None)
        with recall.open(settings=settings) as mem:
            for row in rows:
                at = datetime.fromisoformat(row["at"]).replace(hour=12, tzinfo=UTC)
                mem.update_memory(row["messages"], user_id=uid, at=at)
            for k, messages in enumerate(more_sessions(lang, more, shared) if more else []):
                mem.update_memory(messages, user_id=uid, at=at + timedelta(days=k + 1))
            mem.flush(timeout=3600)
            final = mem.long_term(uid)
            versions = [mem.long_term(uid, version=v) for v in range(1, final.version + 1)]
            archive = mem.records(uid, kinds=["archive"])
            if more:
                block = mem.get_relevant_memories(DINNER[lang], user_id=uid)
    consumed: dict[int, int] = {}
    said: list[tuple[str, str, frozenset[str]]] = []
    for r in archive:
        v = r.metadata.get("chapter_version")
        if isinstance(v, int):
            consumed[v] = consumed.get(v, 0) + count_tokens(r.text)
            said += [(u.speaker.role, u.text, _words(u.text)) for u in utterances(r.text)]
    promotions = []
    total = 0
    for lt in versions:
        total += consumed.get(lt.version, 0)
        tokens = sum(count_tokens(t) for t in lt.chapters().values() if t)
        promotions.append({"version": lt.version, "article_tokens": tokens, "consumed": total})
    sentences = {
        name: [s for p in text.split("\n\n") for s in split_whole_sentences(p)]
        for name, text in final.chapters().items()
    }
    kinds: dict[str, list[str]] = {"advice": [], "assistant": [], "question": [], "user": []}
    for sents in sentences.values():
        for s in sents:
            kinds[kind_of(*_origin(s, said))].append(s)
    text = final.render()
    every = "\n".join(lt.render() for lt in versions)
    facts = {
        label: {
            "final": bool(re.search(p, text)),
            "any_version": bool(re.search(p, every)),
            **({"block": bool(re.search(p, block))} if more else {}),
        }
        for label, p in DURABLE[lang].items()
    }
    if show:
        print(f"== {path.name}: version {final.version} ==\n{text}\n")
    last = promotions[-1] if promotions else {"article_tokens": 0, "consumed": 0}
    return {
        "data": str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path),
        "sessions": len(rows) + more,
        "version": final.version,
        "promotions": promotions,
        "article_tokens": last["article_tokens"],
        "consumed_tokens": last["consumed"],
        "ratio": round(last["article_tokens"] / last["consumed"], 3) if last["consumed"] else None,
        "chapter_tokens": {n: count_tokens(t) if t else 0 for n, t in final.chapters().items()},
        "sentences": {n: len(s) for n, s in sentences.items()},
        "from_assistant": len(kinds["advice"]) + len(kinds["assistant"]),
        "assistant_advice": len(kinds["advice"]),
        "user_questions": len(kinds["question"]),
        "advice_examples": kinds["advice"][:5],
        "question_examples": kinds["question"][:5],
        "durable": facts,
        "article": text,
    }


def table(results: list[dict[str, Any]]) -> str:
    """The figures as a markdown table, one row per file."""
    head = (
        "| data | article / consumed tokens | per promotion (%) | sentences | from assistant "
        "(advice) | user questions | durable facts kept (ever) |\n|---|---|---|---|---|---|---|"
    )
    rows = []
    for r in results:
        per = " ".join(
            f"{100 * p['article_tokens'] / p['consumed']:.0f}"
            for p in r["promotions"]
            if p["consumed"]
        )
        kept = sum(f["final"] for f in r["durable"].values())
        ever = sum(f["any_version"] for f in r["durable"].values())
        rows.append(
            f"| {Path(r['data']).name} | {r['article_tokens']:,} / {r['consumed_tokens']:,} "
            f"({100 * (r['ratio'] or 0):.0f}%) | {per} | {sum(r['sentences'].values())} | "
            f"{r['from_assistant']} ({r['assistant_advice']}) | {r['user_questions']} | "
            f"{kept}/{len(r['durable'])} ({ever}) |"
        )
    return "\n".join([head, *rows])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", nargs="+", type=Path, default=DATA, help="session files (jsonl)")
    ap.add_argument("--label", default="", help="a name for this run (before, after)")
    ap.add_argument("--show", action="store_true", help="print each final article")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/article_density.json")
    ap.add_argument("--more", type=int, default=0, help="sessions of other talk after each file")
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared/datasets")
    args = ap.parse_args()
    results = []
    for path in args.data:
        lang = "zh" if "zh" in path.stem else "en"
        results.append(run(path.resolve(), lang, args.show, args.more, args.shared))
    print(table(results))
    for r in results:
        missing = [k for k, v in r["durable"].items() if not v["final"]]
        print(f"{Path(r['data']).name}: durable facts missing from the final article: {missing}")
        if args.more:
            gone = [k for k, v in r["durable"].items() if not v["block"]]
            print(f"{Path(r['data']).name}: durable facts missing from the memory block: {gone}")
    doc = {"label": args.label, "git": _git(), "results": results}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
