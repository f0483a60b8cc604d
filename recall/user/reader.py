"""The retriever's reader of the user: :data:`USER_READER`, the
:class:`recall.index.user_model.UserModel` made of this package's functions. The facade
gives it to the :class:`~recall.index.retriever.Retriever`; recall.index sits below
recall.user and never imports it."""

from __future__ import annotations

from ..index.user_model import UserModel
from .asked import as_first_person, current_statements, profile_and_asked, user_facts
from .novelty import named_since
from .present import present_first

__all__ = ["USER_READER"]

#: What the user's own words say of them, read for the retriever (stateless: what it reads
#: is kept in each partition).
USER_READER = UserModel(
    derive=user_facts,
    profile=profile_and_asked,
    asked=current_statements,
    present_first=present_first,
    first_person=as_first_person,
    named_since=named_since,
)
