"""The inspector: read-only HTML pages of a memory at ``/ui``, and the memory report.

:class:`InspectorUi` serves the pages behind the Gate (:mod:`.routes`); the renderer is
pure functions, data in and HTML out (:mod:`.render`, :mod:`.sections`, :mod:`.page`),
so ``recall memory report`` writes the same view to one self-contained file; what one
page shows is read in one call (:func:`gather`). docs/inspector.md tells how to use it
and why it logs in the way it does.
"""

from .answers import html_error, ui_http_error
from .render import report_page, user_page, users_page
from .routes import PUBLIC_PATHS, InspectorUi
from .view import Params, UserView, gather

__all__ = [
    "InspectorUi",
    "PUBLIC_PATHS",
    "Params",
    "UserView",
    "gather",
    "html_error",
    "report_page",
    "ui_http_error",
    "user_page",
    "users_page",
]
