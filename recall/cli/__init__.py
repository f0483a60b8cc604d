"""The ``recall`` command line: one click group, one module per command family.

:mod:`.app` holds the group (library errors become one-line messages) and the shared
options; importing a command module registers its commands on the group.
"""

# Imported for their commands: importing a command module registers them on the group.
from . import (  # noqa: F401
    context,
    corrections,
    demo,
    index,
    memory,
    migrate,
    profile,
    records,
    serve,
    settings,
    users,
)
from . import report as report  # registers `recall memory report` (recall/cli/report.py)
from .app import main

__all__ = ["main"]

# `recall bench` lives with the benchmark harness it drives, imported when it is named
# (RecallGroup.LAZY).
