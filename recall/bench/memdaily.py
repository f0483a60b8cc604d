"""MemDaily (MemSim, Zhang et al., 2024): Chinese personal-assistant messages.

A trajectory has a handful of messages and one or more questions whose evidence is the
messages listed in ``target_step_id``. A few messages make no haystack, so each question
trajectory gets a memory of its own (one user) built like this:

1. take all of the trajectory's messages;
2. add messages drawn, without replacement, from the *other* trajectories of the same file
   (the same kind of question, hence the hardest distractors: same templates, same
   entity types) with ``random.Random(f"{seed}:{file}:{tid}")``, until the haystack holds
   ``haystack`` messages (or the file runs out);
3. shuffle the haystack (same seed), then index every message as ``"(time, place) message"``
   with its ``created_at``.

A question's own ``time`` is when it was asked: time words in it ("上周", "昨天") are read
against that (``query_meta[qid]["asked_at"]``), not the haystack's last message, which may
be another conversation's.

Recall is over the target trajectory's ``target_step_id`` messages. ``limit`` picks a
seeded sample of questions spread evenly over the files (every file keeps the same share),
so that a partial run still covers each question type.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .data import Dataset, DatasetError

__all__ = ["load_memdaily"]

_TIME = re.compile(r"(\d{4})年(\d{2})月(\d{2})日\D*?(\d{1,2}):(\d{2})")


def _parse_time(value: object) -> datetime | None:
    m = _TIME.search(str(value))
    if not m:
        return None
    y, mo, d, h, mi = (int(x) for x in m.groups())
    return datetime(y, mo, d, h, mi, tzinfo=UTC)


def _text(msg: dict[str, Any]) -> str:
    where = ", ".join(str(msg[k]) for k in ("time", "place") if msg.get(k))
    return f"({where}) {msg['message']}" if where else str(msg["message"])


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    files = sorted(path.glob("*.json"))
    if not files:
        raise DatasetError(f"no MemDaily *.json files in {path}")
    return files


def _pick(
    files: Sequence[Path], trajectories: dict[Path, list[Any]], limit: int | None, seed: int
) -> dict[Path, set[int]]:
    """Indexes of the trajectories to ask, per file: all, or an even seeded sample."""
    if limit is None:
        return {f: set(range(len(trajectories[f]))) for f in files}
    if limit < 1:
        raise DatasetError("--limit must be at least 1")
    per_file, extra = divmod(limit, len(files))
    out = {}
    for i, f in enumerate(files):
        n = min(len(trajectories[f]), per_file + (1 if i < extra else 0))
        out[f] = set(random.Random(f"{seed}:{f.name}:pick").sample(range(len(trajectories[f])), n))
    return out


def load_memdaily(
    path: str | Path, *, haystack: int = 100, seed: int = 0, limit: int | None = None
) -> Dataset:
    """Load MemDaily from a folder of its ``*.json`` files (or one file)."""
    path = Path(path)
    if not path.exists():
        raise DatasetError(f"MemDaily path {path} does not exist; pass --data DIR")
    files = _files(path)
    trajectories: dict[Path, list[Any]] = {}
    for f in files:
        try:
            trajectories[f] = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise DatasetError(f"cannot read MemDaily file {f}: {exc}") from exc
    ds = Dataset(name="memdaily", corpus={}, queries={}, qrels={})
    sizes = []
    skipped = 0
    for f, chosen in _pick(files, trajectories, limit, seed).items():
        trajs = trajectories[f]
        for ti in sorted(chosen):
            traj = trajs[ti]
            user = f"{f.stem}/t{traj['tid']}"
            own = [(traj, m) for m in traj["message_list"]]
            others = [(t, m) for j, t in enumerate(trajs) if j != ti for m in t["message_list"]]
            rng = random.Random(f"{seed}:{f.name}:{traj['tid']}")
            fill = rng.sample(others, min(len(others), max(0, haystack - len(own))))
            # Seeded shuffle: the evidence sits anywhere in the haystack, so that no system
            # gains or loses by the order documents were added in (a retriever that breaks
            # score ties by position would otherwise always favour, or never see, them).
            mixed = own + fill
            rng.shuffle(mixed)
            for t, m in mixed:
                doc = f"{user}/{t['tid']}:{m['mid']}"
                ds.corpus[doc] = {"text": _text(m), "user": user}
                when = _parse_time(m.get("time"))
                if when is not None:
                    ds.corpus[doc]["created_at"] = when
            sizes.append(len(own) + len(fill))
            for q in traj["question_list"]:
                rel = {f"{user}/{traj['tid']}:{mid}": 1 for mid in q.get("target_step_id") or []}
                rel = {d: 1 for d in rel if d in ds.corpus}
                if not rel:
                    skipped += 1
                    continue
                qid = f"{user}/q{q['qid']}"
                ds.queries[qid] = str(q["question"])
                ds.query_meta[qid] = {"user": user, "category": f.stem}
                asked = _parse_time(q.get("time"))
                if asked is not None:  # "上周" is read against when the question was asked
                    ds.query_meta[qid]["asked_at"] = asked
                ds.qrels[qid] = rel
    ds.stats.update(
        {
            "files": len(files),
            "haystacks": len(sizes),
            "mean_haystack_messages": round(sum(sizes) / max(1, len(sizes)), 1),
            "skipped_no_target_step": skipped,
        }
    )
    ds.params.update({"data": str(path), "haystack": haystack, "seed": seed})
    ds.validate()
    return ds
