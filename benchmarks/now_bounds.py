"""What bounds "what is true now" offline: the current questions scored with one reading
of recall's replaced by a perfect one (an oracle that knows the set's values).

    .venv/bin/python benchmarks/now_bounds.py --data ../shared/datasets/timeline_dev/users.json
    .venv/bin/python benchmarks/now_bounds.py --data benchmarks/data/timeline_own/tune/users.json
        [--store DIR] [--modes main,values,labels,both,gate,retro,all] [--out FILE.json]

Every user's sessions are written once (``update_memory(messages, at=now - days_ago)``,
oldest first, into ``--store`` or a temporary folder); each mode then runs in its own
process over that store and asks every ``current`` question with ``deep_recall(q,
top_k=10)``. Figures as the shared scorer counts them: current_top1 (the best hit holding
a current or stale value holds the current one), current_in10, stale_above.

Modes (each changes one step of :mod:`recall.user.now` / :mod:`recall.index.hits`):

- ``main``: recall as it is;
- ``values``: a sentence's salient words are exactly the set's values it holds (a perfect
  value reader; attribute labels as recall reads them);
- ``labels``: every user sentence holding a value of a question carries the attribute
  recall reads that question as asking, and no other sentence carries it (a perfect
  attribute labeller for the sentences that matter);
- ``both``: ``labels`` and ``values`` together;
- ``gate``: only a sentence holding some value may introduce one (a perfect "states a
  value" reader);
- ``retro``: in the newest-first re-ordering, a sentence holding only a stale value goes
  after every other statement (a perfect reader of "this speaks of a former value");
- ``all``: ``labels``, ``values`` and ``retro`` together; any of them joined by ``+``
  (``values+retro``) is that combination.

The oracles read the evaluation set's values at run time; nothing of them is in recall.
This measures the architecture, not a mechanism to ship.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

# timeline.py is a sibling script (a script's own folder is first on sys.path): the
# shared scorer's match, as our splits' benchmark has it.
from timeline import has

MODES = ("main", "values", "labels", "both", "gate", "retro", "values+retro", "labels+retro", "all")
#: Names of combined modes.
ALIASES = {"both": "labels+values", "all": "labels+values+retro"}


def _current_questions(data: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {
        u["user_id"]: [q for q in u["questions"] if q["type"] == "current"] for u in data["users"]
    }


def ingest(data: dict[str, Any], store: Path) -> None:
    """Write every user's sessions, oldest first, each at its own date."""
    import recall

    now = datetime.now(UTC)
    mem = recall.open(store)
    for u in data["users"]:
        for s in sorted(u["sessions"], key=lambda s: -s["days_ago"]):
            at = now - timedelta(days=s["days_ago"])
            mem.update_memory(s["messages"], user_id=u["user_id"], at=at)
    mem.flush()
    mem.close()


def _patch(mode: str, data: dict[str, Any]) -> None:
    """Replace one reading of recall's with the oracle's (see module docs)."""

    from recall.user import asked, now
    from recall.user.attributes import space_for

    parts = set(ALIASES.get(mode, mode).split("+"))
    questions = _current_questions(data)
    current = sorted({v for qs in questions.values() for q in qs for v in q["current"]})
    stale = sorted({v for qs in questions.values() for q in qs for v in q["stale"]})
    values = sorted(set(current) | set(stale))

    if "values" in parts:

        def salient(s: Any, _uses: Any) -> frozenset[str]:
            return frozenset(v.lower() for v in values if has(s.text, [v]))

        def value(_self: Any, f: Any) -> str:
            return str(f.words[0])

        now._salient = salient  # type: ignore[attr-defined]
        now.UserFacts.value = value  # type: ignore[method-assign]
    if "labels" in parts:
        read = asked.user_facts
        done: set[int] = set()

        def user_facts(part: Any, embedder: Any, analyzer: Any) -> Any:
            uf = read(part, embedder, analyzer)
            if id(uf) in done or not part.records:
                return uf
            done.add(id(uf))
            space = space_for(embedder)
            asks = [
                (asked.asked_attribute(q["question"], uf, space), q)
                for q in questions.get(part.records[0].user_id, [])
            ]
            targets = {a for a, _ in asks if a}
            relabelled = []
            for s in uf.sentences:
                holds = [a for a, q in asks if a and has(s.text, q["current"] + q["stale"])]
                label = holds[0] if holds else (None if s.attribute in targets else s.attribute)
                relabelled.append(dataclasses.replace(s, attribute=label))
            uf.sentences[:] = relabelled
            uf._history.clear()
            uf.__dict__.pop("attribute_array", None)
            return uf

        asked.user_facts = user_facts  # type: ignore[assignment]
    if "gate" in parts:
        from recall.user import now_parse

        assertion = now_parse.is_assertion
        now_parse.is_assertion = lambda text: assertion(text) and has(text, values)  # type: ignore[assignment]
    if "retro" in parts:
        # A sentence holding only a stale value: a perfect reader of "speaks of the past".
        past_last(lambda head: [has(r.text, stale) and not has(r.text, current) for r in head])


def past_last(past: Callable[[Sequence[Any]], Sequence[bool]]) -> None:
    """Replace recall's newest-first re-ordering (``recall.index.hits.newest_asserted``)
    by one where the statements ``past(head)`` marks (one flag per record of the window)
    go after the other statements, newest first too; plans, wishes and questions keep
    their places as before. Used by the retro oracle and by the readers that try to learn
    it (``train_former.py``, ``former_mentions.py``)."""
    import numpy as np

    from recall.index import hits

    states = hits._states  # type: ignore[attr-defined]

    def newest_asserted(order: Any, head: Any) -> Any:
        depth = len(head)
        places = [k for k, r in enumerate(head) if states(r)]
        was = past(head)
        newest = sorted(places, key=lambda k: (was[k], -head[k].created_at.timestamp()))
        out = [int(j) for j in order[:depth]]
        for k, src in zip(places, newest, strict=True):
            out[k] = int(order[src])
        return np.concatenate([np.array(out, dtype=np.intp), order[depth:]]).astype(np.intp)

    hits.newest_asserted = newest_asserted  # type: ignore[assignment]


def score_window(data: str, store: str, window: int) -> dict[str, float]:
    """:func:`score` of ``data``'s current questions (recall's reading, whatever is
    patched in) with a newest-first window of ``window`` hits."""
    os.environ["RECALL_NEWEST_FIRST"] = str(window)
    return score("main", json.loads(Path(data).read_text(encoding="utf-8")), Path(store))


def score(mode: str, data: dict[str, Any], store: Path) -> dict[str, float]:
    """The current questions' figures with ``mode``'s oracle in place."""
    _patch(mode, data)
    import recall

    mem = recall.open(store)
    n = top1 = in10 = stale_above = 0
    for uid, qs in _current_questions(data).items():
        for q in qs:
            got = [h.text for h in mem.deep_recall(q["question"], user_id=uid, top_k=10)]
            i_any = next((i for i, t in enumerate(got) if has(t, q["current"] + q["stale"])), None)
            i_cur = next((i for i, t in enumerate(got) if has(t, q["current"])), None)
            n += 1
            top1 += i_any is not None and i_any == i_cur
            in10 += i_cur is not None
            stale_above += i_any is not None and i_any != i_cur
    mem.close()
    return {
        "current_top1": round(100 * top1 / n, 1),
        "current_in10": round(100 * in10 / n, 1),
        "stale_above": round(100 * stale_above / n, 1),
        "n": n,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--data", required=True, help="a timeline users.json")
    ap.add_argument("--store", help="a folder holding the set already written (else a temp one)")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--out", help="write the figures as JSON here")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    a = ap.parse_args()
    data = json.loads(Path(a.data).read_text())
    if a.worker:  # one mode, in its own process: the oracles patch modules in place
        print(json.dumps(score(a.worker, data, Path(a.store))))
        return
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(a.store) if a.store else Path(tmp) / "store"
        if not a.store:
            ingest(data, store)
        out: dict[str, Any] = {"data": a.data, "modes": {}}
        for mode in a.modes.split(","):
            run = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--data",
                    a.data,
                    "--store",
                    str(store),
                    "--worker",
                    mode,
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            figures = json.loads(run.stdout.strip().splitlines()[-1])
            out["modes"][mode] = figures
            print(
                f"{mode:7} current first {figures['current_top1']:5.1f}  "
                f"in top 10 {figures['current_in10']:5.1f}  "
                f"stale above {figures['stale_above']:5.1f}  (n={figures['n']})",
                flush=True,
            )
    if a.out:
        Path(a.out).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
