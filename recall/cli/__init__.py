"""The ``recall`` command line: one click group, one module per command family.

:mod:`.app` holds the group (library errors become one-line messages) and the shared
options; importing a command module registers its commands on the group.
"""

from . import (
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

# The modules are imported for their commands; naming them keeps linters from calling the
# imports unused.
_COMMAND_MODULES = (
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

# `recall bench` lives with the benchmark harness it drives, imported when it is named
# (RecallGroup.LAZY).
