"""The ``recall`` command line: one click group, one module per command family."""

from .main import main

__all__ = ["main"]
