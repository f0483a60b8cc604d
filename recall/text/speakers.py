"""The speaker labels of a stored exchange: "User: …", "Assistant: …", "用户：…".

The offline summarizer writes a conversation one line per message, each opening with its
speaker's label (recall.lifecycle.sentences reads the full set, names included). The user
model reads these lines in several places (whose words a line holds, which line to keep
whole when a sentence goes, which words name nobody); this is their one reading of the
label.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["LABEL", "label_of", "user_lines", "without_labels"]

#: A speaker's label opening a line (``label``: as written, with the spacing after it;
#: ``who``: the speaker's word).
LABEL: Final = re.compile(
    r"^(?P<label>[ \t]*(?P<who>User|Assistant|AI|用户|助手)[ \t]*[:：][ \t]*)",
    re.IGNORECASE | re.MULTILINE,
)
_ASSISTANT: Final = frozenset({"assistant", "ai", "助手"})


def label_of(line: str) -> tuple[str, bool]:
    """The label opening ``line`` as written ("" when none), and whether the line is the
    assistant's."""
    m = LABEL.match(line)
    if m is None:
        return "", False
    return m.group("label"), m.group("who").lower() in _ASSISTANT


def user_lines(text: str) -> list[str]:
    """The user's lines of a labelled exchange, less their labels; ``[text]`` when no
    line is the user's (an unlabelled note or message is the user's words)."""
    out = []
    for line in text.splitlines():
        label, assistant = label_of(line)
        if label and not assistant:
            out.append(line[len(label) :])
    return out or [text]


def without_labels(text: str) -> str:
    """``text`` with every line's speaker label replaced by a space (a label names nobody)."""
    return LABEL.sub(" ", text)
