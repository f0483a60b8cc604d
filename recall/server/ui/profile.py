"""The profile part of a user's inspector page: what is true of the user now, attribute by
attribute, and what each value replaced (:meth:`recall.Memory.profile`).

The macro ``profile`` of ``templates/sections.html``: every stored text (attribute, value,
statement) is escaped by the template engine.
"""

from __future__ import annotations

from ...models import Profile
from .templates import macro

__all__ = ["profile_section"]


def profile_section(profile: Profile | None) -> str:
    """Each attribute's current value first, then the values it held before, newest first."""
    return macro("profile", profile)
