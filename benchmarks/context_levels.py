"""A 200-round coding session at the default window: the usage levels it passes, in order.

    .venv/bin/python benchmarks/context_levels.py [--rounds 200] [--out FILE.json]

Each round the user asks for a change, the assistant reads a file (a tool call and its
result, cut to 1,000 characters in history as the token-budget document says) and answers;
a ContextBuilder builds the turn with a soul of about 1,000 tokens, as a host would. The
session runs at the default settings (a 128,000-token window), once in English and once in
Chinese. Printed: every warning the host pulls (``report.warning``, each level at most once
per 5 minutes of the session's clock, which moves 2 minutes a round) with its message and
rounds left, and what ``Session(on_compaction=...)`` hears around each compaction:
"compacting now" before it runs and the completion message after. The JSON holds the same.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from recall.context.builder import ContextBuilder
from recall.context.session import Session
from recall.context.usage import UsageWarning

SOUL = "You are Lark, a careful coding assistant. Keep answers short and exact.\n" * 70
FILES = ["billing/retry.py", "api/routes.py", "db/models.py", "jobs/scheduler.py", "ui/forms.ts"]
ASK = {
    "en": "Round {n}: in {path}, make the retry limit configurable and keep the tests green.",
    "zh": "第{n}轮:把 {path} 里的重试次数改成可配置的,测试要继续通过。",
}
REPLY = {
    "en": "Done for {path}: the limit now reads RETRY_LIMIT (default 5); tests updated. " * 14,
    "zh": "{path} 改好了:重试次数读取 RETRY_LIMIT(默认 5),测试已更新。" * 8,
}


def source(path: str, n: int) -> str:
    """A file's text as a read_file tool returns it (over 1,000 characters: cut in history)."""
    lines = [f"# {path} (revision {n})"]
    lines += [f"def step_{n}_{k}(job, limit={k}):\n    return job.retry(limit)" for k in range(40)]
    return "\n".join(lines)


def run(lang: str, rounds: int) -> dict[str, Any]:
    """One session of ``rounds`` rounds in ``lang``: the warnings and the compaction notices."""
    clock = [0.0]
    notices: list[dict[str, Any]] = []
    session = Session(clock=lambda: clock[0])

    def heard(w: UsageWarning) -> None:
        when = "after" if w.completed else "before"
        notices.append({"round": n, "when": when, "message": w.completed or w.message})

    session.on_compaction = heard
    builder = ContextBuilder(session.settings)
    warnings: list[dict[str, Any]] = []
    for n in range(1, rounds + 1):
        path = FILES[n % len(FILES)]
        ask = ASK[lang].format(n=n, path=path)
        built = builder.build(session=session, soul=SOUL, user_input=ask)
        w = built.report.warning
        if w is not None:
            warnings.append(
                {
                    "round": n,
                    "level": w.level,
                    "percent": round(built.report.usage.ratio * 100),
                    "message": w.message,
                    "rounds_left": w.rounds_left,
                    "completed": w.completed,
                }
            )
        session.add_user(ask)
        session.add_tool_use("read_file", {"path": path}, f"call_{n}")
        session.add_tool_result(f"call_{n}", source(path, n))
        session.add_assistant(REPLY[lang].format(path=path))
        clock[0] += 120.0
    return {
        "lang": lang,
        "rounds": rounds,
        "window": session.settings.context.context_window_tokens,
        "compactions": len(session.compactions),
        "warnings": warnings,
        "compaction_notices": notices,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    out = [run(lang, args.rounds) for lang in ("en", "zh")]
    for r in out:
        print(
            f"\n{r['lang']}: {r['rounds']} rounds at a {r['window']:,}-token window, "
            f"{r['compactions']} compaction(s); each level's first warning, then repeats"
        )
        events: list[tuple[int, int, str]] = []
        last = None
        for w in r["warnings"]:
            if w["level"] != last:
                done = f"  {w['completed']}" if w["completed"] else ""
                text = f"{w['level']:>8}  {w['message']}  (~{w['rounds_left']} rounds left){done}"
                events.append((w["round"], 1, text))
            last = w["level"]
        for c in r["compaction_notices"]:
            order = 0 if c["when"] == "before" else 2
            events.append((c["round"], order, f"on_compaction, {c['when']}: {c['message']}"))
        for rnd, _, text in sorted(events):
            print(f"  round {rnd:>3}  {text}")
        repeats = len(r["warnings"]) - sum(1 for _, k, _ in events if k == 1)
        print(f"  ({repeats} repeats of a level after its 5-minute cooldown)")
    if args.out:
        args.out.write_text(json.dumps(out, ensure_ascii=False, indent=2) + "\n")


if __name__ == "__main__":
    main()
