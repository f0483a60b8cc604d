"""``python -m recall.cli``: the same as the ``recall`` command."""

from .main import main

main()
