"""Store and vector index belong together: a shared folder id, and counts that must agree.

The store is the source of truth, the vectors are derived. Two faults would otherwise go
unnoticed:

* **A truncated or replaced store.** SQLite opens a 0-byte file as an empty database, so a
  lost ``recall.sqlite3`` would silently become an empty memory (and the first write would
  make it look healthy). The folder therefore carries a marker file holding the folder id
  that the store also records; a folder with a marker but without its store, or whose
  store has forgotten the id, is refused with a :class:`StoreError`.
* **Vectors removed behind recall's back** (a deleted ``chroma/`` folder, a delete through
  Chroma's own API). The index records which store version it reflects, so it would never
  notice. On open, each bucket collection's vector count is compared with the records
  the store holds for that bucket's users; the users of a bucket that disagrees are marked
  lagging, and their next query (or ``recall reindex``) re-embeds what is missing.
"""

from __future__ import annotations

import json
import logging
import os
import uuid
from collections import defaultdict
from pathlib import Path

from ..errors import StoreError
from ..store import Store
from .vector import VectorIndex

__all__ = ["FOLDER_ID_KEY", "MARKER", "bind_folder", "check_store_file", "mark_missing_vectors"]

log = logging.getLogger(__name__)

#: Store meta key holding the folder id (also in the marker file).
FOLDER_ID_KEY = "folder_id"
#: The marker file in the memory folder (beside the store, outside ``chroma/``).
MARKER = "recall-folder.json"

_RECOVER = (
    "Restore recall.sqlite3 from a backup (or re-import `recall export-user` files). "
    "`recall reindex` cannot help: the vectors do not hold the text. To start over with an "
    "empty memory instead, delete the folder."
)


def _read_marker(folder: Path) -> str | None:
    try:
        data = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise StoreError(
            f"the folder marker {folder / MARKER} is unreadable ({exc}); delete it to have it "
            "written again from the store"
        ) from exc
    folder_id = data.get("folder_id") if isinstance(data, dict) else None
    return str(folder_id) if folder_id else None


def _write_marker(folder: Path, folder_id: str) -> None:
    tmp = folder / f".{MARKER}.tmp"
    try:
        folder.mkdir(parents=True, exist_ok=True)  # a server store creates no folder itself
        tmp.write_text(json.dumps({"folder_id": folder_id}) + "\n", encoding="utf-8")
        os.replace(tmp, folder / MARKER)  # atomic: a crash leaves the old marker or the new
    except OSError as exc:
        raise StoreError(
            f"cannot write the folder marker {folder / MARKER} ({exc}); check that the "
            "memory folder is writable"
        ) from exc


def check_store_file(folder: Path, store_file: Path) -> None:
    """Refuse a folder whose store file is gone or empty while the folder held a memory.

    Runs before the store is opened, so a truncated file is never given a fresh schema.
    """
    if store_file.is_file() and store_file.stat().st_size > 0:
        return
    held = _read_marker(folder) is not None or any((folder / "chroma").glob("*"))
    if not held:
        return  # a new folder (or one whose first open was cut short before any write)
    state = "empty (0 bytes)" if store_file.exists() else "missing"
    raise StoreError(
        f"the store {store_file} is {state}, but {folder} held a memory (its marker or "
        f"vectors are still there): every record would be lost. {_RECOVER}"
    )


def bind_folder(
    store: Store, folder: Path, vectors: VectorIndex | None, *, own_store: bool = True
) -> str:
    """Check that the store is this folder's store; returns the folder id.

    ``vectors`` is the folder's own embedded index (None for a Chroma server, whose
    collections other folders may share). ``own_store`` is False for a server store, which
    many folders (one per process) share: the marker then only follows the store's id.
    """
    folder_id = store.get_meta(FOLDER_ID_KEY)
    on_disk = _read_marker(folder)
    # The marker binds the store only where the folder holds the store or the vectors.
    marker_id = on_disk if own_store or vectors is not None else None
    if folder_id is None:
        if not store.users():
            if marker_id is not None:
                raise StoreError(
                    f"the store in {folder} is empty, but the folder held a memory (folder "
                    f"id {marker_id}): the store file was truncated or replaced. {_RECOVER}"
                )
            if vectors is not None and vectors.count_users_vectors() > 0:
                raise StoreError(
                    f"the store in {folder} is empty, but {folder / 'chroma'} holds vectors: "
                    f"the store file was truncated or replaced. {_RECOVER}"
                )
        # A new folder, or one written before folder ids existed: adopt or mint the id.
        folder_id = marker_id or uuid.uuid4().hex
        store.set_meta(FOLDER_ID_KEY, folder_id)
    elif marker_id is not None and marker_id != folder_id:
        raise StoreError(
            f"the store in {folder} belongs to another memory folder (folder id {folder_id}, "
            f"the folder's marker says {marker_id}): the store file was replaced. Put the "
            f"right store back, or delete {folder / MARKER} and run `recall reindex` to "
            "rebuild the vectors from this store."
        )
    if on_disk != folder_id:  # written once, not at every open
        _write_marker(folder, folder_id)
    return folder_id


def mark_missing_vectors(store: Store, vectors: VectorIndex, key: str) -> list[str]:
    """Mark lagging the users whose vectors disagree with the store; returns them.

    Per bucket collection, the vector count is compared with the records the store holds
    for the bucket's users. A user whose indexing is merely *pending* (its recorded index
    version behind the store's: a crash between the two commits, a vector store outage)
    explains a shortfall by itself and is caught up by its next query anyway, so it is not
    reported as a removal; in a bucket holding such users, the others are counted one by
    one. Marked users' next query diffs content hashes and re-embeds what is missing (the
    same idempotent catch-up as after a crash), so nothing is lost but time.
    """
    members: dict[int, list[tuple[str, int]]] = defaultdict(list)
    pending: set[str] = set()
    for user_id, kinds in store.counts().items():
        members[vectors.bucket(user_id)].append((user_id, sum(kinds.values())))
        if store.index_version(key, user_id) != store.version(user_id):
            pending.add(user_id)
    have = vectors.bucket_counts()
    marked: list[str] = []
    for bucket, users in members.items():
        if have.get(bucket, 0) == sum(n for _, n in users):
            continue
        current = [(u, n) for u, n in users if u not in pending]
        if len(current) < len(users):  # the pending users explain some of the gap
            current = [(u, n) for u, n in current if len(vectors.hashes(u)) != n]
        marked += [u for u, _ in current]
    for user_id in marked:
        store.set_index_version(key, user_id, -1)
    if marked:
        log.warning(
            "recall: the vector index disagrees with the store for %d users (vectors removed "
            "outside recall?); their next query re-embeds what is missing",
            len(marked),
        )
    if pending:
        log.info("recall: indexing pending for %d users; their next query catches up", len(pending))
    return marked
