"""``recall delete-user --vacuum`` on the PostgreSQL store: ``VACUUM FULL``, then CHECKPOINT.

:meth:`~recall.store.pg.PostgresDialect.vacuum` runs :func:`vacuum_postgres` on its open
connection, under its lock. The statements are :mod:`recall.store.vacuum`'s; this module
owns running them on every table that holds user rows, skipping (and naming) those this
role may not vacuum, and the lines the CLI prints about what the files still hold.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from ..errors import StoreError
from .users import USER_TABLES
from .vacuum import PG_MAY_VACUUM_STATISTICS, PG_NOT_OWNED, PG_VACUUM

__all__ = ["vacuum_postgres"]


def vacuum_postgres(db: Any, conn: Any, *, lock_timeout_s: float) -> list[str]:
    """Rewrite every table that holds user rows on the store's adapter ``db`` (its psycopg
    connection ``conn`` runs the CHECKPOINT); returns what was done, one line each.

    The caller holds the store's lock and has checked the connection is alive.
    """
    import psycopg

    lines: list[str] = []
    # PostgreSQL skips a table this role may not vacuum with a mere notice: say so.
    others = {r[0] for r in db.execute(PG_NOT_OWNED, (list(USER_TABLES),))}
    mine = [t for t in USER_TABLES if t not in others]
    db.execute(f"SET lock_timeout = {int(lock_timeout_s * 1000)}")
    try:
        for table in mine:
            db.execute(PG_VACUUM.format(table=table))
    finally:
        with suppress(psycopg.Error, StoreError):
            db.execute("RESET lock_timeout")
    if mine:
        lines.append(
            f"VACUUM FULL {', '.join(mine)}: table and index files rewritten "
            "without the deleted rows"
        )
    if others:
        lines.append(
            f"skipped {', '.join(sorted(others))}: only their owner or a superuser "
            "may vacuum them; run `recall delete-user --vacuum` as that role"
        )
    lines.append(_statistics(db, lock_timeout_s))
    try:
        conn.execute("CHECKPOINT")
        lines.append("  CHECKPOINT: the old files are unlinked")
    except psycopg.errors.InsufficientPrivilege:
        lines.append(
            "  CHECKPOINT needs a superuser or the pg_checkpoint role: the server's "
            "next checkpoint unlinks the old files"
        )
    lines.append(
        "  the WAL, its archive and any replica keep the rows until their segments are "
        "recycled (docs/server.md: Erasure on a server store)"
    )
    return lines


def _statistics(db: Any, lock_timeout_s: float) -> str:
    """Rewrite ``pg_statistic``: ANALYZE (autovacuum's too) keeps sampled values of the
    columns there, the erased text and user ids included, and each new ANALYZE leaves the
    old row dead in its file. Only a superuser may vacuum the catalog; the line says so."""
    import psycopg

    if not db.execute(PG_MAY_VACUUM_STATISTICS).fetchone()[0]:
        return (
            "skipped pg_statistic: ANALYZE's samples of the columns (erased values among "
            "them) stay in its file until a superuser runs VACUUM FULL pg_catalog.pg_statistic"
        )
    db.execute(f"SET lock_timeout = {int(lock_timeout_s * 1000)}")
    try:
        db.execute("VACUUM FULL pg_catalog.pg_statistic")
    finally:
        with suppress(psycopg.Error, StoreError):
            db.execute("RESET lock_timeout")
    return "VACUUM FULL pg_statistic: the column samples ANALYZE kept, rewritten without them"
