"""One home for every exception: each ``RecallError`` subclass the library defines is
``recall.<Name>``, is defined in :mod:`recall.errors`, and its tree there names it (issue 25);
the server's own are ``recall.server.<Name>``, defined in :mod:`recall.server.errors`, whose
tree names them (issue 34: the service's code in the service's wing).
"""

from __future__ import annotations

import importlib
import pkgutil

import recall
import recall.errors
import recall.server
from recall.errors import RecallError

#: Defined where they are raised, for now: a module another change is editing. Move each
#: into recall/errors.py (re-exported from its old module) and drop it from here.
ELSEWHERE: dict[str, str] = {}


def _every_error() -> list[type[RecallError]]:
    for module in pkgutil.walk_packages(recall.__path__, "recall."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    found: list[type[RecallError]] = []
    todo = [RecallError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    # A test's own subclasses aside; a private class (recall.llm._BadRequest) is caught in
    # the module that raises it and never reaches a caller.
    return sorted(
        (c for c in found if c.__module__.startswith("recall") and not c.__name__.startswith("_")),
        key=lambda c: c.__name__,
    )


def _home(cls: type[RecallError]) -> tuple[object, str]:
    """The package that exports ``cls`` and the module that must define it."""
    if cls.__module__.startswith("recall.server"):
        return recall.server, "recall.server.errors"
    return recall, "recall.errors"


def test_every_error_is_importable_from_its_package() -> None:
    errors = _every_error()
    assert len(errors) > 20
    for cls in errors:
        package, _ = _home(cls)
        assert getattr(package, cls.__name__, None) is cls, f"{package}.{cls.__name__}"
        assert cls.__name__ in package.__all__  # type: ignore[attr-defined]
    server = {c.__name__ for c in errors if _home(c)[0] is recall.server}
    assert {"AuthError", "OriginError", "TooLargeError"} <= server
    assert not server & set(recall.__all__), "a server error in the library's namespace"


def test_every_error_is_defined_in_recall_errors() -> None:
    elsewhere = {c.__name__: c.__module__ for c in _every_error() if c.__module__ != _home(c)[1]}
    assert elsewhere == ELSEWHERE, "define every RecallError in recall/errors.py"


def test_the_tree_in_recall_errors_names_every_error() -> None:
    import recall.server.errors

    docs = {
        "recall.errors": recall.errors.__doc__,
        "recall.server.errors": recall.server.errors.__doc__,
    }
    missing = [c.__name__ for c in _every_error() if c.__name__ not in (docs[_home(c)[1]] or "")]
    assert not missing, f"add {missing} to the tree in recall/errors.py"


def test_the_old_import_paths_still_work() -> None:
    from recall.bench.data import DatasetError
    from recall.store.users import UnknownUserError, UserExistsError

    for cls in (DatasetError, UnknownUserError, UserExistsError):
        assert getattr(recall.errors, cls.__name__) is cls
