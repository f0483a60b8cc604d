"""A recall process driven over its standard input, for the multi-process test and benchmark.

``python tests/mp_worker.py FOLDER STORE_URL CHROMA_URL`` opens one memory (its own folder,
the shared PostgreSQL store and Chroma server), prints ``{"ready": pid}``, then answers
one JSON command per line with one JSON line:

- ``{"op": "add", "user": U, "id": I, "text": T}`` -> ``{"ok": I}`` once stored;
- ``{"op": "delete", "user": U, "id": I}`` -> ``{"ok": n}`` (records removed);
- ``{"op": "find", "user": U, "q": Q}`` -> ``{"ids": [...]}`` (deep_recall, top 3);
- ``{"op": "update", "user": U, "text": T}`` -> ``{"ok": job}`` (update_memory, background);
- ``{"op": "flush"}`` -> ``{"ok": true}`` once this process's jobs are done;
- ``{"op": "loop", "user": U, "n": N, "tag": G}`` -> ``{"ok": N, "s": seconds}``: N rounds of
  one add and one find, for the throughput benchmark.
"""

from __future__ import annotations

import json
import os
import sys
import time

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import recall


def main() -> None:
    folder, store_url, chroma_url = sys.argv[1:4]
    settings = recall.Settings(path=folder, vector_partitions=4)
    mem = recall.open(folder, store_url=store_url, chroma_url=chroma_url, settings=settings)
    mem.embedder()  # load the model before saying ready
    print(json.dumps({"ready": os.getpid()}), flush=True)
    for line in sys.stdin:
        cmd = json.loads(line)
        op = cmd["op"]
        if op == "add":
            out: object = {"ok": mem.add(cmd["text"], user_id=cmd["user"], id=cmd["id"])}
        elif op == "delete":
            out = {"ok": mem.delete([cmd["id"]], user_id=cmd["user"])}
        elif op == "find":
            out = {"ids": [h.id for h in mem.deep_recall(cmd["q"], user_id=cmd["user"], top_k=3)]}
        elif op == "update":
            done = mem.update_memory(cmd["text"], user_id=cmd["user"], background=True)
            out = {"ok": done.job_id}
        elif op == "flush":
            out = {"ok": mem.flush(timeout=120)}
        elif op == "loop":
            t = time.perf_counter()
            for i in range(cmd["n"]):
                tag = f"{cmd['tag']}-{i}"
                mem.add(f"benchmark note {tag}: parcel {tag} left the depot", user_id=cmd["user"])
                mem.deep_recall(f"parcel {tag}", user_id=cmd["user"], top_k=3)
            out = {"ok": cmd["n"], "s": time.perf_counter() - t}
        else:
            break
        print(json.dumps(out), flush=True)
    mem.close()


if __name__ == "__main__":
    main()
