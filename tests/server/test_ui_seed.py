"""The memory the inspector's tests look at (no test here: tests/server/test_ui*.py share it).

``acme:bob`` has two article versions (a fact edited between them), short-term summaries,
notes and facts said on known days, a record that tries to run a script, and a query
(:data:`QUERY`) whose ranking keeps some hits and floors others; ``beta:eve`` belongs to
another tenant, ``acme:ann`` and :data:`MARKUP_USER` to the same one.
"""

from __future__ import annotations

from pathlib import Path

import recall
from recall.server import ApiKeys
from recall.testing import HashEmbedder

KEY = "acme-key-0123456789"
OPERATOR_KEY = "op-key-0123456789012"
OTHER_KEY = "beta-key-0123456789"
BOB = "acme:bob"
#: A user id that is markup: listed and linked, never rendered as an element.
MARKUP_USER = "acme:<img src=x onerror=alert(1)>"
#: Stored as a record's text: the inspector must show it, not run it.
SCRIPT = "<script>alert('pwned')</script> & <b>bold</b> about the billing queue"
#: Some ranked records share its words or come close enough; the rest are floored.
QUERY = "who owns on-call"
#: A dozen notes, one said on the 10th of each month of 2026.
NOTES = (
    "Deploys go out on Tuesdays after the 10:00 stand-up.",
    "The billing queue backs up when invoices-v2 retries; watch the dead-letter count.",
    "Priya owns the on-call rota from April.",
    "Staging runs on node pool blue-7; production on green-2.",
    "The team agreed to freeze schema changes during the audit.",
    "Prefers short answers with code first, prose after.",
    "The customer portal's login page moved to the new identity provider.",
    "Quarterly planning happens in the first week of each quarter.",
    "Asked to be reminded to renew the TLS certificate before it expires.",
    "The data warehouse refresh now runs at 02:00 UTC.",
    "Uses Neovim with the LazyVim setup.",
    "Wants weekly summaries of what changed in the billing service.",
)


def keys() -> ApiKeys:
    """acme's key, an operator key and beta's key."""
    return ApiKeys([(KEY, "acme"), (OPERATOR_KEY, "*"), (OTHER_KEY, "beta")])


def seed(path: Path) -> recall.Memory:
    """A memory at ``path`` (HashEmbedder: no model) holding the users above."""
    settings = recall.Settings(
        path=path, vector_partitions=4, short_term_capacity=2, promote_count=2
    )
    mem = recall.open(settings=settings, embedder=HashEmbedder())
    mem.update_memory("My name is Ottoline. I am allergic to penicillin.", user_id=BOB)
    mem.update_memory("We renamed the billing queue to invoices-v2.", user_id=BOB)
    mem.update_memory("The staging cluster moved to node pool blue-7.", user_id=BOB)
    mem.edit_fact(BOB, "penicillin", "amoxicillin")
    for month, text in enumerate(NOTES, start=1):
        mem.add(text, user_id=BOB, created_at=f"2026-{month:02d}-10")
    for day in (3, 4, 5):
        mem.add(
            f"The quarterly tax filing moved to March {day}.",
            user_id=BOB,
            kind="fact",
            created_at=f"2026-03-{day:02d}",
        )
    mem.add(SCRIPT, user_id=BOB, created_at="2026-06-01")
    mem.add("Ann prefers tea.", user_id="acme:ann")
    mem.add("Whose id is markup.", user_id=MARKUP_USER)
    mem.add("Eve's secret project is Nightjar.", user_id="beta:eve")
    return mem
