"""``python -m recall.cli``: the same as the ``recall`` command."""

from . import main

main()
