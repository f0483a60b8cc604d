"""The store: the source of truth, every SQL statement recall runs."""
